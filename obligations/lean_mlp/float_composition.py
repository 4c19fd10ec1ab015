"""FloatBridge's budget composition (``lean_mlp.float.budget_compose``), for every fan-in and shape.

Each composed budget is what its stage bounds give: z3 proves the stage lemmas over ℝ (the
triangle inequality through the inputs' errors plus one rounding, for ``mulErr``), the induction
rule proves ``layerBudget``'s for every fan-in, sympy reduces the algebra behind γ
(u + (1+u)γₙ ≤ γₙ₊₁), eˣ ≤ 1/(1−x) and ``cotErr``'s ratio factor H to identities, and
:func:`composition_claims` shows that :func:`binary32.compose` — the function every numeric check
uses — is exactly the Lean nesting ``mulErr(…, layerBudget(…, cotErr(…)))`` with the forward
budgets E₀, E₁ as the rounding margins, at symbolic dims d₀…d₃. The grad-close proofs
(:mod:`.float_proofs`) reuse these claims.
"""

from __future__ import annotations

import functools
from typing import Any

from checker import Expect, Source, obligation
from checker.kernel.claims import claim
from checker.kernel.model import Verdict
from checker.kernel.sized import sized_claim
from checker.kernel.verdicts import all_of, timed, unknown
from obligations.lean_mlp import binary32 as b32

DOC4 = "004_8327de8ce09705d9.txt"


# =======================================================================================
# The budget composition, symbolically
# =======================================================================================

SYMBOLIC_DIMS = (3, 4, 5, 2)
"""A concrete shape, for tests that evaluate the composition; the theorem's identities are symbolic
in the dims."""


# ---------------------------------------------------------------------------------------
# The stage lemmas over ℝ (z3), layerBudget for every fan-in (induction)
# ---------------------------------------------------------------------------------------

_OPERANDS = {"|ã − a| ≤ ea": lambda o, v: o.le(o.abs(v.at - v.a), v.ea), "|a| ≤ A": lambda o, v: o.le(o.abs(v.a), v.A),
             "|c̃ − c| ≤ ec": lambda o, v: o.le(o.abs(v.ct - v.c), v.ec), "|c| ≤ C": lambda o, v: o.le(o.abs(v.c), v.C)}

PRODUCT_ERROR = claim(
    "lean_mlp.float.compose.product_error", "a at c ct A C ea ec",
    lambda o, v: o.le(o.abs(v.at * v.ct - v.a * v.c), v.ea * (v.C + v.ec) + v.A * v.ec), _OPERANDS)
"""|ã·c̃ − a·c| ≤ ea·(C + ec) + A·ec."""

PRODUCT_BOUND = claim(
    "lean_mlp.float.compose.product_bound", "a at c ct A C ea ec",
    lambda o, v: o.le(o.abs(v.at * v.ct), (v.A + v.ea) * (v.C + v.ec)), _OPERANDS)
"""|ã·c̃| ≤ (A + ea)·(C + ec)."""

MUL_STAGE = claim(
    "lean_mlp.float.compose.mul_err", "p q r A C ea ec u mu",
    lambda o, v: o.le(o.abs(v.r - v.q), v.A * v.ec + v.ea * (v.C + v.ec) + v.u * (v.A + v.ea) * (v.C + v.ec) + v.mu),
    {"operands: |p − q| ≤ ea·(C + ec) + A·ec (p = ã·c̃, q = a·c)": lambda o, v: o.le(o.abs(v.p - v.q),
                                                                                     v.ea * (v.C + v.ec) + v.A * v.ec),
     "|p| ≤ (A + ea)·(C + ec)": lambda o, v: o.le(o.abs(v.p), (v.A + v.ea) * (v.C + v.ec)),
     "u, μ ≥ 0": lambda o, v: o.and_(o.ge(v.u, 0), o.ge(v.mu, 0)),
     "one rounding: |r − p| ≤ u·|p| + μ": lambda o, v: o.le(o.abs(v.r - v.p), v.u * o.abs(v.p) + v.mu)})
"""mulErr: the triangle inequality through the operand errors and one rounding."""

TERM_ERROR = claim(
    "lean_mlp.float.compose.term_error", "x y W w e",
    lambda o, v: o.le(o.abs(v.y * v.W - v.x * v.W), v.w * v.e),
    {"|x̃ − x| ≤ e": lambda o, v: o.le(o.abs(v.y - v.x), v.e), "|W| ≤ w": lambda o, v: o.le(o.abs(v.W), v.w)})
"""|x̃·W − x·W| ≤ w·e."""

TERM_BOUND = claim(
    "lean_mlp.float.compose.term_bound", "x y W w e A",
    lambda o, v: o.le(o.abs(v.y * v.W), v.w * (v.A + v.e)),
    {"|x̃ − x| ≤ e": lambda o, v: o.le(o.abs(v.y - v.x), v.e), "|x| ≤ A": lambda o, v: o.le(o.abs(v.x), v.A),
     "|W| ≤ w": lambda o, v: o.le(o.abs(v.W), v.w)})
"""|x̃·W| ≤ w·(A + e)."""

LAYER_STAGE = sized_claim(
    "lean_mlp.float.compose.layer_budget", "n:nat[1,]", "p[n] q[n]",
    lambda o, v: o.le(o.abs(v.r - (o.sum(v.q) + v.bias)), v.n * v.M + v.g * (v.n * v.K + v.beta) + v.under),
    {"terms: |p_j − q_j| ≤ M (p = x̃_j·W_j, q = x_j·W_j)": lambda o, v: o.all(o.le(o.abs(v.p - v.q), v.M)),
     "|p_j| ≤ K": lambda o, v: o.all(o.le(o.abs(v.p), v.K)),
     "|bias| ≤ β": lambda o, v: o.le(o.abs(v.bias), v.beta), "γ ≥ 0": lambda o, v: o.ge(v.g, 0),
     "underflow ≥ 0": lambda o, v: o.ge(v.under, 0),
     "the γ lemma at x̃: |r − (Σp + bias)| ≤ γ·(Σ|p| + |bias|) + underflow": lambda o, v: o.le(
         o.abs(v.r - (o.sum(v.p) + v.bias)), v.g * (o.norm1(v.p) + o.abs(v.bias)) + v.under)},
    scalars="M K bias beta g under r")
"""layerBudget for every fan-in n: the γ lemma at the inexact input plus the input's error,
n·M + γ·(n·K + β) + underflow (M = w·e and K = w·(A + e) by the term lemmas, γ = γ_(n+1))."""


def _layer_invariant(o: Any, v: Any) -> Any:
    return o.and_(o.le(o.abs(o.sum(v.p) - o.sum(v.q)), v.n * v.M), o.ge(o.norm1(v.p), 0), o.le(o.norm1(v.p), v.n * v.K))


STAGES = (PRODUCT_ERROR, PRODUCT_BOUND, MUL_STAGE, TERM_ERROR, TERM_BOUND)


def _stage_proofs(ctx: Any) -> dict[str, Verdict]:
    from checker.backends import induction, smt

    parts = {c.name: smt.prove(c, ctx) for c in STAGES}
    parts[LAYER_STAGE.name] = induction.prove(LAYER_STAGE, "n", ctx, invariant=_layer_invariant)
    return parts


# ---------------------------------------------------------------------------------------
# The algebra (sympy): γ, eˣ ≤ 1/(1 − x), cotErr's ratio factor H
# ---------------------------------------------------------------------------------------


def _sym(*names: str, **assumptions: Any) -> Any:
    from checker.backends import symbolic

    return symbolic.sympy().symbols(" ".join(names), **assumptions)


def _gamma_step() -> Any:
    sp = symbolic_sympy()
    u, k = _sym("u", "k", nonnegative=True)
    gam = lambda n: n * u / (1 - n * u)  # noqa: E731
    return sp.together(gam(k + 1) - u - (1 + u) * gam(k) - (k + 1) * u**2 / ((1 - k * u) * (1 - (k + 1) * u)))


def _exp_derivative() -> Any:
    sp = symbolic_sympy()
    x = sp.Symbol("x", nonnegative=True)
    return sp.diff((1 - x) * sp.exp(x), x) + x * sp.exp(x)


def _exp_at_zero() -> Any:
    sp = symbolic_sympy()
    x = sp.Symbol("x", nonnegative=True)
    return ((1 - x) * sp.exp(x)).subs(x, 0) - 1


def _exp_factor() -> Any:
    sp = symbolic_sympy()
    eps = sp.Symbol("epsilon", nonnegative=True)
    y = sp.Symbol("y", positive=True)
    return sp.expand(y * ((1 - eps) / y - (2 - y * (1 + eps))) - (y - 1) * ((1 + eps) * y - (1 - eps)))


def _h_parts() -> tuple[Any, ...]:
    sp = symbolic_sympy()
    u, d = _sym("u", "delta", nonnegative=True)
    a_, g_ = _sym("alpha", "gamma", positive=True)
    big_h = (1 + a_) * (1 + u) / ((1 - 2 * d) * (1 - a_) * (1 - g_) * (1 - u))
    lower = (1 - 2 * d) * (1 - a_) * (1 - u) / ((1 + a_) * (1 + g_))
    gap = (1 - 2 * d) * (1 - a_) * (1 - u) / (1 + a_) * (1 / (1 + g_) - (1 - g_) / (1 + u))
    return sp, u, d, g_, big_h, lower, gap


def _h_lower() -> Any:
    sp, u, d, g_, big_h, lower, gap = _h_parts()
    return sp.together(lower - 1 / big_h - gap)


def _gamma_square() -> Any:
    sp, u, d, g_, *_ = _h_parts()
    return sp.together((1 + u) - (1 - g_) * (1 + g_) - (u + g_**2))


def _h_minus_one() -> Any:
    sp = symbolic_sympy()
    h = sp.Symbol("H", positive=True)
    return sp.together((h - 1) - (1 - 1 / h) - (h - 1) ** 2 / h)


def _cot_err_closing() -> Any:
    """cotErr(m, δ, G) = (H − 1) + μ + u·(H + μ) with γ_(m−1), for every number of classes m ≥ 1."""
    sp = symbolic_sympy()
    u, mu_, eps, d, G = _sym("u", "mu", "epsilon", "delta", "G", nonnegative=True)
    m = sp.Symbol("m", integer=True, positive=True)
    gam = lambda n, uu: n * uu / (1 - n * uu)  # noqa: E731
    fmt = b32.Format("symbolic", u, mu_, eps, gamma_rule=gam)
    one_alpha = (1 + eps) / (1 - u * G)
    hh = one_alpha * (1 + u) / ((1 - 2 * d) * (1 - (one_alpha - 1)) * (1 - gam(m - 1, u)) * (1 - u))
    return sp.together(b32.cot_err(fmt, m, d, G) - ((hh - 1) + mu_ + u * (1 + (hh - 1) + mu_)))


def symbolic_sympy() -> Any:
    from checker.backends import symbolic

    return symbolic.sympy()


def _zero(name: str, build: Any) -> Any:
    from checker.backends import symbolic

    return symbolic.zero_claim(f"lean_mlp.float.compose.{name}", build)


ALGEBRA = (
    _zero("gamma_step", _gamma_step),  # γ_(k+1) − u − (1+u)γ_k = (k+1)u²/((1 − ku)(1 − (k+1)u)) ≥ 0
    _zero("exp_derivative", _exp_derivative),  # d/dx[(1 − x)eˣ] = −x·eˣ ≤ 0 …
    _zero("exp_at_zero", _exp_at_zero),  # … and (1 − x)eˣ = 1 at 0: eˣ ≤ 1/(1 − x) on [0, 1)
    _zero("exp_factor", _exp_factor),  # (1 − ε)/y − (2 − y(1 + ε)) = (y − 1)((1 + ε)y − (1 − ε))/y ≥ 0, y ≥ 1
    _zero("h_lower", _h_lower),  # lower ratio − 1/H = (1−2δ)(1−α)(1−u)/(1+α)·(1/(1+γ) − (1−γ)/(1+u))
    _zero("gamma_square", _gamma_square),  # (1 + u) − (1 − γ)(1 + γ) = u + γ² ≥ 0
    _zero("h_minus_one", _h_minus_one),  # (H − 1) − (1 − 1/H) = (H − 1)²/H ≥ 0
    _zero("cot_err_closing", _cot_err_closing),  # cotErr = (H − 1) + μ + u·(H + μ), every m
)
"""The algebra behind γ, exp and cotErr's ratio factor H, as identities sympy reduces to 0 (the
inequalities each gives, from a sign of its factors, are read off by hand)."""


_M0, _M1 = "layer-0 rounding margin: E0 < min|z0|", "layer-1 rounding margin: E1 < min|z1|"
MARGINS = {"W2": (), "W1": (_M1,), "W0": (_M0, _M1)}
"""The rounding margins of each layer's Lean statement: its forward budgets E₀, E₁ below min|z|."""


@functools.lru_cache(maxsize=None)
def _composition(dims: tuple[Any, Any, Any, Any] | None = None) -> dict[str, tuple[Any, Any, dict, dict]]:
    """For each layer: compose()'s η (the function every numeric check uses), the Lean nesting of the
    named budgets, compose()'s rounding margins and the forward budgets they must be — at ``dims``,
    or (``None``) at symbolic dims d₀…d₃ (positive integers), so that one identity covers every
    shape. The other symbols carry no sign assumptions: each identity is one of rational functions,
    so it holds for every value where defined."""
    from checker.backends import symbolic

    sp = symbolic.sympy()
    if dims is None:
        dims = tuple(sp.symbols("d0 d1 d2 d3", integer=True, positive=True))
    names = "u mu epsilon X A0 A1 w0 w1 w2 beta0 beta1 beta2 s zmin0 zmin1"
    u, mu, eps, X, A0, A1, w0, w1, w2, be0, be1, be2, spread, zm0, zm1 = sp.symbols(names)
    fmt = b32.Format("symbolic", u, mu, eps, gamma_rule=lambda n, uu: n * uu / (1 - n * uu))
    d0, d1, d2, d3 = dims
    s = b32.Scalars(dims=dims, x=X, a0=A0, a1=A1, w0=w0, w1=w1, w2=w2, b0=be0, b1=be1, b2=be2,
                    spread=spread, zmin0=zm0, zmin1=zm1)
    mulErr = lambda a, c, ea, ec: b32.mul_err(fmt, a, c, ea, ec)  # noqa: E731
    layerBudget = lambda n, w, a, beta, e, bias=True: b32.layer_budget(fmt, n, w, a, beta, e, bias)  # noqa: E731
    cotErr = lambda m, dl: b32.cot_err(fmt, m, dl, spread + 2 * dl)  # noqa: E731
    layerAct = b32.layer_act
    # W₂: η = mulErr u a 1 0 (cotErr …)
    dl2 = layerBudget(d2, w2, A1, be2, 0)
    lean = {"W2": mulErr(A1, 1, 0, cotErr(d3, dl2))}
    # W₁: mulErr u a (layerAct …) 0 (layerBudget … (cotErr …)), the forward error E₁ feeding δ
    e1 = layerBudget(d1, w1, A0, be1, 0)
    dl1 = layerBudget(d2, w2, A1, be2, e1)
    lean["W1"] = mulErr(A0, layerAct(d3, w2, 1), 0, layerBudget(d3, w2, 1, 0, cotErr(d3, dl1), False))
    # W₀: mulErr … 0 (layerBudget … (layerBudget … (cotErr …)))
    e0 = layerBudget(d0, w0, X, be0, 0)
    e1b = layerBudget(d1, w1, A0, be1, e0)
    dl0 = layerBudget(d2, w2, A1, be2, e1b)
    c1 = layerAct(d3, w2, 1)
    lean["W0"] = mulErr(X, layerAct(d2, w1, c1), 0,
                        layerBudget(d2, w1, c1, 0, layerBudget(d3, w2, 1, 0, cotErr(d3, dl0), False), False))
    want = {"W2": {}, "W1": {_M1: e1}, "W0": {_M0: e0, _M1: e1b}}
    out = {}
    for layer in b32.LAYERS:
        eta, hyps, _ = b32.compose(layer, fmt, s)
        out[layer] = (eta, lean[layer], {h.name: h.lhs for h in hyps if "margin" in h.name}, want[layer])
    return out


def composition_claims(dims: tuple[Any, Any, Any, Any] | None = None) -> tuple[Any, ...]:
    """compose() is the Lean nesting, and its margins are the forward budgets, as identities sympy
    reduces to 0: for every shape (``dims`` None: symbolic dims), or at one shape."""
    from checker.backends import symbolic

    sp = symbolic.sympy
    where = "" if dims is None else "_at_" + "x".join(map(str, dims))
    out = []
    for layer in b32.LAYERS:
        out.append(symbolic.zero_claim(
            f"lean_mlp.float.compose.eta_{layer}{where}",
            lambda layer=layer: sp().together(_composition(dims)[layer][0] - _composition(dims)[layer][1])))
        for k, margin in enumerate(MARGINS[layer]):
            out.append(symbolic.zero_claim(
                f"lean_mlp.float.compose.margin_{layer}_{k}{where}",
                lambda layer=layer, margin=margin: sp().together(_composition(dims)[layer][2].get(margin, sp().nan)
                                                                 - _composition(dims)[layer][3][margin])))
    return tuple(out)


def margins_named(dims: tuple[Any, Any, Any, Any] | None = None) -> tuple[bool, Any]:
    """compose() states exactly the margins the Lean nesting has (by name): a precondition of the
    margin identities."""
    from checker.backends import symbolic

    with timed() as t:
        comp = _composition(dims)
        ok = all(set(comp[layer][2]) == set(comp[layer][3]) for layer in b32.LAYERS)
        return ok, t.step("symbolic", symbolic.version(), "compose() states the margins E₀ < min|z₀|, E₁ < min|z₁| of "
                          "the Lean nesting, and no other", "equal" if ok else "different")


def _composition_steps(dims: tuple[Any, Any, Any, Any] | None = None) -> list[tuple[bool, Any]]:
    """The composition identities as sympy steps (checks only; the proofs decide the claims)."""
    return [margins_named(dims)] + [c.step() for c in composition_claims(dims)]


COMPOSITION = composition_claims()
BUDGET_COMPOSE = (*STAGES, LAYER_STAGE, *ALGEBRA, *COMPOSITION)
"""The declared theorem of budget_compose: the stage lemmas (z3 over ℝ; layerBudget for every
fan-in by induction), the algebra of γ, exp and H (sympy), and compose() = the Lean nesting with
the forward budgets as margins, for every shape (sympy, symbolic dims)."""


def prove_budget_compose(ctx: Any) -> Verdict:
    from checker.backends import symbolic

    parts = _stage_proofs(ctx)
    parts.update({c.name: symbolic.decide(c, "sympy: the identity reduces to 0") for c in (*ALGEBRA, *COMPOSITION)})
    ok, step = margins_named()
    if not ok:
        return unknown("z3 + induction + sympy on the budget algebra", "compose()'s margins are not the Lean nesting's", step)
    return all_of("z3 (stage lemmas over ℝ), induction (layerBudget, every fan-in), sympy (identities, composition at "
                  "symbolic dims)", parts, lemmas=True)


@obligation(
    id="lean_mlp.float.budget_compose",
    source=Source(DOC4, "mlp_w1_grad_close / mlp_w0_grad_close: 'built from three reusable closes' (the budget composition)"),
    statement="The composed budgets are what the stage bounds give: each of mulErr, layerBudget and cotErr is the "
    "triangle inequality through its inputs' errors plus one stage of rounding (the γ lemma u + (1+u)γₙ ≤ γₙ₊₁, "
    "eˣ ≤ 1/(1−x), the softmax ratio sandwich), and the η of each layer is the Lean nesting "
    "mulErr(…, layerBudget(…, cotErr(…))) with the forward budgets E₀, E₁ as the rounding margins.",
    scope="every fan-in and every shape: the stage lemmas over ℝ (z3; layerBudget for every fan-in n by induction, with "
    "γ any non-negative constant, so γ_(n+1) in particular); the algebra of γ, exp and H as identities sympy reduces to 0 "
    "(cotErr's closing form for every number of classes m; the inequalities they give read off the signs of their "
    "factors by hand); compose() = the nested expression and its margins = the forward budgets, symbolically in u, μ, ε, "
    "every instance quantity and the dims d₀…d₃",
    expect=Expect.HOLDS,
    lean="FloatBridge.budget_compose",
    theorem=BUDGET_COMPOSE,
)
def budget_compose(ctx):
    """The budget composition ([budget_compose]). Assumptions: the standard model of each
    binary32 operation (|δ| ≤ u, underflow ≤ μ per product; these are what the other
    ``lean_mlp.float`` obligations prove and test on real float32), exp within ε relatively, the
    rounding margins (so the ReLU masks of the float and exact passes agree) and 2δ < 1, u·G < 1.
    Under them the error of each stage is bounded by the triangle inequality: z3 proves each
    stage lemma over ℝ (negation ``unsat``), the induction rule proves layerBudget's for every
    fan-in (the running sums of the terms and of their errors as accumulators), sympy reduces
    the algebraic identities behind γ, cotErr's ratio sandwich and e^x ≤ 1/(1−x) to 0, and sympy
    shows that the η that :func:`binary32.compose` computes (the function every numeric check
    uses) is exactly the nested expression of the Lean statements at symbolic dims d₀…d₃, hence at
    every shape. Every part is a kernel fact about a claim of the declared theorem."""
    return prove_budget_compose(ctx)
