"""Condition (ii′) of Theorem 3.1 (major comment 3) and the random-pruning scaling (Theorem 4.1)."""

from __future__ import annotations

from checker import Expect, Source, obligation
from checker.backends import smt, symbolic
from checker.claims import claim
from checker.kernel.verdicts import all_of
from obligations.grading import cross_checked
from obligations.rmt_jacobian.expressions import SYM

DOC = "001_0878a03787123b55.txt"


def stated_ii_prime(o, n, row_square_sum):
    """|(2/n)·Σ_k |b_ik|² − 1|, condition (ii′) as Theorem 3.1 states it."""
    return o.abs(2 / n * row_square_sum - 1)


def corrected_ii_prime(o, n, row_square_sum):
    """|(1/n)·Σ_k |b_ik|² − 1|, the form the proof of the Gaussian case uses."""
    return o.abs(1 / n * row_square_sum - 1)


# For the unpruned B = 1 every row has Σ_k |b_ik|² = n.
UNPRUNED = claim(
    "ii-prime-unpruned", "n:nat",
    lambda o, v: o.and_(o.eq(stated_ii_prime(o, v.n, v.n), 1), o.eq(corrected_ii_prime(o, v.n, v.n), 0)),
    hypotheses={"n ≥ 1": lambda o, v: o.ge(v.n, 1)},
    terms={"stated": lambda o, v: stated_ii_prime(o, v.n, v.n), "corrected": lambda o, v: corrected_ii_prime(o, v.n, v.n)},
)


def _unpruned_limit(form, expected: int):
    def build() -> tuple:
        sp = symbolic.sympy()
        n = sp.symbols("n", positive=True)
        return form(SYM, n, n), n, sp.oo, expected
    return build


#: The statement's limits for B = 1 (row sum n): the stated form tends to 1, the 1/n form to 0.
STATED_LIMIT = symbolic.limit_claim("lim_(n→∞) |(2/n)·n − 1| = 1 (stated (ii′), B = 1)", _unpruned_limit(stated_ii_prime, 1))
CORRECTED_LIMIT = symbolic.limit_claim("lim_(n→∞) |(1/n)·n − 1| = 0 (1/n form, B = 1)", _unpruned_limit(corrected_ii_prime, 0))


@obligation(
    id="rmt_jacobian.condition_ii_prime_typo",
    source=Source(DOC, "referee report, major comment 3: Theorem 3.1, condition (ii′)"),
    statement="For the unpruned mask B = 1, condition (ii′) as stated, |(2/n)Σ_k|b_ik|² − 1| → 0, fails: the "
    "quantity is 1 at every width n; the 1/n form |(1/n)Σ_k|b_ik|² − 1| is 0 at every width, so it holds.",
    scope="every real n ≥ 1 (z3, with Σ_k|b_ik|² = n) and the limits n → ∞ (sympy); cross-check (data): every width "
    "1…2048 with the row sum computed entry by entry (exact)",
    expect=Expect.HOLDS,
    lean="RmtJacobian.condition_ii_prime_typo",
    claims=(UNPRUNED,),
    theorem=lambda: (UNPRUNED, STATED_LIMIT, CORRECTED_LIMIT),
)
def condition_ii_prime_typo(ctx):
    """Major comment 3: "For the unpruned case B = 1, the stated condition gives |2 − 1| = 1, so
    Theorem 3.1 as stated does not apply to the setting of Theorem 5.1."

    Method: z3 proves, universally over real n ≥ 1, that the stated quantity is 1 and the
    corrected one 0 when the row sum is n (B = 1). Independently, for each width 1…2048 the row
    sum Σ_k 1² is added up in exact integers and both quantities evaluated in Fractions. sympy
    takes the n → ∞ limits (1 ≠ 0 for the stated form, 0 for the 1/n form).

    Theorem (declared): the z3 claim and the two limits (``symbolic.limit_claim``, settled by
    ``symbolic.decide``). The entry-by-entry enumeration is a cross-check recorded as data
    (``exact.enumerate_domain`` over n = 1…2048; no proof rests on it).

    Survives mutation: o.ge(v.n, 1): n > 1 (or n ≥ 2) is a stronger hypothesis; both identities hold for every n ≠ 0
    """
    limits = all_of("sympy limits", {"stated form": symbolic.decide(STATED_LIMIT, "sympy limit"),
                                     "1/n form": symbolic.decide(CORRECTED_LIMIT, "sympy limit")}, lemmas=True)
    proof = all_of("z3 universally over n ≥ 1 + sympy limits", {"z3, every real n ≥ 1": smt.prove(UNPRUNED, ctx),
                                                                 "limits": limits}, lemmas=True)
    # The entry-by-entry row sums re-check the z3 proof's premise at finitely many widths: data.
    return cross_checked(proof, {"exact, n = 1…2048": enumerate_unpruned()})


def unpruned_widths_claim(widths: int):
    """UNPRUNED at the integer widths n = 1…widths: a finite domain the exact backend enumerates."""
    return claim(
        "ii-prime-unpruned-widths", f"n:int[1,{widths}]",
        lambda o, v: o.and_(o.eq(stated_ii_prime(o, v.n, v.n), 1), o.eq(corrected_ii_prime(o, v.n, v.n), 0)),
        terms={"stated": lambda o, v: stated_ii_prime(o, v.n, v.n), "corrected": lambda o, v: corrected_ii_prime(o, v.n, v.n)},
    )


def enumerate_unpruned(widths: int = 2048):
    """Both forms of (ii′) for B = 1 at n = 1…widths: the row sum Σ_k 1² added up entry by entry
    (it is n at every width), then every width of the finite domain evaluated exactly
    (``exact.enumerate_domain``)."""
    from checker.backends import exact
    from checker.kernel.verdicts import timed, unknown

    with timed() as t:
        bad = [n for n in range(1, widths + 1) if sum(b * b for b in [1] * n) != n]
        step = t.step(exact.NAME, exact.VERSION, f"add up Σ_k 1² for n = 1…{widths}",
                      "Σ_k 1² = n for every n" if not bad else f"differs at {bad[:5]}", widths=widths)
    if bad:
        return unknown("exact enumeration of the row sums", f"unexpected row sums at n = {bad[:5]}", step)
    return exact.enumerate_domain(unpruned_widths_claim(widths))


def _second_moment(o, v):
    """E|b·w|² for b = r·ξ, ξ ~ Bernoulli(1 − s), w ⟂ b with E w² = σ²: the two outcomes of ξ, weighted."""
    return ((1 - v.s) * (v.r * 1) ** 2 + v.s * (v.r * 0) ** 2) * v.sigma2


SCALING = claim(
    "random-pruning-second-moment", "s r sigma2",
    lambda o, v: o.eq(_second_moment(o, v), v.sigma2),
    hypotheses={
        "0 ≤ s < 1": lambda o, v: o.and_(o.ge(v.s, 0), o.lt(v.s, 1)),
        "r = (1 − s)^(−1/2)": lambda o, v: o.and_(o.gt(v.r, 0), o.eq(v.r * v.r * (1 - v.s), 1)),
        "σ² > 0": lambda o, v: o.gt(v.sigma2, 0),
    },
    terms={"E|bw|²": _second_moment, "σ²": lambda o, v: v.sigma2},
)


@obligation(
    id="rmt_jacobian.random_pruning_scaling",
    source=Source(DOC, "source summary, forward implications: random pruning with mask (1−s)^(−1/2)·Bernoulli(1−s)"),
    statement="For the random-pruning mask b = (1−s)^{−1/2}·ξ, ξ ~ Bernoulli(1−s) independent of w, "
    "E|b·w|² = E|w|² for every sparsity 0 ≤ s < 1 (so (1/n)Σ_k E|b_ik|² = 1 and the row second moments are preserved).",
    scope="every real 0 ≤ s < 1 and every variance σ² > 0 (z3 over ℝ, with r² (1−s) = 1 for the scale); sympy with "
    "r = (1−s)^(−1/2) symbolic",
    expect=Expect.HOLDS,
    lean="RmtJacobian.random_pruning_scaling",
    claims=(SCALING,),
    theorem=SCALING,
)
def random_pruning_scaling(ctx):
    """Theorem 4.1 (random pruning) rescales the kept weights by (1−s)^{−1/2}. The expectation
    over the mask is the finite sum over ξ ∈ {0, 1} with weights s and 1 − s, so
    E|bw|² = (1−s)·r²·σ² + s·0 = σ² exactly when r²(1−s) = 1, and E b² = 1 is the 1/n form of
    (ii′) in expectation.

    Method: z3 proves the identity over all real s ∈ [0, 1), σ² > 0 with the scale given by
    r > 0, r²(1−s) = 1 (no square root needed); sympy checks it with r = (1−s)^{−1/2} and that
    without rescaling (r = 1) the second moment is (1−s)σ², lost as s grows.

    Survives mutation: o.and_(o.ge(v.s, 0), o.lt(v.s, 1)): a narrower range of s is a stronger hypothesis; the identity holds wherever r²(1 − s) = 1
    Survives mutation: o.gt(v.sigma2, 0): σ² > 1 (or σ² ≥ 0) still gives the identity, which is linear in σ² and holds for every σ²
    """
    sp = symbolic.sympy()
    s, sigma2 = sp.symbols("s sigma2", positive=True)
    r = 1 / sp.sqrt(1 - s)
    mean_sq = (1 - s) * r**2 + s * 0
    checks = [
        symbolic.zero_step(mean_sq * sigma2 - sigma2, "(1−s)·((1−s)^(−1/2))²·σ² + s·0 − σ²"),
        symbolic.zero_step((1 - s) * 1**2 * sigma2 - (1 - s) * sigma2, "unscaled: (1−s)·1²·σ² − (1−s)σ²"),
    ]
    return all_of("z3 over ℝ + sympy", {"z3": smt.prove(SCALING, ctx), "sympy": symbolic.conclude("sympy identities", checks)})
