"""Claims: written once, named parts, variables checked, hypotheses droppable."""

from __future__ import annotations

from fractions import Fraction

import pytest

from checker.backends import exact
from checker.claims import Claim, Env, Part, claim
from tests.backends.corpus import PRODUCT_POSITIVE, RELU_HOMOGENEOUS


def test_claim_builds_parts_in_order():
    """claim() splits a variable string and keeps hypotheses and terms as named parts, in order."""
    c = claim("c", "a b", lambda o, v: o.le(v.a, v.b),
              hypotheses={"h1": lambda o, v: o.ge(v.a, 0), "h2": lambda o, v: o.ge(v.b, 0)},
              terms={"t": lambda o, v: v.a + v.b})
    assert isinstance(c, Claim) and c.variables == ("a", "b")
    assert [h.name for h in c.hypotheses] == ["h1", "h2"] and all(isinstance(h, Part) for h in c.hypotheses)
    assert [t.name for t in c.terms] == ["t"]
    assert claim("d", ["x", "y"], lambda o, v: o.le(v.x, v.y)).variables == ("x", "y")


def test_a_variable_declared_twice_is_rejected():
    """Declaring a variable twice is a ValueError naming the claim."""
    with pytest.raises(ValueError, match="'twice'.*declared twice"):
        claim("twice", "x y x", lambda o, v: o.le(v.x, v.y))


def test_without_drops_exactly_one_hypothesis():
    """Claim.without drops the named hypothesis, keeps the others and the terms, and renames."""
    dropped = PRODUCT_POSITIVE.without("x>0")
    assert [h.name for h in dropped.hypotheses] == ["y>0"]
    assert dropped.name == "product-positive-without-x>0"
    assert dropped.variables == PRODUCT_POSITIVE.variables and dropped.conclusion is PRODUCT_POSITIVE.conclusion
    assert exact.evaluate(PRODUCT_POSITIVE, {"x": -1, "y": 1}).premise is False
    assert exact.evaluate(dropped, {"x": -1, "y": 1}).is_counterexample
    none_left = dropped.without("y>0")
    assert none_left.hypotheses == ()
    assert none_left.formula(exact.OPS, none_left.env({"x": Fraction(0), "y": Fraction(5)})) is False


def test_without_an_unknown_hypothesis_is_a_key_error():
    """Dropping a hypothesis the claim does not have is an error naming both."""
    with pytest.raises(KeyError, match="no hypothesis 'z>0'"):
        PRODUCT_POSITIVE.without("z>0")


def test_env_rejects_undeclared_variables_helpfully():
    """Using an undeclared variable names it and lists the declared ones."""
    typo = claim("typo", "x y", lambda o, v: o.le(v.x, v.z))
    with pytest.raises(AttributeError) as info:
        exact.evaluate(typo, {"x": 1, "y": 2})
    message = str(info.value)
    assert "'z'" in message and "does not declare" in message and "declared: x, y" in message
    with pytest.raises(AttributeError, match="declared: none"):
        Env({}).anything


def test_env_is_read_only_and_readable_by_name():
    """An Env reads by attribute or by name and cannot be assigned to."""
    v = Env({"x": 1, "s": 2})
    assert v.x == 1 and v["s"] == 2
    with pytest.raises(AttributeError, match="read-only"):
        v.x = 3


def test_env_needs_a_value_for_every_variable():
    """Evaluating without a value for a declared variable is a ValueError naming it."""
    with pytest.raises(ValueError, match="no value for y"):
        PRODUCT_POSITIVE.env({"x": 1})


def test_formula_is_the_implication_and_premise_the_conjunction():
    """formula() is premise ⇒ conclusion; premise() is the conjunction of the hypotheses; the
    hypothesis values and terms are evaluated by name."""
    v = RELU_HOMOGENEOUS.env({"t": Fraction(-1), "x": Fraction(1)})
    assert RELU_HOMOGENEOUS.premise(exact.OPS, v) is False
    assert RELU_HOMOGENEOUS.formula(exact.OPS, v) is True  # vacuous: t < 0
    assert RELU_HOMOGENEOUS.conclusion(exact.OPS, v) is False
    assert RELU_HOMOGENEOUS.hypothesis_values(exact.OPS, v) == {"t>=0": False}
    assert RELU_HOMOGENEOUS.term_values(exact.OPS, v) == {"lhs": 0, "rhs": -1}
    bare = RELU_HOMOGENEOUS.without("t>=0")
    assert bare.premise(exact.OPS, v) is True and bare.formula(exact.OPS, v) is False


@pytest.mark.parametrize("formula, says", [
    (lambda o, v: o.le(max(v.x, v.y), 1), "Python's max() compares claim terms"),
    (lambda o, v: o.le(min(v.x, v.y), 1), "write o.min(a, b, …)"),
    (lambda o, v: o.le(float(v.x), 1), "float() of a claim term"),
    (lambda o, v: o.le(round(v.x), 1), "round() of a claim term"),
    (lambda o, v: o.le(v.x, 1) if v.x > 0 else o.le(v.x, 2), "write o.ite(condition, a, b)"),
    (lambda o, v: o.le(v.x, 1) and o.le(v.y, 1), "write o.and_(…)"),
])
def test_python_builtins_on_terms_are_a_clear_error_naming_the_op(formula, says):
    """max/min/float/round/if/and on a term: where z3 fails on it (a bare Z3Exception or
    TypeError), the error is a ClaimMisuse (a TypeError) naming the op to write and the line,
    chained to the original; building the claim runs nothing."""
    from checker.backends import smt
    from checker.kernel.errors import ClaimMisuse
    from checker.kernel.model import Context

    c = claim("misused", "x y", formula)
    with pytest.raises(ClaimMisuse) as info:
        smt.prove(c, Context("t", 0, 10.0))
    assert says in str(info.value) and "claim 'misused', conclusion" in str(info.value)
    assert isinstance(info.value, TypeError) and info.value.__cause__ is not None
    if "max" in says or "ite" in says:
        assert "test_claims.py:" in str(info.value)  # the line that does it


def test_a_float_constant_is_refused_when_the_claim_is_built():
    """0.1·x is inexact in every backend (Fraction × float is a float; z3 reads 0.1 as 1/10): the
    claim is refused at once, with the rational to write."""
    from checker.kernel.errors import ClaimMisuse

    with pytest.raises(ClaimMisuse, match=r"the float 0\.1 .* write o\.q\(1, 10\)"):
        claim("tenth", "x", lambda o, v: o.le(v.x * 0.1, 1))
    with pytest.raises(ClaimMisuse, match=r"hypothesis 'h'.*o\.q\(1, 2\)"):
        claim("half", "x", lambda o, v: o.le(v.x, 1), hypotheses={"h": lambda o, v: o.ge(v.x, 0.5)})


def test_the_same_claim_written_with_the_ops_builds():
    """Written with o.max, o.abs, o.q and o.ite it is a claim, and z3 decides it."""
    from checker.backends import smt
    from checker.kernel.model import Context, Status

    c = claim("fine", "x y", lambda o, v: o.le(o.ite(o.gt(v.x, 0), o.abs(v.x), o.q(1, 10) * v.y), o.max(o.abs(v.x), o.abs(v.y))),
              hypotheses={"y ≥ 0": lambda o, v: o.ge(v.y, 0)})
    assert smt.prove(c, Context("t", 0, 10.0)).status is Status.PROVED
