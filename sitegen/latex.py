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

# Text macros and the HTML element they become.
FORMAT_TAGS = {
    "textbf": "strong", "bf": "strong", "bfseries": "strong",
    "emph": "em", "textit": "em", "it": "em", "itshape": "em", "textsl": "em", "sl": "em",
    "texttt": "code", "tt": "code",
    "underline": "u",
    "textsuperscript": "sup", "textsubscript": "sub",
}
# Macros whose argument is shown as it is.
PLAIN_MACROS = {"textrm", "textsf", "textnormal", "mbox", "text", "textup", "textmd", "url", "nolinkurl", "protect"}
# Accents and symbols that pylatexenc's text converter turns into Unicode.
UNICODE_MACROS = {
    '"', "'", "`", "^", "~", "=", ".", "c", "v", "u", "H", "k", "r", "d", "b", "t",
    "ss", "o", "O", "ae", "AE", "oe", "OE", "aa", "AA", "l", "L", "i", "j",
    "&", "%", "$", "#", "_", "{", "}", " ", ",", ";", ":", "!", "/", "-",
    "textendash", "textemdash", "ldots", "dots", "textellipsis", "LaTeX", "TeX",
    "textquoteleft", "textquoteright", "textquotedblleft", "textquotedblright",
    "S", "P", "copyright", "textregistered", "texttrademark", "pounds", "euro", "textdegree",
}
DROPPED_MACROS = {"\\", "newline", "linebreak", "par", "noindent", "relax", "xspace", "/"}

MATHML_TAGS = {
    "math", "mrow", "mi", "mo", "mn", "ms", "mtext", "mspace", "msup", "msub", "msubsup",
    "mover", "munder", "munderover", "mfrac", "msqrt", "mroot", "mstyle", "mtable", "mtr",
    "mtd", "mpadded", "mphantom", "menclose", "semantics", "annotation",
}
MATHML_ATTRIBUTES = {
    "xmlns", "display", "mathvariant", "stretchy", "fence", "separator", "lspace", "rspace",
    "accent", "accentunder", "width", "height", "depth", "displaystyle", "scriptlevel",
    "minsize", "maxsize", "linethickness", "columnalign", "rowspacing", "columnspacing",
    "notation", "movablelimits", "largeop", "symmetric", "form",
}
_SUPERSCRIPTS = str.maketrans("0123456789+-\u2212=()in", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁱⁿ")  # MathML writes minus as U+2212
_SUBSCRIPTS = str.maketrans("0123456789+-\u2212=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
_OVER_ACCENTS = {"\u00af": "\u0305", "\u203e": "\u0305", "^": "\u0302", "~": "\u0303", "\u02d9": "\u0307", "\u2192": "\u20d7", "\u00a8": "\u0308"}
_MAY_HOLD_LATEX = re.compile(r"[\\${}]")
_BRACED = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"  # balanced, three levels deep
# The pieces of a text that may be LaTeX; only these go through the (slow) LaTeX parser.
_LATEX_SPAN = re.compile(
    r"(?<!\\)\$\$(?:\\.|[^$\\])+?\$\$"  # display math
    r"|(?<!\\)\$(?:\\.|[^$\\])+?\$"  # inline math
    r"|\\\((?:\\[^)]|[^\\])+?\\\)"  # inline math \( ... \)
    rf"|\\[A-Za-z]+\*?(?:\s*{_BRACED})*"  # a named macro and its arguments
    rf"|\\[\"'`^~=.](?:{_BRACED}|[A-Za-z])"  # an accent and its letter: \"u (also in M\"uller), \'{e}
    rf"|\\[^A-Za-z\s]"  # an escaped symbol: \%, \&, \$
    rf"|{_BRACED}"  # a group such as {\"u} or {GPU}
)
_SPAN_START = re.compile(r"[\\${]")  # the first character of every _LATEX_SPAN alternative
# a %, & or # with no backslash before it; the pattern starts with the character and looks
# behind from there (2-3x as fast as a look-behind first, which is tried at every character)
_BARE_SPECIALS = re.compile(r"([%&#])(?<!\\[%&#])")
_DECLARATIONS = {"it": "em", "itshape": "em", "sl": "em", "em": "em", "bf": "strong", "bfseries": "strong", "tt": "code"}
_SPACE = re.compile(r"\s+")
_TEXT = LatexNodes2Text(math_mode="verbatim")


@dataclass
class Converted:
    html: str
    plain: str
    unconverted: list[str] = field(default_factory=list)  # LaTeX shown as source


def convert_inline(text: str) -> Converted:
    """Convert LaTeX-bearing text (a title, a name) to HTML and plain text."""
    if not _MAY_HOLD_LATEX.search(text):
        return Converted(html.escape(text, quote=False), text)
    pieces = split_latex(text)
    return Converted(
        "".join(html.escape(p, quote=False) if isinstance(p, str) else p.html for p in pieces),
        "".join(p if isinstance(p, str) else p.plain for p in pieces),
        [tex for p in pieces if not isinstance(p, str) for tex in p.unconverted],
    )


def latex_spans(text: str):
    """`_LATEX_SPAN.finditer(text)`, tried only where a span can start: 5x faster on prose."""
    start = 0
    while candidate := _SPAN_START.search(text, start):
        match = _LATEX_SPAN.match(text, candidate.start())
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


def has_latex(text: str) -> bool:
    return bool(_MAY_HOLD_LATEX.search(text))


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
    if span.startswith("$$"):
        return _math(span[2:-2], span)
    if span.startswith("$"):
        return _math(span[1:-1], span)
    if span.startswith("\\("):
        return _math(span[2:-2], span)
    return _Converter().run(span)


def _math(tex: str, source: str) -> Converted:
    """Inline math as MathML; on failure the source in <code>, reported."""
    try:
        mathml = math_to_mathml(tex)
    except ValueError:
        mathml = ""
    plain = mathml_to_plain(mathml) if mathml else ""
    if not mathml or "\\" in plain:  # latex2mathml passes unknown commands through as text
        return Converted(f"<code>{html.escape(source, quote=False)}</code>", source, [source])
    return Converted(mathml, plain)


def math_to_mathml(tex: str) -> str:
    """One formula as sanitised MathML; raises ValueError when it cannot be converted."""
    import latex2mathml.converter  # here: its import takes 50 ms, and most edits convert no math

    try:
        mathml = latex2mathml.converter.convert(tex)
    except Exception as error:  # latex2mathml raises many kinds on bad input
        raise ValueError(str(error) or type(error).__name__) from error
    return nh3.clean(mathml, tags=MATHML_TAGS, attributes={"*": MATHML_ATTRIBUTES}, strip_comments=True)


def mathml_to_plain(mathml: str) -> str:
    """A readable Unicode rendering of MathML, for places that cannot show markup."""
    try:
        root = ET.fromstring(mathml)
    except ET.ParseError:
        return ""
    return _plain(root).strip()


def _plain(element: ET.Element) -> str:
    tag = element.tag.rsplit("}", 1)[-1]
    children = list(element)
    if tag in ("mi", "mn", "mo", "mtext", "ms"):
        return unicodedata.normalize("NFKC", element.text or "") if tag == "mi" else (element.text or "")
    parts = [_plain(child) for child in children]
    if tag == "msup" and len(parts) == 2:
        return parts[0] + _script(parts[1], _SUPERSCRIPTS, "^")
    if tag == "msub" and len(parts) == 2:
        return parts[0] + _script(parts[1], _SUBSCRIPTS, "_")
    if tag == "msubsup" and len(parts) == 3:
        return parts[0] + _script(parts[1], _SUBSCRIPTS, "_") + _script(parts[2], _SUPERSCRIPTS, "^")
    if tag == "mover" and len(parts) == 2 and parts[1] in _OVER_ACCENTS:
        return "".join(ch + _OVER_ACCENTS[parts[1]] for ch in parts[0])
    if tag == "mfrac" and len(parts) == 2:
        return f"{_group(parts[0])}/{_group(parts[1])}"
    if tag == "msqrt":
        return f"√{_group(''.join(parts))}"
    if tag == "mspace":
        return " "
    # a function name (`\log`, `\max`) is a word: keep it apart from its neighbours
    words = [f" {part} " if child.tag.endswith("mi") and len(part) > 1 and part.isalpha() else part for child, part in zip(children, parts)]
    return re.sub(r" {2,}", " ", "".join(words))


def _script(text: str, table: dict, marker: str) -> str:
    if text and all(ord(ch) in table for ch in text):  # every character has a raised/lowered form
        return text.translate(table)
    return f"{marker}{_group(text)}"


def _group(text: str) -> str:
    return text if len(text) <= 1 or text.isalnum() else f"({text})"


class _Converter:
    def __init__(self) -> None:
        self.unconverted: list[str] = []

    def parse(self, text: str):
        # In titles and abstracts a bare %, & or # is that character, not LaTeX syntax.
        text = escape_bare_specials(text)
        return LatexWalker(text, tolerant_parsing=True).get_latex_nodes()[0]

    def run(self, text: str) -> Converted:
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
        return name in FORMAT_TAGS or name in PLAIN_MACROS or name in UNICODE_MACROS or name in DROPPED_MACROS

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
        converted = _math("".join(n.latex_verbatim() for n in node.nodelist), node.latex_verbatim())
        self.unconverted.extend(converted.unconverted)
        return converted.html, converted.plain

    def macro(self, node: LatexMacroNode) -> tuple[str, str]:
        name = node.macroname
        args = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
        if name in FORMAT_TAGS or name in PLAIN_MACROS:
            inner_html, inner_plain = self.joined([a for a in args]) if args else ("", "")
            if name in PLAIN_MACROS:
                return inner_html, inner_plain
            tag = FORMAT_TAGS[name]
            return f"<{tag}>{inner_html}</{tag}>", inner_plain
        if name in ("LaTeX", "TeX"):  # pylatexenc's text converter drops the logos
            return name, name
        if name in UNICODE_MACROS:
            text = unicodedata.normalize("NFC", _TEXT.nodelist_to_text([node]))
            return html.escape(text, quote=False), text
        if name in DROPPED_MACROS:
            return " ", " "
        return self.source(node)

    def source(self, *nodes) -> tuple[str, str]:
        tex = "".join(node.latex_verbatim() for node in nodes)
        self.unconverted.append(tex)
        return f"<code>{html.escape(tex, quote=False)}</code>", tex


def collapse_space(text: str) -> str:
    return _SPACE.sub(" ", text).strip()
