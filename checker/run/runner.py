"""Running obligations: one fresh process per obligation, with hard limits.

Each obligation runs in a child forked from a clean template (:mod:`checker.run.workers`): its own
process group, an address-space limit plus a limit on the whole group's resident memory, BLAS
limited to one thread, stdout/stderr captured into its certificate (never into the report
stream), and a wall-clock limit enforced by killing the group. A crashing, hanging or
memory-hungry obligation costs only itself, and no obligation sees what another one did.

Every verdict is validated where it is built, whoever built it: a certificate that is not JSON
data is that obligation's ``error``; a ``proved`` verdict must carry the steps it rests on; a
``refuted`` verdict's witness is re-evaluated against the obligation's declared claims
(:mod:`checker.audit.recheck`), and one that is not a counterexample is ``unknown``.

Results do not depend on ``jobs``: every obligation's seed is derived from its id, and
results are returned in catalogue order whatever order they finish in.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import secrets
from dataclasses import replace
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from checker.kernel.model import (
    DEFAULT_MEMORY_MIB,
    DEFAULT_SEED,
    DEFAULT_TIMEOUT_S,
    Certificate,
    Context,
    Expect,
    Grade,
    Limits,
    Obligation,
    Result,
    Source,
    Status,
    Step,
    Verdict,
    declares_every_size,
    derive_seed,
    result_for,
)
from checker.kernel import proof as kernel
from checker.run import schedule
from checker.store.cache import Cache, cache_key
from checker.kernel.declaration import LoadError

OBLIGATION_JOB = "checker.run.runner:obligation_job"  # run by checker.run.workers, named by path


@dataclass(frozen=True, slots=True)
class RunConfig:
    jobs: int = 0  # 0: one per core
    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_mib: int = DEFAULT_MEMORY_MIB
    seed: int = DEFAULT_SEED
    slow: bool = False
    audit: bool = False  # run the audits (checker.audit.audits) after each discharge, in the worker

    @property
    def workers(self) -> int:
        return self.jobs if self.jobs > 0 else (os.cpu_count() or 1)

    @property
    def limits(self) -> Limits:
        return Limits(self.timeout_s, self.memory_mib)


Progress = Callable[[Result, int, int, bool], None]  # result, done, total, from the cache


# ---------------------------------------------------------------------------------------
# Worker side
# ---------------------------------------------------------------------------------------


def _own_frame(exc: BaseException, file: str) -> str:
    """``file:line in function`` of the deepest traceback frame inside the obligation's module
    (else the deepest frame overall)."""
    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if os.path.abspath(f.filename) == os.path.abspath(file)]
    frame = (mine or frames or [None])[-1]
    if frame is None:
        return file
    return f"{frame.filename}:{frame.lineno} in {frame.name}"


class _DeclarationError(Exception):
    """The obligation's declaration is wrong in a way only its claims show (a float constant)."""


def _float_constants(ob: Obligation) -> str:
    """Why a declared claim holds a float that is not the decimal it reads as ("" when none does):
    z3 would read the decimal, the exact backend the binary value."""
    from checker.kernel.printing import print_claims

    def floating(error: str | None) -> bool:
        # the printer's own FloatConstant, or the claim's explanation of it (claims.ClaimMisuse)
        return error is not None and (error.startswith("FloatConstant: ") or
                                      (error.startswith("ClaimMisuse: ") and " float " in error))

    bad = [f"claim {p.name!r}: {p.error.split(': ', 1)[1]}" for p in print_claims(ob.claims, spell=False) if floating(p.error)]
    return "; ".join(bad)


def execute(ob: Obligation, ctx: Context, limits: Limits | None = None, audit: bool = False) -> tuple[Result, bool]:
    """Run one discharge function in this process and wrap whatever happens into a validated
    Result (pytest's ``CallInfo.from_call``). The flag says the process ran out of memory.

    With ``audit``, the audits of :mod:`checker.audit.audits` run afterwards in the same process,
    within what is left of the wall-clock limit; an audit failure becomes an entry of the
    audit object, never a different status."""
    start = time.perf_counter()
    restart = False
    try:
        floats = _float_constants(ob)
        if floats:
            raise _DeclarationError(floats)
        verdict = ob.discharge(ctx)
        if not isinstance(verdict, Verdict):
            raise TypeError(
                f"discharge returned {type(verdict).__name__} ({verdict!r:.80}), expected a Verdict; "
                "return a verdict from a backend (smt.prove, …), all_of/any_of, refuted(...) or unknown(...)"
            )
    except MemoryError as exc:
        restart = True
        where = _own_frame(exc, ob.file)
        verdict = Verdict(
            Status.ERROR,
            Certificate(
                method="memory limit",
                reason=f"{where}: memory limit of {limits.memory_mib if limits else '?'} MiB exceeded (MemoryError)",
                data={"limit_mib": limits.memory_mib if limits else None},
            ),
        )
    except _DeclarationError as exc:
        verdict = Verdict(Status.ERROR, Certificate(method="declaration", reason=f"{ob.location}: {exc}"))
    except BaseException as exc:  # noqa: BLE001 - any failure of an obligation is its own error
        if isinstance(exc, KeyboardInterrupt):
            raise
        where = _own_frame(exc, ob.file)
        verdict = Verdict(
            Status.ERROR,
            Certificate(
                method="exception",
                reason=f"{where}: {type(exc).__name__}: {exc}",
                data={"traceback": "".join(traceback.format_exception(exc)).strip()[-4000:]},
            ),
        )
    verdict = validated(ob, verdict)
    if not restart:
        verdict = _next_sizes(ob, ctx, verdict)
        verdict = _hypothesis_notes(ob, ctx, verdict)
    elapsed = time.perf_counter() - start
    vacuity_json = None
    if not restart:
        vacuity_json = _vacuity(ob, ctx, verdict)
    audit_json = None
    if audit and not restart:
        verdict, audit_json, restart = _audit(ob, ctx, verdict, elapsed)
    result = _json_checked(ob, result_for(ob, verdict, elapsed, seed=ctx.seed, limits=limits, audit=audit_json,
                                          vacuity=vacuity_json))
    return replace(result, claims=_printed_claims(ob), theorem=_printed_theorem(ob)), restart


UNDECIDED_SEARCH = 4
"""After an undecided proof, the smallest size combinations searched (a bounded proof's next sizes get
:data:`checker.backends.induction.SEARCH_MOST`): each is a z3 query of up to 3 s, run inside the job."""


def _next_sizes(ob: Obligation, ctx: Context, verdict: Verdict) -> Verdict:
    """A proof of some sizes of a theorem declared for every size: the next sizes are searched for a
    counterexample (:func:`checker.backends.induction.search_sizes`); one found, re-checked against
    the theorem, is the result — the proof of the smaller sizes is kept in its data. An undecided
    proof of such a theorem (an induction whose step fails) has its smallest sizes searched alike: a
    counterexample there decides what the failed proof could not."""
    undecided = verdict.status is Status.UNKNOWN
    if not undecided and (verdict.status is not Status.PROVED or verdict.certificate.grade in (None, Grade.UNIVERSAL)):
        return verdict
    sized = [c for c in ob.theorem if hasattr(c, "size_names")]
    if not sized:
        return verdict
    from checker.backends import induction

    proved_sizes = verdict.certificate.data.get("sizes") or ()
    searched = []
    for c in sized:
        try:
            found, where = induction.search_sizes(c, ctx, skip=[s for s in proved_sizes if isinstance(s, Mapping)],
                                                  most=UNDECIDED_SEARCH if undecided else induction.SEARCH_MOST)
        except Exception as exc:  # noqa: BLE001 - a search that cannot run leaves the proof as it is
            return dataclasses.replace(verdict, certificate=dataclasses.replace(
                verdict.certificate, data={**dict(verdict.certificate.data), "next_sizes": f"not searched: {exc}"}))
        if found is not None:
            checked = validated(ob, found)
            if checked.status is Status.REFUTED:
                before = {"undecided": verdict.certificate.reason} if undecided else {"proved_for": verdict.certificate.over}
                return Verdict(Status.REFUTED, dataclasses.replace(checked.certificate, data={
                    **dict(checked.certificate.data), **before,
                    "found_by": f"the {'size' if undecided else 'next-size'} search, at {where}"}))
        searched.append(f"{c.name} at {where}")
    return dataclasses.replace(verdict, certificate=dataclasses.replace(verdict.certificate, data={
        **dict(verdict.certificate.data), "next_sizes": "z3 found no counterexample within its limit at each size (which says nothing of "
                                               "whether the theorem holds there): " + "; ".join(searched)}))


def _invalid(what: str, fix: str) -> Verdict:
    return Verdict(Status.ERROR, Certificate(method="invalid verdict", reason=f"{what}; {fix}"))


def validated(ob: Obligation, verdict: Verdict, *, received: bool = False) -> Verdict:
    """``verdict`` if it passes the re-checks every backend verdict passes; else the honest
    status: ``error`` for a malformed certificate or a proof without steps, ``unknown`` for a
    refutation whose witness does not re-check. A witness that cannot be re-evaluated (no
    declared claim fits it) is kept, marked "witness not independently re-checked"."""
    from checker.audit.recheck import Recheck, recheck_refutation, refuted_by_rule

    c = verdict.certificate
    if not isinstance(c.method, str) or not c.method.strip():
        return _invalid(f"{ob.location}: the certificate's method is {c.method!r}", "name the method in a non-empty string")
    if not isinstance(c.steps, tuple) or not all(isinstance(s, Step) for s in c.steps):
        return _invalid(f"{ob.location}: the certificate's steps are not a tuple of Step", "build steps with checker.kernel.verdicts.timed()")
    for name in ("witness", "sides", "shrunk_witness"):
        value = getattr(c, name)
        if value is not None and not isinstance(value, Mapping):
            return _invalid(f"{ob.location}: the certificate's {name} is a {type(value).__name__}", f"give {name} as a dict of names to exact values")
    if c.reason is not None and not isinstance(c.reason, str):
        return _invalid(f"{ob.location}: the certificate's reason is a {type(c.reason).__name__}", "give the reason as a string")
    if not isinstance(c.data, Mapping):
        return _invalid(f"{ob.location}: the certificate's data is a {type(c.data).__name__}", "give data as a dict")
    match verdict.status:
        case Status.PROVED if received:
            # In the parent the kernel fact is gone (it lives in the job that made it): the answer
            # came with the job's nonce, and the job's kernel wrote the ledger; a proof without
            # one did not come through the kernel.
            if not c.ledger or not all(isinstance(e, Mapping) and e.get("kind") and e.get("text") for e in c.ledger):
                return _invalid(f"{ob.location}: the received proof carries no kernel ledger",
                                "a proof is made in the job by the kernel's rules")
            from checker.backends import confirm

            if any(confirm.is_pending(e) for e in c.ledger):
                return _invalid(f"{ob.location}: the received proof's ledger holds a confirmation never asked of the "
                                "second solver", "a job resolves its ledger's confirmations before it answers")
        case Status.PROVED:
            fact = verdict.fact
            if not kernel.is_fact(fact):
                return _invalid(f"{ob.location}: the proved verdict rests on no kernel fact (a proof built by hand)",
                                "prove the claim with a backend rule (smt.prove, interval.prove_on, exact.check_instance, "
                                "symbolic.conclude), combine with all_of/any_of, or state a catalogue computation with "
                                "checker.kernel.verdicts.trusted(...)")
            if ob.theorem:
                ok, why = kernel.covers(fact, ob.theorem)
                if not ok:
                    return Verdict(Status.UNKNOWN, Certificate(
                        method=c.method, steps=c.steps, reason=f"not a proof of the declared theorem: {why}",
                        data={"proved_instead": list(fact.names), "ledger": kernel.ledger_json(fact)}))
            ledger = _fact_checked(ob, c, fact)
            if isinstance(ledger, Verdict):
                return ledger
            if not ob.theorem:
                why = f" ({ob.no_theorem})" if ob.no_theorem else ""
                ledger.append({"kind": "unchecked", "text": "no theorem declared: the kernel did not check that this "
                                                            f"proof is about the statement{why}"})
            return Verdict(Status.PROVED, dataclasses.replace(c, grade=fact.grade, over=fact.over, ledger=tuple(ledger)),
                           fact=fact)
        case Status.REFUTED:
            existences = [t for t in ob.theorem if hasattr(t, "refutation_subject")]
            if existences and received:
                # the job's kernel made the negation and wrote its ledger; the fact stayed in the job
                named = refuted_by_rule(c.ledger)
                if all(t.name not in named for t in existences):
                    return _invalid(f"{ob.location}: the received refutation of an existence carries no kernel ledger",
                                    "a refutation of 'there are constants such that …' is made in the job by the kernel")
            elif existences:
                rejected = _existence_unrefuted(verdict, existences)
                if rejected:
                    return Verdict(Status.UNKNOWN, Certificate(
                        method=c.method, steps=c.steps, reason=f"refutation rejected: {rejected}",
                        data={"rejected_witness": _plain(c.witness), "rejected_sides": _plain(c.sides)}))
                ledger = _fact_checked(ob, c, verdict.fact)
                if isinstance(ledger, Verdict):
                    return ledger
                verdict = Verdict(verdict.status, dataclasses.replace(c, ledger=tuple(ledger)), fact=verdict.fact)
                c = verdict.certificate
            check = recheck_refutation(ob, c.witness, c.data.get("claim"), c.ledger or ())
            match check.verdict:
                case Recheck.REFUTES:
                    if check.sizes and isinstance(c.witness, Mapping):
                        # refuted at the sizes of the claim the certificate names: the witness says them,
                        # so it re-checks against the declared theorem as it stands
                        c = dataclasses.replace(c, witness={**{k: str(v) for k, v in check.sizes}, **c.witness})
                        verdict = Verdict(verdict.status, c, fact=verdict.fact)
                case Recheck.DOES_NOT_REFUTE:
                    what = "the declared theorem" if ob.theorem else "the declared claims"
                    return Verdict(Status.UNKNOWN, Certificate(
                        method=c.method, steps=c.steps,
                        reason=f"refutation rejected: the witness does not refute {what}: {check.reason}"
                               + (f" (a proof step or lemma is false there: {c.reason})" if c.reason else ""),
                        data={"rejected_witness": _plain(c.witness), "rejected_sides": _plain(c.sides)}))
                case Recheck.NOT_RECHECKED:
                    # a witness nothing declared can re-check is the discharge's word alone: a wrong
                    # helper (budget code, a table) would make it a refutation of a true statement
                    what = "the declared theorem" if ob.theorem else "a declared claim (declare the theorem, or a claim it re-checks against)"
                    return Verdict(Status.UNKNOWN, Certificate(
                        method=c.method, steps=c.steps,
                        reason=f"refutation not accepted: the witness cannot be re-checked against {what}: {check.reason}",
                        data={"rejected_witness": _plain(c.witness), "rejected_sides": _plain(c.sides)}))
        case Status.SUPPORTED | Status.UNKNOWN | Status.TIMEOUT | Status.ERROR:
            pass
    return verdict


def _fact_checked(ob: Obligation, c: Certificate, fact: Any) -> list[dict[str, Any]] | Verdict:
    """What a kernel fact behind a proof (or an existence's refutation) must pass before it is accepted —
    no lemma left unproved, z3's and exact arithmetic's readings of the theorem agreeing, the second
    solver not disagreeing — then its confirmed ledger as JSON; else the verdict saying what failed."""
    if fact.assumes:
        return _unproved_lemmas(c, fact)
    split = _readings_split(ob, fact, c)
    if split:
        return split
    return _confirmed_ledger(ob, c, fact)


def _readings_split(ob: Obligation, fact: Any, c: Certificate) -> Verdict | None:
    """The ``error`` verdict when a theorem whose proof (or refutation) rests on z3 reads differently in z3
    and in exact rationals (:mod:`checker.audit.readings`): z3 settled another statement than the one
    witnesses and instances are judged by. ``None`` when they agree or nothing rests on z3."""
    if not any(e.kind == "solver" and e.detail.get("solver") == "z3" for e in fact.ledger):
        return None
    from checker.audit import readings

    for claim in readings.theorem_claims(ob.theorem):
        try:
            split = readings.disagreement(claim)
        except Exception:  # noqa: BLE001 - a claim that cannot be sampled is left alone
            continue
        if split:
            return Verdict(Status.ERROR, Certificate(
                method=c.method, steps=c.steps,
                reason=f"{ob.location}: the declared theorem reads differently in z3 and in exact rationals "
                       f"({claim.name}: {split}): z3 settled another statement than the one witnesses are judged by "
                       "— write the claim once, without branching on the type of its arguments"))
    return None


def _unproved_lemmas(c: Certificate, fact: Any) -> Verdict:
    """A proof (or an existence's refutation) that rests on lemma instances no part of it proved decides
    nothing: ``unknown``, naming the lemmas (a false lemma would prove a false theorem)."""
    import re

    names = sorted({(re.match(r"\(claim \|?([^| ]+)", s) or re.match(r"(.{0,60})", s)).group(1) for s in fact.assumes})
    return Verdict(Status.UNKNOWN, Certificate(
        method=c.method, steps=c.steps,
        reason=f"the proof rests on lemma(s) it does not prove: {', '.join(names)} — conjoin a proof of each "
               "(all_of(…, lemmas=True) with the lemma's own proof)",
        data={"assumed": sorted(fact.assumes)}))


def _confirmed_ledger(ob: Obligation, c: Certificate, fact: Any) -> list[dict[str, Any]] | Verdict:
    """``fact``'s ledger as JSON with the second solver asked now, for the steps this result rests on;
    the ``error`` verdict naming both answers when the two solvers disagree."""
    from checker.backends import confirm

    try:
        return kernel.ledger_json(fact, confirm.resolved(fact.ledger))
    except confirm.SolverDisagreement as exc:
        return Verdict(Status.ERROR, Certificate(method=c.method, steps=c.steps, reason=f"{ob.location}: SolverDisagreement: {exc}",
                                                 data={"answers": [a.to_json() for a in exc.answers], "kept": exc.path}))


def _existence_unrefuted(verdict: Verdict, existences: Sequence[Any]) -> str:
    """Why ``verdict`` does not refute a declared "there are constants such that …" (``""`` when it does):
    a witness at one choice of the constants says nothing of the others, so the kernel's negation of the
    theorem, from a witness family proved for every choice, must come with it."""
    fact = verdict.fact
    subjects = fact.subjects if kernel.is_fact(fact) else frozenset()
    if any(t.refutation_subject in subjects for t in existences):  # one false part refutes the conjunction
        return ""
    missing = [t.name for t in existences]
    other = [n for n in (fact.names if kernel.is_fact(fact) else ()) if str(n).startswith("¬")]
    if other:
        return (f"the kernel's refutation is of {', '.join(other)}, not of the declared {', '.join(missing)} "
                "(another claim, or the same name with another formula)")
    return (f"{', '.join(missing)} says something exists; a witness at one choice does not refute it — refute "
            "'there are constants such that …' with a witness family proved for every choice "
            "(checker.backends.smt.refute_existence), 'some instance' by proving that none exists (smt.refute_instance)")


def _plain(value: Any) -> Any:
    from checker.kernel.model import strict

    try:
        return strict(value)
    except TypeError:
        return repr(value)[:2000]


def _json_checked(ob: Obligation, result: Result) -> Result:
    """``result`` exactly as it reads back from strict JSON (non-finite floats as strings); a
    value that is not JSON data makes it this obligation's ``error``."""
    from checker.kernel.model import strict

    try:
        return Result.from_json(strict(result.to_json(), "result"))
    except RecursionError:
        bad = Verdict(Status.ERROR, Certificate(
            method="invalid verdict",
            reason=f"{ob.location}: the certificate's data is nested too deeply to be written as JSON "
                   "(thousands of levels); give data as flat lists and dicts"))
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        bad = Verdict(Status.ERROR, Certificate(
            method="invalid verdict",
            reason=f"{ob.location}: the result is not JSON data ({exc}); certificates hold only str, int, float, bool, None, lists and dicts"))
    return Result.from_json(strict(result_for(ob, bad, result.time_s, seed=result.seed, limits=result.limits).to_json()))


def _printed_claims(ob: Obligation) -> tuple[dict[str, Any], ...]:
    """The declared claims as formulas (in the worker: printing may import what the claims use)."""
    from checker.kernel.printing import print_claims

    sized = [c for c in ob.theorem if hasattr(c, "size_names")]
    printed = [p.to_json() for p in print_claims(ob.claims)]
    # a theorem for every size is shown (and compared by the claim diff) beside its encodings at sizes
    printed += [{**p.to_json(), "sized": c.shapes_text()} for c, p in zip(sized, print_claims(sized))]
    return tuple(printed)


def _printed_theorem(ob: Obligation) -> tuple[str, ...]:
    """The declared theorem's claims as printed formulas (a sized claim with its sizes); ``()`` when
    none is declared, and a claim that cannot be printed is its name."""
    from checker.kernel.printing import print_claims

    out = []
    for c, p in zip(ob.theorem, print_claims(ob.theorem)):
        text = p.statement_text()
        out.append(f"{text} ({', '.join(c.shapes_text().split())})" if hasattr(c, "size_names") else text)
    return tuple(out)


def _hypothesis_notes(ob: Obligation, ctx: Context, verdict: Verdict) -> Verdict:
    """A proved theorem's ledger with a note on each hypothesis z3 shows unused or needed
    (:mod:`checker.audit.hypotheses`); the status never changes, and a failure adds no note."""
    if verdict.status is not Status.PROVED or not ob.theorem:
        return verdict
    from checker.audit import hypotheses

    try:
        extra = hypotheses.notes(ob.theorem, ctx, at_points=verdict.certificate.grade is Grade.INSTANCES)
    except Exception:  # noqa: BLE001 - notes are diagnostics
        return verdict
    if not extra:
        return verdict
    return replace(verdict, certificate=replace(verdict.certificate, ledger=(*verdict.certificate.ledger, *extra)))


def _vacuity(ob: Obligation, ctx: Context, verdict: Verdict) -> Any:
    """The default vacuity check of a proved result (:mod:`checker.audit.vacuity`); its own failure is
    an undecided entry, never a changed status."""
    from checker.audit import vacuity

    try:
        return vacuity.check(ob, ctx, verdict)
    except MemoryError:
        return {"verdict": "undecided", "reason": "memory limit exceeded during the vacuity check"}
    except Exception as exc:  # noqa: BLE001
        return {"verdict": "undecided", "reason": f"{type(exc).__name__}: {exc}"}


def _audit(ob: Obligation, ctx: Context, verdict: Verdict, elapsed: float) -> tuple[Verdict, dict[str, Any], bool]:
    """Run the audits within the wall-clock limit left after the discharge (with a margin for
    the answer to reach the parent); the shrunk witness goes into the certificate."""
    import dataclasses

    from checker.audit import audits

    budget = ctx.timeout_s * 0.85 - elapsed - 1.0
    try:
        audit_json, shrunk = audits.run_audit(ob, ctx, verdict, elapsed, budget_s=budget)
    except MemoryError:
        return verdict, audits.failed_audit("memory limit exceeded during the audit"), True
    except Exception as exc:  # noqa: BLE001 - an audit failure never changes the result
        return verdict, audits.failed_audit(f"{type(exc).__name__}: {exc}"), False
    if shrunk is not None:
        verdict = Verdict(verdict.status, dataclasses.replace(verdict.certificate, shrunk_witness=shrunk))
    return verdict, audit_json, False


def obligation_job(send: Callable[[Any], None], payload: Any) -> None:
    """What a forked worker runs for one obligation (see :mod:`checker.run.workers`).

    Before any catalogue code runs, the shared-fact store takes its references to the solvers
    (:func:`checker.backends.memo.seal`); the answer is one ``result`` frame carrying the job's
    nonce, which the parent checks (:func:`result_of_job`) and re-validates."""
    import importlib

    from checker.kernel import declaration as registry

    from checker.backends import memo

    from checker.run import reads

    ob_id, module, seed, timeout_s, memory_mib, slow, audit, *rest = payload
    shared = rest[0] if rest else None
    nonce = rest[1] if len(rest) > 1 else None
    memo.seal()
    reads.start(ignore=(shared,) if shared else ())
    memo.use(shared)
    try:
        importlib.import_module(module)
        ob = registry._REGISTRY[ob_id]
    except BaseException as exc:  # noqa: BLE001
        send(["load-error", f"{type(exc).__name__}: {exc}", nonce])
        return
    result, _ = execute(ob, Context(ob_id, seed, timeout_s, slow), Limits(timeout_s, memory_mib), audit=audit)
    record = reads.finish()
    send(["result", result.to_json(), nonce, record])


# ---------------------------------------------------------------------------------------
# Parent side
# ---------------------------------------------------------------------------------------


def _failure(ob: Obligation, status: Status, method: str, reason: str, elapsed: float, seed: int, config: RunConfig, **data: Any) -> Result:
    return result_for(ob, Verdict(status, Certificate(method=method, reason=reason, data=data)), elapsed, seed, config.limits)


def load_error_result(err: LoadError) -> Result:
    return Result(
        id=err.id,
        source=Source(err.location, "module"),
        statement=f"module {err.module} imports and its declarations are valid",
        scope="catalogue loading",
        expect=Expect.HOLDS,
        status=Status.ERROR,
        certificate=Certificate(method="import", reason=err.message, data={"location": err.location}),
        time_s=0.0,
    )


def _with_output(result: Result, finished: Any) -> Result:
    """The result with the worker's captured stdout/stderr in its certificate."""
    if not finished.output:
        return result
    c = result.certificate
    data = {**dict(c.data), "output": finished.output + ("\n… (truncated)" if finished.output_truncated else "")}
    return dataclasses.replace(result, certificate=dataclasses.replace(c, data=data))


def _forged(ob: Obligation, finished: Any, seed: int, config: RunConfig, why: str) -> Result:
    return _failure(ob, Status.ERROR, "worker answer rejected",
                    f"{ob.location}: the worker's answer for {ob.id} is not the checker's ({why}); "
                    "an obligation must return its verdict, never write on the worker's answer pipe",
                    finished.time_s, seed, config)


def revalidated(ob: Obligation, r: Result) -> Result:
    """``r`` after the same validation the worker ran (:func:`validated`), run again here on the
    data received: a result frame is data, not a verdict, whatever the worker's process did."""
    verdict = Verdict(r.status, r.certificate)
    checked = validated(ob, verdict, received=True)
    if checked is verdict:
        return r
    return replace(r, status=checked.status, certificate=checked.certificate)


def result_of_job(ob: Obligation, finished: Any, seed: int, config: RunConfig, nonce: str | None = None) -> Result:
    """The Result of one finished worker: its answer if it sent a valid one, else why not.

    The answer must be exactly one ``result`` (or ``load-error``) frame carrying the job's
    ``nonce``, for this obligation's id; it is then re-validated here (:func:`revalidated`)."""
    frames = [f for f in finished.frames if isinstance(f, list) and f]
    answers = [f for f in frames if f[0] in ("result", "load-error")]
    answer = answers[-1] if answers else None
    if finished.killed == "timeout":
        r = _failure(ob, Status.TIMEOUT, "wall-clock limit",
                     f"{ob.id} exceeded the {config.timeout_s:g} s wall-clock limit; its process group was killed",
                     finished.time_s, seed, config, limit_s=config.timeout_s)
    elif finished.killed == "memory":
        r = _failure(ob, Status.ERROR, "memory limit",
                     f"{ob.location}: memory limit of {config.memory_mib} MiB exceeded by the obligation's process group "
                     f"(resident memory {finished.peak_rss_mib:g} MiB); its process group was killed",
                     finished.time_s, seed, config, limit_mib=config.memory_mib)
    elif len(answers) > 1 or len(frames) != len(finished.frames) or (answer is not None and len(frames) > 1):
        r = _forged(ob, finished, seed, config, f"{len(finished.frames)} frames where one answer is sent")
    elif answer is not None and nonce is not None and (len(answer) not in (3, 4) or answer[2] != nonce):
        r = _forged(ob, finished, seed, config, "the frame does not carry the job's nonce")
    elif answer is not None and answer[0] == "result":
        try:
            r = Result.from_json(answer[1])
            if r.id != ob.id:
                raise ValueError(f"the worker answered for {r.id!r}")
            r = revalidated(ob, r)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            r = _failure(ob, Status.ERROR, "worker", f"{ob.location}: the worker's answer is malformed ({exc!r:.200})",
                         finished.time_s, seed, config)
    elif answer is not None and answer[0] == "load-error":
        r = _failure(ob, Status.ERROR, "import", f"{ob.location}: {answer[1]}", finished.time_s, seed, config)
    else:
        r = _failure(ob, Status.ERROR, "worker crash",
                     f"{ob.location}: the worker process died ({finished.how}) while discharging {ob.id}",
                     finished.time_s, seed, config, exitcode=finished.exitcode, signal=finished.signal)
    return _with_output(r, finished)


def reads_of(finished: Any, nonce: str | None) -> Any:
    """The record of what the job read (:mod:`checker.run.reads`), from its one accepted answer."""
    frames = [f for f in finished.frames if isinstance(f, list) and f]
    if finished.killed or len(frames) != 1 or frames[0][0] != "result" or len(frames[0]) != 4 or frames[0][2] != nonce:
        return None
    return frames[0][3]


def with_fingerprint(r: Result, ob: Obligation, code: Any) -> Result:
    """``r`` with the obligation's current metadata (a cached result keeps its status and
    certificate; ``expect``, ``statement``, ``source``, ``scope``, ``lean`` and ``uses`` are not
    part of the fingerprint, so the outcome is recomputed from them) and its fingerprint."""
    from checker.store import fingerprint as fp
    from checker.kernel.printing import PrintedClaim

    forms = None if r.claims is None else [PrintedClaim.from_json(c).canonical for c in r.claims]
    stamp = None
    if code is not None:
        stamp = {"digest": fp.obligation_digest(code.digest, forms or []) if forms is not None else None,
                 "code": code.digest, "granularity": code.granularity}
    return replace(r, source=ob.source, statement=ob.statement, scope=ob.scope, expect=ob.expect, lean=ob.lean,
                   uses=ob.uses, hypotheses=ob.hypotheses, fingerprint=stamp, general=declares_every_size(ob))


def _manifest_for(ob: Obligation, record: Any, package: str, code: Any) -> dict[str, Any] | None:
    """The manifest to store with ``ob``'s result (:func:`checker.store.manifest.finalize`), or
    ``None`` — with a warning naming what changed — when what the job read is not what is on disk."""
    import warnings

    from checker.store import manifest
    from checker.store.cache import CacheWarning, static_key

    try:
        stored = manifest.finalize(record)
        if stored.get("coarse"):
            # it started another process, which may have read anything: key on the whole closure too
            stored["static"] = static_key(ob, package, code.digest if code is not None else None)
            stored["package"] = package
    except manifest.Unstable as why:
        warnings.warn(f"{ob.id}: result not cached: {why}", CacheWarning, stacklevel=2)
        return None
    except Exception as exc:  # noqa: BLE001 - the cache is only a speed-up
        warnings.warn(f"{ob.id}: result not cached ({type(exc).__name__}: {exc})", CacheWarning, stacklevel=2)
        return None
    return stored


def _payload(ob: Obligation, config: RunConfig, shared: str | None = None, nonce: str | None = None) -> tuple:
    """What a worker needs to discharge ``ob`` (see :func:`obligation_job`); ``shared`` is the
    run's store of facts its jobs share (:mod:`checker.backends.memo`), ``nonce`` the token its
    answer must carry."""
    return (ob.id, ob.module, derive_seed(config.seed, ob.id), config.timeout_s, config.memory_mib, config.slow,
            config.audit, shared, nonce)


def run(
    obligations: Sequence[Obligation],
    config: RunConfig = RunConfig(),
    load_errors: Sequence[LoadError] = (),
    progress: Progress | None = None,
    cache: Cache | None = None,
    package: str = "obligations",
    expected_times: Mapping[str, float] | None = None,
) -> list[Result]:
    """Discharge ``obligations`` in worker processes; return results in the given order,
    preceded by one ``error`` result per module that failed to load. With a ``cache``,
    results whose every dependency is unchanged are reused and no worker is started for them."""
    from checker.store import fingerprint as fp
    from checker.backends import memo
    from checker.run import workers

    results: dict[str, Result] = {}
    total = len(obligations) + len(load_errors)
    done = 0
    keys: dict[str, str] = {}
    codes: dict[str, fp.Fingerprint] = {}
    by_id = {ob.id: ob for ob in obligations}
    store = cache.directory if cache is not None else None
    roots = {package, "obligations"}

    def stamped(r: Result) -> Result:
        ob = by_id.get(r.id)
        return r if ob is None else with_fingerprint(r, ob, codes.get(ob.id))

    def finish(r: Result, cached: bool = False, record: Any = None) -> None:
        nonlocal done
        r = stamped(r)
        results[r.id] = r
        done += 1
        if cache is not None and not cached and r.id in keys and record is not None:
            stored = _manifest_for(by_id[r.id], record, package, codes.get(r.id))
            if stored is not None:
                cache.put(keys[r.id], r, stored)
        if progress is not None:
            progress(r, done, total, cached)

    load_results = [load_error_result(err) for err in load_errors]
    for r in load_results:
        done += 1
        if progress is not None:
            progress(r, done, total, False)

    # Obligations are looked up (fingerprint, cache entry) one at a time in hand-out order, just
    # before they are needed, and in the time the workers are busy: a cold run's first
    # obligations start at once instead of after every fingerprint of the catalogue.
    unresolved = schedule.longest_first(obligations, cache, expected_times)  # pop(): longest expected first
    ready: collections.deque[Obligation] = collections.deque()  # looked up, not cached: to hand out

    def resolve() -> None:
        ob = unresolved.pop()
        try:
            codes[ob.id] = fp.code_fingerprint(ob, roots, store=store)
        except Exception:  # noqa: BLE001 - no fingerprint means no cache entry: the obligation simply runs
            pass
        if cache is not None and ob.id in codes:
            keys[ob.id] = cache_key(ob, seed=derive_seed(config.seed, ob.id), timeout_s=config.timeout_s,
                                    memory_mib=config.memory_mib, slow=config.slow, package=package,
                                    audit=config.audit, fingerprint=codes[ob.id].own)
            hit = cache.get(keys[ob.id], ob.id, ob)
            if hit is not None:
                finish(hit, cached=True)
                return
        ready.append(ob)

    n_workers = max(1, min(config.workers, len(obligations)))
    running: dict[int, tuple[Obligation, float, str]] = {}  # job -> (obligation, start, nonce)
    # The obligations that were running when a template died: each is re-run alone, so the one
    # that ends the template is named and the others get their own results.
    suspects: collections.deque[Obligation] = collections.deque()
    alone: list[str | None] = [None]  # the suspect now running alone

    def submit(tpl: Any, ob: Obligation) -> None:
        nonce = secrets.token_hex(16)
        job = tpl.submit(OBLIGATION_JOB, _payload(ob, config, shared, nonce), timeout_s=config.timeout_s,
                         memory_mib=config.memory_mib)
        running[job] = (ob, time.monotonic(), nonce)

    def hand_out(tpl: Any) -> bool:
        """Give the next obligation to run to the template; False when none is left (or a
        suspect runs, or waits to run, alone)."""
        if alone[0] is not None:
            return False
        if suspects:
            if running:
                return False
            submit(tpl, suspects[0])
            alone[0] = suspects.popleft().id
            return True
        while not ready and unresolved:
            resolve()
        if not ready:
            return False
        submit(tpl, ready[0])
        ready.popleft()
        return True

    def lost(exc: BaseException) -> None:
        """The template died: a suspect that ran alone is named; the others are re-run alone."""
        workers.discard_template()
        for ob, started, _ in running.values():
            if alone[0] == ob.id:
                finish(_failure(ob, Status.ERROR, "worker template killed",
                                f"{ob.location}: {exc} while {ob.id} ran alone; it had died while {ob.id} ran beside other "
                                "obligations too, which were re-run: the obligation ends its worker's template process "
                                "(e.g. it signals its parent process)",
                                time.monotonic() - started, derive_seed(config.seed, ob.id), config))
            else:
                suspects.append(ob)
        running.clear()
        alone[0] = None

    grace_s = 30.0  # the template enforces the limit; this only guards against a stuck template
    completed = False
    shared_store = memo.run_store()  # facts the jobs of this run share (checker.backends.memo); removed at the end
    shared = shared_store.__enter__()
    preloaded_in = None  # the template the obligations' modules were sent to
    try:
        while unresolved or ready or running or suspects:
            if not running and not ready and not suspects:
                resolve()  # nothing runs yet: a fully cached run starts no worker
                continue
            tpl = workers.template()
            try:
                if tpl is not preloaded_in:
                    tpl.preload({ob.module for ob in (*unresolved, *ready, *suspects)})
                    preloaded_in = tpl
                while len(running) < n_workers and hand_out(tpl):
                    pass
            except workers.TemplateDied as exc:
                lost(exc)
                continue
            if unresolved and running:
                resolve()  # while the workers are busy
            try:
                events = tpl.events(0.0 if unresolved else 1.0)
            except workers.TemplateDied as exc:
                lost(exc)
                continue
            for e in events:
                if e[0] == "started" and e[1] in running:
                    # the wall clock of a job runs from its fork, not from its hand-out: at a large
                    # --jobs the template may start it long after it was sent
                    ob, _, nonce = running[e[1]]
                    running[e[1]] = (ob, time.monotonic(), nonce)
            ended = [(running.pop(e[1].job_id), e[1]) for e in events if e[0] == "done" and e[1].job_id in running]
            if any(alone[0] == ob.id for (ob, _, _), _ in ended):
                alone[0] = None
            # Hand out the next obligations before reading these results: the workers need not wait for it.
            try:
                while ended and len(running) < n_workers and hand_out(tpl):
                    pass
            except workers.TemplateDied as exc:
                lost(exc)
            for (ob, _, nonce), finished in ended:
                finish(result_of_job(ob, finished, derive_seed(config.seed, ob.id), config, nonce),
                       record=reads_of(finished, nonce))
            now = time.monotonic()
            stuck = [j for j, (_, started, _) in running.items() if now - started > config.timeout_s + grace_s]
            if stuck:
                workers.discard_template()
                for job, (ob, started, _) in list(running.items()):
                    finish(_failure(ob, Status.TIMEOUT, "wall-clock limit",
                                    f"{ob.id} exceeded the {config.timeout_s:g} s wall-clock limit; the workers were killed",
                                    now - started, derive_seed(config.seed, ob.id), config, limit_s=config.timeout_s))
                running.clear()
                alone[0] = None
        completed = True
    finally:
        if not completed:  # interrupted: take every running obligation's process group down
            workers.discard_template()
        shared_store.__exit__(None, None, None)
    ordered = load_results + [results[ob.id] for ob in obligations]
    return ordered
