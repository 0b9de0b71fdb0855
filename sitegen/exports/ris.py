"""publications.ris: every shown record for EndNote, Zotero and Mendeley.

RIS is one `TAG  - value` line per field, from `TY` (the type) to `ER` (the end).
Its specification ends every line with a carriage return and line feed, which
every reader accepts; Windows tools need it. The file is UTF-8, as Zotero and
Mendeley read it and EndNote does when told.

The fields come from the same CSL-JSON item as the APA and IEEE citations
(`sitegen.cite.csl_item`), so names, venues and types are read one way.

RIS has no mark for an author list that names only the first authors (BibTeX's `and others`);
EndNote's manual asks for "et al." followed by a comma as the last author ("Author and Editor
Names"), the comma making it one name that no style splits. That is what is written: `AU  - et al.,`.

A work's PDF (its `pdf` link, else its preprint's) is `L1`, the "File Attachments" EndNote and Zotero attach to
the reference, an absolute address as `UR` is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from sitegen.cite import OTHERS, csl_item, record_type
from sitegen.exports import joined, page_range
from sitegen.fragments import Fragments
from sitegen.markup import render_inline
from sitegen.model import Entry
from sitegen.names import family_first
from sitegen.record_types import work_kind

LINE_END = "\r\n"
RIS_TYPES = {  # SPEC §7 record type -> RIS reference type
    "article": "JOUR",
    "inproceedings": "CPAPER",
    "preprint": "UNPB",
    "thesis": "THES",
    "book": "BOOK",
    "chapter": "CHAP",
    "report": "RPRT",
    "patent": "PAT",
    "software": "COMP",
    "dataset": "DATA",
    "other": "GEN",
}
WORK_KIND_RIS_TYPES = {"entry": "ENCYC", "online": "ELEC"}  # Zotero's encyclopedia article and web page (record_types.work_kind)
RIS_DETAILS = (  # RIS tag <- CSL-JSON variable, for the details a .bib file gives
    ("CY", "publisher-place"),
    ("ET", "edition"),
    ("T3", "collection-title"),  # the series
    ("SE", "chapter-number"),  # the spec's Section, which its CHAP type names Chapter
    ("SN", "ISBN"),
    ("SN", "ISSN"),
    ("N1", "note"),
)
# the types whose `number` is their own (a patent's, a report's "RFC 9420"), which Zotero reads from SN, not from
# M1 (its "extra") or IS (no field of a patent: a note)
NUMBER_IN_SN = frozenset({"PAT", "RPRT"})
# the links that are the work's PDF, best first: its own (the published version's), else its preprint's
PDF_KINDS = ("pdf", "pdf_preprint")
_LINE_BREAKS = re.compile(r"[\s\x00-\x1f\x7f\u2028\u2029\x85]+")  # a value must stay on its tag's line


def ris_entry(entry: Entry, url: str = "", links: Mapping[str, str] | None = None) -> str:
    """One record, `TY` to `ER` and a blank line; `url`: the record's page, linked when it has no address of its own;
    `links`: the work's links (`Entry.links`) as absolute URLs (as written when not given)."""
    record = entry.record
    item = csl_item(entry)
    kind = record_type(entry)
    lines = [("TY", WORK_KIND_RIS_TYPES.get(work_kind(kind, record.extra), RIS_TYPES[kind]))]
    lines += [("AU", _ris_name(name)) for name in item.get("author", ())]
    # a book's editors are A3, as Zotero reads and writes them (its A2 of a book is the series editor); a chapter's, a
    # paper's in proceedings, an entry's in a reference work are A2
    editor_tag = "A3" if lines[0][1] == "BOOK" else "A2"
    lines += [(editor_tag, _ris_name(name)) for name in item.get("editor", ())]
    lines += [("A4", _ris_name(name)) for name in item.get("translator", ())]  # Zotero's translator (the spec's subsidiary author)
    lines.append(("TI", item["title"]))
    if "container-title" in item:
        lines.append(("T2", item["container-title"]))
    if "container-title-short" in item:
        lines.append(("J2", item["container-title-short"]))  # the abbreviated journal or proceedings
    if "publisher" in item:
        lines.append(("PB", item["publisher"]))
    elif lines[0][1] == "PAT" and isinstance(holder := record.extra.get("holder"), str) and holder.strip():
        lines.append(("PB", render_inline(holder).plain))  # a patent's holder, the assignee: Zotero's assignee
    elif "archive" in item:
        lines.append(("PB", item["archive"]))  # the repository of a preprint ("arXiv")
    own_number = "number" in item and lines[0][1] in NUMBER_IN_SN  # SN is the number: a report's ISBN is left out
    lines += [(tag, item[field]) for tag, field in RIS_DETAILS if field in item and not (tag == "SN" and own_number)]
    if "version" in item and "edition" not in item:
        lines.append(("ET", item["version"]))  # a program's version: EndNote's and Zotero's ET of a COMP reference
    if "genre" in item:
        lines.append(("M3", item["genre"]))  # the kind of thesis
    if "language" in item:
        lines.append(("LA", item["language"]))
    if own_number:
        lines.append(("SN", item["number"]))  # a patent's or a report's own number: Zotero's patentNumber, reportNumber
    elif "number" in item:
        lines.append(("M1", item["number"]))  # "arXiv:2401.01234": where Zotero keeps the id
    elif "collection-number" in item and lines[0][1] == "BOOK":
        lines.append(("M1", item["collection-number"]))  # Zotero's number of a book in its series
    for tag, field in (("VL", "volume"), ("IS", "issue")):
        if field in item:
            lines.append((tag, item[field]))
    if "page" in item:
        first, last = page_range(item["page"])
        lines.append(("SP", first))
        if last:
            lines.append(("EP", last))
    if record.date:
        lines += [("PY", f"{record.date.year:04d}"), ("DA", record.date.strftime("%Y/%m/%d"))]
    elif record.year:
        lines.append(("PY", f"{record.year:04d}"))
        if len(issued := item["issued"]["date-parts"][0]) == 2:
            lines.append(("DA", f"{issued[0]:04d}/{issued[1]:02d}"))
    if "DOI" in item:
        lines.append(("DO", item["DOI"]))
    work_links = links or entry.links
    kind = entry.url_kind
    link = (work_links.get(kind) if kind else "") or url
    if link:
        lines.append(("UR", link))
    pdf = next((work_links[kind] for kind in PDF_KINDS if work_links.get(kind)), "")
    if pdf:
        lines.append(("L1", pdf))  # the file EndNote and Zotero attach to the reference
    if entry.abstract_plain:
        lines.append(("AB", entry.abstract_plain))
    lines += [("KW", subject.name) for subject in entry.subjects]
    text = "".join(f"{tag}  - {value}{LINE_END}" for tag, value in ((tag, _one_line(value)) for tag, value in lines) if value)
    return f"{text}ER  - {LINE_END}{LINE_END}"


def publications_ris(
    entries: Iterable[Entry],
    page_url: Callable[[Entry], str] = lambda entry: "",
    fragments: Fragments | None = None,
    links: Callable[[Entry], Mapping[str, str]] | None = None,
) -> bytearray:
    """publications.ris in UTF-8: `entries` in order; `page_url`: a record's page (its absolute URL); `links`: the work's
    links (`Entry.links`) as absolute URLs.

    Each `ris_entry` stands alone, so the file is the records' entries joined, each
    made once and kept in `fragments` while its record is unchanged.
    """
    pieces = fragments if fragments is not None else Fragments()
    return joined(pieces.get("ris", entry, lambda e: ris_entry(e, page_url(e), links(e) if links else None).encode("utf-8"), shared=False) for entry in entries)


def _ris_name(name: dict[str, str]) -> str:
    """`Family, Given[, Suffix]`, the form RIS readers split at the commas; a group's name as it is; the authors
    not named as EndNote asks (see the module's docstring)."""
    if name == OTHERS:
        return "et al.,"
    return family_first(name)


def _one_line(value: object) -> str:
    text = str(value)
    if text.isprintable() and "  " not in text:  # no break or control character, no run of spaces: most values
        return text.strip()
    return _LINE_BREAKS.sub(" ", text).strip()
