"""Catalogues and subcommands as plugins, registered through packaging entry points.

A catalogue registers itself in its ``pyproject.toml``::

    [project.entry-points."obligations.catalogues"]
    mypaper = "mypaper"                          # the package holding its obligations

    [project.entry-points."obligations.commands"]
    discharge = "mypaper.commands:DISCHARGE"     # a checker.face.plugins.Command

Entry points of installed distributions count, and so do those of the project's own
``pyproject.toml`` (:mod:`checker.face.config`), which win on a clash. The engine imports no catalogue
by name: which packages to load comes from ``--package``, ``[tool.obligations] packages``, or the
``obligations.catalogues`` entry points, in that order.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
from dataclasses import dataclass
from typing import Callable

from checker.face.config import Config
from checker.kernel.errors import UsageError

CATALOGUES = "obligations.catalogues"
COMMANDS = "obligations.commands"


@dataclass(frozen=True, slots=True)
class Command:
    """A subcommand a catalogue adds to ``obligations``: ``configure`` adds its arguments to its
    own sub-parser; ``run`` gets the parsed arguments and returns the exit code (0 ok, 1 failed,
    2 usage error; raising :class:`checker.kernel.errors.UsageError` also exits 2)."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def entry_points(group: str, config: Config | None = None) -> dict[str, str]:
    """``name → "module:attr"`` of the group: installed distributions, then the project's own."""
    found: dict[str, str] = {}
    try:
        for ep in importlib.metadata.entry_points(group=group):
            found.setdefault(ep.name, ep.value)
    except Exception:  # noqa: BLE001 - broken metadata of some distribution must not stop the command
        pass
    if config is not None:
        found.update(config.entry_points.get(group, {}))
    return found


def catalogue_packages(config: Config | None = None) -> tuple[str, ...]:
    """The packages of every registered catalogue, sorted by entry-point name."""
    eps = entry_points(CATALOGUES, config)
    return tuple(eps[name].split(":")[0].strip() for name in sorted(eps))


def resolve_packages(cli: list[str] | None, config: Config) -> tuple[str, ...]:
    """``--package`` if given, else ``[tool.obligations] packages``, else the registered catalogues."""
    if cli:
        return tuple(dict.fromkeys(cli))
    if config.packages:
        return config.packages
    registered = catalogue_packages(config)
    if registered:
        return tuple(dict.fromkeys(registered))
    raise UsageError(
        "no catalogue to load: pass --package NAME, set packages = [\"NAME\"] under [tool.obligations] "
        f"in pyproject.toml, or register one under [project.entry-points.\"{CATALOGUES}\"] "
        "('obligations init NAME' scaffolds all three)"
    )


def load_object(value: str) -> object:
    """The object an entry point ``"module:attr.sub"`` names."""
    module, _, attr = value.partition(":")
    obj: object = importlib.import_module(module.strip())
    for part in filter(None, attr.strip().split(".")):
        obj = getattr(obj, part)
    return obj


def load_commands(config: Config, reserved: frozenset[str]) -> tuple[tuple[Command, ...], tuple[str, ...]]:
    """The registered subcommands, and a warning for each that cannot be used (it fails to
    import, is not a :class:`Command`, or takes a built-in command's name)."""
    commands: list[Command] = []
    problems: list[str] = []
    for name, value in sorted(entry_points(COMMANDS, config).items()):
        if name in reserved:
            problems.append(f"command plugin {name!r} ({value}) is ignored: {name!r} is a built-in command")
            continue
        try:
            obj = load_object(value)
        except KeyboardInterrupt:
            raise
        except SystemExit as exc:  # a plugin that exits at import must not end every command
            problems.append(f"command plugin {name!r} ({value}) could not be loaded: it called sys.exit({exc.code!r}) "
                            "while being imported; a plugin module must not exit")
            continue
        except BaseException as exc:  # noqa: BLE001 - one broken plugin must not break the command
            problems.append(f"command plugin {name!r} ({value}) could not be loaded: {type(exc).__name__}: {exc}")
            continue
        if not isinstance(obj, Command):
            problems.append(f"command plugin {name!r} ({value}) is a {type(obj).__name__}, not a checker.face.plugins.Command")
            continue
        commands.append(obj if obj.name == name else Command(name, obj.help, obj.configure, obj.run))
    return tuple(commands), tuple(problems)
