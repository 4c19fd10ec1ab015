"""Psy01-A count obligations: typed integer counts; an integer failure is a refutation."""

from __future__ import annotations

from fractions import Fraction

from checker.backends import exact
from checker.kernel.model import Context, Status
from obligations.psy01a import pruning
from obligations.psy01a import reference_model as rm

CTX = Context("psy01a.survivor_count_gap", seed=1, timeout_s=60.0)


def test_count_claims_are_typed_integers():
    """N, K, K_e, K_f are integer variables of the declared claims (N ≥ 1)."""
    for c in (pruning.RETENTION, pruning.RETENTION_ZERO, pruning.SURVIVOR_BOUND, pruning.SURVIVOR_ZERO):
        counts = [x for x in c.variables if x[0] in "NK"]
        assert counts and all(c.domain(x).integral for x in counts), c.name
        assert c.domain("N").lower == 1


def test_survivor_obligation_is_proved():
    """The reconstructed survivor rule proves its bound over integer counts."""
    assert pruning.survivor_count_gap(CTX).status is Status.PROVED


def test_a_wrong_count_rule_in_the_reference_is_refuted_with_an_integer_witness(monkeypatch):
    """If the reference counted survivors with the wrong rule (⌈(1 + f)·K_e⌉ would be one; here one
    too many), the exhaustive part refutes the obligation with integer counts in its witness."""
    real = rm.nested_counts

    def wrong(n, d, f):
        ke, kf = real(n, d, f)
        return ke, kf + 1

    monkeypatch.setattr(rm, "nested_counts", wrong)
    v = pruning.survivor_count_gap(CTX)
    assert v.status is Status.REFUTED
    w = v.certificate.witness
    assert all(Fraction(w[k]).denominator == 1 for k in ("N", "Ke", "Kf"))
    assert Fraction(w["Kf"]) == rm.survivor_count(int(w["Ke"]), Fraction(w["f"])) + 1


def test_a_non_integer_count_is_not_a_counterexample():
    """The real relaxation's 'witness' K_f = 3/2 violates the integer domain: never a counterexample."""
    point = {"N": 2, "d": Fraction(1, 2), "f": Fraction(1, 4), "Ke": 1, "Kf": Fraction(3, 2)}
    assert not exact.evaluate(pruning.SURVIVOR_BOUND, point).is_counterexample
    assert not exact.confirm(pruning.SURVIVOR_BOUND, point).confirmed
