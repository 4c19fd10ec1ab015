"""The whole catalogue checked on an idle machine and again while CPU hogs keep it busy: the same
statuses and grades, or the differences listed.

A status that depends on the machine's load (a wall-clock solver limit reached on a loaded machine
only) is the defect this looks for. The two runs are cold (``--no-cache``) and alternate when
``--rounds`` is more than 1; the hogs are plain busy loops, one per ``--hogs``, started before a
loaded run and killed after it.

    python benchmarks/check_under_load.py [--hogs 2] [--jobs 2] [--rounds 1] [-- CHECK ARGS …]

Prints each run's wall time and summary, then every obligation whose status, grade, scope of grade,
outcome or second-solver confirmation differs; exits 1 if any does.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOG = "while True:\n    pass\n"


def run(jobs: int, hogs: int, extra: list[str]) -> tuple[dict[str, Any], float]:
    started = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(hogs)]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "run.json"
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "checker", "check", "--no-cache", "--no-baseline", "--jobs", str(jobs),
                            "-q", "--format", "json", "-o", str(out), *extra], cwd=ROOT, capture_output=True, text=True)
            wall = time.perf_counter() - start
            return json.loads(out.read_text(encoding="utf-8")), wall
    finally:
        for p in started:
            p.kill()
            p.wait()


def facts(report: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    """What must not depend on load, per obligation."""
    def confirmed(r: dict[str, Any]) -> str:
        entries = [e for e in r["certificate"].get("ledger", ()) if e.get("kind") == "confirmation"]
        return ",".join(str((e.get("detail") or {}).get("confirmed")) for e in entries)

    return {r["id"]: (r["status"], r["grade"], r.get("grade_over", ""), r["outcome"], confirmed(r))
            for r in report["results"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hogs", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("check_args", nargs="*", help="passed to `obligations check`")
    args = parser.parse_args()
    idle: list[dict[str, tuple[Any, ...]]] = []
    loaded: list[dict[str, tuple[Any, ...]]] = []
    for round_ in range(1, args.rounds + 1):
        for hogs, into in ((0, idle), (args.hogs, loaded)):
            report, wall = run(args.jobs, hogs, args.check_args)
            into.append(facts(report))
            s = report["summary"]
            print(f"round {round_}, {hogs} hog(s): {wall:.1f} s; {json.dumps(s['status'])}; {json.dumps(s['kernel'])}",
                  flush=True)
    reference = idle[0]
    differences = 0
    for label, runs in (("idle", idle[1:]), ("loaded", loaded)):
        for i, other in enumerate(runs, 1):
            for ob_id in sorted(set(reference) | set(other)):
                if reference.get(ob_id) != other.get(ob_id):
                    differences += 1
                    print(f"  differs ({label} run {i}): {ob_id}: idle {reference.get(ob_id)} / {other.get(ob_id)}")
    print(f"{len(reference)} obligations; {differences} difference(s) of status, grade, outcome or confirmation "
          f"between the idle run and the other {len(idle) - 1 + len(loaded)} run(s)")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
