"""A site in several languages (site.yaml `languages:`; docs/homepage.md, "Several languages"): a Quebec
researcher's site in English and French, as a visitor, a search engine and the dev server see it."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlsplit

import feedparser
import pytest
from bs4 import BeautifulSoup
from conftest import run_sitegen, tree, write_site

from sitegen.build import build_site
from sitegen.cache import BuildCache
from sitegen.prepare import Memory

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
ATOM = "{http://www.w3.org/2005/Atom}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
XHTML = "{http://www.w3.org/1999/xhtml}"

TWO_LANGUAGES = {
    "content/site.yaml": "title: Camille Tremblay\nbase_url: https://example.org/\nlanguages: [en, fr]\n",
    "content/profile.yaml": "name: Camille Tremblay\nposition: Associate Professor\naffiliation: Université Laval\nbio: I work on machine translation.\n",
    "content/profile.fr.yaml": "position: Professeure agrégée\nbio: Je travaille sur la traduction automatique.\n",
    "content/records/nmt.yaml": "id: nmt\ntitle: Neural Machine Translation of Quebec French\nauthors: [Camille Tremblay]\nyear: 2024\n",
    "content/pages/about.md": "---\ntitle: About\nnav: 1\n---\nThe lab.\n",
    "content/pages/about.fr.md": "---\ntitle: À propos\nnav: 1\n---\nLe laboratoire.\n",
    "content/pages/teaching.md": "---\ntitle: Teaching\nnav: 2\n---\nCourses.\n",
}


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def alternates(page: BeautifulSoup) -> dict[str, str]:
    return {link["hreflang"]: link["href"] for link in page.select('link[rel="alternate"][hreflang]')}


def output_file(output: Path, url: str) -> Path:
    """The file an address of the site (https://example.org/fr/ or /fr/about/) is served from."""
    path = urlsplit(url).path.lstrip("/")
    return output / (path + "index.html" if path.endswith("/") or not path else path)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = write_site(tmp_path_factory.mktemp("two-languages"), TWO_LANGUAGES)
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    return site / "output"


def test_each_language_has_its_home_page_in_its_own_language_and_strings(built: Path) -> None:
    english, french = soup(built / "index.html"), soup(built / "fr" / "index.html")
    assert english.html["lang"] == "en" and french.html["lang"] == "fr"
    assert "I work on machine translation." in english.select_one(".bio").get_text()
    assert "Je travaille sur la traduction automatique." in french.select_one(".bio").get_text()
    assert french.select_one(".position").get_text(strip=True) == "Professeure agrégée"
    assert french.select_one(".affiliation").get_text(strip=True) == "Université Laval"  # not in profile.fr.yaml: the profile's
    assert french.select_one(".skip-link").get_text() == "Aller au contenu"  # the theme's strings in French
    assert english.select_one(".skip-link").get_text() == "Skip to content"
    # the record, shared, is listed on both and linked where it is made once
    assert [a["href"] for a in french.select("#publications .record-title a")] == ["/records/nmt/"]
    assert (built / "records" / "nmt" / "index.html").exists() and not (built / "fr" / "records").exists()


def test_every_version_names_the_others_and_the_default_as_x_default(built: Path) -> None:
    for key in ("", "about/"):
        versions = {"en": f"https://example.org/{key}", "fr": f"https://example.org/fr/{key}", "x-default": f"https://example.org/{key}"}
        for language in ("en", "fr"):
            page = soup(output_file(built, versions[language]))
            assert alternates(page) == versions, (key, language)
            assert page.select_one('link[rel="canonical"]')["href"] == versions[language]
    # a page in one language only, and a record's page, name no versions
    assert alternates(soup(built / "teaching" / "index.html")) == {}
    assert alternates(soup(built / "records" / "nmt" / "index.html")) == {}


def test_the_switcher_leads_to_the_same_page_in_the_other_language_else_its_home(built: Path) -> None:
    def switcher(path: Path) -> dict[str, str]:
        links = soup(path).select("nav.languages a")
        assert all(output_file(built, link["href"]).is_file() for link in links)
        return {link.get_text(): link["href"] for link in links}

    assert switcher(built / "about" / "index.html") == {"English": "/about/", "Français": "/fr/about/"}
    assert switcher(built / "fr" / "about" / "index.html") == {"English": "/about/", "Français": "/fr/about/"}
    assert switcher(built / "teaching" / "index.html") == {"English": "/teaching/", "Français": "/fr/"}  # no French version
    assert switcher(built / "records" / "nmt" / "index.html") == {"English": "/records/nmt/", "Français": "/fr/"}
    current = soup(built / "fr" / "index.html").select_one('nav.languages a[aria-current="true"]')
    assert current["hreflang"] == "fr" and current["lang"] == "fr"


def test_the_french_menu_leads_to_the_french_pages_and_names_an_english_one_in_english(built: Path) -> None:
    menu = soup(built / "fr" / "index.html").select(".site-header nav:not(.languages) a")
    entries = {a.get_text(): (a["href"], a.get("lang")) for a in menu}
    assert entries["À propos"] == ("/fr/about/", None)
    assert entries["Teaching"] == ("/teaching/", "en")  # no French version: the English page, marked as English
    assert entries["Publications"] == ("/fr/#publications", None)
    assert "Le laboratoire." in soup(built / "fr" / "about" / "index.html").select_one("main").get_text()


CV = "sections:\n  - title: Positions\n    profile: true\n    entries:\n      - {title: Associate Professor, org: Université Laval, start: 2024}\n"
CV_FR = "sections:\n  - title: Postes\n    profile: true\n    entries:\n      - {title: Professeure agrégée, org: Université Laval, start: 2024}\n"


def test_a_translated_cv_is_the_languages_own_and_an_untranslated_one_is_the_defaults(tmp_path: Path) -> None:
    site = write_site(tmp_path, {**TWO_LANGUAGES, "content/cv.yaml": CV, "content/cv.fr.yaml": CV_FR})
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    output = site / "output"
    french = soup(output / "fr" / "index.html")
    assert {a.get_text(): a["href"] for a in french.select(".site-header nav a")}["CV"] == "/fr/cv/"
    assert "Professeure agrégée" in french.get_text() and "Associate Professor" not in french.get_text()  # the profile's CV section
    cv = soup(output / "fr" / "cv" / "index.html")
    assert cv.html["lang"] == "fr" and "Postes" in cv.select_one("main").get_text()
    assert alternates(soup(output / "cv" / "index.html")) == {
        "en": "https://example.org/cv/",
        "fr": "https://example.org/fr/cv/",
        "x-default": "https://example.org/cv/",
    }
    (site / "content" / "cv.fr.yaml").unlink()
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    french = soup(output / "fr" / "index.html")
    assert {a.get_text(): a["href"] for a in french.select(".site-header nav a")}["CV"] == "/cv/"  # the English CV
    assert "Associate Professor" in french.get_text() and not (output / "fr" / "cv").exists()


NEWS = {
    "content/news/2025-03-12-grant.md": "---\ndate: 2025-03-12\ntitle: A grant\n---\nWe won a grant.\n",
    "content/news/2025-03-12-grant.fr.md": "---\ndate: 2025-03-12\ntitle: Une subvention\n---\nNous avons obtenu une subvention.\n",
    "content/news/2025-05-01-talk.md": "---\ndate: 2025-05-01\ntitle: A talk\n---\nAt a workshop.\n",
}


def test_a_languages_news_are_its_own_items_and_the_defaults_others_marked_as_theirs(tmp_path: Path) -> None:
    site = write_site(tmp_path, {**TWO_LANGUAGES, **NEWS})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    output = site / "output"
    items = soup(output / "fr" / "news" / "index.html").select("li.news-item")
    assert [(li["id"], li.select_one(".news-title").get_text(), li.select_one(".news-body").get("lang")) for li in items] == [
        ("news-2025-05-01-talk", "A talk", "en"),  # no French version: the English item, marked as English
        ("news-2025-03-12-grant", "Une subvention", None),  # its anchor is the English item's
    ]
    french_home = soup(output / "fr" / "index.html")
    assert "Une subvention" in french_home.get_text() and "A grant" not in french_home.get_text()
    assert {a.get_text(): a["href"] for a in french_home.select(".site-header nav a")}["Actualités"] == "/fr/news/"
    feeds = [a["href"] for a in french_home.select('link[type="application/atom+xml"]')]
    assert feeds == ["/feed.xml", "/fr/news/feed.xml"]  # the records' feed is the default language's alone
    assert alternates(soup(output / "news" / "index.html"))["fr"] == "https://example.org/fr/news/"
    # a language with no news of its own has no news page: its menu leads to the default's
    (site / "content" / "news" / "2025-03-12-grant.fr.md").unlink()
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    assert {a.get_text(): a["href"] for a in soup(output / "fr" / "index.html").select(".site-header nav a")}["Actualités"] == "/news/"
    assert not (output / "fr" / "news").exists()


TALKS = {
    "content/talks/2024-montreal.yaml": "title: Translating Quebec French\nevent: ACL\ndate: 2024-08-12\n",
    "content/talks/2024-montreal.fr.yaml": "title: Traduire le français québécois\nevent: ACL\ndate: 2024-08-12\n",
    "content/talks/2025.yaml": "- {title: Joual and machines, event: NAACL, date: 2025-05-01}\n- {title: Subtitles, event: LREC, date: 2025-02-01}\n",
}


def test_a_languages_talks_are_its_own_files_and_the_defaults_others_marked_as_theirs(tmp_path: Path) -> None:
    site = write_site(tmp_path, {**TWO_LANGUAGES, **TALKS})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    output = site / "output"
    talks = soup(output / "fr" / "talks" / "index.html").select("li.talk")
    assert [(li.select_one(".talk-title").get_text(), li.get("lang")) for li in talks] == [
        ("Joual and machines", "en"),  # 2025.yaml has no French file: its talks, marked as English
        ("Subtitles", "en"),
        ("Traduire le français québécois", None),
    ]
    assert [li.select_one(".talk-title").get_text() for li in soup(output / "talks" / "index.html").select("li.talk")] == [
        "Joual and machines",
        "Subtitles",
        "Translating Quebec French",
    ]
    assert all(li.get("lang") is None for li in soup(output / "talks" / "index.html").select("li.talk"))
    assert {a.get_text(): a["href"] for a in soup(output / "fr" / "index.html").select(".site-header nav a")}["Conférences"] == "/fr/talks/"


POSTS = {
    "content/posts/2025-01-10-corpus.md": "---\ntitle: A new corpus\ntags: [data]\n---\nWe release a corpus.\n",
    "content/posts/2025-01-10-corpus.fr.md": "---\ntitle: Un nouveau corpus\ntags: [données]\n---\nNous publions un corpus.\n",
    "content/posts/2025-03-02-errata.md": "---\ntitle: Errata\n---\nA fix.\n",
}


def test_a_languages_blog_has_its_own_posts_and_lists_the_defaults_others_at_their_addresses(tmp_path: Path) -> None:
    site = write_site(tmp_path, {**TWO_LANGUAGES, **POSTS})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    output = site / "output"
    post = soup(output / "fr" / "posts" / "corpus" / "index.html")  # the address of the post it translates, its day too
    assert post.html["lang"] == "fr" and "Nous publions un corpus." in post.select_one("main").get_text()
    assert post.select_one("main time")["datetime"] == "2025-01-10"
    assert alternates(post) == {
        "en": "https://example.org/posts/corpus/",
        "fr": "https://example.org/fr/posts/corpus/",
        "x-default": "https://example.org/posts/corpus/",
    }
    listed = {a.get_text(strip=True): (a["href"], a.get("lang")) for a in soup(output / "fr" / "posts" / "index.html").select("main h3 a, main li a")}
    assert listed["Un nouveau corpus"] == ("/fr/posts/corpus/", None)
    assert listed["Errata"] == ("/posts/errata/", "en")  # no French version: the English post, where it is
    assert not (output / "fr" / "posts" / "errata").exists()
    assert (output / "fr" / "posts" / "tags" / "donnees" / "index.html").exists()
    assert {a.get_text(): a["href"] for a in soup(output / "fr" / "index.html").select(".site-header nav a")}["Blog"] == "/fr/posts/"


def test_a_language_with_posts_and_news_of_its_own_has_their_feeds_linked_from_its_pages(tmp_path: Path) -> None:
    """/fr/posts/feed.xml lists the French blog as /fr/posts/ shows it: the French versions, and the English posts it
    has none of, marked as English; the French pages link it. As Hugo's language feeds."""
    french_link = {"content/posts/2025-01-10-corpus.fr.md": "---\ntitle: Un nouveau corpus\n---\nNous publions un corpus ([à propos](about/)).\n"}
    site = write_site(tmp_path, {**TWO_LANGUAGES, **POSTS, **NEWS, **french_link})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    output = site / "output"
    blog = feedparser.parse((output / "fr" / "posts" / "feed.xml").read_bytes())
    assert blog.feed.language == "fr" and blog.feed.link == "https://example.org/fr/posts/"
    assert [(entry.title, entry.link) for entry in blog.entries] == [
        ("Errata", "https://example.org/posts/errata/"),
        ("Un nouveau corpus", "https://example.org/fr/posts/corpus/"),
    ]
    marked = [entry.get(XML_LANG) for entry in ET.fromstring((output / "fr" / "posts" / "feed.xml").read_bytes()).iter(f"{ATOM}entry")]
    assert marked == ["en", None]  # the English post it has no version of, marked as English
    assert 'href="https://example.org/fr/about/"' in blog.entries[1].content[0].value  # a French page's link: its French version
    english = feedparser.parse((output / "posts" / "feed.xml").read_bytes())
    assert [entry.title for entry in english.entries] == ["Errata", "A new corpus"]  # the default language's, as before
    news = feedparser.parse((output / "fr" / "news" / "feed.xml").read_bytes())
    assert [(entry.title, entry.link) for entry in news.entries] == [
        ("A talk", "https://example.org/fr/news/#news-2025-05-01-talk"),
        ("Une subvention", "https://example.org/fr/news/#news-2025-03-12-grant"),
    ]
    for page in ("fr/index.html", "fr/posts/corpus/index.html", "fr/about/index.html", "fr/posts/index.html"):
        feeds = [a["href"] for a in soup(output / page).select('link[type="application/atom+xml"]')]
        assert feeds == ["/feed.xml", "/fr/news/feed.xml", "/fr/posts/feed.xml"], page
        assert alternates(soup(output / page)).get("fr", "").startswith("https://example.org/fr/")  # no feed taken for a version
    assert [a["href"] for a in soup(output / "about" / "index.html").select('link[type="application/atom+xml"]')] == [
        "/feed.xml",
        "/news/feed.xml",
        "/posts/feed.xml",
    ]
    assert soup(output / "fr" / "posts" / "index.html").select_one(".feed-link a")["href"] == "/fr/posts/feed.xml"
    assert b"fr/posts/feed.xml" not in (output / "sitemap.xml").read_bytes()


def test_each_language_has_a_404_page_in_its_words_leading_to_its_home_and_naming_no_versions(built: Path) -> None:
    """/fr/404.html, for a host that serves the nearest 404.html or a rule that does (as Hugo makes one per language):
    shown at any missing address under /fr/, its switcher leads to each language's home, not to a 'not found'."""
    french, english = soup(built / "fr" / "404.html"), soup(built / "404.html")
    assert french.html["lang"] == "fr" and french.select_one("h1").get_text() == "Page introuvable"
    assert english.select_one("h1").get_text() == "Page not found"
    assert french.select_one(".not-found a.button")["href"] == "/fr/" and english.select_one(".not-found a.button")["href"] == "/"
    for page in (french, english):
        assert {a.get_text(): a["href"] for a in page.select("nav.languages a")} == {"English": "/", "Français": "/fr/"}
        assert alternates(page) == {} and page.select_one('meta[name="robots"]')["content"] == "noindex"
    assert french.select_one('nav.languages a[aria-current="true"]')["hreflang"] == "fr"
    assert b"404" not in (built / "sitemap.xml").read_bytes()


def test_a_menu_written_in_site_yaml_leads_each_language_to_its_versions(tmp_path: Path) -> None:
    nav = "nav:\n  - {title: Home, url: ./}\n  - {title: About, url: about/}\n  - {title: Teaching, url: teaching/}\n  - {title: Papers, url: './#publications'}\n"
    site = write_site(tmp_path, {**TWO_LANGUAGES, "content/site.yaml": TWO_LANGUAGES["content/site.yaml"] + nav})
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    menu = soup(site / "output" / "fr" / "about" / "index.html").select(".site-header nav:not(.languages) a")
    assert [(a.get_text(), a["href"]) for a in menu] == [("Home", "/fr/"), ("About", "/fr/about/"), ("Teaching", "/teaching/"), ("Papers", "/fr/#publications")]
    english = soup(site / "output" / "about" / "index.html").select(".site-header nav:not(.languages) a")
    assert [a["href"] for a in english] == ["/", "/about/", "/teaching/", "/#publications"]


PER_LANGUAGE_NAV = """nav:
  en:
    - {title: Papers, url: './#publications'}
    - {title: About us, url: about/}
  fr:
    - {title: Articles, url: './#publications'}
    - {title: Qui sommes-nous, url: about/}
    - {title: Enseignement, url: teaching/}
"""


def test_a_menu_written_for_each_language_shows_each_its_own_titles(tmp_path: Path) -> None:
    """site.yaml's `nav` by language (Hugo's `languages.fr.menus`): the French pages show the French titles, not marked
    as English; a language it leaves out (de) has the menu made from what the site has, in its own words."""
    settings = "title: T\nbase_url: https://example.org/\nlanguages: [en, fr, de]\n" + PER_LANGUAGE_NAV
    site = write_site(tmp_path, {**TWO_LANGUAGES, "content/site.yaml": settings})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr

    def menu(path: str) -> list[tuple[str, str, str | None]]:
        return [(a.get_text(), a["href"], a.get("lang")) for a in soup(site / "output" / path).select(".site-header nav:not(.languages) a")]

    assert menu("fr/about/index.html") == [
        ("Articles", "/fr/#publications", None),
        ("Qui sommes-nous", "/fr/about/", None),
        ("Enseignement", "/teaching/", None),
    ]
    assert menu("about/index.html") == [("Papers", "/#publications", None), ("About us", "/about/", None)]
    german = menu("de/index.html")  # no menu of its own: made from the site, the theme's German words
    assert german[0][:2] == ("Publikationen", "/de/#publications") and ("About", "/about/", "en") in german


def test_a_menu_for_a_language_the_site_lacks_is_a_warning_at_its_line_and_a_french_menus_links_are_checked(tmp_path: Path) -> None:
    nav = PER_LANGUAGE_NAV + "    - {title: Séminaire, url: seminaire/}\n  fr-CA:\n    - {title: Accueil, url: ./}\n"
    site = write_site(tmp_path, {**TWO_LANGUAGES, "content/site.yaml": TWO_LANGUAGES["content/site.yaml"] + nav})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert (
        "content/site.yaml:13: warning: field 'nav': 'fr-CA' is not one of site.yaml's languages (en, fr); its menu is left out: did you mean fr?"
        in result.stderr
    )
    assert "content/site.yaml:12: warning: menu entry 'Séminaire': 'seminaire/' is no file of the site" in result.stderr
    one_language = write_site(tmp_path / "one", {"content/site.yaml": "title: T\n" + PER_LANGUAGE_NAV, "content/profile.yaml": "name: Ada\n"})
    result = run_sitegen("build", "--site", str(one_language))
    assert result.returncode == 1
    assert "content/site.yaml:2: field 'nav': a menu for each language is for a site in several languages" in result.stderr


def test_the_sitemap_lists_each_version_with_its_alternates(built: Path) -> None:
    root = ET.fromstring((built / "sitemap.xml").read_bytes())
    entries = {url.findtext(f"{SITEMAP}loc"): {link.get("hreflang"): link.get("href") for link in url.iter(f"{XHTML}link")} for url in root}
    french_about = {"en": "https://example.org/about/", "fr": "https://example.org/fr/about/", "x-default": "https://example.org/about/"}
    assert entries["https://example.org/about/"] == french_about
    assert entries["https://example.org/fr/about/"] == french_about
    assert entries["https://example.org/fr/"]["fr"] == "https://example.org/fr/"
    assert entries["https://example.org/records/nmt/"] == {}  # made once: no versions
    assert all(link.get("rel") == "alternate" for link in root.iter(f"{XHTML}link"))


def test_a_site_in_one_language_has_no_alternates_no_switcher_and_its_sitemap_no_xhtml(tmp_path: Path) -> None:
    """What `languages:` adds is not there without it (the demo site's output was compared byte for byte with
    the build before this feature by hand)."""
    one = {name: text for name, text in TWO_LANGUAGES.items() if ".fr." not in name}
    one["content/site.yaml"] = "title: Camille Tremblay\nbase_url: https://example.org/\n"
    one["content/pages/notes.fr.md"] = "---\ntitle: Notes\n---\nEn français.\n"  # a page like any other, as before
    one["content/profile.fr.yaml"] = "bio: Je travaille.\n"
    site = write_site(tmp_path, one)
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0
    assert "content/profile.fr.yaml: warning: a profile in 'fr' is read only by a site in several languages" in result.stderr
    assert "En français." in (site / "output" / "notes.fr" / "index.html").read_text(encoding="utf-8")
    home = soup(site / "output" / "index.html")
    assert alternates(home) == {} and home.select("nav.languages") == []
    assert b"xhtml" not in (site / "output" / "sitemap.xml").read_bytes()
    assert not (site / "output" / "fr").exists()


def test_files_in_a_language_the_site_does_not_have_are_warnings_naming_the_languages(tmp_path: Path) -> None:
    site = write_site(
        tmp_path,
        {
            **TWO_LANGUAGES,
            "content/pages/about.de.md": "---\ntitle: Über uns\n---\nDas Labor.\n",
            "content/profile.de.yaml": "bio: Ich arbeite.\n",
            "content/profile.fr.yaml": "biography: Je travaille.\nemail: c@example.org\n",
            "content/cv.yaml": CV,
            "content/cv.de.yaml": CV,
            "content/news/2025-01-01-new.md": "---\ndate: 2025-01-01\n---\nNew.\n",
            "content/news/2025-01-01-new.en.md": "---\ndate: 2025-01-01\n---\nNew.\n",
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert (
        "content/pages/about.de.md:1: warning: the file's name says it is in 'de', which is not one of site.yaml's languages (en, fr); left out"
        in result.stderr
    )
    assert "content/profile.de.yaml: warning: the file's name says it is in 'de', which is not one of site.yaml's languages (en, fr)" in result.stderr
    assert "content/profile.fr.yaml:1: warning: field 'biography': unknown field of a translated profile; did you mean 'bio'?" in result.stderr
    assert "content/profile.fr.yaml:2: warning: field 'email': is the same in every language: write it in content/profile.yaml only" in result.stderr
    assert "content/news/2025-01-01-new.en.md:1: warning: the file's name says it is in en, the default language, whose files' names say none" in result.stderr
    assert "content/cv.de.yaml:1: warning: the file's name says it is in 'de', which is not one of site.yaml's languages (en, fr)" in result.stderr
    assert not (site / "output" / "about.de").exists() and not (site / "output" / "de").exists()


def test_a_translated_profile_that_cannot_be_read_stops_the_build_before_it_writes(tmp_path: Path) -> None:
    site = write_site(tmp_path, TWO_LANGUAGES)
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    before = tree(site / "output")
    (site / "content" / "profile.fr.yaml").write_text("position: [Professeure, agrégée]\nbio: ok\n", encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert "content/profile.fr.yaml:1: field 'position': expected" in result.stderr
    assert tree(site / "output") == before


def test_languages_are_checked_as_language_is(tmp_path: Path) -> None:
    site = write_site(tmp_path, {**TWO_LANGUAGES, "content/site.yaml": "title: T\nbase_url: https://example.org/\nlanguages: [en, french]\n"})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert "content/site.yaml:3: error" in result.stderr or "content/site.yaml:3: field 'languages'" in result.stderr
    assert "(the tag of french is fr)" in result.stderr
    assert not (site / "output").exists()


def test_a_language_the_theme_has_no_strings_for_is_a_warning_as_the_sites_language_is(tmp_path: Path) -> None:
    site = write_site(tmp_path, {**TWO_LANGUAGES, "content/site.yaml": "title: T\nbase_url: https://example.org/\nlanguages: [en, fr, it]\n"})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "content/site.yaml:3: warning: field 'languages': the theme 'default' has no translation for 'it'" in result.stderr
    assert "for 'fr'" not in result.stderr
    assert soup(site / "output" / "it" / "index.html").select_one(".skip-link").get_text() == "Skip to content"


def test_the_switcher_names_each_language_in_itself_and_site_yaml_names_those_sitegen_does_not_know(tmp_path: Path) -> None:
    """Occitan's switcher entry said 'oc'; Asturian (a three-letter tag) has no name sitegen knows: site.yaml's
    `language_names` gives it, and without one a warning says how."""
    site = write_site(tmp_path, {**TWO_LANGUAGES, "content/site.yaml": "title: T\nbase_url: https://example.org/\nlanguages: [en, oc, ast]\n"})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert (
        "content/site.yaml:3: warning: field 'languages': the language switcher names ast by its tag: sitegen knows no name of it in itself; give one with language_names: {ast: ...}"
        in result.stderr
    )
    assert "the theme 'default' has no translation for 'oc'" in result.stderr and "write themes/default/i18n/oc.yaml" in result.stderr
    switcher = soup(site / "output" / "oc" / "index.html").select("nav.languages a")
    assert [(a.get_text(), a["lang"]) for a in switcher] == [("English", "en"), ("Occitan", "oc"), ("ast", "ast")]

    names = "language_names:\n  ast: Asturianu\n  oc: Lenga d’òc\n  de: Deutsch\n"
    (site / "content" / "site.yaml").write_text("title: T\nbase_url: https://example.org/\nlanguages: [en, oc, ast]\n" + names, encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "names ast by its tag" not in result.stderr
    assert "content/site.yaml:7: warning: field 'language_names': 'de' is not one of languages (en, oc, ast); left out" in result.stderr
    switcher = soup(site / "output" / "ast" / "index.html").select("nav.languages a")
    assert [(a.get_text(), a["lang"], a.get("aria-current")) for a in switcher] == [
        ("English", "en", None),
        ("Lenga d’òc", "oc", None),
        ("Asturianu", "ast", "true"),
    ]


def test_two_languages_the_switcher_would_name_alike_are_a_warning_until_site_yaml_tells_them_apart(tmp_path: Path) -> None:
    settings = "title: T\nbase_url: https://example.org/\nlanguages: [pt-BR, en, pt-PT]\n"
    site = write_site(tmp_path, {**TWO_LANGUAGES, "content/site.yaml": settings})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    said = "content/site.yaml:3: warning: field 'languages': the language switcher names pt-BR and pt-PT alike, Português: tell them apart with language_names: {pt-BR: ..., pt-PT: ...}"
    assert said in result.stderr
    names = "language_names: {pt-BR: Português (Brasil), pt-PT: Português (Portugal)}\n"
    (site / "content" / "site.yaml").write_text(settings + names, encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0 and "alike" not in result.stderr, result.stderr
    switcher = soup(site / "output" / "index.html").select("nav.languages a")
    assert [a.get_text() for a in switcher] == ["Português (Brasil)", "English", "Português (Portugal)"]


def test_language_names_on_a_site_in_one_language_is_a_warning(tmp_path: Path) -> None:
    site = write_site(tmp_path, {"content/site.yaml": "title: T\nlanguage_names: {fr: Français}\n", "content/profile.yaml": "name: Ada\n"})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "content/site.yaml:2: warning: field 'language_names': names the languages of a site in several (languages: [en, fr])" in result.stderr
    assert soup(site / "output" / "index.html").select("nav.languages") == []


def test_language_names_the_default_and_the_default_is_served_at_the_root(tmp_path: Path) -> None:
    site = write_site(tmp_path, {**TWO_LANGUAGES, "content/site.yaml": "title: T\nbase_url: https://example.org/\nlanguage: fr\nlanguages: [en, fr]\n"})
    (site / "content" / "pages" / "about.fr.md").rename(site / "content" / "pages" / "about.en.md")
    (site / "content" / "profile.fr.yaml").rename(site / "content" / "profile.en.yaml")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert soup(site / "output" / "index.html").html["lang"] == "fr"
    english = soup(site / "output" / "en" / "index.html")
    assert english.html["lang"] == "en" and "Professeure agrégée" in english.select_one(".position").get_text()
    assert alternates(soup(site / "output" / "about" / "index.html"))["x-default"] == "https://example.org/about/"


def test_check_notes_a_page_with_no_translation_without_failing(tmp_path: Path) -> None:
    site = write_site(tmp_path, TWO_LANGUAGES)
    result = run_sitegen("check", "--strict", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "content/pages/teaching.md: note: no translation in fr (content/pages/teaching.fr.md)" in result.stderr
    assert "about.md: note" not in result.stderr


@pytest.mark.slow
def test_the_dev_server_rebuilds_an_edit_of_the_translated_profile_and_pages_as_a_clean_build(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", TWO_LANGUAGES)
    cache, memory = BuildCache(site, folder=tmp_path / "dev-cache"), Memory()
    served = tmp_path / "served"
    build_site(site, served, cache=cache, memory=memory, stop_if_up_to_date=False)
    edits = [
        ("content/profile.fr.yaml", "position: Professeure titulaire\nbio: Je travaille sur la *traduction*.\n"),
        ("content/pages/teaching.fr.md", "---\ntitle: Enseignement\nnav: 2\n---\nCours.\n"),
        ("content/pages/about.fr.md", None),
        ("content/pages/seminar.fr.md", "---\ntitle: Séminaire\n---\nLe mardi.\n"),  # in French only
        ("content/pages/seminar.md", "---\ntitle: Seminar\n---\nOn Tuesdays.\n"),  # now in English too: the French one names it
        ("content/cv.yaml", CV),
        ("content/cv.fr.yaml", CV_FR),  # every French page's menu now leads to /fr/cv/
    ]
    for name, text in edits:
        if text is None:
            (site / name).unlink()
        else:
            (site / name).write_text(text, encoding="utf-8")
        result = build_site(site, served, cache=cache, memory=memory)
        if result.downloads is not None:
            result.downloads.write()
        clean = tmp_path / "clean"
        shutil.rmtree(clean, ignore_errors=True)
        build_site(site, clean, use_cache=False)
        assert tree(served) == tree(clean), name
    assert "Professeure titulaire" in (served / "fr" / "index.html").read_text(encoding="utf-8")
    assert "/fr/teaching/" in (served / "fr" / "index.html").read_text(encoding="utf-8")
    assert not (served / "fr" / "about").exists()
    assert 'hreflang="en" href="https://example.org/seminar/"' in (served / "fr" / "seminar" / "index.html").read_text(encoding="utf-8")
    assert 'href="/fr/cv/"' in (served / "fr" / "seminar" / "index.html").read_text(encoding="utf-8")


def test_a_page_bundle_is_translated_by_an_index_of_its_language_showing_the_files_of_its_folder(tmp_path: Path) -> None:
    site = write_site(
        tmp_path,
        {
            **{name: text for name, text in TWO_LANGUAGES.items() if "teaching" not in name},
            "content/pages/teaching/index.md": "---\ntitle: Teaching\nnav: 2\n---\n![A chart](chart.png)\n",
            "content/pages/teaching/index.fr.md": "---\ntitle: Enseignement\nnav: 2\n---\n![Un graphique](chart.png)\n",
            "content/pages/teaching/chart.png": "not really a picture",
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    french = soup(site / "output" / "fr" / "teaching" / "index.html")
    assert [img["src"] for img in french.select("main img")] == ["/teaching/chart.png"]
    assert (site / "output" / "teaching" / "chart.png").is_file() and not (site / "output" / "fr" / "teaching" / "chart.png").exists()
    assert alternates(french)["en"] == "https://example.org/teaching/"
