"""Sharded Monte-Carlo (:func:`checker.backends.sampling.sharded`): the figures do not depend on
the number of shards, and do depend on the seed."""

from __future__ import annotations

import numpy as np
import pytest

from checker.backends import sampling


def _same(a, b) -> bool:
    return all(np.array_equal(a["norms"][k], b["norms"][k]) for k in a["norms"]) and a["moments"] == b["moments"]


def test_the_slow_tier_sampler_is_bit_identical_for_1_2_and_4_shards():
    """``approximation21``'s blocked sampler at a small size (n = 64, 10 trials in blocks of 3)
    gives the same norms and moments, bit for bit, in 1, 2 and 4 shards; another seed does not."""
    from obligations.rmt_jacobian.approximation21 import sample_width_blocks

    one, two, four = (sample_width_blocks(7, "test", 64, 10, 3, shards) for shards in (1, 2, 4))
    assert len(one["norms"]["gauss_real"]) == 10
    assert _same(one, two) and _same(one, four)
    assert not _same(one, sample_width_blocks(8, "test", 64, 10, 3, 2))


def test_blocks_come_back_in_block_order_with_their_own_streams():
    """Each block sees the generator of its own spawned stream, whatever shard ran it."""
    def work(i, rng):
        return i, rng.integers(0, 2**62, 3).tolist()

    expected = [(i, np.random.Generator(np.random.PCG64(s)).integers(0, 2**62, 3).tolist())
                for i, s in enumerate(sampling.block_seeds(5, "p", 7))]
    for shards in (1, 2, 3, 4):
        assert sampling.sharded(work, 7, seed=5, purpose="p", shards=shards) == expected


def test_a_sharded_run_needs_a_block():
    """Zero blocks is a clear error, not an empty figure."""
    with pytest.raises(ValueError, match="at least one block"):
        sampling.sharded(lambda i, rng: i, 0, seed=1, purpose="p")
