"""The whole default catalogue, cold, against a committed snapshot of what it settles.

A speed-up must not change what a user reads: per obligation the status, the grade and what it
covers, the scope, the outcome against the expectation, and a refutation's witness. The snapshot
(``tests/fixtures/catalogue_outcomes.json``) was taken from a cold check of the version before the
speed-ups; an intended change of a claim updates it with

    python -m checker check --no-cache --format json -o /tmp/run.json
    python tests/catalogue/test_outcomes_snapshot.py /tmp/run.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "catalogue_outcomes.json"
KEYS = ("status", "grade", "grade_over", "scope", "outcome")


def snapshot_of(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["id"]: {**{k: r.get(k) for k in KEYS}, "witness": r["certificate"].get("witness")}
            for r in sorted(results, key=lambda r: r["id"])}


def test_a_cold_full_check_settles_every_obligation_as_the_snapshot_says(catalogue_report):
    """The session's one cold ``check --no-cache --jobs 2`` (tests/shared_run.py) against the snapshot."""
    got = snapshot_of(list(catalogue_report.values()))
    want = json.loads(FIXTURE.read_text(encoding="utf-8"))["results"]
    assert sorted(got) == sorted(want)
    changed = [f"{i}: {k}: {want[i][k]!r} → {got[i][k]!r}" for i in want for k in want[i] if got[i][k] != want[i][k]]
    assert not changed, "\n".join(changed)


if __name__ == "__main__":
    about = json.loads(FIXTURE.read_text(encoding="utf-8"))["about"]
    run = snapshot_of(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))["results"])
    FIXTURE.write_text(json.dumps({"about": about, "results": run}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
