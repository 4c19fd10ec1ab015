"""The faster routes of the Lean MLP Lipschitz obligations agree with their references."""

from __future__ import annotations

import pytest

from checker.backends import smt
from checker.backends.smt import _fast_unsat
from obligations.lean_mlp import lipschitz


@pytest.mark.parametrize("index", range(len(lipschitz.HIDDEN_LOGIT)))
def test_hidden_logit_drift_fast_route_proves_each_shape(index):
    """The case split of the hidden pre-activations with NLSAT proves each shape by itself (so the
    obligation never pays for a failed fast route), as the default route does."""
    c, (d1, d2) = lipschitz.HIDDEN_LOGIT[index], lipschitz.HIDDEN_LOGIT_SHAPES[index]
    assert _fast_unsat(c, None, (), smt.NLSAT, lipschitz.hidden_preactivations(d1, d2), 60_000)


@pytest.mark.parametrize("index", range(len(lipschitz.INPUT_LOGIT)))
def test_input_logit_drift_fast_route_proves_each_shape(index):
    c, (d0, d1, _) = lipschitz.INPUT_LOGIT[index], lipschitz.INPUT_LOGIT_SHAPES[index]
    assert _fast_unsat(c, None, (), smt.NLSAT, lipschitz.input_preactivations(d0, d1), 60_000)


def test_fast_route_does_not_prove_a_false_drift_bound():
    """The fast route finds no proof of the halved (false) hidden bound, so it cannot mask a refutation."""
    from fractions import Fraction

    bad = lipschitz.hidden_logit_drift_claim(1, 1, factor=Fraction(1, 2))
    assert not _fast_unsat(bad, None, (), smt.NLSAT, lipschitz.hidden_preactivations(1, 1), 60_000)
