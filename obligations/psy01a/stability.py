"""Psy01-A stability and pruning: masked operator norms."""

from __future__ import annotations

from checker import Expect, Source, obligation
from checker.kernel.declare import declare_bound
from checker.backends import interval, smt, symbolic
from checker.claims import claim
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
        return sp.Max(*(a.T * a).eigenvals()) - sp.sympify(STATED_NORMS[int(masked)]) ** 2

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


MAX_COLUMNS = 6


def _frobenius_claim(rows: int, cols: int):
    ws = [f"w{i}{j}" for i in range(rows) for j in range(cols)]
    ms = [f"m{i}{j}" for i in range(rows) for j in range(cols)]
    xs = [f"x{j}" for j in range(cols)]

    def masked_image_sq(o, v):
        return sum((sum(v[f"w{i}{j}"] * v[f"m{i}{j}"] * v[f"x{j}"] for j in range(cols))) ** 2 for i in range(rows))

    def frobenius_sq_times_x(o, v):
        return sum(v[w] * v[w] for w in ws) * sum(v[x] * v[x] for x in xs)

    return claim(
        f"masked-opnorm-le-frobenius-{rows}x{cols}", ws + ms + xs,
        lambda o, v: o.le(masked_image_sq(o, v), frobenius_sq_times_x(o, v)),
        hypotheses={"mask is 0/1": lambda o, v: o.and_(*(o.or_(o.eq(v[m], 0), o.eq(v[m], 1)) for m in ms))},
        terms={"|(W∘M)x|²": masked_image_sq, "‖W‖_F²|x|²": frobenius_sq_times_x},
    )


FROBENIUS_Z3 = (_frobenius_claim(2, 2),)
# For the tightness audit (checker.audit.audits): the claim is |(W∘M)x|² ≤ 1·‖W‖_F²|x|².
declare_bound(FROBENIUS_Z3, "|(W∘M)x|²", "‖W‖_F²|x|²")


@obligation(
    id="psy01a.masked_opnorm_frobenius",
    source=Source(DOC, "masked operator norms: 'The always valid bound ‖W∘M‖_op ≤ ‖W‖_F'"),
    statement="For every real matrix W and every 0/1 mask M of the same shape, ‖W∘M‖_op ≤ ‖W‖_F.",
    scope=f"every matrix with at most {MAX_COLUMNS} columns and any number of rows (sympy polynomial identity); "
    "cross-check, not part of the proof: z3 over ℝ for 2×2 with the mask as a hypothesis",
    expect=Expect.HOLDS,
    lean="Psy01A.masked_opnorm_le_frobenius",
    claims=FROBENIUS_Z3,
)
def masked_opnorm_frobenius(ctx):
    """‖W∘M‖_op ≤ ‖W∘M‖_F ≤ ‖W‖_F. The second step holds because each masked entry is w·m
    with m ∈ {0, 1}, so (wm)² ≤ w². The first is Cauchy–Schwarz row by row:
    ‖a‖²‖x‖² − (a·x)² = Σ_{j<k} (a_j x_k − a_k x_j)² (Lagrange's identity), so
    ‖Ax‖² = Σ_i (a_i·x)² ≤ ‖A‖_F²‖x‖².

    Method: sympy expands Lagrange's identity to 0 for row length n = 1…6 (each a proof for
    that n and any number of rows), and (w·m)² − w² + w²(1 − m) to 0 under m² = m; z3
    independently proves |(W∘M)x|² ≤ ‖W‖_F²‖x‖² with the mask hypothesis for 2×2 (2×3 times
    out in z3: 64 mask cases of a degree-4 inequality)."""
    sp = symbolic.sympy()
    checks = []
    for n in range(1, MAX_COLUMNS + 1):
        a = sp.symbols(f"a0:{n}", real=True)
        x = sp.symbols(f"x0:{n}", real=True)
        lhs = sum(ai**2 for ai in a) * sum(xi**2 for xi in x) - sum(ai * xi for ai, xi in zip(a, x)) ** 2
        sos = sum((a[j] * x[k] - a[k] * x[j]) ** 2 for j in range(n) for k in range(j + 1, n))
        checks.append(symbolic.zero_step(lhs - sos, f"Lagrange identity, row length {n}"))
    w, m = sp.symbols("w m", real=True)
    checks.append(symbolic.zero_step(((w * m) ** 2 - w**2 + w**2 * (1 - m)).subs(m**2, m).expand().subs(m**2, m),
                                     "(w·m)² = w² − w²(1 − m) when m² = m"))
    proof = regrade(symbolic.conclude("sympy polynomial identities", checks), Grade.BOUNDED,
                    f"at most {MAX_COLUMNS} columns, any number of rows")
    # z3 at 2×2 checks the same inequality independently: one shape, data beside the proof.
    return cross_checked(proof, {c.name: smt.prove(c, ctx) for c in FROBENIUS_Z3})
