"""pytest integration: collect obligations as test items.

``pytest --obligations`` adds one item per (non-slow) catalogue obligation;
``--obligations=psy01a,controller_bound`` restricts to id prefixes; ``--obligations-package``
names the catalogue package (default: as for ``obligations check``). With pytest-xdist
(``-n 2``) the items spread over processes — the route for catalogues that outgrow one machine's ``obligations check``.

An item fails when its outcome is ``contradicted`` or ``broken``, is skipped when ``open``,
and passes otherwise (confirmed, or evidence). Each item runs its discharge the way ``obligations
check`` does: in a fresh worker process with the wall-clock and memory limits
(``--obligations-timeout``, ``--obligations-memory``), so an obligation that exits, crashes or
hangs is a failed item — never a dead or hung pytest — and the catalogue's modules are imported
in an isolated worker first. The terminal summary counts the items' outcomes.
"""

from __future__ import annotations

from typing import Any, Mapping

import pytest

from checker.kernel.model import Outcome

_OUTCOMES: dict[str, int] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("obligations", "proof obligations")
    group.addoption("--obligations", nargs="?", const="", default=None, metavar="PREFIXES",
                    help="also collect catalogue obligations as test items (comma-separated id prefixes; default all)")
    group.addoption("--obligations-package", action="append", default=None, metavar="PACKAGE",
                    help="catalogue package (repeatable; default: [tool.obligations] packages, else every registered catalogue)")
    group.addoption("--obligations-slow", action="store_true", help="include obligations marked slow")
    group.addoption("--obligations-timeout", type=float, default=None, help="wall-clock seconds per obligation")
    group.addoption("--obligations-memory", type=int, default=None, help="memory limit per obligation (MiB)")


_EXPECTED = {"holds": "the claim to hold", "fails": "the claim to fail", "open": "an open question"}


def failure_text(r: Any) -> str:
    """What a failed obligation item prints: status with grade, what the source expected, the
    reason, and for a refutation its witness, both sides and how the witness was re-checked."""
    c = r.certificate
    lines = [f"{r.id}: {r.status_label} ({r.outcome.value}); the source expects {_EXPECTED.get(r.expect.value, r.expect.value)}",
             f"method: {c.method}"]
    if r.outcome is Outcome.VACUOUS and isinstance(r.vacuity, Mapping):
        lines.append(f"vacuity: {r.vacuity.get('reason')}")
    if c.reason:
        lines.append(f"reason: {c.reason}")
    if c.witness:
        lines.append("witness: " + ", ".join(f"{k} = {v}" for k, v in c.witness.items()))
    if c.sides:
        lines.append("sides: " + ", ".join(f"{k} = {v}" for k, v in c.sides.items()))
    if c.witness:
        checks = [f"{s.backend}: {s.action} → {s.answer}" for s in c.steps if s.backend in ("exact", "interval")]
        lines.append("re-check: " + ("; ".join(checks[-2:]) if checks else "against the declared claims (see the certificate)"))
    return "\n".join(lines)


class ObligationItem(pytest.Item):
    def __init__(self, *, obligation: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.obligation = obligation

    def runtest(self) -> None:
        from checker.run.runner import DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT_S, RunConfig, run

        ob = self.obligation
        cfg = self.config
        config = RunConfig(jobs=1, timeout_s=cfg.getoption("--obligations-timeout") or DEFAULT_TIMEOUT_S,
                           memory_mib=cfg.getoption("--obligations-memory") or DEFAULT_MEMORY_MIB,
                           slow=bool(cfg.getoption("--obligations-slow")))
        (result,) = run([ob], config)
        self.user_properties.append(("status", result.status.value))
        _OUTCOMES[result.outcome.value] = _OUTCOMES.get(result.outcome.value, 0) + 1
        outcome = result.outcome
        if outcome is Outcome.OPEN:
            pytest.skip(f"{result.status.value}: {result.certificate.reason}")
        if outcome in (Outcome.CONTRADICTED, Outcome.BROKEN, Outcome.VACUOUS):
            raise ObligationFailed(result)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ObligationFailed):
            return failure_text(excinfo.value.result)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[str, int, str]:
        return self.obligation.file, self.obligation.line, f"obligation {self.obligation.id}"


class LoadErrorItem(pytest.Item):
    """A catalogue module that does not load: a failing item with the module's own message."""

    def __init__(self, *, error: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def runtest(self) -> None:
        raise ObligationLoadError(f"{self.error.location}: {self.error.message}")

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        return str(excinfo.value)

    def reportinfo(self) -> tuple[str, int, str]:
        return self.error.location, 0, self.error.id


class ObligationLoadError(Exception):
    pass


class ObligationFailed(Exception):
    def __init__(self, result: Any) -> None:
        super().__init__(result.id)
        self.result = result


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    spec = config.getoption("--obligations")
    if spec is None:
        return
    import warnings

    from checker.face import config as project_config
    from checker.face.plugins import resolve_packages
    from checker.run.discovery import discover

    packages = resolve_packages(config.getoption("--obligations-package"), project_config.load(config.rootpath))
    patterns = [p for p in spec.split(",") if p]
    for package in packages:
        catalogue = discover(package, timeout_s=config.getoption("--obligations-timeout"),
                             memory_mib=config.getoption("--obligations-memory"))
        for warning in catalogue.warnings:
            warnings.warn(warning.message, UserWarning, stacklevel=1)
        for err in catalogue.errors:
            items.append(LoadErrorItem.from_parent(session, name=err.id, error=err))
        mine = [p for p in patterns if any(ob.id.startswith(p) for ob in catalogue.obligations)] if len(packages) > 1 else patterns
        if patterns and not mine:
            continue
        for ob in catalogue.select(mine, include_slow=config.getoption("--obligations-slow")):
            items.append(ObligationItem.from_parent(session, name=ob.id, obligation=ob))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if config.getoption("--obligations", default=None) is None or not _OUTCOMES:
        return
    counts = ", ".join(f"{n} {k}" for k, n in sorted(_OUTCOMES.items()))
    terminalreporter.write_sep("-", f"obligations (this process): {counts}")
