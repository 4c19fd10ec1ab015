"""One cold check of the whole default catalogue per test session, shared by every test that reads
what the catalogue settles (the snapshot, each module's expected outcomes, certificates).

Running each obligation again in each test that asks about it cost as much as the whole check; the
check itself is the command a user runs, so reading its report tests what the user reads. It starts
in the background as soon as a session has collected a test that asks for it (``catalogue_run``
fixture, ``tests/conftest.py``), so the other tests go on meanwhile; the workers of a parallel
session share one run through a folder the controlling process names (:data:`ENV_DIR`).

    python -m tests.shared_run FOLDER    # the check, then FOLDER/done.json (exit code, stderr's tail)
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENV_DIR = "OBLIGATIONS_TEST_SHARED_DIR"
REPORT = "report.json"
DONE = "done.json"
STARTED = "started"
WAIT_S = 1500.0


def command(report: Path) -> list[str]:
    return [sys.executable, "-m", "checker", "check", "--no-cache", "--no-baseline", "--jobs", "2", "-q",
            "--format", "json", "-o", str(report)]


def start(folder: Path) -> subprocess.Popen[bytes] | None:
    """Start the run in ``folder`` unless some process of this session already has: the first to
    take the folder's lock starts it. The started process, or ``None``."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (folder / STARTED).exists():
            return None
        (folder / STARTED).write_text(str(os.getpid()), encoding="utf-8")
        return subprocess.Popen([sys.executable, "-m", "tests.shared_run", str(folder)], cwd=ROOT, start_new_session=True,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop(started: subprocess.Popen[bytes]) -> None:
    """Stop a run :func:`start` started, with the check it runs (its own process group; the check's
    workers end with their parent)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(started.pid, signal.SIGKILL)
    started.wait()


def results(folder: Path) -> dict[str, dict[str, Any]]:
    """The run's results by id (JSON, as the report has them), once it has ended; an
    ``AssertionError`` with the check's own message when it wrote no report."""
    start(folder)  # a no-op where the session has started it
    deadline = time.monotonic() + WAIT_S
    while not (folder / DONE).exists():
        assert time.monotonic() < deadline, f"the shared catalogue check did not end within {WAIT_S:g} s"
        time.sleep(0.5)
    done = json.loads((folder / DONE).read_text(encoding="utf-8"))
    report = folder / REPORT
    assert report.is_file(), f"the catalogue check wrote no report (exit {done['exit']}): {done['stderr']}"
    return {r["id"]: r for r in json.loads(report.read_text(encoding="utf-8"))["results"]}


def main(folder: Path) -> None:
    report = folder / REPORT
    with contextlib.suppress(FileNotFoundError):
        report.unlink()
    done = subprocess.run(command(report), cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    tmp = folder / f"{DONE}.tmp"
    tmp.write_text(json.dumps({"exit": done.returncode, "stderr": done.stderr[-4000:]}), encoding="utf-8")
    os.replace(tmp, folder / DONE)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
