"""CSL-JSON files under content/records/ (Zotero's "Export Collection… → CSL JSON", Better BibTeX's automatic
export, Pandoc's references.json) read as records at build time (sitegen.sources.csl_json), and the CSL items
sitegen makes for its citations read back as the records they were made from."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import ARXIV_RECORD, MINIMAL_SITE, read_record_file, write_site
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.build import check_site
from sitegen.cite import csl_item
from sitegen.errors import ContentError
from unit.test_cite import make_entry

PATH = "content/records/references.json"

# What Zotero 7 writes for an arXiv preprint, a journal article with its Extra field, a thesis and a conference
# paper (its tab indentation, its `id` an item's address, `journalAbbreviation` beside CSL's variables)
ZOTERO = (Path(__file__).resolve().parents[1] / "fixtures" / "sources" / "csl-json" / "zotero.json").read_text(encoding="utf-8")


def read(text: str, path: str = PATH):
    """The records of a .json file as validation makes them, and every message (reader's and validation's)."""
    return read_record_file(text, path, "csl-json")


def item_file(*items: dict) -> str:
    return json.dumps(list(items), indent=2, ensure_ascii=False)


class Built:
    """A site with `files` as a user's site folder holds them, checked in memory as `sitegen check` does."""

    def __init__(self, root: Path, files: dict[str, str]):
        self.result = check_site(write_site(root, {**MINIMAL_SITE, **files}))
        self.warnings = [str(problem) for problem in self.result.warnings if not problem.note]
        self.records = {record["id"]: record for record in json.loads(self.result.files["records.json"])["records"]}

    def page(self, record_id: str) -> BeautifulSoup:
        slug = re.sub(r"[^A-Za-z0-9._-]", "-", record_id)  # SPEC §3
        return BeautifulSoup(self.result.files[f"records/{slug}/index.html"], "html.parser")


# -- Zotero's export ---------------------------------------------------------------------------------------


def test_zotero_preprint_gives_its_arxiv_id_type_and_subjects():
    records, problems = read(ZOTERO)
    assert problems == [f"{PATH}:37: warning: note: Better BibTeX's lines for its BibTeX export are left out (tex.howpublished: online)"]
    preprint = records[0]
    assert preprint.id == "muller2024kestrel"  # Zotero's `id` is its item's address, no citation key: made as RIS's are
    assert (preprint.arxiv, preprint.type, preprint.source, preprint.doi) == ("2402.01234", "preprint", "arXiv", "10.48550/arXiv.2402.01234")
    assert preprint.title == "Kestrel: fast load balancing for $O(n \\log n)$ jobs"  # math as written, for the pipeline
    assert preprint.authors == ("Müller, Lena", "Berg, Jonas")
    assert preprint.date is not None and preprint.date.isoformat() == "2024-02-01"
    assert preprint.categories == ("cs.DC", "load balancing")  # the arXiv class whose name has commas is one subject
    assert preprint.links == {}  # its abs page is the arXiv id's own
    assert "note" not in preprint.extra  # the note that is only the arXiv id
    assert preprint.abstract == "We balance load.\n\nA second paragraph with {*}stars{*} and \\# hashes."  # text, two paragraphs


def test_zotero_journal_article_with_its_extra_field():
    article = read(ZOTERO)[0][1]
    assert article.id == "okafor2023straggler"  # Better BibTeX's pinned key in Extra
    assert article.authors == ("Okafor, Amara N.", "{Nordhaven Clinical Data Consortium}", "van den Berg, Jan", "King, Jr., Martin")
    assert (article.year, article.extra["month"], article.source, article.venue_short) == (2023, 5, "Journal of Biomedical Informatics", "J Biomed Inform")
    assert (article.doi, article.ids) == ("10.1016/j.jbi.2023.104381", {"pmid": "37001234", "pmcid": "PMC10123456"})
    assert {key: article.extra[key] for key in ("volume", "number", "pages", "issn", "note")} == {
        "volume": "142",
        "number": "3",
        "pages": "104381\u2013104390",
        "issn": "1532-0464",
        "note": "Randomised trial",
    }
    assert (article.type, article.language) == ("article", "en")


CROSSREF = (Path(__file__).resolve().parents[1] / "fixtures" / "sources" / "csl-json" / "crossref.json").read_text(encoding="utf-8")


def test_crossrefs_csl_json_for_a_doi_is_read_without_a_warning():
    """sources.md names Crossref's answer for a DOI in CSL JSON among the files read: its REST API's bookkeeping
    (`indexed`, `member`, `score`, `link`, ...) was a warning each, about 25 for one work, and its lists (`ISSN`,
    `subtitle`, `short-container-title`) were left out with a warning, so the pull-request check failed."""
    [article], problems = read(CROSSREF)
    assert problems == []
    assert (article.title, article.source, article.venue_short) == (
        "Federated cohort discovery: A multi-site trial",
        "Journal of Biomedical Informatics",
        "J Biomed Inform",
    )
    assert article.authors == ("Okafor, Amara N.", "van den Berg, Jan")
    assert (article.year, article.extra["month"], article.doi) == (2023, 5, "10.1016/j.jbi.2023.104382")
    assert {key: article.extra[key] for key in ("volume", "pages", "issn", "publisher")} == {
        "volume": "142",
        "pages": "104382",
        "issn": "1532-0464",
        "publisher": "Elsevier BV",
    }


def test_zotero_thesis_and_conference_paper():
    _, _, thesis, paper = read(ZOTERO)[0]
    assert (thesis.type, thesis.source, thesis.date.isoformat() if thesis.date else None) == ("thesis", "PhD thesis, University of Nordhaven", "2021-09-30")
    assert thesis.extra["address"] == "Nordhaven"
    assert (paper.type, paper.source, paper.extra["pages"], paper.extra["editors"]) == (
        "inproceedings",
        "Proceedings of the 21st European Conference on Computer Systems",
        "100\u2013115",
        ["Dupont, André"],
    )
    assert (paper.extra["publisher"], paper.extra["eventtitle"], paper.extra["address"], paper.extra["isbn"]) == (
        "ACM",
        "EuroSys '26",
        "Lisbon",
        "979-8-4007-0000-1",
    )


def test_a_particle_given_beside_a_family_name_that_holds_it_is_shown_once(tmp_path):
    """An item with `"non-dropping-particle": "van"` and `"family": "van Dijk"` (some exports write the particle twice)
    was listed as "Jan van van Dijk" and exported as "van van Dijk, Jan"; a family name without it still gets it."""
    people = [
        {"family": "van Dijk", "given": "Jan", "non-dropping-particle": "van"},
        {"family": "de la Fuente", "given": "Ana", "non-dropping-particle": "De la"},
        {"family": "der Berg", "given": "Jonas", "dropping-particle": "van", "non-dropping-particle": "der"},
        {"family": "Vries", "given": "Hugo", "non-dropping-particle": "de"},
    ]
    item = {"id": "x", "type": "article-journal", "title": "A Paper", "container-title": "J", "issued": {"date-parts": [[2020]]}, "author": people}
    site = Built(tmp_path, {PATH: item_file(item)})
    assert site.records["x"]["authors"] == ["Jan van Dijk", "Ana de la Fuente", "Jonas van der Berg", "Hugo de Vries"]
    assert "author = {van Dijk, Jan and de la Fuente, Ana and van der Berg, Jonas and de Vries, Hugo}" in site.result.files["publications.bib"].decode()


def test_better_bibtex_and_pandoc_keys_are_the_ids():
    records, problems = read(
        item_file(
            {"id": "muller2024sparse", "citation-key": "muller2024sparse", "type": "article-journal", "title": "A", "issued": {"date-parts": [[2024]]}},
            {"id": "berg2020", "type": "book", "title": "B", "publisher": "MIT Press", "issued": "2020"},
            {"id": 42, "type": "book", "title": "The sparse way", "author": [{"family": "Dupont", "given": "A."}], "issued": {"date-parts": [[2019]]}},
        )
    )
    assert problems == []
    assert [(r.id, r.type, r.source) for r in records] == [
        ("muller2024sparse", "article", ""),
        ("berg2020", "book", "MIT Press"),
        ("dupont2019sparse", "book", ""),
    ]


def test_a_citation_key_stays_the_key_publications_bib_cites_the_work_by(tmp_path):
    """Better BibTeX's and Pandoc's key (`@Okafor_Straggler_2023` in a manuscript) is the record's citation key,
    as a .bib entry's is, not one made from the author, year and title."""
    item = {
        "id": "Okafor_Straggler_2023",
        "type": "article-journal",
        "title": "Straggler mitigation",
        "container-title": "J. Tests",
        "issued": {"date-parts": [[2023]]},
    }
    item["author"] = [{"family": "Okafor", "given": "Amara"}]
    built = Built(tmp_path, {PATH: item_file(item)})
    assert built.records["Okafor_Straggler_2023"]["cite_key"] == "Okafor_Straggler_2023"
    assert "@article{Okafor_Straggler_2023," in built.result.files["publications.bib"].decode("utf-8")


@pytest.mark.slow  # a site with the arXiv record checked: about a second
def test_a_zotero_preprint_is_one_record_with_the_paper_fetched_from_arxiv(tmp_path):
    """SPEC §6, one work, one record: Zotero's CSL-JSON of an arXiv preprint (its note 'arXiv: 2401.01234')
    merges with the record `sitegen fetch` wrote."""
    item = {
        "id": "http://zotero.org/users/1/items/ABC",
        "type": "article-journal",
        "title": "Fetched title with $x$",
        "container-title": "arXiv",
        "note": "arXiv: 2401.01234",
        "author": [{"family": "Müller", "given": "Lena"}, {"family": "Berg", "given": "Jonas"}],
        "issued": {"date-parts": [[2024, 1, 5]]},
    }
    built = Built(tmp_path, {"content/records/arxiv/2401.01234.yaml": ARXIV_RECORD, PATH: item_file(item)})
    assert list(built.records) == ["muller2024fetched"]
    record = built.records["muller2024fetched"]
    assert set(record["sources"]) == {"arxiv", "csl-json"} and record["arxiv"] == "2401.01234"


def test_a_site_with_a_csl_json_file_shows_its_records(tmp_path):
    built = Built(tmp_path, {PATH: ZOTERO})
    assert built.warnings == [f"{PATH}:37: warning: note: Better BibTeX's lines for its BibTeX export are left out (tex.howpublished: online)"]
    assert len(built.records) == 4
    article = built.records["okafor2023straggler"]
    assert article["authors"] == ["Amara N. Okafor", "Nordhaven Clinical Data Consortium", "Jan van den Berg", "Martin King Jr."]
    assert built.page("okafor2023straggler").select_one('a[href="https://pubmed.ncbi.nlm.nih.gov/37001234/"]') is not None
    assert built.page("muller2024kestrel").select_one("h1 math") is not None  # $O(n \log n)$ as MathML
    assert "csl-json" in article["sources"]


def test_html_and_script_in_csl_text_are_text(tmp_path):
    item = {
        "type": "article-journal",
        "title": "<script>alert(1)</script> and <b>bold</b>",
        "author": [{"family": "Evil", "given": "<img src=x onerror=alert(1)>"}],
        "container-title": "Journal of <i>Tests</i>",
        "abstract": "An <iframe src=//evil></iframe> abstract.",
        "URL": "javascript:alert(1)",
        "issued": {"date-parts": [[2024]]},
    }
    built = Built(tmp_path, {PATH: item_file(item)})
    [record_id] = built.records
    raw = built.result.files[f"records/{record_id}/index.html"].decode("utf-8")
    assert "<script>alert" not in raw and "<iframe" not in raw and "<img src=x" not in raw
    page = built.page(record_id)
    assert "<script>alert(1)</script>" in page.select_one("h1").get_text()
    assert not any(a.get("href", "").startswith("javascript:") for a in page.find_all("a"))
    assert any("'URL': 'javascript:alert(1)' is no web address (left out)" in warning for warning in built.warnings)


def test_zotero_rich_text_in_a_title_is_the_latex_the_pipeline_shows():
    """CSL's rich text (Zotero's, Mendeley's) and Crossref's JATS tags become BibTeX's text macros; a nocase span
    is its text; the id made from the title's words is not made from a tag's name."""
    item = {
        "type": "article-journal",
        "title": 'Growth of <i>E. coli</i> at 10<sup>5</sup> cells in <span class="nocase">pH</span> and '
        '<span style="font-variant:small-caps;">Lisp</span>, <b>fast</b>',
        "author": [{"family": "Smith", "given": "Ann"}],
        "container-title": "Journal of <i>Microbes</i>",
        "issued": {"date-parts": [[2024]]},
    }
    crossref = {**item, "title": "<jats:italic>In vivo</jats:italic> CO<sub>2</sub> uptake", "container-title": "Plants"}
    records, problems = read(item_file(item, crossref))
    assert problems == []
    assert records[0].title == r"Growth of \textit{E. coli} at 10\textsuperscript{5} cells in pH and \textsc{Lisp}, \textbf{fast}"
    assert records[0].source == r"Journal of \textit{Microbes}"
    assert records[1].title == r"\textit{In vivo} CO\textsubscript{2} uptake"
    assert [record.id for record in records] == ["smith2024growth", "smith2024vivo"]


def test_tags_beyond_rich_text_in_a_csl_title_are_shown_as_text_beside_its_italics(tmp_path):
    item = {
        "type": "article-journal",
        "title": '<i>E. coli</i> <script>alert(1)</script> <a href=javascript:alert(2)>x</a> <i onmouseover=alert(3)>y</i> <span style="color:red">z</span>',
        "author": [{"family": "Evil", "given": "Eve"}],
        "issued": {"date-parts": [[2024]]},
    }
    built = Built(tmp_path, {PATH: item_file(item)})
    [record_id] = built.records
    raw = built.result.files[f"records/{record_id}/index.html"].decode("utf-8")
    assert "<script>alert" not in raw and "<a href=javascript" not in raw and "<span style=" not in raw
    heading = built.page(record_id).select_one("h1")
    assert [em.get_text() for em in heading.find_all("em")] == ["E. coli"]
    assert heading.find(["script", "a", "span", "i"]) is None and heading.find(attrs={"onmouseover": True}) is None
    shown = heading.get_text()
    assert "<script>alert(1)</script>" in shown and '<a href="javascript:alert(2)">x</a>' in shown
    assert '<i onmouseover="alert(3)">y</i>' in shown and '<span style="color:red">z</span>' in shown


def test_a_title_of_hundreds_of_nested_tags_builds_with_every_word_shown(tmp_path):
    """A pull request's title nesting `<sup>` 300 deep (deeper than Python's stack when walked by recursion, deeper
    than libxml2's parser keeps) builds, its text shown as written, tags and words alike; a title of a few
    levels still shows its italics."""
    deep = "<sup>" * 300 + "deepest" + "</sup>" * 300 + " of <i>E. coli</i>, the end"
    items = [
        {"id": "deep", "type": "article-journal", "title": deep, "author": [{"family": "Evil", "given": "Eve"}], "issued": {"date-parts": [[2024]]}},
        {"id": "shallow", "type": "article-journal", "title": "<b><i><sup>a</sup></i></b> of <i>E. coli</i>", "issued": {"date-parts": [[2024]]}},
    ]
    built = Built(tmp_path, {PATH: item_file(*items)})
    heading = built.page("deep").select_one("h1")
    assert heading.find(["sup", "em"]) is None
    assert heading.get_text() == deep
    shallow = built.page("shallow").select_one("h1")
    assert str(shallow) == '<h1 id="record-title"><strong><em><sup>a</sup></em></strong> of <em>E. coli</em></h1>'


# -- problems: path:line, as the other readers' ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[\n  {"type": "book", "title": "A",}\n]',
            f"{PATH}:2:33: invalid JSON: Expecting property name enclosed in double quotes: a comma before '}}' ends no field; delete it",
        ),
        ('[\n  {"type": "book", "title": "A"},\n]', f"{PATH}:3:1: invalid JSON: Expecting value: a comma before ']' ends no item; delete it"),
        ("[{'type': 'book'}]", f"{PATH}:1:3: invalid JSON: Expecting property name enclosed in double quotes: JSON writes names and text in double quotes"),
        ('[\n  {"type": "book",\n   "title": "A"', f"{PATH}:3:16: invalid JSON: Expecting ',' delimiter"),
        ('[\n  {"type": "book",\n   "title": "A",\n', f"{PATH}:4:1: invalid JSON: Expecting property name enclosed in double quotes"),
        ('[{"type": "book",\n "title": "A\tB"}]', f"{PATH}:2:13: invalid JSON: a tab or line break inside text: JSON writes it \\t or \\n"),
        ('[{"type": "book", "title": "A", "volume": NaN}]', f"{PATH}:1: invalid JSON: NaN is no JSON value"),
        ("[" * 100000, f"{PATH}:1: invalid JSON: nested too deeply to read"),
    ],
)
def test_broken_json_is_one_error_at_its_line_and_column(text, message):
    records, problems = read(text)
    assert records == [] and len(problems) == 1
    assert problems[0].startswith(message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[\n  {"type": "book", "title": "A", "issued": ', "2:44: invalid JSON: Expecting value: the file ends before its JSON does (cut short?)"),
        ('[\n  {"type": "book", "title": "A"', "2:32: invalid JSON: Expecting ',' delimiter: the file ends before its JSON does (cut short?)"),
        ('[{"type": "book", "title": "A"}\n', "2:1: invalid JSON: Expecting ',' delimiter: the file ends before its JSON does (cut short?)"),
        ('[{"type": "book", "title": "A", ', "1:33: invalid JSON: Expecting property name enclosed in double quotes: the file ends before"),
        ('[{"type": "book", "title": "A sparse atte', "1:28: invalid JSON: Unterminated string starting at: the file ends inside this text (cut short?)"),
    ],
)
def test_a_file_cut_short_says_so(text, message):
    """Wherever the file stops (a Zotero export copied in half, a sync cut off), the message says it ends too soon."""
    _, problems = read(text)
    assert len(problems) == 1 and problems[0].startswith(f"{PATH}:{message}")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"name": "my-package", "version": "1.0.0"}',
            "warning: not read: not a CSL-JSON file: it holds an object (with 'name', 'version'), and CSL-JSON is a list of items",
        ),
        ('[{"name": "x"}]', "warning: not read: not a CSL-JSON file: it holds a list with no CSL item in it"),
        ('{"name": "my-site", "type": "module"}', "warning: not read: not a CSL-JSON file: it holds an object (with 'name', 'type')"),
        ('[{"type": "Feature", "geometry": {}}]', "warning: not read: not a CSL-JSON file: it holds a list with no CSL item in it"),
        ('"just text"', "warning: not read: not a CSL-JSON file: it holds the value 'just text'"),
    ],
)
def test_other_programs_json_is_one_clear_warning_and_not_read(text, message):
    records, problems = read(text)
    assert records == [] and len(problems) == 1
    assert problems[0].startswith(f"{PATH}:1: {message}") and "Export Collection… with the format CSL JSON" in problems[0]


def test_empty_files_are_warnings():
    assert read("") == ([], [f'{PATH}:1: warning: empty file: no CSL-JSON items ([{{"type": ..., "title": ...}}])'])
    assert read("[]") == ([], [f"{PATH}:1: warning: no CSL-JSON items in this file (an empty list)"])


def test_one_item_alone_and_zotero_apis_items_are_read():
    item = {"type": "book", "title": "Alone", "issued": {"date-parts": [[2020]]}}
    assert [r.title for r in read(json.dumps(item))[0]] == ["Alone"]  # Crossref's content negotiation answers one item
    assert [r.title for r in read(json.dumps({"items": [item]}))[0]] == ["Alone"]  # Zotero's web API, format=csljson


def test_no_title_and_no_year_are_errors_at_the_item():
    records, problems = read(
        '[\n{"type": "book", "issued": {"date-parts": [[2020]]}},\n{"type": "book", "title": "T",\n "issued": {"literal": "in press"}},\n{"type": "book", "title": "U"}\n]'
    )
    assert records == []
    assert problems == [
        f'{PATH}:2: this item has no title ("title": ...): it is not read',
        f'{PATH}:4: \'issued\': {{"literal": "in press"}} gives no year (write "issued": {{"date-parts": [[2024]]}}); the item is not read',
        f'{PATH}:5: this item has no date ("issued": {{"date-parts": [[2024, 3, 15]]}}): it is not read',
    ]


def test_what_is_dropped_is_a_warning_naming_the_field():
    item = '[\n{"type": "boook", "title": "T",\n "titel": "x",\n "original-title": "y",\n "accessed": {"date-parts": [[2024]]},\n "issued": {"date-parts": [[2020]]},\n "title": "T2"}\n]'
    records, problems = read(item)
    assert [r.title for r in records] == ["T2"]
    assert problems == [
        f"{PATH}:2: warning: unknown CSL type 'boook'; did you mean 'book'? (read as 'document')",
        f"{PATH}:3: warning: unknown CSL-JSON field 'titel'; did you mean 'title'? (left out)",
        f"{PATH}:4: warning: field 'original-title' is left out: sitegen's records have no place for it",
        f"{PATH}:7: warning: key 'title' is given twice (also on line 2): the last is read; delete the other",
    ]  # `accessed`, when Zotero's user looked at it, is bookkeeping: left out without a word


def test_a_duplicate_id_is_an_error_and_the_same_item_twice_is_read_once():
    item = {"id": "smith2020", "type": "book", "title": "T", "issued": {"date-parts": [[2020]]}}
    other = {"id": "Smith2020", "type": "book", "title": "Other", "issued": {"date-parts": [[2021]]}}
    records, problems = read("[\n" + ",\n".join(json.dumps(i) for i in (item, item, other)) + "\n]")
    assert [r.id for r in records] == ["smith2020"]
    assert problems == [
        f"{PATH}:3: warning: this item is given twice, the same as on line 2: read once; delete this copy",
        f"{PATH}:4: duplicate id 'Smith2020': also on line 2; an id names one item: give this one an id of its own or delete the one you do not want",
    ]


def test_sitegens_own_records_json_copied_into_content_is_a_warning_and_not_read(tmp_path):
    """A records.json copied from output/ into content/records/ by mistake: its records are the site's own, which
    the build reads from their files; read again they would be every record twice."""
    first = Built(tmp_path / "a", {"content/records/one.yaml": "id: one\ntitle: One\nyear: 2020\n"})
    copied = first.result.files["records.json"].decode("utf-8")
    again = Built(tmp_path / "b", {"content/records/one.yaml": "id: one\ntitle: One\nyear: 2020\n", "content/records/records.json": copied})
    assert list(again.records) == ["one"]
    assert again.warnings == [
        "content/records/records.json:1: warning: this is sitegen's own records.json (what a build writes into output/), not CSL-JSON: not read; "
        "its records come from the files the site was built from, so delete this copy (to add references, export CSL JSON from Zotero or your reference manager)"
    ]


def test_a_broken_csl_json_file_fails_the_build_with_path_and_line(tmp_path):
    with pytest.raises(ContentError) as raised:
        check_site(write_site(tmp_path, {**MINIMAL_SITE, PATH: '[\n  {"type": "book",\n   "title": "A"\n  }\n  {"type": "book"}\n]\n'}))
    assert [str(p) for p in raised.value.problems] == [f"{PATH}:5:3: invalid JSON: Expecting ',' delimiter"]


def test_a_json_file_not_in_utf8_is_an_error_at_its_line_saying_how_to_export_utf8(tmp_path):
    site = write_site(tmp_path, MINIMAL_SITE)
    (site / "content" / "records").mkdir()
    (site / "content" / "records" / "references.json").write_bytes('[\n{"type": "book", "title": "Müller"}\n]'.encode("cp1252"))
    with pytest.raises(ContentError) as raised:
        check_site(site)
    [problem] = [str(p) for p in raised.value.problems]
    assert problem.startswith(f"{PATH}:2: not UTF-8 text") and "Zotero and Better BibTeX write it so" in problem


def test_dates_as_csl_writes_them():
    def dated(issued) -> tuple:
        [record], problems = read(item_file({"type": "book", "title": "T", "issued": issued}))
        assert problems == []
        return record.year, record.date.isoformat() if record.date else None, record.extra.get("month")

    assert dated({"date-parts": [[2024]]}) == (2024, None, None)
    assert dated({"date-parts": [["2024", "3", "15"]]}) == (2024, "2024-03-15", None)  # Zotero writes some parts as text
    assert dated({"date-parts": [[2020, 5], [2020, 7]]}) == (2020, None, 5)  # a range by its start
    assert dated({"date-parts": [[2021, 2, 30]]}) == (2021, None, 2)  # no such day: the month
    assert dated({"raw": "2017-06-12"}) == (2017, "2017-06-12", None)
    assert dated("2019-04") == (2019, None, 4)  # CSL 1.0.2's EDTF text
    assert dated({"literal": "Spring 2023"}) == (2023, None, None)


# -- sitegen's own CSL items read back: the records they were made from --------------------------------------

_words = st.text(alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Nd"), max_codepoint=0x24F), min_size=1, max_size=8)
_family = st.builds(
    lambda a, b: a.capitalize() + b, st.sampled_from(["Müller", "Okafor", "Berg", "García", "Lin", "Dupont", "Smith"]), st.sampled_from(["", "son", "er"])
)
_name = st.builds(lambda given, family: f"{given.capitalize()} {family}", _words.filter(str.isalpha), _family)
_kinds = st.sampled_from(["article", "inproceedings", "preprint", "thesis", "book", "chapter", "report", "software", "dataset"])


@pytest.mark.slow  # sixty records made and read back
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    title=st.lists(_words, min_size=1, max_size=6).map(" ".join),
    authors=st.lists(_name, min_size=1, max_size=4, unique=True),
    date=st.dates(datetime.date(1950, 1, 1), datetime.date(2030, 12, 31)),
    kind=_kinds,
    venue=st.lists(_words, min_size=1, max_size=4).map(lambda words: "Journal of " + " ".join(words)),
    doi=st.none() | st.from_regex(r"10\.[0-9]{4,5}/[a-z0-9.]{1,12}", fullmatch=True),
    volume=st.none() | st.integers(1, 300).map(str),
    pages=st.none() | st.tuples(st.integers(1, 500), st.integers(0, 40)).map(lambda p: f"{p[0]}\u2013{p[0] + p[1]}" if p[1] else str(p[0])),
)
def test_sitegens_csl_item_reads_back_as_its_record(title, authors, date, kind, venue, doi, volume, pages):
    """A record as sitegen.cite makes it a CSL item (what citeproc-py formats the site's citations from), written
    to a .json file and read back: title, authors, date, venue, type, DOI, arXiv id, volume and pages as they were."""
    source = "arXiv" if kind == "preprint" else venue if kind != "thesis" else f"PhD thesis, University of {venue[11:]}"
    arxiv = "2401.01234" if kind == "preprint" else None
    extra = {key: value for key, value in (("volume", volume), ("pages", pages)) if value}
    entry = make_entry("x", title, tuple(authors), date=date.isoformat(), year=date.year, source=source, type=kind, doi=doi, arxiv=arxiv, extra=extra)
    records, problems = read(item_file(csl_item(entry)))
    assert problems == []
    [record] = records
    assert (record.title, record.date, record.type, record.source) == (title, date, kind, source)
    assert [name.split(", ")[1] + " " + name.split(", ")[0] for name in record.authors] == authors
    assert (record.doi, record.arxiv) == (doi, arxiv)
    assert {key: record.extra.get(key) for key in extra} == extra
