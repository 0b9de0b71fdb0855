"""What reference managers and search engines read from the built demo (SPEC §8).

output/publications.ris read back by rispy as EndNote, Zotero and Mendeley read it,
against records.json of the same build; the citation_* tags Zotero's connector saves
a record page by; the schema.org JSON-LD of the profile (Person) and of every record
page (ScholarlyArticle) checked against Google's rules (tests/fixtures/schema); and
the canonical, Open Graph and Twitter tags every page should carry.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import rispy
from bs4 import BeautifulSoup
from jsonschema import Draft202012Validator

from sitegen.names import csl_name, family_first

SCHEMAS = Path(__file__).resolve().parents[1] / "fixtures" / "schema"
ARTICLE = Draft202012Validator(json.loads((SCHEMAS / "scholarly_article.schema.json").read_text(encoding="utf-8")))
PERSON = Draft202012Validator(json.loads((SCHEMAS / "person.schema.json").read_text(encoding="utf-8")))
PROFILE_PAGE = Draft202012Validator(json.loads((SCHEMAS / "profile_page.schema.json").read_text(encoding="utf-8")))
RIS_TYPE = {"article": "JOUR", "inproceedings": "CPAPER", "preprint": "UNPB", "thesis": "THES"}


@pytest.fixture(scope="module")
def records(built_demo) -> list[dict]:
    return json.loads((built_demo / "records.json").read_text(encoding="utf-8"))["records"]


@pytest.fixture(scope="module")
def ris(built_demo) -> list[dict]:
    data = (built_demo / "publications.ris").read_bytes()
    assert b"\r\n" in data and data.decode("utf-8")  # the specification's line ends, UTF-8
    return rispy.loads(data.decode("utf-8"))


def soup_of(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "lxml")


def json_ld(soup: BeautifulSoup) -> list[dict]:
    return [json.loads(tag.string) for tag in soup.find_all("script", type="application/ld+json")]


@pytest.mark.slow
def test_ris_has_every_shown_record_in_order(records, ris):
    assert len(ris) == len(records) > 10
    assert [r["title"] for r in ris] == [r["title"] for r in records]


def test_ris_fields_match_the_records(records, ris, built_demo):
    for record, entry in zip(records, ris):
        assert entry["year"] == f"{record['year']:04d}"
        assert len(entry["authors"]) == len(record["authors"])
        for written, name in zip(entry["authors"], record["authors"]):
            family = written.split(",")[0]
            assert family and family in name  # "Müller, Lena" for "Lena Müller"
        if record["doi"]:
            assert entry["doi"] == record["doi"]
        assert entry.get("urls"), record["id"]
        if record["abstract"]:
            assert entry["abstract"].split()[:8] == record["abstract"].split()[:8]
    kinds = {entry["type_of_reference"] for entry in ris}
    assert {"JOUR", "CPAPER", "UNPB", "THES"} <= kinds  # the demo has journal and conference papers, preprints, a thesis


def test_ris_types_follow_the_record_types(ris, built_demo):
    facets = json.loads((built_demo / "search" / "facets.json").read_text(encoding="utf-8"))
    types = [facets["types"][row[2]][0] for row in facets["records"]]
    assert len(types) == len(ris)
    for kind, entry in zip(types, ris):
        if kind in RIS_TYPE:
            assert entry["type_of_reference"] == RIS_TYPE[kind], entry["title"]


def test_ris_is_linked_from_record_pages(built_demo, records):
    page = soup_of(built_demo / "records" / records[0]["id"].replace("/", "-") / "index.html")
    assert page.select_one('.cite a[href$="publications.ris"]') is not None


def test_record_pages_keep_the_tags_zotero_reads(built_demo, records):
    for record in records:
        slug = "".join(c if c.isalnum() or c in "._-" else "-" for c in record["id"])
        soup = soup_of(built_demo / "records" / slug / "index.html")
        meta = {}
        for tag in soup.find_all("meta", attrs={"name": True}):
            meta.setdefault(tag["name"], []).append(tag["content"])
        assert meta["citation_title"] == [record["title"]]
        assert meta.get("citation_author", []) == [family_first(csl_name(name)) for name in record["authors"]]  # "Müller, Lena"
        assert meta["citation_publication_date"][0].startswith(str(record["year"]))


SCHOLARLY_TYPES = ("ScholarlyArticle", "Thesis", "Book", "Chapter", "Report", "SoftwareSourceCode", "Dataset")  # by the record's type


def test_every_record_page_has_a_valid_scholarly_article(built_demo, records):
    for record in records:
        slug = "".join(c if c.isalnum() or c in "._-" else "-" for c in record["id"])
        articles = [d for d in json_ld(soup_of(built_demo / "records" / slug / "index.html")) if d.get("@type") in SCHOLARLY_TYPES]
        assert len(articles) == 1, slug
        article = articles[0]
        errors = [e.message for e in ARTICLE.iter_errors(article)]
        assert errors == [], (slug, errors)
        assert article["name"] == record["title"]
        assert article["url"] == record["url"]
        assert [a["name"] for a in article.get("author", [])] == record["authors"]


def test_profile_has_a_person_with_name_affiliation_and_accounts(built_demo):
    import yaml

    profile = yaml.safe_load((Path(__file__).resolve().parents[2] / "content" / "profile.yaml").read_text(encoding="utf-8"))
    pages = [d for d in json_ld(soup_of(built_demo / "index.html")) if d.get("@type") == "ProfilePage"]
    assert len(pages) == 1
    assert [e.message for e in PROFILE_PAGE.iter_errors(pages[0])] == []
    person = pages[0]["mainEntity"]
    assert [e.message for e in PERSON.iter_errors(person)] == []
    assert person["name"] == profile["name"]
    assert person["affiliation"]["name"] == profile["affiliation"]
    same_as = " ".join(person.get("sameAs", []))
    for kind, host in (("orcid", "orcid.org"), ("google_scholar", "scholar.google.com"), ("github", "github.com")):
        if kind in profile.get("links", {}):
            assert host in same_as, kind


@pytest.mark.parametrize("page", ["index.html", "subjects/cs.DC/index.html", "records/2601.08832/index.html"])
def test_pages_have_canonical_open_graph_and_twitter_tags(built_demo, page):
    """The canonical URL is the page's own under base_url; Open Graph and Twitter tags are there (SPEC §7)."""
    import yaml

    base_url = yaml.safe_load((Path(__file__).resolve().parents[2] / "content" / "site.yaml").read_text(encoding="utf-8"))["base_url"]
    soup = soup_of(built_demo / page)
    own_url = base_url.rstrip("/") + "/" + page.removesuffix("index.html")
    assert [tag["href"] for tag in soup.find_all("link", rel="canonical")] == [own_url]
    properties = {tag["property"]: tag.get("content", "") for tag in soup.find_all("meta", attrs={"property": True})}
    names = {tag["name"]: tag.get("content", "") for tag in soup.find_all("meta", attrs={"name": True})}
    assert properties.get("og:url") == own_url
    assert properties.get("og:title") and properties.get("og:type")
    assert names.get("twitter:card") in ("summary", "summary_large_image")


@pytest.mark.slow  # a second site checked in memory
def test_publications_ris_read_back_by_the_ris_reader_gives_the_same_records(records, built_demo, tmp_path):
    """The demo's publications.ris as the one record file of a site with the demo's settings and profile: each
    record comes back as the demo shows it (the RIS reader, sitegen.sources.ris, reads what EndNote and Zotero
    would be given)."""
    import shutil

    from conftest import REPO

    from sitegen.build import check_site

    site = tmp_path / "again"
    (site / "content" / "records").mkdir(parents=True)
    for name in ("site.yaml", "profile.yaml"):
        shutil.copy(REPO / "content" / name, site / "content" / name)
    shutil.copytree(REPO / "static", site / "static")
    (site / "content" / "records" / "publications.ris").write_bytes((built_demo / "publications.ris").read_bytes())
    result = check_site(site)
    assert [str(problem) for problem in result.warnings if not problem.note] == []
    again = {record["title"]: record for record in json.loads(result.files["records.json"])["records"]}
    assert len(again) == len(records)
    pages = {record["url"] for record in records}
    for record in records:
        back = again[record["title"]]
        for name in ("authors", "more_authors", "year", "date", "source", "venue_short", "type", "doi", "arxiv", "categories"):
            assert back[name] == record[name], (record["id"], name)
        for name in ("volume", "number", "pages", "publisher", "editors", "edition", "series", "isbn", "issn"):
            assert back["details"].get(name) == record["details"].get(name), (record["id"], name)
        links = {kind: url for kind, url in back["links"].items() if url not in pages}  # a record with no address of its own: its page
        written = {kind: url for kind, url in record["links"].items() if url in links.values()}
        assert links == written and set(links) <= set(record["links"]), record["id"]
        if record["abstract"]:
            assert back["abstract"] == record["abstract"], record["id"]
