"""Hypothesis strategies for the engine tests, kept in one place (attrs' habit).

Hypothesis is optional here: when it is not installed, :func:`given` marks the test skipped
(with the reason) instead of failing collection, and the strategy builders return ``None``.
Settings are derandomised and use no example database, so a run is reproducible and leaves
nothing behind.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Iterable

import pytest

try:
    import hypothesis
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - exercised only where hypothesis is missing
    hypothesis = None
    st = None

HAVE_HYPOTHESIS = hypothesis is not None

# Values where the corpus claims change behaviour (relu's kink, strictness at 0, unit points).
INTERESTING = tuple(Fraction(x) for x in (0, 1, -1, 2, -2)) + (Fraction(1, 2), Fraction(-1, 3), Fraction(1, 1024))


def given(*args: Any, **kwargs: Any) -> Callable:
    """``hypothesis.given``, or a skip marker when Hypothesis is not installed."""
    if not HAVE_HYPOTHESIS:
        return pytest.mark.skip(reason="hypothesis is not installed (pip install hypothesis)")
    return hypothesis.given(*args, **kwargs)


def examples(n: int) -> Callable:
    """Reproducible settings: ``n`` examples, no deadline, no example database."""
    if not HAVE_HYPOTHESIS:
        return lambda f: f
    return hypothesis.settings(max_examples=n, deadline=None, derandomize=True, database=None,
                               suppress_health_check=list(hypothesis.HealthCheck))


def rationals(bound: int = 8, max_denominator: int = 64) -> Any:
    """Exact rationals in [−bound, bound], biased towards the interesting values."""
    if not HAVE_HYPOTHESIS:
        return None
    return st.one_of(
        st.sampled_from(INTERESTING),
        st.fractions(min_value=-bound, max_value=bound, max_denominator=max_denominator),
    )


def dyadics(bound: int = 8, bits: int = 20) -> Any:
    """Rationals with a power-of-two denominator (exact binary values: point intervals)."""
    if not HAVE_HYPOTHESIS:
        return None
    return st.builds(lambda n, k: Fraction(n, 2**k), st.integers(-bound * 2**bits, bound * 2**bits),
                     st.integers(0, bits))


def points(variables: Iterable[str], values: Any = None) -> Any:
    """A point: one exact value per variable."""
    if not HAVE_HYPOTHESIS:
        return None
    values = rationals() if values is None else values
    return st.fixed_dictionaries({name: values for name in variables})


def indices(n: int) -> Any:
    """An index into a list of length ``n`` (e.g. the corpus)."""
    if not HAVE_HYPOTHESIS:
        return None
    return st.integers(0, n - 1)


def data() -> Any:
    if not HAVE_HYPOTHESIS:
        return None
    return st.data()


def sampled_from(options: Iterable[Any]) -> Any:
    if not HAVE_HYPOTHESIS:
        return None
    return st.sampled_from(list(options))


def lists(elements: Any, min_size: int = 0, max_size: int | None = None) -> Any:
    if not HAVE_HYPOTHESIS:
        return None
    return st.lists(elements, min_size=min_size, max_size=max_size)


def floats(lo: float, hi: float) -> Any:
    if not HAVE_HYPOTHESIS:
        return None
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def integers(lo: int, hi: int) -> Any:
    if not HAVE_HYPOTHESIS:
        return None
    return st.integers(lo, hi)


def text() -> Any:
    """Short printable strings (names, labels, reasons), including non-ASCII."""
    if not HAVE_HYPOTHESIS:
        return None
    return st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


def json_values(max_leaves: int = 8) -> Any:
    """JSON values as ``json.loads`` returns them (lists, str-keyed dicts, finite floats)."""
    if not HAVE_HYPOTHESIS:
        return None
    leaves = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12),
                       st.floats(allow_nan=False, allow_infinity=False), text())
    return st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(text(), inner, max_size=3)),
                        max_leaves=max_leaves)


def json_maps() -> Any:
    if not HAVE_HYPOTHESIS:
        return None
    return st.dictionaries(text(), json_values(), max_size=3)


def exact_strings() -> Any:
    """Exact numbers as certificates print them (``"201"``, ``"-3/2"``)."""
    if not HAVE_HYPOTHESIS:
        return None
    from checker.kernel.verdicts import fmt

    return rationals(10**6, 10**6).map(fmt)


def microseconds() -> Any:
    """Durations at the JSON's resolution (it keeps six decimals)."""
    if not HAVE_HYPOTHESIS:
        return None
    return st.floats(0, 1e5, allow_nan=False).map(lambda t: round(t, 6))


def steps() -> Any:
    if not HAVE_HYPOTHESIS:
        return None
    from checker.kernel.model import Step

    return st.builds(Step, backend=text(), version=text(), action=text(), answer=text(),
                     time_s=microseconds(), detail=json_maps())


def certificates() -> Any:
    if not HAVE_HYPOTHESIS:
        return None
    from checker.kernel.model import Certificate

    exact_map = st.none() | st.dictionaries(text(), exact_strings(), max_size=3)
    return st.builds(Certificate, method=text(), steps=st.lists(steps(), max_size=3).map(tuple),
                     witness=exact_map, sides=exact_map, reason=st.none() | text(), data=json_maps())


def results() -> Any:
    """Whole results: every status and expectation, with or without witness, steps, limits."""
    if not HAVE_HYPOTHESIS:
        return None
    from checker.kernel.model import Expect, Limits, Result, Source, Status

    names = st.lists(text(), max_size=3).map(tuple)
    limits = st.none() | st.builds(Limits, timeout_s=st.floats(0.001, 1e4, allow_nan=False).map(lambda t: round(t, 6)),
                                   memory_mib=st.integers(1, 1 << 20))
    return st.builds(
        Result, id=text(), source=st.builds(Source, text(), text()), statement=text(), scope=text(),
        expect=st.sampled_from(Expect), status=st.sampled_from(Status), certificate=certificates(),
        time_s=microseconds(), lean=names, uses=names, hypotheses=names,
        seed=st.none() | st.integers(0, 2**63 - 1), limits=limits,
    )
