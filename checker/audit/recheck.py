"""Independent re-checks of a verdict, whoever built it.

A backend's ``refuted`` has already been re-evaluated exactly; a discharge function (or a cache
entry) can build one by hand. :func:`recheck_witness` re-evaluates a refutation's witness against
the claims the obligation declares — in exact rationals, else in rigorous intervals at the exact
point — so a witness that is not a counterexample is caught wherever it came from.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Mapping, Sequence


class Recheck(enum.Enum):
    REFUTES = "refutes"  # a declared claim's hypotheses hold and its conclusion fails at the witness
    DOES_NOT_REFUTE = "does not refute"  # every declared claim that fits the witness holds there
    NOT_RECHECKED = "not re-checked"  # no declared claim fits, or none could be evaluated


@dataclass(frozen=True, slots=True)
class RecheckResult:
    verdict: Recheck
    claim: str | None
    reason: str
    sizes: tuple[tuple[str, int], ...] = ()  # a sized theorem refuted at sizes the witness does not name


def _exact(claim: Any, witness: Mapping[str, str]) -> bool | None:
    from checker.backends import CannotDecide, exact

    if _outside_premise(claim, witness):
        return False
    try:
        return exact.evaluate(claim, witness).is_counterexample
    except (CannotDecide, ArithmeticError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _exact_hypotheses(claim: Any, witness: Mapping[str, str]) -> dict[str, bool] | None:
    """The hypotheses exact arithmetic decides at the witness (a hypothesis it cannot evaluate is left
    out); ``None`` when the witness lies outside a declared domain. Decided apart from the conclusion:
    a conclusion may be undefined where the premise fails (a density outside (0, 1]) or need intervals
    (erf) where the premise is exact (d = 1/10, which no binary interval decides)."""
    from fractions import Fraction

    from checker.backends import exact

    try:
        point = {k: Fraction(witness[k]) for k in claim.variables}
        if exact.domain_violations(claim, point):
            return None
        v = claim.env(point)
    except (KeyError, ValueError, TypeError, ArithmeticError):
        return {}
    known = {}
    for h in claim.hypotheses:
        try:
            value = h.formula(exact.OPS, v)
        except Exception:  # noqa: BLE001 - a hypothesis that cannot be evaluated decides nothing
            continue
        if isinstance(value, bool):
            known[h.name] = value
    return known


def _outside_premise(claim: Any, witness: Mapping[str, str]) -> bool:
    """Is the witness outside a declared domain, or a hypothesis exactly false there? A witness
    outside the premise is never a counterexample."""
    known = _exact_hypotheses(claim, witness)
    return known is None or not all(known.values())


def _interval(claim: Any, witness: Mapping[str, str]) -> bool | None:
    from fractions import Fraction

    from checker.backends import CannotDecide, interval

    try:
        point = {k: Fraction(witness[k]) for k in claim.variables}
        _, hyps, concl, _ = interval.decide(claim, point)
    except (CannotDecide, ArithmeticError, ValueError, TypeError, KeyError, AttributeError):
        return None
    exactly = _exact_hypotheses(claim, witness) or {}
    hyps = {k: interval.Tri.TRUE if exactly.get(k) is True and h is interval.Tri.UNKNOWN else h for k, h in hyps.items()}
    if all(h is interval.Tri.TRUE for h in hyps.values()) and concl is interval.Tri.FALSE:
        return True
    if any(h is interval.Tri.FALSE for h in hyps.values()) or concl is interval.Tri.TRUE:
        return False
    return None


def _existence(theorem: Any, witness: Mapping[str, str]) -> bool | None:
    """Is ``witness`` — constants and a point — a counterexample to the body of an existence at those
    constants, its conditions on them true there? That alone does not refute the existence (the runner
    also asks for the kernel's witness family fact)."""
    from fractions import Fraction

    from checker.backends import exact

    try:
        point = {x: Fraction(witness[x]) for x in theorem.variables}
        if not theorem.where_holds(exact.OPS, theorem.body.env(point)):
            return False
    except (KeyError, ValueError, TypeError, ArithmeticError):
        return None
    found = _exact(theorem.body, witness)
    return _interval(theorem.body, witness) if found is None else found


def _at_witness_sizes(c: Any, witness: Mapping[str, Any], named: Any = None) -> Any:
    """A sized claim at the sizes the witness names (``n``, ``m``: the witness is a counterexample at
    those sizes, its entries ``x_0, …``), or failing that at the sizes of the claim the certificate
    ``named`` (``"masked-opnorm[n=2,m=2]"``, the name of ``c.at(n=2, m=2)``: a refutation found at
    fixed sizes); ``None`` when neither names sizes for it."""
    from checker.kernel.sized import SizedClaim

    if not isinstance(c, SizedClaim):
        return c
    try:
        sizes = {n: int(witness[n]) for n in c.size_names}
    except (KeyError, ValueError, TypeError):
        pass
    else:
        try:
            return c.at(**sizes)
        except (ValueError, TypeError):
            return None
    if not (isinstance(named, str) and named.startswith(f"{c.name}[") and named.endswith("]")):
        return None
    try:
        named_sizes = dict(_sizes_named(named))
        if set(named_sizes) != set(c.size_names):
            return None
        return c.at(**named_sizes)
    except (ValueError, TypeError):
        return None


def _sizes_named(name: str) -> tuple[tuple[str, int], ...]:
    """The sizes in the name of a sized claim's instance (``"masked-opnorm[n=2,m=2]"``); ``ValueError``
    for a name that is not one."""
    if not name.endswith("]") or "[" not in name:
        raise ValueError(f"{name!r} names no sizes")
    return tuple((k, int(v)) for k, v in (part.split("=", 1) for part in name[name.rindex("[") + 1:-1].split(",")))


def _no_candidate(declared: Sequence[Any], at_sizes: Sequence[Any], witness: Mapping[str, Any], what: str) -> str:
    """Why no claim of ``declared`` can re-check ``witness``, in the words a user can act on."""
    outside = [c for c, s in zip(declared, at_sizes) if s is None and hasattr(c, "size_names")
               and all(n in witness for n in c.size_names)]
    if outside:
        shown = ", ".join(f"{n} = {witness[n]}" for n in outside[0].size_names)
        return f"the witness's sizes ({shown}) are outside the size domains of {', '.join(c.name for c in outside)}"
    if declared and all(hasattr(c, "refutation_subject") and not hasattr(c, "constants") for c in declared):
        return ("a point does not refute an existence ('some instance'): it is refuted by a proof that no "
                "instance exists (smt.find_instance's unsat, smt.refute_instance)")
    names = sorted(witness)
    return (f"no claim of {what} has the witness's variables ({', '.join(names[:8])}{', …' if len(names) > 8 else ''}): "
            "a witness of a lemma, a cross-check or a claim outside it is no counterexample to it")


def recheck_witness(claims: Sequence[Any], witness: Mapping[str, Any] | None, named: Any = None,
                    what: str = "the declared claims") -> RecheckResult:
    """Is ``witness`` a counterexample to one of ``claims`` (to ``named`` alone when the certificate
    names a declared claim)? ``what`` names the claims in messages."""
    if not claims:
        return RecheckResult(Recheck.NOT_RECHECKED, None, "the obligation declares no claim to re-evaluate the witness against")
    closed = any(not tuple(getattr(c, "variables", ("?",))) and not callable(getattr(c, "recheck", None)) for c in claims)
    if not isinstance(witness, Mapping) or (not witness and not closed):  # a closed claim's point is {}
        return RecheckResult(Recheck.DOES_NOT_REFUTE, None, "a refutation without a witness")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in witness.items()):
        return RecheckResult(Recheck.DOES_NOT_REFUTE, None, "the witness is not a map of names to exact values")
    declared = list(claims)
    claims = [_at_witness_sizes(c, witness, named) for c in declared]
    sized_from = {id(c): d for c, d in zip(claims, declared) if c is not None and c is not d}
    candidates = [c for c in claims if c is not None and set(c.variables) <= set(witness)]
    if isinstance(named, str) and any(c.name == named for c in candidates):
        candidates = [c for c in candidates if c.name == named]
    if not candidates:
        return RecheckResult(Recheck.NOT_RECHECKED, None, _no_candidate(declared, claims, witness, what))
    undecided = []
    for c in candidates:
        if hasattr(c, "refutation_subject"):  # an existence: the body at the witness's constants
            verdict = _existence(c, witness)
        elif callable(getattr(c, "recheck", None)):  # a claim another backend states (a sympy limit) re-checks itself
            try:
                verdict = c.recheck(witness)
            except Exception:  # noqa: BLE001 - a re-check that fails decides nothing
                verdict = None
        else:
            verdict = _exact(c, witness)
        if verdict is None:
            verdict = _interval(c, witness)
        if verdict is True:
            sized = sized_from.get(id(c))
            sizes = () if sized is None or all(n in witness for n in sized.size_names) else _sizes_named(c.name)
            return RecheckResult(Recheck.REFUTES, c.name, f"the witness refutes {c.name} when re-evaluated", sizes)
        if verdict is None:
            undecided.append(c.name)
    if undecided:
        return RecheckResult(Recheck.NOT_RECHECKED, None,
                             f"{', '.join(undecided)} cannot be evaluated exactly or decided by intervals at the witness")
    return RecheckResult(Recheck.DOES_NOT_REFUTE, None,
                         f"the witness is not a counterexample to {', '.join(c.name for c in candidates)} "
                         "when re-evaluated in exact rationals or rigorous intervals")


def refuted_by_rule(ledger: Sequence[Any]) -> set[str]:
    """The theorems a result's kernel ledger says a kernel rule refuted (``refute_existence``, ``refute_instance``)."""
    return {e.get("detail", {}).get("refutes") for e in ledger or ()
            if isinstance(e, Mapping) and e.get("kind") == "rule"} - {None}


def recheck_refutation(obligation: Any, witness: Mapping[str, Any] | None, named: Any = None,
                       ledger: Sequence[Any] = ()) -> RecheckResult:
    """Is ``witness`` a counterexample to what ``obligation`` states: its declared theorem when it has
    one (never a lemma the certificate ``named``), else its declared claims? The runner re-checks a
    fresh refutation so, and the cache a stored one. A declared ``some_instance`` theorem has no point
    to re-check: it is refuted when the certificate's kernel ``ledger`` holds the rule that refuted it
    (its universal negation, proved and confirmed in the job) and names no witness."""
    theorem = tuple(getattr(obligation, "theorem", ()) or ())
    refuted = refuted_by_rule(ledger)
    for t in theorem:
        if hasattr(t, "refutation_subject") and not hasattr(t, "constants") and t.name in refuted and witness == {}:
            return RecheckResult(Recheck.REFUTES, t.name, f"{t.name} is refuted by the universal proof of its negation")
    # ``named`` only selects among the declared theorem's claims (or reads a sized claim's sizes), never a lemma
    return recheck_witness(theorem or obligation.claims, witness, named,
                           "the declared theorem" if theorem else "the declared claims")
