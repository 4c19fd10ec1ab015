"""Facts shared by the jobs of one run: a content-addressed store of deterministic answers.

A cold check discharges, each in its own process, obligations that repeat a computation: the
four descent implications prove the same two z3 lemmas, three psy01a certificates bound the
operator norms of the same weights. A job records such a fact under a key that digests
everything that determines it, and a later job of the same run that meets the same key reads the
answer back instead of computing it again. Only answers that do not depend on which process
computes them are kept: an ``unsat`` (a fact about the assertions), a rigorous bound computed
deterministically.

**Only the engine writes facts, through references taken before any catalogue code ran.** A job
calls :func:`seal` before it imports its obligation's module (the worker template never imports a
catalogue module): that captures z3's C entry points (check, the solver's SMT-LIB text, the error
code, the version) and python-flint's ball types. The two recorders of this module are the only
code that writes a record, and each computes the fact it records through those references from
the very data its key digests: :func:`z3_check` reads the solver's assertions and its answer from
the same C solver object, so a record says "these assertions are unsat" whatever the Python
objects around it were made to do (a ``z3.Solver.check`` monkeypatched by a helper that forgot
to restore it changes nothing: it is never called); :func:`opnorm_upper` bounds the norm of the
matrix whose bytes it keys on, with the captured ball types. Whatever catalogue code passes or
patches, a record is a true fact about its key. (Code that deliberately writes into the store's
directory, or digs the writer out of the interpreter, is not stopped: Python has no boundary
inside one process, and such code could as well edit the obligations it would fool.)

The store is a directory the runner creates for one run and deletes at its end (:func:`run_store`),
so a fact never outlives the engine that produced it. Entries are written atomically (a
temporary file and a rename); an unreadable, partial or mismatched entry is a miss, never an
error. Outside a run (no store in use) nothing is shared and every computation runs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

_store: Path | None = None


@dataclass(frozen=True, slots=True)
class _Z3:
    check: Any  # the ctypes entry point Z3_solver_check_assumptions
    to_string: Any  # Z3_solver_to_string
    error_code: Any  # Z3_get_error_code
    error_message: Any  # Z3_get_error_msg
    version: str
    results: tuple[Any, Any, Any]  # z3.unsat, z3.unknown, z3.sat (Z3_L_FALSE, Z3_L_UNDEF, Z3_L_TRUE)
    exception: type


@dataclass(frozen=True, slots=True)
class _Flint:
    arb: Any
    arb_mat: Any
    fmpz: Any
    ctx: Any
    version: str


@dataclass(frozen=True, slots=True)
class _Sealed:
    z3: _Z3 | None
    flint: _Flint | None


_SEALED: list[_Sealed] = []  # at most one: the first seal wins


def seal() -> None:
    """Take the references the recorders use, once per process (a later call changes nothing): z3
    and python-flint as they are now, if imported. A job calls this before any catalogue code
    runs; a library imported only later is used directly, and records nothing."""
    if _SEALED:
        return
    import sys

    z3_refs = flint_refs = None
    if "z3" in sys.modules:
        try:
            import z3
            from z3 import z3core

            # z3py's wrappers keep the ctypes entry point (and the error accessors) in a default argument
            check = z3core.Z3_solver_check_assumptions.__defaults__[-1]
            to_string = z3core.Z3_solver_to_string.__defaults__[-1]
            z3_refs = _Z3(check.f, to_string.f, check.get_error_code, check.get_error_message,
                          f"z3 {z3.get_version_string()}", (z3.unsat, z3.unknown, z3.sat), z3.Z3Exception)
        except Exception:  # noqa: BLE001 - an unusable z3 records nothing
            z3_refs = None
    if "flint" in sys.modules:
        try:
            import flint

            flint_refs = _Flint(flint.arb, flint.arb_mat, flint.fmpz, flint.ctx, str(flint.__version__))
        except Exception:  # noqa: BLE001
            flint_refs = None
    _SEALED.append(_Sealed(z3_refs, flint_refs))


def _sealed() -> _Sealed | None:
    return _SEALED[0] if _SEALED else None


def use(directory: str | os.PathLike[str] | None) -> None:
    """Share facts through ``directory`` from now on in this process (``None``: share nothing)."""
    global _store
    _store = Path(directory) if directory is not None else None


def active() -> bool:
    return _store is not None


def key(*parts: bytes | str) -> str:
    """A digest of ``parts`` (each length-prefixed, so no two sequences collide by concatenation)."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def _path(namespace: str, digest: str) -> Path | None:
    if _store is None:
        return None
    return _store / f"{namespace}-{digest}.json"


def get(namespace: str, digest: str) -> Any | None:
    """The value recorded under ``(namespace, digest)`` in this run, or ``None``."""
    path = _path(namespace, digest)
    if path is None:
        return None
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("key") != digest:
        return None
    return entry.get("value")


def _put(namespace: str, digest: str, value: Any) -> None:
    """Record ``value`` (JSON) under ``(namespace, digest)``; a failure to write loses nothing.
    Called only by the recorders below."""
    path = _path(namespace, digest)
    if path is None:
        return
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"key": digest, "value": value}, fh)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError, UnboundLocalError):
            os.unlink(tmp)


# ---------------------------------------------------------------------------------------
# The recorders
# ---------------------------------------------------------------------------------------


def z3_text(solver: Any) -> str:
    """The solver's SMT-LIB text (its declarations and assertions) through the sealed entry point
    when there is one, so that a ``z3.Solver.sexpr`` patched by catalogue code is never what is
    read; without a seal, ``solver.sexpr()``."""
    sealed = _sealed()
    refs = sealed.z3 if sealed is not None else None
    if refs is None:
        return str(solver.sexpr())
    ctx = solver.ctx.ref()
    text = refs.to_string(ctx, solver.solver)
    _raise_z3_error(refs, ctx)
    return text.decode("utf-8") if isinstance(text, bytes) else str(text)


def z3_check(solver: Any, limits: tuple[Any, ...], read: list[str] | None = None) -> Any:
    """``solver.check()`` with no assumptions, through the sealed entry points when there are:
    ``unsat`` at once when a job of this run recorded exactly these assertions unsat (the key is
    z3's version, ``limits`` and the solver's full SMT-LIB text), and an ``unsat`` found here is
    recorded. A model or ``unknown`` is always this call's own and never recorded. Without sealed
    references (z3 imported after the seal, or outside a job), the solver's own ``check`` answers
    and nothing is recorded. ``read``: the solver's text as read here before the check
    (:func:`z3_text`) is appended to it, for a caller that needs it too (the second solver's query):
    read once, and never handed in, so no caller can key a record on another problem's text."""
    sealed = _sealed()
    refs = sealed.z3 if sealed is not None else None
    text = z3_text(solver) if read is not None or (refs is not None and _store is not None) else None
    if read is not None:
        read.append(text or "")
    if refs is None:
        answer = solver.check()
        return answer
    ctx = solver.ctx.ref()
    handle = solver.solver
    digest = None
    if _store is not None and text is not None:  # read above whenever there is a store
        digest = key(refs.version, repr(limits), text)
        if get("z3-unsat", digest) is True:
            return refs.results[0]
    code = refs.check(ctx, handle, 0, None)
    _raise_z3_error(refs, ctx)
    answer = {-1: refs.results[0], 0: refs.results[1], 1: refs.results[2]}.get(code)
    if answer is None:
        raise refs.exception(f"z3 answered {code!r} to a check")
    if code == -1 and digest is not None:
        _put("z3-unsat", digest, True)
    return answer


def _raise_z3_error(refs: _Z3, ctx: Any) -> None:
    err = refs.error_code(ctx)
    if err != 0:
        message = refs.error_message(ctx, err)
        raise refs.exception(message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message))


def opnorm_upper(matrix: Any, squarings: int) -> Any:
    """A rigorous upper bound for ‖B‖_op as an exact arb dyadic (radius 0): with M = BᵀB (or BBᵀ,
    the smaller) positive semidefinite and k = 2^squarings, λ_max(M)^k = λ_max(M^k) ≤ ‖M^k‖_F, so
    ‖B‖_op ≤ ‖M^k‖_F^{1/(2k)}. ``matrix`` is a float array (a vector is a column).

    Deterministic in B's bytes, ``squarings`` and the arb precision: a job of this run that bounds
    the same matrix again reads the bound back. The bound is computed from the bytes the key
    digests, with the sealed ball types (without them — flint imported after the seal — it is
    computed with flint as imported, and not recorded)."""
    import numpy as np

    a = np.ascontiguousarray(np.asarray(matrix, dtype=np.float64))
    if a.ndim == 1:
        a = a.reshape(-1, 1)
    if a.ndim != 2:
        raise ValueError(f"opnorm_upper takes a matrix or a vector, got shape {a.shape}")
    rows, cols = (int(n) for n in a.shape)
    data = a.tobytes()
    values = memoryview(data).cast("d").tolist()  # the floats of exactly the bytes keyed on
    sealed = _sealed()
    refs = sealed.flint if sealed is not None else None
    if refs is None:
        import flint

        refs_used = _Flint(flint.arb, flint.arb_mat, flint.fmpz, flint.ctx, str(flint.__version__))
    else:
        refs_used = refs
    digest = None
    if _store is not None and refs is not None:
        digest = key("opnorm_upper", refs.version, str(refs.ctx.prec), str(squarings), str((rows, cols)), data)
        recorded = _decode_exact_arb(get("opnorm-upper", digest), refs)
        if recorded is not None:
            return recorded
    value = _opnorm_upper(refs_used, [values[i * cols:(i + 1) * cols] for i in range(rows)], squarings)
    if digest is not None:
        try:
            _put("opnorm-upper", digest, encode_exact_arb(value))
        except ValueError:
            pass
    return value


def _opnorm_upper(refs: _Flint, rows: list[list[float]], squarings: int) -> Any:
    a = refs.arb_mat(rows)  # a float is an exact dyadic: no rounding
    m = a * a.transpose() if a.nrows() <= a.ncols() else a.transpose() * a
    for _ in range(squarings):
        m = m * m
    fro2 = refs.arb(0)
    for x in m.entries():
        fro2 += x * x
    return fro2.root(2 ** (squarings + 2)).upper()


def encode_exact_arb(x: Any) -> list[str]:
    """An arb ball of radius 0 (an exact dyadic, as ``arb.upper()`` returns) as its mantissa and
    exponent."""
    if x.rad() != 0:
        raise ValueError("only an exact arb value is recorded")
    return [str(part) for part in x.man_exp()]


def decode_exact_arb(record: Any) -> Any | None:
    """The exact arb value of :func:`encode_exact_arb`'s record, or ``None`` if it is not one
    (the rebuilt value must have radius 0 and the recorded mantissa and exponent)."""
    import flint

    return _decode_exact_arb(record, _Flint(flint.arb, flint.arb_mat, flint.fmpz, flint.ctx, str(flint.__version__)))


def _decode_exact_arb(record: Any, refs: _Flint) -> Any | None:
    if not (isinstance(record, list) and len(record) == 2 and all(isinstance(part, str) for part in record)):
        return None
    try:
        man, exp = (int(part) for part in record)
        value = refs.arb(refs.fmpz(man)) * refs.arb(2) ** exp
    except (TypeError, ValueError):
        return None
    if value.rad() != 0 or [str(part) for part in value.man_exp()] != [str(man), str(exp)]:
        return None
    return value


RUN_STORE_PREFIX = "obligations-run-"
STALE_STORE_S = 600.0
"""A run store whose run is gone (killed before it could remove it) is removed by the next run once it is
this old: its run's process no longer exists (the process id is in the directory's name)."""


@contextlib.contextmanager
def run_store() -> Iterator[str]:
    """A fresh store directory for one run, removed (with everything in it) when the run ends; the
    stores of runs killed before their end are removed on the way (:func:`sweep_run_stores`)."""
    sweep_run_stores()
    directory = tempfile.mkdtemp(prefix=f"{RUN_STORE_PREFIX}{os.getpid()}-")
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def sweep_run_stores(now: float | None = None) -> list[str]:
    """Remove the run stores in the temp directory whose run's process is gone and that are older than
    :data:`STALE_STORE_S` (a store named without a process id, from an older version, once a day
    old); the removed paths."""
    import time

    now = time.time() if now is None else now
    removed = []
    base = Path(tempfile.gettempdir())
    for path in base.glob(f"{RUN_STORE_PREFIX}*"):
        try:
            age = now - path.lstat().st_mtime
            if not path.is_dir() or path.is_symlink() or path.stat().st_uid != os.getuid():
                continue
        except OSError:
            continue
        head = path.name[len(RUN_STORE_PREFIX):].split("-", 1)[0]
        if head.isdigit():
            if age < STALE_STORE_S or _process_alive(int(head)):
                continue
        elif age < 86400:
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(str(path))
    return removed


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def record_second_answer(digest: str, value: Any) -> None:
    """The recorder of the second solver's answers (:mod:`checker.backends.confirm`): an answer
    found once in a run is read back by the other jobs asking the same query. A confirmation never
    makes a proof by itself (the first solver's ``unsat`` does); it is only ever a second check."""
    _put("cvc5", digest, value)
