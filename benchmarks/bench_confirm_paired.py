"""What second-solver confirmation costs, obligation by obligation: each obligation discharged twice
in a row, with and without confirmation, and the two summed over the catalogue.

``bench_confirm.py`` times two whole cold checks; on a shared machine whose speed drifts by a fifth
from one check to the next, that ratio moves by as much as confirmation costs. Here the two runs of
each obligation are seconds apart (their order alternates from one obligation to the next), so a
drift over minutes touches both alike. Each run is a child forked from this process after the
catalogue is loaded, as a worker is: it takes the shared-fact store's references, discharges the
obligation (``checker.run.runner.execute``: the proof, and with confirmation cvc5 on the steps the
result rests on) and ends. Its processor time is the child's whole tree (cvc5's children with it);
the runs with confirmation share one store, as the jobs of one check do, and those without another.

Prints the processor time and the wall clock of the two sums and their ratios, the obligations where
confirmation costs most, and, in the runs with confirmation, how much of it the job's own side took
(reading each query's text and naming its logic, and resolving the ledgers: forking cvc5's children,
sending the queries, reading the answers) against cvc5's children. Checks that both runs of every
obligation settle it alike.

    python benchmarks/bench_confirm_paired.py [PATTERN …] [--limit 1.3]

Exit status 1 when the ratio of processor time exceeds ``--limit`` or a status differs.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_SPENT: dict[str, float] = {}  # in a child: processor seconds spent inside each timed engine function


def _timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            _SPENT[name] = _SPENT.get(name, 0.0) + time.process_time() - start

    return wrapper


def _discharge(ob: Any, confirm_on: bool, store: str) -> dict[str, Any]:
    """In a forked child: discharge ``ob`` as a worker does, and what it spent."""
    from checker.backends import confirm, memo
    from checker.kernel.model import Context, derive_seed
    from checker.run.runner import DEFAULT_SEED, DEFAULT_TIMEOUT_S, execute

    os.environ["OBLIGATIONS_CONFIRM"] = "1" if confirm_on else "0"
    memo.z3_text = _timed("text", memo.z3_text)
    confirm.logic_of = _timed("logic", confirm.logic_of)
    confirm.resolved = _timed("resolve", confirm.resolved)
    memo.seal()
    memo.use(store)
    result, _ = execute(ob, Context(ob.id, derive_seed(DEFAULT_SEED, ob.id), DEFAULT_TIMEOUT_S, False))
    own = resource.getrusage(resource.RUSAGE_SELF)
    doc = result.to_json()
    return {"settled": [doc.get(k) for k in ("status", "grade", "grade_over")], "own": own.ru_utime + own.ru_stime, **_SPENT}


def _in_child(ob: Any, confirm_on: bool, store: str) -> dict[str, Any]:
    """``_discharge`` in a forked child: its answer, its tree's processor time and the wall clock."""
    read, write = os.pipe()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            payload = json.dumps(_discharge(ob, confirm_on, store)).encode()
        except BaseException as exc:  # noqa: BLE001 - reported, not raised, in the child
            payload = json.dumps({"settled": [f"crashed: {type(exc).__name__}: {exc}"]}).encode()
        with os.fdopen(write, "wb") as fh:
            fh.write(payload)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        data = fh.read()
    _, _, usage = os.wait4(pid, 0)
    out = json.loads(data) if data else {"settled": ["no answer"]}
    out["tree"] = usage.ru_utime + usage.ru_stime  # the child and every child of its own it waited for
    out["wall"] = time.perf_counter() - start
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("patterns", nargs="*")
    parser.add_argument("--limit", type=float, default=1.3, help="the largest acceptable ratio (default: %(default)s)")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")  # as in a worker
    os.environ.pop("OBLIGATIONS_CONFIRM_LOG", None)
    from checker.run.discovery import discover

    obligations = list(discover("obligations").select(args.patterns, include_slow=False))
    runs: dict[str, dict[bool, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as on_store, tempfile.TemporaryDirectory() as off_store:
        stores = {True: on_store, False: off_store}
        for i, ob in enumerate(obligations):
            order = (True, False) if i % 2 == 0 else (False, True)
            runs[ob.id] = {c: _in_child(ob, c, stores[c]) for c in order}
            print(f"[{i + 1}/{len(obligations)}] {ob.id}: {runs[ob.id][True]['tree']:.2f} s with, "
                  f"{runs[ob.id][False]['tree']:.2f} s without", file=sys.stderr, flush=True)

    def total(on: bool, key: str) -> float:
        return sum(r[on].get(key, 0.0) for r in runs.values())

    cpu_on, cpu_off = total(True, "tree"), total(False, "tree")
    wall_on, wall_off = total(True, "wall"), total(False, "wall")
    own_on, own_off = total(True, "own"), total(False, "own")
    print(f"{len(runs)} obligations, each run with and without confirmation, one after the other")
    print(f"processor time: {cpu_on:.1f} s with confirmation, {cpu_off:.1f} s without, ratio {cpu_on / cpu_off:.3f}")
    print(f"wall clock: {wall_on:.1f} s with, {wall_off:.1f} s without, ratio {wall_on / wall_off:.3f}")
    print(f"  the jobs' own processes: {own_on:.1f} s with, {own_off:.1f} s without ({own_on - own_off:+.1f} s: "
          f"reading the query texts {total(True, 'text'):.1f} s, naming their logic {total(True, 'logic'):.1f} s, "
          f"resolving the ledgers {total(True, 'resolve'):.1f} s); cvc5's children {cpu_on - own_on:.1f} s")
    costly = sorted(runs.items(), key=lambda kv: kv[1][False]["tree"] - kv[1][True]["tree"])[: args.top]
    print("where confirmation costs most (processor time with, without):")
    for ob_id, r in costly:
        print(f"  {ob_id}: {r[True]['tree']:.2f} s, {r[False]['tree']:.2f} s")
    differ = [ob_id for ob_id, r in runs.items() if r[True]["settled"] != r[False]["settled"]]
    for ob_id in differ:
        print(f"  settled differently: {ob_id}: {runs[ob_id][True]['settled']} with, {runs[ob_id][False]['settled']} without")
    sys.exit(1 if cpu_on / cpu_off > args.limit or differ else 0)


if __name__ == "__main__":
    main()
