"""A site in several languages as its readers' tools see it (docs/homepage.md, "Several languages"): a Barcelona
group's site in Catalan, Spanish and English and a Quebec researcher's in French and English, under a project
site's sub-path; what a screen reader, a link preview and a search engine are told, and what its author is told
of a mistake."""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup
from conftest import rendered_files, run_sitegen, write_site

THREE_LANGUAGES = {
    "content/site.yaml": "title: Grup de Sistemes Complexos\nbase_url: https://user.github.io/lab/\nlanguages: [ca, es, en]\n"
    "nav:\n  - {title: Qui som, url: about/}\n  - {title: Publicacions, url: '#publications'}\n",
    "content/profile.yaml": "name: Marta Puig\nbio: Treballo en sistemes complexos.\n",
    "content/profile.es.yaml": "bio: Trabajo en sistemas complejos.\n",
    "content/profile.en.yaml": "bio: I work on complex systems.\n",
    "content/pages/about.md": "---\ntitle: Qui som\n---\nEl grup.\n",
    "content/pages/about.es.md": "---\ntitle: Quiénes somos\n---\nEl grupo.\n",
    "content/records/xarxes.yaml": "id: xarxes\ntitle: Xarxes complexes\nauthors: [Marta Puig]\nyear: 2024\n",
}

POSTS = {
    "content/posts/2025-05-20-xarxes.md": "---\ntitle: Per què les xarxes\ndate: 2025-05-20\n---\nUn article.\n",
    "content/posts/2025-05-20-xarxes.en.md": "---\ntitle: Why networks\ndate: 2025-05-20\n---\nA post.\n",
    "content/posts/2025-07-01-estiu.md": "---\ntitle: Un estiu a Barcelona\ndate: 2025-07-01\n---\nNomés en català.\n",
}


def soup(data: bytes) -> BeautifulSoup:
    return BeautifulSoup(data.decode("utf-8"), "html.parser")


@pytest.fixture(scope="module")
def three_languages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """Every file of the site in Catalan, Spanish and English, with its posts (rendered once for the tests that read it)."""
    return rendered_files(write_site(tmp_path_factory.mktemp("three-languages"), {**THREE_LANGUAGES, **POSTS}))


def test_a_menu_written_in_site_yaml_is_marked_as_the_default_languages_on_the_other_languages_pages(three_languages) -> None:
    """site.yaml's menu titles are the same in every language (written in the default one): on the Spanish and English
    pages "Qui som" was unmarked, and a screen reader said Catalan words with a Spanish or English voice (WCAG 3.1.2)."""
    files = three_languages
    for page, lang in (("index.html", None), ("es/index.html", "ca"), ("es/about/index.html", "ca"), ("en/index.html", "ca")):
        menu = soup(files[page]).select(".site-header nav:not(.languages) a")
        assert [(a.get_text(strip=True), a.get("lang")) for a in menu] == [("Qui som", lang), ("Publicacions", lang)], page


def test_a_profile_or_cv_named_in_the_default_language_is_a_warning_that_says_so(tmp_path) -> None:
    """profile.en.yaml on a site in [en, fr-CA] was "in 'en', which is not one of site.yaml's languages (en, fr-CA)":
    a warning that said the opposite of site.yaml. It says what a page named so is told."""
    cv = "sections:\n  - title: Positions\n    entries:\n      - {title: Professor, org: Université Laval, start: 2022}\n"
    site = write_site(
        tmp_path,
        {
            "content/site.yaml": "title: Émilie Tremblay\nbase_url: https://user.github.io/laval/\nlanguages: [en, fr-CA]\n",
            "content/profile.yaml": "name: Émilie Tremblay\nbio: I work on random graphs.\n",
            "content/profile.en.yaml": "bio: I work on random graphs.\n",
            "content/cv.yaml": cv,
            "content/cv.en.yaml": cv,
        },
    )
    result = run_sitegen("check", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "not one of site.yaml's languages" not in result.stderr
    said = "warning: the file's name says it is in en, the default language, whose files' names say none"
    assert f"content/profile.en.yaml: {said} (profile.yaml); left out" in result.stderr
    assert f"content/cv.en.yaml:1: {said} (cv.yaml); left out" in result.stderr


def test_link_previews_name_the_locales_of_the_pages_other_versions(three_languages) -> None:
    """og:locale:alternate (ogp.me: "other locales this page is available in") beside og:locale, for each other
    language the page is in; none on a page in one language."""
    files = three_languages

    def locales(page: str) -> tuple[str | None, list[str]]:
        head = soup(files[page])
        own = head.select_one('meta[property="og:locale"]')
        return own["content"] if own else None, [m["content"] for m in head.select('meta[property="og:locale:alternate"]')]

    assert locales("index.html") == ("ca_ES", ["es_ES", "en_US"])
    assert locales("es/about/index.html") == ("es_ES", ["ca_ES"])  # no English version
    assert locales("records/xarxes/index.html") == ("ca_ES", [])  # in the default language only


def test_a_posts_link_to_the_next_post_in_another_language_is_marked_with_its_language(three_languages) -> None:
    """The English post's "Newer post" is the Catalan-only one: its title was unmarked (the list of posts marks it),
    and a screen reader read it with an English voice."""
    files = three_languages
    newer = soup(files["en/posts/xarxes/index.html"]).select_one(".post-nav a.post-newer")
    assert newer["href"] == "/lab/posts/estiu/" and newer.get("lang") is None  # "Newer post" is the page's English
    assert [(e.get_text(), e["lang"]) for e in newer.select("[lang]")] == [("Un estiu a Barcelona", "ca")]
    older = soup(files["posts/estiu/index.html"]).select_one(".post-nav a.post-older")
    assert older["href"] == "/lab/posts/xarxes/" and not older.select("[lang]")


def test_a_posts_structured_data_names_its_language_on_a_site_in_several(three_languages, tmp_path) -> None:
    """schema.org's inLanguage on each version of a post: the Catalan original and its English translation said
    nothing of the language they are in."""
    files = three_languages

    def posting(page: str) -> dict:
        return json.loads(soup(files[page]).select_one('script[type="application/ld+json"]').string)

    assert posting("posts/xarxes/index.html")["inLanguage"] == "ca"
    assert posting("en/posts/xarxes/index.html")["inLanguage"] == "en"
    assert posting("posts/estiu/index.html")["inLanguage"] == "ca"
    one_language = {**POSTS, "content/site.yaml": "title: Marta Puig\nbase_url: https://user.github.io/lab/\nlanguage: ca\n"}
    one_language = {**one_language, "content/profile.yaml": THREE_LANGUAGES["content/profile.yaml"]}
    files = rendered_files(write_site(tmp_path / "one", one_language))
    assert "inLanguage" not in posting("posts/xarxes/index.html")  # a site in one language: as before


def test_each_languages_pages_lead_home_to_that_language_and_search_the_sites_one_index(three_languages) -> None:
    """The search of /es/ fetched /lab/es/search/facets.json, which no build writes ("Search is unavailable") and
    linked its results to /lab/es/records/...; and on the pages of a language with a post of its own the header's
    name led to the default language's home (its address was worked out before the language's pages were known)."""
    files = three_languages
    for language, pages in (
        ("", ("index.html", "about/index.html")),
        ("es/", ("es/index.html", "es/about/index.html")),
        ("en/", ("en/index.html", "en/posts/xarxes/index.html")),
    ):
        for page in pages:
            assert soup(files[page]).select_one(".site-header a.site-name")["href"] == f"/lab/{language}", page
        form = soup(files[pages[0]]).select_one("form.search")
        assert (form["data-index"], form["data-records"]) == ("/lab/search/", "/lab/records/"), language
        assert "search/facets.json" in files and "search/text.json" in files and "records/xarxes/index.html" in files


def test_the_type_filter_of_a_languages_pages_names_the_types_in_that_language(three_languages) -> None:
    """The Spanish and English pages' type filter said "Article" (Catalan): the facets were the default language's.
    Each language has its facets (es/search/facets.json), named by its pages' form; the text is searched in one."""
    files = three_languages
    forms = {page: soup(files[page]).select_one("form.search") for page in ("index.html", "es/index.html", "en/index.html")}
    assert forms["index.html"].get("data-facets") is None  # the default language's: at data-index, as before
    assert forms["es/index.html"]["data-facets"] == "/lab/es/search/facets.json"
    assert forms["en/index.html"]["data-facets"] == "/lab/en/search/facets.json"
    types = {path: json.loads(files[path])["types"] for path in ("search/facets.json", "es/search/facets.json", "en/search/facets.json")}
    assert types == {"search/facets.json": [["other", "Altres"]], "es/search/facets.json": [["other", "Otro"]], "en/search/facets.json": [["other", "Other"]]}
    assert "es/search/text.json" not in files


def test_a_three_letter_code_in_languages_is_a_warning_naming_the_tag_meant(tmp_path) -> None:
    """`languages: [fr-CA, eng]` was taken as it is: its pages' hreflang="eng", which search engines ignore (Google's
    hreflang takes ISO 639-1 codes; BCP 47 takes the shortest), and every profile.en.yaml or about.en.md left out."""
    site = write_site(
        tmp_path,
        {
            "content/site.yaml": "title: Émilie Tremblay\nbase_url: https://user.github.io/laval/\nlanguage: fr-CA\nlanguages: [fr-CA, eng]\n",
            "content/profile.yaml": "name: Émilie Tremblay\nbio: Je travaille sur les graphes aléatoires.\n",
        },
    )
    result = run_sitegen("check", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "content/site.yaml:4: warning: field 'languages': eng is ISO 639-2's code for a language whose tag is en: did you mean en?" in result.stderr
