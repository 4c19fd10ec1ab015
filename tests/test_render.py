"""Printed claims: every op is interpreted, the canonical form reads back, prose is checked."""

from __future__ import annotations

from fractions import Fraction

from checker.claims import claim
from checker.kernel.printing import parse, print_claim, prose_warnings


def test_every_op_prints_and_reads_back():
    """Each op of checker.claims (and the newer floor/ceil/exp/log/pow, and an unknown op by name)
    prints, and the canonical form parses back to the same form."""
    c = claim("all-ops", "x y", lambda o, v: o.implies(
        o.and_(o.le(o.relu(v.x), o.abs(v.y)), o.not_(o.eq(v.x, o.q(-3, 8)))),
        o.or_(o.lt(o.max(v.x, v.y) - o.min(v.x, 1), o.sqrt(v.y * v.y + 1)),
              o.ge(o.ite(o.gt(v.x, 0), v.x / 2, -v.x), o.floor(v.x) + o.ceil(v.y)),
              o.ne(o.exp(v.x) ** 2, o.log(o.pow(v.y, 3))), o.gt(o.erfc(v.x), 0))),
        hypotheses={"pos": lambda o, v: o.gt(v.y, 0)}, terms={"t": lambda o, v: o.q(1, 2) * v.x})
    p = print_claim(c)
    assert p.error is None
    for f in (*p.hypotheses, p.conclusion, *p.terms):
        assert parse(f.canonical).key == f.canonical
    assert "erfc" in p.conclusion.canonical and "-3/8" in p.conclusion.canonical
    assert p.terms[0].canonical == "(* 1/2 x)"
    assert "⇒" in p.statement_text() and r"\le" in p.conclusion.latex


def test_unprintable_claim_says_why():
    """A claim that branches on a value in Python gets an error, not an invented formula. (claim()
    refuses to build one, test_claims.py; a Claim made directly still prints safely.)"""
    from checker.claims import Claim

    c = Claim("branchy", ("x",), lambda o, v: o.le(v.x, 1) if v.x > 0 else o.le(v.x, 2))
    p = print_claim(c)
    assert p.error is not None and p.conclusion is None and "cannot be printed" in p.statement_text()


def test_prose_number_missing_from_claim_is_warned():
    """'≤ 2·…' in the statement with 3 in the checked claim is caught; 2 in both is not."""
    three = print_claim(claim("c", "x y", lambda o, v: o.le(o.abs(v.x), 3 * o.abs(v.y))))
    two = print_claim(claim("c", "x y", lambda o, v: o.le(o.abs(v.x), 2 * o.abs(v.y))))
    statement = "|f(x)| ≤ 2·|y| for x_1 in ℝ^2"
    assert prose_warnings(statement, [two]) == []
    warnings = prose_warnings(statement, [three])
    assert len(warnings) == 1 and "says 2" in warnings[0] and "3" in warnings[0]
    assert three.numbers() == {Fraction(3)}


def test_references_and_checked_sizes_are_not_missing_constants():
    """'Theorem 4.2', 'layers 1 then 2', 'Eq. (10)' are references, not constants; a number the
    result records it checked (the family of sizes a loop covered, a table key ``n=256``) counts;
    a constant that is neither is still warned about, next to a reference."""
    from checker.kernel.printing import checked_texts, prose_numbers

    two = print_claim(claim("c", "x y", lambda o, v: o.le(o.abs(v.x), 2 * o.abs(v.y))))
    assert prose_numbers("Pruning layers 1 then 2 (Theorem 4.2, Eq. (10), parts 1–3) costs 7") == ["7"]
    assert prose_warnings("By Theorem 2, pruning layer 2 first changes it by ≤ 2·|y|.", [two]) == []
    cert = {"steps": [{"action": "bracket the root", "detail": {"table": {"n=256": {"x": "[20.4, 20.5]"}, "n=512": {}}}}],
            "data": {"paper range end (c = 8)": "[8.47, 8.48]"}}
    checked = checked_texts(cert, "K = 2…6")
    statement = "For K = 6 classes, at n = 256 and 512 (c = 8), |x| ≤ 2·|y|; the ratio is 20.4"
    assert prose_warnings(statement, [two], checked) == [prose_warnings(statement, [two])[-1]]  # only 20.4: a value, not checked
    assert "says 20.4" in prose_warnings(statement, [two], checked)[0]
    assert len(prose_warnings("By Theorem 3, |x| ≤ 3·|y|.", [two])) == 1  # the 3 of the bound is still caught


def test_the_shipped_catalogue_prose_has_no_missing_constant():
    """Every statement of the committed full-check snapshot's catalogue, against its declared
    claims and the sizes its grade names: no prose-number warning (check prints none)."""
    import json
    from pathlib import Path

    from checker.kernel.printing import print_claims
    from checker.run.discovery import discover

    snapshot = json.loads((Path(__file__).parent / "fixtures" / "catalogue_outcomes.json").read_text(encoding="utf-8"))["results"]
    warned = {}
    for ob in discover("obligations").select([]):
        over = (snapshot.get(ob.id) or {}).get("grade_over") or ""
        found = prose_warnings(ob.statement, print_claims(ob.claims), [over])
        if found:
            warned[ob.id] = found
    # the rest are silenced only by what the run records it checked (a loop's table keys): run them
    assert set(warned) <= {"rmt_jacobian.mask_threshold_corrected", "psy01a.universal_cue_threshold"}, warned
    from tests.helpers import cli

    out = cli("check", *warned, "--jobs", "1", "-q", "--no-baseline")
    assert out.returncode == 0 and "warning" not in out.stderr, out.stderr


def test_a_checked_size_does_not_excuse_an_unrelated_constant():
    """The 2 of '≤ 2·‖z − z'‖_∞' is still missing from a claim that checks 3, even though the
    grade's family 'K = 2…6' holds a 2: only the same use (K = 2) is covered."""
    three = print_claim(claim("c", "x y", lambda o, v: o.le(o.abs(v.x), 3 * o.abs(v.y))))
    statement = "For K = 2 classes, |m(z, y) − m(z', y)| ≤ 2·‖z − z'‖_∞."
    found = prose_warnings(statement, [three], ["K = 2…6 classes, every label"])
    assert len(found) == 1 and "says 2" in found[0]
    assert prose_warnings("For K = 2 classes, |x| ≤ 3·|y|.", [three], ["K = 2…6 classes"]) == []


def test_prose_numbers_read_powers_signs_and_factors():
    """``2⁻²⁴`` is the constant 1/16777216, ``[−81, 0]`` names −81, and ``4·2⁻²⁶`` is one constant
    (2⁻²⁴): none is flagged; a changed factor (3·2⁻²⁴ where the claim has 2⁻²⁴) and a bare 2 are."""
    from fractions import Fraction

    from checker.claims import claim
    from checker.kernel.printing import print_claims, prose_warnings

    printed = print_claims([claim("c", "x", lambda o, v: o.le(v.x, Fraction(1, 2**24)), hypotheses={"h": lambda o, v: o.ge(v.x, -81)})])
    assert prose_warnings("x ≤ 2⁻²⁴ on [−81, 0], that is 4·2⁻²⁶", printed) == []
    assert [w.split(",")[0] for w in prose_warnings("x ≤ 3·2⁻²⁴", printed)] == ["the statement says 3"]
    assert [w.split(",")[0] for w in prose_warnings("x ≤ 2 on [−81, 0]", printed)] == ["the statement says 2"]
