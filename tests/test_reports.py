"""Reports: every format renders from one JSON document; LaTeX compiles; HTML renders in Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from checker.report import formats as report_formats
from checker.kernel.model import Certificate, Expect, Grade, Result, Source, Status, Step
from checker.report.reports import dependencies, read_json, render, render_json, status_cell, to_document
from checker.report.texify import texify, unmapped


def _r(ob_id, status, expect=Expect.HOLDS, uses=(), grade=Grade.UNIVERSAL, over="", vacuity=None):
    proved = status is Status.PROVED
    cert = Certificate("z3 & friends_50% {x}", (Step("smt", "z3 9", "check", "unsat", 0.01, {"k": 1}),),
                       witness={"x": "-3/2"} if status is Status.REFUTED else None,
                       sides={"lhs": "1"} if status is Status.REFUTED else None,
                       reason="why" if status in (Status.UNKNOWN, Status.ERROR) else None, data={"n": 3},
                       grade=grade if proved else None, over=over if proved else "")
    return Result(ob_id, Source("000_x.txt", "Theorem 1 & ‖W∘M‖ ≤ √2"), "For all x ∈ ℝ, |x| ≥ 0 — δ_k ≤ ε²",
                  "universally over ℝ (z3)", expect, status, cert, 0.5, uses=tuple(uses),
                  vacuity=vacuity if proved else None)


RESULTS = [
    _r("doc.base", Status.PROVED),
    _r("doc.mid", Status.PROVED, uses=["doc.base"], grade=Grade.BOUNDED, over="K = 2…6"),
    _r("doc.top", Status.PROVED, uses=["doc.mid", "doc.shaky"], grade=Grade.INSTANCES, over="1 point",
       vacuity={"verdict": "not checked", "reason": "no declared claim"}),
    _r("doc.shaky", Status.SUPPORTED),
    _r("doc.false", Status.REFUTED, Expect.FAILS),
    _r("doc.leans_on_false", Status.PROVED, uses=["doc.false"]),
    _r("doc.wrong", Status.REFUTED, Expect.HOLDS),
    _r("doc.crash", Status.ERROR),
    _r("doc.open", Status.UNKNOWN),
]


def test_json_reads_back_and_rerenders_identically():
    """JSON is the interchange form: read back, it renders the same in every format."""
    text = render_json(RESULTS)
    again = read_json(text)
    assert again == RESULTS
    for fmt in ("table", "markdown", "json", "latex", "junit", "html"):
        assert render(again, fmt) == render(RESULTS, fmt)


def test_dependency_states():
    """Fully proved needs every ancestor proved; a refuted or unsettled ancestor is shown."""
    deps = dependencies(RESULTS)
    assert deps["doc.mid"]["state"] == "fully proved"
    assert deps["doc.top"]["state"] == "rests on unsettled" and deps["doc.top"]["unsettled"] == ["doc.shaky"]
    assert deps["doc.top"]["unsettled_by_status"] == {"supported": 1}
    assert deps["doc.leans_on_false"]["state"] == "rests on refuted"
    assert deps["doc.shaky"]["state"] == "not proved"
    partial = dependencies([RESULTS[1]])
    assert partial["doc.mid"]["state"] == "rests on unsettled"  # ancestor not in this run


def test_junit_failures_and_skips():
    """JUnit: one testcase per obligation; contradicted/broken fail, open is skipped."""
    root = ET.fromstring(report_formats.junit(to_document(RESULTS)))
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert len(cases) == len(RESULTS)
    assert cases["doc.wrong"].find("failure") is not None
    assert cases["doc.crash"].find("failure") is not None
    assert cases["doc.open"].find("skipped") is not None
    assert cases["doc.base"].find("failure") is None and cases["doc.base"].find("skipped") is None
    suite = root.find("testsuite")
    assert suite.get("failures") == "2" and suite.get("skipped") == "1"


def test_one_status_cell_in_every_format():
    """Status, grade and dependency mark read the same in table, Markdown, LaTeX, JUnit, HTML and show."""
    doc = to_document(RESULTS)
    rows = {r["id"]: r for r in doc["results"]}
    assert status_cell(rows["doc.base"]).text == "proved ∀"
    assert status_cell(rows["doc.mid"]).text == "proved (K = 2…6)"
    top = status_cell(rows["doc.top"])
    assert top.text == "proved at 1 point · rests on 1 supported · vacuity not checked" and not top.fully_proved
    assert status_cell(rows["doc.leans_on_false"]).depends == "rests on 1 refuted"
    assert status_cell(rows["doc.wrong"]).witness == "x = -3/2"
    assert "proved at 1 point · rests on" in render(RESULTS, "table")  # wrapped in 100 columns; whole with --wide
    for fmt in ("table", "markdown", "junit", "html"):
        text = render(RESULTS, fmt, wide=True)
        for needle in ("proved ∀", "proved (K = 2…6)", "proved at 1 point", "rests on 1 supported", "rests on 1 refuted",
                       "vacuity not checked", "x = -3/2"):
            assert needle in text.replace("&#x27;", "'"), (fmt, needle)
    latex = render(RESULTS, "latex")
    assert "\\obproved{\\obuniversal{}}\\obfullyproved{}" in latex and "\\obbounded{$K = 2\\ldots 6$}" in latex
    assert "\\obinstances{1 point}}\\obrestson{1 supported}\\obvacuity{not checked}" in latex
    from checker.report.reports import render_certificate

    shown = render_certificate(RESULTS[2], RESULTS)
    assert "proved at 1 point · rests on 1 supported" in shown and "grade      instances" in shown


def test_summary_counts_fully_proved_per_grade():
    """The summary line separates proved by grade and counts fully proved results apart."""
    from checker.report.reports import summary, summary_line

    s = summary(RESULTS)
    assert s["proved_by_grade"] == {"universal": 2, "bounded": 1, "instances": 1}
    assert s["fully_proved"] == {"total": 2, "universal": 1, "bounded": 1, "instances": 0}
    assert "4 proved (2 ∀, 1 bounded, 1 at instances)" in summary_line(RESULTS)
    assert "fully proved: 2 (1 ∀, 1 bounded)" in summary_line(RESULTS)


def test_a_vacuous_ancestor_is_not_a_proof_for_its_dependents():
    """A proof whose hypotheses cannot hold does not make its dependents fully proved."""
    results = [_r("v.lemma", Status.PROVED, vacuity={"verdict": "vacuous", "reason": "unsat"}),
               _r("v.thm", Status.PROVED, uses=["v.lemma"])]
    deps = dependencies(results)
    assert deps["v.lemma"]["state"] == "not proved"
    assert deps["v.thm"]["state"] == "rests on unsettled" and deps["v.thm"]["unsettled_by_status"] == {"vacuous": 1}


def test_table_fits_100_columns_and_wide_keeps_everything():
    """Without --wide every line of the table fits 100 columns; --wide adds source, claim and method."""
    long = [_r("doc." + "x" * 60, Status.PROVED, grade=Grade.BOUNDED, over="d = " + ", ".join(["(3,4,4,3)"] * 12)),
            *RESULTS]
    text = render(long, "table")
    assert max(len(line) for line in text.splitlines()) <= 100, text
    assert "witness: x = -3/2" in text
    wide = render(long, "table", wide=True)
    assert "z3 & friends_50% {x}" in wide and "(3,4,4,3), " * 11 in wide


def test_markdown_cells_are_escaped_for_github():
    """Pipes, underscores, stars and line breaks inside a cell cannot break the GitHub table."""
    from checker.report.reports import md_escape

    r = _r("md.pipe", Status.PROVED)
    r = Result(r.id, Source("a|b.txt", "Lemma 1\nsecond line"), "|x|_k ≤ *y* <b>", r.scope, r.expect, r.status,
               r.certificate, r.time_s)
    text = render([r], "markdown")
    row = next(line for line in text.splitlines() if "md.pipe" in line)
    assert row.count(" | ") == 7 and "\\|x\\|\\_k" in row and "\\*y\\*" in row and "&lt;b&gt;" in row
    assert "Lemma 1<br>second line" in row
    assert md_escape("a|b") == "a\\|b"


def test_texify_typesets_math_and_loses_nothing():
    """Unicode mathematics becomes LaTeX math; specials are escaped; no character is dropped or '?'."""
    assert texify("‖W∘M‖_op ≤ ‖W‖_F for every mask") == "$\\|W\\circ M\\|_{op} \\le \\|W\\|_{F}$ for every mask"
    assert texify("δ_k ≤ ε²") == "$\\delta _{k} \\le \\varepsilon ^{2}$"
    assert texify("mlp_hidden_loss") == "mlp\\_\\allowbreak{}hidden\\_\\allowbreak{}loss"
    assert texify("50% & $5 #1") == "50\\% \\& \\$5 \\#1"
    assert texify("z₀_j") == "$z_{0}{}_{j}$"  # a double subscript is given a fresh base
    assert "?" not in texify("café ⊗ ∮")
    assert "\\textsf{[contour integral]}" in texify("∮") and unmapped("∮ café ≤") == {"∮"}


def test_every_character_of_the_catalogue_is_mapped():
    """Every non-ASCII character of the catalogue's statements, scopes and labels has a LaTeX form."""
    from checker.run.discovery import discover

    text = "".join(ob.statement + ob.scope + ob.source.label for ob in discover("obligations").select([], include_slow=True))
    assert unmapped(text) == set()


def test_latex_structure():
    """LaTeX: a booktabs longtable with one row per obligation, macros provided, then the summary."""
    text = report_formats.latex(to_document(RESULTS))
    assert "\\toprule" in text and "\\midrule" in text and "\\bottomrule" in text
    assert text.count("\\obid{") == len(RESULTS)
    assert "\\providecommand{\\obproved}" in text and "\\newcommand" not in text
    assert "\\&" in text and "\\%" in text and "\\le " in text and "\\mathbb{R}" in text
    assert "\\begin{tabular*}" in text and "\\texttt{doc," in text
    assert all(ord(ch) < 128 for ch in text) and "?" not in text
    assert "z3 \\& friends\\_\\allowbreak{}50\\% \\{x\\}; universally" in report_formats.latex_detail(to_document(RESULTS))


def _catalogue_like() -> list[Result]:
    """One result per catalogue obligation, with its real id, label, statement, scope and uses and
    a spread of statuses and grades: the full report's text, without running the catalogue."""
    from checker.run.discovery import discover

    obs = list(discover("obligations").select([], include_slow=True))
    kinds = [(Status.PROVED, Grade.UNIVERSAL, ""), (Status.PROVED, Grade.BOUNDED, "the 4 checked sizes (a-1, a-2, a-3, a-4)"),
             (Status.PROVED, Grade.INSTANCES, "the shipped example network; 8 points (t = k/8)"), (Status.REFUTED, None, ""),
             (Status.SUPPORTED, None, ""), (Status.PROVED, Grade.BOUNDED, "d = (3,4,4,3), (3,4,5,2), (6,10,8,4), (16,8,256,10)")]
    out = []
    for k, ob in enumerate(obs):
        status, grade, over = kinds[k % len(kinds)]
        cert = Certificate("z3 on the negation, for each input width; exact re-check (rationals)",
                           witness={"w1": "-3/2", "b2": "2", "d1": "-1"} if status is Status.REFUTED else None,
                           sides={"lhs": "201", "rhs": "101"} if status is Status.REFUTED else None, grade=grade, over=over)
        out.append(Result(ob.id, ob.source, ob.statement, ob.scope, ob.expect, status, cert, 0.5, uses=ob.uses,
                          vacuity={"verdict": "not checked", "reason": "-"} if status is Status.PROVED else None))
    return out


def _pdflatex(tmp_path: Path, name: str, source: str) -> str:
    (tmp_path / f"{name}.tex").write_text(source, encoding="ascii")
    out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:]
    return (tmp_path / f"{name}.log").read_text(encoding="latin-1")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (.ci/run installs texlive)")
def test_latex_compiles(tmp_path: Path):
    """Both LaTeX tables compile in a plain article with pdflatex: no error, no overfull box."""
    doc = to_document(RESULTS)
    for name, detail in (("compact", False), ("detail", True)):
        log = _pdflatex(tmp_path, name, report_formats.latex_document(doc, detail=detail))
        assert "Overfull" not in log and "Missing character" not in log, name
        assert (tmp_path / f"{name}.pdf").stat().st_size > 1000


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (.ci/run installs texlive)")
def test_catalogue_latex_fits_eight_pages_without_overfull_boxes(tmp_path: Path):
    """The whole catalogue's compact table compiles in `article` to at most 8 pages, every line
    within the column; the long form compiles too."""
    import re

    doc = to_document(_catalogue_like())
    log = _pdflatex(tmp_path, "catalogue", report_formats.latex_document(doc))
    assert "Overfull" not in log and "Missing character" not in log
    pages = int(re.search(r"Output written on catalogue\.pdf \((\d+) pages?", log).group(1))
    assert pages <= 8, pages
    log = _pdflatex(tmp_path, "detail", report_formats.latex_document(doc, detail=True))
    assert "Overfull" not in log


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def _browser(tmp_path: Path, page: Path, *extra: str) -> subprocess.CompletedProcess:
    cmd = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,800", *extra, page.as_uri()]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180)


@pytest.mark.skipif(_chromium() is None, reason="Chromium not installed (.ci/run installs Debian's chromium)")
def test_html_renders_in_headless_chromium(tmp_path: Path):
    """In a real browser at 1280×800: one node per obligation, arrows, legend, rows and certificates,
    no horizontal scrolling, and a screenshot."""
    import re

    page = tmp_path / "report.html"
    page.write_text(render(RESULTS, "html"), encoding="utf-8")
    out = _browser(tmp_path, page, "--dump-dom")
    assert out.returncode == 0, out.stderr[-2000:]
    dom = out.stdout
    assert dom.count('class="node"') == len(RESULTS)
    assert dom.count('class="edge"') == 4 and dom.count('marker-end="url(#arrow)"') == 4
    assert 'data-state="rests on refuted"' in dom and report_formats.STATE_COLOURS["rests on refuted"] in dom
    assert 'id="legend"' in dom and 'id="search"' in dom
    assert dom.count('class="result"') == len(RESULTS)
    assert dom.count("<details>") == len(RESULTS)
    assert int(re.search(r'data-scroll-width="(\d+)"', dom).group(1)) <= 1280
    shot = _browser(tmp_path, page, f"--screenshot={tmp_path / 'shot.png'}")
    assert shot.returncode == 0 and (tmp_path / "shot.png").stat().st_size > 5000


@pytest.mark.skipif(_chromium() is None, reason="Chromium not installed (.ci/run installs Debian's chromium)")
def test_catalogue_graph_fits_a_1280_px_screen(tmp_path: Path):
    """The whole catalogue's graph: one node per obligation, layered with arrows, no horizontal scroll."""
    import re

    results = _catalogue_like()
    page = tmp_path / "catalogue.html"
    page.write_text(render(results, "html"), encoding="utf-8")
    dom = _browser(tmp_path, page, "--dump-dom").stdout
    assert dom.count('class="node"') == len(results)
    assert dom.count('marker-end="url(#arrow)"') == sum(len(r.uses) for r in results)
    assert int(re.search(r'data-scroll-width="(\d+)"', dom).group(1)) <= 1280
    xs = {float(x) for x in re.findall(r'<rect x="([\d.]+)"', dom)}
    assert len(xs) >= 3  # several layers, not one column


def test_html_is_self_contained():
    """No external resources: no http(s) links, scripts or stylesheets from elsewhere."""
    text = render(RESULTS, "html")
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in text
    assert json.loads(render_json(RESULTS))["results"][0]["dependencies"]["state"] == "fully proved"


def test_markdown_passes_no_raw_html_carriage_return_or_control_character():
    """Hostile strings from an obligation (raw HTML, \\r, NUL, ANSI escapes) reach a Markdown report
    only as visible text: no tag, no carriage return, no control character."""
    from checker.kernel.model import Certificate, Expect, Result, Source, Status
    from checker.report.reports import render

    c = Certificate("m <script>alert(1)</script>\r\nx", reason="bad \x07\x1b[31m \r <b>")
    r = Result(id="u.x", source=Source("f.tex", "Lemma <script>"), statement="a\rb <script>x</script> | p \x0c",
               scope="s\x00", expect=Expect.HOLDS, status=Status.UNKNOWN, certificate=c, time_s=0.1)
    md = render([r], "markdown")
    assert "<script" not in md and "\r" not in md
    assert not any(ord(ch) < 32 and ch not in "\n" for ch in md)
    assert "&lt;script&gt;" in md and "x00" in md
