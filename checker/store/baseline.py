"""Regression against a saved run (Why3's ``replay``).

A baseline is a JSON report (the same schema as ``check --format json``). Comparing a run
with it names, per obligation, what changed — "refuted instead of proved", new, removed,
statement or expectation changed, a claim edited, the discharge code edited — and says which
changes are regressions: a lost proof, a lost refutation, lost evidence (``supported`` →
``unknown``/``timeout``/``error``), a new contradiction or breakage, or a claim that became
*weaker*, *incomparable* or could not be compared (:mod:`checker.store.claim_relation`), or was
dropped. Like a snapshot test, such a claim change fails until the author accepts it by saving
the baseline again (``--save-baseline``); a stronger or equivalent claim is listed and passes.
When both runs were audited, every audit whose verdict changed is listed (a new vacuity or
brittleness flag, or a bound whose tightness became ``exceeded``, is a regression).

A baseline of schema 1 (before fingerprints and printed claims) still loads; the comparison then
says once that claim changes cannot be seen against it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from checker.store.cache import atomic_write
from checker.kernel.errors import UsageError
from checker.kernel.model import Outcome, Result, Status
from checker.report.reports import read_json, render_json

FAILING_RELATIONS = ("weaker", "incomparable", "undecided")


@dataclass(frozen=True, slots=True)
class Change:
    id: str
    kind: str  # status | grade | new | removed | statement | expect | claim | code | audit | note
    message: str
    regression: bool
    detail: tuple[str, ...] = ()  # further lines: the claim diff, the relation's quantities


def save(path: str | Path, results: Sequence[Result]) -> None:
    atomic_write(path, render_json(results))


def load(path: str | Path) -> list[Result]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read baseline {path}: {exc.strerror}; create one with --save-baseline") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"baseline {path} is not UTF-8 text ({exc.reason}); create one with --save-baseline") from exc
    return read_json(text)


def _lines(claim: Mapping[str, Any]) -> list[str]:
    """One line per part of a printed claim, for the diff."""
    if claim.get("error"):
        return [f"{claim['name']}: cannot be printed ({claim['error']})"]
    out = [f"∀ {' '.join(claim.get('variables', ()))}"]
    out += [f"domain {d['name']}: {d['text']}" for d in claim.get("domains", ())]
    out += [f"hypothesis {h['name']}: {h['text']}" for h in claim.get("hypotheses", ())]
    if claim.get("conclusion"):
        out.append(f"conclusion: {claim['conclusion']['text']}")
    out += [f"term {t['name']}: {t['text']}" for t in claim.get("terms", ())]
    return out


def _diff(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    return [line for line in difflib.unified_diff(_lines(old), _lines(new), lineterm="", n=0)
            if not line.startswith(("---", "+++", "@@"))]


def _canonical(claim: Mapping[str, Any]) -> str:
    from checker.kernel.printing import PrintedClaim

    return PrintedClaim.from_json(claim).canonical


def claim_changes(ob_id: str, before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                  sizes_only: str = "") -> list[Change]:
    """One change per edited, added or dropped claim, with its diff and its logical relation.

    ``sizes_only`` names the sizes a claim at fixed sizes encodes when its statement ranges over
    more (a ``bounded`` proof): a relation decided at those sizes says nothing of the others, so an
    "equivalent" or "stronger" there is reported as such and must be accepted like a weakening. A
    claim for every size (``sized``) is related for every size (shared aggregates are opaque)."""
    from checker.store.claim_relation import EQUIVALENT, STRONGER, relate
    from checker.kernel.printing import PrintedClaim

    old = {c["name"]: c for c in before}
    new = {c["name"]: c for c in after}
    out: list[Change] = []
    for name in [*old, *(n for n in new if n not in old)]:
        a, b = old.get(name), new.get(name)
        if b is None:
            out.append(Change(ob_id, "claim", f"claim {name} dropped: the obligation checks less than before", True,
                              tuple(f"- {line}" for line in _lines(a or {"name": name}))))
            continue
        if a is None:
            out.append(Change(ob_id, "claim", f"claim {name} added (stronger: the obligation checks more)", False,
                              tuple(f"+ {line}" for line in _lines(b))))
            continue
        if _canonical(a) == _canonical(b):
            continue
        rel = relate(PrintedClaim.from_json(a), PrintedClaim.from_json(b))
        detail = _diff(a, b)
        if rel.quantities:
            detail += [f"  where {k} = {v}" for k, v in rel.quantities.items()]
        failing = rel.kind in FAILING_RELATIONS
        described = rel.describe()
        if sizes_only and not b.get("sized") and rel.kind in (EQUIVALENT, STRONGER):
            described = (f"{described} at the encoded sizes only ({sizes_only}); the statement ranges over sizes "
                         "the claim does not encode, where the change may be false")
            failing = True
        elif b.get("sized") and rel.kind in (EQUIVALENT, STRONGER):
            described += " for every size"
        hint = "; accept it with --save-baseline" if failing else ""
        out.append(Change(ob_id, "claim", f"claim {name} {described}{hint}", failing, tuple(detail)))
    return out


def compare(before: Sequence[Result], after: Sequence[Result]) -> list[Change]:
    old = {r.id: r for r in before}
    new = {r.id: r for r in after}
    changes: list[Change] = []
    if any(r.claims is None for r in before) and any(r.claims is not None for r in after):
        changes.append(Change("baseline", "note", "the baseline records no printed claims (an older schema): "
                              "claim changes cannot be seen against it; save it again with --save-baseline", False))
    bad = (Outcome.CONTRADICTED, Outcome.BROKEN, Outcome.VACUOUS)
    for ob_id in sorted(old.keys() | new.keys()):
        a, b = old.get(ob_id), new.get(ob_id)
        if a is None:
            assert b is not None
            changes.append(Change(ob_id, "new", f"new obligation: {b.status.value} ({b.outcome.value})", b.outcome in bad))
            continue
        if b is None:
            changes.append(Change(ob_id, "removed", f"removed (was {a.status.value})", False))
            continue
        if (a.statement, a.scope) != (b.statement, b.scope):
            changes.append(Change(ob_id, "statement", "statement or scope changed", False))
        if a.expect is not b.expect:
            changes.append(Change(ob_id, "expect", f"expect {b.expect.value} instead of {a.expect.value} "
                                  f"(outcome {b.outcome.value}, was {a.outcome.value})", False))
        claims_changed = False
        if a.claims is not None and b.claims is not None:
            found = claim_changes(ob_id, a.claims, b.claims, b.grade_over if b.is_partial else "")
            claims_changed = bool(found)
            changes.extend(found)
        code_a, code_b = (a.fingerprint or {}).get("code"), (b.fingerprint or {}).get("code")
        if code_a and code_b and code_a != code_b and not claims_changed:
            changes.append(Change(ob_id, "code", "discharge code, a helper or a data file changed (re-checked; "
                                  "claims unchanged)", False))
        if a.status is not b.status:
            lost_proof = a.status is Status.PROVED
            newly_bad = b.outcome in bad and a.outcome not in bad
            lost_refutation = a.status is Status.REFUTED and a.outcome is Outcome.CONFIRMED
            lost_evidence = a.status is Status.SUPPORTED and b.status in (Status.UNKNOWN, Status.TIMEOUT, Status.ERROR)
            changes.append(Change(
                ob_id, "status", f"{b.status.value} instead of {a.status.value} ({b.outcome.value})"
                + (": evidence lost" if lost_evidence else ""),
                lost_proof or newly_bad or lost_refutation or lost_evidence,
            ))
        elif a.outcome is not b.outcome and b.outcome in bad:
            changes.append(Change(ob_id, "status", f"{b.outcome.value} instead of {a.outcome.value}", True))
        elif a.status is Status.PROVED and b.is_partial and not a.is_partial:
            changes.append(Change(ob_id, "grade", f"proved for {b.grade_over or 'some sizes'} only, was "
                                  f"{a.status_label}: the proof no longer covers every size", True))
        if a.status is b.status and a.audit is not None and b.audit is not None and a.shown_status != b.shown_status:
            # both runs audited: a proof that became vacuous, or evidence that became brittle, is a regression
            changes.append(Change(ob_id, "audit", f"shown {b.shown_status} instead of {a.shown_status}", b.flag is not None))
        if a.audit is not None and b.audit is not None:
            # a changed flag (vacuous, brittle) is already named by the shown status above
            flagged = {"vacuity", "brittleness"} if a.shown_status != b.shown_status else set()
            for key, old_v, new_v in audit_changes(a.audit, b.audit):
                if key in flagged:
                    continue
                changes.append(Change(ob_id, "audit", f"{key}: {new_v} instead of {old_v}",
                                      key == "tightness" and new_v.startswith("exceeded")
                                      and not old_v.startswith("exceeded")))
    return changes


AUDIT_VERDICTS = ("vacuity", "necessity", "tightness", "shrink", "brittleness", "mutation")


def _audit_verdict(entry: Any) -> str | None:
    if not isinstance(entry, Mapping):
        return None
    return str(entry.get("summary") or entry.get("verdict"))


def audit_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """``(audit, old verdict, new verdict)`` for every audit whose verdict differs between two audited runs."""
    out = []
    for key in AUDIT_VERDICTS:
        old_v, new_v = _audit_verdict(before.get(key)), _audit_verdict(after.get(key))
        if old_v != new_v and not (old_v is None and new_v is None):
            out.append((key, old_v or "not run", new_v or "not run"))
    return out


def render(changes: Sequence[Change]) -> str:
    if not changes:
        return "baseline: no changes\n"
    counted = [c for c in changes if c.kind != "note"]
    lines = [f"baseline: {len(counted)} change(s), {sum(c.regression for c in changes)} regression(s)"]
    for c in changes:
        if c.kind == "note":
            lines.append(f"  note: {c.message}")
            continue
        lines.append(f"  {'REGRESSION ' if c.regression else ''}{c.id}: {c.message}")
        lines.extend(f"      {line}" for line in c.detail)
    return "\n".join(lines) + "\n"


def to_json(changes: Sequence[Change]) -> list[dict[str, Any]]:
    return [{"id": c.id, "kind": c.kind, "message": c.message, "regression": c.regression, "detail": list(c.detail)}
            for c in changes]
