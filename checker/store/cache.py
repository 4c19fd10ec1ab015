"""The result cache: a speed-up that must never change an answer.

A result is reused only when nothing it could depend on has changed. It is stored under a key
that hashes:

- the checker's version and the JSON schema version;
- the source of every module of the engine (``checker/``, all of it: soundness over granularity);
- the obligation's own module, statically (:mod:`checker.store.fingerprint`): the top-level
  definitions its discharge uses (transitively by name; the whole module when in doubt) — but not
  its ``expect``, ``statement``, ``source``, ``scope`` or ``lean``: a hit is given the current
  values of those, and its outcome is recomputed from its cached status;
- the installed versions of Python and of the libraries the backends use (read from package
  metadata, without importing them);
- the limits (timeout, memory), the obligation's seed, the ``slow`` switch, whether the
  audits ran (an audited result is never served for a plain run, nor the reverse) and whether
  proofs were confirmed by a second solver (an unconfirmed result is never served to a run
  that confirms, where a disagreement would make it an error);

and it carries the **manifest of what its job really read** (:mod:`checker.store.manifest`,
recorded in the job by :mod:`checker.run.reads`): every project module the job imported — its
skeleton and the functions it entered, from the bytes it compiled — every file it opened, every
directory it listed, every path whose existence it asked. The entry is served only while all of
that is unchanged. A job that started another process (which may read anything) takes every
module whole, and its entry also keys on the static closure of the obligation's module — every
project module it imports, transitively, and the data files in their directory trees
(:func:`static_key`). A job whose reads changed while it ran, or whose record is unusable, is
not cached.

Entries are JSON (never pickle: a shared cache must not be able to run code), written
atomically (temporary file + rename), and authenticated: each carries an HMAC-SHA256 over its
key, content and manifest under a secret kept outside the cache directory (``$OBLIGATIONS_CACHE_SECRET``,
else ``$XDG_STATE_HOME/obligations/cache-secret``, else ``~/.local/state/obligations/cache-secret``;
created 0600 on first use), so a cache restored from elsewhere cannot forge a status. An entry
that is unreadable, unparsable or fails its MAC is a miss with a warning; a ``refuted`` entry is
served only if its witness re-checks against the obligation's declared claims
(:mod:`checker.audit.recheck`). Any cache trouble degrades to re-running, never to a failed check. ``timeout`` and ``error``
results are not stored (they may depend on the machine's load), nor is a result whose default
vacuity check was undecided.
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import secrets
import stat
import sysconfig
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
from typing import Any, Iterable

from checker.kernel.model import CHECKER_VERSION as __version__
from checker.store.files import atomic_write, check_writable, load_secret, output_target, secret_path  # noqa: F401  (re-exported)
from checker.store.fingerprint import _imports_of, _module_file, imports_in  # noqa: F401
from checker.kernel.model import SCHEMA_VERSION, Obligation, Result, Status
from checker.store import manifest as manifests
from checker.store.manifest import VERSION as MANIFEST_VERSION

DEFAULT_DIR = ".obligations-cache"
LIBRARIES = ("sympy", "mpmath", "z3-solver", "numpy", "python-flint", "scipy", "cvc5", "bitwuzla")
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


def _confirming() -> list[Any]:
    """Whether a second solver confirms, and under which deterministic limits (its answers depend on them)."""
    from checker.backends import confirm

    return [confirm.enabled(), confirm.CVC5_RLIMIT,
            [[t.name, [list(o) for o in t.options], t.cpu_s, t.after_stop] for t in confirm.REAL_TRIES + confirm.OTHER_TRIES]]


def _file_digest(path: str) -> str:
    st = os.stat(path)
    return _digest_of(path, st.st_mtime_ns, st.st_size, st.st_ino)


@lru_cache(maxsize=None)
def _digest_of(path: str, mtime_ns: int, size: int, ino: int) -> str:
    # keyed on the file's stat signature: a file edited during the process is hashed again
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


_SOURCE_SUFFIXES = (".py", ".pyc", ".pyo")


def data_files(directory: str, recursive: bool) -> dict[str, str]:
    """``{path: digest}`` of every data file (not Python source or bytecode) in ``directory``."""
    out: dict[str, str] = {}
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__") if recursive else []
        for name in sorted(files):
            if name.endswith(_SOURCE_SUFFIXES):
                continue
            path = os.path.join(root, name)
            try:
                out[os.path.relpath(path, directory)] = _file_digest(path)
            except OSError as exc:
                out[os.path.relpath(path, directory)] = f"unreadable: {exc.strerror}"
    return out


@lru_cache(maxsize=None)
def _library_dirs() -> tuple[str, ...]:
    dirs = {sysconfig.get_paths().get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    dirs |= {os.path.join(p, "lib") for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    return tuple(sorted(os.path.realpath(d) + os.sep for d in dirs if d))


@lru_cache(maxsize=None)
def _top_level_is_project(top: str) -> bool:
    """Whether the top-level module ``top`` is project code (looked up without importing it)."""
    module = sys.modules.get(top)
    file = getattr(module, "__file__", None)
    if not file:
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError, AttributeError):
            return False
        file = spec.origin if spec is not None else None
    return bool(file) and _is_project_file(file)


def _is_project_file(path: str) -> bool:
    """Not installed library code (standard library, site-packages)."""
    real = os.path.realpath(path)
    return real.endswith(".py") and not any(real.startswith(d) for d in _library_dirs())


@lru_cache(maxsize=None)
def _engine_digest() -> str:
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for f in sorted(root.rglob("*.py")):
        h.update(str(f.relative_to(root)).encode())
        h.update(_file_digest(str(f)).encode())
    return h.hexdigest()


def _closure_files(module: str, roots: tuple[str, ...]) -> dict[str, str]:
    """``{module name: file}`` for ``module`` and every project module it imports, transitively:
    those under ``roots``, and any other whose file is not installed library code (the engine,
    ``checker``, is hashed whole elsewhere)."""
    seen: dict[str, str] = {}
    skipped: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        if name in seen or name in skipped or name == "checker" or name.startswith("checker."):
            continue
        in_roots = any(name == r or name.startswith(r + ".") for r in roots)
        if not in_roots and not _top_level_is_project(name.partition(".")[0]):
            skipped.add(name)  # library code: never looked up (a dotted lookup would import it)
            continue
        file = _module_file(name)
        if file is None or not (in_roots or _is_project_file(file)):
            skipped.add(name)  # an attribute imported with `from x import y`, or library code
            continue
        seen[name] = file
        try:
            todo.extend(_imports_of(file, name))
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
            pass  # its digest still keys it; the worker will report the module itself
    return seen


def module_closure(module: str, roots: Iterable[str], files: dict[str, str] | None = None) -> dict[str, str]:
    """``{module name: source digest}`` for ``module`` and every project module it imports,
    transitively (see :func:`_closure_files`)."""
    files = _closure_files(module, tuple(roots)) if files is None else files
    return dict(sorted((name, _file_digest(file)) for name, file in files.items()))


def data_closure(module: str, roots: Iterable[str], files: dict[str, str] | None = None) -> dict[str, str]:
    """``{path: digest}`` of the data files an obligation of ``module`` could read: everything
    but Python files in the directory tree of each module of its closure (for a top-level
    catalogue package, only the files directly in its directory: its subpackages' trees are
    added by their own modules)."""
    roots = tuple(roots)
    out: dict[str, str] = {}
    dirs: dict[str, bool] = {}
    for name, file in (_closure_files(module, roots) if files is None else files).items():
        directory = os.path.dirname(os.path.realpath(file))
        recursive = name not in roots
        dirs[directory] = dirs.get(directory, False) or recursive
    for directory, recursive in sorted(dirs.items()):
        for rel, digest in data_files(directory, recursive).items():
            out[os.path.join(directory, rel)] = digest
    return dict(sorted(out.items()))


def cache_key(ob: Obligation, *, seed: int, timeout_s: float, memory_mib: int, slow: bool, package: str,
              audit: bool = False, fingerprint: str | None = None) -> str:
    """The key an entry is stored under. ``fingerprint``: the static digest of the obligation's own
    module (:attr:`checker.store.fingerprint.Fingerprint.own`, computed here when not given); what
    else the job read is the entry's manifest."""
    if fingerprint is None:
        from checker.store.fingerprint import code_fingerprint

        fingerprint = code_fingerprint(ob, {package, "obligations"}).own
    payload = {
        "checker": __version__,
        "schema": SCHEMA_VERSION,
        "engine": _engine_digest(),
        "id": ob.id,
        "own": fingerprint,
        "manifest": MANIFEST_VERSION,
        "libraries": _library_versions(),
        "limits": [timeout_s, memory_mib],
        "seed": seed,
        "slow": slow,
        "audit": audit,
        "confirm": _confirming(),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def static_key(ob: Obligation, package: str, fingerprint: str | None = None) -> str:
    """The static closure of ``ob``'s module: its code fingerprint with every catalogue module it
    imports (transitively, whole) and their data files (``fingerprint``: the full
    :attr:`~checker.store.fingerprint.Fingerprint.digest`, computed when not given), every other
    project module it imports, whole, and every data file in the directory tree of each. Keyed on
    by an entry whose job started another process."""
    if fingerprint is None:
        from checker.store.fingerprint import code_fingerprint

        fingerprint = code_fingerprint(ob, {package, "obligations"}).digest
    roots = {package, "obligations", ob.module.split(".")[0]}
    files = _closure_files(ob.module, tuple(sorted(roots)))
    outside = {n: f for n, f in files.items() if not any(n == r or n.startswith(r + ".") for r in roots)}
    payload = {"fingerprint": fingerprint, "outside_modules": module_closure(ob.module, sorted(roots), outside),
               "data": data_closure(ob.module, sorted(roots), files)}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _mac(secret: bytes, key: str, content: str, manifest: str | None = None) -> str:
    data = key.encode() + b"\0" + content.encode("utf-8")
    if manifest is not None:
        data += b"\0" + manifest.encode("utf-8")
    return hmac.new(secret, data, hashlib.sha256).hexdigest()


@dataclass
class Cache:
    """A directory of authenticated JSON results keyed by :func:`cache_key`."""

    directory: Path = field(default_factory=lambda: Path(DEFAULT_DIR))
    hits: int = 0
    misses: int = 0
    secret_file: Path | None = None
    _secret: bytes | None = field(default=None, init=False, repr=False)
    _disabled: str | None = field(default=None, init=False, repr=False)

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def _key_secret(self) -> bytes | None:
        if self._secret is not None or self._disabled is not None:
            return self._secret
        path = self.secret_file or secret_path()
        try:
            inside = Path(os.path.realpath(path)).is_relative_to(os.path.realpath(self.directory))
            if inside:
                raise OSError("it is inside the cache directory, where whoever writes the cache could read it")
            self._secret = load_secret(path)
        except OSError as exc:
            self._disabled = f"the cache secret {path} is unusable ({exc}); the cache is off for this run"
            warnings.warn(self._disabled, CacheWarning, stacklevel=3)
        return self._secret

    def get(self, key: str, ob_id: str, obligation: Obligation | None = None) -> Result | None:
        """The cached result, or ``None`` (a miss) — never an exception."""
        secret = self._key_secret()
        if secret is None:
            self.misses += 1
            return None
        path = self._path(key)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            self.misses += 1
            return None
        except (OSError, UnicodeDecodeError) as exc:
            warnings.warn(f"cache entry {path} unreadable ({exc}); re-running {ob_id}", CacheWarning, stacklevel=2)
            self.misses += 1
            return None
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or not isinstance(data.get("content"), str) or not isinstance(data.get("mac"), str):
                raise ValueError("not a cache entry")
            if data.get("key") != key:
                raise ValueError("key mismatch")
            manifest_text = data.get("manifest")
            if not isinstance(manifest_text, str):
                raise ValueError("no manifest of what its job read")
            if not hmac.compare_digest(data["mac"], _mac(secret, key, data["content"], manifest_text)):
                raise ValueError("its MAC does not match: edited, or written with another secret")
            result = Result.from_json(json.loads(data["content"]))
            if result.id != ob_id:
                raise ValueError("id mismatch")
            manifest = json.loads(manifest_text)
        except Exception as exc:  # noqa: BLE001 - any damage is a miss, never a failed run
            warnings.warn(f"cache entry {path} is corrupt or not authentic ({type(exc).__name__}: {str(exc)[:200]}); re-running {ob_id}",
                          CacheWarning, stacklevel=2)
            self.misses += 1
            return None
        if not manifests.matches(manifest) or not self._static_matches(manifest, obligation):
            self.misses += 1  # something the job read has changed: simply a miss
            return None
        if result.status is Status.REFUTED and not self._witness_rechecks(result, obligation):
            self.misses += 1
            return None
        self.hits += 1
        return result

    def _static_matches(self, manifest: dict, obligation: Obligation | None) -> bool:
        if "static" not in manifest:
            return True
        if obligation is None:
            return False
        try:
            return manifest["static"] == static_key(obligation, manifest.get("package", "obligations"))
        except Exception:  # noqa: BLE001 - cannot tell: re-run
            return False

    @staticmethod
    def _witness_rechecks(result: Result, obligation: Obligation | None) -> bool:
        from checker.audit.recheck import Recheck, recheck_refutation

        if obligation is None:
            return False
        try:
            c = result.certificate
            found = recheck_refutation(obligation, c.witness, c.data.get("claim"), c.ledger or ()).verdict
        except Exception:  # noqa: BLE001 - cannot re-check: re-run
            return False
        return found is Recheck.REFUTES

    def put(self, key: str, result: Result, manifest: dict | None = None) -> None:
        """Store ``result`` under ``key`` with the ``manifest`` of what its job read (without one,
        nothing is stored: an entry is served only while its manifest matches)."""
        if result.status in _UNCACHED or manifest is None or not uncertain_free(result):
            return
        secret = self._key_secret()
        if secret is None:
            return
        path = self._path(key)
        try:
            content = json.dumps(result.to_json(), ensure_ascii=False, sort_keys=True, allow_nan=False)
            manifest_text = json.dumps(manifest, ensure_ascii=False, sort_keys=True)
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, json.dumps({"key": key, "content": content, "manifest": manifest_text,
                                           "mac": _mac(secret, key, content, manifest_text)}, ensure_ascii=False),
                         durable=False)
        except (OSError, ValueError, TypeError) as exc:
            warnings.warn(f"cannot write cache entry {path} ({exc}); continuing without it", CacheWarning, stacklevel=2)


def uncertain_free(result: Result) -> bool:
    """Whether nothing in ``result`` depends on the machine's load: its default vacuity check, if
    any, was decided (an ``undecided`` one may have run out of time on a busy machine)."""
    vacuity = result.vacuity
    return not (hasattr(vacuity, "get") and vacuity.get("verdict") == "undecided")
