"""A site that moves (from a user page to a custom domain or a project path) keeps its feeds' entry ids with
site.yaml's `feed_id_base`, so that feed readers do not show every entry again as new."""

from __future__ import annotations

import feedparser
import pytest
from conftest import rendered_files, write_site

from sitegen.build import check_site
from sitegen.errors import ContentError

OLD = "https://robin.github.io/"
SITE = {
    "content/site.yaml": f"title: Robin Okafor\nbase_url: https://robin.example.org/site/\nfeed_id_base: {OLD}\npeople: authors\n",
    "content/profile.yaml": "name: Robin Okafor\n",
    "content/records/a.yaml": "id: okafor2023\ntitle: A Paper\nauthors: [Robin Okafor, Mei Tanaka]\nyear: 2023\nsource: SODA\n",
    "content/news/2024-05-01-award.md": "---\ndate: 2024-05-01\ntitle: An award\n---\nWe won.\n",
    "content/posts/hello.md": "---\ntitle: Hello\ndate: 2024-06-01\n---\nA post.\n",
}


@pytest.mark.slow  # a site with news, a blog and people pages rendered
def test_every_feed_keeps_the_ids_of_the_first_address_and_links_to_the_new_one(tmp_path):
    files = rendered_files(write_site(tmp_path, SITE))
    feed = feedparser.parse(files["feed.xml"])
    assert feed.feed.id == OLD
    assert [(entry.id, entry.link) for entry in feed.entries] == [(f"{OLD}records/okafor2023/", "https://robin.example.org/site/records/okafor2023/")]
    assert feed.feed.links[0].href == "https://robin.example.org/site/feed.xml"  # rel=self: where it is now
    news = feedparser.parse(files["news/feed.xml"])
    assert [entry.id for entry in news.entries] == [f"{OLD}news/#{news.entries[0].link.rpartition('#')[2]}"]
    posts = feedparser.parse(files["posts/feed.xml"])
    assert [(entry.id, entry.link) for entry in posts.entries] == [(f"{OLD}posts/hello/", "https://robin.example.org/site/posts/hello/")]
    person = feedparser.parse(files["people/robin-okafor/feed.xml"])
    assert person.feed.id == f"{OLD}people/robin-okafor/"
    assert [entry.id for entry in person.entries] == [f"{OLD}records/okafor2023/"]


def test_without_it_the_ids_are_the_pages_addresses(tmp_path):
    site = {**SITE, "content/site.yaml": "title: Robin Okafor\nbase_url: https://robin.example.org/site/\n"}
    site.pop("content/news/2024-05-01-award.md"), site.pop("content/posts/hello.md")
    feed = feedparser.parse(rendered_files(write_site(tmp_path, site))["feed.xml"])
    assert [entry.id for entry in feed.entries] == ["https://robin.example.org/site/records/okafor2023/"]


@pytest.mark.parametrize("written", ["feed_ids", "original_base_url", "feed_id_bse"])
def test_a_misspelt_feed_id_base_is_answered_with_the_setting(tmp_path, written):
    site = write_site(tmp_path, {**SITE, "content/site.yaml": f"title: R\nbase_url: https://robin.example.org/\n{written}: {OLD}\n"})
    warnings = [str(problem) for problem in check_site(site).warnings]
    assert f"content/site.yaml:3: warning: field '{written}': unknown setting; did you mean 'feed_id_base'?" in warnings


@pytest.mark.parametrize("written", ["robin.github.io", "/site/", "ftp://robin.github.io/"])
def test_a_feed_id_base_that_is_no_site_address_is_an_error(tmp_path, written):
    site = write_site(tmp_path, {**SITE, "content/site.yaml": f"title: R\nbase_url: https://robin.example.org/\nfeed_id_base: '{written}'\n"})
    with pytest.raises(ContentError) as raised:
        check_site(site)
    assert (
        "content/site.yaml:3: field 'feed_id_base': expected the address the site had when its feeds were first read, an http(s) URL "
        f"such as https://user.github.io/, got '{written}'"
    ) in str(raised.value)


RENAMED_AND_MERGED = {
    "content/site.yaml": "title: Robin Okafor\nbase_url: https://robin.example.org/\npeople: authors\n",
    "content/profile.yaml": "name: Robin Okafor\n",
    "content/records/papers.yaml": (
        "- {id: okafor2023renamed, aliases: [okafor2023new], title: New Paper, authors: [Robin Okafor], year: 2023, source: SODA}\n"
        "- {id: okafor2019streaming, title: Streaming Triangles, authors: [Robin Okafor], year: 2019, source: Information Letters,"
        " arxiv: '1805.01234', doi: 10.1000/il.5}\n"
        "- {id: okafor2016, title: Graphs, authors: [Robin Okafor], year: 2016, source: Algorithmica}\n"
    ),
    # the preprint, fetched from arXiv before its journal version was written by hand
    "content/records/arxiv/1805.01234.yaml": (
        "id: '1805.01234'\ntitle: Streaming Triangles\nauthors: [Robin Okafor]\nyear: 2018\ndate: 2018-05-03\nsource: arXiv\n"
        "arxiv: '1805.01234'\norigin: arxiv\n"
    ),
}


@pytest.mark.slow  # a site with people pages rendered
def test_a_renamed_record_and_a_preprint_merged_with_its_journal_version_keep_their_entry_ids(tmp_path):
    files = rendered_files(write_site(tmp_path, RENAMED_AND_MERGED))
    feed = feedparser.parse(files["feed.xml"])
    assert [(entry.id, entry.link) for entry in feed.entries] == [
        ("https://robin.example.org/records/okafor2023new/", "https://robin.example.org/records/okafor2023renamed/"),
        ("https://robin.example.org/records/1805.01234/", "https://robin.example.org/records/okafor2019streaming/"),
        ("https://robin.example.org/records/okafor2016/", "https://robin.example.org/records/okafor2016/"),
    ]
    person = feedparser.parse(files["people/robin-okafor/feed.xml"])
    assert [entry.id for entry in person.entries] == [entry.id for entry in feed.entries]
