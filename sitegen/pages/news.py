"""News (SPEC §7): `content/news/**/*.md` -> `output/news/index.html` and `output/news/feed.xml`.

    ---
    date: 2025-03-05      # required
    title: ERC grant      # optional
    ---
    Markdown with inline LaTeX.

The profile shows the latest few (views.py: NEWS_ON_PROFILE). What every page
shows of the news is only that there is some (a menu entry, the feed's link).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import PurePosixPath

from sitegen.errors import Location, Problem
from sitegen.exports.feed import ATOM
from sitegen.homepage.frontmatter import front_matter_fields
from sitegen.markup import hrefs, render_markdown
from sitegen.model import Site
from sitegen.pages import ContentFiles, Page, RenderContext, register_page_kind
from sitegen.urls import with_unique_anchors
from sitegen.values import value_class

FOLDER = "content/news/"
FIELDS = {"date", "title"}
NEWS_PATH = "news/index.html"
FEED_PATH = "news/feed.xml"
FEED_SIZE = 50
_ANCHOR_CHARACTERS = re.compile(r"[^A-Za-z0-9_-]+")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


@value_class
class NewsItem:
    path: str
    date: str  # ISO day
    title: str  # may be ""
    body_html: str
    body_plain: str
    anchor: str  # its id on the news page: 'news-2025-03-05-erc-grant'


def news_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    for item in site.kind_value("news", ()):
        yield from ((Location(item.path), "link in the text", url) for url in hrefs(item.body_html))


@register_page_kind("news", reads=(FOLDER,), load=lambda files: load_news(files), links=news_links)
def news_pages(context: RenderContext) -> Iterable[Page]:
    content = context.site.content.get("news")
    if content is None or not content.value:
        return
    items = content.value
    yield Page(NEWS_PATH, (content.key,), lambda: context.render("news.html", context.views.news_page(items)))
    yield Page(FEED_PATH, (content.key,), lambda: news_feed(context, items))


def load_news(files: ContentFiles) -> tuple[tuple[NewsItem, ...], bool, list[Problem]]:
    """Every news item, newest first; site-wide: whether there are any."""
    problems: list[Problem] = []
    items = []
    for path, text in sorted(files.texts.items()):
        if path.endswith(".md") and not PurePosixPath(path).name.startswith("_"):  # '_draft.md': not published
            item = _read_item(path, text, problems)
            if item is not None:
                items.append(item)
    items.sort(key=lambda item: (item.date, item.path), reverse=True)
    return tuple(with_unique_anchors(items)), bool(items), problems


def _read_item(path: str, text: str, problems: list[Problem]) -> NewsItem | None:
    read = front_matter_fields(text, path, FIELDS, problems)
    if read is None:
        return None
    fields, body, body_line = read
    date = fields.day("date", required=True)
    title = fields.inline("title")
    if not body.strip() and not title:
        fields.problem(None, "a news item needs a title or some text below its front matter")
    converted = render_markdown(body)
    for tex in converted.unconverted:
        problems.append(Problem(f"LaTeX shown as source, cannot convert {tex}", Location(path, body_line), warning=True))
    if fields.failed:
        return None
    stem = _ANCHOR_CHARACTERS.sub("-", PurePosixPath(path).stem).strip("-")
    anchor = f"news-{stem}" if stem.startswith(date) else f"news-{date}-{stem}"
    return NewsItem(path, date, title, converted.html, converted.plain, anchor)


def news_feed(context: RenderContext, items: tuple[NewsItem, ...]) -> bytes:
    """An Atom feed of the news, newest first; dates from the items, never from the clock."""
    site, urls = context.site, context.urls
    page_url = urls.absolute(NEWS_PATH)
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang": site.config.language})
    _add(feed, "id", page_url)
    _add(feed, "title", f"{site.profile.name}: news")
    shown = items[:FEED_SIZE]
    _add(feed, "updated", f"{shown[0].date}T00:00:00Z")
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", type="application/atom+xml", href=urls.absolute(FEED_PATH))
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=page_url)
    _add(ET.SubElement(feed, f"{{{ATOM}}}author"), "name", site.profile.name)
    _add(feed, "generator", "sitegen")
    for item in shown:
        entry = ET.SubElement(feed, f"{{{ATOM}}}entry")
        url = f"{page_url}#{item.anchor}"
        _add(entry, "id", url)
        _add(entry, "title", item.title or _shorten(item.body_plain, 90))
        _add(entry, "updated", f"{item.date}T00:00:00Z")
        _add(entry, "published", f"{item.date}T00:00:00Z")
        ET.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=url)
        if item.body_html:
            content = _add(entry, "content", item.body_html)
            content.set("type", "html")
    ET.indent(feed)
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True) + b"\n"


def _add(parent: ET.Element, tag: str, text: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM}}}{tag}")
    element.text = _NOT_XML.sub("", text)
    return element


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"
