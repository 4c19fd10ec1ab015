"""Scale benchmarks, each printed as figures and ratios measured in one run.

1. ``synthetic``: a generated catalogue of trivial obligations (each an exact check at one
   point) run by ``obligations check --jobs 1`` at two sizes, 100 and 1,000: the per-obligation
   overhead of the runner is the difference of the wall times over the difference of the counts
   (so start-up cancels), cold with no cache, cold writing the cache, and warm from it; peak
   memory (largest RSS of any process) at each size, which should not grow with the count.
2. ``widths``: CPU time of the width-parametrised z3 proofs as the width grows — the signed
   margin's 2-Lipschitz claim for K = 2 … 12 classes (one label), ReLU's 1-Lipschitz claim in
   ℓ∞ for d = 1 … 12, and the dense-layer drift claim (ℓ1 → ℓ∞) for n = 1 … 5 — each with its
   ratio to the previous width, so a user knows what a larger network costs.
3. ``pytest``: ``pytest --obligations=PREFIX -n 2`` against ``obligations check PREFIX --jobs 2
   --no-cache`` on the same obligations (wall time, ratio).

    python benchmarks/bench_scale.py [synthetic] [widths] [pytest] [--prefix PREFIX]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = 10

_MODULE = textwrap.dedent('''\
    """Synthetic obligations: x·x ≥ 0 at one exact point each."""
    from checker import Expect, Source, obligation
    from checker.backends import exact
    from checker.claims import claim

    SQUARE = claim("square-nonneg", "x", lambda o, v: o.ge(v.x * v.x, 0))


    def _make(i):
        @obligation(id=f"synth.m{m}.o{{i}}", source=Source("synthetic.txt", f"item {{i}}"),
                    statement="x·x ≥ 0 at one point.", scope=f"x = {{i}} (exact)", expect=Expect.HOLDS)
        def check(ctx):
            """x·x ≥ 0 at the point x = i, by exact evaluation."""
            return exact.check_instance(SQUARE, {{"x": i}}, "the point")
        return check


    for _i in range({count}):
        _make({start} + _i)
''')


def write_catalogue(folder: Path, total: int) -> None:
    pkg = folder / "synth"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text('"""A synthetic catalogue for the scale benchmark."""\n', encoding="utf-8")
    per = total // MODULES
    for m in range(MODULES):
        (pkg / f"m{m}.py").write_text(_MODULE.format(m=m, count=per, start=m * per), encoding="utf-8")


def _check(folder: Path, *extra: str) -> tuple[float, float, int]:
    """Wall time, peak RSS (MiB) of the check and its workers, exit code."""
    env = {**os.environ, "PYTHONPATH": f"{folder}{os.pathsep}{ROOT}"}
    probe = textwrap.dedent(f"""\
        import resource, subprocess, sys, time
        start = time.perf_counter()
        code = subprocess.run({[sys.executable, "-m", "checker", "--package", "synth", "check", "--jobs", "1", "-q",
                               "--format", "json", "-o", str(folder / "report.json"), *extra]!r},
                              stdout=subprocess.DEVNULL).returncode
        wall = time.perf_counter() - start
        print(wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, code)
    """)
    out = subprocess.run([sys.executable, "-c", probe], cwd=folder, env=env, capture_output=True, text=True, check=True)
    wall, peak, code = out.stdout.split()
    return float(wall), float(peak), int(code)


def synthetic() -> None:
    print("1. synthetic catalogue of trivial obligations, --jobs 1")
    rows = {}
    for total in (100, 1000):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            write_catalogue(folder, total)
            cache = str(folder / "cache")
            rows[total] = {
                "no cache": _check(folder, "--no-cache"),
                "cold, writing the cache": _check(folder, "--cache-dir", cache),
                "warm, from the cache": _check(folder, "--cache-dir", cache),
            }
        for mode, (wall, peak, code) in rows[total].items():
            print(f"   {total:>5} obligations, {mode:<24} {wall:7.2f} s   peak RSS {peak:6.0f} MiB   exit {code}")
    for mode in rows[100]:
        per_ms = (rows[1000][mode][0] - rows[100][mode][0]) / 900 * 1000
        growth = rows[1000][mode][1] / rows[100][mode][1]
        print(f"   per-obligation overhead, {mode:<24} {per_ms:6.2f} ms   peak RSS 1000/100: {growth:.2f}")


def _claim_time(build, sizes, label: str) -> None:
    from checker.backends import smt
    from checker.kernel.model import Context

    print(f"   {label}")
    previous = None
    for n in sizes:
        claim = build(n)
        start = time.process_time()
        # z3 is given 20 s per width (a soft limit); the series stops at the first width it cannot settle
        verdict = smt.prove(claim, Context(f"bench/{claim.name}", 1, 25.0, False))
        cpu = time.process_time() - start
        ratio = f"×{cpu / previous:.2f}" if previous else ""
        print(f"     {n:>3}: {cpu:7.3f} s CPU  {verdict.status.value:<8} {ratio}", flush=True)
        if verdict.status.value != "proved":
            print("     (z3 did not settle it within 20 s: larger widths are out of reach of this method)")
            break
        previous = max(cpu, 1e-6)


def widths() -> None:
    sys.path.insert(0, str(ROOT))
    from obligations.lean_mlp import margins
    from obligations.psy01a import cue

    print("2. width-parametrised z3 proofs (CPU time per width, ratio to the previous width)")
    _claim_time(lambda k: cue._lipschitz_claim(k, 0), range(2, 13), "signed margin 2-Lipschitz in ℓ∞, K classes")
    _claim_time(margins.relu_lipschitz_claim, range(1, 13), "ReLU 1-Lipschitz in ℓ∞, dimension d")
    _claim_time(margins.dense_drift_claim, range(1, 6), "dense-layer drift ℓ1 → ℓ∞, width n")


def pytest_vs_check(prefix: str) -> None:
    print(f"3. pytest --obligations={prefix} -n 2 against obligations check {prefix} --jobs 2 (cold, no cache)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    timings = {}
    for name, cmd in (
        ("obligations check --jobs 2", [sys.executable, "-m", "checker", "check", prefix, "--jobs", "2", "--no-cache", "-q"]),
        # the path "benchmarks" holds no test files: the only items are the obligations
        ("pytest --obligations -n 2", [sys.executable, "-m", "pytest", "benchmarks", f"--obligations={prefix}",
                                       "--obligations-package", "obligations", "-n", "2", "-q", "-p", "no:cacheprovider"]),
    ):
        start = time.perf_counter()
        code = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        timings[name] = time.perf_counter() - start
        print(f"   {name:<30} {timings[name]:7.2f} s   exit {code}")
    print(f"   ratio pytest/check: {timings['pytest --obligations -n 2'] / timings['obligations check --jobs 2']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", help="synthetic, widths, pytest (default: all)")
    parser.add_argument("--prefix", default="controller_bound", help="obligations for the pytest comparison")
    args = parser.parse_args()
    parts = args.parts or ["synthetic", "widths", "pytest"]
    unknown = set(parts) - {"synthetic", "widths", "pytest"}
    if unknown:
        parser.error(f"unknown part(s) {', '.join(sorted(unknown))}; choose from synthetic, widths, pytest")
    if "synthetic" in parts:
        synthetic()
    if "widths" in parts:
        widths()
    if "pytest" in parts:
        pytest_vs_check(args.prefix)
    if {"synthetic", "pytest"} & set(parts):
        print(f"largest peak RSS of any child process: {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MiB")
    else:
        print(f"peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
