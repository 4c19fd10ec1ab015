"""The catalogue: one subpackage per source document.

- :mod:`obligations.psy01a` — ``000_1ea2e46c3d2f64bf.txt``, Psy01-A (the 067A task-gated ReLU network)
- :mod:`obligations.rmt_jacobian` — ``001_0878a03787123b55.txt``, review of arXiv 2506.08764
- :mod:`obligations.lean_mlp` — ``002_9648822bf1d4473c.txt`` and ``004_8327de8ce09705d9.txt``, the Lean development
- :mod:`obligations.controller_bound` — ``003_be90e9c95890d8e1.txt``, review of arXiv 2507.02953
"""
