"""The corrected threshold for condition (ii) under the Theorem 4.2 mask, and the free-probability
sanity values (unmasked and Bernoulli-Δ Jacobian limits) as obligations.

Condition (ii) asks the normalised row sums ρ = (n/2)·E|bw|² to tend to 1. With the paper's mask
constant, in u = t√(n/2): ρ(n, u) = (√2/n)·e^{u²/2}·r(u), r(u) = 1 + Q(u)/(uφ(u)) (see
:mod:`.moments`). So ρ = 1 exactly at the root u*(n) of e^{u²/2}r(u) = n/√2, and
n·t*² = 2u*² = 4 log n − 2 log 2 − 4 log r(u*) = 4 log n − log 4 + o(1), beside the paper's range
nt² ≤ 4 log n − c log log n, on which ρ → 0 (``rmt_jacobian.mask_row_sums``).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, Callable

from checker import Expect, Source, obligation
from checker.backends import interval, smt, symbolic
from checker.claims import claim, some_instance
from checker.kernel.verdicts import all_of, timed, unknown, with_data
from obligations.rmt_jacobian import freeprob
from obligations.rmt_jacobian.expressions import SYM, enclosure, regime_bound, row_sum
from obligations.rmt_jacobian.moments import MAJOR_2, REGIME_C, in_u

DOC = "001_0878a03787123b55.txt"
WIDTHS = (256, 512, 1024, 2048)

LOG_DERIVATIVE = claim(
    "row-sum-increasing-for-u-ge-1", "u a q",
    lambda o, v: o.gt(2 * v.u - v.u * v.a / (v.a + v.q) - 1 / v.u, 0),
    hypotheses={"u ≥ 1": lambda o, v: o.ge(v.u, 1), "a = uφ(u) > 0": lambda o, v: o.gt(v.a, 0),
                "Q(u) > 0": lambda o, v: o.gt(v.q, 0)},
)


def _rho(n: int, u: Fraction) -> interval.Interval:
    with interval.precision(interval.DEFAULT_PREC):
        t = interval.Interval.of(u) * (interval.Interval.of(2) / n).sqrt()
        return row_sum(interval.OPS, interval.Interval.of(n), t)


def _rho_in_u(o, n, u):
    """ρ(n, u): the normalised row sum at t = u·√(2/n)."""
    return row_sum(o, n, u * o.sqrt(2 / n))


#: The statement's comparison at a width: ρ(n, lo) < 1 < ρ(n, hi), so the root u* of ρ = 1 (unique
#: for u ≥ 1) lies in (lo, hi), and the paper's range end lies below 2·lo² < n·t*² = 2u*².
def root_bracket_claim(n: int):
    """At width n: ρ(n, lo) < 1 < ρ(n, hi) with 1 ≤ lo < hi, so the root u* of ρ = 1 (unique for u ≥ 1)
    lies in (lo, hi), and the paper's range end lies below 2·lo² < n·t*² = 2u*². Its theorem is the
    existential reading (a bracket exists: :func:`checker.claims.some_instance`); a bracket on the
    wrong side of the root is no instance, and never a counterexample."""
    return claim(
        f"row-sum-root-bracketed-above-range-end-n{n}", "lo hi",
        lambda o, v: o.and_(o.lt(_rho_in_u(o, n, v.lo), 1), o.gt(_rho_in_u(o, n, v.hi), 1),
                            o.lt(regime_bound(o, n, REGIME_C), 2 * v.lo * v.lo)),
        hypotheses={"1 ≤ lo < hi": lambda o, v: o.and_(o.ge(v.lo, 1), o.lt(v.lo, v.hi))},
        terms={"ρ(n, lo)": lambda o, v: _rho_in_u(o, n, v.lo), "ρ(n, hi)": lambda o, v: _rho_in_u(o, n, v.hi),
               "paper range end (c = 8)": lambda o, v: regime_bound(o, n, REGIME_C), "2·lo²": lambda o, v: 2 * v.lo * v.lo},
    )


ROOT_BRACKETS = {n: root_bracket_claim(n) for n in WIDTHS}


def root_bracket(n: int, steps: int = 40) -> tuple[Fraction, Fraction] | None:
    """[lo, hi] ⊂ [1, 10] with ρ(n, lo) < 1 < ρ(n, hi), certified by enclosures (bisection)."""
    lo, hi = Fraction(1), Fraction(10)
    if not (_rho(n, lo).hi < 1 < _rho(n, hi).lo):
        return None
    for _ in range(steps):
        mid = (lo + hi) / 2
        r = _rho(n, mid)
        if r.hi < 1:
            lo = mid
        elif r.lo > 1:
            hi = mid
        else:
            break
    return lo, hi


def threshold_asymptotic(stated: Callable[[Any], Any], label: str) -> symbolic.SymbolicClaim:
    """The theorem nt*(n)² = ``stated(n)`` + o(1), as a limit sympy settles. On the root curve
    ρ(n, u*) = 1 the width is n(u*) = √2·e^{u*²/2}·r(u*) (increasing in u* ≥ 1, so n → ∞ exactly
    when u* → ∞) and nt*² = 2u*²: the statement is lim_{u→∞} 2u² − stated(n(u)) = 0."""
    def build() -> tuple:
        sp = symbolic.sympy()
        u = sp.symbols("u", positive=True)
        phi = sp.exp(-u**2 / 2) / sp.sqrt(2 * sp.pi)
        r = 1 + sp.erfc(u / sp.sqrt(2)) / 2 / (u * phi)
        return 2 * u**2 - stated(sp.sqrt(2) * sp.exp(u**2 / 2) * r), u, sp.oo, 0

    return symbolic.limit_claim(f"n·t*(n)² = {label} + o(1)", build)


#: The corrected threshold's asymptotic, as stated.
THRESHOLD_ASYMPTOTIC = threshold_asymptotic(lambda n: 4 * symbolic.sympy().log(n) - symbolic.sympy().log(4),
                                            "4 log n − log 4")


@obligation(
    id="rmt_jacobian.mask_threshold_corrected",
    source=Source(DOC, MAJOR_2 + ": the threshold at which the Theorem 4.2 mask would satisfy (ii)"),
    statement="With the Theorem 4.2 mask, the normalised row sum equals 1 at exactly one threshold t*(n) in the tail regime "
    "u = t√(n/2) ≥ 1, and nt*(n)² = 4 log n − log 4 + o(1); the end of the paper's range nt² ≤ 4 log n − c log log n "
    "(c = 8) lies below nt*² at n = 256, 512, 1024, 2048, which is why (ii) fails there.",
    scope="uniqueness for u ≥ 1 universally (z3 on the log-derivative, sympy for the identity); the asymptotic by a sympy "
    "limit; the root enclosed rigorously at n = 256, 512, 1024, 2048 beside 4 log n − log 4 and the paper's range end (c = 8)",
    expect=Expect.OPEN,
    lean="RmtJacobian.mask_threshold_corrected",
    uses=("rmt_jacobian.mask_row_sums", "rmt_jacobian.mask_condition_ii_paper"),
    claims=(LOG_DERIVATIVE,),
    theorem=lambda: (LOG_DERIVATIVE, THRESHOLD_ASYMPTOTIC, *(some_instance(c) for c in ROOT_BRACKETS.values())),
)
def mask_threshold_corrected(ctx):
    """The corrected exact threshold, next to the refuted claim that (ii) holds on the paper's
    range. ρ(n, u) = (√2/n)e^{u²/2}r(u) = (2√π/(nu))·e^{u²}(uφ(u) + Q(u)) (sympy). Its
    log-derivative in u is 2u − u·(uφ)/(uφ + Q) − 1/u (sympy), positive for u ≥ 1 (z3, with
    uφ > 0, Q > 0), so ρ is strictly increasing there and ρ = 1 has at most one root with u ≥ 1;
    rigorous enclosures bracket it at four widths. Taking logarithms, u*² = 2 log n − log 2 −
    2 log r(u*), and r(u) → 1 as u → ∞ (sympy), so nt*² = 2u*² = 4 log n − log 4 + o(1). The paper's
    range end 4 log n − c log log n is eventually below nt*² for every c > 0 (the gap
    c log log n − log 4 − 4 log r(u*) tends to ∞); at the four widths it is compared with the
    rigorous bracket of nt*² for c = 8.

    Theorem (declared): the log-derivative claim (uniqueness) and the asymptotic as a limit along
    the root curve (:func:`threshold_asymptotic`), settled by ``symbolic.decide`` with the identity
    steps as lemmas, so a wrong stated asymptotic is refuted by the computed limit; and, at the four
    widths, :func:`root_bracket_claim` at each width, whose existential reading is proved by the bracket the
    bisection found, enclosed as an instance (``interval.check_instance``; instances: the four widths).

    Survives mutation: WIDTHS = (256, 512, 1024, 2048): another width is bracketed and separated as well (the gap c log log n − log 4 grows with n); the widths are the instances shown
    Survives mutation: o.gt(2 * v.u - v.u * v.a / (v.a + v.q) - 1 / v.u, 0): the non-strict conclusion is weaker and still follows
    Survives mutation: below = paper_end.hi < lo.lo: the range end and the root are separated by a margin (more than 11 at every width), so the non-strict test passes too
    """
    sp = symbolic.sympy()
    n, t, u = sp.symbols("n t u", positive=True)
    phi = sp.exp(-u**2 / 2) / sp.sqrt(2 * sp.pi)
    q = sp.erfc(u / sp.sqrt(2)) / 2
    g = 2 * sp.sqrt(sp.pi) / (n * u) * sp.exp(u**2) * (u * phi + q)
    r = 1 + q / (u * phi)
    checks = [
        symbolic.zero_step((in_u(row_sum(SYM, n, t)) - g).rewrite(sp.erfc), "ρ(n, u) − (2√π/(nu))e^{u²}(uφ + Q)"),
        symbolic.zero_step(sp.simplify(sp.diff(sp.log(g), u) - (2 * u - u * (u * phi) / (u * phi + q) - 1 / u)),
                           "∂_u log ρ − (2u − u·uφ/(uφ + Q) − 1/u)"),
        symbolic.true_step(sp.Eq(sp.limit(sp.log(r), u, sp.oo), 0), "lim_(u→∞) log r(u) = 0"),
        symbolic.zero_step(sp.simplify(g - sp.sqrt(2) / n * sp.exp(u**2 / 2) * r),
                           "ρ(n, u) − (√2/n)e^{u²/2}r(u): ρ = 1 exactly at n = √2e^{u²/2}r(u)"),
    ]
    parts = {"identity and asymptotic (sympy)": symbolic.decide(THRESHOLD_ASYMPTOTIC, "sympy", checks),
             "ρ strictly increasing for u ≥ 1 (z3)": smt.prove(LOG_DERIVATIVE, ctx)}
    table, ok, brackets = {}, True, {}
    with timed() as tm:
        for width in WIDTHS:
            br = root_bracket(width)
            if br is None:
                ok = False
                continue
            brackets[width] = br
            with interval.precision(interval.DEFAULT_PREC):
                lo, hi = interval.Interval.of(2 * br[0] ** 2), interval.Interval.of(2 * br[1] ** 2)
                logn = interval.Interval.of(width).log()
                corrected = 4 * logn - interval.Interval.of(4).log()
                paper_end = 4 * logn - REGIME_C * logn.log()
            below = paper_end.hi < lo.lo
            ok &= below
            table[f"n={width}"] = {"n t*² in": f"[{float(lo.lo):.6f}, {float(hi.hi):.6f}]",
                                   "4 log n − log 4": enclosure(corrected, 8), "paper range end (c = 8)": enclosure(paper_end, 8),
                                   "paper range below t*": below}
        step = tm.step(interval.NAME, interval.version(), "bracket the root of ρ(n, u) = 1 for u ∈ [1, 10]",
                       "bracketed at every width" if ok else "not bracketed / not separated", table=table)
    if ok:  # the brackets the bisection found, each proved by one rigorous evaluation of the claim
        parts["root enclosures (rigorous)"] = all_of("rigorous interval enclosures at the bisection's brackets", {
            f"n = {width}": interval.check_instance(ROOT_BRACKETS[width], {"lo": lo, "hi": hi}, "the bisection")
            for width, (lo, hi) in brackets.items()})
    else:
        parts["root enclosures (rigorous)"] = unknown("rigorous bisection", "a root was not bracketed or not separated", step)
    return with_data(all_of("sympy + z3 + rigorous enclosures", parts), table=table)


@functools.lru_cache(maxsize=None)
def _unmasked_recipe() -> tuple:
    """The S-transform recipe for the unmasked product W₂W₁ (S(z) = 1/(1 + z)²): its edge, the
    recipe's own lemma steps, and the first four moments of the limit law from inverting χ."""
    sp = symbolic.sympy()
    z, x = sp.symbols("z x", positive=True)
    edge, chi, checks = freeprob.support_edge(1 / (1 + z) ** 2, z)
    coeffs = sp.symbols("m1:5")
    psi = sum(c * x ** (k + 1) for k, c in enumerate(coeffs))
    series = sp.series(chi.subs(z, psi) - x, x, 0, 5).removeO()
    solved = sp.solve([series.coeff(x, k) for k in range(1, 5)], coeffs, dict=True)[0]
    return edge, tuple(checks), tuple(solved[c] for c in coeffs)


@functools.lru_cache(maxsize=None)
def _bernoulli_recipe() -> tuple:
    """The recipe for W₂ΔW₁, Δ = diag(Bernoulli(1/2)): its edge and lemma steps, and the prediction."""
    sp = symbolic.sympy()
    z = sp.symbols("z", positive=True)
    edge, _, checks = freeprob.support_edge(1 / (1 + z) * (1 + z) / (sp.Rational(1, 2) + z) / (1 + z), z)
    return edge, tuple(checks), freeprob.prediction()


class _LazySympy:
    """``sp.name`` as sympy's ``name``, imported when first used (inside a claim's builder)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(symbolic.sympy(), name)


def _sanity_theorem() -> tuple:
    """The stated sanity values, each an identity sympy settles about what the recipe computes."""
    sp = _LazySympy()  # the claims build their expressions when first needed: declaring them imports no sympy
    out = [
        symbolic.zero_claim("unmasked edge 1/χ(z*) = 27/4", lambda: _unmasked_recipe()[0] - sp.Rational(27, 4)),
        symbolic.zero_claim("lim ‖W₂W₁‖ = 2√(27/4) = 3√3", lambda: sp.sqrt(4 * _unmasked_recipe()[0]) - 3 * sp.sqrt(3)),
    ]
    for k in range(1, 5):
        out.append(symbolic.zero_claim(
            f"unmasked moment m_{k} = C({3 * k}, {k})/{2 * k + 1}",
            lambda k=k: _unmasked_recipe()[2][k - 1] - sp.binomial(3 * k, k) / (2 * k + 1)))
    out += [
        symbolic.zero_claim("Bernoulli(1/2) edge 1/χ(z*) = (71 + 17√17)/32",
                            lambda: _bernoulli_recipe()[0] - (71 + 17 * sp.sqrt(17)) / 32),
        symbolic.zero_claim("Bernoulli(1/2) first limit moment 4·m₁ = 2",
                            lambda: sp.sympify(_bernoulli_recipe()[2].moments[0]) - 2),
    ]
    return tuple(out)


SANITY = _sanity_theorem()


@obligation(
    id="rmt_jacobian.free_limits_sanity",
    source=Source(DOC, "skeptic's concrete test of Approximation 2.1: the free-probability prediction's sanity values"),
    statement="The S-transform recipe used for the Approximation 2.1 prediction gives, for the unmasked product W₂W₁, the "
    "Fuss–Catalan edge 27/4 (lim ‖W₂W₁‖ = 2√(27/4) = 3√3) with limit moments 4^k·C(3k, k)/(2k + 1); and for the "
    "Bernoulli(1/2) diagonal, the edge (71 + 17√17)/32 (lim ‖W₂ΔW₁‖ ≈ 4.1996) with first moment 2, equal to the "
    "exact finite-n value.",
    scope="symbolic (sympy): the recipe's edges and moments; the Fuss–Catalan moments k = 1…4 by an independent closed "
    "form; asymptotic freeness itself is the cited theorem the recipe rests on, not checked here",
    expect=Expect.HOLDS,
    lean="RmtJacobian.free_limits_sanity",
    uses=("rmt_jacobian.approximation21_test",),
    theorem=lambda: SANITY,
)
def free_limits_sanity(ctx):
    """The two sanity values the Approximation 2.1 test relies on, as an obligation: the recipe
    (edge 1/χ(z*) at the critical point of χ(z) = zS(z)/(1 + z)) reproduces the known
    Fuss–Catalan law for the unmasked product (its moments are checked against the closed form
    C(3k, k)/(2k + 1), independent of the recipe), and for the Bernoulli(1/2) diagonal it gives
    the edge used by the prediction, with first limit moment 2 — the exact value
    E(1/n)tr(W₂ΔW₁)(W₂ΔW₁)ᵀ = n·(2/n)·(1/2)·(2/n)·n/n = 2 at every n. Grade: the arithmetic of the
    recipe is proved; that the norm converges to the edge is the cited strong asymptotic freeness.

    Theorem (declared): each stated value as an identity about what the recipe computes (the edges,
    the norm 3√3, the moments k = 1…4, the first Bernoulli moment), settled by ``symbolic.decide``
    with the recipe's own steps (one positive critical point, a maximum there) as lemma steps; a
    wrong stated value is refuted by the value sympy computes. The moments are stated as
    C(3k, k)/(2k + 1) of the unscaled law (the statement's 4^k is the scaling of W = √(2/n)G)."""
    _, unmasked_lemmas, _ = _unmasked_recipe()
    _, bernoulli_lemmas, pred = _bernoulli_recipe()
    parts = {}
    for theorem in SANITY:
        lemmas = list(bernoulli_lemmas if theorem.name.startswith("Bernoulli") else unmasked_lemmas)
        parts[theorem.name] = symbolic.decide(theorem, "sympy: S-transform recipe", lemmas)
    return with_data(all_of("sympy", parts, lemmas=True),
                     unmasked_limit_norm="3√3 ≈ 5.196152", bernoulli_limit_norm=pred.enclosure, bernoulli_moments=list(pred.moments),
                     prediction=pred.to_json())
