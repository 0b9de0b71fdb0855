"""A site in several languages (sitegen.languages): what a file's name says of its language, `languages:` as
site.yaml writes it, and the sitemap's alternates."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from sitegen.exports.sitemap import sitemap
from sitegen.languages import LanguageLinks, file_language
from sitegen.load import parse_yaml
from sitegen.model import RawDocument
from sitegen.urls import SiteUrls
from sitegen.validate import validate_config


@pytest.mark.parametrize(
    "path, languages, found",
    [
        ("content/pages/about.fr.md", ("en", "fr"), ("fr", "content/pages/about.md")),
        ("content/pages/teaching/index.fr.md", ("en", "fr"), ("fr", "content/pages/teaching/index.md")),
        ("content/pages/about.fr-CA.md", ("en", "fr-CA"), ("fr-CA", "content/pages/about.md")),
        ("content/pages/about.FR.md", ("en", "fr"), ("fr", "content/pages/about.md")),  # as site.yaml writes it
        ("content/pages/about.de.md", ("en", "fr"), ("de", "content/pages/about.md")),  # a language, not the site's: the caller warns
        ("content/cv.fr.yaml", (), ("fr", "content/cv.yaml")),
        ("content/pages/about.md", ("en", "fr"), None),
        ("content/pages/v1.2.md", ("en", "fr"), None),
        ("content/pages/notes.on.md", ("en", "fr"), None),  # 'on' is no language sitegen knows
        ("content/pages/.fr.md", ("en", "fr"), None),
    ],
)
def test_a_files_name_gives_its_language_before_its_suffix(path, languages, found):
    assert file_language(path, languages) == found


def config(text: str) -> tuple[object, list[str]]:
    data, problem = parse_yaml(text, "content/site.yaml")
    assert problem is None
    problems: list = []
    made = validate_config(RawDocument(None, "content/site.yaml", data), problems)  # type: ignore[arg-type]
    return made, [str(problem) for problem in problems]


def test_languages_put_the_default_first_which_language_names_when_it_is_one_of_them():
    made, problems = config("title: T\nlanguages: [en, fr, ca]\n")
    assert (made.language, made.languages, problems) == ("en", ("en", "fr", "ca"), [])
    made, problems = config("title: T\nlanguage: fr\nlanguages: [en, fr]\n")
    assert (made.language, made.languages, problems) == ("fr", ("fr", "en"), [])
    made, problems = config("title: T\nlanguage: de\nlanguages: [en, fr]\n")
    assert (made.language, made.languages) == ("en", ("en", "fr"))
    assert problems == ["content/site.yaml:2: warning: field 'language': de is not one of languages (en, fr); the default language is en"]


def test_one_language_or_one_named_twice_is_a_warning_and_a_tag_that_is_none_an_error():
    made, problems = config("title: T\nlanguages: [fr]\n")
    assert made.languages == () and made.language == "en"
    assert problems == [
        "content/site.yaml:2: warning: field 'languages': a site in several languages names two or more, such as [en, fr], got ['fr']; built in en"
    ]
    made, problems = config("title: T\nlanguages: [en, fr, FR]\n")
    assert made.languages == ("en", "fr") and problems == ["content/site.yaml:2: warning: field 'languages': FR is named twice; left out the second time"]
    _, problems = config("title: T\nlanguages: [en, français]\n")
    assert problems[0].startswith("content/site.yaml:2: field 'languages': expected a language tag (BCP 47)")


def test_languages_written_without_brackets_say_to_write_a_list():
    """`languages: en, fr-CA` is one string to YAML: the error said 'expected a language tag', as if one were wrong."""
    made, problems = config("title: T\nlanguages: en, fr-CA\n")
    assert made.languages == ()
    assert problems == ["content/site.yaml:2: field 'languages': expected a list of language tags in brackets, such as [en, fr-CA]; got 'en, fr-CA'"]


def test_a_file_named_for_a_languages_primary_tag_names_the_sites_regional_one():
    from sitegen.languages import not_a_language_of_the_site

    said = not_a_language_of_the_site("fr", ("en", "fr-CA"), "content/pages/about.md")
    assert said.endswith("left out: did you mean fr-CA? (name it for fr-CA, or add fr to languages)")
    assert "did you mean" not in not_a_language_of_the_site("de", ("en", "fr"), "content/pages/about.md")


def test_the_sitemap_names_each_versions_alternates_in_the_xhtml_namespace():
    links = LanguageLinks(("en", "fr"), SiteUrls("https://example.org/"))
    for language, path in (("en", "about/index.html"), ("fr", "fr/about/index.html")):
        links.add("about/index.html", language, path)
    urls = ["https://example.org/about/", "https://example.org/records/x/"]
    root = ET.fromstring(sitemap(urls, [links.sitemap_alternates("about/index.html"), links.sitemap_alternates("records/x/index.html")]))
    entries = [[(link.get("rel"), link.get("hreflang"), link.get("href")) for link in url.iter("{http://www.w3.org/1999/xhtml}link")] for url in root]
    assert entries == [
        [
            ("alternate", "en", "https://example.org/about/"),
            ("alternate", "fr", "https://example.org/fr/about/"),
            ("alternate", "x-default", "https://example.org/about/"),
        ],
        [],
    ]
    assert b"xhtml" not in sitemap(urls)  # a site in one language: as before


def test_only_a_per_language_kind_may_say_how_its_content_is_split_by_language():
    """`language_content` of a kind listed once, in the default language, would never be used: a mistake to say so."""
    from sitegen.pages import PAGE_KINDS, register_page_kind

    with pytest.raises(ValueError, match="per_language"):
        register_page_kind("once-only", language_content=lambda content, language, languages: content)(lambda context: [])
    assert "once-only" not in PAGE_KINDS


def test_each_kind_that_varies_by_language_says_how_its_content_is_split():
    """The build names no kind when it gives each language its part: each kind with content of its own that exists
    in each language declares its split (a kind made per-language without one would show every language's items)."""
    from sitegen.pages import PAGE_KINDS

    split = {name for name, kind in PAGE_KINDS.items() if kind.per_language and kind.load is not None}
    assert split == {name for name, kind in PAGE_KINDS.items() if kind.language_content is not None} >= {"pages", "cv", "news", "talks", "posts"}


def test_a_file_named_with_a_word_that_is_a_rare_languages_tag_is_no_translation():
    """The switcher knows the names of many languages (Occitan, Tongan...); a file's name is taken to be in a language
    the site lacks only for the languages it knew before: 'how.to.md' is a page, not one in Tongan."""
    assert file_language("content/pages/how.to.md", ("en", "fr")) is None
    assert file_language("content/pages/about.oc.md", ("en", "oc")) == ("oc", "content/pages/about.md")
    assert file_language("content/pages/about.de.md", ("en", "fr")) == ("de", "content/pages/about.md")
