"""FloatBridge: the binary32 budgets of the Lean development, checked against real float32.

The float model and the budgets are reconstructed in :mod:`.binary32` (the seeds name them
without defining them); derivations in ``docs/reconstructions/lean_mlp_float.md``. Each
obligation here compares numpy float32 computations with exact values and checks that the
error stays within the budget, in every summation order of :data:`binary32.ORDERS`
(numpy's own, forward, reverse, pairwise, two fixed random permutations).

How a comparison is made sound. The float32 side is numpy. The exact side is a float64
evaluation plus a rigorous bound on its own error (Higham's bounds at u = 2⁻⁵³, or exactness
where float64 is exact, e.g. a product of two binary32 numbers); an instance *passes* only if
``|float32 − float64| + ref_err ≤ budget·(1 − 2⁻⁴⁰)`` with the budget evaluated at a lower
bound of the instance quantities. Every other instance is re-checked exactly (Fractions;
binary32 operations simulated with :func:`binary32.round32`; ``exp`` as python-flint ``arb``
intervals) and a violation counts only when that re-check confirms it. Sampling is evidence:
these obligations are ``supported`` (or ``refuted`` with an exactly re-checked witness), never
``proved``, except where the method is exhaustive or symbolic.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from checker.kernel.model import Grade
from checker import Expect, Source, obligation
from checker.kernel.model import Verdict
from checker.kernel.verdicts import proved, refuted, supported, timed, unknown
from obligations.lean_mlp import binary32 as b32
from obligations.lean_mlp import mlp

DOC2 = "002_9648822bf1d4473c.txt"
DOC4 = "004_8327de8ce09705d9.txt"
SLACK = 2.0**-40
"""Relative slack of the float64 screening; anything closer to the budget is re-checked exactly."""


def _np():
    import numpy

    return numpy


def _sampling_version() -> str:
    return f"numpy {_np().__version__}"


def _fr(x: Any) -> Fraction:
    return Fraction(float(x))


def _vec(xs: Any) -> str:
    return "[" + ", ".join(str(_fr(v)) for v in xs) + "]"


@dataclass(frozen=True)
class Tally:
    """What one screened family of instances gave."""

    name: str
    instances: int
    applicable: int
    max_ratio: float
    rechecked: int

    def to_json(self) -> dict[str, Any]:
        return {"instances": self.instances, "hypotheses hold": self.applicable,
                "max error/budget": round(self.max_ratio, 6), "re-checked exactly": self.rechecked}


class Violation(Exception):
    """An exactly re-checked counterexample: carries the verdict to return."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.certificate.method)
        self.verdict = verdict


def _screen(err: Any, ref_err: Any, budget: Any) -> Any:
    """Indices where float64 screening cannot certify ``err ≤ budget`` (to re-check exactly)."""
    np = _np()
    ok = err * (1 + SLACK) + ref_err * (1 + SLACK) <= budget * (1 - SLACK)
    return np.flatnonzero(~ok)


def _limited(candidates: Any, limit: int, what: str) -> Any:
    """The first ``limit`` candidates, to re-check exactly (a confirmed violation stops the
    loop with ``refuted``); if more remain, none of which may be dropped, that is ``unknown``."""
    yield from candidates[:limit]
    if len(candidates) > limit:
        raise Violation(unknown(what, f"{len(candidates)} instances could not be certified by the float64 screen "
                                      f"and only {limit} are re-checked exactly"))


def _log_uniform(rng: Any, lo: float, hi: float, size: Any) -> Any:
    np = _np()
    mags = np.exp2(rng.uniform(lo, hi, size=size))
    return (mags * rng.choice([-1.0, 1.0], size=size)).astype(np.float32)


# =======================================================================================
# relu_exact_in_float
# =======================================================================================


def _relu_chunk_ok(np: Any, start: int, size: int) -> int:
    """Bad count among bit patterns [start, start+size): numpy's relu must return z for z > 0,
    a zero for z ≤ 0, and NaN for NaN."""
    bits = np.arange(start, start + size, dtype=np.uint64).astype(np.uint32)
    z = bits.view(np.float32)
    r = np.maximum(z, np.float32(0)).view(np.uint32)
    mag = bits & np.uint32(0x7FFFFFFF)
    nan = mag > np.uint32(0x7F800000)
    positive = bits < np.uint32(0x80000000)
    good = np.where(positive, r == bits, (r & np.uint32(0x7FFFFFFF)) == 0) | nan
    return int((~good).sum())


def _relu_check(ctx: Any, exhaustive: bool) -> Verdict:
    np = _np()
    with timed() as t:
        bad = 0
        if exhaustive:
            chunk = 2**26
            for k in range(2**32 // chunk):
                bad += _relu_chunk_ok(np, k * chunk, chunk)
            count = 2**32
        else:
            rng = ctx.rng("relu")
            starts = rng.integers(0, 2**32 - 2**16, size=64)
            special = [0, 2**31, 0x7F800000, 0xFF800000, 1, 2**31 + 1, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF]
            for s in starts:
                bad += _relu_chunk_ok(np, int(s), 2**16)
            for s in special:
                bad += _relu_chunk_ok(np, max(0, s - 64), 128)
            count = 64 * 2**16 + len(special) * 128
        step = t.step("sampling", _sampling_version(), "numpy relu vs max(z, 0) on binary32 bit patterns",
                      f"{bad} mismatches", patterns=count, exhaustive=exhaustive)
    if bad:
        return unknown("numpy relu on binary32 patterns", f"{bad} patterns where numpy's relu is not max(z, 0)", step)
    if exhaustive:
        return proved("exhaustive enumeration of all 2³² binary32 bit patterns", step, grade=Grade.UNIVERSAL, patterns=count)
    return supported("numpy relu on sampled binary32 bit patterns (evidence; exhaustive in the slow tier)", step, patterns=count)


RELU_STATEMENT = ("ReLU is exact in binary32: for every binary32 z, the float ReLU returns max(z, 0) exactly "
                  "(no rounding), so a ReLU layer adds no rounding error and is 1-Lipschitz on the float side.")


@obligation(
    id="lean_mlp.float.relu_exact_in_float_float32",
    source=Source(DOC4, "ReLU is entrywise 1-Lipschitz … FloatBridge.lean proves the same fact for the rounded net (relu exact-in-float)"),
    statement=RELU_STATEMENT,
    scope="numpy's float32 maximum(z, 0) on 4.2·10⁶ binary32 bit patterns (64 random blocks of 2¹⁶ and the "
    "neighbourhoods of ±0, ±∞, the subnormal/normal boundary and ±max) — evidence; exhaustive in the slow tier",
    expect=Expect.HOLDS,
    lean="FloatBridge.relu_exact_in_float",
)
def relu_exact_in_float_float32(ctx):
    """``relu_exact_in_float`` (named in the ``SgdDescentMlp`` docstring of 004): ReLU maps a
    binary32 number to itself or to 0, both binary32 numbers, so ``fl(relu z) = relu z``.
    Mathematically this is immediate; what can go wrong is the implementation, so the
    obligation checks numpy's ``maximum(z, 0)`` (the float model's ReLU) bit by bit against
    ``z`` (z > 0) / a zero (z ≤ 0) on sampled bit patterns; the slow tier enumerates all 2³²."""
    return _relu_check(ctx, exhaustive=False)


@obligation(
    id="lean_mlp.float.relu_exact_in_float_exhaustive",
    source=Source(DOC4, "ReLU is entrywise 1-Lipschitz … FloatBridge.lean proves the same fact for the rounded net (relu exact-in-float)"),
    statement=RELU_STATEMENT,
    scope="numpy's float32 maximum(z, 0) on all 2³² binary32 bit patterns, on this machine (exhaustive; slow tier)",
    expect=Expect.HOLDS,
    lean="FloatBridge.relu_exact_in_float",
    slow=True,
)
def relu_exact_in_float_exhaustive(ctx):
    """As ``lean_mlp.float.relu_exact_in_float``, exhaustively: every binary32 bit pattern
    (NaNs only required to stay NaN). Exhaustive enumeration is a proof for the implementation
    that ran (numpy's float32 ``maximum`` on this machine). About a minute on one core."""
    return _relu_check(ctx, exhaustive=True)


# =======================================================================================
# exp accuracy (the head's assumption)
# =======================================================================================


@obligation(
    id="lean_mlp.float.exp_accuracy",
    source=Source(DOC4, "softmax_ce_cot_close (the float softmax−onehot head), reconstruction of cotErr"),
    statement=f"numpy's float32 exp is within {b32.EXP_ULPS}·2⁻²³·eˢ (≥ {b32.EXP_ULPS} ulp) of eˢ on s ∈ [−81, 0] "
    "(the accuracy cotErr budgets).",
    scope="4·10⁶ uniform arguments in [−81, 0], every binary32 in −[2⁻³, 2⁻²) and −[2⁻⁹, 2⁻⁸), and −2ᵏ for "
    "k = −20…6; float64 reference with its error bounded; evidence only",
    expect=Expect.HOLDS,
    lean="FloatBridge.softmax_ce_cot_close",
)
def exp_accuracy(ctx):
    """The head budget ``cotErr`` assumes ``|exp32(s) − eˢ| ≤ 4·2⁻²³·eˢ`` (≥ 4 ulp) for
    s ∈ [−81, 0] (numpy's SIMD float32 exp is not correctly rounded). This measures the error in
    units of 2⁻²³·eˢ against numpy's float64 exp (budgeted at ≤ 16 ulp of float64; 2⁻²⁰ units of
    slack are added to every measurement). A measured excess would be re-checked with an
    ``arb`` enclosure of eˢ before any refutation. Evidence only (sampled arguments)."""
    np = _np()
    from checker.backends.interval import Interval

    rng = ctx.rng("exp")

    def blocks() -> Any:
        yield -rng.uniform(0, 81, 4_000_000).astype(np.float32)
        for lo in (-3, -9):  # every binary32 of two binades, in chunks
            for k in range(0, 2**23, 2**21):
                yield -(np.float32(2.0**lo) + np.arange(k, k + 2**21, dtype=np.float32) * np.float32(2.0 ** (lo - 23)))
        yield -np.exp2(np.arange(-20, 7, dtype=np.float32))

    with timed() as t:
        worst_err, worst_s, count = -1.0, np.float32(0), 0
        for s in blocks():
            s = s[s >= -81]  # the head's arguments reach −G(1 + u) for a spread G < 80
            ref = np.exp(s.astype(np.float64))
            # error in units of 2⁻²³·eˢ (≥ 1 ulp(eˢ)): exactly what cotErr's relative budget ε = 4·2⁻²³ reads
            err = np.abs(np.exp(s).astype(np.float64) - ref) / (ref * 2.0**-23) + 2.0**-20
            i = int(np.argmax(err))
            count += s.size
            if err[i] > worst_err:
                worst_err, worst_s = float(err[i]), s[i]
        step = t.step("sampling", _sampling_version(), "max |exp32(s) − exp64(s)| / (2⁻²³·exp64(s)) + reference slack",
                      f"{worst_err:.4f}", arguments=count)
    if worst_err <= b32.EXP_ULPS:
        return supported("numpy float32 exp vs float64 exp (evidence)", step, violations=0, max_error_in_2_pow_minus_23_units=round(worst_err, 4),
                         budget=b32.EXP_ULPS, worst_argument=str(_fr(worst_s)), arguments=count)
    arg = _fr(worst_s)
    e = Interval.of(arg).exp()
    yv = _fr(np.exp(np.array([worst_s], dtype=np.float32))[0])
    lo_err = max(yv - e.hi, e.lo - yv, Fraction(0))
    if lo_err > b32.BINARY32.exp_rel * e.hi:
        return refuted("numpy float32 exp vs arb enclosure", {"s": arg}, {"exp32(s)": yv, "error lower bound": lo_err,
                                                                        "budget": b32.BINARY32.exp_rel * e.hi}, step)
    return unknown("numpy float32 exp", "float64 screening exceeded the budget but the arb re-check did not confirm", step)


# =======================================================================================
# mul_close
# =======================================================================================


def check_mul(ctx: Any, fmt: b32.Format = b32.BINARY32, n: int = 100_000) -> Verdict:
    """|fl(a·c̃) − a·c| ≤ mulErr(|a|, |c|, 0, |c̃ − c|) on sampled and adversarial binary32 a, c̃ and
    exact c = c̃ + dc; ``fmt`` may be a mutated format (tests)."""
    np = _np()
    rng = ctx.rng("mul")
    ff = fmt.as_float()
    with timed() as t:
        a = _log_uniform(rng, -30, 30, n)
        ct = _log_uniform(rng, -30, 30, n)
        # adversarial: products far into the subnormal range (the μ term), and exact ties
        k = n // 10
        a[:k] = _log_uniform(rng, -75, -60, k)
        ct[:k] = _log_uniform(rng, -75, -60, k)
        i = np.arange(k, 2 * k)
        a[i] = (1 + rng.integers(0, 2**12, size=k) * 2.0**-12).astype(np.float32)
        ct[i] = (1 + rng.integers(0, 2**12, size=k) * 2.0**-12).astype(np.float32)
        dc = (ct.astype(np.float64) * _log_uniform(rng, -22, -10, n)).astype(np.float32)
        dc[: 3 * k] = 0  # the pure rounding lemma (operand exact)
        c = ct.astype(np.float64) + dc.astype(np.float64)  # exact: exponents within 29 bits
        fl = (a * ct).astype(np.float64)
        a64 = a.astype(np.float64)
        d1 = fl - a64 * ct  # exact (Sterbenz, or fl = 0)
        adc = a64 * dc
        err = np.abs(d1 - adc)
        ref_err = 2.0**-52 * (np.abs(d1) + np.abs(adc))
        budget = b32.mul_err(ff, np.abs(a64), np.abs(c), 0.0, np.abs(dc.astype(np.float64)))
        cand = _screen(err, ref_err, budget)
        step = t.step("sampling", _sampling_version(), "float32 a·c̃ vs exact a·c (float64, exact products)",
                      f"{cand.size} instances need an exact re-check", instances=n, seed=ctx.seed)
    confirmed = 0
    for idx in cand[:200]:
        av, ctv, dcv = _fr(a[idx]), _fr(ct[idx]), _fr(dc[idx])
        flv = b32.round32(av * ctv)
        if flv != _fr(fl[idx]):
            return unknown("float32 products", f"numpy's a·c̃ differs from the exact binary32 rounding at a = {av}", step)
        e = abs(flv - av * (ctv + dcv))
        bud = b32.mul_err(fmt, abs(av), abs(ctv + dcv), 0, abs(dcv))
        if e > bud:
            return refuted("float32 a·c̃ re-checked in exact binary32 arithmetic",
                           {"a": av, "c_float": ctv, "c_exact": ctv + dcv},
                           {"fl(a·c_float)": flv, "error": e, "mulErr": bud}, step, format=fmt.name)
        confirmed += 1
    if cand.size > 200:
        return unknown("float32 products", f"{cand.size} instances could not be screened in float64", step)
    ratio = float(np.max(err / budget))
    return supported("numpy float32 products vs exact (evidence)", step, violations=0, instances=n, rechecked_exactly=confirmed,
                     max_error_over_budget=round(ratio, 6), seed=ctx.seed)


@obligation(
    id="lean_mlp.float.mul_close_float32",
    source=Source(DOC4, "mlp_w1_grad_close: … the final input multiply (mul_close, with the exact a₀ operand, ea = 0)"),
    statement="The final multiply is within mulErr: |fl(a·c̃) − a·c| ≤ mulErr(u, |a|, |c|, 0, |c̃ − c|) = "
    "|a|·ec + u·|a|·(|c| + ec) + μ for an exact operand a and a float operand c̃ within ec of c.",
    scope="10⁵ binary32 instances (log-uniform magnitudes 2^±30, 10% with subnormal products, 10% exact-tie "
    "mantissas, 30% with c̃ = c), each checked rigorously (float64 is exact for a product of two binary32); "
    "evidence for the universal claim",
    expect=Expect.HOLDS,
    lean="FloatBridge.mul_close",
)
def mul_close_float32(ctx):
    """``mul_close`` (004, inside ``mlp_w1_grad_close``/``mlp_w0_grad_close``): the last step of
    every float gradient, ``fl(inputᵢ·c̃ⱼ)`` with the exact input (ea = 0). The budget is the
    reconstructed ``mulErr`` (:func:`binary32.mul_err`); with ea = 0 it is
    ``A·ec + u·A·(C + ec) + μ``: the operand error, the rounding (relative u, Higham's standard
    model) and the underflow term μ = 2⁻¹⁵⁰. numpy's float32 product is compared with the exact
    ``a·c`` (float64 computes a·c̃ and a·dc exactly); instances that the float64 screen cannot
    certify are re-checked in Fractions with exact binary32 rounding."""
    return check_mul(ctx)


# =======================================================================================
# dot_close: the γₙ lemma behind layerBudget, any summation order
# =======================================================================================

DOT_LENGTHS = (1, 2, 3, 4, 8, 16, 64)


def _dot_instances(rng: Any, n: int, count: int, kind: str) -> tuple[Any, Any, Any]:
    np = _np()
    x = _log_uniform(rng, -6, 6, (count, n))
    y = _log_uniform(rng, -6, 6, (count, n))
    b = _log_uniform(rng, -6, 6, count)
    b[: count // 2] = 0
    if kind == "cancellation" and n >= 2:
        # the last product cancels the others: a tiny result from large terms
        partial = (x[:, :-1].astype(np.float64) * y[:, :-1]).sum(axis=1) + b
        y[:, -1] = (-partial / x[:, -1]).astype(np.float32)
    elif kind == "ties":
        x = (1 + rng.integers(0, 2**12, size=(count, n)) * 2.0**-12).astype(np.float32)
        signs = rng.choice([-1, 1], size=(count, n)).astype(np.float32)
        y = (1 + rng.integers(0, 2**12, size=(count, n)) * 2.0**-12).astype(np.float32) * signs
    elif kind == "underflow":
        x = _log_uniform(rng, -76, -70, (count, n))
        y = _log_uniform(rng, -76, -70, (count, n))
        b[:] = 0
    return x, y, b


def _dot_exact_recheck(x: Any, y: Any, bias: Any, order: str, observed: Any, fmt: b32.Format) -> tuple[bool, dict, dict]:
    """Exact re-check of one dot product: the binary32 result (simulated exactly for the explicit
    orders; numpy's value for its own order) against the exact value and the budget."""
    xs, ys, bv = [_fr(v) for v in x], [_fr(v) for v in y], _fr(bias)
    n = len(xs)
    prods = [b32.round32(p * q) for p, q in zip(xs, ys)]
    has_bias = bv != 0
    terms = prods + [bv]  # the run summed the bias as a term even when 0 (adding 0 is exact)
    obs = _fr(observed)
    if order != "numpy":
        m = len(terms)
        idx = {"forward": list(range(m)), "reverse": list(range(m - 1, -1, -1))}.get(order)
        if order == "pairwise":
            sim = _pairwise_exact(terms)
        else:
            if idx is None:
                idx = [int(i) for i in b32._permutation(m, order)]
            sim = b32.exact_sum(terms, idx)
        if sim != obs:
            raise Violation(unknown("float32 dot products", f"numpy's {order} float32 sum {obs} differs from the exact "
                                                            f"binary32 simulation {sim}: the run is not IEEE binary32"))
    exact = sum((p * q for p, q in zip(xs, ys)), start=bv)
    s_abs = sum((abs(p * q) for p, q in zip(xs, ys)), start=abs(bv))
    budget = b32.dot_err(fmt, n, s_abs, has_bias)
    err = abs(obs - exact)
    witness = {"x": _vec(x), "y": _vec(y), "b": bv, "order": order, "n": n}
    sides = {"float32 result": obs, "exact": exact, "error": err, "budget": budget}
    return err > budget, witness, sides


def _pairwise_exact(terms: list[Fraction]) -> Fraction:
    q = list(terms)
    while len(q) > 1:
        nxt = [b32.round32(q[i] + q[i + 1]) for i in range(0, len(q) - 1, 2)]
        if len(q) % 2:
            nxt.append(q[-1])
        q = nxt
    return q[0]


def check_dot(ctx: Any, fmt: b32.Format = b32.BINARY32, per_length: int = 4_000) -> Verdict:
    """|fl(∑ xⱼyⱼ [+ b]) − exact| ≤ dot_err(n, ∑|xⱼyⱼ| [+ |b|]) in every order, on random,
    cancellation, tie and underflow instances of every length in :data:`DOT_LENGTHS`, plus a
    large fan-in family; ``fmt`` may carry a mutated γ rule (tests)."""
    np = _np()
    rng = ctx.rng("dot")
    ff = fmt.as_float()
    tallies: dict[str, list[float]] = {}
    total = rechecked = 0
    with timed() as t:
        families = [(n, kind, per_length) for n in DOT_LENGTHS for kind in ("random", "cancellation", "ties", "underflow")]
        families.append((1024, "large fan-in", 200))
        families.append((1024, "cancellation", 200))
        for n, kind, count in families:
            x, y, b = _dot_instances(rng, n, count, kind)
            p64 = x.astype(np.float64) * y
            exact64 = p64.sum(axis=1) + b
            s_abs = np.abs(p64).sum(axis=1) + np.abs(b)
            has_bias = b != 0
            ref_err = (float(b32.BINARY64.as_float().gamma(n + 1)) * s_abs) * (1 + SLACK)
            budget = np.where(has_bias, b32.dot_err(ff, n, s_abs, True), b32.dot_err(ff, n, s_abs, False))
            for order in b32.ORDERS:
                if order == "numpy":
                    got = (x[:, None, :] @ y[:, :, None])[:, 0, 0] + b
                else:
                    got = b32.fsum(np.concatenate([x * y, b[:, None]], axis=1), order)
                err = np.abs(got.astype(np.float64) - exact64)
                total += count
                for i in _limited(_screen(err, ref_err, budget), 50, "float32 dot products"):
                    rechecked += 1
                    bad, witness, sides = _dot_exact_recheck(x[i], y[i], b[i], order, got[i], fmt)
                    if bad:
                        step = t.step("sampling", _sampling_version(), "float32 dot products in several orders",
                                      "violation re-checked exactly", instances=total, seed=ctx.seed)
                        raise Violation(refuted("float32 dot product re-checked in exact binary32 arithmetic",
                                                witness, sides, step, family=f"{kind} n={n}", format=fmt.name))
                ratio = err / budget
                tallies.setdefault(f"{kind} n={n}", []).append(float(ratio.max()))
        step = t.step("sampling", _sampling_version(), "float32 dot products in several orders vs exact",
                      f"{total} evaluations (instances × orders), {rechecked} re-checked exactly", instances=total, seed=ctx.seed)
    return supported("numpy float32 dot products in 6 summation orders vs exact (evidence)", step, violations=0,
                     dot_products=total // len(b32.ORDERS), evaluations=total, rechecked_exactly=rechecked, orders=list(b32.ORDERS),
                     max_error_over_budget={k: round(max(v), 6) for k, v in tallies.items()}, seed=ctx.seed)


def _run(check: Callable[..., Verdict], *args: Any, **kwargs: Any) -> Verdict:
    try:
        return check(*args, **kwargs)
    except Violation as v:
        return v.verdict


@obligation(
    id="lean_mlp.float.dot_close_float32",
    source=Source(DOC4, "mlp_w1_grad_close / cot_step_close: the masked W₂ᵀ contraction (layerBudget)"),
    statement="A binary32 dot product with bias, summed in any order, is within γ_{n+1}·(∑|xⱼyⱼ| + |b|) + n·μ·(1 + γₙ) "
    "of the exact value (γ_n without a bias), γₙ = n·u/(1 − n·u), u = 2⁻²⁴, μ = 2⁻¹⁵⁰.",
    scope="1.1·10⁵ seeded dot products (7 lengths 1…64 × random, cancellation, exact-tie and underflow families, "
    "plus n = 1024), each in 6 summation orders (numpy/BLAS, forward, reverse, pairwise, 2 permutations; "
    "6.7·10⁵ evaluations); "
    "float64 reference with a rigorous error bound, exact re-check near the budget; evidence only",
    expect=Expect.HOLDS,
    lean="FloatBridge.dot_close",
)
def dot_close_float32(ctx):
    """The γₙ lemma (Higham, Thm 3.1 with Lemma 3.3, any parenthesisation, plus the n product
    underflows) that ``layerBudget`` rests on: every dense layer and every Wᵀ contraction of
    the float backward is such a dot product. Checked against numpy float32 in six summation
    orders; the explicit orders are also simulated exactly (binary32 rounding in Fractions)
    whenever an instance is re-checked. A too-small γ (the test's n·u/2) is refuted here."""
    return _run(check_dot, ctx)


# =======================================================================================
# softmax_ce_cot_close: the float head
# =======================================================================================


def _err_interval(observed: Fraction, exact: Any) -> tuple[Fraction, Fraction]:
    """Lower and upper bounds of |observed − exact| for an exact number or an Interval."""
    lo, hi = (exact.lo, exact.hi) if hasattr(exact, "lo") else (exact, exact)
    upper = max(abs(observed - lo), abs(observed - hi))
    lower = Fraction(0) if lo <= observed <= hi else min(abs(observed - lo), abs(observed - hi))
    return lower, upper


def check_head(ctx: Any, fmt: b32.Format = b32.BINARY32, per_family: int = 4_000) -> Verdict:
    """|ĉ − (softmax(t) − onehot)| ≤ cotErr(m, δ, spread + 2δ) per entry, ĉ the float head at
    float logits t̃ with |t̃ − t| ≤ δ, in every order of the softmax sum."""
    np = _np()
    rng = ctx.rng("head")
    ff, f64 = fmt.as_float(), b32.BINARY64.as_float()
    total = rechecked = 0
    worst: dict[str, float] = {}
    with timed() as t:
        families = [(m, kind) for m in (2, 3, 4, 10, 100) for kind in ("random", "exact logits", "nearly uniform", "wide spread")]
        families += [(1000, "large fan-in")]
        for m, kind in families:
            count = per_family if m < 1000 else 100
            scale = {"nearly uniform": 1e-3, "wide spread": 8.0}.get(kind, 2.0)
            tt = (rng.normal(size=(count, m)) * scale).astype(np.float32)
            if kind == "wide spread":
                tt = np.clip(tt, -35, 35)
            label = rng.integers(0, m, size=count)
            noise = _log_uniform(rng, -24, -8, (count, m)) * np.maximum(np.abs(tt), 1)
            tf = (tt + noise).astype(np.float32) if kind != "exact logits" else tt.copy()
            delta = np.abs(tf.astype(np.float64) - tt).max(axis=1)  # exact: Sterbenz
            t64 = tt.astype(np.float64)
            spread = t64.max(axis=1) - t64.min(axis=1)
            ref = b32.fhead(t64, label, "numpy")
            ref_err = b32.cot_err(f64, m, 0.0, spread) * (1 + SLACK)
            budget = b32.cot_err(ff, m, delta, spread + 2 * delta)
            budget = np.where((2 * delta < 1) & (spread + 2 * delta < b32.HEAD_RANGE), budget, np.nan)
            for order in b32.ORDERS:
                got = b32.fhead(tf, label, order).astype(np.float64)
                err = np.abs(got - ref).max(axis=1)
                total += count
                worst[f"{kind} m={m}"] = max(worst.get(f"{kind} m={m}", 0.0), float(np.nanmax(err / budget)))
                for i in _limited(_screen(err, ref_err, np.nan_to_num(budget, nan=np.inf)), 20, "float32 head"):
                    rechecked += 1
                    tv, tfv = [_fr(v) for v in tt[i]], [_fr(v) for v in tf[i]]
                    d = max(abs(p - q) for p, q in zip(tv, tfv))
                    exact = mlp.head_cotangent(tv, int(label[i]), mlp.interval_exp)
                    bud = b32.cot_err(fmt, m, d, max(tv) - min(tv) + 2 * d)
                    for k in range(m):
                        lower, upper = _err_interval(_fr(got[i, k]), exact[k])
                        if lower > bud:
                            step = t.step("sampling", _sampling_version(), "float32 softmax−onehot head", "violation")
                            raise Violation(refuted("float32 head re-checked with exact logits and arb exp",
                                                    {"logits": _vec(tt[i]), "float logits": _vec(tf[i]), "label": int(label[i]),
                                                     "order": order, "entry": k},
                                                    {"float32 entry": _fr(got[i, k]), "error lower bound": lower, "cotErr": bud},
                                                    step, format=fmt.name))
                        if upper > bud:
                            raise Violation(unknown("float32 head", f"entry {k} of an instance is within the arb enclosure width of cotErr"))
        step = t.step("sampling", _sampling_version(), "float32 softmax−onehot head vs exact softmax",
                      f"{total} evaluations (instances × orders), {rechecked} re-checked exactly", instances=total, seed=ctx.seed)
    return supported("numpy float32 head in 6 orders vs float64 softmax with its error bound (evidence)", step, violations=0,
                     heads=total // len(b32.ORDERS), evaluations=total, rechecked_exactly=rechecked, max_error_over_budget={k: round(v, 6) for k, v in worst.items()},
                     seed=ctx.seed)


@obligation(
    id="lean_mlp.float.softmax_ce_cot_close_float32",
    source=Source(DOC4, "mlp_w1_grad_close: … the head (softmax_ce_cot_close, accuracy cotErr)"),
    statement="The float softmax−onehot head at float logits t̃ with |t̃ − t|∞ ≤ δ is within cotErr(u, m, δ, spread(t) + 2δ) "
    "of softmax(t) − onehot, per entry, for 2δ < 1 and logit spread + 2δ < 80.",
    scope="8·10⁴ seeded heads, each in 6 orders of the softmax sum (m = 2…100 classes: random, exactly-known, "
    "nearly uniform and wide-spread logits; m = 1000); numpy float32 exp budgeted at 4 ulp "
    "(lean_mlp.float.exp_accuracy); float64 reference with its own cotErr bound; evidence only",
    expect=Expect.HOLDS,
    lean="FloatBridge.softmax_ce_cot_close",
    uses=("lean_mlp.float.exp_accuracy",),
)
def softmax_ce_cot_close_float32(ctx):
    """``softmax_ce_cot_close`` (004): the float head has accuracy ``cotErr``. Reconstruction
    (:func:`binary32.cot_err`): the max shift, the rounded subtraction (relative u·G in the
    exponent), exp within 4 ulp, the sum (γ_{m−1}), the division (u) and the label's −1 (u)
    give every softmax entry a ratio within [1/H, H] of the exact one, plus the logit error
    e^{±2δ}; e^x ≤ 1/(1 − x) makes H rational. Checked against numpy float32 (all orders) with a
    float64 softmax whose own error is bounded by the same formula at u = 2⁻⁵³ and 16-ulp exp;
    unscreenable instances are re-checked with exact logits and ``arb`` exp."""
    return _run(check_head, ctx)


# =======================================================================================
# cot_step_close: one masked Wᵀ contraction under the margin
# =======================================================================================


def check_cot_step(ctx: Any, fmt: b32.Format = b32.BINARY32, per_family: int = 6_000) -> Verdict:
    """|mask(z̃, fl(Wᵀc̃)) − mask(z, Wᵀc)| ≤ layerBudget(m, w, C, 0, ec) whenever |z̃ − z| ≤ E < |z|."""
    np = _np()
    rng = ctx.rng("cot-step")
    ff, f64 = fmt.as_float(), b32.BINARY64.as_float()
    total = rechecked = skipped = 0
    worst: dict[str, float] = {}
    with timed() as t:
        for n, m, kind in [(8, 4, "random"), (16, 10, "random"), (8, 4, "near kink"), (16, 10, "cancellation"),
                           (4, 2, "random"), (32, 256, "large fan-in")]:
            count = per_family if m < 256 else 200
            w = (rng.normal(size=(count, n, m)) / np.sqrt(m)).astype(np.float32)
            if kind == "cancellation":  # rows nearly constant: Wᵀc cancels when ∑c ≈ 0
                w = (w[:, :, :1] * (1 + rng.normal(size=(count, n, m)) * 2.0**-10)).astype(np.float32)
            c = rng.normal(size=(count, m)).astype(np.float32)
            if kind == "cancellation":
                c[:, -1] = -c[:, :-1].astype(np.float64).sum(axis=1).astype(np.float32)
            ct = (c + c * _log_uniform(rng, -22, -8, (count, m))).astype(np.float32)
            ec = np.abs(ct.astype(np.float64) - c).max(axis=1)  # exact (Sterbenz)
            big_c = np.abs(c.astype(np.float64)).max(axis=1)
            wmax = np.abs(w.astype(np.float64)).max(axis=(1, 2))
            z = rng.normal(size=(count, n)).astype(np.float32)
            e = np.abs(z.astype(np.float64)).min(axis=1) * rng.uniform(0, 1, size=count)
            if kind == "near kink":  # |z| just above E, z̃ on the kink side of z
                e = np.abs(z.astype(np.float64)).min(axis=1) * (1 - 2.0**-10)
            zt = (z - np.sign(z) * e[:, None] * rng.uniform(0, 1, size=(count, n)) * (1 - 2.0**-20)).astype(np.float32)
            margin_ok = (np.abs(zt.astype(np.float64) - z).max(axis=1) <= e) & (e < np.abs(z.astype(np.float64)).min(axis=1))
            skipped += int((~margin_ok).sum())
            ref = b32.fmask(z, (w.astype(np.float64) * c[:, None, :]).sum(axis=2))
            s_abs = np.einsum("nij,nj->ni", np.abs(w.astype(np.float64)), np.abs(c.astype(np.float64))).max(axis=1)
            ref_err = float(f64.gamma(m)) * s_abs * (1 + SLACK)
            budget = b32.layer_budget(ff, m, wmax, big_c, 0.0, ec, bias=False)
            budget = np.where(margin_ok, budget, np.inf)
            for order in b32.ORDERS:
                got = b32.fmask(zt, b32.ftranspose(w, ct, order)).astype(np.float64)
                err = np.abs(got - ref).max(axis=1)
                total += int(margin_ok.sum())
                worst[f"{kind} {n}x{m}"] = max(worst.get(f"{kind} {n}x{m}", 0.0), float((err / budget).max()))
                for i in _limited(_screen(err, ref_err, budget), 20, "float32 masked contraction"):
                    rechecked += 1
                    W = [[_fr(v) for v in row] for row in w[i]]
                    cv = [_fr(v) for v in c[i]]
                    exact = mlp.relu_mask([_fr(v) for v in z[i]], mlp.dense_transpose(W, cv))
                    bud = b32.layer_budget(fmt, m, _fr(wmax[i]), _fr(big_c[i]), 0, _fr(ec[i]), bias=False)
                    errs = [abs(_fr(g) - x) for g, x in zip(got[i], exact)]
                    if max(errs) > bud:
                        step = t.step("sampling", _sampling_version(), "float32 masked Wᵀ contraction", "violation")
                        raise Violation(refuted("float32 masked contraction re-checked exactly",
                                                {"W": str([[str(v) for v in r] for r in W]), "c": _vec(c[i]), "c_float": _vec(ct[i]),
                                                 "z": _vec(z[i]), "z_float": _vec(zt[i]), "order": order},
                                                {"error": max(errs), "layerBudget": bud}, step, format=fmt.name))
        step = t.step("sampling", _sampling_version(), "float32 masked Wᵀ contraction vs exact",
                      f"{total} evaluations (instances × orders), {rechecked} re-checked exactly", instances=total, seed=ctx.seed)
    return supported("numpy float32 masked Wᵀ contractions in 6 orders vs exact (evidence)", step, violations=0, contractions=total // len(b32.ORDERS),
                     evaluations=total,
                     rechecked_exactly=rechecked, margin_not_met=skipped,
                     max_error_over_budget={k: round(v, 6) for k, v in worst.items()}, seed=ctx.seed)


@obligation(
    id="lean_mlp.float.cot_step_close_float32",
    source=Source(DOC4, "mlp_w1_grad_close: … the masked W₂ᵀ contraction (cot_step_close, under the quantitative margin E₁ < |z₁ⱼ|)"),
    statement="Under the margin |z̃ − z| ≤ E < min|z|, the float masked contraction mask(z̃, fl(Wᵀc̃)) is within "
    "layerBudget(u, m, w, C, 0, ec) of mask(z, Wᵀc), per entry (|W| ≤ w, |c| ≤ C, |c̃ − c| ≤ ec, m terms).",
    scope="3·10⁴ seeded contractions (4×2 … 16×10 random, near-kink margins, cancelling rows, 32×256 large fan-in), "
    "each in 6 summation orders; float64 reference with its γ bound; exact re-check near the budget; evidence only",
    expect=Expect.HOLDS,
    lean="FloatBridge.cot_step_close",
    uses=("lean_mlp.float.dot_close", "lean_mlp.float.relu_exact_in_float"),
)
def cot_step_close_float32(ctx):
    """``cot_step_close`` (004): one backward step through a ReLU, c̃ ↦ mask(z̃, Wᵀ·c̃). Under the
    quantitative margin (the float pre-activation z̃ is within E of z and E < |z|) the masks
    agree, so the error is that of a bias-free contraction with an inexact input:
    ``m·w·ec + γ_m·m·w·(C + ec) + m·μ(1 + γ_{m−1})`` (:func:`binary32.layer_budget`). The near-kink
    family puts |z| just above E with z̃ pushed toward 0."""
    return _run(check_cot_step, ctx)


# =======================================================================================
# The grad-closes: linear_grad_close (W₂), mlp_w1_grad_close, mlp_w0_grad_close
# =======================================================================================

GRAD_INPUT = {"W0": "x", "W1": "a0", "W2": "a1"}
GRAD_PARAMS = {"W0": ("W0", "b0", "W1", "b1", "W2", "b2"), "W1": ("W1", "b1", "W2", "b2"), "W2": ("W2", "b2")}


@dataclass(frozen=True)
class GradFamily:
    name: str
    dims: tuple[int, int, int, int]
    count: int


GRAD_FAMILIES = (
    GradFamily("random", (6, 10, 8, 4), 4_000),
    GradFamily("random", (3, 4, 3, 2), 4_000),
    GradFamily("random", (24, 32, 16, 10), 600),
    GradFamily("near kink", (6, 10, 8, 4), 2_000),
    GradFamily("cancellation", (6, 10, 8, 4), 2_000),
    GradFamily("large fan-in", (256, 8, 8, 4), 32),  # fan-in 256 into z₀
    GradFamily("large fan-in", (16, 256, 8, 4), 32),  # fan-in 256 into z₁
    GradFamily("large fan-in", (16, 8, 256, 10), 32),  # fan-in 256 into the logits
)


def _grad_batch(rng: Any, layer: str, fam: GradFamily) -> dict[str, Any]:
    """A batch of sub-networks for ``layer``: its exact input (binary32) and the weights above it."""
    np = _np()
    n = fam.count
    d = fam.dims
    p: dict[str, Any] = {}
    for i in range(3):
        p[f"W{i}"] = (rng.normal(size=(n, d[i], d[i + 1])) / np.sqrt(d[i])).astype(np.float32)
        p[f"b{i}"] = (rng.normal(size=(n, d[i + 1])) * 0.1).astype(np.float32)
    if fam.name == "cancellation":  # W₂ rows nearly constant: W₂ᵀ(softmax − onehot) cancels
        p["W2"] = (p["W2"][:, :, :1] * (1 + rng.normal(size=p["W2"].shape) * 2.0**-12)).astype(np.float32)
    start = {"W0": 0, "W1": 1, "W2": 2}[layer]
    inp = rng.normal(size=(n, d[start])).astype(np.float32)
    if layer != "W0":  # activations: non-negative, some exactly 0
        inp = np.abs(inp) * (rng.uniform(size=inp.shape) > 0.15)
    p[GRAD_INPUT[layer]] = inp.astype(np.float32)
    p["label"] = rng.integers(0, d[3], size=n)
    if fam.name == "near kink" and layer != "W2":
        # move one pre-activation of each masked layer to about 2 rounding budgets from its kink
        x = p[GRAD_INPUT[layer]].astype(np.float64)
        for w, bias in ((("W0", "b0"),) if layer == "W0" else ()) + (("W1", "b1"),):
            W = p[w].astype(np.float64)
            pre = np.einsum("ni,nij->nj", x, W)
            scale = np.einsum("ni,nij->nj", np.abs(x), np.abs(W)).max(axis=1) + np.abs(p[bias]).max(axis=1)
            e_est = float(b32.BINARY32.as_float().gamma(W.shape[1] + 1)) * scale * W.shape[1]
            sign = rng.choice([-1.0, 1.0], size=n)
            p[bias][:, 0] = (-pre[:, 0] + sign * 2 * e_est).astype(np.float32)
            x = np.maximum(pre + p[bias].astype(np.float64), 0)
    return p


def _bounds(layer: str, p: dict[str, Any], run64: Any, dims: tuple[int, ...]) -> tuple[b32.Scalars, b32.Scalars]:
    """Lower and upper bounds of the instance quantities from the float64 reference forward,
    widened by its rigorous error bounds (budgets at u = 2⁻⁵³); the upper one carries the lower
    bounds of min|z| for the margin hypotheses."""
    np = _np()
    f64 = b32.BINARY64.as_float()

    def amax(a: Any) -> Any:
        return np.abs(a.astype(np.float64)).reshape(a.shape[0], -1).max(axis=1)

    zero = np.zeros(p["label"].shape[0])
    w = {k: amax(p[k]) if k in p else zero for k in ("W0", "W1", "W2", "b0", "b1", "b2")}
    x = amax(p["x"]) if layer == "W0" else zero
    d0, d1, d2, d3 = dims
    if layer == "W0":
        e0 = b32.layer_budget(f64, d0, w["W0"], x, w["b0"], 0.0)
        top0 = np.maximum(run64.z0, 0).max(axis=1)
        a0_hi, a0_lo, zmin0 = top0 + e0, np.maximum(top0 - e0, 0), np.abs(run64.z0).min(axis=1) - e0
    else:
        e0 = zero
        a0_hi = a0_lo = amax(p["a0"]) if layer == "W1" else zero
        zmin0 = zero + 1
    if layer == "W2":
        e1 = zero
        a1_hi = a1_lo = amax(p["a1"])
        zmin1 = zero + 1
    else:
        e1 = b32.layer_budget(f64, d1, w["W1"], a0_hi, w["b1"], e0)
        top1 = np.maximum(run64.z1, 0).max(axis=1)
        a1_hi, a1_lo, zmin1 = top1 + e1, np.maximum(top1 - e1, 0), np.abs(run64.z1).min(axis=1) - e1
    delta = b32.layer_budget(f64, d2, w["W2"], a1_hi, w["b2"], e1)
    spread = run64.logits.max(axis=1) - run64.logits.min(axis=1)
    common = dict(dims=dims, x=x, w0=w["W0"], w1=w["W1"], w2=w["W2"], b0=w["b0"], b1=w["b1"], b2=w["b2"])
    lo = b32.Scalars(a0=a0_lo, a1=a1_lo, spread=np.maximum(spread - 2 * delta, 0), zmin0=zmin0, zmin1=zmin1, **common)
    hi = b32.Scalars(a0=a0_hi, a1=a1_hi, spread=spread + 2 * delta, zmin0=zmin0, zmin1=zmin1, **common)
    return lo, hi


def _exact_instance(layer: str, p: dict[str, Any], i: int, fmt: b32.Format) -> tuple[Any, b32.Budget]:
    """The exact gradient (arb-interval entries after the head) and the exact budget of
    instance ``i`` of a batch, from the certified closed forms of :mod:`.mlp`."""
    ex = {k: [[_fr(v) for v in row] for row in p[k][i]] if k.startswith("W") else [_fr(v) for v in p[k][i]]
          for k in GRAD_PARAMS[layer]}
    inp = [_fr(v) for v in p[GRAD_INPUT[layer]][i]]
    label = int(p["label"][i])
    pos = lambda z: z > 0  # noqa: E731 - relu(0) = 0; the margins exclude kinks where masks are read
    z0 = z1 = None
    if layer == "W0":
        z0 = mlp.dense(ex["W0"], ex["b0"], inp)
        a0 = mlp.relu(z0, pos)
    else:
        a0 = inp if layer == "W1" else None
    if layer != "W2":
        z1 = mlp.dense(ex["W1"], ex["b1"], a0)
        a1 = mlp.relu(z1, pos)
    else:
        a1 = inp
    logits = mlp.dense(ex["W2"], ex["b2"], a1)
    c = mlp.head_cotangent(logits, label, mlp.interval_exp)
    if layer != "W2":
        c = mlp.relu_mask(z1, mlp.dense_transpose(ex["W2"], c), pos)
        if layer == "W0":
            c = mlp.relu_mask(z0, mlp.dense_transpose(ex["W1"], c), pos)
    grad = mlp.outer(inp, c)

    def amax(vals: Any) -> Fraction:
        flat = [abs(v) for r in vals for v in (r if isinstance(r, list) else [r])]
        return max(flat, default=Fraction(0))

    zeros = Fraction(0)
    dims = (len(inp) if layer == "W0" else 0, len(a0) if a0 is not None else 0, len(a1), len(logits))
    s = b32.Scalars(dims=dims, x=amax(inp) if layer == "W0" else zeros, a0=amax(a0) if a0 is not None else zeros,
                    a1=amax(a1), w0=amax(ex.get("W0", [])), w1=amax(ex.get("W1", [])), w2=amax(ex["W2"]),
                    b0=amax(ex.get("b0", [])), b1=amax(ex.get("b1", [])), b2=amax(ex["b2"]),
                    spread=max(logits) - min(logits),
                    zmin0=min(abs(v) for v in z0) if z0 is not None else Fraction(1),
                    zmin1=min(abs(v) for v in z1) if z1 is not None else Fraction(1))
    eta, hyps, parts = b32.compose(layer, fmt, s)
    return grad, b32.Budget(layer, Fraction(eta), hyps, tuple((k, Fraction(v)) for k, v in parts))


def _instance_witness(layer: str, p: dict[str, Any], i: int, order: str) -> dict[str, Any]:
    w: dict[str, Any] = {"layer": layer, "order": order, "label": int(p["label"][i]), "input": _vec(p[GRAD_INPUT[layer]][i])}
    for k in GRAD_PARAMS[layer]:
        w[k] = str([[str(_fr(v)) for v in row] for row in p[k][i]]) if k.startswith("W") else _vec(p[k][i])
    return w


def check_grad(ctx: Any, layer: str, fmt: b32.Format = b32.BINARY32, families: tuple[GradFamily, ...] = GRAD_FAMILIES,
               spot_checks: int = 2) -> Verdict:
    """Every entry of the binary32 gradient of ``layer`` is within the composed budget η of the
    exact gradient, on every instance whose hypotheses (margins, head conditions) hold, in
    every summation order."""
    np = _np()
    rng = ctx.rng(f"grad/{layer}")
    ff, f64 = fmt.as_float(), b32.BINARY64.as_float()
    total = applicable = rechecked = spot = 0
    worst: dict[str, float] = {}
    closest: dict[str, float] = {}
    with timed() as t:
        for fam in families:
            p = _grad_batch(rng, layer, fam)
            p64 = {k: (v.astype(np.float64) if k != "label" else v) for k, v in p.items()}
            run64 = b32.float_pipeline(layer, p64, "numpy")
            lo, hi = _bounds(layer, p, run64, fam.dims)
            eta_lo = b32.compose(layer, ff, lo)[0]
            eta_hi, hyps_hi, _ = b32.compose(layer, ff, hi)
            ref_err = b32.compose(layer, f64, hi)[0] * (1 + SLACK)
            ok = np.ones(fam.count, dtype=bool)
            for h in hyps_hi:
                ok &= np.asarray(h.lhs < h.rhs)
            applicable_here = int(ok.sum())
            key = f"{fam.name} {'x'.join(map(str, fam.dims))}"
            for h in hyps_hi:
                if "margin" in h.name and applicable_here:
                    tight = float(np.min(np.where(ok, h.rhs / h.lhs, np.inf)))
                    closest[key] = min(closest.get(key, np.inf), tight)
            for order in b32.ORDERS:
                run = b32.float_pipeline(layer, p, order)
                err = np.abs(run.grad.astype(np.float64) - run64.grad).reshape(fam.count, -1).max(axis=1)
                total += fam.count
                applicable += applicable_here
                ratio = np.where(ok, err / eta_lo, 0)
                worst[key] = max(worst.get(key, 0.0), float(ratio.max()))
                cand = [i for i in _screen(err, ref_err, eta_lo) if ok[i]]
                for i in _limited(cand, 10, f"float32 {layer} gradient"):
                    rechecked += 1
                    exact, budget = _exact_instance(layer, p, i, fmt)
                    if not budget.holds:
                        continue
                    for (a, bb), g in np.ndenumerate(run.grad[i]):
                        lower, upper = _err_interval(_fr(g), exact[a][bb])
                        if lower > budget.eta:
                            step = t.step("sampling", _sampling_version(), f"float32 {layer} gradient", "violation")
                            raise Violation(refuted(f"float32 {layer} gradient re-checked with exact arithmetic and arb exp",
                                                    _instance_witness(layer, p, i, order),
                                                    {"entry": f"{a},{bb}", "float32 entry": _fr(g), "error lower bound": lower,
                                                     "eta": budget.eta}, step, format=fmt.name, family=key))
                        if upper > budget.eta:
                            raise Violation(unknown(f"float32 {layer} gradient",
                                                    f"an entry is within the arb enclosure width of eta ({key}, {order})"))
            # the float64 reference and the screening bounds, checked exactly on a few instances
            if fam.count >= 100:
                for i in rng.choice(np.flatnonzero(ok), size=min(spot_checks, applicable_here), replace=False):
                    spot += 1
                    exact, budget = _exact_instance(layer, p, int(i), fmt)
                    lo_i, hi_i = Fraction(float(eta_lo[i])), Fraction(float(eta_hi[i]))
                    if not lo_i * (1 - Fraction(1, 2**30)) <= budget.eta <= hi_i * (1 + Fraction(1, 2**30)):
                        raise Violation(unknown(f"float32 {layer} gradient", f"screening bounds do not bracket the exact eta ({key})"))
                    ref_bound = Fraction(float(ref_err[i]))
                    for (a, bb), g in np.ndenumerate(run64.grad[i]):
                        if _err_interval(_fr(g), exact[a][bb])[1] > ref_bound:
                            raise Violation(unknown(f"float32 {layer} gradient", f"the float64 reference exceeds its error bound ({key})"))
        step = t.step("sampling", _sampling_version(), f"float32 {layer} gradients in 6 orders vs exact",
                      f"{total} evaluations (instances × orders; {applicable} with hypotheses verified), {rechecked} re-checked exactly",
                      instances=total, seed=ctx.seed)
    return supported(f"numpy float32 {layer} gradients in 6 orders vs a float64 reference with its error bound (evidence)",
                     step, violations=0, gradients=total // len(b32.ORDERS), evaluations=total,
                     hypotheses_verified=applicable // len(b32.ORDERS), rechecked_exactly=rechecked,
                     reference_spot_checks=spot, max_error_over_eta={k: round(v, 6) for k, v in worst.items()},
                     smallest_margin_over_rounding_budget={k: round(v, 3) for k, v in closest.items()}, seed=ctx.seed)


GRAD_SCOPE = ("1.27·10⁴ seeded instances per layer: {families}, each in 6 summation orders (numpy/BLAS, forward, reverse, "
              "pairwise, 2 permutations); instances whose hypotheses are not verified are not counted; float64 "
              "reference with its composed error bound at u = 2⁻⁵³ (exactly spot-checked with arb); exact re-check "
              "near the budget; evidence only")
FAMILY_TEXT = ("random nets 3×4×3×2, 6×10×8×4 and 24×32×16×10, near-kink margins (one pre-activation per masked layer "
               "at ≈ 2 rounding budgets from 0), cancelling W₂ rows, fan-in 256 into each layer "
               "(256×8×8×4, 16×256×8×4, 16×8×256×10)")


@obligation(
    id="lean_mlp.float.linear_grad_close_float32",
    source=Source(DOC4, "mlp_output_float_sgd_descends: … its accuracy η = mulErr u a 1 0 (cotErr …) is proven (by linear_grad_close)"),
    statement="The binary32 output-layer gradient fl(a₁ᵢ·c̃₂ⱼ) of the linear net at the exact activation a₁ is within "
    "η = mulErr(u, A₁, 1, 0, cotErr(u, d₃, δ, spread + 2δ)), δ = layerBudget(u, d₂, w₂, A₁, β₂, 0), "
    "of a₁ᵢ·(softmax − onehot)ⱼ.",
    scope=GRAD_SCOPE.format(families=FAMILY_TEXT),
    expect=Expect.HOLDS,
    lean="FloatBridge.linear_grad_close",
    uses=("lean_mlp.float.softmax_ce_cot_close", "lean_mlp.float.mul_close", "lean_mlp.float.dot_close"),
)
def linear_grad_close_float32(ctx):
    """``linear_grad_close`` (004, inside ``linear_float_sgd_descends``, reused by
    ``mlp_output_float_sgd_descends`` at x := a₁): the float forward of the linear net, the float
    head, and the final multiply with the exact input. Budget composed in
    :func:`binary32.compose`; checked on float32 against a float64 reference whose own error is
    bounded by the same composition at u = 2⁻⁵³."""
    return _run(check_grad, ctx, "W2")


@obligation(
    id="lean_mlp.float.mlp_w1_grad_close_float32",
    source=Source(DOC4, "mlp_w1_grad_close"),
    statement="Under the layer-1 rounding margin E₁ < min|z₁|, the binary32 W₁ gradient fl(a₀ᵢ·c̃₁ⱼ), "
    "c̃₁ = mask(z̃₁, W₂ᵀ·c̃₂) at the float pre-activation and the float head, is within "
    "η = mulErr(u, A₀, layerAct(d₃, w₂, 1), 0, layerBudget(u, d₃, w₂, 1, 0, cotErr(…))) of the certified gradient.",
    scope=GRAD_SCOPE.format(families=FAMILY_TEXT),
    expect=Expect.HOLDS,
    lean="FloatBridge.mlp_w1_grad_close",
    uses=("lean_mlp.float.softmax_ce_cot_close", "lean_mlp.float.cot_step_close", "lean_mlp.float.mul_close"),
)
def mlp_w1_grad_close_float32(ctx):
    """``mlp_w1_grad_close`` (004): a₀ frozen exact; float forward z̃₁ = dense W₁ b₁ a₀ (error
    E₁), float head at the float logits (cotErr with the logit error δ), the masked W₂ᵀ step
    (cot_step_close under E₁ < |z₁|), the final multiply (mul_close, ea = 0). The rendered
    trainer's gradient is :func:`binary32.float_pipeline`; the certified one is the reluMask
    form of :func:`mlp.gradients` (a₀ᵢ·mask(z₁, W₂ᵀ(softmax − onehot))ⱼ)."""
    return _run(check_grad, ctx, "W1")


@obligation(
    id="lean_mlp.float.mlp_w0_grad_close_float32",
    source=Source(DOC4, "mlp_w0_grad_close"),
    statement="Under both rounding margins E₀ < min|z₀| and E₁ < min|z₁|, the binary32 W₀ gradient fl(xᵢ·c̃₀ⱼ), "
    "c̃₀ = mask(z̃₀, W₁ᵀ·mask(z̃₁, W₂ᵀ·c̃₂)), is within η = mulErr(u, X, C₀, 0, layerBudget(u, d₂, w₁, C₁, 0, "
    "layerBudget(u, d₃, w₂, 1, 0, cotErr(…)))) of the certified gradient.",
    scope=GRAD_SCOPE.format(families=FAMILY_TEXT),
    expect=Expect.HOLDS,
    lean="FloatBridge.mlp_w0_grad_close",
    uses=("lean_mlp.float.softmax_ce_cot_close", "lean_mlp.float.cot_step_close", "lean_mlp.float.mul_close"),
)
def mlp_w0_grad_close_float32(ctx):
    """``mlp_w0_grad_close`` (004): x exact; the full float forward (two dense + ReLU layers, errors
    E₀, E₁ propagated by layerBudget), the float head, two masked contractions (each a
    cot_step_close under its margin), and the final multiply. Checked like the W₁ case."""
    return _run(check_grad, ctx, "W0")


# =======================================================================================
# The budget composition, symbolically
# =======================================================================================

SYMBOLIC_DIMS = (3, 4, 5, 2)


def _z3_steps(t_factory: Callable[[], Any]) -> list[tuple[bool, Any]]:
    """The stage lemmas over ℝ (z3; negation ``unsat`` proves each)."""
    import z3

    from checker.backends import smt

    def ab(x: Any) -> Any:
        return z3.If(x >= 0, x, -x)

    R = z3.Reals
    a, at, c, ct, A, C, ea, ec, u, mu, r = R("a at c ct A C ea ec u mu r")
    x, y, W, w, e = R("x y W w e")
    checks: list[tuple[bool, Any]] = []

    def prove(what: str, hyp: Any, concl: Any) -> None:
        with t_factory() as t:
            s = z3.Solver()
            s.set("timeout", 20_000)
            s.add(hyp, z3.Not(concl))
            answer = s.check()
            checks.append((answer == z3.unsat, t.step("smt", smt.version(), f"z3: {what}", str(answer))))

    ops = z3.And(ab(at - a) <= ea, ab(a) <= A, ab(ct - c) <= ec, ab(c) <= C)
    prove("|ã·c̃ − a·c| ≤ ea·(C + ec) + A·ec", ops, ab(at * ct - a * c) <= ea * (C + ec) + A * ec)
    prove("|ã·c̃| ≤ (A + ea)·(C + ec)", ops, ab(at * ct) <= (A + ea) * (C + ec))
    # mulErr = the triangle inequality through the operand errors and one rounding
    p, q, m = R("p q m")  # p = ã·c̃, q = a·c, m = the operand-error bound
    prove("mulErr: |r − ac| ≤ A·ec + ea(C + ec) + u(A + ea)(C + ec) + μ from the stage bounds (linear)",
          z3.And(ab(p - q) <= m, m == ea * (C + ec) + A * ec, ab(p) <= (A + ea) * (C + ec), u >= 0, mu >= 0,
                 ab(r - p) <= u * ab(p) + mu),
          ab(r - q) <= A * ec + ea * (C + ec) + u * (A + ea) * (C + ec) + mu)
    prove("|x̃·W − x·W| ≤ w·e", z3.And(ab(y - x) <= e, ab(W) <= w), ab(y * W - x * W) <= w * e)
    prove("|x̃·W| ≤ w·(A + e)", z3.And(ab(y - x) <= e, ab(x) <= A, ab(W) <= w), ab(y * W) <= w * (A + e))
    # layerBudget = the triangle inequality through the input error and the γ lemma, fan-in 1…4,
    # with γ at its exact binary32 value; the product lemmas above enter as the atoms
    # M ≥ |x̃ⱼWⱼ − xⱼWⱼ| (M = w·e) and K ≥ |x̃ⱼWⱼ| (K = w·(A + e)), so the claim is linear
    big_m, big_k, bias, beta, under = R("M K bias beta under")
    for n in (1, 2, 3, 4):
        ps, qs = R(" ".join(f"p{j}" for j in range(n))), R(" ".join(f"q{j}" for j in range(n)))
        g = b32.gamma(n + 1)
        gq = z3.RealVal(f"{g.numerator}/{g.denominator}")
        hyp = z3.And(*[ab(ps[j] - qs[j]) <= big_m for j in range(n)], *[ab(ps[j]) <= big_k for j in range(n)],
                     ab(bias) <= beta, under >= 0,
                     ab(r - (sum(ps) + bias)) <= gq * (sum(ab(pj) for pj in ps) + ab(bias)) + under)
        concl = ab(r - (sum(qs) + bias)) <= n * big_m + gq * (n * big_k + beta) + under
        prove(f"layerBudget = n·w·e + γ_(n+1)·(n·w·(A + e) + β) + underflow from the γ lemma, fan-in {n}", hyp, concl)
    return checks


def _sympy_steps() -> list[tuple[bool, Any]]:
    from checker.backends import symbolic

    sp = symbolic.sympy()
    u, k, x, eps, d = sp.symbols("u k x epsilon delta", nonnegative=True)
    checks: list[tuple[bool, Any]] = []
    gam = lambda n: n * u / (1 - n * u)  # noqa: E731
    # Lemma 3.3: u + (1 + u)·γ_k ≤ γ_{k+1}: the difference times the (positive) denominators is k·u²·(…) ≥ 0
    diff = gam(k + 1) - u - (1 + u) * gam(k)
    checks.append(symbolic.zero_step(sp.together(diff - (k + 1) * u**2 / ((1 - k * u) * (1 - (k + 1) * u))),
                                     "γ_{k+1} − u − (1+u)γ_k = (k+1)u²/((1 − ku)(1 − (k+1)u)) ≥ 0 when (k+1)u < 1"))
    # e^x ≤ 1/(1 − x) on [0, 1): (1 − x)e^x has derivative −x·e^x ≤ 0 and value 1 at 0
    f = (1 - x) * sp.exp(x)
    checks.append(symbolic.zero_step(sp.diff(f, x) + x * sp.exp(x), "d/dx[(1 − x)eˣ] = −x·eˣ"))
    checks.append(symbolic.zero_step(f.subs(x, 0) - 1, "(1 − x)eˣ = 1 at x = 0"))
    # the exp/subtraction factor: e^{−uG}(1 − ε) ≥ 1 − α with 1 + α = e^{uG}(1 + ε): with y = e^{uG} ≥ 1,
    # y·[(1 − ε)/y − (2 − y(1 + ε))] = (y − 1)((1 + ε)y − (1 − ε))
    yv = sp.symbols("y", positive=True)
    checks.append(symbolic.zero_step(sp.expand(yv * ((1 - eps) / yv - (2 - yv * (1 + eps))) - (yv - 1) * ((1 + eps) * yv - (1 - eps))),
                                     "(1 − ε)/y − (2 − y(1 + ε)) = (y − 1)((1 + ε)y − (1 − ε))/y ≥ 0 for y ≥ 1"))
    # cotErr: with H as defined, 1/H ≤ the lower ratio, and H − 1 ≥ 1 − 1/H
    a_, g_, h = sp.symbols("alpha gamma H", positive=True)
    big_h = (1 + a_) * (1 + u) / ((1 - 2 * d) * (1 - a_) * (1 - g_) * (1 - u))
    lower = (1 - 2 * d) * (1 - a_) * (1 - u) / ((1 + a_) * (1 + g_))
    gap = (1 - 2 * d) * (1 - a_) * (1 - u) / (1 + a_) * (1 / (1 + g_) - (1 - g_) / (1 + u))
    checks.append(symbolic.zero_step(sp.together(lower - 1 / big_h - gap),
                                     "lower ratio − 1/H = (1−2δ)(1−α)(1−u)/(1+α)·(1/(1+γ) − (1−γ)/(1+u))"))
    checks.append(symbolic.zero_step(sp.together((1 + u) - (1 - g_) * (1 + g_) - (u + g_**2)),
                                     "(1 + u) − (1 − γ)(1 + γ) = u + γ² ≥ 0, so 1/(1+γ) ≥ (1−γ)/(1+u)"))
    checks.append(symbolic.zero_step(sp.together((h - 1) - (1 - 1 / h) - (h - 1) ** 2 / h), "(H − 1) − (1 − 1/H) = (H − 1)²/H ≥ 0"))
    # cotErr's closing step: (H−1)P + μ + u·(1 + (H−1) + μ) with P ≤ 1 is the formula
    mu_ = sp.symbols("mu", nonnegative=True)
    fmt = b32.Format("symbolic", u, mu_, eps, gamma_rule=lambda n, uu: n * uu / (1 - n * uu))
    G = sp.symbols("G", nonnegative=True)
    one_alpha = (1 + eps) / (1 - u * G)
    hh = one_alpha * (1 + u) / ((1 - 2 * d) * (1 - (one_alpha - 1)) * (1 - gam(3)) * (1 - u))
    checks.append(symbolic.zero_step(b32.cot_err(fmt, 4, d, G) - ((hh - 1) + mu_ + u * (1 + (hh - 1) + mu_)),
                                     "cotErr(4 classes) = (H − 1) + μ + u·(H + μ): softmax error, underflow, the −1's rounding"))
    return checks


def _composition_steps(dims: tuple[int, int, int, int] = SYMBOLIC_DIMS) -> list[tuple[bool, Any]]:
    """compose() (used for every number) equals the Lean-documented nesting of the named budgets.
    The symbols carry no sign assumptions: the identity is one of rational functions, so it holds
    for every value (and sympy does not query assumptions while building the large expressions)."""
    from checker.backends import symbolic

    sp = symbolic.sympy()
    names = "u mu epsilon X A0 A1 w0 w1 w2 beta0 beta1 beta2 s zmin0 zmin1"
    u, mu, eps, X, A0, A1, w0, w1, w2, be0, be1, be2, spread, zm0, zm1 = sp.symbols(names)
    fmt = b32.Format("symbolic", u, mu, eps, gamma_rule=lambda n, uu: n * uu / (1 - n * uu))
    d0, d1, d2, d3 = dims
    s = b32.Scalars(dims=dims, x=X, a0=A0, a1=A1, w0=w0, w1=w1, w2=w2, b0=be0, b1=be1, b2=be2,
                    spread=spread, zmin0=zm0, zmin1=zm1)
    mulErr = lambda a, c, ea, ec: b32.mul_err(fmt, a, c, ea, ec)  # noqa: E731
    layerBudget = lambda n, w, a, beta, e, bias=True: b32.layer_budget(fmt, n, w, a, beta, e, bias)  # noqa: E731
    cotErr = lambda m, dl: b32.cot_err(fmt, m, dl, spread + 2 * dl)  # noqa: E731
    layerAct = b32.layer_act
    # W₂: η = mulErr u a 1 0 (cotErr …)
    dl2 = layerBudget(d2, w2, A1, be2, 0)
    lean = {"W2": mulErr(A1, 1, 0, cotErr(d3, dl2))}
    # W₁: mulErr u a (layerAct …) 0 (layerBudget … (cotErr …)), the forward error E₁ feeding δ
    e1 = layerBudget(d1, w1, A0, be1, 0)
    dl1 = layerBudget(d2, w2, A1, be2, e1)
    lean["W1"] = mulErr(A0, layerAct(d3, w2, 1), 0, layerBudget(d3, w2, 1, 0, cotErr(d3, dl1), False))
    # W₀: mulErr … 0 (layerBudget … (layerBudget … (cotErr …)))
    e0 = layerBudget(d0, w0, X, be0, 0)
    e1b = layerBudget(d1, w1, A0, be1, e0)
    dl0 = layerBudget(d2, w2, A1, be2, e1b)
    c1 = layerAct(d3, w2, 1)
    lean["W0"] = mulErr(X, layerAct(d2, w1, c1), 0,
                        layerBudget(d2, w1, c1, 0, layerBudget(d3, w2, 1, 0, cotErr(d3, dl0), False), False))
    checks = []
    for layer in b32.LAYERS:
        eta, hyps, _ = b32.compose(layer, fmt, s)
        checks.append(symbolic.zero_step(sp.together(eta - lean[layer]),
                                         f"compose({layer}) − the nested mulErr/layerBudget/cotErr expression = 0 (dims {dims})"))
        margins = {h.name: h.lhs for h in hyps if "margin" in h.name}
        want = {"W2": {}, "W1": {"layer-1 rounding margin: E1 < min|z1|": e1},
                "W0": {"layer-0 rounding margin: E0 < min|z0|": e0, "layer-1 rounding margin: E1 < min|z1|": e1b}}[layer]
        ok = set(margins) == set(want) and all(sp.simplify(margins[n] - want[n]) == 0 for n in want)
        with timed() as t:
            checks.append((ok, t.step("symbolic", symbolic.version(), f"the {layer} margins are the forward budgets E₀/E₁",
                                      "equal" if ok else "different")))
    return checks


@obligation(
    id="lean_mlp.float.budget_compose",
    source=Source(DOC4, "mlp_w1_grad_close / mlp_w0_grad_close: 'built from three reusable closes' (the budget composition)"),
    statement="The composed budgets are what the stage bounds give: each of mulErr, layerBudget and cotErr is the "
    "triangle inequality through its inputs' errors plus one stage of rounding (the γ lemma u + (1+u)γₙ ≤ γₙ₊₁, "
    "eˣ ≤ 1/(1−x), the softmax ratio sandwich), and the η of each layer is the Lean nesting "
    "mulErr(…, layerBudget(…, cotErr(…))) with the forward budgets E₀, E₁ as the rounding margins.",
    scope="stage lemmas universally over ℝ (z3; layerBudget for fan-in 1…4 with γ at its binary32 value); "
    "the algebra of γ, exp and H symbolically (sympy); compose() = the nested expression symbolically in u, μ, ε "
    "and every instance quantity, at dims 3×4×5×2",
    expect=Expect.HOLDS,
    lean="FloatBridge.budget_compose",
)
def budget_compose(ctx):
    """The budget composition ([budget_compose]). Assumptions: the standard model of each
    binary32 operation (|δ| ≤ u, underflow ≤ μ per product; these are what the other
    ``lean_mlp.float`` obligations test on real float32), exp within ε relatively, the rounding
    margins (so the ReLU masks of the float and exact passes agree) and 2δ < 1, u·G < 1.
    Under them the error of each stage is bounded by the triangle inequality: z3 proves each
    stage lemma over ℝ (negation ``unsat``), sympy reduces the algebraic identities behind γ,
    cotErr's ratio sandwich and e^x ≤ 1/(1−x) to 0, and sympy shows that the η that
    :func:`binary32.compose` computes (the function every numeric check uses) is exactly the
    nested expression of the Lean statements."""
    checks = _z3_steps(timed) + _sympy_steps() + _composition_steps()
    steps = [s for _, s in checks]
    failed = [s.action for ok, s in checks if not ok]
    if failed:
        return unknown("z3 + sympy on the budget algebra", "not reduced: " + "; ".join(failed), *steps)
    return proved("z3 (stage lemmas over ℝ) + sympy (identities, composition)", *steps, grade=Grade.BOUNDED,
                  over="fan-in 1…4; dims 3×4×5×2", lemmas=len(checks))


# =======================================================================================
# The proofs (float_lemmas): the rounding model in z3's floating-point theory, every budget
# lemma over ℝ for all inputs, at every fan-in / shape of the stated family
# =======================================================================================

PROOF_NOTE = ("; IEEE round-to-nearest-even with subnormals, no overflow (every exact intermediate at most "
              "the largest binary32)")


def _falsify(proof: Verdict, check: Callable[..., Verdict], *args: Any, **kwargs: Any) -> Verdict:
    """A proof that did not go through (e.g. a budget made too small) is searched for a
    counterexample with real float32 runs, re-checked in exact binary32 arithmetic (round32);
    without one the result stays ``unknown``."""
    if proof.status.value == "proved":
        return proof
    found = _run(check, *args, **kwargs)
    if found.status.value == "refuted":
        return found
    return proof


def _lemma_proof(build: Callable[[Any], None], method: str, grade: str, over: str) -> Verdict:
    from obligations.lean_mlp import float_lemmas as fl

    acc = fl.new()
    build(acc)
    return acc.verdict(method, grade, over)


@obligation(
    id="lean_mlp.float.rounding_model",
    source=Source(DOC4, "FloatBridge: the binary32 FloatModel (relErr: |round x − x| ≤ u·|x| + μ)"),
    statement="Binary32 round-to-nearest-even: for every real x with |x| at most the largest binary32, "
    "RN(x) = x(1 + δ) + η with |δ| ≤ u = 2⁻²⁴, |η| ≤ μ = 2⁻¹⁵⁰ and δη = 0; for x = a ± b of two binary32 "
    "numbers η = 0. Hence for ∘ ∈ {+, −, ×, ÷} (IEEE: fl(a ∘ b) = RN(a ∘ b)) and for a product with an exact "
    "real operand.",
    scope="universally: every real x in range, every pair of finite binary32 (z3 floating-point theory "
    "FPSort(8, 24) for the spacing of binary32 and exact subnormal sums; z3 over ℝ for the rest)",
    expect=Expect.HOLDS,
    lean="FloatBridge.rounding_model",
)
def rounding_model(ctx):
    """The standard model of one rounding, proved bit-exactly. z3's ``QF_FP``: the *gap lemma*
    (next binary32 above f₁ ≥ 0 is within 2⁻²³·f₁ when f₁ is normal, 2⁻¹⁴⁹ and at most 2⁻¹²⁶ when
    subnormal; the binary64 subtraction is checked exact) and *exact subnormal sums* (a binary32
    sum whose rounding is ≤ 2⁻¹²⁶ in magnitude rounds down and up to the same value). z3 over ℝ:
    the nearer neighbour then errs by ≤ u·|x| or ≤ μ, and by ≤ u·|x| for a sum. IEEE 754's
    correct rounding (fl(a ∘ b) = RN(a ∘ b)) and the symmetry of RN are the semantics used."""
    from obligations.lean_mlp import float_lemmas as fl

    return fl.rounding_model()


@obligation(
    id="lean_mlp.float.relu_exact_in_float",
    source=Source(DOC4, "ReLU is entrywise 1-Lipschitz … FloatBridge.lean proves the same fact for the rounded net (relu exact-in-float)"),
    statement=RELU_STATEMENT,
    scope="universally: every non-NaN binary32 z (z3 floating-point theory, IEEE maximum and rounding)",
    expect=Expect.HOLDS,
    lean="FloatBridge.relu_exact_in_float",
)
def relu_exact_in_float(ctx):
    """``relu_exact_in_float``: z3's ``QF_FP`` proves, for every non-NaN binary32 z, that
    ``fp.max(z, +0)`` is z when z > 0 and a zero otherwise, and that rounding it back to
    binary32 is the identity. The implementation numpy runs is cross-checked by
    ``lean_mlp.float.relu_exact_in_float_float32`` (sampled) and ``…_exhaustive`` (all 2³²)."""
    from obligations.lean_mlp import float_lemmas as fl

    return fl.relu_exact()


def prove_mul(ctx: Any, fmt: b32.Format = b32.BINARY32) -> Verdict:
    from obligations.lean_mlp import float_lemmas as fl

    proof = _lemma_proof(lambda acc: fl.mul_lemmas(acc, fmt), "z3 over ℝ from the rounding model; mulErr dominance (sympy)",
                         "UNIVERSAL", "every real a, c, every binary32 c̃ (no overflow)")
    return _falsify(proof, check_mul, ctx, fmt)


@obligation(
    id="lean_mlp.float.mul_close",
    source=Source(DOC4, "mlp_w1_grad_close: … the final input multiply (mul_close, with the exact a₀ operand, ea = 0)"),
    statement="The final multiply is within mulErr: |fl(a·c̃) − a·c| ≤ mulErr(u, |a|, |c|, 0, |c̃ − c|) = "
    "|a|·ec + u·|a|·(|c| + ec) + μ for an exact operand a and a float operand c̃ within ec of c.",
    scope="universally over every real a, c and binary32 c̃ (z3 over ℝ from the proved rounding model)" + PROOF_NOTE,
    expect=Expect.HOLDS,
    lean="FloatBridge.mul_close",
    uses=("lean_mlp.float.rounding_model",),
)
def mul_close(ctx):
    """``mul_close``: with the rounding model (RN(a·c̃) within u·|a·c̃| or μ of a·c̃), z3 proves
    |RN(a·c̃) − a·c| ≤ A·ec + u·A·(C + ec) + μ for all reals under |a| ≤ A, |c| ≤ C, |c̃ − c| ≤ ec;
    sympy shows the stated ``mulErr(A, C, 0, ec)`` dominates that bound coefficientwise. If the
    proof fails (a budget made too small), float32 products are searched for a counterexample
    re-checked with exact binary32 rounding.

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_log_uniform`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_mul`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    """
    return prove_mul(ctx)


def prove_dot(ctx: Any, fmt: b32.Format = b32.BINARY32) -> Verdict:
    from obligations.lean_mlp import float_lemmas as fl

    proof = fl.dot_lemma(fmt).verdict("z3 over ℝ (generic addition node, leaves, combination) + exact γ conditions "
                                      "+ dot_err dominance", "BOUNDED", fl.FANIN_TEXT + ", with or without a bias; every summation order")
    return _falsify(proof, check_dot, ctx, fmt)


@obligation(
    id="lean_mlp.float.dot_close",
    source=Source(DOC4, "mlp_w1_grad_close / cot_step_close: the masked W₂ᵀ contraction (layerBudget)"),
    statement="A binary32 dot product with bias, summed in any order, is within γ_{n+1}·(∑|xⱼyⱼ| + |b|) + n·μ·(1 + γₙ) "
    "of the exact value (γ_n without a bias), γₙ = n·u/(1 − n·u), u = 2⁻²⁴, μ = 2⁻¹⁵⁰.",
    scope="for all binary32 inputs, every parenthesisation of rounded products and additions (no FMA), at fan-ins "
    "n = 1…64, 128, 256, 512, 1024 (bounded): a generic addition node (z3 over ℝ) and structural induction, "
    "γ conditions exactly" + PROOF_NOTE,
    expect=Expect.HOLDS,
    lean="FloatBridge.dot_close",
    uses=("lean_mlp.float.rounding_model",),
)
def dot_close(ctx):
    """The γₙ lemma (Higham Thm 3.1/Lemma 3.3), proved order-independently. A summation tree's
    node adds two subtrees (k₁ + k₂ = k leaves) and rounds once (η = 0): z3 proves the node keeps
    |ŝ − s| ≤ γ_{k−1}·∑|leaves| from the subtrees' γ_{kᵢ−1} bounds, given γ monotone and
    u + (1+u)γ_{k−2} ≤ γ_{k−1} (checked exactly for every k ≤ 1025); structural induction covers
    every order. The rounded products (leaf lemma) and the combination give
    γ_m·S + n·μ·(1 + γ_{m−1}); the stated ``dot_err`` is shown to dominate it at every fan-in
    (its coefficients in S, exactly). A failed proof is searched for a float32 counterexample
    re-checked exactly (the mutation tests).

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_limited`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_log_uniform`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_dot_instances`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_dot_exact_recheck`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_pairwise_exact`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_dot`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    Survives mutation: DOT_LENGTHS = (: the fan-ins the fallback search samples; the proof covers its own fan-ins
    """
    return prove_dot(ctx)


def prove_cot_step(ctx: Any, fmt: b32.Format = b32.BINARY32) -> Verdict:
    from obligations.lean_mlp import float_lemmas as fl

    def build(acc: Any) -> None:
        fl.layer_lemmas(acc)
        acc.add(*fl.layer_dominance(fmt, fl.FANINS, bias=False))

    proof = _lemma_proof(build, "z3 over ℝ (termwise bounds, mask agreement, layer error) + layerBudget dominance (sympy)",
                         "BOUNDED", fl.FANIN_TEXT + " (contraction length m)")
    return _falsify(proof, check_cot_step, ctx, fmt)


@obligation(
    id="lean_mlp.float.cot_step_close",
    source=Source(DOC4, "mlp_w1_grad_close: … the masked W₂ᵀ contraction (cot_step_close, under the quantitative margin E₁ < |z₁ⱼ|)"),
    statement="Under the margin |z̃ − z| ≤ E < min|z|, the float masked contraction mask(z̃, fl(Wᵀc̃)) is within "
    "layerBudget(u, m, w, C, 0, ec) of mask(z, Wᵀc), per entry (|W| ≤ w, |c| ≤ C, |c̃ − c| ≤ ec, m terms).",
    scope="for all real W, c, z, z̃ and binary32 operands, every summation order, at m = 1…64, 128, 256, 512, 1024 "
    "(bounded; z3 over ℝ on the summed termwise bounds)" + PROOF_NOTE,
    expect=Expect.HOLDS,
    lean="FloatBridge.cot_step_close",
    uses=("lean_mlp.float.dot_close", "lean_mlp.float.relu_exact_in_float"),
)
def cot_step_close(ctx):
    """``cot_step_close``: z3 proves the margin keeps the masks equal (|z̃ − z| ≤ E < |z| ⇒ same
    sign), the termwise bounds |Wc̃| ≤ w(C + ec), |W(c̃ − c)| ≤ w·ec (summed over the m terms),
    and that the dot lemma at c̃ plus the input error give m·w·ec + γ_m·m·w·(C + ec) + m·μ(1 + γ_{m−1})
    for the masked entries; sympy shows the stated ``layer_budget`` dominates it at every m.

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_limited`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_log_uniform`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_cot_step`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    """
    return prove_cot_step(ctx)


def prove_head(ctx: Any, fmt: b32.Format = b32.BINARY32, classes: tuple[int, ...] | None = None) -> Verdict:
    from obligations.lean_mlp import float_lemmas as fl

    classes = classes or tuple(m for m in fl.FANINS if m >= 2)

    def build(acc: Any) -> None:
        fl.head_lemmas(acc)
        fl.exp_facts(acc)
        acc.add(*fl.cot_err_matches(fmt, classes))
        with timed() as t:
            ok = fmt.exp_rel <= Fraction(1, 2**16) and all(b32.BINARY32.gamma(m - 1) <= Fraction(1, 16) for m in classes)
            acc.add(ok, t.step("exact", "fractions", "side conditions: ε ≤ 2⁻¹⁶ and γ_(m−1) ≤ 1/16", "hold" if ok else "fail"))

    proof = _lemma_proof(build, "z3 over ℝ (ratio sandwich, factors, entry, label) + sympy (eˣ ≤ 1/(1−x), cotErr formula)",
                         "BOUNDED", "m = " + ", ".join(map(str, (classes[0], classes[1], "…", classes[-1]))) + " classes")
    return _falsify(proof, check_head, ctx, fmt)


@obligation(
    id="lean_mlp.float.softmax_ce_cot_close",
    source=Source(DOC4, "mlp_w1_grad_close: … the head (softmax_ce_cot_close, accuracy cotErr)"),
    statement="If the library exp is within ε = 4·2⁻²³ relatively of eˢ on [−81, 0] (hypothesis), the float "
    "softmax−onehot head at float logits t̃ with |t̃ − t|∞ ≤ δ is within cotErr(u, m, δ, spread(t) + 2δ) "
    "of softmax(t) − onehot, per entry, for 2δ < 1 and logit spread + 2δ < 80.",
    scope="for all real logits and every summation order of the softmax sum, at m = 2…64, 128, 256, 512, 1024 "
    "classes (bounded); exp's accuracy is a hypothesis, checked at the concrete network by `obligations discharge`"
    + PROOF_NOTE,
    expect=Expect.HOLDS,
    lean="FloatBridge.softmax_ce_cot_close",
    uses=("lean_mlp.float.rounding_model", "lean_mlp.float.dot_close"),
)
def softmax_ce_cot_close(ctx):
    """``softmax_ce_cot_close``, with exp's accuracy as the hypothesis the Lean ``FloatModel``
    carries (``expErr``). The float head's steps are each one rounding (the model) except exp:
    z3 proves fl(t̃ₖ − M) ∈ [−81, 0] within u·G of t̃ₖ − M; writing eₖ = e^{tₖ−M}·ρₖ with
    ρₖ ∈ [(1−ε)/(yz), yz(1+ε)], y = e^δ, z = e^{uG} (exp increasing, e^{a+b} = e^a e^b), the sum of
    the positive eₖ within γ_{m−1} (dot lemma), z3 proves the ratio sandwich, the factor bounds
    against H (y² ≤ 1/(1−2δ), z ≤ 1/(1−uG): eˣ ≤ 1/(1−x), sympy), the entry bound (H−1)·P + μ and
    the label's rounded −1; sympy shows the stated ``cot_err`` is that formula at every m.
    numpy's exp is not an IEEE operation: its accuracy is a hypothesis here, evidence for it is
    ``lean_mlp.float.exp_accuracy``, and ``obligations discharge`` checks it at the network.

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_limited`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_log_uniform`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_err_interval`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_head`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    """
    return prove_head(ctx)


def prove_grad(ctx: Any, layer: str, fmt: b32.Format = b32.BINARY32, shapes: tuple | None = None) -> Verdict:
    from obligations.lean_mlp import float_lemmas as fl

    shapes = shapes or fl.SHAPES

    def build(acc: Any) -> None:
        fl.glue_lemmas(acc)
        fl.layer_lemmas(acc)
        fans = sorted({d for s in shapes for d in s})
        with timed() as t:
            ok = set(fans) <= set(fl.FANINS)
            acc.add(ok, t.step("exact", "python", "every fan-in of the shapes is one the part lemmas are proved at",
                               "yes" if ok else "no"))
        acc.add(*fl.layer_dominance(fmt, fans, bias=True))
        acc.add(*fl.layer_dominance(fmt, fans, bias=False))
        for dims in shapes:
            for ok_step in _composition_steps(dims):
                acc.add(*ok_step)

    proof = _lemma_proof(build, "the part lemmas composed: glue lemmas (z3 over ℝ), layerBudget dominance and "
                         "compose() = the Lean nesting (sympy) at every shape", "BOUNDED", fl.SHAPE_TEXT)
    return _falsify(proof, check_grad, ctx, layer, fmt)


_GRAD_PROOF_SCOPE = ("for all real weights, biases and inputs meeting the stated bounds and margins, every summation order, "
                     "at the shapes d = (3,4,4,3) (the example network), (3,4,5,2), (3,4,3,2), (6,10,8,4), (5,7,6,4), "
                     "(24,32,16,10), (256,8,8,4), (16,256,8,4), (16,8,256,10) (bounded); exp's accuracy a hypothesis"
                     + PROOF_NOTE)


@obligation(
    id="lean_mlp.float.linear_grad_close",
    source=Source(DOC4, "mlp_output_float_sgd_descends: … its accuracy η = mulErr u a 1 0 (cotErr …) is proven (by linear_grad_close)"),
    statement="The binary32 output-layer gradient fl(a₁ᵢ·c̃₂ⱼ) of the linear net at the exact activation a₁ is within "
    "η = mulErr(u, A₁, 1, 0, cotErr(u, d₃, δ, spread + 2δ)), δ = layerBudget(u, d₂, w₂, A₁, β₂, 0), "
    "of a₁ᵢ·(softmax − onehot)ⱼ.",
    scope=_GRAD_PROOF_SCOPE,
    expect=Expect.HOLDS,
    lean="FloatBridge.linear_grad_close",
    uses=("lean_mlp.float.softmax_ce_cot_close", "lean_mlp.float.mul_close", "lean_mlp.float.dot_close"),
)
def linear_grad_close(ctx):
    """``linear_grad_close``: the forward dense layer (dot lemma with bias: layerBudget, sympy
    dominance), the head (softmax_ce_cot_close, with the float logits' spread ≤ spread + 2δ,
    z3), the final multiply (mul_close, |softmax − onehot| ≤ 1), composed exactly as
    :func:`binary32.compose` does (sympy: the nested Lean expression) at every shape.

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_limited`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_err_interval`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_grad_batch`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_bounds`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_exact_instance`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_grad`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    """
    return prove_grad(ctx, "W2")


@obligation(
    id="lean_mlp.float.mlp_w1_grad_close",
    source=Source(DOC4, "mlp_w1_grad_close"),
    statement="Under the layer-1 rounding margin E₁ < min|z₁|, the binary32 W₁ gradient fl(a₀ᵢ·c̃₁ⱼ), "
    "c̃₁ = mask(z̃₁, W₂ᵀ·c̃₂) at the float pre-activation and the float head, is within "
    "η = mulErr(u, A₀, layerAct(d₃, w₂, 1), 0, layerBudget(u, d₃, w₂, 1, 0, cotErr(…))) of the certified gradient.",
    scope=_GRAD_PROOF_SCOPE,
    expect=Expect.HOLDS,
    lean="FloatBridge.mlp_w1_grad_close",
    uses=("lean_mlp.float.softmax_ce_cot_close", "lean_mlp.float.cot_step_close", "lean_mlp.float.mul_close"),
)
def mlp_w1_grad_close(ctx):
    """``mlp_w1_grad_close``: forward z̃₁ within E₁ (layerBudget), ReLU exact and 1-Lipschitz
    (ã₁ within E₁), logits within δ, the head (cotErr), the masked W₂ᵀ step (cot_step_close under
    E₁ < |z₁|; |W₂ᵀc| ≤ layerAct), the final multiply (mul_close, ea = 0); the composition is
    compose()'s, shown equal to the Lean nesting at every shape (sympy).

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_limited`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_err_interval`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_grad_batch`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_bounds`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_exact_instance`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_grad`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    """
    return prove_grad(ctx, "W1")


@obligation(
    id="lean_mlp.float.mlp_w0_grad_close",
    source=Source(DOC4, "mlp_w0_grad_close"),
    statement="Under both rounding margins E₀ < min|z₀| and E₁ < min|z₁|, the binary32 W₀ gradient fl(xᵢ·c̃₀ⱼ), "
    "c̃₀ = mask(z̃₀, W₁ᵀ·mask(z̃₁, W₂ᵀ·c̃₂)), is within η = mulErr(u, X, C₀, 0, layerBudget(u, d₂, w₁, C₁, 0, "
    "layerBudget(u, d₃, w₂, 1, 0, cotErr(…)))) of the certified gradient.",
    scope=_GRAD_PROOF_SCOPE,
    expect=Expect.HOLDS,
    lean="FloatBridge.mlp_w0_grad_close",
    uses=("lean_mlp.float.softmax_ce_cot_close", "lean_mlp.float.cot_step_close", "lean_mlp.float.mul_close"),
)
def mlp_w0_grad_close(ctx):
    """``mlp_w0_grad_close``: as the W₁ case with one more forward layer (E₀ into E₁) and one
    more masked contraction (W₁ᵀ under E₀ < |z₀|), composed at every shape.

    Survives mutation: in `_falsify`: a proved proof is returned as it is; run on a proved proof, the search finds no counterexample and the proof is returned too
    Survives mutation: in `_screen`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_limited`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_err_interval`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_grad_batch`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_bounds`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `_exact_instance`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: in `check_grad`: the float32 search runs only when the proof does not go through (it looks for a counterexample to report); the status rests on the proof
    Survives mutation: SLACK = 2.0**-40: the float64 screening's slack, used only by the fallback search
    """
    return prove_grad(ctx, "W0")
