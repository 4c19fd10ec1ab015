"""Expected outcomes of the 001 review's obligations, mutated claims that must not be accepted, the
Monte-Carlo certificates (statistical labels, reproducibility) and the slow-tier switch."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from checker.backends import interval, smt, symbolic
from checker.claims import claim
from checker.face.lean import parse_file
from checker.kernel.model import Outcome, Status
from checker.run.discovery import discover
from checker.report.reports import read_json
from obligations.rmt_jacobian import approximation21, conditions, expressions, freeprob, moments, remarks
from tests.helpers import ROOT, cli

EXPECTED = {
    "rmt_jacobian.truncated_moment_referee": Status.PROVED,
    "rmt_jacobian.truncated_moment_paper": Status.REFUTED,
    "rmt_jacobian.mask_row_sums": Status.PROVED,
    "rmt_jacobian.mask_condition_ii_paper": Status.REFUTED,
    "rmt_jacobian.condition_ii_prime_typo": Status.PROVED,
    "rmt_jacobian.random_pruning_scaling": Status.PROVED,
    "rmt_jacobian.log4_remark": Status.PROVED,
    "rmt_jacobian.log10_remark": Status.REFUTED,
}
MONTE_CARLO = ("rmt_jacobian.approximation21_test", "rmt_jacobian.sign_weight_dependence")
SLOW = "rmt_jacobian.approximation21_test_slow"


@pytest.fixture(scope="module")
def monte_carlo():
    """The default-tier Monte-Carlo results, computed once for this module by the real command
    (worker processes with one BLAS thread each, as `obligations check` runs them; no cache)."""
    out = cli("check", *MONTE_CARLO, "--jobs", "2", "--no-cache", "--format", "json", "-q")
    assert out.returncode == 0, out.stderr
    return {r.id: r for r in read_json(out.stdout)}


@pytest.mark.parametrize("ob_id, status", sorted(EXPECTED.items()))
def test_outcome(ob_id, status, catalogue_run):
    """Each exact/symbolic/interval obligation settles as the review says."""
    r = catalogue_run[ob_id]
    assert r.status is status, r.certificate.reason
    assert r.outcome in (Outcome.CONFIRMED, Outcome.PARTIAL)  # partial: proved for some sizes only


#: The referee's follow-up questions on 001 (obligations/rmt_jacobian/threshold.py, tested in
#: tests/catalogue/test_referee_questions.py, mirrored in lean_refs/RmtJacobianThreshold.lean).
REFEREE = {"rmt_jacobian.mask_threshold_corrected", "rmt_jacobian.free_limits_sanity"}


def test_every_001_item_has_an_obligation():
    """The catalogue's 001 items are all declared, under this prefix, with one slow tier."""
    ids = {ob.id for ob in discover("obligations").obligations if ob.id.startswith("rmt_jacobian.")}
    assert ids == set(EXPECTED) | set(MONTE_CARLO) | {SLOW} | REFEREE
    slow = {ob.id for ob in discover("obligations").obligations if ob.id.startswith("rmt_jacobian.") and ob.slow}
    assert slow == {SLOW}


def test_paper_refutation_rests_on_the_limit_of_the_declared_theorem(catalogue_run):
    """The refutation is of the declared theorem (paper/exact → 1 along the range's upper end): its
    witness is the limit sympy computes, ∞; the other limits of paper/exact (≠ 1) and the
    finite-width reading's witness, whose enclosure re-checks, are recorded beside it."""
    result = catalogue_run["rmt_jacobian.truncated_moment_paper"]
    assert result.status is Status.REFUTED
    c = result.certificate
    assert c.witness == {"computed": "oo"}
    assert moments.PAPER_ALONG_RANGE_END.recheck(c.witness) is True
    assert set(c.data["limits"].values()) == {"oo", "0"}
    reading = c.data["finite_width_reading"]
    assert reading["status"] == "refuted" and reading["witness"] == {"n": "1024", "t": "1/10"}
    whole, hyps, concl, terms = interval.decide(moments.PAPER_AT_WIDTH, {k: Fraction(v) for k, v in reading["witness"].items()})
    assert all(h is interval.Tri.TRUE for h in hyps.values()) and concl is interval.Tri.FALSE
    assert terms["paper/exact"].lo > 20


def test_referee_with_a_wrong_constant_is_not_proved():
    """Mutation: 3t instead of 2t in the referee's asymptotic (ratio → 2/3) is refuted: sympy
    computed the limit 2/3, a decisive value, not merely an irreducible one."""
    wrong = lambda o, n, t: 3 * t * expressions.exp(o, -(n * t * t) / 4) / o.sqrt(n * expressions.pi(o))  # noqa: E731
    v = moments.asymptotic_check(wrong, "3t·e^(−nt²/4)/√(nπ)")
    assert v.status is Status.REFUTED
    assert v.certificate.data["limit"] == "2/3" and v.certificate.sides["computed"] == "2/3"


def test_referee_with_the_papers_exponent_is_not_proved():
    """Mutation: the referee's form with exponent −nt²/2 is not proved (the ratio depends on n)."""
    wrong = lambda o, n, t: 2 * t * expressions.exp(o, -(n * t * t) / 2) / o.sqrt(n * expressions.pi(o))  # noqa: E731
    assert moments.asymptotic_check(wrong, "2t·e^(−nt²/2)/√(nπ)").status is not Status.PROVED


def test_a_correct_expression_in_the_papers_place_is_not_refuted():
    """Mutation: put the referee's (correct) asymptotic where the paper's stands: no refutation."""
    sp, (n, t, u, *_) = moments._symbols()
    ratio = moments.referee_moment(expressions.SYM, n, t) / moments.exact_moment(expressions.SYM, n, t)
    limits = {"along the upper end of the range": sp.limit(moments.in_u(ratio).subs(u, moments.boundary_u()), n, sp.oo)}
    fixed = claim("referee-within-half", "n t",
                  lambda o, v: o.le(o.abs(moments.referee_moment(o, v.n, v.t) / moments.exact_moment(o, v.n, v.t) - 1), o.q(1, 2)),
                  hypotheses=moments.WIDTH_HYPOTHESES)
    finite = interval.prove_on(fixed, moments.WITNESS)
    assert finite.status is Status.PROVED
    assert moments.refute_asymptotic(limits, finite, "mutation").status is Status.UNKNOWN
    in_place = moments.along_range_end("referee along the range's upper end",
                                       lambda o, n, t: moments.referee_moment(o, n, t) / moments.exact_moment(o, n, t), 1)
    assert symbolic.decide(in_place, "mutation", [moments.on_range_end_step()]).status is Status.PROVED


def test_log_remarks_with_other_stated_values():
    """Mutations: the true value in place of 0.009 is proved; 3.79 in place of 3.69 is refuted."""
    true_value = remarks.approx_claim(10, Fraction(1073778, 10), Fraction(1, 20) * Fraction(1073778, 10), "true")
    assert interval.prove_on(true_value, remarks.WIDTH).status is Status.PROVED
    wrong = remarks.approx_claim(4, Fraction(379, 100), Fraction(1, 200), "wrong")
    assert interval.prove_on(wrong, remarks.WIDTH).status is Status.REFUTED


def test_log10_certificate_records_every_base(catalogue_run):
    """The refutation keeps enclosures for bases e, 2, 10 and the first-power base-10 reading."""
    c = catalogue_run["rmt_jacobian.log10_remark"].certificate
    assert c.witness == {"n": "256"}
    assert c.data["readings"]["log_2^10(256)/256"].startswith("[4194303.99")
    assert c.data["readings"]["log_10(256)/256 (first power)"].startswith("[0.00940")


def test_stated_ii_prime_as_if_it_held_is_refuted():
    """Mutation: claiming the stated (ii′) quantity is 0 for B = 1 is refuted by z3 with an exact witness."""
    wrong = claim("ii-prime-stated-zero", "n", lambda o, v: o.eq(conditions.stated_ii_prime(o, v.n, v.n), 0),
                  hypotheses={"n ≥ 1": lambda o, v: o.ge(v.n, 1)})
    assert smt.prove(wrong).status is Status.REFUTED


def test_pruning_without_rescaling_is_refuted():
    """Mutation: without the (1−s)^(−1/2) factor (r = 1) the second moment is not preserved."""
    unscaled = claim("unscaled", "s sigma2", lambda o, v: o.eq((1 - v.s) * v.sigma2, v.sigma2),
                     hypotheses={"0 ≤ s < 1": lambda o, v: o.and_(o.ge(v.s, 0), o.lt(v.s, 1)),
                                 "σ² > 0": lambda o, v: o.gt(v.sigma2, 0)})
    assert smt.prove(unscaled).status is Status.REFUTED


def test_interval_pi_encloses_pi():
    """The π enclosure from arb's ball contains π to 60 digits."""
    import mpmath

    with interval.precision(200):
        p = expressions.interval_pi()
    with mpmath.workdps(60):
        assert p.lo < Fraction(mpmath.nstr(mpmath.pi, 60)) + Fraction(1, 10**58)
        assert p.hi > Fraction(mpmath.nstr(mpmath.pi, 60)) - Fraction(1, 10**58)
        assert p.width < Fraction(1, 10**50)


def test_transcendentals_are_not_given_to_exact_rationals():
    """exp/log/erfc/π on the exact backend cannot decide instead of guessing."""
    from checker.backends import CannotDecide, exact

    with pytest.raises(CannotDecide):
        expressions.log(exact.OPS, Fraction(2))


def test_free_prediction_recipe():
    """The S-transform recipe gives the Fuss–Catalan edge 27/4 for two free Poisson factors, and the
    prediction for W₂ΔW₁ is 2√((71 + 17√17)/32) with every sympy step reduced."""
    sp = freeprob.symbolic.sympy()
    z = sp.symbols("z", positive=True)
    assert freeprob.support_edge(1 / (1 + z) ** 2, z)[0] == sp.Rational(27, 4)
    p = freeprob.prediction()
    assert p.settled
    assert abs(p.value - 2 * math.sqrt((71 + 17 * math.sqrt(17)) / 32)) < 1e-12
    assert p.moments == ("2", "16", "168", "2016")


def test_product_spectrum_matches_a_full_svd():
    """The reduced eigen-solve gives the spectral norm of the product, also when a row is empty."""
    import numpy as np

    rng = np.random.default_rng(0)
    for empty_row in (False, True):
        w1, w2 = rng.standard_normal((2, 40, 40))
        if empty_row:
            w1[3] = 0.0
        keep = rng.random(40) < 0.5
        keep[3] = True
        got, _ = approximation21.masked_norm(w2, keep, w1)
        assert math.isclose(got, float(np.linalg.norm(w2[:, keep] @ w1[keep], 2)), rel_tol=1e-10)


def test_chi_square_on_independent_and_on_identical_data():
    """No rejection for independent coins (seeded); a huge statistic for identical ones."""
    import numpy as np

    rng = np.random.default_rng(1)
    a, b = rng.random(20_000) < 0.5, rng.random(20_000) < 0.5
    assert float(approximation21.chi_square_2x2(a, b)["p_value"]) > 0.001
    same = approximation21.chi_square_2x2(a, a)
    assert same["statistic"] > 19_000 and abs(same["phi_coefficient"] - 1) < 1e-12


def test_monte_carlo_is_evidence_only_and_labelled(monte_carlo):
    """Monte-Carlo results are supported or unknown, never proved/refuted; every test is named."""
    for ob_id, r in monte_carlo.items():
        assert r.status in (Status.SUPPORTED, Status.UNKNOWN), ob_id
        assert r.certificate.witness is None
    data = monte_carlo["rmt_jacobian.approximation21_test"].certificate.data
    for setting in ("gaussian", "magnitude_pruned"):
        test = data[setting]["gap_test"]
        assert {"test", "statistic", "p_value"} <= set(test) and "z-test" in test["test"]
        assert data[setting]["verdict"].startswith("statistical")
    for tests in monte_carlo["rmt_jacobian.sign_weight_dependence"].certificate.data["tests"].values():
        for t in tests.values():
            assert "chi-square" in t["test"] and "statistic" in t and "p_value" in t


def test_monte_carlo_table_is_in_the_certificate(monte_carlo):
    """The table has one row per width and setting: n, real ± CI, surrogate ± CI, gap, prediction."""
    r = monte_carlo["rmt_jacobian.approximation21_test"]
    data = r.certificate.data
    for setting in ("gaussian", "magnitude_pruned"):
        rows = data[setting]["rows"]
        assert [row["n"] for row in rows] == [256, 512, 1024]
        for row in rows:
            assert {"real_mean", "real_ci95", "surrogate_mean", "surrogate_ci95", "gap_mean", "gap_ci95", "prediction"} <= set(row)
    assert abs(data["prediction"]["limit_of_norm"] - 4.1995951536) < 1e-9
    assert len(data["table"]) == 2 + 2 * 3
    json.dumps(r.to_json())


def test_monte_carlo_is_reproducible_from_its_recorded_seed(monte_carlo):
    """Re-sampling the first width from the recorded seed and stream (in a fresh process, one BLAS
    thread as in the checker's workers) gives the certificate's means exactly."""
    r = monte_carlo["rmt_jacobian.approximation21_test"]
    n, trials = approximation21.DEFAULT_TIER.widths[0]
    code = ("import json; from checker.kernel.model import Context; from obligations.rmt_jacobian import approximation21 as a; "
            f"ctx = Context({r.id!r}, {r.seed}, 60.0); "
            f"s = a.sample_width(ctx.rng('approximation21/default/n={n}'), {n}, {trials})['norms']; "
            "print(json.dumps([a.mean_ci(s[k])[0] for k in ('gauss_real', 'gauss_surrogate', 'pruned_real', 'pruned_surrogate')]))")
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    means = json.loads(out.stdout)
    gauss, pruned = (r.certificate.data[k]["rows"][0] for k in ("gaussian", "magnitude_pruned"))
    assert means == [gauss["real_mean"], gauss["surrogate_mean"], pruned["real_mean"], pruned["surrogate_mean"]]


def test_lean_refs_resolve_in_rmt_jacobian_lean():
    """Every lean ref is RmtJacobian.<name> and is declared in lean_refs/RmtJacobian.lean."""
    declared = {d.name for f in ("RmtJacobian.lean", "RmtJacobianThreshold.lean") for d in parse_file(ROOT / "lean_refs" / f)}
    refs = {ref for ob in discover("obligations").obligations if ob.id.startswith("rmt_jacobian.") for ref in ob.lean}
    assert refs and all(ref.startswith("RmtJacobian.") for ref in refs)
    assert refs <= declared
    theorems = {d.name for d in parse_file(ROOT / "lean_refs" / "RmtJacobian.lean") if d.kind == "theorem"}
    assert theorems <= refs


def test_modules_import_without_heavy_libraries():
    """Importing the catalogue modules loads none of numpy, sympy, mpmath, flint, z3."""
    code = ("import sys; import obligations.rmt_jacobian.approximation21, obligations.rmt_jacobian.moments, "
            "obligations.rmt_jacobian.conditions, obligations.rmt_jacobian.remarks; "
            "print(sorted(m for m in ('numpy', 'sympy', 'mpmath', 'flint', 'z3') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_slow_tier_is_listed_as_slow_and_left_out_of_check_by_default():
    """`list` marks the slow tier; `check` without --slow does not run it."""
    listed = cli("list", "rmt_jacobian")
    line = [ln for ln in listed.stdout.splitlines() if ln.startswith(SLOW)]
    assert line and line[0].rstrip().endswith("[slow]")
    out = cli("check", "rmt_jacobian.approximation21_test_slow", "rmt_jacobian.log", "--no-cache", "--format", "json", "-q")
    assert out.returncode == 0, out.stderr
    ids = {r["id"] for r in json.loads(out.stdout)["results"]}
    assert ids == {"rmt_jacobian.log4_remark", "rmt_jacobian.log10_remark"}


def test_slow_tier_is_included_with_the_slow_switch():
    """With --slow the slow tier is scheduled (a 1 s limit stops it at once: timeout, outcome open)."""
    out = cli("check", SLOW, "--slow", "--timeout", "1", "--no-cache", "--format", "json", "-q")
    assert out.returncode == 0, out.stderr
    results = json.loads(out.stdout)["results"]
    assert [r["id"] for r in results] == [SLOW]
    assert results[0]["status"] == "timeout" and results[0]["outcome"] == "open"


@pytest.mark.slow
def test_slow_tier_runs_to_2048():
    """`check --slow` runs the slow tier (n up to 2048): evidence or an unknown, never a proof or a
    refutation, with the 2048 row in its table (run by the real command: one BLAS thread per worker)."""
    out = cli("check", SLOW, "--slow", "--timeout", "900", "--no-cache", "--format", "json", "-q")
    assert out.returncode == 0, out.stderr
    (r,) = read_json(out.stdout)
    assert r.status in (Status.SUPPORTED, Status.UNKNOWN), r.certificate.reason
    assert [row["n"] for row in r.certificate.data["gaussian"]["rows"]] == [256, 512, 1024, 2048]
    assert [row["n"] for row in r.certificate.data["magnitude_pruned"]["rows"]] == [256, 512, 1024, 2048]


def test_a_wrong_asymptotic_is_refuted_with_its_computed_limit():
    """The referee's asymptotic off by a factor √2: the limit of exact/asymptotic is 1/√2, not 1,
    and the check is refuted with that limit in its certificate (not left unknown)."""
    from checker.backends import symbolic
    from checker.kernel.model import Status
    from obligations.rmt_jacobian import moments

    sp = symbolic.sympy()
    v = moments.asymptotic_check(lambda o, n, t: sp.sqrt(2) * moments.referee_moment(o, n, t), "√2 × referee")
    assert v.status is Status.REFUTED
    assert sp.simplify(sp.sympify(v.certificate.sides["computed"]) - sp.sqrt(2) / 2) == 0
