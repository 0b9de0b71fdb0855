"""OpenAlex as a fetcher: the works of an author id, or of a name once the user says which author.

`/authors/{id}` (is the id known? the owner's names), then
`/works?filter=author.id:{id}` paged by cursor, 200 works a page, with `select`
naming only the fields a record uses. `mailto` is sent when profile.yaml has an
e-mail address (OpenAlex's polite pool). A name (`--openalex-name`) is looked
up with `/authors?search=`; when several authors carry it, each is described
(affiliation, years, works, top co-authors from a sample of their works) and
the user picks one: works of namesakes are never merged.

pyalex (the OpenAlex client) builds every query URL with the host
`api.openalex.org` written into it (its `config.openalex_url` is read only for
n-grams), mounts its retries for https:// only, and sets no timeout: it cannot
be pointed at a test server, nor made to retry a cut-off page. The few URL
templates here run on the shared polite session instead.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sitegen.fetch import Ask, FetchContext, Fetched, one_line, text_from_markup, where_asked
from sitegen.record_types import doi_url
from sitegen.sources import DERIVED, Fetcher, FetchOption, register_fetcher
from sitegen.sources.crossref import arxiv_from_doi, bare_doi

if TYPE_CHECKING:
    import requests

    from sitegen.disambiguate import Candidate
    from sitegen.sources.http import Answer, PoliteSession, Shape

NAME = "openalex"
LABEL = "OpenAlex"
ENV_API_URL = "SITEGEN_OPENALEX_API"
DEFAULT_API_URL = "https://api.openalex.org"
DEFAULT_DELAY = 0.1  # OpenAlex allows 10 requests a second
PER_PAGE = 200  # OpenAlex's largest page
SAMPLE = 50  # works read to describe a namesake
AUTHORSHIPS_IN_LISTS = 100  # OpenAlex's lists of works cut a work's authorships here (its `is_authors_truncated`, not among the fields selected)
AUTHOR_ID = re.compile(r"^A\d+$")
# what each answer must hold (sitegen.sources.http.expect_shape): a proxy's page or an error document is no list of works
AUTHOR: Shape = {}
WORK: Shape = {"id": str}
LISTING: Shape = {"results": list, "results[]": dict}
WORKS_PAGE: Shape = {**LISTING, "meta": dict}
ARXIV_URL = re.compile(r"^https?://arxiv\.org/(abs|pdf)/(?P<id>[^?#]+?)(v\d+)?(\.pdf)?$")
WORK_FIELDS = (
    "id,doi,title,display_name,publication_year,publication_date,ids,type,type_crossref,authorships,"
    "primary_location,locations,cited_by_count,abstract_inverted_index,biblio,is_retracted"
)
TYPES = {  # OpenAlex (and Crossref) work types -> SPEC §7 record types
    "article": "article",
    "journal-article": "article",
    "proceedings-article": "inproceedings",
    "preprint": "preprint",
    "posted-content": "preprint",
    "dissertation": "thesis",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "book-chapter": "chapter",
    "reference-entry": "chapter",
    "report": "report",
    "standard": "report",
    "dataset": "dataset",
    "software": "software",
    "patent": "patent",
}


NOTICE_TYPES = {"erratum": "correction", "retraction": "retraction"}  # OpenAlex's types of notices (sitegen.notices)


def normalise_author_id(value: str) -> str:
    """'https://openalex.org/A5104738206' or 'a5104738206' -> 'A5104738206'."""
    text = value.strip().rstrip("/").rsplit("/", 1)[-1].upper()
    if not AUTHOR_ID.match(text):
        raise ValueError(f"{value!r} is not an OpenAlex author id (like A5104738206); to find one by name, use --openalex-name")
    return text


def short_id(url: str | None) -> str:
    return str(url or "").rstrip("/").rsplit("/", 1)[-1]


def abstract_text(inverted: dict[str, list[int]] | None) -> str:
    """OpenAlex keeps abstracts as word -> positions; put the words back in order."""
    if not inverted:
        return ""
    placed = sorted((position, word) for word, positions in inverted.items() for position in positions)
    return " ".join(word for _, word in placed)


def _arxiv_id(work: dict[str, Any]) -> str | None:
    found = arxiv_from_doi(bare_doi(work.get("doi")))
    if found:
        return found
    for location in [work.get("primary_location") or {}, *(work.get("locations") or [])]:
        match = ARXIV_URL.match(str((location or {}).get("landing_page_url") or ""))
        if match:
            return match.group("id")
    return None


_HOST = re.compile(r"\s*\([^()]*\)$")  # "Zenodo (CERN European Organization for Nuclear Research)": a repository's host


def _venue(work: dict[str, Any], arxiv: str | None) -> str:
    found = (work.get("primary_location") or {}).get("source") or {}
    source = found.get("display_name") or ""
    if arxiv and (not source or source.lower().startswith("arxiv")):
        return "arXiv"
    if found.get("type") == "repository":  # named as readers and citations name it: "Zenodo"
        source = _HOST.sub("", source) or source
    return one_line(source)


def record_from_work(work: dict[str, Any]) -> dict[str, Any]:
    """An OpenAlex work as a record mapping."""
    import datetime

    work_id = short_id(work.get("id"))
    doi = bare_doi(work.get("doi"))
    arxiv = _arxiv_id(work)
    authors = [one_line((a.get("author") or {}).get("display_name") or a.get("raw_author_name") or "") for a in work.get("authorships") or []]
    record: dict[str, Any] = {
        "id": work_id,
        "title": one_line(text_from_markup(work.get("title") or work.get("display_name") or "")),
        "authors": [a for a in authors if a],
        "year": work.get("publication_year"),
    }
    if work.get("is_authors_truncated") is True or len(authors) >= AUTHORSHIPS_IN_LISTS:
        record["et_al"] = True  # the first 100 of a collaboration's thousands: cited "et al.", and a whole list merged in wins
    if work.get("publication_date"):
        try:
            record["date"] = datetime.date.fromisoformat(work["publication_date"])
        except ValueError:
            pass
    venue = _venue(work, arxiv)
    if venue:
        record["source"] = venue
    abstract = abstract_text(work.get("abstract_inverted_index"))
    if abstract:
        record["abstract"] = abstract
    kind = work.get("type_crossref") if work.get("type") == "article" else work.get("type")
    record["type"] = TYPES.get(str(kind or ""), "other")
    if work.get("type") in NOTICE_TYPES:  # a correction or a retraction notice: the work it concerns links to it
        record["notice"] = NOTICE_TYPES[work["type"]]
    if work.get("is_retracted") is True:
        record["retracted"] = True
    if isinstance(work.get("cited_by_count"), int):
        record["citations"] = work["cited_by_count"]
    record["links"] = _links(work, work_id, doi, arxiv)
    if doi:
        record["doi"] = doi
    if arxiv:
        record["arxiv"] = arxiv
    ids = {"openalex": work_id, **({"doi": doi} if doi else {}), **({"arxiv": arxiv} if arxiv else {})}
    for key, value in (work.get("ids") or {}).items():
        if key not in ("openalex", "doi") and value:
            ids.setdefault(key, short_id(value) if str(value).startswith("http") else str(value))
    record["ids"] = ids
    biblio = work.get("biblio") or {}
    for key in ("volume", "issue"):
        if biblio.get(key):
            record[key] = str(biblio[key])
    if biblio.get("first_page"):
        record["pages"] = "-".join(str(biblio[k]) for k in ("first_page", "last_page") if biblio.get(k))
    return record


def _links(work: dict[str, Any], work_id: str, doi: str | None, arxiv: str | None) -> dict[str, str]:
    links = {}
    if arxiv:
        links["abs"] = f"https://arxiv.org/abs/{arxiv}"
    if doi:
        links["doi"] = doi_url(doi)
    pdf = (work.get("primary_location") or {}).get("pdf_url")
    if pdf and str(pdf).startswith(("https://", "http://")):
        links["pdf"] = pdf
    links["openalex"] = f"https://openalex.org/{work_id}"
    return links


def works_of(session: PoliteSession, api: str, author: str, params: dict[str, str], progress: Any, limit: int | None = None) -> list[dict[str, Any]]:
    """An author's works, every cursor page (or the first `limit` works)."""
    works: dict[str, dict[str, Any]] = {}
    cursor: str | None = "*"
    page, per_page = 0, min(PER_PAGE, limit or PER_PAGE)
    while cursor:
        page += 1
        answer = session.fetch(
            f"{api}/works",
            f"OpenAlex works of {author} (page {page})",
            params={"filter": f"author.id:{author}", "per-page": str(per_page), "cursor": cursor, "select": WORK_FIELDS, **params},
            shape=WORKS_PAGE,
        )
        results = answer["results"]
        for work in results:
            works.setdefault(short_id(work.get("id")), work)
        total = answer["meta"].get("count")
        if limit is None:
            progress.line(f"OpenAlex: works of {author}: page {page}, {len(works)} of {total}")
        cursor = answer["meta"].get("next_cursor")
        if not results or (limit is not None and len(works) >= limit):
            break
    return list(works.values())


def owner_names(author: dict[str, Any]) -> list[str]:
    return [one_line(n) for n in dict.fromkeys([author.get("display_name"), *(author.get("display_name_alternatives") or [])]) if n]


def candidate(session: PoliteSession, api: str, author: dict[str, Any], params: dict[str, str], progress: Any) -> Candidate:
    """What tells this author from namesakes: affiliation, years, works, top co-authors."""
    from sitegen.disambiguate import Candidate, name_key

    author_id = short_id(author.get("id"))
    sample = works_of(session, api, author_id, params, progress, limit=SAMPLE)
    own = {name_key(n) for n in owner_names(author)}
    coauthors: Counter[str] = Counter()
    for work in sample:
        for authorship in work.get("authorships") or []:
            name = one_line((authorship.get("author") or {}).get("display_name") or "")
            if name and name_key(name) not in own:
                coauthors[name] += 1
    years = sorted(
        {c["year"] for c in author.get("counts_by_year") or [] if c.get("works_count")} | {w["publication_year"] for w in sample if w.get("publication_year")}
    )
    institutions = author.get("last_known_institutions") or [a.get("institution") or {} for a in author.get("affiliations") or []]
    affiliation = ", ".join(one_line(i.get("display_name")) for i in institutions[:2] if i and i.get("display_name"))
    return Candidate(
        author_id,
        one_line(author.get("display_name") or ""),
        affiliation,
        f"{years[0]}–{years[-1]}" if years else "",
        author.get("works_count"),
        [name for name, _ in coauthors.most_common(5)],
    )


def find_author(session: PoliteSession, api: str, name: str, params: dict[str, str], context: FetchContext) -> str | None:
    """The id of the author called `name`: the only match, or the one the user picks; None when nobody has
    that name (a search that finds nothing is no failure: `fetch` says so)."""
    from sitegen.disambiguate import candidate_lines, name_key

    answer = session.fetch(f"{api}/authors", f"OpenAlex author search {name!r}", params={"search": name, "per-page": "25", **params}, shape=LISTING)
    wanted = name_key(name)
    found = [a for a in answer["results"] if any(name_key(n) == wanted for n in owner_names(a))]
    if not found:
        return None
    if len(found) == 1:
        context.progress.line(f"OpenAlex: {name!r} is {short_id(found[0].get('id'))} (the only author of that name)")
        return short_id(found[0].get("id"))
    candidates = [candidate(session, api, a, params, context.progress) for a in found]
    lines = candidate_lines("OpenAlex", name, candidates, "--openalex", "openalex")
    return context.choose(NAME, candidates, lines)


def fetch(asks: list[Ask], context: FetchContext) -> Fetched:
    """Asks: `author` (an id, checked already), `name` (a name to look up) and `doi` (a repository's DataCite DOI,
    which Crossref does not hold: `sitegen.fetch.routed`)."""
    from sitegen.sources.http import PoliteSession

    settings = context.settings(NAME, ENV_API_URL, DEFAULT_API_URL, DEFAULT_DELAY, page_size=PER_PAGE)
    session = PoliteSession(settings, context.progress, LABEL)
    api, params = settings.api_url, ({"mailto": context.mailto} if context.mailto else {})
    result = Fetched(records=[])
    authors = {a.value: where_asked(asks, a.value, "author") for a in asks if a.kind == "author"}
    for ask in (a for a in asks if a.kind == "name"):
        found = find_author(session, api, ask.value, params, context)
        if found is None:
            result.answered(f"OpenAlex author search {ask.value!r}", ask.where, 0, "nobody of that name (check the spelling, or give the id with --openalex)")
        else:
            authors.setdefault(found, ask.where)
    seen: set[str] = set()
    for ask in _first_of_each_doi(asks):
        work = session.fetch(f"{api}/works/doi:{quote(ask.value, safe='/')}", f"OpenAlex DOI {ask.value}", params=params, judge=judge_work, shape=WORK)
        if work is None:
            result.warnings.append(
                f"warning: OpenAlex does not know DOI {ask.value} ({ask.where}); left out, the other records are written "
                "(check the DOI at https://doi.org/, or write its record by hand under content/records/)"
            )
        elif short_id(work.get("id")) not in seen:
            seen.add(short_id(work.get("id")))
            result.records.append(record_from_work(work))
            context.progress.line(f"OpenAlex: DOI {ask.value}")
    for author_id, where in authors.items():
        author = session.fetch(f"{api}/authors/{author_id}", f"OpenAlex author {author_id}", params=params, shape=AUTHOR)
        result.owner_names += owner_names(author)
        works = works_of(session, api, author_id, params, context.progress)
        result.answered(f"OpenAlex works of {author_id}", where, len(works))
        for work in works:
            if short_id(work.get("id")) not in seen:
                seen.add(short_id(work.get("id")))
                result.records.append(record_from_work(work))
    result.requests = session.requests_sent
    return result


def _first_of_each_doi(asks: list[Ask]) -> list[Ask]:
    """The first ask of each DOI (case ignored), in the order asked."""
    first: dict[str, Ask] = {}
    for ask in asks:
        if ask.kind == "doi":
            first.setdefault(ask.value.lower(), ask)
    return list(first.values())


def judge_work(response: requests.Response) -> Answer:
    """OpenAlex's answer for one work by DOI. Its 404 for a DOI it does not hold is an answer (no work, `data`
    None), not a failure of the service: a mistyped DOI must not keep every other record from being refreshed."""
    from sitegen.sources.http import Answer, judge_json

    if response.status_code == 404:
        return Answer(True, data=None)
    return judge_json(response)


register_fetcher(
    Fetcher(
        NAME,
        fetch,
        rank=DERIVED,
        label="OpenAlex",
        api_env=ENV_API_URL,
        options=(
            FetchOption(
                "--openalex",
                "author",
                "AUTHOR_ID",
                "OpenAlex: the works of this author (A5104738206); repeatable",
                profile_key="openalex",
                person_key=True,
                check=normalise_author_id,
            ),
            FetchOption("--openalex-name", "name", "NAME", "OpenAlex: find the author by name (asks which one when several match)"),
        ),
    )
)
