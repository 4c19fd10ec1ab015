"""Fault injection: a user catalogue with misbehaving obligations, edited caches and data, bad
command lines, hostile strings. One test per numbered case of the fault report (``case_N``),
then the smaller ones; each reproduces the fault and checks it is contained."""

from __future__ import annotations

import json
import os
import random
import stat
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.faults.catalogues import ROOT, cli, env_for, good, make_catalogue, ob


def _doc(out: subprocess.CompletedProcess[str]) -> dict:
    return json.loads(out.stdout, parse_constant=lambda c: pytest.fail(f"non-strict JSON constant {c}"))


def _rows(out: subprocess.CompletedProcess[str]) -> dict[str, dict]:
    return {r["id"]: r for r in _doc(out)["results"]}


def _entries(cache: Path) -> list[Path]:
    # result entries only (KEY[:2]/KEY.json), not the fingerprint analyses kept beside them
    return sorted(p for p in cache.glob("??/*.json") if len(p.stem) == 64 and p.parent.name == p.stem[:2])


# --------------------------------------------------------------------- false passes, trusted state


def test_case_1_data_files_and_outside_modules_are_in_the_cache_key(tmp_path):
    """Editing a data file the obligation reads, or a helper module outside the catalogue
    package, re-runs it: the cache never serves the stale proof."""
    (tmp_path / "helper_outside.py").write_text("LIMIT = 10\n", encoding="utf-8")
    make_catalogue(tmp_path, "datacat", {"reads": ob("datacat", "reads", """
        from pathlib import Path
        import helper_outside
        value = int((Path(__file__).parent / "data" / "value.txt").read_text())
        with timed() as t:
            step = t.step("exact", "python", "compare", str(value < helper_outside.LIMIT))
        if value < helper_outside.LIMIT:
            return trusted("comparison", step, grade=Grade.INSTANCES, over="the shipped value")
        return unknown("comparison", f"{value} is not below {helper_outside.LIMIT}", step)
    """)}, files={"data/value.txt": b"3"})
    args = ("--package", "datacat", "check", "--format", "json", "--jobs", "1", "-q")
    assert _rows(cli(tmp_path, *args))["datacat.reads"]["status"] == "proved"
    (tmp_path / "datacat" / "data" / "value.txt").write_bytes(b"30")
    assert _rows(cli(tmp_path, *args))["datacat.reads"]["status"] == "unknown"
    (tmp_path / "datacat" / "data" / "value.txt").write_bytes(b"3")
    assert _rows(cli(tmp_path, *args))["datacat.reads"]["status"] == "proved"
    (tmp_path / "helper_outside.py").write_text("LIMIT = 2\n", encoding="utf-8")
    assert _rows(cli(tmp_path, *args))["datacat.reads"]["status"] == "unknown"


def test_case_1_shipped_example_network_is_in_its_obligations_key():
    """The shipped .npz is part of the key of the obligation evaluated at it."""
    from checker.store.cache import data_closure
    from checker.run.discovery import discover

    module = discover("obligations").by_id("lean_mlp.linear_sgd_descends_example").module
    paths = data_closure(module, ["obligations"])
    assert any(p.endswith(os.path.join("lean_mlp", "data", "example_mlp.npz")) for p in paths)


def _populate(tmp_path: Path, *ids: str) -> Path:
    cache = tmp_path / "cache"
    out = cli(tmp_path, "check", *ids, "--cache-dir", str(cache), "--format", "json", "--jobs", "1", "-q")
    assert out.returncode == 0, out.stderr
    return cache


def test_case_2_an_edited_cache_entry_cannot_forge_a_status(tmp_path):
    """Setting a cached refutation's status to proved (expect holds) is detected: the entry is
    a miss with a warning, the obligation re-runs and stays refuted."""
    cache = _populate(tmp_path, "rmt_jacobian.log10_remark")
    (entry,) = _entries(cache)
    data = json.loads(entry.read_text(encoding="utf-8"))
    content = json.loads(data["content"])
    content.update(status="proved", expect="holds", outcome="confirmed")
    content["certificate"].update(grade="universal", over="")
    data["content"] = json.dumps(content)
    entry.write_text(json.dumps(data), encoding="utf-8")
    out = cli(tmp_path, "check", "rmt_jacobian.log10_remark", "--cache-dir", str(cache), "--format", "json", "-q")
    row = _rows(out)["rmt_jacobian.log10_remark"]
    assert row["status"] == "refuted" and row["outcome"] == "confirmed"
    assert "not authentic" in out.stderr or "MAC" in out.stderr


def test_case_2_a_forged_mac_or_stale_witness_is_not_served(tmp_path, monkeypatch):
    """Even an entry whose MAC matches is served as refuted only if its witness re-checks."""
    from checker.store.cache import Cache, _mac, cache_key
    from checker.kernel.model import derive_seed
    from checker.run.discovery import discover
    from checker.run.runner import RunConfig, run

    monkeypatch.setenv("OBLIGATIONS_CACHE_SECRET", str(tmp_path / "secret"))
    ob_ = discover("obligations").by_id("controller_bound.corollary1_additive")
    cache = Cache(tmp_path / "cache")
    (result,) = run([ob_], RunConfig(jobs=1), cache=cache)
    assert result.status.value == "refuted"
    cfg = RunConfig(jobs=1)
    key = cache_key(ob_, seed=derive_seed(cfg.seed, ob_.id), timeout_s=cfg.timeout_s, memory_mib=cfg.memory_mib,
                    slow=False, package="obligations", audit=False)
    path = cache._path(key)
    data = json.loads(path.read_text(encoding="utf-8"))
    content = json.loads(data["content"])
    content["certificate"]["witness"] = {k: "0" for k in content["certificate"]["witness"]}
    data["content"] = json.dumps(content)
    data["mac"] = _mac(cache._key_secret(), key, data["content"])  # signed with the real secret
    path.write_text(json.dumps(data), encoding="utf-8")
    fresh = Cache(tmp_path / "cache")
    assert fresh.get(key, ob_.id, ob_) is None and fresh.misses == 1


def test_case_3_module_exit_crash_or_hang_at_import_is_an_error_row(tmp_path):
    """sys.exit, os._exit, a segfault and an endless loop at import each give that module's
    error row; the good obligation still runs; the run exits 1 with a full report."""
    make_catalogue(tmp_path, "importcat", {
        "a_good": good("importcat"),
        "exits": "import sys\nsys.exit(0)\n",
        "osexit": "import os\nos._exit(0)\n",
        "segv": "import ctypes\nctypes.string_at(0)\n",
        "hangs": "while True:\n    pass\n",
    })
    out = cli(tmp_path, "--package", "importcat", "check", "--format", "json", "--timeout", "4", "--jobs", "1", "-q")
    assert out.returncode == 1, out.stderr
    rows = _rows(out)
    for module in ("exits", "osexit", "segv", "hangs"):
        assert rows[f"<module importcat.{module}>"]["status"] == "error", rows.keys()
    assert "sys.exit" in rows["<module importcat.exits>"]["certificate"]["reason"]
    assert "signal 11" in rows["<module importcat.segv>"]["certificate"]["reason"]
    assert "10 s limit" in rows["<module importcat.hangs>"]["certificate"]["reason"]  # an import gets at least 10 s
    assert rows["importcat.good"]["status"] == "proved"


def test_case_4_pytest_plugin_fails_on_raise_and_exit_and_writes_junit(tmp_path):
    """Items that raise or call os._exit fail; pytest exits non-zero with its summary and JUnit."""
    pytest.importorskip("pytest")
    make_catalogue(tmp_path, "plugcat", {
        "items": good("plugcat") + ob("plugcat", "raises", "raise KeyError('boom')")
        + ob("plugcat", "exits", "import os\nos._exit(0)"),
    })
    junit = tmp_path / "junit.xml"
    (tmp_path / "empty").mkdir()
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path / "empty"),
                          "--obligations", "--obligations-package", "plugcat", f"--junitxml={junit}"],
                         cwd=tmp_path, env=env_for(tmp_path), capture_output=True, text=True, timeout=300)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "2 failed, 1 passed" in out.stdout, out.stdout
    assert "exit code 0" in out.stdout  # the os._exit item says how its worker ended
    suite = ET.parse(junit).getroot()
    assert sum(int(s.get("failures")) for s in suite.iter("testsuite")) == 2


def test_case_5_a_bad_certificate_value_is_that_obligations_error(tmp_path):
    """A numpy.float32 in data and Certificate(method=None) each break only their obligation."""
    make_catalogue(tmp_path, "certcat", {"items": good("certcat") + ob("certcat", "float32", """
        import numpy as np
        return supported("sampling", x=np.float32(1.5))
    """) + ob("certcat", "nomethod", "return Verdict(Status.UNKNOWN, Certificate(method=None))")})
    out = cli(tmp_path, "--package", "certcat", "check", "--format", "json", "--jobs", "1", "-q")
    assert out.returncode == 1, out.stderr
    rows = _rows(out)
    assert rows["certcat.float32"]["status"] == "error" and "float32" in rows["certcat.float32"]["certificate"]["reason"]
    assert rows["certcat.nomethod"]["status"] == "error" and "method" in rows["certcat.nomethod"]["certificate"]["reason"]
    assert rows["certcat.good"]["status"] == "proved"


# ------------------------------------------------------------------------------------ containment


@pytest.mark.parametrize("garbage", [bytes(random.Random(6).randrange(256) for _ in range(300)), b"[]",
                                     b"[" * 100_000 + b"]" * 100_000, b'{"key": 1}'],
                         ids=["random-bytes", "empty-list", "deep-nesting", "wrong-shape"])
def test_case_6_a_corrupt_cache_entry_is_a_miss(tmp_path, garbage):
    """Random bytes, a bare list, deep nesting: a warning and a re-run, exit 0."""
    cache = _populate(tmp_path, "psy01a.parameter_count")
    (entry,) = _entries(cache)
    entry.write_bytes(garbage)
    out = cli(tmp_path, "check", "psy01a.parameter_count", "--cache-dir", str(cache), "--format", "json", "-q")
    assert out.returncode == 0, out.stderr
    assert _rows(out)["psy01a.parameter_count"]["status"] == "proved"
    assert "re-running" in out.stderr


def test_case_7_obligation_output_never_reaches_the_report(tmp_path):
    """print, a raw write to fd 1, and a child process's output go into the certificate; the
    JSON on stdout stays valid."""
    make_catalogue(tmp_path, "printcat", {"items": "import os, subprocess\nprint('at import')\n" + ob("printcat", "noisy", """
        print("hello from print")
        os.write(1, b"raw fd write\\n")
        subprocess.run(["echo", "from a child"], check=True)
        with timed() as t:
            step = t.step("exact", "python", "noop", "true")
        return trusted("noise", step, grade=Grade.INSTANCES, over="1 point")
    """)})
    out = cli(tmp_path, "--package", "printcat", "check", "--format", "json", "--jobs", "1", "-q")
    assert out.returncode == 0, out.stderr
    row = _rows(out)["printcat.noisy"]
    for text in ("hello from print", "raw fd write", "from a child"):
        assert text in row["certificate"]["data"]["output"]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _wait_gone(pid: int, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return False


def test_case_8_an_obligations_children_die_with_it(tmp_path):
    """A background child left by an obligation is killed when the obligation ends, so a run
    piped to another program ends at once."""
    pidfile = tmp_path / "child.pid"
    make_catalogue(tmp_path, "spawncat", {"items": ob("spawncat", "leaves_child", f"""
        import subprocess
        child = subprocess.Popen(["sleep", "120"])
        open({str(pidfile)!r}, "w").write(str(child.pid))
        return unknown("spawn", "left a child behind")
    """)})
    proc = subprocess.Popen([sys.executable, "-m", "checker", "--package", "spawncat", "check", "-q", "--jobs", "1"],
                            cwd=tmp_path, env=env_for(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, _ = proc.communicate(timeout=60)  # would wait for `sleep 120` if it kept the pipe open
    assert b"spawncat.leaves_child" in stdout
    assert _wait_gone(int(pidfile.read_text()))


def test_case_8_a_busy_worker_dies_with_its_parent(tmp_path):
    """SIGKILL of the checker takes the busy worker (and what it started) down with it."""
    pidfile = tmp_path / "worker.pid"
    make_catalogue(tmp_path, "busycat", {"items": ob("busycat", "spins", f"""
        import os, subprocess
        child = subprocess.Popen(["sleep", "120"])
        open({str(pidfile)!r}, "w").write(f"{{os.getpid()}} {{child.pid}}")
        while True:
            pass
    """)})
    proc = subprocess.Popen([sys.executable, "-m", "checker", "--package", "busycat", "check", "-q", "--jobs", "1"],
                            cwd=tmp_path, env=env_for(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 60
    while not (pidfile.exists() and len(pidfile.read_text().split()) == 2) and time.monotonic() < end:
        time.sleep(0.1)
    worker, child = map(int, pidfile.read_text().split())
    proc.kill()
    proc.wait()
    assert _wait_gone(worker) and _wait_gone(child)


def test_case_9_a_syntax_error_is_never_dropped(tmp_path):
    """A module with a syntax error — also in a subpackage, also with a pattern — is an error
    row and exit 1."""
    make_catalogue(tmp_path, "syncat", {"a_good": good("syncat"), "broken": "def f(:\n", "sub.inner": good("syncat", "inner"),
                                        "badsub.__init__": "x = (\n"})
    full = cli(tmp_path, "--package", "syncat", "check", "--format", "json", "-q")
    assert full.returncode == 1
    rows = _rows(full)
    assert rows["<module syncat.broken>"]["status"] == "error"
    assert rows["<module syncat.badsub>"]["status"] == "error"
    assert rows["syncat.inner"]["status"] == "proved"
    some = cli(tmp_path, "--package", "syncat", "check", "syncat.good", "--format", "json", "-q")
    assert some.returncode == 1 and "<module syncat.broken>" in _rows(some)


def test_case_10_no_state_leaks_between_obligations(tmp_path):
    """An obligation that changes module state cannot change another's result: the same
    statuses with --jobs 1 and --jobs 2."""
    make_catalogue(tmp_path, "leakcat", {"items": "STATE = []\n" + ob("leakcat", "a_writes", """
        STATE.append(1)
        return unknown("state", "wrote")
    """) + ob("leakcat", "b_reads", """
        if STATE:
            raise RuntimeError("saw another obligation's state")
        return unknown("state", "clean")
    """)})
    for jobs in ("1", "2"):
        rows = _rows(cli(tmp_path, "--package", "leakcat", "check", "--format", "json", "--jobs", jobs, "--no-cache", "-q"))
        assert rows["leakcat.b_reads"]["status"] == "unknown", (jobs, rows["leakcat.b_reads"]["certificate"])


@pytest.mark.parametrize("option", ["-o", "--save-baseline"])
def test_case_11_an_unwritable_output_fails_before_the_run(tmp_path, option):
    """A bad -o or --save-baseline path is a usage error (exit 2) before anything runs."""
    marker = tmp_path / "ran"
    make_catalogue(tmp_path, "outcat", {"items": ob("outcat", "marks", f"""
        open({str(marker)!r}, "w").write("ran")
        return unknown("mark", "ran")
    """)})
    for bad in (tmp_path / "no" / "such" / "dir" / "r.json", tmp_path):
        out = cli(tmp_path, "--package", "outcat", "check", option, str(bad), "-q")
        assert out.returncode == 2, out.stderr
        assert "output file" in out.stderr
        assert not marker.exists()


def test_case_12_hand_built_verdicts_are_re_checked(tmp_path):
    """A hand-built refutation whose witness is not a counterexample to the declared claim is
    unknown; a proof without steps is an error; a custom witness no declared claim can re-check is
    unknown too (the discharge's word alone), its witness kept in the data."""
    make_catalogue(tmp_path, "handcat", {"items": """
from checker.claims import claim
SQUARE = claim("square-nonnegative", "x", lambda o, v: o.ge(v.x * v.x, 0))
""" + ob("handcat", "fake_refutation", "return refuted('by hand', {'x': '3'}, {'lhs': '9'})", expect="FAILS",
         extra=", claims=(SQUARE,)") + ob("handcat", "stepless_proof", "return proved('by hand', grade=Grade.UNIVERSAL)")
        + ob("handcat", "custom_witness", "return refuted('by hand', {'n': '201'}, {'lhs': '201', 'rhs': '101'})", expect="FAILS")})
    rows = _rows(cli(tmp_path, "--package", "handcat", "check", "--format", "json", "-q"))
    assert rows["handcat.fake_refutation"]["status"] == "unknown"
    assert "not a counterexample" in rows["handcat.fake_refutation"]["certificate"]["reason"]
    assert rows["handcat.stepless_proof"]["status"] == "error"
    custom = rows["handcat.custom_witness"]
    assert custom["status"] == "unknown"
    assert "cannot be re-checked against a declared claim" in custom["certificate"]["reason"]
    assert custom["certificate"]["data"]["rejected_witness"] == {"n": "201"}


def _npy_header(shape: tuple[int, ...]) -> bytes:
    import numpy as np
    from numpy.lib import format as npy
    import io

    buf = io.BytesIO()
    npy.write_array_header_1_0(buf, {"descr": npy.dtype_to_descr(np.dtype("<f4")), "fortran_order": False, "shape": shape})
    return buf.getvalue()  # magic string and header


def test_case_13_a_decompression_bomb_is_refused_before_loading(tmp_path):
    """A small .npz declaring gigabytes is exit 2 with a clear message, without loading it."""
    import zipfile

    bomb = tmp_path / "bomb.npz"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("W0.npy", _npy_header((1 << 30,)) + b"\0" * 4096)  # claims 4 GiB
    out = cli(tmp_path, "discharge", "linear_sgd_descends", "--net", str(bomb), "--example", "1,0,0", "--label", "0",
              "--lr", "1/256", timeout=60)
    assert out.returncode == 2, out.stderr
    assert "limit" in out.stderr
    zeros = tmp_path / "zeros.npz"
    with zipfile.ZipFile(zeros, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        with zf.open("W0.npy", "w", force_zip64=True) as fh:
            fh.write(_npy_header((20 << 20,)))
            for _ in range(80):
                fh.write(b"\0" * (1 << 20))  # 80 MiB of zeros, a few hundred KiB packed
    out = cli(tmp_path, "discharge", "linear_sgd_descends", "--net", str(zeros), "--example", "1,0,0", "--label", "0",
              "--lr", "1/256", timeout=60)
    assert out.returncode == 2 and "limit" in out.stderr, out.stderr


def test_case_14_control_characters_keep_junit_parseable(tmp_path):
    """An exception message full of control characters still gives well-formed JUnit XML."""
    make_catalogue(tmp_path, "ctrlcat", {"items": ob("ctrlcat", "shouts", r"raise ValueError('bad \x00\x07\x1b[31m\x0c end')")})
    out = cli(tmp_path, "--package", "ctrlcat", "check", "--format", "junit", "-q")
    assert out.returncode == 1
    root = ET.fromstring(out.stdout)
    failure = next(root.iter("failure"))
    assert "\\x1b" in failure.text and "\x1b" not in out.stdout


def test_case_15_written_files_keep_modes_and_follow_symlinks(tmp_path):
    """A new report gets the umask's mode; an existing file keeps its mode; a symlinked report
    path stays a symlink and its target gets the report."""
    from checker.store.cache import atomic_write

    old = os.umask(0o022)
    try:
        new = tmp_path / "new.json"
        atomic_write(new, "{}")
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        existing = tmp_path / "existing.json"
        existing.write_text("old")
        existing.chmod(0o640)
        atomic_write(existing, "new")
        assert stat.S_IMODE(existing.stat().st_mode) == 0o640 and existing.read_text() == "new"
        target = tmp_path / "real.json"
        target.write_text("old")
        link = tmp_path / "link.json"
        link.symlink_to(target)
        out = cli(tmp_path, "check", "psy01a.parameter_count", "-o", str(link), "--format", "json", "-q")
        assert out.returncode == 0, out.stderr
        assert link.is_symlink() and json.loads(target.read_text())["results"][0]["id"] == "psy01a.parameter_count"
    finally:
        os.umask(old)


# ------------------------------------------------------------------------------------ smaller cases


def test_ansi_escapes_do_not_reach_the_terminal(tmp_path):
    """A method name with an ANSI escape is shown escaped in the table and progress lines."""
    make_catalogue(tmp_path, "ansicat", {"items": ob("ansicat", "colours", "return unknown('\\x1b[2J\\x1b[31mred', 'x')")})
    out = cli(tmp_path, "--package", "ansicat", "check", "--wide")
    assert "\x1b" not in out.stdout and "\x1b" not in out.stderr
    assert "\\x1b[31mred" in out.stdout


@pytest.mark.parametrize("value", ["inf", "nan", "1e400"])
def test_infinite_timeout_is_a_usage_error(tmp_path, value):
    out = cli(tmp_path, "check", "psy01a.parameter_count", "--timeout", value)
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_list_into_a_closed_pipe_is_quiet(tmp_path):
    """``obligations list | head -1``: no BrokenPipe traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "checker", "list"], cwd=ROOT, env=env_for(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line is written
    _, err = proc.communicate(timeout=120)
    assert b"Traceback" not in err and b"BrokenPipe" not in err
    assert proc.returncode in (0, 1)


@pytest.mark.parametrize("content", [b"\xff\xfe not utf-8", b"[" * 200_000])
def test_unreadable_report_or_baseline_is_a_usage_error(tmp_path, content):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    assert cli(tmp_path, "report", str(bad)).returncode == 2
    assert cli(tmp_path, "show", "x.y", "--from", str(bad)).returncode == 2
    assert cli(tmp_path, "check", "psy01a.parameter_count", "--baseline", str(bad), "-q").returncode == 2


def test_non_utf8_lean_file_is_a_usage_error(tmp_path):
    lean = tmp_path / "lean"
    lean.mkdir()
    (lean / "Bad.lean").write_bytes(b"theorem \xff\xfe bad : True := sorry\n")
    (lean / "Deep.lean").write_text("/-" * 50_000 + "-/" * 50_000 + "\n", encoding="utf-8")
    out = cli(tmp_path, "lean", "--dir", str(lean))
    assert out.returncode == 2 and "not UTF-8" in out.stderr, out.stderr


def test_tiny_learning_rate_is_refused_not_computed(tmp_path):
    out = cli(tmp_path, "discharge", "linear_sgd_descends", "--net", str(ROOT / "obligations/lean_mlp/data/example_mlp.npz"),
              "--example", "1,0,0", "--label", "0", "--lr", "1e-100000000", timeout=60)
    assert out.returncode == 2 and "out of range" in out.stderr


def test_int64_above_2_53_is_not_silently_rounded(tmp_path):
    import numpy as np

    from obligations.lean_mlp import mlp

    net = tmp_path / "ints.npz"
    arrays = {"W0": np.array([[2**53 + 1]], dtype=np.int64), "b0": np.zeros(1, np.float32),
              "W1": np.ones((1, 1), np.float32), "b1": np.zeros(1, np.float32),
              "W2": np.ones((1, 1), np.float32), "b2": np.zeros(1, np.float32)}
    np.savez(net, **arrays)
    with pytest.raises(mlp.NetworkFileError, match="not binary32"):
        mlp.load_npz(net)


def test_memory_limit_covers_the_whole_process_group(tmp_path):
    """Three children of 200 MiB each exceed a 400 MiB limit together, though each fits alone."""
    make_catalogue(tmp_path, "memcat", {"items": ob("memcat", "fans_out", """
        import subprocess, sys, time
        code = "import time; x = b'x' * (200 << 20); time.sleep(30)"
        kids = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(3)]
        for k in kids:
            k.wait()
        return unknown("memory", "survived")
    """)})
    rows = _rows(cli(tmp_path, "--package", "memcat", "check", "--format", "json", "--memory", "400", "--timeout", "60", "-q"))
    row = rows["memcat.fans_out"]
    assert row["status"] == "error" and "process group" in row["certificate"]["reason"]


def test_a_uses_cycle_is_rejected(tmp_path):
    make_catalogue(tmp_path, "cyclecat", {"items": good("cyclecat", "a").replace('expect=Expect.HOLDS)', 'expect=Expect.HOLDS, uses=("cyclecat.b",))')
                                          + good("cyclecat", "b").replace('expect=Expect.HOLDS)', 'expect=Expect.HOLDS, uses=("cyclecat.a",))')})
    out = cli(tmp_path, "--package", "cyclecat", "check", "--format", "json", "-q")
    assert out.returncode == 1
    assert any("cycle" in (r["certificate"]["reason"] or "") for r in _doc(out)["results"])


def test_non_finite_floats_give_strict_json(tmp_path):
    make_catalogue(tmp_path, "nancat", {"items": ob("nancat", "nan", "return supported('sampling', worst=float('nan'), top=float('inf'))")})
    out = cli(tmp_path, "--package", "nancat", "check", "--format", "json", "-q")
    data = _rows(out)["nancat.nan"]["certificate"]["data"]
    assert data["worst"] == "NaN" and data["top"] == "Infinity"
