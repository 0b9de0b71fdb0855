"""Projects (docs/homepage.md, "Projects"): content/projects/*.md as a page of cards and a page per project that
lists its publications, each of those records' pages naming the project, in the menu and the sitemap."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, run_sitegen, write_site

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d0d6a40000000049454e44ae426082"
)
RECORDS = """\
- id: Kowalczyk_JOSS_2024
  title: 'FluxGrid: a Python package'
  authors: [Ada Lovelace]
  year: 2024
  source: Journal of Open Source Software
  type: article
- id: fluxgrid-software
  title: 'FluxGrid: adaptive mesh refinement'
  authors: [Ada Lovelace]
  year: 2023
  type: software
- id: vistula-data
  title: Vistula river-gauge observations
  authors: [Ada Lovelace]
  year: 2022
  type: dataset
  categories: [hydrology]
- id: unrelated
  title: A paper of no project
  authors: [Ada Lovelace]
  year: 2021
"""
FLUXGRID = """\
---
title: FluxGrid
description: Adaptive meshes for river models.
image: mesh.png
image_alt: A river mesh refined at the banks
order: 2
links: {code: 'https://github.com/fluxgrid/fluxgrid', website: 'https://fluxgrid.org'}
records:
  - kowalczyk_joss_2024
  - fluxgrid-software
subjects: [hydrology]
---
A solver whose cost grows as $O(n \\log n)$.
"""
SITEMAP = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def text(tag) -> str:
    return " ".join(tag.get_text(" ").split())


def project_site(root: Path, files: dict[str, str] | None = None, settings: str = "") -> Path:
    site = write_site(
        root / "site",
        {
            **MINIMAL_SITE,
            "content/site.yaml": f"title: Test site\nbase_url: https://example.org/lab/\n{settings}",
            "content/records/a.yaml": RECORDS,
            "content/projects/fluxgrid/index.md": FLUXGRID,
            "content/projects/archive.md": "---\ntitle: Gauge archive\nstatus: past\n---\nWe digitised a century of *gauge* readings.\n",
            "content/projects/tidewater.md": "---\ntitle: Tidewater\norder: 1\nrecords: [vistula-data]\n---\nTides.\n",
            "content/projects/basin.md": "---\ntitle: Basin\ndescription: Whole basins.\n---\nText.\n",
            **(files or {}),
        },
    )
    (site / "content" / "projects" / "fluxgrid" / "mesh.png").write_bytes(PNG)
    return site


def built(site: Path) -> tuple[Path, str]:
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    return site / "output", result.stderr


def test_the_projects_page_shows_a_card_per_project_active_ones_first_by_order_then_title(tmp_path):
    output, stderr = built(project_site(tmp_path))
    assert "warning" not in stderr
    page = soup(output / "projects" / "index.html")
    assert text(page.h1) == "Projects"
    groups = page.select("section.project-group")
    assert [text(group.h2) for group in groups] == ["Current projects", "Past projects"]
    cards = [[text(card.select_one(".project-title")) for card in group.select("li.project-card")] for group in groups]
    assert cards == [["Tidewater", "FluxGrid", "Basin"], ["Gauge archive"]]  # order 1, order 2, then no order
    fluxgrid = page.select_one("li.project-card:has(a[href='/lab/projects/fluxgrid/'])")
    picture = fluxgrid.select_one("img.project-image")
    assert picture["src"] == "/lab/projects/fluxgrid/mesh.png" and picture["alt"] == "A river mesh refined at the banks"
    assert (output / "projects" / "fluxgrid" / "mesh.png").read_bytes() == PNG  # the picture of its folder, beside its page
    assert text(fluxgrid.select_one(".project-description")) == "Adaptive meshes for river models."
    archive = page.select_one("li.project-card:has(a[href='/lab/projects/archive/'])")
    assert archive.select_one("img") is None
    assert text(archive.select_one(".project-description")) == "We digitised a century of gauge readings."  # its first paragraph
    home = soup(output / "index.html")
    menu = [(text(a), a["href"]) for a in home.select("header nav a")]
    assert ("Projects", "/lab/projects/") in menu
    assert page.select_one('header nav a[aria-current="page"]')["href"] == "/lab/projects/"


def test_a_projects_page_shows_its_text_picture_links_and_publications_as_the_profile_lists_them(tmp_path):
    output, _ = built(project_site(tmp_path))
    page = soup(output / "projects" / "fluxgrid" / "index.html")
    main = page.select_one("main")
    assert text(main.h1) == "FluxGrid"
    assert main.select_one(".eyebrow a")["href"] == "/lab/projects/"
    assert main.select_one("img.project-image")["src"] == "/lab/projects/fluxgrid/mesh.png"
    assert [(text(a), a["href"]) for a in main.select("ul.links a")] == [
        ("Code", "https://github.com/fluxgrid/fluxgrid"),
        ("Website", "https://fluxgrid.org"),
    ]
    assert main.select_one(".prose math") is not None and "\\log" not in text(main.select_one(".prose"))
    listed = main.select_one(".embedded-publications")
    assert text(listed.h2) == "Publications"
    # named by id (in any case) or by a subject they have, newest first, each the profile's list item
    assert [text(h) for h in listed.select("li.record .record-title")] == [
        "FluxGrid: a Python package",
        "FluxGrid: adaptive mesh refinement",
        "Vistula river-gauge observations",
    ]
    assert [a["href"] for a in listed.select("li.record .record-title a")][0] == "/lab/records/Kowalczyk_JOSS_2024/"
    assert page.select_one('meta[name="description"]')["content"] == "Adaptive meshes for river models."
    assert page.select_one('meta[property="og:image"]')["content"] == "https://example.org/lab/projects/fluxgrid/mesh.png"
    assert page.select_one('meta[property="og:image:alt"]')["content"] == "A river mesh refined at the banks"
    assert page.select_one("title").get_text() == "FluxGrid · Ada Lovelace"
    about = json.loads(page.select_one('script[type="application/ld+json"]').string)
    assert about["@type"] == "ResearchProject" and about["name"] == "FluxGrid"
    assert about["url"] == "https://example.org/lab/projects/fluxgrid/"
    assert about["image"] == "https://example.org/lab/projects/fluxgrid/mesh.png"
    assert about["member"] == {"@id": "https://example.org/lab/#person"}
    past = soup(output / "projects" / "archive" / "index.html")
    assert "Past project" in text(past.select_one(".eyebrow"))
    assert past.select_one(".embedded-publications") is None  # it names no records


def test_a_records_page_names_the_projects_it_belongs_to(tmp_path):
    output, _ = built(project_site(tmp_path))

    def projects_of(record: str) -> list[tuple[str, str]]:
        section = soup(output / "records" / record / "index.html").select_one("section.projects-section")
        return [(text(a), a["href"]) for a in section.select("a")] if section is not None else []

    assert projects_of("Kowalczyk_JOSS_2024") == [("FluxGrid", "/lab/projects/fluxgrid/")]
    assert projects_of("vistula-data") == [("Tidewater", "/lab/projects/tidewater/"), ("FluxGrid", "/lab/projects/fluxgrid/")]
    assert projects_of("unrelated") == []


def test_every_project_page_is_in_the_sitemap_and_its_picture_is_not(tmp_path):
    output, _ = built(project_site(tmp_path))
    listed = {loc.text for loc in ET.parse(output / "sitemap.xml").getroot().findall("s:url/s:loc", SITEMAP)}
    projects = {url for url in listed if "/projects/" in url}
    assert projects == {f"https://example.org/lab/projects/{slug}" for slug in ("", "fluxgrid/", "tidewater/", "basin/", "archive/")}


def test_a_site_without_projects_has_no_projects_page_or_menu_entry(tmp_path):
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, "content/records/a.yaml": RECORDS})
    output, _ = built(site)
    assert not (output / "projects").exists()
    assert "Projects" not in [text(a) for a in soup(output / "index.html").select("header nav a")]
    assert soup(output / "records" / "unrelated" / "index.html").select_one("section.projects-section") is None


def test_a_projects_words_are_in_the_sites_language_and_the_classic_theme_shows_them(tmp_path):
    output, _ = built(project_site(tmp_path, settings="language: fr\ntheme: classic\n"))
    page = soup(output / "projects" / "index.html")
    assert text(page.h1) == "Projets"
    assert [text(group.h2) for group in page.select("section.project-group")] == ["Projets en cours", "Projets passés"]
    assert ("Projets", "/lab/projects/") in [(text(a), a["href"]) for a in page.select("header nav a")]
    assert any("classic.css" in link["href"] for link in page.select('link[rel="stylesheet"]'))
    assert len(page.select("li.project-card")) == 4
    fluxgrid = soup(output / "projects" / "fluxgrid" / "index.html")
    assert text(fluxgrid.select_one(".embedded-publications h2")) == "Publications"
    assert text(soup(output / "projects" / "archive" / "index.html").select_one(".eyebrow")) == "Projets · Projet terminé"
    assert text(soup(output / "records" / "vistula-data" / "index.html").select_one("#projects-heading")) == "Projets"


def test_a_projects_unknown_field_or_record_is_a_warning_at_its_line_naming_what_was_meant(tmp_path):
    files = {
        "content/projects/mistakes.md": (
            "---\n"
            "title: Mistakes\n"
            "tags: [hydrology]\n"  # 3: Hugo Blox's word
            "importance: 1\n"  # 4: al-folio's
            "img: x.png\n"  # 5
            "records:\n"  # 6
            "  - fluxgrid-sofware\n"  # 7: a typo
            "  - no-such-record\n"  # 8
            "subjects: [oceanography]\n"  # 9: no record has it
            "---\n"
            "Text.\n"
        )
    }
    output, stderr = built(project_site(tmp_path, files))
    assert "content/projects/mistakes.md:3: warning: unknown field 'tags' is ignored; did you mean 'subjects'?" in stderr
    assert "content/projects/mistakes.md:4: warning: unknown field 'importance' is ignored; did you mean 'order'?" in stderr
    assert "content/projects/mistakes.md:5: warning: unknown field 'img' is ignored; did you mean 'image'?" in stderr
    assert "content/projects/mistakes.md:7: warning: field 'records': no record has the id 'fluxgrid-sofware'; did you mean 'fluxgrid-software'?" in stderr
    assert "content/projects/mistakes.md:8: warning: field 'records': no record has the id 'no-such-record'" in stderr
    assert "content/projects/mistakes.md:9: warning: field 'subjects': no record has the subject 'oceanography'" in stderr
    assert (output / "projects" / "mistakes" / "index.html").exists()  # a warning: the page is still made


def test_a_hidden_record_named_by_a_project_or_a_page_is_said_to_be_hidden_not_unknown(tmp_path):
    files = {
        "content/records/b.yaml": "id: withdrawn-talk\ntitle: A talk withdrawn\nauthors: [Ada Lovelace]\nyear: 2020\nhidden: true\n",
        "content/projects/mistakes.md": "---\ntitle: Mistakes\nrecords:\n  - Withdrawn-Talk\n---\nText.\n",
        "content/pages/selected.md": '---\ntitle: Selected\n---\n{{< publications ids="withdrawn-talk" >}}\n',
    }
    output, stderr = built(project_site(tmp_path, files))
    why = "is not shown: it has `hidden: true` (content/records/b.yaml:1)"
    assert f"content/projects/mistakes.md:4: warning: field 'records': the record 'Withdrawn-Talk' {why}" in stderr
    assert f"content/pages/selected.md:4: warning: publications: the record 'withdrawn-talk' {why}" in stderr
    assert "no record has the id" not in stderr
    assert "A talk withdrawn" not in (output / "projects" / "mistakes" / "index.html").read_text()


@pytest.mark.parametrize(
    "name, written, message",
    [
        ("unsafe.md", "---\ntitle: X\nslug: ../../etc\n---\n", "content/projects/unsafe.md:3: the project's address 'projects/../../etc/' may hold only"),
        ("folders.md", "---\ntitle: X\nslug: a/b\n---\n", "content/projects/folders.md:3: the project's address 'projects/a/b/' may hold only"),
        ("index.md", "---\ntitle: X\nslug: index.html\n---\n", "content/projects/index.md:3: the project's address 'projects/index.html/' is taken"),
        ("status.md", "---\ntitle: X\nstatus: finished\n---\n", "content/projects/status.md:3: field 'status': expected active or past, got 'finished'"),
        ("notitle.md", "---\nstatus: past\n---\nText\n", "content/projects/notitle.md:2: field 'title' is required"),
        ("order.md", "---\ntitle: X\norder: first\n---\n", "content/projects/order.md:3: field 'order': expected a whole number"),
        ("away.md", "---\ntitle: X\nimage: /assets/img/x.png\n---\n", "content/projects/away.md:3: field 'image': expected a file of the project's folder"),
    ],
)
def test_a_mistake_in_a_project_is_an_error_at_its_line_and_output_stays_as_it_was(tmp_path, name, written, message):
    site = project_site(tmp_path)
    built(site)
    before = (site / "output" / "projects" / "index.html").read_bytes()
    (site / "content" / "projects" / name).write_text(written, encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1 and message in result.stderr, result.stderr
    assert (site / "output" / "projects" / "index.html").read_bytes() == before


def test_a_picture_from_another_site_is_left_out_of_the_pages_with_a_warning(tmp_path):
    files = {"content/projects/basin.md": "---\ntitle: Basin\nimage: https://cdn.example.com/basin.png\n---\nText.\n"}
    output, stderr = built(project_site(tmp_path, files))
    assert "content/projects/basin.md:3: warning: picture 'https://cdn.example.com/basin.png' is on another site (cdn.example.com)" in stderr
    assert "the project's link preview" in stderr
    card = soup(output / "projects" / "index.html").select_one("li.project-card:has(a[href='/lab/projects/basin/'])")
    assert card.select_one("img") is None
    page = soup(output / "projects" / "basin" / "index.html")
    assert page.select_one("main img") is None
    assert page.select_one('meta[property="og:image"]')["content"] == "https://cdn.example.com/basin.png"


def test_a_page_at_the_projects_address_is_an_error_naming_both(tmp_path):
    site = project_site(tmp_path, {"content/pages/projects.md": "---\ntitle: Projects\nnav: 3\n---\nMy projects.\n"})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert "content/pages/projects.md:1: this page and sitegen's 'projects' pages both want output/projects/index.html" in result.stderr


def test_a_projects_link_into_the_site_that_leads_nowhere_is_a_warning(tmp_path):
    files = {
        "content/projects/basin.md": "---\ntitle: Basin\nlinks: {slides: static/basin.pdf}\nimage: static/basin.png\n---\nSee [the data](static/data.csv).\n"
    }
    _, stderr = built(project_site(tmp_path, files))
    said = [line for line in stderr.splitlines() if line.startswith("content/projects/basin.md:")]
    assert [line.split(": warning:")[0] for line in said] == ["content/projects/basin.md:3", "content/projects/basin.md:4", "content/projects/basin.md:6"]
    assert ["static/basin.pdf" in said[0], "static/basin.png" in said[1], "static/data.csv" in said[2]] == [True, True, True]


FRENCH_PROJECTS = {
    "content/projects/basin.fr.md": "---\ntitle: Bassin\ndescription: Des bassins entiers.\n---\nDu texte.\n",
    # a bundle's translation: it writes no picture, records or place, and takes its original's
    "content/projects/fluxgrid/index.fr.md": "---\ntitle: FluxGrid en français\ndescription: Des maillages adaptatifs.\n---\nUn solveur.\n",
}


def test_a_languages_projects_are_its_translations_and_the_defaults_others_marked_as_theirs(tmp_path):
    output, stderr = built(project_site(tmp_path, FRENCH_PROJECTS, settings="languages: [en, fr]\n"))
    assert "warning" not in stderr
    cards = soup(output / "fr" / "projects" / "index.html").select("li.project-card")
    shown = [
        (text(card.select_one(".project-title")), card.select_one(".project-title a")["href"], card.select_one(".project-title a").get("lang"))
        for card in cards
    ]
    assert shown == [
        ("Tidewater", "/lab/projects/tidewater/", "en"),  # no French version: the English project, where it is
        ("FluxGrid en français", "/lab/fr/projects/fluxgrid/", None),  # the original's order: 2
        ("Bassin", "/lab/fr/projects/basin/", None),
        ("Gauge archive", "/lab/projects/archive/", "en"),
    ]
    fluxgrid = soup(output / "fr" / "projects" / "fluxgrid" / "index.html")
    assert text(fluxgrid.select_one("main h1")) == "FluxGrid en français"
    assert fluxgrid.select_one("main img.project-image")["src"] == "/lab/projects/fluxgrid/mesh.png"  # its folder's, published once
    assert not (output / "fr" / "projects" / "fluxgrid" / "mesh.png").exists()
    assert "FluxGrid: a Python package" in text(fluxgrid.select_one(".embedded-publications"))  # the original's records
    assert [a["href"] for a in fluxgrid.select("main ul.links a")] == ["https://github.com/fluxgrid/fluxgrid", "https://fluxgrid.org"]
    assert not (output / "fr" / "projects" / "archive").exists() and not (output / "projects" / "basin.fr").exists()
    english = soup(output / "projects" / "basin" / "index.html")
    versions = {link["hreflang"]: link["href"] for link in english.select('link[rel="alternate"][hreflang]')}
    assert versions == {
        "en": "https://example.org/lab/projects/basin/",
        "fr": "https://example.org/lab/fr/projects/basin/",
        "x-default": "https://example.org/lab/projects/basin/",
    }
    french_menu = [(text(a), a["href"]) for a in soup(output / "fr" / "index.html").select("header nav a")]
    assert ("Projets", "/lab/fr/projects/") in french_menu
    assert ("Projects", "/lab/projects/") in [(text(a), a["href"]) for a in soup(output / "index.html").select("header nav a")]


def test_an_edit_of_a_project_shows_on_its_translation_as_in_a_clean_build(tmp_path):
    """A translation takes what it does not write from its original: its page depends on the original's file."""
    site = project_site(tmp_path, FRENCH_PROJECTS, settings="languages: [en, fr]\n")
    built(site)
    original = site / "content/projects/fluxgrid/index.md"
    original.write_text(FLUXGRID.replace("https://fluxgrid.org", "https://fluxgrid.example"), encoding="utf-8")  # its records alike
    output, _ = built(site)
    french = soup(output / "fr" / "projects" / "fluxgrid" / "index.html")
    assert [a["href"] for a in french.select("main ul.links a")] == ["https://github.com/fluxgrid/fluxgrid", "https://fluxgrid.example"]
    clean = run_sitegen("build", "--no-cache", "--site", str(site), "--output", str(tmp_path / "clean"))
    assert clean.returncode == 0, clean.stderr
    assert (output / "fr/projects/fluxgrid/index.html").read_bytes() == (tmp_path / "clean/fr/projects/fluxgrid/index.html").read_bytes()


def test_a_project_in_a_language_the_site_does_not_have_is_a_warning(tmp_path):
    output, stderr = built(project_site(tmp_path, {"content/projects/basin.de.md": "---\ntitle: Becken\n---\nText.\n"}, settings="languages: [en, fr]\n"))
    assert "content/projects/basin.de.md:1: warning:" in stderr and "de" in stderr
    assert not (output / "de").exists() and not (output / "fr" / "projects").exists()


def test_a_project_written_in_another_language_is_marked_so_on_its_card_and_page(tmp_path):
    files = {"content/projects/basin.md": "---\ntitle: Einzugsgebiet\ndescription: Ganze Flussgebiete.\nlanguage: de\n---\nText.\n"}
    output, _ = built(project_site(tmp_path, files))
    card = soup(output / "projects" / "index.html").select_one("li.project-card:has(a[href='/lab/projects/basin/'])")
    assert card.select_one(".project-title a")["lang"] == "de" and card.select_one(".project-description")["lang"] == "de"
    page = soup(output / "projects" / "basin" / "index.html")
    assert page.select_one("main h1")["lang"] == "de" and page.select_one("main .prose")["lang"] == "de"


def test_a_projects_table_of_contents_names_its_sections_and_its_publications(tmp_path):
    files = {"content/projects/basin.md": "---\ntitle: Basin\ntoc: true\nrecords: [unrelated]\n---\n# Aims\n\nText.\n\n# Methods\n\nMore.\n"}
    output, stderr = built(project_site(tmp_path, files))
    assert "warning" not in stderr
    contents = soup(output / "projects" / "basin" / "index.html").select_one("main nav.contents")
    assert [(text(a), a["href"]) for a in contents.select("a")] == [("Aims", "#aims"), ("Methods", "#methods"), ("Publications", "#publications-1")]
