"""z3's floating-point theory: bit-exact lemmas about IEEE binary32 (``FPSort(8, 24)``).

A lemma is a formula over binary32 (and binary64, for exact intermediate values) terms, built
with z3's API, whose negation is handed to bitwuzla (in standard SMT-LIB) and, to confirm an
``unsat``, to z3 (:func:`prove`). Only ``unsat`` proves: the lemma then holds for every bit pattern
of its variables, as the floating-point semantics of SMT-LIB (IEEE 754, round to nearest even where
the formula says ``RNE``) defines them. A ``sat`` model, from either solver, is a *candidate*: its bit
patterns are turned into exact rationals and re-checked by the caller's ``recheck`` (exact binary32
rounding, independent of both solvers) before anything is refuted; ``unknown`` is reported as such.
"""

from __future__ import annotations

import struct
import time
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


def bit_query(t: FpTerms, negation: Any, variables: Mapping[str, Any], what: str) -> tuple[Any, dict[str, str]]:
    """``negation`` as standard SMT-LIB for a second solver, and the name of each variable's bit
    vector. Each floating-point variable ``v`` is declared through its bits: ``v`` becomes
    ``((_ to_fp e s) v_bits)`` and z3's ``(fp.to_ieee_bv v)`` (an extension no other solver reads)
    becomes ``v_bits``. Every bit pattern is some value and every value some pattern, so the
    translation is unsat exactly when the lemma holds for every bit pattern of its variables."""
    from checker.backends import confirm, memo

    z3 = _z3()
    to_bits, to_value, names = [], [], {}
    taken = {str(v) for v in variables.values()}
    for key, var in variables.items():
        sort = var.sort()
        name = f"{var}_bits"
        while name in taken:
            name += "_"
        taken.add(name)
        bits = z3.BitVec(name, sort.ebits() + sort.sbits(), t.ctx)
        to_bits.append((z3.fpToIEEEBV(var), bits))
        to_value.append((var, z3.fpBVToFP(bits, sort, t.ctx)))
        names[key] = name
    translated = z3.substitute(z3.substitute(negation, *to_bits), *to_value) if to_bits else negation
    solver = z3.Solver(ctx=t.ctx)
    solver.add(translated)
    return confirm.Query(memo.z3_text(solver), confirm.logic_of([translated]), what), names


def _point(bits_of: Mapping[str, int | None]) -> tuple[dict[str, Fraction] | None, str]:
    """Exact rationals of binary32 bit patterns, or ``None`` and which variable has no finite value."""
    point: dict[str, Fraction] = {}
    for key, bits in bits_of.items():
        if bits is None or bits >> 32 or (bits >> 23) & 0xFF == 0xFF:
            return None, key
        point[key] = binary32_value(bits)
    return point, ""


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
    (refuted) or ``None`` (the model does not re-check: unknown).

    bitwuzla is the first solver (several times faster than z3 on these lemmas), on the negation
    written in standard SMT-LIB (:func:`bit_query`); its ``unsat`` is confirmed by z3 on z3's own
    terms (:mod:`checker.backends.confirm`: both answers in the ledger, a ``sat`` from z3 is a
    disagreement and an error). A bitwuzla model is a candidate only until ``recheck`` confirms it;
    when bitwuzla gives no proof and no re-checked witness (unknown, not installed, a model that
    does not re-check) z3 decides as the only solver, and a z3 ``unsat`` against a bitwuzla ``sat``
    is again a disagreement."""
    from checker.backends import confirm

    z3 = _z3()
    what = f"¬({name})"
    t = terms()
    formula, variables = build(t)
    negation = z3.Not(formula)
    first = None
    if confirm.bitwuzla_module() is not None:
        with timed() as clock:
            query, bit_names = bit_query(t, negation, variables, what)
            first = confirm.bitwuzla_check(query, tuple(bit_names.values()), timeout_ms)
            confirm.record(query, f"bitwuzla {first.version}", first.answer)
            step = clock.step(NAME, f"bitwuzla {first.version} ({query.logic})", f"check ¬({name})", first.answer,
                              timeout_ms=timeout_ms, over=over)
        if first.answer == "unsat":
            confirmation = _z3_confirms(t, negation, first, what, timeout_ms)
            fact = kernel.issue(f"binary32: {name}", Grade.UNIVERSAL, over, [kernel.Entry(
                "solver", f"bitwuzla {first.version}: ¬({name}) unsat in floating-point theory ({query.logic})",
                {"solver": "bitwuzla", "version": first.version, "answer": "unsat", "over": over}), confirmation])
            return proved_by("bitwuzla floating-point theory (binary32, RNE): the negation is unsat; z3 confirms",
                             fact, step, lemma=name)
        if first.answer == "sat":
            bits = {key: int(first.model[b], 2) if b in first.model else None for key, b in bit_names.items()}
            point, bad = _point(bits)
            sides = recheck(point) if point is not None else None
            if sides is not None:
                return refuted("bitwuzla floating-point model, re-checked bit-exactly", point, sides, step, lemma=name)
    return _z3_decides(name, t, negation, variables, recheck, over, timeout_ms, first)


def _z3_confirms(t: FpTerms, negation: Any, first: Any, what: str, timeout_ms: int) -> kernel.Entry:
    """z3's confirmation of bitwuzla's ``unsat``: the ledger entry, or a raised disagreement."""
    from checker.backends import confirm

    z3 = _z3()
    if not confirm.enabled():
        return confirm.unconfirmed("z3", "second-solver confirmation is off (confirm = false / --no-confirm)", 1)
    solver = z3.Solver(ctx=t.ctx)
    solver.set(timeout=timeout_ms)
    solver.add(negation)
    start = time.perf_counter()
    answer = solver.check()
    elapsed = time.perf_counter() - start
    query = confirm.query_of(solver, what)
    confirm.record(query, version(), str(answer))
    second = confirm.Answer("z3", _z3().get_version_string(), str(answer),
                            "" if answer != z3.unknown else solver.reason_unknown(), None, elapsed)
    if answer == z3.sat:
        confirm.disagree(query, first, second, what)
    return confirm.confirmation_entry([second], [query], what)


def _z3_decides(name: str, t: FpTerms, negation: Any, variables: Mapping[str, Any],
                recheck: Callable[[Mapping[str, Fraction]], Mapping[str, Any] | None], over: str, timeout_ms: int,
                first: Any) -> Verdict:
    """z3 as the only solver (bitwuzla gave no proof and no re-checked witness: ``first``)."""
    from checker.backends import confirm

    z3 = _z3()
    what = f"¬({name})"
    method = "z3 floating-point theory (binary32, RNE): the negation is unsat"
    with timed() as clock:
        solver = z3.Solver(ctx=t.ctx)
        solver.set(timeout=timeout_ms)
        solver.add(negation)
        answer = solver.check()
        step = clock.step(NAME, version(), f"check ¬({name})", str(answer), timeout_ms=timeout_ms, over=over)
    if confirm.recording_active():
        confirm.record(confirm.query_of(solver, what), version(), str(answer))
    if answer == z3.unsat:
        if first is not None and first.answer == "sat":
            confirm.disagree(confirm.query_of(solver, what), confirm.Answer("z3", z3.get_version_string(), "unsat"),
                             first, what)
        if first is None:
            confirmation = confirm.unconfirmed("bitwuzla", "bitwuzla is not installed (pip install bitwuzla)", 1)
        else:
            reason = f"{first.label} answered {first.answer}" + (f": {first.reason}" if first.reason else "")
            confirmation = confirm.unconfirmed("bitwuzla", reason, 1)
        fact = kernel.issue(f"binary32: {name}", Grade.UNIVERSAL, over, [kernel.Entry(
            "solver", f"{version()}: ¬({name}) unsat in floating-point theory", {"over": over, "solver": "z3",
                                                                                  "answer": "unsat"}), confirmation])
        return proved_by(method, fact, step, lemma=name)
    if answer == z3.unknown:
        return unknown(method, f"z3 answered unknown on {name}: {solver.reason_unknown()}", step)
    model = solver.model()
    bits = {key: _model_bits(model, var) for key, var in variables.items()}
    point, bad = _point(bits)
    if point is None:
        return unknown(method, f"the z3 model of ¬({name}) gives {bad} no finite binary32 value", step)
    sides = recheck(point)
    if sides is None:
        return unknown(method, f"the z3 model of ¬({name}) does not re-check in exact binary32 arithmetic", step)
    return refuted("z3 floating-point model, re-checked bit-exactly", point, sides, step, lemma=name)
