"""The shortcuts of obligations/lean_mlp/gradients.py build exactly the expressions of sympy's
own routes on the obligations' inputs: the memoised term-by-term derivative is ``sp.diff`` of
the whole loss, the DAG traversals are ``atoms(exp)`` and ``xreplace``, and the normaliser's
``log`` is the evaluated ``sp.log``."""

from __future__ import annotations

from obligations.lean_mlp import gradients, mlp

sp = gradients.symbolic.sympy()


def _regions():
    """Every (net, x, sign test) of the whole-MLP gradient obligations."""
    for dims in gradients.MLP_DIMS:
        net, x = gradients.symbolic_net(dims)
        for s0 in gradients.patterns(dims[1]):
            for s1 in gradients.patterns(dims[2]):
                yield net, x, gradients.network_pattern(net, x, s0, s1)


def test_normaliser_log_is_sympys_log():
    n = 0
    for net, x, positive in _regions():
        logits = mlp.forward(net, x, positive).logits
        e = [sp.exp(t - logits[0]) for t in logits]
        total = sum(e[1:], start=e[0])
        fast = gradients._sp_log(total)
        assert fast == sp.log(total) and fast.func is sp.log
        n += 1
    assert n == 16 + 32 + 32
    # anything else goes through log's evaluation
    u = sp.Symbol("u", real=True)
    assert gradients._sp_log(sp.exp(u)) == u
    assert gradients._sp_log(sp.Integer(1)) == 0


def test_term_derivative_atoms_and_xreplace_agree_with_sympy():
    checked = 0
    for net, x, positive in _regions():
        memo: dict = {}
        for label in (0, 1):
            L = mlp.loss(net, x, label, gradients._sp_exp, gradients._sp_log, positive)
            grads = mlp.gradients(net, x, label, gradients._sp_exp, positive)
            for layer in ("W0", "W1"):
                for i, row in enumerate(net.layer(layer)):
                    for j, w in enumerate(row):
                        d = gradients.term_derivative(L, w, memo)
                        assert d == sp.diff(L, w)
                        e = d - grads[layer][i][j]
                        atoms = gradients.exp_atoms(e)
                        assert atoms == e.atoms(sp.exp)
                        subs = {a: sp.Symbol(f"E{k}", positive=True)
                                for k, a in enumerate(sorted(atoms, key=sp.default_sort_key))}
                        assert gradients.xreplace_shared(e, subs) == e.xreplace(subs)
                        checked += 1
    assert checked == 2 * (16 * (4 + 4) + 32 * (2 + 6) + 32 * (6 + 6))


def test_term_derivative_of_a_non_sum_and_of_a_constant():
    y = sp.Symbol("y", real=True)
    memo: dict = {}
    for expr in (sp.log(1 + sp.exp(y)), sp.Integer(3), y**2 + y):
        assert gradients.term_derivative(expr, y, memo) == sp.diff(expr, y)


def test_first_derivative_is_sp_diff_at_the_edges():
    y, z = sp.Symbol("y", real=True), sp.Symbol("z", real=True)
    f = sp.Function("f")
    for expr in (z**2, sp.Integer(0), y, f(y) * y, sp.log(1 + sp.exp(y * z)), sp.Max(y, 0) * z):
        for v in (y, z):
            assert gradients.first_derivative(expr, v) == sp.diff(expr, v)


def test_term_derivative_on_one_sided_line_branches():
    """The one-sided line derivatives of the differentiability obligations: the smooth branch
    of the kinked loss along a W₀ and a W₁ coordinate, at seeded rational points."""
    import numpy as np

    h = sp.Symbol("h", real=True)
    rng = np.random.default_rng(7)
    for _ in range(3):
        net, x = gradients._random_rational_net(rng, (2, 2, 2, 2))
        q = lambda v: sp.Rational(v.numerator, v.denominator)  # noqa: E731
        for layer in ("W0", "W1"):
            parts = {n: ([[q(w) for w in r] for r in net.layer(n)] if n.startswith("W") else [q(b) for b in net.layer(n)])
                     for n in mlp.LAYERS}
            parts[layer][0][1] += h
            z0 = mlp.dense(parts["W0"], parts["b0"], [q(v) for v in x])
            z1 = mlp.dense(parts["W1"], parts["b1"], [sp.Max(z, 0) for z in z0])
            logits = mlp.dense(parts["W2"], parts["b2"], [sp.Max(z, 0) for z in z1])
            kinked = mlp.cross_entropy(logits, 1, gradients._sp_exp, gradients._sp_log)
            for side in (1, -1):
                branch, _ = gradients.line_branch(kinked, h, side)
                assert gradients.term_derivative(branch, h, {}) == sp.diff(branch, h)


def test_written_out_relu_prime_forms_are_the_int_products():
    """The if-then-else closed forms built with ``relu_prime_times`` are, expression for
    expression, the ``int(sign) * …`` products as first written, on every region of the bridge
    obligations (both layers) and of the two-mask chain."""
    checked = 0
    for net, x, positive in _regions():
        d0, d1, d2, d3 = len(x), len(net.b0), len(net.b1), len(net.b2)
        f = mlp.forward(net, x, positive)
        s0, s1 = [positive(z) for z in f.z0], [positive(z) for z in f.z1]
        c = mlp.head_cotangent(f.logits, 0, gradients._sp_exp)
        mask = mlp.relu_mask(f.z1, gradients.transpose_contraction(net.W2, c), positive)
        for i in range(d1):
            for j in range(d2):
                S = sum(net.W2[j][k] * c[k] for k in range(d3))
                assert gradients.relu_prime_times(s1[j], mlp._product(f.a0[i], S)) == f.a0[i] * int(s1[j]) * S
                assert mlp._product(f.a0[i], mask[j]) == f.a0[i] * mask[j]
                checked += 1
        for i in range(d0):
            for j in range(d1):
                fast = gradients.relu_prime_times(s0[j], x[i] * sum(gradients.relu_prime_times(
                    s1[l], net.W1[j][l] * sum(net.W2[l][k] * c[k] for k in range(d3))) for l in range(d2)))
                slow = x[i] * int(s0[j]) * sum(net.W1[j][l] * int(s1[l]) * sum(net.W2[l][k] * c[k] for k in range(d3))
                                              for l in range(d2))
                assert fast == slow
                checked += 1
    for d1, d2, d3 in gradients.CHAIN_DIMS:
        W1, b1 = gradients.sym_matrix(sp, "W1", d1, d2), gradients.sym_vector(sp, "b1", d2)
        W2, b2 = gradients.sym_matrix(sp, "W2", d2, d3), gradients.sym_vector(sp, "b2", d3)
        z0 = gradients.sym_vector(sp, "z", d1)
        for s0 in gradients.patterns(d1):
            a0 = [z if s else 0 * z for z, s in zip(z0, s0)]
            z1 = mlp.dense(W1, b1, a0)
            for s1 in gradients.patterns(d2):
                positive = gradients.sign_table([*zip(z0, s0), *zip(z1, s1)])
                logits = mlp.dense(W2, b2, mlp.relu(z1, positive))
                c = mlp.head_cotangent(logits, d3 - 1, gradients._sp_exp)
                for j in range(d1):
                    fast = gradients.relu_prime_times(s0[j], sum(gradients.relu_prime_times(
                        s1[l], W1[j][l] * sum(W2[l][k] * c[k] for k in range(d3))) for l in range(d2)))
                    slow = int(s0[j]) * sum(W1[j][l] * int(s1[l]) * sum(W2[l][k] * c[k] for k in range(d3))
                                            for l in range(d2))
                    assert fast == slow
                    checked += 1
    assert checked > 400
