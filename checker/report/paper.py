"""A paper's theorems, linked to the obligations that check them (``obligations paper PAPER.tex``).

The paper is read as its author wrote it: every theorem-like environment it declares — each name
declared with ``\\newtheorem`` (also ``\\newtheorem*``, thmtools' ``\\declaretheorem``, llncs'
``\\spnewtheorem``, in the paper or in a package or class file beside it), those its document class
predefines (llncs: ``theorem``, ``lemma``, ``claim``, …) and each environment defined to open one of
them (``\\newenvironment{mainthm}{\\begin{thm}}{\\end{thm}}``) — with its optional title, its
``\\label`` and its statement, in the files the paper ``\\input``s, ``\\include``s (those
``\\includeonly`` allows), ``\\subfile``s or ``\\import``s, directly or through an argument-less macro
(sought as TeX seeks them: by ``kpsewhich`` where it is installed, so ``TEXINPUTS`` counts as
kpathsea reads it; the import package's files in their import folders first). An undeclared ``\\begin{theorem}`` is
none (LaTeX stops at it). What LaTeX does not read is not read (comments, ``comment`` and verbatim
environments, ``\\iffalse`` branches, definitions' bodies, what follows ``\\end{document}``); a
nested environment is one of its own, and an environment's label and ``\\obligation``s are those
outside the theorem-like environments nested in it (a ``\\label`` in a footnote, a caption or an
equation is not its).
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

import functools
import os
import posixpath
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Mapping, Sequence

from checker.kernel.errors import UsageError
from checker.report.cells import dependency_mark, shorten, status_cell
from checker.report.texify import MATH, texify

#: The titles the common names print where a document class predefines them (a paper that uses one
#: must declare it, or have a class that does: LaTeX stops at an undefined environment).
DEFAULT_ENVIRONMENTS = {"theorem": "Theorem", "lemma": "Lemma", "proposition": "Proposition",
                        "corollary": "Corollary", "claim": "Claim"}
#: The theorem-like environments a document class predefines (``\\documentclass{llncs}``), as each
#: class file declares them (``proof`` left out: it is no statement): llncs.cls v2.22 and
#: svjour3.cls (``\\spnewtheorem``, ``\\spn@wtheorem``), acmart.cls (``\\AtEndPreamble``, unless
#: ``acmthm=false``), lipics-v2021.cls, and jmlr.cls v1.30 (JMLR, and through ``\\LoadClass{jmlr}``
#: the COLT, ALT and PMLR proceedings classes: its jmlrutils.sty declares them unless the
#: ``notheorems`` option is given). These lists are the fallback: where the TeX installation has the
#: class file (``kpsewhich``), what the file declares counts instead (:func:`installed`).
#: ``tests/test_paper.py`` compares each list with its class file where TeX Live has it.
CLASS_ENVIRONMENTS = {
    "llncs": ("case", "claim", "conjecture", "corollary", "definition", "example", "exercise", "lemma", "note",
              "problem", "property", "proposition", "question", "remark", "solution", "theorem"),
    "acmart": ("theorem", "conjecture", "proposition", "lemma", "corollary", "example", "definition"),
    "jmlr": ("theorem", "example", "lemma", "proposition", "remark", "corollary", "definition", "conjecture",
             "axiom"),
}
CLASS_ENVIRONMENTS["svjour3"] = CLASS_ENVIRONMENTS["llncs"]
CLASS_ENVIRONMENTS["lipics-v2021"] = ("theorem", "lemma", "corollary", "proposition", "conjecture", "observation",
                                      "exercise", "definition", "example", "note", "note*", "remark", "remark*",
                                      "claim", "claim*")

_DOCUMENTCLASS = re.compile(r"\\(?:documentclass|LoadClass)\s*(?:\[[^\]]*\]\s*)?\{([^{}]+)\}")
_DECLARATION = re.compile(r"\\(?:newtheorem\*?|spnewtheorem\*?|spn@wtheorem)\s*\{([^{}]+)\}\s*(?:\[[^\]]*\]\s*)?(?=\{)")
_DECLARETHEOREM = re.compile(r"\\declaretheorem\s*(\[[^\]]*\])?\s*\{([^{}]+)\}")
#: An environment's name as LaTeX takes it: every character but braces and backslashes (``step2``,
#: ``sub-claim``, ``thm*``); spaces are part of it (``\\begin{ thm }`` is not ``thm``).
_ENV_NAME = r"[^{}\\]+"
_BEGIN = re.compile(r"\\begin\s*\{(" + _ENV_NAME + r")\}")
_ENVIRONMENT_TOKEN = re.compile(r"\\(begin|end)\s*\{(" + _ENV_NAME + r")\}|\\label\s*\{([^{}]+)\}")
_LABEL = re.compile(r"\\label\s*\{([^{}]+)\}")
_KEY_LABEL = re.compile(r"(?:^|,)\s*label\s*=\s*\{?([^,{}\]\s]+)")
_OBLIGATION = re.compile(r"\\obligations?\s*\{([^{}]*)\}")
_CS = re.compile(r"\\([A-Za-z@]+|.)", re.DOTALL)
_BRACED = re.compile(r"\s*\{([^{}]*)\}")

#: Environments whose body LaTeX does not read as text (``comment`` and each name given to
#: ``\\excludecomment``) or typesets verbatim: a theorem inside one is none of the paper's.
SKIPPED_ENVIRONMENTS = frozenset({"comment", "verbatim", "verbatim*", "Verbatim", "Verbatim*", "BVerbatim",
                                  "LVerbatim", "lstlisting", "minted", "filecontents", "filecontents*"})
#: TeX's conditionals (with e-TeX's, pdfTeX's and the engine tests of ``iftex``): inside a skipped
#: branch each opens a level that a ``\\fi`` closes. Names given to ``\\newif`` are added as the paper
#: declares them; macros such as ``\\ifthenelse`` are not conditionals.
TEX_CONDITIONALS = frozenset({"if", "ifcat", "ifx", "ifnum", "ifdim", "ifodd", "ifvmode", "ifhmode", "ifmmode",
                              "ifinner", "ifvoid", "ifhbox", "ifvbox", "ifeof", "iftrue", "iffalse", "ifcase",
                              "ifdefined", "ifcsname", "iffontchar", "ifincsname", "ifpdfprimitive", "ifpdfabsnum",
                              "ifpdfabsdim", "ifpdf", "ifxetex", "ifluatex", "ifpdftex"})
#: Inside these, a ``\\label`` names the equation, item, figure or table, not the theorem around it.
NUMBERING_ENVIRONMENTS = frozenset({"equation", "align", "gather", "multline", "eqnarray", "flalign", "alignat",
                                    "xalignat", "xxalignat", "subequations", "enumerate", "figure", "table",
                                    "subfigure", "subtable", "wrapfigure", "align*", "gather*", "multline*",
                                    "eqnarray*", "flalign*", "alignat*", "equation*", "figure*", "table*"})
#: After these, the next control sequence is being defined, not used (``\\newif\\ifdraft``).
_DEFINERS = frozenset({"newif", "def", "gdef", "edef", "xdef", "newcommand", "renewcommand", "providecommand",
                       "DeclareRobustCommand", "let"})
#: Definitions whose bodies are not the paper's text where they stand (a body is read where the
#: macro is used): ``\\newcommand{\\stop}{\\endinput}`` ends nothing, and
#: ``\\newenvironment{mainthm}{\\begin{thm}}{\\end{thm}}`` begins no theorem. Each is
#: ``(how the name is given, number of bodies)``: ``cs`` a control sequence (``\\x`` or ``{\\x}``),
#: ``tex`` a control sequence and a parameter text (``\\def\\x#1{…}``), ``env`` a braced name, ``option``
#: a class's or package's option (its code runs only when the option is given); ``spec`` when an
#: xparse argument specification follows the name.
_BODY_DEFINERS = {
    **{n: ("cs", 1) for n in ("newcommand", "renewcommand", "providecommand", "DeclareRobustCommand")},
    **{n: ("tex", 1) for n in ("def", "gdef", "edef", "xdef", "long", "protected")},
    **{n: ("env", 2) for n in ("newenvironment", "renewenvironment", "provideenvironment")},
    **{n: ("option", 1) for n in ("DeclareOption", "DeclareOptionBeamer")},
    **{n: ("cs spec", 1) for n in ("NewDocumentCommand", "RenewDocumentCommand", "ProvideDocumentCommand",
                                   "DeclareDocumentCommand", "NewExpandableDocumentCommand")},
    **{n: ("env spec", 2) for n in ("NewDocumentEnvironment", "RenewDocumentEnvironment",
                                    "ProvideDocumentEnvironment", "DeclareDocumentEnvironment")},
}
#: The import package's commands (``\\import{dir/}{file}``; the ``sub`` ones relative to the import
#: folder of the file they are in; the ``include`` ones \\include the file).
IMPORT_COMMANDS = frozenset({"import", "subimport", "inputfrom", "subinputfrom", "includefrom", "subincludefrom"})
#: Commands that read a file as part of the paper.
INPUT_COMMANDS = frozenset({"input", "include", "subfile"}) | IMPORT_COMMANDS
#: Commands that read a file (``\\InputIfFileExists{f}{then}{else}`` and ``\\@input{f}``: when it exists).
READING_COMMANDS = INPUT_COMMANDS | {"InputIfFileExists", "@input"}
#: Commands whose argument numbers something of its own: a ``\\label`` in it is not the theorem's.
_OTHER_COUNTERS = ("footnote", "footnotetext", "footnotemark", "caption", "captionof", "subcaption", "thanks",
                   "marginpar", "marginnote", "sidenote", "item", "bibitem", "tag", "subfloat")


@dataclass(frozen=True, slots=True)
class Environment:
    """One theorem-like environment of the paper."""

    kind: str  # the environment's name: theorem, lemma, prop, …
    title: str  # what it prints: Theorem, Proposition, …
    label: str | None
    note: str  # the optional argument: \begin{theorem}[Margin bound]
    text: str  # the statement as written (comments and nested theorem-like environments removed)
    file: str  # relative to the paper's folder
    line: int
    named: tuple[str, ...] = ()  # obligation ids given with \obligation{…}, its own (not a nested one's)

    @property
    def key(self) -> str:
        """The label, or where it is when it has none."""
        return self.label or f"{self.file}:{self.line}"

    @property
    def place(self) -> str:
        return f"{self.file}:{self.line}"

    def describe(self) -> str:
        return f"{self.title}{' (' + self.note + ')' if self.note else ''}"


@dataclass(frozen=True, slots=True)
class Paper:
    path: Path
    files: tuple[str, ...]
    declared: Mapping[str, str]
    environments: tuple[Environment, ...]
    #: the folder a ``Source`` path with a directory part is relative to (the project's; default:
    #: the working directory)
    project: Path | None = None
    #: what LaTeX typesets that was not read (``not followed: \\secB (…)``), and the files LaTeX does
    #: not read that a reader might expect read (``not read: c.tex (not in \\includeonly)``)
    unread: tuple[str, ...] = ()

    def read_paths(self) -> set[Path]:
        """Every file the paper reads, resolved."""
        return {(self.path.parent / f).resolve() for f in self.files}

    def project_paths(self) -> set[str]:
        """The paper's files as paths relative to the project's folder (POSIX separators; absolute
        where a file is outside it)."""
        root = (self.project or Path.cwd()).resolve()
        out = set()
        for p in self.read_paths():
            try:
                out.add(p.relative_to(root).as_posix())
            except ValueError:
                out.add(p.as_posix())
        return out


def _strip_comments(text: str) -> str:
    """``%`` comments removed (``\\%`` kept), line breaks kept so line numbers stay right."""
    return _strip_ignored(text, _ReadState(Path(".")), lambda *_: None)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return path.read_text(encoding="latin-1")


@dataclass(slots=True)
class _ReadState:
    """What reading the paper has declared so far, across its files in reading order."""

    main: Path
    skipped: set[str] = field(default_factory=lambda: set(SKIPPED_ENVIRONMENTS))
    conditionals: set[str] = field(default_factory=lambda: set(TEX_CONDITIONALS))
    ended: bool = False  # \end{document} seen: LaTeX reads nothing after it
    bodies: list[str] = field(default_factory=list)  # the definitions' bodies (declarations are sought there too)
    wrappers: dict[str, str] = field(default_factory=dict)  # environment → the environment its begin code opens
    packages: list[str] = field(default_factory=list)  # local .sty/.cls files' texts (declarations only)
    switches: dict[str, bool] = field(default_factory=dict)  # \newif switches and their values so far (false at \newif)
    classes: set[str] = field(default_factory=set)  # the document classes whose files were read
    class_texts: list[str] = field(default_factory=list)  # their texts, and their own packages' (declarations only)
    includeonly: set[str] | None = None  # the names \includeonly lets \include read (None: all)
    macros: dict[str, str] = field(default_factory=dict)  # argument-less macro → its body (read where used)
    arg_macros: dict[str, str] = field(default_factory=dict)  # macro with arguments → its body (not followed)
    defined: set[str] = field(default_factory=set)  # every command name a definition read so far defines
    reads: dict[str, bool] = field(default_factory=dict)  # macro → whether it reads files (as defined now)
    expanding: set[str] = field(default_factory=set)  # the input macros being expanded (a loop is read once)
    environment_code: dict[str, str] = field(default_factory=dict)  # defined environment → its begin and end code
    unread: list[str] = field(default_factory=list)  # what LaTeX reads and this reader does not, or why a file is not read


def _blank(chars: list[str], a: int, b: int) -> None:
    for k in range(a, b):
        if chars[k] != "\n":
            chars[k] = " "


def _skip_branch(text: str, i: int, state: _ReadState, stop_at_else: bool) -> tuple[int, bool]:
    """From ``i`` inside a conditional branch TeX skips: the index just past the ``\\fi`` (or, with
    ``stop_at_else``, the ``\\else``) that ends it at this level, and whether an ``\\else`` did.
    Comments are skipped; nested conditionals count."""
    depth = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "%":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if ch != "\\":
            i += 1
            continue
        m = _CS.match(text, i)
        name = m.group(1)
        if name in state.conditionals:
            depth += 1
        elif name == "fi":
            if depth == 0:
                return m.end(), False
            depth -= 1
        elif name == "else" and depth == 0 and stop_at_else:
            return m.end(), True
        i = m.end()
    return n, False


def _argument_text(text: str) -> str:
    """A braced argument as TeX reads it: each ``%`` comment removed with its line break and the
    next line's leading spaces (``\\includeonly{%⏎ chapa,%⏎ chapb%⏎}`` is ``chapa,chapb``)."""
    return re.sub(r"(?<!\\)((?:\\\\)*)%[^\n]*(?:\n[ \t]*)?", r"\1", text)


def _input_name(text: str, i: int) -> tuple[str, int, bool] | None:
    """The file name after ``\\input`` at ``i``: ``{name}`` (comments removed) or, as TeX reads it,
    up to a space."""
    j = i
    while j < len(text) and text[j] in " \t":
        j += 1
    if j < len(text) and text[j] == "{":
        close = _group_end(text, j)
        if close < 0:
            return None
        return _argument_text(text[j + 1:close - 1]).strip(), close, True
    m = re.compile(r"[^\s{}%\\]+").match(text, j)
    return (m.group(0), m.end(), False) if m else None


def _skip_space(text: str, i: int) -> int:
    """Past spaces, line breaks and ``%`` comments from ``i``."""
    n = len(text)
    while i < n:
        if text[i] in " \t\r\n":
            i += 1
        elif text[i] == "%":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
        else:
            break
    return i


def _group_end(text: str, i: int, opening: str = "{", closing: str = "}") -> int:
    """Index just past the group opened at ``text[i]`` (``%`` comments and escaped characters
    skipped), or -1 when ``text[i]`` opens none or it is not closed."""
    if i >= len(text) or text[i] != opening:
        return -1
    depth, j, n = 0, i, len(text)
    while j < n:
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == "%":
            k = text.find("\n", j)
            j = n if k < 0 else k
            continue
        if ch == opening:
            depth += 1
        elif ch == closing:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return -1


@dataclass(frozen=True, slots=True)
class _Definition:
    """A definition read from its definer on: where it ends, the environment it defines (``None``
    for a command), the command it defines (``None`` for an environment, or when it is not a plain
    control sequence), whether that command takes arguments, and its bodies."""

    end: int
    env: str | None
    command: str | None
    takes_arguments: bool
    bodies: list[str]


#: Prefixes and definers that may come between ``\\long`` (or ``\\protected``) and the name defined.
_TEX_PREFIXES = frozenset({"long", "protected", "global", "outer", "def", "gdef", "edef", "xdef"})


def _definition(text: str, i: int, how: str, count: int) -> _Definition | None:
    """A definition from ``i`` (just past its definer); ``None`` when it is not well formed."""
    n = len(text)
    j = _skip_space(text, i + (1 if text.startswith("*", i) else 0))
    env = command = None
    takes_arguments = False
    if how.startswith(("env", "option")):
        end = _group_end(text, j)
        if end < 0:
            return None
        env, j = (text[j + 1:end - 1] if how.startswith("env") else None), end
    elif j < n and text[j] == "{":
        end = _group_end(text, j)
        if end < 0:
            return None
        inner = _CS.fullmatch(text[j + 1:end - 1].strip())
        command, j = (inner.group(1) if inner else None), end
    else:
        m = _CS.match(text, j)
        while how == "tex" and m and m.group(1) in _TEX_PREFIXES:  # \long\def\x…
            m = _CS.match(text, _skip_space(text, m.end()))
        if not m:
            return None
        command, j = m.group(1), m.end()
    if how == "tex":  # the parameter text, up to the body's brace
        start = j
        while j < n and text[j] not in "{}":
            j += 1
        takes_arguments = "#" in text[start:j]
    elif how.endswith("spec"):
        k = _skip_space(text, j)
        end = _group_end(text, k)
        if end < 0:
            return None
        takes_arguments = bool(text[k + 1:end - 1].strip())
        j = end
    else:
        for at in range(2):  # [number of arguments][default of the first]
            k = _skip_space(text, j)
            end = _group_end(text, k, "[", "]")
            if end < 0:
                break
            takes_arguments = takes_arguments or (at == 0 and text[k + 1:end - 1].strip() not in ("", "0"))
            j = end
    bodies = []
    for _ in range(count):
        k = _skip_space(text, j)
        end = _group_end(text, k)
        if end < 0:
            return None
        bodies.append(text[k + 1:end - 1])
        j = end
    return _Definition(j, env, command, takes_arguments, bodies)


def _strip_ignored(text: str, state: _ReadState, on_input, subfile: bool = False) -> str:
    """``text`` with what LaTeX does not read as the paper's text blanked (line breaks kept, so
    line numbers stay right): ``%`` comments (``\\%`` kept), ``comment`` and verbatim environments,
    ``\\verb``, a ``\\iffalse`` branch (its ``\\else`` branch is read) and a ``\\iftrue``'s
    ``\\else`` branch, what follows ``\\endinput``'s line and ``\\end{document}``. Each
    ``\\input``/``\\include``/``\\subfile`` read is passed to ``on_input(name, braced, include)``
    where it occurs, so what an input file declares counts from there on. The bodies of definitions
    (``\\newcommand``, ``\\def``, ``\\newenvironment``, …) are blanked too: they are read where
    they are used. With ``subfile`` (a file read by ``\\subfile``), only the part between its
    ``\\begin{document}`` and ``\\end{document}`` is read, and that end ends the subfile only."""
    chars = list(text)
    n = len(text)
    stack: list[str] = []  # the open conditionals being read: "true", "other", "read-else"
    depth = 0  # of braces
    i = 0
    while i < n:
        if state.ended:
            _blank(chars, i, n)
            break
        ch = text[i]
        if ch == "%":
            j = text.find("\n", i)
            j = n if j < 0 else j
            _blank(chars, i, j)
            i = j
            continue
        if ch in "{}":
            depth = depth + 1 if ch == "{" else max(depth - 1, 0)
            i += 1
            continue
        if ch != "\\":
            i += 1
            continue
        m = _CS.match(text, i)
        name, end = m.group(1), m.end()
        if subfile and name == "documentclass":
            # a subfile's own preamble is not read when the main file includes it
            begin = re.compile(r"\\begin\s*\{document\}").search(_strip_comments_only(text), end)
            stop = begin.end() if begin else n
            _blank(chars, i, stop)
            i = stop
            continue
        if name in _BODY_DEFINERS:
            found = _definition(text, end, *_BODY_DEFINERS[name])
            if found is not None:
                state.bodies += found.bodies
                if found.env is not None and found.bodies:
                    state.environment_code[found.env] = "\n".join(found.bodies)
                    opens = _BEGIN.search(_strip_comments_only(found.bodies[0]))
                    if opens:
                        state.wrappers[found.env] = opens.group(1)
                    else:
                        state.wrappers.pop(found.env, None)
                if found.command is not None and found.bodies:
                    _define_macro(found, name == "providecommand", state)
                _blank(chars, i, found.end)
                i = found.end
                continue
        if name in ("begin", "end"):
            arg = _BRACED.match(text, end)
            env = arg.group(1) if arg else ""
            if name == "begin" and env in state.environment_code and _reads_files(state.environment_code[env], state):
                state.unread.append(f"not followed: \\begin{{{env}}} (an environment whose code reads files)")
            if name == "begin" and env in state.skipped:
                close = re.compile(r"\\end\s*\{" + re.escape(env) + r"\}").search(text, arg.end())
                stop = close.end() if close else n
                _blank(chars, i, stop)
                i = stop
                continue
            if name == "end" and env == "document":
                if subfile:  # ends the subfile, not the file that includes it
                    _blank(chars, arg.end(), n)
                    break
                state.ended = True
                i = arg.end()
                continue
        elif name == "verb":
            j = end + (1 if text.startswith("*", end) else 0)
            if j < n and text[j] not in " \n":
                close = text.find(text[j], j + 1)
                line_end = text.find("\n", j + 1)
                if close >= 0 and (line_end < 0 or close < line_end):
                    _blank(chars, i, close + 1)
                    i = close + 1
                    continue
        elif name in ("excludecomment", "includecomment", "specialcomment"):
            # the comment package: only \excludecomment'ed environments are dropped; the others are typeset
            arg = _BRACED.match(text, end)
            if arg:
                names = {e.strip() for e in arg.group(1).split(",") if e.strip()}
                state.skipped = state.skipped | names if name == "excludecomment" else state.skipped - names
        elif name in _DEFINERS:
            # the control sequence being defined is not used here (``\newif\ifdraft``, ``\let\a\b``)
            j = end
            for _ in range(2 if name == "let" else 1):
                k = j
                while k < n and text[k] in " \t\n{*=":
                    k += 1
                d = _CS.match(text, k)
                if not d:
                    break
                if name == "let" and j == end:  # \let\secB\secA: \secB is \secA as defined now
                    copied = _CS.match(text, _skip_let_space(text, d.end()))
                    _let_macro(d.group(1), copied.group(1) if copied else None, state)
                if name == "newif" and d.group(1).startswith("if"):
                    state.conditionals.add(d.group(1))
                    state.switches[d.group(1)[2:]] = False
                j = d.end()
            i = j
            continue
        elif name == "endinput" and depth == 0:
            line_end = text.find("\n", end)
            if line_end >= 0:
                _blank(chars, line_end, n)
            i = n
            continue
        elif _switch_set(name, state):
            pass
        elif name == "iffalse" or (name.startswith("if") and state.switches.get(name[2:]) is False):
            stop, by_else = _skip_branch(text, end, state, stop_at_else=True)
            _blank(chars, i, stop)
            if by_else:
                stack.append("read-else")
            i = stop
            continue
        elif name == "else" and stack and stack[-1] == "true":
            stop, _ = _skip_branch(text, end, state, stop_at_else=False)
            _blank(chars, i, stop)
            stack.pop()
            i = stop
            continue
        elif name == "fi":
            if stack:
                stack.pop()
        elif name in state.conditionals:
            stack.append("true" if name == "iftrue" or state.switches.get(name[2:]) is True else "other")
        elif name in ("input", "include", "subfile", "@input"):
            found = _input_name(text, end)
            if found and (found[2] or name == "input"):
                on_input(found[0], found[2], "input" if name == "@input" else name)
                i = found[1]
                continue
            after = _CS.match(text, _skip_space(text, end)) if name == "input" else None
            if after and after.group(1) != "jobname":  # \input\secfile: a file name from a macro
                state.unread.append(f"not followed: \\input\\{after.group(1)} (a file name with a macro)")
        elif name == "InputIfFileExists":  # \InputIfFileExists{f}{then}{else}: then and f, or else
            found = _input_name(text, end)
            if found and found[2]:
                exists = on_input(found[0], True, "input")
                k = _skip_space(text, found[1])
                then = _group_end(text, k)
                k2 = _skip_space(text, max(then, k))
                otherwise = _group_end(text, k2)
                if then > 0 and otherwise > 0:
                    _blank(chars, k2, otherwise) if exists else _blank(chars, k, then)
                i = found[1]
                continue
        elif name in IMPORT_COMMANDS:
            found = _import_arguments(text, end)
            if found:
                folder, file, i = found
                on_input(file, True, name, folder)
                continue
        elif name == "includeonly":
            k = _skip_space(text, end)
            close = _group_end(text, k)
            if close > 0:
                names = _argument_text(text[k + 1:close - 1]).split(",")
                state.includeonly = {n.strip() for n in names if n.strip()}
        elif name in state.macros:
            # the body, read where the macro is used, when it reads files through the macros known here
            if name not in state.expanding and _macro_reads_files(name, state):
                state.expanding.add(name)
                _strip_ignored(state.macros[name], state, on_input)
                state.expanding.discard(name)
        elif name in state.arg_macros and _macro_reads_files(name, state):
            state.unread.append(f"not followed: \\{name} (a macro with arguments that reads files)")
        elif name in ("usepackage", "RequirePackage", "documentclass", "LoadClass"):
            k = _skip_space(text, end)
            k = _skip_space(text, max(k, _group_end(text, k, "[", "]")))
            close = _group_end(text, k)
            if close > 0:
                for package in text[k + 1:close - 1].split(","):
                    on_input(package.strip(), True, name)
        i = end
    return "".join(chars)


def _import_arguments(text: str, i: int) -> tuple[str, str, int] | None:
    """The folder and file of an import-package command from ``i`` (just past its name, a star
    allowed: ``\\subimport*{dir/}{file}``) and the index past them; ``None`` when not well formed."""
    j = _skip_space(text, i + (1 if text.startswith("*", i) else 0))
    first = _group_end(text, j)
    if first < 0:
        return None
    k = _skip_space(text, first)
    second = _group_end(text, k)
    if second < 0:
        return None
    return (_argument_text(text[j + 1:first - 1]).strip(), _argument_text(text[k + 1:second - 1]).strip(),
            second)


def _reads_files(body: str, state: _ReadState, visiting: frozenset[str] = frozenset()) -> bool:
    """Whether ``body`` reads a file, with the definitions known now: it has an ``\\input``-family
    command, or uses a macro that reads one (:func:`_macro_reads_files`)."""
    names = {m.group(1) for m in _CS.finditer(_strip_comments_only(body))}
    return bool(names & READING_COMMANDS) or any(
        _macro_reads_files(n, state, visiting) for n in names if n in state.macros or n in state.arg_macros)


def _macro_reads_files(name: str, state: _ReadState, visiting: frozenset[str] = frozenset()) -> bool:
    """Whether the macro ``name`` reads a file, with the definitions known now: its body has an
    ``\\input``-family command, or uses a macro that reads one (decided where it is used, not where it
    is defined: ``\\newcommand{\\all}{\\secD}`` before ``\\secD`` is defined reads what ``\\secD`` does)."""
    if name in state.reads:
        return state.reads[name]
    body = state.macros.get(name, state.arg_macros.get(name))
    if body is None or name in visiting:
        return False
    found = _reads_files(body, state, visiting | {name})
    if not visiting:
        state.reads[name] = found
    return found


def _define_macro(found: _Definition, provide: bool, state: _ReadState) -> None:
    """Record a (re)definition of a command: its body is kept (an argument-less one is read where it
    is used when it reads files then; one with arguments that reads files is reported where it is
    used). ``provide`` (``\\providecommand``) changes nothing for a name any definition has defined."""
    name = found.command
    if provide and name in state.defined:
        return
    state.defined.add(name)
    state.reads.clear()
    state.macros.pop(name, None)
    state.arg_macros.pop(name, None)
    (state.arg_macros if found.takes_arguments else state.macros)[name] = found.bodies[0]


def _skip_let_space(text: str, i: int) -> int:
    """Past the spaces and the one optional ``=`` between ``\\let\\a`` and what it is let to."""
    while i < len(text) and text[i] in " \t\n":
        i += 1
    if i < len(text) and text[i] == "=":
        i += 1
        if i < len(text) and text[i] == " ":
            i += 1
    return i


def _let_macro(name: str, copied: str | None, state: _ReadState) -> None:
    """``\\let\\name\\copied``: ``name`` is what ``copied`` is now (a macro whose body is kept, or
    anything else)."""
    state.defined.add(name)
    state.reads.clear()
    state.macros.pop(name, None)
    state.arg_macros.pop(name, None)
    if copied in state.macros:
        state.macros[name] = state.macros[copied]
    elif copied in state.arg_macros:
        state.arg_macros[name] = state.arg_macros[copied]


def _switch_set(name: str, state: _ReadState) -> bool:
    """``\\drafttrue`` / ``\\draftfalse`` of a ``\\newif\\ifdraft`` switch: its value from here on (TeX's
    grouping is not followed: a switch set inside a group counts after it too)."""
    for value, suffix in ((True, "true"), (False, "false")):
        if name.endswith(suffix) and name[:-len(suffix)] in state.switches:
            state.switches[name[:-len(suffix)]] = value
            return True
    return False


def _strip_comments_only(text: str) -> str:
    """``text`` with its ``%`` comments blanked (``\\%`` kept), nothing else."""
    return re.sub(r"(?<!\\)((?:\\\\)*)%[^\n]*", lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))), text)


@dataclass(frozen=True, slots=True)
class PathEntry:
    """One entry of ``TEXINPUTS`` as kpathsea reads it: its text, the folders it stands for in
    order, whether it is searched recursively (``//``), and whether it is ``!!`` (searched in its
    ``ls-R`` database only, never on disk)."""

    text: str
    folders: tuple[Path, ...]
    recursive: bool = False
    database_only: bool = False


def _expand_entry(root: Path, entry: str) -> list[Path]:
    """The folders of a ``TEXINPUTS`` entry (relative to ``root``): ``dir//`` is ``dir`` and every
    folder under it, ``dir//sub`` every folder named ``sub`` under ``dir`` (``dir/sub`` too), at
    any depth; subfolders sorted by name."""
    parts = entry.split("//")
    head = parts[0].rstrip("/") if parts[0].rstrip("/") else "/"
    folders = [root / head]
    for part in parts[1:]:
        below = []
        for folder in folders:
            if folder.is_dir():
                below.append(folder)
                for d, subs, _ in os.walk(folder):
                    subs.sort()
                    below += [Path(d) / s for s in subs]
        part = part.strip("/")
        folders = [f / part for f in below if (f / part).is_dir()] if part else below
    return list(dict.fromkeys(folders))


def tex_path(root: Path, texinputs: str | None) -> list[PathEntry]:
    """The entries of TeX's path, in order, as kpathsea reads ``TEXINPUTS`` (the emulation used
    where ``kpsewhich`` is not installed): entries separated by the path separator (``:``), each
    relative to the folder LaTeX runs in (the main file's); ``//`` anywhere in an entry searches
    the folders under it (:func:`_expand_entry`); an empty entry is the default path, which here is
    the main file's folder (TeX's own trees hold no file of the paper). Without ``TEXINPUTS`` the
    path is the main file's folder; with it, only its entries are searched (the main file's folder
    only where an entry names it, ``.`` or an empty one)."""
    if not texinputs:
        return [PathEntry("", (root,))]
    out = []
    for text in texinputs.split(os.pathsep):
        entry = os.path.expandvars(os.path.expanduser(text.removeprefix("!!")))
        if not entry:
            out.append(PathEntry(text, (root,)))
            continue
        out.append(PathEntry(text, tuple(_expand_entry(root, entry)), "//" in entry, text.startswith("!!")))
    return out


def _tex_names(name: str, include: bool) -> list[str]:
    """The names TeX tries for ``\\input{name}``, in each folder in turn: ``name.tex`` then
    ``name``; only ``name`` when it ends in ``.tex``; ``\\include`` always ``name.tex``."""
    if include:
        return [name + ".tex"]
    return [name] if name.endswith(".tex") else [name + ".tex", name]


def _kpsewhich(*args: str, cwd: Path | None = None, program: str = "kpsewhich") -> str:
    """What ``kpsewhich ARGS`` prints (stripped), or ``""`` when it cannot be run or finds nothing."""
    try:
        return subprocess.run([program, *args], cwd=cwd, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


@functools.lru_cache(maxsize=None)
def _texmf_roots() -> tuple[Path, ...]:
    """The TeX installation's trees (kpsewhich's ``$TEXMF``): no file in them is the paper's own."""
    found = _kpsewhich("-expand-braces=$TEXMF")
    return tuple(Path(p.removeprefix("!!")).resolve() for p in found.split(os.pathsep) if p.removeprefix("!!"))


class TexSearch:
    """Where TeX finds a file on its path from the folder LaTeX runs in (``root``, the main file's).
    Where ``kpsewhich`` is installed it is asked, run in ``root`` with the user's environment
    (``-progname=pdflatex -format=tex``), so kpathsea's own rules apply (``TEXINPUTS`` entries in
    order, ``!!``, ``//`` anywhere in an entry, the default path for an empty entry, ``name.tex``
    before ``name``); one call per name (about 5 ms), each answer kept for the reading. Without
    it, :func:`tex_path` is searched; a file that such a search cannot place as TeX would (in a
    ``!!`` entry, or in several subfolders of one ``//`` entry) is not read, and ``unread`` says why."""

    def __init__(self, root: Path, texinputs: str | None, unread: list[str], kpsewhich: str | None = None):
        self.root = root
        self.unread = unread
        self.kpsewhich = kpsewhich
        self.path = None if kpsewhich else tex_path(root, texinputs)
        self.found: dict[str, Path | None] = {}

    def find(self, name: str, include: bool = False) -> Path | None:
        """The file TeX reads for ``\\input{name}`` (``\\include{name}`` with ``include``)."""
        key = (name + ".tex") if include else name
        if key not in self.found:
            self.found[key] = self._kpsewhich(key) if self.kpsewhich else self._emulated(name, include)
        return self.found[key]

    def _kpsewhich(self, name: str) -> Path | None:
        if name.startswith("-"):
            name = "./" + name
        out = _kpsewhich("-progname=pdflatex", "-format=tex", name, cwd=self.root, program=self.kpsewhich)
        found = self.root / out if out else None
        return found if found is not None and found.is_file() else None

    def _emulated(self, name: str, include: bool) -> Path | None:
        names = _tex_names(name, include)
        if Path(name).is_absolute() or name.startswith(("./", "../")):
            return next((self.root / n for n in names if (self.root / n).is_file()), None)
        for entry in self.path:
            for n in names:
                hits = list(dict.fromkeys((f / n).resolve() for f in entry.folders if (f / n).is_file()))
                if not hits:
                    continue
                shown = names[0]
                if entry.database_only:
                    self.unread.append(f"not read: {shown} (in TEXINPUTS entry {entry.text}, which TeX seeks in "
                                       "its ls-R database only)")
                    return None
                if len(hits) > 1:
                    places = [_relative(h.parent, self.root) for h in hits]
                    self.unread.append(f"not read: {shown} (found in {', '.join(places[:-1])} and {places[-1]}; "
                                       "TeX's choice depends on the file system)")
                    return None
                return hits[0]
        return None

    def in_tex_trees(self, file: Path) -> bool:
        """Whether ``file`` is in the TeX installation's trees (not one of the paper's own)."""
        resolved = file.resolve()
        return any(resolved.is_relative_to(r) for r in _texmf_roots()) if self.kpsewhich else False


def _resolve(name: str, include: bool, jobname: str, root: Path, search: TexSearch,
             imports: Sequence[Path] = ()) -> Path | None:
    """The file ``\\input{name}`` (``\\include`` with ``include``) reads, as TeX finds it: first in
    the import package's folders ``imports`` (its ``\\input@path``, tried first for every name but
    an absolute one), then where TeX's own search finds it (:class:`TexSearch`: an absolute name,
    or one starting ``./`` or ``../``, relative to the folder LaTeX runs in, ``root``, taken to be
    the main file's, not the including file's; any other on TeX's path). In each folder
    ``name.tex`` is tried first, then ``name`` (:func:`_tex_names`)."""
    name = name.replace("\\jobname", jobname).strip().strip('"')
    if not name or "\\" in name or "#" in name:
        return None
    if not Path(name).is_absolute():
        names = _tex_names(name, include)
        found = next((f / n for f in imports for n in names if (f / n).is_file()), None)
        if found is not None:
            return found
    return search.find(name, include)


def _import_folder(command: str, folder: str, imports: tuple[str, ...]) -> str:
    """The import folder of ``\\import{folder}{…}`` (and the other import commands) read in a file
    whose import folders are ``imports`` (innermost first): ``folder`` itself, or for the ``sub``
    commands ``folder`` after the current import folder, as the import package joins them (a
    trailing ``/`` added)."""
    folder = folder + "/" if folder and not folder.endswith("/") else folder
    return (imports[0] if imports and command.startswith("sub") else "") + folder


def _sources(main: Path) -> tuple[list[tuple[str, str]], _ReadState]:
    """The paper's files in reading order, each ``(path relative to the paper's folder, text with
    what LaTeX does not read blanked)``: the main file, then, depth first, what it ``\\input``s;
    and what reading them declared (with the local packages and classes they load). A file is
    sought as TeX seeks it (:func:`_resolve`); the files an ``\\import``ed file reads are sought in
    its import folders first (the import package's ``\\input@path``), then on TeX's path."""
    root = main.parent
    state = _ReadState(main)
    seen: set[Path] = set()  # the packages and classes read (LaTeX loads each once)
    reading: list[Path] = []  # the files being read, each inside the one before
    out: list[tuple[str, str] | None] = []
    search = TexSearch(root, os.environ.get("TEXINPUTS"), state.unread, shutil.which("kpsewhich"))

    def reader(imports: tuple[str, ...], included: bool = False):
        """What a file read with the import folders ``imports`` does with each file it names
        (``included``: the file is read by an ``\\include``, or by a file that is)."""

        def on_input(name: str, braced: bool, command: str, folder: str = "") -> bool:
            """Read (or report) the file ``name``; whether it exists."""
            if command in ("usepackage", "RequirePackage"):
                # a package of the paper's own: its declarations count (its text is not the paper's)
                found = _resolve(name + ".sty", False, main.stem, root, search) if name else None
                if found is not None and not search.in_tex_trees(found) and found.resolve() not in seen:
                    seen.add(found.resolve())
                    state.packages.append(_strip_ignored(_read(found), state, on_input))
                return found is not None
            if command in ("documentclass", "LoadClass"):
                found = _resolve(name + ".cls", False, main.stem, root, search) if name else None
                if found is not None and not search.in_tex_trees(found):
                    read_class(name, found, on_input)
                elif name and (found := installed(name + ".cls")) is not None:
                    read_class(name, found, class_reader(found.parent))
                return found is not None
            if "\\" in name.replace("\\jobname", ""):  # \input{\dir/a}: what \dir is at this point is not followed
                state.unread.append(f"not followed: \\{command}{{{name}}} (a file name with a macro)")
                return False
            inner = imports
            if command in IMPORT_COMMANDS:
                inner = (_import_folder(command, folder, imports),) + imports
                name = inner[0] + name
            import_folders = [root / d for d in inner]
            include = command in ("include", "includefrom", "subincludefrom")
            if include and name.strip().endswith(".tex"):  # LaTeX strips the extension \include adds
                name = name.strip()[:-len(".tex")]
            found = _resolve(name, include or command == "subfile", main.stem, root, search, import_folders)
            if include and included:  # LaTeX stops with "\include cannot be nested" and reads on
                state.unread.append(f"not read: {_relative(found, root) if found else name.strip() + '.tex'} "
                                    "(\\include inside an \\include'd file)")
                return found is not None
            if include and state.includeonly is not None and name.strip() not in state.includeonly:
                state.unread.append(f"not read: {_relative(found, root) if found else name.strip() + '.tex'} "
                                    "(not in \\includeonly)")
                return found is not None
            if found is not None:
                visit(found, inner, command == "subfile", included or include)
            return found is not None

        return on_input

    def read_class(name: str, file: Path, on_input) -> None:
        if file.resolve() not in seen:
            seen.add(file.resolve())
            state.classes.add(name)
            state.class_texts.append(_strip_ignored(_read(file), state, on_input))

    def class_reader(folder: Path):
        """What a class file of the TeX installation does with the files it names: the packages
        beside it and the classes it loads are read for declarations; nothing else is followed."""

        def on_input(name: str, braced: bool, command: str, *_: str) -> None:
            if command in ("usepackage", "RequirePackage") and name and (folder / (name + ".sty")).is_file():
                read_class(name, folder / (name + ".sty"), on_input)
            elif command == "LoadClass" and name and (found := installed(name + ".cls")) is not None:
                read_class(name, found, class_reader(found.parent))

        return on_input

    def visit(file: Path, imports: tuple[str, ...] = (), subfile: bool = False, included: bool = False) -> None:
        # a file read twice is read twice (its labels are then duplicated); one that reads itself,
        # which TeX would read until its input stack overflows, is read once
        file = file.resolve()
        if file in reading or not file.is_file() or state.ended:
            return
        reading.append(file)
        slot = len(out)
        out.append(None)
        out[slot] = (_relative(file, root), _strip_ignored(_read(file), state, reader(imports, included), subfile=subfile))
        reading.pop()

    visit(main)
    return [o for o in out if o is not None], state


@functools.lru_cache(maxsize=None)
def installed(file: str) -> Path | None:
    """Where the TeX installation has ``file`` (``kpsewhich``; ``None`` without TeX Live or the file)."""
    if not re.fullmatch(r"[\w.+-]+", file) or shutil.which("kpsewhich") is None:
        return None
    found = _kpsewhich(file)
    return Path(found) if found and Path(found).is_file() else None


def _relative(file: Path, root: Path) -> str:
    """``file`` relative to the paper's folder (absolute when outside it)."""
    try:
        return str(file.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(file.resolve())


def _title(text: str) -> str:
    """A declared title as it prints, roughly: ``Proposition~{\\bfseries A}`` is ``Proposition A``."""
    text = re.sub(r"\\[A-Za-z@]+\*?", " ", text).replace("~", " ").replace("{", " ").replace("}", " ")
    return " ".join(text.split())


def _declarations(text: str) -> Iterable[tuple[str, str]]:
    """Each theorem-like environment ``text`` declares, with its title, in order."""
    for m in _DECLARATION.finditer(text):
        close = _group_end(text, m.end())
        title = _title(text[m.end() + 1:close - 1]) if close > 0 else ""
        yield m.group(1).strip(), title or m.group(1).strip().capitalize()
    for m in _DECLARETHEOREM.finditer(text):
        name, options = m.group(2).strip(), m.group(1) or ""
        title = re.search(r"(?:name|title)\s*=\s*\{?([^,}\]]+)", options)
        yield name, title.group(1).strip() if title else name.capitalize()


def read_paper(path: str | Path, project: str | Path | None = None) -> Paper:
    """The theorem-like environments of the paper at ``path`` (and of the files it inputs).
    ``project``: the folder a ``Source`` path with a directory part is relative to."""
    main = Path(path)
    if not main.is_file():
        raise UsageError(f"{path}: no such file; give the paper's main .tex file")
    sources, state = _sources(main)
    declared: dict[str, str] = {}

    def known_lists(text: str) -> None:
        """The known list of each class ``text`` loads whose file was not read (no TeX Live, or not in it)."""
        for m in _DOCUMENTCLASS.finditer(text):
            if m.group(1).strip() not in state.classes:
                for name in CLASS_ENVIRONMENTS.get(m.group(1).strip(), ()):
                    declared.setdefault(name, DEFAULT_ENVIRONMENTS.get(name, name.capitalize()))

    for text in state.class_texts:  # what a class file declares (its proof environment is no statement)
        known_lists(text)  # a class of the paper's own that loads jmlr (\LoadClass{jmlr}) where jmlr.cls is not installed
        declared.update((name, title) for name, title in _declarations(text) if name != "proof")
    texts = [text for _, text in sources] + state.packages + [_strip_comments_only(b) for b in state.bodies]
    for text in texts:
        known_lists(text)
        declared.update(_declarations(text))
    # an environment defined to open a theorem-like one is theorem-like, with its title
    # (\newenvironment{mainthm}{\begin{thm}}{\end{thm}})
    changed = True
    while changed:
        changed = False
        for name, inner in state.wrappers.items():
            if inner in declared and name not in declared:
                declared[name] = declared[inner]
                changed = True
    envs: list[Environment] = []
    for rel, text in sources:
        envs += _environments(text, rel, declared)
    return Paper(main, tuple(dict.fromkeys(rel for rel, _ in sources)), declared, tuple(envs),
                 Path(project) if project is not None else None, tuple(dict.fromkeys(state.unread)))


def _end_span(text: str, kind: str, start: int) -> tuple[int, int]:
    """``(start, end)`` of the ``\\end{kind}`` closing an environment whose body starts at
    ``start``; ``(len(text), len(text))`` when there is none."""
    pattern = re.compile(r"\\(begin|end)\s*\{" + re.escape(kind) + r"\}")
    depth = 1
    for m in pattern.finditer(text, start):
        depth += 1 if m.group(1) == "begin" else -1
        if depth == 0:
            return m.start(), m.end()
    return len(text), len(text)


def _matching_end(text: str, kind: str, start: int) -> int:
    """Index of the ``\\end{kind}`` closing an environment whose body starts at ``start``."""
    found = _end_span(text, kind, start)[0]
    return found if found < len(text) else -1


_OTHER_COUNTER = re.compile(r"\\(" + "|".join(_OTHER_COUNTERS) + r")(?![A-Za-z@])\*?")


def _mask_other_counters(text: str) -> str:
    """``text`` with the arguments of the commands that number something of their own blanked
    (``\\footnote{…}``, ``\\caption[…]{…}``, ``\\item[…]``): a ``\\label`` there is not the theorem's."""
    chars = list(text)
    for m in _OTHER_COUNTER.finditer(text):
        j = m.end()
        while True:  # optional arguments, then (except for \item) the braced one
            k = _skip_space(text, j)
            end = _group_end(text, k, "[", "]")
            if end < 0:
                break
            _blank(chars, k, end)
            j = end
        if m.group(1) != "item":
            k = _skip_space(text, j)
            end = _group_end(text, k)
            if end > 0:
                _blank(chars, k, end)
    return "".join(chars)


def _own_label(body: str) -> str | None:
    """The first ``\\label`` of an environment's own body that is not inside an environment that
    numbers something else (an equation, an enumerated item, a figure) nor in the argument of a
    command that does (a footnote, a caption, an item's optional argument)."""
    stack: list[str] = []
    for m in _ENVIRONMENT_TOKEN.finditer(_mask_other_counters(body)):
        if m.group(1) == "begin":
            stack.append(m.group(2))
        elif m.group(1) == "end":
            if m.group(2) in stack:
                del stack[len(stack) - 1 - stack[::-1].index(m.group(2)):]
        elif not any(e in NUMBERING_ENVIRONMENTS for e in stack):
            return m.group(3).strip()
    return None


def _environments(text: str, file: str, declared: Mapping[str, str]) -> list[Environment]:
    """Every theorem-like environment of ``text``, nested ones too, in order of their beginning.
    An environment's own label and ``\\obligation``s are those of its body outside the
    theorem-like environments nested in it (and in its optional argument)."""
    spans = []
    for m in _BEGIN.finditer(text):
        if m.group(1) in declared:
            end, stop = _end_span(text, m.group(1), m.end())
            spans.append((m.start(), m.end(), end, stop, m.group(1)))
    out = []
    for start, body_start, end, _, kind in spans:
        nested = [(s, t) for s, _, _, t, _ in spans if body_start <= s < end]
        pieces, at = [], body_start
        for s, t in nested:
            if s >= at:
                pieces.append(text[at:s])
                at = t
        pieces.append(text[at:end] if at < end else "")
        body = " ".join(pieces)
        note = ""
        stripped = body.lstrip()
        if stripped.startswith("["):
            offset = len(body) - len(stripped)
            close = _group_end(body, offset, "[", "]")
            if close > 0:
                note, body = body[offset + 1:close - 1].strip(), body[close:]
        label_m = _LABEL.search(_mask_other_counters(note)) or _KEY_LABEL.search(note)
        label = label_m.group(1).strip() if label_m else _own_label(body)
        named = tuple(i.strip() for source in (note, body) for m2 in _OBLIGATION.finditer(source)
                      for i in m2.group(1).split(",") if i.strip())
        shown = _OBLIGATION.sub(" ", _LABEL.sub(" ", note))
        if not _LABEL.search(note) and label_m:
            shown = _KEY_LABEL.sub("", shown)
        out.append(Environment(kind, declared[kind], label, " ".join(shown.split()), body.strip(), file,
                               text.count("\n", 0, start) + 1, named))
    return out


# --------------------------------------------------------------------------- linking


def normal_source(source_file: str) -> str:
    """A ``Source`` file as a normal POSIX path: backslashes as slashes, ``.`` and ``x/..`` parts
    dropped (``"./paper.tex"`` is ``"paper.tex"``)."""
    source = source_file.strip().replace("\\", "/")
    return posixpath.normpath(source) if source else ""


def cites(paper: Paper, source_file: str) -> bool:
    """Whether an obligation's ``source.file`` names this paper (or one of the files it reads),
    once normalised (:func:`normal_source`). A bare file name (``"paper.tex"``) names any of them
    with that name; a path with a directory part (``"papers/icml/main.tex"``) must lead to the
    file from the project's folder (or be its absolute path): another paper's ``main.tex`` is not
    this one."""
    source = normal_source(source_file)
    if not source or source == ".":
        return False
    path = PurePosixPath(source)
    if len(path.parts) == 1:
        return any(p.name == source for p in paper.read_paths())
    root = (paper.project or Path.cwd())
    return (root / Path(*path.parts)).resolve() in paper.read_paths()


def linked_ids(paper: Paper, obligations: Iterable[tuple[str, str, str]]) -> tuple[list[str], list[str]]:
    """Of ``(id, source file, source label)`` triples, the ids the paper links (by source or by
    ``\\obligation``), and the ids named by ``\\obligation`` that are not among them."""
    known = {i for i, _, _ in obligations}
    wanted = [i for i, f, _ in obligations if cites(paper, f)]
    named = [i for e in paper.environments for i in e.named]
    return list(dict.fromkeys(wanted + [i for i in named if i in known])), [i for i in named if i not in known]


def duplicate_labels(paper: Paper) -> dict[str, list[Environment]]:
    """The labels more than one of the paper's environments has, with those environments."""
    by_label: dict[str, list[Environment]] = {}
    for e in paper.environments:
        if e.label:
            by_label.setdefault(e.label, []).append(e)
    return {label: envs for label, envs in by_label.items() if len(envs) > 1}


@dataclass(frozen=True, slots=True)
class Entry:
    """One environment and the results of the obligations linked to it."""

    environment: Environment
    rows: tuple[Mapping[str, Any], ...]
    warnings: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()  # ids it names that have no result: it is not checked
    stale: Mapping[str, str] = field(default_factory=dict)  # id → why its result is not current
    shared: tuple[Environment, ...] = ()  # other environments with the same label
    unchecked: str = ""  # the report its results are read from as saved, their freshness not checked

    @property
    def covered(self) -> bool:
        return bool(self.rows or self.missing)


@dataclass(frozen=True, slots=True)
class Coverage:
    paper: Paper
    entries: tuple[Entry, ...]
    dangling: tuple[str, ...] = ()  # obligations citing a label the paper does not have
    unknown: tuple[str, ...] = ()  # \obligation{…} ids no catalogue has
    notes: tuple[str, ...] = field(default=())
    duplicates: Mapping[str, tuple[Environment, ...]] = field(default_factory=dict)  # label → its environments
    unattributed: tuple[str, ...] = ()  # obligations citing a label more than one environment has
    stale: Mapping[str, str] = field(default_factory=dict)  # id → why its result is not current
    unreported: tuple[str, ...] = ()  # ids the paper links that the report (``--from``) has no result for
    report: str = ""  # the report's name (``--from``)
    unchecked: str | None = None  # the report whose freshness was not checked (no catalogue loaded)

    @property
    def failing(self) -> list[str]:
        """Linked results whose outcome fails a check (contradicted, broken, vacuous)."""
        return [r["id"] for e in self.entries for r in e.rows if r["outcome"] in ("contradicted", "broken", "vacuous")]


def coverage(paper: Paper, doc: Mapping[str, Any], unknown: Sequence[str] = (),
             stale: Mapping[str, str] | None = None, notes: Sequence[str] = (), *, unreported: Sequence[str] = (),
             absent: Sequence[tuple[str, str, str]] = (), unchecked: str | None = None, report: str = "") -> Coverage:
    """The paper's environments with the result rows (a JSON report document's ``results``) of
    the obligations linked to each, the constants each statement has and no checked claim does,
    and the links that lead nowhere. An id an environment names with no row is ``missing`` from
    it, and so is an obligation of ``absent`` (``(id, file, label)``: the catalogue has it, the
    report has no result for it) citing its label; ``stale`` (id → why) are rows that are not the
    current obligation's result; ``unchecked`` names the report whose rows are shown as saved, their
    freshness not checked. Results citing a label that several environments share are given to none
    of them."""
    rows = {r["id"]: r for r in doc["results"]}
    stale = dict(stale or {})
    duplicates = duplicate_labels(paper)
    labels = {e.label for e in paper.environments if e.label}
    entries = []
    for env in paper.environments:
        ids = [i for i in env.named if i in rows]
        if env.label and env.label not in duplicates:
            ids += [r["id"] for r in doc["results"]
                    if r["source"]["label"] == env.label and cites(paper, r["source"]["file"])]
        linked = tuple(rows[i] for i in dict.fromkeys(ids))
        missing = [i for i in env.named if i not in rows]
        if env.label and env.label not in duplicates:
            missing += [i for i, f, label in absent if label == env.label and cites(paper, f) and i not in rows]
        missing = tuple(dict.fromkeys(missing))
        shared = tuple(e for e in duplicates.get(env.label or "", ()) if e is not env)
        entries.append(Entry(env, linked, tuple(constant_warnings(env, linked)), missing,
                             {r["id"]: stale[r["id"]] for r in linked if r["id"] in stale}, shared,
                             unchecked or ""))
    named = {i for e in paper.environments for i in e.named}
    citing = [r for r in doc["results"] if cites(paper, r["source"]["file"]) and r["id"] not in named]
    dangling = tuple(f"{r['id']} ({r['source']['label']})" for r in citing if r["source"]["label"] not in labels)
    unattributed = tuple(f"{r['id']} ({r['source']['label']})" for r in citing if r["source"]["label"] in duplicates)
    used = {r["id"] for e in entries for r in e.rows}
    return Coverage(paper, tuple(entries), dangling, tuple(unknown), tuple(notes),
                    {k: tuple(v) for k, v in duplicates.items()}, unattributed,
                    {i: why for i, why in stale.items() if i in used}, tuple(dict.fromkeys(unreported)), report, unchecked)



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
    for _ in range(4):  # \frac{a}{b}, and \tfrac12 (an argument may be a single character)
        text = re.sub(r"\\[dt]?frac\s*(?:\{([^{}]*)\}|([A-Za-z0-9]))\s*(?:\{([^{}]*)\}|([A-Za-z0-9]))",
                      lambda m: f"({m.group(1) if m.group(1) is not None else m.group(2)})/"
                                f"({m.group(3) if m.group(3) is not None else m.group(4)})", text)
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


#: The margin symbols, weakest first: the mark of an environment is its weakest result's. ``stale``:
#: a saved result the obligation has changed since; ``missing``: a named obligation with no result;
#: ``unchecked``: a settled result read from a report whose freshness could not be checked (no
#: catalogue loaded); ``ambiguous`` (never mixed with the others): a label several environments have.
MARKS = ("broken", "contradicted", "stale", "missing", "unchecked", "open", "evidence", "unsettled", "instances",
         "bounded", "universal", "confirmed false")
MARK_MACROS = {
    "broken": r"\providecommand{\obmarkbroken}{\textbf{!}}",
    "contradicted": r"\providecommand{\obmarkcontradicted}{$\times$}",
    "stale": r"\providecommand{\obmarkstale}{?}",
    "missing": r"\providecommand{\obmarkmissing}{?}",
    "unchecked": r"\providecommand{\obmarkunchecked}{$\checkmark^{?}$}",
    "open": r"\providecommand{\obmarkopen}{?}",
    "evidence": r"\providecommand{\obmarkevidence}{$\sim$}",
    "unsettled": r"\providecommand{\obmarkunsettled}{$\checkmark^{\ast}$}",
    "instances": r"\providecommand{\obmarkinstances}{$\circ$}",
    "bounded": r"\providecommand{\obmarkbounded}{$(\checkmark)$}",
    "universal": r"\providecommand{\obmarkuniversal}{$\checkmark$}",
    "confirmed false": r"\providecommand{\obmarkconfirmedfalse}{$\checkmark$}",
    "ambiguous": r"\providecommand{\obmarkambiguous}{\textbf{!}}",
}
#: The marks of results that settle what the paper says (shown only when nothing is missing or stale).
SETTLED = frozenset({"unsettled", "instances", "bounded", "universal", "confirmed false"})


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
    """The short status of an environment from all its results, and its (weakest) mark. A named
    obligation with no result, or a result that is not the obligation's current one (``stale``),
    makes it ``not checked``: no proof is shown beside it then, only what fails or is open. Results
    read from a report whose freshness was not checked say so (``…; as saved in r.json, freshness
    not checked``), and a settled one has the ``unchecked`` mark, not a plain check mark."""
    if not entry.rows and not entry.missing:
        return "no obligation", "none"
    text, kind = _environment_status(entry)
    if entry.unchecked and entry.rows:
        text += f" (as saved in {entry.unchecked}; freshness not checked)"
        kind = "unchecked" if kind in SETTLED else kind
    return text, kind


def _environment_status(entry: Entry) -> tuple[str, str]:
    parts = [("stale result", "stale") if r["id"] in entry.stale else short_status(r) for r in entry.rows]
    kind = min([k for _, k in parts] + (["missing"] if entry.missing else []), key=MARKS.index)
    if entry.missing or entry.stale:
        said = []
        if entry.missing:
            said.append("no result for " + ", ".join(entry.missing))
        if entry.stale:
            said.append("stale result for " + ", ".join(entry.stale))
        said = ["not checked: " + "; ".join(said)]
        said += [t for t, k in parts if k not in SETTLED and k != "stale"]
        text = "; ".join(dict.fromkeys(said))
        total = len(entry.rows) + len(entry.missing)
        return (text + f" ({total} obligations)" if total > 1 else text), kind
    texts = list(dict.fromkeys(t for t, _ in parts))
    text = texts[0] if len(texts) == 1 else "; ".join(texts)
    if len(entry.rows) > 1 and len(texts) == 1:
        text += f" ({len(entry.rows)} obligations)"
    return text, kind


def label_status(cov: Coverage, label: str) -> tuple[str, str]:
    """What ``\\obstatus{label}`` says: the status of the one environment with that label; for a
    label several environments have, that it is ambiguous (no status of either)."""
    if label in cov.duplicates:
        places = ", ".join(e.place for e in cov.duplicates[label])
        return f"ambiguous label: {len(cov.duplicates[label])} environments have it ({places})", "ambiguous"
    entry = next(e for e in cov.entries if e.environment.label == label)
    return environment_status(entry)


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
           f"{covered} with obligations, {len(envs) - covered} without", *cov.paper.unread, ""]
    for e in envs:
        env = e.environment
        text, _ = environment_status(e)
        out.append(f"{env.describe()}  {env.key}  ({env.file}:{env.line})")
        out.append(f"    status: {text}")
        if e.shared:
            out.append(f"    label {env.label} is also {', '.join(f'{o.describe()} ({o.place})' for o in e.shared)}: "
                       "no status is written for it")
        if not e.rows and not e.missing:
            out.append("    no obligation: link one with Source(\"%s\", \"%s\") or \\obligation{ID} inside it"
                       % (cov.paper.path.name, env.label or "LABEL"))
        for i in e.missing:
            out.append(f"    {i}  no result: not checked")
        for r in e.rows:
            cell = status_cell(r)
            why = e.stale.get(r["id"])
            out.append(f"    {r['id']}  {cell.text}  ({r['outcome']})" + (f"  STALE: {why}" if why else ""))
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
    if cov.unreported:
        out += ["", f"obligations the paper links that the report {cov.report} has no result for (not checked):"]
        out += [f"    {i}" for i in cov.unreported]
    if cov.duplicates:
        out += ["", "labels that more than one environment has (\\obstatus says 'ambiguous label'):"]
        out += [f"    {label}: {', '.join(e.place for e in envs)}" for label, envs in cov.duplicates.items()]
        out += [f"    {u}: cites one of them, given to none" for u in cov.unattributed]
    if cov.stale:
        out += ["", "stale results (not shown as checked):"]
        out += [f"    {i}: {why}" for i, why in cov.stale.items()]
    for note in cov.notes:
        out += ["", note]
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
    for label in dict.fromkeys(e.environment.label for e in cov.entries if e.environment.label):
        if any(c in label for c in "{}\\#%"):
            continue
        text, kind = label_status(cov, label)
        mark = "\\obmarknone" if kind == "none" else "\\obmark" + kind.replace(" ", "")
        lines.append(f"\\@namedef{{obstatus@{label}}}{{{texify(text)}}}")
        lines.append(f"\\@namedef{{obstatusmark@{label}}}{{{mark}}}")
    lines.append("\\makeatother")
    return "\n".join(lines) + "\n"
