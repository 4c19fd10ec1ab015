"""The hand-out order: longest expected first, from the previous run's times."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from checker.run import schedule
from checker.store.cache import Cache
from checker.run.discovery import discover
from checker.run.runner import RunConfig, run

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


def test_shipped_expected_times_order_a_run_without_its_own(tmp_path):
    """A project's shipped times order a run whose cache has none (a fresh clone, --no-cache);
    the cache's own times win where both have one; an absent or broken file is no times."""
    shipped = tmp_path / "shipped"
    schedule.record_times(shipped, [_Timed("a", 9.0), _Timed("b", 1.0), _Timed("c", 5.0)])
    expected = schedule.load_times_file(schedule.times_path(shipped))
    items = [_Item("a"), _Item("b"), _Item("c")]
    assert [i.id for i in schedule.longest_first(items, None, expected)[::-1]] == ["a", "c", "b"]
    schedule.record_times(tmp_path / "cache", [_Timed("b", 20.0)])
    order = schedule.longest_first(items, Cache(tmp_path / "cache"), expected)[::-1]
    assert [i.id for i in order] == ["b", "a", "c"]
    assert schedule.load_times_file(tmp_path / "absent.json") == {} and schedule.load_times_file(None) == {}


def test_the_catalogue_ships_expected_times_for_its_default_check():
    """The repository's configuration names a times file, and it covers the default catalogue
    (a fresh clone's cold check hands out its longest obligations first)."""
    from checker.face import config as project_config

    cfg = project_config.load(Path(__file__).resolve().parent.parent)
    times = schedule.load_times_file(cfg.expected_times)
    ids = {ob.id for ob in discover("obligations", isolate=False).obligations if not ob.slow}
    assert times and ids <= set(times), sorted(ids - set(times))[:5]
