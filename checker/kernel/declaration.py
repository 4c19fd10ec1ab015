"""Declaring obligations: the ``@obligation`` decorator and the table of declarations.

``@obligation(...)`` validates a declaration when it is made (pluggy's habit) and records it; a
rejected declaration is recorded too, as that obligation's :class:`LoadError`, and its module
goes on loading. Importing a catalogue's modules (and isolating the ones that fail) is
:mod:`checker.run.discovery`'s job.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from checker.kernel.claims import Claim
from checker.kernel.errors import InvalidObligation, UsageError
from checker.kernel.model import Discharge, Expect, Obligation, Source

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


def _backend_claim(value: Any) -> bool:
    """A claim another backend states and re-checks itself (a sympy limit): it has ``recheck`` and a
    ``subject`` (looked up on the class: building the subject may import the backend's library)."""
    return callable(getattr(value, "recheck", None)) and hasattr(type(value), "subject")


def _build_claims(claims: Sequence[Any] | Callable[[], Sequence[Any]]) -> tuple[Claim, ...]:
    """The declared claims, built now when given as a function (so that a claim failing to build
    is its obligation's error, not its module's)."""
    built = claims() if callable(claims) else claims
    from checker.kernel.existence import Existence, SomeInstance
    from checker.kernel.sized import SizedClaim

    if isinstance(built, (Claim, SizedClaim, Existence, SomeInstance)) or _backend_claim(built):
        built = (built,)
    out = tuple(built)
    for c in out:
        if not isinstance(c, (Claim, SizedClaim, Existence, SomeInstance)) and not _backend_claim(c):
            raise TypeError(f"claims must be checker.claims.Claim values (or a backend's claim, such as "
                            f"symbolic.limit_claim), got {type(c).__name__} ({c!r:.60})")
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
    theorem: Claim | Sequence[Claim] | Callable[[], Claim | Sequence[Claim]] = (),
    no_theorem: str = "",
) -> Callable[[Discharge], Discharge]:
    """Declare the decorated function as the discharge of an obligation.

    The function takes a :class:`checker.kernel.model.Context` and returns a
    :class:`checker.kernel.model.Verdict`. Its docstring must say what is claimed, where it comes
    from, any reconstruction, and why the method settles it. ``claims`` are the claims it
    settles (read by the audits), or a function returning them.

    ``theorem`` is the statement itself as a claim (or the conjunction of several): a ``proved``
    result must rest on a kernel fact about it (:mod:`checker.kernel.proof`), and a refutation's
    witness is re-checked against it, never against a lemma. Its claims are settled claims too.
    An obligation that expects ``holds`` or ``fails`` declares one; where the statement cannot be a
    claim (an expectation over noise, "there exist constants such that …"), ``no_theorem`` says why,
    and the ledger of a proof carries that reason. Neither, or both, is a declaration error that
    says what to change.

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
        try:
            stated = _build_claims(theorem)
        except Exception as exc:  # noqa: BLE001
            return reject(f"the theorem fails to build ({type(exc).__name__}: {exc})", "fix the theorem claim, or its builder")
        built = tuple(c for c in stated if isinstance(c, Claim)) + tuple(c for c in built if c not in stated)
        if not isinstance(no_theorem, str):
            return reject("no_theorem must be a string", "say in words why the statement is not a claim")
        if stated and no_theorem.strip():
            return reject("declares a theorem and a reason for having none (no_theorem)", "keep the theorem, drop no_theorem")
        if exp in (Expect.HOLDS, Expect.FAILS) and not stated and not no_theorem.strip():
            return reject(
                f"expects {exp.value!r} but declares no theorem, so no result could be checked against what it states",
                "state it as a claim (theorem=claim(name, 'x y', lambda o, v: ..., hypotheses={...}), sizes as "
                "'n:nat[1,]' and arrays for a statement about every size; docs/claims.md), or say why it cannot be "
                "one (no_theorem='...')")
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
            theorem=stated,
            no_theorem=" ".join(no_theorem.split()),
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
