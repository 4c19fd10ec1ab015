"""Claims and claim-side helpers shared by the Psy01-A stress, cue-use and accuracy obligations
(a library; it declares no obligations): the arg-max with the smallest-index tie rule
(:func:`classified_as`), ``‖·‖∞ ≤ ‖·‖₂`` in ℝ⁴ (:data:`SUP_LE_EUCLID`), ReLU 1-Lipschitz
(:data:`RELU_LIPSCHITZ`), and the scalar-width noisy network written over claim ops
(:func:`_scalar_net`); and for every number of classes and every width, proved by induction: the
margin step (:data:`PRESERVE_ALL`), ``‖·‖∞ ≤ ‖·‖₂`` (:data:`SUP_LE_EUCLID_ALL`) and ``‖g‖₂² ≤ nR²`` for
coordinates bounded by R (:data:`BOUNDED_COORDINATES_NORM`).
"""

from __future__ import annotations

from typing import Any, Sequence

from checker.backends import induction
from checker.claims import claim, sized_claim


def classified_as(o: Any, z: Sequence[Any], label: int) -> Any:
    """The arg-max with the smallest-index tie rule is ``label``."""
    return o.and_(*((o.gt if k < label else o.ge)(z[label], z[k]) for k in range(len(z)) if k != label))


SUP_LE_EUCLID = claim(
    "sup-norm-le-euclidean-4", "d0 d1 d2 d3",
    lambda o, v: o.and_(*(o.le(v[f"d{i}"] * v[f"d{i}"], sum(v[f"d{j}"] * v[f"d{j}"] for j in range(4))) for i in range(4))),
)
RELU_LIPSCHITZ = claim(
    "relu-1-lipschitz", "a b", lambda o, v: o.le(o.abs(o.relu(v.a) - o.relu(v.b)), o.abs(v.a - v.b)),
)


def _scalar_net(o, w, b, x, sigma, g):
    h = x
    for i in range(3):
        h = o.relu(w[i] * h + b[i]) + sigma * g[i]
    return w[3] * h + b[3]


# ---------------------------------------------------------------------------------------
# The same facts for every number of classes and every width (sized claims, proved by induction)
# ---------------------------------------------------------------------------------------

SUP_LE_EUCLID_ALL = sized_claim(
    "sup-norm-le-euclidean", "n:nat[1,]", "d[n]", lambda o, v: o.le(o.norminf(v.d) * o.norminf(v.d), o.sumsq(v.d)))
"""‖d‖∞² ≤ ‖d‖₂² for every width n."""

BOUNDED_COORDINATES_NORM = sized_claim(
    "bounded-coordinates-norm", "n:nat[0,]", "g[n]", lambda o, v: o.le(o.sumsq(v.g), v.n * v.R * v.R),
    {"|g_i| ≤ R": lambda o, v: o.all(o.le(o.abs(v.g), v.R))}, scalars="R")
"""‖g‖₂² ≤ nR² when every coordinate has |g_i| ≤ R (so ‖G_r‖₂ ≤ √n_r R_δ on the event max|G_i| ≤ R_δ)."""


PRESERVE_LATER = sized_claim(
    "margin-preserves-later-classes", "q:nat[0,]", "za[q] wa[q]",
    lambda o, v: o.all(o.ge(v.wy, v.wa)),
    {"|z_y − w_y| ≤ ε": lambda o, v: o.le(o.abs(v.zy - v.wy), v.eps),
     "|z_j − w_j| ≤ ε, j > y": lambda o, v: o.all(o.le(o.abs(v.za - v.wa), v.eps)),
     "z_j < z_y − 2ε, j > y": lambda o, v: o.all(o.lt(v.za, v.zy - 2 * v.eps))},
    scalars="zy wy eps")
"""Lemma: the classes after y (ties go to y there) stay at most w_y."""

PRESERVE_ALL = sized_claim(
    "margin-preserves-class", "p:nat[0,] q:nat[0,]", "zb[p] wb[p] za[q] wa[q]",
    lambda o, v: o.and_(o.all(o.gt(v.wy, v.wb)), o.all(o.ge(v.wy, v.wa))),
    {"|z_y − w_y| ≤ ε": lambda o, v: o.le(o.abs(v.zy - v.wy), v.eps),
     "|z_j − w_j| ≤ ε, j < y": lambda o, v: o.all(o.le(o.abs(v.zb - v.wb), v.eps)),
     "|z_j − w_j| ≤ ε, j > y": lambda o, v: o.all(o.le(o.abs(v.za - v.wa), v.eps)),
     "z_j < z_y − 2ε, j < y": lambda o, v: o.all(o.lt(v.zb, v.zy - 2 * v.eps)),
     "z_j < z_y − 2ε, j > y": lambda o, v: o.all(o.lt(v.za, v.zy - 2 * v.eps))},
    scalars="zy wy eps")
"""A margin above 2ε survives an ε sup-norm change, for every number of classes K = p + q + 1 and every
label y: the logits are w_y (the label's), wb[p] (the classes before y, which y must beat strictly under the
smallest-index tie rule) and wa[q] (those after y, which y need only match); z likewise. The conclusion is
``classified_as(w, y)``; the hypothesis m(z, y) = z_y − max_{j≠y} z_j > 2ε is written as every other z_j < z_y − 2ε
(the same condition: a maximum is below a bound exactly when every entry is)."""


def prove_sup_le_euclid(ctx=None):
    return induction.prove(SUP_LE_EUCLID_ALL, "n", ctx, invariant=lambda o, v: o.and_(
        SUP_LE_EUCLID_ALL.conclusion(o, v), o.ge(o.norminf(v.d), 0)))


def prove_preserve(ctx=None):
    later = induction.prove(PRESERVE_LATER, "q", ctx)
    return induction.prove(PRESERVE_ALL, "p", ctx, uses=[induction.Use(PRESERVE_LATER, later, {
        "za": lambda s: s.za, "wa": lambda s: s.wa, "zy": lambda s: s.zy, "wy": lambda s: s.wy, "eps": lambda s: s.eps})])
