/-
  Lean 4-style mirror of the binary32 descent rungs of `002_9648822bf1d4473c.txt` and
  `004_8327de8ce09705d9.txt` (`FloatBridge`, the descent half). The float model, the budgets
  (`mulErr`, `layerBudget`, `layerAct`, `cotErr`), the float gradients (`linearFloatGrad`,
  `mlpHiddenFloatGrad`, `mlpInputFloatGrad`) and the grad-closes are in `FloatBridge.lean`; the
  ℝ-side definitions (`SgdDescentMlp.dense`, `relu`, `ce`, `headCot`, `mlpLoss`, the closed-form
  gradients, `wMass`, `wSq`, `Dominance`) in `SgdDescentMlp.lean` / `SgdDescentMlpDescent.lean`.

  Not compiled: no Lean toolchain is available. Each declaration states the claim with its
  hypotheses; proofs are `sorry`. The Python obligations named in the docstrings are what is
  machine-checked, within their stated scope. The budgets and the dominance conditions are
  reconstructions (`obligations/lean_mlp/binary32.py`, `obligations/lean_mlp/descent.py`).
  The oracle accuracy `|g̃ − ∇L|∞ ≤ η` is NOT a hypothesis: it follows from the grad-close,
  whose rounding/head hypotheses are carried instead. The update is taken in ℝ.
-/
import Mathlib
import SgdDescentMlp
import SgdDescentMlpDescent
import FloatBridge

namespace FloatBridge

/-- One SGD step with the binary32 gradient of the linear net `dense W b` (`linearFloatGrad`)
decreases one example's loss by at least `lr·‖∇L‖₂²/2`; `η = mulErr M A 1 0 (cotErr M m δ G)`,
`δ = layerBudget M d w A β 0`, proven by `linear_grad_close` under its head hypotheses.
Obligation: `lean_mlp.linear_float_sgd_descends_example` (intervals, at the shipped example). -/
theorem linear_float_sgd_descends (M : FloatModel) {d m : ℕ} (W : Fin d → Fin m → ℝ) (b : Fin m → ℝ)
    (x : Fin d → ℝ) (label : Fin m) (lr A w β G : ℝ) (hlr : 0 < lr)
    (ha : ∀ i, |x i| ≤ A) (hW : ∀ j k, |W j k| ≤ w) (hb : ∀ k, |b k| ≤ β)
    (hδ1 : 2 * layerBudget M d w A β 0 < 1) (hG : G < 80)
    (hspread : ∀ j k, (∑ i, x i * W i j + b j) - (∑ i, x i * W i k + b k) + 2 * layerBudget M d w A β 0 ≤ G)
    (η D : ℝ) (hη : η = mulErr M A 1 0 (cotErr M m (layerBudget M d w A β 0) G))
    (hD : D = lr * (SgdDescentMlp.wMass (fun i j => x i * SgdDescentMlp.headCot (SgdDescentMlp.dense W b x) label j)
      + d * m * η))
    (hsmall : 2 * A * D < 1)
    (hdom : SgdDescentMlp.Dominance lr η (2 * A ^ 2 / (1 - 2 * A * D)) D
      (fun i j => x i * SgdDescentMlp.headCot (SgdDescentMlp.dense W b x) label j)) :
    SgdDescentMlp.ce (SgdDescentMlp.dense (fun i j => W i j - lr * linearFloatGrad M W b x label i j) b x) label
        - SgdDescentMlp.ce (SgdDescentMlp.dense W b x) label ≤
      -(lr * SgdDescentMlp.wSq (fun i j => x i * SgdDescentMlp.headCot (SgdDescentMlp.dense W b x) label j) / 2) := by
  sorry

/-- The output-layer rung: `linear_float_sgd_descends` at the exact hidden activation `a₁`
(no margin). Obligation: `lean_mlp.mlp_output_float_sgd_descends_example`. -/
theorem mlp_output_float_sgd_descends (M : FloatModel) {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ)
    (b₀ : Fin d₁ → ℝ) (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ)
    (b₂ : Fin d₃ → ℝ) (x : Fin d₀ → ℝ) (label : Fin d₃) (lr A w β G η D : ℝ) (hlr : 0 < lr)
    (ha : ∀ i, |SgdDescentMlp.relu (SgdDescentMlp.dense W₁ b₁ (SgdDescentMlp.relu (SgdDescentMlp.dense W₀ b₀ x))) i| ≤ A)
    (hW : ∀ j k, |W₂ j k| ≤ w) (hb : ∀ k, |b₂ k| ≤ β) (hδ1 : 2 * layerBudget M d₂ w A β 0 < 1) (hG : G < 80)
    (hη : η = mulErr M A 1 0 (cotErr M d₃ (layerBudget M d₂ w A β 0) G))
    (hD : D = lr * (SgdDescentMlp.wMass (SgdDescentMlp.outputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label) + d₂ * d₃ * η))
    (hsmall : 2 * A * D < 1)
    (hdom : SgdDescentMlp.Dominance lr η (2 * A ^ 2 / (1 - 2 * A * D)) D
      (SgdDescentMlp.outputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label)) :
    SgdDescentMlp.mlpLoss W₀ b₀ W₁ b₁
        (fun i j => W₂ i j - lr * linearFloatGrad M W₂ b₂
          (SgdDescentMlp.relu (SgdDescentMlp.dense W₁ b₁ (SgdDescentMlp.relu (SgdDescentMlp.dense W₀ b₀ x)))) label i j)
        b₂ x label - SgdDescentMlp.mlpLoss W₀ b₀ W₁ b₁ W₂ b₂ x label ≤
      -(lr * SgdDescentMlp.wSq (SgdDescentMlp.outputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label) / 2) := by
  sorry

/-- The hidden-layer rung: the binary32 W₁ gradient (`mlpHiddenFloatGrad`, `a₀` exact), its
accuracy `η` proven by `mlp_w1_grad_close` under the rounding margin `E₁ < |z₁ⱼ|`
(`hmargin_round`); the step margin `a·D < |z₁ⱼ|` (`hmargin_step`) is carried separately, as in
the Lean development. Obligation: `lean_mlp.mlp_hidden_float_sgd_descends_example`. -/
theorem mlp_hidden_float_sgd_descends (M : FloatModel) {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ)
    (b₀ : Fin d₁ → ℝ) (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ)
    (b₂ : Fin d₃ → ℝ) (x : Fin d₀ → ℝ) (label : Fin d₃) (lr A₀ A₁ w₁ w₂ β₁ β₂ G E₁ δ η D : ℝ) (hlr : 0 < lr)
    (hA₀ : ∀ i, |SgdDescentMlp.relu (SgdDescentMlp.dense W₀ b₀ x) i| ≤ A₀)
    (hA₁ : ∀ l, |SgdDescentMlp.relu (SgdDescentMlp.dense W₁ b₁ (SgdDescentMlp.relu (SgdDescentMlp.dense W₀ b₀ x))) l| ≤ A₁)
    (hw₁ : ∀ i j, |W₁ i j| ≤ w₁) (hβ₁ : ∀ j, |b₁ j| ≤ β₁) (hβ₂ : ∀ k, |b₂ k| ≤ β₂)
    (hE₁ : E₁ = layerBudget M d₁ w₁ A₀ β₁ 0) (hδ : δ = layerBudget M d₂ w₂ A₁ β₂ E₁)
    (hmargin_round : ∀ j, E₁ < |SgdDescentMlp.dense W₁ b₁ (SgdDescentMlp.relu (SgdDescentMlp.dense W₀ b₀ x)) j|)
    (hhead : 2 * δ < 1) (hG : G < 80) (hw₂ : ∀ j k, |W₂ j k| ≤ w₂)
    (hη : η = mulErr M A₀ (layerAct d₃ w₂ 1) 0 (layerBudget M d₃ w₂ 1 0 (cotErr M d₃ δ G)))
    (hD : D = lr * (SgdDescentMlp.wMass (SgdDescentMlp.hiddenGrad W₀ b₀ W₁ b₁ W₂ b₂ x label) + d₁ * d₂ * η))
    (hmargin_step : ∀ j, A₀ * D < |SgdDescentMlp.dense W₁ b₁ (SgdDescentMlp.relu (SgdDescentMlp.dense W₀ b₀ x)) j|)
    (hsmall : 2 * w₂ * A₀ * D < 1)
    (hdom : SgdDescentMlp.Dominance lr η (2 * d₃ * w₂ ^ 2 * A₀ ^ 2 / (1 - 2 * w₂ * A₀ * D)) D
      (SgdDescentMlp.hiddenGrad W₀ b₀ W₁ b₁ W₂ b₂ x label)) :
    SgdDescentMlp.mlpLoss W₀ b₀
        (fun i j => W₁ i j - lr * mlpHiddenFloatGrad M W₁ b₁ W₂ b₂
          (SgdDescentMlp.relu (SgdDescentMlp.dense W₀ b₀ x)) label i j) b₁ W₂ b₂ x label
        - SgdDescentMlp.mlpLoss W₀ b₀ W₁ b₁ W₂ b₂ x label ≤
      -(lr * SgdDescentMlp.wSq (SgdDescentMlp.hiddenGrad W₀ b₀ W₁ b₁ W₂ b₂ x label) / 2) := by
  sorry

/-- The input-layer rung: the binary32 W₀ gradient (`mlpInputFloatGrad`, `x` exact), accuracy
proven by `mlp_w0_grad_close`; four margins: rounding `E₀ < |z₀|`, `E₁ < |z₁|` and step
`a·D < |z₀|`, `w₁·a·D < |z₁|`. Obligation: `lean_mlp.mlp_input_float_sgd_descends_example`. -/
theorem mlp_input_float_sgd_descends (M : FloatModel) {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ)
    (b₀ : Fin d₁ → ℝ) (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ)
    (b₂ : Fin d₃ → ℝ) (x : Fin d₀ → ℝ) (label : Fin d₃)
    (lr X A₀ A₁ w₀ w₁ w₂ β₀ β₁ β₂ G E₀ E₁ δ η D : ℝ) (hlr : 0 < lr) (hX : ∀ i, |x i| ≤ X)
    (hE₀ : E₀ = layerBudget M d₀ w₀ X β₀ 0) (hE₁ : E₁ = layerBudget M d₁ w₁ A₀ β₁ E₀)
    (hδ : δ = layerBudget M d₂ w₂ A₁ β₂ E₁)
    (hmargin0_round : ∀ j, E₀ < |SgdDescentMlp.dense W₀ b₀ x j|)
    (hmargin1_round : ∀ l, E₁ < |SgdDescentMlp.dense W₁ b₁ (SgdDescentMlp.relu (SgdDescentMlp.dense W₀ b₀ x)) l|)
    (hhead : 2 * δ < 1) (hG : G < 80) (hw₁ : ∀ j l, |W₁ j l| ≤ w₁) (hw₂ : ∀ j k, |W₂ j k| ≤ w₂)
    (hη : η = mulErr M X (layerAct d₂ w₁ (layerAct d₃ w₂ 1)) 0
      (layerBudget M d₂ w₁ (layerAct d₃ w₂ 1) 0 (layerBudget M d₃ w₂ 1 0 (cotErr M d₃ δ G))))
    (hD : D = lr * (SgdDescentMlp.wMass (SgdDescentMlp.inputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label) + d₀ * d₁ * η))
    (hmargin0_step : ∀ j, X * D < |SgdDescentMlp.dense W₀ b₀ x j|)
    (hmargin1_step : ∀ l, w₁ * X * D < |SgdDescentMlp.dense W₁ b₁ (SgdDescentMlp.relu (SgdDescentMlp.dense W₀ b₀ x)) l|)
    (hsmall : 2 * d₂ * w₁ * w₂ * X * D < 1)
    (hdom : SgdDescentMlp.Dominance lr η (2 * d₃ * d₂ ^ 2 * w₁ ^ 2 * w₂ ^ 2 * X ^ 2 / (1 - 2 * d₂ * w₁ * w₂ * X * D)) D
      (SgdDescentMlp.inputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label)) :
    SgdDescentMlp.mlpLoss (fun i j => W₀ i j - lr * mlpInputFloatGrad M W₀ b₀ W₁ b₁ W₂ b₂ x label i j)
        b₀ W₁ b₁ W₂ b₂ x label - SgdDescentMlp.mlpLoss W₀ b₀ W₁ b₁ W₂ b₂ x label ≤
      -(lr * SgdDescentMlp.wSq (SgdDescentMlp.inputGrad W₀ b₀ W₁ b₁ W₂ b₂ x label) / 2) := by
  sorry

end FloatBridge
