"""The claim language, public: what a catalogue writes its theorems in.

    from checker.claims import claim, integer, natural, Claim, Env

The definitions live in :mod:`checker.kernel.claims` (the kernel reads claims; it is the only
place they are defined). This module is the stable name a catalogue imports them by.
"""

from checker.kernel.claims import (
    REAL,
    Claim,
    Domain,
    Env,
    Formula,
    Kind,
    Part,
    Realisation,
    Realiser,
    Unrealisable,
    claim,
    closed_at,
    integer,
    natural,
    parse_variable,
    real,
)
from checker.kernel.existence import Existence, SomeInstance, exists, some_instance
from checker.kernel.sized import SizedClaim, sized_claim

__all__ = [
    "REAL",
    "Claim",
    "Existence",
    "exists",
    "SomeInstance",
    "some_instance",
    "Domain",
    "Env",
    "Formula",
    "Kind",
    "Part",
    "Realisation",
    "Realiser",
    "Unrealisable",
    "claim",
    "closed_at",
    "integer",
    "natural",
    "parse_variable",
    "real",
    "SizedClaim",
    "sized_claim",
]
