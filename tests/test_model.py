"""The core model: the outcome table, JSON round-trips, verdict validation, seeds."""

from __future__ import annotations

import json

import pytest

from checker.kernel.model import (
    Certificate,
    Grade,
    Context,
    Expect,
    Limits,
    Outcome,
    Result,
    Source,
    Status,
    Step,
    Verdict,
    derive_seed,
    grade_label,
    weakest,
    outcome_of,
)
from tests import strategies as S

P, R, S_, U, T, E = Status.PROVED, Status.REFUTED, Status.SUPPORTED, Status.UNKNOWN, Status.TIMEOUT, Status.ERROR
C, X, EV, O, B = Outcome.CONFIRMED, Outcome.CONTRADICTED, Outcome.EVIDENCE, Outcome.OPEN, Outcome.BROKEN

# The table of checker/kernel/model.py's Outcome docstring (and DESIGN.md), written out in full.
TABLE = {
    Expect.HOLDS: {P: C, R: X, S_: EV, U: O, T: O, E: B},
    Expect.FAILS: {P: X, R: C, S_: EV, U: O, T: O, E: B},
    Expect.OPEN: {P: C, R: C, S_: EV, U: O, T: O, E: B},
}


def test_table_covers_every_pair():
    """The expected table names every (Expect, Status) pair, so a new member breaks this test."""
    assert set(TABLE) == set(Expect)
    assert all(set(row) == set(Status) for row in TABLE.values())


@pytest.mark.parametrize("expect, status", [(e, s) for e in Expect for s in Status],
                         ids=[f"{e.value}-{s.value}" for e in Expect for s in Status])
def test_outcome_of_matches_the_documented_table(expect, status):
    """outcome_of(expect, status) is the documented outcome, for every pair."""
    assert outcome_of(expect, status) is TABLE[expect][status]


def _result(**overrides) -> Result:
    step = Step("smt", "z3 4.x", "check ¬(c)", "sat", 0.25, {"timeout_ms": 1000, "lemmas": ["a"]})
    check = Step("exact", "fractions", "evaluate c", "counterexample", 0.000125, {"conclusion": False})
    fields = dict(
        id="doc.claim", source=Source("doc.txt", "Corollary 1"), statement="S.", scope="universally over ℝ",
        expect=Expect.FAILS, status=Status.REFUTED,
        certificate=Certificate("z3 model re-checked", (step, check), {"x": "-3/2", "y": "201"},
                                {"lhs": "201", "rhs": "101"}, None, {"claim": "c", "nested": {"k": [1, 2.5, None]}}),
        time_s=1.5, lean=("Doc.corollary1",), uses=("doc.lemma",), hypotheses=("c.h",), seed=12345,
        limits=Limits(30.0, 2048),
    )
    fields.update(overrides)
    return Result(**fields)


def test_result_json_round_trips_exactly():
    """A refuted result with witness, sides, steps and limits reads back equal, also through a
    JSON text; an unknown one without witness or limits too."""
    for r in (_result(), _result(status=Status.UNKNOWN, limits=None, seed=None,
                                 certificate=Certificate("m", reason="why"))):
        assert Result.from_json(r.to_json()) == r
        assert Result.from_json(json.loads(json.dumps(r.to_json()))) == r
        assert r.to_json()["outcome"] == r.outcome.value


@S.given(S.results())
@S.examples(60)
def test_any_result_round_trips_through_json_text(r):
    """Every result (any status, expectation, certificate, at the JSON's microsecond time
    resolution) survives to_json → json text → from_json unchanged."""
    assert Result.from_json(json.loads(json.dumps(r.to_json()))) == r


@S.given(S.floats(0, 1e4))
@S.examples(30)
def test_times_are_kept_to_the_microsecond_and_reading_is_stable(t):
    """to_json keeps six decimals of a duration; a result read back once is then a fixed point."""
    once = Result.from_json(_result(time_s=t).to_json())
    assert abs(once.time_s - t) <= 5e-7 + 1e-12 * t
    assert Result.from_json(once.to_json()) == once


def test_verdict_rejects_non_status_and_non_certificate():
    """A Verdict needs a Status and a Certificate: strings or dicts are a TypeError."""
    with pytest.raises(TypeError, match="Status"):
        Verdict("proved", Certificate("m"))
    with pytest.raises(TypeError, match="Certificate"):
        Verdict(Status.PROVED, {"method": "m"})
    assert Verdict(Status.PROVED, Certificate("m", grade=Grade.UNIVERSAL)).status is Status.PROVED


def test_a_proof_must_say_what_it_covers():
    """A proved verdict without a grade is rejected; bounded and instance grades must name their
    sizes or points; only proofs carry a grade."""
    with pytest.raises(ValueError, match="grade"):
        Verdict(Status.PROVED, Certificate("m"))
    with pytest.raises(ValueError, match="over"):
        Certificate("m", grade=Grade.BOUNDED)
    with pytest.raises(ValueError, match="only a proved verdict"):
        Verdict(Status.SUPPORTED, Certificate("m", grade=Grade.UNIVERSAL))
    assert weakest([Grade.UNIVERSAL, Grade.INSTANCES, Grade.BOUNDED]) is Grade.INSTANCES
    assert grade_label(Grade.BOUNDED, "K = 2…6") == "(K = 2…6)"
    assert grade_label(Grade.INSTANCES, "1 point") == "at 1 point"
    assert grade_label(Grade.UNIVERSAL, "") == "∀"


def test_records_are_frozen():
    """Results, certificates and steps cannot be changed after the fact."""
    r = _result()
    with pytest.raises(AttributeError):
        r.status = Status.PROVED
    with pytest.raises(AttributeError):
        r.certificate.method = "other"


def test_derive_seed_is_stable_and_purpose_dependent():
    """derive_seed is a fixed function (same value on every machine and run), 63-bit, and
    depends on both the base and the purpose."""
    assert derive_seed(0, "default") == derive_seed(0, "default") == derive_seed("0", "default")
    assert derive_seed(0, "a") != derive_seed(0, "b") != derive_seed(1, "b")
    assert 0 <= derive_seed(2**70, "x") < 2**63
    assert derive_seed(0, "default") == 1557180868547765336  # sha256("0/default"), first 8 bytes >> 1


def test_context_streams_are_reproducible_and_independent():
    """ctx.rng(purpose) gives the same stream for the same seed and purpose, another stream for
    another purpose or seed; py_random likewise."""
    a, b = Context("x", 1, 1.0), Context("y", 1, 9.0)
    assert a.rng("p").random(4).tolist() == b.rng("p").random(4).tolist()
    assert a.rng("p").random(4).tolist() != a.rng("q").random(4).tolist()
    assert a.rng("p").random(4).tolist() != Context("x", 2, 1.0).rng("p").random(4).tolist()
    assert a.py_random("p").random() == b.py_random("p").random() != a.py_random("q").random()


def test_smt_timeout_is_below_the_hard_limit_with_a_floor():
    """The soft solver limit is 80% of the wall-clock limit, and at least one second."""
    assert Context("x", 0, 10.0).smt_timeout_ms == 8000
    assert Context("x", 0, 0.5).smt_timeout_ms == 1000


def test_obligation_lists_its_claims_hypotheses():
    """An obligation's hypotheses are its claims' hypothesis names, qualified by claim."""
    from checker.kernel.model import Obligation
    from tests.backends.corpus import PRODUCT_POSITIVE, RELU_HOMOGENEOUS

    ob = Obligation("a.b", Source("f", "l"), "S.", "scope", Expect.HOLDS, lambda ctx: None,
                    claims=(PRODUCT_POSITIVE, RELU_HOMOGENEOUS))
    assert ob.hypotheses == ("product-positive.x>0", "product-positive.y>0", "relu-positively-homogeneous.t>=0")
