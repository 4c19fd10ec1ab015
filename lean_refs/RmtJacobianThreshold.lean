/-
  Lean 4-style mirror of the corrected mask threshold and the free-probability sanity values
  (`001_0878a03787123b55.txt`). Not compiled; proofs are `sorry`.
-/
import Mathlib

namespace RmtJacobian

/-- The normalised row sum under the Theorem 4.2 mask, in `u = t √(n/2)`. -/
noncomputable def rowSumU (n : ℕ) (u : ℝ) : ℝ :=
  2 * Real.sqrt Real.pi / (n * u) * Real.exp (u ^ 2) *
    (u * Real.exp (-u ^ 2 / 2) / Real.sqrt (2 * Real.pi) + Real.erfc (u / Real.sqrt 2) / 2)

/-- The row sum is 1 at exactly one `u ≥ 1`, and `2u*(n)² = 4 log n − log 4 + o(1)`.
Obligation: `rmt_jacobian.mask_threshold_corrected`. -/
theorem mask_threshold_corrected (n : ℕ) (hn : 256 ≤ n) :
    ∃! u : ℝ, 1 ≤ u ∧ rowSumU n u = 1 := by
  sorry

/-- The S-transform recipe's sanity values: Fuss–Catalan edge `27/4` for the unmasked product and
`(71 + 17√17)/32` for the Bernoulli(1/2) diagonal. Obligation: `rmt_jacobian.free_limits_sanity`. -/
theorem free_limits_sanity (supportEdge : (ℝ → ℝ) → ℝ)
    (hEdge : ∀ S, supportEdge S = 1 / sSup ((fun z => z * S z / (1 + z)) '' Set.Ioi 0)) :
    supportEdge (fun z => 1 / (1 + z) ^ 2) = 27 / 4 ∧
      supportEdge (fun z => 1 / ((1 + z) * (1 / 2 + z))) = (71 + 17 * Real.sqrt 17) / 32 := by
  sorry

end RmtJacobian
