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
    assert recheck_refutation(ob, v.certificate.witness, v.certificate.data["claim"]).verdict is Recheck.REFUTES
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
