"""The demo site as a university's data-protection office checks it: served from a sub-path with the strict
Content-Security-Policy `default-src 'self'`, no page breaks a rule of it (no inline script or style), the
site.yaml colours and the visitor's dark-mode choice still hold, and no page asks another host for anything.
"""

from __future__ import annotations

import http.server
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import copy_demo, run_sitegen  # tests/conftest.py
from crawl import serve_directory  # tests/crawl.py

expect = pytest.importorskip("playwright.sync_api").expect

CSP = "default-src 'self'"
PAGES = ["", "records/2403.09176/", "subjects/cs.DC/", "cv/", "news/", "talks/", "posts/", "about/", "404.html"]


class _StrictHandler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        super().end_headers()


@pytest.fixture(scope="module")
def built_for_a_university(tmp_path_factory) -> Path:
    """The demo with its own accent and fonts and a record's picture from another site, built for
    https://www.uni.example/~lena/."""
    site = copy_demo(tmp_path_factory.mktemp("privacy") / "demo")
    with (site / "content" / "site.yaml").open("a", encoding="utf-8") as settings:
        settings.write('accent: "#b5179e"\nfont: [Georgia, serif]\n')
    (site / "content" / "records" / "teaser.yaml").write_text(
        "id: teaser2024\ntitle: A paper with a teaser\nauthors: [Lena Müller]\nyear: 2024\nsource: Journal of Examples\n"
        "image: https://images.example.org/teaser.png\n",
        encoding="utf-8",
    )
    result = run_sitegen("build", "--site", str(site), "--base-url", "https://www.uni.example/~lena/")
    assert result.returncode == 0, result.stderr
    return site / "output"


@pytest.fixture(scope="module")
def served_strictly(built_for_a_university) -> Iterator[str]:
    """The site at /~lena/ on loopback, with the strict policy."""
    with serve_directory(built_for_a_university, prefix="/~lena/", files=_StrictHandler) as base_url:
        yield base_url


@pytest.fixture(scope="module")
def served(built_for_a_university) -> Iterator[str]:
    """The site at /~lena/ on loopback, with no policy: what it asks for is what the browser fetches."""
    with serve_directory(built_for_a_university, prefix="/~lena/") as base_url:
        yield base_url


def _refusals(page) -> list[str]:
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None)
    return refused


def test_no_page_breaks_a_strict_content_security_policy(new_page, served_strictly):
    page = new_page()
    refused = _refusals(page)
    for path in PAGES:
        page.goto(served_strictly + path)
        page.wait_for_load_state("load")
    page.goto(served_strictly + "records/2403.09176/")
    page.locator("details.cite-styles > summary").click()
    expect(page.locator("#cite-apa")).not_to_contain_text("Formatting")
    assert refused == []
    # the colours and fonts of site.yaml are in force, not refused
    assert page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()") == "#b5179e"
    assert "Georgia" in page.evaluate("getComputedStyle(document.body).fontFamily")


def test_the_dark_mode_choice_holds_from_page_to_page_under_a_strict_policy(new_page, served_strictly):
    page = new_page(color_scheme="light")
    page.goto(served_strictly)
    page.locator("button.scheme-toggle").click()
    assert page.evaluate("document.documentElement.getAttribute('data-colour-scheme')") == "dark"
    page.goto(served_strictly + "cv/", wait_until="domcontentloaded")
    assert page.evaluate("document.documentElement.getAttribute('data-colour-scheme')") == "dark"
    page.wait_for_load_state("load")
    assert page.locator("button.scheme-toggle").get_attribute("aria-pressed") == "true"


def test_no_page_asks_another_host_for_anything(new_page, served):
    """Without the policy's help: every request a page makes, pictures scrolled into view included, goes to the
    site's own host."""
    page = new_page()
    elsewhere: list[str] = []
    own = served.split("/~lena/")[0]
    page.route("**/*", lambda route: (elsewhere.append(route.request.url), route.abort()) if not route.request.url.startswith(own) else route.continue_())
    for path in [*PAGES, "records/teaser2024/"]:
        page.goto(served + path)
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_load_state("networkidle")
    assert elsewhere == []
    # the record's picture from elsewhere is still its link preview's, which crawlers fetch, not visitors
    page.goto(served + "records/teaser2024/")
    assert page.locator('meta[property="og:image"]').get_attribute("content") == "https://images.example.org/teaser.png"
