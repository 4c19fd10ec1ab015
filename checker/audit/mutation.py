"""The mutation audit: does each obligation's check fail when its claim or discharge is changed?

As mutation-testing tools do for tests (mutmut, Stryker), the audit perturbs the source an
obligation's verdict depends on — its discharge function and the module-level definitions it
names (claims, constants, helpers), transitively — one AST edit at a time, re-runs the
discharge on each *mutant*, and lists the **survivors**: mutants whose status is still the
original ``proved`` or ``refuted``. A survivor is a change the check did not notice: either
the check cannot fail there (a defect to fix), or the mutant states something that is still
true (a weaker hypothesis-free bound, a wider exhaustive range) — then the obligation's
docstring says so, with a line ``Survives mutation: <source text>: <why>``, and the survivor is
reported *explained*.

Mutations (each a single site):

- numeric literals ``n → n + 1`` (``0 → 1``, ``1/10 → 2/10`` through its numerator);
- comparison operators ``< ↔ ≤``, ``> ↔ ≥``, ``== ↔ !=``, in Python and as claim ops
  (``o.lt ↔ o.le``, ``o.gt ↔ o.ge``, ``o.eq ↔ o.ne``).

Not mutated, by design: resource and search settings (``timeout_ms``, ``rlimit``, ``samples``,
``rounds``, ``seed``, ``prec``, …) and literals inside ``range(…)`` (the size of an exhaustive
scope): changing them does not change what is claimed. Strings are never mutated.

A mutant runs with the module re-executed from the mutated source under a private registry,
within a per-mutant time limit; a mutant whose discharge raises, or changes status, is *killed*;
one that runs out of time is *undecided*. The command runs each obligation as jobs in isolated
worker processes (:func:`plan_job`, then one :func:`mutant_job` per mutant, with a CPU-time budget;
orchestrated by :mod:`checker.run.mutants`, side by side with ``--jobs``); :func:`run` is the
older form, one child process per obligation running its mutants one after another.
The mutation score is killed / (killed + survivors).
"""

from __future__ import annotations

import ast
import random
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

RESOURCE_KEYWORDS = frozenset({
    "timeout_ms", "rlimit", "samples", "rounds", "keep", "seed", "prec", "digits", "timeout_s", "points",
    "max_evaluations", "instances", "trials", "n_samples", "chunk", "chunks", "budget_s", "jobs", "workers",
})
_OP_SWAPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
_OPS_SYMBOL = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_CLAIM_OP_SWAPS = {"lt": "le", "le": "lt", "gt": "ge", "ge": "gt", "eq": "ne", "ne": "eq"}


@dataclass(frozen=True, slots=True)
class Mutant:
    """One single-site edit of a module's source."""

    index: int  # position among the module's mutation sites, in source order
    line: int
    col: int
    kind: str  # "number" | "comparison" | "claim-op"
    original: str
    replacement: str
    source_line: str
    scope: tuple[str, ...] = ()  # the functions and classes around the site, outermost first

    def describe(self) -> str:
        return f"line {self.line}: {self.original} → {self.replacement} in `{self.source_line.strip()}`"


# ------------------------------------------------------------------------------ sites


def _referenced_names(nodes: Sequence[ast.AST]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}


def _relevant_nodes(tree: ast.Module, discharge: str) -> list[ast.AST]:
    """The discharge function's body and every module-level definition it names, transitively."""
    defs: dict[str, ast.AST] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            defs[stmt.name] = stmt
        elif isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        defs.setdefault(n.id, stmt)
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            defs[stmt.target.id] = stmt
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            # declare_bound(...)/declare_widths(...) calls are declarations about claims
            pass
    fn = defs.get(discharge)
    if not isinstance(fn, ast.FunctionDef):
        return []
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    chosen: list[ast.AST] = list(body)
    seen = {discharge}
    frontier = _referenced_names(body)
    while frontier:
        name = frontier.pop()
        if name in seen or name not in defs:
            continue
        seen.add(name)
        node = defs[name]
        if node not in chosen:
            chosen.append(node)
        inner = node.body if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else [node]
        frontier |= _referenced_names(inner) - seen
    return chosen


def _excluded_spans(node: ast.AST, display: Sequence[tuple[int, int, int, int]] = ()) -> list[tuple[int, int, int, int]]:
    """Source spans not to mutate: resource keywords, range(...) arguments, decorators, docstrings,
    and ``display`` (expressions that reach only a certificate's text or data)."""
    spans = list(display)
    for n in ast.walk(node):
        if isinstance(n, ast.keyword) and n.arg in RESOURCE_KEYWORDS:
            spans.append(_span(n.value))
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "range":
            spans.extend(_span(a) for a in n.args)
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            spans.extend(_span(d) for d in n.decorator_list)
        elif isinstance(n, ast.Subscript):
            spans.append(_span(n.slice))  # indices select, they do not state
    return spans


# Calls whose arguments only describe a verdict: a verdict constructor fixes its status by which
# constructor it is, so its method, steps, grade, scope text and data are display (a refutation's
# witness is not: it is what the re-check must have confirmed, so it stays a site); a step
# records what a backend was asked and answered.
_DISPLAY_ONLY_CALLS = frozenset({"proved", "supported", "unknown", "step", "Step", "print"})
_DISPLAY_AFTER = {"refuted": 2, "with_data": 1, "regrade": 1, "all_of": 2}  # arguments from this position on
_DISPLAY_KEYWORDS = {"all_of": frozenset({"family"})}


def _call_name(n: ast.Call) -> str | None:
    if isinstance(n.func, ast.Name):
        return n.func.id
    if isinstance(n.func, ast.Attribute):
        return n.func.attr
    return None


def _sink_spans(tree: ast.AST) -> list[tuple[int, int, int, int]]:
    """Expressions whose value can only end up in a certificate's text or data, never in a status:
    the arguments of verdict constructors and steps (see ``_DISPLAY_ONLY_CALLS``), and f-strings."""
    spans = []
    for n in ast.walk(tree):
        if isinstance(n, ast.JoinedStr):
            spans.append(_span(n))
        elif isinstance(n, ast.Raise) and isinstance(n.exc, ast.Call):
            spans.extend(_span(a) for a in n.exc.args)  # an exception's message
        elif isinstance(n, ast.Call):
            name = _call_name(n)
            if name in _DISPLAY_ONLY_CALLS:
                spans.extend(_span(a) for a in n.args)
                spans.extend(_span(k.value) for k in n.keywords)
            elif name in _DISPLAY_AFTER:
                first = _DISPLAY_AFTER[name]
                spans.extend(_span(a) for a in n.args[first:] if not any(isinstance(x, ast.Starred) for x in n.args[:first]))
                spans.extend(_span(k.value) for k in n.keywords
                             if (name != "all_of" and k.arg is not None) or k.arg in _DISPLAY_KEYWORDS.get(name, ()))
    return spans


_FRESH = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
_CONTAINER_WRITES = frozenset({"append", "extend", "update", "add", "insert", "setdefault"})


def _target_names(targets: Sequence[ast.AST]) -> list[ast.Name] | None:
    """The names a plain assignment binds (``x = …``, ``a, b = …``), or None for anything else."""
    out: list[ast.Name] = []
    for t in targets:
        if isinstance(t, ast.Name):
            out.append(t)
        elif isinstance(t, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in t.elts):
            out.extend(t.elts)  # type: ignore[arg-type]
        else:
            return None
    return out


def _display_only_assignments(tree: ast.Module, sinks: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The sinks, plus the right-hand sides of variables read only inside display expressions (a
    rounded value that is shown, a decimal enclosure, a table of digits) and the bodies of
    module-level functions called only there, found to a fixed point: a variable every read of
    which is inside a sink, or inside the right-hand side of such a variable, only ever reaches
    text. An assignment ``a, b = …`` is display when every name it binds is.

    Conservative: only names bound by plain assignments in their scope (no loop, ``with``, ``del``,
    walrus, ``global``/``nonlocal``, parameters, class attributes, imports) qualify, a scope that
    calls ``locals()``/``globals()``/``vars()``/``eval``/``exec`` is skipped, and every read
    anywhere in the scope counts (nested functions included)."""
    scopes: list[ast.AST] = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    spans = list(sinks)
    while True:  # a scope's display variables can make another scope's reads display
        before = len(spans)
        _display_pass(scopes, spans)
        if len(spans) == before:
            return spans


def _display_pass(scopes: Sequence[ast.AST], spans: list[tuple[int, int, int, int]]) -> None:
    for scope in scopes:
        body = scope.body
        disqualified: set[str] = set()
        loads: dict[str, list[ast.Name]] = {}
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = scope.args
            disqualified |= {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
            disqualified |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
        nodes = [n for stmt in body for n in ast.walk(stmt)]
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
               and n.func.id in ("locals", "vars", "globals", "eval", "exec") for n in nodes):
            continue
        for n in nodes:
            if isinstance(n, ast.ClassDef):  # class attributes are read as attributes, not names
                disqualified |= {t.id for t in ast.walk(n) if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)}
            elif isinstance(n, (ast.Global, ast.Nonlocal)):
                disqualified |= set(n.names)
        statements: list[tuple[ast.AST, list[str]]] = []
        simple_targets: set[int] = set()
        for stmt in nodes:
            if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and stmt.value is not None:
                names = _target_names(stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                if names is not None:
                    statements.append((stmt, [t.id for t in names]))
                    simple_targets |= {id(t) for t in names}
        # writes into a fresh container (``table[k] = v``, ``notes.append(v)``) of a name bound only to
        # fresh containers: the name's own reads there are writes, and the statement is display with it
        fresh = {name for _, names in statements for name in names}
        for stmt, names in statements:
            if not isinstance(stmt.value, _FRESH) and not (isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)
                                                            and stmt.value.func.id in ("dict", "list", "set") and not stmt.value.args):
                fresh -= set(names)
        writes: list[tuple[ast.AST, str, ast.Name]] = []
        for n in nodes:
            if isinstance(n, (ast.Assign, ast.AugAssign)):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                if len(targets) == 1 and isinstance(targets[0], ast.Subscript) and isinstance(targets[0].value, ast.Name) \
                        and targets[0].value.id in fresh:
                    writes.append((n, targets[0].value.id, targets[0].value))
            elif isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute) \
                    and n.value.func.attr in _CONTAINER_WRITES and isinstance(n.value.func.value, ast.Name) \
                    and n.value.func.value.id in fresh:
                writes.append((n, n.value.func.value.id, n.value.func.value))
        write_loads = {id(name) for _, _, name in writes}
        functions = {n.name: n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))} \
            if isinstance(scope, ast.Module) else {}
        for n in nodes:
            if isinstance(n, ast.Name):
                if isinstance(n.ctx, ast.Load):
                    if id(n) not in write_loads:
                        loads.setdefault(n.id, []).append(n)
                elif id(n) not in simple_targets:
                    disqualified.add(n.id)  # bound by a loop, unpacking into attributes, with, del, walrus, …
            elif isinstance(n, ast.arg):
                disqualified.add(n.arg)  # a parameter of a nested function or lambda shadows it
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if not (n.name in functions and functions[n.name] is n):
                    disqualified.add(n.name)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                disqualified |= {(a.asname or a.name).split(".")[0] for a in n.names}
        bound = {name for _, names in statements for name in names}
        redefined = {name for name in functions if name in bound}
        done: set[str] = set()
        added: set[int] = set()
        changed = True
        while changed:
            changed = False
            for name in bound | (set(functions) - redefined):
                if name not in done and name not in disqualified and all(_inside(u, spans) for u in loads.get(name, ())):
                    done.add(name)
                    changed = True
                    if name in functions and loads.get(name) and not functions[name].decorator_list \
                            and _span(functions[name]) not in spans:
                        spans.append(_span(functions[name]))  # a helper only display code calls
            for stmt, name, _ in writes:
                if id(stmt) not in added and name in done:
                    added.add(id(stmt))
                    if _span(stmt) not in spans:
                        spans.append(_span(stmt))
                    changed = True
            for stmt, names in statements:
                if id(stmt) not in added and all(name in done for name in names):
                    added.add(id(stmt))
                    if _span(stmt.value) not in spans:
                        spans.append(_span(stmt.value))
                    changed = True


def _span(n: ast.AST) -> tuple[int, int, int, int]:
    return (n.lineno, n.col_offset, getattr(n, "end_lineno", n.lineno), getattr(n, "end_col_offset", n.col_offset))


def _inside(n: ast.AST, spans: Sequence[tuple[int, int, int, int]]) -> bool:
    pos = (n.lineno, n.col_offset)
    return any((a, b) <= pos and pos < (c, d) for a, b, c, d in spans)


def sites(source: str, discharge: str) -> list[Mutant]:
    """Every single-site mutation of the source a discharge depends on, in source order."""
    tree = ast.parse(source)
    lines = source.splitlines()
    found: list[tuple[int, int, str, str, str]] = []
    seen_pos = set()
    display = _display_only_assignments(tree, _sink_spans(tree))
    for node in _relevant_nodes(tree, discharge):
        excluded = _excluded_spans(node, display)
        for n in ast.walk(node):
            if isinstance(n, ast.Constant) and type(n.value) in (int, float) and not _inside(n, excluded):
                new = n.value + 1
                found.append((n.lineno, n.col_offset, "number", repr(n.value), repr(new)))
            elif isinstance(n, ast.Compare) and not _inside(n, excluded):
                for k, op in enumerate(n.ops):
                    if type(op) in _OP_SWAPS:
                        found.append((n.lineno, n.col_offset * 1000 + k, "comparison", _OPS_SYMBOL[type(op)],
                                      _OPS_SYMBOL[_OP_SWAPS[type(op)]]))
            elif (isinstance(n, ast.Attribute) and n.attr in _CLAIM_OP_SWAPS and isinstance(n.value, ast.Name)
                  and n.value.id == "o" and not _inside(n, excluded)):
                found.append((n.lineno, n.col_offset, "claim-op", f"o.{n.attr}", f"o.{_CLAIM_OP_SWAPS[n.attr]}"))
    defs = [(_span(n), n.name) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    out = []
    for line, col, kind, original, replacement in sorted(found):
        if (line, col, kind) in seen_pos:
            continue
        seen_pos.add((line, col, kind))
        pos = (line, col // 1000 if kind == "comparison" else col)
        scope = tuple(name for (a, b, c, d), name in sorted(defs) if (a, b) <= pos < (c, d))
        out.append(Mutant(len(out), line, col, kind, original, replacement, lines[line - 1] if line <= len(lines) else "",
                          scope))
    return out


class _Apply(ast.NodeTransformer):
    def __init__(self, mutant: Mutant) -> None:
        self.m = mutant
        self.done = False

    def _here(self, n: ast.AST, col: int | None = None) -> bool:
        return n.lineno == self.m.line and (n.col_offset if col is None else col) == (self.m.col if col is None else col)

    def visit_Constant(self, n: ast.Constant) -> ast.AST:
        if self.m.kind == "number" and not self.done and self._here(n) and type(n.value) in (int, float):
            self.done = True
            return ast.copy_location(ast.Constant(n.value + 1), n)
        return n

    def visit_Compare(self, n: ast.Compare) -> ast.AST:
        self.generic_visit(n)
        if self.m.kind == "comparison" and not self.done and n.lineno == self.m.line \
                and n.col_offset == self.m.col // 1000:
            k = self.m.col % 1000
            if k < len(n.ops) and type(n.ops[k]) in _OP_SWAPS:
                n.ops[k] = _OP_SWAPS[type(n.ops[k])]()
                self.done = True
        return n

    def visit_Attribute(self, n: ast.Attribute) -> ast.AST:
        self.generic_visit(n)
        if self.m.kind == "claim-op" and not self.done and self._here(n) and n.attr in _CLAIM_OP_SWAPS:
            self.done = True
            return ast.copy_location(ast.Attribute(n.value, _CLAIM_OP_SWAPS[n.attr], n.ctx), n)
        return n


def mutate(source: str, mutant: Mutant) -> ast.Module:
    tree = ast.parse(source)
    applier = _Apply(mutant)
    tree = applier.visit(tree)
    if not applier.done:
        raise ValueError(f"mutation site not found: {mutant.describe()}")
    return ast.fix_missing_locations(tree)


def explanations(docstring: str | None) -> list[tuple[str, str]]:
    """``(source text, reason)`` from the docstring's ``Survives mutation: <text>: <reason>`` lines.

    ``<text>`` is a piece of the mutated source line, or ``in <name>``: every site inside the
    function or class ``<name>`` (input data the statement quantifies over, such as an example
    network that any network could replace)."""
    out = []
    for raw in (docstring or "").splitlines():
        line = raw.strip()
        if line.startswith("Survives mutation:"):
            rest = line[len("Survives mutation:"):].strip()
            text, _, why = rest.partition(": ")
            out.append((text.strip().strip("`"), why.strip()))
    return out


def explained_by(mutant: Mutant, docstring: str | None) -> str | None:
    for text, why in explanations(docstring):
        scoped = text[3:].strip().strip("`") if text.startswith("in ") else None
        if (scoped and scoped in mutant.scope) or (not scoped and text and text in mutant.source_line):
            return why or "explained in the docstring"
    return None


# ------------------------------------------------------------------------------ running


@dataclass(frozen=True, slots=True)
class MutantRun:
    mutant: Mutant
    status: str  # the mutant's status, or "error"/"undecided"
    verdict: str  # "killed" | "survived" | "undecided"
    explanation: str | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"line": self.mutant.line, "scope": ".".join(self.mutant.scope), "kind": self.mutant.kind, "original": self.mutant.original,
                "replacement": self.mutant.replacement, "source_line": self.mutant.source_line.strip(),
                "status": self.status, "verdict": self.verdict, "explanation": self.explanation, "reason": self.reason}


def choose(mutants: Sequence[Mutant], limit: int, seed: int) -> list[Mutant]:
    """At most ``limit`` mutants, drawn deterministically from the seed, claim ops and comparisons first."""
    if len(mutants) <= limit:
        return list(mutants)
    rng = random.Random(seed)
    priority = [m for m in mutants if m.kind != "number"]
    numbers = [m for m in mutants if m.kind == "number"]
    rng.shuffle(priority)
    rng.shuffle(numbers)
    half = min(len(priority), (limit + 1) // 2)
    picked = priority[:half] + numbers[: limit - half]
    picked += [m for m in priority[half:] if len(picked) < limit]
    return sorted(picked, key=lambda m: m.index)


def _run_mutant(ob: Any, source: str, mutant: Mutant, ctx: Any, time_limit_s: float,
                cpu: bool = False) -> tuple[str, str | None]:
    """The mutant's status (its module re-executed from the mutated source under a private
    registry), or ``("error", why)`` / ``("undecided", why)``; the limit is wall-clock seconds, or
    CPU seconds of this process with ``cpu``."""
    import types

    from checker.kernel import declare as declarations
    from checker.kernel import declaration as registry
    from checker.audit.audits import AuditTimeout, _time_limit
    from checker.kernel.model import Verdict

    code = compile(mutate(source, mutant), ob.file, "exec")
    saved = (dict(registry._REGISTRY), dict(declarations._BOUNDS), dict(declarations._FAMILIES))
    registry._REGISTRY.clear()
    try:
        module = types.ModuleType(ob.module)
        module.__file__ = ob.file
        module.__package__ = ob.module.rpartition(".")[0]
        try:
            with (_cpu_time_limit if cpu else _time_limit)(time_limit_s):
                exec(code, module.__dict__)  # noqa: S102 - the project's own source, one literal changed
                mutated = registry._REGISTRY.get(ob.id)
                if mutated is None:
                    return "error", "the mutant no longer declares the obligation"
                verdict = mutated.discharge(ctx)
        except AuditTimeout:
            return "undecided", f"the mutant did not finish within {time_limit_s:.0f} s{' of CPU time' if cpu else ''}"
        except Exception as exc:  # noqa: BLE001 - a crashing mutant is killed
            return "error", f"{type(exc).__name__}: {exc}"[:300]
        if not isinstance(verdict, Verdict):
            return "error", f"discharge returned {type(verdict).__name__}"
        return verdict.status.value, None
    finally:
        registry._REGISTRY.clear()
        registry._REGISTRY.update(saved[0])
        declarations._BOUNDS.clear()
        declarations._BOUNDS.update(saved[1])
        declarations._FAMILIES.clear()
        declarations._FAMILIES.update(saved[2])


def audit_obligation(ob: Any, ctx: Any, original_status: str, limit: int = 6, time_limit_s: float = 30.0,
                     deadline_s: float = 240.0) -> dict[str, Any]:
    """The mutation entry of one obligation (run in the caller's process)."""
    source = Path(ob.file).read_text(encoding="utf-8")
    all_sites = sites(source, ob.discharge.__name__)
    entry: dict[str, Any] = {"id": ob.id, "status": original_status, "sites": len(all_sites)}
    if original_status not in ("proved", "refuted"):
        return {**entry, "verdict": "not applicable", "reason": f"the result is {original_status}, not proved or refuted"}
    if not all_sites:
        return {**entry, "verdict": "no sites", "reason": "no numeric literal or comparison in the claim or discharge"}
    chosen = choose(all_sites, limit, ctx.seed)
    runs: list[MutantRun] = []
    stop = time.monotonic() + deadline_s
    for m in chosen:
        if time.monotonic() > stop:
            runs.append(MutantRun(m, "undecided", "undecided", reason="the obligation's mutation budget ran out"))
            continue
        status, why = _run_mutant(ob, source, m, ctx, min(time_limit_s, max(1.0, stop - time.monotonic())))
        if status == "undecided":
            runs.append(MutantRun(m, status, "undecided", reason=why))
        elif status == original_status:
            runs.append(MutantRun(m, status, "survived", explained_by(m, ob.discharge.__doc__), why))
        else:
            runs.append(MutantRun(m, status, "killed", reason=why))
    return _entry(entry, runs)


@contextmanager
def _cpu_time_limit(seconds: float) -> Iterator[None]:
    """Interrupt Python code once this process has used ``seconds`` of CPU time (``ITIMER_PROF``,
    every thread counted; main thread of a Unix process only, else no limit). A mutant job is a
    process of its own with BLAS pinned to one thread, so the budget does not shrink when other
    jobs compete for the cores, as a wall-clock one does."""
    import signal
    import threading

    from checker.audit.audits import AuditTimeout

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def alarm(signum: int, frame: Any) -> None:
        raise AuditTimeout("mutant CPU-time budget exhausted")

    previous = signal.signal(signal.SIGPROF, alarm)
    signal.setitimer(signal.ITIMER_PROF, max(0.01, seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


# ------------------------------------------------------------------------------ jobs
# One obligation's mutation audit as separate jobs, each run in an isolated worker process by
# whoever runs jobs (the run room's workers, at home or on a cluster): a *plan* job discharges
# the original and chooses the mutants; one *mutant* job per chosen mutant; :func:`assemble`
# makes the entry from their answers. The payloads are plain data (ids, seeds, limits, site
# indices), never code.

PLAN_JOB = "checker.audit.mutation:plan_job"
MUTANT_JOB = "checker.audit.mutation:mutant_job"


def _load(ob_id: str, module: str) -> Any:
    import importlib

    from checker.kernel import declaration as registry

    importlib.import_module(module)
    return registry._REGISTRY[ob_id]


def plan_job(send: Any, payload: Any) -> None:
    """A worker job: discharge the original obligation and choose its mutants. Answers
    ``["plan", entry, indices, digest]``: the entry so far (a final one when the obligation is
    not proved or refuted, or has no site), the chosen sites' indices and the digest of the
    source they index."""
    import hashlib

    from checker.kernel.model import Context

    ob_id, module, seed, timeout_s, limit = payload
    try:
        ob = _load(ob_id, module)
        ctx = Context(ob_id, seed, timeout_s, False)
        original = ob.discharge(ctx).status.value
        source = Path(ob.file).read_text(encoding="utf-8")
        all_sites = sites(source, ob.discharge.__name__)
    except BaseException as exc:  # noqa: BLE001 - the obligation's failure is its entry
        send(["plan", {"id": ob_id, "verdict": "error", "reason": f"{type(exc).__name__}: {exc}"[:500]}, [], None])
        return
    entry: dict[str, Any] = {"id": ob_id, "status": original, "sites": len(all_sites)}
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    if original not in ("proved", "refuted"):
        send(["plan", {**entry, "verdict": "not applicable", "reason": f"the result is {original}, not proved or refuted"},
              [], digest])
    elif not all_sites:
        send(["plan", {**entry, "verdict": "no sites", "reason": "no numeric literal or comparison in the claim or discharge"},
              [], digest])
    else:
        send(["plan", entry, [m.index for m in choose(all_sites, limit, seed)], digest])


def mutant_job(send: Any, payload: Any) -> None:
    """A worker job: run one mutant (its site's index in the module's source) within a CPU-time
    budget. Answers ``["mutant", status, reason]`` (status ``"error"``/``"undecided"`` with why)."""
    import hashlib

    from checker.kernel.model import Context

    ob_id, module, seed, timeout_s, index, digest, time_limit_s = payload
    try:
        ob = _load(ob_id, module)
        source = Path(ob.file).read_text(encoding="utf-8")
        if hashlib.sha256(source.encode("utf-8")).hexdigest() != digest:
            send(["mutant", "error", f"{ob.file} changed since the mutants were chosen"])
            return
        mutant = sites(source, ob.discharge.__name__)[index]
    except BaseException as exc:  # noqa: BLE001
        send(["mutant", "error", f"{type(exc).__name__}: {exc}"[:300]])
        return
    status, why = _run_mutant(ob, source, mutant, Context(ob_id, seed, timeout_s, False), time_limit_s, cpu=True)
    send(["mutant", status, why])


def assemble(entry: Mapping[str, Any], mutants: Sequence[Mutant], answers: Sequence[tuple[str, str | None]],
             docstring: str | None) -> dict[str, Any]:
    """The mutation entry of one obligation from its plan's ``entry`` and each chosen mutant's
    ``(status, reason)``, in the order of ``mutants`` (as :func:`audit_obligation` makes it)."""
    original = entry["status"]
    runs: list[MutantRun] = []
    for m, (status, why) in zip(mutants, answers, strict=True):
        if status == "undecided":
            runs.append(MutantRun(m, status, "undecided", reason=why))
        elif status == original:
            runs.append(MutantRun(m, status, "survived", explained_by(m, docstring), why))
        else:
            runs.append(MutantRun(m, status, "killed", reason=why))
    return _entry(dict(entry), runs)


def _entry(entry: dict[str, Any], runs: Sequence[MutantRun]) -> dict[str, Any]:
    killed = sum(r.verdict == "killed" for r in runs)
    survived = [r for r in runs if r.verdict == "survived"]
    unexplained = [r for r in survived if r.explanation is None]
    decided = killed + len(survived)
    return {**entry, "verdict": "survivors" if unexplained else "ok", "mutants": len(runs), "killed": killed,
            "survived": len(survived), "unexplained": len(unexplained),
            "undecided": sum(r.verdict == "undecided" for r in runs),
            "score": (killed / decided) if decided else None, "runs": [r.to_json() for r in runs]}


def _child(conn: Any, ob_id: str, module: str, seed: int, timeout_s: float, limit: int, time_limit_s: float,
           deadline_s: float) -> None:
    import importlib

    from checker.kernel import declaration as registry
    from checker.kernel.model import Context

    try:
        importlib.import_module(module)
        ob = registry._REGISTRY[ob_id]
        ctx = Context(ob_id, seed, timeout_s, False)
        original = ob.discharge(ctx).status.value
        conn.send(audit_obligation(ob, ctx, original, limit, time_limit_s, deadline_s))
    except BaseException as exc:  # noqa: BLE001
        conn.send({"id": ob_id, "verdict": "error", "reason": f"{type(exc).__name__}: {exc}"})


def run(obligations: Sequence[Any], seed: int, timeout_s: float, limit: int = 6, time_limit_s: float = 30.0,
        progress: Any = None, seed_of: Any = None) -> list[dict[str, Any]]:
    """The mutation audit of each obligation, each in its own child process with a hard deadline."""
    import multiprocessing as mp

    ctx_mp = mp.get_context("fork") if hasattr(mp, "get_context") else mp
    out = []
    for i, ob in enumerate(obligations):
        deadline = timeout_s + limit * time_limit_s
        parent, child = ctx_mp.Pipe()
        ob_seed = seed_of(ob) if seed_of is not None else seed
        proc = ctx_mp.Process(target=_child, args=(child, ob.id, ob.module, ob_seed, timeout_s, limit, time_limit_s,
                                                   limit * time_limit_s), daemon=True)
        proc.start()
        child.close()
        entry: dict[str, Any]
        if parent.poll(deadline + 10):
            try:
                entry = parent.recv()
            except EOFError:
                entry = {"id": ob.id, "verdict": "error", "reason": "the mutation child died"}
        else:
            entry = {"id": ob.id, "verdict": "undecided", "reason": f"no answer within {deadline + 10:.0f} s"}
        proc.terminate()
        proc.join(2)
        if proc.is_alive():
            proc.kill()
            proc.join(1)
        parent.close()
        out.append(entry)
        if progress is not None:
            progress(entry, i + 1, len(obligations))
    return out


def summary(entries: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Mutation score per catalogue (the first component of the id)."""
    per: dict[str, dict[str, Any]] = {}
    for e in entries:
        cat = str(e["id"]).split(".")[0]
        s = per.setdefault(cat, {"obligations": 0, "killed": 0, "survived": 0, "unexplained": 0, "undecided": 0})
        s["obligations"] += 1
        for k in ("killed", "survived", "unexplained", "undecided"):
            s[k] += int(e.get(k, 0) or 0)
    for s in per.values():
        decided = s["killed"] + s["survived"]
        s["score"] = round(s["killed"] / decided, 3) if decided else None
    return per


def render(entries: Sequence[Mapping[str, Any]], markdown: bool = False, command: str | None = None) -> str:
    """The survivors and the score per catalogue, as text or Markdown (``command``: how the
    report was made, shown in the Markdown heading)."""
    lines = []
    per = summary(entries)
    if markdown:
        lines += ["# Mutation audit", ""]
        if command:
            lines += [f"Generated by `{command}`: each obligation's discharge re-run on single-site mutants of its",
                      "claim and discharge source (see `checker/mutation.py`). A survivor is a mutant still `proved`",
                      "(or still `refuted`); each one is either explained in its obligation's docstring or listed",
                      "as UNEXPLAINED.", ""]
        lines += ["| catalogue | obligations | killed | survived | unexplained | undecided | score |",
                  "|---|---|---|---|---|---|---|"]
        for cat, s in sorted(per.items()):
            lines.append(f"| `{cat}` | {s['obligations']} | {s['killed']} | {s['survived']} | {s['unexplained']} | "
                         f"{s['undecided']} | {s['score'] if s['score'] is not None else '-'} |")
        lines.append("")
    else:
        for cat, s in sorted(per.items()):
            lines.append(f"{cat}: score {s['score']}  (killed {s['killed']}, survived {s['survived']}, "
                         f"unexplained {s['unexplained']}, undecided {s['undecided']}, {s['obligations']} obligations)")
    survivors = [(e["id"], r) for e in entries for r in e.get("runs", ()) if r["verdict"] == "survived"]
    if survivors:
        lines.append("")
        lines.append("Survivors:" if not markdown else "**Survivors**")
        lines.append("")
        for ob_id, r in survivors:
            note = f"explained: {r['explanation']}" if r["explanation"] else "UNEXPLAINED"
            lines.append(f"{'- ' if markdown else '  '}{ob_id} line {r['line']}: {r['original']} → {r['replacement']} "
                         f"in `{r['source_line']}` still {r['status']} ({note})")
    errors = [e for e in entries if e.get("verdict") in ("error", "undecided") and "runs" not in e]
    for e in errors:
        lines.append(f"{'- ' if markdown else '  '}{e['id']}: {e['verdict']} ({e.get('reason')})")
    return "\n".join(lines) + "\n"


def iter_survivors(entries: Sequence[Mapping[str, Any]]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for e in entries:
        for r in e.get("runs", ()):
            if r["verdict"] == "survived":
                yield e["id"], r
