"""Do a claim's readings agree? A claim is written once and read by every backend; a claim whose code
branches on what it is given (an exact function at rational arguments, a piecewise form for z3) has two
formulas under one name, and a z3 proof of one says nothing of the other. At a few rational points of
its domains, the claim's truth in exact rationals and z3's simplification of its z3 reading must agree;
where they do not, z3 proved another statement than the one re-checks and witnesses are judged by.

The points are chosen deterministically from the claim's name (the same on every run), from a short list
of small rationals clipped to each variable's domain. A point where exact arithmetic has no value (a
pole, an irrational ``sqrt``) or z3 cannot read the claim is skipped: agreement is checked, never
assumed, and a claim with no checkable point is left alone.
"""

from __future__ import annotations

import random
import zlib
from fractions import Fraction
from typing import Any, Mapping

CANDIDATES = tuple(Fraction(x) for x in ("0", "1", "-1", "1/2", "-1/3", "2", "3/4", "5", "-7/2", "1/7", "10", "1/4", "3",
                                         "100", "-100", "1000", "1/1000", "1000000"))
POINTS = 6
NEAR = Fraction(1, 1024)
"""How far beside each of the claim's constants a point is also taken (a breakpoint placed differently
in another reading shows there)."""
MOST_CONSTANT_POINTS = 24


def _values(domain: Any, extra: tuple[Fraction, ...] = ()) -> list[Fraction]:
    inside = [x for x in (*CANDIDATES, *extra) if domain.contains(x)]
    lo, hi = domain.lower, domain.hi
    for bound in (lo, hi):
        if bound is not None and domain.contains(bound):
            inside.append(bound)
    if lo is not None and hi is not None:
        mid = (lo + hi) / 2
        if domain.contains(mid):
            inside.append(mid)
    if not inside and lo is not None:
        inside.append(lo if not domain.integral else Fraction(-((-lo.numerator) // lo.denominator)))
    return [x for x in dict.fromkeys(inside) if domain.contains(x)]


def constants_of(term: Any) -> tuple[Fraction, ...]:
    """The claim's constants and the midpoints between them (:func:`checker.backends.smt.constants_of`),
    and points :data:`NEAR` beside each constant."""
    from checker.backends.smt import constants_of as numerals

    found = numerals(term)
    ordered = sorted(set(found))
    return (*found, *(c + side * NEAR for c in ordered for side in (-1, 1)))


def sample_points(claim: Any, count: int = POINTS, extra: tuple[Fraction, ...] = ()) -> list[dict[str, Fraction]]:
    """``count`` points of ``claim``'s domains, the same for the same claim on every run: small rationals and
    ``extra`` values (the claim's own constants), each clipped to the variable's domain."""
    rng = random.Random(zlib.crc32(claim.name.encode("utf-8")))
    choices = {x: _values(claim.domain(x), extra) for x in claim.variables}
    if any(not values for values in choices.values()):
        return []
    at_constants = [{x: c if claim.domain(x).contains(c) else rng.choice(values) for x, values in choices.items()}
                    for c in extra[:MOST_CONSTANT_POINTS]]
    return at_constants + [{x: rng.choice(values) for x, values in choices.items()} for _ in range(count)]


def disagreement(claim: Any) -> str | None:
    """Where ``claim``'s exact reading and its z3 reading give different truth values: ``None`` when they
    agree at every checkable point of :func:`sample_points` (or none is checkable), else the point and
    both values."""
    from checker.backends import CannotDecide, exact
    from checker.backends.smt import Z3Ops, _z3

    z3 = _z3()
    ops = Z3Ops()
    symbols = {x: z3.Real(x) for x in claim.variables}
    try:
        # built once over symbols, then read at each point by substitution: the same reading as building it
        # over numerals (a claim's code cannot tell a symbol from a numeral: neither is a Python number)
        reading = ops._bool(claim.formula(ops, claim.env(symbols)))
    except Exception:  # noqa: BLE001 - no z3 reading of this claim (CannotDecide, …): nothing to compare
        return None
    for point in sample_points(claim, POINTS, constants_of(reading)):
        try:
            truth = claim.formula(exact.OPS, claim.env(point))
        except (CannotDecide, ArithmeticError, TypeError, ValueError, KeyError):
            continue
        if not isinstance(truth, bool):
            continue
        try:
            value = z3.simplify(z3.substitute(reading, *((symbols[x], z3.RealVal(v)) for x, v in point.items())))
        except Exception:  # noqa: BLE001 - a reading z3 cannot evaluate at a point decides nothing
            continue
        if not (z3.is_true(value) or z3.is_false(value)):
            continue
        if z3.is_true(value) != truth:
            shown = ", ".join(f"{k} = {v}" for k, v in point.items())
            return (f"at {shown} the claim is {'true' if truth else 'false'} in exact rationals but "
                    f"{'true' if z3.is_true(value) else 'false'} as z3 reads it")
    return None


SIZES = (1, 2)
"""A sized claim's readings are compared at these sizes (each size at its least value when that is larger)."""


def theorem_claims(theorem: Any) -> list[Any]:
    """The plain claims of a declared theorem whose readings can be compared: its claims, an existence's
    body, an instance's claim, and a claim for every size at its smallest sizes (:data:`SIZES`)."""
    out = []
    for t in theorem:
        inner = getattr(t, "body", None) or getattr(t, "claim", None) or t
        if hasattr(inner, "size_names"):
            out.extend(_at_small_sizes(inner))
        elif hasattr(inner, "formula") and hasattr(inner, "variables"):
            out.append(inner)
    return out


def _at_small_sizes(sized: Any) -> list[Any]:
    out = []
    for n in SIZES:
        try:
            out.append(sized.at(**{name: max(n, sized.least(name)) for name in sized.size_names}))
        except Exception:  # noqa: BLE001 - sizes the claim refuses: nothing to compare there
            continue
    return out
