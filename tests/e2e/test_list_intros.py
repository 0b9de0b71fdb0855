"""A list page's own text (docs/homepage.md, "A list's own text"): `content/projects/_index.md` (and the blog's, the
news', the talks') gives the list its heading, description and text, as Hugo's `_index.md` gives a section's; it was
taken for a draft and left out without a word, and with `--drafts` it became a project called "_index"."""

from __future__ import annotations

import shutil
from pathlib import Path

from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, run_sitegen, write_site

PROJECTS_INTRO = """\
---
title: Research projects
description: The software and data the lab keeps.
---
What we build and maintain, each with its papers; see also [the blog](posts/).
"""
SITE = {
    **MINIMAL_SITE,
    "content/site.yaml": "title: Test site\nbase_url: https://example.org/lab/\n",
    "content/projects/fluxgrid.md": "---\ntitle: FluxGrid\ndescription: Adaptive meshes.\n---\nText.\n",
    "content/projects/_index.md": PROJECTS_INTRO,
    "content/posts/2025-01-02-hello.md": "---\ntitle: Hello\n---\nFirst post.\n",
    "content/posts/_index.md": "---\n---\nNotes from the lab, about once a month.\n",
    "content/news/2025-01-03-grant.md": "---\ndate: 2025-01-03\n---\nA grant.\n",
    "content/talks/seminar.yaml": "title: Meshes\ndate: 2025-01-04\nevent: Seminar\n",
    "content/talks/_index.md": "---\ntitle: Talks and posters\n---\nSlides are linked where we may share them.\n",
}


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def text(tag) -> str:
    return " ".join(tag.get_text(" ").split())


def build(site: Path, *options: str) -> str:
    result = run_sitegen("build", "--site", str(site), *options)
    assert result.returncode == 0, result.stderr
    return result.stderr


def test_an_index_file_gives_the_list_its_heading_description_and_text(tmp_path):
    site = write_site(tmp_path / "site", SITE)
    stderr = build(site)
    assert "warning" not in stderr, stderr
    projects = soup(site / "output/projects/index.html")
    assert text(projects.h1) == "Research projects"
    assert text(projects.title) == "Research projects · Ada Lovelace"
    assert projects.find("meta", attrs={"name": "description"})["content"] == "The software and data the lab keeps."
    intro = projects.select_one("main .list-intro")
    assert text(intro) == "What we build and maintain, each with its papers; see also the blog ."
    assert intro.a["href"] == "/lab/posts/"  # a path in the text is taken from the site's root, as a page's
    assert [text(a) for a in projects.select(".project-title a")] == ["FluxGrid"]  # the intro is no project
    assert not (site / "output/projects/_index").exists()
    posts = soup(site / "output/posts/index.html")
    assert text(posts.h1) == "Blog"  # no title: the theme's word
    assert text(posts.select_one("main .list-intro")) == "Notes from the lab, about once a month."
    assert posts.find("meta", attrs={"name": "description"})["content"] == "Notes from the lab, about once a month."  # its first paragraph
    talks = soup(site / "output/talks/index.html")  # talks are YAML files; their list's text is Markdown, as the others'
    assert text(talks.h1) == "Talks and posters" and text(talks.select_one(".list-intro")) == "Slides are linked where we may share them."


def test_lists_without_one_are_as_before_and_a_tag_page_does_not_repeat_the_text(tmp_path):
    site = write_site(tmp_path / "site", {**SITE, "content/posts/2025-01-02-hello.md": "---\ntitle: Hello\ntags: [meshes]\n---\nFirst.\n"})
    build(site)
    news = soup(site / "output/news/index.html")
    assert news.select_one(".list-intro") is None and text(news.h1) == "News"
    assert text(news.title) == "News · Ada Lovelace"
    assert news.find("meta", attrs={"name": "description"})["content"] == "News: Ada Lovelace"
    tag_page = next((site / "output/posts/tags").rglob("index.html"))
    assert soup(tag_page).select_one(".list-intro") is None
    assert text(soup(tag_page).select_one(".eyebrow")) == "Blog"


def test_with_drafts_shown_the_index_file_is_still_no_item(tmp_path):
    site = write_site(tmp_path / "site", SITE)
    from sitegen.build import build_site

    build_site(site, drafts=True)
    assert [p.name for p in (site / "output/projects").iterdir() if p.is_dir()] == ["fluxgrid"]
    assert [p.name for p in (site / "output/posts").iterdir() if p.is_dir() and p.name != "tags"] == ["hello"]


def test_each_language_has_its_own_and_a_language_without_one_has_the_themes_heading(tmp_path):
    site = write_site(
        tmp_path / "site",
        {
            **SITE,
            "content/site.yaml": "title: Test site\nbase_url: https://example.org/lab/\nlanguages: [en, fr]\n",
            "content/projects/fluxgrid.fr.md": "---\ntitle: FluxGrid\n---\nTexte.\n",
            "content/projects/_index.fr.md": "---\ntitle: Projets de recherche\n---\nCe que nous construisons.\n",
            "content/posts/2025-01-02-hello.fr.md": "---\ntitle: Bonjour\n---\nPremier billet.\n",
        },
    )
    stderr = build(site)
    assert "warning" not in stderr, stderr
    french = soup(site / "output/fr/projects/index.html")
    assert text(french.h1) == "Projets de recherche" and text(french.select_one(".list-intro")) == "Ce que nous construisons."
    assert text(soup(site / "output/projects/index.html").h1) == "Research projects"
    french_posts = soup(site / "output/fr/posts/index.html")
    assert french_posts.select_one(".list-intro") is None  # the English text is not the French list's
    assert text(french_posts.h1) == "Blog"


def test_an_edit_of_the_index_file_rebuilds_the_list_as_a_clean_build_makes_it(tmp_path):
    site = write_site(tmp_path / "site", SITE)
    build(site)
    (site / "content/projects/_index.md").write_text("---\ntitle: Software\n---\nNew text.\n", encoding="utf-8")
    build(site)
    clean = tmp_path / "clean"
    shutil.copytree(site / "content", clean / "content")
    build(clean, "--no-cache")
    assert (site / "output/projects/index.html").read_bytes() == (clean / "output/projects/index.html").read_bytes()
    assert text(soup(site / "output/projects/index.html").h1) == "Software"


def test_a_list_of_records_an_unknown_field_or_a_broken_link_in_it_is_a_warning_at_its_line(tmp_path):
    intro = "---\ntitle: Projects\nview: card\n---\nText, [slides](static/none.pdf).\n\n{{< publications >}}\n"
    site = write_site(tmp_path / "site", {**SITE, "content/projects/_index.md": intro})
    stderr = build(site)
    assert "content/projects/_index.md:3: warning: " in stderr and "'view'" in stderr
    assert "content/projects/_index.md:5: warning: a list page's text shows no list of records" in stderr
    assert "content/projects/_index.md:5: warning: link in the text: 'static/none.pdf'" in stderr
    assert text(soup(site / "output/projects/index.html").select_one(".list-intro")) == "Text, slides ."


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_init_from_brings_a_hugo_blox_lists_text_and_al_folios_projects_description(tmp_path):
    old = tmp_path / "hugo"
    shutil.copytree(FIXTURES / "migrate/hugo-blox-2025", old)
    (old / "content/blog/_index.md").write_text(
        "---\ntitle: Field notes\nsummary: Dispatches from the fjords.\nview: card\n---\nWritten on the boat, mostly.\n", encoding="utf-8"
    )
    new = tmp_path / "new"
    assert run_sitegen("init", str(new), "--from", str(old), cwd=tmp_path).returncode == 0
    assert not (new / "content/projects/_index.md").exists()  # `title: Projects` alone: the theme's word already
    build(new, "--strict")
    blog = soup(new / "output/posts/index.html")
    assert text(blog.h1) == "Field notes" and text(blog.select_one(".list-intro")) == "Written on the boat, mostly."
    assert blog.find("meta", attrs={"name": "description"})["content"] == "Dispatches from the fjords."

    folio = tmp_path / "folio"
    shutil.copytree(FIXTURES / "old-sites/al-folio", folio)
    projects_page = folio / "_pages/projects.md"
    projects_page.write_text(projects_page.read_text(encoding="utf-8").replace("title: projects\n", "title: projects\ndescription: Things we build.\n"))
    made = tmp_path / "made"
    assert run_sitegen("init", str(made), "--from", str(folio), cwd=tmp_path).returncode == 0
    build(made, "--strict")
    projects = soup(made / "output/projects/index.html")
    assert text(projects.h1) == "projects" and projects.select_one(".list-intro") is None  # its Liquid loop is no text
    assert projects.find("meta", attrs={"name": "description"})["content"] == "Things we build."


def test_a_labs_people_directory_opens_with_its_own_text_on_its_first_page(tmp_path):
    records = "".join(f"- id: r{n}\n  title: Paper {n}\n  authors: [Ada Lovelace, Member {n}]\n  year: 2024\n" for n in range(3))
    people = {f"content/people/m{n}.yaml": f"name: Member {n}\n" for n in range(3)}
    intro = "---\ntitle: Our group\n---\nWe study *rivers*. Students: write to us.\n"
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, "content/records/a.yaml": records, **people, "content/people/_index.md": intro})
    stderr = build(site)
    assert "warning" not in stderr, stderr
    directory = soup(site / "output/people/index.html")
    assert text(directory.h1) == "Our group"
    assert text(directory.select_one(".list-intro")) == "We study rivers . Students: write to us."
    assert directory.find("meta", attrs={"name": "description"})["content"] == "We study rivers. Students: write to us."
    assert {a.get_text(strip=True) for a in directory.select("main a") if "people/m" in a["href"]} == {"Member 0", "Member 1", "Member 2"}
