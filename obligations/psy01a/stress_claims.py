"""Claims and claim-side helpers shared by the Psy01-A stress, cue-use and accuracy obligations
(a library; it declares no obligations): the arg-max with the smallest-index tie rule
(:func:`classified_as`), ``‖·‖∞ ≤ ‖·‖₂`` in ℝ⁴ (:data:`SUP_LE_EUCLID`), ReLU 1-Lipschitz
(:data:`RELU_LIPSCHITZ`), and the scalar-width noisy network written over claim ops
(:func:`_scalar_net`).
"""

from __future__ import annotations

from typing import Any, Sequence

from checker.claims import claim


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
