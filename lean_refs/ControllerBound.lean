/-
  Lean 4-style mirror of the claims of `003_be90e9c95890d8e1.txt`
  (review of arXiv 2507.02953: pruning bounds for a neural controller).

  Not compiled: no Lean toolchain is available. Each declaration states the claim with its
  hypotheses; proofs are `sorry`. The Python obligations named in the docstrings are what is
  machine-checked, within their stated scope.
-/
import Mathlib

namespace ControllerBound

/-- Scalar two-layer ReLU policy `π(s) = relu(w₂ · relu(w₁ s + b₁) + b₂)`. -/
noncomputable def policy (s w₁ b₁ w₂ b₂ : ℝ) : ℝ :=
  max (w₂ * max (w₁ * s + b₁) 0 + b₂) 0

/-- Reconstructed constant of the first layer: `C₁(s) = ‖W₂‖ · ‖s‖`. -/
noncomputable def C₁ (s w₂ : ℝ) : ℝ := |w₂| * |s|

/-- Reconstructed constant of the second layer: `C₂(s) = ‖W₁‖ · ‖s‖ + ‖b₁‖`. -/
noncomputable def C₂ (s w₁ b₁ : ℝ) : ℝ := |w₁| * |s| + |b₁|

/-- Theorem 2 (single layer): perturbing one layer by `δ` moves the output by at most
`C_k(s) · |δ|`. Obligations: `controller_bound.theorem2_single_layer` (z3, scalar case),
`controller_bound.theorem2_matrices` (sampling, matrices). -/
theorem theorem2_single_layer (s w₁ b₁ w₂ b₂ δ : ℝ) :
    |policy s (w₁ + δ) b₁ w₂ b₂ - policy s w₁ b₁ w₂ b₂| ≤ C₁ s w₂ * |δ| ∧
    |policy s w₁ b₁ (w₂ + δ) b₂ - policy s w₁ b₁ w₂ b₂| ≤ C₂ s w₁ b₁ * |δ| := by
  sorry

/-- The bound of Theorem 2 is attained with a positive right-hand side, for each layer.
Obligation: `controller_bound.theorem2_tight`. -/
theorem theorem2_tight :
    (∃ s w₁ b₁ w₂ b₂ δ : ℝ, 0 < C₁ s w₂ * |δ| ∧
      |policy s (w₁ + δ) b₁ w₂ b₂ - policy s w₁ b₁ w₂ b₂| = C₁ s w₂ * |δ|) ∧
    (∃ s w₁ b₁ w₂ b₂ δ : ℝ, 0 < C₂ s w₁ b₁ * |δ| ∧
      |policy s w₁ b₁ (w₂ + δ) b₂ - policy s w₁ b₁ w₂ b₂| = C₂ s w₁ b₁ * |δ|) := by
  sorry

/-- Corollary 1 as stated (unpruned constants for every layer) is false.
Obligation: `controller_bound.corollary1_additive` (z3 counterexample, re-checked exactly). -/
theorem corollary1_additive :
    ¬ ∀ s w₁ b₁ w₂ b₂ δ₁ δ₂ : ℝ,
      |policy s (w₁ + δ₁) b₁ (w₂ + δ₂) b₂ - policy s w₁ b₁ w₂ b₂| ≤
        C₁ s w₂ * |δ₁| + C₂ s w₁ b₁ * |δ₂| := by
  sorry

/-- Corrected Corollary 1: the later layer's constant uses the perturbed earlier layer.
Obligation: `controller_bound.corollary1_corrected` (z3). -/
theorem corollary1_corrected (s w₁ b₁ w₂ b₂ δ₁ δ₂ : ℝ) :
    |policy s (w₁ + δ₁) b₁ (w₂ + δ₂) b₂ - policy s w₁ b₁ w₂ b₂| ≤
      C₁ s w₂ * |δ₁| + C₂ s (w₁ + δ₁) b₁ * |δ₂| := by
  sorry

/-- On an unbounded state space the uniform constant is infinite: the true deviation is
unbounded in `s`. Obligation: `controller_bound.unbounded_state_space` (sympy). -/
theorem unbounded_state_space_constant_infinite :
    ∀ M : ℝ, 0 < M → ∃ s : ℝ, M < |policy s (1 + 1) 0 1 0 - policy s 1 0 1 0| := by
  sorry

end ControllerBound
