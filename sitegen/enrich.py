"""Stage 3: from validated records to the `Site` the templates show.

Here the records of one work are merged into one (sitegen.merge),
filtered (hidden, excluded arXiv groups), converted (LaTeX, Markdown), given
slugs and citation keys, and ordered newest first.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import itertools
import re
import unicodedata
from collections.abc import Iterator, Sequence
from operator import attrgetter
from pathlib import Path

from sitegen.cache import digest, problem_data, problem_from
from sitegen.categories import subject_name
from sitegen.errors import Location, Problem
from sitegen.latex import math_macros_key, unconverted_hint
from sitegen.load import TEXT_LINE
from sitegen.markup import headings_under, link_left_out, picture_left_out, render_inline, render_markdown
from sitegen.merge import merge_works
from sitegen.model import ARXIV_VERSION, USABLE_CITE_KEY, ArxivSources, Author, Entry, Profile, Record, Site, SiteConfig, Subject, Text
from sitegen.names import (
    AUTHOR_MARK,
    FAMILY_FIRST_LETTER,
    NameForm,
    csl_name,
    family_in_capitals,
    first_name_first,
    folded_words,
    form_score,
    is_family_first,
    known_forms,
    mark_signs,
    written_editors,
)
from sitegen.notices import attach_notices
from sitegen.record_types import (
    DATABASE_IDS,
    RFC_NAME,
    RFC_SERIES,
    RFC_TEXT_FIELDS,
    database_url,
    doi_url,
    infer_type,
    pmc_url,
    published_doi,
    pubmed_url,
    rfc_number,
    thesis_venue,
)
from sitegen.sources import keeps_cite_keys, owner_aliases
from sitegen.urls import slugify

CITE_KEY_LETTERS = "bcdefghijklmnopqrstuvwxyz"  # after a key that others share ('a' is the bare key)
_CITE_STOPWORDS = {"a", "an", "the", "on", "of", "for", "in", "to", "and", "with", "towards", "toward", "via", "at", "by", "from"}
# the kinds of link that may be the work's own address (BibTeX's `url`, RIS's `UR`, CSL's `URL`), best first: a
# landing page the record gives, then a published work's DOI (the version of record) before its preprint's arXiv
# page, and a preprint's arXiv page before its DOI (arXiv's own); software's is its repository. OpenReview's page of
# a paper is the landing page of ICLR's and TMLR's papers, which have no DOI
OWN_URL_KINDS = ("html", "openreview", "abs", "doi", "website", "pdf", "code", "data")
PUBLISHED_URL_KINDS = ("html", "doi", "openreview", "abs", "website", "pdf", "code", "data")
SOFTWARE_URL_KINDS = ("code", "html", "website", "doi", "abs", "openreview", "pdf", "data")
# dblp's volume of an arXiv preprint in its CoRR journal ('abs/2301.01234'): the arXiv id, which the record holds apart
CORR_VOLUME = re.compile(r"^abs/\S+$", re.IGNORECASE)
# distinct author names converted once per process: a directory of 100,000 records has ~300,000,
# and a cache smaller than that makes each build convert most names again and again
AUTHOR_NAMES_KEPT = 1 << 19


class KeptEntries:
    """The entries of one build, for the next build of a long-lived process (the dev server) to reuse.

    An entry is made from its record, its converted text and its cite key. A
    record read from a file is named by its `source_key` (the file's hash and
    the record's place in it), as its converted text is by its entry key, so
    the same keys make the same entry; the cite key depends on the other
    records and joins the key. Each build keeps only what it used.
    """

    def __init__(self) -> None:
        self._typed: dict[str, Record] = {}  # source key -> the record with its type
        self._entries: dict[str, tuple[Entry, list[Problem]]] = {}  # "entry key cite key" -> entry, its problems
        self._typed_now: dict[str, Record] = {}
        self._entries_now: dict[str, tuple[Entry, list[Problem]]] = {}

    def begin(self) -> None:
        self._typed_now, self._entries_now = {}, {}

    def typed_record(self, record: Record) -> Record:
        if not record.source_key:
            return _typed(record)
        found = self._typed.get(record.source_key) or _typed(record)
        self._typed_now[record.source_key] = found
        return found

    def entry(self, record: Record, data: list, cite_key: str, key: str) -> tuple[Entry, list[Problem]]:
        name = f"{key} {cite_key}"
        made = self._entries.get(name) or entry_from(record, data, cite_key, key)
        self._entries_now[name] = made
        return made

    def end(self) -> None:
        self._typed, self._entries = self._typed_now, self._entries_now
        self.begin()


def enrich_site(
    config: SiteConfig,
    profile: Profile,
    records: list[Record],
    site_dir: Path,
    converted: dict[str, list] | None = None,
    kept: KeptEntries | None = None,
    name_changes: Sequence[NameChange] = (),
) -> tuple[Site, list[Problem]]:
    """The site the templates show, and the warnings of converting its text.

    `converted` maps entry keys (see `entry_key`) to the converted text of earlier
    builds, as data (the build cache, each entry `usable`: checked where it is
    read, `prepare.fill_memory`); it gets this build's, and loses the rest.
    `kept`: the entries of the last build of this process; it gets this build's.
    """
    converted = {} if converted is None else converted
    kept = kept if kept is not None else KeptEntries()
    kept.begin()
    aliases = owner_aliases()
    records = [_owner_named(_marks_apart(record), profile.name, aliases) for record in records]
    for change in (NameChange.of(profile.name, profile.name_variants, profile.former_names), *name_changes):
        if change.former:
            records = [_named_now(record, change) for record in records]
    merge_notes: list[Problem] = []
    merged = [kept.typed_record(record) for record in merge_works(records, merge_notes)]
    merged, notice_notes = attach_notices(merged)
    merge_notes += notice_notes
    excluded_ids = {ARXIV_VERSION.sub("", i) for i in profile.arxiv.exclude_ids}
    unsorted: list[Record] = []
    left_out: list[Record] = []
    for record in merged:
        (left_out if record.hidden or (record.fetched and is_excluded(record, profile.arxiv, excluded_ids)) else unsorted).append(record)
    shown = newest_first(unsorted)
    owner_names, owners_key = _owners(profile)
    owners_key = digest(owners_key, math_macros_key())  # the text is converted with site.yaml's math_macros too
    keys = [entry_key(record, owners_key) for record in shown]
    missing = [(key, record) for key, record in zip(keys, shown) if key not in converted]
    made = _convert_all([record for _, record in missing], owner_names)
    for (key, _), data in zip(missing, made):
        converted[key] = data
    for key in set(converted) - set(keys):
        del converted[key]
    cite_keys = unique_cite_keys(shown, [converted[key][CITE_BASE] for key in keys])
    problems: list[Problem] = merge_notes
    entries = []
    for key, record in zip(keys, shown):
        entry, entry_problems = kept.entry(record, converted[key], cite_keys[record.id], key)
        entries.append(entry)
        problems += entry_problems
    kept.end()
    site = _site(config, profile, tuple(entries), site_dir, len(missing), problems)
    return dataclasses.replace(site, left_out=_why_left_out(left_out)), problems


def _site(config: SiteConfig, profile: Profile, entries: tuple[Entry, ...], site_dir: Path, converted: int, problems: list[Problem]) -> Site:
    subjects: dict[str, Subject] = {}
    members: dict[str, list[int]] = {}  # subject code -> positions in entries
    for position, entry in enumerate(entries):
        for subject in entry.subjects:
            subjects.setdefault(subject.code, subject)
            members.setdefault(subject.code, []).append(position)
    shown_profile, bio_html = profile_text(profile, problems)
    return Site(
        config=config,
        profile=shown_profile,
        bio_html=bio_html,
        entries=entries,
        subjects=tuple(sorted(subjects.values(), key=lambda s: (s.name.lower(), s.code))),
        site_dir=site_dir,
        subject_positions={code: tuple(group) for code, group in members.items()},
        featured=tuple(entry for entry in entries if entry.record.featured),
        converted=converted,
    )


def profile_text(profile: Profile, problems: list[Problem]) -> tuple[Profile, str]:
    """The profile as pages show it (its name, position and affiliation as Unicode) and its bio as HTML; the site's,
    or a language's (`languages.translations_of`)."""
    pictures_elsewhere: list[str] = []
    unsafe: list[str] = []
    bio = render_markdown(profile.bio, pictures_elsewhere, unsafe)  # the owner's own text, as a page's: pictures, headings, tables
    problems += [Problem(f"field 'bio': {picture_left_out(url)}", profile.where("bio"), warning=True) for url in pictures_elsewhere]
    problems += [Problem(f"field 'bio': {link_left_out(url)}", profile.where("bio"), warning=True) for url in unsafe]
    # 'Lena M{\"u}ller', 'Universit{\"a}t' copied from a LaTeX CV: shown as Unicode like record text
    text = {name: render_inline(getattr(profile, name)) for name in ("name", "position", "affiliation")}
    for name, converted in [("bio", bio), *text.items()]:
        _report_unconverted(profile, name, converted.unconverted, problems)
    shown = dataclasses.replace(profile, name=text["name"].plain, position=text["position"].plain, affiliation=text["affiliation"].plain)
    return shown, headings_under(bio.html, top=2)  # the bio's headings beside the profile's sections


CITE_BASE = 7  # where the cite key's base stands in an entry's data


def _convert_all(records: list[Record], owner_names: OwnerNames) -> list[list]:
    return [converted_text(record, owner_names) for record in records]


def converted_text(record: Record, owner_names: OwnerNames) -> list:
    """Everything of a record that LaTeX and Markdown conversion makes, as data (see `entry_from`)."""
    problems: list[Problem] = []
    title = _text(record, "title", record.title, problems)
    source = _text(record, "source", _venue(record), problems)
    unsafe: list[str] = []
    abstract = render_markdown(record.abstract, unsafe=unsafe)
    _report_unconverted(record, "abstract", abstract.unconverted, problems)
    problems += [Problem(f"record '{record.id}', field 'abstract': {link_left_out(url)}", record.where("abstract"), warning=True) for url in unsafe]
    authors = []
    for name, is_owner in zip(record.authors, _owners_among(record.authors, owner_names), strict=True):
        shown, unconverted = _author(name)
        _report_unconverted(record, "authors", unconverted, problems)
        authors.append([shown, is_owner])
    award = _text(record, "award", record.award, problems) if record.award else None
    venue_short = _text(record, "venue_short", record.venue_short, problems) if record.venue_short else None
    editors = _people(record, "editors", owner_names, problems)
    translators = _people(record, "translators", owner_names, problems)
    return [
        title.html,
        title.plain,
        source.html,
        source.plain,
        abstract.html,
        abstract.plain,
        authors,
        cite_base(record, title.plain),
        [problem_data(p) for p in problems],
        [award.html, award.plain] if award else None,
        [venue_short.html, venue_short.plain] if venue_short else None,
        editors,
        translators,
    ]


def _people(record: Record, field_name: str, owner_names: OwnerNames, problems: list[Problem]) -> list[list]:
    """A record's editors or translators as [name shown, is the owner], as its authors are."""
    people = []
    written = written_editors(record.extra, field_name)
    for name, is_owner in zip(written, _owners_among(written, owner_names), strict=True):
        shown, unconverted = _author(name)
        _report_unconverted(record, field_name, unconverted, problems)
        people.append([shown, is_owner])
    return people


def owner_not_highlighted(entries: Sequence[Entry]) -> list[Problem]:
    """A warning for each .bib entry that marks an author as the owner (`author+an = {2=highlight}`, as a CV bolds
    its owner's name) where the profile's names match no author: the pages would not highlight it. For a
    one-person site only: on a lab's the members' names are linked, and the profile (the lab) is no author."""
    problems = []
    for entry in entries:
        highlighted = entry.record.extra.get("highlighted_authors")
        if not isinstance(highlighted, list) or not highlighted or any(author.is_owner for author in entry.authors):
            continue
        names = ", ".join(f"'{name}'" for name in highlighted if isinstance(name, str))
        problems.append(
            Problem(
                f"record '{entry.record.id}', field 'authors': {names} is highlighted as you (author+an), but is not the"
                " profile's name nor one of its name_variants, so no page highlights it: add it to name_variants in"
                " content/profile.yaml",
                entry.record.where("authors"),
                warning=True,
            )
        )
    return problems


def usable(data: object) -> bool:
    """Is this converted text as `converted_text` makes it (a cache file may hold anything)?"""
    return (
        isinstance(data, list)
        and len(data) == 13
        and all(isinstance(data[i], str) for i in (0, 1, 2, 3, 4, 5, 7))
        and all(_optional_text(data[i]) for i in (9, 10))
        and all(isinstance(data[i], list) for i in (6, 8, 11, 12))
    )


def _optional_text(data: object) -> bool:
    """[html, plain], or None for a field the record leaves out."""
    return data is None or (isinstance(data, list) and len(data) == 2 and all(isinstance(text, str) for text in data))


def entry_from(record: Record, data: list, cite_key: str, key: str) -> tuple[Entry, list[Problem]]:
    (
        title_html,
        title_plain,
        source_html,
        source_plain,
        abstract_html,
        abstract_plain,
        authors,
        base,
        problems,
        award,
        venue_short,
        editors,
        translators,
    ) = data
    entry = Entry(
        record=record,
        slug=slugify(record.id),
        title=Text(title_html, title_plain, record.title),
        authors=_marked(tuple(Author(str(name), bool(owner)) for name, owner in authors), record),
        abstract_html=abstract_html,
        abstract_plain=abstract_plain,
        subjects=tuple(_subject(code) for code in dict.fromkeys(record.categories)),
        cite_key=cite_key,
        source=Text(source_html, source_plain, _venue(record)),
        cite_base=base,
        key=key,
        award=Text(award[0], award[1], record.award) if award else None,
        venue_short=Text(venue_short[0], venue_short[1], record.venue_short) if venue_short else None,
        editors=tuple(Author(str(name), bool(owner)) for name, owner in editors),
        translators=tuple(Author(str(name), bool(owner)) for name, owner in translators),
        thesis_degree=_degree(record),
        links=(links := work_links(record)),
        url_kind=own_url_kind(record, links),
    )
    return entry, [problem_from(p) for p in problems]


def _venue(record: Record) -> str:
    """Where the work appeared, as every page and format names it: a thesis's institution without the degree
    its venue names first ('PhD thesis, University of Nordhaven': the degree is the entry's `thesis_degree`)."""
    return thesis_venue(record.source)[1] if record.type == "thesis" else record.source


def _degree(record: Record) -> str:
    return thesis_venue(record.source, str(record.extra.get("bibtex_type", "")))[0] if record.type == "thesis" else ""


def work_links(record: Record) -> dict[str, str]:
    """The work's links as its page lists them: the record's own, and the addresses its identifiers give when
    it links to neither, its DOI's (`doi`), arXiv's abstract page (`abs`), PubMed's (`pubmed`) and PubMed Central's (`pmc`),
    and its pages in ADS (`ads`), INSPIRE (`inspire`), MathSciNet (`mathscinet`) and zbMATH (`zbmath`)."""
    links = dict(record.links)
    if record.doi and "doi" not in links:
        links["doi"] = doi_url(record.doi)
    if record.arxiv and "abs" not in links:
        links["abs"] = f"https://arxiv.org/abs/{record.arxiv}"
    if record.ids.get("pmid") and "pubmed" not in links:
        links["pubmed"] = pubmed_url(record.ids["pmid"])
    if record.ids.get("pmcid") and "pmc" not in links:
        links["pmc"] = pmc_url(record.ids["pmcid"])
    for name, (kind, *_) in DATABASE_IDS.items():  # its pages in ADS, INSPIRE, MathSciNet and zbMATH
        if record.ids.get(name) and kind not in links:
            links[kind] = database_url(name, record.ids[name])
    return links


def own_url_kind(record: Record, links: dict[str, str]) -> str:
    """Which of a work's `links` is its own address (its landing page, its DOI's when it has a published one, arXiv's
    abstract page, ...; a piece of software's repository first); '' when it has none of them, and citations link
    to its page on the site."""
    if record.type == "software":
        kinds = SOFTWARE_URL_KINDS
    else:
        kinds = PUBLISHED_URL_KINDS if published_doi(record.doi) else OWN_URL_KINDS
    return next((kind for kind in kinds if links.get(kind)), "")


@functools.lru_cache(maxsize=4096)
def _subject(code: str) -> Subject:
    return Subject(code, subject_name(code), slugify(code))


def _typed(record: Record) -> Record:
    """Every shown record has a type (SPEC §7): its own, else the one its content implies; and no volume
    that is dblp's name of an arXiv preprint (`CORR_VOLUME`), which every format would print as one."""
    typed = record if record.type else dataclasses.replace(record, type=infer_type(record))
    volume = typed.extra.get("volume")
    if isinstance(volume, str) and CORR_VOLUME.match(volume.strip()):
        typed = dataclasses.replace(typed, extra={name: value for name, value in typed.extra.items() if name != "volume"})
    return _as_rfc(typed)


def _as_rfc(record: Record) -> Record:
    """An RFC named as the IETF and Zotero cite it, "RFC 9420": a report (also one a source typed `other`, as ORCID
    does a technical standard) in the series RFC with its number, whichever form its source gave (the DOI
    10.17487/RFC9420, the datatracker's `series = {Request for Comments}, number = 9420`, Google Scholar's
    `note = {RFC 9420}`); a `note` or `howpublished` that only named it is said by that label now."""
    if record.type not in ("report", "other") or (record.type == "other" and not record.fetched):
        return record
    number = rfc_number(record.doi, record.extra)
    if not number:
        return record
    extra = {name: value for name, value in record.extra.items() if not (name in RFC_TEXT_FIELDS and _names_rfc(value))}
    report_type = extra.get("report_type")
    if not isinstance(report_type, str) or not report_type.strip() or RFC_SERIES.match(report_type):
        extra["report_type"] = "RFC"  # Zotero's report type 'Request for Comments' too: 'RFC 9420', as the IETF cites it
    extra.setdefault("number", number)
    return dataclasses.replace(record, type="report", extra=extra, source=record.source or "RFC Editor")


def _names_rfc(value: object) -> bool:
    """Is a field's value only an RFC's name ('RFC 9420'), or its number (9420), which the record's label now says?"""
    return isinstance(value, (str, int)) and bool(RFC_NAME.match(str(value)) or str(value).strip().isdigit())


def _why_left_out(left_out: list[Record]) -> dict[str, str]:
    """Why each record the site reads and does not show is left out, by its ids in lower case: a list or a project
    that names one is told so, not that no record has the id."""
    reasons: dict[str, str] = {}
    for record in left_out:
        if record.hidden:
            why = f"it has `hidden: true` ({str(record.location).rstrip(':')})"
        else:
            why = "profile.yaml's `arxiv` exclusions leave it out"
        reasons.update((name.casefold(), why) for name in (*record.old_ids, record.id))
    return reasons


def is_excluded(record: Record, sources: ArxivSources, excluded_ids: set[str] | None = None) -> bool:
    """The profile's arXiv exclusions apply to fetched records, at every build: ids to any (`excluded_ids`: its
    `exclude_ids` without their versions, made once for every record of a build), subjects to arXiv's own (other
    sources' records have no arXiv subjects to keep)."""
    if not record.fetched:
        return False
    if excluded_ids is None:
        excluded_ids = {ARXIV_VERSION.sub("", i) for i in sources.exclude_ids}
    if ARXIV_VERSION.sub("", record.id) in excluded_ids:
        return True
    if record.origin is None or record.origin.source != "arxiv":
        return False
    if set(record.categories) & set(sources.exclude_categories):
        return True
    return bool(sources.categories) and not set(record.categories) & set(sources.categories)


def newest_first(records: list[Record]) -> list[Record]:
    """By year, then date (a record with only a year comes after those with dates), newest first; ties by id."""
    by_id = sorted(records, key=attrgetter("id"))
    # a day's ordinal is never 0, so a record with only a year sorts below the dated ones of its year
    return sorted(by_id, key=lambda r: (r.year, r.date.toordinal() if r.date else 0), reverse=True)  # stable: ids stay in order


@functools.lru_cache(maxsize=AUTHOR_NAMES_KEPT)
def normalise_name(name: str) -> str:
    """'L. M{\\"u}ller', 'Müller, L.' and 'l muller' compare equal; so do '山田 太郎', '山田太郎' and '山田, 太郎'.

    How a build tells whose name an author is (the owner's, a co-author's with a link): LaTeX
    converted, BibTeX's 'Last, First' read as 'First Last' (as 'Last First' for a Chinese, Japanese or
    Korean name), case, accents and digits dropped, letters of every script kept ('Иван Петров',
    '王伟'), 'ß' as 'ss', and no space between two Chinese, Japanese or Korean letters, which are
    written with or without one. Not the same key as disambiguate.name_key (fetch's grouping), which
    keeps the order written and the digits; merging asks only whether two records share an author,
    by the looser merge.name_keys. Each stage keeps its own so that neither's results change.
    """
    plain = render_inline(name).plain
    if plain.count(",") == 1:  # BibTeX order: 'Müller, Lena' is 'Lena Müller', '山田, 太郎' is '山田 太郎'
        last, first = plain.split(",")
        plain = f"{last} {first}" if is_family_first(plain) else f"{first} {last}"
    return _SPACE_IN_CJK_NAME.sub("", " ".join(folded_words(plain)))


_SPACE_IN_CJK_NAME = re.compile(f"(?<={FAMILY_FIRST_LETTER.pattern}) (?={FAMILY_FIRST_LETTER.pattern})")


def _ascii_name(name: str) -> str:
    """A name as lower-case ASCII words, BibTeX's 'Last, First' read as 'First Last', and a family name written
    first in capitals ('YAMADA Taro') last too: what a citation key is made of."""
    plain = render_inline(name).plain
    if plain.count(",") == 1:
        last, first = plain.split(",")
        plain = f"{first} {last}"
    elif family_in_capitals(plain) and "family" in (parts := csl_name(plain)):  # not 'ATLAS Collaboration', a group
        plain = f"{parts['given']} {parts['family']}"
    return normalise_text(plain)


def normalise_text(plain: str) -> str:
    """Text with its LaTeX converted already -> lower-case ASCII words."""
    ascii_only = unicodedata.normalize("NFKD", plain).encode("ascii", "ignore").decode()
    return " ".join(re.sub(r"[^a-z ]", " ", ascii_only.lower()).split())


# marks after an author's name (names.AUTHOR_MARK): at its end ('Chen Li*'), or before the comma of 'Okafor*, Amara N.'.
# A match starts where a run of spaces does, and takes a few marks (no name has more): searched from every place of a
# name, an open-ended run would make a name of 100,000 '*' or spaces (a pull request's) take minutes, not milliseconds.
_MARKS_AT_END = re.compile(rf"(?<!\s)\s*((?:{AUTHOR_MARK}\s*){{1,8}})$")
_MARKS_BEFORE_COMMA = re.compile(rf"(?<!\s)\s*((?:{AUTHOR_MARK}\s*){{1,8}}),")
_MAY_BE_MARKED = re.compile(r"[*†‡§¶#$\\]")  # one quick look at a name before the patterns above


def _marks_apart(record: Record) -> Record:
    """The record with its authors' marks ('Chen Li*', 'Okafor*, Amara N.', 'Jonathan Reyes†') taken off their names, kept in
    `extra['author_marks']` (name -> mark) for the pages to show: every export, the Google Scholar tags, the matching of
    the owner's name and of the versions of a work read the name alone ('Okafor, Amara N.', never 'Okafor*')."""
    marks: dict[str, str] = {}
    authors = []
    if not _MAY_BE_MARKED.search("\n".join(record.authors)):
        return record
    for name in record.authors:
        clean, mark = _split_mark(name)
        authors.append(clean)
        if mark:
            marks.setdefault(clean, mark)
    if not marks:
        return record
    return dataclasses.replace(record, authors=tuple(authors), extra={**record.extra, "author_marks": marks})


def _split_mark(name: str) -> tuple[str, str]:
    for pattern in (_MARKS_AT_END, _MARKS_BEFORE_COMMA):
        match = pattern.search(name)
        if match and match.start() > 0:
            mark = mark_signs(match.group(1))
            clean = (name[: match.start()] + ("," if pattern is _MARKS_BEFORE_COMMA else "") + name[match.end() :]).strip()
            if clean.strip(",. ") and mark:
                return clean, mark
    return name, ""


def _marked(authors: tuple[Author, ...], record: Record) -> tuple[Author, ...]:
    """The authors with the marks their names had in the record's file (`_marks_apart`)."""
    marks = record.extra.get("author_marks")
    if not isinstance(marks, dict) or len(authors) != len(record.authors):
        return authors
    return tuple(dataclasses.replace(a, mark=marks.get(written, "")) if written in marks else a for a, written in zip(authors, record.authors))


def _owner_named(record: Record, owner: str, aliases_of: dict[str, tuple[str, ...]]) -> Record:
    """The record with the profile's name for its source's name of the owner (Hugo Blox's `admin`).

    Its source key takes the name in, as everything made from the record does."""
    aliases = aliases_of.get(record.origin.source, ()) if aliases_of and record.origin else ()
    if not aliases or not any(name.strip().lower() in aliases for name in record.authors):
        return record
    authors = tuple(owner if name.strip().lower() in aliases else name for name in record.authors)
    extra = record.extra
    if isinstance(marks := extra.get("author_marks"), dict):  # `admin*`: the owner's mark
        extra = {**extra, "author_marks": {owner if name.strip().lower() in aliases else name: mark for name, mark in marks.items()}}
    return dataclasses.replace(record, authors=authors, extra=extra, source_key=f"{record.source_key} owner={owner}" if record.source_key else "")


@dataclasses.dataclass(frozen=True)
class OwnerNames:
    """Who the owner is on their records: the names profile.yaml lists (`exact`, as normalise_name folds them) and
    each of them read as (given names, family name) words (`forms`), which other written forms of the name fit."""

    exact: frozenset[str]
    forms: tuple[NameForm, ...]


OWNER_MATCH = "owner-forms-1"  # how names are matched: part of the entries' key, so that a change converts them again
EXACT = 100  # the score of a name profile.yaml lists (see owner_score)


def _owners(profile: Profile) -> tuple[OwnerNames, str]:
    """The owner's names, normalised, and a key of them (entries are made from them: see entry_key)."""
    owners = owner_names((profile.name, *profile.name_variants))
    return owners, digest(repr(sorted(owners.exact)), repr(owners.forms), OWNER_MATCH)


@functools.lru_cache(maxsize=64)
def owner_names(written: tuple[str, ...]) -> OwnerNames:
    """A person's names as written in profile.yaml, read as owner_score matches them."""
    names = {normalise_name(n) for n in written}
    names |= {n.replace("ue", "u").replace("oe", "o").replace("ae", "a") for n in names}
    return OwnerNames(frozenset(names - {""}), known_forms(written))


@dataclasses.dataclass(frozen=True)
class NameChange:
    """A person's `former_names` (profile.yaml's, a person file's): `name` is printed in their place."""

    name: str
    current: OwnerNames  # the name and name_variants, printed as written
    former: OwnerNames | None
    key: str  # a digest of the names (the cache's files are not to hold a former name either)

    @staticmethod
    def of(name: str, variants: tuple[str, ...], former: tuple[str, ...]) -> NameChange:
        return NameChange(name, owner_names((name, *variants)), owner_names(former) if former else None, digest(name, *variants, *former))


def _named_now(record: Record, change: NameChange) -> Record:
    """The record with a person's current name (`name`) for a former name of theirs (`former_names`) among its
    authors, editors and translators, in whatever form it is written ('Okafor, D.' for Daniel Okafor).

    A former name is one the person has asked the site never to print (a name before a transition or a marriage):
    every page, export, feed and tag is made from the record, so none of them prints it, and the record is theirs
    as any record naming them is. Of a list's names only the closest to a former name is replaced, and only when no
    name of the list is closer to the current ones (a co-author 'D. Okafor' beside 'Robin Okafor' stays). Its
    source key takes the change in."""
    former, current = change.former, change.current
    if former is None:
        return record
    authors, renamed = _now_named_in(record.authors, former, current, change.name)
    extra = dict(record.extra)
    for field_name in ("editors", "translators"):
        names = extra.get(field_name)
        if isinstance(names, list) and all(isinstance(name, str) for name in names):
            now, renamed_here = _now_named_in(tuple(names), former, current, change.name)
            if renamed_here:
                extra[field_name], renamed = list(now), {**renamed, **renamed_here}
    if not renamed:
        return record
    for field_name in ("author_marks", "author_ids"):  # name -> mark, name -> iD: under the name the record now writes
        if isinstance(by_name := extra.get(field_name), dict):
            extra[field_name] = {renamed.get(name, name) if isinstance(name, str) else name: value for name, value in by_name.items()}
    key = f"{record.source_key} named-now={change.key}" if record.source_key else ""
    return dataclasses.replace(record, authors=authors, extra=extra, source_key=key)


def _now_named_in(names: tuple[str, ...], former: OwnerNames, current: OwnerNames, name: str) -> tuple[tuple[str, ...], dict[str, str]]:
    """`names` with the one closest to a former name replaced by `name` (see _named_now), and {written: name}."""
    scores = [owner_score(written, former) for written in names]
    best = max(scores, default=0)
    if not best or any(owner_score(written, current) >= best for written in names):
        return names, {}
    at = scores.index(best)
    return (*names[:at], name, *names[at + 1 :]), {names[at]: name}


@functools.lru_cache(maxsize=AUTHOR_NAMES_KEPT)
def owner_score(name: str, owners: OwnerNames) -> int:
    """How closely an author's name is the owner's: 0 for another person's, EXACT for a name profile.yaml lists
    (case, accents, punctuation and BibTeX's order aside), else a smaller score for another written form of one
    of them: the same family name and given names that fit word by word, an initial fitting a name that starts
    with it ('J. Smith', 'Smith, J.', 'Smith JA', 'JOHN SMITH' for John A. Smith), a middle name or initial
    present or absent. 'Jane Smith' and 'K. Smith' do not fit. The full given name outscores an initial, and
    more fitting words fewer: a record's owner is its author of the highest score (converted_text)."""
    normal = normalise_name(name)
    if not normal:
        return 0
    if normal in owners.exact or normal.replace("ue", "u").replace("oe", "o").replace("ae", "a") in owners.exact:
        return EXACT
    words_written = set(normal.split())
    if not any(words_written.issuperset(family) for _, family in owners.forms):
        return 0  # most names: no family name of the owner's (read no further: a build reads ~3 names a record)
    return form_score(name, owners.forms)


def unique_cite_keys(records: list[Record], bases: list[str]) -> dict[str, str]:
    """Each record's citation key, by id; `bases`: each record's author+year+word (`cite_base`).

    A record read from a .bib file keeps its own key (SPEC §6: the entry's id is its citation
    key), and so does one of any reader whose ids are citation keys (`Reader.ids_are_cite_keys`: a CSL
    item's `citation-key`), so that the user's \\cite commands go on working, and no other record takes it. Another
    record's key is its base; when several share one, the earliest (by date, then id) has it bare
    and each other a letter its own id picks: adding a record renames none of the others, but
    for the one that had the key bare when the new one is older. Keys are unique ignoring case,
    as BibTeX compares them; none depends on the order records come in.
    """
    keys: dict[str, str] = {}
    taken: set[str] = set()
    for record in records:
        if _keeps_own_cite_key(record) and record.id.casefold() not in taken:
            keys[record.id] = record.id
            taken.add(record.id.casefold())
    taken |= {alias.casefold() for record in records for alias in record.aliases}  # a merged entry's key cites the work still
    sharing: dict[str, list[Record]] = {}
    for record, base in zip(records, bases):
        if record.id not in keys:
            sharing.setdefault(base, []).append(record)
    for base, members in sharing.items():  # every bare key first: no letter-made key takes one
        first = min(members, key=_age) if len(members) > 1 else members[0]
        if base.casefold() not in taken:
            keys[first.id] = base
            taken.add(base.casefold())
    for base, members in sharing.items():
        if len(members) == 1 and members[0].id in keys:
            continue  # most bases: one record's, which has it bare
        for record in sorted(members, key=_age):
            if record.id not in keys:
                keys[record.id] = next(key for key in _lettered_keys(base, record.id) if key.casefold() not in taken)
                taken.add(keys[record.id].casefold())
    return keys


def _keeps_own_cite_key(record: Record) -> bool:
    """A .bib entry's record (merged or not), or one of another reader whose ids are citation keys, when BibTeX
    can read its key back in an export."""
    return record.origin is not None and not record.fetched and keeps_cite_keys(record.origin.source) and bool(USABLE_CITE_KEY.match(record.id))


def _age(record: Record) -> tuple:
    """Earliest first: by year, then date (a record with only a year before the dated ones of its year), then id."""
    return (record.year, record.date.toordinal() if record.date else 0, record.id)


def _lettered_keys(base: str, record_id: str) -> Iterator[str]:
    """The keys a record that shares `base` may take, best first: the base and a letter picked by
    a digest of the record's id (not by the other records), the next letters, then numbers."""
    start = int.from_bytes(hashlib.sha256(record_id.encode("utf-8")).digest()[:4], "big") % len(CITE_KEY_LETTERS)
    for step in range(len(CITE_KEY_LETTERS)):
        yield base + CITE_KEY_LETTERS[(start + step) % len(CITE_KEY_LETTERS)]
    for number in itertools.count(2):
        yield f"{base}{number}"


def cite_base(record: Record, title_plain: str) -> str:
    """author+year+word: the base of a record's citation key. `title_plain`: the title with its LaTeX
    converted already (converted_text converts each title once)."""
    first_author = record.authors[0] if record.authors else "anon"
    last_name = _ascii_name(first_author).split(" ")[-1]
    if not last_name and record.authors and record.id.isascii() and USABLE_CITE_KEY.match(record.id):
        return record.id  # a name of letters with no ASCII form ('山田 太郎'): the record's own id ('yamada2024')
    title = normalise_text(title_plain)  # no name order: 'Attention, Please'
    words = [w for w in title.split() if w not in _CITE_STOPWORDS]
    return f"{last_name or 'anon'}{record.year}{words[0] if words else ''}"


def entry_key(record: Record, owners_key: str) -> str:
    """Everything an entry is made from: the record as written, and who the owner is.

    A record read from a file is named by the file's hash and its place in it
    (`source_key`, which includes the path); any other is hashed whole.
    """
    if record.source_key:
        return f"{record.source_key} {owners_key}"
    return digest(repr(record), str(record.location), owners_key)


def forget_converted_names() -> None:
    """Names are converted once per process (see _author); with other math macros, again."""
    _author.cache_clear()


@functools.lru_cache(maxsize=AUTHOR_NAMES_KEPT)
def _author(name: str) -> tuple[str, tuple[str, ...]]:
    """An author as written -> (the name shown, LaTeX left as source). Names come again and again
    (the owner's on every record, co-authors on many): each is converted once."""
    converted = render_inline(name)
    return first_name_first(converted.plain), tuple(converted.unconverted)


def _owners_among(names: Sequence[str], owners: OwnerNames) -> list[bool]:
    """Which of a record's authors (or editors) is the owner: those whose name is closest to the owner's (see
    owner_score). A record naming 'John Smith' and 'J. Smith' has one John Smith: the other is a namesake."""
    scores = [owner_score(name, owners) for name in names]
    best = max(scores, default=0)
    return [best > 0 and score == best for score in scores]


def _text(record: Record, field_name: str, value: str, problems: list[Problem]) -> Text:
    converted = render_inline(value)
    _report_unconverted(record, field_name, converted.unconverted, problems)
    return Text(converted.html, converted.plain, value)


def _report_unconverted(written: Record | Profile, field_name: str, sources: Sequence[str], problems: list[Problem]) -> None:
    for tex in sources:
        whose = f"record '{written.id}', " if isinstance(written, Record) else ""
        problems.append(
            Problem(
                f"{whose}field '{field_name}': LaTeX shown as source, cannot convert {tex}{unconverted_hint(tex)}",
                _where_in(written, field_name, tex),
                warning=True,
            )
        )


def _where_in(written: Record | Profile, field_name: str, piece: str) -> Location | None:
    """Where `piece` of a field's text is written: its own line in a literal block (`abstract: |`), else the field's."""
    placed = written.places.get(field_name + TEXT_LINE) if isinstance(written, Record) else None  # of a merged work
    first = placed.line if placed is not None else written.lines.get(field_name + TEXT_LINE)
    text = getattr(written, field_name, None)
    where = written.where(field_name)
    if first is None or where is None or not isinstance(text, str) or (at := text.find(piece)) < 0:
        return where
    return Location(where.path, first + text.count("\n", 0, at))
