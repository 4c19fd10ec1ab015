"""Catalogue code that reaches into the engine: a static reading of a catalogue module's source.

The kernel makes facts only through its rules, and the runner judges every verdict with the engine's
own functions — inside the job, in the same Python process as the catalogue's code. Python cannot
stop code in that process from importing the kernel's private names, running code under another
module's name, or replacing the engine's functions; what it can do is refuse a catalogue that does.
This reading flags, with file and line:

- a private name (``_…``, not a dunder) of an engine module: imported from it, or read as an attribute
  of a name bound to an engine module or to something imported from one (``proof._SEAL``,
  ``memo._put``, ``interval._mp()``);
- an assignment, augmented assignment or deletion of an attribute of such a name, and ``setattr`` /
  ``delattr`` on one (``proof.covers = …``, ``smt.prove = …``, ``memo.z3_check = …``): patching the engine;
- a module name forged for code: an assignment to ``__name__``, or a dictionary with a ``"__name__"`` key
  (the globals of ``exec``/``eval``/``FunctionType``).

The obligations of a flagged module are not run; the load error says what was found and where. The
public API (``checker``, ``checker.claims``, ``checker.backends.*``'s public functions,
``checker.kernel.verdicts``) is what a catalogue uses.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

ENGINE = "checker"


@dataclass(frozen=True, slots=True)
class Reach:
    """One construct of a catalogue module that reaches into the engine."""

    line: int
    what: str


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _engine_module(name: str | None) -> bool:
    return bool(name) and (name == ENGINE or name.startswith(ENGINE + "."))  # type: ignore[union-attr]


def reaches(source: str, filename: str = "<module>") -> list[Reach]:
    """Every construct of ``source`` that reaches into the engine (see the module's docstring)."""
    tree = ast.parse(source, filename)
    bound: set[str] = set()  # names bound to an engine module or to something imported from one
    found: list[Reach] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _engine_module(alias.name):
                    if any(_private(part) for part in alias.name.split(".")):
                        found.append(Reach(node.lineno, f"import {alias.name}"))
                    bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _engine_module(node.module):
            for alias in node.names:
                if _private(alias.name) or any(_private(part) for part in (node.module or "").split(".")):
                    found.append(Reach(node.lineno, f"from {node.module} import {alias.name}"))
                bound.add(alias.asname or alias.name)

    def rooted(expr: ast.expr) -> str | None:
        """The bound name at the root of ``a.b.c``, or ``None``."""
        while isinstance(expr, ast.Attribute):
            expr = expr.value
        return expr.id if isinstance(expr, ast.Name) and expr.id in bound else None

    def dotted(expr: ast.expr) -> str:
        try:
            return ast.unparse(expr)
        except Exception:  # noqa: BLE001 - only for the message
            return "…"

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and rooted(node.value):
            found.append(Reach(node.lineno, f"{dotted(node)} (a private name of the engine)"))
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = list(node.targets)
        for t in targets:
            for leaf in ast.walk(t):
                if isinstance(leaf, ast.Attribute) and rooted(leaf.value):
                    found.append(Reach(node.lineno, f"{dotted(leaf)} replaced (patching the engine)"))
                if isinstance(leaf, ast.Name) and leaf.id == "__name__":
                    found.append(Reach(node.lineno, "__name__ assigned (a forged module name)"))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr") \
                and node.args and rooted(node.args[0]) is not None:
            found.append(Reach(node.lineno, f"{node.func.id}({dotted(node.args[0])}, …) (patching the engine)"))
        if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == "__name__" for k in node.keys):
            found.append(Reach(node.lineno, "a dictionary naming __name__ (code run under a forged module name)"))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" \
                and any(k.arg == "__name__" for k in node.keywords):
            found.append(Reach(node.lineno, "a dictionary naming __name__ (code run under a forged module name)"))
    return sorted(set(found), key=lambda r: (r.line, r.what))
