"""The sympy backend: a step proves only when sympy reduces it to 0 / True, and says what it got."""

from __future__ import annotations

from fractions import Fraction

import pytest

from checker.backends import exact, symbolic
from checker.kernel.model import Status
from tests import strategies as S
from tests.backends.corpus import CORPUS


class SympyTerms:
    """Just enough of an ops namespace to read a corpus claim's ``lhs``/``rhs`` terms into sympy
    (the claims stay written once; this reads them, it does not restate them)."""

    def __init__(self) -> None:
        self.sp = symbolic.sympy()

    def q(self, num, den=1):
        return self.sp.Rational(num, den)

    def relu(self, x):
        return self.sp.Max(x, 0)

    def abs(self, x):
        return self.sp.Abs(x)

    def max(self, *xs):
        return self.sp.Max(*xs)

    def min(self, *xs):
        return self.sp.Min(*xs)


IDENTITIES = [e for e in CORPUS if "identity" in e.tags and {t.name for t in e.claim.terms} == {"lhs", "rhs"}]


def _difference(entry):
    sp = symbolic.sympy()
    v = entry.claim.env({x: sp.Symbol(x, real=True) for x in entry.claim.variables})
    terms = entry.claim.term_values(SympyTerms(), v)
    return terms["lhs"] - terms["rhs"]


def test_zero_step_proves_a_polynomial_identity_and_records_it():
    """(x+y)² − x² − 2xy − y² reduces to 0; the step records the expression and its simplified form."""
    sp = symbolic.sympy()
    x, y = sp.symbols("x y", real=True)
    ok, step = symbolic.zero_step((x + y) ** 2 - x**2 - 2 * x * y - y**2, "binomial")
    assert ok and step.answer == "0" and step.detail["simplified"] == "0"
    assert step.backend == symbolic.NAME and step.version.startswith("sympy ")
    assert "binomial" in step.action


def test_zero_step_does_not_prove_a_non_identity():
    """x² − 1 is not 0: not proved, and the step shows what sympy got."""
    sp = symbolic.sympy()
    x = sp.Symbol("x", real=True)
    ok, step = symbolic.zero_step(x**2 - 1, "not an identity")
    assert not ok and step.answer == "x**2 - 1"


def test_true_step_needs_sympy_to_say_true():
    """x + 1 > 0 is True for positive x; for an unconstrained x sympy cannot say, so no proof."""
    sp = symbolic.sympy()
    pos, free = sp.Symbol("p", positive=True), sp.Symbol("f", real=True)
    assert symbolic.true_step(pos + 1 > 0, "positive")[0]
    ok, step = symbolic.true_step(free + 1 > 0, "free")
    assert not ok and step.answer != "True"


def test_conclude_is_proved_only_when_every_step_is():
    """conclude proves when every step reduced, and is otherwise unknown naming the failures."""
    sp = symbolic.sympy()
    x = sp.Symbol("x", real=True)
    good = symbolic.zero_step(x - x, "trivial")
    bad = symbolic.zero_step(x, "x is not zero")
    assert symbolic.conclude("m", [good], note=1).status is Status.PROVED
    v = symbolic.conclude("m", [good, bad])
    assert v.status is Status.UNKNOWN and "x is not zero" in v.certificate.reason
    assert "trivial" not in v.certificate.reason and len(v.certificate.steps) == 2


def _piecewise_difference(entry):
    """lhs − rhs with Max/Min/Abs rewritten as Piecewise, which sympy can fold case by case."""
    sp = symbolic.sympy()
    return sp.piecewise_fold(_difference(entry).rewrite(sp.Piecewise))


@pytest.mark.parametrize("entry", IDENTITIES, ids=[e.name for e in IDENTITIES])
def test_symbolic_proves_true_identities_and_never_false_ones(entry):
    """For each corpus identity lhs = rhs, zero_step on lhs − rhs (as it is, and rewritten
    piecewise) never reduces a mutated, false one to 0; a true one without hypotheses does
    reduce to 0 piecewise (with a hypothesis, sympy need not see it: an honest unknown)."""
    raw_ok, raw = symbolic.zero_step(_difference(entry), entry.name)
    ok, step = symbolic.zero_step(_piecewise_difference(entry), entry.name)
    if not entry.true:
        assert not raw_ok and not ok, (raw.detail, step.detail)
    elif not entry.claim.hypotheses:
        assert ok, step.answer


@pytest.mark.parametrize("entry", IDENTITIES, ids=[e.name for e in IDENTITIES])
@S.given(point=S.data())
@S.examples(15)
def test_symbolic_terms_agree_with_exact_terms(entry, point):
    """The same terms substituted at rational points in sympy equal the exact backend's values."""
    sp = symbolic.sympy()
    values = point.draw(S.points(entry.claim.variables))
    diff = _difference(entry).subs({sp.Symbol(k, real=True): sp.Rational(x.numerator, x.denominator)
                                    for k, x in values.items()})
    ev = exact.evaluate(entry.claim, values)
    assert Fraction(str(sp.nsimplify(diff))) == ev.terms["lhs"] - ev.terms["rhs"]


def test_a_wrong_limit_is_refuted_with_the_computed_limit():
    """lim √2·(1 + 1/x) = √2, not 1: declared as the theorem, the limit is refuted with √2 and a
    rigorous enclosure of √2 − 1 away from 0; as a step of some other proof it only makes that
    proof unknown ("a proof step is false")."""
    sp = symbolic.sympy()
    x = sp.Symbol("x", positive=True)
    theorem = symbolic.limit_claim("lim = 1", lambda: (sp.sqrt(2) * (1 + 1 / x), x, sp.oo, 1))
    v = symbolic.decide(theorem, "limit")
    assert v.status is Status.REFUTED and v.certificate.witness == {"computed": "sqrt(2)"}
    assert v.certificate.sides["computed"] == "sqrt(2)" and v.certificate.sides["claimed"] == "1"
    assert theorem.recheck(v.certificate.witness) is True and theorem.recheck({"computed": "2"}) is False
    step = symbolic.conclude("limit", [symbolic.limit_step(sp.sqrt(2) * (1 + 1 / x), x, sp.oo, 1, "lim = 1")])
    assert step.status is Status.UNKNOWN and "a proof step is false" in step.certificate.reason
    assert symbolic.decide(symbolic.limit_claim("lim = 1", lambda: (1 + 1 / x, x, sp.oo, 1)), "limit").status is Status.PROVED
    right = symbolic.conclude("limit", [symbolic.limit_step(1 + 1 / x, x, sp.oo, 1, "lim = 1")])
    assert right.status is Status.PROVED


def test_a_nonzero_residual_is_a_false_step_only_when_it_is_decisive():
    """A constant residual enclosed away from 0, or a residual at a caller's rational point, is a
    false step (the proof is unknown, with the enclosure); declared as the theorem (zero_claim), the
    constant residual refutes it; a residual with free symbols and no points stays unknown."""
    sp = symbolic.sympy()
    x = sp.Symbol("x", positive=True)
    const = symbolic.conclude("c", [symbolic.zero_step(sp.exp(sp.pi) - 23, "e^π = 23")])
    assert const.status is Status.UNKNOWN and "enclosure of computed − claimed" in const.certificate.reason
    assert symbolic.decide(symbolic.zero_claim("e^π = 23", lambda: sp.exp(sp.pi) - 23), "c").status is Status.REFUTED
    pointed = symbolic.conclude("p", [symbolic.zero_step(x**2 - x, "x² = x", at=[{x: 1}, {x: 2}])])
    assert pointed.status is Status.UNKNOWN and "2" in pointed.certificate.data["false_step"]["at"]
    free = symbolic.conclude("f", [symbolic.zero_step(x**2 - x, "x² = x")])
    assert free.status is Status.UNKNOWN and "computed nothing decisive" in free.certificate.reason
    tiny = symbolic.conclude("t", [symbolic.zero_step(sp.sqrt(2) ** 2 - 2, "√2² = 2")])
    assert tiny.status is Status.PROVED
@pytest.mark.parametrize("entry", IDENTITIES, ids=[e.name for e in IDENTITIES])
def test_rational_zero_step_agrees_with_zero_step_on_the_corpus(entry):
    """The field-of-fractions identity check proves exactly the true identities of the corpus that
    are rational functions, and never a false one (it falls back to simplify otherwise)."""
    diff = _difference(entry)
    ok, step = symbolic.rational_zero_step(diff, entry.name)
    if not entry.true:
        assert not ok, step.detail
    elif not entry.claim.hypotheses:
        assert ok == symbolic.zero_step(diff, entry.name)[0], step.detail


def test_rational_zero_step_is_an_identity_of_rational_functions():
    """x/(x+y) + y/(x+y) − 1 is 0 in ℚ(x, y); x/(x+y) − 1 is not; exp atoms are indeterminates;
    inexact (Float) coefficients never decide in the field but go to the fallback."""
    sp = symbolic.sympy()
    x, y = sp.symbols("x y", real=True)
    ok, step = symbolic.rational_zero_step(x / (x + y) + y / (x + y) - 1, "sum of fractions")
    assert ok and step.action.startswith("rational-function identity") and step.answer == "0"
    assert not symbolic.rational_zero_step(x / (x + y) - 1, "not an identity")[0]
    e = sp.exp(x)
    assert symbolic.rational_zero_step(e / (1 + e) - 1 + 1 / (1 + e), "sigmoid")[0]
    calls = []
    ok, step = symbolic.rational_zero_step(sp.Float(0.1) * x + sp.Float(0.2) * x - sp.Float(0.3) * x, "floats",
                                           fallback=lambda: (calls.append(1), (False, None))[1])
    assert calls == [1] and not ok
