"""z3: universal proofs over ℝ and candidate counterexamples.

Only ``unsat`` of the negated claim is a proof. A ``sat`` model is a *candidate*: it is
converted to exact rationals and re-evaluated by :mod:`checker.backends.exact`; only if the
re-check confirms it is the claim reported ``refuted``. ``unknown`` (or a model that does
not re-check) is reported ``unknown`` with the reason.
"""

from __future__ import annotations

import itertools

from fractions import Fraction
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from checker.backends import CannotDecide, exact
from checker.kernel.claims import Claim
from checker.kernel.model import Certificate, Context, Grade, Status, Verdict
from checker.kernel import proof as kernel
from checker.kernel.verdicts import all_of, proved_by, timed, unknown

NAME = "smt"


def _z3():
    import z3

    return z3


def version() -> str:
    return f"z3 {_z3().get_version_string()}"


UNINTERPRETABLE = ("erf", "exp", "log")
"""The functions z3 can read as uninterpreted (:func:`prove`'s ``uninterpreted``): a function of one
real argument whose value z3 knows nothing of but what the proof's lemmas say."""


class Z3Ops:
    """The ops namespace over z3 terms: ``If`` for relu/abs/max/min. ``uninterpreted``: the
    transcendental functions (of :data:`UNINTERPRETABLE`) read as uninterpreted functions of one real
    argument, each the same function wherever it occurs; any other is not interpreted by z3."""

    name = NAME

    def __init__(self, context: Any = None, uninterpreted: Sequence[str] = ()) -> None:
        self.z3 = _z3()
        self.context = context
        self.uninterpreted = frozenset(uninterpreted)
        self._functions: dict[str, Any] = {}

    def _function(self, name: str, x: Any) -> Any:
        """``name(x)`` with ``name`` an uninterpreted function, when the proof reads it so; else not decidable."""
        if name not in self.uninterpreted:
            raise CannotDecide(f"{name} is not interpreted by z3 (no transcendental functions); use the interval "
                               f"backend, or give z3 proved lemmas about it (prove(..., uninterpreted=({name!r},)))")
        if name not in self._functions:
            real = self.z3.RealSort(self.context)
            self._functions[name] = self.z3.Function(name, real, real)
        return self._functions[name](self._real(x))

    def q(self, num: int, den: int = 1) -> Any:
        return self.z3.RealVal(Fraction(num, den), self.context)

    def _real(self, x: Any) -> Any:
        """A z3 term in this call's context (plain Python numbers are lifted)."""
        return x if self.z3.is_expr(x) else self.z3.RealVal(Fraction(x), self.context)

    def _bool(self, b: Any) -> Any:
        return b if self.z3.is_expr(b) else self.z3.BoolVal(bool(b), self.context)

    def relu(self, x: Any) -> Any:
        return self.z3.If(self._real(x) > 0, x, 0, self.context)

    def abs(self, x: Any) -> Any:
        return self.z3.If(self._real(x) >= 0, x, -x, self.context)

    def max(self, *xs: Any) -> Any:
        out = xs[0]
        for x in xs[1:]:
            out = self.z3.If(self._real(x) > out, x, out, self.context)
        return out

    def min(self, *xs: Any) -> Any:
        out = xs[0]
        for x in xs[1:]:
            out = self.z3.If(self._real(x) < out, x, out, self.context)
        return out

    def ite(self, c: Any, a: Any, b: Any) -> Any:
        return self.z3.If(self._bool(c), a, b, self.context)

    def sqrt(self, x: Any) -> Any:
        raise CannotDecide("sqrt is not interpreted by the smt backend; square both sides instead")

    def floor(self, x: Any) -> Any:
        # ToInt is the floor over ℝ; lifted back so that the claim's arithmetic stays real
        return self.z3.ToReal(self.z3.ToInt(self._real(x)))

    def ceil(self, x: Any) -> Any:
        return -self.floor(-self._real(x))

    def pow(self, x: Any, n: int) -> Any:
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"o.pow takes an integer exponent, got {n!r}")
        base = self._real(x)
        out = self.z3.RealVal(1, self.context)
        for _ in range(abs(n)):
            out = out * base
        return out if n >= 0 else 1 / out

    def exp(self, x: Any) -> Any:
        return self._function("exp", x)

    def erf(self, x: Any) -> Any:
        return self._function("erf", x)

    def log(self, x: Any) -> Any:
        return self._function("log", x)

    # A comparison of two plain numbers (an empty sum at size 0, a constant conclusion) is a Python bool:
    # every comparison and connective lifts its operands into this call's context.
    def le(self, a: Any, b: Any) -> Any:
        return self._bool(a <= b)

    def lt(self, a: Any, b: Any) -> Any:
        return self._bool(a < b)

    def ge(self, a: Any, b: Any) -> Any:
        return self._bool(a >= b)

    def gt(self, a: Any, b: Any) -> Any:
        return self._bool(a > b)

    def eq(self, a: Any, b: Any) -> Any:
        return self._bool(a == b)

    def ne(self, a: Any, b: Any) -> Any:
        return self._bool(a != b)

    def and_(self, *bs: Any) -> Any:
        return self.z3.And(*(self._bool(b) for b in bs)) if bs else self.z3.BoolVal(True, self.context)

    def or_(self, *bs: Any) -> Any:
        return self.z3.Or(*(self._bool(b) for b in bs)) if bs else self.z3.BoolVal(False, self.context)

    def not_(self, b: Any) -> Any:
        return self.z3.Not(self._bool(b))

    def implies(self, a: Any, b: Any) -> Any:
        return self.z3.Implies(self._bool(a), self._bool(b))


def _model_point(model: Any, names: tuple[str, ...], variables: Mapping[str, Any]) -> tuple[dict[str, Fraction], bool]:
    """Exact rationals from a z3 model; the flag says whether any value had to be approximated
    (an irrational algebraic number), in which case the exact re-check decides."""
    z3 = _z3()
    point: dict[str, Fraction] = {}
    approximated = False
    for name in names:
        value = model.eval(variables[name], model_completion=True)
        if z3.is_int_value(value):
            point[name] = Fraction(value.as_long())
        elif z3.is_rational_value(value):
            point[name] = Fraction(value.numerator_as_long(), value.denominator_as_long())
        elif z3.is_algebraic_value(value):
            approximated = True
            r = value.approx(40)
            point[name] = Fraction(r.numerator_as_long(), r.denominator_as_long())
        else:  # pragma: no cover - z3 returns one of the two for Real sorts
            raise CannotDecide(f"z3 model value {value} for {name} is not a real number")
    return point, approximated


def _domain_constraints(z3: Any, context: Any, claim: Claim, name: str, term: Any, integrality: bool = False) -> list:
    """Bounds of a variable's declared domain on ``term`` (and, for a lemma's argument, that it is an integer)."""
    dom = claim.domain(name)
    out = []
    if integrality and dom.integral:
        out.append(z3.IsInt(term))
    if dom.lower is not None:
        out.append(term >= z3.RealVal(dom.lower, context))
    if dom.hi is not None:
        out.append(term <= z3.RealVal(dom.hi, context))
    return out


@dataclass(frozen=True, slots=True)
class Lemma:
    """An instance of an already-proved claim, given to z3 as an extra assertion.

    ``at(o, v)`` maps the lemma's variables to terms in the goal's variables. Sound only when
    the lemma itself is proved; the obligation using it must prove it too (or ``use`` the
    obligation that does), and the certificate names it.
    """

    claim: Claim
    at: Callable[[Any, Any], Mapping[str, Any]]


def _check(solver: Any, *limits: Any, queries: list | None = None, what: str = "") -> Any:
    """``solver.check()`` through the references the shared-fact store took before any catalogue
    code ran (:func:`checker.backends.memo.z3_check`) — so a ``z3.Solver.check`` patched by catalogue
    code is never what answers — or ``unsat`` at once when a job of this run has already found
    exactly these assertions unsat under the same limits. Only ``unsat`` is shared.

    On ``unsat``, the query (the SMT-LIB text and its logic) is appended to ``queries``, for the
    second solver to confirm (:mod:`checker.backends.confirm`)."""
    from checker.backends import confirm, memo

    z3 = _z3()
    recording = confirm.recording_active()
    # the problem's text before the check: after it, z3's text also holds the solver's own state
    read: list[str] | None = [] if recording or (queries is not None and confirm.enabled()) else None
    answer = memo.z3_check(solver, limits, read)
    text = read[0] if read else ""
    needed = queries is not None and answer == z3.unsat
    if recording or (needed and confirm.enabled()):
        query = confirm.Query(text, confirm.logic_of(solver.assertions()), what)
        confirm.record(query, version(), str(answer))
        if needed:
            queries.append(query)
    elif needed:
        queries.append(None)  # counted; with confirmation off nobody reads it
    return answer


def _solve(formula_of, claim: Claim, ctx: Context | None, timeout_ms: int | None, lemmas: Sequence[Lemma] = (),
           rlimit: int | None = None, queries: list | None = None, what: str = "", uninterpreted: Sequence[str] = ()):
    # A fresh z3 context per call: z3's answers and timings otherwise depend on what the same
    # process solved before, and results must not depend on scheduling.
    z3 = _z3()
    context = z3.Context()
    variables = {name: (z3.Int if claim.domain(name).integral else z3.Real)(name, context) for name in claim.variables}
    ops = Z3Ops(context, uninterpreted)
    solver = z3.Solver(ctx=context)
    limit = timeout_ms if timeout_ms is not None else (ctx.smt_timeout_ms if ctx else 60_000)
    solver.set(timeout=limit)
    if rlimit is not None:
        # z3's resource limit is deterministic, unlike the wall-clock timeout (a fast machine
        # may finish within 1 ms what a loaded one cannot).
        solver.set(rlimit=rlimit)
    if ctx is not None:
        solver.set(random_seed=ctx.seed % (2**31))
    # integer variables enter the claim's arithmetic as reals (so that / is division, not div)
    v = claim.env({name: z3.ToReal(x) if claim.domain(name).integral else x for name, x in variables.items()})
    for name in claim.variables:
        solver.add(*_domain_constraints(z3, context, claim, name, v[name]))
    for lemma in lemmas:
        at = lemma.claim.env(lemma.at(ops, v))
        # the lemma is proved only over its declared domains: assume it only where its arguments lie in them
        guard = [c for name in lemma.claim.variables
                 for c in _domain_constraints(z3, context, lemma.claim, name, ops._real(at[name]), integrality=True)]
        body = lemma.claim.formula(ops, at)
        solver.add(z3.Implies(z3.And(*guard), body) if guard else body)
    solver.add(formula_of(ops, v))
    answer = _check(solver, "solver", limit, rlimit, queries=queries, what=what)
    return solver, answer, variables, limit


Tactic = tuple[str, ...]
"""A z3 tactic pipeline by name, e.g. ``("simplify", "elim-term-ite", "smt")``."""
Cases = Callable[[Any, Any], Sequence[Any]]
"""``(o, v) -> terms``: the negation is checked once per sign pattern (``> 0`` / ``≤ 0``) of the terms."""
NLSAT: Tactic = ("simplify", "elim-term-ite", "qfnra-nlsat")
"""z3's nonlinear decision procedure, after the ``If`` terms of |·| and relu are named."""
ITE_SMT: Tactic = ("simplify", "elim-term-ite", "smt")
"""z3's core solver after the ``If`` terms are named (case splitting by CDCL)."""


def _negation_unsat(claim: Claim, ctx: Context | None, lemmas: Sequence[Lemma], tactic: Tactic | None, limit: int,
                    signs: Sequence[bool] = (), cases: Cases | None = None, queries: list | None = None,
                    uninterpreted: Sequence[str] = ()) -> bool:
    """The query of :func:`prove` for an untyped ``claim`` (its negation, with the lemmas'
    instances), in a fresh context, conjoined with one sign pattern of ``cases``' terms; put to
    the tactic pipeline (or to the default solver, seeded as :func:`_solve` seeds it). True only
    on ``unsat``."""
    z3 = _z3()
    context = z3.Context()
    v = claim.env({name: z3.Real(name, context) for name in claim.variables})
    o = Z3Ops(context, uninterpreted)
    if tactic is None:
        solver = z3.Solver(ctx=context)
        if ctx is not None:
            solver.set(random_seed=ctx.seed % (2**31))
    else:
        solver = z3.Then(*(z3.Tactic(name, ctx=context) for name in tactic), ctx=context).solver()
    solver.set(timeout=limit)
    for lemma in lemmas:
        solver.add(lemma.claim.formula(o, lemma.claim.env(lemma.at(o, v))))
    if cases is not None:
        solver.add(*((x > 0) if positive else (x <= 0) for x, positive in zip(cases(o, v), signs)))
    solver.add(o.not_(claim.formula(o, v)))
    what = f"¬({claim.name})" + (f", sign pattern {''.join('+' if p else '-' for p in signs)}" if cases is not None else "")
    return _check(solver, "tactic", tactic, limit, queries=queries, what=what) == z3.unsat


def _fast_unsat(claim: Claim, ctx: Context | None, lemmas: Sequence[Lemma], tactic: Tactic | None,
                cases: Cases | None, limit: int, queries: list | None = None, uninterpreted: Sequence[str] = ()) -> bool:
    """Is the negation unsat by the faster route: the tactic pipeline, and with ``cases`` in every
    sign pattern of their terms (each point of ℝⁿ lies in one pattern, so all unsat means the
    negation has no model)?"""
    if cases is None:
        return _negation_unsat(claim, ctx, lemmas, tactic, limit, queries=queries, uninterpreted=uninterpreted)
    z3 = _z3()
    count = len(cases(Z3Ops(None, uninterpreted), claim.env({name: z3.Real(name) for name in claim.variables})))
    return all(_negation_unsat(claim, ctx, lemmas, tactic, limit, signs, cases, queries, uninterpreted)
               for signs in itertools.product((True, False), repeat=count))


def _fact(claim: Claim, lemmas: Sequence[Lemma], step: Any, queries: Sequence[Any], ctx: Context | None = None,
          uninterpreted: Sequence[str] = ()) -> Any:
    """The kernel fact of an ``unsat`` negation: ``claim`` over its declared domains, relative to the
    lemmas whose instances the solver was given (assumed until a proof of them is conjoined). Every
    query z3 answered ``unsat`` is put to cvc5 when a result comes to rest on the fact
    (:func:`checker.backends.confirm.on_demand`): its answers go into the ledger, and a ``sat`` makes
    the result an error instead of a proof. With ``uninterpreted`` functions the ``unsat`` holds for
    every function in their place, the true ones included (the entry says so)."""
    from checker.backends import confirm

    over = "the declared domains" if claim.typed else "ℝ"
    many = len(set(uninterpreted)) > 1
    read = (f", {', '.join(sorted(uninterpreted))} read as {'uninterpreted functions' if many else 'an uninterpreted function'} "
            f"(so for every function in {'their' if many else 'its'} place, the true {'ones' if many else 'one'} included)"
            ) if uninterpreted else ""
    what = f"¬({claim.name})"
    z3_version = step.version.removeprefix("z3 ")
    confirmation = confirm.on_demand(queries, confirm.Answer("z3", z3_version, "unsat"), what)
    return kernel.issue(claim, Grade.UNIVERSAL, "", [kernel.Entry(
        "solver", f"{step.version}: ¬({claim.name}) unsat over {over}{read}",
        {"solver": "z3", "version": step.version, "answer": "unsat", "query": step.action,
         "queries": len(queries), **({"uninterpreted": sorted(uninterpreted)} if uninterpreted else {})}), confirmation],
        assumes=[lemma.claim for lemma in lemmas])


def prove(
    claim: Claim,
    ctx: Context | None = None,
    *,
    timeout_ms: int | None = None,
    rlimit: int | None = None,
    lemmas: Sequence[Lemma] = (),
    tactic: Tactic | None = None,
    cases: Cases | None = None,
    uninterpreted: Sequence[str] = (),
) -> Verdict:
    """Prove ``∀ vars. hypotheses ⇒ conclusion`` over ℝ, or refute it with a re-checked model.

    With ``lemmas``, the proof is relative to those (already proved) claims' instances.
    ``uninterpreted`` names transcendental functions (:data:`UNINTERPRETABLE`: ``erf``, ``exp``,
    ``log``) that z3 reads as uninterpreted functions, knowing of them only what the lemmas' instances
    say (``erf`` increasing, its value bounded at a point): an ``unsat`` then holds for every function
    in their place, the true ones included, so it proves the claim. A model proves nothing about the
    true functions: it is re-checked with them (exact arithmetic, else rigorous intervals), and one that
    does not re-check leaves the claim ``unknown``.
    ``rlimit`` bounds z3's deterministic resource count, on top of the wall-clock ``timeout_ms``.

    ``tactic`` and ``cases`` give z3 a faster route to the same ``unsat`` (a tactic pipeline; an
    exhaustive split into sign patterns of ``cases``' terms). Only a proof is taken from that
    route, reported exactly as the default route reports it; any other outcome (a model, unknown,
    a timeout) falls back to the default route, so refutations and unknowns are always its own.
    Typed claims and lemmas (whose domains the default route asserts) and ``rlimit`` take the
    default route only."""
    z3 = _z3()
    strange = sorted(set(uninterpreted) - set(UNINTERPRETABLE))
    if strange:
        raise ValueError(f"prove({claim.name!r}): z3 reads only {', '.join(UNINTERPRETABLE)} as uninterpreted functions, "
                         f"not {', '.join(strange)}")
    over = "over the declared domains (integers as Int)" if claim.typed else "over ℝ"
    method = f"z3: check the negation {over}" + (", from proved lemmas" if lemmas else "") + (
        f", {', '.join(sorted(uninterpreted))} uninterpreted" if uninterpreted else "")
    names = [lemma.claim.name for lemma in lemmas]
    untyped = not claim.typed and not any(lemma.claim.typed for lemma in lemmas)
    if (tactic is not None or cases is not None) and untyped and rlimit is None:
        limit = timeout_ms if timeout_ms is not None else (ctx.smt_timeout_ms if ctx else 60_000)
        queries: list = []
        with timed() as t:
            holds = _fast_unsat(claim, ctx, lemmas, tactic, cases, limit, queries, uninterpreted)
            step = t.step(NAME, version(), f"check ¬({claim.name})", "unsat", timeout_ms=limit, rlimit=None, lemmas=names)
        if holds:
            return proved_by(method, _fact(claim, lemmas, step, queries, ctx, uninterpreted), step, claim=claim.name,
                             variables=list(claim.variables), lemmas=names)
    queries = []
    with timed() as t:
        try:
            solver, answer, variables, limit = _solve(
                lambda o, v: o.not_(claim.formula(o, v)), claim, ctx, timeout_ms, lemmas, rlimit, queries, f"¬({claim.name})",
                uninterpreted)
        except CannotDecide as why:
            return unknown(method, str(why))
        step = t.step(NAME, version(), f"check ¬({claim.name})", str(answer), timeout_ms=limit,
                      rlimit=rlimit, lemmas=[lemma.claim.name for lemma in lemmas])
    if answer == z3.unsat:
        return proved_by(method, _fact(claim, lemmas, step, queries, ctx, uninterpreted), step, claim=claim.name,
                         variables=list(claim.variables), lemmas=[lemma.claim.name for lemma in lemmas])
    if answer == z3.unknown:
        return unknown(method, f"z3 answered unknown: {solver.reason_unknown()}", step)
    point, approximated = _model_point(solver.model(), claim.variables, variables)
    verdict = exact.recheck_counterexample(claim, point, "z3 model", step, approximated=approximated)
    if approximated and verdict.status is not Status.REFUTED:
        repaired = _rational_model(solver, claim, variables, point)
        if repaired is not None:
            again = exact.recheck_counterexample(claim, repaired, "z3 model at rational values", step)
            if again.status is Status.REFUTED:
                return again
    return verdict


REPAIR_TRIES = 24
"""Rational values a model with irrational coordinates is pinned to, at most, before giving up."""


def _rational_model(solver: Any, claim: Claim, variables: Mapping[str, Any], near: Mapping[str, Fraction]) -> dict[str, Fraction] | None:
    """A model of the same query whose coordinates are all rational, from one that has irrational ones:
    each such variable pinned in turn (z3 solving for the rest) to the claim's own constants and the
    midpoints between them, then to the convergents of its value, under a short limit each. ``None`` when
    none gives a rational model."""
    z3 = _z3()
    irrational = [x for x in claim.variables
                  if z3.is_algebraic_value(solver.model().eval(variables[x], model_completion=True))]
    constants = constants_of(solver.assertions()[-1]) if len(solver.assertions()) else ()
    tries = 0
    solver.set(timeout=500)
    for x in irrational[:3]:
        for value in (*constants, *_convergents(near[x])):
            if tries >= REPAIR_TRIES:
                return None
            if not claim.domain(x).contains(value):
                continue
            tries += 1
            solver.push()
            try:
                solver.add(variables[x] == (z3.IntVal(int(value), solver.ctx) if claim.domain(x).integral
                                            else z3.RealVal(value, solver.ctx)))
                if solver.check() == z3.sat:
                    point, approximated = _model_point(solver.model(), claim.variables, variables)
                    if not approximated:
                        return point
            except z3.Z3Exception:
                pass
            finally:
                solver.pop()
    return None


def _convergents(x: Fraction, most: int = 8) -> list[Fraction]:
    """The continued-fraction convergents of ``x``, simplest first."""
    out, a, b = [], x, []
    for _ in range(most):
        whole = a.numerator // a.denominator
        b.append(whole)
        value = Fraction(b[-1])
        for term in reversed(b[:-1]):
            value = term + 1 / value
        out.append(value)
        rest = a - whole
        if rest == 0:
            break
        a = 1 / rest
    return out


def constants_of(term: Any, most_nodes: int = 5000) -> tuple[Fraction, ...]:
    """The rational numerals of a z3 term, and the midpoints between consecutive ones: where a piecewise
    reading changes value (its breakpoints), what lies between them, and the values a statement names."""
    z3 = _z3()
    seen, found, todo = 0, set(), [term]
    while todo and seen < most_nodes:
        t = todo.pop()
        seen += 1
        if z3.is_rational_value(t):
            found.add(Fraction(t.numerator_as_long(), t.denominator_as_long()))
        elif z3.is_int_value(t):
            found.add(Fraction(t.as_long()))
        elif z3.is_app(t):
            todo.extend(t.children())
    ordered = sorted(found)
    return (*ordered, *((a + b) / 2 for a, b in zip(ordered, ordered[1:])))


def answer_only(claim: Claim, ctx: Context | None = None, *, rlimit: int, timeout_ms: int = 60_000) -> tuple[str, dict[str, Any] | None]:
    """z3's answer on ``¬claim`` under a deterministic resource limit, as a diagnostic: ``("unsat",
    None)``, ``("sat", point)`` with the model's point (not yet re-checked: the caller re-evaluates it
    exactly) or ``("unknown", None)``. It makes no fact and asks no second solver: nothing is proved
    by it (the ledger's hypothesis notes, :mod:`checker.audit.hypotheses`)."""
    z3 = _z3()
    try:
        solver, answer, variables, _ = _solve(lambda o, v: o.not_(claim.formula(o, v)), claim, ctx, timeout_ms,
                                              rlimit=rlimit, what=f"¬({claim.name})")
    except CannotDecide:
        return "unknown", None
    if answer == z3.unsat:
        return "unsat", None
    if answer == z3.sat:
        point, _ = _model_point(solver.model(), claim.variables, variables)
        return "sat", point
    return "unknown", None


def find_instance(claim: Claim, ctx: Context | None = None, *, timeout_ms: int | None = None) -> Verdict:
    """Prove the existential reading ``∃ vars. hypotheses ∧ conclusion`` by a z3 model that
    the exact backend confirms. ``unsat`` (no instance) refutes that reading, ``some_instance(claim)``:
    the universal claim "no instance" (:func:`checker.kernel.existence.no_instance_claim`) is proved like
    any other (its second-solver confirmation included) and the kernel rule turns it into the negation
    (:func:`refute_instance`); its certificate names no point, as a universal statement has none."""
    z3 = _z3()
    method = "z3 instance, re-checked in exact rationals"
    with timed() as t:
        try:
            solver, answer, variables, limit = _solve(
                lambda o, v: o.and_(claim.premise(o, v), claim.conclusion(o, v)), claim, ctx, timeout_ms,
                what=f"∃ {claim.name}"
            )
        except CannotDecide as why:
            return unknown(method, str(why))
        step = t.step(NAME, version(), f"check ∃ {claim.name}", str(answer), timeout_ms=limit)
    if answer == z3.unsat:
        return refute_instance(claim, ctx, timeout_ms=timeout_ms, steps=(step,))
    if answer == z3.unknown:
        return unknown(method, f"z3 answered unknown: {solver.reason_unknown()}", step)
    point, _ = _model_point(solver.model(), claim.variables, variables)
    return exact.check_instance(claim, point, "z3 model", step)


def refute_instance(claim: Claim, ctx: Context | None = None, *, timeout_ms: int | None = None,
                    steps: Sequence[Step] = ()) -> Verdict:
    """Refute ``some_instance(claim)``: prove "no instance" for every point (:func:`prove` of the claim the
    kernel builds, :func:`checker.kernel.existence.no_instance_claim`), and let the kernel rule
    :func:`checker.kernel.proof.refute_instance` make the negation. Anything short of that proof is
    ``unknown``."""
    from checker.kernel.existence import no_instance_claim, some_instance

    method = "z3: no instance at any point (the negation proved over the domains), so the existence is false"
    shown = prove(no_instance_claim(claim), ctx, timeout_ms=timeout_ms)
    if shown.status is not Status.PROVED or shown.fact.grade is not Grade.UNIVERSAL:
        return unknown(method, f"'no instance' is not proved at every point: {shown.certificate.reason or shown.status.value}",
                       *steps, *shown.certificate.steps)
    theorem = some_instance(claim)
    fact = kernel.refute_instance(theorem, shown.fact)
    return Verdict(Status.REFUTED, Certificate(
        method=method, steps=(*steps, *shown.certificate.steps), witness={},
        data={"claim": theorem.name, "refutes": "every point of the domains (no instance exists)"}), fact=fact)


def refute_existence(theorem: Any, family: Mapping[str, Callable[[Any, Any], Any]], ctx: Context | None = None, *,
                     at: Mapping[str, Any], proofs: Mapping[str, Verdict] | None = None, **options: Any) -> Verdict:
    """Refute ``theorem``, "there are constants such that …" (:func:`checker.kernel.existence.exists`), by a
    witness ``family``: for each universal variable of its body, a term in the constants. z3 proves, for
    every choice of the constants ``where`` allows, that the family's point lies in the body's domains,
    meets its hypotheses and violates its conclusion (:func:`checker.kernel.existence.family_claim`, built
    from the theorem, not by the caller); the kernel turns that proof into the theorem's negation. The
    certificate's witness is the family at the constants ``at``, re-checked against the body (exact
    rationals, else rigorous intervals: a body with erf, exp or log).

    A family that fails somewhere (z3's model, re-checked) is a failed proof step: ``unknown`` naming the
    constants where it fails, never a refutation; so is a family z3 cannot settle. ``options`` go to
    :func:`prove` (``timeout_ms``, ``rlimit``, ``lemmas``, ``tactic``, ``uninterpreted``). ``proofs``: the
    proved verdicts of the ``lemmas`` (and of any other universal fact the refutation rests on), conjoined
    with the family's proof before the kernel's rule is applied, so that the refutation assumes nothing
    (a lemma left unproved makes it ``unknown``, naming the lemma)."""
    from checker.kernel.existence import family_claim
    from checker.kernel.witness import fmt_map, to_fraction

    if not isinstance(at, Mapping) or any(c not in at for c in theorem.constants):
        raise ValueError(f"refute_existence({theorem.name!r}): at= must give a value for each constant "
                         f"({', '.join(theorem.constants)}), got {at!r}")
    wanted = family_claim(theorem, family)
    method = f"witness family for every {', '.join(theorem.constants)} (z3), re-checked at one choice"
    shown = prove(wanted, ctx, **options)
    steps = shown.certificate.steps
    if shown.status is Status.REFUTED:
        where = ", ".join(f"{k} = {v}" for k, v in (shown.certificate.witness or {}).items())
        return unknown(method, f"the witness family does not defeat {theorem.name} at {where} (re-checked at that point): "
                               "a failed proof step, not a refutation", *steps, family_fails_at=dict(shown.certificate.witness or {}))
    if shown.status is not Status.PROVED:
        return unknown(method, f"the witness family is not proved for every choice of the constants: "
                               f"{shown.certificate.reason or shown.status.value}", *steps)
    if proofs:
        shown = all_of(method, {"witness family": shown, **proofs}, lemmas=True)
        steps = shown.certificate.steps
        if shown.status is not Status.PROVED:
            return unknown(method, f"the witness family rests on a part that is not proved: "
                                   f"{shown.certificate.reason or shown.status.value}", *steps)
        if shown.fact.grade is not Grade.UNIVERSAL:
            return unknown(method, f"the witness family rests on a part proved {shown.fact.grade.value} only "
                                   f"({shown.fact.over}), not for every choice of the constants", *steps)
    fact = kernel.refute_existence(theorem, family, shown.fact)
    constants = {c: to_fraction(at[c]) for c in theorem.constants}
    shown_at = ", ".join(f"{k} = {v}" for k, v in fmt_map(constants).items())
    env = wanted.env(constants)
    if not theorem.where_holds(exact.OPS, env):
        return unknown(method, f"the constants shown ({shown_at}) are not allowed by the theorem's conditions "
                               "on them: choose at= among those the family was proved for", *steps)
    point = {**constants, **{x: family[x](exact.OPS, env) for x in theorem.universals}}
    check = exact.recheck_counterexample(theorem.body, point, f"the witness family at {shown_at}")
    if check.status is not Status.REFUTED:
        return unknown(method, f"the family's point at {shown_at} does not re-check: "
                               f"{check.certificate.reason}", *steps, *check.certificate.steps)
    c = check.certificate
    return Verdict(Status.REFUTED, Certificate(
        method=method, steps=(*steps, *c.steps), witness=c.witness, sides=c.sides,
        data={"claim": theorem.name, "family": wanted.name,
              "refutes": f"every {', '.join(theorem.constants)} allowed ({', '.join(p.name for p in theorem.where) or 'any'})"}),
        fact=fact)
