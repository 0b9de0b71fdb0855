"""The typed records that flow through the pipeline.

load -> `RawDocument`; validate -> `SiteConfig`, `Profile`, `Record`;
enrich -> `Site` of `Entry`s (records with everything a page needs).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Container
from dataclasses import field
from pathlib import Path
from typing import Any

from sitegen.errors import Location
from sitegen.values import value_class

ARXIV_VERSION = re.compile(r"v\d+$")  # the "v2" of "2401.01234v2"
# what BibTeX reads back as a citation key: no space, comma, brace, quote, parenthesis or comment sign
USABLE_CITE_KEY = re.compile(r"""^[^\s,{}()"#%'=\\~]+$""")
NOT_A_CITE_KEY = "is no citation key (no space, comma, brace, quote or %); left out"
RECORDS_PER_PAGE = 250  # profile and subject pages split past this many records, unless site.yaml says
# BibTeX fields a record keeps in `extra` as they are: the BibTeX reader writes them, a hand-written
# record may give them (validation knows them), merging takes them with the venue, templates show them,
# and the exports write them in this order, a BibTeX entry's usual one (a fetched record's `issue` as `number`).
# `report_type` is a report's kind or series ("NBER Working Paper"), BibTeX's `type` of a @techreport, or a patent's
# kind ("European patent"), biblatex's `type` of a @patent.
BIBTEX_DETAILS = (
    "volume",
    "report_type",
    "number",
    "pages",
    "chapter",
    "edition",
    "series",
    "publisher",
    "organization",
    "holder",  # a patent's: its assignee
    "address",
    "howpublished",
    "note",
    "isbn",
    "issn",
)

# biblatex's keys of `pubstate` -> a record's `status` as readers see it (publications.bib writes the key back)
PUBLICATION_STATES = {
    "inpreparation": "In preparation",
    "submitted": "Submitted",
    "forthcoming": "Forthcoming",
    "inpress": "In press",
    "prepublished": "Prepublished",
}

# an output file's content: whole-site files are joined as a bytearray (sitegen.exports.joined)
FileBytes = bytes | bytearray


class _Placed:
    """A value read from a YAML file: its `location` and the `lines` of its fields, for messages."""

    __slots__ = ()  # the fields are the subclass's slots
    location: Location | None
    lines: dict[str, int]

    def where(self, field_name: str) -> Location | None:
        if self.location is None:
            return None
        return Location(self.location.path, self.lines.get(field_name, self.location.line))

    def where_item(self, field_name: str, name: str) -> Location | None:
        """Where an entry of a mapping field is written ('links', 'pdf'): its own line, else the field's."""
        line = self.lines.get(f"{field_name}.{name}")
        return self.where(field_name) if line is None or self.location is None else Location(self.location.path, line)


@value_class
class RawDocument:
    """One YAML file, parsed, with the line of every mapping key (see `load`)."""

    path: Path
    display_path: str  # how messages name the file: relative to the site
    data: Any


@value_class
class ArxivSources:
    """What `sitegen fetch` pulls when run without options (profile.yaml `arxiv:`)."""

    authors: tuple[str, ...] = ()
    author_ids: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()  # keep only records in one of these
    exclude_categories: tuple[str, ...] = ()
    exclude_ids: tuple[str, ...] = ()


@value_class
class SiteConfig:
    title: str
    base_url: str = "/"
    theme: str = "default"
    language: str = "en"
    records_language: str = ""  # the language of the records that name none ("": the site's), for their titles' `lang`
    description: str = ""
    cname: str | None = None
    records_per_page: int = RECORDS_PER_PAGE
    feed_id_base: str = ""  # the address the feeds' entry ids are made from ("": base_url): the site's first one, kept when it moves
    math_macros: dict[str, tuple[str, int]] = field(default_factory=dict)  # name -> (replacement, arguments)
    extra: dict[str, Any] = field(default_factory=dict)
    # `languages:` of a site in several: every tag, the default (`language`) first; () for a site in one language
    languages: tuple[str, ...] = ()
    language_names: dict[str, str] = field(default_factory=dict)  # `language_names:` of a site in several: tag -> its name in itself


@value_class
class Profile(_Placed):
    name: str
    name_variants: tuple[str, ...] = ()
    former_names: tuple[str, ...] = ()  # the owner's names that the site never prints: `name` stands in their place
    position: str = ""
    affiliation: str = ""
    bio: str = ""  # Markdown
    photo: str | None = None  # a file in the site's static/ folder
    email: str | None = None
    links: dict[str, str] = field(default_factory=dict)
    arxiv: ArxivSources = field(default_factory=ArxivSources)
    extra: dict[str, Any] = field(default_factory=dict)
    location: Location | None = None  # content/profile.yaml
    lines: dict[str, int] = field(default_factory=dict, compare=False)  # field -> line in the file


RECORD_TYPES = (
    "article",
    "inproceedings",
    "preprint",
    "thesis",
    "book",
    "chapter",
    "report",
    "patent",
    "software",
    "dataset",
    "other",
)  # SPEC §7


def free_key(taken: Container[str], name: str, separator: str = "_") -> str:
    """`name`, or the first of `name_2`, `name_3`, ... that `taken` does not hold: a second link of a kind (a
    person's page's slug: `separator` "-", `sheng-lin-2`)."""
    if name not in taken:
        return name
    number = 2
    while f"{name}{separator}{number}" in taken:
        number += 1
    return f"{name}{separator}{number}"


@value_class
class Origin:
    """Where a record came from: the source that made it (a reader such as `yaml` or
    `bibtex`, or a fetcher such as `arxiv`) and the file it was read from."""

    source: str  # a name in sitegen.sources: READERS' `name` or FETCHERS' key
    path: str  # the file, relative to the site ('content/records/x.yaml')
    fetched: bool = False  # written by `sitegen fetch` (a fetcher's output), not by hand


@value_class
class Record(_Placed):
    """A publication as the user (or `fetch`) wrote it: text may hold LaTeX."""

    id: str
    title: str
    location: Location
    authors: tuple[str, ...] = ()
    year: int = 0
    date: datetime.date | None = None
    source: str = ""
    abstract: str = ""
    categories: tuple[str, ...] = ()
    links: dict[str, str] = field(default_factory=dict)
    arxiv: str | None = None
    doi: str | None = None
    hidden: bool = False
    featured: bool = False
    venue_short: str = ""  # the venue's short name ('EuroSys 2025'), shown before the type in lists
    award: str = ""  # a prize the work won ('Best Paper Award'), shown beside it wherever it is listed
    image: str = ""  # a picture of the work (a path in the site or a URL): its thumbnail in lists and its link preview
    image_alt: str = ""  # what the picture shows, for readers who cannot see it ("": decorative)
    language: str = ""  # the language of its title and abstract, a language tag ("": the site's)
    origin: Origin | None = None  # which source and file made it
    type: str = ""  # one of RECORD_TYPES; "" until enrich infers it
    citations: int | None = None  # cited-by count (OpenAlex, Crossref, ADS: a merged work the largest)
    ids: dict[str, str] = field(default_factory=dict)  # other identifiers: openalex, dblp, orcid put-code, ...
    sources: tuple[str, ...] = ()  # every source that contributed (set when records of one work are merged)
    aliases: tuple[str, ...] = ()  # the ids of the records of your own files merged into this one (their citation keys)
    merged_ids: tuple[str, ...] = ()  # the ids of every other record merged into this one: their pages lead to its page
    first_id: str = ""  # of a merged work, the id of its earliest version (a preprint's): what the feeds know it by
    extra: dict[str, Any] = field(default_factory=dict)
    given: tuple[str, ...] = ()  # the fields the file itself set, sorted
    source_key: str = ""  # a cheap key for everything derived from this record: its file's hash and its place, or of one of many (a .bib) its own hash
    lines: dict[str, int] = field(default_factory=dict, compare=False)  # field -> line in the file
    # required fields a hand-written record left out: it may, to correct a fetched record, which has them
    missing: tuple[str, ...] = ()
    # of a merged work, where a text field it took from another of its records than the one whose file and `lines` it
    # keeps is written (`title`, `abstract`, ...; `abstract#text`: a literal block's first line), for messages about it
    places: dict[str, Location] = field(default_factory=dict, compare=False)

    def where(self, field_name: str) -> Location | None:
        return self.places.get(field_name) or _Placed.where(self, field_name)

    @property
    def old_ids(self) -> tuple[str, ...]:
        """The ids this work had or was shown by before it was renamed (`aliases`) or merged with another version:
        the addresses of their pages (records/<old id>/) and their list items (#r-<old id>) lead to it."""
        return tuple(dict.fromkeys(i for i in (*self.aliases, *self.merged_ids) if i and i != self.id))

    @property
    def feed_id(self) -> str:
        """The id whose page address the feeds give the record as its entry's id, which must not change when the
        record does: a merged work's earliest version's (the preprint the feeds listed before its journal version
        came), else a renamed record's first alias (its old id), else its id."""
        return self.first_id or (self.aliases[0] if self.aliases else self.id)

    @property
    def fetched(self) -> bool:
        """Written by `sitegen fetch`: a hand-written record with the same identity overrides it."""
        return self.origin is not None and self.origin.fetched

    def identity_keys(self) -> list[str]:
        """What names the paper: a hand-written and a fetched record sharing one are the same paper."""
        keys = [f"id:{self.id}"] if self.id else []  # a correction may name its record by arxiv or doi alone
        if self.arxiv:
            keys.append(f"arxiv:{ARXIV_VERSION.sub('', self.arxiv.strip().lower())}")
        if self.doi:
            keys.append(f"doi:{self.doi.strip().lower().removeprefix('https://doi.org/')}")
        return keys


@value_class
class Text:
    """A piece of LaTeX-bearing text, converted once for every place it is shown."""

    html: str  # safe to print into a page
    plain: str  # for <title>, meta tags, feeds, JSON-LD
    source: str  # the original LaTeX, for BibTeX


@value_class
class Author:
    name: str  # plain Unicode
    is_owner: bool
    mark: str = ""  # what the name was marked with: '*' (equal contribution), '†' (corresponding author), ...; shown after it


LISTED_AUTHORS_UNCUT = 12  # a list names every author of a record with at most this many
LISTED_AUTHORS_FIRST = 10  # of a longer author list (a collaboration's hundreds), the first this many, and the owner


def listed_positions(authors: tuple[Author, ...] | list[Author]) -> list[int]:
    """The indexes of the authors a list names (the pages, the feed, the search's results): all of
    a short list; of a longer one the first LISTED_AUTHORS_FIRST and every owner after them."""
    if len(authors) <= LISTED_AUTHORS_UNCUT:
        return list(range(len(authors)))
    return [*range(LISTED_AUTHORS_FIRST), *(i for i in range(LISTED_AUTHORS_FIRST, len(authors)) if authors[i].is_owner)]


def short_byline(authors: tuple[Author, ...] | list[Author]) -> str:
    """The names a list shows as one line of plain text, '…' where names are left out:
    'Maria Brown, …, Alice Novak, …, John A. Smith, …' (the search's results)."""
    positions = listed_positions(authors)
    parts: list[str] = []
    for number, position in enumerate(positions):
        if number and position != positions[number - 1] + 1:
            parts.append("…")
        parts.append(authors[position].name)
    if positions and positions[-1] != len(authors) - 1:
        parts.append("…")
    return ", ".join(parts)


@value_class
class Subject:
    code: str
    name: str  # human name ("Distributed Computing") or the code itself
    slug: str


@value_class
class Entry:
    """A shown record after enrichment: everything the render stage needs."""

    record: Record
    slug: str
    title: Text
    authors: tuple[Author, ...]
    abstract_html: str
    abstract_plain: str
    subjects: tuple[Subject, ...]
    cite_key: str
    source: Text
    cite_base: str = ""  # the cite key before a/b/c makes it unique
    key: str = ""  # hash of everything the entry was made from (see enrich.entry_key)
    award: Text | None = None  # the record's award, when it has one
    venue_short: Text | None = None  # the venue's short name, when the record gives one
    editors: tuple[Author, ...] = ()  # the record's editors (a book's, or the book's a chapter is in), as its authors are
    translators: tuple[Author, ...] = ()  # the work's translators (of a translation: the owner's, often), as its authors are
    # the work's links as its page lists them: the record's, and its DOI's and arXiv's addresses (enrich.work_links)
    links: dict[str, str] = field(default_factory=dict)
    thesis_degree: str = ""  # a thesis's: 'phd', 'masters', 'bachelors' or '' (record_types.thesis_venue); `source` is its institution
    url_kind: str = ""  # which of `links` is the work's own address, for every citation format ('': none; enrich.own_url_kind)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def own_url(self) -> str:
        """The work's own address as written (a path in the site or a URL; '' for none): BibTeX's `url`, RIS's `UR`,
        CSL's `URL`."""
        return self.links.get(self.url_kind, "") if self.url_kind else ""


@value_class
class KindContent:
    """What a page kind read from its own content files (news, talks, pages, ...), after stages 1-3.

    `value` is the kind's own (its pages render it); `site_wide` is what every page of the
    site shows of it (menu entries, names to link): part of the key of every page.
    """

    value: Any = None
    site_wide: Any = None
    key: str = ""  # the digest of the files it was read from
    # its list page's own text, title and description in each language ("" the default's): its folder's `_index.md`
    # (`PageKind.intro`), a `sitegen.pages.pages.ContentPage`
    intros: dict[str, Any] = field(default_factory=dict)


@value_class
class Site:
    """The enriched site: the one input of the render stage."""

    config: SiteConfig
    profile: Profile
    bio_html: str
    entries: tuple[Entry, ...]  # shown records, newest first
    subjects: tuple[Subject, ...]  # sorted by name
    site_dir: Path
    subject_positions: dict[str, tuple[int, ...]] = field(default_factory=dict)  # subject code -> positions in `entries`
    featured: tuple[Entry, ...] = ()  # the entries marked featured, newest first
    converted: int = 0  # entries converted by this build: the others came from the build cache
    content: dict[str, KindContent] = field(default_factory=dict)  # page kind name -> what it read
    # the ids (in lower case) of records the site has but does not show -> why, for a list or project naming one
    left_out: dict[str, str] = field(default_factory=dict)
    translations: tuple[Any, ...] = ()  # a site in several languages: each but the default's own part (languages.SiteTranslation)

    def kind_value(self, kind: str, default: Any = None) -> Any:
        """What page kind `kind` read from its own content files (sitegen/pages), or `default` when it read nothing."""
        content = self.content.get(kind)
        return default if content is None or content.value is None else content.value
