"""PubMed's and PubMed Central's ids (PMID, PMCID): read from YAML records, .bib files (PubMed's, EndNote's and
biblatex's ways) and fetched records in one form, linked from the record, and in every export that has a place."""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, rendered_files, validated_record, write_site

from sitegen.errors import Problem
from sitegen.validate import validate_record

YAML_RECORD = """\
id: okafor2024
title: Single-cell chromatin accessibility maps enhancer-gene regulation
authors: [Chen Li, Ada Lovelace]
year: 2024
source: Nature Genetics
type: article
doi: 10.1038/s41588-024-01234-5
pmid: 38486001
pmcid: PMC10987654
"""

PUBMED_BIB = """\
@article{okafor2019tbx5,
  author = {Okafor, Amara N and Lovelace, Ada},
  title = {{TBX5} haploinsufficiency alters atrial chromatin accessibility},
  journal = {J Mol Cell Cardiol},
  year = {2019},
  pmcid = {PMC6543210},
  eprint = {31002002},
  eprinttype = {pubmed},
}

@article{gtex2020,
  author = {{GTEx Consortium} and Lovelace, Ada},
  title = {The {GTEx} Consortium atlas of genetic regulatory effects},
  journal = {Science},
  year = {2020},
  eprint = {PMC7737656},
  eprinttype = {pmcid},
}
"""


def test_a_yaml_records_pmid_and_pmcid_are_its_ids_without_a_warning():
    problems: list[Problem] = []
    record = validate_record({"id": "x", "title": "T", "year": 2024, "pmid": 38486001, "pmcid": "PMC10987654"}, "content/records/x.yaml", problems)
    assert problems == []
    assert record.ids == {"pmid": "38486001", "pmcid": "PMC10987654"} and "pmid" not in record.extra


@pytest.mark.parametrize(
    "ids, expected",
    [
        ({"pmcid": "10300123"}, {"pmcid": "PMC10300123"}),  # OpenAlex's digits alone
        ({"pmc": "PMC7410828"}, {"pmcid": "PMC7410828"}),  # ORCID's name
        ({"pmid": "https://pubmed.ncbi.nlm.nih.gov/37388912"}, {"pmid": "37388912"}),
    ],
)
def test_fetched_pubmed_ids_are_read_in_one_form(ids, expected):
    assert validated_record(f"id: x\ntitle: T\nyear: 2024\nids: {json.dumps(ids)}\n", "content/records/x.yaml").ids == expected


def test_what_is_no_pmid_is_a_warning_at_its_line_and_left_out():
    problems: list[Problem] = []
    record = validate_record({"id": "x", "title": "T", "year": 2024, "pmid": "PMC123"}, "content/records/x.yaml", problems)
    assert record is not None and "pmid" not in record.ids
    assert [p.warning for p in problems] == [True] and "field 'pmid': 'PMC123' is not a PubMed id (like 38486001)" in problems[0].message


def test_pubmed_ids_are_linked_tagged_and_exported(tmp_path):
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/paper.yaml": YAML_RECORD, "content/records/pubmed.bib": PUBMED_BIB})
    files = rendered_files(site)
    page = BeautifulSoup(files["records/okafor2024/index.html"], "html.parser")
    links = {a.get_text(" ", strip=True).split(" for ")[0]: a["href"] for a in page.select("ul.links a")}
    assert links["PubMed"] == "https://pubmed.ncbi.nlm.nih.gov/38486001/"
    assert links["PMC"] == "https://pmc.ncbi.nlm.nih.gov/articles/PMC10987654/"
    assert page.select_one('meta[name="citation_pmid"]')["content"] == "38486001"
    csl = json.loads(page.select_one("[data-csl-item]")["data-csl-item"])
    assert (csl["PMID"], csl["PMCID"]) == ("38486001", "PMC10987654")
    ld = json.loads(page.select_one('script[type="application/ld+json"]').get_text())
    assert {"@type": "PropertyValue", "propertyID": "PMCID", "value": "PMC10987654"} in ld["identifier"]
    records = {r["id"]: r for r in json.loads(files["records.json"])["records"]}
    assert records["okafor2019tbx5"]["ids"] == {"pmcid": "PMC6543210", "pmid": "31002002"}
    assert records["gtex2020"]["ids"] == {"pmcid": "PMC7737656"}
    bib = files["publications.bib"].decode()
    assert "pmid = {31002002},\n  pmcid = {PMC6543210}" in bib


@pytest.mark.parametrize(
    "trial, url",
    [
        ("NCT04567890", "https://clinicaltrials.gov/study/NCT04567890"),
        ("ISRCTN12345678", "https://www.isrctn.com/ISRCTN12345678"),
        ("2020-001234-56", "https://www.clinicaltrialsregister.eu/ctr-search/search?query=2020-001234-56"),
        ("https://www.anzctr.org.au/ACTRN12620000123456.aspx", "https://www.anzctr.org.au/ACTRN12620000123456.aspx"),
    ],
)
def test_a_clinical_trials_registration_is_linked(trial, url):
    problems: list[Problem] = []
    record = validate_record({"id": "x", "title": "T", "year": 2025, "trial": trial}, "content/records/x.yaml", problems)
    assert problems == [] and record.links == {"trial": url} and "trial" not in record.extra


def test_trial_registrations_show_on_the_record_page_and_a_wrong_one_is_a_warning(tmp_path):
    record = YAML_RECORD + "trial: [NCT04567890, ISRCTN12345678]\n"
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/paper.yaml": record}))
    page = BeautifulSoup(files["records/okafor2024/index.html"], "html.parser")
    trials = [(a.get_text(" ", strip=True).split(" for ")[0], a["href"]) for a in page.select("ul.links li[class^=link-trial] a")]
    assert trials == [
        ("Trial registration", "https://clinicaltrials.gov/study/NCT04567890"),
        ("Trial registration 2", "https://www.isrctn.com/ISRCTN12345678"),
    ]
    assert json.loads(files["records.json"])["records"][0]["ids"]["trial"] == "NCT04567890, ISRCTN12345678"
    problems: list[Problem] = []
    validate_record({"id": "x", "title": "T", "year": 2025, "trial": "NCT123"}, "content/records/x.yaml", problems)
    assert problems[0].warning and "'NCT123' is no trial registration sitegen knows" in problems[0].message
