"""The words every report uses for one result, made in one place: the compact status cell, the
audit cells, the summary line, and text made safe for a terminal or an XML document.

Every renderer (:mod:`checker.report.reports`, :mod:`checker.report.formats`) takes its wording
from here and reads only the JSON report document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from checker.kernel.model import Grade, grade_label


_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_TERMINAL_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 forbids (control characters, lone surrogates)
    written as a visible ``\\xNN`` / ``\\uNNNN`` escape, so the document always parses."""
    return _XML_INVALID.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text)


def terminal_safe(text: str) -> str:
    """``text`` with control characters (ANSI escapes, carriage returns, bidi overrides) shown as
    escapes instead of acting on the terminal; newlines and tabs become spaces."""
    text = text.replace("\n", " ").replace("\t", " ")
    return _TERMINAL_UNSAFE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text)


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


_OPEN, _CLOSE = "([{⟨", ")]}⟩"
# A space next to one of these is inside a formula (``x ≤ y``, ``a + b``): never a place to cut.
_OPERATOR_EDGE = set("=<>≤≥≠≈+−-·×/*^_∘⊙→↦⇒⇔∈∉⊆⊂∧∨|‖⪰⪯≻≺≼≽∼~±∓÷")


def _cut_points(text: str) -> list[int]:
    """Indices of the spaces of ``text`` where a shortened text may end: between two words, or
    after a ``,`` or ``;`` — never next to an operator, never inside what the LaTeX report
    typesets as one formula (:func:`checker.report.texify.math_ranges`), never inside a number."""
    from checker.report.texify import math_ranges

    inside = set()
    for start, end in math_ranges(text):
        inside.update(range(start + 1, end))
    out = []
    for i, ch in enumerate(text):
        if ch != " " or i == 0 or i + 1 >= len(text) or i in inside:
            continue
        before, after = text[i - 1], text[i + 1]
        if before in _OPERATOR_EDGE or after in _OPERATOR_EDGE or before == " ":
            continue
        prev_word = text[:i].rsplit(" ", 1)[-1]
        next_word = text[i + 1:].split(" ", 1)[0]
        if before in ",;:" or _is_word(prev_word) or _is_word(next_word):
            out.append(i)
    return out


def _is_word(token: str) -> bool:
    """A prose word (two or more letters, perhaps with trailing punctuation): a safe neighbour for a cut."""
    core = token.strip(".,;:!?()[]\"'")
    return len(core) >= 2 and all(c.isalpha() or c in "-'" for c in core) and any(c.isalpha() for c in core)


def shorten(text: str, limit: int) -> str:
    """``text`` (whitespace collapsed) in at most about ``limit`` characters: cut at a space between
    words or after a comma (never inside a number or a formula: :func:`_cut_points`), brackets left
    open by the cut closed after the ellipsis: ``the 3 checked sizes (Theorem 2, layer 2 at Θ_0, …)``.
    Returned whole when it fits or when there is no allowed cut before ``limit``."""
    text = " ".join(text.split())
    if not limit or len(text) <= limit:
        return text
    points = [i for i in _cut_points(text) if i <= limit - 2]
    if not points:
        return text
    # after a comma or semicolon (a whole list item) when that keeps most of the room
    after_item = [i for i in points if text[i - 1] in ",;" and i >= 0.6 * limit]
    cut = after_item[-1] if after_item else points[-1]
    head = text[:cut].rstrip(" ,;:")
    depth = []
    for ch in head:
        if ch in _OPEN:
            depth.append(_CLOSE[_OPEN.index(ch)])
        elif ch in _CLOSE and depth:
            depth.pop()
    sep = ", " if text[cut - 1] in ",;" else " "
    return head + sep + "…" + "".join(reversed(depth))


AUDIT_COLUMNS = ("vacuity", "necessity", "tightness", "shrink", "brittleness")


def failing_text(cert: Mapping[str, Any]) -> str:
    """A refutation's false comparisons of the conclusion at its witness (``"1 ≤ 3/4; …"``), or ``""``:
    what refutes, which every view shows before the claim's named terms."""
    return "; ".join(str(x) for x in (cert.get("data") or {}).get("conclusion_fails") or ())


def audit_cells(d: Mapping[str, Any]) -> tuple[str, ...]:
    c = cells(d.get("audit"))
    return tuple(c[k] for k in AUDIT_COLUMNS)


def cells(audit: Mapping[str, Any] | None) -> dict[str, str]:
    """One short text per audit, for report columns ("-" where not applicable)."""
    if audit is None:
        return {"vacuity": "", "necessity": "", "tightness": "", "shrink": "", "brittleness": ""}
    out = {}
    for key in AUDIT_COLUMNS:
        entry = audit.get(key)
        if entry is None:
            out[key] = "-"
        elif key == "tightness":
            out[key] = str(entry.get("summary") or entry.get("verdict"))
        elif key == "shrink" and entry.get("shrunk_witness") is not None and entry.get("verdict") != "kept":
            w = entry["shrunk_witness"]
            nonzero = [f"{k}={v}" for k, v in w.items() if v != "0"]
            out[key] = ", ".join(nonzero) + (" (others 0)" if len(nonzero) < len(w) else "") if nonzero else "all 0"
        else:
            out[key] = str(entry.get("verdict") or "-")
    return out


# ------------------------------------------------------------------ the compact status cell


@dataclass(frozen=True, slots=True)
class StatusCell:
    """What every format shows for one result, in the same words.

    ``label``: the status with its grade (``proved ∀``, ``proved (K = 2…6)``, ``proved at 1 point``,
    ``proved (vacuous)``, ``refuted``, ``brittle``…); ``depends``: the dependency mark (``rests on
    7 supported``, ``rests on 1 refuted``; empty when fully proved or nothing to say); ``vacuity``:
    ``vacuity undecided`` / ``vacuity not checked`` for a proof whose hypotheses were not shown
    satisfiable (a vacuous proof says so in ``label``); ``witness``: a shortened counterexample
    for a refuted or contradicted result (the full one is in ``show``); ``reason``: for every
    result that is neither proved nor refuted, why, in one line (:func:`reason_text`)."""

    status: str
    label: str
    depends: str = ""
    vacuity: str = ""
    witness: str = ""
    fully_proved: bool = False
    reason: str = ""

    @property
    def text(self) -> str:
        """``proved ∀ · rests on 7 supported · vacuity not checked``."""
        return " · ".join(p for p in (self.label, self.depends, self.vacuity) if p)


#: How many characters of a witness the compact cell keeps.
WITNESS_CHARS = 60


#: About how many characters of a bounded or instances grade's ``over`` the compact cell keeps.
OVER_CHARS = 48

#: About how many characters of the one-line reason the compact cell keeps.
REASON_CHARS = 110


def short_over(over: str, limit: int = OVER_CHARS) -> str:
    """What a grade covers, shortened at a word boundary with the sizes kept as far as they fit:
    ``the scalar (width-1) two-layer network`` stays whole, ``the 3 checked sizes (Theorem 2,
    layer 2 at Θ_0, Theorem 2, layer 1 at Θ_1, chained bound)`` keeps its first sizes and closes
    the bracket; ``limit`` 0 keeps it whole."""
    return shorten(over, limit)


def status_cell(row: Mapping[str, Any], witness_chars: int = WITNESS_CHARS, over_chars: int = OVER_CHARS) -> StatusCell:
    """The compact cell of one JSON result row (the only place this wording is made); ``0`` for
    ``witness_chars`` / ``over_chars`` keeps the witness / the grade's family or points whole."""
    status = row["status"]
    label = row.get("status_label") or row.get("shown_status") or status
    if status == "proved" and label != "proved (vacuous)" and row.get("grade") in ("bounded", "instances"):
        label = "proved " + grade_label(Grade(row["grade"]), short_over(row.get("grade_over") or "", over_chars))
        if row.get("outcome") == "partial" or row.get("partial"):
            over = short_over(row.get("grade_over") or "", over_chars)
            label = (f"proved for {over} only" if row["grade"] == "bounded" else f"proved at {over} only") if over \
                else "proved for some sizes only"
    deps = row.get("dependencies") or {}
    return StatusCell(status=status, label=label, depends=dependency_mark(deps), vacuity=vacuity_mark(row),
                      witness=witness_text(row, witness_chars), fully_proved=deps.get("state") == "fully proved",
                      reason=reason_text(row))


def reason_text(row: Mapping[str, Any], limit: int = 0) -> str:
    """Why a result is neither proved nor refuted, in one line (empty for a proved or refuted
    one): the certificate's reason for ``unknown``, ``timeout`` and ``error`` (``no reason
    recorded`` when it has none); for ``supported``, its reason or ``evidence only: METHOD``; for a
    result shown ``brittle``, the seeds' statuses. ``limit`` shortens it at a word boundary."""
    status = row.get("status")
    if status in ("proved", "refuted"):
        return ""
    cert = row.get("certificate") or {}
    text = str(cert.get("reason") or "")
    shown = row.get("shown_status") or status
    if shown == "brittle":
        seeds = ((row.get("audit") or {}).get("brittleness") or {})
        statuses = ", ".join(seeds.get("statuses") or ())
        text = f"the status changes with the seed ({statuses})" if statuses else "the status changes with the seed"
    elif not text and status == "supported":
        text = f"evidence only: {cert.get('method') or row.get('method') or 'numerical'}"
    elif not text:
        text = "no reason recorded"
    text = " ".join(text.split())
    return shorten(text, limit) if limit else text


def dependency_mark(deps: Mapping[str, Any]) -> str:
    """``rests on 1 refuted`` / ``rests on 5 supported, 2 unknown`` / ``""``."""
    state = deps.get("state")
    if state == "rests on refuted":
        return f"rests on {len(deps.get('refuted', ()))} refuted"
    if state == "rests on unsettled":
        kinds = deps.get("unsettled_by_status") or {"unsettled": len(deps.get("unsettled", ()))}
        return "rests on " + ", ".join(f"{n} {k}" for k, n in kinds.items())
    return ""


def vacuity_mark(row: Mapping[str, Any]) -> str:
    """Where a proof's hypotheses were not shown satisfiable: ``vacuity undecided`` or
    ``vacuity not checked`` (``vacuous`` is part of the status label)."""
    v = row.get("vacuity")
    if row.get("status") != "proved" or not isinstance(v, Mapping):
        return ""
    verdict = v.get("verdict")
    return f"vacuity {verdict}" if verdict in ("undecided", "not checked") else ""


def witness_text(row: Mapping[str, Any], limit: int = WITNESS_CHARS) -> str:
    """A refuted or contradicted result's counterexample, shrunk if an audit shrank it; with a
    ``limit`` (``0``: whole), the values that fit in about ``limit`` characters, each whole (never
    cut inside a number), then ``… (7 values)``."""
    if row.get("status") != "refuted" and row.get("outcome") != "contradicted":
        return ""
    cert = row.get("certificate") or {}
    w = cert.get("shrunk_witness") or cert.get("witness")
    if not w:
        return ""
    items = [f"{k} = {v}" for k, v in w.items()]
    text = ", ".join(items)
    if not limit or len(text) <= limit:
        return text
    kept: list[str] = []
    for item in items:
        if kept and len(", ".join([*kept, item])) > limit:
            break
        kept.append(item)
    return ", ".join(kept) + f", … ({len(items)} values)"


def summary_text(s: Mapping[str, Any]) -> str:
    """``106 obligations: 70 proved (40 ∀, 20 bounded, 10 at instances), … | 60 confirmed, … |
    fully proved: 45 (30 ∀, 10 bounded, 5 at instances)``."""
    total = s.get("total", {}).get("obligations", sum(s["status"].values()))
    by_grade = s.get("proved_by_grade")
    parts = []
    for k, n in s["status"].items():
        if not n:
            continue
        parts.append(f"{n} {k}" + (f" ({_grades(by_grade)})" if k == "proved" and by_grade else ""))
    outcome = ", ".join(f"{n} {k}" for k, n in s["outcome"].items() if n)
    line = f"{total} obligations: {', '.join(parts) or 'none'} | {outcome or 'none'}"
    full = s.get("fully_proved")
    if full is not None:
        line += f" | fully proved: {full['total']}" + (f" ({_grades(full)})" if full["total"] else "")
    kernel = s.get("kernel") or {}
    rests = [f"{kernel[k]} {label}" for k, label in (("trusted", "resting on a trusted computation"),
                                                      ("theorem_unchecked", "without a declared theorem"),
                                                      ("standard", "resting on a standard fact assumed without proof"))
             if kernel.get(k)]
    if rests:
        line += " | proofs: " + ", ".join(rests)
    if kernel.get("false_as_printed"):
        line += f" | {kernel['false_as_printed']} proved at points of a theorem false as printed"
    if kernel.get("unused_hypotheses"):
        line += f" | {kernel['unused_hypotheses']} with a hypothesis no proof needs"
    if kernel.get("confirmed") or kernel.get("unconfirmed"):
        line += (f" | solver proofs: {kernel.get('confirmed', 0)} confirmed by two solvers, "
                 f"{kernel.get('unconfirmed', 0)} unconfirmed")
    return line


def _grades(counts: Mapping[str, int]) -> str:
    names = {"universal": "∀", "bounded": "bounded", "instances": "at instances", "ungraded": "ungraded"}
    return ", ".join(f"{counts[k]} {names[k]}" for k in names if counts.get(k))
