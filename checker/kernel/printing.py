"""The printed form of a claim: one more interpretation of the ops namespace.

:class:`RenderOps` interprets a :class:`checker.kernel.claims.Claim` symbolically: every op builds an
:class:`Expr` node instead of a value, so the hypotheses, the conclusion and the named terms come
out as expression trees. Each tree has three spellings:

- ``canonical``: an s-expression (``(le (abs (- x y)) (* 2 (max …)))``) — exact numbers, no
  layout choices; it is what fingerprints hash and baselines store, and it reads back
  (:func:`parse`) into a tree that :mod:`checker.store.claim_relation` hands to z3;
- ``text``: the formula as a mathematician writes it (``|x − y| ≤ 2·max(…)``);
- ``latex``: the same as LaTeX math.

Every op of :mod:`checker.kernel.claims` is interpreted; an op this module does not know (added later)
is kept by name as a function application, so a new op never stops a claim from printing. A
claim that cannot be rendered (it branches on a value in Python, say) gets ``error`` set and no
formulas: the reason is shown instead, never an invented formula.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

BOOL_OPS = frozenset({"le", "lt", "ge", "gt", "eq", "ne", "and", "or", "not", "implies", "is_int"})
_COMPARE = {"le": ("≤", r"\le"), "lt": ("<", "<"), "ge": ("≥", r"\ge"), "gt": (">", ">"),
            "eq": ("=", "="), "ne": ("≠", r"\ne")}
_NAMED = {"relu": r"\operatorname{relu}", "max": r"\max", "min": r"\min", "exp": r"\exp", "log": r"\log", "erf": r"\operatorname{erf}",
          "ite": r"\operatorname{ite}", "is_int": r"\operatorname{int}"}


class RenderError(TypeError):
    """A claim used a symbolic value where Python needs a concrete one (``if``, ``bool``, ``int``)."""


class FloatConstant(RenderError):
    """A Python float in a claim whose binary value is not the decimal it is written as (``0.1``):
    z3 would read the decimal and the exact backend the binary value, two different claims."""


def _number(value: Any) -> Fraction:
    """An exact constant of a claim (the exact backend's reading); anything else cannot be printed."""
    from checker.kernel.witness import to_fraction

    if isinstance(value, (bool, str)):
        raise RenderError(f"cannot print the constant {value!r} ({type(value).__name__})")
    if isinstance(value, float) and math.isfinite(value) and Fraction(repr(float(value))) != Fraction(float(value)):
        exact = Fraction(float(value))
        raise FloatConstant(f"the float constant {float(value)!r} in a claim is the binary value {exact} "
                            f"(not {float(value)!r}); write Fraction('{float(value)!r}') for the decimal, or "
                            f"Fraction({exact.numerator}, {exact.denominator}) if the binary value is meant")
    try:
        return to_fraction(value)
    except (TypeError, ValueError) as exc:
        raise RenderError(f"cannot print the constant {value!r}: {exc}") from None


def lift(value: Any) -> Expr:
    if isinstance(value, Expr):
        return value
    if isinstance(value, bool):
        return Expr("true" if value else "false", ())
    return Expr("num", (), _number(value))


class Expr:
    """A node of a claim's expression tree: ``op`` applied to ``args`` (leaves: ``var`` with
    ``value`` its name, ``num`` with ``value`` a Fraction, ``true``/``false``)."""

    __slots__ = ("op", "args", "value", "_key")

    def __init__(self, op: str, args: tuple[Expr, ...], value: Any = None) -> None:
        self.op, self.args, self.value = op, args, value
        self._key: str | None = None

    @property
    def is_bool(self) -> bool:
        return self.op in BOOL_OPS or self.op in ("true", "false") or (
            self.op == "ite" and len(self.args) == 3 and self.args[1].is_bool)

    @property
    def is_leaf(self) -> bool:
        return not self.args and self.op in ("var", "num", "true", "false")

    @property
    def key(self) -> str:
        """The canonical s-expression (cached: subtrees are shared)."""
        if self._key is None:
            if self.op == "var":
                self._key = _atom(self.value)
            elif self.op == "num":
                v = self.value
                self._key = str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
            elif self.op in ("true", "false"):
                self._key = self.op
            else:
                self._key = "(" + " ".join([_atom(self.op), *(a.key for a in self.args)]) + ")"
        return self._key

    def __repr__(self) -> str:
        return f"Expr({self.key})"

    def __bool__(self) -> bool:
        raise RenderError("the claim branches on a symbolic value in Python (use o.ite instead of if)")

    def __index__(self) -> int:
        raise RenderError("the claim uses a symbolic value as a Python integer")

    __hash__ = None  # type: ignore[assignment]  # == builds a formula, so nodes are not hashable

    def _bin(self, op: str, other: Any, swap: bool = False) -> Expr:
        a, b = lift(self), lift(other)
        return Expr(op, (b, a) if swap else (a, b))

    def __add__(self, o: Any) -> Expr: return self._bin("+", o)

    def __radd__(self, o: Any) -> Expr:
        # sum(...) starts from the int 0; dropping it keeps the printed form as written
        return self if isinstance(o, int) and not isinstance(o, bool) and o == 0 else self._bin("+", o, True)

    def __sub__(self, o: Any) -> Expr: return self._bin("-", o)
    def __rsub__(self, o: Any) -> Expr: return self._bin("-", o, True)
    def __mul__(self, o: Any) -> Expr: return self._bin("*", o)
    def __rmul__(self, o: Any) -> Expr: return self._bin("*", o, True)
    def __truediv__(self, o: Any) -> Expr: return self._bin("/", o)
    def __rtruediv__(self, o: Any) -> Expr: return self._bin("/", o, True)
    def __pow__(self, o: Any) -> Expr: return self._bin("pow", o)
    def __rpow__(self, o: Any) -> Expr: return self._bin("pow", o, True)
    def __matmul__(self, o: Any) -> Expr: return self._bin("matmul", o)
    def __neg__(self) -> Expr: return Expr("neg", (self,))
    def __pos__(self) -> Expr: return self
    def __abs__(self) -> Expr: return Expr("abs", (self,))
    def __le__(self, o: Any) -> Expr: return self._bin("le", o)
    def __lt__(self, o: Any) -> Expr: return self._bin("lt", o)
    def __ge__(self, o: Any) -> Expr: return self._bin("ge", o)
    def __gt__(self, o: Any) -> Expr: return self._bin("gt", o)
    def __eq__(self, o: Any) -> Expr: return self._bin("eq", o)  # type: ignore[override]
    def __ne__(self, o: Any) -> Expr: return self._bin("ne", o)  # type: ignore[override]
    def __and__(self, o: Any) -> Expr: return self._bin("and", o)
    def __or__(self, o: Any) -> Expr: return self._bin("or", o)
    def __invert__(self) -> Expr: return Expr("not", (self,))


_BARE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.']*$|^[-+*/]$")


def _atom(name: str) -> str:
    return name if _BARE.match(name) else "|" + name.replace("|", "") + "|"


def var(name: str) -> Expr:
    return Expr("var", (), name)


class RenderOps:
    """The ops namespace building :class:`Expr` trees. Unknown ops are kept by name."""

    name = "render"

    def q(self, num: Any, den: Any = 1) -> Expr:
        return Expr("num", (), _number(num) / _number(den))

    def _op(self, op: str, *xs: Any) -> Expr:
        return Expr(op, tuple(lift(x) for x in xs))

    def relu(self, x: Any) -> Expr: return self._op("relu", x)
    def abs(self, x: Any) -> Expr: return self._op("abs", x)
    def sqrt(self, x: Any) -> Expr: return self._op("sqrt", x)
    def floor(self, x: Any) -> Expr: return self._op("floor", x)
    def ceil(self, x: Any) -> Expr: return self._op("ceil", x)
    def exp(self, x: Any) -> Expr: return self._op("exp", x)
    def erf(self, x: Any) -> Expr: return self._op("erf", x)
    def log(self, x: Any) -> Expr: return self._op("log", x)
    def pow(self, x: Any, n: Any) -> Expr: return self._op("pow", x, n)

    def max(self, *xs: Any) -> Expr:
        return self._op("max", *(xs[0] if len(xs) == 1 and isinstance(xs[0], (list, tuple)) else xs))

    def min(self, *xs: Any) -> Expr:
        return self._op("min", *(xs[0] if len(xs) == 1 and isinstance(xs[0], (list, tuple)) else xs))

    def ite(self, c: Any, a: Any, b: Any) -> Expr: return self._op("ite", c, a, b)
    def le(self, a: Any, b: Any) -> Expr: return self._op("le", a, b)
    def lt(self, a: Any, b: Any) -> Expr: return self._op("lt", a, b)
    def ge(self, a: Any, b: Any) -> Expr: return self._op("ge", a, b)
    def gt(self, a: Any, b: Any) -> Expr: return self._op("gt", a, b)
    def eq(self, a: Any, b: Any) -> Expr: return self._op("eq", a, b)
    def ne(self, a: Any, b: Any) -> Expr: return self._op("ne", a, b)

    def and_(self, *bs: Any) -> Expr:
        return self._op("and", *bs) if bs else Expr("true", ())

    def or_(self, *bs: Any) -> Expr:
        return self._op("or", *bs) if bs else Expr("false", ())

    def not_(self, b: Any) -> Expr: return self._op("not", b)
    def implies(self, a: Any, b: Any) -> Expr: return self._op("implies", a, b)

    def __getattr__(self, op: str) -> Any:
        if op.startswith("__"):
            raise AttributeError(op)
        return lambda *xs: self._op(op.rstrip("_"), *xs)


OPS = RenderOps()


# ---------------------------------------------------------------------------------------
# Reading a canonical form back
# ---------------------------------------------------------------------------------------

_TOKENS = re.compile(r"\(|\)|\|[^|]*\||[^\s()|]+")


def parse(text: str) -> Expr:
    """The tree of a canonical s-expression (the inverse of :attr:`Expr.key`)."""
    tokens = _TOKENS.findall(text)
    pos = 0

    def atom(tok: str) -> str:
        return tok[1:-1] if tok.startswith("|") else tok

    def read() -> Expr:
        nonlocal pos
        if pos >= len(tokens):
            raise ValueError(f"unexpected end of claim form {text[:60]!r}")
        tok = tokens[pos]
        pos += 1
        if tok == "(":
            op = atom(tokens[pos])
            pos += 1
            args = []
            while pos < len(tokens) and tokens[pos] != ")":
                args.append(read())
            if pos >= len(tokens):
                raise ValueError(f"unbalanced claim form {text[:60]!r}")
            pos += 1
            return Expr(op, tuple(args))
        if tok == ")":
            raise ValueError(f"unbalanced claim form {text[:60]!r}")
        if tok in ("true", "false"):
            return Expr(tok, ())
        if not tok.startswith("|") and re.match(r"^-?\d+(/\d+)?$", tok):
            return Expr("num", (), Fraction(tok))
        return var(atom(tok))

    tree = read()
    if pos != len(tokens):
        raise ValueError(f"trailing text after claim form {text[:60]!r}")
    return tree


# ---------------------------------------------------------------------------------------
# Spelling a tree as text and LaTeX
# ---------------------------------------------------------------------------------------

_PREC = {"implies": 1, "or": 2, "and": 3, "not": 4, **{k: 5 for k in _COMPARE}, "+": 6, "-": 6, "*": 7, "/": 7,
         "neg": 8, "pow": 9}


def _num_text(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def text(e: Expr, parent: int = 0, right: bool = False) -> str:
    """The formula in plain mathematical notation (Unicode)."""
    op, a = e.op, e.args
    prec = _PREC.get(op, 10)
    match op:
        case "var":
            s = str(e.value)
        case "num":
            s = _num_text(e.value)
            prec = 10 if e.value >= 0 and e.value.denominator == 1 else 7
        case "true" | "false":
            s = op
        case "+" | "-" | "*" | "/":
            sym = {"+": " + ", "-": " − ", "*": "·", "/": "/"}[op]
            s = text(a[0], prec) + sym + text(a[1], prec, right=True)
        case "neg":
            s = "−" + text(a[0], prec)
        case "pow":
            s = text(a[0], prec + 1) + "^" + text(a[1], prec + 1)
        case "abs":
            s, prec = "|" + text(a[0]) + "|", 10
        case "floor":
            s, prec = "⌊" + text(a[0]) + "⌋", 10
        case "ceil":
            s, prec = "⌈" + text(a[0]) + "⌉", 10
        case "sqrt":
            s, prec = "√(" + text(a[0]) + ")", 10
        case "is_int":
            s, prec = text(a[0], 9) + " ∈ ℤ", 5
        case "not":
            s = "¬" + text(a[0], prec + 1)
        case "and" | "or":
            sym = " ∧ " if op == "and" else " ∨ "
            s = sym.join(text(x, prec + 1) for x in a)
        case "implies":
            s = text(a[0], prec + 1) + " ⇒ " + text(a[1], prec)
        case _ if op in _COMPARE:
            s = text(a[0], prec + 1) + f" {_COMPARE[op][0]} " + text(a[1], prec + 1)
        case _:
            s, prec = f"{op}(" + ", ".join(text(x) for x in a) + ")", 10
    tight = prec < parent or (right and prec == parent and op in ("+", "-", "*", "/") and parent in (6, 7))
    return f"({s})" if tight else s


def _latex_var(name: str) -> str:
    m = re.match(r"^([A-Za-z]+)_?(\d+)$", name)
    if m:
        return f"{m.group(1)}_{{{m.group(2)}}}"
    return name.replace("_", r"\_") if len(name) == 1 else r"\mathit{" + name.replace("_", r"\_") + "}"


def latex(e: Expr, parent: int = 0, right: bool = False) -> str:
    """The formula as LaTeX math (without the surrounding ``$``)."""
    op, a = e.op, e.args
    prec = _PREC.get(op, 10)
    match op:
        case "var":
            s = _latex_var(str(e.value))
        case "num":
            v = e.value
            s = str(v.numerator) if v.denominator == 1 else rf"\tfrac{{{v.numerator}}}{{{v.denominator}}}"
            prec = 10 if v >= 0 else 7
        case "true" | "false":
            s = r"\top" if op == "true" else r"\bot"
        case "+" | "-" | "*":
            sym = {"+": " + ", "-": " - ", "*": r" \cdot "}[op]
            s = latex(a[0], prec) + sym + latex(a[1], prec, right=True)
        case "/":
            s, prec = rf"\frac{{{latex(a[0])}}}{{{latex(a[1])}}}", 10
        case "neg":
            s = "-" + latex(a[0], prec)
        case "pow":
            s = "{" + latex(a[0], prec + 1) + "}^{" + latex(a[1]) + "}"
        case "abs":
            s, prec = r"\left|" + latex(a[0]) + r"\right|", 10
        case "floor":
            s, prec = r"\lfloor " + latex(a[0]) + r" \rfloor", 10
        case "ceil":
            s, prec = r"\lceil " + latex(a[0]) + r" \rceil", 10
        case "sqrt":
            s, prec = r"\sqrt{" + latex(a[0]) + "}", 10
        case "not":
            s = r"\neg " + latex(a[0], prec + 1)
        case "and" | "or":
            sym = r" \land " if op == "and" else r" \lor "
            s = sym.join(latex(x, prec + 1) for x in a)
        case "implies":
            s = latex(a[0], prec + 1) + r" \Rightarrow " + latex(a[1], prec)
        case _ if op in _COMPARE:
            s = latex(a[0], prec + 1) + f" {_COMPARE[op][1]} " + latex(a[1], prec + 1)
        case _:
            name = _NAMED.get(op, r"\operatorname{" + op.replace("_", r"\_") + "}")
            s, prec = name + r"\left(" + ", ".join(latex(x) for x in a) + r"\right)", 10
    tight = prec < parent or (right and prec == parent and op in ("+", "-", "*") and parent in (6, 7))
    return rf"\left({s}\right)" if tight else s


# ---------------------------------------------------------------------------------------
# Claims
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Formula:
    """One named part of a printed claim."""

    name: str
    canonical: str
    text: str
    latex: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "canonical": self.canonical, "text": self.text, "latex": self.latex}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Formula:
        return cls(data["name"], data["canonical"], data.get("text", data["canonical"]), data.get("latex", ""))


def formula(name: str, e: Expr, spell: bool = True) -> Formula:
    """One named part of a printed claim; with ``spell=False`` its canonical form only (text and
    LaTeX left empty: spelling a shared subtree walks it again wherever it occurs, which on the
    catalogue's larger claims costs seconds, and a claim's identity needs only the canonical form)."""
    return Formula(name, e.key, text(e) if spell else "", latex(e) if spell else "")


@dataclass(frozen=True, slots=True)
class PrintedClaim:
    """A claim as formulas: ``∀ variables ∈ domains. ∧ hypotheses ⇒ conclusion``, and its terms."""

    name: str
    variables: tuple[str, ...]
    conclusion: Formula | None
    hypotheses: tuple[Formula, ...] = ()
    terms: tuple[Formula, ...] = ()
    domains: tuple[Formula, ...] = ()  # one per variable that is not all of ℝ
    error: str | None = None
    exists: tuple[str, ...] = ()  # an existence over constants: ∃ exists. where ∧ ∀ variables. …
    where: tuple[Formula, ...] = ()

    @property
    def canonical(self) -> str:
        """The whole claim as one canonical string (what fingerprints hash)."""
        if self.error is not None:
            return f"(unprintable {_atom(self.name)} {_atom(self.error)})"
        parts = [f"(vars {' '.join(_atom(v) for v in self.variables)})"]
        parts += [f"(domain {_atom(d.name)} {d.canonical})" for d in self.domains]
        parts += [f"(hyp {_atom(h.name)} {h.canonical})" for h in self.hypotheses]
        assert self.conclusion is not None
        parts.append(f"(concl {self.conclusion.canonical})")
        parts += [f"(term {_atom(t.name)} {t.canonical})" for t in self.terms]
        whole = f"(claim {_atom(self.name)} " + " ".join(parts) + ")"
        if not self.exists:
            return whole
        where = " ".join(f"(where {_atom(w.name)} {w.canonical})" for w in self.where)
        return f"(exists ({' '.join(_atom(c) for c in self.exists)}) {where} {whole})".replace("  ", " ")

    def statement_text(self) -> str:
        """``∀ x y. h₁ ∧ h₂ ⇒ conclusion`` in plain notation."""
        if self.error is not None or self.conclusion is None:
            return f"{self.name}: cannot be printed ({self.error})"
        premise = [d.text for d in self.domains] + [h.text for h in self.hypotheses]
        body = self.conclusion.text if not premise else " ∧ ".join(f"({p})" if " ∨ " in p or " ⇒ " in p else p
                                                                  for p in premise) + " ⇒ " + self.conclusion.text
        body = f"∀ {' '.join(self.variables)}. {body}" if self.variables else body
        if not self.exists:
            return body
        where = " ∧ ".join(w.text for w in self.where)
        return f"∃ {' '.join(self.exists)}. " + (f"{where} ∧ ({body})" if where else body)

    def premise_tree(self) -> Expr:
        if self.exists:
            raise RenderError("an existence over constants has no quantifier-free tree")
        parts = [parse(d.canonical) for d in self.domains] + [parse(h.canonical) for h in self.hypotheses]
        if not parts:
            return Expr("true", ())
        return parts[0] if len(parts) == 1 else Expr("and", tuple(parts))

    def tree(self) -> Expr:
        """The whole claim ``premise ⇒ conclusion`` as one tree (read back from the canonical forms)."""
        if self.exists:
            raise RenderError("an existence over constants has no quantifier-free tree")
        assert self.conclusion is not None
        concl = parse(self.conclusion.canonical)
        if not self.domains and not self.hypotheses:
            return concl
        return Expr("implies", (self.premise_tree(), concl))

    def numbers(self) -> set[Fraction]:
        """Every numeric constant of the claim (for comparing with the statement's prose)."""
        out: set[Fraction] = set()
        for f in (*self.where, *self.domains, *self.hypotheses, *((self.conclusion,) if self.conclusion else ()), *self.terms):
            out.update(_numbers(parse(f.canonical)))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "variables": list(self.variables),
            "domains": [d.to_json() for d in self.domains],
            "hypotheses": [h.to_json() for h in self.hypotheses],
            "conclusion": None if self.conclusion is None else self.conclusion.to_json(),
            "terms": [t.to_json() for t in self.terms],
            "text": self.statement_text(),
            "error": self.error,
            **({"exists": list(self.exists), "where": [w.to_json() for w in self.where]} if self.exists else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PrintedClaim:
        concl = data.get("conclusion")
        return cls(
            name=data["name"],
            variables=tuple(data.get("variables", ())),
            conclusion=None if concl is None else Formula.from_json(concl),
            hypotheses=tuple(Formula.from_json(h) for h in data.get("hypotheses", ())),
            terms=tuple(Formula.from_json(t) for t in data.get("terms", ())),
            domains=tuple(Formula.from_json(d) for d in data.get("domains", ())),
            error=data.get("error"),
            exists=tuple(data.get("exists", ())),
            where=tuple(Formula.from_json(w) for w in data.get("where", ())),
        )


def _numbers(e: Expr) -> Iterable[Fraction]:
    if e.op == "num":
        yield e.value
    for a in e.args:
        yield from _numbers(a)


def _domain_formulas(claim: Any) -> tuple[Formula, ...]:
    """Typed variables (integers, naturals, bounds), when the claim declares them."""
    domains = getattr(claim, "domains", None)
    if not domains:
        return ()
    out = []
    # one Domain per variable, in order (or a mapping name -> Domain)
    items = domains.items() if isinstance(domains, Mapping) else zip(getattr(claim, "variables", ()), domains)
    for name, d in items:
        x = var(name)
        parts: list[Expr] = []
        kind = getattr(getattr(d, "kind", None), "value", "real")
        if kind in ("int", "nat"):
            parts.append(Expr("is_int", (x,)))
        lo = getattr(d, "lower", None) if kind == "nat" else getattr(d, "lo", None)
        if lo is None and kind == "nat":
            lo = Fraction(0)
        hi = getattr(d, "hi", None)
        if lo is not None:
            parts.append(Expr("le", (lift(lo), x)))
        if hi is not None:
            parts.append(Expr("le", (x, lift(hi))))
        if parts:
            out.append(formula(name, parts[0] if len(parts) == 1 else Expr("and", tuple(parts))))
    return tuple(out)


def print_claim(claim: Any, spell: bool = True) -> PrintedClaim:
    """Interpret ``claim`` with :data:`OPS`; a failure is recorded, never raised. ``spell=False``:
    the canonical forms only (:func:`formula`), for the claim's identity."""
    from checker.kernel.claims import Env

    name = str(getattr(claim, "name", "?"))
    if isinstance(getattr(claim, "constants", None), tuple) and hasattr(claim, "body"):
        return _print_existence(claim, spell)
    if not hasattr(claim, "conclusion") and hasattr(type(claim), "subject"):
        return _print_stated(claim)
    variables = tuple(getattr(claim, "variables", ()))
    try:
        env = Env({x: var(x) for x in variables})
        hyps = tuple(formula(h.name, lift(h.formula(OPS, env)), spell) for h in claim.hypotheses)
        concl = formula("conclusion", lift(claim.conclusion(OPS, env)), spell)
        terms = tuple(formula(t.name, lift(t.formula(OPS, env)), spell) for t in claim.terms)
        domains = _domain_formulas(claim)
    except RecursionError:
        return PrintedClaim(name, variables, None, error="the claim is too deep to print")
    except Exception as exc:  # noqa: BLE001 - a claim the printer cannot follow is reported, not fatal
        return PrintedClaim(name, variables, None, error=f"{type(exc).__name__}: {exc}")
    return PrintedClaim(name, variables, concl, hyps, terms, domains)


def _print_stated(claim: Any) -> PrintedClaim:
    """A claim another backend states and re-checks itself (a sympy limit, a catalogue's rebuilt
    instance): printed as its own text, its identity its subject."""
    name = str(getattr(claim, "name", "?"))
    try:
        subject = str(claim.subject)
        shown = claim.text() if callable(getattr(claim, "text", None)) else str(getattr(claim, "__doc__", "") or name).split("\n\n")[0]
    except Exception as exc:  # noqa: BLE001 - as print_claim: recorded, never raised
        return PrintedClaim(name, (), None, error=f"{type(exc).__name__}: {exc}")
    shown = " ".join(shown.split())
    return PrintedClaim(name, (), Formula("conclusion", f"(stated {_atom(subject)})", shown, rf"\text{{{shown}}}"))


def _print_existence(theorem: Any, spell: bool = True) -> PrintedClaim:
    """``∃ constants. where ∧ ∀ x. body`` (:class:`checker.kernel.existence.Existence`): the body printed
    over its universal variables, the constants' domains and ``where`` before it."""
    from dataclasses import replace

    from checker.kernel.claims import Env

    body = print_claim(theorem.body, spell)
    if body.error is not None:
        return replace(body, name=theorem.name)
    try:
        env = Env({x: var(x) for x in theorem.body.variables})
        where = tuple(formula(p.name, lift(p.formula(OPS, env)), spell) for p in theorem.where)
    except Exception as exc:  # noqa: BLE001 - as print_claim: recorded, never raised
        return PrintedClaim(theorem.name, body.variables, None, error=f"{type(exc).__name__}: {exc}")
    constants = set(theorem.constants)
    return replace(body, name=theorem.name, variables=tuple(x for x in body.variables if x not in constants),
                   domains=tuple(d for d in body.domains if d.name not in constants), exists=tuple(theorem.constants),
                   where=tuple(d for d in body.domains if d.name in constants) + where)


def print_claims(claims: Iterable[Any], spell: bool = True) -> tuple[PrintedClaim, ...]:
    return tuple(print_claim(c, spell) for c in claims)


# ---------------------------------------------------------------------------------------
# Prose against claim
# ---------------------------------------------------------------------------------------

# A number standing alone in prose: not part of a name (z0, ℝ^{2K}, x_1), a section label or a date.
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_PROSE_NUMBER = re.compile(r"(?<![\w.^_{/])(\d+(?:\.\d+)?(?:/\d+)?)(⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?(?![\w}]|\.\d)")
_TIMES_POWER = re.compile(r"\s*[·×]\s*(\d+)(⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_FACTOR_BEFORE = re.compile(r"(\d+(?:\.\d+)?)\s*[·×]\s*$")


def _prose_value(base: str, exponent: str | None) -> Fraction:
    """The number a prose token writes: ``2⁻²⁴`` is 2 to the −24 (Unicode superscripts)."""
    value = Fraction(base)
    if exponent:
        k = int(exponent.translate(_SUPERSCRIPT))
        if abs(k) <= 4096 and value != 0:
            value = value ** k
    return value

# A reference to a part of a document: "Theorem 2", "Theorem 4.2", "Eq. (10)", "layers 1 then 2",
# "parts 1–3", "Section 3.1 and 3.2". Its numbers name things; they are not constants of a claim.
_REFERENCE = re.compile(
    r"\b(?:theorems?|thms?|lemmas?|lems?|corollar(?:y|ies)|cors?|propositions?|props?|definitions?|defs?|remarks?|"
    r"examples?|exs?|sections?|secs?|§|equations?|eqs?|figures?|figs?|tables?|appendi(?:x|ces)|apps?|algorithms?|"
    r"algs?|assumptions?|conjectures?|claims?|steps?|parts?|layers?|chapters?|items?|cases?|lines?|conditions?|"
    r"comments?|questions?|hypothes[ie]s|footnotes?|pages?|pp?)\.?\s*"
    r"\(?\d+(?:\.\d+)*[a-z]?\)?(?:\s*(?:,|and|or|then|to|–|-|&)\s*\(?\d+(?:\.\d+)*[a-z]?\)?)*",
    re.IGNORECASE)


def prose_numbers(statement: str) -> list[str]:
    """Numbers of a statement's prose, leaving out enumerators such as ``(2)`` and references
    such as ``Theorem 4.2`` or ``layers 1 then 2``."""
    text = _REFERENCE.sub(lambda m: " " * len(m.group()), statement)
    return [m.group(0) for m in _PROSE_NUMBER.finditer(re.sub(r"\(\d+\)", " ", text))]


def checked_texts(certificate: Mapping[str, Any] | None, over: str = "") -> list[str]:
    """What a result records it checked, as texts whose numbers count as checked: the grade's
    family of sizes or points (``K = 2…6``, ``n = 256, 512``), each step's description, and the keys
    of the tables in its steps and data (a loop writes its bound there: ``n=256``). Values are
    results, not what was checked, and are left out."""
    out = [over] if over else []

    def keys(value: Any, depth: int = 0) -> None:
        if depth > 6:
            return
        if isinstance(value, Mapping):
            for k, v in value.items():
                out.append(str(k))
                keys(v, depth + 1)
        elif isinstance(value, (list, tuple)):
            for v in value[:200]:
                keys(v, depth + 1)

    cert = certificate or {}
    for step in cert.get("steps") or ():
        if isinstance(step, Mapping):
            out.append(str(step.get("action") or ""))
            keys(step.get("detail"))
    keys(cert.get("data"))
    return out


_LIST = r"\d+(?:\.\d+)?(?:/\d+)?(?:\s*(?:,|…|\.\.\.|–|-|and|or)\s*\d+(?:\.\d+)?(?:/\d+)?)*"
_ASSIGNMENT = re.compile(r"(?<![\w])([A-Za-z][\w']*)\s*=\s*(" + _LIST + ")")


def _assignments(text: str) -> set[str]:
    """``name=value`` for every value a text gives a name: ``n = 256, 512`` and ``n=256``, a range
    ``K = 2…6`` as each of 2, 3, …, 6."""
    out: set[str] = set()
    for m in _ASSIGNMENT.finditer(text):
        name, values = m.group(1), m.group(2)
        numbers = re.findall(r"\d+(?:\.\d+)?(?:/\d+)?", values)
        out |= {f"{name}={Fraction(x)}" for x in numbers}
        for lo, hi in re.findall(r"(\d+)\s*(?:…|\.\.\.)\s*(\d+)", values):
            if 0 <= int(hi) - int(lo) <= 1000:
                out |= {f"{name}={k}" for k in range(int(lo), int(hi) + 1)}
    return out


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _covered(statement: str, start: int, end: int, checked: Sequence[str], assigned: set[str]) -> bool:
    """Whether what the result records it checked covers the number at ``statement[start:end]``:
    the same name gives it the same value there (``n = 256, 512`` against a table key ``n=512``,
    ``K = 6`` against the family ``K = 2…6``), or the number occurs there with the same word
    beside it (``4 log n`` against a step ``4 log n − log 4``). A bare ``2`` of ``≤ 2·‖x‖`` is
    never covered by an unrelated ``2`` (a size ``K = 2…6``)."""
    token = statement[start:end]
    for m in _ASSIGNMENT.finditer(statement):
        if m.start(2) <= start and end <= m.end(2) and f"{m.group(1)}={Fraction(token)}" in assigned:
            return True
    right = re.match(r"\s*([A-Za-z]{2,})", statement[end:])
    left = re.search(r"([A-Za-z]{2,})\s*$", statement[:start])
    phrases = ([token + right.group(1)] if right else []) + ([left.group(1) + token] if left else [])
    for phrase in phrases:
        pattern = re.compile(r"(?<![\d.])" + re.escape(phrase) + r"(?![\d])") if phrase[0].isdigit() else \
            re.compile(r"(?<![A-Za-z])" + re.escape(phrase) + r"(?![\d.])")
        if any(pattern.search(t) for t in checked):
            return True
    return False


def prose_warnings(statement: str, claims: Iterable[PrintedClaim], checked: Iterable[str] = ()) -> list[str]:
    """Numbers of the statement text that occur in no printed claim (0 and 1 are always allowed):
    ``≤ 2·…`` in prose while the code checks ``3·…`` is caught here. References (``Theorem 2``,
    ``layers 1 then 2``) are not numbers of the claim; a number the result records it checked
    (``checked``: :func:`checked_texts` — the family of sizes, a loop's table keys ``n=256``, a
    step's ``4 log n``) counts where the statement uses it the same way (:func:`_covered`)."""
    # a claim another backend states (its own re-check, printed as text) has no constants to compare
    printed = [c for c in claims if c.error is None and not (c.conclusion and c.conclusion.canonical.startswith("(stated "))]
    if not printed:
        return []
    constants: set[Fraction] = set()
    for c in printed:
        constants |= c.numbers()
    squeezed = [_squeezed(t) for t in checked]
    assigned = set().union(*(_assignments(t) for t in checked)) if squeezed else set()
    text = _REFERENCE.sub(lambda m: " " * len(m.group()), statement)
    text = re.sub(r"\(\d+\)", lambda m: " " * len(m.group()), text)
    out, seen = [], set()
    magnitudes = {abs(c) for c in constants}
    for m in _PROSE_NUMBER.finditer(text):
        token = m.group(0)
        value = _prose_value(m.group(1), m.group(2))
        product = _TIMES_POWER.match(text, m.end())  # ``4·2⁻²³``: the factor is part of one constant
        factor = _FACTOR_BEFORE.search(text, 0, m.start()) if m.group(2) else None
        values = {abs(value)} | ({abs(value * _prose_value(product.group(1), product.group(2)))} if product else set())
        values |= {abs(value * Fraction(factor.group(1)))} if factor else set()
        if m.group(2) and abs(Fraction(m.group(1))) in magnitudes:
            values.add(abs(Fraction(m.group(1))))  # ``10⁻³`` where the claim writes 10 and the power apart
        if values & magnitudes or value in (0, 1) or token in seen:
            continue
        if _covered(statement, m.start(1), m.end(1), squeezed, assigned):
            continue
        seen.add(token)
        out.append(f"the statement says {token}, which occurs in none of the checked claims "
                   f"(their constants: {', '.join(sorted({_num_text(x) for x in constants if x not in (0, 1)}, key=_sort_key)) or 'none'})")
    return out


def _sort_key(s: str) -> Fraction:
    return Fraction(s)
