"""Live reload in a real browser: Debian's chromium, driven by Playwright, against `sitegen serve`.

Each test opens a served page in a fresh page of Debian's chromium (the `page`
fixture of tests/browser/conftest.py, skipped with a reason when /usr/bin/chromium
is missing), waits until the page's livereload.js has shaken hands with the server,
changes a file the way an editor would, and waits for the change to appear in the
page that is already open. Nothing here reloads the page.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import stop_process

pytestmark = pytest.mark.browser

LIVE_SECONDS = 10  # from saving a file to seeing it in the page: "within a few seconds"
RECORD = "content/records/2008.06613.yaml"
RECORD_TITLE = "A Primal–Dual Method for Communication-Constrained Bandwidth Allocation"
CONNECTED = "() => window.LiveReload !== undefined && window.LiveReload.connector.protocol >= 7"


# --- the server and the browser -------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def serving(site: Path) -> Iterator[str]:
    """`python -m sitegen serve` on a free port; yields the URL; Ctrl-C (then kill) at the end."""
    port = free_port()
    log = site.parent / "serve.log"
    with log.open("wb") as sink:
        process = subprocess.Popen([sys.executable, "-m", "sitegen", "serve", "--site", str(site), "--port", str(port)], stdout=sink, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while "Serving" not in log.read_text(errors="replace"):
            assert process.poll() is None and time.monotonic() < deadline, f"sitegen serve did not start:\n{log.read_text(errors='replace')}"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/"
    except BaseException:
        print(f"server log:\n{log.read_text(errors='replace')}")  # shown by pytest when a test fails
        raise
    finally:
        stop_process(process)


def open_live(page, url: str) -> None:
    """Open `url` and wait until its livereload.js is connected, so that no change can be missed."""
    page.goto(url)
    wait_live(page)


def wait_live(page) -> None:
    page.wait_for_function(CONNECTED, timeout=LIVE_SECONDS * 1000)


def mark_page(page) -> None:
    """Leave a mark in the open page's JavaScript state; a page (re)load wipes it."""
    page.evaluate("() => { window.__sitegenMark = 'still the same page'; }")


def page_was_reloaded(page) -> bool:
    return page.evaluate("() => window.__sitegenMark") != "still the same page"


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def body_text(page) -> str:
    return page.locator("body").inner_text()


def wait_for_text(page, text: str) -> None:
    page.wait_for_function("text => document.body !== null && document.body.innerText.includes(text)", arg=text, timeout=LIVE_SECONDS * 1000)


# --- the tests ------------------------------------------------------------------------


def test_a_record_title_edit_appears_in_the_open_profile(page, demo_site: Path) -> None:
    with serving(demo_site) as url:
        open_live(page, url)
        assert RECORD_TITLE in body_text(page)
        mark_page(page)
        replace_in(demo_site / RECORD, RECORD_TITLE, "Bandwidth Allocation, Seen Live")
        started = time.monotonic()
        wait_for_text(page, "Bandwidth Allocation, Seen Live")
        print(f"\nrecord edit visible in the open page after {time.monotonic() - started:.2f} s")
        assert page_was_reloaded(page)  # livereload.js reloaded it; nobody else did
        assert page.url == url and RECORD_TITLE not in body_text(page)


def test_a_record_title_edit_appears_in_the_open_record_page(page, demo_site: Path) -> None:
    with serving(demo_site) as url:
        open_live(page, url + "records/2008.06613/")
        replace_in(demo_site / RECORD, RECORD_TITLE, "Record Page, Seen Live")
        wait_for_text(page, "Record Page, Seen Live")
        assert page.title().startswith("Record Page, Seen Live")


def test_a_template_edit_appears_in_the_open_page(page, demo_site: Path) -> None:
    template = demo_site / "templates" / "index.html"
    template.parent.mkdir()
    template.write_text(
        '{% extends "!theme/index.html" %}\n{% block main %}<p id="live-marker">template v1</p>{{ super() }}{% endblock %}\n',
        encoding="utf-8",
    )
    with serving(demo_site) as url:
        open_live(page, url)
        assert page.locator("#live-marker").inner_text() == "template v1"
        replace_in(template, "template v1", "template v2")
        page.wait_for_function("() => document.getElementById('live-marker')?.innerText === 'template v2'")
        assert RECORD_TITLE in body_text(page)


def test_a_site_yaml_edit_appears_in_the_open_page(page, demo_site: Path) -> None:
    description = 'meta[name="description"]'
    with serving(demo_site) as url:
        open_live(page, url)
        assert page.locator(description).get_attribute("content").startswith("Research on efficient")
        replace_in(demo_site / "content" / "site.yaml", 'description: "Research on', 'description: "Live-reloaded research on')
        page.wait_for_function("selector => document.querySelector(selector)?.content.startsWith('Live-reloaded research on')", arg=description)


def test_a_broken_record_shows_the_error_page_and_the_fix_brings_the_profile_back(page, demo_site: Path) -> None:
    with serving(demo_site) as url:
        open_live(page, url)
        replace_in(demo_site / RECORD, "year: 2020", "year: [2020")
        wait_for_text(page, "The site did not build")
        problems = page.locator("ul.problems li").all_inner_texts()
        assert len(problems) == 1 and problems[0].startswith(f"{RECORD}:") and "invalid YAML" in problems[0]
        wait_live(page)  # the error page reloads itself too
        replace_in(demo_site / RECORD, "year: [2020", "year: 2020")
        wait_for_text(page, RECORD_TITLE)
        assert "The site did not build" not in body_text(page)


def test_a_stylesheet_edit_restyles_the_open_page_without_reloading_it(page, demo_site: Path) -> None:
    """livereload's live CSS: one changed stylesheet is swapped in place."""
    theme = demo_site / "themes" / "mine"
    shutil.copytree(Path(__import__("sitegen").__file__).parent / "themes" / "default", theme)
    replace_in(demo_site / "content" / "site.yaml", "theme: default", "theme: mine")
    stylesheet = theme / "static" / "style.css"
    stylesheet.write_text(stylesheet.read_text(encoding="utf-8") + "\nbody { outline: 3px solid rgb(1, 2, 3); }\n", encoding="utf-8")
    with serving(demo_site) as url:
        open_live(page, url)
        outline = "() => getComputedStyle(document.body).outlineColor"
        assert page.evaluate(outline) == "rgb(1, 2, 3)"
        mark_page(page)
        replace_in(stylesheet, "rgb(1, 2, 3)", "rgb(4, 5, 6)")
        page.wait_for_function(f"() => ({outline})() === 'rgb(4, 5, 6)'")
        assert not page_was_reloaded(page)
