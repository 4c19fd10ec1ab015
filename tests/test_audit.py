"""The audits (checker/audit/audits.py): vacuity, necessity, tightness, shrinking, brittleness; the
`audit` command and `check --audit`; the JSON round-trip with audit objects."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from checker.audit import audits as audit
from checker.backends import exact
from checker.face.cli import ExitCode
from checker.kernel.declare import declare_bound
from checker.kernel.model import Context, Result, Status, derive_seed
from checker.report.reports import read_json, render, render_json
from checker.run.runner import DEFAULT_SEED, execute
from tests import strategies as S
from tests.backends.corpus import CORPUS
from tests.helpers import cli

FIXTURES = Path(__file__).parent / "fixtures"
ENV = {"PYTHONPATH": str(FIXTURES)}
if str(FIXTURES) not in sys.path:
    sys.path.insert(0, str(FIXTURES))  # the auditcat fixture catalogue, imported as `auditcat`


@pytest.fixture(scope="module")
def auditcat():
    from checker.run.discovery import discover

    return discover("auditcat")


def audited(cat, ob_id: str) -> Result:
    ob = cat.by_id(ob_id)
    result, restart = execute(ob, Context(ob_id, derive_seed(DEFAULT_SEED, ob_id), 60.0), audit=True)
    assert not restart
    assert result.audit is not None and set(audit.AUDIT_KEYS) <= set(result.audit)
    return result


def test_contradictory_hypotheses_are_flagged_vacuous(auditcat):
    """A proof whose hypotheses z3 shows unsatisfiable is shown `proved (vacuous)`."""
    r = audited(auditcat, "auditcat.vacuous")
    assert r.status is Status.PROVED
    assert r.audit["vacuity"]["verdict"] == "vacuous"
    assert r.shown_status == "proved (vacuous)" and r.to_json()["shown_status"] == "proved (vacuous)"
    for fmt in ("table", "markdown", "latex", "junit", "html"):
        assert "proved (vacuous)" in render([r], fmt), fmt


def test_satisfiable_hypotheses_have_an_exact_witness(auditcat):
    r = audited(auditcat, "auditcat.needless")
    (row,) = r.audit["vacuity"]["claims"]
    assert row["verdict"] == "satisfiable"
    from auditcat.claims import NEEDLESS

    assert exact.evaluate(NEEDLESS, row["witness"]).premise
    assert r.shown_status == "proved"


def test_needless_hypothesis_is_not_needed_and_the_other_is_needed(auditcat):
    r = audited(auditcat, "auditcat.needless")
    rows = {row["hypothesis"]: row for row in r.audit["necessity"]["hypotheses"]}
    assert rows["y ≥ 0"]["verdict"] == "not needed"
    assert rows["x ≥ 0"]["verdict"] == "needed"
    from auditcat.claims import NEEDLESS

    ev = exact.evaluate(NEEDLESS, rows["x ≥ 0"]["witness"])  # the witness re-checks exactly
    assert ev.hypotheses == {"x ≥ 0": False, "y ≥ 0": True} and not ev.conclusion


def test_loose_bound_reports_its_ratio_and_tight_bound_is_tight(auditcat):
    r = audited(auditcat, "auditcat.bounds")
    rows = {row["claim"]: row for row in r.audit["tightness"]["bounds"]}
    loose, tight = rows["relu-le-twice-abs"], rows["relu-le-abs"]
    assert loose["verdict"] == "ratio" and loose["observed"] and 0.45 < loose["ratio"] <= 0.5
    assert loose["scaled"] == "proved"  # 1.98 is also a valid constant: not tight
    assert tight["verdict"] == "tight"
    from auditcat.claims import TIGHT

    ev = exact.evaluate(TIGHT, tight["witness"])
    assert ev.terms["deviation"] > Fraction(99, 100) * ev.terms["bound"]
    assert "ratio 0.5" in r.audit["tightness"]["summary"]


def test_refutation_keeps_witness_and_gains_a_simpler_shrunk_witness(auditcat):
    r = audited(auditcat, "auditcat.refuted")
    from auditcat.claims import BIG_WITNESS, FALSE

    c = r.certificate
    assert c.witness == BIG_WITNESS
    assert c.shrunk_witness is not None and c.shrunk_witness != c.witness
    assert exact.evaluate(FALSE, c.shrunk_witness).is_counterexample
    before = audit.complexity({k: Fraction(v) for k, v in BIG_WITNESS.items()})
    assert audit.complexity({k: Fraction(v) for k, v in c.shrunk_witness.items()}) < before
    assert r.to_json()["certificate"]["shrunk_witness"] == dict(c.shrunk_witness)


def test_custom_witness_no_claim_rechecks_is_not_a_refutation(auditcat):
    """A refutation whose witness no declared claim fits is the discharge's word alone: unknown, the
    witness kept in the data, nothing to shrink."""
    r = audited(auditcat, "auditcat.custom_witness")
    assert r.status is Status.UNKNOWN and "cannot be re-checked" in r.certificate.reason
    assert r.certificate.data["rejected_witness"]
    assert r.audit["shrink"] is None


def test_seed_dependent_result_is_brittle_and_open(auditcat):
    r = audited(auditcat, "auditcat.brittle")
    assert r.status is Status.SUPPORTED
    assert r.audit["brittleness"]["verdict"] == "brittle"
    assert r.audit["brittleness"]["statuses"][0] == "supported" and "unknown" in r.audit["brittleness"]["statuses"]
    assert r.shown_status == "brittle" and r.outcome.value == "open"
    s = audited(auditcat, "auditcat.stable")
    assert s.audit["brittleness"]["verdict"] == "stable" and s.shown_status == "supported"
    spread = s.audit["brittleness"]["spread"]["estimate"]
    assert spread["min"] < spread["max"]


def test_audit_failures_are_entries_not_crashes(auditcat):
    """A claim z3 cannot take falls back to sampling; a claim that raises gives an error entry;
    the result's status is what the discharge established."""
    opaque = audited(auditcat, "auditcat.opaque")
    assert opaque.status is Status.PROVED
    assert opaque.audit["necessity"]["hypotheses"][0]["verdict"] == "undecided"
    broken = audited(auditcat, "auditcat.broken_claim")
    assert broken.status is Status.PROVED
    assert broken.audit["vacuity"]["verdict"] == "error" and "vacuity" in broken.audit["errors"]


def test_json_round_trip_with_audit_objects(auditcat):
    results = [audited(auditcat, i) for i in ("auditcat.vacuous", "auditcat.refuted", "auditcat.brittle")]
    back = read_json(render_json(results))
    assert [r.to_json() for r in back] == [r.to_json() for r in results]
    assert read_json(render_json(back)) == back
    doc = json.loads(render_json(results))
    for row in doc["results"]:
        assert {"vacuity", "necessity", "tightness"} <= set(row["audit"])
    assert [r.shown_status for r in back] == ["proved (vacuous)", "refuted", "brittle"]


def test_old_reports_without_audit_read_back():
    r = Result.from_json({
        "id": "x.y", "source": {"file": "f", "label": "l"}, "statement": "s", "scope": "s", "expect": "holds",
        "status": "proved", "time_s": 0.1,
        "certificate": {"method": "m", "steps": [], "witness": None, "sides": None, "reason": None, "data": {}}})
    assert r.audit is None and r.shown_status == "proved" and r.to_json()["audit"] is None


def test_review_falsifier_shrinks_to_something_at_least_as_simple():
    """The 201 > 101 instance of Corollary 1 shrinks, every step re-checked exactly."""
    from obligations.controller_bound.corollary1 import ADDITIVE, REVIEW_INSTANCE

    s = audit.shrink(ADDITIVE, REVIEW_INSTANCE)
    assert s is not None
    assert exact.evaluate(ADDITIVE, s.point).is_counterexample
    assert audit.complexity(s.point) <= audit.complexity({k: Fraction(v) for k, v in REVIEW_INSTANCE.items()})


def test_shrink_rejects_a_point_that_is_not_a_counterexample():
    from auditcat.claims import FALSE

    assert audit.shrink(FALSE, {"x": 0, "y": 0, "z": 1}) is None


FALSE_ENTRIES = [e for e in CORPUS if not e.true and e.counterexample is not None]


@S.given(S.indices(len(FALSE_ENTRIES)), S.data())
@S.examples(60)
def test_shrinking_never_produces_a_witness_that_fails_the_exact_recheck(i, data):
    """From any counterexample (the corpus's, scaled and perturbed), the shrunk witness is a
    counterexample in exact arithmetic and no more complex."""
    entry = FALSE_ENTRIES[i]
    start = dict(entry.counterexample)
    noise = data.draw(S.points(entry.claim.variables, S.rationals(bound=50, max_denominator=1000)))
    for k in start:
        candidate = {**start, k: start[k] + noise[k]}
        ev = exact.evaluate(entry.claim, candidate)
        if ev.is_counterexample:
            start = candidate
    s = audit.shrink(entry.claim, start)
    assert s is not None
    assert exact.evaluate(entry.claim, s.point).is_counterexample
    assert audit.complexity(s.point) <= audit.complexity(start)


@S.given(S.data())
@S.examples(60)
def test_complexity_is_its_definition(data):
    """The shrinker's measure is (nonzero entries, total digits of the nonzero ones, total
    height max(|p|, q), a zero of height 1), whatever mix of Fractions and ints the point holds."""
    import math

    point = data.draw(S.points(("a", "b", "c", "d"), S.rationals(bound=50, max_denominator=1000)))
    point = {k: (int(v) if i % 2 and Fraction(v).denominator == 1 else v) for i, (k, v) in enumerate(point.items())}
    values = [Fraction(v) for v in point.values()]
    height = [max(abs(v.numerator), v.denominator) for v in values]
    assert audit.complexity(point) == (sum(v != 0 for v in values),
                                       sum(math.log2(h + 1) for v, h in zip(values, height) if v != 0), sum(height))


def test_declare_bound_rejects_unknown_terms():
    from auditcat.claims import LOOSE

    with pytest.raises(ValueError, match="no term"):
        declare_bound(LOOSE, "relu", "nope")


def test_cli_audit_command_and_check_audit_flag(tmp_path):
    out = cli("--package", "auditcat", "audit", "auditcat.vacuous", "auditcat.bounds", "--format", "json",
              "--no-cache", "--quiet", env=ENV)
    # a vacuous proof is a failure of its own (outcome "vacuous"), so the run exits 1
    assert out.returncode == ExitCode.FAILED, out.stderr
    doc = json.loads(out.stdout)
    by_id = {r["id"]: r for r in doc["results"]}
    assert by_id["auditcat.vacuous"]["audit"]["vacuity"]["verdict"] == "vacuous"
    assert by_id["auditcat.vacuous"]["outcome"] == "vacuous"
    assert by_id["auditcat.vacuous"]["vacuity"]["verdict"] == "vacuous"
    assert by_id["auditcat.bounds"]["audit"]["tightness"]["bounds"][1]["verdict"] == "tight"
    md = tmp_path / "audit.md"
    out = cli("--package", "auditcat", "check", "auditcat.needless", "--audit", "--format", "markdown", "-o", str(md),
              "--quiet", "--cache-dir", str(tmp_path / "cache"), env=ENV)
    assert out.returncode == ExitCode.OK, out.stderr
    text = md.read_text()
    assert "| vacuity |" in text and "**not needed**" in text
    # the same check without --audit is not served the audited cache entry, and vice versa
    plain = cli("--package", "auditcat", "check", "auditcat.needless", "--format", "json", "--quiet",
                "--cache-dir", str(tmp_path / "cache"), env=ENV)
    assert json.loads(plain.stdout)["results"][0]["audit"] is None
    again = cli("--package", "auditcat", "check", "auditcat.needless", "--audit", "--format", "json", "--quiet",
                "--cache-dir", str(tmp_path / "cache"), env=ENV)
    assert json.loads(again.stdout)["results"][0]["audit"]["necessity"] is not None


def test_catalogue_audit_on_a_refutation_and_bounds():
    """On catalogue obligations: the refuted log10 remark keeps its witness (it is not a claim the
    exact backend can shrink) with a reason; the margin and Frobenius bounds are tight."""
    from checker.run.discovery import discover

    cat = discover("obligations")
    for ob_id in ("psy01a.margin_two_lipschitz", "psy01a.masked_opnorm_frobenius"):
        r, _ = execute(cat.by_id(ob_id), Context(ob_id, derive_seed(DEFAULT_SEED, ob_id), 60.0), audit=True)
        assert r.status is Status.PROVED and r.audit["tightness"]["verdict"] == "tight", ob_id
        assert not r.audit.get("errors"), r.audit.get("errors")
    r, _ = execute(cat.by_id("rmt_jacobian.log10_remark"), Context("x.y", 1, 60.0), audit=True)
    assert r.status is Status.REFUTED
    assert r.certificate.shrunk_witness == r.certificate.witness and r.audit["shrink"]["reason"]


@pytest.mark.slow
def test_whole_catalogue_audit(tmp_path):
    """Every conditional claim has a vacuity verdict, every refutation a shrunk witness, every
    declared bound a tightness verdict; no audit errors, no vacuous proof in the catalogue."""
    out = cli("audit", "--format", "json", "--no-cache", "--quiet", timeout=1200)
    assert out.returncode == ExitCode.OK, out.stderr
    doc = json.loads(out.stdout)
    assert "audit" in doc["summary"]
    for r in doc["results"]:
        a = r["audit"]
        assert a is not None and not a.get("errors"), (r["id"], a and a.get("errors"))
        if r["hypotheses"]:
            assert a["vacuity"] is not None, r["id"]
            assert a["vacuity"]["verdict"] != "vacuous", r["id"]
        if r["status"] == "refuted":
            assert r["certificate"]["shrunk_witness"] is not None, r["id"]
        for key in ("vacuity", "necessity", "tightness"):
            assert a[key] is not None or a["not_applicable"].get(key), (r["id"], key)


def test_baseline_names_a_proof_that_became_vacuous(auditcat):
    from dataclasses import replace

    from checker.store.baseline import compare

    now = audited(auditcat, "auditcat.vacuous")
    before = replace(now, audit={**now.audit, "vacuity": {"verdict": "satisfiable", "claims": []}})
    (change,) = compare([before], [now])
    assert change.kind == "audit" and change.regression and "proved (vacuous)" in change.message
    assert compare([now], [now]) == []


def test_audit_stays_within_its_budget(auditcat):
    """A re-run that would hang is cut by the audit's time limit; the result keeps its status."""
    import time

    ob = auditcat.by_id("auditcat.slow_rerun")
    ctx = Context(ob.id, derive_seed(DEFAULT_SEED, ob.id), 60.0)
    verdict = ob.discharge(ctx)
    start = time.monotonic()
    entry, shrunk = audit.run_audit(ob, ctx, verdict, 0.001, budget_s=1.5)
    assert time.monotonic() - start < 10
    assert entry["brittleness"]["verdict"] == "undecided" and "budget" in entry["brittleness"]["reason"]
    none_left, _ = audit.run_audit(auditcat.by_id("auditcat.needless"), ctx, verdict, 0.0, budget_s=0.0)
    assert none_left["necessity"]["verdict"] == "undecided"


def test_every_format_shows_the_audit(auditcat):
    r = audited(auditcat, "auditcat.bounds")
    for fmt in ("table", "markdown", "latex", "junit", "html", "json"):
        assert "ratio 0.5" in render([r], fmt), fmt
    plain, _ = execute(auditcat.by_id("auditcat.bounds"), Context("auditcat.bounds", 1, 60.0))
    assert plain.audit is None and "ratio" not in render([plain], "table")


def test_refutation_shrinks_to_a_smaller_declared_width(auditcat):
    r = audited(auditcat, "auditcat.wide")
    from auditcat.claims import SUMS

    entry = r.audit["shrink"]
    assert entry["width"] == 1 and entry["claim"] == SUMS[1].name
    assert set(r.certificate.shrunk_witness) == {"x0"}
    assert exact.evaluate(SUMS[1], r.certificate.shrunk_witness).is_counterexample
    assert r.certificate.witness == {"x0": "7/3", "x1": "5", "x2": "11/2"}


def test_tightness_checks_the_declared_constant_against_the_claim():
    """A declare_bound whose constant is not the claim's (claim: |x| ≤ 3·|x|, declared 2) is
    reported 'mismatch' with an exact witness, not 'tight'; the right constant is not a mismatch."""
    from fractions import Fraction

    from checker.audit.audits import AuditConfig, Bound, Budget, declared_bound_mismatch
    from checker.claims import claim
    from checker.kernel.model import Context

    c = claim("three-abs", "x", lambda o, v: o.le(o.abs(v.x), 3 * o.abs(v.x)),
              terms={"lhs": lambda o, v: o.abs(v.x), "rhs": lambda o, v: o.abs(v.x)})
    ctx = Context("t", seed=1, timeout_s=30.0)
    wrong = declared_bound_mismatch(c, Bound("lhs", "rhs", Fraction(1, 2)), ctx, AuditConfig(), Budget(20))
    assert wrong is not None and wrong["verdict"] == "mismatch" and Fraction(wrong["witness"]["x"]) != 0
    assert declared_bound_mismatch(c, Bound("lhs", "rhs", Fraction(3)), ctx, AuditConfig(), Budget(20)) is None
