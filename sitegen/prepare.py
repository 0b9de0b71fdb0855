"""Stages 1-3 of the build: load, validate and enrich a site into the `Site` its pages show.

`build.build_site` imports this module only when there is something to build:
a build with nothing to do stops before it, without loading Jinja, YAML or the
site model. `check`, `build` and the dev server all start from `prepare_site`.
"""

from __future__ import annotations

import dataclasses
import difflib
import io
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sitegen.cache import ContentCache, cache_key, digest
from sitegen.enrich import KeptEntries, NameChange, enrich_site, owner_not_highlighted, usable
from sitegen.errors import ContentError, Location, Problem, quoted
from sitegen.fragments import Fragments
from sitegen.inputs import Fingerprints, Listing, list_inputs, names_windows_cannot_hold
from sitegen.languages import unused_profile_translations
from sitegen.load import SETTINGS_PATHS, RawSite, RecordFile, load_site
from sitegen.model import KindContent, Profile, Record, Site, SiteConfig
from sitegen.people.attribution import people_setting
from sitegen.text_files import read_text
from sitegen.theme import Theme, ThemeError, find_theme, static_sources, theme_inputs, theme_options
from sitegen.theme_checks import theme_problems, translation_problems
from sitegen.urls import SiteUrls, normal_base_url, page_collisions, url_scheme, windows_path
from sitegen.validate import command_line_base_url_problems, validate_site


@dataclass
class Memory:
    """What a long-lived caller (the dev server) keeps between builds, as live objects."""

    files: dict[str, RecordFile] = field(default_factory=dict)  # load.file_key -> the reader's answer
    records: dict[str, tuple[list[Record], list[Problem]]] = field(default_factory=dict)  # load.file_key -> validated
    converted: dict[str, list] = field(default_factory=dict)  # entry key -> converted text
    entries: KeptEntries = field(default_factory=KeptEntries)  # the last build's entries
    fragments: Fragments = field(default_factory=lambda: Fragments(keep_between_builds=True))  # per-record pieces of output
    loaded: bool = False  # filled from the cache file already

    def forget_inputs(self) -> None:
        """Drop the record files as read and validated: a one-off build renders from the site model alone,
        and forked workers start from a smaller process."""
        self.files.clear()
        self.records.clear()


@dataclass
class Prepared:
    """A site through stages 1-3: what `check`, `build` and the dev server all start from."""

    site: Site
    theme: Theme
    warnings: list[Problem]
    listing: Listing
    digests: dict[str, str]  # input path -> content digest


def prepare_site(
    site_dir: Path,
    listing: Listing,
    digests: dict[str, str],
    base_url: str | None = None,
    memory: Memory | None = None,
    drafts: bool = False,
) -> Prepared:
    """Load, validate and enrich; raises ContentError with every problem found. `drafts`: the page kinds read
    their drafts ('_name.md') too."""
    memory = memory if memory is not None else Memory()
    raw = load_site(listing, digests, memory.files)
    theme, theme_problem, options = None, None, {}
    if raw.site is not None and isinstance(raw.site.data, dict):  # the theme first: its options are settings of site.yaml
        try:
            theme = find_theme(_theme_name(raw.site.data), listing, _settings_location(raw, "theme"))
            options = theme_options(theme, listing)
        except ThemeError as error:
            theme, theme_problem = None, error.problem
    valid = validate_site(raw, memory.records, options)
    listed = listing.warnings + names_windows_cannot_hold(listing)
    problems = listed + valid.problems
    if valid.config is None:
        theme = None
    elif theme_problem is not None:
        problems.append(theme_problem)
    elif theme is not None:
        site_address = normal_base_url(base_url) if base_url is not None else valid.config.base_url
        problems += theme_problems(theme, listing, valid.config.language, _settings_location(raw, "language"), SiteUrls(site_address).base_path)
        for language in valid.config.languages[1:]:  # a site in several: each language's strings, as the default's
            found = translation_problems(theme, listing, language, _settings_location(raw, "languages"), "languages")
            problems += [problem for problem in found if problem not in problems]  # fr-CA's and fr's files: fr.yaml's once
    _use_math_macros(valid.config)  # before any text is converted: the pages' below, the records' in enrich
    languages = valid.config.languages if valid.config is not None else ()
    content, content_problems = load_kind_content(listing, digests, drafts, languages)  # read before stopping: every mistake at once
    errors = [p for p in problems + content_problems if not p.warning]
    if errors or valid.config is None or valid.profile is None or theme is None:
        # every mistake at once: the content's warnings too (a theme's would follow from its errors: a template unused)
        warnings = [p for p in listed + valid.problems + content_problems if p.warning] if errors else []
        raise ContentError([*errors, *warnings] if errors else problems)
    base_url_warnings: list[Problem] = []
    if base_url is not None:
        config_base_url, base_url_warnings = _overriding_base_url(base_url)
        config = dataclasses.replace(valid.config, base_url=config_base_url)
    else:
        config = valid.config
    people = content["people"].value if "people" in content and content["people"].value else ()
    changes = [NameChange.of(person.name, person.name_variants, person.former_names) for person in people if person.former_names]  # a member's
    site, enrich_warnings = enrich_site(config, valid.profile, valid.records, Path(site_dir), memory.converted, memory.entries, changes)
    site = dataclasses.replace(site, content=content)
    enrich_warnings = [p for p in content_problems if p.warning] + enrich_warnings + unused_profile_translations(listing, config.languages)
    if config.languages:
        site, language_problems = _with_translations(site, listing, valid.profile)
        if any(not problem.warning for problem in language_problems):  # profile.fr.yaml that cannot be read
            raise ContentError(language_problems)
        enrich_warnings += language_problems
    if not people and people_setting(config.extra) != "authors":
        enrich_warnings += owner_not_highlighted(site.entries)
    if collisions := page_collisions(site):
        raise ContentError(collisions)
    warnings = (
        base_url_warnings + [p for p in problems if p.warning] + enrich_warnings + _picture_file_warnings(site, theme, listing, raw) + kind_warnings(site)
    )
    return Prepared(site, theme, warnings, listing, digests)


def _with_translations(site: Site, listing: Listing, profile: Profile) -> tuple[Site, list[Problem]]:
    """A site in several languages: each language's own part (sitegen.languages), the per-language kinds keeping the
    default language's items."""
    from sitegen.languages import kinds_in_language, translations_of

    languages = site.config.languages
    translations, problems = translations_of(site, listing, profile, languages)
    content = {**site.content, **kinds_in_language(site, languages[0], languages)}
    return dataclasses.replace(site, content=content, translations=translations), problems


def _overriding_base_url(base_url: str) -> tuple[str, list[Problem]]:
    """`--base-url`, normalised and checked as site.yaml's base_url is, and its warnings."""
    problems = command_line_base_url_problems(base_url)
    if errors := [message for message, warning in problems if not warning]:
        raise ContentError(f"--base-url: {errors[0]}")
    return normal_base_url(base_url), [Problem(f"--base-url: {message}", warning=True) for message, _ in problems]


def _use_math_macros(config: SiteConfig | None) -> None:
    """site.yaml's `math_macros` for every formula of this build; names converted with other macros are forgotten."""
    from sitegen.enrich import forget_converted_names
    from sitegen.latex import set_math_macros

    if set_math_macros(config.math_macros if config is not None else {}):
        forget_converted_names()


def load_kind_content(
    listing: Listing, digests: dict[str, str], drafts: bool = False, languages: tuple[str, ...] = ()
) -> tuple[dict[str, KindContent], list[Problem]]:
    """What each page kind with content of its own reads (news, talks, pages, ...), loaded by the kind; `languages`:
    site.yaml's, for the kinds that read a file per language ('about.fr.md')."""
    from sitegen.pages import PAGE_KINDS, ContentFiles, has_suffix
    from sitegen.pages.pages import intro_paths, read_intros

    content: dict[str, KindContent] = {}
    problems: list[Problem] = []
    for kind in PAGE_KINDS.values():
        if kind.load is None:
            continue
        paths = sorted({path for prefix in kind.reads for path in listing.under(prefix)})
        intros = intro_paths(paths, kind.reads[0]) if kind.intro else []
        texts, unreadable, others = {}, [], []
        for path in paths:
            if kind.text_suffixes is not None and not has_suffix(path, kind.text_suffixes) and path not in intros:
                others.append(path)  # a picture of a post's folder: not text
                continue
            text, problem = read_text(listing, path)
            if problem is None:
                texts[path] = text
            elif path not in SETTINGS_PATHS:  # site.yaml is reported by the load stage, which reads it too
                unreadable.append(problem)
        files = ContentFiles(texts, unreadable, drafts, tuple(others), languages)
        value, site_wide, found = kind.load(files.without(intros))
        problems += unreadable + list(found)
        key = digest([(path, digests[path]) for path in paths], drafts)
        content[kind.name] = KindContent(value, site_wide, key, read_intros(files, [path for path in intros if path in texts], problems) if intros else {})
    return content, problems


def kind_warnings(site: Site) -> list[Problem]:
    """What each page kind's check finds wrong with its content once the records are known."""
    from sitegen.pages import PAGE_KINDS

    return [problem for kind in PAGE_KINDS.values() if kind.check is not None for problem in kind.check(site)]


def read_inputs(site_dir: Path) -> tuple[Listing, dict[str, str]]:
    """Every input file of the site and its content digest, with no cache."""
    listing = list_inputs(Path(site_dir))
    return listing, digests_of(Fingerprints().of(listing))


def site_key(prepared: Prepared) -> str:
    """What every page depends on besides its own inputs: settings, profile, theme and libraries."""
    site, listing = prepared.site, prepared.listing
    theme_files = [(path, prepared.digests[path]) for path in theme_inputs(prepared.theme, listing)]
    statics = sorted(static_sources(prepared.theme, listing))
    site_wide = sorted((name, content.site_wide) for name, content in site.content.items())
    # a site in several languages: what every page of a language shows of it (its profile, its kinds' site-wide parts:
    # its menu); a page's own text and which languages it is in (its alternates, its switcher) are its inputs
    # (render._kind_pages)
    languages = [
        (each.language, each.profile, each.bio_html, sorted((name, part.site_wide) for name, part in each.content.items())) for each in site.translations
    ]
    languages_key = (languages,) if languages else ()
    return digest(cache_key(), site.config, site.profile, site.bio_html, site.subjects, theme_files, statics, site_wide, *languages_key)


def fill_memory(memory: Memory, content: ContentCache) -> None:
    """What the content cache holds, as far as it is what enrichment makes (a cache file may hold anything)."""
    if isinstance(content.entries, dict):
        memory.converted.update((key, data) for key, data in content.entries.items() if usable(data))
    memory.loaded = True


def content_of(memory: Memory) -> ContentCache:
    """What the content cache keeps between processes: the converted text of each record.

    Record files are read again by the next process (libyaml reads them faster than their
    records come back from JSON); a long-lived process keeps them in `Memory`.
    """
    return ContentCache(memory.converted)


def _theme_name(settings: dict[str, Any]) -> str:
    """The theme site.yaml names (`default` when it names none, or names it wrongly: validation reports that)."""
    name = settings.get("theme")
    return name.strip() if isinstance(name, str) and name.strip() else "default"


def _settings_location(raw: RawSite, field_name: str) -> Location | None:
    if raw.site is None:
        return None
    data = raw.site.data
    line = data.line_of(field_name) if hasattr(data, "line_of") else None
    return Location(raw.site.display_path, line)


def _picture_file_warnings(site: Site, theme: Theme, listing: Listing, raw: RawSite) -> list[Problem]:
    """The photos' and the records' pictures' warnings, against one list of the files of static/."""
    statics = static_sources(theme, listing)
    return _photo_warnings(site, raw, statics, listing) + _picture_warnings(site, statics, listing)


def _photo_warnings(site: Site, raw: RawSite, statics: Mapping[str, str], listing: Listing) -> list[Problem]:
    """A warning for each photo (the profile's, each person's) that is no file of static/: the page shows none."""
    line = raw.profile.data.line_of("photo") if raw.profile is not None and hasattr(raw.profile.data, "line_of") else None
    found = _photo_problems(site.profile.photo, Location(raw.profile.display_path if raw.profile else "content/profile.yaml", line), statics, listing)
    for person in site.kind_value("people", ()):
        found += _photo_problems(person.photo, Location(person.path, person.lines.get("photo")), statics, listing)
    return found


LARGE_PICTURE = 1_000_000  # bytes: more, for a photo shown 160 pixels wide or a picture at most 44rem, is a camera's or a
# screenshot's file as it came


def _size(name: str | None, statics: Mapping[str, str], listing: Listing) -> int:
    """The size of a file of static/ by its name there (0 for none)."""
    return listing.files.get(statics[name], (0, 0))[0] if name is not None and name in statics else 0


def _photo_problems(photo: str | None, where: Location, statics: Mapping[str, str], listing: Listing) -> list[Problem]:
    if not photo:
        return []
    if photo in statics:
        size = _size(photo, statics, listing)
        found = [_located_photo_problem(photo, statics[photo], where, listing)] if statics[photo].startswith("static/") else []
        if size <= LARGE_PICTURE:
            return [problem for problem in found if problem is not None]
        return [problem for problem in found if problem is not None] + [
            Problem(
                f"field 'photo': {photo} is {size / 1_000_000:.1f} MB, which every visitor loads for a picture shown 160 "
                "pixels wide: a copy about 500 pixels wide (a JPEG of some 100 kB) looks the same and loads at once",
                where,
                warning=True,
            )
        ]
    if (windows := windows_path(photo)) and windows[0] is None:  # 'C:\\Users\\me\\Pictures\\me.jpg'
        name = photo.replace("\\", "/").rpartition("/")[2]
        said = f"'{photo}' is a file on your computer (this looks like a Windows path), which no visitor can reach"
        return [
            Problem(f"field 'photo': {said}: copy it into static/ and write its name there, photo: {quoted(name)}; the photo is left out", where, warning=True)
        ]
    if url_scheme(photo) in ("http", "https"):
        hint = "; photo is a file in static/, not an address: save the picture there and write its name"
    elif (name := photo.rsplit("static/", 1)[-1]) in statics:  # written from the site's root, or as its address there
        hint = f"; did you mean '{name}' (photo is a path in static/)?"
    else:
        own = sorted(name for name, path in statics.items() if path.startswith("static/"))  # the site's, not its theme's
        close = [name for name in own if name.lower() == photo.lower()] or difflib.get_close_matches(photo, own, n=1, cutoff=0.75)
        hint = f"; did you mean '{close[0]}'?" if close else ""
    return [Problem(f"field 'photo': no file static/{photo.lstrip('/')} in the site; the photo is left out{hint}", where, warning=True)]


def _picture_warnings(site: Site, statics: Mapping[str, str], listing: Listing) -> list[Problem]:
    """A warning for each record whose `image` is a file of static/ of more than LARGE_PICTURE: every visitor of its
    page loads it (its largest element, the last to show on a phone), and every list that shows its thumbnail."""
    found = []
    for record in (entry.record for entry in site.entries if entry.record.image):
        path = record.image.strip().removeprefix("./").lstrip("/")
        size = _size(path.removeprefix("static/") if path.startswith("static/") else None, statics, listing)
        if size > LARGE_PICTURE:
            found.append(
                Problem(
                    f"field 'image': {record.image.strip()} is {size / 1_000_000:.1f} MB, which every visitor of the record's page loads, "
                    "and every list that shows its thumbnail: a copy about 1,400 pixels wide (a JPEG of some 200 kB) looks the same "
                    "and loads at once",
                    record.where("image"),
                    warning=True,
                )
            )
    return found


def _located_photo_problem(photo: str, path: str, where: Location, listing: Listing) -> Problem | None:
    """A warning for a photo of the site whose EXIF data says where it was taken (a phone's GPS position, at home say):
    published as it is, anyone who saves the picture reads it. None for one that does not, or is no picture."""
    import exifread  # only for a site with a photo

    logging.getLogger("exifread").setLevel(logging.CRITICAL)  # "File format not recognized": not the visitor's business
    try:
        tags = exifread.process_file(io.BytesIO(listing.read_bytes(path)), details=False, stop_tag="GPS GPSLongitude")
    except Exception:  # a file exifread cannot read has no position it could find either
        return None
    if not any(str(name).startswith(("GPS GPSLatitude", "GPS GPSLongitude")) for name in tags):
        return None
    return Problem(
        f"field 'photo': {photo} says where it was taken (a GPS position in its EXIF data), which anyone who saves the picture "
        f"can read: remove it before publishing (exiftool -gps:all= {path}, or your photo app's 'remove location')",
        where,
        warning=True,
    )


def digests_of(fingerprints: dict[str, tuple[int, int, str]]) -> dict[str, str]:
    """Input path -> content digest, from the (size, mtime, digest) of each input."""
    return {path: row[2] for path, row in fingerprints.items()}
