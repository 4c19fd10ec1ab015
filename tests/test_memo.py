"""checker.backends.memo: facts shared by the jobs of one run (only what does not depend on who computes it)."""

from __future__ import annotations

import json
import os

import pytest

from checker.backends import memo
from checker.claims import claim


@pytest.fixture
def store(tmp_path):
    pytest.importorskip("z3")
    pytest.importorskip("flint")
    memo.seal()  # as a job does before any catalogue code runs (here: z3 and flint as imported)
    memo.use(tmp_path)
    yield tmp_path
    memo.use(None)


def test_without_a_store_nothing_is_recorded_and_everything_is_computed(tmp_path):
    np = pytest.importorskip("numpy")
    memo.use(None)
    b = np.eye(2)
    assert memo.opnorm_upper(b, 2).man_exp() == memo.opnorm_upper(b, 2).man_exp()
    assert not any(tmp_path.iterdir())


def test_keys_are_length_prefixed():
    assert memo.key("ab", "c") != memo.key("a", "bc")


def test_a_corrupt_or_foreign_entry_is_a_miss(store):
    np = pytest.importorskip("numpy")
    b = np.arange(6, dtype=float).reshape(2, 3)
    first = memo.opnorm_upper(b, 2)
    (path,) = store.glob("opnorm-upper-*.json")
    path.write_text("{not json", encoding="utf-8")
    assert memo.opnorm_upper(b, 2).man_exp() == first.man_exp()  # recomputed, and recorded again
    assert json.loads(path.read_text(encoding="utf-8"))["value"] == memo.encode_exact_arb(first)
    path.write_text(json.dumps({"key": "other", "value": memo.encode_exact_arb(first * 0)}), encoding="utf-8")
    assert memo.opnorm_upper(b, 2).man_exp() == first.man_exp()


def test_an_unwritable_store_loses_nothing(tmp_path):
    np = pytest.importorskip("numpy")
    memo.use(tmp_path / "missing")
    try:
        assert memo.opnorm_upper(np.eye(3), 1).man_exp() == memo.opnorm_upper(np.eye(3), 1).man_exp()
    finally:
        memo.use(None)


def test_the_store_has_no_public_writer():
    """Only the two recorders write a record: there is no function to record an arbitrary value."""
    assert not hasattr(memo, "put") and not hasattr(memo, "shared")


def test_the_run_store_is_removed_at_the_end_even_on_error():
    with pytest.raises(RuntimeError):
        with memo.run_store() as directory:
            assert os.path.isdir(directory)
            raise RuntimeError
    assert not os.path.exists(directory)


def test_exact_arb_values_round_trip_and_a_ball_is_refused():
    flint = pytest.importorskip("flint")
    x = (flint.arb(3) / 7).upper()
    assert memo.decode_exact_arb(memo.encode_exact_arb(x)) == x
    assert memo.decode_exact_arb(memo.encode_exact_arb(x)).rad() == 0
    with pytest.raises(ValueError):
        memo.encode_exact_arb(flint.arb(3) / 7)
    assert memo.decode_exact_arb(["1", "nope"]) is None
    assert memo.decode_exact_arb("12") is None


def test_opnorm_upper_gives_the_same_bound_computed_or_read_back(store):
    np = pytest.importorskip("numpy")
    from obligations.psy01a import arb_linalg

    b = np.arange(12, dtype=float).reshape(3, 4) / 7
    first = arb_linalg.opnorm_upper(b, 3)
    assert list(store.glob("opnorm-upper-*.json"))
    again = arb_linalg.opnorm_upper(b, 3)
    memo.use(None)
    fresh = arb_linalg.opnorm_upper(b, 3)
    assert first.man_exp() == again.man_exp() == fresh.man_exp()
    memo.use(store)
    arb_linalg.opnorm_upper(b, 2)  # other squarings: another key, another entry
    assert len(list(store.glob("opnorm-upper-*.json"))) == 2


HOLDS = claim("memo-holds", "x y", lambda o, v: o.ge(v.x * v.x + v.y * v.y, 0))
FAILS = claim("memo-fails", "x", lambda o, v: o.gt(v.x * v.x, 0))


def test_z3_shares_unsat_only(store):
    pytest.importorskip("z3")
    from checker.backends import smt
    from checker.kernel.model import Status

    assert smt.prove(HOLDS).status is Status.PROVED
    recorded = list(store.glob("z3-unsat-*.json"))
    assert len(recorded) == 1
    assert smt.prove(HOLDS).status is Status.PROVED
    assert smt.prove(FAILS).status is Status.REFUTED
    assert list(store.glob("z3-unsat-*.json")) == recorded  # a model is never recorded


def test_a_recorded_unsat_is_used_only_for_exactly_the_same_assertions(store):
    z3 = pytest.importorskip("z3")
    from checker.backends import smt
    from checker.kernel.model import Status

    assert smt.prove(HOLDS).status is Status.PROVED
    # a planted 'unsat' for a different problem is never consulted for FAILS: its key differs
    (path,) = store.glob("z3-unsat-*.json")
    assert smt.prove(FAILS).status is Status.REFUTED
    solver = z3.Solver()
    x = z3.Real("x")
    solver.add(x * x < 0)
    assert smt._check(solver, "solver", 1000, None) == z3.unsat
    solver2 = z3.Solver()
    solver2.add(x * x > 1)
    assert smt._check(solver2, "solver", 1000, None) == z3.sat
    assert path.exists()


def test_the_text_put_to_the_second_solver_is_read_through_the_seal(store, monkeypatch):
    """The query text a proof's confirmation puts to cvc5 is the problem z3 answered, read through
    the sealed entry point: a ``z3.Solver.sexpr`` patched by catalogue code (to hand cvc5 an easier
    problem) is never what is read, and the text is read once for the store's key and the query."""
    z3 = pytest.importorskip("z3")
    from checker.backends import smt

    monkeypatch.setenv("OBLIGATIONS_CONFIRM", "1")
    monkeypatch.setattr(z3.Solver, "sexpr", lambda self: "(assert false)")
    reads = []
    real = memo.z3_text
    monkeypatch.setattr(memo, "z3_text", lambda solver: reads.append(1) or real(solver))
    solver = z3.Solver()
    x = z3.Real("x")
    solver.add(x * x < 0)
    queries: list = []
    assert smt._check(solver, "solver", 1000, None, queries=queries) == z3.unsat
    (query,) = queries
    assert "(assert false)" not in query.text and "(declare-fun x () Real)" in query.text
    assert len(reads) == 1


def test_a_run_shares_facts_between_its_jobs_and_removes_its_store(monkeypatch):
    """The four descent implications prove the same two z3 lemmas: run one after the other, the
    jobs record them in the run's store; the store is gone when the run returns, and the
    verdicts are those of a run in which nothing is shared."""
    import contextlib

    from checker.kernel.model import Status
    from checker.run.discovery import discover
    from checker.run.runner import RunConfig, run

    seen: dict[str, list[str]] = {}
    original = memo.run_store

    @contextlib.contextmanager
    def watched():
        with original() as directory:
            yield directory
            seen[directory] = sorted(p.split("-")[0] for p in os.listdir(directory))

    monkeypatch.setattr(memo, "run_store", watched)
    chosen = discover("obligations").select(["lean_mlp.linear_descent_implication", "lean_mlp.mlp_output_descent_implication"])
    results = run(chosen, RunConfig(jobs=1))
    ((directory, entries),) = seen.items()
    assert not os.path.exists(directory)
    assert "z3" in entries
    assert [r.status for r in results] == [Status.PROVED, Status.PROVED]
    steps = [[(s.backend, s.action, s.answer) for s in r.certificate.steps] for r in results]
    assert steps[0][1:] == steps[1][1:]  # the shared lemmas, reported as a fresh proof reports them
