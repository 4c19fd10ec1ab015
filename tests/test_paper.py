"""`obligations paper PAPER.tex`: the paper's theorem-like environments against their obligations.

A paper is parsed (declared environments, labels, inputs, comments), linked to obligations by
``Source("paper.tex", LABEL)`` or ``\\obligation{ID}``, and reported: coverage, dangling links,
numbers of the statement no checked claim has, and a macro file that the paper compiles with.
"""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from checker.kernel.model import Certificate, Expect, Grade, Result, Source, Status
from checker.report import paper as papers
from checker.report.reports import to_document
from tests.helpers import ROOT, cli

_NO_PDFLATEX = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (.ci/run installs texlive)")

PAPER = r"""
\documentclass{article}
\usepackage{amssymb,amsthm}
\newtheorem{theorem}{Theorem}
\newtheorem{prop}[theorem]{Proposition}
\newtheorem*{mainthm}{Main Theorem}
\InputIfFileExists{paper-obstatus.tex}{}{}
\providecommand{\obligation}[1]{}
\providecommand{\obstatus}[1]{}
\providecommand{\obstatusmark}[1]{}
\begin{document}
% \begin{theorem} a commented-out theorem is not one \end{theorem}
\begin{theorem}[ReLU, {a [bracketed]} title]\label{thm:lip}
ReLU is $1$-Lipschitz: $|\mathrm{relu}(x) - \mathrm{relu}(y)| \le |x - y|$ for all real $x, y$.
\end{theorem}
\marginpar{\obstatusmark{thm:lip}}\obstatus{thm:lip}

\begin{prop}\label{prop:additive}
ReLU is additive (50\% of readers believe it): $\mathrm{relu}(x + y) = \mathrm{relu}(x) + \mathrm{relu}(y)$.
\end{prop}
\obstatus{prop:additive}

\begin{mainthm}\label{thm:main}
\obligation{papercat.scaled}
$|\mathrm{relu}(x) - \mathrm{relu}(y)| \le 3\,|x - y|$, as in Lemma 4.
\end{mainthm}
\obstatus{thm:main}

\input{appendix}
\end{document}
"""

APPENDIX = r"""
\begin{theorem}
An unlabelled theorem, with no obligation.
\end{theorem}
"""

CATALOGUE = '''
"""A catalogue citing paper.tex by label."""
from checker import Expect, Source, obligation
from checker.backends import smt
from checker.claims import claim

LIP = claim("lip", "x y", lambda o, v: o.le(o.abs(o.relu(v.x) - o.relu(v.y)), o.abs(v.x - v.y)))
ADD = claim("add", "x y", lambda o, v: o.eq(o.relu(v.x + v.y), o.relu(v.x) + o.relu(v.y)))


@obligation(id="papercat.lip", source=Source("paper.tex", "thm:lip"), statement="ReLU is 1-Lipschitz.",
            scope="over ℝ (z3)", expect=Expect.HOLDS, no_theorem="a test fixture: its result is what the test is about, not a theorem", claims=(LIP,))
def lip(ctx):
    """Theorem thm:lip: z3 proves it."""
    return smt.prove(LIP, ctx)


@obligation(id="papercat.additive", source=Source("paper.tex", "prop:additive"), statement="ReLU is additive.",
            scope="over ℝ (z3)", expect=Expect.HOLDS, no_theorem="a test fixture: its result is what the test is about, not a theorem", claims=(ADD,))
def additive(ctx):
    """Proposition prop:additive, as the paper states it: z3 refutes it."""
    return smt.prove(ADD, ctx)


@obligation(id="papercat.scaled", source=Source("other.tex", "Lemma 4"), statement="ReLU is 1-Lipschitz.",
            scope="over ℝ (z3)", expect=Expect.HOLDS, no_theorem="a test fixture: its result is what the test is about, not a theorem", claims=(LIP,))
def scaled(ctx):
    """Linked from the paper by \\\\obligation: its claim has no constant 3."""
    return smt.prove(LIP, ctx)


@obligation(id="papercat.gone", source=Source("paper.tex", "thm:removed"), statement="A theorem the paper lost.",
            scope="over ℝ (z3)", expect=Expect.HOLDS, no_theorem="a test fixture: its result is what the test is about, not a theorem", claims=(LIP,))
def gone(ctx):
    """Cites a label the paper no longer has."""
    return smt.prove(LIP, ctx)
'''


def _write_paper(tmp_path: Path) -> Path:
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    (tmp_path / "appendix.tex").write_text(APPENDIX, encoding="utf-8")
    return tmp_path / "paper.tex"


def test_the_paper_is_read_as_written(tmp_path: Path):
    """Declared environments (\\newtheorem, \\newtheorem*), titles with brackets, labels,
    \\obligation markers and \\input files are read; commented-out environments are not."""
    paper = papers.read_paper(_write_paper(tmp_path))
    envs = paper.environments
    assert [(e.kind, e.label) for e in envs] == [("theorem", "thm:lip"), ("prop", "prop:additive"),
                                                ("mainthm", "thm:main"), ("theorem", None)]
    assert envs[0].note == "ReLU, {a [bracketed]} title" and envs[0].line == 13 and envs[0].title == "Theorem"
    assert envs[2].title == "Main Theorem" and envs[2].named == ("papercat.scaled",)
    assert envs[3].file == "appendix.tex" and envs[3].key == "appendix.tex:2"
    assert paper.files == ("paper.tex", "appendix.tex")
    assert papers.statement_text(envs[2].text) == "| relu (x) - relu (y)| ≤ 3 |x - y| , as in Lemma 4."


def _result(ob_id, label, status, grade=None, over="", expect=Expect.HOLDS, claims=(), witness=None):
    cert = Certificate("z3", witness=witness, sides={"lhs": "1"} if witness else None, grade=grade, over=over,
                       reason="z3 answered unknown" if status is Status.UNKNOWN else None)
    return Result(ob_id, Source("paper.tex", label), "s", "over ℝ", expect, status, cert, 0.1, claims=claims)


def test_short_statuses_and_marks_say_what_was_shown():
    """The macro texts: ∀, the bounded family, instances, a confirmed counterexample, refuted,
    evidence and undecided results each have their own words and mark; the weakest wins."""
    rows = {r["id"]: r for r in to_document([
        _result("a.univ", "l", Status.PROVED, Grade.UNIVERSAL),
        _result("a.bdd", "l", Status.PROVED, Grade.BOUNDED, "d ≤ 4"),
        _result("a.inst", "l", Status.PROVED, Grade.INSTANCES, "1 point"),
        _result("a.false", "l", Status.REFUTED, expect=Expect.FAILS, witness={"x": "-1"}),
        _result("a.wrong", "l", Status.REFUTED, witness={"x": "-1"}),
        _result("a.ev", "l", Status.SUPPORTED),
        _result("a.open", "l", Status.UNKNOWN)])["results"]}
    assert papers.short_status(rows["a.univ"]) == ("proved ∀", "universal")
    assert papers.short_status(rows["a.bdd"]) == ("proved for d ≤ 4 only", "bounded")
    assert papers.short_status(rows["a.inst"]) == ("proved at 1 point only", "instances")
    assert papers.short_status(rows["a.false"]) == ("confirmed false (counterexample)", "confirmed false")
    assert papers.short_status(rows["a.wrong"]) == ("refuted (counterexample)", "contradicted")
    assert papers.short_status(rows["a.ev"]) == ("evidence only", "evidence")
    assert papers.short_status(rows["a.open"]) == ("unknown", "open")
    env = papers.Environment("theorem", "Theorem", "l", "", "", "p.tex", 1)
    entry = papers.Entry(env, (rows["a.univ"], rows["a.bdd"]))
    assert papers.environment_status(entry) == ("proved ∀; proved for d ≤ 4 only", "bounded")


@_NO_PDFLATEX
def test_paper_command_links_by_source_and_by_name_and_the_paper_compiles(tmp_path: Path):
    """With a catalogue citing paper.tex: coverage per environment (status, grade, none), a
    dangling label and the statement's 3 that no checked claim has are reported (exit 1); the
    macro file is written and the paper compiles with it, every \\obstatus resolved."""
    pkg = tmp_path / "cat" / "papercat"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(CATALOGUE, encoding="utf-8")
    paper = _write_paper(tmp_path)
    out = cli("--package", "papercat", "paper", str(paper), "--jobs", "1", "--no-cache", cwd=tmp_path,
              env={"PYTHONPATH": str(tmp_path / "cat")}, timeout=300)
    text = out.stdout
    assert out.returncode == 1, out.stderr[-2000:]
    assert "paper.tex: 4 theorem-like environments (Theorem 2, Proposition 1, Main Theorem 1); 3 with obligations, 1 without" in text
    assert "papercat.lip  proved ∀  (confirmed)" in text
    assert "papercat.additive  refuted  (contradicted)" in text and "witness: x = " in text
    assert "status: no obligation" in text and "appendix.tex:2" in text
    assert "constants: the statement says 3, which occurs in none of the checked claims" in text
    assert "the statement says 4" not in text  # "Lemma 4" is a reference
    assert "papercat.gone (thm:removed)" in text  # dangling
    macros = (tmp_path / "paper-obstatus.tex").read_text(encoding="utf-8")
    assert "\\@namedef{obstatus@thm:lip}{proved $\\forall$}" in macros
    assert "\\@namedef{obstatusmark@prop:additive}{\\obmarkcontradicted}" in macros
    build = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120)
    assert build.returncode == 0, build.stdout[-2000:]
    log = (tmp_path / "paper.log").read_text(encoding="latin-1")
    assert "No status for" not in log and "Undefined control sequence" not in log


@_NO_PDFLATEX
def test_the_example_paper_prints_its_coverage_writes_its_macros_and_compiles(tmp_path: Path):
    """docs/example-paper: `obligations paper paper.tex` (the shipped catalogue, linked with
    \\obligation) prints the coverage of its six environments and writes paper-obstatus.tex; the
    paper compiles with pdflatex, 0 errors, a status next to each result."""
    for name in ("paper.tex",):
        shutil.copy(ROOT / "docs" / "example-paper" / name, tmp_path / name)
    out = cli("paper", str(tmp_path / "paper.tex"), "--jobs", "2", timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr[-2000:]
    text = out.stdout
    assert text.startswith("paper.tex: 6 theorem-like environments (Proposition 4, Lemma 1, Counterexample 1); "
                           "5 with obligations, 1 without")
    assert "psy01a.margin_two_lipschitz  proved ∀  (confirmed)" in text
    assert "psy01a.hard_pruning_not_lipschitz  refuted  (confirmed)" in text
    assert "Lemma  lem:relu" in text and "status: no obligation" in text and "constants:" not in text
    macros = (tmp_path / "paper-obstatus.tex").read_text(encoding="utf-8")
    for label in ("prop:marginlip", "lem:relu", "prop:maskednorm", "prop:pruningerror", "cex:hardpruning", "prop:softconstant"):
        assert f"\\@namedef{{obstatus@{label}}}" in macros and f"\\@namedef{{obstatusmark@{label}}}" in macros
    assert "{confirmed false (counterexample)}" in macros
    build = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120)
    assert build.returncode == 0, build.stdout[-2000:]
    log = (tmp_path / "paper.log").read_text(encoding="latin-1")
    assert "No status for" not in log and "Overfull" not in log.replace("Overfull \\vbox", "")
    assert (tmp_path / "paper.pdf").stat().st_size > 10_000


def test_from_a_report_an_unknown_name_fails(tmp_path: Path):
    """`--from REPORT.json`: no run; an \\obligation{…} id the report lacks is listed and exits 1."""
    from checker.report.reports import render_json

    (tmp_path / "paper.tex").write_text(textwrap.dedent(r"""
        \begin{lemma}\label{lem:a}\obligation{doc.there, doc.missing}
        For all x, x = x.
        \end{lemma}
        """), encoding="utf-8")
    (tmp_path / "r.json").write_text(render_json([_result("doc.there", "x", Status.PROVED, Grade.UNIVERSAL)]), encoding="utf-8")
    out = cli("paper", str(tmp_path / "paper.tex"), "--from", str(tmp_path / "r.json"), cwd=tmp_path)
    assert out.returncode == 1
    assert "doc.there  proved ∀" in out.stdout and "no loaded catalogue has:\n    doc.missing" in out.stdout
