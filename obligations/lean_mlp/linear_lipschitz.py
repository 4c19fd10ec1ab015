"""The linear net's segment-Lipschitz constant ``C_lin = 2·a²/(1 − 2·a·D)``
(``lean_mlp.linear_loss_grad_lipschitz``): derived, since the seeds only name the lemma.

The route is the one the seeds describe for the hidden layer: logit drift → softmax ratio
sandwich (:mod:`.softmax_sandwich`) → the scalar chain :data:`LINEAR_CHAIN` (z3), with the
constant written once in :func:`.descent.linear_lipschitz_constant`; the shape is cross-checked
along the shipped example's linear and output-layer steps (:mod:`.descent_instances`).
"""

from __future__ import annotations

from checker import Expect, Source, obligation
from typing import Any

from checker.claims import Claim, claim
from obligations.lean_mlp.descent import linear_lipschitz_constant
from obligations.lean_mlp.descent_instances import _segment_verdict
from obligations.lean_mlp.softmax_sandwich import _K, RATIO_SANDWICH, exp_bound_verdict

DOC_002 = "002_9648822bf1d4473c.txt"


LINEAR_CHAIN = claim(
    "linear-gradient-drift", "a D t delta H p dp x",
    lambda o, v: o.le(o.abs(v.x * v.dp), linear_lipschitz_constant(v.a, v.D) * v.t * v.D),
    hypotheses={
        "t_in_unit_interval": lambda o, v: o.and_(o.ge(v.t, 0), o.le(v.t, 1)),
        "a_D_nonnegative": lambda o, v: o.and_(o.ge(v.a, 0), o.ge(v.D, 0)),
        "small_step": lambda o, v: o.lt(2 * v.a * v.D, 1),
        "logit_drift": lambda o, v: o.and_(o.ge(v.delta, 0), o.le(v.delta, v.a * v.t * v.D)),
        "exp_bound": lambda o, v: o.and_(o.ge(v.H, 1), o.le(v.H * (1 - 2 * v.delta), 1)),
        "ratio_sandwich": lambda o, v: o.and_(o.ge(v.p, 0), o.le(v.p, 1), o.le(o.abs(v.dp), v.p * (v.H - 1))),
        "input_bound": lambda o, v: o.le(o.abs(v.x), v.a),
    },
)
"""``H = e^{2δ}``: the gradient entry ``x_i·(p − onehot)_j`` moves by ``|x_i·Δp_j|``, with
``|Δp_j| ≤ p_j·(H − 1)`` (the sandwich; ``1 − H⁻¹ ≤ H − 1``), ``H·(1 − 2δ) ≤ 1`` and the logit
drift ``δ ≤ a·t·D``; the conclusion is the shape ``≤ C_lin·t·D``."""


LINEAR_WIDTHS = (1, 2, 3, 4)


def linear_segment_claim(d_in: int, label: int, factor: Any = 1) -> Claim:
    """The statement at input width ``d_in``, ``_K`` classes and one label: the linear net
    ``z = dense W b x`` (``W[input][output]``), its CE gradient ``∂L/∂W_ij = x_i·(softmax(z)_j −
    [j = label])``, and every entry of it drifting by at most ``C_lin·t·D`` between ``W`` and
    ``W + t·e`` when ``|x_i| ≤ a``, ``‖e‖₁ ≤ D``, ``t ∈ [0, 1]`` and ``2·a·D < 1``. ``factor``
    scales the bound (a test mutation)."""
    xs = [f"x_{i}" for i in range(d_in)]
    Ws = [f"W_{i}_{j}" for i in range(d_in) for j in range(_K)]
    es = [f"e_{i}_{j}" for i in range(d_in) for j in range(_K)]
    bs = [f"b_{j}" for j in range(_K)]

    def grad(o, v, t):
        z = [sum((v[f"x_{i}"] * (v[f"W_{i}_{j}"] + t * v[f"e_{i}_{j}"]) for i in range(d_in)), start=v[f"b_{j}"])
             for j in range(_K)]
        ez = [o.exp(zj) for zj in z]
        total = sum(ez[1:], start=ez[0])
        return [[v[f"x_{i}"] * (ez[j] / total - (1 if j == label else 0)) for j in range(_K)] for i in range(d_in)]

    def conclusion(o, v):
        g0, gt = grad(o, v, 0), grad(o, v, v.t)
        bound = factor * linear_lipschitz_constant(v.a, v.D) * v.t * v.D
        return o.and_(*(o.le(o.abs(gt[i][j] - g0[i][j]), bound) for i in range(d_in) for j in range(_K)))

    return claim(
        f"linear-grad-lipschitz-d{d_in}-label{label}", [*xs, *Ws, *bs, *es, "t", "a", "D"], conclusion,
        hypotheses={
            "t_in_unit_interval": lambda o, v: o.and_(o.ge(v.t, 0), o.le(v.t, 1)),
            "input_bounds": lambda o, v: o.and_(*(o.le(o.abs(v[x]), v.a) for x in xs)),
            "step_radius": lambda o, v: o.le(sum((o.abs(v[e]) for e in es[1:]), start=o.abs(v[es[0]])), v.D),
            "small_step": lambda o, v: o.lt(2 * v.a * v.D, 1),
        },
    )


#: The declared theorem: the statement at 3 classes, every label, input width 1…4 (the widths the
#: logit-drift lemma col_drift_refined is proved at).
LINEAR_THEOREM = tuple(linear_segment_claim(d, label) for d in LINEAR_WIDTHS for label in range(_K))


@obligation(
    id="lean_mlp.linear_loss_grad_lipschitz",
    source=Source(DOC_002, "'The hidden-layer peer of linear_loss_grad_lipschitz' (the linear constant is not displayed)"),
    statement="For the linear net, along a step of ℓ1 mass ≤ D with inputs bounded by a and 2·a·D < 1, every "
    "gradient entry drifts by at most C_lin·t·D with C_lin = 2·a²/(1 − 2·a·D) (reconstructed constant).",
    scope="3 classes, input width ≤ 4, every value: the logit drift δ ≤ a·t·D is lean_mlp.col_drift_refined (d_in ≤ "
    "4); the scalar chain universally over ℝ (z3); the softmax ratio sandwich for 3 classes "
    "over ℝ (z3); e^y·(1 − y) ≤ 1 for y ≥ 0 (sympy: derivative and value at 0); cross-check, not part of the proof: "
    "the constant at the shipped example's linear and output-layer steps at t = k/8 (rigorous intervals)",
    expect=Expect.HOLDS,
    lean="SgdDescentLinear.linear_loss_grad_lipschitz",
    claims=(RATIO_SANDWICH, LINEAR_CHAIN),
    uses=("lean_mlp.col_drift_refined",),
    theorem=LINEAR_THEOREM,
)
def linear_loss_grad_lipschitz(ctx):
    """The linear constant that ``linear_sgd_descends`` (and ``mlp_output_sgd_descends``) use
    is not displayed in the seeds; we derive it by the route the seeds describe for the hidden
    layer ("logit drift → softmax ratio sandwich → γ-form"). Parts: (1) z3 proves the ratio
    sandwich for 3 classes with the exponentials as positive unknowns (sound: only the
    inequalities between them are used); (2) sympy shows ``d/dy [e^y(1 − y)] = −y·e^y`` and
    the value 1 at 0, so ``e^y(1 − y)`` is non-increasing on ``y ≥ 0`` and at most 1 there
    (the monotonicity step is the mean value theorem, not machine-checked); (3) z3 proves the
    scalar chain to ``|Δ∇| ≤ C_lin·t·D``; (4) the shape is checked at the shipped example
    along the linear and output-layer steps.

    Declared theorem: the gradient drift of the linear net itself (:data:`LINEAR_THEOREM`, at 3
    classes, every label, input width 1…4, with the input-bound, step-radius and small-step
    hypotheses). The parts above prove the scalar link with the logit drift, the sandwich and
    e^{2δ}(1 − 2δ) ≤ 1 as its hypotheses; nothing composes them into the theorem (no part states
    the softmax of the net or its gradient), so the result is ``unknown`` ("not a proof of the
    declared theorem") until the chain is discharged against it.

    Survives mutation: o.and_(o.ge(v.a, 0), o.ge(v.D, 0)): strictly positive a and D are a stronger hypothesis; the bound still follows
    """
    from checker.backends import smt
    from checker.kernel.verdicts import all_of
    from obligations.grading import cross_checked
    from obligations.lean_mlp import discharge

    exp_bound = exp_bound_verdict()
    proof = all_of("z3 and sympy", {
        "softmax ratio sandwich (3 classes)": smt.prove(RATIO_SANDWICH, ctx),
        "exp bound e^y(1 − y) ≤ 1 on y ≥ 0": exp_bound,
        "drift chain": smt.prove(LINEAR_CHAIN, ctx),
    }, family=f"{_K} classes, d_in ≤ 4 (the logit drift is lean_mlp.col_drift_refined's)")
    # The example's steps check the encoding; they are points and must not set the grade.
    return cross_checked(proof, {
        "at the example, linear step": _segment_verdict("linear_sgd_descends", discharge.EXAMPLE_LINEAR_X),
        "at the example, output-layer step": _segment_verdict("mlp_output_sgd_descends", discharge.EXAMPLE_X),
    })
