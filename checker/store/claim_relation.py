"""How an edited claim relates to the one it replaced: stronger, weaker, equivalent, incomparable.

Both claims are printed forms (:mod:`checker.kernel.printing`), read back into trees. Two true theorems
are equivalent as sentences, so comparing them point by point says nothing; what an author
changes is the *shape* of the claim. The comparison therefore treats every sub-expression the
two claims share (``|m(z) − m(z')|`` and ``max|z − z'|`` in ``… ≤ 2·…`` against ``… ≤ 3·…``) as an
opaque quantity, knowing only what z3 proves about its sign, and compares what is left:

- *stronger*: new ⇒ old for every value of the shared quantities and variables;
- *weaker*: old ⇒ new, and a point where the new claim holds and the old one fails;
- *equivalent*: both implications;
- *incomparable*: neither, with a point each way;
- *undecided*: z3 could not decide, or a part lies outside its fragment (``exp``, ``log``,
  ``sqrt`` or an unknown op outside the shared parts).

Abstracting shared parts only loses information, so *stronger* and *equivalent* also hold for
the claims themselves (substitute the real sub-expressions back); a *weaker* or *incomparable*
answer is a warning that fails until accepted, and its points are values of the shared quantities,
each re-checked in exact rationals on both abstracted claims.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from checker.kernel.printing import Expr, PrintedClaim, text

STRONGER, WEAKER, EQUIVALENT, INCOMPARABLE, UNDECIDED = "stronger", "weaker", "equivalent", "incomparable", "undecided"
_TIMEOUT_MS = 3000


@dataclass(frozen=True, slots=True)
class Relation:
    """The logical relation of a new claim to the old one."""

    kind: str
    new_not_old: Mapping[str, str] | None = None  # a point where the new claim holds and the old fails
    old_not_new: Mapping[str, str] | None = None  # a point where the old claim holds and the new fails
    reason: str = ""
    quantities: Mapping[str, str] = field(default_factory=dict)  # abstracted name -> the shared expression

    def describe(self) -> str:
        def pt(p: Mapping[str, str]) -> str:
            return ", ".join(f"{k} = {v}" for k, v in p.items()) or "any point"

        match self.kind:
            case "stronger":
                return "stronger (the new claim implies the old one)"
            case "equivalent":
                return "equivalent"
            case "weaker":
                return f"weakened: the old claim implies the new one, not conversely — at {pt(self.new_not_old or {})} the new claim holds and the old one fails"
            case "incomparable":
                return (f"incomparable: at {pt(self.new_not_old or {})} only the new claim holds; "
                        f"at {pt(self.old_not_new or {})} only the old one")
        return f"undecided ({self.reason})"

    def to_json(self) -> dict[str, Any]:
        return {"relation": self.kind, "new_not_old": None if self.new_not_old is None else dict(self.new_not_old),
                "old_not_new": None if self.old_not_new is None else dict(self.old_not_new), "reason": self.reason,
                "quantities": dict(self.quantities)}


class _Outside(Exception):
    """A part of the claim z3 does not interpret."""


def _subterms(e: Expr, out: dict[str, Expr]) -> None:
    if e.is_leaf:
        return
    if e.key not in out:
        out[e.key] = e
        for a in e.args:
            _subterms(a, out)


def _abstract(e: Expr, shared: Mapping[str, str]) -> Expr:
    """Replace each maximal shared sub-expression by a fresh variable (``shared``: key -> name)."""
    if e.is_leaf:
        return e
    name = shared.get(e.key)
    if name is not None:
        return Expr("var", (), name)
    return Expr(e.op, tuple(_abstract(a, shared) for a in e.args), e.value)


class _Z3:
    def __init__(self, z3: Any, bools: set[str], ints: set[str]) -> None:
        self.z3, self.bools, self.ints = z3, bools, ints
        self.vars: dict[str, Any] = {}

    def var(self, name: str) -> Any:
        if name not in self.vars:
            z3 = self.z3
            self.vars[name] = (z3.Bool(name) if name in self.bools else z3.Int(name) if name in self.ints else z3.Real(name))
        return self.vars[name]

    def __call__(self, e: Expr) -> Any:
        z3 = self.z3
        op = e.op
        if op == "var":
            return self.var(str(e.value))
        if op == "num":
            return z3.RealVal(e.value)
        if op in ("true", "false"):
            return z3.BoolVal(op == "true")
        a = [self(x) for x in e.args]

        def real(t: Any) -> Any:
            return z3.ToReal(t) if z3.is_int(t) else t

        match op:
            case "+":
                return real(a[0]) + real(a[1])
            case "-":
                return real(a[0]) - real(a[1])
            case "*":
                return real(a[0]) * real(a[1])
            case "/":
                return real(a[0]) / real(a[1])
            case "neg":
                return -real(a[0])
            case "pow":
                n = e.args[1]
                if n.op != "num" or n.value.denominator != 1 or not 0 <= n.value <= 16:
                    raise _Outside("a power with a non-constant or large exponent")
                out = z3.RealVal(1)
                for _ in range(int(n.value)):
                    out = out * real(a[0])
                return out
            case "abs":
                return z3.If(real(a[0]) >= 0, real(a[0]), -real(a[0]))
            case "relu":
                return z3.If(real(a[0]) > 0, real(a[0]), z3.RealVal(0))
            case "max" | "min":
                out = real(a[0])
                for x in a[1:]:
                    out = z3.If((real(x) > out) if op == "max" else (real(x) < out), real(x), out)
                return out
            case "floor":
                return z3.ToReal(z3.ToInt(real(a[0])))
            case "ceil":
                return -z3.ToReal(z3.ToInt(-real(a[0])))
            case "ite":
                return z3.If(a[0], a[1], a[2])
            case "le":
                return real(a[0]) <= real(a[1])
            case "lt":
                return real(a[0]) < real(a[1])
            case "ge":
                return real(a[0]) >= real(a[1])
            case "gt":
                return real(a[0]) > real(a[1])
            case "eq":
                return a[0] == a[1] if z3.is_bool(a[0]) else real(a[0]) == real(a[1])
            case "ne":
                return a[0] != a[1] if z3.is_bool(a[0]) else real(a[0]) != real(a[1])
            case "and":
                return z3.And(*a)
            case "or":
                return z3.Or(*a)
            case "not":
                return z3.Not(a[0])
            case "implies":
                return z3.Implies(a[0], a[1])
            case "is_int":
                return z3.IsInt(real(a[0]))
        raise _Outside(f"{op} is outside the fragment z3 decides here")


def _exact(e: Expr, point: Mapping[str, Any]) -> Any:
    """Evaluate an abstracted claim exactly (Fractions and booleans) at a point."""
    op = e.op
    if op == "var":
        return point[str(e.value)]
    if op == "num":
        return e.value
    if op in ("true", "false"):
        return op == "true"
    a = [_exact(x, point) for x in e.args]
    match op:
        case "+": return a[0] + a[1]
        case "-": return a[0] - a[1]
        case "*": return a[0] * a[1]
        case "/": return a[0] / a[1]
        case "neg": return -a[0]
        case "pow": return a[0] ** int(a[1])
        case "abs": return abs(a[0])
        case "relu": return max(a[0], Fraction(0))
        case "max": return max(a)
        case "min": return min(a)
        case "floor": return Fraction(a[0].__floor__())
        case "ceil": return Fraction(a[0].__ceil__())
        case "ite": return a[1] if a[0] else a[2]
        case "le": return a[0] <= a[1]
        case "lt": return a[0] < a[1]
        case "ge": return a[0] >= a[1]
        case "gt": return a[0] > a[1]
        case "eq": return a[0] == a[1]
        case "ne": return a[0] != a[1]
        case "and": return all(a)
        case "or": return any(a)
        case "not": return not a[0]
        case "implies": return (not a[0]) or a[1]
        case "is_int": return a[0].denominator == 1
    raise _Outside(op)


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    v = Fraction(v)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


#: Aggregates of a sized claim that are ≥ 0 at every size, with the library lemma that proves it.
_NONNEGATIVE = {"sumsq": "sumsq_nonneg", "norm1": "norm1_nonneg", "norminf": "norminf_nonneg"}


def _nonnegative_aggregate(e: Expr) -> bool:
    """Is ``e`` an aggregate that is ≥ 0 for every size (its library lemma proved by induction here)?"""
    lemma = _NONNEGATIVE.get(e.op)
    if lemma is None:
        return False
    from checker.backends import library
    from checker.kernel.model import Status

    return library.fact(lemma).status is Status.PROVED


def relate(old: PrintedClaim, new: PrintedClaim, timeout_ms: int = _TIMEOUT_MS) -> Relation:
    """The relation of ``new`` to ``old`` (see the module docstring)."""
    if old.error is not None or new.error is not None:
        return Relation(UNDECIDED, reason=f"a claim could not be printed: {old.error or new.error}")
    if old.exists or new.exists:
        if old.canonical == new.canonical:
            return Relation(EQUIVALENT)
        return Relation(UNDECIDED, reason="an existence over constants is compared by its text only")
    try:
        import z3
    except ImportError:  # pragma: no cover - z3 is a dependency
        return Relation(UNDECIDED, reason="z3 is not installed")
    f_old, f_new = old.tree(), new.tree()
    if f_old.key == f_new.key:
        return Relation(EQUIVALENT)
    subs_old: dict[str, Expr] = {}
    subs_new: dict[str, Expr] = {}
    _subterms(f_old, subs_old)
    _subterms(f_new, subs_new)
    common = [k for k in subs_new if k in subs_old]
    # names for the shared quantities: the claim's own term names where a term is that expression
    term_names = {t.canonical: t.name for t in (*old.terms, *new.terms)}
    taken = set(old.variables) | set(new.variables)
    shared: dict[str, str] = {}
    for i, k in enumerate(common, 1):
        name = term_names.get(k, f"q{i}")
        while name in taken:
            name = f"{name}_"
        taken.add(name)
        shared[k] = name
    a_old, a_new = _abstract(f_old, shared), _abstract(f_new, shared)
    used: set[str] = set()

    def collect(e: Expr) -> None:
        if e.op == "var":
            used.add(str(e.value))
        for x in e.args:
            collect(x)

    collect(a_old)
    collect(a_new)
    quantities = {shared[k]: text(subs_new[k]) for k in shared if shared[k] in used}
    bools = {shared[k] for k in shared if subs_new[k].is_bool}
    try:
        conv = _Z3(z3, bools, set())
        z_old, z_new = conv(a_old), conv(a_new)
        facts = []
        plain = _Z3(z3, set(), set())
        for k, name in shared.items():
            if name not in used or name in bools:
                continue
            if _nonnegative_aggregate(subs_new[k]):
                facts.append(conv.var(name) >= 0)
                continue
            try:
                inner = plain(subs_new[k])
            except _Outside:
                continue
            for sign, fact in (("≥ 0", lambda t: t >= 0), ("≤ 0", lambda t: t <= 0)):
                s = z3.Solver()
                s.set("timeout", max(200, timeout_ms // 4))
                s.add(z3.Not(fact(inner)))
                if s.check() == z3.unsat:
                    facts.append(fact(conv.var(name)))
    except _Outside as exc:
        return Relation(UNDECIDED, reason=str(exc), quantities=quantities)

    def point(premise: Any, goal_fails: Any, keep_true: Expr, make_false: Expr) -> tuple[str, dict[str, str] | None]:
        s = z3.Solver()
        s.set("timeout", timeout_ms)
        s.add(*facts, premise, z3.Not(goal_fails))
        answer = s.check()
        if answer == z3.unsat:
            return "valid", None
        if answer != z3.sat:
            return "unknown", None
        m = s.model()
        values: dict[str, Any] = {}
        for name in sorted(used):
            v = m.eval(conv.var(name), model_completion=True)
            if z3.is_bool(v):
                values[name] = z3.is_true(v)
            elif z3.is_rational_value(v):
                values[name] = Fraction(v.numerator_as_long(), v.denominator_as_long())
            else:
                return "unknown", None  # an irrational model value: not re-checked exactly
        try:
            if not (_exact(keep_true, values) is True and _exact(make_false, values) is False):
                return "unknown", None
        except (ZeroDivisionError, _Outside, TypeError):
            return "unknown", None
        return "point", {k: _fmt(v) for k, v in values.items()}

    # new ⇒ old ?  (a failure gives a point where new holds and old fails)
    fwd, p_new = point(z_new, z_old, a_new, a_old)
    bwd, p_old = point(z_old, z_new, a_old, a_new)
    if "unknown" in (fwd, bwd):
        return Relation(UNDECIDED, reason="z3 did not decide an implication (or its point did not re-check exactly)",
                        quantities=quantities)
    match (fwd, bwd):
        case ("valid", "valid"):
            return Relation(EQUIVALENT, quantities=quantities)
        case ("valid", _):
            return Relation(STRONGER, old_not_new=p_old, quantities=quantities)
        case (_, "valid"):
            return Relation(WEAKER, new_not_old=p_new, quantities=quantities)
    return Relation(INCOMPARABLE, new_not_old=p_new, old_not_new=p_old, quantities=quantities)
