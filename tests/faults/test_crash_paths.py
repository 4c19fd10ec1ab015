"""Fault injection, the last crash paths: each gives its own clear error and exit code instead of
a lost or silenced run."""

from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.faults.catalogues import ROOT, cli, env_for, good, make_catalogue, ob


def _rows(out: subprocess.CompletedProcess[str]) -> dict[str, dict]:
    assert out.stdout, out.stderr
    return {r["id"]: r for r in json.loads(out.stdout)["results"]}


def test_a_broken_config_file_is_a_usage_error_naming_its_line(tmp_path):
    """A TOML syntax error (or a duplicate key) in the pyproject.toml holding [tool.obligations]
    is exit 2 naming the file and line — never a silent run of the registered catalogues."""
    make_catalogue(tmp_path, "mylemmas", {"items": good("mylemmas")})
    for body in ('[tool.obligations]\npackages = ["mylemmas"\njobs = 1\n',
                 '[tool.obligations]\npackages = ["mylemmas"]\npackages = ["other"]\n'):
        (tmp_path / "pyproject.toml").write_text(body, encoding="utf-8")
        out = cli(tmp_path, "check", "--format", "json", "-q")
        assert out.returncode == 2, (out.returncode, out.stderr[-500:])
        assert "pyproject.toml:" in out.stderr and "line" in out.stderr.lower() or "pyproject.toml:2" in out.stderr
        assert "psy01a" not in out.stdout


def test_a_plugin_that_exits_at_import_is_contained(tmp_path):
    """A command plugin whose module calls sys.exit() at import is a warning; the command runs."""
    (tmp_path / "exiting_plugin.py").write_text("import sys\nsys.exit(0)\n", encoding="utf-8")
    make_catalogue(tmp_path, "plugcat2", {"items": good("plugcat2")})
    (tmp_path / "pyproject.toml").write_text(
        '[tool.obligations]\npackages = ["plugcat2"]\n\n[project.entry-points."obligations.commands"]\n'
        'boom = "exiting_plugin:COMMAND"\n', encoding="utf-8")
    out = cli(tmp_path, "list")
    assert out.returncode == 0, out.stderr
    assert "plugcat2.good" in out.stdout
    assert "boom" in out.stderr and "exit" in out.stderr.lower()


def test_no_deadlock_at_512_jobs(tmp_path):
    """600 trivial obligations at --jobs 512: the parent and the template never block each other."""
    make_catalogue(tmp_path, "manycat", {f"m{m:02}": "".join(good("manycat", f"g{m:02}{i}") for i in range(10))
                                         for m in range(60)})
    start = time.monotonic()
    out = cli(tmp_path, "--package", "manycat", "check", "--format", "json", "--jobs", "512", "--no-cache", "-q", timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    rows = _rows(out)
    assert len(rows) == 600 and all(r["status"] == "proved" for r in rows.values())
    assert time.monotonic() - start < 600


def _report(tmp_path: Path, ids: list[str]) -> Path:
    out = cli(tmp_path, "check", "psy01a.parameter_count", "--format", "json", "-q")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    doc["results"] = [dict(doc["results"][0], id=i) for i in ids]
    path = tmp_path / "dup.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_duplicate_ids_in_a_baseline_or_report_are_refused(tmp_path):
    path = _report(tmp_path, ["psy01a.parameter_count", "psy01a.parameter_count"])
    out = cli(tmp_path, "check", "psy01a.parameter_count", "--baseline", str(path), "-q")
    assert out.returncode == 2 and "psy01a.parameter_count" in out.stderr and "more than once" in out.stderr, out.stderr
    out = cli(tmp_path, "report", str(path))
    assert out.returncode == 2 and "more than once" in out.stderr, out.stderr


def test_a_5000_deep_uses_chain(tmp_path):
    """The dependency graph, the cycle check and the HTML layering are iterative and fast."""
    from checker.kernel.model import Certificate, Expect, Result, Source, Status
    from checker.report.formats import _layers
    from checker.report.reports import dependencies
    from checker.run.discovery import _cycles

    n = 5000
    results = [Result(id=f"c.n{i:05}", source=Source("d", "l"), statement="s", scope="s", expect=Expect.HOLDS,
                      status=Status.SUPPORTED if i == 0 else Status.PROVED,
                      certificate=Certificate(method="m"), time_s=0.0,
                      uses=(f"c.n{i - 1:05}",) if i else ()) for i in range(n)]
    start = time.perf_counter()
    deps = dependencies(results)
    assert deps[f"c.n{n - 1:05}"]["state"] == "rests on unsettled"
    assert _layers([{"id": r.id, "uses": list(r.uses)} for r in results])[f"c.n{n - 1:05}"] == n - 1

    class _Ob:
        def __init__(self, i: int) -> None:
            self.id, self.uses = f"c.n{i:05}", ((f"c.n{i - 1:05}",) if i else (f"c.n{n - 1:05}",))

    (cycle,) = _cycles([_Ob(i) for i in range(n)])
    assert len(cycle) == n + 1
    assert time.perf_counter() - start < 60


@pytest.mark.parametrize("how", ["disk full", "file size limit"])
def test_an_output_that_cannot_be_written_names_the_file(tmp_path, how):
    """A full disk (/dev/full) or a file-size limit on -o is exit 1 naming the file, not an
    internal error. (Do not run the disk-full case against a checker older than this test: its
    atomic write renamed a temporary file over the device.)"""
    target = "/dev/full" if how == "disk full" else str(tmp_path / "report.json")
    if how == "disk full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")

    def limit() -> None:
        if how == "file size limit":
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))

    out = subprocess.run([sys.executable, "-m", "checker", "check", "psy01a.parameter_count", "-o", target, "--format",
                          "json", "-q", "--no-cache"], cwd=tmp_path, env=env_for(tmp_path), capture_output=True, text=True,
                         timeout=300, preexec_fn=limit)
    assert "internal error" not in out.stderr and "Traceback" not in out.stderr, out.stderr[-2000:]
    assert out.returncode == 1 and target in out.stderr, out.stderr[-2000:]
    if how == "disk full":  # a device is written in place: never replaced by a rename (as root, /dev is writable)
        assert stat.S_ISCHR(os.stat(target).st_mode)


def test_an_import_error_behind_a_pattern_is_shown(tmp_path):
    make_catalogue(tmp_path, "brokencat", {"a_good": good("brokencat"), "b_broken": "raise ImportError('no such helper')\n"})
    out = cli(tmp_path, "--package", "brokencat", "check", "brokencat.b_", "--format", "json", "-q")
    assert out.returncode == 1, out.stderr
    assert "no such helper" in out.stdout + out.stderr


def test_a_pattern_keeps_rejected_declarations(tmp_path):
    """Two declarations with the same id: a pattern naming it still reports the rejected one."""
    make_catalogue(tmp_path, "dupcat", {"items": good("dupcat", "twice") + good("dupcat", "twice").replace("def twice", "def twice_again")})
    out = cli(tmp_path, "--package", "dupcat", "check", "dupcat.twice", "--format", "json", "-q")
    assert out.returncode == 1, out.stderr
    assert any(r["status"] == "error" for r in _rows(out).values())


def test_captured_output_is_capped_on_disk(tmp_path):
    """An obligation printing without end fills no disk: its captured output is cut on disk too."""
    make_catalogue(tmp_path, "loudcat", {"items": "import os, time\n" + ob("loudcat", "loud", """
        chunk = b"x" * (1 << 20)
        for _ in range(200):
            os.write(1, chunk)
        time.sleep(1.0)
        size = os.fstat(1).st_blocks * 512
        return supported("noise", on_disk=size)
    """)})
    row = _rows(cli(tmp_path, "--package", "loudcat", "check", "--format", "json", "--no-cache", "-q"))["loudcat.loud"]
    assert row["status"] == "supported", row["certificate"]
    assert row["certificate"]["data"]["on_disk"] < 64 << 20, row["certificate"]["data"]["on_disk"]
    assert "truncated" in row["certificate"]["data"]["output"]


def test_deep_certificate_data_is_refused_clearly(tmp_path):
    make_catalogue(tmp_path, "deepcat", {"items": ob("deepcat", "deep", """
        data = []
        for _ in range(5000):
            data = [data]
        return supported("nesting", nested=data)
    """)})
    row = _rows(cli(tmp_path, "--package", "deepcat", "check", "--format", "json", "--no-cache", "-q"))["deepcat.deep"]
    assert row["status"] == "error"
    assert "nested" in row["certificate"]["reason"] and "worker process died" not in row["certificate"]["reason"]


@pytest.mark.parametrize("name", ["time", "json", "sys"])
def test_init_refuses_an_importable_module_name(tmp_path, name):
    out = cli(tmp_path, "init", name)
    assert out.returncode == 2 and "already" in out.stderr, out.stderr
    assert not (tmp_path / name).exists()


def test_uses_across_catalogues_of_one_run_resolve(tmp_path):
    make_catalogue(tmp_path, "basecat", {"items": good("basecat")})
    make_catalogue(tmp_path, "topcat", {"items": good("topcat").replace("expect=Expect.HOLDS)", 'expect=Expect.HOLDS, uses=("basecat.good",))')})
    out = cli(tmp_path, "--package", "basecat", "--package", "topcat", "check", "--format", "json", "-q")
    assert out.returncode == 0, out.stderr + out.stdout[-2000:]
    rows = _rows(out)
    assert rows["topcat.good"]["dependencies"]["state"] == "fully proved"


def test_members_of_a_uses_cycle_are_never_fully_proved():
    from checker.kernel.model import Certificate, Expect, Result, Source, Status
    from checker.kernel.model import Grade
    from checker.kernel.verdicts import proved, timed
    from checker.report.reports import dependencies, summary

    with timed() as t:
        step = t.step("exact", "python", "x", "True")
    cert = proved("m", step, grade=Grade.UNIVERSAL).certificate

    def r(i: str, uses: tuple[str, ...]) -> Result:
        return Result(id=i, source=Source("d", "l"), statement="s", scope="s", expect=Expect.HOLDS, status=Status.PROVED,
                      certificate=cert, time_s=0.0, uses=uses)

    results = [r("c.a", ("c.b",)), r("c.b", ("c.a",)), r("c.c", ())]
    deps = dependencies(results)
    assert deps["c.a"]["state"] != "fully proved" and deps["c.b"]["state"] != "fully proved"
    assert deps["c.c"]["state"] == "fully proved"
    assert summary(results)["fully_proved"]["total"] == 1


def test_an_undecided_vacuity_check_is_not_cached(tmp_path, monkeypatch):
    from checker.kernel.model import Certificate, Expect, Result, Source, Status
    from checker.store.cache import MANIFEST_VERSION, Cache

    monkeypatch.setenv("OBLIGATIONS_CACHE_SECRET", str(tmp_path / "secret"))
    result = Result(id="c.x", source=Source("d", "l"), statement="s", scope="s", expect=Expect.HOLDS,
                    status=Status.UNKNOWN, certificate=Certificate(method="m"), time_s=0.0,
                    vacuity={"verdict": "undecided", "reason": "time budget exhausted"})
    cache = Cache(tmp_path / "cache")
    cache.put("k" * 64, result, {"version": MANIFEST_VERSION})
    assert cache.get("k" * 64, "c.x") is None
    cache.put("k" * 64, Result(**{**{f: getattr(result, f) for f in result.__slots__}, "vacuity": None}),
              {"version": MANIFEST_VERSION})
    assert cache.get("k" * 64, "c.x") is not None


def test_sigterm_removes_the_runs_fact_store(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    make_catalogue(tmp_path, "slowcat", {"items": "import time\n" + ob("slowcat", "slow", "time.sleep(60)\nreturn unknown('x', 'y')")})
    env = {**env_for(tmp_path), "TMPDIR": str(tmp)}
    proc = subprocess.Popen([sys.executable, "-m", "checker", "--package", "slowcat", "check", "-q", "--no-cache"],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    end = time.monotonic() + 60
    while not list(tmp.glob("obligations-run-*")) and time.monotonic() < end:
        time.sleep(0.05)
    assert list(tmp.glob("obligations-run-*"))
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    assert not list(tmp.glob("obligations-run-*"))
