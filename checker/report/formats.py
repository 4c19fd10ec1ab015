"""LaTeX, JUnit XML and HTML renderers. Each reads only the JSON report document."""

from __future__ import annotations

import html as _html
import json
import re
from dataclasses import dataclass
from typing import Any, Mapping
from xml.sax.saxutils import quoteattr

from checker.report.cells import cells as audit_verdict_cells
from checker.report.cells import failing_text
from checker.report.cells import shorten, short_over, status_cell, summary_text, terminal_safe, xml_text  # noqa: F401  (re-exported)
from checker.report.texify import texify, texttt
from checker.kernel.model import STATED_FORMULA_CHARS, stated


def _shown(r: Mapping[str, Any]) -> str:
    return r.get("shown_status") or r["status"]


def _audited(doc: Mapping[str, Any]) -> bool:
    return any(r.get("audit") is not None for r in doc["results"])


def audit_text(r: Mapping[str, Any]) -> str:
    """The audit verdicts of one result in one line (empty when not audited)."""
    if r.get("audit") is None:
        return ""
    c = audit_verdict_cells(r["audit"])
    names = {"vacuity": "vacuity", "necessity": "necessity", "tightness": "tightness", "shrink": "shrunk",
             "brittleness": "seeds"}
    return "; ".join(f"{names[k]}: {v}" for k, v in c.items() if v != "-") or "no applicable audit"


# ----------------------------------------------------------------------------------- LaTeX


def latex_escape(text: str) -> str:
    """Plain text (with Unicode mathematics) to LaTeX for pdflatex: math as ``$…$``, prose
    escaped, no character lost (:mod:`checker.report.texify`)."""
    return texify(text)


#: The macros every LaTeX table uses, each ``\providecommand``'ed so that an author can restyle
#: it by defining it first (as leanblueprint does). Arguments: see the comments in the output.
LATEX_MACROS = r"""\providecommand{\obproved}[1]{\textbf{proved}~#1}
\providecommand{\obuniversal}{$\forall$}
\providecommand{\obbounded}[1]{(#1)}
\providecommand{\obinstances}[1]{at #1}
\providecommand{\obpartial}[1]{\textbf{proved} #1 \textit{only}}
\providecommand{\obvacuous}{\textbf{proved (vacuous)}}
\providecommand{\obrefuted}{\textbf{refuted}}
\providecommand{\obsupported}{\textit{supported}}
\providecommand{\obbrittle}{\textit{brittle}}
\providecommand{\obunknown}{unknown}
\providecommand{\obtimeout}{timeout}
\providecommand{\oberror}{\textbf{error}}
\providecommand{\obfullyproved}{~$\checkmark$}
\providecommand{\obrestson}[1]{; \textit{rests on #1}}
\providecommand{\obvacuity}[1]{; \textit{vacuity #1}}
\providecommand{\obwitness}[1]{\newline{\scriptsize witness: #1}}
\providecommand{\obreason}[1]{\newline{\scriptsize reason: #1}}
\providecommand{\oboutcome}[1]{; #1}
\providecommand{\obid}[1]{\newline{\scriptsize #1}}
\providecommand{\obmethod}[1]{\newline{\itshape #1}}
\providecommand{\obwidthsource}{0.15}
\providecommand{\obwidthclaim}{0.5}
\providecommand{\obwidthstatus}{0.35}
\providecommand{\obnarrowclaim}{0.57}
\providecommand{\obnarrowstatus}{0.43}
\providecommand{\obtablesize}{\scriptsize}
\providecommand{\obheader}{Source & Claim (obligation) & Status (method)}
\providecommand{\obnarrowheader}{Claim (source; obligation) & Status (method)}
\providecommand{\obdetailheader}{Obligation & Claim & Method and scope & Status}
\providecommand{\obauditheader}{Audit}
\providecommand{\obnarrowdetailheader}{Obligation, claim, method and scope & Status}"""

#: How a table is laid out, decided when LaTeX typesets it: in a one-column page, a ``longtable``
#: (one column per field, the header repeated on each page); where ``longtable`` cannot run — two
#: columns (``\if@twocolumn``), as in ICML's or IEEE's classes — one small ``tabular`` per row in
#: the text, so the table breaks across columns and pages, with the source stacked over the claim.
#: ``\obtablebegin{COLUMNS}{HEADER}`` / ``\obtableend``; the rows are ``\obrow{SOURCE}{CLAIM}{STATUS}``,
#: ``\obdrow{OBLIGATION}{CLAIM}{METHOD}{STATUS}`` and ``\obdarow{…}{…}{…}{…}{AUDIT}``.
LATEX_LAYOUT = r"""\makeatletter
\def\ob@narrowtrue{\if@twocolumn\expandafter\@firstoftwo\else\expandafter\@secondoftwo\fi}
\def\ob@narrowtabular#1#2{\par\noindent\begin{tabular}{@{}>{\raggedright\arraybackslash\hspace{0pt}}p{\dimexpr\obnarrowclaim\linewidth-\tabcolsep}>{\raggedright\arraybackslash\hspace{0pt}}p{\dimexpr\obnarrowstatus\linewidth-\tabcolsep}@{}}#1 & #2\\\ob@narrowrule\end{tabular}\par}
\def\ob@narrowrule{\midrule}
\def\ob@narrowrow#1#2#3{\ob@narrowtabular{{\bfseries #1}\newline #2}{#3}}
\def\ob@narrowdrow#1#2#3#4{\ob@narrowtabular{#1\newline #2\newline{\itshape #3}}{#4}}
\def\ob@narrowdarow#1#2#3#4#5{\ob@narrowtabular{#1\newline #2\newline{\itshape #3}}{#4\newline #5}}
\def\ob@widerow#1#2#3{#1 & #2 & #3\\}
\def\ob@widedrow#1#2#3#4{#1 & #2 & #3 & #4\\ \addlinespace}
\def\ob@widedarow#1#2#3#4#5{#1 & #2 & #3 & #4 & #5\\ \addlinespace}
\def\obtablebegin#1#2#3{\par\begingroup\obtablesize\ob@narrowtrue
  {\let\obrow\ob@narrowrow\let\obdrow\ob@narrowdrow\let\obdarow\ob@narrowdarow
   \par\noindent\begin{tabular}{@{}p{\dimexpr\obnarrowclaim\linewidth-\tabcolsep}p{\dimexpr\obnarrowstatus\linewidth-\tabcolsep}@{}}\toprule #3\\\midrule\end{tabular}\par\nobreak}
  {\let\obrow\ob@widerow\let\obdrow\ob@widedrow\let\obdarow\ob@widedarow
   \begin{longtable}{#1}\toprule #2\\\midrule\endhead\bottomrule\endfoot}}
\def\obtableend{\ob@narrowtrue{\par}{\end{longtable}}\endgroup\par}
\makeatother"""

_LATEX_PREAMBLE_NOTE = [
    "% Requires \\usepackage{booktabs,longtable,array,amssymb}; works in one- and two-column documents",
    "% (two columns: one small tabular per row, so the table breaks across columns and pages).",
    "% Every \\ob... macro below is \\providecommand'ed: define your own before \\input to restyle.",
    "% \\obproved{GRADE} with GRADE \\obuniversal, \\obbounded{SIZES} or \\obinstances{POINTS};",
    "% \\obfullyproved marks a proof whose every ancestor is proved; \\obrestson{WHAT} one that is not;",
    "% \\obreason{WHY} says why a result is neither proved nor refuted.",
]

#: About how many characters the compact table (``--latex-compact``) keeps of a claim, a method, a
#: source label, a grade's sizes and a reason; each is shortened at a word boundary, never inside
#: a number or a formula (:func:`checker.report.cells.shorten`).
CLAIM_CHARS, METHOD_CHARS, LABEL_CHARS, OVER_CHARS, REASON_CHARS = 110, 48, 40, 48, 90

_ABBREVIATIONS = (("Theorem", "Thm"), ("Corollary", "Cor."), ("Proposition", "Prop."), ("Lemma", "Lem."),
                  ("Definition", "Def."), ("Section", "Sec."), ("Equation", "Eq."), ("Example", "Ex."),
                  ("Remark", "Rem."))


def latex_cut(text: str, limit: int) -> str:
    """``text`` shortened at a word boundary outside any number or formula
    (:func:`checker.report.cells.shorten`) as LaTeX; ``limit`` 0 keeps it whole. The ellipsis is
    prose (it must not pull the last word into mathematics)."""
    cut = shorten(text, limit)
    if cut == " ".join(text.split()) or "…" not in cut:
        return latex_escape(cut)
    head, _, tail = cut.rpartition("…")
    return latex_escape(head.rstrip()) + "~\\ldots{}" + latex_escape(tail)


def short_label(label: str, limit: int = 0) -> str:
    """The source's own reference, short: ``Theorem 2 (Eq. 7), single-layer bound`` → ``Thm 2 (Eq. 7)``;
    with ``limit``, shortened further at a word boundary."""
    head = label.split(": ")[0]
    pieces = head.split(", ")
    kept = [pieces[0]] + [p for p in pieces[1:] if any(c.isdigit() for c in p)]
    head = ", ".join(kept)
    for long, short in _ABBREVIATIONS:
        head = re.sub(rf"\b{long}\b", short, head)
    return shorten(head, limit)


def short_method(method: str, limit: int = 0) -> str:
    """The method's first clause (up to a ``;``), shortened at a word boundary with a ``limit``."""
    return shorten(method.split(";")[0].strip() or method, limit)


def latex_status(r: Mapping[str, Any], over_chars: int = 0, witness_chars: int = 0, reason_chars: int = 0) -> str:
    """The status cell as macros: ``\\obproved{\\obbounded{K = 2\\ldots 6}}\\obrestson{7 supported}``;
    a row that is neither proved nor refuted ends with ``\\obreason{WHY}``. ``0`` keeps the grade's
    sizes, the witness and the reason whole."""
    cell = status_cell(r, witness_chars, over_chars)
    shown = _shown(r)
    if r["status"] == "proved":
        if cell.label == "proved (vacuous)":
            out = "\\obvacuous{}"
        elif r.get("outcome") == "partial":
            over = latex_escape(short_over(r.get("grade_over") or "", over_chars))
            out = "\\obpartial{" + ("at " if r.get("grade") == "instances" else "for ") + (over or "some sizes") + "}"
        else:
            over = latex_escape(short_over(r.get("grade_over") or "", over_chars))
            grade = {"universal": "\\obuniversal{}", "bounded": f"\\obbounded{{{over}}}",
                     "instances": f"\\obinstances{{{over}}}"}.get(r.get("grade") or "", "")
            out = f"\\obproved{{{grade}}}"
        if cell.fully_proved:
            out += "\\obfullyproved{}"
    elif shown == "brittle":
        out = "\\obbrittle{}"
    else:
        out = "\\ob" + r["status"] + "{}"
    if cell.depends:
        out += "\\obrestson{" + latex_escape(cell.depends.removeprefix("rests on ")) + "}"
    if cell.vacuity:
        out += "\\obvacuity{" + latex_escape(cell.vacuity.removeprefix("vacuity ")) + "}"
    outcome = r["outcome"]
    expect = r.get("expect")
    # "confirmed" of a claim the source says holds, and "evidence" of a supported one, repeat the
    # status; every other outcome is said
    if expect in ("fails", "open"):
        out += "\\oboutcome{" + latex_escape(f"{outcome}; the source says it {expect}") + "}"
    elif outcome not in ("confirmed", "evidence", "partial"):
        out += "\\oboutcome{" + latex_escape(outcome) + "}"
    if cell.witness:
        out += "\\obwitness{" + latex_witness(cell.witness) + "}"
    if cell.reason:
        out += "\\obreason{" + latex_cut(cell.reason, reason_chars) + "}"
    return out


def latex_witness(text: str) -> str:
    """A witness ``s = -3/8, w1 = 0`` as mathematics (its minus signs are minus signs, not hyphens)."""
    head, more, count = text.partition(", … (")
    tex = latex_escape(re.sub(r"(?<![\w.])-(?=\d)", "−", head))
    return tex + (",~\\ldots{} (" + latex_escape(count) if more else "")


def _columns(fractions: list[str]) -> str:
    return "".join(f">{{\\raggedright\\arraybackslash\\hspace{{0pt}}}}p{{\\dimexpr{f}\\linewidth-2\\tabcolsep}}"
                   for f in fractions)


def _table(columns: str, header: str, narrow_header: str, rows: list[str]) -> list[str]:
    return ["\\obtablebegin{" + columns + "}{" + header + "}{" + narrow_header + "}", *rows, "\\obtableend"]


def _stated(r: Mapping[str, Any], limit: int | None = STATED_FORMULA_CHARS) -> str:
    """A result's statement as every format leads with it (:func:`checker.kernel.model.stated`)."""
    return stated(r["statement"], r.get("theorem"), limit)


LATEX_FORMULA_CHARS = 240
"""A printed theorem leads a LaTeX row cut to this many characters: a table row cannot break across a
page, and a row taller than a column overflows it (the whole formula is in the JSON and ``show``)."""


def latex(doc: Mapping[str, Any], compact: bool = False) -> str:
    """The status table: one row per obligation — the source's short reference, the claim with
    the obligation's id under it, the status with grade, dependency mark, outcome, witness and
    reason as macros, and the method's first clause — then the per-source summary. Every text
    wraps in its column; ``compact`` shortens claims, methods, labels, sizes, witnesses and
    reasons at a word boundary (never inside a number or a formula). Works in one-column
    (``longtable``) and two-column documents (:data:`LATEX_LAYOUT`)."""
    audited = _audited(doc)
    claim_chars, method_chars, label_chars, over_chars, witness_chars, reason_chars = (
        (CLAIM_CHARS, METHOD_CHARS, LABEL_CHARS, OVER_CHARS, 48, REASON_CHARS) if compact else (0,) * 6)
    rows = []
    for r in doc["results"]:
        ref = latex_escape(short_label(r["source"]["label"], label_chars))
        claim = latex_cut(_stated(r, LATEX_FORMULA_CHARS), claim_chars) + "\\obid{" + texttt(r["id"]) + "}"
        status = (latex_status(r, over_chars=over_chars, witness_chars=witness_chars, reason_chars=reason_chars)
                  + "\\obmethod{" + latex_escape(short_method(r["method"], method_chars)) + "}")
        if audited:
            status += "\\newline{\\scriptsize audit: " + latex_cut(audit_text(r), 80 if compact else 0) + "}"
        rows.append("\\obrow{" + ref + "}{" + claim + "}{" + status + "}")
    lines = ["% Proof-status table generated by `obligations check --format latex`"
             + (" --latex-compact" if compact else "") + " (`--latex-detail`",
             "% adds the full method and scope).", *_LATEX_PREAMBLE_NOTE, LATEX_MACROS, LATEX_LAYOUT]
    columns = _columns(["\\obwidthsource", "\\obwidthclaim", "\\obwidthstatus"])
    lines += _table(columns, "\\obheader", "\\obnarrowheader", rows)
    lines += latex_summary(doc)
    return "\n".join(lines) + "\n"


def latex_detail(doc: Mapping[str, Any]) -> str:
    """The long table: id and full source label, the whole claim, method and scope, status cell
    (uncut witness and reason) and, when audited, the audit; then the per-source summary."""
    audited = _audited(doc)
    fr = ["0.2", "0.3", "0.28", "0.22"] if not audited else ["0.18", "0.26", "0.2", "0.18", "0.18"]
    rows = []
    for r in doc["results"]:
        cells = ["{\\footnotesize " + texttt(r["id"], break_every=12) + "}\\newline{\\scriptsize " + latex_escape(r["source"]["label"]) + " ("
                 + texttt(r["source"]["file"], break_every=8) + ")}",
                 latex_escape(_stated(r, LATEX_FORMULA_CHARS)),
                 latex_escape(r["method"]) + "; " + latex_escape(r["scope"]),
                 latex_status(r)]
        if audited:
            cells.append(latex_escape(audit_text(r)))
        rows.append(("\\obdarow" if audited else "\\obdrow") + "".join("{" + c + "}" for c in cells))
    header = "\\obdetailheader" + (" & \\obauditheader" if audited else "")
    lines = ["% Proof-status table generated by `obligations check --format latex --latex-detail`.",
             *_LATEX_PREAMBLE_NOTE, LATEX_MACROS, LATEX_LAYOUT, "{\\renewcommand{\\obtablesize}{\\small}"]
    lines += _table(_columns(fr), header, "\\obnarrowdetailheader", rows)
    lines += ["}"]
    lines += latex_summary(doc)
    return "\n".join(lines) + "\n"


SUMMARY_COLUMNS = (("proved ∀", "$\\forall$"), ("bounded", "bdd."), ("instances", "inst."), ("fully proved", "full"),
                   ("refuted", "ref."), ("supported", "sup."), ("open", "open"), ("total", "all"))


def source_summary(doc: Mapping[str, Any]) -> list[tuple[str, dict[str, int]]]:
    """Per source document: proved by grade, fully proved, refuted, supported, open (unknown,
    timeout, error) and total, in the order the sources first appear."""
    out: dict[str, dict[str, int]] = {}
    for r in doc["results"]:
        c = out.setdefault(r["source"]["file"], {k: 0 for k, _ in SUMMARY_COLUMNS})
        c["total"] += 1
        st = r["status"]
        if st == "proved":
            c[{"universal": "proved ∀", "bounded": "bounded", "instances": "instances"}.get(r.get("grade") or "", "instances")] += 1
            c["fully proved"] += (r.get("dependencies") or {}).get("state") == "fully proved"
        elif st in ("refuted", "supported"):
            c[st] += 1
        else:
            c["open"] += 1
    return list(out.items())


def _source_name(doc: Mapping[str, Any], file: str) -> str:
    prefixes = sorted({r["id"].split(".")[0] for r in doc["results"] if r["source"]["file"] == file})
    token = re.split(r"[_.]", file)[0][:10] or file[:10]
    return "/".join(prefixes) + (f", {token}" if token and token not in prefixes else "")


def latex_summary(doc: Mapping[str, Any]) -> list[str]:
    """The per-source summary: one row per source document, counts by status and grade; narrow
    enough for one column of a two-column page."""
    rows = []
    for file, c in source_summary(doc):
        rows.append(texttt(_source_name(doc, file)) + " & " + " & ".join(str(c[k]) for k, _ in SUMMARY_COLUMNS) + " \\\\")
    total = {k: sum(c[k] for _, c in source_summary(doc)) for k, _ in SUMMARY_COLUMNS}
    head = " & ".join(h for _, h in SUMMARY_COLUMNS)
    return ["% Per-source summary: proved by grade (universal, bounded, instances), fully proved (every",
            "% ancestor proved too), refuted, supported (evidence), open (unknown, timeout, error).",
            "\\begin{center}\\obtablesize\\setlength{\\tabcolsep}{3pt}",
            "\\begin{tabular*}{\\linewidth}{@{\\extracolsep{\\fill}}>{\\raggedright\\arraybackslash\\hspace{0pt}}p{0.22\\linewidth}"
            + "r" * len(SUMMARY_COLUMNS) + "@{}}",
            "\\toprule", "Source & " + head + " \\\\", "\\midrule", *rows, "\\midrule",
            "all & " + " & ".join(str(total[k]) for k, _ in SUMMARY_COLUMNS) + " \\\\", "\\bottomrule", "\\end{tabular*}",
            "\\end{center}"]


def latex_document(doc: Mapping[str, Any], detail: bool = False, options: str = "", compact: bool = False) -> str:
    """A minimal compilable ``article`` around the table (``options``: the class options, e.g.
    ``twocolumn``); used by the tests."""
    return (
        f"\\documentclass[{options}]{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage{{booktabs}}\n"
        "\\usepackage{longtable}\n\\usepackage{array}\n\\usepackage{amssymb}\n\\begin{document}\n"
        + (latex_detail(doc) if detail else latex(doc, compact=compact)) + "\\end{document}\n"
    )


# ----------------------------------------------------------------------------------- JUnit


def junit(doc: Mapping[str, Any]) -> str:
    """One testcase per obligation: contradicted, vacuous and broken are failures (with the witness
    and both sides where there is one), open is skipped; every case says its status cell, and a
    case that is neither proved nor refuted its reason (in the skip or failure message and in
    ``system-out``).
    Characters XML forbids are escaped visibly (:func:`xml_text`)."""
    return xml_text(_junit(doc))


def _junit(doc: Mapping[str, Any]) -> str:
    results = doc["results"]
    failing = ("contradicted", "broken", "vacuous")
    failures = sum(r["outcome"] in failing for r in results)
    skipped = sum(r["outcome"] == "open" for r in results)
    total_time = sum(r["time_s"] for r in results)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<testsuites name="obligations" tests="{len(results)}" failures="{failures}" skipped="{skipped}" time="{total_time:.3f}">',
             f'  <testsuite name="obligations" tests="{len(results)}" failures="{failures}" errors="0" skipped="{skipped}" time="{total_time:.3f}">']
    for r in results:
        cell = status_cell(r, witness_chars=0, over_chars=0)
        attrs = f'classname={quoteattr(r["source"]["file"])} name={quoteattr(r["id"])} time="{r["time_s"]:.3f}"'
        summary = f'{cell.text} ({r["outcome"]}): {r["method"]}'
        cert = r["certificate"]
        reason = cell.reason or cert.get("reason") or ""
        detail = [reason or _stated(r)]
        if cell.witness:
            detail.append("witness: " + cell.witness)
        if fails := failing_text(cert):
            detail.append("fails: " + fails)
        if cert.get("sides"):
            detail.append("sides: " + ", ".join(f"{k} = {v}" for k, v in cert["sides"].items()))
        if r["outcome"] == "vacuous":
            detail.append("vacuity: " + str((r.get("vacuity") or {}).get("reason", "")))
        body = ""
        if r["outcome"] in failing:
            body = f'<failure message={quoteattr(summary)} type={quoteattr(r["outcome"])}>{_html.escape(chr(10).join(detail))}</failure>'
        elif r["outcome"] == "open":
            body = f"<skipped message={quoteattr(summary + (': ' + reason if reason else ''))}/>"
        audit = (" [audit: " + audit_text(r) + "]") if r.get("audit") is not None else ""
        if _shown(r) != r["status"]:
            audit = f" [shown as {_shown(r)}]" + audit
        why = f" [reason: {cell.reason}]" if cell.reason else ""
        out = f"<system-out>{_html.escape(cell.text + ': ' + _stated(r) + ' [' + r['scope'] + ']' + why + audit)}</system-out>"
        lines.append(f"    <testcase {attrs}>{body}{out}</testcase>")
    lines += ["  </testsuite>", "</testsuites>"]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------ HTML

#: Node colours of the dependency graph, by what a reader may rely on (see :func:`node_state`): a
#: fully proved result by its grade (∀, instances), each in its own colour; a proof of some sizes of a
#: statement about every size (``partial``) in its own.
STATE_COLOURS = {
    "fully proved ∀": "#1b5e20",
    "fully proved, at instances": "#827717",
    "partial": "#9e9d24",
    "rests on unsettled": "#8d6e63",
    "rests on refuted": "#e65100",
    "refuted": "#1565c0",
    "vacuous": "#6a1b9a",
    "evidence": "#b26a00",
    "open": "#616161",
    "broken": "#c62828",
}
STATUS_COLOURS = {"proved": "#2e7d32", "refuted": "#1565c0", "supported": "#b26a00", "unknown": "#616161",
                  "timeout": "#6d4c41", "error": "#c62828"}
#: The grade as a short badge on a node (so that colour is not the only cue).
GRADE_BADGES = {"universal": "∀", "bounded": "bdd", "instances": "inst"}


def node_state(r: Mapping[str, Any]) -> str:
    """The graph colour class of one result: its own status, and for a proof its dependencies
    and, when fully proved, its grade."""
    deps = (r.get("dependencies") or {}).get("state")
    if r["outcome"] == "broken":
        return "broken"
    if r["status"] == "refuted":
        return "refuted"
    if r["status"] == "proved":
        if r["outcome"] == "vacuous":
            return "vacuous"
        if deps == "rests on refuted":
            return "rests on refuted"
        if r["outcome"] == "partial" or deps == "partially proved":
            return "partial"
        if deps != "fully proved":
            return "rests on unsettled"
        return {"instances": "fully proved, at instances"}.get(
            r.get("grade") or "", "fully proved ∀")
    if deps == "rests on refuted":
        return "rests on refuted"
    return "evidence" if r["status"] == "supported" else "open"


def _layers(results: list[Mapping[str, Any]]) -> dict[str, int]:
    """Longest-path layering: a result sits one layer right of its deepest ancestor in the run.
    Iterative (a depth-first walk on an explicit stack), linear in the graph; an edge that closes a
    cycle counts as depth 0, as it did when this was written recursively."""
    ids = {r["id"] for r in results}
    uses = {r["id"]: [u for u in r["uses"] if u in ids] for r in results}
    depth: dict[str, int] = {}
    active: set[str] = set()
    for r in results:
        root = r["id"]
        if root in depth:
            continue
        work = [(root, 0)]
        active.add(root)
        while work:
            x, i = work[-1]
            children = uses[x]
            if i < len(children):
                work[-1] = (x, i + 1)
                y = children[i]
                if y not in depth and y not in active:
                    active.add(y)
                    work.append((y, 0))
                continue
            work.pop()
            active.discard(x)
            depth[x] = 1 + max((depth.get(u, 0) if u not in active else 0 for u in children), default=-1)
    return depth


@dataclass(frozen=True, slots=True)
class GraphLayout:
    """Node boxes (x, y of the top-left corner), their size, and the canvas."""

    positions: Mapping[str, tuple[float, float]]
    node_w: float
    node_h: float
    width: float
    height: float
    grid_top: float | None  # where the block of results without any dependency edge starts


#: The graph's width budget: a 1280-px screen less the page margins and a scroll bar.
GRAPH_WIDTH = 1200


def layout(results: list[Mapping[str, Any]], width: float = GRAPH_WIDTH) -> GraphLayout:
    """A layered drawing of the ``uses`` DAG, left to right: longest-path layers, then barycentre
    sweeps to reduce crossings, then each node placed near the mean height of its neighbours.
    Results with no edge at all go into a compact grid underneath. Pure Python, deterministic."""
    ids = [r["id"] for r in results]
    known = set(ids)
    parents = {r["id"]: [u for u in r["uses"] if u in known and u != r["id"]] for r in results}
    children: dict[str, list[str]] = {i: [] for i in ids}
    for i, ps in parents.items():
        for p in ps:
            children[p].append(i)
    linked = [i for i in ids if parents[i] or children[i]]
    lonely = [i for i in ids if not parents[i] and not children[i]]
    depth = _layers([r for r in results if r["id"] in set(linked)])
    n_layers = max(depth.values(), default=-1) + 1
    gap_x, gap_y, node_h = 36.0, 6.0, 30.0
    node_w = min(280.0, (width - 20 - gap_x * max(n_layers - 1, 0)) / max(n_layers, 1))
    layers: list[list[str]] = [[] for _ in range(n_layers)]
    for i in linked:
        layers[depth[i]].append(i)
    order = {i: k for layer in layers for k, i in enumerate(layer)}

    def sweep(rank_of: Mapping[str, list[str]], seq: range) -> None:
        for li in seq:
            layer = layers[li]
            bary = {i: (sum(order[n] for n in rank_of[i]) / len(rank_of[i]) if rank_of[i] else order[i]) for i in layer}
            layer.sort(key=lambda i: (bary[i], order[i]))
            for k, i in enumerate(layer):
                order[i] = k

    for _ in range(4):
        sweep(parents, range(1, n_layers))
        sweep(children, range(n_layers - 2, -1, -1))
    pos: dict[str, tuple[float, float]] = {}
    pitch = node_h + gap_y
    for li, layer in enumerate(layers):
        x = 10 + li * (node_w + gap_x)
        y_min = 10.0
        for i in layer:
            near = [pos[p][1] for p in parents[i] if p in pos]
            want = sum(near) / len(near) if near else y_min
            y = max(y_min, want)
            pos[i] = (x, y)
            y_min = y + pitch
    height = max((y for _, y in pos.values()), default=-pitch) + pitch + 10
    grid_top = None
    if lonely:
        grid_top = height + 30
        cols = max(1, int((width - 20 + gap_x / 2) // (280 + gap_x / 2)))
        grid_w = (width - 20 - (cols - 1) * gap_x / 2) / cols
        for k, i in enumerate(lonely):
            pos[i] = (10 + (k % cols) * (grid_w + gap_x / 2), grid_top + 20 + (k // cols) * pitch)
        height = grid_top + 20 + ((len(lonely) - 1) // cols + 1) * pitch + 10
        node_w_grid = grid_w
    else:
        node_w_grid = node_w
    return GraphLayout(pos, node_w if linked else node_w_grid, node_h, width, height, grid_top) if not lonely or linked \
        else GraphLayout(pos, node_w_grid, node_h, width, height, grid_top)


def _graph_svg(results: list[Mapping[str, Any]]) -> str:
    lay = layout(results)
    e = _html.escape
    known = {r["id"] for r in results}
    linked = {r["id"] for r in results for u in r["uses"] if u in known} | {u for r in results for u in r["uses"] if u in known}
    grid_w = lay.node_w
    if lay.grid_top is not None:
        xs = sorted({x for i, (x, _) in lay.positions.items() if i not in linked})
        grid_w = (xs[1] - xs[0] - 20) if len(xs) > 1 else 280.0
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" id="graph" width="{lay.width:.0f}" height="{lay.height:.0f}" '
             f'viewBox="0 0 {lay.width:.0f} {lay.height:.0f}" role="img" aria-label="dependency graph">',
             '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
             'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>']
    w, h = lay.node_w, lay.node_h
    for r in results:
        if r["id"] not in linked:
            continue
        x2, y2 = lay.positions[r["id"]]
        for u in r["uses"]:
            if u in lay.positions and u in linked:
                x1, y1 = lay.positions[u]
                sx, sy, tx, ty = x1 + w, y1 + h / 2, x2, y2 + h / 2
                mx = (sx + tx) / 2
                parts.append(f'<path class="edge" data-from="{e(u)}" data-to="{e(r["id"])}" d="M{sx:.1f},{sy:.1f} '
                             f'C{mx:.1f},{sy:.1f} {mx:.1f},{ty:.1f} {tx - 1:.1f},{ty:.1f}" fill="none" stroke="#777" '
                             'stroke-width="1.2" marker-end="url(#arrow)"/>')
    if lay.grid_top is not None:
        parts.append(f'<text x="10" y="{lay.grid_top + 8:.0f}" font-size="13" fill="#444" font-family="sans-serif">'
                     'no dependency in either direction</text>')
    for r in results:
        ob_id = r["id"]
        x, y = lay.positions[ob_id]
        nw = w if ob_id in linked else grid_w
        state = node_state(r)
        chars = max(8, int((nw - 10) / 6.3))
        badge = GRADE_BADGES.get(r.get("grade") or "", "") if r["status"] == "proved" else ""
        line1, line2 = _node_lines(ob_id, chars)
        line1 = _node_lines(ob_id, chars - len(badge) - 1)[0] if badge else line1
        tip = e(f"{ob_id}\n{status_cell(r).text} ({r['outcome']}; {state})")
        parts.append(f'<a href="#{e(_anchor(ob_id))}"><g class="node" data-id="{e(ob_id)}" data-status="{e(r["status"])}" '
                     f'data-state="{e(state)}"><title>{tip}</title>'
                     f'<rect x="{x:.1f}" y="{y:.1f}" width="{nw:.1f}" height="{h:.0f}" rx="5" fill="{STATE_COLOURS[state]}"/>'
                     f'<text x="{x + 5:.1f}" y="{y + 12:.1f}" font-size="10" fill="#fff" font-family="sans-serif">'
                     f'<tspan class="prefix" fill-opacity="0.8">{e(line1)}</tspan>'
                     f'<tspan x="{x + 5:.1f}" dy="12" font-weight="600">{e(line2)}</tspan></text>'
                     + (f'<text class="badge" x="{x + nw - 4:.1f}" y="{y + 12:.1f}" text-anchor="end" font-size="10" '
                        f'font-weight="700" fill="#fff" font-family="sans-serif">{e(badge)}</text>' if badge else "")
                     + '</g></a>')
    parts.append("</svg>")
    return "".join(parts)


def _node_lines(ob_id: str, chars: int) -> tuple[str, str]:
    """A node's two text lines: the id's package part, then its own name (each cut to ``chars``)."""
    head, _, name = ob_id.rpartition(".")
    cut = lambda t: t if len(t) <= chars else t[: chars - 1] + "…"  # noqa: E731
    return cut(head), cut(name)


def _anchor(ob_id: str) -> str:
    return "ob-" + re.sub(r"[^A-Za-z0-9_.-]", "_", ob_id)


_SCRIPT = """
const q = document.getElementById('search');
function filter() {
  const t = q.value.trim().toLowerCase();
  document.querySelectorAll('#graph .node').forEach(n => {
    n.style.opacity = (!t || n.dataset.id.toLowerCase().includes(t)) ? 1 : 0.15; });
  document.querySelectorAll('#results .result').forEach(r => {
    r.style.display = (!t || r.textContent.toLowerCase().includes(t)) ? '' : 'none'; });
}
q.addEventListener('input', filter);
function openTarget() {
  const card = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (card) {
    document.querySelectorAll('.result.target').forEach(c => c.classList.remove('target'));
    card.open = true; card.classList.add('target'); card.scrollIntoView({block: 'start'});
  }
}
window.addEventListener('hashchange', openTarget); openTarget();
document.body.dataset.scrollWidth = document.documentElement.scrollWidth;
document.body.dataset.viewportWidth = window.innerWidth;
"""

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; padding: 0 16px; color: #222; max-width: 1200px;
       line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.4em; }
.chip { color: #fff; border-radius: 4px; padding: 0 .4em; font-size: .85em; display: inline-block; margin: 1px 0;
        max-width: 100%; overflow-wrap: anywhere; }
#legend .chip { margin-right: .2em; }
pre { max-width: 100%; overflow: auto; background: #f6f6f6; padding: .5em; font-size: .8em; white-space: pre-wrap;
      overflow-wrap: anywhere; }
#graph-box { overflow-x: auto; border: 1px solid #ddd; margin: 1em 0; -webkit-overflow-scrolling: touch; }
#graph { max-width: 100%; height: auto; display: block; }
#graph .node:hover rect { stroke: #000; stroke-width: 2; }
#search { font-size: 1em; padding: .3em .4em; width: 24em; max-width: 100%; box-sizing: border-box; }
#results { margin: 0; padding: 0; }
.result { border: 1px solid #ddd; border-left: 6px solid var(--state); border-radius: 4px; margin: .4em 0;
          background: #fff; }
.result > summary { cursor: pointer; padding: .45em .6em; list-style-position: inside; overflow-wrap: anywhere; }
.result > summary code { font-weight: 600; }
.result > summary .claim { color: #444; }
.result.target { background: #fff8e1; }
.panel { padding: 0 .8em .6em; }
.panel dl { display: grid; grid-template-columns: 9em minmax(0, 1fr); gap: .25em .8em; margin: .3em 0; }
.panel dt { font-weight: 600; color: #555; }
.panel dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
.panel ol, .panel ul { margin: 0; padding-left: 1.3em; }
.reason { background: #fff3e0; border-left: 3px solid #e65100; padding: .1em .4em; }
.grade-universal { color: #1b5e20; font-weight: 600; } .grade-bounded { color: #00796b; font-weight: 600; }
.grade-instances { color: #827717; font-weight: 600; }
@media (max-width: 700px) {
  body { margin: .6em auto; padding: 0 10px; }
  #graph { max-width: none; width: 1000px; }
  .panel dl { grid-template-columns: minmax(0, 1fr); gap: 0; }
  .panel dt { margin-top: .45em; }
  .result > summary .claim { display: block; }
}
"""

#: What each grade promises, in the details panel.
_GRADE_MEANING = {"universal": "for every value and every size the statement ranges over",
                  "bounded": "for every value, at each size of the family", "instances": "at these points only"}


def _claims_html(r: Mapping[str, Any]) -> str:
    """The checked formulas of a result (schema 2), or why there are none."""
    claims = r.get("claims")
    if claims is None:
        return ""
    e = _html.escape
    if not claims:
        return "no declared claim: the discharge checks its statement directly"
    return "<ul>" + "".join(f"<li><code>{e(c['name'])}</code>: {e(c.get('text') or c.get('error') or '')}</li>"
                            for c in claims) + "</ul>"


def _ledger_html(cert: Mapping[str, Any], limit: int = 40) -> str:
    """The proof's trust ledger: each step's backend and version, what it did and its answer."""
    e = _html.escape
    steps = list(cert.get("steps") or ())
    if not steps:
        return ""
    items = "".join(f"<li><code>{e(str(s.get('backend')))}</code> {e(str(s.get('version')))}: {e(str(s.get('action')))} → "
                    f"<b>{e(str(s.get('answer')))}</b> ({float(s.get('time_s') or 0):.3f} s)</li>" for s in steps[:limit])
    more = f"<li>… {len(steps) - limit} more steps (certificate below)</li>" if len(steps) > limit else ""
    return f"<ol>{items}{more}</ol>"


def _grade_html(r: Mapping[str, Any]) -> str:
    e = _html.escape
    if r["status"] != "proved":
        return ""
    grade = r.get("grade") or ""
    over = r.get("grade_over") or ""
    text = {"universal": "∀ (universal)", "bounded": "bounded", "instances": "instances"}.get(grade, grade or "ungraded")
    meaning = _GRADE_MEANING.get(grade, "")
    return (f'<span class="grade-{e(grade)}">{e(text)}</span>'
            + (f": {e(meaning)}" if meaning else "") + (f" — {e(over)}" if over and grade != "universal" else ""))


def _panel(r: Mapping[str, Any], cell: Any, audited: bool) -> str:
    """A result's details: claim, scope, source, status and grade, reason, witness, dependencies,
    method, the trust ledger, the checked formulas, the audit and the certificate."""
    e = _html.escape
    cert = r.get("certificate") or {}
    deps = r.get("dependencies") or {}
    fields: list[tuple[str, str]] = [
        ("claim", e(_stated(r))),
        ("scope", e(r["scope"])),
        ("source", f'{e(r["source"]["file"])}, {e(r["source"]["label"])}'),
        ("status", f'<b>{e(cell.text)}</b> ({e(r["outcome"])}; the source says it {e(str(r.get("expect")))})'),
    ]
    if r["status"] == "proved":
        fields.append(("grade", _grade_html(r)))
    if cell.reason:
        fields.append(("reason", f'<span class="reason">{e(cell.reason)}</span>'))
    if cell.witness:
        sides = ", ".join(f"{k} = {v}" for k, v in (cert.get("sides") or {}).items())
        fails = failing_text(cert)
        fields.append(("witness", e(cell.witness) + (f"<br><small>fails: {e(fails)}</small>" if fails else "")
                       + (f"<br><small>sides: {e(sides)}</small>" if sides else "")))
    uses = [f'<a href="#{e(_anchor(u))}"><code>{e(u)}</code></a>' for u in r.get("uses") or ()]
    fields.append(("depends", e(deps.get("state", "")) + (" — uses " + ", ".join(uses) if uses else "")))
    fields.append(("method", e(r["method"])))
    ledger = _ledger_html(cert)
    if ledger:
        fields.append(("ledger", ledger))
    formulas = _claims_html(r)
    if formulas:
        fields.append(("checked formulas", formulas))
    if audited and r.get("audit") is not None:
        fields.append(("audit", e(audit_text(r))))
    body = "".join(f"<dt>{e(k)}</dt><dd>{v}</dd>" for k, v in fields)
    raw = json.dumps(cert, indent=2, ensure_ascii=False)
    extra = (f'<details><summary>audit (JSON)</summary><pre>{e(json.dumps(r["audit"], indent=2, ensure_ascii=False))}</pre></details>'
             if audited and r.get("audit") is not None else "")
    return f'<div class="panel"><dl>{body}</dl><details><summary>certificate (JSON)</summary><pre>{e(raw)}</pre></details>{extra}</div>'


def html(doc: Mapping[str, Any]) -> str:
    """A self-contained page: summary, the layered dependency graph coloured by dependency state
    and, for fully proved results, by grade (∀, bounded, instances; legend, search, each node
    linking to its details), then one card per result whose details panel gives the claim, grade,
    reason, witness, dependencies, method, trust ledger and certificate. No external resources;
    fits a 1280-px screen, and a 390-px phone (the graph pans inside its box)."""
    results = list(doc["results"])
    e = _html.escape
    legend = " ".join(f'<span class="chip" style="background:{c}">{e(s)}</span>' for s, c in STATE_COLOURS.items())
    audited = _audited(doc)
    cards = []
    for r in results:
        cell = status_cell(r, witness_chars=0)
        state = node_state(r)
        colour = STATE_COLOURS[state]
        head = shorten(_stated(r), 110)
        cards.append(
            f'<details id="{e(_anchor(r["id"]))}" class="result" data-status="{e(r["status"])}" data-outcome="{e(r["outcome"])}" '
            f'data-grade="{e(r.get("grade") or "")}" data-state="{e(state)}" style="--state:{colour}">'
            f'<summary><span class="chip" style="background:{colour}">{e(cell.label)}</span> <code>{e(r["id"])}</code> '
            f'<span class="claim">{e(head)}</span></summary>{_panel(r, cell, audited)}</details>')
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Proof-status report</title>
<style>{_STYLE}</style></head>
<body>
<h1>Proof-status report</h1>
<p id="summary">{e(summary_text(doc["summary"]))} (schema {doc["schema_version"]}, checker {e(doc["checker_version"])})</p>
<h2>Dependency graph</h2>
<p>Arrows run from a result to the results that use it. Colour: what a reader may rely on; a fully proved result
by its grade (∀, bounded, at instances), also shown on the node. <span id="legend">{legend}</span></p>
<p><input id="search" type="search" placeholder="search obligations (id or text)" aria-label="search obligations"></p>
<div id="graph-box">{_graph_svg(results)}</div>
<h2>Obligations</h2>
<p>Each result opens to its details: claim, grade, reason, witness, dependencies, method and the trust ledger.</p>
<div id="results">
{chr(10).join(cards)}
</div>
<script>{_SCRIPT}</script>
</body></html>
"""
