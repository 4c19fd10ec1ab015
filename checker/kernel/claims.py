"""Claims written once and interpreted by every backend.

A :class:`Claim` is ``for all variables: hypotheses ⇒ conclusion`` over the reals, each part a
Python function ``(o, v) -> formula`` where ``o`` is a backend's *ops* namespace and ``v``
gives the variables by attribute. Arithmetic uses Python operators (``+ - * /`` work on
Fractions, z3 terms, intervals and numpy arrays alike); everything else goes through ``o``:

``o.relu o.abs o.max o.min o.ite o.sqrt o.q(num, den)``, ``o.floor o.ceil`` (exact in every
backend; z3 via ``ToInt``), ``o.pow(x, n)`` (integer ``n``), ``o.exp o.log`` (rigorous in the
interval backend, floats in sampling, sympy functions symbolically; exact rationals and z3 cannot
evaluate them and say so), and the comparisons and connectives
``o.le o.lt o.ge o.gt o.eq o.ne o.and_ o.or_ o.not_ o.implies``.

Variables are real unless typed: ``"N:nat K:int d:real[0,1] f:real[0,]"`` (or ``domains=``)
declares integers, naturals (integers ≥ 0) and closed bounds. A domain is part of the
quantifier, not a hypothesis: z3 gives integers the ``Int`` sort, sampling and shrinking stay
inside the domain, and the exact re-check rejects a witness outside it.

A claim over *derived* quantities (norms of a vector, weights of a network) names them with
``derived=`` and provides a ``realiser``: from a witness it builds the concrete objects and
recomputes the variables from them. A refutation of such a claim is reported only when the
realiser succeeds and the recomputed values are the witness; otherwise the answer is
``unknown`` with the reason (no realiser, or :class:`Unrealisable`).

Hypotheses are named parts so that later audits (vacuity, necessity) can drop or test them.
``terms`` are named real-valued expressions evaluated exactly at a witness and shown in its
certificate (e.g. ``deviation`` and ``bound``).
"""

from __future__ import annotations

import re

import enum
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping

Formula = Callable[[Any, "Env"], Any]


class Kind(enum.Enum):
    """What values a variable ranges over."""

    REAL = "real"
    INTEGER = "int"
    NATURAL = "nat"


@dataclass(frozen=True, slots=True)
class Domain:
    """A variable's range: a kind and optional closed bounds (``None``: unbounded)."""

    kind: Kind = Kind.REAL
    lo: Fraction | None = None
    hi: Fraction | None = None

    @property
    def integral(self) -> bool:
        return self.kind is not Kind.REAL

    @property
    def lower(self) -> Fraction | None:
        """The effective lower bound (naturals start at 0)."""
        if self.kind is Kind.NATURAL:
            return Fraction(0) if self.lo is None else max(self.lo, Fraction(0))
        return self.lo

    def contains(self, x: Fraction) -> bool:
        if self.integral and x.denominator != 1:
            return False
        lo, hi = self.lower, self.hi
        return (lo is None or x >= lo) and (hi is None or x <= hi)

    def why_not(self, x: Fraction) -> str | None:
        """``None`` when ``x`` is in the domain, else what is wrong."""
        if self.integral and x.denominator != 1:
            return f"{x} is not an integer"
        if self.lower is not None and x < self.lower:
            return f"{x} < {self.lower}"
        if self.hi is not None and x > self.hi:
            return f"{x} > {self.hi}"
        return None

    def describe(self) -> str:
        base = {Kind.REAL: "ℝ", Kind.INTEGER: "ℤ", Kind.NATURAL: "ℕ"}[self.kind]
        if self.lo is None and self.hi is None:
            return base
        lo = "" if self.lo is None else str(self.lo)
        hi = "" if self.hi is None else str(self.hi)
        return f"{base}[{lo},{hi}]"


REAL = Domain()


def real(lo: Any = None, hi: Any = None) -> Domain:
    return Domain(Kind.REAL, _bound(lo), _bound(hi))


def integer(lo: Any = None, hi: Any = None) -> Domain:
    return Domain(Kind.INTEGER, _bound(lo), _bound(hi))


def natural(lo: Any = None, hi: Any = None) -> Domain:
    return Domain(Kind.NATURAL, _bound(lo), _bound(hi))


def _bound(x: Any) -> Fraction | None:
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, (int, Fraction, str)):
        raise TypeError(f"a domain bound must be an int, a Fraction or a string, got {x!r}")
    return Fraction(x)


_TOKEN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?::(real|int|nat)(?:\[([^,\]]*),([^,\]]*)\])?)?$")


def parse_variable(token: str) -> tuple[str, Domain]:
    """``"N"`` → (N, ℝ); ``"N:nat"``; ``"K:int[1,]"``; ``"d:real[0,1]"`` (closed bounds, either may be empty)."""
    m = _TOKEN.match(token)
    if not m:
        raise ValueError(f"cannot read variable {token!r}; write name, name:real|int|nat, or name:int[lo,hi]")
    name, kind, lo, hi = m.groups()
    if kind is None:
        return name, REAL
    return name, Domain(Kind(kind), _bound(lo.strip()) if lo and lo.strip() else None,
                        _bound(hi.strip()) if hi and hi.strip() else None)


class Unrealisable(Exception):
    """A realiser cannot build objects with the witness's values (e.g. ‖g‖₁ = 0 with ‖g‖₂² = 2)."""


@dataclass(frozen=True, slots=True)
class Realisation:
    """Concrete objects built from a witness, and the claim's variables recomputed from them."""

    objects: Mapping[str, str]
    values: Mapping[str, Fraction]


Realiser = Callable[[Mapping[str, Fraction]], Realisation]


class Env:
    """Variable values by attribute (``v.s``) or by name (``v["s"]``)."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_values", dict(values))

    def _undeclared(self, name: str) -> str:
        return f"claim uses variable {name!r}, which it does not declare (declared: {', '.join(self._values) or 'none'})"

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(self._undeclared(name)) from None

    def __getitem__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise KeyError(self._undeclared(name)) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Env is read-only")


@dataclass(frozen=True, slots=True)
class Part:
    """A named piece of a claim: a hypothesis, or a real-valued term."""

    name: str
    formula: Formula


@dataclass(frozen=True, slots=True)
class Claim:
    """``∀ variables. ∧ hypotheses ⇒ conclusion`` (or ``∃`` when used as a witness claim)."""

    name: str
    variables: tuple[str, ...]
    conclusion: Formula
    hypotheses: tuple[Part, ...] = ()
    terms: tuple[Part, ...] = ()
    domains: tuple[Domain, ...] = ()
    derived: str = ""
    realiser: Realiser | None = field(default=None, compare=False)

    def domain(self, name: str) -> Domain:
        """The declared domain of a variable (real when none is declared)."""
        if not self.domains:
            return REAL
        return self.domains[self.variables.index(name)]

    @property
    def typed(self) -> bool:
        return any(d != REAL for d in self.domains)

    def describe_domains(self) -> dict[str, str]:
        return {x: self.domain(x).describe() for x in self.variables}

    def derive(self, name: str, **changes: Any) -> Claim:
        """A claim built from this one (same variables, domains and realiser) with some parts replaced."""
        return replace(self, name=name, **changes)

    def env(self, values: Mapping[str, Any]) -> Env:
        missing = [x for x in self.variables if x not in values]
        if missing:
            raise ValueError(f"claim {self.name!r}: no value for {', '.join(missing)}")
        return Env({x: values[x] for x in self.variables})

    def hypothesis_values(self, o: Any, v: Env) -> dict[str, Any]:
        return {h.name: h.formula(o, v) for h in self.hypotheses}

    def premise(self, o: Any, v: Env) -> Any:
        """The conjunction of all hypotheses (true when there are none)."""
        return o.and_(*(h.formula(o, v) for h in self.hypotheses))

    def formula(self, o: Any, v: Env) -> Any:
        """The whole implication ``premise ⇒ conclusion``."""
        if not self.hypotheses:
            return self.conclusion(o, v)
        return o.implies(self.premise(o, v), self.conclusion(o, v))

    def term_values(self, o: Any, v: Env) -> dict[str, Any]:
        return {t.name: t.formula(o, v) for t in self.terms}

    def without(self, hypothesis: str) -> Claim:
        """The same claim with one hypothesis dropped (for necessity audits)."""
        kept = tuple(h for h in self.hypotheses if h.name != hypothesis)
        if len(kept) == len(self.hypotheses):
            raise KeyError(f"claim {self.name!r} has no hypothesis {hypothesis!r}")
        return self.derive(f"{self.name}-without-{hypothesis}", hypotheses=kept)


def claim(
    name: str,
    variables: str | Iterable[str],
    conclusion: Formula,
    hypotheses: Mapping[str, Formula] | None = None,
    terms: Mapping[str, Formula] | None = None,
    *,
    domains: Mapping[str, Domain] | None = None,
    derived: str = "",
    realiser: Realiser | None = None,
) -> Claim:
    """Build a :class:`Claim`; ``variables`` may be a space-separated string of typed names
    (``"N:nat d:real[0,1]"``); ``domains`` types them by name instead."""
    tokens = tuple(variables.split()) if isinstance(variables, str) else tuple(variables)
    parsed = [parse_variable(t) for t in tokens]
    names = tuple(n for n, _ in parsed)
    if len(set(names)) != len(names):
        raise ValueError(f"claim {name!r}: a variable is declared twice in {names}")
    by_name = dict(parsed)
    for var, dom in (domains or {}).items():
        if var not in by_name:
            raise ValueError(f"claim {name!r}: domain for {var!r}, which is not a variable (variables: {', '.join(names)})")
        if not isinstance(dom, Domain):
            raise TypeError(f"claim {name!r}: the domain of {var!r} must be a Domain (use real(), integer(), natural())")
        by_name[var] = dom
    for var, dom in by_name.items():
        lo, hi = dom.lower, dom.hi
        if lo is not None and hi is not None and lo > hi:
            raise ValueError(f"claim {name!r}: the domain of {var!r} is empty ({dom.describe()})")
    doms = tuple(by_name[n] for n in names)
    return Claim(
        name=name,
        variables=names,
        conclusion=conclusion,
        hypotheses=tuple(Part(k, f) for k, f in (hypotheses or {}).items()),
        terms=tuple(Part(k, f) for k, f in (terms or {}).items()),
        domains=doms if any(d != REAL for d in doms) else (),
        derived=derived,
        realiser=realiser,
    )
