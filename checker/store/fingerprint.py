"""Obligation fingerprints: a digest of what is actually checked.

An obligation's fingerprint changes whenever anything its discharge could depend on changes, and
stays the same (across runs, machines, checkouts and hash seeds) when only its prose does. It is
built from three parts:

- **code**: the discharge function and every top-level definition of its module that it uses,
  transitively by name (as pytest-testmon does per test), read from the syntax tree — so comments,
  layout, line numbers and docstrings do not count, and neither do the ``expect``, ``statement``,
  ``source``, ``scope`` and ``lean`` arguments of ``@obligation`` (metadata: a cached result gets
  the current values, and its outcome is recomputed). Always included, for every obligation of the
  module: every top-level statement that is not a plain definition (calls, loops, ``if``,
  ``try``: they may change anything). A definition whose value passes a name to a call, or a
  function that assigns into a global, counts as a definition of that global too. A module that
  reaches its globals dynamically (``globals()``, ``vars()``, ``eval``, ``exec``,
  ``sys.modules``, ``__dict__``, a module ``__getattr__``) or imports itself through a cycle is
  taken whole. When in doubt, the whole module counts.
- **imports**: every catalogue module the obligation's module imports, transitively, whole (its
  syntax tree with the same metadata and docstrings left out); a helper shared by several
  modules therefore invalidates all of them.
- **data**: the bytes of every data file next to any of those modules (non-Python files in the
  module's directory and in its non-package subdirectories, e.g. ``data/example_mlp.npz``).

Not covered, as in any per-result cache: state that one discharge leaves behind for another in
the same worker process (a discharge must not depend on which ran before it), and modules outside
the catalogue package that are not installed libraries.

The engine (``checker/``), library versions, limits and seed are not part of the fingerprint;
the cache key adds them (:func:`checker.store.cache.cache_key`). The printed claims
(:mod:`checker.kernel.printing`) are a function of the same code and data; :func:`obligation_digest`
combines them with the code digest into the fingerprint that reports and baselines carry.
"""

from __future__ import annotations

import ast
import collections
import hashlib
import hmac
import importlib.util
import json
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from checker.kernel.model import Obligation

METADATA_KEYWORDS = frozenset({"expect", "statement", "source", "scope", "lean"})
_DYNAMIC_NAMES = frozenset({"globals", "vars", "locals", "eval", "exec", "__import__"})
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign, ast.AugAssign,
                ast.Import, ast.ImportFrom)
_CODE_SUFFIXES = (".py", ".pyc", ".pyo")


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """The code part of an obligation's fingerprint, with what went into it."""

    digest: str
    granularity: str  # "function" or "module: <why>"
    modules: Mapping[str, str] = field(default_factory=dict)  # imported catalogue module -> digest
    data: Mapping[str, str] = field(default_factory=dict)  # data file (path from the package root) -> digest
    # the obligation's own module only (its discharge's closure in it, else the whole module): the
    # static half of the cache key, whose other half is what the job read (checker.store.manifest)
    own: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"code": self.digest, "granularity": self.granularity, "modules": dict(self.modules),
                "data": dict(self.data)}


# ---------------------------------------------------------------------------------------
# Syntax trees without positions, docstrings and metadata
# ---------------------------------------------------------------------------------------


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, separators=(",", ":"), ensure_ascii=True).encode()).hexdigest()


def _strip_docstring(node: Any) -> None:
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        node.body = body[1:] or [ast.Pass()]


_WITH_DOCSTRING = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True, slots=True)
class _Parsed:
    """A module's syntax tree without docstrings and metadata, with what one pass over it found."""

    tree: ast.Module
    imports: tuple[ast.Import | ast.ImportFrom, ...]  # every import statement, anywhere
    dynamic: str | None  # why the module must be taken whole (see :func:`_dynamic_reason`)


def _module_hook(tree: ast.Module) -> str | None:
    for st in tree.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name in ("__getattr__", "__dir__"):
            return f"defines a module {st.name}"
    return None


def _dynamic_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name) and node.id in _DYNAMIC_NAMES:
        return f"uses {node.id}()"
    if isinstance(node, ast.Attribute) and node.attr in ("__dict__", "modules") and not (
            node.attr == "modules" and not (isinstance(node.value, ast.Name) and node.value.id == "sys")):
        return f"uses .{node.attr}"
    return None


def _strip(tree: ast.Module) -> _Parsed:
    """Leave out what does not change behaviour, in place: docstrings and ``@obligation``
    metadata; in the same breadth-first pass, collect the import statements and the first use
    of a dynamic global lookup. Each node is changed before its children are queued, so the pass
    visits exactly the stripped tree, in the order ``ast.walk`` would visit it."""
    imports: list[ast.Import | ast.ImportFrom] = []
    dynamic = None
    todo = collections.deque([tree])
    while todo:
        node = todo.popleft()
        if isinstance(node, _WITH_DOCSTRING):
            _strip_docstring(node)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name == "obligation":
                node.keywords = [k for k in node.keywords if k.arg not in METADATA_KEYWORDS]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.append(node)
        if dynamic is None:
            dynamic = _dynamic_name(node)
        todo.extend(ast.iter_child_nodes(node))
    return _Parsed(tree, tuple(imports), dynamic if dynamic is not None else _module_hook(tree))


@lru_cache(maxsize=256)
def _parsed_module(source: str, filename: str) -> _Parsed:
    return _strip(ast.parse(source, filename=filename))


def _parsed(source: str, filename: str) -> ast.Module:
    return _parsed_module(source, filename).tree


@lru_cache(maxsize=256)
def _statement_dumps(source: str, filename: str) -> tuple[str, ...]:
    """``ast.dump`` of each top-level statement of the stripped module."""
    return tuple(ast.dump(st) for st in _parsed(source, filename).body)


@lru_cache(maxsize=1)
def _dump_splices() -> bool:
    """Whether this Python's ``ast.dump`` of a module is its statements' dumps joined inside
    ``Module(body=[…], type_ignores=[])`` (asked once, of a small module): then a module's dump
    is built from the statement dumps the closures need anyway instead of printed again."""
    sample = ast.parse("import a\nx = 1\n")
    return ast.dump(sample) == _spliced_dump([ast.dump(st) for st in sample.body])


def _spliced_dump(statement_dumps: Sequence[str]) -> str:
    return "Module(body=[" + ", ".join(statement_dumps) + "], type_ignores=[])"


def module_digest(source: str, filename: str = "<module>") -> str:
    """The digest of a whole module: its syntax tree without docstrings and metadata."""
    return _module_digest(source, filename)


@lru_cache(maxsize=256)
def _module_digest(source: str, filename: str) -> str:
    tree = _parsed(source, filename)
    if _dump_splices() and not tree.type_ignores:
        return _digest(_spliced_dump(_statement_dumps(source, filename)))
    return _digest(ast.dump(tree))


# ---------------------------------------------------------------------------------------
# Per-function closure inside one module
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Statement:
    index: int
    first: int
    last: int
    binds: frozenset[str]
    uses: frozenset[str]
    effect: bool  # not a plain definition: always part of every closure
    digest: str


@dataclass(frozen=True, slots=True)
class _ModuleTable:
    statements: tuple[_Statement, ...]
    dynamic: str | None  # why the module must be taken whole, or None


class _Scan(ast.NodeVisitor):
    """One pass over a top-level statement: the names it mentions, what it stores, and what it
    may mutate (call arguments, method receivers, item/attribute stores, ``global``)."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.stored: set[str] = set()
        self.declared: set[str] = set()
        self.params: set[str] = set()
        self.passed: set[str] = set()  # names handed to a call or used as a method's receiver
        self.mutated: set[str] = set()  # bases of item/attribute stores and augmented assignments

    @staticmethod
    def _base(node: ast.AST) -> str | None:
        while isinstance(node, (ast.Subscript, ast.Attribute, ast.Starred)):
            node = node.value
        return node.id if isinstance(node, ast.Name) else None

    def visit_Name(self, node: ast.Name) -> None:
        self.names.add(node.id)
        if isinstance(node.ctx, ast.Store):
            self.stored.add(node.id)

    def visit_Global(self, node: ast.Global) -> None:
        self.declared.update(node.names)

    def visit_arg(self, node: ast.arg) -> None:
        self.params.add(node.arg)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)) and (b := self._base(node)):
            self.mutated.add(b)
        self.generic_visit(node)

    visit_Attribute = visit_Subscript  # type: ignore[assignment]

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if b := self._base(node.target):
            self.mutated.add(b)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        for a in [*node.args, *(k.value for k in node.keywords)]:
            if b := self._base(a) if isinstance(a, (ast.Name, ast.Starred)) else None:
                self.passed.add(b)
        if isinstance(node.func, ast.Attribute) and (b := self._base(node.func.value)):
            self.passed.add(b)
        self.generic_visit(node)


def _target_names(target: ast.AST) -> set[str]:
    """Names an assignment target binds or mutates (``X[k] = …`` and ``X.a = …`` mutate ``X``)."""
    scan = _Scan()
    scan.visit(target)
    return scan.names


def _dynamic_reason(tree: ast.Module) -> str | None:
    """Why a module must be taken whole: the first dynamic global lookup in ``ast.walk`` order,
    or a module ``__getattr__``/``__dir__`` (:func:`_strip` finds the same in its pass)."""
    for n in ast.walk(tree):
        if (reason := _dynamic_name(n)) is not None:
            return reason
    return _module_hook(tree)


@lru_cache(maxsize=256)
def _table(source: str, filename: str) -> _ModuleTable:
    tree = _parsed(source, filename)
    dumps = _statement_dumps(source, filename)
    assigned: set[str] = set()
    for st in tree.body:
        if isinstance(st, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            for t in targets:
                assigned |= _target_names(t)
    scans = []
    for st in tree.body:
        scan = _Scan()
        scan.visit(st)
        scans.append(scan)
    # Globals each module function may rebind or mutate when it runs, through the functions it
    # calls too (a fixed point): it matters where a top-level statement calls it at import time.
    mutates: dict[str, set[str]] = {}
    for st, scan in zip(tree.body, scans):
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            local = (scan.stored | scan.params) - scan.declared
            mutates[st.name] = scan.declared | ((scan.mutated | scan.passed) & assigned - local)
    changed = True
    while changed:
        changed = False
        for st, scan in zip(tree.body, scans):
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                extra = set().union(*(mutates[g] for g in scan.names & mutates.keys() if g != st.name))
                if not extra <= mutates[st.name]:
                    mutates[st.name] |= extra
                    changed = True
    rows = []
    for i, (st, scan) in enumerate(zip(tree.body, scans)):
        binds: set[str] = set()
        effect = not isinstance(st, _DEFINITIONS)
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            binds.add(st.name)
        elif isinstance(st, ast.ClassDef):
            binds.add(st.name)
            binds |= set().union(*(mutates[g] for g in scan.names & mutates.keys()))  # the body runs on import
        elif isinstance(st, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            for t in targets:
                binds |= _target_names(t)
            binds |= scan.passed & assigned  # a call in the value may mutate what it is handed
            binds |= set().union(*(mutates[g] for g in scan.names & mutates.keys()))
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            for a in st.names:
                binds.add((a.asname or a.name).split(".")[0])
        first = min([getattr(st, "lineno", 0), *(d.lineno for d in getattr(st, "decorator_list", ()))])
        rows.append(_Statement(i, first, getattr(st, "end_lineno", 0) or 0, frozenset(binds),
                               frozenset(scan.names), effect, _digest(dumps[i])))
    return _ModuleTable(tuple(rows), _parsed_module(source, filename).dynamic)


def _closure(table: _ModuleTable, line: int) -> tuple[str | None, str]:
    """(digest, granularity) of the top-level statements the function at ``line`` depends on;
    ``None`` when the module must be taken whole."""
    if table.dynamic is not None:
        return None, f"module: {table.dynamic}"
    # the decorator line, the def line or any line inside it: the enclosing top-level statement
    start = [s for s in table.statements if s.first <= line <= s.last]
    if not start:
        return None, "module: the discharge function was not found in its module"
    chosen: dict[int, _Statement] = {}
    todo = [*start, *(s for s in table.statements if s.effect)]
    binders: dict[str, list[_Statement]] = {}
    for s in table.statements:
        for name in s.binds:
            binders.setdefault(name, []).append(s)
    while todo:
        s = todo.pop()
        if s.index in chosen:
            continue
        chosen[s.index] = s
        for name in s.uses:
            todo.extend(binders.get(name, ()))
    return _digest([s.digest for _, s in sorted(chosen.items())]), "function"


# ---------------------------------------------------------------------------------------
# One analysis per source text (in memory, and on disk when a store is given)
# ---------------------------------------------------------------------------------------

ANALYSIS_VERSION = 1  # bump when the analysis changes: stored analyses are then ignored


@dataclass(frozen=True, slots=True)
class _Analysis:
    digest: str  # the whole module
    imports: frozenset[str]
    table: _ModuleTable


_MEMORY: dict[tuple[str, str], _Analysis] = {}


def _to_json(a: _Analysis) -> dict[str, Any]:
    return {"digest": a.digest, "imports": sorted(a.imports), "dynamic": a.table.dynamic,
            "statements": [[s.index, s.first, s.last, sorted(s.binds), sorted(s.uses), s.effect, s.digest]
                           for s in a.table.statements]}


def _from_json(d: Mapping[str, Any]) -> _Analysis:
    rows = tuple(_Statement(int(i), int(f), int(la), frozenset(b), frozenset(u), bool(e), str(g))
                 for i, f, la, b, u, e, g in d["statements"])
    return _Analysis(str(d["digest"]), frozenset(d["imports"]), _ModuleTable(rows, d["dynamic"]))


def _store_secret(store: Path) -> bytes | None:
    """The cache's secret (outside the cache directory), or ``None``: then no stored analysis is
    read or written."""
    import os

    from checker.store.files import load_secret, secret_path

    try:
        path = secret_path()
        if Path(os.path.realpath(path)).is_relative_to(os.path.realpath(store)):
            return None
        return load_secret(path)
    except OSError:
        return None


def _store_mac(secret: bytes, key: str, body: Any) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hmac.new(secret, key.encode() + b"\0" + text.encode("utf-8"), hashlib.sha256).hexdigest()


def _analysis(file: str, module: str, store: Path | None) -> _Analysis:
    """The analysis of one module file, keyed on its exact bytes (and the analysis version, the
    Python version whose syntax trees it hashes, and the module name for relative imports)."""
    import platform

    raw = Path(file).read_bytes()
    content = hashlib.sha256(raw).hexdigest()
    key = hashlib.sha256(f"{ANALYSIS_VERSION}/{platform.python_version()}/{module}/{content}".encode()).hexdigest()
    mem = _MEMORY.get((key, module))
    if mem is not None:
        return mem
    secret = None if store is None else _store_secret(store)
    path = None if secret is None else store / "fingerprints" / key[:2] / f"{key}.json"
    if path is not None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            body = data["analysis"]
            # A stored analysis decides what the cache key covers: it is used only when its MAC
            # (the cache's secret, kept outside the cache) shows this checker wrote it.
            if data.get("key") == key and hmac.compare_digest(str(data.get("mac")), _store_mac(secret, key, body)):
                found = _from_json(body)
                _MEMORY[(key, module)] = found
                return found
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # a missing, damaged or unauthenticated entry is recomputed
    source = raw.decode("utf-8")
    name = Path(file).name
    found = _Analysis(module_digest(source, name), imports_in(_parsed_module(source, name).imports, file, module), _table(source, name))
    _MEMORY[(key, module)] = found
    if path is not None:
        try:
            from checker.store.files import atomic_write

            path.parent.mkdir(parents=True, exist_ok=True)
            body = _to_json(found)
            atomic_write(path, json.dumps({"key": key, "analysis": body, "mac": _store_mac(secret, key, body)}))
        except OSError:
            pass  # the store is only a speed-up
    return found


# ---------------------------------------------------------------------------------------
# Imported modules and data files
# ---------------------------------------------------------------------------------------


def _data_files(directory: Path, root: Path) -> dict[str, str]:
    """Non-Python files in ``directory`` and its non-package subdirectories, by path from ``root``."""
    out: dict[str, str] = {}
    try:
        listing = _listing(str(directory), directory.stat().st_mtime_ns)
    except (FileNotFoundError, NotADirectoryError):
        return out
    subdirs, files = listing
    for sub in subdirs:
        # whether a subdirectory is a package is asked each time: adding or removing its
        # __init__.py changes its own mtime, not this directory's
        if not (Path(sub) / "__init__.py").exists():
            out.update(_data_files(Path(sub), root))
    for name in files:
        try:
            st = Path(name).stat()
        except FileNotFoundError:
            continue
        out[Path(name).relative_to(root).as_posix()] = _bytes_digest(name, st.st_mtime_ns, st.st_size)
    return out


@lru_cache(maxsize=None)
def _listing(directory: str, mtime_ns: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(subdirectories, non-code files) of ``directory``, sorted. Keyed on the directory's mtime,
    which any entry added, removed or renamed changes: the many obligations of one module, and
    the modules of one package, list the directory once per process."""
    subdirs: list[str] = []
    files: list[str] = []
    for entry in sorted(Path(directory).iterdir()):
        if entry.name.startswith(".") or entry.name == "__pycache__":
            continue
        if entry.is_dir():
            subdirs.append(str(entry))
        elif entry.is_file() and not entry.name.endswith(_CODE_SUFFIXES):
            files.append(str(entry))
    return tuple(subdirs), tuple(files)


@lru_cache(maxsize=None)
def _bytes_digest(path: str, mtime_ns: int, size: int) -> str:
    # keyed on (path, mtime, size) as well: a file rewritten during the process is read again
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _root_dir(file: Path, module: str) -> Path:
    """The directory that contains the top-level package of ``module``."""
    depth = module.count(".") + (1 if file.name == "__init__.py" else 0)
    root = file.parent
    for _ in range(depth):
        root = root.parent
    return root


def code_fingerprint(ob: Obligation, roots: Iterable[str] = ("obligations",), store: Path | None = None) -> Fingerprint:
    """The code part of ``ob``'s fingerprint (see the module docstring). ``store``: a directory
    where per-file analyses are kept between runs (keyed on the file's bytes)."""
    roots = tuple(sorted(set(roots) | {ob.module.split(".")[0]}))
    own_file = _module_file(ob.module) or ob.file
    own_path = Path(own_file)
    own = _analysis(own_file, ob.module, store)
    base = _root_dir(own_path, ob.module)

    def project(name: str) -> bool:
        return any(name == r or name.startswith(r + ".") for r in roots)

    modules: dict[str, str] = {}
    data: dict[str, str] = dict(_data_files(own_path.parent, base))
    cycle = False
    # the module's parent packages run before it on import, so they count like imports
    parts = ob.module.split(".")
    todo = sorted(own.imports | {".".join(parts[:i]) for i in range(1, len(parts))})
    while todo:
        name = todo.pop()
        if name in modules or not project(name):
            continue
        if name == ob.module:
            cycle = True
            continue
        file = _module_file(name)
        if file is None:
            continue  # an attribute imported with `from x import y`, not a module
        found = _analysis(file, name, store)
        modules[name] = found.digest
        data.update(_data_files(Path(file).parent, base))
        todo.extend(sorted(found.imports))
    if cycle:
        code, granularity = None, "module: imported back through a cycle"
    else:
        code, granularity = _closure(own.table, ob.line)
    payload = {"id": ob.id, "module": ob.module, "own": code or own.digest, "modules": dict(sorted(modules.items())),
               "data": dict(sorted(data.items())), "claims_declared": len(ob.claims)}
    own_digest = _digest({"id": ob.id, "module": ob.module, "own": code or own.digest, "claims_declared": len(ob.claims)})
    return Fingerprint(_digest(payload), granularity, dict(sorted(modules.items())), dict(sorted(data.items())), own_digest)


def claims_digest(canonical_forms: Sequence[str]) -> str:
    return _digest(list(canonical_forms))


def obligation_digest(code: str, canonical_forms: Sequence[str]) -> str:
    """The fingerprint reports and baselines carry: the code digest and the printed claims."""
    return _digest({"code": code, "claims": list(canonical_forms)})


# ------------------------------------------------------------------ what a module file imports


def _module_file(name: str) -> str | None:
    module = sys.modules.get(name)
    file = getattr(module, "__file__", None)
    if file:
        return file
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    return spec.origin if spec and spec.origin and spec.origin.endswith(".py") else None


def _imports_of(path: str, module: str) -> set[str]:
    """Module names a source file imports, anywhere in it (relative imports resolved)."""
    return set(_parse_imports(Path(path).read_text(encoding="utf-8"), path, module))


@lru_cache(maxsize=None)
def _parse_imports(source: str, path: str, module: str) -> frozenset[str]:
    # Keyed on the source text itself: a file edited during the process is parsed again, and the
    # closures of the many obligations sharing a module parse it once. The parse is the one the
    # code fingerprint makes of the same text (stripping docstrings and metadata leaves every
    # import statement): a cold check parses each module once, not twice.
    return imports_in(_parsed_module(source, Path(path).name).imports, path, module)


def imports_in(statements: Iterable[ast.Import | ast.ImportFrom], path: str, module: str) -> frozenset[str]:
    """The module names the import ``statements`` of ``module`` (file ``path``) import,
    relative imports resolved, with their parent packages."""
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    names: set[str] = set()
    for node in statements:
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1] if node.level > 1 else base
                prefix = ".".join(base)
                mod = f"{prefix}.{node.module}" if node.module else prefix
            else:
                mod = node.module or ""
            names.add(mod)
            names.update(f"{mod}.{a.name}" for a in node.names)  # `from pkg import submodule`
    # a module's parent packages run first on import, so they are dependencies too
    for name in list(names):
        parts = name.split(".")
        names.update(".".join(parts[:i]) for i in range(1, len(parts)))
    return frozenset(names)
