"""The ADS fetcher's parts: the mapping of ADS documents to records, paging, the token's care, the checks of what is
asked, ADS's errors, and its rate-limit headers in the shared polite session."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from conftest import validated_record
from scripted_http import Scripted

from sitegen.fetch import Ask, UsageError, check_record, render
from sitegen.load import parse_yaml
from sitegen.merge import merge_works
from sitegen.model import Record
from sitegen.progress import Progress
from sitegen.sources import LIBRARY, source_rank
from sitegen.sources.ads import (
    abstract_text,
    check_asks,
    check_profile,
    library_documents,
    normalise_library,
    normalise_orcid,
    normalise_query,
    profile_asks,
    query_names,
    record_of,
    search,
)
from sitegen.sources.http import FetchError, PoliteSession, Settings, secret_hidden
from sitegen.urls import slugify

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sources" / "ads"
DOCUMENTS = {d["bibcode"]: d for d in json.loads((FIXTURES / "documents.json").read_text(encoding="utf-8"))}
ME = "0000-0003-1234-5674"
API = "http://127.0.0.1:1/v1"


def mapped(bibcode: str) -> dict:
    record, warnings = record_of(DOCUMENTS[bibcode])
    assert record is not None and warnings == []
    return record


def test_a_refereed_article_is_mapped_with_its_ids_venue_and_authors_orcids():
    record = mapped("2021ApJ...912L..25L")
    assert record["id"] == "2021ApJ...912L..25L"
    assert record["title"] == r"The H\textsubscript{2}O Maser Disk of NGC 4258 & Its Warp"
    assert record["authors"] == ["Lin, Sheng", "Okafor, Amaka", "Nakamura, Kenji"]
    assert (record["year"], record["type"], record["source"]) == (2021, "article", "The Astrophysical Journal")
    assert "date" not in record  # '2021-05-00': the month alone
    assert (record["doi"], record["arxiv"], record["volume"], record["issue"], record["pages"]) == ("10.5555/apjl.abf5e1", "2104.01234", "912", "2", "L25")
    assert record["ids"] == {"ads": "2021ApJ...912L..25L", "doi": "10.5555/apjl.abf5e1", "arxiv": "2104.01234"}
    assert record["citations"] == 14
    assert record["author_ids"] == {"Lin, Sheng": ME}
    assert record["affiliations"] == {
        "Lin, Sheng": [
            "Purple Mountain Observatory, Chinese Academy of Sciences, Nanjing, China",
            "University of Science and Technology of China, Hefei, China",
        ],
        "Nakamura, Kenji": ["National Astronomical Observatory of Japan, Mitaka, Japan"],
    }


def test_an_abstracts_paragraphs_latex_entities_and_sub_and_superscripts_are_read():
    abstract = mapped("2021ApJ...912L..25L")["abstract"]
    first, second = abstract.split("\n\n")
    assert first == r"We map the water maser disk at 22 GHz with a resolution of $\sim$0.1 mas & find a warp of 4° between radii of 0.1 and 0.3 pc."
    assert second.startswith(r"The H\textsubscript{2}O masers trace a disk of mass 4 × 10\textsuperscript{7} M\textsubscript{☉};")
    assert r"\textit{not}" in second
    assert "<script" not in second and "alert" not in second  # a tag of no rich text is dropped, a script with its code
    assert abstract_text("masses M &lt; 3 M<SUB>&#9737;</SUB> and &lt;b&gt;") == r"masses M < 3 M\textsubscript{☉} and <b>"  # escaped: characters
    assert mapped("2023A&A...670A..42L")["abstract"] == "Context. The Perseus arm ...\n\nAims. We compare \\textsuperscript{13}CO and C\\textsuperscript{18}O."


def test_an_eprint_is_a_preprint_of_arxiv_without_arxivs_own_doi():
    record = mapped("2024arXiv240301234L")
    assert (record["type"], record["source"], record["arxiv"]) == ("preprint", "arXiv", "2403.01234")
    assert "doi" not in record and record["ids"] == {"ads": "2024arXiv240301234L", "arxiv": "2403.01234"}
    assert record["author_ids"] == {"Lin, Sheng": ME}  # claimed in ADS (orcid_user)


@pytest.mark.parametrize(
    "bibcode, kind, venue",
    [
        ("2022SPIE12190E..0XL", "inproceedings", "Millimeter, Submillimeter, and Far-Infrared Detectors and Instrumentation for Astronomy XI"),
        ("2019PhDT.........5L", "thesis", "PhD Thesis, University of Science and Technology of China"),
        ("2020AAS...23540203L", "other", "American Astronomical Society Meeting Abstracts #235"),
    ],
)
def test_doctypes_are_record_types(bibcode, kind, venue):
    record = mapped(bibcode)
    assert (record["type"], record["source"]) == (kind, venue)


def test_a_talk_is_left_out_saying_where_it_goes():
    record, warnings = record_of(DOCUMENTS["2021csss.confE..99L"])
    assert record is None
    assert warnings == ["warning: ADS 2021csss.confE..99L ('Masers in five minutes'): a talk is no publication: add it to content/talks/ to show it; left out"]


def test_an_erratum_is_a_correction_notice():
    record, _ = record_of({**DOCUMENTS["2018MNRAS.480.1234L"], "doctype": "erratum", "title": ["Erratum: Stellar flares in the Kepler field"]})
    assert record is not None and record["notice"] == "correction"


def test_every_mapped_record_is_a_valid_record_file():
    for bibcode in DOCUMENTS:
        record, _ = record_of(DOCUMENTS[bibcode])
        if record is not None:
            text = render({**record, "origin": "ads"})
            assert [str(p) for p in check_record(text, f"content/records/ads/{bibcode}.yaml")] == []


def test_a_day_of_the_publication_date_is_the_records_date():
    assert str(mapped("2023A&A...670A..42L")["date"]) == "2023-02-14"


@pytest.mark.parametrize(
    "written, library",
    [
        ("Lq3ZkTQvS0yqXo1vV0rUaw", "Lq3ZkTQvS0yqXo1vV0rUaw"),
        ("https://ui.adsabs.harvard.edu/public-libraries/Lq3ZkTQvS0yqXo1vV0rUaw", "Lq3ZkTQvS0yqXo1vV0rUaw"),
        ("https://ui.adsabs.harvard.edu/user/libraries/Lq3ZkTQvS0yqXo1vV0rUaw", "Lq3ZkTQvS0yqXo1vV0rUaw"),
    ],
)
def test_a_library_id_is_read_from_its_address(written, library):
    assert normalise_library(written) == library


def test_what_is_no_library_id_or_query_or_orcid_is_refused_saying_why():
    with pytest.raises(ValueError, match="not an ADS library id"):
        normalise_library("my papers")
    with pytest.raises(ValueError, match="an empty ADS query"):
        normalise_query("   ")
    with pytest.raises(ValueError, match="at most 1000"):
        normalise_query("author:x " * 200)
    assert normalise_orcid("orcid:0000-0003-1234-5674") == ME
    with pytest.raises(ValueError):
        normalise_orcid("0000-0003-1234-5675")


def test_the_names_a_query_searches_for_are_the_owners_for_the_review():
    assert query_names('author:"^Lin, S." year:2015-2024') == ["Lin, S."]
    assert query_names('first_author:Lin,S AND author:"Okafor, A."') == ["Lin,S", "Okafor, A."]


def test_without_a_token_nothing_is_asked_and_the_message_says_where_to_get_one(monkeypatch):
    monkeypatch.delenv("ADS_API_TOKEN", raising=False)
    with pytest.raises(UsageError) as caught:
        check_asks([Ask("ads", "orcid", ME, "--ads")])
    assert "--ads: ADS needs an API token" in str(caught.value)
    assert "ui.adsabs.harvard.edu > Settings > API Token" in str(caught.value) and "ADS_API_TOKEN" in str(caught.value)
    monkeypatch.setenv("ADS_API_TOKEN", "  ")
    with pytest.raises(UsageError):
        check_asks([Ask("ads", "orcid", ME, "--ads")])
    monkeypatch.setenv("ADS_API_TOKEN", "t0ken")
    check_asks([Ask("ads", "orcid", ME, "--ads")])


def session(answers: list, waits: list[float] | None = None) -> tuple[PoliteSession, Scripted]:
    polite = PoliteSession(
        Settings(api_url=API, delay=0, backoff=0.5, retries=2), Progress(io.StringIO(), tty=False), "ADS", sleep=(waits if waits is not None else []).append
    )
    scripted = Scripted(answers)
    polite.mount("http://", scripted)
    return polite, scripted


def search_page(bibcodes: list[str], total: int, start: int) -> bytes:
    return json.dumps({"responseHeader": {"status": 0}, "response": {"numFound": total, "start": start, "docs": [DOCUMENTS[b] for b in bibcodes]}}).encode()


def test_a_search_is_paged_until_numfound_and_sends_the_token_as_a_bearer_header_only():
    codes = list(DOCUMENTS)[:3]
    polite, scripted = session([(200, search_page(codes[:2], 3, 0)), (200, search_page(codes[2:], 3, 2))])
    found = search(polite, API, f"orcid:{ME}", {"Authorization": "Bearer s3cret"}, Progress(io.StringIO(), tty=False))
    assert [d["bibcode"] for d in found] == codes
    starts = [request.url.split("start=")[1].split("&")[0] for request in scripted.sent]
    assert starts == ["0", "2"]
    assert all(request.headers["Authorization"] == "Bearer s3cret" and "s3cret" not in request.url for request in scripted.sent)
    assert "fl=bibcode%2Ctitle%2Cauthor" in scripted.sent[0].url


def test_a_library_is_paged_until_its_number_of_documents():
    def page(bibcodes: list[str], start: int) -> bytes:
        solr = {"response": {"numFound": 3, "start": start, "docs": [DOCUMENTS[b] for b in bibcodes]}}
        return json.dumps({"documents": bibcodes, "solr": solr, "metadata": {"name": "Mine", "num_documents": 3}, "updates": {}}).encode()

    codes = list(DOCUMENTS)[:3]
    polite, scripted = session([(200, page(codes[:2], 0)), (200, page(codes[2:], 2))])
    name, found = library_documents(polite, API, "Lq3ZkTQvS0yqXo1vV0rUaw", {}, Progress(io.StringIO(), tty=False))
    assert name == "Mine" and [d["bibcode"] for d in found] == codes
    assert all("/biblib/libraries/Lq3ZkTQvS0yqXo1vV0rUaw?" in request.url and "rows=100" in request.url for request in scripted.sent)


def test_a_refused_token_a_bad_query_and_a_missing_library_say_what_to_check():
    polite, _ = session([(401, b'{"error": "Unauthorized"}')])
    with pytest.raises(FetchError, match=r"ADS search orcid:.*: HTTP 401 Unauthorized: ADS refused the token: check \$ADS_API_TOKEN"):
        search(polite, API, f"orcid:{ME}", {}, Progress(io.StringIO(), tty=False))
    solr_error = {"responseHeader": {"status": 400}, "error": {"msg": "org.apache.solr.search.SyntaxError: Cannot parse 'author:\"Lin'", "code": 400}}
    polite, _ = session([(400, json.dumps(solr_error).encode())])
    with pytest.raises(FetchError, match=r"HTTP 400 Bad Request: .*SyntaxError: Cannot parse"):
        search(polite, API, 'author:"Lin', {}, Progress(io.StringIO(), tty=False))
    polite, _ = session([(410, b'{"error": "Library specified does not exist."}')])
    with pytest.raises(FetchError, match=r"ADS library X+: HTTP 410: no library X+ \(Library specified does not exist.\); check its id"):
        library_documents(polite, API, "X" * 22, {}, Progress(io.StringIO(), tty=False))
    polite, _ = session([(403, b'{"error": "You do not have the correct permissions"}')])
    with pytest.raises(FetchError, match=r"is private: make it public in ADS"):
        library_documents(polite, API, "X" * 22, {}, Progress(io.StringIO(), tty=False))


def test_an_answer_of_another_shape_is_an_error_naming_ads():
    polite, _ = session([(200, b'{"responseHeader": {}, "response": {"numFound": 1, "docs": "none"}}')])
    with pytest.raises(FetchError, match="unexpected answer from ADS"):
        search(polite, API, f"orcid:{ME}", {}, Progress(io.StringIO(), tty=False))


def test_a_token_a_server_quotes_is_blotted_out_of_the_message():
    polite, _ = session([(400, b'{"error": "bad header: Bearer s3cret-t0ken"}')])
    with pytest.raises(FetchError) as caught, secret_hidden("s3cret-t0ken", "[$ADS_API_TOKEN]"):
        search(polite, API, f"orcid:{ME}", {}, Progress(io.StringIO(), tty=False))
    assert "s3cret-t0ken" not in str(caught.value) and "Bearer [$ADS_API_TOKEN]" in str(caught.value)


def test_a_used_up_rate_limit_holds_the_next_request_until_it_resets():
    waits: list[float] = []
    reset = str(int(time.time()) + 30)
    polite, _ = session([(200, search_page([], 0, 0), {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset}), (200, search_page([], 0, 0))], waits)
    search(polite, API, "a", {}, Progress(io.StringIO(), tty=False))
    search(polite, API, "b", {}, Progress(io.StringIO(), tty=False))
    assert len(waits) == 1 and 25 < waits[0] <= 31


def test_a_rate_limit_that_resets_hours_later_stops_saying_when_and_sends_nothing_more():
    reset = int(time.time()) + 6 * 3600
    polite, scripted = session([(200, search_page([], 0, 0), {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)})])
    search(polite, API, "a", {}, Progress(io.StringIO(), tty=False))
    with pytest.raises(FetchError, match=rf"ADS search b: ADS allows no more requests until {time.strftime('%Y-%m-%d %H:%M', time.gmtime(reset))} UTC"):
        search(polite, API, "b", {}, Progress(io.StringIO(), tty=False))
    assert len(scripted.sent) == 1


def test_a_429_waits_for_the_rate_limits_reset_when_it_names_no_retry_after():
    waits: list[float] = []
    reset = str(int(time.time()) + 20)
    polite, _ = session(
        [(429, b'{"error": "Too many requests"}', {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset}), (200, search_page([], 0, 0))], waits
    )
    search(polite, API, "a", {}, Progress(io.StringIO(), tty=False))
    assert sum(waits) >= 15


def test_profile_yaml_ads_mapping_is_asked_with_its_lines_and_checked():
    from sitegen.validate import Fields

    text = f"name: Sheng Lin\nads:\n  orcid: {ME}\n  library: [Lq3ZkTQvS0yqXo1vV0rUaw]\n  query: 'author:\"^Lin, S.\"'\n"
    data, _ = parse_yaml(text, "content/profile.yaml")
    assert profile_asks(data, "content/profile.yaml") == [
        Ask("ads", "orcid", ME, "content/profile.yaml:3: field 'ads.orcid'"),
        Ask("ads", "query", 'author:"^Lin, S."', "content/profile.yaml:5: field 'ads.query'"),
        Ask("ads", "library", "Lq3ZkTQvS0yqXo1vV0rUaw", "content/profile.yaml:4: field 'ads.library'"),
    ]
    wrong, _ = parse_yaml("name: Sheng Lin\nads:\n  orcid: 0000-0003-1234-5675\n  libary: x\n", "content/profile.yaml")
    problems: list = []
    check_profile(Fields(wrong, "content/profile.yaml", problems), "content/profile.yaml", problems)
    said = [str(p) for p in problems]
    assert any(s.startswith("content/profile.yaml:3:") and "ads.orcid" in s and "check digit" in s for s in said), said
    assert any(s.startswith("content/profile.yaml:4:") and "warning" in s and "'library'" in s for s in said), said


def test_ads_ranks_as_a_library_as_pubmed():
    assert source_rank("ads") == LIBRARY == source_rank("pubmed")


def fetched_record(fetcher: str, **fields) -> Record:
    """A record as `fetcher` writes it, read back as the build reads it."""
    return validated_record(render({**fields, "origin": fetcher}), f"content/records/{fetcher}/{slugify(fields['id'])}.yaml")


def test_an_ads_article_its_arxiv_preprint_and_openalexs_record_are_one_work_with_adss_venue():
    ads = fetched_record("ads", **mapped("2021ApJ...912L..25L"))
    names = {"year": 2021, "authors": ["Sheng Lin", "Amaka Okafor", "Kenji Nakamura"]}
    preprint = fetched_record(
        "arxiv", id="2104.01234", title="The water maser disk of NGC 4258 and its warp", source="arXiv", type="preprint", arxiv="2104.01234", **names
    )
    openalex = fetched_record(
        "openalex",
        id="W4401234567",
        title="The H2O Maser Disk of NGC 4258 & Its Warp",
        source="The Astrophysical Journal Letters",
        type="article",
        doi="10.5555/apjl.abf5e1",
        citations=20,
        **names,
    )
    (work,) = merge_works([preprint, openalex, ads])
    assert set(work.sources) == {"ads", "arxiv", "openalex"}
    assert (work.type, work.source, work.doi, work.arxiv) == ("article", "The Astrophysical Journal", "10.5555/apjl.abf5e1", "2104.01234")
    assert work.title == r"The H\textsubscript{2}O Maser Disk of NGC 4258 & Its Warp"  # ADS's, ranked before OpenAlex's
    assert work.ids["ads"] == "2021ApJ...912L..25L" and work.citations == 20  # the largest count known


def test_a_bibcode_without_an_authors_initial_is_an_id_windows_can_hold():
    record, _ = record_of({**DOCUMENTS["2018MNRAS.480.1234L"], "bibcode": "1998ApJ...500..525."})
    assert record is not None and (record["id"], record["ids"]["ads"]) == ("1998ApJ...500..525", "1998ApJ...500..525.")
    assert [str(p) for p in check_record(render({**record, "origin": "ads"}), "content/records/ads/1998ApJ...500..525.yaml")] == []


def test_an_ads_setting_written_as_a_string_says_how_to_write_it_as_a_mapping():
    from sitegen.validate import Fields

    data, _ = parse_yaml(f"name: Sheng Lin\nads: {ME}\n", "content/profile.yaml")
    problems: list = []
    check_profile(Fields(data, "content/profile.yaml", problems), "content/profile.yaml", problems)
    assert [str(p) for p in problems] == [
        f"content/profile.yaml:2: field 'ads': a mapping of what to ask ADS (orcid:, library:, query:): write it as ads: {{orcid: '{ME}'}}"
    ]
