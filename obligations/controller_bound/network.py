"""The policy of arXiv 2507.02953 and its constants, written once over an ops namespace.

Policy: ``x_0 = s``, ``x_j = relu(W_j x_{j-1} + b_j)``, ``π(s; Θ) = x_L`` (the review's
falsifier applies ReLU at the output too: ``|ReLU(2·ReLU(101)) − ReLU(1·ReLU(1))| = 201``).

Reconstruction of C_k(s) (the paper's Eq. (9) is not in the review; the review says it
"collects the products of spectral norms ‖W_ℓ‖₂ of the unpruned layers and the bias norms
that appear when bounding the pre-activation vector at layer k from the input", and at the
falsifier it gives C_1(1) = C_2(1) = 1)::

    β_0(s) = ‖s‖,   β_j(s) = ‖W_j‖·β_{j−1}(s) + ‖b_j‖        (a bound on ‖x_j‖)
    C_k(s) = (∏_{ℓ>k} ‖W_ℓ‖) · β_{k−1}(s)

With zero biases this is ``∏_{ℓ≠k} ‖W_ℓ‖ · ‖s‖`` — the review's "product over ℓ ≠ k" — and
at the falsifier it gives 1 and 1, as the review states (checked by
``controller_bound.corollary1_additive``). In the scalar case every norm is an absolute value.
"""

from __future__ import annotations

from typing import Any

from checker.claims import Env


def policy(o: Any, s: Any, w1: Any, b1: Any, w2: Any, b2: Any, relu: Any = None) -> Any:
    """π(s) = relu(w2·relu(w1·s + b1) + b2) for the scalar two-layer network (``relu(o, x)``
    another encoding of the same function for a backend, ``o.relu`` by default)."""
    if relu is None:
        return o.relu(w2 * o.relu(w1 * s + b1) + b2)
    return relu(o, w2 * relu(o, w1 * s + b1) + b2)


def c1(o: Any, v: Env, w2: Any = None) -> Any:
    """C_1(s) = ‖W_2‖·‖s‖ (optionally at another W_2)."""
    return o.abs(v.w2 if w2 is None else w2) * o.abs(v.s)


def c2(o: Any, v: Env, w1: Any = None) -> Any:
    """C_2(s) = ‖W_1‖·‖s‖ + ‖b_1‖ (optionally at another W_1)."""
    return o.abs(v.w1 if w1 is None else w1) * o.abs(v.s) + o.abs(v.b1)


def unpruned(o: Any, v: Env, relu: Any = None) -> Any:
    return policy(o, v.s, v.w1, v.b1, v.w2, v.b2, relu)
