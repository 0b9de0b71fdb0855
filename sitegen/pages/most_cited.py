"""The profile's records in another order: most cited first (cited/index.html).

Made when at least one shown record has a citation count (SPEC §6); the profile
links to it beside the total and the h-index.
"""

from __future__ import annotations

from collections.abc import Iterable

from sitegen.pages import Page, RenderContext, register_page_kind
from sitegen.urls import MOST_CITED_PATH


@register_page_kind("most-cited")
def most_cited_page(context: RenderContext) -> Iterable[Page]:
    counted = [entry for entry in context.site.entries if entry.record.citations is not None]
    if not counted:
        return
    # most cited first; ties keep the site's order (newest first)
    ordered = sorted(counted, key=lambda entry: -(entry.record.citations or 0))
    inputs = ([(entry.key, entry.cite_key) for entry in ordered],)
    yield Page(MOST_CITED_PATH, inputs, lambda: context.render("cited.html", context.views.most_cited_page(ordered)))
