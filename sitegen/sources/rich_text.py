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
    return _inner(root)


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


def _inner(element) -> str:
    return (element.text or "") + "".join(_outer(child) + (child.tail or "") for child in element)


def _outer(element) -> str:
    """An element as the pipeline's text: a macro around its content, or the tags as written around it."""
    macro = _macro(element)
    if macro is not None:
        return f"\\{macro}{{{_inner(element)}}}" if macro else _inner(element)
    if isinstance(element.tag, str):
        attributes = "".join(f' {key}="{value}"' for key, value in element.attrib.items())
        end = "" if element.tag in _void_elements() else f"</{element.tag}>"
        return f"<{element.tag}{attributes}>{_inner(element)}{end}"
    from lxml import etree

    return etree.tostring(element, encoding="unicode", with_tail=False)  # a comment, as written
