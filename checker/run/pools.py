"""Pools of isolated workers: where the jobs of a run go, at home or on a cluster.

A *job* is a descriptor — the job function's dotted path, a payload of plain data, the wall-clock
and memory limits — never a closure. Whatever the pool, each job runs in a fresh process forked
from a clean template (:mod:`checker.run.workers`) with those limits, and comes back as the
template's :class:`~checker.run.workers.Finished` record (the frames the job sent, how it ended),
which the caller reads and re-validates. A job that comes back with no record is *lost*, with the
reason (the template or the machine that held it died): the caller makes it an ``error`` or an
``undecided`` entry, never runs it again.

:class:`LocalPool` runs jobs on this machine's template, ``slots`` at a time; the Dask pool is in
:mod:`checker.run.cluster`.
"""

from __future__ import annotations

import heapq
import itertools
import time
from dataclasses import dataclass
from typing import Any, Iterable, Protocol

from checker.run import workers
from checker.run.workers import Finished

# A stuck template (not a slow job: the template enforces each job's limit) is given up after this.
GRACE_S = 30.0


@dataclass(frozen=True, slots=True)
class Job:
    """One unit of work: ``kind`` (``"module:function"``) run on ``payload`` in an isolated process."""

    tag: str  # the caller's name for it, unique in the run
    kind: str
    payload: tuple[Any, ...]
    timeout_s: float
    memory_mib: int
    modules: tuple[str, ...] = ()  # catalogue modules it imports: their libraries are preloaded
    priority: float = 0.0  # higher starts first (among jobs waiting); the order changes no result


@dataclass(frozen=True, slots=True)
class Done:
    """A job's end: the template's record, or ``None`` and why it was lost; where it ran."""

    tag: str
    finished: Finished | None
    worker: str
    lost: str | None = None


class Pool(Protocol):
    """Where jobs run (:class:`LocalPool`, :class:`checker.run.cluster.DaskPool`)."""

    slots: int  # how many jobs run at once

    def preload(self, modules: Iterable[str]) -> None: ...

    def submit(self, job: Job) -> None: ...

    def wait(self, timeout: float) -> list[Done]: ...

    def close(self) -> None: ...


class LocalPool:
    """This machine's worker template, ``slots`` jobs at a time; the rest wait, highest priority first."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"a pool needs at least one slot, got {slots}")
        self.slots = slots
        self._queue: list[tuple[float, int, Job]] = []  # a heap: highest priority, then first submitted
        self._order = itertools.count()
        self._running: dict[int, tuple[Job, float]] = {}  # template job id -> (job, started)
        self._modules: set[str] = set()
        self._lost: list[Done] = []

    def preload(self, modules: Iterable[str]) -> None:
        """Have the template import the libraries these catalogue modules use (never the modules)."""
        self._modules.update(modules)
        try:
            workers.template().preload(self._modules)
        except workers.TemplateDied:
            pass  # the next submission starts a new template

    def submit(self, job: Job) -> None:
        heapq.heappush(self._queue, (-job.priority, next(self._order), job))

    def _fill(self) -> None:
        while self._queue and len(self._running) < self.slots:
            tpl = workers.template()
            if self._modules:
                tpl.preload(self._modules)
            job = self._queue[0][2]
            job_id = tpl.submit(job.kind, job.payload, timeout_s=job.timeout_s, memory_mib=job.memory_mib)
            heapq.heappop(self._queue)
            self._running[job_id] = (job, time.monotonic())

    def _lose_all(self, why: str) -> None:
        workers.discard_template()
        self._lost.extend(Done(job.tag, None, "local", why) for job, _ in self._running.values())
        self._running.clear()

    def wait(self, timeout: float) -> list[Done]:
        """The jobs that ended within ``timeout`` seconds (possibly none)."""
        try:
            self._fill()
        except workers.TemplateDied as exc:
            self._lose_all(str(exc))
        out, self._lost = self._lost, []
        if out or not self._running:
            return out
        try:
            events = workers.template().events(timeout)
        except workers.TemplateDied as exc:
            self._lose_all(str(exc))
            out, self._lost = self._lost, []
            return out
        now = time.monotonic()
        for e in events:
            if e[0] == "started" and e[1] in self._running:
                self._running[e[1]] = (self._running[e[1]][0], now)  # its clock runs from its fork
            elif e[0] == "done" and e[1].job_id in self._running:
                job, _ = self._running.pop(e[1].job_id)
                out.append(Done(job.tag, e[1], "local"))
        if any(now - started > job.timeout_s + GRACE_S for job, started in self._running.values()):
            self._lose_all("the worker template stopped answering")
            out.extend(self._lost)
            self._lost = []
        return out

    def close(self) -> None:
        """Nothing to stop: the template is the process's own (:func:`checker.run.workers.discard_template`)."""
        self._queue.clear()


def drain(pool: Pool, jobs: Iterable[Job], on_done: Any, poll_s: float = 0.5) -> None:
    """Submit ``jobs`` to ``pool`` and call ``on_done(done)`` for each as it ends; ``on_done`` may
    return more jobs to submit (an iterable), which are waited for too."""
    pending = 0
    for job in jobs:
        pool.submit(job)
        pending += 1
    while pending:
        for done in pool.wait(poll_s):
            pending -= 1
            for more in on_done(done) or ():
                pool.submit(more)
                pending += 1
