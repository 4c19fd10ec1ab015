"""FloatBridge's binary32 budgets, proved: the rounding model, ``relu_exact_in_float``,
``mul_close``, ``dot_close``, ``cot_step_close``, ``softmax_ce_cot_close`` and the three
grad-closes (``linear_grad_close``, ``mlp_w1_grad_close``, ``mlp_w0_grad_close``).

Each obligation assembles lemmas of :mod:`.float_lemmas` (z3's floating-point theory for the
rounding model; z3 over ℝ and sympy for the budget lemmas, bounded at the fan-ins and shapes
stated) and, for the grad-closes, the symbolic composition of :mod:`.float_composition`. A proof
that does not go through (e.g. a budget made too small) is searched for a counterexample with
the float32 checks of :mod:`.float32_stages` and :mod:`.float32_gradients`, re-checked in exact
binary32 arithmetic (:func:`_falsify`); without one the result stays ``unknown``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

from checker import Expect, Source, obligation
from checker.kernel.model import Verdict
from checker.kernel.verdicts import timed
from obligations.lean_mlp import binary32 as b32
from obligations.lean_mlp.float32_gradients import check_grad
from obligations.lean_mlp.float32_stages import RELU_STATEMENT, check_cot_step, check_dot, check_head, check_mul
from obligations.lean_mlp.float_composition import _composition_steps
from obligations.lean_mlp.float_screen import _run

DOC4 = "004_8327de8ce09705d9.txt"


# =======================================================================================
# The proofs (float_lemmas): the rounding model in z3's floating-point theory, every budget
# lemma over ℝ for all inputs, at every fan-in / shape of the stated family
# =======================================================================================

PROOF_NOTE = ("; IEEE round-to-nearest-even with subnormals, no overflow (every exact intermediate at most "
              "the largest binary32)")


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


def _lemma_proof(build: Callable[[Any], None], method: str, grade: str, over: str) -> Verdict:
    from obligations.lean_mlp import float_lemmas as fl

    acc = fl.new()
    build(acc)
    return acc.verdict(method, grade, over)


@obligation(
    id="lean_mlp.float.rounding_model",
    source=Source(DOC4, "FloatBridge: the binary32 FloatModel (relErr: |round x − x| ≤ u·|x| + μ)"),
    statement="Binary32 round-to-nearest-even: for every real x with |x| at most the largest binary32, "
    "RN(x) = x(1 + δ) + η with |δ| ≤ u = 2⁻²⁴, |η| ≤ μ = 2⁻¹⁵⁰ and δη = 0; for x = a ± b of two binary32 "
    "numbers η = 0. Hence for ∘ ∈ {+, −, ×, ÷} (IEEE: fl(a ∘ b) = RN(a ∘ b)) and for a product with an exact "
    "real operand.",
    scope="universally: every real x in range, every pair of finite binary32 (z3 floating-point theory "
    "FPSort(8, 24) for the spacing of binary32 and exact subnormal sums; z3 over ℝ for the rest)",
    expect=Expect.HOLDS,
    lean="FloatBridge.rounding_model",
)
def rounding_model(ctx):
    """The standard model of one rounding, proved bit-exactly. z3's ``QF_FP``: the *gap lemma*
    (next binary32 above f₁ ≥ 0 is within 2⁻²³·f₁ when f₁ is normal, 2⁻¹⁴⁹ and at most 2⁻¹²⁶ when
    subnormal; the binary64 subtraction is checked exact) and *exact subnormal sums* (a binary32
    sum whose rounding is ≤ 2⁻¹²⁶ in magnitude rounds down and up to the same value). z3 over ℝ:
    the nearer neighbour then errs by ≤ u·|x| or ≤ μ, and by ≤ u·|x| for a sum. IEEE 754's
    correct rounding (fl(a ∘ b) = RN(a ∘ b)) and the symmetry of RN are the semantics used."""
    from obligations.lean_mlp import float_lemmas as fl

    return fl.rounding_model()


@obligation(
    id="lean_mlp.float.relu_exact_in_float",
    source=Source(DOC4, "ReLU is entrywise 1-Lipschitz … FloatBridge.lean proves the same fact for the rounded net (relu exact-in-float)"),
    statement=RELU_STATEMENT,
    scope="universally: every non-NaN binary32 z (z3 floating-point theory, IEEE maximum and rounding)",
    expect=Expect.HOLDS,
    lean="FloatBridge.relu_exact_in_float",
)
def relu_exact_in_float(ctx):
    """``relu_exact_in_float``: z3's ``QF_FP`` proves, for every non-NaN binary32 z, that
    ``fp.max(z, +0)`` is z when z > 0 and a zero otherwise, and that rounding it back to
    binary32 is the identity. The implementation numpy runs is cross-checked by
    ``lean_mlp.float.relu_exact_in_float_float32`` (sampled) and ``…_exhaustive`` (all 2³²)."""
    from obligations.lean_mlp import float_lemmas as fl

    return fl.relu_exact()


def prove_mul(ctx: Any, fmt: b32.Format = b32.BINARY32) -> Verdict:
    from obligations.lean_mlp import float_lemmas as fl

    proof = _lemma_proof(lambda acc: fl.mul_lemmas(acc, fmt), "z3 over ℝ from the rounding model; mulErr dominance (sympy)",
                         "UNIVERSAL", "every real a, c, every binary32 c̃ (no overflow)")
    return _falsify(proof, check_mul, ctx, fmt)


@obligation(
    id="lean_mlp.float.mul_close",
    source=Source(DOC4, "mlp_w1_grad_close: … the final input multiply (mul_close, with the exact a₀ operand, ea = 0)"),
    statement="The final multiply is within mulErr: |fl(a·c̃) − a·c| ≤ mulErr(u, |a|, |c|, 0, |c̃ − c|) = "
    "|a|·ec + u·|a|·(|c| + ec) + μ for an exact operand a and a float operand c̃ within ec of c.",
    scope="universally over every real a, c and binary32 c̃ (z3 over ℝ from the proved rounding model)" + PROOF_NOTE,
    expect=Expect.HOLDS,
    lean="FloatBridge.mul_close",
    uses=("lean_mlp.float.rounding_model",),
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


def prove_dot(ctx: Any, fmt: b32.Format = b32.BINARY32) -> Verdict:
    from obligations.lean_mlp import float_lemmas as fl

    proof = fl.dot_lemma(fmt).verdict("z3 over ℝ (generic addition node, leaves, combination) + exact γ conditions "
                                      "+ dot_err dominance", "BOUNDED", fl.FANIN_TEXT + ", with or without a bias; every summation order")
    return _falsify(proof, check_dot, ctx, fmt)


@obligation(
    id="lean_mlp.float.dot_close",
    source=Source(DOC4, "mlp_w1_grad_close / cot_step_close: the masked W₂ᵀ contraction (layerBudget)"),
    statement="A binary32 dot product with bias, summed in any order, is within γ_{n+1}·(∑|xⱼyⱼ| + |b|) + n·μ·(1 + γₙ) "
    "of the exact value (γ_n without a bias), γₙ = n·u/(1 − n·u), u = 2⁻²⁴, μ = 2⁻¹⁵⁰.",
    scope="for all binary32 inputs, every parenthesisation of rounded products and additions (no FMA), at fan-ins "
    "n = 1…64, 128, 256, 512, 1024 (bounded): a generic addition node (z3 over ℝ) and structural induction, "
    "γ conditions exactly" + PROOF_NOTE,
    expect=Expect.HOLDS,
    lean="FloatBridge.dot_close",
    uses=("lean_mlp.float.rounding_model",),
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


def prove_cot_step(ctx: Any, fmt: b32.Format = b32.BINARY32) -> Verdict:
    from obligations.lean_mlp import float_lemmas as fl

    def build(acc: Any) -> None:
        fl.layer_lemmas(acc)
        acc.add(*fl.layer_dominance(fmt, fl.FANINS, bias=False))

    proof = _lemma_proof(build, "z3 over ℝ (termwise bounds, mask agreement, layer error) + layerBudget dominance (sympy)",
                         "BOUNDED", fl.FANIN_TEXT + " (contraction length m)")
    return _falsify(proof, check_cot_step, ctx, fmt)


@obligation(
    id="lean_mlp.float.cot_step_close",
    source=Source(DOC4, "mlp_w1_grad_close: … the masked W₂ᵀ contraction (cot_step_close, under the quantitative margin E₁ < |z₁ⱼ|)"),
    statement="Under the margin |z̃ − z| ≤ E < min|z|, the float masked contraction mask(z̃, fl(Wᵀc̃)) is within "
    "layerBudget(u, m, w, C, 0, ec) of mask(z, Wᵀc), per entry (|W| ≤ w, |c| ≤ C, |c̃ − c| ≤ ec, m terms).",
    scope="for all real W, c, z, z̃ and binary32 operands, every summation order, at m = 1…64, 128, 256, 512, 1024 "
    "(bounded; z3 over ℝ on the summed termwise bounds)" + PROOF_NOTE,
    expect=Expect.HOLDS,
    lean="FloatBridge.cot_step_close",
    uses=("lean_mlp.float.dot_close", "lean_mlp.float.relu_exact_in_float"),
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


def prove_head(ctx: Any, fmt: b32.Format = b32.BINARY32, classes: tuple[int, ...] | None = None) -> Verdict:
    from obligations.lean_mlp import float_lemmas as fl

    classes = classes or tuple(m for m in fl.FANINS if m >= 2)

    def build(acc: Any) -> None:
        fl.head_lemmas(acc)
        fl.exp_facts(acc)
        acc.add(*fl.cot_err_matches(fmt, classes))
        with timed() as t:
            ok = fmt.exp_rel <= Fraction(1, 2**16) and all(b32.BINARY32.gamma(m - 1) <= Fraction(1, 16) for m in classes)
            acc.add(ok, t.step("exact", "fractions", "side conditions: ε ≤ 2⁻¹⁶ and γ_(m−1) ≤ 1/16", "hold" if ok else "fail"))

    proof = _lemma_proof(build, "z3 over ℝ (ratio sandwich, factors, entry, label) + sympy (eˣ ≤ 1/(1−x), cotErr formula)",
                         "BOUNDED", "m = " + ", ".join(map(str, (classes[0], classes[1], "…", classes[-1]))) + " classes")
    return _falsify(proof, check_head, ctx, fmt)


@obligation(
    id="lean_mlp.float.softmax_ce_cot_close",
    source=Source(DOC4, "mlp_w1_grad_close: … the head (softmax_ce_cot_close, accuracy cotErr)"),
    statement="If the library exp is within ε = 4·2⁻²³ relatively of eˢ on [−81, 0] (hypothesis), the float "
    "softmax−onehot head at float logits t̃ with |t̃ − t|∞ ≤ δ is within cotErr(u, m, δ, spread(t) + 2δ) "
    "of softmax(t) − onehot, per entry, for 2δ < 1 and logit spread + 2δ < 80.",
    scope="for all real logits and every summation order of the softmax sum, at m = 2…64, 128, 256, 512, 1024 "
    "classes (bounded); exp's accuracy is a hypothesis, checked at the concrete network by `obligations discharge`"
    + PROOF_NOTE,
    expect=Expect.HOLDS,
    lean="FloatBridge.softmax_ce_cot_close",
    uses=("lean_mlp.float.rounding_model", "lean_mlp.float.dot_close"),
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


def prove_grad(ctx: Any, layer: str, fmt: b32.Format = b32.BINARY32, shapes: tuple | None = None) -> Verdict:
    from obligations.lean_mlp import float_lemmas as fl

    shapes = shapes or fl.SHAPES

    def build(acc: Any) -> None:
        fl.glue_lemmas(acc)
        fl.layer_lemmas(acc)
        fans = sorted({d for s in shapes for d in s})
        with timed() as t:
            ok = set(fans) <= set(fl.FANINS)
            acc.add(ok, t.step("exact", "python", "every fan-in of the shapes is one the part lemmas are proved at",
                               "yes" if ok else "no"))
        acc.add(*fl.layer_dominance(fmt, fans, bias=True))
        acc.add(*fl.layer_dominance(fmt, fans, bias=False))
        for dims in shapes:
            for ok_step in _composition_steps(dims):
                acc.add(*ok_step)

    proof = _lemma_proof(build, "the part lemmas composed: glue lemmas (z3 over ℝ), layerBudget dominance and "
                         "compose() = the Lean nesting (sympy) at every shape", "BOUNDED", fl.SHAPE_TEXT)
    return _falsify(proof, check_grad, ctx, layer, fmt)


_GRAD_PROOF_SCOPE = ("for all real weights, biases and inputs meeting the stated bounds and margins, every summation order, "
                     "at the shapes d = (3,4,4,3) (the example network), (3,4,5,2), (3,4,3,2), (6,10,8,4), (5,7,6,4), "
                     "(24,32,16,10), (256,8,8,4), (16,256,8,4), (16,8,256,10) (bounded); exp's accuracy a hypothesis"
                     + PROOF_NOTE)


@obligation(
    id="lean_mlp.float.linear_grad_close",
    source=Source(DOC4, "mlp_output_float_sgd_descends: … its accuracy η = mulErr u a 1 0 (cotErr …) is proven (by linear_grad_close)"),
    statement="The binary32 output-layer gradient fl(a₁ᵢ·c̃₂ⱼ) of the linear net at the exact activation a₁ is within "
    "η = mulErr(u, A₁, 1, 0, cotErr(u, d₃, δ, spread + 2δ)), δ = layerBudget(u, d₂, w₂, A₁, β₂, 0), "
    "of a₁ᵢ·(softmax − onehot)ⱼ.",
    scope=_GRAD_PROOF_SCOPE,
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
