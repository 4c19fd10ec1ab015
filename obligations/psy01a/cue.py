"""Psy01-A cue use: the signed margin and its Lipschitz constant."""

from __future__ import annotations

from checker import Expect, Source, obligation
from checker.kernel.declare import declare_bound
from checker.backends import induction, library, smt
from checker.claims import claim, sized_claim, some_instance
from checker.kernel.verdicts import all_of, any_of
from obligations.grading import cross_checked
from obligations.psy01a.examples import example_instance

DOC = "000_1ea2e46c3d2f64bf.txt"
CLASS_COUNTS = (2, 3, 4, 5, 6)


def signed_margin(o, z, y):
    """m(z, y) = z_y − max_{j≠y} z_j (reconstructed: "for logits z and true label y, define the
    signed margin"; positive exactly when y is the unique arg-max)."""
    return z[y] - o.max(*(z[j] for j in range(len(z)) if j != y))


def _names(k):
    return [f"z{i}" for i in range(k)], [f"w{i}" for i in range(k)]


def _lipschitz_claim(k: int, y: int, constant=2):
    zs, ws = _names(k)

    def parts(v):
        return [v[n] for n in zs], [v[n] for n in ws]

    def gap(o, v):
        z, w = parts(v)
        return o.abs(signed_margin(o, z, y) - signed_margin(o, w, y))

    def sup(o, v):
        z, w = parts(v)
        return o.max(*(o.abs(a - b) for a, b in zip(z, w)))

    return claim(
        f"margin-lipschitz-k{k}-y{y}", zs + ws,
        lambda o, v: o.le(gap(o, v), constant * sup(o, v)),
        terms={"margin_change": gap, "sup_distance": sup},
    )


LIPSCHITZ = tuple(_lipschitz_claim(k, y) for k in CLASS_COUNTS for y in range(k))


def _sized_gap(o, v):
    return o.abs((v.zy - o.maxv(v.z)) - (v.wy - o.maxv(v.w)))


def _sized_sup(o, v):
    return o.max(o.abs(v.zy - v.wy), o.norminf(v.z - v.w))


def _sized_lipschitz_claim(constant=2):
    return sized_claim(
        "margin-two-lipschitz", "n:nat[1,]", "z[n] w[n]",
        lambda o, v: o.le(_sized_gap(o, v), constant * _sized_sup(o, v)),
        terms={"margin_change": _sized_gap, "sup_distance": _sized_sup},
        scalars="zy wy",
    )


MARGIN_LIPSCHITZ = _sized_lipschitz_claim()
"""For K = n + 1 ≥ 2 classes and a label y: the logits z ∈ ℝ^K written as the label's logit ``zy`` and
the other n = K − 1 logits ``z[n]`` (in any order: the margin and ‖·‖∞ do not depend on it), so
m(z, y) = zy − max z[n] and ‖z − z'‖∞ = max(|zy − wy|, ‖z[n] − w[n]‖∞). Every label of every K is
one such split, so this is the statement for every K and every y."""


@obligation(
    id="psy01a.margin_two_lipschitz",
    source=Source(DOC, "signed margin, eq:marginlip: 'The margin is 2-Lipschitz in the logit sup norm'"),
    statement="For every label y, |m(z, y) − m(z', y)| ≤ 2·‖z − z'‖_∞.",
    scope="every number of classes K ≥ 2 and every label, universally over ℝ^{2K}: by induction over the K − 1 "
    "other logits (z3 base and step; max 1-Lipschitz in ℓ∞, a library lemma proved by induction); cross-check, not "
    "part of the proof: z3 for K = 2…6 and each label",
    expect=Expect.HOLDS,
    lean="Psy01A.margin_two_lipschitz",
    claims=LIPSCHITZ,
    theorem=MARGIN_LIPSCHITZ,
)
def margin_two_lipschitz(ctx):
    """The signed margin m(z, y) = z_y − max_{j≠y} z_j changes by at most twice the sup-norm
    change of the logits (z_y moves by ≤ ε, the max of the others by ≤ ε). The displayed
    definition was lost; the reconstruction is the standard one the proofs use ("if the
    absolute signed margin exceeds 2η … correctness cannot change").

    Method: the theorem splits the logits into the label's and the K − 1 others (MARGIN_LIPSCHITZ)
    and is proved for every K by induction over the others: |max z − max z'| ≤ ‖z − z'‖∞ (library
    ``max_lipschitz``, itself proved by induction) at each size, then the triangle inequality in z3.
    Independently, z3 proves the theorem at K = 2, 3, 4 and each (K, y) case over ℝ^{2K} for
    K = 2…6 in the original indexing (cross-checks of the encoding: a counterexample to the
    theorem at a size refutes the result, re-checked exactly at that size).

    Survives mutation: CLASS_COUNTS = (2, 3, 4, 5, 6): the bound holds for every class count; another count list is proved too
    Survives mutation: if j != y)): the mutated margin z_y − max_{j=y} z_j is identically 0, trivially 2-Lipschitz (the attained constant is checked by margin_two_lipschitz_tight)
    """
    proof = induction.prove(MARGIN_LIPSCHITZ, "n", ctx, uses=[
        library.use("max_lipschitz", x=lambda s: s.z, y=lambda s: s.w)])
    checks = {c.name: induction.with_sizes(smt.prove(c, ctx), {"n": n}) for n in (1, 2, 3) for c in (MARGIN_LIPSCHITZ.at(n=n),)}
    checks.update({c.name: smt.prove(c, ctx) for c in LIPSCHITZ})
    return cross_checked(proof, checks)


def _tight_claim(k: int):
    zs, ws = _names(k)

    def gap(o, v):
        return o.abs(signed_margin(o, [v[n] for n in zs], 0) - signed_margin(o, [v[n] for n in ws], 0))

    def sup(o, v):
        return o.max(*(o.abs(v[a] - v[b]) for a, b in zip(zs, ws)))

    return claim(
        f"margin-lipschitz-k{k}-attained", zs + ws,
        lambda o, v: o.and_(o.eq(gap(o, v), 2 * sup(o, v)), o.gt(sup(o, v), 0)),
        terms={"margin_change": gap, "sup_distance": sup},
    )


TIGHT = tuple(_tight_claim(k) for k in CLASS_COUNTS)


@obligation(
    id="psy01a.margin_two_lipschitz_tight",
    source=Source(DOC, "signed margin, eq:marginlip"),
    statement="The constant 2 is best possible: there are logits with |m(z, y) − m(z', y)| = 2·‖z − z'‖_∞ > 0, "
    "so no constant c < 2 gives a valid bound.",
    scope="K = 2, 3, 4, 5, 6 classes, label 0 (by symmetry of relabelling); z3 instance re-checked in exact rationals",
    expect=Expect.HOLDS,
    lean="Psy01A.margin_two_lipschitz_tight",
    uses=("psy01a.margin_two_lipschitz",),
    claims=TIGHT,
    theorem=tuple(some_instance(c) for c in TIGHT),
)
def margin_two_lipschitz_tight(ctx):
    """An exact instance with equality (e.g. z = 0, z' = (ε, −ε, …, −ε)) shows the 2 in the
    margin Lipschitz bound cannot be lowered: at that instance any c < 2 gives
    c·‖z − z'‖_∞ < |Δm|. z3 finds an instance for each K; the exact backend confirms it.

    Survives mutation: CLASS_COUNTS = (2, 3, 4, 5, 6): attainment holds for every class count
    Survives mutation: signed_margin(o, [v[n] for n in ws], 0)): attainment at another label also holds (by symmetry of the labels)
    Survives mutation: o.eq(gap(o, v), 2 * sup(o, v)): a mutated existential (gap ≠ 2·sup, sup ≥ 0) is also satisfiable, and its instance is re-checked exactly
    """
    # Each K: the existence from the stated point, evaluated exactly; failing that, from z3's own instance.
    return all_of("z3 instance with equality, re-checked exactly", {c.name: _tight_instance(c, k, ctx)
                                                                    for k, c in zip(CLASS_COUNTS, TIGHT)})


def _tight_instance(c, k: int, ctx):
    """Some instance of ``c``: the stated point's, else z3's (either proves the existence; z3's ``unsat``
    refutes it)."""
    return any_of(f"an instance of {c.name}", {"the stated point": lambda: example_instance(c, tight_point(k)),
                                               "z3 instance": lambda: smt.find_instance(c, ctx)})


def tight_point(k: int) -> dict[str, int]:
    """z = 0, z' = (1, −1, …, −1): m(z, 0) = 0, m(z', 0) = 2, ‖z − z'‖_∞ = 1."""
    zs, ws = _names(k)
    return {**{n: 0 for n in zs}, **{n: (1 if i == 0 else -1) for i, n in enumerate(ws)}}

# For the tightness audit (checker.audit.audits): each claim is margin_change ≤ 2·sup_distance.
declare_bound(LIPSCHITZ, "margin_change", "sup_distance", constant=2)
