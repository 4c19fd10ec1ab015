"""Benchmark the Monte-Carlo obligations of the 001 review (figures measured in one run).

Prints the wall time of the default tier (`rmt_jacobian.approximation21_test` and
`rmt_jacobian.sign_weight_dependence`, --jobs 2) and of the slow tier
(`rmt_jacobian.approximation21_test_slow`, --slow), each a cold `obligations check --no-cache`,
the time of each obligation inside its worker, and the largest peak RSS of any process in the run
(resource.getrusage of the children).

    python benchmarks/bench_rmt_jacobian.py [--default-only]
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["rmt_jacobian.approximation21_test", "rmt_jacobian.sign_weight_dependence"]
SLOW = ["rmt_jacobian.approximation21_test_slow"]


def check(patterns: list[str], *extra: str) -> tuple[float, list[dict], int]:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "checker", "check", *patterns, "--no-cache", "--format", "json", "-o", str(report),
               "-q", *extra]
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - start
        results = json.loads(report.read_text(encoding="utf-8"))["results"] if report.exists() else []
    return wall, results, proc.returncode


def show(name: str, wall: float, results: list[dict], code: int) -> None:
    print(f"{name}: wall {wall:.1f} s (exit code {code})")
    for r in results:
        print(f"  {r['id']:<42} {r['status']:<9} {r['time_s']:.1f} s in its worker")


def main() -> None:
    wall, results, code = check(DEFAULT, "--jobs", "2")
    show("default tier, --jobs 2", wall, results, code)
    if "--default-only" not in sys.argv[1:]:
        wall, results, code = check(SLOW, "--slow", "--timeout", "900")
        show("slow tier (n up to 2048), --slow", wall, results, code)
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"largest peak RSS of any process: {peak_mib:.0f} MiB")


if __name__ == "__main__":
    main()
