"""Crossref as a fetcher: works by DOI, and the works whose authors carry an ORCID iD.

`/works/{doi}` for each DOI asked (`--doi`, profile.yaml `dois:`), and
`/works?filter=orcid:{iD}` paged by cursor for each ORCID iD (`--orcid`,
`orcid:`): Crossref's own metadata of the owner's published works, with
`is-referenced-by-count` (the citation count used when OpenAlex has none).
Every request carries `mailto` (Crossref's "polite pool") when profile.yaml
has an e-mail address, and the User-Agent names it too.

Crossref's cursors are scroll ids: a page asked twice may come back as the next
page, so a listing whose count falls short of `total-results` is read again
from the start once, then reported.

habanero (the Crossref client) can be pointed at a test server (`base_url`),
but sends every request with a bare `httpx2.get`: no retries, no Retry-After,
no pause between cursor pages, and a fault in the middle of a cursor walk loses
the walk. The two URL templates here run on the shared polite session instead.
"""

from __future__ import annotations

import datetime
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sitegen.fetch import Ask, FetchContext, Fetched, one_line, text_from_markup, where_asked
from sitegen.model import free_key
from sitegen.record_types import checked_doi, doi_url, not_a_doi
from sitegen.sources import PUBLISHER, Fetcher, FetchOption, register_fetcher

if TYPE_CHECKING:
    import requests

    from sitegen.sources.http import Answer, PoliteSession, Shape

NAME = "crossref"
LABEL = "Crossref"
ENV_API_URL = "SITEGEN_CROSSREF_API"
DEFAULT_API_URL = "https://api.crossref.org"
DEFAULT_DELAY = 0.2  # the polite pool allows a few requests a second, one at a time
ROWS = 100  # works per cursor page (Crossref allows 1000; smaller pages fail less)
UNKNOWN_DOI = "Resource not found."  # Crossref's whole answer (404, text/plain) for a DOI it does not hold
# what each answer must hold (sitegen.sources.http.expect_shape): a proxy's page or an error document is no work
WORK: Shape = {"message": dict}
LISTING: Shape = {"message": dict, "message.items": list, "message.items[]": dict}
ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(?P<id>.+)$", re.IGNORECASE)
TYPES = {  # Crossref work types -> SPEC §7 record types
    "journal-article": "article",
    "proceedings-article": "inproceedings",
    "posted-content": "preprint",
    "dissertation": "thesis",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "reference-book": "book",
    "book-chapter": "chapter",
    "book-section": "chapter",
    "book-part": "chapter",
    "reference-entry": "chapter",
    "report": "report",
    "report-component": "report",
    "standard": "report",
    "dataset": "dataset",
    "database": "dataset",
    "component": "other",
    "peer-review": "other",
}


def bare_doi(value: str | None) -> str | None:
    """'https://doi.org/10.1/X', 'doi:10.1/X' -> '10.1/X'; None when it is not a DOI (the build's check too)."""
    return checked_doi(value)


def arxiv_from_doi(doi: str | None) -> str | None:
    """arXiv's DataCite DOI (10.48550/arXiv.2401.01234) names an arXiv id."""
    match = ARXIV_DOI.match(doi or "")
    return re.sub(r"v\d+$", "", match.group("id")) if match else None


def normalise_doi(value: str) -> str:
    doi = bare_doi(value)
    if doi is None:
        raise ValueError(not_a_doi(value))
    return doi


def _date_parts(message: dict[str, Any]) -> list[int]:
    for key in ("issued", "published-print", "published-online", "published", "created"):
        parts = ((message.get(key) or {}).get("date-parts") or [[None]])[0]
        if parts and parts[0]:
            return [int(p) for p in parts if p is not None]
    return []


def _authors(message: dict[str, Any]) -> list[str]:
    names = []
    for person in message.get("author") or []:
        name = " ".join(p for p in (person.get("given"), person.get("family")) if p) or person.get("name") or ""
        if name.strip():
            names.append(one_line(name))
    return names


def _authors_orcids(message: dict[str, Any]) -> dict[str, str]:
    """Author name (as `_authors` writes it) -> the ORCID iD Crossref gives for them."""
    from sitegen.sources.orcid import normalise_orcid

    found: dict[str, str] = {}
    for person in message.get("author") or []:
        name = " ".join(p for p in (person.get("given"), person.get("family")) if p) or person.get("name") or ""
        if name.strip() and person.get("ORCID"):
            try:
                found.setdefault(one_line(name), normalise_orcid(str(person["ORCID"])))
            except ValueError:
                continue  # not an iD: the record says nothing of this author
    return found


def _venue(message: dict[str, Any]) -> str:
    for key in ("container-title", "short-container-title"):
        titles = message.get(key) or []
        if titles:
            return one_line(text_from_markup(titles[0]))
    event = message.get("event") or {}
    if event.get("name"):
        return one_line(event["name"])
    institution = message.get("institution") or []
    if institution and isinstance(institution, list) and institution[0].get("name"):
        return one_line(institution[0]["name"])
    return one_line(message.get("publisher") or "")


def record_from_work(message: dict[str, Any]) -> dict[str, Any]:
    """A Crossref work as a record mapping."""
    doi = str(message.get("DOI") or "").strip()
    parts = _date_parts(message)
    title = one_line(text_from_markup((message.get("title") or [""])[0]))
    subtitle = (message.get("subtitle") or [""])[0]
    if subtitle:
        title = f"{title}: {one_line(text_from_markup(subtitle))}"
    record: dict[str, Any] = {"id": doi.lower(), "title": title, "authors": _authors(message), "year": parts[0] if parts else None}
    author_ids = _authors_orcids(message)
    if author_ids:
        record["author_ids"] = author_ids  # a people directory ties the record to the member with that iD (SPEC §9)
    if len(parts) == 3:
        record["date"] = datetime.date(*parts)
    venue = _venue(message)
    if venue:
        record["source"] = venue
    if message.get("abstract"):
        record["abstract"] = text_from_markup(message["abstract"])
    record["type"] = TYPES.get(str(message.get("type") or ""), "other")
    if isinstance(message.get("is-referenced-by-count"), int):
        record["citations"] = message["is-referenced-by-count"]
    record["links"] = {"doi": f"https://doi.org/{doi}"}
    record["doi"] = doi
    arxiv = arxiv_from_doi(doi) or _preprint_arxiv(message)
    if arxiv:
        record["arxiv"] = arxiv
    record["ids"] = {"doi": doi, **({"arxiv": arxiv} if arxiv else {}), **_related_dois(message, doi)}
    for key in ("volume", "issue", "page", "publisher"):
        if message.get(key):
            record["pages" if key == "page" else key] = one_line(str(message[key]))
    _put_updates(record, message)
    _put_discussion(record, message)
    return record


# Crossref's relations between a paper, a comment on it and the reply to that -> the link each record gets
DISCUSSION_LINKS = (("has-comment", "comment"), ("has-reply", "reply"), ("is-comment-on", "comment_on"), ("is-reply-to", "reply_to"))


def _put_discussion(record: dict[str, Any], message: dict[str, Any]) -> None:
    """A paper links to the comments on it and the replies (Physical Review's "Comment on ..." and "Reply to ..."),
    a comment to the paper it discusses, a reply to the comment it answers: `relation` names them by DOI."""
    relation = message.get("relation") or {}
    if not isinstance(relation, dict):
        return
    for kind, name in DISCUSSION_LINKS:
        for item in relation.get(kind) or []:
            other = bare_doi(str(item.get("id") or "")) if isinstance(item, dict) and item.get("id-type", "doi") == "doi" else None
            address = doi_url(other) if other and other.lower() != str(record.get("doi") or "").lower() else ""
            if address and address.lower() not in {link.lower() for link in record["links"].values()}:
                record["links"][free_key(record["links"], name)] = address


# Crossref's kinds of update (`update-to` on a notice, `updated-by` on the work it concerns) -> sitegen.notices' kinds
UPDATE_KINDS = {
    "correction": "correction",
    "erratum": "correction",
    "corrigendum": "correction",
    "addendum": "correction",
    "clarification": "correction",
    "retraction": "retraction",
    "partial_retraction": "retraction",
    "withdrawal": "retraction",
    "removal": "retraction",
    "expression_of_concern": "concern",
}


def _put_updates(record: dict[str, Any], message: dict[str, Any]) -> None:
    """A correction or a retraction notice (`update-to` names the work it concerns) is `notice` and `notice_for`; a
    work `updated-by` a retraction is `retracted` (sitegen.notices), and links to each notice Crossref names (its
    "Correction", "Retraction notice"), whether or not the notice's own record is fetched too."""
    for update in message.get("update-to") or []:
        kind = UPDATE_KINDS.get(str(update.get("type") or "").lower().replace("-", "_")) if isinstance(update, dict) else None
        target = bare_doi(str(update.get("DOI") or "")) if kind else None
        if kind and target and target.lower() != str(record.get("doi") or "").lower():
            record["notice"], record["notice_for"] = kind, target
            break
    for update in message.get("updated-by") or []:
        kind = UPDATE_KINDS.get(str(update.get("type") or "").lower().replace("-", "_")) if isinstance(update, dict) else None
        notice = bare_doi(str(update.get("DOI") or "")) if kind else None
        if kind == "retraction":
            record["retracted"] = True
        if kind and notice and notice.lower() != str(record.get("doi") or "").lower():
            address = doi_url(notice)
            if address not in record["links"].values():
                record["links"][free_key(record["links"], kind)] = address  # the link's name: sitegen.notices.NOTICE_LINKS


def _preprint_arxiv(message: dict[str, Any]) -> str | None:
    """`relation: has-preprint` naming an arXiv DOI."""
    for relation in (message.get("relation") or {}).get("has-preprint") or []:
        found = arxiv_from_doi(bare_doi(relation.get("id")))
        if found:
            return found
    return None


def _related_dois(message: dict[str, Any], doi: str) -> dict[str, str]:
    """The other version Crossref names (bioRxiv's and medRxiv's records say `is-preprint-of` the journal's DOI, a
    publisher's `has-preprint` the preprint's): `doi_published` and `doi_preprint`, which make the two one work
    however the title changed between them. arXiv's DOI is the record's `arxiv` (`_preprint_arxiv`)."""
    related: dict[str, str] = {}
    relation = message.get("relation") or {}
    if not isinstance(relation, dict):
        return related
    for kind, name in (("has-preprint", "doi_preprint"), ("is-preprint-of", "doi_published")):
        for item in relation.get(kind) or []:
            other = bare_doi(str(item.get("id") or "")) if isinstance(item, dict) and item.get("id-type", "doi") == "doi" else None
            if other and other.lower() != doi.lower() and not arxiv_from_doi(other):
                related.setdefault(name, other)
    return related


def works_by_orcid(session: PoliteSession, api: str, orcid: str, params: dict[str, str], progress: Any) -> list[dict[str, Any]]:
    """Every Crossref work naming the iD, all cursor pages; read again once if the count falls short."""
    for _walk in range(2):
        works, total = _cursor_walk(session, api, orcid, params, progress)
        if len(works) >= total:
            return works
        progress.line(f"Crossref: works of ORCID {orcid}: {len(works)} of {total} after the last page; reading the list again from the start")
    from sitegen.sources.http import FetchError

    raise FetchError(f"Crossref works of ORCID {orcid}: the list ended after {len(works)} of {total} works twice; try again later")


def _cursor_walk(session: PoliteSession, api: str, orcid: str, params: dict[str, str], progress: Any) -> tuple[list[dict[str, Any]], int]:
    works: dict[str, dict[str, Any]] = {}
    cursor: str | None = "*"
    total, page = 0, 0
    while True:
        page += 1
        answer = session.fetch(
            f"{api}/works",
            f"Crossref works of ORCID {orcid} (page {page})",
            params={"filter": f"orcid:{orcid}", "rows": str(ROWS), "cursor": cursor, **params},
            shape=LISTING,
        )
        message = answer["message"]
        items = message["items"]
        total = int(message.get("total-results") or 0)
        for item in items:
            works.setdefault(str(item.get("DOI", "")).lower(), item)
        progress.line(f"Crossref: works of ORCID {orcid}: page {page}, {len(works)} of {total}")
        cursor = message.get("next-cursor")
        if not items or not cursor or len(works) >= total:
            return list(works.values()), total


def fetch(asks: list[Ask], context: FetchContext) -> Fetched:
    """Asks: `doi` (checked already) and `orcid` (the works whose Crossref metadata names the iD)."""
    from sitegen.sources.http import PoliteSession

    settings = context.settings(NAME, ENV_API_URL, DEFAULT_API_URL, DEFAULT_DELAY, page_size=ROWS)
    session = PoliteSession(settings, context.progress, LABEL)
    params = {"mailto": context.mailto} if context.mailto else {}
    works: dict[str, dict[str, Any]] = {}
    result = Fetched(records=[])
    for orcid in dict.fromkeys(a.value for a in asks if a.kind == "orcid"):
        found = works_by_orcid(session, settings.api_url, orcid, params, context.progress)
        result.answered(f"Crossref works of ORCID {orcid}", where_asked(asks, orcid, "orcid"), len(found), if_none="")  # often empty
        for work in found:
            works.setdefault(str(work.get("DOI", "")).lower(), work)
    for ask in _doi_asks(asks):
        if not _add_work_by_doi(session, settings.api_url, ask.value, params, works, context):
            result.warnings.append(_unknown_doi(ask))
    result.records = [record_from_work(w) for w in works.values()]
    result.requests = session.requests_sent
    return result


def _doi_asks(asks: list[Ask]) -> list[Ask]:
    """The first ask of each DOI (case ignored), in the order asked."""
    first: dict[str, Ask] = {}
    for ask in asks:
        if ask.kind == "doi":
            first.setdefault(ask.value.lower(), ask)
    return list(first.values())


def _add_work_by_doi(session: PoliteSession, api: str, doi: str, params: dict[str, str], works: dict[str, dict[str, Any]], context: FetchContext) -> bool:
    """Add the work of `doi` to `works` (asking only when no listing brought it); False when Crossref does not know it."""
    if doi.lower() in works:
        return True
    answer = session.fetch(f"{api}/works/{quote(doi, safe='/')}", f"Crossref DOI {doi}", params=params, judge=judge_work, shape=WORK)
    if answer is None:
        return False
    works[doi.lower()] = answer["message"]
    context.progress.line(f"Crossref: DOI {doi}")
    return True


def _unknown_doi(ask: Ask) -> str:
    return (
        f"warning: Crossref does not know DOI {ask.value} ({ask.where}); left out, the other records are written "
        "(check the DOI at https://doi.org/; a DataCite DOI is not in Crossref: write its record by hand under content/records/)"
    )


def judge_work(response: requests.Response) -> Answer:
    """Crossref's answer for one DOI. Its 404 'Resource not found.' for a DOI it does not hold is an
    answer (no work, `data` None), not a failure of the service: the DOI may be DataCite's or
    mistyped, and retrying or dropping every other source's records would not change that."""
    from sitegen.sources.http import Answer, judge_json, server_text

    if response.status_code == 404 and server_text(response) == UNKNOWN_DOI:
        return Answer(True, data=None)
    return judge_json(response)


def _normalise_orcid(value: str) -> str:
    """ORCID's check of an iD (its module registers its own fetcher, after this one)."""
    from sitegen.sources.orcid import normalise_orcid

    return normalise_orcid(value)


register_fetcher(
    Fetcher(
        NAME,
        fetch,
        rank=PUBLISHER,
        label="Crossref",
        api_env=ENV_API_URL,
        options=(
            FetchOption("--orcid", "orcid", profile_key="orcid", person_key=True, check=_normalise_orcid),  # ORCID's option, described there
            FetchOption(
                "--doi", "doi", "DOI", "Crossref: the work with this DOI; repeat or separate with commas", profile_key="dois", check=normalise_doi, commas=True
            ),
        ),
    )
)
