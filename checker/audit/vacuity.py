"""Vacuity by default: a proof of ``hypotheses ⇒ conclusion`` says nothing when the hypotheses
cannot hold together. Every ``check`` therefore asks, for each proved obligation, whether the
hypotheses of each declared conditional claim are jointly satisfiable.

``satisfiable``: a point where every hypothesis holds, re-checked in exact rationals (the
certificate's own witness, a z3 model, or a sampled point); ``vacuous``: z3 shows the
hypotheses unsat over ℝ (the result's outcome becomes ``vacuous``, a failure);
``undecided``: neither within the small budget; ``not checked``: the obligation declares no
claim (a custom discharge), said in the row; ``not applicable``: no declared claim has
hypotheses. The deeper analyses (necessity of each hypothesis, tightness) stay in the audit.
"""

from __future__ import annotations

from typing import Any, Mapping

from checker.kernel.model import Context, Obligation, Status, Verdict

#: Per-obligation allowance, in seconds, for the default check (the audit has its own).
DEFAULT_BUDGET_S = 6.0


def check(ob: Obligation, ctx: Context, verdict: Verdict, budget_s: float = DEFAULT_BUDGET_S) -> Mapping[str, Any] | None:
    """The vacuity entry of a result (``None`` unless it is proved)."""
    if verdict.status is not Status.PROVED:
        return None
    if not ob.claims:
        return {"verdict": "not checked", "reason": "no declared claim (a custom discharge): vacuity not checked"}
    conditional = list({c.name: c for c in ob.claims if c.hypotheses}.values())  # a claim declared twice, once
    if not conditional:
        return {"verdict": "not applicable", "reason": "no declared claim has hypotheses"}
    from checker.audit import audits as audit

    config = audit.AuditConfig(z3_timeout_ms=1000, z3_rlimit=2_000_000, samples=600, rounds=4)
    budget = audit.Budget(max(0.5, min(budget_s, ctx.timeout_s * 0.1)))
    known = [dict(verdict.certificate.witness)] if verdict.certificate.witness else []
    rows = []
    for c in conditional:
        try:
            with audit._time_limit(budget.remaining):
                row = audit.vacuity_of(c, ctx, config, budget, known)
        except audit.AuditTimeout:
            row = {"claim": c.name, "verdict": "unknown", "reason": "time budget of the default vacuity check exhausted"}
        except Exception as exc:  # noqa: BLE001 - a failed check is an undecided entry, never a crash
            row = {"claim": c.name, "verdict": "unknown", "reason": f"{type(exc).__name__}: {exc}"}
        row.pop("hypotheses", None)
        rows.append(row)
    verdicts = [r["verdict"] for r in rows]
    if "vacuous" in verdicts:
        vacuous = [r["claim"] for r in rows if r["verdict"] == "vacuous"]
        summary = "vacuous"
        reason = f"the hypotheses of {', '.join(vacuous)} cannot hold together (z3: unsat over ℝ)"
    elif "unknown" in verdicts:
        undecided = [r["claim"] for r in rows if r["verdict"] == "unknown"]
        summary = "undecided"
        reason = f"satisfiability of the hypotheses undecided for {', '.join(undecided)}"
    else:
        summary = "satisfiable"
        reason = "every conditional claim's hypotheses hold at an exactly re-checked point"
    return {"verdict": summary, "reason": reason, "claims": rows}
