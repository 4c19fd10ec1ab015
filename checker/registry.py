"""Declaring and discovering obligations.

``@obligation(...)`` validates a declaration when it is made (pluggy's habit) and records it; a
rejected declaration is recorded too, as that obligation's :class:`LoadError`, and its module
goes on loading. :func:`discover` imports every module of a catalogue package; a module that
fails to import (syntax error, import error, an exception at module level) becomes a
:class:`LoadError` as well. The runner reports each as ``error`` while everything else still runs.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from checker.claims import Claim
from checker.errors import InvalidObligation, UsageError
from checker.model import Discharge, Expect, Obligation, Source

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")

_REGISTRY: dict[str, Obligation] = {}
# Declarations rejected when made: each is that obligation's own error, and the rest of its
# module still loads and runs.
_REJECTED: list[LoadError] = []
_WARNINGS: list[DeclarationWarning] = []


def _where(fn: Callable[..., Any]) -> tuple[str, int]:
    code = getattr(fn, "__code__", None)
    if code is None:
        return "<unknown>", 0
    return code.co_filename, code.co_firstlineno


def _build_claims(claims: Sequence[Any] | Callable[[], Sequence[Any]]) -> tuple[Claim, ...]:
    """The declared claims, built now when given as a function (so that a claim failing to build
    is its obligation's error, not its module's)."""
    built = claims() if callable(claims) else claims
    if isinstance(built, Claim):
        built = (built,)
    out = tuple(built)
    for c in out:
        if not isinstance(c, Claim):
            raise TypeError(f"claims must be checker.claims.Claim values, got {type(c).__name__} ({c!r:.60})")
    return out


def obligation(
    *,
    id: str,
    source: Source | tuple[str, str],
    statement: str,
    scope: str,
    expect: Expect | str,
    lean: str | Sequence[str] = (),
    uses: Sequence[str] = (),
    slow: bool = False,
    claims: Sequence[Claim] | Callable[[], Sequence[Claim]] = (),
) -> Callable[[Discharge], Discharge]:
    """Declare the decorated function as the discharge of an obligation.

    The function takes a :class:`checker.model.Context` and returns a
    :class:`checker.model.Verdict`. Its docstring must say what is claimed, where it comes
    from, any reconstruction, and why the method settles it. ``claims`` are the claims it
    settles (read by the audits), or a function returning them.

    A declaration is validated when made. A malformed one (bad id, empty statement, a claim
    that fails to build, a duplicate id, …) is not registered: it becomes *that obligation's*
    ``error`` (``file:line: what is wrong; what to do``) and the rest of its module still runs.
    A discharge without a docstring is registered, with a :class:`DeclarationWarning` in the
    catalogue (``obligations`` prints it; the pytest plugin raises it as a Python warning).
    """

    def register(fn: Discharge) -> Discharge:
        file, line = _where(fn)
        at = f"{file}:{line}"
        module = getattr(fn, "__module__", None) or "<unknown>"
        subject = id if isinstance(id, str) and ID_PATTERN.match(id) and id not in _REGISTRY else f"<declaration {at}>"

        def reject(what: str, fix: str) -> Discharge:
            message = f"{at}: obligation {id!r}: {what}; {fix}"
            error = LoadError(module, message, at, subject)
            _REJECTED.append(error)
            try:
                fn.declaration_error = error  # type: ignore[attr-defined]
            except (AttributeError, TypeError):
                pass
            return fn

        if not callable(fn):
            return reject("@obligation must decorate a function", "put it on the discharge function (def f(ctx): ...)")
        if not isinstance(id, str) or not ID_PATTERN.match(id):
            return reject("id is not a dotted lower-case name", "use e.g. 'psy01a.margin_two_lipschitz'")
        src = Source(*source) if isinstance(source, tuple) and len(source) == 2 else source
        if not isinstance(src, Source) or not src.file.strip() or not src.label.strip():
            return reject("source needs a document file name and a label", "pass Source('000_….txt', 'Theorem 2')")
        for field_name, value in (("statement", statement), ("scope", scope)):
            if not isinstance(value, str) or not value.strip():
                return reject(f"{field_name} is missing or empty", f"say the {field_name} in one sentence")
        try:
            exp = expect if isinstance(expect, Expect) else Expect(expect)
        except ValueError:
            return reject(f"expect={expect!r} is not one of holds/fails/open", "use Expect.HOLDS, Expect.FAILS or Expect.OPEN")
        lean_refs = (lean,) if isinstance(lean, str) else tuple(lean)
        if not all(isinstance(x, str) and x for x in lean_refs):
            return reject("lean refs must be non-empty strings", "name the declaration, e.g. 'Psy01A.margin_two_lipschitz'")
        if isinstance(uses, str) or not all(isinstance(u, str) for u in uses):
            return reject("uses must be a list of obligation ids", "list the ids this obligation depends on")
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            params = {}
        if len(params) != 1:
            return reject("the discharge function must take exactly one argument (the Context)", "define it as def f(ctx): ...")
        if id in _REGISTRY:
            first = _REGISTRY[id]
            return reject(f"duplicate id, first declared at {first.location}", "give each obligation its own id")
        try:
            built = _build_claims(claims)
        except Exception as exc:  # noqa: BLE001 - a claim that fails to build breaks only this obligation
            return reject(f"a claim fails to build ({type(exc).__name__}: {exc})", "fix the claim, or its builder")
        if not (fn.__doc__ or "").strip():
            warning = DeclarationWarning(
                module, at, id,
                f"{at}: obligation {id!r}: the discharge function has no docstring; "
                "say what is claimed, where from, and why the method settles it")
            _WARNINGS.append(warning)  # shown by discover()'s callers, once, not in every worker
        ob = Obligation(
            id=id,
            source=src,
            statement=" ".join(statement.split()),
            scope=" ".join(scope.split()),
            expect=exp,
            discharge=fn,
            lean=lean_refs,
            uses=tuple(uses),
            slow=bool(slow),
            claims=built,
            module=module,
            file=file,
            line=line,
        )
        _REGISTRY[id] = ob
        fn.obligation = ob  # type: ignore[attr-defined]
        return fn

    return register


@dataclass(frozen=True, slots=True)
class LoadError:
    """A catalogue module that could not be imported, or one declaration in it that was
    rejected (then ``subject`` is that obligation's id, or ``<declaration file:line>``)."""

    module: str
    message: str
    location: str
    subject: str = ""

    @property
    def id(self) -> str:
        return self.subject or f"<module {self.module}>"


@dataclass(frozen=True, slots=True)
class DeclarationWarning:
    """A declaration accepted with a shortcoming the user should fix."""

    module: str
    location: str
    obligation: str
    message: str


@dataclass(frozen=True, slots=True)
class Catalogue:
    obligations: tuple[Obligation, ...]
    errors: tuple[LoadError, ...]
    warnings: tuple[DeclarationWarning, ...] = ()

    def by_id(self, id: str) -> Obligation:
        for ob in self.obligations:
            if ob.id == id:
                return ob
        for err in self.errors:
            if err.id == id:
                raise UsageError(f"{id!r} was not declared: {err.message}")
        raise UsageError(f"no obligation with id {id!r}; run 'obligations list' to see them")

    def select(self, patterns: Iterable[str], include_slow: bool = True) -> tuple[Obligation, ...]:
        """Obligations whose id starts with any pattern (all when none is given). A pattern that
        matches only a rejected declaration (:meth:`errors_for`) is not an unknown pattern."""
        pats = list(patterns)
        chosen = [ob for ob in self.obligations if not pats or any(_matches(ob.id, p) for p in pats)]
        ids = [ob.id for ob in self.obligations] + [e.id for e in self.errors]
        unmatched = [p for p in pats if not any(_matches(i, p) for i in ids)]
        if unmatched:
            raise UsageError(
                f"no obligation id starts with {', '.join(repr(p) for p in unmatched)}; "
                "run 'obligations list' to see the ids"
            )
        return tuple(ob for ob in chosen if include_slow or not ob.slow)

    def errors_for(self, patterns: Iterable[str]) -> tuple[LoadError, ...]:
        """Every error of a whole-catalogue run; with patterns, the rejected declarations whose
        id they match, and every module that did not import (it may have held obligations the
        patterns select, so a run with a broken module never passes)."""
        pats = list(patterns)
        if not pats:
            return self.errors
        return tuple(e for e in self.errors if not e.subject or any(_matches(e.id, p) for p in pats))


def _matches(id: str, pattern: str) -> bool:
    return id == pattern or id.startswith(pattern)


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

    from checker import workers

    failed: dict[str, LoadError] = {}
    todo = list(names)
    while todo:
        started = time.monotonic()
        finished = workers.run_job("probe", todo, timeout_s=timeout_s, memory_mib=memory_mib)
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
    """The ``uses`` cycles among ``obs`` (each once, as a path that returns to its start)."""
    uses = {ob.id: [u for u in ob.uses] for ob in obs}
    state: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(x: str) -> None:
        state[x] = 1
        stack.append(x)
        for y in uses.get(x, ()):
            if y not in uses:
                continue
            if state.get(y) == 1:
                found.append(stack[stack.index(y):] + [y])
            elif y not in state:
                visit(y)
        stack.pop()
        state[x] = 2

    for ob in obs:
        if ob.id not in state:
            visit(ob.id)
    return found


def discover(package: str = "obligations", *, isolate: bool = True, timeout_s: float | None = None,
             memory_mib: int | None = None, on_probed: Callable[[list[str]], None] | None = None) -> Catalogue:
    """Import every module of ``package`` and collect the obligations they declare.

    With ``isolate`` (the default) each module not yet imported here is first imported in an
    isolated worker under a discharge's limits: one that raises, exits, crashes, hangs or runs
    out of memory becomes a :class:`LoadError` and is not imported into this process.
    ``on_probed`` is then called with the modules that imported cleanly there, before this
    process imports them (a check sends them to the worker template, which imports them
    meanwhile)."""
    import sys

    from checker.runner import DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT_S

    names = _module_names(package)
    failed: dict[str, LoadError] = {}
    fresh = [n for n in names if n not in sys.modules]
    if isolate and fresh:
        failed = probe(fresh, timeout_s or DEFAULT_TIMEOUT_S, memory_mib or DEFAULT_MEMORY_MIB)
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
    known = {ob.id for ob in obs}
    for err in _REJECTED:
        if ours(err.module):
            # a rejected declaration keeps its id unless a valid one (or another rejected one) has it
            if err.subject in known:
                err = LoadError(err.module, err.message, err.location, f"<declaration {err.location}>")
            known.add(err.subject)
            errors.append(err)
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
    return Catalogue(tuple(obs), tuple(errors), tuple(w for w in _WARNINGS if ours(w.module)))
