"""INSPIRE-HEP as a fetcher: the literature of a high-energy physicist, by their INSPIRE author identifier or ORCID iD.

High-energy physicists keep their publication list in INSPIRE (inspirehep.net) rather than arXiv or ORCID: it
holds their conference papers, theses and the collaboration papers they sign (ATLAS, CMS: 3,000 authors), with the
citation counts they quote. `/api/literature?q=a E.Witten.1` (the author's BAI) or `q=authors.ids.value:0000-...` (an ORCID iD signing a record: the
query language passes a field it has no keyword for to the index as it is) finds them,
`fields=` keeps the answer to what a record needs, and `links.next` leads from page to page (INSPIRE's REST API,
https://github.com/inspirehep/rest-api-doc).

INSPIRE allows 15 requests in 5 seconds from one address and answers 429 beyond, which the shared polite session
retries after its Retry-After; requests go one at a time, DEFAULT_DELAY apart.

A collaboration's list of thousands of names is written as the first of them and `et_al: true`, as INSPIRE's own
BibTeX writes `and others` with `collaboration = "ATLAS"`: the site names the collaboration after the authors, and a
whole list of another source (a `.bib` file's) wins when the records merge. The owner's name is kept when it stands
among the first OWNER_REACH, so that the owner of a small collaboration's paper is still highlighted.

No client library: none on PyPI is maintained for the REST API, and one JSON search is read here.
"""

from __future__ import annotations

import datetime
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from sitegen.fetch import Ask, FetchContext, Fetched, counted, one_line, where_asked
from sitegen.model import LISTED_AUTHORS_FIRST, LISTED_AUTHORS_UNCUT
from sitegen.record_types import doi_url
from sitegen.sources import LIBRARY, Fetcher, FetchOption, register_fetcher

if TYPE_CHECKING:
    from sitegen.sources.http import PoliteSession, Shape

NAME = "inspire"
LABEL = "INSPIRE"
ENV_API_URL = "SITEGEN_INSPIRE_API"
DEFAULT_API_URL = "https://inspirehep.net/api"
DEFAULT_DELAY = 0.34  # INSPIRE: at most 15 requests in 5 seconds from one address
PAGE_SIZE = 25  # records per page: a collaboration's record alone holds thousands of authors
MAX_PAGE_SIZE = 1000  # INSPIRE answers 400 above
OWNER_REACH = 100  # a long list is cut after the owner when they stand among the first this many
# the fields of a literature record the mapping reads (INSPIRE's `hep` schema), so that an answer holds nothing else
FIELDS = (
    "control_number,titles,abstracts,authors.full_name,authors.ids,authors.inspire_roles,collaborations,arxiv_eprints,"
    "dois,publication_info,document_type,citation_count,texkeys,thesis_info,imprints,preprint_date,earliest_date"
)
AUTHOR_PAGE = re.compile(r"^(?:https?://(?:www\.)?inspirehep\.net/authors/)?\d+/?$", re.IGNORECASE)  # its number: no identifier
SEARCH: Shape = {"hits": dict, "hits.hits[]": dict}
# INSPIRE's author identifier (BAI): the initials or given names, the family name, a number for namesakes; as INSPIRE's
# own query parser tells one from a name (inspire-query-parser's ElasticSearchVisitor.BAI_REGEX)
BAI = re.compile(r"^(?:[\w'\-]+\.)+\d+$")
# INSPIRE's document types -> SPEC §7 types; the first of a record's types that is known names it
TYPES = {
    "article": "article",
    "conference paper": "inproceedings",
    "thesis": "thesis",
    "book": "book",
    "book chapter": "chapter",
    "proceedings": "book",
    "report": "report",
    "note": "report",
    "activity report": "report",
}
NOT_AUTHORS = {"supervisor", "editor"}  # `inspire_roles` of names a record lists beside its authors


def normalise_author(value: str) -> str:
    """What to ask INSPIRE for: an author identifier ('E.Witten.1', as INSPIRE's author profile shows it), or an
    ORCID iD ('https://orcid.org/0000-...', its check digit checked)."""
    from sitegen.sources.orcid import looks_like_orcid, normalise_orcid

    text = one_line(value)
    if looks_like_orcid(text):
        return normalise_orcid(text)
    if BAI.match(text):
        return text
    page = AUTHOR_PAGE.match(text)
    raise ValueError(
        f"{value!r} is neither an INSPIRE author identifier (like E.Witten.1: your INSPIRE profile shows it beside your "
        "name) nor an ORCID iD (0000-0002-1825-0097)" + ("; the number of an author's INSPIRE page is neither" if page else "")
    )


def is_orcid(author: str) -> bool:
    return not BAI.match(author)


def search_query(author: str) -> str:
    """INSPIRE's query for an author (checked by `normalise_author`): `a E.Witten.1`, or `authors.ids.value:0000-...`
    (the field of a record's authors' identifiers: INSPIRE's query language has no keyword for an ORCID iD)."""
    return f"{ORCID_FIELD}:{author}" if is_orcid(author) else f"a {author}"


ORCID_FIELD = "authors.ids.value"


def literature(session: PoliteSession, api: str, author: str, page_size: int) -> list[dict[str, Any]]:
    """Every literature record INSPIRE finds for `author`, page after page by `links.next`."""
    from sitegen.sources.http import FetchError

    query = search_query(author)
    what = f"INSPIRE literature of {author}"
    params: dict[str, str] | None = {"q": query, "size": str(page_size), "page": "1", "sort": "mostrecent", "fields": FIELDS}
    url = f"{api}/literature"
    hits: list[dict[str, Any]] = []
    followed: set[str] = set()
    while True:
        page_what = what if not followed else f"{what}, page {len(followed) + 1}"
        answer = session.fetch(url, page_what, params=params, shape=SEARCH)
        page = answer["hits"]["hits"]
        hits += page
        links = answer.get("links")
        following = links.get("next") if isinstance(links, dict) else None
        if not page or not isinstance(following, str) or not following.strip() or following in followed:
            return hits
        if _site_of(following) != _site_of(api):
            raise FetchError(f"{page_what}: the next page's address leads to another site ({one_line(following)[:120]!r})")
        followed.add(following)
        url, params = following, None


def _site_of(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()


# --------------------------------------------------------------------------
# An INSPIRE literature record -> a record mapping
# --------------------------------------------------------------------------


def record_from_hit(hit: dict[str, Any], owner: str = "") -> tuple[dict[str, Any] | None, list[str]]:
    """One literature record (a search hit) as a record mapping (its id `inspire-N`), and the warnings about it;
    None when it has no title or no year. `owner`: the BAI or ORCID iD asked for, whose name a long list keeps."""
    metadata = _mapping(hit.get("metadata")) or hit
    number = str(metadata.get("control_number") or hit.get("id") or "").strip()
    if not number.isdigit():
        return None, ["warning: INSPIRE: a record without its number (control_number); left out"]
    title = _first_value(metadata.get("titles"), "title")
    year, date = _year_and_date(metadata)
    if not title or year is None:
        missing = "title" if not title else "year"
        return None, [f"warning: INSPIRE record {number}: no {missing}; left out (write its record by hand under content/records/ to show it)"]
    people = [a for a in _dicts(metadata.get("authors")) if one_line(a.get("full_name") or "")]
    authors = [a for a in people if not NOT_AUTHORS & set(_strings(a.get("inspire_roles")))]
    editors = [one_line(a["full_name"]) for a in people if "editor" in _strings(a.get("inspire_roles"))]
    kept, cut = _kept_authors(authors, owner)
    record: dict[str, Any] = {"id": f"inspire-{number}", "title": one_line(title), "authors": [one_line(a["full_name"]) for a in kept], "year": year}
    if cut:
        record["et_al"] = True
    if date is not None:
        record["date"] = date
    arxiv = _first_value(metadata.get("arxiv_eprints"), "value")
    doi = _first_value(metadata.get("dois"), "value")
    publication = _publication(metadata)
    kind = _kind(metadata, publication, doi)
    venue = _venue(metadata, publication, kind, arxiv)
    if venue:
        record["source"] = venue
    abstract = _first_value(metadata.get("abstracts"), "value")
    if abstract:
        record["abstract"] = "\n\n".join(p for p in (one_line(part) for part in re.split(r"\n\s*\n", abstract)) if p)
    categories = next((_strings(e.get("categories")) for e in _dicts(metadata.get("arxiv_eprints"))), [])
    if categories:
        record["categories"] = categories
    record["type"] = kind
    links = {}
    if arxiv:
        links["abs"] = f"https://arxiv.org/abs/{arxiv}"
        record["arxiv"] = arxiv
    if doi:
        links["doi"] = doi_url(doi)
        record["doi"] = doi
    if links:
        record["links"] = links
    record["ids"] = {"inspire": number, **({"doi": doi} if doi else {}), **({"arxiv": arxiv} if arxiv else {})}
    for field, value in (("volume", publication.get("journal_volume")), ("issue", publication.get("journal_issue")), ("pages", _pages(publication))):
        if value and str(value).strip():
            record[field] = one_line(str(value))
    if editors:
        record["editors"] = editors
    collaborations = [one_line(c) for c in (c.get("value") for c in _dicts(metadata.get("collaborations"))) if isinstance(c, str) and c.strip()]
    if collaborations:
        record["collaboration"] = " and ".join(collaborations)
    if isinstance(metadata.get("citation_count"), int) and not isinstance(metadata.get("citation_count"), bool):
        record["citations"] = metadata["citation_count"]
    orcids = {one_line(a["full_name"]): orcid for a in kept if (orcid := _author_id(a, "ORCID"))}
    if orcids:
        record["author_ids"] = orcids
    texkeys = [key for key in _strings(metadata.get("texkeys")) if re.fullmatch(r"""[^\s,{}()"#%'=\\~]+""", key)]
    if texkeys:
        record["aliases"] = texkeys  # the keys physicists cite it by (Witten:1998qj): publications.bib keeps them
    return record, []


def _kept_authors(authors: list[dict[str, Any]], owner: str) -> tuple[list[dict[str, Any]], bool]:
    """The authors written, and whether the list was cut: all of a list the pages would show whole; of a
    collaboration's, the first LISTED_AUTHORS_FIRST, or up to the owner when they stand among the first OWNER_REACH."""
    if len(authors) <= LISTED_AUTHORS_UNCUT:
        return authors, False
    at = next((i for i, author in enumerate(authors[:OWNER_REACH]) if owner and owns(author, owner)), -1)
    kept = authors[: max(LISTED_AUTHORS_FIRST, at + 1)]
    return kept, len(kept) < len(authors)


def owns(author: dict[str, Any], owner: str) -> bool:
    """Whether an author entry is the person asked for (their BAI, or their ORCID iD)."""
    return _author_id(author, "ORCID" if is_orcid(owner) else "INSPIRE BAI").casefold() == owner.casefold()


def _author_id(author: dict[str, Any], schema: str) -> str:
    return next((str(i.get("value") or "").strip() for i in _dicts(author.get("ids")) if i.get("schema") == schema), "")


def _publication(metadata: dict[str, Any]) -> dict[str, Any]:
    """The publication the record appeared in: the first of its `publication_info` naming a journal, else the first."""
    infos = _dicts(metadata.get("publication_info"))
    return next((info for info in infos if info.get("journal_title")), infos[0] if infos else {})


def _kind(metadata: dict[str, Any], publication: dict[str, Any], doi: str) -> str:
    kinds = [TYPES[k] for k in _strings(metadata.get("document_type")) if k in TYPES]
    kind = kinds[0] if kinds else "other"
    if kind == "article" and not publication.get("journal_title") and not doi and metadata.get("arxiv_eprints"):
        return "preprint"  # an article INSPIRE knows from arXiv alone
    return kind


def _venue(metadata: dict[str, Any], publication: dict[str, Any], kind: str, arxiv: str) -> str:
    journal = publication.get("journal_title")
    if isinstance(journal, str) and journal.strip():
        return spaced_journal(journal)
    if kind == "thesis":
        thesis = _mapping(metadata.get("thesis_info"))
        return one_line(_first_value(thesis.get("institutions"), "name"))
    if isinstance(publication.get("pubinfo_freetext"), str):
        return one_line(publication["pubinfo_freetext"])
    return "arXiv" if arxiv and kind == "preprint" else ""


def spaced_journal(title: str) -> str:
    """INSPIRE's journal abbreviation as its citations print it: 'Phys.Rev.Lett.' -> 'Phys. Rev. Lett.'."""
    return one_line(re.sub(r"\.(?=[^\s.])", ". ", title))


def _pages(publication: dict[str, Any]) -> str:
    """The article number (INSPIRE's `artid`, as most physics journals number papers), else the page range."""
    start, end = str(publication.get("page_start") or "").strip(), str(publication.get("page_end") or "").strip()
    if start:
        return f"{start}–{end}" if end and end != start else start
    return str(publication.get("artid") or "").strip()


def _year_and_date(metadata: dict[str, Any]) -> tuple[int | None, datetime.date | None]:
    """The year the work appeared (its journal's, else its thesis's, book's or preprint's), and its date when known."""
    thesis = _mapping(metadata.get("thesis_info"))
    published = _publication(metadata).get("year")
    dates = [
        str(value)
        for value in (thesis.get("date"), _first_value(metadata.get("imprints"), "date"), metadata.get("preprint_date"), metadata.get("earliest_date"))
        if value
    ]
    year = published if isinstance(published, int) and not isinstance(published, bool) else None
    if year is None:
        year = next((int(text[:4]) for text in dates if text[:4].isdigit()), None)
    for text in dates:
        try:
            date = datetime.date.fromisoformat(text[:10])
        except ValueError:
            continue
        if date.year == year:
            return year, date
    return year, None


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _strings(value: Any) -> list[str]:
    return [item.strip() for item in value if isinstance(item, str) and item.strip()] if isinstance(value, list) else []


def _first_value(items: Any, key: str) -> str:
    return next((str(item[key]).strip() for item in _dicts(items) if isinstance(item.get(key), (str, int)) and str(item[key]).strip()), "")


def owner_names(hits: list[dict[str, Any]], owner: str) -> list[str]:
    """The names the author asked for signs with on their records (to highlight, and for the review)."""
    names = (one_line(a.get("full_name") or "") for hit in hits for a in _dicts(_mapping(hit.get("metadata")).get("authors")) if owns(a, owner))
    return list(dict.fromkeys(name for name in names if name))


# --------------------------------------------------------------------------
# The fetcher
# --------------------------------------------------------------------------


def fetch(asks: list[Ask], context: FetchContext) -> Fetched:
    """Asks: `author`, a BAI or an ORCID iD (checked already by `normalise_author`)."""
    from sitegen.sources.http import PoliteSession

    settings = context.settings(NAME, ENV_API_URL, DEFAULT_API_URL, DEFAULT_DELAY, page_size=PAGE_SIZE, max_page_size=MAX_PAGE_SIZE)
    session = PoliteSession(settings, context.progress, LABEL)
    result = Fetched(records=[])
    seen: set[str] = set()
    for author in dict.fromkeys(a.value for a in asks if a.kind == "author"):
        hits = literature(session, settings.api_url, author, settings.page_size)
        context.progress.line(f"INSPIRE: {search_query(author)}: {counted(len(hits), 'record')}")
        result.answered(f"INSPIRE literature of {author}", where_asked(asks, author, "author"), len(hits), "no records found (is the identifier right?)")
        result.owner_names += owner_names(hits, author)
        for hit in hits:
            record, warnings = record_from_hit(hit, author)
            result.warnings += warnings
            if record is not None and record["id"] not in seen:
                seen.add(record["id"])
                result.records.append(record)
    result.owner_names = list(dict.fromkeys(result.owner_names))
    result.requests = session.requests_sent
    return result


# INSPIRE's curators check each record and take its publication from the journal (CERN's, DESY's, Fermilab's and SLAC's
# libraries): a library's record, as PubMed's; after the publisher's own deposit (Crossref), before arXiv's
register_fetcher(
    Fetcher(
        NAME,
        fetch,
        rank=LIBRARY,
        label=LABEL,
        api_env=ENV_API_URL,
        options=(
            FetchOption(
                "--inspire",
                "author",
                "BAI_OR_ORCID",
                "INSPIRE: the literature of this author (E.Witten.1, their INSPIRE identifier, or an ORCID iD); repeatable",
                profile_key=NAME,
                person_key=True,
                check=normalise_author,
            ),
        ),
    )
)
