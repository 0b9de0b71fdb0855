"""Links to a record keep working when it is renamed (`aliases`) or merged with another version of the work: its
old page leads to its page, and its old anchor on the lists is still there."""

from __future__ import annotations

import lxml.html
import pytest
from conftest import rendered_files, write_site

from sitegen.build import check_site

SITE = {
    "content/site.yaml": "title: Robin Okafor\nbase_url: https://robin.example.org/site/\n",
    "content/profile.yaml": "name: Robin Okafor\n",
    "content/records/papers.yaml": (
        # a preprint, and later its journal version: one work, shown at the journal version's id
        "- {id: '1805.01234', title: Streaming Triangles, authors: [Robin Okafor], year: 2018, source: arXiv, arxiv: '1805.01234'}\n"
        "- {id: okafor2019streaming, title: Streaming Triangles, authors: [Robin Okafor], year: 2019, source: Information Letters,"
        " arxiv: '1805.01234', doi: 10.1000/il.5}\n"
        # a record renamed: its old id kept as an alias
        "- {id: okafor2023renamed, aliases: [okafor2023new, con], title: New Paper, authors: [Robin Okafor], year: 2023, source: SODA}\n"
    ),
}


def redirect_target(page: bytes) -> str:
    return lxml.html.fromstring(page).xpath("//meta[@http-equiv='refresh']/@content")[0].split("url=", 1)[1]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, bytes]:
    return rendered_files(write_site(tmp_path_factory.mktemp("moves"), SITE))


def test_a_merged_preprints_page_leads_to_the_work(files):
    assert redirect_target(files["records/1805.01234/index.html"]) == "/site/records/okafor2019streaming/"
    assert b"records/1805.01234/" not in files["sitemap.xml"]


def test_a_renamed_records_page_leads_to_its_new_page(files):
    assert redirect_target(files["records/okafor2023new/index.html"]) == "/site/records/okafor2023renamed/"
    assert "records/con/index.html" not in files  # no folder Windows cannot hold


def test_the_old_anchors_are_on_the_lists(files):
    profile = lxml.html.fromstring(files["index.html"])
    item = profile.get_element_by_id("r-okafor2019streaming")
    assert item.get_element_by_id("r-1805.01234") is not None
    assert profile.get_element_by_id("r-okafor2023renamed").get_element_by_id("r-okafor2023new") is not None


def test_a_redirect_of_redirects_yaml_at_an_old_address_wins(tmp_path):
    site = write_site(tmp_path, {**SITE, "content/redirects.yaml": "records/okafor2023new/: '#publications'\n"})
    files = {path: bytes(data) for path, data in check_site(site).files.items()}
    assert redirect_target(files["records/okafor2023new/index.html"]) == "/site/#publications"


def test_an_old_address_that_leads_to_a_records_old_page_leads_past_it_in_one_step(tmp_path):
    """A migration's redirect to the page a listing had, which is now a renamed record's old page: one hop, not two
    (a browser, a crawler and a link checker each follow one refresh)."""
    redirects = "publication/new-paper/: records/okafor2023new/\nold-talk.html: records/1805.01234/#abstract\n"
    site = write_site(tmp_path, {**SITE, "content/redirects.yaml": redirects})
    files = {path: bytes(data) for path, data in check_site(site).files.items()}
    assert redirect_target(files["publication/new-paper/index.html"]) == "/site/records/okafor2023renamed/"
    assert redirect_target(files["old-talk.html"]) == "/site/records/okafor2019streaming/#abstract"
    assert redirect_target(files["records/okafor2023new/index.html"]) == "/site/records/okafor2023renamed/"


def test_old_addresses_of_redirects_yaml_that_lead_to_one_another_lead_to_the_last(tmp_path):
    site = write_site(tmp_path, {**SITE, "content/redirects.yaml": "a/: b/\nb/: c/\nc/: '#publications'\n"})
    files = {path: bytes(data) for path, data in check_site(site).files.items()}
    assert {redirect_target(files[f"{name}/index.html"]) for name in "abc"} == {"/site/#publications"}


def test_old_addresses_that_lead_round_in_a_circle_are_a_warning(tmp_path):
    site = write_site(tmp_path, {**SITE, "content/redirects.yaml": "a/: b/\nb/: a/\nself/: self/\n"})
    result = check_site(site)
    circles = [str(problem) for problem in result.warnings if "in a circle" in str(problem)]
    assert len(circles) == 2, circles
    assert circles[0].startswith("content/redirects.yaml:1: warning: redirect of 'a/': a/ -> b/ -> a/ leads round in a circle")
    assert circles[1].startswith("content/redirects.yaml:3: warning: redirect of 'self/': self/ -> self/ leads round")
