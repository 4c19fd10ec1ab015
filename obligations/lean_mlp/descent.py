"""The descent capstones of the Lean development: one SGD step on one weight layer decreases
one example's softmax cross-entropy loss by at least ``lr·‖∇L‖₂²/2``.

Sources: ``002_9648822bf1d4473c.txt`` and ``004_8327de8ce09705d9.txt`` (docstrings of
``linear_sgd_descends``, ``mlp_output_sgd_descends``, ``mlp_hidden_sgd_descends``,
``mlp_input_sgd_descends`` and their binary32 rungs ``*_float_sgd_descends``).

The capstone hypotheses are written here ONCE, as functions of the scalar quantities of a
step, for any number type (Fractions, intervals, z3 terms): the z3 implication obligations
below and the concrete-point evaluation of :mod:`.discharge` (and the ``obligations
discharge`` command) both read them from here. The obligations that evaluate the capstones at
concrete networks are in :mod:`.descent_instances`; the linear net's segment-Lipschitz lemma
is in :mod:`.linear_lipschitz`.

Reconstruction (the seeds name the hypotheses but do not display them)
--------------------------------------------------------------------------
One step on a layer with ``N`` weight entries (linear / output ``d_in·d₃`` = ``d₂d₃``,
hidden ``d₁d₂``, input ``d₀d₁``), from ``v`` to ``v − lr·g`` with an oracle ``g``:

- **oracle accuracy** ``|g − ∇L(v)|∞ ≤ η``;
- **step radius** ``D = lr·(‖∇L‖₁ + N·η)`` (so ``‖lr·g‖₁ ≤ D``);
- **margins** at ``D`` (``a`` bounds the moving layer's input entries, ``w₁ = max|W₁|``,
  ``w₂ = max|W₂|``): hidden ``a·D < |z₁ⱼ|`` for all j; input ``a·D < |z₀ⱼ|`` and
  ``w₁·a·D < |z₁ₗ|``; none for the linear net and the output layer;
- **small step** (the denominator of the segment-Lipschitz constant is positive):
  linear / output ``2·a·D < 1``; hidden ``2·w₂·a·D < 1``; input ``2·d₂·w₁·w₂·a·D < 1``;
- **segment-Lipschitz constant** ``C`` (``|∇L(v+t·e) − ∇L(v)|∞ ≤ C·t·D`` on the segment):
  hidden ``2·d₃·w₂²·a²/(1 − 2·w₂·a·D)``, input ``2·d₃·d₂²·w₁²·w₂²·a²/(1 − 2·d₂·w₁·w₂·a·D)``
  (both stated in the seeds); for the linear net (and so the output layer) the seeds only
  name ``linear_loss_grad_lipschitz``; we derive it by the same route: a logit moves by at most
  ``δ = a·t·D`` (column-refined drift), the softmax ratio sandwich gives
  ``|Δp_j| ≤ p_j·(e^{2δ} − 1) ≤ 2δ/(1 − 2δ)`` (``e^x ≤ 1/(1 − x)`` for ``x < 1``), and the
  gradient entry ``x_i·(p − onehot)_j`` moves by ``a·|Δp_j|``: ``C_lin = 2·a²/(1 − 2·a·D)``
  (the hidden constant with ``w₂ = 1`` and no ``d₃`` fan-in: there is no contraction over the
  classes);
- **the two dominance conditions**, undefined in the seeds, reconstructed from the descent
  lemma. Along the segment ``L(v − lr·g) − L(v) = ∇L·e + ∫₀¹ (∇L(v+te) − ∇L(v))·e dt`` with
  ``e = −lr·g``; the first term is ``≤ −lr‖∇L‖₂² + lr·η·‖∇L‖₁`` and the remainder
  ``≤ ∫₀¹ C·t·D·‖e‖₁ dt ≤ C·D²/2``. So

  - (dom1) ``η·‖∇L‖₁ ≤ ‖∇L‖₂²/4`` (the gradient dominates the oracle error),
  - (dom2) ``C·D² ≤ lr·‖∇L‖₂²/2`` (the gradient dominates the curvature)

  give ``L(v − lr·g) − L(v) ≤ −lr‖∇L‖₂² + lr‖∇L‖₂²/4 + lr‖∇L‖₂²/4 = −lr·‖∇L‖₂²/2``, exactly
  the stated conclusion. The split ¼ + ¼ is the one that lands on the stated ``/2``; any
  other split with the same sum would do, and we found no reading of the seeds that pins a
  different one. :data:`IMPLICATIONS` has z3 check this algebra universally over ℝ.

The binary32 rungs replace ``η`` by the proven budget of the float gradient (from
:mod:`.binary32`) and add its rounding margins; the update is taken in ℝ (exact rationals
``W − lr·g̃``). The joint all-layers step is open in the Lean development.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from checker import Expect, Source, obligation
from checker.claims import claim, sized_claim

DOC_002 = "002_9648822bf1d4473c.txt"
DOC_004 = "004_8327de8ce09705d9.txt"


# ---------------------------------------------------------------------------------------
# The constants (hidden and input: written once in .lipschitz, where the lemmas are checked)
# ---------------------------------------------------------------------------------------


def linear_lipschitz_constant(a: Any, D: Any) -> Any:
    """``C_lin = 2·a²/(1 − 2·a·D)`` — derived for the linear net (see the module docstring)."""
    return 2 * a * a / (1 - 2 * a * D)


def hidden_lipschitz_constant(d3: Any, w2: Any, a: Any, D: Any) -> Any:
    """``C_hidden = 2·d₃·w₂²·a²/(1 − 2·w₂·a·D)`` (``mlp_hidden_loss_grad_lipschitz``), the formula
    written once in :mod:`.lipschitz` (where the lemma is checked)."""
    from obligations.lean_mlp.lipschitz import hidden_constant

    return hidden_constant(0, d3, 0, w2, a, D)  # d₂ and w₁ do not enter the hidden constant


def input_lipschitz_constant(d2: Any, d3: Any, w1: Any, w2: Any, a: Any, D: Any) -> Any:
    """``C_input = 2·d₃·d₂²·w₁²·w₂²·a²/(1 − 2·d₂·w₁·w₂·a·D)`` (``mlp_input_loss_grad_lipschitz``),
    the formula written once in :mod:`.lipschitz`."""
    from obligations.lean_mlp.lipschitz import input_constant

    return input_constant(d2, d3, w1, w2, a, D)


def step_radius(lr: Any, grad_l1: Any, entries: Any, eta: Any) -> Any:
    """``D = lr·(‖∇L‖₁ + N·η)``: an upper bound on the ℓ1 mass ``‖lr·g‖₁`` of the step."""
    return lr * (grad_l1 + entries * eta)


# ---------------------------------------------------------------------------------------
# The capstones and their hypotheses
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Capstone:
    """One single-layer descent capstone (the ℝ statement and its binary32 rung)."""

    key: str  # linear, mlp_output, mlp_hidden, mlp_input
    layer: str  # the moving weight matrix of the MLP file: W2, W2, W1, W0
    lean: str
    lean_float: str
    input_name: str  # what ``a`` bounds
    margins: tuple[str, ...]  # pre-activations whose signs must be frozen: "z0", "z1"

    @property
    def name(self) -> str:
        return f"{self.key}_sgd_descends"

    @property
    def float_name(self) -> str:
        return f"{self.key}_float_sgd_descends"


CAPSTONES: dict[str, Capstone] = {
    c.key: c
    for c in (
        Capstone("linear", "W2", "SgdDescentLinear.linear_sgd_descends", "FloatBridge.linear_float_sgd_descends",
                 "x (the linear net's input)", ()),
        Capstone("mlp_output", "W2", "SgdDescentMlp.mlp_output_sgd_descends", "FloatBridge.mlp_output_float_sgd_descends",
                 "a₁ (the hidden activation below W₂)", ()),
        Capstone("mlp_hidden", "W1", "SgdDescentMlp.mlp_hidden_sgd_descends", "FloatBridge.mlp_hidden_float_sgd_descends",
                 "a₀ (the activation below W₁)", ("z1",)),
        Capstone("mlp_input", "W0", "SgdDescentMlp.mlp_input_sgd_descends", "FloatBridge.mlp_input_float_sgd_descends",
                 "x (the network input)", ("z0", "z1")),
    )
}


@dataclass(frozen=True, slots=True)
class Scalars:
    """The scalar quantities of one step that the hypotheses read (any number type).

    ``margin_z0`` / ``margin_z1`` are ``min_j |z_j|`` of the pre-activations that must not flip
    (unused by capstones without that margin)."""

    lr: Any
    eta: Any
    entries: Any  # N, the number of moving weights
    grad_l1: Any  # ‖∇L‖₁
    grad_l2sq: Any  # ‖∇L‖₂²
    a: Any
    w1: Any
    w2: Any
    d2: Any
    d3: Any
    margin_z0: Any = None
    margin_z1: Any = None

    @property
    def D(self) -> Any:
        return step_radius(self.lr, self.grad_l1, self.entries, self.eta)


@dataclass(frozen=True, slots=True)
class Hypothesis:
    """``lhs < rhs`` (``strict``) or ``lhs ≤ rhs``, with the Lean-side meaning in words."""

    name: str
    meaning: str
    lhs: Any
    rhs: Any
    strict: bool


def small_step_lhs(key: str, s: Scalars) -> Any:
    """The left side of the small-step condition ``… < 1``."""
    match key:
        case "linear" | "mlp_output":
            return 2 * s.a * s.D
        case "mlp_hidden":
            return 2 * s.w2 * s.a * s.D
        case "mlp_input":
            return 2 * s.d2 * s.w1 * s.w2 * s.a * s.D
    raise KeyError(f"no capstone {key!r}")


def lipschitz_constant(key: str, s: Scalars) -> Any:
    """The segment-Lipschitz constant ``C`` of the capstone at step radius ``s.D``."""
    match key:
        case "linear" | "mlp_output":
            return linear_lipschitz_constant(s.a, s.D)
        case "mlp_hidden":
            return hidden_lipschitz_constant(s.d3, s.w2, s.a, s.D)
        case "mlp_input":
            return input_lipschitz_constant(s.d2, s.d3, s.w1, s.w2, s.a, s.D)
    raise KeyError(f"no capstone {key!r}")


def margin_hypotheses(key: str, s: Scalars) -> list[Hypothesis]:
    D = s.D
    match key:
        case "linear" | "mlp_output":
            return []
        case "mlp_hidden":
            return [Hypothesis("margin_z1", "a·D < |z₁ⱼ| for every j (the step cannot flip a layer-1 ReLU)",
                               s.a * D, s.margin_z1, True)]
        case "mlp_input":
            return [Hypothesis("margin_z0", "a·D < |z₀ⱼ| for every j (the step cannot flip a layer-0 ReLU)",
                               s.a * D, s.margin_z0, True),
                    Hypothesis("margin_z1", "w₁·a·D < |z₁ₗ| for every l (nor a layer-1 ReLU)",
                               s.w1 * s.a * D, s.margin_z1, True)]
    raise KeyError(f"no capstone {key!r}")


def small_step_hypothesis(key: str, s: Scalars) -> Hypothesis:
    text = {"linear": "2·a·D < 1", "mlp_output": "2·a·D < 1", "mlp_hidden": "2·w₂·a·D < 1",
            "mlp_input": "2·d₂·w₁·w₂·a·D < 1"}[key]
    return Hypothesis("small_step", f"{text} (the Lipschitz constant's denominator is positive)",
                      small_step_lhs(key, s), 1, True)


def dominance_hypotheses(key: str, s: Scalars, C: Any) -> list[Hypothesis]:
    """(dom1) and (dom2); ``C`` is passed in so that a caller can skip (dom2) when the
    small-step condition fails (C is then undefined)."""
    return [
        Hypothesis("dominance_oracle", "η·‖∇L‖₁ ≤ ‖∇L‖₂²/4 (the gradient dominates the oracle error)",
                   s.eta * s.grad_l1, s.grad_l2sq / 4, False),
        Hypothesis("dominance_curvature", "C·D² ≤ lr·‖∇L‖₂²/2 (the gradient dominates the curvature)",
                   C * s.D * s.D, s.lr * s.grad_l2sq / 2, False),
    ]


def capstone_hypotheses(key: str, s: Scalars) -> list[Hypothesis]:
    """Every hypothesis of the ℝ capstone ``key`` (margins, small step, dominance), in order."""
    return [*margin_hypotheses(key, s), small_step_hypothesis(key, s),
            *dominance_hypotheses(key, s, lipschitz_constant(key, s))]


def certified_decrease(s: Scalars) -> Any:
    """The conclusion's decrease ``lr·‖∇L‖₂²/2``."""
    return s.lr * s.grad_l2sq / 2


def descent_lemma_bound(key: str, s: Scalars) -> Any:
    """``−lr‖∇L‖₂² + lr·η·‖∇L‖₁ + C·D²/2``: the descent lemma's bound on the loss change."""
    return -s.lr * s.grad_l2sq + s.lr * s.eta * s.grad_l1 + lipschitz_constant(key, s) * s.D * s.D / 2


# ---------------------------------------------------------------------------------------
# (i) the implication, universally over ℝ (z3)
# ---------------------------------------------------------------------------------------

_SCALAR_VARS = "lr eta n g1 g2 a w1 w2 d2 d3 m0 m1 first rest delta"


def _scalars(v) -> Scalars:
    return Scalars(v.lr, v.eta, v.n, v.g1, v.g2, v.a, v.w1, v.w2, v.d2, v.d3, v.m0, v.m1)


def _capstone_hypothesis_formula(key: str, i: int):
    """The ``i``-th hypothesis of :func:`capstone_hypotheses` as a claim formula."""

    def formula(o, v):
        h = capstone_hypotheses(key, _scalars(v))[i]
        return (o.lt if h.strict else o.le)(h.lhs, h.rhs)

    return formula


def implication_claim(key: str):
    """For capstone ``key``: the sign facts of the quantities, its hypotheses (margins, small
    step, dom1, dom2 — read from :func:`capstone_hypotheses`), and the descent lemma split as
    ``delta = first + rest`` with ``first ≤ −lr·g2 + lr·η·g1`` (first-order term) and
    ``rest ≤ C·D²/2`` (remainder), imply ``delta ≤ −lr·g2/2``."""

    def hyps() -> dict:
        out: dict = {
            "lr_positive": lambda o, v: o.gt(v.lr, 0),
            "eta_nonnegative": lambda o, v: o.ge(v.eta, 0),
            "sizes": lambda o, v: o.and_(o.ge(v.n, 1), o.ge(v.d2, 1), o.ge(v.d3, 1)),
            "norms_nonnegative": lambda o, v: o.and_(o.ge(v.g1, 0), o.ge(v.g2, 0)),
            "bounds_nonnegative": lambda o, v: o.and_(o.ge(v.a, 0), o.ge(v.w1, 0), o.ge(v.w2, 0)),
        }
        names = [h.name for h in capstone_hypotheses(key, Scalars(*(0,) * 10, 0, 0))]
        for i, name in enumerate(names):
            out[name] = _capstone_hypothesis_formula(key, i)
        out["first_order_term"] = lambda o, v: o.le(v.first, -v.lr * v.g2 + v.lr * v.eta * v.g1)
        out["remainder"] = lambda o, v: o.le(v.rest, lipschitz_constant(key, _scalars(v)) * _scalars(v).D * _scalars(v).D / 2)
        out["segment_split"] = lambda o, v: o.eq(v.delta, v.first + v.rest)
        return out

    return claim(
        f"{key}-descent-implication", _SCALAR_VARS,
        lambda o, v: o.le(v.delta, -certified_decrease(_scalars(v))),
        hypotheses=hyps(),
        terms={"change": lambda o, v: v.delta, "minus_decrease": lambda o, v: -certified_decrease(_scalars(v))},
        # a model of these scalars is a counterexample to the capstone only if one network realises it
        derived="n, d2, d3 are counts; g1 = ‖∇L‖₁ and g2 = ‖∇L‖₂² of one gradient with n entries; a, w1, w2 "
        "bound the input and weights; first and rest are the descent lemma's two terms on one segment",
    )


IMPLICATIONS = {key: implication_claim(key) for key in CAPSTONES}

# The same two pieces for every number N of moving entries (sized claims, proved by induction over N).
FIRST_ORDER_ALL = sized_claim(
    "first-order-term-and-step-radius", "N:nat[1,]", "grad[N] g[N]",
    lambda o, v: o.and_(
        o.le(o.sum(v.g * v.grad * (-v.lr)), -v.lr * o.sumsq(v.grad) + v.lr * v.eta * o.norm1(v.grad)),
        o.le(o.norm1(v.g * v.lr), step_radius(v.lr, o.norm1(v.grad), v.N, v.eta))),
    hypotheses={
        "lr_positive": lambda o, v: o.gt(v.lr, 0),
        "oracle_accuracy": lambda o, v: o.all(o.le(o.abs(v.g - v.grad), v.eta)),
    },
    scalars="lr eta",
)
"""``∇L·(−lr·g) ≤ −lr‖∇L‖₂² + lr·η‖∇L‖₁`` and ``‖lr·g‖₁ ≤ lr(‖∇L‖₁ + N·η)`` from ``|g − ∇L|∞ ≤ η``, every N."""

REMAINDER_ALL = sized_claim(
    "remainder-integrand", "N:nat[1,]", "dgrad[N] e[N]",
    lambda o, v: o.le(o.norm1(v.dgrad * v.e), v.C * v.t * v.D * v.D),
    hypotheses={
        "t_in_unit_interval": lambda o, v: o.and_(o.ge(v.t, 0), o.le(v.t, 1)),
        "segment_lipschitz": lambda o, v: o.all(o.le(o.abs(v.dgrad), v.C * v.t * v.D)),
        "step_l1_mass": lambda o, v: o.le(o.norm1(v.e), v.D),
    },
    scalars="C t D",
)
"""``∑|Δ∇L_i·e_i| ≤ C·t·D²`` from ``|Δ∇L|∞ ≤ C·t·D`` and ``‖e‖₁ ≤ D``, every N."""


def _remainder_invariant(o, v):
    """``∑|Δ∇L_i·e_i| ≤ C·t·D·‖e‖₁``, ``‖e‖₁ ≥ 0`` and ``C·t·D ≥ 0`` (the mass hypothesis is read at the close)."""
    return o.and_(o.le(o.norm1(v.dgrad * v.e), v.C * v.t * v.D * o.norm1(v.e)), o.ge(o.norm1(v.e), 0),
                  o.ge(v.C * v.t * v.D, 0))


#: The two pieces at N = 3 (the audits' concrete claims; z3 cross-checks).
PIECES_AT = (FIRST_ORDER_ALL.at(N=3), REMAINDER_ALL.at(N=3))


def _implication(key: str, ctx):
    from checker.backends import induction, smt, symbolic
    from checker.kernel.verdicts import all_of
    from obligations.grading import cross_checked

    sp = symbolic.sympy()
    t, C, D = sp.symbols("t C D", real=True)
    integral = symbolic.conclude("sympy: ∫₀¹ C·t·D² dt = C·D²/2",
                                 [symbolic.zero_step(sp.integrate(C * t * D ** 2, (t, 0, 1)) - C * D ** 2 / 2,
                                                     "∫₀¹ C·t·D² dt − C·D²/2")])
    proof = all_of("z3 over ℝ (scalar implication), induction over N (vector pieces) and sympy (the integral)", {
        "implication": smt.prove(IMPLICATIONS[key], ctx),
        "first-order term and step radius (every N)": induction.prove(FIRST_ORDER_ALL, "N", ctx),
        "remainder integrand (every N)": induction.prove(REMAINDER_ALL, "N", ctx, invariant=_remainder_invariant),
        "remainder integral": integral,
    }, lemmas=True)
    return cross_checked(proof, {c.name: smt.prove(c, ctx) for c in PIECES_AT})


# The segment-Lipschitz lemma whose constant the remainder bound uses (the capstone's
# smoothness half; the implication is its algebraic half).
_LIPSCHITZ_LEMMA = {
    "linear": "lean_mlp.linear_loss_grad_lipschitz",
    "mlp_output": "lean_mlp.linear_loss_grad_lipschitz",
    "mlp_hidden": "lean_mlp.mlp_hidden_loss_grad_lipschitz",
    "mlp_input": "lean_mlp.mlp_input_loss_grad_lipschitz",
}


def _declare_implication(c: Capstone):
    label = (f"{c.name}: '… and the two dominance conditions ⇒ one inexact SGD step … provably decreases the "
             "cross-entropy loss by ≥ lr·‖∇L‖₂²/2'")

    @obligation(
        id=f"lean_mlp.{c.key}_descent_implication",
        source=Source(DOC_004, label),
        statement=f"For {c.name}: the hypotheses (margins, small step, the two reconstructed dominance "
        "conditions), the first-order bound ∇L·e ≤ −lr‖∇L‖₂² + lr·η‖∇L‖₁ and the remainder bound C·D²/2 "
        "imply L(v − lr·g) − L(v) ≤ −lr·‖∇L‖₂²/2; the first-order bound and ‖lr·g‖₁ ≤ D follow from "
        "|g − ∇L|∞ ≤ η, and the remainder from the segment-Lipschitz shape.",
        scope="universally over ℝ in the scalar quantities (z3); the vector pieces for every number N of moving "
        "entries, by induction over N (z3 base and step; the remainder with the invariant ∑|Δ∇L·e| ≤ C·t·D·‖e‖₁); "
        "the integral ∫₀¹ C·t·D² dt (sympy); cross-check, not part of the proof: z3 on the pieces at N = 3",
        expect=Expect.HOLDS,
        lean=c.lean,
        uses=(_LIPSCHITZ_LEMMA[c.key],),
        claims=(IMPLICATIONS[c.key], *PIECES_AT),
        theorem=(IMPLICATIONS[c.key], FIRST_ORDER_ALL, REMAINDER_ALL),
    )
    def discharge(ctx):
        """The descent-lemma algebra behind the capstone, with the dominance conditions as
        reconstructed in the module docstring (the seeds leave them undefined). z3 proves the
        scalar implication (negation ``unsat`` over ℝ, nonlinear real arithmetic); the two
        vector facts it consumes are proved for every number N of moving entries by induction
        over N (a new entry adds ``−lr·gᵢ·∇ᵢ ≤ −lr·∇ᵢ² + lr·η·|∇ᵢ|`` and ``|lr·gᵢ| ≤ lr(|∇ᵢ| + η)``,
        resp. ``|Δ∇ᵢ·eᵢ| ≤ C·t·D·|eᵢ|``; z3 at N = 3 cross-checks the encoding); sympy evaluates
        the integral of the remainder's integrand.
        The margins and the small-step condition are listed because they are the capstone's
        hypotheses, but this algebra does not use them (they feed the segment-Lipschitz
        lemma, i.e. the remainder bound); a necessity audit reports them as not needed."""
        return _implication(c.key, ctx)

    discharge.__name__ = f"{c.key}_descent_implication"
    return discharge


for _c in CAPSTONES.values():
    globals()[f"{_c.key}_descent_implication"] = _declare_implication(_c)


# ---------------------------------------------------------------------------------------
# The joint all-layers step: the conjectured condition (checked in .descent_instances)
# ---------------------------------------------------------------------------------------


def joint_conjecture_hypotheses(s: Scalars, A0: Any, A1: Any) -> list[Hypothesis]:
    """Our conjectured condition for the joint step (all three weight matrices moving by
    ``lr`` times their certified gradients), at the joint radius ``D = lr·Σ‖∇_{Wᵢ}L‖₁`` (``s``
    carries the joint norms, ``s.a`` bounds |x|): with ``κ = d₂·w₁·w₂·a + w₂·A₀ + A₁`` (the
    logit drift per unit ℓ1 step through the input, hidden and output paths), the margins
    ``a·D < |z₀|``, ``(w₁·a + A₀)·D < |z₁|``, the small step ``2κD < 1`` and the dominance
    ``2·d₃·κ²/(1 − 2κD)·D² ≤ lr·‖∇L‖₂²/2``. Not from the seeds: a guess, tested by sampling."""
    D = s.D
    kappa = s.d2 * s.w1 * s.w2 * s.a + s.w2 * A0 + A1
    out = [Hypothesis("margin_z0", "a·D < |z₀ⱼ|", s.a * D, s.margin_z0, True),
           Hypothesis("margin_z1", "(w₁·a + A₀)·D < |z₁ₗ|", (s.w1 * s.a + A0) * D, s.margin_z1, True),
           Hypothesis("small_step", "2·κ·D < 1", 2 * kappa * D, 1, True)]
    return out, kappa
