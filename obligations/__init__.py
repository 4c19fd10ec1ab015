"""The catalogue: one subpackage per source document (see ``docs/catalogue.md``).

- :mod:`obligations.psy01a` — ``000_1ea2e46c3d2f64bf.txt``, Psy01-A (the 067A task-gated ReLU network)
- :mod:`obligations.controller_bound` — ``003_be90e9c95890d8e1.txt``, review of arXiv 2507.02953
"""
