"""PubMed's MEDLINE files (`.nbib`) under `content/records/` read as records at build time.

PubMed's "Send to > Citation manager" writes a `.nbib` file: MEDLINE's tagged format, one citation after
another, each starting with its `PMID- ` line. A line is a tag of up to four capitals, padded to four
columns, then `- ` and the value (`TI  - `, `FAU - `, `AUID- `); a long value goes on over lines indented by
six spaces. A tag may repeat (`FAU`, `PT`, `OT`), and the author tags come in order, one author at a time:
`FAU` (the full name, "Family, Given"), `AU` ("Family GI"), `AD` (the affiliations), `AUID` (the ORCID iD);
`CN` names a collective author in its place among them.

No library earned its place: the `nbib` package (0.3.2, last released in 2021) and Biopython's
`Bio.Medline` read the same tag lines but give no line numbers, which every message here needs
(`path:line:`); `nbib` pulls in the `dateutils` package and reshapes the values, and Biopython is a
large compiled distribution for a module of a hundred lines. The format is plain tagged text; the walk
of its lines below is the whole parser, and the rest maps tags to record fields.

The same mapping serves `sitegen fetch pubmed` (`sitegen.sources.pubmed`), which turns E-utilities'
XML into the same tags (`Citation`), so that a paper read from a `.nbib` and fetched from PubMed gives
one record.

PubMed writes dozens of tags sitegen has no field for (MeSH headings, grants, dates of indexing, the
status of the citation): they are left out without a word. A file with no `PMID- ` line is no MEDLINE
file: an error at its first line, naming what it looks like instead.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from sitegen.errors import Location, Problem
from sitegen.load import PositionedDict
from sitegen.record_types import bare_doi, checked_pmcid, checked_pmid, doi_url, pubmed_url
from sitegen.sources import OWN_LIST, Reader, ReadResult, register_reader
from sitegen.sources.bibtex import RecordMapping, markdown_safe
from sitegen.sources.rich_text import rich_text_latex
from sitegen.sources.ris import lettered_id, made_id

_TAG_LINE = re.compile(r"^([A-Z][A-Z0-9]{1,3}) *-(?: (.*))?$")  # 'TI  - text', 'PMID- 1', 'AB  -' (empty)
_MONTHS = {name: number for number, name in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)}
_DP = re.compile(r"^\s*(\d{4})(?:\s+([A-Za-z]{3}|\d{1,2})[A-Za-z]*(?:\s+(\d{1,2}))?)?")  # '2023 Mar 15', '2023 Mar-Apr', '2023'
_DEP = re.compile(r"^\s*(\d{4})(\d{2})(\d{2})\s*$")  # '20230315'
_ID_KIND = re.compile(r"^(.*?)\s*\[(\w+)\]\s*$")  # LID/AID '10.1/x [doi]', 'e1234 [pii]'
_REFERENCE_DOI = re.compile(r"\bdoi:\s*(10\.\d{4,9}/\S+?)\.?(?=\s|$)", re.IGNORECASE)
_REFERENCE_PMID = re.compile(r"\bPMID:\s*(\d{1,9})\b")
_ABSTRACT_LABEL = re.compile(r"(?:(?<=^)|(?<=[.!?)\]] ))([A-Z][A-Z0-9,/&'() -]{2,60}[A-Z)]): (?=\S)")  # 'BACKGROUND: '
_PAGES = re.compile(r"^(\D*)(\d+)-(\D*)(\d+)$")  # '123-9', 'e1234-e1240'
_INITIALS = re.compile(r"^[A-Z]{1,4}$")
# Publication types (PT) that make a notice, and the tag naming the work it concerns (sitegen.notices)
NOTICE_TYPES = {
    "published erratum": ("correction", "EFR"),
    "retraction of publication": ("retraction", "ROF"),
    "expression of concern": ("concern", "ECF"),
}
# Tags that name a notice about this work (`EIN - Erratum in: ...`) -> the link the work gets (sitegen.notices.NOTICE_LINKS)
NOTICE_IN = (("EIN", "correction"), ("RIN", "retraction"), ("ECI", "concern"))
PREPRINT_TYPE = "preprint"
RETRACTED_TYPE = "retracted publication"


@dataclass
class Citation:
    """One MEDLINE citation: its tags in the order written, each value with its line (0 when fetched, not read)."""

    line: int
    tags: list[tuple[str, str, int]] = field(default_factory=list)

    def add(self, tag: str, value: str, line: int) -> None:
        self.tags.append((tag, value, line))

    def first(self, *names: str) -> tuple[str, int] | None:
        """The first non-empty value of the first of `names` the citation gives, with its line."""
        for name in names:
            for tag, value, line in self.tags:
                if tag == name and value.strip():
                    return _text(value), line or self.line
        return None

    def each(self, name: str) -> list[tuple[str, int]]:
        return [(_text(value), line or self.line) for tag, value, line in self.tags if tag == name and value.strip()]


def _text(value: str) -> str:
    return " ".join(value.split())


Complain = Callable[[int, str, bool], None]  # (line, message, warning)


# -- a file -> its citations ----------------------------------------------------------------------------


@dataclass
class _FileReader:
    path: str
    problems: list[Problem] = field(default_factory=list)

    def problem(self, line: int, message: str, warning: bool = False) -> None:
        self.problems.append(Problem(message, Location(self.path, line), warning=warning))

    def read(self, text: str) -> ReadResult:
        lines = text.removeprefix("\ufeff").split("\n")
        citations = self.citations(lines)
        if not citations:
            blank = not any(line.strip() for line in lines)
            self.problem(_first_text_line(lines), no_citations_message(lines), warning=blank)
            return [], self.problems
        records: list[PositionedDict] = []
        ids: set[str] = set()
        pmids: dict[str, int] = {}
        for citation in citations:
            pmid = citation.first("PMID")
            if pmid is not None and pmid[0] in pmids:
                self.problem(citation.line, f"PMID {pmid[0]} is given twice, also on line {pmids[pmid[0]]}: read once; delete this copy", warning=True)
                continue
            if pmid is not None:
                pmids[pmid[0]] = citation.line
            record = citation_record(citation, self.problem)
            if record is not None:
                wanted = made_id(record)  # as the RIS reader makes one: 'muller2024sparse'
                record["id"] = wanted if wanted.lower() not in ids else lettered_id(wanted, ids)
                ids.add(record["id"].lower())
                record.key_lines["id"] = citation.line
                records.append(record)
        self.problems.sort(key=lambda problem: problem.location.line or 0 if problem.location else 0)
        return records, self.problems

    def citations(self, lines: list[str]) -> list[Citation]:
        """The citations of the file, each from its `PMID- ` line to the next; a continued value joined to its tag's."""
        found: list[Citation] = []
        current: Citation | None = None
        continued: list[str] = []  # the lines that go on the last tag's value, joined once it ends

        def end_value() -> None:
            if current is not None and current.tags and continued:
                tag, value, at = current.tags[-1]
                current.tags[-1] = (tag, " ".join([value, *continued]), at)
            continued.clear()

        for number, raw in enumerate(lines, start=1):
            line = raw.rstrip("\r")
            if not line.strip():
                continue
            tagged = _TAG_LINE.match(line)
            if tagged:
                end_value()
            if tagged and tagged.group(1) == "PMID":
                current = Citation(number)
                found.append(current)
            if current is None:
                continue  # before the first citation: no_citations_message says what the file is, when none follows
            if tagged:
                current.add(tagged.group(1), tagged.group(2) or "", number)
            elif current.tags:
                if not line[:1].isspace():
                    self.problem(
                        number,
                        f"'{line.strip()[:30]}' is no MEDLINE tag line (a tag, spaces to the fifth column, '- ', as 'TI  - '): read as text of the line above",
                        warning=True,
                    )
                continued.append(line.strip())
        end_value()
        return found


def _first_text_line(lines: list[str]) -> int:
    return next((number for number, line in enumerate(lines, start=1) if line.strip()), 1)


def no_citations_message(lines: list[str]) -> str:
    """What a file without a `PMID- ` line is, and what to do."""
    first = next((line.strip() for line in lines if line.strip()), "")
    if not first:
        return "empty file: no MEDLINE citations (PubMed's Send to > Citation manager writes them, each starting 'PMID- ')"
    if first.startswith("TY  -"):
        return "this is a RIS file, not MEDLINE: name it .ris"
    if first.startswith("@"):
        return "this is a BibTeX file, not MEDLINE: name it .bib"
    if first.startswith("<"):
        return "this is XML (PubMed's XML?), not MEDLINE: in PubMed, Send to > Citation manager > Create file writes a .nbib"
    if _TAG_LINE.match(first):
        return "no MEDLINE citation: each starts with a 'PMID- ' line, as PubMed's Send to > Citation manager writes them"
    return "not a MEDLINE file: a citation is tagged lines starting 'PMID- ' (in PubMed: Send to > Citation manager > Create file)"


# -- a citation -> a record mapping ---------------------------------------------------------------------


def citation_record(citation: Citation, complain: Complain) -> PositionedDict | None:
    """The record mapping of one citation (SPEC §2 fields, the details as extras); None, with an error, for a
    citation without a title or a year."""
    title = citation.first("TI", "TT", "BTI")
    if title is None:
        complain(citation.line, "this citation has no title (TI  - ...): it is not read", False)
        return None
    dates = _dates(citation)
    if dates is None:
        complain(citation.line, "this citation has no year (DP  - 2023 Mar 15): it is not read", False)
        return None
    record = RecordMapping(citation.line)
    record.put("title", rich_text_latex(_bare_title(title[0])), title[1])
    translated = _is_translated(title[0])
    _put_authors(record, citation, complain)
    year, month, date, date_line = dates
    record.put("year", year, date_line)
    if date:
        record.put("date", date, date_line)
    elif month:
        record.put("month", month, date_line)
    if (journal := citation.first("JT", "TA")) is not None:
        journal = (journal[0].split(" : ")[0].strip() or journal[0], journal[1])  # NLM's 'medRxiv : the preprint server for ...'
        record.put("source", journal[0], journal[1])
        short = citation.first("TA")
        if short is not None and short[0].casefold() != journal[0].casefold():
            record.put("venue_short", short[0], short[1])
    if (doi := _doi(citation)) is not None:
        record.put("doi", doi[0], doi[1])
    if (abstract := citation.first("AB")) is not None:
        record.put("abstract", abstract_text(_raw(citation, "AB") or abstract[0]), abstract[1])
    _put_ids(record, citation)
    for tag, name in (("VI", "volume"), ("IP", "number")):
        if (found := citation.first(tag)) is not None:
            record.put(name, found[0], found[1])
    if (pages := citation.first("PG")) is not None:
        record.put("pages", page_range(pages[0]), pages[1])
    if (language := citation.first("LA")) is not None and not translated:  # NLM's English title says nothing of LA's language
        record.put("language", _language(language[0]), language[1])
    keywords = citation.each("OT")
    if keywords:
        record.put("categories", list(dict.fromkeys(word.lstrip("*") for word, _ in keywords)), keywords[0][1])
    _put_type_and_notices(record, citation)
    return record.data


def _raw(citation: Citation, name: str) -> str:
    """The first value of `name` as given (paragraphs kept: the fetcher writes a structured abstract's parts apart)."""
    return next((value for tag, value, _ in citation.tags if tag == name and value.strip()), "")


def _is_translated(title: str) -> bool:
    """Is the title NLM's English translation ('[Perioperative management ...].'), of a work in another language?"""
    return title.startswith("[") and title.rstrip(".").endswith("]") and title.count("[") == 1


def _bare_title(title: str) -> str:
    """MEDLINE's title without what NLM adds: the closing period, and the brackets of a title translated into English."""
    if _is_translated(title):
        title = title.rstrip(".")[1:-1]
    if title.endswith(".") and not title.endswith(".."):
        title = title[:-1]
    return title.strip()


def _put_authors(record: RecordMapping, citation: Citation, complain: Complain) -> None:
    """The authors in their order: `FAU` ('Family, Given') where given, else `AU` ('Family GI' as 'Family, G. I.');
    `CN`, a collective author, in braces as BibTeX names an organisation; `AUID`'s ORCID iD as `author_ids`."""
    from sitegen.sources.orcid import normalise_orcid

    people: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    first_line = 0
    for tag, value, line in citation.tags:
        value = _text(value)
        if tag not in ("FAU", "AU", "CN", "AUID") or not value:
            continue
        first_line = first_line or line or citation.line
        if tag == "FAU" or (tag == "AU" and (current is None or "short" in current or "group" in current)):
            current = {"name": value} if tag == "FAU" else {"short": value}
            people.append(current)
        elif tag == "AU" and current is not None:
            current["short"] = value  # the short form of the FAU above
        elif tag == "CN":
            current = {"group": value}
            people.append(current)
        elif current is not None and value.upper().startswith("ORCID"):
            try:
                current["orcid"] = normalise_orcid(value.split(":", 1)[-1] if value.upper().startswith("ORCID:") else value[5:])
            except ValueError as error:
                complain(line or citation.line, f"'AUID': {error}; left out", True)
    names = [_person_name(person) for person in people]
    if names:
        record.put("authors", names, first_line)
    orcids = {name: person["orcid"] for name, person in zip(names, people, strict=True) if person.get("orcid")}
    if orcids:
        record.put("author_ids", orcids, first_line)


def _person_name(person: dict[str, str]) -> str:
    if "group" in person:
        return "{" + person["group"] + "}"
    if "name" in person:  # 'Okafor, Chinedu A': NLM writes a middle initial without its period
        family, comma, given = person["name"].partition(", ")
        return f"{family}{comma}{' '.join(word + '.' if _INITIALS.match(word) and len(word) == 1 else word for word in given.split())}"
    family, _, initials = person["short"].rpartition(" ")
    if family and _INITIALS.match(initials):
        return f"{family}, {' '.join(letter + '.' for letter in initials)}"
    return person["short"]


def _dates(citation: Citation) -> tuple[int, int | None, str, int] | None:
    """(year, month, date, line): DP's year and month ('2023 Mar-Apr' is March), its day a date; the electronic
    date (DEP) the date when DP gives no day and DEP is of DP's year; None when neither gives a year."""
    published = citation.first("DP")
    electronic = citation.first("DEP")
    found = _DP.match(published[0]) if published else None
    dep = _DEP.match(electronic[0]) if electronic else None
    if found is None:
        if dep is None or electronic is None:
            return None
        year = int(dep.group(1))
        return year, None, _date(year, int(dep.group(2)), int(dep.group(3))), electronic[1]
    assert published is not None
    year = int(found.group(1))
    written_month = (found.group(2) or "").lower()
    month = _MONTHS.get(written_month[:3]) if not written_month.isdigit() else int(written_month)
    month = month if month and 1 <= month <= 12 else None
    day = int(found.group(3)) if found.group(3) and month else 0
    date = _date(year, month, day) if month and day else ""
    if not date and dep is not None and int(dep.group(1)) == year and (month is None or int(dep.group(2)) == month):
        date = _date(year, int(dep.group(2)), int(dep.group(3)))
    return year, month, date, published[1]


def _date(year: int, month: int | None, day: int) -> str:
    try:
        return datetime.date(year, month or 0, day).isoformat()
    except ValueError:
        return ""


def _doi(citation: Citation) -> tuple[str, int] | None:
    """The DOI: `LID`'s ('10.1/x [doi]', the article's location id), else `AID`'s."""
    for name in ("LID", "AID"):
        for value, line in citation.each(name):
            kind = _ID_KIND.match(value)
            if kind and kind.group(2).lower() == "doi" and (doi := bare_doi(kind.group(1))):
                return doi, line
    return None


def _put_ids(record: RecordMapping, citation: Citation) -> None:
    ids = PositionedDict()
    ids.line = citation.line
    ids.key_lines = {}
    for tag, name, check in (("PMID", "pmid", checked_pmid), ("PMC", "pmcid", checked_pmcid)):
        found = citation.first(tag)
        if found is not None and (value := check(found[0])):
            ids[name], ids.key_lines[name] = value, found[1]
    record.put("ids", ids, citation.line)


def abstract_text(text: str) -> str:
    """The abstract, a structured one's parts ('BACKGROUND: ...', 'METHODS: ...') as paragraphs of their own, each
    with Markdown's syntax characters kept as text."""
    paragraphs: list[str] = []
    for part in re.split(r"\n\s*\n", text):
        starts = [match.start() for match in _ABSTRACT_LABEL.finditer(_text(part))]
        flat = _text(part)
        if len(starts) < 2:
            paragraphs.append(flat)
            continue
        bounds = ([0] if starts[0] > 0 else []) + [*starts, len(flat)]
        paragraphs += [flat[a:b].strip() for a, b in zip(bounds, bounds[1:], strict=False) if flat[a:b].strip()]
    return "\n\n".join(markdown_safe(paragraph) for paragraph in paragraphs if paragraph)


def page_range(pages: str) -> str:
    """MEDLINE's pages, its short form written out: '1123-31' is 1123–1131, 'e1234' stays."""
    found = _PAGES.match(pages.replace(" ", ""))
    if not found:
        return pages
    prefix, first, second_prefix, last = found.groups()
    if len(last) < len(first):
        last = first[: len(first) - len(last)] + last
    return f"{prefix}{first}\u2013{second_prefix or prefix}{last}"


def _language(code: str) -> str:
    """LA's ISO 639-2 code ('eng', 'ger') as the language tag records use ('en', 'de'); any other as written."""
    from sitegen.validate import ISO_639_2_CODES

    return ISO_639_2_CODES.get(code.lower(), code.lower())


def _put_type_and_notices(record: RecordMapping, citation: Citation) -> None:
    """The record's type by its publication types (PT): a preprint, else an article (a review, a letter, an
    editorial, a comment: a journal's items alike). An erratum, a retraction or an expression of concern is a
    notice of the work its `EFR`, `ROF` or `ECF` names (by DOI, else `pmid:N`); a work whose `EIN`, `RIN` or `ECI`
    names one links to it, and a retracted publication is `retracted`."""
    types = {value.lower() for value, _ in citation.each("PT")}
    line = (citation.each("PT") or [("", citation.line)])[0][1]
    record.put("type", "preprint" if PREPRINT_TYPE in types else "article", line)
    for written, (kind, tag) in NOTICE_TYPES.items():
        if written in types:
            record.put("notice", kind, line)
            if (named := citation.first(tag)) is not None:
                record.put("notice_for", _reference_id(named[0]), named[1])
            break
    if RETRACTED_TYPE in types:
        record.put("retracted", True, line)
    links = PositionedDict()
    links.line = citation.line
    links.key_lines = {}
    for tag, name in NOTICE_IN:
        for value, at in citation.each(tag):
            address = _reference_address(value)
            if address and address not in links.values():
                key = name if name not in links else f"{name}_{sum(1 for k in links if k.startswith(name)) + 1}"
                links[key], links.key_lines[key] = address, at
    record.put("links", links, citation.line)


def _reference_id(text: str) -> str:
    """What a reference ('Lancet. 2020;395:42-52. doi: 10.1/x. PMID: 31234567') names its work by: its DOI, else
    `pmid:` and its PMID (sitegen.notices finds a work by either), else the text."""
    if doi := _REFERENCE_DOI.search(text):
        return doi.group(1)
    if pmid := _REFERENCE_PMID.search(text):
        return f"pmid:{pmid.group(1)}"
    return text


def _reference_address(text: str) -> str:
    if doi := _REFERENCE_DOI.search(text):
        return doi_url(doi.group(1))
    if pmid := _REFERENCE_PMID.search(text):
        return pubmed_url(pmid.group(1))
    return ""


def read_medline_records(text: str, display_path: str) -> ReadResult:
    return _FileReader(display_path).read(text)


SAVE_NBIB_AS_UTF8 = (
    " (PubMed writes .nbib files as UTF-8: export the citations again, or reopen the file in a text editor as Windows-1252 and save it as UTF-8)"
)
MEDLINE = register_reader(Reader("medline", (".nbib",), read_medline_records, rank=OWN_LIST, save_as_utf8=SAVE_NBIB_AS_UTF8))
