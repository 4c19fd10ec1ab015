"""Backends: one module each, every one interpreting the same :class:`checker.kernel.claims.Claim`.

- :mod:`checker.backends.exact` — Fractions; evaluates witnesses, re-checks every counterexample.
- :mod:`checker.backends.smt` — z3; proves universally (negation ``unsat``) or finds candidates.
- :mod:`checker.backends.symbolic` — sympy; identities, derivatives, limits.
- :mod:`checker.backends.interval` — mpmath ``iv`` arithmetic plus python-flint ``arb``
  transcendentals; three-valued comparisons.
- :mod:`checker.backends.sampling` — numpy; seeded sampling and adversarial search.
- :mod:`checker.backends.fp` — binary32/binary64 rounding models.
- :mod:`checker.backends.memo` — the store of deterministic facts the jobs of one run share.

Heavy libraries are imported inside the backend that needs them, when first used.

May import: :mod:`checker.kernel` only (no runner, store, audit, report or face).
"""


class CannotDecide(Exception):
    """A backend cannot interpret part of a claim (e.g. ``sqrt`` in exact rationals).

    Raised inside a backend and turned into an ``unknown`` verdict by it, never into ``error``.
    """
