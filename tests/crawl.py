"""Serve a built site under a sub-path, as GitHub project pages do, and crawl it.

    with serve_directory(site / "output", prefix="/mysite/") as base_url:
        report = crawl(base_url)
    assert not report.problems, report.describe()

`serve_directory` answers only under the prefix (everything else is 404), so a
link that forgets the sub-path is caught. `crawl` follows every same-origin
reference of the pages it finds (href/src/srcset of a, link, script, img,
source, and url(...) in stylesheets), fetches each once, and reports what is
broken (not 200), what escapes the prefix, and `#fragments` that name no
element of their page. Other origins are listed, never fetched: tests have no
network but loopback.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import re
import threading
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

from bs4 import BeautifulSoup

REFERENCE_ATTRIBUTES = {
    "a": ("href",),
    "link": ("href",),
    "script": ("src",),
    "img": ("src", "srcset"),
    "source": ("src", "srcset"),
    "iframe": ("src",),
}
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]""")
NOT_FETCHED_SCHEMES = ("mailto:", "tel:", "data:", "javascript:")


@dataclass(frozen=True)
class BrokenLink:
    page: str  # where the reference is
    url: str  # what it points to
    status: int | str  # the HTTP status, or why it could not be fetched


@dataclass
class CrawlReport:
    pages: list[str] = field(default_factory=list)  # HTML pages crawled
    fetched: list[str] = field(default_factory=list)  # every same-origin URL fetched
    broken: list[BrokenLink] = field(default_factory=list)
    outside: list[tuple[str, str]] = field(default_factory=list)  # (page, url) leaving the prefix
    missing_anchors: list[tuple[str, str]] = field(default_factory=list)  # (page, url#fragment)
    external: set[str] = field(default_factory=set)  # other origins: not fetched

    @property
    def problems(self) -> list[str]:
        return (
            [f"{b.page}: {b.url} -> {b.status}" for b in self.broken]
            + [f"{page}: {url} leaves the site's sub-path" for page, url in self.outside]
            + [f"{page}: {url}: no element has this id" for page, url in self.missing_anchors]
        )

    def describe(self) -> str:
        return "\n".join(self.problems) or f"{len(self.pages)} pages, {len(self.fetched)} URLs: no problem"


# --------------------------------------------------------------------------
# Serving
# --------------------------------------------------------------------------


class _SubPathHandler(http.server.SimpleHTTPRequestHandler):
    """Serves `directory` at `prefix` only; anything else is 404, like a project page's host."""

    prefix = "/"

    def translate_path(self, path: str) -> str:
        return super().translate_path("/" + urlsplit(path).path[len(self.prefix) :])

    def send_head(self):
        path = urlsplit(self.path).path
        if path == self.prefix.rstrip("/"):  # /mysite -> /mysite/, as GitHub does
            self.send_response(301)
            self.send_header("Location", self.prefix)
            self.end_headers()
            return None
        if not path.startswith(self.prefix):
            self.send_error(404, "outside the served sub-path")
            return None
        return super().send_head()

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serve_directory(
    directory: Path, prefix: str = "/mysite/", port: int = 0, files: type[http.server.SimpleHTTPRequestHandler] = http.server.SimpleHTTPRequestHandler
) -> Iterator[str]:
    """Serve `directory` on 127.0.0.1 under `prefix`; yields the base URL (`http://127.0.0.1:PORT/mysite/`).
    `files` answers for the files under the prefix (a handler that compresses them, say)."""
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    handler = functools.partial(type("Handler", (_SubPathHandler, files), {"prefix": prefix}), directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, name="serve_directory", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# --------------------------------------------------------------------------
# Crawling
# --------------------------------------------------------------------------


@dataclass
class _Fetched:
    url: str  # after redirects
    status: int | str
    content_type: str = ""
    body: bytes = b""


_LOOPBACK_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through an http_proxy


def fetch(url: str, timeout: float = 10) -> _Fetched:
    try:
        with _LOOPBACK_OPENER.open(url, timeout=timeout) as response:
            return _Fetched(response.geturl(), response.status, response.headers.get_content_type(), response.read())
    except urllib.error.HTTPError as error:
        return _Fetched(url, error.code)
    except (urllib.error.URLError, OSError) as error:
        return _Fetched(url, f"error: {error}")


def crawl(start_url: str, scope: str | None = None, max_urls: int = 5000) -> CrawlReport:
    """Visit every same-origin URL reachable from `start_url`; report what is broken.

    `scope` is the path prefix links must stay under (default: the start URL's folder).
    """
    start = urlsplit(start_url)
    origin = f"{start.scheme}://{start.netloc}"
    scope = scope or start.path[: start.path.rfind("/") + 1] or "/"
    report = CrawlReport()
    ids_of_page: dict[str, set[str]] = {}
    fragment_refs: list[tuple[str, str]] = []
    queue: deque[tuple[str, str]] = deque([("(start)", start_url)])
    seen: set[str] = {start_url}
    while queue and len(report.fetched) < max_urls:
        page, url = queue.popleft()
        result = fetch(url)
        report.fetched.append(url)
        if result.status != 200:
            report.broken.append(BrokenLink(page, url, result.status))
            continue
        if not urlsplit(result.url).path.startswith(scope):
            report.outside.append((page, result.url))
            continue
        if result.content_type == "text/html":
            report.pages.append(url)
            soup = BeautifulSoup(result.body, "lxml")
            ids_of_page[url] = {tag["id"] for tag in soup.find_all(id=True)} | {a["name"] for a in soup.find_all("a", attrs={"name": True})}
            references = html_references(soup)
        elif result.content_type == "text/css":
            references = css_references(result.body.decode("utf-8", "replace"))
        else:
            continue
        for reference in references:
            target = urljoin(result.url, reference)
            if reference.startswith(NOT_FETCHED_SCHEMES) or not target.startswith(("http://", "https://")):
                continue
            without_fragment, fragment = urldefrag(target)
            if not without_fragment.startswith(origin + "/"):
                report.external.add(target)
                continue
            if fragment:
                fragment_refs.append((url, target))
            if not urlsplit(without_fragment).path.startswith(scope):
                report.outside.append((url, target))
                continue
            if without_fragment not in seen:
                seen.add(without_fragment)
                queue.append((url, without_fragment))
    report.missing_anchors = [(page, target) for page, target in fragment_refs if _anchor_missing(target, ids_of_page)]
    return report


def _anchor_missing(target: str, ids_of_page: dict[str, set[str]]) -> bool:
    url, fragment = urldefrag(target)
    ids = ids_of_page.get(url)
    return ids is not None and unquote(fragment) not in ids  # only HTML pages have anchors to check


def html_references(soup: BeautifulSoup) -> list[str]:
    """Every URL a page refers to: links, scripts, styles, images (each candidate of a srcset)."""
    references: list[str] = []
    for tag_name, attributes in REFERENCE_ATTRIBUTES.items():
        for tag in soup.find_all(tag_name):
            for attribute in attributes:
                value = tag.get(attribute)
                if not value:
                    continue
                if attribute == "srcset":
                    references += [candidate.split()[0] for candidate in value.split(",") if candidate.strip()]
                else:
                    references.append(value.strip())
    for style in soup.find_all("style"):
        references += css_references(style.get_text())
    return references


def css_references(css: str) -> list[str]:
    return [match.group(1) or match.group(2) for match in CSS_URL.finditer(css)]
