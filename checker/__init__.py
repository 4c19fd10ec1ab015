"""The proof-obligation checker: model, backends, runner, reports and CLI.

Obligation modules import the declaration API from here::

    from checker import obligation, Expect, Source, Verdict
"""

__version__ = "0.1.0"

from checker.model import (  # noqa: E402  (re-exported API)
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
from checker.registry import obligation  # noqa: E402

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
    "obligation",
    "__version__",
]
