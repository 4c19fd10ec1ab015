"""The Psy01-A stress certificates computed rigorously on a concrete network (a library; it
declares no obligations): the clean forward pass in ``arb`` balls, the frozen-gate bounds at
one input (:func:`frozen_gate_bounds`), and, on the seeded network of :mod:`.stress_network`
and its test set, the frozen-gate and global certificates (:func:`frozen_certificates`,
:func:`global_certificates`, each built once per process).

The theorems these numbers instantiate, and their proofs, are in :mod:`.stress_bounds`; the
frozen-gate bounds are also evaluated on the sparse construction (:mod:`.construction_gates`)
and on the t-unit networks (:mod:`.t_unit_certificates`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from checker.backends import interval
from checker.kernel.verdicts import fmt
from obligations.psy01a.arb_linalg import (_Precision, _arb_mat, _flint, _np, _to_fraction, opnorm_lower, opnorm_upper,
                                           to_interval)
from obligations.psy01a.stress_network import SPEC, Net, StressSpec, evaluation_set, stress_network


def _relu_arb(x: Any) -> Any:
    flint = _flint()
    if x > 0:
        return x
    if x < 0:
        return flint.arb(0)
    return flint.arb(0).union(x)


def _sign(x: Any) -> int | None:
    return 1 if x > 0 else 0 if x < 0 else None


@dataclass(frozen=True, eq=False)
class CleanPass:
    pre: tuple[Any, ...]  # arb_mat (n_ℓ × N) preactivations of the hidden layers
    logits: Any  # arb_mat (4 × N)


def clean_pass(net: Net, u: Any) -> CleanPass:
    """Rigorous clean forward pass of a batch (columns are inputs)."""
    flint = _flint()
    np = _np()
    n = u.shape[0]
    h = _arb_mat(np.concatenate([u.T, np.ones((1, n))], axis=0))
    pres = []
    for layer in range(4):
        aug = _arb_mat(np.concatenate([net.weights[layer], net.biases[layer].reshape(-1, 1)], axis=1))
        a = aug * h
        if layer == 3:
            return CleanPass(tuple(pres), a)
        pres.append(a)
        rows = a.nrows()
        h = flint.arb_mat(rows + 1, n, [_relu_arb(a[i, c]) for i in range(rows) for c in range(n)] + [1] * n)
    raise AssertionError("unreachable")


def _col(m: Any, c: int) -> list[Any]:
    return [m[i, c] for i in range(m.nrows())]


def margin_lower(z: list[Any], y: int) -> Any:
    """A rigorous lower bound of m(z, y) = z_y − max_{j≠y} z_j."""
    return min((z[y] - z[j]).lower() for j in range(len(z)) if j != y)


@dataclass(frozen=True)
class Certified:
    """Certified bounds for one input (rigorous, as exact rationals)."""

    lower: Fraction
    upper: Fraction
    eps_gate: Fraction | None
    p: tuple[str, ...] = ()
    note: str = ""


class _Prepared:
    """Input-independent rigorous quantities of a network."""

    def __init__(self, net: Net) -> None:
        self.net = net
        self.w = [_arb_mat(x) for x in net.weights]
        w2, w3 = self.w[1], self.w[2]
        self.k2 = w2 * w2.transpose()
        # the squared row norms as the diagonals of B₂B₂ᵀ and B₃B₃ᵀ (arb matrix products, in C):
        # the same balls as the entrywise sums (exact here: grid weights at ARB_PREC bits)
        self.v2sq = [self.k2[i, i] for i in range(w2.nrows())]
        k3 = w3 * w3.transpose()
        self.w3sq = [k3[i, i] for i in range(w3.nrows())]
        self.v2 = [x.sqrt() for x in self.v2sq]  # the layer-2 frozen standard deviations (÷σ), input-independent
        self.v3_dormant = [x.sqrt() for x in self.w3sq]  # layer 3's when no layer-2 gate is open


TAIL_CUTOFF = 9  # gates with |a|/(σv) ≥ 9 are bounded together by Φ(−9) each


def frozen_gate_bounds(prep: _Prepared, cp: CleanPass, col: int, y: int, sigma: Fraction) -> Certified:
    """Theorem (frozen gates) at one input, rigorously; trivial bounds [0, 1] if a gate's clean
    preactivation is not certifiably nonzero."""
    flint = _flint()
    net = prep.net
    a2, a3 = _col(cp.pre[1], col), _col(cp.pre[2], col)
    d2, d3 = [_sign(x) for x in a2], [_sign(x) for x in a3]
    if None in d2 or None in d3:
        return Certified(Fraction(0), Fraction(1), None, note="a clean gate preactivation is not certifiably nonzero")
    act2 = [i for i, g in enumerate(d2) if g]
    act3 = [i for i, g in enumerate(d3) if g]
    sig = flint.arb(sigma.numerator) / sigma.denominator
    # frozen preactivation standard deviations (divided by σ)
    v2 = prep.v2
    if act2:
        c = _arb_mat(net.weights[2][:, act2])
        ka = flint.arb_mat(len(act2), len(act2), [prep.k2[i, j] for i in act2 for j in act2])
        ck = c * ka
        v3 = [(prep.w3sq[i] + sum((ck[i, t] * c[i, t] for t in range(len(act2))), flint.arb(0))).sqrt()
              for i in range(c.nrows())]
    else:
        v3 = prep.v3_dormant
    gate_terms = interval.Interval.of(0)
    bulk = 0
    for a, v in [*zip(a2, v2), *zip(a3, v3)]:
        if v == 0:
            continue  # a deterministic preactivation: no gate exit ("a summand is zero if v = 0")
        if not v > 0:
            return Certified(Fraction(0), Fraction(1), None, note="a gate variance is not certifiably positive or zero")
        ratio = abs(a) / (sig * v)
        if ratio.lower() >= TAIL_CUTOFF:
            bulk += 1
        else:
            gate_terms = gate_terms + (-to_interval(ratio)).Phi()
    eps = gate_terms + bulk * interval.Interval.of(-TAIL_CUTOFF).Phi()
    # frozen noise-to-logit matrix J = [B4 D3 B3 D2 B2 | B4 D3 B3 | B4]
    w4 = net.weights[3]
    j3 = prep.w[3]
    if act3:
        j2 = _arb_mat(w4[:, act3]) * _arb_mat(net.weights[2][act3, :])
    else:
        j2 = flint.arb_mat(4, net.weights[2].shape[1])
    if act2:
        j1 = flint.arb_mat(4, len(act2), [j2[r, i] for r in range(4) for i in act2]) * _arb_mat(net.weights[1][act2, :])
    else:
        j1 = flint.arb_mat(4, net.weights[1].shape[1])
    z = _col(cp.logits, col)
    lower = interval.Interval.of(1) - eps
    upper_hi = Fraction(1)
    ps = []
    for j in range(4):
        if j == y:
            continue
        s2 = flint.arb(0)
        for block in (j1, j2, j3):
            for t in range(block.ncols()):
                d = block[y, t] - block[j, t]
                s2 += d * d
        if not s2 > 0:
            return Certified(Fraction(0), Fraction(1), None, note="a pair variance is not certifiably positive")
        p = to_interval((z[y] - z[j]) / (sig * s2.sqrt())).Phi()
        ps.append(p.describe(8))
        lower = lower - (1 - p)
        upper_hi = min(upper_hi, p.hi)
    lo = max(Fraction(0), lower.lo)
    hi = min(Fraction(1), upper_hi + eps.hi)
    return Certified(lo, hi, eps.hi, tuple(ps))


@functools.lru_cache(maxsize=4)
def concrete_network(spec: StressSpec = SPEC) -> tuple[Net, Any, Any, CleanPass]:
    """The concrete network, its test set and their rigorous clean pass (shared by both certificates)."""
    with _Precision():
        net = stress_network(spec)
        u, y = evaluation_set(spec)
        return net, u, y, clean_pass(net, u)


@functools.lru_cache(maxsize=4)
def frozen_certificates(spec: StressSpec = SPEC) -> dict[str, Any]:
    """The frozen-gate certificate on the concrete network and test set (rigorous)."""
    net, u, y, cp = concrete_network(spec)
    with _Precision():
        prep = _Prepared(net)
        per_input = [frozen_gate_bounds(prep, cp, c, int(y[c]), spec.sigma) for c in range(len(y))]
    n = len(per_input)
    return {"per_input": per_input, "frozen_lower": sum((c.lower for c in per_input), Fraction(0)) / n,
            "frozen_upper": sum((c.upper for c in per_input), Fraction(0)) / n}


@functools.lru_cache(maxsize=4)
def global_certificates(spec: StressSpec = SPEC) -> dict[str, Any]:
    """The global certificate on the concrete network and test set (rigorous)."""
    flint = _flint()
    net, u, y, cp = concrete_network(spec)
    n = len(y)
    with _Precision():
        norms = [opnorm_upper(x) for x in net.weights]
        widths = spec.widths
        c_theta = path_constant(norms, widths).upper()
        hidden = sum(widths[1:4])
        delta = flint.arb(spec.delta.numerator) / spec.delta.denominator
        r_delta = (2 * (2 * flint.arb(hidden) / delta).log()).sqrt()
        margins = [margin_lower(_col(cp.logits, c), int(y[c])) for c in range(n)]
        global_rows = []
        for s in spec.global_sigmas:
            threshold = (2 * (flint.arb(s.numerator) / s.denominator) * r_delta * c_theta).upper()
            count = sum(1 for m in margins if m > threshold)
            bound = max(Fraction(0), Fraction(count, n) - spec.delta)
            global_rows.append({"sigma": fmt(s), "threshold_2σRC_upper": to_interval(threshold).describe(12), "certified_inputs": count,
                                "lower_bound": fmt(bound), "lower_bound_float": float(bound)})
        return {
            "opnorm_upper": [to_interval(x).describe(12) for x in norms], "C_theta_upper": to_interval(c_theta).describe(12),
            "H": hidden,
            "R_delta": to_interval(r_delta).describe(10), "global": global_rows,
            "margins_lower": [float(_to_fraction(m)) for m in margins],
        }


def path_constant(norms: Any, widths: Any) -> Any:
    """Σ_{r=1..3} √n_r · Π_{ℓ=r..3} norms[ℓ] in arb: the global certificate's C_θ from upper
    bounds of the operator norms, or a lower bound of it from lower bounds."""
    flint = _flint()
    total = flint.arb(0)
    for r in (1, 2, 3):
        prod = flint.arb(1)
        for layer in range(r, 4):
            prod *= norms[layer]
        total += flint.arb(widths[r]).sqrt() * prod
    return total


def global_bound_at_most(sigma: Fraction, ceiling: Fraction, spec: StressSpec = SPEC) -> bool:
    """True when the global certificate's lower bound at ``sigma`` (``global_certificates``) is
    provably ≤ ``ceiling``, shown without its operator-norm upper bounds: its threshold
    2σR_δC_θ (computed from upper bounds of the norms, an upper bound of the true value) is at
    least 2σR_δC_lo with C_lo = Σ_r √n_r Π_{ℓ>r} (a lower bound of ‖B_ℓ‖_op); an input it
    certifies (margin > its threshold) has margin > this smaller threshold, so its count and
    lower bound max(0, count/N − δ) are at most this count's. False when that does not settle it."""
    flint = _flint()
    net, u, y, cp = concrete_network(spec)
    n = len(y)
    with _Precision():
        lows = [None, *(opnorm_lower(x) for x in net.weights[1:])]
        widths = spec.widths
        c_lo = path_constant(lows, widths)
        hidden = sum(widths[1:4])
        delta = flint.arb(spec.delta.numerator) / spec.delta.denominator
        r_delta = (2 * (2 * flint.arb(hidden) / delta).log()).sqrt()
        threshold = (2 * (flint.arb(sigma.numerator) / sigma.denominator) * r_delta * c_lo).lower()
        count = sum(1 for c in range(n) if margin_lower(_col(cp.logits, c), int(y[c])) > threshold)
    return max(Fraction(0), Fraction(count, n) - spec.delta) <= ceiling


def certificates(spec: StressSpec = SPEC) -> dict[str, Any]:
    """Frozen-gate and global certificates on the concrete network and test set (rigorous);
    each part is built once per process, and only when asked for."""
    net, u, y, _ = concrete_network(spec)
    return {"net": net, "u": u, "y": y, **frozen_certificates(spec), **global_certificates(spec)}
