"""The benchmarks' "unchanged certificate" comparison: what it calls equal and where it says two differ."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from profile_obligations import _same, difference_paths, fingerprint  # noqa: E402


def test_floats_equal_to_rounding_and_rounding_errors_equal():
    assert _same(1.0, 1.0 + 1e-12)
    assert not _same(1.0, 1.0 + 1e-6)
    assert _same(2.4e-15, 3.0e-15)  # two measured rounding errors
    assert not _same(2.4e-15, 1e-3)
    assert _same({"a": [1, 2.0]}, {"a": [1, 2.0 * (1 + 1e-12)]})
    assert not _same({"a": 1}, {"b": 1})
    assert not _same([1], [1, 2])


def test_difference_paths_name_where_and_what():
    old = {"data": {"rows": [{"mean": 1.0}, {"mean": 2.0}], "method": "a"}}
    new = {"data": {"rows": [{"mean": 1.0}, {"mean": 2.5}], "method": "a", "extra": 1}}
    paths = difference_paths(old, new)
    assert ".data.extra: only new" in paths
    assert any(p.startswith(".data.rows[1].mean: 2.0 -> 2.5") for p in paths)
    assert difference_paths(old, old) == []


def test_fingerprint_ignores_timings_only():
    result = {"status": "proved", "grade": None, "scope": "s",
              "certificate": {"witness": None, "data": {"time_s": 1.0, "value": 3}, "steps": []}}
    slower = {**result, "certificate": {**result["certificate"], "data": {"time_s": 9.0, "value": 3}}}
    changed = {**result, "certificate": {**result["certificate"], "data": {"time_s": 1.0, "value": 4}}}
    assert _same(fingerprint(result), fingerprint(slower))
    assert not _same(fingerprint(result), fingerprint(changed))


def test_the_confirmation_benchmark_prints_each_trys_slowest_unsat_against_its_limit(capsys):
    """``bench_confirm.observations`` reads the tries log (``OBLIGATIONS_CONFIRM_LOG``): how the
    queries ended, and for each try its slowest ``unsat`` next to its limit."""
    from bench_confirm import observations

    def t(name, limit, answer, cpu, cut=False, shared=False):
        return {"try": name, "limit_s": limit, "answer": answer, "reason": "", "resources": 1, "cut": cut,
                "cpu_s": cpu, "shared": shared}

    observations([
        {"query": "a", "what": "¬(a)", "logic": "QF_NRA", "tries": [t("coverings", 0.3, "unsat", 0.27)]},
        {"query": "b", "what": "¬(b)", "logic": "QF_NRA", "tries": [t("coverings", 0.3, "unknown", 0.3, cut=True),
                                                                  t("linearisation", 1.0, "unsat", 0.18)]},
        {"query": "c", "what": "¬(c)", "logic": "QF_NRA", "tries": [t("coverings", 0.3, "unsat", 0.01, shared=True)]},
    ])
    out = capsys.readouterr().out
    assert "cvc5 queries: 3 (3 unsat)" in out and "tries run 3, read back from another job 1" in out
    assert "coverings 0.27 of 0.3 s, linearisation 0.18 of 1 s" in out
    assert "queries with a try stopped at the processor-time limit: 1 (¬(b))" in out


def test_the_paired_confirmation_benchmark_runs_each_obligation_both_ways_and_holds_it_to_the_limit():
    """``bench_confirm_paired.py`` discharges each selected obligation with and without confirmation
    in forked children and prints both sums; a ratio over ``--limit`` is exit status 1."""
    import subprocess

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_confirm_paired.py"
    out = subprocess.run([sys.executable, str(script), "controller_bound.theorem2_single_layer", "--limit", "0.5"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 1, out.stderr[-2000:]  # any ratio is over 0.5
    assert "1 obligations, each run with and without confirmation" in out.stdout
    assert "processor time:" in out.stdout and "cvc5's children" in out.stdout
    assert "settled differently" not in out.stdout
    assert "[1/1] controller_bound.theorem2_single_layer:" in out.stderr
