"""The ``obligations`` command: ``list``, ``check``, ``audit``, ``show``, ``report``, ``lean``,
``init``, and the subcommands catalogues register (:mod:`checker.face.plugins`).

Defaults come from the project's ``[tool.obligations]`` (:mod:`checker.face.config`); flags override.
"""

from __future__ import annotations

import argparse
import contextlib
import enum
import os
import sys
import traceback
from pathlib import Path
from typing import Any, NoReturn, Sequence

from checker.kernel.model import CHECKER_VERSION as __version__
from checker.store.cache import atomic_write
from checker.face.config import Config
from checker.kernel.errors import CheckerError, SchemaError, UsageError
from checker.kernel.model import Outcome, Result
from checker.face.plugins import Command

BUILTIN_COMMANDS = frozenset({"list", "check", "audit", "report", "show", "lean", "init", "paper"})
DEFAULT_FORMAT = "table"


class ExitCode(enum.IntEnum):
    OK = 0
    FAILED = 1  # something contradicted or broken
    USAGE_ERROR = 2
    INTERNAL_ERROR = 3


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def _positive_float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not x > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    if not x < 10**7:  # also rejects inf and nan: a limit must be a number of seconds a clock can reach
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds below 10⁷, got {text}")
    return x


def build_parser(commands: Sequence[Command] = ()) -> argparse.ArgumentParser:
    """The parser; run options default to ``None`` so that ``[tool.obligations]`` can fill them."""
    from checker.store.cache import DEFAULT_DIR as DEFAULT_CACHE_DIR
    from checker.report.reports import FORMATS
    from checker.run.runner import DEFAULT_MEMORY_MIB, DEFAULT_SEED, DEFAULT_TIMEOUT_S

    p = argparse.ArgumentParser(prog="obligations", description="Discharge the proof obligations of a catalogue and report their status.")
    p.add_argument("--version", action="version", version=f"obligations {__version__}")
    p.add_argument("--package", action="append", metavar="PACKAGE",
                   help="catalogue package to load (repeatable; default: [tool.obligations] packages, "
                   "else every catalogue registered under the 'obligations.catalogues' entry point)")
    sub = p.add_subparsers(dest="command", required=True)

    ls = sub.add_parser("list", help="list obligations (id, expect, source)")
    ls.add_argument("patterns", nargs="*", metavar="PATTERN", help="id prefixes")

    def run_options(q: argparse.ArgumentParser) -> None:
        q.add_argument("--jobs", "-j", type=_positive_int, help="worker processes (default: [tool.obligations] jobs, else one per core)")
        q.add_argument("--timeout", type=_positive_float, help=f"wall-clock seconds per obligation (default: [tool.obligations] timeout, else {DEFAULT_TIMEOUT_S:g})")
        q.add_argument("--memory", type=_positive_int, help=f"address-space limit per worker in MiB (default: [tool.obligations] memory, else {DEFAULT_MEMORY_MIB})")
        q.add_argument("--seed", type=int, default=DEFAULT_SEED, help="base seed; each obligation derives its own (default: %(default)s)")
        q.add_argument("--slow", action="store_true", help="include obligations marked slow")
        q.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
        q.add_argument("--no-cache", action="store_true", help="re-run everything; neither read nor write the cache")
        q.add_argument("--cache-dir", metavar="DIR", help=f"result cache directory (default: [tool.obligations] cache_dir, else {DEFAULT_CACHE_DIR})")
        q.add_argument("--executor", metavar="WHERE",
                       help="where the jobs run: 'local' (this machine's workers, the default), 'local-cluster:N' (a Dask "
                       "cluster of N workers started for the run) or 'dask://HOST:PORT' (a running Dask scheduler); the "
                       f"cluster executors need the optional extra: pip install '.[cluster]' (default: [tool.obligations] executor)")
        q.add_argument("--no-confirm", action="store_true",
                       help="no second solver: z3's proofs are not confirmed by cvc5 (nor bitwuzla's by z3) and are "
                       "reported unconfirmed (default: [tool.obligations] confirm, else confirm)")

    def render_options(q: argparse.ArgumentParser) -> None:
        q.add_argument("--wide", action="store_true", help="table: every column (source, claim, scope, method), nothing cut")
        q.add_argument("--latex-detail", action="store_true", help="latex: the long table (full claims, methods, scopes)")
        q.add_argument("--latex-compact", action="store_true",
                       help="latex: shorten claims, methods and labels at a word boundary (never inside a number or formula)")

    ck = sub.add_parser("check", help="discharge obligations and print the status table")
    ck.add_argument("patterns", nargs="*", metavar="PATTERN", help="id prefixes (default: all)")
    run_options(ck)
    fmt_help = f"report format (default: [tool.obligations] format, else {DEFAULT_FORMAT})"
    ck.add_argument("--format", choices=FORMATS, help=fmt_help)
    ck.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE (atomically) instead of stdout")
    render_options(ck)
    ck.add_argument("--save-baseline", metavar="FILE", help="save this run as a baseline (JSON, written atomically)")
    ck.add_argument("--baseline", metavar="FILE",
                    help="compare with a saved baseline; exit 1 on any regression (default: [tool.obligations] baseline, once it exists)")
    ck.add_argument("--no-baseline", action="store_true", help="do not compare with the configured baseline")
    ck.add_argument("--require-universal", action="store_true",
                    help="exit 1 when a proof covers only some sizes of a statement about every size (outcome "
                    "partial; default: [tool.obligations] require = \"universal\")")
    ck.add_argument("--audit", action="store_true",
                    help="also run the audits (vacuity, necessity, tightness, shrinking, seeds) on each result")

    au = sub.add_parser("audit", help="check and audit obligations: vacuity, necessity, tightness, shrunk witnesses, seeds")
    au.add_argument("patterns", nargs="*", metavar="PATTERN", help="id prefixes (default: all)")
    run_options(au)
    au.add_argument("--format", choices=FORMATS, help=fmt_help)
    au.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE (atomically) instead of stdout")
    render_options(au)
    au.add_argument("--mutate", action="store_true", help="mutation audit: perturb each claim's and discharge's literals "
                    "and comparisons, re-run, list the survivors (exit 1 on an unexplained survivor)")
    au.add_argument("--mutants", type=_positive_int, default=6, help="mutants per obligation with --mutate (default: %(default)s)")

    rp = sub.add_parser("report", help="render a saved JSON report in another format")
    rp.add_argument("report", metavar="REPORT.json")
    rp.add_argument("--format", choices=FORMATS, help=fmt_help)
    rp.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")
    render_options(rp)

    sh = sub.add_parser("show", help="print one obligation's full certificate")
    sh.add_argument("id", metavar="ID")
    sh.add_argument("--from", dest="report", metavar="REPORT.json", help="read the result from a JSON report instead of running")
    sh.add_argument("--smt2", nargs="?", const="-", metavar="DIR",
                    help="export the obligation's SMT queries as standalone SMT-LIB scripts: one file per query in DIR, "
                    "or all of them on stdout without DIR (the discharge runs in this process)")
    run_options(sh)

    ln = sub.add_parser("lean", help="check that every lean ref resolves and every declaration is mirrored")
    ln.add_argument("--dir", dest="lean_dir", metavar="DIR",
                    help="the lean_refs directory (default: [tool.obligations] lean_refs, else ./lean_refs, "
                    "else the one shipped with the catalogue)")

    it = sub.add_parser("init", help="scaffold a catalogue package for your own paper in this folder")
    it.add_argument("name", metavar="NAME", help="the package name, e.g. mypaper")

    pp = sub.add_parser("paper", help="the paper's theorems against their obligations: coverage, status macros for LaTeX")
    pp.add_argument("paper", metavar="PAPER.tex", help="the paper's main LaTeX file (the files it \\inputs are read too)")
    pp.add_argument("--from", dest="report", metavar="REPORT.json", help="take the statuses from a JSON report instead of running")
    pp.add_argument("--macros", metavar="FILE",
                    help="where to write the \\obstatus macros (default: PAPER-obstatus.tex beside the paper)")
    pp.add_argument("--strict", action="store_true", help="exit 1 when a theorem-like environment has no obligation")
    run_options(pp)

    for command in commands:
        command.configure(sub.add_parser(command.name, help=command.help))
    return p


def _progress(stream=None):
    stream = stream or sys.stderr
    tty = stream.isatty()

    def show(result: Result, done: int, total: int, cached: bool, worker: str | None = None) -> None:
        width = len(str(total))
        from checker.report.formats import terminal_safe

        on = f" on {worker}" if worker else ""
        text = terminal_safe(f"[{done:>{width}}/{total}] {result.status.value:<9} {result.id} "
                             f"({result.time_s:.2f}s{', cached' if cached else ''}){on}")
        if tty:
            stream.write("\r\033[K" + text + ("\n" if done == total else ""))
        else:
            stream.write(text + "\n")
        stream.flush()

    show.names_worker = True  # type: ignore[attr-defined]
    return show


def exit_code_for(results: Sequence[Result]) -> ExitCode:
    bad = {Outcome.CONTRADICTED, Outcome.BROKEN, Outcome.VACUOUS}
    return ExitCode.FAILED if any(r.outcome in bad for r in results) else ExitCode.OK


def _run(args: argparse.Namespace, patterns: Sequence[str], catalogue=None, exact: bool = False) -> list[Result]:
    """Discharge the obligations whose ids start with ``patterns`` (``exact``: whose ids are
    ``patterns``) of ``catalogue`` (default: the run's packages, discovered now)."""
    from pathlib import Path

    from checker.run import schedule
    from checker.store.cache import Cache
    from checker.run.runner import RunConfig, run

    # A whole-catalogue check discharges nearly every module: the worker template imports the
    # libraries they use (never the modules themselves) while this process imports them.
    if catalogue is None:
        catalogue = _catalogue(args, warm_template=not patterns)
    chosen = _select(catalogue, patterns, include_slow=args.slow or bool(getattr(args, "id", None)) or exact)
    if exact:
        chosen = tuple(ob for ob in chosen if ob.id in set(patterns))
    config = RunConfig(jobs=args.jobs, timeout_s=args.timeout, memory_mib=args.memory, seed=args.seed, slow=args.slow,
                       audit=bool(getattr(args, "audit", False)))
    progress = None if args.quiet else _progress()
    cache = None if args.no_cache else Cache(Path(args.cache_dir))
    # With patterns: the rejected declarations they name, and every module that did not import.
    errors = _errors_for(catalogue, patterns, chosen)
    expected = schedule.load_times_file(args.config.expected_times)
    if _executor(args).is_local:
        results = run(chosen, config, errors, progress, cache=cache, package=args.packages[0], expected_times=expected)
    else:
        from checker.run import cluster

        with _pool(args) as pool:
            results = cluster.check(chosen, config, pool, errors, progress, cache=cache, package=args.packages[0],
                                    expected_times=expected)
    schedule.record_times(cache.directory if cache is not None else None, results)
    return results


def _executor(args: argparse.Namespace):
    """The run's executor (:func:`checker.run.cluster.parse_executor`), from ``--executor`` or the configuration."""
    from checker.run.cluster import LOCAL, parse_executor

    text = getattr(args, "executor", None)
    if not text:
        return LOCAL
    try:
        return parse_executor(text)
    except UsageError as exc:
        configured = args.config.path if args.config.executor == text and args.config.path else None
        raise UsageError(f"{configured}: [tool.obligations] {exc}" if configured else f"--executor: {exc}") from None


@contextlib.contextmanager
def _pool(args: argparse.Namespace):
    """The run's pool of isolated workers: this machine's (``--jobs`` at a time) or a Dask cluster's."""
    from checker.run import cluster
    from checker.run.pools import LocalPool

    executor = _executor(args)
    if executor.is_local:
        pool = LocalPool(args.jobs if args.jobs and args.jobs > 0 else (os.cpu_count() or 1))
        try:
            yield pool
        finally:
            pool.close()
        return
    root = str(args.config.root) if args.config.root is not None else os.getcwd()
    with cluster.connect(executor, tuple(args.packages), root) as pool:
        yield pool


def _select(catalogue, patterns: Sequence[str], include_slow: bool = True):
    """``catalogue.select``; a pattern that names no obligation while some module did not import
    is not a usage error hiding the import error: the run goes on and reports that module."""
    try:
        return catalogue.select(patterns, include_slow=include_slow)
    except UsageError as exc:
        broken = [e for e in catalogue.errors if not e.subject]
        if not broken:
            raise
        print(f"obligations: {exc}; {len(broken)} module(s) did not import and may hold them: "
              + "; ".join(f"{e.module} ({e.message})" for e in broken), file=sys.stderr)
        known = {ob.id for ob in catalogue.obligations} | {e.id for e in catalogue.errors}
        matched = [p for p in patterns if any(i == p or i.startswith(p) for i in known)]
        return catalogue.select(matched, include_slow=include_slow) if matched else ()


def _errors_for(catalogue, patterns: Sequence[str], chosen) -> tuple:
    """The load errors a run with ``patterns`` reports: ``catalogue.errors_for``, and every rejected
    declaration (a duplicate or malformed id) in a module of a chosen obligation or whose message
    names what a pattern selects — a pattern never drops one."""
    errors = list(catalogue.errors_for(patterns))
    if patterns:
        modules = {ob.module for ob in chosen}
        for e in catalogue.errors:
            if e.subject and e not in errors and (e.module in modules or any(p in e.message for p in patterns)):
                errors.append(e)
    return tuple(errors)


def _catalogue(args: argparse.Namespace, *, warm_template: bool = False):
    """Every package of the run, discovered and merged into one catalogue; warnings to stderr.
    With ``warm_template``, each module that imported cleanly in isolation is sent to the worker
    template as soon as that is known (:meth:`checker.run.workers.Template.preload`), which imports
    the libraries it uses."""
    from checker.kernel.declaration import Catalogue
    from checker.run.discovery import discover

    def preload(modules: list[str]) -> None:
        from checker.run import workers

        try:
            workers.template().preload(modules)
        except workers.TemplateDied:
            pass  # the run starts a new template and preloads what it discharges

    from checker.run.discovery import link_errors

    parts = [discover(package, timeout_s=getattr(args, "timeout", None), memory_mib=getattr(args, "memory", None),
                      on_probed=preload if warm_template else None, check_links=False)
             for package in args.packages]
    obligations = tuple(sorted((ob for c in parts for ob in c.obligations), key=lambda o: o.id))
    # ``uses`` links are checked over every catalogue of the run: one may build on another
    catalogue = Catalogue(obligations, tuple(e for c in parts for e in c.errors) + tuple(link_errors(obligations)),
                          tuple(w for c in parts for w in c.warnings))
    for warning in catalogue.warnings:
        print(f"obligations: warning: {warning.message}", file=sys.stderr)
    return catalogue


class OutputError(CheckerError, OSError):
    """A report or baseline could not be written (a full disk, a file-size limit, …)."""


def _write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically; a failure names the file (exit 1), never a crash."""
    try:
        atomic_write(path, text)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}; the results are not in it "
                          "(free some space or raise the file-size limit, then run again)") from exc


def _check_outputs(*paths: str | None) -> None:
    """Every output path checked before the run starts, so a bad one loses no results."""
    from checker.store.cache import check_writable

    for path in paths:
        if path:
            check_writable(path, "output file")


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start}); is it a JSON report?") from exc


def cmd_list(args: argparse.Namespace) -> ExitCode:
    catalogue = _catalogue(args)
    for ob in _select(catalogue, args.patterns):
        slow = " [slow]" if ob.slow else ""
        print(f"{ob.id:<50} {ob.expect.value:<6} {ob.source.file}, {ob.source.label}{slow}")
    for err in catalogue.errors:
        print(f"{err.id:<50} error  {err.location}: {err.message}", file=sys.stderr)
    return ExitCode.FAILED if catalogue.errors else ExitCode.OK


def cmd_check(args: argparse.Namespace) -> ExitCode:
    from checker.report.reports import render

    from checker.store import baseline

    compare_with = None if args.no_baseline else args.baseline
    if compare_with is None and not args.no_baseline and args.config.baseline:
        if Path(args.config.baseline).is_file():
            compare_with = args.config.baseline
        elif not args.save_baseline:
            print(f"obligations: no baseline at {args.config.baseline} yet ([tool.obligations] baseline); "
                  f"save one with --save-baseline {os.path.relpath(args.config.baseline)}", file=sys.stderr)
    before = baseline.load(compare_with) if compare_with else None
    _check_outputs(args.output, args.save_baseline)
    results = _run(args, args.patterns)
    text = render(results, args.format, wide=args.wide, latex_detail=args.latex_detail, latex_compact=args.latex_compact)
    if args.output:
        _write(args.output, text)
    else:
        sys.stdout.write(text)
    code = exit_code_for(results)
    _warn_prose(results)
    if args.require_universal or args.config.require == "universal":
        partial = [r for r in results if r.is_partial]
        for r in partial:
            print(f"obligations: {r.id} is proved for {r.grade_over or 'some sizes'} only, not for every size "
                  "(--require-universal)", file=sys.stderr)
        if partial:
            code = ExitCode.FAILED
    if args.save_baseline:
        from checker.report.reports import render_json

        _write(args.save_baseline, render_json(results))
    if before is not None:
        changes = baseline.compare(before, results)
        sys.stderr.write(baseline.render(changes))
        if any(c.regression for c in changes):
            code = ExitCode.FAILED
    return code


def _warn_prose(results: Sequence[Result]) -> None:
    """Warn where a number of the statement occurs in none of the checked claims."""
    from checker.kernel.printing import PrintedClaim, checked_texts, prose_warnings

    for r in results:
        if r.claims:
            checked = checked_texts(r.certificate.to_json(), r.grade_over)
            for w in prose_warnings(r.statement, [PrintedClaim.from_json(c) for c in r.claims], checked):
                print(f"warning: {r.id}: {w}", file=sys.stderr)


def cmd_audit(args: argparse.Namespace) -> ExitCode:
    """``check --audit`` without baselines: the audit report (``--format markdown`` for docs)."""
    from checker.report.reports import render

    if getattr(args, "mutate", False):
        return cmd_mutate(args)
    args.audit = True
    _check_outputs(args.output)
    results = _run(args, args.patterns)
    text = render(results, args.format, wide=args.wide, latex_detail=args.latex_detail, latex_compact=args.latex_compact)
    if args.output:
        _write(args.output, text)
    else:
        sys.stdout.write(text)
    return exit_code_for(results)


def cmd_mutate(args: argparse.Namespace) -> ExitCode:
    """``audit --mutate``: the mutation audit (:mod:`checker.audit.mutation`), one isolated job per
    mutant on the run's workers (:mod:`checker.run.mutants`), ``--jobs`` at a time."""
    import json

    from checker.audit import mutation
    from checker.run import mutants, schedule
    from checker.kernel.model import derive_seed

    catalogue = _catalogue(args)
    chosen = catalogue.select(args.patterns, include_slow=args.slow)
    cache_dir = None if args.no_cache else Path(args.cache_dir)
    expected = {**schedule.load_times_file(args.config.expected_times), **schedule.load_times(cache_dir)}

    def show(entry: dict, done: int, total: int, worker: str) -> None:
        if not args.quiet:
            print(f"[{done}/{total}] {entry['id']}: {entry.get('verdict')} "
                  f"(killed {entry.get('killed', 0)}, survived {entry.get('survived', 0)})"
                  f"{'' if worker == 'local' else f' on {worker}'}", file=sys.stderr, flush=True)

    with _pool(args) as pool:
        entries = mutants.run(chosen, pool, seed_of=lambda ob: derive_seed(args.seed, ob.id), timeout_s=args.timeout,
                              memory_mib=args.memory, limit=args.mutants, progress=show, expected_times=expected)
    text = json.dumps({"mutation": entries, "summary": mutation.summary(entries)}, indent=2, sort_keys=True) + "\n" \
        if args.format == "json" else mutation.render(entries, markdown=args.format == "markdown", command=(
            f"obligations audit --mutate {' '.join(args.patterns) + ' ' if args.patterns else ''}"
            f"--mutants {args.mutants} --seed {args.seed}{' --slow' if args.slow else ''}"))
    if args.output:
        _write(args.output, text)
    else:
        sys.stdout.write(text)
    unexplained = any(r["explanation"] is None for _, r in mutation.iter_survivors(entries))
    return ExitCode.FAILED if unexplained else ExitCode.OK


def cmd_report(args: argparse.Namespace) -> ExitCode:
    from checker.report.reports import read_json, render

    _check_outputs(args.output)
    results = read_json(_read_text(args.report))
    text = render(results, args.format, wide=args.wide, latex_detail=args.latex_detail, latex_compact=args.latex_compact)
    if args.output:
        _write(args.output, text)
    else:
        sys.stdout.write(text)
    return ExitCode.OK


def cmd_show(args: argparse.Namespace) -> ExitCode:
    from checker.report.reports import read_json, render_certificate

    if args.smt2 is not None:
        if args.report:
            raise UsageError("--smt2 runs the obligation to record its queries; it cannot read them from a report (drop --from)")
        return cmd_smt2(args)
    if args.report:
        results = read_json(_read_text(args.report))
        found = [r for r in results if r.id == args.id]
        if not found:
            raise UsageError(f"{args.report} has no result for {args.id!r}")
        result, context = found[0], results
    else:
        catalogue = _catalogue(args)
        # Run the obligation with its ancestors, so that "depends" reports their real statuses
        # (the cache makes the ancestors cheap after a check).
        todo, wanted = [args.id], []
        while todo:
            ob_id = todo.pop()
            if ob_id not in wanted:
                wanted.append(ob_id)
                todo.extend(catalogue.by_id(ob_id).uses)
        args.quiet = True
        results = [r for r in _run(args, wanted) if r.id in wanted]
        result = next(r for r in results if r.id == args.id)
        context = results
    from checker.report.formats import terminal_safe

    sys.stdout.write("\n".join(terminal_safe(line) for line in render_certificate(result, context).split("\n")))
    return exit_code_for([result])


def cmd_paper(args: argparse.Namespace) -> ExitCode:
    """``paper PAPER.tex``: the paper's theorem-like environments against the obligations linked
    to them (:mod:`checker.report.paper`): coverage on stdout, the status macros into a file."""
    from checker.report import paper as papers
    from checker.report.reports import read_json, to_document

    config = getattr(args, "config", None)
    paper = papers.read_paper(args.paper, project=(config.root if config is not None else None) or Path.cwd())
    macros = args.macros or str(paper.path.with_name(paper.path.stem + "-obstatus.tex"))
    _check_macros_target(paper, macros)
    _check_outputs(macros)
    stale: dict[str, str] = {}
    notes: list[str] = []
    unreported: list[str] = []
    absent: list[tuple[str, str, str]] = []
    unchecked = None
    if args.report:
        fresh = _stale_results(args, paper, read_json(_read_text(args.report)))
        results, stale, unknown, unreported, absent = (fresh["results"], fresh["stale"], fresh["unknown"],
                                                       fresh["unreported"], fresh["absent"])
        notes += [fresh["note"]] if fresh["note"] else []
        unchecked = os.path.basename(args.report) if fresh["unchecked"] else None
    else:
        catalogue = _catalogue(args)
        triples = [(ob.id, ob.source.file, ob.source.label) for ob in catalogue.obligations]
        wanted, unknown = papers.linked_ids(paper, triples)
        # with their ancestors, so that "rests on …" reports their real statuses (as show does)
        by_id = {ob.id: ob for ob in catalogue.obligations}
        todo, ids = list(wanted), []
        while todo:
            ob_id = todo.pop()
            if ob_id not in ids and ob_id in by_id:
                ids.append(ob_id)
                todo.extend(by_id[ob_id].uses)
        args.quiet = args.quiet or not sys.stderr.isatty()
        results = _run(args, ids, catalogue=catalogue, exact=True) if ids else []
    cov = papers.coverage(paper, to_document(results), unknown, stale, notes, unreported=unreported, absent=absent,
                          unchecked=unchecked, report=os.path.basename(args.report or ""))
    sys.stdout.write(papers.render_coverage(cov))
    atomic_write(macros, papers.render_macros(cov))
    labels = {e.environment.label for e in cov.entries if e.environment.label}
    print(f"wrote {os.path.relpath(macros)}: \\obstatus and \\obstatusmark for "
          f"{len(labels)} label{'' if len(labels) == 1 else 's'}; \\input it in the paper's preamble")
    for label, envs in cov.duplicates.items():
        print(f"obligations: {'error' if args.strict else 'warning'}: label {label} is used by "
              f"{len(envs)} environments ({', '.join(e.place for e in envs)}); \\obstatus{{{label}}} says so "
              "instead of a status", file=sys.stderr)
    for ob_id, why in cov.stale.items():
        print(f"obligations: {'error' if args.strict else 'warning'}: {ob_id}: stale result in {args.report} "
              f"({why}); not shown as checked", file=sys.stderr)
    for note in notes:
        print(f"obligations: warning: {note}", file=sys.stderr)
    if unchecked and args.strict:
        print(f"obligations: error: the statuses from {args.report} are shown as "
              "saved, their freshness not checked (no catalogue loaded)", file=sys.stderr)
    uncovered = [e for e in cov.entries if not e.covered]
    failed = cov.failing or cov.dangling or cov.unknown or cov.unreported or (
        args.strict and (uncovered or cov.duplicates or cov.stale or unchecked))
    return ExitCode.FAILED if failed else ExitCode.OK


def _check_macros_target(paper: Any, macros: str) -> None:
    """Refuse to write the macros over the paper or over any existing file but a macro file this
    command wrote earlier (it starts with the line every macro file starts with): whatever the
    paper reads (a local package, a bibliography, an \\InputIfFileExists target) or not."""
    target = Path(macros).resolve()
    if target == paper.path.resolve():
        raise UsageError(f"--macros {macros} is the paper itself; give another file (default: "
                         f"{paper.path.stem}-obstatus.tex)")
    if not os.path.lexists(target):
        return
    try:
        with open(target, encoding="utf-8", errors="replace") as fh:
            generated = fh.readline().startswith("% Generated by `obligations paper")
    except OSError:
        generated = False
    if not generated:
        raise UsageError(f"--macros {macros} exists and is not a macro file this command wrote (its first line "
                         "is not '% Generated by `obligations paper …'); give another file, or remove it first")


def _stale_results(args: argparse.Namespace, paper: Any, results: Sequence[Any]) -> dict[str, Any]:
    """A saved report's results checked against the current catalogue. Returns ``results`` (each
    with its obligation's current source, so that linking follows the catalogue), ``stale`` (id →
    why: of the results the paper links, those that are not the current obligation's — its code
    fingerprint differs from the catalogue's, it has none, its ``expect`` or its source changed, the
    catalogue does not have it, or an obligation it uses, transitively, is stale or has no result),
    ``unknown`` (ids the paper names that neither the catalogue nor the report has),
    ``unreported`` (ids the paper links that the report has no result for), ``absent`` (the
    catalogue's obligations citing the paper with no result, as ``(id, file, label)``), ``note`` and
    ``unchecked``: no catalogue could be loaded, so freshness was not checked at all."""
    import dataclasses

    from checker.report import paper as papers
    from checker.store.fingerprint import code_fingerprint

    named = list(dict.fromkeys(i for e in paper.environments for i in e.named))
    in_report = {r.id for r in results}
    out: dict[str, Any] = {"results": list(results), "stale": {}, "unknown": [], "absent": [], "note": None,
                           "unreported": [i for i in named if i not in in_report], "unchecked": False}
    unchecked = (f"the freshness of {args.report} was not checked ({{}}); its results are shown as saved, "
                 f"marked 'freshness not checked'")
    catalogue = None
    if not args.packages:
        out["note"], out["unchecked"] = unchecked.format("no catalogue to compare its fingerprints with"), True
        return out
    try:
        catalogue = _catalogue(args)
    except Exception as exc:  # noqa: BLE001 - a report is still worth showing without a catalogue
        out["note"], out["unchecked"] = unchecked.format(f"the catalogue could not be loaded: {exc}"), True
        return out
    by_id = {ob.id: ob for ob in catalogue.obligations}
    rows = {r.id: r for r in results}
    roots = {args.packages[0], "obligations"}
    gone = f"the loaded catalogue ({', '.join(args.packages)}) does not have this obligation"
    if catalogue.errors:
        gone += f" (or its module did not load: {len(catalogue.errors)} load error{'s' if len(catalogue.errors) != 1 else ''})"
    # linking follows the current catalogue's sources
    out["results"] = [dataclasses.replace(r, source=by_id[r.id].source) if r.id in by_id else r for r in results]
    out["unknown"] = [i for i in named if i not in by_id and i not in in_report]
    out["unreported"] = [i for i in named if i in by_id and i not in in_report]
    labels = {e.label for e in paper.environments if e.label}
    out["absent"] = [(ob.id, ob.source.file, ob.source.label) for ob in catalogue.obligations
                     if ob.id not in in_report and ob.source.label in labels and papers.cites(paper, ob.source.file)]
    out["unreported"] += [i for i, _, _ in out["absent"] if i not in out["unreported"]]
    own: dict[str, str | None] = {}

    def own_staleness(ob_id: str) -> str | None:
        if ob_id in own:
            return own[ob_id]
        r, ob = rows[ob_id], by_id.get(ob_id)
        why = None
        if ob is None:
            why = gone
        elif (papers.normal_source(r.source.file), r.source.label) != (papers.normal_source(ob.source.file), ob.source.label):
            why = (f"its source is {ob.source.file} {ob.source.label} now, {r.source.file} {r.source.label} "
                   "in the report")
        elif not (r.fingerprint or {}).get("code"):
            why = "the report has no fingerprint for it"
        elif r.expect is not ob.expect:
            why = f"its expect is {ob.expect.value} now, {r.expect.value} in the report"
        else:
            try:
                if code_fingerprint(ob, roots).digest != r.fingerprint["code"]:
                    why = "its code, a helper or a data file changed since the report"
            except Exception as exc:  # noqa: BLE001 - unknown freshness is not freshness
                why = f"its current fingerprint could not be computed ({type(exc).__name__})"
        own[ob_id] = why
        return why

    def ancestors_staleness(ob_id: str) -> str | None:
        todo, seen = list(by_id[ob_id].uses) if ob_id in by_id else [], set()
        while todo:
            anc = todo.pop(0)
            if anc in seen:
                continue
            seen.add(anc)
            if anc not in by_id:
                return f"it rests on {anc}, which the loaded catalogue does not have"
            if anc not in rows:
                return f"it rests on {anc}, which the report has no result for"
            why = own_staleness(anc)
            if why:
                return f"it rests on a stale result: {anc} ({why})"
            todo.extend(by_id[anc].uses)
        return None

    wanted, _ = papers.linked_ids(paper, [(r.id, r.source.file, r.source.label) for r in out["results"]])
    for ob_id in wanted:
        why = own_staleness(ob_id) or ancestors_staleness(ob_id)
        if why:
            out["stale"][ob_id] = why
    return out


def cmd_smt2(args: argparse.Namespace) -> ExitCode:
    """``show ID --smt2 [DIR]``: run the obligation's discharge in this process, record every query the
    backends put to a solver, and write each as a standalone SMT-LIB script (``(set-logic …)``, the
    declarations and assertions, ``(check-sat)``), headed by the answers it got."""
    from checker.backends import confirm
    from checker.kernel.model import Context, derive_seed

    ob = _catalogue(args).by_id(args.id)
    ctx = Context(ob.id, derive_seed(args.seed, ob.id), args.timeout, args.slow)
    failure = None
    with confirm.recording() as found:
        try:
            ob.discharge(ctx)
        except Exception as exc:  # noqa: BLE001 - what was recorded before it is still worth exporting
            failure = f"{type(exc).__name__}: {exc}"
    scripts = []
    for i, rec in enumerate(found, 1):
        answers = "; ".join(f"{solver}: {answer}" for solver, answer in rec.answers)
        scripts.append(rec.query.script(f"{ob.id}: query {i} of {len(found)}" + (f": {rec.query.what}" if rec.query.what else ""),
                                        f"answers: {answers}"))
    if failure:
        print(f"obligations: note: the discharge of {ob.id} ended with {failure}", file=sys.stderr)
    if not scripts:
        print(f"obligations: note: {ob.id} put no query to an SMT solver", file=sys.stderr)
        return ExitCode.OK
    if args.smt2 == "-":
        # (reset) between the scripts: the whole stream is itself a script any solver runs
        sys.stdout.write("(reset)\n".join(scripts))
        return ExitCode.OK
    directory = Path(args.smt2)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create {directory}: {exc.strerror}") from exc
    width = len(str(len(scripts)))
    for i, text in enumerate(scripts, 1):
        path = directory / f"{ob.id}.{i:0{width}d}.smt2"
        atomic_write(str(path), text)
        print(path)
    return ExitCode.OK


def _confirmation(args: argparse.Namespace, config: Config) -> None:
    """Second-solver confirmation on or off for this process and the workers it starts (they read
    the environment), and where a disagreement's SMT-LIB problem is kept (beside the cache)."""
    from checker.backends import confirm

    on = not getattr(args, "no_confirm", False) and config.confirm is not False
    args.confirm = on
    # a template started before restarts with the new setting (checker.run.workers.template)
    os.environ[confirm.ENV_SWITCH] = "1" if on else "0"
    if getattr(args, "cache_dir", None) and not os.environ.get(confirm.ENV_KEEP_DIR):
        os.environ[confirm.ENV_KEEP_DIR] = os.path.abspath(os.path.join(args.cache_dir, "disagreements"))
    for note in confirm.missing_notes():
        print(f"obligations: note: {note}", file=sys.stderr)


def cmd_lean(args: argparse.Namespace) -> ExitCode:
    from checker.face.lean import audit, default_dir

    directory = args.lean_dir or args.config.lean_refs or default_dir(args.packages)
    report = audit(_catalogue(args), directory)
    sys.stdout.write(report.render())
    return ExitCode.OK if report.ok else ExitCode.FAILED


def cmd_init(args: argparse.Namespace) -> ExitCode:
    from checker.face.scaffold import init

    from checker.face.scaffold import install_hint

    root = Path.cwd()
    for path in init(args.name, root):
        print(f"wrote {path.relative_to(root)}")
    print(f"next: 'obligations check' here (one proved, one refuted claim), 'python -m pytest', "
          f"then write your own claims in {args.name}/")
    print(f"in a fresh environment: 'pip install {install_hint()}' (the checker, which is on no package index), "
          f"then 'pip install -e .' here (registers the catalogue)")
    return ExitCode.OK


def _apply_config(args: argparse.Namespace, config: Config) -> None:
    """Fill every option the command line left unset from ``[tool.obligations]``, then from the
    built-in defaults."""
    from checker.store.cache import DEFAULT_DIR as DEFAULT_CACHE_DIR
    from checker.face.plugins import resolve_packages
    from checker.run.runner import DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT_S

    args.config = config
    defaults = {
        "jobs": (config.jobs, 0),
        "timeout": (config.timeout, DEFAULT_TIMEOUT_S),
        "memory": (config.memory, DEFAULT_MEMORY_MIB),
        # $OBLIGATIONS_CACHE_DIR (e.g. a CI cache, or a test session's own) before the configuration
        "cache_dir": (os.environ.get("OBLIGATIONS_CACHE_DIR") or config.cache_dir, DEFAULT_CACHE_DIR),
        "format": (config.format, DEFAULT_FORMAT),
        "executor": (config.executor, "local"),
    }
    if args.command in BUILTIN_COMMANDS:  # a plugin's options are its own
        for key, (configured, builtin) in defaults.items():
            if hasattr(args, key) and getattr(args, key) is None:
                setattr(args, key, configured if configured is not None else builtin)
        if getattr(args, "format", None) is not None:
            from checker.report.reports import FORMATS

            if args.format not in FORMATS:
                raise UsageError(f"{config.path}: [tool.obligations] format = {args.format!r} "
                                 f"is not one of {', '.join(FORMATS)}")
    needs_catalogue = args.command in {"list", "check", "audit", "lean"} or (
        args.command in ("show", "paper") and not args.report)
    if hasattr(args, "no_confirm"):
        _confirmation(args, config)
    try:
        args.packages = resolve_packages(args.package, config)
    except UsageError:
        if needs_catalogue:
            raise
        args.packages = ()


class Terminated(KeyboardInterrupt):
    """SIGTERM: stop as an interrupt does, running every clean-up on the way out (the worker
    template and its jobs, the run's store of shared facts)."""


def _on_sigterm(signum: int, frame: object) -> None:
    raise Terminated()


def main(argv: Sequence[str] | None = None) -> int:
    import signal

    from checker.face import config as project_config
    from checker.face.plugins import load_commands

    try:
        signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread (an embedding caller): its own handling stands
        pass

    try:
        config = project_config.load()
    except UsageError as exc:
        print(f"obligations: error: {exc}", file=sys.stderr)
        return ExitCode.USAGE_ERROR
    if config.root is not None and str(config.root) not in sys.path:
        sys.path.insert(0, str(config.root))  # the project's packages import without installing it
    commands, problems = load_commands(config, BUILTIN_COMMANDS)
    for problem in problems:
        print(f"obligations: warning: {problem}", file=sys.stderr)
    plugins = {c.name: c for c in commands}
    parser = build_parser(commands)
    args = parser.parse_args(argv)
    try:
        _apply_config(args, config)
        code = _dispatch(args, plugins)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # The reader went away (`obligations list | head -1`): end quietly, and keep the
        # interpreter's final flush from raising again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ExitCode.FAILED
    except (UsageError, SchemaError) as exc:
        print(f"obligations: error: {exc}", file=sys.stderr)
        return ExitCode.USAGE_ERROR
    except CheckerError as exc:
        print(f"obligations: error: {exc}", file=sys.stderr)
        return ExitCode.FAILED
    except KeyboardInterrupt as exc:
        print(f"obligations: {'terminated' if isinstance(exc, Terminated) else 'interrupted'}", file=sys.stderr)
        return ExitCode.INTERNAL_ERROR
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        print("obligations: internal error (the traceback above is a checker bug; please report it)", file=sys.stderr)
        return ExitCode.INTERNAL_ERROR


def run() -> NoReturn:
    """The ``obligations`` command: :func:`main`, then the exit handlers an ordinary exit runs
    (the worker template's shutdown among them) and the streams flushed, and out — without the
    interpreter's teardown, which frees every object of a full check one by one (0.45 s after
    a cold full check, 0.05 s after a small one) and writes nothing."""
    code = main()
    leave(code)


def leave(code: int) -> NoReturn:
    """Exit with ``code`` as an ordinary exit would, less the interpreter's teardown."""
    import atexit

    try:
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)


def _dispatch(args: argparse.Namespace, plugins: dict[str, Command]) -> int:
    match args.command:
        case "list":
            return cmd_list(args)
        case "check":
            return cmd_check(args)
        case "audit":
            return cmd_audit(args)
        case "show":
            return cmd_show(args)
        case "lean":
            return cmd_lean(args)
        case "report":
            return cmd_report(args)
        case "init":
            return cmd_init(args)
        case "paper":
            return cmd_paper(args)
        case name if name in plugins:
            return int(plugins[name].run(args))
    raise UsageError(f"unknown command {args.command!r}")
