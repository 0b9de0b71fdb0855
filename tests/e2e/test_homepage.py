"""A whole homepage (SPEC §7): pages, CV, news, talks, co-authors, types and venues, the menu,
link previews, analytics, translations and the classic theme.

Assertions are on what a visitor or a program sees: the built demo's pages parsed
with BeautifulSoup, the news feed read with feedparser, the sitemap as XML, and for
mistakes the real command's exit status and its `path:line:` messages.
"""

from __future__ import annotations

import json
import re
import struct
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote

import feedparser
import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, REPO, copy_demo, file_bytes, pages_to_read, rendered_files, run_sitegen, write_site

from sitegen.categories import subject_name
from sitegen.errors import ContentError
from sitegen.theme_checks import LANGUAGE_OWN_KEYS

CONTENT = REPO / "content"
THEME = REPO / "sitegen" / "themes" / "default"
SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def soup_of(data: bytes) -> BeautifulSoup:
    return BeautifulSoup(data.decode("utf-8"), "html.parser")


def text(tag) -> str:
    return " ".join(tag.get_text(" ").split())


def menu(page: BeautifulSoup) -> list[tuple[str, str]]:
    return [(text(a), a["href"]) for a in page.select("header nav a")]


def per_record(page: BeautifulSoup, selector: str, value=text) -> dict[str, list]:
    """Each list item of the publications (by its id): `value` of each of its elements that `selector` finds."""
    return {item["id"]: [value(element) for element in item.select(selector)] for item in page.select("#publications li.record")}


def cv_data() -> dict:
    return yaml.safe_load((CONTENT / "cv.yaml").read_text(encoding="utf-8"))


def demo_records() -> list[dict]:
    records = []
    for path in sorted((CONTENT / "records").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        records += data if isinstance(data, list) else [data]
    return [r for r in records if not r.get("hidden")]


def build_fails(site: Path) -> str:
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1, result.stdout + result.stderr
    return result.stderr


def site_with(tmp_path: Path, files: dict[str, str], settings: str = "", base_url: str = "https://example.org/") -> Path:
    """A small site with three records (RECORDS); `settings`: lines added to site.yaml, from its line 3."""
    base = {**MINIMAL_SITE, "content/records/a.yaml": RECORDS, "content/site.yaml": f"title: Test site\nbase_url: {base_url}\n{settings}"}
    return write_site(tmp_path / "site", {**base, **files})


RECORDS = """\
- id: art
  title: A journal article
  authors: ['Ada Lovelace', 'Charles Babbage']
  year: 2024
  source: Journal of Engines
  type: article
  featured: true
- id: conf
  title: A conference paper
  authors: ['Ada Lovelace', 'C. Babbage', 'Mary Somerville']
  year: 2023
  source: Proceedings of the Analytical Conference
  type: inproceedings
- id: pre
  title: A preprint
  authors: ['Ada Lovelace']
  year: 2024
  source: arXiv
  arxiv: '2401.00001'
  journal_ref: Annals of Engines 12 (2025)
"""


# -- 1. pages ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_demo_pages_are_in_the_menu_by_nav_and_show_markdown_math_and_their_publications(built_demo):
    about = soup(built_demo / "about" / "index.html")
    assert text(about.h1) == "About"
    entries = [title for title, _ in menu(about)]
    assert entries[:3] == ["Publications", "About", "Teaching"]  # about.md nav: 1, teaching.md nav: 2
    assert about.select_one('header nav a[aria-current="page"]').get_text() == "About"
    body = about.select_one(".content-page")
    assert [text(h) for h in body.select(".prose h2")][:1] == ["Research questions"]  # '# ' is a section under the title
    assert body.find("math") is not None and "\\log" not in text(body)
    featured = {r["title"] for r in demo_records() if r.get("featured")}
    shown = {text(h) for h in body.select(".embedded-publications .record-title")}
    assert shown == featured and len(featured) >= 2
    assert text(body.select_one(".embedded-publications h2")) == "Selected publications"


def test_a_page_shows_the_records_its_shortcode_asks_for(built_demo):
    teaching = soup(built_demo / "teaching" / "index.html")
    expected = {r["title"] for r in demo_records() if r.get("year", 0) >= 2023 and "roceedings" in str(r.get("source", "")) and r.get("type") != "thesis"}
    shown = {text(h) for h in teaching.select(".embedded-publications .record-title")}
    assert shown and shown <= expected
    kinds = {text(item.select_one(".venue .type")) for item in teaching.select(".embedded-publications li.record")}
    assert kinds == {"Conference paper", "Workshop paper"}  # the demo's EuroMLSys workshop paper is one of them


PROJECT_RECORDS = """\
- id: fluxgrid-software
  title: 'FluxGrid: adaptive mesh refinement'
  authors: [Ada Lovelace]
  year: 2024
  type: software
  categories: [FluxGrid, hydrology]
  links: {code: 'https://github.com/fluxgrid/fluxgrid'}
- id: vistula-data
  title: Vistula river-gauge observations
  authors: [Ada Lovelace]
  year: 2023
  type: dataset
  source: Zenodo
  categories: [hydrology]
"""
PROJECT_BIB = """@article{Kowalczyk_JOSS_2024,
  author = {Ada Lovelace}, title = {{FluxGrid}: a {Python} package}, journal = {Journal of Open Source Software},
  year = {2024}, doi = {10.21105/joss.06123}, keywords = {FluxGrid}, ids = {joss-old-key}
}
"""


def test_a_project_page_shows_its_paper_code_and_data_chosen_by_id_or_subject(tmp_path):
    """A project page (Hugo Blox's projects, al-folio's) groups a paper, its software and its data: by their ids
    (a .bib key and an alias in any case), or by a subject they share; an id that names no record is a warning at
    its line, and the list shows the others."""
    page = (
        "---\ntitle: FluxGrid\n---\nOur solver.\n\n"
        '{{< publications ids="kowalczyk_joss_2024, fluxgrid-software,vistula-data" title="Paper, code and data" >}}\n\n'
        '{{< publications subject="fluxgrid" title="FluxGrid" >}}\n\n'
        '{{< publications ids="joss-old-key,no-such-record" title="By alias" >}}\n'
    )
    cv = "sections:\n  - title: Software\n    publications: {ids: [fluxgrid-software, typo-id]}\n"
    site = site_with(
        tmp_path,
        {"content/records/b.yaml": PROJECT_RECORDS, "content/records/c.bib": PROJECT_BIB, "content/pages/fluxgrid.md": page, "content/cv.yaml": cv},
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    lists = soup(site / "output" / "fluxgrid" / "index.html").select("main .embedded-publications")
    assert [[text(h) for h in part.select(".record-title")] for part in lists] == [
        ["FluxGrid: a Python package", "FluxGrid: adaptive mesh refinement", "Vistula river-gauge observations"],
        ["FluxGrid: a Python package", "FluxGrid: adaptive mesh refinement"],
        ["FluxGrid: a Python package"],
    ]
    assert "content/pages/fluxgrid.md:10: warning: publications: no record has the id 'no-such-record'" in result.stderr
    assert "content/cv.yaml:3: warning: publications: no record has the id 'typo-id'" in result.stderr
    assert [text(h) for h in soup(site / "output" / "cv" / "index.html").select("main .record-title")] == ["FluxGrid: adaptive mesh refinement"]


def test_page_markdown_is_sanitised_and_links_to_the_site_follow_the_base_path(tmp_path):
    site = site_with(
        tmp_path,
        {
            "content/pages/evil.md": (
                "---\ntitle: 'Evil <b>page</b>'\n---\n<script>alert(1)</script> a [bad link](javascript:alert(1)),"
                ' a [good one](cv/) and <img src=x onerror=alert(1)>.\n\n{{< publications type="preprint" >}}\n'
            )
        },
        base_url="https://example.org/repo/",
    )
    page = soup_of(rendered_files(site)["evil/index.html"])
    main = page.find("main")
    assert main.find("script") is None and main.find("img") is None
    assert text(page.h1) == "Evil <b>page</b>"
    hrefs = [a["href"] for a in main.find_all("a", href=True)]
    assert "/repo/cv/" in hrefs and not any(h.startswith("javascript") for h in hrefs)
    assert [text(h) for h in main.select(".record-title")] == ["A preprint"]


@pytest.mark.parametrize(
    "body, levels",
    [
        ("## Setup\n\nText\n\n### Details\n\nMore\n\n## Results\n", ["h2", "h3", "h2"]),  # al-folio's and Hugo's posts
        ("# Setup\n\nText\n\n## Details\n\nMore\n", ["h2", "h3"]),
        ("Setup\n=====\n\nText\n\nDetails\n-------\n\nMore\n", ["h2", "h3"]),  # setext headings
        ('### Before\n\n{{< publications type="preprint" >}}\n\n#### After\n', ["h2", "h3"]),  # one page, whatever stands between
    ],
)
def test_a_pages_sections_are_under_its_title_at_whatever_level_the_text_starts(tmp_path, body, levels):
    site = site_with(tmp_path, {"content/posts/p.md": f"---\ntitle: P\ndate: 2024-01-01\n---\n{body}"})
    page = soup_of(rendered_files(site)["posts/p/index.html"])
    assert [h.name for h in page.select("main .prose :is(h1, h2, h3, h4)")] == levels  # under the page's h1


def test_a_footnote_and_its_note_meet_across_a_list_of_publications(tmp_path):
    body = 'A claim.[^1]\n\n{{< publications type="preprint" >}}\n\nMore.\n\n[^1]: Its source.\n'
    news = "---\ndate: 2024-01-0{}\n---\nNews.[^1]\n\n[^1]: Note {}.\n"
    site = site_with(
        tmp_path,
        {
            "content/pages/claims.md": f"---\ntitle: Claims\n---\n{body}",
            "content/news/2024-01-01-a.md": news.format(1, 1),
            "content/news/2024-01-02-b.md": news.format(2, 2),
        },
    )
    files = rendered_files(site)
    page = soup_of(files["claims/index.html"])
    reference = page.select_one("main sup a")
    assert page.find(id=reference["href"][1:]).get_text(" ", strip=True).startswith("Its source.")
    assert [text(h) for h in page.select(".record-title")] == ["A preprint"]  # the list between them
    for listing in ("news/index.html", "index.html"):  # two notes 1 on one page
        ids = [element["id"] for element in soup_of(files[listing]).select("main [id]")]
        assert len(ids) == len(set(ids)) and sum(1 for id_ in ids if id_.startswith("fn-")) == 2


def test_a_text_that_spells_a_marks_characters_is_shown_and_lists_stay_where_they_are(tmp_path):
    body = 'Glyphs \ue0020\ue003 and \ue0021-0\ue003.\n\n{{< publications type="preprint" >}}\n\nAfter.\n'
    page = soup_of(rendered_files(site_with(tmp_path, {"content/pages/g.md": f"---\ntitle: G\n---\n{body}"}))["g/index.html"])
    assert "Glyphs \ue0020\ue003 and \ue0021-0\ue003." in text(page.find("main"))
    assert [text(h) for h in page.select(".record-title")] == ["A preprint"]


def test_a_comment_in_a_code_block_stays_a_comment(tmp_path):
    """'#' begins a shell or Python comment as well as a Markdown heading: in code it is what was typed."""
    body = "## Install\n\n```sh\n# the latest release\npip install sitegen\n```\n"
    site = site_with(
        tmp_path, {"content/pages/howto.md": f"---\ntitle: How to\n---\n{body}", "content/news/2024-01-01-n.md": f"---\ndate: 2024-01-01\n---\n{body}"}
    )
    files = rendered_files(site)
    assert soup_of(files["howto/index.html"]).select_one("main pre code").get_text() == "# the latest release\npip install sitegen\n"
    news = soup_of(files["news/index.html"]).select_one(".news-item")
    assert news.select_one("pre code").get_text() == "# the latest release\npip install sitegen\n"
    assert [h.name for h in news.select("h2, h3, h4")] == ["h3"]  # under the year (h2); an item's title would be h3


def test_a_page_shows_pictures_of_the_sites_files_and_says_which_it_left_out(tmp_path):
    site = site_with(
        tmp_path,
        {
            "content/pages/figures.md": "---\ntitle: Figures\n---\nOur setup:\n\n![The rack](static/rack.svg)\n\n![Tracked](https://tracker.example/p.gif)\n\n![Gone](static/none.png)\n",
            "static/rack.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
        },
        base_url="https://example.org/repo/",
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    pictures = soup(site / "output" / "figures" / "index.html").select("main img")
    assert [(img["src"], img["alt"]) for img in pictures] == [("/repo/static/rack.svg", "The rack"), ("/repo/static/none.png", "Gone")]
    assert "content/pages/figures.md:8: warning: picture 'https://tracker.example/p.gif' left out" in result.stderr
    assert "content/pages/figures.md:10: warning: link in the text: 'static/none.png' is no file of the site" in result.stderr


def test_a_shortcode_in_code_is_shown_as_written_and_one_in_a_news_item_is_a_mistake(tmp_path):
    example = '```markdown\n{{< publications featured="true" >}}\n{{< youtube w7Ft2ymGmfc >}}\n```\n\nInline: `{{< ref "x" >}}`.\n'
    site = site_with(tmp_path, {"content/posts/hugo.md": f"---\ntitle: Shortcodes\ndate: 2024-01-01\n---\n{example}"})
    post = soup_of(rendered_files(site)["posts/hugo/index.html"])
    assert [code.get_text() for code in post.select("main code")] == ['{{< publications featured="true" >}}\n{{< youtube w7Ft2ymGmfc >}}\n', '{{< ref "x" >}}']
    assert not post.select("main li.record")
    news = site_with(tmp_path / "news", {"content/news/a.md": "---\ndate: 2024-01-01\n---\nOut now:\n\n{{< publications >}}\n"})
    assert "content/news/a.md:6: shortcode 'publications': a news item shows no list of publications; put it on a page or in a post" in build_fails(news)


def test_the_bio_is_the_owners_own_text_with_pictures_headings_and_lists(tmp_path):
    bio = "Hello.\n\n![My lab](static/rack.svg)\n\n## Interests\n- engines\n- looms\n\n![Tracked](https://tracker.example/p.gif)\n"
    site = site_with(
        tmp_path,
        {
            "content/profile.yaml": "name: Ada Lovelace\nbio: " + json.dumps(bio) + "\n",
            "static/rack.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
        },
        base_url="https://example.org/repo/",
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    shown = soup(site / "output" / "index.html").select_one(".bio")
    assert [(img["src"], img["alt"]) for img in shown.select("img")] == [("/repo/static/rack.svg", "My lab")]
    assert [h.get_text() for h in shown.select("h2")] == ["Interests"] and [li.get_text() for li in shown.select("li")] == ["engines", "looms"]
    assert "![" not in shown.get_text() and not shown.select("p:empty")
    assert "content/profile.yaml:2: warning: field 'bio': picture 'https://tracker.example/p.gif' left out" in result.stderr


def test_a_pages_and_a_posts_sections_have_the_ids_links_to_them_use(tmp_path):
    """Jekyll, Hugo and GitHub give each heading an id made from its text; a text's links to its sections use them."""
    body = (
        "See [the results](#results-and-discussion) and [the methods](#methods).\n\n## Results and discussion\n\nText.\n\n## Setup\n\n## Setup\n\n"
        "## Publications 1\n\n## How we measured {#methods}\n\n## Skip {#main}\n"  # kramdown's and Hugo's own id; never the theme's
    )
    site = site_with(
        tmp_path,
        {"content/pages/notes.md": f"---\ntitle: Notes\n---\n{body}", "content/posts/2024-01-02-notes.md": f"---\ntitle: Notes\n---\n{body}"},
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    for path in ("notes/index.html", "posts/notes/index.html"):
        page = soup(site / "output" / path)
        ids = [h["id"] for h in page.select("main h2[id], main h3[id]") if h.find_parent(class_="prose")]
        assert ids == ["results-and-discussion", "setup", "setup-1", "section-publications-1", "methods", "skip"], path
        assert page.select_one('a[href="#results-and-discussion"]') is not None
        every_id = [element["id"] for element in page.select("[id]")]
        assert len(every_id) == len(set(every_id)), path


def test_two_lists_on_one_page_give_each_record_an_id_of_its_own(tmp_path):
    site = site_with(tmp_path, {"content/pages/twice.md": '---\ntitle: Twice\n---\n{{< publications >}}\n\nAgain:\n\n{{< publications featured="true" >}}\n'})
    page = soup_of(rendered_files(site)["twice/index.html"])
    ids = [tag["id"] for tag in page.find_all(id=True)]
    assert len(ids) == len(set(ids))
    assert len(page.select("li.record")) == 4


def many_records(count: int) -> str:
    """`count` records, one a year from 2001, half articles and half conference papers."""
    kinds = ("article", "inproceedings")
    return yaml.safe_dump(
        [
            {"id": f"paper{i}", "title": f"Paper number {i}", "authors": ["Ada Lovelace"], "year": 2000 + i, "source": "J", "type": kinds[i % 2]}
            for i in range(1, count + 1)
        ]
    )


def search_forms(page: BeautifulSoup) -> list:
    """The search forms of a page, each checked to be labelled: every control's label is tied to it by its id."""
    forms = page.select("form.search")
    for form in forms:
        for control in form.select("input, select"):
            assert len(page.select(f'label[for="{control["id"]}"]')) == 1, control
    return forms


def test_a_long_list_in_a_page_has_a_search_box_of_its_own_and_a_short_selection_none(tmp_path):
    """SPEC §8: a page that lists records has a search box; a list of 10 records or more in a page or a post is one,
    searched on its own (its records, its count); three papers named in prose are no list to search."""
    files = {
        "content/records/a.yaml": many_records(12),
        "content/pages/list.md": "---\ntitle: All papers\n---\nMy papers:\n\n{{< publications >}}\n",
        "content/pages/selected.md": '---\ntitle: Selected\n---\nThree of them:\n\n{{< publications limit="3" >}}\n',
        "content/posts/2025-01-01-papers.md": '---\ntitle: Papers\n---\n{{< publications type="article,inproceedings" >}}\n',
    }
    rendered = rendered_files(site_with(tmp_path, files))
    for path in ("list/index.html", "posts/papers/index.html"):
        page = soup_of(rendered[path])
        [form] = search_forms(page)
        assert len(page.select("input[type=search]")) == 1, path
        assert form.find_parent(class_="embedded-publications") is not None and form.has_attr("data-only-listed-here")
        assert form["data-total"] == "12" and text(form.select_one(".search-count")).startswith("12 publications")
        assert form.select_one("fieldset")["disabled"] is not None  # without JavaScript: greyed out, every record listed
        assert len(page.select("li.record")) == 12
        assert len(page.select('script[src$="search.js"]')) == 1
    selected = soup_of(rendered["selected/index.html"])
    assert len(selected.select("li.record")) == 3
    assert selected.select("input[type=search], form.search, script[src$='search.js']") == []


def test_the_search_setting_of_a_list_decides_whether_it_has_a_search_box(tmp_path):
    files = {
        "content/records/a.yaml": many_records(12),
        "content/pages/no.md": '---\ntitle: Without\n---\n{{< publications search="false" >}}\n',
        "content/pages/yes.md": '---\ntitle: With\n---\n{{< publications limit="3" search="true" >}}\n',
    }
    rendered = rendered_files(site_with(tmp_path, files))
    no = soup_of(rendered["no/index.html"])
    assert len(no.select("li.record")) == 12 and no.select("input[type=search]") == []
    yes = soup_of(rendered["yes/index.html"])
    [form] = search_forms(yes)
    assert len(yes.select("input[type=search]")) == 1 and form["data-total"] == "3"
    files["content/pages/no.md"] = '---\ntitle: Without\n---\n{{< publications search="no box" >}}\n'
    with pytest.raises(ContentError) as error:
        rendered_files(site_with(tmp_path / "bad", files))
    assert "content/pages/no.md:4: publications: search should be true or false, got 'no box'" in str(error.value)


def test_several_searchable_lists_on_a_page_each_have_their_own_ids_count_and_address_names(tmp_path):
    body = (
        '---\ntitle: Two lists\n---\n{{< publications limit="2" >}}\n\nArticles:\n\n{{< publications type="article" search="true" >}}\n\n'
        'Papers:\n\n{{< publications type="inproceedings" search="true" >}}\n'
    )
    files = {"content/records/a.yaml": many_records(12), "content/pages/two.md": body}
    page = soup_of(rendered_files(site_with(tmp_path, files))["two/index.html"])
    ids = [tag["id"] for tag in page.find_all(id=True)]
    assert len(ids) == len(set(ids))
    first, second = search_forms(page)  # the selection of two has none
    assert first["data-total"] == second["data-total"] == "6"
    # the first searchable list keeps the list pages' names (?q=...), the next one its own (?list3-q=...)
    assert not first.has_attr("data-query-prefix") and first.select_one("input[type=search]")["id"] == "search-q"
    assert second["data-query-prefix"] == "list3-" and second.select_one("input[type=search]")["id"] == "list3-search-q"
    # each form finds the records of its own list: their ids begin with its record prefix
    for form in (first, second):
        section = form.find_parent(class_="embedded-publications")
        prefix = form.get("data-record-prefix", "")
        assert [li["id"] for li in section.select("li.record")] == [li["id"] for li in section.select(f'li.record[id^="{prefix}r-"]')]
        assert len(section.select("li.record")) == 6
    assert len(page.select('script[src$="search.js"]')) == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    "setting, message",
    [
        ('search="maybe"', "content/pages/bad.md:6: publications: search should be true or false, got 'maybe'"),
        ('search="ture"', "content/pages/bad.md:6: publications: search should be true or false, got 'ture'; did you mean 'true'?"),
        ('serach="true"', "content/pages/bad.md:6: publications: unknown setting 'serach'; did you mean 'search'?"),
    ],
)
def test_a_wrong_search_setting_is_a_mistake_at_its_line(tmp_path, setting, message):
    site = site_with(tmp_path, {"content/pages/bad.md": f"---\ntitle: Bad\n---\nText\n\n{{{{< publications {setting} >}}}}\n"})
    assert message in build_fails(site)


@pytest.mark.slow
def test_a_file_name_with_spaces_or_accents_gives_the_address_hugo_and_jekyll_users_expect(tmp_path: Path) -> None:
    """A space is '-', accents are dropped, case is kept; an explicit `slug:` still wins and is still checked."""
    site = site_with(
        tmp_path,
        {
            "content/pages/über mich.md": "---\ntitle: Über mich\nnav: 1\n---\nHallo.\n",
            "content/pages/Lab Members/index.md": "---\ntitle: Lab\n---\nUs.\n",
            "content/posts/2025-01-02-Ma première note.md": "---\ntitle: Note\n---\nText.\n",
            "content/posts/café.md": "---\ntitle: Café\ndate: 2025-01-03\nslug: coffee\n---\nText.\n",
            "content/news/größe news.md": "---\ndate: 2025-01-01\n---\nNews.\n",
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    output = site / "output"
    for page in ("uber-mich", "Lab-Members", "posts/Ma-premiere-note", "posts/coffee"):
        assert (output / page / "index.html").is_file(), page
    assert soup(output / "index.html").select_one("nav a[href='/uber-mich/']") is not None
    assert soup(output / "news/index.html").select_one("#news-2025-01-01-grosse-news") is not None
    (site / "content/posts/café.md").write_text("---\ntitle: Café\ndate: 2025-01-03\nslug: café\n---\nText.\n", encoding="utf-8")
    (site / "content/pages/研究.md").write_text("---\ntitle: 研究\n---\nText.\n", encoding="utf-8")
    stderr = build_fails(site)
    assert "content/posts/café.md:4: the post's address 'posts/café/' may hold only A-Z a-z 0-9 . _ -" in stderr
    assert "content/pages/研究.md:2: the page's file name gives no address (it has no letter or digit of A-Z a-z 0-9); set one with slug: ..." in stderr


def test_a_page_or_post_address_windows_cannot_hold_is_an_error_as_for_records(tmp_path):
    """A device name (any case, any extension) or a final '.' in a page's, post's or tag's folder: the site could
    not be checked out on Windows."""
    site = site_with(
        tmp_path,
        {
            "content/pages/CON.md": "---\ntitle: Con\n---\nText.\n",
            "content/pages/y.md": "---\ntitle: Y\nslug: group/lpt1.html\n---\nText.\n",
            "content/posts/nul.md": "---\ntitle: Nul\ndate: 2025-01-03\ntags: [aux]\n---\nText.\n",
            "content/posts/z.md": "---\ntitle: Z\ndate: 2025-01-03\nslug: 'z.'\n---\nText.\n",
        },
    )
    stderr = build_fails(site)
    device = "cannot name a folder on Windows (CON, PRN, AUX, NUL, COM0-9 and LPT0-9 are device names there, with any extension)"
    assert f"content/pages/CON.md:2: the page's address 'CON/' {device}; set another with slug: ..." in stderr
    assert f"content/pages/y.md:3: the page's address 'group/lpt1.html/' {device}; set another with slug: ..." in stderr
    assert f"content/posts/nul.md:2: the post's address 'posts/nul/' {device}; set another with slug: ..." in stderr
    assert f"content/posts/nul.md:4: the tag 'aux' cannot be an address (posts/tags/aux/): it {device}; name the tag otherwise" in stderr
    assert "content/posts/z.md:4: the post's address 'posts/z./' cannot name a folder on Windows, which drops a final '.'; set another" in stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, text_, message",
    [
        ("nofront.md", "Just text\n", "content/pages/nofront.md:1: expected YAML front matter"),
        ("notitle.md", "---\nnav: 1\n---\nText\n", "content/pages/notitle.md:2: field 'title' is required"),
        ("badnav.md", "---\ntitle: X\n\nnav: first\n---\nText\n", "content/pages/badnav.md:4: field 'nav': expected a whole number"),
        ("badyaml.md", "---\ntitle: X\nnav: [1\n---\n", "content/pages/badyaml.md:4:"),
        ("unclosed.md", "---\ntitle: X\n", "content/pages/unclosed.md:1: the front matter is not closed"),
        ("shortcode.md", '---\ntitle: X\n---\nText\n\n{{< publications type="poem" >}}\n', "content/pages/shortcode.md:6: publications: unknown type 'poem'"),
        ("reserved.md", "---\ntitle: X\nslug: records\n---\n", "content/pages/reserved.md:3: the page's address 'records/' is taken"),
        (
            "misspelt.md",
            '---\ntitle: X\n---\nText\n\n{{< publication featured="true" >}}\n',
            "content/pages/misspelt.md:6: unknown shortcode 'publication'; did you mean 'publications'?",
        ),
        (
            "hugo.md",
            '---\ntitle: X\n---\nText\n\n{{< figure src="static/img/fig.png" >}}\n',
            "content/pages/hugo.md:6: unknown shortcode 'figure': sitegen reads one shortcode, {{< publications ... >}}, on a line of its own;"
            " show a picture as ![what it shows](static/img/fig.png)",
        ),
        (
            "inline.md",
            "---\ntitle: X\n---\nSee {{< publications >}} here\n",
            "content/pages/inline.md:4: shortcode 'publications': write it on a line of its own",
        ),
    ],
)
def test_a_mistake_in_a_page_is_reported_at_its_line(tmp_path, name, text_, message):
    site = site_with(tmp_path, {f"content/pages/{name}": text_})
    assert message in build_fails(site)


# -- 2. the CV ----------------------------------------------------------------------------------------


def test_the_cv_shows_every_entry_and_the_selected_publications(built_demo):
    page = soup(built_demo / "cv" / "index.html")
    cv = page.select_one("article.cv")
    shown = text(cv)
    for section in cv_data()["sections"]:
        assert section["title"] in [text(h) for h in cv.select("h2")]
        for entry in section.get("entries", []):
            assert entry["title"] in shown
            assert entry.get("org", "").replace('{\\"a}', "ä") in shown
    assert "April 2024 – present" in shown and "2017 – 2021" in shown
    featured = {r["title"] for r in demo_records() if r.get("featured")}
    assert {text(h) for h in cv.select(".record-title")} == featured
    assert any(a["href"] == "https://jonasberg.example.org" for a in cv.select(".authors a"))


LOCATED = """\
- {id: art, type: article, title: An article, authors: [Ada Lovelace], year: 2024, source: Bioinformatics, volume: 24, number: 3, pages: 600--619}
- {id: art2, type: article, title: An article with an article number, authors: [Ada Lovelace], year: 2023, source: PLOS ONE, volume: '18', pages: e0281234}
- {id: conf, type: inproceedings, title: A conference paper, authors: [Ada Lovelace], year: 2023, source: Proceedings of ICML, pages: 1021-1030}
- {id: chap, type: chapter, title: A chapter, authors: [Ada Lovelace], year: 2022, source: Handbook of Engines, pages: 31--58, publisher: Springer}
- {id: book, type: book, title: A book, authors: [Ada Lovelace], year: 2021, source: MIT Press, pages: '312'}
- {id: pre, type: preprint, title: A preprint, authors: [Ada Lovelace], year: 2024, source: arXiv, arxiv: '2401.00001'}
"""


@pytest.mark.parametrize("language, pp", [("en", "pp. "), ("de", "S. ")])
def test_a_list_names_where_in_its_venue_a_work_is(tmp_path, language, pp):
    """QA: lists, and so the printed CV an NIH biosketch or a DFG application takes, named the venue alone
    ("Journal article · Bioinformatics · 2024"); the volume, issue and pages were on the record's page only."""
    cv = "sections:\n  - title: Publications\n    publications: all\n"
    site = site_with(tmp_path, {"content/records/a.yaml": LOCATED, "content/cv.yaml": cv}, f"language: {language}\n")
    pages = rendered_files(site)
    for path in ("index.html", "cv/index.html"):
        venues = {li["id"]: li.select_one(".venue").get_text().split(" · ")[1] for li in soup_of(pages[path]).select("li.record")}
        assert venues == {
            "r-art": "Bioinformatics, 24(3), 600–619",
            "r-art2": "PLOS ONE, 18, e0281234",
            "r-conf": f"Proceedings of ICML, {pp}1021–1030",
            "r-chap": f"Handbook of Engines, {pp}31–58",
            "r-book": "MIT Press",  # its number of pages is no place in it
            "r-pre": "arXiv",
        }, path
    record = soup_of(pages["records/art/index.html"])
    assert text(record.select_one(".record-header .venue, main .venue")).count("600") == 0  # listed below, under "Pages"


def test_an_entry_that_starts_and_ends_in_the_same_year_or_month_shows_it_once(tmp_path):
    """QA: `start: 2019, end: 2019` read "2019 – 2019", and a month's visit "March 2019 – March 2019"."""
    cv = (
        "sections:\n  - title: Visits\n    profile: true\n    entries:\n"
        "      - {title: A, start: 2019, end: 2019}\n      - {title: B, start: 2019-03, end: 2019-03}\n"
        "      - {title: C, start: 2019-03, end: 2019-09}\n      - {title: D, start: 2024-10, end: present}\n"
    )
    pages = rendered_files(site_with(tmp_path, {"content/cv.yaml": cv}))
    when = [text(p) for p in soup_of(pages["cv/index.html"]).select(".cv-when")]
    assert when == ["2019", "March 2019", "March 2019 – September 2019", "October 2024 – present"]
    times = [t["datetime"] for t in soup_of(pages["cv/index.html"]).select(".cv-when time")]
    assert times == ["2019", "2019-03", "2019-03", "2019-09", "2024-10"]
    assert [text(p) for p in soup_of(pages["index.html"]).select(".cv-highlight-when")] == when


def test_a_cv_section_that_lists_no_publication_is_a_warning_at_its_line(tmp_path):
    """QA: `publications: {since: 2030}` (or `selected` with no featured record) built silently, and the printed CV
    said "No publications to show here yet." under the section's title."""
    cv = (
        "sections:\n  - title: Recent\n    publications: {since: 2030}\n  - title: Selected\n    publications: selected\n"
        "  - title: All\n    publications: all\n"
    )
    records = RECORDS.replace("  featured: true\n", "")
    result = run_sitegen("build", "--site", str(site_with(tmp_path, {"content/cv.yaml": cv, "content/records/a.yaml": records})))
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert warnings == [
        "content/cv.yaml:3: warning: section 'Recent': no record fits its settings, so the CV shows \"No publications to show here yet.\" there (and on paper)",
        "content/cv.yaml:5: warning: section 'Selected': no record has `featured: true`, so the CV shows \"No publications to show here "
        'yet." there (and on paper)',
    ]


def test_a_cv_list_says_what_the_marks_after_its_authors_names_mean(tmp_path):
    """QA: students marked `Emma Richter§` (`author_notes: {'§': Student supervised}`) printed on the CV with
    no key to the mark: the record's page alone said what it means."""
    records = """\
- {id: a, title: One, authors: ['Emma Richter§', 'Chen Li*', 'Ada Lovelace*'], year: 2024, source: J. A,
   author_notes: {'§': Student supervised, '*': Equal contribution}}
- {id: b, title: Two, authors: ['Yusuf Demir§', Ada Lovelace], year: 2023, source: J. B, author_notes: {'§': Student supervised}}
- {id: c, title: Three, authors: ['Ada Lovelace†'], year: 2022, source: J. C, author_notes: {'†': Corresponding author}}
- {id: d, title: Four, authors: ['Ada Lovelace†'], year: 2021, source: J. D, author_notes: {'†': Senior author}}
"""
    cv = "sections:\n  - title: Publications\n    publications: all\n  - title: Later\n    publications: {since: 2023}\n"
    page = soup_of(rendered_files(site_with(tmp_path, {"content/records/a.yaml": records, "content/cv.yaml": cv}))["cv/index.html"])
    notes = [[text(span) for span in section.select(".author-notes > span:not([aria-hidden])")] for section in page.select("section.cv-section")]
    # † means two things on two records: its meaning stays on each record's page
    assert notes == [["§ Student supervised", "* Equal contribution"], ["§ Student supervised", "* Equal contribution"]]


def test_a_long_list_of_publications_in_the_cv_has_a_search_box_and_the_selected_ones_none(tmp_path):
    cv = "sections:\n  - title: Selected\n    publications: {limit: 3}\n  - title: All papers\n    publications: all\n  - title: Articles\n    publications: {type: article, search: true}\n"
    page = soup_of(rendered_files(site_with(tmp_path, {"content/records/a.yaml": many_records(12), "content/cv.yaml": cv}))["cv/index.html"])
    ids = [tag["id"] for tag in page.find_all(id=True)]
    assert len(ids) == len(set(ids))
    sections = {text(section.h2): section for section in page.select("section.cv-section")}
    assert sections["Selected"].select("form.search") == []
    forms = search_forms(page)
    assert [form.find_parent("section").h2.get_text() for form in forms] == ["All papers", "Articles"]
    assert [form["data-total"] for form in forms] == ["12", "6"]
    assert len(page.select('script[src$="search.js"]')) == 1


def test_the_profile_shows_the_cv_sections_marked_for_it_without_retyping(built_demo):
    index = soup(built_demo / "index.html")
    highlights = {text(s.h2): [text(li.select_one(".cv-highlight-title")) for li in s.select("li")] for s in index.select(".cv-highlight")}
    sections = {s["title"]: s for s in cv_data()["sections"]}
    assert highlights["Positions"] == [e["title"] for e in sections["Positions"]["entries"][:2]]  # profile: 2
    assert highlights["Education"] == [e["title"] for e in sections["Education"]["entries"]]  # profile: true
    assert "Grants and awards" not in highlights
    assert index.select_one(".cv-more a")["href"] == "/cv/"


@pytest.mark.slow
@pytest.mark.parametrize(
    "cv, message",
    [
        ("sections:\n  - title: Jobs\n    entries:\n      - title: Job\n        start: 2024-13\n", "content/cv.yaml:5: field 'start': expected a year"),
        ("sections:\n  - title: Jobs\n    entries:\n      - org: Somewhere\n", "content/cv.yaml:4: field 'title' is required"),
        (
            "sections:\n  - title: Jobs\n    entries:\n      - title: Job\n        start: 2020\n        end: 2019\n",
            "content/cv.yaml:6: the entry ends (2019) before it starts (2020)",
        ),
        ("sections:\n  - title: Papers\n    publications: some\n", "content/cv.yaml:3: field 'publications': expected selected, all"),
        ("sections: none\n", "content/cv.yaml:1: expected 'sections:'"),
        (
            "sections:\n  - title: Jobs\n    entries:\n      - title: Job\n        url: 'javascript:alert(1)'\n",
            "content/cv.yaml:5: field 'url': expected an http(s)",
        ),
    ],
)
def test_a_mistake_in_the_cv_is_reported_at_its_line(tmp_path, cv, message):
    site = site_with(tmp_path, {"content/cv.yaml": cv})
    assert message in build_fails(site)


# -- 3. news and talks ---------------------------------------------------------------------------------


def news_files() -> list[tuple[str, dict]]:
    found = []
    for path in sorted((CONTENT / "news").rglob("*.md")):
        front = yaml.safe_load(path.read_text(encoding="utf-8").split("---")[1])
        found.append((path.stem, front))
    return sorted(found, key=lambda item: str(item[1]["date"]), reverse=True)


def test_news_page_lists_every_item_newest_first_and_the_profile_the_latest_three(built_demo):
    items = news_files()
    page = soup(built_demo / "news" / "index.html")
    dates = [time["datetime"] for time in page.select(".news-item .news-date time")]
    assert dates == [str(front["date"]) for _, front in items]
    profile = soup(built_demo / "index.html")
    assert [t["datetime"] for t in profile.select(".news-section .news-date time")] == dates[:3]
    assert profile.select_one(".news-section .more a")["href"] == "/news/"
    assert "April 2, 2025" in text(page)


def test_news_has_an_atom_feed_of_its_own(built_demo):
    feed = feedparser.parse((built_demo / "news" / "feed.xml").read_bytes())
    assert not feed.bozo
    items = news_files()
    assert len(feed.entries) == len(items)
    assert [e.updated[:10] for e in feed.entries] == [str(front["date"]) for _, front in items]
    titled = {front["title"] for _, front in items if front.get("title")}
    assert titled <= {e.title for e in feed.entries}
    page = soup(built_demo / "news" / "index.html")
    for entry in feed.entries:
        assert entry.link.startswith("https://lena-muller.github.io/news/#")
        assert page.find(id=entry.link.split("#", 1)[1]) is not None
    head = [link["href"] for link in soup(built_demo / "index.html").find_all("link", rel="alternate")]
    assert "/news/feed.xml" in head


def test_talks_are_listed_newest_first_with_their_links(built_demo):
    talks = []
    for path in sorted((CONTENT / "talks").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        talks += data if isinstance(data, list) else [data]
    page = soup(built_demo / "talks" / "index.html")
    assert [text(h) for h in page.select(".talk-title")] == [t["title"] for t in sorted(talks, key=lambda t: str(t["date"]), reverse=True)]
    hrefs = {a["href"] for a in page.select(".talk .links a")}
    assert {url for t in talks for url in t.get("links", {}).values()} == hrefs
    assert {text(a).split(" for ")[0] for a in page.select(".talk .links a")} == {"Slides", "Video"}


def test_a_talk_says_what_kind_it_is_and_links_its_event(tmp_path):
    """A tutorial, a keynote, an invited talk (academicpages' talks have a `type`) and the event's page (Hugo Blox's
    `event_url`) were "unknown field ... ignored"."""
    talk = (
        "title: Hands-on FluxGrid\ntype: Tutorial\nevent: EGU General Assembly 2025\nurl: https://egu25.eu/\ndate: 2025-04-29\n"
        "links: {slides: 'https://doi.org/10.5281/zenodo.15000001', notebook: 'https://github.com/fluxgrid/tutorial', pypi: 'https://pypi.org/project/fluxgrid/'}\n"
    )
    site = site_with(tmp_path, {"content/talks/egu.yaml": talk}, base_url="https://example.org/repo/")
    result = run_sitegen("build", "--strict", "--site", str(site))
    assert result.returncode == 0, result.stderr
    item = soup(site / "output" / "talks" / "index.html").select_one(".talk")
    assert text(item.select_one(".talk-meta")).startswith("Tutorial · EGU General Assembly 2025 ·")
    assert item.select_one(".talk-meta a.event")["href"] == "https://egu25.eu/"
    assert [text(a).split(" for ")[0] for a in item.select(".links a")] == ["Slides", "Notebook", "PyPI"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "files, message",
    [
        ({"content/news/x.md": "---\ntitle: No date\n---\nText\n"}, "content/news/x.md:2: field 'date' is required"),
        ({"content/news/x.md": "---\ndate: 2024-02-30\n---\nText\n"}, "content/news/x.md:2: field 'date': expected a date"),
        ({"content/talks/x.yaml": "title: T\nevent: E\n"}, "content/talks/x.yaml:1: field 'date' is required"),
        (
            {"content/talks/x.yaml": "- title: T\n  date: 2024-01-01\n  links: {slides: 'javascript:x'}\n"},
            "content/talks/x.yaml:3: field 'links.slides': expected an http(s)",
        ),
    ],
)
def test_a_mistake_in_news_or_talks_is_reported_at_its_line(tmp_path, files, message):
    assert message in build_fails(site_with(tmp_path, files))


def test_a_mistake_in_a_record_does_not_hide_the_mistakes_of_news_talks_and_pages(tmp_path):
    """SPEC §2: the build reports every problem it finds, not those of one stage at a time."""
    site = site_with(
        tmp_path,
        {
            "content/records/b.yaml": "id: b\ntitle: B\nauthors: [Ada Lovelace]\nyear: twenty\n",
            "content/news/x.md": "---\ntitle: No date\n---\nText\n",
            "content/talks/x.yaml": "title: T\n  bad: [indent\n",
        },
    )
    stderr = build_fails(site)
    assert "content/records/b.yaml:4: field 'year'" in stderr
    assert "content/news/x.md:2: field 'date' is required" in stderr
    assert "content/talks/x.yaml:" in stderr


# -- 3b. the blog --------------------------------------------------------------------------------------


def post_files() -> list[tuple[str, dict]]:
    """The demo's posts as (address under posts/, front matter), newest first."""
    posts = []
    for path in (CONTENT / "posts").rglob("*.md"):
        front = yaml.safe_load(path.read_text(encoding="utf-8").split("---")[1])
        posts.append((front.get("slug") or re.sub(r"^\d{4}-\d{2}-\d{2}-", "", path.stem), front))
    return sorted(posts, key=lambda post: str(post[1]["date"]), reverse=True)


def test_the_blog_lists_every_post_newest_first_and_each_post_has_its_page(built_demo):
    posts = post_files()
    assert len(posts) >= 2
    listing = soup(built_demo / "posts" / "index.html")
    assert [(text(a), a["href"]) for a in listing.select(".post-title a")] == [(front["title"], f"/posts/{slug}/") for slug, front in posts]
    assert [time["datetime"] for time in listing.select(".post-date time")] == [str(front["date"]) for _, front in posts]
    described = {front["title"]: front["description"] for _, front in posts if "description" in front}
    for item in listing.select(".post-item"):
        title = text(item.select_one(".post-title"))
        description = text(item.select_one(".post-description"))
        assert description == described[title] if title in described else description  # else the post's first words
    for slug, front in posts:
        page = soup(built_demo / "posts" / slug / "index.html")
        assert text(page.h1) == front["title"]
        assert page.select_one("article .post-date time")["datetime"] == str(front["date"])
        assert page.find("meta", property="og:type")["content"] == "article"
        assert page.find("meta", property="og:title")["content"].startswith(front["title"])
        about = json.loads(page.find("script", type="application/ld+json").string)
        assert (about["@type"], about["name"], about["datePublished"]) == ("BlogPosting", front["title"], str(front["date"]))
        assert about["url"] == f"https://lena-muller.github.io/posts/{slug}/" and about["author"][0]["name"] == "Lena Müller"
    newest = soup(built_demo / "posts" / posts[0][0] / "index.html")
    assert newest.select_one(".post-nav .post-newer") is None
    assert newest.select_one(".post-nav .post-older")["href"] == f"/posts/{posts[1][0]}/"
    oldest = soup(built_demo / "posts" / posts[-1][0] / "index.html")
    assert oldest.select_one(".post-nav .post-older") is None
    assert oldest.select_one(".post-nav .post-newer")["href"] == f"/posts/{posts[-2][0]}/"


def test_the_profile_names_the_latest_posts(built_demo):
    profile = soup(built_demo / "index.html")
    expected = [(front["title"], f"/posts/{slug}/") for slug, front in post_files()[:3]]
    assert [(text(a), a["href"]) for a in profile.select(".posts-section .post-title a")] == expected
    assert profile.select_one(".posts-section .more a")["href"] == "/posts/"


def test_a_post_shows_its_math_and_the_records_its_shortcode_asks_for(built_demo):
    page = soup(built_demo / "posts" / "checkpoint-intervals" / "index.html")
    assert page.select("main .prose math")
    assert "\\tau" not in text(page.find("main")) and "$" not in text(page.find("main"))
    assert [text(h) for h in page.select(".embedded-publications .record-title")] == ["Kestrel: Elastic Checkpointing for Preemptible Training Clusters"]
    assert text(page.select_one(".embedded-publications h2")) == "The paper"


def test_the_blog_has_an_atom_feed_whose_links_work_from_any_reader(built_demo):
    feed = feedparser.parse((built_demo / "posts" / "feed.xml").read_bytes())
    assert not feed.bozo
    posts = post_files()
    assert [(e.title, e.link, e.published[:10]) for e in feed.entries] == [
        (front["title"], f"https://lena-muller.github.io/posts/{slug}/", str(front["date"])) for slug, front in posts
    ]
    for entry in feed.entries:
        body = BeautifulSoup(entry.content[0].value, "html.parser")
        assert body.find("p") is not None and entry.summary
        assert all(a["href"].startswith("https://") for a in body.find_all("a", href=True))  # 'teaching/' taken from the site's root
    reading_group = BeautifulSoup(feed.entries[-1].content[0].value, "html.parser")
    assert "https://lena-muller.github.io/teaching/" in [a["href"] for a in reading_group.find_all("a")]
    head = [link["href"] for link in soup(built_demo / "index.html").find_all("link", rel="alternate")]
    assert "/posts/feed.xml" in head


def test_a_posts_list_of_publications_is_in_its_feed_entry(built_demo):
    """A feed reader shows the post's own text: the list its page shows of the papers it is about was missing."""
    feed = feedparser.parse((built_demo / "posts" / "feed.xml").read_bytes())
    entry = next(e for e in feed.entries if e.link.endswith("/posts/checkpoint-intervals/"))
    body = BeautifulSoup(entry.content[0].value, "html.parser")
    listed = [(text(a), a["href"]) for item in body.select("ul li") for a in item.find_all("a")]
    page = soup(built_demo / "posts" / "checkpoint-intervals" / "index.html")
    record = page.select_one(".embedded-publications .record-title a")
    assert (text(record), "https://lena-muller.github.io" + record["href"]) in listed


def test_the_news_feed_takes_links_in_the_text_from_the_sites_root(built_demo):
    feed = feedparser.parse((built_demo / "news" / "feed.xml").read_bytes())
    hrefs = [a["href"] for entry in feed.entries for a in BeautifulSoup(entry.content[0].value, "html.parser").find_all("a", href=True)]
    assert "https://lena-muller.github.io/teaching/" in hrefs
    assert all(href.startswith("https://") for href in hrefs)


def test_a_file_name_that_starts_like_a_day_but_is_none_is_said_so(tmp_path):
    stderr = build_fails(site_with(tmp_path, {"content/posts/2024-02-30-leap.md": "---\ntitle: Leap\n---\nText.\n"}))
    assert "content/posts/2024-02-30-leap.md:2: field 'date' is required: the file name's 2024-02-30 is no day" in stderr


def test_post_addresses_come_from_jekyll_and_hugo_file_names_and_drafts_stay_out(tmp_path):
    site = site_with(
        tmp_path,
        {
            "content/posts/2024-01-05-from-jekyll.md": "---\ntitle: Jekyll style\n---\nText.\n",  # its date is its file name's, as in Jekyll
            "content/posts/from-hugo/index.md": "---\ntitle: Hugo style\ndate: 2024-02-01\n---\nText.\n",
            "content/posts/named.md": "---\ntitle: Named\ndate: 2024-03-01\nslug: my-own\n---\nText.\n",
            "content/posts/_draft.md": "---\ntitle: Draft\ndate: 2024-04-01\n---\nNot yet.\n",
        },
        base_url="https://example.org/repo/",
    )
    files = rendered_files(site)
    assert {path for path in files if path.startswith("posts/")} == {
        "posts/index.html",
        "posts/feed.xml",
        "posts/from-jekyll/index.html",
        "posts/from-hugo/index.html",
        "posts/my-own/index.html",
    }
    listing = soup_of(files["posts/index.html"])
    assert [a["href"] for a in listing.select(".post-title a")] == ["/repo/posts/my-own/", "/repo/posts/from-hugo/", "/repo/posts/from-jekyll/"]
    assert ("Blog", "/repo/posts/") in menu(soup_of(files["index.html"]))
    assert [text(a) for a in listing.select('header nav a[aria-current="page"]')] == ["Blog"]
    assert soup_of(files["posts/from-jekyll/index.html"]).select_one("main time")["datetime"] == "2024-01-05"


def test_a_date_with_a_time_as_al_folio_writes_it_is_read_as_its_day(tmp_path):
    """al-folio's sample posts and news say `date: 2024-05-01 11:12:00-0400` (Jekyll's form, which YAML reads as text):
    the day as written, as for `-04:00`, which YAML reads as a time; a date it is not is still an error saying the forms."""
    dates = ["2024-05-01 11:12:00-0400", "2024-05-02 23:30:00 +0530", "2024-05-03T08:00:00-04:00", "2024-05-04 11:12", "2024-05-05"]
    files = {f"content/posts/p{n}.md": f"---\ntitle: P{n}\ndate: {date}\n---\nText.\n" for n, date in enumerate(dates)}
    files["content/news/n.md"] = "---\ndate: 2024-05-01 11:12:00-0400\n---\nNews.\n"
    rendered = rendered_files(site_with(tmp_path, files))
    assert [soup_of(rendered[f"posts/p{n}/index.html"]).select_one("main time")["datetime"] for n in range(5)] == [
        "2024-05-01",
        "2024-05-02",
        "2024-05-03",
        "2024-05-04",
        "2024-05-05",
    ]
    assert "2024-05-01" in [time["datetime"] for time in soup_of(rendered["news/index.html"]).select("main time")]
    wrong = {"content/posts/x.md": "---\ntitle: T\ndate: 2024-05-01 11:12:00-04000\n---\n"}
    assert (
        "content/posts/x.md:3: field 'date': expected a date such as 2024-03-05 (or 2024-03-05 11:12:00-0400), got '2024-05-01 11:12:00-04000'"
        in build_fails(site_with(tmp_path / "wrong", wrong))
    )


def test_a_description_made_of_the_first_paragraph_shows_its_math_as_text(tmp_path):
    """No `description`: the first paragraph, whose math is its plain text ('a/b'), not the MathML's letters run
    together ('ab'): in the list of posts, the description and link-preview tags and the feed; a page's too."""
    body = "Intro text with `$HOME` in code and $\\frac{a}{b}$ in math, $x^2$ and $a<b$.\n\nMore.\n"
    expected = "Intro text with $HOME in code and a/b in math, x² and a<b."
    files = {"content/posts/m.md": f"---\ntitle: M\ndate: 2024-01-01\n---\n{body}", "content/pages/p.md": f"---\ntitle: P\n---\n{body}"}
    rendered = rendered_files(site_with(tmp_path, files))
    assert [text(p) for p in soup_of(rendered["posts/index.html"]).select("main p") if "Intro" in text(p)] == [expected]
    for path in ("posts/m/index.html", "p/index.html"):
        page = soup_of(rendered[path])
        assert page.find("meta", attrs={"name": "description"})["content"] == expected
        assert page.find("meta", attrs={"property": "og:description"})["content"] == expected
    feed = ET.fromstring(rendered["posts/feed.xml"])
    assert [summary.text for summary in feed.iter("{http://www.w3.org/2005/Atom}summary")] == [expected]


def test_liquid_copied_from_a_jekyll_site_is_a_warning_at_its_line_saying_what_to_write(tmp_path):
    """al-folio's tags in a post (or a page, a news item) copied by hand are shown as written: a warning each, at its
    line, with what to write instead; not in code, where they are an example, so `check --strict` fails only on those."""
    post = (
        "---\ntitle: Liquid\ndate: 2025-08-01\n---\n"
        '{% include figure.liquid path="assets/img/1.png" class="img-fluid" %}\n\n'
        "{% highlight python %}\nprint(1)\n{% endhighlight %}\n\n"
        "See `{% raw %}` and {{ site.baseurl }}/assets/pdf/cv.pdf.\n\n"
        '```liquid\n{% include figure.liquid path="x.png" %}\n```\n'
    )
    news = "---\ndate: 2025-08-01\n---\nSlides: {{ '/assets/pdf/talk.pdf' | relative_url }}\n"
    site = site_with(tmp_path, {"content/posts/2025-08-01-liquid.md": post, "content/news/n.md": news})
    said = "is shown as written (sitegen runs no Liquid)"
    expected = [
        "content/news/n.md:4: warning: Liquid '{{ '/assets/pdf/talk.pdf' | relative_url }}' "
        f"{said}; write the path itself, from the site's root: assets/pdf/talk.pdf",
        'content/posts/2025-08-01-liquid.md:5: warning: Liquid tag \'{% include figure.liquid path="assets/img/1.png" class="img…\' '
        f"{said}; show the picture as ![what it shows](static/img/1.png)",
        f"content/posts/2025-08-01-liquid.md:7: warning: Liquid tag '{{% highlight python %}}' {said}; write the code in a fenced block:"
        " a line ```python before it, a line ``` after it",
        f"content/posts/2025-08-01-liquid.md:9: warning: Liquid tag '{{% endhighlight %}}' {said}; end the code block with a line ```",
        f"content/posts/2025-08-01-liquid.md:11: warning: Liquid '{{{{ site.baseurl }}}}' {said}; write a path of the site from its root without it"
        " (static/pdf/cv.pdf)",
    ]
    result = run_sitegen("check", "--strict", "--site", str(site))
    assert result.returncode == 1
    assert [line for line in result.stderr.splitlines() if ": warning:" in line] == expected, result.stderr


def test_raw_html_pasted_into_a_post_is_a_warning_at_its_line_saying_what_to_write(tmp_path):
    """YouTube's "Embed" code, an <img> or a <br> pasted into a post, a page or a news item was shown to visitors as
    code, without a word: a page shows no raw HTML (and loads nothing from elsewhere). Each line that holds a tag is a
    warning with what to write in Markdown; not in code, nor `<https://...>` links, nor `$a<b$`."""
    post = (
        "---\ntitle: Embeds\ndate: 2025-08-01\n---\n"
        '<iframe width="560" src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?si=x" allowfullscreen></iframe>\n\n'
        "<img src='/images/mesh.png' alt='A mesh'>\n\n"
        "First line<br>\nsecond line, see <https://example.org> and $a<b$ and `<div>`.\n\n"
        '```html\n<iframe src="x"></iframe>\n```\n'
    )
    news = '---\ndate: 2025-08-01\n---\nOur <a href="https://example.org/paper" target="_blank">paper</a> is out.\n'
    site = site_with(tmp_path, {"content/posts/2025-08-01-embeds.md": post, "content/news/n.md": news})
    said = "is shown as written (a page shows no raw HTML, and loads nothing from elsewhere)"
    expected = [
        f'content/news/n.md:4: warning: HTML \'<a href="https://example.org/paper" target="_blank">\' {said}; '
        "write the link in Markdown: [its text](https://example.org/paper)",
        f'content/posts/2025-08-01-embeds.md:5: warning: HTML \'<iframe width="560" src="https://www.youtube-nocookie.com/e…\' '
        f"{said}; write a link to it: [what it shows](https://www.youtube.com/watch?v=dQw4w9WgXcQ)",
        f"content/posts/2025-08-01-embeds.md:7: warning: HTML '<img src='/images/mesh.png' alt='A mesh'>' {said}; "
        "show the picture as ![what it shows](images/mesh.png), a file of the site",
        f"content/posts/2025-08-01-embeds.md:9: warning: HTML '<br>' {said}; end the line with two spaces to break it there",
    ]
    result = run_sitegen("check", "--strict", "--site", str(site))
    assert result.returncode == 1
    assert [line for line in result.stderr.splitlines() if ": warning:" in line] == expected, result.stderr


@pytest.mark.slow
def test_a_liquid_warning_escapes_what_the_tag_holds_and_repeats_a_bounded_part_of_it(tmp_path):
    """A tag's terminal escapes (which would clear the screen, retitle the window) are shown escaped, in the quote and
    in the advice; a long argument is cut in both, so that one tag makes one short line, not one of 100,000 characters."""
    hostile = '{% include figure.liquid path="\x1b]0;PWNED\x07\x1b[2J\x1b[31mx" %}'
    page = f"---\ntitle: L\n---\n{hostile}\n\n{{% highlight {'A' * 100_000} %}}\n"
    shortcode = '---\ntitle: S\n---\n{{< figure src="\x1b[2J.png" >}}\n'  # an error, as any unknown shortcode: escaped too
    site = site_with(tmp_path, {"content/pages/l.md": page})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    (site / "content/pages/s.md").write_text(shortcode, encoding="utf-8")
    failed = run_sitegen("build", "--site", str(site))
    assert failed.returncode == 1 and "\x1b" not in failed.stderr
    assert "show a picture as ![what it shows](\\x1b[2J.png)" in failed.stderr
    warnings = {line.split(": warning: ")[0]: line for line in result.stderr.splitlines() if ": warning: Liquid" in line}
    assert warnings["content/pages/l.md:4"] == (
        "content/pages/l.md:4: warning: Liquid tag '{% include figure.liquid path=\"\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mx\" %}' "
        "is shown as written (sitegen runs no Liquid); show the picture as ![what it shows](\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mx)"
    )
    long_one = warnings["content/pages/l.md:6"]
    assert len(long_one) < 300, long_one[:400]
    assert f"write the code in a fenced block: a line ```{'A' * 59}… before it" in long_one


def test_each_tag_lists_its_posts_and_every_post_links_to_its_tags(tmp_path):
    site = site_with(
        tmp_path,
        {
            "content/posts/a.md": "---\ntitle: A\ndate: 2024-01-05\ntags: [Machine Learning, GPUs]\n---\nText.\n",
            "content/posts/b.md": "---\ntitle: B\ndate: 2024-02-01\ntags: [machine learning]\n---\nText.\n",
            "content/posts/c.md": "---\ntitle: C\ndate: 2024-03-01\n---\nText.\n",
        },
        base_url="https://example.org/repo/",
    )
    files = rendered_files(site)
    assert {path for path in files if path.startswith("posts/tags/")} == {"posts/tags/machine-learning/index.html", "posts/tags/gpus/index.html"}
    listing = soup_of(files["posts/index.html"])
    tags = [(text(a.contents[0]), text(a.select_one(".subject-count")), a["href"]) for a in listing.select(".post-tags a")]
    assert tags == [("GPUs", "1", "/repo/posts/tags/gpus/"), ("machine learning", "2", "/repo/posts/tags/machine-learning/")]  # as the newest post names it
    learning = soup_of(files["posts/tags/machine-learning/index.html"])
    assert text(learning.h1) == "Posts tagged “machine learning”"
    assert [text(a) for a in learning.select(".post-title a")] == ["B", "A"]
    assert text(learning.select_one('.post-tags a[aria-current="page"]').contents[0]) == "machine learning"
    post = soup_of(files["posts/a/index.html"])
    assert [(text(a), a["href"]) for a in post.select("article .post-tags a")] == [
        ("Machine Learning", "/repo/posts/tags/machine-learning/"),
        ("GPUs", "/repo/posts/tags/gpus/"),
    ]
    assert [meta["content"] for meta in post.find_all("meta", property="article:tag")] == ["Machine Learning", "GPUs"]
    assert soup_of(files["posts/c/index.html"]).find("meta", property="article:tag") is None
    feed = feedparser.parse(files["posts/feed.xml"])
    assert [[tag.term for tag in entry.get("tags", [])] for entry in feed.entries] == [[], ["machine learning"], ["Machine Learning", "GPUs"]]
    sitemap = files["sitemap.xml"].decode()
    assert "https://example.org/repo/posts/tags/gpus/" in sitemap


def test_tags_in_any_script_each_have_their_own_list_in_alphabetical_order(tmp_path):
    """数学, 物理 and 教学 were all posts/tags/--/, and the post kept only the first, without a word; 'Öffentlichkeit'
    was posts/tags/-ffentlichkeit/ and listed after 'Zahlen'."""
    site = site_with(
        tmp_path,
        {
            "content/posts/a.md": "---\ntitle: A\ndate: 2024-01-05\ntags: [数学, 物理, 教学]\n---\nText.\n",
            "content/posts/b.md": "---\ntitle: B\ndate: 2024-02-01\ntags: [Zahlen, Öffentlichkeit, Straße, Lehre]\n---\nText.\n",
        },
    )
    files = rendered_files(site)
    post = soup_of(files["posts/a/index.html"])
    links = [(text(a), a["href"]) for a in post.select("article .post-tags a")]
    assert [name for name, _ in links] == ["数学", "物理", "教学"]
    assert len({href for _, href in links}) == 3 and all(re.fullmatch(r"/posts/tags/tag-[0-9a-f]{8}/", href) for _, href in links)
    for name, href in links:
        assert text(soup_of(files[href.lstrip("/") + "index.html"]).h1) == f"Posts tagged “{name}”"
    german = [(text(a), a["href"]) for a in soup_of(files["posts/b/index.html"]).select("article .post-tags a")]
    assert dict(german)["Öffentlichkeit"] == "/posts/tags/offentlichkeit/" and dict(german)["Straße"] == "/posts/tags/strasse/"
    cloud = [text(a.contents[0]) for a in soup_of(files["posts/index.html"]).select(".post-tags a")]
    assert cloud[:4] == ["Lehre", "Öffentlichkeit", "Straße", "Zahlen"]


def test_a_tags_list_quotes_the_tag_as_the_sites_language_does(tmp_path):
    """A German site's tag page was titled 'Beiträge zum Schlagwort “Lehre”' (English quotation marks)."""
    site = site_with(tmp_path, {"content/posts/a.md": "---\ntitle: A\ndate: 2024-01-05\ntags: [Lehre]\n---\nText.\n"}, settings="language: de\n")
    page = soup_of(rendered_files(site)["posts/tags/lehre/index.html"])
    assert text(page.h1) == "Beiträge zum Schlagwort „Lehre“"
    assert page.title.get_text().startswith("Beiträge zum Schlagwort „Lehre“ · ")


def test_two_tags_of_one_post_that_share_an_address_are_one_with_a_warning(tmp_path):
    site = site_with(tmp_path, {"content/posts/a.md": "---\ntitle: A\ndate: 2024-01-05\ntags: [R&D, R D]\n---\nText.\n"})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "content/posts/a.md:4: warning: the tag 'R D' shares its address posts/tags/r-d/ with 'R&D': one list shows both" in result.stderr


def test_tags_that_share_an_address_other_than_by_case_are_one_list_with_a_warning(tmp_path):
    site = site_with(
        tmp_path,
        {
            "content/posts/a.md": "---\ntitle: A\ndate: 2024-01-05\ntags: [R&D]\n---\nText.\n",
            "content/posts/b.md": "---\ntitle: B\ndate: 2024-02-01\ntags: [R D]\n---\nText.\n",
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "content/posts/a.md:4: warning: the tag 'R&D' shares its address posts/tags/r-d/ with 'R D' (content/posts/b.md)" in result.stderr
    assert [text(a) for a in soup(site / "output/posts/tags/r-d/index.html").select(".post-title a")] == ["B", "A"]


def test_a_site_without_posts_has_no_blog(tmp_path):
    files = rendered_files(site_with(tmp_path, {}))
    assert not any(path.startswith("posts/") for path in files)
    assert "Blog" not in [title for title, _ in menu(soup_of(files["index.html"]))]


@pytest.mark.slow
@pytest.mark.parametrize(
    "files, message",
    [
        ({"content/posts/x.md": "---\ntitle: No date\n---\nText\n"}, "content/posts/x.md:2: field 'date' is required"),
        ({"content/posts/x.md": "---\ndate: 2024-01-01\n---\nText\n"}, "content/posts/x.md:2: field 'title' is required"),
        ({"content/posts/x.md": "---\ntitle: T\ndate: 2024-01-01\nslug: ..\n---\n"}, "content/posts/x.md:4: the post's address 'posts/../' may hold only"),
        ({"content/posts/x.md": "---\ntitle: T\ndate: 2024-01-01\nslug: a/b\n---\n"}, "content/posts/x.md:4: the post's address 'posts/a/b/' may hold only"),
        (
            {"content/posts/x.md": "---\ntitle: T\ndate: 2024-01-01\nslug: Feed.xml\n---\n"},
            "content/posts/x.md:4: the post's address 'posts/Feed.xml/' is taken by",
        ),
        (
            {
                "content/posts/2024-01-01-same.md": "---\ntitle: A\ndate: 2024-01-01\n---\n",
                "content/posts/b.md": "---\ntitle: B\ndate: 2024-01-02\nslug: Same\n---\n",
            },
            "content/posts/b.md:1: this post and content/posts/2024-01-01-same.md both want the address 'posts/Same/'",
        ),
        (
            {"content/posts/x.md": "---\ntitle: T\ndate: 2024-01-01\ntags: ml, vision\n---\n"},
            "content/posts/x.md:4: field 'tags': expected a list, got one string",
        ),
        ({"content/posts/x.md": "---\ntitle: T\ndate: 2024-01-01\ntags: [{a: 1}]\n---\n"}, "content/posts/x.md:4: field 'tags': expected a list of texts"),
        ({"content/posts/x.md": "---\ntitle: T\ndate: 2024-01-01\ntags: [..]\n---\n"}, "content/posts/x.md:4: the tag '..' cannot be an address"),
        ({"content/posts/x.md": "---\ntitle: T\ndate: 2024-01-01\nslug: tags\n---\n"}, "content/posts/x.md:4: the post's address 'posts/tags/' is taken by"),
    ],
)
def test_a_mistake_in_a_post_is_reported_at_its_line(tmp_path, files, message):
    assert message in build_fails(site_with(tmp_path, files))


@pytest.mark.slow
def test_an_unknown_post_field_is_a_warning_naming_the_known_ones(tmp_path):
    site = site_with(tmp_path, {"content/posts/x.md": "---\ntitle: T\ndate: 2024-01-01\nmood: S\n---\nText\n"})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert (
        "content/posts/x.md:4: warning: unknown field 'mood' is ignored; known: comments, date, description, image, image_alt, language, slug, tags, title"
        in result.stderr
    )


def test_the_profile_is_a_profile_page_whose_person_the_papers_and_posts_name_as_their_author(tmp_path):
    """QA: the profile's JSON-LD was a bare Person with no `@id`, and each record's or post's author a new
    anonymous Person: Google's ProfilePage (whose `mainEntity` is the person) was found nowhere, and nothing tied
    the papers to the person. The profile page is now a ProfilePage, its person has an `@id`, and the owner among
    a record's or a post's authors names that `@id`."""
    post = "---\ntitle: Engines\ndate: 2025-02-10\n---\nText.\n"
    profile = "name: Ada Lovelace\nposition: Analyst\nlinks:\n  orcid: '0000-0002-1825-0097'\n"
    files = rendered_files(
        site_with(tmp_path, {"content/profile.yaml": profile, "content/posts/engines.md": post}, "records_per_page: 2\n", "https://ada.github.io/site/")
    )

    def json_ld(path: str) -> dict:
        [data] = [json.loads(s.string) for s in soup_of(files[path]).find_all("script", type="application/ld+json")]
        return data

    page = json_ld("index.html")
    assert (page["@context"], page["@type"], page["url"]) == ("https://schema.org", "ProfilePage", "https://ada.github.io/site/")
    person = page["mainEntity"]
    assert (person["@type"], person["@id"], person["name"]) == ("Person", "https://ada.github.io/site/#person", "Ada Lovelace")
    assert person["jobTitle"] == "Analyst" and person["sameAs"] == ["https://orcid.org/0000-0002-1825-0097"]
    assert "@context" not in person
    article = json_ld("records/conf/index.html")
    assert [a.get("@id") for a in article["author"]] == ["https://ada.github.io/site/#person", None, None]
    assert json_ld("posts/engines/index.html")["author"][0]["@id"] == "https://ada.github.io/site/#person"
    second = json_ld("page/2/index.html")  # the rest of the list: a page of its own, about the same person
    assert (second["@id"], second["url"]) == ("https://ada.github.io/site/page/2/", "https://ada.github.io/site/page/2/")
    assert second["mainEntity"] == person


@pytest.mark.parametrize(
    ("written", "handle", "address"),
    [
        ("@jane-q-doe@mastodon.social", "@jane-q-doe@mastodon.social", "https://mastodon.social/@jane-q-doe"),  # as init's profile.yaml guesses it
        ("@jane.doe@pixelfed.social", "@jane.doe@pixelfed.social", "https://pixelfed.social/@jane.doe"),
        ("https://friendica.example/@jane-doe", "@jane-doe@friendica.example", "https://friendica.example/@jane-doe"),
    ],
)
def test_a_fediverse_name_with_a_dot_or_a_hyphen_is_a_mastodon_handle(tmp_path, written, handle, address):
    """QA: `mastodon: "@jane-q-doe@mastodon.social"`, as the profile.yaml of `sitegen init` suggests it, was a link to
    /@jane-q-doe@mastodon.social of the site (warned as no file of the site): the `rel="me"` Mastodon's verification
    looks for and the JSON-LD's `sameAs` pointed into the site, and no page named the author in `fediverse:creator`.
    Mastodon's user names (Account::USERNAME_RE) may hold '.' and '-' between their first and last characters."""
    profile = f"name: Jane Q. Doe\nlinks:\n  mastodon: '{written}'\n"
    from sitegen.build import check_site

    checked = check_site(site_with(tmp_path, {"content/profile.yaml": profile}))
    assert [str(problem) for problem in checked.warnings] == []
    files = file_bytes(checked.files)
    for path in ("index.html", "records/art/index.html"):
        assert soup_of(files[path]).find("meta", attrs={"name": "fediverse:creator"})["content"] == handle
    index = soup_of(files["index.html"])
    assert [a["href"] for a in index.select('.profile-links a[rel~="me"]')] == [address]
    assert json.loads(index.find("script", type="application/ld+json").string)["mainEntity"]["sameAs"] == [address]


@pytest.mark.parametrize("written", ["https://fediscience.org/@mkowalczyk", "@mkowalczyk@fediscience.org"])
def test_a_mastodon_link_names_the_author_of_shared_links(tmp_path, written):
    """Mastodon (4.3 and later) shows "More from @user@server" under a link's preview when the page names its
    author in `fediverse:creator`."""
    profile = f"name: Ada Lovelace\nlinks:\n  mastodon: '{written}'\n"
    files = rendered_files(site_with(tmp_path, {"content/profile.yaml": profile}))
    for path in ("index.html", "records/art/index.html"):
        assert soup_of(files[path]).find("meta", attrs={"name": "fediverse:creator"})["content"] == "@mkowalczyk@fediscience.org"
    plain = rendered_files(site_with(tmp_path / "plain", {}))
    assert not soup_of(plain["index.html"]).find("meta", attrs={"name": "fediverse:creator"})


@pytest.mark.slow
@pytest.mark.parametrize(
    ("kind", "written", "address", "label"),
    [
        ("x", "priya_nlp", "https://x.com/priya_nlp", "X"),
        ("x", "@priya_nlp", "https://x.com/priya_nlp", "X"),
        ("twitter", "priya_nlp", "https://x.com/priya_nlp", "X"),
        ("mastodon", "@priya@sigmoid.social", "https://sigmoid.social/@priya", "Mastodon"),
        ("mastodon", "https://sigmoid.social/@priya", "https://sigmoid.social/@priya", "Mastodon"),
        ("bluesky", "@priyaraman.bsky.social", "https://bsky.app/profile/priyaraman.bsky.social", "Bluesky"),
        ("github", "@priyaraman", "https://github.com/priyaraman", "GitHub"),
    ],
)
def test_a_social_handle_is_a_link_to_the_profile_it_names(tmp_path, kind, written, address, label):
    """`x: priya_nlp` and `mastodon: "@priya@sigmoid.social"` (a handle as the network shows it) were links to
    /priya_nlp and /@priya@sigmoid.social of the site, with a warning that no such file exists."""
    profile = f"name: Priya Raman\nlinks:\n  {kind}: '{written}'\n"
    site = site_with(tmp_path, {"content/profile.yaml": profile})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
    links = {text(a): a["href"] for a in soup(site / "output/index.html").select(".profile-links a")}
    assert links[label] == address


@pytest.mark.parametrize("written", ["0000-0002-1825-0097", "https://orcid.org/0000-0002-1825-0097"])
def test_the_orcid_sitegen_fetches_is_the_profiles_and_the_cvs_orcid_link(tmp_path, written):
    """QA: `orcid:` written once, at the top of profile.yaml as fetching.md configures it, was on no page: the profile,
    the CV (which grant offices ask to carry the iD) and the JSON-LD named no ORCID unless `links: orcid:` repeated it."""
    profile = f"name: Ada Lovelace\norcid: '{written}'\nlinks:\n  github: ada\n"
    cv = "sections:\n  - title: Positions\n    entries:\n      - {title: Analyst, start: 1842}\n"
    pages = rendered_files(site_with(tmp_path, {"content/profile.yaml": profile, "content/cv.yaml": cv}))
    for path in ("index.html", "cv/index.html"):
        links = {text(a): a["href"] for a in soup_of(pages[path]).select(".profile-links a")}
        assert links == {"GitHub": "https://github.com/ada", "ORCID": "https://orcid.org/0000-0002-1825-0097"}, path
    person = json.loads(soup_of(pages["index.html"]).find("script", type="application/ld+json").string)
    assert "https://orcid.org/0000-0002-1825-0097" in json.dumps(person)


def test_an_x_link_names_the_owner_as_the_creator_of_shared_links(tmp_path):
    profile = "name: Priya Raman\nlinks:\n  x: '@priya_nlp'\n"
    page = soup_of(rendered_files(site_with(tmp_path, {"content/profile.yaml": profile}))["index.html"])
    assert page.find("meta", attrs={"name": "twitter:creator"})["content"] == "@priya_nlp"
    assert page.select_one('.profile-links a[href="https://x.com/priya_nlp"] use')["href"] == "#icon-x"


@pytest.mark.slow
def test_a_posts_image_is_its_link_preview(tmp_path):
    """Shared on Mastodon, LinkedIn or Slack, a post showed the owner's portrait in a small card: its `image`
    (al-folio's and Hugo's featured picture) is now the preview's, as a record's is."""
    post = "---\ntitle: Meshes\ndate: 2025-02-10\nimage: static/mesh.png\nimage_alt: A mesh of the lagoon\n---\nText.\n"
    files = {"content/posts/meshes.md": post, "static/mesh.png": "PNG", "static/ada.png": "PNG", "content/profile.yaml": "name: Ada Lovelace\nphoto: ada.png\n"}
    site = site_with(tmp_path, files, base_url="https://user.github.io/repo/")
    page = soup_of(rendered_files(site)["posts/meshes/index.html"])
    names = {m["name"]: m["content"] for m in page.find_all("meta", attrs={"name": True})}
    assert page.find("meta", property="og:image")["content"] == names["twitter:image"] == "https://user.github.io/repo/static/mesh.png"
    assert page.find("meta", property="og:image:alt")["content"] == names["twitter:image:alt"] == "A mesh of the lagoon"
    assert names["twitter:card"] == "summary_large_image"
    assert json.loads(page.find("script", type="application/ld+json").string)["image"] == "https://user.github.io/repo/static/mesh.png"
    (site / "content/posts/meshes.md").write_text(post.replace("static/mesh.png", "static/mesh.svg"), encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "content/posts/meshes.md:4: warning: static/mesh.svg is an SVG picture, which X, Facebook and LinkedIn do not show" in result.stderr
    assert "content/posts/meshes.md:4: warning: image: 'static/mesh.svg' is no file of the site" in result.stderr
    svg = soup_of((site / "output/posts/meshes/index.html").read_bytes())
    assert svg.find("meta", property="og:image")["content"] == "https://user.github.io/repo/static/ada.png"  # the portrait, as before


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"  # a picture's first bytes: no UTF-8 text


def test_a_markdown_file_in_a_posts_folder_is_part_of_that_post_not_a_post(tmp_path):
    """Hugo's headless page resources: `content/posts/NAME/notes.md` beside `index.md` is no post of its own."""
    site = site_with(
        tmp_path,
        {
            "content/posts/study/index.md": "---\ntitle: Study\ndate: 2024-02-03\n---\nText.\n",
            "content/posts/study/notes.md": "Notes without front matter.\n",
            "content/pages/teaching/index.md": "---\ntitle: Teaching\n---\nText.\n",
            "content/pages/teaching/syllabus/week1.md": "Week one.\n",
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert (
        "content/posts/study/notes.md: warning: not read: a Markdown file in the folder of the post content/posts/study/index.md is part of that post"
        in result.stderr
    )
    assert (
        "content/pages/teaching/syllabus/week1.md: warning: not read: a Markdown file in the folder of the page content/pages/teaching/index.md"
        in result.stderr
    )
    output = site / "output"
    assert (output / "posts" / "study" / "index.html").is_file() and not (output / "posts" / "notes").exists() and not (output / "week1").exists()


@pytest.mark.slow
def test_a_posts_and_a_pages_folder_publish_their_files_beside_them_where_their_text_links(tmp_path):
    """Hugo's page bundles: `content/posts/NAME/index.md` with its pictures and PDFs beside it."""
    site = site_with(
        tmp_path,
        {
            "content/posts/chart-study/index.md": "---\ntitle: B\ndate: 2024-02-03\n---\n![A chart](chart.png)\n\n![Detail](./img/detail.png)\n\n[The data](data.csv#row=2)\n",
            "content/posts/chart-study/data.csv": "a,b\n1,2\n",
            "content/posts/renamed/index.md": "---\ntitle: R\ndate: 2024-02-04\nslug: elsewhere\n---\n![Moved](chart.png)\n",
            "content/pages/teaching/index.markdown": "---\ntitle: Teaching\n---\n![The room](room.png)\n",
        },
        base_url="https://example.org/repo/",
    )
    for picture in ("posts/chart-study/chart.png", "posts/chart-study/img/detail.png", "posts/renamed/chart.png", "pages/teaching/room.png"):
        (site / "content" / picture).parent.mkdir(parents=True, exist_ok=True)
        (site / "content" / picture).write_bytes(PNG)
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    output = site / "output"
    post = soup(output / "posts" / "chart-study" / "index.html")
    assert [img["src"] for img in post.select("main img")] == ["/repo/posts/chart-study/chart.png", "/repo/posts/chart-study/img/detail.png"]
    assert [a["href"] for a in post.select("main .prose a") if "data" in a["href"]] == ["/repo/posts/chart-study/data.csv#row=2"]
    assert (output / "posts" / "chart-study" / "chart.png").read_bytes() == PNG
    assert (output / "posts" / "chart-study" / "img" / "detail.png").read_bytes() == PNG
    assert (output / "posts" / "chart-study" / "data.csv").read_text(encoding="utf-8") == "a,b\n1,2\n"
    assert [img["src"] for img in soup(output / "posts" / "elsewhere" / "index.html").select("main img")] == ["/repo/posts/elsewhere/chart.png"]
    assert (output / "posts" / "elsewhere" / "chart.png").read_bytes() == PNG
    assert [img["src"] for img in soup(output / "teaching" / "index.html").select("main img")] == ["/repo/teaching/room.png"]
    assert (output / "teaching" / "room.png").read_bytes() == PNG
    feed = feedparser.parse((output / "posts" / "feed.xml").read_bytes())
    pictures = [img["src"] for entry in feed.entries for img in BeautifulSoup(entry.content[0].value, "html.parser").find_all("img")]
    assert "https://example.org/repo/posts/chart-study/chart.png" in pictures
    sitemap = (output / "sitemap.xml").read_text(encoding="utf-8")
    assert "https://example.org/repo/teaching/" in sitemap and ".png" not in sitemap


@pytest.mark.slow
def test_a_link_out_of_the_site_in_a_posts_folder_is_not_published(tmp_path):
    site = site_with(tmp_path, {"content/posts/bundle/index.md": "---\ntitle: B\ndate: 2024-02-03\n---\n![Secret](secret.png)\n"})
    outside = tmp_path / "secret.png"
    outside.write_bytes(PNG + b"TOP-SECRET")
    (site / "content" / "posts" / "bundle" / "secret.png").symlink_to(outside)
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "content/posts/bundle/secret.png: warning: symbolic link to" in result.stderr
    assert not (site / "output" / "posts" / "bundle" / "secret.png").exists()
    assert not any(b"TOP-SECRET" in path.read_bytes() for path in (site / "output").rglob("*") if path.is_file())


def test_markdown_files_ending_in_dot_markdown_are_posts_pages_and_news(tmp_path):
    site = site_with(
        tmp_path,
        {
            "content/posts/2024-02-03-ext.markdown": "---\ntitle: Jekyll's extension\ndate: 2024-02-03\n---\nText.\n",
            "content/pages/mdpage.markdown": "---\ntitle: A page\n---\nText.\n",
            "content/news/n.markdown": "---\ndate: 2024-02-03\ntitle: Some news\n---\nText.\n",
        },
    )
    files = rendered_files(site)
    assert text(soup_of(files["posts/ext/index.html"]).h1) == "Jekyll's extension"
    assert text(soup_of(files["mdpage/index.html"]).h1) == "A page"
    assert "Some news" in text(soup_of(files["news/index.html"]).main)


@pytest.mark.slow
def test_a_file_that_posts_pages_and_news_do_not_read_is_a_warning_saying_what_to_do(tmp_path):
    site = site_with(
        tmp_path,
        {
            "content/pages/html-page.html": "<p>An HTML page</p>\n",
            "content/posts/notes.txt": "notes\n",
            "content/pages/_draft.png": "",
            "content/news/2024-01-01-item.md": "---\ndate: 2024-01-01\ntitle: News\n---\n",
        },
    )
    for picture in ("posts/chart.png", "pages/figure.png", "news/photo.png", "talks/stage.png", "people/grace.png"):
        (site / "content" / picture).parent.mkdir(exist_ok=True)
        (site / "content" / picture).write_bytes(PNG)
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "cannot read" not in result.stderr
    assert "content/talks/stage.png: warning: not read: talks are YAML files (.yaml or .yml)" in result.stderr
    assert "content/people/grace.png: warning: not a person file" in result.stderr
    warnings = [line for line in result.stderr.splitlines() if "not read: a " in line]
    assert sorted(warnings) == [
        "content/news/photo.png: warning: not read: a news item is a Markdown file (.md or .markdown); to show it in a news item, put it in static/"
        " (written static/photo.png)",
        "content/pages/figure.png: warning: not read: a page is a Markdown file (.md or .markdown); to show it in a page, put it in one folder with the"
        " page's text (content/pages/NAME/index.md and content/pages/NAME/figure.png, written figure.png) or in static/ (written static/figure.png)",
        "content/pages/html-page.html: warning: not read: a page is a Markdown file (.md or .markdown); write it in Markdown, in which HTML is shown"
        " as text, as content/pages/html-page.md",
        "content/posts/chart.png: warning: not read: a post is a Markdown file (.md or .markdown); to show it in a post, put it in one folder with the"
        " post's text (content/posts/NAME/index.md and content/posts/NAME/chart.png, written chart.png) or in static/ (written static/chart.png)",
        "content/posts/notes.txt: warning: not read: a post is a Markdown file (.md or .markdown); write it in Markdown, in which HTML is shown as"
        " text, as content/posts/notes.md",
    ]
    assert run_sitegen("build", "--strict", "--site", str(site)).returncode == 1


@pytest.mark.slow
def test_warnings_about_a_text_name_the_line_and_the_page_a_link_meant(tmp_path):
    post = "---\ntitle: First\ndate: 2025-03-01\n---\n\nHello.\n\nMore.\n\nText.\n$\\foobar{x}$ ![x](https://example.org/a.png)\n"
    page = (
        "---\ntitle: Links\n---\nFirst line.\n\n[a](about.md) [b](../posts/first-post/)\n\n{{< publications >}}\n\n"
        "[c](2025-03-01-first-post.md)\n[d](nowhere/) [e](missing.pdf)\n"
    )
    cv = "sections:\n  - title: Work\n    entries:\n      - title: G\n        url: gone/\n        details: A [link](also-gone/).\n"
    site = site_with(
        tmp_path,
        {
            "content/posts/2025-03-01-first-post.md": post,
            "content/pages/about.md": "---\ntitle: About\n---\nMe.\n",
            "content/pages/links.md": page,
            "content/news/n.md": "---\ndate: 2024-02-03\n---\nNews.\n\nSee [x](nope/).\n",
            "content/cv.yaml": cv,
        },
        "nav:\n  - {title: Home, url: /}\n  - {title: Menu, url: nowhere/}\n",
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    warnings = result.stderr.splitlines()
    for expected in (
        "content/posts/2025-03-01-first-post.md:11: warning: LaTeX shown as source, cannot convert $\\foobar{x}$"
        "; if \\foobar is a command of the paper's own preamble, say once what it stands for, in content/site.yaml: "
        "`math_macros: {foobar: '...'}`; else write the formula with LaTeX's and amsmath's commands",
        "content/posts/2025-03-01-first-post.md:11: warning: picture 'https://example.org/a.png' left out",
        "content/pages/links.md:6: warning: link in the text: 'about.md' is no file of the site; did you mean 'about/'?",
        "content/pages/links.md:6: warning: link in the text: '../posts/first-post/' is no file of the site; did you mean 'posts/first-post/'?",
        "content/pages/links.md:10: warning: link in the text: '2025-03-01-first-post.md' is no file of the site; did you mean 'posts/first-post/'?",
        "content/pages/links.md:11: warning: link in the text: 'nowhere/' is no file of the site",
        "content/pages/links.md:11: warning: link in the text: 'missing.pdf' is no file of the site (a file of your static/ folder is linked as static/NAME)",
        "content/news/n.md:6: warning: link in the text: 'nope/' is no file of the site",
        "content/cv.yaml:5: warning: link of 'G': 'gone/' is no file of the site",
        "content/cv.yaml:6: warning: link in the details of 'G': 'also-gone/' is no file of the site",
        "content/site.yaml:5: warning: menu entry 'Menu': 'nowhere/' is no file of the site",
    ):
        assert any(line.startswith(expected) for line in warnings), (expected, result.stderr)
    assert "content/pages/links.md:11: warning: link in the text: 'nowhere/' is no file of the site\n" in result.stderr  # no hint of static/


@pytest.mark.slow
def test_an_unknown_field_of_a_post_news_item_talk_or_cv_entry_names_the_one_it_likely_means(tmp_path):
    site = site_with(
        tmp_path,
        {
            "content/posts/x.md": "---\ntitle: T\ndate: 2024-01-01\ntag: [a]\n---\nText\n",
            "content/news/x.md": "---\ndate: 2024-01-01\ntitel: T\n---\nText\n",
            "content/talks/x.yaml": "title: T\ndate: 2024-01-01\nevnt: E\n",
            "content/cv.yaml": "sections:\n  - title: Work\n    entries:\n      - title: G\n        orgs: U\n",
            "content/profile.yaml": "name: Ada Lovelace\nphoto: static/ada.png\n",
            "static/ada.png": "PNG",
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    for expected in (
        "content/posts/x.md:4: warning: unknown field 'tag' is ignored; did you mean 'tags'?",
        "content/news/x.md:3: warning: unknown field 'titel' is ignored; did you mean 'title'?",
        "content/talks/x.yaml:3: warning: unknown field 'evnt' is ignored; did you mean 'event'?",
        "content/cv.yaml:5: warning: unknown field 'orgs' is ignored; did you mean 'org'?",
        "content/profile.yaml:2: warning: field 'photo': no file static/static/ada.png in the site; the photo is left out; did you mean 'ada.png'",
    ):
        assert expected in result.stderr


# -- 3c. old addresses ----------------------------------------------------------------------------------


def test_an_old_address_leads_on_and_stays_out_of_the_sitemap_and_the_index(tmp_path):
    site = site_with(
        tmp_path,
        {
            "content/redirects.yaml": "/blog/2015/old-post/: /posts/new/\npublications/: '#publications'\nold.html: records/art/\n",
            "content/posts/new.md": "---\ntitle: New\ndate: 2024-01-01\n---\nText.\n",
        },
        base_url="https://example.org/repo/",
    )
    files = rendered_files(site)
    for old, new, canonical in (
        ("blog/2015/old-post/index.html", "/repo/posts/new/", "https://example.org/repo/posts/new/"),
        ("publications/index.html", "/repo/#publications", "https://example.org/repo/"),
        ("old.html", "/repo/records/art/", "https://example.org/repo/records/art/"),
    ):
        page = soup_of(files[old])
        assert page.find("meta", attrs={"http-equiv": "refresh"})["content"] == f"0; url={new}"
        assert page.find("a")["href"] == new and page.find("link", rel="canonical")["href"] == canonical
        assert page.find("meta", attrs={"name": "robots"})["content"] == "noindex"
    listed = files["sitemap.xml"].decode()
    assert "blog/" not in listed and "publications/" not in listed and "old.html" not in listed
    assert soup_of(files["old.html"]).find("p").get_text() == "This page has moved: /repo/records/art/"


def test_an_old_address_says_it_moved_in_the_sites_language(tmp_path):
    site = site_with(tmp_path, {"content/redirects.yaml": "old/: records/art/\n"}, settings="language: de\n")
    page = soup_of(rendered_files(site)["old/index.html"])
    assert page.find("p").get_text() == "Diese Seite ist umgezogen: /records/art/"
    assert page.find("title").get_text().endswith(": umgezogen") and page.find("html")["lang"] == "de"


@pytest.mark.slow
@pytest.mark.parametrize(
    "redirects, message",
    [
        ("old/: https://evil.example/\n", "content/redirects.yaml:1: redirect of 'old/': 'https://evil.example/' should be an address in this site"),
        ("old/: //evil.example/\n", "content/redirects.yaml:1: redirect of 'old/': '//evil.example/' should be an address in this site"),
        ("../up/: posts/\n", "content/redirects.yaml:1: redirect of '../up/': the old address may hold only"),
        (
            "/~jdoe/research.html: posts/\n",
            "content/redirects.yaml:1: redirect of '/~jdoe/research.html': the old address may hold only A-Z a-z 0-9 . _ - and /, "
            "and no part of only dots; old addresses are read from the site's root: if /~jdoe/ is the site's own path, write "
            "'research.html'",
        ),
        ("ok/: posts/\n/: posts/\n", "content/redirects.yaml:2: redirect of '/': the old address is the profile's own address"),
        ("- a\n", "content/redirects.yaml:1: expected old addresses and where each leads now"),
        ("cv/: posts/\n", "content/redirects.yaml:1: redirect of 'cv/': the old address is sitegen's 'cv' page (output/cv/index.html): delete this line"),
        (
            "people/sheng/feed.xml: people/sheng-lin/feed.xml\n",
            "content/redirects.yaml:1: redirect of 'people/sheng/feed.xml': the old address is a file a feed reader or a program fetches",
        ),
    ],
)
def test_a_redirect_that_cannot_be_is_an_error(tmp_path, redirects, message):
    files = {"content/redirects.yaml": redirects, "content/cv.yaml": "sections: []\n"}
    assert message in build_fails(site_with(tmp_path, files))


@pytest.mark.slow
@pytest.mark.parametrize(
    "page, front",
    [
        ("content/pages/publications.md", "title: Publications\nnav: 1"),
        ("content/pages/writing.md", "title: Blog\nslug: blog"),
        ("content/posts/p.md", "title: P\ndate: 2024-01-01\nslug: old"),
    ],
)
def test_a_page_at_an_old_address_of_the_redirects_names_both_files_and_what_to_do(tmp_path, page, front):
    """A page of one's own at an address init --from redirected (al-folio's publications/, blog/): at the page's file,
    naming the redirect's line, with the two ways out."""
    redirects = "blog/2015/x/: posts/\nblog/: posts/\npublications/: '#publications'\nposts/old/: posts/\n"
    line = {"content/pages/publications.md": 3, "content/pages/writing.md": 2, "content/posts/p.md": 4}[page]
    address = {"content/pages/publications.md": "publications/", "content/pages/writing.md": "blog/", "content/posts/p.md": "posts/old/"}[page]
    noun = "post" if "posts" in page else "page"
    site = site_with(tmp_path, {"content/redirects.yaml": redirects, page: f"---\n{front}\n---\n{{{{< publications >}}}}\n"})
    for command in ("build", "check"):
        result = run_sitegen(command, "--site", str(site))
        assert result.returncode == 1, result.stderr
        assert (
            f"{page}:1: this {noun} and the redirect at content/redirects.yaml:{line} both want the address '{address}': delete that line of"
            f" content/redirects.yaml (the {noun} now stands at the old address), or give the {noun} another address with slug: ..."
        ) in result.stderr.splitlines()
        assert "two pages would be written" not in result.stderr


def test_a_redirect_to_no_file_of_the_site_is_a_warning(tmp_path):
    result = run_sitegen("build", "--site", str(site_with(tmp_path, {"content/redirects.yaml": "old/: postz/\n"})))
    assert result.returncode == 0, result.stderr
    assert "content/redirects.yaml:1: warning: redirect of 'old/': 'postz/' is no file of the site" in result.stderr


def test_a_redirect_to_no_file_is_never_told_to_lead_to_a_redirect(tmp_path):
    """The did-you-mean of a broken redirect names the real page of that name, or nothing: never the
    redirect's own old address (nor another redirect's), which would send the browser round in a circle."""
    redirects = "blog/2015/formatting-and-links/: posts/formatting-and-links/\nold/first-post/: first-post/\n"
    post = "---\ntitle: First\n---\nHello.\n"
    site = site_with(tmp_path, {"content/redirects.yaml": redirects, "content/posts/2024-01-02-first-post.md": post})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if "content/redirects.yaml" in line]
    assert lines == [
        "content/redirects.yaml:1: warning: redirect of 'blog/2015/formatting-and-links/': 'posts/formatting-and-links/' is no file of the site",
        "content/redirects.yaml:2: warning: redirect of 'old/first-post/': 'first-post/' is no file of the site; did you mean 'posts/first-post/'?",
    ]


def test_every_new_page_is_in_the_sitemap(built_demo):
    root = ET.parse(built_demo / "sitemap.xml").getroot()
    listed = {loc.text for loc in root.iterfind("s:url/s:loc", SITEMAP_NS)}
    for path in ("about/", "teaching/", "cv/", "news/", "talks/", "posts/", "posts/checkpoint-intervals/"):
        assert f"https://lena-muller.github.io/{path}" in listed
    assert not any(url.endswith(".xml") for url in listed)


# -- 4. types and venues ---------------------------------------------------------------------------------


def test_every_list_item_shows_its_type_and_venue_and_featured_cards_their_authors(tmp_path):
    files = rendered_files(site_with(tmp_path, {}))
    index = soup_of(files["index.html"])
    venues = {item["id"]: text(item.select_one(".venue")) for item in index.select("#publications li.record")}
    assert venues["r-art"].startswith("Journal article") and "Journal of Engines" in venues["r-art"]
    assert venues["r-conf"].startswith("Conference paper")
    assert venues["r-pre"].startswith("Preprint")
    assert "Annals of Engines 12 (2025)" in venues["r-pre"] and "arXiv" not in venues["r-pre"]  # the journal reference, not "arXiv"
    card = index.select_one(".featured-cards li")
    assert "Charles Babbage" in text(card.select_one(".card-authors")) and "Journal of Engines" in text(card)


def test_an_award_is_shown_wherever_its_record_is_and_is_in_the_data(tmp_path):
    awarded = RECORDS.replace("  featured: true\n", "  featured: true\n  award: Best Paper Award at $\\text{SOSP}$ 2024\n")
    files = rendered_files(site_with(tmp_path, {"content/records/a.yaml": awarded}))
    index = soup_of(files["index.html"])
    assert per_record(index, ".badge.award") == {"r-art": ["Best Paper Award at SOSP 2024"], "r-conf": [], "r-pre": []}
    assert [text(b) for b in index.select(".featured-cards .badge.award")] == ["Best Paper Award at SOSP 2024"]
    page = soup_of(files["records/art/index.html"])
    assert text(page.select_one(".record-header .badge.award")) == "Best Paper Award at SOSP 2024"
    assert json.loads(page.find("script", type="application/ld+json").string)["award"] == "Best Paper Award at SOSP 2024"
    assert {r["id"]: r["award"] for r in json.loads(files["records.json"])["records"]} == {"art": "Best Paper Award at SOSP 2024", "conf": None, "pre": None}
    assert "Best Paper Award at SOSP 2024" in json.loads(files["search/text.json"])[0][3]  # found by searching "best paper"


def test_a_records_image_is_its_thumbnail_its_pages_picture_and_its_link_preview(tmp_path):
    pictured = RECORDS.replace("  featured: true\n", "  featured: true\n  image: static/previews/art.png\n  image_alt: A plot of engines\n")
    pictured = pictured.replace("  type: inproceedings\n", "  type: inproceedings\n  image: https://images.example.net/conf.jpg\n")
    files = rendered_files(
        site_with(
            tmp_path,
            {
                "content/records/a.yaml": pictured,
                "content/profile.yaml": "name: Ada Lovelace\nphoto: ada.png\n",
                "static/previews/art.png": "PNG",
                "static/ada.png": "PNG",
            },
            base_url="https://example.org/lab/",
        )
    )
    index = soup_of(files["index.html"])
    assert per_record(index, "img.record-thumbnail", lambda img: img["src"]) == {
        "r-art": ["/lab/static/previews/art.png"],
        "r-conf": [],  # a picture of another site: left out of the pages (below)
        "r-pre": [],
    }
    assert all(img["alt"] == "" for img in index.select("img.record-thumbnail"))  # the title beside it says what it is
    page = soup_of(files["records/art/index.html"])
    assert (page.select_one("img.record-image")["src"], page.select_one("img.record-image")["alt"]) == ("/lab/static/previews/art.png", "A plot of engines")
    assert page.find("meta", property="og:image")["content"] == "https://example.org/lab/static/previews/art.png"
    assert page.find("meta", property="og:image:alt")["content"] == "A plot of engines"
    assert page.find("meta", attrs={"name": "twitter:image:alt"})["content"] == "A plot of engines"  # X reads its own tag
    conference = soup_of(files["records/conf/index.html"])  # no image_alt: the title for previews
    assert conference.find("meta", property="og:image")["content"] == "https://images.example.net/conf.jpg"
    assert conference.find("meta", property="og:image:alt")["content"] == "A conference paper"
    assert page.find("meta", attrs={"name": "twitter:card"})["content"] == "summary_large_image"
    assert json.loads(page.find("script", type="application/ld+json").string)["image"] == "https://example.org/lab/static/previews/art.png"
    plain = soup_of(files["records/pre/index.html"])  # no picture: the profile's photo, as on every other page
    assert plain.find("meta", property="og:image")["content"] == "https://example.org/lab/static/ada.png"
    assert plain.find("meta", attrs={"name": "twitter:image:alt"})["content"] == plain.find("meta", property="og:image:alt")["content"]
    assert plain.find("meta", attrs={"name": "twitter:card"})["content"] == "summary"
    assert not plain.select("img.record-image")
    images = {r["id"]: r["image"] for r in json.loads(files["records.json"])["records"]}
    assert images == {"art": "https://example.org/lab/static/previews/art.png", "conf": "https://images.example.net/conf.jpg", "pre": None}


@pytest.mark.slow
def test_a_records_picture_from_another_site_is_left_out_of_the_pages_with_a_warning(tmp_path):
    """A page of the site loads nothing from elsewhere (a university's data-protection office asks it): a record's
    `image` from another site was every visitor's request to that site, on the profile, the subject pages and the
    record's page. It stays the link preview's picture, which the services that show a preview fetch, not visitors."""
    pictured = RECORDS.replace("  type: inproceedings\n", "  type: inproceedings\n  image: https://images.example.net/conf.jpg\n")
    site = site_with(tmp_path, {"content/records/a.yaml": pictured}, base_url="https://example.org/lab/")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    line = pictured.splitlines().index("  image: https://images.example.net/conf.jpg") + 1
    assert (
        f"content/records/a.yaml:{line}: warning: field 'image': picture 'https://images.example.net/conf.jpg' is on another "
        "site (images.example.net): it is left out of the pages, which load nothing from elsewhere (it stays the picture "
        "of the record's link preview); save it in static/ and write image: static/NAME"
    ) in result.stderr
    output = site / "output"
    for page in pages_to_read(output):
        assert "images.example.net" not in " ".join(img.get("src", "") for img in soup(page).find_all("img")), page
    conference = soup(output / "records/conf/index.html")
    assert conference.find("meta", property="og:image")["content"] == "https://images.example.net/conf.jpg"
    assert run_sitegen("check", "--strict", "--site", str(site)).returncode == 1


@pytest.mark.slow
def test_an_svg_picture_is_left_out_of_link_previews_with_a_warning_at_its_line(tmp_path):
    """X, Facebook and LinkedIn show no SVG in a link preview: og:image and twitter:image name none (and ask for no large
    card), the page still shows the picture, and the build says at the field's line to give a PNG or JPEG."""
    pictured = RECORDS.replace("  featured: true\n", "  featured: true\n  image: static/previews/art.svg\n")
    site = site_with(
        tmp_path,
        {
            "content/records/a.yaml": pictured,
            "content/profile.yaml": "name: Ada Lovelace\nphoto: ada.svg\n",
            "static/previews/art.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
            "static/ada.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
        },
        base_url="https://example.org/lab/",
    )
    files = rendered_files(site)
    for path in ("records/art/index.html", "records/pre/index.html", "index.html"):
        page = soup_of(files[path])
        assert not page.find_all("meta", property="og:image") and not page.find_all("meta", attrs={"name": "twitter:image"}), path
        assert page.find("meta", attrs={"name": "twitter:card"})["content"] == "summary", path
    assert soup_of(files["records/art/index.html"]).select_one("img.record-image")["src"] == "/lab/static/previews/art.svg"
    assert soup_of(files["index.html"]).select_one("img[src='/lab/static/ada.svg']") is not None
    assert json.loads(soup_of(files["records/art/index.html"]).find("script", type="application/ld+json").string)["image"].endswith("art.svg")
    result = run_sitegen("check", "--site", str(site))
    assert result.returncode == 0, result.stderr
    image_line = pictured.splitlines().index("  image: static/previews/art.svg") + 1
    assert (
        f"content/records/a.yaml:{image_line}: warning: field 'image': static/previews/art.svg is an SVG picture, which "
        "X, Facebook and LinkedIn do not show in link previews: the page shows it, but links to it are shared with no "
        "picture; give a PNG or JPEG (static/previews/art.png) for link previews" in result.stderr
    ), result.stderr
    assert (
        "content/profile.yaml:2: warning: field 'photo': ada.svg is an SVG picture, which X, Facebook and LinkedIn do not show "
        "in link previews: the page shows it, but links to it are shared with no picture; give a PNG or JPEG (ada.png) for link previews"
    ) in result.stderr


def test_an_iphone_photo_is_said_to_show_in_safari_alone(tmp_path):
    site = site_with(tmp_path, {"content/profile.yaml": "name: Priya Raman\nphoto: IMG_2041.HEIC\n", "static/IMG_2041.HEIC": "ftypheic"})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert (
        "content/profile.yaml:2: warning: field 'photo': IMG_2041.HEIC is an HEIC picture, which only Safari shows: visitors "
        "with Chrome, Firefox or Edge see no picture, and links to the page are shared with none; save it as a JPEG "
        "(IMG_2041.jpg) and name that"
    ) in result.stderr, result.stderr


@pytest.mark.slow
def test_the_demo_has_link_preview_pictures_and_nothing_to_warn_about(tmp_path):
    site = copy_demo(tmp_path / "demo")
    result = run_sitegen("check", "--strict", "--site", str(site))
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr


def test_a_venues_short_name_labels_the_list_item_and_reaches_csl_ris_and_json(tmp_path):
    short = RECORDS.replace("  source: Journal of Engines\n", "  source: Journal of Engines\n  venue_short: J. Eng.\n")
    files = rendered_files(site_with(tmp_path, {"content/records/a.yaml": short}))
    index = soup_of(files["index.html"])
    assert per_record(index, ".venue-short") == {"r-art": ["J. Eng."], "r-conf": [], "r-pre": []}
    page = soup_of(files["records/art/index.html"])
    csl = json.loads(page.select_one("details.cite-styles")["data-csl-item"])  # what citeproc-js formats in the browser
    assert (csl["container-title"], csl["container-title-short"]) == ("Journal of Engines", "J. Eng.")
    ris = files["publications.ris"].decode()
    entry = next(block for block in ris.split("ER  - ") if "TI  - A journal article" in block)
    assert "T2  - Journal of Engines\r\nJ2  - J. Eng.\r\n" in entry
    assert {r["id"]: r["venue_short"] for r in json.loads(files["records.json"])["records"]} == {"art": "J. Eng.", "conf": None, "pre": None}
    assert "J. Eng." in json.loads(files["search/text.json"])[0][3]  # found by searching for it


@pytest.mark.slow
def test_an_award_must_be_text_and_al_folios_name_for_it_is_understood(tmp_path):
    listed = RECORDS.replace("  featured: true\n", "  featured: true\n  award: [Best Paper]\n")
    assert "content/records/a.yaml:8: field 'award': expected a string" in build_fails(site_with(tmp_path / "a", {"content/records/a.yaml": listed}))
    named = RECORDS.replace("  featured: true\n", "  featured: true\n  award_name: Best Paper\n")
    result = run_sitegen("build", "--site", str(site_with(tmp_path / "b", {"content/records/a.yaml": named})))
    assert result.returncode == 0 and "content/records/a.yaml:8: warning: field 'award_name': unknown field; did you mean 'award'?" in result.stderr


def test_group_by_type_groups_the_lists_by_type_with_years_inside(tmp_path):
    """Each type's heading says how many it lists (QA: a grant office asks for the count of each type, which the
    printed CV did not give): "Journal articles (2)"."""
    two = RECORDS + "- {id: art2, title: Another article, authors: [Ada Lovelace], year: 2024, source: Journal of Engines, type: article}\n"
    cv = "sections:\n  - title: Publications\n    publications: all\n  - title: Recent\n    publications: {since: 2024}\n"
    files = rendered_files(site_with(tmp_path, {"content/records/a.yaml": two, "content/cv.yaml": cv}, "group_by: type\n"))
    index = soup_of(files["index.html"])
    groups = index.select("#publications .type-group")
    assert [text(g.h3) for g in groups] == ["Journal articles (2)", "Conference papers (1)", "Preprints (1)"]
    sections = soup_of(files["cv/index.html"]).select("section.cv-section")
    assert [[text(h) for h in section.select("h3.type-heading")] for section in sections] == [
        ["Journal articles (2)", "Conference papers (1)", "Preprints (1)"],
        ["Journal articles (2)", "Preprints (1)"],
    ]
    index = soup_of(rendered_files(site_with(tmp_path / "one", {}, "group_by: type\n"))["index.html"])
    groups = index.select("#publications .type-group")
    assert [[text(y) for y in g.select("p.year")] for g in groups] == [["2024"], ["2023"], ["2024"]]
    assert [li["id"] for li in index.select("#publications li.record")] == ["r-art", "r-conf", "r-pre"]


@pytest.mark.slow
def test_group_by_must_be_year_or_type(tmp_path):
    assert "content/site.yaml:3: field 'group_by': expected year or type" in build_fails(site_with(tmp_path, {}, "group_by: venue\n"))


def test_list_items_name_subjects_with_the_code_as_a_hint(built_demo):
    index = soup(built_demo / "index.html")
    chips = index.select("#publications a.subject")
    assert chips
    for chip in chips:
        code = chip.get("title", text(chip))
        assert text(chip) == subject_name(code)


# -- 5. co-authors ----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_coauthor_names_are_links_wherever_they_appear(built_demo):
    coauthors = yaml.safe_load((CONTENT / "coauthors.yaml").read_text(encoding="utf-8"))
    url_of = {name: (value if isinstance(value, str) else value["url"]) for name, value in coauthors.items()}
    pages = [built_demo / "index.html", built_demo / "cv" / "index.html", *sorted(built_demo.glob("records/*/index.html"))]
    seen = set()
    for path in pages:
        for authors in soup(path).select("main .authors"):
            for name, url in url_of.items():
                for link in authors.find_all("a", string=name):
                    assert link["href"] == url, (path, name)
                    seen.add(name)
                plain = [s for s in authors.find_all(string=True) if name in s and s.parent.name != "a"]
                assert plain == [], f"{path}: {name} shown without its link"
            assert authors.select("strong.owner a") == []  # the owner is highlighted, not linked
    assert seen == set(url_of)


@pytest.mark.slow
def test_a_coauthor_variant_is_linked_and_a_bad_url_is_reported(tmp_path):
    site = site_with(tmp_path, {"content/coauthors.yaml": "Charles Babbage:\n  url: https://babbage.example.org\n  variants: ['C. Babbage']\n"})
    index = soup_of(rendered_files(site)["index.html"])
    assert {a["href"] for a in index.select("#publications .authors a")} == {"https://babbage.example.org"}
    assert len(index.select("#publications .authors a")) == 2
    bad = site_with(tmp_path / "bad", {"content/coauthors.yaml": "Mary Somerville: https://ok.example.org\nCharles Babbage: 'javascript:alert(1)'\n"})
    assert "content/coauthors.yaml:2: field 'Charles Babbage': expected an http(s)" in build_fails(bad)


def test_a_coauthor_named_in_chinese_japanese_or_cyrillic_letters_is_linked_and_no_other_is(tmp_path):
    """Such a name was left out of coauthors.yaml without a word (its letters were dropped, leaving no name)."""
    records = "id: a\ntitle: T\nyear: 2024\nauthors: ['山田 太郎', '佐藤 花子', 'Иван Петров', '鈴木 一郎']\n"
    coauthors = "佐藤 花子: https://sato.example.org\nИван Петров: https://petrov.example.org\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.yaml": records, "content/coauthors.yaml": coauthors})
    authors = soup_of(rendered_files(site)["records/a/index.html"]).select_one("main .authors")
    assert [(a.get_text(), a["href"]) for a in authors.select("a")] == [
        ("佐藤 花子", "https://sato.example.org"),
        ("Иван Петров", "https://petrov.example.org"),
    ]


def test_a_coauthor_is_linked_in_the_forms_of_their_name_written_out_and_listed(tmp_path):
    """A two-part family name with or without its hyphen, in BibTeX's order, is the co-author; an initials form
    is only when listed (docs/homepage.md: 'M. García López' may be another García López)."""
    records = "id: a\ntitle: T\nyear: 2024\nauthors: ['García López, María', 'M. García-López', 'Marta García-López', 'C. Laurent']\n"
    coauthors = "María García-López: https://maria.example.org\nCamille Laurent: {url: https://camille.example.org, variants: ['C. Laurent']}\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.yaml": records, "content/coauthors.yaml": coauthors})
    authors = soup_of(rendered_files(site)["records/a/index.html"]).select_one("main .authors")
    assert [(a.get_text(), a["href"]) for a in authors.select("a")] == [
        ("María García López", "https://maria.example.org"),
        ("C. Laurent", "https://camille.example.org"),
    ]


# -- 6. the menu, icons, link previews, analytics -----------------------------------------------------------


def test_the_menu_is_made_from_what_the_site_has(built_demo):
    index = soup(built_demo / "index.html")
    assert menu(index) == [
        ("Publications", "/#publications"),
        ("About", "/about/"),
        ("Teaching", "/teaching/"),
        ("Projects", "/projects/"),
        ("CV", "/cv/"),
        ("Blog", "/posts/"),
        ("News", "/news/"),
        ("Talks", "/talks/"),
    ]
    for path, current in (("cv/index.html", "CV"), ("posts/index.html", "Blog"), ("news/index.html", "News"), ("talks/index.html", "Talks")):
        assert [text(a) for a in soup(built_demo / path).select('header nav a[aria-current="page"]')] == [current]
    assert "record" not in " ".join(title.lower() for title, _ in menu(index))


@pytest.mark.slow
def test_a_nav_setting_replaces_the_menu_and_works_under_a_sub_path(tmp_path):
    settings = "nav:\n  - {title: Home, url: /}\n  - {title: Papers, url: '#publications'}\n  - {title: CV, url: /cv/}\n  - {title: Blog, url: 'https://blog.example.org'}\n"
    for base_url, base_path in (("https://example.org/repo/", "/repo/"), ("https://example.org", "/")):
        site = site_with(tmp_path / base_path.strip("/"), {"content/cv.yaml": "sections:\n  - title: Papers\n    publications: all\n"}, settings, base_url)
        files = rendered_files(site)
        expected = [("Home", base_path), ("Papers", f"{base_path}#publications"), ("CV", f"{base_path}cv/"), ("Blog", "https://blog.example.org")]
        assert menu(soup_of(files["cv/index.html"])) == expected
        assert soup_of(files["index.html"]).select_one('header nav a[aria-current="page"]').get_text() == "Home"
    assert "content/site.yaml:4: field 'url': expected an http(s)" in build_fails(
        site_with(tmp_path / "bad", {}, "nav:\n  - {title: X, url: 'javascript:x'}\n")
    )


@pytest.mark.slow
def test_a_nav_entry_for_the_home_page_is_dot_slash_or_slash_and_is_current_there(tmp_path):
    """`url: ./` and `url: /` are both the site's home (not '/repo/./'), marked current on the home page even after a
    '#publications' entry, which is the home page's too; `url: ""` is said to be empty, with what to write."""
    for home in ("./", "/"):
        settings = f"nav:\n  - {{title: Publikationen, url: '#publications'}}\n  - {{title: Über mich, url: {home}}}\n"
        files = rendered_files(site_with(tmp_path / str(len(home)), {}, settings, "https://example.org/homepage/"))
        index = soup_of(files["index.html"])
        assert menu(index) == [("Publikationen", "/homepage/#publications"), ("Über mich", "/homepage/")]
        assert [a.get_text() for a in index.select('header nav a[aria-current="page"]')] == ["Über mich"]
    settings = "nav:\n  - {title: Papers, url: '#publications'}\n"
    index = soup_of(rendered_files(site_with(tmp_path / "parts", {}, settings))["index.html"])
    assert [a.get_text() for a in index.select('header nav a[aria-current="page"]')] == ["Papers"]  # no home entry: the part
    message = build_fails(site_with(tmp_path / "empty", {}, "nav:\n  - title: Über mich\n    url: ''\n"))
    assert "content/site.yaml:5: field 'url' is empty; for the site's home page, write url: ./ (or /)" in message.splitlines()


@pytest.mark.slow
def test_every_icon_a_page_uses_is_drawn_on_that_page(built_demo):
    used_anywhere = set()
    for path in pages_to_read(built_demo):
        page = soup(path)
        symbols = {s["id"] for s in page.select("svg.icon-sprite symbol")}
        used = {use["href"][1:] for use in page.select("svg.icon use")}
        assert used <= symbols, f"{path}: {used - symbols}"
        used_anywhere |= used
    assert {"icon-orcid", "icon-google_scholar", "icon-github", "icon-arxiv", "icon-email", "icon-doi", "icon-pdf", "icon-code"} <= used_anywhere


@pytest.mark.slow
def test_every_page_has_open_graph_and_twitter_tags(built_demo):
    for path in pages_to_read(built_demo):
        page = soup(path)
        properties = {m["property"]: m["content"] for m in page.find_all("meta", property=True)}
        names = {m["name"]: m["content"] for m in page.find_all("meta", attrs={"name": True})}
        assert properties["og:title"] == text(page.title), path
        assert properties["og:description"] and names["twitter:description"] == properties["og:description"], path
        if path.parent.name in ("muller2025kestrel", "preemptible-training"):  # the record and project with a picture (`image:`) show that
            assert properties["og:image"] == names["twitter:image"] == "https://lena-muller.github.io/static/previews/kestrel.png", path
            assert names["twitter:card"] == "summary_large_image"
        elif path.parent.name == "gradient-compression":  # a project's picture of its folder
            assert properties["og:image"] == names["twitter:image"] == "https://lena-muller.github.io/projects/gradient-compression/bytes-per-step.png", path
            assert names["twitter:card"] == "summary_large_image"
        else:  # every other page: the profile's photo
            assert properties["og:image"] == names["twitter:image"] == "https://lena-muller.github.io/static/lena.png", path
            assert names["twitter:card"] == "summary"


@pytest.mark.slow
def test_analytics_load_nothing_unless_configured(built_demo, tmp_path):
    for path in built_demo.rglob("*.html"):
        for script in soup(path).find_all("script", src=True):
            assert script["src"].startswith("/static/"), f"{path}: {script}"
    files = rendered_files(site_with(tmp_path, {}, "analytics:\n  plausible: example.org\n"))
    [script] = [s for s in soup_of(files["index.html"]).find_all("script", src=True) if not s["src"].startswith("/static/")]
    assert script["src"] == "https://plausible.io/js/script.js" and script["data-domain"] == "example.org"
    goat = rendered_files(site_with(tmp_path / "goat", {}, "analytics: {goatcounter: lena}\n"))
    assert soup_of(goat["cv/index.html" if "cv/index.html" in goat else "index.html"]).find(
        "script", attrs={"data-goatcounter": "https://lena.goatcounter.com/count"}
    )
    assert "content/site.yaml:3: field 'analytics': plausible takes the site's domain" in build_fails(
        site_with(tmp_path / "bad", {}, "analytics:\n  plausible: 'x\" onload=\"alert(1)'\n")
    )


def test_search_engines_verification_codes_are_meta_tags_of_every_page(tmp_path):
    """Google Search Console and Bing Webmaster Tools verify a https://user.github.io/repo/ site only by a
    meta tag on its home page (no DNS record of github.io, no file at the site's root): site.yaml names the codes."""
    settings = "verification:\n  google: [abcDEF_123-xyz, second-OWNER_code]\n  bing: 0123456789ABCDEF0123456789ABCDEF\n"
    files = rendered_files(site_with(tmp_path, {}, settings, base_url="https://user.github.io/repo/"))
    for path in ("index.html", "records/art/index.html"):
        head = soup_of(files[path]).head
        assert [m["content"] for m in head.find_all("meta", attrs={"name": "google-site-verification"})] == ["abcDEF_123-xyz", "second-OWNER_code"]
        assert [m["content"] for m in head.find_all("meta", attrs={"name": "msvalidate.01"})] == ["0123456789ABCDEF0123456789ABCDEF"]
    plain = rendered_files(site_with(tmp_path / "plain", {}))
    assert not soup_of(plain["index.html"]).find("meta", attrs={"name": re.compile("verification|msvalidate")})


def test_the_pages_of_a_long_list_have_titles_and_descriptions_of_their_own(tmp_path):
    """Search Console and Bing report pages sharing one <title> as duplicates: page 2 of the profile's or a
    subject's list says which page it is, page 1 keeps its title."""
    records = "".join(
        f"- {{id: r{n}, title: Paper {n}, authors: [Ada Lovelace], year: {2000 + n}, type: article, source: J, categories: [cs.DC]}}\n" for n in range(5)
    )
    site = site_with(tmp_path, {"content/records/a.yaml": records}, "records_per_page: 2\ndescription: Papers of Ada.\n")
    files = rendered_files(site)

    def head(path: str) -> tuple[str, str]:
        page = soup_of(files[path])
        return text(page.title), page.find("meta", attrs={"name": "description"})["content"]

    assert head("index.html") == ("Ada Lovelace", "Papers of Ada.")
    assert head("page/2/index.html") == ("Ada Lovelace · page 2 of 3", "Papers of Ada. (page 2 of 3)")
    assert head("page/3/index.html")[0] == "Ada Lovelace · page 3 of 3"
    assert head("subjects/cs.DC/page/2/index.html") == (
        "Distributed, Parallel, and Cluster Computing · Ada Lovelace · page 2 of 3",
        "5 publications by Ada Lovelace in Distributed, Parallel, and Cluster Computing (page 2 of 3)",
    )
    titles = [head(path)[0] for path in files if path.endswith(".html")]
    assert len(titles) == len(set(titles))


def test_a_page_of_a_split_list_does_not_tell_readers_without_javascript_that_every_record_is_below(tmp_path):
    records = "".join(
        f"- {{id: r{n}, title: Paper {n}, authors: [Ada Lovelace], year: {2000 + n}, type: article, source: J, categories: [cs.DC]}}\n" for n in range(5)
    )
    files = rendered_files(site_with(tmp_path, {"content/records/a.yaml": records}, "records_per_page: 2\n"))
    for path in ("index.html", "page/2/index.html", "subjects/cs.DC/index.html", "subjects/cs.DC/page/3/index.html"):
        form = soup_of(files[path]).find("form", class_="search")
        listed = len(soup_of(files[path]).select("li.record"))
        assert listed < 5
        note = text(form.find("p", class_="search-count").find("noscript"))
        assert "every one is listed below" not in note, path
        assert note == "(searching needs JavaScript: this page lists some of them, the pages linked below the list the others)", path
        assert "Every publication is listed below" not in form["data-text-unavailable"], path
    # an unsplit list still says that every record is below
    whole = soup_of(rendered_files(site_with(tmp_path / "whole", {"content/records/a.yaml": records}, ""))["index.html"])
    assert text(whole.find("p", class_="search-count").find("noscript")) == "(searching needs JavaScript: every one is listed below)"


@pytest.mark.slow
def test_a_verification_tag_pasted_whole_is_an_error_naming_the_code(tmp_path):
    pasted = 'verification:\n  google: \'<meta name="google-site-verification" content="abcDEF_123" />\'\n  altavista: x1\n'
    errors = build_fails(site_with(tmp_path, {}, pasted))
    assert "content/site.yaml:4: field 'verification.google': write the code alone, the content of the tag: google: \"abcDEF_123\"" in errors
    assert "content/site.yaml:5: field 'verification': unknown search engine 'altavista'; sitegen knows baidu, bing, google, naver, yandex" in errors
    dns = build_fails(site_with(tmp_path / "dns", {}, "verification:\n  google: google-site-verification=abcDEF_123\n"))
    assert "content/site.yaml:4: field 'verification.google': write the code alone" in dns and 'google: "abcDEF_123"' in dns


# -- 7. translations ----------------------------------------------------------------------------------------


def flat_keys(data: dict, prefix: str = "") -> set[str]:
    keys = set()
    for key, value in data.items():
        keys |= flat_keys(value, f"{prefix}{key}.") if isinstance(value, dict) else {f"{prefix}{key}"}
    return keys


def test_every_string_the_templates_name_is_in_the_english_file_and_no_language_has_stray_keys():
    english = flat_keys(yaml.safe_load((THEME / "i18n" / "en.yaml").read_text(encoding="utf-8")))
    named = {m for path in (THEME / "templates").rglob("*.html") for m in re.findall(r'_\("([^"]+)"\)', path.read_text(encoding="utf-8"))}
    assert named <= english
    shipped = sorted(path.stem for path in (THEME / "i18n").glob("*.yaml"))
    assert {"de", "fr", "es", "ca", "nl"} <= set(shipped)
    for language in shipped:
        assert flat_keys(yaml.safe_load((THEME / "i18n" / f"{language}.yaml").read_text(encoding="utf-8"))) - LANGUAGE_OWN_KEYS <= english, language


@pytest.mark.slow
def test_a_german_site_shows_the_themes_strings_and_dates_in_german(demo_site):
    settings = demo_site / "content" / "site.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("language: en", "language: de"), encoding="utf-8")
    files = rendered_files(demo_site)
    index = soup_of(files["index.html"])
    assert [title for title, _ in menu(index)][:1] == ["Publikationen"] and ("Lebenslauf", "/cv/") in menu(index)
    assert text(index.select_one("#publications-heading")) == "Publikationen"
    assert "Zeitschriftenartikel" in text(index.select_one("#publications")) and "Journal article" not in text(index.select_one("#publications"))
    assert "2. April 2025" in text(soup_of(files["news/index.html"]))
    assert "April 2024 – heute" in text(soup_of(files["cv/index.html"]))
    record = next(name for name in files if name.startswith("records/") and name.endswith("/index.html"))
    assert_no_english_chrome(files, record)
    search = soup_of(files["index.html"]).select_one("form.search")
    assert search["aria-label"] == "Publikationen durchsuchen und filtern" and search["data-text-found"] == "{found} von {total} {publications}"
    assert soup_of(files[record]).select_one("section.cite")["data-text-copied"] == "Kopiert"  # what copy.js and cite.js say
    assert ["article", "Zeitschriftenartikel"] in json.loads(files["search/facets.json"])["types"]  # the type filter


def assert_no_english_chrome(files: dict[str, bytes], record: str) -> None:
    """No page shows the theme's English words once the owner's content and records are taken out."""
    for name in ("index.html", "cv/index.html", "news/index.html", "talks/index.html", "about/index.html", "404.html", record):
        page = soup_of(files[name])
        for theirs in page.select("main .prose, main .bio, main .news-body, main .abstract, main .bibtex, main .authors, main .records, main h1"):
            theirs.decompose()  # the owner's content and records
        shown = text(page.body)
        for english in ("Skip to content", "Latest news", "All news", "Latest posts", "Featured", "Abstract", "Page not found", "– present", "Built with"):
            assert english not in shown, (name, english)
        for english in ("Search", "All years", "Copy", "Cite", "All entries", "Formatting"):  # the search form and the citations
            assert not re.search(rf"\b{english}\b", shown), (name, english)


@pytest.mark.slow
def test_a_french_site_shows_the_themes_strings_dates_and_numbers_in_french_without_a_warning(demo_site):
    """`init --language fr` warned that the theme had no French, and a Montréal researcher's site said "Skip to
    content", "Abstract" and "March 14, 2025" under <html lang="fr">, until ~300 strings were translated by hand."""
    settings = demo_site / "content" / "site.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("language: en", "language: fr-CA"), encoding="utf-8")
    result = run_sitegen("check", "--strict", "--site", str(demo_site))
    assert result.returncode == 0 and "translation" not in result.stderr, result.stderr
    files = rendered_files(demo_site)
    index = soup_of(files["index.html"])
    assert index.find("html")["lang"] == "fr-CA" and text(index.select_one(".skip-link")) == "Aller au contenu"
    assert ("CV", "/cv/") in menu(index) and ("Actualités", "/news/") in menu(index)
    assert "Article de revue" in text(index.select_one("#publications")) and "Journal article" not in text(index.select_one("#publications"))
    assert "2 avril 2025" in text(soup_of(files["news/index.html"]))
    assert "avril 2024 – aujourd'hui" in text(soup_of(files["cv/index.html"]))
    record = next(name for name in files if name.startswith("records/") and name.endswith("/index.html"))
    assert_no_english_chrome(files, record)
    named = [span.get_text() for span in index.select("#publications a .visually-hidden")]
    assert named and all(re.fullmatch(r" de «\u00a0.+\u00a0»", name) for name in named), named  # "PDF de « Le titre »"
    search = index.select_one("form.search")
    assert search["aria-label"] == "Rechercher et filtrer les publications" and search["data-text-found"] == "{found} sur {total} {publications}"
    assert ["article", "Article de revue"] in json.loads(files["search/facets.json"])["types"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "language, skip, news, record_type, date",
    [
        ("es", "Ir al contenido", "Noticias", "Artículo de revista", "2 de abril de 2025"),
        ("ca", "Vés al contingut", "Notícies", "Article de revista", "2 d'abril de 2025"),
        ("nl-BE", "Naar de inhoud", "Nieuws", "Tijdschriftartikel", "2 april 2025"),
    ],
)
def test_a_spanish_catalan_or_dutch_site_shows_the_themes_strings_in_its_language_without_a_warning(demo_site, language, skip, news, record_type, date):
    """A Barcelona colleague's site (Catalan, Spanish) and a Brussels one's (Dutch) showed the English strings and
    failed `check --strict` on the missing-translation warning."""
    settings = demo_site / "content" / "site.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("language: en", f"language: {language}"), encoding="utf-8")
    result = run_sitegen("check", "--strict", "--site", str(demo_site))
    assert result.returncode == 0 and "translation" not in result.stderr, result.stderr
    files = rendered_files(demo_site)
    index = soup_of(files["index.html"])
    assert text(index.select_one(".skip-link")) == skip and (news, "/news/") in menu(index)
    assert record_type in text(index.select_one("#publications")) and "Journal article" not in text(index.select_one("#publications"))
    assert date in text(soup_of(files["news/index.html"]))
    record = next(name for name in files if name.startswith("records/") and name.endswith("/index.html"))
    assert_no_english_chrome(files, record)


@pytest.mark.slow
def test_what_a_sites_base_template_adds_to_head_scripts_and_footer_is_on_every_page(demo_site):
    (demo_site / "templates").mkdir()
    (demo_site / "templates" / "base.html").write_text(
        '{% extends "!theme/base.html" %}'
        '{% block head %}{{ super() }}<link rel="stylesheet" href="{{ site.static_url }}custom.css">{% endblock %}'
        '{% block scripts %}{{ super() }}<script src="{{ site.static_url }}custom.js" defer></script>{% endblock %}'
        '{% block footer %}<p class="my-footer">Hosted by the lab</p>{% endblock %}',
        encoding="utf-8",
    )
    files = rendered_files(demo_site)
    pages = [name for name in files if name.endswith(".html")]
    assert {"index.html", "404.html", "cv/index.html", "posts/index.html"} <= set(pages) and any(name.startswith("records/") for name in pages)
    for name in pages:
        page = soup_of(files[name])
        if page.find("meta", attrs={"http-equiv": "refresh"}):
            continue  # a redirect of an old address
        assert page.select_one('head link[href$="custom.css"]') is not None, name
        assert page.select_one('script[src$="custom.js"]') is not None, name
        assert text(page.select_one("footer .my-footer")) == "Hosted by the lab" and "Built with" not in text(page.select_one("footer")), name


# -- 8. the classic theme -------------------------------------------------------------------------------------


def test_the_classic_theme_is_a_one_column_page_sharing_the_default_templates(demo_site):
    settings = demo_site / "content" / "site.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("theme: default", "theme: classic"), encoding="utf-8")
    files = rendered_files(demo_site)
    index = soup_of(files["index.html"])
    sheets = [link["href"] for link in index.find_all("link", rel="stylesheet")]
    assert sheets == ["/static/style.css", "/static/classic.css"]
    assert "classic" in index.body["class"]
    assert "static/classic.css" in files and "/* sitegen classic" in files["static/classic.css"].decode()
    # the default theme's record pages, CV and menu, through `extends: default`
    assert soup_of(files["cv/index.html"]).select_one("article.cv") is not None
    assert menu(soup_of(files["talks/index.html"]))[0] == ("Publications", "/#publications")


# -- 10. the same bar -------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_demo_builds_its_homepage_under_a_sub_path(demo_site, tmp_path):
    output = tmp_path / "out"
    result = run_sitegen("build", "--site", str(demo_site), "--output", str(output), "--base-url", "https://example.org/repo/")
    assert result.returncode == 0, result.stderr
    cv = soup(output / "cv" / "index.html")
    assert all(href.startswith(("/repo/", "https://", "mailto:", "#")) for href in (a["href"] for a in cv.find_all("a", href=True))), [
        a["href"] for a in cv.find_all("a", href=True)
    ]
    assert soup(output / "news" / "index.html").find("link", rel="alternate", href="/repo/news/feed.xml") is not None


@pytest.mark.parametrize("protected", [False, True])
def test_protect_email_keeps_addresses_from_harvesters_and_readable_to_visitors(tmp_path, protected):
    """A university's data-protection office asks that the addresses on a page not be collected by the programs that
    read pages for `mailto:` and `name@host`: with `protect_email: true` the profile's and the people's addresses are
    encoded in the page (visitors see and click them as before, without JavaScript too) and left out of JSON-LD."""
    files = rendered_files(
        site_with(
            tmp_path,
            {
                "content/profile.yaml": "name: Ada Lovelace\nemail: ada.lovelace@uni.example\n",
                "content/people/babbage.yaml": "name: Charles Babbage\nemail: c.babbage@uni.example\n",
            },
            settings="protect_email: true\n" if protected else "",
        )
    )
    for path, address in (("index.html", "ada.lovelace@uni.example"), ("people/babbage/index.html", "c.babbage@uni.example")):
        page = soup_of(files[path])
        link = page.select_one("li.link-email a")
        assert link.get_text(strip=True).endswith(address)  # as a visitor reads it
        assert unquote(link["href"]) == f"mailto:{address}"  # as the browser opens it
        said = [json.loads(script.string) for script in page.find_all("script", type="application/ld+json")]
        if protected:
            assert address.encode() not in files[path] and b"mailto:" not in files[path], path
            assert all("email" not in data.get("mainEntity", data) for data in said)
        else:  # a person's ProfilePage names its person's address, a lab's Organization its own
            assert any(data.get("mainEntity", data).get("email") == f"mailto:{address}" for data in said)


def test_protect_email_of_another_type_is_a_mistake_at_its_line(tmp_path):
    assert "content/site.yaml:3: field 'protect_email': expected true or false, got 'yes'" in build_fails(
        site_with(tmp_path, {}, settings='protect_email: "yes"\n')
    )


def test_profile_links_of_research_sites_are_named_as_they_spell_themselves(tmp_path):
    """ResearchGate, OpenReview, Hugging Face: a link kind sitegen did not know was labelled by its key
    ('Researchgate', 'Openreview', 'Huggingface'), and a bare user name was no address."""
    profile = "name: Ada Lovelace\nlinks:\n  researchgate: Ada_Lovelace\n  openreview: ~Ada_Lovelace1\n  huggingface: ada\n  ssrn: https://ssrn.com/author=1\n"
    page = soup_of(rendered_files(site_with(tmp_path, {"content/profile.yaml": profile}))["index.html"])
    links = {a.get_text(" ", strip=True): a["href"] for a in page.find(class_="profile").find_all("a")}
    assert links["ResearchGate"] == "https://www.researchgate.net/profile/Ada_Lovelace"
    assert links["OpenReview"] == "https://openreview.net/profile?id=~Ada_Lovelace1"
    assert links["Hugging Face"] == "https://huggingface.co/ada"
    assert links["SSRN"] == "https://ssrn.com/author=1"


# -- the look without a theme: accent, fonts, dark mode ---------------------------------------------


STYLE_MARK = "/* site.yaml: accent, accent_dark, font, heading_font */\n"


def page_style(page: BeautifulSoup, output: Path) -> str:
    """The CSS of site.yaml's look: the end of the theme's style.css, which the page links first; never an inline
    <style>, which a Content-Security-Policy of `default-src 'self'` (a university's web server) refuses, nor a
    stylesheet more for the page to wait for."""
    assert page.find("style") is None
    links = page.head.find_all("link", rel="stylesheet")
    assert [link["href"].rsplit("/", 1)[-1] for link in links] == ["style.css"]
    css = (output / links[0]["href"].lstrip("/")).read_text(encoding="utf-8")  # a site at the domain's root
    assert css.count(STYLE_MARK) == 1
    return css.split(STYLE_MARK)[1]


def custom_properties(css: str, scheme: str) -> dict[str, str]:
    """The custom properties the CSS gives in the light scheme (its first rule) or the dark one."""
    rules = re.findall(r"\{ (--[^{}]*) \}", css)
    chosen = rules[0] if scheme == "light" else rules[1]
    return dict(re.findall(r"(--[\w-]+): ([^;]+?) !important", chosen))


@pytest.mark.slow
def test_an_accent_colour_in_site_yaml_colours_every_page_in_both_schemes(tmp_path):
    """A student's own colour was a stylesheet to write, and the theme's dark selectors kept dark mode blue."""
    from sitegen.homepage.appearance import DARK_PAGE, contrast, parse_colour

    site = site_with(tmp_path, {}, settings='accent: "#b5179e"\n')
    result = run_sitegen("build", "--strict", "--site", str(site))
    assert result.returncode == 0, result.stderr
    for path in ("index.html", "records/art/index.html", "404.html"):
        css = page_style(soup(site / "output" / path), site / "output")
        light, dark = custom_properties(css, "light"), custom_properties(css, "dark")
        assert light["--accent"] == "#b5179e"
        assert light["--accent-text"] == "#ffffff"
        assert dark["--accent"] != "#b5179e" and contrast(parse_colour(dark["--accent"]), DARK_PAGE) >= 7
        assert '[data-colour-scheme="dark"]' in css and "prefers-color-scheme: dark" in css
    plain = site_with(tmp_path / "plain", {})
    assert run_sitegen("build", "--site", str(plain)).returncode == 0
    assert STYLE_MARK not in (plain / "output/static/style.css").read_text(encoding="utf-8")
    assert not (plain / "output/static/site-settings.css").exists()


@pytest.mark.slow
def test_a_chosen_dark_accent_and_fonts_are_used_as_written(tmp_path):
    settings = 'accent: "#075"\naccent_dark: "#7fe0c0"\nfont: serif\nheading_font: [Avenir Next, sans-serif]\n'
    site = site_with(tmp_path, {}, settings=settings)
    result = run_sitegen("build", "--strict", "--site", str(site))
    assert result.returncode == 0, result.stderr
    css = page_style(soup(site / "output/index.html"), site / "output")
    assert custom_properties(css, "light")["--accent"] == "#007755"
    assert custom_properties(css, "dark")["--accent"] == "#7fe0c0"
    assert custom_properties(css, "light")["--sans"].endswith('Georgia, "DejaVu Serif", serif')
    assert 'h1, h2, h3, h4, .site-name { font-family: "Avenir Next", sans-serif !important; }' in css


@pytest.mark.slow
@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            "accent: #b5179e\n",
            "content/site.yaml:3: field 'accent': a # after a space starts a YAML comment, so this colour is not read; write it in quotes: accent: \"#b5179e\"",
        ),
        ('accent: "magenta"\n', "content/site.yaml:3: field 'accent': expected a colour as #rrggbb in quotes (accent: \"#b5179e\"), got 'magenta'"),
        ("font: 'Comic Sans; color: red'\n", "content/site.yaml:3: field 'font': expected serif, sans-serif, monospace, or font names"),
        ("dark_mode: sometimes\n", "content/site.yaml:3: field 'dark_mode': expected auto (the visitor's setting), false (light only)"),
    ],
)
def test_a_wrong_look_setting_is_a_mistake_at_its_line(tmp_path, settings, message):
    assert message in build_fails(site_with(tmp_path, {}, settings=settings))


@pytest.mark.slow
def test_an_accent_too_light_to_read_is_a_warning_with_a_shade_that_reads(tmp_path):
    from sitegen.homepage.appearance import contrast, parse_colour

    result = run_sitegen("check", "--site", str(site_with(tmp_path, {}, settings='accent: "#ffd500"\n')))
    assert result.returncode == 0, result.stderr
    found = re.search(
        r"content/site\.yaml:3: warning: field 'accent': #ffd500 is hard to read on the white page \(contrast 1\.\d:1; links need "
        r'4\.5:1\): a darker shade such as accent: "(#[0-9a-f]{6})" reads well',
        result.stderr,
    )
    assert found, result.stderr
    assert contrast(parse_colour(found[1]), (255, 255, 255)) >= 4.5


@pytest.mark.slow
@pytest.mark.parametrize(("written", "meant"), [("accent_color", "accent"), ("theme_colour", "accent"), ("color_scheme", "dark_mode")])
def test_a_look_setting_by_another_tools_name_names_sitegens(tmp_path, written, meant):
    result = run_sitegen("check", "--site", str(site_with(tmp_path, {}, settings=f'{written}: "#b5179e"\n')))
    assert f"did you mean '{meant}'" in result.stderr, result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("setting", "scheme", "toggle"), [("false", "light", False), ("true", "dark", True), ("auto", None, True)])
def test_dark_mode_can_be_turned_off_or_made_the_start(tmp_path, setting, scheme, toggle):
    site = site_with(tmp_path, {}, settings=f"dark_mode: {setting}\n")
    result = run_sitegen("build", "--strict", "--site", str(site))
    assert result.returncode == 0, result.stderr
    page = soup(site / "output/index.html")
    assert page.html.get("data-colour-scheme") == scheme
    assert (page.find("button", class_="scheme-toggle") is not None) == toggle
    assert page.find("meta", attrs={"name": "color-scheme"})["content"] == {"light": "light", "dark": "dark light", None: "light dark"}[scheme]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("files", "icon", "kind"),
    [
        ({}, "/static/favicon.svg", "image/svg+xml"),  # the theme's
        ({"static/favicon.png": "PNG"}, "/static/favicon.png", "image/png"),
        ({"static/favicon.ico": "ICO"}, "/static/favicon.ico", "image/x-icon"),
        ({"static/favicon.ico": "ICO", "static/favicon.svg": "<svg/>"}, "/static/favicon.svg", "image/svg+xml"),
    ],
)
def test_a_favicon_in_static_is_the_pages_icon(tmp_path, files, icon, kind):
    """A favicon.png or favicon.ico (what favicon generators give) in static/ was copied and never named: every page
    kept the theme's favicon.svg."""
    site = site_with(tmp_path, files, base_url="/")
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    for path in ("index.html", "records/art/index.html"):
        icons = soup(site / "output" / path).find_all("link", rel="icon")
        assert [(link["href"], link["type"]) for link in icons] == [(icon, kind)]


@pytest.mark.slow
def test_a_camera_sized_photo_is_a_warning_and_a_small_one_is_not(tmp_path):
    """A 4000x3000 JPEG of 9 MB was copied as it was and loaded by every visitor for a 160 pixel circle."""
    profile = "name: Priya Raman\nphoto: photo.jpg\n"
    site = site_with(tmp_path, {"content/profile.yaml": profile, "static/photo.jpg": "x" * 9_300_000})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert (
        "content/profile.yaml:2: warning: field 'photo': photo.jpg is 9.3 MB, which every visitor loads for a picture shown 160 "
        "pixels wide: a copy about 500 pixels wide (a JPEG of some 100 kB) looks the same and loads at once"
    ) in result.stderr
    (site / "static/photo.jpg").write_text("x" * 120_000)
    result = run_sitegen("build", "--strict", "--site", str(site))
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
def test_a_records_picture_of_megabytes_is_a_warning_at_its_image_line(tmp_path):
    """A 2.4 MB teaser was published as it was: the record page's largest element, 13 s to show on a phone (Lighthouse
    mobile), and the file behind its thumbnail in every list; the profile's photo warned, the record's picture did not."""
    record = "id: big\ntitle: A paper\nauthors: [Ada Lovelace]\nyear: 2024\nsource: J\ntype: article\nimage: static/previews/teaser.png\n"
    site = site_with(tmp_path, {"content/records/big.yaml": record, "static/previews/teaser.png": "x" * 2_400_000})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert (
        "content/records/big.yaml:7: warning: field 'image': static/previews/teaser.png is 2.4 MB, which every visitor of the "
        "record's page loads, and every list that shows its thumbnail: a copy about 1,400 pixels wide (a JPEG of some 200 kB) "
        "looks the same and loads at once"
    ) in result.stderr
    (site / "static/previews/teaser.png").write_text("x" * 300_000)
    result = run_sitegen("build", "--strict", "--site", str(site))
    assert result.returncode == 0, result.stderr


def jpeg_with_exif(gps: bool) -> bytes:
    """A small JPEG whose EXIF names its author and, with `gps`, the latitude where it was taken (as a phone writes it)."""
    artist = b"Priya Raman\x00"
    entries = [(0x013B, 2, len(artist), 8 + 2 + 2 * 12 + 4)]  # Artist, its text after IFD0
    gps_at = 8 + 2 + 2 * 12 + 4 + len(artist)
    entries.append((0x8825, 4, 1, gps_at) if gps else (0x0131, 2, 1, 0))  # GPSInfo, or an empty Software
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 2)
    tiff += b"".join(struct.pack("<HHII", *entry) for entry in entries) + struct.pack("<I", 0) + artist
    if gps:
        rationals_at = gps_at + 2 + 2 * 12 + 4
        tiff += struct.pack("<H", 2) + struct.pack("<HHI4s", 1, 2, 2, b"N\x00\x00\x00") + struct.pack("<HHII", 2, 5, 3, rationals_at)
        tiff += struct.pack("<I", 0) + struct.pack("<6I", 48, 1, 8, 1, 3000, 100)
    exif = b"Exif\x00\x00" + tiff
    return b"\xff\xd8" + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + b"\xff\xd9"


@pytest.mark.slow
def test_a_photo_that_says_where_it_was_taken_is_a_warning(tmp_path):
    """A phone's portrait carries the GPS position where it was taken (at home, say) in its EXIF data, published as it
    came for anyone who saves the picture to read; the build said nothing."""
    site = site_with(
        tmp_path, {"content/profile.yaml": "name: Priya Raman\nphoto: photo.jpg\n", "content/people/ada.yaml": "name: Ada Lovelace\nphoto: ada.jpg\n"}
    )
    (site / "static").mkdir()
    (site / "static/photo.jpg").write_bytes(jpeg_with_exif(gps=True))
    (site / "static/ada.jpg").write_bytes(jpeg_with_exif(gps=False))
    result = run_sitegen("check", "--site", str(site))
    assert result.returncode == 0, result.stderr
    found = [line for line in result.stderr.splitlines() if "where it was taken" in line]
    assert found == [
        "content/profile.yaml:2: warning: field 'photo': photo.jpg says where it was taken (a GPS position in its EXIF data), "
        "which anyone who saves the picture can read: remove it before publishing (exiftool -gps:all= static/photo.jpg, "
        "or your photo app's 'remove location')"
    ], result.stderr
    (site / "static/photo.jpg").write_bytes(jpeg_with_exif(gps=False))
    assert "where it was taken" not in run_sitegen("check", "--site", str(site)).stderr


def test_a_photo_named_in_another_case_is_named_as_the_file_is(tmp_path):
    site = site_with(tmp_path, {"content/profile.yaml": "name: Priya Raman\nphoto: Photo.JPG\n", "static/photo.jpg": "JPEG"})
    result = run_sitegen("check", "--site", str(site))
    assert (
        "content/profile.yaml:2: warning: field 'photo': no file static/Photo.JPG in the site; the photo is left out; did you mean 'photo.jpg'?"
        in result.stderr
    )


def test_a_photo_whose_name_has_a_space_is_a_valid_address(tmp_path):
    """`photo: "My Photo.jpg"` gave src="/static/My Photo.jpg": a raw space, which HTML validators and link
    preview crawlers reject."""
    site = site_with(tmp_path, {"content/profile.yaml": 'name: Priya Raman\nphoto: "My Photo.jpg"\n', "static/My Photo.jpg": "JPEG"})
    page = soup_of(rendered_files(site)["index.html"])
    assert page.select_one("img.photo")["src"] == "/static/My%20Photo.jpg"
    assert page.find("meta", property="og:image")["content"] == "https://example.org/static/My%20Photo.jpg"
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    assert (site / "output/static/My Photo.jpg").is_file()


def test_a_long_list_leaves_its_years_out_of_view_unrendered_from_the_first_paint(tmp_path):
    """A list of 150 records or more on one page has `search-long` in the page itself (style.css: its years out of
    view are not rendered): search.js added it only once search/facets.json had arrived, after the browser had laid
    out every record (Lighthouse mobile 83-90 against 99 for 250 records), and never without JavaScript."""
    records = "".join(
        f"- {{id: r{n}, title: Paper {n}, authors: [Ada Lovelace, Ben Okafor], year: {1990 + n % 30}, type: article, source: J, categories: [cs.DC]}}\n"
        for n in range(160)
    )
    files = rendered_files(site_with(tmp_path / "long", {"content/records/a.yaml": records}, "people: authors\nrecords_per_page: 155\n"))

    def long_lists(path: str) -> list[bool]:
        return ["search-long" in section["class"] for section in soup_of(files[path]).select("section.publications")]

    assert long_lists("index.html") == [True]
    assert long_lists("page/2/index.html") == [False]  # its last 5
    assert long_lists("subjects/cs.DC/index.html") == [True]
    assert long_lists("people/ben-okafor/index.html") == [True]
    short = rendered_files(site_with(tmp_path / "short", {}))
    assert soup_of(short["index.html"]).select("section.publications.search-long") == []


def test_the_pictures_of_a_text_below_its_first_load_as_the_reader_scrolls_to_them(tmp_path):
    """A post's Markdown pictures had neither loading="lazy" nor decoding="async": a phone downloaded every figure of a
    long post before the reader scrolled. The first picture of a text loads at once (it may be what the page shows
    first: lazy, it would show later); the others when the reader comes near them, as the lists' thumbnails do."""
    body = "Intro.\n\n![Week one](static/one.png)\n\nMore text.\n\n![Week two](static/two.png)\n\n![Week three](static/three.png)\n"
    files = {
        "content/posts/2025-06-01-figures.md": f"---\ntitle: Figures\ndate: 2025-06-01\n---\n{body}",
        "content/pages/results.md": f"---\ntitle: Results\n---\n{body}",
        **{f"static/{name}.png": "png" for name in ("one", "two", "three")},
    }
    rendered = rendered_files(site_with(tmp_path, files))
    for path in ("posts/figures/index.html", "results/index.html"):
        pictures = [(img["alt"], img.get("loading"), img.get("decoding")) for img in soup_of(rendered[path]).select("main img")]
        assert pictures == [("Week one", None, "async"), ("Week two", "lazy", "async"), ("Week three", "lazy", "async")], path
