"""The Lean-style companion: parse ``lean_refs/`` and match it against the catalogue.

No Lean toolchain runs here; the files are not compiled. This module only reads
declaration names (``namespace``-qualified) so that ``obligations lean`` can report every
``lean`` ref that does not resolve, every declaration no obligation mirrors, and duplicates.
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from checker.kernel.errors import UsageError
from checker.kernel.declaration import Catalogue

_DECL = re.compile(
    r"^\s*(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|noncomputable|partial|unsafe)\s+)*"
    r"(theorem|lemma|def|abbrev|structure|inductive|axiom|instance|class)\s+([A-Za-z_][\w.'₀-₉]*)"
)
_NAMESPACE = re.compile(r"^\s*namespace\s+([\w.]+)")
_END = re.compile(r"^\s*end\s+([\w.]+)")


@dataclass(frozen=True, slots=True)
class Declaration:
    name: str
    kind: str
    file: str
    line: int


LEAN_DIR = "lean_refs"


def default_dir(packages: Sequence[str] = ()) -> Path:
    """Where the Lean-style declarations are: ``./lean_refs``; else, for each catalogue package,
    ``lean_refs`` shipped inside it (an installed wheel), else next to it (a source checkout).
    The first that exists; ``./lean_refs`` when none does."""
    here = Path.cwd() / LEAN_DIR
    if here.is_dir():
        return here
    for package in packages:
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            continue
        for location in (spec.submodule_search_locations or ()) if spec else ():
            for candidate in (Path(location) / LEAN_DIR, Path(location).parent / LEAN_DIR):
                if candidate.is_dir():
                    return candidate
    return here


def parse_file(path: Path) -> list[Declaration]:
    decls: list[Declaration] = []
    stack: list[str] = []
    in_comment = 0
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        from checker.kernel.errors import UsageError

        raise UsageError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start}); Lean sources are UTF-8") from None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw
        # drop block comments (docstrings included) and line comments
        out = ""
        i = 0
        while i < len(line):
            if line.startswith("/-", i):
                in_comment += 1
                i += 2
            elif in_comment and line.startswith("-/", i):
                in_comment -= 1
                i += 2
            elif not in_comment and line.startswith("--", i):
                break
            else:
                if not in_comment:
                    out += line[i]
                i += 1
        if not out.strip():
            continue
        if m := _NAMESPACE.match(out):
            stack.extend(m.group(1).split("."))
            continue
        if m := _END.match(out):
            parts = m.group(1).split(".")
            if stack[-len(parts):] == parts:
                del stack[-len(parts):]
            continue
        if m := _DECL.match(out):
            name = ".".join([*stack, m.group(2)])
            decls.append(Declaration(name, m.group(1), str(path), lineno))
    return decls


def parse_dir(directory: Path) -> list[Declaration]:
    return [d for f in sorted(directory.glob("**/*.lean")) for d in parse_file(f)]


@dataclass(frozen=True, slots=True)
class LeanAudit:
    declarations: tuple[Declaration, ...]
    unresolved: tuple[tuple[str, str], ...]  # (obligation id, ref)
    unmirrored: tuple[Declaration, ...]
    duplicates: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not (self.unresolved or self.unmirrored or self.duplicates)

    def render(self) -> str:
        out = [f"{len(self.declarations)} Lean-style declarations parsed (not compiled: no Lean toolchain)"]
        for ob_id, ref in self.unresolved:
            out.append(f"unresolved: {ob_id} names {ref!r}, which no file in lean_refs/ declares")
        for d in self.unmirrored:
            out.append(f"unmirrored: {d.file}:{d.line}: {d.kind} {d.name} is mirrored by no obligation")
        for name in self.duplicates:
            out.append(f"duplicate: {name} is declared more than once")
        out.append("ok" if self.ok else "problems found")
        return "\n".join(out) + "\n"


def audit(catalogue: Catalogue, directory: str | os.PathLike[str] | None = None) -> LeanAudit:
    root = Path(directory) if directory else default_dir()
    if not root.is_dir():
        raise UsageError(f"no lean_refs directory at {root}; pass --dir DIR or set lean_refs under [tool.obligations]")
    decls = parse_dir(root)
    counts = Counter(d.name for d in decls)
    names = set(counts)
    referenced = {ref for ob in catalogue.obligations for ref in ob.lean}
    unresolved = tuple((ob.id, ref) for ob in catalogue.obligations for ref in ob.lean if ref not in names)
    unmirrored = tuple(d for d in decls if d.name not in referenced and d.kind in ("theorem", "lemma"))
    return LeanAudit(tuple(decls), unresolved, unmirrored, tuple(sorted(n for n, c in counts.items() if c > 1)))
