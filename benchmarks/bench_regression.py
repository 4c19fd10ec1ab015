"""Benchmark re-running only what changed, in a temporary copy of the project (one run).

Prints the wall time of a cold full check, a warm re-check, a re-check after editing one
obligation (its discharge function gains a statement) in the largest catalogue module, and a
re-check after changing one string in one discharge of ``psy01a/cue.py`` (a module other modules
import: it re-runs only the obligation whose job entered that function), with the last three as
ratios to cold, and how many obligations each run discharged.

    python benchmarks/bench_regression.py [--jobs N] [PATTERN …]
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def check(project: Path, args: list[str]) -> tuple[float, int, int]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "checker", "check", *args, "--cache-dir", ".cache", "--format", "json",
                          "-o", "report.json"], cwd=project, capture_output=True, text=True)
    wall = time.perf_counter() - start
    lines = [line for line in out.stderr.splitlines() if line.startswith("[")]
    cached = sum(", cached)" in line for line in lines)
    return wall, len(lines) - cached, cached


def largest_module(project: Path) -> Path:
    modules = [p for p in (project / "obligations").rglob("*.py") if "@obligation(" in p.read_text(encoding="utf-8")]
    return max(modules, key=lambda p: len(p.read_text(encoding="utf-8").splitlines()))


def edit_one_obligation(module: Path) -> str:
    """Add a statement to the first discharge function of ``module``; return its name."""
    text = module.read_text(encoding="utf-8")
    tree = ast.parse(text)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any("obligation" in ast.unparse(d) for d in node.decorator_list):
            first = node.body[1] if len(node.body) > 1 else node.body[0]
            lines = text.splitlines(keepends=True)
            indent = " " * first.col_offset
            lines.insert(first.lineno - 1, f"{indent}_edited = True\n")
            module.write_text("".join(lines), encoding="utf-8")
            return node.name
    raise SystemExit(f"no obligation found in {module}")


def edit_one_string(module: Path) -> str:
    """Change the first string literal (not a docstring) in the first discharge function of
    ``module``; return the function's name."""
    text = module.read_text(encoding="utf-8")
    tree = ast.parse(text)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any("obligation" in ast.unparse(d) for d in node.decorator_list):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            for sub in ast.walk(ast.Module(body=body, type_ignores=[])):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.lineno == sub.end_lineno:
                    lines = text.splitlines(keepends=True)
                    line = lines[sub.lineno - 1]
                    # the literal's closing quote: insert before it
                    end = sub.end_col_offset - 1
                    lines[sub.lineno - 1] = line[:end] + " (edited)" + line[end:]
                    module.write_text("".join(lines), encoding="utf-8")
                    return node.name
    raise SystemExit(f"no string literal in a discharge of {module}")


def main() -> None:
    args = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        for part in ("checker", "obligations", "lean_refs"):
            shutil.copytree(ROOT / part, project / part, ignore=shutil.ignore_patterns("__pycache__"))
        cold, ran_cold, _ = check(project, args)
        warm, ran_warm, cached = check(project, args)
        module = largest_module(project)
        name = edit_one_obligation(module)
        edited, ran_edit, cached_edit = check(project, args)
        cue = project / "obligations" / "psy01a" / "cue.py"
        string_name = edit_one_string(cue)
        string, ran_string, cached_string = check(project, args)
        rel = module.relative_to(project)
        print(f"cold:  {cold:7.2f} s  ({ran_cold} discharged)")
        print(f"warm:  {warm:7.2f} s  ({ran_warm} discharged, {cached} cached)   warm/cold = {warm / cold:.3f}")
        print(f"edit:  {edited:7.2f} s  ({ran_edit} discharged, {cached_edit} cached)   edit/cold = {edited / cold:.3f}"
              f"   ({name} in {rel}, the largest catalogue module)")
        print(f"string: {string:7.2f} s  ({ran_string} discharged, {cached_string} cached)   string/cold = {string / cold:.3f}"
              f"   (one string in {string_name} in obligations/psy01a/cue.py)")


if __name__ == "__main__":
    main()
