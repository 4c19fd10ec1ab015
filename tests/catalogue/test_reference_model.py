"""The 067A reference model: bad input, exact counts, pruning properties, streams, forward pass."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from obligations.psy01a import reference_model as rm
from obligations.psy01a.pruning import spec_prune
from obligations.psy01a.setup import ARCHITECTURE

# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize("density", [0, -0.1, 1.5, Fraction(11, 10), float("nan"), float("inf"), "abc", True])
def test_density_outside_unit_interval_is_rejected(density):
    """A density outside (0, 1] (or not a number) raises DensityError, a ValueError, saying why."""
    with pytest.raises(rm.DensityError) as info:
        rm.retention_count(density, 10)
    assert isinstance(info.value, ValueError)
    assert "density" in str(info.value)


def test_density_message_names_the_interval_and_the_fix():
    with pytest.raises(rm.DensityError, match=r"outside \(0, 1\].*not a percentage"):
        rm.prune_to_density(np.ones((2, 2)), 10)


@pytest.mark.parametrize("f", [1, Fraction(3, 2), -0.25, float("nan")])
def test_removal_fraction_outside_half_open_interval_is_rejected(f):
    with pytest.raises(rm.RemovalFractionError, match="fraction"):
        rm.survivor_count(10, f)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_weights_are_rejected(bad):
    """NaN or infinite weights raise WeightError naming the index."""
    w = np.ones((3, 3))
    w[1, 2] = bad
    with pytest.raises(rm.WeightError, match=r"index \(1, 2\)"):
        rm.prune_exact_count(w, 2)
    with pytest.raises(rm.WeightError):
        rm.ReluNetwork((w,), (np.zeros(3),))


def test_mask_shape_mismatch_is_rejected():
    with pytest.raises(rm.ShapeError, match=r"shape \(2, 2\).*\(2, 3\)"):
        rm.prune_exact_count(np.ones((2, 3)), 1, np.ones((2, 2), dtype=bool))


def test_network_shape_mismatches_are_rejected():
    with pytest.raises(rm.ShapeError, match="inputs"):
        rm.ReluNetwork((np.ones((3, 4)), np.ones((2, 5))), (np.zeros(3), np.zeros(2)))
    with pytest.raises(rm.ShapeError, match="bias"):
        rm.ReluNetwork((np.ones((3, 4)),), (np.zeros(2),))
    net = rm.init_network(0)
    with pytest.raises(rm.ShapeError, match="rows of 4"):
        rm.forward(net, np.zeros((2, 3)))
    with pytest.raises(rm.ShapeError, match="masks"):
        net.masked(rm.prune_network(net, 0.5)[:3])


def test_empty_mask_is_rejected():
    """A mask with no eligible position raises EmptyMaskError (nothing can be retained)."""
    with pytest.raises(rm.EmptyMaskError, match="no eligible position"):
        rm.prune_exact_count(np.ones((2, 2)), 1, np.zeros((2, 2), dtype=bool))
    with pytest.raises(rm.EmptyMaskError):
        rm.prune_survivors(np.ones((2, 2)), np.zeros((2, 2)), 0.5)


def test_count_beyond_eligible_is_rejected():
    """Deleted positions cannot be reactivated: K larger than the mask is an error."""
    m = np.array([[True, False], [False, False]])
    with pytest.raises(rm.CountError, match="never reactivated"):
        rm.prune_exact_count(np.ones((2, 2)), 2, m)
    with pytest.raises(rm.CountError, match="empty mask"):
        rm.prune_exact_count(np.ones((2, 2)), 0)


def test_noise_needs_a_generator():
    net = rm.init_network(0)
    with pytest.raises(rm.ReferenceModelError, match="noise"):
        rm.forward(net, np.zeros((1, 4)), sigma=0.1)


# --- exact counts --------------------------------------------------------------------------


def test_counts_are_exact_ceilings():
    """K = ⌈dN⌉ exactly; 0.1 is read as 1/10 (a binary double would give 2 at N = 10)."""
    assert rm.retention_count(0.1, 10) == 1
    assert rm.retention_count("1/10", 10) == 1
    assert math.ceil(Fraction(0.1) * 10) == 2
    assert [rm.retention_count(Fraction(1, 10), n) for n in (1024, 65536, 32768, 512)] == [103, 6554, 3277, 52]
    assert rm.nested_counts(1024, Fraction(1, 10), Fraction(1, 2)) == (103, 52)


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 5000), d=st.fractions(min_value=0, max_value=1, max_denominator=10**6),
       f=st.fractions(min_value=0, max_value=1, max_denominator=1000))
def test_count_bounds(n, d, f):
    """0 ≤ K/N − d < 1/N; K_f = ⌈(1 − f)K_e⌉ and 0 ≤ K_f/N − d(1 − f) < (2 − f)/N."""
    if d == 0 or f == 1:
        return
    k = rm.retention_count(d, n)
    assert 0 <= Fraction(k, n) - d < Fraction(1, n)
    assert (Fraction(k, n) == d) == ((d * n).denominator == 1)
    kf = rm.survivor_count(k, f)
    assert kf == math.ceil((1 - f) * k) == k - math.floor(f * k)
    assert 0 <= Fraction(kf, n) - d * (1 - f) < (2 - f) / n


# --- pruning properties ----------------------------------------------------------------------

small_ints = st.integers(-2, 2)


@st.composite
def matrix_and_mask(draw, max_side=6):
    rows, cols = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    w = np.array(draw(st.lists(small_ints, min_size=rows * cols, max_size=rows * cols)), dtype=float).reshape(rows, cols)
    bits = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    if not any(bits):
        bits[draw(st.integers(0, rows * cols - 1))] = True
    return w, np.array(bits).reshape(rows, cols)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), wm=matrix_and_mask())
def test_nesting_identity_and_definition(data, wm):
    """Reference pruning = the exact definition; nested = one-shot for K₂ ≤ K₁; never reactivates."""
    w, m = wm
    size = int(m.sum())
    k1 = data.draw(st.integers(1, size))
    k2 = data.draw(st.integers(1, k1))
    first = rm.prune_exact_count(w, k1, m)
    nested = rm.prune_exact_count(w, k2, first)
    one_shot = rm.prune_exact_count(w, k2, m)
    assert np.array_equal(nested, one_shot)
    assert int(first.sum()) == k1 and not (first & ~m).any()
    eligible = [int(i) for i in np.flatnonzero(m)]
    assert frozenset(int(i) for i in np.flatnonzero(first)) == spec_prune(w.reshape(-1).tolist(), k1, eligible)


@settings(max_examples=100, deadline=None)
@given(wm=matrix_and_mask(), d=st.fractions(min_value=0, max_value=1, max_denominator=50),
       f=st.fractions(min_value=0, max_value=1, max_denominator=20))
def test_phased_counts_are_realised(wm, d, f):
    """Early pruning keeps ⌈dN⌉ positions, survivor removal keeps K_e − ⌊fK_e⌋ of them."""
    if d == 0 or f == 1:
        return
    w, _ = wm
    net = rm.ReluNetwork((w,), (np.zeros(w.shape[0]),))
    early, late = rm.phased_masks(net, d, f)
    ke, kf = rm.nested_counts(w.size, d, f)
    assert int(early[0].sum()) == ke and int(late[0].sum()) == kf
    assert not (late[0] & ~early[0]).any()
    assert np.array_equal(late[0], rm.prune_exact_count(w, kf))


def test_ties_are_broken_by_flattened_index():
    w = np.array([[1.0, -1.0], [1.0, 0.5]])
    assert rm.prune_exact_count(w, 2).tolist() == [[True, True], [False, False]]
    assert rm.prune_exact_count(w, 1, np.array([[False, True], [True, True]])).tolist() == [[False, True], [False, False]]


def test_exact_weights_are_ranked_exactly():
    """Object arrays of Fractions are ranked without rounding to floats."""
    a = Fraction(10**17 + 1, 10**17)
    w = np.array([[Fraction(1), a]], dtype=object)
    assert rm.prune_exact_count(w, 1).tolist() == [[False, True]]


# --- streams and the forward pass ------------------------------------------------------------


def test_streams_are_reproducible_and_independent():
    """Same (seed, purpose) gives the same draws; purposes differ; drawing noise leaves data unchanged."""
    a = rm.stream(7, "data").standard_normal(5)
    noise = rm.stream(7, "noise")
    noise.standard_normal(1000)
    b = rm.stream(7, "data").standard_normal(5)
    assert np.array_equal(a, b)
    draws = {p: rm.stream(7, p).standard_normal(3).tolist() for p in rm.PURPOSES}
    assert len({tuple(v) for v in draws.values()}) == len(rm.PURPOSES)
    assert not np.array_equal(rm.stream(8, "data").standard_normal(5), a)
    assert rm.Streams(7)("init").integers(0, 10**9) == rm.stream(7, "init").integers(0, 10**9)
    with pytest.raises(rm.ReferenceModelError):
        rm.stream(-1, "data")


def test_init_network_has_the_067a_shape():
    net = rm.init_network(3)
    assert net.widths == ARCHITECTURE and net.parameter_count == 100_484
    assert np.array_equal(net.weights[0], rm.init_network(3).weights[0])


def test_noise_is_added_after_each_hidden_relu():
    """With all pre-activations negative the clean state is 0 and the noisy state is σG (can be negative)."""
    widths = (4, 3, 3, 2)
    weights = tuple(np.zeros((b, a)) for a, b in zip(widths, widths[1:]))
    biases = (-np.ones(3), -np.ones(3), np.zeros(2))
    net = rm.ReluNetwork(weights, biases)
    g = [np.full((1, 3), -1.0), np.full((1, 3), -1.0)]
    assert np.array_equal(rm.forward(net, np.zeros((1, 4))), np.zeros((1, 2)))
    net2 = rm.ReluNetwork((weights[0], np.eye(3), np.ones((2, 3))), biases)
    # layer 1: relu(−1) + σ(−1) = −σ; layer 2: relu(−σ − 1) + σ(−1) = −σ; head: 3·(−σ)
    out = rm.forward(net2, np.zeros((1, 4)), sigma=0.5, noise=g)
    assert np.allclose(out, [[-1.5, -1.5]])
    noisy = rm.forward(net2, np.zeros((4, 4)), sigma=1.0, rng=rm.stream(1, "noise"))
    assert noisy.shape == (4, 2)


def test_prediction_ties_take_the_smallest_index():
    assert rm.predict(np.array([[0.0, 1.0, 1.0, 0.0], [2.0, 2.0, 2.0, 2.0]])).tolist() == [1, 0]
    assert rm.predict_exact([Fraction(1), Fraction(3), Fraction(3)]) == 1


def test_exact_and_float_forward_agree():
    net = rm.init_network(5)
    u = [Fraction(3), Fraction(-3), Fraction(1), Fraction(0)]
    _, z = rm.forward_exact(net, u)
    assert np.allclose([float(x) for x in z], rm.forward(net, np.array([[3.0, -3.0, 1.0, 0.0]]))[0])


def test_task_sampling():
    x, y = rm.sample_task(rm.stream(0, "data"), 2000, 0.0)
    assert set(y.tolist()) == {0, 1, 2, 3}
    assert np.array_equal(x, np.array(rm.centres(), dtype=float)[y])
    assert rm.with_cue(x[:2], rm.CUE_VISUAL)[:, 2:].tolist() == [[1.0, 0.0], [1.0, 0.0]]
    batches = rm.batch_order(rm.stream(0, "batch_order"), 10, 4)
    assert sorted(np.concatenate(batches).tolist()) == list(range(10))
