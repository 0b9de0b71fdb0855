"""Atom feeds: feed.xml of the records, newest first, and the feeds of dated texts (news, blog posts).

Built with ElementTree so that it is well-formed whatever the records hold;
dates come from the records, never from the clock, so builds are reproducible.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sitegen.model import Entry, Site

ATOM = "http://www.w3.org/2005/Atom"
FEED_SIZE = 50


def _timestamp(entry: Entry) -> str:
    record = entry.record
    day = record.date.isoformat() if record.date else f"{record.year:04d}-01-01"
    return f"{day}T00:00:00Z"


def atom_feed(site: Site, feed_url: str, home_url: str, record_url: Callable[[Entry], str]) -> bytes:
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed")
    _add(feed, "id", home_url)
    _add(feed, "title", f"{site.profile.name}: publications")
    if site.config.description:
        _add(feed, "subtitle", site.config.description)
    entries = site.entries[:FEED_SIZE]
    _add(feed, "updated", max((_timestamp(e) for e in entries), default="1970-01-01T00:00:00Z"))
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", type="application/atom+xml", href=feed_url)
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=home_url)
    author = ET.SubElement(feed, f"{{{ATOM}}}author")
    _add(author, "name", site.profile.name)
    _add(feed, "generator", "sitegen")
    for entry in entries:
        item = ET.SubElement(feed, f"{{{ATOM}}}entry")
        url = record_url(entry)
        _add(item, "id", url)
        _add(item, "title", entry.title.plain)
        _add(item, "updated", _timestamp(entry))
        _add(item, "published", _timestamp(entry))
        ET.SubElement(item, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=url)
        for person in entry.authors:
            _add(ET.SubElement(item, f"{{{ATOM}}}author"), "name", person.name)
        for subject in entry.subjects:
            ET.SubElement(item, f"{{{ATOM}}}category", term=_xml_text(subject.code), label=_xml_text(subject.name))
        if entry.abstract_plain:
            _add(item, "summary", entry.abstract_plain)
    ET.indent(feed)
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True) + b"\n"


@dataclass(frozen=True)
class DatedText:
    """One entry of a feed of the site's own texts."""

    url: str
    title: str
    day: str  # ISO day
    html: str = ""  # the text as HTML ('' for none)
    summary: str = ""


def dated_feed(title: str, language: str, owner: str, page_url: str, feed_url: str, texts: Sequence[DatedText]) -> bytes:
    """An Atom feed of `texts` (newest first, at least one): the news or the blog."""
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed", {"{http://www.w3.org/XML/1998/namespace}lang": language})
    _add(feed, "id", page_url)
    _add(feed, "title", title)
    shown = texts[:FEED_SIZE]
    _add(feed, "updated", f"{shown[0].day}T00:00:00Z")
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", type="application/atom+xml", href=feed_url)
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=page_url)
    _add(ET.SubElement(feed, f"{{{ATOM}}}author"), "name", owner)
    _add(feed, "generator", "sitegen")
    for text in shown:
        entry = ET.SubElement(feed, f"{{{ATOM}}}entry")
        _add(entry, "id", text.url)
        _add(entry, "title", text.title)
        _add(entry, "updated", f"{text.day}T00:00:00Z")
        _add(entry, "published", f"{text.day}T00:00:00Z")
        ET.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=text.url)
        if text.summary:
            _add(entry, "summary", text.summary)
        if text.html:
            _add(entry, "content", text.html).set("type", "html")
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
