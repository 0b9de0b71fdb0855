"""Themes are data: `theme.yaml`, `templates/`, `static/`.

A theme is looked up first in the site's own `themes/<name>/`, then among the
themes that ship with sitegen. A site's `templates/` shadows the theme's
templates by file name, and its `static/` shadows the theme's static files.

Templates are read from the input listing (so through the site's jail, never
through a link that leaves it) and run in Jinja's immutable sandbox: a template
can print and loop over the values it is given, and cannot reach Python's
internals, the file system or the operating system.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import jinja2
import jinja2.sandbox

from sitegen.errors import Location, Problem
from sitegen.inputs import BUNDLED_PREFIX, Listing
from sitegen.load import parse_yaml

SITE_TEMPLATES = "templates/"
SITE_STATIC = "static/"


@dataclass(frozen=True)
class Theme:
    name: str
    prefix: str  # its folder as input paths start: 'themes/mine/' or '<sitegen>/themes/default/'
    parent: Theme | None = None

    def chain(self) -> list[Theme]:
        """This theme, then the themes it extends."""
        return [self] + (self.parent.chain() if self.parent else [])


class ThemeError(Exception):
    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(str(problem))


def available_themes(listing: Listing) -> list[str]:
    found = set()
    for name in listing.files:
        for prefix in ("themes/", BUNDLED_PREFIX):
            if name.startswith(prefix) and "/templates/" in name[len(prefix) :]:
                found.add(name[len(prefix) :].split("/", 1)[0])
    return sorted(found)


def find_theme(name: str, listing: Listing, where: Location | None = None, _seen: tuple[str, ...] = ()) -> Theme:
    """Resolve a theme by name; raises ThemeError naming the themes there are."""
    for prefix in (f"themes/{name}/", f"{BUNDLED_PREFIX}{name}/"):
        if any(path.startswith(f"{prefix}templates/") for path in listing.files):
            parent_name = _settings(prefix, listing).get("extends")
            parent = None
            if parent_name and str(parent_name) not in _seen + (name,):
                parent = find_theme(str(parent_name), listing, where, _seen + (name,))
            return Theme(name, prefix, parent)
    found = ", ".join(available_themes(listing)) or "none"
    raise ThemeError(Problem(f"field 'theme': unknown theme '{name}'; themes found: {found}", where))


def theme_settings(theme: Theme, listing: Listing) -> dict[str, Any]:
    """The theme's theme.yaml, over those of the themes it extends."""
    settings: dict[str, Any] = {}
    for member in reversed(theme.chain()):
        settings.update(_settings(member.prefix, listing))
    return settings


def _settings(prefix: str, listing: Listing) -> dict[str, Any]:
    path = f"{prefix}theme.yaml"
    if path not in listing.files:
        return {}
    try:
        text = listing.read_bytes(path).decode("utf-8")
    except (OSError, UnicodeError) as error:  # a broken theme is the site's problem, not a crash
        raise ThemeError(Problem(f"cannot read theme settings: {error}", Location(path))) from error
    data, problem = parse_yaml(text, path)
    if problem is not None:
        raise ThemeError(problem)
    return dict(data) if isinstance(data, dict) else {}


def template_prefixes(theme: Theme) -> list[str]:
    """Where templates are looked up, first match wins."""
    return [SITE_TEMPLATES] + [f"{member.prefix}templates/" for member in theme.chain()]


def theme_inputs(theme: Theme, listing: Listing) -> list[str]:
    """The input files that shape every page: templates and theme settings."""
    prefixes = tuple(template_prefixes(theme)) + tuple(f"{member.prefix}theme.yaml" for member in theme.chain())
    return sorted(name for name in listing.files if name.startswith(prefixes))


class ListingLoader(jinja2.BaseLoader):
    """Templates from the input listing: the first of `prefixes` that has the name."""

    def __init__(self, listing: Listing, prefixes: list[str]):
        self.listing = listing
        self.prefixes = prefixes

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        for prefix in self.prefixes:
            path = f"{prefix}{template}"
            if path in self.listing.files:
                try:
                    source = self.listing.read_bytes(path).decode("utf-8")
                except (OSError, UnicodeError) as error:
                    raise jinja2.TemplateNotFound(f"{template} ({path}: {error})") from error
                return source, path, lambda: True
        raise jinja2.TemplateNotFound(template)


def make_environment(theme: Theme, listing: Listing) -> jinja2.Environment:
    """A sandboxed environment over the theme's templates (and the site's, which shadow them).

    `{% extends "!theme/base.html" %}` reaches the theme's own file even when the site shadows it.
    """
    theme_loader = ListingLoader(listing, [f"{member.prefix}templates/" for member in theme.chain()])
    return jinja2.sandbox.ImmutableSandboxedEnvironment(
        loader=jinja2.ChoiceLoader([ListingLoader(listing, template_prefixes(theme)), jinja2.PrefixLoader({"!theme": theme_loader}, delimiter="/")]),
        autoescape=True,
        auto_reload=False,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def static_sources(theme: Theme, listing: Listing) -> dict[str, str]:
    """Output name under static/ -> input path; the site's static/ wins over the theme's."""
    sources: dict[str, str] = {}
    for prefix in [f"{member.prefix}static/" for member in reversed(theme.chain())] + [SITE_STATIC]:
        for name in listing.under(prefix):
            sources[name[len(prefix) :]] = name
    return dict(sorted(sources.items()))
