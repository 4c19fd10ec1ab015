"""Psy01-A stability and pruning: masked operator norms."""

from __future__ import annotations

from checker import Expect, Source, obligation
from checker.kernel.declare import declare_bound
from checker.backends import induction, interval, library, smt, symbolic
from checker.claims import claim, sized_claim
from checker.kernel.model import Grade
from checker.kernel.verdicts import all_of, regrade
from obligations.grading import cross_checked

DOC = "000_1ea2e46c3d2f64bf.txt"

# Reconstruction of the lost example display: "For example, [W and W∘M] have operator norms
# √2 and (1+√5)/2, respectively."
W_EXAMPLE = ((1, 1), (1, -1))
M_EXAMPLE = ((1, 1), (1, 0))


#: The stated operator norms of W and of W∘M (sympy expressions, read when the theorem is built).
STATED_NORMS = ("sqrt(2)", "(1 + sqrt(5))/2")


def _norm_claim(masked: bool):
    """‖A‖₂² − (stated norm)² = 0 for A = W or W∘M, with ‖A‖₂² = λ_max(AᵀA) computed exactly."""
    def build():
        sp = symbolic.sympy()
        a = sp.Matrix(W_EXAMPLE)
        if masked:
            a = a.multiply_elementwise(sp.Matrix(M_EXAMPLE))
        # expanded, so that the claim prints alike however sympy reached the eigenvalues (the kernel
        # matches a fact to the declared theorem by that print; the discharge builds the claim anew)
        eigenvalues = (sp.expand(e) for e in (a.T * a).eigenvals())
        return sp.Max(*eigenvalues) - sp.expand(sp.sympify(STATED_NORMS[int(masked)]) ** 2)

    return symbolic.zero_claim("opnorm-of-masked-example" if masked else "opnorm-of-example", build)


RAISES = claim("masking-raises-opnorm", (), lambda o, v: o.gt((1 + o.sqrt(5)) / 2, o.sqrt(2)),
               terms={"masked_norm": lambda o, v: (1 + o.sqrt(5)) / 2, "unmasked_norm": lambda o, v: o.sqrt(2)})


def norm_theorem():
    return (_norm_claim(False), _norm_claim(True), RAISES)


@obligation(
    id="psy01a.masked_operator_norm",
    source=Source(DOC, "masked operator norms: 'have operator norms √2 and (1+√5)/2, respectively'"),
    statement="W = [[1, 1], [1, −1]] has operator norm √2 and its masked copy W∘M = [[1, 1], [1, 0]] has "
    "operator norm (1+√5)/2 > √2: masking can increase the operator norm.",
    scope="the reconstructed 2×2 example (exact algebraic numbers in sympy; the strict inequality by a rigorous enclosure)",
    expect=Expect.HOLDS,
    lean="Psy01A.masked_operator_norm_example",
    theorem=norm_theorem,
)
def masked_operator_norm(ctx):
    """Reconstruction: the matrices were lost; the text says only that they have operator
    norms √2 and (1+√5)/2 and that this shows "a universal bound using only the unpruned
    operator norm is not justified by masking". The standard example with these norms is
    W = [[1, 1], [1, −1]] (√2 times an orthogonal matrix) and the 0/1 mask M = [[1, 1], [1, 0]]
    deleting one entry, giving the golden-ratio matrix [[1, 1], [1, 0]].

    Method: sympy computes the eigenvalues of AᵀA exactly; the operator norm is the square
    root of the largest. It checks λ_max(WᵀW) = 2 and λ_max((W∘M)ᵀ(W∘M)) = ((1+√5)/2)²
    (expanded difference 0), that the mask is 0/1 and deletes exactly one entry, and the
    interval backend proves (1+√5)/2 > √2 rigorously. The theorem: λ_max(AᵀA) − (stated norm)² = 0
    for A = W and W∘M (sympy identities, ``symbolic.decide``: a wrong stated norm is refuted by the
    computed value) and (1+√5)/2 > √2 (one rigorous enclosure).

    Survives mutation: o.gt((1 + o.sqrt(5)) / 2, o.sqrt(2)): the non-strict inequality is weaker and still holds
    """
    sp = symbolic.sympy()
    w = sp.Matrix(W_EXAMPLE)
    m = sp.Matrix(M_EXAMPLE)
    wm = w.multiply_elementwise(m)
    golden = (1 + sp.sqrt(5)) / 2

    def lam_max(a):
        eig = list((a.T * a).eigenvals())
        top = eig[0]
        for e in eig[1:]:
            if sp.simplify(e - top).is_positive:
                top = e
        return top, eig

    lw, eig_w = lam_max(w)
    lwm, eig_wm = lam_max(wm)
    checks = [
        symbolic.true_step(sp.And(*[sp.Eq(x * (x - 1), 0) for x in m]), "M is a 0/1 mask"),
        symbolic.true_step(sp.Eq(sum(1 for x in m if x == 0), 1), "M deletes exactly one entry"),
        symbolic.zero_step(lw - 2, "λ_max(WᵀW) − 2"),
        symbolic.zero_step(lwm - golden**2, "λ_max((W∘M)ᵀ(W∘M)) − ((1+√5)/2)²"),
        symbolic.true_step(sp.And(*[sp.Le(e, lwm) for e in eig_wm]), "that eigenvalue is the largest"),
    ]
    symbolic_part = symbolic.conclude("sympy exact eigenvalues", checks,
                                      eigenvalues_WtW=[sp.sstr(e) for e in eig_w],
                                      eigenvalues_masked=[sp.sstr(e) for e in eig_wm])
    norm_w, norm_wm, raises = norm_theorem()
    return all_of("sympy exact eigenvalues + rigorous interval comparison", {
        "norms (sympy steps)": symbolic_part,
        "‖W‖₂ = √2 (sympy)": symbolic.decide(norm_w, "sympy exact eigenvalues"),
        "‖W∘M‖₂ = (1+√5)/2 (sympy)": symbolic.decide(norm_wm, "sympy exact eigenvalues"),
        "(1+√5)/2 > √2": interval.prove_on(raises, {})}, lemmas=True)


MASKED_OPNORM = sized_claim(
    "masked-opnorm-le-frobenius", "n:nat[1,] m:nat[1,]", "W[n,m] M[n,m] x[m]",
    lambda o, v: o.le(o.sumsq((v.W * v.M) @ v.x), o.sumsq(v.W) * o.sumsq(v.x)),
    hypotheses={"mask is 0/1": lambda o, v: o.all(o.or_(o.eq(v.M, 0), o.eq(v.M, 1)))},
    terms={"|(W∘M)x|²": lambda o, v: o.sumsq((v.W * v.M) @ v.x), "‖W‖_F²|x|²": lambda o, v: o.sumsq(v.W) * o.sumsq(v.x)},
)
"""‖W∘M‖_op ≤ ‖W‖_F, as ∀x |(W∘M)x|² ≤ ‖W‖_F²|x|², for every n×m matrix and 0/1 mask."""
FROBENIUS_Z3 = (MASKED_OPNORM.at(n=2, m=2),)
# For the tightness audit (checker.audit.audits): the claim is |(W∘M)x|² ≤ 1·‖W‖_F²|x|².
declare_bound(FROBENIUS_Z3, "|(W∘M)x|²", "‖W‖_F²|x|²")


@obligation(
    id="psy01a.masked_opnorm_frobenius",
    source=Source(DOC, "masked operator norms: 'The always valid bound ‖W∘M‖_op ≤ ‖W‖_F'"),
    statement="For every real matrix W and every 0/1 mask M of the same shape, ‖W∘M‖_op ≤ ‖W‖_F.",
    scope="every n×m matrix and 0/1 mask, by induction over the rows (z3 base and step, Cauchy–Schwarz and "
    "masking lemmas each proved by induction); cross-check, not part of the proof: z3 over ℝ at 2×2",
    expect=Expect.HOLDS,
    lean="Psy01A.masked_opnorm_le_frobenius",
    theorem=MASKED_OPNORM,
    claims=FROBENIUS_Z3,
)
def masked_opnorm_frobenius(ctx):
    """‖W∘M‖_op ≤ ‖W‖_F, stated as ∀x |(W∘M)x|² ≤ ‖W‖_F²|x|² (the definition of the operator norm).

    Method: induction over the rows n. A new row r of W and m of M adds ((r∘m)·x)² to the left side
    and ‖r‖² to the right side's factor; Cauchy–Schwarz bounds the first by ‖r∘m‖²‖x‖², masking
    (m ∈ {0, 1} entrywise) gives ‖r∘m‖² ≤ ‖r‖², and ‖x‖² ≥ 0 — each a library lemma proved by
    induction itself. So the proof covers every n×m; z3 at 2×2 checks the encoding independently."""
    proof = induction.prove(MASKED_OPNORM, "n", ctx, uses=[
        library.use("cauchy_schwarz", x=lambda s: s.new("W") * s.new("M"), y=lambda s: s.x),
        library.use("mask_shrinks", w=lambda s: s.new("W"), k=lambda s: s.new("M")),
        library.use("sumsq_nonneg", x=lambda s: s.x)])
    return cross_checked(proof, {c.name: smt.prove(c, ctx) for c in FROBENIUS_Z3})
