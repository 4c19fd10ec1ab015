"""The minor comment on Section 4.1: the numbers log⁴(256)/256 and log¹⁰(256)/256."""

from __future__ import annotations

from fractions import Fraction

from checker import Expect, Source, obligation
from checker.backends import interval
from checker.claims import claim
from checker.kernel.verdicts import all_of, with_data
from obligations.rmt_jacobian.expressions import enclosure, log_power_ratio

DOC = "001_0878a03787123b55.txt"
MINOR = "referee report, minor comment on Section 4.1, page 9"
RELATIVE = Fraction(1, 20)  # "≈" read as relative error at most 5%
WIDTH = {"n": 256}  # the experimental width of Section 4.1


def approx_claim(power: int, stated: Fraction, tolerance: Fraction, reading: str):
    """log^power(n)/n ≈ stated at the experimental width n = 256 (a hypothesis, so the claim is the
    remark itself and no other width is a witness against it), '≈' read as |value − stated| ≤
    tolerance (natural log)."""

    def value(o, v):
        return log_power_ratio(o, v.n, power)

    return claim(
        f"log{power}-approx-{reading}", "n",
        lambda o, v: o.le(o.abs(value(o, v) - o.q(stated.numerator, stated.denominator)),
                          o.q(tolerance.numerator, tolerance.denominator)),
        hypotheses={"n = 256 (the experimental width)": lambda o, v: o.eq(v.n, WIDTH["n"])},
        terms={"value": value, "stated": lambda o, v: o.q(stated.numerator, stated.denominator)},
    )


LOG4_STATED = Fraction(369, 100)
LOG4_RELATIVE = approx_claim(4, LOG4_STATED, RELATIVE * LOG4_STATED, "relative-5pc")
LOG4_ROUNDED = approx_claim(4, LOG4_STATED, Fraction(1, 200), "rounds-to-2-decimals")
LOG10_STATED = Fraction(9, 1000)
LOG10_RELATIVE = approx_claim(10, LOG10_STATED, RELATIVE * LOG10_STATED, "relative-5pc")


@obligation(
    id="rmt_jacobian.log4_remark",
    source=Source(DOC, MINOR),
    statement="log⁴(256)/256 ≈ 3.69 (natural log), '≈' read both as relative error ≤ 5% and as 'rounds to 3.69'.",
    scope="the one number, by a rigorous interval enclosure (arb log)",
    expect=Expect.HOLDS,
    lean="RmtJacobian.log4_remark",
    claims=(LOG4_RELATIVE, LOG4_ROUNDED),
    theorem=lambda: (LOG4_RELATIVE, LOG4_ROUNDED),
)
def log4_remark(ctx):
    """The referee: "log⁴(256)/256 is about 3.69, so the stated asymptotic condition
    1 − s_n ≫ log⁴(n)/n is not satisfied at the experimental width n = 256". With the natural
    log the value is ≈ 3.6937 (with log₂ it would be 16), so the referee's log is natural.

    Method: python-flint's arb encloses log 256; the interval backend evaluates
    log⁴(256)/256 and decides |value − 3.69| ≤ 0.1845 (5%) and ≤ 0.005 (rounding) rigorously.
    The enclosure also shows the value exceeds 1, the referee's point (a fraction 1 − s ≤ 1
    cannot be ≫ 3.69).

    Survives mutation: RELATIVE = Fraction(1, 20): a looser tolerance states a weaker reading that holds as well; the rounding reading (tolerance 1/200) is the tight one
    Survives mutation: WIDTH = {: log⁴(n)/n moves by about 0.004 from n = 256 to 257 (it decreases past n = e⁴), so 3.69 is still within 1/200 there
    Survives mutation: o.le(o.abs(value(o, v) - o.q(stated.numerator, stated.denominator)),: the value (≈ 3.6937) is not at either tolerance's edge, so the strict form holds too
    """
    verdict = all_of("rigorous interval enclosure of log⁴(256)/256", {
        "relative error ≤ 5%": interval.prove_on(LOG4_RELATIVE, WIDTH, where="at n = 256"),
        "rounds to 3.69": interval.prove_on(LOG4_ROUNDED, WIDTH, where="at n = 256"),
    })
    return with_data(verdict, readings=readings(4))


@obligation(
    id="rmt_jacobian.log10_remark",
    source=Source(DOC, MINOR),
    statement="log¹⁰(256)/256 ≈ 0.009 (natural log), '≈' read as relative error ≤ 5%.",
    scope="the one number, by a rigorous interval enclosure (arb log); the enclosures for base 2 and base 10 are "
    "recorded too and are also far from 0.009",
    expect=Expect.FAILS,
    lean="RmtJacobian.log10_remark_false",
    claims=(LOG10_RELATIVE,),
    theorem=lambda: LOG10_RELATIVE,
)
def log10_remark(ctx):
    """The number the paper displays and the referee calls unclear: "log¹⁰(256)/256 ≈ 0.009".
    With the natural log (the log of the referee's companion number 3.69) the value is
    ≈ 1.07·10⁵, not 0.009; with log₂ it is 4194304 and with log₁₀ about 25.6, so no base rescues
    the tenth power. (Recorded, not part of the status: log₁₀(256)/256 ≈ 0.0094, a *first*
    power of a base-10 log, is the reading that gives 0.009; a sub- rather than superscript 10.)

    Method: a rigorous interval enclosure of log¹⁰(256)/256 that lies entirely outside
    [0.009·0.95, 0.009·1.05]; the refutation's sides are the enclosure and the stated 9/1000.

    Survives mutation: RELATIVE = Fraction(1, 20): the value ≈ 1.07·10⁵ is outside any nearby tolerance around 0.009, so a looser one is false as well
    Survives mutation: o.le(o.abs(value(o, v) - o.q(stated.numerator, stated.denominator)),: the strict form of a false bound is false too (the same enclosure violates it)
    Survives mutation: LOG10_STATED = Fraction(9, 1000): the value ≈ 1.07·10⁵ is far from 9/1000 and from any nearby stated number
    """
    verdict = interval.prove_on(LOG10_RELATIVE, WIDTH, where="at n = 256")
    return with_data(verdict, readings=readings(10), reading="'≈' read as relative error at most 5%")


def readings(power: int) -> dict[str, str]:
    """Rigorous enclosures of log^power(256)/256 in bases e, 2 and 10, and of log₁₀(256)/256."""
    o = interval.OPS
    with interval.precision(interval.DEFAULT_PREC):
        out = {f"log_{name}^{power}(256)/256": enclosure(log_power_ratio(o, o.q(256), power, base))
               for name, base in (("e", None), ("2", o.q(2)), ("10", o.q(10)))}
        out["log_10(256)/256 (first power)"] = enclosure(log_power_ratio(o, o.q(256), 1, o.q(10)))
    return out
