"""Mutants of the proof kernel and of the rules it trusts: each one accepts something without checking
it, and the probes below — what ``proved`` and ``refuted`` must mean — catch every one.

A probe is a small check of one rule with a case the rule must reject; on the real kernel every probe
passes (tested), and under each mutant at least one probe fails (tested). A kernel edit that weakens
a rule this way therefore turns this file red, whatever else still passes.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Callable

import pytest

from checker import Expect, Source, Status, obligation
from checker.audit import recheck
from checker.backends import exact, induction, interval, memo, smt
from checker.claims import claim
from checker.kernel import proof as kernel
from checker.kernel.model import Context, Grade
from checker.kernel.sized import sized_claim
from checker.kernel.verdicts import all_of, proved
from checker.run import runner

_ids = itertools.count()

RELU_LIP = claim("relu-1-lipschitz", "x y", lambda o, v: o.le(o.abs(o.relu(v.x) - o.relu(v.y)), o.abs(v.x - v.y)))
SQUARE_NONNEG = claim("square-nonneg", "x", lambda o, v: o.ge(v.x * v.x, 0))
FALSE_FOR_ALL = claim("x > 0", "x", lambda o, v: o.gt(v.x, 0))
POSITIVE_PRODUCT = claim("xy > 0", "x y", lambda o, v: o.gt(v.x * v.y, 0),
                         hypotheses={"x > 0": lambda o, v: o.gt(v.x, 0), "y > 0": lambda o, v: o.gt(v.y, 0)})
LEMMA_FALSE = claim("x + y > 1", "x y", lambda o, v: o.gt(v.x + v.y, 1))
SMALL_SQUARES = claim("n^2 < 2000", "n:int[0,50]", lambda o, v: o.lt(v.n * v.n, 2000))
BELOW_ONE = claim("x <= 1", "x", lambda o, v: o.le(v.x, 1))
# true for n = 1…4 and false at n = 5: the base holds, the step does not
UPTO4 = sized_claim("sum<=4max", "n:nat[1,]", "x[n]", lambda o, v: o.le(o.sum(v.x), 4 * o.maxv(v.x)),
                    {"x >= 0": lambda o, v: o.all(o.ge(v.x, 0))})
ROOT2_BELOW = claim("sqrt(2) < 7/5", "", lambda o, v: o.lt(o.sqrt(Fraction(2)), Fraction(7, 5)))


def _run(discharge: Callable[[Context], Any], theorem: Any = (), claims: Any = ()) -> Any:
    ob_id = f"kernelmutant.case{next(_ids)}"
    fn = obligation(id=ob_id, source=Source("k.txt", "L"), statement="S.", scope="s", expect=Expect.HOLDS,
                    theorem=theorem, claims=claims, no_theorem="" if theorem else "a test case without one")(discharge)
    result, _ = runner.execute(fn.obligation, Context(ob_id, 7, 60, False))
    return result


# ------------------------------------------------------------------ probes: each returns True when the rule holds


def only_backends_issue_facts() -> bool:
    try:
        kernel.issue(RELU_LIP, Grade.UNIVERSAL, "", [])
    except kernel.KernelError:
        return True
    return False


def a_hand_built_proof_is_an_error() -> bool:
    return _run(lambda ctx: proved("made up", grade=Grade.UNIVERSAL)).status is Status.ERROR


def a_proof_of_another_claim_does_not_prove_the_theorem() -> bool:
    return _run(lambda ctx: smt.prove(SQUARE_NONNEG, ctx), theorem=RELU_LIP).status is Status.UNKNOWN


def a_conjunction_is_as_weak_as_its_weakest_part() -> bool:
    strong = smt.prove(SQUARE_NONNEG)
    weak = exact.prove_at(RELU_LIP, [{"x": 1, "y": 2}])
    both = all_of("both", {"strong": strong, "weak": weak}, lemmas=True)
    return both.fact is not None and both.fact.grade is Grade.INSTANCES


def a_fact_is_never_strengthened() -> bool:
    weak = exact.prove_at(RELU_LIP, [{"x": 1, "y": 2}]).fact
    return kernel.weaken(weak, Grade.UNIVERSAL, "").grade is Grade.INSTANCES


def z3_proves_only_what_is_true() -> bool:
    return _run(lambda ctx: smt.prove(FALSE_FOR_ALL, ctx), theorem=FALSE_FOR_ALL).status is Status.REFUTED


def a_false_lemma_does_not_refute_the_theorem() -> bool:
    def with_lemma(ctx: Context) -> Any:
        return all_of("via a lemma", {"lemma": smt.prove(LEMMA_FALSE, ctx), "theorem": smt.prove(POSITIVE_PRODUCT, ctx)},
                      lemmas=True)

    return _run(with_lemma, theorem=POSITIVE_PRODUCT, claims=(LEMMA_FALSE,)).status is Status.UNKNOWN


def an_enumeration_visits_every_point() -> bool:
    return _run(lambda ctx: exact.enumerate_domain(SMALL_SQUARES), theorem=SMALL_SQUARES).status is Status.REFUTED


def a_box_proves_only_the_box() -> bool:
    v = interval.prove_on(BELOW_ONE, {"x": (0, 1)})
    return v.status is Status.PROVED and v.fact.grade is Grade.INSTANCES


def an_enclosure_proves_only_what_it_encloses() -> bool:
    return interval.prove_on(ROOT2_BELOW, {}).status is not Status.PROVED


def induction_checks_its_step() -> bool:
    return induction.prove(UPTO4).status is Status.UNKNOWN


def a_true_theorem_is_proved() -> bool:
    """The probes' accepting case: without it a mutant that rejects everything would pass them all."""
    return _run(lambda ctx: smt.prove(RELU_LIP, ctx), theorem=RELU_LIP).status is Status.PROVED


PROBES = (only_backends_issue_facts, a_hand_built_proof_is_an_error, a_proof_of_another_claim_does_not_prove_the_theorem,
          a_conjunction_is_as_weak_as_its_weakest_part, a_fact_is_never_strengthened, z3_proves_only_what_is_true,
          a_false_lemma_does_not_refute_the_theorem, an_enumeration_visits_every_point, a_box_proves_only_the_box,
          an_enclosure_proves_only_what_it_encloses, induction_checks_its_step, a_true_theorem_is_proved)


def failing_probes() -> list[str]:
    failed = []
    for probe in PROBES:
        try:
            ok = probe()
        except Exception:  # noqa: BLE001 - a probe that crashes under a mutant has caught it
            ok = False
        if not ok:
            failed.append(probe.__name__)
    return failed


# ------------------------------------------------------------------ mutants: rules that accept without checking


def _anyone_issues(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(kernel, "_caller_module", lambda depth: "checker.backends.mutant")


def _every_value_is_a_fact(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(kernel, "is_fact", lambda value: True)
    mp.setattr(runner.kernel, "is_fact", lambda value: True)


def _covers_anything(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(kernel, "covers", lambda fact, theorem: (True, ""))


def _conjoin_takes_the_strongest(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(kernel, "weakest", lambda grades: min(grades, key=lambda g: g.rank))


def _weaken_sets_any_grade(mp: pytest.MonkeyPatch) -> None:
    def weaken(fact: kernel.Fact, grade: Grade, over: str) -> kernel.Fact:
        return kernel.Fact(kernel._SEAL, fact.subjects, fact.names, grade, over, fact.ledger, fact.assumes)

    mp.setattr(kernel, "weaken", weaken)


def _z3_always_unsat(mp: pytest.MonkeyPatch) -> None:
    import z3

    mp.setattr(memo, "z3_check", lambda solver, limits: z3.unsat)


def _every_witness_refutes(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(recheck, "recheck_witness", lambda claims, witness, named=None: recheck.RecheckResult(
        recheck.Recheck.REFUTES, None, "mutant"))


def _enumeration_checks_the_first_point_only(mp: pytest.MonkeyPatch) -> None:
    real = exact.evaluate
    seen: list[int] = []

    def first_only(c: Any, point: Any) -> Any:
        ev = real(c, point)
        seen.append(1)
        return ev if len(seen) == 1 else real(c, {k: 0 for k in point})

    mp.setattr(exact, "evaluate", first_only)


def _a_box_is_the_whole_domain(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(interval, "_uncovered", lambda c, box: [])


def _an_undecided_enclosure_is_true(mp: pytest.MonkeyPatch) -> None:
    real = interval.decide

    def decide(c: Any, box: Any, prec: int = interval.DEFAULT_PREC) -> Any:
        whole, hyps, concl, terms = real(c, box, prec)
        return interval.Tri.TRUE, hyps, interval.Tri.TRUE, terms

    mp.setattr(interval, "decide", decide)


def _induction_without_its_step(mp: pytest.MonkeyPatch) -> None:
    real = induction._queries
    mp.setattr(induction, "_queries", lambda p: [(k, q) for k, q in real(p) if k != "step"])


MUTANTS = {
    "issue from anywhere": _anyone_issues,
    "anything is a fact": _every_value_is_a_fact,
    "covers anything": _covers_anything,
    "conjunction takes the strongest grade": _conjoin_takes_the_strongest,
    "weaken strengthens": _weaken_sets_any_grade,
    "z3 always unsat": _z3_always_unsat,
    "every witness refutes": _every_witness_refutes,
    "enumeration stops after one point": _enumeration_checks_the_first_point_only,
    "a box covers the domain": _a_box_is_the_whole_domain,
    "every enclosure is true": _an_undecided_enclosure_is_true,
    "induction without its step": _induction_without_its_step,
}


def test_every_probe_passes_on_the_real_kernel():
    assert failing_probes() == []


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_each_kernel_mutant_is_caught_by_a_probe(name, monkeypatch):
    with monkeypatch.context() as mp:
        MUTANTS[name](mp)
        caught = failing_probes()
    assert caught, f"the kernel mutant {name!r} accepts without checking and no probe noticed"
