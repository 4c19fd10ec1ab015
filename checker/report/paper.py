"""A paper's theorems, linked to the obligations that check them (``obligations paper PAPER.tex``).

The paper is read as its author wrote it: every theorem-like environment — ``theorem``, ``lemma``,
``proposition``, ``corollary``, ``claim`` and each name declared with ``\\newtheorem`` (also
``\\newtheorem*``, thmtools' ``\\declaretheorem``, llncs' ``\\spnewtheorem``) — with its optional
title, its ``\\label`` and its statement, in the files the paper ``\\input``s or ``\\include``s.
An obligation belongs to an environment when its ``source`` names the paper and the label
(``Source("paper.tex", "thm:margin")``), or when the environment names it, as blueprints do,
with ``\\obligation{psy01a.margin_two_lipschitz}`` (several ids separated by commas).

From the results of those obligations this module makes the coverage report (which environments
are checked, with status and grade, which are not, which links dangle, and where a number of the
paper's statement occurs in none of the checked claims) and the macro file the paper ``\\input``s:
``\\obstatus{thm:margin}`` (``proved ∀``, ``proved for d_in = 1, 2, 3 only``, ``refuted``, …) and
``\\obstatusmark{thm:margin}`` (a symbol for a margin note). It reads results only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from checker.kernel.errors import UsageError
from checker.report.cells import dependency_mark, shorten, status_cell
from checker.report.texify import MATH, texify

#: The environments every paper may use without declaring them, with the name they print.
DEFAULT_ENVIRONMENTS = {"theorem": "Theorem", "lemma": "Lemma", "proposition": "Proposition",
                        "corollary": "Corollary", "claim": "Claim"}

_DECLARATION = re.compile(r"\\(?:newtheorem\*?|spnewtheorem\*?)\s*\{([^{}]+)\}\s*(?:\[[^\]]*\]\s*)?\{([^{}]*)\}")
_DECLARETHEOREM = re.compile(r"\\declaretheorem\s*(\[[^\]]*\])?\s*\{([^{}]+)\}")
_INPUT = re.compile(r"\\(?:input|include|subfile)\s*\{([^{}]+)\}")
_BEGIN = re.compile(r"\\begin\s*\{([A-Za-z*@]+)\}")
_LABEL = re.compile(r"\\label\s*\{([^{}]+)\}")
_OBLIGATION = re.compile(r"\\obligations?\s*\{([^{}]*)\}")


@dataclass(frozen=True, slots=True)
class Environment:
    """One theorem-like environment of the paper."""

    kind: str  # the environment's name: theorem, lemma, prop, …
    title: str  # what it prints: Theorem, Proposition, …
    label: str | None
    note: str  # the optional argument: \begin{theorem}[Margin bound]
    text: str  # the statement as written (comments removed)
    file: str  # relative to the paper's folder
    line: int
    named: tuple[str, ...] = ()  # obligation ids given with \obligation{…}

    @property
    def key(self) -> str:
        """The label, or where it is when it has none."""
        return self.label or f"{self.file}:{self.line}"

    def describe(self) -> str:
        return f"{self.title}{' (' + self.note + ')' if self.note else ''}"


@dataclass(frozen=True, slots=True)
class Paper:
    path: Path
    files: tuple[str, ...]
    declared: Mapping[str, str]
    environments: tuple[Environment, ...]

    def names(self) -> set[str]:
        """The file names an obligation's ``source.file`` may use for this paper."""
        out = set()
        for f in self.files:
            out |= {f, Path(f).name}
        out.add(self.path.name)
        return out


def _strip_comments(text: str) -> str:
    """``%`` comments removed (``\\%`` kept), line breaks kept so line numbers stay right."""
    return re.sub(r"(?<!\\)((?:\\\\)*)%[^\n]*", r"\1", text)


def _balanced(text: str, i: int, opening: str, closing: str) -> int:
    """Index just past the bracket closing the one at ``text[i]``, or -1."""
    depth = 0
    j = i
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == opening:
            depth += 1
        elif ch == closing:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return -1


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return path.read_text(encoding="latin-1")


def _sources(main: Path) -> list[tuple[str, str]]:
    """The paper's files in reading order, each ``(path relative to the paper's folder, text)``:
    the main file, then, depth first, what it ``\\input``s."""
    root = main.parent
    seen: set[Path] = set()
    out: list[tuple[str, str]] = []

    def visit(path: Path) -> None:
        path = path.resolve()
        if path in seen or not path.is_file():
            return
        seen.add(path)
        text = _strip_comments(_read(path))
        try:
            rel = str(path.relative_to(root.resolve()))
        except ValueError:
            rel = str(path)
        out.append((rel, text))
        for m in _INPUT.finditer(text):
            name = m.group(1).strip()
            candidate = (path.parent / name) if (path.parent / name).suffix else (path.parent / (name + ".tex"))
            if not candidate.is_file():
                candidate = (root / name) if (root / name).suffix else (root / (name + ".tex"))
            visit(candidate)

    visit(main)
    return out


def read_paper(path: str | Path) -> Paper:
    """The theorem-like environments of the paper at ``path`` (and of the files it inputs)."""
    main = Path(path)
    if not main.is_file():
        raise UsageError(f"{path}: no such file; give the paper's main .tex file")
    sources = _sources(main)
    declared = dict(DEFAULT_ENVIRONMENTS)
    for _, text in sources:
        for m in _DECLARATION.finditer(text):
            declared[m.group(1).strip()] = m.group(2).strip() or m.group(1).strip().capitalize()
        for m in _DECLARETHEOREM.finditer(text):
            name, options = m.group(2).strip(), m.group(1) or ""
            title = re.search(r"(?:name|title)\s*=\s*\{?([^,}\]]+)", options)
            declared[name] = title.group(1).strip() if title else name.capitalize()
    envs: list[Environment] = []
    for rel, text in sources:
        envs += _environments(text, rel, declared)
    return Paper(main, tuple(rel for rel, _ in sources), declared, tuple(envs))


def _environments(text: str, file: str, declared: Mapping[str, str]) -> list[Environment]:
    out = []
    pos = 0
    while True:
        m = _BEGIN.search(text, pos)
        if not m:
            return out
        kind = m.group(1)
        pos = m.end()
        if kind not in declared:
            continue
        end = _matching_end(text, kind, m.end())
        body = text[m.end():end if end >= 0 else len(text)]
        note = ""
        stripped = body.lstrip()
        if stripped.startswith("["):
            offset = len(body) - len(stripped)
            close = _balanced(body, offset, "[", "]")
            if close > 0:
                note, body = body[offset + 1:close - 1].strip(), body[close:]
        # the environment's own label comes before any nested environment (an equation's label
        # inside a theorem is the equation's); failing that, the first one
        nested = re.search(r"\\begin\s*\{", body)
        label = _LABEL.search(body, 0, nested.start() if nested else len(body)) or _LABEL.search(body)
        named = tuple(i.strip() for m2 in _OBLIGATION.finditer(body) for i in m2.group(1).split(",") if i.strip())
        out.append(Environment(kind, declared[kind], label.group(1).strip() if label else None, " ".join(note.split()),
                               body.strip(), file, text.count("\n", 0, m.start()) + 1, named))
        pos = end if end >= 0 else len(text)


def _matching_end(text: str, kind: str, start: int) -> int:
    """Index of the ``\\end{kind}`` closing an environment whose body starts at ``start``."""
    pattern = re.compile(r"\\(begin|end)\s*\{" + re.escape(kind) + r"\}")
    depth = 1
    for m in pattern.finditer(text, start):
        depth += 1 if m.group(1) == "begin" else -1
        if depth == 0:
            return m.start()
    return -1


# --------------------------------------------------------------------------- linking


def cites(paper: Paper, source_file: str) -> bool:
    """Whether an obligation's ``source.file`` names this paper (or one of its files)."""
    return source_file in paper.names() or Path(source_file).name in {Path(f).name for f in paper.files}


def linked_ids(paper: Paper, obligations: Iterable[tuple[str, str, str]]) -> tuple[list[str], list[str]]:
    """Of ``(id, source file, source label)`` triples, the ids the paper links (by source or by
    ``\\obligation``), and the ids named by ``\\obligation`` that are not among them."""
    known = {i for i, _, _ in obligations}
    wanted = [i for i, f, _ in obligations if cites(paper, f)]
    named = [i for e in paper.environments for i in e.named]
    return list(dict.fromkeys(wanted + [i for i in named if i in known])), [i for i in named if i not in known]


@dataclass(frozen=True, slots=True)
class Entry:
    """One environment and the results of the obligations linked to it."""

    environment: Environment
    rows: tuple[Mapping[str, Any], ...]
    warnings: tuple[str, ...] = ()

    @property
    def covered(self) -> bool:
        return bool(self.rows)


@dataclass(frozen=True, slots=True)
class Coverage:
    paper: Paper
    entries: tuple[Entry, ...]
    dangling: tuple[str, ...] = ()  # obligations citing a label the paper does not have
    unknown: tuple[str, ...] = ()  # \obligation{…} ids no catalogue has
    notes: tuple[str, ...] = field(default=())

    @property
    def failing(self) -> list[str]:
        """Linked results whose outcome fails a check (contradicted, broken, vacuous)."""
        return [r["id"] for e in self.entries for r in e.rows if r["outcome"] in ("contradicted", "broken", "vacuous")]


def coverage(paper: Paper, doc: Mapping[str, Any], unknown: Sequence[str] = ()) -> Coverage:
    """The paper's environments with the result rows (a JSON report document's ``results``) of
    the obligations linked to each, the constants each statement has and no checked claim does,
    and the links that lead nowhere."""
    rows = {r["id"]: r for r in doc["results"]}
    labels = {e.label for e in paper.environments if e.label}
    entries = []
    for env in paper.environments:
        ids = [i for i in env.named if i in rows]
        ids += [r["id"] for r in doc["results"]
                if env.label and r["source"]["label"] == env.label and cites(paper, r["source"]["file"])]
        linked = tuple(rows[i] for i in dict.fromkeys(ids))
        entries.append(Entry(env, linked, tuple(constant_warnings(env, linked))))
    dangling = tuple(f"{r['id']} ({r['source']['label']})" for r in doc["results"]
                     if cites(paper, r["source"]["file"]) and r["source"]["label"] not in labels
                     and not any(r["id"] in e.named for e in paper.environments))
    return Coverage(paper, tuple(entries), dangling, tuple(unknown))


# --------------------------------------------------------------------- the paper's numbers


_DROP_COMMANDS = re.compile(r"\\(?:label|ref|eqref|cref|Cref|autoref|cite[tp]?|citep|citet|obligations?|url|href)\s*"
                            r"(?:\[[^\]]*\]\s*)?\{[^{}]*\}")


#: LaTeX math commands read back as the Unicode texify writes them (``\le`` → ``≤``).
_SYMBOLS = {tex.lstrip("\\").split("{")[0]: ch for ch, tex in MATH.items() if re.fullmatch(r"\\[A-Za-z]+", tex)}
_SYMBOLS.update({"leq": "≤", "geq": "≥", "neq": "≠", "times": "×", "cdot": "·"})


def statement_text(latex: str) -> str:
    """An environment's statement as plain text for the number check: references, citations and
    labels dropped, ``\\frac{a}{b}`` as ``a/b``, sub- and superscripts kept as names (``x_{12}`` is
    ``x_12``), every other command name dropped."""
    text = _DROP_COMMANDS.sub(" ", latex)
    for _ in range(4):
        text = re.sub(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", r"(\1)/(\2)", text)
    text = re.sub(r"([_^])\s*\{([^{}]*)\}", lambda m: m.group(1) + re.sub(r"\s+", "", m.group(2)), text)
    text = re.sub(r"\\([A-Za-z]+)\*?", lambda m: f" {_SYMBOLS.get(m.group(1), '')} ", text)
    text = re.sub(r"\\.", " ", text)
    text = text.replace("~", " ").replace("$", " ").replace("{", " ").replace("}", " ")
    return " ".join(text.split())


def constant_warnings(env: Environment, rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Numbers of the paper's statement that occur in none of the linked results' checked claims
    (nor in what those results record they checked): the prose check, against the paper's own text.
    Where a linked result declares no claim (its discharge checks its statement directly), there is
    no formula to compare its part of the statement with, and nothing is said."""
    from checker.kernel.printing import PrintedClaim, checked_texts, prose_warnings

    if not rows or any(not r.get("claims") for r in rows):
        return []
    claims = [PrintedClaim.from_json(c) for r in rows for c in (r.get("claims") or ())]
    checked = [t for r in rows for t in checked_texts(r.get("certificate"), r.get("grade_over") or "")]
    return prose_warnings(statement_text(env.text), claims, checked)


# --------------------------------------------------------------------- status in short


#: The margin symbols, weakest first: the mark of an environment is its weakest result's.
MARKS = ("broken", "contradicted", "open", "evidence", "unsettled", "instances", "bounded", "universal", "confirmed false")
MARK_MACROS = {
    "broken": r"\providecommand{\obmarkbroken}{\textbf{!}}",
    "contradicted": r"\providecommand{\obmarkcontradicted}{$\times$}",
    "open": r"\providecommand{\obmarkopen}{?}",
    "evidence": r"\providecommand{\obmarkevidence}{$\sim$}",
    "unsettled": r"\providecommand{\obmarkunsettled}{$\checkmark^{\ast}$}",
    "instances": r"\providecommand{\obmarkinstances}{$\circ$}",
    "bounded": r"\providecommand{\obmarkbounded}{$(\checkmark)$}",
    "universal": r"\providecommand{\obmarkuniversal}{$\checkmark$}",
    "confirmed false": r"\providecommand{\obmarkconfirmedfalse}{$\checkmark$}",
}


def short_status(row: Mapping[str, Any], over_chars: int = 60) -> tuple[str, str]:
    """``(text, mark kind)`` of one result for the paper: ``proved ∀``, ``proved for d = 1, 2 only``,
    ``proved at 1 point only``, ``confirmed false (counterexample)`` for a refutation the paper
    asserts, ``refuted``, ``evidence only``, ``unknown``, …; a proof that rests on an unproved result
    says so (``proved ∀, rests on 2 supported``)."""
    cell = status_cell(row, over_chars=over_chars)
    status, outcome = row["status"], row["outcome"]
    if outcome == "broken":
        return "error", "broken"
    if outcome == "vacuous" or cell.label == "proved (vacuous)":
        return "proved vacuously (its hypotheses cannot hold)", "broken"
    if status == "proved":
        grade, over = row.get("grade"), shorten(row.get("grade_over") or "", over_chars)
        text = {"bounded": f"proved for {over} only" if over else "proved for a bounded family only",
                "instances": f"proved at {over} only" if over else "proved at instances only"}.get(grade or "", "proved ∀")
        kind = {"bounded": "bounded", "instances": "instances"}.get(grade or "", "universal")
        depends = dependency_mark(row.get("dependencies") or {})
        if outcome == "contradicted":
            return text + ", but the source says it fails", "contradicted"
        return (text + ", " + depends, "unsettled") if depends else (text, kind)
    if status == "refuted":
        if outcome == "confirmed":
            return "confirmed false (counterexample)", "confirmed false"
        return "refuted (counterexample)", "contradicted"
    if status == "supported":
        return ("brittle evidence" if (row.get("shown_status") == "brittle") else "evidence only"), "evidence"
    return status, "open"


def environment_status(entry: Entry) -> tuple[str, str]:
    """The short status of an environment from all its results, and its (weakest) mark."""
    if not entry.rows:
        return "no obligation", "none"
    parts = [short_status(r) for r in entry.rows]
    texts = list(dict.fromkeys(t for t, _ in parts))
    kind = min((k for _, k in parts), key=MARKS.index)
    text = texts[0] if len(texts) == 1 else "; ".join(texts)
    if len(entry.rows) > 1 and len(texts) == 1:
        text += f" ({len(entry.rows)} obligations)"
    return text, kind


def render_coverage(cov: Coverage) -> str:
    """The coverage report for a terminal: per environment its label, title and place, then each
    linked obligation with its status cell and outcome, or ``no obligation``; then dangling links,
    unknown ids and the constants each statement has that no checked claim has."""
    envs = cov.entries
    covered = sum(e.covered for e in envs)
    kinds: dict[str, int] = {}
    for e in envs:
        kinds[e.environment.title] = kinds.get(e.environment.title, 0) + 1
    out = [f"{cov.paper.path.name}: {len(envs)} theorem-like environment{'s' if len(envs) != 1 else ''} "
           f"({', '.join(f'{k} {n}' for k, n in kinds.items()) or 'none'}); "
           f"{covered} with obligations, {len(envs) - covered} without", ""]
    for e in envs:
        env = e.environment
        text, _ = environment_status(e)
        out.append(f"{env.describe()}  {env.key}  ({env.file}:{env.line})")
        out.append(f"    status: {text}")
        if not e.rows:
            out.append("    no obligation: link one with Source(\"%s\", \"%s\") or \\obligation{ID} inside it"
                       % (cov.paper.path.name, env.label or "LABEL"))
        for r in e.rows:
            cell = status_cell(r)
            out.append(f"    {r['id']}  {cell.text}  ({r['outcome']})")
            if cell.reason:
                out.append(f"        reason: {shorten(cell.reason, 100)}")
            if cell.witness:
                out.append(f"        witness: {cell.witness}")
        for w in e.warnings:
            out.append(f"    constants: {w}")
    if cov.dangling:
        out += ["", "obligations citing this paper with a label it does not have:"]
        out += [f"    {d}" for d in cov.dangling]
    if cov.unknown:
        out += ["", "\\obligation{…} names that no loaded catalogue has:"]
        out += [f"    {i}" for i in cov.unknown]
    return "\n".join(out) + "\n"


def render_macros(cov: Coverage) -> str:
    """The macro file: ``\\obstatus{LABEL}`` and ``\\obstatusmark{LABEL}`` for every labelled
    environment (an unknown label prints ``??`` and warns, as ``\\ref`` does), ``\\obligation{…}``
    as a no-op, and each mark a ``\\providecommand`` the paper may define first to restyle."""
    lines = ["% Generated by `obligations paper " + cov.paper.path.name + "`: the status of each theorem-like environment.",
             "% \\input it in the preamble (after \\usepackage{amssymb}); \\obstatus{LABEL} gives the short status,",
             "% \\obstatusmark{LABEL} a symbol for a margin note. Define \\obstatusstyle or \\obmark... first to restyle.",
             "\\makeatletter",
             "\\providecommand{\\obligation}[1]{}",
             "\\providecommand{\\obstatusstyle}[1]{\\textsf{[#1]}}",
             *MARK_MACROS.values(),
             "\\providecommand{\\obmarknone}{--}",
             "\\def\\obstatus#1{\\@ifundefined{obstatus@#1}{\\PackageWarning{obligations}{No status for `#1'}\\textbf{??}}"
             "{\\obstatusstyle{\\@nameuse{obstatus@#1}}}}",
             "\\def\\obstatusmark#1{\\@ifundefined{obstatusmark@#1}{\\PackageWarning{obligations}{No status for `#1'}\\textbf{??}}"
             "{\\@nameuse{obstatusmark@#1}}}"]
    for e in cov.entries:
        label = e.environment.label
        if not label or any(c in label for c in "{}\\#%"):
            continue
        text, kind = environment_status(e)
        mark = "\\obmarknone" if kind == "none" else "\\obmark" + kind.replace(" ", "")
        lines.append(f"\\@namedef{{obstatus@{label}}}{{{texify(text)}}}")
        lines.append(f"\\@namedef{{obstatusmark@{label}}}{{{mark}}}")
    lines.append("\\makeatother")
    return "\n".join(lines) + "\n"
