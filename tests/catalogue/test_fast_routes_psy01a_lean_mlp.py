"""The faster computations and z3 routes of psy01a's stress module and lean_mlp's margins agree
with the direct ones they replace: the same arb balls, and the fast z3 route proves the claim on
its own (so the obligation does not silently pay for the default route on top of it)."""

from __future__ import annotations

import flint

from checker.backends import smt
from checker.kernel.model import Context
from obligations.lean_mlp import margins
from obligations.psy01a import arb_linalg, stress_bounds, stress_certificates, stress_network, stress_vs_masks

CTX = Context("test", 1, 60, False)


def _same_ball(a, b) -> bool:
    return a.mid() == b.mid() and a.rad() == b.rad()


def test_prepared_row_norms_equal_the_entrywise_sums():
    old = flint.ctx.prec
    flint.ctx.prec = arb_linalg.ARB_PREC
    try:
        for net in (stress_network.stress_network(), *(stress_vs_masks.t_network(t) for t in stress_vs_masks.T_VALUES)):
            prep = stress_certificates._Prepared(net)
            for w, sq in ((prep.w[1], prep.v2sq), (prep.w[2], prep.w3sq)):
                direct = [sum((w[i, j] * w[i, j] for j in range(w.ncols())), flint.arb(0)) for i in range(w.nrows())]
                assert len(sq) == len(direct) and all(_same_ball(a, b) for a, b in zip(sq, direct))
            assert all(_same_ball(a, b.sqrt()) for a, b in zip(prep.v2, prep.v2sq))
            assert all(_same_ball(a, b.sqrt()) for a, b in zip(prep.v3_dormant, prep.w3sq))
    finally:
        flint.ctx.prec = old


def test_margin_cases_prove_the_3x2_shape_on_their_own():
    for c in margins.MARGIN:
        cases = margins.margin_cases(c)
        assert (cases is None) == (c.name != "margin-keeps-offkink-3x2")
        if cases is not None:
            assert smt._fast_unsat(c, CTX, (), None, cases, 60_000)


def test_path_scalar_sign_cases_prove_it_on_their_own():
    assert smt._fast_unsat(stress_bounds.PATH_SCALAR, CTX, (), smt.NLSAT, stress_bounds.path_scalar_cases, 60_000)


def test_rescale_noise_first_layer_split_proves_it_on_their_own():
    assert smt._fast_unsat(stress_vs_masks.RESCALE_NOISE, CTX, (), smt.NLSAT, stress_vs_masks._first_preactivation, 60_000)
