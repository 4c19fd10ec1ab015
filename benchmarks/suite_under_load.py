"""Run the whole test suite several times in a row while CPU hogs keep the machine busy.

A test that depends on timing (a deadline that a loaded machine misses, a race won only on an
idle one) fails here when it passes on an idle machine. The hogs are plain busy loops, one per
``--hogs``, started before the first round and killed (by their process ids) after the last.

    python benchmarks/suite_under_load.py [--rounds 3] [--hogs 2] [-- PYTEST ARGS …]

Prints each round's result line and wall time; exits 1 if any round failed.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOG = "while True:\n    pass\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hogs", type=int, default=2)
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest (default: -q -n 2 -p no:cacheprovider)")
    args = parser.parse_args()
    pytest_args = args.pytest_args or ["-q", "-n", "2", "-p", "no:cacheprovider"]
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(args.hogs)]
    failed = 0
    try:
        for round_ in range(1, args.rounds + 1):
            start = time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT, capture_output=True, text=True)
            wall = time.perf_counter() - start
            lines = [line for line in out.stdout.splitlines() if line.strip()]
            summary = lines[-1] if lines else "(no output)"
            print(f"round {round_}/{args.rounds} with {args.hogs} CPU hogs: exit {out.returncode}, {wall:.0f} s: {summary}",
                  flush=True)
            if out.returncode != 0:
                failed += 1
                for line in out.stdout.splitlines():
                    if line.startswith(("FAILED", "ERROR")):
                        print(f"  {line}", flush=True)
                # what each failure asserted (pytest's "E " lines), so a failure under load can be diagnosed
                reasons = [line for line in out.stdout.splitlines() if line.startswith("E ")]
                for line in reasons[:40]:
                    print(f"    {line[:300]}", flush=True)
    finally:
        for hog in hogs:
            try:
                os.kill(hog.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            hog.wait()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
