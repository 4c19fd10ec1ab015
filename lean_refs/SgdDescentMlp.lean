/-
  Lean 4-style mirror of the ℝ-side lemmas of the MLP descent development described by
  `002_9648822bf1d4473c.txt` and `004_8327de8ce09705d9.txt` (dense → relu → dense → relu → dense,
  softmax cross-entropy, weights `W[input][output]`).

  Not compiled: no Lean toolchain is available. Each declaration states a lemma with its
  hypotheses in our own words; proofs are `sorry`. The Python obligations named in the
  docstrings are what is machine-checked, within their stated scope (small dimensions, or
  concrete segments). The descent capstones and every binary32 statement live elsewhere.
-/
import Mathlib

open Finset BigOperators

namespace SgdDescentMlp

/-- `(dense W b x)_k = ∑ⱼ xⱼ·Wⱼₖ + b_k`. -/
def dense {m n : ℕ} (W : Fin m → Fin n → ℝ) (b : Fin n → ℝ) (x : Fin m → ℝ) : Fin n → ℝ :=
  fun k => ∑ j, x j * W j k + b k

/-- Entrywise ReLU. -/
noncomputable def relu {n : ℕ} (z : Fin n → ℝ) : Fin n → ℝ := fun j => max (z j) 0

/-- `c_l` where `z_l > 0`, else `0`. -/
noncomputable def reluMask {n : ℕ} (z c : Fin n → ℝ) : Fin n → ℝ := fun l => if 0 < z l then c l else 0

/-- The ℓ1 mass of a weight perturbation (all entries). -/
noncomputable def wMass {m n : ℕ} (e : Fin m → Fin n → ℝ) : ℝ := ∑ i, ∑ j, |e i j|

/-- Margins freeze signs. Obligation: `lean_mlp.sign_stable_of_close` (z3, the full scalar lemma). -/
theorem sign_stable_of_close (z z' c : ℝ) (hclose : |z' - z| ≤ c) (hmargin : c < |z|) :
    (0 < z → 0 < z') ∧ (z < 0 → z' < 0) := by
  sorry

/-- ReLU is entrywise 1-Lipschitz. Obligation: `lean_mlp.relu_lipschitz` (z3). -/
theorem relu_lipschitz (x y : ℝ) : |max x 0 - max y 0| ≤ |x - y| := by
  sorry

/-- The ℓ1→ℓ∞ bound of a dense layer. Obligation: `lean_mlp.dense_drift_l1_linf` (z3, d_in ≤ 3). -/
theorem dense_drift_l1_linf {m n : ℕ} (W : Fin m → Fin n → ℝ) (b : Fin n → ℝ) (x x' : Fin m → ℝ) (w : ℝ)
    (hW : ∀ j k, |W j k| ≤ w) (k : Fin n) :
    |dense W b x' k - dense W b x k| ≤ w * ∑ j, |x' j - x j| := by
  sorry

/-- Column ℓ1 masses tile the flat ℓ1 mass (via `finProdFinEquiv`).
Obligation: `lean_mlp.col_l1_mass_tiles` (enumeration + sympy, shapes up to 4×4). -/
theorem col_l1_mass_tiles {m n : ℕ} (e : Fin (m * n) → ℝ) :
    ∑ j : Fin n, ∑ i : Fin m, |e (finProdFinEquiv (i, j))| = ∑ p, |e p| := by
  sorry

/-- The dense pre-activation difference under a weight perturbation, exactly.
Obligation: `lean_mlp.dense_weight_diff_eq` (sympy). -/
theorem dense_weight_diff_eq {m n : ℕ} (W e : Fin m → Fin n → ℝ) (b : Fin n → ℝ) (x : Fin m → ℝ) (j : Fin n) :
    dense (W + e) b x j - dense W b x j = ∑ i, x i * e i j := by
  sorry

/-- Column-refined drift. Obligation: `lean_mlp.col_drift_refined` (z3, d_in ≤ 4). -/
theorem col_drift_refined {m n : ℕ} (e : Fin m → Fin n → ℝ) (x : Fin m → ℝ) (a : ℝ)
    (hx : ∀ i, |x i| ≤ a) (j : Fin n) :
    |∑ i, x i * e i j| ≤ a * ∑ i, |e i j| := by
  sorry

/-- Summed drift is at most `a·‖e‖₁`. Obligation: `lean_mlp.total_drift_le` (z3, up to 2×3). -/
theorem total_drift_le {m n : ℕ} (e : Fin m → Fin n → ℝ) (x : Fin m → ℝ) (a : ℝ) (hx : ∀ i, |x i| ≤ a) :
    ∑ j, |∑ i, x i * e i j| ≤ a * wMass e := by
  sorry

/-- 002's parameter-map form: a per-entry drift inside the margin freezes every sign on the
segment. Obligation: `lean_mlp.segment_margin_freezes` (z3, parameter dimension ≤ 4). -/
theorem segment_margin_freezes {p n : ℕ} (Z : (Fin p → ℝ) → Fin n → ℝ) (v e : Fin p → ℝ) (ρ D : ℝ)
    (hD : ∑ q, |e q| ≤ D)
    (hZ : ∀ t ∈ Set.Icc (0 : ℝ) 1, ∀ k, |Z (v + t • e) k - Z v k| ≤ ρ * ∑ q, |t * e q|)
    (k : Fin n) (hmargin : ρ * D < |Z v k|) :
    ∀ t ∈ Set.Icc (0 : ℝ) 1, (0 < Z v k → 0 < Z (v + t • e) k) ∧ (Z v k < 0 → Z (v + t • e) k < 0) := by
  sorry

/-- The margin keeps the pre-activation off the kink along the segment.
Obligation: `lean_mlp.margin_keeps_offkink` (z3, shapes up to 3×2). -/
theorem margin_keeps_offkink {m n : ℕ} (W e : Fin m → Fin n → ℝ) (b : Fin n → ℝ) (x : Fin m → ℝ) (a D : ℝ)
    (hx : ∀ i, |x i| ≤ a) (hD : wMass e ≤ D) (k : Fin n) (hmargin : a * D < |dense W b x k|) :
    ∀ t ∈ Set.Icc (0 : ℝ) 1,
      (0 < dense W b x k → 0 < dense (W + t • e) b x k) ∧ (dense W b x k < 0 → dense (W + t • e) b x k < 0) := by
  sorry

/-- The layer-1 margin: drift of the middle pre-activation at most `w₁·a·D`.
Obligation: `lean_mlp.margin1_keeps_offkink` (z3, W₀ up to 1×2). -/
theorem margin1_keeps_offkink {d₀ d₁ d₂ : ℕ} (W₀ e : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (x : Fin d₀ → ℝ) (a w₁ D : ℝ)
    (hx : ∀ i, |x i| ≤ a) (hW₁ : ∀ j l, |W₁ j l| ≤ w₁) (hD : wMass e ≤ D) (l : Fin d₂)
    (hmargin : w₁ * a * D < |dense W₁ b₁ (relu (dense W₀ b₀ x)) l|) :
    ∀ t ∈ Set.Icc (0 : ℝ) 1,
      (0 < dense W₁ b₁ (relu (dense W₀ b₀ x)) l → 0 < dense W₁ b₁ (relu (dense (W₀ + t • e) b₀ x)) l) ∧
      (dense W₁ b₁ (relu (dense W₀ b₀ x)) l < 0 → dense W₁ b₁ (relu (dense (W₀ + t • e) b₀ x)) l < 0) := by
  sorry

/-- Softmax cross-entropy of logits `y` at `label`. -/
noncomputable def ce {n : ℕ} (y : Fin n → ℝ) (label : Fin n) : ℝ := Real.log (∑ k, Real.exp (y k)) - y label

/-- `softmax − onehot`. -/
noncomputable def headCot {n : ℕ} (y : Fin n → ℝ) (label : Fin n) : Fin n → ℝ :=
  fun k => Real.exp (y k) / (∑ q, Real.exp (y q)) - if k = label then 1 else 0

/-- Loss input-gradient at the logits' input. Obligation: `lean_mlp.loss_grad_logit_input` (sympy). -/
theorem loss_grad_logit_input {m n : ℕ} (W₂ : Fin m → Fin n → ℝ) (b₂ : Fin n → ℝ) (label : Fin n)
    (y : Fin m → ℝ) (j : Fin m) :
    HasDerivAt (fun s => ce (dense W₂ b₂ (Function.update y j s)) label)
      (∑ k, W₂ j k * headCot (dense W₂ b₂ y) label k) (y j) := by
  sorry

/-- Loss input-gradient through one ReLU, off the kink. Obligation: `lean_mlp.loss_grad_through_relu` (sympy). -/
theorem loss_grad_through_relu {m n : ℕ} (W₂ : Fin m → Fin n → ℝ) (b₂ : Fin n → ℝ) (label : Fin n)
    (z : Fin m → ℝ) (hz : ∀ j, z j ≠ 0) (j : Fin m) :
    HasDerivAt (fun s => ce (dense W₂ b₂ (relu (Function.update z j s))) label)
      ((if 0 < z j then 1 else 0) * ∑ k, W₂ j k * headCot (dense W₂ b₂ (relu z)) label k) (z j) := by
  sorry

/-- The two-mask form through relu → dense → relu.
Obligation: `lean_mlp.loss_grad_through_relu_dense_relu` (sympy). -/
theorem loss_grad_through_relu_dense_relu {d₁ d₂ d₃ : ℕ} (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ)
    (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ) (label : Fin d₃) (z₀ : Fin d₁ → ℝ)
    (hz0 : ∀ j, z₀ j ≠ 0) (hz1 : ∀ l, dense W₁ b₁ (relu z₀) l ≠ 0) (j : Fin d₁) :
    HasDerivAt (fun s => ce (dense W₂ b₂ (relu (dense W₁ b₁ (relu (Function.update z₀ j s))))) label)
      ((if 0 < z₀ j then 1 else 0) * ∑ l, W₁ j l * (if 0 < dense W₁ b₁ (relu z₀) l then 1 else 0) *
        ∑ k, W₂ l k * headCot (dense W₂ b₂ (relu (dense W₁ b₁ (relu z₀)))) label k) (z₀ j) := by
  sorry

/-- ReLU then dense: an input drift of ℓ1 mass `B` moves each output entry by at most `w·B`.
Obligation: `lean_mlp.relu_dense_drift` (z3, width ≤ 2). -/
theorem relu_dense_drift {m n : ℕ} (W : Fin m → Fin n → ℝ) (b : Fin n → ℝ) (y y' : Fin m → ℝ) (w B : ℝ)
    (hW : ∀ j k, |W j k| ≤ w) (hB : ∑ j, |y' j - y j| ≤ B) (k : Fin n) :
    |dense W b (relu y') k - dense W b (relu y) k| ≤ w * B := by
  sorry

/-- The MLP loss at one example, as a function of every parameter. -/
noncomputable def mlpLoss {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃) : ℝ :=
  ce (dense W₂ b₂ (relu (dense W₁ b₁ (relu (dense W₀ b₀ x))))) label

/-- The closed form of ∂L/∂W₁: `a₀ᵢ·relu'(z₁ⱼ)·∑ₖ W₂ⱼₖ·(softmax − onehot)ₖ`. -/
noncomputable def hiddenGrad {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃) : Fin d₁ → Fin d₂ → ℝ :=
  fun i j => relu (dense W₀ b₀ x) i * (if 0 < dense W₁ b₁ (relu (dense W₀ b₀ x)) j then 1 else 0) *
    ∑ k, W₂ j k * headCot (dense W₂ b₂ (relu (dense W₁ b₁ (relu (dense W₀ b₀ x))))) label k

/-- The closed form of ∂L/∂W₀: `xᵢ·relu'(z₀ⱼ)·∑ₗ W₁ⱼₗ·relu'(z₁ₗ)·∑ₖ W₂ₗₖ·(softmax − onehot)ₖ`. -/
noncomputable def inputGrad {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃) : Fin d₀ → Fin d₁ → ℝ :=
  fun i j => x i * (if 0 < dense W₀ b₀ x j then 1 else 0) *
    ∑ l, W₁ j l * (if 0 < dense W₁ b₁ (relu (dense W₀ b₀ x)) l then 1 else 0) *
      ∑ k, W₂ l k * headCot (dense W₂ b₂ (relu (dense W₁ b₁ (relu (dense W₀ b₀ x))))) label k

namespace MlpSlot

/-- The general segment-Lipschitz form (reconstructed constant `2·d₃·w₂²·ρ²/(1 − 2·w₂·ρ·D)`):
entries of the slot pre-activation move by ≤ σ·‖t·e‖₁ (hZ), its ℓ1 drift is ≤ ρ·‖t·e‖₁ (hZ1),
the margin σ·D < |Z v| freezes the mask, the gradient is a fixed row of mass ≤ ρ contracted
with the mask and the W₂ head. Obligation: `lean_mlp.mlp_slot_loss_grad_lipschitz` (rigorous
intervals at the two instances the seeds name, concrete segments only). -/
theorem loss_grad_lipschitz {p d₂ d₃ : ℕ} (Z : (Fin p → ℝ) → Fin d₂ → ℝ) (grad : (Fin p → ℝ) → Fin p → ℝ)
    (J : Fin p → Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ) (label : Fin d₃)
    (Q : (Fin p → ℝ) → Prop) (v e : Fin p → ℝ) (σ ρ w₂ D : ℝ)
    (hW₂ : ∀ l k, |W₂ l k| ≤ w₂) (hJ : ∀ q, ∑ l, |J q l| ≤ ρ) (hD : ∑ q, |e q| ≤ D)
    (hZ : ∀ t ∈ Set.Icc (0 : ℝ) 1, ∀ l, |Z (v + t • e) l - Z v l| ≤ σ * ∑ q, |t * e q|)
    (hZ1 : ∀ t ∈ Set.Icc (0 : ℝ) 1, ∑ l, |Z (v + t • e) l - Z v l| ≤ ρ * ∑ q, |t * e q|)
    (hQ : ∀ t ∈ Set.Icc (0 : ℝ) 1, Q (v + t • e))
    (hgrad : ∀ u, Q u → (∀ l, Z u l ≠ 0) → ∀ q,
      grad u q = ∑ l, J q l * (if 0 < Z u l then 1 else 0) * ∑ k, W₂ l k * headCot (dense W₂ b₂ (relu (Z u))) label k)
    (hmargin : ∀ l, σ * D < |Z v l|) (hsmall : 2 * w₂ * ρ * D < 1) :
    ∀ t ∈ Set.Icc (0 : ℝ) 1, ∀ q,
      |grad (v + t • e) q - grad v q| ≤ 2 * d₃ * w₂ ^ 2 * ρ ^ 2 / (1 - 2 * w₂ * ρ * D) * (t * D) := by
  sorry

end MlpSlot

/-- The loss-of-W₁ map is differentiable off the hidden kinks.
Obligation: `lean_mlp.mlp_hidden_differentiable` (sympy, d = (2,2,2,2)). -/
theorem mlp_hidden_differentiable {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃)
    (hz : ∀ j, dense W₁ b₁ (relu (dense W₀ b₀ x)) j ≠ 0) :
    DifferentiableAt ℝ (fun W => mlpLoss W₀ b₀ W b₁ W₂ b₂ x label) W₁ := by
  sorry

/-- The loss-of-W₀ map is differentiable where both pre-activations are off the kinks.
Obligation: `lean_mlp.mlp_input_differentiable` (sympy, d = (2,2,2,2)). -/
theorem mlp_input_differentiable {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃)
    (hz0 : ∀ j, dense W₀ b₀ x j ≠ 0) (hz1 : ∀ l, dense W₁ b₁ (relu (dense W₀ b₀ x)) l ≠ 0) :
    DifferentiableAt ℝ (fun W => mlpLoss W b₀ W₁ b₁ W₂ b₂ x label) W₀ := by
  sorry

/-- ∂L/∂W₁ᵢⱼ = a₀ᵢ·relu'(z₁ⱼ)·∑ₖ W₂ⱼₖ·(softmax − onehot)ₖ off the kinks.
Obligation: `lean_mlp.mlp_hidden_loss_grad_at` (sympy, every sign pattern). -/
theorem mlp_hidden_loss_gradAt {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃)
    (hz : ∀ j, dense W₁ b₁ (relu (dense W₀ b₀ x)) j ≠ 0) (i : Fin d₁) (j : Fin d₂) :
    HasDerivAt (fun s => mlpLoss W₀ b₀ (Function.update W₁ i (Function.update (W₁ i) j s)) b₁ W₂ b₂ x label)
      (hiddenGrad W₀ b₀ W₁ b₁ W₂ b₂ x label i j) (W₁ i j) := by
  sorry

/-- ∂L/∂W₀ᵢⱼ = xᵢ·relu'(z₀ⱼ)·∑ₗ W₁ⱼₗ·relu'(z₁ₗ)·∑ₖ W₂ₗₖ·(softmax − onehot)ₖ at a two-margin point.
Obligation: `lean_mlp.mlp_input_loss_grad_at` (sympy, every sign pattern). -/
theorem mlp_input_loss_gradAt {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃)
    (hz0 : ∀ j, dense W₀ b₀ x j ≠ 0) (hz1 : ∀ l, dense W₁ b₁ (relu (dense W₀ b₀ x)) l ≠ 0) (i : Fin d₀) (j : Fin d₁) :
    HasDerivAt (fun s => mlpLoss (Function.update W₀ i (Function.update (W₀ i) j s)) b₀ W₁ b₁ W₂ b₂ x label)
      (inputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label i j) (W₀ i j) := by
  sorry

/-- Hidden-layer logit drift `≤ w₂·a·‖e‖₁`, no width factor.
Obligation: `lean_mlp.mlp_hidden_logit_drift` (z3, W₁ up to 2×1 / 1×2). -/
theorem mlp_hidden_logit_drift {d₁ d₂ d₃ : ℕ} (W₁ e : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ)
    (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ) (a₀ : Fin d₁ → ℝ) (a w₂ : ℝ)
    (ha : ∀ i, |a₀ i| ≤ a) (hW₂ : ∀ j k, |W₂ j k| ≤ w₂) (k : Fin d₃) :
    |dense W₂ b₂ (relu (dense (W₁ + e) b₁ a₀)) k - dense W₂ b₂ (relu (dense W₁ b₁ a₀)) k| ≤ w₂ * a * wMass e := by
  sorry

/-- Input-layer logit drift `≤ w₂·d₂·w₁·a·‖e‖₁`.
Obligation: `lean_mlp.mlp_input_logit_drift` (z3, shapes 1×1×1, 1×1×2, 2×1×1). -/
theorem mlp_input_logit_drift {d₀ d₁ d₂ d₃ : ℕ} (W₀ e : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (a w₁ w₂ : ℝ) (hx : ∀ i, |x i| ≤ a) (hW₁ : ∀ j l, |W₁ j l| ≤ w₁)
    (hW₂ : ∀ l k, |W₂ l k| ≤ w₂) (k : Fin d₃) :
    |dense W₂ b₂ (relu (dense W₁ b₁ (relu (dense (W₀ + e) b₀ x)))) k -
      dense W₂ b₂ (relu (dense W₁ b₁ (relu (dense W₀ b₀ x)))) k| ≤ w₂ * d₂ * w₁ * a * wMass e := by
  sorry

/-- Hidden-layer segment-Lipschitz gradient, constant `2·d₃·w₂²·a²/(1 − 2·w₂·a·D)`.
Obligations: `lean_mlp.mlp_hidden_loss_grad_lipschitz` (rigorous intervals at concrete
segments), `lean_mlp.grad_lipschitz_search` (numpy, evidence). -/
theorem mlp_hidden_loss_grad_lipschitz {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃)
    (e : Fin d₁ → Fin d₂ → ℝ) (a w₂ D : ℝ) (ha : ∀ i, |relu (dense W₀ b₀ x) i| ≤ a)
    (hW₂ : ∀ j k, |W₂ j k| ≤ w₂) (hD : wMass e ≤ D)
    (hmargin : ∀ j, a * D < |dense W₁ b₁ (relu (dense W₀ b₀ x)) j|) (hsmall : 2 * w₂ * a * D < 1) :
    ∀ t ∈ Set.Icc (0 : ℝ) 1, ∀ i j,
      |hiddenGrad W₀ b₀ (W₁ + t • e) b₁ W₂ b₂ x label i j - hiddenGrad W₀ b₀ W₁ b₁ W₂ b₂ x label i j| ≤
        2 * d₃ * w₂ ^ 2 * a ^ 2 / (1 - 2 * w₂ * a * D) * (t * D) := by
  sorry

/-- Input-layer segment-Lipschitz gradient, constant `2·d₃·d₂²·w₁²·w₂²·a²/(1 − 2·d₂·w₁·w₂·a·D)`.
Obligations: `lean_mlp.mlp_input_loss_grad_lipschitz` (rigorous intervals at concrete segments),
`lean_mlp.grad_lipschitz_search` (numpy, evidence). -/
theorem mlp_input_loss_grad_lipschitz {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃)
    (e : Fin d₀ → Fin d₁ → ℝ) (a w₁ w₂ D : ℝ) (ha : ∀ i, |x i| ≤ a) (hW₁ : ∀ j l, |W₁ j l| ≤ w₁)
    (hW₂ : ∀ l k, |W₂ l k| ≤ w₂) (hD : wMass e ≤ D)
    (hmargin0 : ∀ j, a * D < |dense W₀ b₀ x j|)
    (hmargin1 : ∀ l, w₁ * a * D < |dense W₁ b₁ (relu (dense W₀ b₀ x)) l|)
    (hsmall : 2 * d₂ * w₁ * w₂ * a * D < 1) :
    ∀ t ∈ Set.Icc (0 : ℝ) 1, ∀ i j,
      |inputGrad (W₀ + t • e) b₀ W₁ b₁ W₂ b₂ x label i j - inputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label i j| ≤
        2 * d₃ * d₂ ^ 2 * w₁ ^ 2 * w₂ ^ 2 * a ^ 2 / (1 - 2 * d₂ * w₁ * w₂ * a * D) * (t * D) := by
  sorry

/-- `relu'(z_l)·∑ₖ W_lk·c_k = reluMask z (dense (fun j i' => W i' j) 0 c) l`.
Obligation: `lean_mlp.relu_mask_dense_transpose_eq` (sympy, exhaustive over sign patterns). -/
theorem reluMask_dense_transpose_eq {m n : ℕ} (W : Fin m → Fin n → ℝ) (z : Fin m → ℝ) (c : Fin n → ℝ) (l : Fin m) :
    (if 0 < z l then 1 else 0) * ∑ k, W l k * c k = reluMask z (dense (fun j i' => W i' j) 0 c) l := by
  sorry

/-- The hidden gradient's if-then-else closed form equals its reluMask form.
Obligation: `lean_mlp.mlp_hidden_loss_grad_at_relu_mask` (sympy, every sign pattern). -/
theorem mlp_hidden_loss_gradAt_reluMask {d₁ d₂ d₃ : ℕ} (a₀ : Fin d₁ → ℝ) (z₁ : Fin d₂ → ℝ)
    (W₂ : Fin d₂ → Fin d₃ → ℝ) (c : Fin d₃ → ℝ) (hz : ∀ j, z₁ j ≠ 0) (i : Fin d₁) (j : Fin d₂) :
    a₀ i * ((if 0 < z₁ j then 1 else 0) * ∑ k, W₂ j k * c k) =
      a₀ i * reluMask z₁ (dense (fun j' i' => W₂ i' j') 0 c) j := by
  sorry

/-- The input gradient's two-mask form equals the nested reluMask form.
Obligation: `lean_mlp.mlp_input_loss_grad_at_relu_mask` (sympy, every sign pattern). -/
theorem mlp_input_loss_gradAt_reluMask {d₀ d₁ d₂ d₃ : ℕ} (x : Fin d₀ → ℝ) (z₀ : Fin d₁ → ℝ) (z₁ : Fin d₂ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (c : Fin d₃ → ℝ)
    (hz0 : ∀ j, z₀ j ≠ 0) (hz1 : ∀ l, z₁ l ≠ 0) (i : Fin d₀) (j : Fin d₁) :
    x i * ((if 0 < z₀ j then 1 else 0) * ∑ l, W₁ j l * ((if 0 < z₁ l then 1 else 0) * ∑ k, W₂ l k * c k)) =
      x i * reluMask z₀ (dense (fun j' i' => W₁ i' j') 0 (reluMask z₁ (dense (fun j' i' => W₂ i' j') 0 c))) j := by
  sorry

/-- The best first-order constant of the segment-Lipschitz chain (not in the sources: the
referee's sharpness question). At first order in the step the frozen-mask gradient drift is
bounded by w₂²·ρ²·‖e‖₁ (ρ = a hidden, ρ = d₂·w₁·a input) and this is attained; the stated constant
is (2·d₃/(1 − 2·w₂·ρ·D)) times it. Obligation: `lean_mlp.grad_lipschitz_best_constant`. -/
theorem grad_lipschitz_best_constant (d₃ : ℕ) (w₂ ρ D : ℝ) (hsmall : 2 * w₂ * ρ * D < 1) (hρ : 0 < ρ) (hw : 0 < w₂) :
    2 * d₃ * w₂ ^ 2 * ρ ^ 2 / (1 - 2 * w₂ * ρ * D) = (2 * d₃ / (1 - 2 * w₂ * ρ * D)) * (w₂ ^ 2 * ρ ^ 2) := by
  sorry

/-- A family of segments (t = 2⁻ⁿ) meeting every hypothesis of the Lipschitz lemmas whose
drift/(t·D) is ≥ (1 − 2^{−(2n+6)})·w₂²·ρ² (hidden layer shown; the input layer likewise), for
n = 1…6. Obligation: `lean_mlp.grad_lipschitz_witness_family`. -/
theorem grad_lipschitz_witness_family (n : ℕ) :
    ∃ (W₀ : Fin 2 → Fin 3 → ℝ) (b₀ : Fin 3 → ℝ) (W₁ : Fin 3 → Fin 2 → ℝ) (b₁ : Fin 2 → ℝ)
      (W₂ : Fin 2 → Fin 3 → ℝ) (b₂ : Fin 3 → ℝ) (x : Fin 2 → ℝ) (e : Fin 3 → Fin 2 → ℝ) (a w₂ D : ℝ),
      (∀ i, |relu (dense W₀ b₀ x) i| ≤ a) ∧ (∀ j k, |W₂ j k| ≤ w₂) ∧ wMass e ≤ D ∧
      (∀ j, a * D < |dense W₁ b₁ (relu (dense W₀ b₀ x)) j|) ∧ 2 * w₂ * a * D < 1 ∧
      |hiddenGrad W₀ b₀ (W₁ + (1 / 2 ^ n : ℝ) • e) b₁ W₂ b₂ x 0 0 0 - hiddenGrad W₀ b₀ W₁ b₁ W₂ b₂ x 0 0 0| ≥
        (1 - 1 / 2 ^ (2 * n + 6)) * w₂ ^ 2 * a ^ 2 * ((1 / 2 ^ n) * D) := by
  sorry

end SgdDescentMlp
