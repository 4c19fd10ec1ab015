"""``obligations init NAME``: a small catalogue package to start checking your own paper.

It writes, into the current directory, a package ``NAME/`` with one claim that z3 proves and one
that it refutes (with a witness re-checked in exact rationals), a test of both, and a
``pyproject.toml`` registering the catalogue (entry point ``obligations.catalogues``) and
configuring ``obligations check`` (``[tool.obligations]``). Nothing existing is overwritten.

The scaffold does not depend on the checker by name: the checker is not on a package index, so
``pip install -e .`` in a fresh environment could not resolve it. Its ``pyproject.toml`` and the
command's last line say how to install the checker instead — from the checkout or wheel the running
checker was installed from, when that is known (:func:`install_hint`).
"""

from __future__ import annotations

import importlib.util
import keyword
import os
import re
from pathlib import Path

from checker.kernel.errors import UsageError

ENGINE_DISTRIBUTION = "pruned-relu-obligations"
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")

_PYPROJECT = '''\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "0.1.0"
description = "Proof obligations of {name}"
requires-python = ">=3.11"
# The checker ({engine}) is installed on its own, not listed here: it is not on a package index,
# so pip could not resolve it by name. Install it into this project's environment first, from its
# checkout or a wheel built from it:
#     pip install {install}
dependencies = []

[project.optional-dependencies]
test = ["pytest>=8"]

# `obligations` finds this catalogue through the entry point once it is installed
# (`pip install -e .`), and through [tool.obligations] below when run from this folder.
[project.entry-points."obligations.catalogues"]
{name} = "{name}"

[tool.setuptools.packages.find]
include = ["{name}*"]

[tool.obligations]
packages = ["{name}"]
timeout = 60
memory = 2048
format = "table"
# jobs = 2
# baseline = "proofs/baseline.json"   # then: obligations check --save-baseline proofs/baseline.json

[tool.pytest.ini_options]
testpaths = ["tests"]
pythonpath = ["."]
'''

_INIT = '''\
"""The proof obligations of {name}: one module per section (or document) of the paper."""
'''

_LEMMAS = '''\
"""Two claims about ReLU: one the paper proves, one a reader might believe.

Each claim is written once, over an ``ops`` namespace ``o`` (``o.relu``, ``o.abs``, ``o.le``, …)
and the variables ``v``; every backend interprets the same function (z3 terms, exact
rationals, intervals, numpy). See the claim reference (docs/claims.md of the checker).
"""

from checker import Expect, Source, obligation
from checker.backends import smt
from checker.claims import claim

RELU_LIPSCHITZ = claim("relu-1-lipschitz", "x y",
                       lambda o, v: o.le(o.abs(o.relu(v.x) - o.relu(v.y)), o.abs(v.x - v.y)))


@obligation(id="{name}.relu_lipschitz", source=Source("{name}.tex", "Lemma 1"),
            statement="ReLU is 1-Lipschitz: |relu(x) − relu(y)| ≤ |x − y| for all real x, y.",
            scope="universally over ℝ (z3)", expect=Expect.HOLDS, theorem=RELU_LIPSCHITZ)
def relu_lipschitz(ctx):
    """Lemma 1 of {name}.tex: ReLU is 1-Lipschitz. z3 finds the negation unsatisfiable over the
    reals (linear arithmetic with case splits on the two ReLUs), which proves it for all x, y."""
    return smt.prove(RELU_LIPSCHITZ, ctx)


RELU_ADDITIVE = claim("relu-additive", "x y",
                      lambda o, v: o.eq(o.relu(v.x + v.y), o.relu(v.x) + o.relu(v.y)),
                      terms={{"relu(x+y)": lambda o, v: o.relu(v.x + v.y),
                             "relu(x)+relu(y)": lambda o, v: o.relu(v.x) + o.relu(v.y)}})


@obligation(id="{name}.relu_additive", source=Source("{name}.tex", "Remark 2"),
            statement="ReLU is additive: relu(x + y) = relu(x) + relu(y) for all real x, y.",
            scope="universally over ℝ (z3)", expect=Expect.FAILS, theorem=RELU_ADDITIVE)
def relu_additive(ctx):
    """Remark 2 of {name}.tex warns that ReLU is not additive. z3 finds a model of the negation,
    and the exact backend re-checks it in rationals: a counterexample (x, y of opposite signs).
    ``expect=Expect.FAILS`` says the paper asserts it false; with ``Expect.HOLDS`` the result
    would be ``contradicted`` and ``obligations check`` would exit 1."""
    return smt.prove(RELU_ADDITIVE, ctx)
'''

_TEST = '''\
"""The catalogue's expected statuses: a regression test for the paper's claims."""

from fractions import Fraction

from checker import Status
from checker.testing import run_obligation


def test_lemma_1_is_proved():
    """ReLU is 1-Lipschitz: proved universally by z3."""
    assert run_obligation("{name}.relu_lipschitz").status is Status.PROVED


def test_additivity_is_refuted_by_an_exact_witness():
    """ReLU is not additive: the witness re-checks in exact rationals."""
    result = run_obligation("{name}.relu_additive")
    assert result.status is Status.REFUTED
    x, y = (Fraction(result.certificate.witness[k]) for k in ("x", "y"))
    assert max(x + y, 0) != max(x, 0) + max(y, 0)
'''

_GITIGNORE = '''\
.obligations-cache/
__pycache__/
'''


def install_hint() -> str:
    """How to install the running checker elsewhere: the checkout or wheel it was installed from
    (its ``direct_url.json``), else the checkout it runs from, else a placeholder path."""
    import importlib.metadata
    import json
    from urllib.parse import unquote, urlparse

    try:
        direct = importlib.metadata.distribution(ENGINE_DISTRIBUTION).read_text("direct_url.json")
        url = json.loads(direct or "{}").get("url", "")
    except (importlib.metadata.PackageNotFoundError, ValueError, OSError):
        url = ""
    if url.startswith("file://"):
        return unquote(urlparse(url).path)
    here = Path(__file__).resolve().parents[2]
    if (here / "pyproject.toml").is_file() and (here / "checker").is_dir():
        return str(here)
    return "/path/to/pruned-relu-obligations   (a checkout, or the .whl that 'pip wheel' builds from it)"


def files(name: str, install: str | None = None) -> dict[str, str]:
    """The scaffold: relative path → text. ``install`` is what the pyproject tells to ``pip
    install`` for the checker (default: :func:`install_hint`)."""
    values = {"name": name, "engine": ENGINE_DISTRIBUTION, "install": install or install_hint()}
    return {
        "pyproject.toml": _PYPROJECT.format(**values),
        f"{name}/__init__.py": _INIT.format(**values),
        f"{name}/lemmas.py": _LEMMAS.format(**values),
        "tests/__init__.py": "",
        f"tests/test_{name}.py": _TEST.format(**values),
        ".gitignore": _GITIGNORE,
    }


def init(name: str, directory: Path | None = None) -> list[Path]:
    """Write the scaffold for package ``name`` into ``directory`` (default: the working one)."""
    root = (directory or Path.cwd()).resolve()
    if not _NAME.match(name) or keyword.iskeyword(name):
        raise UsageError(f"{name!r} is not a package name; use lower-case letters, digits and _, e.g. 'mypaper'")
    import sys

    if name in sys.stdlib_module_names or name in sys.builtin_module_names:
        raise UsageError(f"{name!r} is already a module of Python's standard library; a catalogue of that name "
                         "would never be imported; choose another name")
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is not None:
        origin = spec.origin if spec.origin and os.path.isabs(spec.origin) else None
        if origin is None or not Path(origin).resolve().is_relative_to(root):
            raise UsageError(f"a module {name!r} already exists ({spec.origin or 'a namespace package'}) and would be "
                             "imported instead of the new catalogue; choose another name")
    planned = {root / rel: text for rel, text in files(name).items()}
    existing = [p for p in planned if p.exists() and not (p.name == ".gitignore")]
    if existing:
        raise UsageError(f"not overwriting {', '.join(str(p.relative_to(root)) for p in existing)}; "
                         "run 'obligations init' in an empty folder")
    written = []
    for path, text in planned.items():
        if path.exists():
            continue  # a .gitignore of the user's own stays as it is
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
