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
from checker.kernel.claims import Claim
from checker.kernel.model import Grade, Verdict
from checker.kernel import proof as kernel
from checker.kernel.verdicts import fmt_map, proved_by, refuted, timed, unknown
from checker.kernel.witness import domain_violations, realise, to_fraction

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


class _Raw:
    """mpmath's interval primitives on raw endpoint pairs, looked up once.

    :class:`Interval` calls them directly instead of going through ``iv.mpf``'s operators, which
    convert and dispatch on every call (most of the backend's time); the primitives and the
    precision are the ones those operators use, so every enclosure is bit-for-bit the same."""

    __slots__ = ("iv", "make", "add", "sub", "mul", "div", "neg", "abs", "from_int", "from_float", "lt", "le",
                 "floor", "ceiling", "fnan", "finf", "fninf", "fzero")

    def __init__(self) -> None:
        mp = _mp()
        lib = mp.libmp
        self.iv = mp.iv
        self.make = mp.iv.make_mpf
        self.add, self.sub, self.mul, self.div = lib.mpi_add, lib.mpi_sub, lib.mpi_mul, lib.mpi_div
        self.neg, self.abs = lib.mpi_neg, lib.mpi_abs
        self.from_int, self.from_float = lib.from_int, lib.from_float
        self.lt, self.le = lib.mpf_lt, lib.mpf_le
        self.floor, self.ceiling = lib.round_floor, lib.round_ceiling
        self.fnan, self.finf, self.fninf, self.fzero = lib.fnan, lib.finf, lib.fninf, lib.fzero


_RAW: _Raw | None = None


def _raw() -> _Raw:
    global _RAW
    if _RAW is None:
        _RAW = _Raw()
    return _RAW


def _raw_int(r: _Raw, n: int, prec: int) -> tuple:
    """``iv.mpf(n)``'s endpoints."""
    return r.from_int(n, prec, r.floor), r.from_int(n, prec, r.ceiling)


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
        r = _raw()
        iv = r.iv
        if isinstance(x, bool):
            raise TypeError("a boolean is not a number")
        # the endpoints iv.mpf(x) would give (and iv.mpf(p) / iv.mpf(q) for a fraction p/q)
        if isinstance(x, int):
            return cls(r.make(_raw_int(r, x, iv.prec)))
        if isinstance(x, Fraction):
            prec = iv.prec
            return cls(r.make(r.div(_raw_int(r, x.numerator, prec), _raw_int(r, x.denominator, prec), prec)))
        if isinstance(x, float):
            # a float is an exact binary value
            lo, hi = r.from_float(x, iv.prec, r.floor), r.from_float(x, iv.prec, r.ceiling)
            if lo == r.fnan or hi == r.fnan:
                lo, hi = r.fninf, r.finf
            return cls(r.make((lo, hi)))
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
        r = _raw()
        (a, b), (c, d) = self.v._mpi_, other.v._mpi_
        return Interval(r.make((c if r.lt(c, a) else a, d if r.lt(b, d) else b)))

    def __repr__(self) -> str:
        return f"Interval([{float(self.lo)!r}, {float(self.hi)!r}])"

    def describe(self, digits: int = 12) -> str:
        """The endpoints in decimal, for display only (rounded to nearest; the certificate's
        decisions are made on the exact binary endpoints)."""
        to_str = _mp().libmp.to_str
        lo, hi = self.v._mpi_
        return f"[{to_str(lo, digits)}, {to_str(hi, digits)}]"

    # arithmetic ------------------------------------------------------------------
    @staticmethod
    def _lift(other: Any) -> tuple:
        """The raw endpoint pair of an operand (numbers lifted as :meth:`of` does)."""
        return other.v._mpi_ if isinstance(other, Interval) else Interval.of(other).v._mpi_

    def __add__(self, o: Any) -> Interval:
        r = _raw()
        return Interval(r.make(r.add(self.v._mpi_, self._lift(o), r.iv.prec)))

    __radd__ = __add__

    def __sub__(self, o: Any) -> Interval:
        r = _raw()
        return Interval(r.make(r.sub(self.v._mpi_, self._lift(o), r.iv.prec)))

    def __rsub__(self, o: Any) -> Interval:
        r = _raw()
        return Interval(r.make(r.sub(self._lift(o), self.v._mpi_, r.iv.prec)))

    def __mul__(self, o: Any) -> Interval:
        r = _raw()
        return Interval(r.make(r.mul(self.v._mpi_, self._lift(o), r.iv.prec)))

    __rmul__ = __mul__

    def __truediv__(self, o: Any) -> Interval:
        r = _raw()
        d = self._lift(o)
        if r.le(d[0], r.fzero) and r.le(r.fzero, d[1]):
            raise CannotDecide("interval division by an interval containing zero")
        return Interval(r.make(r.div(self.v._mpi_, d, r.iv.prec)))

    def __rtruediv__(self, o: Any) -> Interval:
        return Interval.of(o) / self

    def __neg__(self) -> Interval:
        r = _raw()
        return Interval(r.make(r.neg(self.v._mpi_, r.iv.prec)))

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
        r = _raw()
        a, b = _interval(x).v._mpi_
        return Interval(r.make((r.fzero if r.lt(a, r.fzero) else a, r.fzero if r.lt(b, r.fzero) else b)))

    @staticmethod
    def abs(x: Any) -> Interval:
        r = _raw()
        return Interval(r.make(r.abs(_interval(x).v._mpi_, r.iv.prec)))

    @staticmethod
    def max(*xs: Any) -> Interval:
        r = _raw()
        pairs = [_interval(x).v._mpi_ for x in xs]
        lo, hi = pairs[0]
        for a, b in pairs[1:]:
            lo = a if r.lt(lo, a) else lo
            hi = b if r.lt(hi, b) else hi
        return Interval(r.make((lo, hi)))

    @staticmethod
    def min(*xs: Any) -> Interval:
        r = _raw()
        pairs = [_interval(x).v._mpi_ for x in xs]
        lo, hi = pairs[0]
        for a, b in pairs[1:]:
            lo = a if r.lt(a, lo) else lo
            hi = b if r.lt(b, hi) else hi
        return Interval(r.make((lo, hi)))

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
    def erf(x: Any) -> Interval:
        return _interval(x).erf()

    @staticmethod
    def log(x: Any) -> Interval:
        x = _interval(x)
        if x.v.a <= 0:
            raise CannotDecide(f"log of an interval reaching to or below zero ({x.describe()})")
        return x.log()

    @staticmethod
    def le(a: Any, b: Any) -> Tri:
        r = _raw()
        (a_lo, a_hi), (b_lo, b_hi) = _interval(a).v._mpi_, _interval(b).v._mpi_
        if r.le(a_hi, b_lo):
            return Tri.TRUE
        if r.lt(b_hi, a_lo):
            return Tri.FALSE
        return Tri.UNKNOWN

    @staticmethod
    def lt(a: Any, b: Any) -> Tri:
        r = _raw()
        (a_lo, a_hi), (b_lo, b_hi) = _interval(a).v._mpi_, _interval(b).v._mpi_
        if r.lt(a_hi, b_lo):
            return Tri.TRUE
        if r.le(b_hi, a_lo):
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


def _uncovered(claim: Claim, box: Mapping[str, Any]) -> list[str]:
    """The variables of ``claim`` whose declared domain the ``box`` does not hold whole, each as
    ``"x ∈ [lo, hi] of <domain>"``: a box proof is then a proof on part of the domain only. (A
    domain narrowed by a hypothesis rather than a type counts as uncovered: conservative.)"""
    out = []
    for name in claim.variables:
        value = box.get(name)
        d = claim.domain(name)
        lo, hi = (value if isinstance(value, tuple) else (value, value)) if value is not None else (None, None)
        if lo is None or hi is None:
            out.append(f"{name} not in the box")
            continue
        lo, hi = to_fraction(lo), to_fraction(hi)
        if d.lower is None or d.hi is None or lo > d.lower or hi < d.hi:
            whole = f"[{d.lower if d.lower is not None else '-∞'}, {d.hi if d.hi is not None else '∞'}]"
            out.append(f"{name} ∈ [{lo}, {hi}] of {whole}")
    return out


def _decided(claim: Claim, box: Mapping[str, Any], prec: int, method: str) -> tuple | Verdict:
    """:func:`decide` with each term's enclosure described, or ``unknown`` when it cannot decide."""
    try:
        whole, hyps, concl, terms = decide(claim, box, prec)
    except CannotDecide as why:
        return unknown(method, str(why))
    return whole, hyps, concl, {k: x.describe() for k, x in terms.items()}


def prove_on(claim: Claim, box: Mapping[str, Any], prec: int = DEFAULT_PREC, *, where: str = "at the given point") -> Verdict:
    """Settle ``claim`` on a box by one rigorous evaluation.

    ``TRUE`` proves it on the box. ``FALSE`` at a *point* (every variable exact) is a rigorous
    refutation: the hypotheses enclose true and the conclusion encloses false. Anything else
    is ``unknown`` (the enclosure is too wide or a hypothesis is undecided).
    """
    method = f"rigorous interval enclosure {where} (prec {prec} bits)"
    with timed() as t:
        decided = _decided(claim, box, prec, method)
        if isinstance(decided, Verdict):
            return decided
        whole, hyps, concl, enclosures = decided
        step = t.step(NAME, version(), f"enclose {claim.name}", whole.value, terms=enclosures)
    is_point = all(not isinstance(x, tuple) for x in box.values())
    vacuous = [h for h, value in hyps.items() if value is Tri.FALSE]
    if whole is Tri.TRUE and vacuous:  # as exact.prove_at: an implication true only as its premise fails proves nothing
        return unknown(method, f"the hypothesis {', '.join(vacuous)} is false {'at the point' if is_point else 'on the whole box'}: "
                       "the claim holds there only vacuously, which proves nothing", step, terms=enclosures)
    if whole is Tri.TRUE:
        # At a point the proof covers that point; over a box, every value in the box — the claim for
        # every value only when the box holds each variable's whole declared domain.
        partial = _uncovered(claim, box)
        if not partial:  # a closed claim, or a box holding every variable's whole domain
            grade, over = Grade.UNIVERSAL, ""
        elif is_point:
            grade, over = Grade.INSTANCES, "1 point"
        else:
            grade, over = Grade.INSTANCES, f"1 box ({'; '.join(partial)})"
        fact = kernel.issue(claim, grade, over, [kernel.Entry(
            "enclosure", f"{version()} at {prec} bits: {claim.name} encloses true {'at the point' if is_point else 'on the box'}",
            {"box": {k: str(x) for k, x in box.items()}})])
        return proved_by(method, fact, step, claim=claim.name,
                      box={k: str(x) for k, x in box.items()}, terms=enclosures)
    if whole is Tri.FALSE and is_point and all(h is Tri.TRUE for h in hyps.values()) and concl is Tri.FALSE:
        point = {k: to_fraction(x) for k, x in box.items() if k in claim.variables}
        outside = domain_violations(claim, point)
        if outside:
            return unknown(method, "the point violates the claim but lies outside its declared domain: "
                           + "; ".join(f"{k}: {w}" for k, w in outside.items()), step)
        realised, why_not = realise(claim, point)
        if realised is None:
            return unknown(method, f"the point violates the claim, but {why_not}", step)
        extra = {"realised": dict(realised)} if realised else {}
        return refuted(method, point, enclosures, step, claim=claim.name, **extra)
    return unknown(method, f"interval evaluation is {whole.value}: enclosure too wide to decide", step, terms=enclosures)



def check_instance(claim: Claim, point: Mapping[str, Any], found_by: str, prec: int = DEFAULT_PREC) -> Verdict:
    """``proved`` (existence) when one rigorous evaluation encloses every hypothesis and the conclusion
    of ``claim`` true at ``point`` (every variable exact, in its declared domain): ``point`` is an
    instance of the existential reading ``∃ vars. hypotheses ∧ conclusion``
    (:func:`checker.kernel.existence.some_instance`). Anything else is ``unknown``: a point that is no
    instance says nothing against an existence."""
    from checker.kernel.existence import instance_subject

    method = f"instance from {found_by}, enclosed rigorously (prec {prec} bits)"
    exact_point = {k: to_fraction(x) for k, x in point.items() if k in claim.variables}
    with timed() as t:
        decided = _decided(claim, exact_point, prec, method)
        if isinstance(decided, Verdict):
            return decided
        _, hyps, concl, enclosures = decided
        holds = not domain_violations(claim, exact_point) and all(h is Tri.TRUE for h in hyps.values()) and concl is Tri.TRUE
        step = t.step(NAME, version(), f"enclose {claim.name} at the instance", "instance" if holds else "not an instance",
                      terms=enclosures)
    if not holds:
        return unknown(method, f"{found_by} {fmt_map(exact_point)} is not enclosed as an instance", step, terms=enclosures)
    realised, why_not = realise(claim, exact_point)
    if realised is None:  # a point of derived quantities no object has is no instance of the statement
        return unknown(method, f"{found_by} {fmt_map(exact_point)} satisfies the claim, but {why_not}", step)
    fact = kernel.issue(instance_subject(claim), Grade.INSTANCES, "1 witness", [kernel.Entry(
        "instance", f"{version()} at {prec} bits: {claim.name} encloses true at {fmt_map(exact_point)}",
        {"point": fmt_map(exact_point)})], name=f"∃ {claim.name}")
    return proved_by(method, fact, step, claim=claim.name, instance=fmt_map(exact_point), terms=enclosures)
