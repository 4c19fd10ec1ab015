"""Public helpers for a catalogue's own tests: discharge one obligation in this process.

    from checker import Status
    from checker.testing import run_obligation

    def test_lemma_1_is_proved():
        assert run_obligation("mypaper.relu_lipschitz").status is Status.PROVED
"""

from __future__ import annotations

from checker.kernel.model import Context, Result, derive_seed
from checker.run.discovery import discover


def run_obligation(ob_id: str, package: str | None = None, *, timeout_s: float = 120.0, slow: bool = False,
                   seed: int | None = None) -> Result:
    """Discharge obligation ``ob_id`` of ``package`` (default: the id's first component) in this
    process, with the seed ``obligations check`` would give it. No worker, so no hard limits."""
    from checker.run.runner import DEFAULT_SEED, execute

    ob = discover(package or ob_id.split(".")[0]).by_id(ob_id)
    base = DEFAULT_SEED if seed is None else seed
    result, _ = execute(ob, Context(ob_id, derive_seed(base, ob_id), timeout_s, slow))
    return result
