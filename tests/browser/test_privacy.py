"""The demo site as a university's data-protection office checks it: served from a sub-path with the strict
Content-Security-Policy `default-src 'self'` and the hash docs/security.md gives for the one inline script, no page
breaks a rule of it; with `default-src 'self'` alone, the site.yaml colours and the visitor's dark-mode choice still
hold; and no page asks another host for anything.
"""

from __future__ import annotations

import http.server
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import copy_demo, run_sitegen  # tests/conftest.py
from crawl import serve_directory  # tests/crawl.py

expect = pytest.importorskip("playwright.sync_api").expect

REPO = Path(__file__).resolve().parents[2]
STRICT = "default-src 'self'"
HASHES = re.findall(r"'sha256-[A-Za-z0-9+/]+=*'", (REPO / "docs" / "security.md").read_text(encoding="utf-8"))
WITH_HASHES = f"default-src 'self'; script-src 'self' {' '.join(HASHES)}"
PAGES = ["", "records/2403.09176/", "subjects/cs.DC/", "cv/", "news/", "talks/", "posts/", "about/", "404.html"]


def _handler(policy: str) -> type[http.server.SimpleHTTPRequestHandler]:
    class Handler(http.server.SimpleHTTPRequestHandler):
        def end_headers(self) -> None:
            self.send_header("Content-Security-Policy", policy)
            super().end_headers()

    return Handler


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
    """The site at /~lena/ on loopback, with `default-src 'self'` alone."""
    with serve_directory(built_for_a_university, prefix="/~lena/", files=_handler(STRICT)) as base_url:
        yield base_url


@pytest.fixture(scope="module")
def served_with_hashes(built_for_a_university) -> Iterator[str]:
    """The site at /~lena/ on loopback, with `default-src 'self'` and the documented hashes."""
    assert HASHES, "docs/security.md names no script hash"
    with serve_directory(built_for_a_university, prefix="/~lena/", files=_handler(WITH_HASHES)) as base_url:
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


def test_no_page_breaks_a_strict_policy_with_the_documented_hash(new_page, served_with_hashes):
    page = new_page()
    refused = _refusals(page)
    for path in PAGES:
        page.goto(served_with_hashes + path)
        page.wait_for_load_state("load")
    page.goto(served_with_hashes + "records/2403.09176/")
    page.locator("details.cite-styles > summary").click()
    expect(page.locator("#cite-apa")).not_to_contain_text("Formatting")
    assert refused == []
    # the colours and fonts of site.yaml are in force, not refused
    assert page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()") == "#b5179e"
    assert "Georgia" in page.evaluate("getComputedStyle(document.body).fontFamily")


def test_under_default_src_self_alone_the_look_and_the_dark_mode_choice_hold(new_page, served_strictly):
    """The inline line that sets a stored choice before the first paint is refused (the one refusal); colour-scheme.js
    sets it a moment later, so the choice holds from page to page all the same, and the colours are the site's."""
    page = new_page(color_scheme="light")
    refused = _refusals(page)
    page.goto(served_strictly)
    page.locator("button.scheme-toggle").click()
    assert page.evaluate("document.documentElement.getAttribute('data-colour-scheme')") == "dark"
    page.goto(served_strictly + "cv/")
    page.wait_for_load_state("load")
    expect(page.locator("html")).to_have_attribute("data-colour-scheme", "dark")
    expect(page.locator("button.scheme-toggle")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()") != ""
    assert refused and all("inline script" in message for message in refused), refused


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
