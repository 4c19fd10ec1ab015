"""The declared theorems of the rmt_jacobian and controller_bound obligations: every HOLDS/FAILS
obligation declares one (an explicit allow-list says which cannot, and why), and a stated value
the catalogue computes is decisive: edited to a wrong value, the theorem is refuted, not unknown."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from checker.backends import interval, smt, symbolic
from checker.kernel.model import Context, Expect, Status, derive_seed
from checker.run.discovery import discover
from checker.run.runner import validated
from obligations.controller_bound import corollary1, sized_network, theorem2
from obligations.rmt_jacobian import conditions, remarks, threshold

PACKAGES = ("rmt_jacobian.", "controller_bound.")

#: HOLDS/FAILS obligations of these packages that declare no theorem, each with the reason.
#: (theorem2_matrices declares Theorem 2 for three ReLU layers of every width, its spectral norms by
#: their defining inequality at the vectors used; its search is evidence for it.)
NO_THEOREM: set[str] = set()


def _ours():
    return [ob for ob in discover("obligations").obligations if ob.id.startswith(PACKAGES)]


def _ctx(ob_id: str) -> Context:
    return Context(ob_id, derive_seed(20260806, ob_id), 120.0)


def test_every_holds_or_fails_obligation_declares_its_theorem():
    decided = [ob for ob in _ours() if ob.expect in (Expect.HOLDS, Expect.FAILS)]
    assert len(decided) >= 15
    missing = sorted(ob.id for ob in decided if not ob.theorem and ob.id not in NO_THEOREM)
    assert not missing, f"declare theorem= for {missing}"
    stale = sorted(i for i in NO_THEOREM if any(ob.id == i and ob.theorem for ob in decided))
    assert not stale, f"{stale} declare a theorem now: drop them from the allow-list"
    assert NO_THEOREM <= {ob.id for ob in decided}


# --- the falsifier's values (controller_bound.corollary1_corrected) --------------------------------


def _corrected_with(values, monkeypatch):
    monkeypatch.setattr(corollary1, "REVIEW_VALUES", values)
    ob = discover("obligations").by_id("controller_bound.corollary1_corrected")
    ob = dataclasses.replace(ob, theorem=(sized_network.CORRECTED, values))
    return validated(ob, ob.discharge(_ctx(ob.id)))


def test_the_falsifiers_stated_values_are_proved(monkeypatch):
    v = _corrected_with(corollary1.review_values_claim(Fraction(201), Fraction(101)), monkeypatch)
    assert v.status is Status.PROVED, v.certificate.reason


@pytest.mark.parametrize("deviation, bound", [(202, 101), (201, 100)])
def test_a_wrong_falsifier_value_is_refuted_at_the_review_instance(deviation, bound, monkeypatch):
    """The deviation stated as 202 (it is exactly 201), or Eq. (10)'s bound as 100 (it is 101):
    refuted, with the review's instance as the witness, re-checked against the declared theorem."""
    v = _corrected_with(corollary1.review_values_claim(Fraction(deviation), Fraction(bound)), monkeypatch)
    assert v.status is Status.REFUTED, v.certificate.reason
    assert {k: Fraction(x) for k, x in v.certificate.witness.items()} == {
        k: Fraction(x) for k, x in corollary1.REVIEW_INSTANCE.items()}


# --- stated numbers and limits of rmt_jacobian -------------------------------------------------------


def test_a_wrong_log4_value_is_refuted_against_the_theorem():
    """3.79 in place of 3.69 (rounding reading): refuted at n = 256, re-checked against the theorem."""
    wrong = remarks.approx_claim(4, Fraction(379, 100), Fraction(1, 200), "wrong")
    ob = dataclasses.replace(discover("obligations").by_id("rmt_jacobian.log4_remark"), theorem=(wrong,))
    v = validated(ob, interval.prove_on(wrong, remarks.WIDTH, where="at n = 256"))
    assert v.status is Status.REFUTED, v.certificate.reason
    right = validated(discover("obligations").by_id("rmt_jacobian.log4_remark"),
                      interval.prove_on(remarks.LOG4_ROUNDED, remarks.WIDTH, where="at n = 256"))
    assert right.status is not Status.REFUTED


def test_the_log_remarks_admit_no_other_width_as_a_witness():
    """n = 256 is a hypothesis of the remark: a point at another width is outside the theorem."""
    v = interval.prove_on(remarks.LOG4_ROUNDED, {"n": 1000})  # log⁴(1000)/1000 ≈ 2.28, far from 3.69
    assert v.status is not Status.REFUTED  # without the hypothesis n = 256 this point refutes it


def test_a_wrong_limit_of_condition_ii_prime_is_refuted():
    """The stated form of (ii′) claimed to tend to 0 (it tends to 1): refuted by the computed limit."""
    wrong = symbolic.limit_claim("lim |(2/n)·n − 1| = 0", conditions._unpruned_limit(conditions.stated_ii_prime, 0))
    v = symbolic.decide(wrong, "mutation")
    assert v.status is Status.REFUTED and v.certificate.witness == {"computed": "1"}
    assert wrong.recheck(v.certificate.witness) is True
    assert symbolic.decide(conditions.STATED_LIMIT, "as stated").status is Status.PROVED


def test_a_wrong_free_probability_edge_is_refuted():
    """The Fuss–Catalan edge stated as 27/5 (the recipe computes 27/4): refuted with that value."""
    sp = symbolic.sympy()
    wrong = symbolic.zero_claim("unmasked edge 1/χ(z*) = 27/5", lambda: threshold._unmasked_recipe()[0] - sp.Rational(27, 5))
    v = symbolic.decide(wrong, "mutation", list(threshold._unmasked_recipe()[1]))
    assert v.status is Status.REFUTED, v.certificate.reason
    ob = dataclasses.replace(discover("obligations").by_id("rmt_jacobian.free_limits_sanity"), theorem=(wrong,))
    assert validated(ob, v).status is Status.REFUTED


def test_a_false_threshold_asymptotic_is_refuted_never_proved():
    """n·t*² = 4 log n − 2 log log n + o(1) (false: the gap 2 log log n − log 4 → ∞) is refuted by
    the computed limit; the stated 4 log n − log 4 + o(1) is proved."""
    sp = symbolic.sympy()
    wrong = threshold.threshold_asymptotic(lambda n: 4 * sp.log(n) - 2 * sp.log(sp.log(n)), "4 log n − 2 log log n")
    v = symbolic.decide(wrong, "mutation")
    assert v.status is Status.REFUTED and v.certificate.witness == {"computed": "oo"}
    ob = dataclasses.replace(discover("obligations").by_id("rmt_jacobian.mask_threshold_corrected"),
                             theorem=(threshold.LOG_DERIVATIVE, wrong))
    assert validated(ob, v).status is Status.REFUTED
    assert symbolic.decide(threshold.THRESHOLD_ASYMPTOTIC, "as stated").status is Status.PROVED


def test_an_existence_theorem_accepts_no_refutation():
    """theorem2_tight's theorem is existential: a point is never a witness against it."""
    from checker.claims import SomeInstance

    ob = discover("obligations").by_id("controller_bound.theorem2_tight")
    assert all(isinstance(c, SomeInstance) for c in ob.theorem)
    v = smt.prove(theorem2.TIGHT1)  # the universal reading is false: z3 refutes it
    assert v.status is Status.REFUTED
    assert validated(ob, v).status is Status.UNKNOWN


def test_a_bracket_proves_the_existence_and_one_on_the_wrong_side_refutes_nothing():
    """The root bracket at n = 256, as the bisection finds it, is an instance: the theorem (a bracket
    exists) is proved. A bracket above the root (ρ(n, lo) > 1), as a broken bisection would give, is
    no instance — unknown, and never a refutation of the statement (it was refuted when the theorem
    was declared as the claim for every lo < hi)."""
    from checker.claims import some_instance

    claim = threshold.ROOT_BRACKETS[256]
    lo, hi = threshold.root_bracket(256)
    good = interval.check_instance(claim, {"lo": lo, "hi": hi}, "the bisection")
    assert good.status is Status.PROVED
    ob = dataclasses.replace(discover("obligations").by_id("rmt_jacobian.mask_threshold_corrected"),
                             theorem=(some_instance(claim),))
    assert validated(ob, good).status is Status.PROVED
    wrong = interval.check_instance(claim, {"lo": hi + 1, "hi": hi + 2}, "a broken bisection")
    assert wrong.status is Status.UNKNOWN
    forged = interval.prove_on(claim, {"lo": hi + 1, "hi": hi + 2})  # the point refutes the universal reading
    assert forged.status is Status.REFUTED and validated(ob, forged).status is Status.UNKNOWN


def test_the_three_layer_theorem2_holds_at_width_one_and_needs_each_norm():
    """theorem2_matrices' declared theorem: z3 proves each perturbed layer's claim at width 1, and the
    layer-1 bound without the factor ‖W₂‖ is refuted there (so the claim is not vacuous)."""
    from checker.claims import sized_claim

    one = dict(n=1, k2=1, k1=1, m=1)
    for c in theorem2.THEOREM2_THREE.values():
        assert smt.prove(c.at(**one), _ctx("t")).status is Status.PROVED, c.name
    good = theorem2.THEOREM2_THREE[1]
    bad = sized_claim("theorem2-three-layers-layer1-without-w2", theorem2.THREE_SIZES, theorem2._ARRAYS + " D[k1,m]",
                      lambda o, v: o.le(theorem2._three_dev(1)(o, v), (v.w3 * v.d) ** 2 * o.sumsq(v.s)),
                      {h.name: h.formula for h in good.hypotheses}, scalars="w2:real[0,] w3:real[0,] d:real[0,]")
    assert smt.prove(bad.at(**one), _ctx("t")).status is Status.REFUTED


def test_the_matrix_evidence_evaluates_the_declared_theorem(monkeypatch):
    """theorem2_matrices samples its declared claims themselves: the layer-2 bound edited to half is refuted
    at an instance that re-checks exactly against the edited claim (s and b₁ of rational length), and the
    true claims stay supported."""
    from checker.claims import sized_claim

    ob = next(o for o in _ours() if o.id == "controller_bound.theorem2_matrices")
    good = theorem2.THEOREM2_THREE[2]
    halved = sized_claim(good.name, theorem2.THREE_SIZES, theorem2._ARRAYS + " D[k2,k1]",
                         lambda o, v: o.le(theorem2._three_dev(2)(o, v), (v.w3 * v.d * (v.w1 * v.ns + v.nb1)) ** 2 / 4),
                         {h.name: h.formula for h in good.hypotheses},
                         {t.name: t.formula for t in good.terms},
                         scalars="w1:real[0,] w3:real[0,] d:real[0,] ns:real[0,] nb1:real[0,]")
    monkeypatch.setitem(theorem2.THEOREM2_THREE, 2, halved)
    edited = dataclasses.replace(ob, theorem=tuple(theorem2.THEOREM2_THREE.values()))
    v = validated(edited, theorem2.theorem2_matrices(_ctx(ob.id)))
    assert v.status is Status.REFUTED, v.certificate.reason
    monkeypatch.setitem(theorem2.THEOREM2_THREE, 2, good)
    assert validated(ob, theorem2.theorem2_matrices(_ctx(ob.id))).status is Status.SUPPORTED
