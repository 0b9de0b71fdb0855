"""Pages a theme adds: `pages:` in theme.yaml, each a template rendered with the site's values.

    pages:
      - template: colophon.html      # in the theme's templates/
        path: colophon/index.html    # where it goes in output/

Such a page may show anything of the site, so it depends on everything.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from sitegen.pages import Page, RenderContext, register_page_kind


@register_page_kind("theme-pages")
def theme_pages(context: RenderContext) -> Iterable[Page]:
    for spec in context.theme_settings.get("pages") or []:
        template, path = str(spec["template"]), str(spec["path"])
        yield Page(path, (template, context.everything), functools.partial(_render, context, template, path))


def _render(context: RenderContext, template: str, path: str) -> bytes:
    return context.render(template, _values(context, path))


def _values(context: RenderContext, path: str) -> dict[str, Any]:
    values = context.views.index_page(path)
    values["records"] = [context.views.record_item(entry) for entry in context.site.entries]
    return values
