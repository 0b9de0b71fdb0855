"""News (SPEC §7): `content/news/**/*.md` -> `output/news/index.html` and `output/news/feed.xml`.

    ---
    date: 2025-03-05      # required
    title: ERC grant      # optional
    language: en          # optional: what it is written in, when not the site's language
    ---
    Markdown with inline LaTeX.

The profile shows the latest few (views.py: NEWS_ON_PROFILE). What every page
shows of the news is only that there is some (a menu entry, the feed's link).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from sitegen.errors import Location, Problem
from sitegen.exports.feed import DatedText, dated_feed
from sitegen.homepage.frontmatter import front_matter_fields
from sitegen.homepage.selection import liquid_problems, raw_html_problems, shortcode_problem
from sitegen.markup import headings_under, hrefs, with_links
from sitegen.model import KindContent, Site
from sitegen.pages import MARKDOWN_SUFFIXES, ContentFiles, Page, RenderContext, feed_title, register_page_kind
from sitegen.pages.pages import TextPlaces, code_lines, not_read, site_markdown
from sitegen.urls import NEWS_FEED_PATH, file_slug, with_unique_anchors
from sitegen.values import value_class

FOLDER = "content/news/"
FIELDS = {"date", "title", "language"}
NEWS_PATH = "news/index.html"
FEED_PATH = NEWS_FEED_PATH
_ANCHOR_CHARACTERS = re.compile(r"[^A-Za-z0-9_-]+")


@value_class
class NewsItem:
    path: str
    date: str  # ISO day
    title: str  # may be ""
    body_html: str
    body_plain: str
    anchor: str  # its id on the news page: 'news-2025-03-05-erc-grant'
    links: tuple[tuple[int, str], ...] = ()  # each link and picture of its text: (the line it is written on, its address)
    language: str = ""  # what it is written in, when its front matter says and it is not the site's language
    translation: str = ""  # a site in several languages: the language its file's name gives ('erc.fr.md'), "" for the default


def news_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    yield from links_of(site.kind_value("news", ()))


def links_of(items: Iterable[NewsItem]) -> Iterable[tuple[Location | None, str, str]]:
    """The links of the items' text, for `PageKind.links`: the site's news', a language's own (`own_links`)."""
    for item in items:
        yield from ((Location(item.path, line), "link in the text", url) for line, url in item.links)


def news_in_language(content: KindContent, language: str, languages: tuple[str, ...]) -> KindContent | None:
    from sitegen.languages import items_in_language

    return items_in_language(content, language, languages, lambda item: item.translation, language_news)


@register_page_kind(
    "news",
    reads=(FOLDER,),
    load=lambda files: load_news(files),
    links=news_links,
    text_suffixes=MARKDOWN_SUFFIXES,
    per_language=True,
    language_content=news_in_language,
    intro=True,
    own_links=lambda items, language: links_of(item for item in items if item.translation == language),
)
def news_pages(context: RenderContext) -> Iterable[Page]:
    from sitegen.languages import own_language

    content = context.site.content.get("news")
    if content is None or not content.value:
        return
    items = content.value
    language = own_language(context.site)
    if language and not any(item.translation == language for item in items):
        return  # a language with no news of its own: its menu leads to the default language's
    yield Page(NEWS_PATH, (content.key,), lambda: context.render("news.html", context.views.news_page(items)))
    yield Page(FEED_PATH, (content.key,), lambda: news_feed(context, items))  # a language's: its news page's items


def load_news(files: ContentFiles) -> tuple[tuple[NewsItem, ...], bool, list[Problem]]:
    """Every news item, newest first; site-wide: whether there are any. A site in several languages: then each item
    of another language ('erc.fr.md', `translation` fr), newest first, which prepare gives that language."""
    from sitegen.pages.pages import translation_files

    problems = not_read([path for path in files.others if files.published(path)], "news item", FOLDER, bundles=False)
    translated = translation_files(files, problems) if files.languages else {}
    default = dataclasses.replace(files, texts={path: text for path, text in files.texts.items() if path not in translated}) if translated else files
    items = default.read_markdown(_read_item, problems)
    items.sort(key=lambda item: (item.date, item.path), reverse=True)
    items = with_unique_anchors(items)
    return tuple(items) + _translations(files, translated, {item.path: item for item in items}, problems), bool(items), problems


def _translations(files: ContentFiles, translated: dict[str, tuple[str, str]], originals: dict[str, NewsItem], problems: list[Problem]) -> tuple[NewsItem, ...]:
    """The items of the languages but the default, each with the anchor of the item it translates (or of its own
    name without the language, for an item of that language alone), newest first."""
    found = []
    for path, (language, original_path) in sorted(translated.items()):
        if language not in files.languages[1:] or not files.published(path):
            continue  # a language the site does not have (said); the default language's is an item as any
        item = _read_item(path, files.texts[path], problems)
        if item is None:
            continue
        original = originals.get(original_path)
        anchor = original.anchor if original is not None else _anchor(original_path, item.date)
        found.append(dataclasses.replace(item, anchor=anchor, translation=language, language=item.language or language))
    found.sort(key=lambda item: (item.date, item.path), reverse=True)
    return tuple(found)


def language_news(items: tuple[NewsItem, ...], language: str, default_language: str) -> tuple[NewsItem, ...]:
    """A language's news, newest first: each item in that language where it has one, else the default language's
    (marked as in it, for a screen reader's voice); () when it has none of its own."""
    own = {item.anchor: item for item in items if item.translation == language}
    if not own:
        return ()
    merged = [
        own.pop(item.anchor) if item.anchor in own else dataclasses.replace(item, language=item.language or default_language)
        for item in items
        if not item.translation
    ]
    merged += own.values()
    return tuple(sorted(merged, key=lambda item: (item.date, item.path), reverse=True))


def _read_item(path: str, text: str, problems: list[Problem]) -> NewsItem | None:
    read = front_matter_fields(text, path, FIELDS, problems)
    if read is None:
        return None
    fields, body, body_line = read
    date = fields.day("date", required=True)
    title = fields.inline("title")
    language = fields.language()
    if not body.strip() and not title:
        fields.problem(None, "a news item needs a title or some text below its front matter")
    body_lines = body.split("\n")
    code = code_lines(body_lines)
    for number, line in enumerate(body_lines):
        if number not in code and (problem := shortcode_problem(line, lists=False)):
            fields.problems.append(Problem(problem, Location(path, body_line + number)))
            fields.failed = True
        elif number not in code:
            said_of_line = liquid_problems(line) + raw_html_problems(line)
            fields.problems += [Problem(said, Location(path, body_line + number), warning=True) for said in said_of_line]
    place = TextPlaces(body, Location(path, body_line))
    converted = site_markdown(body, Location(path, body_line), problems, place)
    links = tuple((place.of(url).line or body_line, url) for url in hrefs(converted.html))
    if fields.failed:
        return None
    html = headings_under(converted.html, top=4 if title else 3)  # under the list's heading (h2) and the item's title (h3)
    return NewsItem(path, date, title, html, converted.plain, _anchor(path, date), links, language)


def _anchor(path: str, date: str) -> str:
    """An item's id on the news page: 'news-2025-03-05-erc-grant'."""
    stem = _ANCHOR_CHARACTERS.sub("-", file_slug(PurePosixPath(path).stem.lstrip("_"))).strip("-")  # a draft keeps its anchor when published
    return f"news-{stem}" if stem.startswith(date) else f"news-{date}-{stem}"


def news_feed(context: RenderContext, items: tuple[NewsItem, ...]) -> bytes:
    """An Atom feed of the news, newest first; an item without a title is named by its first words."""
    page_url = context.urls.absolute(NEWS_PATH)
    texts = [
        DatedText(
            f"{page_url}#{item.anchor}",
            item.title or _shorten(item.body_plain, 90),
            item.date,
            with_links(item.body_html, context.urls.absolute_link_from(page_url)),
            language=item.language,
        )
        for item in items
    ]
    site = context.site
    return dated_feed(
        feed_title(context, site.profile.name, "news"),
        site.config.language,
        site.profile.name,
        page_url,
        context.urls.absolute(FEED_PATH),
        texts,
        context.urls.permanent,
    )


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"
