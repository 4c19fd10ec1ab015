/-
  Lean 4-style mirror of the referee's follow-up questions on Corollary 1 of arXiv 2507.02953
  (`003_be90e9c95890d8e1.txt`). Not compiled: no Lean toolchain is available. Proofs are `sorry`;
  the obligations named in the docstrings are what is machine-checked, within their stated scope.
-/
import Mathlib

namespace ControllerBound

open Matrix

/-- The two-layer policy with zero biases and activation `σ`. -/
noncomputable def policy₂ {n : ℕ} (σ : ℝ → ℝ) (W₁ W₂ : Matrix (Fin n) (Fin n) ℝ) (s : Fin n → ℝ) : Fin n → ℝ :=
  fun i => σ ((W₂ *ᵥ fun j => σ ((W₁ *ᵥ s) j)) i)

/-- Eq. (10) under genuine pruning masks `W_k ↦ W_k ∘ M_k`, `M_k ∈ {0,1}`, is false: the Hilbert-type
matrix `H_ij = 1/(i − j + 1/2)` with lower-triangular masks violates it (width 128 with the identity
activation, width 256 with ReLU). Obligations: `controller_bound.eq10_genuine_pruning` (refuted),
`controller_bound.eq10_genuine_pruning_wide` (slow tier). -/
theorem eq10_genuine_pruning :
    ¬ ∀ (n : ℕ) (W₁ W₂ M₁ M₂ : Matrix (Fin n) (Fin n) ℝ) (s : Fin n → ℝ),
      (∀ i j, M₁ i j = 0 ∨ M₁ i j = 1) → (∀ i j, M₂ i j = 0 ∨ M₂ i j = 1) →
      ‖policy₂ id (W₁ ⊙ M₁) (W₂ ⊙ M₂) s - policy₂ id W₁ W₂ s‖ ≤
        ‖s‖ * (‖W₂‖ * ‖W₁ - W₁ ⊙ M₁‖ + ‖W₁‖ * ‖W₂ - W₂ ⊙ M₂‖) := by
  sorry

/-- Eq. (10) holds when no pruned layer's norm grows, `‖W_l + δW_l‖ ≤ ‖W_l‖` (scalar two-layer case).
Obligation: `controller_bound.eq10_norms_nonincreasing` (z3). -/
theorem eq10_norms_nonincreasing (s w₁ b₁ w₂ b₂ δ₁ δ₂ : ℝ)
    (h₁ : |w₁ + δ₁| ≤ |w₁|) (h₂ : |w₂ + δ₂| ≤ |w₂|) :
    |policy s (w₁ + δ₁) b₁ (w₂ + δ₂) b₂ - policy s w₁ b₁ w₂ b₂| ≤ C₁ s w₂ * |δ₁| + C₂ s w₁ b₁ * |δ₂| := by
  sorry

/-- The corrected bound with the layers pruned in decreasing order (layer 2 first): the constant of
layer 1 uses the pruned `w₂ + δ₂`. Obligation: `controller_bound.corrected_decreasing_order` (z3). -/
theorem corollary1_corrected_decreasing (s w₁ b₁ w₂ b₂ δ₁ δ₂ : ℝ) :
    |policy s (w₁ + δ₁) b₁ (w₂ + δ₂) b₂ - policy s w₁ b₁ w₂ b₂| ≤
      C₂ s w₁ b₁ * |δ₂| + C₁ s (w₂ + δ₂) * |δ₁| := by
  sorry

end ControllerBound
