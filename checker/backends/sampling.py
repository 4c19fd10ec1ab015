"""numpy: seeded sampling and adversarial search; evidence, never proof.

Claims are interpreted with *margins*: a comparison ``a <= b`` becomes the float array
``b - a`` (non-negative when it holds), ``and`` is a minimum, ``or`` a maximum, ``not`` a
negation. The whole claim becomes one margin per sample; the most negative are candidate
counterexamples, improved by a seeded local search, then converted to exact rationals
(floats are exact binary values) and re-checked by :mod:`checker.backends.exact`. Only a
re-checked candidate gives ``refuted``; otherwise the result is ``supported`` with the sample
count, seed and worst margin seen.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from checker.backends import exact
from checker.kernel.claims import Claim
from checker.kernel.model import Context, Status, Verdict
from checker.kernel.verdicts import supported, timed, with_data

NAME = "sampling"

Sampler = Callable[[Any, int], Mapping[str, Any]]


def _np():
    import numpy

    return numpy


def version() -> str:
    return f"numpy {_np().__version__}"


class NumpyOps:
    """The ops namespace over float arrays, with margin-valued comparisons."""

    name = NAME

    def __init__(self) -> None:
        self.np = _np()

    def q(self, num: int, den: int = 1) -> float:
        return num / den

    def relu(self, x: Any) -> Any:
        return self.np.maximum(x, 0.0)

    def abs(self, x: Any) -> Any:
        return self.np.abs(x)

    def max(self, *xs: Any) -> Any:
        return self.np.maximum.reduce(self.np.broadcast_arrays(*xs))

    def min(self, *xs: Any) -> Any:
        return self.np.minimum.reduce(self.np.broadcast_arrays(*xs))

    def ite(self, c: Any, a: Any, b: Any) -> Any:
        return self.np.where(c >= 0, a, b)

    def sqrt(self, x: Any) -> Any:
        return self.np.sqrt(x)

    def floor(self, x: Any) -> Any:
        return self.np.floor(x)

    def ceil(self, x: Any) -> Any:
        return self.np.ceil(x)

    def pow(self, x: Any, n: int) -> Any:
        return self.np.asarray(x, dtype=float) ** n

    def exp(self, x: Any) -> Any:
        return self.np.exp(x)

    def erf(self, x: Any) -> Any:
        import math

        return self.np.vectorize(math.erf, otypes=[float])(x)

    def log(self, x: Any) -> Any:
        return self.np.log(x)

    def le(self, a: Any, b: Any) -> Any:
        return self.np.asarray(b - a, dtype=float)

    lt = le

    def ge(self, a: Any, b: Any) -> Any:
        return self.np.asarray(a - b, dtype=float)

    gt = ge

    def eq(self, a: Any, b: Any) -> Any:
        return -self.np.abs(self.np.asarray(a - b, dtype=float))

    def ne(self, a: Any, b: Any) -> Any:
        return self.np.abs(self.np.asarray(a - b, dtype=float))

    def and_(self, *bs: Any) -> Any:
        return self.np.minimum.reduce(self.np.broadcast_arrays(*bs)) if bs else self.np.inf

    def or_(self, *bs: Any) -> Any:
        return self.np.maximum.reduce(self.np.broadcast_arrays(*bs)) if bs else -self.np.inf

    def not_(self, b: Any) -> Any:
        return -b

    def implies(self, a: Any, b: Any) -> Any:
        return self.np.maximum(-a, b)


def _float_inside(bound: Any, up: bool) -> float:
    """The float nearest ``bound`` on the inside of a closed bound (floats are exact binary values)."""
    np = _np()
    x = float(bound)
    if up and x < bound:
        x = float(np.nextafter(x, np.inf))
    if not up and x > bound:
        x = float(np.nextafter(x, -np.inf))
    return x


def project(claim: Claim, samples: Mapping[str, Any]) -> dict[str, Any]:
    """Samples moved into the declared domains: integers rounded, bounds clipped."""
    np = _np()
    out = {}
    for name, x in samples.items():
        x = np.asarray(x, dtype=float)
        if name in claim.variables:
            dom = claim.domain(name)
            if dom.integral:
                x = np.round(x)
            lo = -np.inf if dom.lower is None else _float_inside(dom.lower, up=True)
            hi = np.inf if dom.hi is None else _float_inside(dom.hi, up=False)
            if dom.integral:
                lo, hi = np.ceil(lo), np.floor(hi)
            x = np.clip(x, lo, hi)
        out[name] = x
    return out


def margins(claim: Claim, samples: Mapping[str, Any]) -> Any:
    """One margin per sample (negative: a candidate counterexample)."""
    np = _np()
    ops = NumpyOps()
    with np.errstate(all="ignore"):
        m = claim.formula(ops, claim.env(samples))
    n = len(next(iter(samples.values())))
    m = np.broadcast_to(np.asarray(m, dtype=float), (n,))
    return np.where(np.isnan(m), np.inf, m)


def search(
    claim: Claim,
    ctx: Context,
    sampler: Sampler,
    *,
    samples: int = 20_000,
    rounds: int = 30,
    keep: int = 64,
    ratio: tuple[str, str] | None = None,
) -> Verdict:
    """Random sampling plus seeded local search for a counterexample to ``claim``.

    ``sampler(rng, n)`` returns ``n`` samples per variable. ``ratio=(num, den)`` names two
    terms of the claim whose largest observed quotient is reported (how close a bound comes
    to being attained).
    """
    np = _np()
    rng = ctx.rng(f"sampling/{claim.name}")
    method = "numpy sampling + local search (evidence only)"
    with timed() as t:
        pts = project(claim, {k: np.asarray(v, dtype=float) for k, v in sampler(rng, samples).items()})
        m = margins(claim, pts)
        evaluated = samples
        order = np.argsort(m)[:keep]
        elite = {k: v[order] for k, v in pts.items()}
        elite_m = m[order]
        scale = 1.0
        for _ in range(rounds):
            trial = project(claim, {k: v + rng.normal(0.0, scale, size=v.shape) * np.maximum(np.abs(v), 1e-3)
                                    for k, v in elite.items()})
            tm = margins(claim, trial)
            evaluated += len(tm)
            better = tm < elite_m
            for k in elite:
                elite[k] = np.where(better, trial[k], elite[k])
            elite_m = np.where(better, tm, elite_m)
            scale *= 0.8
        all_pts = {k: np.concatenate([pts[k], elite[k]]) for k in pts}
        all_m = np.concatenate([m, elite_m])
        worst = int(np.argmin(all_m))
        worst_margin = float(all_m[worst])
        best_ratio = None
        if ratio is not None:
            ops = NumpyOps()
            with np.errstate(all="ignore"):
                terms = claim.term_values(ops, claim.env(all_pts))
                q = np.asarray(terms[ratio[0]], dtype=float) / np.asarray(terms[ratio[1]], dtype=float)
            q = q[np.isfinite(q)]
            best_ratio = float(q.max()) if q.size else None
        step = t.step(NAME, version(), f"search for a counterexample to {claim.name}", f"worst margin {worst_margin:.3g}",
                      evaluated=evaluated, seed=ctx.seed)
    candidates = np.argsort(all_m)[: min(16, int((all_m < 0).sum()))]
    not_rechecked = 0
    for i in candidates:
        point = {k: float(v[i]) for k, v in all_pts.items()}
        verdict = exact.recheck_counterexample(claim, point, "numpy search", step)
        if verdict.status is Status.REFUTED:
            return with_data(verdict, evaluated=evaluated, seed=ctx.seed)
        not_rechecked += 1
    data = {"evaluated": evaluated, "seed": ctx.seed, "worst_margin": worst_margin,
            "worst_point": {k: float(v[worst]) for k, v in all_pts.items()}}
    if ratio is not None:
        data["max_ratio"] = best_ratio
        data["ratio"] = f"{ratio[0]}/{ratio[1]}"
    if not_rechecked:
        data["float_violations_not_reproduced_exactly"] = not_rechecked
    return supported(method, step, **data)


# ------------------------------------------------------------------ sharded Monte-Carlo

SHARDS_VAR = "OBLIGATIONS_SHARDS"  # processes a sharded Monte-Carlo may use (default 1)
_SHARD_WORK: tuple[Callable[[int, Any], Any], list[Any]] | None = None  # inherited by the forked shards


def block_seeds(seed: int, purpose: str, blocks: int) -> list[Any]:
    """``blocks`` independent seed sequences (``numpy.random.SeedSequence.spawn``) from the stream
    named ``purpose`` of ``seed``: block ``i``'s stream is the same however the blocks are shared out."""
    from checker.kernel.model import derive_seed

    if blocks < 1:
        raise ValueError(f"a sharded Monte-Carlo needs at least one block, got {blocks}")
    return _np().random.SeedSequence(derive_seed(seed, purpose)).spawn(blocks)


def default_shards() -> int:
    """The processes a sharded Monte-Carlo uses: ``$OBLIGATIONS_SHARDS``, else 1 (the runner
    already runs one obligation per core)."""
    import os

    text = os.environ.get(SHARDS_VAR, "1")
    return int(text) if text.isdigit() and int(text) >= 1 else 1


def _run_group(indices: list[int]) -> list[Any]:
    assert _SHARD_WORK is not None
    work, seqs = _SHARD_WORK
    np = _np()
    return [work(i, np.random.Generator(np.random.PCG64(seqs[i]))) for i in indices]


def sharded(work: Callable[[int, Any], Any], blocks: int, *, seed: int, purpose: str, shards: int | None = None) -> list[Any]:
    """``work(i, rng)`` for each block ``i`` with its own generator (:func:`block_seeds`), in block
    order: the caller reduces the list in that order, so the figures are bit-identical for any
    number of ``shards`` (processes forked from this one, each with the process's limits, in
    its process group; blocks dealt round-robin)."""
    global _SHARD_WORK
    import multiprocessing

    seqs = block_seeds(seed, purpose, blocks)
    shards = max(1, min(blocks, default_shards() if shards is None else shards))
    _SHARD_WORK = (work, seqs)
    try:
        if shards == 1:
            return _run_group(list(range(blocks)))
        groups = [list(range(k, blocks, shards)) for k in range(shards)]
        with multiprocessing.get_context("fork").Pool(shards) as pool:
            parts = pool.map(_run_group, groups, chunksize=1)
    finally:
        _SHARD_WORK = None
    out: list[Any] = [None] * blocks
    for group, results in zip(groups, parts):
        for i, result in zip(group, results):
            out[i] = result
    return out
