"""`sitegen fetch`: pull records from the registered fetchers into `content/records/<source>/`.

What to ask each source comes from the command line (`--author`, `--orcid`,
`--doi`, ...) or, with none of those, from `content/profile.yaml`. Each source is
a module of `sitegen.sources` that registers a `Fetcher`; this module is the same
for all of them. Three phases, so that a failure or an interrupt never leaves a
half-updated site:

1. fetch  every source into memory; any error stops here and nothing is written;
2. plan   one YAML text per record, validated by the same code as hand-written
          records; decide per file: create, update, keep, remove, or leave
          alone because a person wrote or edited it;
3. commit write changed files only (temp file + os.replace), in every source's
          folder at once, with SIGINT and SIGTERM held back until the last rename.

Files fetch writes carry a checksum line and `origin: <source>`. A file in a
source's folder without the checksum, or whose text no longer matches it, was
written or edited by a person, and fetch never overwrites or removes it. Records
excluded by profile.yaml are not written, and their earlier fetched files are
removed (the build leaves them out anyway). Files of records that a source did
not return this time are kept, unless `--prune` is given; and an answer that held
no record is a warning, whichever source sent it, after which `--prune` removes
none of that source's files: an empty answer must not wipe a site.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from sitegen import __version__
from sitegen.categories import category_mistake
from sitegen.errors import ExitStatus, Problem
from sitegen.interrupts import Terminated
from sitegen.model import ArxivSources, Profile
from sitegen.urls import WEB_PREFIXES, slugify
from sitegen.workflow_checks import other_sources, outdated_refresh_workflow

if TYPE_CHECKING:
    from sitegen.disambiguate import Candidate
    from sitegen.model import RawDocument
    from sitegen.progress import Progress
    from sitegen.sources.http import Settings

RECORDS_DIR = Path("content") / "records"  # each source writes into RECORDS_DIR / <its name>
PROFILE_PATH = Path("content") / "profile.yaml"
REVIEW_FILE = Path(".sitegen-cache") / "fetch-review.json"  # the groups of the last --review, for --keep
CHECKSUM_PREFIX = "# sitegen-checksum: sha256:"
PROJECT_URL = "https://pypi.org/project/sitegen-profiles/"
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_TERMINATED = 143  # 128 + SIGTERM
_HEADER = re.compile(r"^# Fetched from .+ by sitegen; edit a copy outside records/[^/\n]+/ to override fields\.$")


class UsageError(Exception):
    """The command line is wrong: exit status 2."""


class ContentError(Exception):
    """profile.yaml (or the review file) is wrong: exit status 1; the message says where."""


class NothingToFetch(Exception):
    """No source is named anywhere: a site's state (a new site, a name not set yet), not a mistake of the
    command line. The weekly refresh runs `sitegen fetch` on every site, so this is a note and exit status 0."""


class NeedsChoice(Exception):
    """A name search found several people and nobody could be asked which one is the owner."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


class InterruptedAfterCommit(KeyboardInterrupt):
    """Ctrl-C or SIGTERM (`signal_number`) arrived while writing; the writing was finished first."""

    def __init__(self, signal_number: int = signal.SIGINT):
        super().__init__()
        self.signal_number = signal_number


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def text_from_markup(text: str) -> str:
    """JATS or HTML from a service (Crossref abstracts, titles with <i> or <sub>) as plain text.

    Paragraphs stay apart, tags go, entities are decoded: the result is text,
    which the build escapes like any other.
    """
    import html

    text = re.sub(r"(?is)<(jats:)?title>\s*abstract\s*</(jats:)?title>", "", str(text))
    text = re.sub(r"(?i)</(jats:)?(p|sec|title)>|<br\s*/?>", "\n\n", text)
    text = html.unescape(re.sub(r"<[^>]*>", "", text))
    return "\n\n".join(p for p in (one_line(part) for part in re.split(r"\n\s*\n", text)) if p)


def label(source: str) -> str:
    from sitegen.sources import source_label

    return source_label(source)


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """'1 record', '2 records', '0 records'."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


# --------------------------------------------------------------------------
# The contract between this module and every fetcher (sitegen.sources.Fetcher)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Ask:
    """One thing to ask one source for: `kind` (author, id, orcid, doi, name, ...) and `value`,
    and `where` it was asked (an option, or `content/profile.yaml:LINE: field 'orcid'`)."""

    source: str
    kind: str
    value: str
    where: str


@dataclass(frozen=True)
class Asked:
    """One query a fetcher sent for what it was asked, and how many records its answer held.

    `what` names the query as errors do ("ORCID works of 0000-0002-1825-0097"), `where` says where it
    was asked (`--orcid`, `content/profile.yaml:3: field 'orcid'`), and `if_none` what a warning says
    when the answer held no record; '' for a query whose answer is often empty (Crossref's works that
    name an ORCID iD: most publishers send none), which keeps `--prune` off that source without a word
    unless it has records to keep (`Outcome.plan` says so then). `fetch_everything` judges every
    source's empty answers alike.
    """

    what: str
    where: str
    records: int
    if_none: str = "no records found"


@dataclass
class Fetched:
    """What a fetcher returns: record mappings (each with an `id`), and what the review needs."""

    records: list[dict[str, Any]]
    owner_names: list[str] = field(default_factory=list)  # names the source gave the owner
    searched_ids: set[str] = field(default_factory=set)  # records found by a name search
    owners_only: bool = False  # a shared list (a lab's Zotero library): only the records an owner of the site wrote are kept
    requests: int = 0
    warnings: list[str] = field(default_factory=list)
    asked: list[Asked] = field(default_factory=list)  # every query for what was asked, with its count of records
    seconds: float = 0.0  # how long the source took (set by fetch_everything)

    def answered(self, what: str, where: str, records: int, if_none: str = "no records found") -> None:
        """Say that the query `what` (asked at `where`) found `records` records."""
        self.asked.append(Asked(what, where, records, if_none))

    @property
    def found_nothing(self) -> bool:
        """An answer held no record (a warning says which): `--prune` removes nothing of this source this time."""
        return any(asked.records == 0 for asked in self.asked)


def empty_answers(fetched: Fetched) -> list[str]:
    """The warning for each query whose answer held no record: the same for every source. An empty answer
    (a service's bad day, a proxy's page, a name changed) is no failure, and never wipes a site: the run
    goes on, and `--prune` removes none of that source's records (`Outcome.plan`)."""
    return [f"warning: {asked.what} ({asked.where}): {asked.if_none}" for asked in fetched.asked if asked.records == 0 and asked.if_none]


def where_asked(asks: list[Ask], value: str, kind: str | None = None) -> str:
    """Where `value` was asked (each place once): `--orcid`, `content/profile.yaml:3: field 'orcid'`."""
    return ", ".join(dict.fromkeys(a.where for a in asks if a.value == value and (kind is None or a.kind == kind)))


@dataclass
class FetchContext:
    """What every fetcher is given: settings, progress, the owner's contact, a way to ask the user."""

    args: argparse.Namespace
    progress: Progress
    profile: Profile | None
    choose: Callable[[str, list[Candidate], list[str]], str]

    @property
    def mailto(self) -> str | None:
        return self.profile.email if self.profile and self.profile.email else None

    def settings(
        self, source: str, env_var: str, default_url: str, default_delay: float, page_size: int | None = None, max_page_size: int | None = None
    ) -> Settings:
        """A source's settings: its endpoint (environment, else its default; `--api-url` for arXiv),
        `--delay` or the source's own pause, and the shared timeout and retry options."""
        from sitegen.sources.http import Settings

        url = (self.args.api_url if source == "arxiv" else None) or os.environ.get(env_var, "").strip() or default_url
        if not url.startswith(("http://", "https://")):
            where = "--api-url" if source == "arxiv" and self.args.api_url else f"${env_var}"
            raise UsageError(f"{where}: expected an http:// or https:// URL, got {url!r}")
        size = page_size or self.args.page_size
        url = url.split("?", 1)[0]
        return Settings(
            api_url=url if source == "arxiv" else url.rstrip("/"),
            delay=default_delay if self.args.delay is None else self.args.delay,
            page_size=min(size, max_page_size) if max_page_size else size,
            timeout=self.args.timeout,
            retries=self.args.retries,
            backoff=self.args.backoff,
            user_agent=user_agent(self.profile),
        )


def user_agent(profile: Profile | None) -> str:
    contact = f"; mailto:{profile.email}" if profile and profile.email else ""
    return f"sitegen/{__version__} (+{PROJECT_URL}{contact})"


# --------------------------------------------------------------------------
# What to ask: options, else profile.yaml
# --------------------------------------------------------------------------

ARXIV_PROFILE_ASKS = (("authors", "author"), ("ids", "id"), ("author_ids", "author_id"))
# what `sitegen fetch` takes besides the sources' options (`sitegen.sources.FetchOption`)
OTHER_OPTIONS = ("category", "review", "prune", "summary")


def option_flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def asks_from_options(args: argparse.Namespace) -> list[Ask]:
    """What each fetcher's options ask (an option two fetchers declare, `--orcid`, asks both)."""
    from sitegen.sources import FETCHERS

    asks = []
    for name, fetcher in FETCHERS.items():
        for option in fetcher.options:
            for value in getattr(args, option.dest, None) or []:
                parts = value.split(",") if option.commas else [value]
                asks += [Ask(name, option.kind, part.strip(), option.flag) for part in parts if part.strip()]
    return asks


def asks_from_profile(document: RawDocument | None, profile: Profile | None) -> list[Ask]:
    """The sources configured in profile.yaml: `arxiv:` (validated) and the keys of SPEC §6 (read raw:
    a sitegen whose validation does not know them yet still fetches them)."""
    asks: list[Ask] = []
    path = PROFILE_PATH.as_posix()
    configured = profile.arxiv if profile else ArxivSources()
    for attribute, kind in ARXIV_PROFILE_ASKS:
        asks += [Ask("arxiv", kind, v, f"{path}: arxiv.{attribute}") for v in getattr(configured, attribute)]
    data = document.data if document is not None and isinstance(document.data, dict) else {}
    from sitegen.sources import FETCHERS

    for name, fetcher in FETCHERS.items():
        for key, kind in {option.profile_key: option.kind for option in fetcher.options if option.profile_key}.items():
            asks += [Ask(name, kind, value, f"{path}:{line_of_field(data, key)}: field '{key}'") for value in raw_strings(data, key)]
        asks += fetcher.profile_asks(data, path) if fetcher.profile_asks else []
    return asks


PEOPLE_FOLDER = "content/people/"


def asks_from_people(site: Path) -> list[Ask]:
    """The identifiers of each person of a lab site (content/people/*.yaml, SPEC §9): the works of their ORCID iD,
    arXiv author ids, OpenAlex and dblp ids, and the PubMed search their `pubmed:` names. Not their names: a name search finds namesakes, whose papers the
    lab's list would then show (`sitegen fetch --author NAME --review` is the way to sort a name's records)."""
    return [ask for person in people_of(site) for ask in _person_asks(person)]


def people_of(site: Path) -> list[Any]:
    """The people of a lab site (content/people/*.yaml, each a `sitegen.people.files.Person`); a file's error is a
    content error."""
    from sitegen.inputs import list_inputs
    from sitegen.people.files import read_person
    from sitegen.text_files import read_text

    listing = list_inputs(site)  # the site's jail: a link out of the site is not followed
    people = []
    problems: list[Problem] = []
    for path in sorted(name for name in listing.under(PEOPLE_FOLDER) if name.endswith((".yaml", ".yml"))):
        text, problem = read_text(listing, path)
        if problem is not None:
            problems.append(problem)
            continue
        person = read_person(path, text, problems)
        if person is not None:
            people.append(person)
    if errors := [problem for problem in problems if not problem.warning]:
        raise ContentError("\n".join(str(problem) for problem in errors))
    return people


def _person_asks(person: Any) -> list[Ask]:
    """What to ask of each source for one person (sitegen.people.files.Person)."""

    def where(key: str) -> str:
        return f"{person.path}:{person.lines.get(key, 1)}: field '{key}'"

    from sitegen.sources import FETCHERS

    arxiv_at = where("arxiv" if "arxiv" in person.lines or "links.arxiv" not in person.lines else "links.arxiv")  # an author page under links:
    asks = [Ask("arxiv", "author_id", value, arxiv_at) for value in person.author_ids]
    for name, fetcher in FETCHERS.items():
        for key, kind in {option.profile_key: option.kind for option in fetcher.options if option.person_key}.items():
            asks += [Ask(name, kind, value, where(key)) for value in _person_values(person, key) if value]
        asks += fetcher.person_asks(person) if fetcher.person_asks else []
    return asks


def _person_values(person: Any, key: str) -> list[str]:
    """The values of a person's `key`: the ORCID iD as the person's file gives it (perhaps under `links:`, as
    profile.yaml's), any other key as written."""
    return [person.orcid] if key == "orcid" else raw_strings(person.extra, key, person.path)


def raw_strings(data: dict, key: str, path: str = PROFILE_PATH.as_posix()) -> list[str]:
    """A profile.yaml key that holds one string or a list of strings; anything else is a content error."""
    value = data.get(key)
    if value is None:
        return []
    values = value if isinstance(value, list) else [value]
    if not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values):
        raise ContentError(f"{path}:{line_of_field(data, key)}: field '{key}': expected a string or a list of strings, got {value!r}")
    return [str(v).strip() for v in values if str(v).strip()]


def setting_values(section: dict[str, Any], key: str) -> list[str] | None:
    """A setting of a fetcher's own mapping in profile.yaml (`zotero: collection:`, `ads: library:`): one value or a
    list of them, each a string or a number, stripped; None when one is neither (`check_settings` says so)."""
    value = section.get(key)
    values = value if isinstance(value, list) else [] if value is None else [value]
    if not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values):
        return None
    return [str(v).strip() for v in values]


def check_settings(fields: Any, section: dict[str, Any], checks: Mapping[str, Callable[[str], str]]) -> None:
    """The values of a fetcher's settings (`checks`: key -> the check of each value, raising ValueError saying what
    is wrong) at their lines, `fields` being the mapping's `sitegen.validate.Fields`: a value that is no string nor
    list of strings is of a wrong type, one its check refuses an error with the check's words."""
    for key, check in checks.items():
        values = setting_values(section, key)
        if values is None:
            fields.wrong_type(key, "a string or a list of strings", section.get(key))
        for value in values or ():
            try:
                check(value)
            except ValueError as error:
                fields.problem(key, str(error))


def line_of_field(data: Any, key: str) -> int:
    """The line of `key` in a mapping read from YAML (1 when it was read without lines)."""
    line_of = getattr(data, "line_of", None)
    return (line_of(key) if line_of else None) or 1


def choose_asks(args: argparse.Namespace, document: RawDocument | None, profile: Profile | None, site: Path | None = None) -> list[Ask]:
    """Options win; with none that names something to fetch, profile.yaml's sources apply, and the identifiers
    of the people of a lab site (`site`'s content/people/).

    Every identifier is checked (an ORCID iD by its check digit, a DOI's shape, ...)
    before anything is asked of any service.
    """
    asks = asks_from_options(args)
    from_options = bool(asks)
    if not asks:
        asks = asks_from_profile(document, profile) + (asks_from_people(site) if site is not None else [])
    if not asks:
        raise NothingToFetch(
            "nothing to fetch: content/profile.yaml names no source (arxiv: authors, ids or author_ids; "
            f"{', '.join(key + ':' for key in _profile_keys())}) and no file of content/people/ an identifier; list yours there, "
            f"or fetch once with {', '.join(_first_options())} (`sitegen fetch --help` lists every option)"
        )
    categories = tuple(c.strip() for c in args.category if c.strip())
    if mistakes := [mistake for code in categories if (mistake := category_mistake(code))]:
        raise UsageError(f"--category: {mistakes[0]}")
    if not categories and not from_options and profile:
        categories = profile.arxiv.categories
    if any(a.source == "arxiv" and a.kind == "author" for a in asks):
        asks += [Ask("arxiv", "category", c, "--category") for c in categories]
    asks = [routed(checked(ask, from_options)) for ask in asks]
    from sitegen.sources import FETCHERS

    for name, fetcher in FETCHERS.items():
        if fetcher.check_asks and any(a.source == name for a in asks):
            try:
                fetcher.check_asks([a for a in asks if a.source == name])
            except UsageError as error:
                if from_options:
                    raise
                raise ContentError(str(error)) from None
    return asks


def routed(ask: Ask) -> Ask:
    """arXiv's DataCite DOI (10.48550/arXiv.2504.20490) names a preprint that Crossref does not
    know: it is asked of arXiv, by its id, wherever it was written (`--doi`, `dois:`). So are the
    DataCite DOIs of repositories of software and data (Zenodo's 10.5281/zenodo.N, figshare's, Dryad's):
    of OpenAlex, which holds them."""
    from sitegen.record_types import DATACITE_REPOSITORY_DOIS
    from sitegen.sources import crossref

    if (ask.source, ask.kind) != ("crossref", "doi"):
        return ask
    arxiv_id = crossref.arxiv_from_doi(ask.value)
    if arxiv_id:
        return Ask("arxiv", "id", arxiv_id, ask.where)
    return Ask("openalex", "doi", ask.value, ask.where) if DATACITE_REPOSITORY_DOIS.match(ask.value) else ask


def checked(ask: Ask, from_options: bool) -> Ask:
    """The ask with its identifier normalised; a wrong one is a usage error (option) or a content error (profile)."""
    check = identifier_checks().get((ask.source, ask.kind))
    if check is None:
        return ask
    try:
        return Ask(ask.source, ask.kind, check(ask.value), ask.where)
    except ValueError as error:
        if from_options:
            raise UsageError(f"{ask.where}: {error}") from None
        raise ContentError(f"{ask.where}: {error}") from None


def identifier_checks() -> dict[tuple[str, str], Callable[[str], str]]:
    """(source, kind) -> the check of what is asked, as each fetcher's options declare it."""
    from sitegen.sources import FETCHERS

    return {(name, option.kind): option.check for name, fetcher in FETCHERS.items() for option in fetcher.options if option.check}


def _profile_keys() -> list[str]:
    from sitegen.sources import fetcher_profile_keys

    return sorted(fetcher_profile_keys())


def _first_options() -> list[str]:
    """Each fetcher's first option (`--author`, `--orcid`, `--zotero-group`): a way to fetch once from each."""
    from sitegen.sources import FETCHERS

    return list(dict.fromkeys(fetcher.options[0].flag for fetcher in FETCHERS.values() if fetcher.options))


def describe_asks(asks: list[Ask]) -> str:
    """What was asked, each thing once: an arXiv name search as its query (au:"Sheng Lin"), another
    source's name search as the name, an identifier as itself (an ORCID iD asked of ORCID and of
    Crossref is one thing asked; an OpenAlex author is no arXiv query)."""
    return ", ".join(dict.fromkeys(_described(ask) for ask in asks if ask.kind != "category"))


def _described(ask: Ask) -> str:
    if ask.source == "arxiv" and ask.kind == "author":
        return f'au:"{ask.value}"'
    return f'name "{ask.value}"' if ask.kind == "name" else ask.value


# --------------------------------------------------------------------------
# Exclusions: the profile's, and the co-author anchors
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Filters:
    """What profile.yaml (or --category) leaves out: the build's rule, so fetch never writes what the site would drop."""

    exclude: ArxivSources = field(default_factory=ArxivSources)
    categories: tuple[str, ...] = ()  # --category


def exclusion_reason(record: dict[str, Any], filters: Filters) -> str | None:
    """Why profile.yaml (or --category) leaves a record out; None when it is kept.

    Subject filters apply to records that have arXiv subjects (those from arXiv):
    the other sources give none.
    """
    from sitegen.sources.arxiv import split_version

    excluded_ids = {split_version(i)[0] for i in filters.exclude.exclude_ids}
    if record["id"] in excluded_ids:
        return "exclude_ids"
    if record.get("origin", "arxiv") != "arxiv":
        return None
    categories = set(record.get("categories") or ())
    hit = sorted(categories & set(filters.exclude.exclude_categories))
    if hit:
        return f"exclude_categories: {', '.join(hit)}"
    for wanted, where in ((filters.exclude.categories, "categories"), (filters.categories, "--category")):
        if wanted and not categories & set(wanted):
            return f"not in {where}: {', '.join(wanted)}"
    return None


def coauthor_anchors(document: RawDocument | None) -> list[str]:
    """profile.yaml `coauthors:`: names that make a record found by a name search the owner's."""
    data = document.data if document is not None and isinstance(document.data, dict) else {}
    return raw_strings(data, "coauthors")


# --------------------------------------------------------------------------
# The file text
# --------------------------------------------------------------------------


def header(source: str) -> str:
    return f"# Fetched from {label(source)} by sitegen; edit a copy outside records/{source}/ to override fields.\n"


class _BlockText(str):
    """A string written as a YAML block scalar (`|`), for readable abstracts."""


class _RecordDumper(yaml.SafeDumper):
    """The pure-Python dumper: the same bytes on every machine."""


_RecordDumper.add_representer(_BlockText, lambda dumper, value: dumper.represent_scalar("tag:yaml.org,2002:str", str(value), style="|"))


def render(record: dict[str, Any]) -> str:
    """The file text for a record: header, checksum of the body, YAML body (ending with `origin:`)."""
    source = str(record.get("origin") or "arxiv")
    data = {key: value for key, value in record.items() if key != "origin"}
    if data.get("abstract"):
        data["abstract"] = _BlockText(data["abstract"])
    data["origin"] = source
    body = yaml.dump(data, Dumper=_RecordDumper, sort_keys=False, allow_unicode=True, width=1_000_000, default_flow_style=False)
    return header(source) + CHECKSUM_PREFIX + _checksum(body) + "\n" + body


def _checksum(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def written_by_fetch(text: str) -> bool:
    """True when the file is exactly as fetch wrote it (its checksum matches)."""
    lines = text.split("\n", 2)
    if len(lines) < 3 or not _HEADER.match(lines[0]) or not lines[1].startswith(CHECKSUM_PREFIX):
        return False
    return lines[1][len(CHECKSUM_PREFIX) :] == _checksum(lines[2])


def check_record(text: str, display_path: str) -> list[Problem]:
    """Read the text back and validate it like any record file: one model, one code path."""
    from sitegen.load import parse_yaml
    from sitegen.validate import validate_record

    data, problem = parse_yaml(text, display_path)
    if problem:
        return [problem]
    problems: list[Problem] = []
    validate_record(data, display_path, problems)
    return problems


def incomplete(record: dict[str, Any]) -> str | None:
    """What a record lacks that every record needs (a title, a year); None when it is complete."""
    if not str(record.get("title") or "").strip():
        return "no title"
    if not record.get("year") and not record.get("date"):
        return "no year"
    return None


# --------------------------------------------------------------------------
# Plan and commit
# --------------------------------------------------------------------------


@dataclass
class Plan:
    """What the commit phase will do to one source's folder, and what it leaves alone."""

    source: str
    write: dict[Path, str] = field(default_factory=dict)  # new or changed files
    remove: list[Path] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept_stale: list[str] = field(default_factory=list)  # not returned this time, kept
    warnings: list[str] = field(default_factory=list)

    @property
    def folder(self) -> Path:
        return RECORDS_DIR / self.source


def plan_changes(
    site: Path, kept: dict[str, dict[str, Any]], excluded: dict[str, dict[str, Any]], prune: bool, source: str = "arxiv"
) -> tuple[Plan, list[Problem]]:
    """What to do in `content/records/<source>/` so that it holds `kept` and none of `excluded`."""
    plan = Plan(source)
    problems: list[Problem] = []
    folder = site / plan.folder
    persons = ids_in_persons_files(folder)
    for record_id, record in kept.items():
        path = folder / f"{slugify(record_id)}.yaml"
        display = (plan.folder / path.name).as_posix()
        text = render({**record, "origin": source})
        problems.extend(p for p in check_record(text, display) if not p.warning)
        other = persons.get(record_id)
        if other is not None and other != path:
            plan.warnings.append(
                f"{(plan.folder / other.name).as_posix()}:1: warning: holds id '{record_id}' and was written by a person, so fetch does not write a second copy"
            )
            continue
        _plan_write(plan, path, display, text)
    returned = {folder / f"{slugify(i)}.yaml" for i in [*kept, *excluded]}
    for record_id, reason in ((i, r.get("_excluded_because", "it is now excluded by profile.yaml")) for i, r in excluded.items()):
        path = folder / f"{slugify(record_id)}.yaml"
        _plan_remove(plan, path, (plan.folder / path.name).as_posix(), reason)
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        if path in returned:
            continue
        display = (plan.folder / path.name).as_posix()
        if prune:
            _plan_remove(plan, path, display, f"{label(source)} did not return it (--prune)")
        else:
            plan.kept_stale.append(display)
    return plan, problems


def ids_in_persons_files(folder: Path) -> dict[str, Path]:
    """Ids held by files in a source's folder that fetch did not write (or that were edited since)."""
    from sitegen.load import parse_yaml

    found: dict[str, Path] = {}
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        text = path.read_text(encoding="utf-8", errors="replace")
        if written_by_fetch(text):
            continue
        data, problem = parse_yaml(text, path.name)
        items = data if isinstance(data, list) else [data]
        for item in items if problem is None else []:
            if isinstance(item, dict) and item.get("id") is not None:
                found.setdefault(str(item["id"]).strip(), path)
    return found


def _plan_write(plan: Plan, path: Path, display: str, text: str) -> None:
    if not path.exists():
        plan.write[path] = text
        plan.created.append(display)
        return
    current = path.read_text(encoding="utf-8", errors="replace")
    if current == text or (plan.source == "arxiv" and written_by_fetch(current) and _same_record_but_origin(current, text)):
        plan.unchanged.append(display)
    elif written_by_fetch(current):
        plan.write[path] = text
        plan.updated.append(display)
    else:
        plan.warnings.append(
            f"{display}:1: warning: edited by hand, so fetch leaves it as it is; put your "
            f"changes in a file outside records/{plan.source}/ (your fields win there) and delete "
            f"this one to get {label(plan.source)}'s latest version"
        )


def _same_record_but_origin(current: str, text: str) -> bool:
    """An arXiv record file of a fetch from before `origin:` was written, holding the record `text` holds: rewriting
    it only to add that line would report every record "updated" on the first fetch after an upgrade (and the
    weekly pull request would list them all as changed), while the build knows the file's origin by its folder."""
    from sitegen.load import parse_yaml

    old, problem = parse_yaml(current, "old")
    new, problem_too = parse_yaml(text, "new")
    if problem or problem_too or not isinstance(old, dict) or not isinstance(new, dict) or "origin" in old:
        return False
    return old == {key: value for key, value in new.items() if key != "origin"}


def _plan_remove(plan: Plan, path: Path, display: str, why: str) -> None:
    if not path.exists():
        return
    if written_by_fetch(path.read_text(encoding="utf-8", errors="replace")):
        plan.remove.append(path)
        plan.removed.append(f"{display} ({why})")
    else:
        plan.warnings.append(f"{display}:1: warning: {why}, but it was edited by hand, so fetch leaves it")


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT/SIGTERM until the block ends, so a commit is never cut in half."""
    received: list[int] = []
    names = [signal.SIGINT, signal.SIGTERM]
    previous = {}
    try:
        for sig in names:
            previous[sig] = signal.signal(sig, lambda number, _frame: received.append(number))
    except ValueError:  # not the main thread: nothing to hold
        previous = {}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if received:
            raise InterruptedAfterCommit(signal.SIGTERM if signal.SIGTERM in received else signal.SIGINT)


def commit(plans: list[Plan], site: Path) -> None:
    """Write every changed file of every plan beside its target first, then rename them all in place."""
    writes = sorted((path, text) for plan in plans for path, text in plan.write.items())
    removes = [path for plan in plans for path in plan.remove]
    if not writes and not removes:
        return
    staged: list[tuple[Path, Path]] = []
    flush_all = getattr(os, "sync", None)  # one flush of the batch: a file-by-file fsync costs a disk commit each
    with signals_held():
        try:
            for path, text in writes:
                path.parent.mkdir(parents=True, exist_ok=True)
                temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
                with open(temp, "w", encoding="utf-8", newline="\n") as handle:
                    handle.write(text)
                    if flush_all is None:
                        handle.flush()
                        os.fsync(handle.fileno())
                staged.append((temp, path))
            if flush_all is not None:
                flush_all()  # every new text is on disk before any rename makes it the file
        except BaseException:
            for temp, _ in staged:
                temp.unlink(missing_ok=True)
            raise
        for temp, path in staged:
            os.replace(temp, path)
        for path in removes:
            path.unlink(missing_ok=True)


# --------------------------------------------------------------------------
# Running the command
# --------------------------------------------------------------------------


def load_profile(site: Path) -> tuple[Profile | None, RawDocument | None, list[Problem]]:
    """The validated profile, its raw document (for the keys validation may not know), and its errors."""
    from sitegen.errors import Location
    from sitegen.load import parse_yaml
    from sitegen.model import RawDocument
    from sitegen.text_files import decode_text
    from sitegen.validate import validate_profile

    path, display = site / PROFILE_PATH, PROFILE_PATH.as_posix()
    if not path.is_file():
        return None, None, []
    try:
        text, problem = decode_text(path.read_bytes(), display)
    except OSError as error:
        return None, None, [Problem(f"cannot read: {error.strerror or error}", Location(display))]
    if problem:
        return None, None, [problem]
    data, problem = parse_yaml(text, display)
    if problem:
        return None, None, [problem]
    document = RawDocument(path, display, data)
    problems: list[Problem] = []
    profile = validate_profile(document, problems)
    return profile, document, [p for p in problems if not p.warning]


def run(args: argparse.Namespace) -> int:
    """Run `sitegen fetch`; returns the exit status."""
    site = Path(args.site)
    err = sys.stderr
    try:
        return _run(args, site)
    except UsageError as error:
        print(f"sitegen fetch: error: {error}", file=err)
        return ExitStatus.USAGE
    except ContentError as error:
        print(f"{error}", file=err)
        return ExitStatus.CONTENT
    except NothingToFetch as note:
        print(f"note: {note}")
        return ExitStatus.OK
    except InterruptedAfterCommit as stop:
        word = "terminated" if stop.signal_number == signal.SIGTERM else "interrupted"
        print(f"\nsitegen fetch: {word} after the fetched records were written in full", file=err)
        return 128 + stop.signal_number
    except Terminated:  # SIGTERM: a CI job cancelled, `docker stop`
        print("\nsitegen fetch: terminated; content/ is unchanged", file=err)
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        print("\nsitegen fetch: interrupted; content/ is unchanged", file=err)
        return EXIT_INTERRUPTED


def _run(args: argparse.Namespace, site: Path) -> int:
    if args.keep:
        refuse_what_keep_ignores(args)
    if not (site / "content").is_dir():
        print(f"sitegen fetch: error: no content/ folder in {site} (is --site right?)", file=sys.stderr)
        return ExitStatus.CONTENT
    profile, document, problems = load_profile(site)
    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        return ExitStatus.CONTENT
    if args.keep:
        return keep_groups(site, args.keep)
    asks = choose_asks(args, document, profile, site)
    filters = Filters(profile.arxiv if profile else ArxivSources(), tuple(c.strip() for c in args.category if c.strip()))
    results = fetch_everything(args, asks, profile)
    if results is None:
        return ExitStatus.CONTENT
    shared = any(fetched.owners_only for fetched in results.values())  # a lab's library: its people's names keep their records
    people_names = [name for person in people_of(site) for name in (person.name, *person.name_variants, *person.former_names)] if shared else []
    outcome = decide(results, filters, coauthor_anchors(document), profile, asks, people_names)
    if args.review:
        outcome.print_review(site, always=True)
        print(f"review only: nothing written ({counted(outcome.kept_count, 'record')} would be kept, {outcome.excluded_count} excluded)")
        return ExitStatus.OK
    outcome.print_review(site, always=False)
    plans, problems = outcome.plan(site, prune=args.prune, unpruned={name for name, fetched in results.items() if fetched.found_nothing})
    if problems:
        for problem in problems:
            print(f"{problem} (from {describe_asks(asks)}); nothing was written", file=sys.stderr)
        return ExitStatus.CONTENT
    commit(plans, site)
    summary = Summary(plans, results, outcome)
    for warning in summary.warnings:
        print(warning, file=sys.stderr)
    for problem in outdated_refresh_workflow(site, other_sources(asks)):
        print(problem, file=sys.stderr)
    summary.print()
    if args.summary:
        Path(args.summary).write_text(summary.markdown(asks), encoding="utf-8")
    return ExitStatus.OK


def fetch_everything(args: argparse.Namespace, asks: list[Ask], profile: Profile | None) -> dict[str, Fetched] | None:
    """Every source asked, in the registry's order, all in memory; None (after saying why) when one failed."""
    from sitegen.progress import Progress
    from sitegen.sources import FETCHERS
    from sitegen.sources.http import FetchError

    progress = Progress()
    context = FetchContext(args, progress, profile, choose_candidate)
    results: dict[str, Fetched] = {}
    with _terminate_as_interrupt():
        try:
            for name, fetcher in FETCHERS.items():
                of_source = [a for a in asks if a.source == name]
                if of_source and any(a.kind != "category" for a in of_source):
                    started = time.monotonic()
                    fetched = results[name] = fetcher.fetch(of_source, context)
                    fetched.seconds = time.monotonic() - started
                    fetched.warnings += empty_answers(fetched)
        except FetchError as error:
            progress.done()
            print(f"sitegen fetch: error: {error}; nothing was written", file=sys.stderr)
            return None
        except NeedsChoice as choice:
            progress.done()
            for line in choice.lines:
                print(line, file=sys.stderr)
            print("sitegen fetch: error: several people have this name; nothing was written", file=sys.stderr)
            return None
    progress.done()
    return results


def choose_candidate(source: str, candidates: list[Candidate], lines: list[str]) -> str:
    """Ask the person at the terminal which candidate is the owner; without a terminal, stop with the list."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        raise NeedsChoice(lines)
    for line in lines:
        print(line, file=sys.stderr)
    while True:
        print("Which one is you? The number or the id (nothing to stop): ", end="", file=sys.stderr, flush=True)
        answer = sys.stdin.readline().strip()
        if not answer:
            raise NeedsChoice([f"{label(source)}: no author chosen"])
        if answer.isdigit() and 1 <= int(answer) <= len(candidates):
            return candidates[int(answer) - 1].id
        if any(answer == c.id for c in candidates):
            return answer
        print(f"  {answer!r} is none of the {len(candidates)} listed", file=sys.stderr)


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (e.g. a CI job cancelled) stops the fetch like Ctrl-C: nothing written."""

    def interrupt(_number: int, _frame: Any) -> None:
        raise Terminated

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# --------------------------------------------------------------------------
# Deciding what to keep, and the review
# --------------------------------------------------------------------------


@dataclass
class Outcome:
    """Every fetched record, per source, with the reason each excluded one is left out."""

    records: dict[str, dict[str, dict[str, Any]]]  # source -> id -> record
    reasons: dict[str, dict[str, str | None]]  # source -> id -> why it is left out
    owner_names: list[str]
    current: dict[str, tuple[str, ...]]
    asks: list[Ask]
    searched: dict[str, set[str]] = field(default_factory=dict)  # source -> ids of its records found by a name search
    undecided: list[tuple[str, str]] = field(default_factory=list)  # (source, id) of the records of groups no co-author anchor placed
    shared_lists: list[str] = field(default_factory=list)  # sources whose records are kept by their authors' names (Fetched.owners_only)
    warnings: list[str] = field(default_factory=list)

    @property
    def kept_count(self) -> int:
        return sum(1 for of in self.reasons.values() for reason in of.values() if not reason)

    @property
    def excluded_count(self) -> int:
        return sum(1 for of in self.reasons.values() for reason in of.values() if reason)

    def plan(self, site: Path, prune: bool, unpruned: set[str] | frozenset[str] = frozenset()) -> tuple[list[Plan], list[Problem]]:
        """What to write and remove in each source's folder; `--prune` (`prune`) removes nothing of the
        sources in `unpruned`, an answer of which held no record this time (an empty answer must not wipe
        a site)."""
        plans, problems = [], []
        for source, records in self.records.items():
            kept = {i: r for i, r in records.items() if not self.reasons[source][i]}
            excluded = {i: {**r, "_excluded_because": _removal_reason(self.reasons[source][i])} for i, r in records.items() if self.reasons[source][i]}
            plan, found = plan_changes(site, kept, excluded, prune and source not in unpruned, source)
            if prune and source in unpruned and plan.kept_stale:
                plan.warnings.append(f"warning: --prune removed no {label(source)} record: an answer of {label(source)} held no record this time")
            plans.append(plan)
            problems += found
        return plans, problems

    def grouped_papers(self) -> list[Any]:
        """The `sitegen.disambiguate.Paper` of each record that grouping by co-authors looks at: every record of
        arXiv and of a source that ran a name search (`--author`, `--pubmed NAME`, `--hal-name`): a name finds
        namesakes, and the records asked by id beside it show which group is the owner's."""
        from sitegen.disambiguate import Paper

        papers = []
        for source, records in self.records.items():
            if source != "arxiv" and not self.searched.get(source):
                continue
            reasons = self.reasons.get(source, {})
            for i, r in records.items():
                authors = tuple(str(name) for name in r.get("authors") or ())
                # arXiv's categories are its subjects, by which a group can be left out; another source's are free
                # keywords that the owner's other papers may share: its groups are left out by their ids
                categories = tuple(r.get("categories") or ()) if source == "arxiv" else ()
                papers.append(Paper(i, str(r["title"]), authors, categories, int(r.get("year") or 0), reasons[i], source))
        return papers

    def print_shared_list(self, source: str) -> None:
        """A shared list's records (a lab's Zotero library), each marked kept or left out, and how to change that."""
        records, reasons = self.records.get(source, {}), self.reasons.get(source, {})
        mine = [i for i in records if not reasons[i]]
        print(f"{label(source)}: {len(mine)} of {counted(len(records), 'record')} name you or a person of {PEOPLE_FOLDER} among their authors:")
        for record_id, record in records.items():
            authors = "; ".join(str(name) for name in (record.get("authors") or record.get("editors") or [])[:4])
            print(
                f"  {'kept     ' if not reasons[record_id] else 'left out '} {record_id} ({record.get('year', '?')}) {one_line(record['title'])[:70]} — {authors}"
            )
        if len(mine) < len(records):
            print(
                f"  if one left out is yours under another name, add that name to name_variants in {PROFILE_PATH.as_posix()}; "
                f"if every item of the library (or collection) is yours, set all_items: true under {source}: there"
            )

    def print_review(self, site: Path, always: bool) -> None:
        """The disambiguation report: on --review, or whenever the records of a name search look like several people.

        A --review also keeps its numbered groups for `sitegen fetch --keep N`.
        """
        from sitegen.disambiguate import group_papers, report

        if always:
            for source in self.shared_lists:
                self.print_shared_list(source)
        papers = self.grouped_papers()
        if not papers:
            if always and not self.shared_lists:
                print("no records to group: --review groups the records of a name search (--author, or another source's name option)")
            return
        groups, is_owner = group_papers(papers, self.owner_names)
        if len(groups) < 2 and not always:
            return
        for line in report(groups, is_owner, self.current, detailed=always):
            print(line)
        if always:
            save_review(site, groups, self.asks)
            if len(groups) > 1:
                print("to keep only some groups: sitegen fetch --keep N [--keep M] (writes the exclusions into content/profile.yaml)")


NOT_THE_OWNERS = "no author or editor is"  # how the reason a shared list's record is left out begins (owners_only_reason)


def _removal_reason(reason: str | None) -> str:
    if reason and reason.startswith(("no co-author", NOT_THE_OWNERS)):
        return f"it is now left out: {reason}"
    return "it is now excluded by profile.yaml"


def owners_only_reason(record: dict[str, Any], is_owner: Callable[[str], bool]) -> str | None:
    """Why a record of a shared list (a lab's Zotero library: everybody's reading) is not the site's: none of its
    authors (nor, for a book of chapters by others, its editors) is the owner or a person of the site."""
    if any(is_owner(str(name)) for name in [*(record.get("authors") or []), *(record.get("editors") or [])]):
        return None
    return f"{NOT_THE_OWNERS} you (the name and name_variants of {PROFILE_PATH.as_posix()}) or a person of {PEOPLE_FOLDER}"


def decide(
    results: dict[str, Fetched], filters: Filters, anchors: list[str], profile: Profile | None, asks: list[Ask], people_names: list[str] | None = None
) -> Outcome:
    """Apply the profile's exclusions to every record, the co-author anchors to name-search results, and to the
    records of a shared list (`Fetched.owners_only`) the names of the site's owner and people (`people_names`)."""
    from sitegen.disambiguate import OwnerNames

    owner = [n for fetched in results.values() for n in fetched.owner_names]
    if profile:
        owner += [profile.name, *profile.name_variants, *profile.former_names]
    is_a_site_author = OwnerNames([*owner, *(people_names or [])])
    current = {"exclude_categories": filters.exclude.exclude_categories, "exclude_ids": filters.exclude.exclude_ids}
    outcome = Outcome({}, {}, owner, current, asks)
    for source, fetched in results.items():
        records = {}
        for record in fetched.records:
            missing = incomplete(record)
            if missing:
                outcome.warnings.append(
                    f"warning: {label(source)} record {record.get('id')!r} has {missing}; left out (write it by hand under content/records/ to show it)"
                )
                continue
            records[str(record["id"])] = {**record, "origin": source}
        outcome.records[source] = records
        outcome.reasons[source] = {i: exclusion_reason(r, filters) for i, r in records.items()}
        if fetched.owners_only:
            outcome.shared_lists.append(source)
            outcome.reasons[source] = {i: reason or owners_only_reason(records[i], is_a_site_author) for i, reason in outcome.reasons[source].items()}
        outcome.warnings += fetched.warnings
    outcome.searched = {source: set(fetched.searched_ids) for source, fetched in results.items() if fetched.searched_ids}
    if anchors:
        apply_anchors(outcome, anchors)
    return outcome


def apply_anchors(outcome: Outcome, anchors: list[str]) -> None:
    """With `coauthors:` in profile.yaml, a name search (of any source) keeps the groups that share one of those
    co-authors; the others' records are left out, listed as needing a decision."""
    from sitegen.disambiguate import group_papers, shares_coauthor

    searched = [paper for paper in outcome.grouped_papers() if paper.id in outcome.searched.get(paper.source, ())]
    groups, _ = group_papers(searched, outcome.owner_names)
    for group in groups:
        if shares_coauthor(group, anchors):
            continue
        for paper in group.papers:
            reasons = outcome.reasons.setdefault(paper.source, {})
            if not reasons.get(paper.id):
                reasons[paper.id] = f"no co-author named in coauthors: ({', '.join(anchors)})"
                outcome.undecided.append((paper.source, paper.id))


def save_review(site: Path, groups: list[Any], asks: list[Ask]) -> None:
    """The numbered groups of this review, for `sitegen fetch --keep N` (not content: under .sitegen-cache/)."""
    path = site / REVIEW_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "asked": describe_asks(asks),
        "groups": [{"ids": group.ids, "categories": sorted({c for p in group.papers for c in p.categories})} for group in groups],
    }
    temp = path.with_name(path.name + ".tmp")
    temp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(temp, path)


# --------------------------------------------------------------------------
# What fetch says at the end (and writes for the weekly pull request)
# --------------------------------------------------------------------------


@dataclass
class Summary:
    plans: list[Plan]
    results: dict[str, Fetched]
    outcome: Outcome

    @property
    def warnings(self) -> list[str]:
        """Every warning of the run, printed and in the pull request's summary alike: each folder's (a file
        edited by hand, left as it is), then what was left out (a DOI Crossref does not know, an empty answer)."""
        return [w for plan in self.plans for w in plan.warnings] + self.outcome.warnings

    def print(self) -> None:
        for plan in self.plans:
            fetched = self.results[plan.source]
            reasons = self.outcome.reasons[plan.source].values()
            excluded = sum(1 for reason in reasons if reason and not reason.startswith(NOT_THE_OWNERS))
            not_yours = sum(1 for reason in reasons if reason and reason.startswith(NOT_THE_OWNERS))
            requests = fetched.requests
            print(
                f"fetched {counted(len(self.outcome.records[plan.source]), 'record')} from {label(plan.source)} in "
                f"{counted(requests, 'request')} ({fetched.seconds:.1f} s); {excluded} excluded by profile.yaml"
                + (f"; {not_yours} left out: no author is you or a person of the site" if not_yours else "")
            )
            print(
                f"{plan.folder.as_posix()}/: {len(plan.created)} new, {len(plan.updated)} updated, {len(plan.unchanged)} unchanged, {len(plan.removed)} removed"
            )
            for display in plan.removed:
                print(f"  removed {display}")
            if plan.kept_stale:
                print(f"  kept {counted(len(plan.kept_stale), 'earlier record')} that these sources did not return (use --prune to remove them)")

    def markdown(self, asks: list[Ask]) -> str:
        """What changed, per source, as Markdown: the weekly refresh's pull request body."""
        lines = ["| source | new | updated | unchanged | removed |", "|---|---:|---:|---:|---:|"]
        for plan in self.plans:
            lines.append(f"| {label(plan.source)} | {len(plan.created)} | {len(plan.updated)} | {len(plan.unchanged)} | {len(plan.removed)} |")
        lines.append("")
        for plan in self.plans:
            records = self.outcome.records[plan.source]
            sections = (("New", plan.created), ("Changed", plan.updated), ("Removed", plan.removed))
            if not any(paths for _, paths in sections):
                continue
            lines += [f"### {label(plan.source)}", ""]
            for title, paths in sections:
                if paths:
                    lines += [f"#### {title} ({len(paths)})", ""]
                    lines += [_markdown_item(path, records) for path in paths]
                    lines.append("")
        if self.outcome.undecided:
            lines += [
                "### Needs your decision",
                "",
                "These records came from a name search but share no co-author listed under `coauthors:` in "
                "`content/profile.yaml`, so they are not published. If one is yours, add one of its co-authors "
                "there (or run `sitegen fetch --review` and `sitegen fetch --keep N`).",
                "",
            ]
            lines += [_markdown_record(self.outcome.records[source][i]) for source, i in self.outcome.undecided]
            lines.append("")
        if self.warnings:  # files left as they are (edited by hand), what was left out (a DOI Crossref does not know, an empty answer)
            lines += ["### Warnings", "", *(f"- {_markdown_text(warning)}" for warning in self.warnings), ""]
        return "\n".join(lines)


def _markdown_item(display: str, records: dict[str, dict[str, Any]]) -> str:
    """A changed file as a list item: the record's title and authors when it is among this fetch's records."""
    name = display.split(" (", 1)[0].rsplit("/", 1)[-1].removesuffix(".yaml")
    record = next((r for i, r in records.items() if slugify(i) == name), None)
    return _markdown_record(record) if record else f"- `{_markdown_text(display)}`"


def _markdown_record(record: dict[str, Any]) -> str:
    links = record.get("links") or {}
    # its abstract's page, DOI or address, its page in a database whose id it carries (PubMed's, INSPIRE's); else the first web address its source gave (OpenAlex's, HAL's)
    web = [str(links[k]) for k in ("abs", "doi", "url") if str(links.get(k, "")).startswith(WEB_PREFIXES)]
    url = next(iter(web), "") or _database_page(record) or next((str(v) for v in links.values() if str(v).startswith(WEB_PREFIXES)), "")
    title = _markdown_text(record.get("title", "(no title)"))
    ident = _markdown_text(record["id"])
    shown = f"[{ident}]({url})" if url.startswith(WEB_PREFIXES) else ident
    authors = ", ".join(_markdown_text(a) for a in record.get("authors") or [])
    return f"- {shown} ({record.get('year', '?')}) {title}{_standing_note(record)}  \n  {authors}"


def _database_page(record: dict[str, Any]) -> str:
    """The page of a record that has no other address, in the database whose id it carries: PubMed's (a citation
    without a DOI), INSPIRE's (a thesis), ADS's, MathSciNet's or zbMATH's."""
    from sitegen.record_types import DATABASE_IDS, checked_pmid, database_url, pubmed_url

    ids = record.get("ids") or {}
    pmid = checked_pmid(str(ids.get("pmid") or ""))
    if pmid:
        return pubmed_url(pmid)
    found = ((name, check(str(ids[name]))) for name, (_, check, *_) in DATABASE_IDS.items() if ids.get(name))
    return next((database_url(name, number) for name, number in found if number), "")


_NOTICE_NAMES = {"correction": "a correction", "retraction": "a retraction notice", "concern": "an expression of concern"}


def _standing_note(record: dict[str, Any]) -> str:
    """What a reviewer of the pull request should know beside the title: a notice (titled as its paper, it looks like a
    duplicate) says which work it concerns; a retracted or withdrawn work says so (sitegen.notices)."""
    if (kind := _NOTICE_NAMES.get(str(record.get("notice") or ""))) and record.get("notice_for"):
        return f" — {kind} of {_markdown_text(record['notice_for'])}, shown as its link"
    if record.get("retracted") is True:
        return " — retracted"
    return " — withdrawn" if record.get("withdrawn") is True else ""


def _markdown_text(value: Any) -> str:
    """Text from a service, shown as text in Markdown: no HTML, and no link or image of its own."""
    import html

    return re.sub(r"([\[\]])", r"\\\1", html.escape(one_line(str(value)), quote=False))


# --------------------------------------------------------------------------
# --keep N: the exclusions that keep the chosen groups of the last review
# --------------------------------------------------------------------------


def keep_groups(site: Path, numbers: list[int]) -> int:
    """Write into profile.yaml (under `arxiv:`) the exclusions that keep exactly the chosen groups."""
    from sitegen.disambiguate import exclusions_keeping

    review = load_review(site)
    groups = [list(g["ids"]) for g in review["groups"]]
    wrong = [n for n in numbers if not 1 <= n <= len(groups)]
    if wrong:
        raise UsageError(f"--keep {wrong[0]}: the last review ({review['asked']}) has groups 1 to {len(groups)}")
    categories_of = {i: g.get("categories", ()) for g in review["groups"] for i in g["ids"]}
    path = site / PROFILE_PATH
    edited = ProfileEditor(path)
    exclusions = exclusions_keeping(groups, numbers, edited.arxiv_lists(), categories_of)
    edited.set_arxiv_lists(exclusions)
    edited.save()
    kept = sorted(set(numbers))
    count = sum(len(groups[n - 1]) for n in kept)
    print(
        f"kept group{'s' if len(kept) > 1 else ''} {', '.join(map(str, kept))} of the last review "
        f"({review['asked']}): {counted(count, 'record')}; {PROFILE_PATH.as_posix()} now excludes the other "
        f"{sum(map(len, groups)) - count}"
    )
    for key, values in exclusions.items():
        print(f"  arxiv.{key}: [{', '.join(values)}]")
    print("the build leaves the other groups out from now on; the next `sitegen fetch` removes their files")
    return ExitStatus.OK


# What --keep would leave unused: it writes profile.yaml from the last review, and fetches nothing.


def refuse_what_keep_ignores(args: argparse.Namespace) -> None:
    """`--keep` with an option it would not use (`--review`, a source, `--prune`) is a usage error rather than
    an option ignored in silence: `--review --keep 1` could mean group 1 of the last review or of this one."""
    from sitegen.sources import fetch_options

    ignored = [option.dest for option in fetch_options().values()] + list(OTHER_OPTIONS)
    given = [option_flag(dest) for dest in ignored if getattr(args, dest, None)]
    if given:
        raise UsageError(
            f"--keep cannot go with {', '.join(given)}: it keeps groups of the last review by writing exclusions into "
            f"{PROFILE_PATH.as_posix()}, and fetches nothing; run `sitegen fetch --review` (with the sources to group) "
            "first, then `sitegen fetch --keep N` alone"
        )


def load_review(site: Path) -> dict[str, Any]:
    path = site / REVIEW_FILE
    try:
        review = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContentError(
            "sitegen fetch: error: no review to keep groups of: run `sitegen fetch --review` (with the name search, e.g. --author NAME) first"
        ) from None
    except (OSError, ValueError) as error:
        raise ContentError(f"{REVIEW_FILE.as_posix()}: unreadable ({error}); run `sitegen fetch --review` again") from None
    if not isinstance(review, dict) or not isinstance(review.get("groups"), list):
        raise ContentError(f"{REVIEW_FILE.as_posix()}: not a review; run `sitegen fetch --review` again")
    return review


class ProfileEditor:
    """profile.yaml read and written with ruamel.yaml's round trip: comments, order and quoting stay."""

    LIST_KEYS = ("exclude_ids", "exclude_categories")

    def __init__(self, path: Path):
        from ruamel.yaml import YAML

        self.path = path
        self.text = path.read_text(encoding="utf-8") if path.is_file() else ""
        self.yaml = YAML()
        self.yaml.width = 4096  # a long exclusion list stays on its line
        self.yaml.preserve_quotes = True
        if re.search(r"^ +- ", self.text, re.MULTILINE):  # block lists indented under their key
            self.yaml.indent(mapping=2, sequence=4, offset=2)
        loaded = self.yaml.load(self.text) if self.text.strip() else None
        if loaded is None:
            from ruamel.yaml.comments import CommentedMap

            loaded = CommentedMap()
        if not isinstance(loaded, dict):
            raise ContentError(f"{PROFILE_PATH.as_posix()}:1: expected a mapping (name: ..., arxiv: ...)")
        self.data = loaded  # a CommentedMap: dumped again with its comments

    def arxiv_lists(self) -> dict[str, tuple[str, ...]]:
        section = self.data.get("arxiv") or {}
        return {key: tuple(str(v) for v in (section.get(key) or ())) for key in self.LIST_KEYS}

    def set_arxiv_lists(self, values: dict[str, list[str]]) -> None:
        from ruamel.yaml.comments import CommentedMap, CommentedSeq
        from ruamel.yaml.scalarstring import SingleQuotedScalarString

        section = self.data.get("arxiv")
        if not isinstance(section, dict):
            section = CommentedMap()
            self.data["arxiv"] = section
        for key in self.LIST_KEYS:
            items = values.get(key) or []
            if not items:
                section.pop(key, None)
                continue
            listed = CommentedSeq(SingleQuotedScalarString(v) if key == "exclude_ids" else v for v in items)
            listed.fa.set_flow_style()
            section[key] = listed

    def save(self) -> None:
        import io

        buffer = io.StringIO()
        self.yaml.dump(self.data, buffer)
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        temp.write_text(buffer.getvalue(), encoding="utf-8")
        os.replace(temp, self.path)
