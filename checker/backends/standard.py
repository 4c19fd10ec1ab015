"""Standard facts of analysis, assumed without proof: a short fixed list, each with its reference and
what of it is checked here.

No rule of the kernel proves that ``erf`` is increasing: z3 knows no transcendental function, and an
interval enclosure covers a bounded box, not the real line. A proof that needs such a fact gives it to
z3 as a lemma about an uninterpreted function (``smt.prove(..., lemmas=…, uninterpreted=("erf",))``)
and takes it from this list, by name (:func:`fact`). Catalogue code cannot add to the list, and each
fact's ledger line reads "standard fact assumed without proof", with its reference, so a reader sees
what a result rests on beyond the solvers and enclosures.

Two things are checked of each before it is issued, so that a mistyped statement is not assumed:
sympy decides the sign of the function's derivative (positive over the function's domain: the fact
follows from it by the mean value theorem, which is what is assumed), and the statement, as the
claim language writes it, encloses true at a few points by rigorous intervals (a flipped inequality
or a wrong function fails there).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from checker.backends import interval, symbolic
from checker.kernel import proof as kernel
from checker.kernel.claims import Claim, claim
from checker.kernel.model import Grade, Status, Verdict
from checker.kernel.verdicts import proved_by, timed, unknown

NAME = "standard"


@dataclass(frozen=True, slots=True)
class Standard:
    """A standard fact: its statement, where it is proved, the function whose derivative sympy signs,
    the open domain of that function's argument (``None``: all of ℝ), and points the statement is
    enclosed at."""

    statement: Claim
    reference: str
    function: str  # erf, exp or log: sympy's function of that name
    positive_argument: bool
    points: tuple[dict[str, Fraction], ...]


def _increasing(function: str, positive: bool) -> Claim:
    where = {"0 < a": lambda o, v: o.gt(v.a, 0)} if positive else {}
    return claim(f"{function}-increasing", "a b", lambda o, v: o.le(getattr(o, function)(v.a), getattr(o, function)(v.b)),
                 hypotheses={**where, "a ≤ b": lambda o, v: o.le(v.a, v.b)})


_PAIRS = tuple({"a": Fraction(a), "b": Fraction(b)} for a, b in (("1/4", "1/2"), ("1", "3/2"), ("2", "5")))
_SIGNED_PAIRS = _PAIRS + tuple({"a": Fraction(a), "b": Fraction(b)} for a, b in (("-2", "-1"), ("-1/2", "1/10")))

FACTS: dict[str, Standard] = {
    "erf-increasing": Standard(_increasing("erf", False), "erf′(x) = 2e^{−x²}/√π > 0 (DLMF §7.10); "
                               "increasing by the mean value theorem", "erf", False, _SIGNED_PAIRS),
    "exp-increasing": Standard(_increasing("exp", False), "exp′ = exp > 0 (DLMF §4.7); increasing by the mean value "
                               "theorem", "exp", False, _SIGNED_PAIRS),
    "log-increasing": Standard(_increasing("log", True), "log′(x) = 1/x > 0 for x > 0 (DLMF §4.7); increasing on "
                               "(0, ∞) by the mean value theorem", "log", True, _PAIRS),
}
"""Every standard fact a proof may assume, by name."""


def statement(name: str) -> Claim:
    """The claim of the standard fact ``name`` (to give z3 as a lemma)."""
    return _known(name).statement


def _known(name: str) -> Standard:
    if name not in FACTS:
        raise KeyError(f"no standard fact {name!r}: the list is {', '.join(FACTS)} (checker/backends/standard.py); "
                       "a fact not on it is a lemma to prove")
    return FACTS[name]


def _derivative_positive(s: Standard) -> tuple[bool, str]:
    sp = symbolic.sympy()
    x = sp.Symbol("x", positive=True) if s.positive_argument else sp.Symbol("x", real=True)
    function: Callable = getattr(sp, s.function)
    derivative = sp.diff(function(x), x)
    return bool((derivative > 0) == sp.true), f"d/dx {s.function}(x) = {sp.sstr(derivative)} > 0"


def fact(name: str) -> Verdict:
    """The standard fact ``name`` as a proved verdict whose kernel fact is marked assumed (ledger kind
    ``standard``): ``unknown`` if sympy does not find its function's derivative positive or the
    statement does not enclose true at its points."""
    s = _known(name)
    method = f"standard fact assumed without proof ({s.reference})"
    with timed() as t:
        positive, said = _derivative_positive(s)
        step = t.step(symbolic.NAME, symbolic.version(), said, "true" if positive else "not decided")
    if not positive:
        return unknown(method, f"sympy does not find {said}", step)
    checks = [interval.prove_on(s.statement, point) for point in s.points]
    failed = [p for p, v in zip(s.points, checks) if v.status is not Status.PROVED]
    if failed:
        where = ", ".join(", ".join(f"{k} = {x}" for k, x in p.items()) for p in failed)
        return unknown(method, f"the statement {s.statement.name} does not enclose true at {where}", step,
                       *(st for v in checks for st in v.certificate.steps))
    issued = kernel.issue(s.statement, Grade.UNIVERSAL, "", [kernel.Entry(
        "standard", f"standard fact assumed without proof: {s.statement.name} ({s.reference}); checked: {said} "
                    f"(sympy), and the statement enclosed true at {len(s.points)} points",
        {"fact": name, "reference": s.reference})])
    return proved_by(method, issued, step, claim=s.statement.name)
