"""Plain text with Unicode mathematics to LaTeX for pdflatex, math typeset as math.

``texify("‖W∘M‖_op ≤ ‖W‖_F for every mask")`` gives
``$\\|W\\circ M\\|_{\\mathrm{op}} \\le \\|W\\|_{F}$ for every mask``: runs of mathematics (Unicode
symbols, Greek letters, sub- and superscripts, ``x_k`` / ``x^2`` after a one-letter base, and the
letters, numbers and operators between them) become one ``$…$`` span; prose stays text with the
LaTeX specials escaped. Every character of the input is mapped (a tested table, see
:data:`MATH` and :data:`TEXT`); a character outside them is spelled by its Unicode name, never
lost. Needs ``amssymb`` (``\\mathbb``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace

#: Unicode characters that are mathematics, with their math-mode form.
MATH: dict[str, str] = {
    "≤": r"\le", "≥": r"\ge", "≠": r"\ne", "≈": r"\approx", "→": r"\to", "↦": r"\mapsto", "⇒": r"\Rightarrow",
    "⇔": r"\Leftrightarrow", "∈": r"\in", "∉": r"\notin", "⊆": r"\subseteq", "⊂": r"\subset", "∀": r"\forall",
    "∃": r"\exists", "∞": r"\infty", "‖": r"\|", "·": r"\cdot", "×": r"\times", "÷": r"\div", "±": r"\pm",
    "−": "-", "…": r"\ldots", "∘": r"\circ", "∧": r"\wedge", "∨": r"\vee", "¬": r"\neg", "⌈": r"\lceil",
    "⌉": r"\rceil", "⌊": r"\lfloor", "⌋": r"\rfloor", "∂": r"\partial", "∇": r"\nabla", "⊙": r"\odot",
    "⊥": r"\perp", "∖": r"\setminus", "⟨": r"\langle", "⟩": r"\rangle", "∑": r"\sum", "∏": r"\prod",
    "∫": r"\int", "√": r"\surd", "′": "'", "½": r"{\textstyle\frac12}", "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}",
    "ℤ": r"\mathbb{Z}", "ℚ": r"\mathbb{Q}", "ℓ": r"\ell", "~": r"\sim", "∼": r"\sim", "≡": r"\equiv",
    "≪": r"\ll", "≫": r"\gg", "∝": r"\propto", "∪": r"\cup", "∩": r"\cap", "∅": r"\emptyset",
    "⪰": r"\succeq", "⪯": r"\preceq", "≻": r"\succ", "≺": r"\prec", "≽": r"\succcurlyeq", "≼": r"\preccurlyeq",
    "⊗": r"\otimes", "⊕": r"\oplus", "∓": r"\mp", "≲": r"\lesssim", "≳": r"\gtrsim", "⊇": r"\supseteq",
    "⊃": r"\supset", "←": r"\leftarrow", "↔": r"\leftrightarrow", "⟹": r"\Longrightarrow", "⟺": r"\Longleftrightarrow",
    "≃": r"\simeq", "≅": r"\cong", "∗": r"\ast", "†": r"\dagger", "⊤": r"\top", "∣": r"\mid", "∥": r"\parallel",
    "ℂ": r"\mathbb{C}", "ϵ": r"\epsilon", "ϑ": r"\vartheta", "ϕ": r"\phi", "ϱ": r"\varrho", "⋅": r"\cdot",
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\varepsilon", "ζ": r"\zeta",
    "η": r"\eta", "θ": r"\theta", "ι": r"\iota", "κ": r"\kappa", "λ": r"\lambda", "μ": r"\mu", "ν": r"\nu",
    "ξ": r"\xi", "π": r"\pi", "ρ": r"\rho", "σ": r"\sigma", "τ": r"\tau", "υ": r"\upsilon", "φ": r"\varphi",
    "χ": r"\chi", "ψ": r"\psi", "ω": r"\omega", "Γ": r"\Gamma", "Δ": r"\Delta", "Θ": r"\Theta",
    "Λ": r"\Lambda", "Ξ": r"\Xi", "Π": r"\Pi", "Σ": r"\Sigma", "Φ": r"\Phi", "Ψ": r"\Psi", "Ω": r"\Omega",
}

#: Superscript and subscript characters, with what they raise or lower.
SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱˢˣᵀᵏʲᵗ", "0123456789+-=()nisxTkjt"))
SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₙᵢⱼₖₗₘₚₛₜₓₐₑ", "0123456789+-=()nijklmpstxae"))

#: Unicode characters that are prose, with their text-mode form.
TEXT: dict[str, str] = {
    "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''", "\u00a0": "~", "•": r"\textbullet{}",
    "§": r"\S{}", "¶": r"\P{}", "°": r"\textdegree{}", "\u2009": r"\,", "\u202f": r"\,",
}

_ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0302": "^", "\u0303": "~", "\u0327": "c",
            "\u030c": "v", "\u030a": "r", "\u0304": "="}

#: Combining marks after a one-letter symbol, as math accents (``x̂`` → ``\hat{x}``).
_MATH_ACCENTS = {"\u0302": r"\hat", "\u0303": r"\tilde", "\u0304": r"\bar", "\u0307": r"\dot", "\u0308": r"\ddot",
                 "\u030c": r"\check", "\u0301": r"\acute", "\u0300": r"\grave", "\u0306": r"\breve", "\u20d7": r"\vec"}

_TEXT_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
                 "|": r"\textbar{}"}
_MATH_SPECIAL = {"{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "#": r"\#", "$": r"\$", "\\": r"\backslash"}

# ASCII that may sit inside a math span (between math atoms) without ending it.
_GLUE = set("0123456789+-=<>()[]{}/|,.;!'* ")
# Glue that a span does not start or end with.
_EDGE = set(" ,.;:!-'")
# What an unbraced sub- or superscript may hold besides letters and digits (``x_ε``, ``‖W‖_∞``):
# symbols that are atoms, never an operator or a relation (``d_in×d_out`` is two scripts).
_SCRIPT_SYMBOLS = set("αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩ∞ℓ′")
_FUNCTIONS = {"log", "exp", "sin", "cos", "tan", "max", "min", "sup", "inf", "lim", "det", "ln", "arg", "sgn"}


@dataclass(frozen=True, slots=True)
class _Atom:
    kind: str  # "math" (forces a span), "glue" (may sit inside one) or "text"
    math: str  # its form inside $…$ ("" for text atoms)
    text: str  # its form outside
    raw: str
    pos: int = -1  # where it starts in the input


class _Atoms(list):
    """The atoms of a text, each stamped with where it starts (``at``, set as the scan moves)."""

    at = 0

    def append(self, atom: _Atom) -> None:
        super().append(replace(atom, pos=self.at))


def unmapped(text: str) -> set[str]:
    """The characters of ``text`` that :func:`texify` can only spell by their Unicode name."""
    out = set()
    for ch in text:
        if ord(ch) < 128 or ch in MATH or ch in TEXT or ch in SUPERSCRIPTS or ch in SUBSCRIPTS or ch in _ACCENTS \
                or ch in _MATH_ACCENTS:
            continue
        if _accented(ch) is None:
            out.add(ch)
    return out


def _accented(ch: str) -> str | None:
    parts = unicodedata.normalize("NFD", ch)
    if len(parts) == 2 and ord(parts[0]) < 128 and parts[0].isalpha() and parts[1] in _ACCENTS:
        return "\\" + _ACCENTS[parts[1]] + "{" + parts[0] + "}"
    return None


def _by_name(ch: str) -> str:
    name = unicodedata.name(ch, f"U+{ord(ch):04X}").lower()
    return r"\textsf{[" + name + "]}"


def _text_of(ch: str) -> str:
    if ch == ",":
        return r",\allowbreak{}"  # (3,4,4,3) without spaces still breaks
    if ch == "_":
        return r"\_\allowbreak{}"
    if ch == "/":
        return r"/\allowbreak{}"  # paths and and/or break after the slash
    if ch in _TEXT_SPECIAL:
        return _TEXT_SPECIAL[ch]
    if ch == "~":
        return r"\textasciitilde{}"
    if ord(ch) < 128:
        return ch
    if ch in TEXT:
        return TEXT[ch]
    return _accented(ch) or _by_name(ch)


def _math_of(ch: str) -> str:
    if ch in MATH:
        tex = MATH[ch]
        return tex + " " if tex[-1].isalpha() and tex.startswith("\\") else tex
    if ch in _MATH_SPECIAL:
        return _MATH_SPECIAL[ch] + " "
    if ord(ch) < 128:
        return ch
    return r"\text{" + _text_of(ch) + "}"


def _group_end(s: str, i: int) -> int:
    """Index just past the ``}`` closing the ``{`` at ``s[i]``, or -1."""
    depth = 0
    for j in range(i, len(s)):
        depth += {"{": 1, "}": -1}.get(s[j], 0)
        if depth == 0:
            return j + 1
    return -1


def _script_body(s: str, i: int) -> tuple[str, int] | None:
    """After ``_`` or ``^`` at ``s[i - 1]``: the raised/lowered material and where it ends."""
    if i < len(s) and s[i] == "{":
        end = _group_end(s, i)
        return (s[i + 1:end - 1], end) if end > 0 else None
    j = i
    while j < len(s) and (s[j].isascii() and s[j].isalnum() or s[j] in _SCRIPT_SYMBOLS):
        j += 1
        if j - i >= 6:
            break
    if j == i or (j < len(s) and s[j].isascii() and s[j].isalnum()):
        return None
    return s[i:j], j


def _math_body(raw: str) -> str:
    """Material already known to be mathematics (a sub- or superscript's body)."""
    atoms = _atoms(raw)
    if len(atoms) == 1 and atoms[0].raw.isalpha() and atoms[0].raw.isascii() and len(atoms[0].raw) >= 3:
        return r"\mathrm{" + atoms[0].raw + "}"
    return "".join(a.math or a.text for a in atoms)


_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?:\.[A-Za-z][A-Za-z0-9_]*)*")


def _identifier_at(s: str, i: int) -> int:
    """End of a program identifier (``mlp_w1_grad_close``, ``cot_step``) starting at ``i``, or -1;
    ``C_k``, ``x_ij`` and ``sup_…`` are mathematics, not identifiers."""
    if i and (s[i - 1].isascii() and s[i - 1].isalnum() or s[i - 1] == "_"):
        return -1
    m = _IDENTIFIER.match(s, i)
    if not m:
        return -1
    parts = m.group().split("_")
    if len(parts) >= 3 or (len(parts[0]) >= 2 and parts[0] not in _FUNCTIONS) or len(parts[-1]) > 6:
        return m.end()
    return -1


def _atoms(s: str) -> list[_Atom]:
    atoms = _Atoms()
    i = 0
    while i < len(s):
        atoms.at = i
        ch = s[i]
        prev = atoms[-1] if atoms else None
        end = _identifier_at(s, i) if ch.isascii() and ch.isalpha() else -1
        if end > 0:
            # a module path (sized_network.NONINCREASING) may break after each dot as after each _
            atoms.append(_Atom("text", "", s[i:end].replace("_", "\\_\\allowbreak{}").replace(".", ".\\allowbreak{}"),
                               s[i:end]))
            i = end
            continue
        if ch.isascii() and ch.isalpha():
            j = i
            while j < len(s) and s[j].isascii() and s[j].isalpha():
                j += 1
            word = s[i:j]
            if len(word) == 1:
                atoms.append(_Atom("glue", word, word, word))
            else:
                math = ("\\" + word + " ") if word in _FUNCTIONS else word
                atoms.append(_Atom("word", math, word, word))
            i = j
            continue
        if ch in "_^" and prev is not None and (prev.kind == "math" or prev.kind == "glue" and (prev.raw.isalpha() or prev.raw in ")]|")
                                                or prev.kind == "word" and prev.raw in _FUNCTIONS):
            body = _script_body(s, i + 1)
            if body is not None:
                content, end = body
                atoms.append(_Atom("math", ch + "{" + _math_body(content) + "}", "", ch + content))
                i = end
                continue
        if ch in SUPERSCRIPTS or ch in SUBSCRIPTS:
            table, mark = (SUPERSCRIPTS, "^") if ch in SUPERSCRIPTS else (SUBSCRIPTS, "_")
            j = i
            while j < len(s) and s[j] in table:
                j += 1
            atoms.append(_Atom("math", mark + "{" + "".join(table[c] for c in s[i:j]) + "}", "", s[i:j]))
            i = j
            continue
        if ch in _MATH_ACCENTS and prev is not None and (prev.kind == "glue" and prev.raw.isalpha()
                                                          or prev.kind == "math" and len(prev.raw) == 1):
            # x̂, ã, θ̂: an accented symbol
            atoms[-1] = _Atom("math", _MATH_ACCENTS[ch] + "{" + prev.math.strip() + "}", "", prev.raw + ch, prev.pos)
            i += 1
            continue
        if ch in _ACCENTS and prev is not None and prev.kind in ("word", "text") and prev.raw[-1:].isascii() \
                and prev.raw[-1:].isalpha() and prev.text.endswith(prev.raw[-1]):
            # café written with a combining accent: the accent on the word's last letter
            atoms[-1] = replace(prev, kind="text", math="", raw=prev.raw + ch,
                                text=prev.text[:-1] + "\\" + _ACCENTS[ch] + "{" + prev.raw[-1] + "}")
            i += 1
            continue
        if ch == "√" and i + 1 < len(s) and (s[i + 1].isalnum() and s[i + 1].isascii()):
            j = i + 1
            while j < len(s) and s[j].isascii() and s[j].isalnum():
                j += 1
            atoms.append(_Atom("math", r"\sqrt{" + s[i + 1:j] + "}", "", s[i:j]))
            i = j
            continue
        if ch in MATH:
            atoms.append(_Atom("math", _math_of(ch), "", ch))
        elif ch in _GLUE:
            atoms.append(_Atom("glue", _math_of(ch), _text_of(ch), ch))
        elif ch in ":/" and i + 1 < len(s) and s[i + 1].isalpha():
            atoms.append(_Atom("text", "", ch + r"\hspace{0pt}", ch))  # thm:label, and/or: break and hyphenate after
        else:
            atoms.append(_Atom("text", "", _text_of(ch), ch))
        i += 1
    return _promote_words(atoms)


def _promote_words(atoms: list[_Atom]) -> list[_Atom]:
    """A word written against a math atom (``lr·‖∇L‖``, ``nt²``, ``log⁴``) is part of the math; any
    other word is prose."""
    out: list[_Atom] = []
    for k, a in enumerate(atoms):
        if a.kind == "word":
            near = [atoms[k - 1]] if k else []
            near += [atoms[k + 1]] if k + 1 < len(atoms) else []
            a = replace(a, kind="glue" if any(n.kind == "math" for n in near) else "text")
        elif a.kind == "glue" and a.raw.isdigit() and out and out[-1].kind == "text" and out[-1].raw[-1:].isalnum():
            a = replace(a, kind="text", math="")  # binary32, ℓ1-free words with digits stay prose
        out.append(a)
    return out


def _balance_edges(run: list[_Atom]) -> tuple[list[_Atom], list[_Atom], list[_Atom]]:
    """Split ``run`` into (before, span, after): spaces and punctuation at the edges and brackets
    left unmatched at an edge stay outside the math."""
    lo, hi = 0, len(run)
    changed = True
    while changed and lo < hi:
        changed = False
        # "A 2×2 matrix", "a 3 × 3 grid": a letter, a space, then a number is prose (an article or
        # a name), never a product (that is written 2A or A·2)
        if hi - lo >= 3 and run[lo].kind == "glue" and run[lo].raw.isalpha() and run[lo + 1].raw == " " \
                and run[lo + 2].raw[:1].isdigit():
            lo, changed = lo + 1, True
        while lo < hi and run[lo].kind == "glue" and run[lo].raw in _EDGE:
            lo, changed = lo + 1, True
        while hi > lo and run[hi - 1].kind == "glue" and run[hi - 1].raw in _EDGE:
            hi, changed = hi - 1, True
        # ( and [ close each other's intervals, (0, 1]; a bracket left open or closed at an edge
        # belongs to the prose around the span
        body = "".join(a.raw for a in run[lo:hi])
        opens, closes = sum(body.count(c) for c in "([{"), sum(body.count(c) for c in ")]}")
        if lo < hi and (run[lo].raw in ")]}" or run[lo].raw in "([{" and opens > closes):
            lo, changed = lo + 1, True
        elif hi > lo and (run[hi - 1].raw in "([{" or run[hi - 1].raw in ")]}" and closes > opens):
            hi, changed = hi - 1, True
    return run[:lo], run[lo:hi], run[hi:]


def _segments(text: str) -> list[tuple[bool, list[_Atom]]]:
    """``text`` as its prose and mathematics: ``(is_math, atoms)`` in order."""
    atoms = _atoms(text)
    out: list[tuple[bool, list[_Atom]]] = []
    k = 0
    while k < len(atoms):
        if atoms[k].kind == "text":
            out.append((False, [atoms[k]]))
            k += 1
            continue
        j = k
        while j < len(atoms) and atoms[j].kind != "text":
            j += 1
        run = atoms[k:j]
        before, span, after = _balance_edges(run)
        if any(a.kind == "math" for a in span):
            out += [(False, before), (True, span), (False, after)]
        else:
            out.append((False, run))
        k = j
    return out


def texify(text: str) -> str:
    """``text`` as LaTeX for pdflatex: mathematics in ``$…$``, prose escaped, nothing lost."""
    out: list[str] = []
    for is_math, atoms in _segments(text):
        if is_math:
            out.append("$" + re.sub(" +", " ", _join_math(atoms)).strip() + "$")
        else:
            out.extend(a.text for a in atoms)
    return "".join(out)


def math_ranges(text: str) -> list[tuple[int, int]]:
    """Where :func:`texify` typesets ``text`` as mathematics: ``(start, end)`` character ranges, so
    that a text is never shortened inside a formula (:func:`checker.report.cells.shorten`)."""
    segments = _segments(text)
    out = []
    for k, (is_math, atoms) in enumerate(segments):
        if is_math and atoms:
            end = next((seg[0].pos for _, seg in segments[k + 1:] if seg), len(text))
            out.append((atoms[0].pos, end))
    return out


def _join_math(span: list[_Atom]) -> str:
    parts, last_script = [], ""
    for k, a in enumerate(span):
        m = a.math
        script = m[0] if m[:1] in ("_", "^") else ""
        if script and script == last_script:
            parts.append("{}")  # x₀_j: a second subscript needs a fresh base, not a TeX error
        nxt = span[k + 1].math[:1] if k + 1 < len(span) else ""
        if a.raw == ",":
            m = ",\\allowbreak "
        elif a.raw == ")" and nxt not in ("_", "^", "'", ""):
            m = ")\\allowbreak "  # long products (a)(b)(c) may break in a narrow column
        parts.append(m)
        last_script = script if script else ("" if a.raw != " " else last_script)
    return "".join(parts)


def texttt(ident: str, break_every: int = 0) -> str:
    """An identifier in ``\\texttt`` that can break after each ``.`` and ``_`` (long ids in narrow
    columns) and, with ``break_every``, inside long runs of letters and digits."""
    out, run = [], 0
    for ch in ident:
        out.append(_text_of(ch))
        run = run + 1 if ch.isalnum() else 0
        if ch == "." or run == break_every:  # a long hex file name breaks too
            out.append(r"\allowbreak{}")
            run = 0
    return r"\texttt{" + "".join(out) + "}"
