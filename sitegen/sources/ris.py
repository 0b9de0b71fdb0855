"""RIS files under `content/records/` read as records at build time: what EndNote, Zotero, Mendeley,
Web of Science, Scopus, publishers' "Cite this article" and Google Scholar export.

RIS is one `TAG  - value` line per field, from `TY  - ` (the reference type) to `ER  - `. rispy reads the
values; it gives no line numbers, so the file's lines are walked here with rispy's own test of a tag line
(`RisParser.parse_line`) to find where each entry and each of its tags starts, for `path:line:` messages,
and each entry is then given to rispy alone.

RIS text is not LaTeX: a value is taken as written, as a YAML record's text is (the pipeline converts its
`$...$` math and escapes the rest). The fields are mapped as the BibTeX reader maps BibTeX's
(`sitegen.sources.bibtex`): the same record fields, link kinds, arXiv ids and types, so that one paper in
a .bib and a .ris file gives one record.

An entry's `ID` (Mendeley's and JabRef's citation key) is the record's id, unless it is only digits (EndNote's
record number, a database's accession number: another library's record 12 is another work). Otherwise the
id is made as a citation key is, from the first author's family name, the year and the title's first word
(`muller2024sparse`): the same every build, and another letter for a later entry of the file that would
have the same one (`muller2024sparseb`), or whose made id another entry gives as its `ID`.

The helpers that name links, find arXiv ids and keep an abstract's `*` and `#` as text are the BibTeX
reader's, so that both formats say the same of the same paper.
"""

from __future__ import annotations

import datetime
import difflib
import html
import re
import unicodedata
from collections.abc import Callable, Container
from dataclasses import dataclass, field

import rispy

from sitegen.categories import ARXIV_CATEGORIES, category_named
from sitegen.errors import Location, Problem
from sitegen.load import PositionedDict
from sitegen.model import USABLE_CITE_KEY
from sitegen.record_types import bare_doi, checked_pmcid, checked_pmid, thesis_venue, type_from_evidence
from sitegen.sources import OWN_LIST, Reader, ReadResult, register_reader
from sitegen.sources.bibtex import (
    ARXIV_DOI_ID,
    ARXIV_IN_TEXT,
    ARXIV_URL,
    RecordMapping,
    link_kind,
    markdown_safe,
    month_number,
    put_link,
    without_identifier_addresses,
)
from sitegen.sources.rich_text import RICH_TEXT_MACRO, rich_text_latex
from sitegen.urls import url_scheme

# The tags of the RIS specification (2011, and the 2001 one's T1, A1, Y1, N2, JF, JO, BT, ...), and Zotero's and
# EndNote's few beyond it (M2, SV, DP): any other is a warning at its line.
RIS_TAGS = frozenset(
    """TY A1 A2 A3 A4 AB AD AN AU AV BT C1 C2 C3 C4 C5 C6 C7 C8 CA CN CP CR CT CY DA DB DO DP ED EP ET ID IS J1 J2 JA
    JF JO KW L1 L2 L3 L4 LA LB LK M1 M2 M3 N1 N2 NV OP PB PP PY RI RN RP SE SN SP ST SV T1 T2 T3 TA TI TT U1 U2 U3 U4
    U5 UR VL VO Y1 Y2 ER""".split()
)
# RIS reference types -> the BibTeX entry type that says the same (what sitegen.record_types decides a type by)
TYPE_ENTRIES = {
    **dict.fromkeys(("JOUR", "EJOUR", "JFULL", "MGZN", "NEWS", "ABST", "INPR"), "article"),
    **dict.fromkeys(("CONF", "CPAPER"), "inproceedings"),
    **dict.fromkeys(("BOOK", "EBOOK", "CLSWK", "SER"), "book"),
    "EDBOOK": "collection",
    **dict.fromkeys(("CHAP", "ECHAP"), "incollection"),
    "THES": "thesis",
    **dict.fromkeys(("RPRT", "GOVDOC", "STAND"), "techreport"),
    "PAT": "patent",
    "COMP": "software",
    **dict.fromkeys(("DATA", "DBASE", "AGGR"), "dataset"),
    **dict.fromkeys(("UNPB", "MANSCPT", "PAMP"), "unpublished"),
    **dict.fromkeys(("ELEC", "BLOG", "WEB", "ICOMM"), "online"),
    **dict.fromkeys(("ENCYC", "DICT"), "inreference"),
}
# every reference type of the specification; the others than TYPE_ENTRIES's are read as BibTeX's @misc
RIS_TYPES = frozenset(rispy.TYPE_OF_REFERENCE_MAPPING) | set(TYPE_ENTRIES)
# the entry types that say more than the record's type (sitegen.record_types.WORK_KINDS), kept as `bibtex_type`
WORK_KIND_ENTRIES = frozenset({"online", "inreference", "collection"})
BOOK_TYPES = frozenset({"BOOK", "EBOOK", "EDBOOK", "CLSWK", "SER"})
VENUE_TAGS = ("T2", "JF", "JO", "BT", "C3", "JA", "J2")  # the journal, book or proceedings, best first
SHORT_VENUE_TAGS = ("J2", "JA")  # the abbreviated journal name
_TAG_LINE = rispy.RisParser()  # its `parse_line` says which lines start a tag, as rispy reads them
_PARSER = rispy.RisParser(mapping={tag: tag for tag in RIS_TAGS}, list_tags=sorted(RIS_TAGS), delimiter_tags_mapping={}, skip_unknown_tags=True)
_YEAR = re.compile(r"^\s*(\d{4})(?!\d)")
_LETTERED_YEAR = re.compile(r"^\s*(\d{4})[a-z](?![a-z])", re.IGNORECASE)  # '2024a', as reference managers label two of one year
_YEAR_ANYWHERE = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_SLASHED_DATE = re.compile(r"^\s*(\d{4})(?:[/-](\d{1,2})?(?:[/-](\d{1,2})?)?)?")  # 2024/03/15/, 2024/03//, 2024-03-15
_TAG_LIKE = re.compile(r"^([A-Z][A-Z0-9])\s*-(?:\s|$)")  # 'TY - JOUR', 'AU -Smith': a tag written without RIS's two spaces
_HTML_TAG = re.compile(r"<[^<>]{0,200}>")  # Zotero's notes are HTML: <p>...</p>
_NOT_KEY_LETTER = re.compile(r"[^a-z ]")
_KEY_STOPWORDS = frozenset({"a", "an", "the", "on", "of", "for", "in", "to", "and", "with", "towards", "toward", "via", "at", "by", "from"})
_WEB = ("https://", "http://")
_OTHERS = frozenset({"et al.", "et al", "et al.,", "others"})


@dataclass
class _Entry:
    """One entry of the file: its tags' values as rispy read them, and the line of its `TY` and of each tag."""

    line: int
    values: dict[str, list[str]]
    lines: dict[str, int]
    text: str  # its lines, spaces collapsed: the same entry given twice is read once

    def get(self, *tags: str) -> tuple[str, int] | None:
        """The first of `tags` the entry gives (its lines joined), with its line."""
        for tag in tags:
            joined = " ".join(value.strip() for value in self.values.get(tag, ()) if value.strip())
            if joined:
                return joined, self.lines[tag]
        return None

    def each(self, *tags: str) -> list[tuple[str, int]]:
        """Every value of `tags` in order, each with its tag's line."""
        return [(value.strip(), self.lines[tag]) for tag in tags for value in self.values.get(tag, ()) if value.strip()]


_Warn = Callable[[int, str], None]


# -- one file -------------------------------------------------------------------------------------------


@dataclass
class _FileReader:
    path: str
    problems: list[Problem] = field(default_factory=list)

    def problem(self, line: int | None, message: str, warning: bool = False) -> None:
        self.problems.append(Problem(message, Location(self.path, line), warning=warning))

    def read(self, text: str) -> ReadResult:
        lines = text.removeprefix("\ufeff").split("\n")
        entries = self.entries(lines)
        if not entries and not any(problem for problem in self.problems if not problem.warning):
            blank = not any(line.strip() for line in lines)
            self.problem(1, self.no_entries_message(lines), warning=blank)  # an empty file is a warning, as an empty YAML file is
            return [], self.problems
        read = [(record, entry) for entry in entries if (record := self.entry_record(entry)) is not None]
        ids: dict[str, tuple[int, str]] = {}  # lower-case id -> the line and text of its entry
        # the IDs the file gives first: a made id takes another letter rather than an ID given below it
        kept = [pair for pair in read if "id" in pair[0] and self.take_id(*pair, ids)]
        kept += [pair for pair in read if "id" not in pair[0] and self.take_id(*pair, ids)]
        records = [record for record, _ in sorted(kept, key=lambda pair: pair[1].line)]
        self.problems.sort(key=lambda problem: problem.location.line or 0 if problem.location else 0)  # in the file's order
        return records, self.problems

    def entries(self, lines: list[str]) -> list[_Entry]:
        """The file's entries, `TY` to `ER`; what lies outside them, or an entry not ended, reported."""
        found: list[_Entry] = []
        start: int | None = None  # the index of the open entry's TY line
        outside: list[Problem] = []
        for index, line in enumerate(lines):
            tag, _ = _TAG_LINE.parse_line(line)
            if tag == "TY":
                if start is not None:
                    self.problem(
                        start + 1, f"this entry has no 'ER  - ' line before the next 'TY  - ' (line {index + 1}): it is not read; end it with 'ER  - '"
                    )
                start = index
            elif tag == "ER":
                if start is None:
                    self.problem(index + 1, "'ER  - ' ends no entry (no 'TY  - ' line above it since the last 'ER  - ')", warning=True)
                else:
                    entry = self.entry(lines[start : index + 1], start + 1)
                    if entry is not None:
                        found.append(entry)
                    start = None
            elif start is None and line.strip():
                what = f"'{tag}  - ' line" if tag else "text"
                outside.append(
                    Problem(f"{what} outside an entry (between 'ER  - ' and the next 'TY  - '): not read", Location(self.path, index + 1), warning=True)
                )
        if found or start is not None:  # a file with no entry at all is said to be none, once
            self.problems += outside
        if start is not None:
            self.problem(start + 1, "this entry has no 'ER  - ' line: the file ends before it does (cut short?); it is not read")
        return found

    def entry(self, lines: list[str], first: int) -> _Entry | None:
        """One entry's values, by rispy, and the line of each tag (the first where a tag repeats)."""
        tag_lines: dict[str, int] = {}
        for number, line in enumerate(lines, start=first):
            tag, _ = _TAG_LINE.parse_line(line)
            if tag is None:
                self.check_continuation(line, number)
                continue
            if tag not in RIS_TAGS:
                meant = difflib.get_close_matches(tag, sorted(RIS_TAGS - {"TY", "ER"}), n=1, cutoff=0.5)
                hint = f"; did you mean '{meant[0]}'?" if meant else ""
                self.problem(number, f"unknown RIS tag '{tag}'{hint} (left out)", warning=True)
            tag_lines.setdefault(tag, number)
        try:
            parsed = _PARSER.parse_lines(iter(line.rstrip("\r") for line in lines))
        except Exception as error:  # rispy's own checks: the entry is reported, never a traceback
            self.problem(first, f"cannot read this entry: {error}")
            return None
        if len(parsed) != 1:
            self.problem(first, "cannot read this entry")
            return None
        values = {tag: list(value) if isinstance(value, list) else [str(value)] for tag, value in parsed[0].items()}
        return _Entry(first, values, tag_lines, " ".join(" ".join(lines).split()))

    def check_continuation(self, line: str, number: int) -> None:
        """A line that is no tag continues the value above it (RIS's long values); one that looks like a tag
        written without RIS's two spaces ('AU - Smith') would be read so, as text of the tag above: a warning."""
        tagged = _TAG_LIKE.match(line)
        if tagged and tagged.group(1) in RIS_TAGS:
            tag = tagged.group(1)
            self.problem(
                number,
                f"'{line.strip()[:30]}' is read as text of the line above: a tag is two letters, two spaces, '-' and a space ('{tag}  - ')",
                warning=True,
            )

    def no_entries_message(self, lines: list[str]) -> str:
        first = next((line.strip() for line in lines if line.strip()), "")
        if not first:
            return "empty file: no RIS entries ('TY  - JOUR' ... 'ER  - ')"
        if first.startswith("PMID-"):
            return "this is PubMed's MEDLINE format, not RIS: name the file .nbib (as PubMed's Send to > Citation manager does) and it is read"
        if first.startswith(("FN ", "PT ")):
            return "this is Web of Science's tagged format, not RIS: export with 'Export > RIS (other reference software)' instead"
        if _TAG_LIKE.match(first):
            return "no RIS entry: an entry starts 'TY  - ' (two letters, two spaces, '-', a space) and ends 'ER  - '; this file writes its tags otherwise"
        return "no RIS entry in this file: an entry starts with a 'TY  - JOUR' line and ends with 'ER  - '"

    def take_id(self, record: PositionedDict, entry: _Entry, ids: dict[str, tuple[int, str]]) -> bool:
        """Give the record an id no other entry of the file has; False when it is not to be read (given twice)."""
        given = "id" in record
        record_id = str(record.get("id") or made_id(record))
        first = ids.get(record_id.lower())
        if first is not None:
            if first[1] == entry.text:
                self.problem(entry.line, f"this entry is given twice, the same as on line {first[0]}: read once; delete this copy", warning=True)
                return False
            if given:
                self.problem(
                    entry.lines.get("ID", entry.line),
                    f"duplicate ID '{record_id}': also on line {first[0]}; an ID names one entry: give this one an ID of its own or delete the one you do not want",
                )
                return False
            record_id = lettered_id(record_id, ids)
        ids[record_id.lower()] = (entry.line, entry.text)
        record["id"] = record_id
        record.key_lines["id"] = entry.lines.get("ID", entry.line)
        return True

    def entry_record(self, entry: _Entry) -> PositionedDict | None:
        """The record mapping of one entry; None when it cannot be one (each problem reported)."""
        kind = (entry.get("TY") or ("", entry.line))[0].upper()
        if kind and kind not in RIS_TYPES:
            meant = difflib.get_close_matches(kind, sorted(RIS_TYPES), n=1, cutoff=0.6)
            hint = f"; did you mean '{meant[0]}'?" if meant else " (read as GEN, a generic reference)"
            self.problem(entry.line, f"unknown reference type 'TY  - {kind}'{hint}", warning=True)
        if kind == "":
            self.problem(entry.line, "the entry's 'TY  - ' says no reference type (JOUR, CONF, BOOK, ...): read as GEN", warning=True)
        title = entry.get("TI", "T1", "CT", *(("BT",) if kind in BOOK_TYPES else ()))
        if title is None:
            self.problem(entry.line, "this entry has no title (TI  - ...): it is not read")
            return None
        dates = _dates(entry)
        if isinstance(dates, str):
            self.problem(entry.lines.get("PY", entry.line), dates)
            return None
        if (year := entry.get("PY", "Y1")) is not None and (lettered := _LETTERED_YEAR.match(year[0])):
            self.problem(
                year[1],
                f"'{lettered[0]}' is read as the year {lettered[1]}: a letter after it tells two works of one year apart in a "
                "reference list, and is no part of the year",
                warning=True,
            )
        return entry_record(entry, kind, title, dates, lambda line, message: self.problem(line, message, warning=True))


_LETTERS = "bcdefghijklmnopqrstuvwxyz"


def lettered_id(wanted: str, taken: Container[str]) -> str:
    """`wanted` with the first letter (b, c, ...) that makes it an id not among `taken` (ids in lower case): how a
    reader of a file of many records names the second of two that would have one made id ('muller2024sparseb')."""
    return next(f"{wanted}{letter}" for letter in _LETTERS if f"{wanted}{letter}".lower() not in taken)


# -- one entry -> one record mapping ------------------------------------------------------------------


@dataclass(frozen=True)
class _Dates:
    year: int
    year_line: int
    month: int | None = None
    date: str = ""
    date_line: int = 0


def _dates(entry: _Entry) -> _Dates | str:
    """The entry's year (PY, else Y1, else DA) and, from DA (or Y1) of that year, its month and day; a message
    when no year can be read."""
    year = None
    for tag in ("PY", "Y1", "DA"):
        found = entry.get(tag)
        if found is None:
            continue
        match = _YEAR.match(found[0]) or (_YEAR_ANYWHERE.search(found[0]) if tag == "DA" else None)
        if match:
            year = (int(match.group(1)), found[1])
            break
    if year is None:
        written = entry.get("PY", "Y1", "DA")
        if written is not None:
            return f"'{written[0][:40]}' is no year: write the year the work appeared ('PY  - 2024'); the entry is not read"
        return "this entry has no year (PY  - 2024, or DA  - 2024/03/15): it is not read"
    for tag in ("DA", "Y1", "PY"):
        found = entry.get(tag)
        if found is None:
            continue
        slashed = _SLASHED_DATE.match(found[0])
        if slashed and int(slashed.group(1)) == year[0] and slashed.group(2):
            month = int(slashed.group(2))
            day = int(slashed.group(3) or 0)
            if not 1 <= month <= 12:
                continue
            date = f"{year[0]:04d}-{month:02d}-{day:02d}" if day and _real_day(year[0], month, day) else ""
            return _Dates(year[0], year[1], month, date, found[1])
        if tag == "DA" and not slashed and isinstance(month_name := month_number(found[0].split()[0]), int):
            return _Dates(year[0], year[1], month_name, "", found[1])  # EndNote's 'DA  - Mar 15'
    return _Dates(year[0], year[1])


def _real_day(year: int, month: int, day: int) -> bool:
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    return True


def entry_record(entry: _Entry, kind: str, title: tuple[str, int], dates: _Dates, warn: _Warn) -> PositionedDict:
    """The record mapping of one entry that has a title and a year (SPEC §2 fields, the details as extras)."""
    record = RecordMapping(entry.line)
    entry_type = TYPE_ENTRIES.get(kind, "misc")
    given_id = entry.get("ID")
    if given_id is not None and not given_id[0].isdigit() and USABLE_CITE_KEY.match(given_id[0]):
        record.put("id", given_id[0], given_id[1])
    record.put("title", rich_text_latex(_text(title[0])), title[1])
    _put_people(record, entry, kind)
    record.put("year", dates.year, dates.year_line)
    if dates.date:
        record.put("date", dates.date, dates.date_line)
    elif dates.month:
        record.put("month", dates.month, dates.date_line)
    arxiv = _arxiv_id(entry)
    doi = _doi(entry)
    source, venue_tag = _put_source(record, entry, kind, arxiv)
    if arxiv:
        record.put("arxiv", arxiv[0], arxiv[1])
    if doi:
        record.put("doi", doi[0], doi[1])
    if (abstract := entry.get("AB", "N2")) is not None:
        record.put("abstract", markdown_safe(_text(abstract[0])), abstract[1])
    _put_categories(record, entry)
    _put_ids(record, entry)
    links = _without_pubmed_page(_links(entry, warn), record.data.get("ids", {}).get("pmid"))
    record.put("links", without_identifier_addresses(links, arxiv and arxiv[0], doi and doi[0]), entry.line)
    if (language := entry.get("LA")) is not None:
        record.put("language", language[0], language[1])
    if kind == "INPR":
        record.put("status", "In press", entry.line)
    notes = _notes(entry, arxiv)
    words = " ".join(text for text, _ in notes) + " " + (entry.get("M3") or ("", 0))[0]
    record.put("type", type_from_evidence(entry_type, source, arxiv and arxiv[0], doi and doi[0], links, words, title[0]), entry.line)
    if entry_type in WORK_KIND_ENTRIES:
        record.put("bibtex_type", entry_type, entry.line)
    _put_thesis_and_report(record, entry, source)
    _put_details(record, entry, kind, venue_tag, notes)
    return record.data


def _text(value: str) -> str:
    return " ".join(value.split())


def _put_people(record: RecordMapping, entry: _Entry, kind: str) -> None:
    """AU (and the 2001 specification's A1) the authors; ED, and A2 (a book's A3, as Zotero and publications.ris
    write them) the editors; A4 the translators. `et al.,` (EndNote's way of saying the list goes on) is `et_al`."""
    authors = entry.each("AU", "A1")
    names = [_name(name) for name, _ in authors if name.lower() not in _OTHERS]
    if authors:
        record.put("authors", names, authors[0][1])
        if len(names) < len(authors):
            record.put("et_al", True, authors[0][1])
    editors = entry.each("ED", "A3" if kind in BOOK_TYPES else "A2")
    if editors:
        record.put("editors", [_name(name) for name, _ in editors if name.lower() not in _OTHERS], editors[0][1])
    translators = entry.each("A4")
    if translators:
        record.put("translators", [_name(name) for name, _ in translators], translators[0][1])


def _name(written: str) -> str:
    """A person as RIS writes one, 'Family, Given' (kept so: the pipeline reads BibTeX's order); an organisation's
    name, which EndNote ends with a comma ('World Health Organization,'), in braces, as BibTeX says one."""
    name = _text(written)
    if name.endswith(",") and "," not in name[:-1]:
        return "{" + name[:-1].strip() + "}"
    return name.rstrip(",").strip()


def _arxiv_id(entry: _Entry) -> tuple[str, int] | None:
    """arXiv's id: Zotero's and publications.ris's `M1  - arXiv:2401.01234` (or a note 'arXiv:2401.01234 [cs]'),
    an arxiv.org address, arXiv's DataCite DOI, Google Scholar's 'arXiv preprint arXiv:...' venue."""
    for text, line in entry.each("M1", "N1", "AN", "T2", "JO", "JF"):
        if match := ARXIV_IN_TEXT.search(text):
            return match.group(1), line
    for text, line in entry.each("UR", "L1", "L2", "LK"):
        if match := ARXIV_URL.match(text.strip()):
            return match.group(2), line
    for text, line in entry.each("DO", "M3"):
        if match := ARXIV_DOI_ID.match(bare_doi(text)):
            return match.group(1), line
    return None


_DOI_IN_M3 = re.compile(r"^10\.\d{4,9}/\S+$")  # the 2001 specification's M3, where old exports (Sage, Springer) put the DOI


def _doi(entry: _Entry) -> tuple[str, int] | None:
    found = entry.get("DO")
    if found is not None:
        return bare_doi(found[0]), found[1]
    m3 = entry.get("M3")
    if m3 is not None and _DOI_IN_M3.match(bare_doi(m3[0])):
        return bare_doi(m3[0]), m3[1]
    return None


def _put_source(record: RecordMapping, entry: _Entry, kind: str, arxiv) -> tuple[str, str]:
    """The venue and the tag it came from: the journal, book or proceedings (T2, JF, JO, BT, ...), else the
    publisher (a thesis's university, a report's institution, a preprint's server); 'arXiv' for a preprint's
    pseudo-venue ('arXiv preprint arXiv:...') or none beside an arXiv id."""
    tags = VENUE_TAGS if kind not in BOOK_TYPES else ()  # a book's T2 is its series (Zotero's), its venue its publisher
    found = next(((tag, value) for tag in tags if (value := entry.get(tag)) is not None), None)
    if kind == "PAT" and (assignee := entry.get("PB")) is not None:
        record.put("holder", _text(assignee[0]), assignee[1])  # a patent's PB is its assignee (Zotero's), no venue
    elif found is None and (publisher := entry.get("PB")) is not None:
        found = ("PB", publisher)
    if found is None:
        if arxiv:
            record.put("source", "arXiv", arxiv[1])
            return "arXiv", ""
        return "", ""
    tag, (venue, line) = found
    venue = _text(venue)
    if arxiv and (ARXIV_IN_TEXT.search(venue) or venue.lower() in ("corr", "arxiv")):
        venue = "arXiv"
    record.put("source", rich_text_latex(venue), line)
    short = next((value for short_tag in SHORT_VENUE_TAGS if short_tag != tag and (value := entry.get(short_tag)) is not None), None)
    if short is None and tag in ("T2", "JF") and (journal := entry.get("JO")) is not None and len(journal[0]) < len(venue):
        short = journal  # PubMed's JO beside T2: the journal's abbreviation ('BMC Med Inform Decis Mak')
    if short is not None and _text(short[0]).casefold() != venue.casefold():
        record.put("venue_short", _text(short[0]), short[1])
    return venue, tag


def _class_names() -> dict[str, str]:
    named: dict[str, str] = {}
    for code, name in ARXIV_CATEGORIES.items():
        named.setdefault(name.casefold(), code)
    return named


_CLASS_NAMES = _class_names()  # an arXiv class's name as sitegen shows it (publications.ris's KW) -> the class


def _put_categories(record: RecordMapping, entry: _Entry) -> None:
    """KW, one keyword a line (a line may hold several, separated by ';', as EndNote writes them). A keyword that
    names an arXiv class, as Zotero and ADS write them ('Computer Science - Machine Learning') or as sitegen's
    pages and publications.ris name it ('Machine Learning'), is that class (cs.LG): shown by the same name, one
    subject with the arXiv records of the class."""
    categories: list[str] = []
    seen: set[str] = set()
    keywords = entry.each("KW")
    for text, _ in keywords:
        for word in (_text(piece) for piece in text.split(";")):
            word = category_named(word) or _CLASS_NAMES.get(word.casefold()) or word
            if word and word.casefold() not in seen:
                seen.add(word.casefold())
                categories.append(word)
    if keywords:
        record.put("categories", categories, keywords[0][1])


def _links(entry: _Entry, warn: _Warn) -> PositionedDict:
    """UR's addresses (one a line, or several in one separated by ';'), each named by what it leads to (abs, pdf,
    doi, code, html); L1, the file attached, a `pdf` link when it is on the web (EndNote's `internal-pdf://` and
    Zotero's `files/...` are on the user's computer only, left out without a word), L2 the full text. A UR that is
    no web address, and a file link with a scheme that runs code (`javascript:`, `data:`), are left out with a
    warning at their line, as a YAML record's unsafe link is: `--strict` fails on them."""
    links = PositionedDict()
    links.line = entry.line
    links.key_lines = {}
    for text, line in entry.each("UR", "LK"):
        for url in (piece.strip() for piece in text.split(";")):
            if url.startswith(_WEB):
                put_link(links, link_kind(url), url, line)
            elif url:
                warn(line, f"'UR': {url[:40]!r} is no web address (left out)")
    for tag, kind in (("L1", "pdf"), ("L2", "html")):
        for url, line in entry.each(tag):
            if url.startswith(_WEB):
                put_link(links, kind if kind != "pdf" or link_kind(url) in ("pdf", "html") else link_kind(url), url, line)
            elif url_scheme("".join(url.split())) in _SCRIPT_SCHEMES:
                warn(line, f"'{tag}': {url[:40]!r}: unsafe URL scheme '{url_scheme(''.join(url.split()))}:', the link is left out")
    return links


_SCRIPT_SCHEMES = frozenset({"javascript", "data", "vbscript"})


def _without_pubmed_page(links: PositionedDict, pmid: str | None) -> PositionedDict:
    """The links but the PubMed page of the entry's own PMID (EndNote's UR of a record imported from PubMed): the
    build links every record with a PMID to that page, as "PubMed"."""
    if not pmid:
        return links
    kept = PositionedDict((kind, url) for kind, url in links.items() if not ("pubmed" in url and checked_pmid(url) == pmid))
    kept.line = links.line
    kept.key_lines = {kind: line for kind, line in links.key_lines.items() if kind in kept}
    return kept


def _put_ids(record: RecordMapping, entry: _Entry) -> None:
    """PubMed's id: EndNote's and PubMed's AN (the accession number) of an NLM record, or a PubMed address among
    the links; PubMed Central's: EndNote's C2 (its PMCID field)."""
    ids = PositionedDict()
    ids.line = entry.line
    ids.key_lines = {}
    database = " ".join(text for text, _ in entry.each("DB", "DP")).lower()
    accession = entry.get("AN")
    if accession is not None and any(name in database for name in ("nlm", "pubmed", "medline")) and (pmid := checked_pmid(accession[0])):
        ids["pmid"], ids.key_lines["pmid"] = pmid, accession[1]
    for text, line in entry.each("UR"):
        if "pmid" not in ids and "pubmed" in text and (pmid := checked_pmid(text)):
            ids["pmid"], ids.key_lines["pmid"] = pmid, line
    for text, line in entry.each("C2"):
        if text.upper().startswith("PMC") and (pmcid := checked_pmcid(text.split()[0])):
            ids["pmcid"], ids.key_lines["pmcid"] = pmcid, line
            break
    record.put("ids", ids, entry.line)


def _notes(entry: _Entry, arxiv) -> list[tuple[str, int]]:
    """N1's notes as text (Zotero writes them as HTML), but the one that is only the arXiv id."""
    notes = []
    for text, line in entry.each("N1"):
        plain = _text(html.unescape(_HTML_TAG.sub(" ", text)))
        if plain and not (arxiv and ARXIV_IN_TEXT.fullmatch(plain.split(" [")[0])):
            notes.append((plain, line))
    return notes


def _put_thesis_and_report(record: RecordMapping, entry: _Entry, source: str) -> None:
    """A thesis's kind (M3 'PhD thesis', as Zotero and publications.ris write it) before its university, as a YAML
    record's venue names the degree ('PhD thesis, University of X'); a report's M3 its `report_type`."""
    kind = entry.get("M3")
    if kind is None or _DOI_IN_M3.match(bare_doi(kind[0])):
        return
    text = _text(kind[0])
    if record.data.get("type") == "thesis" and not thesis_venue(source)[0] and thesis_venue(text)[0]:
        record.put("source", f"{text}, {source}" if source else text, kind[1])
    elif record.data.get("type") == "report":
        record.put("report_type", text, kind[1])


_SERIES_NUMBER_TYPES = frozenset({"RPRT", "GOVDOC", "STAND", "PAT", "BOOK", "CHAP"})


def _put_details(record: RecordMapping, entry: _Entry, kind: str, venue_tag: str, notes: list[tuple[str, int]]) -> None:
    """What the exports and templates show beyond SPEC §2's fields, under BibTeX's names (as the BibTeX reader
    keeps them): volume, number (IS, else M1), pages (SP and EP), edition (a program's ET is its version), series
    (T3), publisher, place (CY), ISBN or ISSN (SN), the notes."""
    series = ("T3", "T2") if kind in BOOK_TYPES else ("T3",)
    if (found := entry.get(*series)) is not None:
        record.put("series", _text(found[0]), found[1])
    for tag, name in (("VL", "volume"), ("CY", "address"), ("SE", "chapter")):
        if (found := entry.get(tag)) is not None and (kind == "CHAP" or name != "chapter"):
            record.put(name, _text(found[0]), found[1])
    number = entry.get("IS")
    m1 = entry.get("M1")
    if number is None and m1 is not None and not ARXIV_IN_TEXT.search(m1[0]):
        number = m1
    if number is None and kind in ("RPRT", "PAT") and (serial := entry.get("SN")) is not None:
        number = serial  # Zotero's report number and patent number
    if number is not None:
        record.put("number", _text(number[0]), number[1])
    first, last = entry.get("SP"), entry.get("EP")
    if first is not None:
        pages = _text(first[0]) if last is None or _text(last[0]) == _text(first[0]) else f"{_text(first[0])}\u2013{_text(last[0])}"
        record.put("pages", pages, first[1])
    if (edition := entry.get("ET")) is not None:
        record.put("version" if kind == "COMP" else "edition", _text(edition[0]), edition[1])
    if venue_tag != "PB" and kind != "PAT" and (publisher := entry.get("PB")) is not None and record.data.get("source") != "arXiv":
        record.put("publisher", _text(publisher[0]), publisher[1])
    if kind not in ("RPRT", "PAT") and (serial := entry.get("SN")) is not None:
        number_text = serial[0].split("(")[0].strip()
        digits = re.sub(r"[^0-9Xx]", "", number_text)
        is_isbn = len(digits) in (10, 13) and (kind in BOOK_TYPES or kind in ("CHAP", "ECHAP", "CONF", "CPAPER") or len(digits) == 13)
        record.put("isbn" if is_isbn else "issn", number_text, serial[1])
    if notes:
        record.put("note", "; ".join(text for text, _ in notes), notes[0][1])


def made_id(record: PositionedDict) -> str:
    """An entry's id when it gives none: as a citation key is made, the first author's family name, the year and
    the title's first word ('muller2024sparse'), in ASCII letters."""
    authors = record.get("authors") or []
    first = str(authors[0]) if authors else ""
    family = first.split(",")[0] if "," in first else (first.split() or [""])[-1]
    family_words = _key_words(family.strip("{}"))
    title_words = [word for word in _key_words(RICH_TEXT_MACRO.sub(" ", str(record.get("title", "")))) if word not in _KEY_STOPWORDS]
    return f"{family_words[-1] if family_words else 'anon'}{record.get('year', '')}{title_words[0] if title_words else ''}"


def _key_words(text: str) -> list[str]:
    ascii_only = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _NOT_KEY_LETTER.sub(" ", ascii_only.lower()).split()


def read_ris_records(text: str, display_path: str) -> ReadResult:
    return _FileReader(display_path).read(text)


SAVE_RIS_AS_UTF8 = (
    " (in EndNote: export again, choosing Unicode (UTF-8) where the export offers an encoding;"
    " in Zotero: export again with Character Encoding Unicode (UTF-8); in a text editor: reopen the file as"
    " Windows-1252 and save it as UTF-8)"
)
RIS = register_reader(Reader("ris", (".ris",), read_ris_records, rank=OWN_LIST, save_as_utf8=SAVE_RIS_AS_UTF8))
