"""lean_refs/ parsing and the cross-check against the catalogue."""

from __future__ import annotations

from pathlib import Path

from checker.face.lean import audit, parse_file
from checker.run.discovery import discover
from tests.helpers import ROOT, cli


def test_parser_qualifies_names_and_skips_comments(tmp_path: Path):
    """Declarations get their namespace; commented-out and docstring text is ignored."""
    f = tmp_path / "T.lean"
    f.write_text(
        "namespace A\n/-- theorem fake_in_doc : True -/\ntheorem t1 : True := trivial\n"
        "-- theorem commented : True\nnamespace B\nlemma t2 : True := trivial\nend B\n"
        "noncomputable def d : ℝ := 0\nend A\ntheorem top : True := trivial\n",
        encoding="utf-8",
    )
    names = [(d.name, d.kind) for d in parse_file(f)]
    assert names == [("A.t1", "theorem"), ("A.B.t2", "lemma"), ("A.d", "def"), ("top", "theorem")]


def test_catalogue_refs_all_resolve():
    """Every obligation's lean ref names a declaration, and every theorem is mirrored."""
    report = audit(discover("obligations"), ROOT / "lean_refs")
    assert report.unresolved == ()
    assert report.unmirrored == ()
    assert report.duplicates == ()


def test_unresolved_and_unmirrored_are_reported(tmp_path: Path):
    """A missing declaration and an unmirrored theorem both make the audit fail."""
    (tmp_path / "X.lean").write_text("namespace Psy01A\ntheorem parameter_count : True := trivial\n"
                                     "theorem orphan : True := trivial\ntheorem orphan : True := trivial\nend Psy01A\n",
                                     encoding="utf-8")
    report = audit(discover("obligations"), tmp_path)
    assert not report.ok
    assert any(ref == "Psy01A.margin_two_lipschitz" for _, ref in report.unresolved)
    assert {d.name for d in report.unmirrored} == {"Psy01A.orphan"}
    assert report.duplicates == ("Psy01A.orphan",)
    out = cli("lean", "--dir", str(tmp_path))
    assert out.returncode == 1 and "unresolved" in out.stdout and "unmirrored" in out.stdout
