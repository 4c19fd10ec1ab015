"""Shared pytest set-up: the ``--slow`` switch for slow Monte-Carlo / large-width tests."""

from __future__ import annotations

import os

# One BLAS thread, as in the checker's workers: obligations run in the test process too.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import shutil  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from tests import shared_run  # noqa: E402

# The cache's MAC secret: one per test session, never the user's own.
_SESSION_DIR = tempfile.mkdtemp(prefix="obligations-test-")
os.environ.setdefault("OBLIGATIONS_CACHE_SECRET", os.path.join(_SESSION_DIR, "cache-secret"))
# ... and its own result cache, so that a test run never writes into the checkout's cache.
os.environ.setdefault("OBLIGATIONS_CACHE_DIR", os.path.join(_SESSION_DIR, "cache"))
# The folder of the session's one shared catalogue check (tests/shared_run.py): made by the
# controlling process, whose environment the parallel workers inherit.
_OWN_SHARED = shared_run.ENV_DIR not in os.environ
if _OWN_SHARED:
    os.environ[shared_run.ENV_DIR] = tempfile.mkdtemp(prefix="obligations-shared-run-")
_SHARED = Path(os.environ[shared_run.ENV_DIR])
_STARTED: list = []  # the shared check, when this process started it
SHARED_FIXTURES = ("catalogue_run", "catalogue_report")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False, help="also run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # the tests that read the shared catalogue check go last, so that the others run while it does
    items.sort(key=_reads_the_shared_check)
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def _reads_the_shared_check(item: pytest.Item) -> bool:
    return any(name in SHARED_FIXTURES for name in getattr(item, "fixturenames", ()))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the shared catalogue check in the background when a collected test reads it."""
    if session.config.option.collectonly:
        return
    if any(_reads_the_shared_check(item) for item in session.items):
        started = shared_run.start(_SHARED)
        if started is not None:
            _STARTED.append(started)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A shared check this process started ends with the session: stopped when nobody will read it
    any more (the session was interrupted, or it runs in this one process), else awaited (another
    parallel worker may still be reading it)."""
    alone = "PYTEST_XDIST_WORKER" not in os.environ
    for started in _STARTED:
        if alone or exitstatus == pytest.ExitCode.INTERRUPTED:
            shared_run.stop(started)
        else:
            started.wait()


def pytest_unconfigure(config: pytest.Config) -> None:
    if _OWN_SHARED:
        shutil.rmtree(_SHARED, ignore_errors=True)


@pytest.fixture(scope="session")
def catalogue_report() -> dict:
    """The results of the session's one cold check of the whole default catalogue, by id, as its JSON
    report has them."""
    return shared_run.results(_SHARED)


@pytest.fixture(scope="session")
def catalogue_run(catalogue_report):
    """The same results as :class:`checker.kernel.model.Result` values."""
    from checker.kernel.model import Result

    return {i: Result.from_json(r) for i, r in catalogue_report.items()}
