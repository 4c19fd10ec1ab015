"""The induction rule (checker.backends.induction): lemmas in a base case at size 0."""

from __future__ import annotations

from checker.backends import induction
from checker.claims import sized_claim
from checker.kernel.model import Grade, Status

NONNEG_SUM = sized_claim("nonneg-sum", "q:nat[0,]", "x[q]", lambda o, v: o.ge(o.sum(v.x), 0),
                         {"x ≥ 0": lambda o, v: o.all(o.ge(v.x, 0))})


def _two_sizes(strict: bool):
    cmp = (lambda o, a, b: o.gt(a, b)) if strict else (lambda o, a, b: o.ge(a, b))
    return sized_claim("two-sizes", "p:nat[0,] q:nat[0,]", "a[p] x[q]", lambda o, v: cmp(o, o.sum(v.a) + o.sum(v.x), 0),
                       {"a ≥ 0": lambda o, v: o.all(o.ge(v.a, 0)), "x ≥ 0": lambda o, v: o.all(o.ge(v.x, 0))})


def _use():
    lemma = induction.prove(NONNEG_SUM, "q")
    assert lemma.status is Status.PROVED
    return induction.Use(NONNEG_SUM, lemma, {"x": lambda s: s.x})


def test_a_lemma_over_another_size_is_used_in_a_base_case_at_size_zero():
    """At p = 0 the base has no new entry, yet Σx ≥ 0 (an aggregate over q, opaque to the induction
    on p) is needed: the lemma, whose binding reads no new entry, is instantiated there too."""
    v = induction.prove(_two_sizes(False), "p", uses=[_use()])
    assert v.status is Status.PROVED, v.certificate.reason
    assert v.fact.grade is Grade.UNIVERSAL


def test_without_the_lemma_or_for_a_false_claim_the_base_is_not_proved():
    assert induction.prove(_two_sizes(False), "p").status is Status.UNKNOWN
    strict = induction.prove(_two_sizes(True), "p", uses=[_use()])  # false at a = x = 0
    assert strict.status is Status.UNKNOWN and "base" in strict.certificate.reason


def test_a_binding_that_reads_the_new_entry_is_skipped_where_there_is_none():
    """A lemma bound to s.new(...) has no instance in a base case at size 0 (nothing to read), and
    the proof still goes through: the step uses it."""
    from checker.backends import smt
    from checker.claims import claim

    square = claim("square-nonneg", "t", lambda o, v: o.ge(v.t * v.t, 0))
    sized = sized_claim("sumsq-nonneg-from-zero", "n:nat[0,]", "x[n]", lambda o, v: o.ge(o.sumsq(v.x), 0))
    v = induction.prove(sized, "n", uses=[induction.Use(square, smt.prove(square), {"t": lambda s: s.new("x")})])
    assert v.status is Status.PROVED, v.certificate.reason
