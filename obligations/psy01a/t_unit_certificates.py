"""Psy01-A: the frozen-gate bounds evaluated on the t-unit networks of the identical-masks
proposition, against their exact stressed accuracy Φ(t/σ)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from checker import Expect, Source, obligation
from checker.backends import interval, smt
from checker.kernel.verdicts import all_of, fmt, timed, trusted, unknown, with_data
from obligations.psy01a import arb_linalg, stress_certificates, stress_network, stress_vs_masks
from obligations.psy01a.construction_gates import TRIVIAL_BRACKET

DOC = "000_1ea2e46c3d2f64bf.txt"
SIGMA = Fraction(1, 4)
INPUTS = 4


def _bounds(t: Fraction, u: Any) -> list[stress_certificates.Certified]:
    import flint

    net = stress_vs_masks.t_network(t)
    old = flint.ctx.prec
    flint.ctx.prec = arb_linalg.ARB_PREC
    try:
        cp = stress_certificates.clean_pass(net, u)
        prep = stress_certificates._Prepared(net)
        return [stress_certificates.frozen_gate_bounds(prep, cp, c, 0, SIGMA) for c in range(u.shape[0])]
    finally:
        flint.ctx.prec = old


@obligation(
    id="psy01a.frozen_gates_on_t_unit_networks",
    source=Source(DOC, "Theorem thm:frozengates evaluated on the networks of the identical-masks proposition"),
    statement="On the t-unit networks of the identical-masks proposition (class-0 test law) the frozen-gate bounds bracket "
    "the exact stressed accuracy Φ(t/σ) only trivially: the certified ε_gate exceeds 1 at every input (gates that cannot influence "
    "the output), so the bracket is [0, 1].",
    scope="the 067A-shaped t-unit networks of psy01a.identical_masks_stress at 4 seeded inputs each, σ = 1/4; the bounds "
    "(arb) and Φ(t/σ) (rigorous enclosure) compared exactly, at t = 1/2, 1, 2. Declared theorem: once ε_gate ≥ 1 "
    "the bracket is [0, 1] for every value of the pairwise terms (z3); the bounds themselves are computed at the inputs",
    expect=Expect.OPEN,
    lean="Psy01A.frozen_gates_on_t_unit_networks",
    uses=("psy01a.identical_masks_stress", "psy01a.frozen_gate_certificate"),
    claims=(TRIVIAL_BRACKET,),
    theorem=(TRIVIAL_BRACKET,),
)
def frozen_gates_on_t_unit_networks(ctx):
    """The identical-masks proposition has networks whose stressed accuracy on a class-0 law is
    exactly Φ(t/σ) (psy01a.identical_masks_stress). The referee asks what the frozen-gate
    theorem certifies for them. The selected third-layer unit has no incoming weights, so its
    preactivation t is deterministic (variance 0: no gate exit) and the pairwise margins are
    1, 2, 2 with standard deviations σ/t, giving p_1 = Φ(t/σ), p_2 = p_3 = Φ(2t/σ); but
    ε_gate sums the gate-exit probabilities of every layer-2 and layer-3 gate of the dense
    upstream layers, which cannot reach the output. The bounds still bracket Φ(t/σ) (checked
    rigorously at each input), and the recorded ε_gate shows how much of the gap is spent on
    irrelevant gates: here ε_gate is 55–93, so the certificate is the trivial [0, 1] at every
    input, while the pairwise term min_j p_j (recorded as data) is Φ(t/σ). The theorem's union bound over all 384 gates does
    not look at which gates can reach the output; restricting it to gates with a path to the
    head would certify these networks exactly.

    Method: ``stress_certificates.frozen_gate_bounds`` (arb balls, Interval.Phi) at 4 seeded inputs of
    each network; Φ(t/σ) enclosed rigorously; lower ≤ Φ(t/σ) ≤ upper compared between exact
    rationals.

    Theorem (declared): :data:`.construction_gates.TRIVIAL_BRACKET`, the step from ε_gate ≥ 1 to the
    bracket [0, 1] for every value of the pairwise terms (z3). The bounds at each input are computations
    on the networks (points).

    Survives mutation: ok = all(c.eps_gate is not None and c.lower <= phi.lo: the bracket is checked to be [0, 1] and Φ(t/σ) is enclosed strictly inside (0, 1), so the strict test passes too
    """
    np = stress_network._np()
    rng = ctx.rng("t-unit-frozen-inputs")
    u = stress_network._grid(np, rng.normal(0, 3, size=(INPUTS, 4)))
    parts, table = {}, []
    for t in stress_vs_masks.T_VALUES:
        with timed() as tm:
            certs = _bounds(t, u)
            phi = interval.Interval.of(t / SIGMA).Phi()
            ok = all(c.eps_gate is not None and c.lower <= phi.lo and phi.hi <= c.upper and c.eps_gate > 1
                     and c.lower == 0 and c.upper == 1 for c in certs)
            row = {"t": fmt(t), "Phi(t/sigma)": phi.describe(10),
                   "lower": [float(c.lower) for c in certs], "upper": [float(c.upper) for c in certs],
                   "eps_gate": [float(c.eps_gate) if c.eps_gate is not None else None for c in certs],
                   "p_j": [list(c.p) for c in certs[:1]]}
            step = tm.step(interval.NAME, interval.version(), f"frozen-gate bounds at t = {fmt(t)}, σ = {fmt(SIGMA)}",
                           "trivial bracket [0, 1] ∋ Φ(t/σ), ε_gate > 1" if ok else "not as stated")
        table.append(row)
        parts[f"t = {fmt(t)}"] = (trusted("rigorous frozen-gate bounds against Φ(t/σ)", step,
                                         at=[f"t = {fmt(t)}, input {i}" for i in range(INPUTS)], **row) if ok else
                                  unknown("rigorous frozen-gate bounds against Φ(t/σ)",
                                          "not as stated: a bound misses Φ(t/σ), a gate hypothesis failed, or ε_gate ≤ 1", step, **row))
    parts["the bracket is [0, 1] once ε_gate ≥ 1 (z3)"] = smt.prove(TRIVIAL_BRACKET, ctx)
    return with_data(all_of("rigorous bounds at each t", parts), table=table, sigma=fmt(SIGMA))
