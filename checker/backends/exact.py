"""Exact rational arithmetic: the referee for every witness.

Every counterexample that z3 or sampling proposes is re-evaluated here, in
:class:`fractions.Fraction`, before anything is reported ``refuted``.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

from checker.backends import CannotDecide
from checker.kernel.claims import Claim
from checker.kernel.model import Certificate, Grade, Status, Step, Verdict
from checker.kernel import proof as kernel
from checker.kernel.verdicts import fmt_map, proved_by, refuted, timed, unknown
from checker.kernel.witness import domain_violations, realise, to_fraction  # noqa: F401  (re-exported)

NAME = "exact"
VERSION = f"fractions (Python {sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro})"


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

    @staticmethod
    def floor(x: Fraction) -> Fraction:
        return Fraction(math.floor(Fraction(x)))

    @staticmethod
    def ceil(x: Fraction) -> Fraction:
        return Fraction(math.ceil(Fraction(x)))

    @staticmethod
    def pow(x: Fraction, n: int) -> Fraction:
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"o.pow takes an integer exponent, got {n!r}")
        x = Fraction(x)
        if n < 0 and x == 0:
            raise ZeroDivisionError("0 to a negative power")
        return x**n

    @staticmethod
    def exp(x: Fraction) -> Fraction:
        if Fraction(x) == 0:
            return Fraction(1)
        raise CannotDecide(f"exp({x}) is irrational; use the interval backend")

    @staticmethod
    def erf(x: Fraction) -> Fraction:
        if Fraction(x) == 0:
            return Fraction(0)
        raise CannotDecide(f"erf({x}) is irrational; use the interval backend")

    @staticmethod
    def log(x: Fraction) -> Fraction:
        x = Fraction(x)
        if x <= 0:
            raise CannotDecide(f"log of non-positive {x}")
        if x == 1:
            return Fraction(0)
        raise CannotDecide(f"log({x}) is irrational; use the interval backend")

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


class _Tracing(ExactOps):
    """Exact ops that record every comparison they decide, in order: what makes a conclusion false."""

    _SYMBOLS = {"le": "≤", "lt": "<", "ge": "≥", "gt": ">", "eq": "=", "ne": "≠"}

    def __init__(self) -> None:
        self.decided: list[tuple[str, Fraction, Fraction, bool]] = []
        for op, symbol in self._SYMBOLS.items():
            setattr(self, op, self._recording(getattr(ExactOps, op), symbol))

    def _recording(self, compare: Any, symbol: str) -> Any:
        def decide(a: Any, b: Any) -> bool:
            value = compare(a, b)
            if isinstance(a, (int, Fraction)) and isinstance(b, (int, Fraction)):
                self.decided.append((symbol, Fraction(a), Fraction(b), bool(value)))
            return value
        return decide


def failing_comparisons(claim: Claim, point: Mapping[str, Fraction], most: int = 3) -> tuple[str, ...]:
    """The comparisons inside the conclusion that are false at ``point`` (``"1 ≤ 15/16"``), at most
    ``most``: what a reader checks of a counterexample, whatever the claim's named terms show."""
    ops = _Tracing()
    try:
        claim.conclusion(ops, claim.env(point))
    except (ArithmeticError, CannotDecide, TypeError, ValueError):
        return ()
    failed = [f"{a} {symbol} {b}" for symbol, a, b, value in ops.decided if not value]
    return tuple(dict.fromkeys(failed))[:most]


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A claim evaluated exactly at one point."""

    point: Mapping[str, Fraction]
    hypotheses: Mapping[str, bool]
    conclusion: bool
    terms: Mapping[str, Fraction]
    outside_domain: Mapping[str, str] = field(default_factory=dict)

    @property
    def in_domain(self) -> bool:
        return not self.outside_domain

    @property
    def premise(self) -> bool:
        """Every variable in its declared domain and every hypothesis true."""
        return self.in_domain and all(self.hypotheses.values())

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
    claim) raises :class:`CannotDecide`: the claim has no value there. A point outside a
    declared domain is evaluated too, but is never a counterexample nor an instance."""
    exact = {k: to_fraction(v) for k, v in point.items() if k in claim.variables}
    v = claim.env(exact)
    outside = domain_violations(claim, exact)
    try:
        hyps = {name: _check_bool(val) for name, val in claim.hypothesis_values(OPS, v).items()}
        concl = _check_bool(claim.conclusion(OPS, v))
        terms = {name: to_fraction(val) for name, val in claim.term_values(OPS, v).items()}
    except ZeroDivisionError as exc:
        raise CannotDecide(f"division by zero at {fmt_map(exact)}: the claim is undefined there") from exc
    return Evaluation(exact, hyps, concl, terms, outside)


@dataclass(frozen=True, slots=True)
class Confirmation:
    """The outcome of re-checking a candidate counterexample against everything the claim declares."""

    confirmed: bool
    reason: str
    point: Mapping[str, Fraction]
    sides: Mapping[str, Any]
    how: str  # "exact rationals" or "rigorous intervals"
    realised: Mapping[str, str] | None = None


def _interval_counterexample(claim: Claim, point: Mapping[str, Fraction]) -> tuple[bool, str, dict[str, str]]:
    """Rigorous-interval re-check at an exact point (for exp, log, irrational sqrt)."""
    from checker.backends import interval

    try:
        _, hyps, concl, terms = interval.decide(claim, dict(point))
    except (CannotDecide, ZeroDivisionError) as why:
        return False, f"the rigorous interval evaluation cannot decide either: {why}", {}
    enclosures = {k: x.describe() for k, x in terms.items()}
    undecided = [k for k, h in hyps.items() if h is not interval.Tri.TRUE]
    if undecided:
        return False, f"hypotheses not enclosed true: {', '.join(undecided)}", enclosures
    if concl is not interval.Tri.FALSE:
        return False, f"the conclusion encloses {concl.value}, not false", enclosures
    return True, "", enclosures


def confirm(claim: Claim, point: Mapping[str, Any]) -> Confirmation:
    """Is ``point`` a counterexample to ``claim``, checked independently of whatever found it?

    Every variable must lie in its declared domain (integers are integers); the claim is
    evaluated in exact rationals, or, where that is impossible (exp, log, an irrational sqrt), by
    rigorous intervals at the exact point; and a claim over derived quantities must be realised
    by concrete objects (its realiser) whose recomputed values are the witness."""
    try:
        exact_point = {k: to_fraction(v) for k, v in point.items() if k in claim.variables}
        claim.env(exact_point)
    except (TypeError, ValueError, ZeroDivisionError) as why:
        return Confirmation(False, f"the candidate is not a point of the claim: {why}", {}, {}, "exact rationals")
    outside = domain_violations(claim, exact_point)
    if outside:
        return Confirmation(False, "outside the declared domain: " + "; ".join(f"{k}: {w}" for k, w in outside.items()),
                            exact_point, {}, "exact rationals")
    how = "exact rationals"
    try:
        ev = evaluate(claim, exact_point)
        ok, reason, sides = ev.is_counterexample, "", dict(ev.sides())
        if not ok:
            reason = "not a counterexample in exact rationals (" + (
                "a hypothesis fails" if not ev.premise else "the conclusion holds") + ")"
    except CannotDecide as why:
        how = "rigorous intervals"
        ok, reason, sides = _interval_counterexample(claim, exact_point)
        if not ok:
            reason = f"exact rationals cannot evaluate it ({why}); {reason}"
    if not ok:
        return Confirmation(False, reason, exact_point, sides, how)
    realised, why_not = realise(claim, exact_point)
    if realised is None:
        return Confirmation(False, why_not, exact_point, sides, how)
    return Confirmation(True, "", exact_point, sides, how, realised or None)


def recheck_counterexample(
    claim: Claim,
    point: Mapping[str, Any],
    found_by: str,
    *steps: Step,
    approximated: bool = False,
) -> Verdict:
    """Report ``refuted`` only if the exact backend confirms ``point`` violates ``claim``."""
    with timed() as t:
        c = confirm(claim, point)
        method = f"counterexample from {found_by}, re-checked in {c.how}" + (
            " and realised by concrete objects" if c.realised else "")
        check = t.step(
            NAME,
            VERSION,
            f"evaluate {claim.name} at the candidate",
            "counterexample" if c.confirmed else "not a counterexample",
            domains=claim.describe_domains() if claim.typed else None,
            reason=c.reason or None,
        )
    if not c.confirmed:
        note = " (z3 gave an irrational value, rounded)" if approximated else ""
        return unknown(
            method,
            f"{found_by} {fmt_map(point)} does not re-check{note}: {c.reason}",
            *steps,
            check,
        )
    data: dict[str, Any] = {"claim": claim.name}
    if c.how == "exact rationals":
        data["conclusion_fails"] = list(failing_comparisons(claim, c.point))
    if claim.typed:
        data["domains"] = claim.describe_domains()
    if c.realised:
        data["realised"] = dict(c.realised)
    return refuted(method, c.point, c.sides, *steps, check, **data)


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
        return unknown(method, f"{found_by} {fmt_map(ev.point)} is not an instance when checked exactly", *steps, check)
    realised, why_not = realise(claim, ev.point)
    if realised is None:  # a point of derived quantities no object has is no instance of the statement
        return unknown(method, f"{found_by} {fmt_map(ev.point)} satisfies the claim, but {why_not}", *steps, check)
    from checker.kernel.existence import instance_subject

    fact = kernel.issue(instance_subject(claim), Grade.INSTANCES, "1 witness", [kernel.Entry(
        "instance", f"exact rationals: {claim.name} holds at {fmt_map(ev.point)}", {"point": fmt_map(ev.point)})],
        name=f"∃ {claim.name}")
    return Verdict(
        Status.PROVED,
        Certificate(method, (*steps, check), witness=fmt_map(ev.point), sides=fmt_map(ev.sides()),
                    data={"claim": claim.name}, grade=fact.grade, over=fact.over),
        fact=fact,
    )


def prove_at(claim: Claim, points: Sequence[Mapping[str, Any]], where: str = "") -> Verdict:
    """Decide ``claim`` exactly at each of ``points`` (the statement's own points: stated counts,
    a shipped network's values, a document's instance). Every point in the declared domains with
    true hypotheses and a true conclusion: ``proved`` at those points (grade ``instances``). A point
    where the hypotheses hold and the conclusion fails: ``refuted``, with that point as the witness
    (the decisive negative: a computed value that contradicts the claim). Otherwise ``unknown``."""
    method = "exact rationals at the stated points"
    if not points:
        return unknown(method, "no point to evaluate at")
    with timed() as t:
        evaluations = []
        for p in points:
            try:
                evaluations.append(evaluate(claim, p))
            except CannotDecide as why:
                return unknown(method, f"{claim.name} cannot be evaluated exactly at {fmt_map(p)}: {why}")
        bad = [e for e in evaluations if e.is_counterexample]
        step = t.step(NAME, VERSION, f"evaluate {claim.name} at {len(points)} point(s)",
                      "holds at every point" if not bad and all(e.is_instance for e in evaluations) else
                      f"fails at {len(bad)} point(s)" if bad else "a point is outside the hypotheses")
    if bad:
        return recheck_counterexample(claim, bad[0].point, "exact evaluation at a stated point", step)
    outside = [e for e in evaluations if not e.premise]
    if outside:
        return unknown(method, f"the point {fmt_map(outside[0].point)} is outside {claim.name}'s domains or hypotheses",
                       step)
    over = where or f"{len(points)} point{'s' if len(points) != 1 else ''}"
    fact = kernel.issue(claim, Grade.INSTANCES, over, [kernel.Entry(
        "instance", f"exact rationals: {claim.name} holds at {len(points)} point(s)",
        {"points": [fmt_map(e.point) for e in evaluations[:20]]})])
    return proved_by(method, fact, step, claim=claim.name, points=[fmt_map(e.point) for e in evaluations[:20]])


def enumerate_domain(claim: Claim, limit: int = 1_000_000) -> Verdict:
    """Prove ``claim`` by evaluating it exactly at every point of its declared domain, which must be
    finite: every variable an integer with both bounds (``"n:nat[1,6] k:int[0,3]"``). Covering the
    whole domain is a proof for every value (``universal``); a point where it fails refutes it."""
    import itertools

    method = "exhaustive enumeration of the declared finite domain (exact rationals)"
    ranges = []
    for name in claim.variables:
        dom = claim.domain(name)
        if not dom.integral or dom.lower is None or dom.hi is None:
            return unknown(method, f"{name} does not range over a finite set ({dom.describe()}): declare integer bounds")
        ranges.append(range(int(dom.lower), int(dom.hi) + 1))
    size = 1
    for r in ranges:
        size *= len(r)
    if size > limit:
        return unknown(method, f"the domain has {size} points, more than the limit {limit}")
    with timed() as t:
        count, failing, undecided = 0, None, None
        for values in itertools.product(*ranges):
            point = dict(zip(claim.variables, values))
            try:
                ev = evaluate(claim, point)
            except CannotDecide as why:
                undecided = (point, str(why))
                break
            count += 1
            if ev.is_counterexample:
                failing = ev.point
                break
        step = t.step(NAME, VERSION, f"enumerate the {size} points of {claim.name}'s domain",
                      "holds everywhere" if failing is None and undecided is None else "fails" if failing else "undecided",
                      cases=count)
    if failing is not None:
        return recheck_counterexample(claim, failing, "exhaustive enumeration", step)
    if undecided is not None:
        return unknown(method, f"{claim.name} cannot be evaluated at {fmt_map(undecided[0])}: {undecided[1]}", step)
    fact = kernel.issue(claim, Grade.UNIVERSAL, "", [kernel.Entry(
        "enumeration", f"exact rationals: {claim.name} at all {count} points of its declared domain",
        {"domain": claim.describe_domains(), "cases": count})])
    return proved_by(method, fact, step, claim=claim.name, cases=count)
