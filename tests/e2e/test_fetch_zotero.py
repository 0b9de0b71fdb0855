"""`sitegen fetch` from a Zotero library, end to end: the real command against the fake Zotero Web API
(tests/fixtures/fake_zotero.py, serving tests/fixtures/sources/zotero/) on 127.0.0.1, and the built site's HTML."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import fetched_records
from fault_server import MAINTENANCE_PAGE, fault_server, http_answer  # noqa: F401  (the fixture)
from zotero_server import PRIVATE_KEY, FakeZotero, zotero_server  # noqa: F401  (the fixture)

REPO = Path(__file__).resolve().parents[2]
ZOTERO_DIR = Path("content/records/zotero")
OWNER = "name: Amaka Okafor\nname_variants: [A. Okafor]\n"
GROUP = "zotero:\n  group: 12345\n"
OWNERS_ITEMS = {"okafor2023gut", "okafor2021rumen", "okafor2019methanogens", "olayinka2024fermentation"}

pytestmark = pytest.mark.slow


def make_site(root: Path, profile: str = OWNER + GROUP) -> Path:
    (root / "content").mkdir(parents=True)
    (root / "content" / "site.yaml").write_text("title: Okafor Lab\nbase_url: https://example.org/okafor/\n", encoding="utf-8")
    (root / "content" / "profile.yaml").write_text(profile, encoding="utf-8")
    return root


def fetch(site: Path, server: FakeZotero, *args: str, env: dict[str, str] | None = None, delay: str = "0") -> subprocess.CompletedProcess:
    full_env = {key: value for key, value in os.environ.items() if key != "ZOTERO_API_KEY"}
    full_env.update({**server.env, **(env or {})})
    command = [sys.executable, "-m", "sitegen", "fetch", "--site", str(site), "--delay", delay, "--backoff", "0.2", *args]
    return subprocess.run(command, cwd=REPO, env=full_env, capture_output=True, text=True, timeout=90)


def build(site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sitegen", "build", "--site", str(site)], cwd=REPO, capture_output=True, text=True, timeout=120)


def page(site: Path, relative: str) -> BeautifulSoup:
    return BeautifulSoup((site / "output" / relative).read_text(encoding="utf-8"), "lxml")


def fetched(site: Path) -> dict[str, dict]:
    return fetched_records(site, "zotero")


def snapshot(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted((site / "content").rglob("*")) if p.is_file()}


def test_a_group_librarys_items_by_the_owner_are_fetched_page_by_page_and_shown(tmp_path, zotero_server):
    server = zotero_server("--page-cap", "3")
    site = make_site(tmp_path / "site")

    result = fetch(site, server)

    assert result.returncode == 0, result.stderr
    records = fetched(site)
    assert set(records) == OWNERS_ITEMS  # not John Smith's paper, the attachment, the note, nor the item in the trash
    asked = server.requests()
    assert [(r["path"], r["params"]["start"]) for r in asked] == [("/groups/12345/items/top", "0"), ("/groups/12345/items/top", "3")]
    assert all(r["headers"]["Zotero-API-Version"] == "3" and r["params"]["itemType"] == "-attachment || note" for r in asked)
    assert all("Zotero-API-Key" not in r["headers"] for r in asked)  # a public library: no key, none sent
    gut = records["okafor2023gut"]  # Better BibTeX's citation key is the id; Extra's PMID an id
    assert (gut["doi"], gut["ids"], gut["origin"]) == ("10.5555/jam.2023.0012", {"pmid": "37001234", "zotero": "ABCD2345"}, "zotero")
    assert records["olayinka2024fermentation"]["arxiv"] == "2401.01234"
    assert records["okafor2021rumen"]["type"] == "chapter" and records["okafor2019methanogens"]["type"] == "thesis"
    assert "2 left out: no author is you or a person of the site" in result.stdout

    built = build(site)
    assert built.returncode == 0, built.stderr
    assert "warning" not in built.stderr  # zotero: in profile.yaml is a setting the build knows
    index = page(site, "index.html")
    titles = {" ".join(a.get_text().split()) for a in index.select("#publications a[href*='records/']")}
    assert "Fermentation kinetics in Ọ̀yọ́ cattle breeds" in titles and "Rumen archaea" in titles
    assert "somebody else" not in index.get_text() and "threw away" not in index.get_text()
    preprint = " ".join(page(site, "records/olayinka2024fermentation/index.html").select_one("article").get_text().split())
    assert "Ṣadé Ọláyínká, Amaka Okafor" in preprint and "Preprint · arXiv" in preprint
    thesis = page(site, "records/okafor2019methanogens/index.html").select_one("article").get_text()
    assert "PhD thesis" in thesis and "University of Lagos" in thesis
    chapter = page(site, "records/okafor2021rumen/index.html").select_one("article").get_text()
    assert "Handbook of Microbial Ecology" in chapter


def test_a_second_fetch_changes_nothing(tmp_path, zotero_server):
    server = zotero_server()
    site = make_site(tmp_path / "site")
    assert fetch(site, server).returncode == 0
    before = snapshot(site)

    again = fetch(site, server)

    assert again.returncode == 0, again.stderr
    assert "content/records/zotero/: 0 new, 0 updated, 4 unchanged, 0 removed" in again.stdout
    assert snapshot(site) == before


def test_a_person_of_a_lab_site_has_their_items_kept(tmp_path, zotero_server):
    server = zotero_server()
    site = make_site(tmp_path / "site")
    (site / "content" / "people").mkdir()
    (site / "content" / "people" / "kenji.yaml").write_text("name: Kenji Nakamura\n", encoding="utf-8")

    result = fetch(site, server)

    assert result.returncode == 0, result.stderr
    assert set(fetched(site)) == OWNERS_ITEMS | {"nakamura2022sensors"}

    (site / "content" / "people" / "kenji.yaml").write_text("name: Kenji Nakamura\nzotero:\n  user: 4243\n", encoding="utf-8")
    built = build(site)
    assert built.returncode == 0, built.stderr
    assert (
        "content/people/kenji.yaml:2: warning: field 'zotero': not fetched from a person's file: a Zotero library is fetched from content/profile.yaml"
        in built.stderr
    )


def test_a_collection_of_ones_own_papers_with_all_items_keeps_every_item(tmp_path, zotero_server):
    server = zotero_server()
    site = make_site(tmp_path / "site", "name: Amaka Okafor-Bello\n")  # a name none of the items gives

    result = fetch(site, server, "--zotero-group", "https://www.zotero.org/groups/12345/okafor_lab", "--zotero-collection", "MYPB2345", "--zotero-all-items")

    assert result.returncode == 0, result.stderr
    assert set(fetched(site)) == OWNERS_ITEMS
    assert {r["path"] for r in server.requests()} == {"/groups/12345/collections/MYPB2345/items/top"}


def test_a_tag_in_profile_yaml_is_asked_for(tmp_path, zotero_server):
    server = zotero_server()
    site = make_site(tmp_path / "site", OWNER + "zotero:\n  group: 12345\n  tag: mine\n")

    result = fetch(site, server)

    assert result.returncode == 0, result.stderr
    assert {r["params"]["tag"] for r in server.requests()} == {"mine"}
    assert set(fetched(site)) == {"okafor2023gut", "okafor2021rumen", "olayinka2024fermentation"}


def test_the_api_key_is_sent_as_its_header_and_written_nowhere(tmp_path, zotero_server):
    server = zotero_server()
    site = make_site(tmp_path / "site", OWNER + "zotero:\n  user: 4242\n")

    result = fetch(site, server, "--summary", str(site / "summary.md"), env={"ZOTERO_API_KEY": PRIVATE_KEY})

    assert result.returncode == 0, result.stderr
    assert set(fetched(site)) == {"okafor2023gut"}
    assert [r["headers"].get("Zotero-API-Key") for r in server.requests()] == [PRIVATE_KEY]
    assert build(site).returncode == 0
    assert PRIVATE_KEY not in result.stdout + result.stderr
    files = [path for path in site.rglob("*") if path.is_file()]
    assert files and not [path for path in files if PRIVATE_KEY.encode() in path.read_bytes()]


@pytest.mark.parametrize(
    "key, told",
    [
        ("not-the-key", "check that $ZOTERO_API_KEY is a key with read access to users/4242 (zotero.org/settings/keys)"),
        (None, "the library is private: set $ZOTERO_API_KEY to a key with read access to it"),
    ],
)
def test_a_refused_key_is_an_error_saying_what_to_check_and_content_stays(tmp_path, zotero_server, key, told):
    server = zotero_server()
    site = make_site(tmp_path / "site", OWNER + "zotero:\n  user: 4242\n")
    (site / ZOTERO_DIR).mkdir(parents=True)
    (site / ZOTERO_DIR / "kept.yaml").write_text("id: kept\ntitle: Kept\nauthors: [Amaka Okafor]\nyear: 2020\n", encoding="utf-8")
    before = snapshot(site)

    result = fetch(site, server, env={"ZOTERO_API_KEY": key} if key else None)

    assert result.returncode == 1
    assert "sitegen fetch: error: Zotero items of users/4242 (from 0): HTTP 403 Forbidden: " + told in result.stderr
    assert result.stderr.rstrip().endswith("nothing was written")
    assert not key or key not in result.stdout + result.stderr
    assert snapshot(site) == before


def test_a_library_that_is_not_there_is_an_error_naming_what_to_check(tmp_path, zotero_server):
    server = zotero_server()
    site = make_site(tmp_path / "site", OWNER + "zotero:\n  group: 99999\n")

    result = fetch(site, server)

    assert result.returncode == 1
    assert "HTTP 404 Not Found: no library groups/99999 (check the group or user id, and the collection key" in result.stderr
    assert not (site / ZOTERO_DIR).exists()


def test_throttling_is_waited_for_as_retry_after_says(tmp_path, zotero_server):
    server = zotero_server("--throttle-first", "1", "--retry-after", "1")
    site = make_site(tmp_path / "site")

    result = fetch(site, server)

    assert result.returncode == 0, result.stderr
    first, second = server.requests()[:2]
    assert first["status"] == 429 and second["status"] == 200
    assert second["t"] - first["t_end"] >= 0.95  # Retry-After: 1, more than --backoff 0.2
    assert set(fetched(site)) == OWNERS_ITEMS


def test_a_backoff_header_holds_the_next_request_back(tmp_path, zotero_server):
    server = zotero_server("--page-cap", "3", "--backoff", "1")
    site = make_site(tmp_path / "site")

    result = fetch(site, server)

    assert result.returncode == 0, result.stderr
    first, second = server.requests()
    assert second["t"] - first["t_end"] >= 0.95


def test_the_zotero_setting_is_checked_at_its_lines(tmp_path, zotero_server):
    server = zotero_server()
    site = make_site(tmp_path / "site", OWNER + "zotero:\n  group: 12345\n  colection: MYPB2345\n")

    typo = fetch(site, server)

    assert typo.returncode == 0
    built = build(site)
    assert "content/profile.yaml:5: warning: field 'zotero.colection': unknown setting; did you mean 'collection'?" in built.stderr

    (site / "content" / "profile.yaml").write_text(OWNER + "zotero:\n  group: okafor_lab\n", encoding="utf-8")
    wrong = fetch(site, server)
    assert wrong.returncode == 1
    assert "content/profile.yaml:4: field 'zotero.group': 'okafor_lab' is not a Zotero library id" in wrong.stderr

    (site / "content" / "profile.yaml").write_text(OWNER + "zotero:\n  collection: MYPB2345\n", encoding="utf-8")
    no_library = fetch(site, server)
    assert no_library.returncode == 1 and "content/profile.yaml:3: field 'zotero': names no library" in no_library.stderr
    assert server.requests() == [r for r in server.requests() if r["path"].startswith("/groups/12345/")]  # nothing asked of a wrong one


def test_a_collection_without_a_library_on_the_command_line_is_a_usage_error(tmp_path, zotero_server):
    server = zotero_server()
    site = make_site(tmp_path / "site", OWNER)

    result = fetch(site, server, "--zotero-collection", "MYPB2345")

    assert result.returncode == 2
    assert "--zotero-collection: a Zotero collection, tag or all_items needs its library: --zotero-group ID or --zotero-user ID" in result.stderr
    assert server.requests() == []


def test_a_zotero_record_and_another_of_the_same_arxiv_id_are_one_record(tmp_path, zotero_server):
    server = zotero_server()
    site = make_site(tmp_path / "site")
    assert fetch(site, server).returncode == 0
    (site / "content" / "records" / "mine.yaml").write_text(
        'title: Fermentation kinetics in Oyo cattle breeds\narxiv: "2401.01234"\nauthors: [Amaka Okafor]\nyear: 2024\nfeatured: true\n', encoding="utf-8"
    )

    built = build(site)

    assert built.returncode == 0, built.stderr
    index = page(site, "index.html")
    assert int(index.select_one("#publications .count")["data-count"]) == 4


def test_review_lists_what_a_shared_library_keeps_and_exclude_ids_leaves_an_item_out(tmp_path, zotero_server):
    server = zotero_server()
    site = make_site(tmp_path / "site")

    review = fetch(site, server, "--review")

    assert review.returncode == 0, review.stderr
    assert "Zotero: 4 of 6 records name you or a person of content/people/ among their authors:" in review.stdout
    assert "  left out  smith2022reading (2022) A reading of somebody else's: rumen metagenomics at scale — Smith, John" in review.stdout
    assert "  kept      okafor2021rumen (2021) Rumen archaea — Okafor, A.; Nakamura, Kenji" in review.stdout
    assert not (site / ZOTERO_DIR).exists()

    (site / "content" / "profile.yaml").write_text(OWNER + GROUP + "arxiv:\n  exclude_ids: [okafor2021rumen]\n", encoding="utf-8")
    result = fetch(site, server)
    assert result.returncode == 0, result.stderr
    assert set(fetched(site)) == OWNERS_ITEMS - {"okafor2021rumen"}


def test_a_server_that_echoes_the_key_in_its_error_does_not_get_it_printed(tmp_path, fault_server):
    server = fault_server(lambda path: http_answer(f"Invalid request for key {PRIVATE_KEY}".encode(), "text/plain", "400 Bad Request"))
    site = make_site(tmp_path / "site")

    result = subprocess.run(
        [sys.executable, "-m", "sitegen", "fetch", "--site", str(site), "--delay", "0"],
        cwd=REPO,
        env={**os.environ, "SITEGEN_ZOTERO_API": server.base_url, "ZOTERO_API_KEY": PRIVATE_KEY},
        capture_output=True,
        text=True,
        timeout=90,
    )

    assert result.returncode == 1
    assert "Zotero items of groups/12345 (from 0): HTTP 400 Bad Request: 'Invalid request for key [the API key]'" in result.stderr
    assert PRIVATE_KEY not in result.stdout + result.stderr


def test_a_maintenance_page_is_no_list_of_items(tmp_path, fault_server):
    server = fault_server(lambda path: http_answer(MAINTENANCE_PAGE, "text/html; charset=utf-8"))
    site = make_site(tmp_path / "site")
    before = snapshot(site)

    result = subprocess.run(
        [sys.executable, "-m", "sitegen", "fetch", "--site", str(site), "--delay", "0", "--retries", "0"],
        cwd=REPO,
        env={**os.environ, "SITEGEN_ZOTERO_API": server.base_url},
        capture_output=True,
        text=True,
        timeout=90,
    )

    assert result.returncode == 1 and "Zotero items of groups/12345 (from 0):" in result.stderr and "nothing was written" in result.stderr
    assert snapshot(site) == before
