/-
  Lean 4-style mirror of the binary32 descent rungs of `002_9648822bf1d4473c.txt` and
  `004_8327de8ce09705d9.txt` (`FloatBridge`, the descent half; the float model, its budgets
  and the grad-closes are in `FloatBridge.lean`).

  Not compiled: no Lean toolchain is available. Each declaration states the claim with its
  hypotheses; proofs are `sorry`. The Python obligations named in the docstrings are what is
  machine-checked, within their stated scope. The budgets (`mulErr`, `layerBudget`, `cotErr`)
  and the dominance conditions are reconstructions: `obligations/lean_mlp/binary32.py`,
  `obligations/lean_mlp/descent.py`. Here the float gradient `gf` and its budget `η` enter as
  parameters with the budget's rounding hypotheses; in the Lean development the accuracy
  `|gf − ∇L|∞ ≤ η` is then PROVEN by the grad-close (`linear_grad_close`,
  `mlp_w1_grad_close`, `mlp_w0_grad_close`), so it is not a hypothesis of these theorems:
  `hclose` below names that proven fact, which the obligations re-check at the example.
-/
import Mathlib
import SgdDescentMlpDescent

namespace FloatBridge

open SgdDescentMlp

/-- One SGD step with the binary32 gradient of the linear net `dense W b` decreases one
example's loss by at least `lr·‖∇L‖₂²/2`, the update taken in ℝ. `η = mulErr u a 1 0 (cotErr …)`
(`hclose` from `linear_grad_close` under the head conditions `hhead`). Obligation:
`lean_mlp.linear_float_sgd_descends_example` (intervals, at the shipped example). -/
theorem linear_float_sgd_descends {dIn dOut : ℕ} (W gf G : Fin dIn → Fin dOut → ℝ) (b : Fin dOut → ℝ)
    (x : Fin dIn → ℝ) (label : Fin dOut) (lr η a δ : ℝ) (hlr : 0 < lr)
    (hG : G = fun i j => x i * headCot (dense W b x) label j)
    (hhead : 2 * δ < 1) (hclose : ∀ i j, |gf i j - G i j| ≤ η) (ha : ∀ i, |x i| ≤ a)
    (hsmall : 2 * a * (lr * (wMass G + dIn * dOut * η)) < 1)
    (hdom : Dominance lr η (2 * a ^ 2 / (1 - 2 * a * (lr * (wMass G + dIn * dOut * η))))
      (lr * (wMass G + dIn * dOut * η)) G) :
    ce (dense (fun i j => W i j - lr * gf i j) b x) label - ce (dense W b x) label ≤
      -(lr * wSq G / 2) := by
  sorry

/-- The output-layer rung: `linear_float_sgd_descends` at the hidden activation `a₁` (no
margin). Obligation: `lean_mlp.mlp_output_float_sgd_descends_example`. -/
theorem mlp_output_float_sgd_descends {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ gf G : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃) (lr η a δ : ℝ) (hlr : 0 < lr) (hhead : 2 * δ < 1)
    (hG : G = outputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label)
    (hclose : ∀ i j, |gf i j - G i j| ≤ η)
    (ha : ∀ i, |relu (dense W₁ b₁ (relu (dense W₀ b₀ x))) i| ≤ a)
    (hsmall : 2 * a * (lr * (wMass G + d₂ * d₃ * η)) < 1)
    (hdom : Dominance lr η (2 * a ^ 2 / (1 - 2 * a * (lr * (wMass G + d₂ * d₃ * η))))
      (lr * (wMass G + d₂ * d₃ * η)) G) :
    mlpLoss W₀ b₀ W₁ b₁ (fun i j => W₂ i j - lr * gf i j) b₂ x label - mlpLoss W₀ b₀ W₁ b₁ W₂ b₂ x label ≤
      -(lr * wSq G / 2) := by
  sorry

/-- The hidden-layer rung: the binary32 W₁ gradient, `η = mulErr u a (layerAct …) 0 (layerBudget …
(cotErr …))` proven by `mlp_w1_grad_close`; two margins: the rounding margin `E₁ < |z₁ⱼ|`
(`hmargin_round`) and the step margin `a·D < |z₁ⱼ|` (`hmargin_step`), not collapsed.
Obligation: `lean_mlp.mlp_hidden_float_sgd_descends_example`. -/
theorem mlp_hidden_float_sgd_descends {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ gf G : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃) (lr η a w₂ E₁ δ : ℝ) (hlr : 0 < lr) (hhead : 2 * δ < 1)
    (hG : G = hiddenGrad W₀ b₀ W₁ b₁ W₂ b₂ x label)
    (hmargin_round : ∀ j, E₁ < |dense W₁ b₁ (relu (dense W₀ b₀ x)) j|)
    (hclose : ∀ i j, |gf i j - G i j| ≤ η)
    (ha : ∀ i, |relu (dense W₀ b₀ x) i| ≤ a) (hw₂ : ∀ j k, |W₂ j k| ≤ w₂)
    (hmargin_step : ∀ j, a * (lr * (wMass G + d₁ * d₂ * η)) < |dense W₁ b₁ (relu (dense W₀ b₀ x)) j|)
    (hsmall : 2 * w₂ * a * (lr * (wMass G + d₁ * d₂ * η)) < 1)
    (hdom : Dominance lr η (2 * d₃ * w₂ ^ 2 * a ^ 2 / (1 - 2 * w₂ * a * (lr * (wMass G + d₁ * d₂ * η))))
      (lr * (wMass G + d₁ * d₂ * η)) G) :
    mlpLoss W₀ b₀ (fun i j => W₁ i j - lr * gf i j) b₁ W₂ b₂ x label - mlpLoss W₀ b₀ W₁ b₁ W₂ b₂ x label ≤
      -(lr * wSq G / 2) := by
  sorry

/-- The input-layer rung: the binary32 W₀ gradient, accuracy proven by `mlp_w0_grad_close`;
four margins: rounding `E₀ < |z₀|`, `E₁ < |z₁|` and step `a·D < |z₀|`, `w₁·a·D < |z₁|`.
Obligation: `lean_mlp.mlp_input_float_sgd_descends_example`. -/
theorem mlp_input_float_sgd_descends {d₀ d₁ d₂ d₃ : ℕ} (W₀ gf G : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃) (lr η a w₁ w₂ E₀ E₁ δ : ℝ) (hlr : 0 < lr) (hhead : 2 * δ < 1)
    (hG : G = inputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label)
    (hmargin0_round : ∀ j, E₀ < |dense W₀ b₀ x j|)
    (hmargin1_round : ∀ l, E₁ < |dense W₁ b₁ (relu (dense W₀ b₀ x)) l|)
    (hclose : ∀ i j, |gf i j - G i j| ≤ η)
    (ha : ∀ i, |x i| ≤ a) (hw₁ : ∀ j l, |W₁ j l| ≤ w₁) (hw₂ : ∀ j k, |W₂ j k| ≤ w₂)
    (hmargin0_step : ∀ j, a * (lr * (wMass G + d₀ * d₁ * η)) < |dense W₀ b₀ x j|)
    (hmargin1_step : ∀ l, w₁ * a * (lr * (wMass G + d₀ * d₁ * η)) < |dense W₁ b₁ (relu (dense W₀ b₀ x)) l|)
    (hsmall : 2 * d₂ * w₁ * w₂ * a * (lr * (wMass G + d₀ * d₁ * η)) < 1)
    (hdom : Dominance lr η (2 * d₃ * d₂ ^ 2 * w₁ ^ 2 * w₂ ^ 2 * a ^ 2 /
      (1 - 2 * d₂ * w₁ * w₂ * a * (lr * (wMass G + d₀ * d₁ * η)))) (lr * (wMass G + d₀ * d₁ * η)) G) :
    mlpLoss (fun i j => W₀ i j - lr * gf i j) b₀ W₁ b₁ W₂ b₂ x label - mlpLoss W₀ b₀ W₁ b₁ W₂ b₂ x label ≤
      -(lr * wSq G / 2) := by
  sorry

end FloatBridge
