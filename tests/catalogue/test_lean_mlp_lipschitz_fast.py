"""The faster routes of the Lean MLP Lipschitz obligations agree with their references."""

from __future__ import annotations

import pytest

from checker.backends import smt
from checker.backends.smt import _fast_unsat
from obligations.lean_mlp import lipschitz


@pytest.mark.parametrize("index", range(len(lipschitz.HIDDEN_LOGIT)))
def test_hidden_logit_drift_fast_route_proves_each_shape(index):
    """The case split of the hidden pre-activations with NLSAT proves each shape by itself (so the
    obligation never pays for a failed fast route), as the default route does."""
    c, (d1, d2) = lipschitz.HIDDEN_LOGIT[index], lipschitz.HIDDEN_LOGIT_SHAPES[index]
    assert _fast_unsat(c, None, (), smt.NLSAT, lipschitz.hidden_preactivations(d1, d2), 60_000)


@pytest.mark.parametrize("index", range(len(lipschitz.INPUT_LOGIT)))
def test_input_logit_drift_fast_route_proves_each_shape(index):
    c, (d0, d1, _) = lipschitz.INPUT_LOGIT[index], lipschitz.INPUT_LOGIT_SHAPES[index]
    assert _fast_unsat(c, None, (), smt.NLSAT, lipschitz.input_preactivations(d0, d1), 60_000)


def test_fast_route_does_not_prove_a_false_drift_bound():
    """The fast route finds no proof of the halved (false) hidden bound, so it cannot mask a refutation."""
    from fractions import Fraction

    bad = lipschitz.hidden_logit_drift_claim(1, 1, factor=Fraction(1, 2))
    assert not _fast_unsat(bad, None, (), smt.NLSAT, lipschitz.hidden_preactivations(1, 1), 60_000)


# --- the numpy search: batch-last folds and sums give the first version's floats bit for bit ---


def _reference_np_unpack(np, slot, P):
    """The search's parameters as first written: views of ``P`` shaped (n, *shape)."""
    d0, d1, d2, d3 = slot.dims
    out, k = {}, 0
    for name, shape in (("W0", (d0, d1)), ("b0", (d1,)), ("W1", (d1, d2)), ("b1", (d2,)), ("W2", (d2, d3)),
                        ("b2", (d3,)), ("x", (d0,))):
        size = int(np.prod(shape))
        out[name] = P[:, k:k + size].reshape((-1, *shape))
        k += size
    return out


def _reference_np_grad(np, slot, p, labels):
    """The search's batched gradient as first written (numpy reductions over the short axis)."""
    z0 = np.einsum("ni,nij->nj", p["x"], p["W0"]) + p["b0"]
    a0 = np.maximum(z0, 0)
    z1 = np.einsum("ni,nij->nj", a0, p["W1"]) + p["b1"]
    a1 = np.maximum(z1, 0)
    logits = np.einsum("ni,nij->nj", a1, p["W2"]) + p["b2"]
    logits = logits - logits.max(axis=1, keepdims=True)
    prob = np.exp(logits)
    prob /= prob.sum(axis=1, keepdims=True)
    c2 = prob.copy()
    c2[np.arange(len(labels)), labels] -= 1
    c1 = (z1 > 0) * np.einsum("nlk,nk->nl", p["W2"], c2)
    if slot.layer == "W1":
        return a0[:, :, None] * c1[:, None, :], z0, z1
    c0 = (z0 > 0) * np.einsum("njl,nl->nj", p["W1"], c1)
    return p["x"][:, :, None] * c0[:, None, :], z0, z1


def _reference_np_ratio(np, slot, P, E, fill, t, labels, constant=None):
    d0, d1, d2, d3 = slot.dims
    constant = constant or (lipschitz.hidden_constant if slot.layer == "W1" else lipschitz.input_constant)
    p = _reference_np_unpack(np, slot, P)
    g0, z0, z1 = _reference_np_grad(np, slot, p, labels)
    w1 = np.abs(p["W1"]).reshape(len(P), -1).max(axis=1)
    w2 = np.abs(p["W2"]).reshape(len(P), -1).max(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if slot.layer == "W1":
            a = np.abs(np.maximum(z0, 0)).max(axis=1)
            limit = np.minimum((np.abs(z1) / a[:, None]).min(axis=1), 1 / (2 * w2 * a))
        else:
            a = np.abs(p["x"]).max(axis=1)
            limit = np.minimum.reduce([(np.abs(z0) / a[:, None]).min(axis=1),
                                       (np.abs(z1) / (w1 * a)[:, None]).min(axis=1), 1 / (2 * d2 * w1 * w2 * a)])
        D = fill * limit
        e = E * (D / np.abs(E).sum(axis=1))[:, None]
        moved = dict(p)
        moved[slot.layer] = p[slot.layer] + (t[:, None] * e).reshape(p[slot.layer].shape)
        gt, _, _ = _reference_np_grad(np, slot, moved, labels)
        drift = np.abs(gt - g0).reshape(len(P), -1).max(axis=1)
        ratio = drift / (np.asarray(constant(d2, d3, w1, w2, a, D), dtype=float) * t * D)
    return np.nan_to_num(np.where(np.isfinite(ratio), ratio, 0.0), nan=0.0, posinf=0.0)


def _reference_adversarial_search(slot, rng, n, rounds):
    """The hill-climb as first written (batch first, einsum, numpy reductions), same draws."""
    import numpy as np

    width = len(slot.params)
    rows, cols = slot.moving_shape
    P = rng.normal(size=(n, width))
    third = n // 3
    p = _reference_np_unpack(np, slot, P)
    p["x"][third:2 * third] = np.sign(p["x"][third:2 * third]) * 1.5
    labels = rng.integers(0, slot.dims[3], size=n)
    _, z0, z1 = _reference_np_grad(np, slot, p, labels)
    logits = np.einsum("ni,nij->nj", np.maximum(z1, 0), p["W2"])
    p["b2"][2 * third:] = -logits[2 * third:] + rng.normal(scale=1e-3, size=p["b2"][2 * third:].shape)
    E = rng.normal(size=(n, rows * cols))
    E[: n // 4] = np.eye(rows * cols)[rng.integers(0, rows * cols, size=n // 4)]
    fill = np.clip(10 ** rng.uniform(-3, 0, size=n), 1e-3, 0.999)
    t = rng.choice(np.array([float(x) for x in lipschitz.T_POINTS]), size=n)
    ratio = _reference_np_ratio(np, slot, P, E, fill, t, labels)
    for _ in range(rounds):
        P2 = P + rng.normal(scale=0.1, size=P.shape)
        E2 = E + rng.normal(scale=0.1, size=E.shape)
        fill2 = np.clip(fill * np.exp(rng.normal(scale=0.3, size=n)), 1e-3, 0.999)
        t2 = np.clip(t * np.exp(rng.normal(scale=0.2, size=n)), 1e-3, 1.0)
        r2 = _reference_np_ratio(np, slot, P2, E2, fill2, t2, labels)
        better = r2 > ratio
        P, E = np.where(better[:, None], P2, P), np.where(better[:, None], E2, E)
        fill, t, ratio = np.where(better, fill2, fill), np.where(better, t2, t), np.where(better, r2, ratio)
    return lipschitz.Search(P, E, fill, t, labels, ratio)


@pytest.mark.parametrize("slot", [lipschitz.HIDDEN, lipschitz.INPUT], ids=["hidden", "input"])
def test_search_ratio_equals_the_reference_bit_for_bit(slot):
    """On the search's own kind of batch (seeded networks, near-tied logits, maximal inputs, some
    degenerate rows) the batch-last gradients and ratios are exactly the reference's."""
    import numpy as np

    rng = np.random.default_rng(20261203)
    n = 3000
    P = rng.normal(size=(n, len(slot.params)))
    P[:50] = 0.0  # degenerate rows: a = 0, infinite or undefined limits
    rows, cols = slot.moving_shape
    E = rng.normal(size=(n, rows * cols))
    fill, t = np.clip(10 ** rng.uniform(-3, 0, size=n), 1e-3, 0.999), rng.uniform(1e-3, 1, size=n)
    labels = rng.integers(0, slot.dims[3], size=n)
    got = lipschitz._np_grad(np, slot, lipschitz._np_columns(np, slot, P), labels)
    want = _reference_np_grad(np, slot, _reference_np_unpack(np, slot, P), labels)
    for g, w in zip(got, want):  # batch last against batch first
        assert np.array_equal(np.moveaxis(g, -1, 0), w, equal_nan=True)
    got = lipschitz._np_ratio(np, slot, P, E, fill, t, labels)
    assert np.array_equal(got, _reference_np_ratio(np, slot, P, E, fill, t, labels))


@pytest.mark.parametrize("slot", [lipschitz.HIDDEN, lipschitz.INPUT], ids=["hidden", "input"])
def test_search_follows_the_reference_climb(slot):
    """The whole hill-climb (same draws) ends in the same state as the search first written."""
    import numpy as np

    got = lipschitz.adversarial_search(slot, np.random.default_rng(7), n=2000, rounds=8)
    want = _reference_adversarial_search(slot, np.random.default_rng(7), n=2000, rounds=8)
    for field in ("P", "E", "fill", "t", "labels", "ratio"):
        assert np.array_equal(getattr(got, field), getattr(want, field)), field


# --- the segment claim: values reused across the points t of a segment ------------------------


@pytest.mark.parametrize("slot, general", [(lipschitz.HIDDEN, False), (lipschitz.INPUT, False),
                                           (lipschitz.HIDDEN, True), (lipschitz.INPUT, True)],
                         ids=["hidden", "input", "hidden-slot", "input-slot"])
def test_segment_claim_reuse_across_t_matches_a_fresh_claim_per_point(slot, general):
    """Deciding every t of a segment on one claim (its caches warm, as check_segments does) gives
    the same truth values and the same enclosures, endpoint for endpoint, as a fresh claim (empty
    caches) at each point."""
    import numpy as np

    from checker.backends import interval

    segments = lipschitz.seeded_segments(slot, np.random.default_rng(11), 4)
    for seg in segments:
        fixed = {**seg.point, **(lipschitz.slot_values(slot, seg) if general else {})}
        shared = lipschitz.segment_claim(slot, seg.label, general=general)
        with interval.precision(lipschitz.SEGMENT_PREC):
            enclosed = {k: interval.Interval.of(x) for k, x in fixed.items()}
        for t in lipschitz.T_POINTS:
            warm = interval.decide(shared, {**enclosed, "t": t}, lipschitz.SEGMENT_PREC)
            cold = interval.decide(lipschitz.segment_claim(slot, seg.label, general=general), {**fixed, "t": t},
                                   lipschitz.SEGMENT_PREC)
            assert warm[0] is cold[0] and warm[1] == cold[1] and warm[2] is cold[2]
            assert {k: x.v._mpi_ for k, x in warm[3].items()} == {k: x.v._mpi_ for k, x in cold[3].items()}


# --- make_segment in fmpq: the same exact Fractions ------------------------------------------


def _reference_make_segment(slot, params, e, label, fill, origin):
    """make_segment as first written, in Fraction arithmetic."""
    from fractions import Fraction

    from obligations.lean_mlp import mlp
    from obligations.lean_mlp.margins import names

    d0, d1, d2, d3 = slot.dims
    point = dict(params)
    try:
        f = lipschitz._exact_forward(slot, point)
    except mlp.AtKink:
        return None
    w1 = max(abs(point[n]) for n in names("W1", d1, d2))
    w2 = max(abs(point[n]) for n in names("W2", d2, d3))
    if slot.layer == "W1":
        a = max(abs(z) for z in f.a0)
        limits = [abs(z) / a for z in f.z1] + [1 / (2 * w2 * a)] if a and w2 else []
    else:
        a = max(abs(z) for z in f.x)
        limits = ([abs(z) / a for z in f.z0] + [abs(z) / (w1 * a) for z in f.z1] + [1 / (2 * d2 * w1 * w2 * a)]
                  if a and w1 and w2 else [])
    mass = sum(abs(x) for x in e)
    if not limits or mass == 0 or any(z == 0 for z in (*f.z0, *f.z1)):
        return None
    D = fill * min(limits)
    rows, cols = slot.moving_shape
    scaled = [x * D * (1 - Fraction(1, 1 << 20)) / mass for x in e]
    point.update({n: x for n, x in zip(names("e", rows, cols), scaled)})
    point.update({"D": D, "a": a, "w1": w1, "w2": w2})
    return lipschitz.Segment(point, label, origin)


@pytest.mark.parametrize("slot", [lipschitz.HIDDEN, lipschitz.INPUT], ids=["hidden", "input"])
def test_make_segment_equals_the_fraction_reference(slot):
    """Seeded, zero-input (no margin), kinked and zero-direction instances: the same segment
    (or the same None), every value a Fraction equal to the reference's."""
    from fractions import Fraction

    import numpy as np

    rng = np.random.default_rng(5)
    rows, cols = slot.moving_shape
    made = 0
    for k in range(300):
        params = lipschitz._random_params(rng, slot)
        e = [lipschitz._dyadic(float(x)) for x in rng.normal(size=rows * cols)]
        if k % 10 == 1:
            params.update({n: Fraction(0) for n in params if n.startswith("x_")})
        if k % 10 == 2:
            params["b0_0"] = -sum(params[f"x_{i}"] * params[f"W0_{i}_0"] for i in range(slot.dims[0]))  # z₀ = 0
        if k % 10 == 3:
            e = [Fraction(0)] * len(e)
        fill = Fraction(int(rng.integers(1, 100)), 100)
        got = lipschitz.make_segment(slot, dict(params), e, 1, fill, "t")
        want = _reference_make_segment(slot, dict(params), e, 1, fill, "t")
        assert (got is None) == (want is None)
        if got is not None:
            made += 1
            assert got == want and all(type(x) is Fraction for x in got.point.values())
    assert made > 100


def test_enclosed_forward_parts_equal_the_eager_conversion():
    """Each part of the lazily converted pass is the eager conversion's, endpoint for endpoint."""
    import flint
    import numpy as np

    from checker.backends import interval
    from checker.claims import Env
    from obligations.lean_mlp import mlp
    from obligations.lean_mlp.margins import vec

    slot = lipschitz.INPUT
    for seg in lipschitz.seeded_segments(slot, np.random.default_rng(2), 5):
        with interval.precision(lipschitz.SEGMENT_PREC):
            balls = {n: lipschitz.arb_ball(interval.Interval.of(seg.point[n])) for n in slot.params}
            old, flint.ctx.prec = flint.ctx.prec, lipschitz.SEGMENT_PREC
            try:
                at = Env(balls)
                f = mlp.forward(slot.net(at, 0), vec(at, "x", slot.dims[0]), lipschitz.ball_positive)
                lazy = lipschitz.EnclosedForward(f, lipschitz.SEGMENT_PREC)
                for part in ("logits", "z1", "x", "z0", "a0", "a1", "z1"):
                    eager = [lipschitz.interval_of_ball(z) for z in getattr(f, part)]
                    assert [x.v._mpi_ for x in getattr(lazy, part)] == [x.v._mpi_ for x in eager]
            finally:
                flint.ctx.prec = old
