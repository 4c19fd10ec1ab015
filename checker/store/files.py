"""Files the store writes: atomic replacement, output checks, and the secret that authenticates
stored entries.

Everything the store writes (cache entries, baselines, reports, the analysis store) goes through
:func:`atomic_write`, so a reader never sees a half-written file and a crash leaves the old one.
"""

from __future__ import annotations

import glob
import os
import secrets
import stat
import tempfile
from pathlib import Path

from checker.kernel.errors import UsageError


SECRET_ENV = "OBLIGATIONS_CACHE_SECRET"


def secret_path() -> Path:
    """Where the cache's MAC secret lives: ``$OBLIGATIONS_CACHE_SECRET`` (a file path), else the
    user's state directory (``$XDG_STATE_HOME`` or ``~/.local/state``)/``obligations/cache-secret``."""
    if os.environ.get(SECRET_ENV):
        return Path(os.environ[SECRET_ENV]).expanduser()
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "obligations" / "cache-secret"


def load_secret(path: Path) -> bytes:
    """The secret in ``path``, created (32 random bytes, hex, mode 0600) if it does not exist."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process created it meanwhile
            return load_secret(path)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(secrets.token_hex(32) + "\n")
        text = path.read_text(encoding="ascii").strip()
    except UnicodeDecodeError as exc:
        raise OSError(f"{path} is not a cache secret") from exc
    if len(text) < 32:
        raise OSError(f"{path} is too short to be a cache secret")
    return text.encode("ascii")


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    old = os.umask(0o022)  # no procfs: read it by setting it (and put it back at once)
    os.umask(old)
    return old


def output_target(path: str | os.PathLike[str]) -> Path:
    """The file a report, baseline or cache entry written to ``path`` ends up in: a symlink is
    followed (its target is replaced, the link stays)."""
    return Path(os.path.realpath(os.fspath(path)))


def check_writable(path: str | os.PathLike[str], what: str = "output") -> None:
    """Raise :class:`~checker.kernel.errors.UsageError` now if ``path`` cannot be written, so a run is
    never lost at the end to a bad output path."""
    target = output_target(path)
    shown = os.fspath(path) if os.fspath(path) == str(target) else f"{os.fspath(path)} (→ {target})"
    if target.is_dir():
        raise UsageError(f"{what} {shown} is a directory; name a file")
    parent = target.parent
    if not parent.is_dir():
        raise UsageError(f"{what} {shown}: the directory {parent} does not exist; create it first")
    if target.exists() and not os.access(target, os.W_OK):
        raise UsageError(f"{what} {shown} is not writable; fix its permissions or choose another path")
    if target.exists() and not target.is_file():
        return  # a device or a pipe: written in place (atomic_write), nothing is created beside it
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".probe", dir=parent)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise UsageError(f"{what} {shown}: cannot write in {parent} ({exc.strerror}); choose another path") from None


def atomic_write(path: str | os.PathLike[str], text: str, durable: bool = True) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory and a rename,
    so a reader never sees a half-written file. A symlink is followed; an existing file keeps its
    mode, a new one gets the user's umask (as ``open`` would); a device or pipe is written in place. ``durable`` also flushes the file
    to disk before the rename (``fsync``), so that a crash cannot leave a truncated file behind;
    cache entries skip that (it was most of the cache's per-entry cost): a truncated entry fails
    its authentication and is only a miss."""
    path = output_target(path)
    try:
        st = os.stat(path)
        mode = stat.S_IMODE(st.st_mode)
    except FileNotFoundError:
        st = None
        mode = 0o666 & ~_umask()
    if st is not None and not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        # a device or a pipe (/dev/stdout, /dev/null): written in place, never replaced by a rename
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    if durable:
        _sweep_leftovers(path)


LEFTOVER_S = 600.0
"""A temporary file of :func:`atomic_write` for the same target, this old, was left by a writer killed
between its creation and the rename (a rename or an unlink always follows otherwise)."""


def _sweep_leftovers(path: Path) -> None:
    import time

    now = time.time()
    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        try:
            if now - stale.lstat().st_mtime > LEFTOVER_S:
                stale.unlink()
        except OSError:
            pass
