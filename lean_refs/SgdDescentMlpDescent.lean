/-
  Lean 4-style mirror of the MLP descent capstones of `002_9648822bf1d4473c.txt` and
  `004_8327de8ce09705d9.txt` (`SgdDescentMlp`, the capstone half; the ℝ-side lemmas and the definitions used here —
  `dense`, `relu`, `ce`, `headCot`, `mlpLoss`, `hiddenGrad`, `inputGrad`, `wMass` — are in
  `SgdDescentMlp.lean`). The MLP is dense → relu → dense → relu → dense with softmax CE.

  Not compiled: no Lean toolchain is available. Each declaration states the claim with its
  hypotheses; proofs are `sorry`. The Python obligations named in the docstrings are what is
  machine-checked, within their stated scope. The dominance conditions are reconstructions
  (see `obligations/lean_mlp/descent.py`).
-/
import Mathlib
import SgdDescentMlp

namespace SgdDescentMlp

/-- The squared ℓ2 norm of a weight matrix (its ℓ1 mass is `wMass`, in `SgdDescentMlp.lean`). -/
noncomputable def wSq {m n : ℕ} (G : Fin m → Fin n → ℝ) : ℝ := ∑ i, ∑ j, (G i j) ^ 2

/-- The closed form of ∂L/∂W₂: `a₁ᵢ·(softmax − onehot)_j` (the linear net's gradient at `a₁`). -/
noncomputable def outputGrad {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃) : Fin d₂ → Fin d₃ → ℝ :=
  fun i j => relu (dense W₁ b₁ (relu (dense W₀ b₀ x))) i *
    headCot (dense W₂ b₂ (relu (dense W₁ b₁ (relu (dense W₀ b₀ x))))) label j

/-- The two (reconstructed) dominance conditions at oracle accuracy `η`, gradient `G`,
segment-Lipschitz constant `C` and step radius `D`. -/
def Dominance {m n : ℕ} (lr η C D : ℝ) (G : Fin m → Fin n → ℝ) : Prop :=
  η * wMass G ≤ wSq G / 4 ∧ C * D ^ 2 ≤ lr * wSq G / 2

/-- One inexact SGD step on the output weights `W₂` decreases one example's loss by at least
`lr·‖∇L‖₂²/2`: `SgdDescentLinear.linear_sgd_descends` at the hidden activation `a₁` (no margin:
no ReLU between `W₂` and the loss). `G` is the certified gradient `a₁ᵢ·(softmax − onehot)_j`,
`a` bounds `a₁`. Obligations: `lean_mlp.mlp_output_descent_implication` (z3) and
`lean_mlp.mlp_output_sgd_descends_example` (intervals, at the shipped example). -/
theorem mlp_output_sgd_descends {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ g G : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃) (lr η a : ℝ) (hlr : 0 < lr) (hη : 0 ≤ η)
    (hG : G = outputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label)
    (ha : ∀ i, |relu (dense W₁ b₁ (relu (dense W₀ b₀ x))) i| ≤ a)
    (horacle : ∀ i j, |g i j - G i j| ≤ η)
    (hsmall : 2 * a * (lr * (wMass G + d₂ * d₃ * η)) < 1)
    (hdom : Dominance lr η (2 * a ^ 2 / (1 - 2 * a * (lr * (wMass G + d₂ * d₃ * η))))
      (lr * (wMass G + d₂ * d₃ * η)) G) :
    mlpLoss W₀ b₀ W₁ b₁ (fun i j => W₂ i j - lr * g i j) b₂ x label - mlpLoss W₀ b₀ W₁ b₁ W₂ b₂ x label ≤
      -(lr * wSq G / 2) := by
  sorry

/-- One inexact SGD step on the hidden weights `W₁` (example `(a₀, label)`, every other
parameter fixed) decreases the loss by at least `lr·‖∇L‖₂²/2`, under the margin
`a·D < |z₁ⱼ|` at `D = lr·(‖∇L‖₁ + d₁d₂·η)`, the small step `2·w₂·a·D < 1`, the constant
`C = 2·d₃·w₂²·a²/(1 − 2·w₂·a·D)` and the two dominance conditions. `G` is the certified
gradient (`mlp_hidden_loss_gradAt`). Obligations: `lean_mlp.mlp_hidden_descent_implication`
(z3) and `lean_mlp.mlp_hidden_sgd_descends_example` (intervals, at the shipped example). -/
theorem mlp_hidden_sgd_descends {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ g G : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃) (lr η a w₂ : ℝ) (hlr : 0 < lr) (hη : 0 ≤ η)
    (hG : G = hiddenGrad W₀ b₀ W₁ b₁ W₂ b₂ x label)
    (ha : ∀ i, |relu (dense W₀ b₀ x) i| ≤ a) (hw₂ : ∀ j k, |W₂ j k| ≤ w₂)
    (horacle : ∀ i j, |g i j - G i j| ≤ η)
    (hmargin : ∀ j, a * (lr * (wMass G + d₁ * d₂ * η)) < |dense W₁ b₁ (relu (dense W₀ b₀ x)) j|)
    (hsmall : 2 * w₂ * a * (lr * (wMass G + d₁ * d₂ * η)) < 1)
    (hdom : Dominance lr η (2 * d₃ * w₂ ^ 2 * a ^ 2 / (1 - 2 * w₂ * a * (lr * (wMass G + d₁ * d₂ * η))))
      (lr * (wMass G + d₁ * d₂ * η)) G) :
    mlpLoss W₀ b₀ (fun i j => W₁ i j - lr * g i j) b₁ W₂ b₂ x label - mlpLoss W₀ b₀ W₁ b₁ W₂ b₂ x label ≤
      -(lr * wSq G / 2) := by
  sorry

/-- One inexact SGD step on the input weights `W₀` decreases the loss by at least
`lr·‖∇L‖₂²/2`, under both margins `a·D < |z₀ⱼ|`, `w₁·a·D < |z₁ₗ|` at
`D = lr·(‖∇L‖₁ + d₀d₁·η)`, the small step `2·d₂·w₁·w₂·a·D < 1`, the constant
`C = 2·d₃·d₂²·w₁²·w₂²·a²/(1 − 2·d₂·w₁·w₂·a·D)` and the two dominance conditions. Obligations:
`lean_mlp.mlp_input_descent_implication` (z3) and `lean_mlp.mlp_input_sgd_descends_example`
(intervals, at the shipped example). -/
theorem mlp_input_sgd_descends {d₀ d₁ d₂ d₃ : ℕ} (W₀ g G : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃) (lr η a w₁ w₂ : ℝ) (hlr : 0 < lr) (hη : 0 ≤ η)
    (hG : G = inputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label)
    (ha : ∀ i, |x i| ≤ a) (hw₁ : ∀ j l, |W₁ j l| ≤ w₁) (hw₂ : ∀ j k, |W₂ j k| ≤ w₂)
    (horacle : ∀ i j, |g i j - G i j| ≤ η)
    (hmargin0 : ∀ j, a * (lr * (wMass G + d₀ * d₁ * η)) < |dense W₀ b₀ x j|)
    (hmargin1 : ∀ l, w₁ * a * (lr * (wMass G + d₀ * d₁ * η)) < |dense W₁ b₁ (relu (dense W₀ b₀ x)) l|)
    (hsmall : 2 * d₂ * w₁ * w₂ * a * (lr * (wMass G + d₀ * d₁ * η)) < 1)
    (hdom : Dominance lr η (2 * d₃ * d₂ ^ 2 * w₁ ^ 2 * w₂ ^ 2 * a ^ 2 /
      (1 - 2 * d₂ * w₁ * w₂ * a * (lr * (wMass G + d₀ * d₁ * η)))) (lr * (wMass G + d₀ * d₁ * η)) G) :
    mlpLoss (fun i j => W₀ i j - lr * g i j) b₀ W₁ b₁ W₂ b₂ x label - mlpLoss W₀ b₀ W₁ b₁ W₂ b₂ x label ≤
      -(lr * wSq G / 2) := by
  sorry

/-- The joint all-layers step (every weight matrix moving at once, by `lr` times the
certified gradient of each) — left open by the Lean development: the logits are no longer
affine in the moving parameters. Stated here as our conjecture: with `κ = d₂·w₁·w₂·a + w₂·A₀ + A₁`
(the logit drift per unit ℓ1 step through the input, hidden and output paths; `A₀`, `A₁` bound
the activations `a₀`, `a₁`) and the joint step radius
`D = lr·(‖∇_{W₀}L‖₁ + ‖∇_{W₁}L‖₁ + ‖∇_{W₂}L‖₁)`, the margins `a·D < |z₀ⱼ|`,
`(w₁·a + A₀)·D < |z₁ₗ|`, the small step `2·κ·D < 1` and the dominance
`2·d₃·κ²/(1 − 2·κ·D)·D² ≤ lr·‖∇L‖₂²/2` give the single-layer decrease. Obligation:
`lean_mlp.joint_step_descends` (open; seeded evidence at most). -/
theorem joint_step_descends {d₀ d₁ d₂ d₃ : ℕ} (W₀ G₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ G₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ G₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃) (lr a A₀ A₁ w₁ w₂ κ D : ℝ) (hlr : 0 < lr)
    (hG₀ : G₀ = inputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label) (hG₁ : G₁ = hiddenGrad W₀ b₀ W₁ b₁ W₂ b₂ x label)
    (hG₂ : G₂ = outputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label)
    (ha : ∀ i, |x i| ≤ a) (hA₀ : ∀ j, relu (dense W₀ b₀ x) j ≤ A₀)
    (hA₁ : ∀ l, relu (dense W₁ b₁ (relu (dense W₀ b₀ x))) l ≤ A₁)
    (hw₁ : ∀ j l, |W₁ j l| ≤ w₁) (hw₂ : ∀ j k, |W₂ j k| ≤ w₂)
    (hκ : κ = d₂ * w₁ * w₂ * a + w₂ * A₀ + A₁) (hD : D = lr * (wMass G₀ + wMass G₁ + wMass G₂))
    (hmargin0 : ∀ j, a * D < |dense W₀ b₀ x j|)
    (hmargin1 : ∀ l, (w₁ * a + A₀) * D < |dense W₁ b₁ (relu (dense W₀ b₀ x)) l|)
    (hsmall : 2 * κ * D < 1)
    (hdom : 2 * d₃ * κ ^ 2 / (1 - 2 * κ * D) * D ^ 2 ≤ lr * (wSq G₀ + wSq G₁ + wSq G₂) / 2) :
    mlpLoss (fun i j => W₀ i j - lr * G₀ i j) b₀ (fun i j => W₁ i j - lr * G₁ i j) b₁
        (fun i j => W₂ i j - lr * G₂ i j) b₂ x label - mlpLoss W₀ b₀ W₁ b₁ W₂ b₂ x label ≤
      -(lr * (wSq G₀ + wSq G₁ + wSq G₂) / 2) := by
  sorry

end SgdDescentMlp
