"""Pages of the site's own (SPEC §7): `content/pages/**/*.md` -> `output/<slug>/index.html`.

    ---
    title: Teaching        # required
    nav: 2                 # its place in the menu (no nav: not in the menu)
    slug: teaching         # default: the file name
    description: ...       # for search engines and link previews (default: the first paragraph)
    language: en           # what it is written in, when not the site's language: its title and text say so (`lang`)
    ---
    Markdown with inline LaTeX, sanitised like an abstract. A line

    {{< publications type="article" since="2020" >}}

    shows those records there (sitegen.homepage.selection).

A page may also be a folder, as Hugo's page bundles are: `content/pages/teaching/index.md`
is /teaching/, and the other files of its folder (pictures, PDFs) are published beside it,
so that `![A chart](chart.png)` in its text shows `teaching/chart.png`.

The menu entries (title, place, address) are what every page shows of them;
a page itself depends on its own file and the records it shows.
"""

from __future__ import annotations

import dataclasses
import html
import posixpath
import re
from collections.abc import Callable, Collection, Iterable
from functools import partial
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import unquote

from sitegen.cache import digest
from sitegen.errors import Location, Problem
from sitegen.homepage.fields import Fields
from sitegen.homepage.frontmatter import front_matter_fields
from sitegen.homepage.selection import (
    PublicationFilter,
    filter_from,
    liquid_problems,
    raw_html_problems,
    shortcode_problem,
    shortcode_settings,
    unknown_ids_warnings,
)
from sitegen.latex import Converted, mathml_to_plain, unconverted_hint
from sitegen.markup import headings_under, hrefs, link_left_out, picture_left_out, render_markdown, with_heading_ids, with_links
from sitegen.model import KindContent, Site
from sitegen.pages import MARKDOWN_SUFFIXES, ContentFiles, Page, RenderContext, has_suffix, register_page_kind
from sitegen.urls import RESERVED, address_problem, file_slug, is_relative_path
from sitegen.values import value_class

if TYPE_CHECKING:
    from sitegen.languages import SiteTranslation

FOLDER = "content/pages/"
FIELDS = {"title", "nav", "slug", "description", "language", "toc"}
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
    text_key: str  # digest of the file's text (and its folder's files): what the page is made of besides records
    files: tuple[tuple[str, str], ...] = ()  # a bundle's own files: (name in its folder, input path), published beside the page
    links: tuple[tuple[int, str], ...] = ()  # each link and picture of its text: (the line it is written on, its address)
    language: str = ""  # what its title and text are written in, when its front matter says (an English page of a French site)
    translation: str = ""  # a site in several languages: the language its file's name gives ('about.fr.md'), "" for the default
    toc: bool = False  # its front matter's `toc: true`: a table of contents of its sections above its text


def page_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    yield from links_of(site.kind_value("pages", ()))


def links_of(pages: Iterable[ContentPage]) -> Iterable[tuple[Location | None, str, str]]:
    """The links of the pages' text, for `PageKind.links`: the site's pages', a language's (`own_links`)."""
    for page in pages:
        yield from ((Location(page.path, line), "link in the text", url) for line, url in page.links)


def lists_warnings(pages: Iterable[ContentPage], site: Site) -> list[Problem]:
    """A warning for each record id a page's `{{< publications ids="..." >}}` names that no record has."""
    return unknown_ids_warnings([part.publications for page in pages for part in page.parts if part.publications is not None], site)


@register_page_kind(
    "pages",
    reads=(FOLDER,),
    load=lambda files: load_pages(files),
    check=lambda site: lists_warnings(site.kind_value("pages", ()), site),
    links=page_links,
    text_suffixes=MARKDOWN_SUFFIXES,
    per_language=True,
    language_content=lambda content, language, languages: pages_in_language(content, language, languages),
    own_links=lambda pages, language: links_of(pages),
)
def content_pages(context: RenderContext) -> Iterable[Page]:
    content = context.site.content.get("pages")
    pages = content.value if content is not None and content.value else ()
    for page in pages:
        shown, records = shown_records(page.parts, context.site)
        yield Page(f"{page.slug}/index.html", (page.text_key, records), partial(_render, context, page, shown), source=Location(page.path, 1))
        yield from bundle_file_pages(context, page, f"{page.slug}/")


def bundle_file_pages(context: RenderContext, page: ContentPage, folder: str) -> Iterable[Page]:
    """The files of a page's folder (a bundle's pictures), copied beside the page (output `folder`)."""
    for name, source in page.files:
        yield Page(folder + name, (context.input_digest(source),), partial(context.input_file, source), in_sitemap=False, source=Location(source))


def shown_records(parts: tuple[PagePart, ...], site: Site) -> tuple[tuple[tuple[int, ...], ...], list[list[tuple[str, str]]]]:
    """The records each part shows (positions in `site.entries`; none for Markdown), and their keys: what the
    page shows of the records besides its own text."""
    entries = site.entries
    shown = tuple(tuple(part.publications.select(entries)) if part.publications is not None else () for part in parts)
    return shown, [[(entries[p].key, entries[p].cite_key) for p in positions] for positions in shown]


def _render(context: RenderContext, page: ContentPage, shown: tuple[tuple[int, ...], ...]) -> bytes:
    return context.render("page.html", context.views.content_page(page, shown))


def load_pages(files: ContentFiles) -> tuple[tuple[ContentPage, ...], tuple, list[Problem]]:
    """Every page file read and checked; the site-wide part is the menu: (nav, title, slug, language) of each page
    with `nav` (its language, so that the menu marks an English page's title among the French ones)."""
    problems: list[Problem] = []
    translated = translation_files(files, problems) if files.languages else {}  # a site in several languages: 'about.fr.md'
    default = dataclasses.replace(files, texts={path: text for path, text in files.texts.items() if path not in translated}) if translated else files
    bundles, loose = bundle_files(default, FOLDER)
    problems += not_read(loose, "page", FOLDER)
    resources = texts_in_bundles(default, FOLDER, "page", problems)
    read = partial(_read_page, bundles, resources)
    pages: list[ContentPage] = unique_addresses(default.read_markdown(read, problems), lambda page: page, "", "page", problems)
    menu = tuple(sorted((page.nav, page.title, page.slug, page.language) for page in pages if page.nav is not None))
    translations = _translations(files, translated, {page.path: page for page in pages}, problems)
    return tuple(sorted(pages, key=lambda p: p.slug)) + translations, menu, problems


def pages_in_language(content: KindContent, language: str, languages: tuple[str, ...]) -> KindContent | None:
    """The pages of `language` (`PageKind.language_content`): the default language's pages alone; another language's
    own pages and its menu, which lists the default language's pages it has none of."""
    pages = content.value or ()
    default_pages = tuple(page for page in pages if not page.translation)
    if language == languages[0]:
        return dataclasses.replace(content, value=default_pages) if pages else None
    own = tuple(page for page in pages if page.translation == language)
    return KindContent(own, menu_entries(default_pages, own, languages[0]), content.key)


def menu_entries(default_pages: tuple[ContentPage, ...], own: tuple[ContentPage, ...], default_language: str) -> tuple[tuple[int, str, str, str], ...]:
    """A language's menu entries of pages, (nav, title, slug, language): its own page where it has one (its title),
    else the default language's page (marked as in that language, for a screen reader's voice)."""
    by_slug = {page.slug: page for page in own}
    entries = []
    for page in default_pages:
        mine = by_slug.pop(page.slug, None)
        nav = mine.nav if mine is not None and mine.nav is not None else page.nav
        if nav is None:
            continue
        entries.append((nav, mine.title, page.slug, mine.language) if mine is not None else (nav, page.title, page.slug, page.language or default_language))
    entries += [(page.nav, page.title, page.slug, page.language) for page in by_slug.values() if page.nav is not None]
    return tuple(sorted(entries))


def untranslated_notes(site: Site) -> list[Problem]:
    """`sitegen check`'s notes: each page of the default language with no version in a language of the site."""
    notes = []
    for page in (page for page in site.kind_value("pages", ()) if not page.translation):
        stem = PurePosixPath(page.path)
        missing = [each.language for each in site.translations if not any(own.slug == page.slug for own in _pages_in(each))]
        if missing:
            names = ", ".join(f"{stem.with_suffix('')}.{tag}{stem.suffix}" for tag in missing)
            said = f"no translation in {', '.join(missing)} ({names}): that language's menu and switcher lead to this page"
            notes.append(Problem(said, Location(page.path), warning=True, note=True))
    return notes


def _pages_in(translation: SiteTranslation) -> tuple[ContentPage, ...]:
    """A language's own pages."""
    content = translation.content.get("pages")
    return content.value if content is not None else ()


def translation_files(files: ContentFiles, problems: list[Problem], suffixes: tuple[str, ...] = MARKDOWN_SUFFIXES) -> dict[str, tuple[str, str]]:
    """A site in several languages: each file (of `suffixes`) whose name gives a language ('about.fr.md') -> (that
    language, the file it translates). One in a language the site does not have is a warning, and left out."""
    from sitegen.languages import file_language, not_a_language_of_the_site

    found = {}
    for path in files.texts:
        named = file_language(path, files.languages) if has_suffix(path, suffixes) else None
        if named is None:
            continue
        if named[0] not in files.languages[1:]:  # a language the site does not have, or the default's named
            problems.append(Problem(not_a_language_of_the_site(named[0], files.languages, named[1]), Location(path, 1), warning=True))
        found[path] = named
    return found


def _translations(
    files: ContentFiles, translated: dict[str, tuple[str, str]], originals: dict[str, ContentPage], problems: list[Problem]
) -> tuple[ContentPage, ...]:
    """The pages of the languages but the default: each at the address of the page it translates (a page of its own,
    with no page in the default language, at its file's), marked with its language."""
    read: list[ContentPage] = []
    for path, (language, original_path) in sorted(translated.items()):
        if language not in files.languages[1:] or not files.published(path):
            continue  # a language the site does not have (said); the default language's is a page as any
        original = originals.get(original_path)
        address = Address("page", original.slug if original is not None else page_slug(original_path), prefix=f"{language}/")
        # a bundle's translation ('teaching/index.fr.md') names the files of its folder, published once, beside the original
        bundle = original.files if original is not None else ()
        link_address = dataclasses.replace(address, prefix="") if bundle else address
        found = read_content_page(path, files.texts[path], problems, link_address, lambda fields: fields.integer("nav"), FIELDS, bundle)
        if found is None:
            continue
        nav, page = found
        if original is not None and page.slug != original.slug:
            problems.append(
                Problem(f"a translation is at its page's address, {language}/{original.slug}/: slug: {page.slug} left out", Location(path, 1), warning=True)
            )
        language_written = page.language or language
        slug = original.slug if original is not None else page.slug
        # its folder's files are published once, beside the page it translates
        read.append(dataclasses.replace(page, slug=slug, nav=nav, translation=language, language=language_written, files=()))
    by_language: dict[str, list[ContentPage]] = {}
    for page in read:
        by_language.setdefault(page.translation, []).append(page)
    kept = [page for pages in by_language.values() for page in unique_addresses(pages, lambda page: page, f"{pages[0].translation}/", "page", problems)]
    return tuple(sorted(kept, key=lambda page: (page.translation, page.slug)))


def _read_page(bundles: dict[str, tuple[tuple[str, str], ...]], resources: set[str], path: str, text: str, problems: list[Problem]) -> ContentPage | None:
    if path in resources:
        return None
    address = Address("page", page_slug(path))
    read = read_content_page(path, text, problems, address, lambda fields: fields.integer("nav"), FIELDS, bundles.get(path, ()))
    return dataclasses.replace(read[1], nav=read[0]) if read is not None else None


def page_slug(path: str) -> str:
    """A page's default address: its file's name, or its folder's for a bundle ('teaching/index.md')."""
    file = PurePosixPath(path)
    return file_slug((file.parent.name if is_bundle(path, FOLDER) else file.stem).lstrip("_"))


def is_bundle(path: str, folder: str) -> bool:
    """Whether a Markdown file is the text of a page bundle: an index.md in a folder of its own under `folder`."""
    file = PurePosixPath(path)
    return file.stem.lower() == "index" and path.lower().endswith(MARKDOWN_SUFFIXES) and str(file.parent) + "/" != folder


def bundle_files(files: ContentFiles, folder: str) -> tuple[dict[str, tuple[tuple[str, str], ...]], list[str]]:
    """The files other than Markdown under `folder` (a kind's), as Hugo's page bundles have them: each bundle's
    (its index.md -> its files' names in its folder and paths; a file belongs to the nearest folder with an
    index.md above it), and the files of no bundle, published."""
    indexes = {str(PurePosixPath(path).parent): path for path in files.texts if is_bundle(path, folder) and files.published(path)}
    bundles: dict[str, list[tuple[str, str]]] = {}
    loose = []
    for path in files.others:
        if not files.published(path):
            continue
        parent = _bundle_folder(path, folder, indexes)
        if parent is not None:
            bundles.setdefault(indexes[parent], []).append((posixpath.relpath(path, parent), path))
        else:
            loose.append(path)
    return {index: tuple(sorted(found)) for index, found in bundles.items()}, loose


def _bundle_folder(path: str, folder: str, bundles: Collection[str]) -> str | None:
    """The nearest folder above `path`, under the kind's `folder`, that is one of `bundles` (folders holding an
    index.md); None when there is none."""
    parent = PurePosixPath(path).parent
    while str(parent) + "/" != folder and parent != parent.parent and str(parent) not in bundles:
        parent = parent.parent
    return str(parent) if str(parent) in bundles else None


def texts_in_bundles(files: ContentFiles, folder: str, noun: str, problems: list[Problem]) -> set[str]:
    """The Markdown files inside a page bundle other than its index.md (Hugo's headless page resources): part of
    that bundle, not pages of their own, so not read; each is a warning saying so."""
    indexes = {str(PurePosixPath(path).parent) for path in files.texts if is_bundle(path, folder)}
    inside = set()
    for path in files.texts:
        if is_bundle(path, folder) or not has_suffix(path, MARKDOWN_SUFFIXES):
            continue
        if (parent := _bundle_folder(path, folder, indexes)) is not None:
            inside.add(path)
            problems.append(
                Problem(
                    f"not read: a Markdown file in the folder of the {noun} {parent}/index.md is part of that {noun} (as in Hugo's page bundles), "
                    f"not a {noun} of its own; move it to {folder} to make it one",
                    Location(path),
                    warning=True,
                )
            )
    return inside


# texts of other formats, which a page of the site would be written as: 'page.html', Hugo's 'page.rst'
OTHER_TEXT_SUFFIXES = (".html", ".htm", ".txt", ".text", ".mdown", ".mkd", ".mkdn", ".mdwn", ".markdn", ".rst", ".adoc", ".asciidoc", ".org")


def not_read(paths: list[str], noun: str, folder: str, bundles: bool = True) -> list[Problem]:
    """A warning for each file of a kind's folder that it does not read (a picture beside a post, a page written
    as .html), saying what to do: a text becomes Markdown; a file to show goes in the folder of the text that
    shows it (`bundles`: Hugo's page bundles) or in static/."""
    kinds = " or ".join(MARKDOWN_SUFFIXES)
    problems = []
    for path in paths:
        name = path.rpartition("/")[2]
        if path.lower().endswith(OTHER_TEXT_SUFFIXES):
            advice = f"write it in Markdown, in which HTML is shown as text, as {path.rpartition('.')[0]}.md"
        else:
            beside = f"in one folder with the {noun}'s text ({folder}NAME/index.md and {folder}NAME/{name}, written {name}) or " if bundles else ""
            advice = f"to show it in a {noun}, put it {beside}in static/ (written static/{name})"
        problems.append(Problem(f"not read: a {noun} is a Markdown file ({kinds}); {advice}", Location(path), warning=True))
    return problems


@value_class
class Address:
    """Where a kind's Markdown page goes: `prefix` + its slug (default `default`), checked by `address_problem`."""

    noun: str  # 'page', 'post': for messages
    default: str
    prefix: str = ""
    folders: bool = True
    reserved: Collection[str] = frozenset(RESERVED)


def read_content_page(
    path: str,
    text: str,
    problems: list[Problem],
    address: Address,
    also: Callable[[Fields], Item],
    known: set[str],
    files: tuple[tuple[str, str], ...] = (),
) -> tuple[Item, ContentPage] | None:
    """A Markdown page of the site's own (a page, a blog post): its front matter's `title`, `slug` and `description`,
    what `also` reads of the rest (its `nav`, its `date`), and its text; None when something in it is wrong (said).
    `files`: those of its folder (a bundle's), which its text's links and pictures name as they are named there."""
    read = front_matter_fields(text, path, known, problems)
    if read is None:
        return None
    fields, body, body_line = read
    title = fields.inline("title", required=True)  # LaTeX as Unicode, as a talk's and a news item's: "Why ζ(2)=π²/6"
    extra = also(fields)
    slug = fields.text("slug") or address.default
    description = fields.text("description")
    language = fields.language()
    toc = fields.flag("toc", False)
    if not slug:
        fields.problem(None, f"the {address.noun}'s file name gives no address (it has no letter or digit of A-Z a-z 0-9); set one with slug: ...")
    elif reason := address_problem(slug, address.folders, address.reserved):
        where = "slug" if "slug" in fields.data else None
        fields.problem(where, f"the {address.noun}'s address '{address.prefix}{slug}/' {reason}; set another with slug: ...")
    links: list[tuple[int, str]] = []
    parts = page_parts(path, body, body_line, problems, fields, bundle_link(dict(files), f"{address.prefix}{slug}/"), links)
    if fields.failed or parts is None:
        return None
    key = digest(text, [name for name, _ in files]) if files else digest(text)
    return extra, ContentPage(path, slug, title, None, description or first_paragraph(parts), parts, key, files, tuple(links), language, toc=toc)


INTRO_NAME = "_index"  # a list page's own text: 'content/projects/_index.md', as Hugo names a section's
INTRO_FIELDS = {"title", "description", "language"}


def intro_paths(paths: Iterable[str], folder: str) -> list[str]:
    """The list page's own text in each language: `folder`'s `_index.md` ('_index.fr.md'), not one of its items
    (Markdown even where the items are YAML files, as talks are)."""
    return [
        path
        for path in paths
        if path.rpartition("/")[0] + "/" == folder and path.rpartition("/")[2].split(".", 1)[0] == INTRO_NAME and has_suffix(path, MARKDOWN_SUFFIXES)
    ]


def read_intros(files: ContentFiles, paths: Iterable[str], problems: list[Problem]) -> dict[str, ContentPage]:
    """Each intro (`intro_paths`) by the language its file's name gives ("" the default's): an optional `title` (the
    list's heading; the theme's word else) and `description` (its link previews'; its first paragraph else), and
    Markdown text, shown above the list. A list of records in it would make the list page depend on the records
    too: the shortcode is a warning, and left out."""
    from sitegen.languages import file_language

    intros: dict[str, ContentPage] = {}
    for path in sorted(paths):
        named = file_language(path, files.languages) if files.languages else None
        language = named[0] if named and named[0] in files.languages[1:] else ""
        if named and not language:
            continue  # `translation_files` of the kind warns about a language the site does not have
        if (page := _read_intro(path, files.texts[path], problems)) is not None:
            intros[language] = dataclasses.replace(page, translation=language)
    return intros


def intro_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    """The links of every list page's own text (each language's), checked as the kinds' `links` are."""
    yield from links_of(intro for content in site.content.values() for intro in content.intros.values())


def _read_intro(path: str, text: str, problems: list[Problem]) -> ContentPage | None:
    read = front_matter_fields(text, path, INTRO_FIELDS, problems)
    if read is None:
        return None
    fields, body, body_line = read
    title, description, language = fields.inline("title"), fields.text("description"), fields.language()
    links: list[tuple[int, str]] = []
    parts = page_parts(path, body, body_line, problems, fields, links=links)
    if fields.failed or parts is None:
        return None
    if any(part.publications is not None for part in parts):
        said = "a list page's text shows no list of records: the publications shortcode is left out (put it in a page of content/pages/)"
        problems.append(Problem(said, Location(path, body_line), warning=True))
        parts = tuple(part for part in parts if part.publications is None)
    return ContentPage(path, "", title or "", None, description or first_paragraph(parts), parts, digest(text), (), tuple(links), language)


def bundle_link(files: dict[str, str], folder: str) -> Callable[[str], str] | None:
    """How a bundle's text writes a link (in HTML made here): one naming a file of its folder ('chart.png',
    './data/x.csv#row=2') leads to where that file is published, `folder` of the site; others stay as written."""
    if not files:
        return None

    def link(written: str) -> str:
        url = html.unescape(written)
        if not is_relative_path(url):
            return written
        path, mark, rest = re.split(r"([?#])", url, maxsplit=1) if re.search(r"[?#]", url) else (url, "", "")
        name = posixpath.normpath(path)
        return html.escape(f"{folder}{name}{mark}{rest}") if unquote(name) in files else written

    return link


def page_parts(
    path: str,
    body: str,
    first_line: int,
    problems: list[Problem],
    fields: Fields,
    link: Callable[[str], str] | None = None,
    links: list[tuple[int, str]] | None = None,
) -> tuple[PagePart, ...] | None:
    """The body cut at each publications shortcode line, the Markdown around them converted (each link as `link`
    writes it, if given; each link's line and address added to `links`).

    The text is converted as one (each list's line a mark of its own paragraph, cut out of the HTML after), so
    that a footnote and its note, and headings' levels, are the page's, whatever list stands between them."""
    lines: list[str] = []
    numbers: list[int] = []  # the file's line of each of `lines`
    lists: list[PublicationFilter] = []
    failed = False
    marked = digest(body)  # a list's mark names the text it stands in, which no text can spell out itself
    body_lines = body.split("\n")
    code = code_lines(body_lines)
    for number, line in enumerate(body_lines, start=first_line):
        try:
            settings = None if number - first_line in code else shortcode_settings(line)
        except ValueError as error:
            problems.append(Problem(f"publications shortcode: {error}", Location(path, number)))
            failed = True
            continue
        if settings is None:
            if number - first_line not in code and (problem := shortcode_problem(line)):
                problems.append(Problem(problem, Location(path, number)))
                failed = True
            elif number - first_line not in code:
                problems += [Problem(said, Location(path, number), warning=True) for said in liquid_problems(line) + raw_html_problems(line)]
            lines.append(line)
            numbers.append(number)
            continue
        chosen = filter_from(settings, Location(path, number), problems)
        if chosen is None:
            failed = True
        else:
            lines += ["", f"\ue002{marked}-{len(lists)}\ue003", ""]
            numbers += [number] * 3
            lists.append(chosen)
    if failed:
        return None
    text = "\n".join(lines)
    place = TextPlaces(text, Location(path, first_line), numbers)
    html = with_heading_ids(headings_under(site_markdown(text, Location(path, first_line), problems, place).html, top=2)) if text.strip() else ""
    written = hrefs(html)
    if link is not None:
        html = with_links(html, link)
    if links is not None:
        links += zip([place.of(url or "]()").line or first_line for url in written], hrefs(html))  # '[Home]()': an empty link
    pieces = re.split(f"(?:<p>)?\ue002{marked}-(\\d+)\ue003(?:</p>)?", html)  # text, a list's number, text, ...
    parts = [PagePart(publications=lists[int(piece)]) if index % 2 else PagePart(html=piece.strip("\n")) for index, piece in enumerate(pieces)]
    return tuple(part for part in parts if part.publications is not None or part.html.strip())


_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def code_lines(lines: list[str]) -> set[int]:
    """The indexes of the lines of Markdown that are code, shown as written: fenced blocks (their fences too)
    and indented blocks after a blank line. A shortcode there is an example, not a list to show."""
    code: set[int] = set()
    fence = ""
    for index, line in enumerate(lines):
        opening = _FENCE.match(line)
        if fence:
            code.add(index)
            if opening and opening[1].startswith(fence) and not line[opening.end() :].strip():
                fence = ""
        elif opening:
            code.add(index)
            fence = opening[1]
        elif line.startswith(("    ", "\t")) and (index == 0 or index - 1 in code or not lines[index - 1].strip()):
            code.add(index)
    return code


class TextPlaces:
    """Where a piece of a Markdown text is written: its file and line, for the messages about it."""

    def __init__(self, text: str, start: Location, numbers: list[int] | None = None):
        self.text = text
        self.start = start  # the text's first line
        self.numbers = numbers  # the file's line of each line of `text`, when they do not follow one another
        self.after: dict[str, int] = {}  # a piece found -> where to look for it next (a second LaTeX span alike is further on)

    def of(self, piece: str) -> Location:
        """The line of `piece` as written (the next one after those asked for before), else the text's first line."""
        at = self.text.find(piece, self.after.get(piece, 0)) if piece else -1
        if at < 0:
            return self.start
        self.after[piece] = at + len(piece)
        index = self.text.count("\n", 0, at)
        line = self.numbers[index] if self.numbers is not None and index < len(self.numbers) else (self.start.line or 1) + index
        return Location(self.start.path, line)


def site_markdown(text: str, where: Location, problems: list[Problem], place: TextPlaces | None = None) -> Converted:
    """The site's own Markdown (a page, a post, a news item, whose first line is `where`), which may show pictures of
    the site's files; LaTeX it cannot convert, a picture from elsewhere and a link with an unsafe address (both left
    out) are warnings at their lines."""
    left_out: list[str] = []
    unsafe: list[str] = []
    converted = render_markdown(text, left_out, unsafe)
    place = place or TextPlaces(text, where)
    problems += [Problem(f"LaTeX shown as source, cannot convert {tex}{unconverted_hint(tex)}", place.of(tex), warning=True) for tex in converted.unconverted]
    problems += [Problem(picture_left_out(url), place.of(url), warning=True) for url in left_out]
    problems += [Problem(link_left_out(url), place.of(url), warning=True) for url in unsafe]
    return converted


_MATH = re.compile(r"<math\b.*?</math>", re.S)


def first_paragraph(parts: tuple[PagePart, ...]) -> str:
    """The text of the first paragraph, for a description: math as its plain text ('a/b' for `$\\frac{a}{b}$`)."""
    for part in parts:
        match = re.search(r"<p>(.*?)</p>", part.html, re.S)
        if match:
            shown = _MATH.sub(lambda math: html.escape(mathml_to_plain(math[0]), quote=False), match[1]) if "<math" in match[1] else match[1]
            text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", shown)).split())
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
