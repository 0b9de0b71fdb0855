"""Playwright fixtures for the browser tests: Debian's chromium, one browser per session.

    def test_something(page, served_demo):
        page.goto(served_demo)

`browser` (session) is a Playwright Browser; `page` (per test) is a fresh page in
its own context, so cookies, permissions and colour scheme never leak between
tests. `new_page(**context_options)` makes more pages (dark mode, a phone, granted
clipboard permissions); they are closed after the test. `served_demo` is the
base URL of the built demo site, served over HTTP on loopback.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from crawl import serve_directory  # tests/crawl.py

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def pytest_collection_modifyitems(items):
    """Every test in this folder drives the browser."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


_SESSION: dict = {}  # the one Playwright and chromium of this test run


def shared_browser(config: pytest.Config):
    """The test run's chromium, started on first use and closed when pytest ends.

    One Playwright (sync API) may run at a time, so every browser test, in this
    folder or elsewhere (`from browser.conftest import shared_browser`), shares it.
    """
    if "browser" not in _SESSION:
        if not CHROMIUM.exists():
            pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests")
        sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
        playwright = sync_api.sync_playwright().start()
        try:
            _SESSION["browser"] = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        except BaseException:
            playwright.stop()
            raise
        _SESSION["playwright"] = playwright
        config.add_cleanup(_close_shared_browser)
    return _SESSION["browser"]


def _close_shared_browser() -> None:
    browser, playwright = _SESSION.pop("browser", None), _SESSION.pop("playwright", None)
    try:
        if browser is not None:
            browser.close()
    finally:
        if playwright is not None:
            playwright.stop()


@pytest.fixture(scope="session")
def browser(pytestconfig):
    return shared_browser(pytestconfig)


@pytest.fixture
def new_page(browser):
    """Factory: new_page(color_scheme="dark", viewport={...}, permissions=[...]) -> Page."""
    contexts = []

    def make(**context_options):
        context = browser.new_context(**context_options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page):
    return new_page()


def serve(directory: Path) -> contextlib.AbstractContextManager[str]:
    """Serve `directory` at the root of http://127.0.0.1:PORT/ while the block runs."""
    return serve_directory(directory, prefix="/")


@pytest.fixture(scope="session")
def served_demo(built_demo) -> Iterator[str]:
    """Base URL of the built demo site on a loopback HTTP server."""
    with serve(built_demo) as base_url:
        yield base_url
