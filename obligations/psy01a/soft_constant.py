"""Psy01-A soft relaxation: where the constant of eq:softderivative is attained."""

from __future__ import annotations

from fractions import Fraction

from checker import Expect, Source, obligation
from checker.backends import interval, smt, symbolic
from checker.claims import claim
from checker.kernel.verdicts import all_of, fmt, timed, trusted, unknown, with_data
from obligations.psy01a import accuracy

DOC = "000_1ea2e46c3d2f64bf.txt"

QUARTER_ATTAINED = claim(
    "sigmoid-variance-quarter-iff-half", "s",
    lambda o, v: o.eq(o.eq(v.s * (1 - v.s), o.q(1, 4)), o.eq(v.s, o.q(1, 2))),
    hypotheses={"0 < s < 1": lambda o, v: o.and_(o.gt(v.s, 0), o.lt(v.s, 1))},
)


def _symbolic_steps():
    """|∂_p B_i| = |W_i| s_i(1 − s_i)/(T r) and the bound |W_i|/(4T r) differ by |W_i|(s_i − 1/2)²/(T r);
    s_i = 1/2 iff q = |W_i| (the sigmoid is injective, σ(0) = 1/2)."""
    sp = symbolic.sympy()
    s, w = sp.symbols("s W", real=True)
    tt, r = sp.symbols("T r", positive=True)
    q, a = sp.symbols("q a", real=True)
    sig = 1 / (1 + sp.exp(-(a - q) / tt))
    return [
        symbolic.zero_step(sp.Abs(w) / (4 * tt * r) - sp.Abs(w) * s * (1 - s) / (tt * r) - sp.Abs(w) * (s - sp.Rational(1, 2)) ** 2 / (tt * r),
                           "bound − |∂_pB_i| − |W_i|(s_i − 1/2)²/(T r)"),
        symbolic.true_step(sp.Eq(sp.solveset(sp.Eq(sig, sp.Rational(1, 2)), q, sp.S.Reals), sp.FiniteSet(a)),
                           "σ((a − q)/T) = 1/2 ⇔ q = a (= |W_i|)"),
    ]


def _attaining_p(weights, temp) -> list[dict[str, str]]:
    """For each weight, p_i = (1/N) Σ_j σ((|W_j| − |W_i|)/T): the unique p with q(p) = |W_i| (enclosed)."""
    rows = []
    for wi in weights:
        p = accuracy._interval_count(interval.Interval.of(abs(wi)), weights, temp)
        lo, hi = accuracy.EXAMPLE_P
        rows.append({"W_i": fmt(wi), "p_i": p.describe(10), "inside [1/10, 9/10]": bool(p.lo > lo and p.hi < hi),
                     "outside": bool(p.hi < lo or p.lo > hi)})
    return rows


@obligation(
    id="psy01a.soft_relaxation_constant_attained",
    source=Source(DOC, "Proposition (soft relaxation, eq:softderivative): 'using s(1 − s) ≤ 1/4'"),
    statement="The bound |∂_p B_{ℓ,i}(p)| ≤ |W_{ℓ,i}|/(4T r_ℓ(p)) holds with equality exactly when q_ℓ(p) = |W_{ℓ,i}| (s = 1/2), "
    "i.e. at the single density p_i = (1/N)Σ_j σ((|W_j| − |W_i|)/T), and is strict at every other p (W_i ≠ 0).",
    scope="symbolically for every T > 0, r > 0, W_i (sympy) and s ∈ (0, 1) (z3); the attaining densities p_i of the "
    "8-weight example of psy01a.soft_relaxation (T = 1/4) by rigorous enclosures, with which of them fall in "
    "its compact range [1/10, 9/10]",
    expect=Expect.HOLDS,
    lean="Psy01A.soft_relaxation_constant_attained",
    uses=("psy01a.soft_relaxation",),
    claims=(QUARTER_ATTAINED,),
    theorem=(QUARTER_ATTAINED,),
)
def soft_relaxation_constant_attained(ctx):
    """The referee's question: is the constant 1/4 of s(1 − s) ≤ 1/4 the best one, and where is
    it attained? The gap between the bound and |∂_pB_i| = |W_i|s_i(1 − s_i)/(T r) is exactly
    |W_i|(s_i − 1/2)²/(T r) (sympy), zero iff s_i = 1/2 (z3: s(1 − s) = 1/4 ⇔ s = 1/2 on (0, 1)),
    iff q_ℓ(p) = |W_i| (the sigmoid is injective). q_ℓ is a bijection (psy01a.soft_relaxation),
    so this happens at exactly one density, p_i = soft count at q = |W_i|. The bound is therefore
    sharp pointwise, attained once per weight; the compact-set Lipschitz constant
    max|W|/(4T r_min) of psy01a.soft_relaxation combines the maximum of |W| with the minimum of r
    at different densities and need not be attained. Example: the enclosures of p_i for the
    8 example weights, and which lie inside [1/10, 9/10].

    The declared theorem is the z3 claim s(1 − s) = 1/4 ⇔ s = 1/2 on (0, 1); the gap identity is a
    sympy reduction, and the enclosures of the example's p_i (a soft count, which the claim
    language cannot state) a trusted computation.

    Survives mutation: bool(p.lo > lo and p.hi < hi): the enclosures of p_i are separated from 1/10 and 9/10, so the non-strict tests agree
    Survives mutation: bool(p.hi < lo or p.lo > hi): the enclosures of p_i are separated from 1/10 and 9/10, so the non-strict tests agree
    """
    with timed() as t:
        rows = _attaining_p(accuracy.EXAMPLE_WEIGHTS, accuracy.EXAMPLE_T)
        decided = all(r["inside [1/10, 9/10]"] or r["outside"] for r in rows)
        step = t.step(interval.NAME, interval.version(), "enclose p_i for the example weights",
                      f"{sum(r['inside [1/10, 9/10]'] for r in rows)} of {len(rows)} inside [1/10, 9/10]")
    example = (trusted("rigorous enclosures", step, at=[f"W_i = {r['W_i']}" for r in rows], attaining=rows)
               if decided else unknown("rigorous enclosures", "an attaining density straddles the range end", step))
    return with_data(all_of("sympy + z3 + rigorous enclosures", {
        "gap = |W|(s − 1/2)²/(T r), s = 1/2 ⇔ q = |W_i| (sympy)": symbolic.conclude("sympy", _symbolic_steps()),
        "s(1 − s) = 1/4 ⇔ s = 1/2 (z3)": smt.prove(QUARTER_ATTAINED, ctx),
        "attaining densities of the example (rigorous)": example,
    }), attaining=rows, temperature=fmt(accuracy.EXAMPLE_T), quarter=fmt(Fraction(1, 4)))
