"""Regenerate ``example_mlp.npz`` (the shipped example network) deterministically.

    python obligations/lean_mlp/data/make_example.py

The weights are written in :func:`obligations.lean_mlp.discharge.example_network` (small dyadic
numbers, exact in binary32); ``tests/test_discharge_cli.py`` checks the shipped file equals
them.
"""

from pathlib import Path

from obligations.lean_mlp.discharge import write_example

if __name__ == "__main__":
    write_example(Path(__file__).resolve().parent / "example_mlp.npz")
