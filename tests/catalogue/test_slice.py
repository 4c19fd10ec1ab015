"""Expected outcomes of the first catalogue slice, and that mutated claims are not accepted."""

from __future__ import annotations

from fractions import Fraction

import pytest

from checker.backends import exact, smt
from checker.claims import claim
from checker.kernel.model import Outcome, Status
from obligations.controller_bound import corollary1, network, theorem2
from obligations.psy01a import cue, setup
from tests.helpers import run_obligation

SLICE = {
    "controller_bound.theorem2_single_layer": Status.PROVED,
    "controller_bound.theorem2_matrices": Status.SUPPORTED,
    "controller_bound.theorem2_tight": Status.PROVED,
    "controller_bound.corollary1_additive": Status.REFUTED,
    "controller_bound.corollary1_corrected": Status.PROVED,
    "controller_bound.unbounded_state_space": Status.PROVED,
    "psy01a.parameter_count": Status.PROVED,
    "psy01a.margin_two_lipschitz": Status.PROVED,
    "psy01a.margin_two_lipschitz_tight": Status.PROVED,
    "psy01a.masked_operator_norm": Status.PROVED,
    "psy01a.masked_opnorm_frobenius": Status.PROVED,
}


@pytest.mark.parametrize("ob_id, status", sorted(SLICE.items()))
def test_slice_outcome(ob_id, status, catalogue_run):
    """Each slice obligation settles as the source says."""
    r = catalogue_run[ob_id]
    assert r.status is status, r.certificate.reason
    assert r.outcome in (Outcome.CONFIRMED, Outcome.PARTIAL, Outcome.EVIDENCE)


def test_corollary1_witness_found_by_z3_rechecks_and_review_instance_is_kept(catalogue_run):
    """The refutation's witness came from z3 and re-checks exactly; 201 > 101 is in the certificate."""
    r = catalogue_run["controller_bound.corollary1_additive"]
    c = r.certificate
    assert c.steps[0].backend == "smt" and c.steps[0].answer == "sat"
    point = {k: Fraction(v) for k, v in c.witness.items()}
    assert exact.evaluate(corollary1.ADDITIVE, point).is_counterexample
    assert point != {k: Fraction(v) for k, v in corollary1.REVIEW_INSTANCE.items()}
    review = c.data["review_instance"]
    assert review["sides"]["deviation"] == "201" and review["sides"]["bound"] == "101"
    assert review["constants_match_review"] is True


def test_weakened_theorem2_constant_is_refuted():
    """Mutation: Theorem 2 with C_1/2 in place of C_1 is refuted with an exact witness."""
    half = claim("theorem2-half", theorem2.VARS,
                 lambda o, v: o.le(theorem2._dev1(o, v), network.c1(o, v) * o.abs(v.d) / 2))
    v = smt.prove(half)
    assert v.status is Status.REFUTED
    assert exact.evaluate(half, {k: Fraction(x) for k, x in v.certificate.witness.items()}).is_counterexample


def test_margin_constant_below_two_is_refuted():
    """Mutation: the margin bound with constant 19/10 instead of 2 is refuted."""
    v = smt.prove(cue._lipschitz_claim(4, 0, constant=Fraction(19, 10)))
    assert v.status is Status.REFUTED


def test_flipped_corrected_bound_is_not_proved():
    """Mutation: the corrected bound with the inequality flipped is not proved."""
    flipped = claim("corrected-flipped", corollary1.VARS,
                    lambda o, v: o.ge(corollary1._deviation(o, v), corollary1._corrected_bound(o, v)))
    assert smt.prove(flipped).status is Status.REFUTED


def test_parameter_count_rejects_a_wrong_total(monkeypatch):
    """Mutation: a different stated total is refuted by the exact count at the stated split (n2 = 256)."""
    monkeypatch.setattr(setup, "PARAMETERS", 100_485)
    r = run_obligation("psy01a.parameter_count")
    assert r.status is Status.REFUTED
    assert r.certificate.witness == {"n2": "256"}
