"""Lemma bindings of the induction rule built with the proof's ops (``StepView.o``): a lemma's
array bound to an expression such as ``s.o.relu(s.x)`` is about the very terms the claim builds,
so a step that needs it closes; without the lemma, or with the lemma bound to other terms, the
same step is not proved (``unknown``, never refuted)."""

from __future__ import annotations

from checker.backends import induction
from checker.claims import sized_claim
from checker.kernel.model import Grade, Status

#: One row: |W·x' − W·x| ≤ w·‖x' − x‖₁ when every |W_j| ≤ w (every length m, by induction on m).
ROW = sized_claim(
    "row-drift", "m:nat[1,]", "W[m] x[m] xp[m]",
    lambda o, v: o.le(o.abs(o.dot(v.W, v.xp) - o.dot(v.W, v.x)), v.w * o.norm1(v.xp - v.x)),
    hypotheses={"bounded": lambda o, v: o.all(o.le(o.abs(v.W), v.w))}, scalars="w")

#: Every row of W applied to relu'd inputs: the rows' induction needs ROW at relu(x), relu(x').
ROWS = sized_claim(
    "rows-drift-after-relu", "n:nat[1,] m:nat[1,]", "W[n,m] x[m] xp[m]",
    lambda o, v: o.all(o.le(o.abs(v.W @ o.relu(v.xp) - v.W @ o.relu(v.x)), v.w * o.norm1(o.relu(v.xp) - o.relu(v.x)))),
    hypotheses={"bounded": lambda o, v: o.all(o.le(o.abs(v.W), v.w))}, scalars="w")


def _rows(x, xp):
    row = induction.prove(ROW, "m")
    assert row.status is Status.PROVED and row.certificate.grade is Grade.UNIVERSAL
    uses = [] if x is None else [induction.Use(ROW, row, {"W": lambda s: s.new("W"), "x": x, "xp": xp, "w": lambda s: s.w})]
    return induction.prove(ROWS, "n", uses=uses)


def test_a_lemma_bound_with_the_proofs_ops_closes_the_step():
    v = _rows(lambda s: s.o.relu(s.x), lambda s: s.o.relu(s.xp))
    assert v.status is Status.PROVED and v.certificate.grade is Grade.UNIVERSAL


def test_without_the_lemma_or_bound_to_other_terms_the_step_is_not_proved():
    assert _rows(None, None).status is Status.UNKNOWN
    wrong = _rows(lambda s: s.x, lambda s: s.xp)  # the lemma about x, x' says nothing of relu(x), relu(x')
    assert wrong.status is Status.UNKNOWN and "step" in wrong.certificate.reason


def test_a_binding_to_a_different_expression_does_not_prove_it():
    """A binding that builds a different expression with ``s.o`` (relu of x' against x itself) gives an
    instance about those terms, which does not prove the claim either."""
    v = _rows(lambda s: s.x, lambda s: s.o.relu(s.xp))
    assert v.status is Status.UNKNOWN
