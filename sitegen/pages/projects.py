"""Projects: `content/projects/*.md` -> `output/projects/index.html`, a card per project (its picture, title and
description; the active ones before the past ones), and `output/projects/<slug>/index.html`, its page.

    ---
    title: FluxGrid                           # required
    description: Adaptive meshes for rivers   # the card's line and link previews (default: the first paragraph)
    image: mesh.png                           # the card's and page's picture: a file of its folder, or static/...
    image_alt: A river mesh refined at the banks
    status: active                            # or past: listed after the active ones (default: active)
    order: 1                                  # its place among those of its status, lower first (default: by title)
    links: {code: https://github.com/fluxgrid/fluxgrid, website: https://fluxgrid.org}
    records: [Kowalczyk_JOSS_2024, fluxgrid-software]   # its publications, by id or citation key
    subjects: [FluxGrid]                      # and every record of these subjects (a record's `categories`)
    slug: fluxgrid                            # default: the file's (or its folder's) name
    language: en                              # what it is written in, when not the site's language
    toc: true                                 # a table of contents of its sections (its publications too) above its text
    ---
    Markdown with inline LaTeX, and the publications shortcode of content/pages/.

A project may be a folder, as a post may (`content/projects/fluxgrid/index.md` beside `mesh.png`): the other
files of its folder are published beside its page. Its publications are listed under its text as the profile
lists records, and each record's page names the projects it belongs to. A project's page depends on its own
file and the records it shows; the cards on every project's title, description, picture and status. What every
page shows of the projects is only that there are some (a menu entry); a record's page shows the titles and
addresses of its projects (its input, `records.py`). On a site in several languages, `kestrel.fr.md` beside
`kestrel.md` is its French version at fr/projects/kestrel/, taking what it does not write from it.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import PurePosixPath
from typing import Any

from sitegen.errors import Location, Problem, quoted
from sitegen.homepage.fields import Fields
from sitegen.homepage.selection import PublicationFilter, not_shown, unknown_ids_warnings
from sitegen.load import item_line
from sitegen.model import Entry, KindContent, Site
from sitegen.pages import MARKDOWN_SUFFIXES, ContentFiles, Page, RenderContext, register_page_kind
from sitegen.pages.pages import (
    Address,
    ContentPage,
    PagePart,
    bundle_file_pages,
    bundle_files,
    is_bundle,
    not_read,
    read_content_page,
    shown_records,
    texts_in_bundles,
    translation_files,
    unique_addresses,
)
from sitegen.urls import file_slug, is_relative_path, link_preview_problem, picture_elsewhere_problem
from sitegen.values import value_class

FOLDER = "content/projects/"
FIELDS = {"title", "description", "image", "image_alt", "status", "order", "links", "records", "subjects", "slug", "language", "toc"}
STATUSES = ("active", "past")
PROJECTS_PATH = "projects/index.html"


def project_path(slug: str) -> str:
    return f"projects/{slug}/index.html"


@value_class
class ProjectRecords(PublicationFilter):
    """A project's publications: the records its `records` name, and those of its `subjects` (either, where the
    publications shortcode's `ids` and `subject` ask for both)."""

    def select(self, entries: Sequence[Entry]) -> list[int]:
        named = PublicationFilter(ids=self.ids).select(entries) if self.ids else []
        of_subjects = PublicationFilter(subjects=self.subjects).select(entries) if self.subjects else []
        return sorted({*named, *of_subjects})


@value_class
class Project:
    page: ContentPage  # its title, text, description and slug (its address under projects/), its folder's files
    status: str  # 'active' or 'past'
    order: int | None  # its place among the projects of its status, as written
    image: str = ""  # its picture: a path of the site ('projects/fluxgrid/mesh.png', 'static/x.png') or a URL, as resolved
    image_alt: str = ""
    image_line: int = 0
    links: tuple[tuple[str, str], ...] = ()  # (kind, URL) as written
    link_lines: tuple[int, ...] = ()
    records: tuple[tuple[str, int], ...] = ()  # (id as written, its line)
    subjects: tuple[str, ...] = ()
    subjects_line: int = 0
    # a translation ('kestrel.fr.md'): the fields it takes from the project it translates (not written in its own
    # file), and that project's `text_key`, which its page then depends on
    inherited: tuple[str, ...] = ()
    original_key: str = ""

    @property
    def publications(self) -> ProjectRecords | None:
        if not self.records and not self.subjects:
            return None
        return ProjectRecords(ids=tuple(name for name, _ in self.records), subjects=self.subjects)

    @property
    def parts(self) -> tuple[PagePart, ...]:
        """Its text and, under it, its publications: what its page shows."""
        publications = self.publications
        return self.page.parts + ((PagePart(publications=publications),) if publications is not None else ())

    @property
    def shown_page(self) -> ContentPage:
        """Its page as shown: its text, and its publications under it."""
        return dataclasses.replace(self.page, parts=self.parts)


def project_links(site: Site) -> Iterable[tuple[Location | None, str, str]]:
    return links_of_projects(site.kind_value("projects", ()))


def links_of_projects(projects: Iterable[Project]) -> Iterable[tuple[Location | None, str, str]]:
    """The links of each project's text, its `links` and its picture, where each is written; a translation's own
    only (what it takes from the project it translates is that project's)."""
    for project in projects:
        path = project.page.path
        yield from ((Location(path, line), "link in the text", url) for line, url in project.page.links)
        if "links" not in project.inherited:
            yield from ((Location(path, line), f"link '{kind}'", url) for (kind, url), line in zip(project.links, project.link_lines))
        if project.image and "image" not in project.inherited:
            yield Location(path, project.image_line), "image", project.image


def check_projects(site: Site) -> list[Problem]:
    """Warnings that only the records can show: a record id of `records` that names none (said at its line, with
    the id meant), a subject no record has, an id in a publications shortcode of its text that names none."""
    projects = site.kind_value("projects", ())
    if not projects:
        return []  # most sites: no table of every record's ids and subjects to make
    problems = unknown_ids_warnings([part.publications for project in projects for part in project.page.parts if part.publications is not None], site)
    known = {name.casefold(): name for entry in site.entries for name in (entry.record.id, entry.cite_key, *entry.record.aliases)}
    subjects = {subject.casefold() for entry in site.entries for subject in (*entry.record.categories, *(s.name for s in entry.subjects))}
    for project in projects:
        problems += _unknown_records(project, known, site.left_out) + _unknown_subjects(project, subjects)
    return problems


def _unknown_records(project: Project, known: dict[str, str], left_out: dict[str, str]) -> list[Problem]:
    """Each id of its `records` that names no shown record (`known`: every id, citation key and alias, in lower
    case -> as written), at its line, with why the site leaves it out (`left_out`) or the one most likely meant."""
    problems = []
    for name, line in project.records:
        if name.casefold() not in known:
            meant = difflib.get_close_matches(name.casefold(), list(known), n=1, cutoff=0.75)
            hint = f"did you mean '{known[meant[0]]}'?" if meant else "records are named by their `id` (a .bib entry's key)"
            problems.append(Problem(f"field 'records': {not_shown(name, left_out, hint)}", Location(project.page.path, line), warning=True))
    return problems


def _unknown_subjects(project: Project, subjects: set[str]) -> list[Problem]:
    said = "field 'subjects': no record has the subject {} (a record's `categories`, or its subject's name)"
    where = Location(project.page.path, project.subjects_line)
    return [Problem(said.format(quoted(subject)), where, warning=True) for subject in project.subjects if subject.casefold() not in subjects]


def projects_in_language(content: KindContent, language: str, languages: tuple[str, ...]) -> KindContent | None:
    """`PageKind.language_content`: the default language's projects alone; another language's cards (its own
    translations, and the default language's other projects marked as in it), or None when it has none of its own."""
    from sitegen.languages import items_in_language

    return items_in_language(content, language, languages, lambda project: project.page.translation, _language_projects)


def _language_projects(projects: tuple[Project, ...], language: str, default_language: str) -> tuple[Project, ...]:
    from sitegen.languages import with_the_defaults_others

    return _ordered(with_the_defaults_others(projects, language, default_language))


@register_page_kind(
    "projects",
    reads=(FOLDER,),
    load=lambda files: load_projects(files),
    check=check_projects,
    links=project_links,
    text_suffixes=MARKDOWN_SUFFIXES,
    per_language=True,
    language_content=projects_in_language,
    intro=True,
    own_links=lambda projects, language: links_of_projects(project for project in projects if project.page.translation == language),
)
def project_pages(context: RenderContext) -> Iterable[Page]:
    from sitegen.languages import own_language

    content = context.site.content.get("projects")
    if content is None or not content.value:
        return
    projects = content.value
    language = own_language(context.site)
    if language and not any(project.page.translation == language for project in projects):
        return  # a language with no project of its own: its menu leads to the default language's
    for project in projects:
        if project.page.translation != language:
            continue  # a language's list shows the default language's projects it has none for, at their own addresses
        shown, records = shown_records(project.parts, context.site)
        make = partial(_render_project, context, project, shown)
        inputs = (project.page.text_key, project.original_key, records)
        yield Page(project_path(project.page.slug), inputs, make, source=Location(project.page.path, 1))
        yield from bundle_file_pages(context, project.page, project_path(project.page.slug).removesuffix("index.html"))
    cards = [context.views.project_card(project) for project in projects]  # what the list shows of each
    intro = content.intros.get(language)  # the list's own text ('_index.md'), read apart from the projects
    yield Page(PROJECTS_PATH, (cards, intro), lambda: context.render("projects.html", context.views.projects_page(projects)))


def _render_project(context: RenderContext, project: Project, shown: tuple[tuple[int, ...], ...]) -> bytes:
    return context.render("project.html", context.views.project_page(project, shown))


def projects_of_records(site: Site) -> dict[str, tuple[Project, ...]]:
    """Each record's projects (by its slug), in the order the projects are listed: what its page names."""
    found: dict[str, list[Project]] = {}
    entries = site.entries
    for project in site.kind_value("projects", ()):
        publications = project.publications
        for position in publications.select(entries) if publications is not None else ():
            found.setdefault(entries[position].slug, []).append(project)
    return {slug: tuple(projects) for slug, projects in found.items()}


def load_projects(files: ContentFiles) -> tuple[tuple[Project, ...], bool, list[Problem]]:
    """Every project, the active ones first, each status's by `order` then title; site-wide: whether there are any.
    A site in several languages: then the projects of each language but the default ('kestrel.fr.md', `page.translation`
    fr), which prepare gives that language."""
    problems: list[Problem] = []
    translated = translation_files(files, problems) if files.languages else {}  # a site in several languages: 'x.fr.md'
    default = dataclasses.replace(files, texts={path: text for path, text in files.texts.items() if path not in translated}) if translated else files
    bundles, loose = bundle_files(default, FOLDER)
    problems += not_read(loose, "project", FOLDER)
    resources = texts_in_bundles(default, FOLDER, "project", problems)
    read = partial(_read_project, bundles, resources)
    projects = unique_addresses(default.read_markdown(read, problems), lambda project: project.page, "projects/", "project", problems)
    ordered = _ordered(projects)
    return ordered + _translations(files, translated, {project.page.path: project for project in projects}, problems), bool(ordered), problems


def _ordered(projects: Iterable[Project]) -> tuple[Project, ...]:
    return tuple(sorted(projects, key=lambda p: (STATUSES.index(p.status), p.order is None, p.order or 0, p.page.title.casefold(), p.page.path)))


def _translations(files: ContentFiles, translated: dict[str, tuple[str, str]], originals: dict[str, Project], problems: list[Problem]) -> tuple[Project, ...]:
    """The projects of the languages but the default, each at the address of the project it translates (whose
    fields it does not write it takes: its records, picture, links, status and place), a project of its own, with
    none in the default language, at its file's; marked with its language."""
    found: list[Project] = []
    for path, (language, original_path) in sorted(translated.items()):
        if language not in files.languages[1:] or not files.published(path):
            continue  # a language the site does not have (said)
        original = originals.get(original_path)
        bundle = original.page.files if original is not None else ()  # a bundle's translation names its folder's files
        project = _read_project({path: bundle}, set(), path, files.texts[path], problems, original, original_path)
        if project is None:
            continue
        if original is not None and project.page.slug != original.page.slug:
            said = f"a translation is at its project's address, {language}/projects/{original.page.slug}/: slug: {project.page.slug} left out"
            problems.append(Problem(said, Location(path, 1), warning=True))
        slug = original.page.slug if original is not None else project.page.slug
        page = dataclasses.replace(project.page, slug=slug, translation=language, language=project.page.language or language, files=())
        found.append(dataclasses.replace(project, page=page))
    kept: list[Project] = []
    for language in files.languages[1:]:
        mine = [project for project in found if project.page.translation == language]
        kept += unique_addresses(mine, lambda project: project.page, f"{language}/projects/", "project", problems)
    return tuple(kept)


def _read_project(
    bundles: dict[str, tuple[tuple[str, str], ...]],
    resources: set[str],
    path: str,
    text: str,
    problems: list[Problem],
    original: Project | None = None,
    original_path: str = "",
) -> Project | None:
    """A project's file; a translation's (`original_path`: the file it translates, which gives its address, and the
    project read from it, if any, `original`)."""
    if path in resources:
        return None
    address = Address("project", _default_slug(original_path or path), "projects/", folders=False, reserved=("index.html",))
    files = bundles.get(path, ())
    read = read_content_page(path, text, problems, address, partial(_fields, dict(files), original), FIELDS, files)
    if read is None:
        return None
    said, page = read
    if said["image"] in dict(files):  # a file of its folder, published beside its page (a translation's: its original's)
        slug = original.page.slug if original is not None else page.slug
        said["image"] = project_path(slug).removesuffix("index.html") + said["image"]
    return Project(page=page, **said)


def _default_slug(path: str) -> str:
    """A project's default address: its file's name, or its folder's ('fluxgrid/index.md')."""
    file = PurePosixPath(path)
    return file_slug((file.parent.name if is_bundle(path, FOLDER) else file.stem).lstrip("_"))


# what a translation does not write and takes from the project it translates: its fields -> `Project`'s
INHERITED = {
    "status": ("status",),
    "order": ("order",),
    "image": ("image", "image_line"),
    "image_alt": ("image_alt",),
    "links": ("links", "link_lines"),
    "records": ("records",),
    "subjects": ("subjects", "subjects_line"),
}


def _fields(bundle: dict[str, str], original: Project | None, fields: Fields) -> dict[str, Any]:
    """What a project's front matter says besides its title, description and slug: `Project`'s other fields; a
    translation's (`original`: the project it translates), those it does not write as that project has them."""
    said = _written_fields(bundle, fields)
    if original is None:
        return said
    inherited = tuple(name for name in INHERITED if name not in fields.data)
    said.update((value, getattr(original, value)) for name in inherited for value in INHERITED[name])
    return {**said, "inherited": inherited, "original_key": original.page.text_key}


def _written_fields(bundle: dict[str, str], fields: Fields) -> dict[str, Any]:
    image, image_alt, image_line = _image(fields, bundle)
    links = fields.links("links")
    return {
        "status": _status(fields),
        "order": fields.integer("order"),
        "image": image,
        "image_alt": image_alt,
        "image_line": image_line,
        "links": tuple(links.items()),
        "link_lines": tuple(fields.link_lines("links").get(kind, fields.line("links")) for kind in links),
        "records": _records(fields),
        "subjects": fields.texts("subjects"),
        "subjects_line": fields.line("subjects"),
    }


def _status(fields: Fields) -> str:
    written = fields.text("status").lower()
    if not written:
        return "active"
    if written not in STATUSES:
        meant = difflib.get_close_matches(written, STATUSES, n=1, cutoff=0.6)
        hint = f"; did you mean '{meant[0]}'?" if meant else ""
        fields.problem("status", f"field 'status': expected active or past, got {quoted(written)}{hint}")
        return "active"
    return written


def _records(fields: Fields) -> tuple[tuple[str, int], ...]:
    """The ids `records` lists, each with its line (the field's, for a list written on one line)."""
    value = fields.data.get("records")
    names = fields.texts("records")
    if not names or not isinstance(value, list):
        return ()
    lines = [item_line(value, index) or fields.line("records") for index, item in enumerate(value) if " ".join(str(item).split())]
    return tuple(zip(names, lines))


def _image(fields: Fields, bundle: dict[str, str]) -> tuple[str, str, int]:
    """The project's `image`: a file of its folder (by its name there), a path of the site, or a URL (which the
    pages leave out, as they do a record's, and link previews show); its `image_alt` and the line of `image`."""
    image = fields.text("image")
    if image and image not in bundle:
        image = fields.checked_url("image", image)
        if image and not is_relative_path(image) and not picture_elsewhere_problem(image):
            fields.problem("image", f"field 'image': expected a file of the project's folder, a path in the site (static/...) or a URL, got {quoted(image)}")
            image = ""
    if image and (problem := picture_elsewhere_problem(image)):
        fields.warn("image", problem.replace("the record's link preview", "the project's link preview"))
    if image and (problem := link_preview_problem(image)):
        fields.warn("image", problem)
    return image, fields.text("image_alt"), fields.line("image")
