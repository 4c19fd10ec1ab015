"""The faster computations of the rmt_jacobian and controller_bound obligations agree with the
direct ones they replace (same draws, same exact values; floats to rounding)."""

from __future__ import annotations

import math
from fractions import Fraction

from obligations.controller_bound import genuine_pruning, theorem2
from obligations.rmt_jacobian import approximation21


def test_signed_product_matches_a_full_svd_for_the_pair():
    """The Gaussian pair's norms from one factorisation equal the SVD norms of W₂DW₁ and of
    W₂D(W₁ + δxᵀ), and the shifted spectrum's moments those of the direct reduced eigen-solve."""
    import numpy as np

    rng = np.random.default_rng(2)
    n = 48
    x = np.ones(n) / math.sqrt(n)
    for _ in range(3):
        w1, w2 = rng.standard_normal((2, n, n)) * math.sqrt(2 / n)
        signs = w1 @ x > 0
        shift = rng.standard_normal(n)
        pair = approximation21.SignedProduct.of(w2, signs, w1)
        other = w1 + np.outer(shift, x)
        real = float(np.linalg.norm(w2[:, signs] @ w1[signs], 2))
        surrogate = float(np.linalg.norm(w2[:, signs] @ other[signs], 2))
        assert math.isclose(approximation21.top_norm(pair.spectrum()), real, rel_tol=1e-12)
        shifted = pair.shifted_spectrum(shift, signs, x)
        assert math.isclose(approximation21.top_norm(shifted), surrogate, rel_tol=1e-12)
        _, direct = approximation21.masked_norm(w2, signs, other)
        for power in (1, 2, 3, 4):
            assert math.isclose(float(np.sum(shifted**power)), float(np.sum(direct**power)), rel_tol=1e-11)


def test_gram_factor_falls_back_to_qr_when_a_column_is_empty():
    import numpy as np

    rng = np.random.default_rng(3)
    a = rng.standard_normal((20, 8))
    a[:, 2] = 0.0
    m = approximation21.gram_factor(a)
    assert np.allclose(m @ m.T, a.T @ a)


def test_prune_equals_the_where_form_bit_for_bit():
    import numpy as np

    w = np.random.default_rng(4).standard_normal((64, 64))
    t, c = 0.9, 3.7
    assert np.array_equal(approximation21.prune(w, t, c), np.where(np.abs(w) > t, c * w, 0.0))


def test_sparse_pruned_norms_match_the_dense_ones_on_the_obligations_own_draws():
    """For the first networks of each default stream of ``approximation21_test`` (the same draws,
    in the same order), the pruned norms from the nonzero entries equal the dense reduced
    eigen-solve's and a full SVD's to rounding, with the same signs D₁ and the same coins."""
    import numpy as np

    from checker.kernel.model import Context
    from obligations.rmt_jacobian import sparse_norms

    ctx = Context("rmt_jacobian.approximation21_test", 20260806, 120.0, False)
    for n, _ in approximation21.DEFAULT_TIER.widths:
        k = approximation21.pruning_constants(n)
        rng = ctx.rng(f"approximation21/default/n={n}")
        twin = ctx.rng(f"approximation21/default/n={n}")
        x = np.ones(n) / math.sqrt(n)
        for _ in range(2):
            w1, w2 = rng.standard_normal((n, n)) * math.sqrt(2 / n), rng.standard_normal((n, n)) * math.sqrt(2 / n)
            rng.standard_normal(n)  # the Gaussian surrogate's draw, as sample_width takes it
            real, surrogate = approximation21.pruned_norms(rng, w1, w2, k["t"], k["c"])
            v1, v2 = twin.standard_normal((n, n)) * math.sqrt(2 / n), twin.standard_normal((n, n)) * math.sqrt(2 / n)
            twin.standard_normal(n)
            assert np.array_equal(v1, w1)
            p1, p2 = approximation21.prune(w1, k["t"], k["c"]), approximation21.prune(w2, k["t"], k["c"])
            assert np.array_equal(sparse_norms.Pruned.of(w1, k["t"], k["c"]).dense(), p1)
            signs = p1 @ x > 0
            assert np.array_equal(sparse_norms.Pruned.of(w1, k["t"], k["c"]).row_sums() > 0, signs)
            coins = twin.random(n) < 0.5
            dense_real, _ = approximation21.masked_norm(p2, signs, p1)
            dense_surrogate, _ = approximation21.masked_norm(p2, coins, p1)
            assert math.isclose(real, dense_real, rel_tol=1e-12)
            assert math.isclose(surrogate, dense_surrogate, rel_tol=1e-12)
            assert math.isclose(real, float(np.linalg.norm(p2[:, signs] @ p1[signs], 2)), rel_tol=1e-12)


def test_sparse_masked_norm_declines_a_singular_gram_matrix():
    """An empty kept row of P₁ makes bbᵀ singular: the sparse route says so (``None``) and the
    caller takes the dense route with its QR."""
    import numpy as np

    from obligations.rmt_jacobian import sparse_norms

    rng = np.random.default_rng(6)
    w = rng.standard_normal((16, 16))
    w[3] = 0.0
    p = sparse_norms.Pruned.of(w, 0.5, 2.0)
    keep = np.ones(16, dtype=bool)
    assert sparse_norms.masked_norm(p, keep, p) is None
    dense = p.dense()
    for seed in range(20):
        coins = np.random.default_rng(seed).random(16) < 0.5
        if coins[3]:
            break
    _, got = approximation21.pruned_norms(np.random.default_rng(seed), w, w, 0.5, 2.0)
    assert math.isclose(got, float(np.linalg.norm(dense[:, coins] @ dense[coins], 2)), rel_tol=1e-12)


def test_spectral_norms_are_the_svd_norms_to_rounding():
    """The hill-climb's ‖δ‖₂ from the Gram matrix's largest eigenvalue is numpy's SVD norm to a few
    units in the last place, for tall, square and wide batches."""
    import numpy as np

    rng = np.random.default_rng(7)
    for shape in ((200, 4, 3), (200, 4, 4), (200, 2, 4), (200, 1, 3)):
        a = rng.normal(size=shape)
        svd = np.linalg.norm(a, ord=2, axis=(1, 2))
        assert np.allclose(theorem2.spectral_norms(np, a), svd, rtol=1e-13, atol=0)


def test_the_declared_claims_numpy_ratio_equals_the_direct_formula():
    """Theorem 2 for three layers as declared, interpreted in numpy, gives the ratio deviation / (C_k(s)·‖δW_k‖₂)
    of a direct numpy computation of the network (to rounding): the evidence evaluates the declared theorem."""
    import numpy as np

    rng = np.random.default_rng(5)
    widths, n = (3, 4, 4, 2), 50
    layers = [(rng.normal(size=(n, widths[i + 1], widths[i])), rng.normal(size=(n, widths[i + 1]))) for i in range(3)]
    s = rng.normal(size=(n, 3))
    for k in range(3):
        delta = rng.normal(size=(n, widths[k + 1], widths[k]))

        def forward(ws):
            x = s
            for w, b in ws:
                x = np.maximum(np.einsum("nij,nj->ni", w, x) + b, 0.0)
            return x

        perturbed = [(w + delta if i == k else w, b) for i, (w, b) in enumerate(layers)]
        dev = np.linalg.norm(forward(perturbed) - forward(layers), axis=1)
        norms = [np.linalg.norm(w, ord=2, axis=(1, 2)) for w, _ in layers]
        beta = np.linalg.norm(s, axis=1)
        for j in range(k):
            beta = norms[j] * beta + np.linalg.norm(layers[j][1], axis=1)
        after = np.prod(np.stack(norms[k + 1:]), axis=0) if k + 1 < 3 else 1.0
        direct = dev / (after * beta * theorem2.spectral_norms(np, delta))
        got, margin = theorem2.declared_values(np, theorem2.THEOREM2_THREE[k + 1].at(**theorem2.MATRIX_SIZES), layers, s, delta)
        assert np.allclose(got, direct, rtol=1e-12, atol=0) and (margin >= 0).all()


def test_rational_points_of_the_sphere_are_near_and_exactly_of_rational_length():
    import numpy as np

    rng = np.random.default_rng(7)
    for x in [*rng.normal(size=(20, 4)), np.array([0.0, 0.0, -2.5]), np.zeros(3)]:
        exact_x, length = theorem2.rational_on_sphere([float(v) for v in x])
        assert sum(v * v for v in exact_x) == length * length
        assert all(abs(float(e) - v) <= 1e-14 * (1 + float(length)) for e, v in zip(exact_x, x))


def test_integer_forward_equals_the_fraction_forward():
    """The dyadic-integer forward pass gives exactly the rationals of Fraction arithmetic."""
    import numpy as np

    rng = np.random.default_rng(6)
    weights = (rng.normal(size=(7, 5)) * 1e-3, genuine_pruning.hilbert_matrix(7)[:3])
    s = rng.normal(size=5)
    for activation in genuine_pruning.ACTIVATIONS:
        x = [Fraction(float(v)) for v in s]
        for w in weights:
            x = [sum((Fraction(float(a)) * b for a, b in zip(row, x)), Fraction(0)) for row in w]
            if activation == "relu":
                x = [v if v > 0 else Fraction(0) for v in x]
        got = genuine_pruning._exact_forward(weights, genuine_pruning.Dyadic.of(np, s), activation)
        assert got == x
