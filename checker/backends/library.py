"""A library of standard facts for every size, each proved by the induction rule when first used.

Each entry is a :class:`~checker.kernel.sized.SizedClaim` (or a plain claim over reals) with the
proof that settles it: :func:`fact` proves it once per process (by :mod:`checker.backends.induction`
or z3) and returns the verdict, whose kernel fact a catalogue passes to ``induction.Use`` — or
:func:`use` builds the ``Use`` in one call::

    from checker.backends import induction, library
    induction.prove(THEOREM, "n", uses=[library.use("cauchy_schwarz", x=lambda s: s.new("W"), y=lambda s: s.x)])

A lemma that cannot be proved gives no fact, and the rule that would use it answers ``unknown``
naming it: a library fact is never used on trust.

=========================  =====================================================================
``sumsq_nonneg``           ‖x‖² ≥ 0
``norm1_nonneg``           ‖x‖₁ ≥ 0
``norminf_nonneg``         ‖x‖∞ ≥ 0 (n ≥ 1)
``cauchy_schwarz``         (x·y)² ≤ ‖x‖²‖y‖²
``matvec_frobenius``       ‖Ax‖² ≤ ‖A‖_F²‖x‖² (A[n,m]: the operator norm is at most the Frobenius norm)
``mask_shrinks``           ‖w∘k‖² ≤ ‖w‖² for a 0/1 mask k
``mask_shrinks_frobenius`` ‖W∘M‖_F² ≤ ‖W‖_F² for a 0/1 mask M
``masked_opnorm``          ‖(W∘M)x‖² ≤ ‖W‖_F²‖x‖² for a 0/1 mask M
``max_lipschitz``          |max x − max y| ≤ ‖x − y‖∞
``min_lipschitz``          |min x − min y| ≤ ‖x − y‖∞
``triangle_l1``            ‖x + y‖₁ ≤ ‖x‖₁ + ‖y‖₁
``triangle_linf``          ‖x + y‖∞ ≤ ‖x‖∞ + ‖y‖∞
``relu_lipschitz_l1``      ‖relu x − relu y‖₁ ≤ ‖x − y‖₁
``relu_lipschitz_l2``      ‖relu x − relu y‖² ≤ ‖x − y‖²
``relu_lipschitz_linf``    ‖relu x − relu y‖∞ ≤ ‖x − y‖∞
``linf_le_l1``             ‖x‖∞ ≤ ‖x‖₁
``l1_le_n_linf``           ‖x‖₁ ≤ n‖x‖∞
``dot_le_l1_linf``         |x·y| ≤ ‖x‖₁‖y‖∞ (Hölder, 1 and ∞)
``lipschitz_compose``      a ≥ 0, b ≥ 0, |Δf| ≤ a|Δx|, |Δg| ≤ b|Δf| ⇒ |Δg| ≤ ab|Δx| (reals)
=========================  =====================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from checker.backends import induction, smt
from checker.kernel.claims import Claim, claim
from checker.kernel.model import Verdict
from checker.kernel.sized import SizedClaim, sized_claim


def _zero_one(o: Any, k: Any) -> Any:
    return o.all(o.or_(o.eq(k, 0), o.eq(k, 1)))


@dataclass(frozen=True, slots=True)
class Entry:
    """A library lemma: its claim and how it is proved (from the verdicts of the lemmas it uses)."""

    claim: SizedClaim | Claim
    prove: Callable[[], Verdict]


CLAIMS: dict[str, SizedClaim | Claim] = {
    "sumsq_nonneg": sized_claim("sumsq_nonneg", "n:nat[0,]", "x[n]", lambda o, v: o.ge(o.sumsq(v.x), 0)),
    "norm1_nonneg": sized_claim("norm1_nonneg", "n:nat[0,]", "x[n]", lambda o, v: o.ge(o.norm1(v.x), 0)),
    "norminf_nonneg": sized_claim("norminf_nonneg", "n:nat[1,]", "x[n]", lambda o, v: o.ge(o.norminf(v.x), 0)),
    "cauchy_schwarz": sized_claim(
        "cauchy_schwarz", "n:nat[0,]", "x[n] y[n]",
        lambda o, v: o.le(o.dot(v.x, v.y) * o.dot(v.x, v.y), o.sumsq(v.x) * o.sumsq(v.y))),
    "matvec_frobenius": sized_claim(
        "matvec_frobenius", "n:nat[1,] m:nat[1,]", "A[n,m] x[m]",
        lambda o, v: o.le(o.sumsq(v.A @ v.x), o.sumsq(v.A) * o.sumsq(v.x))),
    "mask_shrinks": sized_claim(
        "mask_shrinks", "n:nat[0,]", "w[n] k[n]", lambda o, v: o.le(o.sumsq(v.w * v.k), o.sumsq(v.w)),
        {"k is 0/1": lambda o, v: _zero_one(o, v.k)}),
    "mask_shrinks_frobenius": sized_claim(
        "mask_shrinks_frobenius", "n:nat[1,] m:nat[1,]", "W[n,m] M[n,m]",
        lambda o, v: o.le(o.sumsq(v.W * v.M), o.sumsq(v.W)), {"M is 0/1": lambda o, v: _zero_one(o, v.M)}),
    "masked_opnorm": sized_claim(
        "masked_opnorm", "n:nat[1,] m:nat[1,]", "W[n,m] M[n,m] x[m]",
        lambda o, v: o.le(o.sumsq((v.W * v.M) @ v.x), o.sumsq(v.W) * o.sumsq(v.x)),
        {"M is 0/1": lambda o, v: _zero_one(o, v.M)}),
    "max_lipschitz": sized_claim(
        "max_lipschitz", "n:nat[1,]", "x[n] y[n]",
        lambda o, v: o.le(o.abs(o.maxv(v.x) - o.maxv(v.y)), o.norminf(v.x - v.y))),
    "min_lipschitz": sized_claim(
        "min_lipschitz", "n:nat[1,]", "x[n] y[n]",
        lambda o, v: o.le(o.abs(o.minv(v.x) - o.minv(v.y)), o.norminf(v.x - v.y))),
    "triangle_l1": sized_claim(
        "triangle_l1", "n:nat[0,]", "x[n] y[n]", lambda o, v: o.le(o.norm1(v.x + v.y), o.norm1(v.x) + o.norm1(v.y))),
    "triangle_linf": sized_claim(
        "triangle_linf", "n:nat[1,]", "x[n] y[n]",
        lambda o, v: o.le(o.norminf(v.x + v.y), o.norminf(v.x) + o.norminf(v.y))),
    "relu_lipschitz_l1": sized_claim(
        "relu_lipschitz_l1", "n:nat[0,]", "x[n] y[n]",
        lambda o, v: o.le(o.norm1(o.relu(v.x) - o.relu(v.y)), o.norm1(v.x - v.y))),
    "relu_lipschitz_l2": sized_claim(
        "relu_lipschitz_l2", "n:nat[0,]", "x[n] y[n]",
        lambda o, v: o.le(o.sumsq(o.relu(v.x) - o.relu(v.y)), o.sumsq(v.x - v.y))),
    "relu_lipschitz_linf": sized_claim(
        "relu_lipschitz_linf", "n:nat[1,]", "x[n] y[n]",
        lambda o, v: o.le(o.norminf(o.relu(v.x) - o.relu(v.y)), o.norminf(v.x - v.y))),
    "linf_le_l1": sized_claim("linf_le_l1", "n:nat[1,]", "x[n]", lambda o, v: o.le(o.norminf(v.x), o.norm1(v.x))),
    "l1_le_n_linf": sized_claim("l1_le_n_linf", "n:nat[1,]", "x[n]", lambda o, v: o.le(o.norm1(v.x), v.n * o.norminf(v.x))),
    "dot_le_l1_linf": sized_claim(
        "dot_le_l1_linf", "n:nat[1,]", "x[n] y[n]",
        lambda o, v: o.le(o.abs(o.dot(v.x, v.y)), o.norm1(v.x) * o.norminf(v.y))),
    "lipschitz_compose": claim(
        "lipschitz_compose", "a:real[0,] b:real[0,] dx df dg",
        lambda o, v: o.le(o.abs(v.dg), v.a * v.b * o.abs(v.dx)),
        {"|Δf| ≤ a|Δx|": lambda o, v: o.le(o.abs(v.df), v.a * o.abs(v.dx)),
         "|Δg| ≤ b|Δf|": lambda o, v: o.le(o.abs(v.dg), v.b * o.abs(v.df))}),
}


def _use(name: str, **bind: Callable[[Any], Any]) -> induction.Use:
    return induction.Use(CLAIMS[name], fact(name), bind)


def _cs_invariant(o: Any, v: Any) -> Any:
    return o.and_(o.le(o.dot(v.x, v.y) * o.dot(v.x, v.y), o.sumsq(v.x) * o.sumsq(v.y)),
                  o.ge(o.sumsq(v.x), 0), o.ge(o.sumsq(v.y), 0))


def _with_nonneg(part: Callable[[Any, Any], Any], *names: str) -> Callable[[Any, Any], Any]:
    """The claim's conclusion and ``‖·‖∞ ≥ 0`` of the named arrays, as an invariant."""
    return lambda o, v: o.and_(part(o, v), *(o.ge(o.norminf(v[n]), 0) for n in names))


_PROOFS: dict[str, Callable[[SizedClaim | Claim], Verdict]] = {
    "cauchy_schwarz": lambda c: induction.prove(c, "n", invariant=_cs_invariant),
    "matvec_frobenius": lambda c: induction.prove(c, "n", uses=[
        _use("cauchy_schwarz", x=lambda s: s.new("A"), y=lambda s: s.x), _use("sumsq_nonneg", x=lambda s: s.x)]),
    "mask_shrinks_frobenius": lambda c: induction.prove(c, "n", uses=[
        _use("mask_shrinks", w=lambda s: s.new("W"), k=lambda s: s.new("M"))]),
    "masked_opnorm": lambda c: induction.prove(c, "n", uses=[
        _use("cauchy_schwarz", x=lambda s: s.new("W") * s.new("M"), y=lambda s: s.x),
        _use("mask_shrinks", w=lambda s: s.new("W"), k=lambda s: s.new("M")),
        _use("sumsq_nonneg", x=lambda s: s.x)]),
    "triangle_linf": lambda c: induction.prove(c, "n", invariant=_with_nonneg(c.conclusion, "x", "y")),
    "dot_le_l1_linf": lambda c: induction.prove(c, "n", invariant=lambda o, v: o.and_(
        c.conclusion(o, v), o.ge(o.norminf(v.y), 0), o.ge(o.norm1(v.x), 0))),
    "linf_le_l1": lambda c: induction.prove(c, "n", invariant=lambda o, v: o.and_(c.conclusion(o, v), o.ge(o.norm1(v.x), 0))),
    "l1_le_n_linf": lambda c: induction.prove(c, "n", invariant=_with_nonneg(c.conclusion, "x")),
    "lipschitz_compose": lambda c: smt.prove(c),
}
_PROVED: dict[str, Verdict] = {}


def claim_of(name: str) -> SizedClaim | Claim:
    """The library lemma's statement (``KeyError`` naming the known ones when there is none)."""
    try:
        return CLAIMS[name]
    except KeyError:
        raise KeyError(f"no library lemma {name!r}; known: {', '.join(sorted(CLAIMS))}") from None


def fact(name: str) -> Verdict:
    """The lemma's proof (proved once per process): a ``proved`` verdict with its kernel fact, or the
    ``unknown`` that says why not."""
    c = claim_of(name)
    if name not in _PROVED:
        prover = _PROOFS.get(name, lambda c: induction.prove(c, c.size_names[0]))
        _PROVED[name] = prover(c)
    return _PROVED[name]


def use(name: str, **bind: Callable[[Any], Any]) -> induction.Use:
    """The lemma, proved, instantiated by ``bind`` (the lemma's arrays and scalars → the step's)."""
    return _use(name, **bind)


def names() -> tuple[str, ...]:
    return tuple(CLAIMS)


def bindings(name: str) -> Mapping[str, str]:
    """What each of the lemma's arrays and scalars is, for error messages and docs."""
    c = claim_of(name)
    if isinstance(c, SizedClaim):
        return {**{a.name: a.text() for a in c.arrays}, **{n: d.describe() for n, d in c.scalars}}
    return {n: c.domain(n).describe() for n in c.variables}
