"""The binary32 float model of ``FloatBridge`` and its error budgets (a library; no obligations).

The seeds name ``u``, ``mulErr``, ``layerBudget``, ``cotErr`` and the FloatModel gradients
(``linearFloatGrad``, ``mlpHiddenFloatGrad``, ``mlpInputFloatGrad``) without defining them.
This module **reconstructs** them by standard floating-point error analysis (Higham,
*Accuracy and Stability of Numerical Algorithms*, ch. 2–3) for IEEE binary32 with
round-to-nearest-even. Full derivations: ``docs/reconstructions/lean_mlp_float.md``.

Model of one operation (``op ∈ {+, −, ×, ÷}``, operands binary32, no overflow)::

    fl(a op b) = (a op b)(1 + δ) + ν,   |δ| ≤ u = 2⁻²⁴,   |ν| ≤ μ = 2⁻¹⁵⁰

``ν`` is the gradual-underflow term (half the subnormal spacing 2⁻¹⁴⁹); it is 0 for ``+``
and ``−`` (a subnormal sum is exact). A product with one *exact real* operand (the
"frozen exact" layer input of the seeds) obeys the same model: ``fl(r·b)`` is the rounding
of the real number ``r·b``.

The budgets (``fmt`` carries ``u``, ``μ``, the exp accuracy and the γ rule)::

    γₙ                     = n·u/(1 − n·u)                        (raises if n·u ≥ 1)
    dot_err(n, S, bias)    = γ_{n+bias}·S + n·μ·(1 + γ_{n+bias−1})
        bound on |fl(∑ⱼ xⱼyⱼ [+ b]) − (∑ⱼ xⱼyⱼ [+ b])| in ANY summation order (any
        parenthesisation, FMA or not), S = ∑ⱼ|xⱼyⱼ| [+ |b|]  (Higham Thm 3.1 + Lemma 3.3,
        with the n product underflows added)
    layerBudget(n, w, A, β, e) = n·w·e + dot_err(n, n·w·(A + e) + β, bias = β-term present)
        per-entry bound on |fl(dense W b x̃) − dense W b x| when |x| ≤ A, |x̃ − x| ≤ e,
        |Wⱼₖ| ≤ w, |bₖ| ≤ β, x ∈ ℝⁿ; the same function bounds a bias-free transposed
        contraction Wᵀ·c̃ (β = 0, bias = False) — under a margin the ReLU masks agree
    layerAct(n, w, C)      = n·w·C       (|Wᵀc|ₗ ≤ n·w·C when |cₖ| ≤ C)
    mulErr(A, C, ea, ec)   = A·ec + ea·(C + ec) + u·(A + ea)(C + ec) + μ
        bound on |fl(ã·c̃) − a·c| when |a| ≤ A, |c| ≤ C, |ã − a| ≤ ea, |c̃ − c| ≤ ec
    cotErr(m, δ, G)        = (H − 1)(1 + u) + u + μ(1 + u),
        H = (1 + α)(1 + u) / ((1 − 2δ)(1 − α)(1 − γ_{m−1})(1 − u)),  1 + α = (1 + ε_exp)/(1 − u·G)
        per-entry bound on |ĉ − (softmax(t) − onehot)| for the float head ĉ at float logits t̃,
        |t̃ − t|∞ ≤ δ, G ≥ the spread max t̃ − min t̃ (we use spread(t) + 2δ), m classes

The float head: ``M = max t̃`` (exact), ``sₖ = fl(t̃ₖ − M)``, ``eₖ = exp32(sₖ)``,
``S = ∑ eₖ`` (any order), ``pₖ = fl(eₖ/S)``, ``ĉₖ = fl(pₖ − [k = label])``.
``exp32`` is numpy's float32 ``exp``, which is **not** correctly rounded: we budget
``|exp32(s) − eˢ| ≤ 4 ulp ≤ 4·2⁻²³·eˢ`` for ``s ∈ [−80, 0]`` (the "head range" hypothesis
keeps outputs normal); ``lean_mlp.float.exp_accuracy`` measures the actual maximum
(about 2.4 ulp for numpy 2.x) on millions of arguments.

Composition (what ``gradient_budget`` returns; the algebra is checked by
``lean_mlp.float.budget_compose``), with ``X, A₀, A₁`` bounds on |x|, |a₀|, |a₁|, ``wᵢ`` on
|Wᵢ|, ``βᵢ`` on |bᵢ|, spread = max t − min t of the exact logits:

- W₂ (``linearFloatGrad`` at a₁): ``δ = layerBudget(d₂, w₂, A₁, β₂, 0)``,
  ``η = mulErr(A₁, 1, 0, cotErr(d₃, δ, spread + 2δ))``;
- W₁ (``mlpHiddenFloatGrad``, a₀ exact): ``E₁ = layerBudget(d₁, w₁, A₀, β₁, 0)`` (margin
  ``E₁ < min|z₁|``), ``δ = layerBudget(d₂, w₂, A₁, β₂, E₁)``, ``c = cotErr(…)``,
  ``η = mulErr(A₀, layerAct(d₃, w₂, 1), 0, layerBudget(d₃, w₂, 1, 0, c))``;
- W₀ (``mlpInputFloatGrad``, x exact): ``E₀ = layerBudget(d₀, w₀, X, β₀, 0)`` (margin
  ``E₀ < min|z₀|``), ``E₁ = layerBudget(d₁, w₁, A₀, β₁, E₀)`` (margin ``E₁ < min|z₁|``), then
  as W₁ with one more ``layerBudget(d₂, w₁, C₁, 0, ·)`` and ``C₀ = layerAct(d₂, w₁, C₁)``.

Every budget function is written with Python operators only, so it evaluates on Fractions
(exact budgets) and on float64 numpy arrays (vectorised screening in the obligations).
numpy is imported inside functions.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, NamedTuple, Sequence

from obligations.lean_mlp import mlp

U = Fraction(1, 2**24)
"""Unit roundoff of binary32, round to nearest: u = 2⁻²⁴."""
MU = Fraction(1, 2**150)
"""Largest absolute rounding error of a result in the subnormal range: half of 2⁻¹⁴⁹."""
EXP_ULPS = 4
"""Budgeted accuracy of numpy's float32 exp on [−80, 0], in ulps of the result."""
HEAD_RANGE = 80
"""The head-range hypothesis: the float logits' spread stays below this (exp outputs normal)."""
MAX_FLOAT32 = Fraction(2**24 - 1) * Fraction(2) ** 104
LAYERS = ("W2", "W1", "W0")
ORDERS = ("numpy", "forward", "reverse", "pairwise", "shuffled-1", "shuffled-2")
"""Summation orders the float model is evaluated in; ``numpy`` is numpy's own (BLAS/pairwise)."""


def higham_gamma(n: int, u: Any) -> Any:
    """γₙ = n·u/(1 − n·u). For a number n it must be defined (0 ≤ n, n·u < 1); for a symbolic n
    (sympy, every fan-in at once) that is left to the hypotheses of the claim it enters."""
    if not isinstance(n, numbers.Number):
        return n * u / (1 - n * u)
    if n < 0:
        raise ValueError(f"γₙ needs n ≥ 0, got {n}")
    if n * u >= 1:
        raise ValueError(f"γₙ is undefined for n·u ≥ 1 (n = {n}, u = {u})")
    return n * u / (1 - n * u)


@dataclass(frozen=True)
class Format:
    """A floating-point format as the budgets see it.

    ``u``: unit roundoff; ``mu``: absolute underflow error of one rounding; ``exp_rel``: the
    relative accuracy budgeted for the library ``exp``; ``gamma_rule(n, u)``: the dot-product
    constant (Higham's γₙ; the mutation tests replace it by something too small).
    """

    name: str
    u: Any
    mu: Any
    exp_rel: Any
    gamma_rule: Callable[[int, Any], Any] = field(default=higham_gamma, compare=False)

    def gamma(self, n: int) -> Any:
        return self.gamma_rule(n, self.u)

    def as_float(self) -> Format:
        """The same format with float constants (for vectorised screening in float64)."""
        return Format(self.name, float(self.u), float(self.mu), float(self.exp_rel), self.gamma_rule)


BINARY32 = Format("binary32", U, MU, EXP_ULPS * Fraction(1, 2**23))
BINARY64 = Format("binary64", Fraction(1, 2**53), Fraction(1, 2**1075), 16 * Fraction(1, 2**52))
"""The float64 reference's format; its exp budget (16 ulp) is far above any libm's error."""


def gamma(n: int) -> Fraction:
    """Higham's γₙ = n·u/(1 − n·u) for binary32; raises ``ValueError`` if n·u ≥ 1."""
    return BINARY32.gamma(n)


# ---------------------------------------------------------------------------------------
# The budgets (Lean: mulErr, layerBudget, cotErr), generic over Fractions and float arrays
# ---------------------------------------------------------------------------------------


def dot_err(fmt: Format, n: int, s_abs: Any, bias: bool = True) -> Any:
    """|fl(∑ⱼ xⱼyⱼ [+ b]) − exact| ≤ γ_{n+bias}·S + n·μ·(1 + γ_{n+bias−1}), S = ∑|xⱼyⱼ| [+ |b|]."""
    m = n + (1 if bias else 0)
    return fmt.gamma(m) * s_abs + n * fmt.mu * (1 + fmt.gamma(max(m - 1, 0)))


def layer_budget(fmt: Format, n: int, w: Any, a: Any, beta: Any, e: Any, bias: bool = True) -> Any:
    """``layerBudget``: per-entry error of a float dense layer (or a bias-free Wᵀ contraction)
    of fan-in ``n`` whose input is known to within ``e``: ``n·w·e + dot_err(n, n·w·(a+e) + β)``."""
    return n * w * e + dot_err(fmt, n, n * w * (a + e) + beta, bias)


def layer_act(n: int, w: Any, c: Any) -> Any:
    """``layerAct``: |(Wᵀc)ₗ| ≤ n·w·C for a fan-in n contraction with |W| ≤ w, |c| ≤ C."""
    return n * w * c


def mul_err(fmt: Format, a: Any, c: Any, ea: Any, ec: Any) -> Any:
    """``mulErr``: |fl(ã·c̃) − a·c| ≤ A·ec + ea·(C + ec) + u·(A + ea)(C + ec) + μ."""
    return a * ec + ea * (c + ec) + fmt.u * (a + ea) * (c + ec) + fmt.mu


def cot_err(fmt: Format, m: int, delta: Any, spread: Any) -> Any:
    """``cotErr``: per-entry error of the float softmax − onehot head at float logits within
    ``delta`` of the exact ones, ``spread`` ≥ the float logits' spread, ``m`` classes.
    Needs 2δ < 1 and u·G < 1 (see ``head_hypotheses``)."""
    u = fmt.u
    one_alpha = (1 + fmt.exp_rel) / (1 - u * spread)
    alpha = one_alpha - 1
    h = one_alpha * (1 + u) / ((1 - 2 * delta) * (1 - alpha) * (1 - fmt.gamma(max(m - 1, 0))) * (1 - u))
    return (h - 1) * (1 + u) + u + fmt.mu * (1 + u)


class Hypothesis(NamedTuple):
    """A rounding-margin or range hypothesis of a budget: it holds when ``lhs < rhs``."""

    name: str
    lhs: Any
    rhs: Any

    @property
    def holds(self) -> bool:
        return bool(self.lhs < self.rhs)


@dataclass(frozen=True)
class Scalars:
    """The instance quantities the budgets read (Fractions, or float64 arrays when screening).

    ``x, a0, a1``: bounds on |x|, |a₀|, |a₁| (exact activations); ``w0…w2``, ``b0…b2``: bounds
    on |Wᵢ| and |bᵢ|; ``spread``: max − min of the exact logits; ``zmin0, zmin1``: min |z₀|,
    min |z₁| of the exact pre-activations.
    """

    dims: tuple[int, int, int, int]
    x: Any
    a0: Any
    a1: Any
    w0: Any
    w1: Any
    w2: Any
    b0: Any
    b1: Any
    b2: Any
    spread: Any
    zmin0: Any
    zmin1: Any


def compose(layer: str, fmt: Format, s: Scalars) -> tuple[Any, tuple[Hypothesis, ...], tuple[tuple[str, Any], ...]]:
    """The composed budget η of ``layer``'s float gradient, its hypotheses and its parts."""
    _check_layer(layer)
    d0, d1, d2, d3 = s.dims
    hyps: list[Hypothesis] = []
    parts: list[tuple[str, Any]] = []
    if layer == "W2":
        e1 = 0
    elif layer == "W1":
        e1 = layer_budget(fmt, d1, s.w1, s.a0, s.b1, 0)
        parts.append(("E1 = layerBudget(d1, w1, A0, b1, 0)", e1))
        hyps.append(Hypothesis("layer-1 rounding margin: E1 < min|z1|", e1, s.zmin1))
    else:
        e0 = layer_budget(fmt, d0, s.w0, s.x, s.b0, 0)
        parts.append(("E0 = layerBudget(d0, w0, X, b0, 0)", e0))
        hyps.append(Hypothesis("layer-0 rounding margin: E0 < min|z0|", e0, s.zmin0))
        e1 = layer_budget(fmt, d1, s.w1, s.a0, s.b1, e0)
        parts.append(("E1 = layerBudget(d1, w1, A0, b1, E0)", e1))
        hyps.append(Hypothesis("layer-1 rounding margin: E1 < min|z1|", e1, s.zmin1))
    delta = layer_budget(fmt, d2, s.w2, s.a1, s.b2, e1)
    parts.append(("delta = layerBudget(d2, w2, A1, b2, E1) (logit error)", delta))
    g = s.spread + 2 * delta
    hyps.append(Hypothesis("head: 2·delta < 1", 2 * delta, 1))
    hyps.append(Hypothesis(f"head range: logit spread + 2·delta < {HEAD_RANGE}", g, HEAD_RANGE))
    c2 = cot_err(fmt, d3, delta, g)
    parts.append(("cotErr(d3, delta, spread + 2·delta)", c2))
    if layer == "W2":
        eta = mul_err(fmt, s.a1, 1, 0, c2)
        parts.append(("eta = mulErr(A1, 1, 0, cotErr)", eta))
        return eta, tuple(hyps), tuple(parts)
    c1 = layer_budget(fmt, d3, s.w2, 1, 0, c2, bias=False)
    big_c1 = layer_act(d3, s.w2, 1)
    parts.append(("c1err = layerBudget(d3, w2, 1, 0, cotErr)", c1))
    if layer == "W1":
        eta = mul_err(fmt, s.a0, big_c1, 0, c1)
        parts.append(("eta = mulErr(A0, layerAct(d3, w2, 1), 0, c1err)", eta))
        return eta, tuple(hyps), tuple(parts)
    c0 = layer_budget(fmt, d2, s.w1, big_c1, 0, c1, bias=False)
    big_c0 = layer_act(d2, s.w1, big_c1)
    parts.append(("c0err = layerBudget(d2, w1, C1, 0, c1err)", c0))
    eta = mul_err(fmt, s.x, big_c0, 0, c0)
    parts.append(("eta = mulErr(X, layerAct(d2, w1, C1), 0, c0err)", eta))
    return eta, tuple(hyps), tuple(parts)


# ---------------------------------------------------------------------------------------
# Exact binary32 rounding (for re-checks and for products with an exact real operand)
# ---------------------------------------------------------------------------------------


def round32(q: Fraction | int) -> Fraction:
    """The binary32 number nearest to ``q`` (ties to even, gradual underflow), exactly.

    Raises ``OverflowError`` when ``q`` rounds to ±∞."""
    q = Fraction(q)
    if q == 0:
        return Fraction(0)
    a = abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    quantum = Fraction(2) ** (max(e, -126) - 23)
    r = round(a / quantum) * quantum  # Fraction.__round__ rounds half to even
    if r > MAX_FLOAT32:
        raise OverflowError(f"{float(q):g} overflows binary32")
    return r if q > 0 else -r


def is_binary32(q: Fraction) -> bool:
    return round32(q) == q


def exact_sum(values: Sequence[Fraction], order: Sequence[int]) -> Fraction:
    """∑ in binary32, left to right in ``order``, every addition rounded exactly."""
    acc: Fraction | None = None
    for i in order:
        acc = values[i] if acc is None else round32(acc + values[i])
    return Fraction(0) if acc is None else acc


# ---------------------------------------------------------------------------------------
# The float model, batched over instances (numpy float32)
# ---------------------------------------------------------------------------------------


def _permutation(n: int, order: str) -> Any:
    import numpy as np

    seed = int(order.split("-")[1])
    return np.random.default_rng(1000 + seed).permutation(n)


def fsum(terms: Any, order: str) -> Any:
    """∑ over the last axis in the array's dtype, in ``order`` (every addition rounded)."""
    import numpy as np

    n = terms.shape[-1]
    if order == "numpy":
        return np.sum(terms, axis=-1, dtype=terms.dtype)
    if order == "pairwise":
        q = terms
        while q.shape[-1] > 1:
            k = q.shape[-1]
            head = q[..., 0:k - k % 2:2] + q[..., 1:k - k % 2:2]
            q = np.concatenate([head, q[..., k - 1:k]], axis=-1) if k % 2 else head
        return q[..., 0].copy()
    if order == "forward":
        idx = range(n)
    elif order == "reverse":
        idx = range(n - 1, -1, -1)
    elif order.startswith("shuffled-"):
        idx = [int(i) for i in _permutation(n, order)]
    else:
        raise ValueError(f"unknown summation order {order!r}; use one of {', '.join(ORDERS)}")
    it = iter(idx)
    acc = terms[..., next(it)].copy()
    for i in it:
        acc = acc + terms[..., i]
    return acc


def fdense(w: Any, b: Any, x: Any, order: str, products: Any = None) -> Any:
    """Batched dense layer ``(x·W + b)`` [N, n]·[N, n, m] + [N, m] in the arrays' dtype.

    ``products`` (optional, [N, n, m]) replaces the rounded products ``fl(xⱼ·Wⱼₖ)`` (used
    when x is an exact real). ``numpy`` order is numpy's matmul (BLAS) then the bias."""
    import numpy as np

    if order == "numpy" and products is None:
        return np.matmul(x[:, None, :], w)[:, 0, :] + b
    p = x[:, :, None] * w if products is None else products
    if b is None:
        return fsum(np.swapaxes(p, 1, 2), order)
    # the bias is the last term: added last (forward), first (reverse), or anywhere (shuffled)
    return fsum(np.concatenate([np.swapaxes(p, 1, 2), b[:, :, None]], axis=-1), order)


def ftranspose(w: Any, c: Any, order: str) -> Any:
    """Batched ``(Wᵀ·c)ₗ = ∑ₖ Wₗₖ·cₖ`` ([N, n, m], [N, m] → [N, n]), bias-free."""
    import numpy as np

    if order == "numpy":
        return np.matmul(w, c[:, :, None])[:, :, 0]
    return fsum(w * c[:, None, :], order)


def fhead(t: Any, label: Any, order: str) -> Any:
    """Batched softmax − onehot: max shift, exp, sum in ``order``, divide, subtract 1."""
    import numpy as np

    s = t - t.max(axis=-1, keepdims=True)
    e = np.exp(s)
    p = e / fsum(e, order)[:, None]
    rows = np.arange(t.shape[0])
    c = p.copy()
    c[rows, label] = p[rows, label] - p.dtype.type(1)
    return c


def fmask(z: Any, v: Any) -> Any:
    import numpy as np

    return np.where(z > 0, v, np.zeros_like(v))


@dataclass(frozen=True)
class FloatRun:
    """Every float intermediate of one batched run (what the checks compare)."""

    grad: Any
    z0: Any = None
    z1: Any = None
    logits: Any = None
    c2: Any = None
    c1: Any = None
    c0: Any = None


def float_pipeline(layer: str, p: dict[str, Any], order: str, products: Any = None, final: Any = None) -> FloatRun:
    """The FloatModel gradient of ``layer`` for a batch, in the dtype of the arrays in ``p``.

    ``p`` holds the layer input (``x`` for W₀, ``a0`` for W₁, ``a1`` for W₂), the weights and
    biases downstream of it, and ``label``. ``products``/``final`` (optional) replace the
    rounded first-layer products and the rounded final multiply (exact-real inputs)."""
    import numpy as np

    _check_layer(layer)
    z0 = z1 = None
    if layer == "W0":
        z0 = fdense(p["W0"], p["b0"], p["x"], order, products)
        a0 = np.maximum(z0, 0)
        z1 = fdense(p["W1"], p["b1"], a0, order)
        t = fdense(p["W2"], p["b2"], np.maximum(z1, 0), order)
    elif layer == "W1":
        z1 = fdense(p["W1"], p["b1"], p["a0"], order, products)
        t = fdense(p["W2"], p["b2"], np.maximum(z1, 0), order)
    else:
        t = fdense(p["W2"], p["b2"], p["a1"], order, products)
    c2 = fhead(t, p["label"], order)
    c1 = c0 = None
    if layer == "W2":
        inp, c = p["a1"], c2
    else:
        c1 = fmask(z1, ftranspose(p["W2"], c2, order))
        if layer == "W1":
            inp, c = p["a0"], c1
        else:
            c0 = fmask(z0, ftranspose(p["W1"], c1, order))
            inp, c = p["x"], c0
    grad = inp[:, :, None] * c[:, None, :] if final is None else final(c)
    return FloatRun(grad, z0, z1, t, c2, c1, c0)


# ---------------------------------------------------------------------------------------
# The interface: one instance, an Mlp with exact weights
# ---------------------------------------------------------------------------------------


def _check_layer(layer: str) -> None:
    if layer not in LAYERS:
        raise ValueError(f"unknown layer {layer!r}: the float gradients exist for {', '.join(LAYERS)} (weights, not biases)")


def _check_label(net: mlp.Mlp, label: Any) -> None:
    d3 = net.dims[3]
    if isinstance(label, bool) or not isinstance(label, numbers.Integral) or not 0 <= label < d3:
        raise ValueError(f"label {label!r} is not a class index: expected an int in 0..{d3 - 1}")


def _exact(v: Any) -> Fraction:
    """An input entry as an exact rational (ints, Fractions, and binary floats of any width)."""
    return Fraction(v) if isinstance(v, (numbers.Rational, str)) else Fraction(float(v))


def _layer_input(layer: str, net: mlp.Mlp, x: Sequence[Any]) -> tuple[Fraction, ...]:
    if len(x) != net.dims[0]:
        raise ValueError(f"input has {len(x)} entries, the network expects d0 = {net.dims[0]}")
    fw = mlp.forward(net, [_exact(v) for v in x], mlp.relu_positive)
    return {"W0": fw.x, "W1": fw.a0, "W2": fw.a1}[layer]


def _f32(rows: Any) -> Any:
    import numpy as np

    return np.array([[float(v) for v in row] for row in rows] if isinstance(rows[0], (tuple, list)) else [float(v) for v in rows],
                    dtype=np.float32)


def float_gradient(layer: str, net: mlp.Mlp, x: Sequence[Any], label: int, order: str = "numpy") -> Any:
    """The binary32 gradient of ``layer`` (see :func:`float_run`); a float32 array of W's shape."""
    return float_run(layer, net, x, label, order).grad[0]


def head_exp_arguments(logits: Any) -> list[tuple[Fraction, Fraction]]:
    """The (s, exp32(s)) pairs the float head evaluates at float32 ``logits`` (one row):
    s = fl(t̃ₖ − max t̃), exactly as :func:`fhead` computes them, as exact rationals."""
    import numpy as np

    t = np.asarray(logits, dtype=np.float32).reshape(1, -1)
    s = t - t.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return [(Fraction(float(a)), Fraction(float(b))) for a, b in zip(s[0], e[0])]


def float_run(layer: str, net: mlp.Mlp, x: Sequence[Any], label: int, order: str = "numpy") -> FloatRun:
    """The binary32 gradient of ``layer`` ∈ {W2, W1, W0} as the FloatBridge docstrings describe.

    The layer input is exact (x for W₀; the exact activation a₀ for W₁ and a₁ for W₂, "frozen
    exact"); the float forward (float32 dense + relu) runs from it; the float softmax − onehot
    head is taken at the float logits; the cotangent runs back through the masked Wᵀ
    contractions at the float pre-activations; the result is ``fl(inputᵢ·c̃ⱼ)``. Products with
    the exact input are rounded exactly (:func:`round32`); everything else is numpy float32,
    sums in ``order`` (one of :data:`ORDERS`). Returns every float intermediate (batch of one)."""
    import numpy as np

    _check_layer(layer)
    _check_label(net, label)
    if order not in ORDERS:
        raise ValueError(f"unknown summation order {order!r}; use one of {', '.join(ORDERS)}")
    inp = _layer_input(layer, net, x)
    first = {"W0": net.W0, "W1": net.W1, "W2": net.W2}[layer]
    prods = np.array([[[float(round32(inp[j] * first[j][k])) for k in range(len(first[0]))] for j in range(len(inp))]],
                     dtype=np.float32)
    names = {"W0": ("W0", "b0", "W1", "b1", "W2", "b2"), "W1": ("W1", "b1", "W2", "b2"), "W2": ("W2", "b2")}[layer]
    p: dict[str, Any] = {n: _f32(net.layer(n))[None] for n in names}
    key = {"W0": "x", "W1": "a0", "W2": "a1"}[layer]
    # the float input itself only enters through `prods` and `final`; keep a placeholder of the right shape
    p[key] = np.zeros((1, len(inp)), dtype=np.float32)
    p["label"] = np.array([int(label)])

    def final(c: Any) -> Any:
        return np.array([[[float(round32(inp[i] * Fraction(float(cj)))) for cj in c[0]] for i in range(len(inp))]],
                        dtype=np.float32)

    return float_pipeline(layer, p, order, products=prods, final=final)


@dataclass(frozen=True)
class Budget:
    """A per-entry bound ``eta`` on |float gradient − exact gradient|, valid when every
    hypothesis ``lhs < rhs`` holds; ``parts`` are the intermediate budgets, for display."""

    layer: str
    eta: Fraction
    hypotheses: tuple[Hypothesis, ...]
    parts: tuple[tuple[str, Fraction], ...]

    @property
    def holds(self) -> bool:
        """Every hypothesis holds (exact comparison)."""
        return all(h.holds for h in self.hypotheses)


def exact_scalars(net: mlp.Mlp, x: Sequence[Any]) -> Scalars:
    """The instance quantities, exactly, from the exact forward pass (no kink check)."""
    fw = mlp.forward(net, [_exact(v) for v in x], mlp.relu_positive)

    def amax(rows: Any) -> Fraction:
        flat = [abs(v) for r in rows for v in (r if isinstance(r, (tuple, list)) else (r,))]
        return max(flat, default=Fraction(0))

    return Scalars(
        dims=net.dims, x=amax(fw.x), a0=amax(fw.a0), a1=amax(fw.a1),
        w0=amax(net.W0), w1=amax(net.W1), w2=amax(net.W2),
        b0=amax(net.b0), b1=amax(net.b1), b2=amax(net.b2),
        spread=max(fw.logits) - min(fw.logits),
        zmin0=min(abs(v) for v in fw.z0), zmin1=min(abs(v) for v in fw.z1),
    )


def gradient_budget(layer: str, net: mlp.Mlp, x: Sequence[Any], label: int, fmt: Format = BINARY32) -> Budget:
    """The exact budget of :func:`float_gradient` at this instance (see the module docstring).

    ``eta`` bounds every entry of |float_gradient − exact gradient| provided every hypothesis
    holds (the rounding margins and the head conditions); check ``budget.holds``."""
    _check_layer(layer)
    _check_label(net, label)
    if len(x) != net.dims[0]:
        raise ValueError(f"input has {len(x)} entries, the network expects d0 = {net.dims[0]}")
    eta, hyps, parts = compose(layer, fmt, exact_scalars(net, x))
    return Budget(layer, Fraction(eta), hyps, tuple((n, Fraction(v)) for n, v in parts))
