"""LaTeX, JUnit XML and HTML renderers. Each reads only the JSON report document."""

from __future__ import annotations

import html as _html
import json
import re
from dataclasses import dataclass
from typing import Any, Mapping
from xml.sax.saxutils import quoteattr

from checker.report.cells import cells as audit_verdict_cells
from checker.report.cells import short_over, status_cell, summary_text, terminal_safe, xml_text  # noqa: F401  (re-exported)
from checker.report.texify import texify, texttt


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
\providecommand{\oboutcome}[1]{; #1}
\providecommand{\obid}[1]{\newline{\scriptsize #1}}
\providecommand{\obmethod}[1]{\newline{\itshape #1}}
\providecommand{\obwidthsource}{0.15}
\providecommand{\obwidthclaim}{0.5}
\providecommand{\obwidthstatus}{0.35}
\providecommand{\obtablesize}{\scriptsize}
\providecommand{\obheader}{Source & Claim (obligation) & Status (method)}"""

_LATEX_PREAMBLE_NOTE = [
    "% Requires \\usepackage{booktabs,longtable,array,amssymb}. Every \\ob... macro below is",
    "% \\providecommand'ed: define your own before \\input to restyle (e.g. \\renewcommand is not needed).",
    "% \\obproved{GRADE} with GRADE \\obuniversal, \\obbounded{SIZES} or \\obinstances{POINTS};",
    "% \\obfullyproved marks a proof whose every ancestor is proved; \\obrestson{WHAT} one that is not.",
]

#: Characters of the compact table's claim and method cells.
CLAIM_CHARS, METHOD_CHARS, LABEL_CHARS, OVER_CHARS = 80, 32, 30, 30

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


def latex_status(r: Mapping[str, Any], over_chars: int = OVER_CHARS, witness_chars: int = 48, short: bool = False) -> str:
    """The status cell as macros: ``\\obproved{\\obbounded{K = 2\\ldots 6}}\\obrestson{7 supported}``."""
    cell = status_cell(r, witness_chars)
    shown = _shown(r)
    if r["status"] == "proved":
        if cell.label == "proved (vacuous)":
            out = "\\obvacuous{}"
        else:
            over = r.get("grade_over") or ""
            over = latex_escape(short_over(over, over_chars) if short else over)
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
        cells = ["{\\footnotesize " + texttt(r["id"], break_every=12) + "}\\newline{\\scriptsize " + latex_escape(r["source"]["label"]) + " ("
                 + texttt(r["source"]["file"], break_every=8) + ")}",
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
    """One testcase per obligation: contradicted, vacuous and broken are failures (with the witness
    and both sides where there is one), open is skipped; every case says its status cell.
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
        reason = cert.get("reason") or ""
        detail = [reason or r["statement"]]
        if cell.witness:
            detail.append("witness: " + cell.witness)
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
        out = f"<system-out>{_html.escape(cell.text + ': ' + r['statement'] + ' [' + r['scope'] + ']' + audit)}</system-out>"
        lines.append(f"    <testcase {attrs}>{body}{out}</testcase>")
    lines += ["  </testsuite>", "</testsuites>"]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------ HTML

#: Node colours of the dependency graph, by what a reader may rely on (see :func:`node_state`).
STATE_COLOURS = {
    "fully proved": "#2e7d32",
    "rests on unsettled": "#9e9d24",
    "rests on refuted": "#e65100",
    "refuted": "#1565c0",
    "vacuous": "#6a1b9a",
    "evidence": "#f9a825",
    "open": "#757575",
    "broken": "#c62828",
}
STATUS_COLOURS = {"proved": "#2e7d32", "refuted": "#1565c0", "supported": "#f9a825", "unknown": "#9e9e9e",
                  "timeout": "#6d4c41", "error": "#c62828"}


def node_state(r: Mapping[str, Any]) -> str:
    """The graph colour class of one result: its own status, and for a proof its dependencies."""
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
        return "fully proved" if deps == "fully proved" else "rests on unsettled"
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
        line1, line2 = _node_lines(ob_id, max(8, int((nw - 10) / 6.3)))
        tip = e(f"{ob_id}\n{status_cell(r).text} ({r['outcome']}; {state})")
        parts.append(f'<a href="#{e(_anchor(ob_id))}"><g class="node" data-id="{e(ob_id)}" data-status="{e(r["status"])}" '
                     f'data-state="{e(state)}"><title>{tip}</title>'
                     f'<rect x="{x:.1f}" y="{y:.1f}" width="{nw:.1f}" height="{h:.0f}" rx="5" fill="{STATE_COLOURS[state]}"/>'
                     f'<text x="{x + 5:.1f}" y="{y + 12:.1f}" font-size="10" fill="#fff" font-family="sans-serif">'
                     f'<tspan class="prefix" fill-opacity="0.8">{e(line1)}</tspan>'
                     f'<tspan x="{x + 5:.1f}" dy="12" font-weight="600">{e(line2)}</tspan></text></g></a>')
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
  document.querySelectorAll('tr.result').forEach(r => {
    r.style.display = (!t || r.textContent.toLowerCase().includes(t)) ? '' : 'none'; });
}
q.addEventListener('input', filter);
function openTarget() {
  const row = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (row) { row.querySelectorAll('details').forEach(d => d.open = true); row.classList.add('target'); }
}
window.addEventListener('hashchange', openTarget); openTarget();
document.body.dataset.scrollWidth = document.documentElement.scrollWidth;
"""


def _claims_html(r: Mapping[str, Any]) -> str:
    """The checked formulas of a result (schema 2), or why there are none."""
    claims = r.get("claims")
    if claims is None:
        return ""
    e = _html.escape
    if not claims:
        return "<details><summary>claims</summary><p>no declared claim: the discharge checks its statement directly</p></details>"
    items = "".join(f"<li><code>{e(c['name'])}</code>: {e(c.get('text') or '')}</li>" for c in claims)
    return f"<details><summary>claims ({len(claims)})</summary><ul>{items}</ul></details>"


def html(doc: Mapping[str, Any]) -> str:
    """A self-contained page: summary, the layered dependency graph coloured by dependency state
    (legend, search, each node linking to its certificate), the table, and every certificate
    viewable in place. No external resources; fits a 1280-px screen."""
    results = list(doc["results"])
    e = _html.escape
    legend = " ".join(f'<span class="chip" style="background:{c}">{e(s)}</span>' for s, c in STATE_COLOURS.items())
    rows = []
    audited = _audited(doc)
    for r in results:
        cell = status_cell(r, witness_chars=0)
        colour = STATE_COLOURS[node_state(r)]
        cert = json.dumps(r["certificate"], indent=2, ensure_ascii=False)
        notes = "".join(f"<br><small>{e(p)}</small>" for p in (cell.depends, cell.vacuity) if p)
        if r.get("grade") in ("bounded", "instances"):
            notes += f"<br><small>{e(r['grade'])}: {e(r.get('grade_over') or '')}</small>"
        if cell.witness:
            notes += f"<br><small>witness: {e(cell.witness)}</small>"
        rows.append(
            f'<tr id="{e(_anchor(r["id"]))}" class="result" data-status="{e(r["status"])}" data-outcome="{e(r["outcome"])}">'
            f'<td><code>{e(r["id"])}</code></td><td>{e(r["source"]["file"])}<br><small>{e(r["source"]["label"])}</small></td>'
            f'<td>{e(r["statement"])}<br><small>scope: {e(r["scope"])}</small></td><td>{e(r["method"])}</td>'
            f'<td><span class="chip" style="background:{colour}">{e(cell.label)}</span>{notes}<br><small>{e(r["outcome"])}; '
            f'{e((r.get("dependencies") or {}).get("state", ""))}</small></td>'
            f'<td><details><summary>certificate</summary><pre>{e(cert)}</pre></details>{_claims_html(r)}</td>'
            + (f'<td class="audit">{e(audit_text(r))}<details><summary>audit</summary><pre>'
               f'{e(json.dumps(r["audit"], indent=2, ensure_ascii=False))}</pre></details></td>' if audited else "")
            + '</tr>'
        )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Proof-status report</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5em auto; padding: 0 16px; color: #222; max-width: 1200px; }}
table {{ border-collapse: collapse; width: 100%; table-layout: fixed; }}
td, th {{ border-bottom: 1px solid #ddd; padding: .4em; vertical-align: top; text-align: left; overflow-wrap: anywhere; }}
.chip {{ color: #fff; border-radius: 4px; padding: 0 .4em; font-size: .85em; display: inline-block; margin: 1px 0; max-width: 100%; }}
pre {{ max-width: 100%; overflow: auto; background: #f6f6f6; padding: .5em; font-size: .8em; white-space: pre-wrap; }}
#graph-box {{ overflow-x: hidden; border: 1px solid #ddd; margin: 1em 0; }}
#graph {{ max-width: 100%; height: auto; display: block; }}
#graph .node:hover rect {{ stroke: #000; stroke-width: 2; }}
tr.target {{ background: #fff8e1; }}
#search {{ font-size: 1em; padding: .2em .4em; width: 24em; max-width: 100%; }}
</style></head>
<body>
<h1>Proof-status report</h1>
<p id="summary">{e(summary_text(doc["summary"]))} (schema {doc["schema_version"]}, checker {e(doc["checker_version"])})</p>
<h2>Dependency graph</h2>
<p>Arrows run from a result to the results that use it. Colour: what a reader may rely on. <span id="legend">{legend}</span></p>
<p><input id="search" type="search" placeholder="search obligations (id or text)" aria-label="search obligations"></p>
<div id="graph-box">{_graph_svg(results)}</div>
<h2>Obligations</h2>
<table id="results"><colgroup><col style="width:17%"><col style="width:13%"><col style="width:27%"><col style="width:14%"><col style="width:17%"><col style="width:12%">{'<col style="width:12%">' if audited else ''}</colgroup>
<thead><tr><th>obligation</th><th>source</th><th>claim</th><th>method</th><th>status</th><th></th>{"<th>audit</th>" if audited else ""}</tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>
<script>{_SCRIPT}</script>
</body></html>
"""
