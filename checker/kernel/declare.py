"""What a catalogue declares next to its obligations, beyond ``@obligation`` itself.

These are *hints*: they change nothing a claim states or how it is discharged. The audits read
them (:mod:`checker.audit.audits`), and so may any other tool; declaring them needs nothing but this
module, so catalogue modules stay cheap to import::

    from checker.kernel.declare import declare_bound, declare_widths

- :func:`declare_bound` — the claim's conclusion is ``lhs ≤ c·rhs`` over two of its named terms
  (the tightness audit lowers ``c``);
- :func:`declare_widths` — several claims are one statement at several widths (a refutation is
  moved to the smallest refuted width before it is shrunk).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping

from checker.kernel.claims import Claim

__all__ = ["Bound", "bound_of", "declare_bound", "declare_widths", "width_family_of"]


@dataclass(frozen=True, slots=True)
class Bound:
    """The conclusion of a claim is ``lhs ≤ constant · rhs`` for two of its named terms."""

    lhs: str
    rhs: str
    constant: Fraction = Fraction(1)


_BOUNDS: dict[str, Bound] = {}
_FAMILIES: dict[str, tuple[tuple[int, Claim], ...]] = {}


def declare_bound(claims: Claim | Iterable[Claim], lhs: str, rhs: str, constant: int | Fraction = 1) -> None:
    """Mark ``claims`` as bounds ``lhs ≤ constant·rhs`` over their named terms (for the
    tightness audit). Declarative only: it changes nothing the claims state."""
    for c in (claims,) if isinstance(claims, Claim) else tuple(claims):
        names = {t.name for t in c.terms}
        missing = [x for x in (lhs, rhs) if x not in names]
        if missing:
            raise ValueError(f"claim {c.name!r} has no term {', '.join(map(repr, missing))} (terms: {', '.join(sorted(names))})")
        _BOUNDS[c.name] = Bound(lhs, rhs, Fraction(constant))


def declare_widths(claims_by_width: Mapping[int, Claim]) -> None:
    """Mark claims as one statement at several widths (for shrinking a refutation to the smallest
    width that is also refuted). Declarative only."""
    family = tuple(sorted(claims_by_width.items(), key=lambda item: item[0]))
    for _, c in family:
        _FAMILIES[c.name] = family


def bound_of(c: Claim) -> Bound | None:
    """The declared bound of a claim; a claim with terms ``deviation`` and ``bound`` is the
    bound ``deviation ≤ bound`` unless declared otherwise."""
    if c.name in _BOUNDS:
        return _BOUNDS[c.name]
    names = {t.name for t in c.terms}
    if {"deviation", "bound"} <= names:
        return Bound("deviation", "bound")
    return None


def width_family_of(c: Claim) -> tuple[tuple[int, Claim], ...]:
    """The ``(width, claim)`` family declared with :func:`declare_widths` that ``c`` belongs to
    (sorted by width), or ``()``."""
    return _FAMILIES.get(c.name, ())
