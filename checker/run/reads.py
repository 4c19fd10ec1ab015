"""In a job: record what it really reads, for the cache key (:mod:`checker.store.manifest`).

:func:`start` runs in the forked job before any catalogue code. From then on:

- every project module the job imports (a ``.py`` file outside the installed libraries and the
  engine) is loaded by :class:`_Loader`: it reads the source bytes, hashes them as read, and
  executes code compiled from exactly those bytes — never a ``.pyc`` whose source might have
  changed since — instrumented so that each function and method adds its name to a set when
  entered (:func:`checker.store.manifest.instrument`; the compiled form is kept beside the
  source, keyed on the bytes' digest, so each version is compiled once);
- an audit hook (``sys.addaudithook``: the ``open``, ``os.listdir``, ``os.scandir`` and
  ``ctypes.dlopen`` events) hashes every file opened for reading and every directory listed, and
  ``os.stat``/``os.lstat``/``os.access`` note whether a path existed; files the job itself
  created or wrote, the installed libraries, the engine, ``/proc``, ``/sys`` and ``/dev`` are left out;
- a job that starts another process (``subprocess``, ``os.system``, ``fork``, ``exec``,
  ``posix_spawn``) may have it read anything: the record says so (``coarse``), every module it
  imported counts whole, and the cache adds the static key of the obligation's whole import
  closure and data files (:func:`checker.store.cache.static_key`).

:func:`finish` re-reads everything recorded: what changed while the job ran is named, and its
result is not cached. The record goes to the parent with the result; the parent re-reads the
modules again before it stores anything (:func:`checker.store.manifest.finalize`).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import marshal
import os
import sys
import threading
from typing import Any

from checker.kernel import model
from checker.store import manifest

_STATE: dict[str, Any] = {}
_LOCAL = threading.local()
_IGNORED_PREFIXES = ("/proc/", "/sys/", "/dev/")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_SPAWN_EVENTS = frozenset({"subprocess.Popen", "os.system", "os.fork", "os.forkpty", "os.exec", "os.posix_spawn",
                           "os.spawn", "pty.spawn"})
_CACHE_TAG = f"obligations{manifest.VERSION}"


def _library_dirs() -> tuple[str, ...]:
    import sysconfig

    dirs = {sysconfig.get_paths().get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    dirs |= {os.path.join(p, "lib") for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    return tuple(sorted(os.path.realpath(d) + os.sep for d in dirs if d))


def _engine_dir() -> str:
    # this file is checker/run/reads.py: the engine is two folders up (importing the package's
    # public top from inside a room would go against the rooms' directions)
    return os.path.realpath(os.path.join(os.path.dirname(__file__), os.pardir)) + os.sep


def _outside(path: str) -> bool:
    """Left out of the record: installed libraries, the engine (both keyed otherwise), /proc…
    (Decided by the real path of the file's directory, kept per directory: a job asks for
    thousands of library paths.)"""
    directory, _, name = path.rpartition(os.sep)
    known = _DIRS.get(directory)
    if known is None:
        inside = getattr(_LOCAL, "inside", False)
        _LOCAL.inside = True  # realpath's own lstat calls are not the job's
        try:
            real = os.path.realpath(directory or os.sep) + os.sep
        finally:
            _LOCAL.inside = inside
        known = _DIRS[directory] = real.startswith(_IGNORED_PREFIXES) or real.startswith(_STATE["ignored"])
    if known:
        return True
    # the file itself may be a symlink into a library (rare): decided by its own real path
    inside = getattr(_LOCAL, "inside", False)
    _LOCAL.inside = True
    try:
        if os.path.islink(path):
            real = os.path.realpath(path)
            return real.startswith(_IGNORED_PREFIXES) or real.startswith(_STATE["ignored"])
    finally:
        _LOCAL.inside = inside
    return False


_DIRS: dict[str, bool] = {}


def _sha(raw: bytes) -> str:
    return "sha256:" + hashlib.sha256(raw).hexdigest()


class _Loader(importlib.machinery.SourceFileLoader):
    """Loads a project module from the bytes it hashes, instrumented (see the module docstring)."""

    def get_code(self, fullname: str) -> Any:
        path = self.get_filename(fullname)
        _LOCAL.loading = True
        try:
            raw = self.get_data(path)
        finally:
            _LOCAL.loading = False
        sha = _sha(raw)
        record = _STATE["modules"].setdefault(path, {"sha": None, "entered": set()})
        if record["sha"] is None:
            record["sha"] = sha
        elif record["sha"] != sha:
            _STATE["changed"] = _STATE["changed"] or path  # imported twice, different bytes
        ready = _PRECOMPILED.get(path)
        if ready is not None and ready[0] == sha:
            return ready[1]  # compiled by the template from exactly these bytes
        cached = _cached_code(path, sha)
        if cached is not None:
            return cached
        code = manifest.instrument(raw, path)
        _store_code(path, sha, code)
        return code

    def exec_module(self, module: Any) -> None:
        path = self.get_filename(module.__name__)
        record = _STATE["modules"].setdefault(path, {"sha": None, "entered": set()})
        module.__dict__[manifest.MARKER] = record["entered"]
        super().exec_module(module)


_HEADER = b"OBLG"
_PRECOMPILED: dict[str, tuple[str, Any]] = {}  # path -> (digest of the bytes, instrumented code)


def precompile(paths: Any) -> None:
    """Compile these source files, instrumented, into this process (the worker template: compiling
    runs no catalogue code), so that the jobs forked from it do not compile them again; a job
    uses such code only for exactly the bytes it reads itself."""
    for path in paths:
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
            _PRECOMPILED[path] = (_sha(raw), manifest.instrument(raw, path))
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
            pass  # the job compiles it (and reports its error) itself


def _pyc_path(path: str) -> str | None:
    try:
        return importlib.util.cache_from_source(path, optimization=_CACHE_TAG)
    except (NotImplementedError, ValueError):
        return None


def _cached_code(path: str, sha: str) -> Any:
    pyc = _pyc_path(path)
    if pyc is None:
        return None
    expected = _HEADER + importlib.util.MAGIC_NUMBER + sha.encode("ascii") + b"\n"
    _LOCAL.loading = True
    try:
        with open(pyc, "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    finally:
        _LOCAL.loading = False
    if not data.startswith(expected):
        return None
    try:
        return marshal.loads(data[len(expected):])
    except (ValueError, EOFError, TypeError):
        return None


def _store_code(path: str, sha: str, code: Any) -> None:
    import tempfile

    pyc = _pyc_path(path)
    if pyc is None or sys.dont_write_bytecode:
        return
    data = _HEADER + importlib.util.MAGIC_NUMBER + sha.encode("ascii") + b"\n" + marshal.dumps(code)
    _LOCAL.loading = True
    try:
        os.makedirs(os.path.dirname(pyc), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=os.path.basename(pyc) + ".", dir=os.path.dirname(pyc))
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, pyc)
    except OSError:
        pass  # compiled again next time
    finally:
        _LOCAL.loading = False


class _Finder:
    """First on ``sys.meta_path``: asks the other finders, and gives a project ``.py`` module
    :class:`_Loader`."""

    @classmethod
    def find_spec(cls, fullname: str, path: Any = None, target: Any = None) -> Any:
        if getattr(_LOCAL, "finding", False):
            return None
        _LOCAL.finding = True
        try:
            for finder in sys.meta_path:
                if finder is cls:
                    continue
                find = getattr(finder, "find_spec", None)
                if find is None:
                    continue
                spec = find(fullname, path, target)
                if spec is not None:
                    break
            else:
                return None
        finally:
            _LOCAL.finding = False
        origin = spec.origin
        if (isinstance(spec.loader, importlib.machinery.SourceFileLoader) and isinstance(origin, str)
                and origin.endswith(".py") and not _outside(origin)):
            spec.loader = _Loader(fullname, origin)
        return spec


def _note_file(path: Any) -> None:
    if isinstance(path, int) or path is None:
        return
    try:
        text = os.fsdecode(path)
    except (TypeError, ValueError):
        return
    full = os.path.abspath(text)
    if full in _STATE["written"] or full in _STATE["files"] or _outside(full):
        return
    _STATE["files"][full] = manifest.file_state(full)


def _hook(event: str, args: tuple) -> None:
    # the recorder's own reads, and the import system's (finding and loading a module: a module
    # it loads is recorded by its bytes)
    if getattr(_LOCAL, "inside", False) or getattr(_LOCAL, "loading", False) or getattr(_LOCAL, "finding", False):
        return
    if event == "open":
        _LOCAL.inside = True
        try:
            path, mode, flags = (args + (None, None, None))[:3]
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & _WRITE_FLAGS)
            if writing:
                if not isinstance(path, int) and path is not None:
                    try:
                        _STATE["written"].add(os.path.abspath(os.fsdecode(path)))
                    except (TypeError, ValueError):
                        pass
            else:
                _note_file(path)
        finally:
            _LOCAL.inside = False
    elif event in ("os.listdir", "os.scandir"):
        _LOCAL.inside = True
        try:
            path = args[0] if args else "."
            if path is None:
                path = "."
            if not isinstance(path, int):
                full = os.path.abspath(os.fsdecode(path))
                if full not in _STATE["listings"] and not _outside(full):
                    _STATE["listings"][full] = manifest.listing_state(full)
        except (TypeError, ValueError):
            pass
        finally:
            _LOCAL.inside = False
    elif event == "ctypes.dlopen":
        _LOCAL.inside = True
        try:
            _note_file(args[0] if args else None)
        finally:
            _LOCAL.inside = False
    elif event in _SPAWN_EVENTS and not _STATE["coarse"] and not model.starting_self_contained_child():
        # (the engine's own children that compute on data the job holds read nothing of the project)
        _STATE["coarse"] = event


def _note_kind(path: Any) -> None:
    if getattr(_LOCAL, "inside", False) or getattr(_LOCAL, "loading", False) or getattr(_LOCAL, "finding", False):
        return
    if isinstance(path, int):
        return
    _LOCAL.inside = True
    try:
        full = os.path.abspath(os.fsdecode(path))
        if full not in _STATE["kinds"] and full not in _STATE["files"] and full not in _STATE["written"] \
                and not _outside(full):
            _STATE["kinds"][full] = manifest.kind_state(full)
    except (TypeError, ValueError):
        pass
    finally:
        _LOCAL.inside = False


_ENGINE_DIR = _engine_dir()
_ENV_PLUMBING = (os.path.realpath(os.__file__), os.path.realpath(os.path.join(os.path.dirname(os.__file__), "_collections_abc.py")))


_REAL_FILES: dict[str, str] = {}


def _real_file(name: str) -> str:
    real = _REAL_FILES.get(name)
    if real is None:
        real = _REAL_FILES[name] = os.path.realpath(name)
    return real


def _engine_asks() -> bool:
    """Is the environment read by the engine (which keys its own settings otherwise) rather than by
    catalogue code or a library it calls? Decided by the first caller outside ``os`` and the mapping ABCs
    (each file's real path resolved once: the engine reads its settings often)."""
    frame = sys._getframe(3)
    while frame is not None and _real_file(frame.f_code.co_filename) in _ENV_PLUMBING:
        frame = frame.f_back
    return frame is not None and _real_file(frame.f_code.co_filename).startswith(_ENGINE_DIR)


def _note_env(name: Any) -> None:
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    if not _STATE or not isinstance(name, str) or getattr(_LOCAL, "inside", False):
        return
    if name in manifest.ENGINE_VARIABLES or name in _STATE["env"] or name in _STATE["env_written"] or _engine_asks():
        return  # (a variable the job set before reading it is its own)
    _LOCAL.inside = True
    try:
        _STATE["env"][name] = manifest.env_state(name)
    finally:
        _LOCAL.inside = False


class _RecordingEnviron(os._Environ):  # type: ignore[misc,name-defined]
    """``os.environ`` in a job: each variable read (``[]``, ``get``, ``in``, ``os.getenv``) is recorded with
    its value's digest, a walk over all of them records the whole environment, and a variable the job
    sets itself is its own (not recorded after)."""

    def __getitem__(self, key: Any) -> Any:
        _note_env(key)
        return super().__getitem__(key)

    def __contains__(self, key: Any) -> bool:
        _note_env(key)
        return super().__contains__(key)

    def __iter__(self) -> Any:
        _note_env(manifest.ALL_ENVIRONMENT)
        return super().__iter__()

    def __repr__(self) -> str:
        _note_env(manifest.ALL_ENVIRONMENT)
        return super().__repr__()

    def __setitem__(self, key: Any, value: Any) -> None:
        if _STATE:
            _STATE["env_written"].add(os.fsdecode(key) if isinstance(key, bytes) else key)
        super().__setitem__(key, value)

    def __delitem__(self, key: Any) -> None:
        if _STATE:
            _STATE["env_written"].add(os.fsdecode(key) if isinstance(key, bytes) else key)
        super().__delitem__(key)


def _watched(function: Any) -> Any:
    def watched(path: Any, *args: Any, **kwargs: Any) -> Any:
        _note_kind(path)
        return function(path, *args, **kwargs)

    watched.__name__ = function.__name__
    watched.__doc__ = function.__doc__
    return watched


def start(ignore: Any = ()) -> None:
    """Start recording (once per process, before any catalogue code runs); ``ignore``: more
    directories left out of the record (the run's shared-fact store)."""
    if _STATE:
        return
    extra = tuple(os.path.realpath(d) + os.sep for d in ignore if d)
    _STATE.update(modules={}, files={}, listings={}, kinds={}, written=set(), coarse=None, changed=None,
                  env={}, env_written=set(), ignored=(*_library_dirs(), _engine_dir(), *extra))
    for env in (os.environ, getattr(os, "environb", None)):
        if type(env) is os._Environ:  # type: ignore[attr-defined]
            env.__class__ = _RecordingEnviron  # the same object: every module holding it records too
    _STATE["preloaded"] = frozenset(sys.modules)
    sys.meta_path.insert(0, _Finder)
    sys.path_importer_cache.clear()
    os.stat = _watched(os.stat)
    os.lstat = _watched(os.lstat)
    os.access = _watched(os.access)
    sys.addaudithook(_hook)


def active() -> bool:
    return bool(_STATE)


def finish() -> dict[str, Any] | None:
    """The record of what the job read (JSON data), after checking that none of it changed
    since; ``None`` when nothing was recorded."""
    if not _STATE:
        return None
    _LOCAL.inside = True
    try:
        changed = _STATE["changed"]
        modules: dict[str, Any] = {}
        for path, record in _STATE["modules"].items():
            if record["sha"] is None:
                continue  # its code was never read (the import failed first)
            try:
                with open(path, "rb") as fh:
                    now = _sha(fh.read())
            except OSError:
                now = "absent"
            if now != record["sha"] and changed is None:
                changed = path
            modules[path] = {"sha": record["sha"], "entered": "all" if _STATE["coarse"] else sorted(record["entered"])}
        for section, state in (("files", manifest.file_state), ("listings", manifest.listing_state),
                               ("kinds", manifest.kind_state)):
            for path, recorded in _STATE[section].items():
                if changed is None and path not in _STATE["written"] and state(path) != recorded:
                    changed = path
        # A project module loaded some other way (a .pyc alone, an extension, a zip): whole.
        for name, module in list(sys.modules.items()):
            if name in _STATE["preloaded"]:
                continue  # in the template before the job: the engine and the libraries
            file = getattr(module, "__file__", None)
            if isinstance(file, str) and file not in modules and not _outside(file) and name != "__main__" \
                    and not isinstance(getattr(module, "__loader__", None), _Loader) and os.path.isabs(file):
                if file.endswith(".py") or file.endswith((".pyc", ".so")):
                    state = manifest.file_state(file)
                    _STATE["files"].setdefault(file, state)
        return {"version": manifest.VERSION, "modules": modules,
                "files": {p: s for p, s in _STATE["files"].items() if p not in _STATE["written"]},
                "listings": dict(_STATE["listings"]),
                "kinds": {p: s for p, s in _STATE["kinds"].items() if p not in _STATE["written"]},
                "env": dict(_STATE["env"]),  # a variable read before the job set it stays read
                "coarse": _STATE["coarse"], "changed": changed}
    finally:
        _LOCAL.inside = False
