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
    assert deps["doc.base"]["state"] == "fully proved"
    # a bounded proof covers some sizes of its statement: partial, and no ground for "fully proved"
    assert deps["doc.mid"]["state"] == "partially proved"
    assert deps["doc.top"]["state"] == "rests on unsettled"
    assert sorted(deps["doc.top"]["unsettled"]) == ["doc.mid", "doc.shaky"]
    assert deps["doc.top"]["unsettled_by_status"] == {"partial": 1, "supported": 1}
    assert deps["doc.leans_on_false"]["state"] == "rests on refuted"
    assert deps["doc.shaky"]["state"] == "not proved"
    alone = dependencies([RESULTS[2]])
    assert alone["doc.top"]["state"] == "rests on unsettled"  # ancestors not in this run


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
    assert status_cell(rows["doc.mid"]).text == "proved for K = 2…6 only"
    top = status_cell(rows["doc.top"])
    assert top.text == "proved at 1 point · rests on 1 partial, 1 supported · vacuity not checked" and not top.fully_proved
    assert status_cell(rows["doc.leans_on_false"]).depends == "rests on 1 refuted"
    assert status_cell(rows["doc.wrong"]).witness == "x = -3/2"
    assert "proved at 1 point · rests on" in render(RESULTS, "table")  # wrapped in 100 columns; whole with --wide
    for fmt in ("table", "markdown", "junit", "html"):
        text = render(RESULTS, fmt, wide=True)
        for needle in ("proved ∀", "proved for K = 2…6 only", "proved at 1 point", "rests on 1 partial", "rests on 1 refuted",
                       "vacuity not checked", "x = -3/2"):
            assert needle in text.replace("&#x27;", "'"), (fmt, needle)
    latex = render(RESULTS, "latex")
    assert "\\obproved{\\obuniversal{}}\\obfullyproved{}" in latex and "\\obpartial{for $K = 2\\ldots 6$}" in latex
    assert "\\obinstances{1 point}}\\obrestson{1 partial,\\allowbreak{} 1 supported}\\obvacuity{not checked}" in latex
    from checker.report.reports import render_certificate

    shown = render_certificate(RESULTS[2], RESULTS)
    assert "proved at 1 point · rests on 1 partial, 1 supported" in shown and "grade      instances" in shown


def test_summary_counts_fully_proved_per_grade():
    """The summary line separates proved by grade and counts fully proved results apart."""
    from checker.report.reports import summary, summary_line

    s = summary(RESULTS)
    assert s["proved_by_grade"] == {"universal": 2, "bounded": 1, "instances": 1}
    assert s["fully_proved"] == {"total": 1, "universal": 1, "bounded": 0, "instances": 0}
    assert s["outcome"]["partial"] == 1
    assert "4 proved (2 ∀, 1 bounded, 1 at instances)" in summary_line(RESULTS)
    assert "1 partial" in summary_line(RESULTS) and "fully proved: 1 (1 ∀)" in summary_line(RESULTS)


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
    """One result per catalogue obligation with its real id, label, statement, scope and uses, and
    the status, grade, sizes and witness the committed snapshot of a full check records
    (tests/fixtures/catalogue_outcomes.json); three rows more are unknown, timeout and error with
    their reasons. The full report's text, without running the catalogue."""
    from checker.run.discovery import discover

    snapshot = json.loads((Path(__file__).parent / "fixtures" / "catalogue_outcomes.json").read_text(encoding="utf-8"))["results"]
    obs = list(discover("obligations").select([], include_slow=True))
    out = []
    for k, ob in enumerate(obs):
        snap = snapshot.get(ob.id) or {"status": "supported", "grade": None, "grade_over": "", "witness": None}
        status = Status(snap["status"])
        if k in (3, 40, 90):  # what a user's undecided rows look like
            status = (Status.UNKNOWN, Status.TIMEOUT, Status.ERROR)[(3, 40, 90).index(k)]
        grade = Grade(snap["grade"]) if status is Status.PROVED and snap["grade"] else None
        reason = {Status.UNKNOWN: "z3 answered unknown: incomplete quantifiers (nonlinear arithmetic over 7 reals)",
                  Status.TIMEOUT: f"{ob.id} exceeded the 120 s wall-clock limit; its process group was killed",
                  Status.ERROR: "obligations/psy01a/cue.py:212 in _margin: ZeroDivisionError: Fraction(3, 0)"}.get(status)
        cert = Certificate("z3 on the negation, for each input width; exact re-check (rationals)",
                           witness=snap["witness"] if status is Status.REFUTED else None,
                           sides={"lhs": "201", "rhs": "101"} if status is Status.REFUTED else None, reason=reason,
                           grade=grade, over=snap["grade_over"] if grade else "")
        out.append(Result(ob.id, ob.source, ob.statement, ob.scope, ob.expect, status, cert, 0.5, uses=ob.uses,
                          vacuity={"verdict": "not checked", "reason": "-"} if status is Status.PROVED else None))
    return out


def _pdflatex(tmp_path: Path, name: str, source: str) -> str:
    (tmp_path / f"{name}.tex").write_text(source, encoding="ascii")
    out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:]
    return (tmp_path / f"{name}.log").read_text(encoding="latin-1")


_NO_PDFLATEX = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (.ci/run installs texlive)")


def _overfull(log: str) -> list[str]:
    return [line for line in log.splitlines() if line.startswith(("Overfull", "Missing character", "!"))]


@_NO_PDFLATEX
def test_latex_compiles(tmp_path: Path):
    """Every LaTeX form (full, compact, detail) compiles in a one-column and a two-column article
    with pdflatex: no error, no overfull box, no missing character."""
    doc = to_document(RESULTS)
    for options in ("", "twocolumn"):
        for name, detail, compact in (("full", False, False), ("compact", False, True), ("detail", True, False)):
            tag = f"{name}{'-2col' if options else ''}"
            log = _pdflatex(tmp_path, tag, report_formats.latex_document(doc, detail=detail, options=options, compact=compact))
            assert _overfull(log) == [], tag
            assert (tmp_path / f"{tag}.pdf").stat().st_size > 1000


@_NO_PDFLATEX
def test_catalogue_table_compiles_in_one_and_two_columns_without_overfull_boxes(tmp_path: Path):
    """The whole catalogue's table — full statements, compact, and the long form — compiles in
    `\\documentclass{article}` and `\\documentclass[twocolumn]{article}`: 0 errors, 0 overfull boxes
    (two columns: one tabular per row, breaking across columns and pages). The compact one-column
    table stays within 12 pages."""
    import re

    doc = to_document(_catalogue_like())
    for options in ("", "twocolumn"):
        for name, detail, compact in (("full", False, False), ("compact", False, True), ("detail", True, False)):
            tag = f"{name}{'-2col' if options else ''}"
            source = report_formats.latex_document(doc, detail=detail, options=options, compact=compact)
            log = _pdflatex(tmp_path, tag, source)
            assert _overfull(log) == [], (tag, _overfull(log)[:5])
            pages = int(re.search(rf"Output written on {re.escape(tag)}\.pdf \((\d+) pages?", log).group(1))
            if tag == "compact":
                assert pages <= 12, pages
    assert "longtable" in source and "\\if@twocolumn" in source  # one file, either layout


@pytest.mark.slow
@_NO_PDFLATEX
def test_a_real_catalogue_check_compiles_in_one_and_two_columns(tmp_path: Path):
    """`obligations check --format latex` on the whole default catalogue (a real run, not the
    snapshot's statuses), each form, in article and twocolumn article: 0 errors, 0 overfull boxes."""
    from tests.helpers import cli

    for flag in ("", "--latex-compact", "--latex-detail"):
        out = cli("check", "-q", "--no-baseline", "--jobs", "2", "--format", "latex", *([flag] if flag else []),
                  "-o", str(tmp_path / "table.tex"), timeout=1800)
        assert out.returncode == 0, out.stderr[-2000:]
        assert "warning" not in out.stderr  # the shipped catalogue checks without a prose warning
        for options in ("", "twocolumn"):
            source = (f"\\documentclass[{options}]{{article}}\n\\usepackage[T1]{{fontenc}}\n"
                      "\\usepackage{booktabs,longtable,array,amssymb}\n\\begin{document}\n\\input{table}\n\\end{document}\n")
            log = _pdflatex(tmp_path, f"doc{flag}{options}", source)
            assert _overfull(log) == [], (flag, options, _overfull(log)[:5])


def test_every_status_that_is_not_proved_or_refuted_shows_its_reason_in_every_format():
    """unknown, timeout, error and supported rows carry a one-line reason in the table (also
    without --wide), Markdown, every LaTeX form, JUnit and HTML; proved and refuted rows carry none."""
    reasons = {Status.UNKNOWN: "z3 answered unknown: nonlinear residue", Status.TIMEOUT: "exceeded the 5 s wall-clock limit",
               Status.ERROR: "lemma.py:5 in helper: KeyError: 'missing'", Status.SUPPORTED: None}
    results = [Result(f"why.{s.value}", Source("p.tex", "thm:x"), "For all x, x ≤ x.", "over ℝ", Expect.HOLDS, s,
                      Certificate("seeded sampling (numpy), 10⁴ points", reason=r), 0.1) for s, r in reasons.items()]
    results.append(_r("why.proved", Status.PROVED))
    expected = [r for r in reasons.values() if r] + ["evidence only: seeded sampling (numpy), 10⁴ points"]
    doc = to_document(results)
    texts = {"table": render(results, "table"), "wide": render(results, "table", wide=True),
             "markdown": render(results, "markdown"), "junit": render(results, "junit"), "html": render(results, "html")}
    for fmt, text in texts.items():
        flat = " ".join(text.replace("&#x27;", "'").replace("&apos;", "'").split())
        for reason in expected:
            assert reason in flat, (fmt, reason)
        assert flat.count("reason: ") + flat.count("<dt>reason</dt>") >= len(expected), fmt
    for kind in ("full", "compact", "detail"):
        tex = report_formats.latex_detail(doc) if kind == "detail" else report_formats.latex(doc, compact=kind == "compact")
        rows = [line for line in tex.splitlines() if line.startswith(("\\obrow", "\\obdrow"))]
        assert sum(row.count("\\obreason{") for row in rows) == len(expected), kind
        assert "\\obreason{lemma.py:5 in helper: KeyError: 'missing'}" in tex.replace("\\allowbreak{}", "").replace("\\_", "_")
    assert status_cell(doc["results"][-1]).reason == ""  # a proof needs no reason


def test_shortened_texts_never_end_inside_a_number_or_a_formula():
    """`shorten` (the compact table's cut, the grade's sizes, the reason) ends at a word boundary
    outside every formula texify typesets, closes the brackets it leaves open, and a witness is
    cut only between values: over every statement, label and scope of the catalogue, at many lengths."""
    from checker.report.cells import shorten, witness_text
    from checker.report.texify import math_ranges

    texts = [t for r in _catalogue_like() for t in (r.statement, r.source.label, r.scope, r.certificate.over)]
    for text in texts:
        text = " ".join(text.split())
        inside = {i for a, b in math_ranges(text) for i in range(a + 1, b)}
        for limit in (30, 60, 110):
            short = shorten(text, limit)
            if short == text:
                continue
            head = short[: short.rindex("…")].rstrip(" ,")
            assert text.startswith(head), (text, short)
            cut = len(head)
            rest = text[cut:].lstrip(",;:")
            assert rest.startswith(" ") and cut not in inside and cut + (len(text[cut:]) - len(rest)) not in inside, (text, short)
            assert not text[cut:cut + 1].isalnum(), (text, short)  # the cut ends a whole word or number
            assert len(short) <= limit + 4, (text, short)
    assert shorten("the 3 checked sizes (Theorem 2, layer 2 at Θ_0, Theorem 2, layer 1 at Θ_1, chained bound)", 48) \
        == "the 3 checked sizes (Theorem 2, …)"
    assert shorten("the scalar (width-1) two-layer network", 48) == "the scalar (width-1) two-layer network"
    row = {"status": "refuted", "certificate": {"witness": {"s": "-3/8", "w1": "0", "b1": "1", "w2": "1", "b2": "-17/16"}}}
    assert witness_text(row, 20) == "s = -3/8, w1 = 0, … (5 values)"  # never "s = -3/…"


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def _browser(tmp_path: Path, page: Path, *extra: str) -> subprocess.CompletedProcess:
    size = [] if any(x.startswith("--window-size=") for x in extra) else ["--window-size=1280,800"]
    cmd = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={tmp_path / 'profile'}", *size, *extra, page.as_uri()]
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
    assert dom.count("<summary>certificate (JSON)</summary>") == len(RESULTS)
    assert int(re.search(r'data-scroll-width="(\d+)"', dom).group(1)) <= 1280
    shot = _browser(tmp_path, page, f"--screenshot={tmp_path / 'shot.png'}")
    assert shot.returncode == 0 and (tmp_path / "shot.png").stat().st_size > 5000


def _node_fill(dom: str, ob_id: str) -> str:
    import re

    return re.search(rf'<g class="node" data-id="{re.escape(ob_id)}"[^>]*>.*?<rect [^>]*fill="(#[0-9a-f]+)"', dom, re.S).group(1)


@pytest.mark.skipif(_chromium() is None, reason="Chromium not installed (.ci/run installs Debian's chromium)")
@pytest.mark.parametrize("width", [1280, 390])
def test_html_details_panel_and_grade_colours_at_desktop_and_phone_width(tmp_path: Path, width: int):
    """At 1280 and 390 px wide (a phone): the page never scrolls sideways (the graph pans inside
    its own box), a result's details panel shows its claim, grade, reason and ledger, a witness
    is shown, and a ∀ proof, a bounded proof and a proof at instances are drawn in three colours;
    the screenshot is taken (tall enough that nothing needs scrolling)."""
    import re

    text = render(RESULTS, "html")
    for opened in ("doc.crash", "doc.mid", "doc.wrong"):  # as a click on their nodes would open them
        text = text.replace(f'<details id="ob-{opened}"', f'<details open id="ob-{opened}"')
    (tmp_path / "report.html").write_text(text, encoding="utf-8")
    # Headless Chromium lays a window out at least 500 px wide: the page is measured in an iframe
    # of the exact width (a phone's 390 px), and the wrapper copies what the page measured.
    height = 2600 if width < 600 else 1500
    page = tmp_path / "frame.html"
    page.write_text(f"""<!DOCTYPE html><html><body style="margin:0;overflow:hidden"><iframe id="f" src="report.html"
        style="display:block;width:{width}px;height:{height}px;border:0"></iframe><script>
        const f = document.getElementById('f');
        f.addEventListener('load', () => {{ const d = f.contentDocument, e = d.documentElement;
          document.body.dataset.measured = d.body.dataset.viewportWidth + ',' + e.scrollWidth + ',' + e.clientWidth;
          document.body.appendChild(document.createElement('template')).innerHTML = d.documentElement.outerHTML; }});
        </script></body></html>""", encoding="utf-8")
    size = f"--window-size={width},{height}"
    dom = _browser(tmp_path, page, "--dump-dom", "--allow-file-access-from-files", "--virtual-time-budget=5000", size).stdout
    viewport, scroll, client = map(int, re.search(r'data-measured="(\d+),(\d+),(\d+)"', dom).groups())
    assert viewport == width and scroll <= client, (viewport, scroll, client)  # no sideways scrolling
    fills = {_node_fill(dom, i) for i in ("doc.base", "doc.mid")}
    assert len(fills) == 2, fills  # ∀ and partial (a bounded proof) apart
    assert report_formats.STATE_COLOURS["fully proved ∀"] in fills
    assert 'data-state="partial"' in dom
    crash = dom[dom.index('id="ob-doc.crash"'):]
    crash = crash[: crash.index("</details>")]
    for needle in ("<dt>claim</dt>", "<dt>reason</dt>", '<span class="reason">why</span>', "<dt>ledger</dt>", "unsat"):
        assert needle in crash, needle
    mid = dom[dom.index('id="ob-doc.mid"'):]
    assert '<dt>grade</dt><dd><span class="grade-bounded">bounded</span>' in mid and "K = 2…6" in mid[: mid.index("</details>")]
    assert "<dt>witness</dt><dd>x = -3/2" in dom
    shot = tmp_path / f"shot-{width}.png"
    out = _browser(tmp_path, page, f"--screenshot={shot}", "--allow-file-access-from-files", "--virtual-time-budget=5000", size)
    assert out.returncode == 0 and shot.stat().st_size > 5000


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


def test_a_refutation_shows_the_failing_comparisons_before_the_named_terms():
    """The named terms at a witness only illustrate it (an edited conclusion can leave them reading
    as no violation); the conclusion's false comparisons are what refutes, and every view that shows
    the terms shows them first."""
    from checker.report.reports import render_certificate

    cert = Certificate("z3", (), witness={"x": "1"}, sides={"drift": "1", "bound": "3/2"},
                       data={"conclusion_fails": ["1 ≤ 3/4"]})
    r = Result("doc.edited", Source("x.txt", "T"), "drift ≤ bound/2", "∀", Expect.HOLDS, Status.REFUTED, cert, 0.1)
    shown = render_certificate(r)
    assert shown.index("fails      1 ≤ 3/4") < shown.index("sides      drift = 1") and "named terms" in shown
    for fmt in ("junit", "html"):
        out = render([r], fmt)
        assert out.index("fails: 1 ≤ 3/4") < out.index("sides: drift = 1"), fmt
