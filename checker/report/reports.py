"""Reports. Every format is rendered from the JSON form of the results, and the JSON reads back.

JSON schema (``schema_version`` 2; version 1 reports, without ``fingerprint`` and ``claims``, read back)::

    {"schema_version": 1, "checker_version": "...", "summary": {"status": {...}, "outcome": {...}},
     "results": [{"id", "source": {"file", "label"}, "statement", "scope", "expect", "status",
                  "shown_status", "outcome", "method", "lean", "uses", "hypotheses", "time_s", "seed",
                  "limits", "certificate": {"method", "steps": [...], "witness", "sides", "reason", "data",
                  "shrunk_witness" (with a witness only)}, "audit", "fingerprint", "claims"}]}

``fingerprint`` (schema 2) is ``{"digest", "code", "granularity"}``: ``digest`` covers what was
checked (the code closure, imported modules, data files and printed claims; see
:mod:`checker.store.fingerprint`). ``claims`` lists the declared claims as printed by
:mod:`checker.kernel.printing`: ``{"name", "variables", "domains", "hypotheses", "conclusion", "terms", "text",
"error"}``, each formula ``{"name", "canonical", "text", "latex"}``; ``[]`` when the obligation
declares none.

``audit`` is null unless the audits ran (``check --audit``, ``audit``); then it has the keys
``vacuity``, ``necessity``, ``tightness``, ``shrink``, ``brittleness`` (null where not applicable,
the reason in ``not_applicable``). These keys were added without a version bump: they are
optional, and reports without them read back unchanged.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from checker.kernel.model import CHECKER_VERSION as __version__
from checker.kernel.errors import SchemaError
from checker.report.cells import (  # noqa: F401  (re-exported: the wording of every format)
    AUDIT_COLUMNS, OVER_CHARS, REASON_CHARS, WITNESS_CHARS, StatusCell, _short, audit_cells, dependency_mark, failing_text,
    reason_text,
    shorten, short_over, status_cell, summary_text, terminal_safe, vacuity_mark, witness_text,
)
from checker.kernel.model import READABLE_SCHEMA_VERSIONS, stated, SCHEMA_VERSION, Grade, Outcome, Result, Status, strict

FORMATS = ("table", "markdown", "json", "latex", "junit", "html")


def dependencies(results: Sequence[Result]) -> dict[str, dict[str, Any]]:
    """The blueprint view of ``uses``: for each result, its ancestors and whether it is
    *fully proved* (it and every ancestor proved, none vacuously, and it is on no ``uses`` cycle:
    a claim cannot rest on itself), rests on a refuted claim, or rests on an unsettled one (not
    proved, proved vacuously, or not checked in this run). ``unsettled_by_status`` counts the
    unsettled ancestors by what they are (``supported``, ``unknown``, ``vacuous``, ``not run``),
    for the compact mark "rests on 7 supported".

    Iterative, in time linear in the graph plus the size of the ancestor lists: each result's
    ancestors are found once as a set of bits (Python integers) from its uses' sets, in an order
    where every use comes first (the members of a cycle share one set)."""
    by_id = {r.id: r for r in results}
    # every id, results first, then the missing ancestors they name (bits in that order)
    order: list[str] = list(by_id)
    index = {x: i for i, x in enumerate(order)}
    for r in results:
        for u in r.uses:
            if u not in index:
                index[u] = len(order)
                order.append(u)
    uses = {x: [u for u in (by_id[x].uses if x in by_id else ()) if u != x] for x in order}
    component, members = _components(order, uses)
    # bits of each component's ancestors (excluding itself unless it is a cycle), uses first
    reach: dict[int, int] = {}
    for c in _component_order(component, members, uses):
        bits = 0
        own = 0
        for x in members[c]:
            own |= 1 << index[x]
        for x in members[c]:
            for u in uses[x]:
                cu = component[u]
                bits |= reach[cu] if cu != c else 0
                bits |= 1 << index[u]
        cyclic = len(members[c]) > 1 or any(x in uses[x] for x in members[c])
        reach[c] = bits if cyclic else bits & ~own
    refuted_bits = unsettled_bits = 0
    kinds_of: dict[str, int] = {}
    for x, i in index.items():
        r = by_id.get(x)
        if r is not None and r.status is Status.REFUTED:
            refuted_bits |= 1 << i
        kind = _unsettled_kind(r)
        if kind is not None:
            unsettled_bits |= 1 << i
            kinds_of[kind] = kinds_of.get(kind, 0) | (1 << i)
    out: dict[str, dict[str, Any]] = {}
    for r in results:
        c = component[r.id]
        on_cycle = len(members[c]) > 1
        bits = reach[c] & ~(1 << index[r.id]) if not on_cycle else reach[c]
        ancestors = [order[i] for i in _bit_indices(bits) if order[i] != r.id]
        refuted = [order[i] for i in _bit_indices(bits & refuted_bits) if order[i] != r.id]
        unsettled = [order[i] for i in _bit_indices(bits & unsettled_bits) if order[i] != r.id]
        if refuted:
            state = "rests on refuted"
        elif unsettled:
            state = "rests on unsettled"
        elif r.status is Status.PROVED and not r.is_vacuous and not on_cycle and not r.is_partial:
            state = "fully proved"
        elif r.is_partial:
            state = "partially proved"
        else:
            state = "not proved"
        kinds = {k: sum(1 for x in unsettled if _unsettled_kind(by_id.get(x)) == k) for k in kinds_of}
        kinds = {k: n for k, n in kinds.items() if n}
        out[r.id] = {"state": state, "ancestors": ancestors, "refuted": refuted, "unsettled": unsettled,
                     "unsettled_by_status": dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))}
        if on_cycle:
            out[r.id]["cycle"] = True
    return out


def _bit_indices(bits: int) -> list[int]:
    """The positions of the set bits of ``bits``, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _components(order: list[str], uses: Mapping[str, list[str]]) -> tuple[dict[str, int], dict[int, list[str]]]:
    """Strongly connected components of the ``uses`` graph (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    component: dict[str, int] = {}
    members: dict[int, list[str]] = {}
    counter = 0
    for root in order:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            x, i = work.pop()
            if i == 0:
                index[x] = low[x] = counter
                counter += 1
                stack.append(x)
                on_stack.add(x)
            children = uses.get(x, [])
            recurse = False
            while i < len(children):
                y = children[i]
                i += 1
                if y not in index:
                    work.append((x, i))
                    work.append((y, 0))
                    recurse = True
                    break
                if y in on_stack:
                    low[x] = min(low[x], index[y])
            if recurse:
                continue
            if low[x] == index[x]:
                c = len(members)
                members[c] = []
                while True:
                    y = stack.pop()
                    on_stack.discard(y)
                    component[y] = c
                    members[c].append(y)
                    if y == x:
                        break
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[x])
    return component, members


def _component_order(component: Mapping[str, int], members: Mapping[int, list[str]],
                     uses: Mapping[str, list[str]]) -> list[int]:
    """Components in an order where each comes after every component it uses (Tarjan's algorithm
    numbers them so already: a component is completed after all it reaches)."""
    return sorted(members)


def _unsettled_kind(r: Result | None) -> str | None:
    """Why an ancestor leaves its dependents unsettled (``None``: it is settled, proved or refuted)."""
    if r is None:
        return "not run"
    if r.status is Status.PROVED:
        return "vacuous" if r.is_vacuous else ("partial" if r.is_partial else None)
    if r.status is Status.REFUTED:
        return None
    return r.status.value


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


def summary(results: Iterable[Result]) -> dict[str, Any]:
    """Counts by status and outcome; ``proved`` by grade; ``fully_proved`` (the result and every
    ancestor proved, none vacuously) in total and by the result's own grade."""
    rs = list(results)
    st = Counter(r.status.value for r in rs)
    oc = Counter(r.outcome.value for r in rs)
    deps = dependencies(rs)
    proved = [r for r in rs if r.status is Status.PROVED]
    full = [r for r in proved if deps[r.id]["state"] == "fully proved"]
    return {
        "status": {s.value: st.get(s.value, 0) for s in Status},
        "outcome": {o.value: oc.get(o.value, 0) for o in Outcome},
        "total": {"obligations": len(rs)},
        "proved_by_grade": _by_grade(proved),
        "fully_proved": {"total": len(full), **_by_grade(full)},
        "kernel": _kernel_counts(proved, [r for r in rs if r.status is Status.REFUTED]),
    }


def _kernel_counts(proved: Sequence[Result], refuted: Sequence[Result] = ()) -> dict[str, int]:
    """What the proofs rest on, from their trust ledgers: how many rest on a catalogue computation
    trusted through the kernel's escape hatch, how many have no declared theorem (the kernel did
    not check that the proof is about the statement), how many state a hypothesis z3 shows no proof
    needs (:mod:`checker.audit.hypotheses`), and of the proofs resting on an SMT solver's
    ``unsat``, how many a second solver confirmed at every step and how many it did not; and how
    many proofs and kernel refutations (``refuted``, of "there are constants such that …") rest on
    a standard fact assumed without proof (:mod:`checker.backends.standard`)."""
    def has(r: Result, kind: str) -> bool:
        return any(isinstance(e, Mapping) and e.get("kind") == kind for e in r.certificate.ledger)

    states = [confirmation_state(r) for r in proved]
    return {"trusted": sum(has(r, "trusted") for r in proved),
            "theorem_unchecked": sum(has(r, "unchecked") for r in proved),
            "unused_hypotheses": sum(has(r, "unused") for r in proved),
            "false_as_printed": sum(has(r, "false_as_printed") for r in proved),
            "standard": sum(has(r, "standard") for r in (*proved, *refuted)),
            "confirmed": states.count("confirmed"),
            "unconfirmed": states.count("unconfirmed")}


def confirmation_state(r: Result) -> str | None:
    """``confirmed`` when the proof rests on SMT solver answers and every one of them has a second
    solver's ``unsat`` beside it in the ledger; ``unconfirmed`` when any has not (the second solver
    answered unknown, was not installed or was switched off, or no confirmation was recorded);
    ``None`` for a proof that rests on no solver answer."""
    ledger = [e for e in r.certificate.ledger if isinstance(e, Mapping)]

    def queries(e: Mapping[str, Any]) -> int:
        # a solver entry or a confirmation may stand for several queries (one per sign pattern; an
        # induction's base, step and close are three solver entries and one confirmation of three)
        detail = e.get("detail")
        n = detail.get("queries", 1) if isinstance(detail, Mapping) else 1
        return n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else 1

    solved = sum(queries(e) for e in ledger if e.get("kind") == "solver")
    if not solved:
        return None
    confirmations = [e for e in ledger if e.get("kind") == "confirmation"]
    confirmed = [e for e in confirmations if isinstance(e.get("detail"), Mapping) and e["detail"].get("confirmed") is True]
    whole = len(confirmed) == len(confirmations) and sum(queries(e) for e in confirmed) >= solved
    return "confirmed" if whole else "unconfirmed"


def _by_grade(results: Sequence[Result]) -> dict[str, int]:
    counts = Counter(r.grade.value if r.grade is not None else "ungraded" for r in results)
    out = {g.value: counts.get(g.value, 0) for g in Grade}
    if counts.get("ungraded"):
        out["ungraded"] = counts["ungraded"]
    return out


def render_json(results: Sequence[Result]) -> str:
    """Strict JSON: a non-finite float is written as the string "NaN", "Infinity" or "-Infinity"."""
    return json.dumps(strict(to_document(results)), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def read_json(text: str) -> list[Result]:
    """Results from a JSON report of a readable schema version (an older one lacks fingerprints
    and printed claims: those fields read back as ``None``)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaError(f"not a JSON report: {exc}") from exc
    except RecursionError:
        raise SchemaError("not a JSON report: nested too deeply to read") from None
    if not isinstance(doc, Mapping) or doc.get("schema_version") not in READABLE_SCHEMA_VERSIONS:
        raise SchemaError(
            f"schema_version {doc.get('schema_version') if isinstance(doc, Mapping) else None!r} is not "
            f"one of {', '.join(map(str, READABLE_SCHEMA_VERSIONS))}; re-run 'obligations check --format json' with this checker"
        )
    try:
        results = [Result.from_json(r) for r in doc["results"]]
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        raise SchemaError(f"malformed result in report: {exc!r}") from exc
    seen: set[str] = set()
    for r in results:
        if r.id in seen:
            # the last entry would silently win (a bad merge hiding a regression): refuse instead
            raise SchemaError(f"result id {r.id!r} appears more than once; a report or baseline holds each obligation "
                              "once (a bad merge?): remove the duplicates or save the baseline again")
        seen.add(r.id)
    return results


def _docs(results: Sequence[Result]) -> list[dict[str, Any]]:
    return to_document(results)["results"]


def read_document(text: str) -> dict[str, Any]:
    """A report document, validated by reading every result back."""
    read_json(text)
    return json.loads(text)


def _audited(docs: Sequence[Mapping[str, Any]]) -> bool:
    return any(d.get("audit") is not None for d in docs)


def summary_line(results: Sequence[Result]) -> str:
    return summary_text(summary(results))


# ------------------------------------------------------------------ terminal table, Markdown

#: The terminal table's width without ``--wide``.
TABLE_WIDTH = 100


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    if len(text) <= width:
        return [text]
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""]


def _wide_cells(d: Mapping[str, Any], cell: StatusCell) -> tuple[str, ...]:
    return (f"{d['source']['file']}, {d['source']['label']}", stated(d["statement"], d.get("theorem")), d["scope"], d["method"])


WIDE_HEADER = ("source", "claim", "scope", "method")


def render_table(results: Sequence[Result], wide: bool = False) -> str:
    """One row per obligation: id, status cell (status, grade, dependency mark, vacuity), outcome,
    time; a refuted or contradicted row's witness, the reason of a row that is neither proved nor
    refuted, an undecided vacuity's reason and the audit on indented lines under it. Fits
    :data:`TABLE_WIDTH` columns (a reason wraps onto at most three lines, shortened at a word
    boundary); ``wide`` adds source, claim, scope and method and cuts nothing."""
    docs = _docs(results)
    header = ("obligation", "status", "outcome", "time", *(WIDE_HEADER if wide else ()))
    rows, notes = [], []
    for d in docs:
        cell = status_cell(d, 0 if wide else WITNESS_CHARS + 20, 0 if wide else OVER_CHARS)
        rows.append((d["id"], cell.text, d["outcome"], f"{d['time_s']:.2f}s", *(_wide_cells(d, cell) if wide else ())))
        extra = []
        if cell.witness:
            extra.append(f"witness: {cell.witness}")
        if cell.reason:
            extra.append(f"reason: {cell.reason if wide else shorten(cell.reason, 3 * (TABLE_WIDTH - 8))}")
        v = d.get("vacuity") or {}
        if d["status"] == "proved" and v.get("verdict") in ("vacuous", "undecided"):
            extra.append(f"vacuity {v['verdict']}: {v.get('reason', '')}")
        if d.get("audit") is not None:
            extra.append("audit: " + "; ".join(f"{k}: {c}" for k, c in zip(AUDIT_COLUMNS, audit_cells(d)) if c != "-"))
        notes.append(extra)
    if wide:
        widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
        caps = widths
    else:
        id_w = min(46, max([len(header[0]), *(len(r[0]) for r in rows)]))
        caps = [id_w, TABLE_WIDTH - id_w - 12 - 7 - 6, 12, 7]
        widths = [min(c, max([len(h), *(len(r[i]) for r in rows)])) for i, (h, c) in enumerate(zip(header, caps))]

    def lines_of(cells: Sequence[str]) -> list[str]:
        wrapped = [_wrap(c, w) for c, w in zip(cells, widths)]
        height = max(len(w) for w in wrapped)
        return ["  ".join((w[i] if i < len(w) else "").ljust(wd) for w, wd in zip(wrapped, widths)).rstrip()
                for i in range(height)]

    out = lines_of(header) + ["  ".join("-" * w for w in widths)]
    for r, extra in zip(rows, notes):
        out += lines_of(r)
        for note in extra:
            if wide:
                out.append("    " + note)
            elif note.startswith("reason: "):
                out += [("    " if k == 0 else "      ") + part for k, part in enumerate(_wrap(note, TABLE_WIDTH - 6))]
            else:
                out.append(_short("    " + note, TABLE_WIDTH))
    out.append("")
    line = summary_line(results)
    if wide or len(line) <= TABLE_WIDTH:
        out.append(line)
    else:
        for k, part in enumerate(line.split(" | ")):
            out += [("  " if k or j else "") + p for j, p in enumerate(_wrap(part, TABLE_WIDTH - 4))]
    return "\n".join(terminal_safe(line) for line in out) + "\n"  # a terminal shows escapes, never runs them


_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]|#~"} | {"<": "&lt;", ">": "&gt;", "&": "&amp;"})


def md_escape(text: str) -> str:
    """Text for one GitHub-Markdown table cell: pipes and Markdown/HTML specials escaped, line
    breaks as ``<br>``; what GitHub shows is the text itself."""
    lines = str(text).splitlines() or [""]
    return "<br>".join(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", line).translate(_MD_SPECIAL) for line in lines)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # shown as \xNN, never passed to the page


def _md_code(text: str) -> str:
    if not any(c in text for c in "`|\n"):
        return f"`{text}`"
    return "<code>" + md_escape(text) + "</code>"


def _md_cell(text: str) -> str:
    """A cell whose whole text may be marked up as ``**bold**`` or ```code```; the rest is escaped."""
    if len(text) > 4 and text.startswith("**") and text.endswith("**"):
        return "**" + md_escape(text[2:-2]) + "**"
    if len(text) > 2 and text.startswith("`") and text.endswith("`") and "`" not in text[1:-1]:
        return _md_code(text[1:-1])
    return md_escape(text)


def render_markdown(results: Sequence[Result]) -> str:
    """The terminal table's ``--wide`` columns as a GitHub table, every cell escaped; the witness
    of a refuted or contradicted row under its status."""
    docs = _docs(results)
    if _audited(docs):
        return render_audit_markdown(results)
    header = ("obligation", "status", "outcome", "time", *WIDE_HEADER)
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for d in docs:
        cell = status_cell(d)
        status = "**" + md_escape(cell.label) + "**" + "".join(
            "<br>" + md_escape(p) for p in (cell.depends, cell.vacuity) if p)
        if cell.witness:
            status += "<br>witness: " + md_escape(cell.witness)
        if cell.reason:
            status += "<br>reason: " + md_escape(cell.reason)
        out.append("| " + " | ".join((_md_code(d["id"]), status, md_escape(d["outcome"]), f"{d['time_s']:.2f}s",
                                      *(md_escape(c) for c in _wide_cells(d, cell)))) + " |")
    out.append("")
    out.append(md_escape(summary_line(results)))
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
        cell = status_cell(d)
        status = "**" + md_escape(cell.label) + "**" + "".join("<br>" + md_escape(p) for p in (cell.depends, cell.vacuity, cell.witness) if p)
        if cell.reason:
            status += "<br>reason: " + md_escape(cell.reason)
        out.append("| " + " | ".join((_md_code(d["id"]), status, *(_md_cell(x) for x in (d["outcome"], *audit_cells(d))))) + " |")
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


def render(results: Sequence[Result], fmt: str, *, wide: bool = False, latex_detail: bool = False,
           latex_compact: bool = False) -> str:
    """Render ``results`` in ``fmt``; every format goes through the JSON document. ``wide``: the
    terminal table with every column, uncut; ``latex_detail``: the long LaTeX table (full claim,
    method and scope); ``latex_compact``: the LaTeX table with its texts shortened at word
    boundaries."""
    from checker.report import formats as report_formats

    match fmt:
        case "table":
            return render_table(results, wide=wide)
        case "markdown":
            return render_markdown(results)
        case "json":
            return render_json(results)
        case "latex":
            doc = to_document(results)
            return report_formats.latex_detail(doc) if latex_detail else report_formats.latex(doc, compact=latex_compact)
        case "junit":
            return report_formats.junit(to_document(results))
        case "html":
            return report_formats.html(to_document(results))
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def _grade_line(d: Mapping[str, Any]) -> str:
    if d["status"] != "proved":
        return f"- (a {d['status']} result has no grade)"
    grade, over = d.get("grade"), d.get("grade_over") or ""
    meaning = {"universal": "every value and every size the statement ranges over",
               "bounded": "every value, over the finite family", "instances": "only at"}.get(grade or "", "")
    return f"{grade or 'none'}" + (f" ({meaning}{' ' + over if over and grade != 'universal' else ''})" if meaning else "")


def _depends_line(deps: Mapping[str, Any]) -> str:
    text = deps["state"]
    if deps.get("refuted"):
        text += "; refuted: " + ", ".join(deps["refuted"])
    if deps.get("unsettled"):
        text += "; unsettled: " + ", ".join(deps["unsettled"])
    return text


def claims_lines(d: Mapping[str, Any]) -> list[str]:
    """The checked formulas of a result, as ``show`` prints them (and the prose check)."""
    from checker.kernel.printing import PrintedClaim, checked_texts, prose_warnings

    claims = d.get("claims")
    fp = d.get("fingerprint") or {}
    out = []
    if fp.get("digest"):
        out.append(f"  fingerprint {fp['digest'][:16]} (code {str(fp.get('code', ''))[:16]}, {fp.get('granularity', '?')})")
    if claims is None:
        out.append("  claims     not recorded (a report of an older schema)")
        return out
    if not claims:
        out.append("  claims     none besides the declared theorem (the statement's formula)" if d.get("theorem") else
                   "  claims     none declared: the discharge checks its statement directly, so there is no printed formula")
        return out
    out.append(f"  claims     {len(claims)} checked formula(s)")
    for c in claims:
        out.append(f"    {c['name']}: {c.get('text') or c.get('error')}")
    checked = checked_texts(d.get("certificate"), d.get("grade_over") or "")
    for w in prose_warnings(d["statement"], [PrintedClaim.from_json(c) for c in claims], checked):
        out.append(f"  warning    {w}")
    return out


def render_certificate(result: Result, context: Sequence[Result] = ()) -> str:
    """The full certificate of one result, for ``obligations show``."""
    d = result.to_json()
    d["dependencies"] = dependencies([result, *[r for r in context if r.id != result.id]])[result.id]
    c = d["certificate"]
    out = [
        f"{d['id']}",
        f"  source     {d['source']['file']}, {d['source']['label']}",
        f"  statement  {stated(d['statement'], d.get('theorem'), None)}",
        f"  scope      {d['scope']}",
        f"  expect     {d['expect']}",
        f"  status     {status_cell(d).text}  ({d['outcome']})",
        f"  grade      {_grade_line(d)}",
        f"  method     {c['method']}",
        f"  lean       {', '.join(d['lean']) or '-'}",
        f"  uses       {', '.join(d['uses']) or '-'}",
        f"  depends    {_depends_line(d['dependencies'])}",
        f"  seed       {d['seed']}",
        f"  time       {d['time_s']:.3f} s",
    ]
    if d["hypotheses"]:
        out.append(f"  hypotheses {', '.join(d['hypotheses'])}")
    if d.get("vacuity") is not None:
        v = d["vacuity"]
        out.append(f"  vacuity    {v.get('verdict')}: {v.get('reason', '')}")
        for row in v.get("claims", ()):
            point = _point(row.get("witness"))
            out.append(f"             {row.get('claim')}: {row.get('verdict')}" + (f" at {point}" if point else "")
                       + (f" ({row['reason']})" if row.get("reason") else ""))
    out.extend(claims_lines(d))
    if c["reason"]:
        out.append(f"  reason     {c['reason']}")
    if c["witness"] is not None:
        out.append("  witness    " + ", ".join(f"{k} = {v}" for k, v in c["witness"].items()))
    fails = failing_text(c)  # what refutes, before the named terms that only illustrate it
    if fails:
        out.append(f"  fails      {fails}  (the conclusion's false comparisons at the witness)")
    if c["sides"]:
        out.append("  sides      " + ", ".join(f"{k} = {v}" for k, v in c["sides"].items())
                   + ("  (the claim's named terms at the witness)" if fails else ""))
    if c.get("shrunk_witness") is not None:
        out.append("  shrunk     " + ", ".join(f"{k} = {v}" for k, v in c["shrunk_witness"].items()))
    if d.get("audit") is not None:
        out.append("  audit      " + "; ".join(f"{k}: {v}" for k, v in zip(AUDIT_COLUMNS, audit_cells(d))))
    if c.get("ledger"):
        out.append("  ledger     what the proof rests on (the kernel's trust ledger)")
        for e in c["ledger"]:
            out.append(f"    - {e.get('kind')}: {e.get('text')}")
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
