"""Backends agree on the corpus: what one finds, another confirms (CrossHair's habit of comparing
symbolic results with concrete runs; Hypothesis's re-running a failure on another backend)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from checker.backends import exact, interval, sampling, smt
from checker.backends.interval import Tri
from checker.kernel.model import Context, Status
from tests import strategies as S
from tests.backends.corpus import CORPUS, INVALID, ids

CTX = Context("tests.agreement", seed=3, timeout_s=20.0)
RADIUS = Fraction(1, 2**40)


def _exact_truth(entry, point) -> bool:
    return entry.claim.formula(exact.OPS, entry.claim.env({k: Fraction(x) for k, x in point.items()}))


def _agrees(tri: Tri, truth: bool) -> bool:
    return tri is Tri.UNKNOWN or tri is Tri.of(truth)


@pytest.mark.parametrize("entry", INVALID, ids=ids(INVALID))
def test_z3_witnesses_are_counterexamples_for_exact_and_interval(entry):
    """At z3's witness the exact backend finds a counterexample and the interval backend never
    says the claim holds there; at a dyadic witness it refutes rigorously as well."""
    v = smt.prove(entry.claim, CTX)
    assert v.status is Status.REFUTED
    point = {k: Fraction(x) for k, x in v.certificate.witness.items()}
    assert not _exact_truth(entry, point) and exact.evaluate(entry.claim, point).is_counterexample
    whole, *_ = interval.decide(entry.claim, point)
    assert _agrees(whole, False)
    if all(x.denominator & (x.denominator - 1) == 0 for x in point.values()):
        assert interval.prove_on(entry.claim, point).status is Status.REFUTED


VISIBLE = tuple(e for e in INVALID if e.sampling_refutes)


@pytest.mark.parametrize("entry", VISIBLE, ids=ids(VISIBLE))
def test_sampling_witnesses_agree_with_interval(entry):
    """A refutation found by sampling (a float point, hence dyadic) is also refuted rigorously by
    the interval backend at the same point."""
    v = sampling.search(entry.claim, CTX, entry.sampler, samples=2000, rounds=5)
    assert v.status is Status.REFUTED
    point = {k: Fraction(x) for k, x in v.certificate.witness.items()}
    assert interval.prove_on(entry.claim, point, prec=256).status is Status.REFUTED


@S.given(i=S.indices(len(CORPUS)), data=S.data())
@S.examples(200)
def test_interval_at_a_point_agrees_with_exact(i, data):
    """At any rational point, the interval enclosure of the claim, of its conclusion and of each
    hypothesis, where decided, has the exact backend's truth value."""
    entry = CORPUS[i]
    point = data.draw(S.points(entry.claim.variables))
    truth = _exact_truth(entry, point)
    whole, hyps, concl, _ = interval.decide(entry.claim, point)
    assert _agrees(whole, truth), (entry.name, point, whole)
    ev = exact.evaluate(entry.claim, point)
    assert _agrees(concl, ev.conclusion)
    assert all(_agrees(hyps[h], ev.hypotheses[h]) for h in ev.hypotheses)


@S.given(i=S.indices(len(CORPUS)), data=S.data())
@S.examples(200)
def test_interval_on_a_tiny_box_agrees_with_exact_at_its_centre(i, data):
    """On a box of radius 2^−40 around a rational point, TRUE/FALSE (true/false at every point of
    the box) agree with the exact value at the centre."""
    entry = CORPUS[i]
    point = data.draw(S.points(entry.claim.variables))
    box = {k: (x - RADIUS, x + RADIUS) for k, x in point.items()}
    whole, *_ = interval.decide(entry.claim, box)
    assert _agrees(whole, _exact_truth(entry, point)), (entry.name, point, whole)


@S.given(i=S.indices(len(CORPUS)), data=S.data())
@S.examples(200)
def test_interval_on_a_wider_box_agrees_with_exact_inside_it(i, data):
    """On boxes of radius up to 4, a decided enclosure holds for every point of the box: exact
    agrees at the centre, at both extreme corners and at a random point inside."""
    entry = CORPUS[i]
    point = data.draw(S.points(entry.claim.variables))
    radius = data.draw(S.sampled_from([Fraction(1, 64), Fraction(1, 2), Fraction(1), Fraction(4)]))
    box = {k: (x - radius, x + radius) for k, x in point.items()}
    whole, *_ = interval.decide(entry.claim, box)
    if whole is Tri.UNKNOWN:
        return
    inside = {k: x + radius * data.draw(S.sampled_from([Fraction(-1), Fraction(-1, 3), Fraction(1, 2)]))
              for k, x in point.items()}
    corners = [{k: lo for k, (lo, _) in box.items()}, {k: hi for k, (_, hi) in box.items()}]
    for p in [point, inside, *corners]:
        assert whole is Tri.of(_exact_truth(entry, p)), (entry.name, box, p, whole)


@S.given(i=S.indices(len(CORPUS)), data=S.data())
@S.examples(200)
def test_dyadic_points_are_always_decided(i, data):
    """At dyadic points every comparison is between exact binary values, so the interval backend
    decides every corpus claim there, equalities included (no UNKNOWN), and agrees with exact."""
    entry = CORPUS[i]
    point = data.draw(S.points(entry.claim.variables, S.dyadics()))
    whole, *_ = interval.decide(entry.claim, point, prec=256)
    assert whole is Tri.of(_exact_truth(entry, point)), (entry.name, point)


@pytest.mark.parametrize("entry", CORPUS, ids=ids(CORPUS))
def test_float_margins_agree_with_exact_and_interval_at_sampled_points(entry):
    """At 200 sampled points, a clearly positive numpy margin means exact says true, a clearly
    negative one false; the interval backend, where decided, agrees with exact."""
    rng = CTX.rng(f"agreement/{entry.name}")
    pts = {k: np.asarray(x, dtype=float) for k, x in entry.sampler(rng, 200).items()}
    margins = sampling.margins(entry.claim, pts)
    for j in range(200):
        point = {k: Fraction(float(x[j])) for k, x in pts.items()}
        truth = _exact_truth(entry, point)
        if margins[j] > 1e-9:
            assert truth, (entry.name, point)
        elif margins[j] < -1e-9:
            assert not truth, (entry.name, point)
        whole, *_ = interval.decide(entry.claim, point)
        assert _agrees(whole, truth), (entry.name, point)


@pytest.mark.parametrize("entry", CORPUS, ids=ids(CORPUS))
def test_no_backend_contradicts_the_corpus(entry):
    """The corpus label is the ground truth: z3 proves exactly the true claims, and neither z3
    nor sampling refutes a true one or proves a false one."""
    proof = smt.prove(entry.claim, CTX)
    search = sampling.search(entry.claim, CTX, entry.sampler, samples=2000, rounds=5)
    assert proof.status is (Status.PROVED if entry.true else Status.REFUTED)
    assert search.status is not Status.PROVED
    assert search.status is not (Status.REFUTED if entry.true else Status.PROVED)
