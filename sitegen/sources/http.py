"""The one HTTP layer every fetcher talks through: polite to the services, strict about answers.

Scholarly APIs ask the same of a client (arXiv's Terms of Use, Crossref's and
OpenAlex's "polite pool", ORCID's and dblp's rate limits): one request at a
time, a pause between requests, a User-Agent that names the tool and a person
to contact, and backing off when told to (429 with Retry-After). They also fail
the same ways: 5xx answers, timeouts, and bodies cut off by a dropped connection
that still arrive with status 200. `PoliteSession` handles all of that once:

- one request at a time (fetchers are synchronous) and at least `delay`
  seconds between the end of one answer and the next request;
- our User-Agent on every request, replacing any a client library sets;
- 429, 5xx, timeouts, refused connections, connections dropped in the middle
  of a body and unreadable bodies are retried with doubling backoff, never
  shorter than a Retry-After; a `Backoff` header (Zotero's) holds the next request back;
- anything else that is not a usable answer (400, 404, an error document, an
  HTML page with status 200, JSON of another `shape` than the source expects)
  raises `FetchError` at once, its message naming the source and what was asked.

Each source gives a `judge` that says what an answer means (JSON and XML
judges are here) and the `shape` of each JSON answer it reads (`expect_shape`);
`sitegen build` never imports this module.
"""

from __future__ import annotations

import email.utils
import html
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson
import requests
from lxml import etree

from sitegen.errors import escaped, quoted
from sitegen.progress import Progress
from sitegen.urls import is_loopback_host

RETRY_STATUSES = {429, 500, 502, 503, 504}
MAX_RETRY_AFTER = 120.0  # seconds; a longer Retry-After gives up with a clear error


class FetchError(Exception):
    """A source could not answer; the message names the source and what was asked, and says why."""


@dataclass(frozen=True)
class Settings:
    """How one source is asked: where, how often, how patiently."""

    api_url: str
    delay: float = 3.0  # seconds between requests
    page_size: int = 100
    timeout: float = 30.0
    retries: int = 4  # after the first try, for 429/5xx, timeouts, cut-off bodies
    backoff: float = 2.0  # first retry wait; doubles each time (never below `delay`)
    user_agent: str = "sitegen"


@dataclass
class Answer:
    """What a response means: usable (with its parsed body), worth another try, or final."""

    ok: bool
    retry: bool = False
    reason: str = ""
    data: Any = None  # the parsed body of a usable answer
    entries: int = 0  # arXiv: entries on this page
    total: int | None = None  # arXiv: results of the whole query


Judge = Callable[[requests.Response], Answer]
# What a JSON answer must hold: dotted paths from the top object to the type found there ("message.items": list);
# a path ending in "[]" gives the type of every item of that list ("results[]": dict).
Shape = dict[str, type | tuple[type, ...]]


# --------------------------------------------------------------------------
# The session
# --------------------------------------------------------------------------


class PoliteSession(requests.Session):
    """A `requests.Session` for one source, paced and retried as the module says.

    `label` names the source in messages ("ORCID"); `judge` decides what an
    answer means; `describe` turns a URL into what a user asked (for messages);
    `on_answer` sees every usable answer (arXiv reports its pages there).
    Client libraries that take a session (the `arxiv` package) call `get` and
    `request` as usual; our own code calls `fetch` or `get_answered`, which say
    what was asked (`what`) and may judge otherwise (`judge`).
    """

    def __init__(
        self,
        settings: Settings,
        progress: Progress,
        label: str,
        judge: Judge | None = None,
        describe: Callable[[str], str] | None = None,
        on_answer: Callable[[str, Answer], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ):
        super().__init__()
        self.settings = settings
        self.progress = progress
        self.label = label
        self.judge = judge or judge_json
        self.describe = describe or _path_and_query
        self.on_answer = on_answer
        self.sleep = sleep
        self.trust_env = not is_loopback(settings.api_url)  # a proxy must not see 127.0.0.1
        self.headers["User-Agent"] = settings.user_agent
        self._last_end: float | None = None
        self._not_before = 0.0  # a `Backoff` header's time (monotonic clock) before which no request is sent
        self.requests_sent = 0

    def request(self, method: str | bytes, url: str | bytes, *args: Any, **kwargs: Any) -> requests.Response:
        """What a client library calls: the response of a usable answer, or `FetchError`."""
        url = url.decode() if isinstance(url, bytes) else url
        response, _ = self._answered(method, url, None, None, *args, **kwargs)
        return response

    def fetch(
        self,
        url: str,
        what: str,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        judge: Judge | None = None,
        shape: Shape | None = None,
    ) -> Any:
        """GET `url` and return the parsed body of a usable answer (or raise `FetchError`); with `shape`,
        a JSON answer that is not of that shape (`expect_shape`) is a `FetchError` too."""
        judge = judge or self.judge
        if shape is not None:
            judge = shaped(judge, shape, self.label)
        _, answer = self.get_answered(url, what, params=params, headers=headers, judge=judge)
        return answer.data

    def get_answered(
        self, url: str, what: str, params: dict[str, Any] | None = None, headers: dict[str, str] | None = None, judge: Judge | None = None
    ) -> tuple[requests.Response, Answer]:
        """GET `url` as `requests.Session.get` does (redirects followed): the response and what it means."""
        return self._answered("GET", url, what, judge, params=params, headers=headers, allow_redirects=True)

    def _answered(self, method: str | bytes, url: str, what: str | None, judge: Judge | None, *args: Any, **kwargs: Any) -> tuple[requests.Response, Answer]:
        """Ask until the answer is usable (retrying as the module says); `what` names the request in
        messages, by default the source and the URL's path."""
        what = what or f"{self.label} query {self.describe(url)!r}"
        judge = judge or self.judge
        kwargs["headers"] = self._our_headers(kwargs.get("headers"))
        kwargs.setdefault("timeout", self.settings.timeout)
        attempts = self.settings.retries + 1
        for attempt in range(1, attempts + 1):
            self._pace()
            answer, response = self._try(method, url, judge, *args, **kwargs)
            if answer.ok:
                assert response is not None
                if self.on_answer:
                    self.on_answer(response.url or url, answer)
                return response, answer
            if not answer.retry or attempt == attempts:
                tries = f" (gave up after {attempt} tries)" if attempt > 1 else ""
                raise FetchError(f"{what}: {answer.reason}{tries}")
            wait = self._backoff(attempt, response)
            if wait is None:
                raise FetchError(f"{what}: {answer.reason}; {self.label} asks to wait more than {MAX_RETRY_AFTER:g} s, try again later")
            self.progress.line(f"{self.label}: {answer.reason} for {self.describe(url)}; retrying in {wait:g} s (try {attempt + 1} of {attempts})")
            self.sleep(wait)
        raise AssertionError("unreachable")

    def _our_headers(self, headers: Any) -> dict:
        """Drop a client library's own User-Agent so the session's (ours) is sent."""
        kept = {k: v for k, v in dict(headers or {}).items() if k.lower() != "user-agent"}
        kept["User-Agent"] = self.settings.user_agent
        return kept

    def _pace(self) -> None:
        if self._last_end is None:
            return
        wait = max(self._last_end + self.settings.delay, self._not_before) - time.monotonic()
        if wait > 0:
            self.progress.status(f"{self.label}: waiting {wait:.1f} s between requests")
            self.sleep(wait)

    def _try(self, method: str | bytes, url: str, judge: Judge, *args: Any, **kwargs: Any) -> tuple[Answer, requests.Response | None]:
        self.requests_sent += 1
        self.progress.status(f"{self.label}: requesting {self.describe(url)}")
        try:
            response = super().request(method, url, *args, **kwargs)
        except requests.Timeout:
            return Answer(False, retry=True, reason=f"no answer within {self.settings.timeout:g} s"), None
        except requests.ConnectionError as error:
            unknown_host = _is_unknown_host(error)  # offline or a typo: retrying will not help
            return Answer(False, retry=not unknown_host, reason=f"cannot connect ({_short_reason(error)})"), None
        except (requests.exceptions.ChunkedEncodingError, requests.exceptions.ContentDecodingError) as error:
            # the connection dropped (or the compressed stream broke) in the middle of the body
            return Answer(False, retry=True, reason=f"connection broken in the middle of the answer ({_broken_reason(error)})"), None
        finally:
            self._last_end = time.monotonic()
        if (backoff := backoff_seconds(response)) is not None:  # Zotero's: wait before the next request, whatever this answer is
            self._not_before = max(self._not_before, self._last_end + min(backoff, MAX_RETRY_AFTER))
        return judge(response), response

    def _backoff(self, attempt: int, response: requests.Response | None) -> float | None:
        wait = max(self.settings.delay, self.settings.backoff * 2 ** (attempt - 1))
        retry_after = retry_after_seconds(response)
        if retry_after is not None:
            if retry_after > MAX_RETRY_AFTER:
                return None
            wait = max(wait, retry_after)
        return wait


# --------------------------------------------------------------------------
# Judging answers
# --------------------------------------------------------------------------


def _status_failure(response: requests.Response) -> Answer | None:
    """What an answer other than 200 means (429 and 5xx are worth another try); None for 200."""
    status = response.status_code
    if status in RETRY_STATUSES:
        return Answer(False, retry=True, reason=_status_reason(response))
    if status != 200:
        return Answer(False, reason=_status_reason(response))
    return None


def judge_json(response: requests.Response) -> Answer:
    """A JSON API's answer: 200 with a whole JSON document, else why not."""
    failure = _status_failure(response)
    if failure is not None:
        return failure
    try:
        data = orjson.loads(response.content)
    except orjson.JSONDecodeError as error:
        if response.content.lstrip()[:1] in (b"{", b"["):  # a document cut off on its way
            return Answer(False, retry=True, reason=f"cut-off or malformed JSON ({error})")
        kind = response.headers.get("Content-Type", "no content type")
        if looks_like_html(response):
            return Answer(False, reason=f"an HTML page, not a JSON answer ({kind}): {page_words(response.content)}")
        return Answer(False, reason=f"not a JSON answer ({kind}): {server_message(response) or page_words(response.content)}")
    return Answer(True, data=data)


def shaped(judge: Judge, shape: Shape, label: str) -> Judge:
    """`judge`, and then a usable 200 answer must be JSON of `shape`: else it is final, and names the source."""

    def judged(response: requests.Response) -> Answer:
        answer = judge(response)
        if answer.ok and response.status_code == 200:
            wrong = expect_shape(answer.data, shape)
            if wrong:
                return Answer(False, reason=f"unexpected answer from {label}: {wrong}")
        return answer

    return judged


def expect_shape(data: Any, shape: Shape) -> str | None:
    """What is wrong with `data` (an object, with every path of `shape` of its type), or None."""
    if not isinstance(data, dict):
        return f"{_json_kind(data)} where an object was expected"
    for path, kinds in shape.items():
        every = path.endswith("[]")
        node: Any = data
        for key in path.removesuffix("[]").split("."):
            if not isinstance(node, dict) or key not in node:
                return f"no {path.removesuffix('[]')!r} in the JSON object"
            node = node[key]
        nodes = node if every and isinstance(node, list) else [node]
        for item in nodes:
            if not isinstance(item, kinds):
                where = f"an item of {path.removesuffix('[]')!r}" if every else repr(path)
                return f"{where} is {_json_kind(item)}, not {_kind_names(kinds)}"
    return None


JSON_KINDS = {dict: "an object", list: "a list", str: "a string", int: "a number", float: "a number", bool: "true or false", type(None): "null"}


def _json_kind(value: Any) -> str:
    kind = JSON_KINDS.get(type(value), type(value).__name__)
    return f"{kind} ({escaped(orjson.dumps(value).decode(), 41)})" if value not in ({}, None) else kind


def _kind_names(kinds: type | tuple[type, ...]) -> str:
    return " or ".join(dict.fromkeys(JSON_KINDS.get(k, k.__name__) for k in (kinds if isinstance(kinds, tuple) else (kinds,))))


def looks_like_html(response: requests.Response) -> bool:
    kind = response.headers.get("Content-Type", "").lower()
    start = response.content.lstrip()[:200].lower()
    return "html" in kind or start.startswith((b"<!doctype html", b"<html")) or b"<html" in start


PAGE_HEAD = 16384  # bytes of a page that page_words reads: its title, or its first words, come early


def page_words(content: bytes, limit: int = 60) -> str:
    """A page's title, else its first words, quoted and escaped for one line of a terminal; 'empty body' for none.

    Only the first PAGE_HEAD bytes are read, and each pattern runs once over them: a page of a few megabytes of
    unclosed `<script` or `<!--` (a captive portal's, a hostile mirror's) takes no longer than a small one."""
    text = content[:PAGE_HEAD].decode("utf-8", "replace")
    title = _TITLE.search(text)
    if title:
        text = title.group(1)
    words = _one_line(html.unescape(_TAG.sub(" ", _without_code(text))))
    if not words:
        return "empty body" if not content.strip() else "no text"
    return quoted(words, limit)


_TITLE = re.compile(r"<title[^<>]*>([^<]*)", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>?")
_HIDDEN_START = re.compile(r"<(script|style)\b|<!--", re.IGNORECASE)


def _without_code(text: str) -> str:
    """`text` without its scripts, styles and comments, in one pass (an unclosed one runs to the end)."""
    parts, position = [], 0
    while (start := _HIDDEN_START.search(text, position)) is not None:
        parts.append(text[position : start.start()])
        end = re.compile("-->" if start.group(1) is None else f"</{start.group(1)}", re.IGNORECASE).search(text, start.end())
        if end is None:
            return " ".join(parts)
        close = text.find(">", end.start())
        position = len(text) if close < 0 else close + 1
        parts.append(" ")
    parts.append(text[position:])
    return "".join(parts)


def judge_xml(response: requests.Response) -> Answer:
    """An XML answer (dblp): 200 with a well-formed document, else why not."""
    failure = _status_failure(response)
    if failure is not None:
        return failure
    tree, error = parse_xml(response.content)
    if tree is None:
        return Answer(False, retry=True, reason=f"malformed XML ({error})")
    return Answer(True, data=tree)


def parse_xml(content: bytes) -> tuple[Any, str]:
    """The document if it is well-formed XML; else None and lxml's reason. No entities, no network."""
    if not content.strip():
        return None, "empty body"
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=False, huge_tree=False)
    try:
        return etree.fromstring(content, parser=parser), ""
    except etree.XMLSyntaxError as error:
        return None, str(error)


def _status_reason(response: requests.Response) -> str:
    text = f"HTTP {response.status_code} {response.reason or ''}".rstrip()
    message = server_message(response)
    return f"{text}: {message}" if message else text


def server_message(response: requests.Response) -> str:
    """What the server said, quoted and escaped on one short line (`quoted`): an error field of a JSON body, an
    HTML title, or the first line; '' for none."""
    text = server_text(response)
    return quoted(text, 300) if text else ""


def server_text(response: requests.Response) -> str:
    """What the server said, as it said it, on one line: an error field of a JSON body, an HTML title, or the
    first line (of the first PAGE_HEAD bytes); '' for none. Not for a message: `server_message` is."""
    body = response.content.strip()
    if not body:
        return ""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        data = None
    if isinstance(data, dict):
        return _one_line(_json_error(data))
    text = body[:PAGE_HEAD].decode("utf-8", "replace")
    title = _TITLE.search(text)
    if title:
        return _one_line(title.group(1))
    first = text.splitlines()[0] if text.splitlines() else ""
    return "" if first.startswith("<") else _one_line(first)


def _json_error(data: dict) -> str:
    """The message of the error documents of ORCID, Crossref, OpenAlex and Solr (HAL)."""
    if data.get("developer-message"):  # ORCID
        return str(data["developer-message"]).split("Full validation error:")[-1]
    message = data.get("message")
    if isinstance(message, list) and message and isinstance(message[0], dict):  # Crossref
        return str(message[0].get("message", ""))
    if isinstance(message, str):  # OpenAlex
        return message
    if isinstance(data.get("error"), dict):  # Solr's (HAL's): {"error": {"msg": "undefined field foo", "code": 400}}
        return str(data["error"].get("msg") or "")
    return str(data.get("error") or "")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def retry_after_seconds(response: requests.Response | None) -> float | None:
    """Retry-After in seconds, given as a number or as an HTTP date."""
    if response is None:
        return None
    value = response.headers.get("Retry-After", "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def backoff_seconds(response: requests.Response) -> float | None:
    """A `Backoff` header's seconds (Zotero's Web API sends it, with any answer, when it wants fewer requests)."""
    try:
        return max(0.0, float(response.headers.get("Backoff", "").strip()))
    except ValueError:
        return None


def _short_reason(error: Exception) -> str:
    """'Connection refused' rather than urllib3's three nested exception reprs."""
    text = str(error)
    match = re.search(r"\[Errno -?\d+\] ([^'\"()\]]+)", text)
    if match:
        return match.group(1).strip()
    if _is_unknown_host(error):
        return "unknown host"
    return type(error).__name__


def _broken_reason(error: Exception) -> str:
    """'13 of 5000 bytes arrived' rather than urllib3's nested reprs of IncompleteRead."""
    match = re.search(r"IncompleteRead\((\d+) bytes read, (\d+) more expected\)", str(error))
    if match:
        read, more = int(match.group(1)), int(match.group(2))
        return f"{read} of {read + more} bytes arrived"
    return type(error).__name__


def _is_unknown_host(error: Exception) -> bool:
    text = str(error)
    return "NameResolutionError" in text or "Name or service not known" in text or "nodename nor servname" in text


def is_loopback(url: str) -> bool:
    return is_loopback_host(urlsplit(url).hostname or "")


def _path_and_query(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")
