"""A corpus of small real-arithmetic claims, each known true or false (Why3's bench/valid and
bench/invalid).

Every claim is written once, as a :class:`checker.claims.Claim`, and run through every backend
that can take it. The false claims are mutations of true ones: a constant changed, an
inequality flipped, a hypothesis dropped (with :meth:`Claim.without`, so the claim is still
written once), a non-strict comparison made strict at its boundary. Each entry has a sampler
for the numpy backend that covers the interesting region (near 0, exactly 0, ties, small
integers), and each false entry a known counterexample.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping

from checker.claims import Claim, claim

Sampler = Callable[[Any, int], Mapping[str, Any]]


def mixed(variables: str, *, scale: float = 3.0) -> Sampler:
    """Samples for ``variables``: a block exactly at 0, a block near 0, a block of small
    integers, a block of ties (every variable equal) and wide normals; the blocks are aligned
    across variables (so several are 0 or equal at once), the normals independent."""
    names = variables.split()

    def sampler(rng: Any, n: int) -> dict[str, Any]:
        block = max(n // 10, 1)
        tie = rng.normal(0.0, scale, block)
        out = {}
        for name in names:
            x = rng.normal(0.0, scale, n)
            x[:block] = 0.0
            x[block:2 * block] = rng.normal(0.0, 1e-3, block)
            x[2 * block:3 * block] = rng.integers(-3, 4, block)
            x[3 * block:4 * block] = tie
            out[name] = x
        return out

    return sampler


def positive(variables: str) -> Sampler:
    """Samples mostly in the positive orthant, some of them tiny, with a few at 0."""
    names = variables.split()

    def sampler(rng: Any, n: int) -> dict[str, Any]:
        out = {}
        for name in names:
            x = rng.exponential(1.0, n)
            x[: n // 10] = rng.exponential(1e-4, n // 10)
            x[n // 10: n // 5] = 0.0
            out[name] = x
        return out

    return sampler


@dataclass(frozen=True)
class Entry:
    """A corpus claim, whether it is true over ℝ, and how to sample it."""

    claim: Claim
    true: bool
    sampler: Sampler
    # For a false claim, a point where it fails (checked exactly by the tests).
    counterexample: Mapping[str, Fraction] | None = None
    # For a false claim: whether float sampling can see a violation (a strict inequality that
    # fails only at its boundary has margin 0 there, never negative, so sampling cannot).
    sampling_refutes: bool = True
    tags: frozenset[str] = field(default_factory=frozenset)

    @property
    def name(self) -> str:
        return self.claim.name


def _q(**values: Any) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in values.items()}


def _lhs_rhs(lhs: Callable, rhs: Callable) -> dict[str, Callable]:
    return {"lhs": lhs, "rhs": rhs}


# --- bench/valid -----------------------------------------------------------------------

ABS_TRIANGLE = claim(
    "abs-triangle", "x y",
    lambda o, v: o.le(o.abs(v.x + v.y), o.abs(v.x) + o.abs(v.y)),
    terms=_lhs_rhs(lambda o, v: o.abs(v.x + v.y), lambda o, v: o.abs(v.x) + o.abs(v.y)),
)
ABS_REVERSE_TRIANGLE = claim(
    "abs-reverse-triangle", "x y",
    lambda o, v: o.le(o.abs(o.abs(v.x) - o.abs(v.y)), o.abs(v.x - v.y)),
)
RELU_LIPSCHITZ = claim(
    "relu-1-lipschitz", "x y",
    lambda o, v: o.le(o.abs(o.relu(v.x) - o.relu(v.y)), o.abs(v.x - v.y)),
    terms=_lhs_rhs(lambda o, v: o.abs(o.relu(v.x) - o.relu(v.y)), lambda o, v: o.abs(v.x - v.y)),
)
RELU_MONOTONE = claim(
    "relu-monotone", "x y",
    lambda o, v: o.le(o.relu(v.x), o.relu(v.y)),
    hypotheses={"x<=y": lambda o, v: o.le(v.x, v.y)},
)
RELU_IDENTITY = claim(
    "relu-half-sum-abs", "x",
    lambda o, v: o.eq(o.relu(v.x), (v.x + o.abs(v.x)) / 2),
    terms=_lhs_rhs(lambda o, v: o.relu(v.x), lambda o, v: (v.x + o.abs(v.x)) / 2),
)
RELU_GE = claim("relu-ge-identity", "x", lambda o, v: o.ge(o.relu(v.x), v.x))
RELU_HOMOGENEOUS = claim(
    "relu-positively-homogeneous", "t x",
    lambda o, v: o.eq(o.relu(v.t * v.x), v.t * o.relu(v.x)),
    hypotheses={"t>=0": lambda o, v: o.ge(v.t, 0)},
    terms=_lhs_rhs(lambda o, v: o.relu(v.t * v.x), lambda o, v: v.t * o.relu(v.x)),
)
MAX_GE_LEFT = claim("max-ge-left", "x y", lambda o, v: o.ge(o.max(v.x, v.y), v.x))
AM_GM = claim(
    "am-gm", "x y",
    lambda o, v: o.le(2 * v.x * v.y, v.x * v.x + v.y * v.y),
    terms=_lhs_rhs(lambda o, v: 2 * v.x * v.y, lambda o, v: v.x * v.x + v.y * v.y),
)
SQUARE_NONNEG = claim("square-nonneg", "x", lambda o, v: o.ge(v.x * v.x, 0))
PRODUCT_POSITIVE = claim(
    "product-positive", "x y",
    lambda o, v: o.gt(v.x * v.y, 0),
    hypotheses={"x>0": lambda o, v: o.gt(v.x, 0), "y>0": lambda o, v: o.gt(v.y, 0)},
)
MAX_ABS_IDENTITY = claim(
    "max-half-sum-abs", "x y",
    lambda o, v: o.eq(o.max(v.x, v.y), (v.x + v.y + o.abs(v.x - v.y)) / 2),
    terms=_lhs_rhs(lambda o, v: o.max(v.x, v.y), lambda o, v: (v.x + v.y + o.abs(v.x - v.y)) / 2),
)
MAX_RELU_IDENTITY = claim(
    "max-via-relu", "a b",
    lambda o, v: o.eq(o.max(v.a, v.b), v.b + o.relu(v.a - v.b)),
    terms=_lhs_rhs(lambda o, v: o.max(v.a, v.b), lambda o, v: v.b + o.relu(v.a - v.b)),
)
MAX_MIN_SUM = claim(
    "max-plus-min", "x y",
    lambda o, v: o.eq(o.max(v.x, v.y) + o.min(v.x, v.y), v.x + v.y),
    terms=_lhs_rhs(lambda o, v: o.max(v.x, v.y) + o.min(v.x, v.y), lambda o, v: v.x + v.y),
)


def _margin_change(o: Any, v: Any) -> Any:
    """|m(z) − m(z')| for the margin m(z) = z_a − max(z_b, z_c)."""
    return o.abs((v.a - o.max(v.b, v.c)) - (v.a2 - o.max(v.b2, v.c2)))


def _sup_change(o: Any, v: Any) -> Any:
    return o.max(o.abs(v.a - v.a2), o.abs(v.b - v.b2), o.abs(v.c - v.c2))


MARGIN_TWO_LIPSCHITZ = claim(
    "margin-2-lipschitz", "a b c a2 b2 c2",
    lambda o, v: o.le(_margin_change(o, v), 2 * _sup_change(o, v)),
    terms={"change": _margin_change, "bound": lambda o, v: 2 * _sup_change(o, v)},
)

# --- bench/invalid: mutations of the above -----------------------------------------------

RELU_HALF_LIPSCHITZ = claim(
    "relu-half-lipschitz", "x y",
    lambda o, v: o.le(o.abs(o.relu(v.x) - o.relu(v.y)), o.abs(v.x - v.y) / 2),
)
RELU_STRICT_LIPSCHITZ = claim(
    "relu-strictly-contracting", "x y",
    lambda o, v: o.lt(o.abs(o.relu(v.x) - o.relu(v.y)), o.abs(v.x - v.y)),
)
ABS_TRIANGLE_FLIPPED = claim(
    "abs-triangle-flipped", "x y",
    lambda o, v: o.ge(o.abs(v.x + v.y), o.abs(v.x) + o.abs(v.y)),
)
RELU_MONOTONE_FLIPPED = claim(
    "relu-antitone", "x y",
    lambda o, v: o.ge(o.relu(v.x), o.relu(v.y)),
    hypotheses={"x<=y": lambda o, v: o.le(v.x, v.y)},
)
RELU_IDENTITY_SIGN = claim(
    "relu-half-difference-abs", "x",
    lambda o, v: o.eq(o.relu(v.x), (v.x - o.abs(v.x)) / 2),
)
MAX_LE_LEFT = claim("max-le-left", "x y", lambda o, v: o.le(o.max(v.x, v.y), v.x))
AM_GM_HALVED = claim(
    "am-gm-halved", "x y",
    lambda o, v: o.le(2 * v.x * v.y, (v.x * v.x + v.y * v.y) / 2),
)
SQUARE_POSITIVE = claim("square-positive", "x", lambda o, v: o.gt(v.x * v.x, 0))
MAX_ABS_SIGN = claim(
    "max-half-sum-minus-abs", "x y",
    lambda o, v: o.eq(o.max(v.x, v.y), (v.x + v.y - o.abs(v.x - v.y)) / 2),
)
MAX_RELU_SWAPPED = claim(
    "max-via-relu-swapped", "a b",
    lambda o, v: o.eq(o.max(v.a, v.b), v.b + o.relu(v.b - v.a)),
)
MARGIN_ONE_LIPSCHITZ = claim(
    "margin-1-lipschitz", "a b c a2 b2 c2",
    lambda o, v: o.le(_margin_change(o, v), _sup_change(o, v)),
    terms={"change": _margin_change, "bound": _sup_change},
)

CORPUS: tuple[Entry, ...] = (
    Entry(ABS_TRIANGLE, True, mixed("x y")),
    Entry(ABS_REVERSE_TRIANGLE, True, mixed("x y")),
    Entry(RELU_LIPSCHITZ, True, mixed("x y")),
    Entry(RELU_MONOTONE, True, mixed("x y")),
    Entry(RELU_IDENTITY, True, mixed("x"), tags=frozenset({"identity"})),
    Entry(RELU_GE, True, mixed("x")),
    Entry(RELU_HOMOGENEOUS, True, mixed("t x"), tags=frozenset({"identity"})),
    Entry(MAX_GE_LEFT, True, mixed("x y")),
    Entry(AM_GM, True, mixed("x y")),
    Entry(SQUARE_NONNEG, True, mixed("x")),
    Entry(PRODUCT_POSITIVE, True, positive("x y")),
    Entry(MAX_ABS_IDENTITY, True, mixed("x y"), tags=frozenset({"identity"})),
    Entry(MAX_RELU_IDENTITY, True, mixed("a b"), tags=frozenset({"identity"})),
    Entry(MAX_MIN_SUM, True, mixed("x y"), tags=frozenset({"identity"})),
    Entry(MARGIN_TWO_LIPSCHITZ, True, mixed("a b c a2 b2 c2")),
    # mutated constants
    Entry(RELU_HALF_LIPSCHITZ, False, mixed("x y"), _q(x=1, y=0)),
    Entry(AM_GM_HALVED, False, mixed("x y"), _q(x=1, y=1)),
    Entry(MARGIN_ONE_LIPSCHITZ, False, mixed("a b c a2 b2 c2"), _q(a=1, b=-1, c=-1, a2=0, b2=0, c2=0)),
    # flipped inequalities and signs
    Entry(MAX_LE_LEFT, False, mixed("x y"), _q(x=0, y=1)),
    Entry(ABS_TRIANGLE_FLIPPED, False, mixed("x y"), _q(x=1, y=-1)),
    Entry(RELU_MONOTONE_FLIPPED, False, mixed("x y"), _q(x=0, y=1)),
    Entry(RELU_IDENTITY_SIGN, False, mixed("x"), _q(x=1), tags=frozenset({"identity"})),
    Entry(MAX_ABS_SIGN, False, mixed("x y"), _q(x=0, y=1), tags=frozenset({"identity"})),
    Entry(MAX_RELU_SWAPPED, False, mixed("a b"), _q(a=1, b=0), tags=frozenset({"identity"})),
    # dropped hypotheses
    Entry(PRODUCT_POSITIVE.without("x>0").without("y>0"), False, mixed("x y"), _q(x=0, y=0)),
    Entry(PRODUCT_POSITIVE.without("x>0"), False, mixed("x y"), _q(x=-1, y=1)),
    Entry(RELU_HOMOGENEOUS.without("t>=0"), False, mixed("t x"), _q(t=-1, x=1), tags=frozenset({"identity"})),
    # strict where the true claim is non-strict: fails only at the boundary
    Entry(SQUARE_POSITIVE, False, mixed("x"), _q(x=0), sampling_refutes=False),
    Entry(RELU_STRICT_LIPSCHITZ, False, mixed("x y"), _q(x=1, y=1), sampling_refutes=False),
)

VALID = tuple(e for e in CORPUS if e.true)
INVALID = tuple(e for e in CORPUS if not e.true)
BY_NAME = {e.name: e for e in CORPUS}
assert len(BY_NAME) == len(CORPUS), "corpus names must be unique"


def ids(entries: tuple[Entry, ...]) -> list[str]:
    return [e.name for e in entries]
