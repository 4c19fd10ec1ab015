/-
  Lean 4-style mirror of the Psy01-A accuracy-stability theorem and the soft relaxation
  (`000_1ea2e46c3d2f64bf.txt`). Not compiled: no Lean toolchain is available. Proofs are `sorry`;
  the obligations named in the docstrings are what is machine-checked, within their stated scope.
  Reconstructions: `docs/reconstructions/psy01a_comparison_stress.md`.
-/
import Mathlib

namespace Psy01A

namespace AccuracyDefs

/-- The bounded ramp `ψ_γ(m) = min{1, max{0, m/γ}}`. -/
noncomputable def ramp (γ m : ℝ) : ℝ := min 1 (max 0 (m / γ))

/-- Soft mask `s(q) = sigmoid((|w| − q)/T)`. -/
noncomputable def softMask (T w q : ℝ) : ℝ := 1 / (1 + Real.exp (-((|w| - q) / T)))

/-- Soft count `(1/N) Σ_i s_i(q)`. -/
noncomputable def softCount {N : ℕ} (T : ℝ) (W : Fin N → ℝ) (q : ℝ) : ℝ := (∑ i, softMask T (W i) q) / N

/-- `r(q) = (1/(N T)) Σ_i s_i(q)(1 − s_i(q))`. -/
noncomputable def rate {N : ℕ} (T : ℝ) (W : Fin N → ℝ) (q : ℝ) : ℝ :=
  (∑ i, softMask T (W i) q * (1 - softMask T (W i) q)) / (N * T)

end AccuracyDefs

open AccuracyDefs

/-- Markov, uniform and ramp versions of accuracy stability, with the optimised modulus:
for `t > 0`, `|Q − Q'| ≤ P{|m| ≤ 2t} + E D/t`; under `P{|m| ≤ 2t} ≤ C t^β` the infimum over `t` of
`C t^β + E/t` is `(β+1) C^{1/(β+1)} (E/β)^{β/(β+1)}`; and `|ψ_γ(a) − ψ_γ(b)| ≤ |a − b|/γ`.
Obligation: `psy01a.accuracy_stability`. -/
theorem accuracy_stability (C E β γ : ℝ) (hC : 0 < C) (hE : 0 < E) (hβ : 0 < β) (hγ : 0 < γ) :
    (⨅ t : {t : ℝ // 0 < t}, C * t.1 ^ β + E / t.1) =
        (β + 1) * C ^ (1 / (β + 1)) * (E / β) ^ (β / (β + 1)) ∧
    ∀ a b : ℝ, |ramp γ a - ramp γ b| ≤ |a - b| / γ := by
  sorry

/-- The soft count is continuous and strictly decreasing from one to zero, so `q(p)` exists uniquely
for `p ∈ (0, 1)`; `q'(p) = −1/r(q(p))`; and `s(1 − s) ≤ 1/4`.
Obligation: `psy01a.soft_relaxation`. -/
theorem soft_relaxation {N : ℕ} (hN : 0 < N) (T : ℝ) (hT : 0 < T) (W : Fin N → ℝ) :
    StrictAnti (softCount T W) ∧ Continuous (softCount T W) ∧
    Filter.Tendsto (softCount T W) Filter.atBot (nhds 1) ∧
    Filter.Tendsto (softCount T W) Filter.atTop (nhds 0) ∧
    (∀ q, HasDerivAt (softCount T W) (-(rate T W q)) q) ∧
    ∀ s : ℝ, s * (1 - s) ≤ 1 / 4 := by
  sorry

end Psy01A
