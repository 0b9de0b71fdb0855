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

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from sitegen.errors import Location, Problem
from sitegen.homepage.fields import Fields
from sitegen.latex import unconverted_hint
from sitegen.load import parse_yaml
from sitegen.markup import hrefs, link_left_out, render_markdown
from sitegen.model import KindContent, Site
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
    # a site in several languages: the language its file's name gives ('dagstuhl.fr.yaml'), "" for the default's; and
    # on a language's talks page, the default language's talk it shows for want of its own, marked as in that language
    translation: str = ""
    language: str = ""


def talk_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    for talk in site.kind_value("talks", ()):
        yield from links_of(talk)


def links_of(talk: Talk) -> Iterable[tuple[Location | None, str, str]]:
    """The links a talk holds, for `PageKind.links`: the site's talks', a language's."""
    where = Location(talk.path, talk.line)
    lines = talk.link_lines or (talk.line,) * len(talk.links)
    yield from ((Location(talk.path, line), f"link '{kind}'", url) for (kind, url), line in zip(talk.links, lines))
    yield from ((where, "link in the abstract", url) for url in hrefs(talk.abstract_html))
    if talk.event_url:
        yield (where, "field 'url'", talk.event_url)


def talks_in_language(content: KindContent, language: str, languages: tuple[str, ...]) -> KindContent | None:
    from sitegen.languages import items_in_language

    return items_in_language(content, language, languages, lambda talk: talk.translation, language_talks)


@register_page_kind(
    "talks",
    reads=(FOLDER,),
    load=lambda files: load_talks(files),
    links=talk_links,
    text_suffixes=TALK_SUFFIXES,
    per_language=True,
    language_content=talks_in_language,
    intro=True,
    own_links=lambda talks, language: (link for talk in talks if talk.translation == language for link in links_of(talk)),
)
def talks_page(context: RenderContext) -> Iterable[Page]:
    from sitegen.languages import own_language

    content = context.site.content.get("talks")
    if content is None or not content.value:
        return
    talks = content.value
    language = own_language(context.site)
    if language and not any(talk.translation == language for talk in talks):
        return  # a language with no talks of its own: its menu leads to the default language's
    yield Page(TALKS_PATH, (content.key,), lambda: context.render("talks.html", context.views.talks_page(talks)))


def load_talks(files: ContentFiles) -> tuple[tuple[Talk, ...], bool, list[Problem]]:
    """Every talk, newest first; site-wide: whether there are any. A site in several languages: then the talks of
    each file of another language ('dagstuhl.fr.yaml', `translation` fr), which prepare gives that language."""
    from sitegen.pages.pages import translation_files

    problems = [
        Problem(f"not read: talks are YAML files ({' or '.join(TALK_SUFFIXES)})", Location(path), warning=True)
        for path in files.others
        if not path.rsplit("/", 1)[1].startswith("_")
    ]
    translated = translation_files(files, problems, TALK_SUFFIXES) if files.languages else {}
    talks: list[Talk] = []
    own: list[Talk] = []
    for path, text in sorted(files.texts.items()):
        if path.rsplit("/", 1)[1].startswith("_"):
            continue  # '_draft.yaml': not published
        language = translated[path][0] if path in translated else ""
        if language and language not in files.languages[1:]:
            continue  # a language the site does not have, or the default's named (said)
        read = _read_file(path, text, problems)
        if language:
            own += [dataclasses.replace(talk, translation=language) for talk in read]
        else:
            talks += read
    talks.sort(key=lambda talk: (talk.date, talk.path, -talk.line), reverse=True)
    unique = with_unique_anchors(talks)
    return tuple(unique) + tuple(own), bool(unique), problems


def _read_file(path: str, text: str, problems: list[Problem]) -> list[Talk]:
    data, problem = parse_yaml(text, path)
    if problem is not None:
        problems.append(problem)
        return []
    if data is None:
        return []  # only comments
    found = (_talk(item, path, problems) for item in (data if isinstance(data, list) else [data]))
    return [talk for talk in found if talk is not None]


def language_talks(talks: tuple[Talk, ...], language: str, default_language: str) -> tuple[Talk, ...]:
    """A language's talks, newest first: the talks of its own files, and those of each default language's file it has
    none for (marked as in that language, for a screen reader's voice); () when it has none of its own."""
    from sitegen.languages import file_language

    own = [talk for talk in talks if talk.translation == language]
    if not own:
        return ()
    replaced = {named[1] for talk in own if (named := file_language(talk.path, (language,))) is not None}
    kept = [dataclasses.replace(talk, language=default_language) for talk in talks if not talk.translation and talk.path not in replaced]
    merged = sorted(kept + own, key=lambda talk: (talk.date, talk.path, -talk.line), reverse=True)
    return tuple(with_unique_anchors(merged))


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
