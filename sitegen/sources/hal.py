"""HAL as a fetcher: the documents an author deposited in France's national open archive (hal.science).

French researchers must deposit their work in HAL, and their institutions build their lists from it, so many
keep their list there rather than in ORCID. An author is asked by their idHAL (`jean-dupont`, the name of
their page `cv.hal.science/jean-dupont`) or its number; a name (`--hal-name`) is looked up first among the
documents it signs, and when several idHALs sign with it the user picks one, as for OpenAlex and dblp.

HAL's search API is Solr (`/search/?q=authIdHal_s:"jean-dupont"&wt=json&fl=...`): every document in one
walk of Solr's cursor (`cursorMark=*`, then each answer's `nextCursorMark` until it stays the same), which
needs the sort to end with the unique key (`docid asc`). Only the fields a record uses are asked (`fl`).

No client library: the PyPI clients of HAL's API send their own requests outside the shared polite session
(retries, backoff, answers judged before they are read), and the API is one URL template.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sitegen.fetch import Ask, FetchContext, Fetched, counted, one_line, text_from_markup, where_asked
from sitegen.record_types import doi_url
from sitegen.sources import AUTHORS, Fetcher, FetchOption, register_fetcher
from sitegen.sources.bibtex import EPRINT_LINKS
from sitegen.sources.crossref import bare_doi

if TYPE_CHECKING:
    from sitegen.disambiguate import Candidate
    from sitegen.sources.http import PoliteSession, Shape

NAME = "hal"
LABEL = "HAL"
ENV_API_URL = "SITEGEN_HAL_API"
DEFAULT_API_URL = "https://api.archives-ouvertes.fr"
DEFAULT_DELAY = 0.2  # HAL documents no limit: five requests a second at most
ROWS = 500  # documents per cursor page
SORT = "docid asc"  # Solr's cursor needs the unique key as the sort's last tie breaker
FACET_SEPARATOR = "_FacetSep_"  # HAL's facet fields join two values with it: 'jean-dupont_FacetSep_Jean Dupont'
PAGE: Shape = {"response": dict, "response.docs": list, "response.docs[]": dict}
FIELDS = (
    "docid,halId_s,title_s,en_title_s,fr_title_s,abstract_s,en_abstract_s,fr_abstract_s,authFullName_s,"
    "authIdHalFullName_fs,docType_s,journalTitle_s,conferenceTitle_s,bookTitle_s,authorityInstitution_s,publisher_s,"
    "volume_s,issue_s,page_s,producedDateY_i,publicationDateY_i,publicationDate_s,doiId_s,arxivId_s,fileMain_s,"
    "language_s,keyword_s"
)
# an idHAL as HAL makes it: letters, digits and hyphens (no accents, apostrophes or dots; a space is a hyphen),
# an underscore let through
IDHAL = re.compile(r"^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$")
DOCUMENT_ID = re.compile(r"^[a-z]+-\d{8}(v\d+)?$")  # a document's HAL id: 'hal-01234567', 'tel-01234567v2'
CV_PAGE = re.compile(r"^(?:https?://)?(?:cv\.hal\.science|cv\.archives-ouvertes\.fr)/(?P<id>[^/?#]+)/?(?:[?#].*)?$", re.IGNORECASE)
KINDS = {  # HAL's document types (docType_s) -> SPEC §7 record types; any other is "other"
    "ART": "article",
    "COMM": "inproceedings",
    "POSTER": "inproceedings",  # a conference's poster, as HAL's own BibTeX export writes it
    "PROCEEDINGS": "book",
    "OUV": "book",
    "DOUV": "book",  # a book edited
    "COUV": "chapter",
    "THESE": "thesis",
    "HDR": "thesis",  # habilitation à diriger des recherches
    "MEM": "thesis",
    "REPORT": "report",
    "UNDEFINED": "preprint",  # HAL's "pre-publication, working paper"
    "PATENT": "patent",
    "SOFTWARE": "software",
}
LANGUAGE = re.compile(r"^[a-z]{2,3}$")  # HAL's language_s: ISO 639-1 ('fr'); 'und' and the like name none
NO_LANGUAGE = {"und", "zxx", "mul", "mis"}


def normalise_idhal(value: str) -> str:
    """An idHAL ('jean-dupont'), its number ('1234567') or its page ('https://cv.hal.science/jean-dupont')."""
    text = value.strip()
    if match := CV_PAGE.match(text):
        text = match.group("id")
    if DOCUMENT_ID.match(text):
        raise ValueError(f"{value!r} is the id of a HAL document, not an idHAL: give its author's idHAL (like jean-dupont, from cv.hal.science/jean-dupont)")
    if not IDHAL.match(text):
        raise ValueError(f"{value!r} is not an idHAL (like jean-dupont, from cv.hal.science/jean-dupont, or its number); to search HAL by name, use --hal-name")
    return text


def normalise_name(value: str) -> str:
    """A name to search HAL's documents for: some letters, on one line."""
    text = one_line(value)
    if not any(char.isalpha() for char in text):
        raise ValueError(f"{value!r} is no author's name")
    return text


def author_query(idhal: str) -> str:
    """The numeric form of an idHAL is `authIdHal_i`, the other `authIdHal_s`."""
    return f"authIdHal_i:{idhal}" if idhal.isdigit() else f'authIdHal_s:"{idhal}"'


def name_query(name: str) -> str:
    """A phrase of the authors' full names (`authFullName_t`, case and accents aside); a quote or a backslash of
    the name would end the phrase."""
    return 'authFullName_t:"' + one_line(re.sub(r'["\\]', " ", name)) + '"'


def documents(session: PoliteSession, api: str, query: str, what: str, rows: int = ROWS) -> list[dict[str, Any]]:
    """Every document `query` finds, page after page of Solr's cursor (its mark unchanged: the last page)."""
    found: list[dict[str, Any]] = []
    mark = "*"
    while True:
        params = {"q": query, "wt": "json", "fl": FIELDS, "rows": str(rows), "sort": SORT, "cursorMark": mark}
        answer = session.fetch(f"{api}/search/", what, params=params, shape=PAGE)
        found += answer["response"]["docs"]
        following = answer.get("nextCursorMark")
        if not isinstance(following, str) or following == mark or not answer["response"]["docs"]:
            return found
        mark = following


def _strings(doc: dict[str, Any], field: str) -> list[str]:
    """A field as a list of its non-empty texts: HAL gives a multi-valued field as a list, a single one as itself."""
    value = doc.get(field)
    values = value if isinstance(value, list) else [value]
    return [one_line(str(v)) for v in values if v is not None and not isinstance(v, (dict, list)) and one_line(str(v))]


def _first(doc: dict[str, Any], field: str) -> str:
    return next(iter(_strings(doc, field)), "")


def language_of(doc: dict[str, Any]) -> str:
    """The document's language as HAL records it (ISO 639-1, 'fr'); '' when it names none."""
    language = _first(doc, "language_s").lower()
    return language if LANGUAGE.match(language) and language not in NO_LANGUAGE else ""


def title_of(doc: dict[str, Any], language: str) -> str:
    """The title in the document's own language: the work's title as published and cited, which the record's
    `language` marks for screen readers; a translation (the English title of a French paper) is not the title."""
    return (_first(doc, f"{language}_title_s") if language else "") or _first(doc, "title_s")


def abstract_of(doc: dict[str, Any], language: str) -> str:
    """The abstract in the document's language (the record's `language` marks it so); an abstract HAL holds only
    in another language is left out, as the page would mark it with the wrong language."""
    if language:
        text = _first(doc, f"{language}_abstract_s")
        if not text and any(key.endswith("_abstract_s") for key in doc):
            return ""
    else:
        text = ""
    return text_from_markup(text or _first(doc, "abstract_s"))


def record_of(doc: dict[str, Any]) -> dict[str, Any]:
    """One HAL document as a record mapping, its id the HAL id ('hal-01234567', 'tel-...')."""
    hal_id = _first(doc, "halId_s")
    language = language_of(doc)
    kind = _first(doc, "docType_s").upper()
    year = doc.get("publicationDateY_i") or doc.get("producedDateY_i")
    record: dict[str, Any] = {
        "id": hal_id,
        "title": text_from_markup(title_of(doc, language)),
        "authors": _strings(doc, "authFullName_s"),
        "year": year if isinstance(year, int) and not isinstance(year, bool) else None,
        "type": KINDS.get(kind, "other"),
    }
    if (date := date_of(doc)) and date.year == record["year"]:
        record["date"] = date
    if venue := venue_of(doc, kind):
        record["source"] = venue
    if abstract := abstract_of(doc, language):
        record["abstract"] = abstract
    if language:
        record["language"] = language
    if keywords := list(dict.fromkeys(_strings(doc, "keyword_s"))):
        record["categories"] = keywords
    doi = bare_doi(_first(doc, "doiId_s"))
    arxiv = re.sub(r"(?i)^arxiv:|v\d+$", "", _first(doc, "arxivId_s")) or None
    if doi:
        record["doi"] = doi
    if arxiv:
        record["arxiv"] = arxiv
    record["links"] = links_of(hal_id, _first(doc, "fileMain_s"), doi, arxiv)
    record["ids"] = {"hal": hal_id, **({"doi": doi} if doi else {}), **({"arxiv": arxiv} if arxiv else {})}
    for field, name in (("volume_s", "volume"), ("issue_s", "issue"), ("page_s", "pages")):
        if value := _first(doc, field):
            record[name] = value
    return record


def date_of(doc: dict[str, Any]) -> datetime.date | None:
    """The day of publication when HAL knows it ('2021-06-15'; HAL writes '2021-06' or '2021' for less)."""
    try:
        return datetime.date.fromisoformat(_first(doc, "publicationDate_s"))
    except ValueError:
        return None


def venue_of(doc: dict[str, Any], kind: str) -> str:
    """Where the document appeared: the journal, the conference, the book, the thesis's university; a
    preprint's is HAL itself, as an arXiv preprint's is arXiv."""
    for field in ("journalTitle_s", "conferenceTitle_s", "bookTitle_s", "authorityInstitution_s"):
        if value := _first(doc, field):
            return value
    if kind in ("OUV", "DOUV") and (publisher := _first(doc, "publisher_s")):
        return publisher
    return "HAL" if kind == "UNDEFINED" else ""


def links_of(hal_id: str, pdf: str, doi: str | None, arxiv: str | None) -> dict[str, str]:
    """The document's page on HAL, as a .bib entry's `eprinttype = {hal}` links it (one spelling), its PDF when
    HAL holds the full text, its DOI and its arXiv page."""
    kind, address = EPRINT_LINKS["hal"]
    links = {kind: address.format(quote(hal_id, safe="/:.-_"))} if hal_id else {}  # quoted as a .bib entry's eprint is
    if pdf.startswith(("https://", "http://")):
        links["pdf"] = pdf
    if doi:
        links["doi"] = doi_url(doi)
    if arxiv:
        links["abs"] = f"https://arxiv.org/abs/{arxiv}"
    return links


def signatures(doc: dict[str, Any]) -> dict[str, str]:
    """idHAL -> the full name it signs this document with ('authIdHalFullName_fs': 'jean-dupont_FacetSep_Jean Dupont')."""
    pairs = (value.split(FACET_SEPARATOR, 1) for value in _strings(doc, "authIdHalFullName_fs") if FACET_SEPARATOR in value)
    return {idhal: name for idhal, name in pairs if idhal}


def candidates_of(name: str, docs: list[dict[str, Any]]) -> tuple[list[Candidate], int]:
    """The idHALs that sign the documents of a name search with that name, each described by those documents
    (years, how many, the most frequent co-authors), and how many of the name's documents no idHAL signs."""
    from sitegen.disambiguate import Candidate, name_key

    wanted = name_key(name)
    by_idhal: dict[str, list[dict[str, Any]]] = {}
    names: dict[str, str] = {}
    unsigned = 0
    for doc in docs:
        mine = [idhal for idhal, signed in signatures(doc).items() if name_key(signed) == wanted]
        unsigned += not mine
        for idhal in mine:
            by_idhal.setdefault(idhal, []).append(doc)
            names.setdefault(idhal, signatures(doc)[idhal])
    people = []
    for idhal, own in by_idhal.items():
        years = sorted(y for d in own if isinstance(y := d.get("publicationDateY_i") or d.get("producedDateY_i"), int))
        coauthors = Counter(a for d in own for a in _strings(d, "authFullName_s") if name_key(a) != wanted)
        people.append(
            Candidate(
                idhal,
                names[idhal],
                works=len(own),
                years=f"{years[0]}–{years[-1]}" if years else "",
                coauthors=[a for a, _ in coauthors.most_common(5)],
            )
        )
    return people, unsigned


def find_person(session: PoliteSession, api: str, name: str, context: FetchContext, result: Fetched, where: str) -> str | None:
    """The idHAL of the person called `name`: the only one that signs with it, or the one the user picks. None
    when no idHAL does: the name's documents are then the answer, namesakes' too (`result` holds them)."""
    from sitegen.disambiguate import candidate_lines

    query = name_query(name)
    docs = documents(session, api, query, f"HAL documents signed {name!r}")
    people, unsigned = candidates_of(name, docs)
    if unsigned and people:
        context.progress.line(f"HAL: no idHAL signs {counted(unsigned, 'document')} of {name!r}: HAL cannot tell whose they are")
    if len(people) == 1:
        context.progress.line(f"HAL: {name!r} is {people[0].id} (the only idHAL of that name)")
        return people[0].id
    if people:
        lines = candidate_lines(LABEL, name, people, "--hal", NAME)
        return context.choose(NAME, people, lines)
    records = [record_of(doc) for doc in docs]
    result.answered(f"HAL documents signed {name!r}", where, len(records), "no documents of that name (check the spelling, or give the idHAL with --hal)")
    if records:
        result.warnings.append(
            f"warning: HAL: no idHAL signs the {counted(len(records), 'document')} of {name!r} ({where}): a namesake's are "
            "kept too; leave one out by its id under arxiv: exclude_ids in content/profile.yaml, or give your idHAL with --hal"
        )
    result.owner_names.append(name)
    result.searched_ids |= {r["id"] for r in records}
    result.records += records
    return None


def fetch(asks: list[Ask], context: FetchContext) -> Fetched:
    """Asks: `author` (an idHAL, checked already by `normalise_idhal`) and `name` (a name to look up)."""
    from sitegen.sources.http import PoliteSession

    settings = context.settings(NAME, ENV_API_URL, DEFAULT_API_URL, DEFAULT_DELAY)
    session = PoliteSession(settings, context.progress, LABEL)
    result = Fetched(records=[])
    idhals = {a.value: where_asked(asks, a.value, "author") for a in asks if a.kind == "author"}
    for ask in (a for a in asks if a.kind == "name"):
        found = find_person(session, settings.api_url, ask.value, context, result, ask.where)
        if found is not None:
            idhals.setdefault(found, ask.where)
    for idhal, where in idhals.items():
        docs = documents(session, settings.api_url, author_query(idhal), f"HAL documents of {idhal}")
        context.progress.line(f"HAL: {idhal}: {counted(len(docs), 'document')}")
        result.answered(f"HAL documents of {idhal}", where, len(docs), "no documents (is it an idHAL? its page is cv.hal.science/<idHAL>)")
        result.owner_names += [signed for doc in docs for owner, signed in signatures(doc).items() if owner == idhal]
        result.records += [record_of(doc) for doc in docs]
    result.records = list({record["id"]: record for record in result.records if record["id"]}.values())
    result.owner_names = list(dict.fromkeys(result.owner_names))
    result.requests = session.requests_sent
    return result


# The authors' own deposit, as arXiv's (typed by them or their library, HAL's moderators checking the file rather
# than each field): after the publisher's record (Crossref) and a library's (PubMed), before what an index derives
# by machine (OpenAlex), a catalogue (dblp) and ORCID's summaries
register_fetcher(
    Fetcher(
        NAME,
        fetch,
        rank=AUTHORS,
        label=LABEL,
        api_env=ENV_API_URL,
        options=(
            FetchOption(
                "--hal",
                "author",
                "IDHAL",
                "HAL: the documents of this author's idHAL (jean-dupont, from cv.hal.science/jean-dupont, or its number); repeatable",
                profile_key=NAME,
                person_key=True,
                check=normalise_idhal,
            ),
            FetchOption(
                "--hal-name",
                "name",
                "NAME",
                "HAL: the documents of the idHAL that signs with this name (asks which one when several do); repeatable",
                check=normalise_name,
            ),
        ),
    )
)
