"""Reports. Every format is rendered from the JSON form of the results, and the JSON reads back.

JSON schema (``schema_version`` 1)::

    {"schema_version": 1, "checker_version": "...", "summary": {"status": {...}, "outcome": {...}},
     "results": [{"id", "source": {"file", "label"}, "statement", "scope", "expect", "status",
                  "outcome", "method", "lean", "uses", "hypotheses", "time_s", "seed", "limits",
                  "certificate": {"method", "steps": [...], "witness", "sides", "reason", "data"}}]}
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
    return {
        "schema_version": SCHEMA_VERSION,
        "checker_version": __version__,
        "summary": summary(results),
        "results": rows,
    }


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
    return json.dumps(to_document(results), indent=2, ensure_ascii=False) + "\n"


def read_json(text: str) -> list[Result]:
    """Results from a JSON report written by any checker with the same schema version."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"not a JSON report: {exc}") from exc
    if not isinstance(doc, Mapping) or doc.get("schema_version") != SCHEMA_VERSION:
        raise SchemaError(
            f"schema_version {doc.get('schema_version') if isinstance(doc, Mapping) else None!r} is not "
            f"{SCHEMA_VERSION}; re-run 'obligations check --format json' with this checker"
        )
    try:
        return [Result.from_json(r) for r in doc["results"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise SchemaError(f"malformed result in report: {exc!r}") from exc


def _docs(results: Sequence[Result]) -> list[dict[str, Any]]:
    return to_document(results)["results"]


def read_document(text: str) -> dict[str, Any]:
    """A report document, validated by reading every result back."""
    read_json(text)
    return json.loads(text)


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def render_table(results: Sequence[Result]) -> str:
    rows = [(d["id"], d["status"], d["outcome"], _short(d["method"], 52), f"{d['time_s']:.2f}s") for d in _docs(results)]
    header = ("obligation", "status", "outcome", "method", "time")
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    out = [line(header), line(tuple("-" * w for w in widths))]
    out += [line(r) for r in rows]
    out.append("")
    out.append(summary_line(results))
    return "\n".join(out) + "\n"


def summary_line(results: Sequence[Result]) -> str:
    s = summary(results)
    status = ", ".join(f"{n} {k}" for k, n in s["status"].items() if n)
    outcome = ", ".join(f"{n} {k}" for k, n in s["outcome"].items() if n)
    return f"{len(results)} obligations: {status or 'none'} | {outcome or 'none'}"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(results: Sequence[Result]) -> str:
    out = [
        "| obligation | source | claim | scope | method | status | outcome |",
        "|---|---|---|---|---|---|---|",
    ]
    for d in _docs(results):
        src = f"{d['source']['file']}, {d['source']['label']}"
        out.append(
            "| " + " | ".join(
                _md_cell(x) for x in (f"`{d['id']}`", src, d["statement"], d["scope"], d["method"], f"**{d['status']}**", d["outcome"])
            ) + " |"
        )
    out.append("")
    out.append(summary_line(results))
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
        f"  status     {d['status']}  ({d['outcome']})",
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
    return "\n".join(out) + "\n"
