"""The slow tier is off by default and on with --slow, for pytest and for the checker."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from checker.run.discovery import discover

ROOT = Path(__file__).resolve().parent.parent


def test_pytest_skips_slow_tests_unless_asked(tmp_path: Path):
    """A test marked slow is skipped by default and runs under --slow (this repo's conftest)."""
    probe = ROOT / "tests" / "_probe_slow_marker_test.py"
    probe.write_text(textwrap.dedent('''
        import pytest

        @pytest.mark.slow
        def test_marked():
            pass

        def test_plain():
            pass
    '''), encoding="utf-8")
    try:
        base = [sys.executable, "-m", "pytest", str(probe), "-q", "-p", "no:cacheprovider", "-rs"]
        default = subprocess.run(base, capture_output=True, text=True, cwd=ROOT)
        slow = subprocess.run(base + ["--slow"], capture_output=True, text=True, cwd=ROOT)
    finally:
        probe.unlink()
    assert "1 passed, 1 skipped" in default.stdout, default.stdout
    assert "run with --slow" in default.stdout
    assert "2 passed" in slow.stdout, slow.stdout


def test_checker_excludes_slow_obligations_by_default():
    """Catalogue.select leaves slow obligations out unless include_slow."""
    cat = discover("obligations")
    slow = {ob.id for ob in cat.obligations if ob.slow}
    default = {ob.id for ob in cat.select([], include_slow=False)}
    everything = {ob.id for ob in cat.select([], include_slow=True)}
    assert not (slow & default)
    assert slow <= everything
