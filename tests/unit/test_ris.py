"""publications.ris read back with rispy, an RIS reader, as a reference manager would read it."""

from __future__ import annotations

import re

import pytest
import rispy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.exports.ris import RIS_TYPES, publications_ris, ris_entry
from sitegen.fragments import Fragments
from sitegen.model import RECORD_TYPES
from unit.test_cite import JOURNAL, KESTREL, PREPRINT, THESIS, make_entry

ABSTRACT_ENTRY = make_entry(
    "abs",
    "Load Balancing, Again",
    ("Lena Müller", "Jan van der Berg", "ATLAS Collaboration"),
    date="2024-01-05",
    source="Journal of Examples",
    type="article",
    abstract="We show   a 1.45× speedup.\nSecond line.",
    subjects=("cs.DC", "cs.LG"),
)
PAGES = {"muller2025kestrel": "https://e.org/records/muller2025kestrel/", "abs": "https://e.org/records/abs/"}


def read(data: bytes) -> list[dict]:
    return rispy.loads(data.decode("utf-8"))


def page_of(entry) -> str:
    return PAGES.get(entry.id, "")


@pytest.fixture(scope="module")
def records() -> dict[str, dict]:
    parsed = read(publications_ris([KESTREL, PREPRINT, JOURNAL, THESIS, ABSTRACT_ENTRY], page_of))
    return {r["title"]: r for r in parsed}


def test_one_record_per_entry_in_order():
    parsed = read(publications_ris([KESTREL, PREPRINT, JOURNAL, THESIS, ABSTRACT_ENTRY], page_of))
    assert [r["title"] for r in parsed] == [
        "Kestrel: Fast Load Balancing",
        "Quadratic Time Is Enough",
        "A Journal Paper",
        "My Thesis",
        "Load Balancing, Again",
    ]


def test_conference_paper(records):
    paper = records["Kestrel: Fast Load Balancing"]
    assert paper["type_of_reference"] == "CPAPER"
    assert paper["authors"] == ["Müller, Lena", "Berg, Jonas", "Dupont, André"]
    assert paper["secondary_title"] == "Proceedings of the Twentieth European Conference on Computer Systems"
    assert (paper["year"], paper["date"]) == ("2025", "2025/03/30")
    assert paper["doi"] == "10.5555/3689031.3717462"
    assert paper["urls"] == ["https://doi.org/10.5555/3689031.3717462"]  # no landing page of its own: its DOI's address


def test_arxiv_preprint(records):
    preprint = records["Quadratic Time Is Enough"]
    assert preprint["type_of_reference"] == "UNPB"
    assert preprint["publisher"] == "arXiv"
    assert preprint["note"] == "arXiv:2401.01234"
    assert preprint["urls"] == ["https://arxiv.org/abs/2401.01234"]
    assert preprint["year"] == "2024" and "date" not in preprint


def test_journal_article_with_volume_issue_pages(records):
    article = records["A Journal Paper"]
    assert article["type_of_reference"] == "JOUR"
    assert article["secondary_title"] == "Journal of Examples"
    assert (article["volume"], article["number"], article["start_page"], article["end_page"]) == ("12", "3", "45", "67")


def test_thesis(records):
    thesis = records["My Thesis"]
    assert thesis["type_of_reference"] == "THES"
    assert thesis["publisher"] == "University of Examples"
    assert thesis["type_of_work"] == "PhD thesis"


def test_abstract_keywords_and_names(records):
    article = records["Load Balancing, Again"]
    assert article["abstract"] == "We show a 1.45× speedup. Second line."
    assert article["keywords"] == ["CS.DC", "CS.LG"]  # the subjects' names
    assert article["authors"] == ["Müller, Lena", "van der Berg, Jan", "ATLAS Collaboration"]
    assert article["urls"] == ["https://e.org/records/abs/"]


def test_lines_follow_the_specification():
    """`TAG  - value` with CRLF after every line; TY first and ER last in each record."""
    text = publications_ris([KESTREL, ABSTRACT_ENTRY], page_of).decode("utf-8")
    assert text.endswith("ER  - \r\n\r\n")
    assert "\n" not in text.replace("\r\n", "")
    records = text.split("\r\n\r\n")[:-1]
    assert len(records) == 2
    for record in records:
        lines = record.split("\r\n")
        assert all(re.fullmatch(r"[A-Z][A-Z0-9]  - .*", line) for line in lines), lines
        assert lines[0].startswith("TY  - ") and lines[-1] == "ER  - "


def test_each_entry_stands_alone():
    """A build that keeps each record's RIS joins them into the same file."""
    assert publications_ris([KESTREL, JOURNAL], page_of) == (ris_entry(KESTREL, PAGES["muller2025kestrel"]) + ris_entry(JOURNAL)).encode()
    kept = Fragments(keep_between_builds=True)  # the dev server's store: the second build joins the kept entries
    kept.start("site")
    first = publications_ris([KESTREL, JOURNAL], page_of, kept)
    kept.start("site")
    assert publications_ris([KESTREL, JOURNAL], page_of, kept) == first


@pytest.mark.parametrize("kind", RECORD_TYPES)
def test_every_record_type_has_an_ris_type(kind):
    [parsed] = read(publications_ris([make_entry(type=kind, year=2020, source="Somewhere")]))
    assert parsed["type_of_reference"] == RIS_TYPES[kind]
    assert parsed["type_of_reference"] in rispy.TYPE_OF_REFERENCE_MAPPING


_line_breaking = st.lists(
    st.sampled_from(["a", "b", " ", "\n", "\r", "\r\n", "\t", "\u2028", "ER  - ", "TY  - JOUR", "é", "-", ","]), min_size=1, max_size=20
).map("".join)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=_line_breaking, abstract=_line_breaking, venue=_line_breaking)
def test_no_text_breaks_a_record_apart(title, abstract, venue):
    entry = make_entry("x", "t" + title, ("Ada Lovelace",), year=2020, source=venue, abstract=abstract, type="article")
    [parsed] = read(ris_entry(entry).encode())
    assert parsed["title"] == " ".join(("t" + title).split())
    assert parsed.get("abstract", "") == " ".join(abstract.split())
    assert len(read(publications_ris([entry, entry]))) == 2


def test_an_edited_volume_and_a_chapter_in_a_series_read_into_zotero_as_they_are():
    """An edited book's editors were A2, which Zotero's RIS import makes a book's *series* editors (its A3 is the
    editor); a book's number in its series (biblatex's `number` of a @book or @incollection) was IS, an issue."""
    from sitegen.cite import csl_item

    series = {"series": "Studies in Medieval and Reformation Traditions", "number": "218", "publisher": "Brill"}
    volume = make_entry("v", "Confessional Borderlands", type="book", extra={**series, "editors": ["Ada Lovelace", "Pieter van der Linden"]})
    chapter = make_entry(
        "c", "Gdańsk and the Huguenot Diaspora", ("Ada Lovelace",), type="chapter", source="Confessional Borderlands",
        extra={**series, "editors": ["Pieter van der Linden"], "pages": "45--78"},
    )  # fmt: skip
    article = make_entry("a", "Credit and Conscience", ("Ada Lovelace",), type="article", source="French History", extra={"number": "3"})
    book, in_book, in_journal = read(publications_ris([volume, chapter, article]))
    assert (book["type_of_reference"], book["tertiary_authors"], book.get("secondary_authors")) == ("BOOK", ["Lovelace, Ada", "van der Linden, Pieter"], None)
    assert (book["note"], book.get("number")) == ("218", None)  # M1: Zotero's series number of a book
    assert (in_book["type_of_reference"], in_book["secondary_authors"], in_book.get("number")) == ("CHAP", ["van der Linden, Pieter"], None)
    assert in_journal["number"] == "3"  # IS: a journal's issue
    assert (csl_item(volume)["collection-number"], csl_item(chapter)["collection-number"]) == ("218", "218")
    assert "issue" not in csl_item(volume) and "issue" not in csl_item(chapter) and csl_item(article)["issue"] == "3"
