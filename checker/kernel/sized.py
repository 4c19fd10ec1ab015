"""Size-parametric claims: one statement for every width, every number of classes, every matrix.

A :class:`SizedClaim` quantifies over *sizes* (``n: nat[1,]``), over *arrays* whose shapes are
given by those sizes (a vector ``x[n]``, a matrix ``W[n,m]``), and over scalars. Its parts are
written as any claim's are, ``(o, v) -> formula``; ``v.x`` is then a whole vector, and ``o`` adds
the aggregates, each defined by its recurrence over the outer index:

=============  =========================  ==========================================
``o.sum(a)``   Σ of every entry           0, then ``acc + a_i``
``o.prod(a)``  Π of every entry           1, then ``acc · a_i``
``o.maxv(a)``  the largest entry          ``a_1``, then ``max(acc, a_i)`` (non-empty)
``o.minv(a)``  the smallest entry         ``a_1``, then ``min(acc, a_i)`` (non-empty)
``o.all(b)``   every entry true           true, then ``acc ∧ b_i``
``o.any(b)``   some entry true            false, then ``acc ∨ b_i``
=============  =========================  ==========================================

and the derived ones ``o.dot(a, b) = o.sum(a*b)``, ``o.sumsq(a) = o.sum(a*a)`` (ℓ2², and the
Frobenius norm² of a matrix), ``o.norm1(a) = o.sum(|a|)``, ``o.norminf(a) = o.maxv(|a|)``. Arithmetic
on arrays is entrywise (``v.x - v.y``, ``v.W * v.M``, a scalar broadcast), every op of ``o`` applies
entrywise to arrays (``o.relu(v.x)``, ``o.eq(v.m, 0)``), ``v.W @ v.x`` is the matrix–vector
product (a vector over the rows) and ``o.rowprod(v.W)`` the vector of the rows' products
(``Π_j W_ij``, 1 for an empty row). ``v.n`` is a size as a number.

Two interpretations:

- **at given sizes** (:meth:`SizedClaim.at`): an ordinary :class:`~checker.kernel.claims.Claim`
  over the entries (``x_0, x_1, …``, ``W_0_1, …``), which every backend reads as today (exact,
  interval, sampling, z3), aggregates unrolled;
- **for every size**: the induction rule of :mod:`checker.backends.induction` reads the same parts
  with the aggregates as accumulators and proves a base case and an inductive step.

The claim's identity for the kernel (:attr:`SizedClaim.subject`) is its printed form with the
arrays' shapes: two sized claims are the same statement only when they print alike.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator, Mapping

from checker.kernel.claims import (
    REAL,
    Claim,
    Domain,
    Env,
    Formula,
    Kind,
    Part,
    parse_variable,
    refuse_float_constants,
)
from checker.kernel.errors import ClaimMisuse

AGGREGATES = ("sum", "prod", "maxv", "minv", "all", "any")
DERIVED = ("dot", "sumsq", "norm1", "norminf")
_NOT_LIFTED = frozenset({"q", "name", "ite_vec"})


@dataclass(frozen=True, slots=True)
class ArraySpec:
    """An array of the claim: its name and the size variables of its dimensions (outer first)."""

    name: str
    dims: tuple[str, ...]

    def text(self) -> str:
        return f"{self.name}[{','.join(self.dims)}]"


# ------------------------------------------------------------------ concrete arrays


class Vec:
    """A concrete array: a tuple of entries (a backend's scalars) or of rows (:class:`Vec`)."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Any]) -> None:
        object.__setattr__(self, "items", tuple(items))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Vec is read-only")

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items)

    def __getitem__(self, i: int) -> Any:
        return self.items[i]

    @property
    def depth(self) -> int:
        return 1 + (self.items[0].depth if self.items and isinstance(self.items[0], Vec) else 0)

    def entries(self) -> list[Any]:
        """Every scalar entry, rows in order."""
        out: list[Any] = []
        for x in self.items:
            out.extend(x.entries() if isinstance(x, Vec) else (x,))
        return out

    def map(self, f: Callable[[Any], Any]) -> Vec:
        return Vec(x.map(f) if isinstance(x, Vec) else f(x) for x in self.items)

    def _zip(self, other: Any, f: Callable[[Any, Any], Any], swap: bool = False) -> Vec:
        if isinstance(other, Vec):
            if len(other) != len(self) or other.depth != self.depth:
                raise ClaimMisuse(f"entrywise arithmetic on arrays of different shapes ({len(self)} against {len(other)} "
                                  f"entries at the outer level, depth {self.depth} against {other.depth})")
            pairs = zip(other.items, self.items) if swap else zip(self.items, other.items)
            return Vec(f(a, b) for a, b in pairs)
        return Vec(f(other, a) if swap else f(a, other) for a in self.items)

    def __add__(self, o: Any) -> Vec: return self._zip(o, lambda a, b: a + b)
    def __radd__(self, o: Any) -> Vec: return self._zip(o, lambda a, b: a + b, True)
    def __sub__(self, o: Any) -> Vec: return self._zip(o, lambda a, b: a - b)
    def __rsub__(self, o: Any) -> Vec: return self._zip(o, lambda a, b: a - b, True)
    def __mul__(self, o: Any) -> Vec: return self._zip(o, lambda a, b: a * b)
    def __rmul__(self, o: Any) -> Vec: return self._zip(o, lambda a, b: a * b, True)
    def __truediv__(self, o: Any) -> Vec: return self._zip(o, lambda a, b: a / b)
    def __neg__(self) -> Vec: return self.map(lambda a: -a)

    def __pow__(self, k: Any) -> Vec:
        return self.map(lambda a: a**k)

    def __matmul__(self, x: Any) -> Vec:
        if not isinstance(x, Vec) or self.depth != 2 or x.depth != 1:
            raise ClaimMisuse("@ is the product of a matrix (W[n,m]) and a vector (x[m])")
        return Vec(_fold_sum(list((row * x).items)) for row in self.items)

    def __bool__(self) -> bool:
        raise ClaimMisuse("an array has no truth value: aggregate it (o.all, o.any) or compare aggregates")


def _fold_sum(xs: list[Any]) -> Any:
    if not xs:
        return 0
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return out


def _fold_prod(xs: list[Any]) -> Any:
    if not xs:
        return 1
    out = xs[0]
    for x in xs[1:]:
        out = out * x
    return out


def _entrywise(f: Callable[..., Any]) -> Callable[..., Any]:
    """``f`` applied entry by entry where an argument is an array (scalars broadcast)."""

    def lifted(*xs: Any) -> Any:
        arrays = [x for x in xs if isinstance(x, Vec)]
        if not arrays:
            return f(*xs)
        first = arrays[0]
        for a in arrays[1:]:
            if len(a) != len(first) or a.depth != first.depth:
                raise ClaimMisuse("an op applied entrywise to arrays of different shapes")
        return Vec(lifted(*(x.items[i] if isinstance(x, Vec) else x for x in xs)) for i in range(len(first)))

    return lifted


class SizedOps:
    """A backend's ops namespace with the aggregates, and every op entrywise on arrays."""

    def __init__(self, base: Any) -> None:
        object.__setattr__(self, "base", base)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("SizedOps is read-only")

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.base, name)
        if name in _NOT_LIFTED or name.startswith("_") or not callable(attr):
            return attr
        return _entrywise(attr)

    @staticmethod
    def _entries(a: Any, what: str) -> list[Any]:
        if not isinstance(a, Vec):
            raise ClaimMisuse(f"o.{what} aggregates an array (a claim's x[n] or an expression of arrays), got a scalar")
        return a.entries()

    def sum(self, a: Any) -> Any:
        return _fold_sum(self._entries(a, "sum"))

    def prod(self, a: Any) -> Any:
        return _fold_prod(self._entries(a, "prod"))

    def maxv(self, a: Any) -> Any:
        xs = self._entries(a, "maxv")
        if not xs:
            raise ClaimMisuse("o.maxv of an empty array: declare its size ≥ 1")
        return self.base.max(*xs)

    def minv(self, a: Any) -> Any:
        xs = self._entries(a, "minv")
        if not xs:
            raise ClaimMisuse("o.minv of an empty array: declare its size ≥ 1")
        return self.base.min(*xs)

    def all(self, b: Any) -> Any:
        return self.base.and_(*self._entries(b, "all"))

    def any(self, b: Any) -> Any:
        return self.base.or_(*self._entries(b, "any"))

    def rowprod(self, m: Any) -> Vec:
        if not isinstance(m, Vec) or m.depth != 2:
            raise ClaimMisuse("o.rowprod takes a matrix (W[n,m]) and gives the vector of its rows' products")
        return Vec(_fold_prod(list(row.items)) for row in m.items)

    def dot(self, a: Any, b: Any) -> Any:
        return self.sum(a * b)

    def sumsq(self, a: Any) -> Any:
        return self.sum(a * a)

    def norm1(self, a: Any) -> Any:
        return self.sum(self.abs(a))

    def norminf(self, a: Any) -> Any:
        return self.maxv(self.abs(a))


# ------------------------------------------------------------------ the claim


def _entry_name(array: str, index: tuple[int, ...]) -> str:
    return "_".join((array, *map(str, index)))


@dataclass(frozen=True, slots=True)
class SizedClaim:
    """``∀ sizes ∀ arrays ∀ scalars. ∧ hypotheses ⇒ conclusion``, the arrays shaped by the sizes."""

    name: str
    sizes: tuple[tuple[str, Domain], ...]
    arrays: tuple[ArraySpec, ...]
    scalars: tuple[tuple[str, Domain], ...]
    conclusion: Formula
    hypotheses: tuple[Part, ...] = ()
    terms: tuple[Part, ...] = ()

    # --- what printing and the kernel read
    @property
    def variables(self) -> tuple[str, ...]:
        return (*(n for n, _ in self.sizes), *(a.name for a in self.arrays), *(n for n, _ in self.scalars))

    @property
    def domains(self) -> dict[str, Domain]:
        return {**dict(self.sizes), **{n: d for n, d in self.scalars if d != REAL}}

    @property
    def size_names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.sizes)

    def size_domain(self, size: str) -> Domain:
        return dict(self.sizes)[size]

    def least(self, size: str) -> int:
        lo = self.size_domain(size).lower
        return int(lo) if lo is not None else 0

    def array(self, name: str) -> ArraySpec:
        for a in self.arrays:
            if a.name == name:
                return a
        raise KeyError(f"sized claim {self.name!r} has no array {name!r}")

    def shapes_text(self) -> str:
        return " ".join(a.text() for a in self.arrays)

    @property
    def subject(self) -> str:
        """The kernel's identity of the statement: its printed form, with the arrays' shapes."""
        from checker.kernel.printing import _atom, print_claim

        return f"(sized {print_claim(self, spell=False).canonical} (arrays {' '.join(_atom(a.text()) for a in self.arrays)}))"

    def statement_text(self) -> str:
        from checker.kernel.printing import print_claim

        sizes = ", ".join(f"{n} ≥ {self.least(n)}" for n in self.size_names)
        return f"for every {sizes} and {self.shapes_text()}: {print_claim(self).statement_text()}"

    # --- at concrete sizes
    def check_sizes(self, sizes: Mapping[str, int]) -> dict[str, int]:
        missing = [n for n in self.size_names if n not in sizes]
        extra = [n for n in sizes if n not in self.size_names]
        if missing or extra:
            raise ValueError(f"sized claim {self.name!r}: sizes {', '.join(self.size_names)} are needed"
                             + (f"; {', '.join(missing)} missing" if missing else "")
                             + (f"; {', '.join(extra)} not a size" if extra else ""))
        out = {}
        for n in self.size_names:
            value = sizes[n]
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"sized claim {self.name!r}: size {n} must be an int, got {value!r}")
            why = self.size_domain(n).why_not(Fraction(value))
            if why:
                raise ValueError(f"sized claim {self.name!r}: the size {n} = {value} is outside its domain ({why})")
            out[n] = value
        return out

    def shape(self, array: ArraySpec, sizes: Mapping[str, int]) -> tuple[int, ...]:
        return tuple(sizes[d] for d in array.dims)

    def entry_names(self, sizes: Mapping[str, int]) -> list[str]:
        names = []
        for a in self.arrays:
            names += [_entry_name(a.name, ix) for ix in itertools.product(*(range(k) for k in self.shape(a, sizes)))]
        return names

    def at(self, **sizes: int) -> Claim:
        """The statement at these sizes: an ordinary claim over the arrays' entries."""
        fixed = self.check_sizes(sizes)
        entries = self.entry_names(fixed)
        scalar_names = [n for n, _ in self.scalars]
        clash = set(entries) & set(scalar_names)
        if clash:
            raise ValueError(f"sized claim {self.name!r}: the scalar {sorted(clash)[0]} has an array entry's name")
        variables = tuple(scalar_names + entries)
        domains = tuple([d for _, d in self.scalars] + [REAL] * len(entries))

        def wrap(part: Formula) -> Formula:
            def concrete(o: Any, v: Env) -> Any:
                return part(SizedOps(o), self._env(v, fixed))

            concrete.__wrapped__ = part  # type: ignore[attr-defined]
            return concrete

        label = ",".join(f"{n}={k}" for n, k in fixed.items())
        return Claim(
            name=f"{self.name}[{label}]",
            variables=variables,
            conclusion=wrap(self.conclusion),
            hypotheses=tuple(Part(h.name, wrap(h.formula)) for h in self.hypotheses),
            terms=tuple(Part(t.name, wrap(t.formula)) for t in self.terms),
            domains=domains if any(d != REAL for d in domains) else (),
        )

    def _env(self, v: Env, sizes: Mapping[str, int]) -> Env:
        values: dict[str, Any] = dict(sizes)
        for a in self.arrays:
            values[a.name] = _build(a.name, self.shape(a, sizes), (), v)
        for n, _ in self.scalars:
            values[n] = v[n]
        return Env(values)

    def family(self, upto: int) -> list[dict[str, int]]:
        """Every assignment of the sizes from their least values up to ``upto`` (each)."""
        ranges = [range(self.least(n), max(self.least(n), upto) + 1) for n in self.size_names]
        return [dict(zip(self.size_names, combo)) for combo in itertools.product(*ranges)]


def _build(name: str, shape: tuple[int, ...], prefix: tuple[int, ...], v: Env) -> Vec:
    if len(shape) == 1:
        return Vec(v[_entry_name(name, (*prefix, i))] for i in range(shape[0]))
    return Vec(_build(name, shape[1:], (*prefix, i), v) for i in range(shape[0]))


def _parse_array(token: str) -> ArraySpec:
    name, _, rest = token.partition("[")
    if not rest.endswith("]") or not name.isidentifier():
        raise ValueError(f"an array is written name[size] or name[rows,cols], got {token!r}")
    dims = tuple(d.strip() for d in rest[:-1].split(","))
    if not 1 <= len(dims) <= 2 or not all(d.isidentifier() for d in dims):
        raise ValueError(f"an array has one or two sizes, got {token!r}")
    return ArraySpec(name, dims)


def sized_claim(
    name: str,
    sizes: str,
    arrays: str,
    conclusion: Formula,
    hypotheses: Mapping[str, Formula] | None = None,
    terms: Mapping[str, Formula] | None = None,
    *,
    scalars: str = "",
) -> SizedClaim:
    """Build a :class:`SizedClaim`: ``sizes`` like ``"n:nat[1,] m:nat[1,]"`` (naturals, with their
    least values), ``arrays`` like ``"x[n] W[n,m]"``, ``scalars`` like ``"c:real[0,]"``."""
    size_list = [parse_variable(t) for t in sizes.split()]
    if not size_list:
        raise ValueError(f"sized claim {name!r}: declare at least one size (n:nat[1,])")
    for n, d in size_list:
        if d.kind is not Kind.NATURAL or d.hi is not None:
            raise ValueError(f"sized claim {name!r}: the size {n} must be a natural with no upper bound (n:nat[1,])")
    array_list = [_parse_array(t) for t in arrays.split()]
    size_names = {n for n, _ in size_list}
    for a in array_list:
        unknown = [d for d in a.dims if d not in size_names]
        if unknown:
            raise ValueError(f"sized claim {name!r}: array {a.text()} uses the undeclared size {unknown[0]}")
    scalar_list = [parse_variable(t) for t in scalars.split()]
    names = [n for n, _ in size_list] + [a.name for a in array_list] + [n for n, _ in scalar_list]
    if len(set(names)) != len(names):
        raise ValueError(f"sized claim {name!r}: a name is declared twice in {names}")
    used = {d for a in array_list for d in a.dims}
    unused = [n for n, _ in size_list if n not in used]
    if unused:
        raise ValueError(f"sized claim {name!r}: the size {unused[0]} shapes no array")
    refuse_float_constants(name, conclusion, hypotheses, terms)
    return SizedClaim(
        name=name,
        sizes=tuple(size_list),
        arrays=tuple(array_list),
        scalars=tuple(scalar_list),
        conclusion=conclusion,
        hypotheses=tuple(Part(k, f) for k, f in (hypotheses or {}).items()),
        terms=tuple(Part(k, f) for k, f in (terms or {}).items()),
    )


def is_sized(claim: Any) -> bool:
    return isinstance(claim, SizedClaim)
