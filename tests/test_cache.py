"""The cache: keyed on everything a result depends on, JSON only, atomic, never fatal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from checker.store import cache as cache_mod
from checker.run import runner
from checker.store.cache import MANIFEST_VERSION, Cache, CacheWarning, atomic_write, cache_key, module_closure
from checker.run.discovery import discover
from checker.run.runner import RunConfig, run

ROOT = Path(__file__).resolve().parent.parent


def _key(ob, **over):
    args = dict(seed=1, timeout_s=10.0, memory_mib=1024, slow=False, package="obligations")
    args.update(over)
    return cache_key(ob, **args)


def test_closure_follows_project_imports_transitively():
    """theorem2's key covers the network helper it imports and the package inits."""
    closure = module_closure("obligations.controller_bound.theorem2", ["obligations"])
    assert "obligations.controller_bound.network" in closure
    assert "obligations.controller_bound" in closure and "obligations" in closure
    corollary = module_closure("obligations.controller_bound.corollary1", ["obligations"])
    assert "obligations.controller_bound.theorem2" in corollary  # imported inside the module


def test_key_depends_on_limits_seed_and_slow():
    """Changing any limit, the seed or the slow switch changes the key."""
    ob = discover("obligations").by_id("psy01a.parameter_count")
    base = _key(ob)
    assert base == _key(ob)
    for over in ({"seed": 2}, {"timeout_s": 11.0}, {"memory_mib": 2048}, {"slow": True}):
        assert _key(ob, **over) != base, over


def test_key_depends_on_library_versions(monkeypatch):
    """A different solver version is a different key."""
    ob = discover("obligations").by_id("psy01a.parameter_count")
    base = _key(ob)
    versions = dict(cache_mod._library_versions())
    versions["z3-solver"] = "0.0.0"
    monkeypatch.setattr(cache_mod, "_library_versions", lambda: tuple(versions.items()))
    assert _key(ob) != base


def test_warm_run_reuses_results_without_starting_workers(tmp_path, monkeypatch):
    """A second run with nothing changed takes every result from the cache: no worker starts."""
    cat = discover("obligations")
    chosen = cat.select(["psy01a.parameter_count", "controller_bound.theorem2_tight"])
    c1 = Cache(tmp_path)
    cold = run(chosen, RunConfig(jobs=1), cache=c1)
    assert c1.misses == 2 and c1.hits == 0

    def no_workers(*a, **k):
        raise AssertionError("a worker was started on a warm run")

    from checker.run import workers

    monkeypatch.setattr(workers.Template, "submit", no_workers)
    c2 = Cache(tmp_path)
    warm = run(chosen, RunConfig(jobs=1), cache=c2)
    assert c2.hits == 2
    assert [r.to_json() for r in warm] == [r.to_json() for r in cold]


def test_warm_cli_run_imports_neither_sympy_nor_z3(tmp_path):
    """The checker process of a warm run imports no heavy library."""
    args = ["check", "psy01a.masked_operator_norm", "controller_bound.theorem2_tight", "--cache-dir", str(tmp_path), "-q"]
    code = ("import sys; from checker.face.cli import main; rc = main(%r); "
            "print(rc, [m for m in ('sympy', 'z3', 'numpy', 'flint') if m in sys.modules])")
    first = subprocess.run([sys.executable, "-c", code % (args,)], capture_output=True, text=True, cwd=ROOT)
    second = subprocess.run([sys.executable, "-c", code % (args,)], capture_output=True, text=True, cwd=ROOT)
    assert first.returncode == 0 and second.returncode == 0, second.stderr
    assert second.stdout.strip().splitlines()[-1] == "0 []"


def test_corrupt_entry_is_a_miss_with_a_warning(tmp_path):
    """An unreadable or tampered entry is a miss (with CacheWarning), never a crash."""
    ob = discover("obligations").by_id("psy01a.parameter_count")
    key = _key(ob)
    c = Cache(tmp_path)
    path = c._path(key)
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    with pytest.warns(CacheWarning, match="corrupt"):
        assert c.get(key, ob.id) is None
    path.write_text(json.dumps({"key": "other", "result": {}}), encoding="utf-8")
    with pytest.warns(CacheWarning):
        assert c.get(key, ob.id) is None


def test_truncated_entry_is_a_miss(tmp_path):
    """Entries are written without fsync: what a crash can leave behind (an empty file or any
    prefix of the entry) must read as a miss, never as a result."""
    import warnings

    from checker.testing import run_obligation

    ob = discover("obligations").by_id("psy01a.parameter_count")
    key = _key(ob)
    c = Cache(tmp_path)
    c.put(key, run_obligation(ob.id, "obligations"), {"version": MANIFEST_VERSION})  # nothing read, say
    path = c._path(key)
    text = path.read_text(encoding="utf-8")
    assert c.get(key, ob.id) is not None
    for cut in (0, 1, len(text) // 3, len(text) // 2, len(text) - 1):
        path.write_text(text[:cut], encoding="utf-8")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CacheWarning)
            assert c.get(key, ob.id) is None, cut


def test_unwritable_cache_does_not_fail_the_run(tmp_path):
    """A cache directory that cannot be written only warns."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cat = discover("obligations")
    with pytest.warns(CacheWarning, match="cannot write"):
        results = run(cat.select(["psy01a.parameter_count"]), RunConfig(jobs=1), cache=Cache(blocker / "sub"))
    assert results[0].status.value == "proved"


def test_errors_and_timeouts_are_not_cached(tmp_path):
    """Only settled results are stored: a timeout re-runs next time."""
    sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
    try:
        cat = discover("badcat")
        c = Cache(tmp_path)
        run(cat.select(["badcat.raises", "badcat.good"]), RunConfig(jobs=1), cache=c, package="badcat")
        c2 = Cache(tmp_path)
        run(cat.select(["badcat.raises", "badcat.good"]), RunConfig(jobs=1), cache=c2, package="badcat")
    finally:
        sys.path.remove(str(ROOT / "tests" / "fixtures"))
    assert c2.hits == 1 and c2.misses == 1


WRITER = """
import sys, json
from checker.store.cache import atomic_write
from checker.store import baseline
path, kind = sys.argv[1], sys.argv[2]
blob = json.dumps({"schema_version": 1, "results": [], "pad": "x" * 4_000_000})
i = 0
while True:
    i += 1
    atomic_write(path, blob.replace('"pad"', '"n%d"' % (i % 10), 1))
"""


@pytest.mark.parametrize("kind", ["cache", "baseline"])
def test_sigkill_during_writes_leaves_the_file_readable(tmp_path, kind):
    """SIGKILL at arbitrary moments of repeated atomic writes never leaves a torn file."""
    target = tmp_path / f"{kind}.json"
    atomic_write(target, json.dumps({"schema_version": 1, "results": []}))
    for delay in (0.05, 0.13, 0.21, 0.34, 0.55):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(target), kind], cwd=ROOT)
        time.sleep(delay)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        data = json.loads(target.read_text(encoding="utf-8"))
        assert data["schema_version"] == 1
