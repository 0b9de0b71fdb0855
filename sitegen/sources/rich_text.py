"""The rich text of reference managers' exports, as the pipeline's LaTeX text macros.

Zotero, Mendeley and Crossref write a small HTML subset inside titles: CSL's "rich text" as citeproc-js reads
it (`<i>E. coli</i>`, `<b>`, `<sup>2</sup>`, `<sub>`, `<span style="font-variant:small-caps;">`, and
`<span class="nocase">`, "keep this text's case"), and Crossref's JATS tags (`<i>`, `<sup>`, `<jats:italic>`,
`<scp>`). The CSL-JSON and RIS readers turn that subset into what the BibTeX reader makes of `\\textit{}`,
`\\textsuperscript{}` and `\\textsc{}` (`sitegen.latex.FORMAT_TAGS`), so that the pages show italics and
superscripts and the exports write BibTeX's macros, one way for every source. A nocase span is its text:
the record keeps every title's case as written, as the BibTeX reader's titles without their protective braces.

Every other tag, and a tag of the subset with any other attribute (`<i onclick=...>`, `<a href=...>`,
`<script>`), is kept as the text it was written as, which the pipeline escapes like any other text. The
text is parsed by lxml's HTML parser (declared for `sitegen fetch`), not taken apart with patterns.
"""

from __future__ import annotations

import functools
import re

# an element of the subset (a JATS one without its `jats:` prefix) -> the text macro it becomes
ELEMENT_MACROS = {
    **dict.fromkeys(("i", "em", "italic"), "textit"),
    **dict.fromkeys(("b", "strong", "bold"), "textbf"),
    "sup": "textsuperscript",
    "sub": "textsubscript",
    **dict.fromkeys(("sc", "scp"), "textsc"),
}
# a span of CSL's rich text, by its one attribute -> its macro ("": its text alone)
SPAN_MACROS = {("class", "nocase"): "", ("style", "font-variant:small-caps"): "textsc"}
# elements nested deeper than this (no title nests more than a few) are text as written: see `_inner`
DEEPEST = 64
# the macros made here, as a record id made from a title's words leaves them out (`sitegen.sources.ris.made_id`)
RICH_TEXT_MACRO = re.compile(rf"\\(?:{'|'.join(sorted(set(ELEMENT_MACROS.values())))})(?![A-Za-z])")


@functools.cache
def _void_elements() -> frozenset[str]:
    import lxml.html.defs

    return frozenset(lxml.html.defs.empty_tags)


def rich_text_latex(text: str) -> str:
    """`text` with its rich-text elements as LaTeX text macros; text with none of them is returned as written."""
    if "<" not in text:
        return text
    import lxml.html  # only for a text with a tag: a build whose titles have none does not load lxml
    from lxml import etree

    try:
        root = lxml.html.fragment_fromstring(text, create_parent="span")
    except (etree.ParserError, ValueError):  # nothing an HTML parser can read (a NUL character): as written
        return text
    if not any(_macro(element) is not None for element in root.iterdescendants()):
        return text
    return _inner(root) or text


def _macro(element) -> str | None:
    """The macro of an element of the subset ("": its text alone); None for any other element."""
    if not isinstance(element.tag, str):  # a comment or a processing instruction
        return None
    name = element.tag.lower().removeprefix("jats:")
    attributes = list(element.attrib.items())
    if name == "span" and len(attributes) == 1:
        key, value = attributes[0]
        return SPAN_MACROS.get((key.lower(), "".join(value.split()).rstrip(";").lower()))
    return None if attributes else ELEMENT_MACROS.get(name)


def _inner(root) -> str | None:
    """The content of `root` as the pipeline's text: each element of the subset as its macro, any other as the tags
    it was written with; None for elements nested deeper than `DEEPEST`, whose text is read as written (libxml2's
    parser keeps 255 levels and drops what is deeper without a word). Walked with a stack of its own, not by
    recursion: a title of hundreds of nested `<i>` (a pull request's) would be deeper than Python's own stack."""
    parts = [root.text or ""]
    stack = [(iter(root), "")]  # (the children still to read, what closes their parent and follows it)
    while stack:
        if len(stack) > DEEPEST:
            return None
        children, closing = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            parts.append(closing)
            continue
        if not isinstance(child.tag, str):  # a comment or a processing instruction, as written
            from lxml import etree

            parts.append(etree.tostring(child, encoding="unicode", with_tail=False) + (child.tail or ""))
            continue
        opening, end = _tags(child)
        parts.append(opening + (child.text or ""))
        stack.append((iter(child), end + (child.tail or "")))
    return "".join(parts)


def _tags(element) -> tuple[str, str]:
    """What stands before and after an element's content: a macro's start and its brace, nothing for a nocase span,
    or the tags as written."""
    macro = _macro(element)
    if macro is not None:
        return (f"\\{macro}{{", "}") if macro else ("", "")
    attributes = "".join(f' {key}="{value}"' for key, value in element.attrib.items())
    end = "" if element.tag in _void_elements() else f"</{element.tag}>"
    return f"<{element.tag}{attributes}>", end
