"""Rigorous (python-flint ``arb``) linear algebra for the Psy01-A certificates and for
controller_bound's genuine-pruning check (a library; it declares no obligations).

Matrices of binary64 numbers enter ``arb_mat`` exactly (a float is a dyadic rational); the
operator norm is bounded above by ``‖M^k‖_F^{1/(2k)}`` of the Gram matrix ``M``
(:func:`opnorm_upper`, shared within a run through :mod:`checker.backends.memo`) and below by the
largest column norm (:func:`opnorm_lower`); ``arb`` balls convert to exact :class:`Interval`
endpoints (:func:`to_interval`). :class:`_Precision` sets ``arb``'s working precision to
:data:`ARB_PREC` for a block.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from checker.backends import interval


def _np():
    import numpy

    return numpy


def _flint():
    import flint

    return flint


# ---------------------------------------------------------------------------------------
# Rigorous (arb) linear algebra
# ---------------------------------------------------------------------------------------

ARB_PREC = 160


def _arb_mat(a: Any) -> Any:
    flint = _flint()
    a = _np().asarray(a, dtype=float)
    if a.ndim == 1:
        a = a.reshape(-1, 1)
    return flint.arb_mat(a.tolist())  # a float is an exact dyadic: no rounding


def _to_fraction(x: Any) -> Fraction:
    man, e = x.man_exp()
    man, e = int(man), int(e)
    return Fraction(man * 2**e) if e >= 0 else Fraction(man, 2**-e)


def to_interval(x: Any) -> interval.Interval:
    """An arb ball as a rigorous Interval (endpoints exact)."""
    return interval.Interval.of((_to_fraction(x.lower()), _to_fraction(x.upper())))


def opnorm_upper(b: Any, squarings: int = 6) -> Any:
    """A rigorous upper bound for ‖B‖_op: with M = BᵀB (or BBᵀ) positive semidefinite and
    k = 2^squarings, λ_max(M)^k = λ_max(M^k) ≤ ‖M^k‖_F, so ‖B‖_op ≤ ‖M^k‖_F^{1/(2k)}.

    Computed by the engine (:func:`checker.backends.memo.opnorm_upper`), which shares it between
    the jobs of a run (three certificates use the same network): only the engine may record a
    fact another job reads."""
    from checker.backends import memo

    return memo.opnorm_upper(b, squarings)


class _Precision:
    """arb's working precision set to ``ARB_PREC`` inside the block, restored after it."""

    def __enter__(self) -> None:
        self.old = _flint().ctx.prec
        _flint().ctx.prec = ARB_PREC

    def __exit__(self, *exc: Any) -> None:
        _flint().ctx.prec = self.old


def opnorm_lower(b: Any) -> Any:
    """A rigorous lower bound for ‖B‖_op: the largest column norm (‖Be_j‖₂ ≤ ‖B‖_op)."""
    flint = _flint()
    a = _arb_mat(b)
    cols = [sum((a[i, j] ** 2 for i in range(a.nrows())), flint.arb(0)).sqrt().lower() for j in range(a.ncols())]
    return max(cols, key=lambda x: x.mid())
