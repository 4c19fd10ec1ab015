"""The worker template: a job that announces its exit is finished without waiting for its
teardown, a forged announcement ends the job (and what it started) instead of fooling the
template, a job that exits without one is still reported with its code, and no finished job
is left unreaped."""

from __future__ import annotations

import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from checker.run import workers
from checker.run.discovery import PROBE_JOB

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the worker template relies on /proc")


def _module(folder: Path, name: str, body: str) -> str:
    (folder / f"{name}.py").write_text(textwrap.dedent(body), encoding="utf-8")
    return name


@pytest.fixture()
def on_path(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    workers.discard_template()


def _children_of(pid: int) -> list[tuple[int, str]]:
    out = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/children") as fh:
            for child in fh.read().split():
                try:
                    with open(f"/proc/{child}/stat") as st:
                        stat = st.read()
                except OSError:
                    continue
                out.append((int(child), stat[stat.rfind(")") + 2]))
    return out


def test_a_job_is_reported_with_its_frames_and_code(on_path):
    name = _module(on_path, "fine_mod", "X = 1\n")
    finished = workers.run_job(PROBE_JOB, [name], timeout_s=60, memory_mib=0)
    assert finished.exitcode == 0 and finished.signal is None and finished.killed is None
    assert [f[0] for f in finished.frames] == ["start", "ok"]


def test_a_job_runs_with_this_processs_environment_as_it_is_now(on_path, monkeypatch):
    """A job reads the environment of the template it is forked from: when this process's
    environment changes (the command line sets ``OBLIGATIONS_CONFIRM``, a test sets a variable), the
    next job runs with the new one, not with the one the template started with."""
    name = _module(on_path, "env_exit_mod", "import os\nos._exit(int(os.environ['WORKERS_TEST_EXIT']))\n")
    monkeypatch.setenv("WORKERS_TEST_EXIT", "3")
    assert workers.run_job(PROBE_JOB, [name], timeout_s=60, memory_mib=0).exitcode == 3
    monkeypatch.setenv("WORKERS_TEST_EXIT", "4")
    assert workers.run_job(PROBE_JOB, [name], timeout_s=60, memory_mib=0).exitcode == 4


def test_an_exit_without_announcement_keeps_its_code(on_path):
    name = _module(on_path, "exits_mod", "import os\nos._exit(5)\n")
    finished = workers.run_job(PROBE_JOB, [name], timeout_s=60, memory_mib=0)
    assert finished.exitcode == 5 and finished.frames == (["start", name],)


def test_a_forged_announcement_ends_the_job_and_its_children(on_path):
    pidfile = on_path / "sleeper.pid"
    name = _module(on_path, "forges_mod", f"""\
        import os, struct, subprocess, time
        child = subprocess.Popen(["sleep", "120"])
        open({str(pidfile)!r}, "w").write(str(child.pid))
        def is_pipe(fd):
            try:
                return os.readlink(f"/proc/self/fd/{{fd}}").startswith("pipe:")
            except OSError:
                return False
        for fd in [int(fd) for fd in os.listdir("/proc/self/fd") if int(fd) > 2 and is_pipe(fd)]:
            os.write(fd, b"\\xff\\xff\\xff\\xff" + struct.pack(">i", 0))
            os.close(fd)
        time.sleep(120)
    """)
    start = time.monotonic()
    finished = workers.run_job(PROBE_JOB, [name], timeout_s=60, memory_mib=0)
    assert time.monotonic() - start < 30  # not the 60 s limit, nor the 120 s sleep
    assert finished.frames == (["start", name],)  # the module never answered "ok"
    sleeper = int(pidfile.read_text())
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            with open(f"/proc/{sleeper}/stat") as st:
                if st.read().split(") ")[1][0] == "Z":
                    break
        except OSError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the job's child outlived it")


def test_finished_jobs_are_reaped(on_path):
    """After 20 jobs the template's only child is the spare waiting for the next job."""
    name = _module(on_path, "quick_mod", "X = 1\n")
    for _ in range(20):
        assert workers.run_job(PROBE_JOB, [name], timeout_s=60, memory_mib=0).exitcode == 0
    tpl = workers.template().proc.pid
    end = time.monotonic() + 10
    children = _children_of(tpl)
    while time.monotonic() < end and not (len(children) == 1 and children[0][1] != "Z"):
        time.sleep(0.05)  # the last jobs are being reaped, or the next spare forked
        children = _children_of(tpl)
    assert len(children) == 1 and children[0][1] != "Z", children


def test_a_job_after_a_preload_starts_with_the_preloaded_library(on_path):
    """The spare forked before a preload is stale: the next job must not import the library again.
    (A stand-in ``mpmath`` on the path, so the test can count its imports.)"""
    workers.discard_template()
    log = on_path / "imports.log"
    _module(on_path, "mpmath", f"open({str(log)!r}, 'a').write('imported\\n')\n")
    other = _module(on_path, "other_mod", "X = 1\n")
    assert workers.run_job(PROBE_JOB, [other], timeout_s=60, memory_mib=0).exitcode == 0  # a spare now waits
    workers.template().import_libraries(["mpmath"])
    finished = workers.run_job(PROBE_JOB, ["mpmath"], timeout_s=60, memory_mib=0)
    assert finished.exitcode == 0 and [f[0] for f in finished.frames] == ["start", "ok"]
    assert log.read_text().splitlines() == ["imported"]  # once, in the template


def test_the_template_never_imports_a_catalogue_module(on_path):
    """Sent to the template as a preload (or named as a library), a catalogue module is only
    read for the libraries it imports: each job that needs it imports it itself, so no job starts
    with another module's import-time state."""
    workers.discard_template()
    log = on_path / "imports.log"
    name = _module(on_path, "counted_mod", f"open({str(log)!r}, 'a').write('imported\\n')\n")
    package = on_path / "counted_pkg"
    package.mkdir()
    (package / "__init__.py").write_text(f"open({str(log)!r}, 'a').write('package\\n')\n", encoding="utf-8")
    (package / "sub.py").write_text("import mpmath\n", encoding="utf-8")
    tpl = workers.template()
    tpl.preload([name, "counted_pkg.sub"])  # a dotted name is not looked up by importing its package
    tpl.import_libraries([name])
    for _ in range(2):
        finished = workers.run_job(PROBE_JOB, [name], timeout_s=60, memory_mib=0)
        assert finished.exitcode == 0 and [f[0] for f in finished.frames] == ["start", "ok"]
    assert log.read_text().splitlines() == ["imported", "imported"]  # once per job, never in the template
    assert not workers.allowed_in_template(name) and workers.allowed_in_template("sympy.stats")


def _reports(folder: Path, library: str) -> str:
    """A module that logs whether ``library`` was already imported when the job started."""
    log = folder / f"has_{library}.log"
    return _module(folder, f"reports_{library}_mod",
                   f"import sys\nopen({str(log)!r}, 'a').write(str({library!r} in sys.modules) + '\\n')\n")


def _log(folder: Path, library: str) -> list[str]:
    return (folder / f"has_{library}.log").read_text().splitlines()


def test_the_template_preloads_the_heavy_libraries_the_catalogue_reaches_and_no_others(on_path):
    """A catalogue module importing mpmath inside a function gets it preloaded; sympy, which no
    catalogue module reaches, is not loaded into the template (a larger template costs every fork)."""
    workers.discard_template()
    pkg = on_path / "tinycat"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "helper.py").write_text("def pi():\n    import mpmath\n    return mpmath.pi\n", encoding="utf-8")
    (pkg / "claims.py").write_text("from . import helper\nfrom checker.backends import (\n    exact,\n)\n", encoding="utf-8")
    probe_mpmath, probe_sympy = _reports(on_path, "mpmath"), _reports(on_path, "sympy")
    workers.template().preload(["tinycat.claims"])
    for name in (probe_mpmath, probe_sympy):
        assert workers.run_job(PROBE_JOB, [name], timeout_s=60, memory_mib=0).exitcode == 0
    assert _log(on_path, "mpmath") == ["True"] and _log(on_path, "sympy") == ["False"]


def test_a_heavy_library_a_job_imports_is_preloaded_for_the_next_jobs(on_path):
    """The first job that imports a heavy library the template lacks pays for it; the template
    then imports it, so the jobs after it start with it loaded."""
    workers.discard_template()
    workers.template().preload([])
    probe = _reports(on_path, "mpmath")
    user = _module(on_path, "imports_mpmath_mod", "import importlib\nimportlib.import_module('mpmath')\n")
    for name in (probe, user, probe):
        assert workers.run_job(PROBE_JOB, [name], timeout_s=60, memory_mib=0).exitcode == 0
    assert _log(on_path, "mpmath") == ["False", "True"]


def test_an_announcement_names_only_heavy_libraries():
    """A job cannot make the template import anything but the listed heavy libraries."""
    import struct

    buffer = bytearray(workers._EXIT_MARK + struct.pack(">i", 0) + b"os,numpy,subprocess")
    assert workers._announced_exit(buffer) == (0, ("numpy",))
    assert workers._announced_exit(bytearray(workers._EXIT_MARK + struct.pack(">i", 3))) == (3, ())


def test_heavy_libraries_follow_imports_through_the_catalogue_and_the_backends(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    pkg = tmp_path / "scancat"
    (pkg / "sub").mkdir(parents=True)
    for init in (pkg / "__init__.py", pkg / "sub" / "__init__.py"):
        init.write_text("", encoding="utf-8")
    (pkg / "sub" / "deep.py").write_text("def f():\n    import sympy\n", encoding="utf-8")
    (pkg / "sub" / "a.py").write_text("from .deep import f\n", encoding="utf-8")
    (pkg / "b.py").write_text("from checker.backends import exact, smt  # z3, lazily\n", encoding="utf-8")
    (pkg / "c.py").write_text("from checker.backends import exact\nfrom fractions import Fraction\n", encoding="utf-8")
    assert set(workers.heavy_libraries(["scancat.sub.a"])) == {m for m in workers.HEAVY if m.startswith("sympy")}
    assert workers.heavy_libraries(["scancat.b"]) == ["z3"]
    assert workers.heavy_libraries(["scancat.c"]) == []


def test_closing_a_template_busy_importing_a_preload_stops_it_without_a_kill(on_path):
    """A check whose results all come from the cache closes a template that may still be importing
    the libraries: it is stopped by its SIGTERM handler (exit code 0, its jobs stopped), not left
    to finish the import nor killed outright."""
    workers.discard_template()
    started = on_path / "started.log"
    _module(on_path, "mpmath", f"import time\nopen({str(started)!r}, 'w').write('1')\ntime.sleep(60)\n")  # a slow stand-in
    tpl = workers.template()
    tpl.import_libraries(["mpmath"])
    deadline = time.monotonic() + 60
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert started.exists()
    workers.discard_template()
    assert not tpl.proc.is_alive() and tpl.proc.exitcode == 0


def test_the_template_builds_sympys_integral_table_once_for_every_job(on_path):
    """After a preload that brings sympy in, a job starts with the Meijer G table sympy would
    otherwise build on its first integral — the same table a fresh process builds."""
    workers.discard_template()
    out = on_path / "table.log"
    tpl = workers.template()
    tpl.import_libraries(["sympy"])
    probe = _module(on_path, "reads_table_mod", f"""\
        from sympy.integrals import meijerint
        table = meijerint._lookup_table
        open({str(out)!r}, 'w').write(repr(sorted(map(str, table))) if table else 'empty')
    """)
    assert workers.run_job(PROBE_JOB, [probe], timeout_s=60, memory_mib=0).exitcode == 0
    from sympy.integrals import meijerint

    fresh: dict = {}
    meijerint._create_lookup_table(fresh)
    assert out.read_text() == repr(sorted(map(str, fresh)))
