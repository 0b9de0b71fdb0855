"""Citation counts (SPEC §6): on each list item and record page, the total and the h-index on the
profile, and the records most cited first on a page of their own."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, run_sitegen, write_site

pytestmark = pytest.mark.slow  # each test builds a site

COUNTS = {"a": 10, "b": 3, "c": 7, "d": None, "e": 1}  # h-index 3: three records with 3 or more


def records() -> dict[str, str]:
    files = {}
    for number, (record_id, count) in enumerate(COUNTS.items()):
        text = f"id: {record_id}\ntitle: Paper {record_id}\nyear: {2020 + number}\nauthors: [Ada Lovelace]\n"
        files[f"content/records/{record_id}.yaml"] = text + (f"citations: {count}\n" if count is not None else "")
    return files


def page(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "lxml")


def test_counts_total_h_index_and_most_cited_order(tmp_path: Path) -> None:
    site = write_site(tmp_path, {**MINIMAL_SITE, **records()})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    output = site / "output"
    profile = page(output / "index.html")
    metrics = profile.select_one("p.metrics").get_text(" ", strip=True)
    assert "21 citations" in metrics and "h-index 3" in metrics
    assert profile.select_one("p.metrics a")["href"] == "/cited/"
    shown = {item["id"]: item.select_one(".citations") for item in profile.select("li.record")}
    assert shown["r-a"].get_text() == "10 citations" and shown["r-e"].get_text() == "1 citation"
    assert shown["r-d"] is None, "no count, no figure"
    assert page(output / "records" / "c" / "index.html").select_one(".citations").get_text() == "7 citations"
    cited = page(output / "cited" / "index.html")
    assert [item["id"] for item in cited.select("li.record")] == ["r-a", "r-c", "r-b", "r-e"]
    sitemap = (output / "sitemap.xml").read_text(encoding="utf-8")
    assert "/cited/" in sitemap


def test_a_site_without_counts_shows_no_figures(tmp_path: Path) -> None:
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.yaml": "id: a\ntitle: A\nyear: 2020\n"})
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    assert page(site / "output" / "index.html").select_one("p.metrics") is None
    assert not (site / "output" / "cited").exists()


def test_large_counts_are_grouped_as_the_sites_language_writes_numbers(tmp_path: Path) -> None:
    files = {
        "content/records/a.yaml": "id: a\ntitle: A\nyear: 2020\ncitations: 12345\n",
        "content/records/b.yaml": "id: b\ntitle: B\nyear: 2021\ncitations: 2\n",
    }
    site = write_site(tmp_path, {**MINIMAL_SITE, **files})
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    output = site / "output"
    profile = page(output / "index.html")
    assert "12,347 citations" in profile.select_one("p.metrics").get_text(" ", strip=True)
    assert profile.select_one("#r-a .citations").get_text() == "12,345 citations"
    assert page(output / "records" / "a" / "index.html").select_one(".citations").get_text() == "12,345 citations"
    cited = page(output / "cited" / "index.html")
    assert "12,347 citations" in cited.select_one("p.count").get_text(" ", strip=True)
    assert "12,347 citations" in cited.select_one('meta[name="description"]')["content"]
