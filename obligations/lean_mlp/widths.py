"""Width-free lemmas of the Lean MLP development, each proved for every width by induction (a library).

The statements of :mod:`.margins`, :mod:`.lipschitz` and :mod:`.descent` that speak of "every
input width" or "every output entry" are sized claims (:mod:`checker.kernel.sized`) proved by
:mod:`checker.backends.induction`; the facts about one column of a dense layer that several of
them instantiate at the new row of a matrix are here, each proved once per process
(:func:`fact`) by induction over its width, and handed to a proof by :func:`use`.

Layout. A dense layer ``dense W b x`` of the Lean development has ``W[input][output]`` and
output entry ``k = ∑ᵢ xᵢ·Wᵢₖ + b_k``: it reads column k of W. A sized claim multiplies a matrix
by a vector along its rows (``W @ x``), so the matrices of these theorems are stored **by output**:
the array ``W[dout,din]`` has row k = column k of the Lean W, and ``W @ x + b`` is
``dense W b x`` entry by entry. Every statement below reads the entries only through such
products and through ``‖·‖₁`` (the sum of every |entry|, the same in either layout), so the
layout is notation, not a change of statement.

=====================  ====================================================================
``col_drift``          ``|xᵢ| ≤ a`` ⇒ ``|e·x| ≤ a·‖e‖₁`` (one column of a weight perturbation)
``dense_drift_col``    ``|Wᵢ| ≤ w`` ⇒ ``|W·x' + b − (W·x + b)| ≤ w·‖x' − x‖₁``
``weight_diff_col``    ``(W + e)·x + b − (W·x + b) = e·x``
``relu_dense_col``     ``|Wᵢ| ≤ w``, ``‖y' − y‖₁ ≤ B`` ⇒ ``|W·relu y' + b − (W·relu y + b)| ≤ w·B``
``bound_nonneg``       ``|xᵢ| ≤ a`` for a non-empty x ⇒ ``a ≥ 0``
``segment_linear``     ``(W + t·e)·x = W·x + t·(e·x)``
``margin1_col``        one middle entry of the layer-1 margin (every d₀, d₁; see :mod:`.margins`)
``bound_nonneg_rows``  ``|Wᵢⱼ| ≤ w`` for a non-empty matrix ⇒ ``w ≥ 0``
``hidden_logit_entry`` one logit of the MLP against W₁ + e: drift ≤ w₂·a·‖e‖₁ (every d₁, d₂)
``relu_layer_l1``      ``‖relu((W + e)x + b) − relu(Wx + b)‖₁ ≤ a·‖e‖₁`` when ``|xᵢ| ≤ a``
``relu_dense_l1``      ``‖relu(Wu' + b) − relu(Wu + b)‖₁ ≤ d_out·w·‖u' − u‖₁`` when ``|Wᵢⱼ| ≤ w``
=====================  ====================================================================
"""

from __future__ import annotations

from typing import Any, Callable

from checker.backends import induction
from checker.claims import sized_claim
from checker.kernel.model import Verdict
from checker.kernel.sized import SizedClaim


def entries_bounded(o: Any, x: Any, bound: Any) -> Any:
    """``|xᵢ| ≤ bound`` for every entry of the array ``x`` (an entrywise hypothesis)."""
    return o.all(o.le(o.abs(x), bound))


def same_strict_sign(o: Any, before: Any, after: Any) -> Any:
    """``after`` is off the kink with the sign of ``before`` (as :func:`.margins.same_strict_sign`)."""
    return o.and_(o.implies(o.gt(before, 0), o.gt(after, 0)), o.implies(o.lt(before, 0), o.lt(after, 0)))


CLAIMS: dict[str, SizedClaim] = {
    "col_drift": sized_claim(
        "col-drift-refined", "n:nat[1,]", "e[n] x[n]",
        lambda o, v: o.le(o.abs(o.dot(v.e, v.x)), v.a * o.norm1(v.e)),
        hypotheses={"input_bounds": lambda o, v: entries_bounded(o, v.x, v.a)},
        terms={"drift": lambda o, v: o.abs(o.dot(v.e, v.x)), "bound": lambda o, v: v.a * o.norm1(v.e)},
        scalars="a"),
    "dense_drift_col": sized_claim(
        "dense-drift-column", "n:nat[1,]", "W[n] x[n] xp[n]",
        lambda o, v: o.le(o.abs((o.dot(v.W, v.xp) + v.b) - (o.dot(v.W, v.x) + v.b)), v.w * o.norm1(v.xp - v.x)),
        hypotheses={"w_bounds": lambda o, v: entries_bounded(o, v.W, v.w)},
        scalars="b w"),
    "weight_diff_col": sized_claim(
        "dense-weight-diff-column", "n:nat[0,]", "W[n] e[n] x[n]",
        lambda o, v: o.eq((o.dot(v.W + v.e, v.x) + v.b) - (o.dot(v.W, v.x) + v.b), o.dot(v.e, v.x)),
        scalars="b"),
    "relu_dense_col": sized_claim(
        "relu-dense-drift-column", "n:nat[1,]", "W[n] y[n] yp[n]",
        lambda o, v: o.le(o.abs((o.dot(v.W, o.relu(v.yp)) + v.b) - (o.dot(v.W, o.relu(v.y)) + v.b)), v.w * v.B),
        hypotheses={"w_bounds": lambda o, v: entries_bounded(o, v.W, v.w),
                    "input_drift_mass": lambda o, v: o.le(o.norm1(v.yp - v.y), v.B)},
        scalars="b w B"),
    "bound_nonneg": sized_claim(
        "entry-bound-nonnegative", "n:nat[1,]", "x[n]", lambda o, v: o.ge(v.a, 0),
        hypotheses={"bounds": lambda o, v: entries_bounded(o, v.x, v.a)}, scalars="a"),
    "segment_linear": sized_claim(
        "dot-along-segment", "n:nat[0,]", "W[n] e[n] x[n]",
        lambda o, v: o.eq(o.dot(v.W + v.e * v.t, v.x), o.dot(v.W, v.x) + v.t * o.dot(v.e, v.x)),
        scalars="t"),
}


def _relu_dense_invariant(o: Any, v: Any) -> Any:
    """``w ≥ 0`` and the drift bounded by ``w·‖y' − y‖₁`` (the mass hypothesis is read at the close)."""
    return o.and_(o.ge(v.w, 0), o.le(o.abs(o.dot(v.W, o.relu(v.yp)) - o.dot(v.W, o.relu(v.y))),
                                    v.w * o.norm1(v.yp - v.y)))


def _z1(o: Any, v: Any, moved: bool) -> Any:
    """The middle pre-activation ``V·relu((W₀ + t·e) x + b₀) + b₁`` (``moved``) or at t = 0."""
    W0 = v.W0 + v.e * v.t if moved else v.W0
    return o.dot(v.V, o.relu(W0 @ v.x + v.b0)) + v.b1


CLAIMS["margin1_col"] = sized_claim(
    "margin1-keeps-offkink-entry", "d0:nat[1,] d1:nat[1,]", "W0[d1,d0] e[d1,d0] b0[d1] V[d1] x[d0]",
    lambda o, v: same_strict_sign(o, _z1(o, v, False), _z1(o, v, True)),
    hypotheses={"t_in_unit": lambda o, v: o.and_(o.le(0, v.t), o.le(v.t, 1)),
                "input_bounds": lambda o, v: entries_bounded(o, v.x, v.a),
                "w1_bounds": lambda o, v: entries_bounded(o, v.V, v.w1),
                "step_radius": lambda o, v: o.le(o.norm1(v.e), v.D),
                "margin1": lambda o, v: o.lt(v.w1 * v.a * v.D, o.abs(_z1(o, v, False)))},
    scalars="b1 t a w1 D")


def _margin1_invariant(o: Any, v: Any) -> Any:
    """``‖e‖₁ ≥ 0``, ``w₁ ≥ 0`` and the middle drift bounded by ``w₁·a·t·‖e‖₁``."""
    return o.and_(o.ge(o.norm1(v.e), 0), o.ge(v.w1, 0),
                  o.le(o.abs(_z1(o, v, True) - _z1(o, v, False)), v.w1 * v.a * v.t * o.norm1(v.e)))


def _margin1_uses() -> list[induction.Use]:
    from checker.backends import library

    return [use("segment_linear", W=lambda s: s.new("W0"), e=lambda s: s.new("e"), x=lambda s: s.x, t=lambda s: s.t),
            use("col_drift", e=lambda s: s.new("e"), x=lambda s: s.x, a=lambda s: s.a),
            use("bound_nonneg", x=lambda s: s.x, a=lambda s: s.a),
            library.use("norm1_nonneg", x=lambda s: s.new("e"))]


CLAIMS["bound_nonneg_rows"] = sized_claim(
    "entry-bound-nonnegative-matrix", "n:nat[1,] m:nat[1,]", "W[n,m]", lambda o, v: o.ge(v.w, 0),
    hypotheses={"bounds": lambda o, v: entries_bounded(o, v.W, v.w)}, scalars="w")


def _hidden_logit(o: Any, v: Any, moved: bool) -> Any:
    """One logit ``V·relu((W₁ + e)·a₀ + b₁) + b₂`` (``moved``) or at e = 0, W₁ and e stored by output."""
    W1 = v.W1 + v.e if moved else v.W1
    return o.dot(v.V, o.relu(W1 @ v.a0 + v.b1)) + v.b2


CLAIMS["hidden_logit_entry"] = sized_claim(
    "hidden-logit-drift-entry", "d1:nat[1,] d2:nat[1,]", "W1[d2,d1] e[d2,d1] b1[d2] V[d2] a0[d1]",
    lambda o, v: o.le(o.abs(_hidden_logit(o, v, True) - _hidden_logit(o, v, False)), v.w2 * v.a * o.norm1(v.e)),
    hypotheses={"input_bounds": lambda o, v: entries_bounded(o, v.a0, v.a),
                "w2_bounds": lambda o, v: entries_bounded(o, v.V, v.w2)},
    scalars="b2 a w2")

CLAIMS["relu_layer_l1"] = sized_claim(
    "relu-layer-drift-l1", "d0:nat[1,] d1:nat[1,]", "W[d1,d0] e[d1,d0] b[d1] x[d0]",
    lambda o, v: o.le(o.norm1(o.relu((v.W + v.e) @ v.x + v.b) - o.relu(v.W @ v.x + v.b)), v.a * o.norm1(v.e)),
    hypotheses={"input_bounds": lambda o, v: entries_bounded(o, v.x, v.a)}, scalars="a")

CLAIMS["relu_dense_l1"] = sized_claim(
    "relu-dense-drift-l1", "d1:nat[1,] d2:nat[1,]", "W[d2,d1] b[d2] u[d1] up[d1]",
    lambda o, v: o.le(o.norm1(o.relu(v.W @ v.up + v.b) - o.relu(v.W @ v.u + v.b)), v.d2 * v.w * o.norm1(v.up - v.u)),
    hypotheses={"w_bounds": lambda o, v: entries_bounded(o, v.W, v.w)}, scalars="w")


def _hidden_logit_uses() -> list[induction.Use]:
    from checker.backends import library

    return [use("weight_diff_col", W=lambda s: s.new("W1"), e=lambda s: s.new("e"), x=lambda s: s.a0,
                b=lambda s: s.new("b1")),
            use("col_drift", e=lambda s: s.new("e"), x=lambda s: s.a0, a=lambda s: s.a),
            use("bound_nonneg", x=lambda s: s.a0, a=lambda s: s.a),
            library.use("norm1_nonneg", x=lambda s: s.new("e"))]


_INVARIANTS: dict[str, Callable[[Any, Any], Any]] = {
    "relu_dense_col": _relu_dense_invariant,
    "margin1_col": _margin1_invariant,
    "hidden_logit_entry": lambda o, v: o.and_(CLAIMS["hidden_logit_entry"].conclusion(o, v), o.ge(v.w2, 0),
                                              o.ge(o.norm1(v.e), 0)),
}
_USES: dict[str, Callable[[], list[induction.Use]]] = {
    "margin1_col": _margin1_uses,
    "bound_nonneg_rows": lambda: [use("bound_nonneg", x=lambda s: s.new("W"), a=lambda s: s.w)],
    "hidden_logit_entry": _hidden_logit_uses,
    "relu_layer_l1": lambda: [
        use("weight_diff_col", W=lambda s: s.new("W"), e=lambda s: s.new("e"), x=lambda s: s.x, b=lambda s: s.new("b")),
        use("col_drift", e=lambda s: s.new("e"), x=lambda s: s.x, a=lambda s: s.a)],
    "relu_dense_l1": lambda: [
        use("dense_drift_col", W=lambda s: s.new("W"), b=lambda s: s.new("b"), x=lambda s: s.u, xp=lambda s: s.up,
            w=lambda s: s.w)],
}
_ON = {"margin1_col": "d1", "hidden_logit_entry": "d2", "relu_layer_l1": "d1", "relu_dense_l1": "d2"}
_PROVED: dict[str, Verdict] = {}


def fact(name: str) -> Verdict:
    """The lemma's proof by induction over its width (once per process): ``proved`` with its
    universal kernel fact, or the ``unknown`` that says why not (a proof using it is then unknown)."""
    if name not in _PROVED:
        c = CLAIMS[name]
        on = _ON.get(name, c.size_names[0])
        uses = _USES[name]() if name in _USES else ()
        _PROVED[name] = induction.prove(c, on, invariant=_INVARIANTS.get(name), uses=uses)
    return _PROVED[name]


def use(name: str, **bind: Callable[[Any], Any]) -> induction.Use:
    """The lemma, proved, instantiated by ``bind`` (its arrays and scalars → the step's)."""
    return induction.Use(CLAIMS[name], fact(name), bind)


def lemma_verdicts(*names: str) -> dict[str, Verdict]:
    """The named lemmas' verdicts (for a certificate's data)."""
    return {CLAIMS[n].name: fact(n) for n in names}
