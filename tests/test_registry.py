"""Declaring and discovering obligations: validation at declaration time, load errors kept."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from checker import Expect, Source, obligation
from checker.model import Grade
from checker.errors import InvalidObligation, UsageError
from checker.registry import discover
from checker.verdicts import proved

FIXTURES = str(Path(__file__).parent / "fixtures")


@pytest.fixture(autouse=True)
def fixtures_on_path(monkeypatch):
    monkeypatch.syspath_prepend(FIXTURES)


def _declare(**overrides):
    fields = dict(id="regtest.sample", source=Source("doc.txt", "Lemma"), statement="S.", scope="none", expect=Expect.HOLDS)
    fields.update(overrides)

    def f(ctx):
        """doc"""
        return proved("x", grade=Grade.INSTANCES, over="1 point")

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
    ],
)
def test_malformed_declarations_are_rejected_with_location(overrides, message):
    """Each malformed field is rejected when declared, naming this file and line."""
    with pytest.raises(InvalidObligation) as info:
        _declare(id=overrides.pop("id", f"regtest.bad_{abs(hash(message)) % 10**6}"), **overrides)
    text = str(info.value)
    assert message in text
    assert f"{Path(__file__).name}:" in text


def test_invalid_obligation_is_a_value_error():
    """User errors subclass the builtin they mean."""
    assert issubclass(InvalidObligation, ValueError)


def test_discharge_needs_docstring_and_one_argument():
    """A discharge without a docstring, or with the wrong arity, is rejected."""
    deco = obligation(id="regtest.nodoc", source=Source("d.txt", "L"), statement="S.", scope="none", expect=Expect.HOLDS)
    with pytest.raises(InvalidObligation, match="no docstring"):
        deco(lambda ctx: None)

    def two(a, b):
        """doc"""

    with pytest.raises(InvalidObligation, match="exactly one argument"):
        obligation(id="regtest.arity", source=Source("d.txt", "L"), statement="S.", scope="none", expect=Expect.HOLDS)(two)


def test_duplicate_ids_are_rejected_naming_both_places():
    """The second module declaring an id fails to load; the message names the first location."""
    cat = discover("dupcat")
    assert [ob.id for ob in cat.obligations] == ["dupcat.same"]
    assert len(cat.errors) == 1
    err = cat.errors[0]
    assert err.module == "dupcat.second"
    assert "duplicate id" in err.message and "first.py" in err.message
    assert "second.py:" in err.message


def test_malformed_modules_become_load_errors_and_the_rest_loads():
    """Malformed declarations are load errors with file:line; the valid one still loads."""
    cat = discover("malformedcat")
    assert [ob.id for ob in cat.obligations] == ["malformedcat.fine"]
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
        "import sys; from checker.registry import discover; c = discover('obligations'); "
        "assert not c.errors, c.errors; "
        "heavy = [m for m in ('sympy', 'z3', 'numpy', 'mpmath', 'flint') if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parent.parent)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""
