"""The order in which obligations are handed to workers: longest expected first.

With a pool of workers taking one obligation at a time, the run ends when the last worker
finishes; handing out the longest obligations first (the LPT rule) keeps the last one from
finishing alone. The expected time of an obligation is what it took in the previous run,
kept in a small JSON file in the cache directory (``times.json``, written atomically, apart
from the cached results). A project may ship such a file (``[tool.obligations]
expected_times``), used where the cache has no time of its own: a fresh clone, ``--no-cache``.
An obligation without a recorded time is expected to take the median of the recorded ones;
with no times at all the catalogue order is kept.

The order changes nothing but the wall time: every obligation's seed comes from its id, and
the runner returns results in catalogue order.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence, TypeVar

if TYPE_CHECKING:
    from checker.store.cache import Cache
    from checker.kernel.model import Result

TIMES_FILE = "times.json"
TIMES_VERSION = 1

_T = TypeVar("_T")


def times_path(directory: str | Path) -> Path:
    return Path(directory) / TIMES_FILE


def load_times(directory: str | Path | None) -> dict[str, float]:
    """``{obligation id: seconds}`` from the previous runs; empty when absent or unreadable
    (the order is only a speed-up: trouble with the file never fails a run)."""
    if directory is None:
        return {}
    return load_times_file(times_path(directory))


def load_times_file(path: str | Path | None) -> dict[str, float]:
    """The times in one such file (e.g. a project's shipped ``expected_times``); empty when
    there is none or it is unreadable."""
    if path is None:
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("version") != TIMES_VERSION:
            return {}
        return {str(k): float(v) for k, v in data["times"].items() if float(v) >= 0}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def record_times(directory: str | Path | None, results: Iterable[Result]) -> None:
    """Merge this run's times into the file (obligations not run keep their old time)."""
    if directory is None:
        return
    from checker.store.cache import atomic_write

    times = load_times(directory)
    times.update({r.id: round(float(r.time_s), 3) for r in results})
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
        atomic_write(times_path(directory), json.dumps({"version": TIMES_VERSION, "times": dict(sorted(times.items()))}),
                     durable=False)
    except OSError:
        pass


def by_expected_time(items: Sequence[_T], times: Mapping[str, float], key=lambda ob: ob.id) -> list[_T]:
    """``items`` longest expected first; ties (and a run with no recorded times) keep the given
    order."""
    if not times:
        return list(items)
    default = statistics.median(times.values())
    indexed = sorted(enumerate(items), key=lambda p: (-times.get(key(p[1]), default), p[0]))
    return [item for _, item in indexed]


def longest_first(pending: Sequence[_T], cache: Cache | None, expected: Mapping[str, float] | None = None) -> list[_T]:
    """The runner's hand-out order for ``pending``: ``pending.pop()`` from the end of the
    returned list gives the longest expected obligation first. The cache's times win over the
    ``expected`` ones shipped with the project."""
    times = {**(expected or {}), **load_times(cache.directory if cache is not None else None)}
    return by_expected_time(pending, times)[::-1]
