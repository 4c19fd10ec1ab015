"""Rigorous interval arithmetic with three-valued comparisons.

Arithmetic (``+ − × ÷``, ``sqrt``) uses mpmath's ``iv`` context, which rounds outward.
Transcendentals (``exp``, ``log``, ``erf``, ``erfc``, ``Phi``) use python-flint's ``arb`` balls:
mpmath's ``iv.exp`` can return an interval that misses the true value (mpmath issue 1181) and
``iv.erf`` does not converge, so neither is ever used here. Conversions between the two
are exact (endpoints are moved as mantissa/exponent pairs) or rounded outward.

A comparison of overlapping intervals is :attr:`Tri.UNKNOWN`; it is never silently false
(``bool(Tri.UNKNOWN)`` raises).
"""

from __future__ import annotations

import enum
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Iterator, Mapping

from checker.backends import CannotDecide
from checker.claims import Claim
from checker.model import Grade, Verdict
from checker.verdicts import proved, refuted, timed, unknown

NAME = "interval"
DEFAULT_PREC = 113


class Tri(enum.Enum):
    """Kleene three-valued truth."""

    TRUE = "true"
    FALSE = "false"
    UNKNOWN = "unknown"

    def __bool__(self) -> bool:
        raise TypeError("a three-valued truth has no plain boolean value; compare with Tri.TRUE")

    @staticmethod
    def of(b: bool) -> Tri:
        return Tri.TRUE if b else Tri.FALSE


def _mp():
    import mpmath

    return mpmath


def _flint():
    import flint

    return flint


def version() -> str:
    return f"mpmath {_mp().__version__} iv + python-flint {_flint().__version__} arb"


@contextmanager
def precision(bits: int) -> Iterator[None]:
    iv = _mp().iv
    old = iv.prec
    iv.prec = bits
    try:
        yield
    finally:
        iv.prec = old


def _raw_to_fraction(raw: tuple) -> Fraction:
    p, q = _mp().libmp.to_rational(raw)
    return Fraction(p, q)


class Interval:
    """A closed real interval with outward-rounded endpoints (wraps an ``iv.mpf``)."""

    __slots__ = ("v",)

    def __init__(self, v: Any) -> None:
        object.__setattr__(self, "v", v)

    # construction -----------------------------------------------------------------
    @classmethod
    def of(cls, x: Any) -> Interval:
        """The tightest interval around an exact number (int, Fraction, str, float)."""
        if isinstance(x, Interval):
            return x
        iv = _mp().iv
        if isinstance(x, bool):
            raise TypeError("a boolean is not a number")
        if isinstance(x, int):
            return cls(iv.mpf(x))
        if isinstance(x, Fraction):
            return cls(iv.mpf(x.numerator) / iv.mpf(x.denominator))
        if isinstance(x, float):
            return cls(iv.mpf(x))  # a float is an exact binary value
        if isinstance(x, str):
            return cls.of(Fraction(x))
        if isinstance(x, tuple) and len(x) == 2:
            lo, hi = cls.of(x[0]), cls.of(x[1])
            return cls(iv.mpf([lo.v.a, hi.v.b]))
        raise TypeError(f"cannot make an interval from {x!r}")

    @property
    def lo(self) -> Fraction:
        return _raw_to_fraction(self.v._mpi_[0])

    @property
    def hi(self) -> Fraction:
        return _raw_to_fraction(self.v._mpi_[1])

    @property
    def width(self) -> Fraction:
        return self.hi - self.lo

    def contains(self, x: Any) -> bool:
        x = Fraction(x) if not isinstance(x, Fraction) else x
        return self.lo <= x <= self.hi

    def hull(self, other: Interval) -> Interval:
        iv = _mp().iv
        return Interval(iv.mpf([min(self.v.a, other.v.a), max(self.v.b, other.v.b)]))

    def __repr__(self) -> str:
        return f"Interval([{float(self.lo)!r}, {float(self.hi)!r}])"

    def describe(self, digits: int = 12) -> str:
        """The endpoints in decimal, for display only (rounded to nearest; the certificate's
        decisions are made on the exact binary endpoints)."""
        to_str = _mp().libmp.to_str
        lo, hi = self.v._mpi_
        return f"[{to_str(lo, digits)}, {to_str(hi, digits)}]"

    # arithmetic ------------------------------------------------------------------
    def _lift(self, other: Any) -> Any:
        return other.v if isinstance(other, Interval) else Interval.of(other).v

    def __add__(self, o: Any) -> Interval:
        return Interval(self.v + self._lift(o))

    __radd__ = __add__

    def __sub__(self, o: Any) -> Interval:
        return Interval(self.v - self._lift(o))

    def __rsub__(self, o: Any) -> Interval:
        return Interval(self._lift(o) - self.v)

    def __mul__(self, o: Any) -> Interval:
        return Interval(self.v * self._lift(o))

    __rmul__ = __mul__

    def __truediv__(self, o: Any) -> Interval:
        d = self._lift(o)
        if d.a <= 0 <= d.b:
            raise CannotDecide("interval division by an interval containing zero")
        return Interval(self.v / d)

    def __rtruediv__(self, o: Any) -> Interval:
        return Interval.of(o) / self

    def __neg__(self) -> Interval:
        return Interval(-self.v)

    def __pow__(self, n: int) -> Interval:
        if not isinstance(n, int) or n < 0:
            raise TypeError("only non-negative integer powers are supported")
        out: Interval = Interval.of(1)
        for _ in range(n):
            out = out * self
        if n % 2 == 0 and n > 0:  # even powers are non-negative; tighten the lower end
            out = Interval(_mp().iv.mpf([max(out.v.a, 0), out.v.b]))
        return out

    # rigorous functions ------------------------------------------------------------
    def sqrt(self) -> Interval:
        if self.v.a < 0:
            raise CannotDecide("sqrt of an interval reaching below zero")
        return Interval(_mp().iv.sqrt(self.v))

    def _via_arb(self, fn: str) -> Interval:
        flint = _flint()
        iv = _mp().iv
        old = flint.ctx.prec
        flint.ctx.prec = 2 * iv.prec + 64
        try:
            ball = _raw_to_arb(self.v._mpi_[0]).union(_raw_to_arb(self.v._mpi_[1]))
            out = getattr(ball, fn)()
            if not out.is_finite():
                raise CannotDecide(f"arb {fn} of {self.describe()} is not finite")
            return Interval(iv.make_mpf((_arb_to_raw(out.lower(), "f"), _arb_to_raw(out.upper(), "c"))))
        finally:
            flint.ctx.prec = old

    def exp(self) -> Interval:
        return self._via_arb("exp")

    def log(self) -> Interval:
        return self._via_arb("log")

    def erf(self) -> Interval:
        return self._via_arb("erf")

    def erfc(self) -> Interval:
        return self._via_arb("erfc")

    def Phi(self) -> Interval:
        """Standard normal CDF, computed as erfc(−x/√2)/2 (no cancellation in the tails)."""
        return (-self / Interval.of(2).sqrt()).erfc() / 2


def _raw_to_arb(raw: tuple) -> Any:
    flint = _flint()
    mp = _mp()
    if raw in (mp.libmp.finf, mp.libmp.fninf) or raw == mp.libmp.fnan:
        raise CannotDecide("infinite interval endpoint")
    p, q = mp.libmp.to_rational(raw)
    return flint.arb(flint.fmpz(p)) / flint.arb(flint.fmpz(q))  # q is a power of two: exact


def _arb_to_raw(point: Any, rounding: str) -> tuple:
    man, exp = point.man_exp()
    return _mp().libmp.from_man_exp(int(man), int(exp), _mp().iv.prec, rounding)


def _interval(x: Any) -> Interval:
    return x if isinstance(x, Interval) else Interval.of(x)


class IntervalOps:
    """The ops namespace over intervals; comparisons and connectives are three-valued."""

    name = NAME

    @staticmethod
    def q(num: int, den: int = 1) -> Interval:
        return Interval.of(Fraction(num, den))

    @staticmethod
    def relu(x: Any) -> Interval:
        x = _interval(x)
        iv = _mp().iv
        return Interval(iv.mpf([max(x.v.a, 0), max(x.v.b, 0)]))

    @staticmethod
    def abs(x: Any) -> Interval:
        return Interval(abs(_interval(x).v))

    @staticmethod
    def max(*xs: Any) -> Interval:
        ivs = [_interval(x) for x in xs]
        iv = _mp().iv
        return Interval(iv.mpf([max(i.v.a for i in ivs), max(i.v.b for i in ivs)]))

    @staticmethod
    def min(*xs: Any) -> Interval:
        ivs = [_interval(x) for x in xs]
        iv = _mp().iv
        return Interval(iv.mpf([min(i.v.a for i in ivs), min(i.v.b for i in ivs)]))

    @staticmethod
    def ite(c: Tri, a: Any, b: Any) -> Interval:
        match c:
            case Tri.TRUE:
                return _interval(a)
            case Tri.FALSE:
                return _interval(b)
            case Tri.UNKNOWN:
                return _interval(a).hull(_interval(b))

    @staticmethod
    def sqrt(x: Any) -> Interval:
        return _interval(x).sqrt()

    @staticmethod
    def floor(x: Any) -> Interval:
        import math

        x = _interval(x)
        return Interval.of((math.floor(x.lo), math.floor(x.hi)))

    @staticmethod
    def ceil(x: Any) -> Interval:
        import math

        x = _interval(x)
        return Interval.of((math.ceil(x.lo), math.ceil(x.hi)))

    @staticmethod
    def pow(x: Any, n: int) -> Interval:
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"o.pow takes an integer exponent, got {n!r}")
        p = _interval(x) ** abs(n)
        return p if n >= 0 else Interval.of(1) / p

    @staticmethod
    def exp(x: Any) -> Interval:
        return _interval(x).exp()

    @staticmethod
    def log(x: Any) -> Interval:
        x = _interval(x)
        if x.v.a <= 0:
            raise CannotDecide(f"log of an interval reaching to or below zero ({x.describe()})")
        return x.log()

    @staticmethod
    def le(a: Any, b: Any) -> Tri:
        a, b = _interval(a), _interval(b)
        if a.v.b <= b.v.a:
            return Tri.TRUE
        if a.v.a > b.v.b:
            return Tri.FALSE
        return Tri.UNKNOWN

    @staticmethod
    def lt(a: Any, b: Any) -> Tri:
        a, b = _interval(a), _interval(b)
        if a.v.b < b.v.a:
            return Tri.TRUE
        if a.v.a >= b.v.b:
            return Tri.FALSE
        return Tri.UNKNOWN

    @classmethod
    def ge(cls, a: Any, b: Any) -> Tri:
        return cls.le(b, a)

    @classmethod
    def gt(cls, a: Any, b: Any) -> Tri:
        return cls.lt(b, a)

    @staticmethod
    def eq(a: Any, b: Any) -> Tri:
        a, b = _interval(a), _interval(b)
        if a.v.b < b.v.a or b.v.b < a.v.a:
            return Tri.FALSE
        if a.v.a == a.v.b == b.v.a == b.v.b:
            return Tri.TRUE
        return Tri.UNKNOWN

    @classmethod
    def ne(cls, a: Any, b: Any) -> Tri:
        return cls.not_(cls.eq(a, b))

    @staticmethod
    def and_(*bs: Tri) -> Tri:
        if any(b is Tri.FALSE for b in bs):
            return Tri.FALSE
        if all(b is Tri.TRUE for b in bs):
            return Tri.TRUE
        return Tri.UNKNOWN

    @staticmethod
    def or_(*bs: Tri) -> Tri:
        if any(b is Tri.TRUE for b in bs):
            return Tri.TRUE
        if all(b is Tri.FALSE for b in bs):
            return Tri.FALSE
        return Tri.UNKNOWN

    @staticmethod
    def not_(b: Tri) -> Tri:
        return {Tri.TRUE: Tri.FALSE, Tri.FALSE: Tri.TRUE, Tri.UNKNOWN: Tri.UNKNOWN}[b]

    @classmethod
    def implies(cls, a: Tri, b: Tri) -> Tri:
        return cls.or_(cls.not_(a), b)


OPS = IntervalOps()


def decide(claim: Claim, box: Mapping[str, Any], prec: int = DEFAULT_PREC) -> tuple[Tri, dict[str, Tri], Tri, dict[str, Interval]]:
    """Evaluate ``claim`` over a box (each variable a number or a ``(lo, hi)`` pair).

    Returns the truth of the whole implication, of each hypothesis, of the conclusion, and
    enclosures of the named terms. ``TRUE`` means true at every point of the box.
    """
    with precision(prec):
        v = claim.env({k: Interval.of(x) for k, x in box.items() if k in claim.variables})
        hyps = claim.hypothesis_values(OPS, v)
        concl = claim.conclusion(OPS, v)
        whole = OPS.implies(OPS.and_(*hyps.values()), concl) if hyps else concl
        terms = claim.term_values(OPS, v)
    return whole, hyps, concl, terms


def prove_on(claim: Claim, box: Mapping[str, Any], prec: int = DEFAULT_PREC, *, where: str = "at the given point") -> Verdict:
    """Settle ``claim`` on a box by one rigorous evaluation.

    ``TRUE`` proves it on the box. ``FALSE`` at a *point* (every variable exact) is a rigorous
    refutation: the hypotheses enclose true and the conclusion encloses false. Anything else
    is ``unknown`` (the enclosure is too wide or a hypothesis is undecided).
    """
    method = f"rigorous interval enclosure {where} (prec {prec} bits)"
    with timed() as t:
        try:
            whole, hyps, concl, terms = decide(claim, box, prec)
        except CannotDecide as why:
            return unknown(method, str(why))
        enclosures = {k: x.describe() for k, x in terms.items()}
        step = t.step(NAME, version(), f"enclose {claim.name}", whole.value, terms=enclosures)
    is_point = all(not isinstance(x, tuple) for x in box.values())
    if whole is Tri.TRUE:
        # At a point the proof covers that point; over a box, every value in the box.
        grade, over = (Grade.INSTANCES, "1 point") if is_point else (Grade.UNIVERSAL, "")
        return proved(method, step, grade=grade, over=over, claim=claim.name,
                      box={k: str(x) for k, x in box.items()}, terms=enclosures)
    if whole is Tri.FALSE and is_point and all(h is Tri.TRUE for h in hyps.values()) and concl is Tri.FALSE:
        from checker.backends import exact

        point = {k: exact.to_fraction(x) for k, x in box.items() if k in claim.variables}
        outside = exact.domain_violations(claim, point)
        if outside:
            return unknown(method, "the point violates the claim but lies outside its declared domain: "
                           + "; ".join(f"{k}: {w}" for k, w in outside.items()), step)
        realised, why_not = exact._realise(claim, point)
        if realised is None:
            return unknown(method, f"the point violates the claim, but {why_not}", step)
        extra = {"realised": dict(realised)} if realised else {}
        return refuted(method, point, enclosures, step, claim=claim.name, **extra)
    return unknown(method, f"interval evaluation is {whole.value}: enclosure too wide to decide", step, terms=enclosures)

