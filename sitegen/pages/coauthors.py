"""Co-authors (SPEC §7): `content/coauthors.yaml` makes their names links wherever they appear.

    Jonas Berg: https://jonasberg.example.org
    Camille Laurent:
      url: https://camille.example.org
      variants: ['C. Laurent', 'Laurent, Camille']

Names compare as written (LaTeX accents converted, 'Last, First' turned round,
case, accents and punctuation set aside: enrich.normalise_name); not by initials,
as the owner's name does (names.form_score): 'C. Laurent' is a link when listed. Every page that shows
an author list may show any of them, so the whole table is site-wide: part of
every page's key. The kind has no pages of its own.
"""

from __future__ import annotations

from collections.abc import Iterable

from sitegen.enrich import normalise_name
from sitegen.errors import Location, Problem
from sitegen.homepage.fields import Fields
from sitegen.load import parse_yaml
from sitegen.pages import ContentFiles, Page, RenderContext, register_page_kind

COAUTHORS_FILES = ("content/coauthors.yaml", "content/coauthors.yml")


@register_page_kind("coauthors", reads=COAUTHORS_FILES, load=lambda files: load_coauthors(files))
def coauthor_pages(context: RenderContext) -> Iterable[Page]:
    return ()


def load_coauthors(files: ContentFiles) -> tuple[None, tuple[tuple[str, str], ...], list[Problem]]:
    """Site-wide: (normalised name, URL) of every name and variant, sorted."""
    problems: list[Problem] = []
    table: dict[str, tuple[str, str]] = {}  # normalised name -> (URL, the name as written)
    for path in COAUTHORS_FILES:
        if path not in files.texts:
            continue
        data, problem = parse_yaml(files.texts[path], path)
        if problem is not None:
            problems.append(problem)
            continue
        if data is None:
            continue
        if not isinstance(data, dict):
            problems.append(Problem("expected a mapping of names to URLs (Jonas Berg: https://...)", Location(path, 1)))
            continue
        fields = Fields(data, path, problems)
        for name, value in data.items():
            _add_coauthor(str(name), value, fields, table)
    return None, tuple(sorted((name, url) for name, (url, _) in table.items())), problems


def _add_coauthor(name: str, value: object, fields: Fields, table: dict[str, tuple[str, str]]) -> None:
    variants: list[str] = []
    if isinstance(value, dict):
        entry = Fields(value, fields.path, fields.problems)
        entry.unknown({"url", "variants"})
        url = entry.url("url")
        if not url:
            if "url" not in value:
                fields.problem(name, f"co-author '{name}': field 'url' is required")
            return
        written = value.get("variants", [])
        if isinstance(written, str):
            written = [written]
        if not isinstance(written, list) or not all(isinstance(v, str) for v in written):
            entry.problem("variants", f"co-author '{name}': variants should be a list of names")
            return
        variants = written
    elif isinstance(value, str):
        url = fields.checked_url(name, value)
        if not url:
            return
    else:
        fields.problem(name, f"co-author '{name}': expected a URL or {{url: ..., variants: [...]}}")
        return
    for written_name in [name, *variants]:
        key = normalise_name(written_name)
        if not key:
            continue
        known = table.get(key)
        if known is not None and known[0] != url:
            fields.problem(name, f"the name '{written_name}' is also {known[1]}'s, with another URL: one name, one link")
            continue
        table[key] = (url, name)
