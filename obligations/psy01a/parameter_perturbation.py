"""Psy01-A: how far a change of the parameters moves the logits.

- ``psy01a.parameter_stability``: under a common input and common hidden noise,
  ‖z_θ − z_θ'‖ ≤ Σ_ℓ (Π_{k>ℓ} ‖B_k‖_op)(‖B_ℓ − B'_ℓ‖_op ‖h'_{ℓ−1}‖ + ‖b_ℓ − b'_ℓ‖), with finite
  expectation for Gaussian inputs (a rigorous moment bound on the seeded network of
  :mod:`.stress_network`, as data);
- ``psy01a.pruning_error_bound``: removing r entries of magnitude at most q moves a matrix by at
  most q√r in operator norm, and the bound is attained.

Reconstructions: ``docs/reconstructions/psy01a_comparison_stress.md``.
"""

from __future__ import annotations

from checker import Expect, Source, obligation
from checker.kernel.declare import declare_bound
from checker.backends import induction, interval, library, smt, symbolic
from checker.claims import claim, sized_claim
from checker.kernel.verdicts import all_of, timed, trusted, unknown
from obligations.grading import cross_checked
from obligations.psy01a.arb_linalg import ARB_PREC, _flint, opnorm_upper, to_interval
from obligations.psy01a.stress_network import SPEC, stress_network

DOC = "000_1ea2e46c3d2f64bf.txt"


# ---------------------------------------------------------------------------------------
# Parameter stability
# ---------------------------------------------------------------------------------------


def _stability_layer_claim(n: int):
    a, b, g = [f"a{i}" for i in range(n)], [f"c{i}" for i in range(n)], [f"g{i}" for i in range(n)]
    return claim(
        f"common-noise-cancels-{n}", (*a, *b, *g, "s"),
        lambda o, v: o.le(sum(((o.relu(v[x]) + v.s * v[gg]) - (o.relu(v[y]) + v.s * v[gg])) ** 2 for x, y, gg in zip(a, b, g)),
                          sum((v[x] - v[y]) ** 2 for x, y in zip(a, b))),
    )


STABILITY_LAYER = tuple(_stability_layer_claim(n) for n in (1, 2))
STABILITY_RECURSION = claim(
    "parameter-stability-recursion", "e1 e2 e3 dz a2 a3 a4 E1 E2 E3 E4 n0 n1 n2 n3 c1 c2 c3 c4",
    lambda o, v: o.le(v.dz, v.a2 * v.a3 * v.a4 * (v.E1 * v.n0 + v.c1) + v.a3 * v.a4 * (v.E2 * v.n1 + v.c2)
                      + v.a4 * (v.E3 * v.n2 + v.c3) + (v.E4 * v.n3 + v.c4)),
    hypotheses={"all ≥ 0": lambda o, v: o.and_(*(o.ge(v[x], 0) for x in ("e1", "e2", "e3", "dz", "a2", "a3", "a4", "E1", "E2", "E3",
                                                                        "E4", "n0", "n1", "n2", "n3", "c1", "c2", "c3", "c4"))),
                "e₁ ≤ ‖ΔB₁‖‖u‖ + ‖Δb₁‖": lambda o, v: o.le(v.e1, v.E1 * v.n0 + v.c1),
                "e_ℓ ≤ ‖B_ℓ‖e_{ℓ−1} + ‖ΔB_ℓ‖‖h'_{ℓ−1}‖ + ‖Δb_ℓ‖": lambda o, v: o.and_(
                    o.le(v.e2, v.a2 * v.e1 + v.E2 * v.n1 + v.c2), o.le(v.e3, v.a3 * v.e2 + v.E3 * v.n2 + v.c3)),
                "head": lambda o, v: o.le(v.dz, v.a4 * v.e3 + v.E4 * v.n3 + v.c4)},
)
RELU_NORM = claim("relu-norm-le", "a", lambda o, v: o.le(o.relu(v.a) * o.relu(v.a), v.a * v.a))

STABILITY_LAYER_ALL = sized_claim(
    "common-noise-cancels", "n:nat[0,]", "a[n] c[n] g[n]",
    lambda o, v: o.le(o.sumsq((o.relu(v.a) + v.g * v.s) - (o.relu(v.c) + v.g * v.s)), o.sumsq(v.a - v.c)),
    scalars="s")
"""The layer step for every width n: ‖(ReLU(a) + σg) − (ReLU(a') + σg)‖² ≤ ‖a − a'‖²."""
RELU_NORM_ALL = sized_claim("relu-norm-le-every-width", "n:nat[0,]", "a[n]",
                            lambda o, v: o.le(o.sumsq(o.relu(v.a)), o.sumsq(v.a)))
"""‖ReLU(a)‖² ≤ ‖a‖² for every width."""
DOT_SPLIT = sized_claim(
    "dot-difference-split", "m:nat[0,]", "r[m] t[m] h[m] k[m]",
    lambda o, v: o.eq(o.dot(v.r, v.h) - o.dot(v.t, v.k), o.dot(v.r, v.h - v.k) + o.dot(v.r - v.t, v.k)))
"""Lemma: r·h − t·k = r·(h − k) + (r − t)·k, for rows of every length."""
DECOMPOSITION = sized_claim(
    "layer-difference-decomposition", "n:nat[1,] m:nat[1,]", "B[n,m] C[n,m] h[m] k[m] b[n] c[n]",
    lambda o, v: o.all(o.eq((v.B @ v.h + v.b) - (v.C @ v.k + v.c), v.B @ (v.h - v.k) + (v.B - v.C) @ v.k + (v.b - v.c))))
"""Bh + b − (B'h' + b') = B(h − h') + (B − B')h' + (b − b') for every n×m block."""


def _decomposition_checks():
    """The 3×3 identity (a cross-check of DECOMPOSITION) and the Gaussian moments (part of the proof)."""
    sp = symbolic.sympy()
    n = 3
    bm, bp = sp.Matrix(n, n, sp.symbols("B0:9")), sp.Matrix(n, n, sp.symbols("C0:9"))
    h, hp = sp.Matrix(sp.symbols("h0:3")), sp.Matrix(sp.symbols("k0:3"))
    b, c = sp.Matrix(sp.symbols("b0:3")), sp.Matrix(sp.symbols("c0:3"))
    diff = (bm * h + b) - (bp * hp + c) - (bm * (h - hp) + (bm - bp) * hp + (b - c))
    from sympy.stats import E, Normal

    g = Normal("G", 0, 1)
    identity = [symbolic.zero_step(sum(sp.expand(x) ** 2 for x in diff),
                                   "Bh + b − (B'h' + b') − [B(h − h') + (B − B')h' + (b − b')] (3×3)")]
    return identity, [
        symbolic.zero_step(E(g**2) - 1, "E G² − 1 (so E‖G_ℓ‖ ≤ √(E‖G_ℓ‖²) = √n_ℓ)"),
        symbolic.zero_step(E(sp.Abs(g)) - sp.sqrt(2 / sp.pi), "E|G| − √(2/π) (finite first moment)"),
    ]


@obligation(
    id="psy01a.parameter_stability",
    source=Source(DOC, "Theorem thm:parameterstability (eq:parameterstability): common input/noise coupling"),
    statement="Under a common input and common hidden noise, ‖z_θ − z_θ'‖ ≤ Σ_{ℓ=1}^{4} (Π_{k>ℓ} ‖B_k‖_op)"
    "(‖B_ℓ − B'_ℓ‖_op ‖h'_{ℓ−1}‖ + ‖b_ℓ − b'_ℓ‖), and the right side has finite expectation for Gaussian inputs.",
    scope="every width and every n×m block, by induction (z3 base and step): the layer step with common noise "
    "‖(ReLU(a) + σg) − (ReLU(a') + σg)‖ ≤ ‖a − a'‖, ‖ReLU(a)‖ ≤ ‖a‖, and the decomposition Bh + b − (B'h' + b') = "
    "B(h − h') + (B − B')h' + (b − b'); the unrolled four-layer recursion over ℝ≥0 (z3); first moments: sympy.stats. "
    "The passage from these to operator norms (‖Bx‖ ≤ ‖B‖_op‖x‖ and the triangle inequality) is the definition, not "
    "machine-checked. Cross-checks, not part of the proof: z3 at widths 1 and 2, sympy at 3×3, and a rigorous finite "
    "bound of E‖h'_ℓ‖ on the seeded 067A-shaped network",
    expect=Expect.HOLDS,
    lean="Psy01A.parameter_stability",
    claims=(*STABILITY_LAYER, STABILITY_RECURSION, RELU_NORM),
    theorem=(STABILITY_LAYER_ALL, DECOMPOSITION, STABILITY_RECURSION, RELU_NORM_ALL),
)
def parameter_stability(ctx):
    """Reconstruction (lost display): with e_ℓ = ‖h_ℓ − h'_ℓ‖, e₀ = 0 (equal inputs), "common
    additive noise cancels when the two states are subtracted. Hence" e_ℓ ≤ ‖B_ℓ‖e_{ℓ−1} +
    ‖B_ℓ − B'_ℓ‖‖h'_{ℓ−1}‖ + ‖b_ℓ − b'_ℓ‖, and the same at the head without ReLU; iterating gives
    the displayed sum. Moments: E‖h'_ℓ‖ ≤ ‖B'_ℓ‖E‖h'_{ℓ−1}‖ + ‖b'_ℓ‖ + σ√n_ℓ (‖ReLU(a)‖ ≤ ‖a‖,
    E‖G_ℓ‖ ≤ √n_ℓ), finite when E‖u‖ is.

    Method: induction over the width proves the noise-cancelling ReLU step ‖(ReLU(a) + σg) −
    (ReLU(a') + σg)‖² ≤ ‖a − a'‖² and ‖ReLU(a)‖² ≤ ‖a‖² for every width, and induction over the
    rows the decomposition Bh + b − (B'h' + b') = B(h − h') + (B − B')h' + (b − b') for every n×m
    block (each row by the lemma DOT_SPLIT, proved by induction over the columns); z3 proves the
    unrolled recursion; sympy E G² = 1, E|G| = √(2/π). Cross-checks (data): z3 at widths 1 and 2,
    sympy's 3×3 identity. For the seeded 067A-shaped network (σ =
    1/5, ν = 1/2) the moment recursion is evaluated with rigorous operator-norm bounds, giving
    an explicit finite bound on E‖h'_ℓ‖ (E‖u‖ ≤ 3√2 + ν√2 + 1).

    Survives mutation: return 2 * j + (0 if s == 1 else 1): the indexing of the example network's units; the bound holds for every network
    Survives mutation: for s in (1, -1):: the example network's construction; the bound holds for every network
    Survives mutation: biases[1][u] = -1.5: an example network's bias; the bound holds for every network
    Survives mutation: if a.nrows() <= a.ncols(): both Gram matrices have the same largest eigenvalue, so either side of the tie gives the same norm bound
    """
    flint = _flint()
    dot_split = induction.prove(DOT_SPLIT, "m", ctx)
    identity, gaussian = _decomposition_checks()
    parts = {
        "noise cancels, every width (induction)": induction.prove(STABILITY_LAYER_ALL, "n", ctx),
        "‖ReLU(a)‖ ≤ ‖a‖, every width (induction)": induction.prove(RELU_NORM_ALL, "n", ctx),
        "decomposition, every n×m (induction)": induction.prove(DECOMPOSITION, "n", ctx, uses=[induction.Use(
            DOT_SPLIT, dot_split, {"r": lambda s: s.new("B"), "t": lambda s: s.new("C"), "h": lambda s: s.h,
                                   "k": lambda s: s.k})]),
        "unrolled recursion (z3)": smt.prove(STABILITY_RECURSION, ctx),
        "Gaussian moments (sympy)": symbolic.conclude("sympy", gaussian),
    }
    cross = {f"noise cancels, width {c.name[-1]} (z3)": smt.prove(c, ctx) for c in STABILITY_LAYER}
    cross["‖ReLU(a)‖ ≤ ‖a‖, scalar (z3)"] = smt.prove(RELU_NORM, ctx)
    cross["decomposition at 3×3 (sympy)"] = symbolic.conclude("sympy", identity)
    old = flint.ctx.prec
    flint.ctx.prec = ARB_PREC
    try:
        with timed() as t:
            net = stress_network()
            norms = [opnorm_upper(w) for w in net.weights]
            bias_norms = [sum((flint.arb(float(x)) ** 2 for x in b), flint.arb(0)).sqrt() for b in net.biases]
            nu = flint.arb(SPEC.nu)
            moment = 3 * flint.arb(2).sqrt() + nu * flint.arb(2).sqrt() + 1  # E‖u‖ ≤ ‖μ‖ + ν E‖ε‖ + ‖c‖
            sig = flint.arb(SPEC.sigma.numerator) / SPEC.sigma.denominator
            moments = [moment.upper()]
            for layer in range(3):
                moment = norms[layer] * moment + bias_norms[layer] + sig * flint.arb(SPEC.widths[layer + 1]).sqrt()
                moments.append(moment.upper())
            finite = all(m.is_finite() for m in moments)
            step = t.step("interval", interval.version(), "rigorous first-moment recursion", "finite" if finite else "not finite",
                          bounds=[to_interval(m).describe(12) for m in moments])
    finally:
        flint.ctx.prec = old
    seeded = trusted("rigorous arb", step, at=("the seeded network",),
                    bounds=[to_interval(m).describe(12) for m in moments]) \
        if finite else unknown("rigorous arb", "a bound is not finite", step)
    # The seeded network's explicit moment bound illustrates the recursion: data, not the grade.
    cross["finite first moments on the seeded network (arb)"] = seeded
    return cross_checked(all_of("induction + z3 + sympy", parts, lemmas=True), cross)


# ---------------------------------------------------------------------------------------
# Pruning-error bound
# ---------------------------------------------------------------------------------------


def _removed_sum_claim(r: int):
    ws = [f"w{i}" for i in range(r)]
    return claim(
        f"removed-frobenius-{r}", (*ws, "q"),
        lambda o, v: o.le(sum(v[w] * v[w] for w in ws), r * v.q * v.q),
        hypotheses={"|w_i| ≤ q": lambda o, v: o.and_(*(o.le(o.abs(v[w]), v.q) for w in ws))},
    )


REMOVED_SUMS = tuple(_removed_sum_claim(r) for r in range(1, 7))


def _pruning_claim(rows: int, cols: int):
    ws = [f"w{i}{j}" for i in range(rows) for j in range(cols)]
    ms = [f"m{i}{j}" for i in range(rows) for j in range(cols)]
    xs = [f"x{j}" for j in range(cols)]

    def image_sq(o, v):
        return sum((sum(v[f"w{i}{j}"] * (1 - v[f"m{i}{j}"]) * v[f"x{j}"] for j in range(cols))) ** 2 for i in range(rows))

    def bound_sq(o, v):
        return v.q * v.q * sum(1 - v[m] for m in ms) * sum(v[x] * v[x] for x in xs)

    return claim(
        f"pruning-error-{rows}x{cols}", (*ws, *ms, "q", *xs),
        lambda o, v: o.le(image_sq(o, v), bound_sq(o, v)),
        hypotheses={"M is 0/1": lambda o, v: o.and_(*(o.or_(o.eq(v[m], 0), o.eq(v[m], 1)) for m in ms)),
                    "removed entries have |w| ≤ q": lambda o, v: o.and_(*(o.or_(o.eq(v[m], 1), o.le(o.abs(v[w]), v.q)) for w, m in zip(ws, ms)))},
        terms={"|(W − W∘M)x|²": image_sq, "q² r |x|²": bound_sq},
    )


PRUNING_SMALL = tuple(_pruning_claim(r, c) for r, c in ((1, 2), (1, 3), (2, 1), (3, 1)))
# For the tightness audit (checker.audit.audits): each claim is |(W − W∘M)x|² ≤ 1·q² r |x|².
declare_bound(PRUNING_SMALL, "|(W − W∘M)x|²", "q² r |x|²")


def _zero_one(o, k):
    return o.all(o.or_(o.eq(k, 0), o.eq(k, 1)))


def _removed_small(o, w, k, q):
    """Every removed entry (mask 0) has magnitude at most q."""
    return o.all(o.or_(o.eq(k, 1), o.le(o.abs(w), q)))


REMOVED_ROW = sized_claim(
    "removed-row-sumsq", "m:nat[0,]", "w[m] k[m]",
    lambda o, v: o.le(o.sumsq(v.w - v.w * v.k), v.q * v.q * o.sum(1 - v.k)),
    {"k is 0/1": lambda o, v: _zero_one(o, v.k), "removed entries have |w| ≤ q": lambda o, v: _removed_small(o, v.w, v.k, v.q)},
    scalars="q")
"""Lemma: a row with its removed entries (k = 0) of magnitude ≤ q has ‖w − w∘k‖² ≤ q²·#removed."""

_PRUNING_HYPS = {"M is 0/1": lambda o, v: _zero_one(o, v.M),
                 "removed entries have |w| ≤ q": lambda o, v: _removed_small(o, v.W, v.M, v.q)}
PRUNED_OPNORM = sized_claim(
    "pruned-opnorm-le-frobenius", "n:nat[1,] m:nat[1,]", "W[n,m] M[n,m] x[m]",
    lambda o, v: o.le(o.sumsq((v.W - v.W * v.M) @ v.x), o.sumsq(v.W - v.W * v.M) * o.sumsq(v.x)))
"""‖W − W∘M‖_op ≤ ‖W − W∘M‖_F, as ∀x |(W − W∘M)x|² ≤ ‖W − W∘M‖_F²|x|²."""
REMOVED_FROBENIUS = sized_claim(
    "removed-frobenius", "n:nat[1,] m:nat[1,]", "W[n,m] M[n,m]",
    lambda o, v: o.le(o.sumsq(v.W - v.W * v.M), v.q * v.q * o.sum(1 - v.M)), _PRUNING_HYPS, scalars="q")
"""‖W − W∘M‖_F² ≤ q²r, r = Σ(1 − M) the number of removed entries."""
PRUNING_ERROR = sized_claim(
    "pruning-error", "n:nat[1,] m:nat[1,]", "W[n,m] M[n,m] x[m]",
    lambda o, v: o.le(o.sumsq((v.W - v.W * v.M) @ v.x), v.q * v.q * o.sum(1 - v.M) * o.sumsq(v.x)), _PRUNING_HYPS,
    terms={"|(W − W∘M)x|²": lambda o, v: o.sumsq((v.W - v.W * v.M) @ v.x),
           "q² r |x|²": lambda o, v: v.q * v.q * o.sum(1 - v.M) * o.sumsq(v.x)},
    scalars="q")
"""‖W − W∘M‖_op ≤ q√r, as ∀x |(W − W∘M)x|² ≤ q²r|x|², for every n×m matrix and 0/1 mask."""

CONSTANT_ROW = sized_claim(
    "constant-row-sums", "m:nat[1,]", "w[m] k[m] x[m]",
    lambda o, v: o.and_(o.eq(o.dot(v.w - v.w * v.k, v.x), v.q * v.m), o.eq(o.sum(1 - v.k), v.m), o.eq(o.sumsq(v.x), v.m)),
    {"w = q": lambda o, v: o.all(o.eq(v.w, v.q)), "k = 0": lambda o, v: o.all(o.eq(v.k, 0)),
     "x = 1": lambda o, v: o.all(o.eq(v.x, 1))},
    scalars="q")
"""Lemma: for w = q·1, k = 0, x = 1 of length m: (w − w∘k)·x = qm, Σ(1 − k) = m, ‖x‖² = m."""
PRUNING_ATTAINED = sized_claim(
    "pruning-error-attained", "n:nat[1,] m:nat[1,]", "W[n,m] M[n,m] x[m]",
    lambda o, v: o.eq(o.sumsq((v.W - v.W * v.M) @ v.x), v.q * v.q * o.sum(1 - v.M) * o.sumsq(v.x)),
    {"W = q everywhere": lambda o, v: o.all(o.eq(v.W, v.q)), "M = 0 (every entry removed)": lambda o, v: o.all(o.eq(v.M, 0)),
     "x = 1": lambda o, v: o.all(o.eq(v.x, 1))},
    scalars="q")
"""The bound is attained: W = q·1_{n×m} with every entry removed (r = nm) and x = 1 give equality."""

PRUNING_THEOREM = (PRUNED_OPNORM, REMOVED_FROBENIUS, PRUNING_ERROR, PRUNING_ATTAINED)


@obligation(
    id="psy01a.pruning_error_bound",
    source=Source(DOC, "Proposition: 'If r_ℓ entries of magnitude at most q_ℓ are removed from a frozen matrix, then [...]'"),
    statement="Removing r entries of magnitude at most q from a matrix W moves it by at most q√r in operator norm: "
    "‖W − W∘M‖_op ≤ ‖W − W∘M‖_F ≤ q√r; the bound is attained.",
    scope="every n×m matrix, 0/1 mask and q, by induction over the rows (z3 base and step; Cauchy–Schwarz and a "
    "removed-row lemma, each proved by induction): ‖W − W∘M‖_op ≤ ‖W − W∘M‖_F, ‖W − W∘M‖_F² ≤ q²r and "
    "‖W − W∘M‖_op ≤ q√r, and equality for W = q·1_{n×m} with every entry removed (r = nm, so every r with m = 1); "
    "cross-checks, not part of the proof: z3 for r = 1 … 6 removed entries and at 1×2, 1×3, 2×1, 3×1, sympy singular "
    "values of the attaining matrices for r = 1 … 6",
    expect=Expect.HOLDS,
    lean="Psy01A.pruning_error_bound",
    claims=(*REMOVED_SUMS, *PRUNING_SMALL),
    theorem=PRUNING_THEOREM,
)
def pruning_error_bound(ctx):
    """Reconstruction: the display is ‖B_ℓ − B_ℓ∘M_ℓ‖_op ≤ q_ℓ√r_ℓ ("r_ℓ entries of magnitude at most
    q_ℓ are removed"). W − W∘M keeps exactly the removed entries, so its squared Frobenius norm
    is a sum of r squares each ≤ q², and the operator norm is at most the Frobenius norm.

    Method: each part of PRUNING_THEOREM by induction over the rows n. A new row r of W and k of M
    adds ((r − r∘k)·x)² to |(W − W∘M)x|²; Cauchy–Schwarz bounds it by ‖r − r∘k‖²|x|², and the
    lemma REMOVED_ROW (induction over the columns) by q²·#removed(k)·|x|². Attainment: for
    W = q·1, M = 0, x = 1 each row adds (qm)² = q²·m·m (lemma CONSTANT_ROW, induction over the
    columns), so |(W − W∘M)x|² = q²r|x|² with r = nm. Cross-checks (data): z3 directly on the small
    shapes and the removed sums r ≤ 6, sympy's singular value q√r of q·1_r e₀ᵀ for r ≤ 6."""
    row = induction.prove(REMOVED_ROW, "m", ctx)
    constant_row = induction.prove(CONSTANT_ROW, "m", ctx)
    cs = library.use("cauchy_schwarz", x=lambda s: s.new("W") - s.new("W") * s.new("M"), y=lambda s: s.x)
    nonneg = library.use("sumsq_nonneg", x=lambda s: s.x)
    removed = induction.Use(REMOVED_ROW, row, {"w": lambda s: s.new("W"), "k": lambda s: s.new("M"), "q": lambda s: s.q})
    parts = {
        "‖W − W∘M‖_op ≤ ‖W − W∘M‖_F (induction)": induction.prove(PRUNED_OPNORM, "n", ctx, uses=[cs, nonneg]),
        "‖W − W∘M‖_F² ≤ q²r (induction)": induction.prove(REMOVED_FROBENIUS, "n", ctx, uses=[removed]),
        "‖W − W∘M‖_op ≤ q√r (induction)": induction.prove(PRUNING_ERROR, "n", ctx, uses=[cs, removed, nonneg]),
        "attained (induction)": induction.prove(PRUNING_ATTAINED, "n", ctx, uses=[induction.Use(
            CONSTANT_ROW, constant_row, {"w": lambda s: s.new("W"), "k": lambda s: s.new("M"), "x": lambda s: s.x,
                                         "q": lambda s: s.q})]),
    }
    sp = symbolic.sympy()
    q = sp.Symbol("q", positive=True)
    checks = []
    for r in range(1, 7):
        m = sp.Matrix(r, 2, lambda i, j: q if j == 0 else 0)
        top = max((m.T * m).eigenvals())
        checks.append(symbolic.zero_step(sp.sqrt(top) - q * sp.sqrt(r), f"‖q·1_{r} e₀ᵀ‖_op − q√{r}"))
    cross = {f"{c.name} (z3)": smt.prove(c, ctx) for c in REMOVED_SUMS}
    cross.update({f"{c.name}, every mask (z3)": smt.prove(c, ctx, timeout_ms=20_000) for c in PRUNING_SMALL})
    cross["attained for r = 1 … 6 (sympy singular values)"] = symbolic.conclude("sympy", checks)
    return cross_checked(all_of("induction over the rows", parts, lemmas=True), cross)
