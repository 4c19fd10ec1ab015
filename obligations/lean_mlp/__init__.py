"""Claims of ``002_9648822bf1d4473c.txt`` and ``004_8327de8ce09705d9.txt``: the docstrings of a
Lean 4 development proving that one (inexact, or binary32) SGD step on any single weight layer
of a dense → relu → dense → relu → dense MLP decreases the softmax cross-entropy loss.

- :mod:`.mlp` — the MLP, written once for Fractions, intervals and sympy (shapes, conventions)
- :mod:`.margins` — ℝ-side signs, dense/ReLU drifts and segment margins (every width, by induction)
- :mod:`.widths` — the one-column and one-layer lemmas those proofs instantiate, each proved by induction (a library)
- :mod:`.gradients` — closed-form gradients, reluMask bridges, differentiability off the kinks (sympy)
- :mod:`.lipschitz` — logit drifts (every shape, by induction) and the segment-Lipschitz constants (rigorous intervals, numpy search)
- :mod:`.softmax_sandwich` — the softmax ratio sandwich and e^y(1 − y) ≤ 1, shared by every Lipschitz chain (a library)
- :mod:`.linear_lipschitz` — the linear net's segment-Lipschitz constant (derived; z3, cross-checked at the example)
- :mod:`.binary32` — the binary32 float model and budgets (u, γₙ, mulErr, layerBudget, cotErr; a library)
- :mod:`.float_screen` — how a float32 run is compared soundly: float64 screen, exact re-check (a library)
- :mod:`.float32_stages` — FloatBridge: each stage's budget against real numpy float32, any summation order
- :mod:`.float32_gradients` — FloatBridge: the three grad-closes against real numpy float32
- :mod:`.float_lemmas` — the lemmas that prove the budgets (z3 floating-point and real arithmetic, sympy; a library)
- :mod:`.float_composition` — FloatBridge: the budgets' composition is the Lean nesting (z3, sympy)
- :mod:`.float_proofs` — FloatBridge: the rounding model, the stage lemmas and the grad-closes, proved
- :mod:`.descent` — the descent capstones: hypotheses written once, the implication (z3)
- :mod:`.descent_instances` — each capstone and binary32 rung at the shipped example network and at
  seeded networks (largest admissible lr), the joint all-layers step (open; evidence)
- :mod:`.discharge` — concrete-point evaluation of a capstone's hypotheses; :mod:`.commands` registers
  it as ``obligations discharge``
- ``data/example_mlp.npz`` — the shipped example network (``data/make_example.py`` regenerates it)
"""
