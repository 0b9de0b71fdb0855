"""`sitegen fetch` from NASA ADS, end to end: the real command against the fake ADS API (tests/fixtures/fake_ads.py,
serving tests/fixtures/sources/ads/) on 127.0.0.1, and the built site's HTML."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from ads_server import NAME_QUERY, OWNER_ORCID, PRIVATE_LIBRARY, PUBLIC_LIBRARY, TOKEN, FakeADS, ads_server  # noqa: F401  (the fixture)
from bs4 import BeautifulSoup
from conftest import fetched_records, run_sitegen, run_sitegen_process, write_site

ADS_DIR = Path("content/records/ads")
OWNER = "name: Sheng Lin\nname_variants: ['Lin, S.']\n"
# the works ADS links to the owner's iD: its talk is left out
CLAIMED = {"2021ApJ...912L..25L", "2024arXiv240301234L", "2022SPIE12190E..0XL", "2019PhDT.........5L", "2023A&A...670A..42L", "2020AAS...23540203L"}

pytestmark = pytest.mark.slow


def make_site(root: Path, profile: str = OWNER) -> Path:
    return write_site(root, {"content/site.yaml": "title: Sheng Lin\nbase_url: https://example.org/lin/\n", "content/profile.yaml": profile})


def fetch(site: Path, server: FakeADS, *args: str, token: str = TOKEN) -> subprocess.CompletedProcess:
    """`sitegen fetch` in a process of its own, pointed at the fake ADS, with `token` ("" for none) in $ADS_API_TOKEN."""
    env = {**server.env, "ADS_API_TOKEN": token}
    return run_sitegen_process("fetch", "--site", str(site), "--delay", "0", "--backoff", "0.2", *args, env=env, timeout=90)


def build(site: Path) -> subprocess.CompletedProcess:
    return run_sitegen("build", "--site", str(site))


def page(site: Path, relative: str) -> BeautifulSoup:
    return BeautifulSoup((site / "output" / relative).read_text(encoding="utf-8"), "lxml")


def fetched(site: Path) -> dict[str, dict]:
    return fetched_records(site, "ads")


def link(soup: BeautifulSoup, text: str) -> str | None:
    """The address of the first link whose text is `text`."""
    found = next((a for a in soup.select("article a") if " ".join(a.get_text().split()) == text), None)
    return found.get("href") if found is not None else None


def every_file_text(site: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(site.rglob("*")) if p.is_file())


def test_an_orcid_ids_works_are_fetched_page_by_page_and_shown(tmp_path, ads_server):
    server = ads_server("--page-cap", "4")
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--ads", f"https://orcid.org/{OWNER_ORCID}")

    assert result.returncode == 0, result.stderr
    records = fetched(site)
    assert set(records) == CLAIMED
    assert (
        "warning: ADS 2021csss.confE..99L ('Masers in five minutes'): a talk is no publication: add it to content/talks/ to show it; left out" in result.stderr
    )
    asked = server.requests()
    assert [(r["path"], r["params"]["q"], r["params"]["start"]) for r in asked] == [
        ("/v1/search/query", f"orcid:{OWNER_ORCID}", "0"),
        ("/v1/search/query", f"orcid:{OWNER_ORCID}", "4"),
    ]
    assert all(r["auth"] == f"Bearer {TOKEN}" and TOKEN not in str(r["params"]) for r in asked)  # the token in the header alone
    assert TOKEN not in result.stdout + result.stderr + every_file_text(site)
    article = records["2021ApJ...912L..25L"]
    assert (article["origin"], article["type"], article["doi"], article["arxiv"]) == ("ads", "article", "10.5555/apjl.abf5e1", "2104.01234")
    assert article["ids"]["ads"] == "2021ApJ...912L..25L" and article["citations"] == 14
    assert records["2024arXiv240301234L"]["type"] == "preprint"
    assert (site / ADS_DIR / "2023A-A...670A..42L.yaml").is_file()  # the & of A&A is no character of a file's name

    built = build(site)
    assert built.returncode == 0, built.stderr
    assert "warning" not in built.stderr
    index = page(site, "index.html")
    titles = {" ".join(a.get_text().split()) for a in index.select("#publications a[href*='records/']")}
    assert {"The H2O Maser Disk of NGC 4258 & Its Warp", "CO isotopologues in the Perseus arm", "Dust Temperatures in the Outer Galaxy"} <= titles
    maser = page(site, "records/2021ApJ...912L..25L/index.html")
    assert maser.select_one("h1 sub").get_text() == "2"
    assert link(maser, "ADS") == "https://ui.adsabs.harvard.edu/abs/2021ApJ...912L..25L"
    assert (link(maser, "arXiv"), link(maser, "DOI")) == ("https://arxiv.org/abs/2104.01234", "https://doi.org/10.5555/apjl.abf5e1")
    text = " ".join(maser.select_one("article").get_text().split())
    assert "Journal article · The Astrophysical Journal · 2021 · 14 citations" in text
    assert "a warp of 4° between radii" in text and "alert(1)" not in text and maser.find("script", string=lambda s: s and "alert" in s) is None
    assert link(page(site, "records/2023A-A...670A..42L/index.html"), "ADS") == "https://ui.adsabs.harvard.edu/abs/2023A%26A...670A..42L"
    thesis = " ".join(page(site, "records/2019PhDT.........5L/index.html").select_one("article").get_text().split())
    assert "University of Science and Technology of China" in thesis


def test_a_second_fetch_changes_nothing(tmp_path, ads_server):
    server = ads_server()
    site = make_site(tmp_path / "site")
    assert fetch(site, server, "--ads", OWNER_ORCID).returncode == 0
    before = {p: p.read_bytes() for p in (site / ADS_DIR).iterdir()}

    again = fetch(site, server, "--ads", OWNER_ORCID)

    assert again.returncode == 0, again.stderr
    assert "content/records/ads/: 0 new, 0 updated, 6 unchanged, 0 removed" in again.stdout
    assert {p: p.read_bytes() for p in (site / ADS_DIR).iterdir()} == before


def test_without_a_token_nothing_is_asked_and_the_message_says_where_to_get_one(tmp_path, ads_server):
    server = ads_server()
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--ads", OWNER_ORCID, token="")

    assert result.returncode == 2
    assert "--ads: ADS needs an API token: sign in at ui.adsabs.harvard.edu > Settings > API Token" in result.stderr
    assert "ADS_API_TOKEN" in result.stderr
    assert server.requests() == [] and not (site / ADS_DIR).exists()


def test_a_refused_token_writes_nothing_and_is_never_shown(tmp_path, ads_server):
    server = ads_server()
    site = make_site(tmp_path / "site")
    wrong = "wr0ng-t0ken-ZYXWVUTSRQ"

    result = fetch(site, server, "--ads", OWNER_ORCID, token=wrong)

    assert result.returncode == 1
    assert "HTTP 401 Unauthorized: ADS refused the token: check $ADS_API_TOKEN" in result.stderr and "nothing was written" in result.stderr
    assert wrong not in result.stdout + result.stderr
    assert [r["auth"] for r in server.requests()] == [f"Bearer {wrong}"]  # a 401 is not retried
    assert not (site / ADS_DIR).exists()


def test_profile_yamls_ads_library_is_fetched_and_a_private_library_says_to_make_it_public(tmp_path, ads_server):
    server = ads_server("--page-cap", "2")
    site = make_site(tmp_path / "site", OWNER + f"ads:\n  library: https://ui.adsabs.harvard.edu/public-libraries/{PUBLIC_LIBRARY}\n")

    result = fetch(site, server)

    assert result.returncode == 0, result.stderr
    assert set(fetched(site)) == {"2021ApJ...912L..25L", "2023A&A...670A..42L", "2022SPIE12190E..0XL"}
    assert [(r["path"], r["params"]["start"], r["params"]["rows"]) for r in server.requests()] == [
        (f"/v1/biblib/libraries/{PUBLIC_LIBRARY}", "0", "100"),
        (f"/v1/biblib/libraries/{PUBLIC_LIBRARY}", "2", "100"),
    ]
    built = build(site)
    assert built.returncode == 0, built.stderr
    assert "warning" not in built.stderr  # ads: in profile.yaml is a setting the build knows

    private = make_site(tmp_path / "private", OWNER + f"ads:\n  library: {PRIVATE_LIBRARY}\n")
    refused = fetch(private, server)
    assert refused.returncode == 1
    assert f"ADS library {PRIVATE_LIBRARY}: HTTP 403 Forbidden: library {PRIVATE_LIBRARY} is private: make it public in ADS" in refused.stderr
    assert not (private / ADS_DIR).exists()


def test_a_wrong_ads_setting_in_profile_yaml_is_an_error_at_its_line_before_any_request(tmp_path, ads_server):
    server = ads_server()
    site = make_site(tmp_path / "site", OWNER + "ads:\n  orcid: 0000-0003-1234-5675\n")

    result = fetch(site, server)

    assert result.returncode == 1
    assert "content/profile.yaml:4: field 'ads.orcid'" in result.stderr
    assert server.requests() == []


def test_a_query_finds_namesakes_and_exclude_ids_leaves_one_out(tmp_path, ads_server):
    server = ads_server()
    site = make_site(tmp_path / "site", OWNER + "arxiv:\n  exclude_ids: ['2018MNRAS.480.1234L']\n")

    result = fetch(site, server, "--ads-query", NAME_QUERY)

    assert result.returncode == 0, result.stderr
    assert set(fetched(site)) == {"2021ApJ...912L..25L", "2022SPIE12190E..0XL", "2019PhDT.........5L", "2023A&A...670A..42L", "2020AAS...23540203L"}
    assert [r["params"]["q"] for r in server.requests()] == [NAME_QUERY]


def test_a_rate_limit_used_up_until_tomorrow_stops_saying_when_and_writes_nothing(tmp_path, ads_server):
    server = ads_server("--page-cap", "2", "--remaining", "1")
    site = make_site(tmp_path / "site")

    result = fetch(site, server, "--ads", OWNER_ORCID)

    assert result.returncode == 1
    assert "ADS allows no more requests until" in result.stderr and "(its rate limit); try again then" in result.stderr
    assert len(server.requests()) == 1  # nothing more is sent once the limit is used up
    assert not (site / ADS_DIR).exists()


def test_a_records_doi_merges_the_ads_work_with_a_bib_entry_into_one(tmp_path, ads_server):
    server = ads_server()
    site = make_site(tmp_path / "site")
    (site / "content" / "records").mkdir(parents=True)
    (site / "content" / "records" / "mine.bib").write_text(
        '@article{lin2023co,\n  title = {{CO} isotopologues in the {Perseus} arm},\n  author = {Lin, Sheng and M{\\"u}ller, Lena},\n'
        "  journal = {A\\&A}, year = {2023}, doi = {10.5555/aa.2023.45123}\n}\n",
        encoding="utf-8",
    )
    assert fetch(site, server, "--ads", OWNER_ORCID).returncode == 0

    built = build(site)

    assert built.returncode == 0, built.stderr
    index = page(site, "index.html")
    titles = [" ".join(a.get_text().split()) for a in index.select("#publications a[href*='records/']")]
    assert titles.count("CO isotopologues in the Perseus arm") == 1
    work = page(site, "records/lin2023co/index.html")
    assert link(work, "ADS") == "https://ui.adsabs.harvard.edu/abs/2023A%26A...670A..42L"


def test_a_person_of_a_lab_site_has_their_ads_works_fetched_and_a_query_there_is_a_warning(tmp_path, ads_server):
    server = ads_server()
    site = make_site(tmp_path / "site", "name: Okafor Lab\n")
    (site / "content" / "people").mkdir()
    person = site / "content" / "people" / "sheng-lin.yaml"
    person.write_text(f"name: Sheng Lin\nads:\n  orcid: {OWNER_ORCID}\n  query: '{NAME_QUERY}'\n", encoding="utf-8")

    result = fetch(site, server)

    assert result.returncode == 0, result.stderr
    assert set(fetched(site)) == CLAIMED
    assert [r["params"]["q"] for r in server.requests()] == [f"orcid:{OWNER_ORCID}"]  # not the person's query
    built = build(site)
    assert built.returncode == 0, built.stderr
    assert "content/people/sheng-lin.yaml:4: warning: field 'ads.query': not fetched from a person's file: a query finds namesakes" in built.stderr


def test_a_querys_records_are_grouped_by_co_authors_for_review_and_kept_by_a_co_author_anchor(tmp_path, ads_server):
    server = ads_server()
    site = make_site(tmp_path / "site")

    review = fetch(site, server, "--ads-query", NAME_QUERY, "--review")

    assert review.returncode == 0, review.stderr
    lines = review.stdout.splitlines()
    group = next(line for line in lines if "Okafor, Amaka (3)" in line)
    assert group.lstrip().startswith("group ") and "3 records, 2021–2023" in group
    namesake = next(i for i, line in enumerate(lines) if "+ 2018MNRAS.480.1234L" in line)
    assert "with Brandt, Helen" in lines[namesake - 1]  # the namesake's paper is a group of its own
    assert not (site / ADS_DIR).exists()  # a review writes nothing

    anchored = make_site(tmp_path / "anchored", OWNER + "coauthors: [Amaka Okafor]\n")
    result = fetch(anchored, server, "--ads-query", NAME_QUERY, "--summary", str(tmp_path / "summary.md"))

    assert result.returncode == 0, result.stderr
    assert set(fetched(anchored)) == {"2021ApJ...912L..25L", "2022SPIE12190E..0XL", "2023A&A...670A..42L"}
    decision = (tmp_path / "summary.md").read_text(encoding="utf-8").split("### Needs your decision")[1]
    assert "Stellar flares in the Kepler field" in decision and "CO isotopologues" not in decision
