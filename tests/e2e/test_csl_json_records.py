"""`sitegen build` of a site whose records are a CSL-JSON file (Zotero's "Export Collection… → CSL JSON"), as a
user runs it: the pages, the lists, the exports and records.json show the records; a broken file is `path:line`
on stderr, exit status 1, and output/ as it was."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import rispy
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, run_sitegen, tree, write_site

pytestmark = pytest.mark.slow  # each test runs sitegen builds as processes

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sources" / "csl-json" / "zotero.json"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = write_site(tmp_path / "site", MINIMAL_SITE)
    (site / "content" / "records").mkdir()
    shutil.copy(FIXTURE, site / "content" / "records" / "zotero.json")
    return site


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_a_site_of_a_csl_json_file_builds_with_every_record_everywhere(site: Path) -> None:
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("warning") == 1 and "tex.howpublished: online" in result.stderr  # what was left out is said
    output = site / "output"
    records = {record["id"]: record for record in json.loads((output / "records.json").read_text(encoding="utf-8"))["records"]}
    assert sorted(records) == ["muller2021tail", "muller2024kestrel", "muller2026gossip", "okafor2023straggler"]
    assert all(record["sources"] == ["csl-json"] for record in records.values())
    listed = [item.get_text(" ", strip=True) for item in soup(output / "index.html").select("main li")]
    for record in records.values():
        page = soup(output / "records" / record["id"] / "index.html")
        assert page.select_one("h1").get_text(" ", strip=True).replace(" ", "") == record["title"].replace(" ", "")
        assert any(record["title"].split(":")[0] in item for item in listed), record["id"]
    assert (records["muller2021tail"]["type"], records["muller2021tail"]["source"]) == ("thesis", "University of Nordhaven")  # "PhD thesis" apart
    preprint = records["muller2024kestrel"]
    assert (preprint["type"], preprint["arxiv"], preprint["categories"]) == ("preprint", "2402.01234", ["cs.DC", "load balancing"])
    assert (output / "subjects" / "cs.DC" / "index.html").is_file()
    article = records["okafor2023straggler"]
    assert (article["details"]["volume"], article["details"]["pages"], article["ids"]["pmid"]) == ("142", "104381–104390", "37001234")
    bib = (output / "publications.bib").read_text(encoding="utf-8")
    assert "doi = {10.1016/j.jbi.2023.104381}" in bib and "eprint = {2402.01234}" in bib
    exported = {entry["title"]: entry for entry in rispy.loads((output / "publications.ris").read_bytes().decode("utf-8"))}
    assert exported["Gossip protocols at scale"]["type_of_reference"] == "CPAPER"


def test_a_broken_csl_json_file_fails_the_build_naming_path_and_line_and_leaves_output(site: Path) -> None:
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    before = tree(site / "output")
    library = site / "content" / "records" / "zotero.json"
    library.write_text(
        library.read_text(encoding="utf-8").replace('"title": "Tail latency in the wild",', '"title": "Tail latency in the wild"'), encoding="utf-8"
    )
    (site / "content" / "records" / "package.json").write_text('{"name": "my-site", "version": "1.0.0"}\n', encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert [line.split(": ", 1)[0] for line in result.stderr.splitlines()] == ["content/records/zotero.json:46:3", "content/records/package.json:1"]
    assert "invalid JSON: Expecting ',' delimiter" in result.stderr and "package.json:1: warning: not read: not a CSL-JSON file" in result.stderr
    assert tree(site / "output") == before
    check = run_sitegen("check", "--site", str(site))
    assert check.returncode == 1 and check.stderr.splitlines() == result.stderr.splitlines()


def test_zotero_rich_text_in_csl_json_and_ris_titles_shows_as_italics_and_is_bibtex_in_publications_bib(tmp_path: Path) -> None:
    """A title Zotero exports with `<i>` and `<sup>` (CSL-JSON and RIS alike): the record page, the list and
    publications.bib say what the tags mean, and a `<script>` beside them is shown as text."""
    site = write_site(tmp_path / "site", MINIMAL_SITE)
    item = {
        "id": "smith2024growth",
        "type": "article-journal",
        "title": "Growth of <i>E. coli</i> at 10<sup>5</sup> cells <script>alert(1)</script>",
        "author": [{"family": "Smith", "given": "Ann"}],
        "issued": {"date-parts": [[2024]]},
    }
    (site / "content" / "records").mkdir()
    (site / "content" / "records" / "zotero.json").write_text(json.dumps([item]), encoding="utf-8")
    ris = "TY  - JOUR\nTI  - Decay of <i>B. subtilis</i> at 10<sup>3</sup> cells\nAU  - Jones, Bob\nPY  - 2023\nER  - \n"
    (site / "content" / "records" / "zotero.ris").write_text(ris, encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    output = site / "output"
    for record_id, italics, raised in (("smith2024growth", "E. coli", "5"), ("jones2023decay", "B. subtilis", "3")):
        page = soup(output / "records" / record_id / "index.html")
        heading = page.select_one("h1")
        assert (heading.em.get_text(), heading.sup.get_text()) == (italics, raised)
        assert "<i>" not in heading.get_text() and page.find("script", string="alert(1)") is None
    assert "<script>alert(1)</script>" in soup(output / "records" / "smith2024growth" / "index.html").select_one("h1").get_text()
    listed = [item.em.get_text() for item in soup(output / "index.html").select("main li") if item.em is not None]
    assert sorted(listed) == ["B. subtilis", "E. coli"]
    bib = (output / "publications.bib").read_text(encoding="utf-8")
    assert r"title = {{Growth of \textit{E. coli} at 10\textsuperscript{5} cells <script>alert(1)</script>}}" in bib
    assert r"title = {{Decay of \textit{B. subtilis} at 10\textsuperscript{3} cells}}" in bib
    exported = [entry["title"] for entry in rispy.loads((output / "publications.ris").read_bytes().decode("utf-8"))]
    assert "Decay of B. subtilis at 10\u00b3 cells" in exported
