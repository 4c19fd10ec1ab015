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

from checker.kernel.errors import ClaimMisuse

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


# ------------------------------------------------------------------ misuse of Python on terms

_BUILTIN_ADVICE = (
    (re.compile(r"(?<![\w.])max\s*\("), "Python's max() compares claim terms with >, which has no truth value "
     "in z3 or intervals: write o.max(a, b, …)"),
    (re.compile(r"(?<![\w.])min\s*\("), "Python's min() compares claim terms with <, which has no truth value "
     "in z3 or intervals: write o.min(a, b, …)"),
    (re.compile(r"(?<![\w.])sorted\s*\("), "sorted() compares claim terms: use o.max / o.min"),
    (re.compile(r"^\s*(if|elif|while)\b|\bif\b.*\belse\b"), "an if on a claim term has no truth value in z3 or "
     "intervals: write o.ite(condition, a, b), the condition with o.le/o.lt/…"),
    (re.compile(r"\b(and|or|not)\b"), "Python's and/or/not on claim formulas: write o.and_(…), o.or_(…), o.not_(…)"),
)


def _bool_advice() -> str:
    """What the claim's line did that asked a term for a truth value (read from its source line)."""
    import linecache
    import sys

    frame = sys._getframe(2)
    line = linecache.getline(frame.f_code.co_filename, frame.f_lineno)
    for pattern, advice in _BUILTIN_ADVICE:
        if pattern.search(line):
            return f"{advice} ({frame.f_code.co_filename}:{frame.f_lineno})"
    return ("a claim term was used as a truth value (an if, and/or/not, max/min, a chained comparison): "
            "use o.ite, o.and_/o.or_/o.not_, o.max/o.min, and compare with o.le/o.lt/o.eq/…"
            f" ({frame.f_code.co_filename}:{frame.f_lineno})")


class _Probe:
    """A stand-in for a term, run through each part of a claim once when it is built: arithmetic
    and comparisons give probes again; what only a concrete number can do — a truth value (``if``,
    Python's ``max``/``min``), ``abs()``, ``float()``, ``int()``, ``round()`` — or a float constant
    raises :class:`ClaimMisuse` naming the op to write instead."""

    __slots__ = ()

    def _op(self, other: Any = None) -> _Probe:
        if isinstance(other, float):
            exact = Fraction(other).limit_denominator(10**6)
            raise ClaimMisuse(f"the float {other!r} in a claim is inexact in every backend and the backends would "
                              f"disagree on it: write o.q({exact.numerator}, {exact.denominator})")
        return _PROBE

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _op
    __truediv__ = __rtruediv__ = __pow__ = __rpow__ = __mod__ = __rmod__ = _op
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = __and__ = __rand__ = __or__ = __ror__ = _op  # type: ignore[assignment]
    __hash__ = None  # type: ignore[assignment]

    def __neg__(self) -> _Probe: return _PROBE
    def __pos__(self) -> _Probe: return _PROBE
    def __invert__(self) -> _Probe: return _PROBE

    def __bool__(self) -> bool:
        raise ClaimMisuse(_bool_advice())

    def __abs__(self) -> _Probe:
        raise ClaimMisuse("Python's abs() on a claim term is not interpreted by z3: write o.abs(x)")

    def __float__(self) -> float:
        raise ClaimMisuse("float() of a claim term: a term is exact (a rational, a z3 term, an interval); keep it "
                          "a term, and write constants with o.q(num, den)")

    def __int__(self) -> int:
        raise ClaimMisuse("int() of a claim term: write o.floor(x) or o.ceil(x), or type the variable (\"n:int\")")

    __index__ = __int__
    __trunc__ = __int__

    def __round__(self, ndigits: Any = None) -> Any:
        raise ClaimMisuse("round() of a claim term: write o.floor(x + o.q(1, 2)) or compare with o.le")

    def __floor__(self) -> Any:
        raise ClaimMisuse("math.floor() of a claim term: write o.floor(x)")

    def __ceil__(self) -> Any:
        raise ClaimMisuse("math.ceil() of a claim term: write o.ceil(x)")


_PROBE = _Probe()


class _ProbeOps:
    """Every op gives a probe; the connectives and comparisons too."""

    name = "probe"

    def __getattr__(self, op: str) -> Any:
        if op.startswith("__"):
            raise AttributeError(op)
        return lambda *xs, **kw: _PROBE


def _probe_part(formula: Formula, variables: tuple[str, ...]) -> str | None:
    """What a part does with a term that only a concrete number can do (the op to write instead),
    found by running it once on stand-in terms; ``None`` when nothing (or when it fails for any
    other reason: an op only some backends interpret is the backends' business)."""
    try:
        formula(_ProbeOps(), Env({x: _PROBE for x in variables}))
    except ClaimMisuse as exc:
        return str(exc)
    except Exception:  # noqa: BLE001 - only the misuses above are this check's business
        return None
    except RecursionError:
        return None
    return None


def _float_constants(code: Any) -> list[float]:
    """The float literals of a function's code (and of the functions and lambdas written in it)."""
    out = []
    for const in getattr(code, "co_consts", ()):
        if isinstance(const, float):
            out.append(const)
        elif hasattr(const, "co_consts"):
            out += _float_constants(const)
    return out


def _guarded(claim_name: str, where: str, formula: Formula, variables: tuple[str, ...]) -> Formula:
    """``formula``, such that an exception a backend meets while interpreting it is explained when
    the cause is Python applied to a term — ``max(a, b)`` on z3 terms raises a bare
    ``Z3Exception``: then :class:`ClaimMisuse` names the op to write, chained to the original.
    The explanation is found once per part, only after a failure: building a claim runs nothing."""
    found: list[str | None] = []

    def part(o: Any, v: Env) -> Any:
        try:
            return formula(o, v)
        except ClaimMisuse:
            raise
        except Exception as exc:
            if not found:
                found.append(_probe_part(formula, variables))
            if found[0] is not None:
                raise ClaimMisuse(f"claim {claim_name!r}, {where}: {found[0]}") from exc
            raise

    part.__wrapped__ = formula  # type: ignore[attr-defined]
    part.__name__ = getattr(formula, "__name__", "part")
    part.__qualname__ = getattr(formula, "__qualname__", "part")
    return part


def misuse(c: Claim) -> str | None:
    """Where ``c`` applies Python's own ``max``/``min``/``abs``/``float``/``if`` to a term or mixes
    in a float constant, what to write instead; ``None`` when no part does. Runs every part once
    on stand-in terms (so it may cost what the claim's parts cost)."""
    parts = [("conclusion", c.conclusion), *((f"hypothesis {h.name!r}", h.formula) for h in c.hypotheses),
             *((f"term {t.name!r}", t.formula) for t in c.terms)]
    for where, formula in parts:
        problem = _probe_part(getattr(formula, "__wrapped__", formula), c.variables)
        if problem is not None:
            return f"claim {c.name!r}, {where}: {problem}"
    return None


def refuse_float_constants(name: str, conclusion: Formula, hypotheses: Mapping[str, Formula] | None,
                           terms: Mapping[str, Formula] | None) -> None:
    """Raise :class:`ClaimMisuse` at the first float literal in a claim's parts: inexact in every
    backend, and read differently by them (z3 the decimal, Fractions the binary value)."""
    parts = [("conclusion", conclusion), *((f"hypothesis {k!r}", f) for k, f in (hypotheses or {}).items()),
             *((f"term {k!r}", f) for k, f in (terms or {}).items())]
    for where, formula in parts:
        floats = _float_constants(getattr(formula, "__code__", None))
        if floats:
            exact = Fraction(floats[0]).limit_denominator(10**6)
            raise ClaimMisuse(f"claim {name!r}, {where}: the float {floats[0]!r} is inexact in every backend and the "
                              f"backends would disagree on it: write o.q({exact.numerator}, {exact.denominator})")


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
    refuse_float_constants(name, conclusion, hypotheses, terms)
    return Claim(
        name=name,
        variables=names,
        conclusion=_guarded(name, "conclusion", conclusion, names),
        hypotheses=tuple(Part(k, _guarded(name, f"hypothesis {k!r}", f, names)) for k, f in (hypotheses or {}).items()),
        terms=tuple(Part(k, _guarded(name, f"term {k!r}", f, names)) for k, f in (terms or {}).items()),
        domains=doms if any(d != REAL for d in doms) else (),
        derived=derived,
        realiser=realiser,
    )


def closed_at(c: Claim, point: Mapping[str, Any], name: str | None = None) -> Claim:
    """``c`` at one point, as a closed claim (no variables): a statement about stated values — "the
    witness has densities 1/2, 1/4, 1/3" — that is false when a stated value is, and says nothing
    about other points (declared for every point, it would be false as printed)."""
    missing = [x for x in c.variables if x not in point]
    if missing:
        raise ValueError(f"closed_at({c.name!r}): no value for {', '.join(missing)}")
    floats = [x for x in c.variables if isinstance(point[x], float)]
    if floats:
        raise ClaimMisuse(f"closed_at({c.name!r}): the float {point[floats[0]]!r} for {floats[0]} is inexact: write "
                          f"Fraction('{point[floats[0]]!r}') for the decimal, or the binary value exactly")
    values = {x: Fraction(point[x]) for x in c.variables}
    outside = {x: why for x, q in values.items() if (why := c.domain(x).why_not(q))}
    if outside:
        raise ValueError(f"closed_at({c.name!r}): the point is outside the declared domains: "
                         + "; ".join(f"{x}: {why} (declared {c.domain(x).describe()})" for x, why in outside.items()))

    def at(part: Formula) -> Formula:
        return lambda o, v: part(o, c.env({x: o.q(q.numerator, q.denominator) for x, q in values.items()}))

    shown = ", ".join(f"{x} = {q}" for x, q in values.items())
    return Claim(name=name or f"{c.name} at {shown}", variables=(), conclusion=at(c.conclusion),
                 hypotheses=tuple(Part(h.name, at(h.formula)) for h in c.hypotheses),
                 terms=tuple(Part(t.name, at(t.formula)) for t in c.terms))
