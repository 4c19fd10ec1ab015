"""FloatBridge's binary32 budgets, proved: the rounding model by z3's floating-point theory,
the budget lemmas by z3 over ℝ on aggregated (order- and length-independent) forms, and the
budget functions checked to compute the proved bounds (a library; the obligations are in
:mod:`.float_proofs`).

The proof, in the order the obligations use it (derivations: ``docs/reconstructions/lean_mlp_float.md``):

1. **Rounding model** (``rounding_model``). z3 ``QF_FP``: for consecutive non-negative binary32
   numbers f₁ < f₂ (f₂ the next bit pattern), f₂ − f₁ ≤ 2⁻²³·f₁ when f₁ ≥ 2⁻¹²⁶ and
   f₂ − f₁ ≤ 2⁻¹⁴⁹, f₂ ≤ 2⁻¹²⁶ below it (the *gap lemma*); a binary32 sum or difference whose
   rounded value is at most 2⁻¹²⁶ in magnitude is exact. z3 over ℝ: the nearer of the two
   neighbours of any real x then satisfies |RN(x) − x| ≤ u·|x| or ≤ μ (u = 2⁻²⁴, μ = 2⁻¹⁵⁰),
   and ≤ u·|x| for a sum of two binary32. IEEE 754 defines +, −, ×, ÷ (and the product with the
   exact real operand) as RN of the exact result, and RN is odd; those are the semantics used.
2. **Sum trees** (``dot_close``). Any parenthesisation of a sum of m leaves: a generic
   addition node keeps |ŝ − s| ≤ γ_{k−1}·∑|leaves| (z3, γ's as variables) provided
   γ is monotone and u + (1 + u)·γ_{k−2} ≤ γ_{k−1} — checked exactly for every k of the family.
   Structural induction over the tree (the only step not machine-checked) gives every order.
   The products' rounding and the sum's error combine (z3 on the summed termwise bounds) into
   γ_m·S + n·μ·(1 + γ_{m−1}), and the stated ``dot_err`` is shown to dominate it (its
   coefficients in S, exactly, at every fan-in).
3. **Masked contraction, dense layer** (``cot_step_close``, the forward layers): the margin
   keeps the masks equal; the inexact input's error and the dot lemma add up (z3) to
   ``layerBudget``; the stated function is checked to dominate (sympy, coefficients ≥ 0).
4. **Head** (``softmax_ce_cot_close``): exp within ε (a *hypothesis*, see below), the
   subtraction, sum, division and the label's −1 each rounded by the model; the softmax ratio
   sandwich and e^x ≤ 1/(1 − x) (sympy) bound the ratio of every float entry to the exact one
   within [1/H, H] (z3), γ_(m−1) ≤ 1/16 whenever 17(m − 1)u ≤ 1, and the stated ``cot_err`` is
   the formula for every number of classes m (sympy, m a symbol).
5. **Final multiply** (``mul_close``) and the **grad-closes**: the part lemmas, glue lemmas
   (ReLU 1-Lipschitz, spread of the float logits, |softmax − onehot| ≤ 1, termwise bounds, equal
   masks under the margin, a layer's error), ``layer_budget`` equal to the proved bound for every
   fan-in, and the symbolic identity of ``compose()`` with the Lean nesting at symbolic dims.

Each lemma is a claim (:class:`Binary32Claim` for the floating-point ones) proved by its backend
rule, so the kernel checks every fact against the declared theorems of :mod:`.float_proofs`.

The exp hypothesis: numpy's float32 exp is a library routine, not an IEEE operation, so its
accuracy |exp32(s) − eˢ| ≤ ε·eˢ on [−81, 0] is a *hypothesis* of the head lemma (the Lean
``FloatModel.expErr`` field). ``obligations discharge`` checks it at the concrete network, for
every exp the float head evaluates there (python-flint ``arb`` enclosures); the sampled
measurement ``lean_mlp.float.exp_accuracy`` is evidence for it in general.

Standard facts used and not machine-checked: structural induction over the summation tree,
summing n termwise inequalities, exp increasing with e^{a+b} = e^a·e^b, RN odd.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Sequence

from checker.kernel.model import Step, Verdict
from checker.kernel.claims import claim
from checker.kernel.verdicts import all_of, timed
from obligations.lean_mlp import binary32 as b32

FANINS = tuple(range(1, 65)) + (128, 256, 512, 1024)
"""The fan-ins at which the budget code dot_err / layer_budget is checked against the bounds that
dot_close and cot_step_close prove for every fan-in."""
U_TOP = Fraction(1, 2**126)
"""The smallest normal binary32, 2⁻¹²⁶."""


class Binary32Claim:
    """A lemma of z3's floating-point theory, declared as (part of) an obligation's theorem.

    ``build(t)`` gives the lemma's formula over binary32 terms and its variables, as
    :func:`checker.backends.fp.prove` takes it. Its identity for the kernel (:attr:`subject`) is the
    subject the floating-point rule gives its fact, ``"binary32: <name>"``, where the name ends with
    a digest of the formula's SMT-LIB text: a fact about another formula under the same words is a
    fact about another claim. A witness (exact values of the variables) refutes it when
    ``recheck`` — exact binary32 rounding, independent of both solvers — finds the lemma false there."""

    hypotheses: tuple = ()

    def __init__(self, text: str, variables: str, build: Callable[[Any], tuple[Any, dict]],
                 recheck: Callable[[dict], dict | None], over: str) -> None:
        self.text, self.variables, self.over = text, tuple(variables.split()), over
        self._build, self._recheck = build, recheck
        self._name: str | None = None

    def __repr__(self) -> str:
        return f"Binary32Claim({self.text!r})"

    @property
    def name(self) -> str:
        if self._name is None:
            import hashlib

            from checker.backends import fp

            formula, _ = self._build(fp.terms())
            digest = hashlib.sha256(formula.sexpr().encode()).hexdigest()[:12]
            self._name = f"{self.text} [formula {digest}]"
        return self._name

    @property
    def subject(self) -> str:
        return f"binary32: {self.name}"

    def recheck(self, witness: Any) -> bool | None:
        try:
            point = {k: Fraction(witness[k]) for k in self.variables}
        except (KeyError, TypeError, ValueError, ZeroDivisionError):
            return None
        return self._recheck(point) is not None

    def prove(self) -> Verdict:
        from checker.backends import fp

        return fp.prove(self.name, self._build, self._recheck, over=self.over)


# ---------------------------------------------------------------------------------------
# z3 over ℝ
# ---------------------------------------------------------------------------------------


ITE_SMT = ("simplify", "elim-term-ite", "smt")
"""z3's core solver after the ``If`` terms of |·| are named: a faster route for lemmas that are
mostly case analysis over the signs."""


# ---------------------------------------------------------------------------------------
# 1. The rounding model
# ---------------------------------------------------------------------------------------


def _next32(f: Fraction) -> Fraction:
    """The next binary32 above a non-negative binary32 ``f``, exactly."""
    import struct

    bits = struct.unpack("<I", struct.pack("<f", float(f)))[0]
    return Fraction(struct.unpack("<f", struct.pack("<I", bits + 1))[0])


def _gap_recheck(point: dict) -> dict | None:
    f1 = point["f1"]
    f2 = _next32(f1)
    g = f2 - f1
    bad = (g > Fraction(1, 2**23) * f1) if f1 >= U_TOP else (g > Fraction(1, 2**149) or f2 > U_TOP)
    return {"f1": f1, "f2": f2, "gap": g} if bad else None


def _gap_formula(t: Any) -> tuple[Any, dict]:
    import z3

    f1 = t.var32("f1")
    f2 = z3.fpBVToFP(z3.fpToIEEEBV(f1) + 1, t.f32, t.ctx)
    hyp = z3.And(t.finite(f1), z3.fpIsPositive(f1), z3.fpLT(f1, t.val32(float(b32.MAX_FLOAT32))))
    # the gap f₂ − f₁ as a binary32 subtraction that is exact (round down = round up), so
    # g is the real difference (and representable in binary32, which is stronger than the
    # binary64 exactness the lemma needs); widened exactly for the product 2⁻²³·f₁, which is
    # exact in binary64. A 24-bit instead of a 53-bit subtraction for z3 to bit-blast.
    g = z3.fpSub(t.rtn, f2, f1)
    normal = z3.fpGEQ(f1, t.val32(2.0**-126))
    concl = z3.And(z3.fpEQ(g, z3.fpSub(t.rtp, f2, f1)), z3.fpGT(g, t.val32(0.0)),
                   z3.If(normal, z3.fpLEQ(t.wide(g), z3.fpMul(t.rne, t.val64(2.0**-23), t.wide(f1))),
                         z3.And(z3.fpLEQ(g, t.val32(2.0**-149)), z3.fpLEQ(f2, t.val32(2.0**-126)))))
    return z3.Implies(hyp, concl), {"f1": f1}


GAP_LEMMA = Binary32Claim(
    "gap lemma: next(f1) − f1 ≤ 2⁻²³·f1 (f1 normal), ≤ 2⁻¹⁴⁹ with next(f1) ≤ 2⁻¹²⁶ (f1 subnormal)", "f1",
    _gap_formula, _gap_recheck, over="every non-negative finite binary32 f1 below the largest")
"""z3 ``QF_FP``: the spacing of binary32 above every non-negative finite f₁ < max."""


def gap_lemma() -> Verdict:
    return GAP_LEMMA.prove()


def _sum_recheck(point: dict) -> dict | None:
    a, b = point["a"], point["b"]
    r = b32.round32(a + b)
    return {"a + b": a + b, "fl(a + b)": r} if abs(r) <= U_TOP and r != a + b else None


def _sum_formula(t: Any) -> tuple[Any, dict]:
    import z3

    a, b = t.var32("a"), t.var32("b")
    r = z3.fpAdd(t.rne, a, b)
    hyp = z3.And(t.finite(a), t.finite(b), z3.fpLEQ(z3.fpAbs(r), t.val32(2.0**-126)))
    return z3.Implies(hyp, z3.fpEQ(z3.fpAdd(t.rtn, a, b), z3.fpAdd(t.rtp, a, b))), {"a": a, "b": b}


SUBNORMAL_SUMS = Binary32Claim(
    "|fl(a + b)| ≤ 2⁻¹²⁶ ⇒ a + b is exact (round down = round up)", "a b", _sum_formula, _sum_recheck,
    over="every pair of finite binary32 a, b (subtraction is a + (−b))")
"""z3 ``QF_FP``: a binary32 sum whose rounded value is at most 2⁻¹²⁶ is exact (η = 0 for ±)."""


def subnormal_sums_exact() -> Verdict:
    return SUBNORMAL_SUMS.prove()


def _top(o: Any) -> Any:
    return o.q(1, 2**126)


NEIGHBOURS = {
    "0 ≤ f1 ≤ x ≤ f2": lambda o, v: o.and_(o.le(0, v.f1), o.le(v.f1, v.x), o.le(v.x, v.f2)),
    "gap lemma, f1 normal: f2 − f1 ≤ 2⁻²³·f1": lambda o, v: o.implies(o.ge(v.f1, _top(o)),
                                                                     o.le(v.f2 - v.f1, o.q(1, 2**23) * v.f1)),
    "gap lemma, f1 subnormal: f2 − f1 ≤ 2⁻¹⁴⁹ and f2 ≤ 2⁻¹²⁶": lambda o, v: o.implies(
        o.lt(v.f1, _top(o)), o.and_(o.le(v.f2 - v.f1, o.q(1, 2**149)), o.le(v.f2, _top(o)))),
    "r = RN(x) is f1 or f2, the nearer": lambda o, v: o.and_(
        o.or_(o.eq(v.r, v.f1), o.eq(v.r, v.f2)), o.le(o.abs(v.r - v.x), v.x - v.f1), o.le(o.abs(v.r - v.x), v.f2 - v.x)),
}
"""x ≥ 0 between consecutive binary32 f₁ ≤ x ≤ f₂ spaced as the gap lemma proves, r the nearer."""


def rn_claims(u: Fraction = b32.U, mu: Fraction = b32.MU) -> tuple[Any, Any]:
    """Over ℝ: the nearer neighbour r of x ≥ 0 has |r − x| ≤ u·x or ≤ μ; and ≤ u·x when sums are
    exact at or below 2⁻¹²⁶ (``u``, ``mu`` mutable for the tests)."""
    any_real = claim(
        "lean_mlp.float.rn_any_real", "x f1 f2 r",
        lambda o, v: o.or_(o.le(o.abs(v.r - v.x), o.q(u.numerator, u.denominator) * v.x),
                           o.le(o.abs(v.r - v.x), o.q(mu.numerator, mu.denominator))), NEIGHBOURS)
    sums = claim(
        "lean_mlp.float.rn_sum", "x f1 f2 r",
        lambda o, v: o.le(o.abs(v.r - v.x), o.q(u.numerator, u.denominator) * v.x),
        {**NEIGHBOURS, "x = a ± b: exact when |RN(x)| ≤ 2⁻¹²⁶": lambda o, v: o.implies(o.le(v.r, _top(o)), o.eq(v.r, v.x))})
    return any_real, sums


RN_ANY_REAL, RN_SUM = rn_claims()
ROUNDING_MODEL = (GAP_LEMMA, SUBNORMAL_SUMS, RN_ANY_REAL, RN_SUM)
"""The rounding model as proved: the two floating-point lemmas (binary32's spacing, exact subnormal
sums) and the two lemmas over ℝ that turn them into |RN(x) − x| ≤ u·|x| or μ (≤ u·|x| for a sum)."""


def rounding_model() -> Verdict:
    """Each part of :data:`ROUNDING_MODEL` by its backend rule (bitwuzla/z3 floating-point theory, z3
    over ℝ), conjoined by the kernel."""
    from checker.backends import smt

    parts = {"gap lemma": GAP_LEMMA.prove(), "exact subnormal sums": SUBNORMAL_SUMS.prove()}
    parts.update({c.name: smt.prove(c) for c in (RN_ANY_REAL, RN_SUM)})
    return all_of("z3 floating-point theory (gap lemma, exact subnormal sums) + z3 over ℝ", parts, lemmas=True)


# ---------------------------------------------------------------------------------------
# 2. Sum trees and dot products
# ---------------------------------------------------------------------------------------


def affine_dominates(stated: Callable[[Any], Any], slope: Fraction, const: Fraction) -> bool:
    """``stated(S) ≥ slope·S + const`` for every S ≥ 0, decided exactly: ``stated`` evaluated on a
    sympy symbol must be a polynomial in S with coefficients dominating (degree ≤ 1 here; any
    higher coefficient must be ≥ 0)."""
    from checker.backends import symbolic

    sp = symbolic.sympy()
    S = sp.Symbol("S", nonnegative=True)
    try:
        poly = sp.Poly(sp.expand(stated(S)), S)
    except (sp.PolynomialError, TypeError, ValueError):
        return False
    coeffs = poly.all_coeffs()[::-1]  # constant first
    want = [const, slope]
    for i, c in enumerate(coeffs):
        if not c.is_Rational:
            return False
        if Fraction(int(c.p), int(c.q)) < (want[i] if i < 2 else 0):
            return False
    return len(coeffs) >= 1 and (len(coeffs) >= 2 or slope <= 0)


def dot_dominance(fmt: b32.Format, fanins: Sequence[int]) -> tuple[bool, Step]:
    """At each fan-in n (with and without a bias term), the stated ``dot_err`` dominates the
    proved γ_m·S + n·μ·(1 + γ_{m−1}), m = n + bias."""
    with timed() as t:
        bad = []
        for n in fanins:
            for bias in (False, True):
                m = n + bias
                g, g1 = Fraction(fmt.gamma(m)), Fraction(fmt.gamma(m - 1))
                proved_slope = Fraction(b32.BINARY32.gamma(m))
                proved_const = n * b32.MU * (1 + Fraction(b32.BINARY32.gamma(m - 1)))
                del g, g1
                if not affine_dominates(lambda S: b32.dot_err(fmt, n, S, bias), proved_slope, proved_const):
                    bad.append(f"n = {n}{' + bias' if bias else ''}")
        return not bad, t.step("symbolic", "sympy", f"dot_err({fmt.name}) ≥ γ_m·S + n·μ·(1 + γ_(m−1)) at {len(fanins)} fan-ins",
                               "dominates" if not bad else "fails at " + ", ".join(bad[:5]))


# ---------------------------------------------------------------------------------------
# 3. Masked contraction and dense layer with an inexact input
# ---------------------------------------------------------------------------------------


def layer_dominance(fmt: b32.Format, fanins: Sequence[int], bias: bool) -> tuple[bool, Step]:
    """The stated ``layer_budget`` ≥ n·w·e + γ_m·(n·w·(A + e) + β) + n·μ(1 + γ_{m−1}) for all
    non-negative w, A, e, β (coefficients of the difference ≥ 0, exactly, sympy)."""
    from checker.backends import symbolic

    sp = symbolic.sympy()
    w, A, e, beta = sp.symbols("w A e beta", nonnegative=True)
    with timed() as t:
        bad = []
        for n in fanins:
            m = n + bias
            g, g1 = b32.BINARY32.gamma(m), b32.BINARY32.gamma(m - 1)
            proved_bound = n * w * e + sp.Rational(g.numerator, g.denominator) * (n * w * (A + e) + (beta if bias else 0)) \
                + n * sp.Rational(1, 2**150) * (1 + sp.Rational(g1.numerator, g1.denominator))
            try:
                diff = sp.expand(b32.layer_budget(fmt, n, w, A, beta if bias else 0, e, bias) - proved_bound)
                ok = all(c >= 0 for c in sp.Poly(diff, w, A, e, beta).coeffs()) if diff != 0 else True
            except (sp.PolynomialError, TypeError, ValueError):
                ok = False
            if not ok:
                bad.append(f"n = {n}")
        return not bad, t.step("symbolic", symbolic.version(),
                               f"layer_budget({fmt.name}, bias={bias}) dominates the proved bound at {len(fanins)} fan-ins",
                               "dominates" if not bad else "fails at " + ", ".join(bad[:5]))


# ---------------------------------------------------------------------------------------
# 4. The head
# ---------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------
# 5. The final multiply and the glue of the grad-closes
# ---------------------------------------------------------------------------------------


def _rounded(o: Any, r: Any, p: Any) -> Any:
    """r rounds p in the source's rounding model M (any r within u·|p| or within μ of p, binary32 or not):
    the theorems are the model's (a refutation is of the model's statement, which IEEE round-to-nearest
    may still satisfy)."""
    return o.or_(o.le(o.abs(r - p), o.q(1, 2**24) * o.abs(p)), o.le(o.abs(r - p), o.q(1, 2**150)))


MUL_CLOSE = claim(
    "lean_mlp.float.mul_close", "a c ct A C ec r",
    lambda o, v: o.le(o.abs(v.r - v.a * v.c), v.A * v.ec + o.q(1, 2**24) * v.A * (v.C + v.ec) + o.q(1, 2**150)),
    {"|a| ≤ A": lambda o, v: o.le(o.abs(v.a), v.A), "|c| ≤ C": lambda o, v: o.le(o.abs(v.c), v.C),
     "|c̃ − c| ≤ ec": lambda o, v: o.le(o.abs(v.ct - v.c), v.ec),
     "r rounds a·c̃ in the rounding model (|r − a·c̃| ≤ u·|a·c̃| or ≤ μ)": lambda o, v: _rounded(o, v.r, v.a * v.ct)})
"""``mul_close``: the rounded product of an exact a and a float c̃ within ec of c is within
A·ec + u·A·(C + ec) + μ of a·c (= mulErr(u, A, C, 0, ec))."""


def mul_dominance(fmt: b32.Format) -> tuple[bool, Step]:
    """The budget code ``mul_err(fmt, A, C, 0, ec)`` dominates the bound of :data:`MUL_CLOSE`
    coefficientwise (sympy, A, C, ec ≥ 0)."""
    from checker.backends import symbolic

    sp = symbolic.sympy()
    A, C, ec = sp.symbols("A C ec", nonnegative=True)
    with timed() as t:
        proved_bound = A * ec + sp.Rational(1, 2**24) * A * (C + ec) + sp.Rational(1, 2**150)
        try:
            diff = sp.expand(b32.mul_err(fmt, A, C, 0, ec) - proved_bound)
            ok = diff == 0 or all(c >= 0 for c in sp.Poly(diff, A, C, ec).coeffs())
        except (sp.PolynomialError, TypeError, ValueError):
            ok = False
        return ok, t.step("symbolic", symbolic.version(), f"mulErr({fmt.name}, A, C, 0, ec) dominates the proved bound",
                          "dominates" if ok else "does not dominate")


def _relu_recheck(point: dict) -> dict | None:
    z = point["z"]
    r = max(z, Fraction(0))
    return None if b32.round32(r) == r else {"z": z, "relu": r}


def _relu_formula(t: Any) -> tuple[Any, dict]:
    import z3

    z = t.var32("z")
    m = z3.fpMax(z, t.val32(0.0))
    back = z3.fpToFP(t.rne, t.wide(m), t.f32)
    concl = z3.And(z3.If(z3.fpGT(z, t.val32(0.0)), z3.fpEQ(m, z), z3.fpIsZero(m)), z3.fpEQ(back, m))
    return z3.Implies(z3.Not(z3.fpIsNaN(z)), concl), {"z": z}


RELU_EXACT = Binary32Claim("relu(z) = max(z, 0) is z or 0 and fl(relu z) = relu z", "z", _relu_formula, _relu_recheck,
                           over="every non-NaN binary32 z (all 2³² bit patterns but NaNs)")
"""z3 ``QF_FP``: for every non-NaN binary32 z, max(z, +0) is z (z > 0) or a zero, and rounding it
to binary32 changes nothing."""


def relu_exact() -> Verdict:
    return RELU_EXACT.prove()


# ---------------------------------------------------------------------------------------
# The head and the grad-closes as claims (every fan-in, every number of classes, every shape)
# ---------------------------------------------------------------------------------------


def _uq(o: Any) -> Any:
    return o.q(1, 2**24)


def _muq(o: Any) -> Any:
    return o.q(1, 2**150)


def _head_h(o: Any, eps: Any, g: Any, d: Any, G: Any) -> Any:
    """H = (1 + α)(1 + u)/((1 − 2δ)(1 − α)(1 − γ)(1 − u)), 1 + α = (1 + ε)/(1 − u·G)."""
    onea = (1 + eps) / (1 - _uq(o) * G)
    return onea * (1 + _uq(o)) / ((1 - 2 * d) * (2 - onea) * (1 - g) * (1 - _uq(o)))


HEAD_SANDWICH = claim(
    "lean_mlp.float.head_sandwich", "A B rk rlo rhi sg g R",
    lambda o, v: o.and_(o.le(v.R * v.rlo * (1 - v.g), v.rhi), o.ge(v.R * v.rhi * (1 + v.g), v.rlo)),
    {"A > 0, ρ_lo > 0": lambda o, v: o.and_(o.gt(v.A, 0), o.gt(v.rlo, 0)),
     "ρ_lo·A ≤ B ≤ ρ_hi·A (the float exps' sum against the exact one)": lambda o, v: o.and_(o.le(v.rlo * v.A, v.B),
                                                                                         o.le(v.B, v.rhi * v.A)),
     "ρ_lo ≤ ρ_k ≤ ρ_hi": lambda o, v: o.and_(o.le(v.rlo, v.rk), o.le(v.rk, v.rhi)),
     "0 ≤ γ < 1, |σ| ≤ γ (the sum's rounding)": lambda o, v: o.and_(o.le(0, v.g), o.lt(v.g, 1), o.le(-v.g, v.sg),
                                                                       o.le(v.sg, v.g)),
     "R·B·(1 + σ) = ρ_k·A": lambda o, v: o.eq(v.R * v.B * (1 + v.sg), v.rk * v.A)})
"""The softmax ratio sandwich: e_k/Ŝ ÷ P_k ∈ [ρ_lo/(ρ_hi(1+γ)), ρ_hi/(ρ_lo(1−γ))]."""

HEAD_FACTORS = claim(
    "lean_mlp.float.head_factors", "eps g d G y z",
    lambda o, v: o.and_(
        o.le(v.y * v.z * (1 + v.eps) / ((1 - v.eps) / (v.y * v.z) * (1 - v.g)) * (1 + _uq(o)), _head_h(o, v.eps, v.g, v.d, v.G)),
        o.ge((1 - v.eps) / (v.y * v.z) / (v.y * v.z * (1 + v.eps) * (1 + v.g)) * (1 - _uq(o)), 1 / _head_h(o, v.eps, v.g, v.d, v.G)),
        o.ge(_head_h(o, v.eps, v.g, v.d, v.G), 1)),
    {"0 ≤ ε ≤ 2⁻¹⁶ (exp's accuracy)": lambda o, v: o.and_(o.ge(v.eps, 0), o.le(v.eps, o.q(1, 2**16))),
     "0 ≤ γ ≤ 1/16": lambda o, v: o.and_(o.ge(v.g, 0), o.le(v.g, o.q(1, 16))),
     "0 ≤ 2δ < 1": lambda o, v: o.and_(o.ge(v.d, 0), o.lt(2 * v.d, 1)),
     "0 ≤ G ≤ 80": lambda o, v: o.and_(o.ge(v.G, 0), o.le(v.G, 80)),
     "y = e^δ: y ≥ 1, y²(1 − 2δ) ≤ 1 (eˣ ≤ 1/(1 − x))": lambda o, v: o.and_(o.ge(v.y, 1), o.le(v.y * v.y * (1 - 2 * v.d), 1)),
     "z = e^(uG): z ≥ 1, z(1 − uG) ≤ 1": lambda o, v: o.and_(o.ge(v.z, 1), o.le(v.z * (1 - _uq(o) * v.G), 1))})
"""The ratio factors against H (y = e^δ, z = e^(uG) enter through eˣ ≤ 1/(1 − x))."""

HEAD_ENTRY = claim(
    "lean_mlp.float.head_entry", "P R Rlo Rhi H qv ph",
    lambda o, v: o.le(o.abs(v.ph - v.P), (v.H - 1) * v.P + _muq(o)),
    {"0 ≤ P ≤ 1": lambda o, v: o.and_(o.le(0, v.P), o.le(v.P, 1)),
     "R_lo ≤ R ≤ R_hi, R_lo > 0": lambda o, v: o.and_(o.le(v.Rlo, v.R), o.le(v.R, v.Rhi), o.gt(v.Rlo, 0)),
     "R_hi(1 + u) ≤ H, R_lo(1 − u)·H ≥ 1, H ≥ 1": lambda o, v: o.and_(o.le(v.Rhi * (1 + _uq(o)), v.H),
                                                                     o.ge(v.Rlo * (1 - _uq(o)) * v.H, 1), o.ge(v.H, 1)),
     "q = P·R": lambda o, v: o.eq(v.qv, v.P * v.R),
     "p̂ = RN(q) (rounding model)": lambda o, v: o.or_(o.le(o.abs(v.ph - v.qv), _uq(o) * v.qv),
                                                       o.le(o.abs(v.ph - v.qv), _muq(o)))})
"""The division's rounded entry: |fl(e_k/Ŝ) − P_k| ≤ (H − 1)·P_k + μ."""

HEAD_LABEL = claim(
    "lean_mlp.float.head_label", "P H ph c",
    lambda o, v: o.and_(
        o.implies(o.le(o.abs(v.c - (v.ph - 1)), _uq(o) * o.abs(v.ph - 1)),
                  o.le(o.abs(v.c - (v.P - 1)), (v.H - 1) * (1 + _uq(o)) + _uq(o) + _muq(o) * (1 + _uq(o)))),
        o.le(o.abs(v.ph - v.P), (v.H - 1) * (1 + _uq(o)) + _uq(o) + _muq(o) * (1 + _uq(o)))),
    {"0 ≤ P ≤ 1, H ≥ 1": lambda o, v: o.and_(o.le(0, v.P), o.le(v.P, 1), o.ge(v.H, 1)),
     "|p̂ − P| ≤ (H − 1)·P + μ": lambda o, v: o.le(o.abs(v.ph - v.P), (v.H - 1) * v.P + _muq(o))})
"""The label's rounded −1 keeps |ĉ − (P − onehot)| ≤ (H−1)(1+u) + u + μ(1+u) = cotErr."""

HEAD_EXPONENT = claim(
    "lean_mlp.float.head_exponent", "tk M G s",
    lambda o, v: o.and_(o.le(v.s, 0), o.ge(v.s, -81), o.le(o.abs(v.s - (v.tk - v.M)), _uq(o) * v.G)),
    {"t̃_k ≤ M, M − t̃_k ≤ G < 80": lambda o, v: o.and_(o.le(v.tk, v.M), o.le(v.M - v.tk, v.G), o.lt(v.G, 80)),
     "s = RN(t̃_k − M), a sum (rounding model)": lambda o, v: o.le(o.abs(v.s - (v.tk - v.M)), _uq(o) * o.abs(v.tk - v.M))})
"""fl(t̃_k − M) ∈ [−81, 0] (where exp's accuracy is assumed), within u·G of t̃_k − M."""

GAMMA_SIXTEENTH = claim(
    "lean_mlp.float.gamma_sixteenth", "m:real[1,]",
    lambda o, v: o.and_(o.ge((v.m - 1) * _uq(o) / (1 - (v.m - 1) * _uq(o)), 0),
                        o.le((v.m - 1) * _uq(o) / (1 - (v.m - 1) * _uq(o)), o.q(1, 16))),
    {"17·(m − 1)·u ≤ 1 (m ≤ 986 895 classes)": lambda o, v: o.le(17 * (v.m - 1) * _uq(o), 1)})
"""0 ≤ γ_(m−1) ≤ 1/16 for every number of classes m with 17(m − 1)u ≤ 1."""


def cot_err_claim(fmt: b32.Format = b32.BINARY32) -> Any:
    """The budget code ``cot_err(fmt, m, δ, G)`` is (H − 1)(1 + u) + u + μ(1 + u) with H of
    :data:`HEAD_FACTORS` at γ = γ_(m−1), for every number of classes m (sympy, m a symbol)."""
    from checker.backends import symbolic

    def build() -> Any:
        sp = symbolic.sympy()
        d, G = sp.symbols("delta G", nonnegative=True)
        m = sp.Symbol("m", integer=True, positive=True)
        uu, mu = sp.Rational(1, 2**24), sp.Rational(1, 2**150)
        eps = sp.Rational(b32.BINARY32.exp_rel.numerator, b32.BINARY32.exp_rel.denominator)
        g = (m - 1) * uu / (1 - (m - 1) * uu)
        onea = (1 + eps) / (1 - uu * G)
        H = onea * (1 + uu) / ((1 - 2 * d) * (2 - onea) * (1 - g) * (1 - uu))
        return sp.together(b32.cot_err(fmt, m, d, G) - ((H - 1) * (1 + uu) + uu + mu * (1 + uu)))

    return symbolic.zero_claim(f"lean_mlp.float.cot_err_code[{fmt.name}]", build)


HEAD_PARTS = (HEAD_SANDWICH, HEAD_FACTORS, HEAD_ENTRY, HEAD_LABEL, HEAD_EXPONENT, GAMMA_SIXTEENTH)
HEAD_TACTICS = {HEAD_LABEL.name: ITE_SMT}

RELU_LIPSCHITZ = claim(
    "lean_mlp.float.relu_close", "z zt e",
    lambda o, v: o.and_(o.le(o.abs(o.relu(v.zt) - o.relu(v.z)), v.e), o.ge(o.relu(v.z), 0)),
    {"|z̃ − z| ≤ e": lambda o, v: o.le(o.abs(v.zt - v.z), v.e)})
"""ReLU is 1-Lipschitz and non-negative (and exact in float: relu_exact_in_float)."""

LOGIT_SPREAD = claim(
    "lean_mlp.float.logit_spread", "t1 t2 s1 s2 d sp",
    lambda o, v: o.le(v.s1 - v.s2, v.sp + 2 * v.d),
    {"|s₁ − t₁| ≤ δ, |s₂ − t₂| ≤ δ": lambda o, v: o.and_(o.le(o.abs(v.s1 - v.t1), v.d), o.le(o.abs(v.s2 - v.t2), v.d)),
     "t₁ − t₂ ≤ spread": lambda o, v: o.le(v.t1 - v.t2, v.sp)})
"""The float logits within δ: spread(t̃) ≤ spread(t) + 2δ."""

ONEHOT = claim(
    "lean_mlp.float.softmax_minus_onehot", "P",
    lambda o, v: o.and_(o.le(o.abs(v.P), 1), o.le(o.abs(v.P - 1), 1)), {"0 ≤ P ≤ 1": lambda o, v: o.and_(o.le(0, v.P), o.le(v.P, 1))})
"""|softmax − onehot| ≤ 1 entrywise."""

LAYER_TERM = claim(
    "lean_mlp.float.layer_term", "W w c ct C ec",
    lambda o, v: o.and_(o.le(o.abs(v.W * v.ct), v.w * (v.C + v.ec)), o.le(o.abs(v.W * v.ct - v.W * v.c), v.w * v.ec),
                        o.le(o.abs(v.W * v.c), v.w * v.C)),
    {"|W| ≤ w": lambda o, v: o.le(o.abs(v.W), v.w), "|c| ≤ C": lambda o, v: o.le(o.abs(v.c), v.C),
     "|c̃ − c| ≤ ec": lambda o, v: o.le(o.abs(v.ct - v.c), v.ec)})
"""Termwise: |W·c̃| ≤ w(C + ec), |W(c̃ − c)| ≤ w·ec, |W·c| ≤ w·C."""

MARGIN_MASKS = claim(
    "lean_mlp.float.margin_masks", "z zt E",
    lambda o, v: o.and_(o.implies(o.gt(v.zt, 0), o.gt(v.z, 0)), o.implies(o.gt(v.z, 0), o.gt(v.zt, 0))),
    {"|z̃ − z| ≤ E < |z|": lambda o, v: o.and_(o.le(o.abs(v.zt - v.z), v.E), o.lt(v.E, o.abs(v.z)))})
"""The margin keeps the ReLU masks equal."""

LAYER_ERROR = claim(
    "lean_mlp.float.layer_error", "F V X Sabs K L g N0 z zt E beta B",
    lambda o, v: o.and_(o.le(o.abs(v.F - v.X), v.L + v.g * (v.K + v.beta) + v.N0),
                        o.le(o.abs(o.ite(o.gt(v.zt, 0), v.F, 0) - o.ite(o.gt(v.z, 0), v.X, 0)), v.L + v.g * (v.K + v.beta) + v.N0)),
    {"γ ≥ 0, underflow N0 ≥ 0": lambda o, v: o.and_(o.ge(v.g, 0), o.ge(v.N0, 0)),
     "dot lemma at x̃: |F − V| ≤ γ·S + N0": lambda o, v: o.le(o.abs(v.F - v.V), v.g * v.Sabs + v.N0),
     "S ≤ K + B, 0 ≤ B ≤ β": lambda o, v: o.and_(o.le(v.Sabs, v.K + v.B), o.ge(v.beta, 0), o.le(v.B, v.beta)),
     "input error: |V − X| ≤ L": lambda o, v: o.le(o.abs(v.V - v.X), v.L),
     "margin: |z̃ − z| ≤ E < |z|": lambda o, v: o.and_(o.le(o.abs(v.zt - v.z), v.E), o.lt(v.E, o.abs(v.z)))})
"""A layer's error, masked or not: the dot lemma at x̃ plus the input error."""


def layer_code_claim(fmt: b32.Format = b32.BINARY32, bias: bool = True) -> Any:
    """The budget code ``layer_budget(fmt, n, w, A, β, e, bias)`` is n·w·e + γ_m·(n·w·(A + e) + β) +
    n·μ(1 + γ_(m−1)), m = n + bias, for every fan-in n (sympy, n a symbol)."""
    from checker.backends import symbolic

    def build() -> Any:
        sp = symbolic.sympy()
        w, A, e, beta = sp.symbols("w A e beta", nonnegative=True)
        n = sp.Symbol("n", integer=True, positive=True)
        uu, mu = sp.Rational(1, 2**24), sp.Rational(1, 2**150)
        m = n + (1 if bias else 0)
        gam = lambda k: k * uu / (1 - k * uu)  # noqa: E731
        proved = n * w * e + gam(m) * (n * w * (A + e) + (beta if bias else 0)) + n * mu * (1 + gam(m - 1))
        return sp.together(b32.layer_budget(fmt, n, w, A, beta if bias else 0, e, bias) - proved)

    return symbolic.zero_claim(f"lean_mlp.float.layer_budget_code[{fmt.name}, bias={bias}]", build)


GRAD_PARTS = (RELU_LIPSCHITZ, LOGIT_SPREAD, ONEHOT, LAYER_TERM, MARGIN_MASKS, LAYER_ERROR)
