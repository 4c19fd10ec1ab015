"""Catalogue code that reaches into the engine — the kernel's private names, code run under a forged
module name, the engine's functions replaced — is refused before its obligations run: each of these
made a false theorem 'proved ∀' in the job's own process."""

from __future__ import annotations

import json

import pytest

from checker.audit.reach import reaches
from tests.faults.catalogues import cli, make_catalogue, ob

REACHING = {
    "the seal": "from checker.kernel import proof\nfact = proof.Fact(proof._SEAL, frozenset(), (), None, '', ())\n",
    "the seal imported": "from checker.kernel.proof import _SEAL\n",
    "a private module path": "import checker.kernel.proof as kp\nkp._trusted_at('c', None, '', 'x', 'here')\n",
    "covers patched": "from checker.kernel import proof\nproof.covers = lambda f, t: (True, '')\n",
    "z3 patched": "from checker.backends import memo\nmemo.z3_check = lambda s, l: None\n",
    "the store written": "from checker.backends import memo\nmemo._put('z3-unsat', 'k', True)\n",
    "cvc5 patched by setattr": "from checker.backends import confirm\nsetattr(confirm, 'cvc5_check', print)\n",
    "a forged module name": "exec(compile('x = 1', 'checker/backends/x.py', 'exec'), {'__name__': 'checker.backends.x'})\n",
    "a forged name by dict()": "g = dict(__name__='checker.backends.x')\n",
    "__name__ assigned": "__name__ = 'checker.backends.x'\n",
}

PUBLIC = """
from checker import Expect, Source, obligation
from checker.backends import exact, interval, smt
from checker.claims import claim
from checker.kernel.verdicts import all_of, with_data
import mpmath

C = claim("c", "x", lambda o, v: o.ge(v.x * v.x, 0))


def discharge(ctx):
    proof = all_of("both", {"z3": smt.prove(C, ctx)})
    prec = mpmath.iv.prec
    return with_data(proof, prec=prec, name=proof.certificate.method)
"""


@pytest.mark.parametrize("name", sorted(REACHING))
def test_each_route_into_the_engine_is_found_with_its_line(name):
    found = reaches(REACHING[name])
    assert found and all(r.line >= 1 for r in found), name


def test_public_use_of_the_engine_is_not_flagged():
    assert reaches(PUBLIC) == []


def test_the_obligations_of_a_reaching_module_are_errors_and_the_others_run(tmp_path):
    make_catalogue(tmp_path, "reachcat", {
        "forger": "from checker.kernel import proof\n" + ob("reachcat", "forged", "return proof.Fact(proof._SEAL)\n"),
        "honest": ob("reachcat", "honest", "return trusted('a fixture', grade=Grade.INSTANCES, over='1 point')\n"),
    })
    out = cli(tmp_path, "--package", "reachcat", "check", "--format", "json", "--no-cache")
    rows = {r["id"]: r for r in json.loads(out.stdout)["results"]}
    forged = rows["reachcat.forged"]
    assert forged["status"] == "error" and "reaches into the engine" in forged["certificate"]["reason"]
    assert "proof._SEAL" in forged["certificate"]["reason"]
    assert rows["reachcat.honest"]["status"] == "proved"


def test_a_helper_module_that_reaches_taints_the_obligations_importing_it(tmp_path):
    make_catalogue(tmp_path, "reachhelp", {
        "util": "from checker.kernel import proof\nSEAL = proof._SEAL\n",
        "uses": "from . import util\n" + ob("reachhelp", "via_helper", "return trusted('x', grade=Grade.INSTANCES, over='1 point')\n"),
        "other": ob("reachhelp", "independent", "return trusted('a fixture', grade=Grade.INSTANCES, over='1 point')\n"),
    })
    out = cli(tmp_path, "--package", "reachhelp", "check", "--format", "json", "--no-cache")
    rows = {r["id"]: r for r in json.loads(out.stdout)["results"]}
    assert rows["reachhelp.via_helper"]["status"] == "error"
    assert "imports reachhelp.util, which reaches into the engine" in rows["reachhelp.via_helper"]["certificate"]["reason"]
    assert rows["reachhelp.independent"]["status"] == "proved"


@pytest.mark.parametrize("source", [
    "def f(smt):\n    smt.prove = 1\n",  # a parameter named like an engine import
    "from checker.backends import smt\n\ndef f(smt):\n    return smt._ctx\n",
    "class A:\n    __name__ = 'a'\n",
    "DATA = {'__name__': 'x'}\n",
    "from checker.claims import claim\nfor claim in []:\n    claim.seen = True\n",
])
def test_honest_code_named_like_the_engine_is_not_flagged(source):
    assert reaches(source) == []
