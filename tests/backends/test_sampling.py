"""The numpy backend: evidence only, candidates re-checked exactly, seeded and reproducible."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from checker.backends import exact, sampling
from checker.claims import claim
from checker.kernel.model import Context, Status
from tests.backends.corpus import BY_NAME, INVALID, RELU_IDENTITY, VALID, ids, mixed

CTX = Context("tests.sampling", seed=5, timeout_s=10.0)
FAST = dict(samples=4000, rounds=10)


def _without_times(verdict) -> dict:
    """A certificate as JSON with the step timings (which vary run to run) removed."""
    data = verdict.certificate.to_json()
    for step in data["steps"]:
        step.pop("time_s")
    return {"status": verdict.status.value, **data}


@pytest.mark.parametrize("entry", VALID, ids=ids(VALID))
def test_true_claims_are_supported_never_refuted(entry):
    """Sampling a true claim gives supported (evidence), never refuted and never proved."""
    v = sampling.search(entry.claim, CTX, entry.sampler, **FAST)
    assert v.status is Status.SUPPORTED
    data = v.certificate.data
    assert data["evaluated"] >= FAST["samples"] and data["seed"] == CTX.seed
    assert data["worst_margin"] >= -1e-9 and set(data["worst_point"]) == set(entry.claim.variables)
    assert "evidence only" in v.certificate.method


@pytest.mark.parametrize("entry", INVALID, ids=ids(INVALID))
def test_false_claims_are_refuted_or_only_supported(entry):
    """Sampling never proves a false claim; where the violation is visible in floats it
    refutes it, and every refutation's witness re-checks exactly."""
    v = sampling.search(entry.claim, CTX, entry.sampler, **FAST)
    assert v.status in (Status.REFUTED, Status.SUPPORTED)
    if entry.sampling_refutes:
        assert v.status is Status.REFUTED
    if v.status is Status.REFUTED:
        point = {k: Fraction(x) for k, x in v.certificate.witness.items()}
        assert exact.evaluate(entry.claim, point).is_counterexample
        assert [s.backend for s in v.certificate.steps] == [sampling.NAME, exact.NAME]


def test_float_rounding_violations_are_not_refutations():
    """relu(x) = (x+|x|)/2 is true; float margins that look violated must fail the exact
    re-check, so the answer stays supported (and says how many did not reproduce)."""
    noisy = claim("noisy-identity", "x y", lambda o, v: o.eq(v.x + v.y - v.y, v.x))
    v = sampling.search(noisy, CTX, mixed("x y", scale=1e6), samples=2000, rounds=3)
    assert v.status is Status.SUPPORTED
    assert v.certificate.data.get("float_violations_not_reproduced_exactly", 0) > 0


def test_same_seed_gives_identical_certificates():
    """Two searches with the same Context give the same certificate (timings aside), for a
    refutation and for a supported result."""
    for entry in (BY_NAME["relu-half-lipschitz"], BY_NAME["am-gm"]):
        a = sampling.search(entry.claim, CTX, entry.sampler, **FAST)
        b = sampling.search(entry.claim, Context("another id", CTX.seed, 1.0), entry.sampler, **FAST)
        assert _without_times(a) == _without_times(b)


def test_different_seeds_give_different_evidence():
    """Another seed samples other points (the worst point seen differs)."""
    entry = BY_NAME["am-gm"]

    def normals(rng, n):
        return {"x": rng.normal(size=n), "y": rng.normal(size=n)}

    a = sampling.search(entry.claim, CTX, normals, **FAST)
    b = sampling.search(entry.claim, Context(CTX.obligation_id, CTX.seed + 1, 1.0), normals, **FAST)
    assert a.certificate.data["worst_point"] != b.certificate.data["worst_point"]


def test_each_claim_has_its_own_stream():
    """The stream is drawn for the purpose 'sampling/<claim name>': same seed, other claim name,
    other samples."""
    seen = []

    def recording(rng, n):
        seen.append(rng.normal(size=3).tolist())
        return {"x": rng.normal(size=n)}

    for name in ("first", "second", "first"):
        sampling.search(claim(name, "x", lambda o, v: o.ge(v.x * v.x, 0)), CTX, recording, samples=10, rounds=1)
    assert seen[0] == seen[2] != seen[1]
    assert seen[0] == CTX.rng("sampling/first").normal(size=3).tolist()


def test_ratio_reports_how_close_a_bound_comes():
    """ratio=(lhs, rhs) reports the largest observed quotient: 1 for the tight 1-Lipschitz bound."""
    entry = BY_NAME["relu-1-lipschitz"]
    v = sampling.search(entry.claim, CTX, entry.sampler, ratio=("lhs", "rhs"), **FAST)
    assert v.status is Status.SUPPORTED
    assert v.certificate.data["ratio"] == "lhs/rhs"
    assert v.certificate.data["max_ratio"] == pytest.approx(1.0)


def test_margins_sign_matches_the_claim():
    """Margins are non-negative where a claim holds and negative where it fails."""
    entry = BY_NAME["max-le-left"]
    m = sampling.margins(entry.claim, {"x": np.array([0.0, 2.0]), "y": np.array([1.0, 1.0])})
    assert m[0] < 0 <= m[1]


def test_candidate_at_a_pole_is_not_a_crash():
    """1/x ≤ 10 sampled at x = 0 has margin −inf there; that candidate cannot be re-checked,
    and the search must go on to a real counterexample (x = 1/20) or report supported."""
    recip = claim("recip-bounded", "x", lambda o, v: o.le(1 / v.x, 10))
    v = sampling.search(recip, CTX, mixed("x", scale=0.2), **FAST)
    assert v.status in (Status.REFUTED, Status.SUPPORTED)


def test_sampling_never_proves_an_identity():
    """Even an exactly true identity at every sample is only supported."""
    v = sampling.search(RELU_IDENTITY, CTX, mixed("x"), **FAST)
    assert v.status is Status.SUPPORTED


def test_a_float_violation_is_refuted_after_a_rigorous_recheck():
    """e^x ≤ 1 + 2x fails for x ≥ 1.26…: the float search finds it, the candidate is re-checked
    at its exact binary value by rigorous intervals (exact rationals cannot evaluate exp), and
    the claim is refuted; the witness satisfies the declared domain x ∈ [0, 3]."""
    from fractions import Fraction

    from checker.claims import claim
    from checker.kernel.model import Context, Status

    c = claim("exp-below-line", "x:real[0,3]", lambda o, v: o.le(o.exp(v.x), 1 + 2 * v.x))
    v = sampling.search(c, Context("t", seed=3, timeout_s=10.0), lambda rng, n: {"x": rng.uniform(0, 3, n)}, samples=500)
    assert v.status is Status.REFUTED and "rigorous intervals" in v.certificate.method
    assert 0 <= Fraction(v.certificate.witness["x"]) <= 3
