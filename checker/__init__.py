"""The proof-obligation checker: model, backends, runner, reports and CLI.

Obligation modules import the declaration API from here::

    from checker import obligation, Expect, Source, Verdict
    from checker.declare import declare_bound, declare_widths   # hints for the audits
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
from checker.declare import declare_bound, declare_widths  # noqa: E402
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
    "declare_bound",
    "declare_widths",
    "obligation",
    "__version__",
]
