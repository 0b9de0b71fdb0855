"""Talks (SPEC §7): `content/talks/**/*.yaml` -> `output/talks/index.html`, newest first.

    title: Elastic training on preemptible GPUs   # required
    type: Invited talk                            # what kind: Tutorial, Keynote, Poster, ... (as written)
    event: MLSys 2025                             # where
    url: https://mlsys.org/2025/                  # the event's page (its name links there)
    date: 2025-05-14                              # required
    location: Santa Clara, CA
    links: {slides: static/talks/mlsys25.pdf, video: https://...}
    abstract: Markdown with inline LaTeX

A file holds one talk, or a list of them. What every page shows of the talks is
only that there are some (a menu entry).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from sitegen.errors import Location, Problem
from sitegen.homepage.fields import Fields
from sitegen.latex import unconverted_hint
from sitegen.load import parse_yaml
from sitegen.markup import hrefs, link_left_out, render_markdown
from sitegen.model import Site
from sitegen.pages import ContentFiles, Page, RenderContext, register_page_kind
from sitegen.urls import with_unique_anchors
from sitegen.values import value_class

FOLDER = "content/talks/"
TALK_SUFFIXES = (".yaml", ".yml")
FIELDS = {"title", "type", "event", "url", "date", "location", "links", "abstract"}
TALKS_PATH = "talks/index.html"
_ANCHOR_CHARACTERS = re.compile(r"[^A-Za-z0-9]+")


@value_class
class Talk:
    path: str
    line: int
    title: str
    event: str
    date: str  # ISO day
    location: str
    links: tuple[tuple[str, str], ...]  # (kind, URL) as written
    abstract_html: str
    anchor: str
    link_lines: tuple[int, ...] = ()  # the line of each of `links`
    kind: str = ""  # what kind of talk, as written: "Tutorial", "Keynote", "Invited talk"
    event_url: str = ""  # the event's page, as written


def talk_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    for talk in site.kind_value("talks", ()):
        where = Location(talk.path, talk.line)
        lines = talk.link_lines or (talk.line,) * len(talk.links)
        yield from ((Location(talk.path, line), f"link '{kind}'", url) for (kind, url), line in zip(talk.links, lines))
        yield from ((where, "link in the abstract", url) for url in hrefs(talk.abstract_html))
        if talk.event_url:
            yield (where, "field 'url'", talk.event_url)


@register_page_kind("talks", reads=(FOLDER,), load=lambda files: load_talks(files), links=talk_links, text_suffixes=TALK_SUFFIXES)
def talks_page(context: RenderContext) -> Iterable[Page]:
    content = context.site.content.get("talks")
    if content is None or not content.value:
        return
    talks = content.value
    yield Page(TALKS_PATH, (content.key,), lambda: context.render("talks.html", context.views.talks_page(talks)))


def load_talks(files: ContentFiles) -> tuple[tuple[Talk, ...], bool, list[Problem]]:
    """Every talk, newest first; site-wide: whether there are any."""
    problems = [
        Problem(f"not read: talks are YAML files ({' or '.join(TALK_SUFFIXES)})", Location(path), warning=True)
        for path in files.others
        if not path.rsplit("/", 1)[1].startswith("_")
    ]
    talks: list[Talk] = []
    for path, text in sorted(files.texts.items()):
        if path.rsplit("/", 1)[1].startswith("_"):
            continue  # '_draft.yaml': not published
        data, problem = parse_yaml(text, path)
        if problem is not None:
            problems.append(problem)
            continue
        if data is None:
            continue  # only comments
        for item in data if isinstance(data, list) else [data]:
            talk = _talk(item, path, problems)
            if talk is not None:
                talks.append(talk)
    talks.sort(key=lambda talk: (talk.date, talk.path, -talk.line), reverse=True)
    unique = with_unique_anchors(talks)
    return tuple(unique), bool(unique), problems


def talk_anchor(date: str, title: str) -> str:
    """A talk's id on the talks page (the first of its date and title; a second gets -2): 'talk-2023-05-22-compound-splitting'.
    `title` as shown, its LaTeX converted (sitegen.markup.render_inline's `plain`)."""
    return f"talk-{date}-{_ANCHOR_CHARACTERS.sub('-', title.lower()).strip('-')[:40].strip('-')}"


def _talk(data: Any, path: str, problems: list[Problem]) -> Talk | None:
    if not isinstance(data, dict):
        problems.append(Problem("expected a talk (title: ..., date: ..., event: ...) or a list of talks", Location(path, getattr(data, "line", 0) or 1)))
        return None
    fields = Fields(data, path, problems)
    fields.unknown(FIELDS)
    title = fields.inline("title", required=True)
    date = fields.day("date", required=True)
    links = fields.links("links")
    unsafe: list[str] = []
    abstract = render_markdown(fields.text("abstract"), unsafe=unsafe)
    for tex in abstract.unconverted:
        fields.warn("abstract", f"field 'abstract': LaTeX shown as source, cannot convert {tex}{unconverted_hint(tex)}")
    for url in unsafe:
        fields.warn("abstract", f"field 'abstract': {link_left_out(url)}")
    talk = Talk(
        path=path,
        line=fields.line(),
        title=title,
        event=fields.inline("event"),
        kind=fields.inline("type"),
        event_url=fields.url("url"),
        date=date,
        location=fields.inline("location"),
        links=tuple(links.items()),
        link_lines=tuple(fields.link_lines("links").get(kind, fields.line()) for kind in links),
        abstract_html=abstract.html,
        anchor=talk_anchor(date, title),
    )
    return None if fields.failed else talk
