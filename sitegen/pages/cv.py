"""The CV (SPEC §7): `content/cv.yaml` -> `output/cv/index.html`.

    sections:
      - title: Positions
        profile: true            # also shown on the profile (true, or how many entries)
        entries:
          - title: Associate Professor
            org: University of Nordhaven
            location: Nordhaven, Norway
            start: 2022          # a year, 2022-09 or a date; no end: to the present
            end: present
            details: Markdown with inline LaTeX
            url: https://...
      - title: Publications
        publications: selected   # the featured records; all; or {type: article, since: 2020}

Printed (or saved as PDF), the page is the CV alone: the stylesheet's print rules
leave out the menu, buttons and footer. What every page shows of it is only that
there is one (a menu entry); the profile shows the sections marked `profile`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from functools import partial
from typing import Any

from sitegen.errors import Location, Problem
from sitegen.homepage.fields import Fields
from sitegen.homepage.selection import PublicationFilter, filter_from, unknown_ids_warnings
from sitegen.latex import unconverted_hint
from sitegen.load import parse_yaml
from sitegen.markup import hrefs, link_left_out, render_markdown
from sitegen.model import KindContent, Site
from sitegen.pages import ContentFiles, Page, RenderContext, register_page_kind
from sitegen.values import value_class

CV_FILE = "content/cv.yaml"
CV_FILES = (CV_FILE, "content/cv.yml")
SECTION_FIELDS = {"title", "entries", "publications", "profile"}
ENTRY_FIELDS = {"title", "org", "location", "start", "end", "date", "details", "url"}


@value_class
class CvEntry:
    title: str
    org: str = ""
    location: str = ""
    start: str = ""  # ISO text: '2019', '2019-09' or '2019-09-01'
    end: str = ""
    date: str = ""  # a single time instead of start and end
    ongoing: bool = False  # started, not ended: 'to the present'
    details_html: str = ""
    url: str = ""
    lines: tuple[int, int] = (0, 0)  # the lines of its url and its details, for what is said of their links


@value_class
class CvSection:
    title: str
    entries: tuple[CvEntry, ...] = ()
    publications: PublicationFilter | None = None  # a section of records instead of entries
    on_profile: int = 0  # how many of its entries the profile shows (-1: all)


@value_class
class Cv:
    path: str
    sections: tuple[CvSection, ...]
    language: str = ""  # a site in several languages: the language of a translation (content/cv.fr.yaml), "" for the default's
    translations: tuple[Cv, ...] = ()  # the default's: its translations, which prepare gives each language (languages.SiteTranslation)

    def profile_sections(self) -> tuple[CvSection, ...]:
        """The sections the profile shows, cut to the entries it shows."""
        shown = []
        for section in self.sections:
            if section.on_profile and section.entries:
                entries = section.entries if section.on_profile < 0 else section.entries[: section.on_profile]
                shown.append(CvSection(section.title, entries))
        return tuple(shown)


def cv_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    cv = site.kind_value("cv")
    if cv is None:
        return
    yield from links_of(cv)


def links_of(cv: Cv) -> Iterable[tuple[Location | None, str, str]]:
    """The links a CV's entries hold, for `PageKind.links`: the site's CV's, a language's."""
    for entry in (entry for section in cv.sections for entry in section.entries):
        url_line, details_line = entry.lines
        if entry.url:
            yield Location(cv.path, url_line or None), f"link of '{entry.title}'", entry.url
        yield from ((Location(cv.path, details_line or None), f"link in the details of '{entry.title}'", url) for url in hrefs(entry.details_html))


def cv_in_language(content: KindContent, language: str, languages: tuple[str, ...]) -> KindContent | None:
    """The CV of `language` (`PageKind.language_content`): the default language's without its translations; another
    language's translation (content/cv.fr.yaml), or None for a language with none (its profile shows the default
    language's CV, and its menu leads there)."""
    cv = content.value
    if cv is None or not cv.translations:
        return None
    if language == languages[0]:
        return dataclasses.replace(content, value=dataclasses.replace(cv, translations=()))
    own = next((each for each in cv.translations if each.language == language), None)
    return dataclasses.replace(content, value=own) if own is not None else None


def cv_warnings(site: Site) -> list[Problem]:
    cv = site.kind_value("cv", None)
    if cv is None:
        return []
    lists = [s for s in cv.sections if s.publications is not None]
    problems = unknown_ids_warnings([s.publications for s in lists], site)
    for section in lists if site.entries else ():  # a site with no records yet lists none anywhere
        if section.publications is not None and not section.publications.select(site.entries):
            what = "no record has `featured: true`" if section.publications.featured else "no record fits its settings"
            problems.append(
                Problem(
                    f'section {section.title!r}: {what}, so the CV shows "No publications to show here yet." there (and on paper)',
                    section.publications.where,
                    warning=True,
                )
            )
    return problems


@register_page_kind(
    "cv",
    reads=("content/cv.",),  # cv.yaml (or .yml), and a site in several languages' cv.fr.yaml
    text_suffixes=(".yaml", ".yml"),
    load=lambda files: load_cv(files),
    check=cv_warnings,
    links=cv_links,
    per_language=True,
    language_content=lambda content, language, languages: cv_in_language(content, language, languages),
    own_links=lambda cv, language: links_of(cv),
)
def cv_page(context: RenderContext) -> Iterable[Page]:
    from sitegen.languages import own_language

    content = context.site.content.get("cv")
    if content is None or content.value is None or content.value.language != own_language(context.site):
        return  # no CV; or a language's with none of its own, whose menu leads to the default language's
    cv = content.value
    entries = context.site.entries
    shown = tuple(tuple(s.publications.select(entries)) if s.publications is not None else () for s in cv.sections)
    records = [[(entries[p].key, entries[p].cite_key) for p in positions] for positions in shown]
    yield Page("cv/index.html", (content.key, records), partial(_render, context, cv, shown))


def _render(context: RenderContext, cv: Cv, shown: tuple[tuple[int, ...], ...]) -> bytes:
    return context.render("cv.html", context.views.cv_page(cv, shown))


def load_cv(files: ContentFiles) -> tuple[Cv | None, bool, list[Problem]]:
    """The CV, or None (no file, or a mistake in it: reported); site-wide: whether there is one. A site in several
    languages: with its translations (`content/cv.fr.yaml`)."""
    problems: list[Problem] = []
    cv = _read_cv(files, CV_FILES, problems)
    translations = _translations(files, cv, problems)
    if cv is None:
        return None, False, problems
    return (dataclasses.replace(cv, translations=translations) if translations else cv), True, problems


def _translations(files: ContentFiles, cv: Cv | None, problems: list[Problem]) -> tuple[Cv, ...]:
    """The CV in each language of the site but the default (content/cv.fr.yaml), each read as the CV is; one in a
    language the site does not have, or of a site in one language, or with no CV to translate, is a warning."""
    found = []
    for path, (language, original) in sorted(_cv_translation_files(files, problems).items()):
        if original not in CV_FILES or language not in files.languages[1:]:
            continue  # another file's, or a language the site does not have (said)
        if cv is None:
            problems.append(Problem(f"a translation of the CV, which is {CV_FILE}: the site has none; left out", Location(path, 1), warning=True))
        elif (translated := _read_cv(files, (path,), problems)) is not None:
            found.append(dataclasses.replace(translated, language=language))
    return tuple(found)


def _cv_translation_files(files: ContentFiles, problems: list[Problem]) -> dict[str, tuple[str, str]]:
    """cv.<tag>.yaml -> (tag, the file it translates): `translation_files`'s, or on a site in one language a warning
    for each (only a site in several reads them)."""
    from sitegen.languages import file_language
    from sitegen.pages.pages import translation_files

    if files.languages:
        return translation_files(files, problems, (".yaml", ".yml"))
    for path in sorted(files.texts):
        if (named := file_language(path, ())) is not None and named[1] in CV_FILES:
            said = f"a CV in '{named[0]}' is read only by a site in several languages (languages: [..., {named[0]}] in site.yaml); left out"
            problems.append(Problem(said, Location(path, 1), warning=True))
    return {}


def _read_cv(files: ContentFiles, paths: tuple[str, ...], problems: list[Problem]) -> Cv | None:
    """The CV of the first of `paths` the site has, or None (none, or a mistake in it: reported)."""
    present = [path for path in paths if path in files.texts]
    if not present:
        return None
    if len(present) > 1:
        problems.append(Problem(f"two CV files: use {CV_FILE} alone", Location(present[1], 1)))
        return None
    path = present[0]
    data, problem = parse_yaml(files.texts[path], path)
    if problem is not None:
        problems.append(problem)
        return None
    if data is None:
        return None  # only comments: no CV yet
    fields = Fields(data, path, problems)
    if not isinstance(data, dict) or not isinstance(data.get("sections"), list):
        fields.problem(
            "sections" if isinstance(data, dict) and "sections" in data else None,
            "expected 'sections:', a list of sections, each with a title and entries (or publications: selected)",
        )
        return None
    fields.unknown({"sections"})
    found: list[Problem] = []
    sections = [_section(item, path, found) for item in data["sections"]]
    problems += found
    if any(not p.warning for p in found):
        return None
    return Cv(path, tuple(s for s in sections if s is not None))


def _section(data: Any, path: str, problems: list[Problem]) -> CvSection | None:
    fields = Fields(data, path, problems)
    if not isinstance(data, dict):
        problems.append(Problem("a CV section should be a mapping: title: ..., entries: [...]", Location(path, _line_of_item(data))))
        return None
    fields.unknown(SECTION_FIELDS)
    title = fields.inline("title", required=True)
    on_profile = _on_profile(fields)
    if "publications" in data:
        if "entries" in data:
            fields.problem("entries", "a section lists either entries or publications, not both")
        chosen = _publications(data["publications"], fields)
        return CvSection(title, publications=chosen, on_profile=0) if chosen is not None else None
    entries = data.get("entries")
    if not isinstance(entries, list):
        fields.problem(
            "entries" if "entries" in data else None, "expected 'entries:', a list of entries (title, org, start, end, ...), or 'publications: selected'"
        )
        return None
    made = [_entry(item, path, problems) for item in entries]
    return CvSection(title, tuple(e for e in made if e is not None), on_profile=on_profile)


def _on_profile(fields: Fields) -> int:
    value = fields.data.get("profile", False)
    if value is True:
        return -1
    if value is False:
        return 0
    if isinstance(value, int) and value > 0:
        return value
    fields.problem("profile", f"field 'profile': expected true, false or how many entries to show, got {value!r}")
    return 0


def _publications(value: Any, fields: Fields) -> PublicationFilter | None:
    where = fields.where("publications")
    if value == "all":
        return PublicationFilter(where=where)
    if value == "selected":
        return PublicationFilter(featured=True, where=where)
    if isinstance(value, dict):
        return filter_from(dict(value), where, fields.problems)
    fields.problem("publications", f"field 'publications': expected selected, all, or settings such as {{type: article}}, got {value!r}")
    return None


def _entry(data: Any, path: str, problems: list[Problem]) -> CvEntry | None:
    if not isinstance(data, dict):
        problems.append(Problem("a CV entry should be a mapping: title: ..., org: ..., start: ...", Location(path, _line_of_item(data))))
        return None
    fields = Fields(data, path, problems)
    fields.unknown(ENTRY_FIELDS)
    title = fields.inline("title", required=True)
    start, end, date = fields.when("start"), fields.when("end", allow_present=True), fields.when("date")
    if date and (start or end):
        fields.problem("date", "an entry has a date, or a start and an end, not both")
    if end and not start and data.get("start") is None:  # a start written wrong has its own message
        fields.problem("end", "an entry with an end needs a start")
    if start and end and end != "present" and end < start:
        fields.problem("end", f"the entry ends ({end}) before it starts ({start})")
    unsafe: list[str] = []
    details = render_markdown(fields.text("details"), unsafe=unsafe)
    for tex in details.unconverted:
        fields.warn("details", f"field 'details': LaTeX shown as source, cannot convert {tex}{unconverted_hint(tex)}")
    for url in unsafe:
        fields.warn("details", f"field 'details': {link_left_out(url)}")
    entry = CvEntry(
        title=title,
        org=fields.inline("org"),
        location=fields.inline("location"),
        start=start,
        end="" if end == "present" else end,
        date=date,
        ongoing=bool(start) and end in ("", "present"),
        details_html=details.html,
        url=fields.url("url"),
        lines=(fields.line("url"), fields.line("details")),
    )
    return None if fields.failed else entry


def _line_of_item(data: Any) -> int:
    return getattr(data, "line", 0) or 1
