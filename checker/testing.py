"""Public helpers for a catalogue's own tests: discharge one obligation in this process.

    from checker import Status
    from checker.testing import run_obligation

    def test_lemma_1_is_proved():
        assert run_obligation("mypaper.relu_lipschitz").status is Status.PROVED

An id need not start with its package's name (``bft17.margin`` may live in package ``mypaper``):
the obligation is looked up in the package the id starts with, if there is one, then in the
project's ``[tool.obligations] packages`` and in every catalogue registered under the
``obligations.catalogues`` entry point — as ``obligations check`` finds it.
"""

from __future__ import annotations

import importlib.util
import sys

from checker.kernel.declaration import Catalogue
from checker.kernel.errors import UsageError
from checker.kernel.model import Context, Obligation, Result, derive_seed
from checker.run.discovery import discover

_DISCOVERED: dict[str, Catalogue] = {}


class ObligationNotFound(UsageError, LookupError):
    """No catalogue the tests can load declares the id."""


def run_obligation(ob_id: str, package: str | None = None, *, timeout_s: float = 120.0, slow: bool = False,
                   seed: int | None = None) -> Result:
    """Discharge obligation ``ob_id`` in this process, with the seed ``obligations check`` would
    give it. ``package``: the catalogue package declaring it (default: found as the command finds
    it, see the module's docstring). No worker, so no hard limits."""
    from checker.run.runner import DEFAULT_SEED, execute

    ob = find_obligation(ob_id, package)
    base = DEFAULT_SEED if seed is None else seed
    result, _ = execute(ob, Context(ob_id, derive_seed(base, ob_id), timeout_s, slow))
    return result


def find_obligation(ob_id: str, package: str | None = None) -> Obligation:
    """The declared obligation ``ob_id``: in ``package`` when given, else in the package its id
    starts with, then the configured and the registered catalogues."""
    searched = []
    for name in [package] if package else _candidate_packages(ob_id):
        if name in searched:
            continue
        searched.append(name)
        catalogue = _catalogue(name)
        if any(ob.id == ob_id for ob in catalogue.obligations) or any(e.id == ob_id for e in catalogue.errors):
            return catalogue.by_id(ob_id)  # a rejected declaration raises its own message
    raise ObligationNotFound(
        f"no obligation {ob_id!r} in {', '.join(repr(p) for p in searched) or 'any catalogue'}"
        + ("" if package else " (the id's first component, [tool.obligations] packages, and the "
           "'obligations.catalogues' entry points)")
        + "; check the id with 'obligations list', or pass package='NAME'")


def _candidate_packages(ob_id: str) -> list[str]:
    from checker.face import config as project_config
    from checker.face.plugins import catalogue_packages

    out = []
    head = ob_id.split(".")[0]
    try:
        if head and importlib.util.find_spec(head) is not None:
            out.append(head)
    except (ImportError, ValueError):
        pass
    try:
        config = project_config.load()
    except UsageError:
        config = None
    if config is not None:
        if config.root is not None and str(config.root) not in sys.path:
            sys.path.insert(0, str(config.root))  # the project's packages, as the command imports them
        out += list(config.packages or ())
    out += list(catalogue_packages(config))
    return list(dict.fromkeys(out))


def _catalogue(package: str) -> Catalogue:
    if package not in _DISCOVERED:
        _DISCOVERED[package] = discover(package)
    return _DISCOVERED[package]
