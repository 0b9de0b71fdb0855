"""APA, IEEE, Vancouver and Chicago citations as a reader copies them from a record page: the text, and the HTML a browser shows."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from sitegen.cite import CSL_DIR, STYLES, csl_item, csl_name, formatted_citation, formatted_citations, record_type
from sitegen.enrich import own_url_kind, work_links
from sitegen.errors import Location
from sitegen.model import RECORD_TYPES, Author, Entry, Record, Subject, Text
from sitegen.record_types import thesis_venue


def make_entry(
    id: str = "x",
    title: str = "A Title",
    authors: tuple[str, ...] = (),
    *,
    owner: str = "",
    source: str = "",
    abstract: str = "",
    subjects: tuple[str, ...] = (),
    date: str | None = None,
    **fields,
) -> Entry:
    """An entry as enrich makes it for a record whose text holds no LaTeX (so the plain text is the text)."""
    record = Record(
        id=id,
        title=title,
        location=Location("content/records/x.yaml", 1),
        authors=tuple(authors),
        source=source,
        abstract=abstract,
        date=datetime.date.fromisoformat(date) if date else None,
        **fields,
    )
    links = work_links(record)
    degree, venue = thesis_venue(source, str(record.extra.get("bibtex_type", ""))) if record.type == "thesis" else ("", source)
    return Entry(
        record=record,
        slug=id,
        title=Text(title, title, title),
        authors=tuple(Author(a, a == owner) for a in authors),
        abstract_html=abstract,
        abstract_plain=abstract,
        subjects=tuple(Subject(s, s.upper(), s) for s in subjects),
        cite_key=id.replace(".", ""),
        source=Text(venue, venue, venue),
        thesis_degree=degree,
        links=links,
        url_kind=own_url_kind(record, links),
    )


KESTREL = make_entry(
    "muller2025kestrel",
    "Kestrel: Fast Load Balancing",
    ("Lena Müller", "Jonas Berg", "André Dupont"),
    date="2025-03-30",
    source="Proceedings of the Twentieth European Conference on Computer Systems",
    doi="https://doi.org/10.5555/3689031.3717462",
)
PREPRINT = make_entry(
    "2401.01234", "Quadratic Time Is Enough", ("Lena Müller",), year=2024, source="arXiv", arxiv="2401.01234", links={"abs": "https://arxiv.org/abs/2401.01234"}
)
JOURNAL = make_entry(
    "lovelace2023",
    "A Journal Paper",
    ("Ada Lovelace", "Charles Babbage"),
    year=2023,
    source="Journal of Examples",
    type="article",
    extra={"volume": 12, "issue": "3", "pages": "45--67"},
)
THESIS = make_entry("thesis", "My Thesis", ("Ada Lovelace",), year=2020, source="PhD thesis, University of Examples", type="thesis")


# -- what a reader copies ---------------------------------------------------------------------------------


def test_conference_paper_in_apa_and_ieee():
    citations = formatted_citation(KESTREL)
    assert citations["apa"].plain == (
        "Müller, L., Berg, J., & Dupont, A. (2025, March 30). Kestrel: Fast Load Balancing. "
        "Proceedings of the Twentieth European Conference on Computer Systems. https://doi.org/10.5555/3689031.3717462"
    )
    assert citations["ieee"].plain == (
        "L. Müller, J. Berg, and A. Dupont, “Kestrel: Fast Load Balancing”, in Proceedings of the Twentieth European "
        "Conference on Computer Systems, Mar. 2025. doi: 10.5555/3689031.3717462."
    )
    # the venue is in italics, as APA and IEEE set it (Vancouver sets no italics)
    for style in ("apa", "ieee"):
        soup = BeautifulSoup(citations[style].html, "html.parser")
        assert [i.get_text() for i in soup.find_all("i")] == ["Proceedings of the Twentieth European Conference on Computer Systems"]


def test_journal_article_with_volume_issue_and_pages():
    citations = formatted_citation(JOURNAL)
    assert citations["apa"].plain == "Lovelace, A., & Babbage, C. (2023). A Journal Paper. Journal of Examples, 12(3), 45–67."
    assert citations["ieee"].plain == "A. Lovelace and C. Babbage, “A Journal Paper”, Journal of Examples, vol. 12, no. 3, pp. 45–67, 2023."


def test_arxiv_preprint_names_arxiv_and_its_id_once():
    citations = formatted_citation(PREPRINT)
    assert citations["apa"].plain == "Müller, L. (2024). Quadratic Time Is Enough (arXiv:2401.01234). arXiv. https://arxiv.org/abs/2401.01234"
    assert citations["ieee"].plain == ("L. Müller, “Quadratic Time Is Enough”, 2024, arXiv:2401.01234. [Online]. Available: https://arxiv.org/abs/2401.01234")


def test_a_version_written_as_a_release_tag_is_cited_as_apa_writes_versions():
    """Zenodo and GitHub write a release's version as its tag, `v2.3.1`; APA cites "(Version 2.3.1)", not "(Version v2.3.1)"."""
    software = make_entry(
        "fluxgrid", "FluxGrid", ("Marta Kowalczyk",), year=2024, source="Zenodo", type="software", extra={"version": "v2.3.1"}, doi="10.5281/zenodo.10812345"
    )
    assert (
        formatted_citation(software)["apa"].plain
        == "Kowalczyk, M. (2024). FluxGrid (Version 2.3.1) [Computer software]. Zenodo. https://doi.org/10.5281/zenodo.10812345"
    )
    assert csl_item(make_entry("v", "Tool", ("A B",), year=2024, type="software", extra={"version": "version-7"}))["version"] == "version-7"


def test_ieee_citation_carries_no_list_number():
    """A citation copied from one page goes into someone else's numbered list."""
    for entry in (KESTREL, PREPRINT, JOURNAL, THESIS):
        assert not formatted_citation(entry)["ieee"].plain.startswith("[")
        assert not formatted_citation(entry)["vancouver"].plain.startswith("1.")


def test_vancouver_names_six_authors_then_et_al_and_pubmeds_ids():
    """NLM's Vancouver, the biomedical journals' style, with the PMID and PMCID that the NIH's biosketches ask for."""
    entry = make_entry(
        "okafor2024",
        "Single-cell chromatin accessibility maps enhancer-gene regulation",
        ("Chen Li", "Hannah Schmidt", "Lukas Bello", "Sofia Moreau", "Kwame Sato", "Priya Patel", "Ada Lovelace", "Diego Wang"),
        source="Nature Genetics",
        type="article",
        year=2024,
        doi="10.1038/s41588-024-01234-5",
        ids={"pmid": "38486001", "pmcid": "PMC10987654"},
        extra={"volume": "56", "number": "3", "pages": "512-526"},
    )
    assert formatted_citation(entry)["vancouver"].plain == (
        "Li C, Schmidt H, Bello L, Moreau S, Sato K, Patel P, et al. Single-cell chromatin accessibility maps enhancer-gene "
        "regulation. Nature Genetics. 2024;56(3):512–26. doi:10.1038/s41588-024-01234-5 PubMed PMID: 38486001; "
        "PubMed Central PMCID: PMC10987654."
    )


def test_chicago_author_date_names_authors_in_full_and_uses_its_year_after_the_names():
    """Chicago (author-date), the historians' and economists' style: the first author inverted, the given names
    in full (the style's `initialize="false"`, which citeproc-py alone would read as "Smith, J."), the year after
    the names, volume (issue): pages, the DOI as a link. citeproc-py leaves the full stop after the closing quote
    (`“Title”.`); citeproc-js, which formats what readers see, puts it inside (tests/browser/test_cite.py)."""
    entry = make_entry(
        "smith2024",
        "Household Savings in Colonial Bengal",
        ("Jane Smith", "Wei Zhang"),
        source="Journal of Economic History",
        type="article",
        year=2024,
        doi="10.1017/S0022050724000123",
        extra={"volume": "12", "number": "3", "pages": "45-67"},
    )
    citation = formatted_citation(entry)["chicago"]
    assert citation.plain == (
        "Smith, Jane, and Wei Zhang. 2024. “Household Savings in Colonial Bengal”. Journal of Economic History 12 (3): 45–67. "
        "https://doi.org/10.1017/S0022050724000123."
    )
    assert BeautifulSoup(citation.html, "html.parser").find("i").get_text() == "Journal of Economic History"
    assert formatted_citation(entry)["apa"].plain.startswith("Smith, J., & Zhang, W. (2024).")  # APA still initializes


@pytest.mark.parametrize(
    ("language", "no_date"), [("en", "n.d."), ("de", "o.\u00a0J."), ("zh", "不详"), ("ja", "日付なし"), ("ko", "일자 없음"), ("fa", "بدون تاریخ")]
)
def test_chicago_says_no_date_in_the_sites_language(language, no_date):
    """An undated work is "n.d." in Chicago: in the term of the CSL locale the build ships for the site's language
    (static/csl/locales-*.xml, which citeproc-js formats with), not the English the style's own terms are in."""
    from sitegen.cite import _citeproc, csl_locale
    from sitegen.pages.search_index import csl_files

    locale = csl_locale(language)
    assert f"locales-{locale}.xml" in csl_files(locale)
    citeproc = _citeproc()
    style = citeproc.CitationStylesStyle(str(CSL_DIR / STYLES["chicago"]), locale=locale, validate=False)
    item = csl_item(make_entry("undated", "Undated Work", ("Ada Lovelace",), source="Journal of Examples", type="article"))
    bibliography = citeproc.CitationStylesBibliography(style, citeproc.CiteProcJSON([item]), citeproc.html_formatter)
    bibliography.register(citeproc.Citation([citeproc.CitationItem("undated")]))
    assert str(bibliography.bibliography()[0]).startswith(f"Lovelace, Ada. {no_date}")


def test_thesis_names_its_university_and_kind():
    citations = formatted_citation(THESIS)
    assert citations["ieee"].plain == "A. Lovelace, “My Thesis”, PhD thesis, University of Examples, 2020."
    assert citations["apa"].plain == "Lovelace, A. (2020). My Thesis. University of Examples."


def test_a_record_without_a_date_is_undated_in_apa():
    entry = make_entry("undated", "Undated Work", ("Ada Lovelace",), source="Journal of Examples", type="article")
    assert "(n.d.)" in formatted_citation(entry)["apa"].plain


def test_formatted_citations_by_record_id():
    citations = formatted_citations([KESTREL, PREPRINT])
    assert set(citations) == {"muller2025kestrel", "2401.01234"}
    assert set(citations["2401.01234"]) == set(STYLES)
    assert citations["2401.01234"]["apa"] == formatted_citation(PREPRINT)["apa"]


# -- safe HTML ------------------------------------------------------------------------------------------------


def test_record_text_is_escaped_not_markup():
    entry = make_entry(
        "x",
        'Fast <script>alert("x")</script> R&D <b>bold</b>',
        ("Eve <img src=x onerror=alert(1)>",),
        year=2024,
        source="Journal of <i>Things</i> & Stuff",
        type="article",
    )
    for style, citation in formatted_citation(entry).items():
        soup = BeautifulSoup(citation.html, "html.parser")
        assert soup.find(["script", "img", "b"]) is None, style
        assert {tag.name for tag in soup.find_all(True)} <= {"i"}, style
        assert 'Fast <script>alert("x")</script> R&D <b>bold</b>' in citation.plain
        assert "Journal of <i>Things</i> & Stuff" in citation.plain
        assert soup.get_text() == citation.plain


_awkward_text = st.lists(
    st.sampled_from(list("ab &<>\"'/;.,:()[]{}\\é\ue000\ue001") + ['<span class="nocase">', "</span>", "&amp;"]), min_size=1, max_size=20
).map("".join)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=_awkward_text, venue=_awkward_text, author=_awkward_text, kind=st.sampled_from(RECORD_TYPES))
def test_any_text_gives_html_whose_text_is_the_plain_citation(title, venue, author, kind):
    entry = make_entry("x&<y>", "t" + title, ("A " + author,), year=2021, source=venue, type=kind)
    for citation in formatted_citation(entry).values():
        soup = BeautifulSoup(citation.html, "html.parser")
        assert {tag.name for tag in soup.find_all(True)} <= {"i", "b", "span", "sup", "sub"}
        assert soup.get_text() == citation.plain
        assert "\ue000" not in citation.plain and "\ue001" not in citation.plain


# -- CSL-JSON ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "csl_type"),
    [
        ("article", "article-journal"),
        ("inproceedings", "paper-conference"),
        ("preprint", "article"),
        ("thesis", "thesis"),
        ("book", "book"),
        ("chapter", "chapter"),
        ("report", "report"),
        ("patent", "patent"),
        ("software", "software"),
        ("dataset", "dataset"),
        ("other", "document"),
    ],
)
def test_record_types_map_to_csl_types(kind, csl_type):
    assert csl_item(make_entry(type=kind, year=2020))["type"] == csl_type


def test_untyped_records_are_typed_from_their_venue():
    assert record_type(PREPRINT) == "preprint"  # only an arXiv source
    assert record_type(KESTREL) == "inproceedings"
    assert record_type(make_entry(source="IEEE Transactions on Things")) == "article"
    assert record_type(THESIS) == "thesis"
    assert record_type(make_entry(source="Somewhere")) == "other"


@pytest.mark.parametrize(
    "source",
    ["Comm. Math. Phys.", "Commun. ACM", "Invent. Math.", "Acta Math.", "Math. Z.", "Izv. Ross. Akad. Nauk Ser. Mat.", "Communications in Number Theory"],
)
def test_mathematics_and_physics_journals_cited_as_iso_4_abbreviates_them_are_articles(source):
    assert record_type(make_entry(source=source)) == "article"


def test_a_book_series_of_mathematics_is_no_journal():
    assert record_type(make_entry(source="Lecture Notes in Math.")) == "other"


def test_csl_item_fields():
    item = csl_item(KESTREL)
    assert item["DOI"] == "10.5555/3689031.3717462"  # the resolver prefix is the style's to add
    assert item["issued"] == {"date-parts": [[2025, 3, 30]]}
    assert item["container-title"].startswith("Proceedings of")
    assert "URL" not in item  # a DOI is the link styles print
    preprint = csl_item(PREPRINT)
    assert (preprint["archive"], preprint["number"], preprint["URL"]) == ("arXiv", "arXiv:2401.01234", "https://arxiv.org/abs/2401.01234")
    thesis = csl_item(THESIS)
    assert (thesis["genre"], thesis["publisher"]) == ("PhD thesis", "University of Examples")


@pytest.mark.parametrize(
    ("name", "csl"),
    [
        ("Lena Müller", {"family": "Müller", "given": "Lena"}),
        ("Müller, Lena", {"family": "Müller", "given": "Lena"}),
        ("Jan van der Berg", {"family": "van der Berg", "given": "Jan"}),
        ("Mary Ann Smith Jr.", {"family": "Smith", "given": "Mary Ann", "suffix": "Jr."}),
        ("Smith, Jr., John", {"family": "Smith", "given": "John", "suffix": "Jr."}),
        ("ATLAS Collaboration", {"literal": "ATLAS Collaboration"}),
        ("Plato", {"literal": "Plato"}),
        # BibTeX's rule: the family name starts at the first word in lower case, so that CSL and RIS split a name as
        # biber reads it back from publications.bib ('Jean de La Fontaine' was family 'Fontaine', given 'Jean de La')
        ("Jean de La Fontaine", {"family": "de La Fontaine", "given": "Jean"}),
        ("Charles-Jean de La Vallée Poussin", {"family": "de La Vallée Poussin", "given": "Charles-Jean"}),
        ("danah boyd", {"family": "boyd", "given": "danah"}),
        ("山田 太郎", {"family": "山田", "given": "太郎"}),
    ],
)
def test_names_are_split_into_family_and_given(name, csl):
    assert csl_name(name) == csl


def test_a_french_name_with_a_particle_keeps_its_family_name_in_ris_and_as_bibtex_reads_it(tmp_path):
    """A .bib file's 'de La Fontaine, Jean' was RIS 'Fontaine, Jean de La' and APA 'Fontaine, J. de L.'."""
    import bibtexparser
    import rispy
    from bibtexparser.middlewares import SeparateCoAuthors, SplitNameParts
    from conftest import MINIMAL_SITE, rendered_files, write_site

    bib = "@article{f, title = {Fables}, author = {de La Fontaine, Jean and Lef{\\`e}vre, H{\\'e}l{\\`e}ne}, journal = {J}, year = 2022}\n"
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/f.bib": bib}))
    assert rispy.loads(files["publications.ris"].decode())[0]["authors"] == ["de La Fontaine, Jean", "Lefèvre, Hélène"]
    library = bibtexparser.parse_string(files["publications.bib"].decode(), append_middleware=[SeparateCoAuthors(), SplitNameParts()])
    first = library.entries[0]["author"][0]
    assert (first.first, first.von, first.last) == (["Jean"], ["de"], ["La", "Fontaine"])


MULTI_WORD_FAMILIES_BIB = (
    "@article{g, title = {Refugees}, journal = {French History}, year = 2020,\n"
    "  author = {Garc{\\'i}a M{\\'a}rquez, Jos{\\'e} Luis and Ibn Rushd, A{\\d{h}}mad and Della Porta, Giambattista and van der Linden, Pieter}}\n"
)
MULTI_WORD_FAMILIES_YAML = """\
id: y
title: Annales
type: article
source: Annales
year: 2021
authors: ["Le Roy Ladurie, Emmanuel", "Ortega y Gasset, José", "al-Ṭahṭāwī, Rifāʿa", "Mary {Van Dyck}", "García Márquez, José Luis"]
"""


def test_a_family_name_of_several_words_stays_the_family_name_in_every_export(tmp_path):
    """A comma in 'García Márquez, José Luis' says where the family name starts; it was lost when the name was
    turned round for the page, so RIS said 'Márquez, José Luis García', APA 'Márquez, J. L. G.', the Google Scholar
    tags the same, and publications.bib 'José Luis García Márquez' (family 'Márquez' for biber and Zotero)."""
    import bibtexparser
    import rispy
    from bibtexparser.middlewares import SeparateCoAuthors, SplitNameParts
    from conftest import MINIMAL_SITE, rendered_files, write_site

    site = {**MINIMAL_SITE, "content/records/g.bib": MULTI_WORD_FAMILIES_BIB, "content/records/y.yaml": MULTI_WORD_FAMILIES_YAML}
    files = rendered_files(write_site(tmp_path, site))
    bib_families = ["García Márquez", "Ibn Rushd", "Della Porta", "van der Linden"]
    yaml_families = ["Le Roy Ladurie", "Ortega y Gasset", "al-Ṭahṭāwī", "Van Dyck", "García Márquez"]
    by_title = {item["title"]: item for item in rispy.loads(files["publications.ris"].decode())}
    assert [name.split(",")[0] for name in by_title["Refugees"]["authors"]] == bib_families
    assert [name.split(",")[0] for name in by_title["Annales"]["authors"]] == yaml_families
    for slug, families in (("g", bib_families), ("y", yaml_families)):
        page = BeautifulSoup(files[f"records/{slug}/index.html"].decode(), "html.parser")
        csl = json.loads(page.find(attrs={"data-csl-item": True})["data-csl-item"])
        assert [name["family"] for name in csl["author"]] == families
        assert [tag["content"].split(",")[0] for tag in page.find_all("meta", attrs={"name": "citation_author"})] == families
    # the page shows each name given name first, without braces
    page = BeautifulSoup(files["records/y/index.html"].decode(), "html.parser")
    assert "Emmanuel Le Roy Ladurie" in page.get_text() and "Mary Van Dyck" in page.get_text()
    assert "{" not in page.find("h1").find_next("p").get_text()
    # biber and Zotero read publications.bib's names with the same family names
    library = bibtexparser.parse_string(files["publications.bib"].decode(), append_middleware=[SeparateCoAuthors(), SplitNameParts()])
    read_back = {entry["title"].strip("{}"): [" ".join(name.von + name.last) for name in entry["author"]] for entry in library.entries}
    assert read_back == {"Refugees": bib_families, "Annales": yaml_families}


# -- the styles shipped ---------------------------------------------------------------------------------------


def test_styles_are_shipped_with_their_licence():
    for file_name in STYLES.values():
        style = etree.parse(str(CSL_DIR / file_name)).getroot()
        rights = style.find("{http://purl.org/net/xbiblio/csl}info/{http://purl.org/net/xbiblio/csl}rights")
        assert "creativecommons.org/licenses/by-sa" in rights.get("license")
    notice = (Path(CSL_DIR) / "NOTICE").read_text(encoding="utf-8")
    assert "Creative Commons Attribution-ShareAlike" in notice


def test_the_notice_says_which_styles_sitegen_changed():
    """CC BY-SA asks that changes be indicated: NOTICE called every style an unmodified copy while apa.csl carried a
    change of sitegen's (marked "sitegen:" in the file). Each changed style is named under "Changes:", the others as
    unmodified."""
    notice = (Path(CSL_DIR) / "NOTICE").read_text(encoding="utf-8")
    changes = notice.partition("Changes:")[2]
    unmodified, _, changed = changes.partition("unmodified.")
    for file_name in STYLES.values():
        marked = "sitegen:" in (CSL_DIR / file_name).read_text(encoding="utf-8")
        assert (file_name in changed, file_name in unmodified) == (marked, not marked), file_name
