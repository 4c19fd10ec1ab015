"""Reports. Every format is rendered from the JSON form of the results, and the JSON reads back.

JSON schema (``schema_version`` 1)::

    {"schema_version": 1, "checker_version": "...", "summary": {"status": {...}, "outcome": {...}},
     "results": [{"id", "source": {"file", "label"}, "statement", "scope", "expect", "status",
                  "shown_status", "outcome", "method", "lean", "uses", "hypotheses", "time_s", "seed",
                  "limits", "certificate": {"method", "steps": [...], "witness", "sides", "reason", "data",
                  "shrunk_witness" (with a witness only)}, "audit"}]}

``audit`` is null unless the audits ran (``check --audit``, ``audit``); then it has the keys
``vacuity``, ``necessity``, ``tightness``, ``shrink``, ``brittleness`` (null where not applicable,
the reason in ``not_applicable``). These keys were added without a version bump: they are
optional, and reports without them read back unchanged.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Iterable, Mapping, Sequence

from checker import __version__
from checker.errors import SchemaError
from checker.model import SCHEMA_VERSION, Outcome, Result, Status

FORMATS = ("table", "markdown", "json", "latex", "junit", "html")


def dependencies(results: Sequence[Result]) -> dict[str, dict[str, Any]]:
    """The blueprint view of ``uses``: for each result, its ancestors and whether it is
    *fully proved* (it and every ancestor proved), rests on a refuted claim, or rests on an
    unsettled one (not proved, or not checked in this run)."""
    by_id = {r.id: r for r in results}
    out: dict[str, dict[str, Any]] = {}
    for r in results:
        ancestors: list[str] = []
        todo = list(r.uses)
        while todo:
            a = todo.pop(0)
            if a in ancestors or a == r.id:
                continue
            ancestors.append(a)
            if a in by_id:
                todo.extend(by_id[a].uses)
        refuted = [a for a in ancestors if a in by_id and by_id[a].status is Status.REFUTED]
        unsettled = [a for a in ancestors if a not in by_id or by_id[a].status not in (Status.PROVED, Status.REFUTED)]
        if refuted:
            state = "rests on refuted"
        elif unsettled:
            state = "rests on unsettled"
        elif r.status is Status.PROVED:
            state = "fully proved"
        else:
            state = "not proved"
        out[r.id] = {"state": state, "ancestors": ancestors, "refuted": refuted, "unsettled": unsettled}
    return out


def to_document(results: Sequence[Result]) -> dict[str, Any]:
    deps = dependencies(results)
    rows = []
    for r in results:
        row = r.to_json()
        row["dependencies"] = deps[r.id]
        rows.append(row)
    doc = {
        "schema_version": SCHEMA_VERSION,
        "checker_version": __version__,
        "summary": summary(results),
        "results": rows,
    }
    if _audited(rows):
        doc["summary"]["audit"] = audit_summary(results)
    return doc


def summary(results: Iterable[Result]) -> dict[str, dict[str, int]]:
    rs = list(results)
    st = Counter(r.status.value for r in rs)
    oc = Counter(r.outcome.value for r in rs)
    return {
        "status": {s.value: st.get(s.value, 0) for s in Status},
        "outcome": {o.value: oc.get(o.value, 0) for o in Outcome},
        "total": {"obligations": len(rs)},
    }


def render_json(results: Sequence[Result]) -> str:
    """Strict JSON: a non-finite float is written as the string "NaN", "Infinity" or "-Infinity"."""
    from checker.workers import strict

    return json.dumps(strict(to_document(results)), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def read_json(text: str) -> list[Result]:
    """Results from a JSON report written by any checker with the same schema version."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"not a JSON report: {exc}") from exc
    except RecursionError:
        raise SchemaError("not a JSON report: nested too deeply to read") from None
    if not isinstance(doc, Mapping) or doc.get("schema_version") != SCHEMA_VERSION:
        raise SchemaError(
            f"schema_version {doc.get('schema_version') if isinstance(doc, Mapping) else None!r} is not "
            f"{SCHEMA_VERSION}; re-run 'obligations check --format json' with this checker"
        )
    try:
        return [Result.from_json(r) for r in doc["results"]]
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        raise SchemaError(f"malformed result in report: {exc!r}") from exc


def _docs(results: Sequence[Result]) -> list[dict[str, Any]]:
    return to_document(results)["results"]


def read_document(text: str) -> dict[str, Any]:
    """A report document, validated by reading every result back."""
    read_json(text)
    return json.loads(text)


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _audited(docs: Sequence[Mapping[str, Any]]) -> bool:
    return any(d.get("audit") is not None for d in docs)


AUDIT_COLUMNS = ("vacuity", "necessity", "tightness", "shrink", "brittleness")


def audit_cells(d: Mapping[str, Any]) -> tuple[str, ...]:
    from checker.audit import cells

    c = cells(d.get("audit"))
    return tuple(c[k] for k in AUDIT_COLUMNS)


def render_table(results: Sequence[Result]) -> str:
    from checker.report_formats import terminal_safe

    docs = [_terminal_doc(d, terminal_safe) for d in _docs(results)]
    audited = _audited(docs)
    rows = [(d["id"], d["shown_status"], d["outcome"], _short(d["method"], 52), f"{d['time_s']:.2f}s",
             *((tuple(_short(c, 40) for c in audit_cells(d))) if audited else ())) for d in docs]
    header = ("obligation", "status", "outcome", "method", "time", *(AUDIT_COLUMNS if audited else ()))
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    out = [line(header), line(tuple("-" * w for w in widths))]
    out += [line(r) for r in rows]
    out.append("")
    out.append(summary_line(results))
    return "\n".join(out) + "\n"


def _terminal_doc(d: Mapping[str, Any], safe: Any) -> dict[str, Any]:
    return {**d, **{k: safe(d[k]) for k in ("id", "shown_status", "outcome", "method")}}


def summary_line(results: Sequence[Result]) -> str:
    s = summary(results)
    status = ", ".join(f"{n} {k}" for k, n in s["status"].items() if n)
    outcome = ", ".join(f"{n} {k}" for k, n in s["outcome"].items() if n)
    return f"{len(results)} obligations: {status or 'none'} | {outcome or 'none'}"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(results: Sequence[Result]) -> str:
    docs = _docs(results)
    if _audited(docs):
        return render_audit_markdown(results)
    out = [
        "| obligation | source | claim | scope | method | status | outcome |",
        "|---|---|---|---|---|---|---|",
    ]
    for d in docs:
        src = f"{d['source']['file']}, {d['source']['label']}"
        out.append(
            "| " + " | ".join(
                _md_cell(x) for x in (f"`{d['id']}`", src, d["statement"], d["scope"], d["method"], f"**{d['shown_status']}**", d["outcome"])
            ) + " |"
        )
    out.append("")
    out.append(summary_line(results))
    return "\n".join(out) + "\n"


def _point(p: Mapping[str, Any] | None, limit: int = 12) -> str:
    if not p:
        return ""
    items = list(p.items())
    text = ", ".join(f"{k} = {v}" for k, v in items[:limit])
    return text + (f", … ({len(items) - limit} more)" if len(items) > limit else "")


def audit_summary(results: Sequence[Result]) -> dict[str, Any]:
    """Counts over the audit entries of ``results`` (for the audit report's header)."""
    docs = [r.to_json() for r in results]
    out: dict[str, Counter] = {k: Counter() for k in AUDIT_COLUMNS}
    hyps: Counter = Counter()
    for d in docs:
        a = d.get("audit") or {}
        for k in AUDIT_COLUMNS:
            e = a.get(k)
            if k == "necessity" and e is not None:
                out[k]["undecided" if e.get("counts", {}).get("undecided") else "decided"] += 1
            else:
                out[k]["n/a" if e is None else str(e.get("verdict"))] += 1
        for row in (a.get("necessity") or {}).get("hypotheses", ()):
            hyps[row["verdict"]] += 1
    return {**{k: dict(v) for k, v in out.items()}, "hypotheses": dict(hyps)}


def render_audit_markdown(results: Sequence[Result]) -> str:
    """The audit report: one row per obligation (status as shown, each audit's verdict), then
    one row per hypothesis (necessity), per bound (tightness) and per shrunk counterexample."""
    docs = _docs(results)
    out = ["Generated by `obligations audit --format markdown` (README, \"Audits\"). Status as shown: "
           "`proved (vacuous)` and `brittle` are audit flags; `-` means not applicable (no declared claim, "
           "no hypotheses, no declared bound, not a refutation, not a sampling result).", "",
           "| obligation | status | outcome | vacuity | necessity | tightness | shrunk witness | brittleness |",
           "|---|---|---|---|---|---|---|---|"]
    for d in docs:
        out.append("| " + " | ".join(_md_cell(x) for x in (f"`{d['id']}`", f"**{d['shown_status']}**", d["outcome"], *audit_cells(d))) + " |")
    out += ["", summary_line(results), ""]
    s = audit_summary(results)
    out.append("Hypotheses: " + (", ".join(f"{n} {k}" for k, n in sorted(s["hypotheses"].items())) or "none") + ".")
    out.append("")
    rows = [(d["id"], row) for d in docs for row in ((d.get("audit") or {}).get("vacuity") or {}).get("claims", ())]
    if rows:
        out += ["### Vacuity (are the hypotheses jointly satisfiable?)", "",
                "| obligation | claim | verdict | witness or reason |", "|---|---|---|---|"]
        out += ["| " + " | ".join(_md_cell(x) for x in (f"`{i}`", r["claim"], r["verdict"], _point(r.get("witness")) or r.get("reason") or r.get("method", ""))) + " |"
                for i, r in rows]
        out.append("")
    rows = [(d["id"], row) for d in docs for row in ((d.get("audit") or {}).get("necessity") or {}).get("hypotheses", ())]
    if rows:
        out += ["### Necessity (each hypothesis dropped in turn)", "",
                "| obligation | claim | hypothesis | verdict | witness or reason |", "|---|---|---|---|---|"]
        out += ["| " + " | ".join(_md_cell(x) for x in (f"`{i}`", r["claim"], r["hypothesis"], f"**{r['verdict']}**",
                                                         _point(r.get("witness")) or r.get("reason") or r.get("method", ""))) + " |"
                for i, r in rows]
        out.append("")
    rows = [(d["id"], row) for d in docs for row in ((d.get("audit") or {}).get("tightness") or {}).get("bounds", ())]
    if rows:
        out += ["### Tightness (lhs ≤ c·rhs: is c best possible?)", "",
                "| obligation | claim | bound | verdict | ratio lhs/(c·rhs) | witness or note |", "|---|---|---|---|---|---|"]
        for i, r in rows:
            ratio = r.get("exact_ratio") or (f"{r['ratio']:.4g}" if isinstance(r.get("ratio"), float) else "")
            if r.get("observed") and r.get("verdict") == "ratio":
                ratio = f"{r['ratio']:.4g} (observed)"
            out.append("| " + " | ".join(_md_cell(x) for x in (
                f"`{i}`", r["claim"], f"{r['lhs']} ≤ {r['constant']}·{r['rhs']}", f"**{r['verdict']}**", _short(ratio, 40),
                _point(r.get("witness")) or r.get("note") or r.get("reason") or "")) + " |")
        out.append("")
    rows = [(d["id"], (d.get("audit") or {}).get("shrink")) for d in docs if (d.get("audit") or {}).get("shrink")]
    if rows:
        out += ["### Counterexamples, as found and shrunk (each re-checked exactly)", "",
                "| obligation | claim | found | shrunk | sides at the shrunk witness |", "|---|---|---|---|---|"]
        out += ["| " + " | ".join(_md_cell(x) for x in (f"`{i}`", r.get("claim", "-"), _point(r.get("witness")),
                                                         _point(r.get("shrunk_witness")) if r.get("verdict") != "kept" else f"kept: {r.get('reason')}",
                                                         _point(r.get("sides")))) + " |" for i, r in rows]
        out.append("")
    rows = [(d["id"], (d.get("audit") or {}).get("brittleness")) for d in docs if (d.get("audit") or {}).get("brittleness")]
    if rows:
        out += ["### Brittleness (supported results re-run with other seeds)", "",
                "| obligation | verdict | statuses per seed | spread |", "|---|---|---|---|"]
        for i, r in rows:
            spread = "; ".join(f"{k} ∈ [{v['min']:.4g}, {v['max']:.4g}]" for k, v in list((r.get("spread") or {}).items())[:4])
            out.append("| " + " | ".join(_md_cell(x) for x in (f"`{i}`", f"**{r.get('verdict')}**", ", ".join(r.get("statuses", ())),
                                                                 spread or r.get("reason", ""))) + " |")
        out.append("")
    return "\n".join(out) + "\n"


def render(results: Sequence[Result], fmt: str) -> str:
    """Render ``results`` in ``fmt``; every format goes through the JSON document."""
    from checker import report_formats

    match fmt:
        case "table":
            return render_table(results)
        case "markdown":
            return render_markdown(results)
        case "json":
            return render_json(results)
        case "latex":
            return report_formats.latex(to_document(results))
        case "junit":
            return report_formats.junit(to_document(results))
        case "html":
            return report_formats.html(to_document(results))
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def render_certificate(result: Result, context: Sequence[Result] = ()) -> str:
    """The full certificate of one result, for ``obligations show``."""
    d = result.to_json()
    d["dependencies"] = dependencies([result, *[r for r in context if r.id != result.id]])[result.id]
    c = d["certificate"]
    out = [
        f"{d['id']}",
        f"  source     {d['source']['file']}, {d['source']['label']}",
        f"  statement  {d['statement']}",
        f"  scope      {d['scope']}",
        f"  expect     {d['expect']}",
        f"  status     {d['shown_status']}  ({d['outcome']})",
        f"  method     {c['method']}",
        f"  lean       {', '.join(d['lean']) or '-'}",
        f"  uses       {', '.join(d['uses']) or '-'}",
        f"  depends    {d['dependencies']['state']}",
        f"  seed       {d['seed']}",
        f"  time       {d['time_s']:.3f} s",
    ]
    if d["hypotheses"]:
        out.append(f"  hypotheses {', '.join(d['hypotheses'])}")
    if c["reason"]:
        out.append(f"  reason     {c['reason']}")
    if c["witness"] is not None:
        out.append("  witness    " + ", ".join(f"{k} = {v}" for k, v in c["witness"].items()))
    if c["sides"]:
        out.append("  sides      " + ", ".join(f"{k} = {v}" for k, v in c["sides"].items()))
    if c.get("shrunk_witness") is not None:
        out.append("  shrunk     " + ", ".join(f"{k} = {v}" for k, v in c["shrunk_witness"].items()))
    if d.get("audit") is not None:
        out.append("  audit      " + "; ".join(f"{k}: {v}" for k, v in zip(AUDIT_COLUMNS, audit_cells(d))))
    if c["steps"]:
        out.append("  steps")
        for i, s in enumerate(c["steps"], 1):
            out.append(f"    {i}. [{s['backend']} | {s['version']}] {s['action']} -> {s['answer']} ({s['time_s']:.3f} s)")
            for k, v in s["detail"].items():
                out.append(f"         {k}: {json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v}")
    if c["data"]:
        out.append("  data")
        text = json.dumps(c["data"], indent=2, ensure_ascii=False)
        out.extend("    " + line for line in text.splitlines())
    if d.get("audit") is not None:
        out.append("  audit (full)")
        text = json.dumps(d["audit"], indent=2, ensure_ascii=False)
        out.extend("    " + line for line in text.splitlines())
    return "\n".join(out) + "\n"
