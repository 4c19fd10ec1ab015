"""Regression against a saved run (Why3's ``replay``).

A baseline is a JSON report (the same schema as ``check --format json``). Comparing a run
with it names, per obligation, what changed — "refuted instead of proved", new, removed,
statement changed — and says which changes are regressions: a lost proof, or a new
contradiction or breakage.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from checker.cache import atomic_write
from checker.errors import UsageError
from checker.model import Outcome, Result, Status
from checker.reports import read_json, render_json


@dataclass(frozen=True, slots=True)
class Change:
    id: str
    kind: str  # status | new | removed | statement | audit
    message: str
    regression: bool


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


def compare(before: Sequence[Result], after: Sequence[Result]) -> list[Change]:
    old = {r.id: r for r in before}
    new = {r.id: r for r in after}
    changes: list[Change] = []
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
        if a.status is not b.status:
            lost_proof = a.status is Status.PROVED
            newly_bad = b.outcome in bad and a.outcome not in bad
            lost_refutation = a.status is Status.REFUTED and a.outcome is Outcome.CONFIRMED
            changes.append(Change(
                ob_id, "status", f"{b.status.value} instead of {a.status.value} ({b.outcome.value})",
                lost_proof or newly_bad or lost_refutation,
            ))
        elif a.outcome is not b.outcome and b.outcome in bad:
            changes.append(Change(ob_id, "status", f"{b.outcome.value} instead of {a.outcome.value}", True))
        if a.status is b.status and a.audit is not None and b.audit is not None and a.shown_status != b.shown_status:
            # both runs audited: a proof that became vacuous, or evidence that became brittle, is a regression
            changes.append(Change(ob_id, "audit", f"shown {b.shown_status} instead of {a.shown_status}", b.flag is not None))
    return changes


def render(changes: Sequence[Change]) -> str:
    if not changes:
        return "baseline: no changes\n"
    lines = [f"baseline: {len(changes)} change(s), {sum(c.regression for c in changes)} regression(s)"]
    for c in changes:
        lines.append(f"  {'REGRESSION ' if c.regression else ''}{c.id}: {c.message}")
    return "\n".join(lines) + "\n"
