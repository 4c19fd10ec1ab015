"""Every obligation of the shipped catalogue that expects ``holds`` or ``fails`` declares its theorem
as a claim, or says in ``no_theorem`` why the statement is not one; the catalogue loads with no
declaration warning and no typed grade."""

from __future__ import annotations

import re
from pathlib import Path

from checker.run.discovery import discover

ROOT = Path(__file__).resolve().parents[2]


def test_every_holds_or_fails_obligation_declares_a_theorem_or_why_not():
    cat = discover("obligations", isolate=False)
    assert not cat.errors and not cat.warnings, [w.message for w in cat.warnings]
    for ob in cat.obligations:
        if ob.expect.value in ("holds", "fails"):
            assert ob.theorem or ob.no_theorem, ob.id
    reasons = [ob.id for ob in cat.obligations if ob.no_theorem]
    assert len(reasons) <= 11, reasons  # the statements the claim language cannot state; not a place to park


def test_no_grade_is_typed_in_the_catalogue():
    """Grades come from the kernel: no catalogue code writes one (``grade=Grade.X``, ``regrade(``)."""
    typed = re.compile(r"grade=Grade\.|regrade\(|Grade\[")
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in sorted((ROOT / "obligations").rglob("*.py"))
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if typed.search(line)]
    assert hits == []
