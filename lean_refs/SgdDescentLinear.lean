/-
  Lean 4-style mirror of the linear-net descent capstone named in `002_9648822bf1d4473c.txt`
  and `004_8327de8ce09705d9.txt` (`SgdDescentLinear`: the Chapter-1 linear net
  `x ↦ softmax-CE (dense W b x)`).

  Not compiled: no Lean toolchain is available. Each declaration states the claim with its
  hypotheses; proofs are `sorry`. The Python obligations named in the docstrings are what is
  machine-checked, within their stated scope. The dominance conditions and the linear
  segment-Lipschitz constant are reconstructions (see `obligations/lean_mlp/descent.py`).
-/
import Mathlib

namespace SgdDescentLinear

/-- Softmax cross-entropy of the linear net `dense W b x` (`W[input][output]`) at `label`. -/
noncomputable def linearLoss {dIn dOut : ℕ} (W : Fin dIn → Fin dOut → ℝ) (b : Fin dOut → ℝ)
    (x : Fin dIn → ℝ) (label : Fin dOut) : ℝ :=
  Real.log (∑ k, Real.exp (∑ j, x j * W j k + b k)) - (∑ j, x j * W j label + b label)

/-- The loss gradient in `W`: `∂L/∂W_ij = x_i · (softmax − onehot)_j` (`linear_loss_gradAt`). -/
noncomputable def linearGrad {dIn dOut : ℕ} (W : Fin dIn → Fin dOut → ℝ) (b : Fin dOut → ℝ)
    (x : Fin dIn → ℝ) (label : Fin dOut) : Fin dIn → Fin dOut → ℝ :=
  fun i j => x i * (Real.exp (∑ j', x j' * W j' j + b j) /
      (∑ k, Real.exp (∑ j', x j' * W j' k + b k)) - if j = label then 1 else 0)

/-- Segment-Lipschitz gradient of the linear net, explicit constant (reconstructed: the seeds
name `linear_loss_grad_lipschitz` but do not display it). With inputs bounded by `a`, a step
`e` of ℓ1 mass at most `D` and `2·a·D < 1`, every gradient entry drifts by at most
`(2·a²/(1 − 2·a·D))·(t·D)` at `v + t·e`, `t ∈ [0, 1]`: logit drift `a·t·D`, softmax ratio
sandwich, `e^y ≤ 1/(1 − y)`. Obligation: `lean_mlp.linear_loss_grad_lipschitz`. -/
theorem linear_loss_grad_lipschitz {dIn dOut : ℕ} (W e : Fin dIn → Fin dOut → ℝ) (b : Fin dOut → ℝ)
    (x : Fin dIn → ℝ) (label : Fin dOut) (a D t : ℝ) (ha : ∀ i, |x i| ≤ a)
    (he : (∑ i, ∑ j, |e i j|) ≤ D) (hsmall : 2 * a * D < 1) (ht0 : 0 ≤ t) (ht1 : t ≤ 1) :
    ∀ i j, |linearGrad (fun i j => W i j + t * e i j) b x label i j - linearGrad W b x label i j| ≤
      2 * a ^ 2 / (1 - 2 * a * D) * (t * D) := by
  sorry

/-- One inexact SGD step on the linear net's weights decreases one example's cross-entropy
loss by at least `lr·‖∇L‖₂²/2`. Hypotheses: an `η`-accurate oracle `g`, inputs bounded by `a`,
step radius `D = lr·(‖∇L‖₁ + dIn·dOut·η)`, the small-step condition `2·a·D < 1` (the
reconstructed linear constant `C = 2·a²/(1 − 2·a·D)` needs it), and the two (reconstructed)
dominance conditions `η·‖∇L‖₁ ≤ ‖∇L‖₂²/4` and `C·D² ≤ lr·‖∇L‖₂²/2`.
Obligations: `lean_mlp.linear_descent_implication` (z3, the algebra) and
`lean_mlp.linear_sgd_descends_example` (intervals, at the shipped example). -/
theorem linear_sgd_descends {dIn dOut : ℕ} (W g : Fin dIn → Fin dOut → ℝ) (b : Fin dOut → ℝ)
    (x : Fin dIn → ℝ) (label : Fin dOut) (lr η a : ℝ) (hlr : 0 < lr) (hη : 0 ≤ η)
    (ha : ∀ i, |x i| ≤ a)
    (horacle : ∀ i j, |g i j - linearGrad W b x label i j| ≤ η)
    (hsmall : 2 * a * (lr * ((∑ i, ∑ j, |linearGrad W b x label i j|) + dIn * dOut * η)) < 1)
    (hdom1 : η * (∑ i, ∑ j, |linearGrad W b x label i j|) ≤ (∑ i, ∑ j, (linearGrad W b x label i j) ^ 2) / 4)
    (hdom2 : let D := lr * ((∑ i, ∑ j, |linearGrad W b x label i j|) + dIn * dOut * η)
             2 * a ^ 2 / (1 - 2 * a * D) * D ^ 2 ≤ lr * (∑ i, ∑ j, (linearGrad W b x label i j) ^ 2) / 2) :
    linearLoss (fun i j => W i j - lr * g i j) b x label - linearLoss W b x label ≤
      -(lr * (∑ i, ∑ j, (linearGrad W b x label i j) ^ 2) / 2) := by
  sorry

end SgdDescentLinear
