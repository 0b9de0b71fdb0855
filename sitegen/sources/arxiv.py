"""arXiv as a fetcher: the `arxiv` package for the query API, plus what it lacks.

The `arxiv` package pages through results and parses them; we keep that. It has
no timeout, no backoff, no check that a page arrived whole (lxml's `recover=True`
silently drops a cut-off entry), retries a 400 as uselessly as a 503, and sends
its own User-Agent. The shared `PoliteSession` (sitegen.sources.http) adds those
at the HTTP layer, judged by `judge` below, so the package's paging is untouched:
every request, including retries and the author feed the package cannot read,
goes through one paced, one-at-a-time session.

Heavy imports (`arxiv`, `requests`, `lxml`) happen when a fetch runs, never when
`sitegen build` imports the registry.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, quote, urlsplit

from sitegen.errors import quoted
from sitegen.fetch import Ask, Asked, FetchContext, Fetched, counted, one_line
from sitegen.record_types import checked_bibcode, doi_url
from sitegen.sources import AUTHORS, Fetcher, FetchOption, register_fetcher

if TYPE_CHECKING:
    import arxiv
    import requests
    from arxiv import Result

    from sitegen.progress import Progress
    from sitegen.sources.http import Answer, PoliteSession, Settings

NAME = "arxiv"
LABEL = "arXiv"
ENV_API_URL = "SITEGEN_ARXIV_API"
DEFAULT_API_URL = "https://export.arxiv.org/api/query"
DEFAULT_DELAY = 3.0  # seconds: arXiv's Terms of Use
MAX_PAGE_SIZE = 2000  # arXiv's limit per request
IDS_PER_CALL = 100  # ids per id_list request: keeps the URL short
EMPTY_PAGE_RETRIES = 3  # the `arxiv` package retries arXiv's known empty pages itself
ATOM = "http://www.w3.org/2005/Atom"
OPENSEARCH = "http://a9.com/-/spec/opensearch/1.1/"
AUTHOR_ID = re.compile(r"^[A-Za-z0-9_.\-]+$")  # lastname_i_1 or an ORCID
VERSION = re.compile(r"^(?P<id>.+?)(?:v(?P<version>\d+))?$")


def split_version(short_id: str) -> tuple[str, int | None]:
    """'2401.01234v2' -> ('2401.01234', 2); 'hep-ph/0601001' -> ('hep-ph/0601001', None)."""
    match = VERSION.match(short_id.strip())
    assert match is not None
    version = match.group("version")
    return match.group("id"), int(version) if version else None


# an arXiv id as papers, ADS and INSPIRE write it ('arXiv:2301.12345') or its address (abstract page or PDF)
_WRITTEN_ID = re.compile(r"^(?:arxiv:\s*|https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)(.+?)(?:\.pdf)?/?$", re.IGNORECASE)
_DOI_LIKE = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)?10\.\d{4,9}/\S+$", re.IGNORECASE)


def normalise_id(value: str) -> str:
    """An arXiv id to ask arXiv for, from the forms people write ('arXiv:2301.12345', its abs or pdf address); an ADS
    bibcode or a DOI, which arXiv would answer with 'incorrect id format', is refused saying what to do instead."""
    value = value.strip()
    if match := _WRITTEN_ID.match(value):
        return match.group(1)
    if bibcode := checked_bibcode(value):
        raise ValueError(
            f"{quoted(value, 60)} is a NASA ADS bibcode, not an arXiv id: fetch it from ADS with --ads-query 'bibcode:{bibcode}' "
            "(ADS_API_TOKEN set), or export its BibTeX from its ADS page into a .bib file in content/records/"
        )
    if _DOI_LIKE.match(value):
        raise ValueError(f"{quoted(value, 60)} is a DOI, not an arXiv id: fetch it with --doi (profile.yaml: dois:)")
    return value


def check_author_id(author_id: str) -> str:
    if not AUTHOR_ID.match(author_id):
        raise ValueError(f"{author_id!r} is not an arXiv author id (like lin_s_1) or an ORCID")
    return author_id


def describe_url(url: str) -> str:
    """The query a request asks, as a user would recognise it in a message."""
    parts = urlsplit(url)
    params = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    pieces = []
    if params.get("search_query"):
        pieces.append(params["search_query"])
    if params.get("id_list"):
        ids = params["id_list"].split(",")
        shown = ",".join(ids[:5]) + (f",… ({len(ids)} ids)" if len(ids) > 5 else "")
        pieces.append(f"id_list={shown}")
    if not pieces:
        return url
    text = " ".join(pieces)
    start = int(params.get("start") or 0) if (params.get("start") or "0").isdigit() else 0
    return f"{text} (start {start})" if start else text


# --------------------------------------------------------------------------
# Judging arXiv's answers, reporting its pages
# --------------------------------------------------------------------------


def judge(response: requests.Response) -> Answer:
    """Decide what an HTTP answer from arXiv means."""
    from sitegen.sources.http import RETRY_STATUSES, Answer, parse_xml, server_message

    status = response.status_code
    tree, xml_error = parse_xml(response.content)
    arxiv_error = _error_entry(tree) if tree is not None else None
    if arxiv_error:
        return Answer(False, reason=f"arXiv says: {quoted(arxiv_error, 300)} (HTTP {status})")
    if status in RETRY_STATUSES:
        return Answer(False, retry=True, reason=f"HTTP {status} {response.reason or ''}".rstrip())
    if status != 200:
        body = server_message(response)
        return Answer(False, reason=f"HTTP {status}" + (f": {body}" if body else ""))
    if tree is None:
        return Answer(False, retry=True, reason=f"malformed XML ({xml_error})")
    if tree.tag != f"{{{ATOM}}}feed":
        return Answer(False, reason=f"not an Atom feed (root element {tree.tag!r})")
    entries = len(tree.findall(f"{{{ATOM}}}entry"))
    total_text = tree.findtext(f"{{{OPENSEARCH}}}totalResults")
    total = int(total_text.strip()) if total_text and total_text.strip().isdigit() else None
    if entries == 0 and total and _start_of(response.url) == 0:  # the package retries later empty pages, not the first
        return Answer(False, retry=True, reason=f"an empty first page, though arXiv counts {total} results (a known arXiv glitch)")
    return Answer(True, data=tree, entries=entries, total=total)


def _start_of(url: str) -> int:
    """The `start` of a query URL: where its page begins."""
    start = (parse_qs(urlsplit(url or "").query).get("start") or ["0"])[0]
    return int(start) if start.isdigit() else 0


def _error_entry(tree: Any) -> str | None:
    """arXiv reports a bad query as a feed with one entry titled 'Error'."""
    for entry in tree.iter(f"{{{ATOM}}}entry"):
        entry_id = entry.findtext(f"{{{ATOM}}}id") or ""
        title = (entry.findtext(f"{{{ATOM}}}title") or "").strip()
        if "/api/errors" in entry_id or title == "Error":
            return " ".join((entry.findtext(f"{{{ATOM}}}summary") or title).split())
    return None


def page_reporter(settings: Settings, progress: Progress) -> Callable[[str, Answer], None]:
    """Reports each page of a query: 'arXiv: au:"Sheng Lin": page 1 of 2, 10 of 18 records'."""

    def report(url: str, answer: Answer) -> None:
        if answer.total is None:
            return
        params = parse_qs(urlsplit(url).query)
        start = int((params.get("start") or ["0"])[0] or 0)
        size = int((params.get("max_results") or [str(settings.page_size)])[0] or 1) or 1
        pages = max(1, -(-answer.total // size))
        got = min(start + answer.entries, answer.total)
        text = f"arXiv: {describe_url(url).split(' (start')[0]}: page {start // size + 1} of {pages}, {got} of {counted(answer.total, 'record')}"
        if answer.entries == 0 and start > 0:
            text += " (an empty page: a known arXiv glitch, asking again)"
        progress.line(text)
        if got < answer.total and settings.delay > 0:
            progress.status(text + f"; waiting {settings.delay:g} s (arXiv asks for a pause between requests)")

    return report


def arxiv_session(settings: Settings, progress: Progress, sleep: Callable[[float], None] | None = None) -> PoliteSession:
    """The polite session, judging answers as arXiv's and reporting its pages."""
    import time

    from sitegen.sources.http import PoliteSession

    return PoliteSession(settings, progress, LABEL, judge=judge, describe=describe_url, on_answer=page_reporter(settings, progress), sleep=sleep or time.sleep)


# --------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------


def author_query(names: list[str], categories: list[str]) -> str:
    """arXiv search_query for any of `names`, optionally in any of `categories`.

    arXiv groups AND/OR from the right, so every group gets parentheses.
    """
    terms = [f'au:"{_clean_name(name)}"' for name in names]
    query = terms[0] if len(terms) == 1 else "(" + " OR ".join(terms) + ")"
    if categories:
        query += " AND (" + " OR ".join(f"cat:{c}" for c in categories) + ")"
    return query


def _clean_name(name: str) -> str:
    return " ".join(name.replace('"', " ").split())


def author_feed_url(api_url: str, author_id: str) -> str:
    """`<origin of the API URL>/a/<id>.atom`: arxiv.org for the real API, the fake server in tests."""
    parts = urlsplit(api_url)
    origin = f"{parts.scheme}://{parts.netloc}"
    if parts.hostname == "export.arxiv.org":
        origin = "https://arxiv.org"
    return f"{origin}/a/{quote(author_id, safe='')}.atom"


class ArxivSource:
    """Fetches arXiv results through the `arxiv` package and our polite session."""

    def __init__(self, settings: Settings, progress: Progress):
        import arxiv

        self.settings = settings
        self.progress = progress
        self.session = arxiv_session(settings, progress)
        self.client = arxiv.Client(
            page_size=min(settings.page_size, MAX_PAGE_SIZE),
            delay_seconds=settings.delay,
            num_retries=EMPTY_PAGE_RETRIES,
        )
        self.client.query_url_format = settings.api_url + "?{}"
        self.client._session = self.session  # the package's only HTTP hook
        self.feed_names: list[str] = []  # people named by author feeds
        self.asked: list[Asked] = []  # each search and feed, with its count of records (sitegen.fetch judges empty ones)

    def search(self, query: str, where: str) -> list[Result]:
        """Every result of a search_query, all pages.

        arXiv sometimes answers a first page with no results and counts none (`judge` retries the empty
        first page of a query it counts results for): a search that finds nothing is asked once more
        before it is believed. Then it is a warning (`sitegen.fetch.empty_answers`), not a failure: a name
        with no paper on arXiv yet is a researcher's ordinary state, which the weekly refresh must not fail on."""
        import arxiv

        results = self._run(arxiv.Search(query=query, max_results=None), query)
        if not results:
            self.progress.line(f"arXiv: {query}: no records; asking once more (arXiv sometimes answers an empty first page)")
            results = self._run(arxiv.Search(query=query, max_results=None), query)
        self.asked.append(Asked(f"arXiv query {query!r}", where, len(results), "no records found, asked twice; check the name as arXiv shows it"))
        return results

    def by_ids(self, ids: list[str]) -> list[Result]:
        """The latest version of each id (or the version asked), several ids per call."""
        import arxiv

        from sitegen.sources.http import FetchError

        found: list[Result] = []
        for start in range(0, len(ids), IDS_PER_CALL):
            chunk = ids[start : start + IDS_PER_CALL]
            results = self._run(arxiv.Search(id_list=chunk, max_results=None), "id_list=" + ",".join(chunk))
            got = {split_version(r.get_short_id())[0] for r in results}
            missing = [i for i in chunk if split_version(i)[0] not in got]
            if missing:
                raise FetchError(f"arXiv query 'id_list={','.join(chunk)}': no record for {', '.join(missing)} (is the id right?)")
            found.extend(results)
        return found

    def author_feed(self, author_id: str, where: str) -> list[Result]:
        """An arXiv author's public feed (`/a/<id>.atom`), which the query API does not serve.

        `.atom` has one <author> per person (`.atom2` joins them with commas),
        so the package's own entry parser reads it as it reads the API.
        """
        import arxiv

        url = author_feed_url(self.settings.api_url, author_id)
        response, answer = self.session.get_answered(url, what=f"arXiv author feed {author_id!r} ({url})")
        feed = arxiv._feed.parse(response.content)
        title = answer.data.findtext(f"{{{ATOM}}}title") or ""
        owner = re.sub(r"'s articles on arXiv\s*$", "", title.strip())
        if owner and owner != title.strip():
            self.feed_names.append(owner)
        self.progress.line(f"arXiv: author {author_id}: {counted(len(feed.results), 'record')}")
        self.asked.append(Asked(f"arXiv author feed {author_id!r}", where, len(feed.results), f"no records in {url}"))
        return feed.results

    def _run(self, search: arxiv.Search, query: str) -> list[Result]:
        import arxiv

        from sitegen.sources.http import FetchError

        try:
            return list(self.client.results(search))
        except arxiv.UnexpectedEmptyPageError as error:
            raise FetchError(
                f"arXiv query {query!r}: arXiv kept answering an empty page at {describe_url(error.url)} ({EMPTY_PAGE_RETRIES + 1} tries); try again later"
            ) from None
        except arxiv.ArxivError as error:
            raise FetchError(f"arXiv query {query!r}: {error.message}") from None


def newest_versions(results: list[Result]) -> dict[str, Result]:
    """One result per id: the newest version wins."""
    best: dict[str, tuple[int, Result]] = {}
    for result in results:
        bare_id, version = split_version(result.get_short_id())
        if bare_id not in best or (version or 1) > best[bare_id][0]:
            best[bare_id] = (version or 1, result)
    return {record_id: result for record_id, (_, result) in best.items()}


# --------------------------------------------------------------------------
# arXiv result -> record
# --------------------------------------------------------------------------


def record_from_result(result: Result) -> dict[str, Any]:
    """An arXiv entry as a record mapping (SPEC §2 fields first, then arXiv extras).

    Text is kept as arXiv sends it (LaTeX included); the build converts it.
    """
    bare_id, version = split_version(result.get_short_id())
    categories = list(dict.fromkeys([c for c in [result.primary_category, *result.categories] if c]))
    links = {"abs": f"https://arxiv.org/abs/{bare_id}", "pdf": f"https://arxiv.org/pdf/{bare_id}"}
    if result.doi:
        links["doi"] = doi_url(result.doi)
    record: dict[str, Any] = {
        "id": bare_id,
        "title": one_line(result.title),
        "authors": [one_line(a.name) for a in result.authors if a.name.strip()],
        "year": result.published.year,
        "date": result.published.date(),
        "source": one_line(result.journal_ref) if result.journal_ref else "arXiv",
        "abstract": _paragraphs(result.summary),
        "categories": categories,
        "links": links,
        "arxiv": bare_id,
    }
    if result.doi:
        record["doi"] = result.doi.strip()
    record["version"] = version or 1
    record["updated"] = result.updated.date()
    if result.comment:
        record["comment"] = one_line(result.comment)
    if result.journal_ref:
        record["journal_ref"] = one_line(result.journal_ref)
    if any(WITHDRAWN.match(text or "") for text in (result.comment, result.summary)):
        record["withdrawn"] = True  # arXiv's withdrawal version: the site marks the work "Withdrawn", as arXiv does
    affiliations = {one_line(a.name): [one_line(x) for x in a.affiliation] for a in result.authors if a.affiliation}
    if affiliations:
        record["affiliations"] = affiliations
    return record


# what arXiv's withdrawal version says in its comment, and often in place of its abstract: "This paper has been
# withdrawn by the authors ...", "Withdrawn due to ...", "arXiv admin note: this version has been withdrawn by ..."
WITHDRAWN = re.compile(
    r"^\s*(?:arxiv\s+admin\s+note\s*:\s*)?(?:(?:this|the)\s+(?:paper|article|manuscript|submission|preprint|work|version|note)"
    r"\s+(?:has\s+been|is|was)\s+withdrawn|(?:(?:paper|article|submission|preprint)\s+)?withdrawn\b)",
    re.IGNORECASE,
)


def _paragraphs(text: str) -> str:
    """arXiv wraps abstracts; keep paragraph breaks, drop indentation Markdown would misread."""
    lines = [line.strip() for line in text.strip().splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))


# --------------------------------------------------------------------------
# The fetcher
# --------------------------------------------------------------------------


def fetch(asks: list[Ask], context: FetchContext) -> Fetched:
    """Name searches, ids and author feeds, newest version of each id.

    Asks: `author` (a name: a search, whose results the review groups by person),
    `id`, `author_id`, and `category` (restricts the name search).
    """
    settings = context.settings(NAME, ENV_API_URL, DEFAULT_API_URL, DEFAULT_DELAY, max_page_size=MAX_PAGE_SIZE)
    source = ArxivSource(settings, context.progress)
    names = [a.value for a in asks if a.kind == "author"]
    ids = list(dict.fromkeys(a.value for a in asks if a.kind == "id"))  # an id may also come as its DOI
    categories = [a.value for a in asks if a.kind == "category"]
    named_where = ", ".join(dict.fromkeys(a.where for a in asks if a.kind == "author"))
    searched: list[Result] = source.search(author_query(names, categories), named_where) if names else []
    results = list(searched) + (source.by_ids(ids) if ids else [])
    for ask in (a for a in asks if a.kind == "author_id"):
        results += source.author_feed(ask.value, ask.where)
    newest = newest_versions(results)
    return Fetched(
        records=[record_from_result(result) for _, result in sorted(newest.items())],
        owner_names=[*names, *source.feed_names],
        searched_ids={split_version(r.get_short_id())[0] for r in searched},
        requests=source.session.requests_sent,
        asked=source.asked,
    )


register_fetcher(
    Fetcher(
        NAME,
        fetch,
        rank=AUTHORS,
        label="arXiv",
        api_env=ENV_API_URL,
        options=(
            FetchOption("--author", "author", "NAME", "arXiv: an author name as arXiv shows it; repeat for name variants"),
            FetchOption("--id", "id", "ARXIV_ID", "arXiv: an id (2401.01234, hep-ph/0601001); repeat or separate with commas", check=normalise_id, commas=True),
            FetchOption("--author-id", "author_id", "ID", "arXiv: an author identifier (arxiv.org/a/<ID>) or ORCID", check=check_author_id),
        ),
    )
)
