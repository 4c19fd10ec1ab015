"""The descent capstones: outcomes, the algebra's necessity, and the discharge library."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from checker.backends import smt
from checker.backends.interval import Interval, Tri
from checker.claims import claim
from checker.kernel.model import Context, Grade, Outcome, Status
from checker.run.discovery import discover
from obligations.lean_mlp import descent, descent_instances, discharge, linear_lipschitz, mlp, softmax_sandwich

KEYS = tuple(descent.CAPSTONES)
EXPECTED = {
    **{f"lean_mlp.{k}_descent_implication": Status.PROVED for k in KEYS},
    **{f"lean_mlp.{k}_sgd_descends_example": Status.PROVED for k in KEYS},
    **{f"lean_mlp.{k}_float_sgd_descends_example": Status.PROVED for k in KEYS},
    # Its chain proves the scalar link, not the declared theorem (the linear net's gradient drift).
    "lean_mlp.linear_loss_grad_lipschitz": Status.UNKNOWN,
}
CTX = Context("test", 1, 60.0)


@pytest.mark.parametrize("ob_id, status", sorted(EXPECTED.items()))
def test_outcome(ob_id, status, catalogue_run):
    """Each obligation settles as the source says."""
    r = catalogue_run[ob_id]
    assert r.status is status, r.certificate.reason
    if status is Status.UNKNOWN:
        assert r.outcome is Outcome.OPEN and "not a proof of the declared theorem" in r.certificate.reason
    else:
        assert r.outcome in (Outcome.CONFIRMED, Outcome.PARTIAL)  # partial: proved for some sizes only


def test_capstones_hold_at_the_largest_admissible_lr(catalogue_run):
    """Evidence beyond the example: at the edge of admissibility every rung's conclusion
    checked, and the actual decrease is at least the certified one (ratio ≥ 1)."""
    r = catalogue_run["lean_mlp.capstones_at_largest_admissible_lr"]
    assert r.status is Status.SUPPORTED, r.certificate.reason
    data = r.certificate.data
    assert data["checked"] == data["admissible"] > 0 and data["undecided"] == 0
    assert len(data["smallest_decrease_ratio"]) == 8
    assert all(v >= 1 for v in data["smallest_decrease_ratio"].values())


def test_joint_step_is_never_proved(catalogue_run):
    """The open joint step gives evidence at most, and some instance met the condition."""
    r = catalogue_run["lean_mlp.joint_step_descends"]
    assert r.status is Status.SUPPORTED, r.certificate.reason
    assert r.certificate.data["condition_held"] > 0
    assert r.certificate.data["descended"] == r.certificate.data["condition_held"]


@pytest.mark.parametrize("key", KEYS)
def test_implication_needs_each_dominance_condition(key):
    """Dropping either dominance condition (or the first-order / remainder bound) makes the
    implication false: z3 finds a counterexample that re-checks exactly."""
    import dataclasses

    c = descent.IMPLICATIONS[key]
    assert c.derived  # its models are scalars no network need realise: their refutation is unknown
    scalars = dataclasses.replace(c, derived="")  # the algebra over the scalars themselves
    for h in ("dominance_oracle", "dominance_curvature", "first_order_term", "remainder"):
        assert smt.prove(scalars.without(h), CTX).status is Status.REFUTED, h
        assert smt.prove(c.without(h), CTX).status is Status.UNKNOWN, h


@pytest.mark.parametrize("key", KEYS)
def test_implication_does_not_give_the_full_decrease(key):
    """The conclusion cannot be strengthened to −lr·‖∇L‖₂² (the ½ is where the algebra lands)."""
    c = descent.IMPLICATIONS[key]
    stronger = claim(c.name + "-stronger", c.variables, lambda o, v: o.le(v.delta, -v.lr * v.g2),
                     {h.name: h.formula for h in c.hypotheses})
    assert smt.prove(stronger, CTX).status is Status.REFUTED


def test_implication_hypotheses_are_satisfiable():
    """The hypotheses of every implication can all hold at once (the claims are not vacuous)."""
    for key, c in descent.IMPLICATIONS.items():
        inst = claim(c.name + "-instance", c.variables, lambda o, v: o.gt(v.g2, 0),
                     {h.name: h.formula for h in c.hypotheses})
        sat = claim(c.name + "-sat", c.variables, lambda o, v: o.and_(inst.premise(o, v), o.gt(v.g2, 0)))
        assert smt.find_instance(sat, CTX).status is Status.PROVED, key


def test_constants_match_the_seeds():
    """The constants written once in descent.py are the seeds' formulas (exact spot check)."""
    d2, d3, w1, w2, a, D = 4, 3, Fraction(1, 2), Fraction(5, 8), Fraction(9, 8), Fraction(1, 100)
    assert descent.hidden_lipschitz_constant(d3, w2, a, D) == 2 * d3 * w2 ** 2 * a ** 2 / (1 - 2 * w2 * a * D)
    assert descent.input_lipschitz_constant(d2, d3, w1, w2, a, D) == \
        2 * d3 * d2 ** 2 * w1 ** 2 * w2 ** 2 * a ** 2 / (1 - 2 * d2 * w1 * w2 * a * D)
    assert descent.linear_lipschitz_constant(a, D) == 2 * a ** 2 / (1 - 2 * a * D)


def _float64_loss_change(cap: str, lr: float) -> tuple[float, float]:
    """The exact-oracle step's loss change and lr·‖∇L‖₂²/2 in plain float64 (independent of
    the interval code: numpy forward/backward written here)."""
    import numpy as np

    net = discharge.example_network()
    W = {k: np.array([[float(v) for v in row] for row in net.layer(k)]) for k in ("W0", "W1", "W2")}
    b = {k: np.array([float(v) for v in net.layer(k)]) for k in ("b0", "b1", "b2")}
    x = np.array([float(v) for v in discharge.EXAMPLE_X])
    y = discharge.EXAMPLE_LABEL

    def loss(W):
        z0 = x @ W["W0"] + b["b0"]
        z1 = np.maximum(z0, 0) @ W["W1"] + b["b1"]
        t = np.maximum(z1, 0) @ W["W2"] + b["b2"]
        return np.log(np.exp(t - t.max()).sum()) + t.max() - t[y], z0, z1, t

    L, z0, z1, t = loss(W)
    p = np.exp(t - t.max()); p /= p.sum(); p[y] -= 1
    c1 = (W["W2"] @ p) * (z1 > 0)
    c0 = (W["W1"] @ c1) * (z0 > 0)
    g = {"W2": np.outer(np.maximum(z1, 0), p), "W1": np.outer(np.maximum(z0, 0), c1), "W0": np.outer(x, c0)}
    layer = descent.CAPSTONES[cap].layer
    moved = dict(W, **{layer: W[layer] - lr * g[layer]})
    return loss(moved)[0] - L, lr * (g[layer] ** 2).sum() / 2


@pytest.mark.parametrize("cap", ["mlp_output", "mlp_hidden", "mlp_input"])
def test_enclosures_agree_with_an_independent_float64_computation(cap):
    """The interval enclosure of the loss change and of the certified decrease contain (up to
    float64 rounding) the values of an independent numpy float64 computation."""
    r = discharge.discharge(cap, discharge.example_network(), discharge.EXAMPLE_X, discharge.EXAMPLE_LABEL,
                            discharge.EXAMPLE_LR)
    change, decrease = _float64_loss_change(cap, float(discharge.EXAMPLE_LR))
    assert abs(float(r.change.lo) - change) < 1e-12 and abs(float(r.decrease.lo) - decrease) < 1e-12
    assert r.change.width < Fraction(1, 10 ** 25)


def test_kink_fails_the_margin():
    """A hidden pre-activation exactly at 0 makes margin_z1 fail (no conclusion is claimed)."""
    net = discharge.example_network()
    f = mlp.forward(net, discharge.EXAMPLE_X)
    b1 = list(net.b1)
    b1[1] -= f.z1[1]  # z₁₁ = 0 now
    r = discharge.discharge("mlp_hidden", replace(net, b1=tuple(b1)), discharge.EXAMPLE_X, discharge.EXAMPLE_LABEL,
                            discharge.EXAMPLE_LR)
    assert "margin_z1" in r.failed and not r.ok and r.change is None


def test_refuted_only_when_all_hypotheses_held_and_the_change_is_above():
    """_report_verdict: a fabricated report with every hypothesis held and a loss change
    enclosed above −decrease is refuted; one with a failed hypothesis is only unknown."""
    r = discharge.discharge("linear", discharge.example_network(), discharge.EXAMPLE_LINEAR_X,
                            discharge.EXAMPLE_LABEL, discharge.EXAMPLE_LR)
    bad = replace(r, change=Interval.of(0), conclusion=Tri.FALSE)
    assert descent_instances._report_verdict(bad, "here").status is Status.REFUTED
    failed = replace(r, hypotheses=(replace(r.hypotheses[0], truth=Tri.FALSE),) + r.hypotheses[1:])
    assert descent_instances._report_verdict(failed, "here").status is Status.UNKNOWN


def test_float_oracle_accuracy_is_rechecked():
    """The binary32 rung re-checks |g̃ − ∇L|∞ ≤ η against the closed form, with room to spare."""
    r = discharge.discharge("mlp_input_float", discharge.example_network(), discharge.EXAMPLE_X,
                            discharge.EXAMPLE_LABEL, discharge.EXAMPLE_LR)
    acc = next(h for h in r.hypotheses if h.name == "oracle_accuracy")
    assert acc.truth is Tri.TRUE and 0 < acc.lhs.hi < acc.rhs.lo
    assert any(h.name.startswith("float budget:") for h in r.hypotheses)


def test_linear_constant_cannot_be_halved():
    """The drift chain is tight enough to matter: with C_lin/2 in place of C_lin z3 finds a
    counterexample (re-checked exactly), so the proof is not vacuous."""
    c = linear_lipschitz.LINEAR_CHAIN
    halved = claim("halved", c.variables,
                   lambda o, v: o.le(o.abs(v.x * v.dp), descent.linear_lipschitz_constant(v.a, v.D) / 2 * v.t * v.D),
                   {h.name: h.formula for h in c.hypotheses})
    assert smt.prove(halved, CTX).status is Status.REFUTED


def test_ratio_sandwich_needs_the_square():
    """A factor G (instead of G²) in the softmax ratio sandwich is false: z3 refutes it."""
    c = softmax_sandwich.RATIO_SANDWICH
    weak = claim("weak", c.variables,
                 lambda o, v: o.le(v.F0 / (v.F0 + v.F1 + v.F2), v.G * v.E0 / (v.E0 + v.E1 + v.E2)),
                 {h.name: h.formula for h in c.hypotheses})
    assert smt.prove(weak, CTX).status is Status.REFUTED


def test_segment_check_fails_for_a_too_small_constant(monkeypatch):
    """The example's segment cross-check is sensitive: with the hidden constant divided by
    100 the drift exceeds C·t·D at the example, and the part is not proved."""
    real = descent.hidden_lipschitz_constant
    monkeypatch.setattr(descent, "hidden_lipschitz_constant", lambda *args: real(*args) / 100)
    v = descent_instances._segment_verdict("mlp_hidden_sgd_descends", discharge.EXAMPLE_X)
    assert v.status is Status.UNKNOWN


def test_low_precision_is_undecided_never_wrong():
    """At 8-bit intervals the loss-change enclosure is too wide: the conclusion is undecided
    (not 'checked', not 'failed'), and the report is not ok."""
    r = discharge.discharge("mlp_input", discharge.example_network(), discharge.EXAMPLE_X, discharge.EXAMPLE_LABEL,
                            discharge.EXAMPLE_LR, prec=8)
    assert r.conclusion is Tri.UNKNOWN and not r.ok and "too wide" in r.reason


def test_random_instances_agree_with_float64():
    """Seeded random dyadic networks and learning rates: whenever every hypothesis held, the
    conclusion checked (the capstones hold there) and the enclosed change agrees with an
    independent float64 loss computation; hypotheses fail at some instances (not vacuous)."""
    import random

    import numpy as np

    rng = random.Random(20261202)
    held = failed = 0
    for _ in range(25):
        def m(r, c):
            return tuple(tuple(Fraction(rng.randint(-8, 8), 16) for _ in range(c)) for _ in range(r))

        net = mlp.Mlp(m(3, 4), m(1, 4)[0], m(4, 4), m(1, 4)[0], m(4, 3), m(1, 3)[0])
        x = tuple(Fraction(rng.randint(-8, 8), 8) for _ in range(3))
        label, lr = rng.randrange(3), Fraction(1, 2 ** rng.randint(2, 10))
        key = rng.choice(["mlp_output", "mlp_hidden", "mlp_input"])
        r = discharge.discharge(key, net, x, label, lr)
        if not r.all_held:
            failed += 1
            continue
        held += 1
        assert r.conclusion is Tri.TRUE, (key, r.reason)
        W = {k: np.array([[float(v) for v in row] for row in net.layer(k)]) for k in ("W0", "W1", "W2")}
        b = {k: np.array([float(v) for v in net.layer(k)]) for k in ("b0", "b1", "b2")}
        xf = np.array([float(v) for v in x])

        def loss(W):
            t = np.maximum(np.maximum(xf @ W["W0"] + b["b0"], 0) @ W["W1"] + b["b1"], 0) @ W["W2"] + b["b2"]
            return np.log(np.exp(t - t.max()).sum()) + t.max() - t[label]

        layer = descent.CAPSTONES[key].layer
        g = np.array([[float((c.lo + c.hi) / 2) for c in row] for row in
                      mlp.gradients(net, x, label, lambda z: Interval.of(z).exp(), lambda z: z > 0)[layer]])
        change = loss(dict(W, **{layer: W[layer] - float(lr) * g})) - loss(W)
        assert abs(change - float(r.change.lo)) < 1e-9
    assert held >= 5 and failed >= 1, (held, failed)


# --- the capstones at the shipped example, as declared closed claims -----------------------------


@pytest.mark.parametrize("is_float", [False, True], ids=["real", "binary32"])
@pytest.mark.parametrize("key", KEYS)
def test_example_declares_its_closed_theorem_and_proves_it_outright(key, is_float, catalogue_run):
    """Each example declares the capstone at the shipped network as closed claims (hypotheses, and
    the descent), proved by one enclosure each: universal, with the discharge as a passing cross-check."""
    c = descent.CAPSTONES[key]
    name = c.float_name if is_float else c.name
    ob = discover("obligations").by_id(f"lean_mlp.{name}_example")
    assert ob.theorem and all(not t.variables for t in ob.theorem)
    assert {t.name for t in ob.theorem} == {t.name for t in descent_instances.example_theorem(c, is_float)}
    r = catalogue_run[ob.id]
    assert r.status is Status.PROVED and r.certificate.grade is Grade.UNIVERSAL, r.certificate.reason
    (check,) = r.certificate.data["cross_checks"].values()
    assert check["status"] == "proved"
    assert not any(e["kind"] == "trusted" for e in r.certificate.ledger)


@pytest.mark.parametrize("oracle", ["exact", "perturbed", "float"])
@pytest.mark.parametrize("key", KEYS)
def test_a_doubled_decrease_at_the_example_is_refuted(monkeypatch, key, oracle):
    """The descent claim with −lr·‖∇L‖₂² (the ½ dropped) is false at the example and the enclosure
    says so; the stated claim is proved, so the test tells them apart."""
    from checker.backends import interval

    _, good = descent_instances.capstone_claims(key, oracle)
    assert interval.prove_on(good, {}).status is Status.PROVED
    half = descent.certified_decrease
    monkeypatch.setattr(descent, "certified_decrease", lambda s: 2 * half(s))
    _, bad = descent_instances.capstone_claims(key, oracle)
    assert interval.prove_on(bad, {}).status is Status.REFUTED


def test_example_hypotheses_fail_at_a_large_learning_rate(monkeypatch):
    """At lr = 1/2 the capstones' hypotheses (small step, dominance) fail at the example: the
    hypotheses claim is refuted, not proved."""
    from checker.backends import interval

    monkeypatch.setattr(discharge, "EXAMPLE_LR", Fraction(1, 2))
    for key in KEYS:
        for oracle in ("exact", "float"):
            hyps, _ = descent_instances.capstone_claims(key, oracle)
            assert interval.prove_on(hyps, {}).status is Status.REFUTED, (key, oracle)


def test_example_theorem_is_printed_as_formulas():
    """The declared theorem prints (it leads the statement in every format), compactly enough to read."""
    from checker.kernel.printing import print_claim

    for c in descent.CAPSTONES.values():
        for is_float in (False, True):
            for t in descent_instances.example_theorem(c, is_float):
                p = print_claim(t)
                assert p.error is None and p.conclusion is not None, (t.name, p.error)
                assert len(p.statement_text()) < 30_000, t.name
