"""The core model: obligations, statuses, outcomes, certificates and results.

Everything here is small, frozen and JSON-serialisable. A discharge function returns a
:class:`Verdict`; the runner wraps it, with timing and limits, into a :class:`Result`.
Results are the only thing reports read.
"""

from __future__ import annotations

import contextlib
import enum
import hashlib
import json
import math
import random
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence, assert_never

if TYPE_CHECKING:  # pragma: no cover
    import numpy

    from checker.kernel.claims import Claim

CHECKER_VERSION = "0.1.0"  # the engine's version (checker.__version__), part of every cache key
SCHEMA_VERSION = 2
# Reports of these versions read back (1: no fingerprint or printed claims).
READABLE_SCHEMA_VERSIONS = (1, 2)


class Status(enum.Enum):
    """What a method established. Closed: code switching on it handles every member."""

    PROVED = "proved"
    REFUTED = "refuted"
    SUPPORTED = "supported"
    UNKNOWN = "unknown"
    TIMEOUT = "timeout"
    ERROR = "error"


class Grade(enum.Enum):
    """How much of its statement a proof covers. Closed, and ordered from strongest to weakest.

    ``universal``: every value and every size the statement ranges over; ``bounded``: every
    value, over a finite stated family of sizes or shapes (named in ``over``, e.g. "K = 2…6");
    ``instances``: finitely many named points (a shipped example network, a stated witness).
    Set by the method that proved the claim, never typed as free text.
    """

    UNIVERSAL = "universal"
    BOUNDED = "bounded"
    INSTANCES = "instances"

    @property
    def rank(self) -> int:
        """0 for the strongest grade; a conjunction takes the largest rank of its parts."""
        return _GRADE_ORDER.index(self)


_GRADE_ORDER = (Grade.UNIVERSAL, Grade.BOUNDED, Grade.INSTANCES)


def weakest(grades: "Iterable[Grade]") -> Grade:
    """The weakest of several grades (a conjunction is only as general as its least part)."""
    gs = list(grades)
    if not gs:
        raise ValueError("weakest() needs at least one grade")
    return max(gs, key=lambda g: g.rank)


def grade_label(grade: Grade | None, over: str) -> str:
    """The grade as reports show it next to ``proved``: ``∀``, ``(K = 2…6)``, ``at 1 point``."""
    match grade:
        case None:
            return ""
        case Grade.UNIVERSAL:
            return "∀"
        case Grade.BOUNDED:
            return f"({over})" if over else "(bounded)"
        case Grade.INSTANCES:
            return f"at {over}" if over else "at instances"
        case _:
            assert_never(grade)


class Expect(enum.Enum):
    """What the source document asserts about the claim."""

    HOLDS = "holds"
    FAILS = "fails"
    OPEN = "open"


class Outcome(enum.Enum):
    """Status compared with expectation.

    ``confirmed``: proved & holds, refuted & fails, or an ``open`` question settled either way;
    ``contradicted``: proved & fails, refuted & holds; ``partial``: proved for some sizes only (a
    ``bounded`` proof, or an ``instances`` proof of a theorem declared for every size), of a claim the
    source says holds — the rest of its sizes are open; ``evidence``: supported;
    ``open``: unknown or timeout; ``broken``: error; ``vacuous``: proved, but the hypotheses
    cannot hold together, so the proof says nothing (a failure, like ``contradicted``).
    """

    CONFIRMED = "confirmed"
    PARTIAL = "partial"
    CONTRADICTED = "contradicted"
    EVIDENCE = "evidence"
    OPEN = "open"
    BROKEN = "broken"
    VACUOUS = "vacuous"


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
    grade: Grade | None = None
    over: str = ""
    ledger: tuple[Mapping[str, Any], ...] = ()  # a proof's trust ledger (checker.kernel.proof), set by the runner

    def __post_init__(self) -> None:
        if self.grade is not None and not isinstance(self.grade, Grade):
            raise TypeError(f"Certificate.grade must be a Grade or None, got {self.grade!r}")
        if self.grade in (Grade.BOUNDED, Grade.INSTANCES) and not self.over.strip():
            raise ValueError(f"a {self.grade.value} proof must name what it covers in 'over' (sizes or points)")

    def to_json(self) -> dict[str, Any]:
        out = {
            "method": self.method,
            "grade": None if self.grade is None else self.grade.value,
            "over": self.over,
            "steps": [s.to_json() for s in self.steps],
            "witness": None if self.witness is None else dict(self.witness),
            "sides": None if self.sides is None else dict(self.sides),
            "reason": self.reason,
            "data": dict(self.data),
        }
        if self.witness is not None:
            # a refutation's witness as found and, after an audit, shrunk (None until then)
            out["shrunk_witness"] = None if self.shrunk_witness is None else dict(self.shrunk_witness)
        if self.ledger:
            out["ledger"] = [dict(e) for e in self.ledger]
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
            grade=None if data.get("grade") is None else Grade(data["grade"]),
            over=data.get("over", "") or "",
            ledger=tuple(dict(e) for e in data.get("ledger", ())),
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a discharge function returns: a status and the certificate behind it.

    A ``proved`` verdict counts only with ``fact``, the kernel fact it rests on
    (:mod:`checker.kernel.proof`); the runner checks that fact against the declared theorem and takes
    the grade from it. The fact stays in the process that made it (reports read the certificate)."""

    status: Status
    certificate: Certificate
    fact: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.status, Status):
            raise TypeError(f"Verdict.status must be a Status, got {self.status!r}")
        if not isinstance(self.certificate, Certificate):
            raise TypeError(f"Verdict.certificate must be a Certificate, got {self.certificate!r}")
        if self.status is Status.PROVED and self.certificate.grade is None:
            raise ValueError(
                "a proved verdict must say what it covers: its grade comes from the kernel fact it rests on "
                "(checker.kernel.proof)"
            )
        if self.status is not Status.PROVED and self.certificate.grade is not None:
            raise ValueError(f"only a proved verdict has a grade (this one is {self.status.value})")


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
    theorem: tuple[Claim, ...] = ()  # the declared theorem: a proof must prove it, a witness must refute it
    no_theorem: str = ""  # why a holds/fails statement is not a claim (then its proofs are not checked against one)

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


# The limits and seed a run uses unless told otherwise (the runner, discovery, the CLI and the pytest
# plugin all read them here).
DEFAULT_TIMEOUT_S = 120.0
DEFAULT_MEMORY_MIB = 4096
DEFAULT_SEED = 20260806


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
    vacuity: Mapping[str, Any] | None = None
    # what was checked: the fingerprint (checker.store.fingerprint) and the printed claims
    # (checker.kernel.printing, one JSON object per declared claim; () none declared, None not recorded)
    fingerprint: Mapping[str, Any] | None = None
    claims: tuple[Mapping[str, Any], ...] | None = None
    # the declared theorem ranges over every size (a sized claim): only a universal proof covers it
    general: bool = False
    # the declared theorem as printed formulas (() none declared, None not recorded): statements lead with it
    theorem: tuple[str, ...] | None = None

    @property
    def is_partial(self) -> bool:
        """Proved for some sizes of a statement about every size: a ``bounded`` proof (a finite family
        of sizes of a width-free statement), or an ``instances`` proof of a theorem declared for every
        size. Never "confirmed" nor "fully proved"; ``check --require-universal`` fails on it."""
        if self.status is not Status.PROVED or self.is_vacuous:
            return False
        return self.grade is Grade.BOUNDED or (self.grade is Grade.INSTANCES and self.general)

    @property
    def grade(self) -> Grade | None:
        return self.certificate.grade

    @property
    def grade_over(self) -> str:
        return self.certificate.over

    @property
    def status_label(self) -> str:
        """Status with its grade: ``proved ∀``, ``proved (K = 2…6)``, ``proved at 1 point``,
        ``proved (vacuous)``; other statuses as :attr:`shown_status`."""
        if self.is_vacuous:
            return "proved (vacuous)"
        if self.status is Status.PROVED:
            label = grade_label(self.grade, self.grade_over)
            return f"proved {label}" if label else "proved"
        return self.shown_status

    @property
    def is_vacuous(self) -> bool:
        """A proof whose hypotheses cannot hold together (by the default vacuity check or the audit)."""
        if self.status is not Status.PROVED:
            return False
        if isinstance(self.vacuity, Mapping) and self.vacuity.get("verdict") == "vacuous":
            return True
        return self.flag == "vacuous"

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
        if self.is_vacuous:
            return Outcome.VACUOUS
        if self.flag == "brittle":
            return Outcome.OPEN  # seed-dependent evidence is not evidence
        if self.is_partial:
            # a claim the source says fails may fail beyond the proved sizes: not a contradiction
            return Outcome.PARTIAL if self.expect is not Expect.FAILS else Outcome.OPEN
        return outcome_of(self.expect, self.status)

    @property
    def method(self) -> str:
        return self.certificate.method

    @property
    def stated(self) -> str:
        """The statement as every format leads with it: the declared theorem's printed formulas, then
        the prose as their gloss (the prose alone when no theorem is declared)."""
        return stated(self.statement, self.theorem)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "source": {"file": self.source.file, "label": self.source.label},
            "statement": self.statement,
            "scope": self.scope,
            "expect": self.expect.value,
            "status": self.status.value,
            "shown_status": self.shown_status,
            "grade": None if self.grade is None else self.grade.value,
            "grade_over": self.grade_over,
            "status_label": self.status_label,
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
            "vacuity": None if self.vacuity is None else dict(self.vacuity),
            "fingerprint": None if self.fingerprint is None else dict(self.fingerprint),
            "claims": None if self.claims is None else [dict(c) for c in self.claims],
            "general": self.general,
            "partial": self.is_partial,
            "theorem": None if self.theorem is None else list(self.theorem),
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
            vacuity=data.get("vacuity"),
            fingerprint=data.get("fingerprint"),
            claims=None if data.get("claims") is None else tuple(data["claims"]),
            general=bool(data.get("general", False)),
            theorem=None if data.get("theorem") is None else tuple(str(t) for t in data["theorem"]),
        )


STATED_FORMULA_CHARS = 600
"""A printed theorem longer than this leads a statement cut short (``…``): a closed claim about a
shipped network can print at tens of thousands of characters; ``show`` and JSON keep it whole."""


def stated(statement: str, theorem: Sequence[str] | None, limit: int | None = STATED_FORMULA_CHARS) -> str:
    """``"<theorem> — <prose>"``: the printed theorem first, its formulas cut at ``limit`` characters
    together (``None``: whole), the prose as its gloss."""
    if not theorem:
        return statement
    formulas = "; ".join(theorem)
    if limit is not None and len(formulas) > limit:
        formulas = formulas[:limit - 1].rstrip() + "…"
    return f"{formulas} — {statement}"


def result_for(
    obligation: Obligation,
    verdict: Verdict,
    time_s: float,
    seed: int | None = None,
    limits: Limits | None = None,
    audit: Mapping[str, Any] | None = None,
    vacuity: Mapping[str, Any] | None = None,
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
        vacuity=vacuity,
        general=declares_every_size(obligation),
    )


def declares_every_size(obligation: Obligation) -> bool:
    """Is the obligation's declared theorem stated for every size (a sized claim)?"""
    return any(hasattr(c, "size_names") for c in getattr(obligation, "theorem", ()) or ())


def strict(value: Any, where: str = "value") -> Any:
    """``value`` as plain JSON data: dicts with string keys, lists, str, int, float, bool, None.
    A non-finite float becomes the string ``"NaN"``, ``"Infinity"`` or ``"-Infinity"`` (strict
    parsers reject the bare tokens). Anything else raises :class:`TypeError` naming where it is."""
    if value is None or isinstance(value, (str, bool, int)):
        if type(value) not in (str, bool, int, type(None)):
            # a str/int subclass (an enum, numpy.bool_ is not one) would not read back as itself
            return str(value) if isinstance(value, str) else int(value)
        return value
    if isinstance(value, float):
        value = float(value)  # a float subclass (numpy.float64) reads back as a float
        if math.isfinite(value):
            return value
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if isinstance(k, (bool, int, float)) or k is None:
                k = json.dumps(strict(k))  # as json.dumps writes such a key ("256", "true")
                k = k[1:-1] if k.startswith('"') else k
            elif type(k) is not str:
                if not isinstance(k, str):
                    raise TypeError(f"{where} has a key {k!r} of type {type(k).__name__}; keys must be strings")
                k = str(k)
            out[k] = strict(v, f"{where}[{k!r}]")
        return out
    if isinstance(value, (list, tuple)):
        return [strict(v, f"{where}[{i}]") for i, v in enumerate(value)]
    raise TypeError(f"{where} is a {type(value).__module__}.{type(value).__name__} ({value!r:.60}), "
                    "which is not JSON data; use str, int, float, bool, None, lists and dicts")


_SELF_CONTAINED = threading.local()


@contextlib.contextmanager
def self_contained_child() -> Iterator[None]:
    """Around the start of a child process the engine forks to compute on data it already holds
    (a second solver on an SMT-LIB string, :mod:`checker.backends.confirm`): the child reads no file
    of the project, so the recorder of what a job read (:mod:`checker.run.reads`) need not take it
    for a process that may have read anything. Only the engine's second-solver backend may use it
    (catalogue code that started a process inside it would hide what that process read)."""
    import sys

    caller = str(sys._getframe(2).f_globals.get("__name__", "?"))  # past contextlib's frame
    if caller != "checker.backends.confirm":
        raise TypeError(f"{caller} may not mark a child process self-contained: only checker.backends.confirm does")
    _SELF_CONTAINED.on = True
    try:
        yield
    finally:
        _SELF_CONTAINED.on = False


def starting_self_contained_child() -> bool:
    """Is this thread inside :func:`self_contained_child`?"""
    return getattr(_SELF_CONTAINED, "on", False)
