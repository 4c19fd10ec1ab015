"""Regression: editing a theorem (or a helper it imports) is caught against a saved baseline."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from checker.store.baseline import compare
from checker.kernel.model import Certificate, Expect, Result, Source, Status

ROOT = Path(__file__).resolve().parent.parent
IDS = ["psy01a.margin_two_lipschitz", "controller_bound.theorem2_single_layer", "controller_bound.corollary1_additive"]


def _result(ob_id, status, expect=Expect.HOLDS, statement="S."):
    return Result(ob_id, Source("d.txt", "L"), statement, "scope", expect, status, Certificate("m"), 0.1)


def test_compare_names_each_kind_of_change():
    """Lost proofs and new breakage are regressions; new/removed/statement changes are named."""
    before = [_result("a", Status.PROVED), _result("b", Status.PROVED), _result("c", Status.UNKNOWN),
              _result("gone", Status.PROVED), _result("d", Status.PROVED, statement="old")]
    after = [_result("a", Status.REFUTED), _result("b", Status.PROVED), _result("c", Status.ERROR),
             _result("new", Status.PROVED), _result("d", Status.PROVED, statement="new")]
    changes = {(c.id, c.kind): c for c in compare(before, after)}
    assert changes[("a", "status")].message.startswith("refuted instead of proved") and changes[("a", "status")].regression
    assert changes[("c", "status")].regression  # now broken
    assert changes[("new", "new")].regression is False
    assert changes[("gone", "removed")].regression is False
    assert changes[("d", "statement")].regression is False
    assert ("b", "status") not in changes


def test_lost_evidence_is_a_regression():
    """supported → unknown, timeout or error loses evidence: each is a regression; unknown → supported is not."""
    before = [_result(x, Status.SUPPORTED) for x in ("u", "t", "e")] + [_result("g", Status.UNKNOWN)]
    after = [_result("u", Status.UNKNOWN), _result("t", Status.TIMEOUT), _result("e", Status.ERROR),
             _result("g", Status.SUPPORTED)]
    changes = {c.id: c for c in compare(before, after)}
    assert all(changes[x].regression and "evidence lost" in changes[x].message for x in ("u", "t", "e"))
    assert changes["g"].regression is False


def test_changed_audit_verdicts_are_listed():
    """Both runs audited: each audit whose verdict changed is listed; tight → exceeded is a regression."""
    from dataclasses import replace

    a = replace(_result("x", Status.PROVED), audit={"tightness": {"verdict": "tight", "summary": "tight"},
                                                    "necessity": {"verdict": "2 needed"}})
    b = replace(_result("x", Status.PROVED), audit={"tightness": {"verdict": "exceeded", "summary": "exceeded (ratio 2)"},
                                                    "necessity": {"verdict": "1 needed, 1 not needed"}})
    changes = [c for c in compare([a], [b]) if c.kind == "audit"]
    by_audit = {c.message.split(":")[0]: c for c in changes}
    assert by_audit["tightness"].regression and "exceeded (ratio 2) instead of tight" in by_audit["tightness"].message
    assert by_audit["necessity"].regression is False


def _copy_project(tmp: Path) -> Path:
    dest = tmp / "project"
    for part in ("checker", "obligations", "lean_refs"):
        shutil.copytree(ROOT / part, dest / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")  # [tool.obligations] names the catalogue
    return dest


def _check(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "checker", "check", *IDS, "-q", "--cache-dir", ".cache", *args],
                          cwd=project, capture_output=True, text=True, timeout=600)


def _margin_constant(text: str, constant: int) -> str:
    """cue.py with the margin constant 2 replaced in both claim builders (the sized theorem and the
    per-size claims it is cross-checked against)."""
    edits = [("def _sized_lipschitz_claim(constant=2):", f"def _sized_lipschitz_claim(constant={constant}):"),
             ("def _lipschitz_claim(k: int, y: int, constant=2):", f"def _lipschitz_claim(k: int, y: int, constant={constant}):")]
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    return text


def test_edits_are_caught_through_the_cache(tmp_path):
    """In a copy: unchanged re-check exits 0; editing a constant, or a helper the obligation
    imports, names the obligation's change and exits 1 — with the cache warm."""
    project = _copy_project(tmp_path)
    saved = _check(project, "--save-baseline", "baseline.json")
    assert saved.returncode == 0, saved.stderr
    unchanged = _check(project, "--baseline", "baseline.json")
    assert unchanged.returncode == 0, unchanged.stderr
    assert "baseline: no changes" in unchanged.stderr

    cue = project / "obligations" / "psy01a" / "cue.py"
    text = cue.read_text(encoding="utf-8")
    cue.write_text(_margin_constant(text, 1), encoding="utf-8")
    edited = _check(project, "--baseline", "baseline.json")
    assert edited.returncode == 1
    assert "psy01a.margin_two_lipschitz: refuted instead of proved" in edited.stderr
    cue.write_text(text, encoding="utf-8")

    network = project / "obligations" / "controller_bound" / "network.py"
    text = network.read_text(encoding="utf-8")
    marker = "return o.abs(v.w2 if w2 is None else w2) * o.abs(v.s)"
    assert marker in text
    network.write_text(text.replace(marker, marker + " / 2"), encoding="utf-8")
    helper = _check(project, "--baseline", "baseline.json")
    assert helper.returncode == 1
    # network.py's scalar network is the cross-check of theorem2's sized theorem: its refutation is
    # no point of the sized theorem, so the result is no longer proved (unknown), a regression
    assert "REGRESSION controller_bound.theorem2_single_layer: unknown instead of proved" in helper.stderr
    network.write_text(text, encoding="utf-8")
    restored = _check(project, "--baseline", "baseline.json")
    assert restored.returncode == 0 and "no changes" in restored.stderr


def test_weakened_claim_fails_with_a_point_and_expect_only_edit_reruns_nothing(tmp_path):
    """2 → 3 in _lipschitz_claim: exit 1, 'weakened' with a point, the prose warned; saving the
    baseline accepts it. An expect-only edit (holds → open) is listed and re-runs no discharge."""
    project = _copy_project(tmp_path)
    assert _check(project, "--save-baseline", "baseline.json").returncode == 0
    cue = project / "obligations" / "psy01a" / "cue.py"
    text = cue.read_text(encoding="utf-8")
    cue.write_text(_margin_constant(text, 3), encoding="utf-8")
    weaker = _check(project, "--baseline", "baseline.json")
    assert weaker.returncode == 1
    assert "REGRESSION psy01a.margin_two_lipschitz: claim margin-lipschitz-k2-y0 weakened" in weaker.stderr
    assert "at margin_change = " in weaker.stderr and "+conclusion:" in weaker.stderr
    assert "warning: psy01a.margin_two_lipschitz: the statement says 2" in weaker.stderr
    accepted = _check(project, "--save-baseline", "baseline.json")
    assert accepted.returncode == 0
    assert _check(project, "--baseline", "baseline.json").returncode == 0

    cue.write_text(text.replace("    expect=Expect.HOLDS,\n    lean=\"Psy01A.margin_two_lipschitz\",",
                                "    expect=Expect.OPEN,\n    lean=\"Psy01A.margin_two_lipschitz\","), encoding="utf-8")
    assert _check(project, "--save-baseline", "baseline.json").returncode == 0  # back to 2, expect open
    cue.write_text(text, encoding="utf-8")  # expect holds again: metadata only
    run = subprocess.run([sys.executable, "-m", "checker", "check", *IDS, "--cache-dir", ".cache", "--baseline",
                          "baseline.json"], cwd=project, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    progress = [line for line in run.stderr.splitlines() if line.startswith("[")]
    assert progress and all(", cached)" in line for line in progress)
    assert "psy01a.margin_two_lipschitz: expect holds instead of open" in run.stderr


def test_an_old_schema_baseline_loads_with_a_note(tmp_path):
    """A schema-1 baseline (no fingerprints, no printed claims) loads; the comparison says claim
    changes cannot be seen against it, and status changes are still regressions."""
    import json

    from checker.store import baseline
    from checker.kernel.printing import print_claim
    from checker.claims import claim
    from checker.report.reports import render_json

    old = [_result("a", Status.PROVED)]
    doc = json.loads(render_json(old))
    doc["schema_version"] = 1
    for r in doc["results"]:
        r.pop("fingerprint", None)
        r.pop("claims", None)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    before = baseline.load(path)
    assert before[0].claims is None
    printed = print_claim(claim("c", "x", lambda o, v: o.le(v.x, v.x)))
    import dataclasses

    after = [dataclasses.replace(_result("a", Status.REFUTED), claims=(printed.to_json(),))]
    changes = baseline.compare(before, after)
    assert any(c.kind == "note" and "cannot be seen" in c.message for c in changes)
    assert any(c.kind == "status" and c.regression for c in changes)


def test_claim_diff_over_sizes():
    """A claim at fixed sizes of a statement about every size: "equivalent" there is not accepted
    silently; a claim for every size is related for every size (shared aggregates are opaque), and a
    change of norm (sup norm for the Euclidean one) is never "equivalent"."""
    from checker.claims import claim, sized_claim
    from checker.kernel.printing import print_claim
    from checker.store.baseline import claim_changes

    def printed(c, sized=False):
        return {**print_claim(c).to_json(), **({"sized": c.shapes_text()} if sized else {})}

    scalar_l2 = claim("bound", "x", lambda o, v: o.le(v.x * v.x, o.abs(v.x) * o.abs(v.x)))
    scalar_sup = claim("bound", "x", lambda o, v: o.le(v.x * v.x, o.max(o.abs(v.x)) * o.max(o.abs(v.x))))
    [change] = claim_changes("t.b", [printed(scalar_l2)], [printed(scalar_sup)], sizes_only="the scalar state")
    assert change.regression and "encoded sizes only (the scalar state)" in change.message

    def sized(bound):
        return sized_claim("bound", "n:nat[1,] m:nat[1,]", "W[n,m] x[m]",
                           lambda o, v: o.le(o.sumsq(v.W @ v.x), bound(o, v)))

    frob = sized(lambda o, v: o.sumsq(v.W) * o.sumsq(v.x))
    doubled = sized(lambda o, v: 2 * o.sumsq(v.W) * o.sumsq(v.x))
    sup = sized(lambda o, v: o.sumsq(v.W) * o.norminf(v.x) * o.norminf(v.x))
    [weaker] = claim_changes("t.b", [printed(frob, True)], [printed(doubled, True)])
    assert weaker.regression and "weakened" in weaker.message
    [stronger] = claim_changes("t.b", [printed(doubled, True)], [printed(frob, True)])
    assert not stronger.regression and "for every size" in stronger.message
    [norm] = claim_changes("t.b", [printed(frob, True)], [printed(sup, True)])
    assert norm.regression and "equivalent" not in norm.message
