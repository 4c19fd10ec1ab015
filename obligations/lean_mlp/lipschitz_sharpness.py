"""How sharp the segment-Lipschitz constants of the Lean MLP development are (002/004).

The Lean constants are ``C = 2·d₃·w₂²·ρ²/(1 − 2·w₂·ρ·D)`` (hidden ρ = a, input ρ = d₂·w₁·a; see
:mod:`obligations.lean_mlp.lipschitz`). Their chain of lemmas has four links: the slot drift
(∑|ΔZ| ≤ ρ·t·‖e‖₁), the logit drift (δ ≤ w₂·∑|ΔZ|), the softmax contraction (each entry of
W₂ᵀ·Δsoftmax ≤ w₂·(e^{2δ} − 1)) and the frozen-mask gradient (row mass ρ). Replacing the softmax
link by its own tight first-order constant (‖Δsoftmax‖₁ ≤ δ, so W₂ᵀ·Δsoftmax ≤ w₂·δ) and dropping
the slack factor d₃ gives the best first-order constant C* = w₂²·ρ²; it is attained (an exact
first-order witness), and C/C* = 2·d₃/(1 − 2·w₂·ρ·D) exactly. A family of concrete segments with
t → 0 shows drift/(t·D) approaching C* at real networks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from checker import Expect, Source, obligation
from checker.backends import exact, interval, smt, symbolic
from checker.claims import Claim, claim
from checker.kernel.verdicts import all_of, with_data
from obligations.lean_mlp import lipschitz
from obligations.lean_mlp.lipschitz import HIDDEN, INPUT, LIP_DIMS, LIP_SHAPE, Slot, segment_claim

DOC = "002_9648822bf1d4473c.txt"
DOC4 = "004_8327de8ce09705d9.txt"
_D0, _D1, _D2, _D3 = LIP_DIMS


def _v(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]


def _sum(xs: Any, zero: Any) -> Any:
    return sum(xs, start=0 * zero)


def best_hidden_constant(d2: int, d3: int, w1: Any, w2: Any, a: Any, D: Any) -> Any:
    """C* = w₂²·a² (ρ = a): the best first-order constant of the hidden layer."""
    return w2 * w2 * a * a


def best_input_constant(d2: int, d3: int, w1: Any, w2: Any, a: Any, D: Any) -> Any:
    """C* = d₂²·w₁²·w₂²·a² (ρ = d₂·w₁·a): the best first-order constant of the input layer."""
    return d2 * d2 * w1 * w1 * w2 * w2 * a * a


# --- (a) the softmax link at its own first-order constant, and the first-order chain -----------
#
# First order in t, Δsoftmax_k = p_k·(u_k − ū)·(1 + O(t)) for a logit drift u with ‖u‖∞ ≤ δ and
# ū = ∑ p_k·u_k. The links below bound ∑_k p_k·|u_k − ū| ≤ δ (the Lean route's ratio sandwich gives
# 2δ: it bounds each |Δp_k| by p_k·(e^{2δ} − 1) and forgets that the Δp_k sum to 0).

def softmax_mean_claim(d3: int) -> Claim:
    """|u_k| ≤ δ, p in the simplex ⇒ |ū| ≤ δ for ū = ∑ p_k·u_k."""
    p, u = _v("p", d3), _v("u", d3)
    return claim(
        f"first-order-mean-{d3}", ["delta", *p, *u],
        lambda o, v: o.le(o.abs(_sum((v[q] * v[x] for q, x in zip(p, u)), v.delta)), v.delta),
        hypotheses={
            "simplex": lambda o, v: o.and_(*(o.ge(v[q], 0) for q in p), o.eq(_sum((v[q] for q in p), v.delta), 1)),
            "logit_drift_bound": lambda o, v: o.and_(*(o.le(o.abs(v[x]), v.delta) for x in u)),
        },
    )


SOFTMAX_COORDINATE = claim(
    "first-order-softmax-coordinate", ["delta", "p", "u", "ubar"],
    lambda o, v: o.le(v.delta * v.p * o.abs(v.u - v.ubar), v.p * v.delta * v.delta - v.ubar * v.p * v.u),
    hypotheses={"p_nonnegative": lambda o, v: o.ge(v.p, 0),
                "logit_drift_bound": lambda o, v: o.le(o.abs(v.u), v.delta),
                "mean_bound (first-order-mean)": lambda o, v: o.le(o.abs(v.ubar), v.delta)},
)


def softmax_total_variation_claim(d3: int) -> Claim:
    """r_k = p_k·|u_k − ū| with δ·r_k ≤ p_k·δ² − ū·p_k·u_k (the coordinate link) ⇒ ∑ r_k ≤ δ."""
    p, u, r = _v("p", d3), _v("u", d3), _v("r", d3)
    return claim(
        f"first-order-softmax-l1-{d3}", ["delta", "ubar", *p, *u, *r],
        lambda o, v: o.le(v.delta * _sum((v[x] for x in r), v.delta), v.delta * v.delta),
        hypotheses={
            "delta_positive": lambda o, v: o.gt(v.delta, 0),
            "simplex": lambda o, v: o.and_(*(o.ge(v[q], 0) for q in p), o.eq(_sum((v[q] for q in p), v.delta), 1)),
            "mean": lambda o, v: o.eq(v.ubar, _sum((v[q] * v[x] for q, x in zip(p, u)), v.delta)),
            "coordinate (first-order-softmax-coordinate)": lambda o, v: o.and_(
                *(o.le(v.delta * v[x], v[q] * v.delta * v.delta - v.ubar * v[q] * v[y]) for x, q, y in zip(r, p, u))),
        },
    )


def head_contraction_claim(d3: int) -> Claim:
    """|W₂_lk| ≤ w₂, ∑_k |Δp_k| ≤ m ⇒ |∑_k W₂_lk·Δp_k| ≤ w₂·m (an entry of W₂ᵀ·Δsoftmax)."""
    dp, W = _v("dp", d3), _v("W", d3)
    return claim(
        f"first-order-head-contraction-{d3}", ["w2", "m", *dp, *W],
        lambda o, v: o.le(o.abs(_sum((v[w] * v[d] for w, d in zip(W, dp)), v.m)), v.w2 * v.m),
        hypotheses={"w2_bounds": lambda o, v: o.and_(*(o.le(o.abs(v[w]), v.w2) for w in W)),
                    "l1_mass": lambda o, v: o.le(_sum((o.abs(v[d]) for d in dp), v.m), v.m)},
    )


def first_order_gradient_claim(d2: int) -> Claim:
    """Frozen masks, row mass ∑|J_l| ≤ ρ, |S_l| ≤ σ ⇒ |∑_l J_l·m_l·S_l| ≤ ρ·σ."""
    J, m, S = _v("J", d2), _v("m", d2), _v("S", d2)
    return claim(
        f"first-order-gradient-contraction-{d2}", ["rho", "sigma", *J, *m, *S],
        lambda o, v: o.le(o.abs(_sum((v[j] * v[k] * v[s] for j, k, s in zip(J, m, S)), v.rho)), v.rho * v.sigma),
        hypotheses={"S_bounds": lambda o, v: o.and_(*(o.le(o.abs(v[s]), v.sigma) for s in S)),
                    "frozen_masks": lambda o, v: o.and_(*(o.or_(o.eq(v[k], 0), o.eq(v[k], 1)) for k in m)),
                    "row_mass": lambda o, v: o.le(_sum((o.abs(v[j]) for j in J), v.rho), v.rho)},
    )


FIRST_ORDER_CHAIN = claim(
    "first-order-gradient-drift", ["rho", "w2", "t", "D", "delta", "sigma", "g"],
    lambda o, v: o.le(o.abs(v.g), v.w2 * v.w2 * v.rho * v.rho * v.t * v.D),
    hypotheses={
        "bounds_nonnegative": lambda o, v: o.and_(o.ge(v.rho, 0), o.ge(v.w2, 0)),
        "logit_drift (slot-logit-drift)": lambda o, v: o.and_(o.ge(v.delta, 0), o.le(v.delta, v.w2 * v.rho * v.t * v.D)),
        "softmax link (first-order-softmax-l1 + head contraction)": lambda o, v: o.le(v.sigma, v.w2 * v.delta),
        "gradient (first-order-gradient-contraction)": lambda o, v: o.le(o.abs(v.g), v.rho * v.sigma),
    },
)

SOFTMAX_LINKS = (softmax_mean_claim(_D3), SOFTMAX_COORDINATE, softmax_total_variation_claim(_D3),
                 head_contraction_claim(_D3), first_order_gradient_claim(_D2), FIRST_ORDER_CHAIN)


# --- the first-order derivative of a gradient entry, and its attainment ---------------------


def _hidden_derivative(v: Any) -> Any:
    """d/dt at t = 0 of ∂L/∂W₁_00 along W₁ + t·e, frozen masks m, softmax p (Jacobian diag p − ppᵀ)."""
    dz = [_sum((v[f"a0_{i}"] * v[f"e_{i}_{l}"] for i in range(_D1)), v.a) for l in range(_D2)]
    u = [_sum((v[f"W2_{l}_{k}"] * v[f"m{l}"] * dz[l] for l in range(_D2)), v.a) for k in range(_D3)]
    ubar = _sum((v[f"p{k}"] * u[k] for k in range(_D3)), v.a)
    s0 = _sum((v[f"W2_0_{k}"] * v[f"p{k}"] * (u[k] - ubar) for k in range(_D3)), v.a)
    return v.a0_0 * v.m0 * s0


def _input_derivative(v: Any) -> Any:
    """d/dt at t = 0 of ∂L/∂W₀_00 along W₀ + t·e, frozen masks n (layer 0) and m (layer 1)."""
    da0 = [v[f"n{j}"] * _sum((v[f"x{i}"] * v[f"e_{i}_{j}"] for i in range(_D0)), v.a) for j in range(_D1)]
    dz1 = [_sum((da0[j] * v[f"W1_{j}_{l}"] for j in range(_D1)), v.a) for l in range(_D2)]
    u = [_sum((v[f"W2_{l}_{k}"] * v[f"m{l}"] * dz1[l] for l in range(_D2)), v.a) for k in range(_D3)]
    ubar = _sum((v[f"p{k}"] * u[k] for k in range(_D3)), v.a)
    S = [_sum((v[f"W2_{l}_{k}"] * v[f"p{k}"] * (u[k] - ubar) for k in range(_D3)), v.a) for l in range(_D2)]
    return v.x0 * v.n0 * _sum((v[f"W1_0_{l}"] * v[f"m{l}"] * S[l] for l in range(_D2)), v.a)


def _entries(o: Any, v: Any, names: list[str], bound: Any) -> Any:
    return o.and_(*(o.le(o.abs(v[n]), bound) for n in names))


def attainment_claim(layer: str) -> Claim:
    """∃ a network state with every bound hypothesis, an open-simplex softmax p and frozen 0/1 masks
    where the first-order drift |d∇₀₀/dt| of gradient entry 00 equals C*·‖e‖₁ > 0."""
    hidden = layer == "W1"
    es = [f"e_{i}_{j}" for i in range(_D1 if hidden else _D0) for j in range(_D2 if hidden else _D1)]
    W2 = [f"W2_{l}_{k}" for l in range(_D2) for k in range(_D3)]
    W1 = [f"W1_{j}_{l}" for j in range(_D1) for l in range(_D2)]
    inputs = _v("a0_", _D1) if hidden else _v("x", _D0)
    masks = _v("m", _D2) + ([] if hidden else _v("n", _D1))
    p = _v("p", _D3)
    best = best_hidden_constant if hidden else best_input_constant
    derivative = _hidden_derivative if hidden else _input_derivative

    def bound(o, v):
        return best(_D2, _D3, v.w1, v.w2, v.a, v.D) * _sum((o.abs(v[e]) for e in es), v.a)

    return claim(
        f"{'hidden' if hidden else 'input'}-first-order-constant-attained",
        ["a", "w1", "w2", "D", *inputs, *es, *([] if hidden else W1), *W2, *masks, *p],
        lambda o, v: o.and_(o.eq(o.abs(derivative(v)), bound(o, v)), o.gt(bound(o, v), 0)),
        hypotheses={
            "input_bounds": lambda o, v: _entries(o, v, inputs, v.a),
            **({} if hidden else {"w1_bounds": lambda o, v: _entries(o, v, W1, v.w1)}),
            "w2_bounds": lambda o, v: _entries(o, v, W2, v.w2),
            "step_radius": lambda o, v: o.le(_sum((o.abs(v[e]) for e in es), v.a), v.D),
            "masks": lambda o, v: o.and_(*(o.or_(o.eq(v[m], 0), o.eq(v[m], 1)) for m in masks)),
            "open_simplex (softmax of some logits)": lambda o, v: o.and_(
                *(o.gt(v[q], 0) for q in p), o.eq(_sum((v[q] for q in p), v.a), 1)),
        },
        terms={"derivative": lambda o, v: derivative(v), "bound": bound},
    )


def _witness(layer: str) -> dict[str, Fraction]:
    """The extremal configuration: one moving entry under the largest input, the W₂ rows a ±w₂
    pattern u, and a softmax splitting its mass evenly between u = +1 and u = −1 (p = (1/2, 1/4, 1/4))."""
    F = Fraction
    point: dict[str, Fraction] = {"a": F(3, 2), "w1": F(1, 2), "w2": F(2), "D": F(1, 8)}
    row = (F(2), F(-2), F(-2))
    point.update({f"W2_{l}_{k}": row[k] for l in range(_D2) for k in range(_D3)})
    point.update({f"p{k}": x for k, x in enumerate((F(1, 2), F(1, 4), F(1, 4)))})
    point.update({f"m{l}": F(1) for l in range(_D2)})
    if layer == "W1":
        point.update({"a0_0": F(3, 2), "a0_1": F(1), "a0_2": F(-1, 2)})
        point.update({f"e_{i}_{j}": F(0) for i in range(_D1) for j in range(_D2)})
        point["e_0_0"] = F(1, 8)
    else:
        point.update({"x0": F(-3, 2), "x1": F(1)})
        point.update({f"n{j}": F(1) for j in range(_D1)})
        point.update({f"W1_{j}_{l}": F(1, 4) for j in range(_D1) for l in range(_D2)})
        point.update({"W1_0_0": F(1, 2), "W1_0_1": F(1, 2)})
        point.update({f"e_{i}_{j}": F(0) for i in range(_D0) for j in range(_D1)})
        point["e_0_0"] = F(-1, 8)
    return point


ATTAINMENT = {layer: attainment_claim(layer) for layer in ("W1", "W0")}

LEAN_OVER_BEST = claim(
    "lean-constant-over-best", ["w2", "rho", "D"],
    lambda o, v: o.eq(lipschitz.slot_constant(_D3, v.w2, v.rho, v.D),
                      (2 * _D3 / (1 - 2 * v.w2 * v.rho * v.D)) * (v.w2 * v.w2 * v.rho * v.rho)),
    hypotheses={"small_step": lambda o, v: o.lt(2 * v.w2 * v.rho * v.D, 1)},
)


def _ratio_steps() -> list:
    """C/C* = 2·d₃/(1 − 2·w₂·ρ·D) for both layers; the ratio sandwich's first-order factor is 2."""
    sp = symbolic.sympy()
    a, w1, w2, D, y = sp.symbols("a w1 w2 D y", positive=True)
    steps = []
    for name, lean, best, rho in (("hidden", lipschitz.hidden_constant, best_hidden_constant, a),
                                  ("input", lipschitz.input_constant, best_input_constant, _D2 * w1 * a)):
        ratio = lean(_D2, _D3, w1, w2, a, D) / best(_D2, _D3, w1, w2, a, D)
        steps.append(symbolic.zero_step(sp.simplify(ratio - 2 * _D3 / (1 - 2 * w2 * rho * D)),
                                        f"C_{name}/C*_{name} − 2·d₃/(1 − 2·w₂·ρ·D)"))
    steps.append(symbolic.limit_step((sp.exp(2 * y) - 1) / y, y, 0, 2,
                                     "(e^{2δ} − 1)/δ → 2: the ratio sandwich's first-order factor", direction="+"))
    return steps


@obligation(
    id="lean_mlp.grad_lipschitz_best_constant",
    source=Source(DOC, "mlp_hidden_loss_grad_lipschitz / mlp_input_loss_grad_lipschitz (the explicit constants)"),
    statement="At first order in the step, the chain of lemmas behind the Lean constants allows C* = w₂²·ρ² (hidden "
    "ρ = a: w₂²·a²; input ρ = d₂·w₁·a: d₂²·w₁²·w₂²·a²), each link at its own tight constant; C* is attained, and the "
    "Lean constant is C = (2·d₃/(1 − 2·w₂·ρ·D))·C*: loose by the factor 2·d₃ = 6 at first order.",
    scope=f"{LIP_SHAPE}: the first-order links over every real value (z3), attainment by one exact witness per layer, "
    "the ratio symbolically (sympy)",
    expect=Expect.OPEN,
    lean="SgdDescentMlp.grad_lipschitz_best_constant",
    uses=("lean_mlp.mlp_hidden_loss_grad_lipschitz", "lean_mlp.mlp_input_loss_grad_lipschitz",
          "lean_mlp.mlp_slot_loss_grad_lipschitz"),
    claims=(*SOFTMAX_LINKS, *ATTAINMENT.values(), LEAN_OVER_BEST),
)
def grad_lipschitz_best_constant(ctx):
    """The referee's question: how loose are the stated constants? First order in t the gradient
    drift of a frozen-mask segment is J·m·W₂ᵀ·(diag p − ppᵀ)·u·t with u = W₂ᵀ·(m∘ΔZ)/t. The Lean
    chain bounds it link by link: ∑|ΔZ| ≤ ρ·t·‖e‖₁ (tight), δ = ‖u‖∞ ≤ w₂·∑|ΔZ| (tight), each entry
    of W₂ᵀΔp ≤ w₂·(e^{2δ} − 1) ≈ 2·w₂·δ (the ratio sandwich, loose by 2: it ignores ∑Δp = 0), the
    row mass ρ (tight), then a spare factor d₃ and the factor 1/(1 − 2·w₂·ρ·D) from
    e^{2δ} − 1 ≤ 2δ/(1 − 2δ). The softmax link at its own constant: |ū| ≤ δ, the convexity bound
    δ·p·|u − ū| ≤ p·(δ² − ū·u) per coordinate, their sum ∑p_k|u_k − ū| ≤ (δ² − ū²)/δ ≤ δ, and the
    head contraction w₂; composed with the tight links this gives |Δ∇| ≤ w₂²·ρ²·t·D (z3 on each
    link over every real value at d₂ = 2, d₃ = 3; the first-order reading of Δp is the derivative
    of the softmax, not machine-checked). Attainment: an exact configuration per layer (inputs at
    ±a, one moving entry, W₂ rows a ±w₂ pattern, p = (1/2, 1/4, 1/4) — a softmax of real logits)
    where the first-order drift of one entry equals C*·‖e‖₁ exactly; since every link bound is
    then an equality, each link is tight there. The ratio C/C* = 2·d₃/(1 − 2·w₂·ρ·D) is exact
    (sympy). Finding: the constants are valid but loose by 2·d₃ = 6 at first order (the README's
    "about 2·d₃"), and more at large steps.

    Survives mutation: o.le(_sum((o.abs(v[d]) for d in dp), v.m), v.m): a strict l1_mass hypothesis is a stronger premise; the head contraction stays true
    Survives mutation: o.and_(o.ge(v.rho, 0), o.ge(v.w2, 0)): strict bounds are a stronger premise; the chain stays true
    """
    parts = {c.name: smt.prove(c, ctx) for c in SOFTMAX_LINKS}
    for layer, c in ATTAINMENT.items():
        parts[c.name] = exact.check_instance(c, _witness(layer), "the extremal configuration")
    parts[LEAN_OVER_BEST.name] = smt.prove(LEAN_OVER_BEST, ctx)
    parts["C/C* = 2·d₃/(1 − 2·w₂·ρ·D) (sympy)"] = symbolic.conclude("sympy", _ratio_steps())
    v = all_of("z3 first-order links + exact attainment + sympy ratio", parts, family=LIP_SHAPE, lemmas=True)
    return with_data(v, best_hidden="w₂²·a²", best_input="d₂²·w₁²·w₂²·a²", lean_over_best="2·d₃/(1 − 2·w₂·ρ·D)",
                     first_order_looseness=2 * _D3)


# --- (c) a witness family of concrete segments, t → 0 -------------------------------------------


FAMILY_SIZE = 6
FAMILY_PREC = 120


@dataclass(frozen=True, slots=True)
class Member:
    """One segment of the family: its exact point and the lower bound it is checked against."""

    n: int
    point: dict[str, Fraction]
    lower: Fraction


def _family_point(slot: Slot, n: int) -> dict[str, Fraction]:
    """Member n: t = D/D₀ = 2⁻ⁿ, logits (q_n, 0, 0) + const with q_n = log 2 rounded to n + 4 bits
    (p → (1/2, 1/4, 1/4)), one moving entry under the largest input, W₂ rows (1, −1, −1)."""
    F = Fraction
    d0, d1, d2, d3 = slot.dims
    q = F(round(math.log(2) * (1 << (n + 4))), 1 << (n + 4))
    point = {f"W2_{l}_{k}": F(1) if k == 0 else F(-1) for l in range(d2) for k in range(d3)}
    point.update({"x_0": F(1), "x_1": F(-1), "b2_0": q - 2, "b2_1": F(2), "b2_2": F(2)})
    point.update({f"b1_{l}": F(0) for l in range(d2)})
    if slot.layer == "W1":
        point.update({f"W0_0_{j}": F(1, 2) for j in range(d1)})
        point.update({f"W0_1_{j}": F(-1, 2) for j in range(d1)})
        point.update({f"b0_{j}": F(0) for j in range(d1)})
        point.update({f"W1_{j}_{l}": F(0) for j in range(d1) for l in range(d2)})
        point.update({f"b1_{l}": F(1) for l in range(d2)})
        D, w1 = F(1, 4) / (1 << n), F(0)
    else:
        point.update({f"W0_{i}_{j}": F(0) for i in range(d0) for j in range(d1)})
        point.update({f"b0_{j}": F(1) for j in range(d1)})
        point.update({f"W1_{j}_{l}": F(1) if j == 0 else F(0) for j in range(d1) for l in range(d2)})
        D, w1 = F(1, 8) / (1 << n), F(1)
    rows, cols = slot.moving_shape
    point.update({f"e_{i}_{j}": F(0) for i in range(rows) for j in range(cols)})
    point["e_0_0"] = D
    point.update({"D": D, "a": F(1), "w1": w1, "w2": F(1), "t": F(1, 1 << n)})
    return point


def member_claim(slot: Slot, n: int, lower: Fraction) -> Claim:
    """The segment satisfies every hypothesis of the Lean lemma, and drift ≥ lower·C*·t·D."""
    best = best_hidden_constant if slot.layer == "W1" else best_input_constant
    base = segment_claim(slot, 0, best)
    hyps = base.hypotheses
    terms = {t.name: t.formula for t in base.terms}

    def conclusion(o, v):
        return o.and_(*(h.formula(o, v) for h in hyps), o.ge(terms["drift"](o, v), lower * terms["bound"](o, v)))

    return claim(f"{base.name}-approaches-best-n{n}", base.variables, conclusion, terms=terms)


def family(slot: Slot) -> list[Member]:
    """Members n = 1…FAMILY_SIZE, each with the lower bound 1 − 2^{−(2n+6)}."""
    return [Member(n, _family_point(slot, n), 1 - Fraction(1, 1 << (2 * n + 6))) for n in range(1, FAMILY_SIZE + 1)]


def family_verdict(slot: Slot) -> Any:
    parts, ratios = {}, []
    lean = lipschitz.hidden_constant if slot.layer == "W1" else lipschitz.input_constant
    for m in family(slot):
        c = member_claim(slot, m.n, m.lower)
        parts[f"n = {m.n}"] = interval.prove_on(c, m.point, FAMILY_PREC, where=f"at member n = {m.n}")
        _, _, _, terms = interval.decide(c, m.point, FAMILY_PREC)
        p = m.point
        c_lean = lean(slot.dims[2], slot.dims[3], p["w1"], p["w2"], p["a"], p["D"]) * p["t"] * p["D"]
        best = terms["bound"]
        ratios.append({"n": m.n, "t": str(p["t"]), "D": str(p["D"]),
                       "drift/(C*·t·D) ≥": round(float(terms["drift"].lo / best.hi), 10),
                       "drift/(C·t·D) ≥": round(float(terms["drift"].lo / c_lean), 6)})
    v = all_of("rigorous intervals at each member", parts)
    return with_data(v, members=ratios)


@obligation(
    id="lean_mlp.grad_lipschitz_witness_family",
    source=Source(DOC4, "mlp_hidden_loss_grad_lipschitz / mlp_input_loss_grad_lipschitz (the explicit constants)"),
    statement="A family of concrete segments (t = 2⁻ⁿ, D ∝ 2⁻ⁿ, logits tending to a softmax (1/2, 1/4, 1/4)), each "
    "satisfying every hypothesis of the Lean lemma, has drift/(t·D) ≥ (1 − 2^{−(2n+6)})·C*: the best first-order "
    "constant is approached at real networks, and drift/(C·t·D) tends to 1/(2·d₃) = 1/6.",
    scope=f"{LIP_SHAPE}, n = 1…{FAMILY_SIZE} for each layer, rigorous intervals ({FAMILY_PREC} bits) at each exact "
    "segment",
    expect=Expect.OPEN,
    lean="SgdDescentMlp.grad_lipschitz_witness_family",
    uses=("lean_mlp.grad_lipschitz_best_constant",),
)
def grad_lipschitz_witness_family(ctx):
    """Each member is an exact segment at d = (2,3,2,3): the hidden (W₁) family has a₀ = (1, 1, 1),
    z₁ = (1, 1), W₂ rows (1, −1, −1) and e = D at W₁₀₀; the input (W₀) family has x = (1, −1),
    z₀ = (1, 1, 1), W₁ row 0 = (1, 1), e = D at W₀₀₀. In both b₂ puts the logits at (q_n, 0, 0) + c
    with q_n → log 2, so the softmax tends to (1/2, 1/4, 1/4), and t = 2⁻ⁿ, D = D₀·2⁻ⁿ. At each
    member the rigorous enclosure decides that every hypothesis of the Lean lemma holds (margins,
    small step, bounds: a, w₁, w₂ are the tight ones) and that the largest gradient-entry drift
    is ≥ (1 − 2^{−(2n+6)})·C*·t·D; the certificate lists the certified lower bounds of drift/(C*·t·D)
    (→ 1) and of drift/(C·t·D) (→ 1/6). Finitely many members: instances, not a limit proof.

    Survives mutation: o.ge(terms["drift"](o, v), lower * terms["bound"](o, v)): every member's certified drift lies strictly above its stated lower bound (0.99887 > 1 − 2⁻⁸ at n = 1), so the strict form holds too
    """
    return all_of("both layers", {"hidden (W₁)": family_verdict(HIDDEN), "input (W₀)": family_verdict(INPUT)})
