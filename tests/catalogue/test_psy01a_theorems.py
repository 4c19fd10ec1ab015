"""Psy01-A theorems: every decided obligation declares the theorem it proves, and a stated value the
catalogue computes decides its statement (a wrong stated count or constant is refuted, not unknown).

The refutations are run through the runner's own check (:func:`checker.run.runner.validated`), which
re-checks the witness against the declared theorem: a witness that only breaks a lemma would end
``unknown`` there and fail these tests."""

from __future__ import annotations

from fractions import Fraction

import pytest

from checker.backends import exact
from checker.kernel.model import Context, Expect, Status, derive_seed
from checker.run.discovery import discover
from checker.run.runner import validated
from obligations.psy01a import construction, cue, cue_use, pruning, setup, stability, stress_bounds

CATALOGUE = discover("obligations")
PSY01A = {ob.id: ob for ob in CATALOGUE.obligations if ob.id.startswith("psy01a.")}
DECIDED = sorted(i for i, ob in PSY01A.items() if ob.expect in (Expect.HOLDS, Expect.FAILS))

#: Decided obligations that declare no theorem yet, each with the reason.
WITHOUT_THEOREM = {
    # Supported by sampling on the seeded network (a Monte-Carlo bracket), never proved: no theorem to prove.
    "psy01a.stress_bounds_bracket_montecarlo",
}


def _run(ob_id: str):
    ob = PSY01A[ob_id]
    return validated(ob, ob.discharge(Context(ob.id, derive_seed(20260806, ob.id), 120.0)))


def test_the_allow_list_names_decided_obligations_of_the_package():
    assert WITHOUT_THEOREM <= set(DECIDED)


@pytest.mark.parametrize("ob_id", DECIDED)
def test_every_decided_obligation_declares_its_theorem(ob_id):
    ob = PSY01A[ob_id]
    if ob_id in WITHOUT_THEOREM:
        assert not ob.theorem, f"{ob_id} now declares a theorem: take it off the allow-list"
    else:
        assert ob.theorem, f"{ob_id} ({ob.expect.value}) declares no theorem"


def test_parameter_count_is_proved_over_every_split():
    v = _run("psy01a.parameter_count")
    assert v.status is Status.PROVED and v.certificate.grade.value == "universal"


@pytest.mark.parametrize("name, wrong", [("WEIGHTS", 99_841), ("PARAMETERS", 100_485), ("BIASES", 643),
                                         ("CUE_BLOCK", 511)])
def test_a_wrong_stated_parameter_count_is_refuted(monkeypatch, name, wrong):
    monkeypatch.setattr(setup, name, wrong)
    v = _run("psy01a.parameter_count")
    assert v.status is Status.REFUTED, v.certificate.reason
    assert v.certificate.witness == {"n2": "256"}


def test_a_wrong_stated_retention_count_is_refuted(monkeypatch):
    monkeypatch.setattr(pruning, "STATED_COUNTS", (103, 6554, 3276, 52))
    v = _run("psy01a.exact_retention_counts")
    assert v.status is Status.REFUTED, v.certificate.reason
    assert v.certificate.witness == {"layer": "2"}
    assert v.certificate.sides["N"] == "32768" and v.certificate.sides["⌈dN⌉"] == "3277"


def test_the_stated_retention_counts_are_proved():
    v = _run("psy01a.exact_retention_counts")
    assert v.status is Status.PROVED, v.certificate.reason


def test_a_wrong_stated_density_is_refuted(monkeypatch):
    monkeypatch.setattr(pruning, "STATED_DENSITIES", (Fraction(1, 2), Fraction(1, 4), Fraction(1, 2)))
    v = _run("psy01a.structural_vs_numerical_density")
    assert v.status is Status.REFUTED, v.certificate.reason


def test_a_wrong_stated_representation_value_is_refuted(monkeypatch):
    monkeypatch.setattr(pruning, "MASK_WITNESS", {**pruning.MASK_WITNESS, "h_M": 3})
    v = _run("psy01a.mask_is_coordinate_projection")
    assert v.status is Status.REFUTED, v.certificate.reason


def test_a_bad_example_of_an_existential_part_is_unknown_not_refuted(monkeypatch):
    """The example is the obligation's choice: a point that is not an instance says nothing against
    the statement."""
    monkeypatch.setattr(stress_bounds, "LOWER_BOUNDS_INSTANCE",
                        {"S0": Fraction(1, 2), "S1": Fraction(1, 4), "L0": Fraction(1, 2), "L1": Fraction(0)})
    assert _run("psy01a.strict_comparison_corollary").status is Status.UNKNOWN
    monkeypatch.setattr(cue, "tight_point", lambda k: {**{f"z{i}": 0 for i in range(k)}, **{f"w{i}": 0 for i in range(k)}})
    tight = _run("psy01a.margin_two_lipschitz_tight")  # the existence stands on z3's own instance instead
    assert tight.status is Status.PROVED, tight.certificate.reason


def test_a_wrong_stated_operator_norm_is_refuted(monkeypatch):
    monkeypatch.setattr(stability, "STATED_NORMS", ("sqrt(3)", "(1 + sqrt(5))/2"))
    # the declared theorem's sympy claims build on first use and keep what they built: built under the
    # edit here, they must be built again after it (else a later test in this process reads the edit)
    for c in stability.masked_operator_norm.obligation.theorem:
        if hasattr(c, "_parts"):
            monkeypatch.setattr(c, "_parts", None)
    v = _run("psy01a.masked_operator_norm")
    assert v.status is Status.REFUTED, v.certificate.reason


def test_a_wrong_involution_list_is_refuted(monkeypatch):
    monkeypatch.setattr(cue_use, "fixed_point_free_involutions", lambda: ((1, 0, 3, 2), (2, 3, 0, 1)))
    v = exact.enumerate_domain(cue_use._involutions_claim())
    assert v.status is Status.REFUTED and v.certificate.witness == {"p0": "3", "p1": "2", "p2": "1", "p3": "0"}


def test_a_wrong_stated_block_deletion_value_is_refuted(monkeypatch):
    monkeypatch.setattr(construction, "STATED_MANTISSA", Fraction(374, 100))
    v = _run("psy01a.bernoulli_cue_block")
    assert v.status is Status.REFUTED, v.certificate.reason
