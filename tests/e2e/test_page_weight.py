"""Page weight budgets of the demo (issue 29), measured as a browser fetches the pages.

The demo is served gzip-compressed, as GitHub Pages serves it, and loaded in Debian's
chromium: the profile page's HTML, CSS and JavaScript transferred stay within 60 KB; no
request blocks rendering besides the one stylesheet; fonts, if any, come from the site
itself, two files at most; and nothing is fetched from another host.
"""

from __future__ import annotations

import gzip
import http.server
import io
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup
from crawl import serve_directory  # tests/crawl.py

pytestmark = [pytest.mark.browser]

PROFILE_BUDGET = 60 * 1024  # HTML + CSS + JS of the profile page, as transferred
FONT_FILES = 2
COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".xml", ".csl", ".txt", ".bib", ".ris")


class GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzip-compressed when the client accepts it (as GitHub Pages does)."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not urlsplit(self.path).path.endswith("/"):
                return super().send_head()  # its redirect to the folder's address
            path = path / "index.html"
        if not (path.is_file() and path.name.endswith(COMPRESSED) and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


@pytest.fixture(scope="module")
def gzip_demo(built_demo) -> Iterator[str]:
    with serve_directory(built_demo, prefix="/", files=GzipHandler) as base:
        yield base


def transfers(browser, url: str) -> list[dict]:
    """Every response of loading `url` until the network is idle: URL, resource type, bytes as transferred."""
    context = browser.new_context()
    page = context.new_page()
    seen = []
    page.on("requestfinished", lambda request: seen.append(request))
    try:
        page.goto(url, wait_until="networkidle")
        return [
            {"url": r.url, "type": r.resource_type, "bytes": r.sizes()["responseBodySize"], "encoding": (r.response().headers.get("content-encoding") or "")}
            for r in seen
        ]
    finally:
        context.close()


@pytest.fixture(scope="module")
def browser(pytestconfig):
    from browser.conftest import shared_browser

    return shared_browser(pytestconfig)


def test_profile_page_weight_is_within_budget(browser, gzip_demo, capsys):
    loaded = transfers(browser, gzip_demo)
    counted = [r for r in loaded if r["type"] in ("document", "stylesheet", "script")]
    assert {r["type"] for r in counted} >= {"document", "stylesheet", "script"}
    assert all(r["encoding"] == "gzip" for r in counted), counted
    total = sum(r["bytes"] for r in counted)
    everything = sum(r["bytes"] for r in loaded)
    with capsys.disabled():
        print(f"\nprofile page: HTML+CSS+JS {total / 1024:.1f} KB gzip ({len(counted)} files); everything loaded {everything / 1024:.1f} KB")
        for r in loaded:
            print(f"  {r['bytes']:>7} {r['type']:<10} {r['url']}")
    assert total <= PROFILE_BUDGET


@pytest.mark.parametrize("page", ["", "records/2601.08832/", "subjects/cs.DC/"])
def test_only_one_request_blocks_rendering(built_demo, page):
    """One stylesheet; every script deferred, async or a module; no stylesheet loaded by @import."""
    soup = BeautifulSoup((built_demo / page / "index.html").read_text(encoding="utf-8"), "lxml")
    stylesheets = [link for link in soup.find_all("link", rel="stylesheet") if link.get("media", "all") in ("all", "screen", "")]
    assert len(stylesheets) == 1, [str(s) for s in stylesheets]
    blocking = [str(s) for s in soup.find_all("script", src=True) if not (s.has_attr("defer") or s.has_attr("async") or s.get("type") == "module")]
    assert blocking == []
    css = (built_demo / stylesheets[0]["href"].lstrip("/")).read_text(encoding="utf-8")
    assert "@import" not in css


def test_fonts_are_self_hosted_and_few(browser, gzip_demo, built_demo):
    origin = gzip_demo.rstrip("/")
    fonts = []
    for page in ("", "records/2601.08832/", "subjects/cs.DC/"):
        loaded = transfers(browser, gzip_demo + page)
        assert all(r["url"].startswith(origin) for r in loaded), [r["url"] for r in loaded if not r["url"].startswith(origin)]
        fonts += [r["url"] for r in loaded if r["type"] == "font"]
    assert len(set(fonts)) <= FONT_FILES
    for css in built_demo.glob("static/**/*.css"):
        text = css.read_text(encoding="utf-8")
        assert not re.search(r"url\(\s*['\"]?(https?:)?//", text), css  # no font or image from another host
