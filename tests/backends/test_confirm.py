"""checker.backends.confirm: a second solver on every unsat a proof rests on.

Both unsat: confirmed in the ledger. The second solver over its budget, missing or switched off:
the proof stands, unconfirmed, with the reason. The second solver sat: the solvers disagree, and
the obligation is an error naming both answers, never proved.
"""

from __future__ import annotations

import dataclasses

import json
import os
import sys
from pathlib import Path

import pytest

from checker.backends import confirm, fp, memo, smt
from checker.claims import claim
from checker.kernel.claims import integer
from checker.kernel.model import Certificate, Context, Expect, Result, Source, Status
from tests.backends.corpus import AM_GM, INVALID, RELU_LIPSCHITZ

CTX = Context("tests.confirm", seed=3, timeout_s=30.0)
# n² ≥ n holds for every integer n, not for every real (n = 1/2): read as reals, it would be sat.
TYPED = claim("integer-square-ge", "n", lambda o, v: o.ge(v.n * v.n, v.n), domains={"n": integer()})


def _confirmations(verdict):
    """The confirmation entries of a proof's ledger, asked of cvc5 as the runner asks them (the
    proof is taken to be what a result rests on)."""
    return [e for e in confirm.resolved(verdict.fact.ledger) if e.kind == "confirmation"]


@pytest.fixture(autouse=True)
def confirming(monkeypatch, tmp_path):
    """Confirmation on, disagreements kept in this test's own directory, cvc5 looked up afresh."""
    monkeypatch.setenv(confirm.ENV_SWITCH, "1")
    monkeypatch.setenv(confirm.ENV_KEEP_DIR, str(tmp_path / "kept"))
    monkeypatch.setattr(confirm, "_CVC5", [])
    monkeypatch.setattr(confirm, "_BITWUZLA", [])


# ------------------------------------------------------------------ both unsat: confirmed


@pytest.mark.parametrize("c", [RELU_LIPSCHITZ, AM_GM], ids=lambda c: c.name)
def test_both_unsat_is_a_confirmation_entry_in_the_ledger(c):
    """z3 proves the claim, and cvc5 answers unsat on the same SMT-LIB problem: one confirmation
    entry, confirmed, naming cvc5, its version and the logic it was given."""
    v = smt.prove(c, CTX)
    assert v.status is Status.PROVED
    (entry,) = _confirmations(v)
    assert entry.detail["confirmed"] is True and entry.detail["answer"] == "unsat"
    assert entry.detail["solver"] == "cvc5" and entry.detail["version"] == confirm.cvc5_version()
    assert entry.text.startswith(f"cvc5 {confirm.cvc5_version()}: unsat")
    assert entry.detail["logic"] == ("QF_NRA" if c is AM_GM else "QF_LRA")


def test_the_fast_route_confirms_every_sign_pattern():
    """With ``cases``, z3 answers one query per sign pattern: cvc5 confirms each of them."""
    v = smt.prove(RELU_LIPSCHITZ, CTX, tactic=smt.ITE_SMT, cases=lambda o, v: [v.x, v.y])
    assert v.status is Status.PROVED
    (entry,) = _confirmations(v)
    assert entry.detail["queries"] == 4 and entry.detail["answers"] == {"unsat": 4} and entry.detail["confirmed"]


def test_a_typed_claim_is_confirmed_in_a_mixed_integer_logic():
    v = smt.prove(TYPED, CTX)
    assert v.status is Status.PROVED
    (entry,) = _confirmations(v)
    assert entry.detail["confirmed"] and entry.detail["logic"] == "QF_NIRA"


def test_a_refutation_has_no_confirmation_and_its_witness_is_rechecked():
    """Only unsat is confirmed: a false claim is refuted by z3's model, re-checked exactly."""
    entry = INVALID[0]
    v = smt.prove(entry.claim, CTX)
    assert v.status is Status.REFUTED and v.fact is None


def test_quoted_symbols_outside_ascii_are_spelled_so_cvc5_reads_them():
    """The induction rule's aggregates print as |sum⟨mul(W,x)⟩|, which cvc5 cannot parse: every query
    spells them in ASCII, one to one (a symbol already holding ~ cannot meet an escaped one), and
    cvc5 then answers the problem."""
    assert confirm.ascii_symbols("(declare-fun |ν| () Real) |~3bd~| x") == "(declare-fun |~3bd~| () Real) |~7e~3bd~7e~| x"
    assert confirm.ascii_symbols("(declare-fun |a~b| () Real)") == "(declare-fun |a~b| () Real)"  # all ASCII: as printed
    text = ("(declare-fun |sum⟨x⟩| () Real)\n(declare-fun x () Real)\n"
            "(assert (not (= |sum⟨x⟩| |sum⟨x⟩|)))\n")
    q = confirm.Query(text, "QF_LRA", "t")
    assert q.text.isascii() and "|sum~27e8~x~27e9~|" in q.text
    assert confirm.cvc5_check(q).answer == "unsat"
    # an aggregate named after another's printed term: z3 escapes the inner bars, as SMT-LIB does not allow
    nested = "(declare-fun |all⟨le(x,\\|sum⟦y⟧\\|)⟩| () Bool)\n(declare-fun |x\\\\y| () Real)\n(assert (not |all⟨le(x,\\|sum⟦y⟧\\|)⟩|))\n"
    spelled = confirm.ascii_symbols(nested)
    assert spelled.isascii() and "\\" not in spelled and spelled.count("|all~27e8~le(x,~7c~sum~27e6~y~27e7~~7c~)~27e9~|") == 2
    assert "|x~5c~y|" in spelled
    assert confirm.cvc5_check(confirm.Query(nested, "QF_UF", "t")).answer == "sat"  # read, and answered


def test_the_real_relaxation_reads_integers_as_reals_and_only_where_that_is_sound():
    """Integer constants become reals and to_real disappears, under the real logic; a query using
    what only integers have (div, mod, to_int, an integer-sorted function) has no relaxation."""
    q = confirm.Query("(declare-fun n () Int)\n(declare-fun x () Real)\n(assert (> (* (to_real n) x) 1.0))\n", "QF_NIRA", "t")
    r = confirm.real_relaxation(q)
    assert r.logic == "QF_NRA" and "(declare-fun n () Real)" in r.text and "to_real" not in r.text
    assert confirm.real_relaxation(confirm.Query("(declare-fun n () Int)\n(assert (> n 1))\n", "QF_LIA", "t")).logic == "QF_LRA"
    for text in ("(declare-fun n () Int)\n(assert (= (mod n 2) 1))\n", "(declare-fun n () Int)\n(assert (= (div n 2) 1))\n",
                 "(declare-fun f (Int) Real)\n(assert (> (f 1) 0.0))\n"):
        assert confirm.real_relaxation(confirm.Query(text, "QF_NIA", "t")) is None
    assert confirm.real_relaxation(confirm.Query("(declare-fun x () Real)\n(assert (> x 1.0))\n", "QF_LRA", "t")) is None


def _staged_answers(monkeypatch, original, relaxed):
    def staged(cvc5, version, query, rlimit, cpu_s, first_try_only=False, relaxation=False):
        answer = relaxed if query.what.endswith("(real relaxation)") else original
        return confirm.Answer("cvc5", version, answer, "" if answer != "unknown" else "no proof within its limits")
    monkeypatch.setattr(confirm, "_staged", staged)


INTEGER_QUERY = confirm.Query("(declare-fun n () Int)\n(assert (> (* n n) 1))\n", "QF_NIA", "¬(c)")


def test_an_unsat_of_the_real_relaxation_confirms_and_says_so(monkeypatch):
    _staged_answers(monkeypatch, "unknown", "unsat")
    a = confirm.cvc5_check(INTEGER_QUERY)
    assert a.answer == "unsat" and a.reason == confirm.RELAXED
    entry = confirm.confirmation_entry([a], [INTEGER_QUERY], "¬(c)")
    assert entry.detail["confirmed"] and entry.detail["relaxed"] == 1 and "real relaxation" in entry.text


def test_a_sat_of_the_real_relaxation_is_no_disagreement(monkeypatch):
    """A real model of the relaxation need not be an integer one: the query itself is then put, and
    stays unconfirmed, never a disagreement; a sat of the query itself still is one."""
    _staged_answers(monkeypatch, "unknown", "sat")
    a = confirm.cvc5_check(INTEGER_QUERY)
    assert a.answer == "unknown" and "real relaxation: sat" in a.reason
    _staged_answers(monkeypatch, "sat", "sat")
    assert confirm.cvc5_check(INTEGER_QUERY).answer == "sat"
    _staged_answers(monkeypatch, "unsat", "unknown")
    a = confirm.cvc5_check(INTEGER_QUERY)
    assert a.answer == "unsat" and a.reason != confirm.RELAXED


def test_the_real_relaxation_is_put_first(monkeypatch):
    """Its unsat settles the query: the query itself is not put."""
    asked = []

    def staged(cvc5, version, query, rlimit, cpu_s, first_try_only=False, relaxation=False):
        asked.append(query.what)
        return confirm.Answer("cvc5", version, "unsat" if query.what.endswith("(real relaxation)") else "unknown")

    monkeypatch.setattr(confirm, "_staged", staged)
    assert confirm.cvc5_check(INTEGER_QUERY).reason == confirm.RELAXED
    assert asked == ["¬(c) (real relaxation)"]


def test_the_real_relaxation_gets_the_first_try_and_its_resumption_and_the_query_its_own(monkeypatch):
    """The relaxation is a shortcut: cvc5's first try at it (resumed for longer where it was stopped),
    then every try at the query itself (the first only where the proof is unconfirmed already)."""
    asked = []

    def staged(cvc5, version, query, rlimit, cpu_s, first_try_only=False, relaxation=False):
        asked.append((query.what, first_try_only, relaxation))
        return confirm.Answer("cvc5", version, "unknown", "no proof within its limits")

    monkeypatch.setattr(confirm, "_staged", staged)
    confirm.cvc5_check(INTEGER_QUERY)
    assert asked == [("¬(c) (real relaxation)", False, True), ("¬(c)", False, False)]
    asked.clear()
    confirm.cvc5_check(INTEGER_QUERY, first_try_only=True)
    assert asked == [("¬(c) (real relaxation)", True, True), ("¬(c)", True, False)]
    first, *_, long = confirm.REAL_TRIES
    resumed = dataclasses.replace(long, cpu_s=confirm.RELAXATION_RESUMED_S)
    assert confirm.tries_for("QF_NRA", relaxation=True) == (first, resumed) and long.after_stop
    assert first.cpu_s < resumed.cpu_s < long.cpu_s  # resumed, for less long than the query itself
    assert confirm.tries_for("QF_NRA", first_try_only=True, relaxation=True) == (first,)
    assert confirm.tries_for("QF_LRA", relaxation=True) == confirm.OTHER_TRIES


# ------------------------------------------------------------------ asked only for what a result rests on


def _counting(monkeypatch):
    asked = []

    def check(query, *args, **kwargs):
        asked.append(query.what)
        return confirm.Answer("cvc5", confirm.cvc5_version(), "unsat")

    monkeypatch.setattr(confirm, "cvc5_check", check)
    return asked


def test_a_step_is_put_to_cvc5_only_when_a_result_rests_on_it_and_once(monkeypatch):
    """z3's proof alone asks cvc5 nothing: its ledger holds a pending confirmation. Resolving it (the
    runner does, for a proved result) asks cvc5 once per query, however often the ledger is read."""
    asked = _counting(monkeypatch)
    v = smt.prove(RELU_LIPSCHITZ, CTX)
    assert v.status is Status.PROVED and asked == []
    assert [confirm.is_pending(e) for e in v.fact.ledger if e.kind == "confirmation"] == [True]
    assert _confirmations(v)[0].detail["confirmed"] and asked == [f"¬({RELU_LIPSCHITZ.name})"]
    _confirmations(v)
    assert len(asked) == 1


def test_the_runner_confirms_the_proof_and_not_its_cross_check(monkeypatch):
    """Through the runner: a proof with a z3 cross-check recorded as data. The proof's query goes to
    cvc5 and its ledger says confirmed; the cross-check's, which no result rests on, never does."""
    from checker import Expect, Source, obligation
    from checker.run.runner import execute
    from obligations.grading import cross_checked

    asked = _counting(monkeypatch)

    def discharge(ctx):
        return cross_checked(smt.prove(RELU_LIPSCHITZ, ctx), {"am-gm": smt.prove(AM_GM, ctx)})

    fn = obligation(id="confirmtest.cross_checked", source=Source("k.txt", "L"), statement="S.", scope="s",
                    expect=Expect.HOLDS, theorem=RELU_LIPSCHITZ)(discharge)
    result, _ = execute(fn.obligation, Context("confirmtest.cross_checked", 7, 60, False))
    assert result.status is Status.PROVED
    assert asked == [f"¬({RELU_LIPSCHITZ.name})"]
    confirmations = [e for e in result.certificate.ledger if e["kind"] == "confirmation"]
    assert [e["detail"]["confirmed"] for e in confirmations] == [True]
    assert not any(confirm.is_pending(e) for e in result.certificate.ledger)


def test_a_received_proof_with_a_pending_confirmation_is_rejected():
    """A result frame is data: a proof whose ledger still holds a confirmation never asked of cvc5
    did not come through a job's validation, and the parent refuses it."""
    from checker import Expect, Source, obligation
    from checker.run.runner import validated
    from checker.kernel.model import Grade, Verdict

    fn = obligation(id="confirmtest.pending_frame", source=Source("k.txt", "L"), statement="S.", scope="s",
                    expect=Expect.HOLDS, theorem=RELU_LIPSCHITZ)(lambda ctx: None)
    ledger = ({"kind": "solver", "text": "z3: unsat"},
              {"kind": "confirmation", "text": "to be put to cvc5", "detail": {"pending": "1-0", "queries": 1}})
    frame = Verdict(Status.PROVED, Certificate(method="z3", ledger=ledger, grade=Grade.UNIVERSAL))
    checked = validated(fn.obligation, frame, received=True)
    assert checked.status is Status.ERROR and "never asked of the second solver" in checked.certificate.reason
    resolved = Verdict(Status.PROVED, Certificate(method="z3", ledger=ledger[:1], grade=Grade.UNIVERSAL))
    assert validated(fn.obligation, resolved, received=True).status is Status.PROVED


# ------------------------------------------------------------------ cvc5 cannot confirm: unconfirmed


def test_cvc5_over_its_resource_budget_leaves_the_proof_standing_unconfirmed(monkeypatch):
    """A budget of 1 resource unit: cvc5 answers unknown, the z3 proof stands, and the ledger says
    it is unconfirmed and why."""
    monkeypatch.setattr(confirm, "CVC5_RLIMIT", 1)
    v = smt.prove(AM_GM, CTX)
    assert v.status is Status.PROVED
    (entry,) = _confirmations(v)
    assert entry.detail["confirmed"] is False and entry.detail["answer"] == "unknown"
    assert entry.text.startswith("unconfirmed: cvc5") and "no proof within its limits (1 resource units" in entry.text


# z3 proves this (a piece of the descent lemma, with |·| as ite) in under a second; cvc5 1.4 runs for
# minutes inside its nonlinear procedure without checking its own time limit.
STUCK = """(declare-fun eta () Real)
(declare-fun grad2 () Real)
(declare-fun grad1 () Real)
(declare-fun grad0 () Real)
(declare-fun lr () Real)
(declare-fun g2 () Real)
(declare-fun g1 () Real)
(declare-fun g0 () Real)
(assert (let ((a!1 (<= (ite (>= (- g0 grad0) 0.0) (- g0 grad0) (- (- g0 grad0))) eta))
      (a!2 (<= (ite (>= (- g1 grad1) 0.0) (- g1 grad1) (- (- g1 grad1))) eta))
      (a!3 (<= (ite (>= (- g2 grad2) 0.0) (- g2 grad2) (- (- g2 grad2))) eta))
      (a!4 (+ (* 0.0 lr)
              (ite (>= grad0 0.0) grad0 (- grad0))
              (ite (>= grad1 0.0) grad1 (- grad1))
              (ite (>= grad2 0.0) grad2 (- grad2))))
      (a!7 (+ (* 0.0 lr)
              (ite (>= (* lr g0) 0.0) (* lr g0) (- (* lr g0)))
              (ite (>= (* lr g1) 0.0) (* lr g1) (- (* lr g1)))
              (ite (>= (* lr g2) 0.0) (* lr g2) (- (* lr g2))))))
(let ((a!5 (+ (* (- lr)
                 (+ (* 0.0 lr) (* grad0 grad0) (* grad1 grad1) (* grad2 grad2)))
              (* lr eta a!4)))
      (a!8 (<= a!7 (* lr (+ a!4 (* 3.0 eta))))))
(let ((a!6 (<= (+ (* 0.0 lr)
                  (* (- lr) g0 grad0)
                  (* (- lr) g1 grad1)
                  (* (- lr) g2 grad2))
               a!5)))
  (not (=> (and (> lr 0.0) a!1 a!2 a!3) (and a!6 a!8)))))))
"""


def test_the_processor_time_limit_stops_cvc5_where_its_own_limits_do_not():
    """cvc5's coverings procedure spends few resource units on STUCK while it runs for minutes: that
    try's child is stopped by its processor-time limit (RLIMIT_CPU), and the answer is an unknown
    whose reason does not say how the tries ended (that is the machine-dependent observation)."""
    import time

    start = time.perf_counter()
    a = confirm.cvc5_check(confirm.Query(STUCK, "QF_NRA"), cpu_s=1)
    assert time.perf_counter() - start < 30
    assert a.answer == "unknown" and a.cut and a.reason.startswith("no proof within its limits")
    assert a.cpu_s is not None and 0.9 <= a.cpu_s < 5


def test_a_stopped_try_is_shared_within_the_run_and_leaves_the_same_ledger_as_one_out_of_units(tmp_path):
    """A try stopped at its processor-time limit is read back by the next job of the run (on the same
    machine it would be stopped alike, after costing its whole limit again), and the ledger entry of
    the query is the same as when both tries run out of resource units: which it was is not in the
    certificate. A different limit is a different question: it is not read back."""
    memo.use(tmp_path)
    try:
        query = confirm.Query(STUCK, "QF_NRA")
        first, second = confirm.cvc5_check(query, cpu_s=1), confirm.cvc5_check(query, cpu_s=1)
        longer = confirm.cvc5_check(query, cpu_s=2)
    finally:
        memo.use(None)
    assert first.cut and not first.shared and second.cut and second.shared and second.answer == first.answer
    assert longer.cut and not longer.shared
    out_of_units = confirm.cvc5_check(query, rlimit=1, cpu_s=1)
    assert not out_of_units.cut and out_of_units.answer == "unknown"

    def ledger(a):  # the entry, timing left out and the resource limit (1 unit here) written alike
        import re

        e = confirm.confirmation_entry([a], [query], "¬(stuck)").to_json()
        e["detail"].pop("time_s")
        return json.loads(re.sub(r"\(([0-9,]+) resource units", "(N resource units", json.dumps(e)))

    assert ledger(first) == ledger(out_of_units) and ledger(first)["detail"]["confirmed"] is False


def test_the_ledger_is_the_same_whichever_job_computed_the_answer(tmp_path):
    """An answer read back from another job of the run gives the same ledger entry (timing aside) as
    one computed here: nothing in it depends on the order of the jobs."""
    query = confirm.Query("(declare-fun x () Real)\n(assert (< (* x x) 0.0))\n", "QF_NRA")
    memo.use(tmp_path)
    try:
        first, second = confirm.cvc5_check(query), confirm.cvc5_check(query)
    finally:
        memo.use(None)
    assert not first.shared and second.shared

    def entry(a):
        return {k: v for k, v in confirm.confirmation_entry([a], [query], "¬(q)").to_json().items() if k != "detail"} | {
            "detail": {k: v for k, v in confirm.confirmation_entry([a], [query], "¬(q)").detail.items() if k != "time_s"}}

    assert entry(first) == entry(second) and entry(first)["detail"]["confirmed"] is True


def test_a_missing_cvc5_gives_unconfirmed_with_a_one_line_note_not_a_crash(monkeypatch):
    """``import cvc5`` fails (the package is not installed): the proof stands, unconfirmed, and
    the note for the command line is one line naming the fix."""
    monkeypatch.setitem(sys.modules, "cvc5", None)  # makes `import cvc5` raise ImportError
    v = smt.prove(RELU_LIPSCHITZ, CTX)
    assert v.status is Status.PROVED
    (entry,) = _confirmations(v)
    assert entry.detail["confirmed"] is False and "cvc5 is not installed" in entry.text
    notes = confirm.missing_notes()
    assert len(notes) == 1 and "\n" not in notes[0] and "pip install cvc5" in notes[0]


def test_with_cvc5_installed_there_is_no_note():
    assert confirm.missing_notes() == []


def test_confirmation_switched_off_is_unconfirmed_and_cvc5_is_not_asked(monkeypatch):
    monkeypatch.setenv(confirm.ENV_SWITCH, "0")
    monkeypatch.setattr(confirm, "cvc5_check", lambda *a, **k: pytest.fail("cvc5 was asked with confirmation off"))
    v = smt.prove(RELU_LIPSCHITZ, CTX)
    assert v.status is Status.PROVED
    (entry,) = _confirmations(v)
    assert entry.detail["confirmed"] is False and "off" in entry.text


# ------------------------------------------------------------------ cvc5 sat: the solvers disagree


def _planted(answer):
    def check(query, *args, **kwargs):
        return confirm.Answer("cvc5", confirm.cvc5_version(), answer)
    return check


def test_a_planted_disagreement_is_raised_naming_both_answers_and_keeps_the_problem(monkeypatch, tmp_path):
    """cvc5 made to answer sat on a claim z3 proves: no proof; the error names both answers, and
    the SMT-LIB problem is kept as a standalone script for a bug report."""
    monkeypatch.setattr(confirm, "cvc5_check", _planted("sat"))
    with pytest.raises(confirm.SolverDisagreement) as raised:
        _confirmations(smt.prove(RELU_LIPSCHITZ, CTX))
    message = str(raised.value)
    assert "z3" in message and "answered unsat" in message and "cvc5" in message and "answered sat" in message
    assert [a.answer for a in raised.value.answers] == ["unsat", "sat"]
    kept = Path(raised.value.path)
    assert kept.parent == tmp_path / "kept" and kept.read_text().count("(check-sat)") == 1
    assert "(set-logic QF_LRA)" in kept.read_text() and "cvc5" in kept.read_text()


def test_the_same_plant_answering_unsat_proves(monkeypatch):
    """The rejecting case's twin: the planted second solver agreeing leaves the proof confirmed."""
    monkeypatch.setattr(confirm, "cvc5_check", _planted("unsat"))
    v = smt.prove(RELU_LIPSCHITZ, CTX)
    assert v.status is Status.PROVED and _confirmations(v)[0].detail["confirmed"]


def test_a_disagreement_makes_the_obligation_an_error_never_proved(monkeypatch):
    """Through the runner, as a check runs it: the obligation whose z3 proof cvc5 contradicts is an
    error whose reason names both answers."""
    from tests.helpers import run_obligation

    ob_id = "lean_mlp.relu_lipschitz"
    assert run_obligation(ob_id).status is Status.PROVED
    monkeypatch.setattr(confirm, "cvc5_check", _planted("sat"))
    r = run_obligation(ob_id)
    assert r.status is Status.ERROR
    assert "SolverDisagreement" in r.certificate.reason
    assert "answered unsat" in r.certificate.reason and "cvc5" in r.certificate.reason and "answered sat" in r.certificate.reason


# ------------------------------------------------------------------ floating point: bitwuzla, z3 confirming


def test_relu_exact_in_float_shows_both_solvers():
    """bitwuzla proves the ReLU lemma and z3 confirms it: both in the ledger."""
    from obligations.lean_mlp import float_lemmas as fl

    v = fl.relu_exact()
    assert v.status is Status.PROVED
    solver = [e for e in v.fact.ledger if e.kind == "solver"]
    assert [e.detail["solver"] for e in solver] == ["bitwuzla"]
    (entry,) = _confirmations(v)
    assert entry.detail["solver"] == "z3" and entry.detail["confirmed"] is True


def test_a_bitwuzla_model_that_does_not_recheck_is_no_refutation(monkeypatch):
    """bitwuzla's witness is a candidate: the exact re-check (here made to reject every point) has
    the last word, and z3, deciding then, finds the same kind of model: unknown, never refuted."""
    import z3

    def build(t):
        x = t.var32("x")
        return z3.Not(t.finite(x)), {"x": x}

    v = fp.prove("every binary32 is not finite", build, lambda point: None, over="every binary32 x")
    assert v.status is Status.UNKNOWN
    w = fp.prove("every binary32 is not finite", build, lambda point: {"x": point["x"]}, over="every binary32 x")
    assert w.status is Status.REFUTED and w.certificate.steps[0].version.startswith("bitwuzla")


def test_bitwuzla_sat_against_z3_unsat_is_a_disagreement(monkeypatch):
    """A planted bitwuzla sat (with a model that does not re-check) on a lemma z3 proves."""
    from obligations.lean_mlp import float_lemmas as fl

    monkeypatch.setattr(confirm, "bitwuzla_check",
                        lambda query, bits=(), timeout_ms=0: confirm.Answer("bitwuzla", "0", "sat",
                                                                            model={b: "0" * 32 for b in bits}))
    with pytest.raises(confirm.SolverDisagreement, match="bitwuzla 0 answered sat"):
        fl.relu_exact()


def test_a_missing_bitwuzla_leaves_z3_alone_and_unconfirmed(monkeypatch):
    from obligations.lean_mlp import float_lemmas as fl

    monkeypatch.setitem(sys.modules, "bitwuzla", None)
    v = fl.relu_exact()
    assert v.status is Status.PROVED
    assert [e.detail.get("solver") for e in v.fact.ledger if e.kind == "solver"] == ["z3"]
    (entry,) = _confirmations(v)
    assert entry.detail["confirmed"] is False and "bitwuzla is not installed" in entry.text


# ------------------------------------------------------------------ logics, sharing


def test_logic_of_names_the_fragment():
    import z3

    ctx = z3.main_ctx()  # z3's floating-point helpers build in the main context
    x, y = z3.Real("x", ctx), z3.Real("y", ctx)
    k = z3.Int("k", ctx)
    assert confirm.logic_of([x + 2 * y > 1]) == "QF_LRA"
    assert confirm.logic_of([x * y > 1]) == "QF_NRA"
    assert confirm.logic_of([x * 3 / 4 > y / 2]) == "QF_LRA"
    assert confirm.logic_of([x / y > 1]) == "QF_NRA"
    assert confirm.logic_of([k * 3 > 1]) == "QF_LIA"
    assert confirm.logic_of([z3.ToReal(k) * x > 1]) == "QF_NIRA"
    f = z3.FP("f", z3.Float32(ctx))
    assert confirm.logic_of([z3.fpIsNaN(f)]) == "QF_FP"
    assert confirm.logic_of([z3.fpToIEEEBV(f) == 0]) == "QF_BVFP"
    assert confirm.logic_of([z3.And(z3.fpIsNaN(f), x > 0)]) == "ALL"
    g = z3.Function("g", z3.RealSort(ctx), z3.RealSort(ctx))
    assert confirm.logic_of([g(x) > 2 * x]) == "QF_UFLRA"
    assert confirm.logic_of([z3.ForAll([y], x * y >= 0)]) == "NRA"  # a bound variable is not a constant
    assert confirm.logic_of([z3.ForAll([y], 2 * y >= x)]) == "LRA"
    assert confirm.logic_of([x ** 2 > 1]) == "QF_NRA"
    assert confirm.logic_of([z3.ToInt(x) > 1]) == "QF_LIRA"
    shared = x * y
    assert confirm.logic_of([shared > 1, shared + x > 2, z3.Or(shared < 0, x > 0)]) == "QF_NRA"  # a DAG, each node once
    assert confirm.logic_of([]) == "QF_UF"


def test_answers_are_shared_within_a_run(tmp_path):
    """Within a run the second job asking the same query reads cvc5's answer back; outside a run
    every call asks cvc5."""
    query = confirm.Query("(declare-fun x () Real)\n(assert (< (* x x) 0.0))\n", "QF_NRA")
    assert not confirm.cvc5_check(query).shared
    memo.use(tmp_path)
    try:
        first, second = confirm.cvc5_check(query), confirm.cvc5_check(query)
    finally:
        memo.use(None)
    assert first.answer == second.answer == "unsat"
    assert not first.shared and second.shared


def test_a_query_outside_its_logic_is_read_under_all():
    query = confirm.Query("(declare-fun k () Int)\n(assert (< k k))\n", "QF_LRA")
    a = confirm.cvc5_check(query)
    assert a.answer == "unsat" and "ALL" in a.reason


def test_a_query_cvc5_cannot_read_is_unavailable_not_a_crash():
    query = confirm.Query("(declare-fun x () Real)\n(assert (frobnicate x))\n", "QF_LRA")
    a = confirm.cvc5_check(query)
    assert a.answer == "unavailable" and "cannot read" in a.reason


# ------------------------------------------------------------------ the summary line


def _result(ledger):
    from checker.kernel.model import Grade

    return Result("x.y", Source("f", "l"), "s", "scope", Expect.HOLDS, Status.PROVED,
                  Certificate("m", grade=Grade.UNIVERSAL, ledger=tuple(ledger)), 0.1)


SOLVER = {"kind": "solver", "text": "z3: unsat"}
CONFIRMED = {"kind": "confirmation", "text": "cvc5: unsat", "detail": {"confirmed": True}}
UNCONFIRMED = {"kind": "confirmation", "text": "unconfirmed: cvc5 answered unknown", "detail": {"confirmed": False}}


def test_the_summary_line_counts_confirmed_and_unconfirmed_proofs():
    from checker.report.reports import summary, summary_line

    results = [_result([SOLVER, CONFIRMED]), _result([SOLVER, CONFIRMED, SOLVER, UNCONFIRMED]),
               _result([SOLVER]), _result([{"kind": "simplification", "text": "sympy"}])]
    counts = summary(results)["kernel"]
    assert counts["confirmed"] == 1 and counts["unconfirmed"] == 2
    assert "solver proofs: 1 confirmed by two solvers, 2 unconfirmed" in summary_line(results)


def test_an_induction_confirmed_on_all_its_queries_counts_as_confirmed():
    """An induction's ledger has a solver entry per query (base, step, close) and one confirmation of
    all of them: confirmed when that confirmation covers as many queries as the solver answered, and
    unconfirmed when it covers fewer (a query nobody confirmed)."""
    from checker.report.reports import confirmation_state

    steps = [{"kind": "solver", "text": f"z3: ¬({label} of c) unsat"} for label in ("base", "step", "close")]
    of_three = {"kind": "confirmation", "text": "cvc5: unsat on all 3 queries", "detail": {"confirmed": True, "queries": 3}}
    of_two = {"kind": "confirmation", "text": "cvc5: unsat on all 2 queries", "detail": {"confirmed": True, "queries": 2}}
    assert confirmation_state(_result([*steps, of_three])) == "confirmed"
    assert confirmation_state(_result([*steps, of_two])) == "unconfirmed"
    patterns = {"kind": "solver", "text": "z3: unsat", "detail": {"queries": 4}}
    assert confirmation_state(_result([patterns, {**of_three, "detail": {"confirmed": True, "queries": 4}}])) == "confirmed"
    assert confirmation_state(_result([patterns, CONFIRMED])) == "unconfirmed"


def test_the_summary_line_says_nothing_of_solvers_without_solver_proofs():
    from checker.report.reports import summary_line

    assert "solver proofs" not in summary_line([_result([{"kind": "simplification", "text": "sympy"}])])


# ------------------------------------------------------------------ the command line


def test_show_smt2_exports_standalone_scripts_a_second_solver_reruns(tmp_path):
    """``show ID --smt2 DIR``: one file per query, each a standalone script with its logic and the
    answers it got, that cvc5 (run here from the file alone) answers unsat."""
    import cvc5

    from tests.helpers import cli

    out = cli("show", "lean_mlp.relu_lipschitz", "--smt2", str(tmp_path))
    assert out.returncode == 0, out.stderr
    files = sorted(tmp_path.glob("*.smt2"))
    assert files and [str(f) for f in files] == out.stdout.split()
    for f in files:
        text = f.read_text()
        assert text.count("(set-logic ") == 1 and text.rstrip().endswith("(check-sat)") and "answers: z3" in text
        tm = cvc5.TermManager()
        solver = cvc5.Solver(tm)
        symbols = cvc5.SymbolManager(tm)
        parser = cvc5.InputParser(solver, symbols)
        parser.setFileInput(cvc5.InputLanguage.SMT_LIB_2_6, str(f))
        said = []
        while True:
            command = parser.nextCommand()
            if command.isNull():
                break
            said.append(command.invoke(solver, symbols).strip())
        assert "unsat" in said


def test_show_smt2_of_an_obligation_without_solver_queries_says_so(tmp_path):
    from tests.helpers import cli

    out = cli("show", "psy01a.parameter_count", "--smt2", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "put no query to an SMT solver" in out.stderr and not list(tmp_path.glob("*.smt2"))


def test_no_confirm_on_the_command_line_reports_proofs_unconfirmed(tmp_path):
    from tests.helpers import cli

    report = tmp_path / "r.json"
    on = cli("check", "lean_mlp.relu_lipschitz", "--no-cache", "--no-baseline", "-q", "--format", "json", "-o", str(report))
    assert on.returncode == 0, on.stderr
    assert json.loads(report.read_text())["summary"]["kernel"]["confirmed"] == 1
    off = cli("check", "lean_mlp.relu_lipschitz", "--no-cache", "--no-baseline", "-q", "--no-confirm", "--format", "json",
              "-o", str(report))
    assert off.returncode == 0, off.stderr
    kernel = json.loads(report.read_text())["summary"]["kernel"]
    assert kernel["confirmed"] == 0 and kernel["unconfirmed"] == 1


def test_a_missing_cvc5_is_a_one_line_note_on_the_command_line(tmp_path):
    """A ``cvc5`` that fails to import (first on the path): one note on stderr, the check passes,
    the proof is counted unconfirmed."""
    from tests.helpers import cli

    fake = tmp_path / "fake" / "cvc5"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('no cvc5 here')\n")
    report = tmp_path / "r.json"
    import os

    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path / "fake"), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    out = cli("check", "lean_mlp.relu_lipschitz", "--no-cache", "--no-baseline", "-q", "--format", "json", "-o", str(report),
              env=env)
    assert out.returncode == 0, out.stderr
    notes = [line for line in out.stderr.splitlines() if "cvc5 is not installed" in line]
    assert len(notes) == 1 and notes[0].startswith("obligations: note: ")
    doc = json.loads(report.read_text())
    assert doc["summary"]["kernel"]["unconfirmed"] == 1 and doc["results"][0]["status"] == "proved"


def test_confirm_false_in_the_configuration_and_a_bad_value(tmp_path):
    from checker.face import config
    from checker.kernel.errors import UsageError

    (tmp_path / "pyproject.toml").write_text("[tool.obligations]\nconfirm = false\n")
    assert config.load(tmp_path).confirm is False
    (tmp_path / "pyproject.toml").write_text("[tool.obligations]\nconfirm = \"no\"\n")
    with pytest.raises(UsageError, match="confirm"):
        config.load(tmp_path)


def test_only_the_second_solver_may_mark_its_child_self_contained():
    """The recorder of a job's reads takes any process a job starts as one that may read anything,
    except the second solver's own child (it reads no file); nothing else can claim that."""
    from checker.kernel import model

    with pytest.raises(TypeError, match="only checker.backends.confirm"):
        with model.self_contained_child():
            pass
    assert not model.starting_self_contained_child()


def test_the_coverings_tries_are_made_only_where_coverings_apply(tmp_path, monkeypatch):
    """With integers or linear arithmetic cvc5 makes one try; over the nonlinear reals the short
    coverings try and the linearisation, and the longer coverings try only after the short one was
    stopped (a try out of resource units would end alike again). The reason names the limits of
    every try of the logic, however many were made."""
    log = tmp_path / "tries.jsonl"
    monkeypatch.setenv(confirm.ENV_LOG, str(log))
    nia = confirm.Query("(declare-fun n () Int)\n(declare-fun m () Int)\n(assert (= (* n n) (+ (* 2 m m) 0)))\n"
                        "(assert (> n 0))\n(assert (= (mod n 7) 3))\n", "QF_NIA")
    one = confirm.cvc5_check(nia, rlimit=1)
    assert one.answer == "unknown" and confirm.limits_text(confirm.OTHER_TRIES) in one.reason
    nra = confirm.Query("(declare-fun x () Real)\n(declare-fun y () Real)\n(assert (> (* x y) (+ (* x x) (* y y))))\n",
                        "QF_NRA")
    two = confirm.cvc5_check(nra, rlimit=1)
    assert two.answer == "unknown" and confirm.limits_text(confirm.REAL_TRIES) in two.reason
    stuck = confirm.cvc5_check(confirm.Query(STUCK, "QF_NRA"))
    assert stuck.reason == two.reason.replace("1 resource units", f"{confirm.CVC5_RLIMIT:,} resource units")
    made = [len(json.loads(line)["tries"]) for line in log.read_text().splitlines()]
    assert made == [1, len(confirm.REAL_TRIES) - 1, len(confirm.REAL_TRIES)]  # out of units: no longer coverings try; stopped: one
    assert confirm.coverings_apply("QF_NRA") and confirm.coverings_apply("QF_UFNRA")
    assert not confirm.coverings_apply("QF_NIRA") and not confirm.coverings_apply("QF_LRA")


def test_the_ledger_does_not_say_which_try_answered():
    """An unsat from the short coverings try and one from a later try (the short one stopped at its
    limit on a slower or busier machine) leave the same ledger entry: the resource units, which
    differ between the tries, are not in it."""
    query = confirm.Query("(declare-fun x () Real)\n(assert (< (* x x) 0.0))\n", "QF_NRA")
    short = confirm.Answer("cvc5", "1", "unsat", "", 1200, 0.01)
    later = confirm.Answer("cvc5", "1", "unsat", "", 98000, 1.2, cut=True, cpu_s=1.5)

    def entry(a):
        e = confirm.confirmation_entry([a], [query], "¬(q)").to_json()
        e["detail"].pop("time_s")
        return e

    assert entry(short) == entry(later) and entry(short)["detail"]["confirmed"] is True


def test_a_try_is_stopped_at_its_limit_even_where_the_parent_blocks_the_signal():
    """The child unblocks the timer's signal: a parent that blocks SIGPROF (a mask the child would
    inherit) does not let a try run on to the whole-second backstop."""
    import signal
    import time

    def spin():
        end = time.process_time() + 30
        while time.process_time() < end:
            pass
        return confirm.Answer("cvc5", "", "unsat")

    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGPROF})
    try:
        a = confirm._guarded(spin, 0.3)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    assert a.answer == "unknown" and a.cut and "0.3 s" in a.reason
    assert a.cpu_s is not None and a.cpu_s < 1.5  # the backstop (RLIMIT_CPU) would have let it run 2 s


def test_after_a_step_left_unconfirmed_the_later_steps_get_a_short_look_only(monkeypatch):
    """A proof is unconfirmed once one of its steps is: its later steps are each put to cvc5's first
    try only, limited to LOOK_S (an unsat still confirms the step, a sat is still a disagreement),
    and the entry says why when that try gives no proof. The same step resting on a proof with
    nothing unconfirmed before it gets every try at their own limits."""
    asked = []

    def check(query, rlimit=None, cpu_s=None, first_try_only=False):
        assert cpu_s == (confirm.LOOK_S if first_try_only else None)
        asked.append((query.what, first_try_only))
        answer = "unknown" if query.what in ("¬(hard)", "¬(later hard)") else "unsat"
        return confirm.Answer("cvc5", confirm.cvc5_version(), answer, "" if answer == "unsat" else "no proof within its limits")

    monkeypatch.setattr(confirm, "cvc5_check", check)
    z3_unsat = confirm.Answer("z3", "4", "unsat")

    def step(what):
        return confirm.on_demand([confirm.Query("(assert false)\n", "QF_LRA", what)], z3_unsat, what)

    easy, hard, later, later_hard = step("¬(easy)"), step("¬(hard)"), step("¬(later)"), step("¬(later hard)")
    out = confirm.resolved([easy, hard, later, later_hard])
    assert asked == [("¬(easy)", False), ("¬(hard)", False), ("¬(later)", True), ("¬(later hard)", True)]
    assert [e.detail["confirmed"] for e in out] == [True, False, True, False]
    assert "first_try_only" not in out[1].detail and "short look" not in out[1].text
    assert out[3].detail["first_try_only"] and "a short look only: the proof is unconfirmed already at ¬(hard)" in out[3].text
    asked.clear()
    assert confirm.resolved([later])[0].detail["confirmed"] and asked == [("¬(later)", False)]
    alone = confirm.resolved([later_hard])[0]
    assert asked[-1] == ("¬(later hard)", False) and "short look" not in alone.text
    monkeypatch.setattr(confirm, "cvc5_check", _planted("sat"))
    with pytest.raises(confirm.SolverDisagreement):
        confirm.resolved([step("¬(hard)"), step("¬(a sat)")])


def test_first_try_only_makes_one_try(monkeypatch):
    """Over the nonlinear reals, where up to four tries are made, ``first_try_only`` makes the first;
    its reason names that try's limits."""
    made = []
    orig = confirm._cvc5_try

    def spy(cvc5, version, query, rlimit, t, *rest):
        made.append(t)
        return orig(cvc5, version, query, rlimit, t, *rest)

    monkeypatch.setattr(confirm, "_cvc5_try", spy)
    nra = confirm.Query("(declare-fun x () Real)\n(declare-fun y () Real)\n(assert (> (* x y) (+ (* x x) (* y y))))\n",
                        "QF_NRA")
    a = confirm.cvc5_check(nra, rlimit=1, first_try_only=True)
    assert made == [confirm.REAL_TRIES[0]] and a.answer == "unknown"
    assert confirm.limits_text(confirm.REAL_TRIES[:1]) in a.reason


def test_a_jobs_queries_share_one_cvc5_child_until_one_is_stopped(monkeypatch):
    """One child answers a process's queries in turn (a fork costs more than a query); a try stopped
    at its limit ends that child, and the next query gets a fresh one that answers alike. After
    :data:`CHILD_REQUESTS` a fresh child is forked, and a forked process never writes to its
    parent's child."""
    import os

    monkeypatch.setattr(confirm, "_SERVER", [])
    cvc5, version = confirm.cvc5_module(), confirm.cvc5_version()
    easy = confirm.Query("(declare-fun x () Real)\n(assert (< (* x x) 0.0))\n", "QF_NRA", "¬(easy)")
    short = confirm.Try("coverings", (), 0.3)

    def ask(query=easy, t=short):
        answer, held = confirm._cvc5_child(cvc5, version, query, confirm.CVC5_RLIMIT, t)
        assert held is None
        return answer

    assert ask().answer == "unsat"
    first = confirm._SERVER[0]
    assert ask().answer == "unsat" and confirm._SERVER == [first] and first.served == 2
    stopped = ask(confirm.Query(STUCK, "QF_NRA", "¬(stuck)"))
    assert stopped.answer == "unknown" and stopped.cut and "0.3 s" in stopped.reason and confirm._SERVER == []
    assert ask().answer == "unsat" and confirm._SERVER[0].pid != first.pid
    monkeypatch.setattr(confirm, "CHILD_REQUESTS", 2)
    second = confirm._SERVER[0]
    ask(), ask()
    assert confirm._SERVER[0].pid != second.pid
    with pytest.raises(ChildProcessError):
        os.waitpid(second.pid, os.WNOHANG)  # reaped
    pid = os.fork()
    if pid == 0:  # a forked process: its own child, not its parent's
        ok = ask().answer == "unsat" and confirm._SERVER[0].owner == os.getpid()
        os._exit(0 if ok else 1)
    assert os.waitpid(pid, 0)[1] == 0
    parents = confirm._SERVER[0]
    assert ask().answer == "unsat" and confirm._SERVER[0] is parents
    os.kill(parents.pid, 9)  # killed between two requests: the next goes to a fresh child
    os.waitpid(parents.pid, 0)
    assert ask().answer == "unsat" and confirm._SERVER[0].pid != parents.pid


def test_resolving_a_ledger_forks_one_cvc5_child_and_ends_it(monkeypatch):
    """The steps of one ledger share a child; it does not outlive the resolution (a live child would
    make the job copy every page it writes, and double its counted memory)."""
    monkeypatch.setattr(confirm, "_SERVER", [])
    forked = []
    fork = confirm._fork_child

    def counting(handle):
        forked.append(fork(handle))
        return forked[-1]

    monkeypatch.setattr(confirm, "_fork_child", counting)
    z3_unsat = confirm.Answer("z3", "4", "unsat")
    steps = [confirm.on_demand([confirm.Query(f"(declare-fun x () Real)\n(assert (< (* x x) (- {k}.0)))\n", "QF_NRA",
                                              f"¬(s{k})")], z3_unsat, f"¬(s{k})") for k in range(1, 4)]
    out = confirm.resolved(steps)
    assert [e.detail["confirmed"] for e in out] == [True, True, True]
    assert len(forked) == 1 and confirm._SERVER == []
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0].pid, os.WNOHANG)  # reaped


def _spinner(request):
    """A child's handler that spends ``request["spin"]`` processor seconds, then answers unsat."""
    import time

    end = time.process_time() + request["spin"]
    while time.process_time() < end:
        pass
    return {"solver": "cvc5", "version": "", "answer": "unsat"}


def _state(pid):
    with open(f"/proc/{pid}/stat", "rb") as fh:
        return fh.read().rsplit(b")", 1)[1].split()[0].decode()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="pausing reads /proc")
def test_a_try_paused_at_its_limit_goes_on_where_it_stopped():
    """A try that a longer one with the same options would repeat is paused at its limit (SIGSTOP)
    instead of stopped; resumed, it goes on from there: the work of the two is done once. Resumed
    past the longer limit, it is stopped there, the paused time counting towards it."""
    child = confirm._fork_child(_spinner)
    record, how, used = confirm._ask(child, {"spin": 0.6}, 3.0, pause_at=0.2)
    assert how == "paused" and record is None and 0.2 <= used < 0.45 and _state(child.pid) == "T"
    record, how, more = confirm._resume(child, used)
    assert how == "answered" and record["answer"] == "unsat"
    assert 0.6 - 0.1 < used + more < 0.6 + 0.15  # one run's work, not the first 0.2 s twice (0.8)
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)  # reaped
    child = confirm._fork_child(_spinner)
    record, how, used = confirm._ask(child, {"spin": 30}, 0.7, pause_at=0.2)
    assert how == "paused"
    record, how, more = confirm._resume(child, used)
    assert how == "stopped" and record is None and 0.7 - 0.1 < used + more < 0.7 + 1.2
    child = confirm._fork_child(_spinner)
    _, how, _ = confirm._ask(child, {"spin": 30}, 5.0, pause_at=0.1)
    assert how == "paused"
    confirm._discard(child)  # a paused child not needed: ended, not left stopped
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="pausing reads /proc")
def test_the_long_coverings_try_resumes_the_short_one(monkeypatch, tmp_path):
    """Through cvc5's tries: the short coverings try is paused at its limit, the other tries run in a
    fresh child, and the long try goes on with the paused one — the coverings' processor time is the
    long limit's, not the short's plus the long's, and no child is left stopped."""
    log = tmp_path / "tries.jsonl"
    monkeypatch.setenv(confirm.ENV_LOG, str(log))
    monkeypatch.setattr(confirm, "_SERVER", [])
    monkeypatch.setattr(confirm, "REAL_TRIES", (
        confirm.Try("coverings", confirm.LINEAR_MODEL_FIRST, 0.2),
        confirm.Try("linearisation", (("nl-cov", "false"),), 0.2),
        confirm.Try("coverings", confirm.LINEAR_MODEL_FIRST, 0.8, after_stop=True),
    ))
    with confirm._one_child():
        a = confirm.cvc5_check(confirm.Query(STUCK, "QF_NRA", "¬(stuck)"))
        assert confirm._SERVER == [] or _state(confirm._SERVER[0].pid) != "T"
    assert a.answer == "unknown" and a.cut
    (line,) = [json.loads(x) for x in log.read_text().splitlines()]
    short, _, long = line["tries"]
    assert short["cut"] and long["cut"] and long["resumed_s"] == short["cpu_s"]  # went on from the pause
    assert 0.8 - 0.15 < short["cpu_s"] + long["cpu_s"] < 0.8 + 0.15  # the short try's 0.2 s not spent twice (1.0)
    children = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read_text().split()
    assert all(_state(int(pid)) != "T" for pid in children)
