"""Markdown with inline LaTeX, rendered to sanitised HTML.

LaTeX is converted first and set aside behind placeholders, so that Markdown
never sees (and mangles) `$a_1 * b_2$`; the Markdown output is sanitised before
the converted fragments go back in.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import nh3

from sitegen.latex import HREF, Converted, convert_inline, convert_span, has_latex, latex_spans
from sitegen.urls import is_relative_path, mistyped_web_address, windows_path

if TYPE_CHECKING:
    import markdown

ALLOWED_TAGS = {
    "p",
    "br",
    "em",
    "strong",
    "code",
    "pre",
    "a",
    "ul",
    "ol",
    "li",
    "blockquote",
    "sub",
    "sup",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}}  # a numbered list that starts at 3 (Markdown's lazy_ol off)
# The site's own texts (pages, posts, news) also have pictures, headings of every level (`headings_under`),
# tables with their columns' alignment, footnotes (their ids made unique: `_unique_footnotes`) and code
# blocks highlighted by Pygments (spans with its token classes: `k` keyword, `s2` string, ...).
OWN_TEXT_TAGS = {"img", "h1", "h2", "div", "span"}
OWN_TEXT_ATTRIBUTES = {
    **{f"h{level}": {"id"} for level in range(1, 7)},  # `## Methods {#methods}` (kramdown's and Hugo's): checked by own_files_only
    "img": {"src", "alt", "title"},
    "th": {"align"},
    "td": {"align"},
    "div": {"class"},  # OWN_TEXT_BLOCKS only
    "span": {"class"},  # a Pygments token class only
    "sup": {"id"},
    "li": {"id"},
}
OWN_TEXT_BLOCKS = {"footnote", "highlight"}
_TOKEN_CLASS = re.compile(r"[a-z]{1,3}[0-9]?")
URL_SCHEMES = {"http", "https", "mailto"}
_PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
# Text in which Markdown can find nothing to do but paragraphs and emphasis: no other
# inline syntax characters, no line that could start a block, no spacing it would rewrite.
_MARKDOWN_CHARACTERS = re.compile(r"[_`\[\]!<>&\\#\t\r\x00-\x08\x0b-\x1f\x7f]")
# `*a few words*` and `**a few words**`: no asterisk or letter beside, no space just inside,
# on one line. It starts with the star and looks behind from there (20x faster than a
# look-behind first, which the regex engine tries at every character).
_EMPHASIS = re.compile(r"(\*(?<![\w*]\*)\*?)([^\s*](?:[^*\n]*[^\s*])?)\1(?![\w*])")
_EMPHASIS_TAGS = {"*": "em", "**": "strong"}
_BLOCK_STARTS = {" ", "-", "+", "="}  # indented code, lists, setext headings
_NUMBERED = re.compile(r"\d+[.)]")
_TAG = re.compile(r'<(?:[^>"]|"[^"]*")*>')  # a tag of HTML made here (see _text_of)
_PLACEHOLDER_IN_TAG = re.compile("<[^>]*\ue000")


@functools.cache
def _shared_markdown(pictures: bool = False) -> markdown.Markdown:
    """Made when first needed: a build that converts no Markdown does not import it."""
    return _markdown_without_raw_html(pictures)


def _markdown_without_raw_html(pictures: bool = False) -> markdown.Markdown:
    """Raw HTML in a record is shown as text: it comes from people and from arXiv."""
    import markdown

    from sitegen import commonmark

    md = markdown.Markdown(
        extensions=["sane_lists", "fenced_code", "codehilite", "tables", "footnotes", "attr_list"] if pictures else ["sane_lists"],
        extension_configs={
            "codehilite": {"guess_lang": False, "css_class": "highlight"},
            "tables": {"use_align_attribute": True},
            "footnotes": {"SEPARATOR": "-"},
        },
        output_format="html",
        lazy_ol=False,  # '3. third' starts its list at 3, as CommonMark does
    )
    if pictures:  # fenced blocks are highlighted in their language; an indented block, which may hold LaTeX set aside, is not
        md.treeprocessors.deregister("hilite")
    commonmark.register(md)  # lists right after a paragraph and nested by two spaces; a heading needs a space after '#'
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    # No images but in the site's own text (`pictures`: pages, posts and news, which also get
    # highlighted fenced code blocks, tables and footnotes; the sanitiser keeps only pictures of
    # the site's own files, so a page makes no third-party requests), no e-mail autolinks, entities
    # shown as typed: less to try on every piece of text, a quarter less time in Markdown.
    for pattern in ("automail", "entity") if pictures else ("image_link", "image_reference", "short_image_ref", "automail", "entity"):
        md.inlinePatterns.deregister(pattern)
    _skip_hopeless_searches(md)
    return md


# Characters without which a Python-Markdown pattern cannot match: a backtick span
# needs a backtick, a link a bracket. Its regular expression is only run on text that
# holds one, which halves the time Markdown takes on prose.
# tests/unit/test_markup.py checks that output is the same as without these guards.
INLINE_NEEDS: dict[str, tuple[str, ...]] = {
    "backtick": ("`",),
    "escape": ("\\",),
    "reference": ("[",),
    "link": ("[",),
    "short_reference": ("[",),
    "autolink": ("<",),
    "linebreak": ("  \n",),
}
BLOCK_NEEDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "quote": ("RE", (">",)),
    "hashheader": ("RE", ("#",)),
    "setextheader": ("RE", ("\n=", "\n-")),
    "reference": ("RE", ("]:",)),
}


class _GuardedRegex:
    """A compiled regex that is not run on text lacking every one of `needs`."""

    def __init__(self, regex: re.Pattern, needs: tuple[str, ...]):
        self.regex = regex
        self.needs = needs
        self.pattern = regex.pattern

    def _hopeless(self, text: str) -> bool:
        return not any(need in text for need in self.needs)

    def search(self, text: str, *args):
        return None if self._hopeless(text) else self.regex.search(text, *args)

    def match(self, text: str, *args):
        return None if self._hopeless(text) else self.regex.match(text, *args)

    def finditer(self, text: str, *args):
        return iter(()) if self._hopeless(text) else self.regex.finditer(text, *args)


def _skip_hopeless_searches(md: markdown.Markdown) -> None:
    for name, needs in INLINE_NEEDS.items():
        if name in md.inlinePatterns:
            pattern = md.inlinePatterns[name]
            pattern.compiled_re = _GuardedRegex(pattern.compiled_re, needs)
    for name, (attribute, needs) in BLOCK_NEEDS.items():
        if name in md.parser.blockprocessors:
            processor = md.parser.blockprocessors[name]
            setattr(processor, attribute, _GuardedRegex(getattr(processor, attribute), needs))


def sanitise(fragment: str, pictures: list[str] | None = None, unsafe: list[str] | None = None) -> str:
    """HTML with only the tags and attributes a text may hold. `pictures`: it may show pictures of the site's own
    files (`static/figure.png`); a picture from anywhere else is left out, its address added to the list.
    `unsafe`: each link's address the sanitiser drops (`javascript:`, `data:`, an address that is no URL) is
    added to it (`link_left_out` says so). Both in the order of the text."""
    if (unsafe is not None or pictures is not None) and ("href=" in fragment or "src=" in fragment):
        _left_out(fragment, pictures, unsafe)

    def own_files_only(tag: str, attribute: str, value: str) -> str | None:
        if tag == "img" and attribute == "src" and not is_relative_path(value):
            return None  # named in `pictures` by _left_out (one with an unsafe address never reaches this filter)
        if (tag == "div" and value not in OWN_TEXT_BLOCKS) or (tag == "span" and not _TOKEN_CLASS.fullmatch(value)):
            return None
        if attribute == "id" and tag[:1] == "h" and (not _HEADING_ID.fullmatch(value) or _THEME_IDS.fullmatch(value)):
            return None  # a heading's own id: a plain name, never one of the theme's
        return value

    cleaned = nh3.clean(
        fragment,
        tags=ALLOWED_TAGS if pictures is None else ALLOWED_TAGS | OWN_TEXT_TAGS,
        attributes=ALLOWED_ATTRIBUTES if pictures is None else {**ALLOWED_ATTRIBUTES, **OWN_TEXT_ATTRIBUTES},
        attribute_filter=None if pictures is None else own_files_only,
        url_schemes=URL_SCHEMES,
        link_rel=None,  # set below, on links to other sites only
        strip_comments=True,
    )
    if "<a " in cleaned:
        cleaned = _LINK_ELSEWHERE.sub(_OWN_TEXT_REL if pictures is not None else _UNTRUSTED_REL, cleaned)
    if pictures is None or "<img" not in cleaned:
        return cleaned
    if "<a " in cleaned:
        cleaned = _LINK_WITH_PICTURE_WITHOUT_FILE.sub(_named_link, cleaned)
    return _PICTURE_WITHOUT_FILE.sub("", cleaned)


def _left_out(fragment: str, pictures: list[str] | None, unsafe: list[str] | None) -> None:
    """What `sanitise` leaves out of HTML made here (every attribute in double quotes): pictures of no file of
    the site (`pictures`), links whose address it drops (`unsafe`)."""
    for tag in LINKING_TAG.findall(fragment):
        for attribute, target in LINK.findall(tag):
            address = html.unescape(target)
            if attribute == "src":
                if pictures is not None and not is_relative_path(address):
                    pictures.append(address)
            elif unsafe is not None and not kept_by_sanitiser(address):
                unsafe.append(address)


@functools.lru_cache(maxsize=4096)
def kept_by_sanitiser(url: str) -> bool:
    """Does `sanitise` keep a link to `url`? Asked of the sanitiser itself (nh3 drops an address silently, and
    judges it as a browser parses it: `JaVa\tScript:` is `javascript:`), so the warning and the page agree."""
    if ":" not in url:
        return True  # a path, a part of the page or a query: no scheme to judge
    probe = nh3.clean(f'<a href="{html.escape(url)}">', tags={"a"}, attributes={"a": {"href"}}, url_schemes=URL_SCHEMES, link_rel=None)
    return "href=" in probe


def link_left_out(url: str) -> str:
    """What a warning says of a link `sanitise` left out of a text (`unsafe`): its text stays, as text."""
    scheme = _SCHEME.match(url.strip(" \t\n\r\f\v\x00"))
    shown = url if len(url) <= 80 else url[:77] + "..."
    if meant := mistyped_web_address(url):
        return f"link {shown!r}: no web address, the link is left out (its text stays): write '{meant}'"
    if (windows := windows_path(url)) and windows[0] is None:  # 'C:\\Users\\me\\paper.pdf'
        return f"link '{shown}': {windows[1]}; the link is left out (its text stays)"
    why = f"unsafe URL scheme '{scheme[1].lower()}:'" if scheme and scheme[1].lower() not in URL_SCHEMES else "not a valid address"
    return f"link {shown!r}: {why}, the link is left out (its text stays)"


_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")


# A link to another site (the sanitiser writes every attribute in double quotes). It gets rel="noopener"; in text
# that comes from elsewhere (an abstract from arXiv) also "nofollow", so that a spammer's link earns nothing from
# the site. A link to the site's own pages gets neither: search engines are to follow it.
_LINK_ELSEWHERE = re.compile(r'<a (href="(?:[Hh][Tt][Tt][Pp][Ss]?:)?//[^"]*"(?:[^>"]|"[^"]*")*)>')
_OWN_TEXT_REL = r'<a \1 rel="noopener">'
_UNTRUSTED_REL = r'<a \1 rel="noopener nofollow">'


def picture_left_out(url: str) -> str:
    """What a warning says of a picture `sanitise` left out of the site's own text (`pictures`). A path from the
    domain's root (`/static/badge.svg`, as a site at a domain's root writes it) names the path to write instead;
    a link around the picture shows the picture's text in its place."""
    if (windows := windows_path(url)) and windows[0] is None:  # 'C:\\Users\\me\\photo.jpg'
        return f"picture '{url}' left out: {windows[1]}"
    if url.startswith("/") and not url.startswith("//"):
        path = url.lstrip("/")
        path = path[path.index("static/") :] if "static/" in path else path
        return f"picture '{url}' left out: a picture's path is taken from the site's root, without a leading '/': write ![what it shows]({path})"
    return f"picture '{url}' left out (a link around it shows the picture's text): the site shows pictures of its own files only; put it in static/ and write ![what it shows](static/NAME)"


_PICTURE_WITHOUT_FILE = re.compile(r'<p><img(?![^>]*\ssrc=")[^>]*></p>\n?|<img(?![^>]*\ssrc=")[^>]*>')  # its paragraph too, when alone in it
_LINK_WITH_PICTURE_WITHOUT_FILE = re.compile(r'(<a [^>]*>)((?:(?!</a>).)*?<img(?![^>]*\ssrc=")(?:(?!</a>).)*)(</a>)', re.DOTALL)
_ALT = re.compile(r'\salt="([^"]*)"')
_HREF = re.compile(r'\shref="([^"]*)"')


def _named_link(link: re.Match) -> str:
    """A link whose picture `sanitise` left out (a README's badge, `[![DOI](https://zenodo.org/badge/...)](...)`):
    each such picture is its text (`alt`), and a link left with no text at all shows its address, so that no link
    is empty: seen by no one, and named by nothing to a screen reader."""

    def alt_text(picture: re.Match) -> str:
        alt = _ALT.search(picture[0])
        return html.escape(html.unescape(alt[1]), quote=False) if alt else ""  # the serialiser leaves < and > in attributes

    inside = _PICTURE_WITHOUT_FILE.sub(alt_text, link[2])
    if not _TAG.sub("", inside).strip():
        href = _HREF.search(link[1])
        inside += html.escape(html.unescape(href[1]), quote=False) if href else ""
    return link[1] + inside + link[3]


def render_markdown(text: str, pictures: list[str] | None = None, unsafe: list[str] | None = None) -> Converted:
    """Markdown with LaTeX -> (sanitised HTML, plain text, LaTeX left as source).

    `pictures`: the text may show pictures of the site's own files (`![A chart](static/chart.png)`);
    the address of each picture from elsewhere, left out, is added to the list. `unsafe`: the address of
    each link or picture left out as unsafe (`[x](javascript:...)`) is added to that one (see `sanitise`)."""
    if not text.strip():
        return Converted("", "")
    fragments: list[Converted] = []
    spans: list[str] = []  # the LaTeX of each fragment, as written
    if "\ue000" in text or "\ue001" in text:  # a placeholder's own characters, typed (private use): set aside too
        text = _PLACEHOLDER_CHARACTER.sub(lambda m: _set_aside(m[0], Converted(m[0], m[0]), fragments, spans), text)
    source = text
    if has_latex(text):
        pieces, position = [], 0
        for match in _latex_outside_code(text, fenced=pictures is not None):
            if pictures is not None and match.group()[:1] == "{" and "\\" not in match.group() and "$" not in match.group():
                continue  # braces in the site's own prose are text ('the set {a, b}'), as MathJax leaves them outside math
            link = HREF.fullmatch(match.group()) if match.group().startswith("\\href") else None
            piece = _markdown_link(link, fragments, spans) if link else None
            pieces += [text[position : match.start()], piece or _set_aside(match.group(), convert_span(match.group()), fragments, spans)]
            position = match.end()
        source = "".join(pieces) + text[position:]
    listed = (len(pictures or ()), len(unsafe or ()))
    body = _plain_paragraphs(source, pictures is not None) or sanitise(_shared_markdown(pictures is not None).reset().convert(source), pictures, unsafe)
    if fragments:
        _as_written_in(pictures, listed[0], spans)
        _as_written_in(unsafe, listed[1], spans)
    if pictures is not None and 'class="footnote"' in body:
        body = _unique_footnotes(body, text)
    if pictures is not None and " align=" in body:  # a table column's alignment: a class (HTML has no align any more)
        body = _ALIGNED_CELL.sub(r'<\1 class="align-\2">', body)
    if pictures is not None and "<table>" in body:
        body = _scrolling_tables(body, text)
    if pictures is not None and "<img " in body:
        body = _lazy_pictures(body)
    if fragments and _PLACEHOLDER_IN_TAG.search(body):  # '$' in a link's address or title, or in a picture's text
        body = _TAG.sub(lambda tag: _PLACEHOLDER.sub(_as_written(spans, quote=True), tag[0]), body)
    if fragments and "<code>" in body:  # an indented code block: shown as written
        body = _CODE.sub(lambda code: _PLACEHOLDER.sub(_as_written(spans, quote=False), code[0]), body)
    body_html = _PLACEHOLDER.sub(lambda m: fragments[int(m[1])].html, body)
    text_only = _text_of(body) if "\u21a9" not in body else _text_of(_FOOTNOTE_BACKLINK.sub("", body))
    plain = _PLACEHOLDER.sub(lambda m: fragments[int(m[1])].plain, text_only)
    converted = (fragments[int(index)] for index in _PLACEHOLDER.findall(body)) if fragments else ()  # not those put back as written
    unconverted = [tex for fragment in converted for tex in fragment.unconverted]
    return Converted(body_html, " ".join(plain.split()), unconverted)


def _as_written_in(addresses: list[str] | None, first: int, spans: list[str]) -> None:
    """The addresses `sanitise` added to `addresses` from index `first` on, as the text wrote them: the LaTeX set
    aside in them put back (`C:\\Users\\me` holds the commands `\\Users` and `\\me`), for the warning to name
    what the writer wrote, and to find its line by."""
    if addresses is not None and len(addresses) > first:
        addresses[first:] = [_PLACEHOLDER.sub(lambda match: spans[int(match[1])], address) for address in addresses[first:]]


def _lazy_pictures(body: str) -> str:
    """Every picture of a text decoded off the page's main thread; each but the first loaded when the reader comes
    near it (the first may be what the page shows first, which a lazy picture would show later)."""
    first = body.index("<img ")
    return body[:first] + '<img decoding="async" ' + body[first + 5 :].replace("<img ", '<img loading="lazy" decoding="async" ')


_PLACEHOLDER_CHARACTER = re.compile("[\ue000\ue001]")
_ADDRESS_ESCAPE = re.compile(r"\\([#%&_~$])")  # what LaTeX writes escaped in an address: `\#`, `\%`, `\_`
_NO_ADDRESS = re.compile(r"[\s<>\\]")  # what an address in Markdown's <...> cannot hold, and a macro left in it


def _markdown_link(link: re.Match, fragments: list[Converted], spans: list[str]) -> str | None:
    """hyperref's `\\href{address}{text}` as a Markdown link, which the sanitiser judges as any other (a `javascript:`
    address is left out, its text stays, with a warning); its text converted as LaTeX. None for an address that is
    none (a space, a macro in it): the converter shows the text alone."""
    address = _ADDRESS_ESCAPE.sub(r"\1", link[1].strip())
    if not address or _NO_ADDRESS.search(address):
        return None
    words = link[2][1:-1]
    return f"[{_set_aside(words, convert_inline(words), fragments, spans)}](<{address}>)"


def _set_aside(written: str, converted: Converted, fragments: list[Converted], spans: list[str]) -> str:
    """The placeholder of a piece of text kept out of Markdown's way, `converted` going back in after it."""
    fragments.append(converted)
    spans.append(written)
    return f"\ue000{len(fragments) - 1}\ue001"


def _as_written(spans: list[str], quote: bool) -> Callable[[re.Match], str]:
    """A placeholder's text as written, escaped for HTML; a placeholder character typed stays a placeholder,
    which the last pass makes the character again (written now, it would read as a placeholder then)."""

    def written(match: re.Match) -> str:
        span = spans[int(match[1])]
        return match[0] if _PLACEHOLDER_CHARACTER.fullmatch(span) else html.escape(span, quote=quote)

    return written


_CODE = re.compile(r"<code>.*?</code>", re.DOTALL)  # code in HTML made here
_PARAGRAPH = re.compile(r"(?:(?!\n[ \t]*\n).)+", re.DOTALL)  # text between blank lines
_UNESCAPED_BACKTICK = re.compile(r"(?<!\\)(?:\\\\)*`")  # a backtick after no backslash or after escaped ones


def _latex_outside_code(text: str, fenced: bool) -> Iterator[re.Match]:
    """The LaTeX spans of Markdown text that are not in code: code is shown as written, as MathJax leaves it.

    Code spans and (`fenced`: the site's own texts) fenced blocks, found as Python-Markdown finds them, are
    left out before the LaTeX is set aside, since a span that began in code could end outside it
    (`echo $HOME` and $x$); what Markdown makes a code block by indenting it is put back as written after
    Markdown (`_CODE`)."""
    if "`" not in text and not (fenced and "~~~" in text):
        yield from latex_spans(text)
        return
    position = 0
    for start, end in _code_in(text, fenced):
        yield from latex_spans(text, position, start)
        position = end
    yield from latex_spans(text, position, len(text))


def _code_in(text: str, fenced: bool) -> Iterator[tuple[int, int]]:
    """(start, end) of each fenced code block (`fenced`) and code span, in order."""
    from markdown.extensions.fenced_code import FencedBlockPreprocessor

    position = 0
    blocks = FencedBlockPreprocessor.FENCED_BLOCK_RE.finditer(text) if fenced else ()
    for block in blocks:
        yield from _code_spans(text, position, block.start())
        yield block.span()
        position = block.end()
    yield from _code_spans(text, position, len(text))


def _code_spans(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """The code spans between `start` and `end`, paragraph by paragraph, paired as Python-Markdown pairs backticks."""
    from markdown.inlinepatterns import BACKTICK_RE, BacktickInlineProcessor

    pair = BacktickInlineProcessor(BACKTICK_RE).find_code_spans
    for paragraph in _PARAGRAPH.finditer(text[start:end]):
        block, offset, position = paragraph[0], start + paragraph.start(), 0
        while tick := _UNESCAPED_BACKTICK.search(block, position):
            begin = tick.end() - 1
            inside, closing = pair(begin, block)
            if closing is None:
                position = inside
                continue
            position = closing + (inside - begin)
            yield offset + begin, offset + position


_ALIGNED_CELL = re.compile(r'<(th|td) align="(left|right|center)">')
_FOOTNOTE_BACKLINK = re.compile(r'<a href="#fnref[^"]*"[^>]*>\u21a9</a>')  # the way back from a footnote: no words
_FOOTNOTE_ID = re.compile(r'(id="|href="#)(fn|fnref\d*)-([^"]*)"')  # Python-Markdown's footnotes, SEPARATOR "-"


def _unique_footnotes(body: str, text: str) -> str:
    """Footnotes with ids no other text on the page has (two news items on one page, each with its note 1)
    and no space in them (`[^my note]`): `fn-<the text's hash>-<the note's number>`."""
    numbers: dict[str, int] = {}
    prefix = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()

    def unique(match: re.Match) -> str:
        number = numbers.setdefault(match[3], len(numbers) + 1)
        return f'{match[1]}{match[2]}-{prefix}-{number}"'

    return _FOOTNOTE_ID.sub(unique, body)


def _scrolling_tables(body: str, text: str) -> str:
    """Each table in a box that scrolls sideways when the table is wider than the page (style.css), so that
    its cells keep their words and numbers whole and the page itself never scrolls sideways. The box is in
    the keyboard's tab order (a region that scrolls needs a keyboard's way in) and is named by the table's
    header row, whose id is unique on every page that shows the text: `tbl-<the text's hash>-<its number>`.
    A cell of one word (no space: 0.934, 3e-4, ProteinNet-12) is marked `nowrap`: browsers would break it
    after a hyphen; a cell with spaces breaks between its words only."""
    prefix = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()
    numbers = iter(range(1, body.count("<table>") + 1))

    def wrapped(match: re.Match) -> str:
        name = f"tbl-{prefix}-{next(numbers)}"
        rows = _CELL.sub(_one_word_unbroken, match[1])
        return f'<div class="table-scroll" role="region" tabindex="0" aria-labelledby="{name}">\n<table>\n<thead id="{name}">{rows}</table>\n</div>'

    return _TABLE.sub(wrapped, body)


def _one_word_unbroken(cell: re.Match) -> str:
    words = html.unescape(_TAG.sub("", cell[3])).split()
    if len(words) != 1:
        return cell[0]
    classes = f"{cell[2]} nowrap" if cell[2] else "nowrap"
    return f'<{cell[1]} class="{classes}">{cell[3]}</{cell[1]}>'


_TABLE = re.compile(r"<table>\n<thead>(.*?)</table>", re.DOTALL)  # a Markdown table, as the sanitiser writes it
_CELL = re.compile(r'<(t[dh])(?: class="([^"]*)")?>(.*?)</\1>', re.DOTALL)  # a cell of such a table, its alignment's class at most
_HEADING_TAG = re.compile(r"<(/?)h([1-6])( id=\"[^\"]*\")?>")  # in HTML made here: an id at most (`## Title {#id}`)


def headings_under(html_text: str, top: int) -> str:
    """HTML made here with its headings moved so that the highest is `top` (2: the sections under a page's title),
    the levels below it following: a text whose sections are `##` or `#` reads the same, and no level is
    skipped that the text did not skip."""
    highest = min((int(level) for _, level, _ in _HEADING_TAG.findall(html_text)), default=top)
    if highest == top:
        return html_text
    return _HEADING_TAG.sub(lambda m: f"<{m[1]}h{min(6, int(m[2]) + top - highest)}{m[3] or ''}>", html_text)


_HEADING = re.compile(r"<h([1-6])( id=\"[^\"]*\")?>(.*?)</h\1>", re.S)  # in HTML made here: an id at most, its own
_HEADING_ID = re.compile(r"[A-Za-z][\w\-.:]{0,80}")  # an id written for a heading: `{#methods}`
_NOT_IN_AN_ID = re.compile(r"[^\w\- ]+")
# ids the default theme gives elements of a page or post: a heading's id is never one of them
_THEME_IDS = re.compile(r"main|page-title|contents-title|comments-title|(?:publications|r|fn|fnref|icon|year|tbl)-.*")


def with_heading_ids(html_text: str) -> str:
    """HTML made here with an id on each heading, made from its text as GitHub, Hugo and Jekyll make them
    ('Results and discussion' -> 'results-and-discussion', unique in the text: 'results-1'), so that a link
    to a section (`[below](#results)`, or one kept from the old site) leads there."""
    if "<h" not in html_text:
        return html_text
    taken = {html.unescape(match[2][5:-1]) for match in _HEADING.finditer(html_text) if match[2]}  # written: `## Title {#id}`

    kept: set[str] = set()

    def with_id(match: re.Match) -> str:
        if match[2] and html.unescape(match[2][5:-1]) not in kept:
            kept.add(html.unescape(match[2][5:-1]))
            return match[0]  # the id written for it (the first heading given one name keeps it)
        words = _NOT_IN_AN_ID.sub("", " ".join(_text_of(match[3]).split())).strip().lower()
        base = words.replace(" ", "-") or "section"  # each space a hyphen, as GitHub's: 'Q & A' -> 'q--a'
        if _THEME_IDS.fullmatch(base):
            base = f"section-{base}"
        found, number = base, 0
        while found in taken:
            number += 1
            found = f"{base}-{number}"
        taken.add(found)
        return f'<h{match[1]} id="{html.escape(found)}">{match[3]}</h{match[1]}>'

    return _HEADING.sub(with_id, html_text)


def sections_of(html_text: str) -> list[tuple[int, str, str]]:
    """The headings of HTML made here that have an id (with_heading_ids), each (level, id, its text): what a page's
    table of contents links to."""
    return [(int(match[1]), html.unescape(match[2][5:-1]), " ".join(_text_of(match[3]).split())) for match in _HEADING.finditer(html_text) if match[2]]


def _text_of(body: str) -> str:
    """The text of HTML made here (sanitised, or plain paragraphs), entities decoded.

    Its tags can be dropped by a pattern: the sanitiser writes every attribute
    value in double quotes (read whole, should a later version leave a '>' in
    one), and no comment, script or style is left. 2.5 times as fast as asking
    the sanitiser to drop every tag; tests/unit/test_markup.py checks the two agree.
    """
    return html.unescape(_TAG.sub("", body))


def _plain_paragraphs(text: str, own_text: bool = False) -> str | None:
    """What Python-Markdown makes of text that is only paragraphs, with at most emphasis
    around words, without running it (5x faster). `own_text`: the site's own text, whose
    Markdown also has tables and fences of tildes.

    Returns None when the text might hold any other Markdown (an asterisk left over
    included); tests/unit/test_markup.py checks the two agree on generated texts.
    """
    text = text.strip("\n")
    if not text or _MARKDOWN_CHARACTERS.search(text) or (own_text and ("|" in text or "~~~" in text)):
        return None
    for line in text.split("\n"):  # line by line: one regex with ^ and $ took ten times as long
        if line[:1] in _BLOCK_STARTS or line[-1:] == " " or _NUMBERED.match(line):
            return None
    if "*" in text:
        text = _EMPHASIS.sub(_emphasis_html, text)
        if "*" in text:  # a star that is not emphasis around words
            return None
    return "\n".join(f"<p>{paragraph}</p>" for paragraph in re.split(r"\n\n+", text))


def _emphasis_html(match: re.Match) -> str:
    tag = _EMPHASIS_TAGS[match[1]]
    return f"<{tag}>{match[2]}</{tag}>"


def render_inline(text: str) -> Converted:
    """A one-line text (title, name, venue): LaTeX converted, whitespace folded."""
    converted = convert_inline(" ".join(text.split()))
    return Converted(converted.html, " ".join(converted.plain.split()), converted.unconverted)


# a link's or a picture's address, in HTML the sanitiser wrote: every attribute in double quotes
LINK = re.compile(r'(?<=\s)(href|src)="([^"]*)"')  # in a tag of LINKING_TAG
LINKING_TAG = re.compile(r'<(?:a|img)\s(?:[^>"]|"[^"]*")*>')  # a link or a picture: not `src="a.png"` shown in a code block


def with_links(html_text: str, link: Callable[[str], str]) -> str:
    """HTML made here with each link target (and picture) as `link` writes it (`SiteUrls.link`: a relative path
    taken from the site's root, so that the text is right on every page that shows it; `absolute_link` for a feed)."""
    if "href=" not in html_text and "src=" not in html_text:
        return html_text
    return LINKING_TAG.sub(lambda tag: LINK.sub(lambda m: f'{m[1]}="{link(m[2])}"', tag[0]), html_text)


def hrefs(html_text: str) -> list[str]:
    """The link targets and pictures of HTML made here (converted Markdown), entities decoded: what a reader's
    browser asks for."""
    if "href=" not in html_text and "src=" not in html_text:
        return []
    return [html.unescape(target) for tag in LINKING_TAG.findall(html_text) for _, target in LINK.findall(tag)]
