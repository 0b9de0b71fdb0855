"""CITATION.cff files (GitHub's "Cite this repository") under content/records/ are records: the program, and the
paper its `preferred-citation` names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, write_site

from sitegen.build import check_site
from sitegen.errors import ContentError

CITATION_CFF = """\
cff-version: 1.2.0
message: "If you use this software, please cite it as below."
title: FluxGrid
type: software
authors:
  - family-names: Kowalczyk
    given-names: Marta
    orcid: "https://orcid.org/0000-0002-1825-0097"
  - family-names: Berg
    name-particle: van den
    given-names: Jonas
  - name: "The FluxGrid Developers"
version: 2.3.1
doi: 10.5281/zenodo.10812345
date-released: 2024-03-14
repository-code: "https://github.com/fluxgrid/fluxgrid"
url: "https://fluxgrid.readthedocs.io"
license: BSD-3-Clause
keywords: [hydrology, adaptive mesh refinement]
abstract: Adaptive mesh refinement for shallow-water models.
preferred-citation:
  type: article
  authors:
    - family-names: Kowalczyk
      given-names: Marta
  title: "FluxGrid: A Python package for adaptive shallow-water simulation"
  journal: Journal of Open Source Software
  year: 2024
  volume: 9
  issue: 95
  start: 6123
  doi: 10.21105/joss.06123
"""
JOSS_BIB = """@article{kowalczyk2024joss, author = {Kowalczyk, Marta}, title = {{FluxGrid}: A {Python} package for adaptive shallow-water
  simulation}, journal = {Journal of Open Source Software}, year = {2024}, doi = {10.21105/joss.06123}}
"""


def checked(tmp_path: Path, files: dict[str, str]):
    result = check_site(write_site(tmp_path, {**MINIMAL_SITE, **files}))
    records = {record["id"]: record for record in json.loads(result.files["records.json"])["records"]}
    return result, records


def page(result, record_id: str) -> BeautifulSoup:
    return BeautifulSoup(result.files[f"records/{re.sub(r'[^A-Za-z0-9._-]', '-', record_id)}/index.html"], "html.parser")


def test_a_repositorys_citation_cff_is_a_record_of_the_program_and_its_paper(tmp_path):
    result, records = checked(tmp_path, {"content/records/fluxgrid/CITATION.cff": CITATION_CFF, "content/records/papers.bib": JOSS_BIB})
    assert [str(w) for w in result.warnings if not w.note] == []
    program = records["fluxgrid"]
    assert (program["title"], program["type"], program["date"], program["doi"]) == ("FluxGrid", "software", "2024-03-14", "10.5281/zenodo.10812345")
    assert program["authors"] == ["Marta Kowalczyk", "Jonas van den Berg", "The FluxGrid Developers"]
    assert program["links"] == {"code": "https://github.com/fluxgrid/fluxgrid", "website": "https://fluxgrid.readthedocs.io"}
    assert (program["details"]["version"], program["details"]["license"]) == ("2.3.1", "BSD-3-Clause")
    assert program["categories"] == ["hydrology", "adaptive mesh refinement"]
    shown = page(result, "fluxgrid")
    assert shown.select_one("h1").get_text() == "FluxGrid" and "Version" in shown.select_one("dl.details").get_text()
    # the preferred citation is the JOSS paper, one work with the .bib entry of its DOI
    paper = records["kowalczyk2024joss"]
    assert (paper["type"], paper["source"], paper["details"]["volume"], paper["details"]["pages"]) == (
        "article",
        "Journal of Open Source Software",
        "9",
        "6123",
    )
    assert "fluxgrid-paper" not in records and len(records) == 2


def test_a_citation_cff_without_a_release_date_says_what_to_write(tmp_path):
    with pytest.raises(ContentError) as raised:
        check_site(write_site(tmp_path, {**MINIMAL_SITE, "content/records/tool.cff": "cff-version: 1.2.0\ntitle: Tool\nauthors: [{name: Lab}]\n"}))
    assert [str(p) for p in raised.value.problems] == [
        "content/records/tool.cff:1: no date: write `date-released: 2024-03-14` (the release's day), which gives the record its year"
    ]
