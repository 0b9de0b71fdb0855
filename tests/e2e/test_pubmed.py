"""PubMed end to end, as a user meets it: a `.nbib` file (PubMed's "Send to > Citation manager") under
content/records/ built into the site, and `sitegen fetch` asking the fake E-utilities server
(tests/fixtures/fake_eutils.py) for an ORCID iD's or a name's citations; what the pages, the files written,
the request log, stderr and the exit status show."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, built_records, fetched_records, run_sitegen, tree, write_site
from pubmed_server import FakeEutils, pubmed_server  # noqa: F401  (the fixture)

pytestmark = pytest.mark.slow  # builds and fetches run as processes

REPO = Path(__file__).resolve().parents[2]
NBIB = Path(__file__).resolve().parents[1] / "fixtures" / "sources" / "medline" / "pubmed.nbib"
ORCID = "0000-0002-1825-0097"
PROFILE = "name: Zoë Müller\nemail: zoe@example.org\n"


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def make_site(root: Path, profile: str = PROFILE, files: dict[str, str] | None = None) -> Path:
    return write_site(root, {**MINIMAL_SITE, "content/profile.yaml": profile, **(files or {})})


def fetch(site: Path, server: FakeEutils, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {key: value for key, value in os.environ.items() if key != "NCBI_API_KEY"}
    full_env.update({**server.env, **(env or {})})
    command = [sys.executable, "-m", "sitegen", "fetch", "--site", str(site), "--delay", "0", *args]
    return subprocess.run(command, cwd=REPO, env=full_env, capture_output=True, text=True, timeout=90)


def fetched(site: Path) -> dict[str, dict]:
    return fetched_records(site, "pubmed")


def links_of(page: BeautifulSoup) -> dict[str, str]:
    return {link.get_text(" ", strip=True): link["href"] for link in page.select("main a[href]")}


# -- a .nbib file ---------------------------------------------------------------------------------------


def test_a_nbib_file_builds_into_pages_with_pubmed_and_pmc_links(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    (site / "content" / "records").mkdir(exist_ok=True)
    shutil.copy(NBIB, site / "content" / "records" / "pubmed.nbib")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    output = site / "output"
    shown = {path.parent.name for path in (output / "records").glob("*/index.html")}
    assert shown == {"muller2023longitudinal", "schafer2019perioperative", "muller2018circulating", "muller2023wastewater"}  # the notices are links
    page = soup(output / "records" / "muller2023longitudinal" / "index.html")
    assert page.select_one("h1").get_text(" ", strip=True).startswith("Longitudinal single-cell profiling of tumour-infiltrating lymphocytes reveals")
    authors = page.select_one(".authors").get_text(" ", strip=True)
    assert [name.strip() for name in authors.split(",")] == ["Zoë Müller", "Chinedu A. Okafor", "TRACERx Lung Consortium", "Anna Lindqvist"]
    links = links_of(page)
    assert links["PubMed"] == "https://pubmed.ncbi.nlm.nih.gov/36912345/"
    assert links["PMC"] == "https://pmc.ncbi.nlm.nih.gov/articles/PMC9912345/"
    assert links["DOI"] == "https://doi.org/10.5555/nm.2023.0142"
    assert links["Correction"] == "https://doi.org/10.5555/nm.2023.0199"  # the erratum, found by its EFR's PMID
    abstract = [paragraph.get_text(" ", strip=True) for paragraph in page.select(".abstract-body p")]
    assert [paragraph.split(":")[0] for paragraph in abstract] == ["BACKGROUND", "METHODS", "RESULTS", "CONCLUSIONS"]
    retracted = soup(output / "records" / "muller2018circulating" / "index.html").select_one("main").get_text(" ", strip=True)
    assert "Retracted" in retracted
    german = soup(output / "records" / "schafer2019perioperative" / "index.html")
    assert "123–129" in german.select_one("main").get_text(" ", strip=True)
    assert german.select_one("[lang=de]") is None  # NLM's English title and abstract of a German paper are not marked German
    listed = [item.get_text(" ", strip=True) for item in soup(output / "index.html").select("main li")]
    assert not any(item.startswith(("Publisher Correction", "Retraction:")) for item in listed)


def test_a_broken_nbib_file_fails_the_build_at_its_line_and_leaves_output(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", files={"content/records/pubmed.nbib": NBIB.read_text(encoding="utf-8")})
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    before = tree(site / "output")
    text = NBIB.read_text(encoding="utf-8").replace("DP  - 2019 Dec\n", "")
    (site / "content" / "records" / "pubmed.nbib").write_text(text, encoding="utf-8")
    (site / "content" / "records" / "wrong.nbib").write_text("TY  - JOUR\nTI  - A\nER  - \n", encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "content/records/pubmed.nbib:87: this citation has no year (DP  - 2023 Mar 15): it is not read",
        "content/records/wrong.nbib:1: this is a RIS file, not MEDLINE: name it .ris",
    ]
    assert tree(site / "output") == before


# -- sitegen fetch --------------------------------------------------------------------------------------


def test_fetch_by_orcid_searches_then_fetches_and_the_site_shows_the_citations(tmp_path: Path, pubmed_server) -> None:
    server = pubmed_server()
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--pubmed", f"https://orcid.org/{ORCID}")
    assert result.returncode == 0, result.stderr
    assert "fetched 3 records from PubMed in 2 requests" in result.stdout
    search, efetch = server.requests()
    assert (search["path"], search["params"]["term"], search["params"]["db"]) == ("/entrez/eutils/esearch.fcgi", f"{ORCID}[auid]", "pubmed")
    assert (efetch["path"], efetch["params"]["id"], efetch["params"]["retmode"]) == ("/entrez/eutils/efetch.fcgi", "38111111,37012345,36912345", "xml")
    for request in (search, efetch):  # NCBI's rule: name the tool and a contact; no key was set, none is sent
        assert (request["params"]["tool"], request["params"]["email"], "api_key" in request["params"]) == ("sitegen", "zoe@example.org", False)
    records = fetched(site)
    assert set(records) == {"pmid-36912345", "pmid-37012345", "pmid-38111111"}
    kras = records["pmid-38111111"]
    assert kras["authors"] == ["Ødegård, Tove", "Müller, Zoë"] and kras["author_ids"] == {"Müller, Zoë": ORCID}
    assert (kras["pages"], kras["source"], kras["origin"]) == ("1123–1131", "Journal of thoracic oncology", "pubmed")
    built = built_records(site)
    assert set(built) == {"pmid-36912345", "pmid-38111111"}  # the erratum is the article's link
    page = soup(site / "output" / "records" / "pmid-38111111" / "index.html")
    assert [tag.get_text() for tag in page.select("h1 em")] == ["KRAS", "Mus musculus"]  # the title's markup, as PubMed's XML gives it
    assert page.select_one("h1 sup").get_text() == "G12C"
    assert links_of(page)["PubMed"] == "https://pubmed.ncbi.nlm.nih.gov/38111111/"
    article = soup(site / "output" / "records" / "pmid-36912345" / "index.html")
    assert links_of(article)["Correction"] == "https://doi.org/10.5555/nm.2023.0199"
    assert links_of(article)["PMC"] == "https://pmc.ncbi.nlm.nih.gov/articles/PMC9912345/"
    again = fetch(site, server, "--pubmed", ORCID)
    assert again.returncode == 0 and "0 new, 0 updated, 3 unchanged" in again.stdout


def test_an_api_key_from_the_environment_is_sent_and_written_nowhere(tmp_path: Path, pubmed_server) -> None:
    server = pubmed_server()
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--pubmed", ORCID, "--summary", str(tmp_path / "summary.md"), env={"NCBI_API_KEY": "k3y-0f-ncbi"})
    assert result.returncode == 0, result.stderr
    assert all(request["params"]["api_key"] == "k3y-0f-ncbi" for request in server.requests())
    assert "k3y-0f-ncbi" not in result.stdout + result.stderr
    written = b"".join(path.read_bytes() for path in [*site.rglob("*"), tmp_path / "summary.md"] if path.is_file())
    assert b"k3y-0f-ncbi" not in written
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")  # the weekly pull request's list: each citation's page
    assert "- [pmid-38111111](https://pubmed.ncbi.nlm.nih.gov/38111111/) (2024) Resistance of" in summary
    assert "- [pmid-36912345](https://pubmed.ncbi.nlm.nih.gov/36912345/) (2023)" in summary


def test_a_name_is_searched_as_pubmed_indexes_full_names(tmp_path: Path, pubmed_server) -> None:
    """profile.yaml `pubmed: true` with no `orcid:`: the profile's name, family name first, as an [Author] search."""
    server = pubmed_server()
    site = make_site(tmp_path / "site", profile=PROFILE + "pubmed: true\n")
    result = fetch(site, server)
    assert result.returncode == 0, result.stderr
    assert server.requests()[0]["params"]["term"] == '"Müller Zoë"[Author]'
    assert set(fetched(site)) == {"pmid-36912345", "pmid-38111111"}
    assert "warning: PubMed PMID 29999999: efetch gave no journal article for it" in result.stderr  # a book chapter's


def test_a_search_that_finds_nothing_is_a_warning_and_writes_nothing(tmp_path: Path, pubmed_server) -> None:
    server = pubmed_server()
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--pubmed", "Nobody Atall")
    assert result.returncode == 0
    assert 'warning: PubMed search "Atall Nobody"[Author] (--pubmed): no records found' in result.stderr
    assert [request["path"] for request in server.requests()] == ["/entrez/eutils/esearch.fcgi"]
    assert not (site / "content" / "records" / "pubmed").exists()


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (("--fail-all",), "sitegen fetch: error: PubMed search 0000-0002-1825-0097[auid]: HTTP 503"),
        (("--html",), "sitegen fetch: error: PubMed search 0000-0002-1825-0097[auid]: an HTML page, not a JSON answer"),
    ],
)
def test_a_failing_service_leaves_content_as_it_was(tmp_path: Path, pubmed_server, flags, message) -> None:
    site = make_site(tmp_path / "site", files={"content/records/mine.nbib": NBIB.read_text(encoding="utf-8")})
    before = tree(site / "content")
    result = fetch(site, pubmed_server(*flags), "--pubmed", ORCID, "--retries", "1", "--backoff", "0")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1].startswith(message)
    assert result.stderr.strip().endswith("nothing was written")
    assert tree(site / "content") == before


def test_a_retried_failure_still_fetches_everything(tmp_path: Path, pubmed_server) -> None:
    server = pubmed_server("--fail-first", "2")
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--pubmed", ORCID, "--backoff", "0")
    assert result.returncode == 0, result.stderr
    assert [request["status"] for request in server.requests()] == [503, 503, 200, 200]
    assert len(fetched(site)) == 3


def test_a_mistyped_orcid_is_refused_before_any_request(tmp_path: Path, pubmed_server) -> None:
    server = pubmed_server()
    site = make_site(tmp_path / "site")
    result = fetch(site, server, "--pubmed", "0000-0002-1825-0096")
    assert result.returncode == 2
    assert "--pubmed: '0000-0002-1825-0096' is not a valid ORCID iD" in result.stderr
    assert server.requests() == []


def test_a_pubmed_record_and_a_crossref_record_of_one_doi_are_one_work(tmp_path: Path, pubmed_server) -> None:
    """And a .nbib export of the same paper, and an arXiv preprint of the fetched paper's title: one work each."""
    from sitegen.fetch import render

    crossref = render(
        {
            "id": "10.5555/nm.2023.0142",
            "title": "Longitudinal Single-Cell Profiling of Tumour-Infiltrating Lymphocytes Reveals Durable Clonal Expansion after Neoadjuvant Immunotherapy in Early-Stage Non-Small-Cell Lung Cancer",
            "authors": ["Zoë Müller", "Chinedu A. Okafor", "Anna Lindqvist"],
            "year": 2023,
            "source": "Nature Medicine",
            "doi": "10.5555/nm.2023.0142",
            "type": "article",
            "citations": 12,
            "links": {"doi": "https://doi.org/10.5555/nm.2023.0142"},
            "ids": {"doi": "10.5555/nm.2023.0142"},
            "origin": "crossref",
        }
    )
    preprint = render(
        {
            "id": "2311.01234",
            "title": "Resistance of KRAS$^{G12C}$ tumours to sotorasib in Mus musculus models",
            "authors": ["Tove Ødegård", "Zoë Müller"],
            "year": 2023,
            "source": "arXiv",
            "arxiv": "2311.01234",
            "links": {"abs": "https://arxiv.org/abs/2311.01234"},
            "categories": ["q-bio.TO"],
            "origin": "arxiv",
        }
    )
    site = make_site(
        tmp_path / "site",
        files={
            "content/records/crossref/10.5555-nm.2023.0142.yaml": crossref,
            "content/records/arxiv/2311.01234.yaml": preprint,
            "content/records/mine.nbib": NBIB.read_text(encoding="utf-8"),
        },
    )
    assert fetch(site, pubmed_server(), "--pubmed", ORCID).returncode == 0
    built = built_records(site)
    article = [record for record in built.values() if record.get("doi") == "10.5555/nm.2023.0142"]
    assert len(article) == 1 and sorted(article[0]["sources"]) == ["crossref", "medline", "pubmed"]
    assert article[0]["source"] == "Nature Medicine"  # the publisher's own record leads among the published versions
    assert article[0]["citations"] == 12
    kras = [record for record in built.values() if "sotorasib" in record["title"]]
    assert len(kras) == 1 and sorted(kras[0]["sources"]) == ["arxiv", "pubmed"]
    assert kras[0]["type"] == "article" and kras[0]["arxiv"] == "2311.01234"


def test_a_namesakes_paper_left_out_by_its_id_is_not_written(tmp_path: Path, pubmed_server) -> None:
    """A name finds namesakes: `exclude_ids` (under `arxiv:`, for every source) leaves one of their papers out."""
    site = make_site(tmp_path / "site", profile=PROFILE + 'pubmed: "Zoë Müller"\narxiv:\n  exclude_ids: ["pmid-38111111"]\n')
    result = fetch(site, pubmed_server())
    assert result.returncode == 0, result.stderr
    assert "1 excluded by profile.yaml" in result.stdout
    assert set(fetched(site)) == {"pmid-36912345"}


def test_a_lab_members_pubmed_search_is_fetched_with_the_labs_sources(tmp_path: Path, pubmed_server) -> None:
    """A person file's `pubmed: true` searches for the member's own iD (else name), as their `openalex:` and `dblp:` are asked."""
    server = pubmed_server()
    site = make_site(tmp_path / "site", files={"content/people/zoe.yaml": "name: Zoë Müller\npubmed: true\n"})
    result = fetch(site, server)
    assert result.returncode == 0, result.stderr
    assert [request["params"]["term"] for request in server.requests() if "term" in request["params"]] == ['"Müller Zoë"[Author]']
    assert set(fetched(site)) == {"pmid-36912345", "pmid-38111111"}
    wrong = make_site(tmp_path / "wrong", files={"content/people/zoe.yaml": "name: Zoë Müller\npubmed: 0000-0002-1825-0096\n"})
    refused = fetch(wrong, server)
    assert refused.returncode == 1
    assert "content/people/zoe.yaml:2: field 'pubmed': '0000-0002-1825-0096' is not a valid ORCID iD" in refused.stderr


def test_a_name_search_keeps_the_groups_of_the_profiles_coauthors_and_lists_the_others(tmp_path: Path, pubmed_server) -> None:
    """`coauthors:` steers a PubMed name search as it steers arXiv's: the namesake's paper (with Tove Ødegård) shares
    no listed co-author, so it is not written, and the weekly pull request's summary lists it under "Needs your
    decision". PubMed's results were kept whole before, namesakes' papers with them."""
    site = make_site(tmp_path / "site", profile=PROFILE + 'pubmed: "Zoë Müller"\ncoauthors: ["Chinedu A. Okafor"]\n')
    summary = tmp_path / "summary.md"
    result = fetch(site, pubmed_server(), "--summary", str(summary))
    assert result.returncode == 0, result.stderr
    assert set(fetched(site)) == {"pmid-36912345"}
    decision = summary.read_text(encoding="utf-8").split("### Needs your decision", 1)[1]
    assert "Ødegård" in decision or "38111111" in decision


def test_review_groups_a_pubmed_name_search_and_keep_writes_its_exclusions(tmp_path: Path, pubmed_server) -> None:
    site = make_site(tmp_path / "site", profile=PROFILE + 'pubmed: "Zoë Müller"\n')
    result = fetch(site, pubmed_server(), "--review")
    assert result.returncode == 0, result.stderr
    assert "no records to group" not in result.stdout
    groups = [line for line in result.stdout.splitlines() if line.lstrip().startswith("group ")]
    assert len(groups) == 2, result.stdout
    assert "exclude_categories" not in result.stdout  # PubMed's keywords are no subjects to leave a group out by
    assert not (site / "content" / "records" / "pubmed").exists()  # a review writes nothing
    kept = run_sitegen("fetch", "--site", str(site), "--keep", "1")
    assert kept.returncode == 0, kept.stderr
    profile = yaml.safe_load((site / "content" / "profile.yaml").read_text(encoding="utf-8"))
    assert profile["arxiv"]["exclude_ids"] == ["pmid-36912345"]  # group 1 (the newest) kept, group 2 left out
    assert set(fetched(site) if (site / "content/records/pubmed").exists() else {}) == set()
    again = fetch(site, pubmed_server())
    assert again.returncode == 0, again.stderr
    assert set(fetched(site)) == {"pmid-38111111"}
