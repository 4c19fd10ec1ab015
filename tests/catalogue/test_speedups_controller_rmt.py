"""Faster routes in controller_bound and rmt_jacobian agree with the slower references they
replaced, on the obligations' own inputs."""

from __future__ import annotations

from fractions import Fraction

from checker.backends import exact, smt
from checker.claims import claim
from checker.kernel.model import Status
from obligations.controller_bound import corollary1
from tests.helpers import cli

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


def test_additive_witness_refutes_the_reference_encoding_in_exact_arithmetic(tmp_path):
    """The refutation found with z3's relu encoding is a counterexample to the claim written with
    ``o.relu`` everywhere (the encoding before the speed-up), re-checked in exact rationals.

    Its equality with the reference query's own model is not asserted: that query takes z3
    seconds, and z3's combined solver switches strategy on elapsed time, so on a loaded machine
    it returns another (equally valid) model; the fast query's model is the one a quiet
    machine's reference run gives (measured when the speed-up was made)."""
    import json

    report = tmp_path / "report.json"
    cli("check", COROLLARY1, "--no-cache", "--no-baseline", "--jobs", "1", "-q", "--format", "json", "-o", str(report))
    (r,) = json.loads(report.read_text(encoding="utf-8"))["results"]
    assert r["status"] == "refuted"
    point = {k: Fraction(v) for k, v in r["certificate"]["witness"].items()}
    assert exact.evaluate(_reference_additive(), point).is_counterexample
    assert exact.evaluate(corollary1.ADDITIVE, point).is_counterexample


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
