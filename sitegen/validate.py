"""Stage 2: turn raw YAML into typed records, collecting every problem.

Messages follow one shape, `path:line: field 'year': expected an integer, got
'twenty'`, so that editors and CI logs can jump to the place.
"""

from __future__ import annotations

import datetime
import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from sitegen.errors import Location, Problem
from sitegen.load import PositionedDict, RawSite, RecordFile, file_key
from sitegen.model import RECORDS_PER_PAGE, ArxivSources, Origin, Profile, RawDocument, Record, SiteConfig
from sitegen.urls import url_scheme

FETCHED_DIR = "content/records/arxiv/"
SAFE_URL_SCHEMES = ("http", "https", "mailto", "")
# Control characters: a double-quoted YAML string lets "\x07" through, and no page, feed or BibTeX file can show one.
_CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@dataclass
class ValidSite:
    """Everything stage 2 accepted, plus what it found wrong."""

    config: SiteConfig | None = None
    profile: Profile | None = None
    records: list[Record] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]


class _Fields:
    """Reads typed fields out of one YAML mapping, noting each problem."""

    def __init__(self, data: PositionedDict, display_path: str, problems: list[Problem], prefix: str = ""):
        self.data = data
        self.path = display_path
        self.problems = problems
        self.prefix = prefix

    def where(self, key: str | None = None) -> Location:
        line = self.data.line_of(key) if key is not None and isinstance(self.data, PositionedDict) else getattr(self.data, "line", None)
        return Location(self.path, line or None)

    def problem(self, key: str, message: str, warning: bool = False) -> None:
        self.problems.append(Problem(f"field '{self.prefix}{key}': {message}", self.where(key), warning))

    def wrong_type(self, key: str, expected: str, value: Any) -> None:
        self.problem(key, f"expected {expected}, got {_show(value)}")

    def _value(self, key: str, required: bool) -> Any:
        value = self.data.get(key)
        if value is None and required:
            if key in self.data:
                self.problem(key, "is empty, but it is required")
            else:
                self.problems.append(Problem(f"missing required field '{self.prefix}{key}'", self.where()))
        return value

    def string(self, key: str, required: bool = False, default: str | None = None) -> str | None:
        value = self._value(key, required)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.wrong_type(key, "a string", value)
            return default
        if isinstance(value, float):
            self.problem(key, f"expected a string, got the number {value!r}; quote it so no digit is lost: {key}: \"...\"")
            return default
        text = self._printable(key, str(value)).strip()
        if required and not text:
            self.problem(key, "is empty, but it is required")
        return text

    def _printable(self, key: str, text: str) -> str:
        """`text` without control characters, each kind reported once as a warning."""
        if text.replace("\n", " ").isprintable() or not _CONTROL_CHARACTERS.search(text):  # the first: 3x as fast on prose
            return text
        found = ", ".join(sorted({f"U+{ord(c):04X}" for c in _CONTROL_CHARACTERS.findall(text)}))
        self.problem(key, f"control character {found} removed: a page cannot show it", warning=True)
        return _CONTROL_CHARACTERS.sub("", text)

    def integer(self, key: str, required: bool = False) -> int | None:
        value = self._value(key, required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, str) and value.strip().isdigit():
                return int(value)
            self.wrong_type(key, "an integer", value)
            return None
        return value

    def boolean(self, key: str) -> bool:
        value = self._value(key, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            self.wrong_type(key, "true or false", value)
            return False
        return value

    def date(self, key: str) -> datetime.date | None:
        value = self._value(key, False)
        if value is None:
            return None
        if isinstance(value, datetime.datetime):
            return value.date()
        if isinstance(value, datetime.date):
            return value
        if isinstance(value, str):
            try:
                return datetime.date.fromisoformat(value.strip())
            except ValueError:
                pass
        self.wrong_type(key, "a date YYYY-MM-DD", value)
        return None

    def string_list(self, key: str) -> tuple[str, ...]:
        value = self._value(key, False)
        if value is None:
            return ()
        if isinstance(value, str):
            return (value.strip(),)
        if not isinstance(value, list):
            self.wrong_type(key, "a list of strings", value)
            return ()
        items = []
        for index, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, (str, int, float)):
                self.problem(key, f"item {index + 1}: expected a string, got {_show(item)}")
            else:
                items.append(self._printable(key, str(item)).strip())
        return tuple(items)

    def url_map(self, key: str) -> dict[str, str]:
        value = self._value(key, False)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.wrong_type(key, "a mapping of name: URL", value)
            return {}
        links = {}
        for name, url in value.items():
            if url is None:
                continue
            # a problem with one link points at that link's own line
            item = _Fields(value, self.path, self.problems, prefix=f"{self.prefix}{key}.")
            if not isinstance(url, str):
                item.problem(str(name), f"expected a URL, got {_show(url)}")
                continue
            url = url.strip()
            scheme = url_scheme(url)
            if scheme not in SAFE_URL_SCHEMES:
                item.problem(str(name), f"unsafe URL scheme '{scheme}:', the link is left out", warning=True)
                continue
            links[str(name)] = url
        return links

    def mapping(self, key: str) -> PositionedDict | None:
        value = self._value(key, False)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.wrong_type(key, "a mapping", value)
            return None
        return value

    def extra(self, known: set[str]) -> dict[str, Any]:
        return {k: v for k, v in self.data.items() if k not in known}

    def warn_unknown(self, known: set[str]) -> None:
        for key in self.data:
            if key not in known:
                hint = difflib.get_close_matches(str(key), sorted(known), n=1)
                if hint:
                    self.problem(str(key), f"unknown setting; did you mean '{hint[0]}'?", warning=True)


def _show(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {value!r}"


SITE_FIELDS = {"title", "base_url", "theme", "language", "description", "cname", "records_per_page"}


def validate_config(document: RawDocument, problems: list[Problem]) -> SiteConfig | None:
    if not isinstance(document.data, dict):
        problems.append(Problem("expected a mapping of settings (title: ..., base_url: ...)", Location(document.display_path, 1)))
        return None
    fields = _Fields(document.data, document.display_path, problems)
    fields.warn_unknown(SITE_FIELDS)
    base_url = fields.string("base_url", default="/") or "/"
    if not (base_url.startswith(("http://", "https://", "/"))):
        fields.problem("base_url", f"expected an absolute URL like https://user.github.io/repo/, got {base_url!r}")
    return SiteConfig(
        title=fields.string("title", required=True) or "",
        base_url=base_url,
        theme=fields.string("theme", default="default") or "default",
        language=fields.string("language", default="en") or "en",
        description=fields.string("description", default="") or "",
        cname=fields.string("cname"),
        records_per_page=_records_per_page(fields),
        extra=fields.extra(SITE_FIELDS),
    )


def _records_per_page(fields: _Fields) -> int:
    value = fields.integer("records_per_page")
    if value is not None and value < 1:
        fields.problem("records_per_page", f"expected a positive number, got {value}")
    return value if value and value > 0 else RECORDS_PER_PAGE


PROFILE_FIELDS = {"name", "name_variants", "position", "affiliation", "bio", "photo", "email", "links", "arxiv"}
ARXIV_FIELDS = {"authors", "author_ids", "ids", "categories", "exclude_categories", "exclude_ids"}


def validate_profile(document: RawDocument, problems: list[Problem]) -> Profile | None:
    if not isinstance(document.data, dict):
        problems.append(Problem("expected a mapping (name: ..., affiliation: ...)", Location(document.display_path, 1)))
        return None
    fields = _Fields(document.data, document.display_path, problems)
    fields.warn_unknown(PROFILE_FIELDS)
    sources = ArxivSources()
    arxiv = fields.mapping("arxiv")
    if arxiv is not None:
        sub = _Fields(arxiv, document.display_path, problems, prefix="arxiv.")
        sub.warn_unknown(ARXIV_FIELDS)
        sources = ArxivSources(**{name: sub.string_list(name) for name in sorted(ARXIV_FIELDS)})
    return Profile(
        name=fields.string("name", required=True) or "",
        name_variants=fields.string_list("name_variants"),
        position=fields.string("position", default="") or "",
        affiliation=fields.string("affiliation", default="") or "",
        bio=fields.string("bio", default="") or "",
        photo=fields.string("photo"),
        email=fields.string("email"),
        links=fields.url_map("links"),
        arxiv=sources,
        extra=fields.extra(PROFILE_FIELDS),
        location=Location(document.display_path, getattr(document.data, "line", None) or None),
        lines=dict(getattr(document.data, "key_lines", {})),
    )


RECORD_FIELDS = {
    "id", "title", "authors", "year", "date", "source", "abstract", "categories",
    "links", "arxiv", "doi", "hidden", "featured", "type", "citations", "ids", "origin",
}


def record_origin(data: dict, display_path: str, reader: str = "yaml") -> Origin:
    """A fetcher writes `origin: <its name>` into each record file; files fetched before
    sitegen wrote that field are known by their folder, content/records/arxiv/."""
    from sitegen.sources import FETCHERS

    named = data.get("origin")
    if isinstance(named, str) and named in FETCHERS:
        return Origin(named, display_path, fetched=True)
    if display_path.startswith(FETCHED_DIR):
        return Origin("arxiv", display_path, fetched=True)
    return Origin(reader, display_path)


def validate_record(
    data: Any, display_path: str, problems: list[Problem], line: int | None = None, source_key: str = "", reader: str = "yaml",
) -> Record | None:
    if not isinstance(data, dict):
        problems.append(Problem(f"expected a record (a mapping with id, title, ...), got {_show(data)}", Location(display_path, line)))
        return None
    before = len([p for p in problems if not p.warning])
    fields = _Fields(data, display_path, problems)
    origin = record_origin(data, display_path, reader)
    fetched = origin.fetched
    # a hand-written record may leave out the title and year of the fetched record it corrects (check_corrections)
    missing = () if fetched else tuple(name for name in ("title", "year") if name not in data and (name == "title" or "date" not in data))
    record_id = fields.string("id", required=True)
    title = fields.string("title", required="title" not in missing)
    date = fields.date("date")
    year = fields.integer("year", required=date is None and "date" not in data and "year" not in missing)
    if year is None and date is not None:
        year = date.year
    elif year is not None and date is not None and year != date.year:
        fields.problem("year", f"{year} does not match the year of 'date' ({date.isoformat()})")
    if year is not None and not 1000 <= year <= 9999:
        fields.problem("year", f"expected a four-digit year, got {year}")
    categories = fields.string_list("categories")
    # '.' and '..' would make the page path records/../ (SPEC §3 slugs keep dots)
    if record_id and _names_no_page(record_id):
        fields.problem("id", f"{record_id!r} cannot name a page; use a letter or digit")
    for category in categories:
        if _names_no_page(category):
            fields.problem("categories", f"{category!r} cannot name a page; use a letter or digit")
    record = Record(
        id=record_id or "",
        title=title or "",
        location=Location(display_path, getattr(data, "line", None)),
        authors=fields.string_list("authors"),
        year=year or 0,
        date=date,
        source=fields.string("source", default="") or "",
        abstract=fields.string("abstract", default="") or "",
        categories=categories,
        links=fields.url_map("links"),
        arxiv=fields.string("arxiv"),
        doi=fields.string("doi"),
        hidden=fields.boolean("hidden"),
        featured=fields.boolean("featured"),
        origin=origin,
        type=fields.string("type", default="") or "",
        citations=fields.integer("citations"),
        ids=_string_map(fields, "ids"),
        extra=fields.extra(RECORD_FIELDS),
        given=tuple(sorted(str(k) for k, v in data.items() if v is not None)),
        source_key=source_key,
        lines=dict(getattr(data, "key_lines", {})),
        missing=missing,
    )
    if len([p for p in problems if not p.warning]) > before:
        return None
    return record


def _string_map(fields: _Fields, key: str) -> dict[str, str]:
    value = fields.mapping(key)
    if value is None:
        return {}
    return {str(k): str(v) for k, v in value.items() if v is not None}


def _names_no_page(value: str) -> bool:
    return not value.strip(".")


def check_together(records: list[Record], problems: list[Problem]) -> list[Record]:
    """What no record file can settle alone: ids shared across files, and corrections that correct nothing."""
    check_duplicate_ids(records, problems)
    return check_corrections(records, problems)


def check_duplicate_ids(records: list[Record], problems: list[Problem]) -> None:
    """Two files of the same kind may not share an id (fetched vs hand-written merge later)."""
    if len({record.id for record in records}) == len(records):
        return  # the usual case, settled in one pass
    seen: dict[tuple[bool, str], Record] = {}
    for record in records:
        key = (record.fetched, record.id)
        first = seen.setdefault(key, record)
        if first is not record:
            problems.append(Problem(f"duplicate id '{record.id}': also used at {str(first.location).rstrip(':')}", record.location))


def check_corrections(records: list[Record], problems: list[Problem]) -> list[Record]:
    """A hand-written record without a title or year must correct a fetched record (same id, arxiv or doi),
    which has them; `records` without those that do not."""
    incomplete = [record for record in records if record.missing]
    if not incomplete:
        return records
    fetched = {key for record in records if record.fetched for key in record.identity_keys()}
    wrong = set()
    for record in incomplete:
        if fetched.isdisjoint(record.identity_keys()):
            wrong.add(id(record))
            for name in record.missing:
                problems.append(Problem(
                    f"missing required field '{name}' (only a record that corrects a fetched one, "
                    "with the same id, arxiv or doi, may leave it out)", record.location,
                ))
    return [record for record in records if id(record) not in wrong]


def validate_site(raw: RawSite, known: dict[str, tuple[list[Record], list[Problem]]] | None = None) -> ValidSite:
    """Stage 2 for the whole site: settings, profile and every record file's records.

    `known` maps a record file's key (load.file_key) to its records as an earlier build
    validated them (the dev server keeps them in memory); it gets this build's.
    """
    valid = ValidSite(problems=list(raw.problems))
    if raw.site is not None:
        valid.config = validate_config(raw.site, valid.problems)
    if raw.profile is not None:
        valid.profile = validate_profile(raw.profile, valid.problems)
    known = known if known is not None else {}
    records: list[Record] = []
    used = set()
    for record_file in raw.record_files:
        key = file_key(record_file.reader, record_file.path, record_file.digest)
        used.add(key)
        if key not in known:
            known[key] = validate_record_file(record_file)
        of_file, problems = known[key]
        records += of_file
        valid.problems += problems
    for key in set(known) - used:
        del known[key]
    valid.records = check_together(records, valid.problems)
    return valid


def validate_record_file(record_file: RecordFile) -> tuple[list[Record], list[Problem]]:
    """The records of one file, as its reader found them, and the problems of the file."""
    problems = list(record_file.problems)
    records = []
    for index, mapping in enumerate(record_file.mappings):
        key = f"{record_file.path}@{record_file.digest}#{index}"
        record = validate_record(mapping, record_file.path, problems, source_key=key, reader=record_file.reader)
        if record is not None:
            records.append(record)
    return records, problems
