/-
  Lean 4-style mirror of the Psy01-A cue-use claims: the obstruction theorem, the rule-use
  certificate and the cue Lipschitz certificate (`000_1ea2e46c3d2f64bf.txt`). Not compiled: no
  Lean toolchain is available. Proofs are `sorry`; the obligations named in the docstrings are
  what is machine-checked, within their stated scope. Reconstructions:
  `docs/reconstructions/psy01a_comparison_stress.md`.
-/
import Mathlib

namespace Psy01A

namespace CueUseDefs

/-- A fixed-point-free involution of the four labels (the default is `y ↦ y + 2 mod 4`). -/
structure FPFInvolution where
  π : Fin 4 → Fin 4
  invol : ∀ y, π (π y) = y
  noFixed : ∀ y, π y ≠ y

/-- Endpoint and midpoint quantities of a (possibly randomised) classifier, as probabilities of
events on a common probability space: `gv, ga, gm, g0` are the predictions under `c_v`, `c_a`, `c_½`, `0`. -/
structure Scores (Ω : Type*) [MeasurableSpace Ω] where
  μ : MeasureTheory.ProbabilityMeasure Ω
  Y : Ω → Fin 4
  gv : Ω → Fin 4
  ga : Ω → Fin 4
  gm : Ω → Fin 4
  g0 : Ω → Fin 4

end CueUseDefs

open CueUseDefs MeasureTheory

variable {Ω : Type*} [MeasurableSpace Ω]

/-- Parts 1–3 of the obstruction theorem (and, since randomisation is part of `Ω`, the randomised
version when the randomisation is shared by both scorings).
Obligation: `psy01a.cue_obstruction` (every fixed-point-free involution × every joint law, z3). -/
theorem cue_obstruction (π : FPFInvolution) (sc : Scores Ω)
    (hm : ∀ f : Ω → Fin 4, MeasurableSet {ω | f ω = sc.Y ω} ∧ MeasurableSet {ω | f ω = π.π (sc.Y ω)}) :
    let P := fun s : Set Ω => (sc.μ s : ℝ)
    let qv := P {ω | sc.gv ω = sc.Y ω}
    let qa := P {ω | sc.ga ω = π.π (sc.Y ω)}
    let qw := P {ω | sc.ga ω = sc.Y ω}
    qa + qw ≤ 1 ∧ qv - qw ≥ qv + qa - 1 ∧
    ((∀ ω, sc.gv ω = sc.ga ω) → qv - qw = 0 ∧ qv + qa ≤ 1) ∧
    ((∀ ω, sc.gv ω = sc.ga ω ∧ sc.ga ω = sc.g0 ω) → qv - P {ω | sc.g0 ω = sc.Y ω} = 0) ∧
    (1 / 2) * P {ω | sc.gm ω = sc.Y ω} + (1 / 2) * P {ω | sc.gm ω = π.π (sc.Y ω)} ≤ 1 / 2 := by
  sorry

/-- If `q_v + q_a > 1` the classifier switches rules with the cue: `Δ > 0` and the endpoint
predictions differ with probability at least `q_v + q_a − 1`.
Obligation: `psy01a.rule_use_certificate`. -/
theorem rule_use_certificate (π : FPFInvolution) (sc : Scores Ω) :
    let P := fun s : Set Ω => (sc.μ s : ℝ)
    let qv := P {ω | sc.gv ω = sc.Y ω}
    let qa := P {ω | sc.ga ω = π.π (sc.Y ω)}
    let qw := P {ω | sc.ga ω = sc.Y ω}
    1 < qv + qa → 0 < qv - qw ∧ qv + qa - 1 ≤ P {ω | sc.gv ω ≠ sc.ga ω} := by
  sorry

/-- If `‖z − z'‖∞ ≤ η` and `|m(z, y)| > 2η`, correctness (smallest-index ties) is unchanged; hence
`|q(c) − q(c')| ≤ P{|m(z_θ(X, c; 0), Y)| ≤ 2η(c, c')}` with `η(c, c') = ‖B_{1,c}(c − c')‖ Π_{ℓ≥2} ‖B_ℓ‖`.
Obligation: `psy01a.cue_lipschitz_certificate`. -/
theorem cue_lipschitz_certificate (z z' : Fin 4 → ℝ) (y : Fin 4) (η : ℝ)
    (hz : ∀ i, |z i - z' i| ≤ η) (hm : 2 * η < |signedMargin z y|) :
    (∀ j, j ≠ y → (j < y → z j < z y) ∧ (y < j → z j ≤ z y)) ↔
      (∀ j, j ≠ y → (j < y → z' j < z' y) ∧ (y < j → z' j ≤ z' y)) := by
  sorry

end Psy01A
