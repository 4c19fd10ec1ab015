"""Faster routes in controller_bound and rmt_jacobian agree with the slower references they
replaced, on the obligations' own inputs."""

from __future__ import annotations

from fractions import Fraction

from checker.backends import exact, smt
from checker.claims import claim
from checker.model import Context, Status, derive_seed
from checker.runner import DEFAULT_SEED
from obligations.controller_bound import corollary1
from tests.helpers import run_obligation

COROLLARY1 = "controller_bound.corollary1_additive"


def _reference_additive():
    """Corollary 1's additive claim with every backend's relu ``o.relu`` (the encoding before the speed-up)."""
    return claim(
        "corollary1-additive", corollary1.VARS,
        lambda o, v: o.le(corollary1._deviation(o, v), corollary1._additive_bound(o, v)),
        terms={"deviation": corollary1._deviation, "bound": corollary1._additive_bound,
               "C1": corollary1._c1, "C2": corollary1._c2},
    )


def test_z3_relu_encoding_is_the_same_deviation_over_r7():
    """The deviation with z3's If(x ≥ 0, x, 0) equals the one with If(x > 0, x, 0) everywhere (z3: unsat)."""
    same = claim("same-deviation", corollary1.VARS,
                 lambda o, v: o.eq(corollary1._additive_deviation(o, v), corollary1._deviation(o, v)))
    assert smt.prove(same).status is Status.PROVED


def test_additive_witness_is_the_reference_encodings_witness():
    """The refutation's witness and sides are those the reference encoding's z3 query gives (same seed)."""
    ctx = Context(COROLLARY1, derive_seed(DEFAULT_SEED, COROLLARY1), 120.0)
    reference = smt.prove(_reference_additive(), ctx)
    r = run_obligation(COROLLARY1)
    assert reference.status is Status.REFUTED and r.status is Status.REFUTED
    assert r.certificate.witness == reference.certificate.witness
    assert r.certificate.sides == reference.certificate.sides
    point = {k: Fraction(v) for k, v in r.certificate.witness.items()}
    assert exact.evaluate(_reference_additive(), point).is_counterexample


def test_prune_into_is_prune_on_the_dependence_inputs():
    """The buffered pruning of sign_weight_dependence gives prune's array bit for bit (zeros +0), and
    the draws into a reused buffer are the stream's draws."""
    import math

    import numpy as np

    from obligations.rmt_jacobian import approximation21 as a21

    for n in (256, 512):
        k = a21.pruning_constants(n)
        fresh, reused = np.random.default_rng(n), np.random.default_rng(n)
        w, p, dropped = np.empty((n, n)), np.empty((n, n)), np.empty((n, n), dtype=bool)
        for _ in range(3):
            reference = fresh.standard_normal((n, n)) * math.sqrt(2 / n)
            reused.standard_normal(out=w)
            w *= math.sqrt(2 / n)
            assert np.array_equal(w, reference)
            expected = a21.prune(reference, k["t"], k["c"])
            got = a21.prune_into(p, w, k["t"], k["c"], dropped)
            assert np.array_equal(got, expected) and np.array_equal(np.signbit(got), np.signbit(expected))
            top = got[np.arange(n), np.argmax(np.abs(got), axis=1)]
            assert np.array_equal(top != 0, np.any(expected != 0, axis=1))
