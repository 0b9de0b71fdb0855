"""CSL-JSON files under `content/records/` read as records at build time: what Zotero writes ("Export
Collection…" → CSL JSON), Better BibTeX's automatic export, Pandoc and citeproc users' `references.json`, and
the CSL JSON Crossref answers for a DOI.

A file holds a list of CSL items (or one item, or Zotero's API answer `{"items": [...]}`), each an object of
the CSL variables (csl-data.json): `type`, `title`, `author` as `{"family", "given"}` objects, `issued` as
`{"date-parts": [[2024, 3, 15]]}`, `container-title`, `DOI`, ...

Why the standard library's `json` reads the file, and not `sitegen.load.parse_yaml` (JSON is YAML 1.2, and
the YAML parser knows the line of every key) nor citeproc-py (`CiteProcJSON` takes the items already parsed):
a broken file is best reported in JSON's own terms, at the place JSON's own parser stops (`path:line:col:
invalid JSON: Expecting ',' delimiter`), while PyYAML, a YAML 1.1 parser, answers some broken JSON with a
message about YAML and rejects some valid JSON: the `\\ud83d\\ude00` surrogate pairs in which Python's
`json.dumps` (and so many a tool) writes an emoji, a key longer than 1024 characters. So `json` parses, with
its pure-Python scanner (`json.scanner.py_make_scanner`, the one its C scanner stands in for) told to note
where each object and each value starts: every item and field has its line, for `path:line:` messages,
and what JSON means is what JSON's own parser says. citeproc-py gives the vocabulary: `citeproc.VARIABLES`
and `citeproc.types` are CSL 1.0.1's variables and item types, to which CSL 1.0.2's are added here, so that
a field that is no CSL variable is a warning naming the one meant, and one that is but has no place in a
record is a warning naming it, not lost without a word.

The fields are mapped as the BibTeX and RIS readers map theirs (`sitegen.sources.bibtex`, `.ris`): the same
record fields, link kinds, arXiv ids and types, so that one paper in a .bib, a .ris and a .json file is one
record; text is not LaTeX but read as a RIS value is, as written (the pipeline converts `$...$` and escapes
the rest). An item's `citation-key` (CSL 1.0.2, Better BibTeX), else its `id` when that is a citation key
(Better BibTeX's, Pandoc's), is the record's id; Zotero's `id` (`http://zotero.org/users/.../items/ABCD1234`)
and a number are not, and the id is then made as the RIS reader makes one (`muller2024sparse`).
"""

from __future__ import annotations

import bisect
import datetime
import difflib
import functools
import json
import json.decoder
import json.scanner
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from sitegen.categories import category_named
from sitegen.errors import Location, Problem
from sitegen.load import PositionedDict
from sitegen.model import USABLE_CITE_KEY
from sitegen.names import family_with_particles
from sitegen.record_types import bare_doi, checked_pmcid, checked_pmid, thesis_venue, type_from_evidence
from sitegen.sources import OWN_LIST, Reader, ReadResult, register_reader
from sitegen.sources.bibtex import (
    ARXIV_DOI_ID,
    ARXIV_IN_TEXT,
    ARXIV_URL,
    RecordMapping,
    date_start,
    keyword_pieces,
    link_kind,
    markdown_safe,
    put_link,
    without_identifier_addresses,
)
from sitegen.sources.rich_text import rich_text_latex
from sitegen.sources.ris import WORK_KIND_ENTRIES, lettered_id, made_id
from sitegen.values import whole_number

# CSL item types -> the BibTeX entry type that says the same (what sitegen.record_types decides a type by), as
# the RIS reader's TYPE_ENTRIES; CSL's `article` (a preprint or working paper) and the types below it say
# nothing, and the venue and identifiers decide, as for BibTeX's @misc
TYPE_ENTRIES = {
    **dict.fromkeys(("article-journal", "article-magazine", "article-newspaper", "review", "review-book", "periodical"), "article"),
    "paper-conference": "inproceedings",
    **dict.fromkeys(("book", "classic"), "book"),
    "collection": "collection",
    "chapter": "incollection",
    **dict.fromkeys(("entry", "entry-dictionary", "entry-encyclopedia"), "inreference"),
    "thesis": "thesis",
    **dict.fromkeys(("report", "standard"), "techreport"),
    "patent": "patent",
    "software": "software",
    "dataset": "dataset",
    "manuscript": "unpublished",
    **dict.fromkeys(("webpage", "post-weblog", "post"), "online"),
}
# CSL 1.0.2's types and variables beyond CSL 1.0.1's, which citeproc-py knows (citeproc.types, citeproc.VARIABLES)
CSL_102_TYPES = frozenset(
    {"classic", "collection", "dataset", "document", "event", "hearing", "performance", "periodical", "regulation", "software", "standard"}
)
CSL_102_VARIABLES = frozenset(
    """available-date chair citation-key compiler contributor curator custom director division editorial-director
    event-title executive-producer guest host narrator organizer part-number part-title performer printing-number
    producer publisher-place reviewed-genre reviewed-title script-writer series-creator supplement-number translator
    volume-title year-suffix""".split()
)
# the types the reader knows without asking citeproc-py: those it maps, and those that say nothing
READ_TYPES = frozenset(TYPE_ENTRIES) | {"article", "document"}


@functools.cache
def csl_vocabulary() -> tuple[frozenset[str], frozenset[str]]:
    """CSL's item types and variables: citeproc-py's (CSL 1.0.1's, its Python names written as CSL writes them:
    `container-title`, but `archive_location`) and CSL 1.0.2's. Asked only about a type or key the reader does
    not read: importing citeproc-py takes a third of a second, which a build whose items hold only what is read
    does not pay (as `sitegen.cite` imports it only for the first citation it makes)."""
    import citeproc
    import citeproc.types

    types = frozenset(getattr(citeproc.types, name) for name in dir(citeproc.types) if name.isupper()) | CSL_102_TYPES
    variables = frozenset(name if name == "archive_location" else name.replace("_", "-") for name in citeproc.VARIABLES)
    return types, variables | CSL_102_VARIABLES | {"id", "type"}


def is_csl_type(kind: object) -> bool:
    return isinstance(kind, str) and (kind in READ_TYPES or kind in csl_vocabulary()[0])


# keys Zotero writes beside CSL's variables: its short journal name and short title
ZOTERO_KEYS = frozenset({"journalAbbreviation", "shortTitle"})
# keys of Crossref's CSL JSON (a DOI's answer to `Accept: application/vnd.citationstyles.csl+json`) beside CSL's
# variables, its REST API's: its bookkeeping (when it indexed and deposited the record, its member, a search score,
# text-mining links and licences, the dates of each printing, counts), left out without a word
CROSSREF_KEYS = frozenset(
    """indexed created deposited published published-print published-online published-other reference-count
    references-count is-referenced-by-count prefix member score resource link license content-domain relation
    alternative-id issn-type isbn-type journal-issue assertion subject update-policy update-to funder short-title
    article-number clinical-trial-number reference""".split()
)
# what the reader reads
READ_FIELDS = frozenset(
    """id type citation-key title author editor translator issued container-title container-title-short journalAbbreviation
    collection-title collection-number volume issue number page page-first DOI URL ISBN ISSN PMID PMCID abstract publisher
    publisher-place event event-title event-place genre edition version chapter-number language note keyword status
    archive archive_location subtitle short-container-title""".split()
)
# known and not shown, left out without a word: bookkeeping (when it was looked at, the catalogue it came from,
# a library's shelf mark), a short title, and what a citation processor works out itself
IGNORED_FIELDS = frozenset(
    """accessed source call-number title-short shortTitle citation-label citation-number first-reference-note-number
    locator year-suffix number-of-pages dimensions medium archive-place""".split()
)
_ARXIV_VENUE = re.compile(r"^\s*(?:arxiv(?:\.org)?|corr)\s*$", re.IGNORECASE)
_NOTE_FIELD = re.compile(r"^\s*([A-Za-z][\w .-]{0,40}?)\s*:\s*(.*?)\s*$")  # Zotero's Extra lines, 'PMID: 37001234'
_YEAR_IN_TEXT = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_WEB = ("https://", "http://")
_OTHERS = frozenset({"others", "et al.", "et al"})

_Warn = Callable[[int, str], None]


# -- the file's JSON, with the line of each object and value ---------------------------------------------


class _PositionedDecoder(json.JSONDecoder):
    """The standard library's decoder with its pure-Python scanner, whose objects are `PositionedDict`s: the
    line where each object starts and where each of its values starts (its key's line, as every JSON writer
    puts a value on its key's line). A key given twice keeps its last value, as every JSON parser does, and
    is noted in `repeated`."""

    def __init__(self, text: str):
        super().__init__(parse_constant=_no_constant)
        self.line_starts = [match.end() for match in re.finditer("\n", text)]
        self.repeated: list[tuple[int, str, int]] = []  # (line, key, line of its first value)
        self.parse_object = self._object
        self.scan_once = json.scanner.py_make_scanner(self)  # type: ignore[attr-defined]  # CPython's, not in typeshed

    def line_at(self, index: int) -> int:
        return bisect.bisect_right(self.line_starts, index) + 1

    def _object(self, s_and_end, strict, scan_once, object_hook, object_pairs_hook, memo=None):
        starts: list[int] = []

        def scan_value(string: str, index: int):
            starts.append(index)
            return scan_once(string, index)

        def positioned(pairs: list[tuple[str, Any]]) -> PositionedDict:
            data = PositionedDict()
            data.line = self.line_at(s_and_end[1] - 1)
            data.key_lines = {}
            for (key, value), start in zip(pairs, starts, strict=True):
                line = self.line_at(start)
                if key in data:
                    self.repeated.append((line, key, data.key_lines[key]))
                data[key], data.key_lines[key] = value, line
            return data

        return json.decoder.JSONObject(  # type: ignore[attr-defined]  # CPython's, not in typeshed
            s_and_end, strict, scan_value, None, positioned, memo
        )


_CONTROL_CHARACTER = "a tab or line break inside text: JSON writes it \\t or \\n"


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is no JSON value")


def parse_json(text: str, path: str) -> tuple[Any, list[Problem]]:
    """The file's JSON value (its objects `PositionedDict`s), or a `path:line:col:` problem where JSON's parser
    stops, in its words, with what it most often means."""
    decoder = _PositionedDecoder(text)
    try:
        data = decoder.decode(text)
    except json.JSONDecodeError as error:
        reason = _CONTROL_CHARACTER if error.msg.startswith("Invalid control character") else f"{error.msg}{_json_hint(error)}"
        return None, [Problem(f"invalid JSON: {reason}", Location(path, error.lineno, error.colno))]
    except RecursionError:
        return None, [Problem("invalid JSON: nested too deeply to read (no CSL-JSON file nests more than a few levels)", Location(path, 1))]
    except ValueError as error:  # NaN, Infinity; a number of thousands of digits
        return None, [Problem(f"invalid JSON: {error}", Location(path, 1))]
    problems = [
        Problem(f"key '{key}' is given twice (also on line {first}): the last is read; delete the other", Location(path, line), warning=True)
        for line, key, first in decoder.repeated
    ]
    return data, problems


def _json_hint(error: json.JSONDecodeError) -> str:
    """What a JSON parser's message most often means in a file a person edited."""
    rest = error.doc[error.pos :].strip()
    if not rest:  # 'Expecting value', "Expecting ',' delimiter", ...: wherever the file stops, JSON still goes on
        return ": the file ends before its JSON does (cut short?)"
    if error.msg.startswith("Unterminated string"):  # no closing quote before the file's end
        return ": the file ends inside this text (cut short?)"
    if error.msg.startswith("Expecting property name enclosed in double quotes") and rest.startswith("}"):
        return ": a comma before '}' ends no field; delete it"
    if error.msg == "Expecting value" and rest.startswith("]"):
        return ": a comma before ']' ends no item; delete it"
    if error.msg.startswith("Expecting property name") and rest.startswith("'"):
        return ': JSON writes names and text in double quotes ("title"), not single ones'
    return ""


# -- one file ---------------------------------------------------------------------------------------------


def read_csl_json_records(text: str, path: str) -> ReadResult:
    if not text.strip():
        return [], [Problem('empty file: no CSL-JSON items ([{"type": ..., "title": ...}])', Location(path, 1), warning=True)]
    data, problems = parse_json(text.removeprefix("\ufeff"), path)
    if data is None and problems:
        return [], problems
    items, problem = _items_of(data, path)
    if problem is not None:
        return [], [*problems, problem]
    reader = _FileReader(path, problems)
    return reader.read(items), reader.problems


def _items_of(data: Any, path: str) -> tuple[list[Any], Problem | None]:
    """The file's CSL items: a list of them, one item alone, or Zotero's web API's `{"items": [...]}`; a
    warning for JSON that is something else (sitegen's own records.json, another program's JSON: a `package.json`
    beside the records is not read, as a file no reader takes is not, rather than failing the build)."""
    line = data.line if isinstance(data, PositionedDict) else 1
    if isinstance(data, dict) and {"records", "count", "version"} <= set(data):
        return [], Problem(
            "this is sitegen's own records.json (what a build writes into output/), not CSL-JSON: not read; its records "
            "come from the files the site was built from, so delete this copy (to add references, export CSL JSON from "
            "Zotero or your reference manager)",
            Location(path, line),
            warning=True,
        )
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        data = data["items"]
    elif _looks_like_an_item(data):
        data = [data]
    if isinstance(data, list) and not data:
        return [], Problem("no CSL-JSON items in this file (an empty list)", Location(path, line), warning=True)
    if not isinstance(data, list) or not any(_looks_like_an_item(item) for item in data):
        what = "a list with no CSL item in it" if isinstance(data, list) else "an object" if isinstance(data, dict) else f"the value {str(data)[:40]!r}"
        keys = f" (with {', '.join(repr(key) for key in list(data)[:4])})" if isinstance(data, dict) and data else ""
        return [], Problem(
            f"not read: not a CSL-JSON file: it holds {what}{keys}, and CSL-JSON is a list of items each with a 'type' "
            'and a \'title\' ([{"type": "article-journal", "title": ...}]); in Zotero, Export Collection… with the format '
            "CSL JSON writes one",
            Location(path, line),
            warning=True,
        )
    return data, None


def _looks_like_an_item(data: Any) -> bool:
    """A CSL item: an object whose `type` is one of CSL's, or with a `title` and an `author` or `issued` (an item
    whose type is misspelt); not another program's object that has a `type` of its own (package.json's
    `"type": "module"`, GeoJSON's `"Feature"`)."""
    return isinstance(data, dict) and (is_csl_type(data.get("type")) or ("title" in data and ("author" in data or "issued" in data)))


class _FileReader:
    def __init__(self, path: str, problems: list[Problem]):
        self.path = path
        self.problems = problems

    def problem(self, line: int | None, message: str, warning: bool = False) -> None:
        self.problems.append(Problem(message, Location(self.path, line), warning=warning))

    def warn(self, line: int, message: str) -> None:
        self.problem(line, message, warning=True)

    def read(self, items: list[Any]) -> list[PositionedDict]:
        read: list[tuple[PositionedDict, PositionedDict]] = []
        for item in items:
            if not isinstance(item, PositionedDict):
                self.problem(1, f"expected a CSL item (an object with 'type', 'title', ...), got {json.dumps(item)[:40]}")
                continue
            record = self.item_record(item)
            if record is not None:
                read.append((record, item))
        ids: dict[str, tuple[int, str]] = {}  # lower-case id -> the line and text of its item
        kept = [pair for pair in read if "id" in pair[0] and self.take_id(*pair, ids)]
        kept += [pair for pair in read if "id" not in pair[0] and self.take_id(*pair, ids)]
        self.problems.sort(key=lambda problem: problem.location.line or 0 if problem.location else 0)
        return [record for record, _ in sorted(kept, key=lambda pair: pair[1].line)]

    def take_id(self, record: PositionedDict, item: PositionedDict, ids: dict[str, tuple[int, str]]) -> bool:
        """Give the record an id no other item of the file has; False when it is not to be read (given twice)."""
        given = "id" in record
        record_id = str(record.get("id") or made_id(record))
        text = json.dumps(item, sort_keys=True)
        first = ids.get(record_id.lower())
        if first is not None:
            if first[1] == text:
                self.warn(item.line, f"this item is given twice, the same as on line {first[0]}: read once; delete this copy")
                return False
            if given:
                self.problem(
                    record.line_of("id"),
                    f"duplicate id '{record_id}': also on line {first[0]}; an id names one item: give this one an id of its own or delete the one you do not want",
                )
                return False
            record_id = lettered_id(record_id, ids)
        ids[record_id.lower()] = (item.line, text)
        record["id"] = record_id
        record.key_lines["id"] = record.key_lines.get("id", item.line)
        return True

    def item_record(self, item: PositionedDict) -> PositionedDict | None:
        """The record mapping of one item; None when it cannot be one (each problem reported)."""
        self.warn_of_unknowns(item)
        kind = item.get("type")
        if not isinstance(kind, str) or not kind.strip():
            self.warn(item.line, "this item has no 'type' (article-journal, paper-conference, book, ...): read as 'document'")
            kind = "document"
        elif not is_csl_type(kind):
            meant = difflib.get_close_matches(kind, sorted(csl_vocabulary()[0]), n=1, cutoff=0.6)
            hint = f"; did you mean '{meant[0]}'?" if meant else ""
            self.warn(item.line_of("type"), f"unknown CSL type '{kind}'{hint} (read as 'document')")
        fields = _Item(item, self.warn)
        title = fields.text("title")
        if title is None:
            self.problem(item.line, 'this item has no title ("title": ...): it is not read')
            return None
        if (subtitle := fields.text("subtitle")) is not None:  # Crossref's, apart from the title
            title = (f"{title[0]}{' ' if title[0][-1:] in '?!.' else ': '}{subtitle[0]}", title[1])
        dates = fields.date("issued")
        if isinstance(dates, str):
            self.problem(item.line_of("issued"), dates)
            return None
        return item_record(fields, kind, title, dates)

    def warn_of_unknowns(self, item: PositionedDict) -> None:
        """A key that is no CSL variable (a typo: 'titel'), and a CSL variable that has no place in a record."""
        for key in item:
            if key in READ_FIELDS or key in IGNORED_FIELDS or key in ZOTERO_KEYS or key in CROSSREF_KEYS or not isinstance(key, str):
                continue
            line = item.line_of(key)
            if key in csl_vocabulary()[1]:
                if item[key] not in ("", [], {}, None):  # Crossref's `"original-title": []` leaves nothing out
                    self.warn(line, f"field '{key}' is left out: sitegen's records have no place for it")
                continue
            meant = difflib.get_close_matches(key, sorted(READ_FIELDS), n=1, cutoff=0.7)
            hint = f"; did you mean '{meant[0]}'?" if meant else ""
            self.warn(line, f"unknown CSL-JSON field '{key}'{hint} (left out)")


class _Item:
    """One CSL item's values as text, each with its line; a value of the wrong kind a warning."""

    def __init__(self, item: PositionedDict, warn: _Warn):
        self.item = item
        self.warn = warn
        self.line = item.line
        self.notes = _note_lines(self.text("note", collapse=False))

    def line_of(self, key: str) -> int:
        return self.item.line_of(key)

    def text(self, *keys: str, collapse: bool = True) -> tuple[str, int] | None:
        """The first of `keys` the item gives as text (a number as its digits), with its line; of a list of texts, as
        Crossref's CSL JSON gives `ISSN`, `subtitle` and `short-container-title`, the first (an empty list: none)."""
        for key in keys:
            value = self.item.get(key)
            if isinstance(value, list) and all(isinstance(part, str) for part in value):
                value = next((part for part in value if part.strip()), None)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                self.warn(self.line_of(key), f"field '{key}': expected text, got {json.dumps(value)[:40]} (left out)")
                continue
            written = str(value)
            written = " ".join(written.split()) if collapse else written.strip()
            if written:
                return written, self.line_of(key)
        return None

    def names(self, key: str) -> tuple[list[str], bool, int] | None:
        """A list of CSL names as sitegen writes a person ('Family, Given', an organisation in braces), whether
        it ends in `others`, and its line."""
        value = self.item.get(key)
        if value is None:
            return None
        if not isinstance(value, list):
            self.warn(self.line_of(key), f'field \'{key}\': expected a list of names ([{{"family": ..., "given": ...}}]) (left out)')
            return None
        names, others = [], False
        for person in value:
            name = csl_name_text(person) if isinstance(person, dict) else None
            if name is None:
                line = person.line if isinstance(person, PositionedDict) else self.line_of(key)
                self.warn(line, f"field '{key}': {json.dumps(person)[:50]} is no name (a 'family' and 'given', or a 'literal'): left out")
            elif name.casefold() in _OTHERS:
                others = True
            else:
                names.append(name)
        return names, others, self.line_of(key)

    def date(self, key: str) -> tuple[tuple[int, int, int], int] | str:
        """The year, month and day (0 when not given) of a CSL date, from its `date-parts` (a range by its start),
        else its `raw` or EDTF text, else a year in its `literal` ('Spring 2024'); a message when none is read."""
        value = self.item.get(key)
        line = self.line_of(key)
        if value is None:
            return 'this item has no date ("issued": {"date-parts": [[2024, 3, 15]]}): it is not read'
        if isinstance(value, str):
            value = {"raw": value}
        parts = value.get("date-parts") if isinstance(value, dict) else None
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            numbers = [_whole_number(part) for part in parts[0][:3]]
            if numbers[0] is not None and all(number is not None for number in numbers):
                year, month, day = (*numbers, 0, 0)[:3]
                return (year or 0, month or 0, day or 0), line
        for name in ("raw", "literal"):
            written = value.get(name) if isinstance(value, dict) else None
            if isinstance(written, str) and written.strip():
                start = date_start(written)
                if start is not None:
                    return start, line
                if found := _YEAR_IN_TEXT.search(written):
                    return (int(found.group(1)), 0, 0), line
        return f'\'{key}\': {json.dumps(value)[:50]} gives no year (write "issued": {{"date-parts": [[2024]]}}); the item is not read'


def _whole_number(value: Any) -> int | None:
    """A date part: 2024 or "2024" (Zotero writes some as text)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return whole_number(value)
    return None


def csl_name_text(person: dict) -> str | None:
    """A CSL name as sitegen writes a person: 'van der Berg, Jan' (the particles with the family name, as
    BibTeX's 'von Last, First'), 'King, Jr., Martin Luther' with a suffix, a `literal` (an organisation, a
    collaboration) in braces, as BibTeX keeps one name whole; None for an object that names no one."""
    literal = person.get("literal")
    if isinstance(literal, str) and literal.strip():
        return "{" + " ".join(literal.split()) + "}" if " " in literal.strip() or "," in literal else literal.strip()
    parts = {
        key: " ".join(value.split())
        for key in ("given", "family", "dropping-particle", "non-dropping-particle", "suffix")
        if isinstance(value := person.get(key), str)
    }
    family = family_with_particles((parts.get("dropping-particle", ""), parts.get("non-dropping-particle", "")), parts.get("family", ""))
    given = parts.get("given", "")
    if not family:
        return given or None
    if not given:
        return "{" + family + "}" if " " in family else family
    suffix = parts.get("suffix", "")
    return f"{family}, {suffix}, {given}" if suffix else f"{family}, {given}"


class _NoteLine(NamedTuple):
    """A line of an item's note (Zotero's Extra field): its `Name: value` name in lower case ('' for none) and
    value, the line as written, and the note's line in the file."""

    name: str
    value: str
    written: str
    line: int


def _note_lines(note: tuple[str, int] | None) -> list[_NoteLine]:
    if note is None:
        return []
    lines = []
    for text in note[0].splitlines():
        if text.strip():
            field = _NOTE_FIELD.match(text)
            lines.append(_NoteLine(field.group(1).lower() if field else "", field.group(2) if field else "", " ".join(text.split()), note[1]))
    return lines


# -- one item -> one record mapping -------------------------------------------------------------------------


def item_record(item: _Item, kind: str, title: tuple[str, int], dates: tuple[tuple[int, int, int], int]) -> PositionedDict:
    """The record mapping of one item that has a title and a date (SPEC §2 fields, the details as extras)."""
    record = RecordMapping(item.line)
    entry_type = TYPE_ENTRIES.get(kind, "misc")
    if (key := _citation_key(item)) is not None:
        record.put("id", *key)
    record.put("title", rich_text_latex(title[0]), title[1])
    _put_people(record, item)
    (year, month, day), date_line = dates
    record.put("year", year, date_line)
    if month and day and _real_day(year, month, day):
        record.put("date", f"{year:04d}-{month:02d}-{day:02d}", date_line)
    elif 1 <= month <= 12:
        record.put("month", month, date_line)
    arxiv = _arxiv_id(item)
    doi = _doi(item)
    source, venue_key = _put_source(record, item, kind, arxiv)
    if arxiv:
        record.put("arxiv", arxiv[0], arxiv[1])
    if doi:
        record.put("doi", doi[0], doi[1])
    if (abstract := item.text("abstract", collapse=False)) is not None:
        record.put("abstract", "\n\n".join(markdown_safe(" ".join(part.split())) for part in re.split(r"\n\s*\n", abstract[0]) if part.strip()), abstract[1])
    _put_categories(record, item)
    _put_ids(record, item)
    links = _links(item)
    record.put("links", without_identifier_addresses(links, arxiv and arxiv[0], doi and doi[0]), item.line)
    if (language := item.text("language")) is not None:
        record.put("language", language[0], language[1])
    if (status := item.text("status")) is not None:
        record.put("status", status[0][:1].upper() + status[0][1:], status[1])  # 'forthcoming', 'in press'
    genre = item.text("genre")
    words = " ".join(note.written for note in item.notes) + " " + (genre[0] if genre else "")
    typed_by = "" if venue_key in ("event-title", "event") else source  # a meeting's name types nothing, as in BibTeX
    record.put("type", type_from_evidence(entry_type, typed_by, arxiv and arxiv[0], doi and doi[0], links, words, title[0]), item.line)
    if entry_type in WORK_KIND_ENTRIES:
        record.put("bibtex_type", entry_type, item.line)
    _put_thesis_and_report(record, genre, source)
    _put_details(record, item, kind, venue_key, arxiv)
    return record.data


def _real_day(year: int, month: int, day: int) -> bool:
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    return True


def _citation_key(item: _Item) -> tuple[str, int] | None:
    """`citation-key` (CSL 1.0.2, Better BibTeX), Better BibTeX's pinned 'Citation Key: ...' line of the note,
    else `id` when it is a citation key (Better BibTeX's, Pandoc's): not Zotero's item address
    (`http://zotero.org/users/.../items/ABCD1234`, `12345/ABCD1234`) nor a number (another library's item 12)."""
    candidates = [item.text("citation-key")]
    candidates += [(note.value, note.line) for note in item.notes if note.name == "citation key" and note.value]
    candidates.append(item.text("id"))
    for found in candidates:
        if found is not None and USABLE_CITE_KEY.match(found[0]) and not found[0].isdigit() and "/" not in found[0]:
            return found
    return None


def _put_people(record: RecordMapping, item: _Item) -> None:
    for key, name in (("author", "authors"), ("editor", "editors"), ("translator", "translators")):
        found = item.names(key)
        if found is None:
            continue
        names, others, line = found
        record.put(name, names, line)
        if others and name == "authors":
            record.put("et_al", True, line)


def _arxiv_id(item: _Item) -> tuple[str, int] | None:
    """arXiv's id: Zotero's `number` ('arXiv:2401.01234') and note ('arXiv: 2401.01234'), an old Zotero
    export's venue ('arXiv:2401.01234 [cs]'), sitegen's own `archive` and `number`, an arxiv.org address,
    arXiv's DataCite DOI."""
    texts = [item.text(key) for key in ("number", "archive_location", "container-title", "publisher")]
    texts += [(note.written, note.line) for note in item.notes]
    for found in texts:
        if found is not None and (match := ARXIV_IN_TEXT.search(found[0])):
            return match.group(1), found[1]
    if (url := item.text("URL")) is not None and (match := ARXIV_URL.match(url[0])):
        return match.group(2), url[1]
    if (doi := item.text("DOI")) is not None and (match := ARXIV_DOI_ID.match(bare_doi(doi[0]))):
        return match.group(1), doi[1]
    return None


def _doi(item: _Item) -> tuple[str, int] | None:
    found = item.text("DOI") or next(((note.value, note.line) for note in item.notes if note.name == "doi" and note.value), None)
    return (bare_doi(found[0]), found[1]) if found else None


def _put_source(record: RecordMapping, item: _Item, kind: str, arxiv) -> tuple[str, str]:
    """The venue and the key it came from: the journal, proceedings or book (`container-title`), else the
    meeting (`event-title`) of a paper with no proceedings, else the publisher (a thesis's university, a
    report's institution, a book's publisher, a preprint's server); 'arXiv' for a preprint's."""
    keys = ("container-title", "event-title", "event", "publisher")
    found = next(((key, value) for key in keys if (value := item.text(key)) is not None), None)
    if found is None:
        if arxiv:
            record.put("source", "arXiv", arxiv[1])
            return "arXiv", ""
        return "", ""
    key, (venue, line) = found
    if arxiv and (ARXIV_IN_TEXT.search(venue) or _ARXIV_VENUE.match(venue)):
        venue = "arXiv"
    record.put("source", rich_text_latex(venue), line)
    short = item.text("container-title-short", "journalAbbreviation", "short-container-title") if key == "container-title" else None
    if short is not None and short[0].casefold() != venue.casefold():
        record.put("venue_short", short[0], short[1])
    return venue, key


def _put_categories(record: RecordMapping, item: _Item) -> None:
    """`keyword`, which Zotero writes as an item's tags joined with ', ': each a category; one that names an arXiv
    class as Zotero and ADS write them ('Computer Science - Machine Learning') is that class (cs.LG), as in RIS,
    also a class whose name has a comma in it ('Computer Science - Distributed, Parallel, and Cluster Computing')."""
    found = item.text("keyword")
    if found is None:
        return
    categories: list[str] = []
    seen: set[str] = set()
    for word in _keywords(found[0]):
        if word and word.casefold() not in seen:
            seen.add(word.casefold())
            categories.append(word)
    record.put("categories", categories, found[1])


def _keywords(text: str) -> list[str]:
    """The keywords of a `keyword` value, split at its commas and semicolons, but for the commas inside the name of
    an arXiv class (each keyword that names one is the class)."""
    pieces = [" ".join(piece.split()) for piece in keyword_pieces(text)]
    words, start = [], 0
    while start < len(pieces):
        end = next((end for end in range(len(pieces), start, -1) if category_named(", ".join(pieces[start:end]))), start + 1)
        joined = ", ".join(pieces[start:end])
        words.append(category_named(joined) or joined)
        start = end
    return words


def _put_ids(record: RecordMapping, item: _Item) -> None:
    """`PMID` and `PMCID` (or Zotero's 'PMID: ...' and 'PMCID: ...' lines of the note); one that is no such id
    a warning."""
    ids = PositionedDict()
    ids.line = item.line
    ids.key_lines = {}
    for name, key, check in (("pmid", "PMID", checked_pmid), ("pmcid", "PMCID", checked_pmcid)):
        found = item.text(key) or next(((note.value, note.line) for note in item.notes if note.name == name and note.value), None)
        if found is None:
            continue
        if (checked := check(found[0])) is not None:
            ids[name], ids.key_lines[name] = checked, found[1]
        else:
            item.warn(found[1], f"'{key}': {found[0]!r} is no {key} (left out)")
    record.put("ids", ids, item.line)


def _links(item: _Item) -> PositionedDict:
    """`URL`, named by what it leads to (abs, pdf, doi, code, html)."""
    links = PositionedDict()
    links.line = item.line
    links.key_lines = {}
    if (url := item.text("URL")) is not None:
        if url[0].startswith(_WEB):
            put_link(links, link_kind(url[0]), url[0], url[1])
        else:
            item.warn(url[1], f"'URL': {url[0][:40]!r} is no web address (left out)")
    return links


def _put_thesis_and_report(record: RecordMapping, genre: tuple[str, int] | None, source: str) -> None:
    """A thesis's `genre` ('PhD thesis', as Zotero writes a thesis's type) before its university, as a YAML
    record's venue names the degree ('PhD thesis, University of X'); a report's `genre` its `report_type`."""
    if genre is None:
        return
    if record.data.get("type") == "thesis" and not thesis_venue(source)[0] and thesis_venue(genre[0])[0]:
        record.put("source", f"{genre[0]}, {source}" if source else genre[0], genre[1])
    elif record.data.get("type") == "report":
        record.put("report_type", genre[0], genre[1])


_NOTE_FIELDS_READ = frozenset({"arxiv", "doi", "pmid", "pmcid", "citation key"})


def _put_details(record: RecordMapping, item: _Item, kind: str, venue_key: str, arxiv) -> None:
    """What the exports and templates show beyond SPEC §2's fields, under BibTeX's names (as the BibTeX and RIS
    readers keep them): volume, number (`issue`, else `number`, else `collection-number`), pages, edition (a
    program's `version`), series, publisher, place, chapter, ISBN, ISSN, the meeting, the note."""
    for key, name in (("volume", "volume"), ("collection-title", "series"), ("edition", "edition"), ("chapter-number", "chapter")):
        if (found := item.text(key)) is not None:
            record.put(name, found[0], found[1])
    if (version := item.text("version")) is not None:
        record.put("version", version[0], version[1])
    numbers = [(key, found) for key in ("issue", "number", "collection-number") if (found := item.text(key)) is not None]
    numbers = [(key, found) for key, found in numbers if not (key == "number" and arxiv and ARXIV_IN_TEXT.search(found[0]))]
    if numbers:
        record.put("number", numbers[0][1][0], numbers[0][1][1])
        for key, found in numbers[1:]:
            item.warn(found[1], f"field '{key}' is left out: the record keeps one number, the '{numbers[0][0]}' ({numbers[0][1][0]})")
    if (pages := item.text("page", "page-first")) is not None:
        record.put("pages", re.sub(r"(?<=\w)\s*(?:-|--|\u2013)\s*(?=\w)", "\u2013", pages[0]), pages[1])
    if venue_key != "publisher" and (publisher := item.text("publisher")) is not None and record.data.get("source") != "arXiv":
        record.put("publisher", publisher[0], publisher[1])
    if (place := item.text("publisher-place", "event-place")) is not None:
        record.put("address", place[0], place[1])
    if venue_key not in ("event-title", "event") and (event := item.text("event-title", "event")) is not None:
        record.put("eventtitle", event[0], event[1])
    for key, name in (("ISBN", "isbn"), ("ISSN", "issn")):
        if (found := item.text(key)) is not None:
            record.put(name, found[0], found[1])
    archive = item.text("archive") if not isinstance(item.item.get("archive"), list) else None  # Crossref's: where it is kept safe
    if archive is not None and not (arxiv and _ARXIV_VENUE.match(archive[0])):
        item.warn(archive[1], f"field 'archive' ({archive[0][:40]!r}) is left out: sitegen's records have no place for it")
    if (place := item.text("archive_location")) is not None and not ARXIV_IN_TEXT.search(place[0]):
        item.warn(place[1], f"field 'archive_location' ({place[0][:40]!r}) is left out: sitegen's records have no place for it")
    notes = [note for note in item.notes if note.name not in _NOTE_FIELDS_READ]
    tex = [note.written for note in notes if note.name.startswith("tex.")]
    if tex:
        item.warn(item.line_of("note"), f"note: Better BibTeX's lines for its BibTeX export are left out ({'; '.join(tex)[:80]})")
    kept = [note.written for note in notes if not note.name.startswith("tex.")]
    kept = [text for text in kept if not (arxiv and ARXIV_IN_TEXT.fullmatch(text.split(" [")[0]))]
    if kept:
        record.put("note", "; ".join(kept), item.line_of("note"))


SAVE_JSON_AS_UTF8 = (
    " (JSON is UTF-8 (RFC 8259), and Zotero and Better BibTeX write it so: export the file again rather than edit"
    " it in a program that saves another encoding; in a text editor: reopen the file as Windows-1252 and save it as UTF-8)"
)
CSL_JSON = register_reader(Reader("csl-json", (".json",), read_csl_json_records, rank=OWN_LIST, save_as_utf8=SAVE_JSON_AS_UTF8, ids_are_cite_keys=True))
