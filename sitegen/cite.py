"""Formatted citations (APA, IEEE, Vancouver, Chicago) for each record page, made from CSL styles by citeproc-py.

A record is turned into CSL-JSON (`csl_item`), the item CSL processors read, and
formatted alone: a citation copied from a record page goes into someone else's
reference list, so it carries no list number and no "2024a" year suffix.
`formatted_citation` depends only on the entry, so the build can keep its result
under the entry's key; `formatted_citations` does every entry.

An author list that names only the first authors (BibTeX's `and others`) ends with the name
`{"literal": "others"}`, as pandoc's citeproc reads BibTeX's list, which prints it "et al.";
citeproc-py and citeproc-js know no such name, so `with_et_al` (and its twin in static/cite.js) puts
"et al." there in their output.

citeproc-py's HTML formatter does not escape the values it prints, only the
style's own terms. Record text is therefore handed to it with `&`, `<` and `>`
replaced by private-use characters, which no case change or punctuation rule of
a style touches, and those become entities in the output.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import orjson

from sitegen.exports import page_range
from sitegen.exports.bibtex import entry_type, publication_status, work_version
from sitegen.markup import render_inline
from sitegen.model import RECORD_TYPES, Entry
from sitegen.names import csl_name, is_braced_whole, shown_name, written_csl_name, written_editors
from sitegen.notices import with_standing
from sitegen.record_types import numbers_a_series, work_kind
from sitegen.values import value_class

CSL_DIR = Path(__file__).parent / "csl"
STYLES = {"apa": "apa.csl", "ieee": "ieee.csl", "vancouver": "vancouver.csl", "chicago": "chicago-author-date.csl"}  # style name -> file in sitegen/csl
NUMBERED_STYLES = {"ieee", "vancouver"}  # their bibliography starts each entry with its number ("[1]", "1.")

CSL_TYPES = {  # SPEC §7 record type -> CSL item type
    "article": "article-journal",
    "inproceedings": "paper-conference",
    "preprint": "article",
    "thesis": "thesis",
    "book": "book",
    "chapter": "chapter",
    "report": "report",
    "patent": "patent",
    "software": "software",
    "dataset": "dataset",
    "other": "document",
}
# record_types.work_kind -> its CSL type. A review stays an article: with CSL's review-book and no reviewed-title,
# APA prints the review's own title as the book's ("[Review of the book Review of: ...]"), and IEEE a stray full stop
WORK_KIND_CSL_TYPES = {"entry": "entry-encyclopedia", "online": "webpage"}
BIBTEX_TO_RECORD_TYPE = {
    "article": "article",
    "inproceedings": "inproceedings",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "techreport": "report",
    "book": "book",
    "incollection": "chapter",
}
# record detail (BibTeX's name) -> its CSL-JSON variable; volume, issue, number and pages are read apart
CSL_DETAILS = (
    ("report_type", "genre"),  # a report's series, "NBER Working Paper": APA's "(NBER Working Paper No. 31567)"
    ("publisher", "publisher"),
    ("address", "publisher-place"),
    ("edition", "edition"),
    ("series", "collection-title"),
    ("chapter", "chapter-number"),
    ("note", "note"),
    ("isbn", "ISBN"),
    ("issn", "ISSN"),
)
_CONTAINED = {"article", "inproceedings", "chapter", "other"}  # the venue is the journal, proceedings or book they are in

RELEASE_TAG = re.compile(r"^[vV](?=\d)")  # the 'v' of a release's tag ('v2.3.1', as GitHub and Zenodo write versions)
# record text -> placeholders that survive citeproc-py unescaped and unchanged
_PLACEHOLDERS = {"&": "\ue000", "<": "\ue001", ">": "\ue002"}
_ET_AL_MARK = "\ue003"  # starts the name that stands for the authors not named (`with_et_al`)
_TO_PLACEHOLDER = str.maketrans({**_PLACEHOLDERS, **dict.fromkeys([*_PLACEHOLDERS.values(), _ET_AL_MARK])})
_ENTITIES = {"\ue000": "&amp;", "\ue001": "&lt;", "\ue002": "&gt;"}
_FROM_PLACEHOLDER = re.compile("[\ue000-\ue002]")
_NOCASE = '<span class="nocase">{}</span>'  # CiteProcJSON's mark for text no style may change the case of
_TAG = re.compile(r"<[^>]*>")
_LEADING_NUMBER = re.compile(r"^(?:\[1\]|1\.)\s*")
_LINE_SPACE = re.compile(r"[ \t\r\n]+")  # a citation is one line; a style's no-break spaces stay

THESIS_GENRES = {"phd": "PhD thesis", "masters": "Master's thesis", "bachelors": "Bachelor's thesis"}
OTHERS = {"literal": "others"}  # the last name of a list that names only the first authors (BibTeX's `and others`)
_DOI_PREFIX = re.compile(r"^\s*(https?://(dx\.)?doi\.org/|doi:\s*)", re.I)


@value_class
class FormattedCitation:
    """One record in one style: `html` is safe to print into a page, `plain` is for a copy button."""

    style: str
    html: str
    plain: str


def record_type(entry: Entry) -> str:
    """The record's SPEC §7 type: its own `type`, else read from its venue as the BibTeX export reads it
    (a record with only an arXiv source is a preprint)."""
    record = entry.record
    if record.type in RECORD_TYPES:
        return record.type
    kind = BIBTEX_TO_RECORD_TYPE.get(entry_type(entry))
    if kind:
        return kind
    return "preprint" if record.arxiv or record.source.strip().lower() == "arxiv" else "other"


def csl_item(entry: Entry) -> dict[str, Any]:
    """The record as CSL-JSON, with its plain text as readers see it (LaTeX already converted).

    The details a .bib file gives (editors, volume, issue or number, pages, publisher, its place,
    edition, series, chapter, note, ISBN, ISSN) come from the record's extra fields, under the
    CSL-JSON schema's names.
    """
    record = entry.record
    kind = record_type(entry)
    csl_type = WORK_KIND_CSL_TYPES.get(work_kind(kind, record.extra), CSL_TYPES[kind])
    item: dict[str, Any] = {"id": record.id, "type": csl_type, "title": entry.title.plain}
    if entry.authors:
        item["author"] = csl_names(record.authors, [author.name for author in entry.authors])
        if record.extra.get("et_al"):
            item["author"].append(OTHERS)
    if record.date:
        item["issued"] = {"date-parts": [[record.date.year, record.date.month, record.date.day]]}
    elif record.year:
        month = record.extra.get("month")  # BibTeX's `month = jun`, with no day
        item["issued"] = {"date-parts": [[record.year, month] if type(month) is int and 1 <= month <= 12 else [record.year]]}
    venue = entry.source.plain.strip()
    if kind == "thesis" and entry.thesis_degree:
        item["genre"] = THESIS_GENRES[entry.thesis_degree]
    if kind == "preprint" and record.arxiv and venue.lower() in ("", "arxiv"):
        item["archive"] = "arXiv"
        item["number"] = f"arXiv:{record.arxiv}"
    elif venue and kind in _CONTAINED:
        item["container-title"] = venue
        if entry.venue_short:
            item["container-title-short"] = entry.venue_short.plain
    elif venue:
        item["publisher"] = venue
    extra = record.extra
    # BibTeX's `number` is a journal's issue, a report's own number, or a book's number in its series
    numbered = (("number", "number" if kind in ("report", "patent") else "collection-number" if numbers_a_series(kind, extra) else "issue"),)
    for field, csl_field in (("volume", "volume"), ("issue", "issue"), *numbered, ("pages", "page"), *CSL_DETAILS):
        value = extra.get(field)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip() and csl_field not in item:
            item[csl_field] = en_dashed(str(value).strip()) if csl_field == "page" else _detail_text(str(value).strip(), csl_field)
    for field, csl_field in (("editors", "editor"), ("translators", "translator")):
        people = written_editors(extra, field)
        if people:
            item[csl_field] = csl_names(people, [shown_name(name) for name in people])
    if note := with_standing(item.get("note", ""), record):
        item["note"] = note  # "Retracted": RIS's N1, Vancouver's notes, as NLM cites a retracted article
    status = publication_status(record)
    if status:
        item["status"] = status  # CSL's "(publication) status of the item": forthcoming, in press
    version = work_version(record)
    if version:
        item["version"] = RELEASE_TAG.sub("", version)  # APA: "[Computer software] (Version 1.2.0)", not "(Version v1.2.0)"
    if record.language:
        item["language"] = record.language  # the processors leave the case of a title not in English as written
    for name, variable in (("pmid", "PMID"), ("pmcid", "PMCID")):  # CSL's variables (Vancouver prints them)
        if record.ids.get(name):
            item[variable] = record.ids[name]
    if record.doi:
        item["DOI"] = _DOI_PREFIX.sub("", record.doi.strip())
    else:
        url = entry.own_url
        if url.startswith(("https://", "http://")):  # a path in the site means nothing in someone else's reference list
            item["URL"] = url
    return item


_AS_WRITTEN = frozenset({"volume", "issue", "number", "ISBN", "ISSN"})  # numbers and identifiers: no LaTeX to convert
_MAY_HOLD_LATEX = re.compile(r"[\\${]")


def _detail_text(value: str, csl_field: str) -> str:
    """A detail as plain text: its LaTeX (a note's `\\href{...}{here}`, `\\emph{}`, accents) converted as the record page
    shows it, for reference managers and styles, which print what they get."""
    if csl_field in _AS_WRITTEN or not _MAY_HOLD_LATEX.search(value):
        return value.replace("--", "–")
    return render_inline(value).plain.replace("--", "–")


def en_dashed(pages: str) -> str:
    """A page range as printed: '1000-1010' and '1000--1010' -> '1000–1010'; a single page or one no one can split as it is."""
    first, last = page_range(pages)
    return f"{first}–{last}" if last else pages.replace("--", "–")


def csl_names(written: Sequence[str], shown: Sequence[str]) -> list[dict[str, str]]:
    """Names as CSL names: each of `shown` (as readers see it) split where its `written` form says the family name
    starts (`García Márquez, José Luis`, `José Luis {García Márquez}`: sitegen.names.written_csl_name), else by
    `csl_name`; one `written` in braces (`{Google DeepMind}`) is a literal, which no style cuts up."""
    return [_csl_name(written[index] if index < len(written) else "", name) for index, name in enumerate(shown)]


def _csl_name(written: str, shown: str) -> dict[str, str]:
    if is_braced_whole(written):
        return {"literal": shown}
    if written:
        split = written_csl_name(written)
        if "literal" not in split and sorted(" ".join(split.values()).split()) == sorted(shown.split()):
            return split  # the written name's split, of the words shown
    return csl_name(shown)


CITED_AUTHORS = 21  # APA names the first 19 and the last of 21 or more authors, IEEE the first of 7 or more


def page_csl_item(entry: Entry) -> dict[str, Any]:
    """The CSL item a record page carries for its citations: `csl_item` with the authors the styles
    print (a collaboration's 2,900 names would add 100 KB to the page for the same two citations)."""
    item = csl_item(entry)
    authors = item.get("author", [])
    if len(authors) > CITED_AUTHORS:
        item["author"] = [*authors[: CITED_AUTHORS - 1], authors[-1]]
    return item


def formatted_citation(entry: Entry) -> dict[str, FormattedCitation]:
    """The entry in every style of `STYLES`: style name -> its citation."""
    item = csl_item(entry)
    return {name: _format(name, item) for name in STYLES}


def formatted_citations(entries: Iterable[Entry]) -> dict[str, dict[str, FormattedCitation]]:
    """Record id -> style name -> citation, for every entry."""
    return {entry.id: formatted_citation(entry) for entry in entries}


def _format(style_name: str, item: dict[str, Any]) -> FormattedCitation:
    escaped = {key: _protect(value) for key, value in item.items()}
    if escaped.get("author", [])[-1:] == [OTHERS]:
        escaped["author"] = [*escaped["author"][:-1], {"literal": _ET_AL_MARK + "et al."}]
    if style_name in PATENT_NAMING_STYLES and item["type"] == "patent" and (parts := patent_designation(escaped.get("number"))):
        escaped.pop("genre", None)  # the number's own words say what it is, not its kind ("U.S. patent") again
        escaped.update(parts)
    if "number" in escaped:  # an identifier: APA's capitalize-first would print "ArXiv:2401.01234"
        escaped["number"] = _NOCASE.format(escaped["number"])
    if style_name == "apa" and item["type"] == "thesis":
        # citeproc-py prints APA's "(Publication)" label for a thesis with a genre and no number: the
        # label's group should vanish with the empty number, and in citeproc-py it does not
        escaped.pop("genre", None)
    citeproc = _citeproc()
    bibliography = citeproc.CitationStylesBibliography(_style(style_name), citeproc.CiteProcJSON([escaped]), citeproc.html_formatter)
    bibliography.register(citeproc.Citation([citeproc.CitationItem(escaped["id"])]))
    formatted = _LINE_SPACE.sub(" ", str(bibliography.bibliography()[0])).strip(" ")
    if style_name in NUMBERED_STYLES:
        formatted = _LEADING_NUMBER.sub("", formatted)
    safe_html = _FROM_PLACEHOLDER.sub(lambda m: _ENTITIES[m[0]], with_et_al(formatted, style_name))
    return FormattedCitation(style_name, safe_html, html.unescape(_TAG.sub("", safe_html)))


# styles that print a patent as its office, "Patent" (the CSL item's `genre`, else the locale's term) and number: APA's
# "(U.S. Patent No. 11,503,892)", Chicago's "US Patent 11,503,892"; IEEE and Vancouver print the number alone
PATENT_NAMING_STYLES = frozenset({"apa", "chicago"})
# a number that says what it is, as Google Scholar and CVs write it: "US Patent 11,503,892", "US Patent App. 17/845,221"
_PATENT_DESIGNATION = re.compile(r"^(?P<authority>\D*?)\s*\b(?P<kind>patent\b\D*?)\s*(?:\bNo\.?\s*)?(?P<number>\d.*)$", re.IGNORECASE)


def patent_designation(number: Any) -> dict[str, str]:
    """The CSL variables APA and Chicago print a patent by, read from a number that says what it is: "US Patent
    11,503,892" -> authority "US", number "11,503,892", which they print "US Patent No. 11,503,892", not "Patent No. US
    Patent 11,503,892"; "US Patent App. 17/845,221" keeps "Patent App." as the `genre` printed in place of "Patent".
    {} for a number that does not ("US 10,123,456 B2": "Patent No. US 10,123,456 B2"). static/cite.js does the same
    (`patentDesignation`)."""
    found = _PATENT_DESIGNATION.match(number.strip()) if isinstance(number, str) else None
    if not found:
        return {}
    parts = {"number": found["number"]}
    if found["authority"]:
        parts["authority"] = found["authority"]
    if found["kind"].lower() != "patent":
        parts["genre"] = found["kind"]
    return parts


# the comma and word joining the last name to the others ("&", "and", APA's "…" before the last of many; citeproc-js
# joins a person and a literal name without the comma) and the name that stands for the authors not named
_ET_AL = re.compile(f",? (?:(?:&amp;|&#38;|&|and|…) )?{_ET_AL_MARK}et al\\.")
# after the names, as the style prints its own "et al."
ET_AL_HTML = {"apa": ", et al.", "ieee": " <i>et al.</i>", "vancouver": ", et al.", "chicago": ", et al."}


def with_et_al(formatted: str, style_name: str) -> str:
    """A citation whose author list ended with `OTHERS`, given to the processor as the name "et al." after a mark:
    "Aad, G., & et al." -> "Aad, G., et al." (APA), "G. Aad and et al." -> "G. Aad <i>et al.</i>" (IEEE).
    static/cite.js does the same to citeproc-js's output (`withEtAl`)."""
    if _ET_AL_MARK not in formatted:
        return formatted
    return _ET_AL.sub(ET_AL_HTML.get(style_name, ", et al."), formatted)


def _protect(value: Any) -> Any:
    """Record text with `&`, `<`, `>` as placeholders (and any placeholder it held dropped)."""
    if isinstance(value, str):
        return value.translate(_TO_PLACEHOLDER)
    if isinstance(value, list):
        return [_protect(v) for v in value]
    if isinstance(value, dict):
        return {k: v if k == "date-parts" else _protect(v) for k, v in value.items()}
    return value


@cache
def _citeproc() -> SimpleNamespace:
    """citeproc-py, imported when the first citation is made: a build or check that makes none
    (or finds them all in its cache) does not pay for loading it."""
    from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, model
    from citeproc.formatter import html
    from citeproc.source.json import CiteProcJSON

    class Lighter(html.TagWrapper):
        """citeproc-py writes a light font weight as `<l>`, which is no HTML element."""

        tag = "span"
        attributes = {"style": "font-weight:lighter"}

    html_formatter = SimpleNamespace(
        **{name: getattr(html, name) for name in ("preformat", "Italic", "Oblique", "Bold", "Underline", "Superscript", "Subscript", "SmallCaps")},
        Light=Lighter,
    )
    _remember_macros(model.CitationStylesElement)
    _keep_full_given_names(model.Name)
    return SimpleNamespace(
        Citation=Citation,
        CitationItem=CitationItem,
        CitationStylesBibliography=CitationStylesBibliography,
        CitationStylesStyle=CitationStylesStyle,
        CiteProcJSON=CiteProcJSON,
        html_formatter=html_formatter,
    )


_CLASSES_REMEMBERING_MACROS: set[Any] = set()  # citeproc-py's element classes whose get_macro is wrapped already


def _remember_macros(element_class: Any) -> None:
    """Make citeproc-py look each macro of a style up once, not at every use.

    citeproc-py finds a macro by an XPath search of the whole style each time a
    style calls it, and APA calls hundreds per record: that search was 40% of
    the time of formatting a record. The style trees are never changed after
    parsing, so the element found first is the one found every time.
    """
    if element_class in _CLASSES_REMEMBERING_MACROS:
        return
    find_macro = element_class.get_macro
    found: dict[tuple[Any, str], Any] = {}  # (style root element, macro name) -> the macro element

    def get_macro(element, name):
        key = (element.get_root(), name)  # the root is kept alive here, so lxml hands out this same proxy
        macro = found.get(key)
        if macro is None:
            macro = found[key] = find_macro(element, name)
        return macro

    element_class.get_macro = get_macro
    _CLASSES_REMEMBERING_MACROS.add(element_class)


_CLASSES_KEEPING_GIVEN_NAMES: set[Any] = set()  # citeproc-py's name classes whose get_option is wrapped already


def _keep_full_given_names(name_class: Any) -> None:
    """Make citeproc-py honour a `<name initialize="false">` (CSL 1.0.1), which it reads as initializing.

    Chicago sets `initialize-with` for the whole style and `initialize="false"` on every name it prints in
    full: without this, citeproc-py cites "Smith, J., and W. Zhang" where the style and citeproc-js give
    "Smith, Jane, and Wei Zhang". (The spec's finer point, that initials already in a given name still get
    the mark, "James T Kirk" -> "James T. Kirk", is left out: such a name is printed as written.)
    """
    if name_class in _CLASSES_KEEPING_GIVEN_NAMES:
        return
    get_option = name_class.get_option

    def get_option_keeping_given_names(element, name, *args, **kwargs):
        if name == "initialize-with" and element.get("initialize") == "false":
            return None
        return get_option(element, name, *args, **kwargs)

    name_class.get_option = get_option_keeping_given_names
    _CLASSES_KEEPING_GIVEN_NAMES.add(name_class)


@cache
def _style(style_name: str) -> Any:
    """The style, parsed once per process and shared by every citation in it."""
    return _citeproc().CitationStylesStyle(str(CSL_DIR / STYLES[style_name]), validate=False)


def csl_locales() -> Traversable:
    """citeproc-py's folder of CSL locales (one name a call: Python 3.10's Traversable)."""
    return resources.files("citeproc").joinpath("data").joinpath("locales")


@cache
def _locale_names() -> tuple[dict[str, str], frozenset[str]]:
    """citeproc-py's CSL locales: each language's usual one ('de' -> 'de-DE'), and every one it has."""
    primary = orjson.loads(csl_locales().joinpath("locales.json").read_bytes())["primary-dialects"]
    names = frozenset(
        path.name[len("locales-") : -len(".xml")] for path in csl_locales().iterdir() if path.name.startswith("locales-") and path.name.endswith(".xml")
    )
    return primary, names


def csl_locale(language: str) -> str:
    """The CSL locale the citations of a site in `language` are formatted in, among those citeproc-py ships: the
    language's own ('de-CH', 'pt-BR'), else its usual one ('de' -> 'de-DE'), else en-US ('eo')."""
    primary, names = _locale_names()
    subtags = language.replace("_", "-").split("-")
    if subtags[0].lower() == "zh" and "hant" in (tag.lower() for tag in subtags) and "zh-TW" in names:
        return "zh-TW"  # Traditional Chinese
    for tag in ("-".join(subtags[:n]) for n in range(len(subtags), 0, -1)):
        found = next((name for name in names if name.lower() == tag.lower()), None) or primary.get(tag.lower())
        if found and found in names:
            return found
    return "en-US"
