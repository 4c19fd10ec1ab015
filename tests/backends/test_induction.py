"""Size-parametric claims and the induction rule: aggregates against numpy and Fractions at concrete
sizes; the rule with steps it accepts and steps it rejects; the library; and the runner's treatment
of a theorem declared for every size (a proof of some sizes is ``partial``, the next sizes are
searched, a claim true up to size 4 and false at 5 is refuted at 5)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

from checker import Expect, Source, Status, obligation
from checker.audit.recheck import Recheck, recheck_witness
from checker.backends import exact, induction, library, sampling, smt
from checker.backends.induction import Use
from checker.claims import sized_claim
from checker.kernel import proof as kernel
from checker.kernel.errors import ClaimMisuse
from checker.kernel.model import Context, Grade, Outcome
from checker.run.runner import execute

_ids = itertools.count()

TERMS = {
    "sum": lambda o, v: o.sum(v.x),
    "prod": lambda o, v: o.prod(v.x),
    "maxv": lambda o, v: o.maxv(v.x),
    "minv": lambda o, v: o.minv(v.x),
    "dot": lambda o, v: o.dot(v.x, v.y),
    "sumsq": lambda o, v: o.sumsq(v.x),
    "norm1": lambda o, v: o.norm1(v.x - v.y),
    "norminf": lambda o, v: o.norminf(v.x - v.y),
    "relu-sum": lambda o, v: o.sum(o.relu(v.x)),
    "frobenius": lambda o, v: o.sumsq(v.W),
    "matvec": lambda o, v: o.sumsq(v.W @ v.y),
    "masked": lambda o, v: o.sum((v.W * v.W) @ v.x),
    "n": lambda o, v: v.n * o.maxv(v.x),
}
EVERYTHING = sized_claim("terms", "n:nat[1,] m:nat[1,]", "x[n] y[n] W[m,n]", lambda o, v: o.ge(o.sumsq(v.x), 0),
                         terms=TERMS)


def _reference(x, y, W):
    """The same quantities computed directly (Fractions in, Python arithmetic)."""
    return {
        "sum": sum(x), "prod": np.prod(np.array(x, dtype=object)), "maxv": max(x), "minv": min(x),
        "dot": sum(a * b for a, b in zip(x, y)), "sumsq": sum(a * a for a in x),
        "norm1": sum(abs(a - b) for a, b in zip(x, y)), "norminf": max(abs(a - b) for a, b in zip(x, y)),
        "relu-sum": sum(max(a, 0) for a in x), "frobenius": sum(w * w for row in W for w in row),
        "matvec": sum(sum(w * b for w, b in zip(row, y)) ** 2 for row in W),
        "masked": sum(sum(w * w * a for w, a in zip(row, x)) for row in W), "n": len(x) * max(x),
    }


@pytest.mark.parametrize("n,m", [(1, 1), (2, 3), (4, 2), (5, 5)])
def test_aggregates_agree_with_fractions_and_numpy(n, m):
    """At concrete sizes every aggregate, read by the exact backend (Fractions) and by numpy (the
    sampling backend's ops), is the quantity computed directly."""
    rng = random.Random(n * 10 + m)
    x = [Fraction(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(n)]
    y = [Fraction(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(n)]
    W = [[Fraction(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(n)] for _ in range(m)]
    c = EVERYTHING.at(n=n, m=m)
    point = {**{f"x_{i}": x[i] for i in range(n)}, **{f"y_{i}": y[i] for i in range(n)},
             **{f"W_{i}_{j}": W[i][j] for i in range(m) for j in range(n)}}
    want = _reference(x, y, W)
    got = c.term_values(exact.ExactOps(), c.env(point))
    assert {k: Fraction(v) for k, v in got.items()} == {k: Fraction(v) for k, v in want.items()}
    arrays = {k: np.array([float(v)]) for k, v in point.items()}
    numeric = c.term_values(sampling.NumpyOps(), c.env(arrays))
    for k, v in want.items():
        assert float(np.asarray(numeric[k]).ravel()[0]) == pytest.approx(float(v), rel=1e-12, abs=1e-12), k


def test_shapes_and_sizes_are_checked():
    with pytest.raises(ValueError, match="size n = 0"):
        EVERYTHING.at(n=0, m=1)
    with pytest.raises(ValueError, match="missing"):
        EVERYTHING.at(n=2)
    bad = sized_claim("bad", "n:nat[1,] m:nat[1,]", "x[n] y[m]", lambda o, v: o.ge(o.sum(v.x + v.y), 0))
    with pytest.raises(ClaimMisuse, match="different shapes"):
        smt.prove(bad.at(n=2, m=3))
    with pytest.raises(ValueError, match="shapes no array"):
        sized_claim("unused", "n:nat[1,] k:nat[1,]", "x[n]", lambda o, v: o.ge(o.sumsq(v.x), 0))
    with pytest.raises(ClaimMisuse, match="float"):
        sized_claim("float", "n:nat[1,]", "x[n]", lambda o, v: o.ge(o.sumsq(v.x), 0.1))


# ------------------------------------------------------------------ the rule

CS = sized_claim("cs", "n:nat[0,]", "x[n] y[n]",
                 lambda o, v: o.le(o.dot(v.x, v.y) * o.dot(v.x, v.y), o.sumsq(v.x) * o.sumsq(v.y)))


def _cs_invariant(o, v):
    return o.and_(CS.conclusion(o, v), o.ge(o.sumsq(v.x), 0), o.ge(o.sumsq(v.y), 0))


def test_induction_proves_cauchy_schwarz_for_every_n_with_the_invariant():
    v = induction.prove(CS, "n", invariant=_cs_invariant)
    assert v.status is Status.PROVED and v.fact.grade is Grade.UNIVERSAL
    assert kernel.covers(v.fact, [CS])[0]
    assert any(e.kind == "induction" for e in v.fact.ledger)


def test_a_false_step_fails_and_is_never_a_refutation():
    """Without a, b ≥ 0 the Cauchy–Schwarz step is false over the reals: unknown, naming the step."""
    v = induction.prove(CS, "n")
    assert v.status is Status.UNKNOWN and "step" in v.certificate.reason
    assert v.fact is None


def test_a_claim_true_up_to_4_and_false_at_5_is_not_proved_by_induction():
    upto4 = sized_claim("sum<=4max", "n:nat[1,]", "x[n]", lambda o, v: o.le(o.sum(v.x), 4 * o.maxv(v.x)),
                        {"x >= 0": lambda o, v: o.all(o.ge(v.x, 0))})
    assert induction.prove(upto4).status is Status.UNKNOWN
    bounded = induction.at_sizes(upto4, [{"n": k} for k in range(1, 5)])
    assert bounded.status is Status.PROVED and bounded.fact.grade is Grade.BOUNDED and bounded.fact.over == "n = 1…4"
    found, where = induction.search_sizes(upto4, skip=[{"n": k} for k in range(1, 5)])
    assert where == "n = 5" and found is not None and found.status is Status.REFUTED and found.certificate.witness["n"] == "5"
    assert recheck_witness([upto4], found.certificate.witness).verdict is Recheck.REFUTES


def test_lemmas_must_be_universal_facts_about_their_claim():
    masked = library.claim_of("masked_opnorm")
    binds = {"x": lambda s: s.new("W") * s.new("M"), "y": lambda s: s.x}
    unproved = induction.prove(masked, "n", uses=[Use(library.claim_of("cauchy_schwarz"), None, binds)])
    assert unproved.status is Status.UNKNOWN and "without a kernel fact" in unproved.certificate.reason
    wrong = induction.prove(masked, "n", uses=[Use(library.claim_of("cauchy_schwarz"), library.fact("sumsq_nonneg"), binds)])
    assert wrong.status is Status.UNKNOWN and "not the declared theorem" in wrong.certificate.reason


def test_the_mask_hypothesis_is_needed():
    """‖(W∘M)x‖² ≤ ‖W‖_F²‖x‖² without the 0/1 mask is false (M = 2): the proof must fail."""
    nomask = sized_claim("nomask", "n:nat[1,] m:nat[1,]", "W[n,m] M[n,m] x[m]",
                         lambda o, v: o.le(o.sumsq((v.W * v.M) @ v.x), o.sumsq(v.W) * o.sumsq(v.x)))
    v = induction.prove(nomask, "n", uses=[
        library.use("cauchy_schwarz", x=lambda s: s.new("W") * s.new("M"), y=lambda s: s.x),
        library.use("sumsq_nonneg", x=lambda s: s.x)])
    assert v.status is Status.UNKNOWN
    assert induction.search_sizes(nomask, upto=1)[0].status is Status.REFUTED


def test_column_induction_is_refused_with_the_reason():
    v = induction.prove(library.claim_of("matvec_frobenius"), "m")
    assert v.status is Status.UNKNOWN and "outer index" in v.certificate.reason


def test_a_lemma_for_larger_sizes_is_not_applied_below_them():
    """max over n ≥ 1 is not instantiated at a size that may be 0."""
    ge0 = sized_claim("ge0", "n:nat[0,] m:nat[0,]", "x[n] y[m]", lambda o, v: o.ge(o.sumsq(v.x) + o.sumsq(v.y), 0))
    v = induction.prove(ge0, "n", uses=[library.use("max_lipschitz", x=lambda s: s.y, y=lambda s: s.y)])
    assert v.status is Status.UNKNOWN and "holds for n ≥ 1" in v.certificate.reason


@pytest.mark.parametrize("name", library.names())
def test_every_library_lemma_is_proved_for_every_size(name):
    v = library.fact(name)
    assert v.status is Status.PROVED, v.certificate.reason
    assert v.fact.grade is Grade.UNIVERSAL and kernel.covers(v.fact, [library.claim_of(name)])[0]


# ------------------------------------------------------------------ in the runner

UPTO4 = sized_claim("sum<=4max", "n:nat[1,]", "x[n]", lambda o, v: o.le(o.sum(v.x), 4 * o.maxv(v.x)),
                    {"x >= 0": lambda o, v: o.all(o.ge(v.x, 0))})
TRUE_EVERYWHERE = sized_claim("sum<=n*max", "n:nat[1,]", "x[n]", lambda o, v: o.le(o.sum(v.x), v.n * o.maxv(v.x)))


def _run(discharge, theorem, expect=Expect.HOLDS):
    ob_id = f"inductiontest.case{next(_ids)}"
    fn = obligation(id=ob_id, source=Source("k.txt", "L"), statement="For every n, S.", scope="s", expect=expect,
                    theorem=theorem)(discharge)
    result, _ = execute(fn.obligation, Context(ob_id, 7, 60, False))
    return result


def test_a_bounded_proof_of_a_false_sized_theorem_is_refuted_at_the_next_size():
    r = _run(lambda ctx: induction.at_sizes(UPTO4, [{"n": k} for k in range(1, 5)], ctx), UPTO4)
    assert r.status is Status.REFUTED and r.certificate.witness["n"] == "5"
    assert r.outcome is Outcome.CONTRADICTED
    assert r.certificate.data["proved_for"] == "n = 1…4"


def test_a_bounded_proof_of_a_true_sized_theorem_is_partial_not_confirmed():
    r = _run(lambda ctx: induction.at_sizes(TRUE_EVERYWHERE, [{"n": k} for k in range(1, 4)], ctx), TRUE_EVERYWHERE)
    assert r.status is Status.PROVED and r.grade is Grade.BOUNDED
    assert r.is_partial and r.outcome is Outcome.PARTIAL and r.general
    assert "no counterexample" in r.certificate.data["next_sizes"]
    full = _run(lambda ctx: induction.prove(TRUE_EVERYWHERE, "n", ctx), TRUE_EVERYWHERE)
    assert full.status is Status.PROVED and full.grade is Grade.UNIVERSAL and full.outcome is Outcome.CONFIRMED


def test_a_proof_of_the_sized_theorem_at_one_size_does_not_cover_it():
    """A z3 proof of the claim at n = 3 is a fact about that instance, not about every n."""
    r = _run(lambda ctx: smt.prove(TRUE_EVERYWHERE.at(n=3), ctx), TRUE_EVERYWHERE)
    assert r.status is Status.UNKNOWN and "not a proof of the declared theorem" in r.certificate.reason
