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
                for _ in range(2):  # the memoised list too
                    assert fast(m0) == [pruning.spec_prune(ws, k, m0) for k in range(len(m0) + 1)]


def test_nesting_search_counts_unchanged_by_the_fast_path():
    """The search gives the same cases and verdict through the fast path and the generic one."""
    generic = lambda ws, k, e: pruning.spec_prune(ws, k, e)  # noqa: E731 - not `spec_prune` itself: the generic route
    for shape, values, all_masks in (((2, 2), range(1, 5), True), ((2, 2), range(-2, 3), True), ((1, 3), range(-2, 3), True)):
        assert pruning.nesting_counterexample(pruning.spec_prune, shape, values, all_masks) == \
            pruning.nesting_counterexample(generic, shape, values, all_masks)


def _reference_forward(net, u, sigma=0.0, noise=None):
    import numpy as np

    h = u
    for layer in range(3):
        h = np.maximum(h @ net.weights[layer].T + net.biases[layer], 0.0)
        if noise is not None:
            h = h + sigma * noise[layer]
    return h @ net.weights[3].T + net.biases[3]


def test_in_place_forward_is_bit_identical_on_the_montecarlo_batch():
    """The in-place forward pass gives the same floats as the out-of-place one on the
    Monte-Carlo batch (every input repeated MC_DRAWS times, seeded noise) and without noise."""
    import numpy as np

    from obligations.psy01a import stress_bounds, stress_certificates, stress_network

    net, u, _, _ = stress_certificates.concrete_network()
    uu = np.repeat(u, stress_bounds.MC_DRAWS, axis=0)
    rng = np.random.default_rng(12345)
    noise = [rng.normal(size=(uu.shape[0], n)) for n in stress_network.SPEC.widths[1:4]]
    kept = [x.copy() for x in noise]
    sigma = float(stress_network.SPEC.sigma)
    assert np.array_equal(stress_network.forward(net, uu, sigma, noise), _reference_forward(net, uu, sigma, noise))
    assert all(np.array_equal(a, b) for a, b in zip(noise, kept))  # the noise is not modified
    assert np.array_equal(stress_network.forward(net, u), _reference_forward(net, u))


def test_global_bound_at_most_agrees_with_the_global_certificate():
    """Where the norm-free test says the global lower bound is ≤ a ceiling, the full global
    certificate's bound is; at σ = 1/5 it settles the Monte-Carlo bracket's lower end."""
    from fractions import Fraction

    from obligations.psy01a import stress_certificates, stress_network

    rows = {r["sigma"]: Fraction(r["lower_bound"]) for r in stress_certificates.global_certificates()["global"]}
    for s in stress_network.SPEC.global_sigmas:
        for k in range(0, 101, 5):
            if stress_certificates.global_bound_at_most(s, Fraction(k, 100)):
                assert rows[stress_certificates.fmt(s)] <= Fraction(k, 100)
    frozen = stress_certificates.frozen_certificates()["frozen_lower"]
    assert stress_certificates.global_bound_at_most(stress_network.SPEC.sigma, frozen)
    assert rows[stress_certificates.fmt(stress_network.SPEC.sigma)] <= frozen


def test_opnorm_lower_is_below_the_upper_bound():
    from obligations.psy01a import arb_linalg, stress_network

    net = stress_network.stress_network()
    with arb_linalg._Precision():
        for w in net.weights:
            assert arb_linalg.opnorm_lower(w) <= arb_linalg.opnorm_upper(w)
