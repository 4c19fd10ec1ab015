"""Unicode to LaTeX: every character the catalogue uses, with the LaTeX it must become.

The list below is the round trip: each character, written in a small context, and the exact LaTeX
texify gives for it. The catalogue's statements, scopes, source labels and (from the committed
snapshot of a full check) grade sizes and witnesses may use no character missing from the list,
so a new character cannot slip into a report as a Unicode name or a wrong symbol; and the whole
list compiles with pdflatex without a missing character.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from checker.report.texify import texify, unmapped

#: character → (a context it is written in, the LaTeX of that context).
ROUND_TRIP: dict[str, tuple[str, str]] = {
    "±": ("x ± y", r"$x \pm y$"),
    "²": ("x² y", r"$x^{2} y$"),
    "³": ("x³ y", r"$x^{3} y$"),
    "·": ("x · y", r"$x \cdot y$"),
    "¹": ("x¹ y", r"$x^{1} y$"),
    "½": ("x ½ y", r"$x {\textstyle\frac12} y$"),
    "×": ("x × y", r"$x \times y$"),
    "÷": ("x ÷ y", r"$x \div y$"),
    "ˢ": ("xˢ y", r"$x^{s} y$"),
    "ˣ": ("eˣ y", r"$e^{x} y$"),
    "\u0302": ("q\u0302 y", r"$\hat{q} y$"),
    "\u0303": ("g\u0303 y", r"$\tilde{g} y$"),
    "Δ": ("x Δ y", r"$x \Delta y$"),
    "Θ": ("x Θ y", r"$x \Theta y$"),
    "Π": ("x Π y", r"$x \Pi y$"),
    "Σ": ("x Σ y", r"$x \Sigma y$"),
    "Φ": ("x Φ y", r"$x \Phi y$"),
    "β": ("x β y", r"$x \beta y$"),
    "γ": ("x γ y", r"$x \gamma y$"),
    "δ": ("x δ y", r"$x \delta y$"),
    "ε": ("x ε y", r"$x \varepsilon y$"),
    "η": ("x η y", r"$x \eta y$"),
    "θ": ("x θ y", r"$x \theta y$"),
    "κ": ("x κ y", r"$x \kappa y$"),
    "λ": ("x λ y", r"$x \lambda y$"),
    "μ": ("x μ y", r"$x \mu y$"),
    "ν": ("x ν y", r"$x \nu y$"),
    "ξ": ("x ξ y", r"$x \xi y$"),
    "π": ("x π y", r"$x \pi y$"),
    "ρ": ("x ρ y", r"$x \rho y$"),
    "σ": ("x σ y", r"$x \sigma y$"),
    "τ": ("x τ y", r"$x \tau y$"),
    "φ": ("x φ y", r"$x \varphi y$"),
    "ψ": ("x ψ y", r"$x \psi y$"),
    "ᵀ": ("xᵀ y", r"$x^{T} y$"),
    "ᵏ": ("xᵏ y", r"$x^{k} y$"),
    "ᵢ": ("xᵢ y", r"$x_{i} y$"),
    "–": ("Fuss–Catalan law", "Fuss--Catalan law"),
    "—": ("the bound — as stated", "the bound --- as stated"),
    "‖": ("‖W‖ y", r"$\|W\| y$"),
    "…": ("K = 2…6", r"$K = 2\ldots 6$"),
    "′": ("C′ y", r"$C' y$"),
    "⁰": ("x⁰ y", r"$x^{0} y$"),
    "⁴": ("x⁴ y", r"$x^{4} y$"),
    "⁵": ("x⁵ y", r"$x^{5} y$"),
    "⁶": ("x⁶ y", r"$x^{6} y$"),
    "⁷": ("x⁷ y", r"$x^{7} y$"),
    "⁸": ("x⁸ y", r"$x^{8} y$"),
    "⁹": ("x⁹ y", r"$x^{9} y$"),
    "⁻": ("2⁻²³ y", r"$2^{-23} y$"),
    "ⁿ": ("xⁿ y", r"$x^{n} y$"),
    "₀": ("x₀ y", r"$x_{0} y$"),
    "₁": ("x₁ y", r"$x_{1} y$"),
    "₂": ("x₂ y", r"$x_{2} y$"),
    "₃": ("x₃ y", r"$x_{3} y$"),
    "₊": ("x₊ y", r"$x_{+} y$"),
    "ₙ": ("xₙ y", r"$x_{n} y$"),
    "ℓ": ("the ℓ1 norm", r"the $\ell 1$ norm"),
    "ℝ": ("x ∈ ℝ here", r"$x \in \mathbb{R}$ here"),
    "→": ("x → y", r"$x \to y$"),
    "↦": ("x ↦ y", r"$x \mapsto y$"),
    "⇒": ("x ⇒ y", r"$x \Rightarrow y$"),
    "∂": ("∂L y", r"$\partial L y$"),
    "∇": ("∇L y", r"$\nabla L y$"),
    "∈": ("x ∈ y", r"$x \in y$"),
    "∑": ("∑ x", r"$\sum x$"),
    "−": ("x − y", r"$x - y$"),
    "∘": ("W∘M y", r"$W\circ M y$"),
    "√": ("√2 y", r"$\sqrt{2} y$"),
    "∝": ("x ∝ y", r"$x \propto y$"),
    "∞": ("‖x‖_∞ y", r"$\|x\|_{\infty } y$"),
    "∧": ("x ∧ y", r"$x \wedge y$"),
    "∫": ("∫ f", r"$\int f$"),
    "≈": ("x ≈ y", r"$x \approx y$"),
    "≠": ("x ≠ y", r"$x \ne y$"),
    "≤": ("for d ≤ 4 only", r"for $d \le 4$ only"),
    "≥": ("x ≥ y", r"$x \ge y$"),
    "⊙": ("x ⊙ y", r"$x \odot y$"),
    "⊗": ("u ⊗ c", r"$u \otimes c$"),
    "⊥": ("x ⊥ y", r"$x \perp y$"),
    "⌈": ("⌈x⌉ y", r"$\lceil x\rceil y$"),
    "⌉": ("⌈x⌉ y", r"$\lceil x\rceil y$"),
    "⌊": ("⌊x⌋ y", r"$\lfloor x\rfloor y$"),
    "⌋": ("⌊x⌋ y", r"$\lfloor x\rfloor y$"),
    "ⱼ": ("xⱼ y", r"$x_{j} y$"),
    "∃": ("∃ L. L > 0", r"$\exists L. L > 0$"),
    "∀": ("∀ L", r"$\forall L$"),
    # not in the catalogue, but in papers checked with it (the margin-bound paper)
    "⪰": ("W ⪰ 0", r"$W \succeq 0$"),
}

#: Prose stays prose around the symbols: the text of the words is never typeset as mathematics.
PROSE = {
    "A 2×2 matrix": r"A $2\times 2$ matrix",
    "Let W ⪰ 0 be a 3 × 3 PSD matrix": r"Let $W \succeq 0$ be a $3 \times 3$ PSD matrix",
    "proved for d ≤ 4 only": r"proved for $d \le 4$ only",
    "d_in×d_out = 1×1, 2×3": r"$d_{in}\times d_{\mathrm{out}} = 1\times 1,\allowbreak 2\times 3$",
    "café with an accent": r"caf\'{e} with an accent",
    "obligations/psy01a/cue.py:212": r"obligations/\allowbreak{}psy01a/\allowbreak{}cue.py:212",
}


def _catalogue_characters() -> set[str]:
    from checker.run.discovery import discover

    texts = [ob.statement + ob.scope + ob.source.label for ob in discover("obligations").select([], include_slow=True)]
    snapshot = json.loads((Path(__file__).parent / "fixtures" / "catalogue_outcomes.json").read_text(encoding="utf-8"))
    for row in snapshot["results"].values():
        texts.append((row.get("grade_over") or "") + " ".join(f"{k} = {v}" for k, v in (row.get("witness") or {}).items()))
    return {ch for ch in "".join(texts) if ord(ch) > 127}


def test_every_character_of_the_catalogue_is_in_the_round_trip_list():
    """A character the catalogue starts to use must be added to ROUND_TRIP with its LaTeX."""
    missing = _catalogue_characters() - set(ROUND_TRIP)
    assert not missing, f"add to ROUND_TRIP: {sorted(missing)}"


@pytest.mark.parametrize("char", sorted(ROUND_TRIP))
def test_each_character_becomes_its_latex_counterpart(char: str):
    """The character, in its context, becomes exactly the listed LaTeX — never a Unicode name."""
    context, latex = ROUND_TRIP[char]
    assert char in context
    assert texify(context) == latex
    assert "textsf{[" not in latex and unmapped(context) == set()


@pytest.mark.parametrize("text", sorted(PROSE))
def test_text_stays_text_around_symbols(text: str):
    assert texify(text) == PROSE[text]


def test_an_unknown_character_is_spelled_by_name_never_lost():
    assert texify("∮") == r"\textsf{[contour integral]}" and unmapped("∮ café ≤") == {"∮"}


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (.ci/run installs texlive)")
def test_the_round_trip_list_compiles_without_a_missing_character(tmp_path: Path):
    """Every listed LaTeX form typesets with pdflatex (T1, amssymb): no error, no missing glyph."""
    body = "\n".join(f"{k}: {latex}\\par" for k, (_, latex) in enumerate(ROUND_TRIP.values()))
    body += "\n" + "\n".join(f"{latex}\\par" for latex in PROSE.values())
    source = ("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{amssymb}\n\\begin{document}\n"
              + body + "\n\\end{document}\n")
    (tmp_path / "chars.tex").write_text(source, encoding="ascii")
    out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "chars.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout[-2000:]
    log = (tmp_path / "chars.log").read_text(encoding="latin-1")
    assert "Missing character" not in log and "Overfull" not in log
