"""The cold full default check, this checkout against another, side by side in one run.

For each checkout: a cold ``obligations check --jobs N`` of the whole default catalogue (no
cached result), its wall time, the sum of the obligations' own times, and the largest peak RSS
of the check and its workers. This checkout runs with a fresh cache directory holding only the
previous run's times (``times.json``, copied from ``--times-from``, default this checkout's
``.obligations-cache``; when there is none, the times of the other checkout's run just made) so
that the longest obligations are handed out first, as in any run after the first. Then
the ratio of the wall times, and every difference of status, grade, scope or certificate
substance between the two reports.

    git worktree add /tmp/before <commit before the speed-ups>
    python benchmarks/bench_full.py --against /tmp/before [--jobs 2] [--rounds 1]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from profile_obligations import _same, fingerprint  # noqa: E402


def cold_check(tree: Path, jobs: int, times: Path | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        cache = Path(tmp) / "cache"
        extra = ["--no-cache"]
        if times is not None and times.exists():
            cache.mkdir()
            shutil.copy(times, cache / "times.json")
            extra = ["--cache-dir", str(cache)]
        cmd = [sys.executable, "-m", "checker", "check", "--jobs", str(jobs), "-q", "--format", "json", "-o", str(report),
               *extra]
        probe = textwrap.dedent(f"""\
            import resource, subprocess, time
            start = time.perf_counter()
            code = subprocess.run({cmd!r}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, code)
        """)
        env = {**os.environ, "PYTHONPATH": str(tree)}
        out = subprocess.run([sys.executable, "-c", probe], cwd=tree, env=env, capture_output=True, text=True, check=True)
        wall, peak, code = out.stdout.split()
        results = json.loads(report.read_text(encoding="utf-8"))["results"]
    return {"wall": float(wall), "peak_mib": float(peak), "exit": int(code), "results": results,
            "in_obligations": sum(r["time_s"] for r in results), "scheduled": extra[0] == "--cache-dir"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, required=True, help="the checkout before the speed-ups")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1, help="alternate old/new this many times; report the best")
    parser.add_argument("--times-from", type=Path, default=ROOT / ".obligations-cache" / "times.json")
    args = parser.parse_args()
    runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            runs["before"].append(cold_check(args.against.resolve(), args.jobs, None))
            times = args.times_from
            if not times.exists():
                # no previous run of this checkout: the times of the run just made stand in for it
                times = Path(tmp) / "times.json"
                times.write_text(json.dumps({"version": 1, "times": {r["id"]: r["time_s"]
                                                                   for r in runs["before"][-1]["results"]}}))
            runs["after"].append(cold_check(ROOT, args.jobs, times))
    best = {k: min(v, key=lambda r: r["wall"]) for k, v in runs.items()}
    for label, r in best.items():
        order = "longest expected first" if r["scheduled"] else "catalogue order"
        print(f"{label:<7} cold full check, --jobs {args.jobs}: wall {r['wall']:6.1f} s   sum of obligation times "
              f"{r['in_obligations']:6.1f} s   peak RSS {r['peak_mib']:5.0f} MiB   exit {r['exit']}   "
              f"{len(r['results'])} results, {order}")
    print(f"ratio after/before (wall): {best['after']['wall'] / best['before']['wall']:.2f}   "
          f"(sum of obligation times: {best['after']['in_obligations'] / best['before']['in_obligations']:.2f})")
    old = {r["id"]: fingerprint(r) for r in best["before"]["results"]}
    new = {r["id"]: fingerprint(r) for r in best["after"]["results"]}
    changed = 0
    for ob_id in sorted(old.keys() | new.keys()):
        if ob_id not in old or ob_id not in new:
            changed += 1
            print(f"  only {'after' if ob_id in new else 'before'}: {ob_id}")
            continue
        for key in ("status", "grade", "grade_over", "scope", "witness", "sides", "data", "steps", "vacuity"):
            if not _same(old[ob_id][key], new[ob_id][key]):
                changed += 1
                print(f"  {ob_id}: {key} differs")
    print(f"{changed} differences of status, grade, scope or certificate substance "
          "(step texts differ where a check now names its faster method)")


if __name__ == "__main__":
    main()
