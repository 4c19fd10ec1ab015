"""`obligations discharge`, run as a real subprocess on the shipped example network."""

from __future__ import annotations

import json

import numpy as np
import pytest

from checker.face.cli import ExitCode
from obligations.lean_mlp import discharge, mlp
from tests.helpers import cli

NET = str(discharge.EXAMPLE_FILE)
X = "1,-0.5,0.75"
LINEAR_X = "0.5,-1,0.75,0.25"
CAPSTONES = ("linear", "mlp_output", "mlp_hidden", "mlp_input")


def _run(capstone: str, *extra: str, net: str = NET, example: str | None = None, label: str = "1", lr: str = "1/256"):
    example = example if example is not None else (LINEAR_X if capstone.startswith("linear") else X)
    return cli("discharge", capstone, "--net", net, "--example", example, "--label", label, "--lr", lr, *extra, timeout=120)


def _arrays() -> dict[str, np.ndarray]:
    with np.load(NET) as data:
        return {k: data[k].copy() for k in data.files}


def test_shipped_file_is_the_generated_network():
    """The shipped .npz holds exactly the network `example_network()` writes (no stale data)."""
    assert mlp.load_npz(NET) == discharge.example_network()


@pytest.mark.parametrize("capstone", [f"{c}_sgd_descends" for c in CAPSTONES] + [f"{c}_float_sgd_descends" for c in CAPSTONES])
def test_every_capstone_holds_on_the_shipped_network(capstone):
    """Each capstone's hypotheses all hold at the shipped example and the conclusion checks (exit 0)."""
    out = _run(capstone)
    assert out.returncode == ExitCode.OK, out.stdout + out.stderr
    assert capstone in out.stdout
    assert "failed" not in out.stdout and "undecided" not in out.stdout
    assert "conclusion: checked: change ≤ −certified decrease" in out.stdout
    assert "certified decrease" in out.stdout and "actual loss change" in out.stdout


def test_json_format_and_short_names():
    """`mlp_hidden` is accepted for mlp_hidden_sgd_descends; JSON has every hypothesis with
    exact enclosure ends, and the loss change lies below minus the certified decrease."""
    out = _run("mlp_hidden", "--format", "json", "--eta", "1/16384")
    assert out.returncode == ExitCode.OK, out.stderr
    doc = json.loads(out.stdout)
    assert doc["capstone"] == "mlp_hidden_sgd_descends" and doc["oracle"] == "perturbed" and doc["eta"] == "1/16384"
    names = [h["name"] for h in doc["hypotheses"]]
    assert names == ["oracle_accuracy", "margin_z1", "small_step", "dominance_oracle", "dominance_curvature"]
    assert all(h["verdict"] == "held" for h in doc["hypotheses"])
    from fractions import Fraction

    assert Fraction(doc["loss_change"]["hi"]) <= -Fraction(doc["certified_decrease"]["lo"])
    assert doc["ok"] is True and doc["conclusion"] == "checked"


def test_learning_rate_too_large_names_the_failed_hypothesis():
    """At lr = 1/16 the input layer's curvature dominance fails: exit 1, the hypothesis named,
    and no conclusion is claimed."""
    out = _run("mlp_input_sgd_descends", lr="1/16")
    assert out.returncode == ExitCode.FAILED, out.stdout + out.stderr
    line = next(ln for ln in out.stdout.splitlines() if ln.strip().startswith("dominance_curvature"))
    assert "failed" in line
    assert "not certified" in out.stdout and "dominance_curvature" in out.stdout.splitlines()[-1]


def test_huge_step_fails_margin_and_small_step():
    """At lr = 4 the hidden step can flip a ReLU: the margin and the small-step condition fail."""
    out = _run("mlp_hidden_sgd_descends", "--format", "json", lr="4")
    assert out.returncode == ExitCode.FAILED
    verdicts = {h["name"]: h["verdict"] for h in json.loads(out.stdout)["hypotheses"]}
    assert verdicts["margin_z1"] == "failed" and verdicts["small_step"] == "failed"
    assert verdicts["dominance_curvature"] == "undecided"


def test_oracle_error_too_large_fails_dominance():
    """A perturbed oracle with η = 1/2 violates η·‖∇L‖₁ ≤ ‖∇L‖₂²/4."""
    out = _run("linear_sgd_descends", "--eta", "1/2", "--format", "json")
    assert out.returncode == ExitCode.FAILED
    verdicts = {h["name"]: h["verdict"] for h in json.loads(out.stdout)["hypotheses"]}
    assert verdicts["dominance_oracle"] == "failed"


def test_corrupt_file_is_a_usage_error(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"this is not a zip file")
    out = _run("mlp_hidden", net=str(bad))
    assert out.returncode == ExitCode.USAGE_ERROR
    assert "not a readable .npz file" in out.stderr and out.stdout == ""


def test_missing_file_is_a_usage_error(tmp_path):
    out = _run("mlp_hidden", net=str(tmp_path / "none.npz"))
    assert out.returncode == ExitCode.USAGE_ERROR and "no such file" in out.stderr


@pytest.mark.parametrize("value", [np.nan, np.inf])
def test_non_finite_weight_is_a_usage_error(tmp_path, value):
    arrays = _arrays()
    arrays["W1"][2, 1] = value
    path = tmp_path / "nan.npz"
    np.savez(path, **arrays)
    out = _run("mlp_input", net=str(path))
    assert out.returncode == ExitCode.USAGE_ERROR
    assert "W1[2, 1]" in out.stderr and "finite" in out.stderr


def test_wrong_shape_is_a_usage_error(tmp_path):
    arrays = _arrays()
    arrays["W2"] = arrays["W2"][:3]
    path = tmp_path / "shape.npz"
    np.savez(path, **arrays)
    out = _run("mlp_output", net=str(path))
    assert out.returncode == ExitCode.USAGE_ERROR
    assert "W2 has 3 rows but W1 has 4 columns" in out.stderr


def test_wrong_example_length_is_a_usage_error():
    out = _run("mlp_hidden", example="1,2")
    assert out.returncode == ExitCode.USAGE_ERROR
    assert "the example has 2 entries; mlp_hidden_sgd_descends needs 3" in out.stderr
    out = _run("linear", example=X)
    assert out.returncode == ExitCode.USAGE_ERROR and "needs 4 = d₂" in out.stderr


@pytest.mark.parametrize("example, message", [("1,nan,2", "not a finite number"), ("1,,2", "comma-separated"),
                                              ("1,x,2", "is not a number")])
def test_bad_example_values_are_usage_errors(example, message):
    out = _run("mlp_input", example=example)
    assert out.returncode == ExitCode.USAGE_ERROR and message in out.stderr


def test_label_out_of_range_and_bad_lr_are_usage_errors():
    out = _run("mlp_output", label="3")
    assert out.returncode == ExitCode.USAGE_ERROR and "label 3 is not a class index" in out.stderr
    out = _run("mlp_output", lr="0")
    assert out.returncode == ExitCode.USAGE_ERROR and "must be positive" in out.stderr
    out = _run("mlp_output", lr="inf")
    assert out.returncode == ExitCode.USAGE_ERROR and "not a finite number" in out.stderr


def test_unknown_capstone_and_eta_on_float_rung_are_usage_errors():
    out = _run("joint_sgd_descends")
    assert out.returncode == ExitCode.USAGE_ERROR and "unknown capstone 'joint_sgd_descends'" in out.stderr
    out = _run("mlp_output_float_sgd_descends", "--eta", "0.001")
    assert out.returncode == ExitCode.USAGE_ERROR and "--eta does not apply" in out.stderr


def test_negative_first_entry_with_equals_form():
    """`--example=-1,…` (the '=' form argparse needs for a leading minus) is read as a vector."""
    out = cli("discharge", "mlp_input", "--net", NET, "--example=-1,0.5,-0.75", "--label", "0", "--lr=1/1024",
              "--format", "json", timeout=120)
    assert out.returncode in (ExitCode.OK, ExitCode.FAILED), out.stderr
    assert json.loads(out.stdout)["capstone"] == "mlp_input_sgd_descends"


def test_float_rung_needs_a_binary32_example():
    out = _run("mlp_input_float", example="0.1,0.2,0.3")
    assert out.returncode == ExitCode.USAGE_ERROR and "not a binary32 number" in out.stderr
