"""One work, one record (SPEC §6).

The same paper reaches a site from many places: a hand-written YAML record, an
entry of a `.bib` file, and what `sitegen fetch` pulled from arXiv, ORCID,
Crossref, OpenAlex and DBLP. `merge_works` shows each work once.

Records are the same work when they share an identifier (DOI with case ignored,
arXiv id with its version ignored, OpenAlex or DBLP key, or the record id), or
when they are a preprint and its published version: the same title once case,
accents, punctuation, LaTeX and JATS/HTML tags are set aside, years at most two
apart, and an author in common ("Lin, Sheng", "S. Lin" and "Lin Sheng" compare
equal). Two published versions with different DOIs, or two different arXiv
preprints, are never joined by title, but for the versions of a program or a
dataset released in one repository (Zenodo gives every release a DOI of its own:
the same registrant), which are one work led by its newest version.

The merged record takes each field from the best record that has it: a
hand-written YAML record's own fields first (a correction), then published
versions before preprints, then by the rank each source declares (`sitegen.sources`:
the user's own lists, then the publisher's, arXiv's, the indexes', ORCID's), then the
record that gives more fields (two entries of one paper in two .bib files:
Zotero's full one before Google Scholar's short one), then by file and line.
The author list is the user's own (a YAML or BibTeX file's) whenever one is whole,
else the longest fetched one. The venue is a published one whenever any record
names one, and its details (volume, number, pages, ISSN, ...) come from the
records of that publication (the same venue or the same published DOI), one that
carries the DOI first, then the best, never from a preprint's; a title that another
version writes alike but for case takes that version's acronyms (`with_capitals`); mappings (`links`, `ids`, extras) merge
key by key; `citations` is the largest count known. The ids of the other records
of the user's own files are kept as the work's `aliases` (their citation keys,
which publications.bib writes as biblatex's `ids`), and each such merge is a note
(`merge_works(records, notes)`), so that no entry vanishes unsaid.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import html
import re
import unicodedata
from collections.abc import Callable, Iterable
from itertools import combinations
from typing import Any

from sitegen.errors import Location, Problem
from sitegen.load import TEXT_LINE
from sitegen.model import BIBTEX_DETAILS, Record, free_key
from sitegen.record_types import (
    ARXIV_DOI,
    arxiv_key,
    bare_doi,
    doi_url,
    infer_type,
    is_preprint_doi,
    is_preprint_venue,
    published_doi,
)
from sitegen.sources import keeps_cite_keys, source_rank

TITLE_MATCH_YEARS = 2  # a preprint and its published version: at most this many years apart
# Titles compared within one bucket when many records share a title ("Editorial"): beyond this,
# each record is compared with its nearest neighbours by year only.
TITLE_BUCKET_PAIRS = 64
# Extras that describe where a version was published: they come with the venue, not from another version.
# Every BibTeX detail but the note (which speaks of the work) is one.
VENUE_DETAILS = (frozenset(BIBTEX_DETAILS) - {"note"}) | {"bibtex_type", "editors", "month", "journal_ref"}
_TAG = re.compile(r"<[^<>]{0,200}>")  # JATS and HTML: <jats:italic>, <i>, <sub>
_NOT_WORD = re.compile(r"[\W_]+")
_ASCII_NOT_WORD = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalnum()})
_LETTERS = {"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i", "ß": "ss"}
_MAY_HOLD_MARKUP = re.compile(r"[\\${}<&^_]")
# \\"u, \\'{e}; \\c{c}, \\v c (a letter accent needs a brace or a space: \\cite is no accent)
_LATEX_ACCENT = re.compile(r"\\[\"'`^~=.]\s*\{?\s*([A-Za-z])\}?|\\[uvHckrdbt](?:\s+|\s*\{\s*)([A-Za-z])\}?")
_LETTERS_OF = {"ss": "ss", "ae": "ae", "AE": "AE", "oe": "oe", "OE": "OE", "aa": "a", "AA": "A", "o": "o", "O": "O", "l": "l", "L": "L", "i": "i", "j": "j"}
_LATEX_LETTER = re.compile(r"\\(ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)(?![A-Za-z])")
_LATEX_FORMAT = re.compile(
    r"\\(?:math[a-z]*|text(?:bf|it|rm|sf|tt|sl|sc|up|md|normal|superscript|subscript)?|ce|emph|bm|boldsymbol|operatorname|mbox"
    r"|rm|bf|it|em|sf|tt|sl|sc|cal)(?![A-Za-z])"
)  # mhchem's \ce{CO2} too: CO2, as CO$_2$ and CO₂ become
_GREEK = "alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|omicron|pi|rho|sigma|tau|upsilon|phi|chi|psi|omega"
_TEXT_GREEK = re.compile(rf"\\text(?=(?:{_GREEK})(?![A-Za-z]))", re.IGNORECASE)  # {\textalpha}: \alpha
_LATEX_NAMED = re.compile(r"\\([A-Za-z]+)")
_MATH_MARKS = str.maketrans("", "", "${}^_")


def merge_works(records: list[Record], notes: list[Problem] | None = None) -> list[Record]:
    """One record per work, in the order of each work's first record; a record alone is returned as it is.
    `notes` gets a note for each record of the user's own files merged into another's (`merge_note`)."""
    groups = _works(records)
    merged = []
    for members in groups:
        if len(members) == 1:
            merged.append(records[members[0]])
            continue
        work = merged_record([records[i] for i in members])
        merged.append(work)
        if notes is not None and work.aliases:
            aliased: dict[str, list[str]] = {}  # alias -> the ids of the records that give it
            for i in members:
                for alias in records[i].aliases:
                    aliased.setdefault(alias, []).append(records[i].id)
            notes += [merge_note(records[i], work, aliased, [records[j] for j in members if j != i]) for i in members if records[i].id in work.aliases]
        if notes is not None:
            notes += _moved_page_notes([records[i] for i in members], work)
    return merged


def _moved_page_notes(members: list[Record], work: Record) -> list[Problem]:
    """A correction with an id of its own moves the page of the fetched record it corrects: say so, once."""
    correction = next((r for r in members if _is_correction(r) and "id" in r.given and r.id == work.id), None)
    fetched = next((r for r in members if r.fetched and r.id and r.id != work.id), None)
    if correction is None or fetched is None:
        return []
    return [
        Problem(
            f"record '{work.id}' corrects the fetched record '{fetched.id}', whose page is now records/{work.id}/ "
            f"(leave out `id` to keep records/{fetched.id}/)",
            correction.where("id"),
            warning=True,
            note=True,
        )
    ]


_SAME = {
    "doi": "same DOI",
    "arxiv": "same arXiv id",
    "openalex": "same OpenAlex id",
    "dblp": "same dblp key",
    "pmid": "same PMID",
    "inspire": "same INSPIRE record",
    "id": "same id",
}


def merge_note(record: Record, work: Record, aliased: dict[str, list[str]] | None = None, others: list[Record] | None = None) -> Problem:
    """'record 'muller2021sparse' merged with mullerSparseAttentionDNA2021 (content/records/zotero.bib:12): same DOI',
    at the merged record's place: which entry of the user's files became part of which, and why. `aliased`: each
    alias the merged records gave, and the ids of the records that gave it. `others`: the other records of the work,
    compared with rather than the merged work, whose DOI may be this record's own (a dataset's newest version's)."""
    compared = [identity_keys(other, related=False) for other in others] if others else [identity_keys(work, related=False)]
    shared = {key.split(":", 1)[0] for key in set(identity_keys(record)) & {key for keys in compared for key in keys}}
    aliased = aliased or {}
    if shared:
        why = ", ".join(_SAME[kind] for kind in _SAME if kind in shared)
    elif record.id in aliased:
        why = f"record '{aliased[record.id][0]}' lists '{record.id}' among its aliases"
    elif work.id in record.aliases:
        why = f"it lists '{work.id}' among its aliases"
    elif shared_alias := next((a for a in record.aliases if any(i != record.id for i in aliased.get(a, ()))), None):
        why = f"both list '{shared_alias}' among their aliases"
    elif others and _same_series(release_series(record), release_series(others[0])) not in ("", ANY_SERIES):
        why = "versions of one program or dataset in one repository (a DOI each), with one title and an author in common"
    elif title_key(record.title) == title_key(work.title):
        why = f"same title, years at most {TITLE_MATCH_YEARS} apart and an author in common"
    else:
        why = "both are versions of one work"
    where = f" ({work.location.path}:{work.location.line})" if work.location.line else f" ({work.location.path})"
    return Problem(f"record '{record.id}' merged with {work.id}{where}: {why}; its id is kept as an alias", record.location, warning=True, note=True)


def work_sources(record: Record) -> tuple[str, ...]:
    """Every source a shown record came from: a merged record's `sources`, else its own origin's."""
    return record.sources or ((record.origin.source,) if record.origin else ())


# -- which records are one work ---------------------------------------------------------------------


def _works(records: list[Record]) -> list[list[int]]:
    """The positions of the records of each work, each list in input order, the lists by their first position.

    Most records meet no other: only the ones that share a key (an identifier, a title) are
    looked at twice, so that a site of 100,000 records is grouped in a fraction of a second.
    """
    works = _Works(records)
    first_with: dict[str, int] = {}
    for index, record in enumerate(records):
        for key in identity_keys(record) + [f"id:{alias}" for alias in record.aliases]:  # a key of its own .bib entry's `ids`
            first = first_with.setdefault(key, index)
            if first != index:
                works.join(first, index)
    first_titled: dict[str, int] = {}
    shared_titles: dict[str, list[int]] = {}
    for index, record in enumerate(records):
        key = title_key(unretracted_title(record.title))
        if " " in key:  # a one-word title ("Editorial", "Preface") says too little to join records by
            first = first_titled.setdefault(key, index)
            if first != index:
                shared_titles.setdefault(key, [first]).append(index)
    for indices in shared_titles.values():
        for a, b in _title_pairs(indices, records):
            if same_work_by_title(records[a], records[b]):
                works.join_if_compatible(a, b)
    return works.groups()


def _title_pairs(indices: list[int], records: list[Record]) -> Iterable[tuple[int, int]]:
    if len(indices) * (len(indices) - 1) // 2 <= TITLE_BUCKET_PAIRS:
        return combinations(indices, 2)
    by_year = sorted(indices, key=lambda i: (records[i].year, i))
    return ((a, b) for position, a in enumerate(by_year) for b in by_year[position + 1 : position + 9])


class _Works:
    """Union-find over the positions of the records that meet another; each work knows its
    published DOIs and arXiv ids (found when first needed)."""

    def __init__(self, records: list[Record]):
        self.records = records
        self.parent: dict[int, int] = {}
        self.identifiers: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
        self.series: dict[int, str] = {}  # root -> where its versions are released (see `release_series`)

    def root(self, index: int) -> int:
        parent = self.parent
        while parent.get(index, index) != index:
            parent[index] = parent.get(parent[index], parent[index])
            index = parent[index]
        return index

    def join(self, a: int, b: int) -> None:
        a, b = self.root(a), self.root(b)
        if a == b:
            return
        low, high = min(a, b), max(a, b)  # the earlier record's position names the work: deterministic
        dois, arxivs = (x | y for x, y in zip(self.published(low), self.published(high)))
        series = _same_series(self.release_series(low), self.release_series(high))
        self.parent[high] = low
        self.parent.setdefault(low, low)
        self.identifiers[low] = (dois, arxivs)
        self.series[low] = series

    def release_series(self, root: int) -> str:
        if root not in self.series:
            self.series[root] = release_series(self.records[root])
        return self.series[root]

    def published(self, root: int) -> tuple[frozenset[str], frozenset[str]]:
        """The published DOIs and the arXiv ids of the work whose root is `root`."""
        if root not in self.identifiers:
            record = self.records[root]
            self.identifiers[root] = (frozenset({published_doi(record.doi)} - {""}), frozenset({arxiv_key(record.arxiv)} - {""}))
        return self.identifiers[root]

    def join_if_compatible(self, a: int, b: int) -> None:
        """Join by title, unless that would make one work of two published versions or two preprints; the
        versions of a program or a dataset in one repository (a DOI each, as Zenodo gives every release) are one."""
        a, b = self.root(a), self.root(b)
        if a == b:
            return
        (dois_a, arxivs_a), (dois_b, arxivs_b) = self.published(a), self.published(b)
        versions = _same_series(self.release_series(a), self.release_series(b)) not in ("", ANY_SERIES)
        if (len(dois_a | dois_b) <= 1 or versions) and len(arxivs_a | arxivs_b) <= 1:
            self.join(a, b)

    def groups(self) -> list[list[int]]:
        members: dict[int, list[int]] = {}
        for index in self.parent:
            members.setdefault(self.root(index), []).append(index)
        joined = {index for group in members.values() for index in group}
        alone = ([index] for index in range(len(self.records)) if index not in joined)
        return sorted([*alone, *(sorted(group) for group in members.values())], key=lambda group: group[0])


VERSIONED_TYPES = frozenset({"software", "dataset"})  # released in versions, each with a DOI of its own
ANY_SERIES = "*"  # a program or a dataset with no DOI: a version of whichever series it joins


def release_series(record: Record) -> str:
    """Where a program's or a dataset's versions are released, each with a DOI of its own: its DOI's registrant
    ('10.5281', Zenodo's; '10.6084', figshare's); ANY_SERIES for one with no DOI; '' for any other work."""
    if (record.type or infer_type(record)) not in VERSIONED_TYPES:
        return ""
    doi = published_doi(record.doi)
    return doi.partition("/")[0] if doi else ANY_SERIES


def _same_series(a: str, b: str) -> str:
    """The series of a work made of two (`release_series`): theirs when they agree, '' when they do not."""
    if a == ANY_SERIES:
        return b
    return a if b in (a, ANY_SERIES) else ""


def _recency(record: Record) -> int:
    """Newest first among the versions of a program or a dataset (its latest release names the work); 0 for other works."""
    if (record.type or infer_type(record)) not in VERSIONED_TYPES:
        return 0
    return -(record.date.toordinal() if record.date else datetime.date(record.year or 1, 12, 31).toordinal())


def identity_keys(record: Record, related: bool = True) -> list[str]:
    """What names the work: records sharing one of these are the same work. `related`: with the DOIs of the other
    versions Crossref names (`doi_preprint`, `doi_published`): a merged work holds its preprint's as its own."""
    keys = ["id:" + record.id] if record.id else []  # a correction may name its work by arxiv or doi alone
    if record.doi:
        _add_doi_keys(record.doi, keys)
    if record.arxiv:
        keys.append("arxiv:" + arxiv_key(record.arxiv))
    ids = record.ids
    if ids:
        for name in ("doi", "doi_preprint", "doi_published") if related else ("doi",):  # Crossref's relations: another version's DOI
            if ids.get(name):
                _add_doi_keys(ids[name], keys)
        if ids.get("arxiv"):
            keys.append("arxiv:" + arxiv_key(ids["arxiv"]))
        if ids.get("openalex"):
            keys.append("openalex:" + ids["openalex"].strip().rsplit("/", 1)[-1].upper())
        if ids.get("dblp"):
            keys.append("dblp:" + ids["dblp"].strip().removeprefix("DBLP:"))
        if ids.get("pmid"):  # PubMed's id: a .nbib's record and a fetched one, or a RIS entry's AN, name one work
            keys.append("pmid:" + ids["pmid"].strip())
        if ids.get("inspire"):  # INSPIRE's record number: a .bib entry's `inspirehep_id` (al-folio's) and a fetched record
            keys.append("inspire:" + ids["inspire"].strip())
    return keys


def _add_doi_keys(doi: str, keys: list[str]) -> None:
    normal = normal_doi(doi)
    keys.append("doi:" + normal)
    arxiv_doi = ARXIV_DOI.match(normal)  # DataCite's DOI of an arXiv preprint names its arXiv id
    if arxiv_doi:
        keys.append("arxiv:" + arxiv_key(arxiv_doi.group(1)))


def normal_doi(doi: str) -> str:
    """'https://doi.org/10.5555/JDLS.2025.0142' and '10.5555/jdls.2025.0142' are one DOI."""
    return bare_doi(doi).lower()


def same_work_by_title(a: Record, b: Record) -> bool:
    """Two records with one title key: the same work when close in years and sharing an author. A correction
    or a retraction notice its source calls one (Crossref's `update-to`) is never its paper, titled alike as
    IOP's and Wiley's corrigenda are: joined, the paper would be left out as the notice (sitegen.notices)."""
    if a.year and b.year and abs(a.year - b.year) > TITLE_MATCH_YEARS:
        return False
    from sitegen.notices import notice_kind  # which imports this module's title_key

    if notice_kind(a) != notice_kind(b):  # an erratum of Zotero's and Crossref's of the same are one notice all the same
        return False
    if not a.authors or not b.authors:
        # an ORCID summary may list no one: nothing says it is another work; but two of the
        # user's own records (files or entries of their own, each with its own id) are two works
        return a.fetched or b.fetched
    names = set().union(*map(name_keys, a.authors))
    return any(not names.isdisjoint(name_keys(name)) for name in b.authors)


# how publishers retitle a retracted (or withdrawn) article: "RETRACTED: <its title>" (Elsevier), "Retracted article: ..."
RETRACTED_PREFIX = re.compile(r"^\s*(?:retracted(?:\s+article)?|withdrawn)\s*[:\-–—]\s*(?=\S)", re.IGNORECASE)


def unretracted_title(title: str) -> str:
    """The title a retracted article had before its publisher retitled it ('RETRACTED: X' -> 'X'): its preprint's,
    and the one its retraction notice names."""
    return RETRACTED_PREFIX.sub("", title, count=1)


@functools.lru_cache(maxsize=1 << 18)
def title_key(title: str) -> str:
    """The words of a title, lower-case, without accents, punctuation, LaTeX or tags, joined by single spaces.

    'Towards ${O}(1)$ Recovery', 'towards o(1) recovery' and 'Towards <i>O</i>(1) Recovery.' give one key;
    so do 'M{\\"u}ller' and 'Müller', '$\\alpha$-fair' and 'α-fair'. A hyphen, a dash or a space joins words
    alike: 'Co-designing' and 'Co designing' match. Remembered: the dev server asks again at every build.
    """
    return " ".join(_words(title))


def _words(text: str) -> list[str]:
    """The words of a text for comparing, not for showing: LaTeX is taken apart, not rendered (a build
    compares every record's title; rendering the LaTeX of 100,000 titles took seconds)."""
    if _MAY_HOLD_MARKUP.search(text):
        text = _without_markup(text)
    text = text.casefold()
    if text.isascii():
        return text.translate(_ASCII_NOT_WORD).split()
    text = "".join(map(_ascii_letters, unicodedata.normalize("NFKD", text)))
    return _NOT_WORD.sub(" ", text).split()


def _without_markup(text: str) -> str:
    if "<" in text or "&" in text:
        text = html.unescape(_TAG.sub("", text))  # <i>O</i>(1) is O(1)
    if "\\" in text:
        text = _LATEX_ACCENT.sub(_accented_letter, text)  # M\\"{u}ller, M{\\"u}ller: Muller, as Müller becomes
        text = _LATEX_LETTER.sub(lambda m: _LETTERS_OF[m.group(1)], text)
        text = _LATEX_FORMAT.sub("", _TEXT_GREEK.sub(r"\\", text))
        text = _LATEX_NAMED.sub(r" \1 ", text)  # \\alpha: alpha, as α becomes
    return text.translate(_MATH_MARKS)  # ${O}(1)$, H$_2$O: O(1), H2O


def _accented_letter(match: re.Match) -> str:
    return match.group(1) or match.group(2)


def _ascii_letters(char: str) -> str:
    """A character of NFKD text as its comparable letters: a combining accent goes, ø is o, α is alpha."""
    if char.isascii():
        return char
    if unicodedata.combining(char):
        return ""
    if char in _LETTERS:
        return _LETTERS[char]
    name = unicodedata.name(char, "")
    return f" {name.rsplit(' ', 1)[-1].lower()} " if name.startswith("GREEK") else char


@functools.lru_cache(maxsize=65536)
def name_keys(name: str) -> frozenset[str]:
    """Loose keys of an author's name: surname and first initial, read in either order.

    'Sheng Lin', 'Lin, Sheng', 'S. Lin', 'Lin Sheng' and DBLP's 'Sheng Lin 0003' share 'lin s'.
    Looser than enrich.normalise_name on purpose: two versions of one work (a preprint, its
    published record) often spell their authors differently, and a shared key is only one
    piece of evidence beside the title and the year.
    """
    if name.count(",") == 1:  # BibTeX order: 'Lin, Sheng'
        last, first = name.split(",")
        name = f"{first} {last}"
    words = [w for w in _words(name) if not w.isdigit()]  # DBLP numbers namesakes: 'Sheng Lin 0003'
    if len(words) < 2:
        return frozenset(words)
    keys = {f"{words[-1]} {words[0][0]}", f"{words[0]} {words[-1][0]}"}  # given name first, or family name first
    return frozenset(key for key in keys if len(key.split()[0]) > 1)  # an initial is no surname


# -- one record from the records of one work ---------------------------------------------------------


def merged_record(members: list[Record]) -> Record:
    """The record shown for one work. `members`: its records in input order (which settles ties)."""
    ranked = sorted(members, key=_rank)
    corrections = [r for r in ranked if _is_correction(r)]
    lead = min(members, key=_lead_rank)  # whose id, file and lines the record keeps
    authors_from = _authors_record(ranked)
    year, date = _year_and_date(ranked, corrections)
    venue_from = _venue_record(ranked)
    preprints = _preprint_versions(ranked)
    doi_apart = any(is_preprint_doi(r.doi) and not ARXIV_DOI.match(bare_doi(r.doi or "")) for r in ranked)  # bioRxiv's beside a journal's
    doi_apart = doi_apart or len({published_doi(r.doi) for r in ranked} - {""}) > 1  # a dataset's versions: a DOI each, all kept
    values: dict[str, Any] = {
        "id": _given(corrections, "id", lead.id or _first(r.id for r in sorted(members, key=_lead_rank))),
        "title": _given(corrections, "title", with_capitals(_first(r.title for r in ranked), [r.title for r in ranked])),
        "authors": _given(corrections, "authors", authors_from.authors if authors_from else ()),
        "year": year,
        "date": date,
        "source": _given(corrections, "source", _venue_name(venue_from, ranked)),
        "abstract": _given(corrections, "abstract", _first(r.abstract for r in ranked)),
        "categories": _given(corrections, "categories", _union(r.categories for r in ranked)),
        "arxiv": _given(corrections, "arxiv", _first(r.arxiv for r in ranked) or None),
        "doi": _given(corrections, "doi", _best_doi(ranked, _best_type(ranked, venue_from))),
        "hidden": _given(corrections, "hidden", any(r.hidden for r in ranked)),
        "featured": _given(corrections, "featured", any(r.featured for r in ranked)),
        "award": _given(corrections, "award", _first(r.award for r in ranked)),
        "image": _given(corrections, "image", _first(r.image for r in ranked)),
        "image_alt": _given(corrections, "image_alt", _first(r.image_alt for r in ranked)),
        "language": _given(corrections, "language", _first(r.language for r in ranked)),
        "venue_short": _given(corrections, "venue_short", _first([venue_from.venue_short if venue_from else "", *(r.venue_short for r in ranked)])),
        "type": _given(corrections, "type", _best_type(ranked, venue_from)),
        "citations": _given(corrections, "citations", max((r.citations for r in ranked if r.citations is not None), default=None)),
        "links": merge_mappings([_with_doi(r.links, r, doi_url, doi_apart) for r in ranked], [r.links for r in corrections if "links" in r.given], preprints),
        "ids": merge_mappings([_with_doi(r.ids, r, bare_doi, doi_apart) for r in ranked], [r.ids for r in corrections if "ids" in r.given], preprints),
        "extra": _extra(ranked, corrections, venue_from, authors_from),
        "sources": tuple(sorted({r.origin.source for r in members if r.origin} | {s for r in members for s in r.sources})),
    }
    if (published := values["ids"].get("doi_published")) and _comparable(published) in _values_of(values["ids"], "doi"):
        values["ids"] = {name: value for name, value in values["ids"].items() if name != "doi_published"}  # it is the work's own
    work_id = values["id"]
    # each record's id (of the user's own files) and the aliases it gives, best record first: a work read back from
    # publications.bib, whose `ids` holds them all, lists them in the same order
    own = [alias for r in ranked for alias in ([r.id] if not r.fetched and r.id else []) + list(r.aliases)]
    values["aliases"] = tuple(dict.fromkeys(alias for alias in own if alias != work_id))
    values["merged_ids"] = tuple(sorted({r.id for r in members if r.id and r.id != work_id}))
    values["first_id"] = min((r for r in members if r.id), key=lambda r: (r.date or datetime.date(r.year or 9999, 12, 31), r.id), default=lead).id or ""
    keys = [r.source_key for r in ranked]  # in rank order: the same work gives the same key, whatever the file order
    return dataclasses.replace(
        lead,
        **values,
        places=_places(lead, ranked, values),
        given=tuple(sorted({name for r in members for name in r.given})),
        source_key="+".join(keys) if all(keys) else "",
        missing=tuple(name for name in lead.missing if not values.get(name)),
    )


# the text fields a warning may be about (LaTeX that cannot be shown), and the line of a literal block's text
_PLACED_FIELDS = ("title", "authors", "source", "abstract")


def _places(lead: Record, ranked: list[Record], values: dict[str, Any]) -> dict[str, Location]:
    """Where each text field the work took from another record than `lead` (whose file and lines it keeps) is written:
    a warning about the arXiv abstract of a work whose lead is its MathSciNet entry names the arXiv file, not the .bib."""
    places: dict[str, Location] = {}
    for name in _PLACED_FIELDS:
        value = values[name]
        provider = next((r for r in ranked if value and getattr(r, name) == value), None)
        if provider is None or provider is lead or getattr(lead, name) == value or (where := provider.where(name)) is None:
            continue
        places[name] = where
        if (first := provider.lines.get(name + TEXT_LINE)) is not None:
            places[name + TEXT_LINE] = Location(where.path, first)
    return places


_WORD_PART = re.compile(r"[^\W_]+")  # a word, or one part of a hyphenated one ("Galvatron-BMW")


def with_capitals(title: str, others: list[str]) -> str:
    """`title` with the capitals of another version's title that differs from it only in letter case, where that
    one writes a word (or a part of a hyphenated one) with a capital after its first letter: Google Scholar's
    export lower-cases acronyms ('Lobra', 'long-context llm training', 'Galvatron-bmw'), which Crossref, arXiv and
    dblp write 'LobRA', 'LLM', 'BMW'. A title's own case otherwise stays (its sentence case, its title case)."""
    for other in others:
        if other == title or other.casefold() != title.casefold():
            continue
        parts = _WORD_PART.findall(other)
        if len(parts) != len(_WORD_PART.findall(title)):
            continue
        pieces = _WORD_PART.split(title)  # the text between the words, around them
        words = [_capitalised(own, theirs) for own, theirs in zip(_WORD_PART.findall(title), parts, strict=True)]
        title = "".join(piece + word for piece, word in zip(pieces, [*words, ""], strict=True))
    return title


def _capitalised(own: str, other: str) -> str:
    """`other`'s letters when it writes a capital after its first letter and `own` does not: an acronym."""
    if other != own and any(c.isupper() for c in other[1:]) and not any(c.isupper() for c in own[1:]):
        return other
    return own


def _with_doi(mapping: dict[str, str], record: Record, form: Callable[[str], str], doi_apart: bool) -> dict[str, str]:
    """A version's links (or ids) with its DOI when they lack it and a version has a preprint server's DOI, so that a
    bioRxiv preprint's DOI stays beside its journal version's (`doi_preprint`), or the versions have DOIs of their
    own, so that an older release's DOI (Zenodo's, a paper cites the version it used) stays as "DOI 2"; arXiv's
    DataCite DOI is not added: the arXiv id names that version."""
    if not doi_apart or not record.doi or "doi" in mapping or ARXIV_DOI.match(bare_doi(record.doi)):
        return mapping
    return {**mapping, "doi": form(record.doi)}


def _source_of(record: Record) -> str:
    return record.origin.source if record.origin else "yaml"


def _is_correction(record: Record) -> bool:
    """A hand-written YAML record: each field it sets wins, as the user wrote it."""
    return not record.fetched and _source_of(record) == "yaml"


def _is_preprint(record: Record) -> bool:
    return is_preprint_venue(record.source) or (record.type or infer_type(record)) == "preprint"


def _rank(record: Record) -> tuple:
    """Best first: corrections, then published versions, then by source, then the record that gives more fields;
    then by file and place, for ties."""
    order = source_rank(_source_of(record))
    recency = _recency(record)
    return (not _is_correction(record), _is_preprint(record), order, recency, -len(record.given), record.location.path, record.location.line or 0, record.id)


def _lead_rank(record: Record) -> tuple:
    """The record whose id the work keeps: a hand-written one, else arXiv's, so that adding
    a source does not move a page fetched from arXiv (its id is the arXiv id); among a program's versions the
    oldest, so that a new release does not move the page either. Among the user's own files of one standing, an
    entry whose id is a citation key (a .bib entry's) before a fuller one whose id is none (a .ris entry's): the
    work keeps that key, so that the user's `\\cite{key}` goes on working with BibTeX, which reads no `ids`."""
    rank = _rank(record)
    cite_key_last = record.fetched or not keeps_cite_keys(_source_of(record))
    return (record.fetched, _source_of(record) != "arxiv", -_recency(record), *rank[:3], cite_key_last, *rank[3:])


def _given(corrections: list[Record], name: str, otherwise: Any) -> Any:
    for record in corrections:
        if name in record.given:
            return getattr(record, name)
    return otherwise


def _first(values: Iterable[Any]) -> Any:
    return next((value for value in values if value), "")


def _union(lists: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for items in lists:
        for item in items:
            seen.setdefault(item.casefold(), item)
    return tuple(seen.values())


def _authors_record(ranked: list[Record]) -> Record | None:
    """The record whose author list the work shows: the user's own (a .bib entry's, a Markdown
    file's) before any fetched one, since a service may list a preprint's authors where the
    published version has others; then the longest, full names before initials ('Sheng Lin' over
    'S. Lin'), the best ranked of equals. A list that ends in 'and others' says it is not whole:
    it is taken only when no other record has a whole list."""
    with_authors = [r for r in ranked if r.authors]
    whole = [r for r in with_authors if not r.extra.get("et_al")] or with_authors
    if not whole:
        return None
    return min(whole, key=lambda r: (r.fetched, -len(r.authors), -sum(map(_has_given_name, r.authors)), ranked.index(r)))


def _has_given_name(name: str) -> bool:
    first = name.split(",", 1)[1] if name.count(",") == 1 else name
    words = first.split()
    return bool(words) and len(words[0].rstrip(".")) > 1


def _year_and_date(ranked: list[Record], corrections: list[Record]) -> tuple[int, Any]:
    """The year of the best version, and its date: a published version's date is not its preprint's."""
    date = _given(corrections, "date", None)
    year = _given(corrections, "year", 0) or (date.year if date else 0)
    dated_by = next((r for r in ranked if r.year), None)
    if not year:
        year = dated_by.year if dated_by else 0
    if date is None or date.year != year:
        preprint = dated_by is not None and _is_preprint(dated_by)
        date = next((r.date for r in ranked if r.date and r.date.year == year and _is_preprint(r) == preprint), None)
    return year, date


def _venue_record(ranked: list[Record]) -> Record | None:
    """Where the work was published: never a preprint server when a published venue is known."""
    with_venue = [r for r in ranked if r.source]
    return next((r for r in with_venue if not is_preprint_venue(r.source)), with_venue[0] if with_venue else None)


def _venue_name(venue_from: Record | None, ranked: list[Record]) -> str:
    """The venue's name as the record that named it writes it, but in the capitals of another record that writes
    the same name with more of them: a journal's or a meeting's name is a proper name, which Google Scholar's export
    writes in lower case ('Advances in neural information processing systems', 'Proceedings of the AAAI conference
    on artificial intelligence') and Crossref, arXiv and dblp in its own."""
    if venue_from is None:
        return ""
    name = venue_from.source
    alike = [r.source for r in ranked if r.source != name and r.source.casefold() == name.casefold()]
    return max([name, *alike], key=lambda text: sum(c.isupper() for c in text))


def _best_doi(ranked: list[Record], work_type: str) -> str | None:
    """The published version's DOI before arXiv's DataCite one; none when the work is published (a conference paper
    that has no DOI of its own, with its CoRR preprint) and only its preprint has one: the preprint's DOI would name
    the preprint where the work is cited (the arXiv id, a bioRxiv DOI as `doi_preprint`, still name it)."""
    dois = [bare_doi(r.doi) for r in ranked if r.doi]
    published = next((doi for doi in dois if published_doi(doi)), None)
    if published or work_type not in ("", "preprint"):
        return published
    return dois[0] if dois else None


def _best_type(ranked: list[Record], venue_from: Record | None) -> str:
    """The type of the record that named the venue; else a published version's, a specific one
    before 'other'; 'preprint' when every version is one; '' when no record says."""
    if venue_from is not None and venue_from.type and not is_preprint_venue(venue_from.source):
        return venue_from.type
    published = [r.type for r in ranked if r.type and not _is_preprint(r)]
    if published:
        return next((t for t in published if t != "other"), published[0])
    return "preprint" if any(r.type == "preprint" for r in ranked) else ""


def merge_mappings(ranked: list[dict[str, str]], corrections: list[dict[str, str]], preprints: list[bool] | None = None) -> dict[str, str]:
    """Key by key: a correction's value replaces the others'; otherwise the best record's, and
    a different value of a later record is kept too: a preprint's beside a published version's as
    `name_preprint` (`preprints`: which of `ranked` are preprint versions), another as `name_2`,
    `name_3`, so that a reader can tell a preprint's PDF, DOI or OpenAlex page from the published one's.
    A value given already is not kept twice, in any case or form of its address (http, www., a trailing /)."""
    merged: dict[str, str] = {}
    for mapping in corrections:
        for name, value in mapping.items():
            merged.setdefault(name, value)
    corrected = set(merged)
    versions = preprints if preprints and not all(preprints) else [False] * len(ranked)  # only preprints: none is "the preprint"
    for mapping, preprint in zip(ranked, versions, strict=True):
        for name, value in mapping.items():
            if name in corrected or _comparable(value) in _values_of(merged, name):
                continue
            merged[free_key(merged, f"{name}_preprint" if preprint and name in merged else name)] = value
    return merged


_URL_FORM = re.compile(r"^https?://(?:www\.|dx\.)?")  # dx.doi.org is doi.org


def _comparable(value: object) -> str:
    return _URL_FORM.sub("", str(value).strip().casefold()).rstrip("/")


def _values_of(merged: dict[str, str], name: str) -> set[str]:
    """The values already kept under `name`, `name_2`, `name_preprint`, ... (`_comparable`: a DOI is one DOI in any case)."""
    kept = re.compile(rf"{re.escape(name)}(?:_preprint)?(?:_\d+)?")
    return {_comparable(value) for key, value in merged.items() if kept.fullmatch(key)}


def _same_publication(record: Record, venue_from: Record) -> bool:
    """Does `record` describe the publication `venue_from` names (so that its volume, number, ISSN are that one's)?
    A published version with the same DOI, or naming the same venue; a preprint never."""
    if _is_preprint(record):
        return False
    doi = published_doi(record.doi)
    if doi and doi == published_doi(venue_from.doi):
        return True
    return bool(record.source) and title_key(record.source) == title_key(venue_from.source)


def _preprint_versions(ranked: list[Record]) -> list[bool]:
    return [_is_preprint(record) for record in ranked]


# what the arXiv fetcher says of the version arXiv serves: not of the published version a preprint is merged with
# (BibTeX's `version = {5}` of a journal article, a paper marked "Withdrawn" when a journal asked for its preprint's
# withdrawal)
ARXIV_VERSION_FIELDS = frozenset({"version", "updated", "withdrawn"})


def _extra(ranked: list[Record], corrections: list[Record], venue_from: Record | None, authors_from: Record | None) -> dict[str, Any]:
    """Unknown fields key by key, best record first; details of a venue from the record that named it, then from
    the other records of that publication (`_same_publication`), never from another version's."""
    merged: dict[str, Any] = {}
    published = any(not _is_preprint(r) and _source_of(r) != "arxiv" for r in ranked)
    for record in ranked:
        of_arxiv = published and _source_of(record) == "arxiv"  # its revision and withdrawal are no published paper's
        for name, value in record.extra.items():
            if name not in VENUE_DETAILS and not (of_arxiv and name in ARXIV_VERSION_FIELDS):
                merged.setdefault(name, value)
    if venue_from is None:
        of_the_venue = ranked[:1]
    else:
        of_the_venue = [venue_from, *(r for r in ranked if r is not venue_from and _same_publication(r, venue_from))]
        # the record that carries the publication's DOI (the publisher's deposit) before one without: Google Scholar's
        # export gives no DOI and a placeholder for pages it does not know (`pages={1}`, `{1--14}`)
        of_the_venue.sort(key=lambda r: not published_doi(r.doi))
    for record in of_the_venue:
        for name, value in record.extra.items():
            if name in VENUE_DETAILS:
                merged.setdefault(name, value)
    merged.pop("et_al", None)
    if authors_from is not None and authors_from.extra.get("et_al"):
        merged["et_al"] = True
    for record in reversed(corrections):  # a correction's own extras win, the best correction's most
        merged.update(record.extra)
    return merged
