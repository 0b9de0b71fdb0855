"""HAL end to end, as a user meets it: `sitegen fetch --hal IDHAL` (or `--hal-name`, `hal:` in profile.yaml or a
person's file) asking the fake HAL (tests/fixtures/fake_hal.py), then `sitegen build`; what the files written, the
pages, the request log, stderr and the exit status show."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import MINIMAL_SITE, answer_at_terminal, built_records, fetch_from, fetched_records, tree, write_site
from hal_server import FakeHal, hal_server  # noqa: F401  (the fixture)
from test_pubmed import links_of, soup

pytestmark = pytest.mark.slow  # builds and fetches run as processes

REPO = Path(__file__).resolve().parents[2]
PROFILE = "name: Camille Martin\nemail: camille@example.org\n"


def make_site(root: Path, profile: str = PROFILE, files: dict[str, str] | None = None) -> Path:
    return write_site(root, {**MINIMAL_SITE, "content/profile.yaml": profile, **(files or {})})


def fetch(site: Path, server: FakeHal, *args: str) -> subprocess.CompletedProcess:
    return fetch_from(site, server.env, *args)


def fetched(site: Path) -> dict[str, dict]:
    return fetched_records(site, "hal")


def test_fetch_by_idhal_walks_the_cursor_and_the_site_shows_the_documents(tmp_path: Path, hal_server) -> None:
    server = hal_server()
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--hal", "https://cv.hal.science/camille-martin")
    assert result.returncode == 0, result.stderr
    assert "fetched 4 records from HAL in 2 requests" in result.stdout
    first, last = server.requests()
    assert first["path"] == "/search/"
    assert (first["params"]["q"], first["params"]["sort"], first["params"]["cursorMark"]) == ('authIdHal_s:"camille-martin"', "docid asc", "*")
    assert last["params"]["cursorMark"] != "*"  # the mark the first page gave, whose answer is the last (empty) page
    assert "camille@example.org" in first["user_agent"]
    records = fetched(site)
    assert set(records) == {"hal-03100001", "hal-03200002", "tel-03300003", "hal-03400004"}
    assert records["hal-03100001"]["origin"] == "hal"

    built = built_records(site, quiet=True)
    assert {i: built[i]["type"] for i in records} == {
        "hal-03100001": "article",
        "hal-03200002": "inproceedings",
        "tel-03300003": "thesis",
        "hal-03400004": "preprint",
    }
    article = soup(site / "output" / "records" / "hal-03100001" / "index.html")
    title = article.select_one("h1")
    assert (title.get_text(strip=True), title.get("lang")) == ("Les savants et la mesure du méridien", "fr")  # its own title, marked French
    assert article.select_one(".abstract-body").get("lang") == "fr"
    links = links_of(article)
    assert links["HAL"] == "https://hal.science/hal-03100001"
    assert links["PDF"] == "https://hal.science/hal-03100001v2/document"
    assert links["DOI"] == "https://doi.org/10.3917/rhs.742.0233"
    assert "Revue d'histoire des sciences" in article.select_one("main").get_text(" ", strip=True)
    thesis = soup(site / "output" / "records" / "tel-03300003" / "index.html").select_one("main").get_text(" ", strip=True)
    assert "Université Paris-Saclay" in thesis
    listed = [item.get_text(" ", strip=True) for item in soup(site / "output" / "index.html").select("main li")]
    assert any(item.startswith("A working paper on longitude") and "HAL" in item for item in listed)  # a preprint is HAL's own
    again = fetch(site, server, "--hal", "camille-martin")
    assert again.returncode == 0 and "0 new, 0 updated, 4 unchanged" in again.stdout
    (site / "content" / "site.yaml").write_text("title: Test site\nbase_url: https://example.org/\ntheme: classic\n", encoding="utf-8")
    built_records(site, quiet=True)
    classic = soup(site / "output" / "records" / "hal-03400004" / "index.html")
    assert links_of(classic)["HAL"] == "https://hal.science/hal-03400004"
    assert links_of(classic)["PDF"] == "https://hal.science/hal-03400004v3/document"


def test_the_weekly_summary_links_each_new_document_to_its_page(tmp_path: Path, hal_server) -> None:
    """The pull request's list: a document with a DOI by its DOI, one without (a working paper) by its HAL page."""
    site = make_site(tmp_path / "site")
    result = fetch(site, hal_server(), "--hal", "camille-martin", "--summary", str(tmp_path / "summary.md"))
    assert result.returncode == 0, result.stderr
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "- [hal-03400004](https://hal.science/hal-03400004) (2024) A working paper on longitude" in summary
    assert "- [hal-03100001](https://doi.org/10.3917/rhs.742.0233) (2021) Les savants et la mesure du méridien" in summary


def test_the_number_of_an_idhal_asks_for_it_as_a_number(tmp_path: Path, hal_server) -> None:
    server = hal_server()
    site = make_site(tmp_path / "site")
    assert fetch(site, server, "--hal", "1234567").returncode == 0
    assert server.requests()[0]["params"]["q"] == "authIdHal_i:1234567"
    assert len(fetched(site)) == 4


def test_a_hal_document_and_a_bib_entry_of_one_doi_and_a_preprint_of_its_arxiv_id_are_one_work_each(tmp_path: Path, hal_server) -> None:
    """The .bib entry links to HAL as biblatex does (eprinttype = {hal}): the work has one HAL link, not two."""
    bib = (
        "@article{martin2021savants,\n  title = {Les savants et la mesure du m{\\'e}ridien},\n  author = {Martin, Camille and Rousseau, {\\'E}lodie},\n"
        "  journal = {Revue d'histoire des sciences},\n  year = {2021},\n  doi = {10.3917/rhs.742.0233},\n  eprint = {hal-03100001},\n  eprinttype = {hal},\n}\n"
    )
    from sitegen.fetch import render

    preprint = render(
        {
            "id": "2204.01234",
            "title": "Counting instruments in eighteenth-century observatories",
            "authors": ["Camille Martin", "Hugo Lefèvre"],
            "year": 2022,
            "source": "arXiv",
            "arxiv": "2204.01234",
            "links": {"abs": "https://arxiv.org/abs/2204.01234", "pdf": "https://arxiv.org/pdf/2204.01234"},
            "origin": "arxiv",
        }
    )
    site = make_site(tmp_path / "site", files={"content/records/mine.bib": bib, "content/records/arxiv/2204.01234.yaml": preprint})
    assert fetch(site, hal_server(), "--hal", "camille-martin").returncode == 0
    built = built_records(site, quiet=True)
    article = [record for record in built.values() if record.get("doi") == "10.3917/rhs.742.0233"]
    assert len(article) == 1 and sorted(article[0]["sources"]) == ["bibtex", "hal"]
    assert article[0]["id"] == "martin2021savants"  # the user's own citation key
    page = soup(site / "output" / "records" / "martin2021savants" / "index.html")
    assert [link["href"] for link in page.select("main a[href]") if link.get_text(strip=True).startswith("HAL")] == ["https://hal.science/hal-03100001"]
    talk = [record for record in built.values() if record.get("arxiv") == "2204.01234"]
    assert len(talk) == 1 and sorted(talk[0]["sources"]) == ["arxiv", "hal"]
    assert talk[0]["type"] == "inproceedings" and talk[0]["source"] == "International Congress of History of Science and Technology"  # published first
    assert talk[0]["links"]["hal"] == "https://hal.science/hal-03200002" and talk[0]["links"]["abs"] == "https://arxiv.org/abs/2204.01234"
    exported = (site / "output" / "publications.bib").read_text(encoding="utf-8")  # the HAL link read back as biblatex writes it
    assert "eprint = {tel-03300003},\n  eprinttype = {hal}," in exported


def test_what_is_no_idhal_is_refused_before_any_request(tmp_path: Path, hal_server) -> None:
    server = hal_server()
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--hal", "Camille Martin")
    assert result.returncode == 2
    assert (
        "--hal: 'Camille Martin' is not an idHAL (like jean-dupont, from cv.hal.science/jean-dupont, or its number); to search HAL by name, use --hal-name"
        in result.stderr
    )
    assert server.requests() == []
    wrong = make_site(tmp_path / "wrong", profile=PROFILE + "hal: camille.martin\n")
    refused = fetch(wrong, server)
    assert refused.returncode == 1
    assert "content/profile.yaml:3: field 'hal': 'camille.martin' is not an idHAL" in refused.stderr
    assert server.requests() == []


def test_an_idhal_with_no_document_is_the_shared_warning_and_writes_nothing(tmp_path: Path, hal_server) -> None:
    server = hal_server()
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--hal", "nobody-here")
    assert result.returncode == 0
    assert "warning: HAL documents of nobody-here (--hal): no documents (is it an idHAL? its page is cv.hal.science/<idHAL>)" in result.stderr
    assert not (site / "content" / "records" / "hal").exists()


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (("--fail-all",), "sitegen fetch: error: HAL documents of camille-martin: HTTP 503"),
        (("--html",), "sitegen fetch: error: HAL documents of camille-martin: an HTML page, not a JSON answer (text/html): 'HAL - Maintenance en cours'"),
    ],
)
def test_a_failing_service_leaves_content_as_it_was(tmp_path: Path, hal_server, flags, message) -> None:
    site = make_site(tmp_path / "site")
    assert fetch(site, hal_server(), "--hal", "camille-martin").returncode == 0
    before = tree(site / "content")
    result = fetch(site, hal_server(*flags), "--hal", "camille-martin", "--retries", "1", "--backoff", "0")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith(message)
    assert result.stderr.strip().endswith("nothing was written")
    assert tree(site / "content") == before


def test_a_retried_failure_still_fetches_everything(tmp_path: Path, hal_server) -> None:
    server = hal_server("--fail-first", "2")
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--hal", "camille-martin", "--backoff", "0")
    assert result.returncode == 0, result.stderr
    assert [request["status"] for request in server.requests()] == [503, 503, 200, 200]
    assert len(fetched(site)) == 4


def test_a_name_that_two_idhals_sign_asks_which_one_and_writes_nothing_without_a_terminal(tmp_path: Path, hal_server) -> None:
    server = hal_server()
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--hal-name", "Camille Martin")
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert "HAL: 2 people are called 'Camille Martin'; sitegen will not mix their works:" in lines
    assert "  1. camille-martin  Camille Martin — affiliation unknown; 2019–2024; 4 works" in lines
    assert "  2. camille-martin-chimie  Camille Martin — affiliation unknown; 2023–2023; 1 work" in lines
    assert "  choose one: sitegen fetch --hal ID, or set `hal: ID` in content/profile.yaml" in lines
    assert lines[-1] == "sitegen fetch: error: several people have this name; nothing was written"
    assert not (site / "content" / "records" / "hal").exists()


def test_at_a_terminal_the_user_picks_the_idhal_and_only_its_documents_are_fetched(tmp_path: Path, hal_server) -> None:
    server = hal_server()
    site = make_site(tmp_path / "site")
    status, seen, stdout = answer_at_terminal(
        "fetch", "--site", str(site), "--delay", "0", "--hal-name", "Camille Martin", answer=lambda _: "camille-martin-chimie", env=server.env
    )
    assert status == 0, seen
    assert "HAL: no idHAL signs 1 document of 'Camille Martin'" in seen  # the poster: nobody's
    assert set(fetched(site)) == {"hal-03500005"}
    assert server.requests()[-1]["params"]["q"] == 'authIdHal_s:"camille-martin-chimie"'
    assert "content/records/hal/: 1 new" in stdout


def test_a_name_that_one_idhal_signs_fetches_that_idhals_documents(tmp_path: Path, hal_server) -> None:
    server = hal_server()
    site = make_site(tmp_path / "site", profile="name: Hugo Lefèvre\n")
    result = fetch(site, server, "--hal-name", "hugo lefevre")
    assert result.returncode == 0, result.stderr
    assert [request["params"]["q"] for request in server.requests() if request["params"].get("cursorMark") == "*"] == [
        'authFullName_t:"hugo lefevre"',
        'authIdHal_s:"hugo-lefevre"',
    ]
    assert set(fetched(site)) == {"hal-03200002"}


def test_a_name_no_idhal_signs_keeps_its_documents_with_a_warning(tmp_path: Path, hal_server) -> None:
    site = make_site(tmp_path / "site", profile="name: Noé Sanidhal\narxiv:\n  exclude_ids: []\n")
    result = fetch(site, hal_server(), "--hal-name", "Noé Sanidhal")
    assert result.returncode == 0, result.stderr
    assert "warning: HAL: no idHAL signs the 1 document of 'Noé Sanidhal' (--hal-name): a namesake's are kept too" in result.stderr
    assert set(fetched(site)) == {"halshs-03700007"}
    assert built_records(site, quiet=True)["halshs-03700007"]["type"] == "report"


def test_profile_and_a_lab_members_file_name_their_idhal(tmp_path: Path, hal_server) -> None:
    server = hal_server()
    site = make_site(
        tmp_path / "site",
        profile=PROFILE + "hal: camille-martin\n",
        files={"content/people/hugo.yaml": "name: Hugo Lefèvre\nhal: hugo-lefevre\n"},
    )
    result = fetch(site, server)
    assert result.returncode == 0, result.stderr
    assert {request["params"]["q"] for request in server.requests()} == {'authIdHal_s:"camille-martin"', 'authIdHal_s:"hugo-lefevre"'}
    assert set(fetched(site)) == {"hal-03100001", "hal-03200002", "tel-03300003", "hal-03400004"}
    built_records(site, quiet=True)
    wrong = make_site(tmp_path / "wrong", files={"content/people/hugo.yaml": "name: Hugo Lefèvre\nhal: Hugo Lefèvre\n"})
    refused = fetch(wrong, server)
    assert refused.returncode == 1
    assert "content/people/hugo.yaml:2: field 'hal': 'Hugo Lefèvre' is not an idHAL" in refused.stderr
