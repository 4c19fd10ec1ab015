"""Psy01-A setup: the 067A architecture derived from the text's counts."""

from __future__ import annotations

from checker.kernel.model import Grade
from checker import Expect, Source, obligation
from checker.backends import exact
from checker.kernel.verdicts import timed, trusted, unknown

DOC = "000_1ea2e46c3d2f64bf.txt"

# What the text fixes (quoted in the obligation's docstring).
INPUT_DIM = 2 + 2  # u = (x, c), x ∈ ℝ², c ∈ ℝ²
FIRST_WIDTH = 256  # B_{1,c} ∈ ℝ^{256×2}
HIDDEN_TOTAL = 640  # H = n1 + n2 + n3 = 640
CLASSES = 4  # Y uniform on {0, 1, 2, 3}
BIASES = 644
PARAMETERS = 100_484
RELAY_UNITS = 8  # the sparse construction relays eight units through layers 2 and 3


def weight_count(widths: tuple[int, ...]) -> int:
    return sum(a * b for a, b in zip(widths, widths[1:]))


def candidate_architectures() -> list[tuple[int, int, int, int, int]]:
    """Every (4, 256, n2, n3, 4) with n2 + n3 = 384 and 100,484 parameters in all."""
    found = []
    for n2 in range(1, HIDDEN_TOTAL - FIRST_WIDTH):
        n3 = HIDDEN_TOTAL - FIRST_WIDTH - n2
        widths = (INPUT_DIM, FIRST_WIDTH, n2, n3, CLASSES)
        if weight_count(widths) + sum(widths[1:]) == PARAMETERS:
            found.append(widths)
    return found


ARCHITECTURE = (4, 256, 256, 128, 4)


@obligation(
    id="psy01a.parameter_count",
    source=Source(DOC, "setup: layer widths, '644 bias parameters', 'total parameter count is 100484'"),
    statement="The widths are 4 → 256 → 256 → 128 → 4: this architecture has 99,840 weights, 644 biases and "
    "100,484 parameters, a 512-entry first-layer cue block, and it is the only one consistent with the text.",
    scope="exhaustive over every split n2 + n3 = 384 of positive integer widths (exact integer arithmetic)",
    expect=Expect.HOLDS,
    lean="Psy01A.parameter_count",
)
def parameter_count(ctx):
    """Derive the 067A widths from the prose and check every count.

    Reconstruction (the width display was lost). The text fixes: input u = (x, c) with
    x, c ∈ ℝ² (4 inputs); B_{1,c} ∈ ℝ^{256×2} (first layer 256 units); H = n1 + n2 + n3 = 640;
    Y ∈ {0,1,2,3} (4 classes); 644 biases; 100,484 parameters. Enumerating every positive
    split n2 + n3 = 384 leaves exactly two architectures: (4,256,256,128,4) and
    (4,256,380,4,4). The sparse construction relays eight units "through eight identity
    connections in each of the next two hidden layers" and pads with dormant units, which
    needs n3 ≥ 8; that excludes n3 = 4. Exhaustive enumeration is a proof over all splits."""
    with timed() as t:
        candidates = candidate_architectures()
        feasible = [w for w in candidates if w[2] >= RELAY_UNITS and w[3] >= RELAY_UNITS]
        widths = ARCHITECTURE
        weights = weight_count(widths)
        biases = sum(widths[1:])
        facts = {
            "weights == 99840": weights == 99_840,
            "biases == 644": biases == BIASES,
            "parameters == 100484": weights + biases == PARAMETERS,
            "H == 640": sum(widths[1:4]) == HIDDEN_TOTAL,
            "cue block 256x2 == 512 entries": FIRST_WIDTH * 2 == 512,
            "unique feasible architecture": feasible == [ARCHITECTURE],
        }
        step = t.step(exact.NAME, exact.VERSION, "enumerate n2 + n3 = 384 and count parameters",
                      "all facts hold" if all(facts.values()) else "a fact fails",
                      cases=HIDDEN_TOTAL - FIRST_WIDTH - 1, solutions=[list(w) for w in candidates])
    data = {"widths": list(widths), "weights_per_layer": [a * b for a, b in zip(widths, widths[1:])],
            "weights": weights, "biases": biases, "facts": facts,
            "all_solutions": [list(w) for w in candidates], "excluded": "n3 = 4 < 8 relay units of the sparse construction"}
    if all(facts.values()):
        return trusted("exhaustive enumeration (exact integers)", step, grade=Grade.UNIVERSAL, **data)
    return unknown("exhaustive enumeration (exact integers)", "a stated count does not match: " +
                   ", ".join(k for k, ok in facts.items() if not ok), step, **data)
