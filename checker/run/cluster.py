"""Running jobs on a Dask cluster: ``--executor dask://HOST:PORT`` or ``local-cluster:N``.

dask.distributed (the optional extra ``pip install '.[cluster]'``) carries the jobs; it does not
run them. Each Dask task is a descriptor (:class:`~checker.run.pools.Job`: a job function's
dotted path, a payload of ids, seeds and limits, and the run's :class:`RunRef` with the
catalogue's fingerprint), never a closure. On the worker, :func:`run_task` hands the job to that
worker process's own forking template (:mod:`checker.run.workers`): a fresh process with the
memory and wall-clock limits, BLAS on one thread, the kernel's checks in the job; the task
returns the template's record as data. The client reads and re-validates every answer, as at
home, and is the only one to write the cache and the reports.

The same guarantees as at home:

- **Versions.** Before a run every worker reports its versions (:class:`Versions`: Python, the
  checker, z3, sympy, python-flint, numpy, mpmath, cvc5 if present, digests of the engine's and
  the catalogue's sources) and whether it may start processes; any difference refuses the run
  with a message naming the worker (:class:`VersionMismatch`).
- **No retry to a pass.** A task whose worker dies (killed, out of memory) is *lost* and its
  obligation is ``error`` (worker died); a local cluster is started with ``allowed-failures`` 0
  (Dask counts *retries*: a task fails at its first worker death), and on any scheduler a result
  whose task was ever on a dying worker is refused all the same (:meth:`DaskPool.wait`).
- **Progress** names the worker that ran each job; the dashboard's address is printed.

A worker's ``memory_limit`` does not count the processes it starts: each job's own limit (the
template's address-space limit and group memory poll) is what bounds it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import secrets
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from checker.kernel.errors import CheckerError, UsageError
from checker.run import workers
from checker.run.pools import GRACE_S, Done, Job
from checker.run.workers import Finished

EXTRA = "cluster"
RUN_STORE = "@run-store"  # in a payload: the worker's own store of shared facts for the run
LIBRARIES = ("z3-solver", "sympy", "python-flint", "numpy", "mpmath", "cvc5")
# the scheduler configuration of a local cluster: one job per worker thread, never a retry
_LOCAL_CONFIG = {
    "distributed.worker.daemon": False,  # a worker starts its template process
    "distributed.scheduler.allowed-failures": 0,
    "distributed.scheduler.worker-saturation": 1.0,
}


class ClusterUnavailable(UsageError, ImportError):
    """dask.distributed is not installed: the message names the extra to install."""


class VersionMismatch(CheckerError, RuntimeError):
    """A worker's versions differ from the client's: the message names the worker and each difference."""


# ---------------------------------------------------------------------------------------
# The executor option
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Executor:
    """Where a run's jobs go: ``local`` (this machine's template), ``local-cluster`` (a Dask
    ``LocalCluster`` of ``workers`` processes started for the run) or ``dask`` (the scheduler at
    ``address``)."""

    kind: str
    address: str | None = None
    workers: int = 0

    @property
    def is_local(self) -> bool:
        return self.kind == "local"

    def __str__(self) -> str:
        match self.kind:
            case "local":
                return "local"
            case "local-cluster":
                return f"local-cluster:{self.workers}"
            case _:
                return f"dask://{self.address}"


LOCAL = Executor("local")


def parse_executor(text: str) -> Executor:
    """``local``, ``local-cluster:N`` or ``dask://HOST:PORT`` (``tls://HOST:PORT`` for TLS) as an
    :class:`Executor`; anything else is a :class:`UsageError` saying what is accepted."""
    accepted = "use 'local', 'local-cluster:N' (N workers on this machine) or 'dask://HOST:PORT' (a running scheduler)"
    text = text.strip()
    if text == "local":
        return LOCAL
    if text.startswith("local-cluster:"):
        n = text.partition(":")[2]
        if not n.isdigit() or int(n) < 1:
            raise UsageError(f"executor {text!r}: the number of workers must be a whole number ≥ 1; {accepted}")
        return Executor("local-cluster", workers=int(n))
    for scheme in ("dask://", "tcp://", "tls://"):
        if text.startswith(scheme):
            address = text[len(scheme):]
            host, _, port = address.rpartition(":")
            if not host or not port.isdigit():
                raise UsageError(f"executor {text!r}: the scheduler's address needs a host and a port; {accepted}")
            return Executor("dask", address=("tls://" if scheme == "tls://" else "tcp://") + address)
    raise UsageError(f"executor {text!r} is not known; {accepted}")


def require_dask(executor: Executor) -> None:
    """Raise :class:`ClusterUnavailable` naming the extra when dask.distributed cannot be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError as exc:
        raise ClusterUnavailable(
            f"--executor {executor} needs dask.distributed, which is not installed ({exc}); install the optional "
            f"extra with: pip install '.[{EXTRA}]' (from the checkout), or pip install 'dask[distributed]'") from exc


# ---------------------------------------------------------------------------------------
# Versions
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RunRef:
    """What every task of a run carries besides its job: the run's id (its workers' shared-fact
    stores), the catalogue packages, the project root to import them from, and the fingerprints
    a worker must match."""

    run_id: str
    packages: tuple[str, ...]
    root: str | None
    engine: str
    catalogue: str


@dataclass(frozen=True, slots=True)
class Versions:
    """What a process would compute with: interpreter, libraries and the sources' digests."""

    python: str
    checker: str
    libraries: tuple[tuple[str, str | None], ...]
    engine: str  # digest of the checker package's sources
    catalogue: str  # digest of the catalogue packages' files
    can_start_processes: bool

    def differences(self, other: "Versions") -> list[str]:
        """What differs from ``other``, as ``name: mine here, theirs there`` phrases."""
        out = []
        for name in ("python", "checker", "engine", "catalogue"):
            a, b = getattr(self, name), getattr(other, name)
            if a != b:
                out.append(f"{name} {b} (client: {a})")
        mine, theirs = dict(self.libraries), dict(other.libraries)
        for lib in sorted(set(mine) | set(theirs)):
            if mine.get(lib) != theirs.get(lib):
                out.append(f"{lib} {theirs.get(lib) or 'absent'} (client: {mine.get(lib) or 'absent'})")
        return out


def _version_of(distribution: str) -> str | None:
    import importlib.metadata

    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def _tree_digest(directories: Iterable[Path]) -> str:
    """SHA-256 over the relative path and bytes of every file under ``directories`` (compiled
    files and caches left out), in a fixed order."""
    h = hashlib.sha256()
    for directory in directories:
        h.update(f"<{directory.name}>".encode())
        for path in sorted(p for p in directory.rglob("*") if p.is_file()):
            rel = path.relative_to(directory)
            if "__pycache__" in rel.parts or path.suffix in (".pyc", ".pyo") or any(part.startswith(".") for part in rel.parts):
                continue
            h.update(str(rel).encode() + b"\0")
            h.update(path.read_bytes())
            h.update(b"\0")
    return h.hexdigest()[:16]


def _on_path(root: str | None) -> None:
    if root and os.path.isdir(root) and root not in sys.path:
        sys.path.insert(0, root)


def package_dirs(packages: Sequence[str], root: str | None) -> list[Path]:
    """The directory of each catalogue package, found without importing it."""
    _on_path(root)
    out = []
    for name in packages:
        found = workers._source_of(name)
        if found is None:
            raise UsageError(f"catalogue package {name!r} is not importable here (sys.path: {sys.path[:4]}…)")
        out.append(Path(found).parent)
    return out


def engine_digest() -> str:
    """The digest of the checker package's sources."""
    return _tree_digest([Path(__file__).resolve().parents[1]])


def versions(packages: Sequence[str], root: str | None) -> Versions:
    """This process's :class:`Versions` for a run of ``packages`` (run on the client and on every worker)."""
    import multiprocessing

    from checker.kernel.model import CHECKER_VERSION

    try:
        catalogue = _tree_digest(package_dirs(packages, root))
    except UsageError as exc:
        catalogue = f"missing ({exc})"
    return Versions(
        python=".".join(map(str, sys.version_info[:3])), checker=CHECKER_VERSION,
        libraries=tuple((lib, _version_of(lib)) for lib in LIBRARIES), engine=engine_digest(), catalogue=catalogue,
        can_start_processes=not multiprocessing.current_process().daemon)


def handshake(mine: Versions, theirs: Mapping[str, Versions]) -> None:
    """Refuse the run (:class:`VersionMismatch`) when any worker's versions differ from the
    client's, or it may not start processes; the message names every such worker."""
    problems = []
    for worker, v in sorted(theirs.items()):
        why = mine.differences(v)
        if not v.can_start_processes:
            why.append("its worker process is daemonic and may not start the job processes (start the workers "
                       "with DASK_DISTRIBUTED__WORKER__DAEMON=False)")
        if why:
            problems.append(f"worker {worker}: " + "; ".join(why))
    if not theirs:
        raise VersionMismatch("the cluster has no worker")
    if problems:
        raise VersionMismatch("the cluster's workers do not match this checker; the run is refused: "
                              + " | ".join(problems) + ". Install the same versions and the same checkout on every worker.")


# ---------------------------------------------------------------------------------------
# The worker side
# ---------------------------------------------------------------------------------------

_cond = threading.Condition()
_pumping = False
_ended: dict[tuple[str, int], Finished] = {}
_lost: dict[tuple[str, int], str] = {}
_open: dict[str, set[int]] = {}  # template token -> its jobs without an answer
_stores: dict[str, str] = {}  # run id -> this worker's store of shared facts
_checked: dict[str, str | None] = {}  # run id -> why this worker does not match it (None: it does)


def _matches(ref: RunRef) -> str | None:
    """Why this worker may not run ``ref``'s jobs (its sources differ), or None; once per run."""
    if ref.run_id not in _checked:
        _on_path(ref.root)
        try:
            catalogue = _tree_digest(package_dirs(ref.packages, ref.root))
        except UsageError as exc:
            catalogue = str(exc)
        why = []
        if engine_digest() != ref.engine:
            why.append("the checker's sources differ from the client's")
        if catalogue != ref.catalogue:
            why.append("the catalogue's files differ from the client's")
        _checked[ref.run_id] = "; ".join(why) or None
    return _checked[ref.run_id]


def _store_for(run_id: str) -> str:
    import tempfile

    if run_id not in _stores:
        _stores[run_id] = tempfile.mkdtemp(prefix="obligations-run-")
    return _stores[run_id]


def end_run(run_id: str) -> None:
    """Remove this worker's store of shared facts for the run."""
    import shutil

    with _cond:
        directory = _stores.pop(run_id, None)
        _checked.pop(run_id, None)
    if directory:
        shutil.rmtree(directory, ignore_errors=True)


def _worker_name() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return f"pid {os.getpid()}"


def run_isolated(job: Job, modules: Iterable[str] = ()) -> tuple[Finished | None, str | None]:
    """Run ``job`` on this process's template and wait for it: its record, or None and why it was
    lost. Safe from many threads at once: one thread at a time reads the template's messages
    and hands each record to the thread that waits for it."""
    global _pumping
    with _cond:
        tpl = workers.template()
        tpl.preload(modules)
        job_id = tpl.submit(job.kind, job.payload, timeout_s=job.timeout_s, memory_mib=job.memory_mib)
        key = (tpl.token, job_id)
        _open.setdefault(tpl.token, set()).add(job_id)
    started = time.monotonic()
    while True:
        with _cond:
            if key in _ended:
                return _ended.pop(key), None
            if key in _lost:
                return None, _lost.pop(key)
            if _pumping:
                _cond.wait(0.2)
                continue
            _pumping = True
        events: list[tuple] = []
        died = None
        try:
            events = tpl.events(0.2)
        except workers.TemplateDied as exc:
            died = str(exc)
        finally:
            with _cond:
                _pumping = False
                for e in events:
                    if e[0] == "done":
                        _open.get(tpl.token, set()).discard(e[1].job_id)
                        _ended[(tpl.token, e[1].job_id)] = e[1]
                if died is None and key not in _ended and time.monotonic() - started > job.timeout_s + GRACE_S:
                    died = "the worker's template stopped answering"
                if died is not None:
                    for other in _open.pop(tpl.token, set()):
                        _lost[(tpl.token, other)] = died
                    if workers._TEMPLATE is tpl:
                        workers.discard_template()
                _cond.notify_all()


def run_task(job: Job, ref: RunRef) -> dict[str, Any]:
    """The Dask task: ``job`` run isolated on this worker (:func:`run_isolated`), returned as data
    (``finished``: the template's record as a dict, or ``lost`` and why; ``worker``)."""
    worker = _worker_name()
    why = _matches(ref)
    if why is not None:
        return {"finished": None, "lost": f"worker {worker} refused the job: {why}", "worker": worker}
    payload = tuple(_store_for(ref.run_id) if p == RUN_STORE else p for p in job.payload)
    finished, lost = run_isolated(dataclasses.replace(job, payload=payload), job.modules)
    return {"finished": dataclasses.asdict(finished) if finished is not None else None, "lost": lost, "worker": worker}


# ---------------------------------------------------------------------------------------
# The client side
# ---------------------------------------------------------------------------------------


def _suspicious(keys: Sequence[str], dask_scheduler: Any = None) -> dict[str, int]:
    """On the scheduler: how many times each task was on a worker that died."""
    out = {}
    for key in keys:
        ts = dask_scheduler.tasks.get(key)
        out[key] = int(getattr(ts, "suspicious", 0) or 0) if ts is not None else 0
    return out


class DaskPool:
    """A run's jobs on a Dask cluster: one task per job (:func:`run_task`), never retried."""

    def __init__(self, client: Any, ref: RunRef) -> None:
        self.client = client
        self.ref = ref
        self._pending: dict[Any, Job] = {}
        self._count = 0
        self.slots = max(1, sum(int(w.get("nthreads", 1)) for w in client.scheduler_info()["workers"].values()))

    def preload(self, modules: Iterable[str]) -> None:
        """Nothing to do ahead: each worker's template imports what a job's module uses."""

    def submit(self, job: Job) -> None:
        self._count += 1
        key = f"obligations-{self.ref.run_id}-{self._count}"
        future = self.client.submit(run_task, job, self.ref, key=key, pure=False, retries=0, priority=job.priority)
        self._pending[future] = job

    def wait(self, timeout: float) -> list[Done]:
        """The tasks that ended within ``timeout`` seconds; a task whose worker died, or that was
        ever on a worker that died (a retry), is lost: ``worker died``."""
        from distributed import wait as dask_wait

        if not self._pending:
            return []
        try:
            dask_wait(list(self._pending), timeout=timeout, return_when="FIRST_COMPLETED")
        except (TimeoutError, Exception) as exc:  # noqa: BLE001 - dask's own TimeoutError types vary by version
            if "Timeout" not in type(exc).__name__:
                raise
            return []
        ready = [f for f in self._pending if f.done()]
        retried = self.client.run_on_scheduler(_suspicious, [f.key for f in ready]) if ready else {}
        out = []
        for future in ready:
            job = self._pending.pop(future)
            out.append(self._done(job, future, retried.get(future.key, 0)))
        return out

    def _done(self, job: Job, future: Any, retried: int) -> Done:
        if future.status == "finished":
            data = future.result()
            worker = str(data.get("worker"))
            if retried:
                return Done(job.tag, None, worker, f"worker died while the job ran ({retried} time(s)); the scheduler "
                                                   "ran it again, and a retried job's answer is not used")
            if data.get("finished") is None:
                return Done(job.tag, None, worker, str(data.get("lost")))
            record = dict(data["finished"])
            record["frames"] = tuple(record["frames"])
            return Done(job.tag, Finished(**record), worker)
        if future.status == "cancelled":
            return Done(job.tag, None, "?", "the task was cancelled on the cluster")
        exc = future.exception()
        last = getattr(exc, "last_worker", None)
        worker = getattr(last, "address", None) or "?"
        if type(exc).__name__ == "KilledWorker":
            return Done(job.tag, None, worker, f"worker died ({worker} was lost while it held the job)")
        return Done(job.tag, None, worker, f"the cluster task failed: {type(exc).__name__}: {exc}"[:500])

    def close(self) -> None:
        """Cancel what is still pending and drop this run's stores on the workers."""
        if self._pending:
            self.client.cancel(list(self._pending))
            self._pending.clear()
        with contextlib.suppress(Exception):
            self.client.run(end_run, self.ref.run_id)


@contextlib.contextmanager
def connect(executor: Executor, packages: Sequence[str], root: str | None, *, say: Any = None) -> Iterator[DaskPool]:
    """A :class:`DaskPool` on ``executor`` after the versions handshake (:func:`handshake`); a
    local cluster is started for the run and stopped after it. ``say`` receives notes for the
    user (the dashboard's address)."""
    require_dask(executor)
    import dask
    from distributed import Client, LocalCluster

    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    with contextlib.ExitStack() as stack:
        if executor.kind == "local-cluster":
            stack.enter_context(dask.config.set(_LOCAL_CONFIG))
            cluster = stack.enter_context(LocalCluster(n_workers=executor.workers, threads_per_worker=1, processes=True,
                                                       dashboard_address=":0", memory_limit=0, silence_logs=40))
            client = stack.enter_context(Client(cluster))
        elif executor.kind == "dask":
            try:
                client = stack.enter_context(Client(executor.address, timeout="15s"))
            except (OSError, TimeoutError) as exc:
                raise UsageError(f"cannot reach the Dask scheduler at {executor.address} ({exc}); start one with "
                                 "'dask scheduler' and workers with 'dask worker ADDRESS' (see the README, "
                                 "\"More than one machine\")") from exc
            try:
                client.wait_for_workers(1, timeout=30)
            except (TimeoutError, Exception) as exc:  # noqa: BLE001 - dask's TimeoutError varies by version
                raise UsageError(f"the Dask scheduler at {executor.address} has no worker ({exc})") from exc
        else:
            raise ValueError(f"not a cluster executor: {executor}")
        link = getattr(client, "dashboard_link", None)
        if link:
            say(f"obligations: dashboard at {link}")
        mine = versions(packages, root)
        theirs = client.run(versions, tuple(packages), root)
        handshake(mine, theirs)
        ref = RunRef(secrets.token_hex(8), tuple(packages), root, mine.engine, mine.catalogue)
        pool = DaskPool(client, ref)
        try:
            yield pool
        finally:
            pool.close()


# ---------------------------------------------------------------------------------------
# A check on a pool
# ---------------------------------------------------------------------------------------


def check(obligations: Sequence[Any], config: Any, pool: Any, load_errors: Sequence[Any] = (), progress: Any = None,
          cache: Any = None, package: str = "obligations", expected_times: Mapping[str, float] | None = None) -> list[Any]:
    """:func:`checker.run.runner.run` on ``pool`` (a :class:`DaskPool`, or any
    :class:`~checker.run.pools.Pool`): the same cache look-ups, payloads, re-validation of every
    answer and cache writes, all here on the client; one job per obligation, never run twice. A
    lost job is its obligation's ``error`` with the reason. ``progress`` is called as the
    runner's, with ``worker=`` the worker's name when it has a ``names_worker`` attribute."""
    from checker.kernel.model import Certificate, Status, Verdict, derive_seed, result_for
    from checker.run import runner, schedule
    from checker.run.pools import drain
    from checker.store import fingerprint as fp
    from checker.store.cache import cache_key

    results: dict[str, Any] = {}
    total = len(obligations) + len(load_errors)
    done_count = 0
    by_id = {ob.id: ob for ob in obligations}
    keys: dict[str, str] = {}
    codes: dict[str, Any] = {}
    nonces: dict[str, str] = {}
    roots = {package, "obligations"}
    store = cache.directory if cache is not None else None

    def notify(r: Any, cached: bool, worker: str | None) -> None:
        if progress is None:
            return
        if getattr(progress, "names_worker", False):
            progress(r, done_count, total, cached, worker=worker)
        else:
            progress(r, done_count, total, cached)

    def finish(r: Any, cached: bool = False, record: Any = None, worker: str | None = None) -> None:
        nonlocal done_count
        ob = by_id[r.id]
        r = runner.with_fingerprint(r, ob, codes.get(ob.id))
        results[r.id] = r
        done_count += 1
        if cache is not None and not cached and r.id in keys and record is not None:
            stored = runner._manifest_for(ob, record, package, codes.get(r.id))
            if stored is not None:
                cache.put(keys[r.id], r, stored)
        notify(r, cached, worker)

    load_results = [runner.load_error_result(err) for err in load_errors]
    for r in load_results:
        done_count += 1
        notify(r, False, None)

    jobs = []
    # longest expected first, as the runner hands them out (the order changes no result)
    for ob in schedule.longest_first(obligations, cache, expected_times)[::-1]:
        seed = derive_seed(config.seed, ob.id)
        try:
            codes[ob.id] = fp.code_fingerprint(ob, roots, store=store)
        except Exception:  # noqa: BLE001 - no fingerprint means no cache entry: the obligation simply runs
            pass
        if cache is not None and ob.id in codes:
            keys[ob.id] = cache_key(ob, seed=seed, timeout_s=config.timeout_s, memory_mib=config.memory_mib,
                                    slow=config.slow, package=package, audit=config.audit, fingerprint=codes[ob.id].own)
            hit = cache.get(keys[ob.id], ob.id, ob)
            if hit is not None:
                finish(hit, cached=True)
                continue
        nonces[ob.id] = secrets.token_hex(16)
        jobs.append(Job(ob.id, runner.OBLIGATION_JOB, runner._payload(ob, config, RUN_STORE, nonces[ob.id]),
                        config.timeout_s, config.memory_mib, (ob.module,)))

    def on_done(done: Done) -> list[Job]:
        ob = by_id[done.tag]
        seed = derive_seed(config.seed, ob.id)
        if done.finished is None:
            verdict = Verdict(Status.ERROR, Certificate(method="worker died", reason=f"{ob.location}: {done.lost}",
                                                        data={"worker": done.worker}))
            finish(result_for(ob, verdict, 0.0, seed, config.limits), worker=done.worker)
        else:
            nonce = nonces[ob.id]
            finish(runner.result_of_job(ob, done.finished, seed, config, nonce),
                   record=runner.reads_of(done.finished, nonce), worker=done.worker)
        return []

    drain(pool, jobs, on_done)
    return load_results + [results[ob.id] for ob in obligations]
