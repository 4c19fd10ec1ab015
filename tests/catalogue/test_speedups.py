"""Obligations whose internals were made faster keep their statuses, grades and the substance
of their certificates (each check still answers "0"/true, one step per case as before)."""

from __future__ import annotations

import pytest

from checker.kernel.model import Grade, Outcome, Status

# status, grade, what a bounded grade ranges over, and the number of symbolic steps the
# certificate must keep (None: not counted); the grades are the catalogue's as graded on main
EXPECTED = {
    # the soft count as a sympy Sum over a symbolic number N of weights (limits of the generic summand)
    "psy01a.soft_relaxation": (Status.PROVED, Grade.UNIVERSAL, "", 13),
    # closed gradients: now proved for every size (sympy through Sums with symbolic bounds: the region
    # steps and the identity), the per-shape identities of rational functions (sympy sfield) kept as
    # cross-checks; the reluMask bridge by induction (no symbolic step)
    "lean_mlp.loss_grad_through_relu": (Status.PROVED, Grade.UNIVERSAL, "", 3),
    "lean_mlp.mlp_hidden_loss_grad_at_relu_mask": (Status.PROVED, Grade.UNIVERSAL, "", None),
    "lean_mlp.mlp_hidden_loss_grad_at": (Status.PROVED, Grade.UNIVERSAL, "", 3),
    # interval arithmetic on raw endpoints
    "psy01a.cue_lipschitz_certificate": (Status.PROVED, Grade.UNIVERSAL, "", None),
    "psy01a.parameter_stability": (Status.PROVED, Grade.UNIVERSAL, "", None),
    "lean_mlp.joint_step_descends": (Status.SUPPORTED, None, "", None),
}


@pytest.mark.parametrize("ob_id", sorted(EXPECTED))
def test_status_and_grade_unchanged(ob_id, catalogue_run):
    """Same status and grade as before the speed-up; every symbolic step still reduced."""
    status, grade, over, symbolic_steps = EXPECTED[ob_id]
    r = catalogue_run[ob_id]
    assert r.status is status, r.certificate.reason
    assert r.grade is grade
    assert r.grade_over == over
    assert r.outcome in (Outcome.CONFIRMED, Outcome.PARTIAL, Outcome.EVIDENCE)
    if symbolic_steps is not None:
        steps = [s for s in r.certificate.steps if s.backend == "symbolic"]
        assert len(steps) == symbolic_steps
        assert all(s.answer in ("0", "True", "1") for s in steps), [s.answer for s in steps if s.answer not in ("0", "True", "1")]
