"""Second solvers: cvc5 confirms every z3 ``unsat``; bitwuzla decides floating-point lemmas.

Why3 and Sledgehammer run several provers because solvers do answer wrongly. Here every ``unsat``
that a proved result rests on is put to a second, independent solver on the same SMT-LIB problem.
It is put when the result is known to rest on it: a fact's ledger holds a *pending* confirmation
(:func:`on_demand`) until the runner resolves the ledger of a proved result (:func:`resolved`), so a
cross-check recorded as data, a route given up for another, or a part of a proof that fails
elsewhere costs no second-solver time (a parent refuses a result frame that still holds one):

- **cvc5** reads the text z3 prints for its assertions (``Solver.sexpr()``), with ``(set-logic …)``
  taken from the assertions' own fragment (:func:`logic_of`: QF_LRA, QF_NRA, QF_LIA, QF_NIRA, …,
  QF_BVFP; ``ALL`` when nothing narrower fits). Without a logic cvc5 falls back to an incomplete
  linearisation and runs past 10 s on ``x·y ≤ (x² + y²)/2``; with QF_NRA it answers in 20 ms.
  A query with integers is put first as its *real relaxation* (:func:`real_relaxation`: the
  integers read as reals, ``QF_NIRA`` as ``QF_NRA``): every model of the query is one of the
  relaxation, so the relaxation's ``unsat`` confirms the query (the ledger says so), and its
  ``sat`` says nothing (the query itself is then put). On mixed integer problems cvc5 mostly gives
  up; on reals its coverings procedure applies.
  Its budget is deterministic: a resource limit (``rlimit-per``, :data:`CVC5_RLIMIT`) counted in
  cvc5's own steps, so the same query gets the same answer on any machine, under any load, in any
  job and in any order. A nonlinear real query gets up to four tries (:data:`REAL_TRIES`): a short
  one with cvc5's cylindrical-algebraic-coverings procedure, which counts no resources in parts of
  its work (it can run for minutes on a query of a few hundred units), one with it on the relevant
  terms only, one without it, and a longer one with it where the first was stopped; any other
  query one (:data:`OTHER_TRIES`); a query's real relaxation only the first and its resumption, and
  every query of a step after one of the same proof was left unconfirmed only a short look
  (:data:`LOOK_S`). Each try runs under a processor-time
  limit of its own (``ITIMER_PROF``, which load does not change) in a child forked for the ledger
  being confirmed (:func:`_server`; a fork costs more than most queries). What the ledger records
  of a query is only what is the same on every machine: an ``unsat`` (confirmed), a ``sat`` (a
  disagreement), or that no try gave one (unconfirmed, with one reason however the tries ended). Whether a try was out of resource units or stopped at its
  processor-time limit — the one thing that depends on the machine — is an observation kept
  beside the timings (:attr:`Answer.cut`, ``OBLIGATIONS_CONFIRM_LOG``). The residue: a last try
  that would answer ``unsat`` just past its limit on one machine and just within it on another
  (README, Performance, gives the slowest measured).
- **bitwuzla** is the first solver of :mod:`checker.backends.fp` (z3 confirming): it settles the
  catalogue's binary32 lemmas several times faster than z3.

What the answers mean, recorded in the fact's trust ledger as one ``confirmation`` entry:

- both ``unsat``: the step is *confirmed* (``detail["confirmed"] is True``);
- the second solver ``unknown``, over its budget, unable to read the text, not installed, or
  confirmation switched off (``[tool.obligations] confirm = false``, ``--no-confirm``): the proof
  stands on the first solver, marked *unconfirmed* with the reason (reports count it);
- the second solver ``sat``: the solvers disagree. :class:`SolverDisagreement` is raised, so the
  obligation is an ``error`` naming both answers — never ``proved`` — and the SMT-LIB problem is
  written to a file for a bug report (:func:`keep`).

Answers are shared between the jobs of one run (:mod:`checker.backends.memo`) under a key of the
solver's version, its options, the logic, the resource limit and the full text: an answer depends
on nothing else, so whichever job asks first, every job gets the answer it would have computed.
A try stopped at its processor-time limit is shared too (the key holds the limit): in the same
run on the same machine the next job's try would be stopped alike. The
ledger holds the answers and, as a timing (``time_s``, which comparisons of certificates leave
out), the time they took — not the resource units an ``unsat`` took, which are those of whichever
try answered: a short try stopped at its limit on one machine may answer on another.

Every query a backend sends can also be recorded (:func:`recording`) and exported as standalone
SMT-LIB (``obligations show ID --smt2``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import select
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from checker.kernel import proof as kernel
from checker.kernel.errors import CheckerError

NAME = "confirm"
ENV_SWITCH = "OBLIGATIONS_CONFIRM"
"""``0``/``false``/``off``/``no``: no second solver (the command line sets it from ``confirm`` and ``--no-confirm``)."""
ENV_LOG = "OBLIGATIONS_CONFIRM_LOG"
"""A file to append each cvc5 query's tries to, one JSON line each (how they ended, processor time)."""
ENV_KEEP_DIR = "OBLIGATIONS_DISAGREEMENTS_DIR"
"""Where the SMT-LIB problem of a disagreement is kept (default: ``obligations-disagreements`` in the temp dir)."""
CVC5_RLIMIT = 150_000
"""cvc5's resource units per query (``rlimit-per``): counted in cvc5's own steps, so a query that
exhausts them gets the same ``unknown`` on any machine. Measured on the catalogue (README,
Performance): every query ends within it in at most about half a second of processor time, and
raising it to 1,000,000 confirms a few more queries for several times the cost."""


@dataclass(frozen=True, slots=True)
class Try:
    """One of cvc5's tries at a query: its options, and the processor seconds its child may use
    before it is stopped (``ITIMER_PROF``: the child's own processor time, which load does not
    change). ``after_stop``: made only when the try before it with the same options was stopped at
    its limit — a try that ended by its resource units or gave up would end alike again, as
    ``rlimit-per`` is the same."""

    name: str
    options: tuple[tuple[str, str], ...]
    cpu_s: float
    after_stop: bool = False


LINEAR_MODEL_FIRST = (("nl-cov-linear-model", "initial"),)
"""Coverings started from the model of the linear part (cvc5's ``nl-cov-linear-model=initial``):
measured on the catalogue's 151 nonlinear real queries, with the same tries otherwise, 146 ``unsat``
for 27.4 s of processor time against 145 for 32.2 s from coverings' own start."""
REAL_TRIES = (
    Try("coverings", LINEAR_MODEL_FIRST, 0.3),
    Try("coverings on relevant terms", (("nl-rlv", "always"),), 2.0),
    Try("linearisation", (("nl-cov", "false"),), 1.0),
    Try("coverings", LINEAR_MODEL_FIRST, 2.5, after_stop=True),
)
"""cvc5's tries at a nonlinear real query (:func:`coverings_apply`), in order, each only when the
ones before gave no ``unsat`` and no ``sat``. Coverings (cylindrical algebraic coverings, cvc5's
default procedure for QF_NRA) settle most such queries in a few hundredths of a second, but spend
no resource units in parts of their work: on some catalogue queries they run for minutes on a few
hundred units, so ``rlimit-per`` does not bound them and only the processor-time limit does. Hence a
short coverings try first; then coverings restricted to the relevant nonlinear terms
(``nl-rlv=always``), which mostly answer or give up within a few tenths of a second and prove six
catalogue queries before linearisation would have given up on them (measured, all tries of every
query: 1.5 s of the 21.5 s the catalogue's nonlinear queries took are saved by trying them before
linearisation); then incremental linearisation (``nl-cov`` off), which the resource limit does bound
and which proves what coverings cannot (the catalogue's larger sums of products); then, only
where the first was stopped at its limit, coverings for longer (``x·y ≤ (x² + y²)/2`` and the
float composition lemmas need up to about 1.5 s on a slower machine, 0.9 s on a faster one: the
limit leaves a margin over the slower). The longer try goes on from where the first
stopped: the first is paused at its limit, not ended, and resumed up to 2.5 s in all
(:func:`_cvc5_child`; where ``/proc`` cannot be read, it starts again). Both coverings tries start
from the linear part's model (:data:`LINEAR_MODEL_FIRST`). The relevant-terms try keeps 2 s: its
slowest ``unsat`` took 0.94 s in one check and 1.26 s in another on the same machine (beside a second
job), too close to a 1.5 s limit that would save about 1 s a check. Measured on the catalogue
(README, Performance)."""
OTHER_TRIES = (Try("default", (), 1.0),)
"""cvc5's one try at any other query (linear, integer, uninterpreted functions, floating point):
coverings do not apply, so a second try would repeat the first step for step."""


def tries_for(logic: str, first_try_only: bool = False, relaxation: bool = False) -> tuple[Try, ...]:
    """cvc5's tries at a query of ``logic``, in order: only the first with ``first_try_only``; at a
    ``relaxation`` (:func:`real_relaxation`), the first and the longer try that goes on with it where
    it was stopped (:data:`REAL_TRIES`), up to :data:`RELAXATION_RESUMED_S`, no other."""
    tries = REAL_TRIES if coverings_apply(logic) else OTHER_TRIES
    if first_try_only:
        return tries[:1]
    if relaxation:
        return (tries[0], *(dataclasses.replace(t, cpu_s=min(t.cpu_s, RELAXATION_RESUMED_S))
                            for t in tries[1:] if t.after_stop and t.options == tries[0].options))
    return tries


RELAXATION_RESUMED_S = 1.0
"""How far a relaxation's stopped first try is resumed (:func:`tries_for`), in processor seconds in all:
the relaxations that answer past the first try's limit do so within 0.4 s on a slower machine, and the
one that never answers (the ramp-margin step of ``psy01a.accuracy_stability``) would otherwise run to the
long try's limit in every check."""


def limits_text(tries: Sequence[Try]) -> str:
    """The processor-time limits of ``tries`` in words, the same however the tries end."""
    return ", ".join(f"{t.name} {t.cpu_s:g} s" for t in tries)

CVC5_WALL_S = 600.0
"""The wall-clock seconds after which a child that never answers is stopped (it cannot spend more
than its try's processor-time limit; this only covers a child blocked without running)."""
BITWUZLA_TIMEOUT_MS = 60_000


class SolverDisagreement(CheckerError, RuntimeError):
    """Two solvers answered differently on the same SMT-LIB problem: one of them is wrong, and the
    proof that rests on the ``unsat`` is not taken. The message names both answers and the file the
    problem is kept in."""

    def __init__(self, message: str, answers: Sequence["Answer"], query: "Query", path: str | None) -> None:
        super().__init__(message)
        self.answers = tuple(answers)
        self.query = query
        self.path = path


def enabled() -> bool:
    """Is second-solver confirmation on (the default)?"""
    return os.environ.get(ENV_SWITCH, "1").strip().lower() not in ("0", "false", "off", "no")


def _z3() -> Any:
    import z3

    return z3


# ------------------------------------------------------------------------------ queries


@dataclass(frozen=True, slots=True)
class Query:
    """One SMT-LIB problem as a solver was given it: declarations and assertions (no ``check-sat``),
    the logic of its fragment, and what it checks (``¬(claim)``)."""

    text: str
    logic: str
    what: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", ascii_symbols(self.text))

    def script(self, *comments: str) -> str:
        """A standalone SMT-LIB script: any solver runs it as it is."""
        head = "".join(f"; {line}\n" for c in comments for line in c.splitlines())
        return f"{head}(set-logic {self.logic})\n{self.text.rstrip()}\n(check-sat)\n"

    @property
    def digest(self) -> str:
        return hashlib.sha256(f"{self.logic}\n{self.text}".encode()).hexdigest()


def ascii_symbols(text: str) -> str:
    """``text`` with every quoted symbol that holds a character outside ASCII (``|sum⟨mul(W,x)⟩|``,
    the names the induction rule gives its aggregates) or a backslash escape spelled in plain ASCII:
    each such character as ``~hex~``, and ``~`` itself as ``~7e~`` so that no two symbols become one.
    z3 prints such symbols, and escapes a ``|`` inside one as ``\\|`` (an aggregate named after
    another's printed term), which SMT-LIB does not allow; cvc5 cannot read either ("Expected a
    LPAREN_TOK"). Spelled in ASCII, any solver reads the same problem."""
    if text.isascii() and "\\" not in text:
        return text

    def spell(m: re.Match[str]) -> str:
        body = m.group(1)
        if body.isascii() and "~" not in body and "\\" not in body:
            return m.group(0)
        chars = re.findall(r"\\.|.", body, flags=re.DOTALL)  # z3's escapes \| and \\ are one character each
        return "|" + "".join(c if len(c) == 1 and c.isascii() and c != "~" else f"~{ord(c[-1]):x}~" for c in chars) + "|"

    return re.sub(r"\|((?:[^|\\]|\\.)*)\|", spell, text, flags=re.DOTALL)


def query_of(solver: Any, what: str = "") -> Query:
    """The query of a z3 solver (plain or tactic): its assertions as z3 prints them (through the
    sealed entry point, :func:`checker.backends.memo.z3_text`), and their logic."""
    from checker.backends import memo

    return Query(memo.z3_text(solver), logic_of(solver.assertions()), what)


def logic_of(assertions: Sequence[Any]) -> str:
    """The SMT-LIB logic of z3 ``assertions``: what sorts occur (Int, Real, floating point, bit
    vectors), whether any product, quotient or power has two non-constant factors (nonlinear), and
    whether there are uninterpreted functions or quantifiers. ``ALL`` when theories mix that no
    standard logic names here (arithmetic with floating point).

    The terms are walked through z3's C API (:mod:`z3.z3core`) on raw pointers: the Python
    wrappers build an object for every node and child, and on the catalogue's larger queries that
    walk cost about as much as cvc5's own tries."""
    z3 = _z3()
    if not assertions:
        return "QF_UF"
    from z3 import z3core as api

    ctx = assertions[0].ctx.ref()
    kind_of, id_of, sort_of, sort_kind = api.Z3_get_ast_kind, api.Z3_get_ast_id, api.Z3_get_sort, api.Z3_get_sort_kind
    to_app, count, argument = api.Z3_to_app, api.Z3_get_app_num_args, api.Z3_get_app_arg
    decl_kind = lambda app: api.Z3_get_decl_kind(ctx, api.Z3_get_app_decl(ctx, app))  # noqa: E731
    applications = (z3.Z3_APP_AST, z3.Z3_NUMERAL_AST)  # a numeral is an application of no arguments
    quotients = (z3.Z3_OP_DIV, z3.Z3_OP_IDIV, z3.Z3_OP_MOD, z3.Z3_OP_REM)
    conversions = (z3.Z3_OP_TO_INT, z3.Z3_OP_IS_INT, z3.Z3_OP_TO_REAL)
    sorts: set[int] = set()
    nonlinear = uf = quantified = converts = False
    variable: dict[int, bool] = {}  # ast id -> contains an uninterpreted constant (or a bound variable)
    seen: set[int] = set()
    stack: list[tuple[Any, bool]] = [(a.as_ast(), False) for a in assertions]
    while stack:  # every subterm once (z3 terms are DAGs), children before parents
        e, expanded = stack.pop()
        kind = kind_of(ctx, e)
        key = id_of(ctx, e)
        if not expanded:
            if key in seen:
                continue
            seen.add(key)
            stack.append((e, True))
            if kind == z3.Z3_QUANTIFIER_AST:
                quantified = True
                stack.append((api.Z3_get_quantifier_body(ctx, e), False))
            elif kind in applications:
                app = to_app(ctx, e)
                stack.extend((argument(ctx, app, i), False) for i in range(count(ctx, app)))
            continue
        if kind not in applications:  # a quantifier or a bound variable
            variable[key] = True
            if kind == z3.Z3_VAR_AST:
                sorts.add(sort_kind(ctx, sort_of(ctx, e)))
            continue
        app = to_app(ctx, e)
        kids = [id_of(ctx, argument(ctx, app, i)) for i in range(count(ctx, app))]
        op = decl_kind(app)
        variable[key] = (op == z3.Z3_OP_UNINTERPRETED and not kids) or any(variable[k] for k in kids)
        sorts.add(sort_kind(ctx, sort_of(ctx, e)))
        if op == z3.Z3_OP_UNINTERPRETED and kids:
            uf = True
        elif op == z3.Z3_OP_MUL:
            nonlinear |= sum(variable[k] for k in kids) >= 2
        elif op in quotients:
            nonlinear |= any(variable[k] for k in kids[1:])
        elif op == z3.Z3_OP_POWER:
            nonlinear |= any(variable[k] for k in kids)
        elif op in conversions:
            converts = True
    ints = z3.Z3_INT_SORT in sorts or converts
    reals = z3.Z3_REAL_SORT in sorts or converts
    fp = bool(sorts & {z3.Z3_FLOATING_POINT_SORT, z3.Z3_ROUNDING_MODE_SORT})
    bv = z3.Z3_BV_SORT in sorts
    arith = ints or reals
    if (fp or bv) and arith:
        return "ALL"
    prefix = "" if quantified else "QF_"
    if fp or bv:
        return f"{prefix}{'UF' if uf else ''}{'BV' if bv else ''}{'FP' if fp else ''}"
    if not arith:
        return f"{prefix}UF"
    numbers = "IRA" if ints and reals else "IA" if ints else "RA"
    return f"{prefix}{'UF' if uf else ''}{'N' if nonlinear else 'L'}{numbers}"


# ------------------------------------------------------------------------------ answers


@dataclass(frozen=True, slots=True)
class Answer:
    """A solver's answer to one query: ``unsat``, ``sat``, ``unknown`` (with the reason), or
    ``unavailable`` (the solver is not installed, cannot read the text, or is switched off)."""

    solver: str  # "cvc5", "bitwuzla", "z3"
    version: str
    answer: str
    reason: str = ""
    resources: int | None = None
    time_s: float = 0.0  # wall clock, an observation (never in a ledger)
    shared: bool = False  # read back from another job of the run
    model: dict[str, str] = field(default_factory=dict)  # variable -> IEEE bit string (bitwuzla, on sat)
    cut: bool = False  # a try was stopped at its processor-time limit: machine-dependent, an observation (never in a ledger)
    cpu_s: float | None = None  # the child's processor time, an observation (never in a ledger)
    resumed_s: float = 0.0  # a try resumed from a paused one: the processor time spent before the pause (likewise)

    @property
    def label(self) -> str:
        return f"{self.solver} {self.version}".strip()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"solver": self.solver, "version": self.version, "answer": self.answer}
        if self.reason:
            out["reason"] = self.reason
        if self.resources is not None:
            out["resources"] = self.resources
        return out


_CVC5: list[Any] = []  # the imported module, once


def cvc5_module() -> Any | None:
    """cvc5, or ``None`` when it is not installed."""
    if not _CVC5:
        try:
            import cvc5
        except (ImportError, OSError):  # not installed, or its library does not load
            _CVC5.append(None)
        else:
            _CVC5.append(cvc5)
    return _CVC5[0]


def cvc5_version() -> str:
    """cvc5's version, from the module itself: asking the installed distributions
    (``importlib.metadata``) lists every folder on ``sys.path``, the project's among them, and a job
    that lists the project folder is keyed on its entries (a report written there afterwards would
    make its cached result stale)."""
    cvc5 = cvc5_module()
    if cvc5 is None:
        return "absent"
    return str(getattr(cvc5, "__version__", "") or "?")


def missing_notes() -> list[str]:
    """One line per second solver that is not installed while confirmation is on."""
    notes = []
    if enabled() and cvc5_module() is None:
        notes.append("cvc5 is not installed: z3's proofs are not confirmed by a second solver and are reported "
                     "unconfirmed (pip install cvc5)")
    if bitwuzla_module() is None:
        notes.append("bitwuzla is not installed: floating-point lemmas are decided by z3 alone and reported "
                     "unconfirmed (pip install bitwuzla)")
    return notes


def cvc5_check(query: Query, rlimit: int | None = None, cpu_s: float | None = None, first_try_only: bool = False) -> Answer:
    """cvc5's answer to ``query``: ``unsat`` or ``sat`` from the first of its tries
    (:func:`tries_for`) that gives one, each under ``rlimit`` resource units (default
    :data:`CVC5_RLIMIT`) in a child limited to its own processor seconds (every try ``cpu_s`` when
    given). When no try does, ``unknown`` with one reason whichever way the tries ended (out of
    resource units, incomplete, or stopped): how they ended depends, for a stopped try, on the
    machine, so it is kept in :attr:`Answer.cut` and the timings, never in the reason. A cvc5 that
    cannot read the text is ``unavailable`` with cvc5's message. Each try's answer is shared within
    a run (see the module docstring).

    A query with integers is first put as its real relaxation (:func:`real_relaxation`), where
    cvc5's coverings apply: an ``unsat`` there is an ``unsat`` of the query (its reason says so).
    The relaxation gets the first try, and its resumption where it was stopped at its limit, only:
    it is a shortcut, not the query. Measured on the catalogue, every one of its 147 ``unsat`` came
    from coverings, the one relaxation that went past them ran the other tries for nothing (3.2 s of
    processor time), and two came 0.02–0.05 s past the first try's limit on a slower machine (their
    proofs were left unconfirmed there without the resumption). Otherwise the query
    itself is put, and its answer stands (a ``sat`` of the relaxation says nothing; the reason names
    it). ``first_try_only``: only the first of the tries at the query too (:func:`resolved` asks so
    for a step of a proof that is unconfirmed already)."""
    rlimit = CVC5_RLIMIT if rlimit is None else rlimit
    cvc5 = cvc5_module()
    if cvc5 is None:
        return Answer("cvc5", "", "unavailable", "cvc5 is not installed (pip install cvc5)")
    version = cvc5_version()
    own_rlimit = min(rlimit, INTEGER_RLIMIT) if _integral(query.logic) else rlimit
    relaxed = real_relaxation(query)
    if relaxed is None:
        return _staged(cvc5, version, query, own_rlimit, cpu_s, first_try_only)
    first = _staged(cvc5, version, relaxed, rlimit, cpu_s, first_try_only, relaxation=True)
    if first.answer == "unsat":  # every model of the query is one of its relaxation
        return dataclasses.replace(first, reason=RELAXED)
    second = _staged(cvc5, version, query, own_rlimit, cpu_s, first_try_only)
    spent = {"time_s": first.time_s + second.time_s, "cpu_s": (first.cpu_s or 0.0) + (second.cpu_s or 0.0),
             "cut": first.cut or second.cut, "shared": first.shared and second.shared}
    if second.answer == "unknown":
        return dataclasses.replace(second, reason=f"{second.reason}; its real relaxation: {first.answer}", **spent)
    return dataclasses.replace(second, **spent)  # a sat of the query itself is a disagreement


INTEGER_RLIMIT = 75_000
"""cvc5's resource units for a query with integers put as it is (not as its real relaxation), at most:
on such queries cvc5 has no coverings and mostly gives up; measured on the catalogue, its integer
``unsat`` took at most 51,316 units (a linear one) and 34,293 (a nonlinear one), and the five it
never proves ran to the full :data:`CVC5_RLIMIT`, 0.3–0.5 s of processor time each."""


def _integral(logic: str) -> bool:
    """Has a query of ``logic`` integers (``QF_LIA``, ``QF_NIRA``, …)?"""
    return logic.endswith(("IA", "IRA"))


RELAXED = "unsat on its real relaxation (its integers read as reals: no integer model either)"
"""The reason an ``unsat`` carries when cvc5 proved the query's real relaxation (:func:`real_relaxation`)."""


def real_relaxation(query: Query) -> Query | None:
    """The query with its integer constants read as reals, under the real logic (``QF_NIRA`` →
    ``QF_NRA``), or ``None`` when the query has no integers or uses what only integers have
    (``div``, ``mod``, ``to_int``, ``is_int``, integer-sorted functions). Every model of the query is
    one of its relaxation (an integer is a real, ``to_real`` the identity), so an ``unsat`` of the
    relaxation is one of the query — and the nonlinear real procedures cvc5 has (coverings) apply,
    where on mixed integer problems it mostly gives up. A relaxation's ``sat`` says nothing."""
    logic = query.logic
    if not logic.startswith("QF_") or not _integral(logic):
        return None
    text = re.sub(r"\(declare-fun (\|[^|]*\||[^\s()|]+) \(\) Int\)", r"(declare-fun \1 () Real)", query.text)
    text = re.sub(r"\(to_real (\|[^|]*\||[^\s()|]+)\)", r"\1", text)
    if re.search(r"\bInt\b|\(\s*(?:to_real|to_int|is_int|div|mod|abs)\b", text):
        return None
    real = logic[:-3] + "RA" if logic.endswith("IRA") else logic[:-2] + "RA"
    return Query(text, real, f"{query.what} (real relaxation)")


def _staged(cvc5: Any, version: str, query: Query, rlimit: int, cpu_s: float | None,
            first_try_only: bool = False, relaxation: bool = False) -> Answer:
    """cvc5's tries at ``query`` in order (each under ``cpu_s`` processor seconds when given; which
    tries: :func:`tries_for`), as :func:`cvc5_check` describes them."""
    tries = tries_for(query.logic, first_try_only, relaxation)
    if cpu_s is not None:
        tries = tuple(dataclasses.replace(t, cpu_s=cpu_s) for t in tries)
    start = time.perf_counter()
    made: list[tuple[Try, Answer]] = []
    held: dict[tuple[tuple[str, str], ...], _Held] = {}  # options -> a try paused for a later, longer one
    try:
        for i, t in enumerate(tries):
            if made and made[-1][1].answer in ("unsat", "sat", "unavailable"):
                break
            if t.after_stop:
                earlier = [(p, a) for p, a in made if p.options == t.options]
                if not earlier or not earlier[-1][1].cut or earlier[-1][0].cpu_s >= t.cpu_s:
                    continue
            longer = next((u.cpu_s for u in tries[i + 1:] if u.after_stop and u.options == t.options), None)
            answer, kept = _cvc5_try(cvc5, version, query, rlimit, t, longer, held.pop(t.options, None))
            if kept is not None:
                held[t.options] = kept
            made.append((t, answer))
    finally:
        for paused in held.values():
            _discard(paused.child)
    answers = [a for _, a in made]
    elapsed = time.perf_counter() - start
    last = answers[-1]
    cut = any(a.cut for a in answers)
    cpu = sum(a.cpu_s or 0.0 for a in answers)
    shared = all(a.shared for a in answers)
    _observe(query, made)
    if last.answer in ("unsat", "sat", "unavailable"):
        return dataclasses.replace(last, time_s=elapsed, cut=cut, cpu_s=cpu, shared=shared)
    # the same words however the tries ended, and whichever were made: what is machine-dependent
    # (a try stopped, a later try made for it) stays out of the reason
    return Answer("cvc5", version, "unknown", f"no proof within its limits ({rlimit:,} resource units; "
                  f"{limits_text(tries)} of processor time)", None, elapsed, shared=shared, cut=cut, cpu_s=cpu)


def coverings_apply(logic: str) -> bool:
    """Does cvc5 use its coverings procedure under ``logic``? Only for nonlinear real arithmetic
    (``QF_NRA``, ``QF_UFNRA``, …, and ``ALL``); with integers (``QF_NIRA``) or linear arithmetic a
    second try would repeat the first step for step (measured: the same resource units, the same
    answer), so only one is made."""
    return logic == "ALL" or "NRA" in logic


def _cvc5_try(cvc5: Any, version: str, query: Query, rlimit: int, t: Try, longer: float | None = None,
              held: _Held | None = None) -> tuple[Answer, _Held | None]:
    """One try at ``query``: read back from the run's store, or run in a child — one ``held`` from an
    earlier try with the same options resumed, or, with ``longer``, one held back for a later try
    (:func:`_cvc5_child`; the held try is the second value)."""
    from checker.backends import memo

    digest = memo.key("cvc5", version, " ".join(f"{k}={v}" for k, v in t.options), query.logic, str(rlimit),
                      f"cpu {t.cpu_s:g}", query.text)
    if memo.active():
        recorded = memo.get("cvc5", digest)
        if isinstance(recorded, dict) and recorded.get("answer") in ("unsat", "sat", "unknown", "unavailable"):
            if held is not None:
                _discard(held.child)
            return Answer("cvc5", version, recorded["answer"], recorded.get("reason", ""), recorded.get("resources"),
                          0.0, shared=True, cut=bool(recorded.get("cut"))), None
    kept: _Held | None = None
    if held is not None and held.limit_s == t.cpu_s:
        answer = _resumed(version, held)
    else:
        if held is not None:
            _discard(held.child)
        answer, kept = _cvc5_child(cvc5, version, query, rlimit, t, longer)
    if memo.active():
        # An answer under the resource limit depends only on the key: another job would compute the
        # same. A try stopped at its processor-time limit is shared too: on the same machine, in the
        # same run, the next job's try would be stopped alike (it leaves the same ledger either way).
        memo.record_second_answer(digest, {**answer.to_json(), **({"cut": True} if answer.cut else {})})
    return answer, kept


def _observe(query: Query, made: Sequence[tuple[Try, Answer]]) -> None:
    """Append how each try ended (which try, its limit, answer, resources, processor time, stopped or
    not) to the file named by ``OBLIGATIONS_CONFIRM_LOG``, if set: the machine-dependent observations
    the ledger leaves out (``benchmarks/bench_confirm.py`` reads them)."""
    path = os.environ.get(ENV_LOG)
    if not path:
        return
    line = json.dumps({"query": query.digest[:16], "what": query.what, "logic": query.logic,
                       "tries": [{"try": t.name, "limit_s": t.cpu_s, "answer": a.answer, "reason": a.reason,
                                  "resources": a.resources, "cut": a.cut,
                                  "cpu_s": None if a.cpu_s is None else round(a.cpu_s, 3), "shared": a.shared,
                                  **({"resumed_s": round(a.resumed_s, 3)} if a.resumed_s else {})}
                                 for t, a in made]})
    with contextlib.suppress(OSError), open(path, "a", encoding="utf-8") as fh:
        fh.write(line + "\n")


@dataclass
class _Child:
    """A forked child that answers requests one at a time, each under a processor-time limit of its
    own (:func:`_serve`). ``spent``: the processor seconds its answered requests took."""

    pid: int
    requests: int  # the parent's end of the pipe it reads requests from
    answers: int  # the parent's end of the pipe it writes answers to
    owner: int  # the process that forked it
    spent: float = 0.0
    served: int = 0


CHILD_REQUESTS = 64
PAUSE_POLL_S = 0.005
"""How often a try to be paused at its limit has its processor time read (:func:`_ask`)."""
"""Requests a cvc5 child answers before a fresh one is forked (whatever cvc5 keeps between queries stays bounded)."""
_SERVER: list[_Child] = []  # this process's cvc5 child, while it lives


def _fork_child(handle: Callable[[Any], Any]) -> _Child:
    """A child forked to answer requests with ``handle`` (:func:`_serve`): its own copy of this
    process, which reads no file. The fork, not each request, is what costs: in a job that holds a
    few hundred MiB it is about 20 ms, where a query takes a few."""
    from checker.kernel.model import self_contained_child

    down_r, down_w = os.pipe()
    up_r, up_w = os.pipe()
    with self_contained_child():  # the child reads no file: the job's record of its reads stays exact
        pid = os.fork()
    if pid == 0:
        try:
            low, high = sorted((down_r, up_w))  # the child holds no other descriptor of the job's
            for start, stop in ((3, low), (low + 1, high), (high + 1, os.sysconf("SC_OPEN_MAX"))):
                os.closerange(start, stop)
            _serve(handle, down_r, up_w)
        finally:
            os._exit(0)  # never the parent's exit handlers
    os.close(down_r)
    os.close(up_w)
    return _Child(pid, down_w, up_r, os.getpid())


def _serve(handle: Callable[[Any], Any], requests: int, answers: int) -> None:
    """The child's loop: each request is answered under an ``ITIMER_PROF`` timer of its processor
    seconds, whose ``SIGPROF`` ends the child, with ``RLIMIT_CPU`` a whole second later behind it (the
    kernel counts the child's own processor time, however loaded the machine). Ends when the parent
    closes its end (or exits)."""
    import math
    import resource

    for stop in (signal.SIGPROF, signal.SIGXCPU):
        signal.signal(stop, signal.SIG_DFL)  # either ends the child
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGPROF, signal.SIGXCPU})  # a mask inherited from the parent
    while True:
        message = _read_message(requests, None)
        if message is None:
            return
        before = _own_cpu()
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        backstop = math.ceil(before) + math.ceil(message["cpu_s"]) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (backstop if hard == resource.RLIM_INFINITY else min(backstop, hard), hard))
        signal.setitimer(signal.ITIMER_PROF, message["cpu_s"])
        record = handle(message["request"])
        signal.setitimer(signal.ITIMER_PROF, 0)
        _write_message(answers, {"record": record, "cpu_s": _own_cpu() - before})


def _own_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _write_message(fd: int, message: Any) -> None:
    payload = json.dumps(message).encode("utf-8")
    view = memoryview(len(payload).to_bytes(8, "big") + payload)
    while view:
        view = view[os.write(fd, view):]


def _read_message(fd: int, deadline: float | None) -> Any:
    """The next message on ``fd``; ``None`` at its end, :class:`TimeoutError` past ``deadline``."""
    def read(n: int) -> bytes | None:
        chunks, left = [], n
        while left:
            if deadline is not None:
                wait = deadline - time.monotonic()
                if wait <= 0 or not select.select([fd], [], [], wait)[0]:
                    raise TimeoutError
            data = os.read(fd, left)
            if not data:
                return None
            chunks.append(data)
            left -= len(data)
        return b"".join(chunks)

    head = read(8)
    body = None if head is None else read(int.from_bytes(head, "big"))
    return None if body is None else json.loads(body.decode("utf-8"))


def _ask(child: _Child, request: Any, cpu_s: float, pause_at: float | None = None) -> tuple[Any, str, float | None]:
    """``child``'s answer to ``request`` under ``cpu_s`` processor seconds: ``(record, how, used)``,
    ``how`` being ``answered``, ``stopped`` (a processor-time limit ended the child), ``stalled`` (no
    answer within :data:`CVC5_WALL_S` of wall clock: stopped here), ``ended`` (the child ended
    without an answer), ``unsent`` (it had ended before the request) or ``paused``: with
    ``pause_at``, the child is stopped (``SIGSTOP``) once it has spent that many processor seconds on
    the request without an answer, and waits, holding its progress, for :func:`_resume`. A child that
    did not answer, and was not paused, has ended, and is reaped."""
    base = _cpu_of(child.pid) if pause_at is not None else None
    try:
        _write_message(child.requests, {"request": request, "cpu_s": cpu_s})
    except BrokenPipeError:  # it had ended before this request
        _reap(child)
        return None, "unsent", None
    deadline = time.monotonic() + CVC5_WALL_S
    if base is not None and pause_at is not None:
        while not select.select([child.answers], [], [], PAUSE_POLL_S)[0]:
            used = _cpu_of(child.pid)
            if used is None or time.monotonic() > deadline:
                break
            if used - base >= pause_at:
                os.kill(child.pid, signal.SIGSTOP)
                _, status = os.waitpid(child.pid, os.WUNTRACED)  # until it has stopped (or ended)
                if not os.WIFSTOPPED(status):
                    return _ended(child, status, _reap(child, status)[1])
                if not select.select([child.answers], [], [], 0)[0]:
                    return None, "paused", (_cpu_of(child.pid) or used) - base
                os.kill(child.pid, signal.SIGCONT)  # it answered as it was stopped
                break
    return _await(child, deadline)


def _await(child: _Child, deadline: float) -> tuple[Any, str, float | None]:
    """The answer ``child`` is working on (see :func:`_ask`)."""
    try:
        message = _read_message(child.answers, deadline)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child.pid, signal.SIGKILL)
        _reap(child)
        return None, "stalled", None
    if isinstance(message, dict) and "record" in message:
        child.spent += message["cpu_s"]
        child.served += 1
        return message["record"], "answered", message["cpu_s"]
    return _ended(child, *_reap(child))


def _ended(child: _Child, status: int, used: float | None) -> tuple[Any, str, float | None]:
    """How a child that gave no answer ended: stopped by a processor-time limit (or here), or not."""
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGPROF, signal.SIGXCPU, signal.SIGKILL):
        return None, "stopped", used
    return None, "ended", used


def _resume(child: _Child, spent: float) -> tuple[Any, str, float | None]:
    """Go on with the request ``child`` was paused on (:func:`_ask`), ``spent`` processor seconds in,
    up to the limit it was sent with; then end it. ``used``: the seconds past ``spent``."""
    os.kill(child.pid, signal.SIGCONT)
    record, how, used = _await(child, time.monotonic() + CVC5_WALL_S)
    if how == "answered":
        _reap(child)
    return record, how, None if used is None else max(0.0, used - spent)


def _discard(child: _Child) -> None:
    """End a paused child whose progress is not needed (a stopped process reads no end of file)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(child.pid, signal.SIGKILL)
    _reap(child)


def _cpu_of(pid: int) -> float | None:
    """The processor seconds process ``pid`` has used (``/proc``, to a clock tick), or ``None``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _reap(child: _Child, status: int | None = None) -> tuple[int, float | None]:
    """Close this end of ``child``'s pipes and wait for it (``status``: it was waited for already):
    its exit status and the processor seconds it spent past its answered requests."""
    for fd in (child.requests, child.answers):
        with contextlib.suppress(OSError):
            os.close(fd)
    if _SERVER and _SERVER[0] is child:
        _SERVER.clear()
    if status is not None:
        return status, None
    try:
        _, status, usage = os.wait4(child.pid, 0)
    except ChildProcessError:
        return 0, None
    return status, max(0.0, usage.ru_utime + usage.ru_stime - child.spent)


def _server(cvc5: Any, version: str) -> _Child:
    """This process's cvc5 child, forked at its first query (and again after :data:`CHILD_REQUESTS`,
    or when the last one ended): one fork for the queries of a result's ledger (:func:`resolved`
    ends it, :func:`_one_child`), not one for each."""
    if _SERVER and (_SERVER[0].owner != os.getpid() or _SERVER[0].served >= CHILD_REQUESTS):
        old = _SERVER.pop()
        if old.owner == os.getpid():
            _reap(old)  # it reads the end of its requests and exits
    if not _SERVER:
        def handle(request: Mapping[str, Any]) -> dict[str, Any]:
            query = Query(request["text"], request["logic"], request["what"])
            options = [tuple(o) for o in request["options"]]
            return _cvc5_run(cvc5, version, query, request["rlimit"], options).to_json()

        _SERVER.append(_fork_child(handle))
    return _SERVER[0]


def _answer_of(record: Any, how: str, used: float | None, cpu_s: float) -> Answer:
    """The :class:`Answer` for what a child gave (:func:`_ask`)."""
    if how == "answered" and isinstance(record, dict):
        return Answer(record["solver"], record["version"], record["answer"], record.get("reason", ""),
                      record.get("resources"), cpu_s=used)
    version = cvc5_version()
    if how == "stalled":
        return Answer("cvc5", version, "unknown", f"no answer within {CVC5_WALL_S:g} s of wall clock (cvc5 stopped)",
                      cut=True, cpu_s=used)
    if how == "stopped":
        return Answer("cvc5", version, "unknown", f"processor-time limit of {cpu_s:g} s reached (cvc5 stopped)",
                      cut=True, cpu_s=used)
    return Answer("cvc5", version, "unavailable", "cvc5 ended without an answer", cpu_s=used)


def _guarded(run: Callable[[], "Answer"], cpu_s: float) -> "Answer":
    """``run()`` in a child of its own (:func:`_fork_child`) limited to ``cpu_s`` seconds of its own
    processor time. Where there is no ``fork``, ``run()`` here."""
    if not hasattr(os, "fork"):  # pragma: no cover - Linux and macOS have it
        return run()
    child = _fork_child(lambda _request: run().to_json())
    record, how, used = _ask(child, None, cpu_s)
    if how == "answered":
        _reap(child)
    return _answer_of(record, how, used, cpu_s)


@contextlib.contextmanager
def _one_child() -> Iterator[None]:
    """The queries asked inside share one cvc5 child (:func:`_server`), which ends with the block: a
    child that outlived it would make this process copy every page it writes afterwards (the two
    share their memory copy-on-write) and double its resident memory as the job's tree is counted."""
    try:
        yield
    finally:
        if _SERVER and _SERVER[0].owner == os.getpid():
            _reap(_SERVER[0])


@dataclass
class _Held:
    """A try paused at its limit in a child of its own (:func:`_ask`), kept for a longer try with the
    same options: that try goes on from where it stopped instead of starting again."""

    child: _Child
    spent: float
    limit_s: float


def _cvc5_child(cvc5: Any, version: str, query: Query, rlimit: int, t: Try,
                longer: float | None = None) -> tuple[Answer, _Held | None]:
    """One try at ``query`` in this process's cvc5 child (:func:`_server`), under the try's
    processor-time limit. With ``longer`` (the limit of a later try with the same options), a try
    reaching its own limit is paused, not stopped, and handed back held: its child leaves the
    ledger's, and the later try resumes it (:func:`_resumed`). Where there is no ``fork``, here."""
    if not hasattr(os, "fork"):  # pragma: no cover - Linux and macOS have it
        return _cvc5_run(cvc5, version, query, rlimit, t.options), None
    request = {"text": query.text, "logic": query.logic, "what": query.what, "rlimit": rlimit,
               "options": [list(o) for o in t.options]}
    limit, pause_at = (longer, t.cpu_s) if longer is not None and longer > t.cpu_s else (t.cpu_s, None)
    for _ in range(2):  # a child killed between two requests leaves the request unsent: the next child is fresh
        child = _server(cvc5, version)
        record, how, used = _ask(child, request, limit, pause_at)
        if how != "unsent":
            break
    if how == "paused":
        _SERVER.remove(child)
        return (Answer("cvc5", version, "unknown", f"processor-time limit of {t.cpu_s:g} s reached (cvc5 paused)",
                       cut=True, cpu_s=used), _Held(child, used or 0.0, limit))
    return _answer_of(record, how, used, limit if how == "stopped" else t.cpu_s), None


def _resumed(version: str, held: _Held) -> Answer:
    """The longer try that goes on with a paused one (:func:`_cvc5_child`)."""
    record, how, used = _resume(held.child, held.spent)
    return dataclasses.replace(_answer_of(record, how, used, held.limit_s), resumed_s=held.spent)


def _cvc5_run(cvc5: Any, version: str, query: Query, rlimit: int, options: Sequence[tuple[str, str]] = ()) -> Answer:
    start = time.perf_counter()
    logic = query.logic
    for attempt in (logic, "ALL") if logic != "ALL" else ("ALL",):
        tm = cvc5.TermManager()
        solver = cvc5.Solver(tm)
        try:
            solver.setOption("rlimit-per", str(rlimit))
            for option, value in options:
                solver.setOption(option, value)
            solver.setLogic(attempt)
            symbols = cvc5.SymbolManager(tm)
            parser = cvc5.InputParser(solver, symbols)
            parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, query.text, "query")
            while True:
                command = parser.nextCommand()
                if command.isNull():
                    break
                command.invoke(solver, symbols)
        except RuntimeError as exc:  # cvc5's parse and option errors are RuntimeErrors
            why = f"cvc5 cannot read z3's text under {attempt}: {str(exc).strip().splitlines()[0][:200]}"
            if attempt != "ALL":
                continue
            return Answer("cvc5", version, "unavailable", why, None, time.perf_counter() - start)
        result = solver.checkSat()
        used = _resources(solver)
        elapsed = time.perf_counter() - start
        note = "" if attempt == logic else f"under ALL: z3's text is outside {logic}"
        if result.isUnsat():
            return Answer("cvc5", version, "unsat", note, used, elapsed)
        if result.isSat():
            return Answer("cvc5", version, "sat", note, used, elapsed)
        explanation = str(result.getUnknownExplanation()).rsplit(".", 1)[-1]
        why = {"RESOURCEOUT": f"resource limit of {rlimit:,} units reached",
               "INCOMPLETE": "incomplete (cvc5's nonlinear procedure gave up)"}.get(explanation, explanation.lower())
        return Answer("cvc5", version, "unknown", why + (f"; {note}" if note else ""), used, elapsed)
    raise AssertionError("unreachable")  # pragma: no cover


def _resources(solver: Any) -> int | None:
    try:
        value = solver.getStatistics()["resource::resourceUnitsUsed"]
        return int(value["value"] if isinstance(value, dict) else value)
    except (KeyError, TypeError, ValueError, RuntimeError):
        return None


_BITWUZLA: list[Any] = []


def bitwuzla_module() -> Any | None:
    """bitwuzla, or ``None`` when it is not installed."""
    if not _BITWUZLA:
        try:
            import bitwuzla
        except (ImportError, OSError):
            _BITWUZLA.append(None)
        else:
            _BITWUZLA.append(bitwuzla)
    return _BITWUZLA[0]


def bitwuzla_version() -> str:
    bw = bitwuzla_module()
    if bw is None:
        return "absent"
    try:
        return str(bw.version())
    except Exception:  # noqa: BLE001 - a version string is only shown
        return "?"


def bitwuzla_check(query: Query, bits: Sequence[str] = (), timeout_ms: int = BITWUZLA_TIMEOUT_MS) -> Answer:
    """bitwuzla's answer to ``query``; on ``sat``, the model's value of each bit-vector constant
    named in ``bits`` as a bit string. bitwuzla has no deterministic resource limit: ``timeout_ms``
    is wall-clock."""
    bw = bitwuzla_module()
    if bw is None:
        return Answer("bitwuzla", "", "unavailable", "bitwuzla is not installed (pip install bitwuzla)")
    version = bitwuzla_version()
    start = time.perf_counter()
    options = bw.Options()
    options.set(bw.Option.PRODUCE_MODELS, True)
    options.set(bw.Option.TIME_LIMIT_PER, int(timeout_ms))
    parser = bw.Parser(bw.TermManager(), options)
    try:
        parser.parse(query.script(), True, False)
    except bw.BitwuzlaException as exc:
        return Answer("bitwuzla", version, "unavailable",
                      f"bitwuzla cannot read the text: {str(exc).strip().splitlines()[0][:200]}", None,
                      time.perf_counter() - start)
    solver = parser.bitwuzla()
    result = solver.check_sat()
    elapsed = time.perf_counter() - start
    if result == bw.Result.UNSAT:
        return Answer("bitwuzla", version, "unsat", "", None, elapsed)
    if result == bw.Result.SAT:
        wanted = set(bits)
        model = {t.symbol(): str(solver.get_value(t).value(2)) for t in parser.get_declared_funs()
                 if t.symbol() in wanted and t.sort().is_bv()}
        return Answer("bitwuzla", version, "sat", "", None, elapsed, model=model)
    return Answer("bitwuzla", version, "unknown", f"wall-clock limit of {timeout_ms} ms reached", None, elapsed)


# ------------------------------------------------------------------------------ confirmation


def confirm_unsat(queries: Sequence[Query], first: Answer, what: str, unconfirmed_at: str | None = None) -> kernel.Entry:
    """The ledger entry confirming ``first``'s ``unsat`` (z3's) on every query of one proof step
    (``what``: ``"¬(claim)"``) by cvc5. Raises :class:`SolverDisagreement` when cvc5 answers ``sat`` on
    any of them (the step is then no proof).

    ``unconfirmed_at``: the step of the same proof that cvc5 left unconfirmed already. The proof is
    then unconfirmed whatever this step gets, so cvc5 takes a short look only: its first try at each
    query, limited to :data:`LOOK_S` (:func:`cvc5_check`). A quick ``unsat`` still confirms the step,
    and a ``sat`` — mostly quick — still shows a disagreement; the longer tries, which could only
    confirm a step of a proof that stays unconfirmed, are not made (the entry says so)."""
    if not enabled():
        return unconfirmed("cvc5", "second-solver confirmation is off (confirm = false / --no-confirm)", len(queries))
    if cvc5_module() is None:
        return unconfirmed("cvc5", "cvc5 is not installed (pip install cvc5)", len(queries))
    if not queries or any(q is None for q in queries):
        return unconfirmed("cvc5", "no SMT-LIB query was recorded for this step", 0)
    answers = []
    look = LOOK_S if unconfirmed_at is not None else None
    for q in queries:
        a = cvc5_check(q, cpu_s=look, first_try_only=unconfirmed_at is not None)
        if a.answer == "sat":
            disagree(q, first, a, what)
        answers.append(a)
        if a.answer != "unsat":
            break  # the step is unconfirmed already: its other queries are not worth cvc5's time
    return confirmation_entry(answers, queries, what, unconfirmed_at)


LOOK_S = 0.1
"""The processor seconds of the one try a step gets once its proof is left unconfirmed by an earlier
step (:func:`confirm_unsat`). Measured on the catalogue: such steps' first tries at 0.3 s took 3.5 s of
processor time in a check, 2.4 s of it on tries stopped at the limit, whose steps stayed unconfirmed
anyway; a ``sat``, which is what such a try is for, comes at once on the problems here."""
_PENDING: dict[str, tuple[tuple[Query, ...], Answer, str]] = {}  # token -> a step's queries, until a result rests on it
_RESOLVED: dict[tuple[str, str | None], kernel.Entry] = {}  # (token, step unconfirmed before it) -> its entry (once per process)


def on_demand(queries: Sequence[Query | None], first: Answer, what: str) -> kernel.Entry:
    """The confirmation entry of one proof step, with cvc5 asked only if a result comes to rest on
    the step (:func:`resolved`, which the runner applies to the ledger of every proved result).

    A step whose proof is dropped — a cross-check recorded as data, a route abandoned for another, a
    part of a proof that fails elsewhere — is then never put to cvc5: a confirmation nobody reads
    costs nothing. Where no cvc5 answer can be had (confirmation off, cvc5 missing, no query
    recorded), the entry says so at once, as :func:`confirm_unsat` does."""
    if not enabled() or cvc5_module() is None or not queries or any(q is None for q in queries):
        return confirm_unsat(queries, first, what)  # type: ignore[arg-type]
    token = f"{os.getpid()}-{len(_PENDING)}"
    _PENDING[token] = (tuple(q for q in queries if q is not None), first, what)
    return kernel.Entry("confirmation", f"to be put to cvc5 if a result rests on this step ({what})",
                        {"pending": token, "queries": len(queries), "about": what})


def is_pending(entry: Mapping[str, Any] | kernel.Entry) -> bool:
    """Is ``entry`` (an :class:`~checker.kernel.proof.Entry` or its JSON) a confirmation not yet asked for?"""
    kind, detail = (entry.kind, entry.detail) if isinstance(entry, kernel.Entry) else (entry.get("kind"), entry.get("detail"))
    return kind == "confirmation" and isinstance(detail, Mapping) and "pending" in detail


def resolved(entries: Iterable[kernel.Entry]) -> tuple[kernel.Entry, ...]:
    """``entries`` with each pending confirmation (:func:`on_demand`) replaced by cvc5's answers on
    its step's queries (:func:`confirm_unsat`: may raise :class:`SolverDisagreement`). A pending
    entry made in another process has no queries here: it becomes unconfirmed, saying so."""
    with _one_child():
        return _resolve(entries)


def _resolve(entries: Iterable[kernel.Entry]) -> tuple[kernel.Entry, ...]:
    out: list[kernel.Entry] = []
    at: str | None = None  # the first step cvc5 left unconfirmed: later steps get a short look only
    for e in entries:
        if is_pending(e):
            token = str(e.detail["pending"])
            if token not in _PENDING:
                e = unconfirmed("cvc5", "the step's queries were not recorded in this process", int(e.detail.get("queries", 0)))
            else:
                if (token, at) not in _RESOLVED:
                    _RESOLVED[(token, at)] = confirm_unsat(*_PENDING[token], unconfirmed_at=at)
                e = _RESOLVED[(token, at)]
        out.append(e)
        if at is None and _left_unconfirmed(e):
            at = str(e.detail.get("about", ""))
    return tuple(out)


def _left_unconfirmed(entry: kernel.Entry) -> bool:
    """Did cvc5 answer on this confirmation entry without confirming its step?"""
    return (entry.kind == "confirmation" and isinstance(entry.detail, Mapping) and entry.detail.get("confirmed") is False
            and entry.detail.get("answer") in ("unknown", "unavailable") and "about" in entry.detail)


def confirmation_entry(answers: Sequence[Answer], queries: Sequence[Query], what: str,
                       unconfirmed_at: str | None = None) -> kernel.Entry:
    """One ``confirmation`` ledger entry for the second solver's ``answers`` (none ``sat``) to the
    first ``len(answers)`` of ``queries``: confirmed only when every query has an ``unsat``.
    ``unconfirmed_at``: the answers are short looks only, as the proof's step ``unconfirmed_at`` was
    left unconfirmed already (:func:`confirm_unsat`)."""
    label = answers[0].label
    logics = sorted({q.logic for q in queries})
    detail: dict[str, Any] = {
        "solver": answers[0].solver, "version": answers[0].version, "queries": len(queries),
        "logic": ", ".join(logics), "answers": dict(sorted(_count(a.answer for a in answers).items())),
    }
    # no resource units: they are those of whichever try answered, and which try that is can depend
    # on the machine (a short try stopped at its limit on one, answering on another)
    # a timing, as a step's ``time_s`` is (comparisons of certificates leave ``time_s`` out); whether an
    # answer was computed here or read back from another job of the run is not recorded: it depends on
    # the order of the jobs, the answer does not
    detail["time_s"] = round(sum(a.time_s for a in answers), 3)
    many = f" on all {len(queries)} queries" if len(queries) > 1 else ""
    relaxed = sum(a.answer == "unsat" and a.reason == RELAXED for a in answers)
    if relaxed:
        detail["relaxed"] = relaxed
    if len(answers) == len(queries) and all(a.answer == "unsat" for a in answers):
        how = f", {relaxed} of them on the real relaxation (no integer model either)" if relaxed else ""
        return kernel.Entry("confirmation", f"{label}: unsat{many} ({', '.join(logics)}{how}): confirmed by a second solver",
                            {**detail, "answer": "unsat", "confirmed": True})
    bad = next((i, a) for i, a in enumerate(answers) if a.answer != "unsat")
    where = f" on query {bad[0] + 1} of {len(queries)}" if len(queries) > 1 else ""
    reason = f"{bad[1].answer}{where}: {bad[1].reason}" if bad[1].reason else f"{bad[1].answer}{where}"
    if unconfirmed_at is not None:
        reason += f" (a short look only: the proof is unconfirmed already at {unconfirmed_at})"
        detail["first_try_only"] = True
    return kernel.Entry("confirmation", f"unconfirmed: {label} answered {reason}",
                        {**detail, "answer": bad[1].answer, "confirmed": False, "reason": reason, "about": what})


def unconfirmed(solver: str, reason: str, queries: int) -> kernel.Entry:
    return kernel.Entry("confirmation", f"unconfirmed: {reason}",
                        {"solver": solver, "answer": "unavailable", "confirmed": False, "reason": reason,
                         "queries": queries})


def _count(items: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return out


def disagree(query: Query, first: Answer, second: Answer, what: str) -> None:
    """Raise :class:`SolverDisagreement`: ``first`` and ``second`` answered ``query`` differently."""
    path = keep(query, f"the solvers disagree on {what}",
                f"{first.label}: {first.answer}; {second.label}: {second.answer}")
    kept = f"the SMT-LIB problem is kept at {path}" if path else "the SMT-LIB problem could not be written"
    raise SolverDisagreement(
        f"the solvers disagree on {what}: {first.label} answered {first.answer}, {second.label} answered "
        f"{second.answer} ({query.logic}); the proof is not taken; {kept}", (first, second), query, path)


def keep(query: Query, *comments: str) -> str | None:
    """Write ``query`` as a standalone SMT-LIB file for a bug report; its path, or ``None``."""
    directory = Path(os.environ.get(ENV_KEEP_DIR) or Path(tempfile.gettempdir()) / "obligations-disagreements")
    path = directory / f"{query.digest[:16]}.smt2"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(query.script(*comments))
        os.replace(tmp, path)
    except OSError:
        return None
    return str(path)


# ------------------------------------------------------------------------------ recording


@dataclass
class Recorded:
    """A query some backend put to a solver while recording, with the answers it got."""

    query: Query
    answers: list[tuple[str, str]]  # (solver and version, answer)


_RECORDING: list[list[Recorded]] = []


@contextlib.contextmanager
def recording() -> Iterator[list[Recorded]]:
    """Record every query the backends put to a solver inside the block (for ``show --smt2``)."""
    found: list[Recorded] = []
    _RECORDING.append(found)
    try:
        yield found
    finally:
        _RECORDING.remove(found)


def record(query: Query | None, solver: str, answer: str) -> None:
    """Note ``solver``'s ``answer`` to ``query`` in every active recording (a no-op otherwise)."""
    if not _RECORDING or query is None:
        return
    for found in _RECORDING:
        same = next((r for r in found if r.query == query), None)
        if same is None:
            found.append(Recorded(query, [(solver, answer)]))
        else:
            same.answers.append((solver, answer))


def recording_active() -> bool:
    return bool(_RECORDING)
