"""Theorems that say some constants exist: ``∃ c. where(c) ∧ ∀ x. hypotheses(c, x) ⇒ conclusion(c, x)``.

"There is a constant L such that |A(d) − A(d′)| ≤ L·|d − d′| for all d, d′" is not a claim with a
point witness: a pair (d, d′) that violates the bound at L = 1000 says nothing about L = 10⁶. Its
negation is ``∀ c. where(c) ⇒ ∃ x. hypotheses ∧ ¬conclusion``, and the kernel refutes it by a
**witness family**: terms ``x(c)`` in the constants, and a proof that for *every* c allowed by
``where`` the point ``x(c)`` lies in the body's domains, satisfies its hypotheses and violates its
conclusion. :func:`family_claim` builds that statement from the theorem and the family — the
catalogue never writes it — so a proof of it (z3's ``unsat``, by :func:`checker.backends.smt.refute_existence`)
is a refutation of the declared theorem itself (:func:`checker.kernel.proof.refute_existence`).

An :class:`Existence` is declared as an obligation's ``theorem`` like any claim. Its printed form
leads with ``∃``; its identity for the kernel (:attr:`Existence.subject`) is that printed form.
A witness at one choice of the constants re-checks (:mod:`checker.audit.recheck`) but never refutes
on its own: the runner also asks for the kernel's family fact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from checker.kernel.claims import REAL, Claim, Env, Formula, Part, claim, refuse_float_constants


@dataclass(frozen=True, slots=True)
class Existence:
    """``∃ constants. where ∧ ∀ (the body's other variables). body``: the body is a :class:`Claim` over the
    constants and the universal variables; ``where`` constrains the constants alone (``L > 0``)."""

    name: str
    constants: tuple[str, ...]
    where: tuple[Part, ...]
    body: Claim

    @property
    def variables(self) -> tuple[str, ...]:
        """Every variable a witness names: the constants, then the body's universal variables."""
        return self.body.variables

    @property
    def universals(self) -> tuple[str, ...]:
        return tuple(x for x in self.body.variables if x not in self.constants)

    @property
    def hypotheses(self) -> tuple[Part, ...]:
        return self.body.hypotheses

    @property
    def subject(self) -> str:
        """The theorem's identity for the kernel: its printed canonical form, ``∃`` included."""
        from checker.kernel.printing import print_claim

        return print_claim(self, spell=False).canonical

    @property
    def refutation_subject(self) -> str:
        """What a refutation of the theorem proves: its negation."""
        return f"(not {self.subject})"

    def where_holds(self, o: Any, v: Env) -> Any:
        return o.and_(*(p.formula(o, v) for p in self.where))


def exists(name: str, constants: str, body: Claim, where: Mapping[str, Formula] | None = None) -> Existence:
    """The theorem ``∃ constants. where ∧ ∀ x. body`` (``constants``: space-separated variables of ``body``)."""
    names = tuple(constants.split())
    if not names:
        raise ValueError(f"existence {name!r}: name the constants it asserts (e.g. 'L')")
    missing = [c for c in names if c not in body.variables]
    if missing:
        raise ValueError(f"existence {name!r}: {', '.join(missing)} is not a variable of the body {body.name!r} "
                         f"(variables: {', '.join(body.variables)})")
    if len(names) == len(body.variables):
        raise ValueError(f"existence {name!r}: every variable of the body is a constant; state the claim at them instead")
    parts = claim(f"{name}: where", " ".join(names), lambda o, v: o.and_(), hypotheses=dict(where or {}))
    return Existence(name, names, parts.hypotheses, body)


def _in_domain(o: Any, body: Claim, name: str, t: Any) -> list[Any]:
    dom = body.domain(name)
    out = [o.eq(o.floor(t), t)] if dom.integral else []
    if dom.lower is not None:
        out.append(o.le(dom.lower, t))
    if dom.hi is not None:
        out.append(o.le(t, dom.hi))
    return out


def family_claim(theorem: Existence, family: Mapping[str, Formula]) -> Claim:
    """``∀ c. where(c) ⇒ x(c) ∈ domains ∧ hypotheses(c, x(c)) ∧ ¬conclusion(c, x(c))``: the statement that the
    witness family ``family`` (a term in the constants for each universal variable) defeats every
    choice of the constants. Built here from the theorem itself, so that its proof refutes it."""
    extra = sorted(set(family) - set(theorem.universals))
    lacking = [x for x in theorem.universals if x not in family]
    if extra or lacking:
        raise ValueError(f"witness family for {theorem.name!r}: give one term for each of {', '.join(theorem.universals)}"
                         + (f" (missing {', '.join(lacking)})" if lacking else "")
                         + (f" (not universal variables: {', '.join(extra)})" if extra else ""))
    body = theorem.body
    refuse_float_constants(f"{theorem.name}: witness family", lambda o, v: None, None, family)

    def at(o: Any, v: Env) -> Env:
        return Env({**{c: v[c] for c in theorem.constants}, **{x: family[x](o, v) for x in theorem.universals}})

    def defeated(o: Any, v: Env) -> Any:
        w = at(o, v)
        inside = [f for x in theorem.universals for f in _in_domain(o, body, x, w[x])]
        premise = body.premise(o, w)
        if any(f is False for f in (*inside, premise)):  # exactly outside: the body may be undefined there
            return False
        return o.and_(*inside, premise, o.not_(body.conclusion(o, w)))

    domains = tuple(body.domain(c) for c in theorem.constants)
    return Claim(
        name=f"{theorem.name}: witness family",
        variables=theorem.constants,
        conclusion=defeated,
        hypotheses=theorem.where,
        domains=domains if any(d != REAL for d in domains) else (),
        terms=tuple(Part(x, family[x]) for x in theorem.universals),
    )


class SomeInstance:
    """The existential reading ``∃ vars. hypotheses ∧ conclusion`` of a claim, declared as a theorem
    (``some_instance(CLAIM)``): "the bound is attained", "a bracket of the root exists".

    It is proved by one instance that a backend's instance rule checks (``exact.check_instance``,
    ``smt.find_instance``, ``interval.check_instance``), whose fact is about :attr:`subject` — the
    claim's printed form, so an edited claim under the same name is another theorem. No point refutes
    it, so it names no variable a witness could bind: it is refuted only by a universal proof of
    :func:`no_instance_claim` (z3's ``unsat`` of the instance query), which the kernel rule
    :func:`checker.kernel.proof.refute_instance` turns into its negation."""

    variables = ("(an existence: no point refutes it)",)
    hypotheses: tuple = ()

    def __init__(self, claim: Claim) -> None:
        self.claim = claim
        self.name = f"∃ {claim.name}"

    def __repr__(self) -> str:
        return f"SomeInstance({self.claim.name!r})"

    @property
    def subject(self) -> str:
        return instance_subject(self.claim)

    @property
    def refutation_subject(self) -> str:
        """What a refutation of the theorem proves: its negation."""
        return f"(not {self.subject})"

    def text(self) -> str:
        from checker.kernel.printing import print_claim

        printed = print_claim(self.claim)
        if printed.error is not None or printed.conclusion is None:
            return self.name
        parts = [d.text for d in printed.domains] + [h.text for h in printed.hypotheses] + [printed.conclusion.text]
        return f"∃ {' '.join(printed.variables)}. " + " ∧ ".join(parts)

    def recheck(self, witness: Mapping[str, str]) -> None:
        return None


def some_instance(claim: Claim) -> SomeInstance:
    """The theorem ``∃ vars. hypotheses ∧ conclusion`` of ``claim``."""
    return SomeInstance(claim)


def no_instance_claim(claim: Claim) -> Claim:
    """``∀ vars ∈ domains. hypotheses ⇒ ¬conclusion``: the negation of ``some_instance(claim)``, built here
    from the claim so that its universal proof refutes the existence (:func:`checker.kernel.proof.refute_instance`)."""
    conclusion = claim.conclusion
    return claim.derive(f"no instance of {claim.name}", conclusion=lambda o, v: o.not_(conclusion(o, v)))


def instance_subject(claim: Claim) -> str:
    """What an instance rule's fact is about: the existential reading of ``claim``, by its printed form."""
    from checker.kernel.printing import print_claim

    return f"(some-instance {print_claim(claim, spell=False).canonical})"
