"""404.html, which GitHub Pages serves for any missing path; on a site in several languages, each language's too
(`fr/404.html`), which a host that serves the nearest 404.html (Cloudflare Pages), or a rule (Netlify's
`/fr/* /fr/404.html 404`), shows for a missing address under `/fr/`."""

from __future__ import annotations

from collections.abc import Iterable

from sitegen.pages import Page, RenderContext, register_page_kind


@register_page_kind("not-found", per_language=True)
def not_found_page(context: RenderContext) -> Iterable[Page]:
    subjects = context.views.subject_list_inputs()
    # shown at any missing address: no versions named (hreflang, the switcher's links lead to each language's home)
    yield Page("404.html", (subjects,), lambda: context.render("404.html", context.views.not_found_page()), in_sitemap=False, alternates=False)
