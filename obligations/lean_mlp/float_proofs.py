"""FloatBridge's binary32 budgets, proved: the rounding model, ``relu_exact_in_float``,
``mul_close``, ``dot_close``, ``cot_step_close``, ``softmax_ce_cot_close`` and the three
grad-closes (``linear_grad_close``, ``mlp_w1_grad_close``, ``mlp_w0_grad_close``).

``dot_close`` and ``cot_step_close`` declare sized theorems (every fan-in): the rounding model's
errors are arrays of bounded reals, a summation order is read in path form (each rounded leaf times
the (1 + δ) of the additions above it, K ≤ m − 1 of them: ``o.rowprod`` of a matrix D[m, K]),
and the induction rule proves them over the number of terms with Lemma 3.1 (Π(1 + δ) within γ_K,
by induction over K) and small z3 lemmas over ℝ. The other obligations declare as their theorem the
lemmas they are built from (:mod:`.float_lemmas`: floating-point theory for the rounding model and
ReLU, z3 over ℝ for the budget lemmas, sympy for the budget code at a symbolic fan-in, number of
classes or shape, and :mod:`.float_composition`'s identities at symbolic dims), each a kernel fact,
so they hold for every size; chaining the head's and the grad-closes' lemmas into the stated bound
(exp's facts, the lemmas instantiated along the network) is the step done by hand (scopes say so). A proof
that does not go through (e.g. a budget made too small) is searched for a counterexample with
the float32 checks of :mod:`.float32_stages` and :mod:`.float32_gradients`, re-checked in exact
binary32 arithmetic (:func:`_falsify`); without one the result stays ``unknown``.
"""

from __future__ import annotations

from typing import Any, Callable

from checker import Expect, Source, obligation
from checker.backends import induction, smt
from checker.backends.induction import Use
from checker.kernel.claims import claim
from checker.kernel.model import Verdict
from checker.kernel.sized import sized_claim
from checker.kernel.verdicts import all_of, unknown
from obligations.lean_mlp import binary32 as b32
from obligations.lean_mlp import float_lemmas as fl
from obligations.lean_mlp.float32_gradients import check_grad
from obligations.lean_mlp.float32_stages import RELU_STATEMENT, check_cot_step, check_dot, check_head, check_mul
from obligations.lean_mlp.float_composition import ALGEBRA, COMPOSITION
from obligations.lean_mlp.float_screen import _run

DOC4 = "004_8327de8ce09705d9.txt"


# =======================================================================================
# The proofs (float_lemmas): the rounding model in z3's floating-point theory, every budget
# lemma over ℝ for all inputs, at every fan-in / shape of the stated family
# =======================================================================================

PROOF_NOTE = "; IEEE round-to-nearest-even with subnormals, no overflow"


def _falsify(proof: Verdict, check: Callable[..., Verdict], *args: Any, **kwargs: Any) -> Verdict:
    """A proof that did not go through (e.g. a budget made too small) is searched for a
    counterexample with real float32 runs, re-checked in exact binary32 arithmetic (round32);
    without one the result stays ``unknown``."""
    if proof.status.value == "proved":
        return proof
    found = _run(check, *args, **kwargs)
    if found.status.value == "refuted":
        return found
    return proof


@obligation(
    id="lean_mlp.float.rounding_model",
    source=Source(DOC4, "FloatBridge: the binary32 FloatModel (relErr: |round x − x| ≤ u·|x| + μ)"),
    statement="Binary32 round-to-nearest-even: for every real x with |x| at most the largest binary32, "
    "RN(x) = x(1 + δ) + η with |δ| ≤ u = 2⁻²⁴, |η| ≤ μ = 2⁻¹⁵⁰ and δη = 0; for x = a ± b of two binary32 "
    "numbers η = 0. Hence for ∘ ∈ {+, −, ×, ÷} (IEEE: fl(a ∘ b) = RN(a ∘ b)) and for a product with an exact "
    "real operand.",
    scope="universally: every real x in range, every pair of finite binary32. The declared theorem is the model's four "
    "parts: in floating-point theory FPSort(8, 24) (bitwuzla, z3 confirming) the spacing of binary32 (gap lemma) and "
    "exact subnormal sums; over ℝ (z3) that the nearer of two neighbours so spaced is within u·x or μ of x (u·x for a "
    "sum). That IEEE's RN(x) is the nearer neighbour (correct rounding) and is odd is the semantics used, not a "
    "machine-checked step",
    expect=Expect.HOLDS,
    lean="FloatBridge.rounding_model",
    theorem=fl.ROUNDING_MODEL,
)
def rounding_model(ctx):
    """The standard model of one rounding, proved bit-exactly. z3's ``QF_FP``: the *gap lemma*
    (next binary32 above f₁ ≥ 0 is within 2⁻²³·f₁ when f₁ is normal, 2⁻¹⁴⁹ and at most 2⁻¹²⁶ when
    subnormal; the binary64 subtraction is checked exact) and *exact subnormal sums* (a binary32
    sum whose rounding is ≤ 2⁻¹²⁶ in magnitude rounds down and up to the same value). z3 over ℝ:
    the nearer neighbour then errs by ≤ u·|x| or ≤ μ, and by ≤ u·|x| for a sum. IEEE 754's
    correct rounding (fl(a ∘ b) = RN(a ∘ b)) and the symmetry of RN are the semantics used."""
    return fl.rounding_model()


@obligation(
    id="lean_mlp.float.relu_exact_in_float",
    source=Source(DOC4, "ReLU is entrywise 1-Lipschitz … FloatBridge.lean proves the same fact for the rounded net (relu exact-in-float)"),
    statement=RELU_STATEMENT,
    scope="universally: every non-NaN binary32 z (floating-point theory, bitwuzla with z3 confirming: IEEE maximum and "
    "rounding); the theorem is that floating-point lemma",
    expect=Expect.HOLDS,
    lean="FloatBridge.relu_exact_in_float",
    theorem=fl.RELU_EXACT,
)
def relu_exact_in_float(ctx):
    """``relu_exact_in_float``: z3's ``QF_FP`` proves, for every non-NaN binary32 z, that
    ``fp.max(z, +0)`` is z when z > 0 and a zero otherwise, and that rounding it back to
    binary32 is the identity. The implementation numpy runs is cross-checked by
    ``lean_mlp.float.relu_exact_in_float_float32`` (sampled) and ``…_exhaustive`` (all 2³²)."""
    return fl.relu_exact()


def prove_mul(ctx: Any, fmt: b32.Format = b32.BINARY32) -> Verdict:

    proof = _budget_code_agrees(smt.prove(fl.MUL_CLOSE, ctx), fl.mul_dominance(fmt), "mul_err")
    return _falsify(proof, check_mul, ctx, fmt)


@obligation(
    id="lean_mlp.float.mul_close",
    source=Source(DOC4, "mlp_w1_grad_close: … the final input multiply (mul_close, with the exact a₀ operand, ea = 0)"),
    statement="The final multiply is within mulErr: |fl(a·c̃) − a·c| ≤ mulErr(u, |a|, |c|, 0, |c̃ − c|) = "
    "|a|·ec + u·|a|·(|c| + ec) + μ for an exact operand a and a float operand c̃ within ec of c.",
    scope="universally over every real a, c, c̃ and bounds A ≥ |a|, C ≥ |c| (z3 over ℝ, the product's rounding a "
    "hypothesis from the proved rounding model); the budget code binary32.mul_err is checked to dominate the theorem's "
    "bound" + PROOF_NOTE,
    expect=Expect.HOLDS,
    lean="FloatBridge.mul_close",
    uses=("lean_mlp.float.rounding_model",),
    theorem=fl.MUL_CLOSE,
)
def mul_close(ctx):
    """``mul_close``: with the rounding model (RN(a·c̃) within u·|a·c̃| or μ of a·c̃), z3 proves
    |RN(a·c̃) − a·c| ≤ A·ec + u·A·(C + ec) + μ for all reals under |a| ≤ A, |c| ≤ C, |c̃ − c| ≤ ec;
    sympy shows the stated ``mulErr(A, C, 0, ec)`` dominates that bound coefficientwise. If the
    proof fails (a budget made too small), float32 products are searched for a counterexample
    re-checked with exact binary32 rounding.

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_log_uniform`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_mul`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    """
    return prove_mul(ctx)


# =======================================================================================
# Every fan-in, by induction: the rounding errors as arrays of bounded reals
# =======================================================================================
#
# The rounding model (lean_mlp.float.rounding_model) says RN(p) = p(1 + δ) + η with |δ| ≤ u, |η| ≤ μ
# for a product and RN(a + b) = (a + b)(1 + δ) for a sum of two binary32. A summation tree over
# m leaves then yields Σᵢ q̂ᵢ·Πₖ(1 + δᵢₖ): each rounded leaf q̂ᵢ times the (1 + δ) of the additions
# on its path to the root, at most m − 1 of them (padded with δ = 0 to a common length K ≤ m − 1).
# That path form is how the claims below read "any order"; that every tree's result has it is the
# one structural fact not machine-checked (as before). The arrays of rounding errors are the
# claims' variables, so one claim quantifies over every order and every rounding at once.


def _u(o: Any) -> Any:
    return o.q(1, 2**24)


def _mu(o: Any) -> Any:
    return o.q(1, 2**150)


def _gamma(o: Any, k: Any) -> Any:
    """Higham's γ_k = k·u/(1 − k·u) (binary32, u = 2⁻²⁴)."""
    return k * _u(o) / (1 - k * _u(o))


def _defined(o: Any, k: Any) -> Any:
    """γ_k is defined (and positive): k·u < 1."""
    return o.lt(k * _u(o), 1)


ROUNDING_PRODUCT = sized_claim(
    "lean_mlp.float.rounding_product", "K:nat[0,]", "d[K]",
    lambda o, v: o.le(o.abs(o.prod(1 + v.d) - 1), _gamma(o, v.K)),
    {"|δ| ≤ u": lambda o, v: o.all(o.le(o.abs(v.d), _u(o))), "K·u < 1": lambda o, v: _defined(o, v.K)})
"""Higham's Lemma 3.1: K factors (1 + δ), |δ| ≤ u, multiply to within γ_K of 1, for every K."""

GAMMA_STEP = claim(
    "lean_mlp.float.gamma_step", "k:real[0,]",
    lambda o, v: o.and_(o.ge(_gamma(o, v.k), 0), o.le((1 + _u(o)) * _gamma(o, v.k) + _u(o), _gamma(o, v.k + 1))),
    {"(k + 1)·u < 1": lambda o, v: _defined(o, v.k + 1)})
"""γ_k ≥ 0 and (1 + u)·γ_k + u ≤ γ_(k+1): one more rounding costs one more u."""

GAMMA_MONOTONE = claim(
    "lean_mlp.float.gamma_monotone", "j:real[0,] k:real[0,]", lambda o, v: o.le(_gamma(o, v.j), _gamma(o, v.k)),
    {"j ≤ k": lambda o, v: o.le(v.j, v.k), "k·u < 1": lambda o, v: _defined(o, v.k)})

ROUNDED_LEAF = claim(
    "lean_mlp.float.rounded_leaf", "p d h P G0 G1",
    lambda o, v: o.le(o.abs((v.p * (1 + v.d) + v.h) * v.P - v.p), v.G1 * o.abs(v.p) + _mu(o) * (1 + v.G0)),
    {"|δ| ≤ u": lambda o, v: o.le(o.abs(v.d), _u(o)), "|η| ≤ μ": lambda o, v: o.le(o.abs(v.h), _mu(o)),
     "|P − 1| ≤ G0": lambda o, v: o.le(o.abs(v.P - 1), v.G0), "G0 ≥ 0": lambda o, v: o.ge(v.G0, 0),
     "(1 + u)·G0 + u ≤ G1": lambda o, v: o.le((1 + _u(o)) * v.G0 + _u(o), v.G1)})
"""One rounded product on its path: |RN(p)·P − p| ≤ G1·|p| + μ(1 + G0)."""

DOT_ASSEMBLY = claim(
    "lean_mlp.float.dot_assembly", "E A bb B G0 G1 Gm Gm1 N",
    lambda o, v: o.le(o.abs(v.E + v.bb * (v.B - 1)), v.Gm * (v.A + o.abs(v.bb)) + v.N * _mu(o) * (1 + v.Gm1)),
    {"products: |E| ≤ G1·A + N·μ(1 + G0)": lambda o, v: o.le(o.abs(v.E), v.G1 * v.A + v.N * _mu(o) * (1 + v.G0)),
     "A ≥ 0": lambda o, v: o.ge(v.A, 0), "N ≥ 0": lambda o, v: o.ge(v.N, 0),
     "bias path: |B − 1| ≤ G0": lambda o, v: o.le(o.abs(v.B - 1), v.G0),
     "0 ≤ G0 ≤ G1": lambda o, v: o.and_(o.ge(v.G0, 0), o.le(v.G0, v.G1)),
     "G1 ≤ Gm": lambda o, v: o.le(v.G1, v.Gm), "G0 ≤ Gm1": lambda o, v: o.le(v.G0, v.Gm1)})
"""The products' error and the bias's path add up within the stated budget."""


def _float_dot(o: Any, v: Any) -> Any:
    """The float dot product in path form: Σ RN(xᵢyᵢ)·Πₖ(1 + Dᵢₖ) + b·Πₖ(1 + eₖ)."""
    return o.dot(v.x * v.y * (1 + v.d) + v.h, o.rowprod(1 + v.D)) + v.b * o.prod(1 + v.e)


DOT_CLOSE = sized_claim(
    "lean_mlp.float.dot_close", "n:nat[1,] K:nat[0,]", "x[n] y[n] d[n] h[n] D[n,K] e[K]",
    lambda o, v: o.le(o.abs(_float_dot(o, v) - (o.dot(v.x, v.y) + v.b)),
                      _gamma(o, v.n + v.beta) * (o.norm1(v.x * v.y) + o.abs(v.b))
                      + v.n * _mu(o) * (1 + _gamma(o, v.n + v.beta - 1))),
    {"products rounded: RN(xᵢyᵢ) = xᵢyᵢ(1 + dᵢ) + hᵢ, |dᵢ| ≤ u": lambda o, v: o.all(o.le(o.abs(v.d), _u(o))),
     "products' underflow: |hᵢ| ≤ μ": lambda o, v: o.all(o.le(o.abs(v.h), _mu(o))),
     "additions on leaf i's path rounded: |Dᵢₖ| ≤ u": lambda o, v: o.all(o.le(o.abs(v.D), _u(o))),
     "additions on the bias's path rounded: |eₖ| ≤ u": lambda o, v: o.all(o.le(o.abs(v.e), _u(o))),
     "no bias (β = 0) means b = 0": lambda o, v: o.implies(o.eq(v.beta, 0), o.eq(v.b, 0)),
     "a path has at most m − 1 additions, m = n + β leaves": lambda o, v: o.le(v.K + 1, v.n + v.beta),
     "γ_m defined: m·u < 1": lambda o, v: _defined(o, v.n + v.beta)},
    scalars="b beta:int[0,1]")
"""``dot_close`` for every fan-in n: n rounded products and the bias b (β = 1; β = 0 without one),
summed in any order (path form, K ≤ m − 1 additions above each leaf), within
γ_m·(∑|xᵢyᵢ| + |b|) + n·μ·(1 + γ_(m−1)), m = n + β."""


def _dot_leaf_error(o: Any, v: Any) -> Any:
    return o.dot(v.x * v.y * (1 + v.d) + v.h, o.rowprod(1 + v.D)) - o.dot(v.x, v.y)


def _dot_invariant(o: Any, v: Any) -> Any:
    """After n products: Σ|xy| ≥ 0 and, with γ_(K+1) defined, their paths' error is within
    γ_(K+1)·Σ|xy| + n·μ(1 + γ_K)."""
    return o.and_(o.ge(o.norm1(v.x * v.y), 0), o.implies(
        _defined(o, v.K + 1),
        o.le(o.abs(_dot_leaf_error(o, v)), _gamma(o, v.K + 1) * o.norm1(v.x * v.y) + v.n * _mu(o) * (1 + _gamma(o, v.K)))))


def _proved(verdicts: dict[str, Verdict]) -> str | None:
    bad = [f"{name}: {v.status.value}" + (f" ({v.certificate.reason})" if v.certificate.reason else
                                          f" at {', '.join(f'{k} = {x}' for k, x in (v.certificate.witness or {}).items())}")
           for name, v in verdicts.items() if v.status.value != "proved"]
    return "; ".join(bad) or None


def _cross_check(proof: Verdict, at_one: Any, ctx: Any) -> Verdict:
    """The theorem at its least size unrolled and settled by z3 directly (not part of the proof: a
    check of the induction's reading of the same claim; larger sizes are past z3's nonlinear reach)."""
    from obligations.grading import cross_checked

    if proof.status.value != "proved":
        return proof
    return cross_checked(proof, {f"z3 at {at_one.name}": smt.prove(at_one, ctx)})


def rounding_product(ctx: Any) -> Verdict:
    return induction.prove(ROUNDING_PRODUCT, "K", ctx, invariant=lambda o, v: o.implies(
        _defined(o, v.K), ROUNDING_PRODUCT.conclusion(o, v)))


def prove_dot_every_n(ctx: Any) -> Verdict:
    """DOT_CLOSE by induction on the number of products n (K, the bias and its path fixed): the
    new product's path adds ≤ γ_(K+1)|xy| + μ(1 + γ_K) (rounded_leaf, with Lemma 3.1 on its path);
    the close adds the bias's path (Lemma 3.1 on e) and γ_(K+1) ≤ γ_m, γ_K ≤ γ_(m−1) (K + 1 ≤ m)."""
    lemmas = {"rounding_product": rounding_product(ctx), "gamma_step": smt.prove(GAMMA_STEP, ctx),
              "gamma_monotone": smt.prove(GAMMA_MONOTONE, ctx), "rounded_leaf": smt.prove(ROUNDED_LEAF, ctx),
              "dot_assembly": smt.prove(DOT_ASSEMBLY, ctx)}
    failed = _proved(lemmas)
    if failed:
        return unknown("induction on the fan-in n", "a lemma is not proved: " + failed)
    prod = lemmas["rounding_product"]
    proof = induction.prove(DOT_CLOSE, "n", ctx, invariant=_dot_invariant, uses=[
        Use(ROUNDING_PRODUCT, prod, {"d": lambda s: s.new("D")}),
        Use(ROUNDING_PRODUCT, prod, {"d": lambda s: s.e}),
        Use(GAMMA_STEP, lemmas["gamma_step"], {"k": lambda s: s.size("K")}),
        Use(ROUNDED_LEAF, lemmas["rounded_leaf"], {
            "p": lambda s: s.new("x") * s.new("y"), "d": lambda s: s.new("d"), "h": lambda s: s.new("h"),
            "P": lambda s: s.o.prod(1 + s.new("D")),
            "G0": lambda s: _gamma(s.o, s.size("K")), "G1": lambda s: _gamma(s.o, s.size("K") + 1)}),
        Use(GAMMA_MONOTONE, lemmas["gamma_monotone"], {"j": lambda s: s.size("K") + 1, "k": lambda s: s.size("n") + s.beta}),
        Use(GAMMA_MONOTONE, lemmas["gamma_monotone"], {"j": lambda s: s.size("K"), "k": lambda s: s.size("n") + s.beta - 1}),
        Use(DOT_ASSEMBLY, lemmas["dot_assembly"], {
            "E": lambda s: _dot_leaf_error(s.o, s), "A": lambda s: s.o.norm1(s.x * s.y), "bb": lambda s: s.b,
            "B": lambda s: s.o.prod(1 + s.e), "G0": lambda s: _gamma(s.o, s.size("K")),
            "G1": lambda s: _gamma(s.o, s.size("K") + 1), "Gm": lambda s: _gamma(s.o, s.size("n") + s.beta),
            "Gm1": lambda s: _gamma(s.o, s.size("n") + s.beta - 1), "N": lambda s: s.size("n")}),
    ])
    return _cross_check(proof, DOT_CLOSE.at(n=1, K=0), ctx)


def _budget_code_agrees(proof: Verdict, check: tuple[bool, Any], what: str) -> Verdict:
    """The theorem is proved as stated; the budget *code* (binary32.py, which the float32 checks
    and the grad-closes evaluate) must compute that very bound, else the result is not claimed
    (and the caller searches float32 for a counterexample to the code's budget)."""
    ok, step = check
    if proof.status.value != "proved" or ok:
        return proof
    return unknown(proof.certificate.method, f"the theorem is proved but {what} in binary32.py does not match it: "
                   f"{step.answer}", *proof.certificate.steps, step)


def prove_dot(ctx: Any, fmt: b32.Format = b32.BINARY32) -> Verdict:

    proof = _budget_code_agrees(prove_dot_every_n(ctx), fl.dot_dominance(fmt, fl.FANINS), "dot_err")
    return _falsify(proof, check_dot, ctx, fmt)


@obligation(
    id="lean_mlp.float.dot_close",
    source=Source(DOC4, "mlp_w1_grad_close / cot_step_close: the masked W₂ᵀ contraction (layerBudget)"),
    statement="A binary32 dot product with bias, summed in any order, is within γ_{n+1}·(∑|xⱼyⱼ| + |b|) + n·μ·(1 + γₙ) "
    "of the exact value (γ_n without a bias), γₙ = n·u/(1 − n·u), u = 2⁻²⁴, μ = 2⁻¹⁵⁰.",
    scope="every fan-in n (with n·u < 1) and every summation order, with or without a bias, by induction over the "
    "products (z3 base, step and close; Lemma 3.1 (1 ± u)^K within γ_K proved by induction over K): the rounding model's "
    "errors are arrays of bounded reals, an order is read in path form (each rounded leaf times the (1 + δ) of the "
    "≤ m − 1 additions above it; that every parenthesisation has this form is the one structural step not "
    "machine-checked), no FMA; the budget code binary32.dot_err is checked to compute the theorem's bound at "
    "n = 1…64, 128, …, 1024" + PROOF_NOTE,
    expect=Expect.HOLDS,
    lean="FloatBridge.dot_close",
    uses=("lean_mlp.float.rounding_model",),
    theorem=DOT_CLOSE,
    claims=(DOT_CLOSE.at(n=2, K=1),),
)
def dot_close(ctx):
    """The γₙ lemma (Higham Thm 3.1/Lemma 3.3), proved order-independently. A summation tree's
    node adds two subtrees (k₁ + k₂ = k leaves) and rounds once (η = 0): z3 proves the node keeps
    |ŝ − s| ≤ γ_{k−1}·∑|leaves| from the subtrees' γ_{kᵢ−1} bounds, given γ monotone and
    u + (1+u)γ_{k−2} ≤ γ_{k−1} (checked exactly for every k ≤ 1025); structural induction covers
    every order. The rounded products (leaf lemma) and the combination give
    γ_m·S + n·μ·(1 + γ_{m−1}); the stated ``dot_err`` is shown to dominate it at every fan-in
    (its coefficients in S, exactly). A failed proof is searched for a float32 counterexample
    re-checked exactly (the mutation tests).

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_limited`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_log_uniform`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_dot_instances`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_dot_exact_recheck`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_pairwise_exact`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_dot`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    Survives mutation: DOT_LENGTHS = (: the fan-ins the fallback search samples; the proof covers its own fan-ins
    """
    return prove_dot(ctx)


TERMWISE = claim(
    "lean_mlp.float.termwise", "W c ct w C ec",
    lambda o, v: o.and_(o.le(o.abs(v.W * v.ct), v.w * (v.C + v.ec)), o.le(o.abs(v.W * v.ct - v.W * v.c), v.w * v.ec)),
    {"|W| ≤ w": lambda o, v: o.le(o.abs(v.W), v.w), "|c| ≤ C": lambda o, v: o.le(o.abs(v.c), v.C),
     "|c̃ − c| ≤ ec": lambda o, v: o.le(o.abs(v.ct - v.c), v.ec)})
"""One term of the contraction: |W·c̃| ≤ w(C + ec) and |W·c̃ − W·c| ≤ w·ec."""

COT_ASSEMBLY = claim(
    "lean_mlp.float.cot_assembly", "F V X A G0 G1 Gm Gm1 N w C ec z zt E",
    lambda o, v: o.le(o.abs(o.ite(o.gt(v.zt, 0), v.F, 0) - o.ite(o.gt(v.z, 0), v.X, 0)),
                      v.N * v.w * v.ec + v.Gm * (v.N * v.w * (v.C + v.ec)) + v.N * _mu(o) * (1 + v.Gm1)),
    {"rounding: |F − V| ≤ G1·A + N·μ(1 + G0)": lambda o, v: o.le(o.abs(v.F - v.V), v.G1 * v.A + v.N * _mu(o) * (1 + v.G0)),
     "0 ≤ A ≤ N·w(C + ec)": lambda o, v: o.and_(o.ge(v.A, 0), o.le(v.A, v.N * v.w * (v.C + v.ec))),
     "input error: |V − X| ≤ N·w·ec": lambda o, v: o.le(o.abs(v.V - v.X), v.N * v.w * v.ec),
     "0 ≤ G0, 0 ≤ G1 ≤ Gm, G0 ≤ Gm1": lambda o, v: o.and_(o.ge(v.G0, 0), o.ge(v.G1, 0), o.le(v.G1, v.Gm), o.le(v.G0, v.Gm1)),
     "N ≥ 0": lambda o, v: o.ge(v.N, 0),
     "margin: |z̃ − z| ≤ E < |z|": lambda o, v: o.and_(o.le(o.abs(v.zt - v.z), v.E), o.lt(v.E, o.abs(v.z)))})
"""The margin keeps the masks equal; the rounding and the input error add up to layerBudget."""


def _contraction(o: Any, v: Any) -> Any:
    """fl(Σⱼ Wⱼ·c̃ⱼ) in path form (m rounded products, no bias)."""
    return o.dot(v.W * v.ct * (1 + v.d) + v.h, o.rowprod(1 + v.D))


def _layer_budget_no_bias(o: Any, v: Any) -> Any:
    """layerBudget(u, m, w, C, 0, ec) = m·w·ec + γ_m·m·w·(C + ec) + m·μ·(1 + γ_(m−1))."""
    return v.m * v.w * v.ec + _gamma(o, v.m) * (v.m * v.w * (v.C + v.ec)) + v.m * _mu(o) * (1 + _gamma(o, v.m - 1))


COT_STEP_CLOSE = sized_claim(
    "lean_mlp.float.cot_step_close", "m:nat[1,] K:nat[0,]", "W[m] c[m] ct[m] d[m] h[m] D[m,K]",
    lambda o, v: o.le(o.abs(o.ite(o.gt(v.zt, 0), _contraction(o, v), 0) - o.ite(o.gt(v.z, 0), o.dot(v.W, v.c), 0)),
                      _layer_budget_no_bias(o, v)),
    {"|W| ≤ w": lambda o, v: o.all(o.le(o.abs(v.W), v.w)),
     "|c| ≤ C": lambda o, v: o.all(o.le(o.abs(v.c), v.C)),
     "|c̃ − c| ≤ ec": lambda o, v: o.all(o.le(o.abs(v.ct - v.c), v.ec)),
     "margin: |z̃ − z| ≤ E < |z|": lambda o, v: o.and_(o.le(o.abs(v.zt - v.z), v.E), o.lt(v.E, o.abs(v.z))),
     "products rounded: RN(Wⱼc̃ⱼ) = Wⱼc̃ⱼ(1 + dⱼ) + hⱼ, |dⱼ| ≤ u": lambda o, v: o.all(o.le(o.abs(v.d), _u(o))),
     "products' underflow: |hⱼ| ≤ μ": lambda o, v: o.all(o.le(o.abs(v.h), _mu(o))),
     "additions on term j's path rounded: |Dⱼₖ| ≤ u": lambda o, v: o.all(o.le(o.abs(v.D), _u(o))),
     "a path has at most m − 1 additions": lambda o, v: o.le(v.K + 1, v.m),
     "γ_m defined: m·u < 1": lambda o, v: _defined(o, v.m)},
    scalars="z zt E w C ec")
"""``cot_step_close`` for every contraction length m: one entry l of mask(z̃, fl(Wᵀc̃)) (W the
column W_·l, z = z_l) against mask(z, Wᵀc), any summation order (path form), within
layerBudget(u, m, w, C, 0, ec)."""


def _cot_invariant(o: Any, v: Any) -> Any:
    """After m terms: Σ|W c̃| within m·w(C + ec), the input error within m·w·ec, and (γ_(K+1)
    defined) the rounding error within γ_(K+1)·Σ|W c̃| + m·μ(1 + γ_K)."""
    a = o.norm1(v.W * v.ct)
    return o.and_(o.ge(a, 0), o.le(a, v.m * v.w * (v.C + v.ec)),
                  o.le(o.abs(o.dot(v.W, v.ct) - o.dot(v.W, v.c)), v.m * v.w * v.ec),
                  o.implies(_defined(o, v.K + 1), o.le(o.abs(_contraction(o, v) - o.dot(v.W, v.ct)),
                                                       _gamma(o, v.K + 1) * a + v.m * _mu(o) * (1 + _gamma(o, v.K)))))


def prove_cot_step_every_m(ctx: Any) -> Verdict:
    """COT_STEP_CLOSE by induction on m (K fixed): the new term's bounds (termwise) and its
    rounded path (rounded_leaf with Lemma 3.1); the close: K + 1 ≤ m (γ monotone), the margin's
    equal masks and the sum of the errors (cot_assembly)."""
    lemmas = {"rounding_product": rounding_product(ctx), "gamma_step": smt.prove(GAMMA_STEP, ctx),
              "gamma_monotone": smt.prove(GAMMA_MONOTONE, ctx), "rounded_leaf": smt.prove(ROUNDED_LEAF, ctx),
              "termwise": smt.prove(TERMWISE, ctx), "cot_assembly": smt.prove(COT_ASSEMBLY, ctx)}
    failed = _proved(lemmas)
    if failed:
        return unknown("induction on the contraction length m", "a lemma is not proved: " + failed)
    proof = induction.prove(COT_STEP_CLOSE, "m", ctx, invariant=_cot_invariant, uses=[
        Use(ROUNDING_PRODUCT, lemmas["rounding_product"], {"d": lambda s: s.new("D")}),
        Use(GAMMA_STEP, lemmas["gamma_step"], {"k": lambda s: s.size("K")}),
        Use(TERMWISE, lemmas["termwise"], {"W": lambda s: s.new("W"), "c": lambda s: s.new("c"), "ct": lambda s: s.new("ct"),
                                           "w": lambda s: s.w, "C": lambda s: s.C, "ec": lambda s: s.ec}),
        Use(ROUNDED_LEAF, lemmas["rounded_leaf"], {
            "p": lambda s: s.new("W") * s.new("ct"), "d": lambda s: s.new("d"), "h": lambda s: s.new("h"),
            "P": lambda s: s.o.prod(1 + s.new("D")),
            "G0": lambda s: _gamma(s.o, s.size("K")), "G1": lambda s: _gamma(s.o, s.size("K") + 1)}),
        Use(GAMMA_MONOTONE, lemmas["gamma_monotone"], {"j": lambda s: s.size("K") + 1, "k": lambda s: s.size("m")}),
        Use(GAMMA_MONOTONE, lemmas["gamma_monotone"], {"j": lambda s: s.size("K"), "k": lambda s: s.size("m") - 1}),
        Use(COT_ASSEMBLY, lemmas["cot_assembly"], {
            "F": lambda s: _contraction(s.o, s), "V": lambda s: s.o.dot(s.W, s.ct), "X": lambda s: s.o.dot(s.W, s.c),
            "A": lambda s: s.o.norm1(s.W * s.ct), "G0": lambda s: _gamma(s.o, s.size("K")),
            "G1": lambda s: _gamma(s.o, s.size("K") + 1), "Gm": lambda s: _gamma(s.o, s.size("m")),
            "Gm1": lambda s: _gamma(s.o, s.size("m") - 1), "N": lambda s: s.size("m"), "w": lambda s: s.w,
            "C": lambda s: s.C, "ec": lambda s: s.ec, "z": lambda s: s.z, "zt": lambda s: s.zt, "E": lambda s: s.E}),
    ])
    return _cross_check(proof, COT_STEP_CLOSE.at(m=1, K=0), ctx)


def prove_cot_step(ctx: Any, fmt: b32.Format = b32.BINARY32) -> Verdict:

    proof = _budget_code_agrees(prove_cot_step_every_m(ctx), fl.layer_dominance(fmt, fl.FANINS, bias=False),
                                "layer_budget")
    return _falsify(proof, check_cot_step, ctx, fmt)


@obligation(
    id="lean_mlp.float.cot_step_close",
    source=Source(DOC4, "mlp_w1_grad_close: … the masked W₂ᵀ contraction (cot_step_close, under the quantitative margin E₁ < |z₁ⱼ|)"),
    statement="Under the margin |z̃ − z| ≤ E < min|z|, the float masked contraction mask(z̃, fl(Wᵀc̃)) is within "
    "layerBudget(u, m, w, C, 0, ec) of mask(z, Wᵀc), per entry (|W| ≤ w, |c| ≤ C, |c̃ − c| ≤ ec, m terms).",
    scope="every contraction length m (with m·u < 1), all real W, c, c̃, z, z̃, every entry and every summation order, by "
    "induction over the m terms (z3 base, step and close; Lemma 3.1 by induction over the path length): rounding errors "
    "as arrays of bounded reals, an order in path form as in lean_mlp.float.dot_close (that every parenthesisation has "
    "it is not machine-checked); the budget code binary32.layer_budget is checked to compute the theorem's bound at "
    "m = 1…64, 128, …, 1024" + PROOF_NOTE,
    expect=Expect.HOLDS,
    lean="FloatBridge.cot_step_close",
    uses=("lean_mlp.float.dot_close", "lean_mlp.float.relu_exact_in_float"),
    theorem=COT_STEP_CLOSE,
    claims=(COT_STEP_CLOSE.at(m=2, K=1),),
)
def cot_step_close(ctx):
    """``cot_step_close``: z3 proves the margin keeps the masks equal (|z̃ − z| ≤ E < |z| ⇒ same
    sign), the termwise bounds |Wc̃| ≤ w(C + ec), |W(c̃ − c)| ≤ w·ec (summed over the m terms),
    and that the dot lemma at c̃ plus the input error give m·w·ec + γ_m·m·w·(C + ec) + m·μ(1 + γ_{m−1})
    for the masked entries; sympy shows the stated ``layer_budget`` dominates it at every m.

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_limited`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_log_uniform`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_cot_step`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    """
    return prove_cot_step(ctx)


EXP_FACTS = tuple(c for c in ALGEBRA if c.name.endswith(("exp_derivative", "exp_at_zero")))
"""eˣ ≤ 1/(1 − x) on [0, 1): (1 − x)eˣ has derivative −x·eˣ and value 1 at 0 (sympy identities)."""
HEAD_CLOSE = (*fl.HEAD_PARTS, fl.cot_err_claim(), *EXP_FACTS)
"""The declared theorem of softmax_ce_cot_close: the head's lemmas over ℝ (ratio sandwich, factors against
H, rounded entry, the label's −1, the exponent's range; γ_(m−1) ≤ 1/16 whenever 17(m − 1)u ≤ 1), the budget
code cot_err equal to the proved formula for every number of classes m, and the exp facts."""


def _lemma_parts(claims: Any, ctx: Any, fmt: b32.Format = b32.BINARY32) -> dict[str, Verdict]:
    """Each claim by its backend rule: z3 over ℝ for a claim, sympy for an identity."""
    from checker.backends import symbolic

    out = {}
    for c in claims:
        if hasattr(c, "formula"):
            out[c.name] = smt.prove(c, ctx, tactic=fl.HEAD_TACTICS.get(c.name))
        else:
            out[c.name] = symbolic.decide(c, "sympy: the identity reduces to 0")
    return out


def prove_head(ctx: Any, fmt: b32.Format = b32.BINARY32) -> Verdict:
    """The head's lemmas for every number of classes (the budget code's identity checked in ``fmt``)."""
    claims = (*fl.HEAD_PARTS, fl.cot_err_claim(fmt), *EXP_FACTS)
    proof = all_of("z3 over ℝ (ratio sandwich, factors, entry, label, exponent, γ_(m−1) ≤ 1/16) + sympy (eˣ ≤ 1/(1−x), "
                   "cot_err = the proved formula for every m)", _lemma_parts(claims, ctx), lemmas=True)
    return _falsify(proof, check_head, ctx, fmt)


@obligation(
    id="lean_mlp.float.softmax_ce_cot_close",
    source=Source(DOC4, "mlp_w1_grad_close: … the head (softmax_ce_cot_close, accuracy cotErr)"),
    statement="If the library exp is within a relative ε of eˢ on [−81, 0] (hypothesis; ε = 2⁻²¹ for numpy's "
    "float32 exp, see lean_mlp.float.exp_accuracy), the float "
    "softmax−onehot head at float logits t̃ with |t̃ − t|∞ ≤ δ is within cotErr(u, m, δ, spread(t) + 2δ) "
    "of softmax(t) − onehot, per entry, for 2δ < 1, logit spread + 2δ < 80 and m classes with 17(m − 1)·u ≤ 1.",
    scope="every m with 17(m − 1)u ≤ 1 (m ≤ 986 895), all real logits, any summation order. Theorem: the lemmas the "
    "bound is built from — ratio sandwich, factors against H, rounded entry, the label's −1, the exponent's range (z3), "
    "γ_(m−1) ≤ 1/16, cot_err equal to the proved formula for every m, eˣ ≤ 1/(1 − x) (sympy); chaining them into the "
    "bound (exp's algebra, the sum's error from dot_close) is by hand, not machine-checked (z3 has no exp); exp's "
    "accuracy a hypothesis" + PROOF_NOTE,
    expect=Expect.HOLDS,
    lean="FloatBridge.softmax_ce_cot_close",
    uses=("lean_mlp.float.rounding_model", "lean_mlp.float.dot_close"),
    theorem=HEAD_CLOSE,
)
def softmax_ce_cot_close(ctx):
    """``softmax_ce_cot_close``, with exp's accuracy as the hypothesis the Lean ``FloatModel``
    carries (``expErr``). The float head's steps are each one rounding (the model) except exp:
    z3 proves fl(t̃ₖ − M) ∈ [−81, 0] within u·G of t̃ₖ − M; writing eₖ = e^{tₖ−M}·ρₖ with
    ρₖ ∈ [(1−ε)/(yz), yz(1+ε)], y = e^δ, z = e^{uG} (exp increasing, e^{a+b} = e^a e^b), the sum of
    the positive eₖ within γ_{m−1} (dot lemma), z3 proves the ratio sandwich, the factor bounds
    against H (y² ≤ 1/(1−2δ), z ≤ 1/(1−uG): eˣ ≤ 1/(1−x), sympy), the entry bound (H−1)·P + μ and
    the label's rounded −1; sympy shows the stated ``cot_err`` is that formula at every m.
    numpy's exp is not an IEEE operation: its accuracy is a hypothesis here, evidence for it is
    ``lean_mlp.float.exp_accuracy``, and ``obligations discharge`` checks it at the network.

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_limited`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_log_uniform`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_err_interval`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_head`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    """
    return prove_head(ctx)


GRAD_CLOSE = (*fl.GRAD_PARTS, fl.layer_code_claim(bias=True), fl.layer_code_claim(bias=False), *COMPOSITION)
"""The declared theorem of the three grad-closes: the glue and layer lemmas over ℝ (ReLU 1-Lipschitz,
the float logits' spread, |softmax − onehot| ≤ 1, termwise bounds, equal masks under the margin, a
layer's error), the budget code layer_budget equal to the proved bound for every fan-in, and compose()
equal to the Lean nesting with the forward budgets as margins at symbolic dims (every shape)."""


def prove_grad(ctx: Any, layer: str, fmt: b32.Format = b32.BINARY32) -> Verdict:
    from obligations.lean_mlp.float_composition import margins_named

    claims = (*fl.GRAD_PARTS, fl.layer_code_claim(fmt, bias=True), fl.layer_code_claim(fmt, bias=False), *COMPOSITION)
    ok, step = margins_named()
    if not ok:
        proof = unknown("the part lemmas composed", "compose()'s margins are not the Lean nesting's", step)
    else:
        proof = all_of("the part lemmas composed: glue and layer lemmas (z3 over ℝ), layer_budget = the proved bound "
                       "for every fan-in and compose() = the Lean nesting at symbolic dims (sympy)",
                       _lemma_parts(claims, ctx), lemmas=True)
    return _falsify(proof, check_grad, ctx, layer, fmt)


_GRAD_PROOF_SCOPE = ("every shape d = (d₀, d₁, d₂, d₃), all real inputs meeting the stated bounds and margins, any "
                     "summation order. Theorem: the parts this close is built from — glue and layer lemmas (z3), "
                     "layer_budget equal to the proved bound for every fan-in, compose() equal to the Lean nesting at "
                     "symbolic dims (sympy); head, contraction and multiply closes are used obligations; chaining them "
                     "into η is by hand, not machine-checked; exp's accuracy a hypothesis" + PROOF_NOTE)


@obligation(
    id="lean_mlp.float.linear_grad_close",
    source=Source(DOC4, "mlp_output_float_sgd_descends: … its accuracy η = mulErr u a 1 0 (cotErr …) is proven (by linear_grad_close)"),
    statement="The binary32 output-layer gradient fl(a₁ᵢ·c̃₂ⱼ) of the linear net at the exact activation a₁ is within "
    "η = mulErr(u, A₁, 1, 0, cotErr(u, d₃, δ, spread + 2δ)), δ = layerBudget(u, d₂, w₂, A₁, β₂, 0), "
    "of a₁ᵢ·(softmax − onehot)ⱼ.",
    scope=_GRAD_PROOF_SCOPE,
    theorem=GRAD_CLOSE,
    expect=Expect.HOLDS,
    lean="FloatBridge.linear_grad_close",
    uses=("lean_mlp.float.softmax_ce_cot_close", "lean_mlp.float.mul_close", "lean_mlp.float.dot_close"),
)
def linear_grad_close(ctx):
    """``linear_grad_close``: the forward dense layer (dot lemma with bias: layerBudget, sympy
    dominance), the head (softmax_ce_cot_close, with the float logits' spread ≤ spread + 2δ,
    z3), the final multiply (mul_close, |softmax − onehot| ≤ 1), composed exactly as
    :func:`binary32.compose` does (sympy: the nested Lean expression) at every shape.

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_limited`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_err_interval`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_grad_batch`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_bounds`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_exact_instance`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_grad`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    """
    return prove_grad(ctx, "W2")


@obligation(
    id="lean_mlp.float.mlp_w1_grad_close",
    source=Source(DOC4, "mlp_w1_grad_close"),
    statement="Under the layer-1 rounding margin E₁ < min|z₁|, the binary32 W₁ gradient fl(a₀ᵢ·c̃₁ⱼ), "
    "c̃₁ = mask(z̃₁, W₂ᵀ·c̃₂) at the float pre-activation and the float head, is within "
    "η = mulErr(u, A₀, layerAct(d₃, w₂, 1), 0, layerBudget(u, d₃, w₂, 1, 0, cotErr(…))) of the certified gradient.",
    scope=_GRAD_PROOF_SCOPE,
    theorem=GRAD_CLOSE,
    expect=Expect.HOLDS,
    lean="FloatBridge.mlp_w1_grad_close",
    uses=("lean_mlp.float.softmax_ce_cot_close", "lean_mlp.float.cot_step_close", "lean_mlp.float.mul_close"),
)
def mlp_w1_grad_close(ctx):
    """``mlp_w1_grad_close``: forward z̃₁ within E₁ (layerBudget), ReLU exact and 1-Lipschitz
    (ã₁ within E₁), logits within δ, the head (cotErr), the masked W₂ᵀ step (cot_step_close under
    E₁ < |z₁|; |W₂ᵀc| ≤ layerAct), the final multiply (mul_close, ea = 0); the composition is
    compose()'s, shown equal to the Lean nesting at every shape (sympy).

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_limited`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_err_interval`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_grad_batch`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_bounds`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_exact_instance`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_grad`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    """
    return prove_grad(ctx, "W1")


@obligation(
    id="lean_mlp.float.mlp_w0_grad_close",
    source=Source(DOC4, "mlp_w0_grad_close"),
    statement="Under both rounding margins E₀ < min|z₀| and E₁ < min|z₁|, the binary32 W₀ gradient fl(xᵢ·c̃₀ⱼ), "
    "c̃₀ = mask(z̃₀, W₁ᵀ·mask(z̃₁, W₂ᵀ·c̃₂)), is within η = mulErr(u, X, C₀, 0, layerBudget(u, d₂, w₁, C₁, 0, "
    "layerBudget(u, d₃, w₂, 1, 0, cotErr(…)))) of the certified gradient.",
    scope=_GRAD_PROOF_SCOPE,
    theorem=GRAD_CLOSE,
    expect=Expect.HOLDS,
    lean="FloatBridge.mlp_w0_grad_close",
    uses=("lean_mlp.float.softmax_ce_cot_close", "lean_mlp.float.cot_step_close", "lean_mlp.float.mul_close"),
)
def mlp_w0_grad_close(ctx):
    """``mlp_w0_grad_close``: as the W₁ case with one more forward layer (E₀ into E₁) and one
    more masked contraction (W₁ᵀ under E₀ < |z₀|), composed at every shape.

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_limited`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_err_interval`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_grad_batch`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_bounds`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_exact_instance`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_grad`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    """
    return prove_grad(ctx, "W0")
