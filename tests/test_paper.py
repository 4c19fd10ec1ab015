"""`obligations paper PAPER.tex`: the paper's theorem-like environments against their obligations.

A paper is parsed (declared environments, labels, inputs, comments), linked to obligations by
``Source("paper.tex", LABEL)`` or ``\\obligation{ID}``, and reported: coverage, dangling links,
numbers of the statement no checked claim has, and a macro file that the paper compiles with.
"""

from __future__ import annotations

import os
import re
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
              env={"PYTHONPATH": os.pathsep.join((str(tmp_path / "cat"), str(ROOT)))}, timeout=300)
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
        \newtheorem{lemma}{Lemma}
        \begin{lemma}\label{lem:a}\obligation{doc.there, doc.missing}
        For all x, x = x.
        \end{lemma}
        """), encoding="utf-8")
    (tmp_path / "r.json").write_text(render_json([_result("doc.there", "x", Status.PROVED, Grade.UNIVERSAL)]), encoding="utf-8")
    out = cli("paper", str(tmp_path / "paper.tex"), "--from", str(tmp_path / "r.json"), cwd=tmp_path)
    assert out.returncode == 1
    assert "doc.there  proved ∀" in out.stdout and "no loaded catalogue has:\n    doc.missing" in out.stdout


# ------------------------------------------------------------------ soundness of the reading


def _tex(tmp_path: Path, name: str, text: str, cls: str | None = None) -> Path:
    """``text`` (dedented) written to ``name``; with ``cls``, a first line ``\\documentclass{cls}``
    (llncs declares theorem, lemma, claim, proposition, corollary, …)."""
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    head = f"\\documentclass{{{cls}}}\n" if cls else ""
    path.write_text(head + textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def _lemma(tmp_path: Path, name: str, label: str, body: str = "x") -> Path:
    """A file ``name`` holding one lemma labelled ``label``: ``\\begin{lemma}\\label{label} body \\end{lemma}``."""
    return _tex(tmp_path, name, rf"\begin{{lemma}}\label{{{label}}} {body} \end{{lemma}}")


def _doc(*results):
    return to_document(list(results))


def test_a_nested_environment_is_read_as_its_own_and_keeps_its_label_and_obligation(tmp_path: Path):
    """A claim inside a theorem is an environment of its own: its \\obligation and \\label are
    its, not the theorem's; the theorem is not proved by the claim's result."""
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \begin{theorem}\label{thm:main}
        Main theorem, not checked. Its proof uses:
        \begin{claim}\label{cl:sub}\obligation{doc.sub}
        ReLU is $1$-Lipschitz.
        \end{claim}
        \end{theorem}
        \begin{theorem}
        No label of its own.
        \begin{claim}\label{cl:two}\obligation{doc.sub} x \end{claim}
        \end{theorem}
        """, cls="llncs"))
    envs = [(e.kind, e.label, e.named, e.line) for e in paper.environments]
    assert envs == [("theorem", "thm:main", (), 2), ("claim", "cl:sub", ("doc.sub",), 4),
                    ("theorem", None, (), 8), ("claim", "cl:two", ("doc.sub",), 10)]
    cov = papers.coverage(paper, _doc(_result("doc.sub", "x", Status.PROVED, Grade.UNIVERSAL)))
    macros = papers.render_macros(cov)
    assert "\\@namedef{obstatus@thm:main}{no obligation}" in macros
    assert "\\@namedef{obstatus@cl:sub}{proved $\\forall$}" in macros


def test_labels_in_the_optional_argument_and_equations_inside(tmp_path: Path):
    """A \\label in the optional argument (or thmtools' label=) is the environment's; a \\label
    inside an equation is the equation's, even when it comes before the theorem's own."""
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \newtheorem{propo}{Proposition~{\bfseries A}}
        \begin{theorem}[Lipschitz\label{thm:lip}] x \end{theorem}
        \begin{theorem}[name=Lip, label=t:keyval] x \end{theorem}
        \begin{theorem}
        For all $x$, \begin{equation}\label{eq:amgm} x \le x \end{equation} holds.\label{thm:amgm}
        \end{theorem}
        \begin{theorem} only \begin{align} x \label{eq:only} \end{align} \end{theorem}
        \begin{propo}\label{p} $\tfrac12 \le \frac{3}{4}$ \end{propo}
        """, cls="llncs"))
    envs = paper.environments
    assert [e.label for e in envs] == ["thm:lip", "t:keyval", "thm:amgm", None, "p"]
    assert envs[0].note == "Lipschitz" and envs[4].title == "Proposition A"
    assert papers.statement_text(envs[4].text) == "(1)/(2) ≤ (3)/(4)"


def test_comments_verbatim_and_iffalse_are_not_read(tmp_path: Path):
    """comment environments, verbatim blocks, \\verb, \\iffalse … \\fi (not its \\else branch)
    and what follows \\end{document} are not the paper's: a draft theorem there with the real
    theorem's label and an obligation does not make the real one proved."""
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \excludecomment{draft}
        \newif\ifold
        \begin{theorem}\label{t:1} Real, unchecked. \end{theorem}
        \begin{comment}
        \begin{theorem}\label{t:1}\obligation{doc.p} Old draft. \end{theorem}
        \end{comment}
        \begin{verbatim}
        \begin{theorem}\label{t:2}\obligation{doc.p} \end{theorem} 50% \end{verbatim}
        \begin{lstlisting}
        \begin{theorem}\label{t:2}\obligation{doc.p} \end{theorem}
        \end{lstlisting}
        \begin{minted}{latex}
        \begin{theorem}\label{t:2}\obligation{doc.p} \end{theorem}
        \end{minted}
        \begin{draft} \begin{theorem}\label{t:3}\obligation{doc.p} \end{theorem} \end{draft}
        \verb|\begin{theorem}\label{t:2}\obligation{doc.p}\end{theorem}|
        \iffalse
        \ifold nested \fi % \fi in a comment does not end it
        \begin{lemma}\label{t:4}\obligation{doc.p} Old. \end{lemma}
        \else
        \begin{lemma}\label{t:5} The else branch is read. \end{lemma}
        \fi
        \iftrue \begin{lemma}\label{t:6} read \end{lemma} \else \begin{lemma}\label{t:6}\obligation{doc.p} no \end{lemma} \fi
        \begin{theorem}\label{t:7} After. \end{theorem}
        \end{document}
        \begin{theorem}\label{t:7}\obligation{doc.p} after the end \end{theorem}
        """, cls="llncs"))
    assert [(e.label, e.named) for e in paper.environments] == [
        ("t:1", ()), ("t:5", ()), ("t:6", ()), ("t:7", ())]
    assert paper.environments[1].line == 22
    macros = papers.render_macros(papers.coverage(paper, _doc(_result("doc.p", "x", Status.PROVED, Grade.UNIVERSAL))))
    assert "proved" not in macros.split("\\makeatletter")[1].replace("\\providecommand", "")


def test_duplicate_labels_are_ambiguous_never_another_environments_status(tmp_path: Path):
    """Two environments with one label: the label's \\obstatus says it is ambiguous (no proof of
    either is shown), results citing it go to neither, and the coverage lists it."""
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \begin{theorem}\label{t:x} Unchecked. \end{theorem}
        \begin{theorem}\label{t:x}\obligation{doc.p} Checked. \end{theorem}
        """, cls="llncs"))
    doc = _doc(_result("doc.p", "y", Status.PROVED, Grade.UNIVERSAL), _result("doc.q", "t:x", Status.PROVED, Grade.UNIVERSAL))
    cov = papers.coverage(paper, doc)
    assert set(cov.duplicates) == {"t:x"} and cov.unattributed == ("doc.q (t:x)",)
    assert [r["id"] for r in cov.entries[0].rows] == [] and [r["id"] for r in cov.entries[1].rows] == ["doc.p"]
    macros = papers.render_macros(cov)
    assert macros.count("\\@namedef{obstatus@t:x}") == 1
    assert "\\@namedef{obstatus@t:x}{ambiguous label: 2 environments have it (paper.tex:2," in macros
    assert "\\@namedef{obstatusmark@t:x}{\\obmarkambiguous}" in macros
    text = papers.render_coverage(cov)
    assert "labels that more than one environment has" in text and "t:x: paper.tex:2, paper.tex:3" in text


def test_duplicate_labels_warn_and_fail_under_strict(tmp_path: Path):
    from checker.report.reports import render_json

    _tex(tmp_path, "paper.tex", r"""
        \begin{theorem}\label{t:x}\obligation{doc.p} A. \end{theorem}
        \begin{theorem}\label{t:x}\obligation{doc.p} B. \end{theorem}
        """, cls="llncs")
    (tmp_path / "r.json").write_text(render_json([_result("doc.p", "y", Status.PROVED, Grade.UNIVERSAL)]), encoding="utf-8")
    out = cli("paper", "paper.tex", "--from", "r.json", cwd=tmp_path)
    assert out.returncode == 0 and "warning: label t:x is used by 2 environments" in out.stderr
    out = cli("paper", "paper.tex", "--from", "r.json", "--strict", cwd=tmp_path)
    assert out.returncode == 1 and "error: label t:x is used by 2 environments" in out.stderr


def test_inputs_resolve_from_the_main_files_folder_as_latex_does(tmp_path: Path):
    """\\input and \\include name files relative to the folder LaTeX runs in (the main file's),
    not the including file's; \\input without braces is read; a commented \\input is not."""
    _tex(tmp_path, "paper.tex", r"""
        \input{sections/a}
        \include{sections/b}
        \input sections/c
        \input{sections/d.tex}
        %\input{sections/e}
        """, cls="llncs")
    _tex(tmp_path, "sections/a.tex", r"\input{f}")
    _lemma(tmp_path, "sections/b.tex", "b", "B")
    _lemma(tmp_path, "sections/c.tex", "c", "C")
    _lemma(tmp_path, "sections/d.tex", "d", "D")
    _lemma(tmp_path, "sections/e.tex", "e", "E")
    _tex(tmp_path, "sections/f.tex", r"\begin{lemma}\label{ff}\obligation{doc.p} never read \end{lemma}")
    _tex(tmp_path, "f.tex", r"\begin{lemma}\label{ff} the one LaTeX reads \end{lemma}")
    paper = papers.read_paper(tmp_path / "paper.tex")
    assert paper.files == ("paper.tex", "sections/a.tex", "f.tex", "sections/b.tex", "sections/c.tex", "sections/d.tex")
    assert [(e.label, e.named, e.file) for e in paper.environments] == [
        ("ff", (), "f.tex"), ("b", (), "sections/b.tex"), ("c", (), "sections/c.tex"), ("d", (), "sections/d.tex")]


def test_a_source_path_with_a_folder_must_be_this_papers_path(tmp_path: Path):
    """Source("other-paper/main.tex", …) is not this paper's main.tex; a bare file name still
    names it, and so does its path relative to the project's folder."""
    _tex(tmp_path, "papers/p8/main.tex", r"\begin{theorem}\label{thm:main} Unchecked. \end{theorem}", cls="llncs")
    paper = papers.read_paper(tmp_path / "papers/p8/main.tex", project=tmp_path)
    assert not papers.cites(paper, "other-paper/main.tex")
    assert papers.cites(paper, "main.tex") and papers.cites(paper, "papers/p8/main.tex")
    assert papers.cites(paper, "./papers/p8/main.tex") and not papers.cites(paper, "p8/main.tex")
    other = Result("doc.other", Source("other-paper/main.tex", "thm:main"), "s", "over ℝ", Expect.HOLDS, Status.PROVED,
                   Certificate("z3", grade=Grade.UNIVERSAL), 0.1)
    macros = papers.render_macros(papers.coverage(paper, _doc(other)))
    assert "\\@namedef{obstatus@thm:main}{no obligation}" in macros


def test_a_named_obligation_without_a_result_is_not_checked(tmp_path: Path):
    """\\obligation{a, b} with no result for b: the theorem is 'not checked', never proved,
    even though a is proved; its mark is not a check mark."""
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \begin{lemma}\label{lem:a}\obligation{doc.there, doc.missing} x \end{lemma}
        """, cls="llncs"))
    cov = papers.coverage(paper, _doc(_result("doc.there", "x", Status.PROVED, Grade.UNIVERSAL)), ["doc.missing"])
    assert papers.environment_status(cov.entries[0]) == ("not checked: no result for doc.missing (2 obligations)", "missing")
    macros = papers.render_macros(cov)
    assert "\\@namedef{obstatus@lem:a}{not checked: no result for doc.missing (2 obligations)}" in macros
    assert "\\@namedef{obstatusmark@lem:a}{\\obmarkmissing}" in macros
    cov = papers.coverage(paper, _doc(_result("doc.there", "x", Status.PROVED, Grade.UNIVERSAL),
                                      _result("doc.missing", "x", Status.REFUTED, witness={"x": "1"})))
    assert papers.environment_status(cov.entries[0])[1] == "contradicted"


STALE_CATALOGUE = '''
"""A catalogue whose obligation changed since a report was saved."""
from checker import Expect, Source, obligation
from checker.backends import smt
from checker.claims import claim

LIP = claim("lip", "x y", lambda o, v: o.le(o.abs(o.relu(v.x) - o.relu(v.y)), o.abs(v.x - v.y)))


@obligation(id="stalecat.lip", source=Source("paper.tex", "thm:lip"), statement="ReLU is 1-Lipschitz.",
            scope="over ℝ (z3)", expect=Expect.HOLDS, no_theorem="a test fixture", claims=(LIP,))
def lip(ctx):
    """Theorem thm:lip."""
    return smt.prove(LIP, ctx)
'''


def test_from_a_stale_report_nothing_is_shown_proved(tmp_path: Path):
    """`--from REPORT.json` with the catalogue loadable: a result whose fingerprint is not the
    obligation's current one is stale: 'not checked' in the macros, a warning, exit 1 under
    --strict. Without a catalogue the output says the freshness was not checked."""
    import dataclasses

    from checker.report.reports import render_json

    pkg = tmp_path / "cat" / "stalecat"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(STALE_CATALOGUE, encoding="utf-8")
    _tex(tmp_path, "paper.tex", r"\begin{theorem}\label{thm:lip} ReLU is $1$-Lipschitz. \end{theorem}", cls="llncs")
    old = dataclasses.replace(_result("stalecat.lip", "thm:lip", Status.PROVED, Grade.UNIVERSAL),
                              fingerprint={"digest": "0" * 64, "code": "1" * 64, "granularity": "function"})
    (tmp_path / "r.json").write_text(render_json([old]), encoding="utf-8")
    env = {"PYTHONPATH": os.pathsep.join((str(tmp_path / "cat"), str(ROOT)))}
    out = cli("--package", "stalecat", "paper", "paper.tex", "--from", "r.json", cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "STALE: its code, a helper or a data file changed since the report" in out.stdout
    assert "warning: stalecat.lip: stale result" in out.stderr
    macros = (tmp_path / "paper-obstatus.tex").read_text(encoding="utf-8")
    assert "\\@namedef{obstatus@thm:lip}{not checked: stale result for stalecat.lip}" in macros
    assert "\\@namedef{obstatusmark@thm:lip}{\\obmarkstale}" in macros
    out = cli("--package", "stalecat", "paper", "paper.tex", "--from", "r.json", "--strict", cwd=tmp_path, env=env)
    assert out.returncode == 1 and "error: stalecat.lip: stale result" in out.stderr
    out = cli("--package", "nosuchcatalogue", "paper", "paper.tex", "--from", "r.json", cwd=tmp_path, env=env)
    assert "the freshness of r.json was not checked" in out.stdout + out.stderr


def test_macros_never_overwrite_the_paper_or_a_file_it_reads(tmp_path: Path):
    """--macros naming the paper or a file it \\inputs is a usage error (exit 2), nothing written;
    an earlier macro file the paper inputs may be rewritten."""
    from checker.report.reports import render_json

    main = _tex(tmp_path, "m.tex", r"""
        \input{part}
        \input{m-obstatus}
        \begin{theorem}\label{t} x \end{theorem}
        """, cls="llncs")
    part = _lemma(tmp_path, "part.tex", "l", "y")
    (tmp_path / "m-obstatus.tex").write_text("% Generated by `obligations paper m.tex`: old\n", encoding="utf-8")
    (tmp_path / "r.json").write_text(render_json([]), encoding="utf-8")
    before = main.read_text(encoding="utf-8"), part.read_text(encoding="utf-8")
    for target in ("m.tex", "part.tex", "./sub/../part.tex"):
        out = cli("paper", "m.tex", "--from", "r.json", "--macros", target, cwd=tmp_path)
        assert out.returncode == 2 and "--macros" in out.stderr, out.stderr
    assert (main.read_text(encoding="utf-8"), part.read_text(encoding="utf-8")) == before
    (tmp_path / "sub").mkdir()
    out = cli("paper", "m.tex", "--from", "r.json", "--macros", "m-obstatus.tex", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "\\@namedef{obstatus@t}{no obligation}" in (tmp_path / "m-obstatus.tex").read_text(encoding="utf-8")


# ------------------------------------------------------------------ what counts as an environment


def _proved(ob_id: str, label: str = "x"):
    return _result(ob_id, label, Status.PROVED, Grade.UNIVERSAL)


def test_environment_names_with_digits_and_hyphens_are_read(tmp_path: Path):
    """\\newtheorem{step2} and {sub-claim} are theorem-like like any other name LaTeX accepts: a
    nested one's \\obligation is its own, and the theorem around it is not proved by it."""
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \newtheorem{thm}{Theorem}
        \newtheorem{step2}{Step}
        \newtheorem{sub-claim}{Subclaim}
        \newtheorem{thm.x_1}{Odd}
        \begin{thm}\label{n:a} Main A.
        \begin{step2}\label{n:a1}\obligation{doc.p} A step. \end{step2}
        \end{thm}
        \begin{thm}\label{n:b} Main B.
        \begin{sub-claim}\label{n:b1}\obligation{doc.p} A subclaim. \end{sub-claim}
        \end{thm}
        \begin{thm.x_1}\label{n:c} odd \end{thm.x_1}
        \begin{ thm }\label{n:d}\obligation{doc.p} not thm: LaTeX has no environment ' thm ' \end{ thm }
        """))
    assert [(e.kind, e.label, e.named) for e in paper.environments] == [
        ("thm", "n:a", ()), ("step2", "n:a1", ("doc.p",)), ("thm", "n:b", ()), ("sub-claim", "n:b1", ("doc.p",)),
        ("thm.x_1", "n:c", ())]
    macros = papers.render_macros(papers.coverage(paper, _doc(_proved("doc.p"))))
    assert "\\@namedef{obstatus@n:a}{no obligation}" in macros and "\\@namedef{obstatus@n:b}{no obligation}" in macros
    assert "\\@namedef{obstatus@n:a1}{proved $\\forall$}" in macros


def test_only_declared_environments_are_read(tmp_path: Path):
    """An environment is read when the paper declares it (\\newtheorem, …) or its class does
    (llncs: claim, lemma, …; a class or package file beside the paper is read for declarations);
    an undeclared \\begin{claim} is none (LaTeX would stop at it)."""
    _tex(tmp_path, "mystyle.sty", r"""
        \newtheorem{lem}{Lemma}
        \newcommand{\later}{\newtheorem{obs}{Observation}}
        """)
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \documentclass{article}
        \usepackage[opt]{amsthm, mystyle}
        \newtheorem{theorem}{Theorem}
        \begin{theorem}\label{t} x \end{theorem}
        \begin{claim}\label{c} not declared \end{claim}
        \begin{lemma}\label{l} not declared \end{lemma}
        \begin{lem}\label{m} declared in mystyle.sty \end{lem}
        \begin{obs}\label{o} declared by a macro \end{obs}
        """))
    assert [(e.label, e.title) for e in paper.environments] == [("t", "Theorem"), ("m", "Lemma"), ("o", "Observation")]
    assert "mystyle.sty" not in paper.files
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"\begin{claim}\label{c} x \end{claim}", cls="llncs"))
    assert [(e.label, e.title) for e in paper.environments] == [("c", "Claim")]


def test_a_subfile_is_read_between_its_begin_and_end_document(tmp_path: Path):
    """\\subfile{x} where x.tex has its own preamble and \\end{document}: its body is read, its
    preamble is not, and its \\end{document} ends the subfile, not the main file."""
    _tex(tmp_path, "sec/a.tex", r"""
        \documentclass[../paper.tex]{subfiles}
        \newtheorem{pre}{Preamble only}
        \begin{document}
        \begin{theorem}\label{a}\obligation{doc.p} In the subfile. \end{theorem}
        \end{document}
        \begin{theorem}\label{a2}\obligation{doc.p} After the subfile's end. \end{theorem}
        """)
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \usepackage{subfiles}
        \begin{document}
        \subfile{sec/a}
        \begin{theorem}\label{b} After the subfile, unchecked. \end{theorem}
        \begin{pre}\label{c} not declared here \end{pre}
        \end{document}
        \begin{theorem}\label{z}\obligation{doc.p} after the end \end{theorem}
        """, cls="llncs"))
    assert sorted((e.label, e.file, e.named) for e in paper.environments) == [
        ("a", "sec/a.tex", ("doc.p",)), ("b", "paper.tex", ())]


def test_endinput_inside_a_definition_ends_nothing(tmp_path: Path):
    """\\newcommand{\\stop}{\\endinput} (or \\def, or in braces) does not end the file; a
    top-level \\endinput ends it after its line."""
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \newcommand{\stopreading}{\endinput}
        \def\stopagain#1{#1\endinput}
        \newcommand*\another[1][x]{% a comment }
        \endinput}
        \begin{theorem}\label{a}\obligation{doc.p} read \end{theorem}
        \endinput \begin{theorem}\label{b} same line: read \end{theorem}
        \begin{theorem}\label{c}\obligation{doc.p} not read \end{theorem}
        """, cls="llncs"))
    assert [e.label for e in paper.environments] == ["a", "b"]


def test_an_environment_defined_to_open_a_theorem_is_one(tmp_path: Path):
    """\\newenvironment{mainthm}{\\begin{thm}}{\\end{thm}}: the definition is no theorem, and
    \\begin{mainthm} is a theorem with its label and obligation (its title the inner one's)."""
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \newtheorem{thm}{Theorem}
        \newenvironment{mainthm}{\begin{thm}}{\end{thm}}
        \NewDocumentEnvironment{wrapped}{o}{\begin{mainthm}[#1]}{\end{mainthm}}
        \newenvironment{plain}{\par\textit{Note.}}{\par}
        \newcommand{\fake}{\begin{thm}\label{w:fake}\obligation{doc.p}\end{thm}}
        \begin{mainthm}\label{w:a}\obligation{doc.refuted} Wrapped. \end{mainthm}
        \begin{wrapped}[T]\label{w:b} Twice wrapped. \end{wrapped}
        \begin{plain}\label{w:c} not a theorem \end{plain}
        """))
    assert [(e.kind, e.title, e.label, e.named) for e in paper.environments] == [
        ("mainthm", "Theorem", "w:a", ("doc.refuted",)), ("wrapped", "Theorem", "w:b", ())]
    cov = papers.coverage(paper, _doc(_proved("doc.p"), _result("doc.refuted", "x", Status.REFUTED, witness={"x": "1"})))
    assert papers.label_status(cov, "w:a") == ("refuted (counterexample)", "contradicted")


def test_specialcomment_environments_are_typeset_and_read(tmp_path: Path):
    """The comment package: \\specialcomment and \\includecomment environments are typeset, so
    their theorems are the paper's; only \\excludecomment ones (and comment) are not."""
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \excludecomment{draft}
        \specialcomment{shown}{\par}{\par}
        \excludecomment{later}
        \includecomment{later}
        \begin{draft} \begin{theorem}\label{a}\obligation{doc.p} dropped \end{theorem} \end{draft}
        \begin{shown} \begin{theorem}\label{b} typeset, unchecked \end{theorem} \end{shown}
        \begin{later} \begin{theorem}\label{c} typeset \end{theorem} \end{later}
        \begin{theorem}\label{a} the real one \end{theorem}
        """, cls="llncs"))
    assert [(e.label, e.named) for e in paper.environments] == [("b", ()), ("c", ()), ("a", ())]


def test_a_label_in_a_footnote_or_caption_is_not_the_theorems(tmp_path: Path):
    """A \\label inside \\footnote{…}, \\caption{…} or \\item[…] before the theorem's own label
    labels the footnote, caption or item."""
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \begin{theorem}\footnote{See\label{fn:x} the appendix.}\label{w:b} x \end{theorem}
        \begin{theorem}[Name\footnote[2]{\label{fn:y}}] \caption[s]{c \label{cap}} y\label{w:c} \end{theorem}
        \begin{theorem} \begin{itemize}\item[\label{it}] z \end{itemize} \label{w:d} \end{theorem}
        \begin{theorem} only a footnote\footnote{\label{fn:z}} \end{theorem}
        """, cls="llncs"))
    assert [e.label for e in paper.environments] == ["w:b", "w:c", "w:d", None]


# ------------------------------------------------------------------ linking and writing


def test_source_paths_are_normalised_before_matching(tmp_path: Path):
    """Source("./paper.tex"), Source(".\\\\paper.tex"), Source("sub/../paper.tex") and a path that
    leads to the paper from the project's folder through '..' all name it."""
    paper = papers.read_paper(_tex(tmp_path, "p/paper.tex", r"\begin{theorem}\label{t} x \end{theorem}", cls="llncs"),
                              project=tmp_path / "proj")
    for source in ("./paper.tex", ".\\paper.tex", "sub/../paper.tex", "../p/paper.tex", "../p/./paper.tex",
                   str(tmp_path / "p" / "." / "paper.tex")):
        assert papers.cites(paper, source), source
    for source in ("./other.tex", "p/paper.tex", "../q/paper.tex", ".", ""):
        assert not papers.cites(paper, source), source
    row = Result("doc.p", Source("./paper.tex", "t"), "s", "over ℝ", Expect.HOLDS, Status.PROVED,
                 Certificate("z3", grade=Grade.UNIVERSAL), 0.1)
    assert "\\@namedef{obstatus@t}{proved $\\forall$}" in papers.render_macros(papers.coverage(paper, _doc(row)))


def test_macros_never_overwrite_an_existing_file_it_did_not_write(tmp_path: Path):
    """--macros naming any existing file that is not an earlier macro file (a local .sty, a .bib,
    an \\InputIfFileExists target, a file the paper does not read at all) is a usage error and
    leaves it as it was; a new file is written."""
    from checker.report.reports import render_json

    _tex(tmp_path, "paper.tex", r"""
        \usepackage{mystyle}
        \InputIfFileExists{extra.tex}{}{}
        \begin{theorem}\label{t} x \end{theorem}
        \bibliography{refs}
        """, cls="llncs")
    (tmp_path / "r.json").write_text(render_json([]), encoding="utf-8")
    for name in ("mystyle.sty", "refs.bib", "extra.tex", "notes.txt"):
        (tmp_path / name).write_text(f"% {name}: mine\n", encoding="utf-8")
        out = cli("paper", "paper.tex", "--from", "r.json", "--macros", name, cwd=tmp_path)
        assert out.returncode == 2 and "is not a macro file this command wrote" in out.stderr, out.stderr
        assert (tmp_path / name).read_text(encoding="utf-8") == f"% {name}: mine\n"
    out = cli("paper", "paper.tex", "--from", "r.json", "--macros", "new-status.tex", cwd=tmp_path)
    assert out.returncode == 0 and (tmp_path / "new-status.tex").read_text(encoding="utf-8").startswith("% Generated by")
    assert "for 1 label;" in out.stdout


# ------------------------------------------------------------------ --from: freshness


DEP_CATALOGUE = '''
"""Obligations citing paper.tex, one resting on another."""
from checker import Expect, Source, obligation
from checker.backends import smt
from checker.claims import claim

BASE = claim("base", "x", lambda o, v: o.ge(o.relu(v.x), 0))
TOP = claim("top", "x", lambda o, v: o.ge(o.relu(v.x), v.x))


@obligation(id="PKG.base", source=Source("paper.tex", "d:base"), statement="relu(x) ≥ 0.", scope="z3",
            expect=Expect.HOLDS, no_theorem="a test fixture", claims=(BASE,))
def base(ctx):
    """Base."""
    return smt.prove(BASE, ctx)


@obligation(id="PKG.top", source=Source("paper.tex", "d:top"), uses=("PKG.base",), statement="relu(x) ≥ x.",
            scope="z3", expect=Expect.HOLDS, no_theorem="a test fixture", claims=(TOP,))
def top(ctx):
    """Top, resting on base."""
    return smt.prove(TOP, ctx)


@obligation(id="PKG.moved", source=Source("paper.tex", "t:new"), statement="relu(x) ≥ 0.", scope="z3",
            expect=Expect.HOLDS, no_theorem="a test fixture", claims=(BASE,))
def moved(ctx):
    """Cites t:new now; the report has it citing t:old."""
    return smt.prove(BASE, ctx)
'''


def _catalogue_and_report(tmp_path: Path, monkeypatch, pkg: str, paper: str, rows: dict[str, str | None],
                          sources: dict[str, str] | None = None) -> dict[str, str]:
    """A catalogue ``pkg`` (DEP_CATALOGUE), the paper, and r.json with a proved row per id of
    ``rows``: ``"fresh"`` with the obligation's current fingerprint, else the given code digest.
    Returns the environment to run the command with."""
    import dataclasses

    from checker.report.reports import render_json
    from checker.run.discovery import discover
    from checker.store.fingerprint import code_fingerprint

    (tmp_path / "cat" / pkg).mkdir(parents=True)
    (tmp_path / "cat" / pkg / "__init__.py").write_text(DEP_CATALOGUE.replace("PKG", pkg), encoding="utf-8")
    _tex(tmp_path, "paper.tex", paper, cls="llncs")
    monkeypatch.syspath_prepend(str(tmp_path / "cat"))
    by_id = {ob.id: ob for ob in discover(pkg).obligations}
    out = []
    for ob_id, code in rows.items():
        ob = by_id.get(ob_id)
        if code == "fresh":
            code = code_fingerprint(ob, {pkg, "obligations"}).digest
        label = (sources or {}).get(ob_id) or (ob.source.label if ob else "x")
        row = dataclasses.replace(_proved(ob_id, label), fingerprint={"digest": "0" * 64, "code": code, "granularity": "function"})
        out.append(row)
    (tmp_path / "r.json").write_text(render_json(out), encoding="utf-8")
    return {"PYTHONPATH": os.pathsep.join((str(tmp_path / "cat"), str(ROOT)))}


def test_from_a_result_resting_on_a_stale_one_is_stale(tmp_path: Path, monkeypatch):
    """--from: d:top's own result is fresh, but the obligation it uses (per the catalogue) is stale,
    or has no result in the report: d:top is not shown proved."""
    paper = r"""
        \begin{theorem}\label{d:top} top \end{theorem}
        \begin{theorem}\label{d:base} base \end{theorem}
        """
    env = _catalogue_and_report(tmp_path, monkeypatch, "depcat1", paper, {"depcat1.top": "fresh", "depcat1.base": "1" * 64})
    out = cli("--package", "depcat1", "paper", "paper.tex", "--from", "r.json", cwd=tmp_path, env=env)
    macros = (tmp_path / "paper-obstatus.tex").read_text(encoding="utf-8")
    assert "\\@namedef{obstatus@d:top}{not checked: stale result for depcat1.top}" in macros, out.stdout
    assert "STALE: it rests on a stale result: depcat1.base (its code, a helper or a data file changed" in out.stdout
    (tmp_path / "paper.tex").write_text(r"\documentclass{llncs}\begin{theorem}\label{d:top} top \end{theorem}", encoding="utf-8")
    _catalogue_and_report(tmp_path / "b", monkeypatch, "depcat1b", paper, {"depcat1b.top": "fresh"})
    out = cli("--package", "depcat1b", "paper", "paper.tex", "--from", "r.json", cwd=tmp_path / "b", env=env | {
        "PYTHONPATH": os.pathsep.join((str(tmp_path / "b" / "cat"), str(ROOT)))})
    assert "STALE: it rests on depcat1b.base, which the report has no result for" in out.stdout, out.stdout + out.stderr
    assert "proved" not in (tmp_path / "b" / "paper-obstatus.tex").read_text(encoding="utf-8").split("\\makeatletter")[1]


def test_from_a_result_whose_source_changed_is_stale_and_linked_by_the_current_source(tmp_path: Path, monkeypatch):
    """--from: the report has depcat2.moved citing t:old, the catalogue cites t:new: t:old has no
    obligation now, and t:new shows the result as stale (its source changed), not proved."""
    env = _catalogue_and_report(tmp_path, monkeypatch, "depcat2", r"""
        \begin{theorem}\label{t:old} old \end{theorem}
        \begin{theorem}\label{t:new} new \end{theorem}
        """, {"depcat2.moved": "fresh"}, sources={"depcat2.moved": "t:old"})
    out = cli("--package", "depcat2", "paper", "paper.tex", "--from", "r.json", cwd=tmp_path, env=env)
    macros = (tmp_path / "paper-obstatus.tex").read_text(encoding="utf-8")
    assert "\\@namedef{obstatus@t:old}{no obligation}" in macros, out.stdout
    assert "\\@namedef{obstatus@t:new}{not checked: stale result for depcat2.moved}" in macros
    assert "STALE: its source is paper.tex t:new now, paper.tex t:old in the report" in out.stdout


def test_from_an_id_the_catalogue_lacks_is_stale_even_when_all_are_gone(tmp_path: Path, monkeypatch):
    """--from: the paper links only an id the loaded catalogue does not have (renamed, deleted, or
    in a module that did not load): its saved result is stale, never shown proved."""
    env = _catalogue_and_report(tmp_path, monkeypatch, "depcat3", r"""
        \begin{theorem}\label{t:a}\obligation{depcat3.renamed} a \end{theorem}
        \begin{theorem}\label{t:b}\obligation{depcat3.brokenlip} b \end{theorem}
        """, {"depcat3.renamed": "1" * 64, "depcat3.brokenlip": "1" * 64})
    out = cli("--package", "depcat3", "paper", "paper.tex", "--from", "r.json", cwd=tmp_path, env=env)
    macros = (tmp_path / "paper-obstatus.tex").read_text(encoding="utf-8")
    assert "\\@namedef{obstatus@t:a}{not checked: stale result for depcat3.renamed}" in macros, out.stdout + out.stderr
    assert "freshness" not in out.stdout + out.stderr
    # a catalogue module that does not load: what it declared is not known, so its results are stale
    (tmp_path / "cat" / "depcat3" / "broken.py").write_text("raise ImportError('broken on purpose')\n", encoding="utf-8")
    out = cli("--package", "depcat3", "paper", "paper.tex", "--from", "r.json", cwd=tmp_path, env=env)
    macros = (tmp_path / "paper-obstatus.tex").read_text(encoding="utf-8")
    assert "\\@namedef{obstatus@t:b}{not checked: stale result for depcat3.brokenlip}" in macros, out.stdout + out.stderr
    assert "or its module did not load" in out.stdout


def test_from_without_a_catalogue_every_status_is_marked_unchecked(tmp_path: Path, monkeypatch):
    """--from with no loadable catalogue: the note stays, each status says it is as saved with its
    freshness not checked and has the unchecked mark (not a plain check mark); --strict fails."""
    env = _catalogue_and_report(tmp_path, monkeypatch, "depcat4", r"""
        \begin{theorem}\label{d:base} base \end{theorem}
        \begin{theorem}\label{t:new} new \end{theorem}
        """, {"depcat4.base": "fresh", "depcat4.moved": "fresh"})
    out = cli("--package", "nosuchcatalogue", "paper", "paper.tex", "--from", "r.json", cwd=tmp_path, env=env)
    assert out.returncode == 0 and "the freshness of r.json was not checked" in out.stdout + out.stderr
    macros = (tmp_path / "paper-obstatus.tex").read_text(encoding="utf-8")
    assert "\\@namedef{obstatus@d:base}{proved $\\forall$ (as saved in r.json; freshness not checked)}" in macros
    assert "\\@namedef{obstatusmark@d:base}{\\obmarkunchecked}" in macros
    out = cli("--package", "nosuchcatalogue", "paper", "paper.tex", "--from", "r.json", "--strict", cwd=tmp_path, env=env)
    assert out.returncode == 1 and "error: the statuses from r.json are shown as saved" in out.stderr
    out = cli("--package", "depcat4", "paper", "paper.tex", "--from", "r.json", "--strict", cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "\\@namedef{obstatus@d:base}{proved $\\forall$}" in (tmp_path / "paper-obstatus.tex").read_text(encoding="utf-8")


def test_from_an_id_the_report_lacks_is_named_so(tmp_path: Path, monkeypatch):
    """--from: an id the paper names (or an obligation citing the paper) that the catalogue has and
    the report has no result for is listed as the report's gap, not as unknown to the catalogue,
    and its environment is not checked."""
    env = _catalogue_and_report(tmp_path, monkeypatch, "depcat5", r"""
        \begin{theorem}\label{t:a}\obligation{depcat5.base} a \end{theorem}
        \begin{theorem}\label{d:top} b \end{theorem}
        """, {})
    out = cli("--package", "depcat5", "paper", "paper.tex", "--from", "r.json", cwd=tmp_path, env=env)
    assert out.returncode == 1
    assert "that the report r.json has no result for (not checked):\n    depcat5.base\n    depcat5.top\n" in out.stdout, out.stdout
    assert "no loaded catalogue has" not in out.stdout
    macros = (tmp_path / "paper-obstatus.tex").read_text(encoding="utf-8")
    assert "\\@namedef{obstatus@d:top}{not checked: no result for depcat5.top}" in macros


def test_a_newif_switch_is_followed(tmp_path: Path):
    """\\newif\\ifdraft is false until \\drafttrue: a draft-only theorem under \\ifdraft is not the paper's
    while the switch is false, and its \\else branch is; after \\drafttrue, the other way round."""
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \newif\ifdraft
        \ifdraft \begin{theorem}\label{d:1}\obligation{doc.p} Draft only. \end{theorem}
        \else \begin{theorem}\label{d:2} Final. \end{theorem} \fi
        \drafttrue
        \ifdraft \begin{theorem}\label{d:3} Now read. \end{theorem}
        \else \begin{theorem}\label{d:4}\obligation{doc.p} Not read. \end{theorem} \fi
        \draftfalse
        \ifdraft \begin{theorem}\label{d:5}\obligation{doc.p} Off again. \end{theorem} \fi
        """, cls="llncs"))
    assert [e.label for e in paper.environments] == ["d:2", "d:3"]


def test_the_import_packages_commands_are_followed_with_its_folder_rules(tmp_path: Path):
    """\\import{dir/}{f} reads dir/f.tex, and what f inputs is sought in dir/ first (beside the main
    file only after); \\subimport appends to the import folder of the file it is in; \\inputfrom,
    \\subinputfrom, \\includefrom, \\subincludefrom and the starred forms are read the same way."""
    _tex(tmp_path, "paper.tex", r"""
        \usepackage{import}
        \import{chapters/}{one}
        \subimport*{parts}{p}
        \inputfrom{x/}{a}
        \includefrom*{z/}{c}
        """, cls="llncs")
    _tex(tmp_path, "chapters/one.tex", r"""
        \begin{lemma}\label{one} One. \end{lemma}
        \input{two}
        \subimport{deep/}{three}
        \subincludefrom{deep/}{five}
        \subinputfrom{deep/}{six}
        """)
    _tex(tmp_path, "chapters/two.tex", r"\begin{lemma}\label{two} in the import folder \end{lemma}")
    _tex(tmp_path, "two.tex", r"\begin{lemma}\label{two-root}\obligation{doc.p} beside the main file \end{lemma}")
    _tex(tmp_path, "chapters/deep/three.tex", r"\begin{lemma}\label{three} x \end{lemma}\input{four}")
    _lemma(tmp_path, "chapters/deep/four.tex", "four")
    _lemma(tmp_path, "chapters/deep/five.tex", "five")
    _lemma(tmp_path, "chapters/deep/six.tex", "six")
    _lemma(tmp_path, "parts/p.tex", "p")
    _lemma(tmp_path, "x/a.tex", "a")
    _lemma(tmp_path, "z/c.tex", "c")
    paper = papers.read_paper(tmp_path / "paper.tex")
    assert [e.label for e in paper.environments] == ["one", "two", "three", "four", "five", "six", "p", "a", "c"]
    assert paper.files[:4] == ("paper.tex", "chapters/one.tex", "chapters/two.tex", "chapters/deep/three.tex")


def test_includeonly_leaves_out_the_files_it_does_not_name(tmp_path: Path):
    """\\includeonly{sec/a, b}: \\include{c} is not typeset, so its theorem is not read, and the
    coverage says so; \\input is not affected."""
    _tex(tmp_path, "paper.tex", r"""
        \includeonly{sec/a, b}
        \begin{document}
        \include{sec/a}
        \include{b}
        \include{c}
        \input{d}
        \end{document}
        """, cls="llncs")
    for name in ("sec/a", "b", "c", "d"):
        _tex(tmp_path, f"{name}.tex", rf"\begin{{lemma}}\label{{{name}}}\obligation{{doc.p}} x \end{{lemma}}")
    paper = papers.read_paper(tmp_path / "paper.tex")
    assert [e.label for e in paper.environments] == ["sec/a", "b", "d"]
    assert paper.unread == ("not read: c.tex (not in \\includeonly)",)
    out = papers.render_coverage(papers.coverage(paper, _doc(_proved("doc.p"))))
    assert "\nnot read: c.tex (not in \\includeonly)\n" in out


def test_texinputs_folders_are_searched_as_tex_does(tmp_path: Path, monkeypatch):
    """With TEXINPUTS, a file not beside the main file is sought in its folders (``dir//``: and
    every folder under it), in order, the empty entry standing for the main file's folder; a
    package found there is read for declarations. Without it, such a file is not read."""
    _tex(tmp_path, "paper/paper.tex", r"""
        \usepackage{mythm}
        \input{far}
        \input{both}
        \input{local}
        """, cls="llncs")
    _tex(tmp_path, "paper/local.tex", r"\begin{obs}\label{local} x \end{obs}")
    _lemma(tmp_path, "paper/both.tex", "both-local")
    _lemma(tmp_path, "lib/sub/far.tex", "far")
    _lemma(tmp_path, "lib/both.tex", "both-lib")
    _tex(tmp_path, "lib/sty/mythm.sty", r"\newtheorem{obs}{Observation}")
    monkeypatch.delenv("TEXINPUTS", raising=False)
    assert [e.label for e in papers.read_paper(tmp_path / "paper/paper.tex").environments] == ["both-local"]
    monkeypatch.setenv("TEXINPUTS", f"{tmp_path / 'lib'}//:")
    paper = papers.read_paper(tmp_path / "paper/paper.tex")
    assert [e.label for e in paper.environments] == ["far", "both-lib", "local"]
    monkeypatch.setenv("TEXINPUTS", f".:{tmp_path / 'lib'}//")
    assert [e.label for e in papers.read_paper(tmp_path / "paper/paper.tex").environments] == [
        "far", "both-local", "local"]
    root = tmp_path / "paper"
    folders = lambda texinputs: [list(e.folders) for e in papers.tex_path(root, texinputs)]  # noqa: E731
    assert folders("") == [[root]]
    assert folders("../lib") == [[root / "../lib"]]
    assert folders("../lib//:") == [[root / "../lib", root / "../lib/sty", root / "../lib/sub"], [root]]


def test_an_argument_less_macro_that_inputs_is_expanded_where_it_is_used(tmp_path: Path):
    """\\newcommand{\\secA}{\\input{sections/a}} reads sections/a.tex where \\secA is used (not where it
    is defined), through other macros too; a macro redefined to read nothing reads nothing; a macro
    with arguments that reads files is not guessed at: the coverage names it."""
    _tex(tmp_path, "paper.tex", r"""
        \newcommand{\secA}{\input{sections/a}}
        \long\def\secB{\secA\input{sections/b}}
        \newcommand{\secC}[1]{\input{sections/#1}}
        \newcommand*{\never}{\input{sections/never}}
        \renewcommand{\never}{}
        \newcommand{\again}{\input{sections/a}\again}
        \begin{theorem}\label{t0} first \end{theorem}
        \secB
        \secC{c}
        \never
        \again
        """, cls="llncs")
    for name in ("a", "b", "c", "never"):
        _tex(tmp_path, f"sections/{name}.tex", rf"\begin{{lemma}}\label{{{name}}}\obligation{{doc.p}} x \end{{lemma}}")
    paper = papers.read_paper(tmp_path / "paper.tex")
    # \again reads sections/a again (a second time: TeX would go on until its stack overflows)
    assert [e.label for e in paper.environments] == ["t0", "a", "b", "a"]
    assert paper.unread == ("not followed: \\secC (a macro with arguments that reads files)",)
    out = papers.render_coverage(papers.coverage(paper, _doc(_proved("doc.p"))))
    assert "not followed: \\secC (a macro with arguments that reads files)" in out


def test_jmlr_and_the_classes_that_load_it_predefine_their_theorems(tmp_path: Path):
    """\\documentclass{jmlr} (JMLR, PMLR) declares theorem, lemma, …, axiom; a proceedings class beside
    the paper that does \\LoadClass{jmlr} (COLT, ALT) declares them too."""
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"""
        \begin{axiom}\label{ax} x \end{axiom}
        \begin{remark}\label{re} x \end{remark}
        \begin{claim}\label{cl} not declared by jmlr \end{claim}
        """, cls="jmlr"))
    assert [(e.label, e.title) for e in paper.environments] == [("ax", "Axiom"), ("re", "Remark")]
    _tex(tmp_path, "colt2025.cls", r"\NeedsTeXFormat{LaTeX2e}\LoadClass[pmlr]{jmlr}")
    paper = papers.read_paper(_tex(tmp_path, "paper.tex", r"\begin{conjecture}\label{cj} x \end{conjecture}",
                                   cls="colt2025"))
    assert [(e.label, e.title) for e in paper.environments] == [("cj", "Conjecture")]


_CLASS_FILES = {"llncs": ("llncs.cls",), "svjour3": ("svjour3.cls",), "acmart": ("acmart.cls",),
                "lipics-v2021": ("lipics-v2021.cls",), "jmlr": ("jmlr.cls", "jmlrutils.sty")}


@pytest.mark.parametrize("cls", sorted(_CLASS_FILES))
def test_each_class_list_is_what_the_class_file_declares(cls: str):
    """The hand-written list of a class's theorem-like environments is the set its class file (and
    the package of its own it loads) declares, where TeX Live has the file (``kpsewhich``)."""
    if shutil.which("kpsewhich") is None:
        pytest.skip("kpsewhich not installed")
    found = [subprocess.run(["kpsewhich", f], capture_output=True, text=True).stdout.strip()
             for f in _CLASS_FILES[cls]]
    if not all(found):
        pytest.skip(f"{_CLASS_FILES[cls][0]} is not in this TeX installation")
    text = "".join(Path(f).read_text(encoding="utf-8", errors="replace") for f in found)
    text = re.sub(r"(?<!\\)%[^\n]*", "", text)
    declared = set(re.findall(r"\\(?:newtheorem|spnewtheorem|spn@wtheorem)\*?\s*\{([^{}#]+)\}", text))
    assert declared - {"proof"} == set(papers.CLASS_ENVIRONMENTS[cls])


def test_a_class_file_of_the_tex_installation_is_read_before_the_known_list(tmp_path: Path, monkeypatch):
    """Where TeX has the class file (kpsewhich), what it declares is what the class predefines,
    rather than the hand-written list: its own packages beside it count, an option's code does not
    run unless given, \\spn@wtheorem declares, its proof environment is no statement, and an \\input
    in it is not one of the paper's files."""
    texmf = tmp_path / "texmf/llncs"
    _tex(tmp_path, "texmf/llncs/llncs.cls", r"""
        \newif\ifthms \thmstrue
        \DeclareOption{nothms}{\thmsfalse}
        \RequirePackage{llncsthm}
        \input{chapter}
        \ifthms \spnewtheorem{theorem}{Theorem}{\bfseries}{\itshape} \fi
        \spnewtheorem*{proof}{Proof}{\itshape}{\rmfamily}
        """)
    _tex(tmp_path, "texmf/llncs/llncsthm.sty", r"\spn@wtheorem{lemma}{Lemma}{\bfseries}{\itshape}")
    _tex(tmp_path, "paper/chapter.tex", r"\begin{theorem}\label{ch}\obligation{doc.p} not the paper's \end{theorem}")
    monkeypatch.setattr(papers, "installed", lambda f: texmf / f if f == "llncs.cls" else None)
    paper = papers.read_paper(_tex(tmp_path, "paper/paper.tex", r"""
        \begin{theorem}\label{t} x \end{theorem}
        \begin{lemma}\label{l} x \end{lemma}
        \begin{claim}\label{c} not in this llncs.cls \end{claim}
        \begin{proof} x \end{proof}
        """, cls="llncs"))
    assert [(e.label, e.title) for e in paper.environments] == [("t", "Theorem"), ("l", "Lemma")]
    assert paper.files == ("paper.tex",)
    monkeypatch.setattr(papers, "installed", lambda f: None)
    paper = papers.read_paper(tmp_path / "paper/paper.tex")
    assert [e.label for e in paper.environments] == ["t", "l", "c"]


def test_file_name_arguments_are_read_without_their_comments(tmp_path: Path):
    """\\includeonly{%⏎ a,%⏎ b%⏎} names a and b (TeX drops a comment with its line break), and so
    does a name split by a comment in \\input or an import command; pdflatex reads a and b only."""
    _tex(tmp_path, "paper.tex", r"""
        \usepackage{import}
        \includeonly{%
          a,%
          b%
        }
        \begin{document}
        \include{a}
        \include{b}
        \include{c}
        \input{d%
          d}
        \import{sub%
        /}{e}
        \end{document}
        """, cls="llncs")
    for name in ("a", "b", "c", "dd", "sub/e"):
        _tex(tmp_path, f"{name}.tex", rf"\begin{{lemma}}\label{{{name}}} x \end{{lemma}}")
    paper = papers.read_paper(tmp_path / "paper.tex")
    assert [e.label for e in paper.environments] == ["a", "b", "dd", "sub/e"]
    assert paper.unread == ("not read: c.tex (not in \\includeonly)",)


def test_an_include_name_ending_in_tex_is_the_name_without_it(tmp_path: Path):
    """\\include{a.tex} is \\include{a} (LaTeX strips the extension), also for \\includeonly."""
    _tex(tmp_path, "paper.tex", r"""
        \includeonly{a}
        \begin{document}
        \include{a.tex}
        \include{b.tex}
        \end{document}
        """, cls="llncs")
    for name in ("a", "b"):
        _tex(tmp_path, f"{name}.tex", rf"\begin{{lemma}}\label{{{name}}} x \end{{lemma}}")
    paper = papers.read_paper(tmp_path / "paper.tex")
    assert [e.label for e in paper.environments] == ["a"]
    assert paper.unread == ("not read: b.tex (not in \\includeonly)",)


def test_an_include_inside_an_included_file_is_not_read(tmp_path: Path):
    """LaTeX stops at an \\include in a file read by \\include (``\\include cannot be nested``) and
    reads on without it: its file is not read, and the coverage says why; \\input there is read."""
    _tex(tmp_path, "paper.tex", r"""
        \begin{document}
        \include{a}
        \end{document}
        """, cls="llncs")
    _tex(tmp_path, "a.tex", r"""
        \input{c}
        \include{b}
        \begin{lemma}\label{a} x \end{lemma}
        """)
    for name in ("b", "c"):
        _tex(tmp_path, f"{name}.tex", rf"\begin{{lemma}}\label{{{name}}} x \end{{lemma}}")
    _tex(tmp_path, "c.tex", r"\begin{lemma}\label{c} x \end{lemma}\include{b}")
    paper = papers.read_paper(tmp_path / "paper.tex")
    assert [e.label for e in paper.environments] == ["a", "c"]
    assert paper.unread == ("not read: b.tex (\\include inside an \\include'd file)",)


def test_in_an_imported_file_dot_names_are_sought_in_the_import_folders_first(tmp_path: Path):
    """In a file read by \\import{parts/sec/}{body}, \\input{../common} and \\input{./local} are
    parts/common.tex and parts/sec/local.tex (import.sty tries its folders first), not the files of
    those names beside the main file, as pdflatex reads them."""
    _tex(tmp_path, "paper.tex", r"""
        \usepackage{import}
        \begin{document}
        \import{parts/sec/}{body}
        \end{document}
        """, cls="llncs")
    _tex(tmp_path, "parts/sec/body.tex", "\\input{../common}\n\\input{./local}\n")
    for name in ("common", "local", "parts/common", "parts/sec/local"):
        _tex(tmp_path, f"{name}.tex", rf"\begin{{lemma}}\label{{{name}}} x \end{{lemma}}")
    paper = papers.read_paper(tmp_path / "paper.tex")
    assert [e.label for e in paper.environments] == ["parts/common", "parts/sec/local"]



def _texinputs_papers(tmp_path: Path) -> Path:
    """Papers that each \\input{mythmq}, with copies of it where TEXINPUTS may lead."""
    for case, files in {"listed": ("lib/", ""), "middle": ("parts/x/sec/",), "bang": ("lib/",),
                        "two": ("lib/a/", "lib/b/")}.items():
        _tex(tmp_path, f"{case}/paper.tex", r"\begin{document}\input{mythmq}\end{document}", cls="llncs")
        for folder in files:
            _lemma(tmp_path, f"{case}/{folder}mythmq.tex", folder or "main")
    return tmp_path


def _read_with(tmp_path: Path, monkeypatch, case: str, texinputs: str) -> papers.Paper:
    monkeypatch.setenv("TEXINPUTS", texinputs)
    return papers.read_paper(tmp_path / case / "paper.tex")


@pytest.mark.skipif(shutil.which("kpsewhich") is None, reason="kpsewhich not installed")
def test_texinputs_is_followed_by_asking_kpsewhich(tmp_path: Path, monkeypatch):
    """Where kpsewhich is installed it says which file TeX reads, with kpathsea's own rules (as
    pdflatex reads them): with no empty entry the main file's folder is not searched; ``//`` in the
    middle of an entry searches below it; a ``!!`` entry is sought in its ls-R database only."""
    _texinputs_papers(tmp_path)
    labels = lambda p: [e.label for e in p.environments]  # noqa: E731
    assert labels(_read_with(tmp_path, monkeypatch, "listed", "lib")) == ["lib/"]
    assert labels(_read_with(tmp_path, monkeypatch, "listed", ".:lib")) == ["main"]
    assert labels(_read_with(tmp_path, monkeypatch, "middle", "parts//sec")) == ["parts/x/sec/"]
    assert labels(_read_with(tmp_path, monkeypatch, "bang", "!!lib:")) == []


def test_texinputs_without_kpsewhich_is_emulated_and_says_what_it_cannot_place(tmp_path: Path, monkeypatch):
    """Without kpsewhich, TEXINPUTS is read as kpathsea reads it, where that does not depend on
    TeX's installation: a ``!!`` entry is not searched on disk and a file in several subfolders of
    a ``//`` entry (TeX's choice depends on the file system) is not read; the coverage says so."""
    _texinputs_papers(tmp_path)
    which = shutil.which
    monkeypatch.setattr(papers.shutil, "which", lambda n: None if n == "kpsewhich" else which(n))
    labels = lambda p: [e.label for e in p.environments]  # noqa: E731
    assert labels(_read_with(tmp_path, monkeypatch, "listed", "lib")) == ["lib/"]
    assert labels(_read_with(tmp_path, monkeypatch, "listed", ".:lib")) == ["main"]
    assert labels(_read_with(tmp_path, monkeypatch, "middle", "parts//sec")) == ["parts/x/sec/"]
    bang = _read_with(tmp_path, monkeypatch, "bang", "!!lib:")
    assert (labels(bang), bang.unread) == (
        [], ("not read: mythmq.tex (in TEXINPUTS entry !!lib, which TeX seeks in its ls-R database only)",))
    two = _read_with(tmp_path, monkeypatch, "two", "lib//")
    assert (labels(two), two.unread) == (
        [], ("not read: mythmq.tex (found in lib/a and lib/b; TeX's choice depends on the file system)",))


@pytest.mark.parametrize("kpsewhich", [True, False])
def test_a_name_with_another_suffix_is_name_tex_first(tmp_path: Path, monkeypatch, kpsewhich: bool):
    """\\input{data.v1} reads data.v1.tex where it exists (TeX adds .tex to any name not ending in
    .tex), else data.v1; \\input{b.tex} reads b.tex only."""
    if kpsewhich and shutil.which("kpsewhich") is None:
        pytest.skip("kpsewhich not installed")
    if not kpsewhich:
        which = shutil.which
        monkeypatch.setattr(papers.shutil, "which", lambda n: None if n == "kpsewhich" else which(n))
    monkeypatch.delenv("TEXINPUTS", raising=False)
    _tex(tmp_path, "paper.tex", r"\begin{document}\input{data.v1}\input{other.v2}\input{b.tex}\end{document}",
         cls="llncs")
    _lemma(tmp_path, "data.v1", "plain")
    _lemma(tmp_path, "data.v1.tex", "with-tex")
    _lemma(tmp_path, "other.v2", "other")
    _lemma(tmp_path, "b.tex", "b")
    _lemma(tmp_path, "b.tex.tex", "b-tex-tex")
    assert [e.label for e in papers.read_paper(tmp_path / "paper.tex").environments] == ["with-tex", "other", "b"]


def test_whether_a_macro_reads_files_is_decided_where_it_is_used(tmp_path: Path):
    """As pdflatex reads them: \\let\\secB\\secA makes \\secB read what \\secA reads; \\providecommand
    of a name a \\newcommand defined does nothing (even when the first body reads no file); a macro
    whose body uses one defined only after it reads that one's files where it is used; a \\let to
    something else, and a macro with arguments used through an argument-less one, are as before."""
    _tex(tmp_path, "paper.tex", r"""
        \newcommand{\secA}{\input{a}}
        \let\secB = \secA
        \newcommand{\secC}{Plain text}
        \providecommand{\secC}{\input{c}}
        \newcommand{\all}{\secD}
        \newcommand{\secD}{\input{d}}
        \newcommand{\secE}{\input{e}}
        \let\secE\relax
        \newcommand{\withargs}[1]{\input{#1}}
        \newcommand{\viaargs}{\withargs{f}}
        \begin{document}
        \secB
        \secC
        \all
        \secE
        \viaargs
        \end{document}
        """, cls="llncs")
    for name in "acdef":
        _tex(tmp_path, f"{name}.tex", rf"\begin{{lemma}}\label{{{name}}} x \end{{lemma}}")
    paper = papers.read_paper(tmp_path / "paper.tex")
    assert [e.label for e in paper.environments] == ["a", "d"]
    assert paper.unread == ("not followed: \\withargs (a macro with arguments that reads files)",)


def test_inputifexists_and_at_input_are_followed_and_what_is_not_is_said(tmp_path: Path):
    """\\InputIfFileExists{f}{then}{else} reads then and f where f exists, else its else code;
    \\@input{f} reads f; a file name holding a macro (\\input{\\dir/a}, \\input\\name) and an
    environment whose code reads files are not followed, and the coverage says so."""
    _tex(tmp_path, "paper.tex", r"""
        \newcommand{\dir}{sub}
        \newcommand{\name}{a}
        \newenvironment{chapterfile}{\input{c}}{}
        \begin{document}
        \InputIfFileExists{a}{\begin{lemma}\label{then-a} x \end{lemma}}{\begin{lemma}\label{else-a} x \end{lemma}}
        \InputIfFileExists{missing}{\begin{lemma}\label{then-m} x \end{lemma}}{\begin{lemma}\label{else-m} x \end{lemma}}
        \makeatletter\@input{b}\makeatother
        \input{\dir/a}
        \input\name
        \begin{chapterfile}\end{chapterfile}
        \end{document}
        """, cls="llncs")
    for name in ("a", "b", "c", "sub/a"):
        _tex(tmp_path, f"{name}.tex", rf"\begin{{lemma}}\label{{{name}}} x \end{{lemma}}")
    paper = papers.read_paper(tmp_path / "paper.tex")
    assert sorted(e.label for e in paper.environments) == ["a", "b", "else-m", "then-a"]
    assert paper.unread == ("not followed: \\input{\\dir/a} (a file name with a macro)",
                            "not followed: \\input\\name (a file name with a macro)",
                            "not followed: \\begin{chapterfile} (an environment whose code reads files)")


def test_a_file_input_twice_is_read_twice(tmp_path: Path):
    """\\input{thm} twice typesets its theorem twice, with one label: the label is ambiguous (no
    status is shown for it), as for any two environments with one label; a file that inputs
    itself is read once."""
    _tex(tmp_path, "paper.tex", r"""
        \begin{document}
        \input{thm}
        \input{thm}
        \input{self}
        \end{document}
        """, cls="llncs")
    _tex(tmp_path, "thm.tex", r"\begin{lemma}\label{thm:a}\obligation{doc.p} x \end{lemma}")
    _tex(tmp_path, "self.tex", r"\begin{lemma}\label{self} x \end{lemma}\input{self}")
    paper = papers.read_paper(tmp_path / "paper.tex")
    assert [e.label for e in paper.environments] == ["thm:a", "thm:a", "self"]
    assert paper.files == ("paper.tex", "thm.tex", "self.tex")
    cov = papers.coverage(paper, _doc(_proved("doc.p")))
    assert papers.label_status(cov, "thm:a")[1] == "ambiguous"
