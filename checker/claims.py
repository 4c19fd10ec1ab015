"""Claims written once and interpreted by every backend.

A :class:`Claim` is ``for all variables: hypotheses ⇒ conclusion`` over the reals, each part a
Python function ``(o, v) -> formula`` where ``o`` is a backend's *ops* namespace and ``v``
gives the variables by attribute. Arithmetic uses Python operators (``+ - * /`` work on
Fractions, z3 terms, intervals and numpy arrays alike); everything else goes through ``o``:

``o.relu o.abs o.max o.min o.ite o.sqrt o.q(num, den)`` and the comparisons and connectives
``o.le o.lt o.ge o.gt o.eq o.ne o.and_ o.or_ o.not_ o.implies``.

Hypotheses are named parts so that later audits (vacuity, necessity) can drop or test them.
``terms`` are named real-valued expressions evaluated exactly at a witness and shown in its
certificate (e.g. ``deviation`` and ``bound``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

Formula = Callable[[Any, "Env"], Any]


class Env:
    """Variable values by attribute (``v.s``) or by name (``v["s"]``)."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_values", dict(values))

    def _undeclared(self, name: str) -> str:
        return f"claim uses variable {name!r}, which it does not declare (declared: {', '.join(self._values) or 'none'})"

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(self._undeclared(name)) from None

    def __getitem__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise KeyError(self._undeclared(name)) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Env is read-only")


@dataclass(frozen=True, slots=True)
class Part:
    """A named piece of a claim: a hypothesis, or a real-valued term."""

    name: str
    formula: Formula


@dataclass(frozen=True, slots=True)
class Claim:
    """``∀ variables. ∧ hypotheses ⇒ conclusion`` (or ``∃`` when used as a witness claim)."""

    name: str
    variables: tuple[str, ...]
    conclusion: Formula
    hypotheses: tuple[Part, ...] = ()
    terms: tuple[Part, ...] = ()

    def env(self, values: Mapping[str, Any]) -> Env:
        missing = [x for x in self.variables if x not in values]
        if missing:
            raise ValueError(f"claim {self.name!r}: no value for {', '.join(missing)}")
        return Env({x: values[x] for x in self.variables})

    def hypothesis_values(self, o: Any, v: Env) -> dict[str, Any]:
        return {h.name: h.formula(o, v) for h in self.hypotheses}

    def premise(self, o: Any, v: Env) -> Any:
        """The conjunction of all hypotheses (true when there are none)."""
        return o.and_(*(h.formula(o, v) for h in self.hypotheses))

    def formula(self, o: Any, v: Env) -> Any:
        """The whole implication ``premise ⇒ conclusion``."""
        if not self.hypotheses:
            return self.conclusion(o, v)
        return o.implies(self.premise(o, v), self.conclusion(o, v))

    def term_values(self, o: Any, v: Env) -> dict[str, Any]:
        return {t.name: t.formula(o, v) for t in self.terms}

    def without(self, hypothesis: str) -> Claim:
        """The same claim with one hypothesis dropped (for necessity audits)."""
        kept = tuple(h for h in self.hypotheses if h.name != hypothesis)
        if len(kept) == len(self.hypotheses):
            raise KeyError(f"claim {self.name!r} has no hypothesis {hypothesis!r}")
        return Claim(f"{self.name}-without-{hypothesis}", self.variables, self.conclusion, kept, self.terms)


def claim(
    name: str,
    variables: str | Iterable[str],
    conclusion: Formula,
    hypotheses: Mapping[str, Formula] | None = None,
    terms: Mapping[str, Formula] | None = None,
) -> Claim:
    """Build a :class:`Claim`; ``variables`` may be a space-separated string."""
    names = tuple(variables.split()) if isinstance(variables, str) else tuple(variables)
    if len(set(names)) != len(names):
        raise ValueError(f"claim {name!r}: a variable is declared twice in {names}")
    return Claim(
        name=name,
        variables=names,
        conclusion=conclusion,
        hypotheses=tuple(Part(k, f) for k, f in (hypotheses or {}).items()),
        terms=tuple(Part(k, f) for k, f in (terms or {}).items()),
    )
