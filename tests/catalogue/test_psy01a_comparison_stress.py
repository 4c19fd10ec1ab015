"""Psy01-A comparison model, stress, cue use and accuracy stability: expected outcomes, and that
mutated copies of the claims are refuted or not proved."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from checker.backends import exact, smt
from checker.face.lean import parse_file
from checker.kernel.model import Context, Outcome, Status
from checker.run.discovery import discover
from obligations.psy01a import (accuracy, arb_linalg, comparison, cue, cue_use, stress_bounds, stress_certificates,
                                stress_claims, stress_network, stress_vs_masks)
from tests.helpers import ROOT, run_obligation

EXPECTED = {
    "psy01a.comparison_model.maximiser": Status.PROVED,
    "psy01a.comparison_model.strict_gain": Status.PROVED,
    "psy01a.comparison_model.stress_monotone": Status.PROVED,
    "psy01a.comparison_model.cue_drop": Status.PROVED,
    "psy01a.comparison_model.example_parameters": Status.PROVED,
    "psy01a.comparison_corollary": Status.PROVED,
    "psy01a.stress_path_bound": Status.PROVED,
    "psy01a.global_stress_certificate": Status.PROVED,
    "psy01a.frozen_gate_certificate": Status.PROVED,
    "psy01a.stress_bounds_bracket_montecarlo": Status.SUPPORTED,
    "psy01a.strict_comparison_corollary": Status.PROVED,
    "psy01a.identical_masks_stress": Status.PROVED,
    "psy01a.positive_rescaling": Status.PROVED,
    "psy01a.parameter_stability": Status.PROVED,
    "psy01a.pruning_error_bound": Status.PROVED,
    "psy01a.cue_obstruction": Status.PROVED,
    "psy01a.rule_use_certificate": Status.PROVED,
    "psy01a.cue_lipschitz_certificate": Status.PROVED,
    "psy01a.accuracy_stability": Status.PROVED,
    "psy01a.soft_relaxation": Status.PROVED,
}
MODULES = ("comparison", "stress_bounds", "stress_vs_masks", "parameter_perturbation", "cue_use", "accuracy")


def _ctx(name: str = "test") -> Context:
    return Context(name, 1, 60.0)


def _rechecks(claim, verdict) -> bool:
    point = {k: Fraction(v) for k, v in verdict.certificate.witness.items()}
    return exact.evaluate(claim, point).is_counterexample


@pytest.mark.parametrize("ob_id, status", sorted(EXPECTED.items()))
def test_outcome(ob_id, status, catalogue_run):
    """Each obligation settles as the source says (proved, or supported for Monte-Carlo)."""
    r = catalogue_run[ob_id]
    assert r.status is status, r.certificate.reason
    assert r.outcome in (Outcome.CONFIRMED, Outcome.PARTIAL, Outcome.EVIDENCE)


def test_every_obligation_of_these_modules_is_expected():
    """No obligation of these modules is missing from the table above (and vice versa)."""
    cat = discover("obligations")
    ours = {ob.id for ob in cat.obligations if ob.module.rsplit(".", 1)[-1] in MODULES}
    assert ours == set(EXPECTED)


# --- the comparison model ---------------------------------------------------------------


@pytest.mark.parametrize("scale", [Fraction(1), Fraction(1, 3), Fraction(3, 4)])
def test_wrong_maximiser_is_refuted(scale):
    """Mutation: f*(e) = scale·k(e − e0)/λ instead of k(e − e0)/(2λ) is refuted with an exact witness."""
    model = replace(comparison.MODEL, maximiser_scale=scale)
    v = comparison.check_maximiser(_ctx(), model)
    assert v.status is Status.REFUTED
    inside, unique, _ = comparison.maximiser_claims(model)
    assert _rechecks(inside, v) or _rechecks(unique, v)


def test_wrong_gain_interval_is_refuted():
    """Mutation: the strict-gain interval 0 < f < 2k(e − e0)/λ is too long; z3's witness re-checks exactly."""
    gain = comparison.gain_claims(replace(comparison.MODEL, gain_scale=Fraction(2)))[0]
    v = smt.prove(gain)
    assert v.status is Status.REFUTED and _rechecks(gain, v)


@pytest.mark.parametrize("constant", [Fraction(19, 10), Fraction(21, 10)])
def test_wrong_cue_drop_constant_is_not_proved(constant):
    """Mutation: c·Φ(γ/τ) − (c − 1) with c ≠ 2 is not what the endpoint bounds give."""
    v = comparison.check_cue_drop(_ctx(), replace(comparison.MODEL, drop_constant=constant))
    assert v.status is not Status.PROVED


def test_stress_monotonicity_needs_assumption_a2():
    """Without k(1 − e0) < h0, S_lin can increase in f at small σ: z3 finds an exact counterexample."""
    weaker = comparison.STRESS_FIXED_E.without("A2: k(1 − e0) < h0")
    v = smt.prove(weaker)
    assert v.status is Status.REFUTED and _rechecks(weaker, v)


def test_sympy_to_ops_agrees_across_backends():
    """The sympy derivative evaluates to the same exact number through the exact ops namespace."""
    sym = comparison._sym()
    sp = sym["sp"]
    point = {"e": Fraction(3, 4), "f": Fraction(1, 5), **comparison.EXAMPLE, "sigma": Fraction(1, 2)}
    subs = {sym[k]: sp.Rational(v.numerator, v.denominator) for k, v in point.items()}
    direct = sym["dSdf_D3"].subs(subs)
    via_ops = comparison.sympy_to_ops(exact.OPS, point, sym["dSdf_D3"])
    assert Fraction(int(direct.p), int(direct.q)) == via_ops


def test_comparison_corollary_needs_strict_gaps():
    """The corollary with ≥ gaps is refuted by an exact witness (recorded in the certificate)."""
    v = smt.prove(comparison.corollary_claim(strict=False))
    assert v.status is Status.REFUTED and _rechecks(comparison.corollary_claim(strict=False), v)


# --- margin constant 2 ------------------------------------------------------------------


def test_margin_constant_below_two_is_refuted():
    """Mutation: the margin Lipschitz bound with constant 1.9 is refuted (psy01a.cue's claim builder)."""
    claim = cue._lipschitz_claim(4, 0, constant=Fraction(19, 10))
    v = smt.prove(claim)
    assert v.status is Status.REFUTED and _rechecks(claim, v)


@pytest.mark.parametrize("y", range(4))
def test_certificate_margin_constant_below_two_is_refuted(y):
    """Mutation: a margin above 1.9η does not survive an η change, in the stress and cue certificates."""
    for c in (stress_bounds._preserve_claim(y, constant=Fraction(19, 10)), cue_use._same_correctness_claim(y, constant=Fraction(19, 10))):
        v = smt.prove(c)
        assert v.status is Status.REFUTED and _rechecks(c, v)


# --- cue use -----------------------------------------------------------------------------


def test_three_fixed_point_free_involutions():
    """Exactly three fixed-point-free involutions of {0,1,2,3}; the default y ↦ y + 2 is one."""
    invs = cue_use.fixed_point_free_involutions()
    assert set(invs) == {(1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0)}
    assert cue_use.DEFAULT_PI in invs


def test_obstruction_fails_for_a_permutation_with_fixed_points():
    """Mutation: with π = identity (fixed points) part 1 (q_a + q_w ≤ 1) is refuted."""
    part1 = cue_use.obstruction_claims((0, 1, 2, 3))[0]
    v = smt.prove(part1)
    assert v.status is Status.REFUTED and _rechecks(part1, v)


# --- stress -------------------------------------------------------------------------------


def test_montecarlo_bracket_reports_its_interval(catalogue_run):
    """The Monte-Carlo obligation records estimate, confidence interval, and the certified bracket."""
    r = catalogue_run["psy01a.stress_bounds_bracket_montecarlo"]
    d = r.certificate.data
    assert d["certified_lower"] <= d["estimate"] <= d["certified_upper"]
    lo, hi = d["confidence_interval"]
    assert lo < d["estimate"] < hi and d["samples"] == stress_bounds.MC_DRAWS * stress_network.SPEC.test_size


def test_certified_bounds_are_ordered_per_input():
    """Every per-input frozen-gate bracket is ordered and inside [0, 1]."""
    cert = stress_certificates.certificates()
    assert all(0 <= c.lower <= c.upper <= 1 for c in cert["per_input"])
    assert cert["H"] == 640


def test_opnorm_upper_bound_is_above_the_float_norm():
    """The rigorous operator-norm bound is at least numpy's (float) largest singular value, and close."""
    import numpy as np

    net = stress_network.stress_network()
    for w in net.weights:
        bound = float(arb_linalg._to_fraction(arb_linalg.opnorm_upper(w)))
        true = float(np.linalg.norm(w, 2))
        assert true <= bound <= 1.05 * true


def test_wrong_t_unit_correctness_is_refuted():
    """Mutation: 'correct iff G ≥ −σ/t' (t and σ swapped) is refuted."""
    from checker.claims import claim

    wrong = claim("t-unit-wrong", "t s g",
                  lambda o, v: o.eq(stress_claims.classified_as(o, [1 + v.s * v.g / v.t, o.q(0), o.q(-1), o.q(-1)], 0), o.ge(v.g, -v.s / v.t)),
                  hypotheses={h.name: h.formula for h in stress_vs_masks.T_CORRECT.hypotheses})
    v = smt.prove(wrong)
    assert v.status is Status.REFUTED and _rechecks(wrong, v)


def test_exact_forward_rejects_non_dyadic_values():
    """The exact integer forward pass refuses values that are not multiples of 2^-20."""
    import numpy as np

    net = stress_vs_masks.t_network(Fraction(1))
    with pytest.raises(ValueError):
        stress_vs_masks.exact_forward(net, np.array([0.1, 0.0, 1.0, 0.0]))


# --- accuracy ------------------------------------------------------------------------------


def test_ramp_with_a_smaller_constant_is_refuted():
    """Mutation: |ψ(a) − ψ(b)| ≤ |a − b|/(2γ) is false."""
    from checker.claims import claim

    wrong = claim("ramp-half", "a b g", lambda o, v: o.le(o.abs(accuracy._ramp(o, v.a, v.g) - accuracy._ramp(o, v.b, v.g)),
                                                         o.abs(v.a - v.b) / (2 * v.g)),
                  hypotheses={"γ > 0": lambda o, v: o.gt(v.g, 0)})
    v = smt.prove(wrong)
    assert v.status is Status.REFUTED and _rechecks(wrong, v)


# --- hygiene -----------------------------------------------------------------------------------


def test_modules_import_without_heavy_libraries():
    """Importing these modules (and the libraries they import) loads none of numpy, sympy, z3, mpmath, flint."""
    code = ("import sys; import obligations.psy01a.comparison, obligations.psy01a.stress_bounds, "
            "obligations.psy01a.stress_vs_masks, obligations.psy01a.parameter_perturbation, "
            "obligations.psy01a.stress_certificates, obligations.psy01a.stress_network, obligations.psy01a.stress_claims, "
            "obligations.psy01a.arb_linalg, obligations.psy01a.cue_use, obligations.psy01a.accuracy; "
            "print(sorted(m for m in ('numpy', 'sympy', 'z3', 'mpmath', 'flint') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_lean_refs_resolve_in_our_files():
    """Every lean= ref of these obligations is declared in lean_refs/Psy01A/{Comparison,Stress,CueUse,Accuracy}.lean."""
    files = ["Comparison", "Stress", "CueUse", "Accuracy"]
    declared = {d.name for f in files for d in parse_file(ROOT / "lean_refs" / "Psy01A" / f"{f}.lean")}
    cat = discover("obligations")
    refs = {ref for ob in cat.obligations if ob.id in EXPECTED for ref in ob.lean}
    assert refs and refs <= declared


def test_reconstruction_doc_names_every_obligation():
    """docs/reconstructions/psy01a_comparison_stress.md names every obligation of these modules."""
    text = (Path(ROOT) / "docs" / "reconstructions" / "psy01a_comparison_stress.md").read_text(encoding="utf-8")
    missing = [i for i in EXPECTED if f"`{i}`" not in text]
    assert not missing, missing


@pytest.mark.slow
def test_positive_rescaling_slow_adds_the_two_wide_network():
    """With --slow the rescaling obligation also proves the whole 2-wide network in z3."""
    r = run_obligation("psy01a.positive_rescaling", slow=True)
    assert r.status is Status.PROVED
    assert any("2-wide" in name for name in r.certificate.data["parts"])
