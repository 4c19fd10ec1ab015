"""The checker's exceptions: one root, user errors also subclass the builtin they mean."""


class CheckerError(Exception):
    """Root of every error the checker raises on purpose."""


class InvalidObligation(CheckerError, ValueError):
    """A declaration is malformed (message: ``file:line: what is wrong; what to do``)."""


class UsageError(CheckerError, ValueError):
    """The command line asks for something that does not exist or makes no sense."""


class SchemaError(CheckerError, ValueError):
    """A JSON report cannot be read back (wrong schema version or missing fields)."""


class ClaimMisuse(CheckerError, TypeError):
    """A claim applies Python's own ``max``/``min``/``abs``/``float``/``if`` to a term, or mixes in a
    float constant: something only one backend could evaluate, if any (the message names the op to use)."""
