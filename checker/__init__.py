"""The proof-obligation checker.

Obligation modules import the declaration API from here, and claims from :mod:`checker.claims`::

    from checker import obligation, Expect, Source, Verdict, declare_bound, declare_widths
    from checker.claims import claim

The engine lives in rooms, lowest first: :mod:`checker.kernel` (model, claims, declarations,
verdict rules), :mod:`checker.backends` (exact, z3, sympy, intervals, sampling),
:mod:`checker.audit` (re-checks and audits), :mod:`checker.report` (renderers, which read results
only), :mod:`checker.store` (cache, fingerprints, baselines), :mod:`checker.run` (discovery,
runner, workers) and :mod:`checker.face` (CLI, pytest plugin, configuration). The public modules
at this level are this one, :mod:`checker.claims`, :mod:`checker.testing` and ``__main__``.
"""

from checker.kernel.model import (  # (re-exported API)
    CHECKER_VERSION as __version__,
    Certificate,
    Context,
    Expect,
    Obligation,
    Outcome,
    Result,
    Source,
    Status,
    Step,
    Verdict,
)
from checker.kernel.declare import declare_bound, declare_widths
from checker.kernel.declaration import obligation

__all__ = [
    "Certificate",
    "Context",
    "Expect",
    "Obligation",
    "Outcome",
    "Result",
    "Source",
    "Status",
    "Step",
    "Verdict",
    "declare_bound",
    "declare_widths",
    "obligation",
    "__version__",
]
