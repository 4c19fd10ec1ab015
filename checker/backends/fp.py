"""z3's floating-point theory: bit-exact lemmas about IEEE binary32 (``FPSort(8, 24)``).

A lemma is a formula over binary32 (and binary64, for exact intermediate values) terms whose
negation is handed to z3. Only ``unsat`` proves: the lemma then holds for every bit pattern of
its variables, as z3's floating-point semantics (IEEE 754, round to nearest even where the
formula says ``RNE``) defines them. A ``sat`` model is a *candidate*: its bit patterns are
turned into exact rationals and re-checked by the caller's ``recheck`` (exact binary32
rounding, independent of z3) before anything is refuted; ``unknown`` is reported as such.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping

from checker.kernel.model import Grade, Verdict
from checker.kernel import proof as kernel
from checker.kernel.verdicts import proved_by, refuted, timed, unknown

NAME = "fp"
DEFAULT_TIMEOUT_MS = 60_000


def _z3():
    import z3

    return z3


def version() -> str:
    return f"z3 {_z3().get_version_string()} (QF_FP)"


@dataclass(frozen=True)
class FpTerms:
    """The sorts, rounding modes and helpers of one fresh z3 context."""

    ctx: Any
    f32: Any
    f64: Any
    rne: Any
    rtn: Any
    rtp: Any

    def var32(self, name: str) -> Any:
        return _z3().FP(name, self.f32)

    def val32(self, x: float) -> Any:
        return _z3().FPVal(x, None, self.f32, self.ctx)

    def val64(self, x: float) -> Any:
        return _z3().FPVal(x, None, self.f64, self.ctx)

    def wide(self, x: Any) -> Any:
        """A binary32 term as binary64 (exact: every binary32 is a binary64)."""
        return _z3().fpToFP(self.rne, x, self.f64, self.ctx)

    def finite(self, x: Any) -> Any:
        z3 = _z3()
        return z3.Not(z3.Or(z3.fpIsNaN(x), z3.fpIsInf(x)))

    def exact_sub64(self, x: Any, y: Any) -> Any:
        """``x − y`` in binary64 is exact: rounding down and rounding up agree."""
        z3 = _z3()
        return z3.fpEQ(z3.fpSub(self.rtn, x, y), z3.fpSub(self.rtp, x, y))


def terms() -> FpTerms:
    z3 = _z3()
    # z3's Python API builds most floating-point terms in the main context (fpSub, fpBVToFP, …
    # ignore the operands' context), so the lemmas use it; each has its own solver.
    ctx = z3.main_ctx()
    return FpTerms(ctx, z3.Float32(ctx), z3.Float64(ctx), z3.RNE(ctx), z3.RTN(ctx), z3.RTP(ctx))


def binary32_value(bits: int) -> Fraction:
    """The exact value of a finite binary32 bit pattern."""
    return Fraction(struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0])


def _model_bits(model: Any, var: Any) -> int | None:
    z3 = _z3()
    v = model.eval(z3.fpToIEEEBV(var), model_completion=True)
    return v.as_long() if z3.is_bv_value(v) else None


def prove(
    name: str,
    build: Callable[[FpTerms], tuple[Any, Mapping[str, Any]]],
    recheck: Callable[[Mapping[str, Fraction]], Mapping[str, Any] | None],
    *,
    over: str,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> Verdict:
    """Prove ``build``'s lemma for every bit pattern of its binary32 variables.

    ``build(t)`` returns the lemma's formula and its binary32 variables by name. The negation
    is checked; ``unsat`` is a proof over ``over`` (e.g. "every binary32 a, b"). On ``sat``,
    ``recheck`` receives the model's values as exact rationals and returns the violated sides
    (refuted) or ``None`` (the model does not re-check: unknown)."""
    z3 = _z3()
    method = "z3 floating-point theory (binary32, RNE): the negation is unsat"
    with timed() as clock:
        t = terms()
        formula, variables = build(t)
        solver = z3.Solver(ctx=t.ctx)
        solver.set(timeout=timeout_ms)
        solver.add(z3.Not(formula))
        answer = solver.check()
        step = clock.step(NAME, version(), f"check ¬({name})", str(answer), timeout_ms=timeout_ms, over=over)
    if answer == z3.unsat:
        fact = kernel.issue(f"binary32: {name}", Grade.UNIVERSAL, over, [kernel.Entry(
            "solver", f"z3 {version()}: ¬({name}) unsat in floating-point theory", {"over": over})])
        return proved_by(method, fact, step, lemma=name)
    if answer == z3.unknown:
        return unknown(method, f"z3 answered unknown on {name}: {solver.reason_unknown()}", step)
    model = solver.model()
    point: dict[str, Fraction] = {}
    for key, var in variables.items():
        bits = _model_bits(model, var)
        if bits is None or (bits >> 23) & 0xFF == 0xFF:
            return unknown(method, f"the z3 model of ¬({name}) gives {key} no finite binary32 value", step)
        point[key] = binary32_value(bits)
    sides = recheck(point)
    if sides is None:
        return unknown(method, f"the z3 model of ¬({name}) does not re-check in exact binary32 arithmetic", step)
    return refuted("z3 floating-point model, re-checked bit-exactly", point, sides, step, lemma=name)
