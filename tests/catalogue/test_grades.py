"""Proof grades of the catalogue: what each proved result says it covers is what its method covers.

A universal statement checked at sampled points is not proved; a proof repeated per size is at
best bounded over those sizes; every grade occurs; every proved result carries one."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Iterator, Mapping

import pytest

from checker.backends import interval, sampling, smt
from checker.claims import claim
from checker.kernel.model import Context, Grade, Result, Status
from checker.run.discovery import discover
from checker.kernel.verdicts import all_of
from tests.helpers import run_obligation

# ---------------------------------------------------------------------------------------
# A false universal claim that sampling cannot reach
# ---------------------------------------------------------------------------------------

#: The claim fails only for |x − 1/3| < 10⁻²⁰: no binary64 number lies that close to 1/3.
NEEDLE = Fraction(1, 3)
NEEDLE_CLAIM = claim(
    "false-only-on-a-needle", "x",
    lambda o, v: o.ge((v.x - o.q(1, 3)) * (v.x - o.q(1, 3)), o.q(1, 10**40)),
    hypotheses={"0 ≤ x ≤ 1": lambda o, v: o.and_(o.ge(v.x, 0), o.le(v.x, 1))},
)


def _ctx() -> Context:
    return Context("test.needle", 20_260_101, 60.0)


def test_a_false_universal_claim_missed_by_sampling_is_not_proved():
    """Sampling (20 000 points and a local search) sees the needle claim hold everywhere it
    looks: that is support with its point count, never a proof. Rigorous interval checks at
    the same kind of points, conjoined, prove it only *at those points* (grade instances,
    naming the count), never universally or over sizes. z3, which covers the whole domain,
    refutes it with an exact witness."""
    import numpy as np

    searched = sampling.search(NEEDLE_CLAIM, _ctx(), lambda rng, n: {"x": rng.uniform(0, 1, n)})
    assert searched.status is Status.SUPPORTED
    assert searched.certificate.grade is None
    assert searched.certificate.data["evaluated"] >= 20_000

    rng = np.random.default_rng(7)
    points = [Fraction(float(x)) for x in rng.uniform(0, 1, 50)]
    at_points = all_of("rigorous intervals at sampled points",
                       {f"x = {float(p):.6f}": interval.prove_on(NEEDLE_CLAIM, {"x": p}) for p in points})
    assert at_points.status is Status.PROVED
    assert at_points.certificate.grade is Grade.INSTANCES
    assert at_points.certificate.over == "50 points"

    whole = smt.prove(NEEDLE_CLAIM, _ctx())
    assert whole.status is Status.REFUTED
    x = Fraction(whole.certificate.witness["x"])
    assert abs(x - NEEDLE) < Fraction(1, 10**20)


def test_the_sampled_segment_lipschitz_checks_are_evidence():
    """The segment-Lipschitz tally, rigorous at each sampled segment, reports ``supported``
    (with the instance count) when every instance holds — never ``proved``."""
    from obligations.lean_mlp import lipschitz

    class Ctx:
        seed = 1

        @staticmethod
        def rng(purpose: str) -> Any:
            import numpy as np

            return np.random.default_rng(abs(hash(purpose)) % 2**32)

    verdict = lipschitz.lipschitz_verdict(lipschitz.HIDDEN, Ctx(), 2, 8)
    assert verdict.status in (Status.SUPPORTED, Status.UNKNOWN, Status.REFUTED)
    assert verdict.status is not Status.PROVED
    if verdict.status is Status.SUPPORTED:
        assert verdict.certificate.data["instances"] == verdict.certificate.data["decided_true"] > 0


# ---------------------------------------------------------------------------------------
# Loops over sizes are never universal (checked on the real catalogue results)
# ---------------------------------------------------------------------------------------

#: Obligations whose discharge iterates sizes or shapes, one per kind of loop: z3 per class
#: count, sympy per shape, sympy per row length, z3 per number of layers, exhaustive at one
#: matrix shape.
SIZE_LOOPS = (
    "lean_mlp.col_l1_mass_tiles",
    "lean_mlp.mlp_hidden_differentiable",
    "controller_bound.eq10_norms_nonincreasing",
    "psy01a.nested_pruning_identity",
)

#: Proved results that are universal by their method (one claim, size-free lemmas, or a sized
#: theorem proved by induction: a width-free drift, a shape-free identity, a descent implication
#: for every N, with z3 at small sizes only as a cross-check).
UNIVERSAL = ("lean_mlp.relu_lipschitz", "lean_mlp.sign_stable_of_close", "psy01a.comparison_model.cue_drop",
             "psy01a.comparison_corollary", "rmt_jacobian.condition_ii_prime_typo", "psy01a.fixed_masks_commute",
             "lean_mlp.col_drift_refined", "lean_mlp.total_drift_le", "lean_mlp.dense_weight_diff_eq",
             "lean_mlp.relu_mask_dense_transpose_eq", "lean_mlp.linear_descent_implication",
             "psy01a.masked_opnorm_frobenius", "psy01a.margin_two_lipschitz",
             "controller_bound.theorem2_single_layer", "controller_bound.corollary1_corrected",
             "controller_bound.corrected_decreasing_order",
             # derivative identities through sympy Sums with symbolic sizes; the reluMask bridges by induction
             "lean_mlp.loss_grad_logit_input", "lean_mlp.loss_grad_through_relu_dense_relu",
             "lean_mlp.mlp_input_loss_grad_at_relu_mask",
             # the declared theorem is the two limits along the witness family, which sympy proves
             "controller_bound.unbounded_state_space",
             # closed claims at the shipped example network (no free variable), one enclosure each
             "lean_mlp.mlp_hidden_float_sgd_descends_example")

#: Statements about concrete points (a stated witness).
INSTANCES = ("psy01a.learning_breaks_nesting",)

_SHAPE = re.compile(r"\d+×\d+(?:×\d+)*|d=\([\d, ]+\)|row length \d+|, n = \d+")


def _parts(data: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    for part in (data.get("parts") or {}).values():
        if isinstance(part, Mapping):
            yield part
            yield from _parts(part.get("data") or {})


def size_evidence(result: Result) -> tuple[set[str], dict[str, set[int]]]:
    """What in a proved certificate shows a loop over sizes, read from its data alone: the
    distinct shapes its steps name, and, per claim-name stem (digits dropped), the numbers of
    variables of the claims proved under it."""
    c = result.certificate
    shapes = {m for s in c.steps for m in _SHAPE.findall(s.action)}
    arities: dict[str, set[int]] = {}
    for node in (c.to_json(), *_parts(c.data)):
        data = node.get("data") or {}
        if isinstance(data.get("variables"), list) and isinstance(data.get("claim"), str):
            arities.setdefault(re.sub(r"\d+", "#", data["claim"]), set()).add(len(data["variables"]))
    return shapes, arities


def _loops_over_sizes(result: Result) -> bool:
    shapes, arities = size_evidence(result)
    return len(shapes) > 1 or any(len(a) > 1 for a in arities.values())


@pytest.fixture(scope="module")
def graded(catalogue_run) -> dict[str, Result]:
    return {i: catalogue_run[i] for i in (*SIZE_LOOPS, *UNIVERSAL, *INSTANCES)}


def test_an_obligation_that_iterates_sizes_never_claims_universal(graded):
    """Each listed obligation loops over sizes or shapes; its proof is bounded over the sizes it
    names (or weaker), never universal. The certificate data show the loop, and the same check
    is applied to every result here, so an unlisted size loop that came out universal fails too."""
    for ob_id in SIZE_LOOPS:
        r = graded[ob_id]
        assert r.status is Status.PROVED, (ob_id, r.status, r.certificate.reason)
        assert r.certificate.grade is not Grade.UNIVERSAL, ob_id
        assert r.certificate.over.strip(), ob_id
    for ob_id, r in graded.items():
        if r.status is Status.PROVED and _loops_over_sizes(r):
            assert r.certificate.grade is not Grade.UNIVERSAL, (ob_id, size_evidence(r))


def test_the_size_detector_sees_the_loops(catalogue_run):
    """The detector is not vacuous: a per-shape sympy proof and a per-class z3 proof show a loop."""
    assert _loops_over_sizes(catalogue_run["lean_mlp.col_l1_mass_tiles"])
    from obligations.psy01a import cue

    per_class = all_of("z3 per class count", {c.name: smt.prove(c) for c in cue.LIPSCHITZ[:5]}, family="K = 2, 3")
    assert per_class.status is Status.PROVED
    assert _loops_over_sizes(per_class)  # the detector reads only .certificate
    assert not _loops_over_sizes(catalogue_run["lean_mlp.relu_lipschitz"])


def test_every_grade_occurs_and_cross_checks_do_not_set_it(graded):
    """The catalogue has proofs of each grade; universal proofs with a point cross-check keep the
    proof's grade, the cross-check filed as data."""
    grades = {r.certificate.grade for r in graded.values() if r.status is Status.PROVED}
    assert grades == {Grade.UNIVERSAL, Grade.BOUNDED, Grade.INSTANCES}
    for ob_id in UNIVERSAL:
        assert graded[ob_id].status is Status.PROVED and graded[ob_id].certificate.grade is Grade.UNIVERSAL, ob_id
    for ob_id in INSTANCES:
        assert graded[ob_id].certificate.grade is Grade.INSTANCES, ob_id
    assert "cross_checks" in graded["rmt_jacobian.condition_ii_prime_typo"].certificate.data
    differentiable = graded["lean_mlp.mlp_hidden_differentiable"].certificate
    assert differentiable.grade is Grade.BOUNDED and "label 0" in differentiable.over
    assert differentiable.data["cross_checks"]["one-sided derivatives at seeded points"]["status"] == "supported"


@pytest.mark.slow
def test_every_proved_catalogue_result_has_a_grade_and_no_size_loop_is_universal():
    """The whole catalogue: every proved result carries a grade (bounded and instances name what
    they cover), none that loops over sizes is universal, and each grade occurs."""
    seen = set()
    for ob in discover("obligations").obligations:
        r = run_obligation(ob.id, timeout_s=600.0)
        if r.status is not Status.PROVED:
            assert r.certificate.grade is None, ob.id
            continue
        assert r.certificate.grade is not None, ob.id
        if r.certificate.grade is not Grade.UNIVERSAL:
            assert r.certificate.over.strip(), ob.id
        elif _loops_over_sizes(r):
            pytest.fail(f"{ob.id} loops over sizes {size_evidence(r)} but claims universal")
        seen.add(r.certificate.grade)
    assert seen == set(Grade)
