"""Eq. (10) of arXiv 2507.02953 under genuine pruning, under non-increasing pruned norms, and
the corrected bound when the layers are taken in decreasing order.

Genuine pruning: ``δW_k = −W_k∘(1 − M_k)`` for a 0/1 mask ``M_k``, so ``W_k + δW_k = W_k∘M_k``.
The review's falsifier (δW_1 = 100) is not a pruning; the question is whether a mask can
still break Eq. (10). It can: masking can *raise* a spectral norm (Psy01-A's 2×2 example, and
by a factor growing like log n for the lower-triangular mask — the classical unboundedness of
triangular truncation), and that is exactly the gap in Corollary 1's proof.

Networks here are matrix-valued, zero biases, two layers unless stated: ``π(s) = σ(W₂σ(W₁s))``
with ``σ`` = ReLU (as the review's falsifier, also at the output) or the identity (the paper's
activations are any 1-Lipschitz σ). With zero biases the reconstructed constants
(:mod:`.network`) are ``C₁ = ‖W₂‖‖s‖`` and ``C₂ = ‖W₁‖‖s‖``, so Eq. (10) reads
``‖π(s; W∘M) − π(s; W)‖ ≤ ‖s‖·(‖W₂‖‖δW₁‖ + ‖W₁‖‖δW₂‖)`` (spectral norms).

The structured witness: ``H_ij = fl(1/(i − j + 1/2))`` (the discrete Hilbert-transform matrix,
‖H‖ ≤ π, rounded to binary64 so every entry is an exact dyadic) with the lower-triangular mask
in both layers. Every violation is re-checked rigorously: the deviation in exact rationals, each
spectral norm bounded above with arb balls (``‖A‖ ≤ ‖(AAᵀ)^k‖_F^{1/(2k)}``), and the comparison
made between exact rationals (both sides squared, so ``‖s‖`` enters as the rational ``‖s‖²``).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from checker import Expect, Source, obligation
from checker.backends import exact, sampling, smt
from checker.claims import claim
from checker.kernel.model import Status
from checker.kernel.verdicts import all_of, fmt, fmt_map, refuted, supported, timed, unknown, with_data
from obligations.controller_bound import corollary1, sized_network, theorem2
from obligations.controller_bound.network import c1, c2
from obligations.grading import cross_checked

DOC = "003_be90e9c95890d8e1.txt"
ACTIVATIONS = ("relu", "identity")
NORM_SQUARINGS = 9  # ‖M^k‖_F^{1/(2k)} overestimates ‖A‖ by at most n^{1/(4k)}: 1.0027 at n = 256, k = 2^9
FLOAT_SLACK = 1e-9  # a float ratio must exceed 1 by this before a rigorous re-check is attempted


def _np():
    import numpy

    return numpy


# ---------------------------------------------------------------------------------------
# The two-layer matrix network and Eq. (10) at it (numpy; floats for search only)
# ---------------------------------------------------------------------------------------


def hilbert_matrix(n: int) -> Any:
    """H_ij = fl(1/(i − j + 1/2)): every entry an exact binary64 dyadic."""
    np = _np()
    i = np.arange(n)
    return 1.0 / (i[:, None] - i[None, :] + 0.5)


def lower_triangular(n: int) -> Any:
    np = _np()
    i = np.arange(n)
    return (i[:, None] >= i[None, :]).astype(float)


def _act(np, x, activation: str):
    return np.maximum(x, 0.0) if activation == "relu" else x


def forward(weights: Sequence[Any], s: Any, activation: str) -> Any:
    np = _np()
    x = s
    for w in weights:
        x = _act(np, w @ x, activation)
    return x


@dataclass(frozen=True, eq=False)
class Instance:
    """A pruning instance: weights W_k, masks M_k (0/1 floats), an input s."""

    weights: tuple[Any, ...]
    masks: tuple[Any, ...]
    s: Any
    activation: str
    label: str


def _top_singular(a: Any, iterations: int = 300) -> tuple[float, Any]:
    """The largest singular value and its right singular vector (floats; search only): a full
    SVD up to width 300, power iteration on AᵀA (deterministic start) beyond."""
    np = _np()
    if a.shape[0] <= 300:
        _, sv, vt = np.linalg.svd(a)
        return float(sv[0]), vt[0]
    v = np.ones(a.shape[1]) / np.sqrt(a.shape[1]) + 1e-3 * np.cos(np.arange(a.shape[1]))
    for _ in range(iterations):
        v = a.T @ (a @ v)
        v /= np.linalg.norm(v)
    return float(np.linalg.norm(a @ v)), v


def bound_factor(weights: Sequence[Any], pruned: Sequence[Any]) -> float:
    """Σ_k Π_{l≠k} ‖W_l‖ · ‖δW_k‖ (floats): Eq. (10)'s bound divided by ‖s‖."""
    np = _np()
    norms = [_top_singular(w)[0] for w in weights]
    deltas = [_top_singular(w - p)[0] for w, p in zip(weights, pruned)]
    big_l = len(norms)
    return float(sum(np.prod([norms[l] for l in range(big_l) if l != k]) * deltas[k] for k in range(big_l)))


def _ratio(weights, pruned, factor: float, s: Any, activation: str) -> float:
    np = _np()
    dev = np.linalg.norm(forward(pruned, s, activation) - forward(weights, s, activation))
    bound = factor * np.linalg.norm(s)
    return float(dev / bound) if bound > 0 else 0.0


def float_ratio(inst: Instance) -> float:
    """deviation / Eq. (10)'s bound, in floats (search only)."""
    pruned = [w * m for w, m in zip(inst.weights, inst.masks)]
    return _ratio(inst.weights, pruned, bound_factor(inst.weights, pruned), inst.s, inst.activation)


def _best_input(weights, masks, activation: str, rng, rounds: int) -> tuple[Any, float]:
    """The input maximising the ratio: for the identity the top right singular vector of
    W₂'W₁' − W₂W₁ is optimal; for ReLU it starts a seeded hill-climb (both signs). The input found is
    rounded to binary32, and its ratio is that of the rounded input."""
    np = _np()
    pruned = [w * m for w, m in zip(weights, masks)]
    factor = bound_factor(weights, pruned)
    a, b = weights[0], pruned[0]
    for w, p in zip(weights[1:], pruned[1:]):
        a, b = w @ a, p @ b
    _, top = _top_singular(b - a)
    best_s, best = None, -1.0
    for start in (top, -top):
        s = start.copy()
        cur = _ratio(weights, pruned, factor, s, activation)
        for _ in range(rounds if activation == "relu" else 0):
            s2 = s + 0.05 * np.linalg.norm(s) / np.sqrt(s.size) * rng.normal(size=s.size)
            r2 = _ratio(weights, pruned, factor, s2, activation)
            if r2 > cur:
                s, cur = s2, r2
        if cur > best:
            best_s, best = s, cur
    # Rounded to binary32: LAPACK's singular vector differs between machines in its last bits, and the
    # witness (re-checked exactly at whatever input it names) should be the same input on every machine.
    snapped = best_s.astype(np.float32).astype(float)
    return snapped, _ratio(weights, pruned, factor, snapped, activation)


def instance_family(n: int, rng) -> dict[str, tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """Weights and genuine masks searched at width n: Gaussian N(0, 1/n) weights with Bernoulli
    masks (keep 1/2, keep 1/10) and triangular masks; the Hilbert-type matrix with Bernoulli and
    lower-/upper-triangular masks."""
    np = _np()
    gauss = tuple(rng.normal(size=(n, n)) / np.sqrt(n) for _ in range(2))
    h = hilbert_matrix(n)
    tri = lower_triangular(n)

    def bern(p):
        return tuple((rng.random((n, n)) < p).astype(float) for _ in range(2))

    return {
        "gaussian, Bernoulli(1/2) masks": (gauss, bern(0.5)),
        "gaussian, Bernoulli(1/10) masks": (gauss, bern(0.1)),
        "gaussian, lower-triangular masks": (gauss, (tri, tri)),
        "hilbert, Bernoulli(1/2) masks": ((h, h), bern(0.5)),
        "hilbert, upper-triangular masks": ((h, h), (tri.T, tri.T)),
        "hilbert, lower-triangular masks": ((h, h), (tri, tri)),
    }


def search(widths: Sequence[int], rng, relu_rounds: int) -> tuple[list[dict[str, Any]], list[Instance]]:
    """Largest float ratio per (width, family, activation), and every instance above 1."""
    rows, above = [], []
    for n in widths:
        for name, (weights, masks) in instance_family(n, rng).items():
            for activation in ACTIVATIONS:
                s, r = _best_input(weights, masks, activation, rng, relu_rounds)
                rows.append({"width": n, "family": name, "activation": activation, "max_ratio": round(r, 6)})
                if r > 1 + FLOAT_SLACK:
                    above.append(Instance(tuple(weights), tuple(masks), s, activation, f"n = {n}, {name}, {activation}"))
    return rows, above


# ---------------------------------------------------------------------------------------
# Rigorous re-check of a violation
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dyadic:
    """Binary64 values exactly as integers over one power of two: value_i = ints[i] / 2^shift."""

    ints: tuple[int, ...]
    shift: int

    @classmethod
    def of(cls, np: Any, a: Any) -> "Dyadic":
        ratios = [float(x).as_integer_ratio() for x in np.asarray(a, dtype=float).reshape(-1)]
        shift = max(q.bit_length() - 1 for _, q in ratios)  # every q is a power of two
        return cls(tuple(p << (shift - q.bit_length() + 1) for p, q in ratios), shift)

    def fractions(self) -> list[Fraction]:
        return [Fraction(i, 1 << self.shift) for i in self.ints]


def _exact_forward(weights: Sequence[Any], s: Dyadic, activation: str) -> list[Fraction]:
    """The network's output in exact rationals: each layer an integer matrix-vector product
    over a common power of two (every entry is a binary64 dyadic), ReLU by sign."""
    np = _np()
    x, shift = list(s.ints), s.shift
    for w in weights:
        n_out, n_in = w.shape
        matrix = Dyadic.of(np, w)
        rows = [matrix.ints[i * n_in:(i + 1) * n_in] for i in range(n_out)]
        x = [sum(map(operator.mul, row, x)) for row in rows]
        shift += matrix.shift
        if activation == "relu":
            x = [v if v > 0 else 0 for v in x]
    return [Fraction(v, 1 << shift) for v in x]


def norm_upper(a: Any) -> Fraction:
    """A rigorous upper bound on the spectral norm of a binary64 matrix (arb balls; see
    ``psy01a.arb_linalg.opnorm_upper``); equal matrices are bounded once."""
    key = (a.shape, _np().ascontiguousarray(a, dtype=float).tobytes())
    if key not in _NORM_CACHE:
        _NORM_CACHE[key] = _norm_upper(a)
    return _NORM_CACHE[key]


_NORM_CACHE: dict[Any, Fraction] = {}


def _norm_upper(a: Any) -> Fraction:
    import flint

    from obligations.psy01a.arb_linalg import _to_fraction, opnorm_upper

    old = flint.ctx.prec
    flint.ctx.prec = 160
    try:
        return _to_fraction(opnorm_upper(a, NORM_SQUARINGS))
    finally:
        flint.ctx.prec = old


@dataclass(frozen=True)
class Recheck:
    violated: bool
    deviation_sq: Fraction
    bound_sq_upper: Fraction
    norms_upper: dict[str, str]
    ratio_float: float


def recheck(inst: Instance) -> Recheck:
    """Deviation² exactly; Eq. (10)'s bound² from rigorous norm upper bounds; violated iff
    deviation² > bound², an exact rational comparison."""
    np = _np()
    dyadic_s = Dyadic.of(np, inst.s)
    s = dyadic_s.fractions()
    pruned = [w * m for w, m in zip(inst.weights, inst.masks)]
    layers = len(inst.weights)
    dev = [a - b for a, b in zip(_exact_forward(pruned, dyadic_s, inst.activation),
                                 _exact_forward(inst.weights, dyadic_s, inst.activation))]
    dev_sq = sum((d * d for d in dev), Fraction(0))
    norms = [norm_upper(w) for w in inst.weights]
    deltas = [norm_upper(w - p) for w, p in zip(inst.weights, pruned)]
    factor = Fraction(0)
    for k in range(layers):
        term = deltas[k]
        for j in range(layers):
            if j != k:
                term *= norms[j]
        factor += term
    s_sq = sum((x * x for x in s), Fraction(0))
    bound_sq = factor * factor * s_sq
    shown = {**{f"‖W_{k + 1}‖ ≤": _short(x) for k, x in enumerate(norms)},
             **{f"‖δW_{k + 1}‖ ≤": _short(x) for k, x in enumerate(deltas)}}
    return Recheck(dev_sq > bound_sq, dev_sq, bound_sq, shown, float_ratio(inst))


def _short(x: Fraction, digits: int = 12, up: bool = True) -> str:
    """A nonnegative rational as a decimal rounded up (an upper bound) or down (a lower bound)."""
    scaled = x * 10**digits
    q = -((-scaled.numerator) // scaled.denominator) if up else scaled.numerator // scaled.denominator
    whole, frac = divmod(q, 10**digits)
    return f"{whole}.{frac:0{digits}d}"


def rigorous_violation(inst: Instance, *steps) -> Any:
    """``refuted`` if the instance violates Eq. (10) rigorously, else ``unknown``."""
    with timed() as t:
        rc = recheck(inst)
        step = t.step(exact.NAME, exact.VERSION, f"exact deviation + arb norm bounds ({inst.label})",
                      "violated" if rc.violated else "not violated rigorously", norms_upper=rc.norms_upper)
    sides = {"deviation²": rc.deviation_sq, "bound² (upper)": rc.bound_sq_upper}
    ratio_lower = float(rc.deviation_sq / rc.bound_sq_upper) ** 0.5
    if not rc.violated:
        return unknown("rigorous re-check of a float violation", f"{inst.label}: deviation² ≤ the rigorous bound²",
                       *steps, step, float_ratio=rc.ratio_float)
    not_pruning = [k + 1 for k, (w, m) in enumerate(zip(inst.weights, inst.masks))
                   if m.shape != w.shape or not ((m == 0) | (m == 1)).all()]
    if not_pruning:  # the statement is about pruning: a mask with other entries is outside it
        return unknown("rigorous re-check of a float violation", f"{inst.label}: the mask of layer(s) "
                       f"{', '.join(map(str, not_pruning))} is not a 0/1 matrix of its weights' shape, so the "
                       "instance is no pruning", *steps, step)
    n = inst.weights[0].shape[0]
    witness = {"network": f"two layers, zero biases, σ = {inst.activation}", "width": str(n),
               "W_1 = W_2": HILBERT if "hilbert" in inst.label else "seeded (see label)",
               "masks": TRIANGULAR if TRIANGULAR in inst.label else inst.label.split(", ", 1)[1], "activation": inst.activation,
               "s_hex": " ".join(float(x).hex() for x in inst.s)}
    return refuted("float search, re-checked: exact deviation, rigorous spectral-norm upper bounds", witness,
                   {"deviation² (exact, rounded down)": _short(rc.deviation_sq, 9, up=False),
                    "Eq. (10) bound² (rigorous upper bound, rounded up)": _short(rc.bound_sq_upper, 9)},
                   *steps, step, instance=inst.label, ratio_lower_bound=round(ratio_lower, 6), float_ratio=rc.ratio_float,
                   norms_upper=rc.norms_upper, deviation_sq_exceeds_bound_sq=True,
                   s_hex=[float(x).hex() for x in inst.s], exact_sides={k: fmt(v) for k, v in sides.items()})


HILBERT = "H_ij = fl(1/(i − j + 1/2))"
TRIANGULAR = "lower-triangular masks"


class Eq10AtWitness:
    """Eq. (10) at the pruning instance a refutation's witness names, re-checked from the witness
    alone: the Hilbert-type weights and lower-triangular (0/1) masks it names are rebuilt at its
    width, its input read from its binary64 hex digits, and :func:`recheck` recomputes the
    deviation exactly and the bound with rigorous norm bounds. A witness naming anything else
    (seeded weights) cannot be rebuilt here: not re-checked."""

    name = "eq10-at-the-witness-instance"
    subject = "(catalogue eq10-at-the-witness-instance: ‖deviation‖ ≤ Eq. (10)'s bound at a rebuilt pruning instance)"
    variables: tuple = ()
    hypotheses: tuple = ()

    def text(self) -> str:
        return ("‖π(s; Θ̂) − π(s; Θ)‖ ≤ Σ_k C_k(s)·‖δW_k‖ at the instance the witness names (Hilbert-type weights, "
                "lower-triangular 0/1 masks, its width, activation and input)")

    def recheck(self, witness: Mapping[str, str]) -> bool | None:
        if witness.get("W_1 = W_2") != HILBERT or witness.get("masks") != TRIANGULAR:
            return None
        n = int(witness["width"])
        s = _np().array([float.fromhex(h) for h in witness["s_hex"].split()])
        if len(s) != n or witness.get("activation") not in ("identity", "relu"):
            return False
        h, tri = hilbert_matrix(n), lower_triangular(n)
        return recheck(Instance((h, h), (tri, tri), s, witness["activation"], "rebuilt from the witness")).violated


def _witness_instance(n: int, activation: str, rng, relu_rounds: int) -> Instance:
    h, tri = hilbert_matrix(n), lower_triangular(n)
    s, _ = _best_input((h, h), (tri, tri), activation, rng, relu_rounds)
    return Instance((h, h), (tri, tri), s, activation, f"n = {n}, hilbert, {TRIANGULAR}, {activation}")


def _settle(name: str, rows: list[dict[str, Any]], above: list[Instance], witness: Instance | None, steps) -> Any:
    """Refuted by the first rigorously re-checked violation; otherwise supported with the
    largest ratio, or unknown if a float violation did not re-check."""
    largest = max(rows, key=lambda r: r["max_ratio"])
    by_family: dict[str, float] = {}
    for r in rows:
        key = f"{r['family']}, {r['activation']}"
        by_family[key] = max(by_family.get(key, 0.0), r["max_ratio"])
    data = {"search": rows, "largest_ratio": largest, "largest_ratio_by_family": by_family}
    candidates = ([witness] if witness is not None else []) + sorted(above, key=lambda i: i.weights[0].shape[0])
    failed = []
    for inst in candidates[:2]:
        v = rigorous_violation(inst, *steps)
        if v.status is Status.REFUTED:
            return with_data(v, **data)
        failed.append(v.certificate.reason)
    if above:
        return unknown(name, "float violations found but none re-checked rigorously: " + "; ".join(failed), *steps, **data)
    return supported(f"{name} (evidence only)", *steps, **data)


@obligation(
    id="controller_bound.eq10_genuine_pruning",
    source=Source(DOC, "Corollary 1, Eq. (10), restricted to pruning masks (skeptic: 'Restricting delta to OBD zero-masks "
                  "is not stated and is not used in the proof')"),
    statement="Eq. (10) holds when every perturbation is a genuine pruning, δW_k = −W_k∘(1 − M_k) with 0/1 masks M_k: "
    "‖π(s; Θ̂) − π(s; Θ)‖ ≤ Σ_k C_k(s)·‖δW_k‖ with constants from the unpruned norms.",
    scope="two-layer matrix networks, zero biases, identity activations: refuted by the width-128 Hilbert-type "
    "matrix with lower-triangular masks (exact deviation, rigorous norm bounds); searched ratios (ReLU and identity, "
    "random and triangular masks) at widths 16 and 32 recorded as data",
    expect=Expect.OPEN,
    lean="ControllerBound.eq10_genuine_pruning",
    uses=("controller_bound.corollary1_additive",),
    claims=(Eq10AtWitness(),),
)
def eq10_genuine_pruning(ctx):
    """The referee's question: does Eq. (10) survive if the perturbations are what pruning
    actually does (zeroing entries)? Not in general. The proof of Corollary 1 needs
    ‖W_l∘M_l‖ ≤ ‖W_l‖, and masking can raise the spectral norm; the lower-triangular mask can
    raise it by a factor of order log n. With H_ij = fl(1/(i − j + 1/2)) (‖H‖ ≈ π) at width 128 and
    both layers masked lower-triangular, ‖H∘T‖ ≈ 2.0·‖H‖, and with identity activations the
    deviation at the top singular direction of W₂'W₁' − W₂W₁ is about 1.07 times Eq. (10)'s bound.

    Method: a seeded float search proposes instances (ratio deviation/bound; for the identity
    the optimal input is a singular vector, for ReLU a hill-climb from it). A violation is
    reported ``refuted`` only after a rigorous re-check: the deviation in exact rationals (all
    entries are binary64 dyadics), every spectral norm bounded above with arb balls, and
    deviation² > (upper bound)² compared exactly. Widths 16 and 32 of every family are searched
    here too (the largest ratios are data; none of them exceeds 1); ReLU violations need width
    ≥ 256 and are in ``controller_bound.eq10_genuine_pruning_wide`` (slow tier).

    Survives mutation: return np.maximum(x, 0.0) if activation == "relu" else x: the refutation's witness has identity activations and is re-checked exactly; the ReLU rows of the search are data
    Survives mutation: if a.shape[0] <= 300: the float search's switch from a full SVD to power iteration; the widths searched here (16, 32, 128) are far from it
    Survives mutation: (rng.random((n, n)) < p): a uniform float equals p with probability 0, so the masks are the same
    """
    rng = ctx.rng("eq10-genuine")
    with timed() as t:
        rows, above = search((16, 32), rng, relu_rounds=20)
        witness = _witness_instance(128, "identity", rng, 0)
        step = t.step(sampling.NAME, sampling.version(), "float search of deviation/bound over genuine masks",
                      f"largest searched ratio {max(r['max_ratio'] for r in rows):.4f}; witness float ratio "
                      f"{float_ratio(witness):.4f}", seed=ctx.seed)
    return _settle("float search of Eq. (10) under genuine masks", rows, above, witness, (step,))


@obligation(
    id="controller_bound.eq10_genuine_pruning_wide",
    source=Source(DOC, "Corollary 1, Eq. (10), restricted to pruning masks"),
    statement="Eq. (10) holds under genuine pruning masks for two-layer ReLU and identity-activation networks at widths "
    "256, 1024 and 2048 (random Bernoulli and triangular masks, Gaussian and Hilbert-type weights).",
    scope="seeded float search at widths 256, 1024, 2048; violations re-checked rigorously (exact deviation, arb norm "
    "bounds) at the smallest violating width; the ReLU witness is width 256",
    expect=Expect.OPEN,
    lean="ControllerBound.eq10_genuine_pruning",
    uses=("controller_bound.eq10_genuine_pruning",),
    slow=True,
    claims=(Eq10AtWitness(),),
)
def eq10_genuine_pruning_wide(ctx):
    """The same search and re-check as ``controller_bound.eq10_genuine_pruning`` at the widths
    where ReLU networks also violate Eq. (10): the Hilbert-type matrix with lower-triangular
    masks at width 256 gives a ReLU deviation about 1.04 times the bound (the first rigorously
    re-checked violation is reported). Random Bernoulli masks on Gaussian weights stay far
    below 1 (about 0.38 at keep-1/2): the violations need masks that raise the spectral norm,
    which random masks on random matrices do not do."""
    rng = ctx.rng("eq10-genuine-wide")
    with timed() as t:
        rows, above = search((256, 1024, 2048), rng, relu_rounds=60)
        witness = _witness_instance(256, "relu", rng, 300)
        step = t.step(sampling.NAME, sampling.version(), "float search of deviation/bound over genuine masks",
                      f"largest searched ratio {max(r['max_ratio'] for r in rows):.4f}; ReLU witness float ratio "
                      f"{float_ratio(witness):.4f}", seed=ctx.seed)
    return _settle("float search of Eq. (10) under genuine masks", rows, above, witness, (step,))


# ---------------------------------------------------------------------------------------
# Eq. (10) when no pruned layer's norm grows
# ---------------------------------------------------------------------------------------

NONINCREASING = claim(
    "eq10-norms-nonincreasing", corollary1.VARS,
    lambda o, v: o.le(corollary1._deviation(o, v), corollary1._additive_bound(o, v)),
    hypotheses={"‖W₁ + δW₁‖ ≤ ‖W₁‖": lambda o, v: o.le(o.abs(v.w1 + v.d1), o.abs(v.w1)),
                "‖W₂ + δW₂‖ ≤ ‖W₂‖": lambda o, v: o.le(o.abs(v.w2 + v.d2), o.abs(v.w2))},
    terms={"deviation": corollary1._deviation, "bound": corollary1._additive_bound},
)


def _monotone_claim(layers: int):
    """The corrected constants are monotone in the norms: with 0 ≤ n'_l ≤ n_l (pruned vs
    unpruned norms), Σ_k (Π_{l<k} n'_l)(Π_{l>k} n_l)·d_k ≤ Σ_k (Π_{l≠k} n_l)·d_k (zero biases,
    times ‖s‖ ≥ 0)."""
    ns = [f"n{i}" for i in range(1, layers + 1)]
    ps = [f"p{i}" for i in range(1, layers + 1)]
    ds = [f"d{i}" for i in range(1, layers + 1)]

    def prod(o, xs):
        out = o.q(1)
        for x in xs:
            out = out * x
        return out

    def corrected(o, v):
        return sum((prod(o, [v[p] for p in ps[:k]] + [v[n] for n in ns[k + 1:]]) * v[ds[k]] for k in range(layers)), o.q(0))

    def additive(o, v):
        return sum((prod(o, [v[n] for i, n in enumerate(ns) if i != k]) * v[ds[k]] for k in range(layers)), o.q(0))

    return claim(
        f"corrected-constants-monotone-L{layers}", (*ns, *ps, *ds),
        lambda o, v: o.le(corrected(o, v), additive(o, v)),
        hypotheses={"0 ≤ n'_l ≤ n_l": lambda o, v: o.and_(*(o.and_(o.ge(v[p], 0), o.le(v[p], v[n])) for p, n in zip(ps, ns))),
                    "d_k ≥ 0": lambda o, v: o.and_(*(o.ge(v[d], 0) for d in ds))},
        terms={"corrected": corrected, "additive": additive},
    )


MONOTONE = {k: _monotone_claim(k) for k in (2, 3, 4)}


def _matrix_nonincreasing_evidence(rng) -> dict[str, Any]:
    """Searched genuine-mask instances whose masked norms do not grow: largest ratio."""
    np = _np()
    best, count = 0.0, 0
    for n in (16, 32):
        for _ in range(30):
            weights = tuple(rng.normal(size=(n, n)) / np.sqrt(n) for _ in range(2))
            masks = tuple((rng.random((n, n)) < rng.uniform(0.2, 0.9)).astype(float) for _ in range(2))
            if any(np.linalg.norm(w * m, 2) > np.linalg.norm(w, 2) for w, m in zip(weights, masks)):
                continue
            for activation in ACTIVATIONS:
                _, r = _best_input(weights, masks, activation, rng, 10)
                best, count = max(best, r), count + 1
    return {"instances": count, "largest_ratio": round(best, 6)}


@obligation(
    id="controller_bound.eq10_norms_nonincreasing",
    source=Source(DOC, "Corollary 1, Eq. (10), with the assumption the proof needs: ‖W_l + δW_l‖ ≤ ‖W_l‖"),
    statement="If every pruned layer satisfies ‖W_l + δW_l‖ ≤ ‖W_l‖, Eq. (10) holds: the output changes by at most "
    "Σ_k C_k(s)·‖δW_k‖ with the unpruned constants.",
    scope="scalar two-layer ReLU network, both layers perturbed: universally over ℝ⁷ (z3); the norm step for L = 2, 3, 4 "
    "layers universally (z3): with L layers the corrected constants are prefix and suffix products of norms inside a "
    "sum over k, which a sized claim cannot state, so L stays bounded. Cross-checks, not part of the proof: the "
    "two-layer network of every width (induction; sized_network.NONINCREASING, operator norms by their defining "
    "inequality at the vectors used) and matrix instances (widths 16, 32) searched as evidence",
    expect=Expect.OPEN,
    lean="ControllerBound.eq10_norms_nonincreasing",
    uses=("controller_bound.corollary1_corrected",),
    claims=(NONINCREASING, *MONOTONE.values()),
    theorem=(NONINCREASING, *MONOTONE.values()),
)
def eq10_norms_nonincreasing(ctx):
    """The repair the review's diagnosis suggests: Corollary 1's proof is the corrected chain
    Θ_0 → Θ_1 → … whose constant for layer k uses the *pruned* norms ‖W_l + δW_l‖ of the earlier
    layers; if none of them exceeds its unpruned norm, each corrected constant is at most the
    unpruned C_k(s), so Eq. (10) follows. (For two layers either hypothesis alone suffices:
    increasing order uses the one on layer 1, decreasing order — ``corrected_decreasing_order`` —
    the one on layer 2; the audit's necessity check records that neither is needed alone.)

    Method: z3 proves the scalar two-layer statement over ℝ⁷ from the two hypotheses (negation
    ``unsat``), given the corrected bound as a lemma (proved in ``controller_bound.corollary1_corrected``
    and re-proved here); and the norm step — corrected constants are monotone in the norms —
    for L = 2, 3, 4 layers (zero biases). Matrix instances with non-increasing masked norms
    never exceed ratio 1 in a seeded search (data only). Genuine triangular masks violate
    the hypothesis (‖H∘T‖ ≈ 2‖H‖), which is why ``eq10_genuine_pruning`` is refuted.

    Why it stays bounded: the statement is about L layers, and the norm step for every L has the
    products Π_{l<k}‖W_l + δW_l‖·Π_{l>k}‖W_l‖ inside a sum over k, which a sized claim cannot state
    (its aggregates fold one index of an array, never a prefix of it). The two-layer network is proved
    for every width (:data:`.sized_network.NONINCREASING`, by induction from the sized corrected bound,
    each spectral norm a scalar with its defining inequality at the vectors used) and recorded as a
    cross-check: declared beside the bounded norm step it would be searched at the next widths (every
    n, k, m ≤ 6 by z3) although it is proved for all of them, far past the time limit.

    z3 is given the scalar queries' faster routes (named ``If`` terms, then its core solver or
    nlsat: about a third of the default route's time); only their ``unsat`` is taken, reported
    as the default route reports it.

    Theorem (declared): the scalar two-layer Eq. (10) under the hypotheses and the norm step for
    L = 2, 3, 4 layers; the every-width two-layer proof and the matrix search are data.

    Survives mutation: o.and_(*(o.ge(v[d], 0) for d in ds)): strictly positive deviations are a stronger hypothesis; the inequality still follows
    """
    chain = smt.Lemma(corollary1.CORRECTED, lambda o, v: {k: v[k] for k in corollary1.CORRECTED.variables})
    parts = {
        "corrected bound (z3)": smt.prove(corollary1.CORRECTED, ctx, tactic=smt.ITE_SMT,
                                          lemmas=(smt.Lemma(theorem2.LAYER1, lambda o, v: {"s": v.s, "w1": v.w1, "b1": v.b1, "w2": v.w2, "b2": v.b2, "d": v.d1}),
                                                  smt.Lemma(theorem2.LAYER2, lambda o, v: {"s": v.s, "w1": v.w1 + v.d1, "b1": v.b1, "w2": v.w2, "b2": v.b2, "d": v.d2}))),
        "Theorem 2, layer 1 (z3)": smt.prove(theorem2.LAYER1, ctx, tactic=smt.NLSAT),
        "Theorem 2, layer 2 (z3)": smt.prove(theorem2.LAYER2, ctx, tactic=smt.NLSAT),
        "scalar Eq. (10) under the hypotheses (z3)": smt.prove(NONINCREASING, ctx, lemmas=(chain,), tactic=smt.ITE_SMT),
    }
    scalar = all_of("z3 from the corrected chain", parts, lemmas=True)  # lemmas of one statement, not its sizes
    norm_step = all_of("z3: corrected constants monotone in the norms",
                       {f"L = {k}": smt.prove(c, ctx) for k, c in MONOTONE.items()}, family="L = 2…4 layers")
    with timed() as t:
        evidence = _matrix_nonincreasing_evidence(ctx.rng("eq10-nonincreasing"))
        step = t.step(sampling.NAME, sampling.version(), "genuine masks with non-increasing norms",
                      f"largest ratio {evidence['largest_ratio']}", seed=ctx.seed)
    verdict = all_of("z3 (scalar chain) + z3 (norm step, L ≤ 4)", {"scalar two-layer": scalar, "norm step": norm_step})
    cross = {"two layers, every width (induction from the sized corrected bound)": sized_network.prove_nonincreasing(ctx)}
    return with_data(cross_checked(verdict, cross), matrix_evidence=evidence, evidence_step=step.to_json())


# ---------------------------------------------------------------------------------------
# The corrected bound with the layers taken in decreasing order
# ---------------------------------------------------------------------------------------


def _decreasing_bound(o, v):
    """Θ_0 → (layer 2 pruned) → (both pruned): C_2 uses the unpruned W_1 (not yet pruned),
    C_1' the already-pruned W_2 + δW_2."""
    return c2(o, v) * o.abs(v.d2) + c1(o, v, w2=v.w2 + v.d2) * o.abs(v.d1)


DECREASING = claim(
    "corollary1-corrected-decreasing", corollary1.VARS,
    lambda o, v: o.le(corollary1._deviation(o, v), _decreasing_bound(o, v)),
    terms={"deviation": corollary1._deviation, "bound": _decreasing_bound},
)


@obligation(
    id="controller_bound.corrected_decreasing_order",
    source=Source(DOC, "major comment 2: 'the constants depend on the perturbations already applied and on the order in "
                  "which layers are pruned'"),
    statement="Pruning layer 2 first, then layer 1, changes the output by at most C_2(s)·‖δW_2‖ + C_1'(s)·‖δW_1‖, where "
    "C_2 uses the unpruned W_1 and C_1' uses the perturbed norm ‖W_2 + δW_2‖.",
    scope="two-layer ReLU network of every output, hidden and input width n, k, m ≥ 1, both layers perturbed, every "
    "real weight, bias, input and perturbation; by induction over the output width (z3 base, step and close) from "
    "Theorem 2 for each layer (proved for every width) and the squared triangle inequality. Each spectral norm is a "
    "scalar w ≥ 0 with ‖Wv‖ ≤ w‖v‖ assumed only at the vectors the chain uses (‖W₁s‖, ‖δW₂h‖, ‖δW₁s‖, "
    "‖(W₂ + δW₂)(h' − h)‖): the true ‖W‖₂ satisfies these, so the sized theorem is stronger than the statement and "
    "implies it; the bound stated squared. Cross-check, not part of the proof: the scalar network over ℝ⁷ (z3); "
    "attained at the review's instance (data)",
    expect=Expect.HOLDS,
    lean="ControllerBound.corollary1_corrected_decreasing",
    uses=("controller_bound.theorem2_single_layer", "controller_bound.corollary1_corrected"),
    claims=(DECREASING, sized_network.DECREASING.at(n=1, k=2, m=1)),
    theorem=sized_network.DECREASING,
)
def corrected_decreasing_order(ctx):
    """The review notes the corrected constants depend on the order of pruning. In decreasing
    order the chain is Θ_0 → Θ_1 (W_2 pruned; Theorem 2 at Θ_0 for layer 2, constant C_2(s)
    from the unpruned W_1) → Θ_2 (W_1 pruned; Theorem 2 at Θ_1 for layer 1, whose constant
    uses the pruned W_2 + δW_2).

    Theorem (declared): :data:`.sized_network.DECREASING` — for every widths n, k, m ≥ 1,
    ``‖π(s; W₁ + δW₁, W₂ + δW₂) − π(s; W₁, W₂)‖² ≤ ((w₁·ns + nb)·d₂ + w₂'·ns·d₁)²`` whenever
    ``ns² = ‖s‖²``, ``nb² = ‖b₁‖²``, ``‖W₁s‖² ≤ w₁²‖s‖²``, ``‖δW₂h‖² ≤ d₂²‖h‖²``, ``‖δW₁s‖² ≤ d₁²‖s‖²``
    and ``‖(W₂ + δW₂)(h' − h)‖² ≤ w₂'²‖h' − h‖²`` (h, h' the hidden layers before and after δW₁). With
    w₁ = ‖W₁‖₂, d₂ = ‖δW₂‖₂, d₁ = ‖δW₁‖₂, w₂' = ‖W₂ + δW₂‖₂ every hypothesis holds and the conclusion is
    the statement squared (both sides ≥ 0); asking the norm inequalities only at those vectors makes
    the sized theorem stronger than the statement.

    Method: induction over the output width carrying ‖π₂ − π₀‖² = ‖(π₂ − π₁) + (π₁ − π₀)‖²; the
    closing query uses Theorem 2 for layer 2 at Θ₀ and for layer 1 at Θ₁ (both proved for every
    width) and the squared triangle inequality. Cross-check (data): z3 proves the scalar network's
    chained bound from the two scalar Theorem 2 instances. At the review's instance (δW_1 = 100,
    δW_2 = 1) the bound is 1·1 + 2·1·100 = 201 = the deviation: attained, like the increasing-order
    bound there."""
    first = smt.Lemma(theorem2.LAYER2, lambda o, v: {"s": v.s, "w1": v.w1, "b1": v.b1, "w2": v.w2, "b2": v.b2, "d": v.d2})
    second = smt.Lemma(theorem2.LAYER1, lambda o, v: {"s": v.s, "w1": v.w1, "b1": v.b1, "w2": v.w2 + v.d2, "b2": v.b2, "d": v.d1})
    at_review = exact.evaluate(DECREASING, corollary1.REVIEW_INSTANCE)
    proof = sized_network.prove_decreasing(ctx)
    cross = {
        "Theorem 2, layer 2 at Θ_0, scalar network (z3)": smt.prove(theorem2.LAYER2, ctx),
        "Theorem 2, layer 1 at Θ_1, scalar network (z3)": smt.prove(theorem2.LAYER1, ctx),
        "chained bound, scalar network (z3)": smt.prove(DECREASING, ctx, lemmas=(first, second)),
    }
    return with_data(cross_checked(proof, cross), review_instance=fmt_map(at_review.terms),
                     attained_at_review_instance=at_review.terms["deviation"] == at_review.terms["bound"] == Fraction(201))
