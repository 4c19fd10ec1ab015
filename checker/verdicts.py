"""Constructors and combinators for verdicts, shared by the backends and the obligations."""

from __future__ import annotations

import time
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Iterator, Mapping

from checker.model import Certificate, Status, Step, Verdict


def fmt(value: Any) -> str:
    """An exact value as a short, re-readable string (``"201"``, ``"-3/2"``)."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def fmt_map(values: Mapping[str, Any]) -> dict[str, str]:
    return {k: fmt(v) for k, v in values.items()}


def proved(method: str, *steps: Step, **data: Any) -> Verdict:
    return Verdict(Status.PROVED, Certificate(method=method, steps=steps, data=data))


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
    return Verdict(
        verdict.status,
        Certificate(c.method, c.steps, c.witness, c.sides, c.reason, merged),
    )


def all_of(method: str, parts: Mapping[str, Verdict]) -> Verdict:
    """The conjunction of several verdicts, each under its own name.

    Refuted if any part is refuted (its witness refutes the conjunction); error if any part is
    an error; proved only if every part is proved; otherwise unknown if any part is undecided,
    else supported.
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
        return Verdict(Status.PROVED, Certificate(method, tuple(steps), data={"parts": data}))
    undecided = [n for n, v in parts.items() if v.status in (Status.UNKNOWN, Status.TIMEOUT)]
    if undecided:
        reasons = "; ".join(f"{n}: {parts[n].certificate.reason}" for n in undecided)
        return Verdict(Status.UNKNOWN, Certificate(method, tuple(steps), reason=reasons, data={"parts": data}))
    return Verdict(Status.SUPPORTED, Certificate(method, tuple(steps), data={"parts": data}))


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
