"""The HAL fetcher's own parts (sitegen.sources.hal): the idHAL check, how a HAL document becomes a record, the walk
of Solr's cursor and HAL's errors; the command itself is tests/e2e/test_hal.py's, against the fake HAL."""

from __future__ import annotations

import datetime
import io
import json
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from scripted_http import Scripted

from sitegen.progress import Progress
from sitegen.sources.hal import author_query, candidates_of, documents, name_query, normalise_idhal, record_of
from sitegen.sources.http import FetchError, PoliteSession, Settings

DOCUMENTS = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "hal" / "documents.json").read_text(encoding="utf-8"))
API = "http://127.0.0.1:1"


def document(hal_id: str) -> dict:
    return next(doc for doc in DOCUMENTS if doc["halId_s"] == hal_id)


@pytest.mark.parametrize(
    ("written", "idhal", "query"),
    [
        ("camille-martin", "camille-martin", 'authIdHal_s:"camille-martin"'),
        (" https://cv.hal.science/camille-martin/ ", "camille-martin", 'authIdHal_s:"camille-martin"'),
        ("http://cv.archives-ouvertes.fr/camille-martin", "camille-martin", 'authIdHal_s:"camille-martin"'),
        ("1234567", "1234567", "authIdHal_i:1234567"),
    ],
)
def test_an_idhal_its_page_or_its_number(written: str, idhal: str, query: str) -> None:
    assert normalise_idhal(written) == idhal
    assert author_query(normalise_idhal(written)) == query


@pytest.mark.parametrize("written", ["Camille Martin", "camille.martin", "élodie-rousseau", 'camille-martin"', "", "https://hal.science/hal-03100001"])
def test_what_is_no_idhal_is_refused_naming_the_name_search(written: str) -> None:
    with pytest.raises(
        ValueError, match="is not an idHAL .like jean-dupont, from cv.hal.science/jean-dupont, or its number.; to search HAL by name, use --hal-name"
    ):
        normalise_idhal(written)


@pytest.mark.parametrize("written", ["hal-03100001", "tel-03300003v2"])
def test_a_documents_id_is_refused_as_no_idhal(written: str) -> None:
    with pytest.raises(ValueError, match="is the id of a HAL document, not an idHAL: give its author's idHAL"):
        normalise_idhal(written)


def test_a_name_is_searched_as_a_phrase_that_no_quote_of_its_own_ends() -> None:
    assert name_query('Camille "Cam" Martin\\') == 'authFullName_t:"Camille Cam Martin"'


def test_a_french_article_keeps_its_french_title_and_abstract_marked_french() -> None:
    record = record_of(document("hal-03100001"))
    assert record["title"] == "Les savants et la mesure du méridien"  # its title as published, not HAL's English translation
    assert record["language"] == "fr"
    assert record["abstract"] == "Nous étudions la mesure du méridien (1792-1799) et ses savants."
    assert (record["type"], record["source"], record["year"], record["date"]) == ("article", "Revue d'histoire des sciences", 2021, datetime.date(2021, 6, 15))
    assert (record["volume"], record["issue"], record["pages"]) == ("74", "2", "233-260")
    assert record["authors"] == ["Camille Martin", "Élodie Rousseau"]
    assert record["categories"] == ["histoire des sciences", "métrologie"]
    assert record["doi"] == "10.3917/rhs.742.0233"
    assert record["links"] == {
        "hal": "https://hal.science/hal-03100001",  # as a .bib entry's eprinttype = {hal} links it: no version
        "pdf": "https://hal.science/hal-03100001v2/document",
        "doi": "https://doi.org/10.3917/rhs.742.0233",
    }
    assert record["ids"] == {"hal": "hal-03100001", "doi": "10.3917/rhs.742.0233"}


def test_a_communication_with_an_arxiv_id_links_to_arxiv() -> None:
    record = record_of(document("hal-03200002"))
    assert (record["type"], record["source"], record["year"], record["language"]) == (
        "inproceedings",
        "International Congress of History of Science and Technology",
        2022,
        "en",
    )
    assert record["arxiv"] == "2204.01234"
    assert record["links"]["abs"] == "https://arxiv.org/abs/2204.01234"


def test_a_thesis_is_of_its_university_and_an_abstract_in_another_language_is_left_out() -> None:
    record = record_of(document("tel-03300003"))
    assert (record["id"], record["type"], record["source"], record["language"]) == ("tel-03300003", "thesis", "Université Paris-Saclay", "fr")
    assert "abstract" not in record  # English only: the page would mark it French
    assert record["links"]["hal"] == "https://hal.science/tel-03300003"


@pytest.mark.parametrize("language", [["und"], ["other"], ["fr<b>"], [], None])
def test_a_preprint_is_hals_own_and_a_document_without_a_language_names_none(language: list[str] | None) -> None:
    doc = {**document("hal-03400004"), "language_s": language}
    record = record_of(doc)
    assert (record["type"], record["source"]) == ("preprint", "HAL")
    assert "language" not in record and "date" not in record
    assert record["links"] == {"hal": "https://hal.science/hal-03400004", "pdf": "https://hal.science/hal-03400004v3/document"}


def test_a_hal_id_that_no_address_holds_as_it_is_is_quoted_in_its_link() -> None:
    record = record_of({**document("hal-03400004"), "halId_s": 'hal-1"><b>x'})
    assert record["links"]["hal"] == "https://hal.science/hal-1%22%3E%3Cb%3Ex"


def test_a_name_search_describes_each_idhal_that_signs_with_the_name() -> None:
    signed = [doc for doc in DOCUMENTS if "Camille Martin" in doc["authFullName_s"]]
    people, unsigned = candidates_of("Camille Martin", signed)
    assert [(p.id, p.name, p.works, p.years) for p in people] == [
        ("camille-martin", "Camille Martin", 4, "2019–2024"),
        ("camille-martin-chimie", "Camille Martin", 1, "2023–2023"),
    ]
    assert people[0].coauthors == ["Élodie Rousseau", "Hugo Lefèvre"]
    assert unsigned == 1  # the poster no idHAL signs


def session(answers: list) -> tuple[PoliteSession, Scripted]:
    polite = PoliteSession(Settings(api_url=API, delay=0, backoff=1.0, retries=1), Progress(io.StringIO(), tty=False), "HAL", sleep=lambda _: None)
    adapter = Scripted(answers)
    polite.mount("http://", adapter)
    return polite, adapter


def page(docs: list[dict], following: str) -> bytes:
    return json.dumps({"response": {"numFound": 3, "start": 0, "numFoundExact": True, "docs": docs}, "nextCursorMark": following}).encode()


def test_every_page_of_solrs_cursor_is_read_until_its_mark_stays_the_same() -> None:
    first, second, third = DOCUMENTS[:3]
    polite, adapter = session([(200, page([first, second], "AoE1")), (503, b"busy"), (200, page([third], "AoE2")), (200, page([], "AoE2"))])
    found = documents(polite, API, author_query("camille-martin"), "HAL documents of camille-martin", rows=2)
    assert [d["halId_s"] for d in found] == ["hal-03100001", "hal-03200002", "tel-03300003"]
    asked = [{k: v[0] for k, v in parse_qs(urlparse(r.url).query).items()} for r in adapter.sent]
    assert [a["cursorMark"] for a in asked] == ["*", "AoE1", "AoE1", "AoE2"]  # a page that failed is asked again with its own mark
    assert {(a["q"], a["sort"], a["rows"], a["wt"]) for a in asked} == {('authIdHal_s:"camille-martin"', "docid asc", "2", "json")}
    assert "halId_s" in asked[0]["fl"].split(",") and "fileMain_s" in asked[0]["fl"].split(",")


def test_solrs_error_document_is_quoted_and_a_maintenance_page_is_no_answer() -> None:
    error = {"responseHeader": {"status": 400}, "error": {"metadata": ["error-class", "x"], "msg": "undefined field authIdHal", "code": 400}}
    polite, _ = session([(400, json.dumps(error).encode(), {"Content-Type": "application/json"})])
    with pytest.raises(FetchError, match="HAL documents of x: HTTP 400 Bad Request: 'undefined field authIdHal'"):
        documents(polite, API, "authIdHal:x", "HAL documents of x")
    polite, _ = session([(200, b"<html><title>HAL - Maintenance</title></html>", {"Content-Type": "text/html"})])
    with pytest.raises(FetchError, match="an HTML page, not a JSON answer .text/html.: 'HAL - Maintenance'"):
        documents(polite, API, author_query("x"), "HAL documents of x")
    polite, _ = session([(200, b'{"response": {"numFound": 0}}', {"Content-Type": "application/json"})])
    with pytest.raises(FetchError, match="unexpected answer from HAL"):
        documents(polite, API, author_query("x"), "HAL documents of x")
