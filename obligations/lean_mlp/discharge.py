"""Concrete-point discharge of the descent capstones (a library; it declares no obligations).

Given a concrete MLP (exact binary32 weights), an example ``(x, label)`` and a learning rate,
:func:`discharge` evaluates every hypothesis of a capstone of :mod:`.descent` with rigorous
intervals (exact rationals for everything rational, python-flint ``arb`` for ``exp``/``log``),
reports each one's slack, and, where all hold, the certified decrease ``lr·‖∇L‖₂²/2`` next to
the actual loss change of the step, enclosed in intervals, and whether the change is at most
minus the certified decrease. ``obligations discharge`` prints the result.

The moving layer and what ``a`` bounds:

========================  ============  =====================================================
capstone                  moving        the step's layer input (``a = max|·|``)
========================  ============  =====================================================
``linear``                ``W₂``        the example itself: the network's output layer taken
                                        as a stand-alone linear net ``dense W₂ b₂`` on ℝ^{d₂}
``mlp_output``            ``W₂``        ``a₁`` (the hidden activation of the example)
``mlp_hidden``            ``W₁``        ``a₀``
``mlp_input``             ``W₀``        ``x``
========================  ============  =====================================================

The oracle ``g``: ``exact`` is the closed-form gradient (η = 0); ``perturbed`` (``eta > 0``)
is ``∇L − η·sign(∇L)`` entrywise (it lowers ``∇L·g`` by exactly ``η·‖∇L‖₁``, the worst case
of the first-order term); ``float`` is the binary32 gradient of :mod:`.binary32` with η its
proven budget, and the update is taken exactly in ℝ (``W − lr·g̃``, exact rationals).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Sequence

from checker.backends import CannotDecide
from checker.backends.interval import DEFAULT_PREC, OPS, Interval, Tri, precision
from checker.kernel.errors import UsageError
from obligations.lean_mlp import descent, mlp

DATA_DIR = Path(__file__).resolve().parent / "data"
EXAMPLE_FILE = DATA_DIR / "example_mlp.npz"

# The shipped example: the network of :func:`example_network`, the input, label and learning
# rate at which every capstone's hypotheses hold (checked by the ``*_example`` obligations).
EXAMPLE_X: tuple[Fraction, ...] = (Fraction(1), Fraction(-1, 2), Fraction(3, 4))
EXAMPLE_LABEL = 1
EXAMPLE_LINEAR_X: tuple[Fraction, ...] = (Fraction(1, 2), Fraction(-1), Fraction(3, 4), Fraction(1, 4))
EXAMPLE_LR = Fraction(1, 256)
EXAMPLE_ETA = Fraction(1, 2 ** 14)


def _q(rows: Sequence[Sequence[int]], den: int) -> tuple:
    return tuple(tuple(Fraction(v, den) for v in row) for row in rows)


def example_network() -> mlp.Mlp:
    """The shipped d = (3, 4, 4, 3) network: small dyadic weights (exact in binary32), every
    pre-activation of the example well away from its kink."""
    return mlp.Mlp(
        W0=_q([[5, -3, 2, 4], [-2, 4, 3, -5], [3, 2, -4, 1]], 8),
        b0=tuple(Fraction(v, 8) for v in (1, 2, -1, 1)),
        W1=_q([[3, -2, 4, 1], [-1, 3, 2, -4], [2, 4, -3, 2], [4, -1, 1, 3]], 8),
        b1=tuple(Fraction(v, 8) for v in (1, -1, 2, 1)),
        W2=_q([[4, -3, 1], [-2, 5, -1], [3, 1, -4], [-1, -2, 3]], 8),
        b2=tuple(Fraction(v, 8) for v in (0, 1, -1)),
    )


def write_example(path: str | os.PathLike[str] = EXAMPLE_FILE) -> None:
    mlp.save_npz(path, example_network())


# ---------------------------------------------------------------------------------------
# Parsing the capstone name
# ---------------------------------------------------------------------------------------

ORACLES = ("exact", "perturbed", "float")


def parse_capstone(name: str) -> tuple[descent.Capstone, bool]:
    """``mlp_hidden``, ``mlp_hidden_sgd_descends``, ``mlp_hidden_float``,
    ``mlp_hidden_float_sgd_descends`` (and dotted Lean names) → (capstone, is_float)."""
    base = name.strip().rpartition(".")[2]
    if base.endswith("_sgd_descends"):
        base = base[: -len("_sgd_descends")]
    is_float = base.endswith("_float")
    if is_float:
        base = base[: -len("_float")]
    if base not in descent.CAPSTONES:
        choices = ", ".join(f"{k}_sgd_descends, {k}_float_sgd_descends" for k in descent.CAPSTONES)
        raise UsageError(f"unknown capstone {name!r}; choose one of {choices}")
    return descent.CAPSTONES[base], is_float


# ---------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------


def _verdict(t: Tri) -> str:
    return {Tri.TRUE: "held", Tri.FALSE: "failed", Tri.UNKNOWN: "undecided"}[t]


@dataclass(frozen=True, slots=True)
class HypothesisResult:
    """One hypothesis evaluated: ``lhs < rhs`` (or ``≤``) with its slack ``rhs − lhs``."""

    name: str
    meaning: str
    lhs: Interval | None
    rhs: Interval | None
    strict: bool
    truth: Tri
    note: str = ""

    @property
    def verdict(self) -> str:
        return _verdict(self.truth)

    @property
    def slack(self) -> Interval | None:
        if self.lhs is None or self.rhs is None:
            return None
        return self.rhs - self.lhs

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "meaning": self.meaning, "relation": "<" if self.strict else "<=",
                "lhs": _iv_json(self.lhs), "rhs": _iv_json(self.rhs), "slack": _iv_json(self.slack),
                "verdict": self.verdict, "note": self.note}


def _iv_json(x: Interval | None) -> Any:
    if x is None:
        return None
    return {"lo": _fmt(x.lo), "hi": _fmt(x.hi), "display": x.describe(10)}


def _show(x: Interval, digits: int = 10) -> str:
    """An enclosure for display: one number when both ends agree to ``digits`` digits."""
    text = x.describe(digits)
    lo, _, hi = text[1:-1].partition(", ")
    return lo if lo == hi else text


def _short(q: Fraction) -> str:
    """An exact number, or its decimal value (≈) when the fraction is long."""
    text = _fmt(q)
    return text if len(text) <= 24 else f"≈{float(q):.10g}"


def _fmt(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


@dataclass(frozen=True, slots=True)
class Report:
    """Everything one discharge established (or could not)."""

    capstone: str  # the Lean name, e.g. mlp_hidden_float_sgd_descends
    layer: str
    oracle: str
    lr: Fraction
    eta: Fraction
    entries: int
    quantities: dict[str, Interval]
    hypotheses: tuple[HypothesisResult, ...]
    decrease: Interval | None = None  # lr·‖∇L‖₂²/2
    loss_before: Interval | None = None
    loss_after: Interval | None = None
    change: Interval | None = None
    conclusion: Tri = Tri.UNKNOWN
    reason: str = ""  # why the conclusion was not checked, if it was not
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def all_held(self) -> bool:
        return all(h.truth is Tri.TRUE for h in self.hypotheses)

    @property
    def failed(self) -> tuple[str, ...]:
        return tuple(h.name for h in self.hypotheses if h.truth is Tri.FALSE)

    @property
    def ok(self) -> bool:
        """Every hypothesis held and the conclusion checked (the command's exit code 0)."""
        return self.all_held and self.conclusion is Tri.TRUE

    def to_json(self) -> dict[str, Any]:
        return {
            "capstone": self.capstone, "layer": self.layer, "oracle": self.oracle,
            "lr": _fmt(self.lr), "eta": _fmt(self.eta), "entries": self.entries,
            "quantities": {k: _iv_json(v) for k, v in self.quantities.items()},
            "hypotheses": [h.to_json() for h in self.hypotheses],
            "all_held": self.all_held,
            "certified_decrease": _iv_json(self.decrease),
            "loss_before": _iv_json(self.loss_before), "loss_after": _iv_json(self.loss_after),
            "loss_change": _iv_json(self.change),
            "conclusion": {Tri.TRUE: "checked", Tri.FALSE: "failed", Tri.UNKNOWN: "undecided"}[self.conclusion],
            "reason": self.reason, "ok": self.ok, **({"extra": self.extra} if self.extra else {}),
        }

    def render_table(self) -> str:
        lines = [f"{self.capstone} at lr = {_short(self.lr)}, oracle {self.oracle}, η = {_short(self.eta)} "
                 f"({self.layer} moving, N = {self.entries} entries)"]
        for k, v in self.quantities.items():
            lines.append(f"  {k:<14} {_show(v)}")
        lines.append("hypotheses:")
        width = max(len(h.name) for h in self.hypotheses)
        for h in self.hypotheses:
            rel = "<" if h.strict else "≤"
            if h.lhs is None:
                body = h.note
            else:
                body = f"{_show(h.lhs, 8)} {rel} {_show(h.rhs, 8)}  slack {_show(h.slack, 6)}"
                if h.note:
                    body += f"  ({h.note})"
            lines.append(f"  {h.name:<{width}}  {h.verdict:<9}  {body}")
            lines.append(f"  {'':<{width}}  {'':<9}  {h.meaning}")
        if self.change is not None:
            lines.append(f"certified decrease lr·‖∇L‖₂²/2  {_show(self.decrease, 12)}")
            lines.append(f"loss before                     {_show(self.loss_before, 16)}")
            lines.append(f"loss after                      {_show(self.loss_after, 16)}")
            lines.append(f"actual loss change              {_show(self.change, 12)}")
        verdict = {Tri.TRUE: "checked: change ≤ −certified decrease",
                   Tri.FALSE: "FAILED: change > −certified decrease",
                   Tri.UNKNOWN: "not certified"}[self.conclusion]
        lines.append(f"conclusion: {verdict}" + (f" ({self.reason})" if self.reason else ""))
        return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# The evaluation
# ---------------------------------------------------------------------------------------


def _interval_positive(z: Any) -> bool:
    """Sign test after the step: decided by the enclosure, or the evaluation cannot decide."""
    z = Interval.of(z)
    if z.lo > 0:
        return True
    if z.hi < 0:
        return False
    raise CannotDecide(f"a pre-activation after the step encloses 0 ({z.describe()}): its ReLU sign is undecided")


def _max_abs(values) -> Fraction:
    return max((abs(v) for v in values), default=Fraction(0))


def _is_zero(v: Any) -> bool:
    return v == 0 if not isinstance(v, Interval) else (v.lo == 0 and v.hi == 0)


def _flat(m) -> list:
    return [e for row in m for e in row]


@dataclass(frozen=True, slots=True)
class _Setup:
    """The moving layer of a capstone at the example: its weights, its exact input, and the
    loss as a function of those weights (any number type)."""

    W: tuple
    layer_input: tuple
    margins: dict[str, tuple]  # pre-activations that must not flip: name → exact values
    gradient: list  # the certified closed-form gradient (intervals)
    loss_of: Any  # W' ↦ loss (intervals)


def _setup(cap: descent.Capstone, net: mlp.Mlp, x: Sequence[Fraction], label: int) -> _Setup:
    if cap.key == "linear":
        def loss_of(W):
            return mlp.cross_entropy(mlp.dense(W, net.b2, x), label, mlp.interval_exp, mlp.interval_log)
        logits = mlp.dense(net.W2, net.b2, x)
        grad = mlp.outer(x, mlp.head_cotangent(logits, label, mlp.interval_exp))
        return _Setup(net.W2, tuple(x), {}, grad, loss_of)
    f = mlp.forward(net, x, mlp.relu_positive)
    grads = mlp.gradients(net, x, label, mlp.interval_exp, mlp.relu_positive)
    match cap.key:
        case "mlp_output":
            def loss_of(W):
                return mlp.cross_entropy(mlp.dense(W, net.b2, f.a1), label, mlp.interval_exp, mlp.interval_log)
            return _Setup(net.W2, f.a1, {}, grads["W2"], loss_of)
        case "mlp_hidden":
            def loss_of(W):
                a1 = mlp.relu(mlp.dense(W, net.b1, f.a0), _interval_positive)
                return mlp.cross_entropy(mlp.dense(net.W2, net.b2, a1), label, mlp.interval_exp, mlp.interval_log)
            return _Setup(net.W1, f.a0, {"z1": f.z1}, grads["W1"], loss_of)
        case "mlp_input":
            def loss_of(W):
                a0 = mlp.relu(mlp.dense(W, net.b0, x), _interval_positive)
                a1 = mlp.relu(mlp.dense(net.W1, net.b1, a0), _interval_positive)
                return mlp.cross_entropy(mlp.dense(net.W2, net.b2, a1), label, mlp.interval_exp, mlp.interval_log)
            return _Setup(net.W0, tuple(x), {"z0": f.z0, "z1": f.z1}, grads["W0"], loss_of)
    raise KeyError(cap.key)


def expected_example_length(cap: descent.Capstone, net: mlp.Mlp) -> int:
    d0, _, d2, _ = net.dims
    return d2 if cap.key == "linear" else d0


def _check_inputs(cap: descent.Capstone, net: mlp.Mlp, x: Sequence[Fraction], label: int, lr: Fraction,
                  eta: Fraction | None, is_float: bool) -> None:
    want = expected_example_length(cap, net)
    if len(x) != want:
        what = "d₂ (the input of the output layer, taken as a linear net)" if cap.key == "linear" else "d₀"
        raise UsageError(f"the example has {len(x)} entries; {cap.name} needs {want} = {what}")
    classes = net.dims[3]
    if not isinstance(label, int) or not 0 <= label < classes:
        raise UsageError(f"label {label} is not a class index; the network has {classes} classes (0..{classes - 1})")
    if not lr > 0:
        raise UsageError(f"the learning rate must be positive, got {_fmt(lr)}")
    if eta is not None and eta < 0:
        raise UsageError(f"eta must be non-negative, got {_fmt(eta)}")
    if is_float and eta is not None:
        raise UsageError("--eta does not apply to the binary32 rungs: their η is the proven float budget")
    if is_float:
        import numpy as np

        for xi in x:
            if Fraction(float(np.float32(float(xi)))) != xi:
                raise UsageError(f"example entry {float(xi)!r} is not a binary32 number; the float rungs run the "
                                 "binary32 model on the exact input")


def _linear_float(binary32: Any, net: mlp.Mlp, u: Sequence[Fraction], label: int) -> tuple[Any, Any]:
    """The binary32 gradient and budget of the LINEAR net ``dense W₂ b₂`` at the exact input
    ``u``: the W₂ rung of :mod:`.binary32` (``linearFloatGrad``) with ``u`` as the frozen exact
    layer input in place of ``a₁`` — the same float pipeline and the same composed budget
    (which reads only ``d₂, d₃``, the bounds on |u|, |W₂|, |b₂| and the logit spread)."""
    import numpy as np

    logits = mlp.dense(net.W2, net.b2, u)
    prods = np.array([[[float(binary32.round32(u[j] * net.W2[j][k])) for k in range(len(net.b2))]
                       for j in range(len(u))]], dtype=np.float32)
    p = {"W2": np.array([[float(v) for v in row] for row in net.W2], dtype=np.float32)[None],
         "b2": np.array([float(v) for v in net.b2], dtype=np.float32)[None],
         "a1": np.zeros((1, len(u)), dtype=np.float32), "label": np.array([label])}

    def final(c: Any) -> Any:
        return np.array([[[float(binary32.round32(u[i] * Fraction(float(cj)))) for cj in c[0]] for i in range(len(u))]],
                        dtype=np.float32)

    run = binary32.float_pipeline("W2", p, "numpy", products=prods, final=final)
    grad = run.grad[0]
    amax = lambda vs: max((abs(v) for v in vs), default=Fraction(0))  # noqa: E731
    unused = Fraction(0)
    scalars = binary32.Scalars(dims=net.dims, x=unused, a0=unused, a1=amax(u), w0=unused, w1=unused,
                               w2=amax(_flat(net.W2)), b0=unused, b1=unused, b2=amax(net.b2),
                               spread=max(logits) - min(logits), zmin0=unused, zmin1=unused)
    eta, hyps, parts = binary32.compose("W2", binary32.BINARY32, scalars)
    return run, binary32.Budget("W2", Fraction(eta), hyps, tuple((n, Fraction(v)) for n, v in parts))


def _exp_hypothesis(binary32: Any, logits: Any) -> HypothesisResult:
    """The head lemma's hypothesis on the library exp (softmax_ce_cot_close), at this network:
    every exp the float head evaluates, s ∈ [−81, 0] and |exp32(s) − eˢ| ≤ ε·eˢ, with eˢ enclosed
    by arb. lhs is the largest relative error's enclosure (−1 when an argument is out of range)."""
    worst = Interval.of(0)
    for s, e32 in binary32.head_exp_arguments(logits):
        if not -81 <= s <= 0:
            return HypothesisResult("float budget: exp accuracy", f"exp argument {s} outside [−81, 0]",
                                    Interval.of(1), Interval.of(0), False, Tri.FALSE)
        exact = mlp.interval_exp(s)
        rel = OPS.abs(Interval.of(e32) - exact) / exact
        worst = rel if rel.hi > worst.hi else worst
    eps = Interval.of(binary32.BINARY32.exp_rel)
    return HypothesisResult("float budget: exp accuracy",
                            "|exp32(s) − eˢ| ≤ ε·eˢ for every exp of the float head (hypothesis of softmax_ce_cot_close)",
                            worst, eps, False, OPS.le(worst, eps))


def _oracle(setup: _Setup, cap: descent.Capstone, net: mlp.Mlp, x, label, eta: Fraction, is_float: bool):
    """(g, η, oracle name, extra hypotheses, extra data)."""
    grad = setup.gradient
    if is_float:
        try:
            from obligations.lean_mlp import binary32  # the float model and its budgets
        except ImportError as exc:
            raise UsageError(f"the binary32 rungs need obligations/lean_mlp/binary32.py, which cannot be "
                             f"imported here ({exc}); use the ℝ capstone instead") from None

        layer = cap.layer
        if cap.key == "linear":
            run, budget = _linear_float(binary32, net, x, label)
        else:
            run = binary32.float_run(layer, net, x, label)
            budget = binary32.gradient_budget(layer, net, x, label)
        g = [[Fraction(float(v)) for v in row] for row in run.grad[0]]
        eta_f = Fraction(budget.eta)
        hyps = [HypothesisResult(f"float budget: {name}", "a hypothesis of the binary32 budget η (rounding margin / head range)",
                                 Interval.of(Fraction(lhs)), Interval.of(Fraction(rhs)), True,
                                 OPS.lt(Interval.of(Fraction(lhs)), Interval.of(Fraction(rhs))))
                for name, lhs, rhs in budget.hypotheses]
        hyps.append(_exp_hypothesis(binary32, run.logits[0]))
        dev = max((OPS.abs(gi - ci) for gi, ci in zip(_flat(g), _flat(grad))), key=lambda i: i.hi)
        hyps.append(HypothesisResult(
            "oracle_accuracy", "|g̃ − ∇L|∞ ≤ η (proven by the grad-close; re-checked here against the closed form)",
            dev, Interval.of(eta_f), False, OPS.le(dev, Interval.of(eta_f))))
        return g, eta_f, "float", hyps
    if eta:
        def sign(c: Interval) -> int:
            mid = (c.lo + c.hi) / 2
            return (mid > 0) - (mid < 0)

        g = [[c - eta * sign(c) for c in row] for row in grad]
        # |g − ∇L| = η·|sign| ≤ η by construction (the same enclosure c appears on both sides)
        return g, eta, "perturbed", [HypothesisResult(
            "oracle_accuracy", "|g − ∇L|∞ ≤ η (g = ∇L − η·sign(∇L), by construction)",
            Interval.of(eta), Interval.of(eta), False, Tri.TRUE, "equality by construction")]
    return grad, Fraction(0), "exact", []


def discharge(capstone: str, net: mlp.Mlp, x: Sequence[Any], label: int, lr: Any, *,
              eta: Any = None, prec: int = DEFAULT_PREC) -> Report:
    """Evaluate capstone ``capstone`` at ``(net, x, label, lr)``. ``eta`` (ℝ capstones only)
    selects the perturbed oracle with that accuracy; without it the oracle is exact."""
    cap, is_float = parse_capstone(capstone)
    x = tuple(Fraction(v) for v in x)
    lr = Fraction(lr)
    eta_in = None if eta is None else Fraction(eta)
    _check_inputs(cap, net, x, label, lr, eta_in, is_float)
    with precision(prec):
        return _at_rate(_prepare(cap, is_float, net, x, label, eta_in or Fraction(0)), lr)


def at_rates(capstone: str, net: mlp.Mlp, x: Sequence[Any], label: int, *,
             prec: int = DEFAULT_PREC) -> Callable[..., Report]:
    """``lr ↦ discharge(capstone, net, x, label, lr)`` for a search over learning rates at one
    network: what does not depend on lr (forward pass, gradient and its norms, oracle, the loss
    before the step) is computed once. ``evaluate(lr, conclusion=False)`` evaluates the
    hypotheses only (the report's ``all_held`` is the same; the loss after the step is not
    computed and the report carries no conclusion)."""
    cap, is_float = parse_capstone(capstone)
    x = tuple(Fraction(v) for v in x)
    with precision(prec):
        prepared = _prepare(cap, is_float, net, x, label, Fraction(0))

    def evaluate(lr: Any, conclusion: bool = True) -> Report:
        lr = Fraction(lr)
        _check_inputs(cap, net, x, label, lr, None, is_float)
        with precision(prec):
            return _at_rate(prepared, lr, conclusion)

    return evaluate


# The setup (forward pass, certified gradient) and the oracle do not depend on the learning
# rate; a search over lr at one network (descent.capstones_at_largest_admissible_lr asks about
# twenty rates per network) computes them once. Keyed on everything they read and the interval
# precision, so a reused value is the one that would have been recomputed.
_ONCE: dict[Any, Any] = {}


def _once(key: Any, compute: Callable[[], Any]) -> Any:
    import mpmath

    key = (key, mpmath.iv.prec)
    try:
        hash(key)
    except TypeError:  # a network given with lists: nothing to key on, compute
        return compute()
    if key not in _ONCE:
        if len(_ONCE) > 128:
            _ONCE.clear()
        _ONCE[key] = compute()
    return _ONCE[key]


@dataclass(frozen=True)
class _Prepared:
    """Everything a capstone's evaluation reads that does not depend on the learning rate."""

    cap: descent.Capstone
    is_float: bool
    net: mlp.Mlp
    setup: _Setup
    entries: int
    g: Any  # the oracle's gradient
    eta: Fraction
    oracle: str
    hyps: tuple  # the oracle's hypotheses
    g1: Interval
    g2: Interval
    a: Fraction
    w1: Fraction
    w2: Fraction
    margins: dict[str, Interval]
    memo: dict[str, Any] = field(default_factory=dict)

    def loss_before(self) -> Interval:
        if "before" not in self.memo:
            self.memo["before"] = self.setup.loss_of(self.setup.W)
        return self.memo["before"]


def _prepare(cap, is_float, net, x, label, eta) -> _Prepared:
    setup = _once(("setup", cap, net, x, label), lambda: _setup(cap, net, x, label))
    entries = len(setup.W) * len(setup.W[0])
    g, eta, oracle, hyps = _once(("oracle", cap, net, x, label, eta, is_float),
                                 lambda: _oracle(setup, cap, net, x, label, eta, is_float))
    grad = _flat(setup.gradient)
    g1 = sum((OPS.abs(c) for c in grad[1:]), start=OPS.abs(grad[0]))
    g2 = sum((c * c for c in grad[1:]), start=grad[0] * grad[0])
    return _Prepared(cap, is_float, net, setup, entries, g, eta, oracle, tuple(hyps), g1, g2,
                     _max_abs(setup.layer_input), _max_abs(_flat(net.W1)), _max_abs(_flat(net.W2)),
                     {k: Interval.of(min(abs(z) for z in v)) for k, v in setup.margins.items()})


def _at_rate(p: _Prepared, lr: Fraction, conclusion: bool = True) -> Report:
    cap, is_float, net, setup, entries, g, eta, oracle = p.cap, p.is_float, p.net, p.setup, p.entries, p.g, p.eta, p.oracle
    hyps = list(p.hyps)  # extended below: the prepared list stays as computed
    g1, g2, a, w1, w2, margins = p.g1, p.g2, p.a, p.w1, p.w2, p.margins
    d0, d1, d2, d3 = net.dims
    s = descent.Scalars(Interval.of(lr), Interval.of(eta), entries, g1, g2, Interval.of(a), Interval.of(w1),
                        Interval.of(w2), d2, d3, margins.get("z0"), margins.get("z1"))
    D = s.D
    quantities = {"‖∇L‖₁": g1, "‖∇L‖₂²": g2, "a": Interval.of(a), "D": D}
    if cap.key in ("mlp_hidden", "mlp_input"):
        quantities["w₂"] = Interval.of(w2)
    if cap.key == "mlp_input":
        quantities["w₁"] = Interval.of(w1)
    for k, m in margins.items():
        quantities[f"min|{k}|"] = m

    def evaluate(h: descent.Hypothesis, note: str = "") -> HypothesisResult:
        lhs, rhs = Interval.of(h.lhs), Interval.of(h.rhs)
        truth = OPS.lt(lhs, rhs) if h.strict else OPS.le(lhs, rhs)
        return HypothesisResult(h.name, h.meaning, lhs, rhs, h.strict, truth, note)

    for h in descent.margin_hypotheses(cap.key, s):
        zs = setup.margins[h.name.split("_")[1]]
        tight = min(range(len(zs)), key=lambda j: abs(zs[j]))
        hyps.append(evaluate(h, f"tightest at index {tight}"))
    small = evaluate(descent.small_step_hypothesis(cap.key, s))
    hyps.append(small)
    if small.truth is Tri.TRUE:
        C = descent.lipschitz_constant(cap.key, s)
        quantities["C"] = C
        hyps.extend(evaluate(h) for h in descent.dominance_hypotheses(cap.key, s, C))
    else:
        dom = descent.dominance_hypotheses(cap.key, s, Interval.of(0))
        hyps.append(evaluate(dom[0]))
        hyps.append(HypothesisResult(dom[1].name, dom[1].meaning, None, None, False, Tri.UNKNOWN,
                                     "not evaluated: C is undefined unless the small-step condition holds"))
    name = cap.float_name if is_float else cap.name
    base = dict(capstone=name, layer=cap.layer, oracle=oracle, lr=lr, eta=eta, entries=entries,
                quantities=quantities, hypotheses=tuple(hyps))
    if not all(h.truth is Tri.TRUE for h in hyps):
        bad = [f"{h.name} {h.verdict}" for h in hyps if h.truth is not Tri.TRUE]
        return Report(**base, reason="not every hypothesis held: " + ", ".join(bad))
    if not conclusion:
        return Report(**base, reason="the conclusion was not evaluated")
    decrease = descent.certified_decrease(s)
    W_new = tuple(tuple(w - lr * gi for w, gi in zip(wrow, grow)) for wrow, grow in zip(setup.W, g))
    try:
        before = p.loss_before()
        after = setup.loss_of(W_new)
    except CannotDecide as why:
        return Report(**base, decrease=decrease, reason=str(why))
    # A zero step (every entry of g exactly 0) leaves the loss unchanged exactly; interval
    # subtraction of the two identical enclosures would only give a tiny symmetric interval.
    change = Interval.of(0) if all(_is_zero(gi) for gi in _flat(g)) else after - before
    conclusion = OPS.le(change, -decrease)
    extra = {"descent_lemma_bound": _iv_json(descent.descent_lemma_bound(cap.key, s))}
    reason = "" if conclusion is Tri.TRUE else (
        "the enclosure of the loss change is too wide to decide" if conclusion is Tri.UNKNOWN
        else "the actual loss change exceeds −lr·‖∇L‖₂²/2 although every hypothesis held")
    return Report(**base, decrease=decrease, loss_before=before, loss_after=after, change=change,
                  conclusion=conclusion, reason=reason, extra=extra)


# ---------------------------------------------------------------------------------------
# Command-line helpers (used by ``obligations discharge``)
# ---------------------------------------------------------------------------------------


def parse_number(text: str, what: str) -> Fraction:
    """An exact number from ``0.5``, ``1/2``, ``1e-3``; NaN and infinities are usage errors."""
    t = text.strip()
    if t.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        raise UsageError(f"{what} {text!r} is not a finite number")
    import re

    exponent = re.search(r"[eE]([+-]?\d+)\s*$", t)
    if exponent and abs(int(exponent.group(1))) > 400 or len(t) > 2000:
        # an exact 10^±10⁸ alone takes minutes to build; no binary32 computation needs one
        raise UsageError(f"{what} {text[:40]!r} is out of range: write a number with |exponent| ≤ 400")
    try:
        return Fraction(t)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"{what} {text!r} is not a number (use e.g. 0.5, 1/2 or 1e-3)") from None


def parse_vector(text: str) -> tuple[Fraction, ...]:
    parts = [p for p in text.split(",")]
    if not text.strip() or any(not p.strip() for p in parts):
        raise UsageError(f"--example {text!r} is not a comma-separated list of numbers (e.g. 1,-0.5,0.75)")
    return tuple(parse_number(p, "example entry") for p in parts)


def load_network(path: str | os.PathLike[str]) -> mlp.Mlp:
    """:func:`mlp.load_npz`, with every file problem as a :class:`UsageError` (exit 2)."""
    try:
        return mlp.load_npz(path)
    except mlp.NetworkFileError as exc:
        raise UsageError(str(exc)) from None


# ---------------------------------------------------------------------------------------
# The joint all-layers step (open; used by ``lean_mlp.joint_step_descends``)
# ---------------------------------------------------------------------------------------


def joint_step(net: mlp.Mlp, x: Sequence[Fraction], label: int, lr: Fraction,
               prec: int = DEFAULT_PREC) -> dict[str, Any] | None:
    """Evaluate the conjectured joint condition and, where it holds, the joint step's loss
    change (all of W₀, W₁, W₂ moving by ``lr`` times their exact gradients), in intervals.
    ``None`` when a pre-activation of the example sits exactly on a kink."""
    return joint_steps(net, x, label, (lr,), prec)[0]


def joint_steps(net: mlp.Mlp, x: Sequence[Fraction], label: int, lrs: Sequence[Fraction],
                prec: int = DEFAULT_PREC) -> list[dict[str, Any] | None]:
    """:func:`joint_step` at each of ``lrs``; the gradients, their norms and the loss before
    the step (none of which depends on lr) are computed once."""
    f = mlp.forward(net, x, mlp.relu_positive)
    if any(z == 0 for z in (*f.z0, *f.z1)):
        return [None for _ in lrs]
    with precision(prec):
        grads = mlp.gradients(net, x, label, mlp.interval_exp)
        flat = [c for k in ("W0", "W1", "W2") for c in _flat(grads[k])]
        g1 = sum((OPS.abs(c) for c in flat[1:]), start=OPS.abs(flat[0]))
        g2 = sum((c * c for c in flat[1:]), start=flat[0] * flat[0])
        memo: dict[str, Any] = {}

        def before() -> Interval:
            if "before" not in memo:
                memo["before"] = mlp.loss(net, x, label, mlp.interval_exp, mlp.interval_log)
            return memo["before"]

        return [_joint_at(net, x, label, lr, f, grads, flat, g1, g2, before) for lr in lrs]


def _joint_at(net, x, label, lr, f, grads, flat, g1, g2, before: Callable[[], Interval]) -> dict[str, Any]:
    d0, d1, d2, d3 = net.dims
    a, A0, A1 = _max_abs(x), _max_abs(f.a0), _max_abs(f.a1)
    s = descent.Scalars(Interval.of(lr), Interval.of(0), 0, g1, g2, Interval.of(a),
                        Interval.of(_max_abs(_flat(net.W1))), Interval.of(_max_abs(_flat(net.W2))), d2, d3,
                        Interval.of(min(abs(z) for z in f.z0)), Interval.of(min(abs(z) for z in f.z1)))
    hyps, kappa = descent.joint_conjecture_hypotheses(s, Interval.of(A0), Interval.of(A1))
    truths = [OPS.lt(Interval.of(h.lhs), Interval.of(h.rhs)) for h in hyps]
    decrease = descent.certified_decrease(s)
    out: dict[str, Any] = {"decrease": decrease, "change": None, "conclusion": Tri.UNKNOWN,
                           "zero_gradient": all(_is_zero(c) for c in flat)}
    if OPS.and_(*truths) is not Tri.TRUE:
        out["condition"] = OPS.and_(*truths)
        return out
    D = s.D
    C = 2 * d3 * kappa * kappa / (1 - 2 * kappa * D)
    out["condition"] = OPS.le(C * D * D, decrease)
    if out["condition"] is not Tri.TRUE:
        return out
    moved = {k: tuple(tuple(w - lr * g for w, g in zip(wr, gr)) for wr, gr in zip(net.layer(k), grads[k]))
             for k in ("W0", "W1", "W2")}
    try:
        loss_before = before()
        after = mlp.loss(mlp.Mlp(moved["W0"], net.b0, moved["W1"], net.b1, moved["W2"], net.b2), x, label,
                         mlp.interval_exp, mlp.interval_log, _interval_positive)
    except CannotDecide:
        return out
    out["change"] = after - loss_before
    out["conclusion"] = OPS.le(out["change"], -decrease)
    return out


# ---------------------------------------------------------------------------------------
# The segment-Lipschitz shape along the step (a cross-check of the constants C)
# ---------------------------------------------------------------------------------------


def _sign_any(z: Any) -> bool:
    """Sign test for exact (fixed) and interval (moved) pre-activations alike."""
    return _interval_positive(z) if isinstance(z, Interval) else z > 0


def _gradient_at(cap: descent.Capstone, net: mlp.Mlp, x: Sequence[Fraction], label: int, W: Any) -> list:
    if cap.key == "linear":
        return mlp.outer(x, mlp.head_cotangent(mlp.dense(W, net.b2, x), label, mlp.interval_exp))
    moved = net.replace(cap.layer, W)
    return mlp.gradients(moved, x, label, mlp.interval_exp, _sign_any)[cap.layer]


@dataclass(frozen=True, slots=True)
class SegmentPoint:
    t: Fraction
    drift: Interval  # max_ij |∇L(v + t·e) − ∇L(v)|
    bound: Interval  # C·t·D
    truth: Tri


def segment_check(capstone: str, net: mlp.Mlp, x: Sequence[Any], label: int, lr: Any, *, eta: Any = None,
                  points: int = 8, prec: int = DEFAULT_PREC) -> tuple[Report, tuple[SegmentPoint, ...]]:
    """At ``t = k/points`` along the capstone's step, the gradient's entrywise drift against
    ``C·t·D`` — the segment-Lipschitz shape ``descent_segment`` consumes. Evaluated only when
    every hypothesis held (then the masks are frozen and the closed forms apply on the
    segment). Checks the (seeded or reconstructed) constant at this one instance."""
    report = discharge(capstone, net, x, label, lr, eta=eta, prec=prec)
    if not report.all_held:
        return report, ()
    cap, is_float = parse_capstone(capstone)
    x = tuple(Fraction(v) for v in x)
    out = []
    with precision(prec):
        setup = _setup(cap, net, x, label)
        g, *_ = _oracle(setup, cap, net, x, label, report.eta if report.oracle == "perturbed" else Fraction(0), is_float)
        C, D = report.quantities["C"], report.quantities["D"]
        base = _flat(setup.gradient)
        for k in range(1, points + 1):
            t = Fraction(k, points)
            W = tuple(tuple(w - t * report.lr * gi for w, gi in zip(wr, gr)) for wr, gr in zip(setup.W, g))
            try:
                moved = _flat(_gradient_at(cap, net, x, label, W))
            except CannotDecide:
                continue
            drift = max((OPS.abs(m - c) for m, c in zip(moved, base)), key=lambda i: i.hi)
            bound = C * t * D
            out.append(SegmentPoint(t, drift, bound, OPS.le(drift, bound)))
    return report, tuple(out)
