"""Each logical relation between an old and an edited claim, with re-checked points."""

from __future__ import annotations

from checker.store.claim_relation import relate
from checker.claims import claim
from checker.kernel.printing import print_claim


def _bound(c):
    return print_claim(claim("lip", "x y", lambda o, v: o.le(o.abs(v.x - v.y), c * o.max(o.abs(v.x), o.abs(v.y))),
                             terms={"gap": lambda o, v: o.abs(v.x - v.y)}))


def test_weaker_constant_gives_a_point_where_only_the_new_claim_holds():
    r = relate(_bound(2), _bound(3))
    assert r.kind == "weaker"
    gap = r.new_not_old["gap"]
    assert "gap" in r.quantities and gap is not None


def test_stronger_constant_passes():
    assert relate(_bound(2), _bound(1)).kind == "stronger"


def test_equivalent_rewrite():
    a = print_claim(claim("e", "x", lambda o, v: o.le(v.x, 2)))
    b = print_claim(claim("e", "x", lambda o, v: o.le(v.x - 2, 0)))
    assert relate(a, b).kind == "equivalent"


def test_incomparable_gives_both_points():
    a = print_claim(claim("i", "x y", lambda o, v: o.le(v.x * v.x, v.y)))
    b = print_claim(claim("i", "x y", lambda o, v: o.le(v.y, v.x + 1)))
    r = relate(a, b)
    assert r.kind == "incomparable" and r.new_not_old and r.old_not_new


def test_dropping_a_hypothesis_is_stronger_and_adding_one_weaker():
    base = {"a": lambda o, v: o.ge(v.x, 0)}
    one = print_claim(claim("h", "x y", lambda o, v: o.le(v.x, v.y), hypotheses=base))
    two = print_claim(claim("h", "x y", lambda o, v: o.le(v.x, v.y), hypotheses={**base, "b": lambda o, v: o.le(v.y, 1)}))
    assert relate(two, one).kind == "stronger"
    assert relate(one, two).kind == "weaker"


def test_outside_the_fragment_is_undecided():
    a = print_claim(claim("x", "x", lambda o, v: o.le(o.exp(v.x), 4)))
    b = print_claim(claim("x", "x", lambda o, v: o.le(o.exp(v.x + 1), 4)))
    assert relate(a, b).kind == "undecided"
