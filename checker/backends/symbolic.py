"""sympy: identities, derivatives, limits and exact algebraic numbers.

A symbolic step proves only when sympy *reduces* the question to ``0`` / ``True``; when
it cannot, the answer is ``unknown`` with what it got. Every step records what was
simplified to what.
"""

from __future__ import annotations

from typing import Any

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
