"""Facts shared by the jobs of one run: a content-addressed store of deterministic answers.

A cold check discharges, each in its own process, obligations that repeat a computation: the
four descent implications prove the same two z3 lemmas, three psy01a certificates bound the
operator norms of the same weights. A job records such a fact under a key that digests
everything that determines it — for z3, the solver version, the limits and the full SMT-LIB
text of the assertions; for a norm bound, the library version, the precision and the matrix's
bytes — and a later job of the same run that meets the same key reads the answer back instead
of computing it again. Only answers that do not depend on which process computes them are
kept: an ``unsat`` (a fact about the assertions), a rigorous bound computed deterministically.

The store is a directory the runner creates for one run and deletes at its end (:func:`run_store`),
so a fact never outlives the code that produced it: within a run every job runs the code the
worker template imported. Entries are written atomically (a temporary file and a rename); an
unreadable, partial or mismatched entry is a miss, never an error. Outside a run (no store in
use) nothing is shared and every computation runs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterator

_store: Path | None = None


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
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("key") != digest:
        return None
    return entry.get("value")


def put(namespace: str, digest: str, value: Any) -> None:
    """Record ``value`` (JSON) under ``(namespace, digest)``; a failure to write loses nothing."""
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


def shared(namespace: str, parts: tuple[bytes | str, ...], compute: Callable[[], Any],
           encode: Callable[[Any], Any] = lambda value: value, decode: Callable[[Any], Any] = lambda value: value) -> Any:
    """``compute()``, or the value a job of this run recorded under the same ``parts``.

    ``encode`` turns the value into JSON and ``decode`` back; ``decode`` returns ``None`` for a
    record it does not accept (then the value is computed). Outside a run, ``compute()``."""
    if _store is None:
        return compute()
    digest = key(*parts)
    recorded = get(namespace, digest)
    if recorded is not None:
        value = decode(recorded)
        if value is not None:
            return value
    value = compute()
    put(namespace, digest, encode(value))
    return value


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

    if not (isinstance(record, list) and len(record) == 2 and all(isinstance(part, str) for part in record)):
        return None
    try:
        man, exp = (int(part) for part in record)
        value = flint.arb(flint.fmpz(man)) * flint.arb(2) ** exp
    except (TypeError, ValueError):
        return None
    if value.rad() != 0 or [str(part) for part in value.man_exp()] != [str(man), str(exp)]:
        return None
    return value


@contextlib.contextmanager
def run_store() -> Iterator[str]:
    """A fresh store directory for one run, removed (with everything in it) when the run ends."""
    directory = tempfile.mkdtemp(prefix="obligations-run-")
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)
