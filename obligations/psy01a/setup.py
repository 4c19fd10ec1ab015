"""Psy01-A setup: the 067A architecture derived from the text's counts."""

from __future__ import annotations

from checker import Expect, Source, obligation
from checker.backends import exact
from checker.claims import claim
from checker.kernel.verdicts import with_data

DOC = "000_1ea2e46c3d2f64bf.txt"

# What the text fixes (quoted in the obligation's docstring).
INPUT_DIM = 2 + 2  # u = (x, c), x ∈ ℝ², c ∈ ℝ²
FIRST_WIDTH = 256  # B_{1,c} ∈ ℝ^{256×2}
HIDDEN_TOTAL = 640  # H = n1 + n2 + n3 = 640
CLASSES = 4  # Y uniform on {0, 1, 2, 3}
BIASES = 644
PARAMETERS = 100_484
RELAY_UNITS = 8  # the sparse construction relays eight units through layers 2 and 3
WEIGHTS = 99_840  # the stated weight count
CUE_BLOCK = 512  # the stated size of the first-layer cue block B_{1,c}


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


def _counts_claim():
    """The statement as one claim over the free width n2 (n3 = 384 − n2 by H = 640): a split is
    consistent with the text (100,484 parameters, both relay layers ≥ 8 units) exactly when it is
    the stated architecture, and that architecture has the stated counts."""
    free = HIDDEN_TOTAL - FIRST_WIDTH

    def widths(v):
        return (INPUT_DIM, FIRST_WIDTH, v.n2, free - v.n2, CLASSES)

    def weights(v):
        w = widths(v)
        return sum(a * b for a, b in zip(w, w[1:]))

    def biases(v):
        return sum(widths(v)[1:])

    def conclusion(o, v):
        w = widths(v)
        consistent = o.and_(o.eq(weights(v) + biases(v), PARAMETERS), o.ge(w[2], RELAY_UNITS), o.ge(w[3], RELAY_UNITS))
        stated = o.eq(v.n2, ARCHITECTURE[2])
        counts = o.and_(o.eq(w[4], ARCHITECTURE[4]), o.eq(w[3], ARCHITECTURE[3]), o.eq(w[0], ARCHITECTURE[0]),
                        o.eq(w[1], ARCHITECTURE[1]), o.eq(weights(v), WEIGHTS), o.eq(biases(v), BIASES),
                        o.eq(weights(v) + biases(v), PARAMETERS), o.eq(w[1] + w[2] + w[3], HIDDEN_TOTAL),
                        o.eq(w[1] * 2, CUE_BLOCK))
        return o.and_(o.implies(consistent, stated), o.implies(stated, o.and_(consistent, counts)))

    return claim("psy01a-architecture-counts", f"n2:int[1,{free - 1}]", conclusion,
                 terms={"weights": lambda o, v: weights(v), "biases": lambda o, v: biases(v),
                        "parameters": lambda o, v: weights(v) + biases(v)})


COUNTS = _counts_claim()


@obligation(
    id="psy01a.parameter_count",
    source=Source(DOC, "setup: layer widths, '644 bias parameters', 'total parameter count is 100484'"),
    statement="The widths are 4 → 256 → 256 → 128 → 4: this architecture has 99840 weights, 644 biases and "
    "100484 parameters, a 512-entry first-layer cue block, and it is the only one consistent with the text.",
    scope="exhaustive over every split n2 + n3 = 384 of positive integer widths (exact integer arithmetic)",
    expect=Expect.HOLDS,
    lean="Psy01A.parameter_count",
    claims=(COUNTS,),
    theorem=_counts_claim,
)
def parameter_count(ctx):
    """Derive the 067A widths from the prose and check every count.

    Reconstruction (the width display was lost). The text fixes: input u = (x, c) with
    x, c ∈ ℝ² (4 inputs); B_{1,c} ∈ ℝ^{256×2} (first layer 256 units); H = n1 + n2 + n3 = 640;
    Y ∈ {0,1,2,3} (4 classes); 644 biases; 100,484 parameters. Enumerating every positive
    split n2 + n3 = 384 leaves exactly two architectures: (4,256,256,128,4) and
    (4,256,380,4,4). The sparse construction relays eight units "through eight identity
    connections in each of the next two hidden layers" and pads with dormant units, which
    needs n3 ≥ 8; that excludes n3 = 4. The theorem is one claim over the free width n2 ∈ [1, 383]:
    a split is consistent with the text exactly when it is the stated one, which has the stated
    counts; exact.enumerate_domain evaluates it at every split (a proof over all of them; a wrong
    stated count or constant is refuted at the split where it fails)."""
    candidates = candidate_architectures()
    data = {"widths": list(ARCHITECTURE), "weights_per_layer": [a * b for a, b in zip(ARCHITECTURE, ARCHITECTURE[1:])],
            "all_solutions": [list(w) for w in candidates], "excluded": "n3 = 4 < 8 relay units of the sparse construction"}
    return with_data(exact.enumerate_domain(_counts_claim()), **data)
