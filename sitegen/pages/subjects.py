"""A page per subject (SPEC §3: subjects/<slug>/index.html), split like the profile."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from sitegen.pages import Page, RenderContext, register_page_kind
from sitegen.pages.listing import listing_pages
from sitegen.urls import subject_path


@register_page_kind("subjects")
def subject_pages(context: RenderContext) -> Iterable[Page]:
    views = context.views
    for subject, positions in views.subject_positions.items():
        prefix = subject_path(subject.slug).removesuffix("index.html")
        values = partial(views.subject_list_page, subject, len(positions))
        # the count's word ("works") is the whole list's: a record of another page changes it on this one
        shared = (subject, len(positions), views.subject_counts_works(subject))
        yield from listing_pages(context, positions, prefix, "subject.html", values, shared)
