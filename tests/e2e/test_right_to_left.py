"""A site in Persian, Arabic or Hebrew (written right to left) with records, names and venues in both directions:
what its owner and readers see in the built pages and files."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import write_site

from sitegen.cli import main

PERSIAN_PROFILE = 'name: "سارا احمدی"\nname_variants: ["Sara Ahmadi"]\n'
RECORDS = {
    # an English paper, as BibTeX and arXiv give it: no `language:`
    "content/records/english.yaml": "id: english\ntitle: 'Is Attention All You Need?'\nauthors: [Sara Ahmadi]\nyear: 2023\nsource: Journal of Examples\n",
    # English, said so
    "content/records/said.yaml": "id: said\ntitle: 'A Benchmark (v2.0)!'\nauthors: [Sara Ahmadi]\nyear: 2022\nsource: Journal of Examples\nlanguage: en\n"
    "abstract: We present 10,000 pages.\n",
    # Persian with English words in it: the page's direction
    "content/records/mixed.yaml": "id: mixed\ntitle: 'Transformers برای زبان فارسی (Survey)'\nauthors: [سارا احمدی]\nyear: 2024\nsource: Journal of Examples\n",
}


def build(root: Path, capsys, language: str, profile: str = PERSIAN_PROFILE, records: dict[str, str] | None = None) -> Path:
    site = write_site(
        root,
        {
            "content/site.yaml": f"title: T\nbase_url: https://example.org/\nlanguage: {language}\n",
            "content/profile.yaml": profile,
            **(RECORDS if records is None else records),
        },
    )
    assert main(["build", "--site", str(site)]) == 0, capsys.readouterr().err
    return site / "output"


def page(output: Path, name: str) -> BeautifulSoup:
    return BeautifulSoup((output / name).read_text(encoding="utf-8"), "lxml")


@pytest.mark.parametrize("language", ["fa", "he", "ar"])
def test_an_english_title_on_a_right_to_left_page_is_laid_out_left_to_right(tmp_path, capsys, language):
    """An English title on a Persian page had `lang="en"` at most and no `dir`: its "?" and "!" showed at its start."""
    output = build(tmp_path, capsys, language)
    home = page(output, "index.html")
    assert home.html["dir"] == "rtl"
    titles = {item["id"]: item.select_one(".record-title") for item in home.select("li.record")}
    assert titles["r-english"].get("dir") == "ltr"
    assert (titles["r-said"].get("lang"), titles["r-said"].get("dir")) == ("en", "ltr")
    assert titles["r-mixed"].get("dir") is None  # mostly Persian: the page's direction
    record = page(output, "records/said/index.html")
    assert record.select_one("h1#record-title")["dir"] == "ltr"
    assert record.select_one(".abstract-body")["dir"] == "ltr"
    assert page(output, "records/mixed/index.html").select_one("h1#record-title").get("dir") is None


def test_a_persian_title_on_an_english_page_is_laid_out_right_to_left(tmp_path, capsys):
    records = {
        "content/records/fa.yaml": "id: fa\ntitle: 'یادداشتی بر همگرایی سری‌ها!'\nauthors: [Ada Lovelace]\nyear: 2023\nsource: J. A\nlanguage: fa\n",
        "content/records/unsaid.yaml": "id: unsaid\ntitle: 'אלגוריתמים מהירים?'\nauthors: [Ada Lovelace]\nyear: 2023\nsource: J. A\n",
        "content/records/en.yaml": "id: en\ntitle: 'Plain English?'\nauthors: [Ada Lovelace]\nyear: 2023\nsource: J. A\n",
    }
    output = build(tmp_path, capsys, "en", profile="name: Ada Lovelace\n", records=records)
    home = page(output, "index.html")
    assert home.html.get("dir") is None
    titles = {item["id"]: item.select_one(".record-title") for item in home.select("li.record")}
    assert (titles["r-fa"].get("lang"), titles["r-fa"].get("dir")) == ("fa", "rtl")
    assert titles["r-unsaid"].get("dir") == "rtl"
    assert titles["r-en"].get("dir") is None


def test_a_persian_site_speaks_persian_and_passes_its_strict_check(tmp_path, capsys):
    """`sitegen init --language fa` made a site in English words whose pull-request check (`check --strict`) failed on
    "the theme 'default' has no translation for 'fa'"."""
    site = tmp_path / "site"
    assert main(["init", str(site), "--name", "سارا احمدی", "--language", "fa"]) == 0
    (site / "content/news/2025-03-01-grant.md").write_text("---\ndate: 2025-03-01\ntitle: طرح تصویب شد\n---\nمتن خبر.\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["check", "--strict", "--site", str(site)]) == 0, capsys.readouterr().err
    assert main(["build", "--site", str(site)]) == 0
    assert "warning" not in capsys.readouterr().err
    home = page(site / "output", "index.html")
    assert (home.html["lang"], home.html["dir"]) == ("fa", "rtl")
    assert [link.get_text(strip=True) for link in home.select("header nav a")][0] == "انتشارات"
    assert home.select_one("input[type=search]")["placeholder"] == "عنوان، نویسنده، محل انتشار، چکیده، سال"
    news = page(site / "output", "news/index.html")
    assert "1 مارس 2025" in news.get_text()
    assert "March" not in news.get_text()
    feed = (site / "output/feed.xml").read_text(encoding="utf-8")
    assert "<title>سارا احمدی: انتشارات</title>" in feed


@pytest.mark.parametrize("language", ["ar", "he"])
def test_init_in_a_language_the_theme_has_no_strings_for_says_so_at_once(tmp_path, capsys, language):
    """`sitegen init --language ar` said nothing; the English words, and the pull-request check failing on the
    warning every build gives, were found only after pushing."""
    assert main(["init", str(tmp_path / "site"), "--name", "Omar Haddad", "--language", language]) == 0
    err = capsys.readouterr().err
    assert (
        f"warning: the default theme has no strings in '{language}' (it has ca, de, en, es, fa, fr, fr-CA, ja, ko, nl, nl-BE, zh): the pages show its English words,"
        " and every build warns so, which makes the pull-request check (sitegen check --strict) fail, until you write"
        f" themes/default/i18n/{language}.yaml (docs/themes.md, Translations)"
    ) in err.splitlines()


@pytest.mark.parametrize("language", ["en", "en-GB", "de-CH", "fa"])
def test_init_in_a_language_the_theme_speaks_warns_of_nothing(tmp_path, capsys, language):
    assert main(["init", str(tmp_path / "site"), "--name", "Omar Haddad", "--language", language]) == 0
    assert "no strings" not in capsys.readouterr().err


def test_a_feed_entry_in_another_language_than_the_sites_says_so(tmp_path, capsys):
    """The Persian site's feed said `xml:lang="fa"`, and its English paper's entry inherited it."""
    from lxml import etree

    output = build(tmp_path, capsys, "fa")
    feed = etree.parse(str(output / "feed.xml")).getroot()
    lang = "{http://www.w3.org/XML/1998/namespace}lang"
    atom = "{http://www.w3.org/2005/Atom}"
    entries = {e.findtext(f"{atom}title"): e.get(lang) for e in feed.iter(f"{atom}entry")}
    assert feed.get(lang) == "fa"
    assert entries == {"A Benchmark (v2.0)!": "en", "Is Attention All You Need?": None, "Transformers برای زبان فارسی (Survey)": None}


def test_an_english_talk_or_cv_title_on_a_persian_page_is_laid_out_left_to_right(tmp_path, capsys):
    talks = "- {title: 'Is Attention All You Need?', event: EMNLP 2024, date: 2024-11-12}\n- {title: 'همگرایی سری‌ها', date: 2024-08-25}\n"
    cv = "sections:\n  - title: سوابق\n    profile: true\n    entries:\n      - {title: 'Postdoc (ETH)', start: 2019, end: 2022}\n      - {title: دانشیار, start: 2022}\n"
    output = build(tmp_path, capsys, "fa", records={**RECORDS, "content/talks/talks.yaml": talks, "content/cv.yaml": cv})
    assert [(h.get_text(), h.get("dir")) for h in page(output, "talks/index.html").select("h3.talk-title")] == [
        ("Is Attention All You Need?", "ltr"),
        ("همگرایی سری‌ها", None),
    ]
    shown = {("Postdoc (ETH)", "ltr"), ("دانشیار", None)}
    assert {(h.get_text(), h.get("dir")) for h in page(output, "cv/index.html").select("h3.cv-title")} == shown
    assert {(h.get_text(), h.get("dir")) for h in page(output, "index.html").select(".cv-highlight-title")} == shown


def test_init_with_a_languages_name_says_its_tag(tmp_path, capsys):
    status = main(["init", str(tmp_path / "site"), "--language", "farsi"])
    assert status == 2 and not (tmp_path / "site").exists()
    assert capsys.readouterr().err.splitlines()[-1] == (
        "sitegen init: error: --language: expected a language tag (BCP 47) such as en, de-CH or zh-Hans, got 'farsi' (the tag of farsi is fa)"
    )
