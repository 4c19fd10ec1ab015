"""What a cvc5 try costs beyond cvc5's own work: a fork per try against one child per ledger.

Puts one small query (``x·y ≤ (x² + y²)/2``, negated) to cvc5 ``--queries`` times three ways, in a
process that holds about ``--mib`` MiB of Python objects (a job's size after its proofs): in this
process, in a child forked for each try (as confirmation did before), and through one child that
answers them in turn (:func:`checker.backends.confirm._server`, as confirmation does now). Prints
the wall and processor time per query of each, and the ratios to the in-process time, measured in
one run.

    python benchmarks/bench_cvc5_child.py [--queries 30] [--mib 0 400]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from checker.backends import confirm  # noqa: E402


def _times() -> tuple[float, float]:
    t = os.times()
    return t.user + t.system, t.children_user + t.children_system


def measure(queries: int, ballast_mib: int) -> None:
    import z3

    ballast = [bytearray(1 << 20) for _ in range(ballast_mib)]  # resident: every page written
    for block in ballast:
        block[::4096] = b"\x01" * len(block[::4096])
    x, y = z3.Reals("x y")
    s = z3.Solver()
    s.add(z3.Not(x * y <= (x * x + y * y) / 2))
    query = confirm.query_of(s, "amgm")
    cvc5, version = confirm.cvc5_module(), confirm.cvc5_version()
    t = confirm.REAL_TRIES[0]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows = []
    for name, run in (
        ("in this process", lambda: confirm._cvc5_run(cvc5, version, query, confirm.CVC5_RLIMIT, t.options)),
        ("a fork per try", lambda: confirm._guarded(
            lambda: confirm._cvc5_run(cvc5, version, query, confirm.CVC5_RLIMIT, t.options), t.cpu_s)),
        ("one child", lambda: confirm._cvc5_child(cvc5, version, query, confirm.CVC5_RLIMIT, t)[0]),
    ):
        with confirm._one_child():
            run()  # warm
            own0, kids0 = _times()
            start = time.perf_counter()
            for _ in range(queries):
                answer = run()
                assert answer.answer == "unsat", answer
            wall = (time.perf_counter() - start) / queries
        own1, kids1 = _times()
        rows.append((name, wall, (own1 - own0) / queries, (kids1 - kids0) / queries))
    base = rows[0][1]
    print(f"process of {rss:.0f} MiB resident, {queries} queries each:")
    for name, wall, own, kids in rows:
        print(f"  {name:16s} {wall * 1000:7.1f} ms wall per query ({wall / base:4.1f}x in-process), "
              f"processor {own * 1000:5.1f} ms here + {kids * 1000:5.1f} ms in children")
    del ballast


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--mib", type=int, nargs="+", default=[0, 400])
    args = parser.parse_args()
    if confirm.cvc5_module() is None:
        raise SystemExit("cvc5 is not installed (pip install cvc5)")
    for mib in args.mib:
        measure(args.queries, mib)


if __name__ == "__main__":
    main()
