"""Keeping a proof's grade the proof's own: cross-checks at concrete points go into the data.

Several obligations prove a statement over every value (or every value at some sizes) and, as a
sanity check of the encoding, also evaluate it at a few seeded points or at the shipped example.
Conjoining the two with :func:`checker.kernel.verdicts.all_of` would make the result only as general as
its weakest part ("at 3 points"), which misreports the proof; calling the points part of the
proof would overstate them. :func:`cross_checked` keeps the proof's verdict and grade and files
each cross-check under ``cross_checks`` in the certificate data.
"""

from __future__ import annotations

from typing import Mapping

from checker.kernel.model import Status, Verdict
from checker.kernel.verdicts import with_data

#: A cross-check that came out like this leaves the proof standing.
_PASSING = (Status.PROVED, Status.SUPPORTED)


def cross_checked(proof: Verdict, checks: Mapping[str, Verdict]) -> Verdict:
    """``proof`` with ``checks`` recorded as data, its status and grade unchanged. A check that did not
    pass beside a proof is filed under ``failed_cross_checks`` (status, reason, witness): the runner
    re-checks a refuted check's witness against the declared theorem — a counterexample to it beside a
    kernel proof of it is an ``error`` (the two disagree: a bug to find) — and otherwise keeps the
    proof with a ledger note (the check is about something else than the theorem, and it failed).
    Without a proof, a refuted check is the result (the runner re-checks its witness against the
    theorem, so a witness of a lemma or remark refutes nothing)."""
    recorded = {name: {"status": v.status.value, **v.certificate.to_json()} for name, v in checks.items()}
    if proof.status is Status.PROVED:
        failing = {n: {"status": v.status.value, "reason": v.certificate.reason, "witness": v.certificate.witness,
                       "claim": v.certificate.data.get("claim")}
                   for n, v in checks.items() if v.status not in _PASSING}
        return with_data(proof, cross_checks=recorded, **({"failed_cross_checks": failing} if failing else {}))
    for name, v in checks.items():
        if v.status is Status.REFUTED:
            return with_data(v, cross_checks=recorded, refuted_cross_check=name)
    return with_data(proof, cross_checks=recorded)
