"""Spectral norms of products of magnitude-pruned matrices, from their nonzero entries.

At Theorem 4.2's threshold about 1 % of the weights survive (n = 1024: 1.3 %), so the Gram
matrices of the pruned factors are sums over a few thousand entries, not dense products. The
norm is still one dense symmetric eigen-solve of the same m×m matrix as
:func:`.approximation21.product_spectrum` (mathematically equal; the sums run in another order,
so the figures agree to rounding), not an iterative estimate or a bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


def _np():
    import numpy

    return numpy


@dataclass(frozen=True, slots=True)
class Pruned:
    """c·w where |w| > t, else 0, kept as its nonzero entries (row-major order)."""

    rows: Any
    cols: Any
    values: Any
    n: int

    @classmethod
    def of(cls, w: Any, t: float, c: float) -> "Pruned":
        np = _np()
        rows, cols = np.nonzero(np.abs(w) > t)
        return cls(rows, cols, w[rows, cols] * c, w.shape[0])

    def dense(self) -> Any:
        out = _np().zeros((self.n, self.n))
        out[self.rows, self.cols] = self.values
        return out

    def row_sums(self) -> Any:
        """The sums of the rows (the same terms as the dense product with a vector of ones)."""
        return _np().bincount(self.rows, weights=self.values, minlength=self.n)


def _grouped_gram(groups: Any, index: Any, values: Any, size: int) -> Any:
    """G[i, l] = Σ values_e·values_f over pairs of entries e, f in the same group with indices
    i, l (entries sorted by group): the Gram matrix of the vectors the groups are."""
    np = _np()
    if len(groups) == 0:
        return np.zeros((size, size))
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    sizes = np.diff(np.r_[starts, len(groups)])
    per_entry = np.repeat(sizes, sizes)
    first_of_entry = np.repeat(starts, sizes)
    left = np.repeat(np.arange(len(groups)), per_entry)
    offset = np.arange(len(left)) - np.repeat(np.cumsum(per_entry) - per_entry, per_entry)
    right = np.repeat(first_of_entry, per_entry) + offset
    flat = index[left] * size + index[right]
    return np.bincount(flat, weights=values[left] * values[right], minlength=size * size).reshape(size, size)


def masked_norm(p2: Pruned, keep: Any, p1: Pruned) -> float | None:
    """‖P₂·diag(keep)·P₁‖, as :func:`.approximation21.masked_norm` computes it densely: with
    b = P₁[keep] and a = P₂[:, keep], bbᵀ = LLᵀ (Cholesky) and the nonzero spectrum of
    (ab)(ab)ᵀ is that of Lᵀ(aᵀa)L. ``None`` when bbᵀ is singular (a kept row of P₁ is empty):
    the caller then takes the dense route, with its QR."""
    np = _np()
    m = int(np.count_nonzero(keep))
    compact = np.cumsum(keep) - 1
    # bbᵀ: the rows of b are the kept rows of P₁; pair the entries that share a column
    in_b = keep[p1.rows]
    rows, cols, values = p1.rows[in_b], p1.cols[in_b], p1.values[in_b]
    by_column = np.argsort(cols, kind="stable")
    bbt = _grouped_gram(cols[by_column], compact[rows[by_column]], values[by_column], m)
    try:
        lower = np.linalg.cholesky(bbt)
    except np.linalg.LinAlgError:
        return None
    # aᵀa: the columns of a are the kept columns of P₂; pair the entries that share a row
    in_a = keep[p2.cols]
    ata = _grouped_gram(p2.rows[in_a], compact[p2.cols[in_a]], p2.values[in_a], m)
    spectrum = np.linalg.eigvalsh(lower.T @ (ata @ lower))
    return math.sqrt(max(float(spectrum[-1]), 0.0))
