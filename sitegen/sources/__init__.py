"""Where records come from: the two registries of record sources.

- Readers turn a file under `content/records/` into record mappings at build
  time, chosen by the file's suffix (`.yaml`/`.yml`, `.bib`, `.ris`, ...).
- Fetchers pull records from a scholarly service when `sitegen fetch` runs, and
  write them as YAML files that the YAML reader then reads like any other
  (`arxiv`, and the others of SPEC §6).

A source is one module that registers itself here; the import list at the end of
this file is the only place that names them all. Every record keeps the `Origin`
its source gave it, so later stages never guess from a folder name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sitegen.errors import Problem

# How far a source's fields are trusted when the versions of one work merge (`merge.merge_works`): among records
# that are all published (or all preprints), a lower rank's fields come first. Each source declares its own.
HAND_WRITTEN = 0  # a YAML record the user wrote: a correction, each field it sets wins
OWN_LIST = 1  # the user's own reference lists and record files (BibTeX, RIS, CSL-JSON, Markdown front matter)
PROJECT_FILE = 2  # a file a project keeps about its own work (a program repository's CITATION.cff), ids made up
PUBLISHER = 3  # the publisher's record (Crossref)
LIBRARY = 4  # a library's record of what the publisher deposited, checked and indexed by people (PubMed: NLM's MEDLINE)
AUTHORS = 5  # the authors' own deposit (arXiv)
DERIVED = 6  # the records an index derives by machine (OpenAlex)
CATALOGUE = 7  # a catalogue's entries, whose author names carry numbers for namesakes (DBLP: "Sheng Lin 0003")
SUMMARY = 8  # summaries that may list no one (ORCID)
UNRANKED = 9  # a source no reader or fetcher of this version declares (a file fetched by a newer sitegen)

# A reader's answer for one file: the record mappings it holds (each a
# `PositionedDict`, so validation can say `path:line:`), and what was wrong.
ReadResult = tuple[list[Any], list[Problem]]


@dataclass(frozen=True)
class Reader:
    """A build-time record source: reads the files whose names end with one of `suffixes`."""

    name: str  # the `Origin.source` of its records
    suffixes: tuple[str, ...]
    read: Callable[[str, str], ReadResult]  # (file text, the path messages name) -> mappings, problems
    rank: int  # how far its fields are trusted in a merge (the scale above)
    # whether a field sitegen does not know is a warning (a typo in a file written for sitegen);
    # not for a format whose files carry many fields for other programs (BibTeX's)
    unknown_fields_warned: bool = True
    # what the format's files write in `authors` for the site's owner (Hugo Blox's `admin`): the profile's name is shown
    owner_aliases: tuple[str, ...] = ()
    # after "save the file as UTF-8" when a file is not: how, in the programs that write the format's files
    save_as_utf8: str = ""
    # whether a record's id is the citation key the user cites it by (a .bib entry's key, a CSL item's `citation-key`):
    # publications.bib keeps it, so that `\cite{key}` and Pandoc's `@key` go on working (enrich.unique_cite_keys)
    ids_are_cite_keys: bool = False


READERS: dict[str, Reader] = {}  # suffix -> reader
_READERS_BY_NAME: dict[str, Reader] = {}  # name -> reader: each record asks by its `Origin.source`


def register_reader(reader: Reader) -> Reader:
    for suffix in reader.suffixes:
        if suffix in READERS:
            raise ValueError(f"two readers for {suffix} files: {READERS[suffix].name} and {reader.name}")
        if not suffix.startswith(".") or "." in suffix[1:]:
            raise ValueError(f"{reader.name}: a suffix is one '.' and the letters after it, not {suffix!r}")
        READERS[suffix] = reader
    _READERS_BY_NAME.setdefault(reader.name, reader)
    return reader


def reader_named(name: str) -> Reader | None:
    return _READERS_BY_NAME.get(name)


def owner_aliases() -> dict[str, tuple[str, ...]]:
    """Source name -> what its files write for the site's owner (lower case), for the readers that have such names."""
    return {reader.name: reader.owner_aliases for reader in READERS.values() if reader.owner_aliases}


def reader_for(path: str) -> Reader | None:
    """The reader of a record file, by its suffix (case ignored); None for any other file."""
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return READERS.get(name[dot:].lower()) if dot >= 0 else None


@dataclass(frozen=True)
class FetchOption:
    """One way to ask a fetcher for records: its `sitegen fetch` option and, where the same can be asked in a
    file, the key of profile.yaml (and of a person's file in content/people/) that asks it. The command line,
    the profile's known fields and the check of each value before any request all follow from these."""

    flag: str  # "--dblp-name"
    kind: str  # the `Ask.kind` the fetcher receives ("name")
    metavar: str = "VALUE"
    help: str = ""  # "" for an option another fetcher declares and describes (Crossref reads ORCID's --orcid)
    profile_key: str = ""  # profile.yaml's key asking the same: one string or a list of strings
    person_key: bool = False  # a person's file in content/people/ may hold `profile_key` too
    check: Callable[[str], str] | None = None  # the value normalised; ValueError saying what is wrong
    commas: bool = False  # the option's value may list several, separated by commas
    switch: bool = False  # a flag without a value

    @property
    def dest(self) -> str:
        """The option's attribute on the parsed command line (`dblp_name`)."""
        return self.flag.removeprefix("--").replace("-", "_")


@dataclass(frozen=True)
class Fetcher:
    """A source `sitegen fetch` pulls from; what it writes goes to `content/records/<name>/`.

    Everything the rest of sitegen needs to know of it is declared here, so a new fetcher is one module
    (and its line at the end of this file): the command line, profile.yaml's fields and the check of what
    is asked are made from `options`, `profile_key` and the hooks."""

    name: str
    fetch: Callable[..., Any]  # see sitegen.fetch for the arguments it is called with
    rank: int  # how far its records' fields are trusted in a merge (the scale above)
    label: str = ""  # as users read it ("OpenAlex"); the name if empty
    api_env: str = ""  # the environment variable that points it at another endpoint (a mirror, a test's fake)
    options: tuple[FetchOption, ...] = ()
    # a key of profile.yaml that only `profile_asks` reads (`zotero:`, a mapping; `pubmed: true`)
    profile_key: str = ""
    # (profile.yaml's data, its path) -> what to ask it, for a source configured by a mapping of its own (`zotero:`)
    profile_asks: Callable[[dict[str, Any], str], list[Any]] | None = None
    # (a person of content/people/, `sitegen.people.files.Person`) -> what to ask it, beyond its options' `person_key`s
    person_asks: Callable[[Any], list[Any]] | None = None
    # (the asks of every source) -> None, or `sitegen.fetch.UsageError` for asks that cannot go together
    check_asks: Callable[[list[Any]], None] | None = None
    # (profile.yaml's `sitegen.validate.Fields`, its path, the problems) -> None: that mapping of its own checked at its lines
    check_profile: Callable[[Any, str, list[Problem]], None] | None = None

    @property
    def shown_name(self) -> str:
        return self.label or self.name


FETCHERS: dict[str, Fetcher] = {}  # name -> fetcher


def register_fetcher(fetcher: Fetcher) -> Fetcher:
    if fetcher.name in FETCHERS:
        raise ValueError(f"two fetchers named {fetcher.name}")
    FETCHERS[fetcher.name] = fetcher
    return fetcher


def fetch_options() -> dict[str, FetchOption]:
    """Every option `sitegen fetch` takes to name what to fetch, once each (flag -> the declaration that describes
    it), in the order the fetchers registered."""
    options: dict[str, FetchOption] = {}
    for fetcher in FETCHERS.values():
        for option in fetcher.options:
            described = options.get(option.flag)
            if described is None or (option.help and not described.help):
                options[option.flag] = option
    return options


def fetcher_profile_keys() -> frozenset[str]:
    """The keys of profile.yaml that name what to fetch (`orcid`, `dois`, `zotero`, ...)."""
    keys = {fetcher.profile_key for fetcher in FETCHERS.values()} | {o.profile_key for f in FETCHERS.values() for o in f.options}
    return frozenset(keys - {""})


def source_label(name: str) -> str:
    """A fetcher's name as users read it ("OpenAlex"); a name no fetcher has, as it is."""
    fetcher = FETCHERS.get(name)
    return fetcher.shown_name if fetcher else name


def keeps_cite_keys(name: str) -> bool:
    """Whether the records of the reader named `name` (their `Origin.source`) keep their ids as citation keys."""
    reader = reader_named(name)
    return reader is not None and reader.ids_are_cite_keys


def source_rank(name: str) -> int:
    """The merge rank of the reader or fetcher named `name` (its records' `Origin.source`)."""
    source = reader_named(name) or FETCHERS.get(name)
    return source.rank if source else UNRANKED


from sitegen.sources import (  # noqa: E402,F401  (each registers itself)
    ads,
    arxiv,
    bibtex,
    citation_cff,
    crossref,
    csl_json,
    dblp,
    hal,
    inspire,
    markdown_records,
    medline,
    openalex,
    orcid,
    pubmed,
    ris,
    yaml_records,
    zotero,
)
