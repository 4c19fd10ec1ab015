"""Audits past the proof tools: vacuity, necessity, tightness, minimal counterexamples, brittleness.

An audit runs in the worker right after an obligation's discharge, on the claims the obligation
declares (``@obligation(claims=...)``), under the same wall-clock and memory limits. It never
changes what the discharge established; it adds an ``audit`` object to the result:

- ``vacuity`` — for every conditional claim (one with hypotheses): are the hypotheses jointly
  satisfiable? ``satisfiable`` with an exact witness, ``vacuous`` (z3 proved the hypotheses
  contradictory), or ``unknown``. A proved result with a vacuous claim is shown
  ``proved (vacuous)``, never as a plain proof.
- ``necessity`` — for each hypothesis ``h``: ``claim.without(h)`` is proved (``not needed``), or
  refuted by a witness, re-checked exactly, at which ``h`` is false and every other hypothesis
  holds (``needed``), else ``undecided``. z3 first, then seeded sampling re-checked exactly.
- ``tightness`` — for every declared bound ``lhs ≤ c·rhs`` (:func:`checker.kernel.declare.declare_bound`, or terms named
  ``deviation``/``bound``): the claim with ``c`` scaled by ``1 − ε`` refuted by an exact witness
  (``tight``), else the largest observed ``lhs / (c·rhs)`` by adversarial search (``ratio``).
- ``shrink`` — a refutation's witness made simpler (the smallest refuted width of a family
  declared with :func:`checker.kernel.declare.declare_widths`, fewer nonzero entries, small integers, short rationals)
  and re-checked exactly after every step; the certificate keeps ``witness`` and gains
  ``shrunk_witness``.
- ``brittleness`` — a ``supported`` result re-run with other seeds; a status change across seeds
  makes it ``brittle`` (shown instead of ``supported``, outcome ``open``).

Claims the discharge used existentially (``smt.find_instance`` / ``exact.check_instance`` name
them in their steps) are existence claims: necessity and tightness do not apply to them.

Heavy libraries are imported lazily. What catalogues declare for the audits (bounds, width
families) lives in :mod:`checker.kernel.declare`; this module only reads it.
"""

from __future__ import annotations

import math
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from checker.kernel.claims import Claim, Part
from checker.kernel.declare import Bound, bound_of, width_family_of
from checker.kernel.declare import declare_bound, declare_widths  # noqa: F401  (re-exported)
from checker.kernel.model import audit_flag as flag  # noqa: F401  (re-exported)

AUDIT_KEYS = ("vacuity", "necessity", "tightness", "shrink", "brittleness")


# ------------------------------------------------------------------------------ declarations
# Declared in checker.kernel.declare (the declaration API); re-exported for older catalogue modules.

# ------------------------------------------------------------------------------ configuration


@dataclass(frozen=True, slots=True)
class AuditConfig:
    z3_timeout_ms: int = 2000
    z3_rlimit: int = 4_000_000
    samples: int = 3000
    rounds: int = 12
    epsilon: Fraction = Fraction(1, 100)
    extra_seeds: int = 2
    budget_s: float = 90.0
    shrink_evaluations: int = 3000


class Budget:
    """A wall-clock allowance for one obligation's audit (kept inside the runner's limit)."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + max(0.0, seconds)

    @property
    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def exhausted(self) -> bool:
        return self.remaining <= 0

    def z3_ms(self, cap: int) -> int:
        return max(100, min(cap, int(self.remaining * 1000)))


class _OutOfTime(Exception):
    pass


class AuditTimeout(Exception):
    """Raised by the alarm of :func:`_time_limit` when an audit step overruns the budget."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt Python code running past ``seconds`` (SIGALRM; main thread of a Unix process
    only, as in the runner's workers; elsewhere the per-step checks of :class:`Budget` remain).
    Keeps a slow re-run or search from reaching the runner's hard limit, which would turn the
    whole result into a timeout."""
    import signal
    import threading

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def alarm(signum: int, frame: Any) -> None:
        raise AuditTimeout("audit time budget exhausted")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, max(0.01, seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ------------------------------------------------------------------------------ helpers


def _fmt(value: Any) -> str:
    from checker.kernel.verdicts import fmt

    return fmt(value)


def _fmt_map(values: Mapping[str, Any]) -> dict[str, str]:
    return {k: _fmt(v) for k, v in values.items()}


def _premise_claim(c: Claim) -> Claim:
    """``∀ v. ¬(hypotheses)``: proved ⇔ the hypotheses are unsatisfiable; a counterexample is
    a point where every hypothesis holds."""
    return c.derive(f"{c.name}-hypotheses-unsatisfiable", conclusion=lambda o, v: o.not_(c.premise(o, v)), hypotheses=())


def _scaled_claim(c: Claim, b: Bound, factor: Fraction) -> Claim:
    lhs = next(t.formula for t in c.terms if t.name == b.lhs)
    rhs = next(t.formula for t in c.terms if t.name == b.rhs)
    k = b.constant * factor
    return c.derive(f"{c.name}-constant-times-{_fmt(factor)}",
                    conclusion=lambda o, v: o.le(lhs(o, v), o.q(k.numerator, k.denominator) * rhs(o, v)))


def generic_sampler(names: Sequence[str]) -> Callable[[Any, int], dict[str, Any]]:
    """Independent per-variable mixture: scaled normals, [0, 1], small integers, log-normal
    positives. Crude on purpose: z3 is tried first; this only looks for a witness."""

    def sample(rng: Any, n: int) -> dict[str, Any]:
        import numpy as np

        out = {}
        for name in names:
            kind = rng.integers(0, 4, size=n)
            normal = rng.normal(0.0, 1.0, n) * 10.0 ** rng.uniform(-1.0, 1.0, n)
            unit = rng.uniform(0.0, 1.0, n)
            ints = rng.integers(-3, 4, n).astype(float)
            pos = np.exp(rng.normal(0.0, 1.5, n))
            out[name] = np.choose(kind, [normal, unit, ints, pos])
        return out

    return sample


def _evaluate(c: Claim, point: Mapping[str, Any]):
    from checker.backends import CannotDecide, exact

    try:
        return exact.evaluate(c, point)
    except (CannotDecide, ArithmeticError, ValueError, TypeError, KeyError, AttributeError):
        return None


def existential_names(certificate_json: Mapping[str, Any]) -> set[str]:
    """Claims the discharge used as existence claims (named in find_instance/check_instance steps)."""
    names: set[str] = set()
    for s in certificate_json.get("steps", ()):
        action = s.get("action", "")
        if action.startswith("check ∃ "):
            names.add(action[len("check ∃ "):])
        elif action.startswith("evaluate ") and action.endswith(" at the instance"):
            names.add(action[len("evaluate "):-len(" at the instance")])
    return names


# ------------------------------------------------------------------------------ z3 then sampling


def _search(c: Claim, ctx: Any, config: AuditConfig, budget: Budget, allow_sampling: bool = True):
    """z3 on ``c`` (proved / refuted / unknown); when undecided, seeded sampling re-checked
    exactly. Returns ``(verdict, how)``."""
    from checker.backends import sampling, smt
    from checker.kernel.model import Status

    if budget.exhausted():
        raise _OutOfTime()
    v = smt.prove(c, ctx, timeout_ms=budget.z3_ms(config.z3_timeout_ms), rlimit=config.z3_rlimit)
    if v.status in (Status.PROVED, Status.REFUTED) or not allow_sampling:
        return v, "z3"
    if budget.exhausted():
        return v, "z3"
    reason = v.certificate.reason
    from checker.backends import CannotDecide

    try:
        s = sampling.search(c, ctx, generic_sampler(c.variables), samples=config.samples, rounds=config.rounds)
    except CannotDecide as why:
        return v, f"z3 undecided ({reason}); sampling cannot interpret the claim ({why})"
    if s.status is Status.REFUTED:
        return s, "sampling (re-checked exactly)"
    return s, f"z3 undecided ({reason}); sampling found no counterexample in {s.certificate.data.get('evaluated')} points"


# ------------------------------------------------------------------------------ the audits


def _simplified(c: Claim, witness: Mapping[str, Any], config: AuditConfig, budget: Budget) -> dict[str, str]:
    """A witness (a counterexample to ``c``) made simpler by :func:`shrink`, re-checked exactly;
    the witness itself when it cannot be."""
    s = shrink(c, witness, max_evaluations=min(500, config.shrink_evaluations), deadline=budget.deadline)
    return _fmt_map(s.point) if s is not None else dict(witness)


def _with_negated(c: Claim, h: Part) -> Claim:
    """Counterexamples of this claim: every other hypothesis holds, ``h`` fails, the conclusion fails."""
    others = tuple(x for x in c.hypotheses if x.name != h.name)
    return c.derive(f"{c.name}-not-{h.name}",
                    hypotheses=(*others, Part(f"not ({h.name})", lambda o, v: o.not_(h.formula(o, v)))))


def vacuity_of(c: Claim, ctx: Any, config: AuditConfig, budget: Budget,
               known_points: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    from checker.kernel.model import Status

    entry: dict[str, Any] = {"claim": c.name, "hypotheses": [h.name for h in c.hypotheses]}
    for point in known_points:
        ev = _evaluate(c, point)
        if ev is not None and ev.premise:
            return {**entry, "verdict": "satisfiable", "witness": _fmt_map(ev.point),
                    "method": "the result's own witness, re-checked exactly"}
    pc = _premise_claim(c)
    try:
        v, how = _search(pc, ctx, config, budget)
    except _OutOfTime:
        return {**entry, "verdict": "unknown", "reason": "audit time budget exhausted"}
    if v.status is Status.REFUTED:
        return {**entry, "verdict": "satisfiable", "witness": _simplified(pc, v.certificate.witness or {}, config, budget),
                "method": f"{how}: a point where every hypothesis holds, re-checked exactly"}
    if v.status is Status.PROVED:
        return {**entry, "verdict": "vacuous", "method": "z3: the conjunction of the hypotheses is unsat over ℝ"}
    return {**entry, "verdict": "unknown", "reason": v.certificate.reason or how}


def necessity_of(c: Claim, ctx: Any, config: AuditConfig, budget: Budget) -> list[dict[str, Any]]:
    from checker.kernel.model import Status

    rows = []
    for h in c.hypotheses:
        row: dict[str, Any] = {"claim": c.name, "hypothesis": h.name}
        try:
            v, how = _search(c.without(h.name), ctx, config, budget)
        except _OutOfTime:
            rows.append({**row, "verdict": "undecided", "reason": "audit time budget exhausted"})
            continue
        except Exception as exc:  # noqa: BLE001 - an audit failure is an entry, never a crash
            rows.append({**row, "verdict": "undecided", "reason": f"{type(exc).__name__}: {exc}"})
            continue
        if v.status is Status.PROVED:
            rows.append({**row, "verdict": "not needed", "method": f"{how}: the claim without it is proved"})
        elif v.status is Status.REFUTED:
            point = v.certificate.witness or {}
            ev = _evaluate(c, point)
            if ev is not None and ev.hypotheses.get(h.name) is False:
                ev = _evaluate(c, _simplified(_with_negated(c, h), point, config, budget)) or ev
            if ev is None:
                rows.append({**row, "verdict": "undecided", "reason": "the witness could not be re-evaluated on the full claim"})
            elif ev.hypotheses.get(h.name) is False and not ev.conclusion and all(
                    val for name, val in ev.hypotheses.items() if name != h.name):
                rows.append({**row, "verdict": "needed", "witness": _fmt_map(ev.point), "sides": _fmt_map(ev.terms),
                             "method": f"{how}: every other hypothesis holds, this one fails, the conclusion fails"})
            else:
                rows.append({**row, "verdict": "undecided", "witness": _fmt_map(ev.point),
                             "reason": "the witness also satisfies this hypothesis: it refutes the full claim"})
        else:
            rows.append({**row, "verdict": "undecided", "reason": v.certificate.reason or how})
    return rows


def _observed_ratio(c: Claim, b: Bound, ctx: Any, config: AuditConfig) -> dict[str, Any]:
    """Adversarial search for the largest lhs / (c·rhs) among sampled points where every
    hypothesis holds (numpy margins), the best point re-evaluated exactly."""
    import numpy as np

    from checker.backends.sampling import NumpyOps

    ops = NumpyOps()
    rng = ctx.rng(f"audit/tightness/{c.name}")
    sampler = generic_sampler(c.variables)
    lhs = next(t.formula for t in c.terms if t.name == b.lhs)
    rhs = next(t.formula for t in c.terms if t.name == b.rhs)
    k = float(b.constant)

    def score(pts: Mapping[str, Any]) -> Any:
        n = len(next(iter(pts.values())))
        with np.errstate(all="ignore"):
            env = c.env(pts)
            prem = np.broadcast_to(np.asarray(c.premise(ops, env), dtype=float), (n,)) if c.hypotheses else np.full(n, np.inf)
            num = np.broadcast_to(np.asarray(lhs(ops, env), dtype=float), (n,))
            den = np.broadcast_to(np.asarray(rhs(ops, env), dtype=float), (n,)) * k
            q = num / den
        ok = (prem >= 0) & (den > 0) & np.isfinite(q)
        return np.where(ok, q, -np.inf)

    pts = {name: np.asarray(x, dtype=float) for name, x in sampler(rng, config.samples).items()}
    q = score(pts)
    keep = 64
    order = np.argsort(-q)[:keep]
    elite = {name: x[order] for name, x in pts.items()}
    elite_q = q[order]
    scale = 1.0
    for _ in range(config.rounds * 2):
        trial = {name: x + rng.normal(0.0, scale, size=x.shape) * np.maximum(np.abs(x), 1e-3) for name, x in elite.items()}
        tq = score(trial)
        better = tq > elite_q
        for name in elite:
            elite[name] = np.where(better, trial[name], elite[name])
        elite_q = np.where(better, tq, elite_q)
        scale *= 0.85
    best = int(np.argmax(elite_q))
    if not np.isfinite(elite_q[best]):
        return {"verdict": "undecided", "reason": "no sampled point satisfies the hypotheses with a positive bound",
                "evaluated": config.samples * (1 + 2 * config.rounds)}
    point = {name: float(x[best]) for name, x in elite.items()}
    out: dict[str, Any] = {"verdict": "ratio", "ratio": float(elite_q[best]), "observed": True,
                           "evaluated": config.samples + keep * config.rounds * 2, "seed": ctx.seed}
    ev = _evaluate(c, point)
    if ev is not None and ev.premise and ev.terms[b.rhs] > 0:
        exact_ratio = ev.terms[b.lhs] / (b.constant * ev.terms[b.rhs])
        out.update(ratio=float(exact_ratio), exact_ratio=_fmt(exact_ratio), point=_fmt_map(ev.point))
    return out


def _exceeded(entry: dict[str, Any], c: Claim, b: Bound, witness: Mapping[str, Any], how: str) -> dict[str, Any] | None:
    """``exceeded`` when ``lhs > c·rhs`` exactly at ``witness`` (the bound itself fails there)."""
    ev = _evaluate(c, witness)
    if ev is None or not ev.premise or not ev.terms[b.lhs] > b.constant * ev.terms[b.rhs]:
        return None
    den = b.constant * ev.terms[b.rhs]
    ratio = ev.terms[b.lhs] / den if den > 0 else None
    return {**entry, "verdict": "exceeded", "witness": _fmt_map(ev.point), "sides": _fmt_map(ev.terms),
            "ratio": float(ratio) if ratio is not None else None,
            "exact_ratio": _fmt(ratio) if ratio is not None else "unbounded (c·rhs ≤ 0 < lhs)",
            "method": f"{how}: lhs > c·rhs at an exact witness, the bound fails"}


def _declared_bound_claim(c: Claim, b: Bound) -> Claim:
    """``hypotheses ⇒ (conclusion ⇔ lhs ≤ c·rhs)``: the declared bound is the claim's own."""
    lhs = next(t.formula for t in c.terms if t.name == b.lhs)
    rhs = next(t.formula for t in c.terms if t.name == b.rhs)
    k = b.constant

    def agree(o: Any, v: Any) -> Any:
        concl = c.conclusion(o, v)
        declared = o.le(lhs(o, v), o.q(k.numerator, k.denominator) * rhs(o, v))
        return o.and_(o.implies(concl, declared), o.implies(declared, concl))

    return c.derive(f"{c.name}-is-declared-bound", conclusion=agree)


def declared_bound_mismatch(c: Claim, b: Bound, ctx: Any, config: AuditConfig, budget: Budget) -> dict[str, Any] | None:
    """A witness (exact) where the claim's conclusion and the declared bound ``lhs ≤ c·rhs``
    disagree, hypotheses holding: the declaration no longer states the claim's constant."""
    from checker.kernel.model import Status

    agree = _declared_bound_claim(c, b)
    try:
        v, how = _search(agree, ctx, config, budget)
    except _OutOfTime:
        return None
    if v.status is not Status.REFUTED:
        return None
    ev = _evaluate(c, v.certificate.witness or {})
    if ev is None:
        return None
    return {"verdict": "mismatch", "witness": _fmt_map(ev.point), "sides": _fmt_map(ev.terms),
            "conclusion": ev.conclusion,
            "method": f"{how}: the claim's conclusion and the declared bound {b.lhs} ≤ {_fmt(b.constant)}·{b.rhs} "
                      "disagree at an exact witness, hypotheses holding; fix declare_bound or the claim"}


def tightness_of(c: Claim, b: Bound, ctx: Any, config: AuditConfig, budget: Budget,
                 refuting_witness: Mapping[str, Any] | None = None) -> dict[str, Any]:
    from checker.kernel.model import Status

    entry: dict[str, Any] = {"claim": c.name, "lhs": b.lhs, "rhs": b.rhs, "constant": _fmt(b.constant),
                             "epsilon": _fmt(config.epsilon)}
    if refuting_witness is None:
        mismatch = declared_bound_mismatch(c, b, ctx, config, budget)
        if mismatch is not None:
            return {**entry, **mismatch}
    if refuting_witness is not None:
        found = _exceeded(entry, c, b, refuting_witness, "the result's own counterexample")
        if found is not None:
            if not budget.exhausted():
                observed = _observed_ratio(c, b, ctx, config)
                if observed.get("verdict") == "ratio":
                    found["observed_ratio"] = observed["ratio"]
            return found
    scaled = _scaled_claim(c, b, 1 - config.epsilon)
    try:
        v, how = _search(scaled, ctx, config, budget, allow_sampling=False)
    except _OutOfTime:
        return {**entry, "verdict": "undecided", "reason": "audit time budget exhausted"}
    if v.status is Status.REFUTED:
        point = _simplified(scaled, v.certificate.witness or {}, config, budget)
        found = _exceeded(entry, c, b, point, how)
        if found is not None:
            return found
        ev = _evaluate(c, point)
        if ev is not None and ev.premise and ev.terms[b.rhs] > 0 and \
                ev.terms[b.lhs] > (1 - config.epsilon) * b.constant * ev.terms[b.rhs]:
            ratio = ev.terms[b.lhs] / (b.constant * ev.terms[b.rhs])
            return {**entry, "verdict": "tight", "witness": _fmt_map(ev.point), "sides": _fmt_map(ev.terms),
                    "ratio": float(ratio), "exact_ratio": _fmt(ratio),
                    "method": f"{how}: lhs > (1 − ε)·c·rhs > 0 at an exact witness, hypotheses holding"}
    scaled_note = "z3 proved the bound with the constant scaled by (1 − ε)" if v.status is Status.PROVED else \
        f"z3 did not refute the scaled bound ({v.certificate.reason or v.status.value})"
    if budget.exhausted():
        return {**entry, "verdict": "undecided", "reason": f"{scaled_note}; audit time budget exhausted"}
    observed = _observed_ratio(c, b, ctx, config)
    if observed.get("point") is not None:
        found = _exceeded(entry, c, b, observed["point"], "adversarial search, re-checked exactly")
        if found is not None:
            return found
        ev = _evaluate(c, observed["point"])
        if ev is not None and ev.premise and ev.terms[b.rhs] > 0 and \
                ev.terms[b.lhs] > (1 - config.epsilon) * b.constant * ev.terms[b.rhs]:
            ratio = ev.terms[b.lhs] / (b.constant * ev.terms[b.rhs])
            return {**entry, "verdict": "tight", "witness": _fmt_map(ev.point), "sides": _fmt_map(ev.terms),
                    "ratio": float(ratio), "exact_ratio": _fmt(ratio), "note": scaled_note,
                    "method": "adversarial search: lhs > (1 − ε)·c·rhs > 0 at the best point, re-checked exactly"}
    return {**entry, **observed, "scaled": "proved" if v.status is Status.PROVED else v.status.value, "note": scaled_note}


# ------------------------------------------------------------------------------ shrinking


def _height(x: Fraction) -> int:
    return max(abs(x.numerator), x.denominator)


def complexity(point: Mapping[str, Fraction]) -> tuple[int, float, int]:
    """Fewer nonzero entries first, then shorter numbers (total digits), then smaller ones."""
    values = [x if type(x) is Fraction else Fraction(x) for x in point.values()]
    heights = [_height(x) for x in values if x]
    zeros = len(values) - len(heights)  # each of height 1
    return len(heights), sum(math.log2(h + 1) for h in heights), sum(heights) + zeros


def _candidates(x: Fraction) -> list[Fraction]:
    if x == 0:
        return []
    sign = 1 if x > 0 else -1
    out = {Fraction(0), Fraction(sign), Fraction(sign * 2), Fraction(math.trunc(x)), Fraction(round(x)),
           Fraction(math.floor(x)), Fraction(math.ceil(x)), x / 2, -x}
    for den in (1, 2, 3, 4, 5, 8, 10, 16, 100, 1000):
        out.add(x.limit_denominator(den))
    if abs(x) >= 10:
        p = 10 ** int(math.log10(abs(x)))
        out.update({Fraction(sign * p), Fraction(sign * p * round(abs(x) / p))})
    if x.denominator == 1 and abs(x) > 2:
        out.update({Fraction(math.trunc(x / 2)), x - sign})
    return sorted(out, key=lambda y: (y != 0, _height(y), y < 0))


@dataclass(frozen=True, slots=True)
class Shrunk:
    point: dict[str, Fraction]
    steps: int
    evaluations: int
    exhausted: bool


def shrink(c: Claim, point: Mapping[str, Any], *, max_evaluations: int = 3000,
           deadline: float | None = None) -> Shrunk | None:
    """Greedily simplify a counterexample to ``c``; every accepted step is re-checked exactly
    (:func:`checker.backends.exact.evaluate`). ``None`` when ``point`` is not a counterexample."""
    from checker.kernel.witness import to_fraction

    evaluations = 0

    def refutes(p: Mapping[str, Fraction]) -> bool:
        nonlocal evaluations
        evaluations += 1
        ev = _evaluate(c, p)
        return ev is not None and ev.is_counterexample

    try:
        current = {k: to_fraction(point[k]) for k in c.variables}
    except (KeyError, TypeError, ValueError):
        return None
    if not refutes(current):
        return None
    steps = 0
    exhausted = False
    changed = True
    measure = complexity(current)  # of ``current``, kept with it (the point is large, the loop long)
    while changed and not exhausted:
        changed = False
        # whole-point moves first: scale everything down, then per-coordinate moves
        for factor in (Fraction(1, 2), Fraction(1, 10)):
            trial = {k: x * factor for k, x in current.items()}
            trial_measure = complexity(trial)
            if trial_measure < measure and refutes(trial):
                current, measure, steps, changed = trial, trial_measure, steps + 1, True
        for name in c.variables:
            if evaluations >= max_evaluations or (deadline is not None and time.monotonic() > deadline):
                exhausted = True
                break
            for cand in _candidates(current[name]):
                trial = {**current, name: cand}
                trial_measure = complexity(trial)
                if trial_measure < measure and refutes(trial):
                    current, measure, steps, changed = trial, trial_measure, steps + 1, True
                    break
    assert refutes(current)  # the invariant: the shrunk witness re-checks exactly
    return Shrunk(current, steps, evaluations, exhausted)


def _smaller_width(c: Claim, ctx: Any, config: AuditConfig, budget: Budget) -> tuple[int, Claim, dict[str, str]] | None:
    """The smallest width of ``c``'s declared family (:func:`declare_widths`) below ``c``'s own
    at which z3 finds a counterexample, re-checked exactly: ``(width, claim, witness)``."""
    from checker.backends import smt
    from checker.kernel.model import Status

    family = width_family_of(c)
    own = next((w for w, x in family if x.name == c.name), None)
    for width, smaller in family:
        if own is None or width >= own or budget.exhausted():
            break
        v = smt.prove(smaller, ctx, timeout_ms=budget.z3_ms(config.z3_timeout_ms), rlimit=config.z3_rlimit)
        if v.status is Status.REFUTED and v.certificate.witness:
            return width, smaller, dict(v.certificate.witness)
    return None


def shrink_refutation(claims: Sequence[Claim], witness: Mapping[str, str], config: AuditConfig,
                      budget: Budget, ctx: Any = None, preferred: str | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """``(shrink entry, shrunk witness)`` for a refutation's witness. Shrinks against the first
    declared claim the witness refutes exactly (first to the smallest width of its declared
    family that is also refuted); otherwise keeps the witness, with the reason."""
    inexact = []
    for c in sorted(claims, key=lambda x: x.name != preferred):  # the claim the discharge refuted first
        if not set(c.variables) <= set(witness):
            continue
        ev = _evaluate(c, witness)
        if ev is None:
            inexact.append(c.name)
        if ev is None or not ev.is_counterexample:
            continue
        start, target, width_note = dict(witness), c, None
        if ctx is not None and width_family_of(c):
            smaller = _smaller_width(c, ctx, config, budget)
            if smaller is not None:
                width, target, start = smaller
                width_note = {"width": width, "width_claim": target.name}
        s = shrink(target, start, max_evaluations=config.shrink_evaluations, deadline=budget.deadline)
        if s is None:  # pragma: no cover - ev (or the exact re-check of z3's model) said it refutes
            continue
        final = _evaluate(target, s.point)
        assert final is not None and final.is_counterexample
        shrunk = _fmt_map(s.point) if width_note else {**dict(witness), **_fmt_map(s.point)}
        entry = {"verdict": "shrunk" if s.steps or width_note else "already minimal", "claim": target.name,
                 "steps": s.steps, "evaluations": s.evaluations,
                 "complexity_before": list(complexity({k: Fraction(witness[k]) for k in c.variables})),
                 "complexity_after": list(complexity(s.point)), "sides": _fmt_map(final.terms),
                 "stopped_early": s.exhausted,
                 "method": "greedy shrinking; each step re-checked in exact rationals"}
        if width_note:
            entry.update(width_note, method=f"smaller width {width_note['width']} refuted by z3 (re-checked exactly), "
                                            "then greedy shrinking; each step re-checked in exact rationals")
        return entry, shrunk
    if inexact:
        return ({"verdict": "kept", "reason": f"the declared claim {', '.join(inexact)} cannot be evaluated in exact rationals "
                 "(e.g. log, irrational sqrt), so no simpler witness can be re-checked: kept as found"}, dict(witness))
    return ({"verdict": "kept", "reason": "the witness is not a counterexample to a declared claim (a custom witness; "
             "no shrink hook): kept as found"}, dict(witness))


# ------------------------------------------------------------------------------ brittleness


def _numbers(data: Mapping[str, Any], prefix: str = "") -> dict[str, float]:
    out: dict[str, float] = {}
    for k, v in data.items():
        if isinstance(v, bool):
            continue
        if isinstance(v, (int, float)) and k != "seed" and math.isfinite(float(v)):
            out[prefix + k] = float(v)
        elif isinstance(v, Mapping) and not prefix:
            out.update(_numbers(v, prefix=f"{k}."))
    return out


def brittleness_of(ob: Any, ctx: Any, first: Any, first_time_s: float, config: AuditConfig,
                   budget: Budget) -> dict[str, Any]:
    from checker.kernel.model import Context, Verdict, derive_seed

    seeds = [derive_seed(ctx.seed, f"audit/seed/{i}") for i in range(1, config.extra_seeds + 1)]
    if first_time_s * len(seeds) > budget.remaining * 0.8:
        return {"verdict": "undecided", "reason": f"one run takes {first_time_s:.1f} s; {len(seeds)} more do not fit the audit budget",
                "seeds": [ctx.seed], "statuses": [first.status.value]}
    runs = [(ctx.seed, first)]
    for seed in seeds:
        if first_time_s * 1.5 > budget.remaining:
            return {"verdict": "undecided", "reason": f"the audit time budget ran out after {len(runs)} seed(s)",
                    "seeds": [s for s, _ in runs], "statuses": [r.status.value for _, r in runs]}
        try:
            v = ob.discharge(Context(ctx.obligation_id, seed, ctx.timeout_s, ctx.slow))
            if not isinstance(v, Verdict):
                raise TypeError(f"discharge returned {type(v).__name__}")
        except Exception as exc:  # noqa: BLE001
            return {"verdict": "undecided", "reason": f"re-run with seed {seed} failed: {type(exc).__name__}: {exc}",
                    "seeds": [s for s, _ in runs], "statuses": [r.status.value for _, r in runs]}
        runs.append((seed, v))
    statuses = [v.status.value for _, v in runs]
    numbers = [_numbers(v.certificate.data) for _, v in runs]
    common = set(numbers[0]).intersection(*numbers[1:]) if numbers else set()
    spread = {k: {"min": min(n[k] for n in numbers), "max": max(n[k] for n in numbers)} for k in sorted(common)}
    verdict = "stable" if len(set(statuses)) == 1 else "brittle"
    out: dict[str, Any] = {"verdict": verdict, "seeds": [s for s, _ in runs], "statuses": statuses, "spread": spread}
    for seed, v in runs:
        if v.certificate.witness is not None:
            out.setdefault("witnesses", {})[str(seed)] = dict(v.certificate.witness)
    return out


# ------------------------------------------------------------------------------ the whole audit


def _summary_verdict(values: Sequence[str], order: Sequence[str]) -> str:
    for v in order:
        if v in values:
            return v
    return values[0] if values else "none"


def run_audit(ob: Any, ctx: Any, verdict: Any, discharge_time_s: float, config: AuditConfig = AuditConfig(),
              budget_s: float | None = None) -> tuple[dict[str, Any], dict[str, str] | None]:
    """The audit object for one discharged obligation, and the shrunk witness (refutations)."""
    from checker.kernel.model import Status

    start = time.perf_counter()
    budget = Budget(config.budget_s if budget_s is None else min(budget_s, config.budget_s))
    cert = verdict.certificate.to_json()
    claims: tuple[Claim, ...] = tuple(ob.claims)
    existential = existential_names(cert)
    audit: dict[str, Any] = {k: None for k in AUDIT_KEYS}
    reasons: dict[str, str] = {}
    errors: dict[str, str] = {}
    witness = verdict.certificate.witness if verdict.status is Status.REFUTED else None
    known_points = [witness] if witness else []
    if cert.get("witness") and verdict.status is Status.PROVED:
        known_points.append(cert["witness"])

    def guarded(key: str, fn: Callable[[], Any]) -> Any:
        if budget.exhausted():
            return {"verdict": "undecided", "reason": "audit time budget exhausted before this audit"}
        try:
            with _time_limit(budget.remaining):
                return fn()
        except (AuditTimeout, _OutOfTime):
            return {"verdict": "undecided", "reason": "audit time budget exhausted"}
        except Exception as exc:  # noqa: BLE001 - an audit failure is an entry, never a crash
            errors[key] = f"{type(exc).__name__}: {exc}"
            return {"verdict": "error", "reason": errors[key], "traceback": traceback.format_exc()[-2000:]}

    refuted_claims = set()
    if witness:
        for c in claims:
            ev = _evaluate(c, witness) if set(c.variables) <= set(witness) else None
            if ev is not None and ev.is_counterexample:
                refuted_claims.add(c.name)

    if not claims:
        for key in ("vacuity", "necessity", "tightness"):
            reasons[key] = "no declared claim"
    else:
        conditional = [c for c in claims if c.hypotheses]
        if not conditional:
            reasons["vacuity"] = reasons["necessity"] = "no declared claim has hypotheses"
        else:
            def vac() -> dict[str, Any]:
                rows = [vacuity_of(c, ctx, config, budget, known_points) for c in conditional]
                return {"verdict": _summary_verdict([r["verdict"] for r in rows], ("vacuous", "unknown", "satisfiable")),
                        "claims": rows}
            audit["vacuity"] = guarded("vacuity", vac)
            universal = [c for c in conditional if c.name not in existential and c.name not in refuted_claims]
            if not universal:
                reasons["necessity"] = "every conditional claim is an existence claim or refuted"
            else:
                def nec() -> dict[str, Any]:
                    rows = [row for c in universal for row in necessity_of(c, ctx, config, budget)]
                    counts = {v: sum(r["verdict"] == v for r in rows) for v in ("needed", "not needed", "undecided")}
                    return {"verdict": ", ".join(f"{n} {v}" for v, n in counts.items() if n), "counts": counts,
                            "hypotheses": rows}
                audit["necessity"] = guarded("necessity", nec)
        bounds = [(c, bound_of(c)) for c in claims if c.name not in existential]
        bounds = [(c, b) for c, b in bounds if b is not None]
        if not bounds:
            reasons["tightness"] = "no declared bound with a constant"
        else:
            def tight() -> dict[str, Any]:
                rows = [tightness_of(c, b, ctx, config, budget, witness if c.name in refuted_claims else None)
                        for c, b in bounds]
                verdicts = [r["verdict"] for r in rows]
                summary = _summary_verdict(verdicts, ("mismatch", "exceeded", "error", "undecided", "ratio", "tight"))
                text = summary
                if summary == "ratio":
                    best = max((r for r in rows if r["verdict"] == "ratio"), key=lambda r: r["ratio"])
                    text = f"ratio {best['ratio']:.3g} (observed)"
                elif summary == "exceeded":
                    worst = max((r for r in rows if r["verdict"] == "exceeded"),
                                key=lambda r: math.inf if r["ratio"] is None else r["ratio"])
                    text = "exceeded" if worst["ratio"] is None else f"exceeded (ratio {worst['ratio']:.3g})"
                return {"verdict": summary, "summary": text, "bounds": rows}
            audit["tightness"] = guarded("tightness", tight)

    if verdict.status is Status.REFUTED and witness:
        def shr() -> dict[str, Any]:
            refuted_claim = verdict.certificate.data.get("claim")
            entry, shrunk = shrink_refutation(claims, witness, config, budget, ctx,
                                              refuted_claim if isinstance(refuted_claim, str) else None)
            entry["witness"] = dict(witness)
            entry["shrunk_witness"] = shrunk
            return entry
        audit["shrink"] = guarded("shrink", shr)
    else:
        reasons["shrink"] = "not a refutation"

    if verdict.status is Status.SUPPORTED:
        audit["brittleness"] = guarded("brittleness", lambda: brittleness_of(ob, ctx, verdict, discharge_time_s, config, budget))
    else:
        reasons["brittleness"] = "not a sampling (supported) result"

    audit["not_applicable"] = reasons
    if errors:
        audit["errors"] = errors
    audit["time_s"] = round(time.perf_counter() - start, 3)
    audit["config"] = {"z3_timeout_ms": config.z3_timeout_ms, "z3_rlimit": config.z3_rlimit, "samples": config.samples,
                       "epsilon": _fmt(config.epsilon), "extra_seeds": config.extra_seeds}
    shrunk = audit["shrink"].get("shrunk_witness") if isinstance(audit["shrink"], Mapping) else None
    return audit, shrunk


def failed_audit(reason: str) -> dict[str, Any]:
    """The audit object when the audit itself could not run (it never fails the result)."""
    audit: dict[str, Any] = {k: None for k in AUDIT_KEYS}
    audit["not_applicable"] = {}
    audit["errors"] = {"audit": reason}
    return audit
