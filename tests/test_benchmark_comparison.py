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
