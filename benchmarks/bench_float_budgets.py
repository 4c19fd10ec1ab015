"""Benchmark the FloatBridge obligations (binary32 budgets against numpy float32).

Prints the wall time of a cold `obligations check lean_mlp.float --no-cache --jobs 1` (default
tier), the time of each obligation inside its worker with its instance count, and the largest peak
RSS of any process in the run. `--slow` adds the exhaustive ReLU check (all 2³² patterns).
`--before REV` also runs the same command on the tree of git revision REV (extracted with
`git archive` into a temporary directory) and prints the ratio after/before.

    python benchmarks/bench_float_budgets.py [--slow] [--before REV]
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COUNT_KEYS = ("instances", "dot_products", "heads", "contractions", "gradients", "arguments", "patterns", "lemmas")


def _run(root: Path, slow: bool) -> tuple[float, int, list]:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "checker", "check", "lean_mlp.float", "--no-cache", "--jobs", "1", "--format", "json",
               "-o", str(report), "-q", *(["--slow", "--timeout", "600"] if slow else [])]
        start = time.perf_counter()
        env = {**os.environ, "PYTHONPATH": str(root)}
        proc = subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        wall = time.perf_counter() - start
        results = json.loads(report.read_text(encoding="utf-8"))["results"] if report.exists() else []
    return wall, proc.returncode, results


def _before(rev: str, slow: bool) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        wall, code, _ = _run(Path(tmp), slow)
    print(f"before ({rev}): wall {wall:.1f} s (exit code {code})")
    return wall


def main() -> None:
    args = sys.argv[1:]
    slow = "--slow" in args
    before = _before(args[args.index("--before") + 1], slow) if "--before" in args else None
    wall, code, results = _run(ROOT, slow)
    print(f"lean_mlp.float{' (with --slow)' if slow else ''}, --jobs 1: wall {wall:.1f} s (exit code {code})")
    if before:
        print(f"ratio after/before: {wall / before:.2f}")
    for r in results:
        data = r["certificate"]["data"]
        count = next((f"{data[k]} {k}" for k in COUNT_KEYS if k in data), "")
        print(f"  {r['id']:<48} {r['status']:<9} {r['time_s']:5.1f} s  {count}")
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"largest peak RSS of any process: {peak_mib:.0f} MiB")


if __name__ == "__main__":
    main()
