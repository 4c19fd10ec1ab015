"""The arb-ball evaluation of the Lipschitz segment cross-check stays rigorous."""

from fractions import Fraction

import pytest

from checker.backends import CannotDecide, interval
from obligations.lean_mlp import lipschitz


def test_ball_holds_the_interval_and_comes_back_outward():
    with interval.precision(80):
        x = interval.Interval.of(Fraction(1, 3))
        ball = lipschitz.arb_ball(x)
        back = lipschitz.interval_of_ball(ball)
    assert back.lo <= x.lo and x.hi <= back.hi
    assert back.contains(Fraction(1, 3))


def test_exact_point_stays_a_point():
    with interval.precision(80):
        x = interval.Interval.of(Fraction(5, 8))
        back = lipschitz.interval_of_ball(lipschitz.arb_ball(x))
    assert back.lo == back.hi == Fraction(5, 8)


def test_sign_test_refuses_a_ball_around_zero():
    with interval.precision(80):
        around_zero = lipschitz.arb_ball(interval.Interval.of((Fraction(-1, 10), Fraction(1, 10))))
        assert lipschitz.ball_positive(lipschitz.arb_ball(interval.Interval.of(Fraction(1, 10))))
        assert not lipschitz.ball_positive(lipschitz.arb_ball(interval.Interval.of(Fraction(-1, 10))))
    with pytest.raises(CannotDecide):
        lipschitz.ball_positive(around_zero)


def test_segment_claim_on_balls_decides_a_seeded_segment():
    import numpy as np

    slot = lipschitz.HIDDEN
    seg = lipschitz.seeded_segments(slot, np.random.default_rng(7), 1)[0]
    claim = lipschitz.segment_claim(slot, seg.label)
    whole, _, _, terms = interval.decide(claim, seg.at(Fraction(1, 2)), lipschitz.SEGMENT_PREC)
    assert whole is interval.Tri.TRUE
    assert terms["drift"].hi < terms["bound"].lo
