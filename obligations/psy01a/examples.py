"""Psy01-A: an existential part of a statement, shown at an example the obligation chooses."""

from __future__ import annotations

from typing import Any, Mapping

from checker.backends import exact
from checker.kernel.model import Status
from checker.kernel.verdicts import fmt_map, unknown


def example_instance(c: Any, point: Mapping[str, Any]):
    """``c`` evaluated exactly at ``point`` (its hypotheses and conclusion both hold there): an example
    the obligation chose for an existential part of its statement. A point that is not an instance is a
    bad example, not a counterexample to the statement: ``unknown``, never ``refuted``."""
    v = exact.check_instance(c, point, "the chosen example")
    if v.status is Status.PROVED:
        return v
    return unknown(v.certificate.method, f"the chosen example {fmt_map(point)} is not an instance of {c.name}",
                   *v.certificate.steps)
