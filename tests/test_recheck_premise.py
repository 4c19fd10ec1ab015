"""Re-checks decide the premise first: a witness outside a hypothesis is no counterexample even where
the conclusion cannot be evaluated; a closed claim's witness is the empty point; a proof at a point
where a hypothesis fails proves nothing."""

from __future__ import annotations

from fractions import Fraction

from checker.audit.recheck import Recheck, recheck_witness
from checker.backends import interval
from checker.claims import claim
from checker.kernel.model import Status


def _density_only(x):
    """Like exact pruning: defined at exact densities in (0, 1] only (no interval reading either)."""
    if not isinstance(x, Fraction) or not 0 < x <= 1:
        raise ValueError(f"density {x} is outside (0, 1]")
    return x


BOUNDED = claim("density-at-most-half", "d", lambda o, v: o.le(_density_only(v.d), o.q(1, 2)),
                hypotheses={"0 < d ≤ 1": lambda o, v: o.and_(o.gt(v.d, 0), o.le(v.d, 1))})


def test_a_witness_outside_a_hypothesis_is_no_counterexample_even_where_the_conclusion_is_undefined():
    assert recheck_witness([BOUNDED], {"d": "-1"}).verdict is Recheck.DOES_NOT_REFUTE
    assert recheck_witness([BOUNDED], {"d": "3/4"}).verdict is Recheck.REFUTES


def test_a_closed_claims_witness_is_the_empty_point():
    false = claim("golden-above-sqrt3", (), lambda o, v: o.gt((1 + o.sqrt(5)) / 2, o.sqrt(3)))
    true = claim("golden-above-sqrt2", (), lambda o, v: o.gt((1 + o.sqrt(5)) / 2, o.sqrt(2)))
    assert recheck_witness([false], {}).verdict is Recheck.REFUTES
    assert recheck_witness([true], {}).verdict is Recheck.DOES_NOT_REFUTE


def test_an_enclosure_where_a_hypothesis_fails_proves_nothing():
    c = claim("n-is-256-then-small", "n", lambda o, v: o.le(o.log(v.n), 5),
              hypotheses={"n = 256": lambda o, v: o.eq(v.n, 256)})
    vacuous = interval.prove_on(c, {"n": 257})
    assert vacuous.status is Status.UNKNOWN and "vacuously" in vacuous.certificate.reason
    assert interval.prove_on(c, {"n": 256}).status is Status.REFUTED  # log 256 ≈ 5.55
    ok = claim("n-is-256-then-log-below-6", "n", lambda o, v: o.le(o.log(v.n), 6),
               hypotheses={"n = 256": lambda o, v: o.eq(v.n, 256)})
    assert interval.prove_on(ok, {"n": 256}).status is Status.PROVED
