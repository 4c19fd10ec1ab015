"""Re-checks decide the premise first: a witness outside a hypothesis is no counterexample even where
the conclusion cannot be evaluated; a closed claim's witness is the empty point; a proof at a point
where a hypothesis fails proves nothing."""

from __future__ import annotations

from fractions import Fraction

from checker.audit.recheck import Recheck, recheck_witness
from checker.backends import interval
from checker.claims import claim
from checker.kernel.model import Status


def _density_only(x):
    """Like exact pruning: defined at exact densities in (0, 1] only (no interval reading either)."""
    if not isinstance(x, Fraction) or not 0 < x <= 1:
        raise ValueError(f"density {x} is outside (0, 1]")
    return x


BOUNDED = claim("density-at-most-half", "d", lambda o, v: o.le(_density_only(v.d), o.q(1, 2)),
                hypotheses={"0 < d ≤ 1": lambda o, v: o.and_(o.gt(v.d, 0), o.le(v.d, 1))})


def test_a_witness_outside_a_hypothesis_is_no_counterexample_even_where_the_conclusion_is_undefined():
    assert recheck_witness([BOUNDED], {"d": "-1"}).verdict is Recheck.DOES_NOT_REFUTE
    assert recheck_witness([BOUNDED], {"d": "3/4"}).verdict is Recheck.REFUTES


def test_a_closed_claims_witness_is_the_empty_point():
    false = claim("golden-above-sqrt3", (), lambda o, v: o.gt((1 + o.sqrt(5)) / 2, o.sqrt(3)))
    true = claim("golden-above-sqrt2", (), lambda o, v: o.gt((1 + o.sqrt(5)) / 2, o.sqrt(2)))
    assert recheck_witness([false], {}).verdict is Recheck.REFUTES
    assert recheck_witness([true], {}).verdict is Recheck.DOES_NOT_REFUTE


def test_an_enclosure_where_a_hypothesis_fails_proves_nothing():
    c = claim("n-is-256-then-small", "n", lambda o, v: o.le(o.log(v.n), 5),
              hypotheses={"n = 256": lambda o, v: o.eq(v.n, 256)})
    vacuous = interval.prove_on(c, {"n": 257})
    assert vacuous.status is Status.UNKNOWN and "vacuously" in vacuous.certificate.reason
    assert interval.prove_on(c, {"n": 256}).status is Status.REFUTED  # log 256 ≈ 5.55
    ok = claim("n-is-256-then-log-below-6", "n", lambda o, v: o.le(o.log(v.n), 6),
               hypotheses={"n = 256": lambda o, v: o.eq(v.n, 256)})
    assert interval.prove_on(ok, {"n": 256}).status is Status.PROVED


def test_a_refutation_no_declared_claim_rechecks_is_unknown(tmp_path):
    """A witness nothing declared can re-check is the discharge's word alone (a wrong budget helper
    made a true float statement 'refuted'): unknown, the witness kept; a re-checked one stays refuted."""
    import json

    from tests.faults.catalogues import cli, make_catalogue, ob

    body = 'return refuted("by hand", {"x": "1"}, {"lhs": "2"})'
    checked = 'from checker.backends import exact\nreturn exact.recheck_counterexample(C, {"x": 1}, "test")'
    claim_src = ('\nfrom checker.claims import claim\nC = claim("x-below-half", "x", lambda o, v: o.le(v.x, o.q(1, 2)))\n')
    make_catalogue(tmp_path, "unchk", {"m": ob("unchk", "bare", body, expect="FAILS") + claim_src
                                       + ob("unchk", "rechecked", checked, expect="FAILS", extra=", theorem=C")})
    out = tmp_path / "r.json"
    done = cli(tmp_path, "--package", "unchk", "check", "--no-cache", "--no-baseline", "--no-confirm", "--format", "json",
               "-o", str(out))
    rows = {r["id"]: r for r in json.loads(out.read_text(encoding="utf-8"))["results"]}
    assert rows["unchk.rechecked"]["status"] == "refuted", done.stderr
    bare = rows["unchk.bare"]
    assert bare["status"] == "unknown" and "cannot be re-checked" in bare["certificate"]["reason"]
    assert bare["certificate"]["data"]["rejected_witness"] == {"x": "1"}


def test_a_counterexample_found_at_fixed_sizes_refutes_the_sized_theorem():
    """z3's model of ``T.at(n=5)`` names only the entries; the certificate's claim name carries the
    sizes, so the witness re-checks against the theorem for every size at n = 5 (it was 'no declared
    claim has the witness's variables', unknown). A witness that is not one stays rejected."""
    from checker.audit.recheck import recheck_refutation
    from checker.backends import smt
    from checker.claims import sized_claim
    from checker.kernel.model import Expect, Obligation, Source

    upto4 = sized_claim("sum<=4max", "n:nat[1,]", "x[n]", lambda o, v: o.le(o.sum(v.x), 4 * o.maxv(v.x)),
                        {"x >= 0": lambda o, v: o.all(o.ge(v.x, 0))})
    ob = Obligation(id="t.sized", source=Source("t", "t"), statement="s", scope="s", expect=Expect.HOLDS,
                    discharge=lambda ctx: None, theorem=(upto4,))
    v = smt.prove(upto4.at(n=5))
    assert v.status is Status.REFUTED and "n" not in v.certificate.witness
    found = recheck_refutation(ob, v.certificate.witness, v.certificate.data["claim"])
    assert found.verdict is Recheck.REFUTES and found.sizes == (("n", 5),)  # the runner adds them to the witness
    with_sizes = {"n": "5", **v.certificate.witness}
    assert recheck_refutation(ob, with_sizes, None).verdict is Recheck.REFUTES  # re-checks with no claim named
    assert recheck_refutation(ob, with_sizes, v.certificate.data["claim"]).sizes == ()
    zeros = {k: "0" for k in v.certificate.witness}
    assert recheck_refutation(ob, zeros, v.certificate.data["claim"]).verdict is Recheck.DOES_NOT_REFUTE
    assert recheck_refutation(ob, v.certificate.witness, "sum<=4max[m=5]").verdict is Recheck.NOT_RECHECKED


def test_a_theorem_proved_at_points_but_false_as_printed_is_flagged(tmp_path):
    """'2x = 2 at x = 1' declared as the claim for every x and proved at x = 1: the ledger says z3
    finds it false as printed, and the summary counts it; declared as a closed claim, no note."""
    import json

    from tests.faults.catalogues import cli, make_catalogue, ob

    src = ('\nfrom checker.claims import claim\nfrom checker.backends import exact\n'
           'OPEN = claim("double-is-two", "x", lambda o, v: o.eq(2 * v.x, 2))\n'
           'CLOSED = claim("double-of-one-is-two", (), lambda o, v: o.eq(2 * o.q(1), 2))\n')
    make_catalogue(tmp_path, "pts", {"m": src + ob("pts", "open", 'return exact.prove_at(OPEN, [{"x": 1}])',
                                                  extra=", theorem=OPEN")
                                     + ob("pts", "closed", 'return exact.prove_at(CLOSED, [{}])', extra=", theorem=CLOSED")})
    out = tmp_path / "r.json"
    cli(tmp_path, "--package", "pts", "check", "--no-cache", "--no-baseline", "--no-confirm", "--format", "json", "-o", str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    rows = {r["id"]: r for r in doc["results"]}
    assert rows["pts.open"]["status"] == "proved" and rows["pts.closed"]["status"] == "proved"
    flagged = [e for e in rows["pts.open"]["certificate"]["ledger"] if e["kind"] == "false_as_printed"]
    assert flagged and "is false at" in flagged[0]["text"]
    assert not [e for e in rows["pts.closed"]["certificate"]["ledger"] if e["kind"] == "false_as_printed"]
    assert doc["summary"]["kernel"]["false_as_printed"] == 1


def test_an_undecided_induction_is_decided_by_a_counterexample_at_small_sizes():
    """Σx ≤ 2·max x holds for n ≤ 2 and fails at n = 3: its induction is unknown (the step fails), and
    the runner's search of the smallest sizes finds the n = 3 counterexample, re-checked against the theorem. A true
    theorem whose induction is not given the invariant it needs stays unknown (no counterexample)."""
    from itertools import count

    from checker.backends import induction
    from checker.claims import sized_claim
    from checker import obligation
    from checker.kernel.model import Context, Expect, Source
    from checker.run import runner

    ids = count()

    def run(theorem, discharge):
        ob_id = f"sizesearch.case{next(ids)}"
        fn = obligation(id=ob_id, source=Source("k.txt", "L"), statement="S.", scope="s", expect=Expect.HOLDS,
                        theorem=theorem)(discharge)
        return runner.execute(fn.obligation, Context(ob_id, 7, 60, False))[0]

    upto2 = sized_claim("sum<=2max", "n:nat[1,]", "x[n]", lambda o, v: o.le(o.sum(v.x), 2 * o.maxv(v.x)),
                        {"x >= 0": lambda o, v: o.all(o.ge(v.x, 0))})
    assert induction.prove(upto2).status is Status.UNKNOWN
    r = run(upto2, lambda ctx: induction.prove(upto2, ctx=ctx))
    assert r.status is Status.REFUTED and r.certificate.witness["n"] == "3", r.certificate.reason
    assert "size search" in r.certificate.data["found_by"]
    true = sized_claim("sum<=n*max", "n:nat[1,]", "x[n]", lambda o, v: o.le(o.sum(v.x), v.n * o.maxv(v.x)),
                       {"x >= 0": lambda o, v: o.all(o.ge(v.x, 0))})
    undecided = run(true, lambda ctx: induction.prove(true, ctx=ctx))
    assert undecided.status is not Status.REFUTED  # searched, nothing found: it stays as the proof left it


def _execute(theorem, discharge, expect=None):
    from itertools import count

    from checker import obligation
    from checker.kernel.model import Context, Expect, Source
    from checker.run import runner

    ob_id = f"probe3.case{next(_IDS)}"
    fn = obligation(id=ob_id, source=Source("k.txt", "L"), statement="S.", scope="s", expect=expect or Expect.HOLDS,
                    theorem=theorem)(discharge)
    return runner.execute(fn.obligation, Context(ob_id, 7, 60, False))[0]


_IDS = __import__("itertools").count()
HALF = claim("relu-half-lipschitz", "x y", lambda o, v: o.le(o.abs(o.relu(v.x) - o.relu(v.y)), o.q(1, 2) * o.abs(v.x - v.y)))
BAD_LEMMA = claim("t-below-half", "t", lambda o, v: o.le(v.t, o.q(1, 2)))  # false, and never proved


def test_a_proof_resting_on_a_lemma_it_never_proves_decides_nothing():
    """z3 proves a false theorem from a false lemma instance: the proof assumes the lemma, which no part
    proves, so the result is unknown naming it (it was 'proved ∀'); the same route for a true theorem with
    its lemma proved alongside is proved."""
    from checker.backends import smt
    from checker.kernel.verdicts import all_of

    r = _execute(HALF, lambda ctx: smt.prove(HALF, ctx, lemmas=[smt.Lemma(BAD_LEMMA, lambda o, v: {"t": o.q(1)})]))
    assert r.status is Status.UNKNOWN and "t-below-half" in r.certificate.reason
    one = claim("relu-1-lipschitz", "x y", lambda o, v: o.le(o.abs(o.relu(v.x) - o.relu(v.y)), o.abs(v.x - v.y)))
    nonneg = claim("abs-nonneg", "t", lambda o, v: o.ge(o.abs(v.t), 0))
    ok = _execute(one, lambda ctx: all_of("with its lemma", {
        "goal": smt.prove(one, ctx, lemmas=[smt.Lemma(nonneg, lambda o, v: {"t": v.x - v.y})]),
        "lemma": smt.prove(nonneg, ctx)}, lemmas=True))
    assert ok.status is Status.PROVED


def test_an_existence_refuted_from_an_unproved_lemma_is_not_refuted():
    from checker.backends import smt
    from checker.claims import exists

    body = claim("relu-L-lipschitz", "L x y", lambda o, v: o.le(o.abs(o.relu(v.x) - o.relu(v.y)), v.L * o.abs(v.x - v.y)))
    some_l = exists("relu-some-L", "L", body, where={"L ≥ 0": lambda o, v: o.ge(v.L, 0)})  # true: L = 1
    r = _execute(some_l, lambda ctx: smt.refute_existence(
        some_l, {"x": lambda o, v: v.L + 1, "y": lambda o, v: o.q(0)}, ctx, at={"L": "1/2"},
        lemmas=[smt.Lemma(BAD_LEMMA, lambda o, v: {"t": v.L})]))
    assert r.status is Status.UNKNOWN and "t-below-half" in r.certificate.reason


def test_an_instance_no_object_realises_proves_no_existence():
    from checker.backends import exact
    from checker.claims import Unrealisable, some_instance

    def refuse(point):
        raise Unrealisable("‖g‖₁ is never negative")

    negative = claim("negative-l1", "a", lambda o, v: o.lt(v.a, 0), derived="a = ‖g‖₁ of a vector g", realiser=refuse)
    v = exact.check_instance(negative, {"a": -1}, "the example")
    assert v.status is Status.UNKNOWN and "never negative" in v.certificate.reason
    r = _execute(some_instance(negative), lambda ctx: exact.check_instance(negative, {"a": -1}, "the example"))
    assert r.status is Status.UNKNOWN
    plain = claim("negative-number", "a", lambda o, v: o.lt(v.a, 0))
    assert exact.check_instance(plain, {"a": -1}, "the example").status is Status.PROVED


def test_closed_at_refuses_floats_points_outside_the_domains_and_missing_values():
    import pytest

    from checker.claims import closed_at, integer
    from checker.kernel.claims import ClaimMisuse

    ten = claim("ten-x-is-one", "x", lambda o, v: o.eq(10 * v.x, 1))
    with pytest.raises(ClaimMisuse, match="Fraction"):
        closed_at(ten, {"x": 0.1})
    assert closed_at(ten, {"x": Fraction("0.1")}).variables == ()
    nat = claim("n-at-least-1", "n", lambda o, v: o.ge(v.n, 1), domains={"n": integer(0, 5)})
    for bad in ({"n": -3}, {"n": Fraction(3, 2)}):
        with pytest.raises(ValueError, match="outside the declared domains"):
            closed_at(nat, bad)
    with pytest.raises(ValueError, match="no value for n"):
        closed_at(nat, {})


def test_comparisons_of_plain_numbers_reach_z3_as_booleans():
    """A constant conclusion, and the empty sum of a sized claim at size 0, were a Z3Exception (error,
    and a size search that silently did nothing)."""
    from checker.backends import induction, smt
    from checker.claims import sized_claim

    assert smt.prove(claim("one-le-two", "x", lambda o, v: o.le(1, 2))).status is Status.PROVED
    assert smt.prove(claim("two-le-one", "x", lambda o, v: o.le(2, 1))).status is Status.REFUTED
    positive = sized_claim("sum-relu-ge-1", "n:nat[0,]", "x[n]", lambda o, v: o.ge(o.sum(o.relu(v.x)), 1))
    found = induction.refute_at(positive, {"n": 0})
    assert found is not None and found.status is Status.REFUTED


def test_a_witness_no_claim_can_take_says_why():
    """The reasons a witness cannot be re-checked, named: sizes outside the size domains, a point offered
    against an existence, and variables of no claim of the theorem."""
    from checker.audit.recheck import Recheck, recheck_witness
    from checker.claims import claim, sized_claim
    from checker.kernel.existence import some_instance

    sized = sized_claim("sum-nonneg", "n:nat[1,]", "x[n]", lambda o, v: o.ge(o.sumsq(v.x), 0))
    out = recheck_witness([sized], {"n": "0"}, what="the declared theorem")
    assert out.verdict is Recheck.NOT_RECHECKED and "n = 0" in out.reason and "outside the size domains" in out.reason
    plain = claim("x-le-1", "x", lambda o, v: o.le(v.x, 1))
    out = recheck_witness([some_instance(plain)], {"x": "2"})
    assert out.verdict is Recheck.NOT_RECHECKED and "does not refute an existence" in out.reason
    out = recheck_witness([plain], {"y": "2"}, what="the declared theorem")
    assert out.verdict is Recheck.NOT_RECHECKED and "no claim of the declared theorem" in out.reason and "(y)" in out.reason


def test_a_refutation_at_fixed_sizes_shows_the_sizes_in_its_witness(tmp_path):
    """Refuted through ``T.at(n=5)``, whose model names only the entries: the certificate's witness
    says n = 5, so a reader re-checks it against the sized theorem as declared."""
    import json

    from tests.faults.catalogues import cli, make_catalogue, ob

    src = ('\nfrom checker.claims import sized_claim\nfrom checker.backends import smt\n'
           'T = sized_claim("sum<=4max", "n:nat[1,]", "x[n]", lambda o, v: o.le(o.sum(v.x), 4 * o.maxv(v.x)), '
           '{"x >= 0": lambda o, v: o.all(o.ge(v.x, 0))})\n')
    make_catalogue(tmp_path, "szw", {"m": src + ob("szw", "at5", "return smt.prove(T.at(n=5))", expect="FAILS",
                                                   extra=", theorem=T")})
    out = tmp_path / "r.json"
    done = cli(tmp_path, "--package", "szw", "check", "--no-cache", "--no-baseline", "--no-confirm", "--format", "json",
               "-o", str(out))
    row = json.loads(out.read_text(encoding="utf-8"))["results"][0]
    assert row["status"] == "refuted", done.stderr
    witness = row["certificate"]["witness"]
    assert witness["n"] == "5" and {f"x_{i}" for i in range(5)} <= set(witness)
