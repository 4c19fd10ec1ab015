"""The proof kernel: the only code that makes a fact, and so the only code behind ``proved``.

As in the LCF kernels of HOL Light and Isabelle, a :class:`Fact` is a value that only this module's
rules make. A fact says that some claims hold over what its grade covers (``universal``: every value
and size; ``bounded``: every value, for the sizes named in ``over``; ``instances``: the points named in
``over``), and carries its **trust ledger** (Lean's ``#print axioms``): every solver query with solver,
version and answer, every simplification, enclosure, enumeration, catalogue computation trusted
through the escape hatch, and lemma assumed but not proved within the obligation.

The rules:

- :func:`issue`: a backend rule (z3 ``unsat`` of the negation, a sympy reduction to 0, a rigorous
  interval enclosure over a box, exact evaluation at a point). Only the backends call it; the call
  is refused from anywhere else, so a catalogue cannot state a fact it did not compute.
- :func:`conjoin`: the conjunction of facts; its grade is the weakest of theirs, and a family of
  sizes (``"K = 2…6"``) makes a universal conjunction bounded over those sizes. A lemma assumed by
  one part and proved by another is discharged; the rest stay assumed in the ledger.
- :func:`weaken`: the same fact over less (a grade is never strengthened).
- :func:`trusted_computation`: the one escape hatch for computations the kernel cannot express
  (a count over a shipped network, an enumeration of 2³² bit patterns in numpy). The fact names the
  file and line that asked for it; the ledger and the summary count it as trusted.

Whether a fact proves an obligation is decided by :func:`covers`, which the runner applies to every
proved verdict: the fact's claims must include the obligation's declared theorem. A verdict built
by hand, without a fact, is an ``error``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from checker.kernel.model import Grade, weakest

if TYPE_CHECKING:  # pragma: no cover
    from checker.kernel.claims import Claim

#: Modules whose code may issue backend facts: the backends themselves and the kernel.
_RULE_MODULES = ("checker.backends.", "checker.kernel.")
_SEAL = object()
_ISSUED: dict[int, "Fact"] = {}  # every fact made in this process, so a forged one is recognised


class KernelError(TypeError):
    """A rule was asked for something it does not allow (a fact from outside a backend, …)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a trust ledger: what kind of trust, in words, with its details."""

    kind: str  # solver, confirmation, simplification, enclosure, enumeration, instance, trusted, assumed, unused, rule
    text: str
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, **({"detail": dict(self.detail)} if self.detail else {})}


def subject_of(claim: Claim | str) -> str:
    """The identity of a claim for the kernel: its printed canonical form (two claims written apart
    but printing alike are the same claim; a claim that cannot be printed is its name, marked)."""
    if isinstance(claim, str):
        return claim
    if not hasattr(claim, "formula") and isinstance(getattr(claim, "subject", None), str):
        return claim.subject  # a claim another backend states (a sympy limit), with its own exact form
    from checker.kernel.printing import print_claim

    return print_claim(claim, spell=False).canonical


class Fact:
    """Claims proved over a grade, with the ledger they rest on. Made only by the rules here."""

    __slots__ = ("subjects", "names", "grade", "over", "ledger", "assumes")

    def __init__(self, seal: object, subjects: frozenset[str], names: tuple[str, ...], grade: Grade, over: str,
                 ledger: tuple[Entry, ...], assumes: frozenset[str] = frozenset()) -> None:
        if seal is not _SEAL:
            raise KernelError("a Fact is made only by the kernel's rules (checker.kernel.proof); "
                              "prove the claim with a backend, or use trusted_computation for a computation")
        if not isinstance(grade, Grade):
            raise KernelError(f"a fact's grade must be a Grade, got {grade!r}")
        if grade is not Grade.UNIVERSAL and not over.strip():
            raise KernelError(f"a {grade.value} fact must name what it covers")
        for name, value in (("subjects", subjects), ("names", names), ("grade", grade), ("over", over),
                            ("ledger", ledger), ("assumes", assumes)):
            object.__setattr__(self, name, value)
        _ISSUED[id(self)] = self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Fact is immutable")

    def __repr__(self) -> str:
        return f"Fact({', '.join(self.names)}; {self.grade.value}{' ' + self.over if self.over else ''})"


def is_fact(value: Any) -> bool:
    """Was ``value`` made by this kernel's rules, in this process?"""
    return isinstance(value, Fact) and _ISSUED.get(id(value)) is value


def _caller_module(depth: int) -> str:
    frame = sys._getframe(depth + 1)
    return str(frame.f_globals.get("__name__", "?"))


def issue(claims: Claim | str | Sequence[Claim | str], grade: Grade, over: str, ledger: Iterable[Entry],
          *, assumes: Iterable[Claim | str] = (), name: str | None = None) -> Fact:
    """A backend rule's fact: ``claims`` hold over ``grade``/``over``, resting on ``ledger``, relative to
    the lemma claims ``assumes`` (instances of them were given to the solver). Backends only."""
    caller = _caller_module(1)
    if not caller.startswith(_RULE_MODULES):
        raise KernelError(f"{caller} may not issue facts: only backend rules do (checker.backends.*); "
                          "a computation the kernel cannot express goes through trusted_computation()")
    items = [claims] if isinstance(claims, str) or not isinstance(claims, Sequence) else list(claims)
    if not items:
        raise KernelError("a fact is about at least one claim")
    names = (name,) if name else tuple(c if isinstance(c, str) else c.name for c in items)
    return Fact(_SEAL, frozenset(subject_of(c) for c in items), names, grade, over, tuple(ledger),
                frozenset(subject_of(c) for c in assumes))


def conjoin(facts: Mapping[str, Fact], family: str | None = None, *, lemmas: bool = False,
            arities: Iterable[int] = ()) -> Fact:
    """The conjunction of ``facts``. Its grade is the weakest of theirs; with ``family`` (the parts are
    the statement at the sizes it names) a universal conjunction is ``bounded`` over ``family``. Parts
    that prove claims with different numbers of variables (``arities``) are taken to be sizes of one
    statement, and capped the same way, unless ``lemmas`` says they are distinct lemmas."""
    if not facts:
        raise KernelError("a conjunction needs at least one fact")
    for name, f in facts.items():
        if not is_fact(f):
            raise KernelError(f"part {name!r} is not a kernel fact")
    parts = list(facts.values())
    grade = weakest(f.grade for f in parts)
    overs = [f.over for f in parts if f.grade is grade and f.over]
    over = "; ".join(dict.fromkeys(overs))
    if grade is Grade.INSTANCES:
        over = _count_points(parts) or over
    elif family is not None:
        grade, over = (Grade.BOUNDED if grade is Grade.UNIVERSAL else grade), family
    elif grade is Grade.UNIVERSAL and len(set(arities)) > 1 and not lemmas:
        grade, over = Grade.BOUNDED, f"the {len(parts)} checked sizes ({', '.join(facts)})"
    subjects = frozenset().union(*(f.subjects for f in parts))
    assumes = frozenset().union(*(f.assumes for f in parts)) - subjects
    ledger = tuple(e for f in parts for e in f.ledger if not (e.kind == "assumed" and e.detail.get("subject") in subjects))
    names = tuple(dict.fromkeys(n for f in parts for n in f.names))
    return Fact(_SEAL, subjects, names, grade, over, ledger, assumes)


def weaken(fact: Fact, grade: Grade, over: str) -> Fact:
    """``fact`` over less: its grade weakened to ``grade`` (never strengthened: a stronger ``grade``
    leaves the fact as it is)."""
    if not is_fact(fact):
        raise KernelError("only a kernel fact can be weakened")
    if grade.rank < fact.grade.rank:
        return fact
    if grade is fact.grade and fact.over and grade is not Grade.UNIVERSAL:
        over = over or fact.over
    return Fact(_SEAL, fact.subjects, fact.names, grade, over if grade is not Grade.UNIVERSAL else "", fact.ledger,
                fact.assumes)


def trusted_computation(claims: Claim | str | Sequence[Claim | str], grade: Grade, over: str, what: str) -> Fact:
    """The escape hatch: a computation of the catalogue the kernel cannot express, trusted as it is.

    ``what`` says what was computed and how (``"exact count of the retained weights of the shipped
    network"``). The ledger records it with the file and line that asked; reports count such proofs as
    resting on a trusted computation. Prefer a backend rule wherever one can state the computation."""
    frame = sys._getframe(1)
    return _trusted_at(claims, grade, over, what, f"{frame.f_code.co_filename}:{frame.f_lineno}")


def _trusted_at(claims: Claim | str | Sequence[Claim | str], grade: Grade, over: str, what: str, where: str) -> Fact:
    if not isinstance(what, str) or not what.strip():
        raise KernelError("trusted_computation: say what was computed (what=...)")
    items = [claims] if isinstance(claims, str) or not isinstance(claims, Sequence) else list(claims)
    names = tuple(c if isinstance(c, str) else c.name for c in items)
    entry = Entry("trusted", f"trusted computation at {where}: {what}", {"where": where})
    return Fact(_SEAL, frozenset(subject_of(c) for c in items), names, grade, over, (entry,))


def refute_existence(theorem: Any, family: Mapping[str, Any], fact: Fact) -> Fact:
    """The negation of ``theorem`` (an :class:`checker.kernel.existence.Existence`, "there are constants such
    that …") from ``fact``, a universal proof of the statement the kernel builds from the theorem and the
    witness ``family`` (:func:`checker.kernel.existence.family_claim`: for every choice of the constants the
    family's point lies in the body's domains, meets its hypotheses and violates its conclusion). A proof
    at some choices only (bounded, instances) refutes nothing and is refused."""
    from checker.kernel.existence import Existence, family_claim

    if not isinstance(theorem, Existence):
        raise KernelError(f"refute_existence refutes an existence over constants, not {type(theorem).__name__}")
    if not is_fact(fact):
        raise KernelError("refute_existence needs a kernel fact proving the witness family")
    wanted = family_claim(theorem, family)
    ok, why = covers(fact, [wanted])
    if not ok:
        raise KernelError(f"refute_existence: {why}")
    if fact.grade is not Grade.UNIVERSAL:
        raise KernelError(f"refute_existence: the witness family is proved {fact.grade.value} ({fact.over}), not for "
                          "every choice of the constants")
    entry = Entry("rule", f"witness family for every {', '.join(theorem.constants)}: ∃ refuted by instantiating its "
                          f"universal variables at the family ({wanted.name})", {"refutes": theorem.name})
    return Fact(_SEAL, frozenset({theorem.refutation_subject}), (f"¬{theorem.name}",), Grade.UNIVERSAL, "",
                (*fact.ledger, entry), fact.assumes)


def refute_instance(theorem: Any, fact: Fact) -> Fact:
    """The negation of ``theorem`` (a :class:`checker.kernel.existence.SomeInstance`, "some point satisfies
    the claim") from ``fact``, a universal proof of the statement the kernel builds from its claim
    (:func:`checker.kernel.existence.no_instance_claim`: at every point of the domains where the hypotheses
    hold, the conclusion fails). A proof over some sizes or points only refutes nothing and is refused."""
    from checker.kernel.existence import SomeInstance, no_instance_claim

    if not isinstance(theorem, SomeInstance):
        raise KernelError(f"refute_instance refutes an existence of an instance, not {type(theorem).__name__}")
    if not is_fact(fact):
        raise KernelError("refute_instance needs a kernel fact proving that no instance exists")
    wanted = no_instance_claim(theorem.claim)
    ok, why = covers(fact, [wanted])
    if not ok:
        raise KernelError(f"refute_instance: {why}")
    if fact.grade is not Grade.UNIVERSAL:
        raise KernelError(f"refute_instance: 'no instance' is proved {fact.grade.value} ({fact.over}), not at every point")
    entry = Entry("rule", f"no point satisfies {theorem.claim.name}: ∃ refuted by the universal proof of its negation "
                          f"({wanted.name})", {"refutes": theorem.name})
    return Fact(_SEAL, frozenset({theorem.refutation_subject}), (f"¬{theorem.name}",), Grade.UNIVERSAL, "",
                (*fact.ledger, entry), fact.assumes)


def assumed_entries(fact: Fact) -> tuple[Entry, ...]:
    """Ledger lines for the lemmas ``fact`` rests on that no part of its proof proved."""
    return tuple(Entry("assumed", "lemma assumed (proved elsewhere, or not at all)", {"subject": s})
                 for s in sorted(fact.assumes))


def covers(fact: Fact, theorem: Sequence[Claim]) -> tuple[bool, str]:
    """Does ``fact`` prove the declared ``theorem`` (every claim of it)? ``(True, "")`` or why not."""
    if not is_fact(fact):
        return False, "the verdict carries no kernel fact"
    wanted = {subject_of(c): c.name for c in theorem}
    missing = [name for subject, name in wanted.items() if subject not in fact.subjects]
    if missing:
        same_name = sorted(set(missing) & set(fact.names))
        return False, (f"the proof establishes {', '.join(fact.names)}, not the declared theorem's "
                       f"{', '.join(missing)}" + (f" ({', '.join(same_name)}: a claim of that name was proved, but its "
                                                  "formula differs from the declared one)" if same_name else ""))
    return True, ""


def ledger_json(fact: Fact, entries: Sequence[Entry] | None = None) -> list[dict[str, Any]]:
    """The ledger of ``fact`` as JSON: its entries (or ``entries``, the same ones as a backend has
    completed them, e.g. confirmations asked for on demand) and the lemmas it assumes."""
    return [e.to_json() for e in (*(fact.ledger if entries is None else entries), *assumed_entries(fact))]


def _count_points(parts: Sequence[Fact]) -> str:
    """``"7 points"`` when every instances-part says ``"N point(s)"``, else ``""``."""
    total = 0
    for f in parts:
        if f.grade is not Grade.INSTANCES:
            continue
        head = f.over.split(" ", 1)
        if len(head) != 2 or not head[0].isdigit() or not head[1].startswith(("point", "witness")):
            return ""
        total += int(head[0])
    return f"{total} point{'s' if total != 1 else ''}" if total else ""
