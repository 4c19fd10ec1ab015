"""The result cache: a speed-up that must never change an answer.

A result is reused only when nothing it could depend on has changed. Its key hashes:

- the checker's version and the JSON schema version;
- the source of every module of the engine (``checker/``, all of it: soundness over granularity);
- the obligation's code fingerprint (:mod:`checker.fingerprint`): the top-level definitions of
  its module that its discharge uses (transitively by name; the whole module when in doubt),
  every catalogue module it imports (transitively, whole) and the data files next to them — but
  not its ``expect``, ``statement``, ``source``, ``scope`` or ``lean``: a hit is given the
  current values of those, and its outcome is recomputed from its cached status;
- the installed versions of Python and of the libraries the backends use (read from package
  metadata, without importing them);
- the limits (timeout, memory), the obligation's seed, the ``slow`` switch and whether the
  audits ran (an audited result is never served for a plain run, nor the reverse).

Entries are JSON (never pickle: a shared cache must not be able to run code), written
atomically (temporary file + rename). An unreadable entry is a miss with a warning; any
cache trouble degrades to re-running, never to a failed check. ``timeout`` and ``error``
results are not stored (they may depend on the machine's load).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import platform
import sys
import tempfile
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Iterable

from checker import __version__
from checker.model import SCHEMA_VERSION, Obligation, Result, Status

DEFAULT_DIR = ".obligations-cache"
LIBRARIES = ("sympy", "mpmath", "z3-solver", "numpy", "python-flint", "scipy")
_UNCACHED = (Status.TIMEOUT, Status.ERROR)


class CacheWarning(UserWarning):
    """Cache trouble (unreadable entry, unwritable directory): the run goes on without it."""


@lru_cache(maxsize=None)
def _library_versions() -> tuple[tuple[str, str], ...]:
    out = [("python", platform.python_version())]
    for name in LIBRARIES:
        try:
            out.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            out.append((name, "absent"))
    return tuple(out)


@lru_cache(maxsize=None)
def _file_digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@lru_cache(maxsize=None)
def _engine_digest() -> str:
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for f in sorted(root.rglob("*.py")):
        h.update(str(f.relative_to(root)).encode())
        h.update(_file_digest(str(f)).encode())
    return h.hexdigest()


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
    # closures of the many obligations sharing a module parse it once.
    tree = ast.parse(source, filename=path)
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
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


def module_closure(module: str, roots: Iterable[str]) -> dict[str, str]:
    """``{module name: source digest}`` for ``module`` and every module under ``roots`` that it
    imports, transitively."""
    roots = tuple(roots)
    seen: dict[str, str] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        if name in seen or not any(name == r or name.startswith(r + ".") for r in roots):
            continue
        file = _module_file(name)
        if file is None:
            continue  # an attribute imported with `from x import y`, not a module
        seen[name] = _file_digest(file)
        todo.extend(_imports_of(file, name))
    return dict(sorted(seen.items()))


def cache_key(ob: Obligation, *, seed: int, timeout_s: float, memory_mib: int, slow: bool, package: str,
              audit: bool = False, fingerprint: str | None = None) -> str:
    """``fingerprint``: the obligation's code fingerprint (:func:`checker.fingerprint.code_fingerprint`,
    computed here when not given): its code closure, imported catalogue modules and data files."""
    if fingerprint is None:
        from checker.fingerprint import code_fingerprint

        fingerprint = code_fingerprint(ob, {package, "obligations"}).digest
    payload = {
        "checker": __version__,
        "schema": SCHEMA_VERSION,
        "engine": _engine_digest(),
        "id": ob.id,
        "fingerprint": fingerprint,
        "libraries": _library_versions(),
        "limits": [timeout_s, memory_mib],
        "seed": seed,
        "slow": slow,
        "audit": audit,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


@dataclass
class Cache:
    """A directory of JSON results keyed by :func:`cache_key`."""

    directory: Path = field(default_factory=lambda: Path(DEFAULT_DIR))
    hits: int = 0
    misses: int = 0

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str, ob_id: str) -> Result | None:
        path = self._path(key)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            self.misses += 1
            return None
        except OSError as exc:
            warnings.warn(f"cache entry {path} unreadable ({exc}); re-running {ob_id}", CacheWarning, stacklevel=2)
            self.misses += 1
            return None
        try:
            data = json.loads(text)
            if data.get("key") != key:
                raise ValueError("key mismatch")
            result = Result.from_json(data["result"])
            if result.id != ob_id:
                raise ValueError("id mismatch")
        except (ValueError, KeyError, TypeError) as exc:
            warnings.warn(f"cache entry {path} is corrupt ({exc}); re-running {ob_id}", CacheWarning, stacklevel=2)
            self.misses += 1
            return None
        self.hits += 1
        return result

    def put(self, key: str, result: Result) -> None:
        if result.status in _UNCACHED:
            return
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, json.dumps({"key": key, "result": result.to_json()}, ensure_ascii=False), durable=False)
        except OSError as exc:
            warnings.warn(f"cannot write cache entry {path} ({exc}); continuing without it", CacheWarning, stacklevel=2)


def atomic_write(path: str | os.PathLike[str], text: str, durable: bool = True) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory and a rename,
    so a reader never sees a half-written file. ``durable`` also flushes it to disk before the
    rename (``fsync``), so that a crash cannot leave a truncated file behind; cache entries skip
    that (it was most of the cache's per-entry cost), since a truncated entry is unreadable and
    so only a miss."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
