"""404.html, which GitHub Pages serves for any missing path."""

from __future__ import annotations

from collections.abc import Iterable

from sitegen.pages import Page, RenderContext, register_page_kind


@register_page_kind("not-found")
def not_found_page(context: RenderContext) -> Iterable[Page]:
    subjects = context.views.subject_list_inputs()
    yield Page("404.html", (subjects,), lambda: context.render("404.html", context.views.not_found_page()))
