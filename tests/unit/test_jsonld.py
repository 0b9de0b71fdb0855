"""schema.org JSON-LD as a search engine reads it from the page, checked against the shapes Google documents
(tests/fixtures/schema/: ScholarlyArticle under Google's Article rules, the profile's Person)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sitegen.exports.jsonld import HEADLINE_LENGTH, blog_posting, person_json_ld, profile_page, scholarly_article, script_json
from sitegen.model import RECORD_TYPES, Profile
from unit.test_cite import JOURNAL, KESTREL, PREPRINT, THESIS, make_entry

SCHEMAS = Path(__file__).resolve().parents[1] / "fixtures" / "schema"
ARTICLE = Draft202012Validator(json.loads((SCHEMAS / "scholarly_article.schema.json").read_text(encoding="utf-8")))
PERSON = Draft202012Validator(json.loads((SCHEMAS / "person.schema.json").read_text(encoding="utf-8")))
PROFILE_PAGE = Draft202012Validator(json.loads((SCHEMAS / "profile_page.schema.json").read_text(encoding="utf-8")))
PROFILE_URL = "https://lena.github.io/site/"


def as_on_the_page(data: dict) -> dict:
    """The JSON-LD as a crawler parses it out of the page's <script> element."""
    return json.loads(script_json(data))


def article_of(entry, **options) -> dict:
    return as_on_the_page(scholarly_article(entry, f"{PROFILE_URL}records/{entry.slug}/", PROFILE_URL, **options))


def errors(validator: Draft202012Validator, data: dict) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]


# -- ScholarlyArticle ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", [KESTREL, PREPRINT, JOURNAL, THESIS], ids=lambda e: e.id)
def test_record_articles_have_googles_article_shape(entry):
    assert errors(ARTICLE, article_of(entry)) == []


def test_article_fields_a_reader_of_the_page_gets():
    owner = make_entry(
        "k",
        "Kestrel",
        ("Lena Müller", "Jonas Berg"),
        owner="Lena Müller",
        date="2025-03-30",
        source="Journal of Examples",
        type="article",
        doi="10.5555/1",
        abstract="We balance load.",
        subjects=("cs.dc",),
    )
    data = article_of(owner, image="https://lena.github.io/site/static/photo.jpg")
    assert errors(ARTICLE, data) == []
    assert (data["@type"], data["headline"], data["name"]) == ("ScholarlyArticle", "Kestrel", "Kestrel")
    owner = {"@type": "Person", "@id": f"{PROFILE_URL}#person", "name": "Lena Müller", "url": PROFILE_URL}  # the profile page's person
    assert data["author"] == [owner, {"@type": "Person", "name": "Jonas Berg"}]
    assert data["datePublished"] == "2025-03-30"
    assert data["image"] == "https://lena.github.io/site/static/photo.jpg"
    assert data["isPartOf"] == {"@type": "Periodical", "name": "Journal of Examples"}  # a journal is not a publisher
    assert "publisher" not in data
    assert data["identifier"] == [{"@type": "PropertyValue", "propertyID": "DOI", "value": "10.5555/1"}]
    assert data["abstract"] == "We balance load."


def test_an_articles_volume_issue_and_pages_as_schema_org_nests_them():
    """A reference manager or a search engine reading the page finds where in the journal the article is."""
    entry = make_entry(
        "v", "Kestrel", ("Lena Müller",), year=2024, source="Journal of Examples", type="article", extra={"volume": 12, "issue": "3", "pages": "101--117"}
    )
    data = article_of(entry)
    assert errors(ARTICLE, data) == []
    assert data["isPartOf"] == {
        "@type": "PublicationIssue",
        "issueNumber": "3",
        "isPartOf": {"@type": "PublicationVolume", "volumeNumber": "12", "isPartOf": {"@type": "Periodical", "name": "Journal of Examples"}},
    }
    assert (data["pagination"], data["pageStart"], data["pageEnd"]) == ("101–117", "101", "117")


def test_a_chapters_pages_without_a_volume_and_a_single_page():
    chapter = article_of(make_entry("c", "Kestrel", ("Lena Müller",), year=2024, source="Handbook", type="chapter", extra={"pages": "e1234"}))
    assert errors(ARTICLE, chapter) == []
    assert chapter["isPartOf"] == {"@type": "Book", "name": "Handbook"}
    assert chapter["pagination"] == "e1234" and "pageStart" not in chapter
    volume_only = article_of(make_entry("w", "Kestrel", (), year=2024, source="Journal of Examples", type="article", extra={"volume": "7"}))
    assert volume_only["isPartOf"] == {"@type": "PublicationVolume", "volumeNumber": "7", "isPartOf": {"@type": "Periodical", "name": "Journal of Examples"}}


def test_preprint_is_published_by_its_repository():
    data = article_of(PREPRINT)
    assert data["publisher"] == {"@type": "Organization", "name": "arXiv"}
    assert data["datePublished"] == "2024"
    assert data["sameAs"] == ["https://arxiv.org/abs/2401.01234"]


def test_long_title_gives_a_headline_google_shows_whole():
    title = "A " + "very long title about load balancing in distributed systems " * 4
    data = article_of(make_entry("long", title.strip(), ("Ada Lovelace",), year=2020))
    assert errors(ARTICLE, data) == []
    assert len(data["headline"]) <= HEADLINE_LENGTH and data["headline"].endswith("…")
    assert title.startswith(data["headline"][:-1])
    assert data["name"] == title.strip()


def test_a_blog_post_is_an_article_by_the_owner_of_the_site():
    """The same shape as a record's (the article schema, but for its type), its author the site's owner."""
    title = "Why " + "checkpoint intervals matter on preemptible machines " * 3
    data = as_on_the_page(blog_posting(title.strip(), "2025-05-20", "", f"{PROFILE_URL}posts/why/", "Lena Müller", PROFILE_URL))
    assert data["@type"] == "BlogPosting" and "description" not in data
    assert errors(ARTICLE, {**data, "@type": "ScholarlyArticle"}) == []
    assert len(data["headline"]) <= HEADLINE_LENGTH and data["name"] == title.strip()
    assert data["author"] == [{"@type": "Person", "@id": f"{PROFILE_URL}#person", "name": "Lena Müller", "url": PROFILE_URL}]
    assert data["datePublished"] == "2025-05-20"


@pytest.mark.parametrize(("month", "published"), [(8, "2022-08"), (12, "2022-12"), (13, "2022"), ("Spring", "2022"), (None, "2022")])
def test_a_month_without_a_day_is_in_the_date_published(month, published):
    """QA: a .bib entry's `month = aug` (or a YAML record's `month: 8`) gave Google Scholar's tag `2022/08` but the
    JSON-LD `datePublished` "2022": the page said two dates. ISO 8601, which Google asks for, writes `2022-08`."""
    data = article_of(make_entry("m", "Sparsifiers", ("Lena Müller",), year=2022, extra={} if month is None else {"month": month}))
    assert errors(ARTICLE, data) == []
    assert data["datePublished"] == published


def test_unknown_fields_are_left_out_not_empty():
    data = article_of(make_entry("bare", "Bare Record"))  # no authors, no year, no venue
    assert errors(ARTICLE, data) == []
    assert not {"author", "datePublished", "publisher", "isPartOf", "identifier", "sameAs", "about"} & data.keys()


_text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).filter(str.strip)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=_text, author=_text, venue=st.text(max_size=30), kind=st.sampled_from(RECORD_TYPES))
def test_any_record_gives_a_valid_article(title, author, venue, kind):
    data = article_of(make_entry("x", title, (author,), year=2021, source=venue, type=kind))
    assert errors(ARTICLE, data) == []
    assert data["name"] == title and data["author"][0]["name"] == author


def test_the_schema_catches_what_google_flags():
    """The fixture is a real check: the shapes Google warns about fail it."""
    good = article_of(KESTREL)
    assert errors(ARTICLE, {**good, "headline": "x" * 111})
    assert errors(ARTICLE, {**good, "author": "Lena Müller, Jonas Berg"})  # authors merged into one string
    assert errors(ARTICLE, {**good, "author": [{"@type": "Person"}]})  # an author without a name
    assert errors(ARTICLE, {**good, "datePublished": "30 March 2025"})
    assert errors(ARTICLE, {**good, "url": "/records/x/"})  # relative


# -- Person -------------------------------------------------------------------------------------------------

LENA = Profile(
    "Lena Müller",
    name_variants=('L. M{\\"u}ller',),
    position="Assistant Professor",
    affiliation="University of Examples",
    email="lena@example.org",
)
LINKS = [
    "https://orcid.org/0000-0002-1825-0097",
    "https://scholar.google.com/citations?user=abc",
    "https://github.com/lena",
    "https://github.com/lena",
    PROFILE_URL,
]


def test_profile_person():
    page = as_on_the_page(profile_page(person_json_ld(LENA, PROFILE_URL, "https://lena.github.io/site/static/lena.jpg", LINKS), PROFILE_URL))
    assert errors(PROFILE_PAGE, page) == []
    assert (page["@type"], page["@id"], page["url"]) == ("ProfilePage", PROFILE_URL, PROFILE_URL)
    data = page["mainEntity"]
    assert errors(PERSON, data) == []
    assert (data["@type"], data["@id"], data["name"], data["url"]) == ("Person", f"{PROFILE_URL}#person", "Lena Müller", PROFILE_URL)
    assert data["affiliation"] == {"@type": "Organization", "name": "University of Examples"}
    assert data["jobTitle"] == "Assistant Professor"
    assert data["image"] == "https://lena.github.io/site/static/lena.jpg"
    # the person's pages elsewhere, each once, without the page itself
    assert data["sameAs"] == ["https://orcid.org/0000-0002-1825-0097", "https://scholar.google.com/citations?user=abc", "https://github.com/lena"]


def test_profile_with_only_a_name():
    data = as_on_the_page(profile_page(person_json_ld(Profile("Ada Lovelace"), PROFILE_URL), PROFILE_URL))
    assert errors(PROFILE_PAGE, data) == [] and errors(PERSON, data["mainEntity"]) == []
    person = {"@type": "Person", "@id": f"{PROFILE_URL}#person", "name": "Ada Lovelace", "url": PROFILE_URL}
    assert data == {"@context": "https://schema.org", "@type": "ProfilePage", "@id": PROFILE_URL, "url": PROFILE_URL, "mainEntity": person}


def test_person_schema_catches_broken_shapes():
    good = as_on_the_page(person_json_ld(LENA, PROFILE_URL, None, LINKS))
    assert errors(PERSON, good) == []
    assert errors(PERSON, {**good, "affiliation": "University of Examples"})  # a string, not an Organization
    assert errors(PERSON, {**good, "sameAs": ["orcid.org/0000"]})
    assert errors(PERSON, {k: v for k, v in good.items() if k != "name"})
    page = as_on_the_page(profile_page(good, PROFILE_URL))
    assert errors(PROFILE_PAGE, {k: v for k, v in page.items() if k != "mainEntity"})  # Google's one required property
    assert errors(PROFILE_PAGE, {**page, "mainEntity": {**page["mainEntity"], "@type": "WebPage"}})


@pytest.mark.parametrize(
    "kind, schema_type",
    [("article", "ScholarlyArticle"), ("preprint", "ScholarlyArticle"), ("thesis", "Thesis"), ("book", "Book"), ("chapter", "Chapter"),
     ("report", "Report"), ("software", "SoftwareSourceCode"), ("dataset", "Dataset")],
)  # fmt: skip
def test_a_record_is_the_schema_org_thing_its_type_says_and_an_organisation_author_is_no_person(kind, schema_type):
    data = article_of(make_entry("x", "A Work", ("Lena Müller", "{Google DeepMind}", "ATLAS Collaboration"), year=2021, source="Venue", type=kind))
    assert errors(ARTICLE, data) == [] and data["@type"] == schema_type
    assert [(a["@type"], a["name"].strip("{}")) for a in data["author"]] == [
        ("Person", "Lena Müller"),
        ("Organization", "Google DeepMind"),
        ("Organization", "ATLAS Collaboration"),
    ]


def test_a_dataset_has_the_description_googles_dataset_search_requires(tmp_path):
    from bs4 import BeautifulSoup
    from conftest import MINIMAL_SITE, write_site

    from sitegen.build import check_site

    record = "id: gauges\ntitle: Vistula river-gauge observations\nauthors: [Marta Kowalczyk]\nyear: 2023\ntype: dataset\nsource: Zenodo\n"
    result = check_site(write_site(tmp_path, {**MINIMAL_SITE, "content/records/gauges.yaml": record}))
    page = BeautifulSoup(result.files["records/gauges/index.html"], "html.parser")
    data = json.loads(page.find("script", type="application/ld+json").string)
    assert data["@type"] == "Dataset" and data["description"] == "Marta Kowalczyk · Zenodo · 2023"
