"""Hugo Blox's and academicpages' publication files, copied into content/records/, build as records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, write_site
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.build import check_site
from sitegen.sources import reader_for
from sitegen.validate import validate_record

MIGRATE = Path(__file__).resolve().parents[1] / "fixtures" / "migrate"


def built(tmp_path: Path, folder: str, extra: dict[str, str] | None = None):
    site = write_site(tmp_path, {**MINIMAL_SITE, **(extra or {})})
    shutil.copytree(MIGRATE / folder, site / "content" / "records" / "imported")
    result = check_site(site)
    records = {record["id"]: record for record in json.loads(result.files["records.json"])["records"]}
    return result, records


def test_hugo_blox_publications_build_with_their_fields_under_sitegens_names(tmp_path):
    result, records = built(tmp_path, "hugo-blox")
    paper = records["conference-paper"]  # a page bundle's id is its folder's name
    assert paper["title"] == "Sorting by log n rounds of gossip"
    assert paper["source"] == "ACM Symposium on Gossip"  # 'In *...*' as plain text
    assert paper["venue_short"] == "SoG"  # publication_short: 'In *SoG*'
    assert (paper["type"], paper["date"], paper["year"], paper["featured"]) == ("inproceedings", "2023-10-24", 2023, True)
    assert paper["doi"] == "10.5555/3618257.3624811"
    assert paper["categories"] == ["Distributed Systems", "Sorting"]
    assert paper["links"] == {
        "slides": "https://example.org/slides.pdf",
        "custom_link": "http://example.org/custom",
        "code": "https://github.com/example/gossip-sort",
    }
    assert paper["abstract"] == "We sort n keys in O(log n) rounds of gossip."  # the abstract, not the shortcodes below
    article = records["journal-article"]
    assert (article["type"], article["source"], article["doi"]) == ("article", "Journal of Engines, 1(1)", None)
    assert article["abstract"] == "The engine weaves algebraic patterns."  # no abstract: the text below the front matter
    assert article["links"] == {"pdf": "https://example.org/engines.pdf", "video": "https://example.org/video"}
    assert result.warnings == []  # the layout fields (publishDate, image, projects, author_notes, ...) pass without a word


def test_hugo_bloxs_admin_author_is_the_profiles_owner(tmp_path):
    result, records = built(tmp_path, "hugo-blox")
    assert records["conference-paper"]["authors"] == ["Mary Somerville", "Ada Lovelace", "Charles Babbage"]
    page = BeautifulSoup(result.files["records/conference-paper/index.html"], "html.parser")
    assert [owner.get_text() for owner in page.select(".authors strong.owner")] == ["Ada Lovelace"]
    assert "author = {Mary Somerville and Ada Lovelace and Charles Babbage}" in page.select_one(".cite pre, pre").get_text()
    renamed, records = built(tmp_path / "renamed", "hugo-blox", {"content/profile.yaml": "name: Ada King\nname_variants: [Ada Lovelace]\n"})
    assert records["conference-paper"]["authors"] == ["Mary Somerville", "Ada King", "Charles Babbage"]
    yaml_record = "id: y\ntitle: T\nyear: 2020\nauthors: [admin]\n"  # in sitegen's own files a name is a name
    _, records = built(tmp_path / "yaml", "academicpages", {"content/records/y.yaml": yaml_record})
    assert records["y"]["authors"] == ["admin"]


def test_academicpages_publications_build_with_their_fields_under_sitegens_names(tmp_path):
    result, records = built(tmp_path, "academicpages")
    notes = records["2009-10-01-paper-title-number-1"]
    assert (notes["title"], notes["source"], notes["type"], notes["date"]) == ("Notes on the Analytical Engine", "Journal 1", "article", "2009-10-01")
    assert notes["links"] == {"pdf": "http://academicpages.github.io/files/paper1.pdf", "slides": "http://academicpages.github.io/files/slides1.pdf"}
    assert notes["abstract"].startswith("The engine might compose elaborate pieces of music.")
    cards = records["2015-10-01-paper-title-number-3"]
    assert (cards["type"], cards["abstract"]) == ("inproceedings", "Punched cards, read twice.")  # no text below: the excerpt
    assert result.warnings == []
    page = BeautifulSoup(result.files["records/2009-10-01-paper-title-number-1/index.html"], "html.parser")
    assert page.find("p", class_="venue").find(class_="source").get_text() == "Journal 1"
    assert page.find("li", class_="link-pdf").a["href"] == "http://academicpages.github.io/files/paper1.pdf"


def test_a_markdown_record_may_use_sitegens_own_fields(tmp_path):
    text = "---\ntitle: Own fields\nauthors: [Ada Lovelace]\nyear: 2020\nsource: Journal 2\nlinks: {code: 'https://example.org/c'}\n---\nThe abstract.\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/own.md": text})
    result = check_site(site)
    record = json.loads(result.files["records.json"])["records"][0]
    assert (record["id"], record["source"], record["links"], record["abstract"]) == ("own", "Journal 2", {"code": "https://example.org/c"}, "The abstract.")


def test_an_academicpages_paperurl_that_is_a_doi_is_the_records_doi(tmp_path):
    """`paperurl: 'https://doi.org/10.1017/...'` (the publisher's page, as academicpages owners often link it) was the
    record's "PDF" link, and its `citation_pdf_url` told Google Scholar that doi.org serves the PDF."""
    text = (
        "---\ntitle: Splitting compounds\ncollection: publications\ndate: 2022-11-03\nvenue: 'Nordic Journal of Linguistics'\n"
        "paperurl: 'https://doi.org/10.1017/S0332586522000123'\n---\n"
    )
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/publications/2022-sami.md": text})
    result = check_site(site)
    record = json.loads(result.files["records.json"])["records"][0]
    assert record["doi"] == "10.1017/S0332586522000123" and "pdf" not in record.get("links", {})
    head = BeautifulSoup(result.files["records/2022-sami/index.html"], "html.parser").head
    assert head.find("meta", attrs={"name": "citation_doi"})["content"] == "10.1017/S0332586522000123"
    assert head.find("meta", attrs={"name": "citation_pdf_url"}) is None


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("README.md", "Records of the lab.\n", "content/records/README.md:1: warning: not read: a Markdown record starts with YAML front matter"),
        ("open.md", "---\ntitle: T\n", "content/records/open.md:1: the front matter is not closed"),
        (
            "typo.md",
            "---\ntitle: T\nyear: 2020\nabstarct: x\n---\n",
            "content/records/typo.md:4: warning: field 'abstarct': unknown field; did you mean 'abstract'?",
        ),
    ],
)
def test_a_markdown_file_that_is_no_record_is_said_so(tmp_path, name, text, message):
    from sitegen.errors import ContentError

    site = write_site(tmp_path, {**MINIMAL_SITE, f"content/records/{name}": text})
    try:
        problems = [str(problem) for problem in check_site(site).warnings]
    except ContentError as error:
        problems = [str(problem) for problem in error.problems]
    assert any(problem.startswith(message) for problem in problems), problems


FIELD_NAMES = ["title", "authors", "date", "year", "publication", "venue", "publication_types", "category", "links", "url_custom", "url_pdf",
               "paperurl", "hugoblox", "doi", "tags", "draft", "summary", "excerpt", "abstract", "id", "featured", "x"]  # fmt: skip
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20) | st.dates(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["ids", "doi", "type", "name", "url", "0"]), inner, max_size=3),
    max_leaves=8,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(front_matter=st.dictionaries(st.sampled_from(FIELD_NAMES) | st.integers(0, 3), VALUES, max_size=8), body=st.text(max_size=40))
def test_any_front_matter_gives_a_record_or_problems_never_a_crash(front_matter, body):
    text = "---\n" + yaml.safe_dump(front_matter, allow_unicode=True) + "---\n" + body
    path = "content/records/any.md"
    reader = reader_for(path)
    assert reader is not None
    mappings, problems = reader.read(text, path)
    for mapping in mappings:
        validate_record(mapping, path, problems, reader="markdown")
    assert all(problem.location is None or problem.location.path == path for problem in problems)


def test_hugo_academics_toml_front_matter_is_read_too(tmp_path):
    result, records = built(tmp_path, "hugo-academic")
    paper = records["toml-paper"]
    assert (paper["title"], paper["type"], paper["date"], paper["source"]) == (
        "Parsing the analytical engine's notes",
        "inproceedings",
        "2018-05-01",
        "Proceedings of the Engine Workshop",
    )
    assert paper["links"] == {"pdf": "https://example.org/notes.pdf", "project": "https://example.org/project"}
    assert (paper["categories"], paper["abstract"], paper["venue_short"]) == (["Parsing"], "We parse the notes.", "EW")
    assert paper["authors"] == ["Mary Somerville", "Ada Lovelace"]  # `admin`: the owner
    assert result.warnings == []


@pytest.mark.parametrize(
    "text, message",
    [
        ("+++\ntitle = 'T'\n", "content/records/t.md:1: the front matter is not closed: add a line '+++' after its settings"),
        ("+++\ntitle = 'T'\nyear = \nx = 1\n+++\n", "content/records/t.md:3: invalid TOML front matter: "),
        ("+++\ntitle = 'T'\nyear = \n+++\n", "content/records/t.md:4: invalid TOML front matter: "),  # at the end: the closing line
    ],
)
def test_broken_toml_front_matter_is_a_problem_at_its_line(tmp_path, text, message):
    from sitegen.errors import ContentError

    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/t.md": text})
    with pytest.raises(ContentError) as raised:
        check_site(site)
    assert any(str(problem).startswith(message) for problem in raised.value.problems), raised.value.problems


def test_dates_academicpages_and_hugo_blox_accept_are_read(tmp_path):
    """`date: 2023` (a year: academicpages sites write it), `date: 2021-3-5` (Jekyll reads it) and Hugo's
    '2021-8-20T00:00:00Z' made the build fail ("expected a date YYYY-MM-DD") once the files were brought over."""
    result, records = built(tmp_path, "dates")
    assert result.warnings == []
    year_only = records["2023-permutation-tests"]
    assert (year_only["year"], year_only.get("date")) == (2023, None)  # a year, not January 1st
    assert (records["2021-03-05-graph-embeddings"]["date"], records["2021-03-05-graph-embeddings"]["year"]) == ("2021-03-05", 2021)
    assert records["gui-testing"]["date"] == "2021-08-20"
    page = BeautifulSoup(result.files["records/2023-permutation-tests/index.html"], "html.parser")
    assert "January" not in page.select_one("p.venue").get_text()


@pytest.mark.parametrize("kind", ["software", "dataset"])
def test_hugo_bloxs_csl_types_of_software_and_data_are_the_records_types(tmp_path, kind):
    """Hugo Blox writes CSL's names (`publication_types: ['dataset']`): they were "Other", with a warning to write `type:`."""
    front = f"---\ntitle: FluxGrid\nauthors: [admin]\ndate: '2024-03-14T00:00:00Z'\npublication_types: ['{kind}']\npublication: Zenodo\n---\n"
    result = check_site(write_site(tmp_path, {**MINIMAL_SITE, "content/records/fluxgrid/index.md": front}))
    record = json.loads(result.files["records.json"])["records"][0]
    assert record["type"] == kind and [str(w) for w in result.warnings] == []


def test_a_quarto_publication_page_copied_in_builds_with_its_citation_metadata(tmp_path):
    """A Quarto listing's `publications/x.qmd` copied into content/records/ as it is: `author` (text, or `name:`
    mappings), its `citation:` (CSL: type, journal, volume, issue, pages, url), `description` as the abstract, and
    Quarto's own page settings passed over without a warning."""
    extra = {
        "content/records/pc-priors.qmd": (
            "---\ntitle: Penalised complexity priors\nauthor:\n  - name: Ada Lindqvist\n    orcid: 0000-0002-1825-0097\n"
            "  - name: {given: Erik, family: Berg}\ndate: 2023-05-12\ndoi: 10.1080/01621459.2023.1234567\n"
            "citation:\n  type: article-journal\n  container-title: Journal of Spatial Things\n  volume: 118\n  issue: 3\n"
            "  page: 1203-1215\n  url: https://doi.org/10.1080/01621459.2023.1234567\n  pdf-url: https://example.org/pc.pdf\n"
            "description: PC priors for Matérn fields.\nformat:\n  html:\n    toc: true\n---\n"
        ),
        "content/records/workshop.qmd": "---\ntitle: Fast inference\nauthor: Ada Lindqvist, Erik Berg and Maja Holm\ndate: 2021\n---\n",
    }
    site = write_site(tmp_path, {**MINIMAL_SITE, **extra})
    result = check_site(site)
    assert not [p for p in result.warnings if "pc-priors" in str(p) or "workshop" in str(p)], result.warnings
    records = {record["id"]: record for record in json.loads(result.files["records.json"])["records"]}
    paper = records["pc-priors"]
    assert (paper["authors"], paper["type"], paper["source"]) == (["Ada Lindqvist", "Erik Berg"], "article", "Journal of Spatial Things")
    assert paper["details"] == {"volume": "118", "number": "3", "pages": "1203–1215"}
    assert paper["links"] == {"pdf": "https://example.org/pc.pdf"}  # its url is its DOI's address: the DOI link says it
    assert paper["abstract"] == "PC priors for Matérn fields."
    assert records["workshop"]["authors"] == ["Ada Lindqvist", "Erik Berg", "Maja Holm"]  # one text naming three
    page = BeautifulSoup(result.files["records/pc-priors/index.html"], "html.parser")
    assert "Journal of Spatial Things" in page.get_text() and "1203–1215" in page.get_text()
