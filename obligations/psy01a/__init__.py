"""Claims of ``000_1ea2e46c3d2f64bf.txt``: Psy01-A, phased magnitude pruning in the 067A
task-gated ReLU network. Most displayed equations were lost in extraction; every
reconstruction is written where it is used and collected in ``docs/reconstructions.md``.

- :mod:`.setup` — architecture and parameter counts
- :mod:`.cue` — signed margins and cue certificates
- :mod:`.stability` — masked operator norms and pruning perturbations
"""
