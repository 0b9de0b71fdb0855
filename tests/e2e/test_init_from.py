"""`sitegen init DIR --from OLD_SITE`: switching from al-folio, academicpages, Hugo Blox or Quarto in one command.

Each old site is a small fixture in the tool's own layout (tests/fixtures/old-sites/). The new site
must build with `--strict` (no warning: every link and picture the old site had leads to a file
of the new one), show what the old one showed (the owner, the publications with their PDFs,
pictures, awards and short venue names, the news and talks), and say what it did not bring over.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import run_sitegen
from crawl import crawl, serve_directory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

OLD_SITES = Path(__file__).resolve().parents[1] / "fixtures" / "old-sites"


def init_from(tmp_path: Path, tool: str, old: Path | None = None) -> tuple[Path, subprocess.CompletedProcess]:
    site = tmp_path / "new"
    result = run_sitegen("init", str(site), "--from", str(old or OLD_SITES / tool), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    built = run_sitegen("build", "--strict", "--site", str(site))
    assert built.returncode == 0, built.stderr  # --strict: not one warning
    return site, result


def page(site: Path, path: str = "index.html") -> BeautifulSoup:
    return BeautifulSoup((site / "output" / path).read_text(encoding="utf-8"), "html.parser")


def text(tag) -> str:
    return " ".join(tag.get_text(" ").split())


def item(index: BeautifulSoup, record_id: str):
    return index.select_one(f"#publications li#r-{record_id}")


def served_file(site: Path, url: str) -> Path:
    """The output file a link of a page of `site` leads to (the site is built for its base_url's path)."""
    base_path = urlsplit(yaml.safe_load((site / "content/site.yaml").read_text(encoding="utf-8"))["base_url"]).path
    path = urlsplit(url).path
    assert path.startswith(base_path), url
    return site / "output" / path[len(base_path) :]


@pytest.mark.slow
def test_an_al_folio_site_comes_over_with_its_papers_pdfs_previews_and_news(tmp_path):
    site, result = init_from(tmp_path, "al-folio")
    assert "brought over from the al-folio site" in result.stdout
    assert "_pages/outreach.md" not in result.stdout  # Markdown alone: a page of the new site, in its menu
    outreach = (site / "content/pages/outreach.md").read_text(encoding="utf-8")
    assert outreach.startswith("---\ntitle: outreach\nnav: 10\n---\n") and "public lectures on **relativity**" in outreach
    assert "_pages/projects.md" not in result.stdout  # a list of _projects/, which the new site's projects/ is now
    profile = yaml.safe_load((site / "content/profile.yaml").read_text(encoding="utf-8"))
    assert (profile["name"], profile["affiliation"], profile["email"]) == (
        "Albert Einstein",
        "Institute for Advanced Study, Princeton. Theoretical physics.",
        "albert@example.org",
    )
    assert profile["links"] == {
        "orcid": "0000-0002-1825-0097",
        "google_scholar": "qc6CJjYAAAAJ",
        "github": "alberteinstein",
        "x": "https://x.com/AlbertEinstein",
    }
    assert "A. Einstein" in profile["name_variants"]  # al-folio's `scholar: first_name: [Albert, A.]`
    assert "theory of relativity" in profile["bio"] and "{%" not in profile["bio"]  # Liquid left out
    index = page(site)
    assert index.find("link", rel="canonical")["href"] == "https://einstein.github.io/homepage/"  # the old address, kept
    assert served_file(site, index.select_one("img.photo, .profile img")["src"]).read_bytes().endswith(b"portrait")
    assert sorted(li["id"] for li in index.select("#publications li.record")) == ["r-PhysRev.47.777", "r-einstein1905movement", "r-einstein1920relativity"]
    brownian = item(index, "einstein1905movement")
    assert text(brownian.select_one(".owner")) == "A. Einstein"  # the owner, under another form of the name
    assert [text(b) for b in brownian.select(".badge.award")] == ["Nobel Prize"] and text(brownian.select_one(".venue-short")) == "Ann. Phys."
    assert "featured" in brownian["class"]
    assert served_file(site, brownian.select_one("li.link-pdf a")["href"]).read_bytes() == b"%PDF-1.4 example"
    assert served_file(site, brownian.select_one("img.record-thumbnail")["src"]).read_bytes() == b"GIF89a"
    news = page(site, "news/index.html")
    assert "A long announcement with details" in text(news) and "A simple inline announcement." in text(news)
    assert not list((site / "content/records").glob("example-*"))  # the samples make way for the owner's records
    teaching = text(page(site, "teaching/index.html"))  # _teachings/ (al-folio's courses): one page
    assert "Theory of Relativity" in teaching and "Winter, ETH Zurich, 1912" in teaching and "equivalence of mass and energy" in teaching
    cv = text(page(site, "cv/index.html"))  # assets/json/resume.json, JSON Resume
    assert "Professor of Theoretical Physics" in cv and "Nobel Prize in Physics" in cv and "PhD in Physics" in cv
    assert "note: assets/json/resume.json: languages not brought over" in result.stdout


@pytest.mark.slow
def test_an_academicpages_site_comes_over_with_its_files_and_talks(tmp_path):
    site, result = init_from(tmp_path, "academicpages")
    assert "academicpages keeps them in `citation`" in result.stdout  # its publications name no authors: said
    profile = yaml.safe_load((site / "content/profile.yaml").read_text(encoding="utf-8"))
    assert (profile["name"], profile["position"], profile["affiliation"]) == ("Grace Hopper", "Rear Admiral and computer scientist", "United States Navy")
    assert profile["links"]["github"] == "ghopper" and profile["links"]["orcid"] == "https://orcid.org/0000-0002-1825-0097"
    index = page(site)
    paper = item(index, "2009-10-01-paper-title-number-1")
    assert text(paper.select_one(".record-title")) == "The Education of a Computer"
    pdf = paper.select_one("li.link-pdf a")["href"]
    assert not pdf.startswith("https://ghopper.github.io/files/")  # the old site's address, gone with it
    assert served_file(site, pdf).read_bytes() == b"%PDF-1.4 paper"
    talks = page(site, "talks/index.html")
    assert "Future Possibilities" in text(talks) and "National Security Agency" in text(talks)
    slides = next(a["href"] for a in talks.find_all("a", href=True) if a["href"].endswith("slides1.pdf"))
    assert served_file(site, slides).read_bytes() == b"%PDF-1.4 slides"
    teaching = page(site, "teaching/index.html")  # _teaching/: one page, in the menu
    assert "Programming the Mark I" in text(teaching) and "Harvard University, Computation Laboratory" in text(teaching)
    assert any(text(a) == "Teaching" for a in index.select("header nav a"))
    cv = text(page(site, "cv/index.html"))  # _data/cv.json, the JSON Resume of its cv-json page
    assert "Rear Admiral" in cv and "PhD in Mathematics" in cv and "note: _data/cv.json: skills not brought over" in result.stdout
    assert "The Education of a Computer" in cv  # its CV lists every publication, as academicpages' did (it marks none selected)
    assert "note: _pages/cv.md: a page (a Liquid layout as much as text) not brought over" in result.stdout  # its Markdown CV: said


@pytest.mark.slow
@pytest.mark.parametrize("tool", ["al-folio", "academicpages", "hugo-blox", "quarto"])
def test_a_site_brought_over_publishes_no_sample_page(tmp_path, tool):
    """init's sample About page ("Write about your research here") would be the first entry of the menu of a site
    that has its owner's bio already."""
    site, _ = init_from(tmp_path, tool)
    assert not (site / "content/pages/about.md").exists()
    if (site / "output/about").exists():  # academicpages' about.md had /about/ (redirect_from): it leads to the profile
        assert page(site, "about/index.html").find("meta", attrs={"http-equiv": "refresh"})["content"] == "0; url=/"
    assert "About" not in [text(a) for a in page(site).select("header nav a")]


@pytest.mark.slow
def test_a_hugo_blox_site_comes_over_with_its_author_page_publications_and_events(tmp_path):
    site, result = init_from(tmp_path, "hugo-blox")
    profile = yaml.safe_load((site / "content/profile.yaml").read_text(encoding="utf-8"))
    assert (profile["name"], profile["position"], profile["affiliation"], profile["email"]) == (
        "Mary Somerville",
        "Professor of Mathematical Physics",
        "University of Edinburgh",
        "mary@example.org",
    )
    assert profile["links"]["github"] == "https://github.com/msomerville" and "{{<" not in profile["bio"]
    assert profile["links"]["cv"] == "static/uploads/resume.pdf"  # `icon: cv`, a file of its static/: copied
    assert (site / "static/uploads/resume.pdf").read_bytes() == b"%PDF-1.4 resume"
    assert not (site / "content/records/publication/gossip-sort/cite.bib").exists()  # the same work twice otherwise
    index = page(site)
    assert index.find("link", rel="canonical")["href"] == "https://msomerville.netlify.app/"
    book = item(index, "gossip-sort")
    assert text(book.select_one(".owner")) == "Mary Somerville"  # Hugo Blox's `admin`
    babbage = book.select_one(".authors a")  # `cbabbage`: a member's author page, now a person of content/people/
    assert text(babbage) == "Charles Babbage" and served_file(site, babbage["href"] + "index.html").exists()
    person = page(site, "people/cbabbage/index.html")
    assert "Lucasian Professor of Mathematics" in text(person) and "On the Connexion of the Physical Sciences" in text(person)
    assert served_file(site, person.select_one("img")["src"]).read_bytes() == b"\x89PNG babbage"
    assert text(book.select_one(".venue-short")) == "Murray"
    assert served_file(site, book.select_one("img.record-thumbnail")["src"]).read_bytes() == b"\x89PNG featured"  # the bundle's featured.png
    talks = page(site, "talks/index.html")
    assert "The Mechanism of the Heavens" in text(talks) and "Royal Society Lecture" in text(talks)
    cv = text(page(site, "cv/index.html"))  # the experience widget and the author page's education
    assert "Translator" in cv and "Society for the Diffusion of Useful Knowledge" in cv and "Self-taught in Mathematics" in cv


@pytest.mark.slow
def test_a_quarto_website_comes_over_with_its_about_page_listings_bibliography_and_navbar(tmp_path):
    """A Quarto website: the about page's title, subtitle, image and links are the profile; the publications listing's
    items (their `citation:` metadata) are records; the `bibliography:` is read as it is; the blog listing's posts, the
    navbar's pages and the old .html addresses come over."""
    site, result = init_from(tmp_path, "quarto")
    profile = yaml.safe_load((site / "content/profile.yaml").read_text(encoding="utf-8"))
    assert (profile["name"], profile["position"], profile["email"]) == (
        "Ada Lindqvist",
        "Assistant Professor of Statistics, University of Uppsala",
        "ada.lindqvist@uu.se",
    )
    assert profile["links"]["orcid"] == "https://orcid.org/0000-0002-1825-0097" and profile["links"]["x"] == "https://twitter.com/adalind"
    index = page(site)
    assert served_file(site, index.select_one("img[src$='profile.jpg']")["src"]).read_bytes() == b"\xff\xd8\xff\xe0fakejpeg"
    cv = next(a["href"] for a in index.find_all("a", href=True) if a["href"].endswith("cv.pdf"))  # cv/cv.pdf: the profile's CV link
    assert served_file(site, cv).read_bytes() == b"%PDF cv"
    assert "My research is on Bayesian methods for spatial data" in text(index)
    # its citation: type, container-title, volume, issue, page; one work with references.bib's entry of its DOI, which
    # names it (the .bib key, cited as [@lindqvist2023]: publications.bib keeps it); the listing's address leads on
    paper = item(index, "lindqvist2023")
    assert text(paper.select_one(".record-title")) == "Penalised complexity priors for spatial fields"
    assert "Journal article" in text(paper) and "Journal of the American Statistical Association , 118(3), 1203–1215" in text(paper)
    assert served_file(site, paper.select_one("li.link-pdf a")["href"]).read_bytes() == b"%PDF-1.4 fake"  # [PDF](...) below its text
    assert "https://doi.org/10.1080/01621459.2023.1234567" in [a["href"] for a in paper.select("a")]
    workshop = item(index, "inla-workshop")  # `author: "A, B and C"`, a `paper-conference`
    assert "Conference paper" in text(workshop) and "Erik Berg, Maja Holm" in text(workshop)
    # `name: {given, family}`; the arXiv url, [Code](...) · [Slides](slides.pdf); named by references.bib's key of its arXiv id
    sphere = item(index, "lindqvist2024preprint")
    assert {"link-abs", "link-code", "link-slides"} <= {c for li in sphere.select("li[class^='link-']") for c in li["class"]}
    assert served_file(site, sphere.select_one("li.link-slides a")["href"]).read_bytes() == b"%PDF-1.4 slides"
    assert served_file(site, sphere.select_one("img.record-thumbnail")["src"]).read_bytes() == b"\x89PNG sphere"  # its `image:`
    bib = (site / "output/publications.bib").read_text(encoding="utf-8")
    assert bib.count("Penalised complexity priors") == 1  # references.bib's entry and the listing's page: one work (its DOI)
    assert "note: references.bib: copied to content/records/references.bib" in result.stdout  # cited works become publications: said
    post = page(site, "posts/first-post/index.html")
    assert post.select_one("main pre code").get_text() == "summary(cars)\n" and "#|" not in text(post)  # a cell: code, no options
    assert ":::" not in text(post) and "Callouts are a Quarto thing." in text(post)
    links = {text(a): a["href"] for a in post.select("main .prose a")}  # links to other pages' .qmd: their new addresses
    assert served_file(site, links["the PC priors paper"]) == site / "output/records/spatial-priors/"  # the work's old id: on
    assert page(site, "records/spatial-priors/index.html").find("meta", attrs={"http-equiv": "refresh"})["content"] == "0; url=/records/lindqvist2023/"
    assert served_file(site, links["research page"]) == site / "output/research/"
    assert "note: posts/first-post/index.qmd: its code cells (r) come over as code" in result.stdout
    assert not (site / "output/posts/second").exists()  # `draft: true`
    preview = post.find("meta", property="og:image")["content"]  # its `image:`, the listing's thumbnail: the link preview's
    assert preview.endswith("/static/posts/first-post/thumbnail.png")
    menu = [text(a) for a in index.select("header nav a")]
    assert "Research" in menu and "Blog" in menu  # research.qmd, in the navbar: a page in the menu
    research = page(site, "research/index.html")  # its listing of projects/*/index.qmd: a section each, after its text
    assert "works on spatial statistics" in text(research) and [text(h) for h in research.select("main .prose h2")] == ["Climate downscaling"]
    assert served_file(site, research.select_one("main .prose img")["src"]).read_bytes() == b"\x89PNG map"  # its `image:`
    assert "note: research.qmd: its citations ([@lindqvist2023]) are shown as written" in result.stdout
    # a listing's old address leads in one step to the work's page, named by its .bib key (past its old id's page)
    moved = {"publications/spatial-priors.html": "records/lindqvist2023/", "papers/sphere.html": "records/lindqvist2024preprint/", "blog.html": "posts/"}
    for old, new in (moved | {"projects/downscaling/index.html": "research/"}).items():
        stub = page(site, old)
        assert stub.find("meta", attrs={"http-equiv": "refresh"})["content"] == f"0; url=/{new}"
    for said in ("talks/index.qmd: a page of talks not brought over", "the theme (cosmo)", "page-footer", "Google Analytics (G-ABC123)"):
        assert said in result.stdout


@pytest.mark.slow
def test_a_quarto_blog_with_an_about_page_and_a_nocite_bibliography_comes_over(tmp_path):
    """The other usual Quarto layout: the home page is the blog's listing, the owner is on about.qmd, the
    publications page prints a .bib file whole (`nocite: '@*'`), a listing's items are a YAML file of their own, the
    menu is a sidebar."""
    old = tmp_path / "old"
    files = {
        "_quarto.yml": "project:\n  type: website\nwebsite:\n  title: Jon Berg\n  sidebar:\n    contents:\n      - about.qmd\n"
        "      - section: More\n        contents: [publications.qmd, outreach.qmd]\n",  # a sidebar, its sections
        "outreach.qmd": "---\ntitle: Outreach\n---\n\nSchool visits.\n",
        "index.qmd": "---\ntitle: Blog\nlisting:\n  contents: posts\n---\n",
        "about.qmd": "---\ntitle: Jon Berg\nabout:\n  template: trestles\n  links:\n    - icon: envelope\n      href: mailto:jon@example.org\n"
        "    - text: Google Scholar\n      href: https://scholar.google.com/citations?user=ABC123\n---\n\nPostdoc in ecology.\n",
        "publications.qmd": "---\ntitle: Publications\nbibliography: mypubs.bib\nnocite: |\n  @*\n---\n",
        "mypubs.bib": "@article{berg2022,\n  title = {Moose in the snow},\n  author = {Berg, Jon},\n  journal = {Oikos},\n  year = {2022}\n}\n",
        "software.qmd": "---\ntitle: Software\nlisting:\n  contents: software.yml\n---\n",
        "software.yml": "- title: 'mooser: moose counts in R'\n  author: Jon Berg\n  date: 2023-04-01\n  path: https://github.com/jberg/mooser\n",
        "posts/2024-05-01-moose.qmd": "---\ntitle: Moose\ndate: 2024-05-01\n---\nSeen one. {{< video https://www.youtube.com/watch?v=abc >}}\n",
    }
    for name, content in files.items():
        (old / name).parent.mkdir(parents=True, exist_ok=True)
        (old / name).write_text(content, encoding="utf-8")
    site, result = init_from(tmp_path, "", old)
    profile = yaml.safe_load((site / "content/profile.yaml").read_text(encoding="utf-8"))
    assert (profile["name"], profile["email"], profile["bio"].strip()) == ("Jon Berg", "jon@example.org", "Postdoc in ecology.")
    assert profile["links"]["google_scholar"] == "https://scholar.google.com/citations?user=ABC123"
    index = page(site)
    assert text(item(index, "berg2022").select_one(".record-title")) == "Moose in the snow"  # mypubs.bib, as it is
    mooser = index.select_one("#publications li[id^='r-mooser']")  # software.yml's item, its `path` its link
    assert text(mooser.select_one(".record-title")) == "mooser: moose counts in R"
    assert mooser.select_one("li.link-code a")["href"] == "https://github.com/jberg/mooser"
    post = page(site, "posts/moose/index.html")
    assert post.select_one("main .prose a")["href"] == "https://www.youtube.com/watch?v=abc"  # {{< video >}}: a link to it
    assert "Outreach" in [text(a) for a in index.select("header nav a")]  # in the sidebar's section: in the menu
    assert "mypubs.bib: copied" not in result.stdout  # the owner's own list: no warning about others' works
    assert page(site, "publications.html").find("meta", attrs={"http-equiv": "refresh"})["content"].endswith("/#publications")


@pytest.mark.slow
@pytest.mark.parametrize(
    "tool, address, title, description, tags",
    [
        (
            "al-folio",
            "formatting-and-links",
            "a post with formatting and links",
            "march & april, looking forward to summer",
            ["formatting", "links", "sample-posts"],
        ),
        ("academicpages", "blog-post-1", "Future Blog Post", "This post will show up by default.", ["cool posts", "category1"]),
        ("hugo-blox", "getting-started", "Welcome", "Why I started a blog about the connexion of the sciences.", ["Academic"]),
        ("quarto", "first-post", "Hello, Quarto", "Why I moved my homepage to Quarto.", ["news", "quarto"]),  # a listing's posts/*/index.qmd
    ],
)
def test_blog_posts_come_over_at_the_addresses_of_their_old_names(tmp_path, tool, address, title, description, tags):
    site, result = init_from(tmp_path, tool)
    listing = page(site, "posts/index.html")
    [post_link] = [a for a in listing.select(".post-title a") if text(a) == title]
    assert served_file(site, post_link["href"]) == site / "output" / "posts" / address / ""
    assert text(post_link.find_parent("li").select_one(".post-description")) == description
    post = page(site, f"posts/{address}/index.html")
    assert text(post.h1) == title and "{%" not in text(post) and "{{<" not in text(post)
    assert any(a["href"].endswith("/posts/") for a in post.select("header nav a"))  # Blog, in the menu
    assert [text(a) for a in post.select(".post-tags a")] == tags  # its tags and categories, Jekyll's words in one string split
    assert served_file(site, post.select_one(".post-tags a")["href"]) == site / "output/posts/tags" / tags[0].lower().replace(" ", "-") / ""


@pytest.mark.slow
def test_a_posts_code_blocks_stay_code_and_drafts_stay_drafts(tmp_path):
    site, result = init_from(tmp_path, "al-folio")
    post = page(site, "posts/formatting-and-links/index.html")
    assert "def speed_of_light():\n    return 299792458" in post.select_one("main pre code").get_text()  # {% highlight python %}
    assert [text(li) for li in post.select("main .prose li")] == ["brunch", "fixie"]
    assert (site / "content/posts/_2016-01-01-unfinished-thoughts.md").is_file()  # `published: false`: a draft
    assert not (site / "output/posts/unfinished-thoughts").exists()
    assert "2015-03-15-formatting-and-links.md: its template tags" not in result.stdout  # its highlight and figure became Markdown
    (tmp_path / "hugo").mkdir()
    hugo, _ = init_from(tmp_path / "hugo", "hugo-blox")
    assert not (site / "content/posts/2020-09-28-on-medium.md").exists()  # al-folio's `redirect:` post, published elsewhere
    assert "note: _posts/2020-09-28-on-medium.md: a post published elsewhere (https://medium.com/@einstein/a-post)" in result.stdout
    assert page(hugo, "posts/getting-started/index.html").select_one("main pre code").get_text() == 'print("hello")\n'  # fenced


@pytest.mark.slow
def test_a_portfolio_becomes_projects(tmp_path):
    """academicpages' `_portfolio/` (its projects, datasets and software) become projects: a card each on
    /projects/ with the excerpt as its description, a page each, the old list's address sent on."""
    site, result = init_from(tmp_path, "academicpages")
    cards = page(site, "projects/index.html").select("main li.project-card")
    assert [(text(card.select_one(".project-title")), text(card.select_one(".project-description"))) for card in cards] == [
        ("A-0 System", "The first compiler")
    ]
    project = page(site, "projects/portfolio-1/index.html")
    assert text(project.select_one("main h1")) == "A-0 System"
    assert "symbolic mathematical code into machine code" in text(project.select_one("main .prose"))
    assert project.select("main img") == []  # its excerpt's picture is no file of the old site
    assert any(a["href"].endswith("/projects/") for a in page(site).select("header nav a"))
    assert page(site, "portfolio/index.html").select_one('meta[http-equiv="refresh"]')["content"].endswith("/projects/")
    assert ", content/projects/ (1 file)," in result.stdout
    notes = [line for line in result.stdout.splitlines() if line.startswith("note:")]
    assert not [note for note in notes if "portfolio" in note], notes  # nothing left of it


@pytest.mark.slow
@pytest.mark.parametrize(
    "tool, projects, picture",
    [
        # by `importance`; the first at its old address, its `img`; the second's `redirect:` a link of its page
        ("al-folio", [("Light quanta", "1_project"), ("Brownian motion", "2_project")], b"JPEGquanta"),
        ("hugo-blox", [("The Analytical Engine", "engine")], b"\x89PNG engine"),  # the bundle's featured.png
    ],
)
def test_projects_become_project_pages_with_their_pictures(tmp_path, tool, projects, picture):
    """al-folio's _projects/ and Hugo Blox's content/project/ become content/projects/: the cards of /projects/, in
    the menu, each project a page of its own with its picture, description, links and text."""
    site, result = init_from(tmp_path, tool)
    written = sorted(path.name for path in (site / "content/projects").iterdir() if not path.name.startswith("_"))  # but init's example
    assert written == sorted(f"{slug}.md" for _, slug in projects)
    cards = page(site, "projects/index.html").select("main li.project-card")
    assert [(text(card.select_one(".project-title")), card.a["href"].rstrip("/").rpartition("/")[2]) for card in cards] == projects
    assert served_file(site, cards[0].img["src"]).read_bytes() == picture
    first = page(site, f"projects/{projects[0][1]}/index.html")
    assert text(first.select_one("main h1")) == projects[0][0]
    assert first.select_one('meta[name="description"]')["content"] == text(cards[0].select_one(".project-description"))
    assert any(a["href"].endswith("/projects/") for a in page(site).select("header nav a"))
    notes = [line for line in result.stdout.splitlines() if line.startswith("note:")]
    assert not [note for note in notes if "project" in note], notes  # nothing left of them
    if tool == "al-folio":
        assert "E = h" in text(first.select_one("main .prose"))  # its text, its math
        second = page(site, "projects/2_project/index.html")
        assert [a["href"] for a in second.select("main ul.links a")] == ["https://en.wikipedia.org/wiki/Brownian_motion"]
        assert second.select_one('meta[name="description"]')["content"] == "molecules made visible"


@pytest.mark.slow
@pytest.mark.parametrize(
    "tool, moved",
    [
        (
            "al-folio",
            {
                "blog/2015/formatting-and-links/": "posts/formatting-and-links/",
                "publications/": "#publications",
                "blog/": "posts/",
            },
        ),
        (
            "academicpages",
            {
                "publication/2009-10-01-paper-title-number-1/": "records/2009-10-01-paper-title-number-1/",
                "talks/2012-03-01-talk-1/": "talks/#talk-1982-08-19-future-possibilities-data-hardware-softw",  # the talk there
            },
        ),
        (
            "hugo-blox",
            {
                "post/getting-started/": "posts/getting-started/",
                "publication/gossip-sort/": "records/gossip-sort/",
                "event/example/": "talks/#talk-1831-06-01-the-mechanism-of-the-heavens",
                "post/": "posts/",
                "author/admin/": "./",  # the owner's page, linked from each publication and talk: the profile
                "event/": "talks/",  # its lists of talks and projects
                "project/": "projects/",
                "project/engine/": "projects/engine/",  # a project's page: its page now
            },
        ),
    ],
)
def test_the_old_sites_addresses_lead_to_where_their_content_is_now(tmp_path, tool, moved):
    """A link to the old site (a post, a paper's page, the publications page) still works after the switch."""
    site, _ = init_from(tmp_path, tool)
    written = yaml.safe_load((site / "content/redirects.yaml").read_text(encoding="utf-8"))
    assert moved.items() <= written.items()
    base_path = urlsplit(yaml.safe_load((site / "content/site.yaml").read_text(encoding="utf-8"))["base_url"]).path
    for old, new in moved.items():
        stub = page(site, f"{old}index.html")
        target = stub.find("meta", attrs={"http-equiv": "refresh"})["content"].removeprefix("0; url=")
        assert target == base_path + new.removeprefix("./")
        if not new.startswith("#"):
            path, _, anchor = target.partition("#")
            assert served_file(site, path + "index.html").is_file()
            if anchor:  # a talk's old page: the talk on the talks page
                assert BeautifulSoup(served_file(site, path + "index.html").read_text(encoding="utf-8"), "html.parser").find(id=anchor), target


@pytest.mark.slow
@pytest.mark.parametrize(
    "tool, bio_links, post, post_links",
    [
        (  # {{ site.baseurl }}/assets/pdf/..., al-folio's list of posts, a post's ![...](/assets/img/...) and {% include figure.liquid %}
            "al-folio",
            {"CV": b"%PDF-1.4 example", "blog": "posts/"},
            "formatting-and-links",
            {"Light quanta": b"JPEGquanta", "A portrait": b"\xff\xd8\xff\xe0 JFIF portrait", "link to the about page": ""},
        ),
        ("academicpages", {"CV": b"%PDF-1.4 cv", "The Mark I": b"\x89PNG mark1"}, None, {}),  # /files/cv.pdf, /images/mark1.png
        (  # Hugo Blox's {{< staticref "uploads/resume.pdf" >}} (its static/), a bundle's diagram.png, {{< relref "gossip-sort" >}}
            "hugo-blox",
            {"resumé": b"%PDF-1.4 resume"},
            "getting-started",
            {"A diagram": b"\x89PNG diagram", "my book": "records/gossip-sort/"},
        ),
    ],
)
def test_links_to_the_old_sites_own_files_and_pages_lead_to_them_in_the_new_site(tmp_path, tool, bio_links, post, post_links):
    """The old site's texts link its files and pages as its tool served them (`/files/cv.pdf`, `diagram.png` beside
    a post, `{{ site.baseurl }}/...`): each file comes over to static/ and each link leads to it, or to the new
    address of the page (init_from builds with --strict: no link of the new site leads nowhere)."""
    site, result = init_from(tmp_path, tool)

    def leads_to(tag, expected) -> None:
        url = tag.get("href") or tag.get("src")
        if isinstance(expected, bytes):
            assert served_file(site, url).read_bytes() == expected, url
        else:
            assert served_file(site, url) == site / "output" / expected, url

    def links(part) -> dict:
        return {text(a) or a.get("alt"): a for a in part.select("a, img")}

    bio = links(page(site).select_one(".bio"))
    for words, expected in bio_links.items():
        leads_to(bio[words], expected)
    if post:
        found = links(page(site, f"posts/{post}/index.html").select_one("main .prose"))
        for words, expected in post_links.items():
            leads_to(found[words], expected)
    if tool == "academicpages":  # a publication's `slidesurl: '/files/slides1.pdf'`
        slides = item(page(site), "2009-10-01-paper-title-number-1").select_one("li.link-slides a")
        leads_to(slides, b"%PDF-1.4 slides")


@pytest.mark.slow
def test_a_link_to_what_the_old_site_does_not_have_is_named_in_a_note(tmp_path):
    """A picture or a page the old site's text links to but that the old site lacks (or that did not come over,
    as a draft) keeps its text without the link, and init says which, instead of a broken link."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / "hugo-blox", old)
    post = old / "content/post/getting-started/index.md"
    post.write_text(post.read_text() + '\nSee [the draft]({{< relref "unfinished" >}}), [nothing]({{< relref "nowhere" >}}) and ![gone](/img/gone.png).\n')
    (old / "content/post/unfinished").mkdir()
    (old / "content/post/unfinished/index.md").write_text("---\ntitle: Unfinished\ndate: 2021-01-01\ndraft: true\n---\nNot yet.\n")
    site, result = init_from(tmp_path, "hugo-blox", old)
    prose = page(site, "posts/getting-started/index.html").select_one("main .prose")
    assert "See the draft, nothing and ." in text(prose) and not prose.select("a[href*=unfinished], img[src*=gone]")
    written = "content/posts/2020-12-13-getting-started.md"
    assert f"note: {written}: a link to /post/unfinished/, which names no page or file that came over: its text kept without it" in result.stdout
    assert (
        "note: content/post/getting-started/index.md: the link of 'nothing' names \"nowhere\", no page of the site: its text kept without it" in result.stdout
    )
    assert f"note: {written}: a link to /img/gone.png, which names no page or file that came over: its text kept without it" in result.stdout


@pytest.mark.slow
def test_an_old_hugo_academic_site_with_toml_front_matter_comes_over_whole(tmp_path):
    """Hugo Academic (before 2020) named its owner `name:` and wrote posts and talks with TOML front matter
    between '+++' lines: they come over, and the site is the owner's, not "Your Name"'s."""
    old = tmp_path / "old"
    files = {
        "config.toml": 'baseurl = "https://kward.github.io/"\ntitle = "Kyle Ward"\n',
        "content/authors/admin/_index.md": "---\n# Display name\nname: Kyle Ward\nrole: Senior Data Scientist\n---\nKyle Ward builds travel demand models.\n",
        "content/post/getting-started/index.md": '+++\ntitle = "Getting started"\ndate = 2018-05-01T00:00:00\nsummary = "How I started."\n+++\nHello, TOML world.\n',
        "content/talk/example/index.md": '+++\ntitle = "Example Talk"\nevent = "TRB Annual Meeting"\ndate = 2020-01-12T13:00:00\n+++\n',
        "content/publication/journal-article/index.md": '+++\ntitle = "A travel model"\ndate = 2019-02-01\nauthors = ["admin"]\n+++\n',
    }
    for name, content in files.items():
        (old / name).parent.mkdir(parents=True, exist_ok=True)
        (old / name).write_text(content, encoding="utf-8")
    site, result = init_from(tmp_path, "hugo-blox", old)
    assert "created a sitegen site for Kyle Ward" in result.stdout and "Your Name" not in result.stdout
    assert "not brought over; add it to content/talks/talks.yaml" not in result.stdout
    assert yaml.safe_load((site / "content/site.yaml").read_text(encoding="utf-8"))["title"] == "Kyle Ward"
    index = page(site)
    assert text(index.select_one("h1")) == "Kyle Ward" and text(index.select_one(".owner")) == "Kyle Ward"
    post = page(site, "posts/getting-started/index.html")
    assert text(post.h1) == "Getting started" and "Hello, TOML world." in text(post)
    talks = text(page(site, "talks/index.html"))
    assert "Example Talk" in talks and "TRB Annual Meeting" in talks


@pytest.mark.slow
def test_a_link_out_of_the_old_site_is_not_followed(tmp_path):
    """A symbolic link in the old site that leads out of it (a secret of the machine) is neither copied nor read."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / "al-folio", old)
    secret = tmp_path / "secret.txt"
    secret.write_text("TOKEN=hunter2\n")
    (old / "assets/pdf/secret.pdf").symlink_to(secret)
    (old / "assets/pdf/machine").symlink_to(tmp_path, target_is_directory=True)  # a folder outside: not walked
    site, result = init_from(tmp_path, "al-folio", old)
    assert not (site / "static/pdf/secret.pdf").exists() and not (site / "static/pdf/machine").exists()
    assert f"assets/pdf/secret.pdf: a link to {secret}, outside the old site: not read" in result.stdout
    assert f"assets/pdf/machine: a link to {tmp_path}, outside the old site: not read" in result.stdout
    assert all(b"hunter2" not in path.read_bytes() for path in site.rglob("*") if path.is_file())


@pytest.mark.slow
def test_a_folder_of_no_known_tool_is_an_error_and_nothing_is_written(tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "index.html").write_text("<p>hand-made</p>")
    result = run_sitegen("init", str(tmp_path / "new"), "--from", str(tmp_path / "old"), cwd=tmp_path)
    assert result.returncode == 1 and "not a site sitegen can bring over (it knows academicpages, al-folio, Hugo Blox, Quarto)" in result.stderr
    assert not (tmp_path / "new").exists()


@pytest.mark.slow
def test_every_link_of_a_site_brought_over_leads_somewhere(tmp_path):
    site, _ = init_from(tmp_path, "al-folio")
    assert run_sitegen("build", "--site", str(site), "--base-url", "http://127.0.0.1/homepage/").returncode == 0
    with serve_directory(site / "output", prefix="/homepage/") as base:
        report = crawl(base + "index.html")
    assert report.problems == [], report.describe()


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(bio=st.text(max_size=120), affiliation=st.text(max_size=40))
def test_any_text_of_an_old_site_reads_back_from_the_new_profile_as_it_was_brought_over(bio, affiliation):
    """What the old site said about its owner goes into profile.yaml as YAML that reads back the same,
    whatever characters it holds (quotes, colons, #, indented first lines, control characters)."""
    from sitegen.migrate import Imported, markdown_text, plain_text
    from sitegen.scaffold import guess_facts, render_skeleton, with_imported

    imported = Imported("al-folio", name="Ada Lovelace", bio=markdown_text(bio), affiliation=plain_text(affiliation), links={"x": "https://x.com/a"})
    rendered = render_skeleton(with_imported(guess_facts(Path("/tmp/site"), "Ada Lovelace"), imported))
    profile = yaml.safe_load(rendered[PurePosixPath("content/profile.yaml")].decode("utf-8"))
    assert (profile["bio"].rstrip("\n") if imported.bio else imported.bio) == imported.bio
    assert profile.get("affiliation", "") == imported.affiliation


ANY_VALUE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=30)
    | st.sampled_from(["<script>alert(1)</script>", "javascript:alert(1)", "a: b #c", "{{ x }}"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)
CONFIG_KEYS = ["first_name", "last_name", "url", "baseurl", "scholar", "email", "orcid_id", "github_username", "x_username", "author"]
PAGE_KEYS = ["title", "date", "type", "role", "organizations", "social", "education", "venue", "location", "slidesurl", "url_slides", "event", "inline"]
PAGE_KEYS += [
    "description",
    "summary",
    "excerpt",
    "draft",
    "published",
    "img",
    "importance",
    "category",
    "external_link",
    "redirect",
    "permalink",
    "categories",
]
LIST_OF_MAPPINGS = st.lists(
    st.dictionaries(st.sampled_from(["position", "name", "title", "company", "startDate", "endDate", "date_start", "url", "summary"]), ANY_VALUE, max_size=4),
    max_size=3,
)


def front_matter(data: dict) -> str:
    return "---\n" + yaml.safe_dump(data, allow_unicode=True) + "---\nText.\n"


def old_site_files(tool: str, draw) -> dict[str, str]:
    """An old site of `tool` whose settings, pages, talks and CV hold anything at all (its publication files are well formed)."""
    page = lambda: front_matter(draw(st.dictionaries(st.sampled_from(PAGE_KEYS), ANY_VALUE, max_size=5)))  # noqa: E731
    config = yaml.safe_dump(draw(st.dictionaries(st.sampled_from(CONFIG_KEYS), ANY_VALUE, max_size=6)), allow_unicode=True)
    if tool == "al-folio":
        return {"_config.yml": config, "_pages/about.md": page(), "_news/a.md": page(), "_teachings/c.md": page(), "_bibliography/papers.bib": "@misc{k, title = {T}, year = {2020}}\n",
                "_posts/2020-01-01-a.md": page(), "_posts/2021-01-01-a.md": page(), "_projects/1.md": page(), "_projects/2.md": page(),
                "assets/json/resume.json": json.dumps({"work": draw(LIST_OF_MAPPINGS), "awards": draw(LIST_OF_MAPPINGS)})}  # fmt: skip
    if tool == "academicpages":
        return {"_config.yml": config, "_pages/about.md": page(), "_talks/t.md": page(), "_teaching/c.md": page(), "_publications/p.md": front_matter({"title": "T", "date": "2020-01-01"}),
                "_posts/p.md": page(), "_portfolio/p.md": page(),
                "_data/cv.json": json.dumps({"work": draw(LIST_OF_MAPPINGS), "education": draw(LIST_OF_MAPPINGS)})}  # fmt: skip
    return {"content/authors/admin/_index.md": page(), "content/authors/x/_index.md": page(), "content/event/e/index.md": page(), "content/post/p/index.md": page(), "content/project/p/index.md": page(),
            "content/home/experience.md": front_matter({"experience": draw(LIST_OF_MAPPINGS)}),
            "content/publication/p/index.md": front_matter({"title": "T", "date": "2020-01-01", "authors": ["admin", "x"]})}  # fmt: skip


@pytest.mark.parametrize("tool", ["al-folio", "academicpages", "hugo-blox"])
@settings(max_examples=int(os.environ.get("SITEGEN_MIGRATE_EXAMPLES", "5")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_old_site_gives_a_site_that_checks(tmp_path_factory, tool, data):
    """Whatever an old site's settings, pages, talks and CV hold (wrong types, markup, template tags, control
    characters), `init --from` makes a site without a traceback, and the new site checks without an error:
    bad values are left out or quoted."""
    from sitegen.build import check_site
    from sitegen.migrate import read_old_site
    from sitegen.scaffold import guess_facts, render_skeleton, with_imported, write_files

    root = tmp_path_factory.mktemp("fuzz")
    for name, text_ in old_site_files(tool, data.draw).items():
        (root / "old" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "old" / name).write_text(text_, encoding="utf-8")
    imported = read_old_site(root / "old")
    site = root / "new"
    rendered = render_skeleton(with_imported(guess_facts(site, imported.name or None), imported))
    write_files(site, {**{path: data for path, data in rendered.items() if path.parent.name != "records"}, **imported.files})
    check_site(site)  # a ContentError (exit 1) would fail the test: nothing brought over may break the new site


@pytest.mark.slow
def test_init_from_prints_the_preview_address_serve_uses(tmp_path):
    """The old site's address is kept (al-folio's `baseurl: /homepage`), and `sitegen serve` serves the site at
    its path: the address init prints is that one, not one made of the new folder's name."""
    site = tmp_path / "new"
    result = run_sitegen("init", str(site), "--from", str(OLD_SITES / "al-folio"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    base_path = urlsplit(yaml.safe_load((site / "content/site.yaml").read_text(encoding="utf-8"))["base_url"]).path
    assert base_path == "/homepage/"
    assert "sitegen serve          # preview at http://127.0.0.1:8000/homepage/," in result.stdout
    assert "8000/new/" not in result.stdout
    assert "http://127.0.0.1:8000/homepage/" in (site / "README.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_what_the_about_page_says_under_the_photo_comes_over_or_is_named_in_a_note(tmp_path):
    """docs/switching.md: a `note:` for each thing left to the owner. al-folio's `profile.image` whose file is
    missing is named; its `profile.more_info` (an office, an address) ends the bio, and a note says so."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / "al-folio", old)
    about = old / "_pages/about.md"
    about.write_text(
        about.read_text(encoding="utf-8")
        .replace("image: prof_pic.jpg", "image: me.jpg")
        .replace("<p>555 your office number</p>", "<p>Room 101</p><p>Main Street 1, Bern</p>"),
        encoding="utf-8",
    )
    site, result = init_from(tmp_path, "al-folio", old)
    assert "note: _pages/about.md: profile.image names assets/img/me.jpg, no file of the old site" in result.stdout
    profile = yaml.safe_load((site / "content/profile.yaml").read_text(encoding="utf-8"))
    assert "photo" not in profile and page(site).select_one("img.photo, .profile img") is None
    assert profile["bio"].rstrip().endswith("\n\nRoom 101, Main Street 1, Bern")
    assert "Room 101, Main Street 1, Bern" in text(page(site).select_one(".bio"))
    assert "note: _pages/about.md: profile.more_info (Room 101, Main Street 1, Bern) is at the end of the bio" in result.stdout


@pytest.mark.slow
def test_a_missing_academicpages_avatar_is_named_in_a_note(tmp_path):
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / "academicpages", old)
    (old / "images/profile.png").unlink()
    site, result = init_from(tmp_path, "academicpages", old)
    assert "note: _config.yml: author.avatar names images/profile.png, no file of the old site" in result.stdout
    assert "photo" not in yaml.safe_load((site / "content/profile.yaml").read_text(encoding="utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize(
    "tool, old_file, pages, feed",
    [
        ("al-folio", "_news/announcement_1.md", ["news/index.html", "index.html"], "news/feed.xml"),
        pytest.param("academicpages", "_posts/2012-08-14-blog-post-1.md", ["posts/blog-post-1/index.html"], None, marks=pytest.mark.slow),
    ],
)
def test_emoji_shortcodes_become_the_emoji_their_tool_showed(tmp_path, tool, old_file, pages, feed):
    """Jekyll's jemoji shows `:sparkles:` as ✨ (al-folio's own sample news has it): so does the new site, on the
    profile's news, the news page and the feed; in code the shortcode stays, as it did."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / tool, old)
    path = old / old_file
    path.write_text(path.read_text(encoding="utf-8") + "\nNew lab :sparkles: :tada: :+1:, kept: `:sparkles:`, a:b:c, :no_such_emoji:\n", encoding="utf-8")
    site, _ = init_from(tmp_path, tool, old)
    written = "\n".join(p.read_text(encoding="utf-8") for p in (site / "content").rglob("*.md"))
    assert "New lab ✨ 🎉 👍, kept: `:sparkles:`, a:b:c, :no_such_emoji:" in written
    for shown in pages:
        words = text(page(site, shown))
        assert "New lab ✨ 🎉 👍, kept: :sparkles:" in words and ":tada:" not in words, shown
    if feed:
        assert "New lab ✨ 🎉 👍" in (site / "output" / feed).read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("tool", ["al-folio", "academicpages"])
def test_search_engine_verification_codes_come_over(tmp_path, tool):
    """Both tools' _config.yml verify the site with Google Search Console and Bing: dropped, the property the
    owner verified would be lost at the services' next check."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / tool, old)
    config = old / "_config.yml"
    config.write_text(
        config.read_text(encoding="utf-8") + "google_site_verification: abcDEF_123-google\nbing_site_verification: 0123456789ABCDEF\n",
        encoding="utf-8",
    )
    site, _ = init_from(tmp_path, tool, old)
    settings = yaml.safe_load((site / "content/site.yaml").read_text(encoding="utf-8"))
    assert settings["verification"] == {"google": "abcDEF_123-google", "bing": "0123456789ABCDEF"}
    head = page(site).head
    assert head.find("meta", attrs={"name": "google-site-verification"})["content"] == "abcDEF_123-google"
    assert head.find("meta", attrs={"name": "msvalidate.01"})["content"] == "0123456789ABCDEF"


@pytest.mark.slow
@pytest.mark.parametrize("tool", ["al-folio", "academicpages"])
def test_a_custom_domain_of_the_old_site_comes_over(tmp_path, tool):
    """A Jekyll site on GitHub Pages keeps its custom domain in a file CNAME, `url:` often left at github.io: the
    new site's base_url named github.io (canonical links, sitemap, feed) and the domain was gone, without a word."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / tool, old)
    (old / "CNAME").write_text("www.grace-hopper.example\n", encoding="utf-8")
    site = tmp_path / "new"
    result = run_sitegen("init", str(site), "--from", str(old), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    settings = yaml.safe_load((site / "content/site.yaml").read_text(encoding="utf-8"))
    assert settings["cname"] == "www.grace-hopper.example"
    assert settings["base_url"] == "https://www.grace-hopper.example/"
    assert (site / "output/CNAME").read_text(encoding="utf-8").strip() == "www.grace-hopper.example"
    assert page(site).head.find("link", rel="canonical")["href"] == "https://www.grace-hopper.example/"
    assert "CNAME: the custom domain www.grace-hopper.example" in result.stdout


MIGRATE_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "migrate"


@pytest.mark.slow
def test_a_hugo_blox_2024_author_pages_profiles_and_cv_lists_come_over(tmp_path):
    """Hugo Blox's academic-cv template since 2024 writes the author page's links as `profiles:` (`url:`, not
    `social:`/`link:`) and the CV as its `work:`, `education:` and `awards:` lists: the new site had no email,
    no links, no CV link and no CV, and nothing said so."""
    site, result = init_from(tmp_path, "hugo-blox-2024", MIGRATE_FIXTURES / "hugo-blox-2024")
    profile = yaml.safe_load((site / "content/profile.yaml").read_text(encoding="utf-8"))
    assert profile["email"] == "praman@cmu.edu"
    assert profile["links"] == {
        "x": "https://x.com/priyaraman_bio",
        "github": "https://github.com/praman-lab",
        "linkedin": "https://www.linkedin.com/in/priya-raman-cb/",
        "google_scholar": "https://scholar.google.co.uk/citations?user=Xy12AbCdEfGH",
        "orcid": "https://orcid.org/0000-0003-1234-5678",
        "cv": "static/uploads/resume.pdf",
    }
    index = page(site)
    assert served_file(site, index.select_one(".profile a[href$='resume.pdf'], a[href$='resume.pdf']")["href"]).read_bytes() == b"%PDF-1.5 resume"
    person = yaml.safe_load((site / "content/people/lchen.yaml").read_text(encoding="utf-8"))
    assert (person.get("email"), person.get("links")) == ("lchen@example.org", {"github": "https://github.com/lichen"})
    cv = page(site, "cv/index.html")
    sections = {text(h): text(h.find_parent("section")) for h in cv.select("main section h2")}
    assert "Assistant Professor" in sections["Positions"] and "Broad Institute" in sections["Positions"]
    assert "PhD Statistics" in sections["Education"] and "University of Washington" in sections["Education"]
    assert "NSF CAREER Award" in sections["Awards"] and "National Science Foundation" in sections["Awards"]
    assert "note: content/authors/admin/_index.md: interests, skills, languages not brought over into content/cv.yaml" in result.stdout


@pytest.mark.slow
def test_html_the_old_pages_hid_or_showed_is_not_shown_as_text(tmp_path):
    """academicpages' about.md, as its template ships it, holds its getting-started text in <!-- --> comments (most
    sites keep them), and owners write <a href> and <img> in it: the profile page showed the comments, and the
    tags, as text."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / "academicpages", old)
    about = old / "_pages/about.md"
    about.write_text(
        about.read_text(encoding="utf-8")
        + '\nClick <a href="https://ghopper.github.io/files/cv.pdf" target="_blank">here</a> for my CV.<br/>\n'
        + '<img src="/images/mark1.png" alt="The Mark I, again" width="300">\n\n'
        + "<!--\nA data-driven personal website\n======\nLike many other Jekyll-based GitHub Pages templates, academicpages makes you\n-->\n"
        + "Code stays: `<!-- a comment in code -->`\n",
        encoding="utf-8",
    )
    site, _ = init_from(tmp_path, "academicpages", old)
    bio = page(site).select_one(".bio")
    assert "data-driven" not in text(bio) and "<!--" not in text(bio).replace("<!-- a comment in code -->", "")
    assert "<a" not in text(bio) and "<img" not in text(bio) and "<br" not in text(bio)
    assert "<!-- a comment in code -->" in bio.select_one("code").get_text()
    here = next(a for a in bio.select("a") if text(a) == "here")
    assert served_file(site, here["href"]).read_bytes() == b"%PDF-1.4 cv"
    picture = next(img for img in bio.select("img") if img.get("alt") == "The Mark I, again")
    assert served_file(site, picture["src"]).read_bytes() == b"\x89PNG mark1"


@pytest.mark.slow
def test_hugo_blox_pages_and_homepage_texts_left_behind_are_named_in_notes(tmp_path):
    """A Hugo Blox site's other pages (content/about.md), its homepage's `markdown` block and Hugo
    Academic's homepage widgets with text (content/home/*.md) did not come over, and no note said so."""
    old = tmp_path / "old"
    shutil.copytree(MIGRATE_FIXTURES / "hugo-blox-2024", old)
    (old / "content/home").mkdir()
    (old / "content/home/teaching.md").write_text(
        '+++\nwidget = "blank"\nheadless = true\ntitle = "Teaching"\n+++\n\nI teach 02-710 Computational Genomics.\n', encoding="utf-8"
    )
    (old / "content/home/accomplishments.md").write_text(
        "---\nwidget: accomplishments\ntitle: Accomplishments\nitem:\n- organization: Coursera\n  title: Neural Networks\n---\n", encoding="utf-8"
    )
    (old / "content/home/hero.md").write_text('+++\nwidget = "hero"\nheadless = true\nactive = false\n+++\n', encoding="utf-8")
    (old / "content/about.md").write_text("---\ntitle: About\n---\n\nI grew up in Porto.\n", encoding="utf-8")
    (old / "content/research").mkdir()
    (old / "content/research/_index.md").write_text(
        "---\ntitle: Research\ntype: landing\nsections:\n  - block: markdown\n    content:\n      title: Themes\n      text: Sparse PCA.\n---\n",
        encoding="utf-8",
    )
    _, result = init_from(tmp_path, "hugo-blox-2024", old)
    assert "note: content/about.md: a page not brought over; copy its text into content/pages/*.md" in result.stdout
    assert "note: content/research/_index.md: a markdown block (Themes) not brought over" in result.stdout  # a landing page's
    assert "note: content/teaching/_index.md" not in result.stdout  # its text opens the teaching page now
    assert (
        "note: content/home/teaching.md: a section of the homepage (Teaching) not brought over; copy its text into the bio or content/pages/*.md"
        in result.stdout
    )
    assert "note: content/home/accomplishments.md: a section of the homepage (Accomplishments) not brought over" in result.stdout
    assert (
        "note: content/_index.md: the homepage's markdown block (📚 My Research) not brought over; copy its text into the bio or content/pages/*.md"
        in result.stdout
    )
    for read in ("content/publication/_index.md", "content/home/hero.md", "content/authors/lchen/_index.md", "content/publication/sparse-review"):
        assert f"note: {read}" not in result.stdout  # read, or a list the new site makes itself, or no text of its own


@pytest.mark.slow
def test_a_publications_text_links_the_old_sites_files_as_the_new_site_has_them(tmp_path):
    """academicpages' publication files say "[Download paper here](...)" in their text, in Liquid or with the old
    site's address: the record showed "![Figure]( base_path /images/mark1.png)", linked `{{ site.url }}/files/...`,
    and a link made `static/files/paper1.pdf` led nowhere from the record's own page."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / "academicpages", old)
    paper = old / "_publications/2009-10-01-paper-title-number-1.md"
    paper.write_text(
        paper.read_text(encoding="utf-8")
        + "\n![Figure 1]({{ base_path }}/images/mark1.png)\n\n[Download paper here]({{ site.url }}/files/paper1.pdf)\n\n"
        + "[The PDF again](https://ghopper.github.io/files/paper1.pdf) and the <i>Proceedings</i>.\n",
        encoding="utf-8",
    )
    site, result = init_from(tmp_path, "academicpages", old)
    record_page, index = page(site, "records/2009-10-01-paper-title-number-1/index.html"), page(site)
    for abstract in (record_page.select_one(".abstract-body"), item(index, "2009-10-01-paper-title-number-1").select_one(".abstract-body")):
        words = text(abstract)
        assert "A compiler translates" in words and "base_path" not in words and "{{" not in words
        assert "<i>" not in words and "Proceedings" in text(abstract.select_one("em"))
        for name, data in (("Download paper here", b"%PDF-1.4 paper"), ("The PDF again", b"%PDF-1.4 paper"), ("Figure 1", b"\x89PNG mark1")):
            link = next(a for a in abstract.select("a") if text(a) == name)
            assert served_file(site, link["href"]).read_bytes() == data, (name, link["href"])
    assert "note: _publications/2009-10-01-paper-title-number-1.md: its pictures are links in its text" in result.stdout


@pytest.mark.slow
def test_hugo_blox_publications_template_text_is_no_abstract(tmp_path):
    """Hugo Blox's publication template writes sample callouts below the front matter ("Click the Cite button
    above to demo the feature..."), which most sites keep: a record without an abstract showed them as its
    abstract, shortcodes and all ("% callout note % Click the Cite button...")."""
    site, result = init_from(tmp_path, "hugo-blox-2024", MIGRATE_FIXTURES / "hugo-blox-2024")
    record = page(site, "records/sparse-review/index.html")
    assert "Handbook of Statistical Genomics" in text(record)
    assert "Cite button above to demo" not in text(record) and "callout" not in text(record) and "full text" not in text(record)
    assert "sparse-review" not in result.stdout  # nothing of its own left out: no note


@pytest.mark.slow
def test_old_addresses_without_a_permalink_or_with_more_than_one_lead_on(tmp_path):
    """Jekyll serves a collection's file without `permalink:` at _config.yml's collection permalink
    (academicpages: /:collection/:path/), and jekyll-redirect-from (academicpages' about.md: /about/, /about.html)
    and Hugo's `aliases:` give a page more addresses: none of them led anywhere after the switch."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / "academicpages", old)
    config = old / "_config.yml"
    config.write_text(config.read_text(encoding="utf-8") + "collections:\n  talks:\n    output: true\n    permalink: /:collection/:path/\n", encoding="utf-8")
    talk = old / "_talks/2012-03-01-talk-1.md"
    talk.write_text(talk.read_text(encoding="utf-8").replace("permalink: /talks/2012-03-01-talk-1\n", ""), encoding="utf-8")
    post = old / "_posts/2012-08-14-blog-post-1.md"
    post.write_text(post.read_text(encoding="utf-8").replace("tags:", "redirect_from:\n  - /wordpress/future-post/\ntags:"), encoding="utf-8")
    site, _ = init_from(tmp_path, "academicpages", old)
    hugo_old = tmp_path / "hugo-old"
    shutil.copytree(OLD_SITES / "hugo-blox", hugo_old)
    hugo_post = hugo_old / "content/post/getting-started/index.md"
    hugo_post.write_text(hugo_post.read_text(encoding="utf-8").replace("tags:", "aliases:\n  - /blog/welcome/\ntags:"), encoding="utf-8")
    (tmp_path / "hugo").mkdir()
    hugo, _ = init_from(tmp_path / "hugo", "hugo-blox", hugo_old)
    for built, old_address, new in (
        (site, "about/", ""),
        (site, "about.html", ""),
        (site, "talks/2012-03-01-talk-1/", "talks/#talk-1982-08-19-future-possibilities-data-hardware-softw"),
        (site, "wordpress/future-post/", "posts/blog-post-1/"),
        (hugo, "blog/welcome/", "posts/getting-started/"),
    ):
        stub = page(built, old_address if old_address.endswith(".html") else f"{old_address}index.html")
        assert stub.find("meta", attrs={"http-equiv": "refresh"})["content"] == f"0; url=/{new}", old_address
        assert served_file(built, f"/{new.partition('#')[0]}index.html").is_file()


@pytest.mark.slow
def test_hugo_shortcodes_for_a_paper_or_a_video_become_links(tmp_path):
    """Hugo Blox's `{{< cite page="/publication/x" >}}` and `{{< youtube ID >}}` were left out of a post: "See
    the book and ." with a hole, and the video gone."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / "hugo-blox", old)
    post = old / "content/post/getting-started/index.md"
    post.write_text(
        post.read_text(encoding="utf-8")
        + '\nAs in {{< cite page="/publication/gossip-sort" view="citation" >}}, and in this talk:\n\n{{< youtube D2vj0WcvH5c >}}\n',
        encoding="utf-8",
    )
    site, result = init_from(tmp_path, "hugo-blox", old)
    links = {text(a): a["href"] for a in page(site, "posts/getting-started/index.html").select("main .prose a")}
    assert served_file(site, links["On the Connexion of the Physical Sciences"]) == site / "output/records/gossip-sort/"
    assert links["Video on YouTube"] == "https://www.youtube.com/watch?v=D2vj0WcvH5c"
    assert "getting-started/index.md: its template tags" not in result.stdout  # each became Markdown: nothing left out


@pytest.mark.slow
def test_marks_after_authors_names_are_left_out_of_the_names(tmp_path):
    """Hugo Blox sites mark a corresponding author or equal contribution after the name ("Elin Lindqvist*"):
    the mark stayed part of the name, in BibTeX, RIS and the citations too ("author = {... and Elin Lindqvist*}")."""
    site, result = init_from(tmp_path, "hugo-blox-2024", MIGRATE_FIXTURES / "hugo-blox-2024")
    record = page(site, "records/atlas-permutation/index.html")
    assert "Elin Lindqvist" in text(record.select_one(".authors")) and "*" not in text(record.select_one(".authors"))
    assert "Elin Lindqvist}" in (site / "output/publications.bib").read_text(encoding="utf-8")
    assert "note: content/publication/atlas-permutation/index.md: the marks after authors' names (Elin Lindqvist*) left out" in result.stdout


@pytest.mark.slow
def test_an_academicpages_site_without_a_blog_builds_strict_at_once(tmp_path):
    """academicpages' /year-archive/ (its blog) was sent to posts/ even when no post came over: the first
    `sitegen build --strict` after init failed on 'posts/' is no file of the site."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / "academicpages", old)
    shutil.rmtree(old / "_posts")
    site, _ = init_from(tmp_path, "academicpages", old)  # builds with --strict
    written = yaml.safe_load((site / "content/redirects.yaml").read_text(encoding="utf-8"))
    assert "year-archive/" not in written and not (site / "output/year-archive").exists()
    checked = run_sitegen("check", "--strict", "--site", str(site))
    assert checked.returncode == 0, checked.stderr


@pytest.mark.slow
def test_hugo_blox_teaching_pages_come_over_as_one_page_at_their_old_addresses(tmp_path):
    """A Hugo Blox site's courses (content/teaching/NAME/index.md, content/teaching/NAME.md) were left behind with a
    note each, and /teaching/NAME/ gave 404, while academicpages' and al-folio's courses came over."""
    old = tmp_path / "old"
    shutil.copytree(MIGRATE_FIXTURES / "hugo-blox-2024", old)
    (old / "content/teaching/stat501").mkdir()
    (old / "content/teaching/stat501/index.md").write_text(
        "---\ntitle: 'STAT 501: Applied Regression'\ndate: '2023-09-01'\nsummary: Graduate course.\n---\n\n"
        "Linear models and GLMs. [Syllabus](/uploads/syllabus.pdf).\n",
        encoding="utf-8",
    )
    (old / "static/uploads").mkdir(parents=True, exist_ok=True)
    (old / "static/uploads/syllabus.pdf").write_bytes(b"%PDF-1.4 syllabus")
    (old / "content/teaching/stat210.md").write_text(
        "---\ntitle: 'STAT 210: Probability'\ndate: 2022-02-01\nsummary: Undergraduate probability.\n---\n", encoding="utf-8"
    )
    site, result = init_from(tmp_path, "hugo-blox-2024", old)
    teaching = page(site, "teaching/index.html")
    main = teaching.select_one("main")
    assert "02-710 Computational Genomics" in text(main)  # the text of content/teaching/_index.md, first
    assert [text(h) for h in main.select("h2") if "STAT" in text(h)] == ["STAT 501: Applied Regression", "STAT 210: Probability"]
    assert "Undergraduate probability." in text(main)
    syllabus = next(a["href"] for a in main.select("a") if text(a) == "Syllabus")
    assert served_file(site, syllabus).read_bytes() == b"%PDF-1.4 syllabus"
    for old_address in ("teaching/stat501/", "teaching/stat210/"):
        assert page(site, f"{old_address}index.html").find("meta", attrs={"http-equiv": "refresh"})["content"] == "0; url=/teaching/"
    assert any(text(a) == "Teaching" for a in page(site).select("header nav a"))
    assert "note: content/teaching" not in result.stdout, result.stdout


@pytest.mark.slow
def test_a_courses_own_headings_stay_below_its_title(tmp_path):
    """academicpages' teaching template keeps `Heading 1` / `======` in each course's text: on the one teaching
    page it became a heading as high as the courses' titles, a course of its own in the page's outline."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / "academicpages", old)
    course = old / "_teaching/2014-spring-teaching-1.md"
    course.write_text(
        course.read_text(encoding="utf-8")
        + "\nHeading 1\n======\n\nWeek 1.\n\nHeading 2\n------\n\n## Reading\n\n```python\n# not a heading\n```\n\nA line\n\n---\n\nafter a rule.\n",
        encoding="utf-8",
    )
    site, _ = init_from(tmp_path, "academicpages", old)
    main = page(site, "teaching/index.html").select_one("main")
    assert [text(h) for h in main.select("h2")] == ["Programming the Mark I"]  # the courses' titles only
    assert [text(h) for h in main.select("h3")] == ["Heading 1"]
    assert [text(h) for h in main.select("h4")] == ["Heading 2", "Reading"]
    assert text(main.select_one("pre")) == "# not a heading"
    assert main.select("hr") and "after a rule." in text(main)


@pytest.mark.slow
def test_what_a_talk_says_that_talks_yaml_cannot_is_named_in_a_note(tmp_path):
    """academicpages' `type: "Tutorial"` (which comes over as talks.yaml's `type` now), Hugo Blox's `date_end` (a three-day workshop) and its other speakers
    (`authors`) vanished from the talks brought over, and no note said so."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / "academicpages", old)
    (old / "_talks/2013-03-01-tutorial-1.md").write_text(
        '---\ntitle: "Compiling with A-0"\ncollection: talks\ntype: "Tutorial"\nvenue: "ACM"\ndate: 1953-03-01\n---\n', encoding="utf-8"
    )
    site, result = init_from(tmp_path, "academicpages", old)
    assert "kinds of talks" not in result.stdout  # talks.yaml's `type`: shown on the talks page
    assert text(page(site, "talks/index.html").select_one("li[id^=talk-1953-03-01]  .talk-kind")) == "Tutorial"
    hugo_old = tmp_path / "hugo-old"
    shutil.copytree(OLD_SITES / "hugo-blox", hugo_old)
    event = hugo_old / "content/event/example/index.md"
    event.write_text(
        event.read_text(encoding="utf-8").replace("authors: [admin]", "date_end: '1831-06-03T17:00:00Z'\nauthors: [admin, Mary Somerville]"),
        encoding="utf-8",
    )
    (tmp_path / "hugo").mkdir()
    _, hugo_result = init_from(tmp_path / "hugo", "hugo-blox", hugo_old)
    assert "note: content/event/example/index.md: its last day (date_end: 1831-06-03) not brought over" in hugo_result.stdout
    assert "note: content/event/example/index.md: its other speakers (Mary Somerville) not brought over" in hugo_result.stdout


@pytest.mark.slow
def test_a_markdown_cv_left_behind_is_named_with_where_its_entries_go(tmp_path):
    """academicpages' Markdown CV (_pages/cv.md, at /cv/ and its redirect_from /resume) was named as a page to copy
    into content/pages/*.md, while its entries belong in content/cv.yaml, which makes /cv/ again; that its old
    addresses give 404 until then was said nowhere."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / "academicpages", old)
    (old / "_data/cv.json").unlink()
    cv = old / "_pages/cv.md"
    cv.write_text(cv.read_text(encoding="utf-8").replace("permalink: /cv/\n", "permalink: /cv/\nredirect_from:\n  - /resume\n"), encoding="utf-8")
    site, result = init_from(tmp_path, "academicpages", old)
    assert (
        "note: _pages/cv.md: a CV (a Liquid layout as much as text) not brought over; copy its entries into content/cv.yaml, "
        "which makes /cv/ again (/cv/, /resume give 404 until then)"
    ) in result.stdout
    assert not (site / "output/cv").exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    "tool, note",
    [
        ("academicpages", "note: files/: its files are at /static/files/ now (/files/cv.pdf is /static/files/cv.pdf)"),
        ("hugo-blox", "note: static/: its files are at /static/ now (/uploads/resume.pdf is /static/uploads/resume.pdf)"),
    ],
)
def test_the_old_addresses_of_files_brought_over_are_named_in_a_note(tmp_path, tool, note):
    """The old site served its files at /files/cv.pdf (academicpages) or /uploads/resume.pdf (Hugo's static/); the
    new site's links lead to their copies under /static/, but a link from another site to the old address gives
    404, and a redirect cannot send a file on: nothing said so."""
    _, result = init_from(tmp_path, tool)
    assert note in result.stdout
    assert "links from other sites to the old addresses give 404" in result.stdout


@pytest.mark.slow
def test_a_hugo_blox_kit_site_with_plural_folders_and_a_person_file_comes_over(tmp_path):
    """The Hugo Blox Kit's templates since 2025 (academic-cv) keep the owner in data/authors/me.yaml (no author
    page) and their pages in content/publications/, content/events/ and content/projects/: `init --from` said
    the site was none it knew, and brought nothing over."""
    site, result = init_from(tmp_path, "hugo-blox-2025", MIGRATE_FIXTURES / "hugo-blox-2025")
    assert "from the Hugo Blox site" in result.stdout
    profile = yaml.safe_load((site / "content/profile.yaml").read_text(encoding="utf-8"))
    assert profile["name"] == "Ingrid Halvorsen"  # given and family: the name the papers give, not 'Dr. Ingrid Halvorsen'
    assert profile["position"] == "Associate Professor of Marine Ecology"
    assert profile["affiliation"] == "University of Bergen, Bjerknes Centre for Climate Research"
    assert profile["email"] == "ingrid.halvorsen@uib.no"
    assert profile["links"] == {
        "bluesky": "https://bsky.app/profile/ihalvorsen.bsky.social",
        "github": "https://github.com/halvorsen-lab",
        "google_scholar": "https://scholar.google.com/citations?user=Hq2cXy8AAAAJ",
        "orcid": "https://orcid.org/0000-0002-4431-9917",
        "cv": "static/uploads/resume.pdf",
    }
    assert (site / "static" / profile["photo"]).read_bytes() == b"\xff\xd8\xff\xe0 JFIF ingrid"  # assets/media/authors/me.jpg
    index = page(site)
    assert "She listens to fjords" in text(index.select_one("main"))
    # the publications, `me` as the owner, the DOI of `hugoblox: ids:`, the PDF of `links:`, the bundle's picture
    soundscapes = item(index, "fjord-soundscapes")
    assert "Ingrid Halvorsen" in text(soundscapes) and "Magnus Løvik" in text(soundscapes)
    record = page(site, "records/fjord-soundscapes/index.html")
    hrefs = [a["href"] for a in record.select("main a")]
    assert "https://doi.org/10.1002/lno.12511" in hrefs and "https://github.com/halvorsen-lab/fjord-soundscapes" in hrefs
    pdf = next(href for href in hrefs if href.endswith(".pdf"))
    assert served_file(site, pdf).read_bytes() == b"%PDF-1.5 soundscapes"
    assert "Click the" not in text(record.select_one("main")) and "Create your slides" not in text(record.select_one("main"))  # template notes
    assert (site / "static/publications/fjord-soundscapes/featured.jpg").is_file()
    preprint = page(site, "records/edna-metabarcoding/index.html")  # CSL `article`, no journal, an arXiv id (unquoted): a preprint
    assert "Preprint" in text(preprint.select_one("main")) and "https://arxiv.org/abs/2501.04567" in [a["href"] for a in preprint.select("main a")]
    assert "krill-swarm-acoustics" in {li.get("id", "").removeprefix("r-") for li in index.select("#publications li")}
    # the events, with the links of their `links:` list
    talks = text(page(site, "talks/index.html").select_one("main"))
    assert "Listening to fjords" in talks and "Grieghallen, Bergen, Norway" in talks and "Zooplankton choruses" in talks
    talks_yaml = yaml.safe_load((site / "content/talks/talks.yaml").read_text(encoding="utf-8"))
    nordic = next(talk for talk in talks_yaml if talk["title"].startswith("Listening"))
    assert nordic["links"]["video"] == "https://www.youtube.com/watch?v=Xk3bPq9dT2c"
    assert nordic["links"]["slides"] == "static/uploads/nordic-marine-2024-slides.pdf"
    asa = next(talk for talk in talks_yaml if talk["title"].startswith("Zooplankton"))
    assert str(asa["date"]) == "2023-12-05"  # its `event_start`, not its page's `date`
    assert "content/events/asa-2023/index.md: its other speakers (Magnus Løvik) not brought over" in result.stdout
    assert "nordic-marine-2024/index.md: its other speakers" not in result.stdout  # `me`: the owner
    # the project with its picture and its `links:` site, the CV of the person file's lists
    projects = page(site, "projects/index.html")
    assert [text(h) for h in projects.select("main .project-title")] == ["Fjord Sentinel"]  # content/projects/_index.md is no project
    project = page(site, "projects/fjord-sentinel/index.html")  # at its old address
    assert "https://fjordsentinel.uib.no" in [a["href"] for a in project.select("main ul.links a")]
    assert served_file(site, project.select_one("main img.project-image")["src"]).is_file()
    # the publications whose `projects:` name it are its records, and their pages name it
    assert {a["href"].rstrip("/").rpartition("/")[2] for a in project.select("main .record-title a")} == {"fjord-soundscapes", "edna-metabarcoding"}
    assert [text(a) for a in page(site, "records/fjord-soundscapes/index.html").select("main .projects-section a")] == ["Fjord Sentinel"]
    cv = page(site, "cv/index.html")
    sections = {text(h): text(h.find_parent("section")) for h in cv.select("main section h2")}
    assert "Associate Professor" in sections["Positions"] and "Woods Hole Oceanographic Institution" in sections["Positions"]
    assert "PhD Biological Oceanography" in sections["Education"] and "University of Tromsø" in sections["Education"]
    assert "Young Researcher Award" in sections["Awards"]
    assert "note: data/authors/me.yaml: interests, skills, languages not brought over" in result.stdout
    # the blog post, its link to a publication leading to the record
    post = page(site, "posts/field-season-2024/index.html")
    assert any(a["href"].endswith("records/fjord-soundscapes/") for a in post.select("main a"))
    # the old addresses
    redirects = yaml.safe_load((site / "content/redirects.yaml").read_text(encoding="utf-8"))
    assert redirects["publications/fjord-soundscapes/"] == "records/fjord-soundscapes/"
    assert redirects["publications/"] == "#publications"
    assert redirects["events/"] == "talks/" and redirects["events/nordic-marine-2024/"].startswith("talks/#talk-2024-")
    assert "projects/fjord-sentinel/" not in redirects  # the project's page is there
    assert redirects["authors/me/"] == "./" and redirects["experience/"] == "cv/"
    assert (site / "output/publications/fjord-soundscapes/index.html").is_file()
    # the search engine's verification code of params.yaml
    google = page(site).head.find("meta", attrs={"name": "google-site-verification"})
    assert google["content"] == "kM3x9QpL0vR2aTf7YbN4uWc8sDe1HgJ6iZo5nEy"
    # the homepage's texts left behind
    assert "content/_index.md: the homepage's markdown block (🐋 My Research) not brought over" in result.stdout
    assert "content/_index.md: the homepage's cta-card block (🎓 Open PhD position) not brought over" in result.stdout


@pytest.mark.slow
def test_a_quarto_page_of_long_lines_of_brackets_and_backticks_comes_over_in_seconds(tmp_path):
    """An old site is as untrusted as content: lines of 50,000 `[`, `[@`, `{{<`, `](` or backticks in a post are
    read once each, not from every place of them to their end (the patterns for citations, shortcodes, links and
    code spans tried that, for minutes to hours)."""
    old = tmp_path / "old"
    lines = ["[" * 50_000, "[@" * 25_000, "{{<a" * 12_500, "x" + "](" * 25_000, "`" * 50_000, "[a" * 25_000]
    files = {
        "_quarto.yml": "project:\n  type: website\nwebsite:\n  title: Eve Evil\n",
        "index.qmd": "---\ntitle: Blog\nlisting:\n  contents: posts\n---\n",
        "posts/2024-05-01-long.qmd": "---\ntitle: Long lines\ndate: 2024-05-01\n---\n" + "\n\n".join(lines) + "\n",
    }
    for name, content in files.items():
        (old / name).parent.mkdir(parents=True, exist_ok=True)
        (old / name).write_text(content, encoding="utf-8")
    started = time.perf_counter()
    result = run_sitegen("init", str(tmp_path / "new"), "--from", str(old), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert time.perf_counter() - started < 20
    post = (tmp_path / "new/content/posts").glob("*long*.md")
    assert "`" * 50_000 in next(post).read_text(encoding="utf-8")  # the text came over, as written
