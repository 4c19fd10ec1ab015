"""``symbolic.sstr`` (the printer that reuses the strings of subexpression objects already
printed) gives ``sympy.sstr``'s string: on the steps of sympy obligations of the catalogue, on
floats at and below the top level, and after a change of the global printer settings."""

from __future__ import annotations

import pytest

from checker.backends import symbolic

sp = symbolic.sympy()


@pytest.fixture
def compared(monkeypatch):
    seen = []
    fast = symbolic.sstr

    def both(expr):
        out = fast(expr)
        assert out == sp.sstr(expr)
        seen.append(out)
        return out

    monkeypatch.setattr(symbolic, "sstr", both)
    return seen


@pytest.mark.parametrize("name", ["loss_grad_through_relu", "mlp_hidden_loss_grad_at_relu_mask",
                                  "relu_mask_dense_transpose_eq"])
def test_equals_sympys_printer_on_gradient_obligations(compared, name):
    from obligations.lean_mlp import gradients

    verdict = getattr(gradients, name)(None)
    assert verdict.status.value == "proved"
    assert len(compared) > 50


def test_floats_keep_sympys_digits_at_every_level():
    x = sp.Symbol("x")
    for expr in (sp.Float(0.1), sp.Float("1.50000"), x + sp.Float(0.25), sp.Float(2.0) * x + sp.Float(2.0),
                 sp.exp(sp.Float(1.0) * x) / (1 + sp.Float(3.0))):
        assert symbolic.sstr(expr) == sp.sstr(expr)
        assert symbolic.sstr(expr) == sp.sstr(expr)  # again, from the memo


def test_shared_subtrees_and_repeats():
    x, y = sp.symbols("x y", real=True)
    s = 1 + sp.exp(x - y) + sp.exp(2 * y)
    exprs = [sp.exp(x) / s - 1, -sp.exp(y) / s, (x - y) ** 2 / s**3, s, -s, sp.Rational(-3, 7) * x / s]
    for _ in range(2):
        for e in exprs:
            assert symbolic.sstr(e) == sp.sstr(e)


def test_global_settings_change_empties_the_memo():
    from sympy.printing.str import StrPrinter

    x, y = sp.symbols("x y")
    e = sp.exp(x) * (y + 2 * x + 1)
    assert symbolic.sstr(e) == sp.sstr(e)
    old = dict(StrPrinter._global_settings)
    try:
        StrPrinter.set_global_settings(order="rev-lex")
        assert symbolic.sstr(e) == sp.sstr(e)
    finally:
        StrPrinter._global_settings.clear()
        StrPrinter._global_settings.update(old)
    assert symbolic.sstr(e) == sp.sstr(e)
