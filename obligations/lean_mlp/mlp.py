"""The MLP of the Lean development, written once for every number type.

A plain library module (it declares no obligations). The obligations of this subpackage and
the ``obligations discharge`` command evaluate it with exact rationals (Fractions), rigorous
intervals (:class:`checker.backends.interval.Interval`) and sympy expressions.

Shapes and conventions, as the docstrings of ``002_9648822bf1d4473c.txt`` and
``004_8327de8ce09705d9.txt`` fix them:

- ``dense W b x`` reads ``W[input][output]``: ``(dense W b x)_k = ∑_j x_j·W_jk + b_k``. So
  ``∂(CE ∘ dense W₂)/∂y_j = ∑_k W₂_jk·(softmax − onehot)_k`` and the transpose contraction
  ``(Wᵀ·c)_l = ∑_k W_lk·c_k`` (the docstring of ``reluMask_dense_transpose_eq``).
- The chain is dense → relu → dense → relu → dense:
  ``x ∈ ℝ^{d₀}``, ``z₀ = dense W₀ b₀ x ∈ ℝ^{d₁}``, ``a₀ = relu z₀``,
  ``z₁ = dense W₁ b₁ a₀ ∈ ℝ^{d₂}``, ``a₁ = relu z₁``, ``logits = dense W₂ b₂ a₁ ∈ ℝ^{d₃}``,
  loss ``L = log ∑_k exp(logits_k) − logits_label`` (softmax cross-entropy).
  ``W₀`` is d₀×d₁, ``W₁`` is d₁×d₂, ``W₂`` is d₂×d₃ (d₃ = the number of classes), so the
  gradient of ``W₁`` has d₁·d₂ entries (the ``d₁d₂·η`` of the hidden step radius) and that of
  ``W₀`` has d₀·d₁ (the ``d₀d₁·η`` of the input step radius).
- ``relu'(z)`` is 1 for ``z > 0`` and 0 for ``z < 0``; at ``z = 0`` (a kink) the closed forms
  do not apply and the functions raise :class:`AtKink`.

Arithmetic uses Python operators only, so the same functions take Fractions, Intervals or
sympy expressions; ``exp`` and the sign test ``positive`` are passed in. numpy is imported
inside the functions that read and write files.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

from checker.kernel.errors import CheckerError

Vector = Sequence[Any]
Matrix = Sequence[Sequence[Any]]
LAYERS = ("W0", "b0", "W1", "b1", "W2", "b2")


class AtKink(CheckerError, ValueError):
    """A closed form was asked for at a point where a pre-activation is exactly 0."""


class NetworkFileError(CheckerError, ValueError):
    """A network file cannot be used (missing arrays, wrong shapes, non-finite values)."""


@dataclass(frozen=True, slots=True)
class Mlp:
    """A dense → relu → dense → relu → dense network with exact rational weights.

    Weights are tuples of tuples of Fractions (``W[input][output]``), biases tuples of
    Fractions. Build one from binary32 arrays with :func:`from_arrays` or :func:`load_npz`.
    """

    W0: tuple[tuple[Fraction, ...], ...]
    b0: tuple[Fraction, ...]
    W1: tuple[tuple[Fraction, ...], ...]
    b1: tuple[Fraction, ...]
    W2: tuple[tuple[Fraction, ...], ...]
    b2: tuple[Fraction, ...]

    @property
    def dims(self) -> tuple[int, int, int, int]:
        """(d₀, d₁, d₂, d₃): input width, the two hidden widths, the number of classes."""
        return len(self.W0), len(self.b0), len(self.b1), len(self.b2)

    def layer(self, name: str) -> Any:
        return getattr(self, name)

    def replace(self, name: str, value: Any) -> Mlp:
        """A copy with one weight matrix or bias replaced (for a step on that layer)."""
        if name not in LAYERS:
            raise KeyError(f"no layer {name!r}; layers are {', '.join(LAYERS)}")
        parts = {n: getattr(self, n) for n in LAYERS}
        parts[name] = value
        return Mlp(**parts)


# ---------------------------------------------------------------------------------------
# Files (binary32 arrays in an .npz)
# ---------------------------------------------------------------------------------------


def _exact_matrix(a: Any) -> tuple:
    if a.ndim == 1:
        return tuple(Fraction(float(x)) for x in a)
    return tuple(tuple(Fraction(float(x)) for x in row) for row in a)


def from_arrays(arrays: dict[str, Any], *, where: str = "network") -> Mlp:
    """An :class:`Mlp` from float arrays ``W0 b0 W1 b1 W2 b2``; every value must be finite and
    exactly representable in binary32 (the network is a binary32 network)."""
    import numpy as np

    missing = [n for n in LAYERS if n not in arrays]
    if missing:
        raise NetworkFileError(f"{where}: missing array(s) {', '.join(missing)}; expected {', '.join(LAYERS)}")
    checked: dict[str, Any] = {}
    for name in LAYERS:
        a = np.asarray(arrays[name])
        if a.dtype.kind not in "fiu":
            raise NetworkFileError(f"{where}: {name} has dtype {a.dtype}; expected floating-point numbers")
        want = 2 if name.startswith("W") else 1
        if a.ndim != want:
            raise NetworkFileError(f"{where}: {name} has {a.ndim} dimension(s), expected {want}")
        if a.size == 0:
            raise NetworkFileError(f"{where}: {name} is empty")
        if not np.all(np.isfinite(a)):
            bad = np.argwhere(~np.isfinite(a))[0]
            raise NetworkFileError(f"{where}: {name}{list(map(int, bad))} is {a[tuple(bad)]}; every value must be finite")
        f32 = a.astype(np.float32)
        if a.dtype.kind in "iu":
            # compare as Python integers: through float64, an int64 above 2⁵³ would round first
            exact_ints = all(int(x) == int(y) for x, y in zip(a.flat, f32.flat))
        else:
            exact_ints = True
        if not exact_ints or not np.array_equal(f32.astype(np.float64), a.astype(np.float64)):
            raise NetworkFileError(f"{where}: {name} holds values that are not binary32 numbers; store it as float32")
        checked[name] = f32
    d0, d1 = checked["W0"].shape
    for w, b, prev in (("W0", "b0", None), ("W1", "b1", "W0"), ("W2", "b2", "W1")):
        rows, cols = checked[w].shape
        if checked[b].shape != (cols,):
            raise NetworkFileError(f"{where}: {b} has shape {checked[b].shape}, expected ({cols},) to match {w} {checked[w].shape}")
        if prev is not None and checked[prev].shape[1] != rows:
            raise NetworkFileError(
                f"{where}: {w} has {rows} rows but {prev} has {checked[prev].shape[1]} columns; "
                f"W[input][output] shapes must chain (d₀×d₁, d₁×d₂, d₂×d₃)")
    return Mlp(**{name: _exact_matrix(checked[name]) for name in LAYERS})


MAX_NETWORK_BYTES = 64 * 1024 * 1024  # far above any network the exact discharge could handle


def _check_npz_size(path: str | os.PathLike[str]) -> None:
    """Refuse, before loading anything, an .npz whose arrays (as the zip directory and each
    array's own header declare them) exceed :data:`MAX_NETWORK_BYTES`: a small file must not be
    able to expand into gigabytes."""
    import math
    import zipfile

    from numpy.lib import format as npy

    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            declared = sum(i.file_size for i in infos)
            if declared > MAX_NETWORK_BYTES:
                raise NetworkFileError(f"{path}: its arrays would take {declared / 2**20:.0f} MiB unpacked, over the "
                                       f"{MAX_NETWORK_BYTES // 2**20} MiB limit for a network file")
            total = 0
            for info in infos:
                if not info.filename.endswith(".npy"):
                    continue
                with zf.open(info) as fh:
                    version = npy.read_magic(fh)
                    header = npy.read_array_header_1_0(fh) if version == (1, 0) else npy.read_array_header_2_0(fh)
                shape, _, dtype = header
                total += math.prod(shape) * dtype.itemsize
                if total > MAX_NETWORK_BYTES:
                    raise NetworkFileError(f"{path}: array {info.filename[:-4]} has shape {shape} ({dtype}): over the "
                                           f"{MAX_NETWORK_BYTES // 2**20} MiB limit for a network file")
    except NetworkFileError:
        raise
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        return  # not a readable zip/npy: np.load below says so


def load_npz(path: str | os.PathLike[str]) -> Mlp:
    """Read a network saved with :func:`save_npz` (or any .npz with the six arrays)."""
    import numpy as np

    if os.path.exists(path):
        _check_npz_size(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except FileNotFoundError:
        raise NetworkFileError(f"{path}: no such file") from None
    except Exception as exc:  # noqa: BLE001 - any unreadable file is the user's error to fix
        raise NetworkFileError(f"{path}: not a readable .npz file ({type(exc).__name__}: {exc})") from None
    return from_arrays(arrays, where=str(path))


def save_npz(path: str | os.PathLike[str], net: Mlp) -> None:
    """Write ``net`` as binary32 arrays (exact: its weights are binary32 numbers)."""
    import numpy as np

    np.savez(path, **{name: np.array([[float(x) for x in row] for row in getattr(net, name)]
                                     if name.startswith("W") else [float(x) for x in getattr(net, name)],
                                     dtype=np.float32) for name in LAYERS})


# ---------------------------------------------------------------------------------------
# The chain, for any number type
# ---------------------------------------------------------------------------------------


def exact_positive(z: Any) -> bool:
    """The sign test for exact numbers: ``z > 0``; ``z = 0`` is a kink."""
    if z == 0:
        raise AtKink("a pre-activation is exactly 0 (a ReLU kink): the closed forms do not apply there")
    return z > 0


def relu_positive(z: Any) -> bool:
    """The sign test ``z > 0`` that takes a kink as inactive. Exact for the forward pass
    (``relu 0 = 0`` either way); a gradient taken with it is the closed form only where a
    margin hypothesis has already put every pre-activation off the kink."""
    return z > 0


def interval_exp(t: Any) -> Any:
    """``exp`` as a rigorous enclosure (python-flint arb, via :class:`Interval`)."""
    from checker.backends.interval import Interval

    return Interval.of(t).exp()


def interval_log(t: Any) -> Any:
    """``log`` as a rigorous enclosure (python-flint arb, via :class:`Interval`)."""
    from checker.backends.interval import Interval

    return Interval.of(t).log()


def _finite_everywhere(expr: Any) -> bool:
    """Is ``expr`` a sympy expression that is a finite real number for every real value of its
    symbols, by its structure alone? Built from real finite commutative symbols and rationals by
    ``+``, ``×``, ``exp``, non-negative integer powers, and negative integer powers of a base
    that is positive by structure (positive rationals, ``exp`` of a real, and sums, products and
    integer powers of such, as the softmax's normaliser ``1 + ∑ exp(·)``). Anything else (a
    function, a float, a non-integer power, a non-sympy number) answers False. Each distinct
    subexpression is looked at once."""
    sp = sys.modules.get("sympy")
    if sp is None or not isinstance(expr, sp.Expr):
        return False
    Add, Mul, Pow, exp, Symbol = sp.Add, sp.Mul, sp.Pow, sp.exp, sp.Symbol
    real: dict[int, bool] = {}
    positive: dict[int, bool] = {}

    def is_real(n: Any) -> bool:
        key = id(n)
        if key not in real:
            t = type(n)
            if n.is_Rational:
                out = True
            elif t is Symbol:
                out = n.is_commutative is True and n.is_real is True and n.is_finite is True
            elif t is Add or t is Mul:
                out = all(is_real(a) for a in n.args)
            elif t is exp:
                out = is_real(n.args[0])
            elif t is Pow:
                base, e = n.args
                out = e.is_Integer and (is_real(base) if e >= 0 else is_positive(base))
            else:
                out = False
            real[key] = out
        return real[key]

    def is_positive(n: Any) -> bool:
        key = id(n)
        if key not in positive:
            t = type(n)
            if n.is_Rational:
                out = n.p > 0
            elif t is exp:
                out = is_real(n.args[0])
            elif t is Add or t is Mul:
                out = all(is_positive(a) for a in n.args)
            elif t is Pow:
                out = n.args[1].is_Integer and is_positive(n.args[0])
            else:
                out = False
            positive[key] = out
        return positive[key]

    return is_real(expr)


def times_zero(c: Any) -> Any:
    """``0 * c``, the masked (inactive) entry of any number type.

    For a sympy expression, ``Mul`` gives ``0`` unless some factor is known to be infinite
    (then ``nan``), and finding that out asks ``is_finite`` of every factor — for the large
    cotangent entries, most of the cost of building the masked closed forms. When
    :func:`_finite_everywhere` shows ``c`` is finite for every value of its symbols, no factor
    can be known infinite, so the product is sympy's ``0`` (``S.Zero``, the object ``0 * c``
    returns), given here without building the product. Everything else (Fractions, Intervals,
    other expressions, or sympy with evaluation switched off) is multiplied as before."""
    sp = sys.modules.get("sympy")
    if sp is not None and sp.core.parameters.global_parameters.evaluate and _finite_everywhere(c):
        return sp.S.Zero
    return 0 * c


def _product(u: Any, c: Any) -> Any:
    """``u * c``; when ``u`` is sympy's ``0`` (a masked activation), as :func:`times_zero`."""
    sp = sys.modules.get("sympy")
    if (sp is not None and u is sp.S.Zero and sp.core.parameters.global_parameters.evaluate
            and _finite_everywhere(c)):
        return sp.S.Zero
    return u * c


def dense(W: Matrix, b: Vector, x: Vector) -> list[Any]:
    """``(dense W b x)_k = ∑_j x_j·W_jk + b_k`` (``W[input][output]``)."""
    return [sum((x[j] * W[j][k] for j in range(len(x))), start=b[k]) for k in range(len(b))]


def dense_transpose(W: Matrix, c: Vector) -> list[Any]:
    """``(Wᵀ·c)_l = ∑_k W_lk·c_k`` — ``dense (fun j i' => W i' j) 0 c`` in the Lean text."""
    return [sum((W[l][k] * c[k] for k in range(len(c))), start=times_zero(c[0])) for l in range(len(W))]


def relu_prime_times(positive: bool, value: Any) -> Any:
    """``relu'(z)·value`` for a pre-activation of known sign: ``value`` itself, or the masked
    :func:`times_zero` (sympy's ``0`` for a value finite by structure, without the finiteness
    queries ``Mul`` asks of every factor of the large cotangent sums)."""
    return value if positive else times_zero(value)


def relu(z: Vector, positive: Callable[[Any], bool] = exact_positive) -> list[Any]:
    return [relu_prime_times(positive(zj), zj) for zj in z]


def relu_mask(z: Vector, c: Vector, positive: Callable[[Any], bool] = exact_positive) -> list[Any]:
    """``reluMask z c``: ``c_l`` where ``z_l > 0``, else 0."""
    return [relu_prime_times(positive(zl), cl) for zl, cl in zip(z, c, strict=True)]


@dataclass(frozen=True, slots=True)
class Forward:
    """Every intermediate value of one forward pass."""

    x: tuple
    z0: tuple
    a0: tuple
    z1: tuple
    a1: tuple
    logits: tuple


def forward(net: Mlp, x: Vector, positive: Callable[[Any], bool] = exact_positive) -> Forward:
    z0 = dense(net.W0, net.b0, x)
    a0 = relu(z0, positive)
    z1 = dense(net.W1, net.b1, a0)
    a1 = relu(z1, positive)
    logits = dense(net.W2, net.b2, a1)
    return Forward(tuple(x), tuple(z0), tuple(a0), tuple(z1), tuple(a1), tuple(logits))


def softmax(logits: Vector, exp: Callable[[Any], Any]) -> list[Any]:
    """Shifted by the first logit (any shift is exact in ℝ; it keeps floats and intervals small)."""
    e = [exp(t - logits[0]) for t in logits]
    total = sum(e[1:], start=e[0])
    return [ei / total for ei in e]


def cross_entropy(logits: Vector, label: int, exp: Callable[[Any], Any], log: Callable[[Any], Any]) -> Any:
    """``log ∑_k exp(logits_k) − logits_label``, shifted by the first logit."""
    e = [exp(t - logits[0]) for t in logits]
    return log(sum(e[1:], start=e[0])) + logits[0] - logits[label]


def head_cotangent(logits: Vector, label: int, exp: Callable[[Any], Any]) -> list[Any]:
    """``softmax − onehot``: the loss gradient at the logits."""
    if not 0 <= label < len(logits):
        raise ValueError(f"label {label} is not a class index (0..{len(logits) - 1})")
    p = softmax(logits, exp)
    return [pk - 1 if k == label else pk for k, pk in enumerate(p)]


def outer(u: Vector, c: Vector) -> list[list[Any]]:
    """``G_ij = u_i·c_j``: a weight gradient from the layer input and the output cotangent."""
    return [[_product(ui, cj) for cj in c] for ui in u]


def gradients(net: Mlp, x: Vector, label: int, exp: Callable[[Any], Any],
              positive: Callable[[Any], bool] = exact_positive) -> dict[str, list[list[Any]]]:
    """The closed forms of ∂L/∂W₂, ∂L/∂W₁, ∂L/∂W₀ stated in the seeds (off the kinks):

    - ``∂L/∂W₂_ij = a₁ᵢ·(softmax − onehot)_j`` (the linear net's gradient at ``a₁``);
    - ``∂L/∂W₁_ij = a₀ᵢ·relu'(z₁ⱼ)·∑ₖ W₂ⱼₖ·(softmax − onehot)ₖ`` (``mlp_hidden_loss_gradAt``);
    - ``∂L/∂W₀_ij = xᵢ·relu'(z₀ⱼ)·∑ₗ W₁ⱼₗ·relu'(z₁ₗ)·∑ₖ W₂ₗₖ·(softmax − onehot)ₖ``
      (``mlp_input_loss_gradAt``), written in the nested ``reluMask`` form.
    """
    f = forward(net, x, positive)
    c2 = head_cotangent(f.logits, label, exp)
    c1 = relu_mask(f.z1, dense_transpose(net.W2, c2), positive)
    c0 = relu_mask(f.z0, dense_transpose(net.W1, c1), positive)
    return {"W2": outer(f.a1, c2), "W1": outer(f.a0, c1), "W0": outer(f.x, c0)}


def loss(net: Mlp, x: Vector, label: int, exp: Callable[[Any], Any], log: Callable[[Any], Any],
         positive: Callable[[Any], bool] = exact_positive) -> Any:
    return cross_entropy(forward(net, x, positive).logits, label, exp, log)
