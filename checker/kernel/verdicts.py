"""Constructors and combinators for verdicts, shared by the backends and the obligations.

A ``proved`` verdict is only ever made from a kernel fact (:func:`proved_by`); the combinators
(:func:`all_of`, :func:`regrade`, :func:`any_of`) combine the facts by the kernel's rules
(:mod:`checker.kernel.proof`). :func:`proved` without a fact is what a hand-built proof looks like:
the runner reports it as an ``error``.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction
from typing import Any, Iterator, Mapping

from checker.kernel import proof as kernel
from checker.kernel.model import Certificate, Grade, Status, Step, Verdict, weakest
from checker.kernel.witness import fmt, fmt_map  # noqa: F401  (re-exported)


def proved_by(method: str, fact: kernel.Fact, *steps: Step, **data: Any) -> Verdict:
    """The proved verdict of a kernel ``fact``: its grade and what it covers come from the fact."""
    if not kernel.is_fact(fact):
        raise kernel.KernelError("proved_by needs a kernel fact (checker.kernel.proof)")
    return Verdict(Status.PROVED, Certificate(method=method, steps=steps, data=data, grade=fact.grade, over=fact.over),
                   fact=fact)


def proved(method: str, *steps: Step, grade: Grade, over: str = "", **data: Any) -> Verdict:
    """A proof typed by hand, without a kernel fact. It is kept so that an old catalogue still loads,
    and the runner reports every such verdict as ``error`` naming the missing fact: prove the claim
    with a backend (``smt.prove``, ``interval.prove_on``, ``exact.check_instance``, …), combine with
    :func:`all_of`, or state a computation through ``checker.kernel.proof.trusted_computation``."""
    return Verdict(Status.PROVED, Certificate(method=method, steps=steps, data=data, grade=grade, over=over))


def trusted(method: str, *steps: Step, grade: Grade | None = None, over: str = "", at: Any = (),
            what: str | None = None, about: Any = (), **data: Any) -> Verdict:
    """A proof that rests on a computation of the catalogue the kernel cannot express: the kernel's
    escape hatch (:func:`checker.kernel.proof.trusted_computation`), with the caller's file and line
    in the ledger and the result counted as trusted. ``what`` says what was computed (default: the
    method); ``about`` names the claims it shows (claim objects or names; default: ``what``).

    ``at`` names the points a computation evaluated (``("the shipped example network",)``): its grade
    is then ``instances`` over exactly those points, counted here, not typed by the caller."""
    import sys

    if at:
        if grade is not None:
            raise TypeError("trusted(): give the points a computation evaluated (at=…) or its grade, not both")
        points = [str(p) for p in at]
        grade, over = Grade.INSTANCES, f"{len(points)} point{'s' if len(points) != 1 else ''} ({', '.join(points)})"
    elif grade is None:
        raise TypeError("trusted(): say what the computation covers: the points it evaluated (at=…) or its grade")
    frame = sys._getframe(1)
    shown = what or method
    fact = kernel._trusted_at(about or shown, grade, over, shown, f"{frame.f_code.co_filename}:{frame.f_lineno}")
    return proved_by(method, fact, *steps, **data)


def regrade(verdict: Verdict, grade: Grade, over: str) -> Verdict:
    """A proved verdict with its grade weakened to ``grade`` (never strengthened); other
    verdicts unchanged. Use it when a backend's proof covers every value of a claim that is one
    size (or one point) of the obligation's statement."""
    if verdict.status is not Status.PROVED or not kernel.is_fact(verdict.fact):
        return verdict
    fact = kernel.weaken(verdict.fact, grade, over)
    return Verdict(verdict.status, replace(verdict.certificate, grade=fact.grade, over=fact.over), fact=fact)


def supported(method: str, *steps: Step, **data: Any) -> Verdict:
    return Verdict(Status.SUPPORTED, Certificate(method=method, steps=steps, data=data))


def unknown(method: str, reason: str, *steps: Step, **data: Any) -> Verdict:
    return Verdict(Status.UNKNOWN, Certificate(method=method, steps=steps, reason=reason, data=data))


def refuted(
    method: str,
    witness: Mapping[str, Any],
    sides: Mapping[str, Any],
    *steps: Step,
    **data: Any,
) -> Verdict:
    """A refutation. Only call this after an exact (or rigorous) re-check of ``witness``."""
    return Verdict(
        Status.REFUTED,
        Certificate(method=method, steps=steps, witness=fmt_map(witness), sides=fmt_map(sides), data=data),
    )


def with_data(verdict: Verdict, **data: Any) -> Verdict:
    """The same verdict with extra certificate data."""
    c = verdict.certificate
    merged = {**dict(c.data), **data}
    return Verdict(verdict.status, replace(c, data=merged), fact=verdict.fact)


def all_of(method: str, parts: Mapping[str, Verdict], family: str | None = None, *, lemmas: bool = False) -> Verdict:
    """The conjunction of several verdicts, each under its own name.

    Refuted if any part is refuted (its witness refutes the conjunction); error if any part is
    an error; proved only if every part is proved; otherwise unknown if any part is undecided,
    else supported.

    A proved conjunction has the weakest grade of its parts. ``family`` names the sizes the
    parts stand for (``"K = 2…6"``): the parts are instances of one statement at those sizes,
    so a universal grade becomes ``bounded`` over them. Without ``family``, universal parts that
    prove claims with different numbers of variables are taken to be sizes of one statement
    and capped the same way (a loop over sizes never comes out universal). ``lemmas=True`` says
    the parts are distinct lemmas of one statement (a margin step, a Φ identity, …), each over
    its own variables, not sizes of it: then differing numbers of variables do not cap the grade
    (the weakest part still does, and ``family`` still applies).
    """
    if not parts:
        raise ValueError("all_of needs at least one part")
    steps: list[Step] = []
    data: dict[str, Any] = {}
    for name, v in parts.items():
        steps.extend(v.certificate.steps)
        data[name] = {"status": v.status.value, **v.certificate.to_json()}
    statuses = [v.status for v in parts.values()]
    for name, v in parts.items():
        if v.status is Status.REFUTED:
            c = v.certificate
            return Verdict(
                Status.REFUTED,
                Certificate(method, tuple(steps), c.witness, c.sides, f"part {name!r} is refuted", {"parts": data}),
                fact=v.fact,  # a kernel negation (of an existence) the part proved stays with it
            )
    broken = [n for n, v in parts.items() if v.status is Status.ERROR]
    if broken:
        reasons = "; ".join(f"{n}: {parts[n].certificate.reason}" for n in broken)
        return Verdict(Status.ERROR, Certificate(method, tuple(steps), reason=reasons, data={"parts": data}))
    if all(s is Status.PROVED for s in statuses):
        unfounded = [n for n, v in parts.items() if not kernel.is_fact(v.fact)]
        if unfounded:  # a hand-built part: the conjunction has no fact either (the runner reports it)
            grade, over = _conjoined_grade(parts, family, lemmas)
            return Verdict(Status.PROVED, Certificate(method, tuple(steps), data={"parts": data, "without_fact": unfounded},
                                                      grade=grade, over=over))
        arities: set[int] = set()
        for v in parts.values():
            arities |= _claim_arities(v)
        fact = kernel.conjoin({n: v.fact for n, v in parts.items()}, family, lemmas=lemmas, arities=arities)
        return Verdict(Status.PROVED, Certificate(method, tuple(steps), data={"parts": data}, grade=fact.grade,
                                                  over=fact.over), fact=fact)
    undecided = [n for n, v in parts.items() if v.status in (Status.UNKNOWN, Status.TIMEOUT)]
    if undecided:
        reasons = "; ".join(f"{n}: {parts[n].certificate.reason}" for n in undecided)
        return Verdict(Status.UNKNOWN, Certificate(method, tuple(steps), reason=reasons, data={"parts": data}))
    return Verdict(Status.SUPPORTED, Certificate(method, tuple(steps), data={"parts": data}))


def any_of(method: str, routes: Mapping[str, Any]) -> Verdict:
    """The first of several routes to the same claim that proves it (each route a verdict, or a
    function returning one, tried in order until one proves). A route that fails to prove (a false
    helper identity, an unknown) is recorded, never decisive: when no route proves, the result is
    the first refutation (which the runner re-checks against the declared theorem), else unknown."""
    tried: dict[str, Verdict] = {}
    for name, route in routes.items():
        v = route() if callable(route) else route
        tried[name] = v
        if v.status is Status.PROVED:
            others = {n: {"status": t.status.value, "reason": t.certificate.reason} for n, t in tried.items() if n != name}
            return with_data(v, route=name, **({"routes_not_taken": others} if others else {}))
    steps = [s for v in tried.values() for s in v.certificate.steps]
    data = {"routes": {n: {"status": v.status.value, **v.certificate.to_json()} for n, v in tried.items()}}
    for name, v in tried.items():
        if v.status is Status.REFUTED:
            c = v.certificate
            return Verdict(Status.REFUTED, Certificate(method, tuple(steps), c.witness, c.sides, f"route {name!r} is refuted",
                                                       {**dict(c.data), **data}), fact=v.fact)
    reasons = "; ".join(f"{n}: {v.status.value} ({v.certificate.reason})" for n, v in tried.items())
    return Verdict(Status.UNKNOWN, Certificate(method, tuple(steps), reason=f"no route proves it: {reasons}", data=data))


def _claim_arities(v: Verdict) -> set[int]:
    """Numbers of variables of the claims a proved verdict (or its parts) proved by a backend."""
    return _arities_in({"data": v.certificate.data})


def _arities_in(part_json: Mapping[str, Any]) -> set[int]:
    data = part_json.get("data") or {}
    found: set[int] = set()
    if isinstance(data.get("variables"), (list, tuple)):
        found.add(len(data["variables"]))
    for sub in (data.get("parts") or {}).values():
        if isinstance(sub, Mapping):
            found |= _arities_in(sub)
    return found


def _conjoined_grade(parts: Mapping[str, Verdict], family: str | None, lemmas: bool = False) -> tuple[Grade, str]:
    grades = [v.certificate.grade for v in parts.values()]
    if any(g is None for g in grades):
        raise ValueError("a proved part has no grade")
    grade = weakest(g for g in grades if g is not None)
    overs = [v.certificate.over for v in parts.values() if v.certificate.grade is grade and v.certificate.over]
    if grade is Grade.INSTANCES:
        return grade, _count_points(parts) or "; ".join(dict.fromkeys(overs))
    arities: set[int] = set()
    for v in parts.values():
        arities |= _claim_arities(v)
    if family is not None:
        if grade is Grade.UNIVERSAL:
            return Grade.BOUNDED, family
        return grade, family
    if grade is Grade.UNIVERSAL and len(arities) > 1 and not lemmas:
        return Grade.BOUNDED, f"the {len(parts)} checked sizes ({', '.join(parts)})"
    return grade, "; ".join(dict.fromkeys(overs))


def _count_points(parts: Mapping[str, Verdict]) -> str:
    """``"7 points"`` when every instances-part says ``"N point(s)"``, else ``""``."""
    total = 0
    for v in parts.values():
        c = v.certificate
        if c.grade is not Grade.INSTANCES:
            continue
        head = c.over.split(" ", 1)
        if len(head) != 2 or not head[0].isdigit() or not head[1].startswith(("point", "witness")):
            return ""
        total += int(head[0])
    return f"{total} point{'s' if total != 1 else ''}" if total else ""


class StepTimer:
    """Measures one backend call; ``step(...)`` freezes it into a :class:`Step`."""

    def __init__(self) -> None:
        self.start = time.perf_counter()

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def step(self, backend: str, version: str, action: str, answer: str, **detail: Any) -> Step:
        return Step(backend, version, action, answer, self.elapsed, detail)


@contextmanager
def timed() -> Iterator[StepTimer]:
    yield StepTimer()
