"""A biblatex user's publication list, kept for a CV typeset with biber (tests/fixtures/reference-managers/
biblatex-cv.bib), built as it is with `sitegen build`: every work listed as biblatex prints it, the CV's
selected works featured, nothing said about what sitegen reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import run_sitegen, write_site

CV_BIB = Path(__file__).parent.parent / "fixtures" / "reference-managers" / "biblatex-cv.bib"


@pytest.mark.slow
def test_a_biblatex_cv_file_builds_a_site_that_lists_every_work_as_biblatex_prints_it(tmp_path: Path):
    site = write_site(
        tmp_path,
        {
            "content/site.yaml": "title: Anne de Dupont\nbase_url: https://example.org/\n",
            "content/profile.yaml": "name: Anne de Dupont\n",
            "content/records/publications.bib": CV_BIB.read_text(encoding="utf-8"),
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
    records = {record["id"]: record for record in json.loads((site / "output" / "records.json").read_text())["records"]}
    assert set(records) == {"dupont2023sparse", "dupont2022icml", "dupont2025forth", "dupont2021thesis"}  # no @xdata, no @proceedings
    sparse, icml = records["dupont2023sparse"], records["dupont2022icml"]
    assert (sparse["title"], sparse["source"], sparse["venue_short"], sparse["featured"]) == (
        "Sparse Attention for “Long” Sequences: A Study",
        "Journal of Machine Learning Research",
        "JMLR",
        True,
    )
    assert sparse["authors"] == ["Anne de Dupont", "Lena Müller", "Wei Zhang"]
    assert (icml["year"], icml["date"], icml["source"]) == (2022, "2022-07-17", "Proceedings of the 39th International Conference on Machine Learning")

    profile = BeautifulSoup((site / "output" / "index.html").read_text(), "html.parser")
    cards = profile.find(class_="featured-cards")
    assert [card.find(class_="card-title").get_text(" ", strip=True) for card in cards.find_all("li", recursive=False)] == [
        "Sparse Attention for “Long” Sequences: A Study"
    ]
    page = BeautifulSoup((site / "output" / "records" / "dupont2023sparse" / "index.html").read_text(), "html.parser")
    byline = page.find(class_="authors")
    assert byline.find("strong", class_="owner").get_text() == "Anne de Dupont"
    assert [mark.get_text() for mark in byline.find_all("sup", class_="author-mark")] == ["*", "*"]
    assert page.find(class_="author-notes").get_text(" ", strip=True) == "* Equal contribution"
    assert "Extended version of a workshop paper" in page.find("dl", class_="details").get_text()
    assert not (site / "output" / "subjects" / "selected").exists()
    icml_page = BeautifulSoup((site / "output" / "records" / "dupont2022icml" / "index.html").read_text(), "html.parser")
    details = {dt.get_text(): dt.find_next_sibling("dd").get_text() for dt in icml_page.select("dl.details dt")}
    assert (details["Event"], details["Publisher"]) == ("ICML 2022, Baltimore", "PMLR")  # from the proceedings it names
    exported = (site / "output" / "publications.bib").read_text()
    assert "family=" not in exported and "\\mkbibquote" not in exported
