"""LaTeX in titles, abstracts and names, made readable.

`$...$` becomes MathML at build time (no JavaScript needed), text macros such as
`\\textbf{}` become HTML, accents become Unicode. What cannot be converted is
shown as its source in `<code>` and reported, never dropped silently.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import nh3
from pylatexenc import latexwalker
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexCommentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexMathNode,
    LatexSpecialsNode,
    LatexWalker,
    LatexWalkerError,
)
from pylatexenc.macrospec import MacroSpec

# Text macros and the HTML element they become.
FORMAT_TAGS = {
    "textbf": "strong",
    "bf": "strong",
    "bfseries": "strong",
    "emph": "em",
    "textit": "em",
    "it": "em",
    "itshape": "em",
    "textsl": "em",
    "sl": "em",
    "texttt": "code",
    "tt": "code",
    "underline": "u",
    "textsuperscript": "sup",
    "textsubscript": "sub",
}
# siunitx's numbers and units, and their arguments (see `siunitx`)
SIUNITX_MACROS = {"SI": "[{{", "qty": "[{{", "si": "[{", "unit": "[{", "num": "[{", "ang": "[{", "SIrange": "[{{{", "qtyrange": "[{{{", "numrange": "[{{"}
# biblatex's and csquotes' text macros, as a biblatex user's .bib file has them in titles, and their arguments (a star,
# options in brackets, the text): `\mkbibquote{x}`, `\enquote*{x}`, `\textquote[cite]{x}`, `\mkbibemph{x}`
BIBLATEX_TEXT_MACROS = {
    "mkbibquote": "{",
    "enquote": "*{",
    "textquote": "*[[{",
    "mkbibemph": "{",
    "mkbibitalic": "{",
    "mkbibbold": "{",
    "mkbibparens": "{",
    "mkbibbrackets": "{",
    "mkbibsuperscript": "{",
    "mkbibsubscript": "{",
}
# Macros whose argument is shown as it is (small capitals, `\\textsc{}`, as the letters written).
PLAIN_MACROS = {"textrm", "textsf", "textnormal", "mbox", "text", "textup", "textmd", "textsc", "url", "nolinkurl", "protect"}
GREEK_LETTERS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega").split()
# Text symbols by name. pylatexenc's text converter knows some and gives nothing for others (`\\S`, `\\P`,
# `\\copyright`, `\\pounds`): these are read here first, so that no symbol is dropped silently.
TEXT_SYMBOLS = {
    "S": "\u00a7",
    "textsection": "\u00a7",
    "P": "\u00b6",
    "textparagraph": "\u00b6",
    "dag": "\u2020",
    "textdagger": "\u2020",
    "ddag": "\u2021",
    "textdaggerdbl": "\u2021",
    "copyright": "\u00a9",
    "textcopyright": "\u00a9",
    "pounds": "\u00a3",
    "textsterling": "\u00a3",
    "euro": "\u20ac",
    "texteuro": "\u20ac",
    "textregistered": "\u00ae",
    "texttrademark": "\u2122",
    "textdegree": "\u00b0",
    "ldots": "\u2026",
    "dots": "\u2026",
    "textellipsis": "\u2026",
    "textbullet": "\u2022",
    "textperiodcentered": "\u00b7",
    "textendash": "\u2013",
    "textemdash": "\u2014",
    "textquoteleft": "\u2018",
    "textquoteright": "\u2019",
    "textquotedblleft": "\u201c",
    "textquotedblright": "\u201d",
    "guillemotleft": "\u00ab",
    "guillemotright": "\u00bb",
    "textexclamdown": "\u00a1",
    "textquestiondown": "\u00bf",
    "textbar": "|",
    "textless": "<",
    "textgreater": ">",
    "textasciitilde": "~",
    "textasciicircum": "^",
    "textunderscore": "_",
    "textbackslash": "\\",
    # MathSciNet's, which its exports' `@preamble` defines and its pages print so: the soft and hard signs of a
    # transliterated Russian name (`Drinfel\cprime d` Drinfelʹd), and the crossed D of a Croatian or Vietnamese one
    "cprime": "\u02b9",
    "cdprime": "\u02ba",
    "Dbar": "\u0110",
    "dbar": "\u0111",
    # textcomp's and textgreek's, as Zotero's BibTeX export writes a Greek letter or a unit pasted into a title
    # (`{\textalpha}-helix`, `5 \textmu m`, `25 \textdegree C`)
    "textmu": "\u00b5",
    "textohm": "\u03a9",
    "textcelsius": "\u00b0C",
    "textpm": "\u00b1",
    "texttimes": "\u00d7",
    "textdiv": "\u00f7",
    "textminus": "\u2212",
    "textperthousand": "\u2030",
    "textonehalf": "\u00bd",
    "textonequarter": "\u00bc",
    "textthreequarters": "\u00be",
    "textonesuperior": "\u00b9",
    "texttwosuperior": "\u00b2",
    "textthreesuperior": "\u00b3",
    "textrightarrow": "\u2192",
    "textleftarrow": "\u2190",
    "textuparrow": "\u2191",
    "textdownarrow": "\u2193",
    "textnumero": "\u2116",
    **{
        f"text{name}": unicodedata.lookup(f"GREEK SMALL LETTER {name.upper().replace('LAMBDA', 'LAMDA')}")
        for name in GREEK_LETTERS
        if name != "mu"  # textcomp's micro sign (above), as units use it: µm
    },
    **{f"text{name.capitalize()}": unicodedata.lookup(f"GREEK CAPITAL LETTER {name.upper().replace('LAMBDA', 'LAMDA')}") for name in GREEK_LETTERS},
    "textvarsigma": "\u03c2",
    "textfinalsigma": "\u03c2",
}
# The text symbols that stand in a unit or a word, where the space TeX swallows after a command's name matters.
UNIT_SYMBOLS = {"textdegree", "textcelsius", "textmu", "textohm"} | {
    name for name in TEXT_SYMBOLS if name[4:].lower() in GREEK_LETTERS or name in ("textvarsigma", "textfinalsigma")
}
# Accents and symbols that pylatexenc's text converter turns into Unicode.
UNICODE_MACROS = {
    '"',
    "'",
    "`",
    "^",
    "~",
    "=",
    ".",
    "c",
    "v",
    "u",
    "H",
    "k",
    "r",
    "d",
    "b",
    "t",
    "ss",
    "o",
    "O",
    "ae",
    "AE",
    "oe",
    "OE",
    "aa",
    "AA",
    "l",
    "L",
    "i",
    "j",
    "&",
    "%",
    "$",
    "#",
    "_",
    "{",
    "}",
    " ",
    ",",
    ";",
    ":",
    "!",
    "/",
    "-",
    "LaTeX",
    "TeX",
    "polhk",  # MathSciNet's ogonek, `\polhk{a}`: ą (LaTeX's `\k{a}`)
    *TEXT_SYMBOLS,
}
DROPPED_MACROS = {"\\", "newline", "linebreak", "par", "noindent", "relax", "xspace", "/"}

MATHML_TAGS = {
    "math",
    "mrow",
    "mi",
    "mo",
    "mn",
    "ms",
    "mtext",
    "mspace",
    "msup",
    "msub",
    "msubsup",
    "mover",
    "munder",
    "munderover",
    "mfrac",
    "msqrt",
    "mroot",
    "mstyle",
    "mtable",
    "mtr",
    "mtd",
    "mpadded",
    "mphantom",
    "menclose",
    "semantics",
    "annotation",
}
MATHML_ATTRIBUTES = {
    "xmlns",
    "display",
    "mathvariant",
    "stretchy",
    "fence",
    "separator",
    "lspace",
    "rspace",
    "accent",
    "accentunder",
    "width",
    "height",
    "depth",
    "displaystyle",
    "scriptlevel",
    "minsize",
    "maxsize",
    "linethickness",
    "columnalign",
    "rowspacing",
    "columnspacing",
    "notation",
    "movablelimits",
    "largeop",
    "symmetric",
    "form",
}
_SUPERSCRIPTS = str.maketrans("0123456789+-\u2212=()in", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁱⁿ")  # MathML writes minus as U+2212
_SUBSCRIPTS = str.maketrans("0123456789+-\u2212=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
# the digits and signs Unicode lowers and raises (CO₂, cm⁻¹), as a text pasted from a web page holds them
LOWERED_SIGNS, RAISED_SIGNS = ("0123456789+-=()".translate(table) for table in (_SUBSCRIPTS, _SUPERSCRIPTS))
_PRIMES = frozenset("′″‴⁗'")
_BRACES = frozenset("⏟⏞︸︷")  # `\underbrace`, `\overbrace`
_UNDER_ACCENTS = {"\u2015": "\u0332", "_": "\u0332", "\u00af": "\u0332", "\u2013": "\u0332"}  # `\underline{x}`: x̲
# Letters and symbols of a formula that its plain text keeps as they are, where NFKC (which makes a styled letter,
# bold 𝐕 or double-struck ℚ, the letter V or Q) would write another symbol: ℓ is no l (`$\ell$-adic`), ℵ no Hebrew
# alef (a right-to-left letter in an English title), ℘ and the Fraktur letters (`\mathfrak{p} \mid p`, `\Re`) no
# Latin letter beside the one they are told apart from.
_KEPT_SYMBOLS = frozenset("\u2113\u2135\u2136\u2137\u2138\u2118")
_OVER_ACCENTS = {
    "\u2015": "\u0305",
    "\u00af": "\u0305",
    "\u203e": "\u0305",
    "^": "\u0302",
    "~": "\u0303",
    "\u02d9": "\u0307",
    "\u2192": "\u20d7",
    "\u00a8": "\u0308",
    "\u00b4": "\u0301",  # `\acute{e}`, as `H^i_{\mathrm{\acute{e}t}}` writes étale cohomology: é, not "e´"
    "`": "\u0300",
    "\u02c7": "\u030c",
    "\u02d8": "\u0306",
    "\u02da": "\u030a",
}
_LATEX_MARKS = ("\\", "$", "{", "}", "~", "--", "``", "''")  # `--`, `~`, ``` `` ```: TeX's dashes, ties and quotes
_BRACED = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"  # balanced, three levels deep
# The pieces of a text that may be LaTeX; only these go through the (slow) LaTeX parser.
# Math ends where its paragraph does: a line break in it, not a blank line (TeX refuses one in math,
# and Markdown makes it two paragraphs).
_LINE_BREAK = r"\n(?![ \t]*\n)"
# display environments in text, and what latex2mathml is given of each: its content alone (one formula), or an
# environment it sets as a table (rows, columns at `&`): `gather`'s rows as a matrix's, `eqnarray`'s as `align*`'s
DISPLAY_ENVIRONMENTS = {
    "equation": "",
    "displaymath": "",
    "align": "align*",
    "eqnarray": "align*",
    "flalign": "align*",
    "alignat": "align*",
    "gather": "matrix",
    "multline": "matrix",
}
_NUMBERING = re.compile(r"\\(?:label\s*\{[^{}]*\}|nonumber\b|notag\b)")  # a display's numbering: nothing to show here
_LATEX_SPAN = re.compile(
    rf"(?<!\\)\$\$(?:\\.|[^$\\\n]|{_LINE_BREAK})+?\$\$"  # display math
    # inline math: as pandoc reads it, a `$` with a space inside it or a digit after it closes none, so that dollar
    # amounts stay text ("$5 and $10", "costs $10 and $x$"); `$ x $`, spaced inside on both sides, is math too;
    # but a formula that starts with a command or a script ends at its `$` also before a digit, as LaTeX reads
    # it: `$\sim$2 nm`, `$\times$10`, `$^{13}$C` (no dollar amount starts so)
    rf"|(?<!\\)\$(?=[\\^_])(?:\\.|[^$\\\n]|{_LINE_BREAK})+?(?<=\S)\$"
    rf"|(?<!\\)\$(?=\S)(?:\\.|[^$\\\n]|{_LINE_BREAK})+?(?<=\S)\$(?!\d)"
    rf"|(?<!\\)\$(?=\s)(?:\\.|[^$\\\n]|{_LINE_BREAK})+?(?<=\s)\$(?!\d)"
    rf"|\\\((?:\\[^)]|[^\\\n]|{_LINE_BREAK})+?\\\)"  # inline math \( ... \)
    rf"|\\\[(?:\\[^\]]|[^\\\n]|{_LINE_BREAK})+?\\\]"  # display math \[ ... \]
    # a display environment, as MathJax reads one in text: `\begin{equation} ... \end{equation}`, `align*`, ...
    rf"|\\begin\{{(?P<environment>{'|'.join(DISPLAY_ENVIRONMENTS)})(?P<starred>\*?)\}}(?:.|{_LINE_BREAK})*?\\end\{{(?P=environment)(?P=starred)\}}"
    rf"|\\[bcdHkruv][ \t]+[A-Za-z]"  # a letter's accent before a spaced letter: \c c (ç), \v s (š)
    # a letter's macro before a word, the space TeX swallows after it taken with it: \L uczak (Łuczak), \O ksendal
    r"|\\(?:AA|aa|AE|ae|OE|oe|O|o|L|l|ss|i|j|cprime|cdprime|Dbar|dbar)[ \t]+(?=[A-Za-z])"
    # and a unit's or a Greek letter's, before a letter: `25 \textdegree C` (25 °C), `5 \textmu m` (5 µm)
    rf"|\\(?:{'|'.join(sorted(UNIT_SYMBOLS, key=len, reverse=True))})[ \t]+(?=[A-Za-z])"
    rf"|\\(?:{'|'.join(SIUNITX_MACROS)})(?![A-Za-z])\s*\[[^\]\n]*\](?:\s*{_BRACED})*"  # siunitx's, its options first
    # a named macro and its arguments, an optional one first (`\cite[Thm.~3]{K}`: not the text "[Thm. 3]" and a group)
    rf"|\\[A-Za-z]+\*?(?:\s*\[[^\]\n$]*\])?(?:\s*{_BRACED})*"
    rf"|\\[\"'`^~=.](?:{_BRACED}|[A-Za-z])"  # an accent and its letter: \"u (also in M\"uller), \'{e}
    rf"|\\[^A-Za-z\n]"  # an escaped symbol: \%, \&, \$; a control space: Appl.\ Math.
    rf"|{_BRACED}"  # a group such as {\"u} or {GPU}
    # TeX's typography in prose, as arXiv's titles and abstracts write it: dashes between words (Navier--Stokes,
    # 1--10, proof---sketch), a tie (G.~Sch\"onbeck, Thm.~1.2, of~\cite{x}) and ``quotes''; never in an option
    # (`--verbose`), a rule or table (`---`) or an address (`/~user`)
    r"|(?<=\w)---?(?=\w)"
    # and a dash set apart between words by thin spaces (`surfaces\,---\,where`, `1\,--\,10`), an em dash by spaces
    r"|(?<=\w\\,)---?(?=\\,\w)|(?<=\w )---(?= \w)"
    r"|(?<=[\w.,;:)\]}])~(?=[\w\\$({])"
    r"|``(?=\S)|(?<=\S)''"
)
_TYPOGRAPHY = {"--": "\u2013", "---": "\u2014", "~": "\u00a0", "``": "\u201c", "''": "\u201d"}
# hyperref's link, `\href{address}{text}`: the address (LaTeX's escapes in it, `\#`, `\%`, `\_`), and the text
HREF = re.compile(rf"\\href\s*\{{((?:[^{{}}\\]|\\.)*)\}}\s*({_BRACED})", re.DOTALL)
_SPAN_START = re.compile(r"[\\${]")  # the first character of every _LATEX_SPAN alternative but typography's
_SPAN_OR_TYPOGRAPHY_START = re.compile(r"[\\${~]|--|``|''")  # and theirs: slower, for a text that has some
# a %, & or # with no backslash before it; the pattern starts with the character and looks
# behind from there (2-3x as fast as a look-behind first, which is tried at every character)
_BARE_SPECIALS = re.compile(r"([%&#])(?<!\\[%&#])")
_DECLARATIONS = {"it": "em", "itshape": "em", "sl": "em", "em": "em", "bf": "strong", "bfseries": "strong", "tt": "code"}
# Declarations whose text is shown as written (`{\\sc Foo}`: small capitals, as the letters written).
PLAIN_DECLARATIONS = {"sc", "scshape", "rm", "rmfamily", "sf", "sffamily", "normalfont", "upshape", "mdseries"}
_SPACE = re.compile(r"\s+")
_TEXT = LatexNodes2Text(math_mode="verbatim")


def _latex_context():
    """pylatexenc's macros, and the arguments of text macros it does not know (without them
    `\\textsuperscript{th}` would be a macro alone and its argument plain text after it)."""
    context = latexwalker.get_default_latex_context_db()
    taking_one = ("textsuperscript", "textsubscript", "textnormal", "nolinkurl", "ce", "polhk")  # mhchem's \\ce{CO2}
    macros = [MacroSpec(name, "{") for name in taking_one] + [MacroSpec("href", "{{")]  # hyperref's \href{address}{text}
    macros += [MacroSpec(name, arguments) for name, arguments in SIUNITX_MACROS.items()]
    macros += [MacroSpec(name, arguments) for name, arguments in BIBLATEX_TEXT_MACROS.items()]
    context.add_context_category("sitegen", macros=macros, prepend=True)
    return context


LATEX_CONTEXT = _latex_context()  # for every LatexWalker of sitegen

# Inside math: macros whose argument is text, and the mathvariant it is set in ("": upright).
MATH_TEXT_MACROS = {
    "text": "",
    "textrm": "",
    "textnormal": "",
    "textup": "",
    "textmd": "",
    "mbox": "",
    "hbox": "",
    "textsf": "sans-serif",
    "texttt": "monospace",
    "textbf": "bold",
    "textit": "italic",
    "textsl": "italic",
    "emph": "italic",
}
# Inside math: macros whose argument is an upright name (`\mathrm{softmax}`, `\operatorname{argmax}`).
MATH_NAME_MACROS = ("mathrm", "operatorname")
_MATH_WORDS = re.compile(r"\\(" + "|".join(sorted([*MATH_TEXT_MACROS, *MATH_NAME_MACROS], key=len, reverse=True)) + rf")(?![A-Za-z])(\*?)\s*({_BRACED})")
_NAME = re.compile(r"[A-Za-z0-9]+(?:[.'-][A-Za-z0-9]+)*")
# Stand-ins for the set-aside words while latex2mathml reads the formula: characters of the
# private use area, which it sets as identifiers and no formula of a record holds.
_FIRST_PLACEHOLDER, _PLACEHOLDER_COUNT = 0xE100, 256
_PLACEHOLDER_CHARACTERS = re.compile(f"[{chr(_FIRST_PLACEHOLDER)}-{chr(_FIRST_PLACEHOLDER + _PLACEHOLDER_COUNT - 1)}]")
_PLACED_WORD = re.compile(f"<(mi|mo|mn|mtext)(?: [^>]*)?>({_PLACEHOLDER_CHARACTERS.pattern})</\\1>")
_SCRIPTED = {"msub", "msup", "msubsup", "munder", "mover", "munderover"}


# -- macros: names the formula's own paper defines (`\R`), set once for the site -----------------------------------

# AMS-TeX's names, which MathSciNet's exports write in titles (`{$\germ{sl}_2$}`, `$\Cal O$`, `$\roman{Gal}$`):
# real macros with one meaning, so known without a word in site.yaml.
BUILTIN_MATH_MACROS: dict[str, tuple[str, int]] = {
    "germ": (r"\mathfrak{#1}", 1),
    "Cal": (r"\mathcal{#1}", 1),
    "roman": (r"\mathrm{#1}", 1),
}
# What the macros papers use without defining them mostly stand for: the warning about one suggests its line of
# site.yaml's `math_macros` (sitegen does not guess: `\C` may be a category, `\eps` either epsilon).
COMMON_MACRO_MEANINGS = {
    **{letter: rf"\mathbb{{{letter}}}" for letter in "RNZQCFHPE"},
    "eps": r"\varepsilon",
    "vareps": r"\varepsilon",
    "Sha": r"\text{Ш}",
    "Hom": r"\operatorname{Hom}",
    "End": r"\operatorname{End}",
    "Aut": r"\operatorname{Aut}",
    "Gal": r"\operatorname{Gal}",
    "Spec": r"\operatorname{Spec}",
    "Tr": r"\operatorname{Tr}",
    "tr": r"\operatorname{tr}",
    "rk": r"\operatorname{rk}",
    "id": r"\operatorname{id}",
    "Id": r"\operatorname{Id}",
    "Var": r"\operatorname{Var}",
    "abs": (r"\lvert #1\rvert", 1),
    "norm": (r"\lVert #1\rVert", 1),
}
_MACRO_DEPTH = 16  # expansions in one formula before it is given up as a loop (`\a` -> `\b` -> `\a`)
# and the length it may reach: macros that each write others several times (`a: '\b\b\b\b'`, `b: '\c\c\c\c'`, ...)
# grow a formula fourfold at every step, billions of characters within the depth, from one line of a pull request
MAX_EXPANDED = 20_000
_CONTROL_SEQUENCE = re.compile(r"\\(?:[A-Za-z]+|.)", re.DOTALL)
_math_macros: dict[str, tuple[str, int]] = dict(BUILTIN_MATH_MACROS)


def set_math_macros(macros: dict[str, tuple[str, int]]) -> bool:
    """Use site.yaml's `math_macros` (name -> (replacement, number of arguments)) beside the built-in ones in every
    formula from now on; True when they changed (what was converted with the others is forgotten)."""
    global _math_macros
    wanted = BUILTIN_MATH_MACROS | dict(macros)
    if wanted == _math_macros:
        return False
    _math_macros = wanted
    convert_span.cache_clear()
    return True


def math_macros_key() -> str:
    """The macros in use, as text: part of the key of everything converted with them."""
    return repr(sorted(_math_macros.items()))


def expand_macros(tex: str, macros: dict[str, tuple[str, int]] | None = None) -> str:
    """`tex` with each macro of `macros` (default: those in use) replaced, `#1`... by its arguments (a braced group or
    one token), as MathJax's `macros` setting does; ValueError when they expand without end or past MAX_EXPANDED."""
    macros = _math_macros if macros is None else macros
    for _ in range(_MACRO_DEPTH):
        expanded = _expand_once(tex, macros)
        if expanded == tex:
            return tex
        if len(expanded) > MAX_EXPANDED:
            raise ValueError(f"the macros of math_macros make this formula longer than {MAX_EXPANDED:,} characters")
        tex = expanded
    raise ValueError("a macro of math_macros expands without end")


def formulas_expanded(text: str) -> str:
    """`text` with the macros of its formulas (site.yaml's `math_macros`, AMS-TeX's names) written as what they stand
    for: LaTeX that compiles without the preamble they came from, for the BibTeX a reader pastes into a paper (`$\\Z$`
    would be undefined there, or the paper's own `\\Z`). A formula whose macros expand without end stays as written."""
    if "\\" not in text:
        return text
    parts, position = [], 0
    for span in latex_spans(text):
        tex = span.group()
        if tex.startswith(("$", "\\(", "\\[", "\\begin")):
            try:
                tex = expand_macros(tex)
            except ValueError:
                pass
        parts += [text[position : span.start()], tex]
        position = span.end()
    return "".join(parts) + text[position:]


def _expand_once(tex: str, macros: dict[str, tuple[str, int]]) -> str:
    if "\\" not in tex:
        return tex
    parts, position = [], 0
    for match in _CONTROL_SEQUENCE.finditer(tex):
        if match.start() < position:  # inside an argument already taken
            continue
        name = match.group()[1:]
        if name not in macros:
            continue
        replacement, count = macros[name]
        end = match.end()
        for number in range(1, count + 1):
            argument, end = _argument(tex, end)
            replacement = replacement.replace(f"#{number}", argument)
        if re.search(r"\\[A-Za-z]+$", replacement) and tex[end : end + 1].isalpha():
            replacement += " "  # `\abs{x}y`: the closing macro is not read as `\rverty`
        parts += [tex[position : match.start()], replacement]
        position = end
    return "".join(parts) + tex[position:] if parts else tex


def _argument(tex: str, start: int) -> tuple[str, int]:
    """A macro's argument at `start`: a braced group (without its braces) or one token; spaces before it skipped."""
    while start < len(tex) and tex[start].isspace():
        start += 1
    if start >= len(tex):
        return "", start
    if tex[start] == "{":
        depth = 0
        for index in range(start, len(tex)):
            if tex[index] == "\\":
                continue
            if tex[index] == "{" and (index == 0 or tex[index - 1] != "\\"):
                depth += 1
            elif tex[index] == "}" and tex[index - 1] != "\\":
                depth -= 1
                if depth == 0:
                    return tex[start + 1 : index], index + 1
        return tex[start + 1 :], len(tex)
    token = _CONTROL_SEQUENCE.match(tex, start)
    if token:
        return token.group(), token.end()
    return tex[start], start + 1


def _aas_macro_meant(name: str) -> str:
    """The AAS journal macro (aas_macros.sty, as ADS writes `journal = {\\apjl}`) a misspelt one means, with the
    journal's name: '\\apjl (The Astrophysical Journal Letters)'; '' when it is like none."""
    import difflib

    from sitegen.sources.journal_macros import AAS_JOURNALS

    name = name.lower()
    started = sorted((macro for macro in AAS_JOURNALS if len(macro) > 2 and name.startswith(macro)), key=len, reverse=True)  # \apjlett
    close = started[:1] or difflib.get_close_matches(name, AAS_JOURNALS, n=1, cutoff=0.8)
    return f"\\{close[0]} ({AAS_JOURNALS[close[0]][1]})" if close else ""


def unconverted_hint(tex: str) -> str:
    """What to write instead of LaTeX that could not be converted, for the warning about it ('' when nothing is known)."""
    names = [name for name in re.findall(r"\\([A-Za-z]+)", tex) if name in COMMON_MACRO_MEANINGS and name not in _math_macros]
    if names:
        name = names[0]
        meaning = COMMON_MACRO_MEANINGS[name]
        value = f"['{meaning[0]}', {meaning[1]}]" if isinstance(meaning, tuple) else f"'{meaning}'"
        return (
            f"; \\{name} is a command of the paper's own preamble, not LaTeX's: say once what it stands for, "
            f"in content/site.yaml: `math_macros: {{{name}: {value}}}` (or write {meaning if isinstance(meaning, str) else meaning[0]} here)"
        )
    if (macro := re.fullmatch(r"\\([A-Za-z]+)", tex.strip())) and (meant := _aas_macro_meant(macro[1])):
        return f"; \\{macro[1]} is no journal macro of the AAS: did you mean {meant}? Or write the journal's name"
    if re.match(rf"\\(?:{'|'.join(SIUNITX_MACROS)})(?![A-Za-z])", tex):
        return (
            "; siunitx's quantities are converted when the number is one (`1.2e-3`, `5 +- 1`) and the unit is made of "
            "siunitx's units and prefixes (`\\milli\\gram`, `\\kelvin\\per\\minute`, `\\mg`) or text: write the unit "
            "as text, `\\SI{5}{mg}`, or the quantity in Unicode"
        )
    if tex.startswith("\\ce"):
        return (
            "; mhchem's formulas are converted when they hold elements, counts, charges (`^{2+}`, `-`), `_{...}`, "
            "`*` and the arrows `->`, `<=>`: write the rest as `CO$_2$`, `Li$^+$` or in Unicode"
        )
    if re.match(r"\\(?:cite|ref|eqref|label|citep|citet)\b", tex):
        return "; a reference to the paper's own bibliography or numbering has no meaning here: write it as text, as [KR] or (1)"
    if tex.startswith(("$", "\\(", "\\[")) and (macro := re.search(r"\\([A-Za-z]+)", tex)):
        return (
            f"; if \\{macro[1]} is a command of the paper's own preamble, say once what it stands for, in "
            f"content/site.yaml: `math_macros: {{{macro[1]}: '...'}}`; else write the formula with LaTeX's and "
            "amsmath's commands"
        )
    return "; write it in Unicode or with the commands listed in docs/content.md (LaTeX and Markdown)"


@dataclass
class Converted:
    html: str
    plain: str
    unconverted: list[str] = field(default_factory=list)  # LaTeX shown as source


def convert_inline(text: str) -> Converted:
    """Convert LaTeX-bearing text (a title, a name) to HTML and plain text."""
    if not has_latex(text):
        return Converted(html.escape(text, quote=False), text)
    pieces = split_latex(text)
    return Converted(
        "".join(html.escape(p, quote=False) if isinstance(p, str) else p.html for p in pieces),
        "".join(p if isinstance(p, str) else p.plain for p in pieces),
        [tex for p in pieces if not isinstance(p, str) for tex in p.unconverted],
    )


def unicode_macro_text(node: LatexMacroNode) -> str:
    """The text a macro of UNICODE_MACROS stands for: `\\"{u}` -> 'ü', `\\c c` -> 'ç', `\\ ` -> ' ', `\\LaTeX` -> 'LaTeX'
    (pylatexenc's text converter drops the logos)."""
    if node.macroname in ("LaTeX", "TeX"):
        return node.macroname
    if node.macroname in TEXT_SYMBOLS:
        return TEXT_SYMBOLS[node.macroname]
    if node.macroname == "polhk":
        letter = node.nodeargd.argnlist[-1] if node.nodeargd and node.nodeargd.argnlist else None
        return unicodedata.normalize("NFC", (_TEXT.nodelist_to_text([letter]) if letter is not None else "") + "\u0328")
    return unicodedata.normalize("NFC", _TEXT.nodelist_to_text([node]))


def latex_spans(text: str, start: int = 0, end: int | None = None):
    """`_LATEX_SPAN.finditer(text, start, end)`, tried only where a span can start: 5x faster on prose."""
    end = len(text) if end is None else end
    starts = _SPAN_OR_TYPOGRAPHY_START if ("--" in text or "~" in text or "``" in text or "''" in text) else _SPAN_START
    while candidate := starts.search(text, start, end):
        match = _LATEX_SPAN.match(text, candidate.start(), end)
        if match is None:
            start = candidate.start() + 1
            continue
        yield match
        start = match.end()


def escape_bare_specials(text: str) -> str:
    """Every %, & and # that has no backslash before it gets one, as LaTeX writes the character."""
    if "%" in text or "&" in text or "#" in text:
        return _BARE_SPECIALS.sub(r"\\\1", text)
    return text


def escape_text_underscores(text: str) -> str:
    """Every `_` of the text itself gets a backslash, as LaTeX writes the character.

    Record text writes an underscore bare (`snake_case`, or a .bib file's `snake\\_case` as read);
    in LaTeX's text mode a bare `_` stops the document ("Missing $ inserted"). A subscript in math
    (`$x_i$`) and an address (`\\url{a_b}`) keep theirs; the arguments of other macros and
    groups (`\\emph{a_b}`, `{a_b}`) are text.
    """
    if "_" not in text:
        return text
    parts, position = [], 0
    for span in latex_spans(text):
        parts.append(text[position : span.start()].replace("_", r"\_"))
        parts.append(_span_underscores_escaped(span.group()))
        position = span.end()
    parts.append(text[position:].replace("_", r"\_"))
    return "".join(parts)


_VERBATIM_MACROS = {"url", "href", "nolinkurl", "path", "doi"}  # their (first) argument is an address, not text
_MACRO_NAME = re.compile(r"\\([A-Za-z]+)\*?")


def _span_underscores_escaped(span: str) -> str:
    if "_" not in span or span.startswith(("$", "\\(", "\\[")) or (span.startswith("\\begin{") and "\\end{" in span):  # math
        return span
    if span.startswith("{"):
        return "{" + escape_text_underscores(span[1:-1]) + "}"
    name = _MACRO_NAME.match(span)
    if name is None or name[1] in _VERBATIM_MACROS:  # `\_` itself, an accent, an address
        return span
    return name.group() + escape_text_underscores(span[name.end() :])


def has_latex(text: str) -> bool:
    # plain substring tests: a regex alternation of these would be tried branch by branch at every position of an
    # abstract, where `in` scans for one string at a time
    return any(mark in text for mark in _LATEX_MARKS)


def split_latex(text: str) -> list[str | Converted]:
    """Split text into plain runs (str, left as they are) and converted LaTeX pieces."""
    pieces: list[str | Converted] = []
    position = 0
    for match in latex_spans(text):
        if match.start() > position:
            pieces.append(text[position : match.start()])
        pieces.append(convert_span(match.group()))
        position = match.end()
    if position < len(text):
        pieces.append(text[position:])
    return pieces


@functools.lru_cache(maxsize=65536)
def convert_span(span: str) -> Converted:
    """One piece of LaTeX; the same pieces recur across records (`$\\times$`), so they are remembered."""
    if span.startswith(("$$", "\\[")):  # display math, set apart as MathJax sets it
        return _math(span[2:-2], span, display=True)
    if span.startswith("$"):
        return _math(span[1:-1], span)
    if span.startswith("\\("):
        return _math(span[2:-2], span)
    if span.startswith("\\begin{") and "\\end{" in span:
        return _math(_display_environment(span), span, display=True)
    if span in _TYPOGRAPHY:
        return Converted(_TYPOGRAPHY[span], _TYPOGRAPHY[span])
    return _Converter().run(span)


def _display_environment(span: str) -> str:
    """A display environment's formula as latex2mathml reads it (see DISPLAY_ENVIRONMENTS)."""
    name = span[len("\\begin{") : span.index("}")].rstrip("*")
    body = _NUMBERING.sub("", span[span.index("}") + 1 : span.rindex("\\end{")])
    if name == "alignat":  # its number of columns: `\begin{alignat}{2}`
        body = re.sub(r"^\s*\{\d+\}", "", body)
    table = DISPLAY_ENVIRONMENTS[name]
    return f"\\begin{{{table}}}{body}\\end{{{table}}}" if table else body


def _math(tex: str, source: str, display: bool = False) -> Converted:
    """Math as MathML (`display`: set apart, a block); on failure the source in <code>, reported."""
    try:
        mathml = math_to_mathml(tex, display)
    except ValueError:
        mathml = ""
    if not mathml or _UNKNOWN_COMMAND.search(mathml):  # latex2mathml passes unknown commands through as text
        return Converted(f"<code>{html.escape(source, quote=False)}</code>", source, [source])
    root = mathml_tree(mathml)
    if root is not None and not display and "<mi></mi>" in mathml and (scripts := _bare_scripts(root)):
        return scripts
    return Converted(mathml, " ".join(_plain(root).split()) if root is not None else "")


def _bare_scripts(root: ET.Element) -> Converted | None:
    """A formula that is only a subscript or a superscript, with no base, as HTML's `<sub>` and `<sup>`: `CO$_2$`,
    `Li$^+$`, `SO$_4^{2-}$`, `10$^{-3}$`, as ACS, RSC, Wiley and Zotero write every chemical formula. Publishers set
    them so; as MathML, with an empty base, the line may break between "C" and its subscript, a gap follows, and
    the digits are set in the math font. `25$^\\circ$C` is the degree sign: 25°C. None when it is more than that."""
    row = list(root)
    while len(row) == 1 and _tag(row[0]) == "mrow":
        row = list(row[0])
    if len(row) != 1 or _tag(row[0]) not in _BARE_SCRIPT_TAGS:
        return None
    base, *scripts = list(row[0])
    if _tag(base) != "mi" or base.text or len(base):
        return None
    texts = [text for script in scripts if (text := _flat_text(script)) and text.strip()]
    if len(texts) != len(scripts):
        return None
    tags = _BARE_SCRIPT_TAGS[_tag(row[0])]
    if tags == ("sup",) and texts[0] in ("\u2218", "\u00b0"):  # `$^\circ$`, `$^{\circ}$`: a degree
        return Converted("\u00b0", "\u00b0")
    return Converted(
        "".join(f"<{tag}>{html.escape(text, quote=False)}</{tag}>" for tag, text in zip(tags, texts)),
        "".join(_script(text, *_SCRIPT_FORMS[tag]) for tag, text in zip(tags, texts)),
    )


_BARE_SCRIPT_TAGS = {"msub": ("sub",), "msup": ("sup",), "msubsup": ("sub", "sup")}
_SCRIPT_FORMS = {"sub": (_SUBSCRIPTS, "_"), "sup": (_SUPERSCRIPTS, "^")}


def _flat_text(element: ET.Element) -> str | None:
    """The text of a script that is a row of symbols (`2`, `2+`, `1-x`, `\\text{cat}`); None when it has structure
    of its own (a fraction, a script)."""
    tag = _tag(element)
    if tag in ("mi", "mn", "mo", "mtext") and not len(element):
        return identifier_text(element.text or "") if tag in ("mi", "mn") else (element.text or "")
    if tag == "mrow":
        parts = [_flat_text(child) for child in element]
        return None if any(part is None for part in parts) else "".join(part or "" for part in parts)
    return None


# what latex2mathml writes for a command it does not know: `<mi>\R</mi>` (a `\backslash` is `<mo>\</mo>`)
_UNKNOWN_COMMAND = re.compile(r">\\[A-Za-z]")


def math_to_mathml(tex: str, display: bool = False) -> str:
    """One formula as sanitised MathML (`display`: a block); raises ValueError when it cannot be converted."""
    import latex2mathml.converter  # here: its import is slow, and most edits convert no math

    tex = expand_macros(tex)
    tex, words = _set_words_aside(_UNKNOWN_TO_LATEX2MATHML.sub(_known_to_latex2mathml, tex) if "\\" in tex else tex)
    try:
        mathml = latex2mathml.converter.convert(tex, display="block" if display else "inline")
    except Exception as error:  # latex2mathml raises many kinds on bad input
        raise ValueError(str(error) or type(error).__name__) from error
    if "><mrow>" in mathml:
        mathml = _rows_out_of_tokens(mathml)
    if " mathvariant=" in mathml:
        mathml = _STYLED_TOKEN.sub(_styled_letters, mathml)
    if words:
        mathml = _put_words_back(mathml, words)
    mathml = _spaced_names(mathml)
    return _unary_signs(nh3.clean(mathml, tags=MATHML_TAGS, attributes={"*": MATHML_ATTRIBUTES}, strip_comments=True))


# Commands latex2mathml does not know, as what it knows: LaTeX's `\arg` (a complex number's argument, the one
# operator name of LaTeX's it lacks), and the blackboard bold of the bbm and dsfont packages, `\mathbbm{1}` and
# `\mathds{1}` (an indicator function), which it dropped without a word, leaving "1"
_LATEX2MATHML_NAMES = {"arg": r"\operatorname{arg}", "mathbbm": r"\mathbb", "mathds": r"\mathbb"}
_UNKNOWN_TO_LATEX2MATHML = re.compile(r"\\(arg|mathbbm|mathds)(?![A-Za-z])")


def _known_to_latex2mathml(match: re.Match) -> str:
    return _LATEX2MATHML_NAMES[match[1]]


# latex2mathml sets the argument of `\mathop{}`, `\mathbin{}`, `\mathrel{}`, `\mathord{}`, `\mathpunct{}` as a row inside
# an operator or identifier (`<mo><mrow><mi>Res</mi></mrow></mo>`), which MathML does not allow: the sanitiser
# empties the token, and `\mathop{\mathrm{Res}}_{s=1}`, `M \mathbin{\#} N` lost their symbols without a word
_ROW_IN_TOKEN = re.compile(r"<(mo|mi)(?: [^>]*)?><mrow>((?:(?!<(?:mo|mi)(?: [^>]*)?><mrow>).)*?)</mrow></\1>", re.DOTALL)


# A letter in a style: latex2mathml writes `\Bbb Q`, `{\bf Z}`, `\frak g`, `\mathscr{F}`, `\boldsymbol{\mu}`,
# `\mathsf{Sp}` as the plain letter with a `mathvariant`, which MathML Core (Chromium's MathML) ignores but for
# "normal": Chrome showed ℚ, 𝐙, 𝔤, ℱ as Q, Z, g, F. Unicode has each styled letter (as latex2mathml writes
# `\mathbb{Q}`: ℚ), which every browser shows.
_STYLED_TOKEN = re.compile(r'<(mi|mn)( [^>]*?)? mathvariant="([a-z-]+)"([^>]*)>([^<]*)</\1>')
_VARIANT_NAMES = {
    "bold": "BOLD",
    "italic": "ITALIC",
    "bold-italic": "BOLD ITALIC",
    "double-struck": "DOUBLE-STRUCK",
    "script": "SCRIPT",
    "bold-script": "BOLD SCRIPT",
    "fraktur": "FRAKTUR",
    "bold-fraktur": "BOLD FRAKTUR",
    "sans-serif": "SANS-SERIF",
    "bold-sans-serif": "SANS-SERIF BOLD",
    "sans-serif-italic": "SANS-SERIF ITALIC",
    "sans-serif-bold-italic": "SANS-SERIF BOLD ITALIC",
    "monospace": "MONOSPACE",
}
# the styled letters Unicode had before its mathematical alphabets, in their place there (ℬ, ℭ, ℂ, ℎ, ...)
_LETTERLIKE_NAMES = {"SCRIPT": "SCRIPT", "FRAKTUR": "BLACK-LETTER", "DOUBLE-STRUCK": "DOUBLE-STRUCK"}


def _styled_letters(match: re.Match) -> str:
    tag, before, variant, after, text = match.groups()
    if variant not in _VARIANT_NAMES:  # "normal": the one MathML Core knows
        return match.group()
    letters = [_styled_letter(char, variant) for char in html.unescape(text)]
    if any(letter is None for letter in letters):
        return match.group()
    return f"<{tag}{before or ''}{after}>{''.join(letter for letter in letters if letter)}</{tag}>"


@functools.lru_cache(maxsize=1024)
def _styled_letter(char: str, variant: str) -> str | None:
    """`char` in the style `variant` (a `mathvariant`), as Unicode writes it: Q double-struck ℚ, g fraktur 𝔤, μ bold
    italic 𝝁; None when Unicode has no such letter."""
    name = unicodedata.name(char, "")
    kind = re.fullmatch(r"(?:LATIN (CAPITAL|SMALL) LETTER ([A-Z])|GREEK (CAPITAL|SMALL) LETTER (\w+)|DIGIT (\w+))", name)
    if kind is None:
        return None
    case, letter = (kind[1], kind[2]) if kind[1] else (kind[3], kind[4]) if kind[3] else ("DIGIT", kind[5])
    style = _VARIANT_NAMES[variant]
    names = [f"MATHEMATICAL {style} {case} {letter}"]
    if style in _LETTERLIKE_NAMES:
        names.append(f"{_LETTERLIKE_NAMES[style]} {case} {letter}")
    names += ["PLANCK CONSTANT"] if (style, case, letter) == ("ITALIC", "SMALL", "H") else []
    for candidate in names:
        try:
            return unicodedata.lookup(candidate)
        except KeyError:
            continue
    return None


def _rows_out_of_tokens(mathml: str) -> str:
    """Each row latex2mathml put inside a token element as the row itself (its symbols keep their own elements)."""
    while (unwrapped := _ROW_IN_TOKEN.sub(r"<mrow>\2</mrow>", mathml)) != mathml:
        mathml = unwrapped
    return mathml


THIN_SPACE = '<mspace width="0.1667em"></mspace>'
# a name of several letters (`log`, `max`) set as an identifier: TeX sets a thin space between it and
# a letter or number beside it (`n \log n`); a browser sets none between two identifiers ("nlogn")
_NAME_MI = r"<mi(?: [^>]*)?>[A-Za-z]{2,}</mi>"
_SCRIPTED_NAME = rf"<(?P<script>msup|msub|msubsup)>{_NAME_MI}(?:(?!</?(?:msup|msub|msubsup)>).)*?</(?P=script)>"  # `\log^2`
_NAME_AFTER_ORDINARY = re.compile(rf"(?<=</mi>|</mn>)(?={_NAME_MI}|<(?:msup|msub|msubsup)>{_NAME_MI})")
_ORDINARY_AFTER_NAME = re.compile(rf"((?<!<msup>)(?<!<msub>)(?<!<msubsup>){_NAME_MI}|{_SCRIPTED_NAME})(?=<m[in][ >])")


# a sign after an opening bracket, a comma or a relation is the number's sign, not a subtraction: `\{-1, 0, 1\}`,
# `f(-x)`, `a = -b`. TeX sets it so; MathML takes an operator inside a row for a binary one, spaced on both sides
_UNARY_SIGN = re.compile(r"(<mo(?: [^>]*)?>(?:[(\[{⟨,;:=≤≥≠∈∉⊂⊆⊃⊇→↦∼≈≡≅]|&lt;|&gt;)</mo>)<mo>([−+±∓])</mo>")


def _unary_signs(mathml: str) -> str:
    return _UNARY_SIGN.sub(r'\1<mo form="prefix">\2</mo>', mathml) if "<mo>" in mathml else mathml


def _spaced_names(mathml: str) -> str:
    """Thin spaces between a multi-letter name and an identifier or number beside it, as TeX sets them."""
    mathml = _NAME_AFTER_ORDINARY.sub(THIN_SPACE, mathml)
    return _ORDINARY_AFTER_NAME.sub(lambda match: match.group(0) + THIN_SPACE, mathml)


def _set_words_aside(tex: str) -> tuple[str, list[str]]:
    """`tex` with each text or name macro (`\\text{if a<b}`, `\\operatorname{argmax}`) replaced by a
    placeholder character, and the MathML element each placeholder stands for.

    latex2mathml copies a `\\text{}` argument into <mtext> unescaped (a `<` in it starts a tag the
    sanitiser removes, with every word after it) and cuts it at a nested brace; a `\\mathrm{log}`
    becomes three one-letter identifiers, read as a product. Made here, each is one element.
    """
    if "\\" not in tex or _PLACEHOLDER_CHARACTERS.search(tex) or not _MATH_WORDS.search(tex):
        return tex, []
    words: list[str] = []

    def aside(match: re.Match) -> str:
        name, argument = match[1], match[3][1:-1]
        if name in MATH_TEXT_MACROS:
            element = _mtext(argument, MATH_TEXT_MACROS[name])
        elif _NAME.fullmatch(argument.strip()):
            element = _name_mi(argument.strip())
        else:  # not one word (`arg\\,max`, `x_1`): latex2mathml sets it letter by letter, words kept
            return "\\mathrm{" + _MATH_WORDS.sub(aside, argument) + "}"
        if len(words) == _PLACEHOLDER_COUNT:
            raise ValueError("too many text macros in one formula")
        words.append(element)
        return chr(_FIRST_PLACEHOLDER + len(words) - 1)

    return _MATH_WORDS.sub(aside, tex), words


def _mtext(argument: str, variant: str) -> str:
    """A text macro's argument as <mtext>: its own LaTeX (accents, `\\&`) converted, spaces as
    LaTeX sets them (one between words; kept at the ends, where MathML would trim them)."""
    converted = convert_inline(argument)
    if converted.unconverted:
        raise ValueError(f"cannot convert {converted.unconverted[0]}")
    text = _SPACE.sub(" ", converted.plain)
    core = text.strip(" ")
    if not core:
        return '<mspace width="0.333em"></mspace>' if text else ""
    text = "\u00a0" * (text[0] == " ") + core + "\u00a0" * (text[-1] == " ")
    attribute = f' mathvariant="{variant}"' if variant else ""
    return f"<mtext{attribute}>{html.escape(text, quote=False)}</mtext>"


def _name_mi(name: str) -> str:
    """An upright name: several letters are upright in MathML by default, a single one is not."""
    attribute = ' mathvariant="normal"' if len(name) == 1 else ""
    return f"<mi{attribute}>{html.escape(name, quote=False)}</mi>"


def _put_words_back(mathml: str, words: list[str]) -> str:
    """`mathml` with each placeholder's element in its place; ValueError if latex2mathml lost one."""
    found = []

    def back(match: re.Match) -> str:
        index = ord(match[2]) - _FIRST_PLACEHOLDER
        found.append(index)
        return words[index]

    mathml = _PLACED_WORD.sub(back, mathml)
    if sorted(found) != list(range(len(words))) or _PLACEHOLDER_CHARACTERS.search(mathml):
        raise ValueError("text in the formula was lost")
    return mathml


def mathml_tree(mathml: str) -> ET.Element | None:
    """MathML as a tree; None when it is not well formed."""
    try:
        return ET.fromstring(mathml.replace("&nbsp;", "&#160;"))  # the sanitiser writes U+00A0 as the one entity XML does not know
    except ET.ParseError:
        return None


def mathml_to_plain(mathml: str) -> str:
    """A readable Unicode rendering of MathML, for places that cannot show markup."""
    root = mathml_tree(mathml)
    return " ".join(_plain(root).split()) if root is not None else ""


def _plain(element: ET.Element) -> str:
    tag = _tag(element)
    children = list(element)
    if tag in ("mi", "mn", "mo", "ms"):
        return identifier_text(element.text or "") if tag in ("mi", "mn") else (element.text or "")  # a bold 𝟏 is 1
    if tag == "mtext":
        return (element.text or "").replace("\u00a0", " ")
    parts = [_plain(child) for child in children]
    if tag in ("msup", "mover") and len(parts) == 2 and parts[1] and set(parts[1]) <= _PRIMES:  # `f''(x)`: f′′(x)
        return parts[0] + parts[1]
    if tag == "msup" and len(parts) == 2:
        return parts[0] + _script(parts[1], _SUPERSCRIPTS, "^")
    if tag == "msub" and len(parts) == 2:
        return parts[0] + _script(parts[1], _SUBSCRIPTS, "_")
    if tag in ("msubsup", "munderover") and len(parts) == 3:  # `\sum_{i=1}^n`, set as limits in display math
        return parts[0] + _script(parts[1], _SUBSCRIPTS, "_") + _script(parts[2], _SUPERSCRIPTS, "^")
    if tag == "mover" and len(parts) == 2 and parts[1] in _OVER_ACCENTS:
        return "".join(ch + _OVER_ACCENTS[parts[1]] for ch in parts[0])
    if tag == "munder" and len(parts) == 2 and parts[1] in _UNDER_ACCENTS:
        return "".join(ch + _UNDER_ACCENTS[parts[1]] for ch in parts[0])
    if tag == "munder" and len(parts) == 2 and parts[1] not in _BRACES:  # `\lim_{n\to\infty}`, `\prod_p` in display math
        return parts[0] + _script(parts[1], _SUBSCRIPTS, "_")
    if tag in ("munder", "mover") and len(parts) == 2 and parts[1] in _BRACES:  # `\underbrace{a+b}`: the braced part
        return parts[0]
    if tag == "mfrac" and len(parts) == 2 and element.get("linethickness") in ("0", "0px", "0em"):
        return f"{parts[0]} choose {parts[1]}"  # `\binom{n}{k}`: a fraction without its bar, in parentheses
    if tag == "mfrac" and len(parts) == 2:
        return f"{_group(parts[0])}/{_group(parts[1])}"
    if tag == "msqrt":
        return f"√{_group(''.join(parts))}"
    if tag == "mroot" and len(parts) == 2:  # `\sqrt[3]{x}`: ∛x, else the index raised before the root
        root = {"3": "∛", "4": "∜"}.get(parts[1]) or _script(parts[1], _SUPERSCRIPTS, "^").lstrip("^") + "√"
        return root + _group(parts[0])
    if tag == "mtable":  # a matrix, `cases`: the cells of a row apart, the rows by semicolons
        return "; ".join(_row(list(row)) for row in children)
    if tag == "mspace":  # a space, but none for a negative one (`\!`: `\mathbb{Z}_p[\![T]\!]`, `X/\!\!/G`)
        return "" if element.get("width", "").startswith(("-", "negative")) else " "
    return _spaced(children, parts)


@functools.lru_cache(maxsize=4096)
def identifier_text(text: str) -> str:
    """An identifier of a formula as plain text: a styled letter as the letter (𝐕 V, ℚ Q, 𝒪 O), but ℓ, ℵ, ℘ and the
    Fraktur letters (𝔭, 𝔖, ℜ) as they are (`_KEPT_SYMBOLS`): NFKC would write l, the Hebrew letter א, p, S and R."""
    if not any(char in _KEPT_SYMBOLS or _is_fraktur(char) for char in text):
        return unicodedata.normalize("NFKC", text)
    return "".join(char if char in _KEPT_SYMBOLS or _is_fraktur(char) else unicodedata.normalize("NFKC", char) for char in text)


def _is_fraktur(char: str) -> bool:
    return char >= "\u210c" and ("FRAKTUR" in (name := unicodedata.name(char, "")) or "BLACK-LETTER" in name)


def _row(cells: list[ET.Element]) -> str:
    """A table's row as text: its cells apart, but `align`'s pairs (`a &= b`: right-aligned, then left) as one."""
    text = ""
    for index, cell in enumerate(cells):
        joined = index > 0 and cells[index - 1].get("columnalign") == "right" and cell.get("columnalign") == "left"
        text += ("" if joined or not text else " ") + _plain(cell)
    return text


def _tag(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _spaced(children: list[ET.Element], parts: list[str]) -> str:
    """The parts of a row joined; a name (`log`, `softmax`) is a word, kept apart from a letter or
    digit beside it: `n \\log n` reads "n log n", not "nlogn"; `\\log(n)` stays "log(n)"."""
    text = ""
    after_name = False
    for child, part in zip(children, parts):
        is_name = _is_name(child, part)
        if (is_name or after_name) and text and part and text[-1].isalnum() and part[0].isalnum():
            text += " "
        text += part
        after_name = is_name
    return text


def _is_name(element: ET.Element, text: str) -> bool:
    """A function or operator name of several letters (`log`, `argmax`), scripts and limits included."""
    tag = _tag(element)
    if tag in _SCRIPTED:
        first = next(iter(element), None)
        return first is not None and _is_name(first, _plain(first))
    return (tag == "mi" and len(text) > 1) or (tag == "mo" and len(text) > 1 and text.isalpha())


def _script(text: str, table: dict, marker: str) -> str:
    if text and all(ord(ch) in table for ch in text):  # every character has a raised/lowered form
        return text.translate(table)
    if marker == "^" and len(text) > 1:  # `e^{i\pi}`: e^(iπ); "e^iπ" would read as e^i times π
        return f"^({text})"
    return f"{marker}{_group(text)}"


def _group(text: str) -> str:
    return text if len(text) <= 1 or text.isalnum() else f"({text})"


# -- mhchem's `\ce{...}`: a chemical formula or equation, as chemists write one in LaTeX -------------------------

_CE_ARROWS = {"->": "\u2192", "<-": "\u2190", "<->": "\u2194", "<=>": "\u21cc", "<=>>": "\u21cc", "<<=>": "\u21cc", "=": "=", "+": "+"}
# one piece of a formula, as mhchem reads it: an explicit script (`^{2+}`, `^3-`, `_{x}`, `_{0.8}`), a count after an
# element or a bracket (`2`), an adduct's dot (`.` or `*` before a formula: CuSO4*5H2O), a charge at its end (`-`;
# `2+` after `^`), or text written as it is (a coefficient, a bond `-`)
_CE_TOKEN = re.compile(
    r"(?P<script>[\^_])(?:\{(?P<group>[^{}\\$]*)\}|(?P<bare>[0-9]*[+\-]|[0-9]+|[A-Za-z]))"
    r"|(?<=[A-Za-z)\]])(?P<count>[0-9]+)"
    r"|(?P<dot>[.*])(?=[0-9]*[A-Z(])"
    r"|(?<=[A-Za-z0-9)\]])(?P<charge>[+\-])$"
    r"|(?P<text>[A-Za-z0-9()\[\],/:;'\-])"
)


def chemistry(formula: str) -> Converted | None:
    """mhchem's `\\ce{...}` (its argument): `CO2` CO₂, `[Fe(CN)6]^3-` [Fe(CN)₆]³⁻, `SO4^2-`, `Li+`, `^{13}C`,
    `CuSO4.5H2O` CuSO₄·5H₂O, `2 H2 + O2 -> 2 H2O`: the counts after an element or a bracket lowered, charges raised,
    as `<sub>` and `<sup>` (plain text: Unicode's lowered and raised digits). None for what is more than that (a
    command inside, an arrow's label): it is then shown as source, and reported."""
    html_parts: list[str] = []
    plain_parts: list[str] = []
    for index, word in enumerate(formula.split()):
        separator = " " if index else ""
        if word in _CE_ARROWS:
            html_parts.append(separator + html.escape(_CE_ARROWS[word], quote=False))
            plain_parts.append(separator + _CE_ARROWS[word])
            continue
        word_html, word_plain = _chemical_formula(word)
        if word_html is None:
            return None
        html_parts.append(separator + word_html)
        plain_parts.append(separator + word_plain)
    return Converted("".join(html_parts), "".join(plain_parts)) if html_parts else None


def _chemical_formula(word: str) -> tuple[str | None, str]:
    html_text, plain, position = "", "", 0
    while position < len(word):
        match = _CE_TOKEN.match(word, position)
        if match is None:
            return None, ""
        position = match.end()
        if match["script"]:
            text = match["group"] if match["group"] is not None else match["bare"]
            tag = "sup" if match["script"] == "^" else "sub"
        elif match["count"]:
            text, tag = match["count"], "sub"
        elif match["charge"]:
            text, tag = match["charge"], "sup"
        elif match["dot"]:
            html_text, plain = html_text + "\u00b7", plain + "\u00b7"
            continue
        else:
            html_text, plain = html_text + html.escape(match["text"], quote=False), plain + match["text"]
            continue
        text = text.replace("-", "\u2212")
        table = _SCRIPT_FORMS[tag][0]
        html_text += f"<{tag}>{html.escape(text, quote=False)}</{tag}>"
        plain += text.translate(table) if all(ord(ch) in table for ch in text) else text
    return html_text, plain


# -- siunitx's numbers and units: `\SI{5}{\milli\gram}`, `\qty{10}{\kelvin\per\minute}`, `\num{1.2e-3}` ------------

SI_PREFIXES = {
    "yocto": "y", "zepto": "z", "atto": "a", "femto": "f", "pico": "p", "nano": "n", "micro": "\u00b5", "milli": "m",
    "centi": "c", "deci": "d", "deca": "da", "deka": "da", "hecto": "h", "kilo": "k", "mega": "M", "giga": "G",
    "tera": "T", "peta": "P", "exa": "E",
}  # fmt: skip
SI_UNITS = {
    "metre": "m", "meter": "m", "gram": "g", "second": "s", "mole": "mol", "kelvin": "K", "ampere": "A",
    "candela": "cd", "litre": "L", "liter": "L", "molar": "M", "hertz": "Hz", "newton": "N", "pascal": "Pa",
    "joule": "J", "watt": "W", "coulomb": "C", "volt": "V", "farad": "F", "ohm": "\u03a9", "siemens": "S",
    "tesla": "T", "henry": "H", "weber": "Wb", "becquerel": "Bq", "gray": "Gy", "sievert": "Sv", "katal": "kat",
    "lux": "lx", "lumen": "lm", "celsius": "\u00b0C", "degreeCelsius": "\u00b0C", "electronvolt": "eV",
    "dalton": "Da", "atomicmassunit": "u", "angstrom": "\u00c5", "bar": "bar", "atmosphere": "atm", "torr": "Torr",
    "mmHg": "mmHg", "minute": "min", "hour": "h", "day": "d", "percent": "%", "degree": "\u00b0", "radian": "rad",
    "steradian": "sr", "tonne": "t", "hectare": "ha", "neper": "Np", "bel": "B", "decibel": "dB", "ppm": "ppm",
    "permille": "\u2030", "calorie": "cal", "wavenumber": "cm\u207b\u00b9",
}  # fmt: skip
# siunitx's abbreviations (`\mg`, `\nm`, `\mM`, `\kJ`, ...): a prefix's letter and a unit's symbol
_SI_ABBREVIATED = {
    "g": "g",
    "m": "m",
    "s": "s",
    "mol": "mol",
    "L": "L",
    "l": "L",
    "M": "M",
    "V": "V",
    "A": "A",
    "W": "W",
    "J": "J",
    "eV": "eV",
    "Pa": "Pa",
    "Hz": "Hz",
    "K": "K",
    "N": "N",
    "C": "C",
    "F": "F",
}
SI_ABBREVIATIONS = (
    {
        prefix + unit: (symbol if prefix == "u" else "") or prefix + symbol
        for prefix in ("", "f", "p", "n", "u", "m", "c", "k", "M", "G")
        for unit, symbol in _SI_ABBREVIATED.items()
    }
    | {"u" + unit: "\u00b5" + symbol for unit, symbol in _SI_ABBREVIATED.items()}
    | {"h": "h", "min": "min", "kWh": "kWh", "Da": "Da", "kDa": "kDa", "ohm": "\u03a9"}
)
_SI_TOKEN = re.compile(r"\\(?P<macro>[A-Za-z]+)\s*(?:\{(?P<argument>[^{}]*)\})?|(?P<text>[^\\]+)")
_SI_NUMBER = re.compile(
    r"(?P<mantissa>[+-]?[0-9]*[.,]?[0-9]*)(?:\((?P<uncertainty>[0-9]+)\))?(?:\+-(?P<plusminus>[0-9.,]+))?(?:[eE](?P<exponent>[+-]?[0-9]+))?"
)
_SI_SPACE = "\u202f"  # between a number and its unit, and between units: a narrow no-break space, as siunitx's thin one


def siunitx_number(number: str) -> Converted | None:
    """siunitx's `\\num{1.2e-3}`: 1.2 × 10⁻³; `5 +- 1` 5 ± 1; `-3` −3. None when it is no number."""
    match = _SI_NUMBER.fullmatch("".join(number.split()))
    if match is None or not any(ch.isdigit() for ch in match["mantissa"] + (match["exponent"] or "")):
        return None
    mantissa = match["mantissa"].replace("-", "\u2212")
    if match["uncertainty"]:
        mantissa += f"({match['uncertainty']})"
    if match["plusminus"]:
        mantissa += f" \u00b1 {match['plusminus']}"
    html_text = plain = mantissa
    if match["exponent"]:
        power = match["exponent"].lstrip("+").replace("-", "\u2212")
        times = f"{mantissa} \u00d7 " if mantissa.strip("+\u2212") else ""
        html_text, plain = f"{times}10<sup>{power}</sup>", f"{times}10{power.translate(_SUPERSCRIPTS)}"
    return Converted(html.escape(html_text, quote=False).replace("&lt;sup&gt;", "<sup>").replace("&lt;/sup&gt;", "</sup>"), plain)


def siunitx_unit(unit: str) -> Converted | None:
    """siunitx's unit: `\\kelvin\\per\\minute` K min⁻¹, `\\milli\\gram` mg, `\\mg`, `\\metre\\squared`, `mg/mL` as
    written. None for a command siunitx's units do not have."""
    units: list[list[str]] = []  # [symbol, exponent]
    prefix, power, per = "", 1, False
    for match in _SI_TOKEN.finditer(unit):
        if match["text"] is not None:
            if match["text"].strip():
                units.append([html.escape(match["text"].strip(), quote=False), ""])
            continue
        name, argument = match["macro"], match["argument"]
        if name in SI_PREFIXES:
            prefix += SI_PREFIXES[name]
        elif name in ("per",):
            per = True
        elif name in ("square", "cubic"):
            power = 2 if name == "square" else 3
        elif name in ("squared", "cubed", "tothe") and units:
            exponent = {"squared": "2", "cubed": "3"}.get(name, (argument or "").strip())
            if not re.fullmatch(r"-?[0-9.]+", exponent):
                return None
            units[-1][1] = ("-" if units[-1][1].startswith("-") else "") + exponent
        elif name in SI_UNITS or name in SI_ABBREVIATIONS:
            exponent = power * (-1 if per else 1)
            units.append([prefix + SI_UNITS.get(name, SI_ABBREVIATIONS.get(name, "")), "" if exponent == 1 else str(exponent)])
            prefix, power, per = "", 1, False
        else:
            return None
    if not units or prefix or per:
        return None
    html_parts, plain_parts = [], []
    for symbol, exponent in units:
        exponent = exponent.replace("-", "\u2212")
        html_parts.append(symbol + (f"<sup>{exponent}</sup>" if exponent else ""))
        plain_parts.append(html.unescape(symbol) + exponent.translate(_SUPERSCRIPTS))
    return Converted(_SI_SPACE.join(html_parts), _SI_SPACE.join(plain_parts))


def siunitx(name: str, arguments: list[str]) -> Converted | None:
    """`\\SI`/`\\qty{number}{unit}`, `\\si`/`\\unit{unit}`, `\\num{number}`, `\\SIrange`/`\\qtyrange{a}{b}{unit}`,
    `\\numrange{a}{b}`, `\\ang{30}`, as siunitx prints them with its defaults; None when one cannot be read."""
    parts: list[Converted | None]
    if name in ("SI", "qty") and len(arguments) == 2:
        parts = [siunitx_number(arguments[0]), siunitx_unit(arguments[1])]
        joint = [_SI_SPACE]
    elif name in ("si", "unit") and len(arguments) == 1:
        parts, joint = [siunitx_unit(arguments[0])], []
    elif name == "num" and len(arguments) == 1:
        parts, joint = [siunitx_number(arguments[0])], []
    elif name == "ang" and len(arguments) == 1:
        parts, joint = [siunitx_number(arguments[0]), Converted("\u00b0", "\u00b0")], [""]
    elif name in ("SIrange", "qtyrange") and len(arguments) == 3:
        unit = siunitx_unit(arguments[2])
        parts = [siunitx_number(arguments[0]), unit, Converted(" to ", " to "), siunitx_number(arguments[1]), unit]
        joint = [_SI_SPACE, "", "", _SI_SPACE]
    elif name == "numrange" and len(arguments) == 2:
        parts, joint = [siunitx_number(arguments[0]), Converted(" to ", " to "), siunitx_number(arguments[1])], ["", ""]
    else:
        return None
    pieces = [part for part in parts if part is not None]
    if len(pieces) != len(parts):
        return None
    html_text, plain = pieces[0].html, pieces[0].plain
    for space, piece in zip(joint, pieces[1:]):
        html_text, plain = html_text + space + piece.html, plain + space + piece.plain
    return Converted(html_text, plain)


class _Converter:
    def __init__(self) -> None:
        self.unconverted: list[str] = []

    def parse(self, text: str):
        # In titles and abstracts a bare %, & or # is that character, not LaTeX syntax.
        text = escape_bare_specials(text)
        return LatexWalker(text, latex_context=LATEX_CONTEXT, tolerant_parsing=True).get_latex_nodes()[0]

    def run(self, text: str) -> Converted:
        if text.startswith("\\end"):  # an environment's end without its beginning: pylatexenc would drop it silently
            self.unconverted.append(text)
            return Converted(f"<code>{html.escape(text, quote=False)}</code>", text, self.unconverted)
        try:
            nodes = self.parse(text)
        except (LatexWalkerError, IndexError):  # pylatexenc runs off the end on e.g. `\verb|x|`
            self.unconverted.append(text)
            return Converted(f"<code>{html.escape(text, quote=False)}</code>", text, self.unconverted)
        html_parts, plain_parts = self.nodes(nodes)
        return Converted("".join(html_parts), "".join(plain_parts), self.unconverted)

    def nodes(self, nodes) -> tuple[list[str], list[str]]:
        nodes = list(nodes or ())
        if nodes and isinstance(nodes[0], LatexMacroNode) and nodes[0].macroname in _DECLARATIONS:
            # `{\it text}`: the declaration formats the rest of its group
            tag = _DECLARATIONS[nodes[0].macroname]
            inner_html, inner_plain = self.joined(nodes[1:])
            return [f"<{tag}>{inner_html.strip()}</{tag}>"], [inner_plain.strip()]
        if nodes and isinstance(nodes[0], LatexMacroNode) and nodes[0].macroname in PLAIN_DECLARATIONS:
            inner_html, inner_plain = self.joined(nodes[1:])
            return [inner_html.lstrip()], [inner_plain.lstrip()]
        html_parts: list[str] = []
        plain_parts: list[str] = []
        index = 0
        while index < len(nodes):
            node = nodes[index]
            index += 1
            if isinstance(node, LatexMacroNode) and not self.known(node):
                # an unknown macro's arguments are shown with it, as source
                group = [node]
                while index < len(nodes) and isinstance(nodes[index], LatexGroupNode):
                    group.append(nodes[index])
                    index += 1
                node_html, node_plain = self.source(*group)
            else:
                node_html, node_plain = self.node(node)
            html_parts.append(node_html)
            plain_parts.append(node_plain)
        return html_parts, plain_parts

    @staticmethod
    def known(node: LatexMacroNode) -> bool:
        name = node.macroname
        return (
            name in FORMAT_TAGS
            or name in PLAIN_MACROS
            or name in UNICODE_MACROS
            or name in DROPPED_MACROS
            or name in ("href", "ensuremath", "ce")
            or name in SIUNITX_MACROS
        )

    def node(self, node) -> tuple[str, str]:
        if isinstance(node, LatexCharsNode):
            return html.escape(node.chars, quote=False), node.chars
        if isinstance(node, LatexGroupNode):
            return self.joined(node.nodelist)
        if isinstance(node, LatexMathNode):
            return self.math(node)
        if isinstance(node, LatexMacroNode):
            return self.macro(node)
        if isinstance(node, LatexSpecialsNode):
            if node.specials_chars == "~":
                return "~", "~"
            text = _TEXT.nodelist_to_text([node])
            return html.escape(text, quote=False), text
        if isinstance(node, LatexCommentNode):
            return "", ""
        return self.source(node)

    def joined(self, nodes) -> tuple[str, str]:
        html_parts, plain_parts = self.nodes(nodes)
        return "".join(html_parts), "".join(plain_parts)

    def math(self, node: LatexMathNode) -> tuple[str, str]:
        converted = _math("".join(n.latex_verbatim() for n in node.nodelist), node.latex_verbatim(), node.displaytype == "display")
        self.unconverted.extend(converted.unconverted)
        return converted.html, converted.plain

    def macro(self, node: LatexMacroNode) -> tuple[str, str]:
        name = node.macroname
        args = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
        if name in FORMAT_TAGS or name in PLAIN_MACROS:
            inner_html, inner_plain = self.joined(args) if args else ("", "")
            if name in PLAIN_MACROS:
                return inner_html, inner_plain
            tag = FORMAT_TAGS[name]
            if tag in _SCRIPT_FORMS and inner_plain and all(ord(ch) in _SCRIPT_FORMS[tag][0] for ch in inner_plain):
                inner_plain = inner_plain.translate(_SCRIPT_FORMS[tag][0])  # `CO\textsubscript{2}`: CO₂ (but 19th)
            return f"<{tag}>{inner_html}</{tag}>", inner_plain
        if name in UNICODE_MACROS:
            text = unicode_macro_text(node)
            return html.escape(text, quote=False), text
        arguments = node.nodeargd.argnlist[1:] if name in SIUNITX_MACROS and node.nodeargd else []  # its options ignored
        if arguments and all(isinstance(arg, LatexGroupNode) for arg in arguments):  # siunitx's quantities
            if converted := siunitx(name, [arg.latex_verbatim()[1:-1] for arg in arguments]):
                return converted.html, converted.plain
            return self.source(node)
        if name == "ce" and len(args) == 1 and isinstance(args[0], LatexGroupNode):  # mhchem's formula
            if converted := chemistry(args[0].latex_verbatim()[1:-1]):
                return converted.html, converted.plain
            return self.source(node)
        if name == "href" and len(args) == 2:
            # a link's text, without the link: a title is itself a link in lists, and no address is judged here (a
            # text in Markdown, an abstract, makes it a link the sanitiser judges: markup.render_markdown)
            return self.node(args[1])
        if name in DROPPED_MACROS:
            return " ", " "
        if name == "ensuremath" and len(args) == 1:  # math in text, as ADS writes a title's Greek: {\ensuremath{\Lambda}}CDM
            argument = args[0]
            inner = "".join(n.latex_verbatim() for n in argument.nodelist) if isinstance(argument, LatexGroupNode) else argument.latex_verbatim()
            converted = _math(inner, node.latex_verbatim())
            self.unconverted.extend(converted.unconverted)
            return converted.html, converted.plain
        return self.source(node)

    def source(self, *nodes) -> tuple[str, str]:
        tex = "".join(node.latex_verbatim() for node in nodes)
        self.unconverted.append(tex)
        return f"<code>{html.escape(tex, quote=False)}</code>", tex
