"""A researcher who changed their name: `former_names` in profile.yaml are theirs (highlighted, their people page),
and printed nowhere on the site, the current `name` standing in their place in every page, export, feed and tag."""

from __future__ import annotations

import json

import bibtexparser
import feedparser
import lxml.html
import pytest
from conftest import rendered_files, write_site

from sitegen.build import check_site
from sitegen.errors import ContentError

PROFILE = "name: Robin Okafor\nformer_names: [Daniel Okafor]\n"
SITE = {
    "content/site.yaml": "title: Robin Okafor\nbase_url: https://robin.example.org/\npeople: authors\n",
    "content/profile.yaml": PROFILE,
    "content/records/old.yaml": (
        "- {id: graphs, title: Sparse Graph Sketches, authors: [Daniel Okafor, Mei Tanaka], year: 2016, source: Journal of Graphs,"
        " doi: 10.1000/jg.1, author_ids: {Daniel Okafor: 0000-0002-1825-0097}}\n"
        "- {id: '1805.01234', title: Streaming Triangles, authors: ['Tanaka, Mei', 'Okafor, D.'], year: 2018, source: arXiv,"
        " arxiv: '1805.01234'}\n"
        "- {id: updated, title: Updated By The Publisher, authors: [Robin Okafor, Jonas Berg], year: 2019, source: Algorithmica}\n"
    ),
    "content/records/old.bib": "@book{okafor2017,\n  editor = {Okafor, Daniel and Berg, Jonas},\n  title = {Edited Volume},\n  publisher = {Springer},\n  year = {2017}\n}\n",
}


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, bytes]:
    return rendered_files(write_site(tmp_path_factory.mktemp("former"), SITE))


@pytest.mark.slow  # a site rendered with people pages
def test_a_former_name_is_printed_in_no_file_of_the_site(files):
    assert [path for path, data in files.items() if b"Daniel" in data or b"Okafor, D." in data] == []


def test_a_coauthor_named_as_the_former_name_may_be_is_kept_beside_the_current_name(tmp_path):
    """Of a list's names only one closer to the former name than any is to the current one is the owner's."""
    record = "id: cousin\ntitle: With A Cousin\nauthors: [Robin Okafor, D. Okafor]\nyear: 2024\nsource: SODA\n"
    files = rendered_files(write_site(tmp_path, {**SITE, "content/records/old.yaml": record, "content/records/old.bib": ""}))
    page = lxml.html.fromstring(files["records/cousin/index.html"])
    assert page.xpath("//meta[@name='citation_author']/@content") == ["Okafor, Robin", "Okafor, D."]


@pytest.mark.slow  # a site rendered with people pages
def test_the_records_of_the_former_name_are_the_owners(files):
    profile = lxml.html.fromstring(files["index.html"])
    for record in ("graphs", "1805.01234", "updated", "okafor2017"):
        owners = profile.xpath(f"//*[@id='r-{record}']//*[contains(concat(' ', @class, ' '), ' owner ')]/text()")
        assert owners == ["Robin Okafor"], record
    person = lxml.html.fromstring(files["people/robin-okafor/index.html"])
    assert {"r-graphs", "r-1805.01234", "r-updated"} <= set(person.xpath("//li/@id"))
    assert "people/daniel-okafor/index.html" not in files


@pytest.mark.slow  # a site rendered with people pages
def test_exports_and_tags_give_the_current_name(files):
    entries = {entry.key: entry for entry in bibtexparser.parse_string(files["publications.bib"].decode()).entries}
    assert entries["okafor2016sparse"]["author"] == "Robin Okafor and Mei Tanaka"  # its key from the current name too
    assert entries["okafor2017"]["editor"].startswith("Robin Okafor and ")
    records = {record["id"]: record for record in json.loads(files["records.json"])["records"]}
    assert records["1805.01234"]["authors"] == ["Mei Tanaka", "Robin Okafor"]
    feed = feedparser.parse(files["feed.xml"])
    assert {author["name"] for entry in feed.entries for author in entry.get("authors", [])} >= {"Robin Okafor"}
    page = lxml.html.fromstring(files["records/graphs/index.html"])
    assert page.xpath("//meta[@name='citation_author']/@content") == ["Okafor, Robin", "Tanaka, Mei"]
    assert page.xpath("//meta[@name='citation_doi']/@content") == ["10.1000/jg.1"]  # the paper is still the published one
    person = json.loads(lxml.html.fromstring(files["index.html"]).xpath("//script[@type='application/ld+json']/text()")[0])
    assert "alternateName" not in json.dumps(person)


def test_a_former_name_also_listed_as_printed_is_a_warning(tmp_path):
    site = write_site(tmp_path, {**SITE, "content/profile.yaml": "name: Robin Okafor\nname_variants: [Daniel Okafor]\nformer_names: [Daniel Okafor]\n"})
    warnings = [str(problem) for problem in check_site(site).warnings]
    assert (
        "content/profile.yaml:3: warning: field 'former_names': 'Daniel Okafor' is also your name or one of name_variants, "
        "which are printed as written: keep it in one of them"
    ) in warnings


@pytest.mark.parametrize("written", ["former_name", "deadname", "formernames"])
def test_a_misspelt_former_names_is_answered_with_the_field(tmp_path, written):
    site = write_site(tmp_path, {**SITE, "content/profile.yaml": f"name: Robin Okafor\n{written}: [Daniel Okafor]\n"})
    warnings = [str(problem) for problem in check_site(site).warnings]
    assert f"content/profile.yaml:2: warning: field '{written}': unknown setting; did you mean 'former_names'?" in warnings


def test_former_names_must_be_text(tmp_path):
    site = write_site(tmp_path, {**SITE, "content/profile.yaml": "name: Robin Okafor\nformer_names: {Daniel: Okafor}\n"})
    with pytest.raises(ContentError) as raised:
        check_site(site)
    assert "content/profile.yaml:2: field 'former_names': expected a list of strings" in str(raised.value)


@pytest.mark.slow  # a lab's site with people pages rendered
def test_a_members_former_name_is_printed_as_their_name_and_their_records_are_theirs(tmp_path):
    member = "name: Robin Okafor\nformer_names: [Daniel Okafor]\nslug: robin\n"
    site = {**SITE, "content/site.yaml": "title: Graph Lab\nbase_url: https://lab.example.org/\n", "content/profile.yaml": "name: Graph Lab\n"}
    files = rendered_files(write_site(tmp_path, {**site, "content/people/robin.yaml": member}))
    assert [path for path, data in files.items() if b"Daniel" in data or b"Okafor, D." in data] == []
    person = lxml.html.fromstring(files["people/robin/index.html"])
    assert {"r-graphs", "r-1805.01234", "r-updated"} <= set(person.xpath("//li/@id"))
    record = lxml.html.fromstring(files["records/graphs/index.html"])
    assert record.xpath("//meta[@name='citation_author']/@content") == ["Okafor, Robin", "Tanaka, Mei"]
