"""Obligation fingerprints: stable across runs and checkouts, changed by what is checked only.

Edits are made in temporary copies of the catalogue; each copy is fingerprinted in its own
process (the registry is per process)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from checker.run.discovery import discover

ROOT = Path(__file__).resolve().parent.parent
_SCRIPT = """
import json, sys
from checker.run.discovery import discover
from checker.store.fingerprint import code_fingerprint
cat = discover("obligations")
print(json.dumps({ob.id: code_fingerprint(ob).digest for ob in cat.obligations}))
"""


def _copy(tmp: Path, name: str = "project") -> Path:
    dest = tmp / name
    for part in ("checker", "obligations"):
        shutil.copytree(ROOT / part, dest / part, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _fingerprints(project: Path, hash_seed: str = "0") -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(project), "PYTHONHASHSEED": hash_seed}
    out = subprocess.run([sys.executable, "-c", _SCRIPT], cwd=project, env=env, capture_output=True, text=True,
                         timeout=300, check=True)
    return json.loads(out.stdout)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")



#: Obligations outside psy01a whose modules import a psy01a module (controller_bound's genuine-pruning
#: module reuses psy01a.arb_linalg's rigorous operator-norm bound): they take those modules whole.
PSY01A_IMPORTERS = {ob.id for ob in discover("obligations").obligations
                    if ob.module == "obligations.controller_bound.genuine_pruning"}


def _changed(a: dict[str, str], b: dict[str, str]) -> set[str]:
    return {k for k in a if a[k] != b.get(k)}


def test_same_code_same_fingerprint_across_runs_and_checkouts(tmp_path):
    """Two checkouts in different directories, different hash seeds: identical fingerprints."""
    one = _fingerprints(_copy(tmp_path, "a"), "1")
    two = _fingerprints(_copy(tmp_path, "b"), "2")
    assert one == two and len(one) > 50


def test_edits_invalidate_what_they_can_affect_and_nothing_else(tmp_path):
    """Metadata and comments change nothing; one discharge changes only itself; a helper shared
    through an import changes every importer; a data file changes the obligations beside it."""
    project = _copy(tmp_path)
    base = _fingerprints(project)
    cue = project / "obligations" / "psy01a" / "cue.py"

    _edit(cue, 'statement="For every label y, |m(z, y) − m(z\', y)| ≤ 2·‖z − z\'‖_∞."',
          'statement="Edited prose."')
    _edit(cue, "    expect=Expect.HOLDS,\n    lean=\"Psy01A.margin_two_lipschitz\",",
          "    expect=Expect.OPEN,\n    lean=\"Psy01A.margin_two_lipschitz\",")
    _edit(cue, "def margin_two_lipschitz(ctx):\n", "def margin_two_lipschitz(ctx):  # a comment\n")
    assert _changed(base, _fingerprints(project)) == set()

    _edit(cue, 'return all_of("z3 instance with equality, re-checked exactly"',
          'return all_of("z3 instance with equality, re-checked exactly (edited)"')
    changed = _changed(base, _fingerprints(project))
    # within the module only that obligation; modules importing cue.py take it whole
    assert "psy01a.margin_two_lipschitz_tight" in changed and "psy01a.margin_two_lipschitz" not in changed
    assert all(i.startswith("psy01a.") or i in PSY01A_IMPORTERS for i in changed), sorted(changed)

    network = project / "obligations" / "controller_bound" / "network.py"
    before_helper = _fingerprints(project)
    _edit(network, "return o.abs(v.w2 if w2 is None else w2) * o.abs(v.s)",
          "return o.abs(v.w2 if w2 is None else w2) * o.abs(v.s) / 2")
    changed = _changed(before_helper, _fingerprints(project))
    assert {"controller_bound.theorem2_single_layer", "controller_bound.corollary1_additive"} <= changed
    assert all(i.startswith("controller_bound.") for i in changed)

    before_data = _fingerprints(project)
    npz = project / "obligations" / "lean_mlp" / "data" / "example_mlp.npz"
    npz.write_bytes(npz.read_bytes() + b"\0")
    changed = _changed(before_data, _fingerprints(project))
    assert changed and all(i.startswith("lean_mlp.") for i in changed)


def test_a_top_level_call_counts_for_every_obligation_of_its_module(tmp_path):
    """A module-level statement that is not a definition may change anything: every obligation
    of the module depends on it (when in doubt, invalidate)."""
    project = _copy(tmp_path)
    base = _fingerprints(project)
    cue = project / "obligations" / "psy01a" / "cue.py"
    _edit(cue, 'declare_bound(LIPSCHITZ, "margin_change", "sup_distance", constant=2)',
          'declare_bound(LIPSCHITZ, "margin_change", "sup_distance", constant=2)\nprint(end="")')
    changed = _changed(base, _fingerprints(project))
    assert {"psy01a.margin_two_lipschitz", "psy01a.margin_two_lipschitz_tight"} <= changed
    assert all(i.startswith("psy01a.") or i in PSY01A_IMPORTERS for i in changed), sorted(changed)


def test_a_planted_stored_analysis_is_ignored(tmp_path, monkeypatch):
    """The per-file analyses under the cache decide what a key covers, so a stored analysis is
    used only with a valid MAC: one edited (or planted without the secret) is recomputed."""
    from checker.store import fingerprint as fp

    monkeypatch.setenv("OBLIGATIONS_CACHE_SECRET", str(tmp_path / "secret"))
    store = tmp_path / "cache"
    module = ROOT / "obligations" / "psy01a" / "cue.py"
    fp._MEMORY.clear()
    fresh = fp._analysis(str(module), "obligations.psy01a.cue", store)
    [entry] = list((store / "fingerprints").rglob("*.json"))
    data = json.loads(entry.read_text())
    assert data["mac"]
    data["analysis"]["digest"] = "0" * 64  # a forged digest that would hide any edit
    entry.write_text(json.dumps(data))
    fp._MEMORY.clear()
    again = fp._analysis(str(module), "obligations.psy01a.cue", store)
    assert again.digest == fresh.digest != "0" * 64


def test_one_pass_analysis_matches_the_reference_walks():
    """The module digest spliced from statement dumps, and the imports and dynamic-lookup reason
    found in the stripping pass, equal what ``ast.dump`` and separate ``ast.walk`` passes give."""
    import ast

    from checker.store import fingerprint as fp
    from checker.store.fingerprint import _parse_imports, imports_in

    root = Path(__file__).resolve().parent.parent
    files = sorted((root / "obligations").rglob("*.py")) + sorted((root / "checker").rglob("*.py"))
    samples = [("s.py", "def f():\n  return globals()\n"), ("s.py", "x = sys.modules\n"),
               ("s.py", "@obligation(id='a', statement=eval('1'))\ndef g(ctx):\n  '''doc'''\n  return vars()\n"),
               ("s.py", "def __getattr__(n): pass\n"), ("s.py", "")]
    for name, src in [(f.name, f.read_text(encoding="utf-8")) for f in files] + samples:
        parsed = fp._parsed_module(src, name)
        assert fp.module_digest(src, name) == fp._digest(ast.dump(parsed.tree)), name
        assert parsed.dynamic == fp._dynamic_reason(parsed.tree) or parsed.dynamic.startswith("defines"), name
        assert imports_in(parsed.imports, "p/s.py", "p.s") == _parse_imports(src, "p/s.py", "p.s"), name
    assert fp._parsed_module(samples[2][1], "s.py").dynamic == "uses vars()"  # eval sits in dropped metadata
