"""What second-solver confirmation costs: the cold full check with and without it, side by side.

Each round runs a cold ``obligations check --jobs N`` of the whole default catalogue twice, in
alternating order, with an empty cache directory each time (holding only the hand-out times this
checkout ships): once as configured (cvc5 confirms every z3 ``unsat``, z3 every bitwuzla ``unsat``)
and once with ``--no-confirm``. It prints both wall times, the ratio, the time the second solvers
spent (summed from the timings of the ledgers' ``confirmation`` entries), the summary line's counts,
how cvc5's tries ended and the processor time they took (``OBLIGATIONS_CONFIRM_LOG``: what the
ledgers leave out, as it depends on the machine), and every proof left unconfirmed with the reason; it checks that the two runs settle every obligation alike
(status, grade, what it covers). Beside the wall-clock ratio (the one the limit applies to) it prints
the ratio of the two checks' processor time (the whole process tree's): on a shared machine another
tenant's load moves wall clock from one check to the next far more than processor time. And, from
the run with confirmation alone, its processor time against the same less the time cvc5's tries
took: both halves measured in one run, so a machine whose speed drifts between the two checks (as a
shared one's does, by a fifth from one check to the next) does not move it; it leaves out the job's
own work for confirmation (building each query's text, forking cvc5's children), so it reads low.

With ``--together`` each round's two checks run at once, each pinned to a processor of its own (its
workers with it; use ``--jobs 1``), the processors swapped from one round to the next: both checks
then meet the same moments of a shared machine, whose speed drifts between two checks run one after
the other. Their processors may still differ (another tenant's load lands on one): the swap is for
that, and an even number of rounds.

    python benchmarks/bench_confirm.py [--jobs 2] [--rounds 1] [--limit 1.3]
    python benchmarks/bench_confirm.py --together --jobs 1 --rounds 4

Exit status 1 when the median ratio exceeds ``--limit`` or the statuses differ.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent


def cold_check(jobs: int, confirm: bool, core: int | None = None) -> dict[str, Any]:
    """One cold check, run to its end (see :func:`start_check`)."""
    return start_check(jobs, confirm, core)()


def start_check(jobs: int, confirm: bool, core: int | None = None) -> Callable[[], dict[str, Any]]:
    """Start a cold check (confirmation on or off; pinned to processor ``core`` when given, its
    workers with it) and return what waits for it: its wall time, the processor time of its whole
    process tree, its report and cvc5's tries."""
    tmp = tempfile.TemporaryDirectory()
    report = Path(tmp.name) / "report.json"
    log = Path(tmp.name) / "tries.jsonl"
    cache = Path(tmp.name) / "cache"
    cache.mkdir()
    times = ROOT / "benchmarks" / "expected_times.json"
    if times.is_file():
        shutil.copy(times, cache / "times.json")
    cmd = [sys.executable, "-m", "checker", "check", "--jobs", str(jobs), "-q", "--no-baseline", "--format", "json",
           "-o", str(report), "--cache-dir", str(cache), *([] if confirm else ["--no-confirm"])]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for var in ("OBLIGATIONS_CACHE_DIR", "OBLIGATIONS_CONFIRM", "OBLIGATIONS_DISAGREEMENTS_DIR"):
        env.pop(var, None)
    env["OBLIGATIONS_CONFIRM_LOG"] = str(log)  # how each cvc5 query's tries ended (machine-dependent)
    pin = None if core is None else (lambda: os.sched_setaffinity(0, {core}))
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=pin)

    def finish() -> dict[str, Any]:
        try:
            stderr = proc.stderr.read() if proc.stderr else ""
            _, status, usage = os.wait4(proc.pid, 0)  # the check's whole process tree, reaped
            wall = time.perf_counter() - start
            proc.returncode = os.waitstatus_to_exitcode(status)
            if not report.is_file():
                raise SystemExit(f"the check wrote no report (exit {proc.returncode}): {stderr[-2000:]}")
            doc = json.loads(report.read_text(encoding="utf-8"))
            tries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.is_file() else []
        finally:
            tmp.cleanup()
        return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "exit": proc.returncode,
                "results": doc["results"], "summary": doc["summary"], "tries": tries}

    return finish


def round_of(jobs: int, i: int, together: bool) -> dict[bool, dict[str, Any]]:
    """One round: both checks one after the other (in alternating order), or, ``together``, both at
    once, each on a processor of its own (swapped from one round to the next)."""
    order = (True, False) if i % 2 == 0 else (False, True)
    if not together:
        return {c: cold_check(jobs, c) for c in order}
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise SystemExit("--together needs two processors")
    waits = {c: start_check(jobs, c, core) for c, core in zip(order, cores)}
    with concurrent.futures.ThreadPoolExecutor(len(waits)) as pool:  # each check's wall clock ends when it does
        done = {c: pool.submit(wait) for c, wait in waits.items()}
    return {c: f.result() for c, f in done.items()}


def tries_cpu(tries: list[dict[str, Any]]) -> float:
    """The processor seconds of the cvc5 tries run in a check (not those read back from another job)."""
    return sum(t.get("cpu_s") or 0 for q in tries for t in q["tries"] if not t.get("shared"))


def observations(tries: list[dict[str, Any]]) -> None:
    """What the ledgers leave out: how cvc5's tries ended and the processor time they took."""
    flat = [t for q in tries for t in q["tries"]]
    run = [t for t in flat if not t.get("shared")]
    cut = [q for q in tries if any(t.get("cut") for t in q["tries"])]
    unsat_cpu = [t["cpu_s"] for t in run if t["answer"] == "unsat" and t.get("cpu_s") is not None]
    other_cpu = [t["cpu_s"] for t in run if t["answer"] != "unsat" and not t.get("cut") and t.get("cpu_s") is not None]
    answers: dict[str, int] = {}
    for q in tries:
        a = next((t["answer"] for t in q["tries"] if t["answer"] in ("unsat", "sat")), "no proof")
        answers[a] = answers.get(a, 0) + 1
    print(f"cvc5 queries: {len(tries)} ({', '.join(f'{v} {k}' for k, v in sorted(answers.items()))}); tries run "
          f"{len(run)}, read back from another job {len(flat) - len(run)}; processor time of the tries run "
          f"{tries_cpu(tries):.1f} s")
    if unsat_cpu:
        print(f"  slowest unsat try {max(unsat_cpu):.2f} s, slowest try out of units or incomplete "
              f"{max(other_cpu, default=0):.2f} s (processor time)")
    slowest: dict[tuple[str, float], float] = {}
    for t in run:
        if t["answer"] == "unsat" and t.get("cpu_s") is not None and "try" in t:
            key = (t["try"], t["limit_s"])  # a try resumed from a paused one counts what it spent before
            slowest[key] = max(slowest.get(key, 0.0), t["cpu_s"] + t.get("resumed_s", 0.0))
    if slowest:  # how close an unsat came to the limit that would have stopped it: the machine-dependent margin
        print("  slowest unsat of each try against its limit: " + ", ".join(
            f"{name} {cpu:.2f} of {limit:g} s" for (name, limit), cpu in sorted(slowest.items(), key=lambda kv: kv[0][1])))
    print(f"  queries with a try stopped at the processor-time limit: {len(cut)}"
          + (f" ({', '.join(sorted({q['what'] for q in cut}))})" if cut else ""))


def confirmations(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for r in results for e in r["certificate"].get("ledger", ()) if e.get("kind") == "confirmation"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--limit", type=float, default=1.3, help="the largest acceptable ratio (default: %(default)s)")
    parser.add_argument("--together", action="store_true",
                        help="run each round's two checks at once, each pinned to a processor of its own (use with --jobs 1)")
    args = parser.parse_args()

    ratios, cpu_ratios, in_run, runs = [], [], [], []
    for i in range(args.rounds):
        got = round_of(args.jobs, i, args.together)
        on, off = got[True], got[False]
        ratio = on["wall"] / off["wall"]
        ratios.append(ratio)
        cpu_ratios.append(on["cpu"] / off["cpu"])
        cvc5_cpu = tries_cpu(on["tries"])
        in_run.append(on["cpu"] / (on["cpu"] - cvc5_cpu))
        runs.append(got)
        spent = sum(e.get("detail", {}).get("time_s", 0.0) for e in confirmations(on["results"]))
        print(f"round {i + 1}: with confirmation {on['wall']:.1f} s, without {off['wall']:.1f} s, ratio {ratio:.3f} "
              f"(second solvers' own time, summed over the jobs: {spent:.1f} s); processor time of the whole "
              f"check {on['cpu']:.1f} s against {off['cpu']:.1f} s, ratio {cpu_ratios[-1]:.3f}; within the run with "
              f"confirmation, cvc5's tries {cvc5_cpu:.1f} s of its {on['cpu']:.1f} s, {in_run[-1]:.3f}")
    on, off = runs[-1][True], runs[-1][False]
    kernel_on, kernel_off = on["summary"].get("kernel", {}), off["summary"].get("kernel", {})
    print(f"with confirmation: {kernel_on.get('confirmed', 0)} solver proofs confirmed by two solvers, "
          f"{kernel_on.get('unconfirmed', 0)} unconfirmed")
    print(f"without: {kernel_off.get('confirmed', 0)} confirmed, {kernel_off.get('unconfirmed', 0)} unconfirmed")
    entries = confirmations(on["results"])
    queries = sum(e.get("detail", {}).get("queries", 0) for e in entries)
    asked = sum(sum(e.get("detail", {}).get("answers", {}).values()) for e in entries)
    print(f"confirmation entries: {len(entries)} over {queries} queries, {asked} of them put to the second solver "
          "(a step's later queries are not, once one is unconfirmed)")
    observations(on["tries"])
    for r in on["results"]:
        for e in r["certificate"].get("ledger", ()):
            if e.get("kind") == "confirmation" and not e.get("detail", {}).get("confirmed"):
                print(f"  unconfirmed: {r['id']}: {e['text']}")
    keys = ("status", "grade", "grade_over")
    differ = [r["id"] for r, s in zip(sorted(on["results"], key=lambda r: r["id"]), sorted(off["results"], key=lambda r: r["id"]))
              if r["id"] != s["id"] or any(r.get(k) != s.get(k) for k in keys)]
    for ob_id in differ:
        print(f"  settled differently: {ob_id}")
    median = statistics.median(ratios)
    print(f"median ratio over {len(ratios)} round(s): {median:.3f} (limit {args.limit}); of processor time "
          f"{statistics.median(cpu_ratios):.3f}; within the run with confirmation {statistics.median(in_run):.3f} "
          "(its processor time against the same less cvc5's tries: one run, so a machine whose speed drifts "
          "between the two checks does not move it; the job's own work for confirmation is left out)")
    sys.exit(1 if median > args.limit or differ else 0)


if __name__ == "__main__":
    main()
