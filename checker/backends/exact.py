"""Exact rational arithmetic: the referee for every witness.

Every counterexample that z3 or sampling proposes is re-evaluated here, in
:class:`fractions.Fraction`, before anything is reported ``refuted``.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from checker.backends import CannotDecide
from checker.claims import Claim
from checker.model import Certificate, Grade, Status, Step, Verdict
from checker.verdicts import fmt_map, refuted, timed, unknown

NAME = "exact"
VERSION = f"fractions (Python {sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro})"


def to_fraction(value: Any) -> Fraction:
    """An exact rational from an int, a float (exactly its binary value), a string or a Fraction."""
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} has no exact rational value")
        return Fraction(value)
    if isinstance(value, str):
        return Fraction(value.strip())
    if hasattr(value, "item"):  # numpy scalar
        return to_fraction(value.item())
    raise TypeError(f"cannot read {value!r} ({type(value).__name__}) as an exact rational")


class ExactOps:
    """The ops namespace over Fractions; comparisons are plain booleans."""

    name = NAME

    @staticmethod
    def q(num: int, den: int = 1) -> Fraction:
        return Fraction(num, den)

    @staticmethod
    def relu(x: Fraction) -> Fraction:
        return x if x > 0 else Fraction(0)

    @staticmethod
    def abs(x: Fraction) -> Fraction:
        return -x if x < 0 else x

    @staticmethod
    def max(*xs: Fraction) -> Fraction:
        return max(xs)

    @staticmethod
    def min(*xs: Fraction) -> Fraction:
        return min(xs)

    @staticmethod
    def ite(c: bool, a: Any, b: Any) -> Any:
        return a if c else b

    @staticmethod
    def sqrt(x: Fraction) -> Fraction:
        x = Fraction(x)
        if x < 0:
            raise CannotDecide(f"sqrt of negative {x}")
        n, d = math.isqrt(x.numerator), math.isqrt(x.denominator)
        if n * n == x.numerator and d * d == x.denominator:
            return Fraction(n, d)
        raise CannotDecide(f"sqrt({x}) is irrational; use the interval backend")

    le = staticmethod(lambda a, b: a <= b)
    lt = staticmethod(lambda a, b: a < b)
    ge = staticmethod(lambda a, b: a >= b)
    gt = staticmethod(lambda a, b: a > b)
    eq = staticmethod(lambda a, b: a == b)
    ne = staticmethod(lambda a, b: a != b)

    @staticmethod
    def and_(*bs: bool) -> bool:
        return all(_check_bool(b) for b in bs)

    @staticmethod
    def or_(*bs: bool) -> bool:
        return any(_check_bool(b) for b in bs)

    @staticmethod
    def not_(b: bool) -> bool:
        return not _check_bool(b)

    @staticmethod
    def implies(a: bool, b: bool) -> bool:
        return (not _check_bool(a)) or _check_bool(b)


def _check_bool(b: Any) -> bool:
    if not isinstance(b, bool):
        raise TypeError(f"expected a truth value in a claim, got {b!r}; compare with o.le/o.lt/... ")
    return b


OPS = ExactOps()


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A claim evaluated exactly at one point."""

    point: Mapping[str, Fraction]
    hypotheses: Mapping[str, bool]
    conclusion: bool
    terms: Mapping[str, Fraction]

    @property
    def premise(self) -> bool:
        return all(self.hypotheses.values())

    @property
    def is_counterexample(self) -> bool:
        """Every hypothesis holds and the conclusion fails."""
        return self.premise and not self.conclusion

    @property
    def is_instance(self) -> bool:
        """Every hypothesis holds and the conclusion holds (a witness of the ∃-reading)."""
        return self.premise and self.conclusion

    def sides(self) -> dict[str, Fraction]:
        return dict(self.terms)


def evaluate(claim: Claim, point: Mapping[str, Any]) -> Evaluation:
    """Evaluate ``claim`` exactly at ``point``. A division by zero (the point is a pole of the
    claim) raises :class:`CannotDecide`: the claim has no value there."""
    exact = {k: to_fraction(v) for k, v in point.items() if k in claim.variables}
    v = claim.env(exact)
    try:
        hyps = {name: _check_bool(val) for name, val in claim.hypothesis_values(OPS, v).items()}
        concl = _check_bool(claim.conclusion(OPS, v))
        terms = {name: to_fraction(val) for name, val in claim.term_values(OPS, v).items()}
    except ZeroDivisionError as exc:
        raise CannotDecide(f"division by zero at {fmt_map(exact)}: the claim is undefined there") from exc
    return Evaluation(exact, hyps, concl, terms)


def recheck_counterexample(
    claim: Claim,
    point: Mapping[str, Any],
    found_by: str,
    *steps: Step,
    approximated: bool = False,
) -> Verdict:
    """Report ``refuted`` only if the exact backend confirms ``point`` violates ``claim``."""
    method = f"counterexample from {found_by}, re-checked in exact rationals"
    with timed() as t:
        try:
            ev = evaluate(claim, point)
        except CannotDecide as why:
            return unknown(method, f"candidate {fmt_map(point)} cannot be re-checked exactly: {why}", *steps)
        check = t.step(
            NAME,
            VERSION,
            f"evaluate {claim.name} at the candidate",
            "counterexample" if ev.is_counterexample else "not a counterexample",
            hypotheses={k: bool(x) for k, x in ev.hypotheses.items()},
            conclusion=ev.conclusion,
        )
    if not ev.is_counterexample:
        note = " (z3 gave an irrational value, rounded)" if approximated else ""
        return unknown(
            method,
            f"{found_by} {fmt_map(point)} does not re-check exactly{note}",
            *steps,
            check,
        )
    return refuted(method, ev.point, ev.sides(), *steps, check, claim=claim.name)


def check_instance(claim: Claim, point: Mapping[str, Any], found_by: str, *steps: Step) -> Verdict:
    """``proved`` (existence) when the exact backend confirms ``point`` is an instance of the
    existential reading ``∃ vars. hypotheses ∧ conclusion``."""
    method = f"instance from {found_by}, checked in exact rationals"
    with timed() as t:
        try:
            ev = evaluate(claim, point)
        except CannotDecide as why:
            return unknown(method, f"candidate cannot be checked exactly: {why}", *steps)
        check = t.step(
            NAME, VERSION, f"evaluate {claim.name} at the instance", "instance" if ev.is_instance else "not an instance"
        )
    if not ev.is_instance:
        return unknown(method, f"{found_by} {fmt_map(point)} is not an instance when checked exactly", *steps, check)
    return Verdict(
        Status.PROVED,
        Certificate(method, (*steps, check), witness=fmt_map(ev.point), sides=fmt_map(ev.sides()),
                    data={"claim": claim.name}, grade=Grade.INSTANCES, over="1 witness"),
    )
