"""INSPIRE-HEP end to end, as a physicist meets it: `sitegen fetch --inspire` (or `inspire:` in profile.yaml, or in a
lab member's file) asking the fake INSPIRE (tests/fixtures/fake_inspire.py) for an author's literature, then `sitegen
build`; what the pages, the files written, the request log, stderr and the exit status show."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, built_records, fetch_from, fetched_records, run_sitegen, tree, write_site
from inspire_server import FakeInspire, inspire_server  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow  # fetches and builds run as processes

REPO = Path(__file__).resolve().parents[2]
BAI = "C.A.Okafor.1"
ORCID = "0000-0002-1825-0097"
PROFILE = "name: Chinedu A. Okafor\nemail: okafor@example.org\n"
ALL = {"inspire-2780001", "inspire-2650002", "inspire-2550003", "inspire-2450004", "inspire-2350005", "inspire-2250006"}


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def make_site(root: Path, profile: str = PROFILE, files: dict[str, str] | None = None) -> Path:
    return write_site(root, {**MINIMAL_SITE, "content/profile.yaml": profile, **(files or {})})


def fetch(site: Path, server: FakeInspire, *args: str) -> subprocess.CompletedProcess:
    return fetch_from(site, server.env, *args)


def fetched(site: Path) -> dict[str, dict]:
    return fetched_records(site, "inspire")


def links_of(page: BeautifulSoup) -> dict[str, str]:
    return {link.get_text(" ", strip=True): link["href"] for link in page.select("main a[href]")}


def text_of(element) -> str:
    return " ".join(element.get_text(" ").split())


def test_fetch_by_bai_follows_every_page_and_the_site_shows_the_records(tmp_path: Path, inspire_server) -> None:
    server = inspire_server("--page-cap", "2")  # two records a page: three pages, each found by the last one's links.next
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--inspire", BAI)
    assert result.returncode == 0, result.stderr
    assert "fetched 6 records from INSPIRE in 3 requests" in result.stdout
    first, *following = server.requests()
    assert (first["path"], first["params"]["q"], first["params"]["size"], first["params"]["sort"]) == ("/api/literature", f"a {BAI}", "25", "mostrecent")
    assert "authors.full_name" in first["params"]["fields"].split(",")
    assert [request["params"]["page"] for request in following] == ["2", "3"]
    assert all(request["user_agent"].startswith("sitegen/") and "mailto:okafor@example.org" in request["user_agent"] for request in server.requests())
    records = fetched(site)
    assert set(records) == ALL
    atlas = records["inspire-2650002"]
    assert len(atlas["authors"]) == 10 and atlas["et_al"] is True and atlas["collaboration"] == "ATLAS"  # not 2,900 names
    assert (atlas["source"], atlas["volume"], atlas["pages"], atlas["citations"], atlas["origin"]) == ("Phys. Rev. Lett.", "130", "081801", 310, "inspire")
    assert (site / "content" / "records" / "inspire" / "inspire-2650002.yaml").stat().st_size < 4000

    built = built_records(site, quiet=True)
    assert set(built) == ALL
    assert {built[i]["type"] for i in ALL} == {"preprint", "article", "inproceedings", "thesis", "chapter"}
    output = site / "output"
    page = soup(output / "records" / "inspire-2650002" / "index.html")
    assert page.select_one("h1 math") is not None  # $\sqrt{s}=13$ TeV as MathML
    authors = page.select_one("main .authors")
    byline = " ".join(authors.get_text().split())
    assert byline.startswith("Maria Aad, Maria Abbott, Maria Abeling,") and byline.endswith("Maria Adam, et al. (ATLAS Collaboration)")
    assert authors.select_one(".collaboration").get_text() == "(ATLAS Collaboration)"
    links = links_of(page)
    assert links["INSPIRE"] == "https://inspirehep.net/literature/2650002"
    assert links["DOI"] == "https://doi.org/10.1103/PhysRevLett.130.081801"
    assert page.select_one(".citations").get_text() == "310 citations"
    jhep = soup(output / "records" / "inspire-2450004" / "index.html")
    assert jhep.select_one("main .authors strong.owner").get_text() == "Chinedu A. Okafor"  # the owner's name, as the profile writes it
    assert "JHEP" in text_of(jhep.select_one("main")) and jhep.select_one("h1 math") is not None
    thesis = text_of(soup(output / "records" / "inspire-2350005" / "index.html").select_one("main"))
    assert "Imperial Coll., London" in thesis and "Tseytlin" not in thesis  # the supervisor is no author
    listed = [item["id"] for item in soup(output / "index.html").select("li.record")]
    assert listed == [f"r-{i}" for i in ("inspire-2780001", "inspire-2650002", "inspire-2550003", "inspire-2450004", "inspire-2350005", "inspire-2250006")]
    bib = (output / "publications.bib").read_text(encoding="utf-8")
    assert "ids = {Okafor:2021mno, Okafor:2021abc}" in bib  # \cite{} by INSPIRE's texkeys goes on working with biber
    assert "collaboration = {ATLAS}" in bib

    again = fetch(site, server, "--inspire", BAI)
    assert again.returncode == 0 and "0 new, 0 updated, 6 unchanged" in again.stdout


def test_the_weekly_pull_requests_list_links_a_record_without_arxiv_id_or_doi_to_its_inspire_page(tmp_path: Path, inspire_server) -> None:
    site = make_site(tmp_path / "site")
    result = fetch(site, inspire_server(), "--inspire", BAI, "--summary", str(tmp_path / "summary.md"))
    assert result.returncode == 0, result.stderr
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "- [inspire-2350005](https://inspirehep.net/literature/2350005) (2019) Scattering amplitudes at strong coupling" in summary  # the thesis
    assert "- [inspire-2450004](https://arxiv.org/abs/2106.07777) (2021) Integrable deformations" in summary


def test_an_orcid_id_in_profile_yaml_is_asked_as_inspires_orcid_search(tmp_path: Path, inspire_server) -> None:
    server = inspire_server()
    site = make_site(tmp_path / "site", profile=PROFILE + f"inspire: https://orcid.org/{ORCID}\n")
    result = fetch(site, server)
    assert result.returncode == 0, result.stderr
    assert [request["params"]["q"] for request in server.requests()] == [f"authors.ids.value:{ORCID}"]
    assert set(fetched(site)) == ALL
    assert set(built_records(site, quiet=True)) == ALL  # and `inspire:` is a field profile.yaml knows: the build warns of nothing


def test_a_lab_members_inspire_identifier_is_fetched_and_a_wrong_one_is_refused_at_its_line(tmp_path: Path, inspire_server) -> None:
    server = inspire_server()
    site = make_site(tmp_path / "site", files={"content/people/chinedu.yaml": f"name: Chinedu A. Okafor\ninspire: {BAI}\n"})
    result = fetch(site, server)
    assert result.returncode == 0, result.stderr
    assert [request["params"]["q"] for request in server.requests()] == [f"a {BAI}"]
    assert set(fetched(site)) == ALL
    wrong = make_site(tmp_path / "wrong", files={"content/people/chinedu.yaml": "name: Chinedu A. Okafor\ninspire: Okafor\n"})
    refused = fetch(wrong, server)
    assert refused.returncode == 1
    assert "content/people/chinedu.yaml:2: field 'inspire': 'Okafor' is neither an INSPIRE author identifier" in refused.stderr
    assert len(server.requests()) == 1


def test_what_is_no_author_identifier_is_refused_before_any_request(tmp_path: Path, inspire_server) -> None:
    server = inspire_server()
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--inspire", "Witten")
    assert result.returncode == 2
    assert "--inspire: 'Witten' is neither an INSPIRE author identifier (like E.Witten.1" in result.stderr
    assert server.requests() == []


def test_an_author_inspire_finds_nothing_for_is_the_shared_warning_and_writes_nothing(tmp_path: Path, inspire_server) -> None:
    server = inspire_server()
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--inspire", "X.Nobody.1")
    assert result.returncode == 0, result.stderr
    assert "warning: INSPIRE literature of X.Nobody.1 (--inspire): no records found (is the identifier right?)" in result.stderr
    assert not (site / "content" / "records" / "inspire").exists()


def test_too_many_requests_is_retried_after_its_retry_after(tmp_path: Path, inspire_server) -> None:
    server = inspire_server("--fail-first", "1", "--fail-status", "429", "--retry-after", "1")
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--inspire", BAI, "--backoff", "0")
    assert result.returncode == 0, result.stderr
    throttled, answered = server.requests()
    assert (throttled["status"], answered["status"]) == (429, 200)
    assert answered["t"] - throttled["t_end"] >= 0.9  # INSPIRE's Retry-After, although --backoff asked for none
    assert set(fetched(site)) == ALL


def test_a_server_error_is_retried_through_the_shared_session(tmp_path: Path, inspire_server) -> None:
    server = inspire_server("--fail-first", "2", "--fail-status", "500")
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--inspire", BAI, "--backoff", "0")
    assert result.returncode == 0, result.stderr
    assert [request["status"] for request in server.requests()] == [500, 500, 200]
    assert len(fetched(site)) == 6


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (("--fail-all",), f"sitegen fetch: error: INSPIRE literature of {BAI}: HTTP 503 Service Unavailable: 'injected HTTP 503' (gave up after 2 tries)"),
        (("--html",), f"sitegen fetch: error: INSPIRE literature of {BAI}: an HTML page, not a JSON answer (text/html): 'INSPIRE - Service unavailable'"),
    ],
)
def test_a_failing_service_leaves_content_as_it_was(tmp_path: Path, inspire_server, flags, message) -> None:
    site = make_site(tmp_path / "site", files={"content/records/inspire/inspire-1.yaml": "id: mine\ntitle: Mine\nauthors: [A]\nyear: 2020\n"})
    before = tree(site / "content")
    result = fetch(site, inspire_server(*flags), "--inspire", BAI, "--retries", "1", "--backoff", "0")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith(message)
    assert result.stderr.strip().endswith("nothing was written")
    assert tree(site / "content") == before


INSPIRE_BIBTEX = (Path(__file__).resolve().parents[1] / "fixtures" / "inspire" / "Okafor-2021mno.bib").read_text(encoding="utf-8")  # as INSPIRE exports it


def test_a_fetched_record_and_the_users_inspire_bibtex_of_the_work_are_one_record(tmp_path: Path, inspire_server) -> None:
    """The user's `.bib` entry (as INSPIRE exports it: its texkey, its arXiv id) and the fetched record: one work with
    the user's key and authors, INSPIRE's DOI, links and citation count."""
    site = make_site(tmp_path / "site", files={"content/records/inspire.bib": INSPIRE_BIBTEX})
    assert fetch(site, inspire_server(), "--inspire", BAI).returncode == 0
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    built = {record["id"]: record for record in json.loads((site / "output" / "records.json").read_text(encoding="utf-8"))["records"]}
    assert "inspire-2450004" not in built
    work = built["Okafor:2021mno"]
    assert sorted(work["sources"]) == ["bibtex", "inspire"]
    assert (work["doi"], work["citations"]) == ("10.1007/JHEP09(2021)101", 42)
    page = soup(site / "output" / "records" / "Okafor-2021mno" / "index.html")
    assert links_of(page)["INSPIRE"] == "https://inspirehep.net/literature/2450004"
    assert " ".join(page.select_one("main .authors").get_text().split()) == "Chinedu A. Okafor, Zoë Müller, Jan van der Berg"
    fetched_page = soup(site / "output" / "records" / "inspire-2450004" / "index.html")  # the fetched record's address leads to the work
    assert fetched_page.select_one("meta[http-equiv=refresh]")["content"] == "0; url=/records/Okafor-2021mno/"
