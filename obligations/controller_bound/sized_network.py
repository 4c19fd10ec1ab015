"""The two-layer matrix network of :mod:`.network` for every width, and Theorem 2 / Corollary 1 over it.

Network: ``s ∈ ℝ^m``, ``h = relu(W₁s + b₁) ∈ ℝ^k``, ``π(s) = relu(W₂h + b₂) ∈ ℝ^n`` (ReLU at the output
too, as in the review's falsifier), for every ``n, k, m ≥ 1``.

**Operator norms by their defining property.** A sized claim cannot compute a spectral norm ‖W‖₂.
Each one the statements use is a scalar ``w ≥ 0`` with the hypothesis ``‖W v‖² ≤ w²‖v‖²`` *only at the
vectors v the proof needs* (the layer input, or the difference of two layer inputs). The true ‖W‖₂
satisfies that hypothesis at every v, so each claim here, read with ``w = ‖W‖₂``, is the statement;
and since it asks the inequality only at those vectors, the claim is a *stronger* theorem than the
statement with the true operator norm — proving it proves the statement. ℓ2 norms are not square
roots: ``‖s‖`` and ``‖b₁‖`` are scalars ``ns, nb ≥ 0`` with ``ns² = ‖s‖²``, ``nb² = ‖b₁‖²``, and a bound
``‖Δπ‖ ≤ B`` (both sides ≥ 0) is stated squared, ``‖Δπ‖² ≤ B²``.

Proofs: induction over the output width n (z3 base, step and close); the step is the output ReLU's
1-Lipschitz bound entry by entry (with the linearity of the dot product, :data:`DOT_ADD` and
:data:`DOT_SUB`), the close combines lemmas over the hidden width: :data:`LAYER_LIPSCHITZ` (the first
layer moves by at most ‖δW₁ s‖), :data:`HIDDEN_NORM` (‖h‖ ≤ w₁‖s‖ + ‖b₁‖) and :data:`TRIANGLE_L2` (the
triangle inequality, squared), each proved by induction with Cauchy–Schwarz from the library.
"""

from __future__ import annotations

from typing import Any

from checker.backends import induction, library
from checker.claims import sized_claim
from checker.kernel.model import Context, Verdict

SIZES = "n:nat[1,] k:nat[1,] m:nat[1,]"
"""Output width n, hidden width k, input width m."""


# ---------------------------------------------------------------------------------------
# Lemmas for every length
# ---------------------------------------------------------------------------------------

DOT_ADD = sized_claim(
    "dot-add-left", "m:nat[0,]", "a[m] c[m] x[m]",
    lambda o, v: o.eq(o.dot(v.a + v.c, v.x), o.dot(v.a, v.x) + o.dot(v.c, v.x)))
"""(a + c)·x = a·x + c·x."""
DOT_SUB = sized_claim(
    "dot-sub-right", "m:nat[0,]", "a[m] x[m] y[m]",
    lambda o, v: o.eq(o.dot(v.a, v.x) - o.dot(v.a, v.y), o.dot(v.a, v.x - v.y)))
"""a·x − a·y = a·(x − y)."""
SUMSQ_EXPAND = sized_claim(
    "sumsq-expand", "n:nat[0,]", "x[n] y[n]",
    lambda o, v: o.eq(o.sumsq(v.x + v.y), o.sumsq(v.x) + 2 * o.dot(v.x, v.y) + o.sumsq(v.y)))
"""‖x + y‖² = ‖x‖² + 2x·y + ‖y‖²."""
TRIANGLE_L2 = sized_claim(
    "triangle-l2-squared", "n:nat[0,]", "x[n] y[n]",
    lambda o, v: o.le(o.sumsq(v.x + v.y), (v.a + v.c) * (v.a + v.c)),
    {"‖x‖ ≤ a": lambda o, v: o.le(o.sumsq(v.x), v.a * v.a), "‖y‖ ≤ c": lambda o, v: o.le(o.sumsq(v.y), v.c * v.c)},
    scalars="a:real[0,] c:real[0,]")
"""The triangle inequality in ℓ2, squared: ‖x‖ ≤ a and ‖y‖ ≤ c give ‖x + y‖ ≤ a + c."""
RELU_SHRINKS = sized_claim(
    "relu-shrinks-l2", "n:nat[0,]", "z[n]", lambda o, v: o.le(o.sumsq(o.relu(v.z)), o.sumsq(v.z)))
"""‖relu z‖² ≤ ‖z‖²."""
LAYER_LIPSCHITZ = sized_claim(
    "relu-layer-weight-lipschitz", "k:nat[0,] m:nat[1,]", "s[m] W[k,m] D[k,m] b[k]",
    lambda o, v: o.le(o.sumsq(o.relu((v.W + v.D) @ v.s + v.b) - o.relu(v.W @ v.s + v.b)), o.sumsq(v.D @ v.s)))
"""A ReLU layer moves by at most ‖δW s‖ when its weights move by δW: ‖relu((W + δW)s + b) − relu(Ws + b)‖² ≤ ‖δW s‖²."""
HIDDEN_NORM = sized_claim(
    "relu-layer-norm", "k:nat[0,] m:nat[1,]", "s[m] W[k,m] b[k]",
    lambda o, v: o.le(o.sumsq(o.relu(v.W @ v.s + v.b)), (v.w * v.ns + v.nb) * (v.w * v.ns + v.nb)),
    {"ns = ‖s‖": lambda o, v: o.eq(v.ns * v.ns, o.sumsq(v.s)), "nb = ‖b‖": lambda o, v: o.eq(v.nb * v.nb, o.sumsq(v.b)),
     "‖W s‖ ≤ w‖s‖": lambda o, v: o.le(o.sumsq(v.W @ v.s), v.w * v.w * o.sumsq(v.s))},
    scalars="w:real[0,] ns:real[0,] nb:real[0,]")
"""‖relu(Ws + b)‖ ≤ w‖s‖ + ‖b‖ when ‖Ws‖ ≤ w‖s‖ (squared)."""


def _cs(x, y) -> induction.Use:
    return library.use("cauchy_schwarz", x=x, y=y)


_LEMMAS: dict[str, Verdict] = {}


def lemmas(ctx: Context | None = None) -> dict[str, Verdict]:
    """Each lemma's proof (induction), by name; proved once per process, like the library's."""
    if not _LEMMAS:
        _LEMMAS.update(_prove_lemmas(ctx))
    return dict(_LEMMAS)


def _prove_lemmas(ctx: Context | None) -> dict[str, Verdict]:
    out: dict[str, Verdict] = {}
    out[DOT_ADD.name] = induction.prove(DOT_ADD, "m", ctx)
    out[DOT_SUB.name] = induction.prove(DOT_SUB, "m", ctx)
    out[SUMSQ_EXPAND.name] = induction.prove(SUMSQ_EXPAND, "n", ctx)
    out[RELU_SHRINKS.name] = induction.prove(RELU_SHRINKS, "n", ctx)
    expand = induction.Use(SUMSQ_EXPAND, out[SUMSQ_EXPAND.name], {"x": lambda s: s.x, "y": lambda s: s.y})
    out[TRIANGLE_L2.name] = induction.prove(
        TRIANGLE_L2, "n", ctx, invariant=lambda o, v: o.ge(o.sumsq(v.x), 0),
        uses=[expand, _cs(lambda s: s.x, lambda s: s.y), library.use("sumsq_nonneg", x=lambda s: s.y)])
    dot_add = induction.Use(DOT_ADD, out[DOT_ADD.name], {"a": lambda s: s.new("W"), "c": lambda s: s.new("D"), "x": lambda s: s.s})
    out[LAYER_LIPSCHITZ.name] = induction.prove(LAYER_LIPSCHITZ, "k", ctx, uses=[dot_add])
    out[HIDDEN_NORM.name] = induction.prove(
        HIDDEN_NORM, "k", ctx, invariant=lambda o, v: o.ge(o.sumsq(v.b), 0), uses=[
            induction.Use(RELU_SHRINKS, out[RELU_SHRINKS.name], {"z": lambda s: s.W @ s.s + s.b}),
            induction.Use(TRIANGLE_L2, out[TRIANGLE_L2.name], {"x": lambda s: s.W @ s.s, "y": lambda s: s.b,
                                                               "a": lambda s: s.w * s.ns, "c": lambda s: s.nb})])
    return out


# ---------------------------------------------------------------------------------------
# The network and Theorem 2 for every width
# ---------------------------------------------------------------------------------------


def hidden(o: Any, s: Any, w1: Any, b1: Any) -> Any:
    """h = relu(W₁s + b₁)."""
    return o.relu(w1 @ s + b1)


def output(o: Any, h: Any, w2: Any, b2: Any) -> Any:
    """π = relu(W₂h + b₂)."""
    return o.relu(w2 @ h + b2)


def _sq(x: Any) -> Any:
    return x * x


# Layer 1 perturbed: h' = relu((W₁ + δW₁)s + b₁), h = relu(W₁s + b₁).
def _t1_dev(o, v):
    return o.sumsq(output(o, hidden(o, v.s, v.W1 + v.D, v.b1), v.W2, v.b2) - output(o, hidden(o, v.s, v.W1, v.b1), v.W2, v.b2))


def _t1_bound(o, v):
    return v.w2 * v.w2 * v.d * v.d * o.sumsq(v.s)


THEOREM2_LAYER1 = sized_claim(
    "theorem2-layer1-every-width", SIZES, "s[m] W1[k,m] b1[k] W2[n,k] b2[n] D[k,m]",
    lambda o, v: o.le(_t1_dev(o, v), _t1_bound(o, v)),
    {"‖W₂v‖ ≤ w₂‖v‖ at v = h' − h": lambda o, v: o.le(
        o.sumsq(v.W2 @ (hidden(o, v.s, v.W1 + v.D, v.b1) - hidden(o, v.s, v.W1, v.b1))),
        v.w2 * v.w2 * o.sumsq(hidden(o, v.s, v.W1 + v.D, v.b1) - hidden(o, v.s, v.W1, v.b1))),
     "‖δW₁s‖ ≤ d‖s‖": lambda o, v: o.le(o.sumsq(v.D @ v.s), v.d * v.d * o.sumsq(v.s))},
    {"‖Δπ‖²": _t1_dev, "(C₁(s)‖δW₁‖)²": _t1_bound},
    scalars="w2:real[0,] d:real[0,]")
"""Theorem 2, layer 1, squared: ‖π(s; W₁ + δW₁) − π(s; W₁)‖² ≤ (‖W₂‖·‖s‖·‖δW₁‖)² = (C₁(s)‖δW₁‖)², with
w₂, d standing for ‖W₂‖₂, ‖δW₁‖₂ through their defining inequality at the vectors used."""


def _t2_dev(o, v):
    h = hidden(o, v.s, v.W1, v.b1)
    return o.sumsq(output(o, h, v.W2 + v.D, v.b2) - output(o, h, v.W2, v.b2))


def _t2_bound(o, v):
    return _sq(v.d * (v.w1 * v.ns + v.nb))


THEOREM2_LAYER2 = sized_claim(
    "theorem2-layer2-every-width", SIZES, "s[m] W1[k,m] b1[k] W2[n,k] b2[n] D[n,k]",
    lambda o, v: o.le(_t2_dev(o, v), _t2_bound(o, v)),
    {"ns = ‖s‖": lambda o, v: o.eq(v.ns * v.ns, o.sumsq(v.s)),
     "nb = ‖b₁‖": lambda o, v: o.eq(v.nb * v.nb, o.sumsq(v.b1)),
     "‖W₁s‖ ≤ w₁‖s‖": lambda o, v: o.le(o.sumsq(v.W1 @ v.s), v.w1 * v.w1 * o.sumsq(v.s)),
     "‖δW₂h‖ ≤ d‖h‖ at h = relu(W₁s + b₁)": lambda o, v: o.le(
         o.sumsq(v.D @ hidden(o, v.s, v.W1, v.b1)), v.d * v.d * o.sumsq(hidden(o, v.s, v.W1, v.b1)))},
    {"‖Δπ‖²": _t2_dev, "(C₂(s)‖δW₂‖)²": _t2_bound},
    scalars="w1:real[0,] d:real[0,] ns:real[0,] nb:real[0,]")
"""Theorem 2, layer 2, squared: ‖π(s; W₂ + δW₂) − π(s; W₂)‖² ≤ (‖δW₂‖·(‖W₁‖‖s‖ + ‖b₁‖))² = (C₂(s)‖δW₂‖)²."""


def prove_theorem2(ctx: Context | None = None) -> dict[str, Verdict]:
    """Both layers of Theorem 2 for every width: induction over the output width n."""
    lm = lemmas(ctx)
    h1 = lambda s: hidden(s.o, s.s, s.W1 + s.D, s.b1)  # noqa: E731
    h0 = lambda s: hidden(s.o, s.s, s.W1, s.b1)  # noqa: E731
    layer1 = induction.prove(
        THEOREM2_LAYER1, "n", ctx,
        invariant=lambda o, v: o.le(_t1_dev(o, v), o.sumsq(v.W2 @ (hidden(o, v.s, v.W1 + v.D, v.b1) - hidden(o, v.s, v.W1, v.b1)))),
        uses=[induction.Use(DOT_SUB, lm[DOT_SUB.name], {"a": lambda s: s.new("W2"), "x": h1, "y": h0}),
              induction.Use(LAYER_LIPSCHITZ, lm[LAYER_LIPSCHITZ.name],
                            {"s": lambda s: s.s, "W": lambda s: s.W1, "D": lambda s: s.D, "b": lambda s: s.b1})])
    layer2 = induction.prove(
        THEOREM2_LAYER2, "n", ctx,
        invariant=lambda o, v: o.le(_t2_dev(o, v), o.sumsq(v.D @ hidden(o, v.s, v.W1, v.b1))),
        uses=[induction.Use(DOT_ADD, lm[DOT_ADD.name], {"a": lambda s: s.new("W2"), "c": lambda s: s.new("D"), "x": h0}),
              induction.Use(HIDDEN_NORM, lm[HIDDEN_NORM.name],
                            {"s": lambda s: s.s, "W": lambda s: s.W1, "b": lambda s: s.b1, "w": lambda s: s.w1,
                             "ns": lambda s: s.ns, "nb": lambda s: s.nb})])
    return {THEOREM2_LAYER1.name: layer1, THEOREM2_LAYER2.name: layer2}


# ---------------------------------------------------------------------------------------
# Corollary 1: both layers perturbed, constants on the intermediate network
# ---------------------------------------------------------------------------------------

BOTH = "s[m] W1[k,m] b1[k] W2[n,k] b2[n] D1[k,m] D2[n,k]"


def _h0(o, v):
    return hidden(o, v.s, v.W1, v.b1)


def _h1(o, v):
    return hidden(o, v.s, v.W1 + v.D1, v.b1)


def _both_dev(o, v):
    """‖π(s; W₁ + δW₁, W₂ + δW₂) − π(s; W₁, W₂)‖²."""
    return o.sumsq(output(o, _h1(o, v), v.W2 + v.D2, v.b2) - output(o, _h0(o, v), v.W2, v.b2))


def _norm_hyps() -> dict:
    return {"ns = ‖s‖": lambda o, v: o.eq(v.ns * v.ns, o.sumsq(v.s)),
            "nb = ‖b₁‖": lambda o, v: o.eq(v.nb * v.nb, o.sumsq(v.b1)),
            "‖δW₁s‖ ≤ d₁‖s‖": lambda o, v: o.le(o.sumsq(v.D1 @ v.s), v.d1 * v.d1 * o.sumsq(v.s))}


def _increasing_hyps() -> dict:
    return {**_norm_hyps(),
            "‖W₂v‖ ≤ w₂‖v‖ at v = h' − h": lambda o, v: o.le(o.sumsq(v.W2 @ (_h1(o, v) - _h0(o, v))),
                                                             v.w2 * v.w2 * o.sumsq(_h1(o, v) - _h0(o, v))),
            "‖(W₁ + δW₁)s‖ ≤ w₁'‖s‖": lambda o, v: o.le(o.sumsq((v.W1 + v.D1) @ v.s), v.w1p * v.w1p * o.sumsq(v.s)),
            "‖δW₂h'‖ ≤ d₂‖h'‖ at h' = relu((W₁ + δW₁)s + b₁)": lambda o, v: o.le(
                o.sumsq(v.D2 @ _h1(o, v)), v.d2 * v.d2 * o.sumsq(_h1(o, v)))}


def _corrected_bound(o, v):
    """(C₁(s)‖δW₁‖ + C₂'(s)‖δW₂‖)², C₁ = ‖W₂‖‖s‖, C₂' = ‖W₁ + δW₁‖‖s‖ + ‖b₁‖."""
    return _sq(v.w2 * v.ns * v.d1 + (v.w1p * v.ns + v.nb) * v.d2)


CORRECTED = sized_claim(
    "corollary1-corrected-every-width", SIZES, BOTH,
    lambda o, v: o.le(_both_dev(o, v), _corrected_bound(o, v)), _increasing_hyps(),
    {"‖Δπ‖²": _both_dev, "(C₁‖δW₁‖ + C₂'‖δW₂‖)²": _corrected_bound},
    scalars="w2:real[0,] d1:real[0,] w1p:real[0,] d2:real[0,] ns:real[0,] nb:real[0,]")
"""Corollary 1 corrected (layers 1 then 2), squared, for every width."""


def _decreasing_bound(o, v):
    """(C₂(s)‖δW₂‖ + C₁'(s)‖δW₁‖)², C₂ = ‖W₁‖‖s‖ + ‖b₁‖, C₁' = ‖W₂ + δW₂‖‖s‖."""
    return _sq((v.w1 * v.ns + v.nb) * v.d2 + v.w2p * v.ns * v.d1)


DECREASING = sized_claim(
    "corollary1-corrected-decreasing-every-width", SIZES, BOTH,
    lambda o, v: o.le(_both_dev(o, v), _decreasing_bound(o, v)),
    {**_norm_hyps(),
     "‖W₁s‖ ≤ w₁‖s‖": lambda o, v: o.le(o.sumsq(v.W1 @ v.s), v.w1 * v.w1 * o.sumsq(v.s)),
     "‖δW₂h‖ ≤ d₂‖h‖ at h = relu(W₁s + b₁)": lambda o, v: o.le(o.sumsq(v.D2 @ _h0(o, v)), v.d2 * v.d2 * o.sumsq(_h0(o, v))),
     "‖(W₂ + δW₂)v‖ ≤ w₂'‖v‖ at v = h' − h": lambda o, v: o.le(
         o.sumsq((v.W2 + v.D2) @ (_h1(o, v) - _h0(o, v))), v.w2p * v.w2p * o.sumsq(_h1(o, v) - _h0(o, v)))},
    {"‖Δπ‖²": _both_dev, "(C₂‖δW₂‖ + C₁'‖δW₁‖)²": _decreasing_bound},
    scalars="w1:real[0,] d2:real[0,] w2p:real[0,] d1:real[0,] ns:real[0,] nb:real[0,]")
"""The corrected bound in decreasing order (layer 2 then 1), squared, for every width."""


def _eq10_bound(o, v):
    """Eq. (10) with the unpruned constants, squared: (C₁(s)‖δW₁‖ + C₂(s)‖δW₂‖)², C₂ = ‖W₁‖‖s‖ + ‖b₁‖."""
    return _sq(v.w2 * v.ns * v.d1 + (v.w1 * v.ns + v.nb) * v.d2)


NONINCREASING = sized_claim(
    "eq10-norms-nonincreasing-every-width", SIZES, BOTH,
    lambda o, v: o.le(_both_dev(o, v), _eq10_bound(o, v)),
    {**_increasing_hyps(), "‖W₁ + δW₁‖ ≤ ‖W₁‖": lambda o, v: o.le(v.w1p, v.w1)},
    {"‖Δπ‖²": _both_dev, "(C₁‖δW₁‖ + C₂‖δW₂‖)²": _eq10_bound},
    scalars="w2:real[0,] d1:real[0,] w1p:real[0,] d2:real[0,] ns:real[0,] nb:real[0,] w1:real[0,]")
"""Eq. (10) for two layers of every width when the pruned first layer's norm does not grow, squared."""


def _chain(ctx: Context | None, claim: Any, middle: Any, first: tuple, second: tuple, a: Any, c: Any) -> Verdict:
    """``claim`` from the chain π₀ → π₁ → π₂ (``middle(o, v)`` is π₁): Theorem 2 for the step π₀ → π₁
    (``first``: the lemma and its binding) and for π₁ → π₂ (``second``), then the squared triangle
    inequality with ‖π₂ − π₁‖ ≤ ``a`` and ‖π₁ − π₀‖ ≤ ``c``. Induction over the output width carries
    ‖π₂ − π₀‖² = ‖(π₂ − π₁) + (π₁ − π₀)‖²; the closing query combines the three lemmas."""
    lm, t2 = lemmas(ctx), prove_theorem2(ctx)

    def ends(o, v):
        return output(o, _h0(o, v), v.W2, v.b2), middle(o, v), output(o, _h1(o, v), v.W2 + v.D2, v.b2)

    def invariant(o, v):
        p0, p1, p2 = ends(o, v)
        return o.eq(o.sumsq(p2 - p0), o.sumsq((p2 - p1) + (p1 - p0)))

    def later(s):
        _, p1, p2 = ends(s.o, s)
        return p2 - p1

    def earlier(s):
        p0, p1, _ = ends(s.o, s)
        return p1 - p0

    uses = [induction.Use(lemma, t2[lemma.name], bind) for lemma, bind in (first, second)]
    uses.append(induction.Use(TRIANGLE_L2, lm[TRIANGLE_L2.name], {"x": later, "y": earlier, "a": a, "c": c}))
    return induction.prove(claim, "n", ctx, invariant=invariant, uses=uses)


def _same(*names: str) -> dict:
    return {n: (lambda s, n=n: s[n]) for n in names}


def prove_corrected(ctx: Context | None = None) -> Verdict:
    """Layers 1 then 2: Theorem 2 (layer 1) at Θ₀, then Theorem 2 (layer 2) at Θ₁ = (W₁ + δW₁, W₂)."""
    return _chain(
        ctx, CORRECTED, lambda o, v: output(o, _h1(o, v), v.W2, v.b2),
        (THEOREM2_LAYER1, {**_same("s", "W1", "b1", "W2", "b2", "w2"), "D": lambda s: s.D1, "d": lambda s: s.d1}),
        (THEOREM2_LAYER2, {**_same("s", "b1", "W2", "b2", "ns", "nb"), "W1": lambda s: s.W1 + s.D1,
                           "D": lambda s: s.D2, "w1": lambda s: s.w1p, "d": lambda s: s.d2}),
        a=lambda s: (s.w1p * s.ns + s.nb) * s.d2, c=lambda s: s.w2 * s.ns * s.d1)


def prove_decreasing(ctx: Context | None = None) -> Verdict:
    """Layers 2 then 1: Theorem 2 (layer 2) at Θ₀, then Theorem 2 (layer 1) at Θ₁ = (W₁, W₂ + δW₂)."""
    return _chain(
        ctx, DECREASING, lambda o, v: output(o, _h0(o, v), v.W2 + v.D2, v.b2),
        (THEOREM2_LAYER2, {**_same("s", "W1", "b1", "W2", "b2", "w1", "ns", "nb"), "D": lambda s: s.D2,
                           "d": lambda s: s.d2}),
        (THEOREM2_LAYER1, {**_same("s", "W1", "b1", "b2"), "W2": lambda s: s.W2 + s.D2, "D": lambda s: s.D1,
                           "w2": lambda s: s.w2p, "d": lambda s: s.d1}),
        a=lambda s: s.w2p * s.ns * s.d1, c=lambda s: (s.w1 * s.ns + s.nb) * s.d2)


def prove_nonincreasing(ctx: Context | None = None, corrected: Verdict | None = None) -> Verdict:
    """Eq. (10) from the corrected bound: its constant C₂' = ‖W₁ + δW₁‖‖s‖ + ‖b₁‖ is at most C₂ when
    ‖W₁ + δW₁‖ ≤ ‖W₁‖ (every factor ≥ 0). Induction over the output width with ‖Δπ‖² ≥ 0 carried; the
    closing query uses the corrected bound at the same arrays."""
    corrected = corrected if corrected is not None else prove_corrected(ctx)
    bind = {a.name: (lambda s, n=a.name: s[n]) for a in CORRECTED.arrays}
    bind.update({n: (lambda s, n=n: s[n]) for n, _ in CORRECTED.scalars})
    return induction.prove(NONINCREASING, "n", ctx, invariant=lambda o, v: o.ge(_both_dev(o, v), 0),
                           uses=[induction.Use(CORRECTED, corrected, bind)])
