"""The profile: the person and every shown record, split into pages past `records_per_page`."""

from __future__ import annotations

from collections.abc import Iterable

from sitegen.errors import Location
from sitegen.markup import hrefs
from sitegen.model import Site
from sitegen.pages import Page, RenderContext, register_page_kind
from sitegen.pages.listing import listing_pages
from sitegen.views import profile_link_url


def profile_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    profile = site.profile
    yield from ((profile.where_item("links", kind), f"link '{kind}'", profile_link_url(kind, value)) for kind, value in profile.links.items())
    yield from ((profile.where("bio"), "link in the bio", url) for url in hrefs(site.bio_html))


@register_page_kind("profile", links=profile_links, per_language=True)
def profile_pages(context: RenderContext) -> Iterable[Page]:
    site, views = context.site, context.views
    shared = (
        len(site.entries),
        views.site_counts_works,  # the count's word ("works"), which a record of another page changes on this one
        [(entry.key, entry.cite_key) for entry in site.featured],
        views.subject_list_inputs(),
        views.profile_inputs(),  # the latest news, the CV's sections marked `profile`
        views.metrics(),  # total citations and h-index: of every record, not only those of a page
    )
    yield from listing_pages(context, range(len(site.entries)), "", "index.html", views.index_list_page, shared)
