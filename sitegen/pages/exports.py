"""The site's machine-readable files and the files it copies (SPEC §3).

publications.bib, publications.ris, records.json, feed.xml, robots.txt, .nojekyll, CNAME and the
static files, with the stylesheet of site.yaml's colours and fonts. The sitemap is made by the render stage from
every kind's pages.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from sitegen.exports import joined
from sitegen.exports.feed import FEED_SIZE, atom_feed
from sitegen.exports.jsonld import record_json_line, records_json
from sitegen.exports.ris import publications_ris
from sitegen.exports.sitemap import robots_txt
from sitegen.homepage.appearance import MAIN_STYLESHEET, STYLE_PATH
from sitegen.pages import Page, RenderContext, feed_title, register_page_kind


@register_page_kind("exports")
def export_files(context: RenderContext) -> Iterable[Page]:
    site, urls = context.site, context.urls
    yield Page("publications.bib", (context.everything,), lambda: _bibtex(context), every_record=True)
    yield Page("records.json", (context.everything,), lambda: _records_json(context), every_record=True)
    yield Page("publications.ris", (context.everything,), lambda: _ris(context), every_record=True)
    newest = [(entry.key, entry.cite_key) for entry in site.entries[:FEED_SIZE]]
    yield Page(
        "feed.xml",
        (newest,),
        lambda: atom_feed(
            site,
            urls.absolute("feed.xml"),
            urls.absolute("index.html"),
            context.views.record_absolute_url,
            feed_title(context, site.profile.name, "publications"),
            urls.permanent,
            context.views.record_feed_id,
        ),
    )
    yield Page("robots.txt", (), lambda: robots_txt(urls.absolute("sitemap.xml")))
    yield Page(".nojekyll", (), lambda: b"")
    if site.config.cname:
        cname = site.config.cname
        yield Page("CNAME", (cname,), lambda: cname.encode() + b"\n")


@register_page_kind("static")
def static_files(context: RenderContext) -> Iterable[Page]:
    # site.yaml's colours and fonts: at the end of the theme's style.css, which every page links first (no inline
    # <style>, which a Content-Security-Policy refuses, and no request more), or a stylesheet of their own (views.py)
    style = str(context.views.style)
    merged = bool(style) and MAIN_STYLESHEET in context.static_sources
    for name, source in context.static_sources.items():
        path = f"static/{name}"
        if merged and name == MAIN_STYLESHEET:
            yield Page(path, (context.input_digest(source), style), functools.partial(_with_style, context, source, style))
            continue
        yield Page(path, (context.input_digest(source),), functools.partial(context.input_file, source))
    if style and not merged:
        yield Page(STYLE_PATH, (style,), lambda: style.encode())


def _with_style(context: RenderContext, source: str, style: str) -> bytes:
    return context.input_file(source).rstrip(b"\n") + b"\n\n/* site.yaml: accent, accent_dark, font, heading_font */\n" + style.encode() + b"\n"


def _bibtex(context: RenderContext) -> bytearray:
    return joined((context.views.bibtex(entry).encode() for entry in context.site.entries), b"\n")


def _ris(context: RenderContext) -> bytearray:
    views = context.views
    return publications_ris(context.site.entries, views.record_absolute_url, views.fragments, views.absolute_work_links)


def _records_json(context: RenderContext) -> bytearray:
    views, pieces = context.views, context.views.fragments
    entries = context.site.entries
    lines = (
        pieces.get(
            "records.json", entry, lambda e: record_json_line(e, views.record_absolute_url(e), views.absolute_links(e), views.absolute_image(e)), shared=False
        )
        for entry in entries
    )
    return records_json(context.site, lines, len(entries))
