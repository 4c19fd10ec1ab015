"""Induction over a size: a sized claim proved for every size by a base case and a step.

Why3's lemma functions are the model (``let rec lemma … variant {n}``): the recursive call is the
induction hypothesis, and nonlinear facts about the new element are separate lemmas over plain
reals, instantiated with explicit arguments.

The rule reads a :class:`~checker.kernel.sized.SizedClaim` with the aggregates over the chosen
size ``n`` as **accumulators**: each aggregate ``o.sum(a)`` of an array whose outer index is ``n``
is a fresh real ``acc`` at size ``n``, and ``acc ⊕ a_new`` at size ``n + 1`` (``⊕`` its recurrence,
``a_new`` the new entry, or the aggregate of the new row of a matrix). Aggregates over the other
sizes do not change with ``n``: each is one fresh real (*opaque*), the same on both sides, keyed by
the expression it aggregates; what is known of it comes from lemmas. Then three z3 queries:

- **base**: at the least size ``L`` (``L`` fresh entries folded into each accumulator), the
  fixed and entrywise hypotheses imply the invariant;
- **step**: for every ``n ≥ L``, the invariant at ``n``, the fixed hypotheses and the entrywise
  hypotheses of the new entry imply the invariant at ``n + 1``;
- **close**: at every ``n ≥ L``, all the hypotheses and the invariant imply the conclusion.

The invariant is the conclusion unless a stronger one is given. Hypotheses are read three ways:
*fixed* (no accumulator and no ``n`` in them: a scalar's range, a condition on arrays over other
sizes), *entrywise* (``o.all(p(a))`` over an array indexed by ``n``, whose new entry then satisfies
``p``), and the rest, which only the closing query may use (a sum bounded at size ``n`` says
nothing about its prefixes). So the proof is of ``∀ n ≥ L: hypotheses(n) ⇒ conclusion(n)``: every
size, every value.

Each of the three is an ``unsat`` of a negation, so the rule issues a ``universal`` fact; every
lemma used must itself be a universal fact about the lemma's claim, and its ledger joins the
proof's. A step z3 cannot prove (or a lemma that is not a universal fact) leaves the claim
``unknown`` with the query that failed — never ``refuted``: a failed step is not a counterexample.
Shapes the rule does not read (a column induction of ``W @ x``, an entry that depends on the
aggregate being built) are refused with the reason, so no recurrence is ever made up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from checker.backends import CannotDecide, smt
from checker.kernel import proof as kernel
from checker.kernel.claims import Claim, Env
from checker.kernel.errors import ClaimMisuse
from checker.kernel.model import Context, Grade, Status, Verdict
from checker.kernel.sized import SizedClaim
from checker.kernel.verdicts import proved_by, timed, unknown

NAME = "induction"
MAX_BASE = 3
"""The largest least size whose base case is unrolled (a claim for n ≥ 4 is stated from n = 4)."""

_COMBINE = {
    "sum": lambda z3, acc, e: acc + e,
    "prod": lambda z3, acc, e: acc * e,
    "maxv": lambda z3, acc, e: z3.If(e > acc, e, acc),
    "minv": lambda z3, acc, e: z3.If(e < acc, e, acc),
    "all": lambda z3, acc, e: z3.And(acc, e),
    "any": lambda z3, acc, e: z3.Or(acc, e),
}
_BOOLEAN = ("all", "any")


class Unsupported(CannotDecide):
    """The claim has a shape the induction rule does not read (the reason says which)."""


class _NoNew(Exception):
    """A lemma's binding asked for the new entry where there is none (the closing query)."""


@dataclass(frozen=True, slots=True)
class Use:
    """A proved lemma instantiated in the proof: ``bind`` maps each of the lemma's arrays and scalars
    to an expression of the step (``lambda s: s.new("W") * s.new("M")``, ``lambda s: s.x``).

    ``fact`` is the lemma's universal kernel fact (or a proved verdict carrying one); ``lemma`` the
    claim it proves, sized or plain."""

    lemma: SizedClaim | Claim
    fact: Any
    bind: Mapping[str, Callable[["StepView"], Any]]


class SymArr:
    """An array in the induction's reading: a structural key, its outer size and depth, and (when
    its outer index is the induction's) its entry for a given copy of the new element."""

    __slots__ = ("key", "size", "inner", "depth", "elem", "depends")

    def __init__(self, key: str, size: str, depth: int, elem: Callable[[Any], Any] | None,
                 depends: bool, inner: str | None = None) -> None:
        self.key, self.size, self.depth, self.elem, self.depends, self.inner = key, size, depth, elem, depends, inner

    def __repr__(self) -> str:
        return f"SymArr({self.key} over {self.size})"

    def __bool__(self) -> bool:
        raise ClaimMisuse("an array has no truth value: aggregate it (o.all, o.any) or compare aggregates")

    def _op(self, name: str, other: Any, swap: bool = False) -> SymArr:
        fn = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
              "div": lambda a, b: a / b}[name]
        args = (other, self) if swap else (self, other)
        return _READING.lift(name, lambda a, b: fn(a, b), args)

    def __add__(self, o: Any) -> SymArr: return self._op("add", o)
    def __radd__(self, o: Any) -> SymArr: return self._op("add", o, True)
    def __sub__(self, o: Any) -> SymArr: return self._op("sub", o)
    def __rsub__(self, o: Any) -> SymArr: return self._op("sub", o, True)
    def __mul__(self, o: Any) -> SymArr: return self._op("mul", o)
    def __rmul__(self, o: Any) -> SymArr: return self._op("mul", o, True)
    def __truediv__(self, o: Any) -> SymArr: return self._op("div", o)
    def __neg__(self) -> SymArr: return _READING.lift("neg", lambda a: -a, (self,))

    def __pow__(self, k: Any) -> SymArr:
        return _READING.lift(f"pow{k}", lambda a: a**k, (self,))

    def __matmul__(self, x: Any) -> SymArr:
        return _READING.matmul(self, x)


class _Slot:
    """The reading in use (set while a claim's parts are read; arrays reach it through here)."""

    current: "_Reading | None" = None

    def __getattr__(self, name: str) -> Any:
        if self.current is None:
            raise RuntimeError("an induction array was used outside its proof")
        return getattr(self.current, name)


_READING: Any = _Slot()


class _Reading:
    """One proof's interpretation: z3 context, the induction size, accumulators and opaque symbols."""

    def __init__(self, claim: SizedClaim, on: str, timeout_ms: int) -> None:
        self.z3 = smt._z3()
        self.ctx = self.z3.Context()
        self.ops = smt.Z3Ops(self.ctx)
        self.claim, self.on, self.timeout_ms = claim, on, timeout_ms
        self.base_size = claim.least(on)
        self.mode = "pre"
        self.copy: Any = "new"
        self.accs: dict[tuple[str, str], Any] = {}
        self.acc_arrays: dict[tuple[str, str], SymArr] = {}
        self.opaque: dict[tuple[str, str], Any] = {}
        self.leaves: dict[str, Any] = {}
        self.n = self.z3.Int(on, self.ctx)
        self.other_sizes = {s: self.z3.Int(s, self.ctx) for s in claim.size_names if s != on}
        self.inductive_ids: set[int] = {self.n.get_id()}

    # --- terms
    def real(self, name: str) -> Any:
        if name not in self.leaves:
            self.leaves[name] = self.z3.Real(name, self.ctx)
        return self.leaves[name]

    def size_term(self, size: str) -> Any:
        if size != self.on:
            return self.z3.ToReal(self.other_sizes[size])
        if self.mode == "base":
            return self.z3.RealVal(self.base_size, self.ctx)
        return self.z3.ToReal(self.n) + (1 if self.mode == "post" else 0)

    def key_of(self, x: Any) -> str:
        if isinstance(x, SymArr):
            return x.key
        if self.z3.is_expr(x):
            if self.z3.is_rational_value(x):
                return str(Fraction(x.numerator_as_long(), x.denominator_as_long()))
            return x.sexpr()
        return repr(x) if isinstance(x, bool) else str(Fraction(x))

    def depends(self, x: Any) -> bool:
        """Does a scalar term mention an accumulator or the induction size?"""
        if isinstance(x, SymArr):
            return x.depends
        if not self.z3.is_expr(x):
            return False
        seen: set[int] = set()
        todo = [x]
        while todo:
            t = todo.pop()
            i = t.get_id()
            if i in seen:
                continue
            seen.add(i)
            if i in self.inductive_ids:
                return True
            todo.extend(t.children())
        return False

    # --- arrays
    def leaf(self, name: str) -> SymArr:
        spec = self.claim.array(name)
        outer = spec.dims[0]
        if len(spec.dims) == 1:
            elem = (lambda c, nm=name: self.real(f"{nm}@{c}")) if outer == self.on else None
            return SymArr(name, outer, 1, elem, False)
        inner = spec.dims[1]
        if outer == self.on:
            return SymArr(name, outer, 2, lambda c, nm=name: SymArr(f"{nm}[{c}]", inner, 1, None, False),
                          inner == self.on, inner)
        return SymArr(name, outer, 2, None, inner == self.on, inner)

    def lift(self, name: str, fn: Callable[..., Any], args: Sequence[Any]) -> SymArr:
        arrays = [a for a in args if isinstance(a, SymArr)]
        first = arrays[0]
        for a in arrays[1:]:
            if a.size != first.size or a.depth != first.depth or a.inner != first.inner:
                raise ClaimMisuse(f"entrywise {name} of arrays of different shapes ({first.key} over {first.size}, "
                                  f"{a.key} over {a.size})")
        key = f"{name}({','.join(self.key_of(a) for a in args)})"
        depends = any(self.depends(a) for a in args)
        elem = None
        if first.elem is not None:
            def elem(c: Any) -> Any:
                parts = [a.elem(c) if isinstance(a, SymArr) else a for a in args]
                return self.lift(name, fn, parts) if any(isinstance(p, SymArr) for p in parts) else fn(*parts)
        return SymArr(key, first.size, first.depth, elem, depends, first.inner)

    def matmul(self, w: Any, x: Any) -> SymArr:
        if not (isinstance(w, SymArr) and isinstance(x, SymArr) and w.depth == 2 and x.depth == 1):
            raise ClaimMisuse("@ is the product of a matrix (W[n,m]) and a vector (x[m])")
        if w.inner != x.size:
            raise ClaimMisuse(f"{w.key} @ {x.key}: the matrix has {w.inner} columns, the vector {x.size} entries")
        depends = w.depends or x.depends or x.size == self.on
        elem = None
        if w.elem is not None:
            def elem(c: Any) -> Any:
                return self.aggregate("sum", self.lift("mul", lambda a, b: a * b, (w.elem(c), x)))
        return SymArr(f"matmul({w.key},{x.key})", w.size, 1, elem, depends)

    def rowprod(self, w: Any) -> SymArr:
        """The vector of a matrix's row products: its entry for a new row is that row's product (an
        aggregate over the inner size); rows whose length is the induction size change with it."""
        if not (isinstance(w, SymArr) and w.depth == 2):
            raise ClaimMisuse("o.rowprod takes a matrix (W[n,m]) and gives the vector of its rows' products")
        depends = w.depends or w.inner == self.on
        elem = None
        if w.elem is not None:
            def elem(c: Any) -> Any:
                return self.aggregate("prod", w.elem(c))
        return SymArr(f"rowprod({w.key})", w.size, 1, elem, depends)

    # --- aggregates
    def aggregate(self, agg: str, a: Any) -> Any:
        if not isinstance(a, SymArr):
            raise ClaimMisuse(f"o.{agg} aggregates an array, got a scalar")
        if a.depends:
            raise Unsupported(f"{agg}({a.key}) with induction on {self.on}: its entries change with {self.on} "
                              "(a column induction, or an entry built from the aggregate itself); the rule takes "
                              "a recurrence over the outer index only")
        slot = (agg, a.key)
        sort = self.z3.BoolSort(self.ctx) if agg in _BOOLEAN else self.z3.RealSort(self.ctx)
        if a.size != self.on:
            if slot not in self.opaque:
                self.opaque[slot] = self.z3.Const(f"{agg}⟦{a.key}⟧", sort)
            return self.opaque[slot]
        if self.mode == "base":
            return self._fold(agg, a)
        if slot not in self.accs:
            acc = self.z3.Const(f"{agg}⟨{a.key}⟩", sort)
            self.accs[slot] = acc
            self.acc_arrays[slot] = a
            self.inductive_ids.add(acc.get_id())
        acc = self.accs[slot]
        if self.mode in ("pre", "close"):
            return acc
        return _COMBINE[agg](self.z3, acc, self.entry_aggregate(agg, a.elem("new")))

    def entry_aggregate(self, agg: str, entry: Any) -> Any:
        return self.aggregate(agg, entry) if isinstance(entry, SymArr) else entry

    def _fold(self, agg: str, a: SymArr) -> Any:
        entries = [self.entry_aggregate(agg, a.elem(c)) for c in range(1, self.base_size + 1)]
        identity = {"sum": self.z3.RealVal(0, self.ctx), "prod": self.z3.RealVal(1, self.ctx),
                    "all": self.z3.BoolVal(True, self.ctx), "any": self.z3.BoolVal(False, self.ctx)}.get(agg)
        if identity is None:
            if not entries:
                raise Unsupported(f"{agg} of an empty array: the least size of {self.on} must be ≥ 1")
            out, entries = entries[0], entries[1:]
        else:
            out = identity
        for e in entries:
            out = _COMBINE[agg](self.z3, out, e)
        return out


class _SymOps:
    """The ops namespace of the induction's reading: z3's, entrywise on arrays, with the aggregates."""

    def __init__(self, reading: _Reading) -> None:
        self._r = reading

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._r.ops, name)
        if name in ("q", "name", "z3", "context") or name.startswith("_") or not callable(attr):
            return attr

        def lifted(*xs: Any) -> Any:
            if any(isinstance(x, SymArr) for x in xs):
                return self._r.lift(name, attr, xs)
            return attr(*xs)

        return lifted

    def sum(self, a: Any) -> Any: return self._r.aggregate("sum", a)
    def prod(self, a: Any) -> Any: return self._r.aggregate("prod", a)
    def maxv(self, a: Any) -> Any: return self._r.aggregate("maxv", a)
    def minv(self, a: Any) -> Any: return self._r.aggregate("minv", a)
    def all(self, b: Any) -> Any: return self._r.aggregate("all", b)
    def any(self, b: Any) -> Any: return self._r.aggregate("any", b)
    def rowprod(self, w: Any) -> Any: return self._r.rowprod(w)
    def dot(self, a: Any, b: Any) -> Any: return self.sum(a * b)
    def sumsq(self, a: Any) -> Any: return self.sum(a * a)
    def norm1(self, a: Any) -> Any: return self.sum(self.abs(a))
    def norminf(self, a: Any) -> Any: return self.maxv(self.abs(a))


class StepView:
    """What a lemma's binding sees: ``s.x`` a whole array, ``s.new("W")`` the new entry (a scalar)
    or row (an array) of an array indexed by the induction size, ``s.size("m")`` a size, and
    ``s.o`` the proof's ops (entrywise on arrays, with the aggregates), so a lemma's array or scalar can
    be bound to an expression such as ``s.o.relu(s.W @ s.x + s.b)`` or ``s.o.prod(1 + s.new("D"))`` —
    the very terms the claim's parts build (an array named ``o`` is then read as ``s["o"]``)."""

    def __init__(self, reading: _Reading, env: Env) -> None:
        object.__setattr__(self, "_r", reading)
        object.__setattr__(self, "_env", env)

    def __getattr__(self, name: str) -> Any:
        return self._env[name]

    def __getitem__(self, name: str) -> Any:
        return self._env[name]

    def new(self, name: str) -> Any:
        r = self._r
        if r.mode == "close" or r.copy is None:
            raise _NoNew(name)
        a = self._env[name]
        if not isinstance(a, SymArr) or a.elem is None:
            raise ClaimMisuse(f"s.new({name!r}): {name} is not an array indexed by {r.on}")
        return a.elem(r.copy)

    def size(self, name: str) -> Any:
        return self._r.size_term(name)

    @property
    def o(self) -> "_SymOps":
        """The ops of the proof's reading: the terms built are the ones the claim's parts build."""
        return _SymOps(self._r)


def _fact_of(value: Any) -> Any:
    return getattr(value, "fact", None) if not kernel.is_fact(value) else value


class _Proof:
    """The three queries of one induction, built in one reading."""

    def __init__(self, claim: SizedClaim, on: str, invariant: Any, uses: Sequence[Use], timeout_ms: int) -> None:
        self.r = _Reading(claim, on, timeout_ms)
        self.claim, self.on, self.invariant, self.uses = claim, on, invariant, uses
        r = self.r
        values: dict[str, Any] = {}
        for s in claim.size_names:
            values[s] = _SizeTerm(r, s)
        for a in claim.arrays:
            values[a.name] = r.leaf(a.name)
        for name, _ in claim.scalars:
            values[name] = r.real(name)
        self.env_values = values
        self.o = _SymOps(r)

    def env(self) -> Env:
        return Env({k: (v.term() if isinstance(v, _SizeTerm) else v) for k, v in self.env_values.items()})

    def fixed_constraints(self) -> list[Any]:
        r, z3 = self.r, self.r.z3
        out = []
        for s, d in self.claim.sizes:
            if s != self.on:
                out.append(r.other_sizes[s] >= int(d.lower or 0))
        for name, d in self.claim.scalars:
            out += _in_domain(r, r.real(name), d)
        return out

    def classify(self) -> tuple[list[Any], list[tuple[str, SymArr]], list[Any]]:
        """The hypotheses read at size n: fixed ones, entrywise ones (their arrays), the rest."""
        r = self.r
        r.mode = "pre"
        fixed, entrywise, rest = [], [], []
        for h in self.claim.hypotheses:
            term = h.formula(self.o, self.env())
            match = [slot for slot, acc in r.accs.items() if slot[0] == "all" and acc.eq(term)]
            if match:
                entrywise.append((h.name, r.acc_arrays[match[0]]))
            elif r.depends(term):
                rest.append(term)
            else:
                fixed.append(term)
        return fixed, entrywise, rest

    def invariant_at(self, mode: str) -> Any:
        r = self.r
        r.mode = mode
        part = self.invariant if self.invariant is not None else self.claim.conclusion
        return part(self.o, self.env())

    def instances(self, mode: str, copies: Sequence[Any]) -> list[Any]:
        """The lemmas' instances in this mode (one per copy of the new entry when a binding uses it)."""
        r = self.r
        out = []
        for use in self.uses:
            # With no copy (a base case at size 0) a lemma whose bindings read no new entry is still
            # instantiated once: it is a proved fact about the whole arrays (copy None: s.new skips it).
            for c in copies or [None]:
                r.mode, r.copy = mode, c
                view = StepView(r, self.env())
                try:
                    bound = {name: f(view) for name, f in use.bind.items()}
                except _NoNew:
                    continue
                out.append(_instance(r, self.o, use, bound))
                if not any(_uses_new(f) for f in use.bind.values()):
                    break
        r.copy = "new"
        return out


class _SizeTerm:
    """A size as the claim's parts see it (``v.n``), in the reading's current mode."""

    def __init__(self, r: _Reading, size: str) -> None:
        self.r, self.size = r, size

    def term(self) -> Any:
        return self.r.size_term(self.size)


def _uses_new(f: Callable[..., Any]) -> bool:
    code = getattr(f, "__code__", None)
    return code is not None and "new" in code.co_names


def _instance(r: _Reading, o: _SymOps, use: Use, bound: Mapping[str, Any]) -> Any:
    """The lemma's formula at the bound arrays and scalars, guarded by its scalars' domains."""
    z3 = r.z3
    lemma = use.lemma
    if isinstance(lemma, SizedClaim):
        missing = [a.name for a in lemma.arrays if a.name not in bound] + [n for n, _ in lemma.scalars if n not in bound]
        if missing:
            raise ClaimMisuse(f"lemma {lemma.name!r}: no binding for {', '.join(missing)}")
        size_of: dict[str, str] = {}
        for spec in lemma.arrays:
            arr = bound[spec.name]
            if not isinstance(arr, SymArr) or arr.depth != len(spec.dims):
                raise ClaimMisuse(f"lemma {lemma.name!r}: {spec.text()} is bound to {arr!r}, not an array of that depth")
            for dim, ours in zip(spec.dims, (arr.size, arr.inner)):
                if size_of.setdefault(dim, ours) != ours:
                    raise ClaimMisuse(f"lemma {lemma.name!r}: its size {dim} is bound to both {size_of[dim]} and {ours}")
        for dim, ours in size_of.items():
            least = r.claim.least(ours) if ours != r.on else (r.base_size if r.mode != "post" else r.base_size + 1)
            if least < lemma.least(dim):
                raise Unsupported(f"lemma {lemma.name!r} holds for {dim} ≥ {lemma.least(dim)}; it is applied to "
                                  f"{ours}, which may be {least}")
        values = {dim: r.size_term(ours) for dim, ours in size_of.items()}
        values.update({a.name: bound[a.name] for a in lemma.arrays})
        values.update({n: bound[n] for n, _ in lemma.scalars})
        scalars = lemma.scalars
    else:
        values = {name: bound[name] for name in lemma.variables}
        scalars = tuple((name, lemma.domain(name)) for name in lemma.variables)
    v = Env(values)
    body = z3.Implies(o.and_(*(h.formula(o, v) for h in lemma.hypotheses)), lemma.conclusion(o, v)) \
        if lemma.hypotheses else lemma.conclusion(o, v)
    guard = [c for name, d in scalars for c in _in_domain(r, r.ops._real(values[name]), d)]
    return z3.Implies(z3.And(*guard), body) if guard else body


def _in_domain(r: _Reading, x: Any, d: Any) -> list[Any]:
    """The constraints of a scalar's declared domain on the term ``x``."""
    z3 = r.z3
    out = [z3.IsInt(x)] if d.integral else []
    if d.lower is not None:
        out.append(x >= z3.RealVal(d.lower, r.ctx))
    if d.hi is not None:
        out.append(x <= z3.RealVal(d.hi, r.ctx))
    return out


def _check_uses(claim: SizedClaim, uses: Sequence[Use]) -> str | None:
    for use in uses:
        fact = _fact_of(use.fact)
        if not kernel.is_fact(fact):
            return f"lemma {use.lemma.name!r} is used without a kernel fact proving it"
        if fact.grade is not Grade.UNIVERSAL:
            return f"lemma {use.lemma.name!r} is proved only {fact.grade.value} ({fact.over}), not for every size"
        ok, why = kernel.covers(fact, [use.lemma])
        if not ok:
            return f"lemma {use.lemma.name!r}: {why}"
    return None


def prove(claim: SizedClaim, on: str | None = None, ctx: Context | None = None, *,
          invariant: Callable[[Any, Env], Any] | None = None, uses: Sequence[Use] = (),
          timeout_ms: int | None = None) -> Verdict:
    """Prove ``claim`` for every size by induction on ``on`` (its first size by default): base, step
    and closing queries, each an ``unsat`` of its negation; ``invariant`` strengthens the statement
    carried from ``n`` to ``n + 1`` (the conclusion when not given); ``uses`` are the lemmas."""
    on = on or claim.size_names[0]
    method = f"induction on {on} (z3 base, step and close)"
    if on not in claim.size_names:
        return unknown(method, f"{on} is not a size of {claim.name!r} (sizes: {', '.join(claim.size_names)})")
    problem = _check_uses(claim, uses)
    if problem:
        return unknown(method, problem)
    least = claim.least(on)
    if least > MAX_BASE:
        return unknown(method, f"the least size {on} = {least} is above {MAX_BASE}; state the claim from a smaller size")
    limit = timeout_ms if timeout_ms is not None else (ctx.smt_timeout_ms if ctx else 60_000)
    with timed() as t:
        try:
            proof = _Proof(claim, on, invariant, uses, limit)
            _READING.__class__.current = proof.r
            queries = _queries(proof)
        except (Unsupported, CannotDecide) as why:
            return unknown(method, str(why))
        finally:
            _READING.__class__.current = None
        answers, smt_queries = [], []
        for label, query in queries:
            answer = _unsat(proof.r, query, limit, ctx, smt_queries, f"¬({label} of {claim.name})")
            answers.append((label, answer))
            if answer != "unsat":
                break
        step = t.step(NAME, smt.version(), f"induction on {on} for {claim.name}",
                      "; ".join(f"{label}: {a}" for label, a in answers), timeout_ms=limit,
                      lemmas=[u.lemma.name for u in uses])
    failed = [(label, a) for label, a in answers if a != "unsat"]
    if failed:
        label, answer = failed[0]
        return unknown(method, f"the {label} query is not proved (z3: {answer}); a failed step is no counterexample: "
                       "strengthen the invariant, add a lemma, or check the claim at sizes", step)
    entries = [kernel.Entry("solver", f"{smt.version()}: ¬({label} of {claim.name}) unsat", {"solver": "z3", "answer": "unsat",
                                                                                 "query": f"{label} of {claim.name}"})
               for label, _ in answers]
    entries.insert(0, kernel.Entry("induction", f"{claim.name}: induction on {on} from {on} = {least} (base, step{', close' if invariant else ''})",
                                   {"size": on, "from": least}))
    from checker.backends import confirm

    z3_version = smt.version().removeprefix("z3 ")
    entries.append(confirm.on_demand(smt_queries, confirm.Answer("z3", z3_version, "unsat"),
                                         f"induction on {on} for {claim.name}"))
    fact = kernel.issue(claim, Grade.UNIVERSAL, "", entries, assumes=[u.lemma for u in uses])
    if uses:
        fact = kernel.conjoin({claim.name: fact, **{u.lemma.name: _fact_of(u.fact) for u in uses}}, lemmas=True)
    return proved_by(method, fact, step, claim=claim.name, size=on, lemmas=[u.lemma.name for u in uses])


def _queries(proof: _Proof) -> list[tuple[str, Any]]:
    r, z3 = proof.r, proof.r.z3
    fixed = proof.fixed_constraints()
    hyp_fixed, entrywise, _ = proof.classify()
    # base: L copies folded into each accumulator
    r.mode = "base"
    copies = list(range(1, r.base_size + 1))
    base_hyps = [h.formula(proof.o, proof.env()) for h in proof.claim.hypotheses
                 if h.name in {n for n, _ in entrywise}]
    base = proof.o.and_(*fixed, *hyp_fixed, *base_hyps, *proof.instances("base", copies))
    base_goal = proof.invariant_at("base")
    # step
    inv_pre = proof.invariant_at("pre")
    r.mode = "post"
    new_entry = [r.entry_aggregate("all", arr.elem("new")) for _, arr in entrywise]
    inv_post = proof.invariant_at("post")
    step_hyps = [*fixed, *hyp_fixed, r.n >= r.base_size, inv_pre, *new_entry,
                 *proof.instances("pre", ["new"]), *proof.instances("post", ["new"])]
    # close
    r.mode = "pre"
    all_hyps = [h.formula(proof.o, proof.env()) for h in proof.claim.hypotheses]
    inv_close = proof.invariant_at("pre")
    concl = proof.claim.conclusion(proof.o, proof.env())
    r.mode = "close"
    close_hyps = [*fixed, r.n >= r.base_size, *all_hyps, inv_close, *proof.instances("close", ["new"])]
    queries = [("base", z3.And(base, z3.Not(base_goal))),
               ("step", proof.o.and_(*step_hyps, z3.Not(inv_post)))]
    if proof.invariant is not None:
        queries.append(("close", proof.o.and_(*close_hyps, z3.Not(concl))))
    return queries


def _unsat(r: _Reading, query: Any, limit: int, ctx: Context | None, queries: list | None = None,
           what: str = "") -> str:
    """z3's answer to one of the rule's queries (its SMT-LIB text kept in ``queries`` on ``unsat``, for
    the second solver)."""
    z3 = r.z3
    solver = z3.Solver(ctx=r.ctx)
    solver.set(timeout=limit)
    if ctx is not None:
        solver.set(random_seed=ctx.seed % (2**31))
    solver.add(query)
    answer = smt._check(solver, "induction", limit, queries=queries, what=what)
    if answer == z3.unsat:
        return "unsat"
    if answer == z3.unknown:
        return f"unknown ({solver.reason_unknown()})"
    return "sat (a model of its negation: the invariant or the lemmas given are too weak, or the claim is false)"


# ------------------------------------------------------------------ sizes one at a time

SEARCH_UPTO = 6
"""The next-size search looks at every size combination up to this (each size), beyond a bounded proof."""
SEARCH_MOST = 16
"""At most this many size combinations are searched (smallest first)."""
SEARCH_TIMEOUT_MS = 3_000
SEARCH_RLIMIT = 20_000_000


def _family_text(claim: SizedClaim, family: Sequence[Mapping[str, int]]) -> str:
    if len(claim.size_names) == 1:
        name = claim.size_names[0]
        values = sorted({f[name] for f in family})
        if values == list(range(values[0], values[-1] + 1)) and len(values) > 2:
            return f"{name} = {values[0]}…{values[-1]}"
        return f"{name} = {', '.join(map(str, values))}"
    return "; ".join(", ".join(f"{k} = {v}" for k, v in f.items()) for f in family)


def with_sizes(verdict: Verdict, sizes: Mapping[str, int]) -> Verdict:
    """``verdict`` about a sized claim read at ``sizes`` (``THEOREM.at(n=2)``): a refutation's witness
    names the sizes, so that it re-checks against the sized claim; anything else is returned as it is."""
    import dataclasses

    c = verdict.certificate
    if verdict.status is not Status.REFUTED or not c.witness:
        return verdict
    witness = {**{k: str(v) for k, v in sizes.items()}, **dict(c.witness or {})}
    shrunk = None if c.shrunk_witness is None else {**{k: str(v) for k, v in sizes.items()}, **dict(c.shrunk_witness)}
    return Verdict(verdict.status, dataclasses.replace(c, witness=witness, shrunk_witness=shrunk,
                                                       data={**dict(c.data), "sizes": dict(sizes)}))


def at_sizes(claim: SizedClaim, family: Sequence[Mapping[str, int]], ctx: Context | None = None, *,
             timeout_ms: int | None = None) -> Verdict:
    """The sized claim at each size of ``family``, by z3 over ℝ: a ``bounded`` fact about the sized claim
    over exactly those sizes when every one is proved; the first refutation (its witness naming the
    sizes) when one is refuted; ``unknown`` otherwise."""
    method = f"z3 at {_family_text(claim, family)}"
    facts, steps = {}, []
    for sizes in family:
        instance = claim.at(**sizes)
        v = smt.prove(instance, ctx, timeout_ms=timeout_ms)
        steps.extend(v.certificate.steps)
        if v.status is Status.REFUTED:
            return with_sizes(v, sizes)
        fact = v.fact
        if v.status is not Status.PROVED or not kernel.is_fact(fact) or fact.grade is not Grade.UNIVERSAL \
                or not kernel.covers(fact, [instance])[0]:
            return unknown(method, f"at {', '.join(f'{k} = {s}' for k, s in sizes.items())}: {v.certificate.reason}", *steps)
        facts[instance.name] = fact
    ledger = [e for f in facts.values() for e in f.ledger]
    ledger.insert(0, kernel.Entry("family", f"{claim.name} at {_family_text(claim, family)}, each size by z3",
                                  {"sizes": [dict(f) for f in family]}))
    fact = kernel.issue(claim, Grade.BOUNDED, _family_text(claim, family), ledger)
    return proved_by(method, fact, *steps, claim=claim.name, sizes=[dict(f) for f in family])


def refute_at(claim: SizedClaim, sizes: Mapping[str, int], ctx: Context | None = None) -> Verdict | None:
    """A counterexample to ``claim`` at ``sizes``: z3's model of the negation under a deterministic
    resource limit, re-checked exactly (its witness naming the sizes), or ``None``. Only a
    refutation is taken from here, so no proof is issued (nor confirmed)."""
    from checker.backends import exact

    z3 = smt._z3()
    instance = claim.at(**sizes)
    with timed() as t:
        try:
            solver, answer, variables, _ = smt._solve(lambda o, v: o.not_(instance.formula(o, v)), instance, ctx,
                                                      SEARCH_TIMEOUT_MS, rlimit=SEARCH_RLIMIT)
        except CannotDecide:
            return None
        step = t.step(NAME, smt.version(), f"search ¬({instance.name})", str(answer), rlimit=SEARCH_RLIMIT)
    if answer != z3.sat:
        return None
    point, approximated = smt._model_point(solver.model(), instance.variables, variables)
    found = exact.recheck_counterexample(instance, point, "z3 model (next-size search)", step, approximated=approximated)
    return with_sizes(found, sizes) if found.status is Status.REFUTED else None


def search_sizes(claim: SizedClaim, ctx: Context | None = None, *, upto: int = SEARCH_UPTO,
                 skip: Sequence[Mapping[str, int]] = (), most: int = SEARCH_MOST) -> tuple[Verdict | None, str]:
    """A counterexample at the next sizes: the size combinations up to ``upto`` (each size) not in
    ``skip``, smallest first, at most ``most`` of them (:func:`refute_at` at each); the first
    refutation, or ``None``, with the sizes searched in words."""
    done = [dict(s) for s in skip]
    order = sorted(claim.family(upto), key=lambda f: (max(f.values()), sum(f.values()), tuple(f.values())))
    todo = [f for f in order if f not in done][:most]
    for sizes in todo:
        found = refute_at(claim, sizes, ctx)
        if found is not None:
            return found, _family_text(claim, [sizes])
    return None, _family_text(claim, todo) if todo else "none"
