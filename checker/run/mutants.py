"""The mutation audit (:mod:`checker.audit.mutation`) run as jobs on a pool of isolated workers.

Each obligation is one *plan* job (the original discharge, which chooses the mutants) and then
one job per mutant, all through the same isolated workers as ``check`` (a fresh process each, BLAS
on one thread, the memory limit, a hard wall-clock limit), so ``--jobs N`` runs mutants side by
side, here or on a cluster. A mutant's verdict depends on that mutant's run alone: its budget is
CPU time of its own process, not a share of a per-obligation wall clock, so the verdicts do not
depend on ``--jobs`` or on the order the jobs finish. A job that is lost (its worker died) or
killed at the hard limit is an ``undecided`` mutant or an ``error`` entry with the reason — never
run again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from checker.audit import mutation
from checker.run.pools import Done, Job, Pool, drain

_MUTANTS_FIRST = 1e9  # a planned obligation's mutants go before every plan still waiting
MutationProgress = Callable[[dict[str, Any], int, int, str], None]  # entry, done, total, worker


@dataclass(slots=True)
class _Audit:
    """One obligation's audit while its jobs run (mutable; frozen into its entry at the end)."""

    ob: Any
    seed: int
    entry: dict[str, Any] | None = None
    mutants: list[mutation.Mutant] = field(default_factory=list)
    answers: dict[int, tuple[str, str | None]] = field(default_factory=dict)
    final: dict[str, Any] | None = None


def _answer(done: Done, word: str) -> list[Any] | None:
    """The job's one answer frame starting with ``word``, or None."""
    if done.finished is None or done.finished.killed:
        return None
    frames = [f for f in done.finished.frames if isinstance(f, list) and f and f[0] == word]
    return frames[0] if len(frames) == 1 and len(done.finished.frames) == 1 else None


def _why_lost(done: Done, what: str) -> str:
    if done.finished is None:
        return f"{what}: {done.lost}"
    if done.finished.killed == "timeout":
        return f"{what} killed at its hard limit of {done.finished.time_s:.0f} s"
    if done.finished.killed == "memory":
        return f"{what} exceeded the memory limit ({done.finished.peak_rss_mib:g} MiB resident)"
    return f"{what} ended without an answer ({done.finished.how})"


def run(obligations: Sequence[Any], pool: Pool, *, seed_of: Callable[[Any], int], timeout_s: float, memory_mib: int,
        limit: int = 6, time_limit_s: float = 30.0, progress: MutationProgress | None = None,
        expected_times: Mapping[str, float] | None = None) -> list[dict[str, Any]]:
    """The mutation entry of each obligation, in the given order, computed on ``pool``. The
    longest obligations (``expected_times``) start first, and a planned obligation's mutants
    before the next plan, so that the longest chains do not end the run alone."""
    audits = {ob.id: _Audit(ob, seed_of(ob)) for ob in obligations}
    expected = {ob.id: float((expected_times or {}).get(ob.id, 0.0)) for ob in obligations}
    finished = 0
    pool.preload({ob.module for ob in obligations})
    # the mutant's CPU budget is enforced inside the job; this wall-clock limit only stops a job
    # that blocks without using CPU
    mutant_wall_s = 3 * time_limit_s + 10.0

    def close(a: _Audit, entry: dict[str, Any], worker: str) -> None:
        nonlocal finished
        a.final = entry
        finished += 1
        if progress is not None:
            progress(entry, finished, len(audits), worker)

    def on_done(done: Done) -> list[Job]:
        kind, ob_id, *rest = done.tag.split("|")
        a = audits[ob_id]
        if kind == "plan":
            frame = _answer(done, "plan")
            if frame is None:
                verdict = "undecided" if done.finished is not None and done.finished.killed == "timeout" else "error"
                close(a, {"id": ob_id, "verdict": verdict, "reason": _why_lost(done, "the original discharge")}, done.worker)
                return []
            entry, indices, digest = frame[1], frame[2], frame[3]
            if "verdict" in entry:
                close(a, entry, done.worker)
                return []
            source = Path(a.ob.file).read_text(encoding="utf-8")
            every = mutation.sites(source, a.ob.discharge.__name__)
            a.entry, a.mutants = entry, [every[i] for i in indices]
            return [Job(f"mutant|{ob_id}|{k}", mutation.MUTANT_JOB,
                        (ob_id, a.ob.module, a.seed, timeout_s, m.index, digest, time_limit_s),
                        mutant_wall_s, memory_mib, (a.ob.module,), _MUTANTS_FIRST + expected[ob_id])
                    for k, m in enumerate(a.mutants)]
        k = int(rest[0])
        frame = _answer(done, "mutant")
        a.answers[k] = (frame[1], frame[2]) if frame is not None else ("undecided", _why_lost(done, "the mutant's job"))
        if len(a.answers) == len(a.mutants):
            assert a.entry is not None
            close(a, mutation.assemble(a.entry, a.mutants, [a.answers[i] for i in range(len(a.mutants))],
                                       a.ob.discharge.__doc__), done.worker)
        return []

    jobs = [Job(f"plan|{ob.id}", mutation.PLAN_JOB, (ob.id, ob.module, audits[ob.id].seed, timeout_s, limit),
                timeout_s + 10.0, memory_mib, (ob.module,), expected[ob.id]) for ob in obligations]
    drain(pool, jobs, on_done)
    return [audits[ob.id].final or {"id": ob.id, "verdict": "error", "reason": "no answer"} for ob in obligations]
