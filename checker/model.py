"""The core model: obligations, statuses, outcomes, certificates and results.

Everything here is small, frozen and JSON-serialisable. A discharge function returns a
:class:`Verdict`; the runner wraps it, with timing and limits, into a :class:`Result`.
Results are the only thing reports read.
"""

from __future__ import annotations

import enum
import hashlib
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, assert_never

if TYPE_CHECKING:  # pragma: no cover
    import numpy

    from checker.claims import Claim

SCHEMA_VERSION = 1


class Status(enum.Enum):
    """What a method established. Closed: code switching on it handles every member."""

    PROVED = "proved"
    REFUTED = "refuted"
    SUPPORTED = "supported"
    UNKNOWN = "unknown"
    TIMEOUT = "timeout"
    ERROR = "error"


class Expect(enum.Enum):
    """What the source document asserts about the claim."""

    HOLDS = "holds"
    FAILS = "fails"
    OPEN = "open"


class Outcome(enum.Enum):
    """Status compared with expectation.

    ``confirmed``: proved & holds, refuted & fails, or an ``open`` question settled either way;
    ``contradicted``: proved & fails, refuted & holds; ``evidence``: supported;
    ``open``: unknown or timeout; ``broken``: error.
    """

    CONFIRMED = "confirmed"
    CONTRADICTED = "contradicted"
    EVIDENCE = "evidence"
    OPEN = "open"
    BROKEN = "broken"


def outcome_of(expect: Expect, status: Status) -> Outcome:
    match status:
        case Status.PROVED | Status.REFUTED:
            settled_as = Expect.HOLDS if status is Status.PROVED else Expect.FAILS
            match expect:
                case Expect.OPEN:
                    return Outcome.CONFIRMED
                case Expect.HOLDS | Expect.FAILS:
                    return Outcome.CONFIRMED if expect is settled_as else Outcome.CONTRADICTED
                case _:
                    assert_never(expect)
        case Status.SUPPORTED:
            # Numerical evidence for a claim the source says fails is a warning sign, not a
            # contradiction: only a proof contradicts.
            return Outcome.EVIDENCE
        case Status.UNKNOWN | Status.TIMEOUT:
            return Outcome.OPEN
        case Status.ERROR:
            return Outcome.BROKEN
        case _:
            assert_never(status)


@dataclass(frozen=True, slots=True)
class Source:
    """Where a claim comes from: a document file name and the label/section in it."""

    file: str
    label: str

    def __str__(self) -> str:
        return f"{self.file}, {self.label}"


@dataclass(frozen=True, slots=True)
class Step:
    """One backend call that contributed to a verdict (Why3's proof attempt)."""

    backend: str
    version: str
    action: str
    answer: str
    time_s: float = 0.0
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "version": self.version,
            "action": self.action,
            "answer": self.answer,
            "time_s": round(self.time_s, 6),
            "detail": dict(self.detail),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Step:
        return cls(
            backend=data["backend"],
            version=data["version"],
            action=data["action"],
            answer=data["answer"],
            time_s=float(data.get("time_s", 0.0)),
            detail=dict(data.get("detail", {})),
        )


@dataclass(frozen=True, slots=True)
class Certificate:
    """What a verdict rests on.

    ``witness`` holds exact values as strings (``"201"``, ``"-3/2"``); ``sides`` the claim's
    named terms evaluated exactly at the witness; ``reason`` why a method could not decide;
    ``data`` anything else worth keeping (tables, enclosures, case counts).
    """

    method: str
    steps: tuple[Step, ...] = ()
    witness: Mapping[str, str] | None = None
    sides: Mapping[str, str] | None = None
    reason: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    shrunk_witness: Mapping[str, str] | None = None

    def to_json(self) -> dict[str, Any]:
        out = {
            "method": self.method,
            "steps": [s.to_json() for s in self.steps],
            "witness": None if self.witness is None else dict(self.witness),
            "sides": None if self.sides is None else dict(self.sides),
            "reason": self.reason,
            "data": dict(self.data),
        }
        if self.witness is not None:
            # a refutation's witness as found and, after an audit, shrunk (None until then)
            out["shrunk_witness"] = None if self.shrunk_witness is None else dict(self.shrunk_witness)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Certificate:
        return cls(
            method=data["method"],
            steps=tuple(Step.from_json(s) for s in data.get("steps", ())),
            witness=data.get("witness"),
            sides=data.get("sides"),
            reason=data.get("reason"),
            data=dict(data.get("data", {})),
            shrunk_witness=data.get("shrunk_witness"),
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a discharge function returns: a status and the certificate behind it."""

    status: Status
    certificate: Certificate

    def __post_init__(self) -> None:
        if not isinstance(self.status, Status):
            raise TypeError(f"Verdict.status must be a Status, got {self.status!r}")
        if not isinstance(self.certificate, Certificate):
            raise TypeError(f"Verdict.certificate must be a Certificate, got {self.certificate!r}")


@dataclass(frozen=True, slots=True)
class Context:
    """What the runner hands a discharge function: its seed and limits."""

    obligation_id: str
    seed: int
    timeout_s: float
    slow: bool = False

    @property
    def smt_timeout_ms(self) -> int:
        """Soft solver limit, below the hard wall-clock limit so the solver can answer."""
        return max(1000, int(self.timeout_s * 1000 * 0.8))

    def rng(self, purpose: str = "default") -> numpy.random.Generator:
        """A reproducible numpy generator, independent for each purpose string."""
        import numpy as np

        return np.random.default_rng(derive_seed(self.seed, purpose))

    def py_random(self, purpose: str = "default") -> random.Random:
        return random.Random(derive_seed(self.seed, purpose))


def derive_seed(base: int | str, purpose: str) -> int:
    """A 63-bit seed from a base and a purpose, stable across runs and machines."""
    digest = hashlib.sha256(f"{base}/{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


Discharge = Callable[[Context], Verdict]


@dataclass(frozen=True, slots=True)
class Obligation:
    """A claim plus how to settle it. Declared with :func:`checker.obligation`."""

    id: str
    source: Source
    statement: str
    scope: str
    expect: Expect
    discharge: Discharge
    lean: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()
    slow: bool = False
    claims: tuple[Claim, ...] = ()
    module: str = ""
    file: str = ""
    line: int = 0

    @property
    def hypotheses(self) -> tuple[str, ...]:
        """Names of the hypotheses of every claim this obligation settles."""
        names: list[str] = []
        for claim in self.claims:
            names.extend(f"{claim.name}.{h.name}" for h in claim.hypotheses)
        return tuple(names)

    @property
    def doc(self) -> str:
        return (self.discharge.__doc__ or "").strip()

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"


def audit_flag(audit: Mapping[str, Any] | None, status: str) -> str | None:
    """``vacuous`` for a proof with a vacuous claim, ``brittle`` for seed-dependent evidence,
    read from a result's audit object (its JSON form); ``None`` otherwise."""
    if not audit:
        return None
    vac = audit.get("vacuity")
    if status == "proved" and isinstance(vac, Mapping) and vac.get("verdict") == "vacuous":
        return "vacuous"
    brit = audit.get("brittleness")
    if status == "supported" and isinstance(brit, Mapping) and brit.get("verdict") == "brittle":
        return "brittle"
    return None


@dataclass(frozen=True, slots=True)
class Limits:
    timeout_s: float
    memory_mib: int

    def to_json(self) -> dict[str, Any]:
        return {"timeout_s": self.timeout_s, "memory_mib": self.memory_mib}


@dataclass(frozen=True, slots=True)
class Result:
    """A settled (or unsettled) obligation: the unit every report renders."""

    id: str
    source: Source
    statement: str
    scope: str
    expect: Expect
    status: Status
    certificate: Certificate
    time_s: float
    lean: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()
    hypotheses: tuple[str, ...] = ()
    seed: int | None = None
    limits: Limits | None = None
    audit: Mapping[str, Any] | None = None

    @property
    def flag(self) -> str | None:
        """``vacuous`` (a proof whose hypotheses are contradictory) or ``brittle`` (evidence that
        changes status across seeds), from the audit; ``None`` otherwise or when not audited."""
        return audit_flag(self.audit, self.status.value)

    @property
    def shown_status(self) -> str:
        """The status as reports show it: ``proved (vacuous)``, ``brittle`` instead of
        ``supported``, else the status itself."""
        match self.flag:
            case "vacuous":
                return f"{self.status.value} (vacuous)"
            case "brittle":
                return "brittle"
        return self.status.value

    @property
    def outcome(self) -> Outcome:
        if self.flag == "brittle":
            return Outcome.OPEN  # seed-dependent evidence is not evidence
        return outcome_of(self.expect, self.status)

    @property
    def method(self) -> str:
        return self.certificate.method

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "source": {"file": self.source.file, "label": self.source.label},
            "statement": self.statement,
            "scope": self.scope,
            "expect": self.expect.value,
            "status": self.status.value,
            "shown_status": self.shown_status,
            "outcome": self.outcome.value,
            "method": self.method,
            "lean": list(self.lean),
            "uses": list(self.uses),
            "hypotheses": list(self.hypotheses),
            "time_s": round(self.time_s, 6),
            "seed": self.seed,
            "limits": None if self.limits is None else self.limits.to_json(),
            "certificate": self.certificate.to_json(),
            "audit": None if self.audit is None else dict(self.audit),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        limits = data.get("limits")
        return cls(
            id=data["id"],
            source=Source(data["source"]["file"], data["source"]["label"]),
            statement=data["statement"],
            scope=data["scope"],
            expect=Expect(data["expect"]),
            status=Status(data["status"]),
            certificate=Certificate.from_json(data["certificate"]),
            time_s=float(data["time_s"]),
            lean=tuple(data.get("lean", ())),
            uses=tuple(data.get("uses", ())),
            hypotheses=tuple(data.get("hypotheses", ())),
            seed=data.get("seed"),
            limits=None if limits is None else Limits(limits["timeout_s"], limits["memory_mib"]),
            audit=data.get("audit"),
        )


def result_for(
    obligation: Obligation,
    verdict: Verdict,
    time_s: float,
    seed: int | None = None,
    limits: Limits | None = None,
    audit: Mapping[str, Any] | None = None,
) -> Result:
    return Result(
        id=obligation.id,
        source=obligation.source,
        statement=obligation.statement,
        scope=obligation.scope,
        expect=obligation.expect,
        status=verdict.status,
        certificate=verdict.certificate,
        time_s=time_s,
        lean=obligation.lean,
        uses=obligation.uses,
        hypotheses=obligation.hypotheses,
        seed=seed,
        limits=limits,
        audit=audit,
    )
