"""A page per record (SPEC §3: records/<slug>/index.html)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from sitegen.errors import Location
from sitegen.model import Site
from sitegen.pages import Page, RenderContext, register_page_kind
from sitegen.urls import WEB_PREFIXES, record_path


def record_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    """Each record's links and picture, where each is written (a link at its own line when the file says), and
    what it is, with the record's id: one .bib file holds many records. Web addresses, most of a large site's
    links, are left out (see `LinkList`)."""
    for entry in site.entries:
        record = entry.record
        for kind, url in record.links.items():
            if not url.startswith(WEB_PREFIXES):
                yield record.where_item("links", kind), f"record '{record.id}', link '{kind}'", url
        if record.image:
            yield record.where("image"), f"record '{record.id}', image", record.image


@register_page_kind("records", links=record_links)
def record_pages(context: RenderContext) -> Iterable[Page]:
    for entry in context.site.entries:
        # the record as converted (its key), its cite key, the projects it belongs to (sitegen.pages.projects), and what
        # its list item shows of other records: nothing
        make = partial(_record_page, context, entry)
        yield Page(record_path(entry.slug), (entry.key, entry.cite_key, context.views.record_projects(entry)), make)


def _record_page(context: RenderContext, entry) -> bytes:
    return context.render("record.html", context.views.record_page(entry))
