/-
  Lean 4-style mirror of the Psy01-A exact-count pruning claims (`000_1ea2e46c3d2f64bf.txt`).
  Not compiled: no Lean toolchain is available. Proofs are `sorry`; the obligations named in
  the docstrings are what is machine-checked, within their stated scope.
-/
import Mathlib

namespace Psy01A

namespace PruningDefs

/-- The ranking key of flat position `i`: descending `|w i|`, ties by increasing index. -/
def rankBefore {n : ℕ} (w : Fin n → ℝ) (i j : Fin n) : Prop :=
  |w j| < |w i| ∨ (|w i| = |w j| ∧ i < j)

/-- `H_K(w, M)`: the eligible positions of `M` preceded in the ranking by fewer than `K`
eligible positions, i.e. the first `K` of `M`. -/
noncomputable def magnitudeKeep {n : ℕ} (w : Fin n → ℝ) (K : ℕ) (M : Finset (Fin n)) : Finset (Fin n) :=
  open Classical in M.filter (fun i => (M.filter (fun j => rankBefore w j i)).card < K)

/-- Survivor-based count after removing a fraction `f` of `K` survivors: `K − ⌊f K⌋`. -/
noncomputable def survivorKeep (K : ℕ) (f : ℝ) : ℕ := K - ⌊f * K⌋₊

/-- Accuracy of the accuracy-jump network at density `d` (class-0 test law): 1 iff `⌈4d⌉ ≥ 2`. -/
noncomputable def jumpAccuracy (d : ℝ) : ℝ := if 2 ≤ ⌈4 * d⌉ then 1 else 0

end PruningDefs

open PruningDefs

/-- `K = ⌈d N⌉` overshoots the target density by less than one position, and exactly hits it
at integer-aligned targets. Obligation: `psy01a.exact_retention_counts`. -/
theorem exact_retention_counts (N : ℕ) (hN : 1 ≤ N) (d : ℝ) (hd : 0 < d ∧ d ≤ 1) :
    0 ≤ (⌈d * N⌉₊ : ℝ) / N - d ∧ (⌈d * N⌉₊ : ℝ) / N - d < 1 / N ∧
      ((⌈d * N⌉₊ : ℝ) / N - d = 0 ↔ ∃ k : ℕ, d * N = k) := by
  sorry

/-- Survivor-based removal `K_f = K_e − ⌊f K_e⌋` realises `d_e (1 − f)` up to a gap in
`[0, (2 − f)/N)`; the constant is sharp and the one-shot bound `1/N` fails.
Obligation: `psy01a.survivor_count_gap`. -/
theorem survivor_count_gap (N : ℕ) (hN : 1 ≤ N) (d f : ℝ) (hd : 0 < d ∧ d ≤ 1) (hf : 0 ≤ f ∧ f < 1) :
    let Kf : ℝ := survivorKeep ⌈d * N⌉₊ f
    0 ≤ Kf / N - d * (1 - f) ∧ Kf / N - d * (1 - f) < (2 - f) / N := by
  sorry

/-- Structural and numerical density differ: an active mask position can hold a zero.
Obligation: `psy01a.structural_vs_numerical_density`. -/
theorem structural_vs_numerical_density :
    ∃ (W M : Matrix (Fin 2) (Fin 2) ℝ), (∀ i j, M i j = 0 ∨ M i j = 1) ∧
      (Finset.univ.filter (fun p : Fin 2 × Fin 2 => M p.1 p.2 ≠ 0)).card ≠
      (Finset.univ.filter (fun p : Fin 2 × Fin 2 => W p.1 p.2 * M p.1 p.2 ≠ 0)).card := by
  sorry

/-- Fixed masks commute: `(W ∘ M₁) ∘ M₂ = (W ∘ M₂) ∘ M₁`. Obligation: `psy01a.fixed_masks_commute`. -/
theorem fixed_masks_commute {m n : ℕ} (W M₁ M₂ : Matrix (Fin m) (Fin n) ℝ) :
    (W.hadamard M₁).hadamard M₂ = (W.hadamard M₂).hadamard M₁ := by
  sorry

/-- Fixed-weight nested pruning equals one-shot pruning at the same final count.
Obligation: `psy01a.nested_pruning_identity` (exhaustive on small matrices with ties). -/
theorem nested_pruning_identity {n : ℕ} (w : Fin n → ℝ) (M : Finset (Fin n)) (K₁ K₂ : ℕ)
    (h₂ : K₂ ≤ K₁) (h₁ : K₁ ≤ M.card) :
    magnitudeKeep w K₂ (magnitudeKeep w K₁ M) = magnitudeKeep w K₂ M := by
  sorry

/-- With a training step between the prunings the nesting identity can fail.
Obligation: `psy01a.learning_breaks_nesting`. -/
theorem learning_breaks_nesting :
    ∃ (w₀ w₁ : Fin 3 → ℝ), magnitudeKeep w₁ 1 (magnitudeKeep w₀ 2 Finset.univ) ≠
      magnitudeKeep w₀ 1 Finset.univ := by
  sorry

/-- A fresh Adam optimiser per invocation and retained Adam moments give different
fine-tuning maps. Obligation: `psy01a.fresh_adam_differs`. -/
theorem fresh_adam_differs :
    let lr : ℝ := 1 / 1000
    let β₁ : ℝ := 9 / 10
    let β₂ : ℝ := 999 / 1000
    let ε : ℝ := 1 / 10 ^ 8
    let θ₁ : ℝ := 1 - lr * 1 / (1 + ε)
    let fresh : ℝ := θ₁ - lr * θ₁ / (|θ₁| + ε)
    let m : ℝ := β₁ * (1 - β₁) * 1 + (1 - β₁) * θ₁
    let v : ℝ := β₂ * (1 - β₂) * 1 + (1 - β₂) * θ₁ ^ 2
    let kept : ℝ := θ₁ - lr * (m / (1 - β₁ ^ 2)) / (Real.sqrt (v / (1 - β₂ ^ 2)) + ε)
    fresh ≠ kept := by
  sorry

/-- Hard pruning is not Lipschitz in the density: no `L` bounds the accuracy jump.
Obligation: `psy01a.hard_pruning_not_lipschitz` (refuted, as the text says). -/
theorem hard_pruning_not_lipschitz :
    ¬ ∃ L : ℝ, ∀ d d' : ℝ, 0 < d → d ≤ 1 → 0 < d' → d' ≤ 1 →
      |jumpAccuracy d - jumpAccuracy d'| ≤ L * |d - d'| := by
  sorry

/-- A mask is the orthogonal coordinate projection `diag(vec M)` of parameter space, but not
a linear projection of hidden representations. Obligation: `psy01a.mask_is_coordinate_projection`. -/
theorem mask_is_coordinate_projection {n : ℕ} (M : Fin n → ℝ) (hM : ∀ i, M i = 0 ∨ M i = 1) :
    let P := Matrix.diagonal M
    P * P = P ∧ P.transpose = P ∧
    ¬ ∃ Q : ℝ →ₗ[ℝ] ℝ, ∀ x : Fin 2 → ℝ,
      Q (max 0 (2 * x 0 - x 1)) = max 0 (2 * x 0) := by
  sorry

end Psy01A
