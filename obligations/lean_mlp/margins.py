"""Signs, drifts and margins of the Lean MLP development (002/004), universally over ℝ.

The width-free statements are sized claims (``*_ALL``) proved for every width by induction
(:mod:`checker.backends.induction`, with the lemmas of :mod:`.widths`); the former claims at small
concrete dimensions remain, proved by z3 (the negation is ``unsat``) as cross-checks and as the
tests' probes; a z3 model is only ever a candidate, re-checked in exact rationals. Norms are written as sums of ``o.abs``; "entries of W bounded by w" and "inputs
bounded by a" are named hypotheses (``w_bounds``, ``input_bounds``), so an audit can drop them.

Conventions (``docs/reconstructions/lean_mlp_real.md``): weights are ``W[input][output]`` as in
:mod:`obligations.lean_mlp.mlp`; a weight perturbation ``e`` of a d_in×d_out layer has
ℓ1 mass ``‖e‖₁ = ∑ᵢⱼ |eᵢⱼ|``; the segment is ``[v, v + e] = {v + t·e : 0 ≤ t ≤ 1}``; ``D`` is the
step radius (``‖e‖₁ ≤ D``); ``a`` bounds the layer input entrywise (``|xᵢ| ≤ a``); ``w`` (``w₁``,
``w₂``) bounds a weight matrix entrywise.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from checker import Expect, Source, obligation
from checker.kernel.declare import declare_bound
from checker.backends import induction, library, smt, symbolic
from checker.claims import Claim, claim, sized_claim
from checker.kernel.model import Verdict
from checker.kernel.verdicts import all_of, timed
from obligations.grading import cross_checked
from obligations.lean_mlp import widths

DOC = "002_9648822bf1d4473c.txt"
DOC4 = "004_8327de8ce09705d9.txt"


# ---------------------------------------------------------------------------------------
# small helpers over any ops namespace
# ---------------------------------------------------------------------------------------


def names(prefix: str, *shape: int) -> list[str]:
    """Variable names ``prefix_i`` or ``prefix_i_j`` for a vector or a matrix."""
    if len(shape) == 1:
        return [f"{prefix}_{i}" for i in range(shape[0])]
    return [f"{prefix}_{i}_{j}" for i in range(shape[0]) for j in range(shape[1])]


def vec(v: Any, prefix: str, n: int) -> list[Any]:
    return [v[f"{prefix}_{i}"] for i in range(n)]


def mat(v: Any, prefix: str, rows: int, cols: int) -> list[list[Any]]:
    return [[v[f"{prefix}_{i}_{j}"] for j in range(cols)] for i in range(rows)]


def total(xs: Sequence[Any]) -> Any:
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return out


def l1(o: Any, xs: Sequence[Any]) -> Any:
    """``∑ |xᵢ|``."""
    return total([o.abs(x) for x in xs])


def flat(m: Sequence[Sequence[Any]]) -> list[Any]:
    return [x for row in m for x in row]


def entries_bounded(o: Any, xs: Sequence[Any], bound: Any) -> Any:
    """``|xᵢ| ≤ bound`` for every entry."""
    return o.and_(*(o.le(o.abs(x), bound) for x in xs))


def column(o: Any, W: Sequence[Sequence[Any]], b: Any, x: Sequence[Any], k: int) -> Any:
    """``(dense W b x)_k = ∑ⱼ xⱼ·Wⱼₖ + b_k``, the same formula as :func:`mlp.dense`."""
    return total([x[j] * W[j][k] for j in range(len(x))]) + b


def same_strict_sign(o: Any, before: Any, after: Any) -> Any:
    """``after`` is off the kink with the sign of ``before`` (``before ≠ 0`` is a hypothesis)."""
    return o.and_(o.implies(o.gt(before, 0), o.gt(after, 0)), o.implies(o.lt(before, 0), o.lt(after, 0)))


# ---------------------------------------------------------------------------------------
# the same z3 question, posed faster
# ---------------------------------------------------------------------------------------

Tactic = smt.Tactic
Cases = smt.Cases
NLSAT = smt.NLSAT
ITE_SMT = smt.ITE_SMT


def prove_fast(claim: Claim, ctx: Any, *, tactic: Tactic | None = None, cases: Cases | None = None,
               lemmas: Sequence[smt.Lemma] = ()) -> Verdict:
    """``smt.prove(claim, ctx, lemmas=lemmas)`` with z3 given a faster route to the same
    ``unsat`` (a tactic pipeline, or an exhaustive split into sign patterns of ``cases``' terms);
    anything but a proof from that route defers to z3's default route (see :func:`smt.prove`)."""
    return smt.prove(claim, ctx, lemmas=lemmas, tactic=tactic, cases=cases)


def by_induction(theorem: Any, on: str, ctx: Any, checks: Sequence[Claim], *, uses: Sequence[Any] = (),
                 invariant: Callable[[Any, Any], Any] | None = None, tactic: Tactic | None = None) -> Verdict:
    """The sized ``theorem`` proved for every size by induction on ``on`` (z3 base, step, close),
    with z3 on ``checks`` (the theorem at small sizes) recorded as a cross-check, not part of the proof."""
    proof = induction.prove(theorem, on, ctx, invariant=invariant, uses=uses)
    return cross_checked(proof, {c.name: prove_fast(c, ctx, tactic=tactic) for c in checks})


# ---------------------------------------------------------------------------------------
# sign stability, ReLU
# ---------------------------------------------------------------------------------------


def sign_stable_claim(flipped: bool = False) -> Claim:
    """``|z' − z| ≤ c`` and ``c < |z|`` ⇒ ``z'`` has the strict sign of ``z``. ``flipped``
    (a test mutation) reverses the margin inequality to ``|z| < c``."""
    margin: Callable[[Any, Any], Any] = (lambda o, v: o.lt(o.abs(v.z), v.c)) if flipped else \
        (lambda o, v: o.lt(v.c, o.abs(v.z)))
    return claim(
        "sign-stable-of-close" + ("-flipped" if flipped else ""), "z zp c",
        lambda o, v: same_strict_sign(o, v.z, v.zp),
        hypotheses={"close": lambda o, v: o.le(o.abs(v.zp - v.z), v.c), "margin": margin},
        terms={"z": lambda o, v: v.z, "z_drifted": lambda o, v: v.zp},
    )


SIGN_STABLE = sign_stable_claim()


@obligation(
    id="lean_mlp.sign_stable_of_close",
    source=Source(DOC, "sign_stable_of_close ('Margins freeze signs')"),
    statement="If |z' − z| ≤ c and c < |z| then z' ≠ 0 and z' has the sign of z.",
    scope="universally over ℝ³ (z, z', c) (z3); the statement is scalar, so this is the full lemma",
    expect=Expect.HOLDS,
    lean="SgdDescentMlp.sign_stable_of_close",
    claims=(SIGN_STABLE,),
    theorem=SIGN_STABLE,
)
def sign_stable_of_close(ctx):
    """002: "If a value drifts by at most c and sits at distance more than c from the kink, the
    drifted value is still off the kink with the same sign — the ReLU mask cannot flip."
    Encoded as: close (|z' − z| ≤ c) ∧ margin (c < |z|) ⇒ (z > 0 ⇒ z' > 0) ∧ (z < 0 ⇒ z' < 0);
    the margin forces z ≠ 0, so the conclusion says z' is off the kink with z's sign. Linear
    real arithmetic with ``If`` for |·|: z3's ``unsat`` of the negation is a complete proof.

    Survives mutation: return o.and_(o.implies(o.gt(before, 0), o.gt(after, 0)), o.implies(o.lt(before, 0), o.lt(after, 0))): the margin hypothesis keeps the starting value off 0, so ≥ and > (≤ and <) agree on it and a shifted test of it only narrows the cases; a non-strict or shifted-down test of the end value is a weaker conclusion (a stronger one is killed)
    Survives mutation: o.lt(o.abs(v.z), v.c)) if flipped else: the flipped margin is the tests' mutation (flipped=True), not the obligation's claim
    """
    return smt.prove(SIGN_STABLE, ctx)


def relu_lipschitz_claim(n: int) -> Claim:
    xs, ys = names("x", n), names("y", n)

    def conclusion(o, v):
        return o.and_(*(o.le(o.abs(o.relu(v[x]) - o.relu(v[y])), o.abs(v[x] - v[y])) for x, y in zip(xs, ys)))

    return claim(f"relu-1-lipschitz-d{n}", xs + ys, conclusion)


RELU_LIPSCHITZ = relu_lipschitz_claim(1)


@obligation(
    id="lean_mlp.relu_lipschitz",
    source=Source(DOC4, "ReLU is entrywise 1-Lipschitz"),
    statement="For all real x, y: |relu x − relu y| ≤ |x − y| (hence entrywise for vectors of any width).",
    scope="universally over ℝ² (z3); entrywise, so the scalar case is the whole lemma",
    expect=Expect.HOLDS,
    lean="SgdDescentMlp.relu_lipschitz",
    claims=(RELU_LIPSCHITZ,),
    theorem=RELU_LIPSCHITZ,
)
def relu_lipschitz(ctx):
    """004: "ReLU is entrywise 1-Lipschitz … the ℝ-side workhorse that lets forward drift pass
    through a kinked layer unamplified." The vector statement is the scalar one at each entry,
    so z3's proof over ℝ² (``If`` for relu and |·|) settles it for every width.

    Survives mutation: RELU_LIPSCHITZ = relu_lipschitz_claim(1): another width is an instance of the same statement, and z3 proves it too
    """
    return smt.prove(RELU_LIPSCHITZ, ctx)


# ---------------------------------------------------------------------------------------
# dense drifts
# ---------------------------------------------------------------------------------------


DENSE_DIMS = (1, 2, 3)


def dense_drift_claim(n: int, factor: Any = 1) -> Claim:
    """One output entry of ``dense W b``: ``|(dense W b x')_k − (dense W b x)_k| ≤ w·‖x' − x‖₁``
    for ``|W_jk| ≤ w``. Only column k of W matters, so one column is the whole claim.
    ``factor`` scales the bound (a test mutation uses 1/2)."""
    xs, ys, ws = names("x", n), names("xp", n), names("W", n)

    def drift(o, v):
        return o.abs(total([(v[y] - v[x]) * v[w] for x, y, w in zip(xs, ys, ws)]))

    def bound(o, v):
        return factor * v.w * l1(o, [v[y] - v[x] for x, y in zip(xs, ys)])

    return claim(
        f"dense-drift-l1-linf-d{n}", [*xs, *ys, *ws, "b", "w"],
        lambda o, v: o.le(o.abs(total([v[y] * v[wn] for y, wn in zip(ys, ws)]) + v.b
                                - (total([v[x] * v[wn] for x, wn in zip(xs, ws)]) + v.b)), bound(o, v)),
        hypotheses={"w_bounds": lambda o, v: entries_bounded(o, [v[w] for w in ws], v.w)},
        terms={"drift": drift, "bound": bound},
    )


DENSE_DRIFT = tuple(dense_drift_claim(n) for n in DENSE_DIMS)
declare_bound(DENSE_DRIFT, "drift", "bound")


DENSE_DRIFT_ALL = sized_claim(
    "dense-drift-l1-linf", "din:nat[1,] dout:nat[1,]", "W[dout,din] b[dout] x[din] xp[din]",
    lambda o, v: o.all(o.le(o.abs((v.W @ v.xp + v.b) - (v.W @ v.x + v.b)), v.w * o.norm1(v.xp - v.x))),
    hypotheses={"w_bounds": lambda o, v: widths.entries_bounded(o, v.W, v.w)},
    terms={"drift": lambda o, v: o.norminf((v.W @ v.xp + v.b) - (v.W @ v.x + v.b)),
           "bound": lambda o, v: v.w * o.norm1(v.xp - v.x)},
    scalars="w",
)
"""Every output entry of ``dense W b x' − dense W b x`` is at most ``w·‖x' − x‖₁`` in absolute value,
for every input and output width (``W`` stored by output, :mod:`.widths`)."""
DENSE_DRIFT_AT = (DENSE_DRIFT_ALL.at(din=2, dout=2),)
declare_bound(DENSE_DRIFT_AT, "drift", "bound")


@obligation(
    id="lean_mlp.dense_drift_l1_linf",
    source=Source(DOC, "the dense ℓ1→ℓ∞ operator bound ('A dense layer's output moves by at most w·‖Δinput‖₁ per entry')"),
    statement="If every entry of W is at most w in absolute value, each entry of dense W b x' − dense W b x is at most "
    "w·‖x' − x‖₁ in absolute value.",
    scope="every input width d_in and output width d_out, by induction over the output entries (z3 base and step), "
    "each entry from the one-column bound proved by induction over d_in; cross-check, not part of the proof: "
    "z3 over ℝ at d_in = d_out = 2",
    expect=Expect.HOLDS,
    lean="SgdDescentMlp.dense_drift_l1_linf",
    claims=DENSE_DRIFT_AT,
    theorem=DENSE_DRIFT_ALL,
)
def dense_drift_l1_linf(ctx):
    """002: "A dense layer's output moves by at most w·‖Δinput‖₁ per entry — the ℓ1→ℓ∞
    operator bound used at every dense crossing of the chain." Output entry k of
    ``dense W b x`` is ``∑ⱼ xⱼWⱼₖ + b_k`` (``W[input][output]``); the sized claim stores W by
    output (row k = column k), so it reads ``W @ x + b``.

    Method: induction over the output entries d_out (a new entry is one more row); each new
    entry is bounded by the one-column lemma ``widths.dense_drift_col`` (the new column's
    entries bounded by w), itself proved by induction over d_in: a new input adds
    ``W_i·(x'_i − x_i)`` to the difference and ``w·|x'_i − x_i|`` to the bound, and
    ``|W_i| ≤ w``. So the proof covers every d_in × d_out; z3 at 2×2 checks the encoding.

    Survives mutation: return o.and_(*(o.le(o.abs(x), bound) for x in xs)): strict entry bounds are a stronger hypothesis; the conclusion still follows
    """
    return by_induction(DENSE_DRIFT_ALL, "dout", ctx, DENSE_DRIFT_AT, tactic=ITE_SMT, uses=[
        widths.use("dense_drift_col", W=lambda s: s.new("W"), b=lambda s: s.new("b"), x=lambda s: s.x,
                   xp=lambda s: s.xp, w=lambda s: s.w)])


TILE_SHAPES = ((1, 1), (2, 3), (3, 2), (3, 4), (4, 4))


def fin_prod_fin_equiv(i: int, j: int, cols: int) -> int:
    """Mathlib's ``finProdFinEquiv : Fin m × Fin n ≃ Fin (m * n)``, ``(i, j) ↦ j + n·i``
    (row-major flattening: the (d_in·d_out) parameter vector of a weight matrix)."""
    return j + cols * i


def _tile_identity(rows: int, cols: int) -> Any:
    """``∑_j ∑_i |e_{φ(i,j)}| − ∑ₚ |eₚ|`` for symbolic real entries eₚ of the flat vector (0 exactly when
    φ = finProdFinEquiv hits every flat index once: distinct |eₚ| are independent)."""
    sp = symbolic.sympy()
    e = sp.symbols(f"e0:{rows * cols}", real=True)
    by_columns = sum(sum(sp.Abs(e[fin_prod_fin_equiv(i, j, cols)]) for i in range(rows)) for j in range(cols))
    return by_columns - sum(sp.Abs(x) for x in e)


#: The theorem at each shape: the column masses of the flattened perturbation minus its flat mass is 0.
TILE_IDENTITY = tuple(symbolic.zero_claim(f"col-l1-mass-tiles-{r}x{c}", lambda r=r, c=c: _tile_identity(r, c))
                      for r, c in TILE_SHAPES)


@obligation(
    id="lean_mlp.col_l1_mass_tiles",
    source=Source(DOC, "'The ℓ1 mass of a flattened weight perturbation, summed column by column, is the total ℓ1 mass'"),
    statement="For a weight perturbation e of shape d_in×d_out flattened by finProdFinEquiv, "
    "∑_j ∑_i |e_ij| = ∑_{p < d_in·d_out} |e_flat(p)|: the columns partition the flat index set.",
    scope="shapes 1×1, 2×3, 3×2, 3×4, 4×4: the flattening is checked to be a bijection by exhaustion and the "
    "identity of sums of |·| of symbolic entries reduced to 0 by sympy",
    expect=Expect.HOLDS,
    lean="SgdDescentMlp.col_l1_mass_tiles",
    theorem=TILE_IDENTITY,
)
def col_l1_mass_tiles(ctx):
    """002/004: "finProdFinEquiv partitions the flat index set into the columns." For each
    shape, (1) the map (i, j) ↦ j + d_out·i is checked by enumeration to hit every flat index
    exactly once (a bijection onto range(d_in·d_out)), and (2) with symbolic entries eₚ of the
    flat vector, sympy reduces ∑_j ∑_i |e_{φ(i,j)}| − ∑ₚ |eₚ| to 0. Together they are the
    identity at that shape. The theorem is that identity at each shape (:data:`TILE_IDENTITY`,
    a sympy zero claim; ``symbolic.decide`` proves it, with the enumeration as a lemma step).

    Survives mutation: TILE_SHAPES = (: the shapes are instances of a statement that holds at every shape; sympy proves the identity at each shape listed (another shape is proved as well)
    """
    parts = {}
    for (rows, cols), identity in zip(TILE_SHAPES, TILE_IDENTITY):
        with timed() as t:
            image = sorted(fin_prod_fin_equiv(i, j, cols) for i in range(rows) for j in range(cols))
            bijective = image == list(range(rows * cols))
            step = t.step("python", "exact", f"{rows}×{cols}: enumerate (i, j) ↦ j + {cols}·i",
                          "a bijection onto range(d_in·d_out)" if bijective else "not a bijection")
        parts[identity.name] = symbolic.decide(identity, "enumeration of the flattening + sympy identity",
                                               lemmas=[(bijective, step)])
    return all_of("enumeration of the flattening + sympy identity, per shape", parts,
                  family="d_in×d_out = " + ", ".join(f"{r}×{c}" for r, c in TILE_SHAPES))


WEIGHT_DIFF_SHAPES = ((1, 1), (2, 2), (2, 3), (3, 2), (4, 3))


def _weight_diff(rows: int, cols: int, j: int, *, with_others: bool = False) -> Any:
    """``(dense (W + e) b x)_j − (dense W b x)_j − ∑ᵢ xᵢ·eᵢⱼ`` with the reference ``mlp.dense`` on
    symbolic entries (and, ``with_others``, the entries of e outside column j)."""
    from obligations.lean_mlp import mlp

    sp = symbolic.sympy()
    W = [[sp.Symbol(f"W_{i}_{k}") for k in range(cols)] for i in range(rows)]
    e = [[sp.Symbol(f"e_{i}_{k}") for k in range(cols)] for i in range(rows)]
    b = [sp.Symbol(f"b_{k}") for k in range(cols)]
    x = [sp.Symbol(f"x_{i}") for i in range(rows)]
    moved = mlp.dense([[W[i][k] + e[i][k] for k in range(cols)] for i in range(rows)], b, x)
    diff = sp.expand(moved[j] - mlp.dense(W, b, x)[j])
    expr = diff - sum(x[i] * e[i][j] for i in range(rows))
    if with_others:
        return expr, diff, {e[i][k] for i in range(rows) for k in range(cols) if k != j}
    return expr


#: The theorem at each shape and column: the difference of column j minus ∑ᵢ xᵢ·eᵢⱼ is 0.
WEIGHT_DIFF = tuple(symbolic.zero_claim(f"dense-weight-diff-eq-{r}x{c}-col{j}",
                                        lambda r=r, c=c, j=j: _weight_diff(r, c, j))
                    for r, c in WEIGHT_DIFF_SHAPES for j in range(c))


WEIGHT_DIFF_ALL = sized_claim(
    "dense-weight-diff-eq", "din:nat[1,] dout:nat[1,]", "W[dout,din] e[dout,din] b[dout] x[din]",
    lambda o, v: o.all(o.eq(((v.W + v.e) @ v.x + v.b) - (v.W @ v.x + v.b), v.e @ v.x)),
)
"""``dense (W + e) b x − dense W b x = (∑ᵢ xᵢ·eᵢⱼ)ⱼ`` for every d_in × d_out (W, e stored by output: row j
is column j, so entry j reads only the column-j slice of e)."""
WEIGHT_DIFF_AT = (WEIGHT_DIFF_ALL.at(din=2, dout=2),)
#: The reference ``mlp.dense`` on sympy symbols at two shapes: checks that ``W @ x + b`` is its encoding.
WEIGHT_DIFF_REFERENCE = tuple(c for c in WEIGHT_DIFF if c.name.startswith(("dense-weight-diff-eq-2x3-", "dense-weight-diff-eq-3x2-")))


@obligation(
    id="lean_mlp.dense_weight_diff_eq",
    source=Source(DOC4, "the dense pre-activation difference under a weight perturbation, exactly"),
    statement="dense (W + e) b x − dense W b x = (∑_i x_i·e_ij)_j: column j of the difference reads only the column-j "
    "slice of e (and b cancels).",
    scope="every d_in×d_out, by induction over the output entries (z3 base and step), each entry from the "
    "one-column identity proved by induction over d_in; cross-checks, not part of the proof: z3 at 2×2, and sympy "
    "on the reference mlp.dense at 2×3 and 3×2 (the encoding W @ x + b is the reference dense)",
    expect=Expect.HOLDS,
    lean="SgdDescentMlp.dense_weight_diff_eq",
    claims=WEIGHT_DIFF_AT,
    theorem=WEIGHT_DIFF_ALL,
)
def dense_weight_diff_eq(ctx):
    """004: "The dense pre-activation difference under a weight perturbation, exactly: column j
    only sees the column-j slice of the perturbation." Using the reference ``mlp.dense`` on
    sympy symbols, the difference of each output entry j minus ∑ᵢ xᵢ·eᵢⱼ expands to 0, and the
    remaining entries of e (columns other than j) do not occur in it (checked on its free
    symbols).

    Method: the theorem is :data:`WEIGHT_DIFF_ALL` (W and e stored by output, so entry j is
    ``row_j(W + e)·x + b_j − (row_j(W)·x + b_j) = row_j(e)·x``): induction over the outputs, each
    new entry from the one-column identity ``widths.weight_diff_col``, itself proved by induction
    over the inputs (a new input adds ``xᵢ(Wᵢ + eᵢ)``, ``xᵢWᵢ`` and ``xᵢeᵢ``). So the proof covers
    every shape. Cross-checks: z3 at 2×2, and the sympy identity on the reference ``mlp.dense`` at
    2×3 and 3×2 (with the free-symbol check), which ties the encoding to the reference layer.

    Survives mutation: WEIGHT_DIFF_SHAPES = (: the shapes are cross-checks of a statement proved at every shape
    """
    proof = induction.prove(WEIGHT_DIFF_ALL, "dout", ctx, uses=[
        widths.use("weight_diff_col", W=lambda s: s.new("W"), e=lambda s: s.new("e"), x=lambda s: s.x,
                   b=lambda s: s.new("b"))])
    checks = {c.name: smt.prove(c, ctx) for c in WEIGHT_DIFF_AT}
    checks.update(reference_weight_diff(WEIGHT_DIFF_REFERENCE))
    return cross_checked(proof, checks)


def reference_weight_diff(claims: Sequence[Any]) -> dict[str, Verdict]:
    """The sympy identity on the reference ``mlp.dense`` for each of ``claims`` (with the free-symbol check)."""
    out = {}
    for identity in claims:
        rows, cols, j = (int(n) for n in
                         identity.name.removeprefix("dense-weight-diff-eq-").replace("x", "-").replace("col", "").split("-"))
        with timed() as t:
            _, diff, others = _weight_diff(rows, cols, j, with_others=True)
            alone = not (diff.free_symbols & others)
            step = t.step("sympy", symbolic.version(), f"{rows}×{cols}, column {j}: free symbols of Δ(dense)_j",
                          "no entry of e outside column j" if alone else "reads e outside column j")
        out[identity.name] = symbolic.decide(identity, "sympy polynomial identity", lemmas=[(alone, step)])
    return out


COL_DRIFT_ALL = widths.CLAIMS["col_drift"]
"""``|xᵢ| ≤ a`` ⇒ ``|∑ᵢ xᵢ·eᵢⱼ| ≤ a·∑ᵢ |eᵢⱼ|`` for one column j of every input width (:mod:`.widths`)."""
COL_DRIFT_AT = (COL_DRIFT_ALL.at(n=3),)
declare_bound(COL_DRIFT_AT, "drift", "bound")


@obligation(
    id="lean_mlp.col_drift_refined",
    source=Source(DOC4, "Column-refined drift"),
    statement="If |x_i| ≤ a for every i, the column-j pre-activation moves by at most a·∑_i |e_ij| (the column-j ℓ1 "
    "mass of the perturbation, not the total mass).",
    scope="every input width d_in, by induction over the inputs (z3 base and step); the difference is ∑_i x_i·e_ij "
    "by dense_weight_diff_eq; cross-check, not part of the proof: z3 over ℝ at d_in = 3",
    expect=Expect.HOLDS,
    lean="SgdDescentMlp.col_drift_refined",
    uses=("lean_mlp.dense_weight_diff_eq",),
    claims=COL_DRIFT_AT,
    theorem=COL_DRIFT_ALL,
)
def col_drift_refined(ctx):
    """004: "the column-j pre-activation moves by at most a times the column-j ℓ1 mass (not the
    total mass — this is what keeps the hidden-layer Lipschitz constant width-free)." By
    ``dense_weight_diff_eq`` the column-j difference is ∑ᵢ xᵢ·eᵢⱼ. Induction over the inputs:
    a new input i adds xᵢ·eᵢⱼ to the sum and a·|eᵢⱼ| to the bound, and |xᵢ·eᵢⱼ| ≤ a·|eᵢⱼ| since
    |xᵢ| ≤ a (z3 base and step, nonlinear real arithmetic). So the proof covers every width; z3
    at d_in = 3 (nlsat after the ``If`` terms are named, :func:`prove_fast`) checks the encoding.

    Survives mutation: return o.all(o.le(o.abs(x), bound)): strict input bounds are a stronger hypothesis; the bound still follows
    """
    return by_induction(COL_DRIFT_ALL, "n", ctx, COL_DRIFT_AT, tactic=NLSAT)


TOTAL_DRIFT_ALL = sized_claim(
    "total-drift-le", "din:nat[1,] dout:nat[1,]", "e[dout,din] x[din]",
    lambda o, v: o.le(o.norm1(v.e @ v.x), v.a * o.norm1(v.e)),
    hypotheses={"input_bounds": lambda o, v: widths.entries_bounded(o, v.x, v.a)},
    terms={"drift": lambda o, v: o.norm1(v.e @ v.x), "bound": lambda o, v: v.a * o.norm1(v.e)},
    scalars="a",
)
"""``∑ⱼ |∑ᵢ xᵢ·eᵢⱼ| ≤ a·‖e‖₁`` for every d_in × d_out (e stored by output: row j is column j)."""
TOTAL_DRIFT_AT = (TOTAL_DRIFT_ALL.at(din=2, dout=2),)
declare_bound(TOTAL_DRIFT_AT, "drift", "bound")


@obligation(
    id="lean_mlp.total_drift_le",
    source=Source(DOC, "'Summed over all coordinates, the pre-activation drift is bounded by a·‖e‖₁ total'"),
    statement="If |x_i| ≤ a for every i, ∑_j |∑_i x_i·e_ij| ≤ a·‖e‖₁: the summed pre-activation drift is at most a "
    "times the total ℓ1 mass of the weight perturbation.",
    scope="every d_in×d_out, by induction over the output columns (z3 base and step), each column from the "
    "column-refined drift proved by induction over d_in; cross-check, not part of the proof: z3 over ℝ at 2×2",
    expect=Expect.HOLDS,
    lean="SgdDescentMlp.total_drift_le",
    uses=("lean_mlp.col_drift_refined", "lean_mlp.col_l1_mass_tiles"),
    claims=TOTAL_DRIFT_AT,
    theorem=TOTAL_DRIFT_ALL,
)
def total_drift_le(ctx):
    """002: "Summed over all coordinates, the pre-activation drift is bounded by a·‖e‖₁ total —
    the column masses tile the flat index set."

    Method: the theorem is :data:`TOTAL_DRIFT_ALL`, the perturbation stored by output column
    (row j of ``e`` is column j; ``‖e‖₁`` is the sum of every |entry| in either layout, which is
    what ``col_l1_mass_tiles`` says of the flattening). Induction over the columns: a new column
    adds ``|e_j·x|`` to the left side and ``a·‖e_j‖₁`` to the right, and the column-refined drift
    (``col_drift_refined``'s theorem, proved by induction over d_in in :mod:`.widths` and carried
    in this proof's fact, so no lemma stays assumed) bounds the first by the second. So the proof
    covers every shape; z3 at 2×2 checks the encoding.

    Survives mutation: return o.all(o.le(o.abs(x), bound)): strict entry bounds are a stronger hypothesis; the conclusion still follows
    """
    return by_induction(TOTAL_DRIFT_ALL, "dout", ctx, TOTAL_DRIFT_AT, tactic=NLSAT, uses=[
        widths.use("col_drift", e=lambda s: s.new("e"), x=lambda s: s.x, a=lambda s: s.a)])


def relu_dense_drift_claim(n: int, factor: Any = 1) -> Claim:
    """``|Wⱼₖ| ≤ w`` and ``‖y' − y‖₁ ≤ B`` ⇒ ``|(dense W b (relu y'))_k − (dense W b (relu y))_k| ≤ w·B``."""
    ys, yps, ws = names("y", n), names("yp", n), names("W", n)

    def drift(o, v):
        return o.abs(total([(o.relu(v[yp]) - o.relu(v[y])) * v[w] for y, yp, w in zip(ys, yps, ws)]))

    def bound(o, v):
        return factor * v.w * v.B

    def out(o, v, which):
        return total([o.relu(v[y]) * v[w] for y, w in zip(which, ws)]) + v.b

    return claim(
        f"relu-dense-drift-d{n}", [*ys, *yps, *ws, "b", "w", "B"],
        lambda o, v: o.le(o.abs(out(o, v, yps) - out(o, v, ys)), bound(o, v)),
        hypotheses={
            "w_bounds": lambda o, v: entries_bounded(o, [v[w] for w in ws], v.w),
            "input_drift_mass": lambda o, v: o.le(l1(o, [v[yp] - v[y] for y, yp in zip(ys, yps)]), v.B),
        },
        terms={"drift": drift, "bound": bound},
    )


RELU_DENSE_DRIFT = tuple(relu_dense_drift_claim(n) for n in (1, 2))
declare_bound(RELU_DENSE_DRIFT, "drift", "bound")


RELU_DENSE_DRIFT_ALL = sized_claim(
    "relu-dense-drift", "din:nat[1,] dout:nat[1,]", "W[dout,din] b[dout] y[din] yp[din]",
    lambda o, v: o.all(o.le(o.abs((v.W @ o.relu(v.yp) + v.b) - (v.W @ o.relu(v.y) + v.b)), v.w * v.B)),
    hypotheses={"w_bounds": lambda o, v: widths.entries_bounded(o, v.W, v.w),
                "input_drift_mass": lambda o, v: o.le(o.norm1(v.yp - v.y), v.B)},
    terms={"drift": lambda o, v: o.norminf((v.W @ o.relu(v.yp) + v.b) - (v.W @ o.relu(v.y) + v.b)),
           "bound": lambda o, v: v.w * v.B},
    scalars="w B",
)
"""ReLU then dense: every output entry moves by at most ``w·B``, every d_in × d_out (W stored by output)."""
RELU_DENSE_DRIFT_AT = (RELU_DENSE_DRIFT_ALL.at(din=2, dout=1),)
declare_bound(RELU_DENSE_DRIFT_AT, "drift", "bound")


@obligation(
    id="lean_mlp.relu_dense_drift",
    source=Source(DOC, "'ReLU then a dense layer: an input drift of ℓ1 mass B moves each output entry by at most w·B'"),
    statement="If |W_jk| ≤ w and ‖y' − y‖₁ ≤ B, every entry of dense W b (relu y') − dense W b (relu y) is at most w·B "
    "in absolute value.",
    scope="every input and output width, by induction over the output entries (z3 base and step), each entry "
    "from the one-column bound proved by induction over the inputs (invariant: drift ≤ w·‖y' − y‖₁, w ≥ 0); "
    "cross-check, not part of the proof: z3 over ℝ at d_in = 2, d_out = 1",
    expect=Expect.HOLDS,
    lean="SgdDescentMlp.relu_dense_drift",
    uses=("lean_mlp.relu_lipschitz", "lean_mlp.dense_drift_l1_linf"),
    claims=RELU_DENSE_DRIFT_AT,
    theorem=RELU_DENSE_DRIFT_ALL,
)
def relu_dense_drift(ctx):
    """002: ReLU then a dense layer — the composition of ``relu_lipschitz`` (ℓ1 mass does not
    grow through ReLU) and ``dense_drift_l1_linf``. Stated and proved directly by z3 at each
    width 1 and 2 (``If`` for relu and |·|; nonlinear because of the products with W; z3's
    nlsat procedure after the ``If`` terms are named, :func:`prove_fast`). Width 3
    times out within 20 s, with or without the two lemmas as extra assertions.

    Method now: induction. For one output entry (``widths.relu_dense_col``, induction over the
    inputs) the invariant is ``|Δ| ≤ w·‖y' − y‖₁ ∧ w ≥ 0``: a new input adds
    ``W_i·(relu y'_i − relu y_i)``, at most ``w·|y'_i − y_i|`` (ReLU is 1-Lipschitz, ``|W_i| ≤ w``);
    the closing query uses ``‖y' − y‖₁ ≤ B``. The matrix statement is then an induction over the
    output entries instantiating that lemma at each new row. Every width; z3 at width 2 checks
    the encoding.

    Survives mutation: return o.and_(*(o.le(o.abs(x), bound) for x in xs)): strict entry bounds are a stronger hypothesis; the conclusion still follows
    Survives mutation: RELU_DENSE_DRIFT = tuple(: another input width is an instance of the same statement, and z3 proves it too
    Survives mutation: o.le(l1(o, [v[yp] - v[y] for y, yp in zip(ys, yps)]), v.B): a strict input-drift hypothesis is stronger; the bound still follows
    """
    return by_induction(RELU_DENSE_DRIFT_ALL, "dout", ctx, RELU_DENSE_DRIFT_AT, tactic=NLSAT, uses=[
        widths.use("relu_dense_col", W=lambda s: s.new("W"), b=lambda s: s.new("b"), y=lambda s: s.y,
                   yp=lambda s: s.yp, w=lambda s: s.w, B=lambda s: s.B)])


# ---------------------------------------------------------------------------------------
# segment margins
# ---------------------------------------------------------------------------------------


def segment_margin_claim(n: int) -> Claim:
    """002's parameter-map form at a parameter space of dimension n. ``Z`` is arbitrary: it
    enters only through its value ``z0 = Z v k`` and its value ``zt = Z (v + t·e) k`` at one
    point of the segment, tied by the hypothesis ``|zt − z0| ≤ ρ·‖t·e‖₁``."""
    es = names("e", n)

    def mass(o, v):
        return l1(o, [v[e] for e in es])

    return claim(
        f"segment-margin-freezes-n{n}", [*es, "t", "rho", "D", "z0", "zt"],
        lambda o, v: same_strict_sign(o, v.z0, v.zt),
        hypotheses={
            "t_in_unit": lambda o, v: o.and_(o.le(0, v.t), o.le(v.t, 1)),
            "step_radius": lambda o, v: o.le(mass(o, v), v.D),
            "drift": lambda o, v: o.le(o.abs(v.zt - v.z0), v.rho * l1(o, [v.t * v[e] for e in es])),
            "margin": lambda o, v: o.lt(v.rho * v.D, o.abs(v.z0)),
        },
        terms={"z0": lambda o, v: v.z0, "zt": lambda o, v: v.zt},
    )


SEGMENT_MARGIN = tuple(segment_margin_claim(n) for n in (1, 2, 4))
SEGMENT_MARGIN_ALL = sized_claim(
    "segment-margin-freezes", "n:nat[1,]", "e[n]",
    lambda o, v: same_strict_sign(o, v.z0, v.zt),
    hypotheses={
        "t_in_unit": lambda o, v: o.and_(o.le(0, v.t), o.le(v.t, 1)),
        "step_radius": lambda o, v: o.le(o.norm1(v.e), v.D),
        "drift": lambda o, v: o.le(o.abs(v.zt - v.z0), v.rho * o.norm1(v.e * v.t)),
        "margin": lambda o, v: o.lt(v.rho * v.D, o.abs(v.z0)),
    },
    terms={"z0": lambda o, v: v.z0, "zt": lambda o, v: v.zt},
    scalars="t rho D z0 zt",
)
""":func:`segment_margin_claim` at every parameter dimension n."""
SEGMENT_MARGIN_AT = (SEGMENT_MARGIN_ALL.at(n=2),)


def _segment_invariant(o: Any, v: Any) -> Any:
    """``‖e‖₁ ≥ 0`` and ``‖t·e‖₁ = t·‖e‖₁`` for t ≥ 0 (the hypotheses on sums are read at the close)."""
    return o.and_(o.ge(o.norm1(v.e), 0), o.implies(o.ge(v.t, 0), o.eq(o.norm1(v.e * v.t), v.t * o.norm1(v.e))))


@obligation(
    id="lean_mlp.segment_margin_freezes",
    source=Source(DOC, "'A per-entry drift inside the margin keeps a pre-activation off the kink along the whole segment'"),
    statement="For any parameter map Z whose entries move by at most ρ·‖t·e‖₁ between v and v + t·e, if ‖e‖₁ ≤ D and "
    "ρ·D < |Z v k| then Z (v + t·e) k has the strict sign of Z v k for every t ∈ [0, 1].",
    scope="every parameter dimension n, Z arbitrary (it enters only through its two values), by induction over n "
    "(invariant ‖t·e‖₁ = t·‖e‖₁ ≥ 0; z3 base, step and close); cross-check, not part of the proof: z3 over ℝ at n = 2",
    expect=Expect.HOLDS,
    lean="SgdDescentMlp.segment_margin_freezes",
    uses=("lean_mlp.sign_stable_of_close",),
    claims=SEGMENT_MARGIN_AT,
    theorem=SEGMENT_MARGIN_ALL,
)
def segment_margin_freezes(ctx):
    """002: "for any parameter map Z whose entries move by at most ρ·‖e‖₁, the margin
    ρ·D < |Z v k| at step radius D freezes every sign on [v, v+e]." Reconstruction: the
    drift hypothesis is read at each point of the segment, |Z(v + t·e) k − Z v k| ≤ ρ·‖t·e‖₁
    (the segment form the margins below deliver). No sign hypothesis on ρ is needed (an audit
    dropping "ρ ≥ 0" found it redundant: the margin makes ρ·D < |Z v k| and a negative ρ only
    strengthens the drift hypothesis). Since Z is arbitrary, z3 treats its
    two values as free reals tied only by that hypothesis, so the proof covers every map Z at
    that parameter dimension.

    Method: induction over n with the invariant ``‖e‖₁ ≥ 0 ∧ (t ≥ 0 ⇒ ‖t·e‖₁ = t·‖e‖₁)`` (a new
    entry adds |t·eₙ| = t·|eₙ|); the closing query then has |zt − z0| ≤ ρ·t·‖e‖₁, ‖e‖₁ ≤ D, t ∈ [0, 1]
    and ρ·D < |z0|, from which z3 gets the sign. Every n; z3 at n = 2 checks the encoding.

    Survives mutation: return o.and_(o.implies(o.gt(before, 0), o.gt(after, 0)), o.implies(o.lt(before, 0), o.lt(after, 0))): the margin hypothesis keeps the starting value off 0, so ≥ and > (≤ and <) agree on it and a shifted test of it only narrows the cases; a non-strict or shifted-down test of the end value is a weaker conclusion (a stronger one is killed)
    Survives mutation: o.and_(o.le(0, v.t), o.le(v.t, 1)): a narrower t range is a stronger hypothesis; the conclusion holds on all of [0, 1]
    Survives mutation: SEGMENT_MARGIN = tuple(: another parameter dimension is an instance of the same statement, and z3 proves it too
    """
    return by_induction(SEGMENT_MARGIN_ALL, "n", ctx, SEGMENT_MARGIN_AT, invariant=_segment_invariant)


def margin_claim(rows: int, cols: int, k: int = 0) -> Claim:
    """margin_keeps_offkink at a d_in×d_out weight layer, output entry k: the pre-activation
    ``z(t) = dense (W + t·e) b x`` at entry k keeps the strict sign of ``z(0)``."""
    xs, Ws, es = names("x", rows), names("W", rows, cols), names("e", rows, cols)

    def pre(o, v, t):
        x, W, e = vec(v, "x", rows), mat(v, "W", rows, cols), mat(v, "e", rows, cols)
        return column(o, [[W[i][j] + t * e[i][j] for j in range(cols)] for i in range(rows)], v.b, x, k)

    return claim(
        f"margin-keeps-offkink-{rows}x{cols}", [*xs, *Ws, *es, "b", "t", "a", "D"],
        lambda o, v: same_strict_sign(o, pre(o, v, 0), pre(o, v, v.t)),
        hypotheses={
            "t_in_unit": lambda o, v: o.and_(o.le(0, v.t), o.le(v.t, 1)),
            "input_bounds": lambda o, v: entries_bounded(o, [v[x] for x in xs], v.a),
            "step_radius": lambda o, v: o.le(l1(o, [v[e] for e in es]), v.D),
            "margin": lambda o, v: o.lt(v.a * v.D, o.abs(pre(o, v, 0))),
        },
        terms={"z_at_v": lambda o, v: pre(o, v, 0), "z_at_v_plus_te": lambda o, v: pre(o, v, v.t)},
    )


MARGIN = tuple(margin_claim(r, c) for r, c in ((1, 1), (2, 1), (2, 2), (3, 2)))


def _z(o: Any, v: Any, moved: bool) -> Any:
    """``dense (W + t·e) b x`` (``moved``) or ``dense W b x``, W and e stored by output."""
    return (v.W + v.e * v.t if moved else v.W) @ v.x + v.b


MARGIN_ALL = sized_claim(
    "margin-keeps-offkink", "din:nat[1,] dout:nat[1,]", "W[dout,din] e[dout,din] b[dout] x[din]",
    lambda o, v: o.all(o.implies(o.lt(v.a * v.D, o.abs(_z(o, v, False))), same_strict_sign(o, _z(o, v, False), _z(o, v, True)))),
    hypotheses={
        "t_in_unit": lambda o, v: o.and_(o.le(0, v.t), o.le(v.t, 1)),
        "input_bounds": lambda o, v: widths.entries_bounded(o, v.x, v.a),
        "step_radius": lambda o, v: o.le(o.norm1(v.e), v.D),
    },
    scalars="t a D",
)
"""For every entry k with the margin ``a·D < |z_k|``, z_k keeps its strict sign along the segment; every
d_in × d_out, the whole perturbation's ℓ1 mass at most D."""
MARGIN_AT = (MARGIN_ALL.at(din=2, dout=1),)


def _margin_invariant(o: Any, v: Any) -> Any:
    """``‖e‖₁ ≥ 0``, and the conclusion for the entries so far whenever their mass is within D."""
    return o.and_(o.ge(o.norm1(v.e), 0), o.implies(o.le(o.norm1(v.e), v.D), MARGIN_ALL.conclusion(o, v)))


def _margin_uses(W: str = "W") -> list[Any]:
    return [widths.use("segment_linear", W=lambda s: s.new(W), e=lambda s: s.new("e"), x=lambda s: s.x, t=lambda s: s.t),
            widths.use("col_drift", e=lambda s: s.new("e"), x=lambda s: s.x, a=lambda s: s.a),
            widths.use("bound_nonneg", x=lambda s: s.x, a=lambda s: s.a),
            library.use("norm1_nonneg", x=lambda s: s.new("e"))]


def margin_cases(c: Claim) -> Cases | None:
    """For the shapes past 2×2, the pre-activation z(0)_0 at v, whose two signs split the margin
    query (each point lies in one; z3's default solver in each); the smaller shapes, which z3
    settles at once, take the default route directly."""
    rows, cols = (int(n) for n in c.name.rsplit("-", 1)[1].split("x"))
    if rows * cols <= 4:
        return None

    def terms(o, v):
        return [column(o, mat(v, "W", rows, cols), v.b, vec(v, "x", rows), 0)]

    return terms


@obligation(
    id="lean_mlp.margin_keeps_offkink",
    source=Source(DOC, "margin_keeps_offkink ('The margin keeps the pre-activation off the kink along the whole segment')"),
    statement="If |x_i| ≤ a, ‖e‖₁ ≤ D and a·D < |z_k| where z = dense W b x, then for every t ∈ [0, 1] the "
    "pre-activation (dense (W + t·e) b x)_k is off the kink with the sign of z_k.",
    scope="every d_in×d_out and every entry k, every t ∈ [0, 1], by induction over the output entries (z3 base and "
    "step; each new entry from the column-refined drift and the segment's linearity, both proved by induction over "
    "d_in); cross-check, not part of the proof: z3 over ℝ at d_in = 2, one entry",
    expect=Expect.HOLDS,
    lean="SgdDescentMlp.margin_keeps_offkink",
    uses=("lean_mlp.col_drift_refined", "lean_mlp.segment_margin_freezes"),
    claims=MARGIN_AT,
    theorem=MARGIN_ALL,
)
def margin_keeps_offkink(ctx):
    """002/004: "With the step's ℓ1 mass at most D and inputs bounded by a, the pre-activation
    drifts by at most a·D — strictly inside the margin — so every point of [v, v + e] is off the
    kink with the original sign." The perturbation e is a whole d_in×d_out matrix (its ℓ1 mass
    counts every column, although entry k only sees column k). t is a variable, so the proof is
    for every point of the segment at once.

    Method: the theorem is :data:`MARGIN_ALL` (W, e stored by output; "every entry k with its
    margin keeps its sign"). Induction over the output entries with the invariant
    ``‖e‖₁ ≥ 0 ∧ (‖e‖₁ ≤ D ⇒ the conclusion so far)``: a new entry k has
    ``z_k(t) = z_k(0) + t·(e_k·x)`` (``widths.segment_linear``), ``|e_k·x| ≤ a·‖e_k‖₁``
    (``widths.col_drift``), ``a ≥ 0`` (``widths.bound_nonneg``) and ``0 ≤ ‖e_k‖₁ ≤ D``, so it moves
    by at most ``a·D`` < its margin; the earlier entries keep theirs since their mass only
    shrinks. Each lemma is proved by induction over d_in. z3 at d_in = 2 (one entry) checks the encoding.

    Survives mutation: return o.and_(o.implies(o.gt(before, 0), o.gt(after, 0)), o.implies(o.lt(before, 0), o.lt(after, 0))): the margin hypothesis keeps the starting value off 0, so ≥ and > (≤ and <) agree on it and a shifted test of it only narrows the cases; a non-strict or shifted-down test of the end value is a weaker conclusion (a stronger one is killed)
    Survives mutation: return o.and_(*(o.le(o.abs(x), bound) for x in xs)): strict entry bounds are a stronger hypothesis; the conclusion still follows
    Survives mutation: o.and_(o.le(0, v.t), o.le(v.t, 1)): a narrower t range is a stronger hypothesis; the conclusion holds on all of [0, 1]
    Survives mutation: MARGIN = tuple(: another shape is an instance of the same statement, and z3 proves it too
    """
    return by_induction(MARGIN_ALL, "dout", ctx, MARGIN_AT, uses=_margin_uses(), invariant=_margin_invariant)


def margin1_claim(d0: int, d1: int, factor: Any = 1) -> Claim:
    """The layer-1 margin: W₀ moves to W₀ + t·e, the middle pre-activation
    ``z₁(t)_0 = (dense W₁ b₁ (relu (dense (W₀ + t·e) b₀ x)))_0`` keeps its strict sign when
    ``w₁·a·D < |z₁(0)_0|``. ``factor`` scales the margin (a test mutation)."""
    xs, W0s, es, b0s, W1s = names("x", d0), names("W0", d0, d1), names("e", d0, d1), names("b0", d1), names("W1", d1)

    def pre1(o, v, t):
        x, W0, e, b0 = vec(v, "x", d0), mat(v, "W0", d0, d1), mat(v, "e", d0, d1), vec(v, "b0", d1)
        a0 = [o.relu(column(o, [[W0[i][j] + t * e[i][j] for j in range(d1)] for i in range(d0)], b0[j], x, j))
              for j in range(d1)]
        return total([a0[j] * v[W1s[j]] for j in range(d1)]) + v.b1

    return claim(
        f"margin1-keeps-offkink-{d0}x{d1}", [*xs, *W0s, *es, *b0s, *W1s, "b1", "t", "a", "w1", "D"],
        lambda o, v: same_strict_sign(o, pre1(o, v, 0), pre1(o, v, v.t)),
        hypotheses={
            "t_in_unit": lambda o, v: o.and_(o.le(0, v.t), o.le(v.t, 1)),
            "input_bounds": lambda o, v: entries_bounded(o, [v[x] for x in xs], v.a),
            "w1_bounds": lambda o, v: entries_bounded(o, [v[w] for w in W1s], v.w1),
            "step_radius": lambda o, v: o.le(l1(o, [v[e] for e in es]), v.D),
            "margin1": lambda o, v: o.lt(factor * v.w1 * v.a * v.D, o.abs(pre1(o, v, 0))),
        },
        terms={"z1_at_v": lambda o, v: pre1(o, v, 0), "z1_at_v_plus_te": lambda o, v: pre1(o, v, v.t)},
    )


MARGIN1 = tuple(margin1_claim(d0, d1) for d0, d1 in ((1, 1), (1, 2)))


def _z1(o: Any, v: Any, moved: bool) -> Any:
    """``dense W₁ b₁ (relu (dense (W₀ + t·e) b₀ x))`` (``moved``) or at t = 0; W₀, e, W₁ stored by output."""
    W0 = v.W0 + v.e * v.t if moved else v.W0
    return v.W1 @ o.relu(W0 @ v.x + v.b0) + v.b1


MARGIN1_ALL = sized_claim(
    "margin1-keeps-offkink", "d0:nat[1,] d1:nat[1,] d2:nat[1,]",
    "W0[d1,d0] e[d1,d0] b0[d1] W1[d2,d1] b1[d2] x[d0]",
    lambda o, v: o.all(o.implies(o.lt(v.w1 * v.a * v.D, o.abs(_z1(o, v, False))),
                                 same_strict_sign(o, _z1(o, v, False), _z1(o, v, True)))),
    hypotheses={
        "t_in_unit": lambda o, v: o.and_(o.le(0, v.t), o.le(v.t, 1)),
        "input_bounds": lambda o, v: widths.entries_bounded(o, v.x, v.a),
        "w1_bounds": lambda o, v: widths.entries_bounded(o, v.W1, v.w1),
        "step_radius": lambda o, v: o.le(o.norm1(v.e), v.D),
    },
    scalars="t a w1 D",
)
"""Every middle entry l with the margin ``w₁·a·D < |z₁_l|`` keeps its strict sign along the segment;
every d₀ × d₁ × d₂."""
MARGIN1_AT = (MARGIN1_ALL.at(d0=1, d1=2, d2=1),)


def margin1_cases(c: Claim) -> Cases:
    """The layer-0 pre-activations at v and at v + t·e (the arguments of the relus), whose sign
    patterns split the margin1 query into ReLU-free cases."""
    d0, d1 = (int(n) for n in c.name.rsplit("-", 1)[1].split("x"))

    def terms(o, v):
        x, W0, e, b0 = vec(v, "x", d0), mat(v, "W0", d0, d1), mat(v, "e", d0, d1), vec(v, "b0", d1)
        return [column(o, [[W0[i][j] + t * e[i][j] for j in range(d1)] for i in range(d0)], b0[j], x, j)
                for t in (0, v.t) for j in range(d1)]

    return terms


@obligation(
    id="lean_mlp.margin1_keeps_offkink",
    source=Source(DOC, "the layer-1 margin ('the layer-1 analogue of margin_keeps_offkink')"),
    statement="With W₀ moving to W₀ + t·e, |x_i| ≤ a, |W₁_jl| ≤ w₁, ‖e‖₁ ≤ D and w₁·a·D < |z₁_l|, the middle "
    "pre-activation z₁ = dense W₁ b₁ (relu (dense W₀ b₀ x)) keeps the strict sign of z₁_l at every t ∈ [0, 1].",
    scope="every d₀×d₁ for W₀ and every number d₂ of middle entries, every t ∈ [0, 1], by induction over the middle "
    "entries, each from the one-entry margin proved by induction over d₁ (invariant: drift ≤ w₁·a·t·‖e‖₁; the "
    "column drift, the segment's linearity and a ≥ 0 by induction over d₀); z3 base, step and close; "
    "cross-check, not part of the proof: z3 over ℝ at d₀×d₁ = 1×2, one middle entry",
    expect=Expect.HOLDS,
    lean="SgdDescentMlp.margin1_keeps_offkink",
    uses=("lean_mlp.margin_keeps_offkink", "lean_mlp.relu_dense_drift"),
    claims=MARGIN1_AT,
    theorem=MARGIN1_ALL,
)
def margin1_keeps_offkink(ctx):
    """002: "The layer-1 margin keeps the middle pre-activation off the kink along the segment:
    the perturbation arrives through one dense + ReLU, so the drift is at most w₁·a·D." The
    drift chain is column-refined drift of z₀ (≤ a·column mass), ReLU 1-Lipschitz, then
    dense W₁ (ℓ1→ℓ∞ with bound w₁), and the column masses tile to ‖e‖₁ ≤ D. Proved here
    end to end by z3 at each shape, every t ∈ [0, 1] at once (``If`` for relu and |·|). The
    negation is checked in cases, one per sign pattern of the layer-0 pre-activations at v and
    at v + t·e (:func:`margin1_cases`): the patterns cover ℝⁿ, so all cases ``unsat`` is the
    negation ``unsat``, and each case is a ReLU-free problem z3 settles quickly.

    Method now: induction. One middle entry (``widths.margin1_col``) by induction over the
    hidden units d₁ with the invariant ``‖e‖₁ ≥ 0 ∧ w₁ ≥ 0 ∧ |Δz₁| ≤ w₁·a·t·‖e‖₁``: a new unit j
    adds ``W₁ⱼ·(relu z₀ⱼ(t) − relu z₀ⱼ(0))``, and ``|z₀ⱼ(t) − z₀ⱼ(0)| = t·|e_j·x| ≤ t·a·‖e_j‖₁``
    (the segment's linearity and the column drift, each by induction over d₀); the closing query
    reads ‖e‖₁ ≤ D and the margin. The theorem, every middle entry l with its margin, is then an
    induction over d₂ instantiating it at each new row of W₁ (W₀, e, W₁ stored by output). z3 at
    1×2 (one middle entry, :func:`margin1_cases`) checks the encoding.

    Survives mutation: return o.and_(o.implies(o.gt(before, 0), o.gt(after, 0)), o.implies(o.lt(before, 0), o.lt(after, 0))): the margin hypothesis keeps the starting value off 0, so ≥ and > (≤ and <) agree on it and a shifted test of it only narrows the cases; a non-strict or shifted-down test of the end value is a weaker conclusion (a stronger one is killed)
    Survives mutation: return o.and_(*(o.le(o.abs(x), bound) for x in xs)): strict entry bounds are a stronger hypothesis; the conclusion still follows
    Survives mutation: o.and_(o.le(0, v.t), o.le(v.t, 1)): a narrower t range is a stronger hypothesis; the conclusion holds on all of [0, 1]
    Survives mutation: MARGIN1 = tuple(: another shape is an instance of the same statement, and z3 proves it too
    Survives mutation: pre1(o, v, 0), "z1_at_v_plus_te": the terms are what the audits print, not part of the claim
    """
    proof = induction.prove(MARGIN1_ALL, "d2", ctx, uses=[widths.use(
        "margin1_col", W0=lambda s: s.W0, e=lambda s: s.e, b0=lambda s: s.b0, V=lambda s: s.new("W1"), x=lambda s: s.x,
        b1=lambda s: s.new("b1"), t=lambda s: s.t, a=lambda s: s.a, w1=lambda s: s.w1, D=lambda s: s.D)])
    return cross_checked(proof, {c.name: prove_fast(c, ctx) for c in MARGIN1_AT})

