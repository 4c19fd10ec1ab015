"""The 067A reference model: architecture, forward pass, exact-count pruning, random streams.

A plain library module (it declares no obligations). Users audit their own pruning code
against it; the obligations of :mod:`.construction` and :mod:`.pruning` check it.

What it implements, as Psy01-A prescribes (``000_1ea2e46c3d2f64bf.txt``):

- **Architecture** ``setup.ARCHITECTURE`` = 4 → 256 → 256 → 128 → 4 (input ``u = (x, c)``),
  ReLU hidden layers, a linear head.
- **Forward pass** ``h_ℓ = ReLU(B_ℓ h_{ℓ−1} + b_ℓ) + σ G_ℓ`` for the hidden layers (noise is
  added *after* each hidden ReLU, also at evaluation, so a noisy hidden state can be
  negative), ``z = B_4 h_3 + b_4``; the prediction is the arg-max with the smallest maximising
  index (the text's "deterministic tie convention").
- **Exact-count magnitude pruning** ``H_K``: order the *eligible* positions of a matrix (those
  in the current mask) by descending ``|w|``, ties by increasing flattened (row-major) index,
  and retain exactly the first ``K``. Deleted positions are never reactivated. The early count
  is ``K_e = ⌈d_e·N⌉`` (``N`` = entries of the matrix), computed exactly in rationals; removing a
  fraction ``f`` of the survivors retains ``K_f = K_e − ⌊f·K_e⌋ = ⌈(1 − f)·K_e⌉`` (the
  survivor-based rule reconstructed in ``docs/reconstructions/psy01a_construction.md``).
  Biases are never pruned.
- **Random-stream repair**: one seed gives independent, reproducible generators per purpose
  (``init``, ``data``, ``batch_order``, ``noise``), so drawing more noise never changes the
  data or the initialisation.

Numbers: a density or fraction given as a ``float`` is read as the decimal it prints as
(``0.1`` means ``1/10``, not the binary double ``0.1000000000000000055…``), because a density is
a decimal someone typed and ``⌈0.1000000000000000055·10⌉ = 2``. Pass a
:class:`fractions.Fraction` (or a string such as ``"1/10"``) to be explicit.

numpy is imported inside the functions that need it.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Sequence

from obligations.psy01a.setup import ARCHITECTURE

PURPOSES = ("init", "data", "batch_order", "noise")
SIGNS = ((1, 1), (1, -1), (-1, 1), (-1, -1))  # s_j: cluster centre μ_j = 3·s_j
CENTRE_SCALE = 3
CUE_VISUAL = (Fraction(1), Fraction(0))  # c_v
CUE_VOICE = (Fraction(0), Fraction(1))  # c_a
CUE_MIDPOINT = (Fraction(1, 2), Fraction(1, 2))  # c_{1/2}
CUE_ZERO = (Fraction(0), Fraction(0))


def voice_label(y: int) -> int:
    """π(y) = (y + 2) mod 4, the default fixed-point-free involution (the display was lost;
    the sparse construction is checked for each of the three fixed-point-free involutions)."""
    return (y + 2) % 4


# ---------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------


class ReferenceModelError(ValueError):
    """Bad input to the reference model."""


class DensityError(ReferenceModelError):
    """A density outside (0, 1], or not a number."""


class RemovalFractionError(ReferenceModelError):
    """A survivor-removal fraction outside [0, 1)."""


class WeightError(ReferenceModelError):
    """A NaN or infinite weight, or weights that are not real numbers."""


class ShapeError(ReferenceModelError):
    """Arrays whose shapes do not fit together."""


class EmptyMaskError(ReferenceModelError):
    """A mask with no eligible position."""


class CountError(ReferenceModelError):
    """A retention count that cannot be realised exactly."""


def _np():
    import numpy

    return numpy


# ---------------------------------------------------------------------------------------
# Exact counts
# ---------------------------------------------------------------------------------------


def _exact(value: Any, what: str, error: type[ReferenceModelError]) -> Fraction:
    if isinstance(value, bool):
        raise error(f"{what} must be a number, got the boolean {value!r}")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float) or (hasattr(value, "dtype") and getattr(value, "ndim", 1) == 0):
        x = float(value)
        if not math.isfinite(x):
            raise error(f"{what} is {x}; pass a finite number")
        return Fraction(repr(x))
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise error(f"{what} {value!r} is not a number; write e.g. '1/10' or '0.1'") from None
    raise error(f"{what} must be a number (int, float, Fraction or str), got {type(value).__name__}")


def as_density(density: Any) -> Fraction:
    """The exact density in (0, 1] (raises :class:`DensityError` otherwise)."""
    d = _exact(density, "density", DensityError)
    if not 0 < d <= 1:
        raise DensityError(f"density {d} is outside (0, 1]; pass a retained fraction such as 1/10 (not a percentage)")
    return d


def as_removal_fraction(f: Any) -> Fraction:
    """The exact removal fraction in [0, 1) (raises :class:`RemovalFractionError` otherwise)."""
    x = _exact(f, "removal fraction f", RemovalFractionError)
    if not 0 <= x < 1:
        raise RemovalFractionError(f"removal fraction f = {x} is outside [0, 1); f is the share of survivors removed")
    return x


def _positions(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ShapeError(f"the number of positions must be a positive integer, got {n!r}")
    return n


def retention_count(density: Any, n: int) -> int:
    """``K = ⌈d·N⌉``, exactly: the number of positions retained at target density ``d``."""
    d, n = as_density(density), _positions(n)
    dn = d * n
    return -((-dn.numerator) // dn.denominator)


def survivor_count(k_e: int, f: Any) -> int:
    """``K_f = K_e − ⌊f·K_e⌋``: retained after removing a fraction ``f`` of ``K_e`` survivors."""
    if isinstance(k_e, bool) or not isinstance(k_e, int) or k_e < 1:
        raise CountError(f"the survivor count must be a positive integer, got {k_e!r}")
    x = as_removal_fraction(f) * k_e
    return k_e - x.numerator // x.denominator


def nested_counts(n: int, d_e: Any, f: Any) -> tuple[int, int]:
    """``(K_e, K_f)`` for a matrix with ``n`` entries, early density ``d_e`` and removal ``f``."""
    k_e = retention_count(d_e, n)
    return k_e, survivor_count(k_e, f)


# ---------------------------------------------------------------------------------------
# Exact-count magnitude pruning
# ---------------------------------------------------------------------------------------


def _weights(weights: Any, what: str = "weights") -> Any:
    np = _np()
    w = np.asarray(weights)
    if w.dtype.kind == "b":
        raise WeightError(f"{what} are booleans; pass real-valued weights")
    if w.dtype.kind == "O":
        for x in w.reshape(-1):
            if isinstance(x, bool) or not isinstance(x, (int, float, Fraction)):
                raise WeightError(f"{what} contain {x!r}; pass real numbers")
            if isinstance(x, float) and not math.isfinite(x):
                raise WeightError(f"{what} contain {x}; remove NaN/infinite weights before pruning")
        return w
    if w.dtype.kind not in "fiu":
        raise WeightError(f"{what} have dtype {w.dtype}; pass real-valued weights")
    if w.dtype.kind == "f" and not np.isfinite(w).all():
        bad = np.argwhere(~np.isfinite(w))[0]
        raise WeightError(f"{what} contain {w[tuple(bad)]} at index {tuple(int(i) for i in bad)}; "
                          "remove NaN/infinite weights before pruning")
    return w


def _mask(mask: Any, shape: tuple[int, ...], what: str = "mask") -> Any:
    np = _np()
    m = np.asarray(mask)
    if m.shape != shape:
        raise ShapeError(f"{what} has shape {m.shape} but the weights have shape {shape}; pass one entry per weight")
    if m.dtype.kind != "b":
        if m.dtype.kind not in "iuf" or not np.isin(m, (0, 1)).all():
            raise ShapeError(f"{what} must be boolean or 0/1, got dtype {m.dtype}")
        m = m.astype(bool)
    if not m.any():
        raise EmptyMaskError(f"{what} has no eligible position (all {m.size} entries deleted); nothing can be "
                             "retained. Start from the full mask or from a mask that keeps at least one position")
    return m


def magnitude_order(weights: Any) -> Any:
    """Flattened indices by descending ``|w|``, ties by increasing flattened index."""
    np = _np()
    w = _weights(weights)
    flat = w.reshape(-1)
    if flat.dtype.kind == "f":
        return np.argsort(-np.abs(flat), kind="stable")
    keys = [abs(Fraction(x)) for x in flat.tolist()]
    return np.array(sorted(range(len(keys)), key=lambda i: (-keys[i], i)), dtype=np.int64)


def prune_exact_count(weights: Any, k: int, mask: Any = None) -> Any:
    """``H_K``: the boolean mask retaining exactly the first ``k`` eligible positions
    (``1 ≤ k ≤`` eligible count; every count from a density in (0, 1] is at least 1)."""
    np = _np()
    w = _weights(weights)
    eligible = np.ones(w.shape, dtype=bool) if mask is None else _mask(mask, w.shape)
    available = int(eligible.sum())
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= int(k) <= available:
        raise CountError(f"cannot retain exactly {k!r} positions: the mask has {available} eligible positions, "
                         "deleted positions are never reactivated, and K = 0 would leave an empty mask; "
                         "pass 1 ≤ K ≤ eligible count")
    order = magnitude_order(w)
    flat_eligible = eligible.reshape(-1)
    chosen = order[flat_eligible[order]][: int(k)]
    out = np.zeros(w.size, dtype=bool)
    out[chosen] = True
    return out.reshape(w.shape)


def prune_to_density(weights: Any, density: Any, mask: Any = None) -> Any:
    """Retain ``K = ⌈d·N⌉`` positions (``N`` = all entries of the matrix), eligible ones only."""
    w = _weights(weights)
    return prune_exact_count(w, retention_count(density, int(w.size)), mask)


def prune_survivors(weights: Any, mask: Any, f: Any) -> Any:
    """Remove a fraction ``f`` of the survivors of ``mask``: retain ``K_f = K_e − ⌊f·K_e⌋``."""
    w = _weights(weights)
    m = _mask(mask, w.shape)
    return prune_exact_count(w, survivor_count(int(m.sum()), f), m)


def apply_mask(weights: Any, mask: Any) -> Any:
    w = _weights(weights)
    return w * _mask(mask, w.shape)


def structural_density(masks: Sequence[Any]) -> Fraction:
    """Active mask positions over all positions (the paper's structural density)."""
    np = _np()
    ms = [np.asarray(m) for m in masks]
    return Fraction(sum(int(m.astype(bool).sum()) for m in ms), sum(m.size for m in ms))


def numerical_density(weights: Sequence[Any], biases: Sequence[Any] = ()) -> Fraction:
    """Nonzero stored parameters over stored parameters (optionally including biases)."""
    np = _np()
    arrays = [np.asarray(_weights(w)) for w in weights] + [np.asarray(_weights(b, "biases")) for b in biases]
    return Fraction(sum(int(np.count_nonzero(a)) for a in arrays), sum(a.size for a in arrays))


# ---------------------------------------------------------------------------------------
# The network
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ReluNetwork:
    """Weights ``B_ℓ`` (shape ``(n_ℓ, n_{ℓ−1})``) and unpruned biases ``b_ℓ``."""

    weights: tuple[Any, ...]
    biases: tuple[Any, ...]

    def __post_init__(self) -> None:
        validate(self.weights, self.biases)

    @property
    def widths(self) -> tuple[int, ...]:
        return (int(self.weights[0].shape[1]),) + tuple(int(w.shape[0]) for w in self.weights)

    @property
    def parameter_count(self) -> int:
        return sum(int(w.size) for w in self.weights) + sum(int(b.size) for b in self.biases)

    def masked(self, masks: Sequence[Any]) -> ReluNetwork:
        if len(masks) != len(self.weights):
            raise ShapeError(f"got {len(masks)} masks for {len(self.weights)} weight matrices; pass one per layer")
        return ReluNetwork(tuple(apply_mask(w, m) for w, m in zip(self.weights, masks)), self.biases)


def validate(weights: Sequence[Any], biases: Sequence[Any], widths: Sequence[int] | None = None) -> None:
    """Shapes chain (``B_ℓ`` is ``n_ℓ × n_{ℓ−1}``, ``b_ℓ`` has ``n_ℓ`` entries) and values are finite."""
    np = _np()
    if len(weights) != len(biases) or not weights:
        raise ShapeError(f"got {len(weights)} weight matrices and {len(biases)} bias vectors; pass one of each per layer")
    for i, (w, b) in enumerate(zip(weights, biases), 1):
        w, b = _weights(w, f"layer {i} weights"), _weights(b, f"layer {i} biases")
        if w.ndim != 2:
            raise ShapeError(f"layer {i} weights have shape {w.shape}; pass a 2-d matrix (outputs × inputs)")
        if b.shape != (w.shape[0],):
            raise ShapeError(f"layer {i} biases have shape {b.shape}, the weights have {w.shape[0]} rows; pass one bias per row")
        if i > 1 and w.shape[1] != np.asarray(weights[i - 2]).shape[0]:
            raise ShapeError(f"layer {i} weights take {w.shape[1]} inputs but layer {i - 1} has "
                             f"{np.asarray(weights[i - 2]).shape[0]} outputs")
    if widths is not None:
        got = (int(np.asarray(weights[0]).shape[1]),) + tuple(int(np.asarray(w).shape[0]) for w in weights)
        if got != tuple(widths):
            raise ShapeError(f"the network has widths {got}, expected {tuple(widths)}")


def init_network(seed: int, widths: Sequence[int] = ARCHITECTURE) -> ReluNetwork:
    """Uniform ``U(−1/√fan_in, 1/√fan_in)`` weights and biases from the ``init`` stream."""
    np = _np()
    rng = stream(seed, "init")
    weights, biases = [], []
    for fan_in, fan_out in zip(widths, widths[1:]):
        bound = 1.0 / math.sqrt(fan_in)
        weights.append(rng.uniform(-bound, bound, size=(fan_out, fan_in)))
        biases.append(rng.uniform(-bound, bound, size=fan_out))
    return ReluNetwork(tuple(weights), tuple(biases))


def prune_network(net: ReluNetwork, density: Any, masks: Sequence[Any] | None = None) -> tuple[Any, ...]:
    """Layer-wise exact-count pruning of every weight matrix (biases unpruned)."""
    current = masks if masks is not None else [None] * len(net.weights)
    if len(current) != len(net.weights):
        raise ShapeError(f"got {len(current)} masks for {len(net.weights)} weight matrices")
    return tuple(prune_to_density(w, density, m) for w, m in zip(net.weights, current))


def phased_masks(net: ReluNetwork, d_e: Any, f: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Early masks at ``d_e`` and, with the weights held fixed, the nested masks after removing
    a fraction ``f`` of the survivors of each layer."""
    early = prune_network(net, d_e)
    return early, tuple(prune_survivors(w, m, f) for w, m in zip(net.weights, early))


def forward(net: ReluNetwork, inputs: Any, sigma: float = 0.0, rng: Any = None, noise: Sequence[Any] | None = None) -> Any:
    """Logits for a batch ``inputs`` of shape ``(n, 4)`` (rows ``(x₁, x₂, c₁, c₂)``).

    Hidden noise: ``σ·G`` is added after each hidden ReLU (also at evaluation). ``G`` comes
    from ``noise`` (one array per hidden layer) or is drawn from ``rng``."""
    np = _np()
    u = np.asarray(inputs, dtype=float)
    if u.ndim == 1:
        u = u[None, :]
    if u.ndim != 2 or u.shape[1] != net.widths[0]:
        raise ShapeError(f"inputs have shape {u.shape}; pass rows of {net.widths[0]} numbers (x₁, x₂, c₁, c₂)")
    if not np.isfinite(u).all():
        raise WeightError("inputs contain NaN or infinite values")
    if not math.isfinite(sigma) or sigma < 0:
        raise ReferenceModelError(f"noise intensity σ = {sigma} must be finite and non-negative")
    hidden = len(net.weights) - 1
    if sigma > 0 and noise is None and rng is None:
        raise ReferenceModelError("σ > 0 needs noise: pass rng=stream(seed, 'noise') or explicit noise arrays")
    if noise is not None and len(noise) != hidden:
        raise ShapeError(f"got {len(noise)} noise arrays for {hidden} hidden layers")
    h = u
    for i, (w, b) in enumerate(zip(net.weights, net.biases)):
        a = h @ np.asarray(w, dtype=float).T + np.asarray(b, dtype=float)
        if i == hidden:
            return a
        h = np.maximum(a, 0.0)
        if sigma > 0:
            g = rng.standard_normal(h.shape) if noise is None else np.asarray(noise[i], dtype=float)
            if g.shape != h.shape:
                raise ShapeError(f"noise for hidden layer {i + 1} has shape {g.shape}, expected {h.shape}")
            h = h + sigma * g
    raise AssertionError("unreachable")  # pragma: no cover


def predict(logits: Any) -> Any:
    """Arg-max with the smallest maximising index."""
    np = _np()
    return np.argmax(np.asarray(logits), axis=-1)


def predict_exact(logits: Sequence[Fraction]) -> int:
    best = 0
    for k, z in enumerate(logits):
        if z > logits[best]:
            best = k
    return best


# ---------------------------------------------------------------------------------------
# Exact (sparse, rational) evaluation and the same pass over any ops namespace
# ---------------------------------------------------------------------------------------

Layer = tuple[tuple[tuple[tuple[int, Fraction], ...], ...], tuple[Fraction, ...]]


def exact_layers(net: ReluNetwork) -> tuple[Layer, ...]:
    """Each layer as (rows of nonzero ``(column, weight)`` pairs, biases), every number the exact
    rational value of the stored float."""
    np = _np()
    layers = []
    for w, b in zip(net.weights, net.biases):
        w = np.asarray(w)
        rows = tuple(tuple((int(j), Fraction(w[i, j].item())) for j in np.flatnonzero(w[i])) for i in range(w.shape[0]))
        layers.append((rows, tuple(Fraction(x.item()) for x in np.asarray(b))))
    return tuple(layers)


def relu_ops(o: Any, a: Any) -> Any:
    """ReLU over an ops namespace, exact on an exact constant."""
    if isinstance(a, Fraction):
        return a if a > 0 else Fraction(0)
    return o.relu(a)


def preactivations_ops(layer: Layer, h: Sequence[Any]) -> list[Any]:
    """``B h + b`` skipping exact zeros (so constants stay exact Fractions).

    Exact inputs are folded into the constant first; the other inputs (terms of an ops
    namespace, e.g. z3) are summed per distinct weight and multiplied once by it,
    Σ_w w·(Σ_{j: B_ij = w} h_j) — the same linear form, with one product per distinct weight
    of a row instead of one per entry; rows with the same weight on the same inputs share
    the term."""
    rows, bias = layer
    # per input: None for an exact zero (skipped), True for another exact value, False for a term
    exact_value = [(True if x else None) if isinstance(x, Fraction) else False for x in h]
    out = []
    shared: dict[tuple[Fraction, tuple[int, ...]], Any] = {}
    for row, b in zip(rows, bias):
        acc: Any = b
        by_weight: dict[Fraction, list[int]] = {}
        for j, w in row:
            kind = exact_value[j]
            if kind:
                acc = acc + w * h[j]
            elif kind is False:
                by_weight.setdefault(w, []).append(j)
        for w, js in by_weight.items():
            key = (w, tuple(js))
            if key not in shared:
                total = h[js[0]]
                for j in js[1:]:
                    total = total + h[j]
                shared[key] = total if w == 1 else w * total
            acc = acc + shared[key]
        out.append(acc)
    return out


def forward_ops(o: Any, layers: Sequence[Layer], u: Sequence[Any]) -> tuple[list[list[Any]], list[Any]]:
    """The noiseless forward pass over an ops namespace: (hidden activations per layer, logits)."""
    h = list(u)
    hidden = []
    for i, layer in enumerate(layers):
        a = preactivations_ops(layer, h)
        if i == len(layers) - 1:
            return hidden, a
        h = [relu_ops(o, x) for x in a]
        hidden.append(h)
    raise ShapeError("a network needs at least one layer")


def forward_exact(net: ReluNetwork | Sequence[Layer], u: Sequence[Any]) -> tuple[list[list[Fraction]], list[Fraction]]:
    """Noiseless forward pass in exact rationals."""
    from checker.backends.exact import OPS, to_fraction

    layers = exact_layers(net) if isinstance(net, ReluNetwork) else net
    return forward_ops(OPS, layers, [to_fraction(x) for x in u])


# ---------------------------------------------------------------------------------------
# Random streams and the task
# ---------------------------------------------------------------------------------------


def _purpose_key(purpose: str) -> int:
    return int.from_bytes(hashlib.sha256(purpose.encode()).digest()[:8], "big")


def stream(seed: int, purpose: str) -> Any:
    """An independent, reproducible generator for one purpose, from one seed (numpy
    ``SeedSequence`` with the purpose as spawn key: independent of the order of use)."""
    np = _np()
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ReferenceModelError(f"seed must be a non-negative integer, got {seed!r}")
    if not isinstance(purpose, str) or not purpose:
        raise ReferenceModelError(f"purpose must be a non-empty string such as {PURPOSES[0]!r}, got {purpose!r}")
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(_purpose_key(purpose),))))


@dataclass(frozen=True)
class Streams:
    """The four streams of one run; each call returns a fresh generator at its start."""

    seed: int

    def __call__(self, purpose: str) -> Any:
        return stream(self.seed, purpose)

    def all(self) -> dict[str, Any]:
        return {p: stream(self.seed, p) for p in PURPOSES}


def centres() -> tuple[tuple[int, int], ...]:
    return tuple((CENTRE_SCALE * a, CENTRE_SCALE * b) for a, b in SIGNS)


def sample_task(rng: Any, n: int, nu: float) -> tuple[Any, Any]:
    """``Y`` uniform on {0, 1, 2, 3}, ``X = μ_Y + ε`` with ``ε ~ N(0, ν² I₂)``."""
    np = _np()
    if not math.isfinite(nu) or nu < 0:
        raise ReferenceModelError(f"cluster noise ν = {nu} must be finite and non-negative")
    y = rng.integers(0, 4, size=n)
    x = np.asarray(centres(), dtype=float)[y] + nu * rng.standard_normal((n, 2))
    return x, y


def with_cue(x: Any, cue: Iterable[Any]) -> Any:
    """Rows ``(x₁, x₂, c₁, c₂)`` for a batch of ``x`` and one cue ``c``."""
    np = _np()
    x = np.asarray(x, dtype=float)
    c = np.asarray([float(v) for v in cue], dtype=float)
    return np.hstack([x, np.broadcast_to(c, (x.shape[0], 2))])


def batch_order(rng: Any, n: int, batch: int) -> list[Any]:
    """One epoch of minibatch index arrays from the ``batch_order`` stream."""
    perm = rng.permutation(n)
    return [perm[i:i + batch] for i in range(0, n, batch)]
