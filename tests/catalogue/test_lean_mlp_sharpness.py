"""Sharpness of the Lean gradient Lipschitz constants: statuses, grades, and that the mechanisms can fail."""

from __future__ import annotations

from fractions import Fraction

from checker.backends import exact, interval, smt
from checker.kernel.model import Grade, Outcome, Status
from obligations.lean_mlp import lipschitz_sharpness as ls


def test_best_constant_is_proved_with_the_exact_ratio(catalogue_run):
    r = catalogue_run["lean_mlp.grad_lipschitz_best_constant"]
    assert r.status is Status.PROVED, r.certificate.reason
    assert r.outcome in (Outcome.CONFIRMED, Outcome.PARTIAL)  # partial: proved for some sizes only
    assert r.certificate.grade is Grade.INSTANCES  # attainment is by exact witnesses
    assert r.certificate.data["first_order_looseness"] == 6


def test_witness_family_approaches_the_best_constant(catalogue_run):
    r = catalogue_run["lean_mlp.grad_lipschitz_witness_family"]
    assert r.status is Status.PROVED, r.certificate.reason
    assert r.certificate.grade is Grade.INSTANCES
    for part in r.certificate.data["parts"].values():
        members = part["data"]["members"]
        best = [m["drift/(C*·t·D) ≥"] for m in members]
        lean = [m["drift/(C·t·D) ≥"] for m in members]
        assert best == sorted(best) and best[-1] > 0.9999 and all(b <= 1 for b in best)
        assert lean == sorted(lean) and 0.16 < lean[-1] < 1 / 6


def test_a_smaller_first_order_constant_is_not_attained():
    """Mutation: C*/2 in the chain's conclusion is refuted by z3 (the links do not prove it)."""
    half = ls.FIRST_ORDER_CHAIN.derive(
        "half", conclusion=lambda o, v: o.le(o.abs(v.g), v.w2 * v.w2 * v.rho * v.rho * v.t * v.D / 2))
    assert smt.prove(half).status is Status.REFUTED


def test_sandwich_softmax_link_is_not_first_order_tight():
    """Mutation: the softmax link at half its tight constant (δ/2) is refuted."""
    c = ls.softmax_total_variation_claim(3)
    weaker = c.derive("half", conclusion=lambda o, v: o.le(
        2 * v.delta * sum((v[f"r{k}"] for k in range(3)), start=0 * v.delta), v.delta * v.delta))
    assert smt.prove(weaker).status is Status.REFUTED


def test_attainment_fails_away_from_the_even_split():
    """Mutation: with p = (1/3, 1/3, 1/3) the extremal configuration does not attain C*."""
    point = {**ls._witness("W1"), "p0": Fraction(1, 3), "p1": Fraction(1, 3), "p2": Fraction(1, 3)}
    assert exact.check_instance(ls.ATTAINMENT["W1"], point, "test").status is Status.UNKNOWN


def test_member_above_the_best_constant_is_not_proved():
    """Mutation: a lower bound above 1 (drift ≥ 1.01·C*·t·D) is not decided true at any member."""
    m = ls.family(ls.HIDDEN)[2]
    v = interval.prove_on(ls.member_claim(ls.HIDDEN, m.n, Fraction(101, 100)), m.point, ls.FAMILY_PREC)
    assert v.status is not Status.PROVED
