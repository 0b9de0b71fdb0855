"""RIS files under content/records/ (EndNote's, Zotero's, Mendeley's exports) read as records at build time
(sitegen.sources.ris), and publications.ris read back as the records it was written from."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import rispy
from bs4 import BeautifulSoup
from conftest import ARXIV_RECORD, MINIMAL_SITE, read_record_file, write_site
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.build import check_site
from sitegen.errors import ContentError
from sitegen.exports.ris import ris_entry
from unit.test_cite import make_entry

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sources" / "ris"
PATH = "content/records/library.ris"


def read(text: str, path: str = PATH):
    """The records of a .ris file as validation makes them, and every message (reader's and validation's)."""
    return read_record_file(text, path, "ris")


def fixture(name: str):
    text = (FIXTURES / name).read_bytes().decode("utf-8")
    records, problems = read(text, f"content/records/{name}")
    assert problems == []
    return {record.id: record for record in records}


class Built:
    """A site with `files` as a user's site folder holds them, checked in memory as `sitegen check` does."""

    def __init__(self, root: Path, files: dict[str, str]):
        self.result = check_site(write_site(root, {**MINIMAL_SITE, **files}))
        self.warnings = [str(problem) for problem in self.result.warnings if not problem.note]
        self.records = {record["id"]: record for record in json.loads(self.result.files["records.json"])["records"]}

    def page(self, record_id: str) -> BeautifulSoup:
        slug = re.sub(r"[^A-Za-z0-9._-]", "-", record_id)  # SPEC §3
        return BeautifulSoup(self.result.files[f"records/{slug}/index.html"], "html.parser")


# -- the fixtures: what EndNote, Zotero and PubMed's records in a reference manager export ----------------


def test_endnote_export_journal_article_from_pubmed():
    records = fixture("endnote.ris")
    article = records["okafor2023straggler"]  # EndNote's `ID  - 12` is its record number, not a name: the id is made
    assert article.title == "Straggler mitigation in clinical data pipelines: a randomised comparison"
    assert article.authors == ("Okafor, Amara N.", "Müller, Lena", "{Nordhaven Clinical Data Consortium}")  # EndNote's organisation ends with ','
    assert (article.year, article.extra["month"], article.source, article.venue_short) == (2023, 5, "Journal of Biomedical Informatics", "J Biomed Inform")
    assert (article.doi, article.ids) == ("10.1016/j.jbi.2023.104381", {"pmid": "37001234", "pmcid": "PMC10123456"})
    assert (article.extra["volume"], article.extra["pages"], article.extra["issn"]) == ("142", "104381", "1532-0464")
    assert article.categories == ("Humans", "*Data pipelines", "Hospital information systems")
    assert article.links == {}  # its PubMed page is the build's "PubMed" link; its internal-pdf:// file is on the user's computer
    assert article.type == "article" and article.language == "en"  # PubMed's ISO 639-2 code, as validation reads it


def test_endnote_export_chapter_thesis_and_report():
    records = fixture("endnote.ris")
    chapter = records["muller2022load"]
    assert (chapter.type, chapter.source, chapter.extra["editors"], chapter.extra["pages"]) == (
        "chapter",
        "Computing in Clinical Research",
        ["Dupont, André", "Berg, Jonas"],
        "45\u201367",
    )
    assert (chapter.extra["publisher"], chapter.extra["address"], chapter.extra["isbn"]) == ("Springer International Publishing", "Cham", "978-3-031-12345-6")
    thesis = records["muller2021tail"]
    assert (thesis.type, thesis.source) == ("thesis", "Doctoral dissertation, University of Nordhaven")
    report = records["organization2024guidance"]
    assert (report.type, report.authors, report.extra["report_type"], report.extra["number"]) == (
        "report",
        ("{World Health Organization}",),
        "Technical report",
        "WHO/DPR/2024.1",
    )


def test_zotero_export_of_an_arxiv_preprint_gives_its_arxiv_id():
    preprint = fixture("zotero.ris")["muller2024kestrel"]
    assert (preprint.arxiv, preprint.type, preprint.source) == ("2402.01234", "preprint", "arXiv")
    assert preprint.doi == "10.48550/arXiv.2402.01234"
    assert preprint.title == "Kestrel: fast load balancing for $O(n \\log n)$ jobs"  # math as written, for the pipeline
    assert preprint.links == {"pdf": "http://arxiv.org/pdf/2402.01234v2"}  # the abs page is the arXiv id's own
    assert preprint.date is not None and preprint.date.isoformat() == "2024-02-01"
    assert preprint.categories == ("cs.DC",)  # Zotero's name of arXiv's class: one subject with arXiv's records of it


def test_zotero_export_conference_paper_software_and_web_page():
    records = fixture("zotero.ris")
    paper = records["muller2026gossip"]
    assert (paper.type, paper.source, paper.extra["pages"], paper.extra["editors"]) == (
        "inproceedings",
        "Proceedings of the 21st European Conference on Computer Systems",
        "100\u2013115",
        ["Dupont, André"],
    )
    assert paper.authors[1] == "García Márquez, José Luis"
    program = records["muller2025fluxgrid"]
    assert (program.type, program.extra["version"], program.links) == ("software", "2.3.1", {"code": "https://github.com/example/fluxgrid"})
    page = records["muller2023why"]
    assert (page.type, page.extra["bibtex_type"], page.source) == ("other", "online", "Nordhaven Systems Blog")


def test_pubmed_record_with_a_long_abstract_over_several_lines():
    article = fixture("pubmed.ris")["berg2024nightly"]
    assert article.abstract.startswith("BACKGROUND: Registries of intensive care units depend on nightly extract, transform and load (ETL) jobs. METHODS:")
    assert article.ids == {"pmid": "38532001", "pmcid": "PMC10967012"} and article.links == {}
    assert (article.source, article.venue_short, article.extra["number"]) == ("BMC medical informatics and decision making", "BMC Med Inform Decis Mak", "1")


def test_a_site_with_ris_files_shows_their_records_everywhere(tmp_path):
    files = {f"content/records/{path.name}": path.read_bytes().decode("utf-8") for path in FIXTURES.glob("*.ris")}
    built = Built(tmp_path, files)
    assert built.warnings == []
    assert len(built.records) == 9
    article = built.records["okafor2023straggler"]
    assert article["authors"] == ["Amara N. Okafor", "Lena Müller", "Nordhaven Clinical Data Consortium"]
    assert (article["ids"]["pmid"], article["ids"]["pmcid"]) == ("37001234", "PMC10123456")
    assert built.page("okafor2023straggler").select_one('a[href="https://pubmed.ncbi.nlm.nih.gov/37001234/"]') is not None
    assert "ris" in article["sources"]
    assert built.page("okafor2023straggler").select_one("h1").get_text() == article["title"]
    assert built.page("muller2024kestrel").select_one("h1 math") is not None  # $O(n \log n)$ as MathML
    bib = built.result.files["publications.bib"].decode("utf-8")
    assert "@incollection{muller2022load," in bib.replace(" ", "") or "muller2022load" in bib
    exported = {entry["title"]: entry for entry in rispy.loads(built.result.files["publications.ris"].decode("utf-8"))}
    assert exported["Gossip protocols at scale"]["type_of_reference"] == "CPAPER"
    assert exported["Straggler mitigation in clinical data pipelines: a randomised comparison"]["doi"] == "10.1016/j.jbi.2023.104381"


def test_a_ris_entry_and_a_bib_entry_of_one_paper_are_one_record(tmp_path):
    bib = "@article{okafor2023, title = {Straggler Mitigation in Clinical Data Pipelines: A Randomised Comparison}, author = {Okafor, Amara N.},\n journal = {J. Biomed. Inform.}, year = 2023, doi = {10.1016/J.JBI.2023.104381}}\n"
    built = Built(tmp_path, {"content/records/endnote.ris": (FIXTURES / "endnote.ris").read_text(encoding="utf-8"), "content/records/mine.bib": bib})
    merged = [record for record in built.records.values() if record["doi"] and record["doi"].lower() == "10.1016/j.jbi.2023.104381"]
    assert len(merged) == 1 and set(merged[0]["sources"]) == {"bibtex", "ris"}


def test_a_zotero_preprint_is_one_record_with_the_paper_fetched_from_arxiv(tmp_path):
    """SPEC §6, one work, one record: Zotero's RIS of an arXiv preprint gives its arXiv id (its note
    'arXiv:2401.01234 [cs]'), so it merges with the record `sitegen fetch` wrote (the id is the file's, as a .bib
    entry's is: a list the user keeps names the work)."""
    zotero = (
        "TY  - UNPB\nTI  - Fetched title with $x$\nAU  - Müller, Lena\nAU  - Berg, Jonas\nDA  - 2024/01/05/\nPY  - 2024\n"
        "DP  - arXiv.org\nPB  - arXiv\nUR  - http://arxiv.org/abs/2401.01234v2\nN1  - arXiv:2401.01234 [cs]\nKW  - Computer Science - Machine Learning\nER  - \n"
    )
    built = Built(tmp_path, {"content/records/arxiv/2401.01234.yaml": ARXIV_RECORD, "content/records/zotero.ris": zotero})
    assert list(built.records) == ["muller2024fetched"]
    record = built.records["muller2024fetched"]
    assert set(record["sources"]) == {"arxiv", "ris"} and record["arxiv"] == "2401.01234"


def test_html_and_script_in_ris_text_are_text(tmp_path):
    ris = (
        "TY  - JOUR\nTI  - <script>alert(1)</script> and <b>bold</b>\nAU  - Evil, <img src=x onerror=alert(1)>\nPY  - 2024\n"
        "T2  - Journal of <i>Tests</i>\nAB  - An <iframe src=//evil></iframe> abstract.\nUR  - javascript:alert(1)\nER  - \n"
    )
    built = Built(tmp_path, {PATH: ris})
    [record_id] = built.records
    page = built.page(record_id)
    raw = built.result.files[f"records/{record_id}/index.html"].decode("utf-8")
    assert "<script>alert" not in raw and "<iframe" not in raw and "<img src=x" not in raw
    assert page.find("iframe") is None and page.find("img", attrs={"onerror": True}) is None
    assert "<script>alert(1)</script>" in page.select_one("h1").get_text()  # shown as the text it is
    assert not any(a.get("href", "").startswith("javascript:") for a in page.find_all("a"))


def test_an_unsafe_or_non_web_link_in_ris_is_left_out_with_a_warning_at_its_line(tmp_path):
    """As a YAML record's `javascript:` link and CSL-JSON's URL: a warning, so that `--strict` fails on it; a file
    attached on the user's computer (EndNote's internal-pdf://, Zotero's files/) is left out without one."""
    ris = (
        "TY  - JOUR\nTI  - Links\nAU  - Evil, Eve\nPY  - 2024\nUR  - javascript:alert(1)\nUR  - https://example.org/paper\n"
        "L1  - data:text/html,<script>alert(1)</script>\nL2  - JaVa\tScript:alert(2)\nL1  - internal-pdf://0123/paper.pdf\n"
        "L1  - files/12/paper.pdf\nER  - \n"
    )
    built = Built(tmp_path, {PATH: ris})
    assert built.warnings == [
        f"{PATH}:5: warning: 'UR': 'javascript:alert(1)' is no web address (left out)",
        f"{PATH}:7: warning: 'L1': 'data:text/html,<script>alert(1)</script>': unsafe URL scheme 'data:', the link is left out",
        f"{PATH}:8: warning: 'L2': 'JaVa\\tScript:alert(2)': unsafe URL scheme 'javascript:', the link is left out",
    ]
    [record_id] = built.records
    hrefs = [a.get("href", "") for a in built.page(record_id).find_all("a")]
    assert "https://example.org/paper" in hrefs
    assert not any(href.lower().startswith(("javascript", "data:", "internal-pdf", "files/")) for href in hrefs)


def test_zotero_rich_text_in_ris_titles_is_the_latex_the_pipeline_shows(tmp_path):
    """Zotero and Mendeley write a title's italics and superscripts as HTML in TI (and T2): the record has
    BibTeX's macros, the page shows them, publications.bib writes them, publications.ris the plain text."""
    ris = (
        'TY  - JOUR\nTI  - Growth of <i>E. coli</i> at 10<sup>5</sup> cells in <span class="nocase">pH</span>\n'
        "AU  - Smith, Ann\nPY  - 2024\nT2  - Journal of <i>Microbes</i>\nER  - \n\n"
        "TY  - JOUR\nTI  - <i>In vivo</i> CO<sub>2</sub> uptake <script>alert(1)</script>\nAU  - Smith, Ann\nPY  - 2023\nER  - \n"
    )
    records, problems = read(ris)
    assert problems == []
    assert [record.title for record in records] == [
        r"Growth of \textit{E. coli} at 10\textsuperscript{5} cells in pH",
        r"\textit{In vivo} CO\textsubscript{2} uptake <script>alert(1)</script>",
    ]
    assert records[0].source == r"Journal of \textit{Microbes}"
    assert [record.id for record in records] == ["smith2024growth", "smith2023vivo"]
    built = Built(tmp_path, {PATH: ris})
    heading = built.page("smith2024growth").select_one("h1")
    assert (heading.em.get_text(), heading.sup.get_text()) == ("E. coli", "5")
    other = built.page("smith2023vivo").select_one("h1")
    assert other.find("script") is None and "<script>alert(1)</script>" in other.get_text() and other.sub.get_text() == "2"
    bib = built.result.files["publications.bib"].decode("utf-8")
    assert r"title = {{Growth of \textit{E. coli} at 10\textsuperscript{5} cells in pH}}" in bib
    exported = rispy.loads(built.result.files["publications.ris"].decode("utf-8"))
    assert "Growth of E. coli at 10\u2075 cells in pH" in [entry["title"] for entry in exported]


# -- problems: path:line, as BibTeX's --------------------------------------------------------------


def test_an_entry_cut_short_is_an_error_at_its_line_and_the_others_are_read():
    records, problems = read("TY  - JOUR\nTI  - First\nPY  - 2020\nER  - \n\nTY  - JOUR\nTI  - Second\nPY  - 2021\n")
    assert [r.title for r in records] == ["First"]
    assert problems == [f"{PATH}:6: this entry has no 'ER  - ' line: the file ends before it does (cut short?); it is not read"]


def test_an_entry_without_er_before_the_next_ty():
    records, problems = read("TY  - JOUR\nTI  - First\nPY  - 2020\nTY  - BOOK\nTI  - Second\nPY  - 2021\nER  - \n")
    assert [r.title for r in records] == ["Second"]
    assert problems == [f"{PATH}:1: this entry has no 'ER  - ' line before the next 'TY  - ' (line 4): it is not read; end it with 'ER  - '"]


def test_no_title_and_no_year_are_errors_naming_the_line():
    records, problems = read("TY  - JOUR\nAU  - A, B\nPY  - 2020\nER  - \nTY  - JOUR\nTI  - T\nPY  - in press\nER  - \nTY  - JOUR\nTI  - U\nER  - \n")
    assert records == []
    assert problems == [
        f"{PATH}:1: this entry has no title (TI  - ...): it is not read",
        f"{PATH}:7: 'in press' is no year: write the year the work appeared ('PY  - 2024'); the entry is not read",
        f"{PATH}:9: this entry has no year (PY  - 2024, or DA  - 2024/03/15): it is not read",
    ]


def test_a_year_with_a_letter_is_read_as_the_year_with_a_warning():
    records, problems = read("TY  - JOUR\nTI  - T\nAU  - Smith, J\nPY  - 2024a\nER  - \n")
    assert [(r.title, r.year) for r in records] == [("T", 2024)]
    assert problems == [
        f"{PATH}:4: warning: '2024a' is read as the year 2024: a letter after it tells two works of one year apart in a reference list, and is no part of the year"
    ]


def test_unknown_tags_and_types_are_warnings_with_what_was_meant():
    records, problems = read("TY  - JOURN\nTI  - T\nPY  - 2020\nXT  - hello\nAU - Smith, J\nER  - \n")
    assert [r.title for r in records] == ["T"]
    assert problems == [
        f"{PATH}:1: warning: unknown reference type 'TY  - JOURN'; did you mean 'JOUR'?",
        f"{PATH}:4: warning: unknown RIS tag 'XT'; did you mean 'TT'? (left out)",
        f"{PATH}:5: warning: 'AU - Smith, J' is read as text of the line above: a tag is two letters, two spaces, '-' and a space ('AU  - ')",
    ]


def test_text_outside_entries_and_a_stray_er_are_warnings():
    _, problems = read("Exported from EndNote\nTY  - JOUR\nTI  - T\nPY  - 2020\nER  - \nER  - \n")
    assert problems == [
        f"{PATH}:1: warning: text outside an entry (between 'ER  - ' and the next 'TY  - '): not read",
        f"{PATH}:6: warning: 'ER  - ' ends no entry (no 'TY  - ' line above it since the last 'ER  - ')",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty file: no RIS entries ('TY  - JOUR' ... 'ER  - ')"),
        ("PMID- 38532001\nTI  - A title\n", "this is PubMed's MEDLINE format, not RIS: name the file .nbib"),
        ("FN Clarivate Analytics Web of Science\nPT J\n", "this is Web of Science's tagged format, not RIS"),
        ("TY - JOUR\nTI - A title\nER - \n", "no RIS entry: an entry starts 'TY  - ' (two letters, two spaces"),
        ("@article{x, title={A}}\n", "no RIS entry in this file"),
    ],
)
def test_a_file_with_no_ris_entry_says_what_it_is(text, message):
    records, problems = read(text)
    assert records == [] and len(problems) == 1
    assert problems[0].startswith(f"{PATH}:1: {'warning: ' if not text else ''}{message}")


def test_a_duplicate_id_is_an_error_and_the_same_entry_twice_is_read_once():
    entry = "TY  - JOUR\nTI  - T\nPY  - 2020\nID  - smith2020\nER  - \n"
    records, problems = read(entry + entry + "TY  - JOUR\nTI  - Other\nPY  - 2021\nID  - Smith2020\nER  - \n")
    assert [r.id for r in records] == ["smith2020"]
    assert problems == [
        f"{PATH}:6: warning: this entry is given twice, the same as on line 1: read once; delete this copy",
        f"{PATH}:14: duplicate ID 'Smith2020': also on line 1; an ID names one entry: give this one an ID of its own or delete the one you do not want",
    ]


def test_made_ids_are_stable_and_unique_within_the_file():
    text = "TY  - JOUR\nAU  - Müller, Lena\nTI  - The sparse way\nPY  - 2024\nER  - \nTY  - JOUR\nAU  - Muller, L.\nTI  - Sparse again\nPY  - 2024\nER  - \n"
    first, _ = read(text)
    again, _ = read(text)
    assert [r.id for r in first] == [r.id for r in again] == ["muller2024sparse", "muller2024sparseb"]
    given_below, problems = read(text + "TY  - JOUR\nTI  - Given\nPY  - 2024\nID  - muller2024sparse\nER  - \n")
    assert problems == [] and [r.id for r in given_below] == ["muller2024sparseb", "muller2024sparsec", "muller2024sparse"]  # an ID given wins
    numbered, _ = read("TY  - JOUR\nAU  - Müller, Lena\nTI  - The sparse way\nPY  - 2024\nID  - 42\nER  - \n")
    assert [r.id for r in numbered] == ["muller2024sparse"]  # EndNote's record number names no work
    mendeley, _ = read("TY  - JOUR\nAU  - Müller, Lena\nTI  - The sparse way\nPY  - 2024\nID  - Muller2024\nER  - \n")
    assert [r.id for r in mendeley] == ["Muller2024"]  # Mendeley's and JabRef's citation key


def test_a_broken_ris_file_fails_the_build_with_path_and_line(tmp_path):
    with pytest.raises(ContentError) as raised:
        check_site(
            write_site(tmp_path, {**MINIMAL_SITE, PATH: "TY  - JOUR\nTI  - Fine\nPY  - 2020\nER  - \nTY  - JOUR\nAU  - Nobody, N\nPY  - 2021\nER  - \n"})
        )
    assert [str(p) for p in raised.value.problems] == [f"{PATH}:5: this entry has no title (TI  - ...): it is not read"]


def test_a_ris_file_not_in_utf8_is_an_error_at_its_line_saying_how_to_export_utf8(tmp_path):
    site = write_site(tmp_path, MINIMAL_SITE)
    (site / "content" / "records").mkdir()
    (site / "content" / "records" / "library.ris").write_bytes("TY  - JOUR\r\nTI  - Müller\r\nPY  - 2020\r\nER  - \r\n".encode("cp1252"))
    with pytest.raises(ContentError) as raised:
        check_site(site)
    [problem] = [str(p) for p in raised.value.problems]
    assert problem.startswith(f"{PATH}:2: not UTF-8 text (it looks like Latin-1 / Windows-1252: byte 0xfc on this line is 'ü' there)")
    assert "in EndNote: export again, choosing Unicode (UTF-8)" in problem and "in Zotero" in problem


def test_dates_as_the_exporters_write_them():
    def dated(line: str):
        [record], problems = read(f"TY  - JOUR\nTI  - T\n{line}\nER  - \n")
        assert problems == []
        return record.year, record.date.isoformat() if record.date else None, record.extra.get("month")

    assert dated("PY  - 2024") == (2024, None, None)
    assert dated("PY  - 2008/03/18/print") == (2008, "2008-03-18", None)
    assert dated("Y1  - 2020/05//") == (2020, None, 5)
    assert dated("PY  - 2017\nDA  - 2017/06/12/") == (2017, "2017-06-12", None)  # Zotero
    assert dated("PY  - 2023\nDA  - Mar 15") == (2023, None, 3)  # EndNote's Date field
    assert dated("PY  - 2023\nDA  - 2022/12/01") == (2023, None, None)  # the online date of another year: only the year


# -- publications.ris read back: the records it was written from ------------------------------------------

_words = st.text(alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Nd"), max_codepoint=0x24F), min_size=1, max_size=8)
_family = st.builds(
    lambda a, b: a.capitalize() + b, st.sampled_from(["Müller", "Okafor", "Berg", "García", "Lin", "Dupont", "Smith"]), st.sampled_from(["", "son", "er"])
)
_name = st.builds(lambda given, family: f"{given.capitalize()} {family}", _words.filter(str.isalpha), _family)
_kinds = st.sampled_from(["article", "inproceedings", "preprint", "thesis", "book", "chapter", "report", "software", "dataset"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    title=st.lists(_words, min_size=1, max_size=6).map(" ".join),
    authors=st.lists(_name, min_size=1, max_size=4, unique=True),
    year=st.integers(1950, 2030),
    kind=_kinds,
    venue=st.lists(_words, min_size=1, max_size=4).map(lambda words: "Journal of " + " ".join(words)),
    doi=st.none() | st.from_regex(r"10\.[0-9]{4,5}/[a-z0-9.]{1,12}", fullmatch=True),
    volume=st.none() | st.integers(1, 300).map(str),
    pages=st.none() | st.tuples(st.integers(1, 500), st.integers(0, 40)).map(lambda p: f"{p[0]}\u2013{p[0] + p[1]}" if p[1] else str(p[0])),
    url=st.none() | st.sampled_from(["https://example.org/paper", "https://github.com/example/code"]),
)
def test_an_exported_record_reads_back_as_itself(title, authors, year, kind, venue, doi, volume, pages, url):
    """A record written to publications.ris by sitegen.exports.ris and read back by this reader: title, authors,
    year, venue, type, DOI, volume, pages and links as they were."""
    source = "arXiv" if kind == "preprint" else venue if kind != "thesis" else f"PhD thesis, University of {venue[11:]}"
    arxiv = "2401.01234" if kind == "preprint" else None
    extra = {key: value for key, value in (("volume", volume), ("pages", pages)) if value}
    links = {"html" if "example.org" in url else "code": url} if url else {}
    entry = make_entry("x", title, tuple(authors), year=year, source=source, type=kind, doi=doi, arxiv=arxiv, extra=extra, links=links)
    written = ris_entry(entry)
    records, problems = read(written)
    assert problems == []
    [record] = records
    assert (record.title, record.year, record.type, record.source) == (title, year, kind, source)
    assert [name.split(", ")[1] + " " + name.split(", ")[0] for name in record.authors] == authors
    assert (record.doi, record.arxiv) == (doi, arxiv)
    assert {key: record.extra.get(key) for key in extra} == extra
    carried = {*rispy.loads(written)[0].get("urls", ()), *rispy.loads(written)[0].get("file_attachments1", ())}
    assert record.links == {kind: address for kind, address in links.items() if address in carried}  # RIS carries the work's own address and PDF


def test_a_zotero_patent_gives_its_number_and_assignee_and_reads_back_from_publications_ris(tmp_path):
    """Zotero exports a patent's number as SN and its assignee as PB: the assignee was read as the patent's venue
    and publisher, and publications.ris wrote neither where Zotero reads them (the number was IS, the holder left out)."""
    ris = "TY  - PAT\nID  - us11600001\nAU  - Raman, Priya\nTI  - Privacy-preserving flow sampling\nPB  - Example Corp\nSN  - US 11,600,001 B2\nPY  - 2023\nDA  - 2023/03/07/\nER  - \n"
    built = Built(tmp_path, {PATH: ris})
    record = built.records["us11600001"]
    assert (record["type"], record["source"], record["details"]["number"], record["details"]["holder"]) == ("patent", "", "US 11,600,001 B2", "Example Corp")
    assert " ".join(built.page("us11600001").select_one("p.venue").get_text().split()).startswith("Patent US 11,600,001 B2 · March 7, 2023")
    again = Built(tmp_path / "again", {PATH: built.result.files["publications.ris"].decode("utf-8")})
    (copy,) = again.records.values()
    assert (copy["type"], copy["details"]["number"], copy["details"]["holder"]) == ("patent", "US 11,600,001 B2", "Example Corp")
    assert built.warnings == again.warnings == []
