"""Profile the catalogue in one process: where each obligation spends its CPU time.

Imports the heavy libraries and every catalogue module first (timed one by one), then
discharges each obligation in this process with ``checker.run.runner.execute`` (discharge and the
default vacuity check, as a worker does) and prints, per obligation, the CPU time
(``time.process_time``) split by the backend that spent it — solver (z3), symbolic (sympy),
sampling (numpy), interval, exact — read from the certificate steps' ``time_s``, with the
rest as "own" (the obligation's own Python, outside any backend step). CPU time, not wall
time, so that the figures hold on a loaded machine.

    python benchmarks/profile_obligations.py [PATTERN …] [--slow] [--top N] [--json OUT]
    python benchmarks/profile_obligations.py [PATTERN …] --against OLD_TREE

``--against`` runs the same profile on another checkout (e.g. a ``git worktree`` of the commit
before a speed-up) in a subprocess, one after the other in the same run, and prints both CPU
times with their ratio, then every difference of status, grade, scope or certificate
substance (witness, sides, data without timings) between the two.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "scipy", "mpmath", "sympy", "z3", "flint")
SPLIT = {"smt": "solver", "symbolic": "symbolic", "sampling": "sampling", "interval": "interval", "exact": "exact"}
COLUMNS = ("solver", "symbolic", "sampling", "interval", "exact", "own")
_TIMING_KEYS = ("time", "elapsed", "seconds")


def _strip_timings(value: Any) -> Any:
    """Certificate data without anything that measures time (which varies run to run)."""
    if isinstance(value, dict):
        return {str(k): _strip_timings(v) for k, v in value.items()
                if not any(t in str(k) for t in _TIMING_KEYS) and not str(k).endswith("_s")}
    if isinstance(value, (list, tuple)):
        return [_strip_timings(v) for v in value]
    return value


def fingerprint(result_json: dict[str, Any]) -> dict[str, Any]:
    """What must not change when an obligation is made faster: status, grade, scope, and the
    certificate's substance."""
    cert = result_json["certificate"]
    return {
        "status": result_json["status"],
        "grade": result_json.get("grade"),
        "grade_over": result_json.get("grade_over"),
        "scope": result_json["scope"],
        "witness": cert.get("witness"),
        "sides": cert.get("sides"),
        "reason": cert.get("reason"),
        "data": _strip_timings(cert.get("data", {})),
        "steps": [(s["backend"], s["action"], s["answer"]) for s in cert.get("steps", [])],
        "vacuity": (result_json.get("vacuity") or {}).get("verdict"),
    }


def profile(patterns: list[str], slow: bool) -> dict[str, Any]:
    sys.path.insert(0, str(os.getcwd()))
    imports: dict[str, float] = {}
    for name in HEAVY:
        t = time.process_time()
        try:
            importlib.import_module(name)
        except ImportError:
            continue
        imports[name] = time.process_time() - t
    import pkgutil

    import obligations

    for info in sorted(pkgutil.walk_packages(obligations.__path__, prefix="obligations."), key=lambda m: m.name):
        t = time.process_time()
        try:
            importlib.import_module(info.name)
        except Exception:  # noqa: BLE001 - a broken module is the catalogue's error, reported by check
            pass
        imports[info.name] = time.process_time() - t

    from checker.kernel.model import Context, derive_seed
    from checker.run.discovery import discover
    from checker.run.runner import DEFAULT_SEED, DEFAULT_TIMEOUT_S, execute

    catalogue = discover("obligations")
    rows = []
    for ob in catalogue.select(patterns, include_slow=slow):
        ctx = Context(ob.id, derive_seed(DEFAULT_SEED, ob.id), DEFAULT_TIMEOUT_S, slow)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        result, _ = execute(ob, ctx)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        data = result.to_json()
        split = dict.fromkeys(COLUMNS, 0.0)
        for step in data["certificate"]["steps"]:
            split[SPLIT.get(step["backend"], "own")] += step["time_s"]
        # step times are wall clock; scale them to this obligation's CPU share so the columns add up
        inside = sum(split.values())
        scale = min(1.0, cpu / wall) if wall > 0 else 1.0
        for k in COLUMNS:
            split[k] *= scale
        split["own"] = max(0.0, cpu - inside * scale)
        rows.append({"id": ob.id, "cpu": cpu, "wall": wall, "split": split, "fingerprint": fingerprint(data)})
        print(f"{ob.id:<56} {cpu:6.2f} s CPU", file=sys.stderr, flush=True)
    return {"imports": imports, "rows": rows}


def _print(report: dict[str, Any], top: int) -> None:
    imports = report["imports"]
    heavy = sum(v for k, v in imports.items() if not k.startswith("obligations"))
    own = sum(v for k, v in imports.items() if k.startswith("obligations"))
    print(f"import: libraries {heavy:.2f} s CPU ({', '.join(f'{k} {v:.2f}' for k, v in imports.items() if not k.startswith('obligations'))}); "
          f"catalogue modules {own:.2f} s")
    for k, v in sorted(imports.items(), key=lambda kv: -kv[1]):
        if k.startswith("obligations") and v >= 0.05:
            print(f"  {k:<48} {v:6.2f} s")
    rows = sorted(report["rows"], key=lambda r: -r["cpu"])
    print(f"\n{'obligation':<56} {'cpu s':>6} " + " ".join(f"{c:>8}" for c in COLUMNS) + "  status")
    for r in rows[:top]:
        fp = r["fingerprint"]
        grade = f" {fp['grade']}" if fp["grade"] else ""
        print(f"{r['id']:<56} {r['cpu']:6.2f} " + " ".join(f"{r['split'][c]:8.2f}" for c in COLUMNS) + f"  {fp['status']}{grade}")
    total = sum(r["cpu"] for r in rows)
    cols = {c: sum(r["split"][c] for r in rows) for c in COLUMNS}
    print(f"{'total (' + str(len(rows)) + ' obligations)':<56} {total:6.2f} " + " ".join(f"{cols[c]:8.2f}" for c in COLUMNS))


ROUNDING_NOISE = 1e-12  # below this, a float is a measured rounding error (e.g. two norms' relative difference)


def _same(a: Any, b: Any, rel: float = 1e-9) -> bool:
    """Equal, floats to a relative ``rel`` (a faster but equivalent computation may round
    differently); two floats both below :data:`ROUNDING_NOISE` in magnitude are both rounding
    errors and count as equal."""
    if isinstance(a, float) and isinstance(b, (int, float)) or isinstance(b, float) and isinstance(a, (int, float)):
        if abs(a) < ROUNDING_NOISE and abs(b) < ROUNDING_NOISE:
            return True
        return a == b or abs(a - b) <= rel * max(abs(a), abs(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k], rel) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y, rel) for x, y in zip(a, b))
    return a == b


def difference_paths(a: Any, b: Any, path: str = "", rel: float = 1e-9, limit: int = 5) -> list[str]:
    """Where ``a`` and ``b`` differ (leaves as :func:`_same` judges them), as paths with both
    values, in key order, at most ``limit``."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = [f"{path}.{k}: only {'new' if k in b else 'old'}" for k in sorted(a.keys() ^ b.keys())]
        for k in sorted(a.keys() & b.keys()):
            out += difference_paths(a[k], b[k], f"{path}.{k}", rel, limit)
        return out[:limit]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += difference_paths(x, y, f"{path}[{i}]", rel, limit)
        return out[:limit]
    if _same(a, b, rel):
        return []
    return [f"{path or '.'}: {json.dumps(a, ensure_ascii=False)[:120]} -> {json.dumps(b, ensure_ascii=False)[:120]}"]


def _against(args: argparse.Namespace) -> None:
    """This tree and ``args.against``, each profiled in its own subprocess, side by side."""
    reports = {}
    for label, tree in (("old", Path(args.against).resolve()), ("new", ROOT)):
        out = Path(f"/tmp/profile_{os.getpid()}_{label}.json")
        cmd = [sys.executable, str(Path(__file__).resolve()), *args.patterns, "--json", str(out), "--top", "0"]
        if args.slow:
            cmd.append("--slow")
        env = {**os.environ, "PYTHONPATH": str(tree)}
        subprocess.run(cmd, cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL)
        reports[label] = json.loads(out.read_text(encoding="utf-8"))
        out.unlink()
    old = {r["id"]: r for r in reports["old"]["rows"]}
    new = {r["id"]: r for r in reports["new"]["rows"]}
    print(f"{'obligation':<56} {'old cpu':>8} {'new cpu':>8} {'new/old':>8}")
    for ob_id in sorted(old.keys() & new.keys(), key=lambda i: -old[i]["cpu"])[: args.top]:
        o, n = old[ob_id]["cpu"], new[ob_id]["cpu"]
        print(f"{ob_id:<56} {o:8.2f} {n:8.2f} {n / o if o else float('nan'):8.2f}")
    to, tn = sum(r["cpu"] for r in old.values()), sum(r["cpu"] for r in new.values())
    io = sum(reports["old"]["imports"].values())
    inew = sum(reports["new"]["imports"].values())
    print(f"{'total discharge CPU':<56} {to:8.2f} {tn:8.2f} {tn / to:8.2f}")
    print(f"{'total import CPU':<56} {io:8.2f} {inew:8.2f} {inew / io:8.2f}")
    changed = 0
    for ob_id in sorted(old.keys() | new.keys()):
        if ob_id not in old or ob_id not in new:
            print(f"only in {'new' if ob_id in new else 'old'}: {ob_id}")
            changed += 1
            continue
        fo, fn = old[ob_id]["fingerprint"], new[ob_id]["fingerprint"]
        for key in fo:
            if not _same(fo[key], fn.get(key)):
                changed += 1
                print(f"CHANGED {ob_id} {key}:")
                for line in difference_paths(fo[key], fn.get(key)):
                    print(f"  {line}")
    print(f"{changed} differences of status, grade, scope or certificate substance")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("patterns", nargs="*")
    parser.add_argument("--slow", action="store_true")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--against", type=Path, help="another checkout to profile side by side")
    args = parser.parse_args()
    if args.against:
        _against(args)
        return
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")  # as in a worker
    report = profile(args.patterns, args.slow)
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False), encoding="utf-8")
    if args.top:
        _print(report, args.top)


if __name__ == "__main__":
    main()
