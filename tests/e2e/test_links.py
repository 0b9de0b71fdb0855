"""No broken link or asset, whether the site is served from a sub-path (GitHub project pages) or a domain root.

Each site is built with the real command and served over loopback HTTP by
`tests/crawl.py`, which answers only under the site's prefix, so a link that
forgets the sub-path is a 404. The crawler follows every page, stylesheet,
script and image and checks every `#fragment` against the ids of its page.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup
from conftest import copy_demo, is_redirect, run_sitegen
from crawl import crawl, fetch, html_references, serve_directory

pytestmark = pytest.mark.slow  # each test builds the demo site and follows every link of it

SITEMAP_NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def build(site: Path, base_url: str, output: Path | None = None) -> Path:
    output = output or site / "output"
    result = run_sitegen("build", "--site", str(site), "--output", str(output), "--base-url", base_url)
    assert result.returncode == 0, result.stderr
    return output


def built_pages(output: Path) -> set[str]:
    """Every page of the build as a path below the site root ('', 'records/x/', ...), the 404 page aside, and the
    stubs at old addresses (content/redirects.yaml), which no page links to, aside."""
    pages = set()
    for path in output.rglob("index.html"):
        if is_redirect(path):
            continue
        relative = path.parent.relative_to(output).as_posix()
        pages.add("" if relative == "." else relative + "/")
    return pages


def crawled_paths(report, base_url: str) -> set[str]:
    prefix = urlsplit(base_url).path
    return {urlsplit(url).path[len(prefix) :] for url in report.pages}


def assert_clean(report) -> None:
    assert report.problems == [], report.describe()


@pytest.fixture(scope="module")
def project_page_build(tmp_path_factory) -> Path:
    """The demo built for https://user.github.io/repo/ (read-only)."""
    site = copy_demo(tmp_path_factory.mktemp("project-page") / "demo")
    return build(site, "https://user.github.io/repo/")


def test_project_page_sub_path_has_no_broken_link_or_asset(project_page_build):
    output = project_page_build
    with serve_directory(output, prefix="/repo/") as base_url:
        report = crawl(base_url)
    assert_clean(report)
    assert crawled_paths(report, base_url) == built_pages(output), "every page is reachable by following links"
    fetched = {urlsplit(u).path for u in report.fetched}
    for asset in ("static/style.css", "static/copy.js", "static/favicon.svg", "publications.bib", "feed.xml", "records.json"):
        assert f"/repo/{asset}" in fetched
    assert not any(u.startswith("https://user.github.io/") and "/repo/" not in u for u in report.external)


def test_domain_root_has_no_broken_link_or_asset(demo_site):
    output = build(demo_site, "https://example.org")
    with serve_directory(output, prefix="/") as base_url:
        report = crawl(base_url)
    assert_clean(report)
    assert crawled_paths(report, base_url) == built_pages(output)


def test_404_page_works_at_any_depth_under_the_sub_path(project_page_build):
    """GitHub Pages serves 404.html for a missing URL at any depth; its links and assets must still resolve."""
    output = project_page_build
    with serve_directory(output, prefix="/repo/") as base_url:
        assert_clean(crawl(base_url + "404.html"))
        soup = BeautifulSoup((output / "404.html").read_bytes(), "lxml")
        references = [r for r in html_references(soup) if not r.startswith(("#", "mailto:", "https://pypi.org"))]
        assert references and all(r.startswith("/repo/") for r in references), references
        for depth_url in (base_url + "no-such-page", base_url + "records/gone/deeper/still/"):
            for reference in references:
                target = urljoin(depth_url, reference)
                assert fetch(target).status == 200, f"{reference} from {depth_url}"


def test_absolute_urls_of_a_build_for_the_served_address_all_resolve(demo_site, tmp_path):
    """Built for the very address it is served at: canonical links, sitemap and feed point at real pages."""
    output = tmp_path / "served"
    with serve_directory(output, prefix="/repo/") as base_url:
        build(demo_site, base_url, output)
        report = crawl(base_url)
        assert_clean(report)
        canonical = {urljoin(base_url, page) for page in built_pages(output)}
        assert canonical <= set(report.fetched), "canonical links point at the pages themselves"
        sitemap = ET.fromstring(fetch(base_url + "sitemap.xml").body)
        locations = [loc.text for loc in sitemap.findall("s:url/s:loc", SITEMAP_NS)]
        assert set(locations) == canonical
        feed = ET.fromstring(fetch(base_url + "feed.xml").body)
        feed_links = [link.get("href") for link in feed.iter("{http://www.w3.org/2005/Atom}link")]
        assert feed_links and all(fetch(href).status == 200 for href in feed_links if href.startswith(base_url))


def test_paginated_lists_link_every_page_and_year(demo_site):
    """Split into pages, the profile's page links and year jump links (to other pages too) all resolve,
    and every page is reached although each links only to its neighbours, the first and the last."""
    site_yaml = demo_site / "content" / "site.yaml"
    site_yaml.write_text(site_yaml.read_text(encoding="utf-8") + "\nrecords_per_page: 2\n", encoding="utf-8")
    output = build(demo_site, "https://user.github.io/repo/")
    if not (output / "page" / "2" / "index.html").exists():
        pytest.skip("this build does not split long lists into pages")
    with serve_directory(output, prefix="/repo/") as base_url:
        report = crawl(base_url)
    assert_clean(report)
    assert crawled_paths(report, base_url) == built_pages(output)
    year_links = BeautifulSoup((output / "page" / "2" / "index.html").read_bytes(), "lxml").select(".year-nav a")
    targets = {urlsplit(a["href"]).path for a in year_links}
    assert len(targets) > 1, "year links of a later page reach years on other pages"
    pages = [output / "index.html"] + [output / "page" / str(n) / "index.html" for n in range(2, len(list((output / "page").iterdir())) + 2)]
    holding = {}  # year anchor -> the first page that has it
    for page in pages:
        for anchor in BeautifulSoup(page.read_bytes(), "lxml").select("[id^=year-]"):
            holding.setdefault(anchor["id"], page)
    for link in year_links:  # to the page of the year's first record
        href = urlsplit(link["href"])
        assert output / href.path.removeprefix("/repo/") / "index.html" == holding[href.fragment], link["href"]

    count = len(list((output / "page").iterdir())) + 1
    assert count >= 10, "enough pages for the navigation to skip some"
    for number, shown in [(1, ["1", "2", "3", "…", str(count)]), (6, ["1", "…", "4", "5", "6", "7", "8", "…", str(count)])]:
        path = output / ("index.html" if number == 1 else f"page/{number}/index.html")
        nav = BeautifulSoup(path.read_bytes(), "lxml").select_one("nav.pagination")
        numbers = [li.get_text(strip=True).removeprefix("Page") for li in nav.select("li") if "rel" not in (li.a.attrs if li.a else {})]
        assert numbers == shown, path
        assert nav.select_one("[aria-current=page]").get_text(strip=True) == f"Page{number}"


def test_a_relative_record_link_leads_to_the_sites_file_from_every_page(tmp_path):
    """`links: {slides: static/talk.pdf}` is the site's own file wherever the record is shown:
    profile page, record page, subject page (once it led to records/<id>/static/talk.pdf there)."""
    site = copy_demo(tmp_path / "demo")
    (site / "static").mkdir(exist_ok=True)
    (site / "static" / "talk.pdf").write_bytes(b"%PDF-1.4 the slides")
    (site / "content" / "records" / "relative-links.yaml").write_text(
        "id: relative-links\ntitle: Relative Links\nyear: 2031\ncategories: [cs.DC]\n"
        "links: {slides: static/talk.pdf, pdf: static/talk.pdf, data: 'https://e.org/d'}\n",
        encoding="utf-8",
    )
    profile = site / "content" / "profile.yaml"
    profile.write_text(profile.read_text(encoding="utf-8").replace("links:\n", "links:\n  slides: static/talk.pdf\n", 1), encoding="utf-8")
    output = build(site, "https://user.github.io/repo/")
    with serve_directory(output, prefix="/repo/") as base_url:
        assert_clean(crawl(base_url))
        assert fetch(urljoin(base_url, "/repo/static/talk.pdf")).body == b"%PDF-1.4 the slides"

    pages = {path: BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser") for path in output.rglob("*.html")}
    shown = [path.relative_to(output).as_posix() for path, soup in pages.items() if soup.find(string="Relative Links")]
    assert {"index.html", "records/relative-links/index.html", "subjects/cs.DC/index.html"} <= set(shown)
    for name in shown:
        hrefs = {a["href"] for a in pages[output / name].find_all("a", href=True)}
        assert "/repo/static/talk.pdf" in hrefs and "https://e.org/d" in hrefs, name
        assert "static/talk.pdf" not in hrefs, name
    person = next(
        data["mainEntity"]
        for data in map(json.loads, (tag.string for tag in pages[output / "index.html"].select('script[type="application/ld+json"]')))
        if data["@type"] == "ProfilePage"
    )
    assert "https://user.github.io/repo/static/talk.pdf" in person["sameAs"]
    assert "https://github.com/example-lena" in person["sameAs"]
    record_page = pages[output / "records" / "relative-links" / "index.html"]
    assert record_page.find("meta", attrs={"name": "citation_pdf_url"})["content"] == "https://user.github.io/repo/static/talk.pdf"
    record = next(r for r in json.loads((output / "records.json").read_text(encoding="utf-8"))["records"] if r["id"] == "relative-links")
    assert record["links"] == {
        "slides": "https://user.github.io/repo/static/talk.pdf",
        "pdf": "https://user.github.io/repo/static/talk.pdf",
        "data": "https://e.org/d",
    }
