"""The INSPIRE fetcher's own parts (sitegen.sources.inspire): what it asks INSPIRE, how it pages, and how a literature
record of INSPIRE's REST API becomes a record; the requests themselves are tests/e2e/test_inspire.py's, against the
fake INSPIRE (tests/fixtures/fake_inspire.py), whose records these tests read too."""

from __future__ import annotations

import copy
import datetime
import json
from pathlib import Path
from typing import Any

import pytest

from sitegen.sources.http import FetchError
from sitegen.sources.inspire import FIELDS, literature, normalise_author, owner_names, record_from_hit, search_query, spaced_journal

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "inspire" / "literature.json"
BAI = "C.A.Okafor.1"
ORCID = "0000-0002-1825-0097"


def hits() -> dict[int, dict[str, Any]]:
    return {hit["metadata"]["control_number"]: hit for hit in json.loads(FIXTURES.read_text(encoding="utf-8"))}


@pytest.mark.parametrize(
    ("written", "author", "query"),
    [
        ("E.Witten.1", "E.Witten.1", "a E.Witten.1"),
        (" J.M.Maldacena.1 ", "J.M.Maldacena.1", "a J.M.Maldacena.1"),
        ("Jean.Dupont-Roc.2", "Jean.Dupont-Roc.2", "a Jean.Dupont-Roc.2"),
        ("G.t.Hooft.1", "G.t.Hooft.1", "a G.t.Hooft.1"),
        ("Witten.1", "Witten.1", "a Witten.1"),
        ("https://orcid.org/0000-0002-1825-0097", ORCID, f"authors.ids.value:{ORCID}"),
        ("0000000218250097", ORCID, f"authors.ids.value:{ORCID}"),
    ],
)
def test_what_is_asked_for_an_author_identifier_or_an_orcid_id(written: str, author: str, query: str) -> None:
    assert normalise_author(written) == author
    assert search_query(author) == query


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("Witten", "'Witten' is neither an INSPIRE author identifier (like E.Witten.1"),
        ("E.Witten", "'E.Witten' is neither an INSPIRE author identifier"),
        ("a E.Witten.1", "'a E.Witten.1' is neither an INSPIRE author identifier"),
        ("https://inspirehep.net/authors/1010819", "nor an ORCID iD (0000-0002-1825-0097); the number of an author's INSPIRE page is neither"),
        ("0000-0002-1825-0096", "is not a valid ORCID iD: its last character (the check digit) should be 7"),
    ],
)
def test_what_is_no_author_identifier_is_refused_before_any_request(written: str, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        normalise_author(written)
    assert message in str(raised.value)


def test_an_article_with_its_journal_doi_arxiv_id_and_citations() -> None:
    record, warnings = record_from_hit(hits()[2450004], BAI)
    assert warnings == []
    assert record is not None
    assert (record["id"], record["type"], record["year"], record["date"]) == ("inspire-2450004", "article", 2021, datetime.date(2021, 6, 14))
    assert record["title"] == "Integrable deformations of AdS$_5\\times$S$^5$"  # LaTeX as INSPIRE keeps it: the build converts it
    assert record["authors"] == ["Okafor, Chinedu A.", "Müller, Zoë", "Berg, Jan van der"]
    assert record["author_ids"] == {"Okafor, Chinedu A.": ORCID, "Müller, Zoë": "0000-0003-1415-9269"}
    assert (record["source"], record["volume"], record["pages"]) == ("JHEP", "09", "101")
    assert (record["doi"], record["arxiv"], record["citations"]) == ("10.1007/JHEP09(2021)101", "2106.07777", 42)
    assert record["ids"] == {"inspire": "2450004", "doi": "10.1007/JHEP09(2021)101", "arxiv": "2106.07777"}
    assert record["links"] == {"abs": "https://arxiv.org/abs/2106.07777", "doi": "https://doi.org/10.1007/JHEP09(2021)101"}
    assert record["aliases"] == ["Okafor:2021mno", "Okafor:2021abc"]  # the texkeys physicists \cite it by


def test_a_preprint_a_conference_paper_a_thesis_and_a_chapter_take_their_types_and_venues() -> None:
    found = {number: record_from_hit(hit, BAI)[0] for number, hit in hits().items()}
    preprint, talk, thesis, chapter = (found[n] for n in (2780001, 2550003, 2350005, 2250006))
    assert preprint is not None and talk is not None and thesis is not None and chapter is not None
    assert (preprint["type"], preprint["source"], preprint["categories"]) == ("preprint", "arXiv", ["hep-th", "math-ph"])
    assert preprint["abstract"] == "We compute $\\Gamma_{\\rm cusp}(g)$ for $g \\gg 1$ to three loops.\n\nThe result agrees with integrability."
    assert (talk["type"], talk["source"], talk["volume"], talk["pages"]) == ("inproceedings", "PoS", "ICHEP2022", "512")
    assert (thesis["type"], thesis["source"], thesis["year"]) == ("thesis", "Imperial Coll., London", 2019)
    assert thesis["authors"] == ["Okafor, Chinedu A."]  # the supervisor is no author
    assert (chapter["type"], chapter["pages"], chapter["editors"]) == ("chapter", "201–240", ["Ødegård, Tove"])
    assert chapter["authors"] == ["Okafor, Chinedu A."]


def test_journal_abbreviations_are_spaced_as_inspires_citations_print_them() -> None:
    assert [spaced_journal(t) for t in ("Phys.Rev.Lett.", "Nucl.Phys.B", "JHEP", "Eur. Phys. J. C")] == [
        "Phys. Rev. Lett.",
        "Nucl. Phys. B",
        "JHEP",
        "Eur. Phys. J. C",
    ]


def collaboration_paper(count: int, owner_at: int) -> dict[str, Any]:
    """The ATLAS paper of the fixtures with `count` authors, the owner at place `owner_at` (from 1)."""
    hit = copy.deepcopy(hits()[2650002])
    owner = hit["metadata"]["authors"][0]
    others = [{"full_name": f"Author{i}, A.", "ids": []} for i in range(count - 1)]
    hit["metadata"]["authors"] = others[: owner_at - 1] + [owner] + others[owner_at - 1 :]
    return hit


def test_a_collaborations_thousands_of_authors_are_cut_to_the_first_and_et_al() -> None:
    record, _ = record_from_hit(collaboration_paper(2900, 1412), BAI)
    assert record is not None
    assert record["authors"] == [f"Author{i}, A." for i in range(10)]
    assert (record["et_al"], record["collaboration"]) == (True, "ATLAS")
    assert (record["source"], record["volume"], record["issue"], record["pages"]) == ("Phys. Rev. Lett.", "130", "8", "081801")
    assert record["title"].startswith("Search for heavy resonances decaying into a $Z$ boson")  # the journal's title, not arXiv's


def test_a_long_list_keeps_the_owner_who_stands_among_the_first_hundred() -> None:
    record, _ = record_from_hit(collaboration_paper(300, 37), ORCID)
    assert record is not None
    assert len(record["authors"]) == 37 and record["authors"][-1] == "Okafor, Chinedu A." and record["et_al"] is True
    assert record["author_ids"] == {"Okafor, Chinedu A.": ORCID}


def test_a_list_the_pages_show_whole_is_written_whole() -> None:
    record, _ = record_from_hit(collaboration_paper(12, 12), BAI)
    assert record is not None
    assert len(record["authors"]) == 12 and "et_al" not in record


@pytest.mark.parametrize(("removed", "missing"), [("titles", "title"), ("earliest_date", "year")])
def test_a_record_without_a_title_or_a_year_is_left_out_with_a_warning(removed: str, missing: str) -> None:
    hit = copy.deepcopy(hits()[2780001])
    for field in (removed, "preprint_date") if removed == "earliest_date" else (removed,):
        del hit["metadata"][field]
    record, warnings = record_from_hit(hit, BAI)
    assert record is None
    assert warnings == [f"warning: INSPIRE record 2780001: no {missing}; left out (write its record by hand under content/records/ to show it)"]


def test_the_owners_names_are_those_their_identifier_signs() -> None:
    assert owner_names(list(hits().values()), BAI) == ["Okafor, Chinedu A."]
    assert owner_names(list(hits().values()), "0000-0003-1415-9269") == ["Müller, Zoë"]


class Pages:
    """A session whose answers are the pages given, each fetched address logged."""

    def __init__(self, pages: list[dict[str, Any]]):
        self.pages = pages
        self.asked: list[tuple[str, str, dict[str, str] | None]] = []

    def fetch(self, url: str, what: str, params: dict[str, str] | None = None, **_: Any) -> dict[str, Any]:
        self.asked.append((url, what, params))
        return self.pages[len(self.asked) - 1]


API = "https://inspirehep.net/api"


def page(numbers: list[int], following: str | None) -> dict[str, Any]:
    return {"hits": {"hits": [{"metadata": {"control_number": n}} for n in numbers], "total": 5}, "links": {"next": following} if following else {}}


def test_pages_are_followed_by_their_next_link_until_there_is_none() -> None:
    second, third = f"{API}/literature/?q=a+E.Witten.1&size=2&page=2", f"{API}/literature/?q=a+E.Witten.1&size=2&page=3"
    session = Pages([page([1, 2], second), page([3, 4], third), page([5], None)])
    found = literature(session, API, "E.Witten.1", 2)  # type: ignore[arg-type]
    assert [hit["metadata"]["control_number"] for hit in found] == [1, 2, 3, 4, 5]
    first_url, first_what, params = session.asked[0]
    assert (first_url, first_what) == (f"{API}/literature", "INSPIRE literature of E.Witten.1")
    assert params == {"q": "a E.Witten.1", "size": "2", "page": "1", "sort": "mostrecent", "fields": FIELDS}
    assert session.asked[1:] == [(second, "INSPIRE literature of E.Witten.1, page 2", None), (third, "INSPIRE literature of E.Witten.1, page 3", None)]


def test_a_next_link_to_another_site_is_refused_and_one_seen_before_ends_the_paging() -> None:
    with pytest.raises(FetchError, match="page's address leads to another site"):
        literature(Pages([page([1], "https://elsewhere.example/api/literature?page=2")]), API, "E.Witten.1", 1)  # type: ignore[arg-type]
    again = f"{API}/literature/?page=2"
    session = Pages([page([1], again), page([2], again)])
    assert len(literature(session, API, "E.Witten.1", 1)) == 2  # type: ignore[arg-type]
    assert len(session.asked) == 2


# -- the records written, read back and merged with other sources' -------------------------------------------------


def written_record(hit: dict[str, Any]) -> tuple[str, str]:
    """The file `sitegen fetch` writes for an INSPIRE hit: its path and its text."""
    from sitegen.fetch import render

    record, _ = record_from_hit(hit, BAI)
    assert record is not None
    return f"content/records/inspire/{record['id']}.yaml", render({**record, "origin": "inspire"})


@pytest.mark.parametrize("number", sorted(hits()))
def test_every_record_written_reads_back_without_a_problem(number: int) -> None:
    from sitegen.fetch import check_record

    path, text = written_record(hits()[number])
    assert check_record(text, path) == []


INSPIRE_BIBTEX = (Path(__file__).resolve().parents[1] / "fixtures" / "inspire" / "Okafor-2021mno.bib").read_text(encoding="utf-8")  # as INSPIRE exports it


def test_an_inspire_record_merges_with_arxivs_and_the_users_bib_entry_of_the_work() -> None:
    from conftest import validated_record

    from sitegen.merge import merge_works
    from sitegen.sources import reader_for, source_rank

    path, text = written_record(hits()[2450004])
    fetched = validated_record(text, path)
    assert fetched.origin is not None and (fetched.origin.source, fetched.origin.fetched) == ("inspire", True)
    arxiv = validated_record(
        'id: "2106.07777"\ntitle: Integrable deformations of AdS5xS5\nauthors: [Chinedu A. Okafor, Zoë Müller, Jan van der Berg]\n'
        "year: 2021\nsource: arXiv\narxiv: '2106.07777'\ncitations: 40\norigin: arxiv\n",
        "content/records/arxiv/2106.07777.yaml",
    )
    bib_path = "content/records/inspire-export.bib"
    reader = reader_for(bib_path)
    assert reader is not None
    mappings, problems = reader.read(INSPIRE_BIBTEX, bib_path)
    from sitegen.validate import validate_record

    own = validate_record(mappings[0], bib_path, problems, source_key=bib_path, reader=reader.name)
    assert own is not None and problems == []
    notes: list = []
    (work,) = merge_works([fetched, arxiv, own], notes)
    assert source_rank("inspire") < source_rank("arxiv")  # a library's curated record before the authors' deposit
    assert work.id == "Okafor:2021mno"  # the user's own key, which INSPIRE's texkey is too
    assert work.authors == own.authors  # the user's own list
    assert (work.source, work.doi, work.citations) == ("JHEP", "10.1007/JHEP09(2021)101", 42)  # the DOI INSPIRE knows; its count, the largest
    assert work.ids["inspire"] == "2450004"
    assert set(work.sources) == {"arxiv", "inspire", "bibtex"}


def test_a_bib_entry_with_al_folios_inspirehep_id_is_the_same_work_as_that_inspire_record() -> None:
    from conftest import validated_record

    from sitegen.merge import merge_works
    from sitegen.sources import reader_for
    from sitegen.validate import validate_record

    path, text = written_record(hits()[2350005])
    fetched = validated_record(text, path)
    bib_path = "content/records/papers.bib"
    reader = reader_for(bib_path)
    assert reader is not None
    entry = "@phdthesis{okafor_thesis,\n  author = {Okafor, C. A.},\n  title = {Amplitudes at strong coupling},\n  school = {Imperial College},\n  year = {2019},\n  inspirehep_id = {2350005}\n}\n"
    mappings, problems = reader.read(entry, bib_path)
    own = validate_record(mappings[0], bib_path, problems, source_key=bib_path, reader=reader.name)
    assert own is not None and problems == []
    notes: list = []
    (work,) = merge_works([own, fetched], notes)
    assert (work.id, work.title, work.citations) == ("okafor_thesis", "Amplitudes at strong coupling", 1)
    assert [note.message for note in notes] == []  # the fetched record is merged into the user's: nothing of theirs vanished
    (reverse,) = merge_works([fetched, own])
    assert reverse.id == "okafor_thesis"
