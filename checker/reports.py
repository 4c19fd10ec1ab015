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

FORMATS = ("table", "markdown", "json")


def to_document(results: Sequence[Result]) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "checker_version": __version__,
        "summary": summary(results),
        "results": [r.to_json() for r in results],
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
    match fmt:
        case "table":
            return render_table(results)
        case "markdown":
            return render_markdown(results)
        case "json":
            return render_json(results)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def render_certificate(result: Result) -> str:
    """The full certificate of one result, for ``obligations show``."""
    d = result.to_json()
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
