"""The concrete network of the Psy01-A stress certificates, its test set and the float forward
pass (a library; it declares no obligations).

The network is the full 067A shape 4 → 256 → 256 → 128 → 4 (all 100,484 parameters nonzero),
seeded: the eight cue-gated units of the sparse construction with their relays and head, on
top of dense Gaussian background weights (:func:`stress_network`); it is evaluated on a seeded
test set of the visual task (:func:`evaluation_set`). Weights and inputs are rounded to
multiples of 2⁻²⁰, so they are short exact dyadics. The forward pass adds noise after each
hidden ReLU, including during evaluation::

    h_0 = u,   h_ℓ = ReLU(B_ℓ h_{ℓ−1} + b_ℓ) + σ G_ℓ   (ℓ = 1, 2, 3),   z = B_4 h_3 + b_4,

and the prediction is the arg-max with the smallest maximising index.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

from checker.kernel.model import derive_seed
from obligations.psy01a.setup import ARCHITECTURE


SIGNS = ((1, 1), (1, -1), (-1, 1), (-1, -1))  # μ_j = 3 s_j
PI = (2, 3, 0, 1)  # π(y) = (y + 2) mod 4
GRID = 2.0**-20  # weights and inputs are rounded to multiples of 2^-20 (short exact dyadics)


def _np():
    import numpy

    return numpy


# ---------------------------------------------------------------------------------------
# The concrete network and its test set
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StressSpec:
    """The seeded concrete network and test set the certificates are computed on."""

    widths: tuple[int, ...] = ARCHITECTURE
    seed: int = 67
    background: float = 0.02  # standard deviation of the dense background weights
    nu: float = 0.5  # cluster noise of the test law X = μ_Y + νε
    test_size: int = 48
    sigma: Fraction = Fraction(1, 5)
    delta: Fraction = Fraction(1, 20)
    global_sigmas: tuple[Fraction, ...] = (Fraction(1, 10000), Fraction(1, 2000), Fraction(1, 500), Fraction(1, 5))


SPEC = StressSpec()


def _grid(np, a):
    return np.round(a / GRID) * GRID


@dataclass(frozen=True, eq=False)
class Net:
    weights: tuple[Any, ...]
    biases: tuple[Any, ...]


def unit_index(j: int, s: int) -> int:
    return 2 * j + (0 if s == 1 else 1)


def stress_network(spec: StressSpec = SPEC) -> Net:
    """Cue-gated units (j, s): ReLU(s_j·x + 3s·c₁ − 3s·c₂ − 6) relayed by identity weights
    (biases −3/2 and −3/4) to the head ((j, +1) → j, (j, −1) → π(j)); dormant units have
    negative biases; every weight also gets a seeded N(0, background²) component."""
    np = _np()
    rng = np.random.default_rng(derive_seed(spec.seed, "stress-network"))
    w = spec.widths
    weights = [rng.normal(0.0, spec.background, size=(b, a)) for a, b in zip(w, w[1:])]
    biases = [np.full(w[1], -2.0), np.full(w[2], -1.0), np.full(w[3], -1.0), np.zeros(w[4])]
    for j, (a, b) in enumerate(SIGNS):
        for s in (1, -1):
            u = unit_index(j, s)
            weights[0][u] += [a, b, 3 * s, -3 * s]
            biases[0][u] = -6.0
            weights[1][u, u] += 1.0
            biases[1][u] = -1.5
            weights[2][u, u] += 1.0
            biases[2][u] = -0.75
            weights[3][j if s == 1 else PI[j], u] += 1.0
    return Net(tuple(_grid(np, x) for x in weights), tuple(_grid(np, x) for x in biases))


def evaluation_set(spec: StressSpec = SPEC) -> tuple[Any, Any]:
    """Inputs u = (x, c_v) with x = μ_Y + νε and visual labels Y (seeded)."""
    np = _np()
    rng = np.random.default_rng(derive_seed(spec.seed, "stress-test-set"))
    y = rng.integers(0, 4, size=spec.test_size)
    centres = 3.0 * np.array(SIGNS, dtype=float)
    x = _grid(np, centres[y] + spec.nu * rng.normal(size=(spec.test_size, 2)))
    u = np.concatenate([x, np.tile([1.0, 0.0], (spec.test_size, 1))], axis=1)
    return u, y


def forward(net: Net, u: Any, sigma: float = 0.0, noise: Sequence[Any] | None = None) -> Any:
    """Float forward pass (Monte-Carlo only); ``noise[ℓ]`` has shape (batch, n_ℓ)."""
    np = _np()
    h = u
    for layer in range(3):
        # in place on the fresh product: the same elementwise operations as
        # h = maximum(h @ Bᵀ + b, 0) + σ·noise, without the batch-sized temporaries
        a = h @ net.weights[layer].T
        a += net.biases[layer]
        np.maximum(a, 0.0, out=a)
        if noise is not None:
            a += sigma * noise[layer]
        h = a
    z = h @ net.weights[3].T
    z += net.biases[3]
    return z


def predict(z: Any) -> Any:
    return _np().argmax(z, axis=-1)  # numpy's argmax returns the smallest maximising index
