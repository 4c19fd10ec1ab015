"""The mutation audit: sites, single-site edits, survivors and their docstring explanations."""

from __future__ import annotations

import ast

import pytest

from checker.audit import mutation

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

    from checker.kernel.model import Context
    from checker.run.discovery import discover

    ob = discover("obligations").by_id("psy01a.bernoulli_cue_block")
    source = Path(ob.file).read_text(encoding="utf-8")
    m = next(x for x in mutation.sites(source, ob.discharge.__name__) if x.original == "373")
    status, _ = mutation._run_mutant(ob, source, m, Context(ob.id, 1, 60.0), 60.0)
    assert status == "refuted"


DISPLAY_SOURCE = '''
from checker.kernel.verdicts import proved, refuted, timed, unknown


class Limits:
    bound = 7


def discharge(ctx):
    value = 41
    shown = round(value / 3, 5)
    table = {"digits": 6, "shown": shown}
    with timed() as t:
        step = t.step("exact", "1", f"evaluate at {value + 2}", "ok", margin=13)
    if value > Limits.bound:
        return proved("exact", step, grade=None, over="17 points", value=shown, table=table)
    if value == 0:
        return refuted("exact", {"x": 23}, {"lhs": 29}, step)
    return unknown("exact", f"the value {value * 31} is too large")
'''


def test_display_only_code_is_not_a_site():
    """Literals that reach only a certificate's text or data are not sites: verdict-constructor
    data, steps, f-strings, the sides of a refutation, and variables read only there (a rounded
    shown value, a table of digits). The refutation's witness, a class attribute, and a value that
    is both compared and shown stay sites."""
    found = {m.original for m in mutation.sites(DISPLAY_SOURCE, "discharge")}
    assert not found & {"3", "5", "6", "13", "17", "29", "2", "31"}, found
    assert {"41", "23", "0", ">", "==", "7"} <= found, found


def test_a_scoped_explanation_covers_the_sites_inside_one_definition():
    """'Survives mutation: in `name`: <why>' explains every site inside the function or class
    ``name`` (and no other)."""
    source = SOURCE.replace("return total > 4", "return C, total > 4, helper()") + '''

def helper():
    return 5 + 6
'''
    found = mutation.sites(source, "discharge")
    inside = [m for m in found if m.scope == ("helper",)]
    assert {m.original for m in inside} == {"5", "6"}
    doc = "Doc.\n\n    Survives mutation: in `helper`: any helper value would do.\n"
    assert all(mutation.explained_by(m, doc) == "any helper value would do." for m in inside)
    assert all(mutation.explained_by(m, doc) is None for m in found if m not in inside)


@pytest.mark.slow
def test_the_whole_catalogue_has_no_unexplained_survivor():
    """The mutation audit over every (non-slow) obligation of the catalogue, as
    ``obligations audit --mutate --mutants 3`` runs it: every survivor is explained by its
    obligation's docstring, and no obligation's audit crashed or ran out of time."""
    from checker.kernel.model import derive_seed
    from checker.run.discovery import discover
    from checker.run.runner import DEFAULT_SEED, DEFAULT_TIMEOUT_S

    chosen = discover("obligations").select([], include_slow=False)
    entries = mutation.run(chosen, DEFAULT_SEED, DEFAULT_TIMEOUT_S, limit=3,
                           seed_of=lambda ob: derive_seed(DEFAULT_SEED, ob.id))
    unexplained = [f"{ob_id} line {r['line']}: {r['original']} → {r['replacement']} in `{r['source_line']}`"
                   for ob_id, r in mutation.iter_survivors(entries) if r["explanation"] is None]
    assert not unexplained, "\n".join(unexplained)
    broken = [f"{e['id']}: {e['verdict']} ({e.get('reason')})" for e in entries if e.get("verdict") in ("error", "undecided")]
    assert not broken, "\n".join(broken)
    assert sum(int(e.get("killed", 0)) for e in entries) > 0


def _mutant_status(ob_id: str, original: str, line_text: str) -> str:
    from pathlib import Path

    from checker.kernel.model import Context
    from checker.run.discovery import discover

    ob = discover("obligations").by_id(ob_id)
    source = Path(ob.file).read_text(encoding="utf-8")
    m = next(x for x in mutation.sites(source, ob.discharge.__name__)
             if x.original == original and line_text in x.source_line)
    status, _ = mutation._run_mutant(ob, source, m, Context(ob.id, 1, 60.0), 60.0)
    return status


def test_a_wrong_involution_enumeration_no_longer_proves_the_rule_use_certificate():
    """psy01a.rule_use_certificate: enumerating the wrong permutations (π∘π ≠ id) is not proved."""
    assert _mutant_status("psy01a.rule_use_certificate", "==", "p[p[y]] == y") != "proved"


def test_an_empty_exhaustive_enumeration_does_not_prove_the_survivor_counts():
    """psy01a.survivor_count_gap: an enumeration filter that skips every d is not proved."""
    assert _mutant_status("psy01a.survivor_count_gap", "0", "for d in (x for x in fractions_ if x > 0)") != "proved"


def test_a_limit_path_outside_the_range_no_longer_refutes_the_paper_moment():
    """rmt_jacobian.truncated_moment_paper: a limit taken along u² = 3 log n − … (outside Theorem 4.2's
    range) does not count as the in-range limit; the refutation needs its path on the range's end."""
    assert _mutant_status("rmt_jacobian.truncated_moment_paper", "2", "return sp.sqrt(2 * sp.log(n)") != "refuted"


def test_a_wrong_change_of_variable_no_longer_refutes_the_paper_moment():
    """rmt_jacobian.truncated_moment_paper: with t = u√(3/n) the limits' path leaves the range; not refuted."""
    assert _mutant_status("rmt_jacobian.truncated_moment_paper", "2", "expr.subs(t, u * sp.sqrt(2 / n))") != "refuted"
