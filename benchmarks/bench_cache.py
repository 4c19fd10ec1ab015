"""Benchmark the cache in a temporary copy of the project (figures measured in one run).

Prints the cold and warm wall times of `obligations check` and their ratio, then edits one
obligation module and counts how many obligations re-run (the rest come from the cache).

    python benchmarks/bench_cache.py [PATTERN …]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def check(project: Path, patterns: list[str]) -> tuple[float, int, int]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "checker", "check", *patterns, "--cache-dir", ".cache", "--format", "json",
                          "-o", "report.json"], cwd=project, capture_output=True, text=True)
    wall = time.perf_counter() - start
    lines = [line for line in out.stderr.splitlines() if line.startswith("[")]
    cached = sum(", cached)" in line for line in lines)
    return wall, len(lines) - cached, cached


def main() -> None:
    patterns = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        for part in ("checker", "obligations", "lean_refs"):
            shutil.copytree(ROOT / part, project / part, ignore=shutil.ignore_patterns("__pycache__"))
        cold, ran, _ = check(project, patterns)
        warm, ran_warm, cached = check(project, patterns)
        print(f"cold: {cold:.2f} s ({ran} run)   warm: {warm:.2f} s ({cached} cached, {ran_warm} run)   "
              f"warm/cold: {warm / cold:.3f}")
        target = project / "obligations" / "controller_bound" / "theorem2.py"
        target.write_text(target.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
        edited, ran_edit, cached_edit = check(project, patterns)
        print(f"after editing obligations/controller_bound/theorem2.py: {ran_edit} re-run, {cached_edit} cached, "
              f"{edited:.2f} s (re-run = the module's obligations and those of modules importing it)")


if __name__ == "__main__":
    main()
