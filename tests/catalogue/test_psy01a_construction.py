"""Psy01-A sparse construction and pruning obligations: outcomes, certificates, mutations."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from checker.backends import exact, interval, smt
from checker.claims import claim
from checker.kernel.model import Context, Outcome, Status
from checker.kernel.verdicts import all_of
from obligations.psy01a import construction, pruning
from tests.helpers import run_obligation

EXPECTED = {
    "psy01a.sparse_construction": Status.PROVED,
    "psy01a.universal_cue_threshold": Status.REFUTED,
    "psy01a.bernoulli_cue_block": Status.PROVED,
    "psy01a.cue_invariance_endpoint_witness": Status.PROVED,
    "psy01a.exact_retention_counts": Status.PROVED,
    "psy01a.survivor_count_gap": Status.PROVED,
    "psy01a.structural_vs_numerical_density": Status.PROVED,
    "psy01a.nested_pruning_identity": Status.PROVED,
    "psy01a.fixed_masks_commute": Status.PROVED,
    "psy01a.learning_breaks_nesting": Status.PROVED,
    "psy01a.fresh_adam_differs": Status.PROVED,
    "psy01a.hard_pruning_not_lipschitz": Status.REFUTED,
    "psy01a.mask_is_coordinate_projection": Status.PROVED,
}

CTX = Context("test", 1, 60.0)


@pytest.mark.parametrize("ob_id, status", sorted(EXPECTED.items()))
def test_outcome(ob_id, status, catalogue_run):
    """Each obligation settles as the source says."""
    r = catalogue_run[ob_id]
    assert r.status is status, r.certificate.reason
    assert r.outcome in (Outcome.CONFIRMED, Outcome.PARTIAL)  # partial: proved for some sizes only


def test_construction_certificate_lists_counts_and_essential_weights(catalogue_run):
    """Per-layer realised counts equal ⌈N/10⌉ and every essential weight survived."""
    data = catalogue_run["psy01a.sparse_construction"].certificate.data
    counts = data["realised_counts"]
    assert [counts[f"layer {i}"]["realised"] for i in range(1, 5)] == [103, 6554, 3277, 52]
    assert [counts[f"layer {i}"]["essential_survived"] for i in range(1, 5)] == [32, 8, 8, 8]
    assert all(counts[f"layer {i}"]["mask_equals_intended"] for i in range(1, 5))
    assert data["region_E_claims"] == 24


def test_universal_threshold_witness_rechecks(catalogue_run):
    """The refutation's ν* really gives 2p_ν − 1 > 1/2 + Cν (fresh enclosure)."""
    c = catalogue_run["psy01a.universal_cue_threshold"].certificate
    nu, C = Fraction(c.witness["nu"]), Fraction(c.witness["C"])
    assert nu < Fraction(c.witness["nu0"])
    assert construction.delta_lower(nu).lo > Fraction(1, 2) + C * nu


def _verdict(spec):
    return all_of("test", construction.construction_verdict(CTX, spec))


@pytest.mark.parametrize("change", [
    {"counts": (103, 6553, 3277, 52)},  # a wrong ten-percent count
    {"counts": (102, 6554, 3277, 52)},
    {"density": Fraction(1, 20)},  # the counts no longer match ⌈dN⌉
    {"padding": Fraction(3, 10)},  # padding below some deleted magnitudes: pruning keeps the wrong positions
    {"deleted_max": 0.6},  # deleted magnitudes above the padding
    {"unit_bias": Fraction(-2)},  # non-matching units fire
    {"cue_weight": Fraction(1)},  # matching unit is 1, not 3
    {"voice_to_voice_label": False},  # the head sends (j, −1) to j
    {"dormant_bias": (Fraction(-1), Fraction(-1), Fraction(-1))},  # padded dormant units fire on E
])
def test_mutated_construction_is_not_proved(change):
    """Changing the counts or the construction's weights makes the checker refute it or fail to prove it."""
    v = _verdict(replace(construction.SPEC, **change))
    assert v.status in (Status.REFUTED, Status.UNKNOWN), change


def test_broken_head_is_refuted_with_an_exact_witness():
    v = _verdict(replace(construction.SPEC, voice_to_voice_label=False))
    assert v.status is Status.REFUTED
    assert v.certificate.sides["label"] != v.certificate.sides["predicted"]


def test_firing_dormant_units_are_caught_by_z3():
    """With dormant first-layer bias −4 the padded units are off at the centres but fire somewhere on E;
    z3 finds a point, re-checked exactly."""
    spec = replace(construction.SPEC, dormant_bias=(Fraction(-4), Fraction(-1), Fraction(-1)))
    parts = construction.construction_verdict(CTX, spec)
    assert all(v.status is Status.PROVED for k, v in parts.items() if "region-E" not in k)
    region = [v for k, v in parts.items() if "region-E" in k]
    assert region and any(v.status is Status.REFUTED for v in region)


def test_universal_threshold_not_refuted_with_a_broken_construction(monkeypatch):
    """If the construction fails its checks, the threshold claim is not refuted."""
    monkeypatch.setattr(construction, "SPEC", replace(construction.SPEC, counts=(103, 6553, 3277, 52)))
    assert run_obligation("psy01a.universal_cue_threshold").status is Status.UNKNOWN


def test_larger_region_is_not_proved():
    """E with threshold 3 + 1/100 is too large: z3 refutes the region claim for some cluster."""
    built = construction.build(construction.SPEC, 1)
    from obligations.psy01a import reference_model as rm

    layers = rm.exact_layers(built.dense.masked(rm.prune_network(built.dense, Fraction(1, 10))))
    statuses = [smt.prove(construction.region_claim(layers, j, 1, j, Fraction(301, 100))).status for j in range(4)]
    assert all(s is Status.REFUTED for s in statuses)


# --- pruning mutations ------------------------------------------------------------------------


def test_retention_bound_halved_is_refuted():
    """Mutation: 0 ≤ K/N − d < 1/(2N) is false; z3 finds an exactly re-checked counterexample."""
    c = pruning.RETENTION
    half = claim("retention-half", c.variables,
                 lambda o, v: o.lt(v.K / v.N - v.d, 1 / (2 * v.N)), {h.name: h.formula for h in c.hypotheses})
    v = smt.prove(half)
    assert v.status is Status.REFUTED


def test_one_shot_bound_for_survivors_is_refuted():
    """Mutation: the survivor gap with the one-shot bound 1/N is refuted."""
    c = pruning.SURVIVOR_BOUND
    naive = c.derive("survivor-one-over-n", conclusion=lambda o, v: o.lt(pruning._survivor_gap(o, v), 1 / v.N), terms=())
    assert smt.prove(naive).status is Status.REFUTED
    point = pruning.sharpness_instance(Fraction(1, 10))
    assert exact.evaluate(naive, point).is_counterexample


def test_mask_dependent_tie_break_breaks_the_nesting_check():
    """A pruning whose tie rule depends on the current mask is caught by the exhaustive search."""
    def buggy(ws, k, eligible):
        eligible = list(eligible)
        reverse = len(eligible) < len(ws)
        order = sorted(eligible, key=lambda i: (-abs(ws[i]), -i if reverse else i))
        return frozenset(order[:k])

    _, bad = pruning.nesting_counterexample(buggy)
    assert bad is not None
    _, good = pruning.nesting_counterexample(pruning.spec_prune, (1, 3))
    assert good is None


def test_lipschitz_claim_holds_without_the_jump():
    """Without the outranking weight there is no jump, so the pair is no counterexample."""
    import numpy as np

    from obligations.psy01a import reference_model as rm

    net = pruning.jump_network()
    flat = rm.ReluNetwork(net.weights[:1] + (np.array([[1.0, 0.0], [0.0, 0.0]]),), net.biases)
    c = pruning.lipschitz_claim(flat, Fraction(1000))
    v = exact.recheck_counterexample(c, {"d": Fraction(1, 4), "dp": Fraction(1, 4) + Fraction(1, 2000)}, "test")
    assert v.status is Status.UNKNOWN


def test_bernoulli_cue_block_compares_its_stated_number(monkeypatch):
    """The stated 3.73·10⁻²⁴ is compared with the exact (1 − p)^512: at p = 1/5 the obligation is refuted."""
    from fractions import Fraction

    from checker.kernel.model import Context, Status
    from obligations.psy01a import construction

    ctx = Context("psy01a.bernoulli_cue_block", seed=1, timeout_s=60.0)
    assert construction.bernoulli_cue_block(ctx).status is Status.PROVED
    monkeypatch.setattr(construction, "BERNOULLI_P", Fraction(1, 5))
    v = construction.bernoulli_cue_block(ctx)
    assert v.status is Status.REFUTED and "(1 − p)^n" in v.certificate.sides


# --- the declared theorems, and what their mutations do ------------------------------------------


def test_disjointness_is_proved_on_its_whole_domain_and_fails_for_an_involution_with_a_fixed_point(monkeypatch):
    """The disjointness of {g = Y} and {g = π(Y)} is an enumeration of its declared domain (universal); with an
    involution that fixes a label the same claim is refuted there, with an exact witness."""
    v = exact.enumerate_domain(construction.DISJOINT)
    assert v.status is Status.PROVED and v.certificate.grade.value == "universal"
    monkeypatch.setattr(construction, "INVOLUTIONS", ((1, 0, 3, 2), (2, 3, 0, 1), (0, 1, 3, 2)))
    bad = exact.enumerate_domain(construction._disjointness_claim())
    assert bad.status is Status.REFUTED and bad.certificate.witness["pi"] == "2"


def test_the_floor_of_erf_at_three_halves_is_a_closed_claim_settled_by_intervals():
    """erf(3/2) ≈ 0.96611: the floor 0.966 is proved (universal: the claim is closed) and 0.967 refuted."""
    assert interval.prove_on(construction.erf_floor_claim(Fraction(966, 1000)), {}).status is Status.PROVED
    assert interval.prove_on(construction.erf_floor_claim(Fraction(967, 1000)), {}).status is Status.REFUTED


def test_the_nesting_claim_states_the_definition_and_needs_k2_at_most_k1():
    """The claim's H_K agrees with spec_prune on every order of four magnitudes; the identity is proved at
    n = 3 and refuted (exact witness) once K₂ ≤ K₁ is dropped."""
    assert pruning._claim_definition_agrees()[0]
    c = pruning.NESTING[3]
    assert smt.prove(c, CTX).status is Status.PROVED
    no_order = c.derive("nesting-without-k2-le-k1", hypotheses=tuple(h for h in c.hypotheses if h.name != "K₂ ≤ K₁"))
    v = smt.prove(no_order, CTX)
    assert v.status is Status.REFUTED and int(v.certificate.witness["k2"]) > int(v.certificate.witness["k1"])


def test_the_learning_witness_is_exact_and_a_wrong_stated_step_is_not():
    """The declared witness claim holds at its point; with the rate 1/4 the stated w₁ is wrong there."""
    assert exact.prove_at(pruning.LEARNING, [pruning.LEARNING_POINT]).status is Status.PROVED
    assert exact.evaluate(pruning.LEARNING, {**pruning.LEARNING_POINT, "lr": Fraction(1, 4)}).conclusion is False
    assert exact.evaluate(pruning.LEARNING, {**pruning.LEARNING_POINT, "t1": Fraction(2)}).conclusion is False


def test_the_universal_threshold_is_refuted_by_the_kernels_rule_and_a_hand_built_refutation_is_not():
    """The declared theorem is an existence over C and ν₀: the refutation carries the kernel's rule, the
    standard fact it assumes and the erf reading z3 used; a refutation built by hand with the same
    witness is rejected by the runner (one choice of C, ν₀ says nothing of the others)."""
    from checker.kernel.model import Certificate, Verdict
    from checker.run.discovery import discover
    from checker.run.runner import validated

    ob = next(o for o in discover("obligations").obligations if o.id == "psy01a.universal_cue_threshold")
    assert ob.theorem and not ob.no_theorem
    r = run_obligation("psy01a.universal_cue_threshold")
    assert r.status is Status.REFUTED
    kinds = [e["kind"] for e in r.certificate.ledger]
    assert "rule" in kinds and "standard" in kinds
    assert any("uninterpreted function" in e["text"] for e in r.certificate.ledger if e["kind"] == "solver")
    hand = Verdict(Status.REFUTED, Certificate(method="test", witness=dict(r.certificate.witness), sides={}))
    assert validated(ob, hand).status is Status.UNKNOWN


@pytest.mark.parametrize("family", [
    lambda lower: {"nu": lambda o, v: v.nu0},  # ν* = ν₀ is outside 0 < ν < ν₀
    lambda lower: {"nu": lambda o, v: o.min(v.nu0 / 2, o.q(1))},  # ignores C: 1/2 + Cν* is not below L for large C
])
def test_a_witness_family_that_fails_somewhere_refutes_nothing(monkeypatch, family):
    """A family that does not defeat every (C, ν₀) is a failed proof step: unknown, never refuted."""
    monkeypatch.setattr(construction, "witness_family", family)
    assert run_obligation("psy01a.universal_cue_threshold").status is Status.UNKNOWN
