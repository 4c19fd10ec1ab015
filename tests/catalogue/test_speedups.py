"""Obligations whose internals were made faster keep their statuses, grades and the substance
of their certificates (each check still answers "0"/true, one step per case as before)."""

from __future__ import annotations

import pytest

from checker.kernel.model import Grade, Outcome, Status
from tests.helpers import run_obligation

# status, grade, what a bounded grade ranges over, and the number of symbolic steps the
# certificate must keep (None: not counted); the grades are the catalogue's as graded on main
EXPECTED = {
    # the soft count as a sympy Sum over a symbolic number N of weights (limits of the generic summand)
    "psy01a.soft_relaxation": (Status.PROVED, Grade.UNIVERSAL, "", 13),
    # closed gradients decided as identities of rational functions (sympy sfield)
    "lean_mlp.loss_grad_through_relu": (Status.PROVED, Grade.BOUNDED, "d₂×d₃ = 1×2, 2×2, 2×3, 3×2, every label", 92),
    "lean_mlp.mlp_hidden_loss_grad_at_relu_mask": (Status.PROVED, Grade.BOUNDED,
                                                   "d = (2,2,2,2), (1,2,3,2), (2,3,2,3), label 0", 896),
    # one step per W₁ entry, sign pattern of (z₀, z₁) and label: d = (2,2,2,2) 4·16·2, (1,2,3,2) 6·32·2, (2,3,2,3) 6·32·2
    "lean_mlp.mlp_hidden_loss_grad_at": (Status.PROVED, Grade.BOUNDED, "d = (2,2,2,2), (1,2,3,2), (2,3,2,3), labels 0, 1",
                                         128 + 384 + 384),
    # interval arithmetic on raw endpoints
    "psy01a.cue_lipschitz_certificate": (Status.PROVED, Grade.UNIVERSAL, "", None),
    "psy01a.parameter_stability": (Status.PROVED, Grade.UNIVERSAL, "", None),
    "lean_mlp.joint_step_descends": (Status.SUPPORTED, None, "", None),
}


@pytest.mark.parametrize("ob_id", sorted(EXPECTED))
def test_status_and_grade_unchanged(ob_id):
    """Same status and grade as before the speed-up; every symbolic step still reduced."""
    status, grade, over, symbolic_steps = EXPECTED[ob_id]
    r = run_obligation(ob_id)
    assert r.status is status, r.certificate.reason
    assert r.grade is grade
    assert r.grade_over == over
    assert r.outcome in (Outcome.CONFIRMED, Outcome.PARTIAL, Outcome.EVIDENCE)
    if symbolic_steps is not None:
        steps = [s for s in r.certificate.steps if s.backend == "symbolic"]
        assert len(steps) == symbolic_steps
        assert all(s.answer in ("0", "True", "1") for s in steps), [s.answer for s in steps if s.answer not in ("0", "True", "1")]
