"""Fault injection, the cache: a result is keyed on what its job really read (the modules it
imported and the functions it entered, the files it opened), so no edit a static reading of the
sources cannot see serves a stale result. Each case also shows that an unchanged re-run is served
from the cache (a cache that never serves would pass the stale half trivially)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.faults.catalogues import cli, make_catalogue, ob


def _run(root: Path, package: str, *extra: str) -> tuple[dict[str, dict], set[str]]:
    """(rows by id, ids served from the cache) of ``check`` in ``root`` (its own cache directory)."""
    out = cli(root, "--package", package, "check", "--format", "json", "--jobs", "1", *extra)
    assert out.stdout, out.stderr
    rows = {r["id"]: r for r in json.loads(out.stdout)["results"]}
    cached = {line.split("]", 1)[1].split()[1] for line in out.stderr.splitlines() if line.startswith("[") and ", cached)" in line}
    return rows, cached


def _stale_check(root: Path, package: str, target: str, edit) -> None:
    """Proved, then served from the cache unchanged; after ``edit()`` the cached answer must be
    what a run without the cache gives."""
    rows, cached = _run(root, package)
    assert rows[target]["status"] == "proved", rows[target]["certificate"]
    rows, cached = _run(root, package)
    assert target in cached, "an unchanged re-run must be served from the cache"
    edit()
    rows, cached = _run(root, package)
    fresh, _ = _run(root, package, "--no-cache")
    assert fresh[target]["status"] == "unknown", fresh[target]["certificate"]
    assert rows[target]["status"] == fresh[target]["status"], f"stale cached result ({'cached' if target in cached else 'ran'})"
    assert target not in cached


COMPARE = """
with timed() as t:
    step = t.step("exact", "python", "compare", str(3 < value))
if 3 < value:
    return trusted("comparison", step, grade=Grade.INSTANCES, over="the value")
return unknown("comparison", f"3 is not below {value}", step)
"""


def test_a_helper_registered_by_a_decorator_is_in_the_key(tmp_path):
    """The discharge reads a table that a decorator fills: the helper's body counts once the job
    has entered it."""
    make_catalogue(tmp_path, "regcat", {"items": """
TABLE = {}


def register(f):
    TABLE[f.__name__] = f
    return f


@register
def bound():
    return 10
""" + ob("regcat", "uses_table", "value = TABLE['bound']()\n" + COMPARE)})
    path = tmp_path / "regcat" / "items.py"
    _stale_check(tmp_path, "regcat", "regcat.uses_table",
                 lambda: path.write_text(path.read_text().replace("return 10", "return 2"), encoding="utf-8"))


def test_a_module_loaded_with_import_module_is_in_the_key(tmp_path):
    make_catalogue(tmp_path, "impcat", {
        "hidden": "#raw\nVALUE = 10\n",
        "items": "import importlib\n" + ob("impcat", "imports_late", "value = importlib.import_module('impcat.' + 'hidden').VALUE\n" + COMPARE),
    })
    path = tmp_path / "impcat" / "hidden.py"
    _stale_check(tmp_path, "impcat", "impcat.imports_late", lambda: path.write_text("VALUE = 2\n", encoding="utf-8"))


def test_a_data_file_beside_the_package_is_in_the_key(tmp_path):
    (tmp_path / "data").mkdir()
    value = tmp_path / "data" / "value.txt"
    value.write_text("10", encoding="utf-8")
    make_catalogue(tmp_path, "datacat2", {"items": "from pathlib import Path\n" + ob("datacat2", "reads_outside",
                                                                            "value = int((Path(__file__).resolve().parents[1] / 'data' / 'value.txt').read_text())\n" + COMPARE)})
    _stale_check(tmp_path, "datacat2", "datacat2.reads_outside", lambda: value.write_text("2", encoding="utf-8"))


def test_a_module_edited_during_the_run_is_never_cached_under_the_wrong_code(tmp_path):
    """The first obligation rewrites a module that the last one uses, while the run goes on
    (as a person saving a file in the first seconds of a large run would): whatever the victim
    ran, the result the cache serves next time is the one its current code gives."""
    victim = tmp_path / "edcat" / "z_victim.py"
    fillers = "".join(ob("edcat", f"m_fill{i:03}", "return unknown('filler', 'nothing to do')") for i in range(150))
    make_catalogue(tmp_path, "edcat", {
        "a_edit": "from pathlib import Path\n" + ob("edcat", "a_editor", f"""
            path = Path({str(victim)!r})
            text = path.read_text()
            if "LIMIT = 10" in text:
                path.write_text(text.replace("LIMIT = 10", "LIMIT = 2"))
            return unknown("edit", "edited")
        """),
        "m_fill": fillers,
        "z_victim": "LIMIT = 10\n" + ob("edcat", "z_uses_limit", "value = LIMIT\n" + COMPARE),
    })
    first, _ = _run(tmp_path, "edcat")
    again, cached = _run(tmp_path, "edcat")
    fresh, _ = _run(tmp_path, "edcat", "--no-cache")
    assert fresh["edcat.z_uses_limit"]["status"] == "unknown"
    assert again["edcat.z_uses_limit"]["status"] == "unknown", ("stale", "edcat.z_uses_limit" in cached, first["edcat.z_uses_limit"]["status"])
    assert "edcat.m_fill000" in cached  # the cache works for what did not change


def test_a_proof_the_second_solver_confirmed_is_not_keyed_on_the_project_folder(tmp_path):
    """A z3 proof confirmed by cvc5, checked twice with a report written into the project folder
    between the runs (as ``-o report.json`` does): the second run is served from the cache. The
    job is not keyed on the folder's listing (looking up cvc5's version in the installed
    distributions listed every folder on sys.path, and 70 of the catalogue's 126 results were
    stored under a listing the report then changed)."""
    make_catalogue(tmp_path, "smtcat", {"items": """
from checker.backends import smt
from checker.kernel.claims import claim

RELU_LIP = claim("relu-1-lipschitz", "x y", lambda o, v: o.le(o.abs(o.relu(v.x) - o.relu(v.y)), o.abs(v.x - v.y)))
""" + ob("smtcat", "relu_lipschitz", "return smt.prove(RELU_LIP, ctx)", extra=", theorem=RELU_LIP")})
    rows, _ = _run(tmp_path, "smtcat")
    row = rows["smtcat.relu_lipschitz"]
    assert row["status"] == "proved"
    assert any(e["kind"] == "confirmation" for e in row["certificate"]["ledger"])
    (tmp_path / "report.json").write_text("{}", encoding="utf-8")
    rows, cached = _run(tmp_path, "smtcat")
    assert "smtcat.relu_lipschitz" in cached


def test_an_environment_variable_the_obligation_reads_is_in_the_key(tmp_path, monkeypatch):
    """A discharge that reads an environment variable (``os.environ.get``), and a module that reads one
    at import to build its value (``os.getenv``): a changed value re-runs them, an unchanged one is served."""
    import os

    make_catalogue(tmp_path, "envcat", {"items": "import os\n" + ob("envcat", "reads_env",
                                                                       "value = int(os.environ.get('ENVCAT_VALUE', '10'))\n" + COMPARE)})
    monkeypatch.setenv("ENVCAT_VALUE", "10")
    _stale_check(tmp_path, "envcat", "envcat.reads_env", lambda: os.environ.__setitem__("ENVCAT_VALUE", "2"))
    make_catalogue(tmp_path, "envcat2", {"items": "import os\nVALUE = int(os.getenv('ENVCAT_IMPORT', '10'))\n"
                                         + ob("envcat2", "reads_env_at_import", "value = VALUE\n" + COMPARE)})
    monkeypatch.setenv("ENVCAT_IMPORT", "10")
    _stale_check(tmp_path, "envcat2", "envcat2.reads_env_at_import", lambda: os.environ.__setitem__("ENVCAT_IMPORT", "2"))


def test_every_way_of_reading_the_environment_is_keyed_and_an_unchanged_one_is_served(tmp_path, monkeypatch):
    """A walk over the environment (dict(os.environ)), os.environb, a variable read and then set
    (setdefault), and a thread variable the engine sets in every job: a changed value re-runs, an
    unchanged run is served from the cache (the engine's own variables differ between the job and the run)."""
    import os

    bodies = {
        "walks": "value = 10 if dict(os.environ).get('ENVW_A', '1') == '1' else 2\n",
        "bytes": "value = 10 if os.environb.get(b'ENVW_B', b'1') == b'1' else 2\n",
        "setdefault": "value = 10 if os.environ.setdefault('ENVW_C', '1') == '1' else 2\n",
        "threads": "value = 10 + 0 * len(os.environ.get('OMP_NUM_THREADS', ''))\n",
    }
    make_catalogue(tmp_path, "envw", {"items": "import os\n" + "".join(ob("envw", name, body + COMPARE) for name, body in bodies.items())})
    for var in ("ENVW_A", "ENVW_B", "ENVW_C"):
        monkeypatch.delenv(var, raising=False)
    rows, cached = _run(tmp_path, "envw")
    assert all(rows[f"envw.{n}"]["status"] == "proved" for n in bodies), rows
    rows, cached = _run(tmp_path, "envw")
    assert cached == {f"envw.{n}" for n in bodies}, "an unchanged environment must be served from the cache"
    for var, name in (("ENVW_A", "walks"), ("ENVW_B", "bytes"), ("ENVW_C", "setdefault")):
        monkeypatch.setenv(var, "2")
        rows, cached = _run(tmp_path, "envw")
        assert f"envw.{name}" not in cached and rows[f"envw.{name}"]["status"] == "unknown", (name, rows[f"envw.{name}"])
        monkeypatch.delenv(var)
