"""The masked entries of the reference MLP (``mlp.times_zero`` and the zero rows of ``outer``)
are the objects sympy's own product ``0 * c`` / ``u * c`` returns, on the inputs of the
gradient obligations; expressions the structural finiteness test does not cover are
multiplied as before."""

from __future__ import annotations

from fractions import Fraction

import pytest

from obligations.lean_mlp import gradients, mlp

sp = gradients.symbolic.sympy()


def _recording(monkeypatch):
    seen = {"times_zero": 0, "product": 0, "fast": 0}
    fast_times_zero, fast_product = mlp.times_zero, mlp._product

    def times_zero(c):
        out = fast_times_zero(c)
        assert out is 0 * c
        seen["times_zero"] += 1
        seen["fast"] += mlp._finite_everywhere(c)
        return out

    def product(u, c):
        out = fast_product(u, c)
        assert out is u * c
        seen["product"] += 1
        return out

    monkeypatch.setattr(mlp, "times_zero", times_zero)
    monkeypatch.setattr(mlp, "_product", product)
    return seen


def test_masked_entries_are_sympys_products_on_the_mlp_regions(monkeypatch):
    seen = _recording(monkeypatch)
    for dims in gradients.MLP_DIMS:
        net, x = gradients.symbolic_net(dims)
        for s0 in gradients.patterns(dims[1]):
            for s1 in gradients.patterns(dims[2]):
                positive = gradients.network_pattern(net, x, s0, s1)
                for label in (0, 1):
                    mlp.gradients(net, x, label, gradients._sp_exp, positive)
                f = mlp.forward(net, x, positive)
                c = mlp.head_cotangent(f.logits, 0, gradients._sp_exp)
                inner = mlp.relu_mask(f.z1, gradients.transpose_contraction(net.W2, c), positive)
                mlp.relu_mask(f.z0, gradients.transpose_contraction(net.W1, inner), positive)
    assert seen["times_zero"] > 1000 and seen["product"] > 1000 and seen["fast"] > 1000


def test_masked_entries_of_the_one_relu_obligation(monkeypatch):
    seen = _recording(monkeypatch)
    for d2, d3 in gradients.RELU_DIMS:
        W2, b2, z = gradients.sym_matrix(sp, "W2", d2, d3), gradients.sym_vector(sp, "b2", d3), \
            gradients.sym_vector(sp, "z", d2)
        for signs in gradients.patterns(d2):
            positive = gradients.sign_table(list(zip(z, signs)))
            logits = mlp.dense(W2, b2, mlp.relu(z, positive))
            for label in range(d3):
                mlp.relu_mask(z, mlp.dense_transpose(W2, mlp.head_cotangent(logits, label, gradients._sp_exp)), positive)
    assert seen["times_zero"] > 50


def test_outside_the_structural_test_the_product_is_taken():
    x = sp.Symbol("x", real=True)
    y = sp.Symbol("y")  # not known real
    for c in (sp.oo, x * sp.oo, 1 / x, sp.log(1 + sp.exp(x)), sp.Float(2.5) * x, sp.sqrt(1 + sp.exp(x)), y,
              1 / (x - 1), sp.zoo):
        assert not mlp._finite_everywhere(c)
        assert mlp.times_zero(c) is 0 * c or (mlp.times_zero(c) is sp.nan and (0 * c) is sp.nan)
        assert mlp._product(sp.S.Zero, c) == sp.S.Zero * c
    assert mlp.times_zero(sp.oo) is sp.nan
    for c in (x, sp.exp(x) / (1 + sp.exp(x)), (x**2 + 3) ** 5 * sp.exp(-x), sp.Rational(-3, 7), 1 / (2 + sp.exp(x)) ** 3):
        assert mlp._finite_everywhere(c)
        assert mlp.times_zero(c) is 0 * c is sp.S.Zero
    assert not mlp._finite_everywhere(1 / (x * sp.exp(x)))  # a base not positive by structure
    assert mlp.times_zero(Fraction(3, 2)) == 0 and isinstance(mlp.times_zero(Fraction(3, 2)), Fraction)
    assert mlp._product(Fraction(0), Fraction(5)) == 0


def test_with_evaluation_off_the_product_is_taken():
    x = sp.Symbol("x", real=True)
    with sp.evaluate(False):
        out = mlp.times_zero(x + 1)
    assert out.is_Mul


@pytest.mark.parametrize("name", ["W0_0_0", "x_1"])
def test_symbols_of_the_networks_are_real_and_finite(name):
    s = sp.Symbol(name, real=True)
    assert mlp._finite_everywhere(s)
