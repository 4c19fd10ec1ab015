"""The runner: crash isolation, hard limits, determinism across --jobs."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.kernel.model import Outcome, Status
from checker.run.discovery import discover
from checker.run.runner import RunConfig, run

FIXTURES = str(Path(__file__).parent / "fixtures")


TIMEOUT_S = 15


@pytest.fixture(scope="module")
def badcat_results():
    import sys

    sys.path.insert(0, FIXTURES)
    try:
        cat = discover("badcat")
        # a limit a hang reaches soon, and an allocating job cannot, however loaded the machine
        results = run(cat.obligations, RunConfig(jobs=2, timeout_s=TIMEOUT_S, memory_mib=1024), cat.errors)
    finally:
        sys.path.remove(FIXTURES)
    return {r.id: r for r in results}


def test_every_obligation_gets_a_result(badcat_results):
    """Broken modules and broken obligations each get their own row; the rest still run."""
    assert set(badcat_results) == {
        "<module badcat.import_error>", "<module badcat.syntax_error>", "badcat.good", "badcat.refuted_expected",
        "badcat.contradicted", "badcat.raises", "badcat.loops", "badcat.hog", "badcat.wrongtype", "badcat.dies",
        "badcat.undecided",
    }
    assert badcat_results["badcat.good"].status is Status.PROVED
    assert badcat_results["badcat.refuted_expected"].outcome is Outcome.CONFIRMED
    assert badcat_results["badcat.contradicted"].outcome is Outcome.CONTRADICTED


def test_exception_is_error_with_the_obligations_own_frame(badcat_results):
    """An exception becomes error; the reason points into the obligation's module."""
    r = badcat_results["badcat.raises"]
    assert r.status is Status.ERROR and r.outcome is Outcome.BROKEN
    assert "raises.py:" in r.certificate.reason and "KeyError" in r.certificate.reason
    assert "traceback" in r.certificate.data


def test_infinite_loop_is_killed_at_the_deadline(badcat_results):
    """A hanging obligation is a timeout carrying the limit, and costs only itself."""
    r = badcat_results["badcat.loops"]
    assert r.status is Status.TIMEOUT
    assert r.certificate.data["limit_s"] == TIMEOUT_S
    assert TIMEOUT_S - 0.5 < r.time_s < TIMEOUT_S + 12


def test_unbounded_allocation_hits_the_memory_limit(badcat_results):
    """An allocating obligation is stopped by the worker's memory limit, reported as error."""
    r = badcat_results["badcat.hog"]
    assert r.status is Status.ERROR
    assert "memory limit of 1024 MiB" in r.certificate.reason


def test_wrong_return_type_is_an_error(badcat_results):
    """Returning something other than a Verdict is an error that says what was expected."""
    r = badcat_results["badcat.wrongtype"]
    assert r.status is Status.ERROR
    assert "expected a Verdict" in r.certificate.reason and "int" in r.certificate.reason


def test_worker_death_is_an_error(badcat_results):
    """A worker killed by a signal is an error naming the signal; a new worker takes over."""
    r = badcat_results["badcat.dies"]
    assert r.status is Status.ERROR
    assert "signal 9" in r.certificate.reason


def test_solver_unknown_is_unknown_not_error(badcat_results):
    """z3 giving up is an honest unknown with z3's reason."""
    r = badcat_results["badcat.undecided"]
    assert r.status is Status.UNKNOWN
    assert "z3 answered unknown" in r.certificate.reason


def test_load_errors_are_broken_rows(badcat_results):
    """A module that does not import is a broken row with its location."""
    r = badcat_results["<module badcat.syntax_error>"]
    assert r.status is Status.ERROR and r.outcome is Outcome.BROKEN
    assert "syntax_error.py:3" in r.certificate.data["location"]


def test_results_do_not_depend_on_jobs():
    """The same statuses and certificates (minus timings) for --jobs 1 and --jobs 2."""
    cat = discover("obligations")
    chosen = cat.select(["controller_bound.theorem2", "psy01a.margin", "psy01a.parameter"])

    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "time_s"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    one = run(chosen, RunConfig(jobs=1))
    two = run(chosen, RunConfig(jobs=2))
    assert [r.id for r in one] == [ob.id for ob in chosen]
    assert strip([r.to_json() for r in one]) == strip([r.to_json() for r in two])
