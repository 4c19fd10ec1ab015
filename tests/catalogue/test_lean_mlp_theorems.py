"""The Lean MLP development (002/004) declares its theorems: every obligation the seeds assert
true or false states its theorem as a claim (or says here why it does not yet), a proof is
accepted only when it proves that theorem, and a computed value contradicting a stated one is a
refutation of the theorem itself, re-checked against it."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from checker import Expect, Source, obligation
from checker.backends import smt, symbolic
from checker.kernel import proof as kernel
from checker.kernel.model import Context, Expect as _Expect, Status
from checker.run.discovery import discover
from checker.run.runner import execute
from obligations.lean_mlp import descent, lipschitz, margins

CATALOGUE = discover("obligations")
DECIDED = [ob for ob in CATALOGUE.obligations
           if ob.id.startswith("lean_mlp.") and ob.expect in (_Expect.HOLDS, _Expect.FAILS)]

#: HOLDS/FAILS obligations that do not declare a theorem yet, each with the reason.
# The statements of the package that are not claims, each saying why in its own no_theorem=: the
# capstone for every seeded network (one claim over 51 weights prints at megabytes), and numpy's float32
# runs whose results are not points of their lemma's path-form claim, and library exp (the arithmetic
# numpy performs is not a formula; the theorems are the proved budgets'). The ReLU and product runs
# declare their lemma's theorem: each sampled result is a point of it.
WITHOUT_THEOREM = {"lean_mlp.capstones_at_largest_admissible_lr", *(f"lean_mlp.float.{name}" for name in (
    "cot_step_close_float32", "dot_close_float32", "exp_accuracy", "linear_grad_close_float32",
    "mlp_w0_grad_close_float32", "mlp_w1_grad_close_float32", "softmax_ce_cot_close_float32"))}


def test_every_decided_obligation_declares_its_theorem():
    """Each HOLDS/FAILS obligation of the package declares a theorem, or says why it cannot
    (no_theorem=), and those that say so are exactly the list above (a new one is a decision to review)."""
    missing = sorted(ob.id for ob in DECIDED if not ob.theorem and not ob.no_theorem)
    assert not missing, f"declare theorem= for: {missing}"
    assert {ob.id for ob in DECIDED if ob.no_theorem} == WITHOUT_THEOREM


_ids = itertools.count()


def _run_with_theorem(theorem, discharge):
    """The runner's verdict for a HOLDS obligation declaring ``theorem`` and discharged by ``discharge``."""
    ob_id = f"lean_mlp_theorem_probe.case{next(_ids)}"
    fn = obligation(id=ob_id, source=Source("002_9648822bf1d4473c.txt", "probe"), statement="S.", scope="s",
                    expect=Expect.HOLDS, theorem=theorem)(discharge)
    result, _ = execute(fn.obligation, Context(ob_id, 7, 120, False))
    return result


@pytest.mark.parametrize("build", [
    lambda: margins.dense_drift_claim(2, factor=Fraction(1, 2)),
    lambda: margins.relu_dense_drift_claim(1, factor=Fraction(1, 2)),
    lambda: margins.margin1_claim(1, 1, factor=Fraction(1, 2)),
    lambda: lipschitz.hidden_logit_drift_claim(1, 1, factor=Fraction(1, 2)),
], ids=["dense-drift", "relu-dense-drift", "margin1", "hidden-logit-drift"])
def test_a_wrong_stated_constant_is_refuted_against_the_theorem(build):
    """The stated bound halved (the constant edited in the declared theorem and in the claim the
    discharge proves): z3's model is re-checked against the declared theorem and refutes it."""
    bad = build()
    r = _run_with_theorem(bad, lambda ctx: smt.prove(bad, ctx))
    assert r.status is Status.REFUTED, r.certificate.reason


def test_the_true_constant_is_proved_as_the_theorem():
    """The same probe with the stated constant: proved, so the probe above can tell the two apart."""
    good = margins.DENSE_DRIFT[1]
    assert _run_with_theorem(good, lambda ctx: smt.prove(good, ctx)).status is Status.PROVED


def test_a_true_descent_implication_is_proved_and_a_doubled_decrease_is_not():
    """The descent implication as the declared theorem: proved; with the certified decrease
    doubled (−lr·‖∇L‖₂² in place of −lr·‖∇L‖₂²/2) z3 finds a model that refutes the theorem."""
    good = descent.IMPLICATIONS["linear"]
    assert _run_with_theorem(good, lambda ctx: smt.prove(good, ctx)).status is Status.PROVED
    from checker.claims import claim

    bad = claim("linear-descent-implication-doubled", good.variables,
                lambda o, v: o.le(v.delta, -2 * descent.certified_decrease(descent._scalars(v))),
                hypotheses={h.name: h.formula for h in good.hypotheses})
    r = _run_with_theorem(bad, lambda ctx: smt.prove(bad, ctx))
    assert r.status is Status.REFUTED, r.certificate.reason


def test_a_sympy_tile_identity_is_proved_as_the_theorem_and_a_wrong_one_is_not():
    """col_l1_mass_tiles' theorem at 2×3 is proved by symbolic.decide; the identity with a wrong
    flattening (one column mass counted twice) is not proved."""
    good = margins.TILE_IDENTITY[1]
    assert _run_with_theorem(good, lambda ctx: symbolic.decide(good, "sympy")).status is Status.PROVED
    bad = symbolic.zero_claim("col-l1-mass-tiles-wrong", lambda: margins._tile_identity(2, 3)
                              + symbolic.sympy().Abs(symbolic.sympy().Symbol("e0", real=True)))
    assert _run_with_theorem(bad, lambda ctx: symbolic.decide(bad, "sympy")).status is not Status.PROVED


def test_a_wrong_constant_identity_is_refuted_by_its_computed_value():
    """A stated identity whose difference sympy reduces to a nonzero constant (the dense
    difference off by a stated constant 1) is refuted by the computed value, re-checked against
    the theorem."""
    bad = symbolic.zero_claim("dense-weight-diff-eq-off-by-one", lambda: margins._weight_diff(2, 2, 0) - 1)
    r = _run_with_theorem(bad, lambda ctx: symbolic.decide(bad, "sympy"))
    assert r.status is Status.REFUTED, r.certificate.reason


def test_total_drift_proves_the_column_lemma_it_rests_on():
    """total_drift_le's 2×3 part instantiates the column-drift lemma; the obligation proves that
    lemma too, so its fact assumes nothing."""
    ob = next(o for o in DECIDED if o.id == "lean_mlp.total_drift_le")
    v = ob.discharge(Context(ob.id, 7, 120, False))
    assert v.status is Status.PROVED and kernel.is_fact(v.fact)
    assert not v.fact.assumes
    assert kernel.covers(v.fact, ob.theorem)[0]


def test_the_lipschitz_chain_is_not_a_proof_of_the_gradient_theorem():
    """The z3 chain of the hidden-layer constant proves its links, whose hypotheses are the
    lemmas' conclusions; it never states the margin or the gradients, so it does not cover the
    declared theorem (the drift of the gradients themselves under the margin hypothesis)."""
    ob = next(o for o in DECIDED if o.id == "lean_mlp.mlp_hidden_loss_grad_lipschitz")
    assert ob.theorem and all("margin" in {h.name for h in c.hypotheses} for c in ob.theorem)
    chain = lipschitz.chain_proof(Context(ob.id, 7, 120, False), lipschitz.HIDDEN_CHAIN)
    assert chain.status is Status.PROVED
    ok, why = kernel.covers(chain.fact, ob.theorem)
    assert not ok and "not the declared theorem" in why


def test_the_linear_theorem_holds_where_it_is_evaluated_and_the_chain_does_not_cover_it():
    """linear_loss_grad_lipschitz's declared theorem (the linear net's gradient drift) is true at a
    point rigorous intervals decide; the chain's proof (scalar link, sandwich, exp bound) does not
    cover it, so the obligation is not proved by it."""
    from checker.backends import interval
    from obligations.lean_mlp import linear_lipschitz

    q = Fraction
    point = {"x_0": q(1, 2), "x_1": q(-1, 2), "W_0_0": q(1), "W_0_1": q(-1), "W_0_2": q(0), "W_1_0": q(1, 3),
             "W_1_1": q(0), "W_1_2": q(2), "b_0": q(0), "b_1": q(0), "b_2": q(1), "e_0_0": q(1, 10),
             "e_0_1": q(-1, 10), "e_0_2": q(0), "e_1_0": q(0), "e_1_1": q(1, 5), "e_1_2": q(0), "t": q(1, 2),
             "a": q(1, 2), "D": q(2, 5)}
    assert interval.prove_on(linear_lipschitz.linear_segment_claim(2, 0), point).status is Status.PROVED
    ob = next(o for o in DECIDED if o.id == "lean_mlp.linear_loss_grad_lipschitz")
    chain = smt.prove(linear_lipschitz.LINEAR_CHAIN)
    assert chain.status is Status.PROVED
    assert not kernel.covers(chain.fact, ob.theorem)[0]


def test_a_closed_form_without_its_mask_is_not_proved_as_the_theorem():
    """loss_grad_through_relu's theorem on the region z₀ < 0 (1×2, label 0) is proved; the same
    identity with the mask dropped from the closed form is not."""
    from obligations.lean_mlp import gradients, mlp

    good = next(c for c in gradients.THROUGH_RELU if c.name == "loss-grad-through-relu-1x2-signs--label0-z0")
    assert _run_with_theorem(good, lambda ctx: symbolic.decide(good, "sympy")).status is Status.PROVED

    def unmasked():
        sp = symbolic.sympy()
        W2, b2, z = gradients.sym_matrix(sp, "W2", 1, 2), gradients.sym_vector(sp, "b2", 2), gradients.sym_vector(sp, "z", 1)
        logits = mlp.dense(W2, b2, mlp.relu(z, gradients.sign_table([(z[0], False)])))
        L = mlp.cross_entropy(logits, 0, gradients._sp_exp, gradients._sp_log)
        return sp.diff(L, z[0]) - mlp.dense_transpose(W2, mlp.head_cotangent(logits, 0, gradients._sp_exp))[0]

    bad = symbolic.zero_claim("loss-grad-through-relu-unmasked", unmasked)
    assert _run_with_theorem(bad, lambda ctx: symbolic.decide(bad, "sympy")).status is not Status.PROVED


def test_the_lipschitz_search_declares_the_two_lemmas_it_samples():
    """grad_lipschitz_search's theorem is the hidden and input segment-Lipschitz lemmas (the
    theorems of the two obligations it samples for), so a candidate it confirms is a point of them."""
    by_id = {ob.id: ob for ob in DECIDED}
    search = {kernel.subject_of(c) for c in by_id["lean_mlp.grad_lipschitz_search"].theorem}
    lemmas = {kernel.subject_of(c) for i in ("lean_mlp.mlp_hidden_loss_grad_lipschitz", "lean_mlp.mlp_input_loss_grad_lipschitz")
              for c in by_id[i].theorem}
    assert search == lemmas and len(search) == 2 * lipschitz.LIP_DIMS[3]
