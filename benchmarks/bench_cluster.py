"""The mutation audit and the slow tier: local ``--jobs 1``, local ``--jobs 2`` and
``--executor local-cluster:2``, side by side in one run, with the same run's verdicts compared.

    python benchmarks/bench_cluster.py                       # rmt_jacobian's mutation audit + the slow tier
    python benchmarks/bench_cluster.py --mutate controller_bound --no-slow

Prints one line per run (wall seconds) and the ratios: ``--jobs 2`` against ``--jobs 1`` (the
mutants side by side), ``local-cluster:2`` against ``--jobs 2`` (what the cluster costs on one
machine); exits 1 when any run's verdicts differ from the first one's. Needs dask.distributed
for the cluster runs (``pip install '.[cluster]'``); without it they are skipped and said so.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str]) -> tuple[float, dict]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "checker", *args, "--format", "json", "-o", str(out), "-q"],
                              cwd=ROOT, capture_output=True, text=True, env={**os.environ, "OBLIGATIONS_CACHE_DIR": tmp})
        wall = time.perf_counter() - start
        if not out.exists():
            sys.exit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
        return wall, json.loads(out.read_text(encoding="utf-8"))


def _mutation_verdicts(report: dict) -> list:
    return [(e["id"], e.get("verdict"), e.get("score"), [(r["line"], r["original"], r["replacement"], r["verdict"])
                                                         for r in e.get("runs", ())]) for e in report["mutation"]]


def _statuses(report: dict) -> list:
    return [(r["id"], r["status"], r.get("grade")) for r in report["results"]]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mutate", default="rmt_jacobian", help="the catalogue (id prefix) whose mutation audit is timed")
    p.add_argument("--mutants", type=int, default=6)
    p.add_argument("--no-slow", action="store_true", help="skip the slow tier")
    p.add_argument("--no-cluster", action="store_true", help="only the local runs")
    p.add_argument("--slow-timeout", type=float, default=600.0,
                   help="wall-clock limit of the slow tier's obligations (default: %(default)s; a loaded machine "
                   "times them out at the default 120 s)")
    opts = p.parse_args()
    try:
        import distributed  # noqa: F401
        cluster = not opts.no_cluster
    except ImportError:
        print("dask.distributed is not installed: the cluster runs are skipped (pip install '.[cluster]')")
        cluster = False
    differ = False
    mutate = ["audit", "--mutate", opts.mutate, "--mutants", str(opts.mutants), "--no-cache"]
    runs = {"--jobs 1": [*mutate, "--jobs", "1"], "--jobs 2": [*mutate, "--jobs", "2"]}
    if cluster:
        runs["local-cluster:2"] = [*mutate, "--executor", "local-cluster:2"]
    walls, first = {}, None
    for name, args in runs.items():
        walls[name], report = _run(args)
        verdicts = _mutation_verdicts(report)
        same = first is None or verdicts == first
        first = first or verdicts
        differ |= not same
        print(f"mutation audit of {opts.mutate} ({opts.mutants} mutants each), {name:<16} wall {walls[name]:7.1f} s   "
              f"verdicts {'same' if same else 'DIFFERENT'}")
    print(f"  --jobs 2 / --jobs 1: {walls['--jobs 2'] / walls['--jobs 1']:.2f}")
    if cluster:
        print(f"  local-cluster:2 / --jobs 2: {walls['local-cluster:2'] / walls['--jobs 2']:.2f}")
    if not opts.no_slow:
        slow = ["check", "rmt_jacobian.approximation21_test_slow", "controller_bound.eq10_genuine_pruning_wide",
                "--slow", "--no-cache", "--no-baseline", "--timeout", str(opts.slow_timeout)]
        tier = {"--jobs 2": [*slow, "--jobs", "2"]}
        if cluster:
            tier["local-cluster:2"] = [*slow, "--executor", "local-cluster:2"]
        first = None
        for name, args in tier.items():
            walls[f"slow {name}"], report = _run(args)
            statuses = _statuses(report)
            same = first is None or statuses == first
            first = first or statuses
            differ |= not same
            print(f"slow tier, {name:<16} wall {walls[f'slow {name}']:7.1f} s   statuses {statuses}"
                  f"{'' if same else '  DIFFERENT'}")
        if cluster:
            print(f"  local-cluster:2 / --jobs 2: {walls['slow local-cluster:2'] / walls['slow --jobs 2']:.2f}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
