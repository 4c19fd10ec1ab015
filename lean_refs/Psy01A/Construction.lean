/-
  Lean 4-style mirror of the Psy01-A sparse construction and the claims it settles
  (`000_1ea2e46c3d2f64bf.txt`). Not compiled: no Lean toolchain is available. Proofs are
  `sorry`; the obligations named in the docstrings are what is machine-checked, within their
  stated scope. The reconstructions used here are listed in
  `docs/reconstructions/psy01a_construction.md`.
-/
import Mathlib

namespace Psy01A

namespace ConstructionDefs

/-- Sign pattern `s_j` of cluster `j`; the centre is `μ_j = 3 s_j`. -/
def clusterSign : Fin 4 → ℝ × ℝ
  | 0 => (1, 1) | 1 => (1, -1) | 2 => (-1, 1) | 3 => (-1, -1)

/-- First-layer unit `(j, s)` of the construction:
`ReLU(s_{j,1} x₁ + s_{j,2} x₂ + 3 s c₁ − 3 s c₂ − 6)`. -/
noncomputable def unitValue (j : Fin 4) (s : ℝ) (x c : ℝ × ℝ) : ℝ :=
  max 0 ((clusterSign j).1 * x.1 + (clusterSign j).2 * x.2 + 3 * s * c.1 - 3 * s * c.2 - 6)

/-- The region `E` of cluster perturbations on which the construction classifies both tasks. -/
def regionE (ε : ℝ × ℝ) : Prop := |ε.1 + ε.2| < 3 ∧ |ε.1 - ε.2| < 3

/-- `p_ν = (2Φ(3/(√2 ν)) − 1)²`, written with `erf`: `erf(3/(2ν))²`. -/
noncomputable def pNu (ν : ℝ) : ℝ := (Real.erf (3 / (2 * ν))) ^ 2

/-- Ceiling retention count `⌈d N⌉`. -/
noncomputable def tenPercentCount (N : ℕ) : ℕ := ⌈(N : ℝ) / 10⌉₊

end ConstructionDefs

open ConstructionDefs

/-- The sparse construction. At ten percent the layer-wise counts of `4 → 256 → 256 → 128 → 4`
are `103, 6554, 3277, 52`; a network with 56 essential weights padded to these counts is kept
exactly by magnitude pruning; at the noiseless centres the matching unit equals 3 and the
others vanish; on `E` the matching unit is positive and the others are zero; hence the cue
drop satisfies `Δ ≥ 2 p_ν − 1`. Stated here for the first-layer facts and the counts; the
network-level statements are checked by obligation `psy01a.sparse_construction`
(reference pruning, exact centres, z3 on `E`, rigorous enclosures of `p_ν`). -/
theorem sparse_construction :
    (tenPercentCount 1024 = 103 ∧ tenPercentCount 65536 = 6554 ∧
      tenPercentCount 32768 = 3277 ∧ tenPercentCount 512 = 52) ∧
    (∀ (j : Fin 4) (s : ℝ), (s = 1 ∨ s = -1) →
      unitValue j s (3 * (clusterSign j).1, 3 * (clusterSign j).2)
        (if s = 1 then (1, 0) else (0, 1)) = 3) ∧
    (∀ (j j' : Fin 4) (s s' : ℝ) (ε : ℝ × ℝ), (s = 1 ∨ s = -1) → (s' = 1 ∨ s' = -1) →
      regionE ε →
      let x := (3 * (clusterSign j).1 + ε.1, 3 * (clusterSign j).2 + ε.2)
      let c : ℝ × ℝ := if s = 1 then (1, 0) else (0, 1)
      (j' = j ∧ s' = s → 0 < unitValue j' s' x c) ∧
      (¬ (j' = j ∧ s' = s) → unitValue j' s' x c = 0)) := by
  sorry

/-- The proposed universal bound "`Δ ≤ 1/2 + O(ν)` at every density below a threshold near
0.2" is false: for every `C ≥ 0` and `ν₀ > 0` some `ν ∈ (0, ν₀)` has `2 p_ν − 1 > 1/2 + C ν`,
and the sparse construction (density 1/10) has `Δ ≥ 2 p_ν − 1`.
Obligation: `psy01a.universal_cue_threshold` (refuted, as the text says). -/
theorem universal_cue_threshold :
    ¬ ∃ C ν₀ : ℝ, 0 ≤ C ∧ 0 < ν₀ ∧ ∀ ν : ℝ, 0 < ν → ν < ν₀ → 2 * pNu ν - 1 ≤ 1 / 2 + C * ν := by
  sorry

/-- Independent Bernoulli(`p`) retention deletes a whole 512-entry cue block with probability
`(1 − p)^512`; at `p = 1/10` this is `(9/10)^512 ≈ 3.73 · 10⁻²⁴`.
Obligation: `psy01a.bernoulli_cue_block`. -/
theorem bernoulli_cue_block (p : ℝ) (hp : 0 ≤ p ∧ p ≤ 1) :
    (∏ _i : Fin 512, (1 - p)) = (1 - p) ^ 512 ∧
      (3.7339184874102004353e-24 : ℝ) ≤ (9 / 10 : ℝ) ^ 512 ∧
      (9 / 10 : ℝ) ^ 512 ≤ 3.7339184874102004354e-24 := by
  sorry

/-- If the cue block maps `c_v − c_a` to zero, the endpoint first-layer representations agree
for every input; they need not equal the zero-cue representation.
Obligation: `psy01a.cue_invariance_endpoint_witness`. -/
theorem cue_invariance_endpoint_witness {n : ℕ} (Bx : Matrix (Fin n) (Fin 2) ℝ)
    (Bc : Matrix (Fin n) (Fin 2) ℝ) (b : Fin n → ℝ)
    (h : Bc.mulVec ![1, -1] = 0) (x : Fin 2 → ℝ) :
    (fun i => max 0 ((Bx.mulVec x) i + (Bc.mulVec ![1, 0]) i + b i)) =
      (fun i => max 0 ((Bx.mulVec x) i + (Bc.mulVec ![0, 1]) i + b i)) ∧
    ∃ (Bc' : Matrix (Fin 1) (Fin 2) ℝ), Bc'.mulVec ![1, -1] = 0 ∧
      max 0 ((Bc'.mulVec ![1, 0]) 0) ≠ max 0 ((Bc'.mulVec ![0, 0]) 0) := by
  sorry

end Psy01A
