"""sympy: identities, derivatives, limits and exact algebraic numbers.

A symbolic step proves only when sympy *reduces* the question to ``0`` / ``True``; when
it cannot, the answer is ``unknown`` with what it got. Every step records what was
simplified to what.
"""

from __future__ import annotations

from typing import Any, Callable

from checker.model import Grade, Step, Verdict
from checker.verdicts import proved, timed, unknown

NAME = "symbolic"


def sympy():
    import sympy as sp

    return sp


def version() -> str:
    return f"sympy {sympy().__version__}"


def zero_step(expr: Any, what: str) -> tuple[bool, Step]:
    """Does ``expr`` simplify to exactly 0? The step records the simplified form."""
    sp = sympy()
    with timed() as t:
        simplified = sp.simplify(sp.expand(expr))
        ok = simplified == 0
        step = t.step(NAME, version(), f"simplify: {what}", "0" if ok else f"{simplified}",
                      expression=sp.sstr(expr), simplified=sp.sstr(simplified))
    return ok, step


def rational_zero_step(expr: Any, what: str, fallback: Callable[[], tuple[bool, Step]] | None = None) -> tuple[bool, Step]:
    """Is ``expr`` identically 0 as a rational function of its atoms (symbols, and any function
    application such as ``exp(·)`` taken as an independent indeterminate)?

    Decided by exact arithmetic in the field of fractions ℚ(atoms) (sympy's ``sfield``): the
    normal form there is 0 exactly when the expression is 0 wherever it is defined, whatever
    values the atoms take, so this is an exact identity, not a heuristic. Much faster than
    bringing the expression over one denominator and calling ``simplify`` on its numerator. When
    the field does not give 0 (relations between the atoms, say exp(2a) = exp(a)², are invisible
    to it) or the coefficients are not exact, the answer is ``fallback()`` (default
    :func:`zero_step` on ``expr``)."""
    sp = sympy()
    with timed() as t:
        try:
            field, element = sp.polys.fields.sfield(expr)
            exact = field.domain.is_Exact
        except (sp.PolynomialError, sp.polys.polyerrors.PolificationFailed, ValueError, TypeError):
            exact, element = False, None
        ok = exact and element == 0
        if ok:
            step = t.step(NAME, version(), f"rational-function identity: {what}", "0", expression=sp.sstr(expr),
                          normal_form="0", field=str(field))
    if ok:
        return ok, step
    return fallback() if fallback is not None else zero_step(expr, what)


def true_step(relation: Any, what: str) -> tuple[bool, Step]:
    """Does sympy evaluate ``relation`` (a relational or boolean) to ``True``?"""
    sp = sympy()
    with timed() as t:
        value = sp.simplify(relation)
        ok = value is sp.true or value is True
        step = t.step(NAME, version(), f"decide: {what}", "True" if ok else f"{value}",
                      relation=sp.sstr(relation), value=sp.sstr(value))
    return ok, step


def conclude(method: str, checks: list[tuple[bool, Step]], **data: Any) -> Verdict:
    """``proved`` if every step reduced to true/0, else ``unknown`` naming those that did not."""
    steps = [s for _, s in checks]
    failed = [s.action for ok, s in checks if not ok]
    if failed:
        return unknown(method, "sympy could not reduce: " + "; ".join(failed), *steps, **data)
    return proved(method, *steps, grade=Grade.UNIVERSAL, **data)
