"""PubMed's MEDLINE files (.nbib) under content/records/ read as records at build time (sitegen.sources.medline)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from conftest import read_record_file

from sitegen.sources.medline import abstract_text, page_range

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sources" / "medline"
PATH = "content/records/pubmed.nbib"


def read(text: str, path: str = PATH):
    """The records of a .nbib file as validation makes them, and every message (reader's and validation's)."""
    return read_record_file(text, path, "medline")


def fixture_records():
    records, problems = read((FIXTURES / "pubmed.nbib").read_text(encoding="utf-8"))
    assert problems == []
    return {record.ids["pmid"]: record for record in records}


def test_an_article_of_pubmeds_export_keeps_what_the_site_shows():
    article = fixture_records()["36912345"]
    assert article.title == (
        "Longitudinal single-cell profiling of tumour-infiltrating lymphocytes reveals durable clonal expansion after "
        "neoadjuvant immunotherapy in early-stage non-small-cell lung cancer"
    )  # the lines continued, NLM's closing period left out
    assert article.authors == ("Müller, Zoë", "Okafor, Chinedu A.", "{TRACERx Lung Consortium}", "Lindqvist, Anna")
    assert article.extra["author_ids"] == {"Müller, Zoë": "0000-0002-1825-0097"}
    assert (article.year, article.extra["month"], article.date) == (2023, 3, None)  # 'DP  - 2023 Mar-Apr', DEP of January
    assert (article.source, article.venue_short) == ("Nature medicine", "Nat Med")
    assert article.doi == "10.5555/nm.2023.0142"
    assert article.ids == {"pmid": "36912345", "pmcid": "PMC9912345"}
    assert (article.extra["volume"], article.extra["number"], article.extra["pages"]) == ("29", "3", "e1234")
    assert article.categories == ("single-cell sequencing", "immunotherapy")  # OT; MeSH headings (MH) are not read
    assert article.type == "article" and article.language == "en"
    assert article.links["correction"] == "https://doi.org/10.5555/nm.2023.0199"  # EIN: its erratum


def test_a_structured_abstract_keeps_its_parts_as_paragraphs():
    abstract = fixture_records()["36912345"].abstract
    paragraphs = abstract.split("\n\n")
    assert [paragraph.split(":")[0] for paragraph in paragraphs] == ["BACKGROUND", "METHODS", "RESULTS", "CONCLUSIONS"]
    assert paragraphs[1].endswith("(cost per sample $1,200).")
    assert "83% of responders (95% CI 70-96)" in paragraphs[2]


def test_notices_name_the_work_they_concern():
    records = fixture_records()
    erratum, notice, retracted = records["37012345"], records["33654321"], records["30111111"]
    assert (erratum.extra["notice"], erratum.extra["notice_for"]) == ("correction", "pmid:36912345")  # EFR names it by PMID alone
    assert (notice.extra["notice"], notice.extra["notice_for"]) == ("retraction", "10.5555/onc.2018.777")  # ROF by its DOI
    assert notice.authors == ("{Oncotarget Editorial Office}",)
    assert retracted.extra["retracted"] is True
    assert retracted.links["retraction"] == "https://doi.org/10.5555/onc.2021.900"


def test_an_article_without_doi_in_another_language():
    article = fixture_records()["31876543"]
    assert article.title == "Perioperative management of anticoagulation in thoracic surgery"  # NLM's brackets of a translation
    assert article.doi is None
    assert (article.year, article.extra["month"]) == (2019, 12)
    assert article.extra["pages"] == "123–129"  # MEDLINE's '123-9'
    assert article.language == ""  # 'LA  - ger', but the title and abstract shown are NLM's English ones


def test_the_language_of_a_citation_in_its_own_words_is_its_la():
    records, _ = read("PMID- 9\nTI  - Prise en charge de la douleur.\nDP  - 2020\nLA  - fre\n")
    assert records[0].language == "fr"


def test_a_preprint_with_short_author_names_only():
    preprint = fixture_records()["38000001"]
    assert preprint.type == "preprint"
    assert preprint.authors == ("Müller, Z.", "Ødegård, T.")
    assert preprint.source == "medRxiv"  # NLM's 'medRxiv : the preprint server for health sciences'
    assert preprint.date == datetime.date(2023, 11, 20)


def test_ids_are_made_as_citation_keys_and_differ():
    records, _ = read((FIXTURES / "pubmed.nbib").read_text(encoding="utf-8"))
    assert [record.id for record in records] == [
        "muller2023longitudinal",
        "muller2023publisher",
        "schafer2019perioperative",
        "muller2018circulating",
        "office2021retraction",
        "muller2023wastewater",
    ]
    twice, problems = read("PMID- 1\nTI  - Same words\nDP  - 2020\nAU  - Lee A\n\nPMID- 2\nTI  - Same words again\nDP  - 2020\nAU  - Lee A\n")
    assert [record.id for record in twice] == ["lee2020same", "lee2020sameb"] and problems == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("TY  - JOUR\nTI  - A\nER  - \n", f"{PATH}:1: this is a RIS file, not MEDLINE: name it .ris"),
        ("@article{a, title={A}}\n", f"{PATH}:1: this is a BibTeX file, not MEDLINE: name it .bib"),
        ("\n<?xml version='1.0'?>\n<PubmedArticleSet/>\n", f"{PATH}:2: this is XML (PubMed's XML?), not MEDLINE"),
        ("TI  - A title\nDP  - 2020\n", f"{PATH}:1: no MEDLINE citation: each starts with a 'PMID- ' line"),
        ("Dear colleague,\nthe list follows.\n", f"{PATH}:1: not a MEDLINE file"),
        ("", f"{PATH}:1: warning: empty file: no MEDLINE citations"),
    ],
)
def test_a_file_that_is_not_medline_says_what_it_is(text, message):
    records, problems = read(text)
    assert records == [] and len(problems) == 1
    assert problems[0].startswith(message)


def test_a_citation_without_title_or_year_is_an_error_at_its_line():
    text = "PMID- 1\nDP  - 2020\nAU  - Lee A\n\nPMID- 2\nTI  - No year here\n\nPMID- 3\nTI  - Kept\nDP  - 2021\n"
    records, problems = read(text)
    assert [record.title for record in records] == ["Kept"]
    assert problems == [
        f"{PATH}:1: this citation has no title (TI  - ...): it is not read",
        f"{PATH}:5: this citation has no year (DP  - 2023 Mar 15): it is not read",
    ]


def test_suspicious_lines_are_warnings_at_their_line():
    text = (
        "PMID- 1\nTI  - A title\nwritten on without indent\nDP  - 2020\nAUID- ORCID: 0000-0002-1825-0096\nFAU - Lee, Ann\n"
        "AUID- ORCID: 0000-0002-1825-0098\n\nPMID- 1\nTI  - A title\nDP  - 2020\n"
    )
    records, problems = read(text)
    assert [record.title for record in records] == ["A title written on without indent"]
    assert problems == [
        f"{PATH}:3: warning: 'written on without indent' is no MEDLINE tag line (a tag, spaces to the fifth column, '- ', as 'TI  - '): "
        "read as text of the line above",
        f"{PATH}:7: warning: 'AUID': ' 0000-0002-1825-0098' is not a valid ORCID iD: its last character (the check digit) should be 7; is a digit mistyped?; left out",
        f"{PATH}:9: warning: PMID 1 is given twice, also on line 1: read once; delete this copy",
    ]


def test_unknown_and_unread_tags_are_left_out_quietly():
    records, problems = read("PMID- 5\nTI  - T\nDP  - 2020\nXYZ - whatever\nMH  - Humans\nGR  - R01/NIH\nSB  - IM\n")
    assert problems == [] and records[0].title == "T"


@pytest.mark.parametrize(("written", "pages"), [("1123-31", "1123–1131"), ("e1234", "e1234"), ("S1-S12", "S1–S12"), ("45-52", "45–52"), ("iii", "iii")])
def test_medlines_short_page_ranges_are_written_out(written, pages):
    assert page_range(written) == pages


def test_an_abstract_without_labels_is_one_paragraph_and_markdown_stays_text():
    assert abstract_text("We show that *this* works. Not a LABEL: here") == "We show that {*}this{*} works. Not a LABEL: here"
