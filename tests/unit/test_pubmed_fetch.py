"""The PubMed fetcher's own parts (sitegen.sources.pubmed): what it searches for, and how an article of PubMed's XML
becomes a record; the requests themselves are tests/e2e/test_pubmed.py's, against the fake E-utilities."""

from __future__ import annotations

import datetime

import pytest
import requests

from sitegen.sources.http import parse_xml
from sitegen.sources.pubmed import judge_articles, normalise_query, record_of, search_term


@pytest.mark.parametrize(
    ("written", "query", "term"),
    [
        ("https://orcid.org/0000-0002-1825-0097", "0000-0002-1825-0097", "0000-0002-1825-0097[auid]"),
        ("0000000218250097", "0000-0002-1825-0097", "0000-0002-1825-0097[auid]"),
        ("Sheng Lin", "Sheng Lin", '"Lin Sheng"[Author]'),
        ("Lin, Sheng", "Lin, Sheng", '"Lin Sheng"[Author]'),
        ("  Jan  van der Berg ", "Jan van der Berg", '"van der Berg Jan"[Author]'),
        ('Ann "Bobby" Lee[au]', 'Ann "Bobby" Lee[au]', '"Lee Ann Bobby"[Author]'),
    ],
)
def test_what_is_searched_for_an_orcid_id_or_a_name(written: str, query: str, term: str) -> None:
    assert normalise_query(written) == query
    assert search_term(normalise_query(written)) == term


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("0000-0002-1825-0096", "is not a valid ORCID iD: its last character (the check digit) should be 7"),
        ("12345", "is neither an ORCID iD (0000-0002-1825-0097) nor an author's name"),
    ],
)
def test_a_mistyped_orcid_id_or_no_name_is_refused(written: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        normalise_query(written)


ARTICLE = b"""<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID Version="1">123</PMID><Article>
<Journal><JournalIssue><PubDate><Year>2021</Year><Month>07</Month><Day>3</Day></PubDate></JournalIssue><Title>Lancet</Title></Journal>
<ArticleTitle>A <b>trial</b>.</ArticleTitle>
<AuthorList><Author ValidYN="N"><LastName>Wrong</LastName></Author><Author><LastName>Lee</LastName><Initials>A</Initials></Author>
<Author><CollectiveName>The TRIAL Group</CollectiveName><Identifier Source="ORCID">0000-0002-1825-0097</Identifier></Author></AuthorList>
<Pagination><StartPage>10</StartPage><EndPage>19</EndPage></Pagination>
<PublicationTypeList><PublicationType>Retracted Publication</PublicationType></PublicationTypeList>
</Article></MedlineCitation></PubmedArticle></PubmedArticleSet>"""


def test_an_article_of_pubmeds_xml_as_a_record() -> None:
    tree, _ = parse_xml(ARTICLE)
    record, warnings = record_of(tree.find("PubmedArticle"))
    assert warnings == []
    assert record is not None
    assert (record["id"], record["title"], record["date"]) == ("pmid-123", "A \\textbf{trial}", datetime.date(2021, 7, 3))
    assert record["authors"] == ["Lee", "{The TRIAL Group}"]  # an author NLM marks invalid is no author
    assert record["author_ids"] == {"{The TRIAL Group}": "0000-0002-1825-0097"}
    assert (record["pages"], record["retracted"], record["ids"]) == ("10–19", True, {"pmid": "123"})


def test_an_article_without_a_year_is_left_out_with_a_warning() -> None:
    tree, _ = parse_xml(ARTICLE.replace(b"<Year>2021</Year>", b""))
    record, warnings = record_of(tree.find("PubmedArticle"))
    assert record is None
    assert warnings == ["warning: PubMed PMID 123: this citation has no year (DP  - 2023 Mar 15): it is not read; left out"]


def answer(body: bytes) -> requests.Response:
    response = requests.Response()
    response.status_code, response._content = 200, body
    response.headers["Content-Type"] = "text/xml"
    return response


def test_efetchs_error_document_is_a_failure_that_says_what_it_was() -> None:
    judged = judge_articles(answer(b'<?xml version="1.0" ?>\n<eFetchResult>\n\t<ERROR>Empty id list - nothing todo</ERROR>\n</eFetchResult>\n'))
    assert (judged.ok, judged.retry, judged.reason) == (False, False, "not a PubMed answer (Empty id list - nothing todo)")
    assert judge_articles(answer(ARTICLE)).ok
