"""The hand-out order: longest expected first, from the previous run's times."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from checker import schedule
from checker.cache import Cache
from checker.registry import discover
from checker.runner import RunConfig, run

FIXTURES = str(Path(__file__).parent / "fixtures")


@dataclass(frozen=True)
class _Item:
    id: str


@dataclass(frozen=True)
class _Timed:
    id: str
    time_s: float


def test_longest_expected_first_and_unknown_at_the_median():
    """Recorded times sort descending; an id without a time counts as the median; ties keep the
    given order."""
    items = [_Item(i) for i in ("a", "b", "c", "d", "e")]
    times = {"a": 1.0, "b": 9.0, "c": 3.0, "e": 3.0}
    assert [i.id for i in schedule.by_expected_time(items, times)] == ["b", "c", "d", "e", "a"]


def test_no_times_keeps_the_catalogue_order():
    items = [_Item(i) for i in ("z", "a", "m")]
    assert schedule.by_expected_time(items, {}) == items


def test_longest_first_is_in_pop_order(tmp_path):
    """The runner pops from the end of the list: the end is the longest expected obligation."""
    schedule.record_times(tmp_path, [_Timed("a", 1.0), _Timed("b", 5.0)])
    order = schedule.longest_first([_Item("a"), _Item("b")], Cache(tmp_path))
    assert order.pop().id == "b"
    assert schedule.longest_first([_Item("a"), _Item("b")], None)[-1].id == "a"


def test_times_merge_across_runs_and_bad_files_are_ignored(tmp_path):
    """A run records its obligations' times and keeps those of obligations it did not run; an
    unreadable or foreign file reads as no times (the order is only a speed-up)."""
    schedule.record_times(tmp_path, [_Timed("a", 1.0), _Timed("b", 2.0)])
    schedule.record_times(tmp_path, [_Timed("b", 4.0)])
    assert schedule.load_times(tmp_path) == {"a": 1.0, "b": 4.0}
    assert not list(tmp_path.glob(".*.tmp"))  # written through a temporary file and a rename
    schedule.times_path(tmp_path).write_text("{not json", encoding="utf-8")
    assert schedule.load_times(tmp_path) == {}
    schedule.times_path(tmp_path).write_text(json.dumps({"version": 99, "times": {"a": 1}}), encoding="utf-8")
    assert schedule.load_times(tmp_path) == {}
    assert schedule.load_times(None) == {}


def test_runner_hands_out_the_longest_expected_first(tmp_path):
    """With one worker, the first result to finish is the obligation with the largest recorded
    time, and results still come back in catalogue order."""
    sys.path.insert(0, FIXTURES)
    try:
        cat = discover("badcat")
        chosen = [ob for ob in cat.obligations if ob.id in ("badcat.good", "badcat.refuted_expected", "badcat.undecided")]
        schedule.record_times(tmp_path, [_Timed("badcat.good", 0.1), _Timed("badcat.undecided", 7.0),
                                         _Timed("badcat.refuted_expected", 3.0)])
        finished: list[str] = []
        results = run(chosen, RunConfig(jobs=1, timeout_s=30, memory_mib=1024), progress=lambda r, *_: finished.append(r.id),
                      cache=Cache(tmp_path / "cache-only-for-times"))
    finally:
        sys.path.remove(FIXTURES)
    assert [r.id for r in results] == [ob.id for ob in chosen]
    assert finished == [ob.id for ob in chosen]  # no times in that cache directory: catalogue order
    sys.path.insert(0, FIXTURES)
    try:
        finished.clear()
        run(chosen, RunConfig(jobs=1, timeout_s=30, memory_mib=1024), progress=lambda r, *_: finished.append(r.id),
            cache=Cache(tmp_path))
    finally:
        sys.path.remove(FIXTURES)
    assert finished == ["badcat.undecided", "badcat.refuted_expected", "badcat.good"]
