"""LaTeX, JUnit XML and HTML renderers. Each reads only the JSON report document."""

from __future__ import annotations

import html as _html
import json
import re
from typing import Any, Mapping
from xml.sax.saxutils import quoteattr

from checker.texify import texify, texttt

STATUS_COLOURS = {
    "proved": "#2e7d32",
    "refuted": "#1565c0",
    "supported": "#f9a825",
    "unknown": "#9e9e9e",
    "timeout": "#6d4c41",
    "error": "#c62828",
}

def _shown(r: Mapping[str, Any]) -> str:
    return r.get("shown_status") or r["status"]


def _audited(doc: Mapping[str, Any]) -> bool:
    return any(r.get("audit") is not None for r in doc["results"])


def audit_text(r: Mapping[str, Any]) -> str:
    """The audit verdicts of one result in one line (empty when not audited)."""
    from checker.audit import cells

    if r.get("audit") is None:
        return ""
    c = cells(r["audit"])
    names = {"vacuity": "vacuity", "necessity": "necessity", "tightness": "tightness", "shrink": "shrunk",
             "brittleness": "seeds"}
    return "; ".join(f"{names[k]}: {v}" for k, v in c.items() if v != "-") or "no applicable audit"


# ----------------------------------------------------------------------------------- LaTeX


def latex_escape(text: str) -> str:
    """Plain text (with Unicode mathematics) to LaTeX for pdflatex: math as ``$…$``, prose
    escaped, no character lost (:mod:`checker.texify`)."""
    return texify(text)


#: The macros every LaTeX table uses, each ``\providecommand``'ed so that an author can restyle
#: it by defining it first (as leanblueprint does). Arguments: see the comments in the output.
LATEX_MACROS = r"""\providecommand{\obproved}[1]{\textbf{proved}~#1}
\providecommand{\obuniversal}{$\forall$}
\providecommand{\obbounded}[1]{(#1)}
\providecommand{\obinstances}[1]{at #1}
\providecommand{\obvacuous}{\textbf{proved (vacuous)}}
\providecommand{\obrefuted}{\textbf{refuted}}
\providecommand{\obsupported}{\textit{supported}}
\providecommand{\obbrittle}{\textit{brittle}}
\providecommand{\obunknown}{unknown}
\providecommand{\obtimeout}{timeout}
\providecommand{\oberror}{\textbf{error}}
\providecommand{\obfullyproved}{~$\checkmark$}
\providecommand{\obrestson}[1]{\newline\textit{rests on #1}}
\providecommand{\obvacuity}[1]{\newline\textit{vacuity #1}}
\providecommand{\obwitness}[1]{\newline{\scriptsize witness: #1}}
\providecommand{\oboutcome}[1]{\newline{\scriptsize #1}}
\providecommand{\obid}[1]{\newline{\scriptsize #1}}
\providecommand{\obmethod}[1]{\newline{\itshape #1}}
\providecommand{\obwidthsource}{0.18}
\providecommand{\obwidthclaim}{0.53}
\providecommand{\obwidthstatus}{0.29}
\providecommand{\obtablesize}{\scriptsize}
\providecommand{\obheader}{Source & Claim (obligation) & Status (method)}"""

_LATEX_PREAMBLE_NOTE = [
    "% Requires \\usepackage{booktabs,longtable,array,amssymb}. Every \\ob... macro below is",
    "% \\providecommand'ed: define your own before \\input to restyle (e.g. \\renewcommand is not needed).",
    "% \\obproved{GRADE} with GRADE \\obuniversal, \\obbounded{SIZES} or \\obinstances{POINTS};",
    "% \\obfullyproved marks a proof whose every ancestor is proved; \\obrestson{WHAT} one that is not.",
]

#: Characters of the compact table's claim and method cells.
CLAIM_CHARS, METHOD_CHARS, LABEL_CHARS, OVER_CHARS = 90, 32, 30, 30

_ABBREVIATIONS = (("Theorem", "Thm"), ("Corollary", "Cor."), ("Proposition", "Prop."), ("Lemma", "Lem."),
                  ("Definition", "Def."), ("Section", "Sec."), ("Equation", "Eq."), ("Example", "Ex."),
                  ("Remark", "Rem."))


def _cut(text: str, limit: int) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    if " " in head[limit // 2:]:
        head = head[: head.rindex(" ")]
    return head.rstrip(" ,;:(") + "…"


def latex_cut(text: str, limit: int) -> str:
    """:func:`_cut` as LaTeX; the ellipsis of the cut is prose (it must not pull the last word
    into mathematics)."""
    cut = _cut(text, limit)
    if cut == " ".join(text.split()):
        return latex_escape(cut)
    return latex_escape(cut[:-1]) + "\\ldots{}"


def short_label(label: str) -> str:
    """The source's own reference, short: ``Theorem 2 (Eq. 7), single-layer bound`` → ``Thm 2 (Eq. 7)``."""
    head = label.split(": ")[0]
    pieces = head.split(", ")
    kept = [pieces[0]] + [p for p in pieces[1:] if any(c.isdigit() for c in p)]
    head = ", ".join(kept)
    for long, short in _ABBREVIATIONS:
        head = re.sub(rf"\b{long}\b", short, head)
    return _cut(head, LABEL_CHARS).removesuffix("…").rstrip() if len(head) > LABEL_CHARS else head


def short_method(method: str) -> str:
    return _cut(re.split(r"[;(]", method)[0].strip() or method, METHOD_CHARS).removesuffix("…")


def short_over(over: str) -> str:
    """What a grade covers, in short: ``the 4 checked sizes (…)`` → ``the 4 checked sizes``."""
    head = over.split(" (")[0]
    return head if len(head) >= 6 else over


def latex_status(r: Mapping[str, Any], over_chars: int = OVER_CHARS, witness_chars: int = 48, short: bool = False) -> str:
    """The status cell as macros: ``\\obproved{\\obbounded{K = 2\\ldots 6}}\\obrestson{7 supported}``."""
    from checker.reports import status_cell

    cell = status_cell(r, witness_chars)
    shown = _shown(r)
    if r["status"] == "proved":
        if cell.label == "proved (vacuous)":
            out = "\\obvacuous{}"
        else:
            over = r.get("grade_over") or ""
            over = latex_cut(short_over(over) if short else over, over_chars)
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
    if cell.witness:
        out += "\\obwitness{" + latex_escape(cell.witness) + "}"
    outcome = r["outcome"]
    expect = r.get("expect")
    # "confirmed" of a claim the source says holds, and "evidence" of a supported one, repeat the
    # status; every other outcome is said
    if expect in ("fails", "open"):
        out += "\\oboutcome{" + latex_escape(f"{outcome}; the source says it {expect}") + "}"
    elif outcome not in ("confirmed", "evidence"):
        out += "\\oboutcome{" + latex_escape(outcome) + "}"
    return out


def _longtable(columns: str, header: str, rows: list[str], size: str = "\\obtablesize") -> list[str]:
    return ["{" + size, "\\begin{longtable}{" + columns + "}", "\\toprule", header + " \\\\", "\\midrule", "\\endhead",
            "\\bottomrule", "\\endfoot", *rows, "\\end{longtable}", "}"]


def latex(doc: Mapping[str, Any]) -> str:
    """The compact table: one row per obligation that fits ``\\linewidth`` — the source's short
    reference with the id under it, the claim (cut to :data:`CLAIM_CHARS`), the status with grade,
    dependency mark and outcome as macros, the method in short — then the per-source summary.
    ``\\input`` it in a document with ``booktabs``, ``longtable``, ``array`` and ``amssymb``."""
    audited = _audited(doc)
    rows = []
    for r in doc["results"]:
        ref = latex_escape(short_label(r["source"]["label"]))
        claim = latex_cut(r["statement"], CLAIM_CHARS) + "\\obid{" + texttt(r["id"]) + "}"
        status = latex_status(r, over_chars=OVER_CHARS, short=True) + "\\obmethod{" + latex_escape(short_method(r["method"])) + "}"
        if audited:
            status += "\\newline{\\scriptsize audit: " + latex_cut(audit_text(r), 80) + "}"
        rows.append(" & ".join((ref, claim, status)) + " \\\\")
    lines = ["% Proof-status table generated by `obligations check --format latex` (compact;",
             "% `--latex-detail` gives the full claims, methods and scopes).", *_LATEX_PREAMBLE_NOTE, LATEX_MACROS]
    columns = "".join(f">{{\\raggedright\\arraybackslash\\hspace{{0pt}}}}p{{\\dimexpr\\obwidth{c}\\linewidth-2\\tabcolsep}}"
                      for c in ("source", "claim", "status"))
    lines += _longtable(columns, "\\obheader", rows)
    lines += latex_summary(doc)
    return "\n".join(lines) + "\n"


def latex_detail(doc: Mapping[str, Any]) -> str:
    """The long table: id and full source label, the whole claim, method and scope, status cell
    (uncut witness) and, when audited, the audit; then the per-source summary."""
    audited = _audited(doc)
    fr = [0.2, 0.3, 0.28, 0.22] if not audited else [0.18, 0.26, 0.2, 0.18, 0.18]
    columns = "".join(f">{{\\raggedright\\arraybackslash\\hspace{{0pt}}}}p{{\\dimexpr{f}\\linewidth-2\\tabcolsep}}" for f in fr)
    rows = []
    for r in doc["results"]:
        cells = [texttt(r["id"]) + "\\newline{\\scriptsize " + latex_escape(r["source"]["label"]) + " ("
                 + texttt(r["source"]["file"]) + ")}",
                 latex_escape(r["statement"]),
                 latex_escape(r["method"]) + "; " + latex_escape(r["scope"]),
                 latex_status(r, over_chars=400, witness_chars=0)]
        if audited:
            cells.append(latex_escape(audit_text(r)))
        rows.append(" & ".join(cells) + " \\\\ \\addlinespace")
    header = "Obligation & Claim & Method and scope & Status" + (" & Audit" if audited else "")
    lines = ["% Proof-status table generated by `obligations check --format latex --latex-detail`.",
             *_LATEX_PREAMBLE_NOTE, LATEX_MACROS]
    lines += _longtable(columns, header, rows, size="\\small")
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
    """The per-source summary: one row per source document, counts by status and grade."""
    rows = []
    for file, c in source_summary(doc):
        rows.append(texttt(_source_name(doc, file)) + " & " + " & ".join(str(c[k]) for k, _ in SUMMARY_COLUMNS) + " \\\\")
    total = {k: sum(c[k] for _, c in source_summary(doc)) for k, _ in SUMMARY_COLUMNS}
    head = " & ".join(h for _, h in SUMMARY_COLUMNS)
    return ["% Per-source summary: proved by grade (universal, bounded, instances), fully proved (every",
            "% ancestor proved too), refuted, supported (evidence), open (unknown, timeout, error).",
            "\\begin{center}\\obtablesize",
            "\\begin{tabular*}{\\linewidth}{@{\\extracolsep{\\fill}}>{\\raggedright\\arraybackslash}p{0.24\\linewidth}"
            + "r" * len(SUMMARY_COLUMNS) + "@{}}",
            "\\toprule", "Source & " + head + " \\\\", "\\midrule", *rows, "\\midrule",
            "all & " + " & ".join(str(total[k]) for k, _ in SUMMARY_COLUMNS) + " \\\\", "\\bottomrule", "\\end{tabular*}",
            "\\end{center}"]


def latex_document(doc: Mapping[str, Any], detail: bool = False, options: str = "") -> str:
    """A minimal compilable ``article`` around the table (used by the tests)."""
    return (
        f"\\documentclass[{options}]{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage{{booktabs}}\n"
        "\\usepackage{longtable}\n\\usepackage{array}\n\\usepackage{amssymb}\n\\begin{document}\n"
        + (latex_detail(doc) if detail else latex(doc)) + "\\end{document}\n"
    )


# ----------------------------------------------------------------------------------- JUnit


def junit(doc: Mapping[str, Any]) -> str:
    """One testcase per obligation: contradicted and broken are failures, open is skipped."""
    results = doc["results"]
    failures = sum(r["outcome"] in ("contradicted", "broken") for r in results)
    skipped = sum(r["outcome"] == "open" for r in results)
    total_time = sum(r["time_s"] for r in results)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<testsuites name="obligations" tests="{len(results)}" failures="{failures}" skipped="{skipped}" time="{total_time:.3f}">',
             f'  <testsuite name="obligations" tests="{len(results)}" failures="{failures}" errors="0" skipped="{skipped}" time="{total_time:.3f}">']
    for r in results:
        attrs = f'classname={quoteattr(r["source"]["file"])} name={quoteattr(r["id"])} time="{r["time_s"]:.3f}"'
        summary = f'{_shown(r)} ({r["outcome"]}): {r["method"]}'
        reason = r["certificate"].get("reason") or ""
        body = ""
        if r["outcome"] in ("contradicted", "broken"):
            body = f'<failure message={quoteattr(summary)} type={quoteattr(r["outcome"])}>{_html.escape(reason or r["statement"])}</failure>'
        elif r["outcome"] == "open":
            body = f"<skipped message={quoteattr(summary + (': ' + reason if reason else ''))}/>"
        audit = (" [audit: " + audit_text(r) + "]") if r.get("audit") is not None else ""
        if _shown(r) != r["status"]:
            audit = f" [shown as {_shown(r)}]" + audit
        out = f"<system-out>{_html.escape(r['statement'] + ' [' + r['scope'] + ']' + audit)}</system-out>"
        lines.append(f"    <testcase {attrs}>{body}{out}</testcase>")
    lines += ["  </testsuite>", "</testsuites>"]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------ HTML


def _layers(results: list[Mapping[str, Any]]) -> dict[str, int]:
    ids = {r["id"] for r in results}
    uses = {r["id"]: [u for u in r["uses"] if u in ids] for r in results}
    depth: dict[str, int] = {}

    def d(x: str, seen: frozenset[str] = frozenset()) -> int:
        if x in depth:
            return depth[x]
        if x in seen:
            return 0
        depth[x] = 1 + max((d(u, seen | {x}) for u in uses[x]), default=-1)
        return depth[x]

    for r in results:
        d(r["id"])
    return depth


def _graph_svg(results: list[Mapping[str, Any]]) -> str:
    depth = _layers(results)
    columns: dict[int, list[str]] = {}
    for r in results:
        columns.setdefault(depth[r["id"]], []).append(r["id"])
    node_w, node_h, gap_x, gap_y = 300, 26, 60, 10
    pos = {}
    for col, ids in columns.items():
        for row, ob_id in enumerate(ids):
            pos[ob_id] = (20 + col * (node_w + gap_x), 20 + row * (node_h + gap_y))
    width = 40 + (max(columns, default=0) + 1) * (node_w + gap_x)
    height = 40 + max((len(v) for v in columns.values()), default=1) * (node_h + gap_y)
    status = {r["id"]: r["status"] for r in results}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" id="graph" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="dependency graph">']
    for r in results:
        x2, y2 = pos[r["id"]]
        for u in r["uses"]:
            if u in pos:
                x1, y1 = pos[u]
                parts.append(f'<line class="edge" x1="{x1 + node_w}" y1="{y1 + node_h / 2}" x2="{x2}" y2="{y2 + node_h / 2}" '
                             'stroke="#888" stroke-width="1.2"/>')
    for ob_id, (x, y) in pos.items():
        colour = STATUS_COLOURS.get(status[ob_id], "#000")
        label = _html.escape(ob_id if len(ob_id) <= 44 else ob_id[:43] + "…")
        anchor = _html.escape(_anchor(ob_id))
        parts.append(f'<a href="#{anchor}"><g class="node" data-id="{_html.escape(ob_id)}" data-status="{status[ob_id]}">'
                     f'<rect x="{x}" y="{y}" width="{node_w}" height="{node_h}" rx="5" fill="{colour}"/>'
                     f'<text x="{x + 8}" y="{y + 17}" font-size="12" fill="#fff" font-family="monospace">{label}</text></g></a>')
    parts.append("</svg>")
    return "".join(parts)


def _anchor(ob_id: str) -> str:
    return "ob-" + re.sub(r"[^A-Za-z0-9_.-]", "_", ob_id)


def html(doc: Mapping[str, Any]) -> str:
    """A self-contained page: summary, dependency graph coloured by status, the table, and
    every certificate viewable in place. No external resources."""
    results = list(doc["results"])
    e = _html.escape
    legend = " ".join(f'<span class="chip" style="background:{c}">{s}</span>' for s, c in STATUS_COLOURS.items())
    summary = ", ".join(f"{n} {k}" for k, n in doc["summary"]["status"].items() if n)
    rows = []
    audited = _audited(doc)
    for r in results:
        colour = STATUS_COLOURS.get(r["status"], "#000")
        cert = json.dumps(r["certificate"], indent=2, ensure_ascii=False)
        rows.append(
            f'<tr id="{e(_anchor(r["id"]))}" class="result" data-status="{e(r["status"])}" data-outcome="{e(r["outcome"])}">'
            f'<td><code>{e(r["id"])}</code></td><td>{e(r["source"]["file"])}<br><small>{e(r["source"]["label"])}</small></td>'
            f'<td>{e(r["statement"])}<br><small>scope: {e(r["scope"])}</small></td><td>{e(r["method"])}</td>'
            f'<td><span class="chip" style="background:{colour}">{e(_shown(r))}</span><br><small>{e(r["outcome"])}; '
            f'{e(r.get("dependencies", {}).get("state", ""))}</small></td>'
            f'<td><details><summary>certificate</summary><pre>{e(cert)}</pre></details></td>'
            + (f'<td class="audit">{e(audit_text(r))}<details><summary>audit</summary><pre>'
               f'{e(json.dumps(r["audit"], indent=2, ensure_ascii=False))}</pre></details></td>' if audited else "")
            + '</tr>'
        )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Proof-status report</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }}
table {{ border-collapse: collapse; width: 100%; }} td, th {{ border-bottom: 1px solid #ddd; padding: .4em; vertical-align: top; text-align: left; }}
.chip {{ color: #fff; border-radius: 4px; padding: 0 .4em; font-size: .85em; }}
pre {{ max-width: 60em; overflow: auto; background: #f6f6f6; padding: .5em; font-size: .8em; }}
#graph-box {{ overflow: auto; border: 1px solid #ddd; margin: 1em 0; }}
</style></head>
<body>
<h1>Proof-status report</h1>
<p id="summary">{len(results)} obligations: {e(summary)} (schema {doc["schema_version"]}, checker {e(doc["checker_version"])})</p>
<p>{legend}</p>
<h2>Dependency graph</h2>
<div id="graph-box">{_graph_svg(results)}</div>
<h2>Obligations</h2>
<table id="results"><thead><tr><th>obligation</th><th>source</th><th>claim</th><th>method</th><th>status</th><th></th>{"<th>audit</th>" if audited else ""}</tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>
</body></html>
"""
