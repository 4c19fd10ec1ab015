"""sympy: identities, derivatives, limits and exact algebraic numbers.

A symbolic step proves only when sympy *reduces* the question to ``0`` / ``True``. A step
is *decisive against* the claim when what sympy computed is a concrete number different from
the claimed one (a limit of √2 where the claim says 1, a nonzero residual at a rational point):
the difference is then enclosed by rigorous intervals (python-flint ``arb`` for the
transcendentals) and, when the enclosure excludes 0, :func:`conclude` reports the step false, with
the computed value: the proof fails (``unknown``), since a false step refutes the proof, not the
theorem. Otherwise the answer is ``unknown`` with what sympy got. Every step records
what was simplified to what.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from checker.backends import CannotDecide
from checker.kernel.model import Grade, Step, Verdict
from checker.kernel import proof as kernel
from checker.kernel.verdicts import proved_by, refuted, timed, unknown

NAME = "symbolic"


def sympy():
    import sympy as sp

    return sp


def version() -> str:
    return f"sympy {sympy().__version__}"


# ------------------------------------------------------------------ rigorous enclosures of constants


def enclose(expr: Any) -> Any:
    """A rigorous :class:`checker.backends.interval.Interval` around a sympy *constant*
    (rationals, floats, π, e, +, ×, integer and half-integer powers, exp, log, erf, erfc, Abs).
    Raises :class:`CannotDecide` for anything else."""
    from checker.backends import interval

    sp = sympy()
    I = interval.Interval
    if expr.free_symbols:
        raise CannotDecide(f"{sp.sstr(expr)} is not a constant")
    if expr.is_Rational:
        return I.of(Fraction(int(expr.p), int(expr.q)))
    if expr.is_Float:
        p, q = interval._mp().libmp.to_rational(expr._mpf_)  # the Float's exact binary value
        return I.of(Fraction(p, q))
    if expr is sp.pi:
        return _pi()
    if expr is sp.E:
        return I.of(1).exp()
    if expr.is_Add:
        out = I.of(0)
        for a in expr.args:
            out = out + enclose(a)
        return out
    if expr.is_Mul:
        out = I.of(1)
        for a in expr.args:
            out = out * enclose(a)
        return out
    if expr.is_Pow:
        base, e = expr.args
        b = enclose(base)
        if e.is_Integer:
            n = int(e)
            return b ** n if n >= 0 else I.of(1) / (b ** -n)
        if e.is_Rational and int(e.q) == 2:
            root = b.sqrt()
            n = int(e.p)
            return root ** n if n >= 0 else I.of(1) / (root ** -n)
        if b.v.a > 0:
            return (b.log() * enclose(e)).exp()
        raise CannotDecide(f"power {sp.sstr(expr)} of a base not enclosed positive")
    fns = {sp.exp: "exp", sp.log: "log", sp.erf: "erf", sp.erfc: "erfc"}
    for f, name in fns.items():
        if expr.func is f and len(expr.args) == 1:
            x = enclose(expr.args[0])
            if name == "log" and x.v.a <= 0:
                raise CannotDecide(f"log of {x.describe()}")
            return getattr(x, name)()
    if expr.func is sp.Abs:
        return interval.OPS.abs(enclose(expr.args[0]))
    raise CannotDecide(f"no rigorous enclosure for {sp.sstr(expr)} ({expr.func})")


def _pi() -> Any:
    from checker.backends import interval

    flint = interval._flint()
    ball = flint.arb.pi()
    lo, hi = Fraction(*_arb_fraction(ball.lower())), Fraction(*_arb_fraction(ball.upper()))
    return interval.Interval.of((lo, hi))


def _arb_fraction(point: Any) -> tuple[int, int]:
    man, exp = point.man_exp()
    man, exp = int(man), int(exp)
    return (man * 2**exp, 1) if exp >= 0 else (man, 2**-exp)


def _nonzero(value: Any) -> tuple[bool, str]:
    """Is the sympy constant ``value`` rigorously nonzero? ``(decided, enclosure text)``."""
    sp = sympy()
    if value in (sp.oo, -sp.oo, sp.zoo):
        return True, sp.sstr(value)
    try:
        box = enclose(value)
    except (CannotDecide, ZeroDivisionError, TypeError, ValueError) as why:
        return False, f"not enclosed: {why}"
    return (box.v.a > 0 or box.v.b < 0), box.describe()


def _decisive(computed: Any, claimed: Any, **witness: Any) -> dict[str, Any] | None:
    """Certificate data when ``computed − claimed`` is a constant rigorously different from 0."""
    sp = sympy()
    if computed.free_symbols or (hasattr(claimed, "free_symbols") and claimed.free_symbols):
        return None
    if computed.has(sp.nan) or computed.has(sp.Limit) or computed.has(sp.Integral):
        return None
    if computed in (sp.oo, -sp.oo) or claimed in (sp.oo, -sp.oo):
        if computed == claimed:
            return None
        difference_text = f"{sp.sstr(computed)} vs {sp.sstr(claimed)}"
    else:
        ok, difference_text = _nonzero(computed - claimed)
        if not ok:
            return None
    return {"computed": sp.sstr(computed), "claimed": sp.sstr(claimed), "enclosure of computed − claimed": difference_text,
            **{k: sp.sstr(x) if hasattr(x, "free_symbols") else str(x) for k, x in witness.items()}}


# ------------------------------------------------------------------ printing


_PRINTER: list[Any] = []  # the memoising printer class, made once sympy is imported
_PRINT_MEMO: dict[int, tuple[Any, str]] = {}  # id → (the printed object itself, its string)
_PRINT_MEMO_STATE: list[Any] = [None]  # the printer settings the memo was filled under
_PRINT_MEMO_LIMIT = 200_000  # entries; the memo is emptied beyond this


def _memo_printer() -> Any:
    if not _PRINTER:
        sp = sympy()
        Basic = sp.Basic

        class SharedStrPrinter(sp.printing.str.StrPrinter):
            """sympy's ``StrPrinter``, printing each subexpression object once.

            A node's string is a function of the node and the printer's settings only, except
            that ``_print_Float`` strips digits below the top level (``_print_level > 1``); so
            every node but the top one is looked up in, and stored to, a memo keyed by the
            object's identity (the memo keeps the object alive, so an id is never reused while
            its entry exists). Calls with keyword arguments are not memoised."""

            def _print(self, expr: Any, **kwargs: Any) -> str:
                if kwargs or not self._print_level or not isinstance(expr, Basic):
                    return super()._print(expr, **kwargs)
                hit = _PRINT_MEMO.get(id(expr))
                if hit is not None and hit[0] is expr:
                    return hit[1]
                out = super()._print(expr)
                _PRINT_MEMO[id(expr)] = (expr, out)
                return out

        _PRINTER.append(SharedStrPrinter)
    return _PRINTER[0]


def sstr(expr: Any) -> str:
    """``sympy.sstr(expr)`` (default settings), the same string, with the strings of
    subexpression objects already printed (by an earlier call, or elsewhere in this one) reused:
    the expressions of a family of checks share large subtrees (sympy's construction cache
    returns the same object for the same arguments), which sympy's printer prints again at
    every occurrence. The memo is emptied when the printer's settings (e.g. global ones) are not
    those it was filled under, and when it grows past :data:`_PRINT_MEMO_LIMIT` entries."""
    printer = _memo_printer()()
    state = dict(printer._settings)
    if _PRINT_MEMO_STATE[0] != state or len(_PRINT_MEMO) > _PRINT_MEMO_LIMIT:
        _PRINT_MEMO.clear()
        _PRINT_MEMO_STATE[0] = state
    return printer.doprint(expr)


# ------------------------------------------------------------------ steps


def zero_step(expr: Any, what: str, at: Sequence[Mapping[Any, Any]] = ()) -> tuple[bool, Step]:
    """Does ``expr`` simplify to exactly 0? The step records the simplified form.

    When it does not, and the simplified form is a constant (or, at one of the caller's points
    ``at`` — rational values of the free symbols inside the claim's domain — takes a value)
    rigorously different from 0, the step is decisive: it carries ``refutes`` (the computed value)
    and :func:`conclude` reports the step false."""
    sp = sympy()
    with timed() as t:
        simplified = sp.simplify(sp.expand(expr))
        ok = simplified == 0
        refutes = None
        if not ok:
            refutes = _decisive(simplified, sp.Integer(0))
            for point in at:
                if refutes is not None:
                    break
                value = sp.simplify(simplified.subs({k: sp.Rational(str(x)) for k, x in point.items()}))
                found = _decisive(value, sp.Integer(0))
                if found is not None:
                    refutes = {**found, "at": {str(k): str(x) for k, x in point.items()}}
        step = t.step(NAME, version(), f"simplify: {what}", "0" if ok else f"{simplified}",
                      expression=sstr(expr), simplified=sstr(simplified), refutes=refutes)
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
            step = t.step(NAME, version(), f"rational-function identity: {what}", "0", expression=sstr(expr),
                          normal_form="0", field=str(field))
    if ok:
        return ok, step
    return fallback() if fallback is not None else zero_step(expr, what)


def true_step(relation: Any, what: str) -> tuple[bool, Step]:
    """Does sympy evaluate ``relation`` (a relational or boolean) to ``True``?

    An equation between two constants that sympy finds false, with the difference rigorously
    enclosed away from 0, is decisive (``refutes``); so is a false ``≤``/``<``/``≥``/``>``
    between constants whose difference is enclosed on the wrong side."""
    sp = sympy()
    with timed() as t:
        value = sp.simplify(relation)
        ok = value is sp.true or value is True
        refutes = None
        if not ok and isinstance(relation, sp.core.relational.Relational) and not relation.free_symbols:
            lhs, rhs = relation.lhs, relation.rhs
            if isinstance(relation, sp.Eq):
                refutes = _decisive(sp.simplify(lhs), sp.simplify(rhs))
            elif isinstance(relation, (sp.Le, sp.Lt, sp.Ge, sp.Gt)):
                refutes = _wrong_side(relation, sp.simplify(lhs), sp.simplify(rhs))
        step = t.step(NAME, version(), f"decide: {what}", "True" if ok else f"{value}",
                      relation=sp.sstr(relation), value=sp.sstr(value), refutes=refutes)
    return ok, step


def _wrong_side(relation: Any, lhs: Any, rhs: Any) -> dict[str, Any] | None:
    sp = sympy()
    if lhs.free_symbols or rhs.free_symbols or lhs.has(sp.nan) or rhs.has(sp.nan):
        return None
    try:
        box = enclose(lhs - rhs) if not ({lhs, rhs} & {sp.oo, -sp.oo}) else None
    except (CannotDecide, ZeroDivisionError, TypeError, ValueError):
        return None
    if box is None:
        return None
    lo, hi = box.v.a, box.v.b
    fails = {sp.Le: lo > 0, sp.Lt: lo >= 0, sp.Ge: hi < 0, sp.Gt: hi <= 0}[type(relation)]
    if not fails:
        return None
    return {"computed": f"{sp.sstr(lhs)} − {sp.sstr(rhs)}", "claimed": sp.sstr(relation),
            "enclosure of computed − claimed": box.describe()}


def limit_step(expr: Any, var: Any, to: Any, expected: Any, what: str, direction: str | None = None) -> tuple[bool, Step]:
    """Does ``lim_{var → to} expr`` equal ``expected``? Decisive (``refutes``, with the computed
    limit) when sympy computes a constant limit rigorously different from ``expected``."""
    sp = sympy()
    with timed() as t:
        lim = sp.limit(expr, var, to, direction) if direction is not None else sp.limit(expr, var, to)
        diff = sp.simplify(lim - expected) if not ({lim, expected} & {sp.oo, -sp.oo}) else None
        ok = (diff == 0) if diff is not None else lim == expected
        refutes = None if ok else _decisive(sp.simplify(lim), sp.sympify(expected), limit=lim)
        step = t.step(NAME, version(), f"limit: {what}", sp.sstr(lim), expression=sp.sstr(expr),
                      limit=sp.sstr(lim), expected=sp.sstr(expected), refutes=refutes)
    return ok, step


def conclude(method: str, checks: list[tuple[bool, Step]], **data: Any) -> Verdict:
    """``proved`` (a kernel fact about each step's identity) if every step reduced to true/0; else
    ``unknown`` naming the steps that did not reduce. A step sympy shows false (a computed value
    rigorously different from the claimed one) is a false *proof step*: the proof fails and says so,
    with the computed value, but that is never a refutation of the theorem the steps were for —
    only a witness re-checked against the declared theorem is."""
    steps = [s for _, s in checks]
    failed = [s.action for ok, s in checks if not ok]
    decisive = [s for ok, s in checks if not ok and s.detail.get("refutes")]
    if decisive:
        first = decisive[0].detail["refutes"]
        shown = "; ".join(f"{k}: {v}" for k, v in first.items())
        return unknown(method, f"a proof step is false: {decisive[0].action} ({shown})", *steps,
                       **data, false_step={"step": decisive[0].action, **{k: str(v) for k, v in first.items()}})
    if failed:
        return unknown(method, "sympy could not reduce (and computed nothing decisive): " + "; ".join(failed),
                       *steps, **data)
    fact = kernel.issue([f"sympy: {s.action}" for s in steps], Grade.UNIVERSAL, "", [
        kernel.Entry("simplification", f"{s.backend} {s.version}: {s.action} → {s.answer}") for s in steps])
    return proved_by(method, fact, *steps, **data)

# ------------------------------------------------------------------ theorems sympy settles


class SymbolicClaim:
    """A theorem sympy settles: ``lim_{var → to} expr = expected`` (an asymptotic written as the
    limit of a ratio) or ``expr = 0`` (an identity). Declared as an obligation's ``theorem``, it is
    what a proof must establish and what a computed value must contradict to refute it.

    ``build`` returns the sympy objects (``(expr, var, to, expected)`` for a limit, ``(expr,)`` for an
    identity) when first needed, so that declaring the theorem imports no sympy. Its identity for the
    kernel (:attr:`subject`) is sympy's exact form of them."""

    variables: tuple[str, ...] = ()
    hypotheses: tuple[Any, ...] = ()

    def __init__(self, name: str, kind: str, build: Callable[[], tuple], direction: str | None = None) -> None:
        if kind not in ("limit", "zero"):
            raise ValueError(f"a symbolic claim is a 'limit' or a 'zero', not {kind!r}")
        self.name, self.kind, self._build, self.direction = name, kind, build, direction
        self._parts: tuple | None = None

    def __repr__(self) -> str:
        return f"SymbolicClaim({self.name!r}, {self.kind})"

    def parts(self) -> tuple:
        if self._parts is None:
            sp = sympy()
            built = tuple(self._build())
            if len(built) != (4 if self.kind == "limit" else 1):
                raise ValueError(f"{self.name}: a {self.kind} claim builds {'(expr, var, to, expected)' if self.kind == 'limit' else '(expr,)'}")
            self._parts = tuple(sp.sympify(x) for x in built)
        return self._parts

    @property
    def expr(self) -> Any:
        return self.parts()[0]

    @property
    def subject(self) -> str:
        sp = sympy()
        return f"(sympy-{self.kind} {self.name!r} " + " ".join(sp.srepr(x) for x in self.parts()) + f" {self.direction!r})"

    def text(self) -> str:
        sp = sympy()
        if self.kind == "limit":
            expr, var, to, expected = self.parts()
            return f"lim_({sp.sstr(var)} → {sp.sstr(to)}) {sp.sstr(expr)} = {sp.sstr(expected)}"
        return f"{sp.sstr(self.expr)} = 0"

    def step(self) -> tuple[bool, Step]:
        if self.kind == "limit":
            expr, var, to, expected = self.parts()
            return limit_step(expr, var, to, expected, f"{self.name}: {self.text()}", self.direction)
        return zero_step(self.expr, f"{self.name}: {self.text()}")

    def recheck(self, witness: Mapping[str, str]) -> bool | None:
        """Is ``witness`` (``{"computed": value}``) what sympy computes for this claim, rigorously
        different from the claimed value? Recomputed here, independently of the run that found it."""
        ok, step = self.step()
        refutes = step.detail.get("refutes")
        if ok:
            return False
        if not refutes:
            return None
        return str(refutes.get("computed")) == str(witness.get("computed"))


def limit_claim(name: str, build: Callable[[], tuple], direction: str | None = None) -> SymbolicClaim:
    """The theorem ``lim_{var → to} expr = expected``; ``build()`` returns ``(expr, var, to, expected)``."""
    return SymbolicClaim(name, "limit", build, direction)


def zero_claim(name: str, build: Callable[[], Any]) -> SymbolicClaim:
    """The theorem ``expr = 0`` (an identity in the free symbols of ``expr``); ``build()`` returns ``expr``."""
    return SymbolicClaim(name, "zero", lambda: (build(),))


def decide(theorem: SymbolicClaim, method: str, lemmas: Sequence[tuple[bool, Step]] = (), **data: Any) -> Verdict:
    """Settle a :class:`SymbolicClaim`: ``proved`` (a kernel fact about it) when its step and every
    lemma step reduce; ``refuted`` when sympy computes a value rigorously different from the claimed
    one while every lemma step holds (the witness is that value, re-checked against the declared
    theorem by recomputing it); ``unknown`` otherwise, naming what did not reduce."""
    ok, step = theorem.step()
    steps = [s for _, s in lemmas] + [step]
    failed_lemmas = [s.action for good, s in lemmas if not good]
    if ok and not failed_lemmas:
        fact = kernel.issue(theorem.subject, Grade.UNIVERSAL, "", [
            kernel.Entry("simplification", f"{s.backend} {s.version}: {s.action} → {s.answer}") for s in steps],
            name=theorem.name)
        return proved_by(method, fact, *steps, claim=theorem.name, **data)
    refutes = step.detail.get("refutes")
    if refutes and not failed_lemmas:
        sides = {k: str(v) for k, v in refutes.items()}
        return refuted(f"{method}; refuted by the computed value (rigorous enclosure of the difference)",
                       {"computed": str(refutes["computed"])}, sides, *steps, claim=theorem.name, **data)
    if failed_lemmas:
        return unknown(method, "a lemma step did not reduce: " + "; ".join(failed_lemmas), *steps, **data)
    return unknown(method, f"sympy could not decide {theorem.text()} (got {step.answer})", *steps, **data)
