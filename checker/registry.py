"""Declaring and discovering obligations.

``@obligation(...)`` validates a declaration when it is made (pluggy's habit) and records it.
:func:`discover` imports every module of a catalogue package; a module that fails to import
(syntax error, import error, a rejected declaration) becomes a :class:`LoadError` that the
runner reports as ``error`` while everything else still runs.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from checker.errors import InvalidObligation, UsageError
from checker.model import Discharge, Expect, Obligation, Source

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")

_REGISTRY: dict[str, Obligation] = {}


def _where(fn: Callable[..., Any]) -> tuple[str, int]:
    code = getattr(fn, "__code__", None)
    if code is None:
        return "<unknown>", 0
    return code.co_filename, code.co_firstlineno


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
    claims: Sequence[Any] = (),
) -> Callable[[Discharge], Discharge]:
    """Declare the decorated function as the discharge of an obligation.

    The function takes a :class:`checker.model.Context` and returns a
    :class:`checker.model.Verdict`. Its docstring must say what is claimed, where it comes
    from, any reconstruction, and why the method settles it.
    """

    def register(fn: Discharge) -> Discharge:
        file, line = _where(fn)
        at = f"{file}:{line}"

        def bad(what: str, fix: str) -> InvalidObligation:
            return InvalidObligation(f"{at}: obligation {id!r}: {what}; {fix}")

        if not callable(fn):
            raise InvalidObligation(f"{at}: @obligation must decorate a function")
        if not isinstance(id, str) or not ID_PATTERN.match(id):
            raise bad("id is not a dotted lower-case name", "use e.g. 'psy01a.margin_two_lipschitz'")
        src = Source(*source) if isinstance(source, tuple) else source
        if not isinstance(src, Source) or not src.file.strip() or not src.label.strip():
            raise bad("source needs a document file name and a label", "pass Source('000_….txt', 'Theorem 2')")
        for field_name, value in (("statement", statement), ("scope", scope)):
            if not isinstance(value, str) or not value.strip():
                raise bad(f"{field_name} is missing or empty", f"say the {field_name} in one sentence")
        try:
            exp = expect if isinstance(expect, Expect) else Expect(expect)
        except ValueError:
            raise bad(f"expect={expect!r} is not one of holds/fails/open", "use Expect.HOLDS, Expect.FAILS or Expect.OPEN") from None
        lean_refs = (lean,) if isinstance(lean, str) else tuple(lean)
        if not all(isinstance(x, str) and x for x in lean_refs):
            raise bad("lean refs must be non-empty strings", "name the declaration, e.g. 'Psy01A.margin_two_lipschitz'")
        if not all(isinstance(u, str) for u in uses):
            raise bad("uses must be obligation ids", "list the ids this obligation depends on")
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            params = {}
        if len(params) != 1:
            raise bad("the discharge function must take exactly one argument (the Context)", "define it as def f(ctx): ...")
        if not (fn.__doc__ or "").strip():
            raise bad("the discharge function has no docstring", "say what is claimed, where from, and why the method settles it")
        if id in _REGISTRY:
            first = _REGISTRY[id]
            raise bad(f"duplicate id, first declared at {first.location}", "give each obligation its own id")
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
            claims=tuple(claims),
            module=fn.__module__,
            file=file,
            line=line,
        )
        _REGISTRY[id] = ob
        fn.obligation = ob  # type: ignore[attr-defined]
        return fn

    return register


@dataclass(frozen=True, slots=True)
class LoadError:
    """A catalogue module that could not be imported."""

    module: str
    message: str
    location: str

    @property
    def id(self) -> str:
        return f"<module {self.module}>"


@dataclass(frozen=True, slots=True)
class Catalogue:
    obligations: tuple[Obligation, ...]
    errors: tuple[LoadError, ...]

    def by_id(self, id: str) -> Obligation:
        for ob in self.obligations:
            if ob.id == id:
                return ob
        raise UsageError(f"no obligation with id {id!r}; run 'obligations list' to see them")

    def select(self, patterns: Iterable[str], include_slow: bool = True) -> tuple[Obligation, ...]:
        """Obligations whose id starts with any pattern (all when none is given)."""
        pats = list(patterns)
        chosen = [ob for ob in self.obligations if not pats or any(_matches(ob.id, p) for p in pats)]
        unmatched = [p for p in pats if not any(_matches(ob.id, p) for ob in self.obligations)]
        if unmatched:
            raise UsageError(
                f"no obligation id starts with {', '.join(repr(p) for p in unmatched)}; "
                "run 'obligations list' to see the ids"
            )
        return tuple(ob for ob in chosen if include_slow or not ob.slow)


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


def discover(package: str = "obligations") -> Catalogue:
    """Import every module of ``package`` and collect the obligations they declare."""
    errors: list[LoadError] = []
    try:
        pkg = importlib.import_module(package)
    except Exception as exc:  # noqa: BLE001 - a broken catalogue must not crash the checker
        raise UsageError(f"cannot import the catalogue package {package!r}: {type(exc).__name__}: {exc}") from exc
    module_names = [package]
    if hasattr(pkg, "__path__"):
        module_names += sorted(
            m.name for m in pkgutil.walk_packages(pkg.__path__, prefix=f"{package}.", onerror=lambda name: None)
        )
    for name in module_names:
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001
            message = str(exc) if isinstance(exc, InvalidObligation) else f"{type(exc).__name__}: {exc}"
            errors.append(LoadError(name, message, _location_of(exc, name)))
    prefix = package + "."
    obs = sorted((ob for ob in _REGISTRY.values() if ob.module == package or ob.module.startswith(prefix)), key=lambda o: o.id)
    known = {ob.id for ob in obs}
    for ob in obs:
        for dep in ob.uses:
            if dep not in known:
                errors.append(LoadError(ob.module, f"{ob.location}: obligation {ob.id!r} uses unknown id {dep!r}; fix the 'uses' list", ob.location))
    return Catalogue(tuple(obs), tuple(errors))
