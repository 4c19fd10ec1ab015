"""The mutation audit: sites, single-site edits, survivors and their docstring explanations."""

from __future__ import annotations

import ast

from checker import mutation

SOURCE = '''
from checker.claims import claim

LIMIT = 3
C = claim("c", "x", lambda o, v: o.le(v.x, LIMIT),
          hypotheses={"x small": lambda o, v: o.lt(v.x, 2)})


def discharge(ctx):
    """Doc.

    Survives mutation: `o.lt(v.x, 2)`: a weaker hypothesis keeps the bound true.
    """
    total = 0
    for k in range(10):
        total += k
    return total > 4


def unrelated():
    return 99 < 100
'''


def test_sites_cover_the_discharge_and_what_it_names_only():
    """Literals and comparisons of the discharge and of the definitions it names are sites; range()
    arguments, docstrings and unrelated functions are not."""
    found = mutation.sites(SOURCE, "discharge")
    described = {(m.kind, m.original, m.replacement) for m in found}
    assert ("comparison", ">", ">=") in described and ("number", "4", "5") in described
    assert ("number", "0", "1") in described  # total = 0
    assert not any(m.original in ("99", "100", "10") for m in found)
    # C and LIMIT are named by nothing in the discharge: not sites
    assert not any(m.kind == "claim-op" for m in found)
    claim_sites = mutation.sites(SOURCE.replace("return total > 4", "return C, total > 4"), "discharge")
    assert {("claim-op", "o.le"), ("claim-op", "o.lt"), ("number", "3")} <= {(m.kind, m.original) for m in claim_sites}


def test_mutate_changes_exactly_one_site():
    """Applying a mutant changes its site and nothing else."""
    for m in mutation.sites(SOURCE.replace("return total > 4", "return C, total > 4"), "discharge"):
        tree = mutation.mutate(SOURCE.replace("return total > 4", "return C, total > 4"), m)
        original = ast.dump(ast.parse(SOURCE.replace("return total > 4", "return C, total > 4")))
        assert ast.dump(tree) != original


def test_survivors_are_explained_by_docstring_lines():
    """A 'Survives mutation: <text>: <why>' line explains the survivors on source lines containing <text>
    (and only those)."""
    found = mutation.sites(SOURCE.replace("return total > 4", "return C, total > 4"), "discharge")
    hyp = next(m for m in found if m.kind == "claim-op" and m.original == "o.lt")
    doc = '''Doc.

    Survives mutation: `o.lt(v.x, 2)`: a weaker hypothesis keeps the bound true.'''
    assert mutation.explained_by(hyp, doc) == "a weaker hypothesis keeps the bound true."
    other = next(m for m in found if m.original == "o.le")
    assert mutation.explained_by(other, doc) is None


def test_a_catalogue_obligation_kills_a_mutant_of_its_stated_number():
    """psy01a.bernoulli_cue_block: the mutant 373 → 374 of the stated value is killed."""
    from pathlib import Path

    from checker.model import Context
    from checker.registry import discover

    ob = discover("obligations").by_id("psy01a.bernoulli_cue_block")
    source = Path(ob.file).read_text(encoding="utf-8")
    m = next(x for x in mutation.sites(source, ob.discharge.__name__) if x.original == "373")
    status, _ = mutation._run_mutant(ob, source, m, Context(ob.id, 1, 60.0), 60.0)
    assert status == "refuted"
