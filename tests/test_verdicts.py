"""Verdict constructors and combinators: exact formatting, all_of's order of precedence."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from checker.kernel.model import Certificate, Status, Verdict
from checker.kernel.model import Grade
from checker.kernel.verdicts import all_of, fmt, fmt_map, refuted, supported, timed, trusted, unknown, with_data
from tests import strategies as S


def _verdict(status: Status, name: str) -> Verdict:
    """A verdict of any status, with a distinguishable witness, reason and step."""
    with timed() as t:
        step = t.step("b", "1", f"act {name}", status.value)
    match status:
        case Status.PROVED:
            return trusted(f"m-{name}", step, grade=Grade.INSTANCES, over="1 point")
        case Status.SUPPORTED:
            return supported(f"m-{name}", step, samples=10)
        case Status.REFUTED:
            return refuted(f"m-{name}", {"x": Fraction(-3, 2)}, {"lhs": 2}, step)
        case _:
            return Verdict(status, Certificate(f"m-{name}", (step,), reason=f"why {name}"))


def _expected(statuses: list[Status]) -> Status:
    if Status.REFUTED in statuses:
        return Status.REFUTED
    if Status.ERROR in statuses:
        return Status.ERROR
    if all(s is Status.PROVED for s in statuses):
        return Status.PROVED
    if any(s in (Status.UNKNOWN, Status.TIMEOUT) for s in statuses):
        return Status.UNKNOWN
    return Status.SUPPORTED


@S.given(S.lists(S.sampled_from(Status), min_size=1, max_size=6))
@S.examples(120)
def test_all_of_precedence(statuses):
    """all_of: refuted wins, then error, all proved → proved, any undecided part → unknown, else supported;
    every part's steps are kept and every part is listed under its name."""
    parts = {f"p{i}": _verdict(s, f"p{i}") for i, s in enumerate(statuses)}
    v = all_of("combined", parts)
    assert v.status is _expected(statuses)
    assert len(v.certificate.steps) == len(statuses)
    assert list(v.certificate.data["parts"]) == list(parts)
    json.dumps(v.certificate.to_json())
    if v.status is Status.REFUTED:
        first = next(n for n, p in parts.items() if p.status is Status.REFUTED)
        assert v.certificate.witness == {"x": "-3/2"} and f"part {first!r}" in v.certificate.reason
    if v.status is Status.UNKNOWN:
        for n, p in parts.items():
            if p.status in (Status.UNKNOWN, Status.TIMEOUT, Status.ERROR):
                assert f"{n}: why {n}" in v.certificate.reason


@pytest.mark.parametrize("statuses, expected", [
    ([Status.PROVED, Status.PROVED], Status.PROVED),
    ([Status.PROVED, Status.REFUTED, Status.UNKNOWN], Status.REFUTED),
    ([Status.PROVED, Status.UNKNOWN], Status.UNKNOWN),
    ([Status.PROVED, Status.SUPPORTED], Status.SUPPORTED),
    ([Status.SUPPORTED, Status.TIMEOUT], Status.UNKNOWN),
])
def test_all_of_examples(statuses, expected):
    """The precedence on hand-picked cases (without Hypothesis)."""
    assert all_of("m", {f"p{i}": _verdict(s, str(i)) for i, s in enumerate(statuses)}).status is expected


def test_all_of_needs_a_part():
    """An empty conjunction is a usage error, not a vacuous proof."""
    with pytest.raises(ValueError, match="at least one part"):
        all_of("m", {})


def test_refuted_formats_witness_and_sides_exactly():
    """refuted() stores the witness and sides as exact strings that read back as Fractions."""
    v = refuted("m", {"x": Fraction(-3, 2), "n": 201}, {"lhs": Fraction(4, 2)})
    assert v.status is Status.REFUTED
    assert v.certificate.witness == {"x": "-3/2", "n": "201"} and v.certificate.sides == {"lhs": "2"}
    assert Fraction(v.certificate.witness["x"]) == Fraction(-3, 2)


@S.given(S.rationals(10**9, 10**9))
@S.examples(50)
def test_fmt_is_exact_and_re_readable(q):
    """fmt of a Fraction reads back as the same Fraction."""
    assert Fraction(fmt(q)) == q
    assert fmt_map({"a": q}) == {"a": fmt(q)}


def test_fmt_of_booleans_and_others():
    """Booleans print as JSON's true/false; other values as str."""
    assert fmt(True) == "true" and fmt(False) == "false" and fmt(3) == "3" and fmt(Fraction(6, 3)) == "2"


def test_unknown_keeps_its_reason_and_data():
    """unknown() records the reason and data; with_data merges data, keeping everything else."""
    with timed() as t:
        step = t.step("b", "v", "act", "unknown", detail=1)
    v = unknown("m", "cannot say", step, a=1)
    assert v.status is Status.UNKNOWN and v.certificate.reason == "cannot say"
    w = with_data(v, b=2, a=3)
    assert w.status is Status.UNKNOWN and w.certificate.data == {"a": 3, "b": 2}
    assert w.certificate.reason == "cannot say" and w.certificate.steps == (step,)
    assert step.time_s >= 0 and step.detail == {"detail": 1}


def test_all_of_takes_the_weakest_grade_and_sizes_never_come_out_universal():
    """A conjunction is as general as its least part; parts that are sizes of one statement (a
    declared family, or claims with different numbers of variables) cap a universal grade to bounded."""
    from checker.backends import smt
    from checker.claims import claim
    from checker.kernel.model import Grade

    def sum_sq(k):
        names = [f"x{i}" for i in range(k)]
        return claim(f"sumsq-{k}", names, lambda o, v: o.ge(sum(v[n] * v[n] for n in names), 0))

    sizes = {f"k={k}": smt.prove(sum_sq(k)) for k in (1, 2, 3)}
    assert all(v.certificate.grade is Grade.UNIVERSAL for v in sizes.values())
    auto = all_of("sizes", sizes)
    assert auto.status is Status.PROVED and auto.certificate.grade is Grade.BOUNDED
    declared = all_of("sizes", sizes, family="k = 1…3")
    assert declared.certificate.grade is Grade.BOUNDED and declared.certificate.over == "k = 1…3"
    one = all_of("one size", {"k=2": sizes["k=2"]})
    assert one.certificate.grade is Grade.UNIVERSAL
    mixed = all_of("mixed", {"k=2": sizes["k=2"], "pt": trusted("exact", grade=Grade.INSTANCES, over="1 point")})
    assert mixed.certificate.grade is Grade.INSTANCES and mixed.certificate.over == "1 point"
    nested = all_of("nested", {"sizes": auto, "k=1": sizes["k=1"]})
    assert nested.certificate.grade is Grade.BOUNDED


def test_all_of_lemmas_are_not_sizes_but_keep_the_weakest_grade():
    """``lemmas=True``: distinct lemmas of one statement, with different numbers of variables, stay
    universal; a bounded or instance part still weakens the conjunction, and a family still caps."""
    from checker.backends import smt
    from checker.claims import claim
    from checker.kernel.model import Grade

    square = smt.prove(claim("square", "x", lambda o, v: o.ge(v.x * v.x, 0)))
    triangle = smt.prove(claim("triangle", "x y", lambda o, v: o.le(o.abs(v.x + v.y), o.abs(v.x) + o.abs(v.y))))
    assert all_of("two lemmas", {"a": square, "b": triangle}).certificate.grade is Grade.BOUNDED
    both = all_of("two lemmas", {"a": square, "b": triangle}, lemmas=True)
    assert both.status is Status.PROVED and both.certificate.grade is Grade.UNIVERSAL
    capped = all_of("two lemmas", {"a": square, "b": triangle}, family="n = 2", lemmas=True)
    assert capped.certificate.grade is Grade.BOUNDED and capped.certificate.over == "n = 2"
    sizes = all_of("sizes", {"a": square, "b": triangle})
    assert all_of("lemma of sizes", {"s": sizes, "a": square}, lemmas=True).certificate.grade is Grade.BOUNDED
    point = trusted("exact", grade=Grade.INSTANCES, over="1 point")
    assert all_of("with a point", {"a": square, "p": point}, lemmas=True).certificate.grade is Grade.INSTANCES


def test_cross_checks_do_not_set_the_grade():
    """obligations.grading.cross_checked: a passing check (proved at points, or supported) leaves
    the proof's grade; a refuted check refutes; an undecided one makes the whole unknown."""
    from checker.backends import smt
    from checker.claims import claim
    from checker.kernel.model import Grade
    from obligations.grading import cross_checked

    proof = smt.prove(claim("square", "x", lambda o, v: o.ge(v.x * v.x, 0)))
    point = trusted("exact", grade=Grade.INSTANCES, over="1 point")
    kept = cross_checked(proof, {"at a point": point, "sampled": supported("numpy", evaluated=10)})
    assert kept.status is Status.PROVED and kept.certificate.grade is Grade.UNIVERSAL
    assert kept.certificate.data["cross_checks"]["at a point"]["status"] == "proved"
    bad = smt.prove(claim("false", "x", lambda o, v: o.gt(v.x * v.x, 0)))
    assert bad.status is Status.REFUTED
    assert cross_checked(proof, {"refuting point": bad}).status is Status.REFUTED
    assert cross_checked(proof, {"undecided": unknown("m", "no")}).status is Status.UNKNOWN


def test_regrade_only_weakens():
    from checker.kernel.model import Grade
    from checker.kernel.verdicts import regrade

    p = trusted("m", grade=Grade.BOUNDED, over="K ≤ 6")
    assert regrade(p, Grade.UNIVERSAL, "").certificate.grade is Grade.BOUNDED
    assert regrade(p, Grade.INSTANCES, "3 points").certificate.over == "3 points"


def test_a_trusted_computation_at_points_has_its_grade_counted_not_typed():
    """``trusted(..., at=points)``: instances over exactly those points; without points or a grade,
    or with both, the call is refused."""
    import pytest

    from checker.kernel.model import Grade
    from checker.kernel.verdicts import trusted

    v = trusted("exact evaluation", at=("the shipped example network", "t = 1/8"))
    assert v.fact.grade is Grade.INSTANCES and v.fact.over == "2 points (the shipped example network, t = 1/8)"
    with pytest.raises(TypeError, match="what the computation covers"):
        trusted("exact evaluation")
    with pytest.raises(TypeError, match="not both"):
        trusted("exact evaluation", grade=Grade.INSTANCES, at=("p",))
