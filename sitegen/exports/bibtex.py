"""publications.bib and the BibTeX block on each record page.

Entries use BibTeX's standard types, and biblatex's for what BibTeX has no type for (`@software`,
`@dataset`, `@patent`, as Better BibTeX writes them; BibTeX's styles print them as `@misc`); titles
keep their LaTeX source, since LaTeX is where BibTeX goes.

Two forms of an entry: the record page's (`full=False`), short as Google Scholar's, for pasting into a
paper, whose `url` is the work's own address or else its page on the site; and publications.bib's
(`full=True`), for reference managers and for reading back, which keeps everything the record has: its
full `date`, `abstract`, `keywords`, `shortjournal`, its other links under al-folio's field names
(`pdf`, `code`, `slides`, ...), INSPIRE's `reportNumber`, biblatex's `eventtitle`, PubMed's `pmid`, the
citation keys of the entries merged into it (`ids`, biblatex's key aliases), al-folio's `selected` for a featured
record, and in `biburl` (as dblp names
the page an entry comes from) its page on the site, or dblp's when it came from dblp: a site built from
it gains no link to the record's old page. Both forms give a collaboration (`collaboration`, INSPIRE's)
and a program's `version`. MathSciNet's `mrnumber` is in both: the AMS's styles print it.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping

from sitegen.categories import is_arxiv_category
from sitegen.exports import page_range
from sitegen.latex import LOWERED_SIGNS, RAISED_SIGNS, escape_bare_specials, escape_text_underscores, formulas_expanded
from sitegen.model import BIBTEX_DETAILS, PUBLICATION_STATES, Entry, Record
from sitegen.names import csl_name, csl_name_and_order, is_braced_whole, shown_name, written_csl_name, written_editors
from sitegen.notices import standing, with_standing
from sitegen.record_types import database_url, infer_type
from sitegen.values import whole_number

_BRACES = re.compile(r"[{}]")
_AND = re.compile(r"\sand\s", re.I)
# a brace with no backslash before it (starting with the brace is 2-3x as fast as a look-behind first)
_UNESCAPED_BRACES = re.compile(r"[{}](?<!\\[{}])")
ENTRY_TYPES = {"article", "inproceedings", "misc", "phdthesis", "mastersthesis", "techreport", "book", "incollection", "software", "dataset", "patent"}


# the field that names an entry type's venue (the record's `source`); other types say `howpublished`
VENUE_FIELDS = {
    "article": "journal",
    "inproceedings": "booktitle",
    "incollection": "booktitle",
    "phdthesis": "school",
    "mastersthesis": "school",
    "techreport": "institution",
    "book": "publisher",
    "dataset": "publisher",  # biblatex's @dataset has no `howpublished`
}


RECORD_TYPE_ENTRIES = {  # SPEC §7 type -> the standard BibTeX entry type (biblatex's for software, datasets and patents)
    "article": "article",
    "inproceedings": "inproceedings",
    "thesis": "phdthesis",
    "book": "book",
    "chapter": "incollection",
    "report": "techreport",
    "software": "software",
    "dataset": "dataset",
    "patent": "patent",
}
# a thesis's degree -> its entry; BibTeX has none for a bachelor's, whose `type` field says it (`THESIS_TYPE_FIELDS`)
# BibTeX's predefined month macros, which every style and biber know
MONTH_ABBREVIATIONS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
THESIS_ENTRIES = {"phd": "phdthesis", "masters": "mastersthesis", "bachelors": "mastersthesis"}
THESIS_TYPE_FIELDS = {"bachelors": "Bachelor's thesis"}
# types BibTeX has no entry for, which the tools that write BibTeX write as @misc: a record's @misc of one is upgraded
_MISC_IN_BIBTEX = frozenset({"software", "dataset", "patent"})
# a detail's BibTeX field where its name in the record is another: a report's series is BibTeX's `type`
BIBTEX_NAMES = {"report_type": "type"}
WORK_FIELDS = (
    ("collaboration", "collaboration"),
    ("version", "version"),
    ("reportnumber", "reportNumber"),
    ("eventtitle", "eventtitle"),
    ("eventdate", "eventdate"),
    ("event_place", "venue"),  # biblatex's: where the meeting was
    ("license", "license"),  # biblatex-software's
)
# al-folio's link fields, which sitegen's reader reads back under these names (`url` holds the work's own address)
LINK_FIELDS = ("html", "pdf", "code", "slides", "video", "poster", "data", "supp", "blog", "website", "openreview")
# links a .bib entry gave as biblatex's `eprint` of another type than arXiv (sources.bibtex.EPRINT_LINKS): the link's
# kind, the `eprinttype` and the address before the eprint; written back so when the record has no arXiv eprint
EPRINT_LINKS = (
    ("hal", "hal", "https://hal.science/"),
    ("jstor", "jstor", "https://www.jstor.org/stable/"),
    ("handle", "hdl", "https://hdl.handle.net/"),
    ("googlebooks", "googlebooks", "https://books.google.com/books?id="),
)


def _other_eprint(links: Mapping[str, str]) -> tuple[str, str] | None:
    """(eprinttype, eprint) of the first link biblatex writes as an eprint (HAL's, JSTOR's, a handle, Google
    Books'), so that a site built from publications.bib links there as the one it was built from; else None."""
    for kind, eprint_type, address in EPRINT_LINKS:
        url = links.get(kind, "")
        if url.startswith(address) and len(url) > len(address):
            return eprint_type, urllib.parse.unquote(url[len(address) :])
    return None


def entry_type(entry: Entry) -> str:
    """The record's entry type: the one it was read with or asks for (`bibtex_type`), else its type's.

    A preprint is `@misc` with its eprint, as arXiv's own export writes it, whatever its entry said
    (dblp's `@article{journal = {CoRR}}`, Google Scholar's `@article{journal = {arXiv preprint ...}}`);
    a `@misc` of software, a dataset or a patent is biblatex's `@software`, `@dataset`, `@patent`; a thesis whose
    venue named its degree ("Master's thesis, ...", which its `school` no longer says) is that degree's entry.
    """
    # every shown record has a type (enrich gives it); one made elsewhere is typed as enrich would type it
    kind = entry.record.type or infer_type(entry.record)
    if kind == "preprint":
        return "misc"
    if kind == "thesis" and entry.thesis_degree:
        return THESIS_ENTRIES[entry.thesis_degree]
    requested = str(entry.record.extra.get("bibtex_type", "")).lower()
    if requested in ENTRY_TYPES and not (requested == "misc" and (kind in _MISC_IN_BIBTEX or _numbered_report(entry))):
        return requested
    return RECORD_TYPE_ENTRIES.get(kind, "misc")  # misc: other work


def _numbered_report(entry: Entry) -> bool:
    """Is the record a report of a numbered series (an RFC, which the IETF's datatracker writes as a `@misc` whose
    `number` BibTeX's styles never print): a `@techreport`, printed "RFC 9420"?"""
    extra = entry.record.extra
    return entry.record.type == "report" and bool(extra.get("report_type")) and bool(extra.get("number"))


# A language tag's name in babel and polyglossia, as biblatex's `langid` takes it (sitegen.validate.LANGUAGE_NAMES reads
# them back); a tag with none is left out of the entry.
BABEL_NAMES = {
    "pt-br": "brazilian",
    "en": "english",
    "de": "german",
    "fr": "french",
    "es": "spanish",
    "it": "italian",
    "pt": "portuguese",
    "nl": "dutch",
    "ru": "russian",
    "pl": "polish",
    "cs": "czech",
    "sk": "slovak",
    "sv": "swedish",
    "no": "norwegian",
    "da": "danish",
    "fi": "finnish",
    "el": "greek",
    "tr": "turkish",
    "hu": "hungarian",
    "ca": "catalan",
    "hr": "croatian",
    "sr": "serbian",
    "sl": "slovenian",
    "ro": "romanian",
    "uk": "ukrainian",
    "la": "latin",
    "ja": "japanese",
    "zh": "chinese",
    "ko": "korean",
    "ar": "arabic",
    "he": "hebrew",
    "fa": "persian",
    "ur": "urdu",
}


def babel_name(language: str) -> str:
    """'de-AT' -> 'german', 'pt-BR' -> 'brazilian'; "" for a language babel has no name for here."""
    tag = language.lower()
    return BABEL_NAMES.get(tag) or BABEL_NAMES.get(tag.partition("-")[0], "")


def bibtex_entry(entry: Entry, page_url: str, links: Mapping[str, str] | None = None, full: bool = False) -> str:
    """The record's entry; `page_url`: its page on the site (absolute); `links`: the work's links (`Entry.links`) as
    absolute URLs (as written when not given); `full`: publications.bib's form (see the module's docstring)."""
    record = entry.record
    links = entry.links if links is None else links
    kind = entry_type(entry)
    authors = [_author(name) for name in record.authors] + (["others"] if record.extra.get("et_al") else [])
    fields: list[tuple[str, str]] = [
        # the Cite section's, pasted into a paper, with the site's own macros as what they stand for; publications.bib
        # keeps the title as written, for a site built from it (with the same `math_macros`)
        ("title", "{" + _value(record.title if full else formulas_expanded(record.title)) + "}"),
        ("author", _value(" and ".join(authors))),
    ]
    venue = _value(entry.source.source)  # a thesis's institution alone (sitegen.enrich)
    if kind in VENUE_FIELDS:
        fields.append((VENUE_FIELDS[kind], venue))
    elif venue and venue.lower() != "arxiv":
        fields.append(("howpublished", venue))
    if entry.thesis_degree in THESIS_TYPE_FIELDS:
        fields.append(("type", THESIS_TYPE_FIELDS[entry.thesis_degree]))  # BibTeX's and biblatex's label of the thesis
    if full and record.venue_short:
        fields.append(("shortjournal", _value(record.venue_short)))  # biblatex's short title of the venue, al-folio's `abbr`
    if full and (langid := babel_name(record.language)):
        fields.append(("langid", langid))  # biblatex's language of the entry (hyphenation, case), read back as the record's
    editors = written_editors(record.extra)
    if editors:
        fields.append(("editor", _value(" and ".join(_author(name) for name in editors))))
    translators = written_editors(record.extra, "translators")
    if translators:
        fields.append(("translator", _value(" and ".join(_author(name) for name in translators))))
    written = {name for name, _ in fields}  # `howpublished` may be the venue
    fields += [
        (BIBTEX_NAMES.get(name, name), _value(_bibtex_pages(value) if name == "pages" else value.replace("–", "--") if name in _RANGES else value))
        if name != "holder"
        else (name, _value(value if " and " in value or value.startswith("{") else f"{{{value}}}"))  # a name list: BASF SE whole
        for name, value in record_details(record.extra).items()
        if BIBTEX_NAMES.get(name, name) not in written
    ]
    if status := publication_status(record):
        fields.append(("pubstate", _value(_pubstate(status))))
    if standing(record):  # "Retracted", "Withdrawn": printed wherever the entry is cited (sitegen.notices)
        note = next((value for name, value in fields if name == "note"), "")
        fields = [field for field in fields if field[0] != "note"] + [("note", with_standing(note, record))]
    # what a .bib file's INSPIRE and biblatex entries gave beside (record.extra, under these names): the collaboration
    # and a program's version belong in a citation; the report number and the conference's name are kept
    for name, field in WORK_FIELDS if full else WORK_FIELDS[:2]:
        value = record.extra.get(name)
        if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
            fields.append((field, _value(str(value))))
    fields.append(("year", str(record.year)))
    month = record.date.month if record.date else record.extra.get("month")
    if isinstance(month, int) or (isinstance(month, str) and month.strip()):
        fields.append(("month", str(month)))
    if full and record.date:
        fields.append(("date", record.date.isoformat()))  # biblatex's: the day, which `year` and `month` cannot hold
    if record.doi:
        fields.append(("doi", _address(record.doi)))
    if record.arxiv:
        fields += [("eprint", _address(record.arxiv)), ("archivePrefix", "arXiv")]
        primary = next((code for code in record.categories if is_arxiv_category(code)), "")
        if primary:
            fields.append(("primaryClass", _address(primary)))
    elif full and (eprint := _other_eprint(links)) is not None:
        fields += [("eprint", _address(eprint[1])), ("eprinttype", eprint[0])]
    if record.ids.get("mr"):  # MathSciNet's MR number, in both forms: the AMS's styles (amsplain, amsalpha) print it
        fields.append(("mrnumber", _address(record.ids["mr"])))
    url_kind = entry.url_kind
    url = links.get(url_kind, "") if url_kind else ""
    if full:
        fields.append(("url", _address(url)))
        fields += [(name, _address(links[name])) for name in LINK_FIELDS if name != url_kind and links.get(name)]
        # where the entry comes from: dblp's address of it, as dblp writes it (a site built from the file keeps the dblp
        # key), else the record's page on this site
        dblp = record.ids.get("dblp")
        fields.append(("biburl", _address(f"https://dblp.org/rec/{dblp}.bib" if dblp else page_url)))
        if record.ids.get("pmid"):
            fields.append(("pmid", _address(record.ids["pmid"])))  # PubMed's id, as Mendeley writes it
        if record.ids.get("pmcid"):
            fields.append(("pmcid", _address(record.ids["pmcid"])))  # PubMed Central's, as PubMed's and JabRef's exports write it
        # the work's ids in its field's databases, as ADS, zbMATH and al-folio write them (MathSciNet's: above)
        if record.ids.get("ads"):
            fields.append(("adsurl", _address(database_url("ads", record.ids["ads"]))))
        if record.ids.get("zbmath"):
            fields.append(("zbl" if "." in record.ids["zbmath"] else "zbmath", _address(record.ids["zbmath"])))
        if record.ids.get("inspire"):
            fields.append(("inspirehep_id", _address(record.ids["inspire"])))
        if entry.abstract_plain:
            fields.append(("abstract", _paragraphs(record.abstract)))
        if record.categories:
            fields.append(("keywords", ", ".join(map(_keyword, record.categories))))
        if record.aliases:
            fields.append(("ids", _address(", ".join(record.aliases))))
        if record.featured:
            fields.append(("selected", "true"))  # al-folio's field, which biber passes over: a site built from the file features it too
    else:
        fields.append(("url", _address(url or page_url)))
    body = ",\n".join(f"  {name} = {_month_macro(value) if name == 'month' else f'{{{value}}}'}" for name, value in fields if value)
    return f"@{kind}{{{entry.cite_key},\n{body}\n}}\n"


def _month_macro(month: str) -> str:
    """A month as BibTeX writes it: the macro of its number (`mar`), which classic styles print as the month's
    name and biber reads as 3 (`{3}` printed as '3' by plain.bst); anything else ('4 June') in braces."""
    number = whole_number(month) or 0
    return MONTH_ABBREVIATIONS[number - 1] if 1 <= number <= 12 else f"{{{month}}}"


def _keyword(category: str) -> str:
    """One of `keywords`, in braces when it holds a comma or semicolon (ADS's `ISM: dust, extinction`), so that a
    reader that splits keywords there (sitegen's own, Zotero's) reads it back whole."""
    text = _value(category)
    return f"{{{text}}}" if "," in text or ";" in text else text


def _paragraphs(text: str) -> str:
    """An abstract as BibTeX holds it, as Zotero writes one: each paragraph on one line, a blank line between."""
    return "\n\n".join(_value(paragraph) for paragraph in re.split(r"\n\s*\n", text) if not paragraph.isspace() and paragraph)  # _value puts each on one line


_RANGES = frozenset({"number", "volume"})  # a double issue ('1--2', read as '1–2') is a range, written as pages are


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


def work_licence(record: Record) -> str:
    """The licence a work is published under, as written ('BSD-3-Clause', 'CC-BY-4.0': biblatex-software's and
    GitHub's `license`, a YAML record's `license:`); '' for none."""
    value = record.extra.get("license")
    return value.strip() if isinstance(value, str) else ""


def publication_status(record: Record) -> str:
    """The work's status as its author states it ("Forthcoming", "Revise and resubmit, American Economic Review":
    a YAML record's `status`, a .bib file's biblatex `pubstate`), as text; '' for none."""
    value = record.extra.get("status")
    return " ".join(value.split()) if isinstance(value, str) else ""


def _pubstate(status: str) -> str:
    """biblatex's `pubstate`: its key for a state it knows ('forthcoming', printed in the reader's language), else
    the text, which biblatex prints as it is."""
    keys = {words.casefold(): key for key, words in PUBLICATION_STATES.items()}
    return keys.get(status.casefold(), status)


VERSIONED_TYPES = frozenset({"software", "dataset"})  # the record types whose `version` is the work's (APA 7 cites it)


def work_version(record: Record) -> str:
    """A program's or a dataset's version ('1.2.0': biblatex's `version`, a YAML record's `version:`), for CSL, RIS,
    records.json and JSON-LD; '' for none, and for other types (the arXiv fetcher's `version` is a preprint's
    revision, which no citation of it names)."""
    value = record.extra.get("version")
    if record.type not in VERSIONED_TYPES or not isinstance(value, (str, int)) or isinstance(value, bool):
        return ""
    return str(value).strip()


def _author(name: str) -> str:
    """A name written so that BibTeX splits it back into the parts CSL and RIS give it.

    BibTeX reads 'First von Last' and 'von Last, Jr, First': a suffix at the end ('Jane Doe Jr.')
    would be read as the last name, so such a name is written 'Doe, Jr., Jane'. A name that is one
    unit is braced, else BibTeX makes 'Google' a first name: one written in braces (sitegen.names),
    one that holds ' and ', and a group's name that CSL keeps whole ('ATLAS Collaboration'). A Chinese, Japanese or
    Korean name, family name first, is written 'family, given' ('山田, 太郎'), as BibTeX reads it back, and so is a
    family name written first in capitals ('YAMADA, Taro').
    """
    if is_braced_whole(name):
        return name
    if _AND.search(name):
        return f"{{{name}}}"
    parts, family_first = csl_name_and_order(name)
    if "literal" in parts:
        return f"{{{name}}}" if " " in name.strip() else name
    if "suffix" in parts and "," not in name:
        return f"{parts['family']}, {parts['suffix']}, {parts['given']}"
    if family_first:
        # '山田 太郎', 'YAMADA Taro': BibTeX would read 山田 (YAMADA) as the given name
        return f"{parts['family']}, {parts['given']}"
    written = written_csl_name(name)
    if "given" in written and " " in written.get("family", "") and written["family"] != csl_name(shown_name(name)).get("family"):
        # 'García Márquez, José Luis', 'José Luis {García Márquez}': a family name of several words that BibTeX's rule
        # for a name given name first would cut, written family name first, as Zotero and biber split it at the comma
        return ", ".join(part for part in (written["family"], written.get("suffix", ""), written["given"]) if part)
    return name


def _address(value: str) -> str:
    """An address or an identifier (url, doi, eprint) as written: biblatex and the `url` package read them
    verbatim, so `%`, `&`, `#` and `_` stay bare; only unbalanced braces are made safe."""
    return _value(value, as_text=False, specials=False)


def _value(value: str, as_text: bool = True, specials: bool = True) -> str:
    """Make a field value safe inside braces: specials escaped, braces balanced.

    BibTeX counts every brace, escaped or not, while other readers (biber,
    bibtexparser) skip `\\{`; a value must be balanced for both. `as_text`: the value
    is set as text (a title, a name, a venue), where an underscore is escaped too;
    an identifier or an address (doi, eprint, url) keeps its `_`, as the macros
    that print those fields read them verbatim.
    """
    text = " ".join(value.split())
    if text.isascii() and not _ANY_SPECIAL.search(text):  # most values: nothing below would change them
        return text + " " if text.endswith("\\") else text
    if specials:
        text = escape_bare_specials(text)
    if as_text:
        text = escape_text_underscores(text)
        if not text.isascii() and _ANY_SCRIPT.search(text):  # CO₂ pasted from a web page: pdfLaTeX has no ₂ ("not set up for use")
            text = _UNICODE_SCRIPTS.sub(_latex_scripts, text)
        if "\u02b9" in text or "\u02ba" in text:  # Drinfelʹd: pdfLaTeX has no ʹ either; MathSciNet's `\cprime` is $'$
            text = text.replace("\u02b9", "$'$").replace("\u02ba", "$''$")
    if ("{" in text or "}" in text) and not (_balanced(text, escapes=True) and _balanced(text, escapes=False)):
        text = _ANY_BRACE.sub(lambda m: r"\textbraceleft{}" if m[1] == "{" else r"\textbraceright{}", text)
    return text + " " if text.endswith("\\") else text  # `x\` would escape the closing brace


_ANY_BRACE = re.compile(r"\\?([{}])")
_ANY_SPECIAL = re.compile(r"[%&#_{}]")  # what `_value` escapes or balances in ASCII text
_UNICODE_SCRIPTS = re.compile(f"[{LOWERED_SIGNS}]+|[{RAISED_SIGNS}]+")
# the test before the substitution: one class, which a scan finds at once, where the alternation is tried at each position
_ANY_SCRIPT = re.compile(f"[{LOWERED_SIGNS}{RAISED_SIGNS}]")
_SCRIPT_DIGITS = str.maketrans(LOWERED_SIGNS + RAISED_SIGNS, "0123456789+-=()" * 2)


def _latex_scripts(match: re.Match) -> str:
    """A run of Unicode's lowered or raised digits and signs as LaTeX writes it: `CO₂` CO\\textsubscript{2}."""
    command = "textsubscript" if match[0][0] in LOWERED_SIGNS else "textsuperscript"
    return f"\\{command}{{{match[0].translate(_SCRIPT_DIGITS)}}}"


def _balanced(text: str, escapes: bool) -> bool:
    """`escapes`: a brace right after a backslash does not count."""
    depth = 0
    for brace in (_UNESCAPED_BRACES if escapes else _BRACES).findall(text):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return depth == 0
