"""Pages a theme adds: `pages:` in theme.yaml, each a template rendered with the site's values.

    pages:
      - template: colophon.html      # in the theme's templates/
        path: colophon/index.html    # where it goes in output/

Such a page may show anything of the site, so it depends on everything. A page gets the
profile's values with every record on the one page (`years`, `groups`, `posts`, `icons`, ...),
and `records`: every record's values.
On a site in several languages, each language has the page (under '<tag>/' but the default's), in its strings.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sitegen.errors import Location, Problem
from sitegen.pages import Page, RenderContext, register_page_kind

if TYPE_CHECKING:
    from sitegen.inputs import Listing
    from sitegen.theme import Theme

PAGE_SHAPE = "{template: colophon.html, path: colophon/index.html}"


@dataclass(frozen=True)
class ThemePage:
    template: str
    path: str  # in output/
    where: Location  # its entry in the theme.yaml that declares it


@register_page_kind("theme-pages", per_language=True)
def theme_pages(context: RenderContext) -> Iterable[Page]:
    for page in _in_language(context):
        make = functools.partial(_render, context, page.template, page.path)
        yield Page(page.path, (page.template, context.everything), make, where=page.where)


def _in_language(context: RenderContext) -> list[ThemePage]:
    """The declared pages a language's context makes: all on a site in one language and in the default language; in
    another, each but those declared for a language already (a path under a language's tag, `de/colophon/index.html`,
    made by the default's context as it is) and those whose version in this language the theme declares itself."""
    config = context.site.config
    if not config.languages or config.language == config.languages[0]:
        return list(context.theme_pages)
    declared = {page.path for page in context.theme_pages}
    tagged = tuple(f"{tag}/" for tag in config.languages)
    return [page for page in context.theme_pages if not page.path.startswith(tagged) and f"{config.language}/{page.path}" not in declared]


def _render(context: RenderContext, template: str, path: str) -> bytes:
    return context.render(template, _values(context, path))


def _values(context: RenderContext, path: str) -> dict[str, Any]:
    values = context.views.theme_page(path)
    values["records"] = [context.views.record_item(entry) for entry in context.site.entries]
    return values


def declared_pages(theme: Theme, listing: Listing) -> tuple[list[ThemePage], list[Problem]]:
    """The pages the theme chain's theme.yaml declares (the extending theme's `pages:` wins), and what is
    wrong with the entries: each a problem at its line, naming the entry and the mistake."""
    from sitegen.theme import settings_source, template_names

    entries, where = settings_source(theme, listing, "pages")
    if entries is None:
        return [], []
    if not isinstance(entries, list):
        return [], [Problem(f"field 'pages': expected a list of pages, each {PAGE_SHAPE}; got {_shown(entries)}", where)]
    names = template_names(theme, listing)
    pages, problems = [], []
    for number, entry in enumerate(entries, start=1):
        place = Location(where.path, getattr(entry, "line", None) or where.line)
        found = _entry_problems(entry, number, names)
        problems += [Problem(message, place) for message in found]
        if not found:
            pages.append(ThemePage(entry["template"], entry["path"], place))
    return pages, problems


def _entry_problems(entry: Any, number: int, templates: set[str]) -> list[str]:
    """What is wrong with the `number`th entry of `pages:`, as messages."""
    name = f"page {number} of 'pages'"
    if not isinstance(entry, dict):
        return [f"{name}: expected a mapping {PAGE_SHAPE}, got {_shown(entry)}"]
    messages = [
        f"{name}: no '{key}' ({what})" for key, what in (("template", "the template to render"), ("path", "where the page goes in output/")) if key not in entry
    ]
    messages += [f"{name}: unknown field '{key}' (a page has 'template' and 'path')" for key in entry if key not in ("template", "path")]
    messages += [f"{name}: {message}" for message in (_template_problem(entry, templates), _path_problem(entry)) if message]
    return messages


def _template_problem(entry: dict[str, Any], templates: set[str]) -> str | None:
    template = entry.get("template")
    if "template" not in entry:
        return None
    if not isinstance(template, str) or not template.strip():
        return f"field 'template': expected a template's name (colophon.html), got {_shown(template)}"
    if template in templates:
        return None
    meant = difflib.get_close_matches(template, sorted(templates), n=1, cutoff=0.6)
    hint = f"; did you mean '{meant[0]}'?" if meant else " (a template goes in the theme's templates/)"
    return f"template '{template}' is in no templates/ folder of the site or its themes{hint}"


def _path_problem(entry: dict[str, Any]) -> str | None:
    path = entry.get("path")
    if "path" not in entry:
        return None
    if not isinstance(path, str) or not path.strip():
        return f"field 'path': expected a file's path in output/ (colophon/index.html), got {_shown(path)}"
    if _leaves_output(path):
        return f"path '{path}' is not a file inside output/; write it from output/'s root, as colophon/index.html"
    return None


def _leaves_output(path: str) -> bool:
    """'/abs/index.html', '../x.html', 'a//b.html', 'folder/': no file inside output/."""
    return path.startswith("/") or "\\" in path or any(part in ("", ".", "..") for part in path.split("/"))


def _shown(value: Any) -> str:
    """A value as a message shows it: 'colophon.html', 5, a list, a mapping."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)
