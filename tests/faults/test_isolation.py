"""Fault injection, isolation between obligations: no obligation reaches another — not through the
run's shared facts, not through a catalogue module's import-time state, not through the answer
pipe, not through processes it leaves behind, not by killing the worker template."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from tests.faults.catalogues import cli, env_for, good, make_catalogue, ob

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the workers rely on /proc and prctl")


def _rows(out: subprocess.CompletedProcess[str]) -> dict[str, dict]:
    assert out.stdout, out.stderr
    return {r["id"]: r for r in json.loads(out.stdout)["results"]}


def _check(root, package: str, *extra: str, timeout: float = 300) -> dict[str, dict]:
    return _rows(cli(root, "--package", package, "check", "--format", "json", "--no-cache", "-q", *extra, timeout=timeout))


FALSE_CLAIM = """
from checker.claims import claim
SQUARE_POSITIVE = claim("square-positive", "x", lambda o, v: o.gt(v.x * v.x, 0))  # false at x = 0
"""


def test_a_solver_patched_by_one_obligation_cannot_prove_anothers_false_claim(tmp_path):
    """A "dry run" helper that replaces z3.Solver.check and forgets to restore it: the obligation's
    own smt.prove is answered by the solver itself (the engine calls it through references taken
    before any catalogue code ran), so nothing false is recorded in the run's shared facts, and the
    other obligation's honest proof of the same false claim is refuted."""
    marker = tmp_path / "patched.done"
    make_catalogue(tmp_path, "memocat", {"claims": FALSE_CLAIM, "items": f"""
import os, time
from checker.backends import smt
from memocat.claims import SQUARE_POSITIVE
""" + ob("memocat", "a_patches", f"""
        import z3
        z3.Solver.check = lambda self, *a: z3.unsat  # a dry-run stub, never restored
        verdict = smt.prove(SQUARE_POSITIVE, ctx)
        open({str(marker)!r}, "w").write("done")
        return verdict
    """, extra=", claims=(SQUARE_POSITIVE,)") + ob("memocat", "b_honest", f"""
        end = time.monotonic() + 60
        while not os.path.exists({str(marker)!r}) and time.monotonic() < end:
            time.sleep(0.05)
        return smt.prove(SQUARE_POSITIVE, ctx)
    """, extra=", claims=(SQUARE_POSITIVE,)")})
    rows = _check(tmp_path, "memocat", "--jobs", "2")
    assert rows["memocat.b_honest"]["status"] == "refuted", rows["memocat.b_honest"]["certificate"]
    assert rows["memocat.a_patches"]["status"] == "refuted", rows["memocat.a_patches"]["certificate"]


def test_a_module_that_patches_z3_at_import_reaches_no_other_module(tmp_path):
    """The worker template imports no catalogue module: a module that replaces z3.Solver.check at
    import time changes nothing for an obligation of a module that does not import it."""
    make_catalogue(tmp_path, "patchcat", {
        "claims": FALSE_CLAIM,
        "a_patcher": "import z3\nz3.Solver.check = lambda self, *a: z3.unsat\n" + good("patchcat", "patcher_good"),
        "b_victim": "from checker.backends import smt\nfrom patchcat.claims import SQUARE_POSITIVE\n" + ob(
            "patchcat", "victim", "return smt.prove(SQUARE_POSITIVE, ctx)", extra=", claims=(SQUARE_POSITIVE,)"),
    })
    rows = _check(tmp_path, "patchcat", "--jobs", "2")
    assert rows["patchcat.victim"]["status"] == "refuted", rows["patchcat.victim"]["certificate"]
    assert rows["patchcat.patcher_good"]["status"] == "proved"


def test_a_module_level_seterr_reaches_only_its_own_jobs(tmp_path):
    """``np.seterr(all="raise")`` at import in one module does not turn an innocent obligation
    of another module into an error."""
    make_catalogue(tmp_path, "errcat", {
        "a_strict": "import numpy as np\nnp.seterr(all='raise')\n" + good("errcat", "strict_good"),
        "b_innocent": "import numpy as np\n" + ob("errcat", "innocent", """
            with timed() as t:
                value = np.float64(1.0) / np.float64(0.0)  # inf, with numpy's default warning
                step = t.step("exact", "numpy", "1/0 in floats", str(value))
            return trusted("float division", step, grade=Grade.INSTANCES, over="1 point") if np.isinf(value) else unknown("x", "finite")
        """),
    })
    rows = _check(tmp_path, "errcat", "--jobs", "2")
    assert rows["errcat.innocent"]["status"] == "proved", rows["errcat.innocent"]["certificate"]


FIND_PIPE = """
def _answer_pipes():
    import os
    fds = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            if int(fd) > 2 and os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:"):
                fds.append(int(fd))
        except OSError:
            pass
    return fds
"""


def test_a_forged_result_frame_is_rejected(tmp_path):
    """An obligation that writes its own stepless ``proved`` result frame on the answer pipe and
    exits is an error, not ``proved ∀``: the frame lacks the job's nonce, and the parent
    re-validates every result it receives anyway."""
    make_catalogue(tmp_path, "forgecat", {"items": FIND_PIPE + ob("forgecat", "forges", """
        import importlib, os
        from checker.kernel.model import result_for
        # reached by name, past the static check of catalogue sources (checker.audit.reach): this tests the layer behind it
        _send_frame = getattr(importlib.import_module("checker.run.workers"), "_send" + "_frame")
        me = getattr(importlib.import_module("checker.kernel.declaration"), "_REG" + "ISTRY")["forgecat.forges"]
        fake = result_for(me, Verdict(Status.PROVED, Certificate(method="forged", grade=Grade.UNIVERSAL)), 0.0)
        for fd in _answer_pipes():
            _send_frame(fd, ["result", fake.to_json()])
        os._exit(0)
    """)})
    rows = _check(tmp_path, "forgecat", "--jobs", "1")
    row = rows["forgecat.forges"]
    assert row["status"] == "error", row
    assert "not the checker's" in row["certificate"]["reason"]


def test_a_replaced_validator_in_the_worker_does_not_pass_a_stepless_proof(tmp_path):
    """Replacing ``checker.run.runner.validated`` in the worker process changes nothing: the parent
    runs the same validation on the result it receives."""
    make_catalogue(tmp_path, "valcat", {"items": ob("valcat", "no_steps", """
        import importlib
        # replaced by name, past the static check of catalogue sources (checker.audit.reach): this tests the layer behind it
        runner = importlib.import_module("checker.run." + "runner")
        vars(runner)["validated"] = lambda ob, verdict: verdict
        return Verdict(Status.PROVED, Certificate(method="trust me", grade=Grade.UNIVERSAL))
    """)})
    row = _check(tmp_path, "valcat", "--jobs", "1")["valcat.no_steps"]
    assert row["status"] == "error" and "carries no kernel ledger" in row["certificate"]["reason"], row


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _gone(pids: list[int], seconds: float = 15.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


ESCAPE = """
def _escape(pidfile):
    import subprocess, sys
    # a child in a new session, and a grandchild of a setsid'd child that exits at once (a daemon)
    child = subprocess.Popen(["sleep", "120"], start_new_session=True)
    code = ("import os, sys, time\\n"
            "os.setsid()\\n"
            "pid = os.fork()\\n"
            "if pid:\\n"
            "    open(sys.argv[1], 'a').write(f' {pid}')\\n"
            "    os._exit(0)\\n"
            "time.sleep(120)\\n")
    open(pidfile, "w").write(str(child.pid))
    subprocess.run([sys.executable, "-c", code, pidfile], check=True)
"""


@pytest.mark.parametrize("ending", ["returns", "times out"])
def test_processes_that_leave_the_group_die_with_the_obligation(tmp_path, ending):
    """A ``start_new_session`` child and a double-forked ``setsid`` daemon escape a process-group
    kill; the job and the template are subreapers, so both are found in the tree and killed when
    the obligation ends — by returning, or at its wall-clock limit."""
    pidfile = tmp_path / "escaped.pid"
    tail = "return unknown('escape', 'left processes behind')" if ending == "returns" else "while True:\n    pass"
    make_catalogue(tmp_path, "escapecat", {"items": ESCAPE + ob("escapecat", "escapes", f"""
        _escape({str(pidfile)!r})
        {tail.replace(chr(10), chr(10) + "        ")}
    """)})
    proc = subprocess.run([sys.executable, "-m", "checker", "--package", "escapecat", "check", "-q", "--no-cache",
                           "--jobs", "1", "--timeout", "5"], cwd=tmp_path, env=env_for(tmp_path), capture_output=True,
                          text=True, timeout=120)
    assert b"escapecat.escapes" in proc.stdout.encode(), proc.stderr
    pids = [int(p) for p in pidfile.read_text().split()]
    assert len(pids) == 2
    assert _gone(pids), [p for p in pids if _alive(p)]


def test_an_obligation_that_kills_the_template_is_named_and_the_others_rerun(tmp_path):
    """One obligation signals its parent (the worker template) while two others run beside it:
    it is re-run alone and named; the others are re-run and keep their own results."""
    make_catalogue(tmp_path, "killcat", {"items": "import os, signal, time\n" + ob("killcat", "killer", """
        time.sleep(0.5)
        os.kill(os.getppid(), signal.SIGKILL)
        time.sleep(30)
        return unknown("kill", "survived")
    """) + "".join(ob("killcat", f"bystander{i}", """
        time.sleep(1.5)
        with timed() as t:
            step = t.step("exact", "python", "evaluate 2 + 2", "True")
        return trusted("evaluation", step, grade=Grade.INSTANCES, over="1 sum")
    """) for i in range(2))})
    rows = _check(tmp_path, "killcat", "--jobs", "3", "--timeout", "60")
    killer = rows["killcat.killer"]
    assert killer["status"] == "error" and "ran alone" in killer["certificate"]["reason"], killer
    assert "worker template died" in killer["certificate"]["reason"]
    for i in range(2):
        assert rows[f"killcat.bystander{i}"]["status"] == "proved", rows[f"killcat.bystander{i}"]["certificate"]
