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
import re
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


_CODE_RUNNERS = frozenset({"exec", "eval", "compile", "FunctionType", "LambdaType", "__import__"})


def _rebound(tree: ast.Module) -> set[str]:
    """Names the module binds other than by importing them (parameters, assignments, loop and ``with``
    targets, …): such a name may not be the engine module it is named after, so it is not followed."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
    return out


def _forged_name(node: ast.AST, module_level: set[int]) -> str | None:
    """Why ``node`` runs code under a forged module name, or ``None``."""
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            if isinstance(t, ast.Name) and t.id == "__name__" and id(node) in module_level:
                return "__name__ assigned (a forged module name)"
            if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and t.slice.value == "__name__" \
                    and isinstance(t.value, ast.Call) and isinstance(t.value.func, ast.Name) \
                    and t.value.func.id in ("globals", "vars", "locals"):
                return f"{t.value.func.id}()['__name__'] assigned (a forged module name)"
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if any(k.arg == "__name__" for k in node.keywords) and name in ("update", "dict", "setdefault"):
            owner = func.value if isinstance(func, ast.Attribute) else None
            if name != "update" or (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name)
                                    and owner.func.id in ("globals", "vars", "locals")):
                return "a module name set by keyword (code run under a forged module name)"
        if name in _CODE_RUNNERS:
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if isinstance(arg, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == "__name__" for k in arg.keys):
                    return f"{name}(…) given globals naming __name__ (code run under a forged module name)"
    return None


_ENGINE_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(checker(?:\.[\w.]+)?)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)"
                            r"|import[ \t]+([^\n#]+))", re.MULTILINE)
_PRIVATE_LITERAL = re.compile(r"(?:get|has)attr\s*\([^,()]*,\s*['\"]_(?!_)")
_TELLTALES = ("setattr", "delattr", "vars(", "__dict__", "sys.modules", "import_module", "__import__", "__name__",
              "globals(", "locals(")


def might_reach(source: str) -> bool:
    """Whether ``source`` can hold anything :func:`reaches` flags: a cheap reading of its text that never
    says no where :func:`reaches` would say yes (an engine import of a private name, a private name or an
    assignment after a name an engine import binds, or one of the telltale calls); most modules are then
    not parsed at all."""
    if any(t in source for t in _TELLTALES) or _PRIVATE_LITERAL.search(source):
        return True
    names: set[str] = set()
    for m in _ENGINE_IMPORT.finditer(source):
        if m.group(1):  # from checker… import a, b as c
            if any(part.startswith("_") for part in m.group(1).split(".")):
                return True
            for item in m.group(2).strip("() \t\n").replace("\n", " ").split(","):
                bits = item.split()
                if not bits:
                    continue
                if bits[0].startswith("_"):
                    return True
                names.add(bits[-1])
        else:  # import checker.x [as y], others
            for item in m.group(3).split(","):
                bits = item.split()
                if bits and bits[0].startswith("checker"):
                    if any(part.startswith("_") for part in bits[0].split(".")):
                        return True
                    names.add(bits[-1] if len(bits) == 3 else bits[0].split(".")[0])
    if not names:
        return False
    alternatives = "|".join(re.escape(n) for n in sorted(names))
    private = re.search(rf"\b(?:{alternatives})(?:\s*\.\s*\w+)*\s*\.\s*_", source)
    assigned = re.search(rf"\b(?:{alternatives})(?:\s*\.\s*\w+)+\s*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)", source)
    deleted = re.search(rf"\bdel\b[^\n]*\b(?:{alternatives})\s*\.", source)
    return bool(private or assigned or deleted)


def reaches(source: str, filename: str = "<module>") -> list[Reach]:
    """Every construct of ``source`` that reaches into the engine (see the module's docstring)."""
    if not might_reach(source):
        return []
    tree = ast.parse(source, filename)
    bound: set[str] = set()  # names bound to an engine module or to something imported from one
    found: list[Reach] = []
    module_level = {id(n) for n in _module_statements(tree.body)}
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

    bound -= _rebound(tree)

    def rooted(expr: ast.expr) -> str | None:
        """The engine name at the root of ``a.b.c`` (a bound name, ``sys.modules["checker…"]``,
        ``importlib.import_module("checker…")``, ``__import__("checker…")``), or ``None``."""
        while isinstance(expr, ast.Attribute):
            expr = expr.value
        if isinstance(expr, ast.Name):
            return expr.id if expr.id in bound else None
        named = None
        if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and dotted(expr.value) == "sys.modules":
            named = expr.slice.value
        elif isinstance(expr, ast.Call) and dotted(expr.func) in ("importlib.import_module", "import_module", "__import__") \
                and expr.args and isinstance(expr.args[0], ast.Constant):
            named = expr.args[0].value
        return named if isinstance(named, str) and _engine_module(named) else None

    def dotted(expr: ast.expr) -> str:
        try:
            return ast.unparse(expr)
        except Exception:  # noqa: BLE001 - only for the message
            return "…"

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and rooted(node.value):
            found.append(Reach(node.lineno, f"{dotted(node)} (a private name of the engine)"))
        if isinstance(node, ast.Attribute) and node.attr == "__dict__" and rooted(node.value):
            found.append(Reach(node.lineno, f"{dotted(node)} (the engine's names by their table)"))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args and rooted(node.args[0]):
            if node.func.id == "vars":
                found.append(Reach(node.lineno, f"vars({dotted(node.args[0])}) (the engine's names by their table)"))
            elif node.func.id in ("getattr", "hasattr") and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) \
                    and isinstance(node.args[1].value, str) and _private(node.args[1].value):
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
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr") \
                and node.args and rooted(node.args[0]) is not None:
            found.append(Reach(node.lineno, f"{node.func.id}({dotted(node.args[0])}, …) (patching the engine)"))
        forged = _forged_name(node, module_level)
        if forged:
            found.append(Reach(getattr(node, "lineno", 0), forged))
    return sorted(set(found), key=lambda r: (r.line, r.what))


def _module_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements that run at module level (through ``if``/``try``/``with``/loops, not into defs or classes)."""
    out: list[ast.stmt] = []
    for stmt in body:
        out.append(stmt)
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.extend(_module_statements(inner))
        for handler in getattr(stmt, "handlers", ()) or ():
            out.extend(_module_statements(handler.body))
    return out
