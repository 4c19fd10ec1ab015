"""How a binary32 computation is compared with exact values soundly (a library; it declares
no obligations): the float64 screen and the exact re-check every float32 check of FloatBridge uses.

The float32 side is numpy. The exact side is a float64 evaluation plus a rigorous bound on its
own error (Higham's bounds at u = 2⁻⁵³, or exactness where float64 is exact, e.g. a product of
two binary32 numbers); an instance *passes* only if ``|float32 − float64| + ref_err ≤
budget·(1 − 2⁻⁴⁰)`` with the budget evaluated at a lower bound of the instance quantities
(:func:`_screen`). Every other instance is re-checked exactly by the caller (Fractions; binary32
operations simulated with :func:`binary32.round32`; ``exp`` as python-flint ``arb`` intervals,
compared with :func:`_err_interval`), at most a fixed number of them (:func:`_limited`), and a
violation counts only when that re-check confirms it: it is raised as a :class:`Violation`
carrying its verdict, which :func:`_run` returns.

Used by the float32 checks of :mod:`.float32_stages` and :mod:`.float32_gradients`, and by the
counterexample search of a proof that does not go through (:mod:`.float_proofs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from checker.kernel.model import Verdict
from checker.kernel.verdicts import unknown

SLACK = 2.0**-40
"""Relative slack of the float64 screening; anything closer to the budget is re-checked exactly."""


def _np():
    import numpy

    return numpy


def _sampling_version() -> str:
    return f"numpy {_np().__version__}"


def _fr(x: Any) -> Fraction:
    return Fraction(float(x))


def _vec(xs: Any) -> str:
    return "[" + ", ".join(str(_fr(v)) for v in xs) + "]"


@dataclass(frozen=True)
class Tally:
    """What one screened family of instances gave."""

    name: str
    instances: int
    applicable: int
    max_ratio: float
    rechecked: int

    def to_json(self) -> dict[str, Any]:
        return {"instances": self.instances, "hypotheses hold": self.applicable,
                "max error/budget": round(self.max_ratio, 6), "re-checked exactly": self.rechecked}


class Violation(Exception):
    """An exactly re-checked counterexample: carries the verdict to return."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.certificate.method)
        self.verdict = verdict


def _screen(err: Any, ref_err: Any, budget: Any) -> Any:
    """Indices where float64 screening cannot certify ``err ≤ budget`` (to re-check exactly)."""
    np = _np()
    ok = err * (1 + SLACK) + ref_err * (1 + SLACK) <= budget * (1 - SLACK)
    return np.flatnonzero(~ok)


def _limited(candidates: Any, limit: int, what: str) -> Any:
    """The first ``limit`` candidates, to re-check exactly (a confirmed violation stops the
    loop with ``refuted``); if more remain, none of which may be dropped, that is ``unknown``."""
    yield from candidates[:limit]
    if len(candidates) > limit:
        raise Violation(unknown(what, f"{len(candidates)} instances could not be certified by the float64 screen "
                                      f"and only {limit} are re-checked exactly"))


def _log_uniform(rng: Any, lo: float, hi: float, size: Any) -> Any:
    np = _np()
    mags = np.exp2(rng.uniform(lo, hi, size=size))
    return (mags * rng.choice([-1.0, 1.0], size=size)).astype(np.float32)


def _run(check: Callable[..., Verdict], *args: Any, **kwargs: Any) -> Verdict:
    try:
        return check(*args, **kwargs)
    except Violation as v:
        return v.verdict


def _err_interval(observed: Fraction, exact: Any) -> tuple[Fraction, Fraction]:
    """Lower and upper bounds of |observed − exact| for an exact number or an Interval."""
    lo, hi = (exact.lo, exact.hi) if hasattr(exact, "lo") else (exact, exact)
    upper = max(abs(observed - lo), abs(observed - hi))
    lower = Fraction(0) if lo <= observed <= hi else min(abs(observed - lo), abs(observed - hi))
    return lower, upper
