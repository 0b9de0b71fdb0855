"""The default theme's French, Spanish, Catalan and Dutch as their readers write them: the typography, the dates
and the agreement a native reader checks first."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from bs4 import BeautifulSoup
from conftest import rendered_files, run_sitegen, write_site

ATOM = "{http://www.w3.org/2005/Atom}"
NO_BREAK_SPACES = "\u00a0\u202f"
# A colon French writes without a no-break space before it: after anything but one, and not a URL's "https:".
BARE_COLON = re.compile(rf"(?<![{NO_BREAK_SPACES}]):(?!//)")
SHOWN_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder", "content")


def site_in(language: str, tmp_path, extra: dict[str, str] | None = None):
    """A researcher's site in `language` whose own words hold no colon: every colon on its pages is the theme's."""
    return write_site(
        tmp_path,
        {
            "content/site.yaml": f"title: Camille Tremblay\nbase_url: https://example.org/\nlanguage: {language}\n",
            "content/profile.yaml": "name: Camille Tremblay\nemail: camille@example.org\nbio: Je travaille sur la traduction.\n",
            "content/records/pubs.bib": "@article{art, author={Tremblay, Camille and Roy, Luc}, title={Un article}, journal={Revue X},"
            " volume={12}, pages={101--120}, date={2024-04-01}}\n"
            "@inproceedings{conf, author={Tremblay, Camille}, title={Une communication}, booktitle={Actes}, year={2023}}\n"
            "@software{soft, author={Tremblay, Camille}, title={Un logiciel}, version={1.2}, year={2022}}\n",
            "content/cv.yaml": "sections:\n  - title: Postes\n    entries:\n"
            "      - {title: Professeure, org: Université Laval, start: 2022-09}\n"
            "      - {title: Postdoc, org: McGill, start: 2019-01-01, end: 2022-04-05}\n",
            "content/news/2025-04-01-fonds.md": "---\ndate: 2025-04-01\ntitle: Projet financé\n---\nLe projet est financé.\n",
            "content/talks/talks.yaml": "- {title: Une conférence, event: ACFAS, date: 2025-05-14}\n",
            "content/redirects.yaml": "ancien/: records/art/\n",
            **(extra or {}),
        },
    )


def soup(data: bytes) -> BeautifulSoup:
    return BeautifulSoup(data.decode("utf-8"), "html.parser")


def shown_texts(page: BeautifulSoup) -> list[str]:
    """What a reader or a screen reader is told: the text, and the attributes that are read out or shown."""
    for hidden in page(["script", "style", "pre", "code"]):
        hidden.decompose()
    texts = [str(node) for node in page.find_all(string=True)]
    return texts + [str(tag[name]) for tag in page.find_all(True) for name in SHOWN_ATTRIBUTES if tag.has_attr(name)]


def test_a_french_page_puts_a_no_break_space_before_every_colon(tmp_path):
    """The templates wrote ": " after their labels ("Toutes les entrées: publications.bib", "Curriculum vitæ: ...",
    the feeds' titles): French puts a no-break space before a colon, and a line broke before it."""
    files = rendered_files(site_in("fr-CA", tmp_path))
    pages = [name for name in files if name.endswith(".html")]
    assert {"index.html", "cv/index.html", "news/index.html", "talks/index.html", "records/art/index.html", "ancien/index.html"} <= set(pages)
    bare = {(name, text) for name in pages for text in shown_texts(soup(files[name])) if BARE_COLON.search(text)}
    assert bare == set()
    assert "Toutes les entrées\u00a0: " in soup(files["records/art/index.html"]).select_one(".cite-more").get_text()
    for feed in ("feed.xml", "news/feed.xml"):
        assert ET.fromstring(files[feed]).findtext(f"{ATOM}title").startswith("Camille Tremblay\u00a0: "), feed


def test_an_english_page_keeps_its_colons(tmp_path):
    files = rendered_files(site_in("en", tmp_path))
    assert "All entries: " in soup(files["records/art/index.html"]).select_one(".cite-more").get_text()
    assert ET.fromstring(files["feed.xml"]).findtext(f"{ATOM}title") == "Camille Tremblay: publications"


def test_dates_as_catalan_and_french_write_them(tmp_path):
    """Catalan showed "5 abril 2022" and "1 gener 2019" (it writes "5 d'abril de 2022", CLDR's `d MMMM 'de' y` with
    the months' format names), French "1 janvier 2019" (it writes "1er janvier")."""
    catalan = rendered_files(site_in("ca", tmp_path / "ca"))
    cv = " ".join(soup(catalan["cv/index.html"]).select_one("main").get_text(" ", strip=True).split())
    assert "1 de gener de 2019 – 5 d'abril de 2022" in cv and "setembre de 2022 – actualitat" in cv
    assert "1 d'abril de 2025" in soup(catalan["news/index.html"]).get_text()
    assert "14 de maig de 2025" in soup(catalan["talks/index.html"]).get_text()
    french = rendered_files(site_in("fr", tmp_path / "fr"))
    cv = " ".join(soup(french["cv/index.html"]).select_one("main").get_text(" ", strip=True).split())
    assert "1er janvier 2019 – 5 avril 2022" in cv and "septembre 2022 – aujourd'hui" in cv
    assert "1er avril 2025" in soup(french["news/index.html"]).get_text()


def test_the_bundled_languages_pass_the_strict_check_and_a_wrong_month_list_is_a_warning(tmp_path):
    for language in ("fr", "fr-CA", "es", "ca", "nl", "nl-BE"):
        result = run_sitegen("check", "--strict", "--site", str(site_in(language, tmp_path / language)))
        assert result.returncode == 0, (language, result.stderr)
    theirs = {
        "themes/default/i18n/ca.yaml": 'months_in_dates: [de gener, de febrer]\ndate_formats:\n  first_day: "1r {mes} {year}"\nnumber_format:\n  min_grouping_digits: 3\n'
        "  singular: one\n"
    }
    result = run_sitegen("check", "--site", str(site_in("ca", tmp_path / "mine", theirs)))
    assert result.returncode == 0
    assert "themes/default/i18n/ca.yaml:1: warning: 'months_in_dates': expected a list of the 12 months' names" in result.stderr
    assert "themes/default/i18n/ca.yaml:3: warning: 'date_formats.first_day': {mes} is no placeholder of this string" in result.stderr
    assert "themes/default/i18n/ca.yaml:5: warning: 'number_format.min_grouping_digits': expected 1 or 2" in result.stderr
    assert "themes/default/i18n/ca.yaml:6: warning: 'number_format.singular': expected a list of whole numbers" in result.stderr


@pytest.mark.parametrize(
    "language, shown, noscript",
    [
        ("fr", "Affichage\u00a0: 1 sur 3 travaux", "(la recherche demande JavaScript\u00a0: la liste complète est ci-dessous)"),
        ("ca", "Es mostren 1 de 3 treballs", "(la cerca necessita JavaScript: la llista completa és a sota)"),
        ("es", "Se muestran 1 de 3 trabajos", "(la búsqueda necesita JavaScript: la lista completa está abajo)"),
    ],
)
def test_the_search_line_of_a_list_of_works_agrees_with_works(tmp_path, language, shown, noscript):
    """A list that holds software counts "travaux" / "treballs" (masculine), and the search said "1 sur 3 travaux
    affichées", "toutes sont listées", "1 de 3 treballs mostrades": the words agreed with "publications" alone."""
    form = soup(rendered_files(site_in(language, tmp_path))["index.html"]).select_one("form.search")
    line = form["data-text-found"].format(found=1, total=3, publications=form["data-text-many"])  # as search.js fills them in
    assert form["data-text-shown"].replace("{line}", line) == shown
    assert form.select_one(".search-count noscript").get_text().strip() == noscript


@pytest.mark.parametrize(
    "language, blog, masters",
    [("fr", "Blog", "Mémoire de master"), ("fr-CA", "Blogue", "Mémoire de maîtrise"), ("nl", "Blog", "Masterscriptie"), ("nl-BE", "Blog", "Masterproef")],
)
def test_quebec_and_flanders_have_their_own_words(tmp_path, language, blog, masters):
    """fr-CA read France's "Mémoire de master" (Québec: maîtrise) and "Blog" (OQLF: blogue); nl-BE the Netherlands'
    "Masterscriptie" (Flanders: masterproef)."""
    extra = {
        "content/records/msc.bib": "@mastersthesis{msc, author={Tremblay, Camille}, title={Mon mémoire}, school={Laval}, year={2015}}\n",
        "content/posts/2025-01-05-premier.md": "---\ntitle: Premier billet\ndate: 2025-01-05\n---\nBonjour.\n",
    }
    files = rendered_files(site_in(language, tmp_path, extra))
    index = soup(files["index.html"])
    assert blog in [a.get_text(strip=True) for a in index.select("nav a")]
    assert masters in soup(files["records/msc/index.html"]).select_one("main").get_text()


def test_init_writes_a_french_site_its_description_and_sample_text_in_french_typography(tmp_path):
    """`init --language fr-CA` wrote "Publications and research of Émilie Tremblay." in site.yaml (every page's
    description and link preview) and sample text with a colon a line could break before."""
    result = run_sitegen("init", "--language", "fr-CA", "--name", "Émilie Tremblay", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    files = rendered_files(tmp_path / "site")
    index = soup(files["index.html"])
    assert index.select_one('meta[name="description"]')["content"] == "Émilie Tremblay\u00a0: publications et recherches."
    sample = [index.select_one(".bio"), soup(files["about/index.html"]).select_one("main .prose")]
    assert all(sample) and [text for part in sample for text in shown_texts(part) if BARE_COLON.search(text)] == []


@pytest.mark.parametrize("language, shown", [("es", "Todos los autores (1200)"), ("fr", "Tous les auteurs (1\u202f200)"), ("nl", "Alle auteurs (1.200)")])
def test_a_four_digit_number_is_grouped_as_the_language_does(tmp_path, language, shown):
    """Spanish wrote "1.200 autores": it groups from five digits on (RAE; CLDR's minimumGroupingDigits 2)."""
    authors = " and ".join(["Tremblay, Camille"] + [f"Author{n}, A." for n in range(1199)])
    extra = {"content/records/big.bib": f"@article{{big, author={{{authors}}}, title={{Un grand article}}, journal={{J}}, year={{2020}}}}\n"}
    files = rendered_files(site_in(language, tmp_path, extra))
    summary = soup(files["records/big/index.html"]).select_one("details.all-authors summary")
    assert summary.get_text(strip=True) == shown


@pytest.mark.parametrize("language, button", [("nl", "APA kopiëren"), ("fr", "Copier APA"), ("es", "Copiar APA"), ("ca", "Copia APA")])
def test_a_citation_styles_copy_button_puts_the_verb_where_the_language_does(tmp_path, language, button):
    """Dutch read "Kopiëren APA": the template wrote the verb and then the style's name, English's order."""
    page = soup(rendered_files(site_in(language, tmp_path))["records/art/index.html"])
    assert page.select_one('button[data-cite-copy="apa"]').get_text() == button


@pytest.mark.parametrize(
    "language, owner, button",
    [
        ("fr", "Émilie Tremblay", "Aller au profil d'Émilie Tremblay"),
        ("fr", "Camille Tremblay", "Aller au profil de Camille Tremblay"),
        ("ca", "Anna Puig", "Vés al perfil d'Anna Puig"),
        ("en", "Émilie Tremblay", "Go to the profile of Émilie Tremblay"),
    ],
)
def test_de_before_a_name_that_starts_with_a_vowel_is_elided(tmp_path, language, owner, button):
    """French and Catalan pages said "Aller au profil de Émilie Tremblay", "Portrait de Émilie": both write d'Émilie."""
    site = site_in(language, tmp_path, {"content/profile.yaml": f"name: {owner}\n", "content/site.yaml": f"title: {owner}\nlanguage: {language}\n"})
    assert soup(rendered_files(site)["404.html"]).select_one("main a.button").get_text() == button


@pytest.mark.parametrize(
    ("language", "none", "one", "two"), [("fr", "0 citation", "1 citation", "2 citations"), ("en", "0 citations", "1 citation", "2 citations")]
)
def test_a_count_of_none_takes_the_singular_where_the_language_does(tmp_path, language, none, one, two):
    """French writes "0 citation" (CLDR's plural 'one' is 0 and 1): a new paper's count of zero said "0 citations"."""
    records = {f"content/records/{name}.yaml": f"id: {name}\ntitle: {name}\nyear: 2024\ncitations: {count}\n" for name, count in (("a", 0), ("b", 1), ("c", 2))}
    site = site_in(language, tmp_path, records)
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    page = BeautifulSoup((site / "output" / "index.html").read_text(encoding="utf-8"), "lxml")
    assert [page.select_one(f"#r-{name} .citations").get_text() for name in "abc"] == [none, one, two]
