"""Declaring and discovering obligations: validation at declaration time, load errors kept."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from checker import Expect, Source, obligation
from checker.kernel.model import Grade
from checker.kernel.errors import InvalidObligation, UsageError
from checker.run.discovery import discover
from checker.kernel.verdicts import trusted

FIXTURES = str(Path(__file__).parent / "fixtures")


@pytest.fixture(autouse=True)
def fixtures_on_path(monkeypatch):
    monkeypatch.syspath_prepend(FIXTURES)


def _declare(**overrides):
    fields = dict(id="regtest.sample", source=Source("doc.txt", "Lemma"), statement="S.", scope="none", expect=Expect.HOLDS)
    fields.update(overrides)

    def f(ctx):
        """doc"""
        return trusted("x", grade=Grade.INSTANCES, over="1 point")

    return obligation(**fields)(f)


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"id": "NoDots"}, "id is not a dotted lower-case name"),
        ({"statement": ""}, "statement is missing"),
        ({"scope": " "}, "scope is missing"),
        ({"expect": "maybe"}, "is not one of holds/fails/open"),
        ({"source": Source("", "x")}, "source needs"),
        ({"lean": ("",)}, "lean refs must be non-empty"),
        ({"claims": ("not a claim",)}, "a claim fails to build"),
        ({"claims": lambda: 1 / 0}, "ZeroDivisionError"),
    ],
)
def test_malformed_declarations_are_rejected_with_location(overrides, message):
    """Each malformed field is rejected when declared, naming this file and line; the function is
    not registered and carries the error (it becomes that obligation's ``error``)."""
    ob_id = overrides.pop("id", f"regtest.bad_{abs(hash(message)) % 10**6}")
    fn = _declare(id=ob_id, **overrides)
    assert not hasattr(fn, "obligation")
    text = fn.declaration_error.message
    assert message in text
    assert f"{Path(__file__).name}:" in text


def test_invalid_obligation_is_a_value_error():
    """User errors subclass the builtin they mean."""
    assert issubclass(InvalidObligation, ValueError)


def test_discharge_without_docstring_is_a_warning_and_wrong_arity_an_error():
    """A discharge without a docstring is registered with a warning; the wrong arity is rejected."""
    fn = obligation(id="regtest.nodoc", source=Source("d.txt", "L"), statement="S.", scope="none",
                    expect=Expect.HOLDS, no_theorem="a test fixture: its result is what the test is about, not a theorem")(lambda ctx: None)
    assert fn.obligation.id == "regtest.nodoc"
    from checker.kernel import declaration as registry

    assert any(w.obligation == "regtest.nodoc" and "no docstring" in w.message for w in registry._WARNINGS)

    def two(a, b):
        """doc"""

    two = obligation(id="regtest.arity", source=Source("d.txt", "L"), statement="S.", scope="none", expect=Expect.HOLDS, no_theorem="a test fixture: its result is what the test is about, not a theorem")(two)
    assert "exactly one argument" in two.declaration_error.message


def test_one_bad_declaration_breaks_only_itself():
    """In one module: an undocumented discharge is a warning and still an obligation; a claim that
    fails to build, an empty scope and a duplicate id are each their own error; the obligations
    declared before and after them load, and run to ``proved``."""
    from checker.run.runner import RunConfig, run

    cat = discover("partialcat")
    assert [ob.id for ob in cat.obligations] == ["partialcat.after", "partialcat.before", "partialcat.undocumented"]
    assert [w.obligation for w in cat.warnings] == ["partialcat.undocumented"]
    errors = {e.id: e.message for e in cat.errors}
    assert set(errors) >= {"partialcat.bad_claim", "partialcat.no_scope"}
    assert "a claim fails to build" in errors["partialcat.bad_claim"] and "declared twice" in errors["partialcat.bad_claim"]
    assert "mixed.py:" in errors["partialcat.no_scope"]
    (dup,) = [m for i, m in errors.items() if i.startswith("<declaration")]
    assert "duplicate id" in dup
    assert cat.by_id("partialcat.after").claims[0].name == "relu-nonnegative"
    results = run(cat.obligations, RunConfig(jobs=1, timeout_s=60, memory_mib=2048), cat.errors)
    status = {r.id: r.status.value for r in results}
    assert status["partialcat.before"] == status["partialcat.after"] == status["partialcat.undocumented"] == "proved"
    assert status["partialcat.bad_claim"] == status["partialcat.no_scope"] == "error"
    assert len(results) == len(set(r.id for r in results)) == 6
    assert cat.select(["partialcat.bad_claim"]) == ()  # a rejected id is not an unknown pattern
    assert [e.id for e in cat.errors_for(["partialcat.bad"])] == ["partialcat.bad_claim"]


def test_duplicate_ids_are_rejected_naming_both_places():
    """The second declaration of an id is an error naming the first location."""
    cat = discover("dupcat")
    assert [ob.id for ob in cat.obligations] == ["dupcat.same"]
    assert len(cat.errors) == 1
    err = cat.errors[0]
    assert err.module == "dupcat.second"
    assert "duplicate id" in err.message and "first.py" in err.message
    assert "second.py:" in err.message


def test_malformed_declarations_become_errors_and_the_rest_loads():
    """Malformed declarations are errors with file:line, under their own ids; the valid one loads."""
    cat = discover("malformedcat")
    assert [ob.id for ob in cat.obligations] == ["malformedcat.fine"]
    assert {e.id for e in cat.errors} == {"malformedcat.no_statement", "malformedcat.bad_expect"}
    messages = {e.module: e.message for e in cat.errors}
    assert "statement is missing" in messages["malformedcat.no_statement"]
    assert "no_statement.py:" in messages["malformedcat.no_statement"]
    assert "'maybe' is not one of" in messages["malformedcat.bad_expect"]


def test_syntax_and_import_errors_are_load_errors_with_location():
    """A module with a syntax error or a failing import is reported, not fatal."""
    cat = discover("badcat")
    errors = {e.module: e for e in cat.errors}
    assert "SyntaxError" in errors["badcat.syntax_error"].message
    assert errors["badcat.syntax_error"].location.endswith("syntax_error.py:3")
    assert "ModuleNotFoundError" in errors["badcat.import_error"].message
    assert "import_error.py:1" in errors["badcat.import_error"].location
    assert "badcat.good" in {ob.id for ob in cat.obligations}


def test_select_by_prefix_and_unknown_pattern():
    """Patterns match id prefixes; a pattern matching nothing is a usage error naming it."""
    cat = discover("badcat")
    assert {ob.id for ob in cat.select(["badcat.r"])} == {"badcat.raises", "badcat.refuted_expected"}
    with pytest.raises(UsageError, match="'nothing.here'"):
        cat.select(["nothing.here"])


def test_discovery_does_not_import_heavy_libraries():
    """Loading the real catalogue imports neither sympy nor z3 nor numpy (lazy backends)."""
    import subprocess

    code = (
        "import sys; from checker.run.discovery import discover; c = discover('obligations'); "
        "assert not c.errors, c.errors; "
        "heavy = [m for m in ('sympy', 'z3', 'numpy', 'mpmath', 'flint') if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parent.parent)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


def test_on_probed_gets_the_modules_that_imported_cleanly_before_they_are_imported_here(tmp_path, monkeypatch):
    """The hook a check uses to warm the worker template: called once, after the isolated import,
    with the modules that imported there, none of them yet imported into this process."""
    pkg = tmp_path / "probedcat"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "fine.py").write_text("X = 1\n", encoding="utf-8")
    (pkg / "broken.py").write_text("import no_such_module_anywhere\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    calls = []

    def hook(modules):
        calls.append((list(modules), [m for m in modules if m in sys.modules]))

    cat = discover("probedcat", on_probed=hook)
    [(modules, already_here)] = calls
    assert already_here == []
    assert sorted(modules) == ["probedcat", "probedcat.fine"]
    assert {e.module for e in cat.errors} == {"probedcat.broken"}


def test_a_holds_or_fails_obligation_declares_its_theorem_or_why_it_has_none():
    """No theorem: a declaration error that says what to add; a reason instead (no_theorem): accepted,
    and the reason reaches the ledger; both: a declaration error; an open question needs neither."""
    from checker.claims import claim
    from checker.kernel import declaration as registry
    from checker.kernel.model import Context, Status
    from checker.run.runner import execute

    relu = claim("relu-nonneg", "x", lambda o, v: o.ge(o.relu(v.x), 0))

    def f(ctx=None):
        """doc"""
        from checker.backends import smt

        return smt.prove(relu, ctx)

    def fresh():  # each declaration decorates its own function (a function carries one obligation)
        def g(ctx):
            """doc"""
            return f(ctx)
        return g

    for expect in (Expect.HOLDS, Expect.FAILS):
        bare = obligation(id=f"regtest.notheorem_{expect.value}", source=Source("d.txt", "L"), statement="S.", scope="s",
                          expect=expect)(fresh())
        message = bare.declaration_error.message
        assert "declares no theorem" in message and "theorem=claim(" in message and "no_theorem=" in message
        assert f"regtest.notheorem_{expect.value}" not in registry._REGISTRY
    before = len(registry._WARNINGS)
    reasoned = obligation(id="regtest.reasoned", source=Source("d.txt", "L"), statement="S.", scope="s",
                          expect=Expect.HOLDS, no_theorem="an expectation over noise")(fresh())
    opened = obligation(id="regtest.openq", source=Source("d.txt", "L"), statement="S.", scope="s", expect=Expect.OPEN)(fresh())
    stated = obligation(id="regtest.stated", source=Source("d.txt", "L"), statement="S.", scope="s", expect=Expect.FAILS,
                        theorem=relu)(fresh())
    assert not [w for w in registry._WARNINGS[before:] if w.obligation in ("regtest.reasoned", "regtest.openq", "regtest.stated")]
    result, _ = execute(reasoned.obligation, Context("regtest.reasoned", 1, 60, False))
    assert result.status is Status.PROVED
    assert any("an expectation over noise" in e["text"] for e in result.certificate.ledger if e["kind"] == "unchecked")
    assert opened.obligation.theorem == () and stated.obligation.theorem == (relu,)
    both = obligation(id="regtest.both", source=Source("d.txt", "L"), statement="S.", scope="s", expect=Expect.HOLDS,
                      theorem=relu, no_theorem="why not")(fresh())
    assert "no_theorem" in both.declaration_error.message
