"""The z3 backend on the corpus: only unsat proves, every model is re-checked, unknown is a value."""

from __future__ import annotations

from fractions import Fraction

import pytest

from checker.backends import exact, smt
from checker.claims import claim
from checker.kernel.model import Context, Status
from checker.kernel.verdicts import fmt_map
from tests.backends.corpus import AM_GM, INVALID, RELU_LIPSCHITZ, VALID, ids

CTX = Context("tests.smt", seed=11, timeout_s=20.0)

# Motzkin's polynomial is non-negative but not a sum of squares: true, so there is no model,
# and no proof within a millisecond.
MOTZKIN = claim("motzkin", "x y", lambda o, v: o.ge(v.x**4 * v.y**2 + v.x**2 * v.y**4 - 3 * v.x**2 * v.y**2 + 1, 0))


def _witness(verdict):
    return {k: Fraction(x) for k, x in verdict.certificate.witness.items()}


@pytest.mark.parametrize("entry", VALID, ids=ids(VALID))
def test_true_claims_are_proved(entry):
    """Every bench/valid claim is proved: z3 answers unsat for its negation."""
    v = smt.prove(entry.claim, CTX)
    assert v.status is Status.PROVED, v.certificate.reason
    step = v.certificate.steps[0]
    assert step.backend == smt.NAME and step.answer == "unsat" and step.version.startswith("z3 ")
    assert v.certificate.data["claim"] == entry.name


@pytest.mark.parametrize("entry", INVALID, ids=ids(INVALID))
def test_false_claims_are_refuted_with_an_exactly_rechecked_witness(entry):
    """Every bench/invalid claim is refuted (never proved), and its witness is a counterexample
    when the exact backend evaluates it independently."""
    v = smt.prove(entry.claim, CTX)
    assert v.status is not Status.PROVED
    assert v.status is Status.REFUTED, v.certificate.reason
    assert [s.backend for s in v.certificate.steps] == [smt.NAME, exact.NAME]
    assert v.certificate.steps[0].answer == "sat"
    assert set(v.certificate.witness) == set(entry.claim.variables)
    assert exact.evaluate(entry.claim, _witness(v)).is_counterexample


def test_refutation_sides_are_the_claims_terms_at_the_witness():
    """The certificate's sides are the named terms evaluated exactly at the witness."""
    half = claim("am-gm-halved-with-terms", AM_GM.variables,
                 lambda o, v: o.le(2 * v.x * v.y, (v.x * v.x + v.y * v.y) / 2),
                 terms={"lhs": lambda o, v: 2 * v.x * v.y, "rhs": lambda o, v: (v.x * v.x + v.y * v.y) / 2})
    v = smt.prove(half, CTX)
    assert v.status is Status.REFUTED
    ev = exact.evaluate(half, _witness(v))
    assert v.certificate.sides == {k: fmt_map(ev.terms)[k] for k in ("lhs", "rhs")}
    assert Fraction(v.certificate.sides["lhs"]) > Fraction(v.certificate.sides["rhs"])


def test_solver_giving_up_is_unknown_with_reason():
    """z3 answering unknown (resource limit 1 on Motzkin's polynomial: deterministic, where a
    1 ms timeout is not) is an honest unknown with z3's reason, not an error and not a proof."""
    v = smt.prove(MOTZKIN, CTX, rlimit=1)
    assert v.status is Status.UNKNOWN
    assert v.certificate.reason.startswith("z3 answered unknown")
    assert v.certificate.steps[0].answer == "unknown"
    assert v.certificate.steps[0].detail["rlimit"] == 1


def test_uninterpreted_operation_is_unknown_with_reason():
    """A claim z3 cannot take (sqrt) is unknown, naming what it cannot interpret."""
    root = claim("sqrt-monotone", "x y", lambda o, v: o.le(o.sqrt(v.x * v.x), o.sqrt(v.x * v.x + v.y * v.y)))
    v = smt.prove(root, CTX)
    assert v.status is Status.UNKNOWN and "sqrt" in v.certificate.reason


def test_irrational_model_that_does_not_recheck_is_unknown():
    """x² ≠ 2 fails only at ±√2: z3's algebraic model is rounded to a rational, which the exact
    re-check rejects, so the answer is unknown (said to be rounded), never refuted."""
    irrational = claim("square-not-two", "x", lambda o, v: o.ne(v.x * v.x, 2))
    v = smt.prove(irrational, CTX)
    assert v.status is Status.UNKNOWN
    assert "does not re-check" in v.certificate.reason and "irrational value, rounded" in v.certificate.reason
    assert [s.answer for s in v.certificate.steps] == ["sat", "not a counterexample"]


def test_find_instance_proves_existence_with_an_exact_instance():
    """∃x. x² > 0 is proved by a z3 instance that the exact backend confirms."""
    square = next(e for e in INVALID if e.name == "square-positive").claim
    v = smt.find_instance(square, CTX)
    assert v.status is Status.PROVED
    assert exact.evaluate(square, _witness(v)).is_instance


def test_find_instance_of_an_empty_claim_refutes_its_existence_only():
    """No instance (unsat): 'no instance' is proved for every x and the kernel refutes the existential
    reading, and nothing else — the refutation names no point, and the fact is about ∃ alone."""
    from checker.kernel.existence import some_instance

    empty = claim("negative-square", "x", lambda o, v: o.lt(v.x * v.x, 0))
    v = smt.find_instance(empty, CTX)
    assert v.status is Status.REFUTED and v.certificate.witness == {}
    assert v.fact.subjects == {some_instance(empty).refutation_subject}


def test_proof_from_a_proved_lemma_names_it():
    """relu is 2-Lipschitz, from the proved 1-Lipschitz lemma instantiated at the same point;
    the certificate names the lemma."""
    two = claim("relu-2-lipschitz", "x y", lambda o, v: o.le(o.abs(o.relu(v.x) - o.relu(v.y)), 2 * o.abs(v.x - v.y)))
    lemma = smt.Lemma(RELU_LIPSCHITZ, lambda o, v: {"x": v.x, "y": v.y})
    v = smt.prove(two, CTX, lemmas=[lemma])
    assert v.status is Status.PROVED
    assert v.certificate.data["lemmas"] == [RELU_LIPSCHITZ.name]
    assert "from proved lemmas" in v.certificate.method


def test_same_seed_same_answer_and_witness():
    """A fresh z3 context per call: two runs with one seed give the same answer and witness."""
    entry = INVALID[0]
    a, b = smt.prove(entry.claim, CTX), smt.prove(entry.claim, CTX)
    assert (a.status, a.certificate.witness) == (b.status, b.certificate.witness)


def test_constant_subterms_are_interpreted():
    """o.max and o.abs of plain numbers are ordinary terms in z3 too: the claim is proved."""
    const = claim("constant-subterms", "x", lambda o, v: o.le(o.max(0, 1), o.abs(-1) + o.relu(v.x)))
    assert exact.evaluate(const, {"x": 0}).conclusion
    assert smt.prove(const, CTX).status is Status.PROVED


def test_model_at_a_pole_is_unknown_not_a_crash():
    """x/x = 1 has a z3 model at x = 0 (z3's division is total); that model cannot be
    re-checked exactly, so the answer must be unknown, not an exception."""
    ratio = claim("self-ratio-one", "x", lambda o, v: o.eq(v.x / v.x, 1))
    assert smt.prove(ratio, CTX).status is Status.UNKNOWN


ABS_SPLIT = claim("abs-triangle", "x y", lambda o, v: o.le(o.abs(v.x + v.y), o.abs(v.x) + o.abs(v.y)))


@pytest.mark.parametrize("route", [dict(tactic=smt.NLSAT), dict(tactic=smt.ITE_SMT),
                                   dict(cases=lambda o, v: [v.x, v.y]),
                                   dict(tactic=smt.NLSAT, cases=lambda o, v: [v.x + v.y])])
def test_fast_route_proves_what_the_default_route_proves_and_reports_it_identically(route):
    """A tactic pipeline or a sign-pattern split reaches the same unsat, and the verdict (status,
    grade, method, claim, step answer) is the default route's."""
    default, fast = smt.prove(ABS_SPLIT, CTX), smt.prove(ABS_SPLIT, CTX, **route)
    assert default.status is fast.status is Status.PROVED
    assert fast.certificate.grade == default.certificate.grade and fast.certificate.method == default.certificate.method
    assert fast.certificate.data == default.certificate.data
    assert [(s.backend, s.answer) for s in fast.certificate.steps] == [(s.backend, s.answer) for s in default.certificate.steps]


@pytest.mark.parametrize("entry", INVALID, ids=ids(INVALID))
def test_fast_route_never_refutes_by_itself(entry):
    """A false claim given a tactic and cases is still refuted by the default route, with its
    model re-checked exactly; the fast route only ever contributes a proof."""
    v = smt.prove(entry.claim, CTX, tactic=smt.NLSAT, cases=lambda o, v: [v[n] for n in entry.claim.variables[:1]])
    assert v.status is Status.REFUTED, v.certificate.reason
    assert [s.backend for s in v.certificate.steps] == [smt.NAME, exact.NAME]
    assert exact.evaluate(entry.claim, _witness(v)).is_counterexample


def test_a_split_that_misses_a_sign_pattern_cannot_prove():
    """Every sign pattern is checked: a claim false only where x ≤ 0 is not proved by a split on x."""
    positive_only = claim("x-positive", "x", lambda o, v: o.gt(o.abs(v.x), -v.x))
    v = smt.prove(positive_only, CTX, tactic=smt.NLSAT, cases=lambda o, v: [v.x])
    assert v.status is Status.REFUTED
    assert Fraction(v.certificate.witness["x"]) <= 0


def test_an_irrational_model_is_repaired_to_a_rational_counterexample_where_one_exists():
    """s(1 − s) = 1/5 ⇔ s = 1/2 is false at s = 1/2, but z3's model is the irrational root of
    s(1 − s) = 1/5: pinning s to the claim's constants finds the rational counterexample. Where every
    counterexample is irrational (x² + y² = 3 with y = 1), nothing is refuted."""
    from fractions import Fraction

    c = claim("fifth-iff-half", "s", lambda o, v: o.eq(o.eq(v.s * (1 - v.s), o.q(1, 5)), o.eq(v.s, o.q(1, 2))))
    v = smt.prove(c, CTX)
    assert v.status is Status.REFUTED and v.certificate.witness == {"s": "1/2"}
    only_irrational = claim("root-two", "x y", lambda o, v: o.or_(o.ne(v.x * v.x + v.y * v.y, 3), o.ne(v.y, 1)))
    assert smt.prove(only_irrational, CTX).status is Status.UNKNOWN
    assert smt._convergents(Fraction(355, 113)) == [3, Fraction(22, 7), Fraction(355, 113)]
