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

from fractions import Fraction

from checker import Expect, Source, obligation
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


def _declare_example(c: Capstone, is_float: bool):
    name = c.float_name if is_float else c.name
    oracle = ("the binary32 gradient (η = its proven budget), update exact in ℝ" if is_float
              else "the exact closed-form gradient (η = 0) and a perturbed oracle g = ∇L − η·sign(∇L), η = 2⁻¹⁴")

    @obligation(
        id=f"lean_mlp.{name}_example",
        source=Source(DOC_004, f"{name}: 'every hypothesis is checkable arithmetic at a concrete point'"),
        statement=f"At the shipped example, every hypothesis of {name} holds (each with positive slack) for "
        f"{oracle}, and the actual loss change of the step, enclosed in intervals, is at most "
        "−lr·‖∇L‖₂²/2; along the step the gradient drifts by at most C·t·D at t = 1/8, …, 1.",
        scope=_EXAMPLE_SCOPE + (" (binary32 budgets of obligations/lean_mlp/binary32.py)" if is_float else ""),
        expect=Expect.HOLDS,
        lean=c.lean_float if is_float else c.lean,
        uses=(f"lean_mlp.{c.key}_descent_implication",) + ((_GRAD_CLOSE[c.key],) if is_float else ()),
    )
    def example(ctx):
        """The concrete-point discharge of the capstone (DESIGN, "Concrete-point discharge"):
        :func:`obligations.lean_mlp.discharge.discharge` evaluates every hypothesis of
        :func:`capstone_hypotheses` (and, for a binary32 rung, the float budget's rounding
        margins and a re-check of its accuracy against the closed-form gradient) with
        rigorous intervals at the shipped network, then encloses the actual loss change of
        the step ``W − lr·g`` and checks it is at most ``−lr·‖∇L‖₂²/2``. The conclusion is
        checked directly, so ``proved`` does not rest on the (reconstructed) constants; it is
        a statement about this one point only. As a cross-check of the constant C, the
        gradient's entrywise drift at ``t = 1/8, …, 1`` along the step is enclosed and
        compared with ``C·t·D`` (the shape the descent lemma consumes). Sources: the capstone
        docstrings of ``002``/``004``. The discharge evaluates the loaded network with its own
        interval code (:mod:`.discharge`), which no kernel rule expresses: each proved part is a
        trusted computation (the kernel's escape hatch, listed in the ledger), and no theorem is
        declared yet (the capstone at the shipped network is not written as a claim)."""
        return _example_discharge(c, is_float)

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
