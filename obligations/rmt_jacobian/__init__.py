"""Claims of ``001_0878a03787123b55.txt``: a review of arXiv 2506.08764 (random-matrix stability of
the input–output Jacobian after pruning, and with correlated weights).

- :mod:`.expressions` — the review's formulas, written once over an ops namespace
- :mod:`.moments` — the truncated-Gaussian second moment and the Theorem 4.2 mask (major comment 2)
- :mod:`.conditions` — the (ii′) typo (major comment 3) and the random-pruning scaling
- :mod:`.remarks` — the minor comment's numbers log⁴(256)/256 and log¹⁰(256)/256
- :mod:`.freeprob` — the free-probability prediction for the norm of W₂ΔW₁
- :mod:`.approximation21` — the skeptic's concrete test of Approximation 2.1 (Monte-Carlo) and the
  chi-square check of dependence between D₁ and the weights

Reconstructions are collected in ``docs/reconstructions/rmt_jacobian.md``.
"""
