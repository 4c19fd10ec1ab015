"""The descent capstones checked at concrete networks (rigorous intervals, through :mod:`.discharge`).

- each capstone and its binary32 rung at the shipped example network (``*_example``): every
  hypothesis of :mod:`.descent` evaluated with its slack, the actual loss change of the step
  enclosed and compared with ``−lr·‖∇L‖₂²/2``, and the segment-Lipschitz shape along the step;
- the joint all-layers step (open in the Lean development): the conjectured condition of
  :func:`.descent.joint_conjecture_hypotheses` tested at sampled networks (evidence only);
- every capstone at seeded random networks, at the largest admissible learning rate (evidence).

Each is a statement about the instances it evaluates; the universal algebra of the capstones
(the implication, z3) is in :mod:`.descent`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

from checker import Expect, Source, obligation
from checker.claims import claim
from obligations.grading import cross_checked
from obligations.lean_mlp import descent, mlp
from obligations.lean_mlp.descent import CAPSTONES, Capstone

DOC_004 = "004_8327de8ce09705d9.txt"


# ---------------------------------------------------------------------------------------
# (ii) the discharge at the shipped example network (rigorous intervals; (i) is in .descent)
# ---------------------------------------------------------------------------------------


def _report_verdict(report, where: str):
    """A discharge report (or a thunk making one, so that its time is recorded) as a verdict:
    ``proved`` when every hypothesis held and the loss change is enclosed at or below
    ``−lr·‖∇L‖₂²/2``; ``refuted`` only when every hypothesis
    held and the enclosure of the change lies strictly above it (a rigorous counterexample to
    the capstone at this point); otherwise ``unknown`` with the reason."""
    from checker.backends import interval
    from checker.backends.interval import Tri
    from checker.kernel.verdicts import refuted, timed, trusted, unknown

    method = f"rigorous interval evaluation {where} (exact rationals, arb exp/log)"
    with timed() as t:
        if callable(report):
            report = report()
        data = report.to_json()
        step = t.step(interval.NAME, interval.version(), f"discharge {report.capstone} ({report.oracle} oracle)",
                      "ok" if report.ok else (report.reason or "not ok"))
    if report.ok:
        return trusted(method, step, at=("the shipped example network",), discharge=data)
    if report.all_held and report.conclusion is Tri.FALSE:
        sides = {"loss_change_hi": report.change.hi, "minus_certified_decrease_lo": (-report.decrease).lo}
        return refuted(method, {"lr": report.lr, "eta": report.eta}, sides, step, discharge=data)
    return unknown(method, report.reason or "the conclusion was not checked", step, discharge=data)


def _shipped_file_matches() -> str | None:
    """None when the shipped .npz holds exactly the network of ``example_network()``."""
    from obligations.lean_mlp import discharge, mlp

    try:
        shipped = mlp.load_npz(discharge.EXAMPLE_FILE)
    except mlp.NetworkFileError as exc:
        return f"the shipped example file cannot be read: {exc}"
    if shipped != discharge.example_network():
        return "the shipped example_mlp.npz differs from discharge.example_network(); run data/make_example.py"
    return None


def _segment_verdict(capstone: str, x, eta=None):
    """The segment-Lipschitz shape ``max|∇L(v + t·e) − ∇L(v)| ≤ C·t·D`` at ``t = k/8`` along the
    capstone's step at the example (a cross-check of the constant C at this instance)."""
    from checker.backends import interval
    from checker.backends.interval import Tri
    from checker.kernel.verdicts import timed, trusted, unknown
    from obligations.lean_mlp import discharge

    method = "rigorous interval evaluation of the gradient drift at t = k/8 along the step"
    with timed() as t:
        report, points = discharge.segment_check(capstone, discharge.example_network(), x, discharge.EXAMPLE_LABEL,
                                                 discharge.EXAMPLE_LR, eta=eta)
        table = {str(p.t): {"drift": p.drift.describe(8), "C·t·D": p.bound.describe(8), "holds": p.truth.value}
                 for p in points}
        step = t.step(interval.NAME, interval.version(), f"segment drift of {report.capstone}", str(len(points)),
                      points=table)
    if len(points) == 8 and all(p.truth is Tri.TRUE for p in points):
        return trusted(method, step, at=[f"t = {p.t} on the example's step" for p in points], points=table)
    return unknown(method, "the drift at some t was not enclosed below C·t·D (or not evaluated)", step, points=table)


def _example_discharge(c: Capstone, is_float: bool):
    from checker.kernel.verdicts import all_of, unknown
    from obligations.lean_mlp import discharge

    stale = _shipped_file_matches()
    if stale:
        return unknown("comparison of the shipped file with its generator", stale)
    net = discharge.example_network()
    x = discharge.EXAMPLE_LINEAR_X if c.key == "linear" else discharge.EXAMPLE_X
    where = f"at the shipped example network, lr = {discharge.EXAMPLE_LR}"
    name = c.float_name if is_float else c.name
    if is_float:
        return all_of(f"rigorous interval evaluation {where}", {
            "binary32 oracle": _report_verdict(
                lambda: discharge.discharge(name, net, x, discharge.EXAMPLE_LABEL, discharge.EXAMPLE_LR), where),
            "segment-Lipschitz shape at t = k/8 (cross-check of C)": _segment_verdict(name, x),
        })
    return all_of(f"rigorous interval evaluation {where}", {
        "segment-Lipschitz shape at t = k/8 (cross-check of C)": _segment_verdict(name, x),
        "exact oracle (η = 0)": _report_verdict(
            lambda: discharge.discharge(name, net, x, discharge.EXAMPLE_LABEL, discharge.EXAMPLE_LR), where),
        f"perturbed oracle (η = {discharge.EXAMPLE_ETA})": _report_verdict(
            lambda: discharge.discharge(name, net, x, discharge.EXAMPLE_LABEL, discharge.EXAMPLE_LR,
                                        eta=discharge.EXAMPLE_ETA), where),
    })


# ---------------------------------------------------------------------------------------
# (ii) the capstone at the shipped example network, as a closed claim (rigorous intervals)
# ---------------------------------------------------------------------------------------

ORACLES = {"exact": "the exact closed-form gradient (η = 0)",
           "perturbed": "the perturbed oracle g = ∇L − η·sign(∇L), η = 2⁻¹⁴",
           "float": "the binary32 gradient g̃ (η = its proven budget)"}


@dataclass(frozen=True)
class _Example:
    """The moving layer of a capstone at the shipped example, in exact rationals: its input u, the
    rational map M from the head's cotangent r = softmax − onehot to the layer's output cotangent
    c = M·r (the masks and transposed weights above the layer, frozen at the example), its
    pre-activations z, the pre-activations that must keep their signs, and the layers above it."""

    u: tuple
    M: tuple  # rows j (outputs of the moving layer), columns k (classes)
    z: tuple  # the moving layer's pre-activations (for the linear net and W₂: the logits)
    margins: dict
    above: tuple  # (W, b) of each layer above the moving one, each followed by a ReLU except the last


@functools.lru_cache(maxsize=None)
def _example(key: str) -> _Example:
    from obligations.lean_mlp import discharge

    net = discharge.example_network()
    if key == "linear":
        u = discharge.EXAMPLE_LINEAR_X
        eye = tuple(tuple(Fraction(int(j == k)) for k in range(len(net.b2))) for j in range(len(net.b2)))
        return _Example(tuple(u), eye, tuple(mlp.dense(net.W2, net.b2, u)), {}, ())
    f = mlp.forward(net, discharge.EXAMPLE_X)
    d3 = len(net.b2)
    # c₁ = relu'(z₁)∘(W₂ᵀr), c₀ = relu'(z₀)∘(W₁ᵀc₁): the rows of M are those contractions of the unit vectors
    m1 = tuple(tuple(net.W2[l][k] if f.z1[l] > 0 else Fraction(0) for k in range(d3)) for l in range(len(f.z1)))
    m0 = tuple(tuple(sum((net.W1[j][l] * m1[l][k] for l in range(len(m1))), Fraction(0)) if f.z0[j] > 0 else Fraction(0)
                     for k in range(d3)) for j in range(len(f.z0)))
    match key:
        case "mlp_output":
            eye = tuple(tuple(Fraction(int(j == k)) for k in range(d3)) for j in range(d3))
            return _Example(f.a1, eye, f.logits, {}, ())
        case "mlp_hidden":
            return _Example(f.a0, m1, f.z1, {"z1": f.z1}, ((net.W2, net.b2),))
        case "mlp_input":
            return _Example(tuple(discharge.EXAMPLE_X), m0, f.z0, {"z0": f.z0, "z1": f.z1},
                            ((net.W1, net.b1), (net.W2, net.b2)))
    raise KeyError(key)


@functools.lru_cache(maxsize=None)
def _float_oracle(key: str) -> tuple:
    """The binary32 rung's oracle at the example: (g̃ as exact rationals, η, the budget's rounding
    hypotheses (name, lhs, rhs), the (s, exp32(s)) pairs of the float head). Computed by the float
    model of :mod:`.binary32` (numpy float32), as in :func:`.discharge.discharge`."""
    from obligations.lean_mlp import binary32, discharge

    net, label = discharge.example_network(), discharge.EXAMPLE_LABEL
    cap = CAPSTONES[key]
    if key == "linear":
        run, budget = discharge._linear_float(binary32, net, discharge.EXAMPLE_LINEAR_X, label)
    else:
        run = binary32.float_run(cap.layer, net, discharge.EXAMPLE_X, label)
        budget = binary32.gradient_budget(cap.layer, net, discharge.EXAMPLE_X, label)
    g = tuple(tuple(Fraction(float(v)) for v in row) for row in run.grad[0])
    hyps = tuple((name, Fraction(lhs), Fraction(rhs)) for name, lhs, rhs in budget.hypotheses)
    return g, Fraction(budget.eta), hyps, tuple(binary32.head_exp_arguments(run.logits[0]))


def _total(xs: Sequence[Any]) -> Any:
    """∑ xs, written without a leading 0 (so the printed claim reads as the sum)."""
    xs = [x for x in xs if not (isinstance(x, (int, Fraction)) and x == 0)]
    return sum(xs[1:], xs[0]) if xs else Fraction(0)


def _sign(o: Any, c: Any) -> Any:
    """sign(c): 0 for an entry masked to the constant 0, else c/|c| (a claim with c = 0 there would be
    undefined, which no backend proves)."""
    if isinstance(c, (int, Fraction)):
        return (c > 0) - (c < 0)
    return c / o.abs(c)


def _capstone_parts(o: Any, key: str, oracle: str) -> dict[str, Any]:
    """The capstone ``key`` at the shipped example for ``oracle``, in the ops ``o``: its hypotheses
    (name → formula) and the conclusion's two sides.

    The gradient is the closed form ∇L = u ⊗ c (u the moving layer's input, c = M·r the output
    cotangent, r = softmax(logits) − onehot(label)), which ``mlp_*_loss_grad_at`` prove is ∇L. It
    enters through the identities of an outer product: ‖∇L‖₁ = ‖u‖₁·‖c‖₁, ‖∇L‖₂² = ‖u‖₂²·‖c‖₂², and
    the step W − lr·g moves the layer's pre-activations z = Wᵀu + b to z − lr·gᵀu, with
    gᵀu = ‖u‖₂²·c for g = ∇L and ‖u‖₂²·c − η·‖u‖₁·sign(c) for g = ∇L − η·sign(∇L) (sign(uᵢcⱼ) =
    sign(uᵢ)·sign(cⱼ)); the binary32 g̃ is a matrix of exact constants and gᵀu is computed."""
    from obligations.lean_mlp import discharge

    net, label, lr = discharge.example_network(), discharge.EXAMPLE_LABEL, discharge.EXAMPLE_LR
    ex = _example(key)
    logits = ex.z if not ex.above else mlp.forward(net, discharge.EXAMPLE_X).logits
    e = [o.exp(t) for t in logits]
    total = _total(e)
    r = [ek / total - 1 if k == label else ek / total for k, ek in enumerate(e)]
    c = [_total([m * rk for m, rk in zip(row, r) if m != 0]) for row in ex.M]
    u1, u2 = _total([abs(x) for x in ex.u]), _total([x * x for x in ex.u])
    g1 = u1 * _total([o.abs(cj) for cj in c if not (isinstance(cj, Fraction) and cj == 0)])
    g2 = u2 * _total([cj * cj for cj in c if not (isinstance(cj, Fraction) and cj == 0)])
    hyps: dict[str, Any] = {}
    if oracle == "float":
        g, eta, budget, exps = _float_oracle(key)
        W = {"W2": net.W2, "W1": net.W1, "W0": net.W0}[CAPSTONES[key].layer]
        moved = [t - lr * _total([ui * row[j] for ui, row in zip(ex.u, g)]) for j, t in enumerate(ex.z)]
        assert len(g) == len(W) and len(g[0]) == len(W[0])
        for name, lhs, rhs in budget:
            hyps[f"float budget: {name}"] = o.lt(lhs, rhs)
        eps = _binary32_exp_rel()
        hyps["float budget: exp accuracy"] = o.and_(*(o.and_(o.le(-81, s), o.le(s, 0), o.le(o.abs(e32 - o.exp(s)), eps * o.exp(s)))
                                                      for s, e32 in exps))
        hyps["oracle_accuracy"] = o.and_(*(o.le(o.abs(g[i][j] - ui * cj), eta) for i, ui in enumerate(ex.u)
                                           for j, cj in enumerate(c)))
    elif oracle == "perturbed":
        eta = discharge.EXAMPLE_ETA
        moved = [t - lr * (u2 * cj - eta * u1 * _sign(o, cj)) for t, cj in zip(ex.z, c)]
    else:
        eta = Fraction(0)
        moved = [t - lr * u2 * cj for t, cj in zip(ex.z, c)]
    a = max(abs(x) for x in ex.u)
    w1, w2 = (max(abs(w) for row in m for w in row) for m in (net.W1, net.W2))
    d2, d3 = len(net.b1), len(net.b2)
    s = descent.Scalars(lr, eta, len(ex.u) * len(ex.z), g1, g2, a, w1, w2, d2, d3,
                        *(min(abs(z) for z in ex.margins[n]) if n in ex.margins else None for n in ("z0", "z1")))
    for h in descent.capstone_hypotheses(key, s):
        hyps[h.name] = (o.lt if h.strict else o.le)(h.lhs, h.rhs)
    after = moved
    for W, b in ex.above:  # a ReLU, then the next dense layer (Wᵀ·relu(z) + b)
        after = mlp.dense(W, b, [o.relu(t) for t in after])
    def ce(zs):
        return o.log(_total([o.exp(t) for t in zs])) - zs[label]
    return {"hypotheses": hyps, "change": ce(after) - ce(logits), "minus_decrease": -descent.certified_decrease(s)}


def _binary32_exp_rel() -> Fraction:
    from obligations.lean_mlp import binary32

    return Fraction(binary32.BINARY32.exp_rel)


def capstone_claims(key: str, oracle: str) -> tuple:
    """Two closed claims about the shipped example: every hypothesis of the capstone holds for
    ``oracle`` (a conjunction), and the step's loss change is at most −lr·‖∇L‖₂²/2."""
    c = CAPSTONES[key]
    name = c.float_name if oracle == "float" else c.name
    tag = "" if oracle == "float" else f"-{oracle}"

    def hypotheses(o, v):
        return o.and_(*_capstone_parts(o, key, oracle)["hypotheses"].values())

    def descends(o, v):
        p = _capstone_parts(o, key, oracle)
        return o.le(p["change"], p["minus_decrease"])

    return (claim(f"{name}-hypotheses-at-example{tag}", (), hypotheses),
            claim(f"{name}-descends-at-example{tag}", (), descends,
                  terms={"change": lambda o, v: _capstone_parts(o, key, oracle)["change"],
                         "minus_decrease": lambda o, v: _capstone_parts(o, key, oracle)["minus_decrease"]}))


def _example_oracles(is_float: bool) -> tuple[str, ...]:
    return ("float",) if is_float else ("exact", "perturbed")


def example_theorem(c: Capstone, is_float: bool) -> tuple:
    return tuple(claim_ for oracle in _example_oracles(is_float) for claim_ in capstone_claims(c.key, oracle))


_EXAMPLE_SCOPE = ("at the shipped example network (obligations/lean_mlp/data/example_mlp.npz, d = (3, 4, 4, 3)), "
                  "example x = (1, −1/2, 3/4) (linear: the output layer on x = (1/2, −1, 3/4, 1/4)), label 1, "
                  "lr = 1/256; rigorous intervals")


# The grad-close that proves the binary32 rung's oracle accuracy (FloatBridge).
_GRAD_CLOSE = {
    "linear": "lean_mlp.float.linear_grad_close",
    "mlp_output": "lean_mlp.float.linear_grad_close",
    "mlp_hidden": "lean_mlp.float.mlp_w1_grad_close",
    "mlp_input": "lean_mlp.float.mlp_w0_grad_close",
}


def _example_proof(c: Capstone, is_float: bool):
    """The declared theorem (:func:`example_theorem`) by one rigorous enclosure of each closed claim,
    cross-checked by the discharge's own evaluation of the same network (:mod:`.discharge`, with the
    segment drift at t = k/8): a disagreement leaves the result unknown (or refuted, re-checked)."""
    from checker.backends import interval
    from checker.kernel.verdicts import all_of, unknown

    stale = _shipped_file_matches()
    if stale:
        return unknown("comparison of the shipped file with its generator", stale)
    where = f"at the shipped example network, lr = {_lr()}"
    parts = {cl.name: interval.prove_on(cl, {}, where=where) for cl in example_theorem(c, is_float)}
    proof = all_of(f"rigorous interval enclosure of the closed claims {where}", parts, lemmas=True)
    return cross_checked(proof, {"the discharge's own evaluation and the segment drift (obligations discharge)":
                                 _example_discharge(c, is_float)})


def _lr() -> Fraction:
    from obligations.lean_mlp import discharge

    return discharge.EXAMPLE_LR


# the obligations proving the closed-form gradient u ⊗ c the examples' claims use for ∇L
_GRAD_FORM = {"mlp_hidden": ("lean_mlp.mlp_hidden_loss_grad_at",), "mlp_input": ("lean_mlp.mlp_input_loss_grad_at",)}


def _declare_example(c: Capstone, is_float: bool):
    name = c.float_name if is_float else c.name
    oracle = (ORACLES["float"] + ", update exact in ℝ" if is_float
              else f"{ORACLES['exact']} and {ORACLES['perturbed']}")

    @obligation(
        id=f"lean_mlp.{name}_example",
        source=Source(DOC_004, f"{name}: 'every hypothesis is checkable arithmetic at a concrete point'"),
        statement=f"At the shipped example, every hypothesis of {name} holds (each with positive slack) for "
        f"{oracle}, and the loss change of the step W − lr·g is at most −lr·‖∇L‖₂²/2.",
        scope=_EXAMPLE_SCOPE + (" (binary32 budgets of obligations/lean_mlp/binary32.py; g̃ and the float head's "
                                "exp values are the float model's numpy float32 results, entered as exact constants)"
                                if is_float else "")
        + "; closed claims with ∇L the closed-form gradient u ⊗ c, proved by one rigorous enclosure each; "
        "cross-checks: the discharge's own evaluation and the gradient's drift ≤ C·t·D at t = 1/8, …, 1",
        expect=Expect.HOLDS,
        lean=c.lean_float if is_float else c.lean,
        uses=(f"lean_mlp.{c.key}_descent_implication",) + ((_GRAD_CLOSE[c.key],) if is_float else ())
        + _GRAD_FORM.get(c.key, ()),
        theorem=example_theorem(c, is_float),
    )
    def example(ctx):
        """The capstone at the shipped network, as closed claims (:func:`capstone_claims`): every
        hypothesis of :func:`capstone_hypotheses` (and, for a binary32 rung, the float budget's
        rounding margins, the head's exp accuracy and |g̃ − ∇L|∞ ≤ η against the closed form) holds,
        and the loss change of the step ``W − lr·g`` is at most ``−lr·‖∇L‖₂²/2``. Each claim has no
        free variable (the network, example, label and learning rate are its constants; ``exp`` and
        ``log`` are the claim language's) and is proved by one rigorous enclosure (python-flint
        arb): a closed statement, so the kernel grades it outright. The conclusion is checked
        directly, so ``proved`` does not rest on the (reconstructed) constants; it is a statement
        about this one network only. ∇L is the closed form ``u ⊗ c`` (``mlp_*_loss_grad_at`` prove
        it is the gradient off the kinks). Cross-checks (data): the discharge's own interval
        evaluation of the same network (:func:`obligations.lean_mlp.discharge.discharge`, the code
        behind ``obligations discharge``) and the gradient's drift at ``t = 1/8, …, 1`` along the
        step against ``C·t·D`` (the shape the descent lemma consumes). Sources: the capstone
        docstrings of ``002``/``004``."""
        return _example_proof(c, is_float)

    example.__name__ = f"{name}_example"
    return example


for _c in CAPSTONES.values():
    globals()[f"{_c.name}_example"] = _declare_example(_c, False)
for _c in CAPSTONES.values():
    globals()[f"{_c.float_name}_example"] = _declare_example(_c, True)


# ---------------------------------------------------------------------------------------
# The joint all-layers step: open in the Lean development (evidence only)
# ---------------------------------------------------------------------------------------


JOINT_LRS = tuple(Fraction(1, 2 ** k) for k in range(4, 13))


@obligation(
    id="lean_mlp.joint_step_descends",
    source=Source(DOC_004, "'The joint all-layers step … is the remaining open rung'"),
    statement="Conjecture (ours): one SGD step moving W₀, W₁ and W₂ at once by lr times their certified "
    "gradients decreases the loss by at least lr·‖∇L‖₂²/2 whenever the conjectured joint condition "
    "(margins at the joint radius, 2κD < 1, 2·d₃·κ²/(1 − 2κD)·D² ≤ lr·‖∇L‖₂²/2) holds.",
    scope="the shipped example network and 40 seeded random d = (3, 4, 4, 3) dyadic networks, lr = 2⁻⁴ … 2⁻¹²; "
    "each instance checked in rigorous intervals; evidence only (never proved): the Lean development leaves it open",
    expect=Expect.OPEN,
    lean="SgdDescentMlp.joint_step_descends",
)
def joint_step_descends(ctx):
    """The Lean development's open rung (004: "every parameter moving at once, logits no
    longer affine in the moving parameters"). We state a conjectured sufficient condition
    (:func:`joint_conjecture_hypotheses`) and test it: at each instance where the condition
    holds (rigorous intervals), the joint step's loss change is enclosed and compared with
    ``−lr·‖∇L‖₂²/2``. A rigorous violation would refute OUR conjecture (reported
    ``refuted`` with the instance); agreement everywhere is only ``supported``."""
    from checker.backends import interval
    from checker.backends.interval import Tri
    from checker.kernel.verdicts import refuted, supported, timed, unknown
    from obligations.lean_mlp import discharge

    rng = ctx.py_random("joint-step")
    nets = [("example", discharge.example_network(), discharge.EXAMPLE_X, discharge.EXAMPLE_LABEL)]
    for i in range(40):
        def m(r, c):
            return tuple(tuple(Fraction(rng.randint(-8, 8), 16) for _ in range(c)) for _ in range(r))
        net = discharge.mlp.Mlp(m(3, 4), m(1, 4)[0], m(4, 4), m(1, 4)[0], m(4, 3), m(1, 3)[0])
        x = tuple(Fraction(rng.randint(-8, 8), 8) for _ in range(3))
        nets.append((f"random {i}", net, x, rng.randrange(3)))
    counts = {"instances": 0, "zero_gradient": 0, "condition_held": 0, "descended": 0, "undecided": 0}
    with timed() as t:
        for name, net, x, label in nets:
            for lr, r in zip(JOINT_LRS, discharge.joint_steps(net, x, label, JOINT_LRS)):
                counts["instances"] += 1
                if r is None or r["condition"] is not Tri.TRUE:
                    continue
                if r["zero_gradient"]:  # every ReLU path dead: the step does not move
                    counts["zero_gradient"] += 1
                    continue
                counts["condition_held"] += 1
                if r["conclusion"] is Tri.TRUE:
                    counts["descended"] += 1
                elif r["conclusion"] is Tri.FALSE:
                    step = t.step(interval.NAME, interval.version(), "joint step at a sampled instance", "violation")
                    return refuted("rigorous interval evaluation of sampled joint steps",
                                   {"instance": name, "lr": lr, "label": label, **{f"x{i}": v for i, v in enumerate(x)}},
                                   {"loss_change_hi": r["change"].hi, "minus_decrease_lo": (-r["decrease"]).lo}, step,
                                   network={k: [[str(v) for v in row] if isinstance(row, tuple) else str(row)
                                                for row in getattr(net, k)] for k in discharge.mlp.LAYERS})
                else:
                    counts["undecided"] += 1
        step = t.step(interval.NAME, interval.version(), "joint steps at sampled instances", str(counts), **counts)
    if counts["condition_held"] == 0:
        return unknown("rigorous interval evaluation of sampled joint steps",
                       "the conjectured condition held at no sampled instance", step, **counts)
    return supported("rigorous interval evaluation of sampled joint steps (evidence only; the joint step is open)",
                     step, seed=ctx.seed, **counts)


# ---------------------------------------------------------------------------------------
# Beyond the example: seeded instances at the largest admissible learning rate (evidence)
# ---------------------------------------------------------------------------------------

RANDOM_INSTANCES = 8


def _random_instance(rng):
    from obligations.lean_mlp import mlp

    def m(r, c):
        return tuple(tuple(Fraction(rng.randint(-12, 12), 16) for _ in range(c)) for _ in range(r))

    net = mlp.Mlp(m(3, 4), m(1, 4)[0], m(4, 4), m(1, 4)[0], m(4, 3), m(1, 3)[0])
    x = tuple(Fraction(rng.randint(-8, 8), 8) for _ in range(3))
    u = tuple(Fraction(rng.randint(-8, 8), 8) for _ in range(4))
    return net, x, u, rng.randrange(3)


def _largest_admissible(name: str, net, x, label):
    """The largest lr found by doubling from 2⁻¹⁶ and six bisection steps at which
    every hypothesis of ``name`` holds, with its report; None when even 2⁻¹⁶ is not admissible.
    The search reads the hypotheses only; the report (with the loss change) is evaluated at the
    lr found."""
    from obligations.lean_mlp import discharge

    evaluate = discharge.at_rates(name, net, x, label)

    def held(lr):
        return evaluate(lr, conclusion=False).all_held

    lo = Fraction(1, 2 ** 16)
    if not held(lo):
        return None
    hi = lo * 2
    while hi <= 4 and held(hi):
        lo, hi = hi, hi * 2
    for _ in range(6):
        mid = (lo + hi) / 2
        if held(mid):
            lo = mid
        else:
            hi = mid
    return evaluate(lo)


@obligation(
    id="lean_mlp.capstones_at_largest_admissible_lr",
    source=Source(DOC_004, "the descent capstones: 'the loss drops by ≥ lr·‖∇L‖₂²/2'"),
    statement="At seeded random networks, for every capstone (ℝ and binary32), at the largest learning rate "
    "at which every (reconstructed) hypothesis holds, the loss change of the step is at most −lr·‖∇L‖₂²/2.",
    scope=f"{RANDOM_INSTANCES} seeded d = (3, 4, 4, 3) networks with weights in {{k/16: |k| ≤ 12}}, every capstone "
    "and rung, lr the largest admissible found by doubling from 2⁻¹⁶ and bisecting; each instance checked in rigorous intervals "
    "(evidence for the capstones as reconstructed, not a proof of them)",
    expect=Expect.HOLDS,
    lean=tuple(c.lean for c in CAPSTONES.values()) + tuple(c.lean_float for c in CAPSTONES.values()),
    uses=tuple(f"lean_mlp.{k}_descent_implication" for k in CAPSTONES),
    no_theorem="the capstone for every d = (3, 4, 4, 3) network is one claim over 51 weights, the input and lr that "
    "prints at megabytes, and the seeded networks depend on the seed: the theorems are the descent implications' "
    "(lean_mlp.*_descent_implication); this is evidence at seeded instances",
)
def capstones_at_largest_admissible_lr(ctx):
    """The sharpest test of the reconstructed hypotheses that intervals can give: at the edge
    of the admissible learning rates (where the dominance/small-step/margin slack is nearly
    0) the conclusion is most stressed. Each instance is a rigorous check at one point; a
    violation (every hypothesis held, change enclosed above −decrease) would refute the
    capstone as reconstructed and is reported ``refuted`` with the instance. Agreement at every
    instance is evidence only (``supported``)."""
    from checker.backends import interval
    from checker.backends.interval import Tri
    from checker.kernel.verdicts import refuted, supported, timed, unknown

    rng = ctx.py_random("capstones-largest-lr")
    counts = {"instances": 0, "admissible": 0, "checked": 0, "undecided": 0}
    tightest: dict[str, float] = {}
    with timed() as t:
        for _ in range(RANDOM_INSTANCES):
            net, x, u, label = _random_instance(rng)
            for c in CAPSTONES.values():
                for name in (c.name, c.float_name):
                    counts["instances"] += 1
                    r = _largest_admissible(name, net, u if c.key == "linear" else x, label)
                    if r is None:
                        continue
                    counts["admissible"] += 1
                    if r.conclusion is Tri.TRUE:
                        counts["checked"] += 1
                        if r.decrease.lo > 0:
                            ratio = float(-r.change.hi / r.decrease.lo)
                            tightest[name] = min(tightest.get(name, ratio), ratio)
                    elif r.conclusion is Tri.FALSE:
                        step = t.step(interval.NAME, interval.version(), f"{name} at the largest admissible lr",
                                      "violation")
                        return refuted("rigorous interval evaluation at seeded instances",
                                       {"lr": r.lr, "label": label, **{f"x{i}": v for i, v in enumerate(x)}},
                                       {"loss_change_hi": r.change.hi, "minus_decrease_lo": (-r.decrease).lo}, step,
                                       capstone=name, discharge=r.to_json())
                    else:
                        counts["undecided"] += 1
        step = t.step(interval.NAME, interval.version(), "capstones at the largest admissible lr", str(counts),
                      **counts, smallest_decrease_ratio={k: round(v, 4) for k, v in tightest.items()})
    if counts["checked"] == 0:
        return unknown("rigorous interval evaluation at seeded instances", "no instance was admissible", step, **counts)
    return supported("rigorous interval evaluation at seeded instances (evidence only)", step, seed=ctx.seed,
                     smallest_decrease_ratio={k: round(v, 4) for k, v in tightest.items()}, **counts)
