"""The free-probability prediction for lim ‖W₂ΔW₁‖, computed without any sample.

W_i = √(2/n)·G_i with G_i standard Gaussian, Δ = diag(Bernoulli(1/2)). The nonzero eigenvalues of
(W₂ΔW₁)(W₂ΔW₁)ᵀ are 4 times those of b^{1/2}·(pap)·b^{1/2} with a = G₂ᵀG₂/n, b = G₁G₁ᵀ/n
(free Poisson laws of rate 1) and p = Δ (a projection of trace 1/2), asymptotically free. So
the limit law is 4·(π₁ ⊠ P_{1/2} ⊠ π₁), whose S-transform is the product of the factors'
S-transforms: S(z) = 1/(1+z) · (1+z)/(1/2+z) · 1/(1+z) = 1/((1+z)(1/2+z)).

With ψ(x) = Σ_k m_k x^k the moment series and χ its inverse, S(z) = χ(z)(1+z)/z, so
χ(z) = z/((1+z)²(z+1/2)). The upper edge of the support is 1/χ(z*) at the positive critical
point z* of χ (the branch point of ψ; the same recipe gives the Fuss–Catalan edge 27/4 for
π₁ ⊠ π₁). Here 4z² + z − 1 = 0, z* = (√17 − 1)/8, edge (71 + 17√17)/32 ≈ 4.40915, and the
predicted norm is 2·√edge ≈ 4.19960. Strong asymptotic freeness (Gaussian matrices with
independent diagonal ones) is what makes the norm, and not only the spectral law, converge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from checker.backends import interval, symbolic
from checker.kernel.model import Step
from obligations.rmt_jacobian.expressions import enclosure

MOMENTS = 4  # moments of the limit law recorded for the check against sampled spectra


@dataclass(frozen=True, slots=True)
class Prediction:
    """The predicted limit and how it was obtained."""

    value: float  # midpoint of the enclosure
    enclosure: str
    edge: str  # exact, as sympy prints it
    moments: tuple[str, ...]  # (1/n) tr (MMᵀ)^k, k = 1…MOMENTS, in the limit
    steps: tuple[Step, ...]
    settled: bool  # every sympy step reduced to 0/True

    def to_json(self) -> dict[str, Any]:
        return {
            "limit_of_norm": self.value,
            "enclosure": self.enclosure,
            "support_edge_of_MMt": self.edge,
            "limit_moments_of_MMt": list(self.moments),
            "method": "S-transform of 4·(free Poisson ⊠ projection(1/2) ⊠ free Poisson); edge at the critical point of χ",
            "sympy_steps_reduced": self.settled,
        }


def support_edge(s_transform: Any, z: Any) -> tuple[Any, Any, list[tuple[bool, Step]]]:
    """Upper edge 1/χ(z*) of the law with S-transform ``s_transform(z)``, χ(z) = z·S(z)/(1+z), z* the
    unique positive critical point of χ (a maximum). Returns (edge, χ, the sympy checks)."""
    sp = symbolic.sympy()
    chi = sp.simplify(z * s_transform / (1 + z))
    critical = [r for r in sp.solve(sp.diff(chi, z), z) if r.is_positive]
    checks = [symbolic.true_step(sp.Eq(len(critical), 1), "χ has exactly one positive critical point")]
    if len(critical) != 1:
        return sp.nan, chi, checks
    root = critical[0]
    checks += [
        symbolic.zero_step(sp.diff(chi, z).subs(z, root), f"χ′(z*) = 0 at z* = {sp.sstr(root)}"),
        symbolic.true_step(sp.diff(chi, z, 2).subs(z, root) < 0, "χ″(z*) < 0: a maximum of χ on z > 0"),
    ]
    return sp.radsimp(sp.simplify(1 / chi.subs(z, root))), chi, checks


def prediction() -> Prediction:
    """Compute the edge and the limit with sympy, and enclose the limit rigorously."""
    sp = symbolic.sympy()
    z, x = sp.symbols("z x", positive=True)
    half = sp.Rational(1, 2)
    free_poisson = 1 / (1 + z)
    projection = (1 + z) / (half + z)
    edge, chi, checks = support_edge(free_poisson * projection * free_poisson, z)
    checks.append(symbolic.zero_step(edge - (71 + 17 * sp.sqrt(17)) / 32, "1/χ(z*) − (71 + 17√17)/32"))
    # Moments of the limit law: invert χ as a power series, χ(ψ(x)) = x, then scale by 4^k. With
    # χ = N/D in lowest terms and D(0) ≠ 0, D(ψ) is a unit of the power-series ring, so the
    # coefficients of x¹…x^MOMENTS in χ(ψ) − x vanish exactly when those of the polynomial
    # N(ψ) − x·D(ψ) do: the same triangular system as the series of χ(ψ) − x, without the series.
    coeffs = sp.symbols(f"m1:{MOMENTS + 1}")
    psi = sum(c * x ** (k + 1) for k, c in enumerate(coeffs))
    numerator, denominator = sp.fraction(sp.together(chi))
    if denominator.subs(z, 0) == 0:
        raise ValueError(f"χ's denominator {denominator} vanishes at 0: the inversion needs D(0) ≠ 0")
    inversion = sp.Poly(sp.expand(numerator.subs(z, psi) - x * denominator.subs(z, psi)), x)
    solved = sp.solve([inversion.coeff_monomial(x**k) for k in range(1, MOMENTS + 1)], coeffs, dict=True)[0]
    moments = tuple(sp.sstr(4 ** (k + 1) * solved[c]) for k, c in enumerate(coeffs))
    checks.append(symbolic.zero_step(4 * solved[coeffs[0]] - 2, "4·m₁ − 2: E (1/n) tr MMᵀ = n·(2/n)·(1/2)·(2/n)·n = 2 at every n"))
    with interval.precision(interval.DEFAULT_PREC):
        i = interval.Interval
        limit = 2 * ((i.of(71) + 17 * i.of(17).sqrt()) / 32).sqrt()
        mid = float((limit.lo + limit.hi) / 2)
        shown = enclosure(limit, 15)
    return Prediction(mid, shown, sp.sstr(edge), moments, tuple(s for _, s in checks), all(ok for ok, _ in checks))
