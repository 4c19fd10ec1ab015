"""The softmax ratio sandwich and ``e^y(1 − y) ≤ 1`` (a library; it declares no obligations).

Every segment-Lipschitz chain of the Lean MLP development goes through these two facts: the
linear net's constant (:mod:`.linear_lipschitz`) and the hidden and input constants
(:func:`.lipschitz.chain_proof`). A logit drift ``|z' − z|∞ ≤ δ`` moves each softmax probability
by a factor in ``[e^{−2δ}, e^{2δ}]`` (:data:`RATIO_SANDWICH`, z3 over ℝ for 3 classes with the
exponentials as positive unknowns), and ``e^y(1 − y) ≤ 1`` on ``y ≥ 0``
(:func:`exp_bound_verdict`, sympy) turns that factor into a rational bound.
"""

from __future__ import annotations

from typing import Any

from checker.claims import claim


_K = 3  # classes in the ratio-sandwich claim


def _softmax_ratio(v, E, j):
    return E[j] / sum(E[1:], start=E[0])


RATIO_SANDWICH = claim(
    "softmax-ratio-sandwich", " ".join([f"E{k}" for k in range(_K)] + [f"F{k}" for k in range(_K)] + ["G"]),
    lambda o, v: o.and_(*(o.and_(
        o.le(_softmax_ratio(v, [v[f"F{k}"] for k in range(_K)], j),
             v.G * v.G * _softmax_ratio(v, [v[f"E{k}"] for k in range(_K)], j)),
        o.ge(v.G * v.G * _softmax_ratio(v, [v[f"F{k}"] for k in range(_K)], j),
             _softmax_ratio(v, [v[f"E{k}"] for k in range(_K)], j))) for j in range(_K))),
    hypotheses={
        "exp_positive": lambda o, v: o.and_(*(o.gt(v[f"E{k}"], 0) for k in range(_K))),
        "G_at_least_one": lambda o, v: o.ge(v.G, 1),
        "logit_drift": lambda o, v: o.and_(*(o.and_(o.le(v[f"F{k}"], v.G * v[f"E{k}"]), o.ge(v.G * v[f"F{k}"], v[f"E{k}"]))
                                             for k in range(_K))),
    },
)
"""With ``E_k = e^{z_k}``, ``F_k = e^{z'_k}``, ``G = e^{δ}`` and ``|z' − z|∞ ≤ δ`` (so
``E_k/G ≤ F_k ≤ G·E_k``), each softmax probability moves by a factor in ``[G⁻², G²]``."""


def exp_bound_verdict() -> Any:
    """sympy: d/dy[e^y(1 − y)] = −y·e^y and the value 1 at y = 0, so e^y(1 − y) ≤ 1 on y ≥ 0 (the
    monotonicity step is the mean value theorem, not machine-checked). Shared by every chain
    that uses the softmax ratio sandwich."""
    from checker.backends import symbolic

    sp = symbolic.sympy()
    y = sp.symbols("y", real=True)
    f = sp.exp(y) * (1 - y)
    return symbolic.conclude("sympy: e^y(1 − y) has derivative −y·e^y and value 1 at y = 0", [
        symbolic.zero_step(sp.diff(f, y) + y * sp.exp(y), "d/dy[e^y(1 − y)] + y·e^y"),
        symbolic.zero_step(f.subs(y, 0) - 1, "e^0·(1 − 0) − 1"),
    ])
