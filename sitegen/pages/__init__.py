"""What a site is made of: the registry of page kinds.

A page kind is one small module that registers itself here. It lists its pages,
and for each page the inputs its bytes depend on (`Page.inputs`): the render
stage keys the page by those inputs and the site-wide key (templates, settings,
profile, libraries), renders it only when that key changed, lists it in the
sitemap when it is an HTML page, and the dev server rebuilds it by the same rule.
A kind that does not narrow its inputs depends on every record (`everything`),
so a new kind can be slow to rebuild by omission, never stale.

The import list at the end of this file is the only place that names every kind.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sitegen.values import value_class

if TYPE_CHECKING:
    from sitegen.errors import Location, Problem
    from sitegen.model import FileBytes, KindContent, Site
    from sitegen.pages.theme_pages import ThemePage
    from sitegen.urls import SiteUrls
    from sitegen.views import ViewBuilder


@value_class
class Page:
    """One output file: where it goes, what it is made from, and how to make it."""

    path: str  # relative to output/ ('records/x/index.html', 'feed.xml')
    inputs: tuple[Any, ...]  # everything its bytes depend on besides the site-wide key
    make: Callable[[], FileBytes]
    in_sitemap: bool | None = None  # None: every HTML page but 404.html
    where: Location | None = None  # what declares it, when a file of the site does (a theme's `pages:` entry)
    source: Location | None = None  # the file of the site (and line) it is made of, for messages: a page's text, a redirect's line
    # made from the records' pieces (a list of records, an export of them all): a build that writes with forked workers
    # has one process make all such pages, so that each record's list item is made once, not once in each process
    every_record: bool = False
    # a site in several languages: the language of a page of a `per_language` kind, and what it is in every language
    # (its path in the default language: 'about/index.html'), by which its versions are found (sitegen.languages)
    language: str = ""
    translation_key: str = ""
    alternates: bool = True  # its versions in the other languages are named (hreflang, the switcher): not the 404 page's

    @property
    def listed(self) -> bool:
        if self.in_sitemap is not None:
            return self.in_sitemap
        return self.path.endswith(".html") and self.path != "404.html"


@dataclass
class RenderContext:
    """What a page kind may use to list and make its pages."""

    site: Site
    views: ViewBuilder
    urls: SiteUrls
    render: Callable[[str, dict[str, Any]], bytes]  # template name, values -> page bytes
    everything: str  # a key of every shown record: the default input of a page
    input_file: Callable[[str], bytes]  # an input file's bytes, read inside the site's jail
    input_digest: Callable[[str], str]
    static_sources: dict[str, str] = field(default_factory=dict)  # output name under static/ -> input path
    theme_settings: dict[str, Any] = field(default_factory=dict)
    theme_pages: list[ThemePage] = field(default_factory=list)  # the pages the theme declares (`pages:` in theme.yaml)
    strings: dict[str, Any] = field(default_factory=dict)  # the theme's strings in the site's language, by dotted key ('types.article')
    warnings: list[Problem] = field(default_factory=list)  # what a kind found while listing its pages (the people directory's)


def theme_string(context: RenderContext, key: str, english: str) -> str:
    """The theme's string `key` in the site's language, for what Python writes itself; `english` for a theme that
    has none."""
    text = context.strings.get(key)
    return text if isinstance(text, str) and text else english


def feed_name(context: RenderContext, kind: str) -> str:
    """What a feed of `kind` (publications, news, posts) is called in the site's language (the theme's `feeds.<kind>`)."""
    return theme_string(context, f"feeds.{kind}", {"posts": "blog"}.get(kind, kind))


def colon(context: RenderContext) -> str:
    """': ' as the site's language writes it after a label (French puts a no-break space before the colon)."""
    return theme_string(context, "punctuation.colon", ": ")


def feed_title(context: RenderContext, owner: str, kind: str) -> str:
    """A feed's title, 'Ada Lovelace: news', in the site's language."""
    return f"{owner}{colon(context)}{feed_name(context, kind)}"


MARKDOWN_SUFFIXES = (".md", ".markdown")  # .markdown is Jekyll's default


def has_suffix(path: str, suffixes: tuple[str, ...]) -> bool:
    """Whether a file's name ends with one of `suffixes`, in any case ('About.MD')."""
    return path.lower().endswith(suffixes)


@dataclass(frozen=True)
class ContentFiles:
    """The input files a page kind reads (`PageKind.reads`), as text, through the site's jail."""

    texts: dict[str, str]  # input path ('content/news/launch.md') -> its text
    problems: list[Any]  # files that could not be read as UTF-8 text (sitegen.errors.Problem)
    drafts: bool = False  # drafts ('_draft.md') are read too: `sitegen serve --drafts`
    others: tuple[str, ...] = ()  # files under `reads` without a suffix of `text_suffixes` ('chart.png'): not opened
    languages: tuple[str, ...] = ()  # site.yaml's `languages`, the default first; () for a site in one language

    def read_markdown(self, read: Callable[[str, str, list[Any]], Any], problems: list[Any]) -> list[Any]:
        """`read(path, text, problems)` of each published Markdown file ('_draft.md' is not, but with `drafts`),
        in path order; what it returns, but for None (a file it could not read, its problems noted)."""
        found = (read(path, text, problems) for path, text in sorted(self.texts.items()) if has_suffix(path, MARKDOWN_SUFFIXES) and self.published(path))
        return [value for value in found if value is not None]

    def without(self, paths: Iterable[str]) -> ContentFiles:
        """These files but `paths` (a list page's intro, read apart from the items)."""
        left_out = set(paths)
        return dataclasses.replace(self, texts={path: text for path, text in self.texts.items() if path not in left_out}) if left_out else self

    def published(self, path: str) -> bool:
        """Not a draft ('_draft.md'), or drafts are shown."""
        return self.drafts or not path.rpartition("/")[2].startswith("_")


# a kind's loader: its files -> (what it read, what every page shows of it, problems); stages 1-3 of its content
ContentLoader = Callable[[ContentFiles], tuple[Any, Any, list[Any]]]
# a kind's check of its content against the enriched records: warnings (sitegen.errors.Problem)
ContentCheck = Callable[["Site"], list[Any]]
# the links its content holds, each (where it is written: a sitegen.errors.Location, what it is for messages:
# "link 'pdf'" or "link in the text", URL as written); the render stage warns about a path into the site that
# leads to no file the build writes (a web address, 'https://...', is never checked: a kind with many may leave them out)
LinkList = Callable[["Site"], Iterable[tuple[Any, str, str]]]
# a `per_language` kind's content as one language's pages show it, on a site in several languages: (what the kind read,
# every language's items; a language; the site's languages, the default first) -> that language's content: for the
# default language, its items alone (`about.fr.md` taken out); None: the default language's serves (a language with
# no news of its own shows the default's news page)
LanguageContent = Callable[["KindContent", str, tuple[str, ...]], "KindContent | None"]
# the links of a language's own items, from its content's value (`LanguageContent`'s), as `links` lists them: those of
# the default language's items it shows are the default's, checked once
OwnLinks = Callable[[Any, str], Iterable[tuple[Any, str, str]]]


@dataclass(frozen=True)
class PageKind:
    name: str
    pages: Callable[[RenderContext], Iterable[Page]]
    reads: tuple[str, ...] = ()  # input path prefixes of its own content ('content/news/'), if any
    load: ContentLoader | None = None
    check: ContentCheck | None = None
    links: LinkList | None = None
    text_suffixes: tuple[str, ...] | None = None  # the files under `reads` it reads as text (None: all); others are `ContentFiles.others`
    per_language: bool = False  # a site in several languages has its pages in each (sitegen.languages)
    language_content: LanguageContent | None = None  # a per-language kind with content: how it is split by language
    own_links: OwnLinks | None = None  # the links of a language's own items (its `language_content`'s)
    intro: bool = False  # its folder's `_index.md` is its list page's own text (`KindContent.intros`), not an item


PAGE_KINDS: dict[str, PageKind] = {}


def register_page_kind(
    name: str,
    reads: tuple[str, ...] = (),
    load: ContentLoader | None = None,
    check: ContentCheck | None = None,
    links: LinkList | None = None,
    text_suffixes: tuple[str, ...] | None = None,
    per_language: bool = False,
    language_content: LanguageContent | None = None,
    own_links: OwnLinks | None = None,
    intro: bool = False,
) -> Callable[[Callable[[RenderContext], Iterable[Page]]], Callable[[RenderContext], Iterable[Page]]]:
    """`@register_page_kind("records")` on a function that lists a kind's pages.

    A kind with content of its own names the files (`reads`, prefixes of input paths)
    and how to load them (`load`): the build calls it in the load stage, reports its
    problems with everyone else's, and hands the result to the kind as
    `context.site.content[name]` (a `KindContent`). `check` sees the enriched site
    and returns warnings about the kind's content that only the records can show
    (a person file whose name matches no record). `links` lists the links its content
    holds, so that one into the site that leads nowhere is a warning. With `text_suffixes`
    (`MARKDOWN_SUFFIXES`), only the files so named are read as text: the kind gets the
    others' paths (`ContentFiles.others`) to publish (the pictures of a post's folder) or
    warn about, and a picture among its files is not a file it cannot read. A kind whose pages a site in several
    languages has in each (`per_language`: the profile, the pages) is listed once per language, with that language's
    context (its site, strings and addresses: sitegen.languages), its pages' paths under `<tag>/`. Such a kind with
    content that varies by language (`about.fr.md`) says what each language's pages show of it (`language_content`:
    the French pages and their menu) and, when that holds links, which are the language's own (`own_links`): the
    build gives each language its part (`SiteTranslation.content`) and checks those links, naming no kind itself.
    A kind with a list page (`intro`) takes its folder's `_index.md` (`_index.fr.md`: in French), as Hugo names a
    section's own text, for the title, description and text of that page (`KindContent.intros`), not as an item.
    """

    def register(list_pages: Callable[[RenderContext], Iterable[Page]]) -> Callable[[RenderContext], Iterable[Page]]:
        if name in PAGE_KINDS:
            raise ValueError(f"two page kinds named {name}")
        if (language_content is not None or own_links is not None) and not per_language:
            raise ValueError(f"page kind {name}: language_content and own_links are of a per_language kind")
        PAGE_KINDS[name] = PageKind(name, list_pages, reads, load, check, links, text_suffixes, per_language, language_content, own_links, intro)
        return list_pages

    return register


from sitegen.pages import (  # noqa: E402,F401  (each registers itself)
    coauthors,
    cv,
    exports,
    menu,
    most_cited,
    news,
    not_found,
    pages,
    people,
    posts,
    profile,
    projects,
    records,
    redirects,
    search_index,
    subjects,
    talks,
    theme_pages,
)
