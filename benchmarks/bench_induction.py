"""Proofs for every size against loops over sizes: the cold catalogue check before and after, side by side.

Both checkouts run the same cold ``obligations check --jobs N`` (empty cache, the same hand-out
times), alternated ``--rounds`` times in one run (the best of each is kept: machines here are shared).
Printed: each checkout's wall time, the sum of its obligations' own times and its peak RSS; the
ratios; the proved results by grade (∀ / bounded / instances) and the outcomes (confirmed / partial);
and, obligation by obligation, every result whose grade changed, with its own time before and after
(an induction replaces a loop over sizes: dot_close checked 70 sizes one by one).

    git worktree add /tmp/before <the commit before the induction rule>
    python benchmarks/bench_induction.py --against /tmp/before [--jobs 2] [--rounds 1] [--no-confirm]

``--no-confirm`` runs this checkout with ``check --no-confirm`` (no second solver), so that the ratio
is the induction rule's alone against a checkout from before the second solver.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

from bench_full import ROOT, cold_check


def grades(results: list[dict[str, Any]]) -> str:
    proved = [r for r in results if r["status"] == "proved"]
    by_grade = Counter(r.get("grade") for r in proved)
    outcomes = Counter(r["outcome"] for r in results)
    return (f"{len(proved)} proved ({by_grade['universal']} ∀, {by_grade['bounded']} bounded, "
            f"{by_grade['instances']} at instances); {outcomes['confirmed']} confirmed, {outcomes['partial']} partial")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, required=True, help="the checkout before (e.g. a worktree of main)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--times", type=Path, default=ROOT / "benchmarks" / "expected_times.json")
    parser.add_argument("--no-confirm", action="store_true", help="run this checkout without the second solver")
    args = parser.parse_args()
    trees = {"before": args.against.resolve(), "after": ROOT}
    runs: dict[str, list[dict[str, Any]]] = {label: [] for label in trees}
    for _ in range(args.rounds):
        for label, tree in trees.items():
            flags = ("--no-confirm",) if args.no_confirm and label == "after" else ()
            runs[label].append(cold_check(tree, args.jobs, args.times, flags=flags))
    best = {label: min(v, key=lambda r: r["wall"]) for label, v in runs.items()}
    for label, r in best.items():
        print(f"{label:<6}  cold check, --jobs {args.jobs}: wall {r['wall']:6.1f} s   sum of obligation times "
              f"{r['in_obligations']:6.1f} s   peak RSS {r['peak_mib']:5.0f} MiB   exit {r['exit']}   {grades(r['results'])}")
    before, after = best["before"], best["after"]
    print(f"after / before: wall {after['wall'] / before['wall']:.2f}   sum of obligation times "
          f"{after['in_obligations'] / before['in_obligations']:.2f}   peak RSS {after['peak_mib'] / before['peak_mib']:.2f}")
    old = {r["id"]: r for r in before["results"]}
    changed = [(r, old[r["id"]]) for r in after["results"] if r["id"] in old and r.get("grade") != old[r["id"]].get("grade")]
    mine, theirs = sum(r["time_s"] for r, _ in changed), sum(o["time_s"] for _, o in changed)
    print(f"{len(changed)} results changed grade; their own times {mine:.1f} s after against {theirs:.1f} s before"
          + (f" ({mine / theirs:.2f})" if theirs else ""))
    for r, o in sorted(changed, key=lambda p: p[0]["id"]):
        print(f"  {r['id']:<48} {o.get('grade') or o['status']:>9} → {r.get('grade') or r['status']:<9} "
              f"{o['time_s']:7.2f} s → {r['time_s']:7.2f} s")


if __name__ == "__main__":
    main()
