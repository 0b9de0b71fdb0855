"""`sitegen build` of a site whose records are RIS files (EndNote's, Zotero's exports, PubMed's records in a
reference manager), as a user runs it: the pages, the lists, the exports and records.json show the records; a
broken file is `path:line` on stderr, exit status 1, and output/ as it was."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import rispy
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, run_sitegen, tree, write_site

pytestmark = pytest.mark.slow  # each test runs sitegen builds as processes

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sources" / "ris"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = write_site(tmp_path / "site", MINIMAL_SITE)
    (site / "content" / "records").mkdir()
    for path in FIXTURES.glob("*.ris"):
        shutil.copy(path, site / "content" / "records" / path.name)
    return site


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_a_site_of_ris_files_builds_with_every_record_everywhere(site: Path) -> None:
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    output = site / "output"
    records = {record["id"]: record for record in json.loads((output / "records.json").read_text(encoding="utf-8"))["records"]}
    assert len(records) == 9 and all(record["sources"] == ["ris"] for record in records.values())
    listed = [item.get_text(" ", strip=True) for item in soup(output / "index.html").select("main li")]
    for record in records.values():
        page = soup(output / "records" / record["id"] / "index.html")
        assert page.select_one("h1").get_text(" ", strip=True).replace(" ", "") == record["title"].replace(" ", "")
        assert any(record["title"].split(":")[0] in item for item in listed), record["id"]
    thesis = records["muller2021tail"]
    assert (thesis["type"], thesis["source"]) == ("thesis", "University of Nordhaven")  # the degree is shown apart: "PhD thesis"
    preprint = records["muller2024kestrel"]
    assert (preprint["type"], preprint["arxiv"], "cs.DC" in preprint["categories"]) == ("preprint", "2402.01234", True)
    assert (output / "subjects" / "cs.DC" / "index.html").is_file()
    bib = (output / "publications.bib").read_text(encoding="utf-8")
    assert "doi = {10.1186/s12911-024-02488-1}" in bib and "eprint = {2402.01234}" in bib
    exported = {entry["title"]: entry for entry in rispy.loads((output / "publications.ris").read_bytes().decode("utf-8"))}
    assert exported["Nightly ETL failures in intensive care registries"]["doi"] == "10.1186/s12911-024-02488-1"
    assert exported["Load balancing for hospital data centres"]["type_of_reference"] == "CHAP"


def test_a_broken_ris_file_fails_the_build_naming_path_and_line_and_leaves_output(site: Path) -> None:
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    before = tree(site / "output")
    library = site / "content" / "records" / "zotero.ris"
    text = library.read_text(encoding="utf-8")
    library.write_text(
        text.replace("TI  - Gossip protocols at scale\n", "").replace("DA  - 2025/01/20/\nPY  - 2025\n", "PY  - forthcoming\n"), encoding="utf-8"
    )
    (site / "content" / "records" / "cut.ris").write_text("TY  - JOUR\nTI  - Cut short\nPY  - 2020\n", encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "content/records/cut.ris:1: this entry has no 'ER  - ' line: the file ends before it does (cut short?); it is not read",
        "content/records/zotero.ris:19: this entry has no title (TI  - ...): it is not read",
        "content/records/zotero.ris:39: 'forthcoming' is no year: write the year the work appeared ('PY  - 2024'); the entry is not read",
    ]
    assert tree(site / "output") == before
    check = run_sitegen("check", "--site", str(site))
    assert check.returncode == 1 and check.stderr.splitlines() == result.stderr.splitlines()
