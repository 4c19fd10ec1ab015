"""The cold full default check, this checkout against others, side by side in one run.

For each checkout: a cold ``obligations check --jobs N`` of the whole default catalogue with an
empty cache directory (no cached result) holding only the hand-out times that this checkout
ships (``benchmarks/expected_times.json``), so that every version able to use them hands out its
longest obligations first (a version that cannot simply ignores the file); its wall time, the sum
of the obligations' own times, and the largest peak RSS of the check and its workers. Then the
ratio of the wall times to each other checkout, and every difference of status, grade, scope or
certificate substance from each other checkout (listed in full for the last ``--against``, which
should be the same catalogue before the speed-ups; counted for the others).

    git worktree add /tmp/before <commit before the speed-ups>
    python benchmarks/bench_full.py --against /tmp/older --against /tmp/before [--jobs 2] [--rounds 1] [--like-for-like]

``--like-for-like`` also times this checkout on the obligations of each checkout that has fewer
(a catalogue that has grown since is otherwise compared on more work).
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

from profile_obligations import _same, difference_paths, fingerprint  # noqa: E402


def cold_check(tree: Path, jobs: int, times: Path, patterns: tuple[str, ...] = (), flags: tuple[str, ...] = ()) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        cache = Path(tmp) / "cache"
        cache.mkdir()
        shutil.copy(times, cache / "times.json")
        cmd = [sys.executable, "-m", "checker", "check", "--jobs", str(jobs), "-q", "--format", "json", "-o", str(report),
               "--cache-dir", str(cache), *flags, *patterns]
        probe = textwrap.dedent(f"""\
            import resource, subprocess, time
            start = time.perf_counter()
            code = subprocess.run({cmd!r}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, code)
        """)
        env = {**os.environ, "PYTHONPATH": str(tree)}
        env.pop("OBLIGATIONS_CACHE_DIR", None)
        out = subprocess.run([sys.executable, "-c", probe], cwd=tree, env=env, capture_output=True, text=True, check=True)
        wall, peak, code = out.stdout.split()
        results = json.loads(report.read_text(encoding="utf-8"))["results"]
    return {"wall": float(wall), "peak_mib": float(peak), "exit": int(code), "results": results,
            "in_obligations": sum(r["time_s"] for r in results)}


def differences(old_results: list[dict[str, Any]], new_results: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """Every difference of status, grade, scope or certificate substance: one headline each, with
    the paths where the two differ."""
    old = {r["id"]: fingerprint(r) for r in old_results}
    new = {r["id"]: fingerprint(r) for r in new_results}
    found = []
    for ob_id in sorted(old.keys() | new.keys()):
        if ob_id not in old or ob_id not in new:
            found.append((f"only {'here' if ob_id in new else 'there'}: {ob_id}", []))
            continue
        for key in ("status", "grade", "grade_over", "scope", "witness", "sides", "data", "steps", "vacuity"):
            if not _same(old[ob_id][key], new[ob_id][key]):
                found.append((f"{ob_id}: {key} differs", difference_paths(old[ob_id][key], new[ob_id][key], key)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, action="append", required=True,
                        help="another checkout (repeatable; the last one is compared in full)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1, help="alternate the checkouts this many times; report the best")
    parser.add_argument("--like-for-like", action="store_true",
                        help="also time this checkout on each smaller checkout's obligations only")
    parser.add_argument("--times", type=Path, default=ROOT / "benchmarks" / "expected_times.json",
                        help="the hand-out times given to every run")
    args = parser.parse_args()
    trees = {str(t): t.resolve() for t in args.against} | {"this checkout": ROOT}
    runs: dict[str, list[dict[str, Any]]] = {label: [] for label in trees}
    for _ in range(args.rounds):
        for label, tree in trees.items():
            runs[label].append(cold_check(tree, args.jobs, args.times))
    best = {label: min(v, key=lambda r: r["wall"]) for label, v in runs.items()}
    here = best["this checkout"]
    width = max(len(label) for label in best)
    for label, r in best.items():
        print(f"{label:<{width}}  cold full check, --jobs {args.jobs}: wall {r['wall']:6.1f} s   sum of obligation times "
              f"{r['in_obligations']:6.1f} s   peak RSS {r['peak_mib']:5.0f} MiB   exit {r['exit']}   {len(r['results'])} results")
    last = list(best)[-2]
    for label in list(best)[:-1]:
        diffs = differences(best[label]["results"], here["results"])
        print(f"this checkout / {label}: wall {here['wall'] / best[label]['wall']:.2f}   sum of obligation times "
              f"{here['in_obligations'] / best[label]['in_obligations']:.2f}   "
              f"{len(diffs)} differences of status, grade, scope or certificate substance")
        if label == last:
            for headline, paths in diffs:
                print(f"  {headline}")
                for where in paths:
                    print(f"      {where}")
    if args.like_for_like:
        like_for_like(args, best, here)


def like_for_like(args: argparse.Namespace, best: dict[str, dict[str, Any]], here: dict[str, Any]) -> None:
    """For each other checkout with fewer obligations: this checkout's cold check of that
    checkout's obligations only (their ids as patterns, which also selects the few whose ids
    extend one of them: an upper bound), against that checkout's full check."""
    mine = {r["id"] for r in here["results"]}
    for label, other in best.items():
        ids = {r["id"] for r in other["results"]}
        if label == "this checkout" or ids == mine or not ids <= mine:
            continue
        runs = [cold_check(ROOT, args.jobs, args.times, tuple(sorted(ids))) for _ in range(args.rounds)]
        r = min(runs, key=lambda x: x["wall"])
        common = sum(x["time_s"] for x in r["results"] if x["id"] in ids)
        theirs = sum(x["time_s"] for x in other["results"])
        print(f"this checkout on the {len(ids)} obligations of {label} ({len(r['results'])} selected by their ids): "
              f"wall {r['wall']:.1f} s, {r['wall'] / other['wall']:.2f} of its {other['wall']:.1f} s; "
              f"their own times {common:.1f} s against {theirs:.1f} s ({common / theirs:.2f})")


if __name__ == "__main__":
    main()
