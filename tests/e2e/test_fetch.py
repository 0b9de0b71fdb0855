"""`sitegen fetch` end to end: the real command against the real fake arXiv server.

Every test runs `python -m sitegen fetch` in a fresh site folder with
SITEGEN_ARXIV_API pointing at the fake arXiv server (tests/fixtures/fake_arxiv.py)
on 127.0.0.1, or the SITEGEN_*_API variables at the fake ORCID/Crossref/OpenAlex/dblp
server (tests/fixtures/fake_scholarly.py),
and checks what a user sees: files written, their YAML, messages, exit
status, the server's request log, and the built site's HTML.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from arxiv_server import FIXTURES, FakeArxiv, arxiv_server  # noqa: F401  (the fixture)
from bs4 import BeautifulSoup
from conftest import answer_at_terminal, run_sitegen_on_terminal
from fault_server import MAINTENANCE_PAGE, always, dropped_mid_answer, empty_answers, fault_server, http_answer  # noqa: F401  (the fixture)
from scholarly_server import FIXTURES as SCHOLARLY_FIXTURES
from scholarly_server import FakeScholarly, scholarly_server  # noqa: F401  (the fixture)

REPO = Path(__file__).resolve().parents[2]
ARXIV_DIR = Path("content/records/arxiv")
ALL_IDS = {
    "2606.11867",
    "2602.22575",
    "2601.12784",
    "2509.01193",
    "2504.20490",
    "2412.07894",
    "2410.13333",
    "2409.02791",
    "2407.14828",
    "2308.08649",
    "2207.04090",
    "2201.11934",
    "2107.02388",
    "2106.09144",
    "2106.08301",
    "2009.01867",
    "2002.11474",
    "2001.07710",
}
HEP_PH = {"2409.02791", "2407.14828"}
SUBJECTS = {"cs.AR", "cs.CR", "cs.CV", "cs.DC", "cs.LG", "cs.NE", "cs.SD", "eess.IV", "hep-ph"}
SITE_YAML = "title: Sheng Lin\nbase_url: https://example.org/lin/\n"


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


def make_site(root: Path, profile: str = "name: Sheng Lin\n", records: dict[str, str] | None = None) -> Path:
    (root / "content").mkdir(parents=True)
    (root / "content" / "site.yaml").write_text(SITE_YAML, encoding="utf-8")
    (root / "content" / "profile.yaml").write_text(profile, encoding="utf-8")
    for name, text in (records or {}).items():
        path = root / "content" / "records" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def fetch(site: Path, server: FakeArxiv | None, *args: str, delay: str = "0", env: dict | None = None, timeout: float = 90) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **(env or {})}
    if server is not None and "SITEGEN_ARXIV_API" not in (env or {}):
        full_env["SITEGEN_ARXIV_API"] = server.api_url
    command = [sys.executable, "-m", "sitegen", "fetch", "--site", str(site), "--delay", delay, *args]
    return subprocess.run(command, cwd=REPO, env=full_env, capture_output=True, text=True, timeout=timeout)


def build(site: Path) -> BeautifulSoup:
    result = subprocess.run([sys.executable, "-m", "sitegen", "build", "--site", str(site)], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return page(site, "index.html")


def page(site: Path, relative: str) -> BeautifulSoup:
    return BeautifulSoup((site / "output" / relative).read_text(encoding="utf-8"), "lxml")


def fetched_ids(site: Path) -> set[str]:
    folder = site / ARXIV_DIR
    return {yaml.safe_load(p.read_text())["id"] for p in folder.glob("*.yaml")} if folder.is_dir() else set()


def read_record(site: Path, record_id: str) -> dict:
    return yaml.safe_load((site / ARXIV_DIR / f"{record_id.replace('/', '-')}.yaml").read_text(encoding="utf-8"))


def snapshot(site: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under content/ with its bytes and modification time."""
    return {p.relative_to(site).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted((site / "content").rglob("*")) if p.is_file()}


def shown_record_count(index: BeautifulSoup) -> int:
    return int(index.select_one("#publications .count")["data-count"])


def record_pages(site: Path) -> set[str]:
    return {p.parent.name for p in (site / "output" / "records").glob("*/index.html")}


def subject_pages(site: Path) -> set[str]:
    return {p.parent.name for p in (site / "output" / "subjects").glob("*/index.html")}


def fixtures_copy(tmp_path: Path, edits: dict[str, list[tuple[str, str]]]) -> Path:
    """A copy of the arXiv fixtures with text replaced in some by-id/<id>.xml entries."""
    copy = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, copy)
    for record_id, replacements in edits.items():
        path = copy / "by-id" / f"{record_id}.xml"
        text = path.read_text(encoding="utf-8")
        for old, new in replacements:
            assert old in text, (record_id, old)
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    return copy


def gaps(log: list[dict]) -> list[float]:
    """Seconds between the end of each answer and the arrival of the next request."""
    return [later["t"] - earlier["t_end"] for earlier, later in zip(log, log[1:])]


# --------------------------------------------------------------------------
# 1. fetch by name, id, author id; the built site shows every record
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_fetch_by_author_stores_every_record_of_a_paged_result_and_build_shows_them(tmp_path, arxiv_server):
    server = arxiv_server("--page-cap", "10")  # at most 10 per answer: the client must page
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author", "Sheng Lin")

    assert result.returncode == 0, result.stderr
    assert fetched_ids(site) == ALL_IDS
    assert sorted(p.name for p in (site / ARXIV_DIR).iterdir()) == sorted(f"{i}.yaml" for i in ALL_IDS)
    starts = [int(r["params"]["start"]) for r in server.requests()]
    assert starts == [0, 10]
    assert all(r["params"]["search_query"] == 'au:"Sheng Lin"' for r in server.requests())
    assert "18 new" in result.stdout

    index = build(site)
    assert shown_record_count(index) == 18
    assert len(index.select("#publications li.record")) == 18
    assert record_pages(site) == ALL_IDS
    assert subject_pages(site) == SUBJECTS


@pytest.mark.slow
def test_fetched_record_holds_spec_fields_links_and_arxiv_extras(tmp_path, arxiv_server):
    server = arxiv_server()
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--id", "2509.01193", "--id", "2699.00001,2410.13333")

    assert result.returncode == 0, result.stderr
    assert len(server.requests()) == 1  # several ids in one API call
    assert server.requests()[0]["params"]["id_list"] == "2509.01193,2699.00001,2410.13333"
    lobra = read_record(site, "2509.01193")
    assert lobra["id"] == lobra["arxiv"] == "2509.01193"
    assert lobra["title"].startswith("LobRA: Multi-tenant Fine-tuning")
    assert lobra["authors"][:3] == ["Sheng Lin", "Fangcheng Fu", "Haoyang Li"]
    assert lobra["year"] == 2025 and str(lobra["date"]).startswith("2025-")
    assert lobra["source"] == "arXiv"
    assert lobra["categories"] == ["cs.DC"]
    assert lobra["doi"] == "10.14778/3742728.3742752"
    assert lobra["links"] == {
        "abs": "https://arxiv.org/abs/2509.01193",
        "pdf": "https://arxiv.org/pdf/2509.01193",
        "doi": "https://doi.org/10.14778/3742728.3742752",
    }
    malleus = read_record(site, "2410.13333")
    assert malleus["version"] == 3 and "doi" not in malleus["links"]
    synthetic = read_record(site, "2699.00001")
    assert synthetic["source"] == synthetic["journal_ref"] == "Journal of Test Fixtures 1 (2026) 1-12"
    assert synthetic["comment"] == "12 pages, 3 figures; synthetic fixture"
    assert synthetic["categories"] == ["cs.DL", "cs.IR"]  # primary first
    assert synthetic["version"] == 2
    assert str(synthetic["date"]) == "2026-01-02" and str(synthetic["updated"]) == "2026-02-03"
    assert synthetic["affiliations"] == {"Ada Placeholder": ["Fixture Institute", "Second Affiliation Lab"], "Bob Fixture": ["Example University"]}
    assert "$O(n^2)$" in synthetic["abstract"] and "<, > and &." in synthetic["abstract"]  # LaTeX kept as sent
    text = (site / ARXIV_DIR / "2699.00001.yaml").read_text(encoding="utf-8")
    assert text.startswith("# Fetched from arXiv by sitegen; edit a copy outside records/arxiv/")
    assert "abstract: |" in text  # a readable block scalar

    index = build(site)
    assert shown_record_count(index) == 3
    record = page(site, "records/2699.00001/index.html")
    assert "Journal of Test Fixtures 1 (2026) 1-12" in record.select_one(".venue").get_text()
    links = {a.get_text(strip=True).lower(): a["href"] for a in record.select("ul.links a")}
    assert "https://arxiv.org/abs/2699.00001" in links.values()
    assert "https://doi.org/10.5555/fixture.2699.00001" in links.values()


@pytest.mark.slow
def test_fetch_by_author_id_reads_the_public_author_feed(tmp_path, arxiv_server):
    server = arxiv_server()
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author-id", "lin_s_9999")

    assert result.returncode == 0, result.stderr
    assert fetched_ids(site) == ALL_IDS
    assert server.requests() == []  # not the query API
    assert read_record(site, "2606.11867")["authors"][:3] == ["Yuming Zhou", "Haoyang Li", "Sheng Lin"]
    assert read_record(site, "2509.01193")["doi"] == "10.14778/3742728.3742752"


@pytest.mark.slow
def test_unknown_author_id_is_a_clear_error(tmp_path, arxiv_server):
    server = arxiv_server()
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author-id", "nobody_x_1")

    assert result.returncode == 1
    assert "nobody_x_1" in result.stderr and "not found" in result.stderr
    assert not (site / ARXIV_DIR).exists()


@pytest.mark.slow
def test_category_restricts_the_query_and_the_records(tmp_path, arxiv_server):
    server = arxiv_server()
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author", "Sheng Lin", "--category", "hep-ph", "--category", "cs.AR")

    assert result.returncode == 0, result.stderr
    assert fetched_ids(site) == HEP_PH | {"2107.02388", "2106.09144"}
    assert server.requests()[0]["params"]["search_query"] == 'au:"Sheng Lin" AND (cat:hep-ph OR cat:cs.AR)'


@pytest.mark.slow
def test_without_options_fetch_uses_the_sources_in_profile_yaml(tmp_path, arxiv_server):
    server = arxiv_server()
    profile = "name: Sheng Lin\nemail: lin@example.org\narxiv:\n  authors: [Sheng Lin, S. Lin]\n  ids: ['2699.00001']\n  exclude_ids: ['2207.04090']\n"
    site = make_site(tmp_path / "site", profile)

    result = fetch(site, server)

    assert result.returncode == 0, result.stderr
    assert fetched_ids(site) == (ALL_IDS - {"2207.04090"}) | {"2699.00001"}
    queries = [r["params"] for r in server.requests()]
    assert queries[0]["search_query"] == '(au:"Sheng Lin" OR au:"S. Lin")'
    assert queries[1]["id_list"] == "2699.00001"
    assert all(r["user_agent"].startswith("sitegen/") and "mailto:lin@example.org" in r["user_agent"] for r in server.requests())


@pytest.mark.slow
def test_no_source_anywhere_is_one_note_and_no_failure(tmp_path, arxiv_server):
    """A new site, or one made without --name: the weekly refresh runs `sitegen fetch` on it all the same."""
    server = arxiv_server()
    site = make_site(tmp_path / "site")
    before = snapshot(site)

    result = fetch(site, server)

    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("note: nothing to fetch: content/profile.yaml names no source") and result.stdout.count("\n") == 1
    assert result.stderr == ""
    assert snapshot(site) == before and server.requests() == []


@pytest.mark.slow
def test_a_name_arxiv_has_no_paper_under_is_a_warning_and_writes_nothing(tmp_path, arxiv_server):
    server = arxiv_server()
    site = make_site(tmp_path / "site", "name: Ada Lovelace\narxiv:\n  authors: [Ada Lovelace]\n")
    before = snapshot(site)

    result = fetch(site, server, "--summary", str(tmp_path / "summary.md"))

    assert result.returncode == 0, result.stderr
    assert "warning: arXiv query 'au:\"Ada Lovelace\"' (content/profile.yaml: arxiv.authors): no records found, asked twice" in result.stderr
    assert [r["params"]["search_query"] for r in server.requests()] == ['au:"Ada Lovelace"'] * 2  # arXiv's empty answers: asked again once
    assert "fetched 0 records from arXiv in 2 requests" in result.stdout
    assert snapshot(site) == before and not (site / ARXIV_DIR).exists()
    assert "no records found" in (tmp_path / "summary.md").read_text(encoding="utf-8")  # the weekly run's summary says it too


@pytest.mark.slow
def test_a_search_that_finds_nothing_prunes_nothing(tmp_path, arxiv_server):
    """An empty answer (arXiv's glitch, or a name changed) must not wipe the records fetched before."""
    server = arxiv_server()
    site = make_site(tmp_path / "site")
    assert fetch(site, server, "--id", "2409.02791", "--id", "2407.14828").returncode == 0
    before = snapshot(site)

    result = fetch(site, server, "--author", "Nobody Atall", "--id", "2409.02791", "--prune")

    assert result.returncode == 0, result.stderr
    assert "no records found" in result.stderr and "--prune removed no arXiv record" in result.stderr
    assert snapshot(site) == before


@pytest.mark.slow
def test_review_and_keep_together_are_refused_before_anything_is_asked(tmp_path, arxiv_server):
    server = arxiv_server()
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--review", "--keep", "1")

    assert result.returncode == 2
    assert "sitegen fetch: error: --keep cannot go with --review" in result.stderr and "then `sitegen fetch --keep N` alone" in result.stderr
    assert server.requests() == [] and not (site / ".sitegen-cache").exists()


@pytest.mark.slow
def test_a_category_arxiv_does_not_write_is_refused_before_anything_is_asked(tmp_path, arxiv_server):
    """`--category cs.lg` kept no record (arXiv writes cs.LG) and said only that nothing was new."""
    server = arxiv_server()
    site = make_site(tmp_path / "site")
    before = snapshot(site)

    result = fetch(site, server, "--author", "Sheng Lin", "--category", "cs.lg")

    assert result.returncode == 2
    assert "--category: 'cs.lg' is not an arXiv category (did you mean cs.LG?): no record from arXiv would match it" in result.stderr
    assert server.requests() == [] and snapshot(site) == before


@pytest.mark.slow
def test_api_url_option_wins_over_the_environment(tmp_path, arxiv_server):
    server = arxiv_server()
    site = make_site(tmp_path / "site")

    result = fetch(
        site, None, "--author", "Sheng Lin", "--api-url", server.api_url, env={"SITEGEN_ARXIV_API": "http://127.0.0.1:9/api/query"}
    )  # port 9: nobody listens

    assert result.returncode == 0, result.stderr
    assert len(fetched_ids(site)) == 18


# --------------------------------------------------------------------------
# 4. disambiguation: groups, the one-line exclusion, exclusions survive re-fetch
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_review_groups_records_by_person_and_writes_nothing(tmp_path, arxiv_server):
    site = make_site(tmp_path / "site")
    before = snapshot(site)

    result = fetch(site, arxiv_server(), "--author", "Sheng Lin", "--review")

    assert result.returncode == 0, result.stderr
    assert snapshot(site) == before
    assert "5 groups" in result.stdout
    groups = re.split(r"\n  group \d+: ", result.stdout)[1:]
    physics = next(g for g in groups if "2409.02791" in g)
    assert "2407.14828" in physics and "2606.11867" not in physics
    assert "Xuan Liu (2)" in physics and "— included" in physics
    assert "exclude_categories: [hep-ph]" in physics
    systems = next(g for g in groups if "2606.11867" in g)
    assert all(i in systems for i in ("2601.12784", "2509.01193", "2504.20490", "2412.07894", "2410.13333"))


@pytest.mark.slow
def test_excluding_a_group_removes_it_from_the_site_and_refetch_keeps_it_out(tmp_path, arxiv_server):
    server = arxiv_server()
    site = make_site(tmp_path / "site")
    first = fetch(site, server, "--author", "Sheng Lin")
    assert first.returncode == 0, first.stderr
    assert shown_record_count(build(site)) == 18

    # The user applies the line the report suggested, under arxiv: in profile.yaml.
    suggestion = re.search(r"exclude_categories: \[hep-ph\]", first.stdout).group(0)
    profile = site / "content" / "profile.yaml"
    profile.write_text(profile.read_text() + f"arxiv:\n  authors: [Sheng Lin]\n  {suggestion}\n")

    index = build(site)  # the build honours the exclusion even before a re-fetch
    assert shown_record_count(index) == 16
    assert not HEP_PH & record_pages(site)
    assert "hep-ph" not in subject_pages(site)

    again = fetch(site, server)  # no options: the sources in profile.yaml
    assert again.returncode == 0, again.stderr
    assert fetched_ids(site) == ALL_IDS - HEP_PH
    assert "2 removed" in again.stdout
    assert "excluded" in again.stdout  # the report shows the excluded group as such
    index = build(site)
    assert shown_record_count(index) == 16
    assert record_pages(site) == ALL_IDS - HEP_PH
    assert subject_pages(site) == SUBJECTS - {"hep-ph"}
    titles = " ".join(h.get_text() for h in index.select(".record-title"))
    assert "Thermal Plasma" not in titles and "Holographic Schwinger" not in titles


# --------------------------------------------------------------------------
# 5. repeatable, and safe for the user's words
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_second_fetch_with_nothing_new_changes_no_file(tmp_path, arxiv_server):
    server = arxiv_server()
    site = make_site(tmp_path / "site")
    assert fetch(site, server, "--author", "Sheng Lin", "--id", "2699.00001").returncode == 0
    before = snapshot(site)
    time.sleep(0.05)

    again = fetch(site, server, "--author", "Sheng Lin", "--id", "2699.00001")

    assert again.returncode == 0, again.stderr
    assert snapshot(site) == before  # same bytes, not even rewritten
    assert "0 new, 0 updated, 19 unchanged" in again.stdout


@pytest.mark.slow
def test_a_new_version_on_arxiv_updates_that_record_in_place(tmp_path, arxiv_server):
    site = make_site(tmp_path / "site")
    assert fetch(site, arxiv_server(), "--author", "Sheng Lin").returncode == 0
    before = snapshot(site)
    newer = fixtures_copy(
        tmp_path,
        {
            "2409.02791": [
                ("2409.02791v3", "2409.02791v4"),
                ("<updated>2026-01-06", "<updated>2026-03-01"),
                ("in the Thermal Plasma</title>", "in a Thermal Plasma (revised)</title>"),
            ]
        },
    )

    result = fetch(site, arxiv_server(fixtures=newer), "--author", "Sheng Lin")

    assert result.returncode == 0, result.stderr
    assert "0 new, 1 updated, 17 unchanged" in result.stdout
    after = snapshot(site)
    changed = {name for name in after if after[name] != before.get(name)}
    assert changed == {"content/records/arxiv/2409.02791.yaml"}
    assert set(after) == set(before)  # updated in place: no second file
    record = read_record(site, "2409.02791")
    assert record["version"] == 4 and str(record["updated"]) == "2026-03-01"
    assert record["title"].endswith("in a Thermal Plasma (revised)")
    assert str(record["date"]) == "2024-09-04"  # first publication date stays


@pytest.mark.slow
def test_hand_written_record_wins_field_by_field_and_shows_once(tmp_path, arxiv_server):
    mine = {
        "mine.yaml": (
            "- id: lin2024plasma\n  arxiv: 2409.02791v3\n  title: My preferred title for the plasma paper\n"
            "  year: 2024\n  source: Physical Review D 110 (2024)\n"
            "- id: lobra\n  doi: 10.14778/3742728.3742752\n  year: 2025\n  title: LobRA (PVLDB version)\n"
            "- id: '2412.07894'\n  featured: true\n"
        ),  # only what changes: no title, no year
    }
    site = make_site(tmp_path / "site", records=mine)
    before = (site / "content/records/mine.yaml").read_bytes()

    result = fetch(site, arxiv_server(), "--author", "Sheng Lin")

    assert result.returncode == 0, result.stderr
    assert (site / "content/records/mine.yaml").read_bytes() == before
    index = build(site)
    assert shown_record_count(index) == 18  # not 20
    titles = [h.get_text(" ", strip=True) for h in index.select(".record-title")]
    assert "My preferred title for the plasma paper" in titles
    assert "LobRA (PVLDB version)" in titles
    assert not any(t.startswith(("The Interaction of Moving", "LobRA: Multi-tenant")) for t in titles)
    plasma = page(site, "records/lin2024plasma/index.html")
    assert "Physical Review D 110 (2024)" in plasma.select_one(".venue").get_text()
    assert "gauge/gravity duality" in plasma.select_one(".abstract-body").get_text()  # arXiv's field, not set by hand
    fetched_file = read_record(site, "2412.07894")
    featured = page(site, "records/2412.07894/index.html")
    assert featured.select_one(".badge").get_text() == "Featured"
    assert featured.select_one("h1").get_text(" ", strip=True) == fetched_file["title"]
    assert featured.select_one("time")["datetime"] == str(fetched_file["date"])


@pytest.mark.slow
def test_fetch_never_overwrites_or_removes_a_file_a_person_wrote(tmp_path, arxiv_server):
    site = make_site(tmp_path / "site", "name: Sheng Lin\narxiv:\n  authors: [Sheng Lin]\n")
    assert fetch(site, arxiv_server()).returncode == 0
    edited = site / ARXIV_DIR / "2409.02791.yaml"
    edited.write_text(edited.read_text().replace("source: arXiv", "source: Phys. Rev. D"))
    own = site / ARXIV_DIR / "2407.14828.yaml"
    own.write_text("id: '2407.14828'\ntitle: Written by me\nyear: 2024\n")
    before = {p: p.read_bytes() for p in (edited, own)}
    newer = fixtures_copy(tmp_path, {"2409.02791": [("2409.02791v3", "2409.02791v4")]})
    profile = site / "content" / "profile.yaml"
    profile.write_text(profile.read_text() + "  exclude_categories: [hep-ph]\n")  # would remove both

    result = fetch(site, arxiv_server(fixtures=newer), "--prune")

    assert result.returncode == 0, result.stderr
    assert {p: p.read_bytes() for p in (edited, own)} == before
    assert "content/records/arxiv/2409.02791.yaml:1: warning: it is now excluded by profile.yaml, but it was edited by hand" in result.stderr
    assert "2407.14828.yaml:1: warning" in result.stderr


# --------------------------------------------------------------------------
# 6. faults
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_http_503_is_retried_with_growing_backoff(tmp_path, arxiv_server):
    server = arxiv_server("--fail-first", "2")
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author", "Sheng Lin", "--backoff", "0.3")

    assert result.returncode == 0, result.stderr
    assert len(fetched_ids(site)) == 18
    log = server.requests()
    assert [r["status"] for r in log] == [503, 503, 200]
    first_wait, second_wait = gaps(log)
    assert first_wait >= 0.29 and second_wait >= 0.59  # 0.3 s, then doubled
    assert "HTTP 503" in result.stderr and "retrying in 0.3 s (try 2 of 5)" in result.stderr


@pytest.mark.slow
def test_http_503_that_persists_is_a_clear_error_and_writes_nothing(tmp_path, arxiv_server):
    server = arxiv_server("--fail-first", "100")
    site = make_site(tmp_path / "site")
    assert fetch(site, arxiv_server(), "--id", "2699.00001").returncode == 0
    before = snapshot(site)

    result = fetch(site, server, "--author", "Sheng Lin", "--retries", "2", "--backoff", "0.05")

    assert result.returncode == 1
    assert len(server.requests()) == 3
    error = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(error) == 1
    assert 'au:"Sheng Lin"' in error[0] and "HTTP 503" in error[0] and "gave up after 3 tries" in error[0]
    assert "nothing was written" in error[0]
    assert snapshot(site) == before


@pytest.mark.slow
def test_retry_after_from_the_server_is_honoured(tmp_path, arxiv_server):
    server = arxiv_server("--fail-first", "1", "--fail-status", "429", "--retry-after", "1")
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author", "Sheng Lin", "--backoff", "0.1")

    assert result.returncode == 0, result.stderr
    assert [r["status"] for r in server.requests()] == [429, 200]
    assert gaps(server.requests())[0] >= 0.99


@pytest.mark.slow
def test_rate_limited_requests_are_retried_until_arxiv_accepts_them(tmp_path, arxiv_server):
    server = arxiv_server("--rate-limit", "0.5")
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author", "Sheng Lin", "--page-size", "10", "--backoff", "0.3")

    assert result.returncode == 0, result.stderr
    assert len(fetched_ids(site)) == 18
    assert 429 in [r["status"] for r in server.requests()]


@pytest.mark.slow
def test_timeouts_are_retried(tmp_path, arxiv_server):
    server = arxiv_server("--slow", "3", "--slow-first", "1")
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author", "Sheng Lin", "--timeout", "0.5", "--backoff", "0.1")

    assert result.returncode == 0, result.stderr
    assert len(fetched_ids(site)) == 18
    assert "no answer within 0.5 s" in result.stderr


@pytest.mark.slow
def test_timeouts_that_persist_are_a_clear_error(tmp_path, arxiv_server):
    server = arxiv_server("--slow", "2")
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--id", "2409.02791", "--timeout", "0.3", "--retries", "1", "--backoff", "0.1")

    assert result.returncode == 1
    assert "id_list=2409.02791" in result.stderr and "no answer within 0.3 s (gave up after 2 tries)" in result.stderr
    assert not (site / ARXIV_DIR).exists()


@pytest.mark.slow
def test_arxivs_known_empty_page_is_retried(tmp_path, arxiv_server):
    server = arxiv_server("--empty-page-at", "10")
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author", "Sheng Lin", "--page-size", "10")

    assert result.returncode == 0, result.stderr
    assert fetched_ids(site) == ALL_IDS
    assert [(r["params"]["start"], r["fault"]) for r in server.requests()] == [("0", None), ("10", "empty-page"), ("10", None)]
    assert "empty page" in result.stderr


@pytest.mark.slow
def test_an_empty_first_page_of_a_feed_that_counts_results_is_retried(tmp_path, arxiv_server):
    server = arxiv_server("--empty-page-at", "0", "--empty-times", "2")
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author", "Sheng Lin", "--page-size", "10", "--backoff", "0.1")

    assert result.returncode == 0, result.stderr
    assert fetched_ids(site) == ALL_IDS
    assert [(r["params"]["start"], r["fault"]) for r in server.requests()][:3] == [("0", "empty-page"), ("0", "empty-page"), ("0", None)]
    assert "an empty first page, though arXiv counts 18 results" in result.stderr


@pytest.mark.slow
def test_an_empty_page_that_persists_is_a_clear_error(tmp_path, arxiv_server):
    server = arxiv_server("--empty-page-at", "10", "--empty-times", "0")
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author", "Sheng Lin", "--page-size", "10")

    assert result.returncode == 1
    assert 'au:"Sheng Lin"' in result.stderr and "empty page" in result.stderr
    assert not (site / ARXIV_DIR).exists()


@pytest.mark.slow
def test_a_cut_off_page_is_retried_not_silently_shortened(tmp_path, arxiv_server):
    server = arxiv_server("--truncate-first", "1")
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author", "Sheng Lin", "--page-size", "10", "--backoff", "0.1")

    assert result.returncode == 0, result.stderr
    assert fetched_ids(site) == ALL_IDS
    assert [r["fault"] for r in server.requests()] == ["truncated", None, None]
    assert read_record(site, "2509.01193")["authors"][-1] == "Bin Cui"


@pytest.mark.slow
def test_malformed_xml_is_a_clear_error_naming_the_query(tmp_path, arxiv_server):
    server = arxiv_server("--truncate-first", "100")
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--author", "Sheng Lin", "--retries", "1", "--backoff", "0.05")

    assert result.returncode == 1
    assert "malformed XML" in result.stderr and 'au:"Sheng Lin"' in result.stderr
    assert not (site / ARXIV_DIR).exists()


@pytest.mark.slow
def test_arxiv_error_entry_is_reported_without_useless_retries(tmp_path, arxiv_server):
    server = arxiv_server()
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--id", "not-an-id")

    assert result.returncode == 1
    assert "incorrect id format for not-an-id" in result.stderr and "id_list=not-an-id" in result.stderr
    assert len(server.requests()) == 1
    assert not (site / ARXIV_DIR).exists()


@pytest.mark.slow
def test_an_id_arxiv_does_not_know_is_an_error(tmp_path, arxiv_server):
    site = make_site(tmp_path / "site")

    result = fetch(site, arxiv_server(), "--id", "2409.02791", "--id", "2699.99999")

    assert result.returncode == 1
    assert "no record for 2699.99999" in result.stderr
    assert not (site / ARXIV_DIR).exists()


@pytest.mark.slow
@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_fetch_leaves_content_exactly_as_it_was(tmp_path, arxiv_server, signal_number):
    site = make_site(tmp_path / "site")
    assert fetch(site, arxiv_server(), "--author", "Sheng Lin").returncode == 0
    before = snapshot(site)
    newer = fixtures_copy(tmp_path, {"2606.11867": [("2606.11867v1", "2606.11867v2")], "2001.07710": [("2001.07710v3", "2001.07710v4")]})
    # every page takes 5 s: the signal must come while page 2 is awaited, even when a loaded machine stalls this test
    server = arxiv_server("--slow", "5", fixtures=newer)
    command = [sys.executable, "-m", "sitegen", "fetch", "--site", str(site), "--delay", "0", "--page-size", "10", "--author", "Sheng Lin"]
    process = subprocess.Popen(
        command, cwd=REPO, env={**os.environ, "SITEGEN_ARXIV_API": server.api_url}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 20
    while server.stats()["query_requests"] < 2:  # page 1 is in memory, page 2 on its way
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)

    process.send_signal(signal_number)
    _, stderr = process.communicate(timeout=20)

    # as README's exit statuses say: 130 for Ctrl-C, 143 for SIGTERM (a CI job cancelled, `docker stop`)
    word, status = ("terminated", 143) if signal_number == signal.SIGTERM else ("interrupted", 130)
    assert process.returncode == status, stderr
    assert stderr.splitlines()[-1] == f"sitegen fetch: {word}; content/ is unchanged"
    assert snapshot(site) == before
    assert not list((site / ARXIV_DIR).glob(".*"))  # no temp files left


# --------------------------------------------------------------------------
# 7. politeness, 8. progress
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_requests_are_sequential_spaced_by_the_delay_and_name_sitegen(tmp_path, arxiv_server):
    server = arxiv_server()
    site = make_site(tmp_path / "site")

    started = time.monotonic()
    result = fetch(site, server, "--author", "Sheng Lin", "--page-size", "5", delay="0.5")
    elapsed = time.monotonic() - started

    assert result.returncode == 0, result.stderr
    log = server.requests()
    assert [r["params"]["start"] for r in log] == ["0", "5", "10", "15"]
    assert all(r["in_flight"] == 1 for r in log)
    assert all(g >= 0.49 for g in gaps(log)), gaps(log)
    assert elapsed >= 1.5
    assert all(re.match(r"sitegen/\d", r["user_agent"]) for r in log)
    assert all(int(r["params"]["max_results"]) <= 2000 for r in log)


def test_page_size_above_arxivs_limit_is_refused(tmp_path, arxiv_server):
    site = make_site(tmp_path / "site")

    result = fetch(site, arxiv_server(), "--author", "Sheng Lin", "--page-size", "2001")

    assert result.returncode == 2
    assert "2000" in result.stderr


@pytest.mark.slow
def test_progress_is_one_plain_line_per_page_when_not_a_terminal(tmp_path, arxiv_server):
    site = make_site(tmp_path / "site")

    result = fetch(site, arxiv_server(), "--author", "Sheng Lin", "--page-size", "10")

    assert result.returncode == 0, result.stderr
    assert "\r" not in result.stderr and "\x1b" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("arXiv:")]
    assert lines == ['arXiv: au:"Sheng Lin": page 1 of 2, 10 of 18 records', 'arXiv: au:"Sheng Lin": page 2 of 2, 18 of 18 records']


@pytest.mark.slow
def test_progress_is_an_updating_line_on_a_terminal(tmp_path, arxiv_server):
    server = arxiv_server()
    site = make_site(tmp_path / "site")
    status, text = run_sitegen_on_terminal(
        "fetch",
        "--site",
        str(site),
        "--delay",
        "0.3",
        "--page-size",
        "10",
        "--author",
        "Sheng Lin",
        cwd=REPO,
        env={"SITEGEN_ARXIV_API": server.api_url},
        timeout=30,
        stdout_too=False,
    )
    assert status == 0
    assert "\r\x1b[2K" in text  # the line is redrawn in place
    assert "page 1 of 2, 10 of 18 records; waiting 0.3 s" in text
    assert "page 2 of 2, 18 of 18 records" in text
    assert "\n" not in text.replace("\r\n", "").strip("\r\n")  # no line per page on a terminal


# --------------------------------------------------------------------------
# 9. LaTeX and untrusted text from arXiv
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_latex_and_accents_from_arxiv_render_and_untrusted_text_is_escaped(tmp_path, arxiv_server):
    edited = fixtures_copy(
        tmp_path,
        {
            "2699.00001": [
                ("<name>Bob Fixture</name>", "<name>Bob Fixtur{\\'e}</name>"),
                ("Exercising Every Optional Atom Field</title>", "Exercising Every Optional Atom Field &lt;script&gt;alert(1)&lt;/script&gt;</title>"),
            ]
        },
    )
    site = make_site(tmp_path / "site")

    result = fetch(site, arxiv_server(fixtures=edited), "--id", "2409.02791,2699.00001")

    assert result.returncode == 0, result.stderr
    assert read_record(site, "2699.00001")["authors"][1] == "Bob Fixtur{\\'e}"  # kept as arXiv sent it
    build(site)
    plasma = page(site, "records/2409.02791/index.html")
    heading = plasma.select_one("h1")
    assert heading.find("math") is not None and "\\mathbf" not in heading.get_text()
    synthetic = page(site, "records/2699.00001/index.html")
    assert "Bob Fixturé" in synthetic.select_one(".authors").get_text()
    assert not synthetic.select("h1 script") and "<script>alert(1)</script>" in synthetic.select_one("h1").get_text()
    abstract = synthetic.select_one(".abstract-body")
    assert abstract.find("math") is not None and "<, > and &." in abstract.get_text()


# --------------------------------------------------------------------------
# 10. ORCID, Crossref, OpenAlex, dblp: the real command against the fake scholarly server
# --------------------------------------------------------------------------

ORCID = "0000-0002-0000-0006"
OPENALEX = "A5104738206"
DBLP = "13/7777-3"
ORCID_WORKS = {
    "orcid-189553021",
    "orcid-171204553",
    "orcid-180512933",
    "orcid-165002117",
    "orcid-176009881",
    "orcid-168772340",
    "orcid-158830964",
    "orcid-156117808",
    "orcid-193310478",
}  # one per work
CROSSREF_BY_ORCID = {"10.14778/3742728.3742752", "10.5555/jdls.2025.0142", "10.5555/smlsys.2024.31"}
OPENALEX_WORKS = {"W4417263801", "W4411902385", "W4414120376", "W4412853019", "W4409561827", "W4405318264", "W4403271590", "W4408126645", "W4404390712"}
PKU = {"2606.11867", "2601.12784", "2509.01193", "2504.20490", "2412.07894", "2410.13333"}
PROFILE_WITH_EMAIL = "name: Sheng Lin\nemail: lin@example.org\n"


def fetch_from(site: Path, server: FakeScholarly, *args: str, delay: str = "0", env: dict | None = None, timeout: float = 90) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **server.env, **(env or {})}
    command = [sys.executable, "-m", "sitegen", "fetch", "--site", str(site), "--delay", delay, *args]
    return subprocess.run(command, cwd=REPO, env=full_env, capture_output=True, text=True, timeout=timeout)


def records_of(site: Path, source: str) -> dict[str, dict]:
    folder = site / "content" / "records" / source
    found = {}
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        record = yaml.safe_load(path.read_text(encoding="utf-8"))
        found[record["id"]] = record
    return found


@pytest.mark.slow
def test_a_lab_sites_people_are_fetched_by_their_identifiers(tmp_path, scholarly_server):
    """SPEC §9: a person file has profile.yaml's sources; without options, fetch asks for each person's ORCID
    iD (and arXiv author ids, OpenAlex and dblp ids) beside the lab's own sources; a wrong one is at its line."""
    server = scholarly_server()
    site = make_site(tmp_path / "site", "name: Distributed Systems Lab\nemail: lab@example.org\n")
    people = site / "content" / "people"
    people.mkdir()
    (people / "sheng.yaml").write_text(f"name: Sheng Lin\norcid: {ORCID}\n", encoding="utf-8")
    (people / "ada.yaml").write_text("name: Ada Lovelace\n", encoding="utf-8")
    result = fetch_from(site, server, delay="0.05")
    assert result.returncode == 0, result.stderr
    assert set(records_of(site, "orcid")) == ORCID_WORKS
    assert [r["path"] for r in server.requests("orcid")[:2]] == [f"/orcid/v3.0/{ORCID}/person", f"/orcid/v3.0/{ORCID}/works"]
    (people / "ada.yaml").write_text("name: Ada Lovelace\norcid: 0000-0002-1825-0096\n", encoding="utf-8")  # a wrong check digit
    wrong = fetch_from(site, server, delay="0")
    assert wrong.returncode == 1 and "content/people/ada.yaml:2:" in wrong.stderr, wrong.stderr


@pytest.mark.slow
def test_orcid_gives_one_record_per_work_in_three_requests_and_crossref_its_published_works(tmp_path, scholarly_server):
    server = scholarly_server()
    site = make_site(tmp_path / "site", PROFILE_WITH_EMAIL)

    # a small delay: the fake server counts a request as in flight until its handler thread returns,
    # which may be after the client has read the answer and sent the next request
    result = fetch_from(site, server, "--orcid", f"https://orcid.org/{ORCID}", delay="0.05")

    assert result.returncode == 0, result.stderr
    orcid = records_of(site, "orcid")
    assert set(orcid) == ORCID_WORKS  # ten summaries, nine works
    assert all(r["origin"] == "orcid" for r in orcid.values())
    lobra = orcid["orcid-189553021"]
    assert (lobra["type"], lobra["doi"], lobra["source"]) == ("article", "10.14778/3742728.3742752", "Proceedings of the VLDB Endowment")
    assert orcid["orcid-193310478"]["type"] == "thesis"
    assert orcid["orcid-171204553"]["authors"][:2] == ["Sheng Lin", "Fangcheng Fu"]  # its credit name 'Lin, Sheng'
    asked = server.requests("orcid")
    assert [r["path"] for r in asked[:2]] == [f"/orcid/v3.0/{ORCID}/person", f"/orcid/v3.0/{ORCID}/works"]
    bulk = asked[2]["path"].removeprefix(f"/orcid/v3.0/{ORCID}/works/").split(",")
    assert len(asked) == 3 and {f"orcid-{code}" for code in bulk} == ORCID_WORKS  # every work in one bulk request
    assert all(r["accept"] == "application/vnd.orcid+json" for r in asked)
    crossref = records_of(site, "crossref")
    assert set(crossref) == CROSSREF_BY_ORCID
    assert crossref["10.5555/smlsys.2024.31"]["citations"] == 4
    assert all(r["params"]["mailto"] == "lin@example.org" for r in server.requests("crossref"))
    assert all(r["user_agent"].startswith("sitegen/") and "mailto:lin@example.org" in r["user_agent"] and r["in_flight"] == 1 for r in server.requests())
    assert "content/records/orcid/: 9 new" in result.stdout and "content/records/crossref/: 3 new" in result.stdout


@pytest.mark.slow
def test_a_mistyped_orcid_is_refused_by_its_check_digit_before_any_request(tmp_path, scholarly_server):
    server = scholarly_server()
    site = make_site(tmp_path / "site")

    result = fetch_from(site, server, "--orcid", "0000-0002-0000-0007")

    assert result.returncode == 2
    assert "--orcid" in result.stderr and "check digit" in result.stderr and "should be 6" in result.stderr
    assert server.requests() == []


@pytest.mark.slow
def test_a_mistyped_orcid_in_profile_yaml_is_a_content_error_naming_the_line(tmp_path, scholarly_server):
    server = scholarly_server()
    site = make_site(tmp_path / "site", "name: Sheng Lin\norcid: 0000-0002-0000-0007\n")

    result = fetch_from(site, server)

    assert result.returncode == 1
    assert result.stderr.startswith("content/profile.yaml:2: field 'orcid': ") and "check digit" in result.stderr
    assert server.requests() == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "option, value, message",
    [
        ("--orcid", "0000-0002-9999-9998", "ORCID record 0000-0002-9999-9998: HTTP 404 Not Found: 'ORCID iD 0000-0002-9999-9998 not found'"),
        ("--openalex", "A1000000000", "OpenAlex author A1000000000: HTTP 404 Not Found"),
        ("--dblp", "13/7777-9", "dblp person 13/7777-9: HTTP 404 Not Found"),
    ],
)
def test_an_unknown_id_is_a_clear_error_naming_source_and_id_and_nothing_is_written(tmp_path, scholarly_server, option, value, message):
    server = scholarly_server()
    site = make_site(tmp_path / "site")

    result = fetch_from(site, server, "--dblp", DBLP, option, value)  # dblp's answer is good: still nothing written

    assert result.returncode == 1
    error = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(error) == 1 and message in error[0] and error[0].endswith("nothing was written")
    assert not (site / "content" / "records").exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    "options, profile",
    [
        (("--doi", "10.48550/arXiv.2504.20490"), "name: Sheng Lin\n"),
        ((), "name: Sheng Lin\ndois: ['10.48550/arXiv.2504.20490v2']\ndblp: 13/7777-3\n"),
    ],
)
def test_an_arxiv_doi_is_fetched_from_arxiv_by_its_id(tmp_path, scholarly_server, arxiv_server, options, profile):
    server, arxiv = scholarly_server(), arxiv_server()
    site = make_site(tmp_path / "site", profile)

    result = fetch_from(site, server, *options, *(("--dblp", DBLP) if options else ()), env={"SITEGEN_ARXIV_API": arxiv.api_url})

    assert result.returncode == 0, result.stderr
    assert records_of(site, "arxiv")["2504.20490"]["title"].startswith("Hetu v2")
    assert len(records_of(site, "dblp")) == 11  # the other source's records are written too
    assert server.requests("crossref") == []  # Crossref does not hold arXiv's DataCite DOIs


@pytest.mark.slow
def test_a_doi_crossref_does_not_know_is_left_out_with_a_warning_and_the_rest_is_written(tmp_path, scholarly_server):
    server = scholarly_server()
    site = make_site(tmp_path / "site", "name: Sheng Lin\ndois: ['10.5555/mistyped.1234', '10.5555/jdls.2025.0142']\ndblp: 13/7777-3\n")
    summary = tmp_path / "summary.md"

    result = fetch_from(site, server, "--summary", str(summary))

    assert result.returncode == 0, result.stderr
    warning = "warning: Crossref does not know DOI 10.5555/mistyped.1234 (content/profile.yaml:2: field 'dois'); left out"
    assert warning in result.stderr
    assert set(records_of(site, "crossref")) == {"10.5555/jdls.2025.0142"} and len(records_of(site, "dblp")) == 11
    assert "### Warnings" in summary.read_text(encoding="utf-8") and "10.5555/mistyped.1234" in summary.read_text(encoding="utf-8")


def zenodo_fixtures(root: Path) -> Path:
    """The scholarly fixtures and a Zenodo software release OpenAlex knows (a DataCite DOI: Crossref does not)."""
    fixtures = root / "sources"
    shutil.copytree(SCHOLARLY_FIXTURES, fixtures)
    work = json.loads((fixtures / "openalex" / "works" / "W4408126645.json").read_text(encoding="utf-8"))
    work.update(
        id="https://openalex.org/W5000000001", doi="https://doi.org/10.5281/zenodo.11111111", type="dataset", type_crossref="dataset",
        title="Hetu: a highly efficient automatic parallel deep learning system", publication_year=2025, publication_date="2025-02-01",
        abstract_inverted_index=None, biblio={}, authorships=work["authorships"][:1],
        primary_location={"landing_page_url": "https://doi.org/10.5281/zenodo.11111111", "pdf_url": None,
                          "source": {"id": "https://openalex.org/S4306400562", "display_name": "Zenodo (CERN European Organization for Nuclear Research)"}},
    )  # fmt: skip
    work["ids"] = {"openalex": work["id"], "doi": work["doi"]}
    (fixtures / "openalex" / "works" / "W5000000001.json").write_text(json.dumps(work), encoding="utf-8")
    return fixtures


def corrigendum_fixtures(root: Path) -> Path:
    """The scholarly fixtures and an IOP paper with its corrigendum, titled alike, as Crossref has them: the paper
    `updated-by` the corrigendum, the corrigendum `update-to` the paper."""
    fixtures = root / "sources"
    shutil.copytree(SCHOLARLY_FIXTURES, fixtures)
    works = fixtures / "crossref" / "works"
    base = json.loads((works / "10.5555%2Fjdls.2025.0142.json").read_text(encoding="utf-8"))
    title = "Stochastic switching of flagellar motors under load"
    for doi, year, update in (
        ("10.5555/pbio.2021.045001", 2021, {"updated-by": [{"DOI": "10.5555/pbio.2022.029501", "type": "corrigendum", "label": "Corrigendum"}]}),
        ("10.5555/pbio.2022.029501", 2022, {"update-to": [{"DOI": "10.5555/pbio.2021.045001", "type": "corrigendum", "label": "Corrigendum"}]}),
    ):
        message = {**base["message"], "DOI": doi, "title": [title], "issued": {"date-parts": [[year, 3, 1]]}, **update}
        message.pop("abstract", None)
        (works / (doi.replace("/", "%2F") + ".json")).write_text(json.dumps({**base, "message": message}), encoding="utf-8")
    return fixtures


@pytest.mark.slow
def test_a_fetched_corrigendum_stays_the_link_of_its_paper_whatever_else_is_fetched(tmp_path, scholarly_server):
    """A corrigendum titled as its paper, fetched beside the user's own entry of the paper (Zotero's, without DOI),
    made the paper leave the site; fetched with the paper's DOI too, it is one link, not a duplicate."""
    server = scholarly_server(fixtures=corrigendum_fixtures(tmp_path))
    zotero = """@article{lin_stochastic_2021,
  title = {Stochastic switching of flagellar motors under load},
  journal = {Journal of Distributed Learning Systems},
  author = {Lin, Sheng and Li, Haoyang},
  year = {2021},
}
"""
    site = make_site(tmp_path / "site", records={"zotero.bib": zotero})

    result = fetch_from(site, server, "--doi", "10.5555/pbio.2022.029501")

    assert result.returncode == 0, result.stderr
    assert records_of(site, "crossref")["10.5555/pbio.2022.029501"]["notice_for"] == "10.5555/pbio.2021.045001"
    home = build(site)
    items = home.select("#publications li.record")
    assert [item.select_one("h4").get_text(" ", strip=True) for item in items] == ["Stochastic switching of flagellar motors under load"]
    assert [a["href"] for a in items[0].select(".link-correction a")] == ["https://doi.org/10.5555/pbio.2022.029501"]

    result = fetch_from(site, server, "--doi", "10.5555/pbio.2021.045001")  # the paper's own record: the same work

    assert result.returncode == 0, result.stderr
    home = build(site)
    items = home.select("#publications li.record")
    assert len(items) == 1 and [a["href"] for a in items[0].select(".link-correction a")] == ["https://doi.org/10.5555/pbio.2022.029501"]
    assert items[0].select_one(".link-doi a")["href"] == "https://doi.org/10.5555/pbio.2021.045001"


@pytest.mark.slow
def test_a_data_repositorys_doi_is_fetched_from_openalex(tmp_path, scholarly_server):
    """Zenodo's, figshare's and Dryad's DOIs are DataCite's, which Crossref does not hold: `--doi` and `dois:` left
    them out ("write its record by hand"); OpenAlex knows them. One it does not know is a warning, as Crossref's."""
    server = scholarly_server(fixtures=zenodo_fixtures(tmp_path))
    site = make_site(tmp_path / "site", "name: Sheng Lin\ndois: ['10.5281/zenodo.11111111', '10.5061/dryad.nothere']\n")

    result = fetch_from(site, server, "--doi", "https://doi.org/10.5281/ZENODO.11111111")

    assert result.returncode == 0, result.stderr
    assert server.requests("crossref") == []
    record = records_of(site, "openalex")["W5000000001"]
    assert (record["doi"], record["type"], record["year"]) == ("10.5281/zenodo.11111111", "dataset", 2025)
    result = fetch_from(site, server)  # profile.yaml's dois: one known, one not
    assert result.returncode == 0, result.stderr
    assert "warning: OpenAlex does not know DOI 10.5061/dryad.nothere (content/profile.yaml:2: field 'dois'); left out" in result.stderr
    assert set(records_of(site, "openalex")) == {"W5000000001"}


@pytest.mark.slow
def test_crossref_and_openalex_lists_are_read_by_cursor_page_after_page(tmp_path, scholarly_server):
    server = scholarly_server("--page-cap", "2")  # at most 2 works an answer: paging must go on
    site = make_site(tmp_path / "site")

    result = fetch_from(site, server, "--orcid", ORCID, "--openalex", OPENALEX)

    assert result.returncode == 0, result.stderr
    assert set(records_of(site, "crossref")) == CROSSREF_BY_ORCID
    openalex = records_of(site, "openalex")
    assert set(openalex) == OPENALEX_WORKS
    assert openalex["W4412853019"]["citations"] == 14 and openalex["W4414120376"]["arxiv"] == "2509.01193"
    crossref_cursors = [r["params"]["cursor"] for r in server.requests("crossref")]
    assert crossref_cursors[0] == "*" and len(crossref_cursors) == 2 and crossref_cursors[1] != "*"
    openalex_pages = [r for r in server.requests("openalex") if r["path"] == "/openalex/works"]
    assert len(openalex_pages) == 5 and openalex_pages[0]["params"]["cursor"] == "*"
    assert len({r["params"]["cursor"] for r in openalex_pages}) == 5
    assert "OpenAlex: works of A5104738206: page 5, 9 of 9" in result.stderr  # progress, one line a page


@pytest.mark.slow
def test_crossrefs_real_scroll_cursors_are_followed_to_the_end(tmp_path, scholarly_server):
    # real scroll semantics: one cursor for the whole walk, the same next-cursor on every page
    server = scholarly_server("--page-cap", "1", "--crossref-scroll")
    site = make_site(tmp_path / "site")

    result = fetch_from(site, server, "--orcid", ORCID)

    assert result.returncode == 0, result.stderr
    assert set(records_of(site, "crossref")) == CROSSREF_BY_ORCID
    cursors = [r["params"]["cursor"] for r in server.requests("crossref")]
    assert cursors[0] == "*" and len(set(cursors[1:])) == 1 and len(cursors) == 3


@pytest.mark.slow
@pytest.mark.parametrize(
    "faults, said",
    [
        (("--fail-first", "2"), "HTTP 503"),
        (("--fail-first", "1", "--fail-status", "429", "--retry-after", "1"), "HTTP 429"),
        (("--truncate-first", "1"), "cut-off or malformed JSON"),
        (("--slow", "2", "--slow-first", "1"), "no answer within 0.5 s"),
    ],
)
def test_throttling_server_errors_cut_off_answers_and_timeouts_are_retried(tmp_path, scholarly_server, faults, said):
    server = scholarly_server(*faults)
    site = make_site(tmp_path / "site")

    result = fetch_from(site, server, "--openalex", OPENALEX, "--backoff", "0.1", "--timeout", "0.5")

    assert result.returncode == 0, result.stderr
    assert set(records_of(site, "openalex")) == OPENALEX_WORKS
    assert said in result.stderr and "retrying in" in result.stderr
    log = server.requests()
    if "429" in said:
        assert [r["status"] for r in log[:2]] == [429, 200]
        assert log[1]["t"] - log[0]["t_end"] >= 0.99  # Retry-After: 1


@pytest.mark.slow
def test_a_fault_that_persists_is_a_clear_error_and_changes_nothing(tmp_path, scholarly_server):
    site = make_site(tmp_path / "site")
    assert fetch_from(site, scholarly_server(), "--openalex", OPENALEX).returncode == 0
    before = snapshot(site)
    server = scholarly_server("--fail-first", "100")

    result = fetch_from(site, server, "--openalex", OPENALEX, "--retries", "1", "--backoff", "0.05")

    assert result.returncode == 1
    assert ("OpenAlex author A5104738206: HTTP 503 Service Unavailable: 'injected HTTP 503' (gave up after 2 tries); nothing was written") in result.stderr
    assert snapshot(site) == before


@pytest.mark.slow
def test_a_name_several_people_share_is_a_list_to_choose_from_never_a_merge(tmp_path, scholarly_server):
    server = scholarly_server()
    site = make_site(tmp_path / "site")

    result = fetch_from(site, server, "--openalex-name", "Sheng Lin")

    assert result.returncode == 1
    assert "OpenAlex: 3 people are called 'Sheng Lin'" in result.stderr
    listed = {line.split()[1]: line for line in result.stderr.splitlines() if re.match(r"  \d\. A\d+", line)}
    assert set(listed) == {"A5104738206", "A5031587460", "A5067212953"}
    assert "Peking University" in listed["A5104738206"] and "9 works" in listed["A5104738206"]
    assert "2024–2026" in listed["A5104738206"]
    assert "Northeastern University" in listed["A5031587460"] and "41 works" in listed["A5031587460"]
    assert "Shandong University" in listed["A5067212953"]
    pku_lines = result.stderr.split(listed["A5104738206"])[1].splitlines()[1]
    assert "Bin Cui" in pku_lines and "Fangcheng Fu" in pku_lines  # its top co-authors
    assert "sitegen fetch --openalex ID" in result.stderr and "nothing was written" in result.stderr
    assert not (site / "content" / "records").exists()


@pytest.mark.slow
def test_a_dblp_name_lists_the_people_dblp_tells_apart(tmp_path, scholarly_server):
    server = scholarly_server()
    site = make_site(tmp_path / "site")

    result = fetch_from(site, server, "--dblp-name", "Sheng Lin")

    assert result.returncode == 1
    listed = [line for line in result.stderr.splitlines() if re.match(r"  \d\. ", line)]
    assert [line.split()[1] for line in listed] == ["13/7777", "13/7777-1", "13/7777-2", "13/7777-3"]  # no Shengjie
    pku = next(line for line in listed if "13/7777-3" in line)
    assert "Peking University" in pku and "11 works" in pku and "2024–2026" in pku
    assert "catch-all" in result.stderr
    assert not (site / "content" / "records").exists()


@pytest.mark.slow
@pytest.mark.parametrize("option, said", [("--dblp-name", "dblp author search 'Nobody Atall'"), ("--openalex-name", "OpenAlex author search 'Nobody Atall'")])
def test_a_name_nobody_has_is_a_warning_and_the_other_sources_are_written(tmp_path, scholarly_server, option, said):
    site = make_site(tmp_path / "site")

    result = fetch_from(site, scholarly_server(), option, "Nobody Atall", "--openalex", OPENALEX)

    assert result.returncode == 0, result.stderr
    assert f"warning: {said} ({option}): nobody of that name" in result.stderr
    assert set(records_of(site, "openalex")) == OPENALEX_WORKS


@pytest.mark.slow
def test_at_a_terminal_the_user_picks_the_person_and_only_their_works_are_fetched(tmp_path, scholarly_server):
    server = scholarly_server()
    site = make_site(tmp_path / "site")

    def number_of_the_person(seen: str) -> str:
        return next(line.split(".")[0].strip() for line in seen.splitlines() if "A5104738206" in line)

    status, seen, stdout = answer_at_terminal(
        "fetch", "--site", str(site), "--delay", "0", "--openalex-name", "Sheng Lin", answer=number_of_the_person, env=server.env
    )

    assert status == 0, seen
    assert set(records_of(site, "openalex")) == OPENALEX_WORKS
    assert "content/records/openalex/: 9 new" in stdout


@pytest.mark.slow
def test_profile_yaml_sources_are_fetched_without_options_and_a_refetch_changes_no_file(tmp_path, scholarly_server):
    server = scholarly_server()
    profile = f"name: Sheng Lin\nemail: lin@example.org\norcid: '{ORCID}'\nopenalex: {OPENALEX}\ndblp: {DBLP}\ndois: ['10.5555/remlsys.2025.7']\n"
    site = make_site(tmp_path / "site", profile)

    first = fetch_from(site, server)

    assert first.returncode == 0, first.stderr
    assert set(records_of(site, "orcid")) == ORCID_WORKS
    assert set(records_of(site, "crossref")) == CROSSREF_BY_ORCID | {"10.5555/remlsys.2025.7"}
    assert set(records_of(site, "openalex")) == OPENALEX_WORKS
    assert len(records_of(site, "dblp")) == 11
    before = snapshot(site)
    time.sleep(0.05)

    again = fetch_from(site, server)

    assert again.returncode == 0, again.stderr
    assert snapshot(site) == before
    for folder, count in (("orcid", 9), ("crossref", 4), ("openalex", 9), ("dblp", 11)):
        assert f"content/records/{folder}/: 0 new, 0 updated, {count} unchanged, 0 removed" in again.stdout


@pytest.mark.slow
def test_a_fetched_file_edited_by_hand_is_never_overwritten_whatever_its_source(tmp_path, scholarly_server):
    server = scholarly_server()
    site = make_site(tmp_path / "site")
    assert fetch_from(site, server, "--dblp", DBLP).returncode == 0
    edited = site / "content/records/dblp/phd-cn-Lin26.yaml"
    edited.write_text(edited.read_text().replace("source: Peking University, China", "source: PKU"))
    before = edited.read_bytes()

    result = fetch_from(site, server, "--dblp", DBLP, "--prune")

    assert result.returncode == 0, result.stderr
    assert edited.read_bytes() == before
    assert "content/records/dblp/phd-cn-Lin26.yaml:1: warning: edited by hand" in result.stderr


@pytest.mark.slow
def test_all_sources_together_still_build(tmp_path, scholarly_server, arxiv_server):
    server = scholarly_server()
    site = make_site(tmp_path / "site", PROFILE_WITH_EMAIL)

    result = fetch_from(
        site, server, "--author", "Sheng Lin", "--orcid", ORCID, "--openalex", OPENALEX, "--dblp", DBLP, env={"SITEGEN_ARXIV_API": arxiv_server().api_url}
    )

    assert result.returncode == 0, result.stderr
    check = subprocess.run([sys.executable, "-m", "sitegen", "check", "--site", str(site)], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr


@pytest.mark.slow
def test_500_works_from_openalex_take_under_5_seconds_of_work(tmp_path, scholarly_server):
    """A large profile: 500 works in a few pages, written in under 5 s of the process's CPU time. Its CPU time, not
    the wall clock: on a busy machine (CI's other worker) the same work takes twice as long to come round; the
    disk's part (one flush for the batch, not one per file) is test_fetch_records's."""
    fixtures = tmp_path / "fixtures"
    shutil.copytree(SCHOLARLY_FIXTURES, fixtures)
    works = fixtures / "openalex" / "works"
    template = json.loads((works / "W4412853019.json").read_text(encoding="utf-8"))
    shutil.rmtree(works)
    works.mkdir()
    for number in range(500):
        work = {
            **template,
            "id": f"https://openalex.org/W9{number:09d}",
            "title": f"Generated work {number}",
            "display_name": f"Generated work {number}",
            "doi": f"https://doi.org/10.5555/generated.{number}",
            "ids": {"openalex": f"https://openalex.org/W9{number:09d}"},
            "cited_by_count": number % 37,
            "publication_year": 2000 + number % 26,
            "publication_date": f"{2000 + number % 26}-03-01",
        }
        (works / f"W9{number:09d}.json").write_text(json.dumps(work), encoding="utf-8")
    server = scholarly_server(fixtures=fixtures)
    site = make_site(tmp_path / "site")

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = fetch_from(site, server, "--openalex", OPENALEX)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the fetch is the one child that ended in between
    seconds = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

    assert result.returncode == 0, result.stderr
    assert len(records_of(site, "openalex")) == 500
    assert len(server.requests("openalex")) <= 4, "500 works are three pages of 200 (and the author), not a request each"
    print(f"\n500 OpenAlex works fetched and written in {seconds:.2f} s of CPU time")
    assert seconds < 5, f"{seconds:.1f} s of CPU time"


# --------------------------------------------------------------------------
# 11. keeping your own papers: --review, --keep N, coauthors:, the Markdown summary
# --------------------------------------------------------------------------


def group_number_of(review: str, record_id: str) -> int:
    for block in re.split(r"\n(?=  group \d+: )", review):
        match = re.match(r"  group (\d+): ", block)
        if match and record_id in block:
            return int(match.group(1))
    raise AssertionError(f"{record_id} in no group:\n{review}")


@pytest.mark.slow
def test_keeping_the_peking_university_group_leaves_exactly_its_six_records(tmp_path, arxiv_server):
    server = arxiv_server()
    profile = (
        "# who I am\nname: Sheng Lin  # as on my papers\n\narxiv:\n  authors: [Sheng Lin]  # my name on arXiv\n"
        '  # exclude_ids: ["2302.00001"]\n  exclude_categories: [hep-ph]  # the physicist\n'
    )
    site = make_site(tmp_path / "site", profile)
    assert fetch(site, server).returncode == 0
    review = fetch(site, server, "--review")
    assert review.returncode == 0, review.stderr
    number = group_number_of(review.stdout, "2509.01193")

    kept = fetch(site, server, "--keep", str(number))

    assert kept.returncode == 0, kept.stderr
    text = (site / "content" / "profile.yaml").read_text(encoding="utf-8")
    for comment in ("# who I am", "# as on my papers", "# my name on arXiv", '# exclude_ids: ["2302.00001"]', "# the physicist"):
        assert comment in text
    arxiv = yaml.safe_load(text)["arxiv"]
    assert arxiv["exclude_categories"] == ["hep-ph"]  # kept: the physics group stays out by subject
    assert set(arxiv["exclude_ids"]) == ALL_IDS - PKU - HEP_PH and all(isinstance(i, str) for i in arxiv["exclude_ids"])
    assert shown_record_count(build(site)) == 6  # the build honours it before any refetch
    again = fetch(site, server)
    assert again.returncode == 0, again.stderr
    assert fetched_ids(site) == PKU
    assert shown_record_count(build(site)) == 6 and record_pages(site) == PKU


@pytest.mark.slow
def test_keep_without_a_review_or_with_a_wrong_number_says_what_to_do(tmp_path, arxiv_server):
    site = make_site(tmp_path / "site")
    missing = fetch(site, None, "--keep", "1")
    assert missing.returncode == 1 and "sitegen fetch --review" in missing.stderr
    assert fetch(site, arxiv_server(), "--author", "Sheng Lin", "--review").returncode == 0

    wrong = fetch(site, None, "--keep", "9")

    assert wrong.returncode == 2 and "groups 1 to 5" in wrong.stderr
    assert (site / "content" / "profile.yaml").read_text() == "name: Sheng Lin\n"


@pytest.mark.slow
def test_keep_names_each_source_of_the_last_review_once_as_asked(tmp_path, arxiv_server, scholarly_server):
    site = make_site(tmp_path / "site")
    arxiv_env = {"SITEGEN_ARXIV_API": arxiv_server().api_url}
    server = scholarly_server()
    review = fetch_from(site, server, "--author", "Sheng Lin", "--orcid", ORCID, "--openalex", OPENALEX, "--review", env=arxiv_env)
    assert review.returncode == 0, review.stderr

    kept = fetch_from(site, server, "--keep", "1")

    assert kept.returncode == 0, kept.stderr
    assert f'of the last review (au:"Sheng Lin", {ORCID}, {OPENALEX}):' in kept.stdout


@pytest.mark.slow
def test_a_coauthor_in_profile_yaml_keeps_exactly_that_persons_records_without_review(tmp_path, arxiv_server):
    site = make_site(tmp_path / "site", 'name: Sheng Lin\ncoauthors: ["Bin Cui"]\n')
    summary = tmp_path / "summary.md"

    result = fetch(site, arxiv_server(), "--author", "Sheng Lin", "--summary", str(summary))

    assert result.returncode == 0, result.stderr
    assert fetched_ids(site) == PKU
    markdown = summary.read_text(encoding="utf-8")
    assert "| arXiv | 6 | 0 | 0 | 0 |" in markdown
    decision = markdown.split("### Needs your decision")[1]
    assert "coauthors:" in decision
    assert len(re.findall(r"^- \[", decision, re.MULTILINE)) == len(ALL_IDS - PKU)
    assert "Thermal Plasma" in decision and "[2409.02791](https://arxiv.org/abs/2409.02791)" in decision


@pytest.mark.slow
def test_the_markdown_summary_lists_what_changed_per_source(tmp_path, scholarly_server):
    server = scholarly_server()
    site = make_site(tmp_path / "site")
    summary = tmp_path / "summary.md"

    result = fetch_from(site, server, "--openalex", OPENALEX, "--dblp", DBLP, "--summary", str(summary))

    assert result.returncode == 0, result.stderr
    markdown = summary.read_text(encoding="utf-8")
    assert "| OpenAlex | 9 | 0 | 0 | 0 |" in markdown and "| dblp | 11 | 0 | 0 | 0 |" in markdown
    openalex = markdown.split("\n### OpenAlex\n")[1].split("\n### ")[0]
    assert "#### New (9)" in openalex and "[W4412853019](https://doi.org/10.14778/3742728.3742752)" in openalex
    assert "LobRA: Multi-tenant Fine-tuning over Heterogeneous Data" in openalex


# --------------------------------------------------------------------------
# 11. Faults the fake servers do not make (tests/fault_server.py): a connection dropped mid-answer,
#     answers that hold nothing, JSON of another shape, a maintenance page with status 200
# --------------------------------------------------------------------------


def error_lines(result: subprocess.CompletedProcess) -> list[str]:
    return [line for line in result.stderr.splitlines() if "error:" in line]


@pytest.mark.slow
@pytest.mark.parametrize(
    "options, what, under",
    [
        (("--openalex", OPENALEX), f"OpenAlex author {OPENALEX}", "/"),
        (("--dblp", DBLP), f"dblp person {DBLP}", "/"),
        (("--orcid", ORCID), f"ORCID record {ORCID}", "/orcid/"),
        (("--orcid", ORCID), f"Crossref works of ORCID {ORCID} (page 1)", "/crossref/"),
        (("--id", "2410.13333"), "arXiv query 'id_list=2410.13333'", "/"),
    ],
)
def test_a_connection_dropped_mid_answer_is_retried_then_one_line_names_the_source(tmp_path, fault_server, options, what, under):
    server = fault_server(lambda path: dropped_mid_answer(path, under))
    site = make_site(tmp_path / "site")
    before = snapshot(site)

    result = fetch(site, None, *options, "--retries", "2", "--backoff", "0.01", env=server.env)

    assert result.returncode == 1, result.stderr
    assert len([path for path in server.paths if path.startswith(under)]) == 3  # the first try and two retries
    assert "Traceback" not in result.stderr and "IncompleteRead" not in result.stderr
    [error] = error_lines(result)
    assert error.startswith(f"sitegen fetch: error: {what}")
    assert error.endswith("connection broken in the middle of the answer (13 of 5000 bytes arrived) (gave up after 3 tries); nothing was written")
    assert "retrying in" in result.stderr
    assert snapshot(site) == before


@pytest.mark.slow
def test_empty_answers_from_every_source_are_warnings_and_prune_removes_none_of_their_records(tmp_path, scholarly_server, fault_server):
    """docs/fetching.md: an empty answer is a warning naming the query, and never wipes a site, whichever source sent it."""
    site = make_site(tmp_path / "site", f"name: Sheng Lin\norcid: {ORCID}\nopenalex: {OPENALEX}\ndblp: {DBLP}\n")
    assert fetch_from(site, scholarly_server()).returncode == 0
    before = snapshot(site)
    assert len([name for name in before if name.startswith("content/records/")]) == 9 + 3 + 9 + 11
    server = fault_server(empty_answers)
    summary = tmp_path / "summary.md"

    result = fetch(site, None, "--prune", "--summary", str(summary), env=server.env)

    assert result.returncode == 0, result.stderr
    assert snapshot(site) == before  # nothing removed, nothing rewritten
    for warning in [
        f"warning: ORCID works of {ORCID} (content/profile.yaml:2: field 'orcid'): no records found",
        f"warning: OpenAlex works of {OPENALEX} (content/profile.yaml:3: field 'openalex'): no records found",
        f"warning: dblp publications of {DBLP} (content/profile.yaml:4: field 'dblp'): no records found",
    ]:
        assert warning in result.stderr
    assert f"Crossref works of ORCID {ORCID}" not in result.stderr  # most publishers send Crossref no iD: no warning of its own
    for source in ("ORCID", "Crossref", "OpenAlex", "dblp"):  # but the Crossref records it has are kept, and that is said
        assert f"warning: --prune removed no {source} record" in result.stderr
    assert "0 removed" in result.stdout and "removed content/records" not in result.stdout
    warnings = summary.read_text(encoding="utf-8").split("### Warnings", 1)[1]
    assert f"OpenAlex works of {OPENALEX}" in warnings and "no records found" in warnings


@pytest.mark.slow
def test_an_empty_answer_without_prune_is_a_warning_too(tmp_path, fault_server):
    site = make_site(tmp_path / "site")

    result = fetch(site, None, "--openalex", OPENALEX, env=fault_server(empty_answers).env)

    assert result.returncode == 0, result.stderr
    assert f"warning: OpenAlex works of {OPENALEX} (--openalex): no records found" in result.stderr
    assert not (site / "content" / "records" / "openalex").exists()


@pytest.mark.slow
def test_a_well_formed_page_that_is_no_dblp_list_is_an_error_not_an_empty_list(tmp_path, scholarly_server, fault_server):
    site = make_site(tmp_path / "site")
    assert fetch_from(site, scholarly_server(), "--dblp", DBLP).returncode == 0
    before = snapshot(site)
    server = fault_server(always(MAINTENANCE_PAGE, "text/html"))

    result = fetch(site, None, "--dblp", DBLP, "--prune", "--retries", "0", env=server.env)

    assert result.returncode == 1
    assert error_lines(result) == [
        f"sitegen fetch: error: dblp person {DBLP}: not a dblp answer (root element 'html': 'Service maintenance'); nothing was written"
    ]
    assert snapshot(site) == before


@pytest.mark.slow
@pytest.mark.parametrize(
    "options, what, body, said",
    [
        (
            ("--doi", "10.5555/jdls.2025.0142"),
            "Crossref DOI 10.5555/jdls.2025.0142",
            b"[]",
            "unexpected answer from Crossref: a list ([]) where an object was expected",
        ),
        (
            ("--doi", "10.5555/jdls.2025.0142"),
            "Crossref DOI 10.5555/jdls.2025.0142",
            b'{"message": "ok", "items": null}',
            "unexpected answer from Crossref: 'message' is a string (\"ok\"), not an object",
        ),
        (("--openalex", OPENALEX), f"OpenAlex author {OPENALEX}", b"[]", "unexpected answer from OpenAlex: a list ([]) where an object was expected"),
        (("--orcid", ORCID), f"ORCID record {ORCID}", b"[]", "unexpected answer from ORCID: a list ([]) where an object was expected"),
        (("--orcid", ORCID), f"Crossref works of ORCID {ORCID} (page 1)", b"[]", "unexpected answer from Crossref: a list ([]) where an object was expected"),
        (("--dblp-name", "Sheng Lin"), "dblp author search 'Sheng Lin'", b"[]", "unexpected answer from dblp: a list ([]) where an object was expected"),
    ],
)
def test_json_of_an_unexpected_shape_is_one_line_naming_the_source(tmp_path, fault_server, options, what, body, said):
    site = make_site(tmp_path / "site")

    under = "/orcid/" if what.startswith("ORCID") else "/"
    result = fetch(site, None, *options, "--retries", "0", env=fault_server(always(body, under=under)).env)

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert error_lines(result) == [f"sitegen fetch: error: {what}: {said}; nothing was written"]
    assert not (site / "content" / "records").exists()


@pytest.mark.slow
@pytest.mark.parametrize("options, what", [(("--openalex", OPENALEX), f"OpenAlex author {OPENALEX}"), (("--orcid", ORCID), f"ORCID record {ORCID}")])
def test_a_maintenance_page_with_status_200_is_named_an_html_page_and_quoted(tmp_path, fault_server, options, what):
    site = make_site(tmp_path / "site")

    under = "/orcid/" if what.startswith("ORCID") else "/"
    result = fetch(site, None, *options, "--retries", "0", env=fault_server(always(MAINTENANCE_PAGE, "text/html", under)).env)

    assert result.returncode == 1
    assert error_lines(result) == [f"sitegen fetch: error: {what}: an HTML page, not a JSON answer (text/html): 'Service maintenance'; nothing was written"]


ESCAPES = b"\x1b]0;PWN\x07\x1b[2J plain \xff"  # a window title, a cleared screen, a byte that is no UTF-8


@pytest.mark.parametrize(
    "status, said",
    [
        ("200 OK", "not a JSON answer (text/plain): '\\x1b]0;PWN\\x07\\x1b[2J plain \ufffd'"),
        ("404 Not Found", "HTTP 404 Not Found: '\\x1b]0;PWN\\x07\\x1b[2J plain \ufffd'"),
    ],
)
def test_a_servers_text_is_quoted_escaped_on_one_line_html_page_or_not(tmp_path, fault_server, status, said):
    site = make_site(tmp_path / "site")
    server = fault_server(lambda path: http_answer(ESCAPES, "text/plain", status))

    result = fetch(site, None, "--doi", "10.1000/x", "--retries", "0", env=server.env)

    assert result.returncode == 1
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    assert error_lines(result) == [f"sitegen fetch: error: Crossref DOI 10.1000/x: {said}; nothing was written"]


@pytest.mark.parametrize("body", [b"<html><body>" + b"<script" * 200_000, b"<html><body>" + b"<!--" * 350_000], ids=["script", "comment"])
def test_a_megabyte_page_of_unclosed_scripts_or_comments_is_named_at_once(tmp_path, fault_server, body):
    """A captive portal's or a hostile mirror's 1.4 MB page: its text is read from its first kilobytes, in one pass
    (a pattern over the whole page took minutes: the time grew with the square of its size)."""
    site = make_site(tmp_path / "site")
    server = fault_server(always(body, "text/html"))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = fetch(site, None, "--doi", "10.1000/x", "--retries", "0", env=server.env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the fetch is the one child that ended in between

    # the process's work (CPU time: a busy machine stretches the wall clock) for a 1.4 MB answer; the page's reading: test_sources_http
    assert after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime < 10
    assert error_lines(result) == ["sitegen fetch: error: Crossref DOI 10.1000/x: an HTML page, not a JSON answer (text/html): no text; nothing was written"]


@pytest.mark.slow
def test_the_summary_lists_the_files_left_as_they_are_because_they_were_edited_by_hand(tmp_path, scholarly_server):
    server = scholarly_server()
    site = make_site(tmp_path / "site")
    assert fetch_from(site, server, "--dblp", DBLP).returncode == 0
    edited = site / "content/records/dblp/phd-cn-Lin26.yaml"
    edited.write_text(edited.read_text().replace("source: Peking University, China", "source: PKU"))
    summary = tmp_path / "summary.md"

    result = fetch_from(site, server, "--dblp", DBLP, "--summary", str(summary))

    assert result.returncode == 0, result.stderr
    markdown = summary.read_text(encoding="utf-8")
    assert "| dblp | 0 | 0 | 10 | 0 |" in markdown
    warnings = markdown.split("### Warnings\n", 1)[1]
    assert "- content/records/dblp/phd-cn-Lin26.yaml:1: warning: edited by hand, so fetch leaves it as it is" in warnings


@pytest.mark.slow
def test_fetch_says_when_the_sites_refresh_workflow_would_leave_its_records_out(tmp_path, scholarly_server):
    """A refresh workflow of an older `sitegen init` commits content/records/arxiv only: fetching ORCID's works with
    it in the site warns at its line (the weekly run's log shows it), and the records are written all the same."""
    server = scholarly_server()
    site = make_site(tmp_path / "site", PROFILE_WITH_EMAIL)
    workflow = site / ".github" / "workflows" / "refresh-publications.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text("jobs:\n  refresh:\n    steps:\n      - with:\n          add-paths: content/records/arxiv\n", encoding="utf-8")
    result = fetch_from(site, server, "--orcid", f"https://orcid.org/{ORCID}", delay="0.05")
    assert result.returncode == 0, result.stderr
    assert set(records_of(site, "orcid")) == ORCID_WORKS
    (warning,) = [line for line in result.stderr.splitlines() if line.startswith(".github/")]
    assert warning.startswith(".github/workflows/refresh-publications.yml:5: warning: this workflow, written by an older `sitegen init`")
    assert "orcid (--orcid)" in warning and "crossref (--orcid)" in warning


def industry_orcid_fixtures(root: Path) -> Path:
    """The scholarly fixtures, the ORCID record holding three more works of an industry researcher: a granted patent
    (ORCID's type `patent`, its number an external id of type `pat`), an RFC (`technical-standard`, the RFC Editor's
    DOI) and a talk (`lecture-speech`)."""
    fixtures = root / "sources"
    shutil.copytree(SCHOLARLY_FIXTURES, fixtures)
    record = fixtures / "orcid" / ORCID
    works = json.loads((record / "works.json").read_text(encoding="utf-8"))
    template = json.loads((record / "work" / "193310478.json").read_text(encoding="utf-8"))
    added = [
        (900000001, "patent", "Method for scheduling straggler-aware gradient updates", {"pat": "US11503892B2"}, None),
        (900000002, "technical-standard", "The Oblivious Telemetry Protocol", {"doi": "10.17487/RFC9420"}, "RFC Editor"),
        (900000003, "lecture-speech", "Training large models on heterogeneous clusters", {}, "USENIX Enigma 2025"),
    ]
    for put_code, kind, title, ids, venue in added:
        external = {"external-id": [{"external-id-type": k, "external-id-value": v, "external-id-relationship": "self"} for k, v in ids.items()]}
        work = {
            **template,
            "put-code": put_code,
            "path": f"/{ORCID}/work/{put_code}",
            "title": {"title": {"value": title}, "subtitle": None, "translated-title": None},
            "journal-title": {"value": venue} if venue else None,
            "type": kind,
            "publication-date": {"year": {"value": "2023"}, "month": {"value": "07"}, "day": {"value": "11"}},
            "external-ids": external,
        }
        (record / "work" / f"{put_code}.json").write_text(json.dumps(work), encoding="utf-8")
        summary = {
            key: work[key] for key in ("put-code", "source", "title", "external-ids", "url", "type", "publication-date", "journal-title", "visibility", "path")
        }
        works["group"].append({"last-modified-date": None, "external-ids": external, "work-summary": [{**summary, "display-index": "0"}]})
    (record / "works.json").write_text(json.dumps(works), encoding="utf-8")
    return fixtures


@pytest.mark.slow
def test_an_industry_researchers_patent_rfc_and_talk_on_orcid(tmp_path, scholarly_server):
    """ORCID's `technical-standard` (an RFC) was fetched as "Other", a patent's number (its `pat` id) was not shown,
    and a talk (`lecture-speech`) became a record of type other, listed and counted among the publications."""
    server = scholarly_server(fixtures=industry_orcid_fixtures(tmp_path))
    site = make_site(tmp_path / "site")

    result = fetch_from(site, server, "--orcid", ORCID)

    assert result.returncode == 0, result.stderr
    fetched = records_of(site, "orcid")
    assert "orcid-900000003" not in fetched  # the talk
    assert "1 work of type talk left out" in result.stderr and "'Training large models on heterogeneous clusters'" in result.stderr
    assert (fetched["orcid-900000001"]["type"], fetched["orcid-900000001"]["number"]) == ("patent", "US11503892B2")
    assert fetched["orcid-900000002"]["type"] == "report"
    home = build(site)
    venues = {
        item.select_one("h4").get_text(" ", strip=True): " ".join(item.select_one("p.venue").get_text().split())
        for item in home.select("#publications li.record")
    }
    assert venues["Method for scheduling straggler-aware gradient updates"].startswith("Patent US11503892B2 · 2023")
    assert venues["The Oblivious Telemetry Protocol"].startswith("RFC 9420 · RFC Editor · 2023")
    assert "Training large models on heterogeneous clusters" not in venues
