"""The cluster executor (``--executor local-cluster:N`` / ``dask://``): the same results as at home,
no retry to a pass, a refused version mismatch; and the mutation audit in parallel at home."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from checker.kernel.errors import UsageError
from checker.kernel.model import DEFAULT_SEED, Status, derive_seed
from checker.run import cluster, mutants
from checker.run.cluster import Executor, parse_executor
from checker.run.discovery import discover
from checker.run.pools import LocalPool
from checker.run.runner import RunConfig, run
from tests.helpers import ROOT

FIXTURES = str(Path(__file__).parent / "fixtures")


# ------------------------------------------------------------------ the option (no dask needed)


@pytest.mark.parametrize(("text", "expected"), [
    ("local", Executor("local")),
    ("local-cluster:3", Executor("local-cluster", workers=3)),
    ("dask://10.0.0.5:8786", Executor("dask", address="tcp://10.0.0.5:8786")),
    ("tls://sched.lab:8786", Executor("dask", address="tls://sched.lab:8786")),
])
def test_executor_option_is_parsed(text, expected):
    """Each accepted spelling gives its executor."""
    assert parse_executor(text) == expected


@pytest.mark.parametrize("text", ["cluster", "local-cluster:0", "local-cluster:two", "dask://nohost", "dask://:8786"])
def test_a_bad_executor_is_a_usage_error_saying_what_is_accepted(text):
    """A malformed executor names itself and lists the accepted forms."""
    with pytest.raises(UsageError, match=re.escape(repr(text)) + ".*local-cluster:N.*dask://HOST:PORT"):
        parse_executor(text)


def test_without_dask_the_option_names_the_extra(monkeypatch):
    """With dask.distributed not importable, a cluster executor is a usage error naming the extra."""
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(cluster.ClusterUnavailable, match=r"pip install '\.\[cluster\]'"):
        cluster.require_dask(Executor("local-cluster", workers=2))


def test_the_cli_without_dask_fails_cleanly_and_a_local_check_still_runs(tmp_path):
    """In a Python where dask.distributed cannot be imported: ``--executor local-cluster:2`` exits 2
    with the extra named, and the default local check runs and imports no dask."""
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text("import sys\nsys.modules['distributed'] = None\nsys.modules['dask'] = None\n")
    env = {**os.environ, "PYTHONPATH": f"{blocker}{os.pathsep}{ROOT}"}
    args = [sys.executable, "-m", "checker", "check", "controller_bound.theorem2_tight", "--no-cache", "-q"]
    bad = subprocess.run([*args, "--executor", "local-cluster:2"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2, bad.stderr
    assert "pip install '.[cluster]'" in bad.stderr
    good = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert good.returncode == 0, good.stderr
    assert "proved" in good.stdout


def test_a_bad_configured_executor_names_the_file_and_the_key(tmp_path):
    """``[tool.obligations] executor = "cluster"`` is a usage error naming the file and the key."""
    (tmp_path / "pyproject.toml").write_text('[tool.obligations]\npackages = ["obligations"]\nexecutor = "cluster"\n')
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "checker", "check", "controller_bound.theorem2_tight", "--no-cache", "-q"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert re.search(r"pyproject\.toml: \[tool\.obligations\] executor 'cluster' is not known; use 'local'", out.stderr), out.stderr


def test_the_handshake_names_the_mismatched_worker():
    """A worker whose versions differ, or that may not start processes, refuses the run by name."""
    mine = cluster.Versions("3.11.7", "0.1.0", (("z3-solver", "4.13"), ("cvc5", None)), "e", "c", True)
    same = mine
    other = cluster.Versions("3.11.7", "0.1.0", (("z3-solver", "4.12"), ("cvc5", None)), "e", "c", True)
    daemonic = cluster.Versions("3.11.7", "0.1.0", (("z3-solver", "4.13"), ("cvc5", None)), "e", "c", False)
    cluster.handshake(mine, {"tcp://a:1": same})
    with pytest.raises(cluster.VersionMismatch, match=r"worker tcp://b:2: z3-solver 4\.12 \(client: 4\.13\)") as info:
        cluster.handshake(mine, {"tcp://a:1": same, "tcp://b:2": other})
    assert "tcp://a:1" not in str(info.value)
    with pytest.raises(cluster.VersionMismatch, match="tcp://c:3.*daemonic"):
        cluster.handshake(mine, {"tcp://c:3": daemonic})


# ------------------------------------------------------------------ the mutation audit at home


def _mutation_entries(pool, ids):
    cat = discover("obligations")
    chosen = [cat.by_id(i) for i in ids]
    return mutants.run(chosen, pool, seed_of=lambda ob: derive_seed(DEFAULT_SEED, ob.id), timeout_s=120.0,
                       memory_mib=4096, limit=MUTANTS)


MUTATION_IDS = ("controller_bound.theorem2_single_layer", "controller_bound.theorem2_tight")
"""Two obligations whose mutants are killed (the first) and survive (the second)."""
MUTANTS = 4  # per obligation: enough to kill some and keep some alive, each run three times below


@pytest.fixture(scope="module")
def two_worker_mutants():
    """The mutation audit of :data:`MUTATION_IDS` with its mutants spread over two local workers: what the
    one-at-a-time audit and the cluster's are both compared with (computed once per module)."""
    return _mutation_entries(LocalPool(2), MUTATION_IDS)


def test_parallel_mutants_give_the_verdicts_of_one_at_a_time(two_worker_mutants):
    """``audit --mutate --jobs 2`` (mutants spread over two workers) gives the scores of the audit that
    runs each obligation's mutants one at a time in one child process. (``--jobs 1`` against ``--jobs 2``
    of the same pool is ``test_results_do_not_depend_on_jobs``'s question, asked there of the check.)"""
    from checker.audit import mutation

    two = two_worker_mutants
    assert sum(e.get("killed", 0) for e in two) > 0 and sum(e.get("survived", 0) for e in two) > 0  # both kinds
    cat = discover("obligations")
    before = mutation.run([cat.by_id(i) for i in MUTATION_IDS], DEFAULT_SEED, 120.0, limit=MUTANTS,
                          seed_of=lambda ob: derive_seed(DEFAULT_SEED, ob.id))
    assert [(e["id"], e.get("score"), e.get("killed"), e.get("survived")) for e in before] == \
        [(e["id"], e.get("score"), e.get("killed"), e.get("survived")) for e in two]


# ------------------------------------------------------------------ on a cluster


def _plain(value):
    """A result's JSON without its timings (``time_s`` and every other ``…_s`` number)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()
                if not (k.endswith("_s") and k not in ("timeout_s", "limit_s") and isinstance(v, (int, float)))}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@pytest.fixture(scope="module")
def dask_cluster():
    """A two-worker local Dask cluster configured as ``local-cluster:N`` starts one, stopped after the module."""
    pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install '.[cluster]')")
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set(cluster._LOCAL_CONFIG):
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", memory_limit=0,
                          silence_logs=40) as lc, Client(lc) as client:
            yield lc, client


def _executor(dask_cluster) -> Executor:
    return parse_executor("dask://" + dask_cluster[0].scheduler_address.removeprefix("tcp://"))


# every status and method family, in well under a minute: z3 proofs, exact refutations, sympy,
# intervals, Monte-Carlo evidence, float32 enumeration
SELECTION = ("controller_bound", "rmt_jacobian.mask_row_sums", "rmt_jacobian.log", "rmt_jacobian.random_pruning_scaling",
             "rmt_jacobian.condition_ii_prime_typo", "psy01a.margin", "psy01a.comparison_model", "psy01a.fixed_masks_commute",
             "lean_mlp.float.dot_close", "lean_mlp.relu", "lean_mlp.total_drift_le")


def _same_results(local, remote):
    assert [r.id for r in local] == [r.id for r in remote]
    differ = [a.id for a, b in zip(local, remote) if _plain(a.to_json()) != _plain(b.to_json())]
    assert not differ, f"different results on the cluster: {differ}"


def test_a_selection_on_the_cluster_matches_the_local_run(dask_cluster):
    """Statuses, grades, witnesses and certificates on a Dask cluster are the local run's (timings aside)."""
    cat = discover("obligations")
    chosen = cat.select(list(SELECTION), include_slow=False)
    assert len(chosen) >= 15
    config = RunConfig(jobs=2)
    local = run(chosen, config)
    with cluster.connect(_executor(dask_cluster), ("obligations",), str(ROOT)) as pool:
        remote = cluster.check(chosen, config, pool)
    _same_results(local, remote)
    assert {r.status for r in remote} >= {Status.PROVED, Status.REFUTED}


def test_the_mutation_audit_on_the_cluster_gives_the_local_scores(dask_cluster, two_worker_mutants):
    """The mutation audit of two ``controller_bound`` obligations on the cluster gives the entries
    (scores, verdicts per mutant) of the local ``--jobs 2`` run."""
    with cluster.connect(_executor(dask_cluster), ("obligations",), str(ROOT)) as pool:
        remote = _mutation_entries(pool, MUTATION_IDS)
    assert two_worker_mutants == remote
    assert any(e.get("score") is not None for e in remote)


def _with_fixtures():
    sys.path.insert(0, FIXTURES)
    return discover("clustercat")


def test_a_job_exhausting_memory_is_its_error_and_the_run_goes_on(dask_cluster):
    """An obligation that allocates without bound inside a cluster worker is ``error`` (memory
    limit), and the other obligations get their results."""
    cat = _with_fixtures()
    try:
        chosen = [cat.by_id("clustercat.hog"), cat.by_id("clustercat.quick")]
        with cluster.connect(_executor(dask_cluster), ("clustercat",), FIXTURES) as pool:
            hog, quick = cluster.check(chosen, RunConfig(jobs=2, timeout_s=30, memory_mib=512), pool)
    finally:
        sys.path.remove(FIXTURES)
    assert hog.status is Status.ERROR and "memory limit" in hog.certificate.reason
    assert quick.status is Status.PROVED


def test_a_killed_worker_is_error_worker_died_never_a_retry(dask_cluster):
    """Killing the worker that runs an obligation makes it ``error`` (worker died), not a
    re-run elsewhere; the run goes on for the others."""
    lc, client = dask_cluster
    cat = _with_fixtures()
    got = {}
    try:
        chosen = [cat.by_id("clustercat.sleeps"), cat.by_id("clustercat.quick")]
        with cluster.connect(_executor(dask_cluster), ("clustercat",), FIXTURES) as pool:
            def go():
                got["results"] = cluster.check(chosen, RunConfig(jobs=2, timeout_s=90), pool)

            thread = threading.Thread(target=go)
            thread.start()
            holder, since = None, time.monotonic()
            for _ in range(600):  # until one job alone (the sleeping one) has been running for a second
                busy = [w for w, keys in client.processing().items() if any(k.startswith("obligations-") for k in keys)]
                if len(busy) != 1 or busy[0] != holder:
                    holder, since = (busy[0] if len(busy) == 1 else None), time.monotonic()
                elif time.monotonic() - since > 1.5:
                    break
                time.sleep(0.1)
            assert holder is not None, "the sleeping obligation never ran alone"
            pid = client.run(os.getpid, workers=[holder])[holder]
            os.kill(pid, signal.SIGKILL)
            thread.join(120)
    finally:
        sys.path.remove(FIXTURES)
    sleeps, quick = got["results"]
    assert sleeps.status is Status.ERROR, sleeps
    assert sleeps.certificate.method == "worker died" and "worker died" in sleeps.certificate.reason
    assert quick.status is Status.PROVED
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it


def test_a_worker_with_another_version_refuses_the_run(dask_cluster):
    """One worker whose reported z3 version is patched makes ``connect`` refuse, naming that worker."""
    lc, client = dask_cluster
    first = sorted(client.scheduler_info()["workers"])[0]

    def patch():
        from checker.run import cluster as c

        real = c._version_of
        c._real_version_of = real
        c._version_of = lambda d: "0.0-patched" if d == "z3-solver" else real(d)

    def unpatch():
        from checker.run import cluster as c

        c._version_of = c._real_version_of

    client.run(patch, workers=[first])
    try:
        with pytest.raises(cluster.VersionMismatch) as info:
            with cluster.connect(_executor(dask_cluster), ("obligations",), str(ROOT)):
                pass
    finally:
        client.run(unpatch, workers=[first])
    assert f"worker {first}: z3-solver 0.0-patched" in str(info.value)
    others = [w for w in client.scheduler_info()["workers"] if w != first]
    assert all(w not in str(info.value) for w in others)


def test_the_cli_starts_and_stops_a_local_cluster_and_names_the_workers():
    """``obligations check --executor local-cluster:2`` prints the dashboard and ``[k/N] … on tcp://…`` lines."""
    pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install '.[cluster]')")
    out = subprocess.run([sys.executable, "-m", "checker", "check", "controller_bound.theorem2", "--no-cache",
                          "--executor", "local-cluster:2"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert re.search(r"dashboard at http://\S+", out.stderr)
    assert re.search(r"\[1/3\] \w+ +controller_bound\.theorem2\S* \(.*\) on tcp://", out.stderr), out.stderr


@pytest.mark.slow
def test_the_whole_catalogue_on_a_local_cluster_matches_the_local_run(dask_cluster):
    """Every (non-slow) obligation of the catalogue: the same results on ``local-cluster:2`` as at home."""
    cat = discover("obligations")
    chosen = cat.select([], include_slow=False)
    config = RunConfig(jobs=2)
    local = run(chosen, config, cat.errors)
    with cluster.connect(_executor(dask_cluster), ("obligations",), str(ROOT)) as pool:
        remote = cluster.check(chosen, config, pool, cat.errors)
    _same_results(local, remote)
