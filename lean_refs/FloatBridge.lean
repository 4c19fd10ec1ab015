/-
  Lean 4-style mirror of `FloatBridge`, the binary32 layer of the Lean development whose
  docstrings are `002_9648822bf1d4473c.txt` and `004_8327de8ce09705d9.txt`.

  Not compiled: no Lean toolchain is available. The seeds name `u`, `mulErr`, `layerBudget`,
  `cotErr` and the FloatModel gradients without defining them; the definitions below are OUR
  reconstruction by standard floating-point error analysis for binary32 (Higham, ch. 2–3),
  documented in `docs/reconstructions/lean_mlp_float.md` and implemented once in
  `obligations/lean_mlp/binary32.py`. Each theorem states the claim with its hypotheses; proofs
  are `sorry`. What is machine-checked is the Python obligation named in each docstring, within
  its stated scope (mostly sampling evidence against real numpy float32).
-/
import Mathlib

namespace FloatBridge

open BigOperators

/-- A rounding model: `round` maps a real to a representable number; every operation result
is rounded once. `relErr`: `|round x − x| ≤ u·|x| + μ` (μ the gradual-underflow term, 0 for sums);
`fexp` is the library exp with relative accuracy `ε` on the head's range. -/
structure FloatModel where
  round : ℝ → ℝ
  fexp : ℝ → ℝ
  u : ℝ
  μ : ℝ
  ε : ℝ
  relErr : ∀ x, |round x - x| ≤ u * |x| + μ
  expErr : ∀ s, -80 ≤ s → s ≤ 0 → |fexp s - Real.exp s| ≤ ε * Real.exp s

/-- Unit roundoff of binary32, round to nearest: `u = 2⁻²⁴`. -/
noncomputable def u : ℝ := (2 : ℝ)⁻¹ ^ 24

/-- Higham's constant `γₙ = n·u/(1 − n·u)` (meaningful for `n·u < 1`). -/
noncomputable def gamma (u : ℝ) (n : ℕ) : ℝ := n * u / (1 - n * u)

/-- Bound on `|fl(ã·c̃) − a·c|` for `|a| ≤ A`, `|c| ≤ C`, `|ã − a| ≤ ea`, `|c̃ − c| ≤ ec`. -/
noncomputable def mulErr (M : FloatModel) (A C ea ec : ℝ) : ℝ :=
  A * ec + ea * (C + ec) + M.u * (A + ea) * (C + ec) + M.μ

/-- Per-entry error of a float dense layer of fan-in `n` (`|W| ≤ w`, `|b| ≤ β`) whose input is
within `e` of an exact input bounded by `A`; with `β = 0` the bias-free transposed contraction.
(The Python budgets use `γₙ` instead of `γ_{n+1}` for a bias-free contraction, whose zero bias adds
exactly; that is tighter, so every Python check also checks this statement.) -/
noncomputable def layerBudget (M : FloatModel) (n : ℕ) (w A β e : ℝ) : ℝ :=
  n * w * e + gamma M.u (n + 1) * (n * w * (A + e) + β) + n * M.μ * (1 + gamma M.u n)

/-- `|(Wᵀc)ₗ| ≤ n·w·C`. -/
noncomputable def layerAct (n : ℕ) (w C : ℝ) : ℝ := n * w * C

/-- Accuracy of the float softmax − onehot head at float logits within `δ` of the exact ones,
`m` classes, float-logit spread at most `G`. -/
noncomputable def cotErr (M : FloatModel) (m : ℕ) (δ G : ℝ) : ℝ :=
  let oneα := (1 + M.ε) / (1 - M.u * G)
  let H := oneα * (1 + M.u) / ((1 - 2 * δ) * (2 - oneα) * (1 - gamma M.u (m - 1)) * (1 - M.u))
  (H - 1) * (1 + M.u) + M.u + M.μ * (1 + M.u)

/-- The float dense layer: every product rounded, the sum rounded in some fixed order. -/
noncomputable def dense (M : FloatModel) {n m : ℕ} (W : Fin n → Fin m → ℝ) (b : Fin m → ℝ)
    (x : Fin n → ℝ) : Fin m → ℝ :=
  fun k => M.round ((List.finRange n).foldl (fun s j => M.round (s + M.round (x j * W j k))) (b k))

/-- The float head: max shift, `fexp`, rounded sum, rounded division, rounded `− 1` at the label. -/
noncomputable def head (M : FloatModel) {m : ℕ} (t : Fin m → ℝ) (label : Fin m) : Fin m → ℝ :=
  fun k =>
    let top := (Finset.univ.image t).max' (by sorry)
    let e := fun j => M.fexp (M.round (t j - top))
    let S := (List.finRange m).foldl (fun s j => M.round (s + e j)) 0
    let p := M.round (e k / S)
    if k = label then M.round (p - 1) else p

/-- `reluMask z c`: `cₗ` where `zₗ > 0`, else 0. -/
noncomputable def reluMask {n : ℕ} (z c : Fin n → ℝ) : Fin n → ℝ := fun l => if 0 < z l then c l else 0

/-- The binary32 output-layer gradient of the linear net at the exact input `a`:
`fl(aᵢ · c̃ⱼ)`, `c̃` the float head at the float logits. -/
noncomputable def linearFloatGrad (M : FloatModel) {d m : ℕ} (W : Fin d → Fin m → ℝ) (b : Fin m → ℝ)
    (a : Fin d → ℝ) (label : Fin m) : Fin d → Fin m → ℝ :=
  fun i j => M.round (a i * head M (dense M W b a) label j)

/-- The binary32 hidden-layer (W₁) gradient with `a₀` frozen exact:
`fl(a₀ᵢ · c̃₁ⱼ)`, `c̃₁ = reluMask(z̃₁, W₂ᵀ·c̃₂)`, `z̃₁ = dense W₁ b₁ a₀`. -/
noncomputable def mlpHiddenFloatGrad (M : FloatModel) {d₁ d₂ d₃ : ℕ} (W₁ : Fin d₁ → Fin d₂ → ℝ)
    (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ) (a₀ : Fin d₁ → ℝ)
    (label : Fin d₃) : Fin d₁ → Fin d₂ → ℝ :=
  let z₁ := dense M W₁ b₁ a₀
  let c₂ := head M (dense M W₂ b₂ (fun l => max (z₁ l) 0)) label
  let c₁ := reluMask z₁ (dense M (fun k l => W₂ l k) 0 c₂)
  fun i j => M.round (a₀ i * c₁ j)

/-- The binary32 input-layer (W₀) gradient with `x` exact: `fl(xᵢ · c̃₀ⱼ)`,
`c̃₀ = reluMask(z̃₀, W₁ᵀ·reluMask(z̃₁, W₂ᵀ·c̃₂))`, all at the float pre-activations. -/
noncomputable def mlpInputFloatGrad (M : FloatModel) {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ)
    (b₀ : Fin d₁ → ℝ) (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ)
    (b₂ : Fin d₃ → ℝ) (x : Fin d₀ → ℝ) (label : Fin d₃) : Fin d₀ → Fin d₁ → ℝ :=
  let z₀ := dense M W₀ b₀ x
  let z₁ := dense M W₁ b₁ (fun j => max (z₀ j) 0)
  let c₂ := head M (dense M W₂ b₂ (fun l => max (z₁ l) 0)) label
  let c₁ := reluMask z₁ (dense M (fun k l => W₂ l k) 0 c₂)
  let c₀ := reluMask z₀ (dense M (fun l j => W₁ j l) 0 c₁)
  fun i j => M.round (x i * c₀ j)

/-- The rounding model of binary32 round-to-nearest-even: for every real `x` in range,
`|RN x − x| ≤ u·|x|` or `≤ μ` (δη = 0), and `≤ u·|x|` when `x` is a sum of two binary32 numbers.
Obligation: `lean_mlp.float.rounding_model` (z3 floating-point theory: the spacing of binary32 and
exact subnormal sums; z3 over ℝ for the nearer neighbour). -/
theorem rounding_model (RN : ℝ → ℝ) (x : ℝ) (hx : |x| ≤ (2 ^ 24 - 1) * 2 ^ 104) :
    |RN x - x| ≤ u * |x| ∨ |RN x - x| ≤ (2 : ℝ)⁻¹ ^ 150 := by
  sorry

/-- ReLU is exact in binary32: a representable `z` maps to `z` or `0`, both representable, so
rounding the ReLU changes nothing. Obligations: `lean_mlp.float.relu_exact_in_float` (numpy on
sampled bit patterns), `lean_mlp.float.relu_exact_in_float_exhaustive` (all 2³², slow tier). -/
theorem relu_exact_in_float (M : FloatModel) (hfix : ∀ x, M.round (M.round x) = M.round x)
    (h0 : M.round 0 = 0) (z : ℝ) : M.round (max (M.round z) 0) = max (M.round z) 0 := by
  sorry

/-- The final multiply with an exact operand: `|fl(a·c̃) − a·c| ≤ mulErr M A C 0 ec`.
Obligation: `lean_mlp.float.mul_close` (10⁵ binary32 instances, exact reference). -/
theorem mul_close (M : FloatModel) (a c c' A C ec : ℝ) (ha : |a| ≤ A) (hc : |c| ≤ C)
    (hc' : |c' - c| ≤ ec) : |M.round (a * c') - a * c| ≤ mulErr M A C 0 ec := by
  sorry

/-- The γ lemma behind `layerBudget`: a dot product with bias summed in any order is within
`γ_{n+1}·(∑|xⱼyⱼ| + |b|) + n·μ·(1 + γₙ)` of the exact value. Obligation:
`lean_mlp.float.dot_close` (2.5·10⁵ dot products × 6 summation orders). -/
theorem dot_close (M : FloatModel) {n m : ℕ} (W : Fin n → Fin m → ℝ) (b : Fin m → ℝ) (x : Fin n → ℝ)
    (hnu : (n + 1) * M.u < 1) (k : Fin m) :
    |dense M W b x k - (∑ j, x j * W j k + b k)| ≤
      gamma M.u (n + 1) * (∑ j, |x j * W j k| + |b k|) + n * M.μ * (1 + gamma M.u n) := by
  sorry

/-- The float head has accuracy `cotErr`: float logits within `δ` of `t`, `2δ < 1`, spread below
the head range. Obligations: `lean_mlp.float.softmax_ce_cot_close`, `lean_mlp.float.exp_accuracy`. -/
theorem softmax_ce_cot_close (M : FloatModel) {m : ℕ} (t t' : Fin m → ℝ) (label : Fin m) (δ G : ℝ)
    (hδ : ∀ k, |t' k - t k| ≤ δ) (hδ1 : 2 * δ < 1) (hG : ∀ j k, t' j - t' k ≤ G) (hG80 : G < 80)
    (k : Fin m) :
    |head M t' label k - (Real.exp (t k) / ∑ j, Real.exp (t j) - if k = label then 1 else 0)| ≤
      cotErr M m δ G := by
  sorry

/-- One masked backward step under the quantitative margin: float pre-activations within `E` of
`z`, `E < |zₗ|`, cotangent within `ec`. Obligation: `lean_mlp.float.cot_step_close`. -/
theorem cot_step_close (M : FloatModel) {n m : ℕ} (W : Fin n → Fin m → ℝ) (z z' : Fin n → ℝ)
    (c c' : Fin m → ℝ) (w C E ec : ℝ) (hW : ∀ l k, |W l k| ≤ w) (hc : ∀ k, |c k| ≤ C)
    (hc' : ∀ k, |c' k - c k| ≤ ec) (hz : ∀ l, |z' l - z l| ≤ E) (hmargin : ∀ l, E < |z l|) (l : Fin n) :
    |reluMask z' (dense M (fun k l => W l k) 0 c') l - reluMask z (fun l => ∑ k, W l k * c k) l| ≤
      layerBudget M m w C 0 ec := by
  sorry

/-- The output-layer (linear) grad-close: `linearFloatGrad` is within
`mulErr M A 1 0 (cotErr M m δ G)` of `aᵢ·(softmax − onehot)ⱼ`, `δ = layerBudget M d w A β 0`.
Obligation: `lean_mlp.float.linear_grad_close`. -/
theorem linear_grad_close (M : FloatModel) {d m : ℕ} (W : Fin d → Fin m → ℝ) (b : Fin m → ℝ)
    (a : Fin d → ℝ) (label : Fin m) (A w β G : ℝ) (ha : ∀ i, |a i| ≤ A) (hW : ∀ j k, |W j k| ≤ w)
    (hb : ∀ k, |b k| ≤ β) (hδ1 : 2 * layerBudget M d w A β 0 < 1) (hG : G < 80)
    (hspread : ∀ j k, (∑ i, a i * W i j + b j) - (∑ i, a i * W i k + b k) + 2 * layerBudget M d w A β 0 ≤ G)
    (i : Fin d) (j : Fin m) :
    |linearFloatGrad M W b a label i j -
        a i * (Real.exp (∑ i', a i' * W i' j + b j) / ∑ k, Real.exp (∑ i', a i' * W i' k + b k)
          - if j = label then 1 else 0)| ≤
      mulErr M A 1 0 (cotErr M m (layerBudget M d w A β 0) G) := by
  sorry

/-- The hidden-layer grad-close (`mlp_w1_grad_close`): under the rounding margin
`E₁ = layerBudget M d₁ w₁ A₀ β₁ 0 < |z₁ⱼ|`, `mlpHiddenFloatGrad` is within
`mulErr M A₀ (layerAct d₃ w₂ 1) 0 (layerBudget M d₃ w₂ 1 0 (cotErr M d₃ δ G))` of the certified
reluMask-form gradient, `δ = layerBudget M d₂ w₂ A₁ β₂ E₁`. The exact side is abstracted as
`g`, the certified closed form. Obligation: `lean_mlp.float.mlp_w1_grad_close`. -/
theorem mlp_w1_grad_close (M : FloatModel) {d₁ d₂ d₃ : ℕ} (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ)
    (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ) (a₀ : Fin d₁ → ℝ) (label : Fin d₃)
    (g : Fin d₁ → Fin d₂ → ℝ) (A₀ A₁ w₁ w₂ β₁ β₂ G : ℝ)
    (hg : ∀ i j, g i j = a₀ i * reluMask (fun l => ∑ i', a₀ i' * W₁ i' l + b₁ l)
      (fun l => ∑ k, W₂ l k * (Real.exp (∑ l', max (∑ i', a₀ i' * W₁ i' l' + b₁ l') 0 * W₂ l' k + b₂ k) /
        ∑ k', Real.exp (∑ l', max (∑ i', a₀ i' * W₁ i' l' + b₁ l') 0 * W₂ l' k' + b₂ k')
        - if k = label then 1 else 0)) j)
    (hmargin_round : ∀ j, layerBudget M d₁ w₁ A₀ β₁ 0 < |∑ i, a₀ i * W₁ i j + b₁ j|)
    (hhead : 2 * layerBudget M d₂ w₂ A₁ β₂ (layerBudget M d₁ w₁ A₀ β₁ 0) < 1) (hG : G < 80)
    (i : Fin d₁) (j : Fin d₂) :
    |mlpHiddenFloatGrad M W₁ b₁ W₂ b₂ a₀ label i j - g i j| ≤
      mulErr M A₀ (layerAct d₃ w₂ 1) 0
        (layerBudget M d₃ w₂ 1 0 (cotErr M d₃ (layerBudget M d₂ w₂ A₁ β₂ (layerBudget M d₁ w₁ A₀ β₁ 0)) G)) := by
  sorry

/-- The input-layer grad-close (`mlp_w0_grad_close`): under both rounding margins, the W₀ float
gradient is within `mulErr M X C₀ 0 (layerBudget M d₂ w₁ C₁ 0 (layerBudget M d₃ w₂ 1 0 (cotErr …)))`
of the certified nested-reluMask gradient `g`. Obligation: `lean_mlp.float.mlp_w0_grad_close`. -/
theorem mlp_w0_grad_close (M : FloatModel) {d₀ d₁ d₂ d₃ : ℕ} (W₀ : Fin d₀ → Fin d₁ → ℝ) (b₀ : Fin d₁ → ℝ)
    (W₁ : Fin d₁ → Fin d₂ → ℝ) (b₁ : Fin d₂ → ℝ) (W₂ : Fin d₂ → Fin d₃ → ℝ) (b₂ : Fin d₃ → ℝ)
    (x : Fin d₀ → ℝ) (label : Fin d₃) (g : Fin d₀ → Fin d₁ → ℝ) (X A₀ A₁ w₀ w₁ w₂ β₀ β₁ β₂ G : ℝ)
    (E₀ E₁ δ : ℝ) (hE₀ : E₀ = layerBudget M d₀ w₀ X β₀ 0) (hE₁ : E₁ = layerBudget M d₁ w₁ A₀ β₁ E₀)
    (hδ : δ = layerBudget M d₂ w₂ A₁ β₂ E₁)
    (hmargin0_round : ∀ j, E₀ < |∑ i, x i * W₀ i j + b₀ j|)
    (hmargin1_round : ∀ l, E₁ < |∑ j, max (∑ i, x i * W₀ i j + b₀ j) 0 * W₁ j l + b₁ l|)
    (hhead : 2 * δ < 1) (hG : G < 80) (i : Fin d₀) (j : Fin d₁) :
    |mlpInputFloatGrad M W₀ b₀ W₁ b₁ W₂ b₂ x label i j - g i j| ≤
      mulErr M X (layerAct d₂ w₁ (layerAct d₃ w₂ 1)) 0
        (layerBudget M d₂ w₁ (layerAct d₃ w₂ 1) 0 (layerBudget M d₃ w₂ 1 0 (cotErr M d₃ δ G))) := by
  sorry

/-- [budget_compose] The composed budgets are the stage bounds chained by the triangle
inequality: `mulErr`, `layerBudget` and `cotErr` each bound their stage given the incoming error
bound, so the nested expression bounds the whole chain. Obligation:
`lean_mlp.float.budget_compose` (z3 stage lemmas over ℝ, sympy algebra and composition). -/
theorem budget_compose (M : FloatModel) (A C ea ec a a' c c' r : ℝ) (ha : |a| ≤ A) (hc : |c| ≤ C)
    (ha' : |a' - a| ≤ ea) (hc' : |c' - c| ≤ ec) (hr : |r - a' * c'| ≤ M.u * |a' * c'| + M.μ) :
    |r - a * c| ≤ mulErr M A C ea ec := by
  sorry

end FloatBridge
