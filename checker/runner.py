"""Running obligations: a pool of worker processes with hard limits.

Each worker is a separate (spawned) process with an address-space limit and BLAS limited to
one thread. The parent hands out one obligation at a time, enforces the wall-clock limit by
terminating (then killing) a late worker, and replaces any worker that died, hung or ran
out of memory. A crashing, hanging or memory-hungry obligation costs only itself.

Results do not depend on ``jobs``: every obligation's seed is derived from its id, and
results are returned in catalogue order whatever order they finish in.
"""

from __future__ import annotations

import multiprocessing
import os
from dataclasses import replace
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Sequence

from checker.model import (
    Certificate,
    Context,
    Expect,
    Limits,
    Obligation,
    Result,
    Source,
    Status,
    Verdict,
    derive_seed,
    result_for,
)
from checker import schedule
from checker.cache import Cache, cache_key
from checker.registry import LoadError

DEFAULT_TIMEOUT_S = 120.0
DEFAULT_MEMORY_MIB = 4096
DEFAULT_SEED = 20260806
_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


@dataclass(frozen=True, slots=True)
class RunConfig:
    jobs: int = 0  # 0: one per core
    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_mib: int = DEFAULT_MEMORY_MIB
    seed: int = DEFAULT_SEED
    slow: bool = False
    audit: bool = False  # run the audits (checker.audit) after each discharge, in the worker

    @property
    def workers(self) -> int:
        return self.jobs if self.jobs > 0 else (os.cpu_count() or 1)

    @property
    def limits(self) -> Limits:
        return Limits(self.timeout_s, self.memory_mib)


Progress = Callable[[Result, int, int, bool], None]  # result, done, total, from the cache


# ---------------------------------------------------------------------------------------
# Worker side
# ---------------------------------------------------------------------------------------


def _own_frame(exc: BaseException, file: str) -> str:
    """``file:line in function`` of the deepest traceback frame inside the obligation's module
    (else the deepest frame overall)."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if os.path.abspath(f.filename) == os.path.abspath(file)]
    frame = (mine or frames or [None])[-1]
    if frame is None:
        return file
    return f"{frame.filename}:{frame.lineno} in {frame.name}"


def execute(ob: Obligation, ctx: Context, limits: Limits | None = None, audit: bool = False) -> tuple[Result, bool]:
    """Run one discharge function in this process and wrap whatever happens into a Result
    (pytest's ``CallInfo.from_call``). The flag asks for the worker to be replaced.

    With ``audit``, the audits of :mod:`checker.audit` run afterwards in the same process,
    within what is left of the wall-clock limit; an audit failure becomes an entry of the
    audit object, never a different status."""
    start = time.perf_counter()
    restart = False
    try:
        verdict = ob.discharge(ctx)
        if not isinstance(verdict, Verdict):
            raise TypeError(
                f"discharge returned {type(verdict).__name__} ({verdict!r:.80}), expected a Verdict; "
                "return checker.verdicts.proved(...)/refuted(...)/unknown(...)"
            )
    except MemoryError as exc:
        restart = True
        where = _own_frame(exc, ob.file)
        verdict = Verdict(
            Status.ERROR,
            Certificate(
                method="memory limit",
                reason=f"{where}: memory limit of {limits.memory_mib if limits else '?'} MiB exceeded (MemoryError)",
                data={"limit_mib": limits.memory_mib if limits else None},
            ),
        )
    except BaseException as exc:  # noqa: BLE001 - any failure of an obligation is its own error
        if isinstance(exc, KeyboardInterrupt):
            raise
        where = _own_frame(exc, ob.file)
        verdict = Verdict(
            Status.ERROR,
            Certificate(
                method="exception",
                reason=f"{where}: {type(exc).__name__}: {exc}",
                data={"traceback": "".join(traceback.format_exception(exc)).strip()[-4000:]},
            ),
        )
    elapsed = time.perf_counter() - start
    vacuity_json = None
    if not restart:
        vacuity_json = _vacuity(ob, ctx, verdict)
    audit_json = None
    if audit and not restart:
        verdict, audit_json, restart = _audit(ob, ctx, verdict, elapsed)
    result = result_for(ob, verdict, elapsed, seed=ctx.seed, limits=limits, audit=audit_json, vacuity=vacuity_json)
    return replace(result, claims=_printed_claims(ob)), restart


def _printed_claims(ob: Obligation) -> tuple[dict[str, Any], ...]:
    """The declared claims as formulas (in the worker: printing may import what the claims use)."""
    from checker.render import print_claims

    return tuple(p.to_json() for p in print_claims(ob.claims))


def _vacuity(ob: Obligation, ctx: Context, verdict: Verdict) -> Any:
    """The default vacuity check of a proved result (:mod:`checker.vacuity`); its own failure is
    an undecided entry, never a changed status."""
    from checker import vacuity

    try:
        return vacuity.check(ob, ctx, verdict)
    except MemoryError:
        return {"verdict": "undecided", "reason": "memory limit exceeded during the vacuity check"}
    except Exception as exc:  # noqa: BLE001
        return {"verdict": "undecided", "reason": f"{type(exc).__name__}: {exc}"}


def _audit(ob: Obligation, ctx: Context, verdict: Verdict, elapsed: float) -> tuple[Verdict, dict[str, Any], bool]:
    """Run the audits within the wall-clock limit left after the discharge (with a margin for
    the answer to reach the parent); the shrunk witness goes into the certificate."""
    import dataclasses

    from checker import audit as audits

    budget = ctx.timeout_s * 0.85 - elapsed - 1.0
    try:
        audit_json, shrunk = audits.run_audit(ob, ctx, verdict, elapsed, budget_s=budget)
    except MemoryError:
        return verdict, audits.failed_audit("memory limit exceeded during the audit"), True
    except Exception as exc:  # noqa: BLE001 - an audit failure never changes the result
        return verdict, audits.failed_audit(f"{type(exc).__name__}: {exc}"), False
    if shrunk is not None:
        verdict = Verdict(verdict.status, dataclasses.replace(verdict.certificate, shrunk_witness=shrunk))
    return verdict, audit_json, False


def _worker_main(conn: Connection, memory_mib: int) -> None:
    for var in _THREAD_VARS:
        os.environ[var] = "1"
    if memory_mib > 0:
        try:
            import resource

            limit = memory_mib * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ImportError, ValueError, OSError):  # pragma: no cover - platform without limits
            pass
    import importlib

    from checker import registry

    limits = None
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        ob_id, module, seed, timeout_s, slow, audit = msg
        limits = Limits(timeout_s, memory_mib)
        try:
            importlib.import_module(module)
            ob = registry._REGISTRY[ob_id]
        except BaseException as exc:  # noqa: BLE001
            conn.send(("load-error", f"{type(exc).__name__}: {exc}", False))
            continue
        result, restart = execute(ob, Context(ob_id, seed, timeout_s, slow), limits, audit=audit)
        conn.send(("result", result.to_json(), restart))
        if restart:
            return


# ---------------------------------------------------------------------------------------
# Parent side
# ---------------------------------------------------------------------------------------


class _Worker:
    def __init__(self, mp: Any, memory_mib: int) -> None:
        self.conn, child = mp.Pipe()
        self.proc = mp.Process(target=_worker_main, args=(child, memory_mib), daemon=True)
        self.proc.start()
        child.close()
        self.job: Obligation | None = None
        self.deadline = 0.0
        self.started = 0.0

    def give(self, ob: Obligation, seed: int, config: RunConfig) -> None:
        self.job = ob
        self.started = time.monotonic()
        self.deadline = self.started + config.timeout_s
        self.conn.send((ob.id, ob.module, seed, config.timeout_s, config.slow, config.audit))

    def stop(self, hard: bool = False) -> None:
        if hard:
            self.proc.terminate()
            self.proc.join(1.0)
            if self.proc.is_alive():
                self.proc.kill()
                self.proc.join(1.0)
        else:
            try:
                self.conn.send(None)
            except (BrokenPipeError, OSError):
                pass
            self.proc.join(2.0)
            if self.proc.is_alive():
                self.stop(hard=True)
        self.conn.close()


def _failure(ob: Obligation, status: Status, method: str, reason: str, elapsed: float, seed: int, config: RunConfig, **data: Any) -> Result:
    return result_for(ob, Verdict(status, Certificate(method=method, reason=reason, data=data)), elapsed, seed, config.limits)


def load_error_result(err: LoadError) -> Result:
    return Result(
        id=err.id,
        source=Source(err.location, "module"),
        statement=f"module {err.module} imports and its declarations are valid",
        scope="catalogue loading",
        expect=Expect.HOLDS,
        status=Status.ERROR,
        certificate=Certificate(method="import", reason=err.message, data={"location": err.location}),
        time_s=0.0,
    )


def with_fingerprint(r: Result, ob: Obligation, code: Any) -> Result:
    """``r`` with the obligation's current metadata (a cached result keeps its status and
    certificate; ``expect``, ``statement``, ``source``, ``scope``, ``lean`` and ``uses`` are not
    part of the fingerprint, so the outcome is recomputed from them) and its fingerprint."""
    from checker import fingerprint as fp
    from checker.render import PrintedClaim

    forms = None if r.claims is None else [PrintedClaim.from_json(c).canonical for c in r.claims]
    stamp = None
    if code is not None:
        stamp = {"digest": fp.obligation_digest(code.digest, forms or []) if forms is not None else None,
                 "code": code.digest, "granularity": code.granularity}
    return replace(r, source=ob.source, statement=ob.statement, scope=ob.scope, expect=ob.expect, lean=ob.lean,
                   uses=ob.uses, hypotheses=ob.hypotheses, fingerprint=stamp)


def run(
    obligations: Sequence[Obligation],
    config: RunConfig = RunConfig(),
    load_errors: Sequence[LoadError] = (),
    progress: Progress | None = None,
    cache: Cache | None = None,
    package: str = "obligations",
) -> list[Result]:
    """Discharge ``obligations`` in worker processes; return results in the given order,
    preceded by one ``error`` result per module that failed to load. With a ``cache``,
    results whose every dependency is unchanged are reused and no worker is started for them."""
    from checker import fingerprint as fp

    results: dict[str, Result] = {}
    total = len(obligations) + len(load_errors)
    done = 0
    keys: dict[str, str] = {}
    codes: dict[str, fp.Fingerprint] = {}
    by_id = {ob.id: ob for ob in obligations}
    store = cache.directory if cache is not None else None
    roots = {package, "obligations"}
    for ob in obligations:
        try:
            codes[ob.id] = fp.code_fingerprint(ob, roots, store=store)
        except Exception:  # noqa: BLE001 - no fingerprint means no cache entry: the obligation simply runs
            pass

    def stamped(r: Result) -> Result:
        ob = by_id.get(r.id)
        return r if ob is None else with_fingerprint(r, ob, codes.get(ob.id))

    def finish(r: Result, cached: bool = False) -> None:
        nonlocal done
        r = stamped(r)
        results[r.id] = r
        done += 1
        if cache is not None and not cached and r.id in keys:
            cache.put(keys[r.id], r)
        if progress is not None:
            progress(r, done, total, cached)

    for err in load_errors:
        finish(load_error_result(err))

    pending = []
    for ob in obligations:
        if cache is not None and ob.id in codes:
            keys[ob.id] = cache_key(ob, seed=derive_seed(config.seed, ob.id), timeout_s=config.timeout_s,
                                    memory_mib=config.memory_mib, slow=config.slow, package=package,
                                    audit=config.audit, fingerprint=codes[ob.id].digest)
            hit = cache.get(keys[ob.id], ob.id)
            if hit is not None:
                finish(hit, cached=True)
                continue
        pending.append(ob)
    pending = schedule.longest_first(pending, cache)  # pop() from the end: longest expected first
    mp = multiprocessing.get_context("spawn")
    idle: list[_Worker] = []
    busy: list[_Worker] = []
    n_workers = min(config.workers, len(pending))
    try:
        while pending or busy:
            while pending and len(busy) < n_workers:
                worker = idle.pop() if idle else _Worker(mp, config.memory_mib)
                ob = pending.pop()
                seed = derive_seed(config.seed, ob.id)
                try:
                    worker.give(ob, seed, config)
                except (BrokenPipeError, OSError) as exc:
                    worker.stop(hard=True)
                    finish(_failure(ob, Status.ERROR, "worker", f"could not start a worker: {exc}", 0.0, seed, config))
                    continue
                busy.append(worker)
            now = time.monotonic()
            timeout = max(0.0, min(w.deadline for w in busy) - now)
            ready = wait([w.conn for w in busy], timeout=timeout)
            now = time.monotonic()
            for worker in list(busy):
                ob = worker.job
                assert ob is not None
                seed = derive_seed(config.seed, ob.id)
                if worker.conn in ready:
                    try:
                        kind, payload, restart = worker.conn.recv()
                    except (EOFError, OSError):
                        worker.proc.join(1.0)
                        code = worker.proc.exitcode
                        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
                        busy.remove(worker)
                        worker.stop(hard=True)
                        finish(_failure(ob, Status.ERROR, "worker crash",
                                        f"{ob.location}: the worker process died ({how}) while discharging {ob.id}",
                                        now - worker.started, seed, config, exitcode=code))
                        continue
                    busy.remove(worker)
                    if kind == "result":
                        finish(Result.from_json(payload))
                    else:
                        finish(_failure(ob, Status.ERROR, "import", f"{ob.location}: {payload}", now - worker.started, seed, config))
                    if worker.proc.is_alive() and not restart:
                        idle.append(worker)
                    else:
                        worker.stop(hard=True)
                elif now >= worker.deadline:
                    busy.remove(worker)
                    worker.stop(hard=True)
                    finish(_failure(ob, Status.TIMEOUT, "wall-clock limit",
                                    f"{ob.id} exceeded the {config.timeout_s:g} s wall-clock limit; the worker was killed",
                                    now - worker.started, seed, config, limit_s=config.timeout_s))
    finally:
        for worker in idle + busy:
            worker.stop(hard=bool(busy))
    ordered = [results[e.id] for e in load_errors] + [results[ob.id] for ob in obligations]
    return ordered
