"""`toc: true` in a page's or a post's front matter: a table of contents above its text, as al-folio, Hugo Blox and
Quarto users write it, linking to each section (and subsection, and list of records) of the page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import rendered_files, run_sitegen, write_site

TEACHING = """---
title: Teaching
toc: true
---
I teach two courses.

## Distributed systems

Every winter term.

### Exercises

Weekly.

### Exams & grading

In March.

## Reading group {#reading}

{{< publications title="Papers we read" >}}

{{< publications >}}
"""


def site(tmp_path, files: dict[str, str]):
    return write_site(
        tmp_path,
        {
            "content/site.yaml": "title: Jane Doe\nlanguage: fr\n",
            "content/profile.yaml": "name: Jane Doe\n",
            "content/records/a.yaml": "id: a2024\ntitle: A paper\nauthors: [Jane Doe]\nyear: 2024\n",
            **files,
        },
    )


def contents_of(data: bytes) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """The table of contents as a reader follows it: each entry's text and address, with its subentries."""
    page = BeautifulSoup(data.decode("utf-8"), "html.parser")
    nav = page.select_one("nav.contents")
    assert nav is not None and nav["aria-labelledby"] == "contents-title"
    assert page.find(id="contents-title").get_text() == "Sommaire"
    entries = []
    for item in nav.select(":scope > ol > li"):
        link = item.find("a")
        sub = [(a.get_text(), a["href"]) for a in item.select(":scope > ol a")]
        entries.append((link.get_text(), link["href"], sub))
        for href in [link["href"], *(href for _, href in sub)]:
            assert page.find(id=href[1:]) is not None, href  # every entry leads to its section
    return entries


def test_a_pages_contents_link_to_its_sections_subsections_and_lists(tmp_path):
    files = rendered_files(site(tmp_path, {"content/pages/teaching.md": TEACHING}))
    assert contents_of(files["teaching/index.html"]) == [
        ("Distributed systems", "#distributed-systems", [("Exercises", "#exercises"), ("Exams & grading", "#exams--grading")]),
        ("Reading group", "#reading", []),
        ("Papers we read", "#publications-1", []),
        ("Publications", "#publications-2", []),  # a list with no title of its own: named as the theme names it
    ]


def test_a_post_has_contents_too_and_a_page_without_toc_has_none(tmp_path):
    post = "---\ntitle: Notes\ndate: 2025-01-02\ntoc: true\n---\n# One\n\nText.\n\n# Two\n\nText.\n"
    files = rendered_files(site(tmp_path, {"content/posts/notes.md": post, "content/pages/plain.md": "---\ntitle: Plain\n---\n## A section\n\nText.\n"}))
    assert contents_of(files["posts/notes/index.html"]) == [("One", "#one", []), ("Two", "#two", [])]  # '#' headings are the sections
    assert BeautifulSoup(files["plain/index.html"].decode("utf-8"), "html.parser").select_one("nav.contents") is None


def test_toc_must_be_true_or_false(tmp_path):
    root = site(tmp_path, {"content/pages/teaching.md": "---\ntitle: Teaching\ntoc: sidebar\n---\nText.\n"})
    result = run_sitegen("build", "--site", str(root))
    assert result.returncode == 1
    assert "content/pages/teaching.md:3: field 'toc': expected true or false, got 'sidebar'" in result.stderr


@pytest.mark.slow
def test_init_from_keeps_the_old_sites_tables_of_contents(tmp_path):
    """al-folio writes `toc: {sidebar: left}` on a post, Hugo and Quarto `toc: true` on a page."""
    old = tmp_path / "old"
    shutil.copytree(Path(__file__).resolve().parents[1] / "fixtures" / "old-sites" / "al-folio", old)
    (old / "_posts" / "2016-05-01-long.md").write_text(
        "---\nlayout: post\ntitle: A long post\ntoc:\n  sidebar: left\n---\n## First\n\nText.\n\n## Second\n\nText.\n", encoding="utf-8"
    )
    (old / "_pages" / "notes.md").write_text("---\nlayout: page\ntitle: Notes\npermalink: /notes/\ntoc: true\n---\n## Part one\n\nText.\n", encoding="utf-8")
    new = tmp_path / "new"
    assert run_sitegen("init", str(new), "--from", str(old), cwd=tmp_path).returncode == 0
    built = run_sitegen("build", "--site", str(new))
    assert built.returncode == 0, built.stderr
    post = BeautifulSoup((new / "output/posts/long/index.html").read_text(encoding="utf-8"), "html.parser")
    assert [a["href"] for a in post.select("nav.contents a")] == ["#first", "#second"]
    page = BeautifulSoup((new / "output/notes/index.html").read_text(encoding="utf-8"), "html.parser")
    assert [a["href"] for a in page.select("nav.contents a")] == ["#part-one"]
    assert BeautifulSoup((new / "output/outreach/index.html").read_text(encoding="utf-8"), "html.parser").select_one("nav.contents") is None
