"""Which of a proved theorem's hypotheses the proof needs: notes for the trust ledger.

For every hypothesis ``h`` of a declared theorem ``T`` (a claim over fixed variables), z3 is asked
about ``T`` without ``h``, under a deterministic resource limit (:data:`RLIMIT`: the note is the same
on every machine and under any load):

- ``unsat``: ``T`` holds without ``h``: the proof does not need it. The ledger flags it (kind
  ``unused``): a hypothesis the statement carries but no proof needs is either a weaker statement
  than the authors could claim or a sign that the encoding lost what the hypothesis was for.
- ``sat``, and the model re-evaluated exactly on ``T`` has every other hypothesis true, ``h`` false
  and the conclusion false: ``h`` is needed, and the ledger says so with the point (kind ``needed``).
- anything else: no note (undecided within the limit).

A note never changes a status: it is read off the declared theorem, not the proof. Theorems for
every size are left out (z3 does not read their aggregates), as are theorems with more than
:data:`MAX_HYPOTHESES` hypotheses.
"""

from __future__ import annotations

from typing import Any, Sequence

from checker.kernel.model import Context

RLIMIT = 300_000
"""z3's resource units per question (deterministic). Measured on the catalogue: every question it
settles does so within it (the same notes as at 2,000,000, in 3.5 s for the whole catalogue against 6 s)."""
MAX_HYPOTHESES = 8


def notes(theorem: Sequence[Any], ctx: Context | None, *, at_points: bool = False) -> list[dict[str, Any]]:
    """Ledger entries on the hypotheses of each claim of ``theorem`` (see the module docstring); with
    ``at_points`` (the proof covers points only), also each claim z3 shows false as printed."""
    from checker.backends import CannotDecide, exact, smt
    from checker.kernel.claims import Claim
    from checker.kernel.witness import fmt_map

    out: list[dict[str, Any]] = []
    for c in theorem if at_points else ():
        if not isinstance(c, Claim) or not c.variables:
            continue
        try:
            answer, point = smt.answer_only(c, ctx, rlimit=RLIMIT)
            bad = answer == "sat" and point is not None and exact.evaluate(c, point).is_counterexample
        except Exception:  # noqa: BLE001 - a note that cannot be made is no note
            continue
        if bad:
            shown = ", ".join(f"{k} = {v}" for k, v in fmt_map(point).items())
            out.append({"kind": "false_as_printed",
                        "text": f"{c.name} as printed (for all {', '.join(c.variables)}) is false at {shown}: it is proved "
                                "only at its points — declare it at them (a closed claim), or as an existence (some_instance)",
                        "detail": {"claim": c.name, "witness": fmt_map(point)}})
    for c in theorem:
        if hasattr(c, "size_names") or not getattr(c, "hypotheses", ()) or len(c.hypotheses) > MAX_HYPOTHESES:
            continue
        for h in c.hypotheses:
            try:
                answer, point = smt.answer_only(c.without(h.name), ctx, rlimit=RLIMIT)
            except Exception:  # noqa: BLE001 - a note that cannot be made is no note
                continue
            if answer == "unsat":
                out.append({"kind": "unused", "text": f"hypothesis '{h.name}' of {c.name} is not used: z3 proves the "
                                                      "conclusion without it",
                            "detail": {"claim": c.name, "hypothesis": h.name, "rlimit": RLIMIT}})
            elif answer == "sat" and point is not None:
                try:
                    ev = exact.evaluate(c, point)
                except (CannotDecide, ArithmeticError, ValueError, TypeError, KeyError):
                    continue
                others = all(v for name, v in ev.hypotheses.items() if name != h.name)
                if ev.in_domain and others and ev.hypotheses.get(h.name) is False and not ev.conclusion:
                    shown = fmt_map(ev.point)
                    out.append({"kind": "needed",
                                "text": f"hypothesis '{h.name}' of {c.name} is needed: without it the conclusion fails at "
                                        + ", ".join(f"{k} = {v}" for k, v in shown.items()),
                                "detail": {"claim": c.name, "hypothesis": h.name, "witness": shown}})
    return out
