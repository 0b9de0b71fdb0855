"""Atom feeds: feed.xml of the records, newest first, and the feeds of dated texts (news, blog posts).

Built with ElementTree so that it is well-formed whatever the records hold;
dates come from the records, never from the clock, so builds are reproducible.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sitegen.model import Entry, Site, listed_positions
from sitegen.notices import with_standing

ATOM = "http://www.w3.org/2005/Atom"
FEED_SIZE = 50


def _timestamp(entry: Entry) -> str:
    """The record's day, as much of it as is known: its date, else the first of its month (BibTeX's `month`), else of its year."""
    record = entry.record
    month = record.extra.get("month")
    if record.date:
        day = record.date.isoformat()
    elif type(month) is int and 1 <= month <= 12:
        day = f"{record.year:04d}-{month:02d}-01"
    else:
        day = f"{record.year:04d}-01-01"
    return f"{day}T00:00:00Z"


def atom_feed(
    site: Site,
    feed_url: str,
    home_url: str,
    record_url: Callable[[Entry], str],
    title: str = "",
    permanent: Callable[[str], str] = str,
    record_id: Callable[[Entry], str] | None = None,
) -> bytes:
    """The records' feed, newest first; `title`: its title in the site's language (pages.feed_title; default: the owner's name);
    `permanent`: the id of a page's absolute URL (SiteUrls.permanent); `record_id`: a record's entry id (default:
    its page's address)."""
    from sitegen.views import records_language_of  # views imports this package: asked for when a feed is written

    entries = site.entries[:FEED_SIZE]
    updated = max((_timestamp(e) for e in entries), default="1970-01-01T00:00:00Z")
    owner = site.profile.name
    feed = _feed(home_url, title or owner, updated, feed_url, owner, subtitle=site.config.description, language=site.config.language, permanent=permanent)
    for entry in entries:
        title = with_standing(entry.title.plain, entry.record, ": ")  # "Retracted: <title>", as the lists mark it
        url = record_url(entry)
        item = _entry(feed, url, title, _timestamp(entry), record_id(entry) if record_id else permanent(url))
        # an English paper in a Persian site's feed, or in a French one's whose records are English (records_language)
        # as the pages mark it (views._other_language): not a Russian title
        records_language = records_language_of(entry.title.plain + "\n" + entry.abstract_plain, site.config.records_language)
        if (language := entry.record.language or records_language) and language.lower() != site.config.language.lower():
            item.set("{http://www.w3.org/XML/1998/namespace}lang", language)
        for position in listed_positions(entry.authors):  # a collaboration's thousands: the first ones and the owner, as lists name them
            _add(ET.SubElement(item, f"{{{ATOM}}}author"), "name", entry.authors[position].name)
        for subject in entry.subjects:
            ET.SubElement(item, f"{{{ATOM}}}category", term=_xml_text(subject.code), label=_xml_text(subject.name))
        if entry.abstract_plain:
            _add(item, "summary", entry.abstract_plain)
    return _written(feed)


@dataclass(frozen=True)
class DatedText:
    """One entry of a feed of the site's own texts."""

    url: str
    title: str
    day: str  # ISO day
    html: str = ""  # the text as HTML ('' for none)
    summary: str = ""
    categories: tuple[str, ...] = ()  # a post's tags
    language: str = ""  # what it is written in, when its front matter says (an English post in a French blog)


def dated_feed(title: str, language: str, owner: str, page_url: str, feed_url: str, texts: Sequence[DatedText], permanent: Callable[[str], str] = str) -> bytes:
    """An Atom feed of `texts` (newest first, at least one): the news or the blog; `permanent` as atom_feed's."""
    shown = texts[:FEED_SIZE]
    feed = _feed(page_url, title, f"{shown[0].day}T00:00:00Z", feed_url, owner, language=language, permanent=permanent)
    for text in shown:
        entry = _entry(feed, text.url, text.title, f"{text.day}T00:00:00Z", permanent(text.url))
        if text.language and text.language.lower() != language.lower():
            entry.set("{http://www.w3.org/XML/1998/namespace}lang", text.language)
        if text.summary:
            _add(entry, "summary", text.summary)
        if text.html:
            _add(entry, "content", text.html).set("type", "html")
        for category in text.categories:
            ET.SubElement(entry, f"{{{ATOM}}}category", term=_xml_text(category))
    return _written(feed)


def _feed(
    page_url: str, title: str, updated: str, feed_url: str, owner: str, subtitle: str = "", language: str = "", permanent: Callable[[str], str] = str
) -> ET.Element:
    """A feed's own elements: what it is, since when, where it and its page are, whose it is."""
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang": language} if language else {})
    _add(feed, "id", permanent(page_url))
    _add(feed, "title", title)
    if subtitle:
        _add(feed, "subtitle", subtitle)
    _add(feed, "updated", updated)
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", type="application/atom+xml", href=feed_url)
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=page_url)
    _add(ET.SubElement(feed, f"{{{ATOM}}}author"), "name", owner)
    _add(feed, "generator", "sitegen")
    return feed


def _entry(feed: ET.Element, url: str, title: str, timestamp: str, entry_id: str) -> ET.Element:
    """An entry at `url`; `entry_id` is what a feed reader knows it by, which stays when its address changes."""
    entry = ET.SubElement(feed, f"{{{ATOM}}}entry")
    _add(entry, "id", entry_id)
    _add(entry, "title", title)
    _add(entry, "updated", timestamp)
    _add(entry, "published", timestamp)
    ET.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=url)
    return entry


def _written(feed: ET.Element) -> bytes:
    ET.indent(feed)
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True) + b"\n"


def _add(parent: ET.Element, tag: str, text: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM}}}{tag}")
    element.text = _xml_text(text)
    return element


# Characters XML 1.0 forbids; YAML lets a double-quoted "\x07" through, ElementTree writes it as is.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _xml_text(text: str) -> str:
    return _NOT_XML.sub("", text)
