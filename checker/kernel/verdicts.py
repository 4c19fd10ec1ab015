"""Constructors and combinators for verdicts, shared by the backends and the obligations."""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction
from typing import Any, Iterator, Mapping

from checker.kernel.model import Certificate, Grade, Status, Step, Verdict, weakest


def fmt(value: Any) -> str:
    """An exact value as a short, re-readable string (``"201"``, ``"-3/2"``)."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def fmt_map(values: Mapping[str, Any]) -> dict[str, str]:
    return {k: fmt(v) for k, v in values.items()}


def proved(method: str, *steps: Step, grade: Grade, over: str = "", **data: Any) -> Verdict:
    """A proof covering what ``grade`` says: ``UNIVERSAL`` (every value and size the statement
    ranges over), ``BOUNDED`` (every value, for the sizes named in ``over``) or ``INSTANCES``
    (the points named in ``over``). Checking a universal statement at sampled points is not a
    proof of any grade: return :func:`supported` instead."""
    return Verdict(Status.PROVED, Certificate(method=method, steps=steps, data=data, grade=grade, over=over))


def regrade(verdict: Verdict, grade: Grade, over: str) -> Verdict:
    """A proved verdict with its grade weakened to ``grade`` (never strengthened); other
    verdicts unchanged. Use it when a backend's proof covers every value of a claim that is one
    size (or one point) of the obligation's statement."""
    c = verdict.certificate
    if verdict.status is not Status.PROVED or c.grade is None:
        return verdict
    if grade.rank < c.grade.rank:
        return verdict  # a grade can only be weakened
    if grade is c.grade and c.over and grade is not Grade.UNIVERSAL:
        over = c.over if not over else over
    return Verdict(verdict.status, replace(c, grade=grade, over=over if grade is not Grade.UNIVERSAL else ""))


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
    return Verdict(verdict.status, replace(c, data=merged))


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
            )
    broken = [n for n, v in parts.items() if v.status is Status.ERROR]
    if broken:
        reasons = "; ".join(f"{n}: {parts[n].certificate.reason}" for n in broken)
        return Verdict(Status.ERROR, Certificate(method, tuple(steps), reason=reasons, data={"parts": data}))
    if all(s is Status.PROVED for s in statuses):
        grade, over = _conjoined_grade(parts, family, lemmas)
        return Verdict(Status.PROVED, Certificate(method, tuple(steps), data={"parts": data}, grade=grade, over=over))
    undecided = [n for n, v in parts.items() if v.status in (Status.UNKNOWN, Status.TIMEOUT)]
    if undecided:
        reasons = "; ".join(f"{n}: {parts[n].certificate.reason}" for n in undecided)
        return Verdict(Status.UNKNOWN, Certificate(method, tuple(steps), reason=reasons, data={"parts": data}))
    return Verdict(Status.SUPPORTED, Certificate(method, tuple(steps), data={"parts": data}))


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
