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


def test_a_binding_builds_an_expression_with_the_claims_ops():
    """s.o lets a lemma be bound to an expression (here ReLU of a matrix–vector product), which
    then names the same aggregates as the claim's parts: ‖relu(u)‖² ≤ ‖u‖² at u = relu(Bx) and at
    u = Bx, and ‖Bx‖² ≤ ‖B‖_F²‖x‖², close ‖relu(relu(Bx))‖² ≤ ‖B‖_F²‖x‖²; without the lemma at
    relu(Bx) (or for a false bound) the proof is unknown."""
    from checker.backends import library

    relu_norm = sized_claim("relu-shrinks", "n:nat[0,]", "u[n]", lambda o, v: o.le(o.sumsq(o.relu(v.u)), o.sumsq(v.u)))
    lemma = induction.prove(relu_norm, "n")
    assert lemma.status is Status.PROVED

    def claim_with(factor):
        return sized_claim("relu-relu-matvec", "n:nat[1,] m:nat[1,]", "B[n,m] x[m]",
                           lambda o, v: o.le(o.sumsq(o.relu(o.relu(v.B @ v.x))), factor * o.sumsq(v.B) * o.sumsq(v.x)))

    uses = [induction.Use(relu_norm, lemma, {"u": lambda s: s.o.relu(s.B @ s.x)}),
            induction.Use(relu_norm, lemma, {"u": lambda s: s.B @ s.x}),
            library.use("matvec_frobenius", A=lambda s: s.B, x=lambda s: s.x)]
    true = lambda o, v: o.and_()  # noqa: E731  (no invariant: the lemmas close it)
    proved = induction.prove(claim_with(1), "n", uses=uses, invariant=true)
    assert proved.status is Status.PROVED, proved.certificate.reason
    assert induction.prove(claim_with(1), "n", uses=uses[1:], invariant=true).status is Status.UNKNOWN
    assert induction.prove(claim_with(0), "n", uses=uses, invariant=true).status is Status.UNKNOWN
