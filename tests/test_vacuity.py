"""The default vacuity check: a proof whose hypotheses cannot hold together is not a proof."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from checker.face.cli import ExitCode


def _user_package(tmp_path, body: str) -> dict[str, str]:
    pkg = tmp_path / "userpaper"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "lemmas.py").write_text(textwrap.dedent(body))
    return {"PYTHONPATH": f"{tmp_path}:{sys.path[0] if sys.path[0] else '.'}"}


def _check(tmp_path, env_extra, *args):
    import os

    env = {**os.environ, **env_extra}
    env["PYTHONPATH"] = env_extra["PYTHONPATH"] + os.pathsep + os.environ.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "checker", "--package", "userpaper", "check", "--no-cache",
                           "--quiet", "--format", "json", *args], capture_output=True, text=True, env=env, cwd=tmp_path)


VACUOUS = '''
from checker import Expect, Source, obligation
from checker.backends import smt
from checker.claims import claim

C = claim("x-gt1-lt0", "x", lambda o, v: o.le(v.x, 0),
          hypotheses={"x > 1": lambda o, v: o.gt(v.x, 1), "x < 0": lambda o, v: o.lt(v.x, 0)})
OK = claim("x-gt1", "x", lambda o, v: o.gt(v.x * v.x, 1), hypotheses={"x > 1": lambda o, v: o.gt(v.x, 1)})


@obligation(id="userpaper.vacuous", source=Source("paper.tex", "Lemma 1"), statement="x > 1 and x < 0 imply x ≤ 0.",
            scope="universally over ℝ (z3)", expect=Expect.HOLDS, no_theorem="a test fixture: its result is what the test is about, not a theorem", claims=(C,))
def vacuous(ctx):
    """A lemma whose hypotheses contradict each other: z3 proves it, and it says nothing."""
    return smt.prove(C, ctx)


@obligation(id="userpaper.fine", source=Source("paper.tex", "Lemma 2"), statement="x > 1 implies x² > 1.",
            scope="universally over ℝ (z3)", expect=Expect.HOLDS, no_theorem="a test fixture: its result is what the test is about, not a theorem", claims=(OK,))
def fine(ctx):
    """A genuine lemma: its hypothesis holds at x = 2."""
    return smt.prove(OK, ctx)
'''


def test_a_vacuous_user_lemma_fails_the_plain_check(tmp_path):
    """x > 1 ∧ x < 0 ⇒ x ≤ 0 is proved by z3 but vacuous: plain `check` says so in the row, gives it
    the outcome `vacuous` and exits 1; the genuine lemma next to it is confirmed with a satisfying point."""
    out = _check(tmp_path, _user_package(tmp_path, VACUOUS))
    assert out.returncode == ExitCode.FAILED, out.stdout + out.stderr
    rows = {r["id"]: r for r in json.loads(out.stdout)["results"]}
    bad, good = rows["userpaper.vacuous"], rows["userpaper.fine"]
    assert bad["status"] == "proved" and bad["outcome"] == "vacuous"
    assert bad["vacuity"]["verdict"] == "vacuous" and "cannot hold together" in bad["vacuity"]["reason"]
    assert bad["status_label"] == "proved (vacuous)"
    assert good["outcome"] == "confirmed" and good["vacuity"]["verdict"] == "satisfiable"
    assert good["vacuity"]["claims"][0]["witness"]


def test_a_custom_discharge_without_a_claim_says_vacuity_not_checked(tmp_path):
    body = '''
from checker import Expect, Source, obligation
from checker.kernel.model import Grade
from checker.kernel.verdicts import timed, trusted


@obligation(id="userpaper.custom", source=Source("paper.tex", "Remark"), statement="1 + 1 = 2.",
            scope="one identity", expect=Expect.HOLDS, no_theorem="a test fixture: its result is what the test is about, not a theorem")
def custom(ctx):
    """An exact identity with no declared claim."""
    with timed() as t:  # a proof records the step it rests on
        step = t.step("exact", "python", "evaluate 1 + 1 == 2", str(1 + 1 == 2))
    return trusted("exact arithmetic", step, grade=Grade.UNIVERSAL)
'''
    out = _check(tmp_path, _user_package(tmp_path, body))
    assert out.returncode == ExitCode.OK, out.stdout + out.stderr
    row = json.loads(out.stdout)["results"][0]
    assert row["vacuity"]["verdict"] == "not checked" and "vacuity not checked" in row["vacuity"]["reason"]
