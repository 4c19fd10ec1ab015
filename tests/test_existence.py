"""Theorems that say constants exist ("there is an L such that …"): printed with ∃, refuted only by a
witness family the kernel checks for every choice of the constants, never by one point."""

from __future__ import annotations

from fractions import Fraction

import pytest

from checker.backends import exact, smt
from checker.claims import claim, exists, real
from checker.kernel import proof as kernel
from checker.kernel.existence import family_claim
from checker.kernel.model import Certificate, Expect, Obligation, Source, Status, Verdict
from checker.kernel.printing import print_claim


def bounded_theorem(hi: int | None = None):
    """∃ C ≥ 0. ∀ x (∈ [0, hi] when given). x ≤ C: false over ℝ, true on a bounded interval."""
    body = claim("x-below-C", "C x", lambda o, v: o.le(v.x, v.C),
                 domains={"x": real(0, hi)} if hi is not None else None)
    return exists("some-C-bounds-x", "C", body, where={"C ≥ 0": lambda o, v: o.ge(v.C, 0)})


BEYOND = {"x": lambda o, v: v.C + 1}


def _ob(theorem) -> Obligation:
    return Obligation(id="t.exists", source=Source("test", "test"), statement="there is a C with x ≤ C",
                      scope="test", expect=Expect.FAILS, discharge=lambda ctx: None, theorem=(theorem,))


def _validated(theorem, verdict):
    from checker.run.runner import validated

    return validated(_ob(theorem), verdict)


def test_an_existence_prints_with_its_quantifier_first():
    text = print_claim(bounded_theorem()).statement_text()
    assert text.startswith("∃ C. C ≥ 0 ∧ (∀ x.") and text.endswith("x ≤ C)")
    assert bounded_theorem().subject != bounded_theorem(1).subject


def test_a_family_for_every_choice_refutes_the_existence():
    theorem = bounded_theorem()
    v = smt.refute_existence(theorem, BEYOND, at={"C": 5})
    assert v.status is Status.REFUTED and v.certificate.witness == {"C": "5", "x": "6"}
    assert theorem.refutation_subject in v.fact.subjects
    checked = _validated(theorem, v)
    assert checked.status is Status.REFUTED
    assert any(e["kind"] == "rule" for e in checked.certificate.ledger)


def test_a_family_that_fails_somewhere_is_unknown_never_refuted():
    """On x ∈ [0, 1] the theorem is true (C = 1): the family C + 1 leaves the domain, so z3 finds
    constants where it fails — a failed proof step."""
    theorem = bounded_theorem(1)
    v = smt.refute_existence(theorem, BEYOND, at={"C": 5})
    assert v.status is Status.UNKNOWN and "does not defeat" in v.certificate.reason


def test_one_point_does_not_refute_an_existence():
    """The witness (C = 5, x = 6) violates the body at C = 5, but says nothing of C = 7."""
    theorem = bounded_theorem()
    by_hand = Verdict(Status.REFUTED, Certificate(method="by hand", witness={"C": "5", "x": "6"}, sides={}))
    checked = _validated(theorem, by_hand)
    assert checked.status is Status.UNKNOWN and "a witness at one choice" in checked.certificate.reason


def test_the_kernel_rule_refuses_a_proof_of_another_family_or_at_some_choices_only():
    theorem = bounded_theorem()
    other = smt.prove(family_claim(theorem, {"x": lambda o, v: v.C + 2}))
    assert other.status is Status.PROVED
    with pytest.raises(kernel.KernelError, match="not the declared theorem"):
        kernel.refute_existence(theorem, BEYOND, other.fact)
    wanted = family_claim(theorem, BEYOND)
    at_points = exact.prove_at(wanted, [{"C": 0}, {"C": 3}])
    assert at_points.status is Status.PROVED
    with pytest.raises(kernel.KernelError, match="not for every choice"):
        kernel.refute_existence(theorem, BEYOND, at_points.fact)


def test_the_family_must_name_every_universal_variable_and_use_exact_constants():
    theorem = bounded_theorem()
    with pytest.raises(ValueError, match="missing x"):
        family_claim(theorem, {})
    from checker.kernel.claims import ClaimMisuse

    with pytest.raises(ClaimMisuse, match="float"):
        family_claim(theorem, {"x": lambda o, v: v.C + 0.1})


def test_a_witness_outside_the_constants_conditions_does_not_recheck():
    from checker.audit.recheck import Recheck, recheck_witness

    theorem = bounded_theorem()
    assert recheck_witness([theorem], {"C": "5", "x": "6"}).verdict is Recheck.REFUTES
    assert recheck_witness([theorem], {"C": "-1", "x": "0"}).verdict is Recheck.DOES_NOT_REFUTE  # C ≥ 0 fails
    assert recheck_witness([theorem], {"C": "5", "x": "4"}).verdict is Recheck.DOES_NOT_REFUTE


def test_the_hard_pruning_refutation_rests_on_the_family_and_a_broken_family_is_unknown(monkeypatch):
    from checker.kernel.model import Context
    from obligations.psy01a import pruning

    ctx = Context("psy01a.hard_pruning_not_lipschitz", seed=1, timeout_s=60.0)
    assert pruning.hard_pruning_not_lipschitz(ctx).status is Status.REFUTED
    # the pair straddles no jump: d′ = 1/4 + min(1/4, 1/(2L)) read as 1/2 + … is past it for every L
    monkeypatch.setitem(pruning.JUMP_FAMILY, "d", lambda o, v: o.q(1, 2))
    v = pruning.hard_pruning_not_lipschitz(ctx)
    assert v.status is Status.UNKNOWN


def test_a_family_leaving_the_domain_where_the_body_is_undefined_is_unknown_not_an_error():
    """The body's conclusion is partial (defined for 0 < x ≤ 1 only); the family x = C + 1 leaves
    (0, 1] for every C ≥ 0, so z3's counterexample to the family lies where the conclusion cannot be
    evaluated: a failed proof step, unknown — never a crash."""
    def partial(x):
        if isinstance(x, Fraction) and not 0 < x <= 1:
            raise ValueError(f"{x} is outside (0, 1]")
        return x

    body = claim("partial-below-C", "C x", lambda o, v: o.le(partial(v.x), v.C),
                 hypotheses={"0 < x ≤ 1": lambda o, v: o.and_(o.gt(v.x, 0), o.le(v.x, 1))})
    theorem = exists("some-C-bounds-partial", "C", body, where={"C ≥ 0": lambda o, v: o.ge(v.C, 0)})
    v = smt.refute_existence(theorem, BEYOND, at={"C": 5})
    assert v.status is Status.UNKNOWN and "does not defeat" in v.certificate.reason


def _instance_ob(theorem, expect=Expect.HOLDS) -> Obligation:
    return Obligation(id="t.instance", source=Source("test", "test"), statement="some x attains it",
                      scope="test", expect=expect, discharge=lambda ctx: None, theorem=(theorem,))


def test_no_instance_refutes_some_instance_through_the_kernel():
    """∃ x ∈ [0, 1]. x² = 2 is false: z3's unsat of the instance query becomes the universal proof of
    'no instance', and the kernel rule its negation; a true variant is proved by its instance."""
    from checker.kernel.existence import some_instance
    from checker.run.runner import validated

    false_one = claim("square-two", "x", lambda o, v: o.eq(v.x * v.x, 2), domains={"x": real(0, 1)})
    v = smt.find_instance(false_one)
    assert v.status is Status.REFUTED and v.certificate.witness == {}
    theorem = some_instance(false_one)
    assert theorem.refutation_subject in v.fact.subjects
    checked = validated(_instance_ob(theorem), v)
    assert checked.status is Status.REFUTED, checked.certificate.reason
    assert any(e.get("detail", {}).get("refutes") == theorem.name for e in checked.certificate.ledger)

    true_one = claim("square-quarter", "x", lambda o, v: o.eq(v.x * v.x, Fraction(1, 4)), domains={"x": real(0, 1)})
    assert validated(_instance_ob(some_instance(true_one)), smt.find_instance(true_one)).status is Status.PROVED


def test_a_refutation_of_another_claim_does_not_refute_some_instance():
    """The rule refutes only the existence of the claim it was given: the negation of x² = 2 on [0, 1]
    does not refute 'some x on [0, 1] has x² = 1/4', nor does a witness-free refutation without it."""
    from checker.kernel.existence import some_instance
    from checker.run.runner import validated

    false_one = claim("square-two", "x", lambda o, v: o.eq(v.x * v.x, 2), domains={"x": real(0, 1)})
    true_one = claim("square-quarter", "x", lambda o, v: o.eq(v.x * v.x, Fraction(1, 4)), domains={"x": real(0, 1)})
    refuting_other = smt.find_instance(false_one)
    assert validated(_instance_ob(some_instance(true_one)), refuting_other).status is Status.UNKNOWN
    with pytest.raises(kernel.KernelError):
        kernel.refute_instance(some_instance(true_one), smt.prove(
            claim("no instance of square-two", "x", lambda o, v: o.not_(o.eq(v.x * v.x, 2)), domains={"x": real(0, 1)})).fact)
    bare = Verdict(Status.REFUTED, Certificate(method="by hand", witness={}))
    assert validated(_instance_ob(some_instance(false_one)), bare).status is Status.UNKNOWN


def test_one_false_part_refutes_a_conjunction_of_instances():
    """all_of keeps the refuted part's kernel negation: 'some x with x² = 2 and some x with x² = 1/4'
    (x ∈ [0, 1]) is refuted by its first part."""
    from checker.kernel.existence import some_instance
    from checker.kernel.verdicts import all_of
    from checker.run.runner import validated

    false_one = claim("square-two", "x", lambda o, v: o.eq(v.x * v.x, 2), domains={"x": real(0, 1)})
    true_one = claim("square-quarter", "x", lambda o, v: o.eq(v.x * v.x, Fraction(1, 4)), domains={"x": real(0, 1)})
    ob = Obligation(id="t.both", source=Source("test", "test"), statement="both are attained", scope="test",
                    expect=Expect.HOLDS, discharge=lambda ctx: None,
                    theorem=(some_instance(false_one), some_instance(true_one)))
    both = all_of("instances", {"two": smt.find_instance(false_one), "quarter": smt.find_instance(true_one)})
    assert validated(ob, both).status is Status.REFUTED
