"""What a killed run leaves behind is cleaned by the next: a run's shared store whose process is gone,
and a temporary file of an atomic write killed before its rename."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from checker.backends import memo
from checker.store.files import LEFTOVER_S, atomic_write


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_dead_runs_old_store_is_removed_and_live_or_young_ones_stay(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    old = time.time() - 2 * memo.STALE_STORE_S
    dead = tmp_path / f"{memo.RUN_STORE_PREFIX}{_dead_pid()}-abc"
    live = tmp_path / f"{memo.RUN_STORE_PREFIX}{os.getpid()}-abc"
    young = tmp_path / f"{memo.RUN_STORE_PREFIX}{_dead_pid()}-young"
    for d in (dead, live, young):
        d.mkdir()
        (d / "entry").write_text("x")
    for d in (dead, live):
        os.utime(d, (old, old))
    removed = memo.sweep_run_stores()
    assert removed == [str(dead)] and live.exists() and young.exists()
    with memo.run_store() as store:
        assert Path(store).name.startswith(f"{memo.RUN_STORE_PREFIX}{os.getpid()}-")
    assert not Path(store).exists()


def test_an_atomic_write_removes_an_old_leftover_of_its_own_target_only(tmp_path):
    target = tmp_path / "baseline.json"
    old_leftover = tmp_path / ".baseline.json.abc123.tmp"
    young_leftover = tmp_path / ".baseline.json.def456.tmp"
    other = tmp_path / ".report.json.abc123.tmp"
    for f in (old_leftover, young_leftover, other):
        f.write_text("{")
    past = time.time() - 2 * LEFTOVER_S
    for f in (old_leftover, other):
        os.utime(f, (past, past))
    atomic_write(target, "{}")
    assert target.read_text() == "{}"
    assert not old_leftover.exists() and young_leftover.exists() and other.exists()
