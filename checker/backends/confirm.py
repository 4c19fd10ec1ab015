"""Second solvers: cvc5 confirms every z3 ``unsat``; bitwuzla decides floating-point lemmas.

Why3 and Sledgehammer run several provers because solvers do answer wrongly. Here every ``unsat``
that a kernel fact rests on is put to a second, independent solver on the same SMT-LIB problem:

- **cvc5** reads the text z3 prints for its assertions (``Solver.sexpr()``), with ``(set-logic …)``
  taken from the assertions' own fragment (:func:`logic_of`: QF_LRA, QF_NRA, QF_LIA, QF_NIRA, …,
  QF_BVFP; ``ALL`` when nothing narrower fits). Without a logic cvc5 falls back to an incomplete
  linearisation and runs past 10 s on ``x·y ≤ (x² + y²)/2``; with QF_NRA it answers in 20 ms. Its
  budget is a deterministic resource limit (``rlimit-per``, :data:`CVC5_RLIMIT`); as cvc5 spends no
  resource inside parts of its nonlinear procedure, each query also runs in a forked child that is
  killed when the job's confirmation budget is spent (:func:`budget_left`: a share of the job's
  own processor time, plus a floor), and after :data:`CVC5_GUARD_S` seconds at most. A guard or the
  budget can only leave a proof unconfirmed, never change a status.
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
solver's version, the logic, the resource limit and the full text: an answer depends on nothing
else. A query the guard cut is recorded with its guard: a later job that could give cvc5 no longer
takes the same ``unknown`` without the wait.

Every query a backend sends can also be recorded (:func:`recording`) and exported as standalone
SMT-LIB (``obligations show ID --smt2``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import select
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from checker.kernel import proof as kernel
from checker.kernel.errors import CheckerError

NAME = "confirm"
ENV_SWITCH = "OBLIGATIONS_CONFIRM"
"""``0``/``false``/``off``/``no``: no second solver (the command line sets it from ``confirm`` and ``--no-confirm``)."""
ENV_KEEP_DIR = "OBLIGATIONS_DISAGREEMENTS_DIR"
"""Where the SMT-LIB problem of a disagreement is kept (default: ``obligations-disagreements`` in the temp dir)."""
CVC5_RLIMIT = 1_000_000
"""cvc5's resource units per query (``rlimit-per``): counted in cvc5's own steps, so a query that
exhausts them gets the same ``unknown`` on any machine."""
CVC5_GUARD_S = 3.0
"""The longest one query may run: cvc5 runs in a forked child that is killed after it (or sooner, when
the job's budget is smaller). cvc5 does not count resources (nor check its own time limit) inside
parts of its nonlinear procedure, where it can run for minutes."""
BUDGET_SHARE = 0.4
"""A job (one obligation) may spend on confirmation this share of the processor time it has spent
itself (z3, sympy, the catalogue's own computations: the time the check takes without
confirmation) ..."""
BUDGET_FLOOR_S = 1.0
"""... plus this many seconds. So confirmation adds a bounded share to a check, however loaded
the machine: both sides of the ratio slow down together (the floor and the forks add a little)."""
_SPENT: dict[str, Any] = {"job": None, "seconds": 0.0, "cpu0": 0.0}  # the current job's cvc5 time and start
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

    def script(self, *comments: str) -> str:
        """A standalone SMT-LIB script: any solver runs it as it is."""
        head = "".join(f"; {line}\n" for c in comments for line in c.splitlines())
        return f"{head}(set-logic {self.logic})\n{self.text.rstrip()}\n(check-sat)\n"

    @property
    def digest(self) -> str:
        return hashlib.sha256(f"{self.logic}\n{self.text}".encode()).hexdigest()


def query_of(solver: Any, what: str = "") -> Query:
    """The query of a z3 solver (plain or tactic): its assertions as z3 prints them, and their logic."""
    return Query(solver.sexpr(), logic_of(solver.assertions()), what)


def logic_of(assertions: Sequence[Any]) -> str:
    """The SMT-LIB logic of z3 ``assertions``: what sorts occur (Int, Real, floating point, bit
    vectors), whether any product, quotient or power has two non-constant factors (nonlinear), and
    whether there are uninterpreted functions or quantifiers. ``ALL`` when theories mix that no
    standard logic names here (arithmetic with floating point)."""
    z3 = _z3()
    ints = reals = fp = bv = nonlinear = uf = quantified = False
    variable: dict[int, bool] = {}  # ast id -> contains an uninterpreted constant
    order: list[Any] = []  # every subterm once (z3 terms are DAGs), children before parents
    seen: set[int] = set()
    stack: list[tuple[Any, bool]] = [(a, False) for a in assertions]
    while stack:
        e, expanded = stack.pop()
        if expanded:
            order.append(e)
            continue
        key = e.get_id()
        if key in seen:
            continue
        seen.add(key)
        stack.append((e, True))
        if z3.is_quantifier(e):
            quantified = True
            stack.append((e.body(), False))
        elif z3.is_app(e):
            stack.extend((k, False) for k in e.children())
    for e in order:
        key = e.get_id()
        if z3.is_quantifier(e) or z3.is_var(e):
            variable[key] = True
            continue
        if not z3.is_app(e):
            variable[key] = True
            continue
        kids = e.children()
        decl = e.decl()
        kind = decl.kind()
        variable[key] = (kind == z3.Z3_OP_UNINTERPRETED and not kids) or any(variable[k.get_id()] for k in kids)
        sort = e.sort().kind()
        ints |= sort == z3.Z3_INT_SORT
        reals |= sort == z3.Z3_REAL_SORT
        fp |= sort in (z3.Z3_FLOATING_POINT_SORT, z3.Z3_ROUNDING_MODE_SORT)
        bv |= sort == z3.Z3_BV_SORT
        for k in kids:
            s = k.sort().kind()
            ints |= s == z3.Z3_INT_SORT
            reals |= s == z3.Z3_REAL_SORT
        if kind == z3.Z3_OP_UNINTERPRETED and kids:
            uf = True
        elif kind == z3.Z3_OP_MUL:
            nonlinear |= sum(variable[k.get_id()] for k in kids) >= 2
        elif kind in (z3.Z3_OP_DIV, z3.Z3_OP_IDIV, z3.Z3_OP_MOD, z3.Z3_OP_REM):
            nonlinear |= any(variable[k.get_id()] for k in kids[1:])
        elif kind == z3.Z3_OP_POWER:
            nonlinear |= any(variable[k.get_id()] for k in kids)
        elif kind in (z3.Z3_OP_TO_INT, z3.Z3_OP_IS_INT, z3.Z3_OP_TO_REAL):
            ints = reals = True
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
    time_s: float = 0.0
    shared: bool = False  # read back from another job of the run
    model: dict[str, str] = field(default_factory=dict)  # variable -> IEEE bit string (bitwuzla, on sat)

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
    from importlib import metadata

    try:
        return metadata.version("cvc5")
    except metadata.PackageNotFoundError:
        return "absent"


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


def cvc5_check(query: Query, rlimit: int | None = None, guard_s: float | None = None) -> Answer:
    """cvc5's answer to ``query`` under ``rlimit`` resource units (default :data:`CVC5_RLIMIT`), in a
    child process stopped after ``guard_s`` seconds (default :data:`CVC5_GUARD_S`, less when the job's
    confirmation budget is smaller: :func:`budget_left`); shared within a run (see the module docstring)."""
    from checker.backends import memo

    rlimit = CVC5_RLIMIT if rlimit is None else rlimit
    guard_s = CVC5_GUARD_S if guard_s is None else guard_s
    cvc5 = cvc5_module()
    if cvc5 is None:
        return Answer("cvc5", "", "unavailable", "cvc5 is not installed (pip install cvc5)")
    version = cvc5_version()
    parts = ("cvc5", version, query.logic, str(rlimit), query.text)
    recorded_cut = None
    if memo.active():
        recorded = memo.get("cvc5", memo.key(*parts))
        if isinstance(recorded, dict) and recorded.get("answer") in ("unsat", "sat", "unknown", "unavailable"):
            return Answer("cvc5", version, recorded["answer"], recorded.get("reason", ""), recorded.get("resources"),
                          0.0, shared=True)
        if isinstance(recorded, dict) and recorded.get("answer") == "cut":
            recorded_cut = recorded.get("guard")
    left = budget_left()
    if left <= 0.02:
        return Answer("cvc5", version, "unknown", "this job's confirmation budget is spent "
                      f"({BUDGET_SHARE:g} of its own processor time + {BUDGET_FLOOR_S:g} s)")
    guard = min(guard_s, left)
    if isinstance(recorded_cut, (int, float)) and recorded_cut >= guard:
        # another job of the run gave cvc5 at least as long on this query without an answer
        return Answer("cvc5", version, "unknown", f"wall-clock guard of {recorded_cut:.2g} s reached (in another job of "
                      "this run)", None, 0.0, shared=True)
    start = time.perf_counter()
    answer = _guarded(lambda: _cvc5_run(cvc5, version, query, rlimit), guard)
    elapsed = time.perf_counter() - start
    _SPENT["seconds"] += elapsed
    if answer is None:
        answer = Answer("cvc5", version, "unknown", f"wall-clock guard of {guard:.2g} s reached (cvc5 stopped)", None,
                        elapsed)
        if memo.active():
            # A guard-cut unknown depends on the machine's load and on the guard: it is shared with the
            # guard, so that another job with no longer a guard is spared the same wait.
            memo.record_second_answer(memo.key(*parts), {"answer": "cut", "guard": guard})
        return answer
    answer = Answer(answer.solver, answer.version, answer.answer, answer.reason, answer.resources, elapsed)
    if memo.active():
        memo.record_second_answer(memo.key(*parts), answer.to_json())
    return answer


def _guarded(run: Callable[[], "Answer"], seconds: float) -> "Answer | None":
    """``run()`` in a forked child, its answer sent back on a pipe; ``None`` when the child does not
    answer within ``seconds`` (it is killed: cvc5's own time limit is not checked inside some of its
    nonlinear procedures, which can run for minutes). Where there is no ``fork``, ``run()`` here."""
    if not hasattr(os, "fork"):  # pragma: no cover - Linux and macOS have it
        return run()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer, and leave without running the parent's exit handlers
        try:
            os.close(reader)
            payload = memoryview(json.dumps(run().to_json()).encode("utf-8"))
            while payload:
                payload = payload[os.write(writer, payload):]
        finally:
            os._exit(0)
    os.close(writer)
    chunks: list[bytes] = []
    deadline = time.monotonic() + seconds
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([reader], [], [], left)[0]:
                return None
            data = os.read(reader, 1 << 16)
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(reader)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    try:
        record = json.loads(b"".join(chunks).decode("utf-8"))
    except ValueError:
        return Answer("cvc5", cvc5_version(), "unavailable", "cvc5 ended without an answer")
    return Answer(record["solver"], record["version"], record["answer"], record.get("reason", ""), record.get("resources"))


def _cvc5_run(cvc5: Any, version: str, query: Query, rlimit: int) -> Answer:
    start = time.perf_counter()
    logic = query.logic
    for attempt in (logic, "ALL") if logic != "ALL" else ("ALL",):
        tm = cvc5.TermManager()
        solver = cvc5.Solver(tm)
        try:
            solver.setOption("rlimit-per", str(rlimit))
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


def charge_to(job: str | None) -> None:
    """Count cvc5's time against ``job`` (an obligation id) from now on: a new job starts afresh
    (:func:`budget_left`). ``None`` keeps counting against the current one."""
    if job is not None and job != _SPENT["job"]:
        _SPENT.update(job=job, seconds=0.0, cpu0=time.process_time() if _SPENT["job"] is not None else 0.0)


def budget_left() -> float:
    """Seconds the current job may still spend on cvc5: :data:`BUDGET_SHARE` of the processor time it
    has spent itself, plus :data:`BUDGET_FLOOR_S`, less what cvc5 took so far. A job is a fresh process
    of the runner, whose processor time starts at zero; cvc5's children are not counted in it."""
    own = time.process_time() - _SPENT["cpu0"]
    return BUDGET_FLOOR_S + BUDGET_SHARE * own - _SPENT["seconds"]


def confirm_unsat(queries: Sequence[Query], first: Answer, what: str, job: str | None = None) -> kernel.Entry:
    """The ledger entry confirming ``first``'s ``unsat`` (z3's) on every query of one proof step
    (``what``: ``"¬(claim)"``) by cvc5, charged to ``job`` (:func:`charge_to`). Raises
    :class:`SolverDisagreement` when cvc5 answers ``sat`` on any of them (the step is then no proof)."""
    charge_to(job)
    if not enabled():
        return unconfirmed("cvc5", "second-solver confirmation is off (confirm = false / --no-confirm)", len(queries))
    if cvc5_module() is None:
        return unconfirmed("cvc5", "cvc5 is not installed (pip install cvc5)", len(queries))
    if not queries or any(q is None for q in queries):
        return unconfirmed("cvc5", "no SMT-LIB query was recorded for this step", 0)
    answers = []
    for q in queries:
        a = cvc5_check(q)
        if a.answer == "sat":
            disagree(q, first, a, what)
        answers.append(a)
        if a.answer != "unsat":
            break  # the step is unconfirmed already: its other queries are not worth cvc5's time
    return confirmation_entry(answers, queries, what)


def confirmation_entry(answers: Sequence[Answer], queries: Sequence[Query], what: str) -> kernel.Entry:
    """One ``confirmation`` ledger entry for the second solver's ``answers`` (none ``sat``) to the
    first ``len(answers)`` of ``queries``: confirmed only when every query has an ``unsat``."""
    label = answers[0].label
    logics = sorted({q.logic for q in queries})
    detail: dict[str, Any] = {
        "solver": answers[0].solver, "version": answers[0].version, "queries": len(queries),
        "logic": ", ".join(logics), "answers": dict(sorted(_count(a.answer for a in answers).items())),
    }
    used = [a.resources for a in answers if a.resources is not None]
    if used:
        detail["resources"] = sum(used)
    detail["time_s"] = round(sum(a.time_s for a in answers), 3)
    if any(a.shared for a in answers):
        detail["shared"] = sum(a.shared for a in answers)  # answers read back from another job of the run
    many = f" on all {len(queries)} queries" if len(queries) > 1 else ""
    if len(answers) == len(queries) and all(a.answer == "unsat" for a in answers):
        return kernel.Entry("confirmation", f"{label}: unsat{many} ({', '.join(logics)}): confirmed by a second solver",
                            {**detail, "answer": "unsat", "confirmed": True})
    bad = next((i, a) for i, a in enumerate(answers) if a.answer != "unsat")
    where = f" on query {bad[0] + 1} of {len(queries)}" if len(queries) > 1 else ""
    reason = f"{bad[1].answer}{where}: {bad[1].reason}" if bad[1].reason else f"{bad[1].answer}{where}"
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
