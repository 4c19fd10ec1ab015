/-
  Lean 4-style mirror of the Psy01-A affine-Gaussian comparison model (`000_1ea2e46c3d2f64bf.txt`).
  Not compiled: no Lean toolchain is available. Proofs are `sorry`; the obligations named in the
  docstrings are what is machine-checked, within their stated scope. The model's displays were
  lost; the reconstruction is in `docs/reconstructions/psy01a_comparison_stress.md`.
-/
import Mathlib

namespace Psy01A

namespace ComparisonDefs

/-- Parameters of the comparison model. -/
structure Params where
  e0 : ℝ
  k : ℝ
  lam : ℝ
  r : ℝ
  h0 : ℝ
  v0 : ℝ
  F : ℝ
  tau : ℝ

/-- The parameter region and the reconstructed assumption: `k(1 − e0) < min{2λF, h0}` and cue
preservation `F(k e0 + λF) < h0(1 − F)`. -/
def Assumption (p : Params) : Prop :=
  0 < p.e0 ∧ p.e0 < 1 ∧ 0 < p.k ∧ 0 < p.lam ∧ 0 < p.r ∧ 0 < p.h0 ∧ 0 < p.v0 ∧ 0 < p.tau ∧
    0 < p.F ∧ p.F < 1 ∧ p.k * (1 - p.e0) < 2 * p.lam * p.F ∧ p.k * (1 - p.e0) < p.h0 ∧
    p.F * (p.k * p.e0 + p.lam * p.F) < p.h0 * (1 - p.F)

/-- Interference `b(e, f) = k f (e − e0) − λ f²`. -/
def b (p : Params) (e f : ℝ) : ℝ := p.k * f * (e - p.e0) - p.lam * f ^ 2

/-- Cue gain `h(f) = h0 (1 − f)`. -/
def h (p : Params) (f : ℝ) : ℝ := p.h0 * (1 - f)

/-- Noise gain `v(f) = v0 + r f`. -/
def v (p : Params) (f : ℝ) : ℝ := p.v0 + p.r * f

/-- Standard normal distribution function. -/
noncomputable def Φ (x : ℝ) : ℝ := (1 + Real.erf (x / Real.sqrt 2)) / 2

/-- Zero-stress ambiguity accuracy `A_lin = Φ(b/τ)`. -/
noncomputable def A (p : Params) (e f : ℝ) : ℝ := Φ (b p e f / p.tau)

/-- Stressed visual-cue accuracy `S_lin = Φ((h + b)/√(τ² + σ² v))`. -/
noncomputable def S (p : Params) (e f σ : ℝ) : ℝ :=
  Φ ((h p f + b p e f) / Real.sqrt (p.tau ^ 2 + σ ^ 2 * v p f))

/-- Zero-stress cue drop `Δ_lin = Φ((h + b)/τ) − Φ((b − h)/τ)`. -/
noncomputable def Δ (p : Params) (e f : ℝ) : ℝ := Φ ((h p f + b p e f) / p.tau) - Φ ((b p e f - h p f) / p.tau)

/-- The maximising curve `f*(e) = k(e − e0)/(2λ)`. -/
noncomputable def fstar (p : Params) (e : ℝ) : ℝ := p.k * (e - p.e0) / (2 * p.lam)

end ComparisonDefs

open ComparisonDefs

/-- Parts 1–2: below the threshold the unpruned network is optimal; above it `f*(e)` is the unique
maximiser inside `(0, F)`, and `f*` is strictly increasing.
Obligation: `psy01a.comparison_model.maximiser` (sympy calculus + z3 over the region). -/
theorem comparison_maximiser (p : Params) (hp : Assumption p) :
    (∀ e f, 0 ≤ e → e ≤ p.e0 → 0 < f → f ≤ p.F → A p e f < A p e 0) ∧
    (∀ e, p.e0 < e → e ≤ 1 → 0 < fstar p e ∧ fstar p e < p.F ∧
      ∀ f, 0 ≤ f → f ≤ p.F → f ≠ fstar p e → A p e f < A p e (fstar p e)) ∧
    StrictMono (fstar p) := by
  sorry

/-- Part 3: strict gain on `0 < f < min{F, k(e − e0)/λ}`; the surface rises before `f*` and falls after.
Obligation: `psy01a.comparison_model.strict_gain`. -/
theorem comparison_strict_gain (p : Params) (hp : Assumption p) (e f : ℝ) (he : p.e0 < e) (he1 : e ≤ 1)
    (hf : 0 < f) (hfF : f < p.F) (hfk : f < p.k * (e - p.e0) / p.lam) :
    A p e 0 < A p e f := by
  sorry

/-- Part 4: for every `σ > 0`, `S_lin` is strictly decreasing in `f` and along `f = f*(e)`.
Obligation: `psy01a.comparison_model.stress_monotone`. -/
theorem comparison_stress_monotone (p : Params) (hp : Assumption p) (σ : ℝ) (hσ : 0 < σ) :
    (∀ e, 0 ≤ e → e ≤ 1 → StrictAntiOn (fun f => S p e f σ) (Set.Icc 0 p.F)) ∧
    StrictAntiOn (fun e => S p e (fstar p e) σ) (Set.Ioc p.e0 1) := by
  sorry

/-- Part 5: if `0 < γ ≤ h(f) − |b(e, f)|` then `Δ_lin(e, f) ≥ 2Φ(γ/τ) − 1 > 0`.
Obligation: `psy01a.comparison_model.cue_drop`. -/
theorem comparison_cue_drop (p : Params) (hp : Assumption p) (γ e f : ℝ) (hγ : 0 < γ)
    (hmin : γ ≤ h p f - |b p e f|) :
    2 * Φ (γ / p.tau) - 1 ≤ Δ p e f ∧ 0 < 2 * Φ (γ / p.tau) - 1 := by
  sorry

/-- The (reconstructed) example parameters satisfy the assumption; raising `h0` keeps it, raises the
cue drop and its bound, and does not move `f*`. Obligation: `psy01a.comparison_model.example_parameters`. -/
theorem comparison_example_parameters :
    Assumption ⟨1/2, 1, 1, 1, 2, 1, 1/2, 1/2⟩ ∧ Assumption ⟨1/2, 1, 1, 1, 4, 1, 1/2, 1/2⟩ ∧
    ∀ (p : Params) (d : ℝ), 0 ≤ d → fstar { p with h0 := p.h0 + d } = fstar p := by
  sorry

/-- Certified errors smaller than the comparison gaps transfer the ordering of two checkpoints.
Obligation: `psy01a.comparison_corollary` (z3, linear arithmetic). -/
theorem comparison_corollary (A₀ A₁ S₀ S₁ cA₀ cA₁ cS₀ cS₁ εA₀ εA₁ εS₀ εS₁ : ℝ)
    (hA₀ : |A₀ - cA₀| ≤ εA₀) (hA₁ : |A₁ - cA₁| ≤ εA₁) (hS₀ : |S₀ - cS₀| ≤ εS₀) (hS₁ : |S₁ - cS₁| ≤ εS₁)
    (gA : εA₀ + εA₁ < cA₁ - cA₀) (gS : εS₀ + εS₁ < cS₀ - cS₁) :
    A₀ < A₁ ∧ S₁ < S₀ := by
  sorry

end Psy01A
