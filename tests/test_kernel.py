"""The proof kernel (checker/kernel/proof.py): each rule with a case it accepts and one it rejects,
and the runner's use of it — a proved result rests on a kernel fact about the declared theorem, and
a refutation's witness refutes the declared theorem itself."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from checker import Expect, Source, Status, obligation
from checker.backends import smt, symbolic
from checker.claims import claim
from checker.kernel import proof as kernel
from checker.kernel.model import Context, Grade
from checker.kernel.verdicts import all_of, any_of, proved, regrade, trusted
from checker.run.runner import execute

_ids = itertools.count()

RELU_LIP = claim("relu-1-lipschitz", "x y", lambda o, v: o.le(o.abs(o.relu(v.x) - o.relu(v.y)), o.abs(v.x - v.y)))
SQUARE_NONNEG = claim("square-nonneg", "x", lambda o, v: o.ge(v.x * v.x, 0))
QUARTER = claim("s(1-s) <= 1/4", "s", lambda o, v: o.le(v.s * (1 - v.s), Fraction(1, 4)))
THIRD = claim("s(1-s) <= 1/3", "s", lambda o, v: o.le(v.s * (1 - v.s), Fraction(1, 3)))
# A theorem with a hypothesis, and a lemma that is false without it.
POSITIVE_PRODUCT = claim("xy > 0", "x y", lambda o, v: o.gt(v.x * v.y, 0),
                         hypotheses={"x > 0": lambda o, v: o.gt(v.x, 0), "y > 0": lambda o, v: o.gt(v.y, 0)})
LEMMA_FALSE = claim("x + y > 1", "x y", lambda o, v: o.gt(v.x + v.y, 1))


def _run(discharge, theorem=(), claims=()):
    ob_id = f"kerneltest.case{next(_ids)}"
    fn = obligation(id=ob_id, source=Source("k.txt", "L"), statement="S.", scope="s", expect=Expect.HOLDS,
                    theorem=theorem, claims=claims, no_theorem="" if theorem else "a test case without one")(discharge)
    result, _ = execute(fn.obligation, Context(ob_id, 7, 60, False))
    return result


# ------------------------------------------------------------------ issuing facts


def test_a_backend_issues_a_fact_and_catalogue_code_cannot():
    """z3's unsat issues a fact about exactly the claim it proved; the same call from outside a
    backend is refused, so a catalogue cannot state a fact it did not compute."""
    v = smt.prove(RELU_LIP)
    assert kernel.is_fact(v.fact) and v.fact.grade is Grade.UNIVERSAL
    assert kernel.subject_of(RELU_LIP) in v.fact.subjects
    assert v.fact.ledger[0].kind == "solver" and "unsat" in v.fact.ledger[0].text
    with pytest.raises(kernel.KernelError, match="may not issue facts"):
        kernel.issue(RELU_LIP, Grade.UNIVERSAL, "", [])


def test_a_fact_cannot_be_built_or_changed_by_hand():
    """The constructor wants the kernel's seal; a fact is immutable; a look-alike is not a fact."""
    with pytest.raises(kernel.KernelError):
        kernel.Fact(object(), frozenset({"x"}), ("x",), Grade.UNIVERSAL, "", ())
    fact = smt.prove(RELU_LIP).fact
    with pytest.raises(AttributeError):
        fact.grade = Grade.INSTANCES
    forged = object.__new__(kernel.Fact)
    assert not kernel.is_fact(forged)


# ------------------------------------------------------------------ combining facts


def test_conjunction_takes_the_weakest_grade_and_a_family_bounds_it():
    a, b = smt.prove(RELU_LIP), smt.prove(SQUARE_NONNEG)
    both = all_of("both", {"a": a, "b": b}, lemmas=True)
    assert both.status is Status.PROVED and both.fact.grade is Grade.UNIVERSAL
    assert {kernel.subject_of(RELU_LIP), kernel.subject_of(SQUARE_NONNEG)} <= both.fact.subjects
    sized = all_of("sizes", {"n = 1": a, "n = 2": b}, family="n = 1…2")
    assert sized.fact.grade is Grade.BOUNDED and sized.fact.over == "n = 1…2"
    # rejecting case: a part that is not a fact makes no conjunction fact
    hand = proved("by hand", grade=Grade.UNIVERSAL)
    assert all_of("mixed", {"a": a, "hand": hand}).fact is None


def test_weakening_never_strengthens():
    fact = smt.prove(RELU_LIP).fact
    weak = kernel.weaken(fact, Grade.INSTANCES, "1 point")
    assert weak.grade is Grade.INSTANCES and weak.over == "1 point"
    assert kernel.weaken(weak, Grade.UNIVERSAL, "") is weak
    assert regrade(smt.prove(RELU_LIP), Grade.BOUNDED, "n = 3").fact.grade is Grade.BOUNDED


def test_a_lemma_instance_is_assumed_until_its_proof_is_conjoined():
    """z3 given instances of a lemma proves relative to it: the fact assumes the lemma, and the
    ledger lists it as assumed, until a proof of the lemma is conjoined."""
    goal = claim("x^2 + y^2 >= 0", "x y", lambda o, v: o.ge(v.x * v.x + v.y * v.y, 0))
    relative = smt.prove(goal, lemmas=[smt.Lemma(SQUARE_NONNEG, lambda o, v: {"x": v.x}),
                                       smt.Lemma(SQUARE_NONNEG, lambda o, v: {"x": v.y})])
    assert kernel.subject_of(SQUARE_NONNEG) in relative.fact.assumes
    assert any(e["kind"] == "assumed" for e in kernel.ledger_json(relative.fact))
    closed = all_of("closed", {"goal": relative, "lemma": smt.prove(SQUARE_NONNEG)}, lemmas=True)
    assert not closed.fact.assumes
    assert not any(e["kind"] == "assumed" for e in kernel.ledger_json(closed.fact))


def test_trusted_computation_names_its_file_and_line():
    v = trusted("count", grade=Grade.INSTANCES, over="the shipped network", what="exact count of the retained weights",
                about="the count is 13108")
    entry = v.fact.ledger[0]
    assert entry.kind == "trusted" and __file__ in entry.detail["where"]
    with pytest.raises(kernel.KernelError):
        kernel.trusted_computation("x", Grade.UNIVERSAL, "", what=" ")


def test_covers_wants_every_claim_of_the_theorem():
    both = all_of("both", {"a": smt.prove(RELU_LIP), "b": smt.prove(SQUARE_NONNEG)}, lemmas=True)
    assert kernel.covers(both.fact, (RELU_LIP,)) == (True, "")
    ok, why = kernel.covers(smt.prove(RELU_LIP).fact, (RELU_LIP, SQUARE_NONNEG))
    assert not ok and "square-nonneg" in why


# ------------------------------------------------------------------ the runner holds proofs to the kernel


def test_a_hand_built_proof_is_an_error_naming_the_missing_fact():
    def hand(ctx):
        """Types its own proof."""
        return proved("made up", grade=Grade.UNIVERSAL)

    r = _run(hand)
    assert r.status is Status.ERROR and "no kernel fact" in r.certificate.reason


def test_a_proof_of_another_claim_is_not_a_proof_of_the_theorem():
    """A sound fact about a lemma does not prove the declared theorem: unknown, naming both."""
    def other(ctx):
        """Proves a different claim."""
        return smt.prove(SQUARE_NONNEG, ctx)

    r = _run(other, theorem=RELU_LIP)
    assert r.status is Status.UNKNOWN and "not a proof of the declared theorem" in r.certificate.reason
    ok = _run(lambda ctx: smt.prove(RELU_LIP, ctx), theorem=RELU_LIP)
    assert ok.status is Status.PROVED and ok.grade is Grade.UNIVERSAL
    assert ok.certificate.ledger and ok.certificate.ledger[0]["kind"] == "solver"


def test_a_false_lemma_makes_the_proof_unknown_not_a_refutation():
    """z3 refutes the lemma x + y > 1 at a point; that point satisfies the theorem's hypotheses or not,
    but never violates xy > 0 under x, y > 0: the result is unknown, never refuted."""
    def with_lemma(ctx):
        """A proof through a false lemma."""
        return all_of("via a lemma", {"lemma": smt.prove(LEMMA_FALSE, ctx), "theorem": smt.prove(POSITIVE_PRODUCT, ctx)},
                      lemmas=True)

    r = _run(with_lemma, theorem=POSITIVE_PRODUCT, claims=(LEMMA_FALSE,))
    assert r.status is Status.UNKNOWN, r.certificate
    assert "does not refute the declared theorem" in r.certificate.reason


def test_a_witness_of_the_theorem_itself_is_a_refutation():
    false_theorem = claim("xy > 1", "x y", lambda o, v: o.gt(v.x * v.y, 1),
                          hypotheses={"x > 0": lambda o, v: o.gt(v.x, 0), "y > 0": lambda o, v: o.gt(v.y, 0)})
    r = _run(lambda ctx: smt.prove(false_theorem, ctx), theorem=false_theorem)
    assert r.status is Status.REFUTED


def test_a_false_helper_step_does_not_refute_and_another_route_proves():
    """The soft-relaxation edit 1/4 → 1/3: the helper identity 1/3 − s(1 − s) = (s − 1/2)² is false,
    which makes its route unknown ("a proof step is false"), while z3 proves the theorem directly."""
    sp = symbolic.sympy()
    s = sp.Symbol("s", real=True)

    def soft(ctx):
        """s(1 − s) ≤ 1/3, by an identity or by z3."""
        identity = symbolic.conclude("sympy", [symbolic.zero_step(sp.Rational(1, 3) - s * (1 - s) - (s - sp.Rational(1, 2))**2,
                                                                  "1/3 − s(1 − s) − (s − 1/2)²")])
        assert identity.status is Status.UNKNOWN and "a proof step is false" in identity.certificate.reason
        return any_of("identity or z3", {"identity": identity, "z3": lambda: smt.prove(THIRD, ctx)})

    r = _run(soft, theorem=THIRD)
    assert r.status is Status.PROVED and r.certificate.data["route"] == "z3"


def test_a_float_constant_in_a_claim_is_a_declaration_error():
    """A float literal is refused when the claim is built; a float that reaches the claim through a
    variable (a computed constant) and is not its own decimal is the obligation's declaration error,
    naming Fraction('0.1'); an exact binary value such as 0.5 is accepted."""
    from checker.kernel.errors import CheckerError

    with pytest.raises(CheckerError, match="0.1"):
        claim("literal", "x", lambda o, v: o.le(0.1 * o.abs(v.x), o.abs(v.x)))
    a, b, c = 0.1, 0.2, 0.3
    floaty = claim("floaty", "x", lambda o, v: o.le(a * o.abs(v.x) + b * o.abs(v.x), c * o.abs(v.x)))
    r = _run(lambda ctx: smt.prove(floaty, ctx), theorem=floaty)
    assert r.status is Status.ERROR and ("Fraction('0.1')" in r.certificate.reason or "o.q(1, 10)" in r.certificate.reason)
    half = 0.5
    exact = claim("halves", "x", lambda o, v: o.le(half * o.abs(v.x), o.abs(v.x)))
    assert _run(lambda ctx: smt.prove(exact, ctx), theorem=exact).status is Status.PROVED


# ------------------------------------------------------------------ exact rules: stated points, finite domains

from checker.backends import exact  # noqa: E402

# "At d = 1/5 the retained counts of an N-entry matrix are ⌈N/5⌉": stated values checked exactly.
RETAINED = claim("retained count at 20 %", "N:nat[1,] K:int", lambda o, v: o.eq(v.K, o.ceil(v.N / 5)))


def test_stated_counts_are_proved_at_their_points_and_an_off_by_one_count_is_refuted():
    """13108 = ⌈65536/5⌉ is proved at its point; the edit to 13107 is refuted, with the stated count
    as the witness — a computed value that contradicts the statement decides it."""
    ok = _run(lambda ctx: exact.prove_at(RETAINED, [{"N": 65536, "K": 13108}, {"N": 10, "K": 2}]), theorem=RETAINED)
    assert ok.status is Status.PROVED and ok.grade is Grade.INSTANCES and ok.grade_over == "2 points"
    bad = _run(lambda ctx: exact.prove_at(RETAINED, [{"N": 65536, "K": 13107}]), theorem=RETAINED)
    assert bad.status is Status.REFUTED and bad.certificate.witness == {"N": "65536", "K": "13107"}


def test_a_finite_domain_enumerated_whole_is_universal_and_a_failing_point_refutes():
    small = claim("n(n+1) is even", "n:int[0,50]", lambda o, v: o.eq(o.floor(v.n * (v.n + 1) / 2) * 2, v.n * (v.n + 1)))
    r = _run(lambda ctx: exact.enumerate_domain(small), theorem=small)
    assert r.status is Status.PROVED and r.grade is Grade.UNIVERSAL
    wrong = claim("n^2 < 2000", "n:int[0,50]", lambda o, v: o.lt(v.n * v.n, 2000))
    w = _run(lambda ctx: exact.enumerate_domain(wrong), theorem=wrong)
    assert w.status is Status.REFUTED and w.certificate.witness == {"n": "45"}
    unbounded = claim("n >= 0", "n:nat", lambda o, v: o.ge(v.n, 0))
    assert exact.enumerate_domain(unbounded).status is Status.UNKNOWN


def test_an_asymptotic_theorem_is_refuted_by_its_computed_limit_and_never_proved_when_false():
    """A declared limit theorem: the true one is proved; a false one (ratio → 1/√2, not 1) is refuted
    with the computed limit, re-checked against the declared theorem by recomputing it."""
    sp = symbolic.sympy()
    n = sp.Symbol("n", positive=True)
    true = symbolic.limit_claim("n/(n+1) → 1", lambda: (n / (n + 1), n, sp.oo, 1))
    false = symbolic.limit_claim("n/(√2 n + 1) → 1", lambda: (n / (sp.sqrt(2) * n + 1), n, sp.oo, 1))
    assert _run(lambda ctx: symbolic.decide(true, "sympy limit"), theorem=true).status is Status.PROVED
    r = _run(lambda ctx: symbolic.decide(false, "sympy limit"), theorem=false)
    assert r.status is Status.REFUTED and r.certificate.witness == {"computed": "sqrt(2)/2"}
    # the same false limit as a step of a proof of another theorem is not a refutation of that theorem
    other = _run(lambda ctx: all_of("mixed", {"limit": symbolic.decide(false, "sympy"), "z3": smt.prove(RELU_LIP, ctx)}),
                 theorem=RELU_LIP)
    assert other.status is Status.UNKNOWN


# ------------------------------------------------------------------ which hypotheses the proof needs

SQUARE_GIVEN_POSITIVE = claim("x^2 >= 0 given x > 0", "x", lambda o, v: o.ge(v.x * v.x, 0),
                              hypotheses={"x > 0": lambda o, v: o.gt(v.x, 0)})


def _notes(result, kind):
    return [e for e in result.certificate.ledger if e.get("kind") == kind]


def test_a_hypothesis_no_proof_needs_is_flagged_in_the_ledger_and_a_needed_one_named_with_its_point():
    flagged = _run(lambda ctx: smt.prove(SQUARE_GIVEN_POSITIVE, ctx), theorem=SQUARE_GIVEN_POSITIVE)
    assert flagged.status is Status.PROVED
    assert [e["detail"]["hypothesis"] for e in _notes(flagged, "unused")] == ["x > 0"]
    assert "not used" in _notes(flagged, "unused")[0]["text"]
    needed = _run(lambda ctx: smt.prove(POSITIVE_PRODUCT, ctx), theorem=POSITIVE_PRODUCT)
    assert needed.status is Status.PROVED and not _notes(needed, "unused")
    assert sorted(e["detail"]["hypothesis"] for e in _notes(needed, "needed")) == ["x > 0", "y > 0"]
    for e in _notes(needed, "needed"):  # each point violates its hypothesis and the conclusion, exactly
        point = {k: Fraction(v) for k, v in e["detail"]["witness"].items()}
        assert point["x"] * point["y"] <= 0


def test_dropping_a_needed_hypothesis_from_the_theorem_is_reported_not_proved():
    """The statement loses 'y > 0': the old proof is not a proof of it (unknown, naming both), and z3
    on the edited theorem itself refutes it."""
    dropped = POSITIVE_PRODUCT.without("y > 0")
    old_proof = _run(lambda ctx: smt.prove(POSITIVE_PRODUCT, ctx), theorem=dropped)
    assert old_proof.status is Status.UNKNOWN and "not a proof of the declared theorem" in old_proof.certificate.reason
    direct = _run(lambda ctx: smt.prove(dropped, ctx), theorem=dropped)
    assert direct.status is Status.REFUTED


def test_a_statement_leads_with_its_printed_theorem_and_a_long_formula_is_cut():
    from checker.kernel.model import STATED_FORMULA_CHARS, stated

    r = _run(lambda ctx: smt.prove(RELU_LIP, ctx), theorem=RELU_LIP)
    assert r.theorem and r.stated.startswith("∀ x y. |relu(x) − relu(y)| ≤ |x − y|") and r.stated.endswith(" — S.")
    assert _run(lambda ctx: smt.prove(RELU_LIP, ctx)).stated == "S."  # no theorem: the prose alone
    long = "x" * (3 * STATED_FORMULA_CHARS)
    assert len(stated("prose", [long])) < STATED_FORMULA_CHARS + 20 and stated("prose", [long], None).startswith(long)
