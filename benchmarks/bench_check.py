"""Benchmark a cold `obligations check` of the first slice (figures measured in one run).

Prints: wall time per --jobs setting and their ratio; the share of worker time spent outside
the backends (sum of certificate step times vs obligation time); start-up to the first
result; the largest peak RSS of any process in the run.

    python benchmarks/bench_check.py [PATTERN …]
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
SLICE = ["controller_bound", "psy01a.parameter_count", "psy01a.margin_two_lipschitz", "psy01a.masked_op"]


def run(patterns: list[str], jobs: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "checker", "check", *patterns, "--jobs", str(jobs), "--no-cache", "--format", "json", "-o", str(report)]
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        first = first_own = None
        assert proc.stderr is not None
        for line in proc.stderr:
            if first is None and line.startswith("["):
                first = time.perf_counter() - start
                first_own = float(line.rsplit("(", 1)[1].rstrip("s)\n"))
        proc.wait()
        wall = time.perf_counter() - start
        results = json.loads(report.read_text(encoding="utf-8"))["results"]
    in_obligations = sum(r["time_s"] for r in results)
    in_backends = sum(s["time_s"] for r in results for s in r["certificate"]["steps"])
    return {"wall": wall, "first": first, "startup": first - first_own, "obligation_time": in_obligations, "backend_time": in_backends,
            "n": len(results), "exit": proc.returncode}


def main() -> None:
    patterns = sys.argv[1:] or SLICE
    one = run(patterns, 1)
    two = run(patterns, 2)
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"obligations: {one['n']} (exit codes {one['exit']}, {two['exit']})")
    print(f"wall, --jobs 1: {one['wall']:.2f} s   --jobs 2: {two['wall']:.2f} s   ratio jobs2/jobs1: {two['wall'] / one['wall']:.2f}")
    outside = 1 - one["backend_time"] / one["obligation_time"] if one["obligation_time"] else 0.0
    print(f"time inside obligations {one['obligation_time']:.2f} s, inside backend steps {one['backend_time']:.2f} s: "
          f"{outside:.1%} of obligation time outside the backends")
    print(f"checker overhead (wall − obligation time), --jobs 1: {one['wall'] - one['obligation_time']:.2f} s "
          f"= {(one['wall'] - one['obligation_time']) / one['wall']:.1%} of wall")
    print(f"first result after {one['first']:.2f} s (jobs 1), {two['first']:.2f} s (jobs 2); "
          f"start-up before its discharge began: {one['startup']:.2f} s (jobs 1), {two['startup']:.2f} s (jobs 2)")
    print(f"largest peak RSS of any process: {peak_mib:.0f} MiB")


if __name__ == "__main__":
    main()
