"""The shared polite session with the JSON and XML judges the ORCID, Crossref, OpenAlex and dblp fetchers use.

Answers come from a stub `requests` adapter serving the services' own error
bodies (the fixture files); `sleep` is recorded instead of slept.
"""

from __future__ import annotations

import email.utils
import io
import time
from pathlib import Path

import pytest
import requests
from scripted_http import REASONS, Scripted

from sitegen.progress import Progress
from sitegen.sources.http import FetchError, PoliteSession, Settings, judge_json, judge_xml, page_words, retry_after_seconds

SOURCES = Path(__file__).resolve().parents[1] / "fixtures" / "sources"
API = "http://127.0.0.1:1/openalex"


def body(relative: str) -> bytes:
    return (SOURCES / relative).read_bytes()


def session(answers: list, **settings) -> tuple[PoliteSession, Scripted, list[float], io.StringIO]:
    waits: list[float] = []
    log = io.StringIO()
    polite = PoliteSession(
        Settings(api_url=API, **{"delay": 0, "backoff": 1.0, "user_agent": "sitegen/9 (+x; mailto:a@b.c)", **settings}),
        Progress(log, tty=False),
        "OpenAlex",
        sleep=waits.append,
    )
    adapter = Scripted(answers)
    polite.mount("http://", adapter)
    return polite, adapter, waits, log


WORK = body("openalex/works/W4412853019.json")


def test_a_whole_json_answer_is_returned_parsed():
    polite, adapter, _, _ = session([(200, WORK)])
    work = polite.fetch(f"{API}/works/W4412853019", "OpenAlex work W4412853019")
    assert work["cited_by_count"] == 14
    assert adapter.sent[0].headers["User-Agent"] == "sitegen/9 (+x; mailto:a@b.c)"


def test_a_cut_off_json_answer_is_asked_again():
    polite, adapter, waits, log = session([(200, WORK[: len(WORK) // 2]), (200, WORK)])
    assert polite.fetch(f"{API}/works/W1", "OpenAlex work W1")["id"].endswith("W4412853019")
    assert len(adapter.sent) == 2 and waits == [1.0]
    assert "cut-off or malformed JSON" in log.getvalue()


def test_a_cut_off_answer_that_persists_is_a_clear_error():
    polite, _, _, _ = session([(200, WORK[:100])] * 3, retries=2)
    with pytest.raises(FetchError, match=r"^OpenAlex work W1: cut-off or malformed JSON .*\(gave up after 3 tries\)$"):
        polite.fetch(f"{API}/works/W1", "OpenAlex work W1")


def test_429_waits_as_long_as_retry_after_says():
    too_many = body("openalex/errors/429-rate-limited.json")
    polite, _, waits, log = session([(429, too_many, {"Retry-After": "3"}), (200, WORK)])
    polite.fetch(f"{API}/works/W1", "OpenAlex work W1")
    assert waits == [3.0]
    assert "HTTP 429 Too Many Requests: 'Rate limit exceeded" in log.getvalue()


def test_retry_after_may_be_an_http_date():
    response = requests.Response()
    response.headers["Retry-After"] = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 28 <= retry_after_seconds(response) <= 30


def test_404_is_final_and_quotes_the_service():
    orcid_404 = body("orcid/errors/404-0000-0002-9999-9998.json")
    polite, adapter, _, _ = session([(404, orcid_404)])
    with pytest.raises(FetchError) as caught:
        polite.fetch("http://127.0.0.1:1/orcid/v3.0/0000-0002-9999-9998/works", "ORCID works of 0000-0002-9999-9998")
    assert str(caught.value) == ("ORCID works of 0000-0002-9999-9998: HTTP 404 Not Found: 'ORCID iD 0000-0002-9999-9998 not found'")
    assert len(adapter.sent) == 1


@pytest.mark.parametrize(
    "status, relative, said",
    [
        (404, "crossref/errors/404-resource-not-found.txt", "HTTP 404 Not Found: 'Resource not found.'"),
        (400, "crossref/errors/400-rows-invalid.json", "HTTP 400 Bad Request: 'Integer specified as 1001"),
        (404, "openalex/errors/404-not-found.html", "HTTP 404 Not Found: '404 Not Found'"),
        (400, "openalex/errors/400-per-page-invalid.json", "per-page parameter must be between 1 and 200"),
        (404, "dblp/errors/404-unknown-pid.html", "HTTP 404 Not Found: 'dblp: Error 404'"),
    ],
)
def test_each_services_error_body_is_quoted_in_one_line(status, relative, said):
    response = requests.Response()
    response.status_code, response._content, response.reason = status, body(relative), REASONS[status]
    answer = judge_json(response)
    assert not answer.ok and not answer.retry
    assert said in answer.reason and "\n" not in answer.reason


def test_an_html_page_with_status_200_is_not_taken_for_data():
    response = requests.Response()
    response.status_code, response._content = 200, b"<html><title>Maintenance</title></html>"
    response.headers["Content-Type"] = "text/html"
    answer = judge_json(response)
    assert not answer.ok and not answer.retry and "an HTML page, not a JSON answer (text/html): 'Maintenance'" == answer.reason


def test_xml_is_read_strictly_without_entities():
    response = requests.Response()
    response.status_code = 200
    response._content = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'
    answer = judge_xml(response)
    assert not answer.ok or "root:" not in (answer.data.text or "")
    response._content = body("dblp/pid/13/7777-3.xml")[:500]
    assert judge_xml(response).retry


def test_requests_are_paced_by_the_delay():
    polite, _, waits, _ = session([(200, WORK), (200, WORK)], delay=2)
    polite.fetch(f"{API}/works/W1", "first")
    polite.fetch(f"{API}/works/W1", "second")
    assert len(waits) == 1 and 1.9 < waits[0] <= 2


def test_an_unknown_host_is_not_retried():
    polite, adapter, _, _ = session([requests.ConnectionError("NameResolutionError: Name or service not known")])
    with pytest.raises(FetchError, match="cannot connect \\(unknown host\\)"):
        polite.fetch(f"{API}/works/W1", "OpenAlex work W1")
    assert len(adapter.sent) == 1


def test_a_crossref_scroll_that_skipped_a_page_is_read_again_from_the_start():
    """A retried scroll request returns the page after the lost one: the count tells, and the walk starts over."""
    from sitegen.sources.crossref import works_by_orcid

    def page(dois: list[str], cursor: str = "C1") -> bytes:
        items = ",".join(f'{{"DOI": "{d}"}}' for d in dois)
        return f'{{"message": {{"next-cursor": "{cursor}", "total-results": 3, "items": [{items}]}}}}'.encode()

    cut_off = page(["10.1234/b"])[:20]
    answers = [
        (200, page(["10.1234/a"])),
        (200, cut_off),
        (200, page(["10.1234/c"])),
        (200, page([])),  # b lost
        (200, page(["10.1234/a"], "C2")),
        (200, page(["10.1234/b"], "C2")),
        (200, page(["10.1234/c"], "C2")),
    ]
    polite, adapter, _, log = session(answers)
    works = works_by_orcid(polite, "http://127.0.0.1:1/crossref", "0000-0002-0000-0006", {}, Progress(log, tty=False))
    assert sorted(w["DOI"] for w in works) == ["10.1234/a", "10.1234/b", "10.1234/c"]
    assert "reading the list again from the start" in log.getvalue()
    assert [r.url.split("cursor=")[1].split("&")[0] for r in adapter.sent][4] == "%2A"  # the second walk starts at *


def dropped_connection() -> requests.exceptions.ChunkedEncodingError:
    """What requests raises when a connection closes after 13 of the 5000 bytes its Content-Length promised."""
    from http.client import IncompleteRead

    from urllib3.exceptions import ProtocolError

    cause = IncompleteRead(b"x" * 13, 4987)
    return requests.exceptions.ChunkedEncodingError(ProtocolError(f"Connection broken: {cause!r}", cause))


def test_a_connection_dropped_mid_answer_is_asked_again():
    polite, adapter, waits, log = session([dropped_connection(), (200, WORK)])
    assert polite.fetch(f"{API}/works/W1", "OpenAlex work W1")["id"].endswith("W4412853019")
    assert len(adapter.sent) == 2 and waits == [1.0]
    assert "connection broken in the middle of the answer (13 of 5000 bytes arrived)" in log.getvalue()


def test_a_connection_that_keeps_dropping_is_one_line_naming_the_query():
    polite, adapter, _, _ = session([dropped_connection()] * 3, retries=2)
    with pytest.raises(FetchError) as caught:
        polite.fetch(f"{API}/works/W1", "OpenAlex work W1")
    assert str(caught.value) == "OpenAlex work W1: connection broken in the middle of the answer (13 of 5000 bytes arrived) (gave up after 3 tries)"
    assert len(adapter.sent) == 3


@pytest.mark.parametrize(
    "content, said",
    [
        (b"[]", "unexpected answer from OpenAlex: a list ([]) where an object was expected"),
        (b"null", "unexpected answer from OpenAlex: null where an object was expected"),
        (b'{"meta": {}}', "unexpected answer from OpenAlex: no 'results' in the JSON object"),
        (b'{"results": "none", "meta": {}}', "unexpected answer from OpenAlex: 'results' is a string (\"none\"), not a list"),
        (b'{"results": [1], "meta": {}}', "unexpected answer from OpenAlex: an item of 'results' is a number (1), not an object"),
        (b'{"results": ["\\u001b[2J"], "meta": {}}', "an item of 'results' is a string (\"\\u001b[2J\"), not an object"),  # escaped: no terminal control
    ],
)
def test_json_of_another_shape_is_final_and_says_what_came(content, said):
    polite, adapter, _, _ = session([(200, content)])
    with pytest.raises(FetchError) as caught:
        polite.fetch(f"{API}/works", "OpenAlex works of A1 (page 1)", shape={"results": list, "results[]": dict, "meta": dict})
    assert str(caught.value).startswith("OpenAlex works of A1 (page 1): ") and said in str(caught.value)
    assert "\x1b" not in str(caught.value) and len(adapter.sent) == 1


def test_an_answer_of_the_expected_shape_is_returned():
    polite, _, _, _ = session([(200, b'{"results": [], "meta": {"count": 0}}')])
    assert polite.fetch(f"{API}/works", "works", shape={"results": list, "results[]": dict, "meta": dict}) == {"results": [], "meta": {"count": 0}}


@pytest.mark.parametrize(
    "content, kind, said",
    [
        (b"<html><body>Service maintenance</body></html>", "text/html", "an HTML page, not a JSON answer (text/html): 'Service maintenance'"),
        (b"<!DOCTYPE html><html><head><style>p{}</style></head><body><p>Down &amp; out \x1b[31m" + b"x" * 200, "text/html", "'Down & out \\x1b[31mxxx"),
        (b"", "application/json", "not a JSON answer (application/json): empty body"),
        (b"Service down for maintenance", "text/plain", "not a JSON answer (text/plain): 'Service down for maintenance'"),
        (b"\x1b]0;PWN\x07 down\r\nfor \xe2\x80\xae now", "text/plain", "not a JSON answer (text/plain): '\\x1b]0;PWN\\x07 down'"),
    ],
)
def test_a_page_that_is_no_json_is_named_for_what_it_is(content, kind, said):
    response = requests.Response()
    response.status_code, response._content = 200, content
    response.headers["Content-Type"] = kind
    answer = judge_json(response)
    assert not answer.ok and not answer.retry and said in answer.reason
    assert "\x1b" not in answer.reason and len(answer.reason) < 150


@pytest.mark.parametrize("unclosed", [b"<script", b"<!--", b"<style", b"<title", b"<"])
def test_a_megabyte_page_of_unclosed_tags_is_read_at_once(unclosed):
    """Only the page's first kilobytes are read, in one pass: 1.4 MB of `<script` took minutes (quadratic)."""
    content = b"<html><body>" + unclosed * (1_400_000 // len(unclosed))
    started = time.process_time()  # the work done, which a busy machine does not stretch as it does the wall clock
    words = page_words(content)
    assert time.process_time() - started < 0.2
    assert words == "no text"


@pytest.mark.parametrize(
    "content, words",
    [
        (b"<p>hi<script>x()</script> there <!-- a note --> you<STYLE>p{}</STYLE >all", "'hi there you all'"),
        (b"<html><head><title>A &amp; B\x1b[2J</title></head><body>x</body>", "'A & B\\x1b[2J'"),
        (b"<p>before<script>never closed", "'before'"),
        (b"x" * 20_000 + b"<title>Late</title>", "'" + "x" * 59 + "\u2026'"),  # a title after the part read is not looked for
    ],
)
def test_a_pages_words_leave_out_its_scripts_styles_and_comments(content, words):
    assert page_words(content) == words
