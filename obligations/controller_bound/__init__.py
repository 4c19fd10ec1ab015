"""Claims of ``003_be90e9c95890d8e1.txt``: a review of arXiv 2507.02953 (closed-form bound on a
neural controller's output change after pruning one or several weight matrices).

- :mod:`.network` — the L-layer ReLU policy and the reconstructed constants C_k(s)
- :mod:`.theorem2` — the single-layer bound, its tightness, unbounded state spaces
- :mod:`.corollary1` — the additive multi-layer bound (false) and its corrected form
- :mod:`.sized_network` — the two-layer matrix network for every width: Theorem 2 and the corrected
  bounds as sized theorems, with their lemmas
"""
