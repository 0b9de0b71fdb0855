"""Talking to arXiv: the `arxiv` package for the query API, plus what it lacks.

The `arxiv` package pages through results and parses them; we keep that. It has
no timeout, no backoff, no check that a page arrived whole (lxml's `recover=True`
silently drops a cut-off entry), retries a 400 as uselessly as a 503, and sends
its own User-Agent. `PoliteSession` adds those at the HTTP layer, so the
package's paging is untouched: every request, including retries and the author
feed the package cannot read, goes through one paced, one-at-a-time session.

Heavy imports (`arxiv`, `requests`, `lxml`) happen inside this module only;
`sitegen build` never imports it.
"""

from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, TextIO
from urllib.parse import parse_qs, quote, urlsplit

import arxiv
import requests
from lxml import etree

from sitegen.urls import is_loopback_host

if TYPE_CHECKING:
    from arxiv import Result

DEFAULT_API_URL = "https://export.arxiv.org/api/query"
MAX_PAGE_SIZE = 2000  # arXiv's limit per request
IDS_PER_CALL = 100  # ids per id_list request: keeps the URL short
EMPTY_PAGE_RETRIES = 3  # the `arxiv` package retries arXiv's known empty pages itself
RETRY_STATUSES = {429, 500, 502, 503, 504}
MAX_RETRY_AFTER = 120.0  # seconds; a longer Retry-After gives up with a clear error
ATOM = "http://www.w3.org/2005/Atom"
OPENSEARCH = "http://a9.com/-/spec/opensearch/1.1/"
AUTHOR_ID = re.compile(r"^[A-Za-z0-9_.\-]+$")  # lastname_i_1 or an ORCID
VERSION = re.compile(r"^(?P<id>.+?)(?:v(?P<version>\d+))?$")


class FetchError(Exception):
    """arXiv could not answer a query; the message names the query and says why."""


@dataclass(frozen=True)
class Settings:
    api_url: str = DEFAULT_API_URL
    delay: float = 3.0  # seconds between requests (arXiv's Terms of Use)
    page_size: int = 100
    timeout: float = 30.0
    retries: int = 4  # after the first try, for 429/5xx, timeouts, cut-off pages
    backoff: float = 2.0  # first retry wait; doubles each time (never below `delay`)
    user_agent: str = "sitegen"


def split_version(short_id: str) -> tuple[str, int | None]:
    """'2401.01234v2' -> ('2401.01234', 2); 'hep-ph/0601001' -> ('hep-ph/0601001', None)."""
    match = VERSION.match(short_id.strip())
    assert match is not None
    version = match.group("version")
    return match.group("id"), int(version) if version else None


def short_id(result: "Result") -> str:
    return result.get_short_id()


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


def is_loopback(url: str) -> bool:
    return is_loopback_host(urlsplit(url).hostname or "")


# --------------------------------------------------------------------------
# Progress
# --------------------------------------------------------------------------


class Progress:
    """One updating line on a terminal; plain lines (one per page) otherwise."""

    def __init__(self, stream: TextIO | None = None, tty: bool | None = None):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self._open_line = False

    def status(self, text: str) -> None:
        """A transient state: replaces the terminal line; not shown in logs."""
        if self.tty:
            self.stream.write("\r\x1b[2K" + text)
            self.stream.flush()
            self._open_line = True

    def line(self, text: str) -> None:
        """A step worth keeping in a log (a page, a retry)."""
        if self.tty:
            self.status(text)
        else:
            self.stream.write(text + "\n")
            self.stream.flush()

    def note(self, text: str) -> None:
        """A message that must stay visible, on terminals too."""
        self.done()
        self.stream.write(text + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self._open_line:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self._open_line = False


# --------------------------------------------------------------------------
# HTTP layer
# --------------------------------------------------------------------------


@dataclass
class _Answer:
    """What a response means: usable, worth another try, or final."""

    ok: bool
    retry: bool = False
    reason: str = ""
    entries: int = 0
    total: int | None = None


class PoliteSession(requests.Session):
    """A `requests.Session` that is polite to arXiv and strict about answers.

    One request at a time (the caller is synchronous), at least `delay` seconds
    after the end of the previous one, with a timeout and our User-Agent.
    Throttling, server errors, timeouts and cut-off XML are retried with
    exponential backoff (honouring Retry-After); then, like any answer that
    cannot be right (a 400, arXiv's error entry), they raise `FetchError`, which
    the `arxiv` package does not catch: no useless retries of a bad query.
    """

    def __init__(self, settings: Settings, progress: Progress, sleep: Callable[[float], None] = time.sleep):
        super().__init__()
        self.settings = settings
        self.progress = progress
        self.sleep = sleep
        self.trust_env = not is_loopback(settings.api_url)  # a proxy must not see 127.0.0.1
        self.headers["User-Agent"] = settings.user_agent
        self._last_end: float | None = None
        self.requests_sent = 0

    def request(self, method: str | bytes, url: str | bytes, *args: Any, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        url = url.decode() if isinstance(url, bytes) else url
        what = kwargs.pop("what", None) or f"arXiv query {describe_url(url)!r}"
        kwargs["headers"] = self._our_headers(kwargs.get("headers"))
        kwargs.setdefault("timeout", self.settings.timeout)
        attempts = self.settings.retries + 1
        for attempt in range(1, attempts + 1):
            self._pace()
            answer, response = self._try(method, url, *args, **kwargs)
            if answer.ok:
                self._report_page(url, answer)
                return response  # type: ignore[return-value]
            if not answer.retry or attempt == attempts:
                tries = f" (gave up after {attempt} tries)" if attempt > 1 else ""
                raise FetchError(f"{what}: {answer.reason}{tries}")
            wait = self._backoff(attempt, response)
            if wait is None:
                raise FetchError(f"{what}: {answer.reason}; "
                                 f"arXiv asks to wait more than {MAX_RETRY_AFTER:g} s, try again later")
            self.progress.line(f"arXiv: {answer.reason} for {describe_url(url)}; "
                               f"retrying in {wait:g} s (try {attempt + 1} of {attempts})")
            self.sleep(wait)
        raise AssertionError("unreachable")

    def _our_headers(self, headers: Any) -> dict:
        """Drop the package's own User-Agent so the session's (ours) is sent."""
        kept = {k: v for k, v in dict(headers or {}).items() if k.lower() != "user-agent"}
        kept["User-Agent"] = self.settings.user_agent
        return kept

    def _pace(self) -> None:
        if self._last_end is None or self.settings.delay <= 0:
            return
        wait = self._last_end + self.settings.delay - time.monotonic()
        if wait > 0:
            self.progress.status(f"arXiv: waiting {wait:.1f} s between requests")
            self.sleep(wait)

    def _try(self, method: str | bytes, url: str, *args: Any, **kwargs: Any) -> tuple[_Answer, requests.Response | None]:
        self.requests_sent += 1
        self.progress.status(f"arXiv: requesting {describe_url(url)}")
        try:
            response = super().request(method, url, *args, **kwargs)
        except requests.Timeout:
            return _Answer(False, retry=True, reason=f"no answer within {self.settings.timeout:g} s"), None
        except requests.ConnectionError as error:
            unknown_host = _is_unknown_host(error)  # offline or a typo: retrying will not help
            return _Answer(False, retry=not unknown_host, reason=f"cannot connect ({_short_reason(error)})"), None
        finally:
            self._last_end = time.monotonic()
        return judge(response), response

    def _backoff(self, attempt: int, response: requests.Response | None) -> float | None:
        wait = max(self.settings.delay, self.settings.backoff * 2 ** (attempt - 1))
        retry_after = _retry_after(response)
        if retry_after is not None:
            if retry_after > MAX_RETRY_AFTER:
                return None
            wait = max(wait, retry_after)
        return wait

    def _report_page(self, url: str, answer: _Answer) -> None:
        if answer.total is None:
            return
        params = parse_qs(urlsplit(url).query)
        start = int((params.get("start") or ["0"])[0] or 0)
        size = int((params.get("max_results") or [str(self.settings.page_size)])[0] or 1) or 1
        pages = max(1, -(-answer.total // size))
        got = min(start + answer.entries, answer.total)
        text = f"arXiv: {describe_url(url).split(' (start')[0]}: page {start // size + 1} of {pages}, {got} of {answer.total} records"
        if answer.entries == 0 and start > 0:
            text += " (an empty page: a known arXiv glitch, asking again)"
        self.progress.line(text)
        if got < answer.total and self.settings.delay > 0:
            self.progress.status(text + f"; waiting {self.settings.delay:g} s (arXiv asks for a pause between requests)")


def judge(response: requests.Response) -> _Answer:
    """Decide what an HTTP answer from arXiv means."""
    status = response.status_code
    tree, xml_error = _parse_strict(response.content)
    arxiv_error = _error_entry(tree) if tree is not None else None
    if arxiv_error:
        return _Answer(False, reason=f"arXiv says: {arxiv_error} (HTTP {status})")
    if status in RETRY_STATUSES:
        return _Answer(False, retry=True, reason=f"HTTP {status} {_status_text(response)}".rstrip())
    if status != 200:
        body = _first_line(response)
        return _Answer(False, reason=f"HTTP {status}" + (f": {body}" if body else ""))
    if tree is None:
        return _Answer(False, retry=True, reason=f"malformed XML ({xml_error})")
    if tree.tag != f"{{{ATOM}}}feed":
        return _Answer(False, reason=f"not an Atom feed (root element {tree.tag!r})")
    entries = len(tree.findall(f"{{{ATOM}}}entry"))
    total_text = tree.findtext(f"{{{OPENSEARCH}}}totalResults")
    total = int(total_text.strip()) if total_text and total_text.strip().isdigit() else None
    return _Answer(True, entries=entries, total=total)


def _parse_strict(content: bytes) -> tuple[Any, str]:
    """The document if it is well-formed XML; else None and lxml's reason."""
    if not content.strip():
        return None, "empty body"
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=False)
    try:
        return etree.fromstring(content, parser=parser), ""
    except etree.XMLSyntaxError as error:
        return None, str(error)


def _error_entry(tree: Any) -> str | None:
    """arXiv reports a bad query as a feed with one entry titled 'Error'."""
    for entry in tree.iter(f"{{{ATOM}}}entry"):
        entry_id = entry.findtext(f"{{{ATOM}}}id") or ""
        title = (entry.findtext(f"{{{ATOM}}}title") or "").strip()
        if "/api/errors" in entry_id or title == "Error":
            return " ".join((entry.findtext(f"{{{ATOM}}}summary") or title).split())
    return None


def _retry_after(response: requests.Response | None) -> float | None:
    if response is None:
        return None
    value = response.headers.get("Retry-After", "").strip()
    try:
        return float(value) if value else None
    except ValueError:
        return None  # an HTTP date: rare from arXiv; our own backoff applies


def _status_text(response: requests.Response) -> str:
    return response.reason or ""


def _first_line(response: requests.Response) -> str:
    text = response.text.strip().splitlines()
    return text[0][:200] if text and not text[0].startswith("<") else ""


def _short_reason(error: Exception) -> str:
    """'Connection refused' rather than urllib3's three nested exception reprs."""
    text = str(error)
    match = re.search(r"\[Errno -?\d+\] ([^'\"()\]]+)", text)
    if match:
        return match.group(1).strip()
    if _is_unknown_host(error):
        return "unknown host"
    return type(error).__name__


def _is_unknown_host(error: Exception) -> bool:
    text = str(error)
    return "NameResolutionError" in text or "Name or service not known" in text or "nodename nor servname" in text


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


class ArxivSource:
    """Fetches arXiv results through the `arxiv` package and our polite session."""

    def __init__(self, settings: Settings, progress: Progress):
        self.settings = settings
        self.progress = progress
        self.session = PoliteSession(settings, progress)
        self.client = arxiv.Client(
            page_size=min(settings.page_size, MAX_PAGE_SIZE),
            delay_seconds=settings.delay,
            num_retries=EMPTY_PAGE_RETRIES,
        )
        self.client.query_url_format = settings.api_url + "?{}"
        self.client._session = self.session  # the package's only HTTP hook
        self.feed_names: list[str] = []  # people named by author feeds

    def search(self, query: str) -> list["Result"]:
        """Every result of a search_query, all pages."""
        results = self._run(arxiv.Search(query=query, max_results=None), query)
        if not results:
            raise FetchError(f"arXiv query {query!r}: no records found (check the name; "
                             "arXiv sometimes answers an empty first page, so try again too)")
        return results

    def by_ids(self, ids: list[str]) -> list["Result"]:
        """The latest version of each id (or the version asked), several ids per call."""
        found: list[Result] = []
        for start in range(0, len(ids), IDS_PER_CALL):
            chunk = ids[start:start + IDS_PER_CALL]
            results = self._run(arxiv.Search(id_list=chunk, max_results=None), "id_list=" + ",".join(chunk))
            got = {split_version(short_id(r))[0] for r in results}
            missing = [i for i in chunk if split_version(i)[0] not in got]
            if missing:
                raise FetchError(f"arXiv query 'id_list={','.join(chunk)}': no record for "
                                 f"{', '.join(missing)} (is the id right?)")
            found.extend(results)
        return found

    def author_feed(self, author_id: str) -> list["Result"]:
        """An arXiv author's public feed (`/a/<id>.atom`), which the query API does not serve.

        `.atom` has one <author> per person (`.atom2` joins them with commas),
        so the package's own entry parser reads it as it reads the API.
        """
        url = author_feed_url(self.settings.api_url, author_id)
        response = self.session.get(url, what=f"arXiv author feed {author_id!r} ({url})")
        feed = arxiv._feed.parse(response.content)
        title = etree.fromstring(response.content).findtext(f"{{{ATOM}}}title") or ""
        owner = re.sub(r"'s articles on arXiv\s*$", "", title.strip())
        if owner and owner != title.strip():
            self.feed_names.append(owner)
        self.progress.line(f"arXiv: author {author_id}: {len(feed.results)} records")
        if not feed.results:
            raise FetchError(f"arXiv author feed {author_id!r}: no records in {url}")
        return feed.results

    def _run(self, search: "arxiv.Search", query: str) -> list["Result"]:
        try:
            return list(self.client.results(search))
        except arxiv.UnexpectedEmptyPageError as error:
            raise FetchError(f"arXiv query {query!r}: arXiv kept answering an empty page at "
                             f"{describe_url(error.url)} ({EMPTY_PAGE_RETRIES + 1} tries); try again later") from None
        except arxiv.ArxivError as error:
            raise FetchError(f"arXiv query {query!r}: {error.message}") from None


def author_feed_url(api_url: str, author_id: str) -> str:
    """`<origin of the API URL>/a/<id>.atom`: arxiv.org for the real API, the fake server in tests."""
    parts = urlsplit(api_url)
    origin = f"{parts.scheme}://{parts.netloc}"
    if parts.hostname == "export.arxiv.org":
        origin = "https://arxiv.org"
    return f"{origin}/a/{quote(author_id, safe='')}.atom"
