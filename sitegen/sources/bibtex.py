"""BibTeX files under `content/records/` read as records at build time (SPEC §6).

Each entry is one record, its citation key the record's id. Files come from
everywhere people keep their lists (Zotero and Better BibTeX, Google Scholar,
DBLP, al-folio sites, hand-kept files with `@string` macros), so the reader takes
what each of them writes: BibLaTeX's `journaltitle`/`date`/`eprinttype` beside
BibTeX's fields, `#` concatenation, month macros, LaTeX accents and protective
braces, `and others`.

bibtexparser 2 splits the file into blocks: it knows the line of every entry and
field (so a problem is `content/records/NAME.bib:LINE:`) and keeps going past a
broken entry, so every problem of a file is reported at once. Its middlewares
resolve only a value that is one whole macro and pass an unknown macro through
as text (bibtexparser issue 396), so field values are evaluated here, as BibTeX
does: `{...}`, `"..."`, numbers and macros joined by `#`, an unknown macro an error.
"""

from __future__ import annotations

import datetime
import difflib
import functools
import logging
import re
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass

import bibtexparser
from bibtexparser.middlewares.names import (
    parse_single_name_into_parts,
    split_multiple_persons_names,
)
from bibtexparser.model import (
    Block,
    DuplicateBlockKeyBlock,
    DuplicateFieldKeyBlock,
    Entry,
    ImplicitComment,
    ParsingFailedBlock,
    Preamble,
    String,
)
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import (
    LatexGroupNode,
    LatexMacroNode,
    LatexMathNode,
    LatexSpecialsNode,
    LatexWalker,
    LatexWalkerError,
)

from sitegen.categories import category_named
from sitegen.errors import SHOWN_VALUE, Location, Problem, quoted
from sitegen.latex import (
    BIBLATEX_TEXT_MACROS,
    FORMAT_TAGS,
    LATEX_CONTEXT,
    PLAIN_DECLARATIONS,
    PLAIN_MACROS,
    UNICODE_MACROS,
    escape_bare_specials,
    latex_spans,
    unicode_macro_text,
)
from sitegen.load import PositionedDict
from sitegen.model import ARXIV_VERSION, BIBTEX_DETAILS, NOT_A_CITE_KEY, PUBLICATION_STATES, USABLE_CITE_KEY, free_key
from sitegen.names import AUTHOR_MARK, comma_name_parts, csl_name, is_braced_whole, is_family_first, mark_signs
from sitegen.record_types import CODE_HOSTS, DATABASE_IDS, DOI_PREFIX, bare_doi, database_link, doi_url, openreview_kind, thesis_venue, type_from_evidence
from sitegen.sources import OWN_LIST, Reader, ReadResult, register_reader
from sitegen.sources.journal_macros import AAS_JOURNALS
from sitegen.values import whole_number

# The splitter logs each broken block; this reader reports them as problems with their lines instead.
_SPLITTER_LOG = logging.getLogger("bibtexparser.splitter")
_SPLITTER_LOG.addHandler(logging.NullHandler())
_SPLITTER_LOG.propagate = False

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december")
# BibTeX's predefined macros: jan ... dec (as the standard styles define them)
MONTH_MACROS = {name[:3]: name.capitalize() for name in MONTHS}
_MONTH_NUMBERS = {name[:3]: number for number, name in enumerate(MONTHS, start=1)}
# German names that English's do not start alike (sitegen's theme speaks German too): 'Juni', 'Mär.', 'Okt'
_GERMAN_MONTHS = {
    "januar": 1,
    "jänner": 1,
    "jän": 1,
    "februar": 2,
    "märz": 3,
    "mär": 3,
    "maerz": 3,
    "mai": 5,
    "juni": 6,
    "juli": 7,
    "oktober": 10,
    "okt": 10,
    "dezember": 12,
    "dez": 12,
}

VENUE_FIELDS = ("journal", "booktitle", "school", "institution", "publisher", "organization")
LINK_FIELDS = ("pdf", "code", "slides", "video", "poster", "data", "supp", "html", "blog", "website", "openreview")  # al-folio's names among them
# BibLaTeX's names for BibTeX's fields (Better BibTeX writes them): read as the BibTeX field when that is absent
BIBLATEX_NAMES = {
    "journaltitle": "journal",
    "location": "address",
    "issue": "number",
    "eprinttype": "archiveprefix",
    "eprintclass": "primaryclass",
}
# Fields kept in the record's `extra` under their own names, beside BIBTEX_DETAILS (for the exports and templates):
# INSPIRE's collaboration ('ATLAS') and report number, biblatex's software version, conference name and its date
# (`eventdate`, ISO 8601 as biblatex writes it: '2023-06-12/2023-06-15'), and biblatex-software's licence (GitHub's
# "Cite this repository" writes it too).
EXTRA_FIELDS = ("collaboration", "reportnumber", "version", "eventtitle", "eventdate", "license")
# Every field the reader reads
READ_FIELDS = frozenset(
    {
        *VENUE_FIELDS,
        *LINK_FIELDS,
        *BIBLATEX_NAMES,
        *BIBTEX_DETAILS,
        *EXTRA_FIELDS,
        *"""title author editor year date month day eprint archiveprefix primaryclass arxiv doi abstract keywords url ee
        crossref xdata biburl selected abbr shortjournal preview award award_name annotation pubstate type pmid pubmedid pubmed_id pmcid pmc ids langid language
        subtitle titleaddon booksubtitle booktitleaddon journalsubtitle translator venue addendum
        repository swhid fjournal fseries adsurl mrnumber mrclass zbl zblnumber zbmath inspirehep_id""".split(),
    }
)
# Fields of other tools' words for one sitegen reads: a record's picture is al-folio's `preview` (a YAML record's
# `image`), its supporting information al-folio's `supp`
FIELDS_MEANT = {"image": "preview", "thumbnail": "preview", "toc": "preview", "supplementary": "supp", "si": "supp", "supplement": "supp"}
# Fields known and not shown, left out without a word: reference managers' and databases' bookkeeping (JabRef, Zotero,
# Mendeley, BibDesk, DBLP, ADS, INSPIRE, Web of Science, Scopus, MathSciNet, HAL), biblatex's fields sitegen has no place
# for, and al-folio's layout fields. Any other field is warned about (a typo such as `jounral` loses the venue).
IGNORED_FIELDS = frozenset(
    """timestamp bibsource file urldate owner groups ranking readstatus priority qualityassured printed
    relevance comment comments annote creationdate modificationdate mendeley-groups mendeley-tags arxivid
    adsnote eid slaccitation copyright shorttitle citeulike-article-id citeulike-linkout-0 citeulike-linkout-1
    posted-at local-url date-added date-modified bdsk-url-1 bdsk-url-2 bdsk-url-3 bdsk-file-1 bdsk-file-2 added-at
    interhash intrahash uri cdrom acmid numpages articleno article-number art_number hal_id hal_version
    mrreviewer lccn oclc unique-id researcherid-numbers orcid-numbers
    web-of-science-categories web-of-science-index times-cited journal-iso da cited-references number-of-cited-references
    usage-count-last-180-days usage-count-since-2013 doc-delivery-number affiliation affiliations funding-acknowledgement
    funding-text research-areas earlyaccessdate oa keywords-plus author-email eissn book-group-author esi-highly-cited-paper
    esi-hot-paper document_type publication_stage correspondence_address1 coden abbrev_source_title author_keywords
    references sponsors tradenames manufacturers chemicals_cas funding_details molecular_seqnumbers source
    origlanguage eventtitleaddon pagetotal
    pagination bookpagination urlyear urlmonth entrysubtype isan ismn isrn iswc library options related relatedtype
    relatedstring relatedoptions shortauthor shorteditor shorthand shorthandintro shortseries sortkey sortname sorttitle
    sortyear sortshorthand presort xref indexsorttitle indextitle label gender execute hyphenation key
    usera userb userc userd usere userf verba verbb verbc namea nameb namec lista listb listc listd liste
    listf editora editorb editorc editortype editoratype editorbtype editorctype entryset
    bibtex_show altmetric dimensions google_scholar_id additional_info""".split()
)
# biblatex's fields that its styles print in the entry and no page of the site shows: each is a warning at its line, so
# that a biblatex user knows what the site leaves out (the fields above are bookkeeping, sorting and labels)
PRINTED_NOT_SHOWN = frozenset(
    """maintitle mainsubtitle maintitleaddon issuetitle issuesubtitle origdate origtitle origlocation origpublisher
    part volumes bookauthor annotator commentator introduction foreword afterword nameaddon reprinttitle""".split()
)
# What an entry takes from the one its `crossref` names (as BibTeX does, and biber for biblatex's fields of the
# container: its `date`, the meeting's `eventtitle`, `eventdate` and `venue`), and the entry types that, named so, are containers,
# not works of their own (DBLP's `@proceedings` of a paper's conference). Not the container's `doi`, `url` or
# `title`: they name the volume, not the paper (its title is the paper's `booktitle`).
INHERITED_FIELDS = (
    "booktitle",
    "booksubtitle",
    "booktitleaddon",
    "publisher",
    "address",
    "series",
    "volume",
    "editor",
    "organization",
    "isbn",
    "eventtitle",
    "eventdate",
    "venue",
    "langid",
)
_DATE_FIELDS = ("year", "date", "month")  # taken together, by an entry with no `date` and no other year
# the parent's title fields that are the child's book title fields, when the parent has none of those (biber's mapping)
_BOOK_TITLE_SOURCES = {"booktitle": "title", "booksubtitle": "subtitle", "booktitleaddon": "titleaddon"}
CROSSREF_TARGETS = frozenset({"proceedings", "mvproceedings", "book", "mvbook", "collection"})
# biblatex's entries that are no works: an `@xdata` entry holds fields other entries take (`xdata = {key}`), a `@set`
# groups entries cited together
DATA_ENTRY_TYPES = frozenset({"xdata", "set"})
_NOT_FROM_XDATA = frozenset({"ids", "xdata", "crossref"})
_ARXIV_ID = r"(\d{4}\.\d{4,5}|[a-z][a-z.\-]*/\d{7})(?:v\d+)?"
ARXIV_IN_TEXT = re.compile(rf"arxiv[:\s]*(?:preprint\s+)?(?:arxiv:\s*)?{_ARXIV_ID}", re.IGNORECASE)
ARXIV_URL = re.compile(rf"^https?://(?:www\.|export\.)?arxiv\.org/(abs|pdf)/{_ARXIV_ID}", re.IGNORECASE)
ARXIV_DOI_ID = re.compile(rf"^10\.48550/arxiv\.{_ARXIV_ID}$", re.IGNORECASE)
_ESCAPED_CHARACTER = re.compile(r"\\([_%&#$])")  # \_, \%: what LaTeX needs escaped in a DOI or URL it prints
_CORR_VOLUME = re.compile(rf"^abs/{_ARXIV_ID}$", re.IGNORECASE)
_DBLP_BIBURL = re.compile(r"^https?://dblp\.(?:org|uni-trier\.de)/rec/(.+?)(?:\.bib)?$")
_URL_IN_TEXT = re.compile(r"^\\url\s*\{((?:[^{}]|\{[^{}]*\})+)\}$")
# LaTeX's escapes in an address, as Mendeley and Zotero write them: `{\&}`, `\_`, `\%`, `\#`, `\~{}`
_URL_ESCAPE = re.compile(r"\{?\\([&_%#$])\}?")
_URL_TILDE = re.compile(r"\{?\\(?:~|textasciitilde)(?:\{\})?\}?")
_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_KEYWORD_SEPARATORS = re.compile(r"[,;]")
_KEYWORD_SYNTAX = re.compile(r"\\.|[{}$,;]", re.DOTALL)  # an escaped character (\, \$ \{) is text
_KEYWORD_GROUPING = re.compile(r"[\\{$]")  # what may hold a comma that separates nothing
_AAS_VENUE = re.compile(r"^\s*\{?\s*\\([a-z]+)\s*(?:\{\})?\s*\}?\s*$")
_STRAY_AND = re.compile(r"^\s*and(?=\s)|(?<=\s)and\s*$|(?<=\s)and(?=\s+and\s)", re.IGNORECASE)
# what separates names in a name list; it starts where a run of spaces does, so that a split of a field of 100,000
# spaces (a pull request's) looks at each once, not from every one of them
_AND = re.compile(r"(?<![ \t\r\n])[ \t\r\n]+and[ \t\r\n]+", re.IGNORECASE)
# biblatex's date: 2024, 2024-05 or 2024-05-03, a time after a T, an uncertain or approximate one (EDTF's ? ~ %)
_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T[\d:.]+(?:Z|[+-][\d:]+)?)?)?)?[?~%]?$")
_YEAR = re.compile(r"^\{*(\d{4})\}*$")
_ENTRY_KEY = re.compile(r"@\s*\w+\s*[{(]\s*([^,\s{}()]+)")


# -- field values: what BibTeX makes of `{...} # "..." # macro # 2024` ----------------------------------


class _BadValue(ValueError):
    """A field value BibTeX could not read; the message says why."""


def evaluate(raw: str, macros: dict[str, str]) -> str:
    """The text of a field value as the splitter gave it (delimiters still on); `macros` by lower-case name."""
    if raw.startswith("{") and raw.endswith("}") and "#" not in raw and (raw.count("{") == 1 or _closing_brace(raw, 0) == len(raw) - 1):
        return raw[1:-1]  # the usual `{text}`, settled with one scan at most
    if raw.isdigit():
        return raw
    pieces: list[str] = []
    position, size = 0, len(raw)
    while True:
        position = _skip_space(raw, position)
        if position >= size:
            raise _BadValue("the value ends with '#'" if pieces else "the value is empty")
        piece, position = _value_piece(raw, position, macros)
        pieces.append(piece)
        position = _skip_space(raw, position)
        if position >= size:
            return "".join(pieces)
        if raw[position] != "#":
            if following := _NEXT_FIELD.match(raw, position):  # `title = {...}` and no comma: the next field runs in
                raise _BadValue(f"a ',' is missing after the value, before '{following['name']} =': end the value with a comma")
            raise _BadValue(f"expected '#' between the parts of the value, found {raw[position : position + 20]!r}")
        position += 1


def _skip_space(raw: str, position: int) -> int:
    while position < len(raw) and raw[position].isspace():
        position += 1
    return position


_NEXT_FIELD = re.compile(r"(?P<name>[A-Za-z][\w:.-]*)\s*=")
_BARE_WORD = re.compile(r"[^\s#{}\",=]+")


def _value_piece(raw: str, position: int, macros: dict[str, str]) -> tuple[str, int]:
    """One part of a value and where the next begins."""
    first = raw[position]
    if first == "{":
        end = _closing_brace(raw, position)
        return raw[position + 1 : end], end + 1
    if first == '"':
        end = _closing_quote(raw, position)
        return raw[position + 1 : end], end + 1
    word = _BARE_WORD.match(raw, position)
    if word is None:
        raise _BadValue(f"unexpected {first!r} in the value")
    name = word.group()
    if name.isdigit():
        return name, word.end()
    if name.lower() not in macros:
        raise _UnknownMacro(name)
    return macros[name.lower()], word.end()


class _UnknownMacro(_BadValue):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


_BRACE = re.compile(r"(?<!\\)[{}]")  # a brace after a backslash is text, as the splitter reads it
_BRACE_OR_QUOTE = re.compile(r'(?<!\\)[{}"]')


def _closing_brace(raw: str, start: int) -> int:
    """The index of the `}` that closes the `{` at `start`."""
    depth = 0
    for brace in _BRACE.finditer(raw, start):
        depth += 1 if brace.group() == "{" else -1
        if depth == 0:
            return brace.start()
    raise _BadValue("unbalanced braces: a '{' is never closed")


def _closing_quote(raw: str, start: int) -> int:
    """The `"` that ends the string begun at `start`: one outside braces, which must balance inside."""
    depth = 0
    for mark in _BRACE_OR_QUOTE.finditer(raw, start + 1):
        char = mark.group()
        if char == '"':
            if depth == 0:
                return mark.start()
        elif char == "{":
            depth += 1
        else:
            depth -= 1
            if depth < 0:
                raise _BadValue("unbalanced braces: a '}' closes nothing")
    raise _BadValue('a quoted value is never closed (")' if depth == 0 else "unbalanced braces: a '{' is never closed")


_COMMENT_SYNTAX = re.compile(r'\\.|[{}"%@\n]', re.DOTALL)


def without_field_comments(text: str) -> str:
    """The file with each `%` comment between an entry's fields blanked out (biber reads them as comments;
    bibtexparser would take `% the journal\\n volume` for a field's name and lose the field). A `%` inside a
    value, or escaped (`\\%`), is text; lines and columns stay where they were, for messages."""
    pieces, position, depth, quoted = [], 0, 0, False
    for match in _COMMENT_SYNTAX.finditer(text):
        character = match[0]
        if character == "@" and depth == 0:
            quoted = False
        elif character == "{":
            depth += 1
        elif character == "}":
            depth = max(0, depth - 1)
        elif character == '"' and depth == 1:
            quoted = not quoted
        elif character == "%" and depth == 1 and not quoted and match.start() >= position:
            end = text.find("\n", match.start())
            end = len(text) if end < 0 else end
            pieces += [text[position : match.start()], " " * (end - match.start())]
            position = end
    return "".join(pieces) + text[position:] if pieces else text


# -- commands of the file's @preamble: `@preamble{"\\newcommand{\\noopsort}[1]{}"}`, then `{\\noopsort{a}}Data` ----------


@dataclass(frozen=True)
class _Definition:
    arguments: int
    body: str  # with #1, #2, ... where the arguments go


# BibTeX's own documentation's idiom (btxdoc): `\\noopsort{a}` sorts an entry and prints nothing. Known without
# its @preamble line too, which is often lost when entries are copied from one file to another.
BUILT_IN_DEFINITIONS = {"noopsort": _Definition(1, "")}
_DEFINING = ("newcommand", "renewcommand", "providecommand")
_DEF = re.compile(r"\\def\s*\\([A-Za-z]+)((?:#[1-9])*)\s*\{")
_ARGUMENT_COUNT = re.compile(r"^\[\s*([1-9])\s*\]$")


def preamble_definitions(preambles: list[str]) -> dict[str, _Definition]:
    """The commands the @preamble blocks define (`\\newcommand`, `\\renewcommand`, `\\providecommand`, `\\def`),
    as the LaTeX document that uses the file would know them; none that sitegen knows itself (a
    `\\providecommand{\\url}[1]{...}` defines nothing a document with hyperref has not defined)."""
    found = dict(BUILT_IN_DEFINITIONS)
    for text in preambles:
        try:
            nodes = LatexWalker(text, latex_context=LATEX_CONTEXT, tolerant_parsing=True).get_latex_nodes()[0] or []
        except (LatexWalkerError, IndexError):
            nodes = []
        for node in nodes:
            if not (isinstance(node, LatexMacroNode) and node.macroname in _DEFINING and node.nodeargd):
                continue
            _, name_node, count_node, default, body = (list(node.nodeargd.argnlist) + [None] * 5)[:5]
            name = _defined_name(name_node)
            count = _ARGUMENT_COUNT.match(count_node.latex_verbatim()) if count_node is not None else None
            if name and isinstance(body, LatexGroupNode) and default is None:  # an optional first argument: not followed
                found[name] = _Definition(int(count.group(1)) if count else 0, body.latex_verbatim()[1:-1])
        for match in _DEF.finditer(text):
            try:
                end = _closing_brace(text, match.end() - 1)
            except _BadValue:
                continue
            found[match.group(1)] = _Definition(len(match.group(2)) // 2, text[match.end() : end])
    return {name: definition for name, definition in found.items() if not _known_macro(name) and name not in AAS_JOURNALS}


def _defined_name(node) -> str | None:
    if isinstance(node, LatexGroupNode) and len(node.nodelist) == 1:
        node = node.nodelist[0]
    return node.macroname if isinstance(node, LatexMacroNode) and node.macroname.isalpha() else None


def uses_of(definitions: dict[str, _Definition]) -> re.Pattern:
    """A pattern that finds a use of one of `definitions` (the longest name first)."""
    return re.compile(r"\\(" + "|".join(map(re.escape, sorted(definitions, key=len, reverse=True))) + r")(?![A-Za-z])")


def expand_definitions(value: str, definitions: dict[str, _Definition], pattern: re.Pattern | None = None) -> str:
    """`value` with each use of a defined command replaced by its body, its arguments put in (`#1`);
    a use whose arguments are not all there is left as written. `pattern`: `uses_of(definitions)`."""
    pattern = pattern or uses_of(definitions)
    written, most = value, 10 * len(value) + 10_000  # a definition that uses itself twice grows the text each time
    for _ in range(8):  # a body may use another definition; a definition that uses itself stops here
        pieces, position = [], 0
        for use in pattern.finditer(value):
            if use.start() < position:
                continue
            definition = definitions[use.group(1)]
            arguments, end = _arguments(value, use.end(), definition.arguments)
            if arguments is None:
                continue
            body = definition.body
            for number, argument in enumerate(arguments, start=1):
                body = body.replace(f"#{number}", argument)
            pieces += [value[position : use.start()], body]
            position = end
        if not pieces:
            return value
        value = "".join(pieces) + value[position:]
        if len(value) > most:
            return written
    return value


def _arguments(value: str, position: int, count: int) -> tuple[list[str] | None, int]:
    """`count` arguments from `position` on (each a braced group, or one character), and where they end."""
    arguments = []
    for _ in range(count):
        position = _skip_space(value, position)
        if position >= len(value) or value[position] == "}":
            return None, position
        if value[position] == "{":
            try:
                end = _closing_brace(value, position)
            except _BadValue:
                return None, position
            arguments.append(value[position + 1 : end])
            position = end + 1
        else:
            arguments.append(value[position])
            position += 1
    if count == 0 and position < len(value) and value[position] == " ":
        position += 1  # a command without arguments takes the space after it, as TeX does
    return arguments, position


_NAMES_A_MONTH = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", re.IGNORECASE)
# BibTeX's and biblatex's entry types (biblatex manual §2.1), and aliases they read
KNOWN_ENTRY_TYPES = frozenset(
    """article book mvbook inbook bookinbook suppbook booklet collection mvcollection incollection suppcollection dataset
    manual misc online patent periodical suppperiodical proceedings mvproceedings inproceedings reference mvreference
    inreference report set software thesis unpublished xdata conference electronic mastersthesis phdthesis techreport www
    artwork audio bibnote commentary image jurisdiction legislation legal letter movie music performance review standard
    video codefragment data""".split()
)

# -- text: LaTeX accents to Unicode, protective braces off, math left for the pipeline --------------

_TEXT = LatexNodes2Text(math_mode="verbatim")
_DECLARATIONS = {"em", "it", "itshape", "sl", "bf", "bfseries", "tt", *PLAIN_DECLARATIONS}  # `{\em x}`: shown by the pipeline
# Macros kept with their argument for the pipeline to show (`\textsuperscript{th}`), and in the record's
# LaTeX for the exports: formatting, and small capitals, which the pipeline shows as the letters written.
_KEPT_MACROS = {*FORMAT_TAGS, "textsc"}
_KEPT_ESCAPES = {"$", "{", "}", "textbackslash"}  # `\$` stays `\$`: a bare `$` would start math
_SPECIAL_TEXT = {"~": " ", "--": "\u2013", "---": "\u2014", "``": "\u201c", "''": "\u201d"}
_PLAIN_SPECIALS = re.compile(r"---|--|~|``|''")
_PAR = re.compile(r"\\par\b\s*")


def bibtex_text(value: str) -> str:
    """A BibTeX value as record text (SPEC §2: Unicode, inline LaTeX math kept as `$...$`).

    `{DNA}` shows as DNA and `M{\\"u}ller` as Müller; `$...$` and text macros such as
    `\\emph{}` stay for the pipeline to render; a macro nothing knows stays as it is,
    so that the pipeline shows it and reports it rather than losing it.
    """
    if "\\" not in value and "$" not in value:
        return _collapse(_plain_run(value))
    return _latex_text(value)


def abstract_text(value: str) -> str:
    """An abstract, which a .bib file writes as LaTeX text, as SPEC §2 has a record's: Markdown with inline LaTeX,
    which the pipeline converts where it shows the abstract, as it does a YAML record's.

    Each paragraph (after a blank line, as Zotero writes them, or `\\par`) is made record text as a title is
    (accents, ties, dashes; math and text macros kept), on one line; then what Markdown would read as its own
    syntax is written so that it shows as written, as LaTeX shows it: `# of samples` starts no heading,
    `5 * 3 * 2` and `*gene*` keep their stars, `1. first` starts no list. The record's text says the same in
    LaTeX (`\\#`, `{*}`), so that it stays the abstract as written wherever it is carried to.
    """
    if "\\par" in value:
        value = _PAR.sub("\n\n", value)
    paragraphs = (markdown_safe(bibtex_text(paragraph)) for paragraph in _PARAGRAPH_BREAK.split(value))
    return "\n\n".join(paragraph for paragraph in paragraphs if paragraph)


_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r]*\n\s*")
# characters of Markdown's syntax anywhere in a line, and LaTeX text that means the character
_MARKDOWN_INLINE = re.compile(r"[*_#`\[<]")
_AS_TEXT = {"*": "{*}", "_": "\\_", "#": "\\#", "`": "\u2018", "[": "{[}", "<": "{<}"}  # LaTeX's ` is an opening quote
# what starts a Markdown block at the start of a paragraph: a quote, a list item, a setext underline, a table
_MARKDOWN_BLOCK_START = re.compile(r"^(?:[>+=|:-]|\d+(?=[.)]))")


def markdown_safe(text: str) -> str:
    """Record text (one paragraph) with Markdown's syntax characters written as LaTeX writes the character,
    outside math and macros, which the pipeline reads as LaTeX."""
    if not text:
        return text
    parts, position = [], 0
    for span in latex_spans(text) if ("\\" in text or "$" in text or "{" in text) else ():
        parts += [_MARKDOWN_INLINE.sub(_as_text, text[position : span.start()]), span.group()]
        position = span.end()
    parts.append(_MARKDOWN_INLINE.sub(_as_text, text[position:]))
    safe = "".join(parts)
    return _MARKDOWN_BLOCK_START.sub(lambda start: "{" + start.group() + "}", safe)


def _as_text(match: re.Match) -> str:
    return _AS_TEXT[match.group()]


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _latex_text(value: str) -> str:
    """The slow path of `bibtex_text`, for text with macros or math: only the LaTeX in it is parsed
    (`latex_spans`, as the pipeline finds it), each piece once (accents and names recur)."""
    text = escape_bare_specials(value)  # a bare % would start a LaTeX comment
    parts, position = [], 0
    for match in latex_spans(text):
        parts.append(_plain_run(text[position : match.start()]))
        parts.append(_span_text(match.group()))
        position = match.end()
    parts.append(_plain_run(text[position:]))
    return _collapse("".join(parts))


def _plain_run(text: str) -> str:
    """Text between LaTeX pieces, or a group with none inside ('{DNA}'): braces off, ties and dashes as characters."""
    return _PLAIN_SPECIALS.sub(_special_text, text.replace("{", "").replace("}", ""))


def _special_text(match: re.Match) -> str:
    return _SPECIAL_TEXT[match.group()]


@functools.lru_cache(maxsize=65536)
def _span_text(span: str) -> str:
    if span in _SPECIAL_TEXT:  # TeX's dashes, ties and quotes in prose, as between pieces
        return _SPECIAL_TEXT[span]
    if span.startswith("$") or (span.startswith("\\begin{") and "\\end{" in span):
        return span  # math, a display environment among them: the pipeline makes MathML of it
    if span.startswith("{") and "\\" not in span and "$" not in span:
        return _plain_run(span)
    try:
        nodes, _, _ = LatexWalker(span, latex_context=LATEX_CONTEXT, tolerant_parsing=True).get_latex_nodes()
    except LatexWalkerError:
        return span
    return _nodes_text(nodes or [])


def _nodes_text(nodes) -> str:
    parts = []
    unknown_before = False  # the groups right after a macro nothing knows are its arguments: kept as written
    for node in nodes:
        if isinstance(node, LatexGroupNode) and unknown_before:
            parts.append(node.latex_verbatim())
            continue
        unknown_before = isinstance(node, LatexMacroNode) and not _known_macro(node.macroname)
        parts.append(_node_text(node))
    return "".join(parts)


def _known_macro(name: str) -> bool:
    return name in FORMAT_TAGS or name in PLAIN_MACROS or name in UNICODE_MACROS or name in AAS_JOURNALS or name in BIBLATEX_TEXT_MACROS


def _node_text(node) -> str:
    if isinstance(node, LatexMathNode):
        return node.latex_verbatim()
    if isinstance(node, LatexGroupNode):
        first = next((child for child in node.nodelist if not (hasattr(child, "chars") and not child.chars.strip())), None)
        if isinstance(first, LatexMacroNode) and first.macroname in _DECLARATIONS:
            return node.latex_verbatim()
        return _nodes_text(node.nodelist)
    if isinstance(node, LatexSpecialsNode):
        return _SPECIAL_TEXT.get(node.specials_chars) or _TEXT.nodelist_to_text([node])
    if isinstance(node, LatexMacroNode):
        return _macro_text(node)
    return getattr(node, "chars", "")  # characters; a comment cannot occur once % is escaped


# biblatex's and csquotes' text macros (latex.BIBLATEX_TEXT_MACROS) as what BibTeX and the pipeline read: the formatting
# macros as LaTeX's own, quotes and brackets as the characters biblatex prints around the text (English quotes)
_BIBLATEX_FORMATS = {
    "mkbibemph": "emph",
    "mkbibitalic": "textit",
    "mkbibbold": "textbf",
    "mkbibsuperscript": "textsuperscript",
    "mkbibsubscript": "textsubscript",
}
_BIBLATEX_ENCLOSURES = {"mkbibquote": ("“", "”"), "enquote": ("“", "”"), "textquote": ("“", "”"), "mkbibparens": ("(", ")"), "mkbibbrackets": ("[", "]")}
_INNER_QUOTES = ("‘", "’")  # `\enquote*{}`: single quotes


def _macro_text(node: LatexMacroNode) -> str:
    name = node.macroname
    arguments = [argument for argument in (node.nodeargd.argnlist if node.nodeargd else []) if argument is not None]
    if name in _BIBLATEX_FORMATS and arguments:
        return f"\\{_BIBLATEX_FORMATS[name]}{{{_argument_text(arguments[-1])}}}"
    if name in _BIBLATEX_ENCLOSURES and arguments:
        starred = any(getattr(argument, "specials_chars", None) == "*" or getattr(argument, "chars", None) == "*" for argument in arguments[:-1])
        opening, closing = _INNER_QUOTES if starred else _BIBLATEX_ENCLOSURES[name]
        return f"{opening}{_argument_text(arguments[-1])}{closing}"
    if name in _KEPT_MACROS:
        return f"\\{name}{{{''.join(_argument_text(a) for a in arguments)}}}"
    if name in PLAIN_MACROS:
        return "".join(_argument_text(a) for a in arguments)
    if name in _KEPT_ESCAPES:
        return "\\textbackslash{}" if name == "textbackslash" else node.latex_verbatim()
    if name in UNICODE_MACROS:
        return unicode_macro_text(node)
    if name in AAS_JOURNALS:
        return AAS_JOURNALS[name][0]  # `\\apj` prints ApJ (aas_macros.sty)
    return node.latex_verbatim()


def _argument_text(argument) -> str:
    return _nodes_text(argument.nodelist) if isinstance(argument, LatexGroupNode) else _nodes_text([argument])


@functools.lru_cache(maxsize=65536)
def person_name(name: str) -> str:
    """One name of an `author` list, first name first: 'Lin, Sheng' -> 'Sheng Lin'.

    A name in braces is one unit, an organisation's: '{Google DeepMind}' and '{{PKU-DAIR Hetu Team}}'
    keep one pair of braces, which say so to the exports (sitegen.names); pages show the name without them.
    biber's extended name format ('family=Dupont, given=Anne, prefix=de') is read as the name it spells.
    """
    if "=" in name and (classic := classic_name(name)) is not None:
        name = classic
    if is_braced_whole(name):
        return "{" + bibtex_text(name.strip()[1:-1]) + "}"
    if "," in name and is_family_first(name) and (parts := comma_name_parts(bibtex_text(name))):
        return " ".join(part for part in parts if part)  # '山田, 太郎' is shown family name first: '山田 太郎'
    if "," in name:
        split = parse_single_name_into_parts(name, strict=False)
        turned = bibtex_text(split.merge_first_name_first)
        family = bibtex_text(" ".join(split.von + split.last))
        if split.first and csl_name(turned).get("family") != family:
            # 'García Márquez, José Luis' turned round would be read family 'Márquez' (BibTeX's rule: the last word):
            # braced, the family name stays one, as BibTeX, biber and the exports read 'José Luis {García Márquez}'
            return " ".join(part for part in (bibtex_text(" ".join(split.first)), f"{{{family}}}", bibtex_text(" ".join(split.jr))) if part)
        return turned
    return bibtex_text(name)


_EXTENDED_NAME_PIECE = re.compile(r"^\s*([A-Za-z][\w-]*)\s*=(.*)$", re.DOTALL)  # its value stripped after: `(.*?)\s*$` is quadratic
_BRACED_OR_QUOTED = re.compile(r'^\{(.*)\}$|^"(.*)"$', re.DOTALL)


def classic_name(name: str) -> str | None:
    """A name in biber's extended name format, `family=Dupont, given=Anne, prefix=de, useprefix=true` (biblatex
    manual §3.4), in BibTeX's form, `de {Dupont}, Anne`: its family name kept whole in braces (every reader of
    BibTeX and the exports take it so), the prefix before it, the suffix between; options such as `useprefix` and
    initials (`given-i`) change how biblatex sorts and abbreviates it, not the name. None for a name of another form."""
    parts: dict[str, str] = {}
    for piece in top_level_pieces(name, ","):
        match = _EXTENDED_NAME_PIECE.match(piece)
        if match is None:
            return None
        value = match.group(2).strip()
        if braced := _BRACED_OR_QUOTED.match(value):
            value = braced.group(1) if braced.group(1) is not None else braced.group(2)
        parts[match.group(1).lower()] = value.strip()
    family, given = parts.get("family", ""), parts.get("given", "")
    if not (family or given):
        return None
    last = " ".join(part for part in (parts.get("prefix", ""), f"{{{family}}}" if family else "") if part)
    return ", ".join(part for part in (last, parts.get("suffix", ""), given) if part) if last else given


def person_names(value: str) -> tuple[list[str], bool]:
    """The names of a name list, and whether it ended in `and others` (more authors than it names; ADS writes `and et al.`).
    An `and` with no name on one side (`Lin, Sheng and`, `A and and B`), left by an edit, separates nothing."""
    value = _STRAY_AND.sub(" ", value)
    if "{" in value or "\\" in value:  # braces and escapes may hide an ' and ': bibtexparser's own splitting
        names = _names_whole(value, split_multiple_persons_names(value))
    else:  # the same split, at C speed
        names = [name for name in _AND.split(value.strip(" \r\n\t")) if name]
    more = bool(names) and names[-1].strip().lower() in _OTHERS
    return [person_name(n) for n in (names[:-1] if more else names)], more


def _names_whole(value: str, names: list[str]) -> list[str]:
    """The names bibtexparser split `value` into, each from the `and` before it: bibtexparser 2.1 starts a name after
    an escape that opens it (`and \\"{O}zel` gives '{O}zel', `and \\L uczak` 'uczak'), as MathSciNet writes accented
    initials; the text between one name and the next is `and` and what the splitter skipped."""
    value = value.strip(" \r\n\t")
    whole: list[str] = []
    position = 0
    for name in names:
        start = value.find(name, position)
        if start < 0:  # not as the splitter returned it: keep its name
            return names
        skipped = _AND_BEFORE_NAME.sub("", value[position:start], count=1) if whole else value[position:start]
        whole.append(skipped + name if skipped and not skipped.isspace() else name)
        position = start + len(name)
    return whole


# the last "name" of a list that names only the first authors: BibTeX's `and others`, and NASA ADS's `and et al.`
_OTHERS = frozenset({"others", "et al.", "et al", "et~al.", "{et al.}"})
_AND_BEFORE_NAME = re.compile(r"^[ \t\r\n]+and[ \t\r\n]+", re.IGNORECASE)


# -- one entry -> one record mapping ----------------------------------------------------------------------


@dataclass
class _Fields:
    """An entry's field values (evaluated, keys lower-case) and the line of each."""

    values: dict[str, str]
    lines: dict[str, int]
    entry_line: int

    def inherit(self, parent: _Fields) -> None:
        """Take what this entry lacks of INHERITED_FIELDS from `parent` (its `crossref`); the parent's title (subtitle,
        title addon) is this entry's booktitle when the parent has none; its date when this entry has no date at all."""
        book_title_from_title = "booktitle" not in parent.values
        for name in INHERITED_FIELDS:
            source = _BOOK_TITLE_SOURCES[name] if book_title_from_title and name in _BOOK_TITLE_SOURCES else name
            self.take(name, parent, source)
        if "date" not in self.values and self.values.get("year", parent.year()) == parent.year():
            for name in _DATE_FIELDS:  # the meeting's date: the paper's when the paper gives no other
                self.take(name, parent, name)

    def year(self) -> str | None:
        """The year of `year`, else of `date`, as written (for comparing an entry's with its parent's)."""
        if "year" in self.values:
            return self.values["year"]
        start = date_start(self.values["date"]) if "date" in self.values else None
        return str(start[0]) if start else None

    def take_all(self, data: _Fields) -> None:
        """Take every field this entry lacks from an `@xdata` entry, as biber does (`xdata = {key}`)."""
        for name in data.values:
            if name not in _NOT_FROM_XDATA:
                self.take(name, data, name)

    def take(self, name: str, parent: _Fields, source: str) -> None:
        if name not in self.values and source in parent.values:
            self.values[name], self.lines[name] = parent.values[source], parent.lines[source]

    def get(self, *names: str) -> tuple[str, int] | None:
        """The first of `names` that the entry has (values are stripped, empty ones left out), with its line."""
        values = self.values
        for name in names:
            if name in values:
                return values[name], self.lines[name]
        return None

    def given(self, name: str) -> tuple[str, int]:
        """A field the entry is known to have (the caller checked): its value and line."""
        return self.values[name], self.lines[name]


class RecordMapping:
    """A record mapping being filled in, each field with the line it came from (a BibTeX field's, a RIS tag's)."""

    def __init__(self, line: int):
        self.data = PositionedDict()
        self.data.line = line
        self.data.key_lines = {}

    def put(self, name: str, value, line: int) -> None:
        if value is None or value == "" or value == [] or value == {}:
            return
        self.data[name] = value
        self.data.key_lines[name] = line


_Warn = Callable[[int, str], None]  # a warning about an entry: its line and what to say


def entry_record(entry_type: str, key: str, fields: _Fields, warn: _Warn) -> PositionedDict:
    """The record mapping of one entry that has a title (SPEC §2 fields, BibTeX details as extras)."""
    record = RecordMapping(fields.entry_line)
    record.put("id", key, fields.entry_line)
    entry_type = _google_scholar_patent(entry_type, fields)
    title, title_line = fields.given("title")  # an entry without a title gives no record
    # Zotero writes a web page's site ("Website Title", a blog's) as an @online entry's titleaddon: its venue
    site_name = entry_type in WEB_ENTRY_TYPES and not any(name in fields.values for name in (*VENUE_FIELDS, "howpublished"))
    record.put("title", _whole_title(fields, "title", "subtitle", "" if site_name else "titleaddon"), title_line)
    if site_name and (addon := fields.get("titleaddon")) is not None:
        record.put("source", bibtex_text(addon[0]), addon[1])
    _put_authors(record, fields)
    _put_dates(record, fields)
    arxiv = _arxiv_id(fields)
    doi = _doi(fields)
    source, venue_field = _put_source(record, fields, arxiv)
    if venue_field and ("..." in source or "…" in source):  # Google Scholar's `booktitle={Proceedings of the ... Conference}`
        warn(fields.lines[venue_field], f"field '{venue_field}': {source!r} has words left out ('...'): write the venue's whole name")
    if arxiv:
        record.put("arxiv", arxiv[0], arxiv[1])
    if doi:
        record.put("doi", doi[0], doi[1])
    if (found := fields.get("abstract")) is not None:
        record.put("abstract", abstract_text(found[0]), found[1])
    _put_categories(record, fields)
    links = _links(fields, warn)
    record.put("links", without_identifier_addresses(links, arxiv and arxiv[0], doi and doi[0]), fields.entry_line)
    _put_ids(record, key, fields, warn)
    _put_aliases(record, key, fields, warn)
    if (selected := fields.get("selected")) is not None:
        if selected[0].lower() in ("true", "yes", "1"):
            record.put("featured", True, selected[1])  # al-folio's `selected = {true}`; `{false}` decides too
    elif (keyword := _featuring_keyword(fields)) is not None:
        record.put("featured", True, keyword)  # a biblatex CV's `keywords = {selected}`, its "Selected publications"
    if (short := fields.get("abbr", "shortjournal")) is not None:  # al-folio's badge; BibLaTeX's short journal title
        record.put("venue_short", bibtex_text(short[0]), short[1])
    elif venue_field == "booktitle" and (short_venue := _conference_acronym(key, fields, source)):
        record.put("venue_short", *short_venue)
    if (preview := fields.get("preview")) is not None:  # al-folio's picture (a file of its assets/img/publication_preview/)
        record.put("image", _bare_url(preview[0]), preview[1])
    if (award := fields.get("award_name", "award")) is not None:  # al-folio's badge text, else its award's description
        record.put("award", bibtex_text(award[0]), award[1])
    if (annotation := fields.get("annotation")) is not None and (notes := marks_explained(annotation[0])):
        record.put("author_notes", notes, annotation[1])  # al-folio's note beside the authors: '* Equal contribution'
    _put_name_annotations(record, fields, warn)
    if (state := fields.get("pubstate")) is not None and (text := bibtex_text(state[0]).strip()):  # biblatex's: forthcoming
        record.put("status", PUBLICATION_STATES.get(text, text), state[1])
    elif (note := fields.get("note")) is not None and _STATE_NOTE.match(text := bibtex_text(note[0]).strip().strip("()")):
        record.put("status", text, note[1])  # BibTeX's way of saying it: `note = {To appear}`, `{Under review}`
        del fields.values["note"], fields.lines["note"]
    if (language := fields.get("langid", "language")) is not None:  # biblatex's babel name (ngerman), else a name or a tag
        record.put("language", bibtex_text(language[0]), language[1])
    words = "\n".join(fields.values.get(name, "") for name in ("note", "howpublished", "type"))
    # a meeting's name says where a paper was given, not that it was published in proceedings: it types nothing
    typed_by = "" if venue_field == "eventtitle" else source
    title = str(record.data.get("title") or "")
    record.put("type", type_from_evidence(entry_type, typed_by, arxiv and arxiv[0], doi and doi[0], links, words, title), fields.entry_line)
    record.put("bibtex_type", entry_type, fields.entry_line)
    _put_thesis_degree(record, fields, source)
    _put_report_type(record, fields)
    _put_skipbib(record, fields)
    _add_addendum(fields)
    _put_details(record, fields, venue_field)
    return record.data


def _add_addendum(fields: _Fields) -> None:
    """biblatex's `addendum`, which it prints at the end of the entry ('Extended version of ...'), after the `note`
    as biblatex prints them (a full stop between): the record's note, which the record page and the exports show."""
    addendum = fields.get("addendum")
    if addendum is None:
        return
    note = fields.get("note")
    if note is None:
        fields.values["note"], fields.lines["note"] = addendum
        return
    separator = " " if _ENDS_A_SENTENCE.search(note[0].strip()) else ". "
    fields.values["note"] = f"{note[0].strip()}{separator}{addendum[0]}"


# a `note` that says only where a paper stands, as BibTeX (which has no `pubstate`) users write it: 'To appear in
# OSDI '26', 'Under review', 'Accepted at ICML 2026', 'Submitted', 'In press'
_STATE_NOTE = re.compile(
    r"^(?:to appear|accepted|conditionally accepted|under (?:review|submission|revision)|in submission|submitted|in press|"
    r"forthcoming|in preparation|revise and resubmit|major revision|minor revision)\b[^.;]{0,100}\.?$",
    re.IGNORECASE,
)
# al-folio's `annotation` as papers' footnotes write it: '* Equal contribution; † Corresponding author' (one a line,
# or apart by ';', '<br>', '\\\\' or a comma before the next mark)
_NOTE_WITH_MARKS = re.compile(rf"^((?:{AUTHOR_MARK}\s*)+)\s*[:=-]?\s*(\S.*)$", re.DOTALL)
_NOTES_APART = re.compile(rf"(?<!\s)\s*(?:;|<br\s*/?>|\\\\|\n|,(?=\s*{AUTHOR_MARK}))\s*")  # from where spaces start (see _AND)


def marks_explained(annotation: str) -> dict[str, str]:
    """What each mark after the authors' names means, from al-folio's `annotation = {* Equal contribution}` (a YAML
    record's `author_notes`); {} when the text is not such a key (any other note of al-folio's, left out)."""
    notes: dict[str, str] = {}
    for part in _NOTES_APART.split(annotation.strip()):
        match = _NOTE_WITH_MARKS.match(part)
        if match is None:
            return {}
        notes[mark_signs(match.group(1))] = bibtex_text(match.group(2)).strip()
    return notes


# biblatex's data annotations (manual §3.7): `author+an = {1=highlight; 2=equal}`, `author+an:role = {...}`, `title+an = {=x}`
ANNOTATION_FIELD = re.compile(r"^([a-z]+)\+an(?::[\w-]+)?$")
_ANNOTATED_ITEM = re.compile(r"^\s*(\d{0,9})\s*(?::\s*[\w-]+)?\s*=(.*)$", re.DOTALL)  # its annotations stripped after (see _EXTENDED_NAME_PIECE)
# the annotations CV styles give authors, as the marks papers print: equal contribution, the corresponding author
_ANNOTATION_MARKS = {
    "equal": "*",
    "equalcontrib": "*",
    "equalcontribution": "*",
    "equal-contribution": "*",
    "cofirst": "*",
    "co-first": "*",
    "corresponding": "†",
    "correspondingauthor": "†",
    "corresponding-author": "†",
}
MARK_NOTES = {"*": "Equal contribution", "†": "Corresponding author"}
# the annotations that say "this is me" (to print the CV owner's name in bold): the site highlights its owner by the
# profile's name and name_variants, so they need nothing more
OWNER_ANNOTATIONS = frozenset({"highlight", "me", "self", "own", "myname", "bold"})


def _put_name_annotations(record: RecordMapping, fields: _Fields, warn: _Warn) -> None:
    """biblatex's `author+an = {1=highlight; 2=equal}`, which a CV style prints as marks after the names: `equal` (and
    `corresponding`) a mark after that author's name (as 'Chen Li*' in a YAML record) and what it means in
    `author_notes`; `highlight` says which name is the owner's (`highlighted_authors`: the build says when the
    profile's names do not match it). Any other annotation, and annotations of
    other fields, are no part of the site: a warning at its line says so."""
    authors = list(record.data.get("authors") or [])
    notes = dict(record.data.get("author_notes") or {})
    highlighted: list[str] = []
    annotated_at = 0  # the line of the last `author+an` read: where the marks it gave come from
    for name, line in fields.lines.items():
        if (match := ANNOTATION_FIELD.match(name)) is None or name not in fields.values:
            continue
        if match.group(1) != "author":
            warn(line, f"field '{name}': annotations of '{match.group(1)}' are not shown (only 'equal' and 'corresponding' of 'author' are)")
            continue
        annotated_at = line
        for item in fields.values[name].split(";"):
            if not item.strip():
                continue
            found = _ANNOTATED_ITEM.match(item)
            position = int(found.group(1)) if found and found.group(1) else 0
            if found is not None and not found.group(1):  # `=annotation`: of the whole list, which no page marks
                if found.group(2).strip().casefold() not in OWNER_ANNOTATIONS:
                    warn(
                        line,
                        f"field '{name}': {quoted(item.strip(), SHOWN_VALUE)} annotates the whole list, which no page shows (write '2=equal' for the second author)",
                    )
                continue
            if found is None or not 1 <= position <= len(authors):
                warn(line, f"field '{name}': {quoted(item.strip(), SHOWN_VALUE)} names no author (write '2=equal' for the second)")
                continue
            for annotation in (word.strip() for word in found.group(2).split(",")):
                mark = _ANNOTATION_MARKS.get(annotation.casefold())
                if mark is not None:
                    authors[position - 1] = authors[position - 1] if authors[position - 1].endswith(mark) else authors[position - 1] + mark
                    notes.setdefault(mark, MARK_NOTES[mark])
                elif annotation.casefold() in OWNER_ANNOTATIONS:
                    highlighted.append(authors[position - 1].rstrip("*†"))
                else:
                    warn(
                        line,
                        f"field '{name}': annotation {quoted(annotation, SHOWN_VALUE)} of author {position} is not shown (sitegen shows 'equal' and 'corresponding')",
                    )
    if not annotated_at:
        return
    record.put("authors", authors, record.data.key_lines.get("authors", annotated_at))
    if notes:
        record.put("author_notes", notes, annotated_at)
    if highlighted:
        record.put("highlighted_authors", highlighted, annotated_at)  # checked against the profile's names (enrich)


_SCHOLAR_PATENT_NUMBER = re.compile(r"[A-Z]{2} Patent\b")  # 'US Patent 11,481,234', 'US Patent App. 18/123,456'


def _google_scholar_patent(entry_type: str, fields: _Fields) -> str:
    """Google Scholar writes a patent `@misc{publisher={Google Patents}, note={US Patent 11,481,234}}` (before, an
    `@article` whose `journal` is the number): Google Patents is the search engine Scholar found it with, not its
    publisher, and the note is the patent's number.
    The entry is read as the `@patent` it is, with that `number`; its type (from `entry_type`) is returned."""
    if entry_type == "article" and _SCHOLAR_PATENT_NUMBER.match(journal := fields.values.get("journal", "").strip()):
        # Scholar's older form: `@article{journal = {US Patent 9,044,543}}`, or `{US Patent}` with the `volume` its number
        volume = fields.values.get("volume", "").strip()
        written = journal if re.search(r"\d", journal) or not volume else f"{journal} {volume}"
        if "number" not in fields.values:
            fields.values["number"], fields.lines["number"] = written, fields.lines["journal"]
        for name in ("journal", "volume") if written != journal else ("journal",):
            del fields.values[name], fields.lines[name]
        entry_type = "patent"
    publisher = fields.values.get("publisher", "")
    if entry_type not in ("misc", "patent") or bibtex_text(publisher).strip().casefold() != "google patents":
        return entry_type
    del fields.values["publisher"], fields.lines["publisher"]
    note = fields.get("note")
    if note is not None and "number" not in fields.values and _SCHOLAR_PATENT_NUMBER.match(note[0].strip()):
        fields.values["number"], fields.lines["number"] = note[0].strip(), note[1]
        del fields.values["note"], fields.lines["note"]
    return "patent"


def _put_aliases(record: RecordMapping, key: str, fields: _Fields, warn: _Warn) -> None:
    """biblatex's `ids = {old, older}`: the entry's other citation keys (Better BibTeX keeps a key changed so, and
    sitegen's publications.bib the keys of the entries merged into one), the record's `aliases`. One BibTeX
    could not read back as a key is left out with a warning; the entry's own key and repeats go without a word."""
    found = fields.get("ids")
    if found is None:
        return
    aliases: list[str] = []
    seen = {key.casefold()}
    for alias in (part.strip() for part in found[0].split(",")):
        if not alias or alias.casefold() in seen:
            continue
        if not USABLE_CITE_KEY.match(alias):
            warn(found[1], f"field 'ids': {alias!r} {NOT_A_CITE_KEY}")
            continue
        seen.add(alias.casefold())
        aliases.append(alias)
    record.put("aliases", aliases, found[1])


BIBLATEX_THESIS_KEYS = {"phdthesis": "PhD thesis", "mathesis": "Master's thesis"}  # what biblatex prints for them


def _put_thesis_degree(record: RecordMapping, fields: _Fields, source: str) -> None:
    """A thesis's `type = {Bachelor's thesis}` (how BibTeX, which has no entry for it, says a bachelor's thesis:
    sitegen's own publications.bib writes it so) before its school, as a YAML record's venue names the degree:
    'Bachelor's thesis, University of X'. Else the degree would be its entry's (`@mastersthesis`)."""
    kind = fields.get("type")
    if record.data.get("type") != "thesis" or kind is None or thesis_venue(source)[0]:
        return
    degree = bibtex_text(kind[0]).strip()
    degree = BIBLATEX_THESIS_KEYS.get(degree.lower(), degree)  # biblatex's keys: `type = {phdthesis}`, as Zotero writes it
    if thesis_venue(degree)[0]:
        record.put("source", f"{degree}, {source}" if source else degree, kind[1])


# biblatex's keys for a report's and a patent's `type`, which it prints in the document's language (english.lbx)
_BIBLATEX_REPORT_TYPES = {"techreport": "Technical report", "resreport": "Research report"}
_BIBLATEX_PATENT_TYPES = {
    "patent": "Patent",
    "patentde": "German patent",
    "patenteu": "European patent",
    "patentfr": "French patent",
    "patentuk": "British patent",
    "patentus": "U.S. patent",
    "patreq": "Patent request",
    "patreqde": "German patent request",
    "patreqeu": "European patent request",
    "patreqfr": "French patent request",
    "patrequk": "British patent request",
    "patrequs": "U.S. patent request",
}
_KINDS_OF_TYPE = {"report": _BIBLATEX_REPORT_TYPES, "patent": _BIBLATEX_PATENT_TYPES}


def _put_report_type(record: RecordMapping, fields: _Fields) -> None:
    """A report's `type = {NBER Working Paper}` (how RePEc/IDEAS, NBER, SSRN and Zotero name a working paper's
    series, which BibTeX prints before the `number` in place of "Technical Report"), or a patent's `type =
    {patenteu}` (biblatex's "European patent" before the number): its `report_type`."""
    kind = fields.get("type")
    keys = _KINDS_OF_TYPE.get(str(record.data.get("type")))
    if keys is not None and kind is not None and (text := bibtex_text(kind[0]).strip()):
        record.put("report_type", keys.get(text.lower(), text), kind[1])


# biblatex's per-entry options that leave the entry out of the bibliography (`dataonly` implies `skipbib`)
_SKIPPING_OPTIONS = frozenset({"skipbib", "dataonly"})


def _put_skipbib(record: RecordMapping, fields: _Fields) -> None:
    """`options = {skipbib}` (or `skipbib=true`, `dataonly`): biblatex keeps the entry for citing and prints it in no
    bibliography; the site, whose lists are its bibliography, keeps it `hidden`, as a YAML record says so."""
    options = fields.get("options")
    if options is None:
        return
    for option in bibtex_text(options[0]).split(","):
        name, _, value = option.partition("=")
        if name.strip().lower() in _SKIPPING_OPTIONS and value.strip().lower() in ("", "true"):
            record.put("hidden", True, options[1])
            return


def _put_authors(record: RecordMapping, fields: _Fields) -> None:
    found = fields.get("author")
    if found is None:
        return
    names, more = person_names(found[0])
    record.put("authors", names, found[1])
    if more:
        record.put("et_al", True, found[1])  # `and others`: the list names only the first authors


def _put_dates(record: RecordMapping, fields: _Fields) -> None:
    """`year` (or the year of biblatex's `date`), `date` when the day is known, the month (`month`, or the date's)."""
    year = fields.get("year")
    date = fields.get("date")
    start = date_start(date[0]) if date else None
    if date and start and start[2]:
        record.put("date", f"{start[0]}-{start[1]:02d}-{start[2]:02d}", date[1])
    if year and (match := _YEAR.match(year[0])):
        record.put("year", int(match.group(1)), year[1])
    elif date and start:
        record.put("year", start[0], date[1])
    month = fields.get("month")
    if month:
        record.put("month", month_number(month[0]), month[1])
        _put_day(record, month, fields.get("day"))
    elif date and start and start[1] and not start[2]:
        record.put("month", start[1], date[1])  # `date = {2016-06}`


# a month with its day: Google Scholar's `month = nov # "~15"` (a patent's date of grant), '15~November'
_MONTH_AND_DAY = re.compile(r"^\s*(?:([A-Za-z]+)\.?[\s~]+(\d{1,2})|(\d{1,2})\.?[\s~]+([A-Za-z]+)\.?)\s*$")


def _put_day(record: RecordMapping, month: tuple[str, int], day: tuple[str, int] | None) -> None:
    """The record's `date` from its month and day, when the entry has no `date`: the day written in the month, as
    Google Scholar writes it (`month = nov # "~15"`), or the IETF datatracker's `day = 4` beside `month = mar`."""
    year = record.data.get("year")
    if "date" in record.data or not isinstance(year, int):
        return
    match = _MONTH_AND_DAY.match(month[0])
    if match:
        name, number = (match.group(1), match.group(2)) if match.group(1) else (match.group(4), match.group(3))
        month_value: int | str = month_number(name)
    elif day is not None and whole_number(day[0]) is not None:
        month_value, number = month_number(month[0]), day[0].strip()
    else:
        return
    if not isinstance(month_value, int):
        return
    try:
        when = datetime.date(year, month_value, int(number))
    except ValueError:
        return  # no such day: the month stays what it was
    record.put("date", when.isoformat(), month[1])
    record.put("month", month_value, month[1])


def date_start(value: str) -> tuple[int, int, int] | None:
    """Year, month and day (0 when not given) of a biblatex `date`; of its start when it is a range
    (`2020/2021`, `2021-05-03/2021-05-07`; the end of one with an open start, `../2021`); None when it is none."""
    start, _, end = value.strip().partition("/")
    start = start.strip()
    if start in ("", ".."):
        start = end.strip()
    match = _DATE.match(start)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0), int(match.group(3) or 0)


def month_number(value: str) -> int | str:
    """6 for 'jun' (June, as the macro gives it), 'Jun.', '6' or '06'; other text as it is."""
    text = value.strip().lower().rstrip(".")
    if (number := whole_number(text)) is not None and 1 <= number <= 12:
        return number
    number = _MONTH_NUMBERS.get(text[:3], 0)
    if number and MONTHS[number - 1].startswith(text):
        return number
    return _GERMAN_MONTHS.get(text) or bibtex_text(value)


def _arxiv_id(fields: _Fields) -> tuple[str, int] | None:
    """From `eprint` (archivePrefix/eprinttype arXiv), al-folio's `arxiv`, Google Scholar's
    'arXiv preprint arXiv:ID' venue, DBLP's CoRR volume, an arxiv.org URL or arXiv's DataCite DOI."""
    eprint = fields.get("eprint")
    archive = fields.values.get("archiveprefix", "").lower()
    if eprint and (archive == "arxiv" or (not archive and re.fullmatch(_ARXIV_ID, eprint[0].removeprefix("arXiv:")))):
        return ARXIV_VERSION.sub("", eprint[0].strip().removeprefix("arXiv:").strip()), eprint[1]
    if found := fields.get("arxiv"):
        return ARXIV_VERSION.sub("", found[0].strip().removeprefix("arXiv:").strip()), found[1]
    for name in ("journal", "howpublished", "note"):
        if (found := fields.get(name)) and (match := ARXIV_IN_TEXT.search(found[0])):
            return match.group(1), found[1]
    if (found := fields.get("volume")) and (match := _CORR_VOLUME.match(found[0])):
        return match.group(1), found[1]
    if (found := fields.get("url")) and (match := ARXIV_URL.match(found[0])):
        return match.group(2), found[1]
    if (found := fields.get("doi")) and (match := ARXIV_DOI_ID.match(bare_doi(found[0]))):
        return match.group(1), found[1]
    return None


def _doi(fields: _Fields) -> tuple[str, int] | None:
    """The DOI as written, LaTeX's escapes undone: '10.1000/a\\_b' (written so for LaTeX's sake) is 10.1000/a_b."""
    found = fields.get("doi")
    if found is None:
        return None
    return bare_doi(_ESCAPED_CHARACTER.sub(r"\1", found[0])), found[1]


def _put_source(record: RecordMapping, fields: _Fields, arxiv) -> tuple[str, str]:
    """The venue, and the field it came from. A preprint's pseudo-venue ('arXiv preprint
    arXiv:...', DBLP's 'CoRR'), or none at all beside an arXiv id, is 'arXiv', as arXiv's own records say."""
    name = next((n for n in VENUE_FIELDS if n in fields.values), None)
    if name is None and (howpublished := fields.get("howpublished")) and not _URL_IN_TEXT.match(howpublished[0].strip()):
        name = "howpublished"
    if name is None and "eventtitle" in fields.values:
        name = "eventtitle"  # a paper given at a meeting and not published (biblatex's @unpublished): the meeting
    if name is None:
        if arxiv:
            record.put("source", "arXiv", arxiv[1])
            return "arXiv", ""
        return "", ""
    text, line = fields.given(name)
    journal = _AAS_VENUE.match(text)
    if journal and journal.group(1) in AAS_JOURNALS:  # ADS's `journal = {\\apj}`: the journal's name, its abbreviation the short one
        abbreviation, venue = AAS_JOURNALS[journal.group(1)]
        record.put("source", venue, line)
        if fields.get("abbr", "shortjournal") is None:
            record.put("venue_short", abbreviation, line)
        return venue, name
    venue = _whole_title(fields, name, *_VENUE_SUBTITLES.get(name, ("", "")))
    if name == "journal" and (full := fields.get("fjournal")) is not None and (full_name := bibtex_text(full[0]).strip()):
        # MathSciNet's and zbMATH's: `JOURNAL` the abbreviation, `FJOURNAL` the journal's name (as ADS's macros give both)
        if full_name.casefold() != venue.casefold() and fields.get("abbr", "shortjournal") is None:
            record.put("venue_short", venue, line)
        venue = full_name
    if arxiv and (ARXIV_IN_TEXT.search(venue) or venue.lower() in ("corr", "arxiv") or _ADS_ARXIV_VENUE.match(venue)):
        venue = "arXiv"
    record.put("source", venue, line)
    return venue, name


# DBLP's booktitle names its conference after the proceedings' title, as "..., NeurIPS 2024, Vancouver, BC, Canada, ...":
# a part of one or two words, each starting with a capital or a digit (EuroSys, USENIX ATC, CVPR Workshops, 3DV), and
# a year; the acronym itself holds two capitals at least (not a city's "Dublin 2023")
_DBLP_CONFERENCE = re.compile(r"^((?:[A-Z0-9][\w/&@+.-]*)(?: [A-Z0-9][\w/&@+.-]*)?) ((?:19|20)\d\d)$")


def dblp_conference_acronym(booktitle: str) -> str:
    """'NeurIPS 2024' of DBLP's 'Advances in Neural Information Processing Systems 38: ..., NeurIPS 2024, Vancouver,
    BC, Canada, December 10 - 15, 2024' (the short name computer scientists cite a paper by); '' when the title
    names none. The first part is the proceedings' title, never the acronym."""
    for part in booktitle.split(", ")[1:]:
        match = _DBLP_CONFERENCE.match(part.strip())
        if match and _capitals(match.group(1).split()[0]) >= 2:
            return match.group(0)
    return ""


# the acronym a booktitle ends with, as USENIX's and IEEE's exports write it: '... Implementation (OSDI 23)', '2023 IEEE
# 64th Annual Symposium on Foundations of Computer Science (FOCS)', '... Systems (EuroMLSys 2024)', '... (ICML'23)'
_ACRONYM_AT_END = re.compile(r"\(((?:[A-Z0-9][\w/&@+.-]*)(?: [A-Z0-9][\w/&@+.-]*)?(?: ?['’]\d\d| \d\d| (?:19|20)\d\d)?)\)$")
# ACM's export names the conference in `series`: 'SOSP '23', 'KDD '24', 'CHI EA '25'
_ACM_SERIES = re.compile(r"^[A-Z][\w/&@+.-]*(?: [A-Z][\w/&@+.-]*)? '\d\d$")


def _conference_acronym(key: str, fields: _Fields, booktitle: str) -> tuple[str, int] | None:
    """The short name a conference paper is cited by, with its line, from what the exports of DBLP ('..., NeurIPS 2024,
    Vancouver, ...'), USENIX and IEEE ('... (OSDI 23)') and ACM (`series = {SOSP '23}`) write; None when they name none."""
    line = fields.lines["booktitle"]
    if _is_dblp_entry(key, fields) and (acronym := dblp_conference_acronym(booktitle)):
        return acronym, line
    if (match := _ACRONYM_AT_END.search(booktitle.strip())) and _capitals(match.group(1).split()[0]) >= 2:
        return match.group(1), line
    if (series := fields.get("series")) is not None and _ACM_SERIES.match(text := bibtex_text(series[0]).strip()):
        return text, series[1]
    return None


def _capitals(word: str) -> int:
    return sum(c.isupper() for c in word)


def _is_dblp_entry(key: str, fields: _Fields) -> bool:
    """An entry of DBLP's export: its citation key ('DBLP:conf/nips/X24') or its `biburl` says so."""
    biburl = fields.values.get("biburl", "")
    return key.startswith("DBLP:") or bool(_DBLP_BIBURL.match(biburl.strip()))


# ADS's journal of an arXiv paper: 'arXiv e-prints', and before 2007 the archive's: 'ArXiv Astrophysics e-prints'
_ADS_ARXIV_VENUE = re.compile(r"^arxiv\b.*\be-prints?$", re.IGNORECASE)
_VENUE_SUBTITLES = {"booktitle": ("booksubtitle", "booktitleaddon"), "journal": ("journalsubtitle", "")}
WEB_ENTRY_TYPES = frozenset({"online", "www", "electronic"})
_ENDS_A_SENTENCE = re.compile(r"[.?!:;]$")


def _whole_title(fields: _Fields, title: str, subtitle: str, addon: str) -> str:
    """A title with biblatex's subtitle and title addon, as biblatex prints them after it: 'Kupcy i kalwini:
    Gdańsk w epoce wyznaniowej' (a colon, as English and Zotero join them; no colon after '?' or '.'), and an addon
    after a full stop, or a space when it is in brackets ('杜甫的夔州詩 [Du Fu's Kuizhou Poems]')."""
    text = bibtex_text(fields.values[title])
    for name, separator in ((subtitle, ": "), (addon, ". ")):
        found = fields.get(name) if name else None
        if found is None or not (part := bibtex_text(found[0]).strip()):
            continue
        if _ENDS_A_SENTENCE.search(text) or part[0] in "([（【〔":
            separator = " "
        text = f"{text}{separator}{part}" if text else part
    return text


# The keywords by which a biblatex CV picks its selected works (`\printbibliography[keyword=selected]`): the record's
# `featured`, not a subject
FEATURING_KEYWORDS = frozenset({"selected", "featured"})


def _featuring_keyword(fields: _Fields) -> int | None:
    """The line of `keywords` when one of them is FEATURING_KEYWORDS, else None."""
    found = fields.get("keywords")
    if found is None or not any(piece.strip().casefold() in FEATURING_KEYWORDS for piece in keyword_pieces(found[0])):
        return None
    return found[1]


def _put_categories(record: RecordMapping, fields: _Fields) -> None:
    """arXiv's primary class first (the primary subject), then the keywords (an arXiv class named as ADS writes it
    among them beside the primary class, 'Astrophysics - Astrophysics of Galaxies', is that class: astro-ph.GA)."""
    categories: list[str] = []
    seen: set[str] = set()
    line = None
    for name in ("primaryclass", "keywords"):
        if (found := fields.get(name)) is None:
            continue
        line = line or found[1]
        for word in (bibtex_text(piece).strip() for piece in keyword_pieces(found[0])):
            if name == "keywords" and "primaryclass" in fields.values:
                # ADS gives the paper's arXiv classes among its keywords, by name, beside its primary class: the class
                # (without a primaryClass, as Zotero writes them, the first would be taken for the primary one)
                word = category_named(word) or word
            if name == "keywords" and word.casefold() in FEATURING_KEYWORDS:
                continue  # the record's `featured`: its subject page would list the featured records again
            if word and word.casefold() not in seen:
                seen.add(word.casefold())
                categories.append(word)
    if (mrclass := fields.get("mrclass")) is not None:
        line = line or mrclass[1]
        categories += [code for code in msc_classes(mrclass[0]) if code.casefold() not in seen]
    if line is not None:
        record.put("categories", categories, line)


# an MSC class as MathSciNet writes it: `11F80`, `11-02`, `11Fxx`, `11-XX`
_MSC_CLASS = re.compile(r"\d\d(?:[A-Z]\d\d|[A-Z]xx|-\d\d|-XX)")


def msc_classes(mrclass: str) -> list[str]:
    """The classes of MathSciNet's `MRCLASS`, the primary first ('11G18 (11F70 14G35)': 11G18, 11F70, 14G35), as
    zbMATH's export lists them in `keywords` ('11G18,11F70,14G35')."""
    return list(dict.fromkeys(word for word in mrclass.replace("(", " ").replace(")", " ").split() if _MSC_CLASS.fullmatch(word)))


def keyword_pieces(value: str) -> list[str]:
    """A `keywords` value split at its commas and semicolons (ADS, Zotero and JabRef separate keywords so), but for one
    inside braces (`{ISM: dust, extinction}`, a keyword kept whole as a name in braces is), in math (`$f(x, y)$`) or
    escaped (LaTeX's `\\,` space); each piece still LaTeX."""
    if not _KEYWORD_GROUPING.search(value):
        return _KEYWORD_SEPARATORS.split(value)  # no brace, math or backslash: most values
    return top_level_pieces(value, ",;")


def top_level_pieces(value: str, separators: str) -> list[str]:
    """`value` split at each of `separators` that is outside braces, math and escapes; each piece still LaTeX."""
    pieces, start, depth, math = [], 0, 0, False
    for match in _KEYWORD_SYNTAX.finditer(value):
        mark = match[0]
        if mark == "{":
            depth += 1
        elif mark == "}":
            depth = max(0, depth - 1)
        elif mark == "$":
            math = not math
        elif mark in separators and depth == 0 and not math:
            pieces.append(value[start : match.start()])
            start = match.end()
    return [*pieces, value[start:]]


def _links(fields: _Fields, warn: _Warn) -> PositionedDict:
    """The link fields by their names, then `url` (else DBLP's `ee`) and a `\\url{}` in `howpublished`, each under
    the kind it points at (a second of a kind as `html_2`, as merged records name theirs)."""
    links = PositionedDict()
    links.line = fields.entry_line
    links.key_lines = {}
    for name in LINK_FIELDS:
        if name in fields.values:
            links[name] = _bare_url(fields.values[name])
            links.key_lines[name] = fields.lines[name]
    if (found := fields.get("repository")) is not None and (url := _bare_url(found[0])):  # biblatex-software's: the code
        put_link(links, "code", url, found[1])
    if (found := fields.get("swhid")) is not None and (swhid := _bare_url(found[0])).lower().startswith("swh:"):
        put_link(links, "software_heritage", SOFTWARE_HERITAGE + swhid, found[1])  # Zenodo's and biblatex-software's
    for url, line in _plain_urls(fields, warn):
        put_link(links, link_kind(url), url, line)
    _put_eprint_link(links, fields, warn)
    return links


# biblatex's eprint types that it prints as a link (biblatex.def's `eprint:<type>` formats), beside arXiv's and PubMed's
# (the record's ids): the kind of link and its address
EPRINT_LINKS = {
    "hal": ("hal", "https://hal.science/{}"),
    "jstor": ("jstor", "https://www.jstor.org/stable/{}"),
    "hdl": ("handle", "https://hdl.handle.net/{}"),
    "handle": ("handle", "https://hdl.handle.net/{}"),
    "googlebooks": ("googlebooks", "https://books.google.com/books?id={}"),
}


def _put_eprint_link(links: PositionedDict, fields: _Fields, warn: _Warn) -> None:
    """biblatex's `eprint = {hal-01234567}, eprinttype = {hal}` (JSTOR's, a handle, Google Books'): a link to the work
    there, as biblatex prints it. An eprint of a type nothing shows is a warning: it would be lost without a word."""
    eprint = fields.get("eprint")
    archive = fields.values.get("archiveprefix", "").strip().lower()
    if eprint is None or not archive or archive == "arxiv" or archive in _PUBMED_ARCHIVES:
        return
    if archive not in EPRINT_LINKS:
        known = ", ".join(sorted({"arxiv", "pubmed", "pmcid", *EPRINT_LINKS}))
        warn(eprint[1], f"field 'eprint': eprint type {archive!r} is not shown ({known} are); give its address as 'url'")
        return
    kind, address = EPRINT_LINKS[archive]
    put_link(links, kind, address.format(urllib.parse.quote(eprint[0].strip(), safe="/:.-_")), eprint[1])


SOFTWARE_HERITAGE = "https://archive.softwareheritage.org/"  # where a SWHID (swh:1:dir:...;origin=...) is resolved


def put_link(links: PositionedDict, kind: str, url: str, line: int) -> None:
    """`url` as a link of `kind`, a second of a kind as `kind_2`; an address already among the links once."""
    if url in links.values():
        return
    name = free_key(links, kind)
    links[name] = url
    links.key_lines[name] = line


def without_identifier_addresses(links: PositionedDict, arxiv: str | None, doi: str | None) -> PositionedDict:
    """The links but a `url` that is only the address of the entry's DOI or arXiv id (arXiv's export and
    sitegen's publications.bib write one): the build gives that address from the identifier, as a record
    with no `url` has it, so an entry reads back as the record it was written from."""
    implied = {"doi": doi_url(doi) if doi else "", "abs": f"https://arxiv.org/abs/{arxiv}" if arxiv else ""}
    repeated = [kind for kind, address in implied.items() if address and _same_address(links.get(kind, ""), address)]
    if not repeated:
        return links
    kept = PositionedDict((kind, url) for kind, url in links.items() if kind not in repeated)
    kept.line = links.line
    kept.key_lines = {kind: line for kind, line in links.key_lines.items() if kind not in repeated}
    return kept


def _same_address(url: str, implied: str) -> bool:
    """Is `url` another form of the identifier's address `implied`: `http://`, `dx.doi.org`, `www.arxiv.org`, and an
    arXiv version (Zotero saves the address of the version it read, `http://arxiv.org/abs/2104.05512v3`: every
    version is one work, linked as its id)?"""
    forms = [_ADDRESS_FORM.sub("", address.strip().rstrip("/")).lower() for address in (url, implied)]
    if implied.startswith("https://arxiv.org/abs/"):
        forms = [_ARXIV_VERSION_ADDRESS.sub("", form) for form in forms]
    return forms[0] == forms[1]


_ADDRESS_FORM = re.compile(r"^https?://(?:www\.|dx\.|export\.)?", re.IGNORECASE)
_ARXIV_VERSION_ADDRESS = re.compile(r"v\d+$")


def _plain_urls(fields: _Fields, warn: _Warn) -> list[tuple[str, int]]:
    """The addresses of `url` (else `ee`, DBLP's electronic edition): Mendeley writes two there, one after the other."""
    urls = []
    if (found := fields.get("url", "ee")) is not None:
        name = "url" if "url" in fields.values else "ee"
        addresses = _bare_url(found[0]).split()
        if len(addresses) > 1 and not all(_URL_SCHEME.match(address) for address in addresses[1:]):
            if _URL_SCHEME.match(addresses[0]):  # one address with spaces in it, which an address writes as %20
                addresses = ["%20".join(addresses)]
                warn(found[1], f"field '{name}': an address has no spaces; read as {addresses[0]!r}")
            else:
                warn(found[1], f"field '{name}': {found[0]!r} is no address; left out")
                addresses = []
        urls += [(address, found[1]) for address in addresses]
    if (found := fields.get("howpublished")) is not None and (match := _URL_IN_TEXT.match(found[0].strip())):
        urls.append((_unescaped_url(match.group(1)), found[1]))
    return urls


def _bare_url(value: str) -> str:
    """An address as a .bib file writes it: in `\\url{}` or not, LaTeX's escapes (`{\\&}`, `\\_`) undone."""
    match = _URL_IN_TEXT.match(value.strip())
    return _unescaped_url(match.group(1) if match else value)


def _unescaped_url(value: str) -> str:
    if "\\" in value or "{" in value:
        value = _URL_ESCAPE.sub(r"\1", _URL_TILDE.sub("~", value)).replace("{", "").replace("}", "")
    return value.strip()


def link_kind(url: str) -> str:
    """What a bare `url` points at, named as the site's links are (SPEC §2: abs, pdf, doi, code, ...)."""
    arxiv = ARXIV_URL.match(url)
    if arxiv:
        return "abs" if arxiv.group(1).lower() == "abs" else "pdf"
    if DOI_PREFIX.match(url):
        return "doi"
    if database := database_link(url):  # zbMATH's `URL`: its page of the work, named so, not the work's own page
        return DATABASE_IDS[database[0]][0]
    if CODE_HOSTS.match(url):
        return "code"
    if kind := openreview_kind(url):  # DBLP's `url` of every ICLR paper
        return kind
    if url.lower().split("?")[0].endswith(".pdf"):
        return "pdf"
    return "html"


_PUBMED_ARCHIVES = {"pubmed": "pmid", "pmid": "pmid", "pmc": "pmcid", "pmcid": "pmcid", "pubmedcentral": "pmcid"}


# the fields that give a work's id in its field's database (record_types.DATABASE_IDS): ADS's `adsurl`, MathSciNet's
# `MRNUMBER`, zbMATH's `Zbl` (and `zbMATH`, its document id), al-folio's `inspirehep_id`
_DATABASE_FIELDS = {"ads": ("adsurl",), "mr": ("mrnumber",), "zbmath": ("zbl", "zblnumber", "zbmath"), "inspire": ("inspirehep_id",)}


def _put_ids(record: RecordMapping, key: str, fields: _Fields, warn: _Warn) -> None:
    """DBLP's key, from a DBLP export's citation key ('DBLP:conf/x/Y24') or its `biburl`; PubMed's id; the work's ids
    in ADS, MathSciNet, zbMATH and INSPIRE."""
    ids = PositionedDict()
    ids.line = fields.entry_line
    ids.key_lines = {}
    if key.startswith("DBLP:"):
        ids["dblp"], ids.key_lines["dblp"] = key.removeprefix("DBLP:"), fields.entry_line
    elif (found := fields.get("biburl")) and (match := _DBLP_BIBURL.match(found[0])):
        ids["dblp"], ids.key_lines["dblp"] = match.group(1), found[1]
    if (found := fields.get("pmid", "pubmedid", "pubmed_id")) is not None:  # Mendeley's, some journals', Scopus's
        ids["pmid"], ids.key_lines["pmid"] = found[0].strip(), found[1]
    if (found := fields.get("pmcid", "pmc")) is not None:  # PubMed Central's, as PubMed's and JabRef's exports write it
        ids["pmcid"], ids.key_lines["pmcid"] = found[0].strip(), found[1]
    # biblatex's way: `eprint = {31002002}, eprinttype = {pubmed}` (and `{pmc}` or `{pmcid}` for PubMed Central)
    archive = fields.values.get("archiveprefix", "").strip().lower()
    if (found := fields.get("eprint")) is not None and archive in _PUBMED_ARCHIVES:
        name = _PUBMED_ARCHIVES[archive]
        if name not in ids:
            ids[name], ids.key_lines[name] = found[0].strip(), found[1]
    for name, field_names in _DATABASE_FIELDS.items():
        for field_name in field_names:
            if (found := fields.get(field_name)) is None:
                continue
            _, check, _, what, example = DATABASE_IDS[name]
            if (checked := check(_bare_url(found[0]))) is None:
                warn(found[1], f"field '{field_name}': {found[0]!r} is not {what} (like {example}): left out")
            elif name not in ids:
                ids[name], ids.key_lines[name] = checked, found[1]
    record.put("ids", ids, fields.entry_line)


# An article number and the article's length, as MathSciNet (`PAGES = {109012, 24}`, `{Paper No. 109012, 24}`) and
# zbMATH (`Pages = {Id/No 109012, 24 p.}`) write them for a journal without page numbers: the number is the pages'
_ARTICLE_NUMBER_PAGES = re.compile(r"^(?:(?:Paper|Art(?:icle)?)\.?\s*No\.?|Id/No)?\s*([A-Za-z]?\d[\w.-]*),\s*\d+\s*(?:pp?\.?|pages)?$")
_ARTICLE_NUMBER_MARK = re.compile(r"^\s*(?:(?:Paper|Art(?:icle)?)\.?\s*No|Id/No)", re.IGNORECASE)


def _without_version(arxiv: str) -> str:
    return re.sub(r"v\d+$", "", arxiv).lower()


def _put_details(record: RecordMapping, fields: _Fields, venue_field: str) -> None:
    values = fields.values
    for name in (*BIBTEX_DETAILS, *EXTRA_FIELDS):
        # zbMATH's `FSeries` is the series' name where `Series` abbreviates it, as its `FJournal` and `Journal` are
        written = "fseries" if name == "series" and values.get("fseries", "").strip() else name
        if written in values and name != venue_field and name not in record.data and not _URL_IN_TEXT.match(values[written]):
            record.put(name, bibtex_text(values[written]), fields.lines[written])
    pages = record.data.get("pages")
    arxiv = record.data.get("arxiv")
    if isinstance(pages, str) and arxiv and _without_version(values["pages"].strip().removeprefix("arXiv:")) == _without_version(arxiv):
        del record.data["pages"]  # ADS's `pages = {arXiv:2301.12345}`: the arXiv id the record has, no page
        record.data.key_lines.pop("pages", None)
        pages = None
    from_database = any(name in values for name in ("mrnumber", "zbl", "zblnumber", "zbmath")) or (isinstance(pages, str) and _ARTICLE_NUMBER_MARK.match(pages))
    if isinstance(pages, str) and from_database and (number := _ARTICLE_NUMBER_PAGES.match(pages)):
        record.put("pages", number.group(1), fields.lines["pages"])  # not "109012, 24": no page 24 follows
    elif "pages" not in record.data and "articleno" in values:  # ACM's: an article number instead of pages
        record.put("pages", bibtex_text(values["articleno"]), fields.lines["articleno"])
    if (place := fields.get("venue")) is not None:  # biblatex's `venue`: where the meeting was
        if "address" not in record.data and venue_field == "eventtitle":
            record.put("address", bibtex_text(place[0]), place[1])  # a paper given and not published: its place
        else:
            record.put("event_place", bibtex_text(place[0]), place[1])  # the meeting's, beside the proceedings' place
    editors = fields.get("editor")
    if editors:
        record.put("editors", person_names(editors[0])[0], editors[1])
    translators = fields.get("translator")
    if translators:
        record.put("translators", person_names(translators[0])[0], translators[1])


# -- one file -----------------------------------------------------------------------------------------


class _FileReader:
    """Reads one .bib file's blocks in order, as BibTeX does: a macro is known from its @string on."""

    def __init__(self, display_path: str):
        self.path = display_path
        self.problems: list[Problem] = []
        self.macros: dict[str, str] = dict(MONTH_MACROS)
        self.keys: dict[str, tuple[int, str]] = {}  # lower-case citation key -> line and text of its entry
        self.string_lines: dict[str, int] = {}  # every @string of the file, for the hint when one is used too early
        self.entries: list[tuple[str, str, _Fields]] = []  # (entry type, key, fields) of the good entries
        self.data_entries: dict[str, _Fields] = {}  # lower-case key -> fields of each @xdata (and @set) entry
        self.entry_read = False  # whether the last block was an entry that gave a record
        self.definitions: dict[str, _Definition] = {}  # the commands the file's @preamble defines, and \\noopsort
        self.uses = uses_of(BUILT_IN_DEFINITIONS)  # what finds a use of one of them

    def problem(self, line: int | None, message: str) -> None:
        self.problems.append(Problem(message, Location(self.path, line)))

    def warning_about(self, key: str) -> _Warn:
        """What reports a warning about entry `key`, at a line."""
        return lambda line, message: self.problems.append(Problem(f"entry '{key}': {message}", Location(self.path, line), warning=True))

    def read(self, text: str) -> ReadResult:
        text = text.removeprefix("\ufeff")
        blocks = bibtexparser.parse_string(without_field_comments(text) if "%" in text else text, parse_stack=[]).blocks
        self.string_lines = {block.key.lower(): _first_line(block) for block in map(_unwrapped, blocks) if isinstance(block, String)}
        self.definitions = preamble_definitions([self.preamble_text(block) for block in blocks if isinstance(block, Preamble)])
        self.uses = uses_of(self.definitions)
        after_entry = False
        for block in blocks:
            read_before = len(self.entries)
            self.read_block(block, after_entry)
            after_entry = isinstance(_unwrapped(block), Entry)
            self.entry_read = len(self.entries) > read_before  # the block just read was a good entry
        for _, key, fields in self.entries:
            self.take_xdata(key, fields, set())
        targets = self.inherit_crossrefs()
        records = [
            entry_record(kind, key, fields, self.warning_about(key))
            for kind, key, fields in self.entries
            if key.lower() not in targets and self.dates_read(key, fields)
        ]
        return records, self.problems

    def dates_read(self, key: str, fields: _Fields) -> bool:
        """Whether the entry's `year` and `date` can be read (each problem reported, naming the entry); an entry with
        neither is read, for validation to say whether it may leave them out (one that corrects a fetched record may)."""
        year, date = fields.get("year"), fields.get("date")
        if year is not None and not _YEAR.match(year[0]):
            self.problem(year[1], f"entry '{key}': field 'year': {year[0]!r} is no year (four digits, such as 2024)")
            return False
        if date is not None and date_start(date[0]) is None:
            what = f"entry '{key}': field 'date': {date[0]!r} is no date (2024, 2024-05 or 2024-05-03, or a range such as 2020/2021)"
            if year is None:
                self.problem(date[1], what)
                return False
            self.warning_about(key)(date[1], f"field 'date': {date[0]!r} is no date; the year is read from 'year'")
        return True

    def read_block(self, block: Block, after_entry: bool) -> None:
        line = block.start_line + 1 if block.start_line is not None else None
        inner = _unwrapped(block)
        if isinstance(block, DuplicateFieldKeyBlock) and isinstance(inner, Entry):
            self.read_entry(inner)
        elif isinstance(block, DuplicateBlockKeyBlock) and inner is not block:
            self.read_block(inner, after_entry)  # checked here, case ignored as BibTeX does
        elif isinstance(block, ParsingFailedBlock):
            self.read_failure(block, line)
        elif isinstance(block, String):
            self.define(block)
        elif isinstance(block, Entry):
            self.read_entry(block)
        elif isinstance(block, ImplicitComment) and after_entry and block.comment.lstrip().startswith((",", "}")):
            # `title = {A}},` closes the entry at the second brace: what follows is lost to every BibTeX reader
            self.problem(line, "unbalanced braces: a '}' too many closes the entry above early; the text after it is not read")
            if self.entry_read:
                self.entries.pop()  # that entry, cut short

    def read_failure(self, block: ParsingFailedBlock, line: int | None) -> None:
        """A block the parser could not read: at the line of the value whose brace or quote is never closed,
        when one is, naming the entry and the field."""
        raw = block.raw or ""
        found = _ENTRY_KEY.match(raw)
        unclosed = _unclosed_value(raw) if found else None
        if found is None or unclosed is None or line is None:
            self.problem(line, _failure_message(block))
            return
        name, offset, reason = unclosed
        ends = " before the end of the file" if "end of file" in getattr(block.error, "abort_reason", "") else ""
        self.problem(line + raw[:offset].count("\n"), f"entry '{found.group(1)}', field '{name}': {reason}{ends}")

    def take_xdata(self, key: str, fields: _Fields, seen: set[str]) -> None:
        """Fill in what an entry lacks from the `@xdata` entries its `xdata = {a, b}` names, theirs first (biber's
        order: an xdata entry may name others); a name that is no @xdata entry of the file is a warning."""
        found = fields.get("xdata")
        if found is None:
            return
        for name in (part.strip() for part in found[0].split(",")):
            data = self.data_entries.get(name.lower())
            if data is None:
                self.warning_about(key)(found[1], f"xdata '{name}' names no @xdata entry of this file; its fields are left out")
            elif name.lower() not in seen:
                seen.add(name.lower())
                self.take_xdata(name, data, seen)
                fields.take_all(data)

    def inherit_crossrefs(self) -> set[str]:
        """Fill in what an entry takes from the entry its `crossref` names (DBLP's exports: a paper's
        `@inproceedings` names the `@proceedings` of its conference); the lower-case keys of the
        `@proceedings` and `@book` entries named so, which are no works of the site's owner."""
        by_key = {key.lower(): (kind, fields) for kind, key, fields in self.entries}
        targets = set()
        for _, key, fields in self.entries:
            found = fields.get("crossref")
            if found is None:
                continue
            target = by_key.get(found[0].lower())
            if target is None:
                self.problems.append(
                    Problem(
                        f"entry '{key}': crossref '{found[0]}' names no entry of this file",
                        Location(self.path, found[1]),
                        warning=True,
                    )
                )
                continue
            target_kind, target_fields = target
            fields.inherit(target_fields)
            if target_kind in CROSSREF_TARGETS:
                targets.add(found[0].lower())
        return targets

    def preamble_text(self, preamble: Preamble) -> str:
        try:
            return evaluate(preamble.value.strip(), self.macros)
        except _BadValue:
            return ""

    def define(self, string: String) -> None:
        try:
            self.macros[string.key.strip().lower()] = evaluate(string.value, self.macros)
        except _BadValue as error:
            self.problem(_first_line(string), f"@string '{string.key}': {self.reason(error, _first_line(string))}")

    def reason(self, error: _BadValue, line: int) -> str:
        if not isinstance(error, _UnknownMacro):
            return str(error)
        defined = self.string_lines.get(error.name.lower())
        if defined is not None and defined > line:
            return f"unknown macro '{error.name}': its @string is on line {defined}, below; BibTeX needs it above its first use"
        return f"unknown macro '{error.name}' (define it above with @string{{{error.name} = {{...}}}}, or put the value in braces)"

    def read_entry(self, entry: Entry) -> None:
        line = _first_line(entry)
        key = entry.key.strip()
        if not key:
            self.problem(line, f"@{entry.entry_type} entry without a citation key")
            return
        text = " ".join((entry.raw or "").split())
        first, first_text = self.keys.setdefault(key.lower(), (line, text))
        if first != line:
            if text and text == first_text:  # Google Scholar's "Cite" snippets pasted together: one paper twice
                self.warning_about(key)(line, f"given twice, the same as on line {first}: read once; delete this copy")
                return
            self.problem(
                line,
                f"duplicate key '{key}': also on line {first}; a key names one entry: "
                f"give this one a key of its own ('{key}b') or delete the one you do not want",
            )
            return
        fields = self.fields(entry, key)
        if fields is None:
            return
        if entry.entry_type.lower() in DATA_ENTRY_TYPES:  # no work: an @xdata entry's fields are other entries'
            self.data_entries[key.lower()] = fields
            self.warn_of_unknowns(entry.entry_type, key, fields)
            return
        if fields.get("title") is None:
            self.problem(line, f"entry '{key}' has no title")
            return
        self.entries.append((entry.entry_type.lower(), key, fields))
        self.warn_of_unknowns(entry.entry_type, key, fields)

    def warn_of_unknowns(self, entry_type: str, key: str, fields: _Fields) -> None:
        """What BibTeX and biblatex do not know, read anyway: an entry type (read from its fields, as other work
        if they say nothing), a month that is none."""
        if entry_type.lower() not in KNOWN_ENTRY_TYPES:
            meant = difflib.get_close_matches(entry_type.lower(), sorted(KNOWN_ENTRY_TYPES), n=1, cutoff=0.7)
            hint = f"; did you mean '@{meant[0]}'?" if meant else " (read by its fields, as @misc is)"
            self.problems.append(Problem(f"entry '{key}': unknown entry type '@{entry_type}'{hint}", Location(self.path, fields.entry_line), warning=True))
        for name, line in fields.lines.items():
            if name in PRINTED_NOT_SHOWN:
                self.problems.append(
                    Problem(
                        f"entry '{key}': field '{name}' is left out: biblatex prints it, no page of the site shows it", Location(self.path, line), warning=True
                    )
                )
            elif name not in READ_FIELDS and name not in IGNORED_FIELDS and not name.startswith(("opt", "x-")) and not ANNOTATION_FIELD.match(name):
                meant = [FIELDS_MEANT[name]] if name in FIELDS_MEANT else difflib.get_close_matches(name, sorted(READ_FIELDS), n=1, cutoff=0.75)
                hint = f"; did you mean '{meant[0]}'?" if meant else " (no page shows it), left out"
                self.problems.append(Problem(f"entry '{key}': unknown field '{name}'{hint}", Location(self.path, line), warning=True))
        month = fields.get("month")
        if month is not None and not isinstance(month_number(month[0]), int) and not _NAMES_A_MONTH.search(month[0]):  # '4~June' is a day
            self.problems.append(
                Problem(
                    f"entry '{key}': field 'month': {quoted(month[0], SHOWN_VALUE)} is no month (1 to 12, or jan to dec); kept as text",
                    Location(self.path, month[1]),
                    warning=True,
                )
            )

    def fields(self, entry: Entry, key: str) -> _Fields | None:
        """The entry's values; None when one of them is wrong (each reported)."""
        fields = _Fields({}, {}, _first_line(entry))
        wrong = False
        for field in entry.fields:
            name, line = field.key.lower(), field.start_line + 1  # the splitter strips keys
            if name in fields.lines:
                self.problem(line, f"entry '{key}': field '{field.key}' given twice (first on line {fields.lines[name]})")
                wrong = True
                continue
            try:
                value = evaluate(field.value, self.macros).strip()
                if "\\" in value and self.uses.search(value):
                    value = expand_definitions(value, self.definitions, self.uses)
            except _BadValue as error:
                self.problem(line, f"entry '{key}', field '{field.key}': {self.reason(error, line)}")
                wrong = True
            else:
                if value:
                    fields.values[name] = value
            fields.lines[name] = line
        if wrong:
            return None
        for biblatex, bibtex in BIBLATEX_NAMES.items():
            if biblatex in fields.values and bibtex not in fields.values:
                fields.values[bibtex], fields.lines[bibtex] = fields.values[biblatex], fields.lines[biblatex]
            elif biblatex in fields.values and fields.values[biblatex] != fields.values[bibtex]:  # `issue = {Spring}` beside `number`
                self.warning_about(key)(fields.lines[biblatex], f"field '{biblatex}': {fields.values[biblatex]!r} is left out: '{bibtex}' is read in its place")
        return fields


def _unwrapped(block: Block) -> Block:
    """The block inside one that bibtexparser flagged for a key given twice (checked by this reader)."""
    if isinstance(block, (DuplicateBlockKeyBlock, DuplicateFieldKeyBlock)) and block.ignore_error_block is not None:
        return block.ignore_error_block
    return block


def _first_line(block: Block) -> int:
    """The 1-based line a block starts on (bibtexparser's parser gives every block it makes a start line)."""
    assert block.start_line is not None
    return block.start_line + 1


_FIELD_NAME = re.compile(r"[\s,]*([^\s=,{}\"#()]+)\s*=\s*")
_FIELD_IN_VALUE = re.compile(r"\n[ \t]*[A-Za-z][\w:.+/-]*[ \t]*=[ \t]*[{\"0-9]")  # a line that starts a field


def _unclosed_value(raw: str) -> tuple[str, int, str] | None:
    """In the text of an entry the parser could not read: the field whose value's brace or quote is never closed
    (or is closed only by the entry's own brace, taking the fields after it for its text), where its value starts,
    and what is wrong; None when every value is closed."""
    head = _ENTRY_KEY.match(raw)
    if head is None:
        return None
    position = _skip_space(raw, head.end())
    if position < len(raw) and raw[position] == ",":
        position += 1
    while field := _FIELD_NAME.match(raw, position):
        name, start = field.group(1), field.end()
        while start < len(raw):  # the pieces of the value, joined by '#'
            first = raw[start]
            try:
                end = _closing_brace(raw, start) if first == "{" else _closing_quote(raw, start) if first == '"' else None
            except _BadValue:
                return name, start, "unbalanced braces: a '{' in the value is never closed" if first == "{" else "the '\"' that opens the value is never closed"
            if end is None:
                word = _BARE_WORD.match(raw, start)
                if word is None:
                    return None
                end = word.end() - 1
            elif _FIELD_IN_VALUE.search(raw, start, end):
                return name, start, "unbalanced braces: a '{' in the value is never closed, so the fields after it are read as its text"
            start = _skip_space(raw, end + 1)
            if start >= len(raw) or raw[start] != "#":
                break
            start = _skip_space(raw, start + 1)
        position = start
    return None


def _failure_message(block: ParsingFailedBlock) -> str:
    """Say in BibTeX's terms why a block could not be read."""
    reason = getattr(block.error, "abort_reason", str(block.error))
    found = _ENTRY_KEY.match(block.raw or "")
    what = f"entry '{found.group(1)}'" if found else "this entry"
    if "closing `}`" in reason or "closing bracket" in reason:
        return f"unbalanced braces: a '{{' in {what} is never closed"
    if 'closing `"`' in reason:
        return f'{what}: a quoted value is never closed (")'
    if "end of file" in reason:
        return f"unbalanced braces: {what} is not closed before the end of the file"
    return f"cannot read {what}: {' '.join(reason.split())}"


def read_bibtex_records(text: str, display_path: str) -> ReadResult:
    return _FileReader(display_path).read(text)


SAVE_BIB_AS_UTF8 = (
    " (in JabRef: Library properties, encoding UTF-8, then save; in Zotero: export again with Character Encoding"
    " Unicode (UTF-8); in a text editor: reopen the file as Latin-1 or Windows-1252 and save it as UTF-8)"
)
BIBTEX = register_reader(
    Reader("bibtex", (".bib",), read_bibtex_records, rank=OWN_LIST, unknown_fields_warned=False, save_as_utf8=SAVE_BIB_AS_UTF8, ids_are_cite_keys=True)
)
