"""A claim is written once and read by every backend: a claim whose code gives z3 another formula than
exact arithmetic (a piecewise form for z3, a function at rational points) is caught before a z3 proof
of it is accepted."""

from __future__ import annotations

from fractions import Fraction

from checker.audit import readings
from checker.backends import smt
from checker.claims import claim
from checker.kernel.model import Certificate, Expect, Obligation, Source, Status
from checker.run.runner import validated


def _accuracy(shift: Fraction):
    """A(d) ≤ 1 for a step A from 0 to 2: at 1/4 as z3 reads it, at 1/4 + ``shift`` in exact rationals."""
    def a(o, x):
        if isinstance(x, (int, Fraction)):
            return Fraction(0) if x <= Fraction(1, 4) + shift else Fraction(2)
        return o.ite(o.le(x, Fraction(1, 4)), 0, 2)
    return claim("step-at-most-one-up-to", "d", lambda o, v: o.le(a(o, v.d), 1),
                 hypotheses={"0 < d ≤ 1": lambda o, v: o.and_(o.gt(v.d, 0), o.le(v.d, 1))})


def _split(value_after: int):
    """z3 reads ite(d ≤ 1/4, 0, 1) ≤ 1 (true); exact arithmetic reads ``value_after`` beyond 1/4."""
    def a(o, x):
        if isinstance(x, (int, Fraction)):
            return Fraction(0) if x <= Fraction(1, 4) else Fraction(value_after)
        return o.ite(o.le(x, Fraction(1, 4)), 0, 1)
    return claim("step-at-most-one", "d", lambda o, v: o.le(a(o, v.d), 1),
                 hypotheses={"0 < d ≤ 1": lambda o, v: o.and_(o.gt(v.d, 0), o.le(v.d, 1))})


def _ob(c) -> Obligation:
    return Obligation(id="t.readings", source=Source("test", "test"), statement="A(d) ≤ 1", scope="test",
                      expect=Expect.HOLDS, discharge=lambda ctx: None, theorem=(c,))


def test_a_z3_proof_of_a_claim_whose_readings_split_is_an_error_naming_the_point():
    c = _split(2)
    proof = smt.prove(c)
    assert proof.status is Status.PROVED  # z3 proved its own reading
    checked = validated(_ob(c), proof)
    assert checked.status is Status.ERROR
    assert "reads differently in z3 and in exact rationals" in checked.certificate.reason
    assert "false as z3 reads it" not in checked.certificate.reason and "true as z3 reads it" in checked.certificate.reason


def test_agreeing_readings_keep_the_proof():
    c = _split(1)
    assert readings.disagreement(c) is None
    assert validated(_ob(c), smt.prove(c)).status is Status.PROVED


def test_a_breakpoint_moved_in_one_reading_is_found_beside_the_claims_constants():
    """The readings differ on (1/4, 1/4 + 1/100] only: a point just beside the constant 1/4 shows it."""
    assert readings.disagreement(_accuracy(Fraction(1, 100))) is not None
    assert readings.disagreement(_accuracy(Fraction(0))) is None


def test_points_are_the_same_on_every_run_and_inside_the_domains():
    from checker.claims import integer

    c = claim("n-bounded", "n x", lambda o, v: o.le(v.x * 0, v.n), domains={"n": integer(2, 5)})
    first, again = readings.sample_points(c), readings.sample_points(c)
    assert first == again and first
    assert all(Fraction(2) <= p["n"] <= 5 and p["n"].denominator == 1 for p in first)


def test_a_proof_not_resting_on_z3_is_not_asked():
    from checker.backends import exact

    c = _split(2)
    v = exact.prove_at(c, [{"d": Fraction(1, 8)}])  # true at 1/8 in exact rationals: an instances proof
    assert v.status is Status.PROVED
    assert validated(_ob(c), v).certificate.reason is None or "reads differently" not in (validated(_ob(c), v).certificate.reason or "")


def test_a_refuted_existence_whose_readings_split_is_an_error():
    """'Some d has A(d) ≤ −1' read by z3 with A ≥ 0 (no instance: refuted through the kernel) while the
    exact reading has A(1/2) = −2: the refutation would be of another statement."""
    from checker.kernel.existence import some_instance

    def a(o, x):
        if isinstance(x, (int, Fraction)):
            return Fraction(-2) if x > Fraction(1, 4) else Fraction(0)
        return o.ite(o.le(x, Fraction(1, 4)), 0, 2)
    c = claim("reaches-minus-one", "d", lambda o, v: o.le(a(o, v.d), -1),
              hypotheses={"0 < d ≤ 1": lambda o, v: o.and_(o.gt(v.d, 0), o.le(v.d, 1))})
    theorem = some_instance(c)
    ob = Obligation(id="t.readings-exists", source=Source("t", "t"), statement="some d", scope="t",
                    expect=Expect.HOLDS, discharge=lambda ctx: None, theorem=(theorem,))
    refutation = smt.find_instance(c)
    assert refutation.status is Status.REFUTED
    checked = validated(ob, refutation)
    assert checked.status is Status.ERROR and "reads differently" in checked.certificate.reason


def test_a_sized_theorem_is_compared_at_its_smallest_sizes():
    """Σx ≥ 1 in exact rationals, Σx ≥ 0 as z3 reads it (x ≥ 0): caught at n = 1, x = 0."""
    from checker.claims import sized_claim

    def lower(total):
        return 1 if isinstance(total, (int, Fraction)) else 0
    c = sized_claim("sum-at-least", "n:nat[1,]", "x[n]",
                    lambda o, v: o.ge(o.sum(v.x), lower(o.sum(v.x))),
                    hypotheses={"x ≥ 0": lambda o, v: o.all(o.ge(v.x, 0))})
    assert any(readings.disagreement(at) for at in readings.theorem_claims((c,)))


def test_a_breakpoint_only_the_exact_reading_has_is_found_among_large_values():
    """x ≤ 100 in exact rationals, x ≤ x + 1 as z3 reads it: 1000 is among the points."""
    def cap(o, x):
        return Fraction(100) if isinstance(x, (int, Fraction)) else x + 1
    c = claim("capped", "x", lambda o, v: o.le(v.x, cap(o, v.x)))
    assert readings.disagreement(c) is not None
