"""publications.bib and the BibTeX block on each record page.

Entries use standard types so that every BibTeX reader accepts them; titles
keep their LaTeX source, since LaTeX is where BibTeX goes.
"""

from __future__ import annotations

import re

from sitegen.exports import page_range
from sitegen.latex import escape_bare_specials, escape_text_underscores
from sitegen.model import BIBTEX_DETAILS, Entry
from sitegen.names import csl_name, is_braced_whole, written_editors
from sitegen.record_types import infer_type

_BRACES = re.compile(r"[{}]")
_AND = re.compile(r"\sand\s", re.I)
# a brace with no backslash before it (starting with the brace is 2-3x as fast as a look-behind first)
_UNESCAPED_BRACES = re.compile(r"[{}](?<!\\[{}])")
ENTRY_TYPES = {"article", "inproceedings", "misc", "phdthesis", "mastersthesis", "techreport", "book", "incollection"}


# the field that names an entry type's venue (the record's `source`); other types say `howpublished`
VENUE_FIELDS = {
    "article": "journal",
    "inproceedings": "booktitle",
    "incollection": "booktitle",
    "phdthesis": "school",
    "mastersthesis": "school",
    "techreport": "institution",
    "book": "publisher",
}


RECORD_TYPE_ENTRIES = {  # SPEC §7 type -> the standard BibTeX entry type
    "article": "article",
    "inproceedings": "inproceedings",
    "thesis": "phdthesis",
    "book": "book",
    "chapter": "incollection",
    "report": "techreport",
}


def entry_type(entry: Entry) -> str:
    requested = str(entry.record.extra.get("bibtex_type", "")).lower()
    if requested in ENTRY_TYPES:
        return requested
    # every shown record has a type (enrich gives it); one made elsewhere is typed as enrich would type it
    kind = entry.record.type or infer_type(entry.record)
    return RECORD_TYPE_ENTRIES.get(kind, "misc")  # misc: a preprint, software, a dataset, a patent, other


def bibtex_entry(entry: Entry, url: str) -> str:
    record = entry.record
    kind = entry_type(entry)
    authors = [_author(name) for name in record.authors] + (["others"] if record.extra.get("et_al") else [])
    fields: list[tuple[str, str]] = [
        ("title", "{" + _value(record.title) + "}"),
        ("author", _value(" and ".join(authors))),
    ]
    venue = _value(record.source)
    if kind in VENUE_FIELDS:
        fields.append((VENUE_FIELDS[kind], venue))
    elif venue and venue.lower() != "arxiv":
        fields.append(("howpublished", venue))
    editors = written_editors(record.extra)
    if editors:
        fields.append(("editor", _value(" and ".join(_author(name) for name in editors))))
    written = {name for name, _ in fields}  # `howpublished` may be the venue
    fields += [
        (name, _value(_bibtex_pages(value) if name == "pages" else value)) for name, value in record_details(record.extra).items() if name not in written
    ]
    fields.append(("year", str(record.year)))
    month = record.date.month if record.date else record.extra.get("month")
    if isinstance(month, int) or (isinstance(month, str) and month.strip()):
        fields.append(("month", str(month)))
    if record.doi:
        fields.append(("doi", _value(record.doi, as_text=False)))
    if record.arxiv:
        fields += [("eprint", _value(record.arxiv, as_text=False)), ("archivePrefix", "arXiv")]
        if record.categories:
            fields.append(("primaryClass", _value(record.categories[0], as_text=False)))
    fields.append(("url", _value(record.links.get("abs") or url, as_text=False)))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
    return f"@{kind}{{{entry.cite_key},\n{body}\n}}\n"


def _bibtex_pages(pages: str) -> str:
    """'549-560' (Crossref), '549–560' (a .bib file's `--`, as read) -> '549--560', BibTeX's range."""
    first, last = page_range(pages)
    return f"{first}--{last}" if last else pages.replace("–", "--")


def record_details(extra: dict) -> dict[str, str]:
    """The record's volume, number (or issue), pages, publisher and the like, under BibTeX's names, as text;
    none that is not a plain value."""
    details = {}
    for name in BIBTEX_DETAILS:
        value = extra.get(name)
        if value is None and name == "number":
            value = extra.get("issue")
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            details[name] = str(value).strip()
    return details


def _author(name: str) -> str:
    """A name written so that BibTeX splits it back into the parts CSL and RIS give it.

    BibTeX reads 'First von Last' and 'von Last, Jr, First': a suffix at the end ('Jane Doe Jr.')
    would be read as the last name, so such a name is written 'Doe, Jr., Jane'. A name that is one
    unit is braced, else BibTeX makes 'Google' a first name: one written in braces (sitegen.names),
    one that holds ' and ', and a group's name that CSL keeps whole ('ATLAS Collaboration').
    """
    if is_braced_whole(name):
        return name
    if _AND.search(name):
        return f"{{{name}}}"
    parts = csl_name(name)
    if "literal" in parts:
        return f"{{{name}}}" if " " in name.strip() else name
    if "suffix" in parts and "," not in name:
        return f"{parts['family']}, {parts['suffix']}, {parts['given']}"
    return name


def _value(value: str, as_text: bool = True) -> str:
    """Make a field value safe inside braces: specials escaped, braces balanced.

    BibTeX counts every brace, escaped or not, while other readers (biber,
    bibtexparser) skip `\\{`; a value must be balanced for both. `as_text`: the value
    is set as text (a title, a name, a venue), where an underscore is escaped too;
    an identifier or an address (doi, eprint, url) keeps its `_`, as the macros
    that print those fields read them verbatim.
    """
    text = escape_bare_specials(" ".join(value.split()))
    if as_text:
        text = escape_text_underscores(text)
    if ("{" in text or "}" in text) and not (_balanced(text, escapes=True) and _balanced(text, escapes=False)):
        text = _ANY_BRACE.sub(lambda m: r"\textbraceleft{}" if m[1] == "{" else r"\textbraceright{}", text)
    return text + " " if text.endswith("\\") else text  # `x\` would escape the closing brace


_ANY_BRACE = re.compile(r"\\?([{}])")


def _balanced(text: str, escapes: bool) -> bool:
    """`escapes`: a brace right after a backslash does not count."""
    depth = 0
    for brace in (_UNESCAPED_BRACES if escapes else _BRACES).findall(text):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return depth == 0
