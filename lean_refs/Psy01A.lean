/-
  Lean 4-style mirror of the claims of `000_1ea2e46c3d2f64bf.txt` (Psy01-A), first slice.
  Further parts live in `lean_refs/Psy01A/`.

  Not compiled: no Lean toolchain is available. Proofs are `sorry`; the obligations named
  in the docstrings are what is machine-checked, within their stated scope.
-/
import Mathlib

namespace Psy01A

/-- Layer widths of the 067A network: 4 → 256 → 256 → 128 → 4. -/
def widths : List ℕ := [4, 256, 256, 128, 4]

/-- The derived architecture has 99,840 weights, 644 biases, 100,484 parameters, and is the
only split `n₂ + n₃ = 384` compatible with the text and the eight-unit relay construction.
Obligation: `psy01a.parameter_count` (exhaustive enumeration). -/
theorem parameter_count :
    (4 * 256 + 256 * 256 + 256 * 128 + 128 * 4 = 99840) ∧
    (256 + 256 + 128 + 4 = 644) ∧ (99840 + 644 = 100484) ∧
    ∀ n₂ n₃ : ℕ, 0 < n₂ → 8 ≤ n₃ → n₂ + n₃ = 384 →
      4 * 256 + 256 * n₂ + n₂ * n₃ + n₃ * 4 + (256 + n₂ + n₃ + 4) = 100484 → n₂ = 256 := by
  sorry

/-- Signed margin `m(z, y) = z_y − max_{j ≠ y} z_j`. -/
noncomputable def signedMargin {K : ℕ} (z : Fin K → ℝ) (y : Fin K) : ℝ :=
  z y - ⨆ j : {j // j ≠ y}, z j

/-- The signed margin is 2-Lipschitz in the logit sup norm.
Obligation: `psy01a.margin_two_lipschitz` (z3, K = 2 … 6). -/
theorem margin_two_lipschitz {K : ℕ} (z z' : Fin K → ℝ) (y : Fin K) (ε : ℝ)
    (hε : ∀ i, |z i - z' i| ≤ ε) :
    |signedMargin z y - signedMargin z' y| ≤ 2 * ε := by
  sorry

/-- The constant 2 cannot be lowered. Obligation: `psy01a.margin_two_lipschitz_tight`. -/
theorem margin_two_lipschitz_tight (K : ℕ) (hK : 2 ≤ K) :
    ∃ (z z' : Fin K → ℝ) (y : Fin K) (ε : ℝ), 0 < ε ∧ (∀ i, |z i - z' i| ≤ ε) ∧
      |signedMargin z y - signedMargin z' y| = 2 * ε := by
  sorry

/-- `W = [[1, 1], [1, −1]]` has operator norm `√2`; masking one entry gives `[[1, 1], [1, 0]]`
with operator norm `(1 + √5)/2 > √2`. Obligation: `psy01a.masked_operator_norm`. -/
theorem masked_operator_norm_example :
    (1 + Real.sqrt 5) / 2 > Real.sqrt 2 := by
  sorry

/-- `‖W ∘ M‖_op ≤ ‖W‖_F` for every 0/1 mask. Obligation: `psy01a.masked_opnorm_frobenius`. -/
theorem masked_opnorm_le_frobenius {m n : ℕ} (W : Matrix (Fin m) (Fin n) ℝ)
    (M : Matrix (Fin m) (Fin n) ℝ) (hM : ∀ i j, M i j = 0 ∨ M i j = 1) (x : Fin n → ℝ) :
    ‖(W.hadamard M).mulVec x‖ ^ 2 ≤ (∑ i, ∑ j, W i j ^ 2) * ‖x‖ ^ 2 := by
  sorry

end Psy01A
