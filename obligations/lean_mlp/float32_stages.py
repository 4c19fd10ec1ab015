"""FloatBridge: each stage's binary32 budget of the Lean development, checked against real
float32 — ReLU, the library exp, the final multiply (mul_close), dot products (dot_close), the
softmax−onehot head (softmax_ce_cot_close) and one masked Wᵀ contraction (cot_step_close).

The float model and the budgets are reconstructed in :mod:`.binary32` (the seeds name them
without defining them); derivations in ``docs/reconstructions/lean_mlp_float.md``. Each
obligation here compares numpy float32 computations with exact values and checks that the
error stays within the budget, in every summation order of :data:`binary32.ORDERS`
(numpy's own, forward, reverse, pairwise, two fixed random permutations).

How a comparison is made sound: :mod:`.float_screen` (float64 screening with a rigorous bound
on its own error; every instance it cannot certify is re-checked exactly, and a violation
counts only when that re-check confirms it). Sampling is evidence: these obligations are
``supported`` (or ``refuted`` with an exactly re-checked witness), never ``proved``, except
where the method is exhaustive or symbolic. The three grad-closes against float32 are in
:mod:`.float32_gradients`; the proofs of the same statements in :mod:`.float_proofs`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from checker import Expect, Source, obligation
from checker.kernel.model import Verdict
from checker.kernel.verdicts import refuted, supported, timed, unknown
from obligations.lean_mlp import binary32 as b32
from obligations.lean_mlp import float_lemmas as fl
from obligations.lean_mlp import mlp
from obligations.lean_mlp.float_screen import (SLACK, Violation, _err_interval, _fr, _limited, _log_uniform, _np, _run,
                                               _sampling_version, _screen, _vec)

DOC2 = "002_9648822bf1d4473c.txt"
DOC4 = "004_8327de8ce09705d9.txt"


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
        # the theorem is proved in floating-point theory; the enumeration checks that numpy's maximum is
        # that IEEE operation on every pattern (a cross-check of the implementation, not part of the proof)
        from obligations.grading import cross_checked

        check = supported("numpy relu on all 2³² binary32 bit patterns (exhaustive)", step, patterns=count)
        return cross_checked(fl.relu_exact(), {"numpy maximum(z, 0) on all 2³² bit patterns": check})
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
    theorem=fl.RELU_EXACT,
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
    scope="every non-NaN binary32 z: the theorem proved in floating-point theory (bitwuzla, z3 confirming; IEEE "
    "maximum and rounding), and numpy's float32 maximum(z, 0) checked to be that operation on all 2³² bit patterns on "
    "this machine (exhaustive; a cross-check of the implementation, not part of the proof; slow tier)",
    expect=Expect.HOLDS,
    lean="FloatBridge.relu_exact_in_float",
    slow=True,
    theorem=fl.RELU_EXACT,
)
def relu_exact_in_float_exhaustive(ctx):
    """As ``lean_mlp.float.relu_exact_in_float``, with the implementation checked exhaustively. The
    theorem (for every non-NaN binary32 z, the IEEE max(z, +0) is z or a zero and exact in binary32)
    is proved in floating-point theory, bitwuzla first and z3 confirming: a kernel fact over every
    bit pattern. numpy's float32 ``maximum`` is then compared bit by bit with that operation on
    every binary32 pattern (NaNs only required to stay NaN; about a minute on one core): no kernel
    rule expresses a numpy enumeration, so it is filed as a cross-check, and a mismatch (numpy is
    not the IEEE operation on this machine) leaves the result ``unknown``, never proved."""
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
    no_theorem="the accuracy of numpy's float32 exp, measured on sampled arguments: a property of a library routine, which is not a formula (a hypothesis of the head lemma, checked for every exp the float head evaluates at the concrete network)",
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
                           {"a": av, "c": ctv + dcv, "ct": ctv, "A": abs(av), "C": abs(ctv + dcv), "ec": abs(dcv), "r": flv},
                           {"fl(a·c̃)": flv, "error": e, "mulErr": bud}, step, format=fmt.name)
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
    theorem=fl.MUL_CLOSE,
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
    no_theorem="a comparison of the float32 results numpy computes with the proved budget (lean_mlp.float.dot_close): evidence about the arithmetic numpy performs, which is not a formula; the theorem is lean_mlp.float.dot_close's",
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
    no_theorem="a comparison of the float32 results numpy computes with the proved budget (lean_mlp.float.softmax_ce_cot_close): evidence about the arithmetic numpy performs, which is not a formula; the theorem is lean_mlp.float.softmax_ce_cot_close's",
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
    no_theorem="a comparison of the float32 results numpy computes with the proved budget (lean_mlp.float.cot_step_close): evidence about the arithmetic numpy performs, which is not a formula; the theorem is lean_mlp.float.cot_step_close's",
)
def cot_step_close_float32(ctx):
    """``cot_step_close`` (004): one backward step through a ReLU, c̃ ↦ mask(z̃, Wᵀ·c̃). Under the
    quantitative margin (the float pre-activation z̃ is within E of z and E < |z|) the masks
    agree, so the error is that of a bias-free contraction with an inexact input:
    ``m·w·ec + γ_m·m·w·(C + ec) + m·μ(1 + γ_{m−1})`` (:func:`binary32.layer_budget`). The near-kink
    family puts |z| just above E with z̃ pushed toward 0."""
    return _run(check_cot_step, ctx)
