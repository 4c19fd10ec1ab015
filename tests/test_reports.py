"""Reports: every format renders from one JSON document; LaTeX compiles; HTML renders in Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from checker import report_formats
from checker.model import Certificate, Expect, Result, Source, Status, Step
from checker.reports import dependencies, read_json, render, render_json, to_document


def _r(ob_id, status, expect=Expect.HOLDS, uses=()):
    cert = Certificate("z3 & friends_50% {x}", (Step("smt", "z3 9", "check", "unsat", 0.01, {"k": 1}),),
                       witness={"x": "-3/2"} if status is Status.REFUTED else None,
                       sides={"lhs": "1"} if status is Status.REFUTED else None,
                       reason="why" if status in (Status.UNKNOWN, Status.ERROR) else None, data={"n": 3})
    return Result(ob_id, Source("000_x.txt", "Theorem 1 & ‖W∘M‖ ≤ √2"), "For all x ∈ ℝ, |x| ≥ 0 — δ_k ≤ ε²",
                  "universally over ℝ (z3)", expect, status, cert, 0.5, uses=tuple(uses))


RESULTS = [
    _r("doc.base", Status.PROVED),
    _r("doc.mid", Status.PROVED, uses=["doc.base"]),
    _r("doc.top", Status.PROVED, uses=["doc.mid", "doc.shaky"]),
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


def test_latex_structure():
    """LaTeX: a booktabs longtable with one escaped row per obligation."""
    text = report_formats.latex(to_document(RESULTS))
    assert "\\toprule" in text and "\\midrule" in text and "\\bottomrule" in text
    rows = [line for line in text.splitlines() if line.startswith("\\texttt{doc.")]
    assert len(rows) == len(RESULTS)
    assert "\\&" in text and "\\%" in text and "\\_" in text and "$\\le$" in text and "$\\mathbb{R}$" in text
    assert all(ord(ch) < 128 for ch in text)


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (.ci/run installs texlive)")
def test_latex_compiles(tmp_path: Path):
    """The LaTeX table compiles in a minimal document with pdflatex."""
    (tmp_path / "t.tex").write_text(report_formats.latex_document(to_document(RESULTS)), encoding="ascii")
    out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout[-2000:]
    assert (tmp_path / "t.pdf").stat().st_size > 1000


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(_chromium() is None, reason="Chromium not installed (.ci/run installs Debian's chromium)")
def test_html_renders_in_headless_chromium(tmp_path: Path):
    """The HTML page loads in a real headless browser: graph nodes coloured by status, rows, certificates."""
    page = tmp_path / "report.html"
    page.write_text(render(RESULTS, "html"), encoding="utf-8")
    profile = tmp_path / "profile"
    cmd = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", "--dump-dom", page.as_uri()]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    dom = out.stdout
    assert dom.count('class="node"') == len(RESULTS)
    assert dom.count('class="edge"') == 4
    assert 'data-status="refuted"' in dom and report_formats.STATUS_COLOURS["refuted"] in dom
    assert dom.count('class="result"') == len(RESULTS)
    assert dom.count("<details>") == len(RESULTS)
    shot = subprocess.run(cmd[:-2] + [f"--screenshot={tmp_path / 'shot.png'}", "--window-size=1200,900", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert shot.returncode == 0 and (tmp_path / "shot.png").stat().st_size > 5000


def test_html_is_self_contained():
    """No external resources: no http(s) links, scripts or stylesheets from elsewhere."""
    text = render(RESULTS, "html")
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in text
    assert json.loads(render_json(RESULTS))["results"][0]["dependencies"]["state"] == "fully proved"
