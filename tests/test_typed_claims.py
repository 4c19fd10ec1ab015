"""Typed variables, floor/ceil and realisers: a refutation's witness satisfies every declared
domain and, where the claim is over derived quantities, is realised by real objects."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from checker.backends import exact, interval, sampling, smt
from checker.claims import Realisation, Unrealisable, claim, integer, natural
from checker.kernel.model import Context, Status

CTX = Context("test.typed", seed=7, timeout_s=30.0)

_COUNT_HYPS = {
    "0 < d ≤ 1": lambda o, v: o.and_(o.gt(v.d, 0), o.le(v.d, 1)),
    "0 ≤ f < 1": lambda o, v: o.and_(o.ge(v.f, 0), o.lt(v.f, 1)),
    "K_e = ⌈dN⌉": lambda o, v: o.eq(v.Ke, o.ceil(v.d * v.N)),
}


def survivor_claim(rule):
    return claim("kf-le-ke", "N:nat[1,] d f Ke:int Kf:int", lambda o, v: o.le(v.Kf, v.Ke),
                 hypotheses={**_COUNT_HYPS, "K_f rule": rule})


TRUE_RULE = survivor_claim(lambda o, v: o.eq(v.Kf, o.ceil((1 - v.f) * v.Ke)))
WRONG_RULE = survivor_claim(lambda o, v: o.eq(v.Kf, o.ceil((1 + v.f) * v.Ke)))  # adds survivors


def test_true_survivor_count_claim_is_proved_with_integer_counts():
    """K_f ≤ K_e with K_e = ⌈dN⌉ and K_f = ⌈(1−f)K_e⌉ over integer counts is proved (z3, Int sorts);
    the real relaxation that used to 'refute' it at N = 3/2, K_f = 3/2 is outside the domain."""
    v = smt.prove(TRUE_RULE, CTX)
    assert v.status is Status.PROVED, v.certificate.reason
    bogus = exact.recheck_counterexample(TRUE_RULE, {"N": Fraction(3, 2), "d": Fraction(1, 2), "f": Fraction(0),
                                                      "Ke": 1, "Kf": Fraction(3, 2)}, "a relaxed model")
    assert bogus.status is Status.UNKNOWN and "not an integer" in bogus.certificate.reason


def test_wrong_count_rule_is_refuted_with_an_integer_witness():
    """With a wrong rule (⌈(1+f)K_e⌉) z3 finds a witness; every count in it is an integer in its domain."""
    v = smt.prove(WRONG_RULE, CTX)
    assert v.status is Status.REFUTED
    w = {k: Fraction(x) for k, x in v.certificate.witness.items()}
    assert all(w[k].denominator == 1 for k in ("N", "Ke", "Kf")) and w["N"] >= 1
    assert w["Kf"] == math.ceil((1 + w["f"]) * w["Ke"]) > w["Ke"]
    ev = exact.evaluate(WRONG_RULE, w)
    assert ev.is_counterexample and ev.in_domain


@pytest.mark.parametrize("x", [Fraction(7, 3), Fraction(-7, 3), Fraction(5), Fraction(-5), Fraction(0)])
def test_floor_and_ceil_agree_across_backends(x):
    """o.floor/o.ceil: exact, z3 (ToInt) and intervals give the same integer."""
    fl = claim("floor", "x", lambda o, v: o.eq(o.floor(v.x), o.q(math.floor(x))))
    ce = claim("ceil", "x", lambda o, v: o.eq(o.ceil(v.x), o.q(math.ceil(x))))
    for c in (fl, ce):
        assert exact.evaluate(c, {"x": x}).conclusion
        pinned = claim(c.name, "x", c.conclusion, hypotheses={"x = point": lambda o, v: o.eq(v.x, o.q(x.numerator, x.denominator))})
        assert smt.prove(pinned, CTX).status is Status.PROVED
        assert interval.prove_on(c, {"x": x}).status is Status.PROVED


def test_pow_exp_log_in_every_backend():
    """o.pow is exact everywhere; exp/log are rigorous in intervals, and z3 answers unknown for them."""
    sq = claim("pow", "x", lambda o, v: o.eq(o.pow(v.x, 3), v.x * v.x * v.x))
    assert smt.prove(sq, CTX).status is Status.PROVED
    assert exact.evaluate(sq, {"x": Fraction(-2, 3)}).conclusion
    el = claim("exp-log", "x", lambda o, v: o.le(o.log(v.x), v.x - 1), hypotheses={"x > 0": lambda o, v: o.gt(v.x, 0)})
    assert smt.prove(el, CTX).status is Status.UNKNOWN
    assert interval.prove_on(el, {"x": Fraction(3)}).status is Status.PROVED
    wrong = claim("exp-below", "x", lambda o, v: o.le(o.exp(v.x), 1 + v.x + v.x * v.x / 2))
    r = interval.prove_on(wrong, {"x": Fraction(3)})
    assert r.status is Status.REFUTED


def test_sampling_stays_in_the_domain():
    """Sampled candidates of an integer claim are integers within bounds before the exact re-check."""
    import numpy as np

    c = claim("k-small", "k:int[-3,3] x", lambda o, v: o.le(v.k * v.x, 100))
    pts = sampling.project(c, {"k": np.array([0.4, 2.6, 9.0, -8.2]), "x": np.array([1.0, 2.0, 3.0, 4.0])})
    assert list(pts["k"]) == [0.0, 3.0, 3.0, -3.0]
    v = sampling.search(c, CTX, lambda rng, n: {"k": rng.normal(0, 5, n), "x": rng.normal(0, 100, n)}, samples=2000)
    assert v.status is Status.REFUTED
    w = v.certificate.witness
    assert Fraction(w["k"]).denominator == 1 and -3 <= Fraction(w["k"]) <= 3


def test_domain_syntax_is_checked():
    """A malformed or empty domain is rejected when the claim is declared."""
    with pytest.raises(ValueError, match="cannot read variable"):
        claim("bad", "k:integer", lambda o, v: o.le(v.k, 1))
    with pytest.raises(ValueError, match="empty"):
        claim("empty", "k:nat[3,1]", lambda o, v: o.le(v.k, 1))
    c = claim("ok", "k x", lambda o, v: o.le(v.k, v.x), domains={"k": natural(1)})
    assert c.domain("k") == natural(1) and c.domain("x").integral is False and integer(0, 2).contains(Fraction(2))


# --- realisers ---------------------------------------------------------------------------

def _realise_vector(point):
    """A vector g with ‖g‖₁ = a and ‖g‖₂² = s, when one exists: s ≤ a² ≤ n·s (here n = 2 coordinates)
    and a rational choice. Takes g = (t, a − t) with t² + (a − t)² = s when t is rational."""
    a, s = point["l1"], point["l2sq"]
    if a < 0 or s < 0 or s > a * a or a * a > 2 * s:
        raise Unrealisable(f"no vector in ℝ² has ‖g‖₁ = {a} and ‖g‖₂² = {s}")
    disc = 2 * s - a * a  # t = (a ± √disc)/2
    n, d = math.isqrt(disc.numerator), math.isqrt(disc.denominator)
    root = Fraction(n, d)
    if root * root != disc:
        raise Unrealisable("the realising vector has irrational entries")
    g = ((a + root) / 2, (a - root) / 2)
    return Realisation({"g": str(tuple(str(x) for x in g))},
                       {"l1": abs(g[0]) + abs(g[1]), "l2sq": g[0] ** 2 + g[1] ** 2})


NORM_CLAIM = claim("l2-at-most-l1-sq", "l1 l2sq", lambda o, v: o.le(v.l2sq, v.l1 * v.l1 / 2),
                   derived="‖g‖₁, ‖g‖₂² of a vector g ∈ ℝ²", realiser=_realise_vector)


def test_an_unrealisable_abstract_witness_is_unknown_not_refuted():
    """‖g‖₁ = 0 with ‖g‖₂² = 2 violates the abstract claim but no vector has those norms: unknown."""
    v = exact.recheck_counterexample(NORM_CLAIM, {"l1": 0, "l2sq": 2}, "a test")
    assert v.status is Status.UNKNOWN and "no object realises" in v.certificate.reason
    no_realiser = claim("abstract", "l1 l2sq", NORM_CLAIM.conclusion, derived="norms of a vector")
    v = exact.recheck_counterexample(no_realiser, {"l1": 0, "l2sq": 2}, "a test")
    assert v.status is Status.UNKNOWN and "has no realiser" in v.certificate.reason
    assert interval.prove_on(no_realiser, {"l1": 0, "l2sq": 2}).status is Status.UNKNOWN


def test_a_realisable_witness_is_refuted_with_its_objects():
    """‖g‖₁ = 2, ‖g‖₂² = 4 is realised by g = (2, 0); the refutation names the object."""
    v = exact.recheck_counterexample(NORM_CLAIM, {"l1": 2, "l2sq": 4}, "a test")
    assert v.status is Status.REFUTED and "realised" in v.certificate.data
    assert smt.prove(NORM_CLAIM, CTX).status in (Status.REFUTED, Status.UNKNOWN)
