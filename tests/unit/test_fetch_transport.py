"""The polite HTTP layer (sitegen.sources.http) as arXiv uses it: what it retries, how long it waits, what it refuses.

Answers come from a stub `requests` adapter (no sockets) serving the shared
fixture files; `sleep` is recorded instead of slept.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import requests
from scripted_http import Scripted

from sitegen.progress import Progress
from sitegen.sources.arxiv import ArxivSource, arxiv_session, author_feed_url, author_query, describe_url, judge
from sitegen.sources.http import FetchError, PoliteSession, Settings, is_loopback

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "arxiv"
API = "http://127.0.0.1:1/api/query"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def session(answers: list, **settings) -> tuple[PoliteSession, Scripted, list[float], io.StringIO]:
    waits: list[float] = []
    log = io.StringIO()
    polite = arxiv_session(Settings(api_url=API, **{"delay": 0, "backoff": 1.0, **settings}), Progress(log, tty=False), sleep=waits.append)
    adapter = Scripted(answers)
    polite.mount("http://", adapter)
    return polite, adapter, waits, log


URL = API + "?search_query=au%3A%22Sheng+Lin%22&id_list=&sortBy=relevance&sortOrder=descending&start=0&max_results=10"


# --------------------------------------------------------------------------
# judging answers
# --------------------------------------------------------------------------


def test_a_good_page_is_accepted_with_its_counts():
    polite, adapter, waits, _ = session([(200, fixture("search-au-sheng-lin-start0.xml"))])
    assert polite.get(URL).status_code == 200
    assert waits == [] and len(adapter.sent) == 1


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504])
def test_throttling_and_server_errors_are_retried_with_doubling_backoff(status):
    answers = [(status, b"busy")] * 3 + [(200, fixture("search-au-sheng-lin-start0.xml"))]
    polite, adapter, waits, log = session(answers, backoff=0.5)
    polite.get(URL)
    assert waits == [0.5, 1.0, 2.0]
    assert f"HTTP {status}" in log.getvalue() and "try 4 of 5" in log.getvalue()


def test_backoff_is_never_shorter_than_the_delay():
    polite, _, waits, _ = session([(503, b""), (200, fixture("search-au-sheng-lin-start0.xml"))], delay=3, backoff=0.5)
    polite.get(URL)
    assert waits[0] == 3


def test_retry_after_is_honoured_and_a_huge_one_gives_up():
    polite, _, waits, _ = session([(503, b"", {"Retry-After": "7"}), (200, fixture("search-au-sheng-lin-start0.xml"))])
    polite.get(URL)
    assert waits == [7.0]
    polite, _, _, _ = session([(429, b"", {"Retry-After": "3600"})])
    with pytest.raises(FetchError, match="try again later"):
        polite.get(URL)


def test_giving_up_names_the_query_and_the_tries():
    polite, adapter, _, _ = session([(503, b"")] * 3, retries=2)
    with pytest.raises(FetchError) as caught:
        polite.get(URL)
    assert str(caught.value) == "arXiv query 'au:\"Sheng Lin\"': HTTP 503 Service Unavailable (gave up after 3 tries)"
    assert len(adapter.sent) == 3


def test_timeouts_and_refused_connections_are_retried():
    answers = [requests.ReadTimeout("slow"), requests.ConnectionError("[Errno 111] Connection refused"), (200, fixture("search-au-sheng-lin-start0.xml"))]
    polite, adapter, waits, log = session(answers, timeout=4)
    polite.get(URL)
    assert len(waits) == 2 and adapter.timeouts == [4, 4, 4]
    assert "no answer within 4 s" in log.getvalue() and "Connection refused" in log.getvalue()


def test_an_unknown_host_is_not_retried():
    polite, adapter, _, _ = session([requests.ConnectionError("NameResolutionError: Name or service not known")])
    with pytest.raises(FetchError, match="cannot connect \\(unknown host\\)"):
        polite.get(URL)
    assert len(adapter.sent) == 1


def test_arxivs_error_entry_is_final_and_quoted():
    polite, adapter, _, _ = session([(400, fixture("error-incorrect-id-format.xml"))] * 5)
    with pytest.raises(FetchError, match="arXiv says: 'incorrect id format for not-an-id' \\(HTTP 400\\)"):
        polite.get(API + "?search_query=&id_list=not-an-id&start=0&max_results=10")
    assert len(adapter.sent) == 1


def test_an_error_entry_with_status_200_is_still_an_error():
    assert not judge(_response(200, fixture("error-incorrect-id-format.xml"))).ok


def test_a_cut_off_page_is_retried_then_reported_as_malformed():
    cut = fixture("malformed-truncated.xml")
    polite, adapter, _, _ = session([(200, cut)] * 2, retries=1)
    with pytest.raises(FetchError, match=r"malformed XML .*gave up after 2 tries"):
        polite.get(URL)


def test_a_non_feed_answer_is_refused():
    assert "not an Atom feed" in judge(_response(200, b"<html><body>maintenance</body></html>")).reason
    answer = judge(_response(404, b"not found\n"))
    assert not answer.ok and not answer.retry and answer.reason == "HTTP 404: 'not found'"
    answer = judge(_response(404, b"\x1b]0;PWN\x07\x1b[2J gone\n"))  # escaped, as every server's text is
    assert answer.reason == "HTTP 404: '\\x1b]0;PWN\\x07\\x1b[2J gone'"


def _response(status: int, body: bytes) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response._content = body
    return response


# --------------------------------------------------------------------------
# headers, pacing, progress
# --------------------------------------------------------------------------


def test_our_user_agent_replaces_the_packages():
    polite, adapter, _, _ = session([(200, fixture("search-au-sheng-lin-start0.xml"))], user_agent="sitegen/9 (+x)")
    polite.get(URL, headers={"user-agent": "arxiv.py/4.0.2"})
    assert adapter.sent[0].headers["User-Agent"] == "sitegen/9 (+x)"


def test_requests_are_paced_by_the_delay():
    page = fixture("search-au-sheng-lin-start0.xml")
    polite, _, waits, _ = session([(200, page), (200, page)], delay=2)
    polite.get(URL)
    polite.get(URL)
    assert len(waits) == 1 and 1.9 < waits[0] <= 2


def test_progress_reports_pages_in_plain_lines():
    polite, _, _, log = session([(200, fixture("search-au-sheng-lin-start10.xml"))])
    polite.get(URL.replace("start=0", "start=10"))
    assert log.getvalue() == 'arXiv: au:"Sheng Lin": page 2 of 2, 18 of 18 records\n'


def test_progress_on_a_terminal_redraws_one_line():
    out = io.StringIO()
    progress = Progress(out, tty=True)
    progress.line("page 1")
    progress.status("waiting")
    progress.done()
    assert out.getvalue() == "\r\x1b[2Kpage 1\r\x1b[2Kwaiting\r\x1b[2K"


def test_a_proxy_is_not_used_for_loopback():
    assert is_loopback("http://127.0.0.1:8/api/query") and is_loopback("http://localhost/x") and is_loopback("http://[::1]:5/")
    assert not is_loopback("https://export.arxiv.org/api/query")
    assert PoliteSession(Settings(api_url=API), Progress(io.StringIO(), tty=False), "arXiv").trust_env is False
    assert PoliteSession(Settings("https://export.arxiv.org/api/query"), Progress(io.StringIO(), tty=False), "arXiv").trust_env is True


# --------------------------------------------------------------------------
# queries and the package's configuration
# --------------------------------------------------------------------------


def test_author_query_groups_alternatives_for_arxivs_right_to_left_operators():
    assert author_query(["Sheng Lin"], []) == 'au:"Sheng Lin"'
    assert author_query(["A B", "C"], ["cs.DC", "hep-ph"]) == '(au:"A B" OR au:"C") AND (cat:cs.DC OR cat:hep-ph)'
    assert author_query(['Evil" OR all:x'], []) == 'au:"Evil OR all:x"'


def test_describe_url_shows_the_query_a_user_asked():
    assert describe_url(URL) == 'au:"Sheng Lin"'
    assert describe_url(URL.replace("start=0", "start=10")) == 'au:"Sheng Lin" (start 10)'
    many = API + "?search_query=&id_list=" + ",".join(str(i) for i in range(8)) + "&start=0"
    assert describe_url(many) == "id_list=0,1,2,3,4,… (8 ids)"


def test_author_feed_lives_beside_the_api():
    assert author_feed_url("http://127.0.0.1:5/api/query", "lin_s_1") == "http://127.0.0.1:5/a/lin_s_1.atom"
    assert author_feed_url("https://export.arxiv.org/api/query", "lin_s_1") == "https://arxiv.org/a/lin_s_1.atom"


def test_the_arxiv_client_is_configured_for_our_endpoint_page_size_and_delay():
    source = ArxivSource(Settings(api_url=API, delay=3, page_size=5000), Progress(io.StringIO(), tty=False))
    assert source.client.query_url_format == API + "?{}"
    assert source.client.page_size == 2000  # arXiv's limit
    assert source.client.delay_seconds == 3
    assert source.client._session is source.session
