"""Building user catalogues on disk for the fault-injection tests, and running the real command
on them (a fresh process, its own cache secret, the catalogue on PYTHONPATH)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

HEADER = """\
from checker import Expect, Source, obligation
from checker.kernel.model import Certificate, Grade, Status, Verdict
from checker.kernel.verdicts import proved, refuted, supported, timed, trusted, unknown
"""


FIXTURE = "a test fixture: its result is what the test is about, not a theorem"
"""Why a fixture that expects holds or fails declares no theorem (``no_theorem``)."""


def good(pkg: str, name: str = "good") -> str:
    """An obligation that is proved by one recorded evaluation."""
    return f'''
@obligation(id="{pkg}.{name}", source=Source("doc.txt", "Lemma {name}"), statement="1 + 1 = 2.",
            scope="one sum (exact)", no_theorem="{FIXTURE}", expect=Expect.HOLDS)
def {name}(ctx):
    """1 + 1 = 2, by evaluating it once."""
    with timed() as t:
        ok = 1 + 1 == 2
        step = t.step("exact", "python", "evaluate 1 + 1", str(ok))
    return trusted("evaluation", step, grade=Grade.INSTANCES, over="1 sum") if ok else unknown("evaluation", "not 2")
'''


def ob(pkg: str, name: str, body: str, *, expect: str = "HOLDS", extra: str = "") -> str:
    """An obligation ``pkg.name`` whose discharge runs ``body`` (indented for you); it declares no
    theorem unless ``extra`` does."""
    reason = "" if "theorem=" in extra else f'no_theorem="{FIXTURE}", '
    return f'''
@obligation(id="{pkg}.{name}", source=Source("doc.txt", "Claim {name}"), statement="A claim named {name}.",
            scope="as the test says", {reason}expect=Expect.{expect}{extra})
def {name}(ctx):
    """A fault-injection obligation: {name}."""
{textwrap.indent(textwrap.dedent(body).strip(), "    ")}
'''


def make_catalogue(root: Path, pkg: str, modules: dict[str, str], files: dict[str, bytes] | None = None) -> Path:
    """A package ``pkg`` under ``root`` with ``modules`` (name → source after HEADER; a name with
    dots is a subpackage path) and data ``files`` (relative path → bytes)."""
    base = root / pkg
    base.mkdir(parents=True, exist_ok=True)
    (base / "__init__.py").write_text('"""A user catalogue for the fault tests."""\n', encoding="utf-8")
    for name, source in modules.items():
        path = base.joinpath(*name.split(".")).with_suffix(".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.parent != base and not (path.parent / "__init__.py").exists():
            (path.parent / "__init__.py").write_text("", encoding="utf-8")
        path.write_text(source if source.startswith("#raw\n") else HEADER + source, encoding="utf-8")
    for rel, data in (files or {}).items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return base


def env_for(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV_"))}
    env["PYTHONPATH"] = f"{ROOT}{os.pathsep}{root}"
    env["OBLIGATIONS_CACHE_SECRET"] = str(root / "state" / "cache-secret")
    return env


def cli(root: Path, *args: str, timeout: float = 300, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m checker ARGS`` with the catalogue under ``root`` importable."""
    return subprocess.run([sys.executable, "-m", "checker", *args], cwd=root, env=env_for(root), capture_output=True,
                          text=True, timeout=timeout, input=input)
