"""Fast paths of the psy01a obligations equal their references on the obligations' own inputs."""

from __future__ import annotations

import itertools

from obligations.psy01a import pruning


def test_spec_memoised_equals_spec_prune_on_every_searched_case():
    """The per-matrix sorted-order memo gives spec_prune's H_K for every (W, mask, K) the
    nesting search visits (2×2 with entries 1…4 and −2…2, every mask)."""
    for values in (range(1, 5), range(-2, 3)):
        for ws in itertools.product(values, repeat=4):
            fast = pruning._spec_memoised(ws)
            for m0 in pruning._nesting_masks(4, True):
                for k in range(len(m0) + 1):
                    assert fast(k, m0) == pruning.spec_prune(ws, k, m0)
                    assert fast(k, m0) == pruning.spec_prune(ws, k, m0)  # the memoised value too


def test_nesting_search_counts_unchanged_by_the_fast_path():
    """The search gives the same cases and verdict through the fast path and the generic one."""
    generic = lambda ws, k, e: pruning.spec_prune(ws, k, e)  # noqa: E731 - not `spec_prune` itself: the generic route
    for shape, values, all_masks in (((2, 2), range(1, 5), True), ((2, 2), range(-2, 3), True), ((1, 3), range(-2, 3), True)):
        assert pruning.nesting_counterexample(pruning.spec_prune, shape, values, all_masks) == \
            pruning.nesting_counterexample(generic, shape, values, all_masks)
