/-
  Lean 4-style mirror of the Psy01-A Gaussian stress claims, positive rescaling, parameter
  stability and the pruning-error bound (`000_1ea2e46c3d2f64bf.txt`). Not compiled: no Lean
  toolchain is available. Proofs are `sorry`; the obligations named in the docstrings are what is
  machine-checked, within their stated scope. Reconstructions:
  `docs/reconstructions/psy01a_comparison_stress.md`.
-/
import Mathlib

namespace Psy01A

namespace StressDefs

/-- A four-layer ReLU network with hidden widths `n₁, n₂, n₃`: weights `B ℓ` and biases `c ℓ`. -/
structure Net (n₀ n₁ n₂ n₃ n₄ : ℕ) where
  B₁ : Matrix (Fin n₁) (Fin n₀) ℝ
  B₂ : Matrix (Fin n₂) (Fin n₁) ℝ
  B₃ : Matrix (Fin n₃) (Fin n₂) ℝ
  B₄ : Matrix (Fin n₄) (Fin n₃) ℝ
  c₁ : Fin n₁ → ℝ
  c₂ : Fin n₂ → ℝ
  c₃ : Fin n₃ → ℝ
  c₄ : Fin n₄ → ℝ

/-- Coordinatewise ReLU. -/
def relu {n : ℕ} (a : Fin n → ℝ) : Fin n → ℝ := fun i => max (a i) 0

variable {n₀ n₁ n₂ n₃ n₄ : ℕ}

/-- Noisy logits: noise is added after each hidden ReLU, `h_ℓ = ReLU(B_ℓ h_{ℓ−1} + c_ℓ) + σ G_ℓ`. -/
def logits (θ : Net n₀ n₁ n₂ n₃ n₄) (u : Fin n₀ → ℝ) (σ : ℝ) (G₁ : Fin n₁ → ℝ) (G₂ : Fin n₂ → ℝ)
    (G₃ : Fin n₃ → ℝ) : Fin n₄ → ℝ :=
  let h₁ := relu (θ.B₁.mulVec u + θ.c₁) + σ • G₁
  let h₂ := relu (θ.B₂.mulVec h₁ + θ.c₂) + σ • G₂
  let h₃ := relu (θ.B₃.mulVec h₂ + θ.c₃) + σ • G₃
  θ.B₄.mulVec h₃ + θ.c₄

/-- Operator norm of a matrix (Euclidean norms). -/
noncomputable def opNorm {m n : ℕ} (A : Matrix (Fin m) (Fin n) ℝ) : ℝ :=
  ⨆ x : {x : EuclideanSpace ℝ (Fin n) // ‖x‖ ≤ 1}, ‖(EuclideanSpace.equiv (Fin m) ℝ).symm (A.mulVec x.1)‖

/-- Euclidean norm of a coordinate vector. -/
noncomputable def enorm {n : ℕ} (x : Fin n → ℝ) : ℝ := Real.sqrt (∑ i, x i ^ 2)

/-- `C_θ = Σ_r √n_r Π_{ℓ>r} ‖B_ℓ‖_op`. -/
noncomputable def Cθ (θ : Net n₀ n₁ n₂ n₃ n₄) : ℝ :=
  Real.sqrt n₁ * opNorm θ.B₂ * opNorm θ.B₃ * opNorm θ.B₄ + Real.sqrt n₂ * opNorm θ.B₃ * opNorm θ.B₄ +
    Real.sqrt n₃ * opNorm θ.B₄

/-- `R_δ = √(2 log(2H/δ))`. -/
noncomputable def Rδ (H δ : ℝ) : ℝ := Real.sqrt (2 * Real.log (2 * H / δ))

end StressDefs

open StressDefs

variable {n₀ n₁ n₂ n₃ n₄ : ℕ}

/-- Noise at hidden layer `r` is propagated by the downstream operator norms.
Obligation: `psy01a.stress_path_bound` (z3 lemmas; scalar network end to end). -/
theorem stress_path_bound (θ : Net n₀ n₁ n₂ n₃ n₄) (u : Fin n₀ → ℝ) (σ : ℝ) (hσ : 0 ≤ σ)
    (G₁ : Fin n₁ → ℝ) (G₂ : Fin n₂ → ℝ) (G₃ : Fin n₃ → ℝ) :
    enorm (logits θ u σ G₁ G₂ G₃ - logits θ u 0 0 0 0) ≤
      σ * (opNorm θ.B₂ * opNorm θ.B₃ * opNorm θ.B₄ * enorm G₁ + opNorm θ.B₃ * opNorm θ.B₄ * enorm G₂ +
        opNorm θ.B₄ * enorm G₃) := by
  sorry

/-- The union bound behind `R_δ`: `H · 2 exp(−R_δ²/2) = δ`, with the Gaussian tail
`P(|G| > r) ≤ 2 exp(−r²/2)`; a clean margin above `2σR_δC_θ` survives the noise off an event of
probability `≤ δ`. Obligation: `psy01a.global_stress_certificate`. -/
theorem global_stress_certificate (H δ : ℝ) (hH : 0 < H) (hδ : 0 < δ) (hδ1 : δ < 1) :
    H * (2 * Real.exp (-(Rδ H δ) ^ 2 / 2)) = δ ∧
    ∀ r : ℝ, 0 ≤ r → Real.erfc (r / Real.sqrt 2) ≤ 2 * Real.exp (-r ^ 2 / 2) := by
  sorry

/-- Frozen gates: Bonferroni and containment for the three pairwise events, and the coupling
`|s − s̃| ≤ ε_gate`. Obligation: `psy01a.frozen_gate_certificate`. -/
theorem frozen_gate_certificate (s sFrozen εgate : ℝ) (p : Fin 3 → ℝ) (hs : 0 ≤ s ∧ s ≤ 1)
    (hcoupling : |s - sFrozen| ≤ εgate)
    (hlow : 1 - ∑ j, (1 - p j) ≤ sFrozen) (hup : ∀ j, sFrozen ≤ p j) :
    max 0 (1 - ∑ j, (1 - p j) - εgate) ≤ s ∧ ∀ j, s ≤ min 1 (p j + εgate) := by
  sorry

/-- Certified lower and upper bounds of the same stressed accuracy are consistent; on a concrete
network a seeded Monte-Carlo estimate is checked to lie between them.
Obligation: `psy01a.stress_bounds_bracket_montecarlo` (Monte-Carlo evidence: `supported` only). -/
theorem stress_bounds_bracket (L U S : ℝ) (hL : L ≤ S) (hU : S ≤ U) : L ≤ U := by
  sorry

/-- An upper bound for one network below a lower bound for the other compares them.
Obligation: `psy01a.strict_comparison_corollary` (z3). -/
theorem strict_comparison_corollary (S₀ S₁ L₀ U₁ : ℝ) (h₀ : L₀ ≤ S₀) (h₁ : S₁ ≤ U₁) (h : U₁ < L₀) :
    S₁ < S₀ := by
  sorry

/-- Identical masks and clean logits, different stress: the `t`-unit network's stressed accuracy
on a class-0 law is `Φ(t/σ)`, strictly increasing in `t`. Obligation: `psy01a.identical_masks_stress`. -/
theorem identical_masks_stress (σ : ℝ) (hσ : 0 < σ) :
    StrictMonoOn (fun t : ℝ => (1 + Real.erf (t / (σ * Real.sqrt 2))) / 2) (Set.Ioi 0) := by
  sorry

/-- Positive diagonal rescaling `B'_ℓ = D_ℓ B_ℓ D_{ℓ−1}⁻¹`, `c'_ℓ = D_ℓ c_ℓ` preserves the clean logits,
and its noisy logits are the original's with noises `D_ℓ⁻¹ G_ℓ`; the key step is
`ReLU(D a) = D ReLU(a)`. Obligation: `psy01a.positive_rescaling`. -/
theorem positive_rescaling {n : ℕ} (d : Fin n → ℝ) (hd : ∀ i, 0 < d i) (a : Fin n → ℝ) :
    relu (fun i => d i * a i) = fun i => d i * relu a i := by
  sorry

/-- Under common input and noise, the logit difference of two networks is bounded by the layerwise
parameter differences propagated by the downstream operator norms.
Obligation: `psy01a.parameter_stability`. -/
theorem parameter_stability (e₁ e₂ e₃ dz a₂ a₃ a₄ E₁ E₂ E₃ E₄ n₀' n₁' n₂' n₃' c₁ c₂ c₃ c₄ : ℝ)
    (hpos : 0 ≤ a₂ ∧ 0 ≤ a₃ ∧ 0 ≤ a₄)
    (h₁ : e₁ ≤ E₁ * n₀' + c₁) (h₂ : e₂ ≤ a₂ * e₁ + E₂ * n₁' + c₂) (h₃ : e₃ ≤ a₃ * e₂ + E₃ * n₂' + c₃)
    (h₄ : dz ≤ a₄ * e₃ + E₄ * n₃' + c₄) :
    dz ≤ a₂ * a₃ * a₄ * (E₁ * n₀' + c₁) + a₃ * a₄ * (E₂ * n₁' + c₂) + a₄ * (E₃ * n₂' + c₃) + (E₄ * n₃' + c₄) := by
  sorry

/-- Removing `r` entries of magnitude at most `q` moves a matrix by at most `q √r` in operator norm.
Obligation: `psy01a.pruning_error_bound`. -/
theorem pruning_error_bound {m n : ℕ} (W M : Matrix (Fin m) (Fin n) ℝ) (q : ℝ)
    (hM : ∀ i j, M i j = 0 ∨ M i j = 1) (hq : ∀ i j, M i j = 0 → |W i j| ≤ q) :
    opNorm (W - W.hadamard M) ≤ q * Real.sqrt ((Finset.univ.filter fun p : Fin m × Fin n => M p.1 p.2 = 0).card) := by
  sorry

end Psy01A
