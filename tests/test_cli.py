"""The `obligations` command, run as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from checker.face.cli import ExitCode
from tests.helpers import cli

FIXTURES = str(Path(__file__).parent / "fixtures")
BAD = {"PYTHONPATH": FIXTURES}


def test_list_shows_ids_expectations_and_sources():
    """`list PATTERN` prints matching ids with expect and source."""
    out = cli("list", "controller_bound.corollary1")
    assert out.returncode == ExitCode.OK, out.stderr
    lines = out.stdout.strip().splitlines()
    assert [line.split()[0] for line in lines] == ["controller_bound.corollary1_additive", "controller_bound.corollary1_corrected"]
    assert "fails" in lines[0] and "003_be90e9c95890d8e1.txt" in lines[0]


def test_check_json_has_every_field():
    """`check --format json` has the documented fields for every result, and exits 0."""
    out = cli("check", "psy01a.margin", "controller_bound.theorem2_tight", "--format", "json", "--quiet")
    assert out.returncode == ExitCode.OK, out.stderr
    doc = json.loads(out.stdout)
    assert doc["schema_version"] == 2
    assert len(doc["results"]) == 3
    for r in doc["results"]:
        for key in ("id", "source", "statement", "scope", "expect", "status", "outcome", "method", "lean", "time_s", "certificate",
                    "fingerprint", "claims", "general", "partial"):
            assert key in r, key
        assert len(r["fingerprint"]["digest"]) == 64 and r["claims"] and r["claims"][0]["conclusion"]["canonical"]
        assert r["outcome"] == ("partial" if r["partial"] else "confirmed")


def test_check_writes_report_file_and_show_reads_it(tmp_path):
    """`-o FILE` writes the report; `show ID --from FILE` prints that certificate."""
    report = tmp_path / "report.json"
    out = cli("check", "controller_bound.corollary1_additive", "--format", "json", "-o", str(report), "--quiet")
    assert out.returncode == ExitCode.OK, out.stderr
    assert out.stdout == ""
    shown = cli("show", "controller_bound.corollary1_additive", "--from", str(report))
    assert shown.returncode == ExitCode.OK, shown.stderr
    assert "refuted" in shown.stdout and "witness" in shown.stdout
    assert "deviation" in shown.stdout and '"201"' in shown.stdout and '"101"' in shown.stdout


def test_show_runs_one_obligation():
    """`show ID` discharges that obligation and prints its full certificate."""
    out = cli("show", "psy01a.parameter_count")
    assert out.returncode == ExitCode.OK, out.stderr
    assert "proved" in out.stdout and "100484" in out.stdout


def test_table_and_progress_lines():
    """The default table lists each obligation; progress goes to stderr as plain lines."""
    out = cli("check", "psy01a.parameter_count", "psy01a.masked_operator_norm")
    assert out.returncode == ExitCode.OK, out.stderr
    assert "psy01a.parameter_count" in out.stdout and "confirmed" in out.stdout
    assert "2 obligations: 2 proved" in out.stdout
    assert "[1/2]" in out.stderr and "[2/2]" in out.stderr


def test_markdown_format():
    """`--format markdown` prints a GitHub table."""
    out = cli("check", "psy01a.parameter_count", "--format", "markdown", "--quiet")
    assert out.returncode == ExitCode.OK
    assert out.stdout.startswith("| obligation | status | outcome |")
    assert "| `psy01a.parameter_count` |" in out.stdout


def test_unknown_pattern_is_a_usage_error():
    """A pattern that matches nothing exits 2 and says what to do."""
    out = cli("check", "no.such.thing")
    assert out.returncode == ExitCode.USAGE_ERROR
    assert "'no.such.thing'" in out.stderr and "obligations list" in out.stderr


def test_unknown_option_is_a_usage_error():
    """An unknown option exits 2 with argparse's message."""
    out = cli("check", "--frobnicate")
    assert out.returncode == ExitCode.USAGE_ERROR
    assert "--frobnicate" in out.stderr


def test_bad_option_value_is_a_usage_error():
    """A non-positive --jobs is refused with the reason."""
    out = cli("check", "--jobs", "0")
    assert out.returncode == ExitCode.USAGE_ERROR
    assert "at least 1" in out.stderr


def test_unknown_show_id_is_a_usage_error():
    """`show` of an id that does not exist exits 2."""
    out = cli("show", "psy01a.nope")
    assert out.returncode == ExitCode.USAGE_ERROR
    assert "no obligation with id" in out.stderr


def test_broken_catalogue_exits_one_and_reports_each_problem():
    """Every bad-input case in one run: exit 1, each with its own row, the good one proved. The
    wall-clock limit is the loop's only: 20 s leaves the memory hog, the crash and the import
    errors time to end their own way on a machine other work keeps busy."""
    out = cli("--package", "badcat", "check", "--timeout", "20", "--memory", "1024", "--format", "json", "--quiet", env=BAD)
    assert out.returncode == ExitCode.FAILED, out.stderr
    rows = {r["id"]: r for r in json.loads(out.stdout)["results"]}
    assert rows["badcat.good"]["status"] == "proved"
    assert rows["badcat.loops"]["status"] == "timeout"
    assert rows["badcat.raises"]["status"] == "error"
    assert rows["badcat.hog"]["status"] == "error"
    assert rows["badcat.wrongtype"]["status"] == "error"
    assert rows["badcat.dies"]["status"] == "error"
    assert rows["badcat.undecided"]["status"] == "unknown"
    assert rows["<module badcat.syntax_error>"]["status"] == "error"
    assert rows["<module badcat.import_error>"]["status"] == "error"


def test_contradiction_alone_exits_one():
    """A contradicted outcome (refuted but expected to hold) makes the run fail."""
    out = cli("--package", "badcat", "check", "badcat.contradicted", "--quiet", env=BAD)
    assert out.returncode == ExitCode.FAILED
    assert "contradicted" in out.stdout


def test_missing_catalogue_package_is_a_usage_error():
    """--package naming nothing importable exits 2."""
    out = cli("--package", "no_such_catalogue", "list")
    assert out.returncode == ExitCode.USAGE_ERROR
    assert "cannot import the catalogue package" in out.stderr


def test_python_dash_m_and_version():
    """`python -m checker --version` works (the console script is the same entry point)."""
    out = cli("--version")
    assert out.returncode == 0 and "obligations" in out.stdout


def test_show_prints_the_checked_formulas():
    """`show psy01a.margin_two_lipschitz` prints each checked claim as a formula."""
    out = cli("show", "psy01a.margin_two_lipschitz", "--no-cache", "--jobs", "1")
    assert out.returncode == ExitCode.OK, out.stderr
    assert "claims     21 checked formula(s)" in out.stdout  # the theorem for every K, and z3's at K = 2…6
    assert "margin-two-lipschitz: ∀ n z w zy wy. n ∈ ℤ ∧ 1 ≤ n ⇒ |zy − maxv(z) − (wy − maxv(w))| ≤ 2·max(|zy − wy|, norminf(z − w))" in out.stdout
    assert "margin-lipschitz-k2-y0: ∀ z0 z1 w0 w1. |z0 − max(z1) − (w0 − max(w1))| ≤ 2·max(|z0 − w0|, |z1 − w1|)" in out.stdout


def test_audit_mutate_runs_on_the_configured_catalogue():
    """`obligations audit --mutate` loads the configured packages and reports each mutant (JSON)."""
    proc = cli("audit", "--mutate", "psy01a.parameter_count", "--mutants", "1", "--format", "json", "-q")
    assert proc.returncode in (ExitCode.OK, ExitCode.FAILED), proc.stderr
    data = json.loads(proc.stdout)
    (entry,) = data["mutation"]
    assert entry["id"] == "psy01a.parameter_count" and entry["mutants"] == 1
    assert set(data["summary"]) == {"psy01a"}


def test_the_command_leaves_after_the_exit_handlers_and_a_flush():
    """The console script skips only the interpreter's teardown: the exit handlers run (the
    worker template's shutdown is one), buffered output is written, the exit code is main's."""
    code = ("import atexit, sys\n"
            "from checker.face.cli import leave\n"
            "atexit.register(lambda: print('handler ran'))\n"
            "sys.stdout.write('buffered, no newline')\n"
            "leave(3)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3
    assert proc.stdout == "buffered, no newline" + "handler ran\n"


def test_a_piped_listing_is_complete_and_its_exit_code_kept():
    """`python -m checker list` through a pipe: every line written before the fast exit."""
    listed = cli("list")
    assert listed.returncode == ExitCode.OK
    lines = listed.stdout.splitlines()
    assert len(lines) > 100 and lines[-1].strip()
    assert cli("--package", "no_such_catalogue", "list").returncode == ExitCode.USAGE_ERROR


def test_require_universal_fails_on_a_proof_of_some_sizes(tmp_path):
    """A bounded proof of a statement about every size is `partial`: exit 0 by default, exit 1 with
    --require-universal, naming it; `require` in [tool.obligations] takes only "universal"."""
    ob_id = "psy01a.nested_pruning_identity"  # exhaustive at 2×2: proved for some shapes only
    plain = cli("check", ob_id, "--format", "json", "-q")
    assert plain.returncode == ExitCode.OK, plain.stderr
    (row,) = json.loads(plain.stdout)["results"]
    assert row["status"] == "proved" and row["grade"] == "bounded" and row["outcome"] == "partial"
    strict = cli("check", ob_id, "--require-universal", "-q")
    assert strict.returncode == ExitCode.FAILED and f"{ob_id} is proved for" in strict.stderr
    assert "only" in strict.stdout  # the table says "proved for … only"
    universal = cli("check", "psy01a.masked_opnorm_frobenius", "--require-universal", "-q")
    assert universal.returncode == ExitCode.OK, universal.stderr
    from checker.face import config
    from checker.kernel.errors import UsageError

    (tmp_path / "pyproject.toml").write_text('[tool.obligations]\nrequire = "universal"\n', encoding="utf-8")
    assert config.load(tmp_path).require == "universal"
    (tmp_path / "pyproject.toml").write_text('[tool.obligations]\nrequire = "bounded"\n', encoding="utf-8")
    try:
        config.load(tmp_path)
    except UsageError as exc:
        assert "require" in str(exc)
    else:
        raise AssertionError("require = 'bounded' was accepted")
