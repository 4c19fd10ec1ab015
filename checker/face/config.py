"""``[tool.obligations]`` in ``pyproject.toml``: a project's defaults for the ``obligations`` command.

The nearest ``pyproject.toml`` with a ``[tool.obligations]`` table, from the working directory
upward, is the project's configuration (pytest's rootdir habit)::

    [tool.obligations]
    packages = ["mypaper"]          # catalogue packages (default: every registered catalogue)
    jobs = 2                        # worker processes
    timeout = 120                   # wall-clock seconds per obligation
    memory = 4096                   # MiB per worker
    baseline = "proofs/baseline.json"   # compared on every `check` once it exists
    format = "table"                # report format of check / audit / report
    lean_refs = "lean_refs"         # the Lean-style declarations, for `obligations lean`
    cache_dir = ".obligations-cache"
    expected_times = "benchmarks/expected_times.json"   # hand-out order when the cache has no times
    require = "universal"           # `check` fails on a proof of some sizes only (a paper's CI)
    executor = "dask://scheduler.lab:8786"  # where jobs run (default "local"; needs pip install '.[cluster]')
    confirm = true                  # every z3 proof confirmed by cvc5, every bitwuzla proof by z3 (false: a quick local loop)

Paths are relative to the ``pyproject.toml``. Command-line flags override every key. An unknown
key, or a value of the wrong type, is a usage error naming the file and the key; a file that
mentions ``[tool.obligations]`` but is not valid TOML (a syntax error, a duplicate key) is a usage
error naming the file and the line — it is never skipped for another configuration.

The same file's ``[project.entry-points."obligations.catalogues"]`` and ``"obligations.commands"``
count as registered even before the project is installed, so a checkout works as it is.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from checker.kernel.errors import UsageError

FILE = "pyproject.toml"
TABLE = "obligations"


@dataclass(frozen=True, slots=True)
class Config:
    """A project's ``[tool.obligations]`` (every field ``None`` when the key is not set)."""

    path: Path | None = None
    packages: tuple[str, ...] | None = None
    jobs: int | None = None
    timeout: float | None = None
    memory: int | None = None
    baseline: str | None = None
    format: str | None = None
    lean_refs: str | None = None
    cache_dir: str | None = None
    expected_times: str | None = None
    require: str | None = None
    executor: str | None = None
    confirm: bool | None = None
    entry_points: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @property
    def root(self) -> Path | None:
        """The directory holding the configuration file."""
        return None if self.path is None else self.path.parent


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _positive_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def _string(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _boolean(value: Any) -> bool:
    return isinstance(value, bool)


def _packages(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(_string(p) for p in value)


_KEYS = {
    "packages": (_packages, "a non-empty list of package names, e.g. [\"mypaper\"]"),
    "jobs": (_positive_int, "a whole number ≥ 1"),
    "timeout": (_positive_number, "a positive number of seconds"),
    "memory": (_positive_int, "a whole number of MiB ≥ 1"),
    "baseline": (_string, "a path, e.g. \"proofs/baseline.json\""),
    "format": (_string, "a report format, e.g. \"table\" or \"markdown\""),
    "lean_refs": (_string, "a directory, e.g. \"lean_refs\""),
    "cache_dir": (_string, "a directory, e.g. \".obligations-cache\""),
    "expected_times": (_string, "a path, e.g. \"benchmarks/expected_times.json\""),
    "require": (lambda v: v in ("universal",), "\"universal\" (fail on a proof that covers only some sizes)"),
    "executor": (_string, "an executor: \"local\", \"local-cluster:N\" or \"dask://HOST:PORT\""),
    "confirm": (_boolean, "true or false"),
}
_PATHS = ("baseline", "lean_refs", "cache_dir", "expected_times")


def find(start: Path | None = None) -> Path | None:
    """The nearest ``pyproject.toml`` with a ``[tool.obligations]`` table, from ``start`` up."""
    here = (start or Path.cwd()).resolve()
    for directory in (here, *here.parents):
        candidate = directory / FILE
        if candidate.is_file():
            try:
                text = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue  # another tool's unreadable file is not ours to reject
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                if _mentions_table(text):
                    raise UsageError(f"{candidate}:{_line_of(exc)}: not valid TOML ({exc}); "
                                     f"fix the file that holds [tool.{TABLE}]") from exc
                continue  # another tool's broken file is not ours to reject
            if isinstance(data.get("tool"), dict) and TABLE in data["tool"]:
                return candidate
    return None


def _mentions_table(text: str) -> bool:
    """Whether a (possibly broken) TOML text has a ``[tool.obligations]`` header, or a
    ``tool.obligations`` key, on some line."""
    import re

    return re.search(rf"^\s*\[\s*tool\s*\.\s*{TABLE}\s*[\].]|^\s*tool\s*\.\s*{TABLE}\s*[.=]", text, re.MULTILINE) is not None


def _line_of(exc: Exception) -> str:
    """The line tomllib's message names ("… (at line 3, column 1)"), else "?"."""
    import re

    found = re.search(r"line (\d+)", str(exc))
    return found.group(1) if found else "?"


def load(start: Path | None = None) -> Config:
    """The project's configuration, or an empty :class:`Config` when there is none."""
    path = find(start)
    if path is None:
        return Config()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    table = data["tool"][TABLE]
    if not isinstance(table, dict):
        raise UsageError(f"{path}: [tool.{TABLE}] must be a table")
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in _KEYS:
            raise UsageError(f"{path}: [tool.{TABLE}] has no key {key!r}; the keys are {', '.join(_KEYS)}")
        valid, what = _KEYS[key]
        if not valid(value):
            raise UsageError(f"{path}: [tool.{TABLE}] {key} = {value!r} is not {what}")
        if key == "packages":
            value = tuple(value)
        elif key == "timeout":
            value = float(value)
        elif key in _PATHS:
            value = str(path.parent / value)
        values[key] = value
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    groups = project.get("entry-points") if isinstance(project.get("entry-points"), dict) else {}
    entry_points = {g: {str(k): str(v) for k, v in eps.items()} for g, eps in groups.items() if isinstance(eps, dict)}
    return Config(path=path, entry_points=entry_points, **values)
