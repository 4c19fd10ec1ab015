"""Claims of ``000_1ea2e46c3d2f64bf.txt``: Psy01-A, phased magnitude pruning in the 067A
task-gated ReLU network. Most displayed equations were lost in extraction; every
reconstruction is written where it is used and collected in ``docs/reconstructions.md``.

- :mod:`.setup` — architecture and parameter counts
- :mod:`.reference_model` — the 067A reference network, exact-count magnitude pruning, random streams
- :mod:`.cue` — the signed margin and its Lipschitz constant
- :mod:`.cue_use` — cue obstruction, rule-use and cue Lipschitz certificates
- :mod:`.construction` — the 56-weight sparse construction at 10% density; the universal threshold refuted
- :mod:`.stress_network` — the seeded 067A-shaped network of the stress certificates, its test set, the forward pass
- :mod:`.arb_linalg` — rigorous (arb) linear algebra: exact matrices, operator-norm bounds (a library)
- :mod:`.stress_certificates` — the frozen-gate and global certificates computed rigorously on a network (a library)
- :mod:`.stress_claims` — claims shared by the stress, cue-use and accuracy obligations
- :mod:`.stress_bounds` — stress path bound, global and frozen-gate Gaussian certificates, their Monte-Carlo bracket, the strict comparison
- :mod:`.stress_vs_masks` — identical masks with different stress; positive rescaling
- :mod:`.parameter_perturbation` — parameter stability and the pruning-error bound
- :mod:`.comparison` — the affine-Gaussian comparison model and its corollary
- :mod:`.accuracy` — accuracy stability and the soft relaxation
- :mod:`.stability` — masked operator norms
- :mod:`.pruning` — retention counts, nesting identity, hard-pruning discontinuity, Adam resets
- :mod:`.examples` — an existential part of a statement shown at a chosen example (a library)
"""
