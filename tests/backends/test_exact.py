"""The exact backend: Fraction semantics, evaluation, and the re-check every refutation passes."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from checker.backends import exact
from checker.backends.exact import OPS, evaluate, recheck_counterexample, to_fraction
from checker.claims import claim
from checker.kernel.model import Status
from tests import strategies as S
from tests.backends.corpus import CORPUS, INVALID, RELU_IDENTITY, SQUARE_POSITIVE, ids


def test_to_fraction_reads_exact_values():
    """Ints, strings, Fractions and numpy scalars become exact rationals; a float becomes
    exactly its binary value (0.1 is not 1/10)."""
    assert to_fraction(3) == 3
    assert to_fraction("-3/2") == Fraction(-3, 2)
    assert to_fraction(" 7 ") == 7
    assert to_fraction(Fraction(1, 3)) == Fraction(1, 3)
    assert to_fraction(0.1) == Fraction(3602879701896397, 2**55) != Fraction(1, 10)
    assert to_fraction(np.float64(0.5)) == Fraction(1, 2)
    assert to_fraction(np.int64(-4)) == -4


@pytest.mark.parametrize("bad, error", [(True, TypeError), (float("inf"), ValueError), (float("nan"), ValueError),
                                        (object(), TypeError)])
def test_to_fraction_rejects_non_numbers(bad, error):
    """Booleans, infinities, NaN and arbitrary objects have no exact rational value."""
    with pytest.raises(error):
        to_fraction(bad)


@S.given(S.rationals(), S.rationals())
@S.examples(60)
def test_ops_match_their_definitions(x, y):
    """relu, abs, max, min and ite over Fractions are the textbook definitions, exactly."""
    assert OPS.relu(x) == (x if x > 0 else 0)
    assert OPS.abs(x) == (x if x >= 0 else -x)
    assert OPS.max(x, y) == max(x, y) and OPS.min(x, y) == min(x, y)
    assert OPS.ite(x < y, x, y) == min(x, y)
    assert OPS.le(x, y) is (x <= y) and OPS.lt(x, y) is (x < y) and OPS.ne(x, y) is (x != y)
    assert OPS.implies(OPS.lt(x, y), OPS.le(x, y)) is True


def test_sqrt_is_exact_or_cannot_decide():
    """sqrt of a perfect rational square is exact; anything else cannot be decided here."""
    from checker.backends import CannotDecide

    assert OPS.sqrt(Fraction(9, 4)) == Fraction(3, 2)
    with pytest.raises(CannotDecide, match="irrational"):
        OPS.sqrt(2)
    with pytest.raises(CannotDecide, match="negative"):
        OPS.sqrt(-1)


def test_a_number_where_a_truth_value_belongs_is_an_error():
    """A claim whose conclusion is a number (a forgotten comparison) is rejected, not truthy."""
    sloppy = claim("sloppy", "x", lambda o, v: v.x + 1)
    with pytest.raises(TypeError, match="compare with o.le"):
        evaluate(sloppy, {"x": 1})


def test_evaluate_reports_hypotheses_conclusion_and_terms():
    """An evaluation keeps each hypothesis, the conclusion and the named terms, exactly."""
    entry = next(e for e in CORPUS if e.name == "relu-positively-homogeneous")
    ev = evaluate(entry.claim, {"t": "1/2", "x": -3, "unused": 5})
    assert ev.point == {"t": Fraction(1, 2), "x": Fraction(-3)}
    assert ev.hypotheses == {"t>=0": True} and ev.premise and ev.conclusion
    assert ev.terms == {"lhs": 0, "rhs": 0}
    assert not ev.is_counterexample and ev.is_instance


@pytest.mark.parametrize("entry", INVALID, ids=ids(INVALID))
def test_known_counterexamples_are_counterexamples(entry):
    """Every false corpus claim fails at its recorded point, checked exactly."""
    ev = evaluate(entry.claim, entry.counterexample)
    assert ev.is_counterexample
    assert ev.premise and not ev.conclusion


def test_recheck_confirms_a_real_counterexample():
    """A true counterexample is refuted, with the exact witness and sides as strings."""
    entry = next(e for e in CORPUS if e.name == "relu-half-difference-abs")
    v = recheck_counterexample(entry.claim, {"x": 0.5}, "a test")
    assert v.status is Status.REFUTED
    assert v.certificate.witness == {"x": "1/2"}
    assert v.certificate.steps[-1].backend == exact.NAME
    assert v.certificate.steps[-1].answer == "counterexample"
    assert "a test" in v.certificate.method


def test_recheck_of_a_non_counterexample_is_unknown_with_reason():
    """A candidate that is not a counterexample (as a wrong solver model would be) gives
    unknown, saying it does not re-check; it is never refuted."""
    v = recheck_counterexample(SQUARE_POSITIVE, {"x": Fraction(1, 3)}, "z3 model")
    assert v.status is Status.UNKNOWN
    assert "does not re-check" in v.certificate.reason
    assert "z3 model" in v.certificate.reason and "1/3" in v.certificate.reason
    assert v.certificate.witness is None
    assert v.certificate.steps[-1].answer == "not a counterexample"
    rounded = recheck_counterexample(SQUARE_POSITIVE, {"x": 1}, "z3 model", approximated=True)
    assert "irrational value, rounded" in rounded.certificate.reason


def test_recheck_of_a_point_failing_a_hypothesis_is_unknown():
    """A candidate outside the hypotheses is not a counterexample even if the conclusion fails."""
    entry = next(e for e in CORPUS if e.name == "product-positive")
    v = recheck_counterexample(entry.claim, {"x": -1, "y": 1}, "a test")
    assert v.status is Status.UNKNOWN and "does not re-check" in v.certificate.reason


def test_recheck_that_cannot_be_evaluated_exactly_falls_back_to_intervals():
    """An irrational intermediate value (sqrt 2) is re-checked by rigorous intervals at the exact
    point: a non-counterexample stays unknown (saying exact rationals could not evaluate it), a
    genuine one is refuted with the interval method named."""
    root = claim("sqrt-two-rational", "x", lambda o, v: o.ne(o.sqrt(v.x), 3))
    v = recheck_counterexample(root, {"x": 2}, "a test")
    assert v.status is Status.UNKNOWN and "cannot evaluate it" in v.certificate.reason
    small = claim("sqrt-below-one", "x", lambda o, v: o.lt(o.sqrt(v.x), 1))
    r = recheck_counterexample(small, {"x": 2}, "a test")
    assert r.status is Status.REFUTED and "rigorous intervals" in r.certificate.method
    undecidable = claim("exp-of-log", "x", lambda o, v: o.ne(o.exp(o.log(v.x)), v.x))
    assert recheck_counterexample(undecidable, {"x": 2}, "a test").status is Status.UNKNOWN


def test_recheck_at_a_pole_is_unknown_not_a_crash():
    """A candidate at which the claim divides by zero cannot be re-checked: unknown, not an
    exception (z3 and float sampling both propose such points)."""
    recip = claim("recip-bounded", "x", lambda o, v: o.le(1 / v.x, 10))
    v = recheck_counterexample(recip, {"x": 0}, "a test")
    assert v.status is Status.UNKNOWN


def test_check_instance_proves_existence_only_for_an_instance():
    """check_instance proves the ∃-reading at an instance and is unknown elsewhere."""
    yes = exact.check_instance(SQUARE_POSITIVE, {"x": 2}, "a test")
    assert yes.status is Status.PROVED and yes.certificate.witness == {"x": "2"}
    no = exact.check_instance(SQUARE_POSITIVE, {"x": 0}, "a test")
    assert no.status is Status.UNKNOWN and "not an instance" in no.certificate.reason


@S.given(S.rationals())
@S.examples(40)
def test_identity_holds_at_every_rational(x):
    """relu(x) = (x + |x|)/2 evaluates true at every rational (no rounding anywhere)."""
    ev = evaluate(RELU_IDENTITY, {"x": x})
    assert ev.conclusion and ev.terms["lhs"] == ev.terms["rhs"]


def test_a_refutation_names_the_conclusions_false_comparison_whatever_the_terms_show():
    """The named terms (drift 1, bound 5/4) read as if the bound held; the conclusion compares the drift with
    3/4 of it, and the certificate names that comparison: 1 ≤ 15/16 is what fails."""
    from checker.claims import claim

    c = claim("drift-three-quarters", "a b", lambda o, v: o.le(v.a, v.b * o.q(3, 4)),
              terms={"drift": lambda o, v: v.a, "bound": lambda o, v: v.b})
    v = exact.recheck_counterexample(c, {"a": 1, "b": Fraction(5, 4)}, "test")
    assert v.certificate.data["conclusion_fails"] == ["1 ≤ 15/16"]
    both = claim("both", "a", lambda o, v: o.and_(o.ge(v.a, 0), o.le(v.a, 1)))
    assert exact.recheck_counterexample(both, {"a": 2}, "test").certificate.data["conclusion_fails"] == ["2 ≤ 1"]
