"""The engine as a platform: `obligations init`, `[tool.obligations]`,
subcommands registered by a catalogue, Lean refs shipped inside a package, a closed pipe."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from checker.face.lean import default_dir
from tests.helpers import ROOT, cli

def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_init_then_check_and_pytest_in_an_empty_folder(tmp_path: Path):
    """`obligations init mypaper` in an empty folder, then `obligations check` there (its
    configuration read from the new pyproject.toml) shows one proved and one refuted claim, both
    confirmed; the scaffold's own tests pass; a flag overrides the configured timeout."""
    made = cli("init", "mypaper", cwd=tmp_path, env=_env())
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "pyproject.toml").is_file() and (tmp_path / "mypaper" / "lemmas.py").is_file()
    assert '"obligations.catalogues"' in (tmp_path / "pyproject.toml").read_text()

    table = cli("check", "--quiet", cwd=tmp_path, env=_env(), timeout=300)
    assert table.returncode == 0, table.stdout + table.stderr
    assert "proved" in table.stdout and "refuted" in table.stdout
    assert "warning" not in table.stderr, table.stderr  # the scaffold declares its theorems

    out = cli("check", "--quiet", "--format", "json", "--timeout", "45", cwd=tmp_path, env=_env(), timeout=300)
    assert out.returncode == 0, out.stderr
    results = {r["id"]: r for r in json.loads(out.stdout)["results"]}
    assert {i: r["status"] for i, r in results.items()} == {"mypaper.relu_additive": "refuted",
                                                           "mypaper.relu_lipschitz": "proved"}
    assert {r["outcome"] for r in results.values()} == {"confirmed"}
    assert {r["limits"]["memory_mib"] for r in results.values()} == {2048}  # [tool.obligations] memory
    assert {r["limits"]["timeout_s"] for r in results.values()} == {45}  # the flag wins over timeout = 60

    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=tmp_path, env=_env(),
                           capture_output=True, text=True, timeout=300)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout

    again = cli("init", "mypaper", cwd=tmp_path, env=_env())
    assert again.returncode == 2 and "not overwriting" in again.stderr


def test_init_rejects_a_bad_name(tmp_path: Path):
    """A name that is not a package name, or shadows an existing module, is a usage error."""
    for name in ("My-Paper", "json"):
        out = cli("init", name, cwd=tmp_path, env=_env())
        assert out.returncode == 2, (name, out.stderr)
    assert not any(tmp_path.iterdir())


def _project(tmp_path: Path, table: str, entry_points: str = "") -> Path:
    (tmp_path / "pyproject.toml").write_text(f"[project]\nname = 'x'\n{entry_points}\n[tool.obligations]\n{table}\n")
    return tmp_path


def test_configuration_errors_name_the_file_and_key(tmp_path: Path):
    """An unknown key or a wrongly typed value in [tool.obligations] exits 2, naming file and key."""
    _project(tmp_path, 'packages = ["badcat"]\njbos = 2')
    out = cli("list", cwd=tmp_path, env=_env())
    assert out.returncode == 2 and "pyproject.toml" in out.stderr and "'jbos'" in out.stderr
    _project(tmp_path, 'packages = "badcat"')
    out = cli("list", cwd=tmp_path, env=_env())
    assert out.returncode == 2 and "packages" in out.stderr and "list of package names" in out.stderr


def test_configured_packages_and_the_package_flag(tmp_path: Path):
    """[tool.obligations] packages chooses the catalogue; --package overrides it."""
    _project(tmp_path, 'packages = ["dupcat"]')
    env = {**_env(), "PYTHONPATH": f"{ROOT}:{ROOT / 'tests' / 'fixtures'}"}
    configured = cli("list", cwd=tmp_path, env=env)
    assert "dupcat.same" in configured.stdout
    flagged = cli("--package", "malformedcat", "list", cwd=tmp_path, env=env)
    assert "malformedcat.fine" in flagged.stdout and "dupcat" not in flagged.stdout


def test_a_project_registers_its_own_subcommand_and_a_broken_one_is_a_warning(tmp_path: Path):
    """A subcommand registered under obligations.commands in the project's pyproject runs; one that
    cannot be loaded is a warning, and the other commands still work."""
    (tmp_path / "hellocat").mkdir()
    (tmp_path / "hellocat" / "__init__.py").write_text("")
    (tmp_path / "hellocat" / "cmd.py").write_text(
        "from checker.face.plugins import Command\n"
        "def _configure(p):\n    p.add_argument('--who', default='world')\n"
        "def _run(args):\n    print(f'hello {args.who}')\n    return 0\n"
        "HELLO = Command('hello', 'say hello', _configure, _run)\n")
    _project(tmp_path, 'packages = ["hellocat"]',
             '[project.entry-points."obligations.commands"]\nhello = "hellocat.cmd:HELLO"\nbroken = "hellocat.nope:X"\n'
             'list = "hellocat.cmd:HELLO"\n')
    out = cli("hello", "--who", "paper", cwd=tmp_path, env=_env())
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "hello paper"
    assert "'broken'" in out.stderr and "could not be loaded" in out.stderr
    assert "'list'" in out.stderr and "built-in" in out.stderr
    listed = cli("list", cwd=tmp_path, env=_env())
    assert listed.returncode == 0, listed.stderr


def test_discharge_is_the_lean_mlp_catalogues_command():
    """`discharge` is registered by the catalogue (entry point), not built into the engine."""
    import tomllib

    from checker.face import cli as engine_cli

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["entry-points"]["obligations.commands"]["discharge"] == "obligations.lean_mlp.commands:DISCHARGE"
    assert "discharge" not in engine_cli.BUILTIN_COMMANDS
    assert not hasattr(engine_cli, "cmd_discharge")


def test_lean_refs_shipped_inside_a_package_are_found(tmp_path: Path, monkeypatch):
    """An installed catalogue's lean_refs (inside the package) is found when ./lean_refs is absent."""
    pkg = tmp_path / "site" / "leancat"
    (pkg / "lean_refs").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.chdir(tmp_path)
    assert default_dir(("leancat",)) == pkg / "lean_refs"
    assert default_dir(("no_such_package_here",)) == tmp_path / "lean_refs"


def test_a_closed_pipe_ends_quietly():
    """A reader that went away (`obligations list | head -1`): no traceback, exit 1 — with stdout
    a pipe whose reading end is already closed, so the first write fails."""
    code = ("import os, sys; r, w = os.pipe(); os.close(r); os.dup2(w, 1); "
            "from checker.face.cli import main; sys.exit(main(['list']))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr and "BrokenPipe" not in out.stderr, out.stderr
    piped = subprocess.run(f"{sys.executable} -m checker list | head -1", shell=True, cwd=ROOT, env=_env(),
                           capture_output=True, text=True, timeout=120)
    assert len(piped.stdout.splitlines()) == 1 and "Traceback" not in piped.stderr, piped.stderr


def test_the_wheel_lists_every_package_and_ships_lean_refs():
    """pyproject.toml lists its packages explicitly (to map lean_refs/ into the catalogue): every
    package on disk is listed, and lean_refs is shipped as package data."""
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {".".join(p.parent.relative_to(ROOT).parts) for top in ("checker", "obligations")
               for p in (ROOT / top).rglob("__init__.py")}
    assert on_disk <= set(setuptools["packages"]), sorted(on_disk - set(setuptools["packages"]))
    assert setuptools["package-dir"]["obligations.lean_refs"] == "lean_refs"
    assert "*.lean" in setuptools["package-data"]["obligations.lean_refs"]


def _offline_build_tools() -> str | None:
    """Why the scaffold cannot be built here without a network (None: it can)."""
    import importlib.util

    try:
        import setuptools
    except ImportError:
        return "setuptools is not installed (pip install '.[test]' installs it)"
    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    if (major, minor) < (70, 1) and importlib.util.find_spec("wheel") is None:
        return "setuptools < 70.1 needs the wheel package to build offline (pip install '.[test]' installs it)"
    return None


@pytest.mark.skipif(_offline_build_tools() is not None, reason=str(_offline_build_tools()))
def test_the_scaffold_installs_and_runs_in_a_fresh_venv_without_a_network(tmp_path: Path):
    """A fresh venv that has the third-party libraries but not the checker: `obligations init
    mypaper` (the installed checker), `pip install --no-index -e .` of the scaffold succeeds (it
    names no distribution pip cannot resolve), the checker installs from this checkout as the
    scaffold's pyproject says, then the venv's own `obligations check` and `python -m pytest` pass
    and the catalogue is found from another folder through its entry point."""
    import sysconfig

    deps = tmp_path / "deps"  # the libraries of this environment, without the checker itself
    deps.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if entry.name.startswith(("pruned_relu", "__editable__", "__pycache__")) or entry.suffix == ".pth":
            continue
        (deps / entry.name).symlink_to(entry)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "_libraries.pth").write_text(str(deps) + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PIP_NO_INDEX"] = "1"  # nothing may be downloaded
    project = tmp_path / "mypaper-proofs"
    project.mkdir()

    made = cli("init", "mypaper", cwd=project)
    assert made.returncode == 0, made.stderr
    assert "pruned-relu-obligations" not in (project / "pyproject.toml").read_text().split("dependencies = ")[1].split("\n")[0]
    assert f"pip install {ROOT}" in (project / "pyproject.toml").read_text() and f"pip install {ROOT}" in made.stdout

    def run(*cmd: str, cwd: Path = project) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True, text=True, timeout=600)

    pip = [str(python), "-m", "pip", "install", "-q", "--no-index", "--no-build-isolation", "--disable-pip-version-check"]
    scaffold = run(*pip, "-e", ".")
    assert scaffold.returncode == 0, scaffold.stdout + scaffold.stderr
    engine = run(*pip, "-e", str(ROOT))
    assert engine.returncode == 0, engine.stdout + engine.stderr

    check = run(str(venv / "bin" / "obligations"), "check", "-q", "--jobs", "1")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "mypaper.relu_lipschitz  proved ∀" in check.stdout and "refuted" in check.stdout
    tests = run(str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider")
    assert tests.returncode == 0 and "2 passed" in tests.stdout, tests.stdout + tests.stderr
    registered = run(str(python), "-c", "from checker.face.plugins import catalogue_packages; print(catalogue_packages())",
                     cwd=tmp_path)
    assert "mypaper" in registered.stdout, registered.stderr


def test_ci_runs_exactly_the_readme_test_command_in_parallel():
    """The README's test command (Quick start, the second command) is the last line of .ci/run,
    and it runs the suite in parallel (-n auto)."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = readme[readme.index("## Quick start"):readme.index("## Check your own paper")]
    commands = re.findall(r"```sh\n(.*?)\n```", quick, re.S)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert commands[1] == ci
    assert ci.endswith("python -m pytest -n auto")


def test_run_obligation_finds_an_obligation_whatever_its_id_prefix(tmp_path: Path):
    """checker.testing.run_obligation finds `bft17.margin` declared in package `mypkg` (the
    configured catalogue), as `obligations check` does; an unknown id names where it looked."""
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text(
        "from checker import Expect, Source, obligation\n"
        "from checker.backends import smt\nfrom checker.claims import claim\n"
        "C = claim('c', 'x', lambda o, v: o.ge(o.abs(v.x), 0))\n"
        "@obligation(id='bft17.margin', source=Source('bft17.tex', 'Lemma 1'), statement='|x| ≥ 0.',\n"
        "            scope='over ℝ (z3)', expect=Expect.HOLDS, no_theorem='a test fixture: its result is what the test is about, not a theorem', claims=(C,))\n"
        "def margin(ctx):\n    '''|x| ≥ 0, by z3.'''\n    return smt.prove(C, ctx)\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n[tool.obligations]\npackages = ['mypkg']\n")
    code = ("from checker.testing import run_obligation\nprint(run_obligation('bft17.margin').status.value)\n"
            "try:\n    run_obligation('bft17.nothing')\nexcept LookupError as exc:\n    print(exc)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()[:2]
    assert first == "proved"
    assert "no obligation 'bft17.nothing' in 'mypkg'" in second and "package='NAME'" in second
