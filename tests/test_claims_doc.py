"""docs/claims.md documents every op and combinator that exists, and nothing that does not."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

DOC = (Path(__file__).resolve().parents[1] / "docs" / "claims.md").read_text(encoding="utf-8")


def _ops_classes():
    from checker.backends.exact import ExactOps
    from checker.backends.interval import IntervalOps
    from checker.backends.sampling import NumpyOps
    from checker.backends.smt import Z3Ops
    from checker.kernel.printing import RenderOps

    return (ExactOps, Z3Ops, IntervalOps, NumpyOps, RenderOps)


def _ops(cls) -> set[str]:
    return {n for c in cls.__mro__[:-1] for n in vars(c) if not n.startswith("_") and n != "name"}


def test_every_backend_has_the_same_ops():
    """The ops namespaces agree, so the one table of the reference is true of each."""
    sets = [_ops(c) for c in _ops_classes()]
    assert all(s == sets[0] for s in sets), sets


def test_every_op_is_documented_and_every_documented_op_exists():
    from checker.kernel.sized import AGGREGATES, DERIVED

    ops = _ops(_ops_classes()[0]) | set(AGGREGATES) | set(DERIVED)
    documented = set(re.findall(r"\bo\.([a-z_0-9]+)\b", DOC))
    assert ops - documented == set(), f"undocumented ops: {sorted(ops - documented)}"
    assert documented - ops == set(), f"documented ops that do not exist: {sorted(documented - ops)}"


MODULES = {"induction": "checker.backends.induction", "library": "checker.backends.library", "smt": "checker.backends.smt", "exact": "checker.backends.exact", "interval": "checker.backends.interval",
           "sampling": "checker.backends.sampling", "symbolic": "checker.backends.symbolic", "fp": "checker.backends.fp",
           "verdicts": "checker.kernel.verdicts", "checker.testing": "checker.testing", "checker": "checker"}


@pytest.mark.parametrize("module, name", sorted(set(re.findall(
    r"`(induction|library|smt|exact|interval|sampling|symbolic|fp|checker\.testing|checker)\.([a-z_]+)\b", DOC))))
def test_every_documented_function_exists(module, name):
    assert hasattr(importlib.import_module(MODULES[module]), name), f"{module}.{name}"


def test_every_verdict_combinator_and_the_claim_builder_is_documented():
    """The constructors and combinators a discharge uses, with all_of's family and lemmas, and
    claim()'s keywords; nothing described as still to come."""
    for name in ("proved(", "refuted(", "supported(", "unknown(", "all_of(", "regrade(", "with_data(", "timed("):
        assert f"`{name}" in DOC, name
    assert "family=" in DOC and "lemmas=True" in DOC
    for keyword in ("hypotheses", "terms", "domains=", "derived", "realiser", "Unrealisable", "natural(", "integer("):
        assert keyword in DOC, keyword
    assert "TODO" not in DOC and "being added" not in DOC and "will be listed" not in DOC
