"""LaTeX in titles, names and abstracts: MathML, text macros, accents, plain-text renderings."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.latex import convert_inline, escape_text_underscores, math_to_mathml, mathml_to_plain
from sitegen.markup import render_inline


def soup(fragment: str) -> BeautifulSoup:
    return BeautifulSoup(f"<div>{fragment}</div>", "html.parser")


# -- math -------------------------------------------------------------------------


def test_inline_math_becomes_a_math_element():
    converted = convert_inline(r"Breaking the $O(n^2)$ Barrier")
    tree = soup(converted.html)
    math = tree.find_all("math")
    assert len(math) == 1
    assert math[0]["xmlns"] == "http://www.w3.org/1998/Math/MathML"
    assert math[0].find("msup") is not None
    assert "$" not in tree.get_text()
    assert converted.plain == "Breaking the O(n²) Barrier"
    assert converted.unconverted == []


@pytest.mark.parametrize(
    "tex, plain",
    [
        (r"1.45$\times$ speedup", "1.45× speedup"),
        (r"$O(n^2)$", "O(n²)"),
        (r"$O(\sqrt{n})$", "O(√n)"),
        (r"$\frac{1}{2}$", "1/2"),
        (r"$10^{-3}$", "10⁻³"),
        (r"$x_{-1}$", "x₋₁"),
        (r"$e^{\alpha}$", "e^α"),
        (r"$\alpha + \beta m$", "α+βm"),
        (r"$T-\eta$", "T−η"),
        (r"$N_{f}=2+1$", "N_f=2+1"),
        (r"$\mathbf{Q\bar{Q}}$", "QQ̅"),
        (r"$\ell_1$-Regularized", "ℓ₁-Regularized"),
        (r"$\mathbb{Q}_\ell$ and $\mathfrak{p} \mid p$", "Q_ℓ and 𝔭∣p"),
        (r"$\aleph_0$, $\wp(z)$, $\Re(s)$", "ℵ₀, ℘(z), ℜ(s)"),
        (r"$$x^2$$ and $y$", "x² and y"),
        (r"\(x^2\) inline", "x² inline"),
        (r"$O(n \log n)$ rounds", "O(n log n) rounds"),
        (r"$\gamma_t \propto 1/\sqrt{\tau_t}$", "γₜ∝1/√τₜ"),
        (r"$a_{ij}$", "aᵢⱼ"),
    ],
)
def test_plain_text_rendering_of_math(tex, plain):
    converted = render_inline(tex)
    assert converted.plain == plain
    assert soup(converted.html).find("math") is not None
    assert "$" not in soup(converted.html).get_text()


@pytest.mark.parametrize(
    "tex, words, plain",
    [
        (r"$\text{if a<b then swap}$", "if a<b then swap", "if a<b then swap"),
        (r"$\mbox{if a<b}$", "if a<b", "if a<b"),
        (r"$\textrm{ab cd}$ e", "ab cd", "ab cd e"),
        (r"$a \text{ and } b$", "\u00a0and\u00a0", "a and b"),
        (r"$\text{\'ecole, 50\%}$", "école, 50%", "école, 50%"),
        (r"$\text{a{b}c}$", "abc", "abc"),
        (r"$x_{\text{max}}$", "max", "xₘₐₓ"),
        (r"$a\ b$", "\u00a0", "a b"),
    ],
)
def test_text_in_math_keeps_its_words(tex, words, plain):
    converted = render_inline(tex)
    assert [element.get_text() for element in soup(converted.html).find_all("mtext")] == [words]
    assert converted.plain == plain
    assert converted.unconverted == []


@pytest.mark.parametrize(
    "tex, name, plain",
    [
        (r"$\mathrm{softmax}(x)$", "softmax", "softmax(x)"),
        (r"$\operatorname{argmax}_x f(x)$", "argmax", "argmaxₓ f(x)"),
        (r"$\operatorname*{arg\,max}_x$", None, "arg maxₓ"),
        (r"$n \mathrm{log} n$", "log", "n log n"),
        (r"$10\,\mathrm{GeV}$", "GeV", "10 GeV"),
        (r"$\mathrm{d}x$", "d", "dx"),
    ],
)
def test_upright_names_in_math_are_one_identifier(tex, name, plain):
    converted = render_inline(tex)
    if name is not None:
        assert name in [element.get_text() for element in soup(converted.html).find_all("mi")]
    assert converted.plain == plain
    assert converted.unconverted == []


@pytest.mark.parametrize(
    "tex, plain",
    [
        (r"$O(n\log n)$", "O(n log n)"),
        (r"$O(\log n)$", "O(log n)"),
        (r"$O(n \log^2 n)$", "O(n log² n)"),
        (r"$O(n \log_2 n)$", "O(n log₂ n)"),
        (r"$\log(n)$", "log(n)"),
        (r"$\sin x \cos y$", "sin x cos y"),
        (r"$\max_{i} x_i$", "maxᵢ xᵢ"),
        (r"$2\pi r$", "2πr"),
        (r"$\arg z \in (-\pi, \pi]$", "arg z∈(−π,π]"),  # LaTeX's \arg, which latex2mathml did not know
    ],
)
def test_names_keep_their_spacing_in_plain_text(tex, plain):
    converted = render_inline(tex)
    assert converted.plain == plain
    assert converted.unconverted == []


@pytest.mark.parametrize(
    ("text", "source"),
    [
        (r"the Tate conjecture \cite[Thm.~3]{Madapusi}. We", r"\cite[Thm.~3]{Madapusi}"),
        (r"as in \cite[p.~5]{K} and", r"\cite[p.~5]{K}"),
        (r"by~\cite{Colmez10}.", r"\cite{Colmez10}"),
    ],
)
def test_a_citation_with_a_note_is_shown_and_warned_about_whole(text, source):
    """arXiv's abstracts cite as papers do, `\\cite[Thm.~3]{Madapusi}`: the note was read as text and the key as a
    group, so the page showed "\\cite[Thm. 3]Madapusi" and the warning named "\\cite" alone."""
    converted = convert_inline(text)
    assert converted.unconverted == [source]
    assert soup(converted.html).find("code").get_text() == source
    assert source in converted.plain


@pytest.mark.parametrize(
    ("tex", "plain", "symbol"),
    [
        (r"$\mathop{\mathrm{Res}}_{s=1} \zeta(s)$", "Resₛ₌₁ζ(s)", "Res"),
        (r"$M \mathbin{\#} N$", "M#N", "#"),
        (r"$H \mathrel{\vartriangleleft} G$", "H⊲G", "⊲"),
        (r"$a \mathpunct{;} b$", "a;b", ";"),
        (r"$\mathop{\sum}_p$", "∑ₚ", "∑"),
    ],
)
def test_the_symbol_of_a_math_class_command_is_kept(tex, plain, symbol):
    """`\\mathop{\\mathrm{Res}}_{s=1}` (a residue) and `M \\mathbin{\\#} N` (a connected sum) were shown without
    their symbol, on the page and in plain text, with no warning: latex2mathml sets the argument as a row inside an
    operator, which the sanitiser empties."""
    converted = convert_inline(tex)
    assert converted.unconverted == []
    assert converted.plain == plain
    assert symbol in soup(converted.html).find("math").get_text()


def test_a_command_inside_text_in_math_that_cannot_be_converted_is_shown_and_reported():
    converted = convert_inline(r"$\text{see \cite{x}}$ here")
    assert soup(converted.html).find("code").get_text() == r"$\text{see \cite{x}}$"
    assert converted.unconverted == [r"$\text{see \cite{x}}$"]
    assert converted.plain == r"$\text{see \cite{x}}$ here"


def test_text_in_math_cannot_inject_markup():
    converted = convert_inline(r"$\text{</mtext></math><script>alert(1)</script>}$")
    tree = soup(converted.html)
    assert tree.find("script") is None
    assert tree.find("mtext").get_text() == "</mtext></math><script>alert(1)</script>"


def test_mathml_is_sanitised():
    mathml = math_to_mathml(r"\text{<img src=x onerror=alert(1)>}")
    tree = soup(mathml)
    assert tree.find("img") is None
    assert not any(attr.startswith("on") for tag in tree.find_all(True) for attr in tag.attrs)


def test_mathml_to_plain_of_broken_markup_is_empty():
    assert mathml_to_plain("<math><mi>x</math") == ""


# -- text macros and accents ---------------------------------------------------------


@pytest.mark.parametrize(
    "tex, tag, text",
    [
        (r"\textbf{(i)}", "strong", "(i)"),
        (r"\emph{expert affinity}", "em", "expert affinity"),
        (r"\textit{it}", "em", "it"),
        (r"{\it it}", "em", "it"),
        (r"{\bf bold}", "strong", "bold"),
        (r"\texttt{code}", "code", "code"),
        (r"\underline{u}", "u", "u"),
    ],
)
def test_text_macros_become_html(tex, tag, text):
    converted = convert_inline(f"before {tex} after")
    element = soup(converted.html).find(tag)
    assert element is not None and element.get_text() == text
    assert converted.plain == f"before {text} after"
    assert "\\" not in soup(converted.html).get_text()


@pytest.mark.parametrize(
    "tex, text",
    [
        (r"M{\"u}ller", "Müller"),
        (r"M\"uller", "Müller"),
        (r"M\"{u}ller", "Müller"),
        (r"Andr{\'e} Dupont", "André Dupont"),
        (r"Andr\'e Dupont", "André Dupont"),
        (r"\'ecole", "école"),
        (r"Zo{\"e} Kov{\'a}{\v{c}}", "Zoë Kováč"),
        (r"Gar{\c{c}}on", "Garçon"),
        (r"Stra{\ss}e", "Straße"),
        (r"na{\"\i}ve", "naïve"),
        (r"{\o}re", "øre"),
        (r"{\AA}ngstr{\"o}m", "Ångström"),
        (r"Ni\~no", "Niño"),
        (r"h\^otel", "hôtel"),
        (r"\LaTeX{} and \TeX", "LaTeX and TeX"),
        (r"\textrm{roman} \mbox{box}", "roman box"),
        (r"50\% \& \#1 \$5", "50% & #1 $5"),
        (r"{GPU} clusters", "GPU clusters"),
    ],
)
def test_accents_and_symbols_become_unicode(tex, text):
    converted = convert_inline(tex)
    assert converted.plain == text
    assert soup(converted.html).get_text() == text
    assert converted.unconverted == []


@pytest.mark.parametrize("text", ["50% of R&D, #1 in the list", "The 1.42-2.68 times speed-up", "C++ & Rust: 100%"])
def test_bare_percent_ampersand_hash_are_just_characters(text):
    converted = convert_inline(text)
    assert converted.plain == text
    assert soup(converted.html).get_text() == text


def test_text_without_latex_is_escaped_not_parsed():
    converted = convert_inline("a < b & <script>alert(1)</script>")
    assert converted.html == "a &lt; b &amp; &lt;script&gt;alert(1)&lt;/script&gt;"
    assert converted.plain == "a < b & <script>alert(1)</script>"


def test_html_inside_latex_is_escaped():
    converted = convert_inline(r"\textbf{<script>alert(1)</script>} $x$")
    tree = soup(converted.html)
    assert tree.find("script") is None
    assert tree.find("strong").get_text() == "<script>alert(1)</script>"


# -- what cannot be converted ---------------------------------------------------------


def test_unknown_macro_is_shown_as_source_in_code_and_reported():
    converted = convert_inline(r"A \unknownmacro{x} title")
    code = soup(converted.html).find("code")
    assert code is not None and code.get_text() == r"\unknownmacro{x}"
    assert converted.unconverted == [r"\unknownmacro{x}"]
    assert converted.plain == r"A \unknownmacro{x} title"


def test_unknown_command_in_math_is_shown_as_source():
    converted = convert_inline(r"$\foo{x}$ here")
    assert soup(converted.html).find("code").get_text() == r"$\foo{x}$"
    assert converted.unconverted == [r"$\foo{x}$"]


def test_unparseable_latex_is_shown_not_raised():
    converted = convert_inline(r"see \verb|x|")
    assert converted.unconverted
    assert "verb" in soup(converted.html).find("code").get_text()


def test_lone_dollar_is_text():
    converted = convert_inline("costs $5")
    assert converted.plain == "costs $5" and converted.unconverted == []


# -- fuzzing ----------------------------------------------------------------------

_tokens = st.sampled_from(
    [
        "$",
        "$$",
        "\\",
        "{",
        "}",
        "\\textbf",
        "\\emph",
        '\\"',
        "u",
        "\\'",
        "e",
        "<script>",
        "</script>",
        "<img src=x onerror=alert(1)>",
        "%",
        "&",
        "#",
        "^",
        "_",
        "~",
        "\\frac",
        "{1}",
        "\\begin{x}",
        "\\end{x}",
        " ",
        "\n",
        "\\unknown",
        "\\text{",
        "\\mbox{",
        "\\mathrm{",
        "\\operatorname{",
        "\\log",
        "\\\\",
        "x",
        "\\mathbf{Q}",
        "\\sqrt",
        "\\left(",
        "\\right)",
        "\\verb|x|",
        "\\(",
        "\\)",
        "<",
        ">",
        '"',
        "'",
        "javascript:",
        "\\url{",
        "\\href{javascript:alert(1)}{x}",
    ]
)


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.lists(_tokens, max_size=16).map("".join), st.text(max_size=40)))
def test_any_text_converts_without_exception_or_script(text):
    converted = convert_inline(text)
    assert isinstance(converted.plain, str)
    tree = soup(converted.html)
    assert tree.find("script") is None
    assert tree.find("img") is None
    assert not re.search(r"<script", converted.html, re.I)
    for tag in tree.find_all(True):
        assert not any(attr.lower().startswith("on") for attr in tag.attrs), converted.html
        assert not tag.get("href", "").strip().lower().startswith("javascript:")


# -- looking for spans only where one can start finds exactly what a full scan finds --

from sitegen.latex import _LATEX_SPAN, latex_spans  # noqa: E402

LATEX_TOKENS = st.sampled_from(["a", " ", "$", "$$", "\\", "\\\\", "{", "}", "\\(", "\\)", "\\emph", '\\"', "u", "\\%", "x_1", "\n", "*"])


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.lists(LATEX_TOKENS, max_size=30).map("".join))
def test_latex_spans_agree_with_a_full_scan(text):
    assert [m.span() for m in latex_spans(text)] == [m.span() for m in _LATEX_SPAN.finditer(text)]


@pytest.mark.parametrize(
    "tex, spaced",
    [
        (r"$O(n \log n)$", '<mi>n</mi><mspace width="0.1667em"></mspace><mi>log</mi><mspace width="0.1667em"></mspace><mi>n</mi>'),
        (r"$n \log^2 n$", '<mi>n</mi><mspace width="0.1667em"></mspace><msup><mi>log</mi><mn>2</mn></msup><mspace width="0.1667em"></mspace><mi>n</mi>'),
        (r"$\log(n)$", '<mi>log</mi><mo stretchy="false">(</mo>'),
    ],
)
def test_a_name_beside_a_letter_gets_the_thin_space_tex_sets(tex, spaced):
    """A browser sets no space between two identifiers: without it `n \\log n` reads "nlogn"."""
    html = render_inline(tex).html
    assert spaced in html
    assert "<mi>n</mi><mi>log</mi>" not in html


@pytest.mark.parametrize(
    "text, escaped",
    [
        ("snake_case at $x_i$", r"snake\_case at $x_i$"),
        (r"\emph{a_b $y_1$} and \(z_2\)", r"\emph{a\_b $y_1$} and \(z_2\)"),
        (r"{a_b} \url{https://x.org/a_b}", r"{a\_b} \url{https://x.org/a_b}"),
        (r"already a\_b", r"already a\_b"),
        (r"in_text \[ x_1 \] and \begin{equation} y_2 \end{equation}", r"in\_text \[ x_1 \] and \begin{equation} y_2 \end{equation}"),
    ],
)
def test_escape_text_underscores_leaves_math_and_addresses(text, escaped):
    assert escape_text_underscores(text) == escaped


# -- macros of the paper's own preamble (site.yaml `math_macros`) ---------------------------------------


@pytest.fixture
def site_macros():
    """Sets site.yaml's macros for one test, and takes them away after it (they hold for the whole process)."""
    from sitegen.latex import set_math_macros

    yield set_math_macros
    set_math_macros({})


def test_an_undefined_macro_is_shown_as_source_with_what_to_write_in_site_yaml():
    from sitegen.latex import unconverted_hint

    converted = convert_inline(r"the $\R^n$ case")
    assert converted.unconverted == [r"$\R^n$"]
    hint = unconverted_hint(converted.unconverted[0])
    assert "content/site.yaml" in hint and r"`math_macros: {R: '\mathbb{R}'}`" in hint


def test_site_math_macros_make_the_formula_mathematics(site_macros):
    site_macros({"R": (r"\mathbb{R}", 0), "eps": (r"\varepsilon", 0), "abs": (r"\lvert #1\rvert", 1)})
    converted = convert_inline(r"on $\R^n$ with $\eps$-perturbations and $\abs{x}y$")
    assert converted.unconverted == []
    assert converted.plain == "on Rⁿ with ε-perturbations and |x|y"
    math = soup(converted.html).find_all("math")
    assert math[0].find("mi").get_text() == "ℝ"


def test_macros_expand_with_arguments_nested_and_never_without_end():
    from sitegen.latex import expand_macros

    macros = {"R": (r"\mathbb{R}", 0), "norm": (r"\lVert #1\rVert", 1), "Rn": (r"\R^n", 0), "loop": (r"\loop x", 0)}
    assert expand_macros(r"\norm{f}_{L^2(\Rn)}", macros) == r"\lVert f\rVert_{L^2(\mathbb{R}^n)}"
    assert expand_macros(r"\norm x", macros) == r"\lVert x\rVert"
    assert expand_macros(r"\Rational + \R", macros) == r"\Rational + \mathbb{R}"  # a longer name is another command
    assert expand_macros("a \\\\R", macros) == "a \\\\R"  # a line break, then the letter R
    with pytest.raises(ValueError):
        expand_macros(r"\loop", macros)


def test_macros_that_multiply_stop_at_a_length_not_at_the_machines_memory(site_macros):
    """Macros each writing the next four times: 4^8 copies of the last, from eight lines of a pull request."""
    import time

    from sitegen.latex import MAX_EXPANDED, expand_macros

    macros = {name: ("\\" + following) * 4 for name, following in zip("abcdefgh", "bcdefghi")}
    site_macros({name: (replacement, 0) for name, replacement in macros.items()})
    started = time.process_time()
    with pytest.raises(ValueError, match=f"longer than {MAX_EXPANDED:,} characters"):
        expand_macros(r"\a")
    converted = convert_inline(r"see $\a$")
    assert converted.unconverted == [r"$\a$"] and time.process_time() - started < 5


@pytest.mark.parametrize(
    ("tex", "letters", "plain"),
    [
        (r"$\Bbb Q$", "ℚ", "Q"),
        (r"${\bf Z}_p$", "𝐙", "Zₚ"),
        (r"$\bold Z$", "𝐙", "Z"),
        (r"$\frak g$", "𝔤", "𝔤"),
        (r"${\cal O}_K$", "𝒪", "O_K"),
        (r"$\mathscr{F}$", "ℱ", "F"),
        (r"$\boldsymbol{\mu}_p$", "𝝁", "μₚ"),
        (r"$\mathsf{Sp}_{2g}$", "𝖲𝗉", "Sp_2g"),
        (r"$\mathbf{1}_A$", "𝟏", "1_A"),
        (r"$\mathbbm{1}_A$ and $\mathds{1}_B$", "𝟙", "1_A and 1_B"),  # bbm's and dsfont's: the "𝟙" was dropped
    ],
)
def test_styled_letters_are_the_unicode_letters_every_browser_shows(tex, letters, plain):
    """latex2mathml writes `\\Bbb Q`, `{\\bf Z}`, `\\frak g`, `\\mathscr{F}` (MathSciNet's titles, old papers' TeX) as
    the plain letter with a `mathvariant`, which Chromium's MathML (MathML Core) ignores: Chrome showed ℚ as an
    italic Q, 𝔤 as g. They are the styled letters themselves, as `\\mathbb{Q}` already was."""
    converted = convert_inline(tex)
    assert converted.unconverted == []
    math = soup(converted.html).find("math")
    assert letters in math.get_text()
    assert {token.get("mathvariant") for token in math.find_all(["mi", "mn"])} <= {None, "normal"}
    assert converted.plain == plain


@pytest.mark.parametrize(
    ("tex", "variant", "letters"),
    [(r"$\germ{sl}_2$", None, "𝔰𝔩"), (r"${\germ g}$", None, "𝔤"), (r"$\Cal O_X$", None, "𝒪"), (r"$\roman{Gal}(\bar K/K)$", None, "Gal")],
)
def test_the_ams_tex_names_of_mathscinet_exports_are_known(tex, variant, letters):
    converted = convert_inline(tex)
    assert converted.unconverted == []
    math = soup(converted.html).find("math")
    assert letters in math.get_text()
    if variant:
        assert {mi.get("mathvariant") for mi in math.find_all("mi")} == {variant}


@pytest.mark.parametrize(
    ("tex", "plain"),
    [
        (r"$$\sum_{i=1}^n a_i$$", "∑ᵢ₌₁ⁿaᵢ"),  # limits under and over, as display math sets them
        (r"$\sum\limits_{i=1}^n$", "∑ᵢ₌₁ⁿ"),
        (r"\[ \prod_{p} (1-p^{-s})^{-1} \]", "∏ₚ(1−p^(−s))⁻¹"),
        (r"$$\lim_{n\to\infty} a_n$$", "lim_(n→∞)aₙ"),
        (r"$\sqrt[3]{x}$", "∛x"),
        (r"$\sqrt[n]{x}$", "ⁿ√x"),
        (r"$\binom{n}{k}$", "(n choose k)"),
        (r"$\overline{\mathbb{Q}}$", "Q̅"),
        (r"$H^i_{\mathrm{\acute{e}t}}$", "H_(e\u0301t)ⁱ"),
        (r"$\mathbb{Z}_p[\![T]\!]$ and $X /\!\!/ G$", "Zₚ[[T]] and X//G"),  # `\!`, a negative space, is no space
        (r"$\grave{a}, \check{H}, \breve{u}, \mathring{A}$", "a\u0300,H\u030c,u\u0306,A\u030a"),
        (r"$\underline{x}$", "x̲"),
        (r"$\begin{pmatrix}a&b\\c&d\end{pmatrix}$", "(a b; c d)"),
        (r"$e^{i\pi}+1=0$", "e^(iπ)+1=0"),
        (r"$f'(x)$ and $f''(x)$", "f′(x) and f′′(x)"),
    ],
)
def test_plain_text_of_limits_roots_binomials_bars_and_primes(tex, plain):
    converted = convert_inline(tex)
    assert converted.unconverted == []
    assert converted.plain == plain


def test_a_backslash_of_the_formula_is_no_unknown_command():
    converted = convert_inline(r"on $\mathrm{SL}_2(\mathbb{Z})\backslash\mathbb{H}$")
    assert converted.unconverted == []
    assert soup(converted.html).find("math") is not None
    assert converted.plain == "on SL₂(Z)\\H"


@pytest.mark.parametrize(
    ("text", "plain", "formulas"),
    [
        ("The prize is $5 and the fee is $10 for all.", "The prize is $5 and the fee is $10 for all.", 0),
        ("costs $5 to $10 million, in $n^2$ steps", "costs $5 to $10 million, in n² steps", 1),
        ("from $1 to $2, and $x$", "from $1 to $2, and x", 1),
        ("spaced $ \\alpha $ and tight $\\beta$", "spaced α and tight β", 2),
    ],
)
def test_dollar_amounts_stay_text_as_pandoc_reads_them(text, plain, formulas):
    converted = render_inline(text)
    assert converted.plain == plain
    assert len(soup(converted.html).find_all("math")) == formulas
    assert converted.unconverted == []


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("Navier--Stokes regularity, pages 1--10", "Navier–Stokes regularity, pages 1–10"),
        ("a proof---in outline", "a proof—in outline"),
        # the AMS's thin-spaced dashes and a spaced em dash, as arXiv's abstracts write them
        (r"Enriques surfaces\,---\,where $p = 2$", "Enriques surfaces — where p=2"),
        (r"for $n$ in 1\,--\,10", "for n in 1 – 10"),
        ("Shimura varieties --- a survey", "Shimura varieties — a survey"),
        ("``critical'' spaces", "“critical” spaces"),
        (r"Joint with G.~Sch\"onbeck; see Thm.~1.2", "Joint with G. Schönbeck; see Thm. 1.2"),
        ("the --verbose option, O'Neil's lemma", "the --verbose option, O'Neil's lemma"),
    ],
)
def test_tex_dashes_ties_and_quotes_in_titles_are_typography(text, plain):
    converted = render_inline(text)
    assert converted.plain == plain
    assert converted.unconverted == []
    assert "~" not in soup(converted.html).get_text() and "--" not in plain.replace("--verbose", "")


def test_tex_typography_in_a_markdown_abstract_leaves_code_addresses_and_tables_alone():
    from sitegen.markup import render_markdown

    text = "Navier--Stokes~equations, ``blow-up'', [notes](https://example.org/a~b)\n\nRun `--flag`.\n\n| a | b |\n|---|---|\n| 1--2 | x |\n"
    tree = soup(render_markdown(text, pictures=[]).html)
    assert tree.find("p").get_text() == "Navier–Stokes\u00a0equations, “blow-up”, notes"
    assert tree.find("code").get_text() == "--flag"
    assert tree.find("a")["href"] == "https://example.org/a~b"
    assert [td.get_text() for td in tree.find_all("td")] == ["1–2", "x"]


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("\\begin{equation*} E = mc^2 \\end{equation*}", "E=mc²"),
        ("\\begin{equation}\\label{eq:main}\n  E = mc^2\n\\end{equation}", "E=mc²"),
        ("\\begin{align} a &= b \\\\ c &= d \\nonumber \\end{align}", "a=b; c=d"),
        ("\\begin{gather*} a = b \\\\ c = d \\end{gather*}", "a=b; c=d"),
    ],
)
def test_a_display_environment_in_an_abstract_is_display_math(text, plain):
    from sitegen.markup import render_markdown

    converted = render_markdown(f"We prove\n{text}\nfor all n.")
    assert converted.unconverted == []
    assert soup(converted.html).find("math", attrs={"display": "block"}) is not None
    assert converted.plain == f"We prove {plain} for all n."


def test_an_environment_end_without_its_beginning_is_shown_and_reported_never_dropped():
    converted = convert_inline("a \\end{proof} b")
    assert converted.unconverted == ["\\end{proof}"]
    assert soup(converted.html).find("code").get_text() == "\\end{proof}"


@pytest.mark.parametrize("tex", [r"$\{-1, 0, 1\}$", r"$f(-x)$", r"$a = -b$", r"$x \in [-1, 1]$", r"$a < +1$"])
def test_a_sign_after_a_bracket_comma_or_relation_is_a_prefix_operator(tex):
    signs = [mo for mo in soup(convert_inline(tex).html).find_all("mo") if mo.get_text() in "−+"]
    assert [mo.get("form") for mo in signs] == ["prefix"]


def test_a_subtraction_is_no_prefix_operator():
    assert all(mo.get("form") is None for mo in soup(convert_inline(r"$(a) - b - 1$").html).find_all("mo"))


@pytest.mark.parametrize(
    "tex, text",
    [
        (r"The \L o\'s theorem", "The Łoś theorem"),
        (r"\O ksendal and \AA ngstr\"om", "Øksendal and Ångström"),
        (r"Stra\ss e", "Straße"),
        (r"the \L\ sign", "the Ł sign"),  # a control space is a space
        (r"\LaTeX is", "LaTeX is"),  # a word's macro keeps the space after it
    ],
)
def test_the_space_after_a_letters_macro_is_swallowed_as_tex_does(tex, text):
    """MathSciNet writes `\\L uczak` and `\\O ksendal`: TeX takes the space as the end of the macro's name."""
    converted = convert_inline(tex)
    assert converted.plain == text and converted.unconverted == []


# -- chemistry: formulas, units and symbols as ACS, RSC, Wiley and Zotero export them -----------------------------


@pytest.mark.parametrize(
    ("tex", "html_text", "plain"),
    [
        (r"Reduction of CO$_2$ to C$_{2+}$ Products", "Reduction of CO<sub>2</sub> to C<sub>2+</sub> Products", "Reduction of CO₂ to C₂₊ Products"),
        (r"H$_2$O and Li$^+$", "H<sub>2</sub>O and Li<sup>+</sup>", "H₂O and Li⁺"),
        (r"SO$_4^{2-}$ ions", "SO<sub>4</sub><sup>2−</sup> ions", "SO₄²⁻ ions"),
        (r"10$^{-3}$ M", "10<sup>−3</sup> M", "10⁻³ M"),
        (r"LiNi$_{1-x}$Co$_x$O$_2$", "LiNi<sub>1−x</sub>Co<sub>x</sub>O<sub>2</sub>", "LiNi₁₋ₓCoₓO₂"),
        (r"at 25$^\circ$C and 80 $^{\circ}$C", "at 25°C and 80 °C", "at 25°C and 80 °C"),
    ],
)
def test_a_formula_that_is_only_a_script_is_html_sub_and_sup(tex, html_text, plain):
    """`CO$_2$` is no formula of its own but the subscript of the text before it: as MathML with an empty base,
    Chromium breaks the line between "C" and its "2+", leaves a gap after it and sets the digit in the math font."""
    converted = render_inline(tex)
    assert converted.html == html_text
    assert converted.plain == plain
    assert converted.unconverted == []


def test_a_script_with_a_base_or_structure_stays_mathematics():
    assert soup(convert_inline(r"$x_2$ and $_{\frac{1}{2}}$").html).find_all("math")[1].find("mfrac") is not None


@pytest.mark.parametrize(
    ("tex", "plain"),
    [
        (r"at 25 \textdegree C, 80\textdegree C and 120~\textdegree C", "at 25 °C, 80°C and 120 °C"),
        (r"{\textalpha}-Helix Peptides and \textbeta-alumina", "α-Helix Peptides and β-alumina"),
        (r"grains of 5 \textmu m, 3\,\textmu m", "grains of 5 µm, 3 µm"),
        (r"\textDelta G of 10 \textpm 2 kJ, 5 \textohm", "ΔG of 10 ± 2 kJ, 5 Ω"),
        (r"\textlambda = 532 nm", "λ = 532 nm"),
    ],
)
def test_textcomp_and_textgreek_symbols_become_unicode_and_swallow_the_space_as_tex_does(tex, plain):
    """Zotero's BibTeX export writes a Greek letter or a unit pasted into a title as `{\\textalpha}`, `\\textmu`;
    TeX takes the space after `\\textdegree` as the end of its name: `25 \\textdegree C` is "25 °C"."""
    converted = render_inline(tex)
    assert converted.plain == plain
    assert converted.unconverted == []
    assert "\\" not in soup(converted.html).get_text()


@pytest.mark.parametrize(
    ("tex", "plain"),
    [
        (r"$\sim$2 nm pores", "~2 nm pores"),
        (r"a $\times$10 rate and $\approx$5 eV", "a ×10 rate and ≈5 eV"),
        (r"$^{13}$C NMR", "¹³C NMR"),
    ],
)
def test_a_formula_that_starts_with_a_command_ends_before_a_digit_as_latex_reads_it(tex, plain):
    converted = render_inline(tex)
    assert converted.plain == plain
    assert converted.unconverted == []
    assert "$" not in soup(converted.html).get_text()


@pytest.mark.parametrize(
    ("tex", "plain"),
    [
        (r"CO\textsubscript{2} Capture by Li\textsuperscript{+}", "CO₂ Capture by Li⁺"),
        (r"The 19\textsuperscript{th} Survey", "The 19th Survey"),  # no raised letters for all of "th": as written
    ],
)
def test_textsubscript_is_a_subscript_in_plain_text_too(tex, plain):
    """The browser tab, link previews, RIS and the citations showed `CO\\textsubscript{2}` as "CO2", `CO$_2$` as "CO₂"."""
    converted = render_inline(tex)
    assert converted.plain == plain
    assert soup(converted.html).find(["sub", "sup"]) is not None


@pytest.mark.parametrize(
    ("tex", "html_text", "plain"),
    [
        (r"\ce{CO2} Adsorption", "CO<sub>2</sub> Adsorption", "CO₂ Adsorption"),
        (r"Spin Crossover in \ce{[Fe(CN)6]^3-}", "Spin Crossover in [Fe(CN)<sub>6</sub>]<sup>3−</sup>", "Spin Crossover in [Fe(CN)₆]³⁻"),
        (
            r"\ce{SO4^2-}, \ce{Li+}, \ce{NO3-}, \ce{^{13}C}",
            "SO<sub>4</sub><sup>2−</sup>, Li<sup>+</sup>, NO<sub>3</sub><sup>−</sup>, <sup>13</sup>C",
            "SO₄²⁻, Li⁺, NO₃⁻, ¹³C",
        ),
        (r"\ce{Cu3(BTC)2} and \ce{CuSO4*5H2O}", "Cu<sub>3</sub>(BTC)<sub>2</sub> and CuSO<sub>4</sub>·5H<sub>2</sub>O", "Cu₃(BTC)₂ and CuSO₄·5H₂O"),
        (r"\ce{2 H2 + O2 -> 2 H2O}", "2 H<sub>2</sub> + O<sub>2</sub> → 2 H<sub>2</sub>O", "2 H₂ + O₂ → 2 H₂O"),
        (r"\ce{LiNi_{0.8}Co_{0.1}O2}", "LiNi<sub>0.8</sub>Co<sub>0.1</sub>O<sub>2</sub>", "LiNi0.8Co0.1O₂"),
    ],
)
def test_mhchem_formulas_are_subscripts_and_superscripts(tex, html_text, plain):
    """`\\ce{CO2}` (mhchem) was shown as its source, in the browser tab and the link preview too, with a warning."""
    converted = render_inline(tex)
    assert (converted.html, converted.plain, converted.unconverted) == (html_text, plain, [])


def test_an_mhchem_formula_beyond_formulas_is_shown_as_source_with_what_to_write():
    from sitegen.latex import unconverted_hint

    converted = render_inline(r"\ce{A ->[\Delta] B} and \ce{<b>x</b>}")
    assert converted.unconverted == [r"\ce{A ->[\Delta] B}", r"\ce{<b>x</b>}"]
    assert soup(converted.html).find("b") is None
    assert "CO$_2$" in unconverted_hint(converted.unconverted[0])


@pytest.mark.parametrize(
    ("tex", "plain"),
    [
        (r"Samples of \SI{5}{\milli\gram} heated to \SI{300}{\celsius}", "Samples of 5 mg heated to 300 °C"),
        (r"at \SI{10}{\kelvin\per\minute}", "at 10 K min⁻¹"),
        (r"uptake of \num{1.2e-3} mol and \num{-3}", "uptake of 1.2 × 10⁻³ mol and −3"),
        (r"\qty{2.5}{\nm} films in \si{mg/mL}", "2.5 nm films in mg/mL"),
        (r"\SI[per-mode=symbol]{5}{\micro\metre\squared}", "5 µm²"),
        (r"\SIrange{1}{5}{\mM}, \ang{30}, \SI{50}{\percent}", "1 mM to 5 mM, 30°, 50 %"),
    ],
)
def test_siunitx_quantities_are_numbers_and_units(tex, plain):
    """`\\SI{5}{\\milli\\gram}` was shown as its source, in the link preview's description too."""
    converted = render_inline(tex)
    assert converted.plain == plain  # a one-line text's spaces folded; the page keeps siunitx's narrow no-break one
    assert converted.unconverted == []
    assert "\\" not in soup(converted.html).get_text()


def test_a_siunitx_unit_it_does_not_know_is_shown_as_source_with_what_to_write():
    from sitegen.latex import unconverted_hint

    converted = render_inline(r"\SI{5}{\furlong}")
    assert converted.unconverted == [r"\SI{5}{\furlong}"]
    assert r"\SI{5}{mg}" in unconverted_hint(converted.unconverted[0])
