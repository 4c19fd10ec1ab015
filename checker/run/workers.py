"""Worker processes: one fresh process per job, forked from a clean template.

The *template* is a process spawned once (per parent) that imports the engine and the heavy
libraries (numpy, sympy, z3, mpmath, flint) the catalogue's modules reach by an import statement
— only those: a larger template costs every fork more (:func:`heavy_libraries`, read from the
sources without importing them; a library a job imports anyway is imported into the template
after that job). It never imports a catalogue module (:func:`_preload` refuses any name that is
not the engine's or a listed library): a job imports its own obligation's module, so it starts
with no state from any catalogue module it does not itself import — a module that patches a
library or sets numpy's error handling at import reaches only the jobs that import it. For every
job (one obligation's discharge, or importing catalogue modules to see whether they load) it
forks a child, so each job starts from the same clean state, whatever the previous one did,
without paying for the library imports again. Once jobs come, the child for the next one is forked while the
current ones run (a *spare*, waiting on a pipe for its job; forked again after every preload), so
a job does not wait for a fork; and a finished child announces its exit code before it exits, so
the template does not wait for the kernel to tear it down.

Each child:

- leads its own process group, so everything it starts is killed with it when it ends, and is a
  *child subreaper* (``PR_SET_CHILD_SUBREAPER``), as the template is: a process it starts that
  leaves the group (``setsid``, ``start_new_session``) and is orphaned stays in its process tree,
  and the job kills its whole tree before it exits; what a job that dies abruptly leaves behind
  is reparented to the template, which kills every child of its own that is not a job;
- has an address-space limit (``RLIMIT_AS``), and the template also polls the total resident
  memory of the whole group and kills the group over the limit;
- has stdin from ``/dev/null`` and stdout/stderr in a temporary file (opened for appending),
  returned (truncated) with the job's answer: nothing it prints reaches the parent's streams, and
  the template cuts the file back to its head whenever it grows past :data:`OUTPUT_DISK_LIMIT`;
- sends its answer as length-prefixed strict JSON frames on a pipe of its own.

The template kills a child's tree and group at the deadline, when the child ends, and — every
tree — when the parent goes away (its command pipe closes, or ``PR_SET_PDEATHSIG`` delivers
SIGTERM); a child whose template dies gets SIGKILL (``PR_SET_PDEATHSIG`` again), and every process
started under a template carries its token in the environment, so the parent finds and kills what
a dead template's jobs left behind (:func:`sweep_token`).

The parent reads the template's messages on a thread of its own, and the template waits on its
pipes with ``poll`` (no descriptor limit) after raising its open-file limit: the protocol cannot
block both sides at any ``--jobs``.
"""

from __future__ import annotations

import atexit
import ctypes
import errno
import importlib
import json
import math
import multiprocessing
import os
import pickle
import queue
import re
import resource
import secrets
import select
import signal
import struct
import sys
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Callable, Mapping

from checker.kernel.model import strict
from checker.store.manifest import THREAD_VARS, TOKEN_VAR  # the engine's own variables in every job

# At start, only the light part of the engine: importing catalogue modules to see whether they load
# (all a warm, fully cached run needs) must not wait for the heavy libraries.
PRELOAD = ("checker.kernel.model", "checker.kernel.verdicts", "checker.kernel.claims", "checker.kernel.declaration", "checker.run.runner", "checker.backends.memo")
# Before the first discharge: what nearly every obligation uses.
LIBRARIES = (
    "numpy", "sympy", "z3", "mpmath", "flint", "checker.audit.audits", "checker.audit.recheck", "checker.audit.vacuity",
    "checker.backends.exact", "checker.backends.smt", "checker.backends.symbolic", "checker.backends.interval",
    "checker.backends.sampling", "checker.kernel.printing",
    # Imported lazily inside the libraries by many obligations (sympy's simplify imports the units
    # package, 0.12 s; permutations, random generators): once in the template, not once per job.
    "numpy.random", "sympy.combinatorics", "sympy.tensor.tensor", "sympy.physics.units",
    "sympy.assumptions.wrapper", "sympy.sets.setexpr", "sympy.integrals.manualintegrate", "sympy.stats",
)
HEAVY = tuple(m for m in LIBRARIES if not m.startswith("checker."))
_HEAVY_ROOTS = frozenset(m.split(".")[0] for m in HEAVY)
OUTPUT_LIMIT = 8000  # characters of a job's stdout/stderr kept
# Bytes of a job's captured output allowed on disk: past this, the file is cut back to its head
# (the part kept), so an obligation printing without end fills no disk.
OUTPUT_DISK_LIMIT = 1 << 20
_POLL_S = 0.01
_REAP_POLL_S = 0.0005
_MEMORY_POLL_S = 0.25
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
# A frame header no JSON frame can have (lengths are < 2³¹): the child's last word, its exit code.
_EXIT_MARK = b"\xff\xff\xff\xff"


@dataclass(frozen=True, slots=True)
class Finished:
    """How a job ended, as the template saw it."""

    job_id: int
    frames: tuple[Any, ...]  # the JSON frames the child sent, in order (an unreadable one: None)
    exitcode: int | None
    signal: int | None
    killed: str | None  # "timeout" | "memory" | None
    output: str
    output_truncated: bool
    time_s: float
    peak_rss_mib: float

    @property
    def how(self) -> str:
        if self.signal is not None:
            name = signal.Signals(self.signal).name if self.signal in signal.Signals._value2member_map_ else "?"
            return f"signal {self.signal} ({name})"
        return f"exit code {self.exitcode}"


# ---------------------------------------------------------------------------------------
# JSON frames (strict JSON data: checker.kernel.model.strict)
# ---------------------------------------------------------------------------------------


def _send_frame(fd: int, obj: Any) -> None:
    data = json.dumps(strict(obj), allow_nan=False, ensure_ascii=False).encode("utf-8")
    payload = struct.pack(">I", len(data)) + data
    view = memoryview(payload)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _split_frames(buffer: bytearray) -> list[Any]:
    """The complete frames at the start of ``buffer`` (removed from it); an exit announcement
    (:data:`_EXIT_MARK` and the code) is left in place for :func:`_announced_exit`."""
    frames = []
    while len(buffer) >= 4 and buffer[:4] != _EXIT_MARK:
        (n,) = struct.unpack(">I", buffer[:4])
        if len(buffer) < 4 + n:
            break
        raw = bytes(buffer[4:4 + n])
        del buffer[:4 + n]
        try:
            frames.append(json.loads(raw.decode("utf-8")))
        except (ValueError, UnicodeDecodeError, RecursionError):
            frames.append(None)
    return frames


# ---------------------------------------------------------------------------------------
# Platform helpers
# ---------------------------------------------------------------------------------------


def _prctl(option: int, value: int) -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - no prctl
        pass


def _set_pdeathsig(sig: int) -> None:
    """Ask Linux to send ``sig`` to this process when its parent dies (no-op elsewhere)."""
    _prctl(_PR_SET_PDEATHSIG, sig)


def _become_subreaper() -> None:
    """Orphaned descendants of this process are reparented to it instead of to init (Linux), so
    one that left the process group (``setsid``) is still found in this process's tree."""
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def _children(pid: int) -> list[tuple[int, str]]:
    """``(pid, state)`` of each child of ``pid`` (``/proc/PID/task/*/children``); state ``Z`` for
    a zombie."""
    out: list[tuple[int, str]] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as fh:
                kids = [int(x) for x in fh.read().split()]
        except (OSError, ValueError):
            continue
        for child in kids:
            try:
                with open(f"/proc/{child}/stat", "rb") as fh:
                    stat = fh.read().decode("ascii", "replace")
                out.append((child, stat[stat.rfind(")") + 2:stat.rfind(")") + 3]))
            except OSError:
                continue
    return out


def kill_tree(pid: int, rounds: int = 50) -> None:
    """SIGKILL every live descendant of ``pid`` (not ``pid`` itself), again until none is left:
    a process forking while it is killed adds children the next round finds."""
    for _ in range(rounds):
        todo, live, seen = [pid], [], set()
        while todo:
            for child, state in _children(todo.pop()):
                if child in seen:
                    continue
                seen.add(child)
                todo.append(child)
                if state != "Z":
                    live.append(child)
        if not live:
            return
        for child in live:
            try:
                os.kill(child, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def sweep_token(token: str) -> int:
    """SIGKILL every process whose environment carries this template's token (what a dead
    template's jobs started and left behind); how many were found."""
    needle = f"{TOKEN_VAR}={token}".encode()
    found = 0
    try:
        entries = os.listdir("/proc")
    except OSError:  # pragma: no cover - no procfs
        return 0
    me = os.getpid()
    for entry in entries:
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                env = fh.read()
        except OSError:
            continue
        if needle in env.split(b"\0"):
            try:
                os.kill(int(entry), signal.SIGKILL)
                found += 1
            except (ProcessLookupError, PermissionError):
                pass
    return found


def _raise_open_file_limit() -> None:
    """The template holds two descriptors per running job: let it hold as many as it may."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or hard > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16), hard))
    except (ValueError, OSError):  # pragma: no cover
        pass


# glibc's mallopt parameters: serve allocations up to 64 MiB from the heap, and give freed heap
# memory back to the kernel only past 256 MiB (defaults: adaptive, from 128 KiB).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_HEAP_ALLOCATION_LIMIT, _HEAP_TRIM_THRESHOLD = 64 << 20, 256 << 20


def _keep_freed_memory() -> None:
    """Let a job reuse the memory it frees instead of returning it to the kernel (glibc only).

    A numpy temporary above the default mmap threshold is a fresh mapping whose every page faults
    in on first touch and is unmapped when freed; a short-lived job that builds many such arrays
    spends about as much time in those faults as it saves in memory (half of a full check's minor
    page faults, about 2 s of system time on two cores). The settings are inherited by every fork;
    a job's peak resident memory is what it had live at its largest, as before."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(_M_MMAP_THRESHOLD, _HEAP_ALLOCATION_LIMIT)
        libc.mallopt(_M_TRIM_THRESHOLD, _HEAP_TRIM_THRESHOLD)
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        pass


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _announced_exit(buffer: bytearray) -> tuple[int, tuple[str, ...]] | None:
    """The exit code the child announced as its last word, with the heavy libraries it imported
    that the template lacks, if the buffer holds exactly that (names outside :data:`HEAVY` are
    ignored: the template imports nothing a job names but those)."""
    if len(buffer) >= 8 and buffer[:4] == _EXIT_MARK:
        try:
            names = bytes(buffer[8:]).decode("ascii").split(",") if len(buffer) > 8 else []
        except UnicodeDecodeError:
            return None
        return struct.unpack(">i", buffer[4:8])[0], tuple(n for n in names if n in HEAVY)
    return None


def _missing_heavy() -> list[str]:
    """The heavy libraries this (forked) job imported that its template had not."""
    return [m for m in HEAVY if m in sys.modules and m not in _TEMPLATE_MODULES]


def _rss_and_children(pid: int) -> tuple[int, int, list[int]] | None:
    """(process group, resident pages, child pids) of ``pid``, from ``/proc``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read().decode("ascii", "replace")
        fields = stat[stat.rfind(")") + 2:].split()
        children: list[int] = []
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as fh:
                children.extend(int(x) for x in fh.read().split())
        return int(fields[2]), int(fields[21]), children
    except (OSError, IndexError, ValueError):
        return None


def tree_rss_mib(leaders: set[int]) -> dict[int, float] | None:
    """Resident memory (MiB) of each leader with all its descendants (``/proc/PID/task/*/children``),
    plus — through a full scan — any other member of its process group; ``None`` where the
    kernel does not list children."""
    page = os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
    totals: dict[int, float] = {}
    for leader in leaders:
        todo, seen, pages = [leader], set(), 0
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            info = _rss_and_children(pid)
            if info is None:
                if pid == leader and not os.path.exists(f"/proc/{pid}/task"):
                    return None
                continue
            pages += info[1]
            todo.extend(info[2])
        totals[leader] = pages * page
    return totals


def group_rss_mib(pgids: set[int]) -> dict[int, float]:
    """Resident memory (MiB) of every process in each process group, from a scan of ``/proc``."""
    totals = {g: 0.0 for g in pgids}
    page = os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
    try:
        entries = os.listdir("/proc")
    except OSError:  # pragma: no cover - no procfs
        return totals
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        try:
            pgrp, rss = int(fields[2]), int(fields[21])
        except (IndexError, ValueError):
            continue
        if pgrp in totals:
            totals[pgrp] += rss * page
    return totals


_IMPORT = re.compile(r"^[ \t]*(?:import[ \t]+([\w., \t]+)|from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+))",
                     re.MULTILINE)
# What the engine's backends import lazily, when a catalogue module imports them.
BACKEND_LIBRARIES = {
    "checker.backends.smt": ("z3",),
    "checker.backends.symbolic": ("sympy",),
    "checker.backends.sampling": ("numpy",),
    "checker.backends.interval": ("mpmath", "flint"),
}


def _imports_of(name: str) -> set[str]:
    """Every module an import statement of ``name``'s source names, at module level or inside a
    function (``from p import a`` names ``p`` and ``p.a``); empty if the source is not found.
    Read by a regular expression, not parsed: an import written in a string only adds a name."""
    import importlib.util

    module = sys.modules.get(name)
    path = getattr(module, "__file__", None)
    if path is None:
        path = _source_of(name)
    if not path or not path.endswith(".py"):
        return set()
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return set()
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    found: set[str] = set()
    for plain, base, names in _IMPORT.findall(text):
        if plain:
            found.update(part.split()[0] for part in plain.split(",") if part.strip())
            continue
        level = len(base) - len(base.lstrip("."))
        base = base.lstrip(".")
        if level:
            parts = package.split(".")
            parent = ".".join(parts[:len(parts) - level + 1])
            base = f"{parent}.{base}" if base else parent
        if base:
            found.add(base)
            found.update(f"{base}.{part.split()[0]}" for part in names.strip("()").split(",") if part.split())
    return found


def _source_of(name: str) -> str | None:
    """The file of module ``name``, found without importing anything: ``importlib.util.find_spec``
    of a dotted name imports its parent packages, which the template must never do for a
    catalogue. The top-level name is looked up by the finders (which import nothing), each
    submodule in its parent's directories."""
    import importlib.machinery
    import importlib.util

    parts = name.split(".")
    try:
        spec = importlib.util.find_spec(parts[0]) if parts[0] not in sys.modules else getattr(
            sys.modules[parts[0]], "__spec__", None)
        for i in range(1, len(parts)):
            locations = list(spec.submodule_search_locations or ()) if spec is not None else []
            if not locations:
                return None
            spec = importlib.machinery.PathFinder.find_spec(".".join(parts[:i + 1]), locations)
    except (ImportError, ValueError, AttributeError):
        return None
    return spec.origin if spec is not None else None


def heavy_libraries(modules: Any) -> list[str]:
    """The heavy libraries (:data:`HEAVY`, with the submodules listed there) that an import
    statement reaches from the catalogue ``modules`` — directly, through other modules of their
    top-level packages, or through a backend that imports them lazily (:data:`BACKEND_LIBRARIES`)
    — at module level or inside a function: what their jobs will import, so that the template
    imports it once instead. A library reached another way (the engine's own lazy imports,
    ``importlib``) is imported by the first job that needs it, and then by the template."""
    packages = {m.split(".")[0] for m in modules} - {"checker"}
    seen: set[str] = set()
    wanted: set[str] = set()
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for imported in _imports_of(name):
            root = imported.split(".")[0]
            if root in _HEAVY_ROOTS:
                wanted.add(root)
            elif imported in BACKEND_LIBRARIES:
                wanted.update(BACKEND_LIBRARIES[imported])
            elif root in packages and imported not in seen:
                todo.append(imported)
    return [m for m in HEAVY if m.split(".")[0] in wanted]


# ---------------------------------------------------------------------------------------
# The child side: what a forked job runs
# ---------------------------------------------------------------------------------------

JobFunction = Callable[[Callable[[Any], None], Any], None]


def _job_function(kind: str) -> JobFunction:
    """The job function named ``kind`` as ``"module:function"``: the caller hands the workers its
    job by dotted path (resolved here, in the child), so the workers import no caller."""
    module, _, name = kind.partition(":")
    if not module or not name:
        raise ValueError(f"a job kind is 'module:function', got {kind!r}")
    function = getattr(importlib.import_module(module), name, None)
    if not callable(function):
        raise ValueError(f"unknown job kind {kind!r}")
    return function


def _become_job(writer: int, out_fd: int, memory_mib: int, sys_path: list[str], keep: set[int]) -> None:
    os.setpgid(0, 0)
    _set_pdeathsig(signal.SIGKILL)
    _become_subreaper()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGCHLD, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_DFL)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(out_fd, 1)
    os.dup2(out_fd, 2)
    # every other descriptor the template holds (its pipe to the parent, other jobs' pipes)
    for fd in _open_fds():
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = open(1, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.stderr = open(2, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)
    if memory_mib > 0:
        limit = memory_mib * 1024 * 1024
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ValueError, OSError):  # pragma: no cover - a hard limit below ours
            pass
    sys.path[:] = sys_path


def _open_fds() -> list[int]:
    try:
        return [int(x) for x in os.listdir("/proc/self/fd")]
    except OSError:  # pragma: no cover - no procfs
        return list(range(3, 256))


def _child(kind: str, payload: Any, writer: int, out_fd: int, memory_mib: int, sys_path: list[str]) -> None:
    code = 0
    try:
        _become_job(writer, out_fd, memory_mib, sys_path, {writer})
        _job_function(kind)(lambda obj: _send_frame(writer, obj), payload)
    except BaseException:  # noqa: BLE001 - the job's own failure is its answer's absence
        code = 70
        try:
            traceback.print_exc()
        except BaseException:  # noqa: BLE001
            pass
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            pass
        try:
            kill_tree(os.getpid())  # what it started, in its group or not
        except BaseException:  # noqa: BLE001
            pass
        # Announce the exit code and close the answer pipe before exiting: the template then
        # finishes the job at once instead of waiting for the kernel to tear the process down.
        try:
            learned = ",".join(_missing_heavy()).encode("ascii")
            os.write(writer, _EXIT_MARK + struct.pack(">i", code) + learned)
            os.close(writer)
        except BaseException:  # noqa: BLE001
            pass
        os._exit(code)


# ---------------------------------------------------------------------------------------
# The template process
# ---------------------------------------------------------------------------------------


@dataclass
class _Running:
    pid: int
    reader: int
    out: Any
    deadline: float
    memory_mib: int
    started: float
    buffer: bytearray = field(default_factory=bytearray)
    frames: list[Any] = field(default_factory=list)
    killed: str | None = None
    peak_rss_mib: float = 0.0
    eof: bool = False  # the answer pipe is closed: stop selecting on it
    cut: bool = False  # its output file was cut back to its head
    announced: int | None = None  # the exit code the child announced before closing the pipe
    learned: tuple[str, ...] = ()  # heavy libraries the child imported that the template lacks


@dataclass(frozen=True, slots=True)
class _Spare:
    """A child forked ahead of its job (off the critical path), waiting for it on a pipe."""

    pid: int
    command: int  # the template's end: the job, pickled, then closed (closed empty: exit)
    reader: int
    out: Any


def _output_file() -> Any:
    """A job's captured-output file, in append mode (shared with the job through fork): once the
    template cuts it back, the job's next writes land after the head, not past a hole."""
    import fcntl

    out = tempfile.TemporaryFile()
    flags = fcntl.fcntl(out.fileno(), fcntl.F_GETFL)
    fcntl.fcntl(out.fileno(), fcntl.F_SETFL, flags | os.O_APPEND)
    return out


def _cap_output(job: _Running) -> None:
    try:
        if os.fstat(job.out.fileno()).st_size > OUTPUT_DISK_LIMIT:
            os.ftruncate(job.out.fileno(), OUTPUT_LIMIT * 4 + 1)
            job.cut = True
    except (OSError, ValueError):
        pass


def _fork_spare() -> _Spare:
    reader, writer = os.pipe()
    command_in, command = os.pipe()
    out = _output_file()
    template_pid = os.getpid()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        os.close(command)
        _spare_child(template_pid, command_in, writer, out.fileno())
    try:
        os.setpgid(pid, pid)
    except OSError:  # the child already did it (or already exited)
        pass
    os.close(writer)
    os.close(command_in)
    os.set_blocking(reader, False)
    return _Spare(pid, command, reader, out)


def _spare_child(template_pid: int, command: int, writer: int, out_fd: int) -> None:
    try:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGCHLD, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)  # not the template's handlers
        os.setpgid(0, 0)
        _set_pdeathsig(signal.SIGKILL)
        if os.getppid() != template_pid:  # the template died before the death signal was armed
            os._exit(0)
        data = bytearray()
        while chunk := os.read(command, 1 << 16):
            data += chunk
        os.close(command)
        if not data:  # discarded before it was given a job
            os._exit(0)
        kind, payload, memory_mib, sys_path = pickle.loads(bytes(data))
    except BaseException:  # noqa: BLE001 - a spare that cannot take its job leaves no answer
        os._exit(71)
    _child(kind, payload, writer, out_fd, memory_mib, sys_path)


def _discard_spare(spare: _Spare | None, exiting: set[int]) -> None:
    if spare is None:
        return
    _kill_group(spare.pid)
    exiting.add(spare.pid)
    for fd in (spare.command, spare.reader):
        os.close(fd)
    spare.out.close()


def _template_main(conn: Connection, preload: tuple[str, ...], token: str = "") -> None:
    for var in THREAD_VARS:
        os.environ[var] = "1"
    if token:
        os.environ[TOKEN_VAR] = token  # inherited by every job and what it starts (sweep_token)
    jobs: dict[int, _Running] = {}
    exiting: set[int] = set()  # finished jobs' leaders, killed, not yet reaped (their pids hold their groups)
    # Once jobs come, the next one's child is forked while the current ones run: a job then starts
    # without waiting for a fork. A preload makes the spare stale (it lacks the new modules).
    spare: _Spare | None = None
    serving = False
    attempted: set[str] = set()  # heavy libraries the template has tried to import

    def shutdown(*_: Any) -> None:
        for pid in [*(job.pid for job in jobs.values()), *exiting, *([spare.pid] if spare else [])]:
            _kill_group(pid)
        kill_tree(os.getpid())
        os._exit(0)

    def sweep() -> None:
        """Kill (and reap) every child that is not a job or the spare: an orphan a finished job
        left behind, reparented here because the template is a subreaper."""
        known = {job.pid for job in jobs.values()} | exiting | ({spare.pid} if spare else set())
        for child, state in _children(os.getpid()):
            if child in known:
                continue
            if state != "Z":
                kill_tree(child)
                try:
                    os.kill(child, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                os.waitpid(child, os.WNOHANG)
            except ChildProcessError:
                pass

    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what an interrupt means
    _set_pdeathsig(signal.SIGTERM)
    _become_subreaper()
    _raise_open_file_limit()
    _keep_freed_memory()
    if os.getppid() == 1:  # the parent died before the death signal was armed
        os._exit(0)
    _preload(preload, list(sys.path))
    conn_fd = conn.fileno()
    last_memory_poll = last_sweep = 0.0
    poller = select.poll()
    poller.register(conn_fd, select.POLLIN)
    polled: dict[int, int] = {}  # reader fd -> job id, registered with the poller
    try:
        while True:
            readers = {job.reader: job_id for job_id, job in jobs.items() if not job.eof}
            for fd in [fd for fd in polled if fd not in readers]:
                poller.unregister(fd)
                del polled[fd]
            for fd, job_id in readers.items():
                if fd not in polled:
                    poller.register(fd, select.POLLIN)
                polled[fd] = job_id
            # A job whose answer pipe closed is exiting: reap it within a millisecond, not a poll.
            closing = any(job.eof for job in jobs.values())
            wait = (_REAP_POLL_S if closing or exiting else _POLL_S) if jobs or exiting else None
            ready = [fd for fd, _ in poller.poll(None if wait is None else max(1, int(wait * 1000)))]
            if conn_fd in ready:
                ready.remove(conn_fd)
                ready.append(conn_fd)  # the jobs' answers first, then the commands
            for fd in ready:
                if fd == conn_fd:
                    try:
                        msg = conn.recv()
                    except (EOFError, OSError):
                        shutdown()
                    if msg is None:
                        shutdown()
                    if msg[0] == "preload":
                        _discard_spare(spare, exiting)
                        spare = None
                        _preload(msg[1], msg[2])
                        if len(msg) > 3 and msg[3]:
                            try:
                                reached = heavy_libraries(msg[3])
                            except Exception:  # noqa: BLE001 - the jobs then import what they need
                                reached = []
                            attempted.update(reached)
                            if reached:
                                _preload(reached, msg[2])
                            _precompile(msg[3])
                    else:
                        _start(conn, jobs, msg, spare)
                        spare, serving = None, True
                elif fd in polled and polled[fd] in jobs:
                    _read_available(jobs[polled[fd]])
            now = time.monotonic()
            for job in jobs.values():
                _cap_output(job)
                if job.killed is None and now > job.deadline:
                    job.killed = "timeout"
                    kill_tree(job.pid)
                    _kill_group(job.pid)
            if any(j.memory_mib > 0 for j in jobs.values()) and now - last_memory_poll >= _MEMORY_POLL_S:
                last_memory_poll = now
                leaders = {j.pid for j in jobs.values()}
                rss = tree_rss_mib(leaders)
                if rss is None:
                    rss = group_rss_mib(leaders)
                for job in jobs.values():
                    job.peak_rss_mib = max(job.peak_rss_mib, rss.get(job.pid, 0.0))
                    if job.killed is None and job.memory_mib > 0 and rss.get(job.pid, 0.0) > job.memory_mib:
                        job.killed = "memory"
                        kill_tree(job.pid)
                        _kill_group(job.pid)
            learned: set[str] = set()
            finished_any = False
            for job_id in list(jobs):
                job = jobs[job_id]
                if job.eof and job.announced is not None and job.killed is None:
                    # Its answer is complete and it is exiting: finish now, reap it later.
                    learned.update(job.learned)
                    conn.send(("done", _finish(job_id, jobs.pop(job_id), exiting)))
                    finished_any = True
                    continue
                try:
                    info = os.waitid(os.P_PID, job.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
                except ChildProcessError:
                    info = None
                    ended = True
                else:
                    ended = info is not None
                if ended:
                    conn.send(("done", _finish(job_id, jobs.pop(job_id))))
                    finished_any = True
            _reap(exiting)
            if finished_any or now - last_sweep >= _MEMORY_POLL_S:
                last_sweep = now
                sweep()
            if learned - attempted:
                # A job imported a heavy library the template lacks: later jobs get it preloaded.
                attempted.update(learned)
                _discard_spare(spare, exiting)
                spare = None
                _preload(sorted(learned), list(sys.path))
            if serving and spare is None:
                spare = _fork_spare()
    except (BrokenPipeError, ConnectionResetError):
        shutdown()


def _precompile(modules: Any) -> None:
    """Compile the catalogue modules' sources (never run them) for the jobs to come
    (:func:`checker.run.reads.precompile`): each job would otherwise compile what it imports."""
    try:
        from checker.run import reads

        # the modules, what they import from their own packages (transitively), and every parent package
        packages = {m.split(".")[0] for m in modules} - {"checker"}
        todo, seen = list(modules), set()
        while todo:
            name = todo.pop()
            if name in seen or name.split(".")[0] not in packages:
                continue
            seen.add(name)
            todo.extend(_imports_of(name))
            todo.extend(".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1))
        files = {_source_of(m) for m in seen}
        reads.precompile(sorted(f for f in files if f and f.endswith(".py")))
    except Exception:  # noqa: BLE001 - only a speed-up
        pass


def allowed_in_template(name: str) -> bool:
    """Whether the template may import ``name``: the engine and the listed libraries (and their
    submodules), never a catalogue module or anything a job names."""
    if name == "checker" or name.startswith("checker."):
        return True
    return any(name == lib or name.startswith(lib + ".") for lib in (*LIBRARIES, *HEAVY))


def _preload(names: Any, sys_path: list[str]) -> None:
    """Import ``names`` into the template (their output discarded), so that jobs start with them
    loaded — only the engine and the listed libraries (:func:`allowed_in_template`); a module that
    fails here is imported — and fails — in the job instead."""
    sys.path[:] = sys_path
    names = [name for name in names if allowed_in_template(name)]
    saved = os.dup(1), os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    try:
        for name in names:
            try:
                importlib.import_module(name)
            except BaseException:  # noqa: BLE001 - including SystemExit
                sys.modules.pop(name, None)
        if "z3" in sys.modules:
            sys.modules["z3"].main_ctx()  # 11 ms to create; every job using z3 would pay it again
        meijerint = sys.modules.get("sympy.integrals.meijerint")
        if meijerint is not None and not getattr(meijerint, "_lookup_table", True):
            # sympy builds its table of Meijer G-function formulas on a job's first integral
            # (0.14 s; six jobs of the catalogue paid it); built here in the same way, once
            table: dict = {}
            meijerint._create_lookup_table(table)
            meijerint._lookup_table = table
    except BaseException:  # noqa: BLE001 - a job that needs it creates it itself
        pass
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, devnull):
            os.close(fd)
    import gc

    global _TEMPLATE_MODULES
    _TEMPLATE_MODULES = frozenset(sys.modules)
    gc.collect()
    gc.freeze()  # the collector of a forked job then leaves the template's objects (and pages) alone


_TEMPLATE_MODULES: frozenset[str] = frozenset()  # what the template had imported when it forked


def _start(conn: Connection, jobs: dict[int, _Running], msg: tuple, spare: _Spare | None) -> None:
    """Start the job: in the spare child when there is one (it is used up), else in a new fork."""
    _, job_id, kind, payload, timeout_s, memory_mib, sys_path = msg
    if spare is not None:
        pid, reader, out = spare.pid, spare.reader, spare.out
        try:
            data = memoryview(pickle.dumps((kind, payload, memory_mib, sys_path)))
            while data:
                data = data[os.write(spare.command, data):]
        except OSError:  # the spare died: the job's answer is missing, and says so
            pass
        os.close(spare.command)
    else:
        reader, writer = os.pipe()
        out = _output_file()
        pid = os.fork()
        if pid == 0:
            os.close(reader)
            _child(kind, payload, writer, out.fileno(), memory_mib, sys_path)
        try:
            os.setpgid(pid, pid)
        except OSError:  # the child already did it (or already exited)
            pass
        os.close(writer)
        os.set_blocking(reader, False)
    now = time.monotonic()
    jobs[job_id] = _Running(pid, reader, out, now + timeout_s, memory_mib, now)
    conn.send(("started", job_id, pid))


def _read_available(job: _Running) -> None:
    while True:
        try:
            chunk = os.read(job.reader, 1 << 16)
        except BlockingIOError:
            break
        except OSError as exc:
            if exc.errno == errno.EINTR:
                continue
            break
        if not chunk:
            job.eof = True
            break
        job.buffer += chunk
    job.frames.extend(_split_frames(job.buffer))
    if job.eof:
        announcement = _announced_exit(job.buffer)
        if announcement is not None:
            job.announced, job.learned = announcement


def _reap(exiting: set[int]) -> None:
    """Reap the finished jobs' leaders that have exited (each was killed with its group)."""
    for pid in list(exiting):
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            exiting.discard(pid)


def _finish(job_id: int, job: _Running, exiting: set[int] | None = None) -> Finished:
    """How the job ended. With ``exiting``, the job announced its exit code: its group is killed
    and its leader left to :func:`_reap`, instead of waiting here for its teardown."""
    # The leader is a zombie until reaped, so its pid (the group id) cannot be reused yet.
    _kill_group(job.pid)
    status: int | None
    if exiting is not None:
        exiting.add(job.pid)
        status = None
    else:
        try:
            _, status = os.waitpid(job.pid, 0)
        except ChildProcessError:
            status = None
    _read_available(job)
    os.close(job.reader)
    job.out.seek(0)
    raw = job.out.read(OUTPUT_LIMIT * 4 + 1)
    job.out.close()
    text = raw.decode("utf-8", "backslashreplace")
    truncated = len(text) > OUTPUT_LIMIT or len(raw) > OUTPUT_LIMIT * 4 or job.cut
    code = sig = None
    if exiting is not None:
        code = job.announced
    elif status is not None:
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
        else:
            code = os.waitstatus_to_exitcode(status)
    return Finished(job_id, tuple(job.frames), code, sig, job.killed, text[:OUTPUT_LIMIT], truncated,
                    time.monotonic() - job.started, round(job.peak_rss_mib, 1))


# ---------------------------------------------------------------------------------------
# The parent side
# ---------------------------------------------------------------------------------------


class TemplateDied(RuntimeError):
    """The template process is gone; every job it was running is lost."""


class Template:
    """The parent's handle on a template process.

    A thread reads the template's messages as they come, so the template never blocks sending to
    a parent that is itself blocked sending it jobs (``--jobs`` in the hundreds)."""

    def __init__(self, preload: tuple[str, ...] = PRELOAD) -> None:
        mp = multiprocessing.get_context("spawn")
        self.conn, child = mp.Pipe()
        self.token = secrets.token_hex(16)
        self.environment = dict(os.environ)  # what the template, and every job forked from it, runs with
        self.in_flight: set[int] = set()  # jobs submitted whose end has not been read yet
        self.proc = mp.Process(target=_template_main, args=(child, preload, self.token), daemon=True,
                               name="obligations-template")
        self.proc.start()
        child.close()
        self._next = 0
        self.preloaded: set[str] = set()
        self.scanned: set[str] = set()
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._closed_because: BaseException | None = None
        self._reader = threading.Thread(target=self._read, name="obligations-template-reader", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                msg = self.conn.recv()
            except (EOFError, OSError) as exc:
                self._inbox.put(_Closed(exc))
                return
            except BaseException as exc:  # noqa: BLE001 - an unreadable message ends the protocol
                self._inbox.put(_Closed(exc))
                return
            self._inbox.put(msg)

    def preload(self, modules: Any) -> None:
        """Prepare the template for jobs of the catalogue ``modules``: it imports the engine and
        the heavy libraries their import statements reach (:func:`heavy_libraries`, read from
        their sources) — never the modules themselves."""
        scan = sorted(set(modules) - self.scanned)
        todo = [m for m in LIBRARIES if m not in self.preloaded and m not in HEAVY]
        if not todo and not scan:
            return
        self.preloaded.update(todo)
        self.scanned.update(scan)
        try:
            self.conn.send(("preload", todo, list(sys.path), scan))
        except (BrokenPipeError, OSError) as exc:
            raise TemplateDied(f"the worker template is gone ({exc})") from exc

    def import_libraries(self, names: Any) -> None:
        """Import these libraries into the template (only the engine's and the listed ones are
        imported: :func:`allowed_in_template`)."""
        todo = [m for m in names if m not in self.preloaded]
        self.preloaded.update(todo)
        try:
            self.conn.send(("preload", todo, list(sys.path), []))
        except (BrokenPipeError, OSError) as exc:
            raise TemplateDied(f"the worker template is gone ({exc})") from exc

    @property
    def alive(self) -> bool:
        return self.proc.is_alive() and not self.conn.closed and self._closed_because is None

    def submit(self, kind: str, payload: Any, *, timeout_s: float, memory_mib: int) -> int:
        self._next += 1
        try:
            self.conn.send(("run", self._next, kind, payload, timeout_s, memory_mib, list(sys.path)))
        except (BrokenPipeError, OSError) as exc:
            raise TemplateDied(f"the worker template is gone ({exc})") from exc
        self.in_flight.add(self._next)
        return self._next

    def events(self, timeout: float | None) -> list[tuple]:
        """Messages from the template (``("started", id, pid)``, ``("done", Finished)``), waiting
        up to ``timeout`` for the first."""
        out: list[tuple] = []
        if self._closed_because is not None:
            raise TemplateDied(self._death())
        try:
            first = self._inbox.get(timeout=timeout) if timeout is None or timeout > 0 else self._inbox.get_nowait()
        except queue.Empty:
            if not self.proc.is_alive():
                raise TemplateDied(self._death()) from None
            return out
        pending = [first]
        while True:
            try:
                pending.append(self._inbox.get_nowait())
            except queue.Empty:
                break
        for msg in pending:
            if isinstance(msg, _Closed):
                self._closed_because = msg.exc
                break
            if msg[0] == "done":
                self.in_flight.discard(msg[1].job_id)
            out.append(msg)
        if self._closed_because is not None and not out:
            raise TemplateDied(self._death())
        return out

    def _death(self) -> str:
        self.proc.join(0.5)
        code = self.proc.exitcode
        how = (f"killed by signal {-code} ({signal.Signals(-code).name})" if code is not None and code < 0
               and -code in signal.Signals._value2member_map_ else f"exit code {code}")
        return f"the worker template died ({how})"

    def close(self) -> None:
        """Stop the template and its jobs. An idle one exits at once on the closing message; one
        still importing a preload (a check whose results all came from the cache) is told by
        SIGTERM, whose handler stops its jobs as the message would. Whatever a dead template's
        jobs left running is then found by its token and killed."""
        try:
            self.conn.send(None)
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(0.1)
        if self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(2.0)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(1.0)
        if self.proc.exitcode != 0:
            sweep_token(self.token)
        self.conn.close()


@dataclass(frozen=True, slots=True)
class _Closed:
    """The template's pipe closed (or broke): no message follows."""

    exc: BaseException


_TEMPLATE: Template | None = None


def template() -> Template:
    """The process-wide template, started on first use and restarted if it died, or — between
    jobs, never while one it runs has not ended — if this process's environment changed since it
    started: a job reads the template's environment (``OBLIGATIONS_CONFIRM`` among others), which
    would otherwise be this process's as it was then."""
    global _TEMPLATE
    stale = _TEMPLATE is not None and not _TEMPLATE.in_flight and _TEMPLATE.environment != os.environ
    if _TEMPLATE is None or not _TEMPLATE.alive or stale:
        discard_template()
        _TEMPLATE = Template()
    return _TEMPLATE


def discard_template() -> None:
    """Stop the template (e.g. after it lost jobs); the next :func:`template` starts a new one."""
    global _TEMPLATE
    if _TEMPLATE is not None:
        _TEMPLATE.close()
        _TEMPLATE = None


atexit.register(discard_template)


def run_job(kind: str, payload: Any, *, timeout_s: float, memory_mib: int) -> Finished:
    """Run one job in a fresh forked child and wait for it to end."""
    tpl = template()
    job_id = tpl.submit(kind, payload, timeout_s=timeout_s, memory_mib=memory_mib)
    while True:
        try:
            events = tpl.events(timeout_s + 30.0)
        except TemplateDied:
            discard_template()
            raise
        if not events:
            discard_template()  # the template itself is stuck: start afresh
            raise TemplateDied("the worker template stopped answering")
        for event in events:
            if event[0] == "done" and event[1].job_id == job_id:
                return event[1]
