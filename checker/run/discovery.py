"""Discovering a catalogue: import every module of its packages and collect what they declare.

:func:`discover` imports every module of a catalogue package; with isolation, each module is first
imported in a worker under a discharge's limits, so that one that raises, exits, crashes, hangs or
runs out of memory becomes a :class:`~checker.kernel.declaration.LoadError` and is never imported
into the checker's own process. The runner reports each load error as ``error`` while everything
else still runs.
"""

from __future__ import annotations

import importlib
import pkgutil
import traceback
from typing import Any, Callable, Sequence

from checker.kernel.declaration import _REGISTRY, _REJECTED, _WARNINGS, Catalogue, LoadError
from checker.kernel.errors import InvalidObligation, UsageError
from checker.kernel.model import DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT_S, Obligation


PROBE_JOB = "checker.run.discovery:probe_job"  # run by checker.run.workers, named by path
PROBE_FLOOR_S = 10.0  # the least time an isolated import is given, whatever the discharge limit


def _location_of(exc: BaseException, module: str) -> str:
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{exc.filename}:{exc.lineno}"
    frames = traceback.extract_tb(exc.__traceback__)
    mod_path = module.replace(".", "/")
    for frame in reversed(frames):
        if mod_path in frame.filename.replace("\\", "/"):
            return f"{frame.filename}:{frame.lineno}"
    return f"{frames[-1].filename}:{frames[-1].lineno}" if frames else module


def _module_names(package: str) -> list[str]:
    """The modules of ``package``, found on disk without importing any of them."""
    import importlib.util
    import os

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError) as exc:
        raise UsageError(f"cannot import the catalogue package {package!r}: {type(exc).__name__}: {exc}") from exc
    if spec is None:
        raise UsageError(f"cannot import the catalogue package {package!r}: no such package; is it on PYTHONPATH?")
    names = [package]
    todo = [(package, list(spec.submodule_search_locations or ()))]
    while todo:
        prefix, paths = todo.pop()
        for info in sorted(pkgutil.iter_modules(paths), key=lambda m: m.name):
            name = f"{prefix}.{info.name}"
            names.append(name)
            if info.ispkg:
                todo.append((name, [os.path.join(p, info.name) for p in paths if os.path.isdir(os.path.join(p, info.name))]))
    return [package] + sorted(names[1:])


def _load_error(name: str, exc: BaseException) -> LoadError:
    if isinstance(exc, InvalidObligation):
        message = str(exc)
    elif isinstance(exc, SystemExit):
        message = f"the module called sys.exit({exc.code!r}) while being imported; a catalogue module must not exit"
    else:
        message = f"{type(exc).__name__}: {exc}"
    return LoadError(name, message, _location_of(exc, name))


_READ: dict[tuple[str, str], tuple[Any, ...]] = {}  # (path, digest of the source) -> what reaches found there


def _reaches_once(source: str, path: str) -> tuple[Any, ...]:
    """:func:`checker.audit.reach.reaches` of ``source``, read once per process for each text a path
    has had (a process that discovers the catalogue again, as a test does, reads only what changed)."""
    import hashlib

    from checker.audit.reach import reaches

    key = (path, hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest())
    if key not in _READ:
        _READ[key] = tuple(reaches(source, path))
    return _READ[key]


def _reaching_modules(names: Sequence[str]) -> dict[str, tuple[str, str]]:
    """``{module: (message, location)}`` for the catalogue modules whose source reaches into the engine
    (:mod:`checker.audit.reach`): their obligations are not run."""
    import sys

    from checker.store.fingerprint import imports_in

    import ast

    out: dict[str, tuple[str, str]] = {}
    sources: dict[str, tuple[str, str]] = {}
    for name in names:
        path = getattr(sys.modules.get(name), "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            continue
        try:
            with open(path, encoding="utf-8") as fh:
                source = fh.read()
            found = _reaches_once(source, path)
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
            continue
        sources[name] = (path, source)
        if found:
            shown = "; ".join(f"line {r.line}: {r.what}" for r in found[:5]) + ("; …" if len(found) > 5 else "")
            out[name] = (f"the module reaches into the engine ({shown}): a fact is made only by the kernel's rules "
                         "and a verdict judged only by the engine's own functions — use the public API "
                         "(checker.claims, checker.backends.*, checker.kernel.verdicts) and do not patch it",
                         f"{path}:{found[0].line}")
    if not out:
        return out
    # a module importing one that reaches (a helper with no obligations of its own) reaches through it
    imports: dict[str, set[str]] = {}
    for name, (path, source) in sources.items():
        try:
            statements = [n for n in ast.walk(ast.parse(source, path)) if isinstance(n, (ast.Import, ast.ImportFrom))]
            imports[name] = imports_in(statements, path, name) & set(names)
        except (SyntaxError, ValueError):
            continue
    changed = True
    while changed:
        changed = False
        for name, deps in imports.items():
            through = sorted(d for d in deps if d in out and d != name)
            if name not in out and through:
                out[name] = (f"it imports {through[0]}, which reaches into the engine ({out[through[0]][0]})", out[through[0]][1])
                changed = True
    return out


def probe_job(send: Callable[[Any], None], names: Sequence[str]) -> None:
    """What a forked worker runs to see which modules import: one frame per module tried."""
    for name in names:
        send(["start", name])
        try:
            importlib.import_module(name)
        except BaseException as exc:  # noqa: BLE001 - exit, interrupt-like or any failure of the module
            err = _load_error(name, exc)
            send(["error", name, err.message, err.location])
        else:
            send(["ok", name])


def probe(names: Sequence[str], timeout_s: float, memory_mib: int) -> dict[str, LoadError]:
    """Import ``names`` in isolated workers, in order, under the limits of a discharge; the modules
    that did not import, each with why (an exception, an exit, a crash, a hang)."""
    import time

    from checker.run import workers

    failed: dict[str, LoadError] = {}
    todo = list(names)
    while todo:
        started = time.monotonic()
        finished = workers.run_job(PROBE_JOB, todo, timeout_s=timeout_s, memory_mib=memory_mib)
        answered: set[str] = set()
        current = None
        for frame in finished.frames:
            if not isinstance(frame, list) or not frame:
                continue
            if frame[0] == "start" and len(frame) == 2:
                current = frame[1]
            elif frame[0] == "ok" and len(frame) == 2:
                answered.add(frame[1])
                current = None
            elif frame[0] == "error" and len(frame) == 4:
                answered.add(frame[1])
                failed[frame[1]] = LoadError(frame[1], str(frame[2]), str(frame[3]))
                current = None
        if current is None:
            if all(n in answered for n in todo):
                break
            current = next(n for n in todo if n not in answered)
        if finished.killed == "timeout":
            why = f"importing it did not finish within the {timeout_s:g} s limit (the import was killed)"
        elif finished.killed == "memory":
            why = f"importing it exceeded the memory limit of {memory_mib} MiB"
        else:
            why = f"importing it ended the process ({finished.how})"
        spent = time.monotonic() - started
        failed[current] = LoadError(current, f"{why}; a catalogue module must import cleanly ({spent:.1f} s)", current)
        todo = todo[todo.index(current) + 1:]
    return failed


def _quiet_import(name: str) -> None:
    """Import ``name`` with fd 1/2 sent to /dev/null: what a module prints at import must not
    reach a report written to stdout."""
    import os
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    saved = []
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        for fd in (1, 2):
            saved.append((fd, os.dup(fd)))
            os.dup2(devnull, fd)
        os.close(devnull)
    except OSError:
        pass
    try:
        importlib.import_module(name)
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        for fd, copy in saved:
            os.dup2(copy, fd)
            os.close(copy)


def _cycles(obs: Sequence[Obligation]) -> list[list[str]]:
    """The ``uses`` cycles among ``obs`` (each once, as a path that returns to its start).
    Iterative: a depth-first walk on an explicit stack, so a chain of any depth is fine."""
    uses = {ob.id: [u for u in ob.uses] for ob in obs}
    state: dict[str, int] = {}
    stack: list[str] = []
    position: dict[str, int] = {}
    found: list[list[str]] = []
    for ob in obs:
        if ob.id in state:
            continue
        work = [(ob.id, 0)]
        state[ob.id] = 1
        position[ob.id] = len(stack)
        stack.append(ob.id)
        while work:
            x, i = work[-1]
            children = uses.get(x, ())
            if i < len(children):
                work[-1] = (x, i + 1)
                y = children[i]
                if y not in uses:
                    continue
                if state.get(y) == 1:
                    found.append(stack[position[y]:] + [y])
                elif y not in state:
                    state[y] = 1
                    position[y] = len(stack)
                    stack.append(y)
                    work.append((y, 0))
                continue
            work.pop()
            stack.pop()
            del position[x]
            state[x] = 2
    return found


def link_errors(obs: Sequence[Obligation]) -> list[LoadError]:
    """A ``uses`` link to an id none of ``obs`` has, and every ``uses`` cycle among them: checked
    over every catalogue of a run together, so a link to another catalogue of the run resolves."""
    errors: list[LoadError] = []
    known = {ob.id for ob in obs}
    for ob in obs:
        for dep in ob.uses:
            if dep not in known:
                errors.append(LoadError(ob.module, f"{ob.location}: obligation {ob.id!r} uses unknown id {dep!r}; fix the 'uses' list", ob.location))
    by_id = {ob.id: ob for ob in obs}
    for cycle in _cycles(obs):
        first = by_id[cycle[0]]
        errors.append(LoadError(first.module, f"{first.location}: the 'uses' links form a cycle {' → '.join(cycle)}; "
                                "a claim cannot rest on itself: break the cycle", first.location))
    return errors


def discover(package: str = "obligations", *, isolate: bool = True, timeout_s: float | None = None,
             memory_mib: int | None = None, on_probed: Callable[[list[str]], None] | None = None,
             check_links: bool = True) -> Catalogue:
    """Import every module of ``package`` and collect the obligations they declare.

    With ``isolate`` (the default) each module not yet imported here is first imported in an
    isolated worker under a discharge's limits: one that raises, exits, crashes, hangs or runs
    out of memory becomes a :class:`LoadError` and is not imported into this process.
    ``on_probed`` is then called with the modules that imported cleanly there, before this
    process imports them (a check sends them to the worker template, which imports the libraries
    they use meanwhile). ``check_links=False`` leaves the ``uses`` links to the caller, which
    checks several catalogues together (:func:`link_errors`)."""
    import sys


    names = _module_names(package)
    failed: dict[str, LoadError] = {}
    fresh = [n for n in names if n not in sys.modules]
    if isolate and fresh:
        # Importing a module is not a discharge: a short --timeout must not fail the import of a module that
        # takes a few seconds on a loaded machine; a hanging import is still stopped.
        failed = probe(fresh, max(timeout_s or DEFAULT_TIMEOUT_S, PROBE_FLOOR_S), memory_mib or DEFAULT_MEMORY_MIB)
        if on_probed is not None and package not in failed:
            on_probed([n for n in fresh if n not in failed])
    if package in failed:
        raise UsageError(f"cannot import the catalogue package {package!r}: {failed[package].message}")
    errors: list[LoadError] = []
    for name in names:
        if name in failed:
            errors.append(failed[name])
            continue
        try:
            _quiet_import(name)
        except BaseException as exc:  # noqa: BLE001 - a broken catalogue must not crash the checker
            if isinstance(exc, KeyboardInterrupt):
                raise
            if name == package:
                raise UsageError(f"cannot import the catalogue package {package!r}: {type(exc).__name__}: {exc}") from exc
            errors.append(_load_error(name, exc))
    prefix = package + "."

    def ours(module: str) -> bool:
        return module == package or module.startswith(prefix)

    obs = sorted((ob for ob in _REGISTRY.values() if ours(ob.module)), key=lambda o: o.id)
    reaching = _reaching_modules([n for n in names if n not in failed])
    if reaching:
        errors.extend(LoadError(ob.module, reaching[ob.module][0], reaching[ob.module][1], ob.id)
                      for ob in obs if ob.module in reaching)
        obs = [ob for ob in obs if ob.module not in reaching]
    known = {ob.id for ob in obs}
    for err in _REJECTED:
        if ours(err.module):
            # a rejected declaration keeps its id unless a valid one (or another rejected one) has it
            if err.subject in known:
                err = LoadError(err.module, err.message, err.location, f"<declaration {err.location}>")
            known.add(err.subject)
            errors.append(err)
    if check_links:
        errors.extend(link_errors(obs))
    return Catalogue(tuple(obs), tuple(errors), tuple(w for w in _WARNINGS if ours(w.module)))
