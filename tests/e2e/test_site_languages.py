"""A site in one language whose records, or some of whose pages, are in another (a Montréal researcher's French
site, its papers in English): what the pages and the feed tell a screen reader and a feed reader."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from bs4 import BeautifulSoup
from conftest import rendered_files, run_sitegen, write_site

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
ATOM = "{http://www.w3.org/2005/Atom}"

FRENCH_SITE = {
    "content/site.yaml": "title: Camille Tremblay\nbase_url: https://example.org/\nlanguage: fr-CA\nrecords_language: en\n",
    "content/profile.yaml": "name: Camille Tremblay\nbio: Je travaille sur la traduction automatique.\n",
    # fetched from arXiv: no language, English
    "content/records/fetched.yaml": "id: fetched\ntitle: Neural Machine Translation of Quebec French\nauthors: [Camille Tremblay]\nyear: 2024\n"
    "abstract: We translate Quebec French.\n",
    "content/records/french.yaml": "id: french\ntitle: Réseaux de neurones et traduction\nauthors: [Camille Tremblay]\nyear: 2023\nlanguage: fr\n",
    "content/records/unmarked.yaml": "id: unmarked\ntitle: Traduction du joual\nauthors: [Camille Tremblay]\nyear: 2021\nlanguage: fr-CA\n",
    "content/records/catalan.yaml": "id: catalan\ntitle: Models de llenguatge per al català\nauthors: [Camille Tremblay]\nyear: 2022\nlanguage: ca\n",
}


def soup(data: bytes) -> BeautifulSoup:
    return BeautifulSoup(data.decode("utf-8"), "html.parser")


def title_languages(files: dict[str, bytes]) -> dict[str, str | None]:
    """Each record's title in the home page's list, and the `lang` it is marked with (None: the page's)."""
    return {h.get_text(" ", strip=True): h.get("lang") for h in soup(files["index.html"]).select("#publications .record-title")}


def test_records_language_marks_the_records_that_name_none_in_the_pages_and_the_feed(tmp_path):
    """Without it, every English paper of a French site (arXiv's, Crossref's and most .bib entries name no
    language) was read with a French voice: WCAG 3.1.2, the language of parts."""
    files = rendered_files(write_site(tmp_path, FRENCH_SITE))
    assert title_languages(files) == {
        "Neural Machine Translation of Quebec French": "en",
        "Réseaux de neurones et traduction": "fr",  # its own `language`, as written
        "Models de llenguatge per al català": "ca",  # its own `language` wins
        "Traduction du joual": None,  # the page's
    }
    record = soup(files["records/fetched/index.html"])
    assert record.find("html")["lang"] == "fr-CA" and record.find("h1")["lang"] == "en"
    assert record.select_one(".abstract-body")["lang"] == "en"
    assert record.select_one("details.cite-styles")["data-csl-locale"] == "en-US"  # cited with "In" and "&", not "dans" and "et"
    assert soup(files["records/french/index.html"]).find("h1").get("lang") == "fr"
    feed = ET.fromstring(files["feed.xml"])
    assert feed.get(XML_LANG) == "fr-CA"
    assert {e.findtext(f"{ATOM}title"): e.get(XML_LANG) for e in feed.iter(f"{ATOM}entry")} == {
        "Neural Machine Translation of Quebec French": "en",
        "Réseaux de neurones et traduction": "fr",
        "Models de llenguatge per al català": "ca",
        "Traduction du joual": None,
    }


def test_records_language_leaves_a_record_whose_letters_are_of_another_script(tmp_path):
    """`records_language: en` marked a Russian title lang="en" (an English voice read it) and cited it with the English
    CSL locale: it is for the records whose letters it is written in. An English title with a Greek letter is English."""
    site = {
        **FRENCH_SITE,
        "content/records/russian.yaml": "id: russian\ntitle: О сортировке ключей\nauthors: [Camille Tremblay]\nyear: 2020\n",
        "content/records/greek.yaml": "id: greek\ntitle: The role of α-synuclein in translation\nauthors: [Camille Tremblay]\nyear: 2020\n",
    }
    files = rendered_files(write_site(tmp_path, site))
    languages = title_languages(files)
    assert languages["О сортировке ключей"] is None and languages["The role of α-synuclein in translation"] == "en"
    russian = soup(files["records/russian/index.html"])
    assert russian.find("h1").get("lang") is None
    assert russian.select_one("details.cite-styles")["data-csl-locale"] == "fr-CA"
    feed = ET.fromstring(files["feed.xml"])
    assert {e.findtext(f"{ATOM}title"): e.get(XML_LANG) for e in feed.iter(f"{ATOM}entry")}["О сортировке ключей"] is None


def test_without_records_language_a_record_that_names_none_is_in_the_sites_language(tmp_path):
    site = {**FRENCH_SITE, "content/site.yaml": "title: Camille Tremblay\nbase_url: https://example.org/\nlanguage: fr-CA\n"}
    assert title_languages(rendered_files(write_site(tmp_path, site)))["Neural Machine Translation of Quebec French"] is None


def test_a_records_language_that_is_no_language_is_a_warning_at_its_line(tmp_path):
    settings = "title: T\nbase_url: https://example.org/\nlanguage: fr\nrecords_language: Englsh\npublications_language: en\n"
    result = run_sitegen("check", "--site", str(write_site(tmp_path, {**FRENCH_SITE, "content/site.yaml": settings})))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[:2] == [
        "content/site.yaml:5: warning: field 'publications_language': unknown setting; did you mean 'records_language'?",
        "content/site.yaml:4: warning: field 'records_language': expected a language tag (BCP 47) such as de, fr or pt-BR, or a language's name"
        " such as German, got 'Englsh'; left out",
    ]
    english = write_site(
        tmp_path / "named", {**FRENCH_SITE, "content/site.yaml": "title: T\nbase_url: https://e.org/\nlanguage: fr\nrecords_language: English\n"}
    )
    assert title_languages(rendered_files(english))["Neural Machine Translation of Quebec French"] == "en"


def test_a_page_post_or_news_item_in_another_language_says_so_and_the_site_around_it_keeps_its_own(tmp_path):
    """`language: en` in an English page's front matter of a French site was an unknown field, and the page was
    read with a French voice from its title to its last line."""
    site = write_site(
        tmp_path,
        {
            **FRENCH_SITE,
            "content/pages/about.md": "---\ntitle: About me\nlanguage: en\nnav: 1\n---\nI work on machine translation in Montréal.\n",
            "content/pages/a-propos.md": "---\ntitle: À propos\nnav: 2\n---\nJe travaille à Montréal.\n",
            "content/posts/2025-01-10-hello.md": "---\ntitle: Hello from Montréal\ndate: 2025-01-10\nlanguage: English\n---\nA post in English.\n",
            "content/news/2025-02-01-grant.md": "---\ndate: 2025-02-01\ntitle: New grant\nlanguage: en\n---\nWe got a grant.\n",
            "content/news/2025-02-02-prix.md": "---\ndate: 2025-02-02\ntitle: Prix\n---\nNous avons reçu un prix.\n",
        },
    )
    files = rendered_files(site)
    about = soup(files["about/index.html"])
    assert about.find("html")["lang"] == "fr-CA" and about.select_one(".skip-link").get_text(strip=True) == "Aller au contenu"
    assert about.find("h1")["lang"] == "en" and about.select_one(".prose")["lang"] == "en"
    menu = [(a.get_text(strip=True), a.get("lang")) for a in about.select("header nav a")]
    assert menu[:3] == [("Publications", None), ("About me", "en"), ("À propos", None)], menu
    french = soup(files["a-propos/index.html"])
    assert french.find("h1").get("lang") is None and french.select_one(".prose").get("lang") is None
    post = soup(files["posts/hello/index.html"])
    assert post.find("h1")["lang"] == "en" and post.select_one(".prose")["lang"] == "en"
    assert post.select_one(".post-date").get("lang") is None  # the date is the site's: "10 janvier 2025"
    assert "10 janvier 2025" in post.select_one(".post-date").get_text()
    assert soup(files["posts/index.html"]).select_one(".post-title a")["lang"] == "en"
    news = {
        item.select_one(".news-title").get_text(): item.select_one(".news-body").get("lang") for item in soup(files["news/index.html"]).select(".news-item")
    }
    assert news == {"New grant": "en", "Prix": None}
    feed = ET.fromstring(files["news/feed.xml"])
    assert {e.findtext(f"{ATOM}title"): e.get(XML_LANG) for e in feed.iter(f"{ATOM}entry")} == {"New grant": "en", "Prix": None}
    assert next(ET.fromstring(files["posts/feed.xml"]).iter(f"{ATOM}entry")).get(XML_LANG) == "en"


def test_a_front_matter_language_that_is_no_language_is_a_warning_at_its_line(tmp_path):
    page = "---\ntitle: About me\nlanguage: Englsh\n---\nText.\n"
    result = run_sitegen("check", "--site", str(write_site(tmp_path, {**FRENCH_SITE, "content/pages/about.md": page})))
    assert result.returncode == 0, result.stderr
    assert (
        "content/pages/about.md:3: warning: field 'language': expected a language tag (BCP 47) such as de, fr or pt-BR, or a language's name"
        " such as German, got 'Englsh'; left out"
    ) in result.stderr.splitlines()


def test_an_arxiv_subjects_english_name_is_marked_english_on_a_site_in_another_language(tmp_path):
    """ "Number Theory" (arXiv's name of math.NT) among French words was read with a French voice."""
    records = {
        "content/records/nt.yaml": "id: nt\ntitle: Sur les séries\nauthors: [Camille Tremblay]\nyear: 2024\ncategories: [math.NT, Traductologie]\n",
    }
    files = rendered_files(write_site(tmp_path / "fr", {**FRENCH_SITE, **records}))
    chips = {a.get_text(strip=True): a.get("lang") for a in soup(files["records/nt/index.html"]).select("a.subject")}
    assert chips == {"Number Theorymath.NT": "en", "Traductologie": None}, chips
    assert {a.get_text(strip=True): a.get("lang") for a in soup(files["index.html"]).select("#publications li#r-nt a.subject")} == {
        "Number Theory": "en",
        "Traductologie": None,
    }
    cloud = {span.get_text(strip=True): span.get("lang") for span in soup(files["index.html"]).select(".subject-name")}
    assert cloud == {"Number Theory": "en", "Traductologie": None}, cloud
    assert soup(files["subjects/math.NT/index.html"]).find("h1")["lang"] == "en"
    english = {**FRENCH_SITE, "content/site.yaml": "title: T\nbase_url: https://example.org/\nlanguage: en-CA\n", **records}
    english_files = rendered_files(write_site(tmp_path / "en", english))
    assert [a.get("lang") for a in soup(english_files["records/nt/index.html"]).select("a.subject")] == [None, None]
    assert soup(english_files["subjects/math.NT/index.html"]).find("h1").get("lang") is None
