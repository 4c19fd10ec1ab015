/-
  Lean 4-style mirror of the claims of `001_0878a03787123b55.txt`
  (review of arXiv 2506.08764: random-matrix stability of the Jacobian after pruning).

  Not compiled: no Lean toolchain is available. Each declaration states a claim with its
  hypotheses; proofs are `sorry`. The Python obligations named in the docstrings are what is
  machine-checked, within their stated scope; the Monte-Carlo ones give evidence only.
-/
import Mathlib

open Filter Topology MeasureTheory ProbabilityTheory

namespace RmtJacobian

/-- The second moment of a `N(0, 2/n)` weight beyond the threshold `t`:
`E[w² · 1{|w| > t}] = 2 ∫_t^∞ w² p(w) dw`, `p` the `N(0, 2/n)` density. -/
noncomputable def truncMoment (n t : ℝ) : ℝ :=
  2 * ∫ w in Set.Ioi t, w ^ 2 * (Real.sqrt (n / (4 * Real.pi)) * Real.exp (-(n * w ^ 2) / 4))

/-- The referee's asymptotic form `2t · e^{−nt²/4} / √(nπ)`. -/
noncomputable def refereeMoment (n t : ℝ) : ℝ :=
  2 * t * Real.exp (-(n * t ^ 2) / 4) / Real.sqrt (n * Real.pi)

/-- The paper's expression as the review quotes it, `e^{−nt²/2} · √(2nt²) / π`. -/
noncomputable def paperMoment (n t : ℝ) : ℝ :=
  Real.exp (-(n * t ^ 2) / 2) * Real.sqrt (2 * n * t ^ 2) / Real.pi

/-- The square of Theorem 4.2's mask constant, `√(2π) · e^{nt²/2} / (t · n^{3/2})`. -/
noncomputable def maskScaleSq (n t : ℝ) : ℝ :=
  Real.sqrt (2 * Real.pi) * Real.exp (n * t ^ 2 / 2) / (t * n * Real.sqrt n)

/-- The row second moment under the mask, normalised by the unpruned variance `2/n`. -/
noncomputable def rowSum (n t : ℝ) : ℝ := n / 2 * maskScaleSq n t * truncMoment n t

/-- Theorem 4.2's range for the threshold at width `n`, with constant `c`. -/
def InRange (c : ℝ) (n : ℕ) (t : ℝ) : Prop :=
  0 < t ∧ (n : ℝ) * t ^ 2 ≤ 4 * Real.log n - c * Real.log (Real.log n)

/-- The referee's asymptotic is right: written in `u = t√(n/2)` the ratio of the true moment to
`2t e^{−nt²/4}/√(nπ)` does not depend on `n` and tends to `1` as `u → ∞`.
Obligation: `rmt_jacobian.truncated_moment_referee` (sympy). -/
theorem truncated_moment_referee (n : ℝ) (hn : 0 < n) :
    Tendsto (fun u : ℝ => truncMoment n (u * Real.sqrt (2 / n)) / refereeMoment n (u * Real.sqrt (2 / n)))
      atTop (𝓝 1) := by
  sorry

/-- The paper's expression is not asymptotic to the moment in Theorem 4.2's range: some
threshold sequence inside the range (with `nt² → ∞`) has ratio not tending to `1`.
Obligation: `rmt_jacobian.truncated_moment_paper` (sympy limits, interval witness). -/
theorem truncated_moment_paper_false :
    ¬ ∀ t : ℕ → ℝ, (∀ᶠ n in atTop, InRange 8 n (t n)) → Tendsto (fun n : ℕ => (n : ℝ) * t n ^ 2) atTop atTop →
      Tendsto (fun n : ℕ => paperMoment n (t n) / truncMoment n (t n)) atTop (𝓝 1) := by
  sorry

/-- With Theorem 4.2's mask, `c² · (referee's asymptotic) = 2√2 e^{nt²/4}/n²`, and along every
threshold sequence in the range with `nt² → ∞` the normalised row sums tend to `0`.
Obligation: `rmt_jacobian.mask_row_sums` (sympy). -/
theorem mask_row_sums_vanish (c : ℝ) (hc : 0 < c) :
    (∀ n t : ℝ, 0 < n → 0 < t →
      maskScaleSq n t * refereeMoment n t = 2 * Real.sqrt 2 * Real.exp (n * t ^ 2 / 4) / n ^ 2) ∧
    ∀ t : ℕ → ℝ, (∀ᶠ n in atTop, InRange c n (t n)) → Tendsto (fun n : ℕ => (n : ℝ) * t n ^ 2) atTop atTop →
      Tendsto (fun n : ℕ => rowSum n (t n)) atTop (𝓝 0) := by
  sorry

/-- The paper's claim that condition (ii) holds under the Theorem 4.2 mask (row sums `→ 1`) is false.
Obligation: `rmt_jacobian.mask_condition_ii_paper` (sympy limit, interval witness). -/
theorem mask_condition_ii_paper_false :
    ¬ ∀ t : ℕ → ℝ, (∀ᶠ n in atTop, InRange 8 n (t n)) → Tendsto (fun n : ℕ => (n : ℝ) * t n ^ 2) atTop atTop →
      Tendsto (fun n : ℕ => rowSum n (t n)) atTop (𝓝 1) := by
  sorry

/-- Condition (ii′) as stated is `1` for the unpruned mask at every width; the `1/n` form is `0`.
Obligation: `rmt_jacobian.condition_ii_prime_typo` (z3, exact, sympy). -/
theorem condition_ii_prime_typo (n : ℕ) (hn : 0 < n) :
    |(2 / (n : ℝ)) * ∑ _k : Fin n, (1 : ℝ) ^ 2 - 1| = 1 ∧
    |(1 / (n : ℝ)) * ∑ _k : Fin n, (1 : ℝ) ^ 2 - 1| = 0 := by
  sorry

/-- The random-pruning mask `(1−s)^{−1/2} · Bernoulli(1−s)` keeps the second moment of the weights.
Obligation: `rmt_jacobian.random_pruning_scaling` (z3, sympy). -/
theorem random_pruning_scaling (s σ2 : ℝ) (hs₀ : 0 ≤ s) (hs₁ : s < 1) :
    (1 - s) * ((1 - s) ^ (-(1 / 2 : ℝ))) ^ 2 * σ2 + s * 0 ^ 2 * σ2 = σ2 := by
  sorry

/-- `log⁴(256)/256 ≈ 3.69`: within 5% and rounding to `3.69`.
Obligation: `rmt_jacobian.log4_remark` (interval). -/
theorem log4_remark :
    |Real.log 256 ^ 4 / 256 - 3.69| ≤ 3.69 / 20 ∧ |Real.log 256 ^ 4 / 256 - 3.69| ≤ 1 / 200 := by
  sorry

/-- `log¹⁰(256)/256` is not within 5% of `0.009` (it is about `1.07 · 10⁵`).
Obligation: `rmt_jacobian.log10_remark` (interval). -/
theorem log10_remark_false : ¬ |Real.log 256 ^ 10 / 256 - 0.009| ≤ 0.009 / 20 := by
  sorry

/-- The `ℓ²` operator norm of a square matrix. -/
noncomputable def opNorm {n : ℕ} (A : Matrix (Fin n) (Fin n) ℝ) : ℝ :=
  ‖LinearMap.toContinuousLinearMap (Matrix.toEuclideanLin A)‖

/-- The diagonal 0/1 matrix of a sign pattern. -/
noncomputable def signs {n : ℕ} (d : Fin n → Bool) : Matrix (Fin n) (Fin n) ℝ :=
  Matrix.diagonal fun i => if d i then 1 else 0

variable {Ω : Type*} [MeasureSpace Ω] [IsProbabilityMeasure (ℙ : Measure Ω)]

/-- Entries independent with law `N(0, 2/n)`. -/
def CriticalGaussian {n : ℕ} (W : Ω → Matrix (Fin n) (Fin n) ℝ) : Prop :=
  iIndepFun (fun ij : Fin n × Fin n => fun ω => W ω ij.1 ij.2) ℙ ∧
    ∀ i j, Measure.map (fun ω => W ω i j) ℙ = gaussianReal 0 ⟨2 / n, by positivity⟩

/-- Approximation 2.1 at depth 2, for the spectral norm: with critical Gaussian weights, the real
ReLU signs `D₁ = 1{W₁x > 0}` and independent fair coins `Δ` give the same limit, and that limit is
the free-probability value `2√((71 + 17√17)/32)`. Open in the source; the obligations
`rmt_jacobian.approximation21_test` and `rmt_jacobian.approximation21_test_slow` give Monte-Carlo
evidence only (and test the magnitude-pruned weights as well). -/
theorem approximation21_norm_gap
    (W₁ W₂ : (n : ℕ) → Ω → Matrix (Fin n) (Fin n) ℝ) (Δ : (n : ℕ) → Ω → Fin n → Bool)
    (x : (n : ℕ) → Fin n → ℝ) (hx : ∀ n, x n ≠ 0)
    (hW : ∀ n, CriticalGaussian (W₁ n) ∧ CriticalGaussian (W₂ n) ∧ IndepFun (W₁ n) (W₂ n) ℙ)
    (hΔ : ∀ n, iIndepFun (fun i : Fin n => fun ω => Δ n ω i) ℙ ∧
      (∀ i, ℙ {ω | Δ n ω i = true} = 1 / 2) ∧ IndepFun (Δ n) (fun ω => (W₁ n ω, W₂ n ω)) ℙ) :
    Tendsto (fun n => 𝔼[fun ω => opNorm (W₂ n ω * signs (fun i => decide (0 < (W₁ n ω *ᵥ x n) i)) * W₁ n ω)]
        - 𝔼[fun ω => opNorm (W₂ n ω * signs (Δ n ω) * W₁ n ω)]) atTop (𝓝 0) ∧
    Tendsto (fun n => 𝔼[fun ω => opNorm (W₂ n ω * signs (Δ n ω) * W₁ n ω)]) atTop
      (𝓝 (2 * Real.sqrt ((71 + 17 * Real.sqrt 17) / 32))) := by
  sorry

/-- Assumption (A3) fails for the real network: an entry of `D₁` is not independent of the weights
of its row. Obligation: `rmt_jacobian.sign_weight_dependence` (chi-square tests, evidence only). -/
theorem sign_weight_dependence (n : ℕ) (hn : 1 ≤ n) (W₁ : Ω → Matrix (Fin n) (Fin n) ℝ)
    (hW : CriticalGaussian W₁) (i : Fin n) :
    ¬ IndepFun (fun ω => decide (0 < (W₁ ω *ᵥ fun _ => 1 / Real.sqrt n) i)) (fun ω => W₁ ω i i) ℙ := by
  sorry

end RmtJacobian
