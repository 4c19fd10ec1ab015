"""The layout is the architecture: the engine's rooms import only downward, nothing imports in a
circle, and the engine imports no catalogue. Each failure names the offending import."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.import_graph import ALLOWED, cycles, direction_violations, imports

PACKAGES = ("checker", "obligations")
PUBLIC_TOP = {"__init__.py", "__main__.py", "claims.py", "testing.py"}


def _report(found: list) -> str:
    return "\n".join(" → ".join(str(e) for e in c) if isinstance(c, list) else str(c) for c in found)


def test_the_engine_imports_only_downward_and_no_catalogue():
    """Kernel and model know no backend, runner, audit, report or face; backends know no runner;
    renderers read results only; nothing in the engine imports a catalogue."""
    bad = direction_violations(imports(ROOT, PACKAGES))
    assert not bad, "imports against the rooms' directions:\n" + _report(bad)


def test_no_import_circle_in_the_engine_or_the_catalogue():
    """No module reaches itself through its imports, at any depth (lazy imports count)."""
    found = cycles(imports(ROOT, PACKAGES))
    assert not found, "import circles:\n" + _report(found)


def test_checker_top_level_holds_only_the_public_entry_points():
    """``checker/`` has no module at its top except the public ones; every room says what it is for
    and what it may import."""
    assert {p.name for p in (ROOT / "checker").glob("*.py")} == PUBLIC_TOP
    for room in ALLOWED:
        if room == "checker":
            continue
        doc = (ROOT / room.replace(".", "/") / "__init__.py").read_text(encoding="utf-8")
        assert doc.startswith('"""') and "May import" in doc, f"{room}/__init__.py: say what the room is for and what it may import"


def test_the_graph_sees_lazy_relative_and_submodule_imports():
    """The scan is not vacuous: it finds a lazy import inside a function, a ``from room import module``
    and the catalogue's imports of the engine."""
    edges = {(e.importer, e.imported) for e in imports(ROOT, PACKAGES)}
    assert ("checker.run.runner", "checker.audit.vacuity") in edges  # inside _vacuity()
    assert ("checker.run.runner", "checker.store.cache") in edges
    assert ("obligations.lean_mlp.commands", "checker.face.plugins") in edges


def _copy(tmp_path: Path) -> Path:
    for part in PACKAGES:
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _append(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines + text.splitlines()) + "\n", encoding="utf-8")
    return len(lines) + 1


@pytest.mark.parametrize(("importer", "imported"), [
    ("checker/kernel/model.py", "checker.run.runner"),          # the kernel knows no runner
    ("checker/backends/smt.py", "checker.run.workers"),         # backends know no runner
    ("checker/report/formats.py", "checker.audit.audits"),      # renderers read results only
    ("checker/store/cache.py", "checker.face.cli"),             # nothing imports the face but the top
    ("checker/run/runner.py", "obligations.psy01a.setup"),      # the engine imports no catalogue
])
def test_an_upward_import_is_caught_with_its_line(tmp_path, importer, imported):
    """A fixture that adds one upward import (lazily, inside a function) fails the direction
    check, and the message names the file, the line and the import."""
    root = _copy(tmp_path)
    line = _append(root / importer, f"\n\ndef _added():\n    import {imported}  # noqa\n") + 3
    bad = direction_violations(imports(root, PACKAGES))
    assert len(bad) == 1, bad
    assert bad[0].startswith(f"{importer}:{line}: ") and imported in bad[0]


def test_a_circle_is_caught_with_the_imports_that_close_it(tmp_path):
    """A fixture that adds a circle within one room (allowed by the directions) fails the circle
    check, naming each import of the circle."""
    root = _copy(tmp_path)
    assert not cycles(imports(root, PACKAGES))
    line = _append(root / "checker/kernel/claims.py", "\n\ndef _added():\n    from checker.kernel import verdicts  # noqa\n") + 3
    found = cycles(imports(root, PACKAGES))
    assert len(found) == 1
    text = _report(found)
    assert f"checker/kernel/claims.py:{line}: checker.kernel.claims imports checker.kernel.verdicts" in text
    assert "checker.kernel.verdicts imports checker.kernel.model" in text or "imports checker.kernel.claims" in text


def test_a_catalogue_circle_is_caught(tmp_path):
    """The catalogue is held to the same rule."""
    root = _copy(tmp_path)
    _append(root / "obligations/psy01a/setup.py", "\n\ndef _added():\n    from obligations.psy01a import reference_model  # noqa\n")
    found = cycles(imports(root, PACKAGES))
    assert found and "obligations.psy01a.setup imports obligations.psy01a.reference_model" in _report(found)
