"""``o.rowprod`` (the vector of a matrix's row products) and ``s.o`` in lemma bindings: read at
concrete sizes as Fractions, and by the induction rule, which proves a true claim using them and
does not prove a false one."""

from __future__ import annotations

from fractions import Fraction

import pytest

from checker.backends import induction, smt
from checker.backends.induction import Use
from checker.kernel.claims import claim
from checker.kernel.errors import ClaimMisuse
from checker.kernel.model import Grade, Status
from checker.kernel.sized import SizedOps, Vec, sized_claim

U = Fraction(1, 2**10)


def _u(o):
    return o.q(1, 2**10)


def _gamma(o, k):
    return k * _u(o) / (1 - k * _u(o))


class _Frac:
    """A minimal ops namespace over Fractions (enough for rowprod, sum and abs)."""

    def q(self, a, b=1):
        return Fraction(a, b)

    def abs(self, x):
        return abs(x)


def test_rowprod_at_concrete_sizes():
    o = SizedOps(_Frac())
    m = Vec([Vec([Fraction(2), Fraction(3)]), Vec([Fraction(1, 2), Fraction(-4)])])
    assert list(o.rowprod(m)) == [6, -2]
    assert list(o.rowprod(Vec([Vec([]), Vec([])]))) == [1, 1]  # empty rows: the empty product
    assert o.sum(o.rowprod(m) * Vec([Fraction(1), Fraction(1)])) == 4
    with pytest.raises(ClaimMisuse):
        o.rowprod(Vec([Fraction(1)]))


PROD = sized_claim("prod_close", "K:nat[0,]", "d[K]", lambda o, v: o.le(o.abs(o.prod(1 + v.d) - 1), _gamma(o, v.K)),
                   {"|d| ≤ u": lambda o, v: o.all(o.le(o.abs(v.d), _u(o))), "K·u < 1": lambda o, v: o.lt(v.K * _u(o), 1)})


def _prod_fact():
    return induction.prove(PROD, "K", invariant=lambda o, v: o.implies(o.lt(v.K * _u(o), 1), PROD.conclusion(o, v)))


def _rows(factor):
    """Σᵢ |qᵢ|·|Πⱼ(1 + Dᵢⱼ) − 1| ≤ factor(K)·Σ|qᵢ| for every n × K (true with γ_K, false with K·u/2)."""
    return sized_claim(
        "rows_close", "n:nat[0,] K:nat[0,]", "q[n] D[n,K]",
        lambda o, v: o.le(o.sum(o.abs(v.q) * o.abs(o.rowprod(1 + v.D) - 1)), factor(o, v.K) * o.norm1(v.q)),
        {"|D| ≤ u": lambda o, v: o.all(o.le(o.abs(v.D), _u(o))), "K·u < 1": lambda o, v: o.lt(v.K * _u(o), 1)})


SCALE = claim("scale", "a b g", lambda o, v: o.le(v.a * v.b, v.a * v.g),
              {"a ≥ 0": lambda o, v: o.ge(v.a, 0), "b ≤ g": lambda o, v: o.le(v.b, v.g)})


def _prove_rows(factor):
    prod = _prod_fact()
    assert prod.status is Status.PROVED and prod.certificate.grade is Grade.UNIVERSAL
    scale = smt.prove(SCALE)
    assert scale.status is Status.PROVED
    rows = _rows(factor)
    inv = lambda o, v: o.and_(o.ge(o.norm1(v.q), 0), o.implies(o.lt(v.K * _u(o), 1), rows.conclusion(o, v)))  # noqa: E731
    return induction.prove(rows, "n", invariant=inv, uses=[
        Use(PROD, prod, {"d": lambda s: s.new("D")}),
        Use(SCALE, scale, {"a": lambda s: s.o.abs(s.new("q")), "b": lambda s: s.o.abs(s.o.prod(1 + s.new("D")) - 1),
                           "g": lambda s: factor(s.o, s.size("K"))})])


def test_rowprod_induction_proves_a_true_claim_for_every_size():
    v = _prove_rows(_gamma)
    assert v.status is Status.PROVED, v.certificate.reason
    assert v.certificate.grade is Grade.UNIVERSAL


def test_rowprod_induction_does_not_prove_a_false_claim():
    half = lambda o, k: k * _u(o) / 2  # noqa: E731  (too small: at K = 1, Π(1 + u) − 1 = u > u/2)
    v = _prove_rows(half)
    assert v.status is Status.UNKNOWN
    # and the claim is false: z3 refutes it at n = 1, K = 1 (D = u gives |q|·u > |q|·u/2)
    assert smt.prove(_rows(half).at(n=1, K=1)).status is Status.REFUTED


def test_rowprod_of_rows_growing_with_the_induction_size_is_refused():
    """A matrix D[n, n] induced on n: every row grows with n, so its row products are not a
    recurrence over the new row; the rule refuses rather than inventing one."""
    c = sized_claim("square", "n:nat[0,]", "D[n,n]", lambda o, v: o.ge(o.sum(o.rowprod(v.D * v.D)), 0))
    v = induction.prove(c, "n")
    assert v.status is Status.UNKNOWN and "change with n" in v.certificate.reason
