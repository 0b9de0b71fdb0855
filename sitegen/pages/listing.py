"""Pages that list records: what the profile and subject kinds share."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

from sitegen.pages import Page, RenderContext


def listing_pages(
    context: RenderContext,
    positions: Sequence[int],
    prefix: str,
    template: str,
    values: Callable[..., dict[str, Any]],
    shared: Any,
) -> Iterable[Page]:
    """The pages of one list of records (positions in `site.entries`).

    A page depends on its records, its navigation (number, page count, year links)
    and `shared`: what every page of the list shows besides its own records.
    """
    entries = context.site.entries
    pages = context.views.listing_pages(positions, prefix)
    group_links = pages[0][2]["group_links"] if pages else []  # years, or types (site.yaml group_by)
    for path, chunk, pagination in pages:
        records = [(entries[p].key, entries[p].cite_key) for p in chunk]
        inputs = (template, shared, pagination["number"], len(pages), group_links, records)
        yield Page(path, inputs, partial(_render_list_page, context, template, values, path, chunk, pagination), every_record=True)


def _render_list_page(context: RenderContext, template: str, values: Callable[..., dict[str, Any]], path: str, chunk, pagination) -> bytes:
    return context.render(template, values(path, chunk, pagination))
