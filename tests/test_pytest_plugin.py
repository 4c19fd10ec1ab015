"""`pytest --obligations -n 2` collects catalogue obligations as items and runs them under xdist."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_obligations_run_as_pytest_items_under_xdist(tmp_path: Path):
    """Two obligations as items over two xdist workers: both pass; a broken catalogue item fails."""
    pytest.importorskip("xdist")
    env_path = f"{ROOT}:{ROOT / 'tests' / 'fixtures'}"
    base = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path)]
    ok = subprocess.run(base + ["--obligations=psy01a.parameter_count,controller_bound.theorem2_tight",
                                   "--obligations-package", "obligations", "-n", "2"],
                        capture_output=True, text=True, cwd=tmp_path, env={"PYTHONPATH": env_path, "PATH": ""}, timeout=300)
    assert "2 passed" in ok.stdout, ok.stdout + ok.stderr
    bad = subprocess.run(base + ["--obligations=badcat.contradicted,badcat.good", "--obligations-package", "badcat"],
                         capture_output=True, text=True, cwd=tmp_path, env={"PYTHONPATH": env_path, "PATH": ""}, timeout=300)
    assert "3 failed, 1 passed" in bad.stdout, bad.stdout + bad.stderr  # + the two modules that do not load
    assert "refuted (contradicted)" in bad.stdout and "syntax_error.py:3" in bad.stdout
    # the failure shows where it fails: the witness, both sides and the exact re-check
    assert "the source expects the claim to hold" in bad.stdout and "to holds" not in bad.stdout
    assert "witness: x = 0" in bad.stdout and "re-check: exact:" in bad.stdout, bad.stdout
