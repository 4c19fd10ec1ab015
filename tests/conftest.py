"""Shared pytest set-up: the ``--slow`` switch for slow Monte-Carlo / large-width tests."""

from __future__ import annotations

import os

# One BLAS thread, as in the checker's workers: obligations run in the test process too.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import tempfile  # noqa: E402

import pytest  # noqa: E402

# The cache's MAC secret: one per test session, never the user's own.
_SESSION_DIR = tempfile.mkdtemp(prefix="obligations-test-")
os.environ.setdefault("OBLIGATIONS_CACHE_SECRET", os.path.join(_SESSION_DIR, "cache-secret"))
# ... and its own result cache, so that a test run never writes into the checkout's cache.
os.environ.setdefault("OBLIGATIONS_CACHE_DIR", os.path.join(_SESSION_DIR, "cache"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False, help="also run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
