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
from checker.kernel.verdicts import unknown, with_data

#: A cross-check that came out like this leaves the proof standing.
_PASSING = (Status.PROVED, Status.SUPPORTED)


def cross_checked(proof: Verdict, checks: Mapping[str, Verdict]) -> Verdict:
    """``proof`` with ``checks`` recorded as data, its status and grade unchanged — unless a check
    disagrees with it. A refuted check is a counterexample, re-checked exactly, to the very
    statement the proof is about: the result is that refutation (and the proof a bug to find).
    A check that is undecided or broken while the proof stands is reported ``unknown`` naming it,
    since a sound proof and its own encoding's evaluation should not disagree."""
    recorded = {name: {"status": v.status.value, **v.certificate.to_json()} for name, v in checks.items()}
    for name, v in checks.items():
        if v.status is Status.REFUTED:
            return with_data(v, cross_checks=recorded, refuted_cross_check=name)
    if proof.status is not Status.PROVED:
        return with_data(proof, cross_checks=recorded)
    failing = [n for n, v in checks.items() if v.status not in _PASSING]
    if failing:
        reasons = "; ".join(f"{n}: {checks[n].status.value} ({checks[n].certificate.reason})" for n in failing)
        return unknown(proof.certificate.method, f"the proof holds but a cross-check did not pass: {reasons}",
                       *proof.certificate.steps, cross_checks=recorded)
    return with_data(proof, cross_checks=recorded)
