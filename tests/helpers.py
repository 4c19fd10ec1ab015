"""Helpers for the tests: run one obligation in-process, and the CLI as a real command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from checker.kernel.model import Context, Result, derive_seed
from checker.run.discovery import discover
from checker.run.runner import DEFAULT_SEED, execute

ROOT = Path(__file__).resolve().parent.parent


def run_obligation(ob_id: str, package: str = "obligations", timeout_s: float = 120.0, slow: bool = False) -> Result:
    """Discharge one catalogue obligation in this process (no worker), as the runner would."""
    ob = discover(package).by_id(ob_id)
    result, _ = execute(ob, Context(ob_id, derive_seed(DEFAULT_SEED, ob_id), timeout_s, slow))
    return result


def cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run ``python -m checker ARGS`` as a subprocess and capture its output."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "checker", *args], cwd=cwd or ROOT, env=full_env,
                          capture_output=True, text=True, timeout=timeout)
