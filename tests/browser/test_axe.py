"""axe-core finds no WCAG 2.1 A/AA violation on any kind of page of the demo, in light and dark.

axe-core's own script (shipped in the axe-playwright-python package) runs in
Debian's chromium on each page as a visitor sees it; every violation is
printed with the elements it names.
"""

from __future__ import annotations

import pytest

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed")

WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
PAGES = [
    "",  # the profile
    "records/2403.09176/",
    "subjects/cs.DC/",
    "cv/",
    "news/",
    "posts/",
    "posts/checkpoint-intervals/",  # a post with math, a picture, tags, a list of records and a link to the post before it
    "posts/tags/scheduling/",  # a tag's list, its tag marked current
    "talks/",
    "projects/",  # cards with pictures, a heading over the current and the past ones
    "projects/gradient-compression/",  # a past project: its picture of its folder, text with math, its records
    "records/muller2025kestrel/",  # a record that names the project it belongs to
    "about/",
    "teaching/",
    "cited/",
    "404.html",
]


def violations_on(page, url: str) -> list[str]:
    page.goto(url)
    results = axe_playwright.Axe().run(page, options=WCAG_21_AA)
    found = []
    for violation in results.response["violations"]:
        targets = "; ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
        found.append(f"{violation['id']} ({violation['impact']}): {violation['help']} — {targets}")
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", PAGES)
def test_no_axe_violation(new_page, served_demo, path: str, scheme: str) -> None:
    page = new_page(color_scheme=scheme)
    found = violations_on(page, served_demo + path)
    assert found == [], f"{path or 'profile'} ({scheme}):\n" + "\n".join(found)
