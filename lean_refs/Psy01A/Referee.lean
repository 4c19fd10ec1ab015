/-
  Lean 4-style mirror of the referee's follow-up questions on Psy01-A (`000_1ea2e46c3d2f64bf.txt`):
  the frozen-gate theorem on the sparse construction and on the t-unit networks, Δ < 1 on the
  construction, and where the soft-relaxation constant is attained. Not compiled; proofs are `sorry`.
-/
import Mathlib

namespace Psy01A

namespace RefereeDefs

/-- The sparse construction for involution `π`, pruned by layer-wise magnitude pruning at 10%. -/
opaque sparseConstruction (π : Equiv.Perm (Fin 4)) : Type

/-- The number of layer-`ℓ` gates whose clean preactivation is exactly zero at input `u`. -/
opaque zeroGates {π : Equiv.Perm (Fin 4)} (θ : sparseConstruction π) (ℓ : ℕ) (u : Fin 4 → ℝ) : ℕ

/-- The noiseless input `(μ_j, c)` with the visual (`s = 1`) or voice (`s = −1`) endpoint cue. -/
opaque centreInput (j : Fin 4) (s : ℤ) : Fin 4 → ℝ

/-- The cue drop `Δ` of the construction at cluster noise `ν`. -/
opaque cueDrop {π : Equiv.Perm (Fin 4)} (θ : sparseConstruction π) (ν : ℝ) : ℝ

/-- Certified frozen-gate lower and upper bounds of the t-unit network at `σ`, input `u`. -/
opaque tUnitFrozenBounds (t σ : ℝ) (u : Fin 4 → ℝ) : ℝ × ℝ

end RefereeDefs

open RefereeDefs

/-- At each noiseless (centre, endpoint cue) input the construction has 7 zero gates in each of
layers 2 and 3, so the frozen-gate hypothesis fails and only `[0, 1]` is certified.
Obligation: `psy01a.frozen_gates_on_construction` (exact, each involution). -/
theorem frozen_gates_on_construction (π : Equiv.Perm (Fin 4)) (hπ : ∀ y, π y ≠ y ∧ π (π y) = y)
    (θ : sparseConstruction π) (j : Fin 4) (s : ℤ) (hs : s = 1 ∨ s = -1) :
    zeroGates θ 2 (centreInput j s) = 7 ∧ zeroGates θ 3 (centreInput j s) = 7 := by
  sorry

/-- `Δ < 1` strictly for every `ν > 0` on the construction. Obligation: `psy01a.construction_delta_below_one`. -/
theorem construction_delta_below_one (π : Equiv.Perm (Fin 4)) (θ : sparseConstruction π) (ν : ℝ) (hν : 0 < ν) :
    cueDrop θ ν < 1 := by
  sorry

/-- The frozen-gate bounds of the t-unit networks are trivial (`ε_gate > 1`).
Obligation: `psy01a.frozen_gates_on_t_unit_networks` (t = 1/2, 1, 2; σ = 1/4). -/
theorem frozen_gates_on_t_unit_networks (t : ℝ) (ht : t ∈ ({1/2, 1, 2} : Set ℝ)) (u : Fin 4 → ℝ) :
    tUnitFrozenBounds t (1/4) u = (0, 1) := by
  sorry

/-- `s(1 − s) = 1/4` exactly at `s = 1/2`, so `|∂_p B_i| = |W_i|/(4T r(p))` exactly when `q(p) = |W_i|`.
Obligation: `psy01a.soft_relaxation_constant_attained`. -/
theorem soft_relaxation_constant_attained (s : ℝ) (h0 : 0 < s) (h1 : s < 1) :
    s * (1 - s) = 1 / 4 ↔ s = 1 / 2 := by
  sorry

end Psy01A
