"""Pages of the site's own (SPEC §7): `content/pages/**/*.md` -> `output/<slug>/index.html`.

    ---
    title: Teaching        # required
    nav: 2                 # its place in the menu (no nav: not in the menu)
    slug: teaching         # default: the file name
    description: ...       # for search engines and link previews (default: the first paragraph)
    ---
    Markdown with inline LaTeX, sanitised like an abstract. A line

    {{< publications type="article" since="2020" >}}

    shows those records there (sitegen.homepage.selection).

The menu entries (title, place, address) are what every page shows of them;
a page itself depends on its own file and the records it shows.
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Callable, Collection, Iterable
from functools import partial
from pathlib import PurePosixPath
from typing import TypeVar

from sitegen.cache import digest
from sitegen.errors import Location, Problem
from sitegen.homepage.fields import Fields
from sitegen.homepage.frontmatter import front_matter_fields
from sitegen.homepage.selection import PublicationFilter, filter_from, shortcode_settings
from sitegen.latex import Converted
from sitegen.markup import headings_under, hrefs, render_markdown
from sitegen.model import Site
from sitegen.pages import ContentFiles, Page, RenderContext, register_page_kind
from sitegen.urls import RESERVED, address_problem
from sitegen.values import value_class

FOLDER = "content/pages/"
FIELDS = {"title", "nav", "slug", "description"}
DESCRIPTION_LENGTH = 200
Item = TypeVar("Item")


@value_class
class PagePart:
    """A stretch of a page: converted Markdown (`html`), or a list of records (`publications`)."""

    html: str = ""
    publications: PublicationFilter | None = None


@value_class
class ContentPage:
    path: str  # the input file: 'content/pages/teaching.md'
    slug: str
    title: str
    nav: int | None
    description: str
    parts: tuple[PagePart, ...]
    text_key: str  # digest of the file's text: what the page is made of besides records


def page_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    for page in site.kind_value("pages", ()):
        yield from ((Location(page.path), "link in the text", url) for part in page.parts for url in hrefs(part.html))


@register_page_kind("pages", reads=(FOLDER,), load=lambda files: load_pages(files), links=page_links)
def content_pages(context: RenderContext) -> Iterable[Page]:
    content = context.site.content.get("pages")
    pages = content.value if content is not None and content.value else ()
    for page in pages:
        shown, records = shown_records(page.parts, context.site)
        yield Page(f"{page.slug}/index.html", (page.text_key, records), partial(_render, context, page, shown))


def shown_records(parts: tuple[PagePart, ...], site: Site) -> tuple[tuple[tuple[int, ...], ...], list[list[tuple[str, str]]]]:
    """The records each part shows (positions in `site.entries`; none for Markdown), and their keys: what the
    page shows of the records besides its own text."""
    entries = site.entries
    shown = tuple(tuple(part.publications.select(entries)) if part.publications is not None else () for part in parts)
    return shown, [[(entries[p].key, entries[p].cite_key) for p in positions] for positions in shown]


def _render(context: RenderContext, page: ContentPage, shown: tuple[tuple[int, ...], ...]) -> bytes:
    return context.render("page.html", context.views.content_page(page, shown))


def load_pages(files: ContentFiles) -> tuple[tuple[ContentPage, ...], tuple, list[Problem]]:
    """Every page file read and checked; the site-wide part is the menu: (nav, title, slug) of each page with `nav`."""
    problems: list[Problem] = []
    pages: list[ContentPage] = unique_addresses(files.read_markdown(_read_page, problems), lambda page: page, "", "page", problems)
    menu = tuple(sorted((page.nav, page.title, page.slug) for page in pages if page.nav is not None))
    return tuple(sorted(pages, key=lambda p: p.slug)), menu, problems


def _read_page(path: str, text: str, problems: list[Problem]) -> ContentPage | None:
    read = read_content_page(path, text, problems, Address("page", PurePosixPath(path).stem.lstrip("_")), lambda fields: fields.integer("nav"), FIELDS)
    return dataclasses.replace(read[1], nav=read[0]) if read is not None else None


@value_class
class Address:
    """Where a kind's Markdown page goes: `prefix` + its slug (default `default`), checked by `address_problem`."""

    noun: str  # 'page', 'post': for messages
    default: str
    prefix: str = ""
    folders: bool = True
    reserved: Collection[str] = frozenset(RESERVED)


def read_content_page(
    path: str, text: str, problems: list[Problem], address: Address, also: Callable[[Fields], Item], known: set[str]
) -> tuple[Item, ContentPage] | None:
    """A Markdown page of the site's own (a page, a blog post): its front matter's `title`, `slug` and `description`,
    what `also` reads of the rest (its `nav`, its `date`), and its text; None when something in it is wrong (said)."""
    read = front_matter_fields(text, path, known, problems)
    if read is None:
        return None
    fields, body, body_line = read
    title = fields.text("title", required=True)
    extra = also(fields)
    slug = fields.text("slug") or address.default
    description = fields.text("description")
    if reason := address_problem(slug, address.folders, address.reserved):
        where = "slug" if "slug" in fields.data else None
        fields.problem(where, f"the {address.noun}'s address '{address.prefix}{slug}/' {reason}; set another with slug: ...")
    parts = page_parts(path, body, body_line, problems, fields)
    if fields.failed or parts is None:
        return None
    return extra, ContentPage(path, slug, title, None, description or first_paragraph(parts), parts, digest(text))


def page_parts(path: str, body: str, first_line: int, problems: list[Problem], fields: Fields) -> tuple[PagePart, ...] | None:
    """The body cut at each publications shortcode line, the Markdown around them converted.

    The text is converted as one (each list's line a mark of its own paragraph, cut out of the HTML after), so
    that a footnote and its note, and headings' levels, are the page's, whatever list stands between them."""
    lines: list[str] = []
    lists: list[PublicationFilter] = []
    failed = False
    marked = digest(body)  # a list's mark names the text it stands in, which no text can spell out itself
    for number, line in enumerate(body.split("\n"), start=first_line):
        try:
            settings = shortcode_settings(line)
        except ValueError as error:
            problems.append(Problem(f"publications shortcode: {error}", Location(path, number)))
            failed = True
            continue
        if settings is None:
            lines.append(line)
            continue
        chosen = filter_from(settings, Location(path, number), problems)
        if chosen is None:
            failed = True
        else:
            lines += ["", f"\ue002{marked}-{len(lists)}\ue003", ""]
            lists.append(chosen)
    if failed:
        return None
    text = "\n".join(lines)
    html = headings_under(site_markdown(text, Location(path, first_line), problems).html, top=2) if text.strip() else ""
    pieces = re.split(f"(?:<p>)?\ue002{marked}-(\\d+)\ue003(?:</p>)?", html)  # text, a list's number, text, ...
    parts = [PagePart(publications=lists[int(piece)]) if index % 2 else PagePart(html=piece.strip("\n")) for index, piece in enumerate(pieces)]
    return tuple(part for part in parts if part.publications is not None or part.html.strip())


def site_markdown(text: str, where: Location, problems: list[Problem]) -> Converted:
    """The site's own Markdown (a page, a post, a news item), which may show pictures of the site's files;
    LaTeX it cannot convert, and a picture from elsewhere (left out), are warnings at `where`."""
    left_out: list[str] = []
    converted = render_markdown(text, left_out)
    problems += [Problem(f"LaTeX shown as source, cannot convert {tex}", where, warning=True) for tex in converted.unconverted]
    problems += [
        Problem(
            f"picture '{url}' left out: pages show pictures of the site's own files only; put it in static/ and write ![what it shows](static/NAME)",
            where,
            warning=True,
        )
        for url in left_out
    ]
    return converted


def first_paragraph(parts: tuple[PagePart, ...]) -> str:
    for part in parts:
        match = re.search(r"<p>(.*?)</p>", part.html, re.S)
        if match:
            text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", match[1])).split())
            if len(text) > DESCRIPTION_LENGTH:
                text = text[:DESCRIPTION_LENGTH].rsplit(" ", 1)[0] + "…"
            return text
    return ""


def unique_addresses(items: list[Item], page_of: Callable[[Item], ContentPage], prefix: str, noun: str, problems: list[Problem]) -> list[Item]:
    """One page per address (`prefix` + slug), ignoring case: two would be one folder on macOS and Windows."""
    kept: dict[str, Item] = {}
    for item in sorted(items, key=lambda item: page_of(item).path):
        page = page_of(item)
        first = kept.setdefault(page.slug.lower(), item)
        if first is not item:
            where = Location(page.path, 1)
            problems.append(Problem(f"this {noun} and {page_of(first).path} both want the address '{prefix}{page.slug}/'; give one a slug: ...", where))
    return list(kept.values())
