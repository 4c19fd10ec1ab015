"""The import graph of the engine and the catalogue, read from the source (no module is imported).

Every ``import`` and ``from … import`` counts, at any depth of a module (an import inside a function
is still a dependency), with relative imports resolved and ``from package import submodule`` read
as an import of the submodule; ``importlib.import_module("literal")`` counts too. Used by
``tests/test_architecture.py``, which enforces the engine's rooms and forbids import circles.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

#: The engine's rooms, lowest first; a room may import only the rooms listed for it (and itself).
#: ``checker`` stands for the public modules at the top of the package (``checker/__init__.py``,
#: ``__main__``, ``claims``, ``testing``): they front for the rooms, so no room imports them.
ALLOWED: dict[str, frozenset[str]] = {
    "checker.kernel": frozenset(),
    "checker.backends": frozenset({"checker.kernel"}),
    "checker.audit": frozenset({"checker.kernel", "checker.backends"}),
    "checker.report": frozenset({"checker.kernel"}),  # renderers read results only
    "checker.store": frozenset({"checker.kernel", "checker.backends", "checker.audit", "checker.report"}),
    "checker.run": frozenset({"checker.kernel", "checker.backends", "checker.audit", "checker.store"}),
    "checker.face": frozenset({"checker.kernel", "checker.backends", "checker.audit", "checker.report",
                               "checker.store", "checker.run"}),
    "checker": frozenset({"checker.kernel", "checker.backends", "checker.audit", "checker.report",
                          "checker.store", "checker.run", "checker.face"}),
}


@dataclass(frozen=True, slots=True)
class Import:
    """One import statement's edge: ``importer`` (file ``path``, line ``line``) imports ``imported``."""

    importer: str
    imported: str
    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.importer} imports {self.imported}"


def modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name → file, for every ``.py`` file of ``packages`` under ``root``."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _named(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imports(root: Path, packages: tuple[str, ...]) -> list[Import]:
    """Every edge between modules of ``packages`` (self-imports left out)."""
    known = modules(root, packages)
    edges: list[Import] = []
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        shown = str(path.relative_to(root))

        def add(target: str, line: int) -> None:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                edges.append(Import(name, target, shown, line))

        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.name, node.lineno)
            elif isinstance(node, ast.ImportFrom):
                module = _named(node, package)
                for alias in node.names:
                    full = f"{module}.{alias.name}"
                    add(full if full in known else module, node.lineno)
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module":
                if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                    add(node.args[0].value, node.lineno)
    return edges


def room(module: str) -> str | None:
    """The engine room a module lives in (``checker`` for the public top), or ``None`` outside it."""
    if module != "checker" and not module.startswith("checker."):
        return None
    parts = module.split(".")
    if len(parts) >= 2 and f"checker.{parts[1]}" in ALLOWED:
        return f"checker.{parts[1]}"
    return "checker"


def direction_violations(edges: list[Import]) -> list[str]:
    """Each import that goes against the rooms' directions, with why."""
    out = []
    for e in edges:
        src, dst = room(e.importer), room(e.imported)
        if src is not None and dst is None and (e.imported == "obligations" or e.imported.startswith("obligations.")):
            out.append(f"{e}: the engine imports no catalogue")
        elif src is not None and dst is not None and src != dst and dst not in ALLOWED[src]:
            allowed = ", ".join(sorted(ALLOWED[src])) or "no other room"
            out.append(f"{e}: {src} may import only {allowed}")
    return out


def cycles(edges: list[Import]) -> list[list[Import]]:
    """One cycle through each strongly connected group of modules, as the imports that close it."""
    graph: dict[str, dict[str, Import]] = {}
    for e in edges:
        graph.setdefault(e.importer, {}).setdefault(e.imported, e)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[set[str]] = []
    counter = [0]

    def strong(v: str) -> None:  # Tarjan's algorithm; the graphs here are small enough to recurse
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            strong(v)
    found = []
    for group in groups:
        start = min(group)
        path, seen, v = [], {start: 0}, start
        while True:  # walk inside the group until a module repeats: that closes a cycle
            w = min(t for t in graph[v] if t in group)
            path.append(graph[v][w])
            if w in seen:
                found.append(path[seen[w]:])
                break
            seen[w] = len(path)
            v = w
    return found
