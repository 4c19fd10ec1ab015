"""The referee's follow-up questions: expected statuses, and that the mechanisms can fail."""

from __future__ import annotations

from fractions import Fraction

import pytest

from checker.backends import smt
from checker.kernel.model import Grade, Outcome, Status
from checker.run.discovery import discover
from obligations.controller_bound import genuine_pruning as gp
from obligations.psy01a import construction_gates

EXPECTED = {
    "controller_bound.eq10_genuine_pruning": Status.REFUTED,
    "controller_bound.eq10_norms_nonincreasing": Status.PROVED,
    "controller_bound.corrected_decreasing_order": Status.PROVED,
    "psy01a.frozen_gates_on_construction": Status.PROVED,
    "psy01a.construction_delta_below_one": Status.PROVED,
    "psy01a.frozen_gates_on_t_unit_networks": Status.PROVED,
    "psy01a.soft_relaxation_constant_attained": Status.PROVED,
    "rmt_jacobian.mask_threshold_corrected": Status.PROVED,
    "rmt_jacobian.free_limits_sanity": Status.PROVED,
}


@pytest.mark.parametrize("ob_id, status", sorted(EXPECTED.items()))
def test_outcome(ob_id, status, catalogue_run):
    """Each follow-up obligation settles as recorded, and is confirmed."""
    r = catalogue_run[ob_id]
    assert r.status is status, r.certificate.reason
    assert r.outcome in (Outcome.CONFIRMED, Outcome.PARTIAL)  # partial: proved for some sizes only


def test_genuine_pruning_refutation_is_rigorous_and_exceeds_the_bound(catalogue_run):
    """The refutation's sides are exact deviation² against a rigorous upper bound of bound²."""
    r = catalogue_run["controller_bound.eq10_genuine_pruning"]
    data = r.certificate.data
    exact_sides = {k: Fraction(v) for k, v in data["exact_sides"].items()}
    assert exact_sides["deviation²"] > exact_sides["bound² (upper)"]
    assert data["ratio_lower_bound"] > 1
    assert "lower-triangular" in data["instance"]


def test_recheck_does_not_refute_a_random_mask_instance():
    """Mutation: a Gaussian network with a Bernoulli mask (float ratio well below 1) is not a violation."""
    import numpy as np

    rng = np.random.default_rng(0)
    n = 12
    w = tuple(rng.normal(size=(n, n)) / np.sqrt(n) for _ in range(2))
    m = tuple((rng.random((n, n)) < 0.5).astype(float) for _ in range(2))
    inst = gp.Instance(w, m, rng.normal(size=n), "identity", "n = 12, gaussian, Bernoulli(1/2) masks, identity")
    assert gp.rigorous_violation(inst).status is Status.UNKNOWN


def test_a_violation_whose_masks_are_not_0_1_is_no_pruning_and_not_refuted():
    """The witness's lower-triangular masks re-check as a violation; the same instance with masks 3·M
    (a deviation larger still) is outside the statement — no pruning — so it is unknown."""
    inst = gp._witness_instance(128, "identity", __import__("numpy").random.default_rng(0), 0)  # the obligation's
    assert gp.rigorous_violation(inst).status is Status.REFUTED
    scaled = gp.Instance(inst.weights, tuple(3 * m for m in inst.masks), inst.s, inst.activation, inst.label)
    v = gp.rigorous_violation(scaled)
    assert v.status is Status.UNKNOWN and "no pruning" in v.certificate.reason


def test_eq10_without_the_norm_hypotheses_is_refuted():
    """Mutation: dropping both norm hypotheses gives back Corollary 1's counterexample (either one
    alone suffices: increasing order uses the first, decreasing order the second)."""
    weaker = gp.NONINCREASING.without("‖W₁ + δW₁‖ ≤ ‖W₁‖").without("‖W₂ + δW₂‖ ≤ ‖W₂‖")
    assert smt.prove(weaker).status is Status.REFUTED


def test_decreasing_order_with_unpruned_constant_is_refuted():
    """Mutation: in decreasing order, C₁ from the unpruned W₂ is Eq. (10) again, and false."""
    from checker.claims import claim
    from obligations.controller_bound import corollary1
    from obligations.controller_bound.network import c1, c2

    wrong = claim("decreasing-unpruned", corollary1.VARS,
                  lambda o, v: o.le(corollary1._deviation(o, v), c2(o, v) * o.abs(v.d2) + c1(o, v) * o.abs(v.d1)))
    assert smt.prove(wrong).status is Status.REFUTED


def test_frozen_gate_hypothesis_counts_are_exact_at_a_centre():
    """At a noiseless centre of the construction seven relay gates per layer are exactly zero."""
    net, problems = construction_gates.pruned_construction((2, 3, 0, 1), 7)
    assert not problems
    from obligations.psy01a import reference_model as rm

    name, u, label = construction_gates._inputs((2, 3, 0, 1))[0]
    h = construction_gates._hypotheses_at(rm.exact_layers(net), u, label)
    assert h["zero_gate_preactivations"] == {"layer 2": 7, "layer 3": 7}
    assert h["zero_margin_pairs"] == 0


def test_grades_name_what_they_cover(catalogue_run):
    """Instance-level answers are graded instances; the z3 parts universal or bounded, never more."""
    r = catalogue_run["psy01a.frozen_gates_on_construction"]
    assert r.certificate.grade is Grade.INSTANCES
    r = catalogue_run["controller_bound.eq10_norms_nonincreasing"]
    assert r.certificate.grade is Grade.BOUNDED


def test_wide_search_is_in_the_slow_tier():
    """The large-width Monte-Carlo search is slow-tier only."""
    ob = discover("obligations").by_id("controller_bound.eq10_genuine_pruning_wide")
    assert ob.slow
