"""Benchmark the FloatBridge obligations (binary32 budgets against numpy float32).

Prints the wall time of a cold `obligations check lean_mlp.float --no-cache --jobs 2` (default
tier), the time of each obligation inside its worker with its instance count, and the largest peak
RSS of any process in the run. `--slow` adds the exhaustive ReLU check (all 2³² patterns).

    python benchmarks/bench_float_budgets.py [--slow]
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
COUNT_KEYS = ("instances", "dot_products", "heads", "contractions", "gradients", "arguments", "patterns", "lemmas")


def main() -> None:
    slow = "--slow" in sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "checker", "check", "lean_mlp.float", "--no-cache", "--jobs", "2", "--format", "json",
               "-o", str(report), "-q", *(["--slow", "--timeout", "600"] if slow else [])]
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - start
        results = json.loads(report.read_text(encoding="utf-8"))["results"] if report.exists() else []
    print(f"lean_mlp.float{' (with --slow)' if slow else ''}, --jobs 2: wall {wall:.1f} s (exit code {proc.returncode})")
    for r in results:
        data = r["certificate"]["data"]
        count = next((f"{data[k]} {k}" for k in COUNT_KEYS if k in data), "")
        print(f"  {r['id']:<48} {r['status']:<9} {r['time_s']:5.1f} s  {count}")
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"largest peak RSS of any process: {peak_mib:.0f} MiB")


if __name__ == "__main__":
    main()
