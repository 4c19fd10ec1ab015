"""What a witness must be: exact numbers, inside the declared domains, realised by real objects.

A refutation's witness counts only if it satisfies every declared domain (integers are integers)
and, for a claim over derived quantities, is realised by concrete objects whose recomputed values
are the witness. These rules are shared by every backend that confirms a counterexample (exact
rationals, rigorous intervals) and by the printer of claims, which reads constants exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Mapping

from checker.kernel.claims import Claim, Realisation, Unrealisable


def fmt(value: Any) -> str:
    """An exact value as a short, re-readable string (``"201"``, ``"-3/2"``)."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def fmt_map(values: Mapping[str, Any]) -> dict[str, str]:
    return {k: fmt(v) for k, v in values.items()}


def to_fraction(value: Any) -> Fraction:
    """An exact rational from an int, a float (exactly its binary value), a string or a Fraction."""
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} has no exact rational value")
        return Fraction(value)
    if isinstance(value, str):
        return Fraction(value.strip())
    if hasattr(value, "item"):  # numpy scalar
        return to_fraction(value.item())
    raise TypeError(f"cannot read {value!r} ({type(value).__name__}) as an exact rational")


def domain_violations(claim: Claim, point: Mapping[str, Fraction]) -> dict[str, str]:
    """The variables of ``point`` outside their declared domains, with what is wrong."""
    out = {}
    for name in claim.variables:
        why = claim.domain(name).why_not(point[name])
        if why is not None:
            out[name] = f"{why} (declared {claim.domain(name).describe()})"
    return out


def realise(claim: Claim, point: Mapping[str, Fraction]) -> tuple[Mapping[str, str] | None, str]:
    """Build the objects a witness of a claim over derived quantities stands for; ``(objects, "")``
    when they exist and reproduce the witness, else ``(None, reason)``."""
    if claim.realiser is None:
        if claim.derived:
            return None, (f"the claim is over derived quantities ({claim.derived}) and has no realiser: the witness may "
                          "not be realised by any object")
        return {}, ""
    try:
        r = claim.realiser(dict(point))
    except Unrealisable as why:
        return None, f"no object realises the witness: {why}"
    if not isinstance(r, Realisation):
        raise TypeError(f"the realiser of {claim.name!r} returned {type(r).__name__}, not a Realisation")
    mismatched = {k: (fmt_map({"w": point[k]})["w"], fmt_map({"r": to_fraction(x)})["r"])
                  for k, x in r.values.items() if k in point and to_fraction(x) != point[k]}
    if mismatched:
        return None, "the realised objects give other values than the witness: " + ", ".join(
            f"{k} = {b} (witness {a})" for k, (a, b) in mismatched.items())
    return dict(r.objects), ""
