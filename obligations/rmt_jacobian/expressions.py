"""The review's formulas, written once over an ops namespace, and the functions they need.

The engine's ops namespaces have no ``exp``, ``log``, ``erfc`` or π. The helpers here add
them by dispatching on the namespace: the interval backend gets rigorous enclosures
(:class:`checker.backends.interval.Interval` methods, python-flint's arb for π), the sympy
namespace :data:`SYM` gets sympy's functions, and any other backend (exact rationals, z3)
cannot decide (``CannotDecide``). So one function, e.g. :func:`exact_moment`, gives sympy the
expression whose limit it takes and gives the interval backend the enclosure at a witness.

Notation: ``w ~ N(0, 2/n)``, threshold ``t``, standardised threshold ``u = t·√(n/2)``
(``|w| > t`` iff ``|N| > u`` for ``N ~ N(0, 1)``), ``φ`` and ``Q = 1 − Φ`` the standard normal
density and upper tail.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from checker.backends import CannotDecide

PI_PREC_BITS = 256


class SympyOps:
    """An ops namespace whose values are sympy expressions (for limits and identities)."""

    name = "sympy"

    @staticmethod
    def _sp():
        from checker.backends import symbolic

        return symbolic.sympy()

    def q(self, num: int, den: int = 1) -> Any:
        return self._sp().Rational(num, den)

    def sqrt(self, x: Any) -> Any:
        return self._sp().sqrt(x)

    def abs(self, x: Any) -> Any:
        return self._sp().Abs(x)

    def le(self, a: Any, b: Any) -> Any:
        return self._sp().Le(a, b)

    def lt(self, a: Any, b: Any) -> Any:
        return self._sp().Lt(a, b)

    def ge(self, a: Any, b: Any) -> Any:
        return self._sp().Ge(a, b)

    def gt(self, a: Any, b: Any) -> Any:
        return self._sp().Gt(a, b)

    def eq(self, a: Any, b: Any) -> Any:
        return self._sp().Eq(a, b)

    def and_(self, *bs: Any) -> Any:
        return self._sp().And(*bs)

    def or_(self, *bs: Any) -> Any:
        return self._sp().Or(*bs)

    def not_(self, b: Any) -> Any:
        return self._sp().Not(b)

    def implies(self, a: Any, b: Any) -> Any:
        return self._sp().Implies(a, b)


SYM = SympyOps()


def _backend(o: Any) -> str:
    return getattr(o, "name", type(o).__name__)


def _interval(x: Any) -> Any:
    from checker.backends.interval import Interval

    return Interval.of(x)


def exp(o: Any, x: Any) -> Any:
    match _backend(o):
        case "interval":
            return _interval(x).exp()
        case "sympy":
            return SYM._sp().exp(x)
    raise CannotDecide(f"exp is not interpreted by the {_backend(o)} backend; use intervals or sympy")


def log(o: Any, x: Any) -> Any:
    match _backend(o):
        case "interval":
            return _interval(x).log()
        case "sympy":
            return SYM._sp().log(x)
    raise CannotDecide(f"log is not interpreted by the {_backend(o)} backend; use intervals or sympy")


def erfc(o: Any, x: Any) -> Any:
    match _backend(o):
        case "interval":
            return _interval(x).erfc()
        case "sympy":
            return SYM._sp().erfc(x)
    raise CannotDecide(f"erfc is not interpreted by the {_backend(o)} backend; use intervals or sympy")


def pi(o: Any) -> Any:
    match _backend(o):
        case "interval":
            return interval_pi()
        case "sympy":
            return SYM._sp().pi
    raise CannotDecide(f"π is not interpreted by the {_backend(o)} backend; use intervals or sympy")


def interval_pi() -> Any:
    """A rigorous enclosure of π: the endpoints of python-flint's arb ball, read exactly."""
    import flint

    old = flint.ctx.prec
    flint.ctx.prec = PI_PREC_BITS
    try:
        ball = flint.arb.pi()
        ends = []
        for point in (ball.lower(), ball.upper()):
            man, e = point.man_exp()
            ends.append(Fraction(int(man)) * Fraction(2) ** int(e))
    finally:
        flint.ctx.prec = old
    return _interval((ends[0], ends[1]))


def enclosure(x: Any, digits: int = 12) -> str:
    """An interval as ``[lo, hi]`` with decimal endpoints rounded outward (still an enclosure)."""
    from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal

    def dec(q: Fraction, rounding: str) -> str:
        # Decimal(int) is exact and Context.divide rounds once, in the given direction.
        return str(Context(prec=digits, rounding=rounding).divide(Decimal(q.numerator), Decimal(q.denominator)))

    return f"[{dec(x.lo, ROUND_FLOOR)}, {dec(x.hi, ROUND_CEILING)}]"


# --- the truncated-Gaussian second moment ------------------------------------------------

def standardised(o: Any, n: Any, t: Any) -> Any:
    """u = t·√(n/2): |w| > t for w ~ N(0, 2/n) is |N| > u."""
    return t * o.sqrt(n / 2)


def density(o: Any, u: Any) -> Any:
    """φ(u), the standard normal density."""
    return exp(o, -(u * u) / 2) / o.sqrt(2 * pi(o))


def upper_tail(o: Any, u: Any) -> Any:
    """Q(u) = P(N > u) = erfc(u/√2)/2."""
    return erfc(o, u / o.sqrt(2)) / 2


def exact_moment(o: Any, n: Any, t: Any) -> Any:
    """E[w²·1{|w| > t}] for w ~ N(0, 2/n), in closed form: (4/n)·(u·φ(u) + Q(u))."""
    u = standardised(o, n, t)
    return 4 / n * (u * density(o, u) + upper_tail(o, u))


def referee_moment(o: Any, n: Any, t: Any) -> Any:
    """The referee's asymptotic: 2t·e^{−nt²/4}/√(nπ)."""
    return 2 * t * exp(o, -(n * t * t) / 4) / o.sqrt(n * pi(o))


def paper_moment(o: Any, n: Any, t: Any) -> Any:
    """The paper's expression as the review quotes it: e^{−nt²/2}·√(2nt²)/π."""
    return exp(o, -(n * t * t) / 2) * o.sqrt(2 * n * t * t) / pi(o)


def paper_moment_sqrt_pi(o: Any, n: Any, t: Any) -> Any:
    """The same with √π in place of π: the constant for which the paper's mask gives 2/n."""
    return exp(o, -(n * t * t) / 2) * o.sqrt(2 * n * t * t) / o.sqrt(pi(o))


def mask_scale_sq(o: Any, n: Any, t: Any) -> Any:
    """The square of the Theorem 4.2 mask constant: √(2π)·e^{nt²/2}/(t·n^{3/2})."""
    return o.sqrt(2 * pi(o)) * exp(o, n * t * t / 2) / (t * n * o.sqrt(n))


def row_sum(o: Any, n: Any, t: Any) -> Any:
    """The normalised row sum (n/2)·E|b·w|² under the Theorem 4.2 mask b = c·1{|w| > t}.

    Normalised so that the unpruned weights (variance 2/n) give exactly 1."""
    return n / 2 * mask_scale_sq(o, n, t) * exact_moment(o, n, t)


def regime_bound(o: Any, n: Any, c: Any) -> Any:
    """4·log n − c·log log n, the upper end of Theorem 4.2's range for nt²."""
    return 4 * log(o, n) - c * log(o, log(o, n))


# --- the minor comment's numbers ---------------------------------------------------------

def log_power_ratio(o: Any, x: Any, power: int, base: Any = None) -> Any:
    """log^power(x)/x (natural log unless a base is given)."""
    lg = log(o, x) if base is None else log(o, x) / log(o, base)
    out = lg
    for _ in range(power - 1):
        out = out * lg
    return out / x
