"""FloatBridge's budget composition, symbolically (``lean_mlp.float.budget_compose``).

Each composed budget is what its stage bounds give: z3 proves the stage lemmas over ℝ (the
triangle inequality through the inputs' errors plus one rounding, for ``mulErr`` and for
``layerBudget`` at fan-in 1…4), sympy the algebra behind γ (u + (1+u)γₙ ≤ γₙ₊₁), eˣ ≤ 1/(1−x)
and ``cotErr``'s ratio factor H, and :func:`_composition_steps` shows that
:func:`binary32.compose` — the function every numeric check uses — is exactly the Lean nesting
``mulErr(…, layerBudget(…, cotErr(…)))`` with the forward budgets E₀, E₁ as the rounding margins.
The grad-close proofs (:mod:`.float_proofs`) reuse :func:`_composition_steps` at every shape of
their family.
"""

from __future__ import annotations

from typing import Any, Callable

from checker.kernel.model import Grade
from checker import Expect, Source, obligation
from checker.kernel.verdicts import timed, trusted, unknown
from obligations.lean_mlp import binary32 as b32

DOC4 = "004_8327de8ce09705d9.txt"


# =======================================================================================
# The budget composition, symbolically
# =======================================================================================

SYMBOLIC_DIMS = (3, 4, 5, 2)


def _z3_steps(t_factory: Callable[[], Any]) -> list[tuple[bool, Any]]:
    """The stage lemmas over ℝ (z3; negation ``unsat`` proves each)."""
    import z3

    from checker.backends import smt

    def ab(x: Any) -> Any:
        return z3.If(x >= 0, x, -x)

    R = z3.Reals
    a, at, c, ct, A, C, ea, ec, u, mu, r = R("a at c ct A C ea ec u mu r")
    x, y, W, w, e = R("x y W w e")
    checks: list[tuple[bool, Any]] = []

    def prove(what: str, hyp: Any, concl: Any) -> None:
        with t_factory() as t:
            s = z3.Solver()
            s.set("timeout", 20_000)
            s.add(hyp, z3.Not(concl))
            answer = s.check()
            checks.append((answer == z3.unsat, t.step("smt", smt.version(), f"z3: {what}", str(answer))))

    ops = z3.And(ab(at - a) <= ea, ab(a) <= A, ab(ct - c) <= ec, ab(c) <= C)
    prove("|ã·c̃ − a·c| ≤ ea·(C + ec) + A·ec", ops, ab(at * ct - a * c) <= ea * (C + ec) + A * ec)
    prove("|ã·c̃| ≤ (A + ea)·(C + ec)", ops, ab(at * ct) <= (A + ea) * (C + ec))
    # mulErr = the triangle inequality through the operand errors and one rounding
    p, q, m = R("p q m")  # p = ã·c̃, q = a·c, m = the operand-error bound
    prove("mulErr: |r − ac| ≤ A·ec + ea(C + ec) + u(A + ea)(C + ec) + μ from the stage bounds (linear)",
          z3.And(ab(p - q) <= m, m == ea * (C + ec) + A * ec, ab(p) <= (A + ea) * (C + ec), u >= 0, mu >= 0,
                 ab(r - p) <= u * ab(p) + mu),
          ab(r - q) <= A * ec + ea * (C + ec) + u * (A + ea) * (C + ec) + mu)
    prove("|x̃·W − x·W| ≤ w·e", z3.And(ab(y - x) <= e, ab(W) <= w), ab(y * W - x * W) <= w * e)
    prove("|x̃·W| ≤ w·(A + e)", z3.And(ab(y - x) <= e, ab(x) <= A, ab(W) <= w), ab(y * W) <= w * (A + e))
    # layerBudget = the triangle inequality through the input error and the γ lemma, fan-in 1…4,
    # with γ at its exact binary32 value; the product lemmas above enter as the atoms
    # M ≥ |x̃ⱼWⱼ − xⱼWⱼ| (M = w·e) and K ≥ |x̃ⱼWⱼ| (K = w·(A + e)), so the claim is linear
    big_m, big_k, bias, beta, under = R("M K bias beta under")
    for n in (1, 2, 3, 4):
        ps, qs = R(" ".join(f"p{j}" for j in range(n))), R(" ".join(f"q{j}" for j in range(n)))
        g = b32.gamma(n + 1)
        gq = z3.RealVal(f"{g.numerator}/{g.denominator}")
        hyp = z3.And(*[ab(ps[j] - qs[j]) <= big_m for j in range(n)], *[ab(ps[j]) <= big_k for j in range(n)],
                     ab(bias) <= beta, under >= 0,
                     ab(r - (sum(ps) + bias)) <= gq * (sum(ab(pj) for pj in ps) + ab(bias)) + under)
        concl = ab(r - (sum(qs) + bias)) <= n * big_m + gq * (n * big_k + beta) + under
        prove(f"layerBudget = n·w·e + γ_(n+1)·(n·w·(A + e) + β) + underflow from the γ lemma, fan-in {n}", hyp, concl)
    return checks


def _sympy_steps() -> list[tuple[bool, Any]]:
    from checker.backends import symbolic

    sp = symbolic.sympy()
    u, k, x, eps, d = sp.symbols("u k x epsilon delta", nonnegative=True)
    checks: list[tuple[bool, Any]] = []
    gam = lambda n: n * u / (1 - n * u)  # noqa: E731
    # Lemma 3.3: u + (1 + u)·γ_k ≤ γ_{k+1}: the difference times the (positive) denominators is k·u²·(…) ≥ 0
    diff = gam(k + 1) - u - (1 + u) * gam(k)
    checks.append(symbolic.zero_step(sp.together(diff - (k + 1) * u**2 / ((1 - k * u) * (1 - (k + 1) * u))),
                                     "γ_{k+1} − u − (1+u)γ_k = (k+1)u²/((1 − ku)(1 − (k+1)u)) ≥ 0 when (k+1)u < 1"))
    # e^x ≤ 1/(1 − x) on [0, 1): (1 − x)e^x has derivative −x·e^x ≤ 0 and value 1 at 0
    f = (1 - x) * sp.exp(x)
    checks.append(symbolic.zero_step(sp.diff(f, x) + x * sp.exp(x), "d/dx[(1 − x)eˣ] = −x·eˣ"))
    checks.append(symbolic.zero_step(f.subs(x, 0) - 1, "(1 − x)eˣ = 1 at x = 0"))
    # the exp/subtraction factor: e^{−uG}(1 − ε) ≥ 1 − α with 1 + α = e^{uG}(1 + ε): with y = e^{uG} ≥ 1,
    # y·[(1 − ε)/y − (2 − y(1 + ε))] = (y − 1)((1 + ε)y − (1 − ε))
    yv = sp.symbols("y", positive=True)
    checks.append(symbolic.zero_step(sp.expand(yv * ((1 - eps) / yv - (2 - yv * (1 + eps))) - (yv - 1) * ((1 + eps) * yv - (1 - eps))),
                                     "(1 − ε)/y − (2 − y(1 + ε)) = (y − 1)((1 + ε)y − (1 − ε))/y ≥ 0 for y ≥ 1"))
    # cotErr: with H as defined, 1/H ≤ the lower ratio, and H − 1 ≥ 1 − 1/H
    a_, g_, h = sp.symbols("alpha gamma H", positive=True)
    big_h = (1 + a_) * (1 + u) / ((1 - 2 * d) * (1 - a_) * (1 - g_) * (1 - u))
    lower = (1 - 2 * d) * (1 - a_) * (1 - u) / ((1 + a_) * (1 + g_))
    gap = (1 - 2 * d) * (1 - a_) * (1 - u) / (1 + a_) * (1 / (1 + g_) - (1 - g_) / (1 + u))
    checks.append(symbolic.zero_step(sp.together(lower - 1 / big_h - gap),
                                     "lower ratio − 1/H = (1−2δ)(1−α)(1−u)/(1+α)·(1/(1+γ) − (1−γ)/(1+u))"))
    checks.append(symbolic.zero_step(sp.together((1 + u) - (1 - g_) * (1 + g_) - (u + g_**2)),
                                     "(1 + u) − (1 − γ)(1 + γ) = u + γ² ≥ 0, so 1/(1+γ) ≥ (1−γ)/(1+u)"))
    checks.append(symbolic.zero_step(sp.together((h - 1) - (1 - 1 / h) - (h - 1) ** 2 / h), "(H − 1) − (1 − 1/H) = (H − 1)²/H ≥ 0"))
    # cotErr's closing step: (H−1)P + μ + u·(1 + (H−1) + μ) with P ≤ 1 is the formula
    mu_ = sp.symbols("mu", nonnegative=True)
    fmt = b32.Format("symbolic", u, mu_, eps, gamma_rule=lambda n, uu: n * uu / (1 - n * uu))
    G = sp.symbols("G", nonnegative=True)
    one_alpha = (1 + eps) / (1 - u * G)
    hh = one_alpha * (1 + u) / ((1 - 2 * d) * (1 - (one_alpha - 1)) * (1 - gam(3)) * (1 - u))
    checks.append(symbolic.zero_step(b32.cot_err(fmt, 4, d, G) - ((hh - 1) + mu_ + u * (1 + (hh - 1) + mu_)),
                                     "cotErr(4 classes) = (H − 1) + μ + u·(H + μ): softmax error, underflow, the −1's rounding"))
    return checks


def _composition_steps(dims: tuple[int, int, int, int] = SYMBOLIC_DIMS) -> list[tuple[bool, Any]]:
    """compose() (used for every number) equals the Lean-documented nesting of the named budgets.
    The symbols carry no sign assumptions: the identity is one of rational functions, so it holds
    for every value (and sympy does not query assumptions while building the large expressions)."""
    from checker.backends import symbolic

    sp = symbolic.sympy()
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
    checks = []
    for layer in b32.LAYERS:
        eta, hyps, _ = b32.compose(layer, fmt, s)
        checks.append(symbolic.zero_step(sp.together(eta - lean[layer]),
                                         f"compose({layer}) − the nested mulErr/layerBudget/cotErr expression = 0 (dims {dims})"))
        margins = {h.name: h.lhs for h in hyps if "margin" in h.name}
        want = {"W2": {}, "W1": {"layer-1 rounding margin: E1 < min|z1|": e1},
                "W0": {"layer-0 rounding margin: E0 < min|z0|": e0, "layer-1 rounding margin: E1 < min|z1|": e1b}}[layer]
        ok = set(margins) == set(want) and all(sp.simplify(margins[n] - want[n]) == 0 for n in want)
        with timed() as t:
            checks.append((ok, t.step("symbolic", symbolic.version(), f"the {layer} margins are the forward budgets E₀/E₁",
                                      "equal" if ok else "different")))
    return checks


@obligation(
    id="lean_mlp.float.budget_compose",
    source=Source(DOC4, "mlp_w1_grad_close / mlp_w0_grad_close: 'built from three reusable closes' (the budget composition)"),
    statement="The composed budgets are what the stage bounds give: each of mulErr, layerBudget and cotErr is the "
    "triangle inequality through its inputs' errors plus one stage of rounding (the γ lemma u + (1+u)γₙ ≤ γₙ₊₁, "
    "eˣ ≤ 1/(1−x), the softmax ratio sandwich), and the η of each layer is the Lean nesting "
    "mulErr(…, layerBudget(…, cotErr(…))) with the forward budgets E₀, E₁ as the rounding margins.",
    scope="stage lemmas universally over ℝ (z3; layerBudget for fan-in 1…4 with γ at its binary32 value); "
    "the algebra of γ, exp and H symbolically (sympy); compose() = the nested expression symbolically in u, μ, ε "
    "and every instance quantity, at dims 3×4×5×2",
    expect=Expect.HOLDS,
    lean="FloatBridge.budget_compose",
)
def budget_compose(ctx):
    """The budget composition ([budget_compose]). Assumptions: the standard model of each
    binary32 operation (|δ| ≤ u, underflow ≤ μ per product; these are what the other
    ``lean_mlp.float`` obligations test on real float32), exp within ε relatively, the rounding
    margins (so the ReLU masks of the float and exact passes agree) and 2δ < 1, u·G < 1.
    Under them the error of each stage is bounded by the triangle inequality: z3 proves each
    stage lemma over ℝ (negation ``unsat``), sympy reduces the algebraic identities behind γ,
    cotErr's ratio sandwich and e^x ≤ 1/(1−x) to 0, and sympy shows that the η that
    :func:`binary32.compose` computes (the function every numeric check uses) is exactly the
    nested expression of the Lean statements. The stage lemmas are raw z3 queries and the
    identities sympy steps outside any claim, so the whole is a trusted computation (the kernel's
    escape hatch, listed in the ledger), and no theorem is declared yet."""
    checks = _z3_steps(timed) + _sympy_steps() + _composition_steps()
    steps = [s for _, s in checks]
    failed = [s.action for ok, s in checks if not ok]
    if failed:
        return unknown("z3 + sympy on the budget algebra", "not reduced: " + "; ".join(failed), *steps)
    return trusted("z3 (stage lemmas over ℝ) + sympy (identities, composition)", *steps, grade=Grade.BOUNDED,
                  over="fan-in 1…4; dims 3×4×5×2", lemmas=len(checks))
