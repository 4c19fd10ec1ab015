"""The ``obligations`` command: ``list``, ``check``, ``show``, ``lean``."""

from __future__ import annotations

import argparse
import enum
import os
import sys
import traceback
from typing import Sequence

from checker import __version__
from checker.errors import CheckerError, UsageError
from checker.cache import atomic_write
from checker.errors import SchemaError
from checker.model import Outcome, Result

DEFAULT_PACKAGE = "obligations"


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


def build_parser() -> argparse.ArgumentParser:
    from checker.cache import DEFAULT_DIR as DEFAULT_CACHE_DIR
    from checker.reports import FORMATS
    from checker.runner import DEFAULT_MEMORY_MIB, DEFAULT_SEED, DEFAULT_TIMEOUT_S

    p = argparse.ArgumentParser(prog="obligations", description="Discharge the proof obligations of the catalogue and report their status.")
    p.add_argument("--version", action="version", version=f"obligations {__version__}")
    p.add_argument("--package", default=DEFAULT_PACKAGE, help="catalogue package to load (default: %(default)s)")
    sub = p.add_subparsers(dest="command", required=True)

    ls = sub.add_parser("list", help="list obligations (id, expect, source)")
    ls.add_argument("patterns", nargs="*", metavar="PATTERN", help="id prefixes")

    def run_options(q: argparse.ArgumentParser) -> None:
        q.add_argument("--jobs", "-j", type=_positive_int, default=0, help="worker processes (default: one per core)")
        q.add_argument("--timeout", type=_positive_float, default=DEFAULT_TIMEOUT_S, help="wall-clock seconds per obligation (default: %(default)s)")
        q.add_argument("--memory", type=_positive_int, default=DEFAULT_MEMORY_MIB, help="address-space limit per worker in MiB (default: %(default)s)")
        q.add_argument("--seed", type=int, default=DEFAULT_SEED, help="base seed; each obligation derives its own (default: %(default)s)")
        q.add_argument("--slow", action="store_true", help="include obligations marked slow")
        q.add_argument("--quiet", "-q", action="store_true", help="no progress lines")
        q.add_argument("--no-cache", action="store_true", help="re-run everything; neither read nor write the cache")
        q.add_argument("--cache-dir", default=DEFAULT_CACHE_DIR, metavar="DIR", help="result cache directory (default: %(default)s)")

    ck = sub.add_parser("check", help="discharge obligations and print the status table")
    ck.add_argument("patterns", nargs="*", metavar="PATTERN", help="id prefixes (default: all)")
    run_options(ck)
    ck.add_argument("--format", choices=FORMATS, default="table", help="report format (default: %(default)s)")
    ck.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE (atomically) instead of stdout")
    ck.add_argument("--save-baseline", metavar="FILE", help="save this run as a baseline (JSON, written atomically)")
    ck.add_argument("--baseline", metavar="FILE", help="compare with a saved baseline; exit 1 on any regression")
    ck.add_argument("--audit", action="store_true",
                    help="also run the audits (vacuity, necessity, tightness, shrinking, seeds) on each result")

    au = sub.add_parser("audit", help="check and audit obligations: vacuity, necessity, tightness, shrunk witnesses, seeds")
    au.add_argument("patterns", nargs="*", metavar="PATTERN", help="id prefixes (default: all)")
    run_options(au)
    au.add_argument("--format", choices=FORMATS, default="table", help="report format (default: %(default)s)")
    au.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE (atomically) instead of stdout")

    rp = sub.add_parser("report", help="render a saved JSON report in another format")
    rp.add_argument("report", metavar="REPORT.json")
    rp.add_argument("--format", choices=FORMATS, default="table")
    rp.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")

    sh = sub.add_parser("show", help="print one obligation's full certificate")
    sh.add_argument("id", metavar="ID")
    sh.add_argument("--from", dest="report", metavar="REPORT.json", help="read the result from a JSON report instead of running")
    run_options(sh)

    ln = sub.add_parser("lean", help="check that every lean ref resolves and every declaration is mirrored")
    ln.add_argument("--dir", dest="lean_dir", metavar="DIR", help="the lean_refs directory (default: ./lean_refs, else the checkout's)")

    dc = sub.add_parser("discharge", help="evaluate a descent capstone's hypotheses and conclusion at a concrete network")
    dc.add_argument("capstone", metavar="CAPSTONE",
                    help="linear, mlp_output, mlp_hidden or mlp_input, with _sgd_descends or _float_sgd_descends "
                    "(linear: the file's output layer dense W2 b2 as a linear net, so the example has d2 entries)")
    dc.add_argument("--net", required=True, metavar="FILE.npz", help="network file (binary32 arrays W0 b0 W1 b1 W2 b2)")
    dc.add_argument("--example", required=True, metavar="X0,X1,…", help="the example's input, comma-separated exact numbers (write --example=-1,… when the first is negative)")
    dc.add_argument("--label", required=True, type=int, metavar="K", help="the example's class")
    dc.add_argument("--lr", required=True, metavar="LR", help="learning rate (e.g. 1/256 or 0.00390625)")
    dc.add_argument("--eta", metavar="ETA", help="ℝ capstones: use an oracle off by ETA per entry (default: the exact gradient)")
    dc.add_argument("--format", choices=("table", "json"), default="table")
    return p


def _progress(stream=None):
    stream = stream or sys.stderr
    tty = stream.isatty()

    def show(result: Result, done: int, total: int, cached: bool) -> None:
        width = len(str(total))
        from checker.report_formats import terminal_safe

        text = terminal_safe(f"[{done:>{width}}/{total}] {result.status.value:<9} {result.id} ({result.time_s:.2f}s{', cached' if cached else ''})")
        if tty:
            stream.write("\r\033[K" + text + ("\n" if done == total else ""))
        else:
            stream.write(text + "\n")
        stream.flush()

    return show


def exit_code_for(results: Sequence[Result]) -> ExitCode:
    bad = {Outcome.CONTRADICTED, Outcome.BROKEN, Outcome.VACUOUS}
    return ExitCode.FAILED if any(r.outcome in bad for r in results) else ExitCode.OK


def _run(args: argparse.Namespace, patterns: Sequence[str]) -> list[Result]:
    from pathlib import Path

    from checker.cache import Cache
    from checker.registry import discover
    from checker.runner import RunConfig, run

    catalogue = discover(args.package, timeout_s=args.timeout, memory_mib=args.memory)
    chosen = catalogue.select(patterns, include_slow=args.slow or bool(getattr(args, "id", None)))
    config = RunConfig(jobs=args.jobs, timeout_s=args.timeout, memory_mib=args.memory, seed=args.seed, slow=args.slow,
                       audit=bool(getattr(args, "audit", False)))
    progress = None if args.quiet else _progress()
    cache = None if args.no_cache else Cache(Path(args.cache_dir))
    # A module that does not load may have held obligations any pattern selects: its error is
    # part of every run, so a broken catalogue never passes.
    return run(chosen, config, catalogue.errors, progress, cache=cache, package=args.package)


def _check_outputs(*paths: str | None) -> None:
    """Every output path checked before the run starts, so a bad one loses no results."""
    from checker.cache import check_writable

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
    from checker.registry import discover

    catalogue = discover(args.package)
    for ob in catalogue.select(args.patterns):
        slow = " [slow]" if ob.slow else ""
        print(f"{ob.id:<50} {ob.expect.value:<6} {ob.source.file}, {ob.source.label}{slow}")
    for err in catalogue.errors:
        print(f"{err.id:<50} error  {err.location}: {err.message}", file=sys.stderr)
    return ExitCode.FAILED if catalogue.errors else ExitCode.OK


def cmd_check(args: argparse.Namespace) -> ExitCode:
    from checker.reports import render

    from checker import baseline

    before = baseline.load(args.baseline) if args.baseline else None
    _check_outputs(args.output, args.save_baseline)
    results = _run(args, args.patterns)
    text = render(results, args.format)
    if args.output:
        atomic_write(args.output, text)
    else:
        sys.stdout.write(text)
    code = exit_code_for(results)
    if args.save_baseline:
        baseline.save(args.save_baseline, results)
    if before is not None:
        changes = baseline.compare(before, results)
        sys.stderr.write(baseline.render(changes))
        if any(c.regression for c in changes):
            code = ExitCode.FAILED
    return code


def cmd_audit(args: argparse.Namespace) -> ExitCode:
    """``check --audit`` without baselines: the audit report (``--format markdown`` for docs)."""
    from checker.reports import render

    args.audit = True
    _check_outputs(args.output)
    results = _run(args, args.patterns)
    text = render(results, args.format)
    if args.output:
        atomic_write(args.output, text)
    else:
        sys.stdout.write(text)
    return exit_code_for(results)


def cmd_report(args: argparse.Namespace) -> ExitCode:
    from checker.reports import read_json, render

    _check_outputs(args.output)
    results = read_json(_read_text(args.report))
    text = render(results, args.format)
    if args.output:
        atomic_write(args.output, text)
    else:
        sys.stdout.write(text)
    return ExitCode.OK


def cmd_show(args: argparse.Namespace) -> ExitCode:
    from checker.reports import read_json, render_certificate

    if args.report:
        results = read_json(_read_text(args.report))
        found = [r for r in results if r.id == args.id]
        if not found:
            raise UsageError(f"{args.report} has no result for {args.id!r}")
        result, context = found[0], results
    else:
        from checker.registry import discover

        catalogue = discover(args.package)
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
    from checker.report_formats import terminal_safe

    sys.stdout.write("\n".join(terminal_safe(line) for line in render_certificate(result, context).split("\n")))
    return exit_code_for([result])


def cmd_lean(args: argparse.Namespace) -> ExitCode:
    from checker.lean import audit
    from checker.registry import discover

    report = audit(discover(args.package), args.lean_dir)
    sys.stdout.write(report.render())
    return ExitCode.OK if report.ok else ExitCode.FAILED


def cmd_discharge(args: argparse.Namespace) -> ExitCode:
    import json

    from obligations.lean_mlp import discharge

    discharge.parse_capstone(args.capstone)  # an unknown name is reported before the file is read
    net = discharge.load_network(args.net)
    report = discharge.discharge(
        args.capstone, net, discharge.parse_vector(args.example), args.label,
        discharge.parse_number(args.lr, "--lr"),
        eta=None if args.eta is None else discharge.parse_number(args.eta, "--eta"))
    if args.format == "json":
        sys.stdout.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(report.render_table())
    return ExitCode.OK if report.ok else ExitCode.FAILED


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
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
            case "discharge":
                return cmd_discharge(args)
    except (UsageError, SchemaError) as exc:
        print(f"obligations: error: {exc}", file=sys.stderr)
        return ExitCode.USAGE_ERROR
    except CheckerError as exc:
        print(f"obligations: error: {exc}", file=sys.stderr)
        return ExitCode.FAILED
    except KeyboardInterrupt:
        print("obligations: interrupted", file=sys.stderr)
        return ExitCode.INTERNAL_ERROR
    except BrokenPipeError:
        # the reader went away (`obligations list | head -1`): stop quietly, as other tools do
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return ExitCode.OK
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        print("obligations: internal error (the traceback above is a checker bug; please report it)", file=sys.stderr)
        return ExitCode.INTERNAL_ERROR
    parser.error(f"unknown command {args.command!r}")
    return ExitCode.USAGE_ERROR
