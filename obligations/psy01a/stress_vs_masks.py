"""Psy01-A: masks and clean logits do not determine the stress experiment.

- ``psy01a.identical_masks_stress``: the t-unit networks (a third-layer unit with bias t,
  disconnected from layers 1–2) have identical masks and clean logits for every t > 0, and
  stressed accuracy Φ(t/σ), strictly increasing in t;
- ``psy01a.positive_rescaling``: B'_ℓ = D_ℓB_ℓD_{ℓ−1}⁻¹ preserves the clean logits, changes
  the hidden noise to D_ℓ⁻¹G_ℓ (so the stress experiment can change), and can change the
  magnitude mask.

The t-unit networks and the exact forward passes (:func:`t_network`, :func:`exact_forward`,
:func:`fraction_forward`) are also read by :mod:`.t_unit_certificates`. Reconstructions:
``docs/reconstructions/psy01a_comparison_stress.md``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from checker import Expect, Source, obligation
from checker.backends import exact, interval, smt, symbolic
from checker.claims import claim
from checker.kernel.model import derive_seed
from checker.kernel.verdicts import all_of, fmt, timed, trusted, unknown, with_data
from obligations.grading import cross_checked
from obligations.psy01a.stress_claims import _scalar_net, classified_as
from obligations.psy01a.stress_network import SPEC, Net, StressSpec, _grid, _np

DOC = "000_1ea2e46c3d2f64bf.txt"


# ---------------------------------------------------------------------------------------
# Identical masks and clean logits, different stress
# ---------------------------------------------------------------------------------------

T_VALUES = (Fraction(1, 2), Fraction(1), Fraction(2))
T_UNIT = 0  # the selected third-layer unit


def t_network(t: Fraction, spec: StressSpec = SPEC) -> Net:
    """The counterexample in the 067A shape: seeded dense layers 1–3 except that third-layer
    unit T_UNIT has zero incoming weights and bias t; the head's only weight is 1/t from that
    unit to class 0; output biases (0, 0, −1, −1). t and 1/t must be dyadic (exact floats)."""
    np = _np()
    rng = np.random.default_rng(derive_seed(spec.seed, "t-network"))
    w = spec.widths
    weights = [_grid(np, rng.normal(0, 0.1, size=(b, a))) for a, b in zip(w[:3], w[1:4])]
    biases = [_grid(np, rng.normal(0, 0.1, size=b)) for b in w[1:4]]
    weights[2][T_UNIT] = 0.0
    biases[2][T_UNIT] = float(t)
    head = np.zeros((w[4], w[3]))
    head[0, T_UNIT] = float(1 / t)
    if Fraction(float(t)) != t or Fraction(float(1 / t)) != 1 / t:
        raise ValueError(f"t = {t}: t and 1/t must be exact binary fractions")
    return Net((*weights, head), (*biases, np.array([0.0, 0.0, -1.0, -1.0])))


def _dyadic_ints(np, a: Any, bits: int) -> Any:
    """An array of multiples of 2^-bits as exact Python integers (value · 2^bits)."""
    scaled = np.asarray(a, dtype=float) * 2.0**bits
    ints = np.rint(scaled)
    if not np.array_equal(ints, scaled) or np.abs(ints).max(initial=0) >= 2.0**52:
        raise ValueError(f"values are not exact multiples of 2^-{bits}")
    return ints.astype(np.int64).astype(object)


def exact_forward(net: Net, u: Any, sigma: Fraction = Fraction(0), noise: Sequence[Any] | None = None) -> list[Fraction]:
    """Exact forward pass of a network whose weights, biases, input and noise are multiples of
    2^-20 (σ dyadic): integer arithmetic with a running power-of-two scale, no rounding."""
    np = _np()
    bits = 20
    if Fraction(float(sigma)) != sigma or sigma.denominator > 2**bits:
        raise ValueError("σ must be a dyadic rational with denominator ≤ 2^20")
    s_int = sigma.numerator * (2**bits // sigma.denominator)  # σ · 2^20
    h, scale = _dyadic_ints(np, u, bits), bits
    for layer in range(4):
        w = _dyadic_ints(np, net.weights[layer], bits)
        b = _dyadic_ints(np, net.biases[layer], bits)
        a = w.dot(h) + b * 2**scale
        scale += bits
        if layer == 3:
            return [Fraction(int(x), 2**scale) for x in a]
        h = np.where(a > 0, a, 0)
        if noise is not None:
            g = _dyadic_ints(np, noise[layer], bits) * s_int  # σG at scale 2^40
            h = h * 2**(2 * bits) + g * 2**scale
            scale += 2 * bits
    raise AssertionError("unreachable")


def fraction_forward(weights, biases, u, sigma=Fraction(0), noise=None) -> list[Fraction]:
    """Exact forward pass of a network given as nested lists of Fractions."""
    h = list(u)
    for layer in range(3):
        h = [max(sum((wij * hj for wij, hj in zip(row, h)), Fraction(0)) + b, Fraction(0))
             for row, b in zip(weights[layer], biases[layer])]
        if noise is not None:
            h = [x + sigma * g for x, g in zip(h, noise[layer])]
    return [sum((wij * hj for wij, hj in zip(row, h)), Fraction(0)) + b for row, b in zip(weights[3], biases[3])]


T_CORRECT = claim(
    "t-unit-correct-iff", "t s g",
    lambda o, v: o.eq(classified_as(o, [1 + v.s * v.g / v.t, o.q(0), o.q(-1), o.q(-1)], 0), o.ge(v.g, -v.t / v.s)),
    hypotheses={"t > 0": lambda o, v: o.gt(v.t, 0), "σ > 0": lambda o, v: o.gt(v.s, 0)},
)


def _phi_order_steps():
    """sympy: Φ(1/2) < Φ(1) and Φ(1) < Φ(2), closed inequalities between constants (Φ(x) = (1 + erf(x/√2))/2)."""
    sp = symbolic.sympy()

    def phi(x):
        return (1 + sp.erf(x / sp.sqrt(2))) / 2

    ts = [sp.Rational(t.numerator, t.denominator) for t in T_VALUES]
    return [symbolic.true_step(phi(a) < phi(b), f"Φ({sp.sstr(a)}) < Φ({sp.sstr(b)})") for a, b in zip(ts, ts[1:])]


@obligation(
    id="psy01a.identical_masks_stress",
    source=Source(DOC, "Proposition: 'There are networks with identical masks and identical clean logits for every input, but "
                  "different stressed accuracies at every fixed σ > 0'"),
    statement="The t-unit networks (t > 0) have identical masks and clean logits (1, 0, −1, −1) for every input, and their "
    "stressed accuracy on a class-0 test law, Φ(t/σ), is strictly increasing in t at every fixed σ > 0.",
    scope="every t > 0 and σ > 0 symbolically (sympy, z3); exact forward passes of the 067A-shaped instances t = 1/2, 1, 2 on "
    "seeded inputs and noise; rigorous enclosures of Φ(t/σ) at σ = 1",
    expect=Expect.HOLDS,
    lean="Psy01A.identical_masks_stress",
    claims=(T_CORRECT,),
    theorem=(T_CORRECT,),
)
def identical_masks_stress(ctx):
    """The text's construction: a third-layer unit disconnected from layers 1–2 with bias t has
    clean activation t and stressed activation t + σG; head weight 1/t to class 0 and output
    biases 0, −1, −1 give clean logits (1, 0, −1, −1) and stressed class-0 logit 1 + σG/t.

    Method: exact rationals on the 067A-shaped instances: the nonzero pattern of every matrix is
    the same for each t, the clean logits are exactly (1, 0, −1, −1) at seeded inputs, and with
    seeded (rounded) noise the class-0 logit is exactly 1 + σG/t. z3: correctness (smallest-index
    ties) ⇔ G ≥ −t/σ for all t, σ > 0. sympy: P{G ≥ −t/σ} = Φ(t/σ) and ∂_tΦ(t/σ) =
    φ(t/σ)/σ > 0. Rigorous intervals separate Φ(1/2) < Φ(1) < Φ(2).

    Survives mutation: global_sigmas: tuple[Fraction, ...] = (: the statement holds at every noise level; the levels are example inputs
    Survives mutation: T_UNIT = 0: the claim holds for every third-layer unit; the selected one is an example
    Survives mutation: sigma.denominator > 2**bits: a guard on the exact forward pass's inputs, never at its boundary here
    """
    np = _np()
    sp = symbolic.sympy()
    from sympy.stats import Normal, P

    rng = ctx.rng("t-unit-inputs")
    inputs = [_grid(np, rng.normal(0, 3, size=4)) for _ in range(3)]
    noise = [_grid(np, rng.normal(size=n)) for n in SPEC.widths[1:4]]
    sigma = Fraction(1, 4)
    table, ok = [], True
    with timed() as t:
        patterns = None
        for tv in T_VALUES:
            net = t_network(tv)
            pattern = tuple(tuple(map(tuple, w != 0)) for w in net.weights)
            patterns = patterns or pattern
            ok &= pattern == patterns
            g = Fraction(float(noise[2][T_UNIT]))
            for u in inputs:
                clean = exact_forward(net, u)
                noisy = exact_forward(net, u, sigma, noise)
                ok &= clean == [1, 0, -1, -1]
                ok &= noisy[0] == 1 + sigma * g / tv and noisy[1:] == [0, -1, -1]
            table.append({"t": fmt(tv), "nonzero_weights": int(sum(int((w != 0).sum()) for w in net.weights)),
                          "clean_logits": [fmt(x) for x in exact_forward(net, inputs[0])],
                          "noisy_class0_logit": fmt(exact_forward(net, inputs[0], sigma, noise)[0])})
        step = t.step(exact.NAME, exact.VERSION, "exact forward passes of the t-unit networks (4→256→256→128→4)",
                      "masks equal, clean logits (1,0,−1,−1), noisy logit 1 + σG/t" if ok else "a check fails", table=table)
    exact_part = trusted("exact rationals", step, at=[f"the t-unit network, t = {r['t']}" for r in table], table=table) if ok else unknown("exact rationals", "a forward-pass check fails", step)
    tt, s = sp.symbols("t sigma", positive=True)
    g = Normal("G", 0, 1)
    acc = (1 + sp.erf(tt / (s * sp.sqrt(2)))) / 2
    checks = [
        symbolic.zero_step((P(g >= -tt / s) - acc).rewrite(sp.erf), "P{G ≥ −t/σ} − Φ(t/σ)"),
        symbolic.zero_step(sp.diff(acc, tt) - sp.exp(-tt**2 / (2 * s**2)) / (s * sp.sqrt(2 * sp.pi)), "∂_tΦ(t/σ) − φ(t/σ)/σ"),
        symbolic.true_step(sp.diff(acc, tt) > 0, "∂_tΦ(t/σ) > 0"),
    ]
    phis = [interval.Interval.of(tv).Phi() for tv in T_VALUES]
    increasing = all(a.hi < b.lo for a, b in zip(phis, phis[1:]))
    return all_of("exact forward passes + z3 + sympy + rigorous intervals", {
        "masks and clean logits (exact)": exact_part,
        "correct ⇔ G ≥ −t/σ (z3)": smt.prove(T_CORRECT, ctx),
        "S(t) = Φ(t/σ) strictly increasing (sympy)": symbolic.conclude("sympy", checks),
        # a closed statement between constants, decided by sympy; the arb enclosures must separate the same values
        "Φ(1/2) < Φ(1) < Φ(2) at σ = 1 (sympy; arb agrees)": with_data(symbolic.conclude("sympy", _phi_order_steps()),
                                                                       enclosures=[p.describe() for p in phis])
        if increasing else unknown("rigorous interval", "enclosures overlap"),
    })


# ---------------------------------------------------------------------------------------
# Positive rescaling
# ---------------------------------------------------------------------------------------

RELU_POSITIVE_HOMOGENEOUS = claim(
    "relu-positive-homogeneous", "d a", lambda o, v: o.eq(o.relu(v.d * v.a), v.d * o.relu(v.a)),
    hypotheses={"d > 0": lambda o, v: o.gt(v.d, 0)},
)


def _scalar_rescaled(o, v, noisy: bool, scale_noise: bool):
    w, b, d = [v.w1, v.w2, v.w3, v.w4], [v.b1, v.b2, v.b3, v.b4], [v.d1, v.d2, v.d3]
    ws = [d[0] * w[0], d[1] * w[1] / d[0], d[2] * w[2] / d[1], w[3] / d[2]]
    bs = [d[0] * b[0], d[1] * b[1], d[2] * b[2], b[3]]
    g = [v.g1, v.g2, v.g3] if noisy else [0, 0, 0]
    rescaled = _scalar_net(o, ws, bs, v.x, v.s, g)
    original = _scalar_net(o, w, b, v.x, v.s, [gi / di for gi, di in zip(g, d)] if scale_noise else g)
    return rescaled, original


RESCALE_CLEAN = claim(
    "rescaling-preserves-clean-scalar", "w1 w2 w3 w4 b1 b2 b3 b4 d1 d2 d3 x s g1 g2 g3",
    lambda o, v: o.eq(*_scalar_rescaled(o, v, noisy=False, scale_noise=False)),
    hypotheses={"D_ℓ > 0": lambda o, v: o.and_(o.gt(v.d1, 0), o.gt(v.d2, 0), o.gt(v.d3, 0))},
)
def _first_preactivation(o, v):
    """The first ReLU argument w₁x + b₁ of the scalar network: z3's split for the noise claim.
    Splitting on its sign alone (2 nlsat queries, about 1 s) is faster than splitting on all
    three ReLU arguments of the original (8 queries, about 2.3 s): the deeper layers' products
    are where nlsat spends its time, and fixing their signs does not shorten it."""
    return [v.w1 * v.x + v.b1]


RESCALE_NOISE = claim(
    "rescaling-noise-is-D-inverse-G-scalar", "w1 w2 w3 w4 b1 b2 b3 b4 d1 d2 d3 x s g1 g2 g3",
    lambda o, v: o.eq(*_scalar_rescaled(o, v, noisy=True, scale_noise=True)),
    hypotheses={"D_ℓ > 0": lambda o, v: o.and_(o.gt(v.d1, 0), o.gt(v.d2, 0), o.gt(v.d3, 0))},
)


def _rescale_step_claim(n: int):
    """One layer, width n: if h' = D_prev h then ReLU(D B D_prev⁻¹ h' + D b) = D ReLU(B h + b)."""
    names = [f"W{i}{j}" for i in range(n) for j in range(n)] + [f"b{i}" for i in range(n)] + \
        [f"d{i}" for i in range(n)] + [f"e{j}" for j in range(n)] + [f"h{j}" for j in range(n)]

    def sides(o, v):
        hp = [v[f"e{j}"] * v[f"h{j}"] for j in range(n)]
        lhs = [o.relu(sum(v[f"d{i}"] * v[f"W{i}{j}"] / v[f"e{j}"] * hp[j] for j in range(n)) + v[f"d{i}"] * v[f"b{i}"]) for i in range(n)]
        rhs = [v[f"d{i}"] * o.relu(sum(v[f"W{i}{j}"] * v[f"h{j}"] for j in range(n)) + v[f"b{i}"]) for i in range(n)]
        return lhs, rhs

    return claim(
        f"rescaling-layer-step-{n}", names,
        lambda o, v: o.and_(*(o.eq(a, b) for a, b in zip(*sides(o, v)))),
        hypotheses={"D, D_prev > 0": lambda o, v: o.and_(*(o.gt(v[f"{c}{i}"], 0) for c in "de" for i in range(n)))},
    )


RESCALE_STEP = tuple(_rescale_step_claim(n) for n in (2, 3))


def _rescale_network_claim(n: int):
    """The whole network n → n → n → n → n: rescaled and original clean logits are equal."""
    ws = [f"W{l}{i}{j}" for l in range(4) for i in range(n) for j in range(n)]
    bs = [f"b{l}{i}" for l in range(4) for i in range(n)]
    ds = [f"d{l}{i}" for l in range(3) for i in range(n)]
    xs = [f"x{i}" for i in range(n)]

    def net(o, v, scaled):
        def d(l, i):
            return v[f"d{l}{i}"] if 0 <= l < 3 else 1

        h = [v[x] for x in xs]
        for l in range(4):
            a = [sum((d(l, i) * v[f"W{l}{i}{j}"] / d(l - 1, j) if scaled else v[f"W{l}{i}{j}"]) * h[j] for j in range(n))
                 + (d(l, i) * v[f"b{l}{i}"] if scaled else v[f"b{l}{i}"]) for i in range(n)]
            h = a if l == 3 else [o.relu(x) for x in a]
        return h

    return claim(
        f"rescaling-preserves-clean-width{n}", (*ws, *bs, *ds, *xs),
        lambda o, v: o.and_(*(o.eq(a, b) for a, b in zip(net(o, v, True), net(o, v, False)))),
        hypotheses={"D_ℓ > 0": lambda o, v: o.and_(*(o.gt(v[d], 0) for d in ds))},
    )


RESCALE_WIDTH2 = _rescale_network_claim(2)


def _rank_keep(weights: Sequence[Fraction], k: int) -> frozenset[int]:
    """H_K on one matrix: the first k flat positions by (−|w|, index)."""
    return frozenset(sorted(range(len(weights)), key=lambda i: (-abs(weights[i]), i))[:k])


@obligation(
    id="psy01a.positive_rescaling",
    source=Source(DOC, "Proposition (positive rescaling): clean logits unchanged; stressed logits are those of the original with "
                  "hidden noises D_ℓ⁻¹G_ℓ; 'Positive rescaling also [...] can change the selected pruning mask'"),
    statement="For positive diagonal D_1, D_2, D_3 the transform B'_ℓ = D_ℓB_ℓD_{ℓ−1}⁻¹, b'_ℓ = D_ℓb_ℓ (D_0 = D_4 = I) preserves "
    "the clean logits; under isotropic noise its stressed logits are the original's with noises D_ℓ⁻¹G_ℓ, so the stress "
    "experiment can change; and the magnitude mask can change.",
    scope="ReLU(Da) = D ReLU(a) and the layer step for widths 2 and 3 universally (z3); the whole scalar-width network, clean "
    "and noisy, universally (z3), and with --slow the whole 2-wide network; cross-check (data): exact logits on a seeded "
    "4→16→16→8→4 network; "
    "witnesses for the changed stress experiment "
    "(rigorous Φ) and the changed mask (exact ranking)",
    expect=Expect.HOLDS,
    lean="Psy01A.positive_rescaling",
    uses=("psy01a.identical_masks_stress",),
    claims=(RELU_POSITIVE_HOMOGENEOUS, *RESCALE_STEP, RESCALE_CLEAN, RESCALE_NOISE),
    theorem=(RELU_POSITIVE_HOMOGENEOUS, *RESCALE_STEP, RESCALE_CLEAN, RESCALE_NOISE),
)
def positive_rescaling(ctx):
    """Three claims. (1) Clean logits: z3 proves ReLU(da) = d·ReLU(a) for d > 0, the layer step
    (h' = D_prev h ⇒ h'_next = D h_next) for widths 2 and 3, and the whole scalar network (with
    --slow also the whole 2-wide network). Exact check: a seeded 4→16→16→8→4 network and its
    rescaling (random powers of two in D) give equal logits at seeded inputs. (2) Noise: z3
    proves, for the scalar network, that the rescaled network with noise G equals the original
    with noise D⁻¹G (nonlinear arithmetic on each side of the sign of the first ReLU argument
    w₁x + b₁, every point lying on one; z3's default route if that does not prove it); exactly
    checked on the same seeded network. Witness that the stress
    experiment changes: rescaling the t-unit network (t = 1) by d = 2 at that unit keeps its
    clean logits but moves the stressed accuracy from Φ(1/σ) to Φ(2/σ); at σ = 1 the rigorous
    enclosures are disjoint. (3) Mask: B₁ = (1, 2)ᵀ, B₂ = (1, 1) (input 1, two hidden units):
    H_1 keeps the weight 2; after D₁ = diag(4, 1) the layer is (4, 2)ᵀ and H_1 keeps the 4 — a
    different mask, while the clean function is unchanged (exact forward passes on a grid and
    part (1)).

    The declared theorem is part (1), the z3 claims. Parts (2) and (3) are witnesses built from
    whole networks (no claim's point), so they rest on the catalogue's exact and rigorous
    computations (trusted computations in the proof's ledger).

    Survives mutation: ds = [[Fraction(2) ** int(k): other positive rescalings are also symmetries of the ReLU network (checked exactly)
    """
    np = _np()
    parts = {"ReLU(da) = d ReLU(a) (z3)": smt.prove(RELU_POSITIVE_HOMOGENEOUS, ctx)}
    parts.update({f"layer step, width {c.name[-1]} (z3)": smt.prove(c, ctx) for c in RESCALE_STEP})
    parts["scalar network, clean logits (z3)"] = smt.prove(RESCALE_CLEAN, ctx)
    parts["scalar network, noise D⁻¹G (z3)"] = smt.prove(RESCALE_NOISE, ctx, tactic=smt.NLSAT,
                                                         cases=_first_preactivation)
    if ctx.slow:  # about 15 s of nonlinear arithmetic
        parts["whole 2-wide network, clean logits (z3, --slow)"] = smt.prove(RESCALE_WIDTH2, ctx)
    rng = ctx.rng("rescaling")
    with timed() as t:
        small = (4, 16, 16, 8, 4)  # exact rationals: a width-reduced 067A-shaped network
        weights = [[[Fraction(x) for x in row] for row in _grid(np, rng.normal(0, 0.5, size=(b, a)))] for a, b in zip(small, small[1:])]
        biases = [[Fraction(x) for x in _grid(np, rng.normal(0, 0.5, size=b))] for b in small[1:]]
        ds = [[Fraction(2) ** int(k) for k in rng.integers(-3, 4, size=n)] for n in small[1:4]]
        full = [[Fraction(1)] * small[0], *ds, [Fraction(1)] * small[4]]
        w2 = [[[full[l + 1][i] * weights[l][i][j] / full[l][j] for j in range(small[l])] for i in range(small[l + 1])] for l in range(4)]
        b2 = [[full[l + 1][i] * biases[l][i] for i in range(small[l + 1])] for l in range(4)]
        ok = True
        sigma = Fraction(1, 4)
        for _ in range(4):
            u = [Fraction(x) for x in _grid(np, rng.normal(0, 3, size=4))]
            g = [[Fraction(x) for x in _grid(np, rng.normal(size=n))] for n in small[1:4]]
            ok &= fraction_forward(w2, b2, u) == fraction_forward(weights, biases, u)
            ginv = [[gi / di for gi, di in zip(gl, dl)] for gl, dl in zip(g, ds)]
            ok &= fraction_forward(w2, b2, u, sigma, g) == fraction_forward(weights, biases, u, sigma, ginv)
        step = t.step(exact.NAME, exact.VERSION, "exact clean and noisy logits, rescaled vs original (4→16→16→8→4)",
                      "equal" if ok else "differ")
    seeded = trusted("exact rationals", step, at=("the seeded 4→16→16→8→4 network",)) if ok else unknown("exact rationals", "logits differ", step)
    # (2) witness: the t-unit network rescaled at that unit
    base = t_network(Fraction(1))
    d = Fraction(2)
    w3, b3, w4 = base.weights[2].copy(), base.biases[2].copy(), base.weights[3].copy()
    b3[T_UNIT] *= float(d)  # D₃ = diag(2, 1, …, 1): row T_UNIT of B₃ is zero already
    w4[:, T_UNIT] /= float(d)
    scaled = Net((*base.weights[:2], w3, w4), (*base.biases[:2], b3, base.biases[3]))
    u0 = np.array([1.0, -1.0, 1.0, 0.0])
    same_clean = exact_forward(scaled, u0) == exact_forward(base, u0) == [1, 0, -1, -1]
    before, after = interval.Interval.of(1).Phi(), interval.Interval.of(2).Phi()
    parts["stress experiment changes (witness)"] = trusted(
        "exact clean logits + rigorous Φ", at=("the t-unit network t = 1 rescaled by d = 2",), before=before.describe(), after=after.describe(), d="2", t="1", sigma="1") \
        if same_clean and before.hi < after.lo else unknown("exact + rigorous", "witness does not separate")
    # (3) the mask can change
    b1 = [Fraction(1), Fraction(2)]
    d1 = [Fraction(4), Fraction(1)]
    b1s = [di * x for di, x in zip(d1, b1)]
    head = [Fraction(1), Fraction(1)]
    heads = [x / di for x, di in zip(head, d1)]
    keep, keeps = _rank_keep(b1, 1), _rank_keep(b1s, 1)
    grid = [Fraction(k, 2) for k in range(-6, 7)]
    f = lambda w1, w2, x: sum(b * max(a * x, Fraction(0)) for a, b in zip(w1, w2))  # noqa: E731
    same = all(f(b1, head, x) == f(b1s, heads, x) for x in grid)
    parts["magnitude mask changes (witness)"] = trusted("exact ranking + exact forward passes", at=("B₁ = (1, 2)ᵀ rescaled by D₁ = diag(4, 1)",), mask_before=sorted(keep),
                                                       mask_after=sorted(keeps), B1=[fmt(x) for x in b1], B1_rescaled=[fmt(x) for x in b1s]) \
        if keep != keeps and same else unknown("exact", "the witness does not change the mask")
    # The seeded network re-checks the universal identity at one point: data, not the grade.
    return cross_checked(all_of("z3 + exact rationals + rigorous intervals", parts),
                         {"exact check on a seeded network": seeded})
