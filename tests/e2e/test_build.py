"""End to end: the real `sitegen` command on the demo site and on small fixture sites.

Assertions are on what a reader or a program sees: parsed HTML, BibTeX parsed
with bibtexparser, the feed parsed with feedparser, exit codes and stderr.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urljoin

import bibtexparser
import feedparser
import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, REPO, copy_demo, run_sitegen, write_site
from jsonschema import Draft202012Validator

from sitegen.categories import subject_name
from sitegen.exports.bibtex import LINK_FIELDS
from sitegen.load import load_site
from sitegen.model import RECORD_TYPES
from sitegen.names import csl_name, family_first
from sitegen.prepare import read_inputs
from sitegen.validate import validate_site

HIDDEN_ID = "2306.07712"
HIDDEN_TITLE = "Checkpointing on Preemptible GPUs"
OWNER_NAMES = {"Lena Müller", "L. Müller", "Lena Mueller"}


# -- helpers -----------------------------------------------------------------------


def page(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def html_pages(root: Path) -> list[Path]:
    return sorted(root.rglob("*.html"))


def tree(root: Path) -> dict[str, str]:
    """Every file under root, hidden ones too -> sha256 of its bytes."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}


def visible_text(soup: BeautifulSoup) -> str:
    """The text a person reads on the page: body text (BibTeX <pre> blocks left out) and tooltips."""
    body = BeautifulSoup(str(soup.body), "html.parser")
    for hidden in body.find_all(["pre", "script", "style", "template"]):
        hidden.decompose()
    tooltips = [value for tag in body.find_all(True) for name in ("title", "alt", "aria-label") if (value := tag.get(name))]
    return body.get_text(" ") + " " + " ".join(tooltips)


def json_strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in json_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in json_strings(v)]
    return []


def jsonld(soup: BeautifulSoup) -> list[dict]:
    return [json.loads(script.string) for script in soup.find_all("script", type="application/ld+json")]


def meta(soup: BeautifulSoup, name: str) -> list[str]:
    return [tag["content"] for tag in soup.find_all("meta", attrs={"name": name})]


RAW_LATEX = re.compile(r"\\|\$|\{\\|\\textbf|\\emph|\\times")


def assert_no_raw_latex(text: str, where: str) -> None:
    match = RAW_LATEX.search(text)
    assert match is None, f"raw LaTeX in {where}: ...{text[max(0, match.start() - 60) : match.end() + 60]}..."


@pytest.fixture(scope="module")
def demo_records():
    """The demo site's records as validated, hidden ones included."""
    valid = validate_site(load_site(*read_inputs(REPO)))
    assert valid.errors == []
    return valid.records


@pytest.fixture(scope="module")
def shown(demo_records):
    return [r for r in demo_records if not r.hidden]


@pytest.fixture(scope="module")
def index(built_demo) -> BeautifulSoup:
    return page(built_demo / "index.html")


# -- 2. the demo content ------------------------------------------------------------------


def test_demo_content_is_rich_enough(demo_records):
    shown = [r for r in demo_records if not r.hidden]
    assert len(shown) >= 20
    assert len({r.year for r in shown}) >= 6
    assert len({c for r in shown for c in r.categories}) >= 5
    assert any("$" in r.title for r in shown), "inline math in a title"
    assert sum("$" in r.abstract for r in shown) >= 3, "inline math in abstracts"
    assert any("\\textbf{(i)}" in r.abstract for r in shown)
    assert any("\\emph{" in r.abstract for r in shown)
    assert any('M{\\"u}ller' in a for r in shown for a in r.authors)
    assert len([r for r in demo_records if r.hidden]) >= 1
    assert any(r.featured for r in shown)
    links = {kind for r in shown for kind in r.links}
    assert {"code", "pdf", "doi"} <= links


# -- 3. the profile page ---------------------------------------------------------------------


def test_profile_shows_person_affiliation_bio_and_links(index):
    profile = index.find(class_="profile")
    assert profile.find("h1").get_text(strip=True) == "Lena Müller"
    assert "University of Nordhaven" in profile.get_text()
    bio = index.find(class_="bio")
    assert bio.find("em") is not None and "Efficient Systems" in bio.find("em").get_text()  # Markdown became HTML
    assert "*" not in bio.get_text()
    hrefs = [a["href"] for a in profile.find_all("a")]
    assert "mailto:lena.mueller@example.org" in hrefs
    assert "https://orcid.org/0000-0002-1825-0097" in hrefs
    assert any(h.startswith("https://scholar.google.com/") for h in hrefs)
    assert "https://github.com/example-lena" in hrefs
    assert any(h.startswith("https://arxiv.org/a/") for h in hrefs)


def test_record_count_equals_records_shown(index, shown):
    records = index.select("#publications li.record")
    count = index.select_one("#publications .count")
    assert int(count["data-count"]) == len(records) == len(shown)
    assert str(len(shown)) in count.get_text()


def test_records_are_newest_first_grouped_by_year_featured_first(index, shown):
    groups = index.select("#publications .year-group")
    years = [int(g.find(class_="year").get_text(strip=True)) for g in groups]
    assert years == sorted({r.year for r in shown}, reverse=True)
    by_id = {r.id: r for r in shown}
    for group, year in zip(groups, years):
        items = group.select("li.record")
        records = [by_id[li["id"].removeprefix("r-")] for li in items]
        assert {r.year for r in records} == {year}
        featured = [r.featured for r in records]
        assert featured == sorted(featured, reverse=True), f"featured first in {year}"
        rest = [r for r in records if not r.featured]
        keys = [r.date.isoformat() if r.date else f"{r.year}-00-00" for r in rest]
        assert keys == sorted(keys, reverse=True), f"newest first in {year}"
    kestrel = index.find(id="publications").find("li", id="r-muller2025kestrel")
    assert "featured" in kestrel["class"]


def test_each_record_on_the_profile(index, shown, built_demo):
    by_id = {r.id: r for r in shown}
    for item in index.select("#publications li.record"):
        record = by_id[item["id"].removeprefix("r-")]
        title = item.find(class_="record-title").find("a")
        assert title["href"] == f"/records/{record.id.replace('/', '-')}/"
        assert (built_demo / title["href"].strip("/") / "index.html").is_file()
        owners = [s.get_text() for s in item.select(".authors strong.owner")]
        assert owners and set(owners) <= OWNER_NAMES, (record.id, owners)
        authors_text = item.find(class_="authors").get_text()
        assert authors_text.count(",") == len(record.authors) - 1
        venue = item.find(class_="venue").get_text()
        # a thesis's venue is its institution, after the degree its type label names ("PhD thesis · University of ...")
        assert str(record.year) in venue and (record.source in venue or record.source.replace("PhD thesis, ", "PhD thesis · ") in venue)
        subjects = item.select("a.subject")
        assert [a.get_text(" ", strip=True) for a in subjects] == [subject_name(code) for code in record.categories]  # names, the code a hint
        assert [a.get("title", a.get_text(" ", strip=True)) for a in subjects] == list(record.categories)
        for a in subjects:
            assert (built_demo / a["href"].strip("/") / "index.html").is_file()
        if record.abstract:
            assert item.find("details").find(class_="abstract-body").get_text(strip=True)
        hrefs = {a["href"] for a in item.select(".links a")}
        assert set(record.links.values()) <= hrefs


def test_owner_is_not_highlighted_among_coauthors(index):
    item = index.find(id="publications").find("li", id="r-2309.14458")
    assert [s.get_text() for s in item.select("strong.owner")] == ["L. Müller"]
    assert "Tomasz Wierzbicki" in item.find(class_="authors").get_text()


def test_profile_has_person_jsonld(index):
    people = [d["mainEntity"] for d in jsonld(index) if d.get("@type") == "ProfilePage"]
    assert len(people) == 1
    assert people[0]["name"] == "Lena Müller"
    assert people[0]["url"] == "https://lena-muller.github.io/"
    assert "https://github.com/example-lena" in people[0]["sameAs"]


def test_hidden_record_appears_nowhere(built_demo):
    assert not (built_demo / "records" / HIDDEN_ID).exists()
    for path in sorted(built_demo.rglob("*")):
        if path.is_file() and path.suffix in (".html", ".xml", ".json", ".bib", ".txt"):
            text = path.read_text(encoding="utf-8")
            assert HIDDEN_ID not in text and HIDDEN_TITLE not in text, path


# -- 4. record pages, subject pages, 404 ------------------------------------------------------------


# what publications.bib's entries hold beside the record page's (sitegen.exports.bibtex): the record as a whole
PUBLICATIONS_BIB_ONLY = {"url", "biburl", "date", "abstract", "keywords", "shortjournal", "ids", "selected", *LINK_FIELDS}


def test_every_record_has_a_full_page(built_demo, shown):
    bib = {e.key: e for e in bibtexparser.parse_string((built_demo / "publications.bib").read_text()).entries}
    for record in shown:
        soup = page(built_demo / "records" / record.id.replace("/", "-") / "index.html")
        [title] = meta(soup, "citation_title")
        assert soup.find("title").get_text() == f"{title} · Lena Müller"
        assert soup.find("h1").get_text(strip=True)
        assert len(meta(soup, "citation_author")) == len(record.authors)
        date = meta(soup, "citation_publication_date")[0]
        assert date == (record.date.strftime("%Y/%m/%d") if record.date else str(record.year))
        if "pdf" in record.links:
            assert meta(soup, "citation_pdf_url") == [record.links["pdf"]]
        if record.arxiv:
            assert meta(soup, "citation_arxiv_id") == [record.arxiv]
        if record.doi:
            assert meta(soup, "citation_doi") == [record.doi]
        # the BibTeX block parses and is publications.bib's entry, short: its fields but the url have the same values
        block = bibtexparser.parse_string(soup.find("pre", class_="bibtex").get_text())
        assert block.failed_blocks == [] and len(block.entries) == 1
        entry = block.entries[0]
        full = bib[entry.key]
        assert entry.entry_type == full.entry_type and "url" in entry.fields_dict
        assert {name: f.value for name, f in entry.fields_dict.items() if name != "url"} == {
            name: f.value for name, f in full.fields_dict.items() if name not in PUBLICATIONS_BIB_ONLY
        }
        assert entry["url"] == full.fields_dict.get("url", full.fields_dict["biburl"]).value
        # schema.org
        articles = [d for d in jsonld(soup) if d.get("@type") in ("ScholarlyArticle", "Thesis", "Book", "Chapter", "Report", "SoftwareSourceCode", "Dataset")]
        assert len(articles) == 1
        assert articles[0]["headline"] == meta(soup, "citation_title")[0]
        assert [family_first(csl_name(a["name"])) for a in articles[0]["author"]] == meta(soup, "citation_author")
        # the abstract and links are there
        if record.abstract:
            assert soup.find(class_="abstract-body").get_text(strip=True)
        assert set(record.links.values()) <= {a["href"] for a in soup.find_all("a", href=True)}


def test_record_page_of_the_featured_conference_paper(built_demo):
    soup = page(built_demo / "records" / "muller2025kestrel" / "index.html")
    assert meta(soup, "citation_author") == ["Müller, Lena", "Berg, Jonas", "Okonkwo, Mira", "Dupont, André", "Sandvik, Henrik"]
    assert meta(soup, "citation_doi") == ["10.5555/3689031.3717462"]
    assert meta(soup, "citation_pdf_url") == ["https://lena-muller.github.io/papers/kestrel-eurosys25.pdf"]
    assert meta(soup, "citation_publication_date") == ["2025/03/31"]
    assert [s.get_text() for s in soup.select("strong.owner")] == ["Lena Müller"]
    assert meta(soup, "citation_conference_title") == ["Proceedings of EuroSys 2025"]


@pytest.mark.parametrize(
    "record_id, tag, venue",
    [
        ("muller2019innet", "citation_conference_title", "Workshop on Network Meets AI and ML (NetAI 2019)"),
        ("muller2021phd", "citation_dissertation_institution", "University of Nordhaven"),  # its venue without the degree it names
        ("muller2024lattice", "citation_journal_title", "Journal of Parallel and Distributed Computing"),
        ("2410.05523", None, None),
    ],
)
def test_highwire_venue_agrees_with_the_bibtex_entry_type(built_demo, record_id, tag, venue):
    soup = page(built_demo / "records" / record_id / "index.html")
    tags = ("citation_conference_title", "citation_journal_title", "citation_dissertation_institution")
    assert {t: meta(soup, t) for t in tags} == {t: ([venue] if t == tag else []) for t in tags}


VENUE_TAGS = ("citation_conference_title", "citation_journal_title", "citation_dissertation_institution", "citation_technical_report_institution",
              "citation_inbook_title", "citation_publisher")  # fmt: skip


@pytest.mark.parametrize(
    "record_type, tag",
    [
        ("article", "citation_journal_title"),
        ("inproceedings", "citation_conference_title"),
        ("chapter", "citation_inbook_title"),
        ("book", "citation_publisher"),
        ("thesis", "citation_dissertation_institution"),
        ("report", "citation_technical_report_institution"),
        ("preprint", "citation_journal_title"),  # a preprint server such as bioRxiv
        ("software", None),
        ("dataset", None),
        ("patent", None),
        ("other", None),
    ],
)
def test_each_record_type_names_its_venue_as_google_scholar_reads_it_and_has_a_description(tmp_path, record_type, tag):
    """No journal is claimed for software or a dataset; a record without an abstract still has a description; the
    month of a record without a day is in its publication date."""
    record = {
        "id": "r1",
        "title": "A Work",
        "authors": ["Ada Lovelace", "Charles Babbage"],
        "year": 2019,
        "month": 3,
        "type": record_type,
        "source": "The Venue",
    }
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/r1.yaml": yaml.safe_dump(record)})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    soup = page(site / "output" / "records" / "r1" / "index.html")
    assert {name: meta(soup, name) for name in VENUE_TAGS} == {name: (["The Venue"] if name == tag else []) for name in VENUE_TAGS}
    assert meta(soup, "citation_publication_date") == ["2019/03"]
    description = soup.find("meta", attrs={"name": "description"})["content"]
    assert description == "Ada Lovelace, Charles Babbage · The Venue · 2019"
    assert soup.find("meta", property="og:description")["content"] == description


def test_subject_pages_list_the_records_of_each_subject(built_demo, shown):
    subjects = {c for r in shown for c in r.categories}
    assert {p.name for p in (built_demo / "subjects").iterdir()} == subjects
    for code in subjects:
        soup = page(built_demo / "subjects" / code / "index.html")
        listed = {li["id"].removeprefix("r-") for li in soup.select("li.record")}
        assert listed == {r.id for r in shown if code in r.categories}, code
        assert int(soup.select_one(".count")["data-count"]) == len(listed)


def test_404_page_exists_and_is_styled(built_demo):
    soup = page(built_demo / "404.html")
    sheets = [link["href"] for link in soup.find_all("link", rel="stylesheet")]
    assert sheets
    for href in sheets:
        assert href.startswith("/") and (built_demo / href.lstrip("/")).is_file()
    assert soup.find("a", href="/") is not None


# -- 5. math and LaTeX -----------------------------------------------------------------------


def test_math_is_mathml_and_macros_are_html(built_demo):
    soup = page(built_demo / "records" / "2601.08832" / "index.html")
    assert soup.find("h1").find("math") is not None  # $O(n^2)$ in the title
    assert len(soup.find(class_="abstract-body").find_all("math")) >= 5
    assert soup.find("title").get_text().startswith("Breaking the O(n²) Barrier")
    assert meta(soup, "citation_title") == ["Breaking the O(n²) Barrier in Long-Context Prefill with Sketch-Guided Sparse Attention"]
    async_page = page(built_demo / "records" / "2410.05523" / "index.html")
    assert [s.get_text() for s in async_page.find(class_="abstract-body").find_all("strong")] == ["(i)", "(ii)"]
    lattice = page(built_demo / "records" / "muller2024lattice" / "index.html")
    assert "expert affinity" in [e.get_text() for e in lattice.find(class_="abstract-body").find_all("em")]
    names = page(built_demo / "records" / "muller2023ember" / "index.html").find(class_="authors").get_text()
    assert "Zoë Kováč" in names and "Lena Müller" in names


@pytest.mark.slow
def test_no_raw_latex_anywhere_a_person_reads(built_demo):
    for path in html_pages(built_demo):
        soup = page(path)
        where = path.relative_to(built_demo).as_posix()
        assert_no_raw_latex(visible_text(soup), where)
        assert_no_raw_latex(soup.find("title").get_text(), f"<title> of {where}")
        for tag in soup.find_all("meta", content=True):
            if tag.get("name") or tag.get("property"):
                assert_no_raw_latex(tag["content"], f"meta {tag.get('name')} of {where}")
        for data in jsonld(soup):
            for text in json_strings(data):
                assert_no_raw_latex(text, f"JSON-LD of {where}")
    feed = feedparser.parse((built_demo / "feed.xml").read_bytes())
    for entry in feed.entries:
        assert_no_raw_latex(entry.title, "feed title")
        assert_no_raw_latex(entry.get("summary", ""), "feed summary")
        for author in entry.authors:
            assert_no_raw_latex(author.name, "feed author")


@pytest.mark.slow
def test_unconvertible_latex_is_shown_in_code_with_a_warning(tmp_path):
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/records/x.yaml": "id: x\ntitle: 'A \\unknownmacro{x} title'\nyear: 2024\n",
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert (
        "content/records/x.yaml:2: warning: record 'x', field 'title': LaTeX shown as source, cannot convert \\unknownmacro{x}"
        "; write it in Unicode or with the commands listed in docs/content.md (LaTeX and Markdown)"
    ) in result.stderr.splitlines()
    soup = page(site / "output" / "records" / "x" / "index.html")
    assert soup.find("h1").find("code").get_text() == "\\unknownmacro{x}"


# -- 6. exports of the demo ---------------------------------------------------------------


def test_publications_bib_of_the_demo(built_demo, shown):
    library = bibtexparser.parse_string((built_demo / "publications.bib").read_text(encoding="utf-8"))
    assert library.failed_blocks == []
    assert len(library.entries) == len(shown)
    keys = [e.key for e in library.entries]
    assert len(set(keys)) == len(keys)
    assert all(re.fullmatch(r"[a-z]+\d{4}[a-z0-9]*", key) for key in keys)


@pytest.mark.slow
def test_cite_keys_are_identical_across_builds_and_stable_when_a_record_is_added(built_demo, demo_site):
    first = bibtexparser.parse_string((built_demo / "publications.bib").read_text())
    write_site(
        demo_site,
        {
            "content/records/new.yaml": (
                "id: new2026\ntitle: 'Sparse Attention, Again'\nauthors: [Lena Müller, Jonas Berg]\nyear: 2026\ndate: 2026-03-01\nsource: arXiv\n"
            )
        },
    )
    result = run_sitegen("build", "--site", str(demo_site))
    assert result.returncode == 0, result.stderr
    second = bibtexparser.parse_string((demo_site / "output" / "publications.bib").read_text())
    before = {e.key: e.fields_dict["title"].value for e in first.entries}
    after = {e.key: e.fields_dict["title"].value for e in second.entries}
    assert {k: after.get(k) for k in before} == before  # every old key names the same paper
    assert len(after) == len(before) + 1


def test_feed_of_the_demo(built_demo, shown):
    feed = feedparser.parse((built_demo / "feed.xml").read_bytes())
    assert feed.bozo == 0
    dates = [e.published_parsed for e in feed.entries]
    assert dates == sorted(dates, reverse=True)
    assert len(feed.entries) == min(len(shown), 50)
    assert all(e.link.startswith("https://lena-muller.github.io/records/") for e in feed.entries)


def test_records_json_of_the_demo(built_demo, shown):
    data = json.loads((built_demo / "records.json").read_text(encoding="utf-8"))
    assert data["count"] == len(data["records"]) == len(shown)
    assert {r["id"] for r in data["records"]} == {r.id for r in shown}


RECORDS_SCHEMA = Draft202012Validator(json.loads((REPO / "docs" / "records.schema.json").read_text(encoding="utf-8")))


@pytest.mark.slow
def test_records_json_is_as_its_published_schema_says(built_demo, tmp_path):
    """docs/records.schema.json is what a script reading records.json is told: every field, its type, which may be
    null, and nothing else (a new field fails this test until the schema and docs/content.md name it)."""
    assert RECORDS_SCHEMA.schema["$defs"]["record"]["properties"]["type"]["enum"] == list(RECORD_TYPES)
    bib = (REPO / "tests" / "fixtures" / "sources" / "sheng-lin.bib").read_text(encoding="utf-8")  # ten kinds of entry
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/sheng-lin.bib": bib})
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    for path in (built_demo / "records.json", site / "output" / "records.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert [f"{'/'.join(map(str, error.absolute_path))}: {error.message}" for error in RECORDS_SCHEMA.iter_errors(data)] == []
        assert data["version"] == 1 and data["count"] == len(data["records"]) > 5


def test_records_json_ids_are_the_keys_a_work_is_known_by_whatever_version_or_case_was_written(tmp_path):
    """SPEC §6: `ids` name the work by the identifiers that make two records one (arXiv id without its
    version, DOI case ignored); `arxiv` and `doi` beside them keep what was written, for the links."""
    record = "id: pc\ntitle: Preconditioners\nyear: 2024\narxiv: '2401.01234v3'\ndoi: 10.5555/JDLS.2025.0142\nsource: J. Numer. Math.\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/pc.yaml": record})
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    [entry] = json.loads((site / "output" / "records.json").read_text(encoding="utf-8"))["records"]
    assert entry["ids"] == {"arxiv": "2401.01234", "doi": "10.5555/jdls.2025.0142"}
    assert (entry["arxiv"], entry["doi"]) == ("2401.01234v3", "10.5555/JDLS.2025.0142")


def test_sitemap_robots_nojekyll_of_the_demo(built_demo, shown):
    root = ET.fromstring((built_demo / "sitemap.xml").read_bytes())
    locs = [e.text for e in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert all(loc.startswith("https://lena-muller.github.io/") for loc in locs)
    post_files = list((REPO / "content" / "posts").glob("*.md"))
    posts = [f"posts/{path.stem[11:]}/" for path in post_files]  # content/posts/2025-05-20-name.md
    tags = {f"posts/tags/{tag.lower().replace(' ', '-')}/" for path in post_files for tag in yaml.safe_load(path.read_text().split("---")[1]).get("tags", [])}
    projects = [f"projects/{path.parent.name if path.stem == 'index' else path.stem}/" for path in (REPO / "content" / "projects").rglob("*.md")]
    homepage = ["about/", "teaching/", "cv/", "news/", "talks/", "cited/", "posts/", *posts, *tags, "projects/", *projects]  # content/pages/*.md, cv.yaml, ...
    assert len(locs) == len(set(locs)) == 1 + len(shown) + len({c for r in shown for c in r.categories}) + len(homepage)
    assert {f"https://lena-muller.github.io/{path}" for path in homepage} <= set(locs)
    assert "Sitemap: https://lena-muller.github.io/sitemap.xml" in (built_demo / "robots.txt").read_text().splitlines()
    assert (built_demo / ".nojekyll").is_file()
    assert not (built_demo / "CNAME").exists()


# -- 7. served from a sub-path --------------------------------------------------------------


@pytest.fixture(scope="module")
def subpath_builds(tmp_path_factory):
    """The demo built for https://user.github.io/repo/, with and without the trailing slash."""
    root = copy_demo(tmp_path_factory.mktemp("subpath"))
    outputs = []
    for name, url in (("slash", "https://user.github.io/repo/"), ("noslash", "https://user.github.io/repo")):
        result = run_sitegen("build", "--site", str(root), "--output", str(root / name), "--base-url", url)
        assert result.returncode == 0, result.stderr
        outputs.append(root / name)
    return outputs


@pytest.mark.slow
def test_every_link_works_from_a_sub_path(subpath_builds):
    output = subpath_builds[0]
    for path in html_pages(output):
        soup = page(path)
        for tag in soup.find_all(True):
            for attribute in ("href", "src"):
                value = tag.get(attribute)
                if value is None:
                    continue
                ok = value.startswith(("/repo/", "#", "https://", "http://", "mailto:"))
                assert ok, f"{path.relative_to(output)}: <{tag.name} {attribute}={value!r}>"
                if value.startswith("/repo/"):
                    target = output / value.removeprefix("/repo/").split("#")[0]
                    assert target.is_file() or (target / "index.html").is_file(), f"{path.relative_to(output)}: {value} is missing"


@pytest.mark.slow
def test_absolute_urls_use_the_sub_path(subpath_builds):
    output = subpath_builds[0]
    root = ET.fromstring((output / "sitemap.xml").read_bytes())
    assert all(e.text.startswith("https://user.github.io/repo/") for e in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc"))
    assert "Sitemap: https://user.github.io/repo/sitemap.xml" in (output / "robots.txt").read_text()
    feed = feedparser.parse((output / "feed.xml").read_bytes())
    assert all(e.link.startswith("https://user.github.io/repo/records/") for e in feed.entries)


@pytest.mark.slow
def test_base_url_without_trailing_slash_builds_the_same_site(subpath_builds):
    slash, noslash = subpath_builds
    assert tree(slash) == tree(noslash)


@pytest.mark.parametrize(
    ("base_url", "path", "origin"),
    [
        ("http://x.github.io/repo//", "/repo/", "http://x.github.io"),
        ("https://x.github.io/my repo", "/my%20repo/", "https://x.github.io"),
        ("https://x.github.io/über/", "/%C3%BCber/", "https://x.github.io"),
    ],
)
def test_base_url_is_normalised_in_links_the_canonical_address_and_the_sitemap(tmp_path, base_url, path, origin):
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.yaml": "id: a\ntitle: A\nyear: 2020\n"})
    result = run_sitegen("build", "--site", str(site), "--base-url", base_url)
    assert result.returncode == 0, result.stderr
    page = BeautifulSoup((site / "output/records/a/index.html").read_text(), "html.parser")
    assert page.select_one("link[rel=stylesheet]")["href"].startswith(f"{path}static/")
    assert page.select_one("link[rel=canonical]")["href"] == f"{origin}{path}records/a/"
    root = ET.fromstring((site / "output/sitemap.xml").read_bytes())
    assert {e.text for e in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")} == {f"{origin}{path}", f"{origin}{path}records/a/"}


# -- 8. themes ------------------------------------------------------------------------------------

RECORD = {"content/records/a.yaml": "id: a\ntitle: A record\nyear: 2024\nauthors: [Ada Lovelace]\ncategories: [cs.DC]\n"}


@pytest.mark.slow
def test_site_yaml_selects_a_sites_own_theme_by_name(tmp_path):
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            **RECORD,
            "content/site.yaml": "title: T\nbase_url: https://e.org/\ntheme: plain\n",
            "themes/plain/theme.yaml": "extends: default\n",
            "themes/plain/templates/record.html": '{% extends "base.html" %}{% block main %}<p class="plain-theme">{{ record.title }}</p>{% endblock %}',
            "themes/plain/static/plain.css": "p { color: red }",
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    soup = page(site / "output" / "records" / "a" / "index.html")
    assert soup.find("p", class_="plain-theme").get_text() == "A record"
    assert (site / "output" / "static" / "plain.css").read_text() == "p { color: red }"
    assert (site / "output" / "static" / "style.css").is_file()  # from the theme it extends


@pytest.mark.slow
@pytest.mark.parametrize(
    "theme_page, message",
    [
        (
            "Colophon/index.html",
            "content/pages/colophon.md:1: output/colophon (by 'pages') and output/Colophon (by 'theme-pages' at themes/plain/theme.yaml:3)"
            " are one name on macOS and Windows",
        ),
        ("feed.xml/index.html", "output/feed.xml (by 'exports') is a file, and 'theme-pages' needs a folder of that name for output/feed.xml/index.html"),
        (
            "../outside/index.html",
            "themes/plain/theme.yaml:3: page 1 of 'pages': path '../outside/index.html' is not a file inside output/;"
            " write it from output/'s root, as colophon/index.html",
        ),
    ],
)
def test_pages_that_cannot_all_be_written_fail_the_build_naming_both(tmp_path, theme_page, message):
    """A theme's page and the site's own (or sitegen's files) wanting one place: a clear error, output/ as it was."""
    files = {
        **MINIMAL_SITE,
        **RECORD,
        "content/site.yaml": "title: T\nbase_url: https://e.org/\ntheme: plain\n",
        "content/pages/colophon.md": "---\ntitle: Colophon\n---\nMade with sitegen.\n",
        "themes/plain/theme.yaml": f"extends: default\npages:\n  - template: colophon.html\n    path: {theme_page}\n",
        "themes/plain/templates/colophon.html": '{% extends "base.html" %}{% block main %}<p>The colophon of the theme</p>{% endblock %}',
    }
    site = write_site(tmp_path, files)
    (site / "output").mkdir()
    (site / "output" / "before.txt").write_text("the last build's")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert message in result.stderr and "Traceback" not in result.stderr
    assert [p.name for p in (site / "output").iterdir()] == ["before.txt"]
    assert not (tmp_path / "outside").exists()


@pytest.mark.slow
def test_a_sites_templates_override_the_themes(tmp_path):
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            **RECORD,
            "templates/partials/record_item.html": '<li class="record my-item" id="{{ record.anchor }}">{{ record.title }}</li>',
            "templates/record.html": '{% extends "base.html" %}{% block main %}<h1 class="mine">{{ record.title }}</h1>{% endblock %}',
            "templates/base.html": '{% extends "!theme/base.html" %}{% block head %}{{ super() }}<meta name="site-extra" content="from the site">{% endblock %}',
            "templates/subject.html": '{% extends "!theme/subject.html" %}{% block title %}Custom: {{ subject.name }}{% endblock %}',
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    index = page(site / "output" / "index.html")
    assert [li.get_text() for li in index.select("li.my-item")] == ["A record"]
    assert page(site / "output" / "records" / "a" / "index.html").find("h1", class_="mine").get_text() == "A record"
    subject = page(site / "output" / "subjects" / "cs.DC" / "index.html")  # site subject -> theme subject -> site base -> theme base
    assert subject.find("title").get_text() == "Custom: Distributed, Parallel, and Cluster Computing"
    assert meta(subject, "site-extra") == ["from the site"]
    assert [li["id"] for li in subject.select("li.my-item")] == ["r-a"]
    for path in html_pages(site / "output"):
        assert page(path).find("link", rel="stylesheet") is not None  # still the theme's base


@pytest.mark.slow
def test_a_list_template_may_read_the_values_of_each_record_of_a_year(tmp_path):
    """The bundled theme prints `group.items`; `group.records` still gives every record's values, made when read."""
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            **RECORD,
            "content/records/b.yaml": "id: b\ntitle: B $x^2$ record\nyear: 2024\ndate: 2024-05-01\nauthors: [Alan Turing]\ncategories: [cs.DC]\n",
            "templates/partials/year_groups.html": (
                '{% for group in years %}<section class="mine" data-count="{{ group.records|length }}" data-first="{{ group.records[0].id }}">'
                '{% for record in group.records %}<p class="row">{{ record.title_text }} ({{ record.year }}, {{ record.authors[0].name }})</p>'
                "<ol>{{ record.html }}</ol>{% endfor %}</section>{% endfor %}"
            ),
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    for path in ("index.html", "subjects/cs.DC/index.html"):
        listing = page(site / "output" / path)
        section = listing.find("section", class_="mine")
        assert (section["data-count"], section["data-first"]) == ("2", "b")  # newest first: b has a date in 2024
        assert [p.get_text() for p in section.select("p.row")] == ["B x² record (2024, Alan Turing)", "A record (2024, Ada Lovelace)"]
        assert [li["id"] for li in section.select("ol > li.record")] == ["r-b", "r-a"]  # each record's rendered item


@pytest.mark.slow
def test_static_assets_are_copied_and_a_sites_style_wins(tmp_path):
    bundled = REPO / "sitegen" / "themes" / "default" / "static"
    site = write_site(tmp_path / "one", {**MINIMAL_SITE})
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    for asset in (path for path in bundled.rglob("*") if path.is_file()):
        assert (site / "output" / "static" / asset.relative_to(bundled)).read_bytes() == asset.read_bytes()
    mine = write_site(tmp_path / "two", {**MINIMAL_SITE, "static/style.css": "body { background: pink }", "static/me.svg": "<svg/>"})
    assert run_sitegen("build", "--site", str(mine)).returncode == 0
    assert (mine / "output" / "static" / "style.css").read_text() == "body { background: pink }"
    assert (mine / "output" / "static" / "me.svg").read_text() == "<svg/>"


@pytest.mark.slow
def test_unknown_theme_is_an_error_naming_it_and_the_themes_found(tmp_path):
    site = write_site(
        tmp_path, {**MINIMAL_SITE, "content/site.yaml": "title: T\nbase_url: https://e.org/\ntheme: fancy\n", "themes/plain/templates/base.html": ""}
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert "content/site.yaml:3: field 'theme': unknown theme 'fancy'; themes found: classic, default, plain" in result.stderr.splitlines()
    assert not (site / "output").exists()


# -- 9. validation -------------------------------------------------------------------------------


def errors_of(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("content/")]


@pytest.mark.slow
def test_broken_yaml_names_path_line_column_and_reason(tmp_path):
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/x.yaml": "id: x\ntitle: [unclosed\nyear: 2024\n"})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    [line] = errors_of(result)
    assert re.match(r"content/records/x\.yaml:3:\d+: invalid YAML: did not find expected ',' or '\]'", line), line


@pytest.mark.slow
def test_wrong_type_message_is_exact(tmp_path):
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/x.yaml": "id: x\ntitle: T\nyear: twenty\n"})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert errors_of(result) == ["content/records/x.yaml:3: field 'year': expected an integer, got 'twenty'"]


@pytest.mark.slow
def test_the_warnings_of_a_build_that_fails_are_printed_with_its_errors(tmp_path):
    """Every mistake at once: the misspelt field is not kept back until the wrong year is mended."""
    records = {
        "content/records/x.yaml": "id: x\ntitle: T\nauthors: [Ada Lovelace]\nyear: twenty\n",
        "content/records/y.yaml": "id: y\ntitle: U\nauthors: [Ada Lovelace]\nyear: 2024\nsorce: Nature\n",
    }
    site = write_site(tmp_path, {**MINIMAL_SITE, **records})
    for command in ("build", "check"):
        result = run_sitegen(command, "--site", str(site))
        assert result.returncode == 1
        assert result.stderr.splitlines() == [
            "content/records/x.yaml:4: field 'year': expected an integer, got 'twenty'",
            "content/records/y.yaml:5: warning: field 'sorce': unknown field; did you mean 'source'?",
        ]
    assert not (site / "output").exists()


@pytest.mark.slow
def test_duplicate_ids_name_both_paths(tmp_path):
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/records/a.yaml": "id: same\ntitle: A\nyear: 2024\n",
            "content/records/b.yaml": "id: same\ntitle: B\nyear: 2024\n",
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    [line] = errors_of(result)
    assert "content/records/a.yaml" in line and "content/records/b.yaml" in line and "same" in line


@pytest.mark.slow
def test_ids_that_would_share_a_page_name_both_paths(tmp_path):
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/records/a.yaml": "id: hep-ph/0601001\ntitle: A\nyear: 2006\n",
            "content/records/b.yaml": "id: hep-ph-0601001\ntitle: B\nyear: 2006\n",
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1, "two records may not silently share records/hep-ph-0601001/"
    [line] = errors_of(result)
    assert "content/records/a.yaml" in line and "content/records/b.yaml" in line


BROKEN = {
    "content/records/a.yaml": "id: a\ntitle: A\nyear: twenty\n",
    "content/records/b.yaml": "id: b\nyear: 2024\n",
    "content/records/c.yaml": "id: c\ntitle: [C\n",
}


@pytest.mark.slow
def test_every_problem_is_reported_and_the_previous_output_is_kept(demo_site):
    assert run_sitegen("build", "--site", str(demo_site)).returncode == 0
    before = tree(demo_site / "output")
    write_site(demo_site, BROKEN)
    result = run_sitegen("build", "--site", str(demo_site))
    assert result.returncode == 1
    lines = errors_of(result)
    assert len(lines) == 3, result.stderr
    assert {line.split(":")[0] for line in lines} == set(BROKEN)
    assert tree(demo_site / "output") == before


@pytest.mark.slow
def test_check_validates_without_writing(tmp_path):
    site = write_site(tmp_path / "good", {**MINIMAL_SITE, **RECORD})
    before = tree(site)
    result = run_sitegen("check", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert not (site / "output").exists()
    assert tree(site) == before and sorted(p.name for p in site.iterdir()) == ["content"]

    bad = write_site(tmp_path / "bad", {**MINIMAL_SITE, **BROKEN})
    result = run_sitegen("check", "--site", str(bad))
    assert result.returncode == 1
    assert len(errors_of(result)) == 3
    assert sorted(p.name for p in bad.iterdir()) == ["content"]


@pytest.mark.parametrize("args", [[], ["build", "--bogus"], ["check", "--site"]])
def test_a_bad_command_line_exits_2(args, tmp_path):
    result = run_sitegen(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert "usage: sitegen" in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    "body, message",
    [
        ("{{ record.title }", "templates/record.html:3: template error: unexpected '}'"),
        ("{{ 1 / 0 }}", "templates/record.html:3: template error in record.html: ZeroDivisionError: division by zero"),
        ("{{ record.titel.x }}", "templates/record.html:3: template error in record.html: record has no 'titel'; did you mean 'title'?"),
    ],
)
def test_a_broken_template_is_a_content_error_naming_file_and_line(tmp_path, body, message):
    site = write_site(
        tmp_path, {**MINIMAL_SITE, **RECORD, "templates/record.html": f'{{% extends "base.html" %}}\n{{% block main %}}\n{body}\n{{% endblock %}}\n'}
    )
    result = run_sitegen("build", "--site", ".", cwd=site)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [message]
    assert not (site / "output").exists()


@pytest.mark.parametrize(
    ("base_url", "message"),
    [
        (
            "user.github.io/repo",
            "expected the site's address, an http(s) URL such as https://user.github.io/repo/, got 'user.github.io/repo'; "
            "write the full address, 'https://user.github.io/repo/'",
        ),
        (
            "https:///~jdoe/",
            "expected the site's address, an http(s) URL such as https://user.github.io/repo/, got 'https:///~jdoe/'",
        ),
        (
            "https://www.uni.example/~jdoe/index.html",
            "'https://www.uni.example/~jdoe/index.html' names a page (index.html), not the folder the site is in: every link "
            "would start with /~jdoe/index.html/; write 'https://www.uni.example/~jdoe/'",
        ),
    ],
)
def test_a_wrong_base_url_on_the_command_line_exits_2_saying_what_to_write(tmp_path, base_url, message):
    """--base-url is checked as site.yaml's base_url is, and a wrong one is a wrong command line: status 2."""
    site = write_site(tmp_path, MINIMAL_SITE)
    result = run_sitegen("build", "--site", str(site), "--base-url", base_url)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"sitegen build: error: --base-url: {message}"]
    assert not (site / "output").exists()


@pytest.mark.slow
def test_a_base_url_on_the_command_line_without_host_is_a_warning(tmp_path):
    """`--base-url "$URL/"` with the variable unset builds with '/': say so, as for site.yaml's base_url."""
    site = write_site(tmp_path, MINIMAL_SITE)
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    assert (
        "warning: --base-url: '/' names no host, so pages have no canonical address or link previews, and the feeds and "
        "the sitemap hold paths that readers and search engines cannot follow; write the site's full address "
        '(was the variable in --base-url "$VARIABLE/" empty?)'
    ) in result.stderr.splitlines()
    result = run_sitegen("build", "--site", str(site), "--base-url", "https://www.uni.example/~jdoe/?lang=en", "--strict")
    assert result.returncode == 1
    assert (
        "warning: --base-url: the query '?lang=en' of 'https://www.uni.example/~jdoe/?lang=en' is left out of every link "
        "and address the site has; write 'https://www.uni.example/~jdoe/'"
    ) in result.stderr.splitlines()


@pytest.mark.slow
@pytest.mark.parametrize("photo", ["/static/jane.png", "/~jdoe/static/jane.png"])
def test_a_photo_written_as_its_address_on_the_site_is_told_its_name_in_static(tmp_path, photo):
    site = write_site(
        tmp_path,
        {
            "content/site.yaml": "title: T\nbase_url: https://www.uni.example/~jdoe/\n",
            "content/profile.yaml": f"name: Jane Doe\nphoto: {photo}\n",
            "static/jane.png": "\x89PNG",
        },
    )
    result = run_sitegen("check", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert (
        f"content/profile.yaml:2: warning: field 'photo': no file static/{photo.lstrip('/')} in the site; the photo is left "
        "out; did you mean 'jane.png' (photo is a path in static/)?"
    ) in result.stderr.splitlines()


HOST_ENVIRONMENTS = {
    "Netlify": ({"NETLIFY": "true", "URL": "https://jane-doe.netlify.app"}, "https://jane-doe.netlify.app/", '--base-url "$URL/"'),
    "Cloudflare Pages": (
        {"CF_PAGES": "1", "CF_PAGES_URL": "https://0a1b2c3d.jdoe.pages.dev"},
        "https://<project>.pages.dev/",
        "--base-url https://<your address>/",
    ),
    "GitLab Pages": (
        {"GITLAB_CI": "true", "CI_PAGES_URL": "https://jdoe.gitlab.io/site", "CI_JOB_NAME": "pages"},
        "https://jdoe.gitlab.io/site/",
        '--base-url "$CI_PAGES_URL/"',
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("host", HOST_ENVIRONMENTS)
def test_a_build_on_another_host_with_the_github_address_init_wrote_warns(tmp_path, host):
    """On Netlify, Cloudflare Pages or GitLab CI, a base_url with another path (the github.io/<folder>/ that init
    guessed) gives a site whose every link and stylesheet leads nowhere: the build says so, and what to pass."""
    environment, address, option = HOST_ENVIRONMENTS[host]
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/site.yaml": "title: T\nbase_url: https://jane-doe.github.io/jdoe-site/\n"})
    result = run_sitegen("build", "--site", str(site), env=environment)
    assert result.returncode == 0, result.stderr
    assert (
        f"warning: this build runs on {host}, which serves the site at {address}, but base_url's path is /jdoe-site/: there "
        f"every link and stylesheet would lead nowhere; build with {option} (sitegen's docs/deploying.md, Other hosts)"
    ) in result.stderr.splitlines()
    right = {"Netlify": "https://jane-doe.netlify.app/", "Cloudflare Pages": "https://jdoe.pages.dev/", "GitLab Pages": "https://jdoe.gitlab.io/site/"}[host]
    for quiet in (["--base-url", right], []):
        if not quiet:  # base_url itself right
            (site / "content/site.yaml").write_text(f"title: T\nbase_url: {right}\n")
        result = run_sitegen("build", "--site", str(site), *quiet, env=environment)
        assert result.returncode == 0 and "warning" not in result.stderr, result.stderr


def test_a_gitlab_job_that_publishes_no_pages_gets_no_warning_about_their_address(tmp_path):
    """CI_PAGES_URL is set in every GitLab job: one that deploys by rsync builds for its own address."""
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/site.yaml": "title: T\nbase_url: https://www.uni.example/~jdoe/\n"})
    environment = {"GITLAB_CI": "true", "CI_PAGES_URL": "https://jdoe.gitlab.io/site", "CI_JOB_NAME": "deploy-to-uni"}
    result = run_sitegen("build", "--site", str(site), env=environment)
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr


@pytest.mark.parametrize("address", ["http://[x", "https://[md]/", "https://"])
def test_a_host_address_that_is_none_says_nothing_and_stops_nothing(address):
    """The URL parser refuses 'http://[x' (a ValueError, a traceback before): no path to compare, no warning."""
    from sitegen.commands import host_path_warning

    assert host_path_warning("/", {"NETLIFY": "true", "URL": address}) is None
    assert host_path_warning("/", {"GITLAB_CI": "true", "CI_PAGES_URL": address, "CI_JOB_NAME": "pages"}) is None


@pytest.mark.parametrize("output", ["static/site", "content/out", "themes"])
def test_output_inside_a_folder_the_build_reads_is_refused(tmp_path, output):
    """`--output static/site` would be read back as the site's files by the next build, and copied into itself."""
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **RECORD, "static/cv.pdf": "%PDF-1.4"})
    result = run_sitegen("build", "--site", ".", "--output", output, cwd=site)
    assert result.returncode == 1
    folder = output.split("/")[0]
    assert result.stderr.splitlines() == [
        f"--output {output} is inside {folder}/, which the build reads: the next build would take the site it wrote for "
        f"files of yours; choose a folder beside content/, such as output"
    ]
    assert not (site / output).exists() or output == "themes"
    assert sorted(p.name for p in (site / "static").iterdir()) == ["cv.pdf"]


@pytest.mark.slow
def test_output_never_replaces_a_foreign_folder_or_the_site(tmp_path):
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **RECORD})
    write_site(tmp_path / "docs", {"thesis.tex": "precious"})
    result = run_sitegen("build", "--site", str(site), "--output", str(tmp_path / "docs"))
    assert result.returncode == 1
    assert "refusing to replace" in result.stderr
    assert (tmp_path / "docs" / "thesis.tex").read_text() == "precious"
    for output in (".", ".."):
        result = run_sitegen("build", "--site", ".", "--output", output, cwd=site)
        assert result.returncode == 1
        assert f"--output {output} holds the site itself" in result.stderr
        assert (site / "content" / "records" / "a.yaml").is_file()


@pytest.mark.slow
def test_an_output_that_is_a_file_is_named_a_file(tmp_path):
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **RECORD})
    (site / "output").write_text("notes")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"refusing to replace {site / 'output'}: it is a file, not a folder sitegen wrote; move it away or delete it, or build elsewhere with --output DIR"
    ]
    assert (site / "output").read_text() == "notes"


def immutable(path: Path, on: bool) -> bool:
    """`chattr +i` (or -i): a folder nobody may change, root included. False where the file system or the user cannot."""
    found = shutil.which("chattr")
    return bool(found) and subprocess.run([found, "+i" if on else "-i", str(path)], capture_output=True).returncode == 0


@pytest.mark.slow
def test_an_output_folder_that_cannot_be_changed_is_one_line_and_stays_as_it_was(tmp_path):
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **RECORD})
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    before = tree(site / "output")
    (site / "content" / "records" / "a.yaml").write_text((site / "content" / "records" / "a.yaml").read_text().replace("2024", "2023"))
    if immutable(site / "output", True):
        why = "operation not permitted"
    elif os.geteuid() != 0:
        (site / "output").chmod(0o555)
        why = "permission denied"
    else:
        pytest.skip("root, and no chattr +i here: nothing stops a write")
    try:
        for options in ((), ("--no-cache",)):  # in place, and a new folder swapped in
            result = run_sitegen("build", "--site", str(site), *options)
            assert result.returncode == 1
            [line] = result.stderr.splitlines()
            assert line.startswith(f"error: cannot write {site / 'output'}/") and line.endswith(f": {why}"), line
            assert "Errno" not in line
            assert tree(site / "output") == before
            assert sorted(path.name for path in site.iterdir()) == [".sitegen-cache", "content", "output"]
    finally:
        immutable(site / "output", False)
        (site / "output").chmod(0o755)


@pytest.mark.slow
def test_a_read_only_site_folder_whose_output_may_be_written_builds_in_place(tmp_path):
    """A container: the site folder read-only (here `chattr +i`, which stops root too), only output/ writable. The
    build locks output/ itself and writes into it; a record removed later has its page removed; nothing else is made."""
    site = write_site(
        tmp_path / "site", {**MINIMAL_SITE, **RECORD, "content/records/b.yaml": "id: b\ntitle: Another record\nyear: 2023\nauthors: [Ada Lovelace]\n"}
    )
    (site / "output").mkdir()
    (site / "output" / "index.html").write_text("an earlier build")  # one the state of no build names: a build's files
    (site / "output" / ".nojekyll").write_text("")
    (site / "output" / "records" / "gone").mkdir(parents=True)
    (site / "output" / "records" / "gone" / "index.html").write_text("a page no longer made")
    if not immutable(site, True):
        pytest.skip("no chattr +i here")
    try:
        result = run_sitegen("build", "--site", str(site))
        assert result.returncode == 0, result.stderr
        assert "Errno" not in result.stderr
        assert page(site / "output" / "records" / "b" / "index.html").find("h1").get_text(strip=True) == "Another record"
        assert "Ada Lovelace" in page(site / "output" / "index.html").get_text()
        assert not (site / "output" / "records" / "gone").exists()
        (site / "content" / "records" / "b.yaml").unlink()  # content/ itself may be written
        result = run_sitegen("build", "--site", str(site), "--strict")
        assert result.returncode == 0, result.stderr
        assert not (site / "output" / "records" / "b").exists()
        assert (site / "output" / "records" / "a" / "index.html").is_file()
        assert sorted(path.name for path in site.iterdir()) == ["content", "output"], "no lock file, cache or staging folder"
        assert not [path for path in (site / "output").rglob("*") if path.name.endswith(".tmp")]
    finally:
        immutable(site, False)


@pytest.mark.slow
def test_missing_site_folder_exits_2_and_a_folder_without_content_exits_1(tmp_path):
    result = run_sitegen("build", "--site", str(tmp_path / "nowhere"))
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == f"sitegen build: error: --site {tmp_path / 'nowhere'}: no such folder (the folder that holds content/)"
    result = run_sitegen("build", "--site", str(tmp_path))
    assert result.returncode == 1
    assert "no content/ folder" in result.stderr


# -- 11. reproducible builds ----------------------------------------------------------------------


@pytest.mark.slow
def test_two_builds_are_byte_identical(demo_site, tmp_path):
    for name in ("one", "two"):
        result = run_sitegen("build", "--site", str(demo_site), "--output", str(tmp_path / name))
        assert result.returncode == 0, result.stderr
    assert tree(tmp_path / "one") == tree(tmp_path / "two")
    assert len(tree(tmp_path / "one")) > 40


@pytest.mark.slow
def test_rebuilding_in_place_equals_a_clean_build_and_stale_files_go(demo_site, tmp_path):
    output = demo_site / "output"
    assert run_sitegen("build", "--site", str(demo_site)).returncode == 0
    (output / "leftover.html").write_text("from an older sitegen")
    (demo_site / "content" / "records" / "2504.02761.yaml").unlink()  # a record and its only... page goes
    result = run_sitegen("build", "--site", str(demo_site))
    assert result.returncode == 0, result.stderr
    assert not (output / "records" / "2504.02761").exists()
    assert not (output / "leftover.html").exists()
    clean = run_sitegen("build", "--site", str(demo_site), "--output", str(tmp_path / "clean"))
    assert clean.returncode == 0
    assert tree(output) == tree(tmp_path / "clean")
    again = run_sitegen("build", "--site", str(demo_site))
    assert again.returncode == 0
    assert tree(output) == tree(tmp_path / "clean")


@pytest.mark.slow
def test_a_link_into_the_site_that_leads_to_no_file_is_a_warning(tmp_path):
    """`pdf: paper.pdf` for a file kept in static/ (al-folio's habit) would be a broken link on every page that
    shows it: the build says which link (of the profile, a record, a talk, a person, the CV, the menu or a page's text) and which file was meant, the same
    when nothing changed since, each at its own line. A path from the domain's root is looked for too when it is
    under the site's path (`/repo/files/cv.pdf`); a menu's `/teaching/` is the site's own (test_links.py has such
    paths elsewhere, which leave a site at /repo/)."""
    site = write_site(
        tmp_path,
        {
            "content/site.yaml": (
                "title: Test site\nbase_url: https://example.org/repo/\nnav:\n  - {title: Papers, url: '#publications'}\n"
                "  - {title: Teaching, url: /teaching/}\n  - {title: Talks, url: talk/}\n  - {title: Blog, url: 'https://blog.example.org/'}\n"
            ),
            "content/profile.yaml": "name: Ada Lovelace\nlinks:\n  orcid: 0000-0002-1825-0097\n  cv: static/cv.pdf\nbio: 'See [my notes](notes/), [talk](static/talk.pdf) and [old CV](/repo/files/cv.pdf).'\n",
            "content/cv.yaml": "sections:\n  - title: Teaching\n    entries:\n      - title: Lecture\n        start: 2020\n        url: static/syllabus.pdf\n        details: '[slides](static/talk.pdf)'\n",
            "content/pages/teaching.md": "---\ntitle: Teaching\n---\n[Slides](static/lecture.pdf), [the talk](./static/talk.pdf), [home](./) and [a record](records/b/).\n",
            "content/records/a.yaml": (
                "id: a\ntitle: A\nyear: 2020\nlinks:\n  pdf: paper.pdf\n  slides: static/talk.pdf#page=2\n  video: ./static/x/../talk.pdf\n  html: records/b/\n  code: https://example.org/code\nauthors: [Ada Lovelace]\n"
            ),
            "content/records/b.yaml": "id: b\ntitle: B\nyear: 2021\nlinks: {poster: 'static/my%20poster.pdf', data: data/set.csv}\nimage: previews/fig.png\n",
            "content/people/grace.yaml": "name: Ada Lovelace\nlinks:\n  cv: static/grace-cv.pdf\n  website: static/talk.pdf\n",
            "content/talks/2024.yaml": "- title: T\n  date: 2024-05-01\n  links: {slides: static/talks/t.pdf}\n- title: U\n  date: 2024-06-01\n  links: {slides: static/talk.pdf}\n",
            "static/paper.pdf": "%PDF",
            "static/talk.pdf": "%PDF",
            "static/my poster.pdf": "%PDF",
            "static/previews/fig.png": "PNG",
        },
    )
    expected = [
        "content/cv.yaml:6: warning: link of 'Lecture': 'static/syllabus.pdf' is no file of the site",
        "content/pages/teaching.md:4: warning: link in the text: 'static/lecture.pdf' is no file of the site",
        "content/people/grace.yaml:3: warning: link 'cv': 'static/grace-cv.pdf' is no file of the site",
        "content/profile.yaml:4: warning: link 'cv': 'static/cv.pdf' is no file of the site",
        "content/profile.yaml:5: warning: link in the bio: 'notes/' is no file of the site",
        "content/profile.yaml:5: warning: link in the bio: '/repo/files/cv.pdf' is no file of the site (a file of your static/ folder is linked as static/NAME)",
        "content/records/a.yaml:5: warning: record 'a', link 'pdf': 'paper.pdf' is no file of the site; did you mean 'static/paper.pdf'?",
        "content/records/b.yaml:4: warning: record 'b', link 'data': 'data/set.csv' is no file of the site (a file of your static/ folder is linked as static/NAME)",
        "content/records/b.yaml:5: warning: record 'b', image: 'previews/fig.png' is no file of the site; did you mean 'static/previews/fig.png'?",
        "content/site.yaml:6: warning: menu entry 'Talks': 'talk/' is no file of the site; did you mean 'talks/'?",
        "content/talks/2024.yaml:3: warning: link 'slides': 'static/talks/t.pdf' is no file of the site",
    ]
    for _ in range(2):  # the second build finds output/ up to date, and says the same
        result = run_sitegen("build", "--site", str(site))
        assert result.returncode == 0, result.stderr
        assert [line for line in result.stderr.splitlines() if "warning" in line] == expected, result.stderr
    page = BeautifulSoup((site / "output/records/a/index.html").read_text(), "html.parser")
    assert page.find("li", class_="link-pdf").a["href"] == "/repo/paper.pdf"  # as written: a warning, not a rewrite


@pytest.mark.slow
def test_the_advice_for_a_link_to_the_domains_root_leads_to_the_sites_home(tmp_path):
    """'/' on a site at /s1/: the warning's advice is './' (not '', which stays on the page), and following it
    reaches the site's home from any page; an empty link is a warning of its own."""
    files = {
        "content/site.yaml": "title: T\nbase_url: https://ada.github.io/s1/\n",
        "content/profile.yaml": "name: Ada Lovelace\n",
        "content/pages/links.md": "---\ntitle: Links\n---\nSee [About](/) and [Pubs](/#publications).\n\n[Empty]()\n",
    }
    site = write_site(tmp_path, files)
    result = run_sitegen("check", "--strict", "--site", str(site))
    assert result.returncode == 1
    assert [line for line in result.stderr.splitlines() if ": warning:" in line] == [
        "content/pages/links.md:4: warning: link in the text: '/' leaves the site's path /s1/: write './' (relative: from the site's root) or '/s1/'",
        "content/pages/links.md:4: warning: link in the text: '/#publications' leaves the site's path /s1/: "
        "write './#publications' (relative: from the site's root) or '/s1/#publications'",
        "content/pages/links.md:6: warning: link in the text: an empty address leads to the page it is on; for the site's home page, write './'",
    ], result.stderr
    (site / "content/pages/links.md").write_text("---\ntitle: Links\n---\nSee [About](./) and [Pubs](./#publications).\n")
    result = run_sitegen("build", "--strict", "--site", str(site))
    assert result.returncode == 0, result.stderr
    page = BeautifulSoup((site / "output/links/index.html").read_text(), "html.parser")
    hrefs = [a["href"] for a in page.select("main p a")]
    assert [urljoin("https://ada.github.io/s1/links/", href) for href in hrefs] == ["https://ada.github.io/s1/", "https://ada.github.io/s1/#publications"]
    assert hrefs == ["/s1/", "/s1/#publications"]


@pytest.mark.slow
def test_a_path_from_the_domain_root_that_leaves_the_sites_path_is_a_warning(tmp_path):
    """On a site at /s1/ (a GitHub project page), '/about/' leads to another site of the domain once deployed: a
    warning (so `check --strict` fails) saying what to write, for a page's text, a record's links and the bio.
    The link is left as written (not rewritten to /s1/about/); the menu's paths are the site's, as before."""
    site = write_site(
        tmp_path,
        {
            "content/site.yaml": "title: T\nbase_url: https://ada.github.io/s1/\nnav:\n  - {title: About, url: /about/}\n",
            "content/profile.yaml": "name: Ada Lovelace\nbio: 'See [the records](/records/a/) and [the group](https://example.org/group).'\n",
            "content/pages/about.md": "---\ntitle: About\n---\nSee [ok](/about/), [rec](/records/nope/) and [fine](/s1/about/), [home](/s1) or [here](about/).\n",
            "content/records/a.yaml": "id: a\ntitle: A\nyear: 2020\nabstract: 'See [x](https://spam.example/) and [the page](records/a/).'\nlinks:\n  slides: /slides/none.pdf\n",
        },
    )
    expected = [
        "content/pages/about.md:4: warning: link in the text: '/about/' leaves the site's path /s1/: "
        "write 'about/' (relative: from the site's root) or '/s1/about/'",
        "content/pages/about.md:4: warning: link in the text: '/records/nope/' leaves the site's path /s1/: "
        "'records/nope/' is no file of the site either; for another site, write its full address",
        "content/profile.yaml:2: warning: link in the bio: '/records/a/' leaves the site's path /s1/: "
        "write 'records/a/' (relative: from the site's root) or '/s1/records/a/'",
        "content/records/a.yaml:6: warning: record 'a', link 'slides': '/slides/none.pdf' leaves the site's path /s1/: "
        "'slides/none.pdf' is no file of the site either; for another site, write its full address",
    ]
    result = run_sitegen("check", "--strict", "--site", str(site))
    assert result.returncode == 1
    assert result.stderr.splitlines()[:-1] == expected, result.stderr
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0 and [line for line in result.stderr.splitlines() if "warning" in line] == expected, result.stderr
    page = BeautifulSoup((site / "output/about/index.html").read_text(), "html.parser")
    links = {a.get_text(): a for a in page.select("main a")}
    assert links["ok"]["href"] == "/about/"  # as written
    assert [(a["href"], a.get("rel")) for a in (links["fine"], links["here"])] == [("/s1/about/", None), ("/s1/about/", None)]
    assert page.select_one("nav a[href='/s1/about/']") is not None  # the menu's '/about/' is the site's
    # links to the site's own pages are followed by search engines: no rel="nofollow"; the owner's links elsewhere
    # get rel="noopener", those in text from elsewhere (an abstract) also "nofollow"
    home = BeautifulSoup((site / "output/index.html").read_text(), "html.parser")
    assert home.select_one(".bio a[href='https://example.org/group']")["rel"] == ["noopener"]
    record = BeautifulSoup((site / "output/records/a/index.html").read_text(), "html.parser")
    assert record.select_one("a[href='https://spam.example/']")["rel"] == ["noopener", "nofollow"]
    assert record.select_one("a[href='/s1/records/a/']").get("rel") is None  # 'records/a/': from the site's root, as in a bio
    assert all("nofollow" not in (a.get("rel") or []) for a in page.find_all("a"))


@pytest.mark.slow
def test_strict_makes_a_warning_an_error_and_writes_nothing(tmp_path):
    """`--strict` (for a pull request's check): a warning fails `build` and `check` with exit status 1, and
    output/ stays as it was, also when the build finds it up to date."""
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.yaml": "id: a\ntitle: A\nyear: 2020\nvenu: J\n"})
    warning = "content/records/a.yaml:4: warning: field 'venu': unknown field, passed to templates as it is (extra.venu)"
    for command in (["build"], ["check"]):
        result = run_sitegen(*command, "--strict", "--site", str(site))
        assert result.returncode == 1, result.stderr
        assert result.stderr.splitlines()[0] == warning
        assert result.stderr.splitlines()[-1].startswith("--strict: 1 warning, and --strict makes a warning an error")
    assert not (site / "output").exists()
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    before = {path: path.read_bytes() for path in (site / "output").rglob("*") if path.is_file()}
    result = run_sitegen("build", "--strict", "--site", str(site))  # up to date, and still a warning
    assert (result.returncode, result.stderr.splitlines()[0]) == (1, warning)
    assert {path: path.read_bytes() for path in (site / "output").rglob("*") if path.is_file()} == before
    (site / "content/records/a.yaml").write_text("id: a\ntitle: A\nyear: 2020\nsource: J\ntype: article\n")
    assert run_sitegen("build", "--strict", "--site", str(site)).returncode == 0


def test_names_written_in_bibtex_order_are_shown_first_name_first(tmp_path):
    record = {"id": "r1", "title": "T", "authors": ["Lovelace, Ada", "King, Jr., Martin Luther", "University of California, Berkeley"], "year": 2019}
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/r1.yaml": yaml.safe_dump(record)})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    soup = page(site / "output" / "records" / "r1" / "index.html")
    shown = ["Ada Lovelace", "Martin Luther King Jr.", "University of California, Berkeley"]
    assert meta(soup, "citation_author") == ["Lovelace, Ada", "King, Martin Luther, Jr.", "University of California, Berkeley"]
    assert soup.select_one(".authors").get_text(" ", strip=True).replace(" ,", ",") == ", ".join(shown)
    assert [s.get_text() for s in soup.select("strong.owner")] == ["Ada Lovelace"]  # the profile's name: Ada Lovelace


def test_a_name_with_a_comma_that_is_no_persons_is_shown_and_cited_as_written(tmp_path):
    record = {"id": "r2", "title": "T", "authors": ["Department of Physics, MIT", "Doe, Jane, Jr.", "University of California, Berkeley"], "year": 2019}
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/r2.yaml": yaml.safe_dump(record)})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    soup = page(site / "output" / "records" / "r2" / "index.html")
    assert meta(soup, "citation_author") == ["Department of Physics, MIT", "Doe, Jane, Jr.", "University of California, Berkeley"]
    csl = json.loads(soup.select_one("[data-csl-item]")["data-csl-item"])
    assert csl["author"] == [
        {"literal": "Department of Physics, MIT"},
        {"family": "Doe", "given": "Jane", "suffix": "Jr."},
        {"literal": "University of California, Berkeley"},
    ]


SMITH_BIB = r"""
@article{scholar, title={One}, author={Smith, J. and Doe, Alice}, journal={J. Foo}, year={2020}}
@article{zotero, title={Two}, author={Smith, John A. and Roe, Bob}, journal={J. Foo}, year={2021}}
@article{arxiv, title={Three}, author={John Smith and Bob Roe}, journal={J. Foo}, year={2022}}
@article{pubmed, title={Four}, author={Smith JA and Bob Roe}, journal={J. Foo}, year={2022}}
@article{typo, title={Five}, author={J{\"o}hn Smith and SMITH, JANE}, journal={J. Foo}, year={2023}}
@article{both, title={Six}, author={John Smith and J. Smith and K. Smith}, journal={J. Foo}, year={2023}}
@article{namesakes, title={Seven}, author={Jane Smith and Smith, K. and Jonathan Smith}, journal={J. Foo}, year={2024}}
"""


def test_the_owner_is_highlighted_in_every_form_a_bib_file_names_them(tmp_path):
    """Google Scholar's, Zotero's, arXiv's and PubMed's forms of the owner's name are theirs on the list; the
    namesakes a record names beside them (or alone) are not."""
    files = {**MINIMAL_SITE, "content/profile.yaml": "name: John A. Smith\nname_variants: ['J. A. Smith']\n", "content/records/papers.bib": SMITH_BIB}
    site = write_site(tmp_path, files)
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    soup = page(site / "output" / "index.html")
    owners = {item["id"]: [s.get_text() for s in item.select(".authors strong.owner")] for item in soup.select("li[id^=r-]")}
    assert owners == {
        "r-scholar": ["J. Smith"],
        "r-zotero": ["John A. Smith"],
        "r-arxiv": ["John Smith"],
        "r-pubmed": ["Smith JA"],
        "r-typo": ["Jöhn Smith"],
        "r-both": ["John Smith"],
        "r-namesakes": [],
    }
    record = page(site / "output" / "records" / "pubmed" / "index.html")
    assert [s.get_text() for s in record.select(".authors strong.owner")] == ["Smith JA"]
