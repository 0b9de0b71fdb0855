"""The search of a site in several languages in chromium, as a Barcelona group's Spanish reader uses it on a project
site (under /lab/): the Spanish home page's search finds a paper, leads to its page, and names the types in Spanish."""

from __future__ import annotations

import pytest
from conftest import run_sitegen, write_site
from crawl import serve_directory

pytestmark = pytest.mark.browser

SITE = {
    "content/site.yaml": "title: Grup de Sistemes Complexos\nbase_url: https://user.github.io/lab/\nlanguages: [ca, es]\n",
    "content/profile.yaml": "name: Marta Puig\nbio: Treballo en sistemes complexos.\n",
    "content/profile.es.yaml": "bio: Trabajo en sistemas complejos.\n",
    "content/records/xarxes.yaml": "id: xarxes\ntitle: Xarxes complexes\nauthors: [Marta Puig]\nyear: 2024\ntype: article\njournal: Physical Review E\n",
    "content/records/grafs.yaml": "id: grafs\ntitle: Grafs aleatoris\nauthors: [Marta Puig]\nyear: 2023\ntype: inproceedings\nbooktitle: NetSci\n",
}


def test_the_search_of_a_languages_home_page_finds_and_names_types_in_its_language(new_page, tmp_path) -> None:
    """It fetched /lab/es/search/facets.json, which no build writes, and said "Search is unavailable"."""
    site = write_site(tmp_path / "site", SITE)
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    with serve_directory(site / "output", prefix="/lab/") as base:
        page = new_page()
        page.goto(base + "es/")
        page.locator("form.search input[type=search]").fill("xarxes")
        page.wait_for_function("() => /^1 /.test(document.querySelector('.search-count').textContent.trim())")
        assert "no se pudo" not in page.locator("form.search").inner_text().lower()
        types = page.locator("#search-type option").all_inner_texts()
        assert types[0] != types[1] and any(text.startswith("Artículo") for text in types), types
        page.locator("main li:visible .record-title a, main .record-title a:visible").first.click()
        page.wait_for_url(base + "records/xarxes/")
