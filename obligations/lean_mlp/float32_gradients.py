"""FloatBridge's three grad-closes checked against real numpy float32: the binary32 gradient of
the output (W₂, ``linear_grad_close``), hidden (W₁, ``mlp_w1_grad_close``) and input layer (W₀,
``mlp_w0_grad_close``) within the budget η that :func:`binary32.compose` composes, on seeded
sub-networks (random shapes up to 24×32×16×10, near-kink margins, cancelling W₂ rows, fan-in
256 into each layer), in every summation order of :data:`binary32.ORDERS`.

The exact side is a float64 reference whose own error is bounded by the same composition at
u = 2⁻⁵³ (spot-checked exactly), with the exact re-check of :mod:`.float_screen` (Fractions,
``arb`` exp) near the budget. Evidence only: ``supported``, or ``refuted`` with an exactly
re-checked witness. The proofs of the grad-closes are in :mod:`.float_proofs`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from checker import Expect, Source, obligation
from checker.kernel.model import Verdict
from checker.kernel.verdicts import refuted, supported, timed, unknown
from obligations.lean_mlp import binary32 as b32
from obligations.lean_mlp import mlp
from obligations.lean_mlp.float_screen import (SLACK, Violation, _err_interval, _fr, _limited, _np, _run,
                                               _sampling_version, _screen, _vec)

DOC4 = "004_8327de8ce09705d9.txt"


# =======================================================================================
# The grad-closes: linear_grad_close (W₂), mlp_w1_grad_close, mlp_w0_grad_close
# =======================================================================================

GRAD_INPUT = {"W0": "x", "W1": "a0", "W2": "a1"}
GRAD_PARAMS = {"W0": ("W0", "b0", "W1", "b1", "W2", "b2"), "W1": ("W1", "b1", "W2", "b2"), "W2": ("W2", "b2")}


@dataclass(frozen=True)
class GradFamily:
    name: str
    dims: tuple[int, int, int, int]
    count: int


GRAD_FAMILIES = (
    GradFamily("random", (6, 10, 8, 4), 4_000),
    GradFamily("random", (3, 4, 3, 2), 4_000),
    GradFamily("random", (24, 32, 16, 10), 600),
    GradFamily("near kink", (6, 10, 8, 4), 2_000),
    GradFamily("cancellation", (6, 10, 8, 4), 2_000),
    GradFamily("large fan-in", (256, 8, 8, 4), 32),  # fan-in 256 into z₀
    GradFamily("large fan-in", (16, 256, 8, 4), 32),  # fan-in 256 into z₁
    GradFamily("large fan-in", (16, 8, 256, 10), 32),  # fan-in 256 into the logits
)


def _grad_batch(rng: Any, layer: str, fam: GradFamily) -> dict[str, Any]:
    """A batch of sub-networks for ``layer``: its exact input (binary32) and the weights above it."""
    np = _np()
    n = fam.count
    d = fam.dims
    p: dict[str, Any] = {}
    for i in range(3):
        p[f"W{i}"] = (rng.normal(size=(n, d[i], d[i + 1])) / np.sqrt(d[i])).astype(np.float32)
        p[f"b{i}"] = (rng.normal(size=(n, d[i + 1])) * 0.1).astype(np.float32)
    if fam.name == "cancellation":  # W₂ rows nearly constant: W₂ᵀ(softmax − onehot) cancels
        p["W2"] = (p["W2"][:, :, :1] * (1 + rng.normal(size=p["W2"].shape) * 2.0**-12)).astype(np.float32)
    start = {"W0": 0, "W1": 1, "W2": 2}[layer]
    inp = rng.normal(size=(n, d[start])).astype(np.float32)
    if layer != "W0":  # activations: non-negative, some exactly 0
        inp = np.abs(inp) * (rng.uniform(size=inp.shape) > 0.15)
    p[GRAD_INPUT[layer]] = inp.astype(np.float32)
    p["label"] = rng.integers(0, d[3], size=n)
    if fam.name == "near kink" and layer != "W2":
        # move one pre-activation of each masked layer to about 2 rounding budgets from its kink
        x = p[GRAD_INPUT[layer]].astype(np.float64)
        for w, bias in ((("W0", "b0"),) if layer == "W0" else ()) + (("W1", "b1"),):
            W = p[w].astype(np.float64)
            pre = np.einsum("ni,nij->nj", x, W)
            scale = np.einsum("ni,nij->nj", np.abs(x), np.abs(W)).max(axis=1) + np.abs(p[bias]).max(axis=1)
            e_est = float(b32.BINARY32.as_float().gamma(W.shape[1] + 1)) * scale * W.shape[1]
            sign = rng.choice([-1.0, 1.0], size=n)
            p[bias][:, 0] = (-pre[:, 0] + sign * 2 * e_est).astype(np.float32)
            x = np.maximum(pre + p[bias].astype(np.float64), 0)
    return p


def _bounds(layer: str, p: dict[str, Any], run64: Any, dims: tuple[int, ...]) -> tuple[b32.Scalars, b32.Scalars]:
    """Lower and upper bounds of the instance quantities from the float64 reference forward,
    widened by its rigorous error bounds (budgets at u = 2⁻⁵³); the upper one carries the lower
    bounds of min|z| for the margin hypotheses."""
    np = _np()
    f64 = b32.BINARY64.as_float()

    def amax(a: Any) -> Any:
        return np.abs(a.astype(np.float64)).reshape(a.shape[0], -1).max(axis=1)

    zero = np.zeros(p["label"].shape[0])
    w = {k: amax(p[k]) if k in p else zero for k in ("W0", "W1", "W2", "b0", "b1", "b2")}
    x = amax(p["x"]) if layer == "W0" else zero
    d0, d1, d2, d3 = dims
    if layer == "W0":
        e0 = b32.layer_budget(f64, d0, w["W0"], x, w["b0"], 0.0)
        top0 = np.maximum(run64.z0, 0).max(axis=1)
        a0_hi, a0_lo, zmin0 = top0 + e0, np.maximum(top0 - e0, 0), np.abs(run64.z0).min(axis=1) - e0
    else:
        e0 = zero
        a0_hi = a0_lo = amax(p["a0"]) if layer == "W1" else zero
        zmin0 = zero + 1
    if layer == "W2":
        e1 = zero
        a1_hi = a1_lo = amax(p["a1"])
        zmin1 = zero + 1
    else:
        e1 = b32.layer_budget(f64, d1, w["W1"], a0_hi, w["b1"], e0)
        top1 = np.maximum(run64.z1, 0).max(axis=1)
        a1_hi, a1_lo, zmin1 = top1 + e1, np.maximum(top1 - e1, 0), np.abs(run64.z1).min(axis=1) - e1
    delta = b32.layer_budget(f64, d2, w["W2"], a1_hi, w["b2"], e1)
    spread = run64.logits.max(axis=1) - run64.logits.min(axis=1)
    common = dict(dims=dims, x=x, w0=w["W0"], w1=w["W1"], w2=w["W2"], b0=w["b0"], b1=w["b1"], b2=w["b2"])
    lo = b32.Scalars(a0=a0_lo, a1=a1_lo, spread=np.maximum(spread - 2 * delta, 0), zmin0=zmin0, zmin1=zmin1, **common)
    hi = b32.Scalars(a0=a0_hi, a1=a1_hi, spread=spread + 2 * delta, zmin0=zmin0, zmin1=zmin1, **common)
    return lo, hi


def _exact_instance(layer: str, p: dict[str, Any], i: int, fmt: b32.Format) -> tuple[Any, b32.Budget]:
    """The exact gradient (arb-interval entries after the head) and the exact budget of
    instance ``i`` of a batch, from the certified closed forms of :mod:`.mlp`."""
    ex = {k: [[_fr(v) for v in row] for row in p[k][i]] if k.startswith("W") else [_fr(v) for v in p[k][i]]
          for k in GRAD_PARAMS[layer]}
    inp = [_fr(v) for v in p[GRAD_INPUT[layer]][i]]
    label = int(p["label"][i])
    pos = lambda z: z > 0  # noqa: E731 - relu(0) = 0; the margins exclude kinks where masks are read
    z0 = z1 = None
    if layer == "W0":
        z0 = mlp.dense(ex["W0"], ex["b0"], inp)
        a0 = mlp.relu(z0, pos)
    else:
        a0 = inp if layer == "W1" else None
    if layer != "W2":
        z1 = mlp.dense(ex["W1"], ex["b1"], a0)
        a1 = mlp.relu(z1, pos)
    else:
        a1 = inp
    logits = mlp.dense(ex["W2"], ex["b2"], a1)
    c = mlp.head_cotangent(logits, label, mlp.interval_exp)
    if layer != "W2":
        c = mlp.relu_mask(z1, mlp.dense_transpose(ex["W2"], c), pos)
        if layer == "W0":
            c = mlp.relu_mask(z0, mlp.dense_transpose(ex["W1"], c), pos)
    grad = mlp.outer(inp, c)

    def amax(vals: Any) -> Fraction:
        flat = [abs(v) for r in vals for v in (r if isinstance(r, list) else [r])]
        return max(flat, default=Fraction(0))

    zeros = Fraction(0)
    dims = (len(inp) if layer == "W0" else 0, len(a0) if a0 is not None else 0, len(a1), len(logits))
    s = b32.Scalars(dims=dims, x=amax(inp) if layer == "W0" else zeros, a0=amax(a0) if a0 is not None else zeros,
                    a1=amax(a1), w0=amax(ex.get("W0", [])), w1=amax(ex.get("W1", [])), w2=amax(ex["W2"]),
                    b0=amax(ex.get("b0", [])), b1=amax(ex.get("b1", [])), b2=amax(ex["b2"]),
                    spread=max(logits) - min(logits),
                    zmin0=min(abs(v) for v in z0) if z0 is not None else Fraction(1),
                    zmin1=min(abs(v) for v in z1) if z1 is not None else Fraction(1))
    eta, hyps, parts = b32.compose(layer, fmt, s)
    return grad, b32.Budget(layer, Fraction(eta), hyps, tuple((k, Fraction(v)) for k, v in parts))


def _instance_witness(layer: str, p: dict[str, Any], i: int, order: str) -> dict[str, Any]:
    w: dict[str, Any] = {"layer": layer, "order": order, "label": int(p["label"][i]), "input": _vec(p[GRAD_INPUT[layer]][i])}
    for k in GRAD_PARAMS[layer]:
        w[k] = str([[str(_fr(v)) for v in row] for row in p[k][i]]) if k.startswith("W") else _vec(p[k][i])
    return w


def check_grad(ctx: Any, layer: str, fmt: b32.Format = b32.BINARY32, families: tuple[GradFamily, ...] = GRAD_FAMILIES,
               spot_checks: int = 2) -> Verdict:
    """Every entry of the binary32 gradient of ``layer`` is within the composed budget η of the
    exact gradient, on every instance whose hypotheses (margins, head conditions) hold, in
    every summation order."""
    np = _np()
    rng = ctx.rng(f"grad/{layer}")
    ff, f64 = fmt.as_float(), b32.BINARY64.as_float()
    total = applicable = rechecked = spot = 0
    worst: dict[str, float] = {}
    closest: dict[str, float] = {}
    with timed() as t:
        for fam in families:
            p = _grad_batch(rng, layer, fam)
            p64 = {k: (v.astype(np.float64) if k != "label" else v) for k, v in p.items()}
            run64 = b32.float_pipeline(layer, p64, "numpy")
            lo, hi = _bounds(layer, p, run64, fam.dims)
            eta_lo = b32.compose(layer, ff, lo)[0]
            eta_hi, hyps_hi, _ = b32.compose(layer, ff, hi)
            ref_err = b32.compose(layer, f64, hi)[0] * (1 + SLACK)
            ok = np.ones(fam.count, dtype=bool)
            for h in hyps_hi:
                ok &= np.asarray(h.lhs < h.rhs)
            applicable_here = int(ok.sum())
            key = f"{fam.name} {'x'.join(map(str, fam.dims))}"
            for h in hyps_hi:
                if "margin" in h.name and applicable_here:
                    tight = float(np.min(np.where(ok, h.rhs / h.lhs, np.inf)))
                    closest[key] = min(closest.get(key, np.inf), tight)
            for order in b32.ORDERS:
                run = b32.float_pipeline(layer, p, order)
                err = np.abs(run.grad.astype(np.float64) - run64.grad).reshape(fam.count, -1).max(axis=1)
                total += fam.count
                applicable += applicable_here
                ratio = np.where(ok, err / eta_lo, 0)
                worst[key] = max(worst.get(key, 0.0), float(ratio.max()))
                cand = [i for i in _screen(err, ref_err, eta_lo) if ok[i]]
                for i in _limited(cand, 10, f"float32 {layer} gradient"):
                    rechecked += 1
                    exact, budget = _exact_instance(layer, p, i, fmt)
                    if not budget.holds:
                        continue
                    for (a, bb), g in np.ndenumerate(run.grad[i]):
                        lower, upper = _err_interval(_fr(g), exact[a][bb])
                        if lower > budget.eta:
                            step = t.step("sampling", _sampling_version(), f"float32 {layer} gradient", "violation")
                            raise Violation(refuted(f"float32 {layer} gradient re-checked with exact arithmetic and arb exp",
                                                    _instance_witness(layer, p, i, order),
                                                    {"entry": f"{a},{bb}", "float32 entry": _fr(g), "error lower bound": lower,
                                                     "eta": budget.eta}, step, format=fmt.name, family=key))
                        if upper > budget.eta:
                            raise Violation(unknown(f"float32 {layer} gradient",
                                                    f"an entry is within the arb enclosure width of eta ({key}, {order})"))
            # the float64 reference and the screening bounds, checked exactly on a few instances
            if fam.count >= 100:
                for i in rng.choice(np.flatnonzero(ok), size=min(spot_checks, applicable_here), replace=False):
                    spot += 1
                    exact, budget = _exact_instance(layer, p, int(i), fmt)
                    lo_i, hi_i = Fraction(float(eta_lo[i])), Fraction(float(eta_hi[i]))
                    if not lo_i * (1 - Fraction(1, 2**30)) <= budget.eta <= hi_i * (1 + Fraction(1, 2**30)):
                        raise Violation(unknown(f"float32 {layer} gradient", f"screening bounds do not bracket the exact eta ({key})"))
                    ref_bound = Fraction(float(ref_err[i]))
                    for (a, bb), g in np.ndenumerate(run64.grad[i]):
                        if _err_interval(_fr(g), exact[a][bb])[1] > ref_bound:
                            raise Violation(unknown(f"float32 {layer} gradient", f"the float64 reference exceeds its error bound ({key})"))
        step = t.step("sampling", _sampling_version(), f"float32 {layer} gradients in 6 orders vs exact",
                      f"{total} evaluations (instances × orders; {applicable} with hypotheses verified), {rechecked} re-checked exactly",
                      instances=total, seed=ctx.seed)
    return supported(f"numpy float32 {layer} gradients in 6 orders vs a float64 reference with its error bound (evidence)",
                     step, violations=0, gradients=total // len(b32.ORDERS), evaluations=total,
                     hypotheses_verified=applicable // len(b32.ORDERS), rechecked_exactly=rechecked,
                     reference_spot_checks=spot, max_error_over_eta={k: round(v, 6) for k, v in worst.items()},
                     smallest_margin_over_rounding_budget={k: round(v, 3) for k, v in closest.items()}, seed=ctx.seed)


GRAD_SCOPE = ("1.27·10⁴ seeded instances per layer: {families}, each in 6 summation orders (numpy/BLAS, forward, reverse, "
              "pairwise, 2 permutations); instances whose hypotheses are not verified are not counted; float64 "
              "reference with its composed error bound at u = 2⁻⁵³ (exactly spot-checked with arb); exact re-check "
              "near the budget; evidence only")
FAMILY_TEXT = ("random nets 3×4×3×2, 6×10×8×4 and 24×32×16×10, near-kink margins (one pre-activation per masked layer "
               "at ≈ 2 rounding budgets from 0), cancelling W₂ rows, fan-in 256 into each layer "
               "(256×8×8×4, 16×256×8×4, 16×8×256×10)")


@obligation(
    id="lean_mlp.float.linear_grad_close_float32",
    source=Source(DOC4, "mlp_output_float_sgd_descends: … its accuracy η = mulErr u a 1 0 (cotErr …) is proven (by linear_grad_close)"),
    statement="The binary32 output-layer gradient fl(a₁ᵢ·c̃₂ⱼ) of the linear net at the exact activation a₁ is within "
    "η = mulErr(u, A₁, 1, 0, cotErr(u, d₃, δ, spread + 2δ)), δ = layerBudget(u, d₂, w₂, A₁, β₂, 0), "
    "of a₁ᵢ·(softmax − onehot)ⱼ.",
    scope=GRAD_SCOPE.format(families=FAMILY_TEXT),
    expect=Expect.HOLDS,
    lean="FloatBridge.linear_grad_close",
    uses=("lean_mlp.float.softmax_ce_cot_close", "lean_mlp.float.mul_close", "lean_mlp.float.dot_close"),
    no_theorem="a comparison of the float32 results numpy computes with the proved budget (lean_mlp.float.linear_grad_close): evidence about the arithmetic numpy performs, which is not a formula; the theorem is lean_mlp.float.linear_grad_close's",
)
def linear_grad_close_float32(ctx):
    """``linear_grad_close`` (004, inside ``linear_float_sgd_descends``, reused by
    ``mlp_output_float_sgd_descends`` at x := a₁): the float forward of the linear net, the float
    head, and the final multiply with the exact input. Budget composed in
    :func:`binary32.compose`; checked on float32 against a float64 reference whose own error is
    bounded by the same composition at u = 2⁻⁵³."""
    return _run(check_grad, ctx, "W2")


@obligation(
    id="lean_mlp.float.mlp_w1_grad_close_float32",
    source=Source(DOC4, "mlp_w1_grad_close"),
    statement="Under the layer-1 rounding margin E₁ < min|z₁|, the binary32 W₁ gradient fl(a₀ᵢ·c̃₁ⱼ), "
    "c̃₁ = mask(z̃₁, W₂ᵀ·c̃₂) at the float pre-activation and the float head, is within "
    "η = mulErr(u, A₀, layerAct(d₃, w₂, 1), 0, layerBudget(u, d₃, w₂, 1, 0, cotErr(…))) of the certified gradient.",
    scope=GRAD_SCOPE.format(families=FAMILY_TEXT),
    expect=Expect.HOLDS,
    lean="FloatBridge.mlp_w1_grad_close",
    uses=("lean_mlp.float.softmax_ce_cot_close", "lean_mlp.float.cot_step_close", "lean_mlp.float.mul_close"),
    no_theorem="a comparison of the float32 results numpy computes with the proved budget (lean_mlp.float.mlp_w1_grad_close): evidence about the arithmetic numpy performs, which is not a formula; the theorem is lean_mlp.float.mlp_w1_grad_close's",
)
def mlp_w1_grad_close_float32(ctx):
    """``mlp_w1_grad_close`` (004): a₀ frozen exact; float forward z̃₁ = dense W₁ b₁ a₀ (error
    E₁), float head at the float logits (cotErr with the logit error δ), the masked W₂ᵀ step
    (cot_step_close under E₁ < |z₁|), the final multiply (mul_close, ea = 0). The rendered
    trainer's gradient is :func:`binary32.float_pipeline`; the certified one is the reluMask
    form of :func:`mlp.gradients` (a₀ᵢ·mask(z₁, W₂ᵀ(softmax − onehot))ⱼ)."""
    return _run(check_grad, ctx, "W1")


@obligation(
    id="lean_mlp.float.mlp_w0_grad_close_float32",
    source=Source(DOC4, "mlp_w0_grad_close"),
    statement="Under both rounding margins E₀ < min|z₀| and E₁ < min|z₁|, the binary32 W₀ gradient fl(xᵢ·c̃₀ⱼ), "
    "c̃₀ = mask(z̃₀, W₁ᵀ·mask(z̃₁, W₂ᵀ·c̃₂)), is within η = mulErr(u, X, C₀, 0, layerBudget(u, d₂, w₁, C₁, 0, "
    "layerBudget(u, d₃, w₂, 1, 0, cotErr(…)))) of the certified gradient.",
    scope=GRAD_SCOPE.format(families=FAMILY_TEXT),
    expect=Expect.HOLDS,
    lean="FloatBridge.mlp_w0_grad_close",
    uses=("lean_mlp.float.softmax_ce_cot_close", "lean_mlp.float.cot_step_close", "lean_mlp.float.mul_close"),
    no_theorem="a comparison of the float32 results numpy computes with the proved budget (lean_mlp.float.mlp_w0_grad_close): evidence about the arithmetic numpy performs, which is not a formula; the theorem is lean_mlp.float.mlp_w0_grad_close's",
)
def mlp_w0_grad_close_float32(ctx):
    """``mlp_w0_grad_close`` (004): x exact; the full float forward (two dense + ReLU layers, errors
    E₀, E₁ propagated by layerBudget), the float head, two masked contractions (each a
    cot_step_close under its margin), and the final multiply. Checked like the W₁ case."""
    return _run(check_grad, ctx, "W0")
