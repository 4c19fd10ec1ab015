"""The truncated-Gaussian second moment behind the Theorem 4.2 mask (major comment 2).

For w ~ N(0, 2/n), E[w²·1{|w| > t}] = (4/n)·(u·φ(u) + Q(u)) with u = t·√(n/2) (sympy checks
this against the defining integral). The referee's asymptotic 2t·e^{−nt²/4}/√(nπ) equals
(4/n)·u·φ(u), so the ratio exact/referee = 1 + Q(u)/(u·φ(u)) depends on u alone and tends to 1.
The paper's expression e^{−nt²/2}·√(2nt²)/π has the wrong exponent: its ratio to the true
moment depends on n as well and does not tend to 1 in the theorem's range.
"""

from __future__ import annotations

from typing import Any, Callable

from checker import Expect, Source, obligation
from checker.backends import interval, symbolic
from checker.claims import claim
from checker.kernel.model import Status, Verdict
from checker.kernel.verdicts import all_of, refuted, unknown, with_data
from obligations.rmt_jacobian.expressions import (
    SYM,
    enclosure,
    exact_moment,
    mask_scale_sq,
    paper_moment,
    paper_moment_sqrt_pi,
    referee_moment,
    regime_bound,
    row_sum,
)

DOC = "001_0878a03787123b55.txt"
MAJOR_2 = "referee report, major comment 2 (proof of Theorem 4.2)"
REGIME_C = 8  # Theorem 4.2's range nt² ≤ 4 log n − c log log n, with c > 7 as the review quotes
WITNESS = {"n": 1024, "t": "1/10"}  # nt² = 10.24 lies in the range (4 log n − 8 log log n ≈ 12.24)

Moment = Callable[[Any, Any, Any], Any]


def _symbols():
    sp = symbolic.sympy()
    return sp, sp.symbols("n t u w c L", positive=True)


def closed_form_step() -> tuple[bool, Any]:
    """sympy: the closed form (4/n)(uφ(u) + Q(u)) equals 2∫_t^∞ w²·p(w) dw, p the N(0, 2/n) density."""
    sp, (n, t, u, w, c, L) = _symbols()
    integral = 2 * sp.integrate(w**2 * sp.sqrt(n / (4 * sp.pi)) * sp.exp(-n * w**2 / 4), (w, t, sp.oo))
    return symbolic.zero_step((integral - exact_moment(SYM, n, t)).rewrite(sp.erf),
                              "2∫_t^∞ w² p(w) dw − (4/n)(uφ(u) + Q(u)), p the N(0, 2/n) density")


def in_u(expr: Any) -> Any:
    """``expr`` with t = u·√(2/n) substituted."""
    sp, (n, t, u, *_) = _symbols()
    return sp.simplify(expr.subs(t, u * sp.sqrt(2 / n)))


def boundary_u() -> Any:
    """u at the upper end of Theorem 4.2's range: u² = nt²/2 = 2 log n − (c/2) log log n, c = 8."""
    sp, (n, *_) = _symbols()
    return sp.sqrt(2 * sp.log(n) - sp.Rational(REGIME_C, 2) * sp.log(sp.log(n)))


def asymptotic_theorem(asymptotic: Moment, label: str) -> symbolic.SymbolicClaim:
    """The asymptotic equivalence E[w²·1{|w| > t}] ~ asymptotic as nt² → ∞, as the theorem sympy
    settles: the ratio exact/asymptotic, written in u = t√(n/2), tends to 1 as u → ∞."""
    def build() -> tuple:
        sp, (n, t, u, *_) = _symbols()
        return in_u(exact_moment(SYM, n, t) / asymptotic(SYM, n, t)), u, sp.oo, 1

    return symbolic.limit_claim(f"E[w²1{{|w|>t}}] ~ {label}", build)


def asymptotic_check(asymptotic: Moment, label: str) -> Verdict:
    """Proved when sympy shows exact/asymptotic is a function of u = t√(n/2) alone tending to 1
    as u → ∞ (that is, as nt² → ∞, whatever n and t do otherwise); refuted when the limit sympy
    computes is rigorously another number (the closed form and the n-independence holding)."""
    sp, (n, t, u, *_) = _symbols()
    theorem = asymptotic_theorem(asymptotic, label)
    lemmas = [closed_form_step(), symbolic.zero_step(sp.diff(theorem.expr, n), f"∂/∂n of exact/({label}) at fixed u")]
    verdict = symbolic.decide(theorem, "sympy: closed form, then the limit of the exact/asymptotic ratio", lemmas,
                              ratio_in_u=sp.sstr(theorem.expr))
    return with_data(verdict, limit=verdict.certificate.steps[-1].answer)


def along_range_end(name: str, expr: Callable[[Any, Any, Any], Any], expected: Any,
                    u_end: Callable[[], Any] | None = None) -> symbolic.SymbolicClaim:
    """The theorem ``lim_{n → ∞} expr(n, t) = expected`` along the upper end of Theorem 4.2's range,
    u = ``u_end()`` (default :func:`boundary_u`, nt² = 4 log n − c log log n with c = 8): a
    sequence inside the range with nt² → ∞, so an asymptotic statement over the range implies it."""
    def build() -> tuple:
        sp, (n, t, u, *_) = _symbols()
        return in_u(expr(SYM, n, t)).subs(u, (u_end or boundary_u)()), n, sp.oo, expected

    return symbolic.limit_claim(name, build)


def on_range_end_step() -> tuple[bool, Any]:
    """sympy: the path u = boundary_u() is the upper end of the range, nt² = 4 log n − c log log n."""
    sp, (n, t, u, *_) = _symbols()
    return symbolic.zero_step(in_u(n * t**2).subs(u, boundary_u()) - regime_bound(SYM, n, REGIME_C),
                              "nt² along the path (through the change of variable t = u√(2/n)), minus "
                              "4 log n − c log log n: the path is the range's upper end")


#: truncated_moment_paper's theorem: paper/exact → 1 along the range's upper end (c = 8).
PAPER_ALONG_RANGE_END = along_range_end(
    "E[w²1{|w|>t}] ~ e^(−nt²/2)·√(2nt²)/π along nt² = 4 log n − 8 log log n",
    lambda o, n, t: paper_moment(o, n, t) / exact_moment(o, n, t), 1)
#: mask_condition_ii_paper's theorem: the normalised row sums → 1 along the range's upper end (c = 8).
ROW_SUM_TO_ONE = along_range_end(
    "(n/2)·E|bw|² → 1 along nt² = 4 log n − 8 log log n", row_sum, 1)


def _mask_asymptotic() -> tuple:
    sp, (n, t, u, *_) = _symbols()
    stated = 2 * sp.sqrt(2) * sp.exp(n * t**2 / 4) / n**2
    return in_u(mask_scale_sq(SYM, n, t) * exact_moment(SYM, n, t) / stated), u, sp.oo, 1


def _row_sums_vanish() -> tuple:
    sp, (n, t, u, w, c, L) = _symbols()
    return in_u(row_sum(SYM, n, t)).subs(u, sp.sqrt(2 * sp.log(n) - c / 2 * sp.log(sp.log(n)))), n, sp.oo, 0


#: mask_row_sums' theorem: E|bw|² ~ 2√2e^{nt²/4}/n² as nt² → ∞, and the row sums → 0 along the
#: range's upper end for every c > 0 (every sequence in the range, by the monotonicity lemma).
MASK_ASYMPTOTIC = symbolic.limit_claim("E|bw|² ~ 2√2·e^(nt²/4)/n²", _mask_asymptotic)
ROW_SUMS_VANISH = symbolic.limit_claim("(n/2)·E|bw|² → 0 along nt² = 4 log n − c log log n, c > 0", _row_sums_vanish)


@obligation(
    id="rmt_jacobian.truncated_moment_referee",
    source=Source(DOC, MAJOR_2),
    statement="For w ~ N(0, 2/n), E[w²·1{|w| > t}] ~ 2t·e^{−nt²/4}/√(nπ) as nt² → ∞.",
    scope="all n, t > 0; the ratio exact/asymptotic is 1 + Q(u)/(uφ(u)) with u = t√(n/2), so the "
    "equivalence holds along every path with nt² → ∞ (sympy closed form and limit)",
    expect=Expect.HOLDS,
    lean="RmtJacobian.truncated_moment_referee",
    theorem=lambda: asymptotic_theorem(referee_moment, "2t·e^(−nt²/4)/√(nπ)"),
)
def truncated_moment_referee(ctx):
    """The referee: with w² = (2/n)N², the event |w| > t is N² > nt²/2, and
    E|w|²1{|w|>t} = (2/n)E[N²1{N² > nt²/2}] ~ (2t/√(nπ))e^{−nt²/4}.

    Method: sympy integrates w² against the N(0, 2/n) density from t to ∞ and checks the closed
    form (4/n)(uφ(u) + Q(u)), u = t√(n/2); it then rewrites the ratio exact/referee in u, checks
    that its n-derivative at fixed u is 0 (it is 1 + Q(u)/(uφ(u))) and that its limit as u → ∞
    is 1. Each step is sympy reducing to 0 or True."""
    return asymptotic_check(referee_moment, "2t·e^(−nt²/4)/√(nπ)")


def _ratio_at_width(o, v):
    return paper_moment(o, v.n, v.t) / exact_moment(o, v.n, v.t)


def _in_range(o, v):
    return o.le(v.n * v.t * v.t, regime_bound(o, v.n, REGIME_C))


WIDTH_HYPOTHESES = {
    "n ≥ 256": lambda o, v: o.ge(v.n, 256),
    "nt² ≤ 4 log n − 8 log log n": _in_range,
    "nt² ≥ 8 (u ≥ 2: the tail regime)": lambda o, v: o.ge(v.n * v.t * v.t, 8),
}

PAPER_AT_WIDTH = claim(
    "paper-moment-within-half", "n:nat t",
    lambda o, v: o.le(o.abs(_ratio_at_width(o, v) - 1), o.q(1, 2)),
    hypotheses=WIDTH_HYPOTHESES,
    terms={
        "paper": lambda o, v: paper_moment(o, v.n, v.t),
        "exact": lambda o, v: exact_moment(o, v.n, v.t),
        "paper/exact": _ratio_at_width,
    },
)


def refute_asymptotic(limits: dict[str, Any], finite: Verdict, method: str, **data: Any) -> Verdict:
    """``refuted`` only when sympy shows the limits' path u = ``boundary_u()``, read through the
    same change of variable ``in_u`` the limits use, is the upper end of the range
    (nt² = 4 log n − c log log n), every listed limit differs from 1, *and* the
    interval backend refutes the finite-width reading at the witness (independently of sympy)."""
    sp, (n, t, u, *_) = _symbols()
    on_path = symbolic.zero_step(in_u(n * t**2).subs(u, boundary_u()) - regime_bound(SYM, n, REGIME_C),
                                 "nt² along the path (through the change of variable t = u√(2/n)), minus "
                                 "4 log n − c log log n: the path is the range's upper end")
    checks = [symbolic.true_step(sp.Ne(lim, 1), f"{name} = {sp.sstr(lim)} ≠ 1") for name, lim in limits.items()]
    steps = [on_path[1]] + [s for _, s in checks] + list(finite.certificate.steps)
    shown = {name: sp.sstr(lim) for name, lim in limits.items()}
    if not on_path[0]:
        return unknown(method, "sympy did not show the limit's path lies on the upper end of the range", *steps,
                       limits=shown, **data)
    if not all(ok for ok, _ in checks):
        return unknown(method, "sympy did not show the limits differ from 1", *steps, limits=shown, **data)
    if finite.status is not Status.REFUTED:
        return unknown(method, f"interval re-check at the witness: {finite.certificate.reason}", *steps, limits=shown, **data)
    c = finite.certificate
    return refuted(method, c.witness or {}, c.sides or {}, *steps, limits=shown, witness_claim=c.data.get("claim"), **data)


def decide_asymptotic(theorem: symbolic.SymbolicClaim, limits: dict[str, Any], finite: Verdict, method: str,
                      **data: Any) -> Verdict:
    """Settle ``theorem`` (a limit along the range's upper end) by ``symbolic.decide``, with the
    path lemma (:func:`on_range_end_step`); the other ``limits`` and the finite-width re-check
    ``finite`` are recorded as data (a refutation rests on the computed limit alone)."""
    sp = symbolic.sympy()
    shown = {name: sp.sstr(lim) for name, lim in limits.items()}
    c = finite.certificate
    reading = {"status": finite.status.value, "witness": dict(c.witness or {}), "sides": dict(c.sides or {}),
               "reason": c.reason}
    verdict = symbolic.decide(theorem, method, [on_range_end_step()], **data)
    return with_data(verdict, limits=shown, finite_width_reading=reading)


@obligation(
    id="rmt_jacobian.truncated_moment_paper",
    source=Source(DOC, MAJOR_2),
    statement="For w ~ N(0, 2/n), E[w²·1{|w| > t}] ~ e^{−nt²/2}·√(2nt²)/π in Theorem 4.2's range "
    "nt² ≤ 4 log n − c log log n (the paper's expression, as the review quotes it).",
    scope="asymptotic claim refuted by sympy limits of paper/exact (→ ∞ along the upper end of the range with c = 8, "
    "→ 0 at fixed t, for the π and the √π constant alike); finite-width reading 'within 50% for n ≥ 256, u ≥ 2' "
    "refuted at n = 1024, t = 1/10 by a rigorous enclosure",
    expect=Expect.FAILS,
    lean="RmtJacobian.truncated_moment_paper_false",
    uses=("rmt_jacobian.truncated_moment_referee",),
    claims=(PAPER_AT_WIDTH,),
    theorem=lambda: PAPER_ALONG_RANGE_END,
)
def truncated_moment_paper(ctx):
    """The paper's expression (as quoted in major comment 2) uses the exponent −nt²/2, the exponent
    of N(0, 1/n) weights; for N(0, 2/n) it is −nt²/4. Its ratio to the true moment is
    n·φ(u)·(const)/(1 + Q(u)/(uφ(u))): it depends on n at fixed u.

    Method: sympy takes the limit of paper/exact (i) along the upper end of the range,
    u² = 2 log n − 4 log log n (c = 8; nt² → ∞, inside the range), where it is ∞, and (ii) at
    fixed t > 0, where it is 0; the same for the constant √π in place of π (the constant for which
    the paper's mask gives 2/n). A limit ≠ 1 along a sequence inside the range refutes the
    asymptotic claim. Independently of sympy, the interval backend encloses paper/exact at the
    witness n = 1024, t = 1/10 (in the range, u ≈ 2.26) and shows the relative error exceeds 1/2
    (paper/exact ≈ 27).

    Theorem (declared): lim paper/exact = 1 along the range's upper end (:data:`PAPER_ALONG_RANGE_END`),
    which the statement implies; ``symbolic.decide`` refutes it with the computed limit ∞ (re-checked
    against the theorem by recomputing it). The other limits and the finite-width enclosure at
    n = 1024, t = 1/10 (a reading, not the statement) are recorded as data.

    Survives mutation: return o.le(v.n * v.t * v.t, regime_bound(o, v.n, REGIME_C)): the witness lies strictly inside the range (nt² = 10.24 < 12.24), so the strict hypothesis holds there too
    Survives mutation: o.le(o.abs(_ratio_at_width(o, v) - 1), o.q(1, 2)): paper/exact ≈ 27 at the witness, so the strict form is false too
    """
    sp, (n, t, u, *_) = _symbols()
    exact = exact_moment(SYM, n, t)
    limits = {}
    for label, expr in (("π", paper_moment), ("√π", paper_moment_sqrt_pi)):
        ratio = expr(SYM, n, t) / exact
        limits[f"lim paper({label})/exact along u² = 2 log n − 4 log log n"] = sp.limit(
            in_u(ratio).subs(u, boundary_u()), n, sp.oo)
        limits[f"lim paper({label})/exact at fixed t"] = sp.limit(ratio, n, sp.oo)
    finite = interval.prove_on(PAPER_AT_WIDTH, WITNESS, where="at n = 1024, t = 1/10")
    return decide_asymptotic(PAPER_ALONG_RANGE_END, limits, finite, "sympy limit of paper/exact along the range's upper end",
                             reading="'~' read at finite width as |paper/exact − 1| ≤ 1/2 for n ≥ 256 in the tail regime u ≥ 2")


@obligation(
    id="rmt_jacobian.mask_row_sums",
    source=Source(DOC, MAJOR_2),
    statement="With the Theorem 4.2 mask b = c·1{|w| > t}, c² = √(2π)e^{nt²/2}/(t n^{3/2}), "
    "E|bw|² ~ 2√2·e^{nt²/4}/n², and along every sequence with nt² → ∞ and nt² ≤ 4 log n − c log log n "
    "(c > 0) the normalised row sums (n/2)·E|bw|² tend to 0, not 1: condition (ii) fails.",
    scope="symbolic in n, t and c > 0 (sympy identities and limits); the monotonicity step is in u = t√(n/2) > 0",
    expect=Expect.HOLDS,
    lean="RmtJacobian.mask_row_sums_vanish",
    uses=("rmt_jacobian.truncated_moment_referee",),
    theorem=lambda: (MASK_ASYMPTOTIC, ROW_SUMS_VANISH),
)
def mask_row_sums(ctx):
    """Major comment 2: "Using the mask b defined in the theorem, one obtains
    E|bw|² ~ 2√2 e^{nt²/4}/n². Under nt² ≤ 4 log n − c log log n, this tends to 0, not to 2/n."

    Reconstruction: the mask constant is the one the source summary quotes for Theorem 4.2,
    (√(2π)e^{nt²/2}/(t n^{3/2}))^{1/2}; sympy confirms it reproduces the review's 2√2e^{nt²/4}/n²
    exactly from the referee's asymptotic. Row sums are normalised by the unpruned variance 2/n.

    Proof, each step by sympy: (1) c²·(referee's asymptotic) = 2√2e^{nt²/4}/n²; (2) the
    normalised row sum is ρ = A(n, u)·r(u) with A = (√2/n)e^{u²/2} and r = exact/referee;
    (3) r(u) → 1 as u → ∞ (the referee's obligation); (4) ∂A/∂u > 0, so on the range A is at most
    its value at u² = 2 log n − (c/2) log log n, which (5) equals √2(log n)^{−c/4} and (6) tends to 0
    for every c > 0. Hence ρ_n ≤ √2(log n)^{−c/4}·r(u_n) → 0·1 = 0.

    Theorem (declared): the asymptotic E|bw|² ~ 2√2e^{nt²/4}/n² (the ratio, a function of u alone,
    → 1 as u → ∞) and lim ρ = 0 along the range's upper end for symbolic c > 0, each settled by
    ``symbolic.decide``; "every sequence in the range" is carried by steps (2)–(6), the lemma steps
    of the second limit (the claim language states one limit, not a bound over all sequences).

    Survives mutation: sp.diff(a, u) > 0: the non-strict inequality is weaker and still holds
    """
    sp, (n, t, u, w, c, L) = _symbols()
    a = sp.sqrt(2) / n * sp.exp(u**2 / 2)
    r = in_u(exact_moment(SYM, n, t) / referee_moment(SYM, n, t))
    a_boundary = a.subs(u, sp.sqrt(2 * sp.log(n) - c / 2 * sp.log(sp.log(n))))
    bound = sp.sqrt(2) * sp.log(n) ** (-c / 4)
    checks = [
        symbolic.zero_step(mask_scale_sq(SYM, n, t) * referee_moment(SYM, n, t) - 2 * sp.sqrt(2) * sp.exp(n * t**2 / 4) / n**2,
                           "c²·2t e^(−nt²/4)/√(nπ) − 2√2 e^(nt²/4)/n²"),
        symbolic.zero_step(in_u(row_sum(SYM, n, t)) - a * r, "(n/2)·c²·E[w²1{|w|>t}] − (√2/n)e^(u²/2)·exact/referee"),
        symbolic.limit_step(r, u, sp.oo, 1, what="lim_(u→∞) exact/referee = 1"),
        symbolic.true_step(sp.diff(a, u) > 0, "∂/∂u (√2/n)e^(u²/2) > 0"),
        symbolic.zero_step(sp.expand((a_boundary - bound).subs(n, sp.exp(L))),
                           "A at u² = 2 log n − (c/2) log log n, minus √2 (log n)^(−c/4)  (n = e^L)"),
        symbolic.limit_step(bound, n, sp.oo, 0, what="lim_(n→∞) √2 (log n)^(−c/4) = 0 for c > 0"),
    ]
    independent = symbolic.zero_step(sp.diff(MASK_ASYMPTOTIC.expr, n), "∂/∂n of E|bw|²/(2√2e^(nt²/4)/n²) at fixed u")
    verdict = all_of("sympy identities and limits", {
        "E|bw|² ~ 2√2e^(nt²/4)/n²": symbolic.decide(MASK_ASYMPTOTIC, "sympy limit", [checks[0], independent]),
        "row sums → 0": symbolic.decide(ROW_SUMS_VANISH, "sympy limit", checks),
    }, lemmas=True)
    return with_data(verdict, finite_width_row_sums=boundary_row_sums())


def boundary_row_sums(widths: tuple[int, ...] = (256, 512, 1024, 2048)) -> dict[str, str]:
    """Rigorous enclosures of (n/2)E|bw|² at t = 1/10 and at the float nearest the upper end of the range."""
    out = {}
    with interval.precision(interval.DEFAULT_PREC):
        for n in widths:
            t = range_end_threshold(n)
            value = row_sum(interval.OPS, interval.Interval.of(n), interval.Interval.of(t))
            out[f"n={n}, t={t!r}"] = enclosure(value)
        out["n=1024, t=1/10"] = enclosure(row_sum(interval.OPS, interval.Interval.of(1024), interval.Interval.of("1/10")))
    return out


def range_end_threshold(n: int, c: int = REGIME_C) -> float:
    """The float t with nt² = 4 log n − c log log n (the upper end of Theorem 4.2's range)."""
    import math

    return math.sqrt((4 * math.log(n) - c * math.log(math.log(n))) / n)


def _row_sum_at(o, v):
    return row_sum(o, v.n, v.t)


ROW_SUM_AT_WIDTH = claim(
    "row-sum-within-half", "n:nat t",
    lambda o, v: o.le(o.abs(_row_sum_at(o, v) - 1), o.q(1, 2)),
    hypotheses=WIDTH_HYPOTHESES,
    terms={"row_sum": _row_sum_at, "mask_scale_sq": lambda o, v: mask_scale_sq(o, v.n, v.t)},
)


@obligation(
    id="rmt_jacobian.mask_condition_ii_paper",
    source=Source(DOC, MAJOR_2),
    statement="The paper's claim: with the Theorem 4.2 mask, the normalised row sums (n/2)·E|bw|² tend to 1 "
    "for nt² ≤ 4 log n − c log log n, so condition (ii) of Theorem 3.1 holds.",
    scope="refuted by the sympy limit 0 along the upper end of the range (c = 8); finite-width reading "
    "'within 50% of 1 for n ≥ 256, u ≥ 2' refuted at n = 1024, t = 1/10 by a rigorous enclosure",
    expect=Expect.FAILS,
    lean="RmtJacobian.mask_condition_ii_paper_false",
    uses=("rmt_jacobian.mask_row_sums",),
    claims=(ROW_SUM_AT_WIDTH,),
    theorem=lambda: ROW_SUM_TO_ONE,
)
def mask_condition_ii_paper(ctx):
    """What Theorem 4.2's proof asserts and major comment 2 denies. Method: sympy takes the
    limit of the exact normalised row sum along u² = 2 log n − 4 log log n (inside the range,
    nt² → ∞) and gets 0 ≠ 1; independently, the interval backend encloses the row sum at
    n = 1024, t = 1/10 (≈ 0.021) and shows it is not within 1/2 of 1.

    Theorem (declared): the row sums → 1 along the range's upper end (:data:`ROW_SUM_TO_ONE`),
    which the paper's claim implies; ``symbolic.decide`` refutes it with the computed limit 0. The
    finite-width enclosure (a reading, not the statement) is recorded as data.

    Survives mutation: o.ge(v.n * v.t * v.t, 8): the witness has nt² = 10.24 > 8, so it satisfies the strict hypothesis too and still refutes
    Survives mutation: o.le(o.abs(_row_sum_at(o, v) - 1), o.q(1, 2)): the row sum at the witness (≈ 0.021) is within 1/2 neither of 1 nor of 2, strictly or not (refuted by the enclosure)
    """
    sp, (n, t, u, *_) = _symbols()
    limits = {"lim (n/2)E|bw|² along u² = 2 log n − 4 log log n": sp.limit(in_u(row_sum(SYM, n, t)).subs(u, boundary_u()), n, sp.oo)}
    finite = interval.prove_on(ROW_SUM_AT_WIDTH, WITNESS, where="at n = 1024, t = 1/10")
    return decide_asymptotic(ROW_SUM_TO_ONE, limits, finite, "sympy limit of the row sum along the range's upper end",
                             reading="'→ 1' read at finite width as |(n/2)E|bw|² − 1| ≤ 1/2 for n ≥ 256 in the tail regime u ≥ 2")
