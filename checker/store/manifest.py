"""What a job really read: its *manifest*, the part of a cache key taken from the run itself.

A job records (:mod:`checker.run.reads`) every project module it imported — with the source
bytes it compiled, hashed as read — and which of that module's functions it entered, every file
it opened for reading, every directory it listed and every path whose existence it asked. A
cached result carries that record, reduced to digests by :func:`finalize`, and is served only
while :func:`matches` finds each of them unchanged. This covers what a static reading of the
sources cannot see: a module loaded with ``importlib.import_module``, a helper registered into
another module's table by a decorator, a data file anywhere, a module edited while the run was
going on (the job then reports a change, and nothing is cached).

A module counts at the granularity of what the job executed: its *skeleton* — everything but
the bodies of its functions and methods, which runs on import (class bodies, decorators,
defaults, module-level statements) — and the body of each function or method the job entered.
Editing a function no job of an obligation entered does not re-run it. Docstrings and the
prose arguments of ``@obligation`` (``statement``, ``expect``, …) do not count, as in the static
fingerprint (:mod:`checker.store.fingerprint`, whose stripping this reuses): a cached result
gets the current prose.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import stat as stat_module
from functools import lru_cache
from typing import Any, Iterator, Mapping

VERSION = 1  # of the manifest format and the unit analysis: another version never matches
MARKER = "__obligations_entered__"  # the global each instrumented unit adds its name to


# ---------------------------------------------------------------------------------------
# Units: the functions and methods of a module, by qualified name
# ---------------------------------------------------------------------------------------

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_BLOCKS = (ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)
try:  # Python 3.11: try/except*
    _BLOCKS = (*_BLOCKS, ast.TryStar)  # type: ignore[attr-defined]
except AttributeError:  # pragma: no cover
    pass


def units(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """``(qualified name, def)`` of every function defined at module level or directly in a class
    body (through ``if``/``try``/``with``/loops at those levels, and nested classes), in source
    order. A function's body runs only when it is called; everything around it runs on import."""

    def walk(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, Any]]:
        for node in body:
            if isinstance(node, _DEFS):
                yield prefix + node.name, node
            elif isinstance(node, ast.ClassDef):
                yield from walk(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, _BLOCKS):
                for field in ("body", "orelse", "finalbody"):
                    yield from walk(getattr(node, field, []) or [], prefix)
                for handler in getattr(node, "handlers", []) or []:
                    yield from walk(handler.body, prefix)

    yield from walk(tree.body, "")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def unit_of(qualname: str, known: set[str]) -> str | None:
    """The unit a code object's ``co_qualname`` belongs to: itself, or the unit it is nested in
    (``f.<locals>.g`` → ``f``); ``None`` for code outside every unit (the module body, a class
    body, a module-level lambda: the skeleton)."""
    parts = qualname.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return None


@lru_cache(maxsize=512)
def analyse(source: str, filename: str = "<module>") -> tuple[str, dict[str, str]]:
    """``(skeleton digest, {unit: digest})`` of a module's source: its syntax tree without
    docstrings and ``@obligation`` prose, the units' bodies cut out of the skeleton (each unit's
    decorators, arguments and defaults stay in it: they run on import)."""
    from checker.store.fingerprint import _parsed_module

    tree = _parsed_module(source, filename).tree  # shared, stripped: restored before returning
    found: dict[str, list[str]] = {}
    cut: list[tuple[Any, list[ast.stmt]]] = []
    for name, node in units(tree):
        found.setdefault(name, []).append(ast.dump(node))
    try:
        for _, node in units(tree):
            cut.append((node, node.body))
            node.body = [ast.Expr(ast.Constant(MARKER))]
        skeleton = _digest(ast.dump(tree))
    finally:
        for node, body in cut:
            node.body = body
    return skeleton, {name: _digest("\n".join(dumps)) for name, dumps in found.items()}


# ---------------------------------------------------------------------------------------
# Instrumentation (in the job): each unit adds its name to MARKER when entered
# ---------------------------------------------------------------------------------------


def instrument(source: bytes, path: str) -> Any:
    """The code object of ``source`` with, first in each unit's body (after its docstring), a
    statement adding the unit's qualified name to the module global :data:`MARKER`. Line numbers
    are those of the source."""
    tree = ast.parse(source, filename=path)
    for name, node in units(tree):
        body = node.body
        first = 1 if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                      and isinstance(body[0].value.value, str)) else 0
        anchor = body[first] if first < len(body) else body[-1]
        call = ast.Expr(ast.Call(ast.Attribute(ast.Name(MARKER, ast.Load()), "add", ast.Load()),
                                 [ast.Constant(name)], []))
        ast.copy_location(call, anchor)
        ast.fix_missing_locations(call)
        for sub in ast.walk(call):
            sub.lineno, sub.col_offset = anchor.lineno, anchor.col_offset
            sub.end_lineno, sub.end_col_offset = anchor.lineno, anchor.col_offset
        node.body = [*body[:first], call, *body[first:]]
    return compile(tree, path, "exec", dont_inherit=True)


# ---------------------------------------------------------------------------------------
# Digests of the world as it is now
# ---------------------------------------------------------------------------------------


def file_state(path: str) -> str:
    """``sha256:…`` of a regular file's bytes; ``absent``; or the kind of a non-regular file."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "absent"
    except NotADirectoryError:
        return "absent"
    except OSError as exc:
        return f"unreadable:{exc.errno}"
    if stat_module.S_ISDIR(st.st_mode):
        return "directory"
    if not stat_module.S_ISREG(st.st_mode):
        return "special"
    try:
        with open(path, "rb") as fh:
            h = hashlib.sha256()
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    except OSError as exc:
        return f"unreadable:{exc.errno}"
    return "sha256:" + h.hexdigest()


def listing_state(path: str) -> str:
    """A digest of a directory's entry names; ``absent``; or ``unreadable``."""
    try:
        names = sorted(os.listdir(path))
    except FileNotFoundError:
        return "absent"
    except OSError as exc:
        return f"unreadable:{exc.errno}"
    return "names:" + _digest("\0".join(names))


def kind_state(path: str) -> str:
    """What is at ``path``: ``file``, ``directory``, ``other`` or ``absent`` (existence, not content)."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return "absent"
    except OSError as exc:
        return f"unreadable:{exc.errno}"
    return "directory" if stat_module.S_ISDIR(st.st_mode) else "file" if stat_module.S_ISREG(st.st_mode) else "other"


ALL_ENVIRONMENT = "*"
"""The name under which a manifest records a job that went through the whole environment (iterated it)."""
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")
"""Set to 1 in every job by the engine (one thread per job), whatever the run's environment says."""
TOKEN_VAR = "OBLIGATIONS_WORKER_TOKEN"
"""Set by the engine in every job (a new value per run): what the run started."""
ENGINE_VARIABLES = frozenset((*THREAD_VARS, TOKEN_VAR))
"""Variables whose value in a job is the engine's, not the run's: never part of what a job read."""


def _environment() -> dict[str, str]:
    """The environment as text, read without going through a recording mapping (:mod:`checker.run.reads`)."""
    env = os.environ
    data = getattr(env, "_data", None)
    if not isinstance(data, dict):
        return dict(env)
    decode = getattr(env, "decodekey", None), getattr(env, "decodevalue", None)
    return {(decode[0](k) if decode[0] else k): (decode[1](v) if decode[1] else v) for k, v in dict.items(data)}


def env_state(name: str) -> str:
    """A digest of an environment variable's value now, or ``absent``; for :data:`ALL_ENVIRONMENT`, of the
    whole environment but the :data:`ENGINE_VARIABLES`."""
    env = _environment()
    if name == ALL_ENVIRONMENT:
        return "env:" + _digest(repr(sorted((k, v) for k, v in env.items() if k not in ENGINE_VARIABLES)))
    value = env.get(name)
    return "absent" if value is None else "value:" + _digest(value)


def _read_source(path: str) -> tuple[str, bytes] | None:
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    return "sha256:" + hashlib.sha256(raw).hexdigest(), raw


# ---------------------------------------------------------------------------------------
# From a job's record to a stored manifest, and back to a decision
# ---------------------------------------------------------------------------------------


class Unstable(Exception):
    """What a job read is no longer what is on disk (or the record is unusable): do not cache."""


def finalize(reads: Any) -> dict[str, Any]:
    """The manifest to store with a result, from the record a job sent (:mod:`checker.run.reads`).
    Each module is read again here: its bytes must be those the job hashed (else
    :class:`Unstable`), and its skeleton and entered units are digested from them."""
    if not isinstance(reads, Mapping) or reads.get("version") != VERSION:
        raise Unstable("the job sent no usable record of what it read")
    if reads.get("changed"):
        raise Unstable(f"{reads['changed']} changed while the job ran")
    modules: dict[str, Any] = {}
    for path, entry in _mapping(reads.get("modules")).items():
        if not isinstance(entry, Mapping) or not isinstance(entry.get("sha"), str):
            raise Unstable(f"the record of module {path} is malformed")
        current = _read_source(path)
        if current is None or current[0] != entry["sha"]:
            raise Unstable(f"{path} changed after the job read it")
        try:
            skeleton, all_units = analyse(current[1].decode("utf-8"), os.path.basename(path))
        except (SyntaxError, UnicodeDecodeError, ValueError) as exc:
            raise Unstable(f"{path} cannot be analysed ({type(exc).__name__})") from exc
        entered = entry.get("entered")
        if entered == "all":
            modules[path] = {"sha": entry["sha"]}  # taken whole
            continue
        if not isinstance(entered, list) or not all(isinstance(u, str) for u in entered):
            raise Unstable(f"the record of module {path} is malformed")
        modules[path] = {"sha": entry["sha"], "skeleton": skeleton,
                         "units": {u: all_units[u] for u in sorted(set(entered)) if u in all_units}}
    out: dict[str, Any] = {"version": VERSION, "modules": modules}
    for section in ("files", "listings", "kinds"):
        values = _mapping(reads.get(section))
        if not all(isinstance(v, str) for v in values.values()):
            raise Unstable(f"the record's {section} are malformed")
        out[section] = dict(sorted(values.items()))
    check = {"files": file_state, "listings": listing_state, "kinds": kind_state}
    for section, state in check.items():
        for path, recorded in out[section].items():
            if state(path) != recorded:
                raise Unstable(f"{path} changed after the job read it")
    env = _mapping(reads.get("env"))
    if not all(isinstance(v, str) for v in env.values()):
        raise Unstable("the record's environment is malformed")
    for name, recorded in env.items():
        if env_state(name) != recorded:
            raise Unstable(f"environment variable {name} differs from what the job read")
    if env:
        out["env"] = dict(sorted(env.items()))
    if reads.get("coarse"):
        out["coarse"] = str(reads["coarse"])
    return out


def _mapping(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise Unstable("the job's record is malformed")
    return dict(value)


def matches(manifest: Any) -> bool:
    """Whether everything the manifest records is as it was: every module's bytes (or, when they
    changed, its skeleton and the units the job entered), every file, listing and path kind."""
    if not isinstance(manifest, Mapping) or manifest.get("version") != VERSION:
        return False
    try:
        for path, entry in dict(manifest.get("modules") or {}).items():
            current = _read_source(path)
            if current is None:
                return False
            if current[0] == entry["sha"]:
                continue
            if "skeleton" not in entry:
                return False  # taken whole
            try:
                skeleton, all_units = analyse(current[1].decode("utf-8"), os.path.basename(path))
            except (SyntaxError, UnicodeDecodeError, ValueError):
                return False
            if skeleton != entry["skeleton"]:
                return False
            for unit, digest in dict(entry["units"]).items():
                if all_units.get(unit) != digest:
                    return False
        for section, state in (("files", file_state), ("listings", listing_state), ("kinds", kind_state),
                               ("env", env_state)):
            for path, recorded in dict(manifest.get(section) or {}).items():
                if state(path) != recorded:
                    return False
    except (TypeError, KeyError, AttributeError, ValueError):
        return False
    return True


def digest(manifest: Mapping[str, Any]) -> str:
    return _digest(json.dumps(manifest, sort_keys=True, separators=(",", ":")))
