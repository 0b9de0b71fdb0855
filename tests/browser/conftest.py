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
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

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


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve `directory` at the root of http://127.0.0.1:PORT/ while the block runs."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def served_demo(built_demo) -> Iterator[str]:
    """Base URL of the built demo site on a loopback HTTP server."""
    with serve(built_demo) as base_url:
        yield base_url
