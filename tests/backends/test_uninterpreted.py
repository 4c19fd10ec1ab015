"""z3 reading erf, exp and log as uninterpreted functions, told of them only what proved lemmas say, and
the standard facts such lemmas come from (``checker/backends/standard.py``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from checker.backends import interval, smt, standard
from checker.claims import claim, exists
from checker.kernel import proof as kernel
from checker.kernel.model import Certificate, Expect, Obligation, Source, Status, Verdict
from checker.kernel.verdicts import all_of

ERF_GROWS_PAST_ONE = claim("erf-at-least-erf-1", "x", lambda o, v: o.ge(o.erf(v.x), o.erf(1)),
                           hypotheses={"x ≥ 1": lambda o, v: o.ge(v.x, 1)})
INCREASING_AT = smt.Lemma(standard.statement("erf-increasing"), lambda o, v: {"a": o.q(1), "b": v.x})


def test_z3_reads_erf_only_when_asked_and_then_proves_from_the_lemma():
    """Without ``uninterpreted`` a claim with erf is not z3's to decide; with it and the monotonicity
    lemma, z3 proves the claim, the ledger saying erf was read as an uninterpreted function and the fact
    assuming the lemma until its proof is conjoined."""
    assert smt.prove(ERF_GROWS_PAST_ONE).status is Status.UNKNOWN
    v = smt.prove(ERF_GROWS_PAST_ONE, lemmas=[INCREASING_AT], uninterpreted=("erf",))
    assert v.status is Status.PROVED
    assert "uninterpreted function" in v.fact.ledger[0].text and v.fact.ledger[0].detail["uninterpreted"] == ["erf"]
    assert v.fact.assumes  # the lemma is assumed until its proof is conjoined
    whole = all_of("test", {"claim": v, "erf increasing": standard.fact("erf-increasing")}, lemmas=True)
    assert whole.status is Status.PROVED and not whole.fact.assumes


def test_a_model_of_an_uninterpreted_function_is_no_counterexample():
    """erf(1) ≤ erf(2) is true, but with erf uninterpreted and nothing said of it z3 finds a model (an erf
    that decreases): re-checked with the true erf it violates nothing, so the claim is unknown, never
    refuted. A claim false with the true erf is refuted only through that re-check."""
    true = claim("erf-1-le-erf-2", "x", lambda o, v: o.le(o.erf(1), o.erf(2)))
    v = smt.prove(true, uninterpreted=("erf",))
    assert v.status is Status.UNKNOWN and "does not re-check" in v.certificate.reason
    false = claim("erf-2-le-erf-1", "x", lambda o, v: o.le(o.erf(2), o.erf(1)))
    w = smt.prove(false, uninterpreted=("erf",))
    assert w.status is Status.REFUTED and "rigorous intervals" in w.certificate.method


def test_only_the_transcendental_functions_can_be_uninterpreted():
    with pytest.raises(ValueError, match="sqrt"):
        smt.prove(ERF_GROWS_PAST_ONE, uninterpreted=("erf", "sqrt"))


def test_a_standard_fact_is_issued_marked_as_assumed():
    """Each listed fact is a universal kernel fact whose ledger line says it is assumed without proof,
    with what was checked of it; a name not on the list is refused."""
    for name in standard.FACTS:
        v = standard.fact(name)
        assert v.status is Status.PROVED and v.fact.grade.value == "universal"
        (entry,) = v.fact.ledger
        assert entry.kind == "standard" and "assumed without proof" in entry.text and entry.detail["fact"] == name
    with pytest.raises(KeyError, match="no standard fact"):
        standard.fact("erf-decreasing")


def test_a_mistyped_standard_fact_is_not_assumed(monkeypatch):
    """The statement is enclosed at points before it is assumed: a flipped inequality ("erf is decreasing")
    fails there; and a function whose derivative sympy does not find positive (cos) is not taken either."""
    s = standard.FACTS["erf-increasing"]
    flipped = claim("erf-increasing", "a b", lambda o, v: o.ge(o.erf(v.a), o.erf(v.b)),
                    hypotheses={"a ≤ b": lambda o, v: o.le(v.a, v.b)})
    monkeypatch.setitem(standard.FACTS, "erf-increasing", standard.Standard(flipped, s.reference, "erf", False, s.points))
    v = standard.fact("erf-increasing")
    assert v.status is Status.UNKNOWN and "does not enclose true" in v.certificate.reason
    monkeypatch.setitem(standard.FACTS, "erf-increasing", standard.Standard(s.statement, s.reference, "cos", False, s.points))
    assert standard.fact("erf-increasing").status is Status.UNKNOWN


def _threshold():
    """∃ C ∈ [0, 1/2) ∀ x ≥ 1: erf(x) ≤ C — false (erf(1) ≈ 0.843), and the family x(C) = 1 defeats every C
    once z3 may use erf(1) ≥ 0.8."""
    body = claim("erf-below-c", "C x", lambda o, v: o.le(o.erf(v.x), v.C),
                 hypotheses={"x ≥ 1": lambda o, v: o.ge(v.x, 1)})
    return exists("some-C-above-erf", "C", body, where={"0 ≤ C < 1/2": lambda o, v: o.and_(o.ge(v.C, 0), o.lt(v.C, o.q(1, 2)))})


FLOOR = claim("erf-1-at-least-0.8", "", lambda o, v: o.ge(o.erf(1), o.q(8, 10)))
AT_ONE = {"x": lambda o, v: o.q(1)}


def _ob(theorem) -> Obligation:
    return Obligation(id="t.erf", source=Source("test", "test"), statement="there is a C ≥ erf", scope="test",
                      expect=Expect.FAILS, discharge=lambda ctx: None, theorem=(theorem,))


def test_a_family_proved_from_a_lemma_refutes_only_with_the_lemmas_proof():
    """∃ C ∈ [0, 1/2) ∀ x ≥ 1: erf(x) ≤ C is refuted by x = 1 once z3 may use erf(1) ≥ 0.8: with the lemma's
    proof conjoined the kernel's negation assumes nothing and the runner accepts it; without it the
    refutation rests on an unproved lemma and is unknown, naming it; with a false "lemma" its proof fails
    and nothing is refuted."""
    from checker.run.runner import validated

    theorem = _threshold()
    lemmas = [smt.Lemma(FLOOR, lambda o, v: {})]
    proved = smt.refute_existence(theorem, AT_ONE, at={"C": Fraction(1, 4)}, lemmas=lemmas, uninterpreted=("erf",),
                                  proofs={"erf(1) ≥ 0.8": interval.prove_on(FLOOR, {})})
    assert proved.status is Status.REFUTED and not proved.fact.assumes
    assert kernel.is_fact(proved.fact) and validated(_ob(theorem), proved).status is Status.REFUTED
    bare = smt.refute_existence(theorem, AT_ONE, at={"C": Fraction(1, 4)}, lemmas=lemmas, uninterpreted=("erf",))
    assert bare.status is Status.REFUTED and bare.fact.assumes
    rejected = validated(_ob(theorem), bare)
    assert rejected.status is Status.UNKNOWN and "erf-1-at-least-0.8" in rejected.certificate.reason
    too_high = claim("erf-1-at-least-0.9", "", lambda o, v: o.ge(o.erf(1), o.q(9, 10)))  # erf(1) ≈ 0.8427
    wrong = smt.refute_existence(theorem, AT_ONE, at={"C": Fraction(1, 4)}, lemmas=[smt.Lemma(too_high, lambda o, v: {})],
                                 uninterpreted=("erf",), proofs={"erf(1) ≥ 0.9": interval.prove_on(too_high, {})})
    assert wrong.status is Status.UNKNOWN and "not proved" in wrong.certificate.reason


def test_a_hand_built_refutation_of_an_existence_with_erf_is_rejected():
    """The witness (C, x) re-checks against the body by intervals, but one choice of C says nothing of
    the others: without the kernel's family fact the runner does not take it."""
    from checker.run.runner import validated

    theorem = _threshold()
    hand = Verdict(Status.REFUTED, Certificate(method="by hand", witness={"C": "1/4", "x": "1"}, sides={}))
    assert validated(_ob(theorem), hand).status is Status.UNKNOWN
