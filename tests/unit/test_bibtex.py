"""BibTeX files as records (SPEC §6): real exports read as the user meant them, and
every broken entry reported as `content/records/NAME.bib:LINE:`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import bibtexparser
import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, run_sitegen, write_site
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.build import check_site
from sitegen.exports.bibtex import babel_name
from sitegen.record_types import thesis_venue
from sitegen.sources import reader_for
from sitegen.validate import validate_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sources"
PATH = "content/records/papers.bib"


def read(text: str, path: str = PATH):
    """The records of a .bib file as validation makes them, and every message (reader's and validation's)."""
    reader = reader_for(path)
    mappings, problems = reader.read(text, path)
    records = [validate_record(m, path, problems, reader=reader.name) for m in mappings]
    return [r for r in records if r is not None], [str(p) for p in problems]


def one(text: str):
    records, problems = read(text)
    assert problems == [] and len(records) == 1, problems
    return records[0]


class Built:
    """A site with `files` as a user's site folder holds them, checked in memory as `sitegen check` does."""

    def __init__(self, root: Path, files: dict[str, str]):
        self.result = check_site(write_site(root, {**MINIMAL_SITE, **files}))
        self.warnings = [str(problem) for problem in self.result.warnings]
        self.records = {record["id"]: record for record in json.loads(self.result.files["records.json"])["records"]}

    def page(self, record_id: str) -> BeautifulSoup:
        slug = re.sub(r"[^A-Za-z0-9._-]", "-", record_id)  # SPEC §3
        return BeautifulSoup(self.result.files[f"records/{slug}/index.html"], "html.parser")

    def text(self, path: str) -> str:
        return self.result.files[path].decode("utf-8")

    def page_at(self, path: str) -> BeautifulSoup:
        return BeautifulSoup(self.result.files[path], "html.parser")


def built(tmp_path: Path, bib: str, more: dict[str, str] | None = None) -> Built:
    """A site whose content/records/papers.bib is `bib`, with `more` files (by path)."""
    return Built(tmp_path, {PATH: bib, **(more or {})})


# -- the fixture: a hand-kept file mixing Google Scholar, DBLP and al-folio styles ---------------


def test_every_entry_of_the_fixture_file_is_a_record_as_the_ground_truth_describes_it():
    records, problems = read((FIXTURES / "sheng-lin.bib").read_text(encoding="utf-8"), "content/records/sheng-lin.bib")
    assert problems == []
    works = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))["works"]
    by_key = {work["sources"]["bibtex"]: work for work in works if "bibtex" in work["sources"]}
    assert sorted(r.id for r in records) == sorted(by_key)
    for record in records:
        work = by_key[record.id]
        assert (record.title.replace("${O}(1)$", "O(1)"), record.year, record.type) == (work["title"], work["year"], work["type"])
        assert record.arxiv == work["ids"].get("arxiv")
        assert record.doi is None or record.doi.lower() == work["ids"]["doi"]
        assert record.origin.source == "bibtex" and not record.fetched
        assert record.location.path == "content/records/sheng-lin.bib"
    assert sorted(r.id for r in records if r.doi) == ["lin2024elastic", "lin2025lobra", "lin2025skew"]


def test_fixture_entries_keep_what_each_export_style_says():
    records, _ = read((FIXTURES / "sheng-lin.bib").read_text(encoding="utf-8"))
    by_id = {r.id: r for r in records}
    lobra = by_id["lin2025lobra"]
    assert lobra.doi == "10.14778/3742728.3742752"  # `doi = {https://doi.org/...}`
    assert lobra.source == "Proc. VLDB Endow."  # protective braces of {VLDB} gone
    assert lobra.featured is True  # al-folio's `selected = {true}`
    assert lobra.extra["pages"] == "4209\u20134222" and lobra.extra["volume"] == "18"
    assert lobra.location.line == 41 and lobra.lines["doi"] == 49
    assert by_id["li2024malleus"].arxiv == "2410.13333"  # eprint 2410.13333v3: version dropped
    assert by_id["li2025hetu"].source == "arXiv"  # Google Scholar's journal = {arXiv preprint arXiv:2504.20490}
    assert by_id["li2026staleflow"].links == {"code": "https://github.com/psrl-project/psrl"}
    assert by_id["lin2024elastic"].authors[2] == "F. Dupré"  # Dupr{\'e}
    assert by_id["lin2024elastic"].categories == ("sequence parallelism", "long context")
    assert by_id["zhou2026foremoe"].categories[0] == "cs.DC"  # primaryClass first, then the keywords
    assert by_id["zhou2026foremoe"].extra["note"].startswith("Up to 1.45$\\times$ faster")  # math left for the pipeline
    assert by_id["zhou2026foremoe"].extra["month"] == 6  # month = jun
    assert by_id["li2024hydraulis"].authors == ("Haoyang Li", "Fangcheng Fu", "Sheng Lin")
    assert by_id["li2024hydraulis"].extra["et_al"] is True  # `and others`
    assert by_id["hetu2023software"].authors == ("{PKU-DAIR Hetu Team}",)  # {{PKU-DAIR Hetu Team}}: one name, braced for the exports
    assert by_id["hetu2023software"].links == {"code": "https://github.com/PKU-DAIR/Hetu"}  # howpublished = {\url{...}}
    assert by_id["lin2026thesis"].links == {"pdf": "files/lin-thesis-2026.pdf"}
    assert thesis_venue(by_id["lin2026thesis"].source) == ("phd", "Peking University")  # its type = {Ph.D. dissertation}


# -- text: accents, braces, math -------------------------------------------------------------------


def test_latex_accents_become_unicode_braces_go_and_math_stays_for_the_pipeline():
    record = one(r"""
@article{k,
  title = {{DNA} Folding in {\"U}ber-{S}cale {$\alpha$}-Helices: a $\mathcal{O}(n^2)$ Bound, 50\% Faster -- \emph{really}},
  author = {M{\"u}ller, Lena and Dupr\'e, Fran{\c{c}}ois and {\AA}str{\"o}m, K. and van der Berg, Jan and King, Jr., Martin},
  journal = {Journal of Stra\ss{}e Studies},
  year = 2024,
}""")
    assert record.title == r"DNA Folding in Über-Scale $\alpha$-Helices: a $\mathcal{O}(n^2)$ Bound, 50% Faster – \emph{really}"
    assert record.authors == ("Lena Müller", "François Dupré", "K. Åström", "Jan van der Berg", "Martin King Jr.")
    assert record.source == "Journal of Straße Studies"


def test_logos_spaced_accents_and_control_spaces_keep_their_words():
    record = one(r"""
@article{k,
  title = {Typesetting with \LaTeX{} and {\TeX}: Fran\c cais, \v Sar\'{i}k and \c{C}},
  author = {Lin, Sheng},
  journal = {J.~Appl.\ Math.\ Stud.},
  year = 2020,
}""")
    assert record.title == "Typesetting with LaTeX and TeX: Français, Šarík and Ç"
    assert record.source == "J. Appl. Math. Stud."


def test_a_comment_between_fields_is_a_comment_and_one_in_a_value_is_text():
    record = one("""
@article{k,
  title = {Half, or 50\\% of {it, % all}},
  author = {Lin, Sheng}, % the owner
  % journal = {Old Journal},
  journal = "Journal % of Tests",
  volume = 3,
  year = 2020,
}""")
    assert (record.title, record.source, record.year, record.extra.get("volume")) == ("Half, or 50% of it, % all", "Journal % of Tests", 2020, "3")


@pytest.mark.parametrize("authors", ["Lin, Sheng and ", "and Lin, Sheng and Doe, Jane", "Lin, Sheng and and Doe, Jane"])
def test_an_and_without_a_name_beside_it_separates_nothing(authors):
    record = one(f"@misc{{k, title = {{T}}, author = {{{authors}}}, year = 2020}}")
    assert record.authors[0] == "Sheng Lin" and all(" and" not in name and "and " not in name for name in record.authors)


def test_superscripts_subscripts_and_text_symbols_show_on_the_page_and_keep_their_latex(tmp_path):
    """`19\\textsuperscript{th}` was shown as '19<sup></sup>th' and kept as '\\textsuperscript{}th';
    `\\S 3` lost its §. A YAML record's title goes through the same converter."""
    title = r"The 19\textsuperscript{th} {H\textsubscript{2}O} Survey, \S 3 and \P 2 \dag\ddag, \copyright{} \pounds 5\textregistered\texttrademark, 20\textdegree C\ldots"
    site = built(
        tmp_path,
        f"@article{{k, title = {{{title}}}, author = {{Lin, Sheng}}, journal = {{J}}, year = 2020}}\n",
        {"content/records/y.yaml": f"id: y\ntitle: '{title} Again'\nyear: 2020\n"},
    )
    for record_id, after in (("k", ""), ("y", " Again")):
        heading = site.page(record_id).find("h1")
        assert [(tag.name, tag.get_text()) for tag in heading.find_all(["sup", "sub"])] == [("sup", "th"), ("sub", "2")]
        assert heading.get_text() == "The 19th H2O Survey, § 3 and ¶ 2 †‡, © £ 5®™, 20°C…" + after  # TeX takes the space
        assert r"The 19\textsuperscript{th} " in site.records[record_id]["title_latex"]
        assert r"H\textsubscript{2}O" in site.records[record_id]["title_latex"]
    assert site.warnings == []
    assert r"The 19\textsuperscript{th} H\textsubscript{2}O" in site.text("publications.bib")


def test_small_capitals_are_shown_as_the_letters_written_and_kept_for_latex(tmp_path):
    site = built(tmp_path, r"@article{k, title = {The {\textsc{Foo}} and {\sc Bar} Methods}, author = {Lin, Sheng}, journal = {J}, year = 2020}")
    heading = site.page("k").find("h1")
    assert heading.get_text() == "The Foo and Bar Methods" and heading.find("code") is None
    assert site.warnings == []
    assert site.records["k"]["title_latex"] == r"The \textsc{Foo} and {\sc Bar} Methods"


def test_the_aas_journal_macros_of_ads_are_journal_names(tmp_path):
    site = built(
        tmp_path,
        r"""@ARTICLE{2021ApJ...900..123M, author = {{M{\"u}ller}, Jane}, title = "{Dust}", journal = {\apj}, year = 2021}
@ARTICLE{2019MNRAS.480.1000M, author = {{M{\"u}ller}, J.}, title = "{Stars}", journal = {{\mnras}}, year = 2019}
@ARTICLE{2020PhRvD.101a4001M, author = {{M{\"u}ller}, J.}, title = "{Waves}", journal = {\prd}, year = 2020, abbr = {PRD}}
@ARTICLE{note, author = {{M{\"u}ller}, J.}, title = "{Accepted}", journal = {Preprint}, year = 2022, note = {accepted in \aap}}
""",
    )
    assert [(r["id"], r["source"], r["venue_short"]) for r in sorted(site.records.values(), key=lambda r: r["year"])] == [
        ("2019MNRAS.480.1000M", "Monthly Notices of the Royal Astronomical Society", "MNRAS"),
        ("2020PhRvD.101a4001M", "Physical Review D", "PRD"),  # the file's own short name wins
        ("2021ApJ...900..123M", "The Astrophysical Journal", "ApJ"),
        ("note", "Preprint", None),
    ]
    assert site.page("2021ApJ...900..123M").select_one(".venue .source").get_text() == "The Astrophysical Journal"
    assert site.records["note"]["status"] == "accepted in A&A"  # inside other text: what the macro prints (a note saying
    # where the paper stands is its status)
    assert site.warnings == []


def test_commands_the_files_preamble_defines_are_honoured_and_noopsort_prints_nothing(tmp_path):
    """`@preamble{"\\newcommand{\\noopsort}[1]{}"}` and `\\noopsort{a}Data`, BibTeX's idiom to sort an entry."""
    site = built(
        tmp_path,
        r"""@preamble{ "\newcommand{\noopsort}[1]{} \providecommand{\DNA}{{D}{N}{A}} \def\swap#1#2{#2#1}" # " \providecommand{\url}[1]{\texttt{#1}}" }
@article{k, title = {A robust approach to {\noopsort{a}}Data, \DNA{} and \swap{B}{A}}, author = {Lin, Sheng}, journal = {J}, year = 2019,
  url = {\url{https://example.org/k}}}
@article{copied, title = {\noopsort{b}{Copied} without its preamble}, author = {Lin, Sheng}, journal = {J}, year = 2019}
""",
        {"content/records/other.bib": r"@article{other, title = {\noopsort{c}Elsewhere}, author = {Lin, Sheng}, journal = {J}, year = 2018}"},
    )
    assert site.page("k").find("h1").get_text() == "A robust approach to Data, DNA and AB"
    assert site.records["k"]["title_latex"] == "A robust approach to Data, DNA and AB"
    assert record_links(site, "k") == {"HTML": "https://example.org/k"}  # \url is sitegen's own, not the preamble's
    assert site.records["copied"]["title"] == "Copied without its preamble" and site.records["other"]["title"] == "Elsewhere"
    assert site.warnings == []


def test_a_macro_nothing_knows_is_kept_with_its_argument_for_the_pipeline_to_report():
    record = one("@misc{k, title = {The \\foo{bar} Method}, year = 2020}")
    assert record.title == "The \\foo{bar} Method"


# -- macros, concatenation, comments -----------------------------------------------------------------


def test_string_macros_in_any_case_concatenation_and_month_macros():
    record = one("""
@comment{jabref-meta: databaseType:bibtex;}
@preamble{"\\newcommand{\\noop}[1]{}"}
@String{conf = "Proc. of the Conference on "}
@STRING(sys = {Systems})
@inproceedings{k,
  title = "Quoted {T}itle",
  author = "Ada Lovelace",
  booktitle = conf # Sys # " (" # "2024" # ")",
  month = 4 # "~" # Jun,
  year = "2024"
}""")
    assert record.source == "Proc. of the Conference on Systems (2024)"
    assert record.title == "Quoted Title"
    assert (record.extra["month"], str(record.date)) == (6, "2024-06-04")  # the day written in the month is the date's


@pytest.mark.parametrize("date, month", [("2016-06", 6), ("2016-06-12", None), ("2016", None)])
def test_a_biblatex_date_of_year_and_month_gives_the_month(date, month):
    record = one(f"@inproceedings{{k, title = {{T}}, author = {{Ada Lovelace}}, booktitle = {{B}}, date = {{{date}}}}}")
    assert record.year == 2016
    assert record.extra.get("month") == month  # a whole date is the record's `date`, its month with it


def test_a_biblatex_date_range_is_read_from_its_start(tmp_path):
    site = built(
        tmp_path,
        """@article{years, author = {Lin, Sheng}, title = {Range}, journaltitle = {J}, date = {2020/2021}}
@inproceedings{days, author = {Lin, Sheng}, title = {Range 2}, booktitle = {C}, date = {2021-05-03/2021-05-07}}
@inproceedings{open, author = {Lin, Sheng}, title = {Range 3}, booktitle = {C}, date = {2019-06/}}
@article{vague, author = {Lin, Sheng}, title = {Vague}, journal = {J}, date = {forthcoming}, year = 2022}
""",
    )
    assert [(r["id"], r["year"], r["date"]) for r in site.records.values()] == [
        ("vague", 2022, None),
        ("days", 2021, "2021-05-03"),
        ("years", 2020, None),
        ("open", 2019, None),
    ]
    assert site.records["open"]["details"]["month"] == 6
    assert site.warnings == [f"{PATH}:4: warning: entry 'vague': field 'date': 'forthcoming' is no date; the year is read from 'year'"]


def test_a_missing_or_unreadable_year_names_the_entry_and_says_what_is_wrong(tmp_path):
    from sitegen.errors import ContentError

    bib = """@article{good, author = {Lin, Sheng}, title = {Good}, journal = {J}, year = 2020}

@article{noyear,
  title = {No year},
  journal = {J},
}
@article{badyear,
  title = {Bad year},
  year = {in press},
}
@article{baddate,
  title = {Bad date},
  date = {to appear},
}
"""
    with pytest.raises(ContentError) as raised:
        built(tmp_path, bib)
    assert [str(problem) for problem in raised.value.problems] == [
        f"{PATH}:9: entry 'badyear': field 'year': 'in press' is no year (four digits, such as 2024)",
        f"{PATH}:13: entry 'baddate': field 'date': 'to appear' is no date (2024, 2024-05 or 2024-05-03, or a range such as 2020/2021)",
        f"{PATH}:3: entry 'noyear' has no year (give year = {{2024}} or date = {{2024-05-03}}; only an entry that corrects a "
        "fetched record, with the same arxiv or doi, may leave it out)",
    ]


def test_a_bibtex_abstract_is_latex_text_and_a_yaml_one_markdown(tmp_path):
    """A .bib file's abstract is LaTeX, where `#`, `*` and `1.` are characters; a YAML record's is Markdown (SPEC §2)."""
    site = built(
        tmp_path,
        r"""@article{md1, author = {Lin, Sheng}, title = {Samples}, journal = {J}, year = {2020},
  abstract = {BACKGROUND: We use the *gene* list and the my_var_name variable.
# of samples was 5 * 3 * 2, see Fig.~3 and [1](x) and <b>this</b>.

1. A second paragraph with $O(n^2)$ math and \emph{emphasis}, at 95\% and 12% -- of `all'.
> Not a quote.}}
""",
        {"content/records/y.yaml": "id: y\ntitle: YAML\nyear: 2020\nabstract: |\n  # Heading\n\n  A *gene* list.\n"},
    )
    body = site.page("md1").select_one(".abstract-body")
    paragraphs = body.find_all("p")
    assert [p.get_text() for p in paragraphs[:1]] == [
        "BACKGROUND: We use the *gene* list and the my_var_name variable. # of samples was 5 * 3 * 2, see Fig. 3 and [1](x) and <b>this</b>."
    ]
    assert paragraphs[1].get_text().startswith("1. A second paragraph with ")
    assert paragraphs[1].get_text().endswith(" math and emphasis, at 95% and 12% \u2013 of \u2018all'. > Not a quote.")
    assert len(paragraphs) == 2 and body.find(["h1", "ol", "blockquote", "a", "b"]) is None and body.find("em").get_text() == "emphasis"
    assert paragraphs[1].find("math") is not None
    assert site.records["md1"]["abstract"].startswith("BACKGROUND: We use the *gene* list and the my_var_name variable. # of samples")
    yaml_body = site.page("y").select_one(".abstract-body")
    assert yaml_body.find("em").get_text() == "gene" and "#" not in yaml_body.get_text()  # Markdown, as before
    assert site.warnings == []


def test_parenthesised_entries_and_a_trailing_comma_read_like_braced_ones():
    record = one("@article(k,\n  title = {T},\n  author = {A. B},\n  journal = {J},\n  year = {2021},\n)\n")
    assert (record.title, record.year, record.source, record.type) == ("T", 2021, "J", "article")


@pytest.mark.parametrize(
    "entry_type, expected",
    [
        ("phdthesis", "thesis"),
        ("mastersthesis", "thesis"),
        ("techreport", "report"),
        ("book", "book"),
        ("incollection", "chapter"),
        ("inproceedings", "inproceedings"),
        ("patent", "patent"),
        ("misc", "other"),
    ],
)
def test_entry_types_give_record_types(entry_type, expected):
    assert one(f"@{entry_type}{{k, title = {{T}}, year = 2020}}").type == expected


def test_biblatex_subtitles_and_title_addons_are_part_of_the_title(tmp_path):
    """biblatex's `subtitle`, `booksubtitle`, `journalsubtitle` and `titleaddon` were left out without a word: a
    book was listed as 'Kupcy i kalwini', its subtitle gone, a Chinese title without its translation."""
    site = built(
        tmp_path,
        "@book{k, title = {Kupcy i kalwini}, subtitle = {Gda{\\'n}sk w epoce wyznaniowej}, publisher = {Universitas}, date = {2012}}\n"
        "@incollection{d, title = {杜甫的夔州詩}, titleaddon = {[Du Fu's Kuizhou Poems]}, booktitle = {Glaube und Geschäft},"
        " booksubtitle = {Konfessionelle Netzwerke}, date = {2021}}\n"
        "@article{q, title = {Why?}, subtitle = {Refugees}, journaltitle = {Past}, journalsubtitle = {A Journal of Historical Studies},"
        " date = {2020}}\n"
        "@online{e, title = {Why Early Modern Refugees Still Matter}, titleaddon = {Aeon}, url = {https://aeon.co/essays/x},"
        " date = {2023-11-02}}\n",
    )
    assert site.warnings == []
    titles = {key: (record["title"], record["source"]) for key, record in site.records.items()}
    assert titles == {
        "k": ("Kupcy i kalwini: Gdańsk w epoce wyznaniowej", "Universitas"),
        "d": ("杜甫的夔州詩 [Du Fu's Kuizhou Poems]", "Glaube und Geschäft: Konfessionelle Netzwerke"),
        "q": ("Why? Refugees", "Past: A Journal of Historical Studies"),
        # Zotero writes a web page's site (its "Website Title") as the titleaddon of an @online entry: the venue
        "e": ("Why Early Modern Refugees Still Matter", "Aeon"),
    }
    assert site.page("k").find("h1").get_text() == "Kupcy i kalwini: Gdańsk w epoce wyznaniowej"
    assert "title = {{Kupcy i kalwini: Gdańsk w epoce wyznaniowej}}" in site.text("publications.bib")


def test_a_translation_names_its_translators_everywhere_and_the_owner_among_them(tmp_path):
    """biblatex's `translator` was left out without a word: the owner's translation of Ibn Khaldūn was listed as
    Ibn Khaldūn's book, the owner named nowhere."""
    import rispy

    bib = (
        "@book{m, title = {The Muqaddimah: Selections}, author = {{Ibn Khaldūn}}, translator = {Lovelace, Ada and"
        " Garc{\\'i}a M{\\'a}rquez, Jos{\\'e} Luis}, publisher = {Princeton University Press}, location = {Princeton}, date = {2024}}\n"
    )
    site = built(
        tmp_path,
        bib,
        {"content/records/y.yaml": "id: y\ntitle: Poems\ntype: book\nsource: De Gruyter\nyear: 2016\nauthors: ['{Du Fu}']\ntranslators: [Stephen Owen]\n"},
    )
    assert site.warnings == []
    item = BeautifulSoup(site.text("index.html"), "html.parser").find(id="r-m")
    byline = item.find(class_="authors")
    assert " ".join(byline.get_text().split()) == "Ibn Khaldūn; translated by Ada Lovelace, José Luis García Márquez"
    assert byline.find("strong", class_="owner").get_text() == "Ada Lovelace"
    page = site.page("m")
    assert "translated by Ada Lovelace" in " ".join(page.find(class_="authors").get_text().split())
    csl = json.loads(page.find(attrs={"data-csl-item": True})["data-csl-item"])
    assert csl["translator"] == [{"family": "Lovelace", "given": "Ada"}, {"family": "García Márquez", "given": "José Luis"}]
    assert "translator = {Ada Lovelace and García Márquez, José Luis}" in site.text("publications.bib")
    ris = {item["title"]: item for item in rispy.loads(site.text("publications.ris"))}
    assert ris["The Muqaddimah: Selections"]["subsidiary_authors"] == ["Lovelace, Ada", "García Márquez, José Luis"]  # A4: Zotero's translator
    assert ris["Poems"]["subsidiary_authors"] == ["Owen, Stephen"]
    assert site.records["m"]["details"]["translators"] == ["Ada Lovelace", "José Luis García Márquez"]
    assert site.records["y"]["details"]["translators"] == ["Stephen Owen"]


def test_a_books_number_in_its_series_is_no_issue(tmp_path):
    """biblatex's `number` of a @book is its number in the series: it was 'Issue 112' on the page, the Google Scholar
    tag citation_issue and APA's '(Issue 112)'."""
    site = built(tmp_path, "@book{b, title = {Merchants of Faith}, author = {Lovelace, Ada}, series = {Cambridge Studies in Early Modern History},"
                 " number = {112}, publisher = {Cambridge University Press}, date = {2015}}\n")  # fmt: skip
    page = site.page("b")
    details = [(dt.get_text(), dt.find_next("dd").get_text()) for dt in page.select("dl.details dt")]
    assert details == [("Series", "Cambridge Studies in Early Modern History"), ("Number in series", "112")]
    assert page.find("meta", attrs={"name": "citation_issue"}) is None
    csl = json.loads(page.find(attrs={"data-csl-item": True})["data-csl-item"])
    assert (csl["collection-number"], "issue" in csl) == ("112", False)


def test_a_paper_given_at_a_meeting_and_never_published_names_the_meeting(tmp_path):
    """biblatex's `@unpublished{eventtitle = ..., venue = ...}`, a conference paper given: the meeting and its place
    were shown nowhere ('Other · January 4, 2019'); a meeting's name must not make it a paper in proceedings."""
    site = built(tmp_path, "@unpublished{t, title = {Refugee Credit in Amsterdam and Danzig}, author = {Lovelace, Ada}, date = {2019-01-04},"
                 " eventtitle = {Annual Conference of the American Historical Association}, venue = {Chicago}}\n")  # fmt: skip
    assert site.warnings == []
    record = site.records["t"]
    assert (record["source"], record["type"], record["details"]) == (
        "Annual Conference of the American Historical Association",
        "other",
        {"address": "Chicago"},
    )
    venue = " ".join(site.page("t").find("p", class_="venue").get_text().split())
    assert venue == "Other · Annual Conference of the American Historical Association · January 4, 2019"
    assert "@inproceedings" not in site.text("publications.bib")


def test_book_reviews_encyclopedia_entries_edited_volumes_and_online_pieces_are_named_so(tmp_path):
    """biblatex's @review was listed as a "Journal article", @inreference and @online as "Other", @collection as a "Book":
    a historian's list could not tell a review or an encyclopedia entry from an article."""
    import rispy

    site = built(
        tmp_path,
        "@review{r, title = {Review of The Dutch Republic and the Baltic}, author = {Lovelace, Ada}, journaltitle = {American Historical Review},"
        " volume = {127}, date = {2022}}\n"
        "@inreference{e, title = {Huguenots in Poland-Lithuania}, author = {Lovelace, Ada}, booktitle = {Encyclopedia of Early Modern History},"
        " editor = {Jaeger, Friedrich}, publisher = {Brill}, date = {2020}}\n"
        "@collection{c, title = {Confessional Borderlands}, editor = {Lovelace, Ada}, publisher = {Brill}, date = {2019}}\n"
        "@online{o, title = {Why Early Modern Refugees Still Matter}, author = {Lovelace, Ada}, titleaddon = {Aeon},"
        " url = {https://aeon.co/essays/x}, date = {2023-11-02}}\n",
    )  # fmt: skip
    labels = {key: " ".join(site.page(key).find("p", class_="venue").get_text().split()).split(" · ")[0] for key in "reco"}
    assert labels == {"r": "Book review", "e": "Encyclopedia entry", "c": "Edited volume", "o": "Online"}
    assert {key: site.records[key]["type"] for key in "reco"} == {"r": "article", "e": "other", "c": "book", "o": "other"}  # SPEC §7
    csl = {key: json.loads(site.page(key).find(attrs={"data-csl-item": True})["data-csl-item"])["type"] for key in "reco"}
    assert csl == {"r": "article-journal", "e": "entry-encyclopedia", "c": "book", "o": "webpage"}
    ris = {item["title"]: item["type_of_reference"] for item in rispy.loads(site.text("publications.ris"))}
    assert (ris["Huguenots in Poland-Lithuania"], ris["Why Early Modern Refugees Still Matter"]) == ("ENCYC", "ELEC")


# -- real exports --------------------------------------------------------------------------------------


def test_a_zotero_better_biblatex_export_with_a_byte_order_mark():
    """Zotero writes a BOM, BibLaTeX's journaltitle/date/eprinttype, local `file` paths and `urldate`."""
    text = (
        "\ufeff"
        + r"""
@article{mullerDistributedTraining2023,
  title = {Distributed Training at Scale},
  author = {Müller, Lena and Berg, Jonas},
  date = {2023-05-17},
  journaltitle = {Journal of Machine Learning Research},
  volume = {24},
  doi = {10.5555/jmlr.2023.17},
  eprint = {2301.00001},
  eprinttype = {arXiv},
  eprintclass = {cs.LG},
  url = {https://jmlr.org/papers/v24/17.html},
  urldate = {2024-01-02},
  abstract = {We train {LLMs} on 10,000 \textsc{gpus}.

    A second {P}aragraph.},
  keywords = {distributed training; large models},
  langid = {english},
  file = {Full Text PDF:/home/lena/Zotero/storage/ABCD1234/Müller - 2023 - Distributed.pdf:application/pdf}
}
"""
    )
    record = one(text)
    assert record.location.line == 2  # the BOM and the blank line before the entry shift nothing
    assert (record.year, record.date.isoformat(), record.source) == (2023, "2023-05-17", "Journal of Machine Learning Research")
    assert (record.doi, record.arxiv) == ("10.5555/jmlr.2023.17", "2301.00001")
    assert record.links == {"html": "https://jmlr.org/papers/v24/17.html"}  # the local `file` is no link
    assert record.categories == ("cs.LG", "distributed training", "large models")
    assert record.abstract == "We train LLMs on 10,000 \\textsc{gpus}.\n\nA second Paragraph."  # for the pipeline, paragraphs kept
    assert "file" not in record.extra and record.type == "article"


def test_a_dblp_export():
    record = one(r"""
@article{DBLP:journals/corr/abs-2509-01193,
  author       = {Sheng Lin and
                  Fangcheng Fu},
  title        = {LobRA: Multi-tenant Fine-tuning over Heterogeneous Data},
  journal      = {CoRR},
  volume       = {abs/2509.01193},
  year         = {2025},
  url          = {https://doi.org/10.48550/arXiv.2509.01193},
  eprinttype    = {arXiv},
  eprint       = {2509.01193},
  timestamp    = {Mon, 06 Oct 2025 10:00:00 +0200},
  biburl       = {https://dblp.org/rec/journals/corr/abs-2509-01193.bib},
  bibsource    = {dblp computer science bibliography, https://dblp.org}
}""")
    assert (record.arxiv, record.source, record.type) == ("2509.01193", "arXiv", "preprint")
    assert record.ids == {"dblp": "journals/corr/abs-2509-01193"}
    assert record.links == {"doi": "https://doi.org/10.48550/arXiv.2509.01193"}
    assert record.authors == ("Sheng Lin", "Fangcheng Fu")


DBLP_NEURIPS = r"""
@inproceedings{DBLP:conf/nips/LinFL24,
  author       = {Sheng Lin and Fangcheng Fu},
  title        = {Efficient Sparse Attention for Long-Context Training},
  booktitle    = {Advances in Neural Information Processing Systems 38: Annual Conference
                  on Neural Information Processing Systems 2024, NeurIPS 2024, Vancouver,
                  BC, Canada, December 10 - 15, 2024},
  year         = {2024},
  biburl       = {https://dblp.org/rec/conf/nips/LinFL24.bib},
}

@inproceedings{hetu,
  author       = {Sheng Lin and Bin Cui},
  title        = {Hetu: {A} Highly Efficient Automatic Parallel Distributed Deep Learning System},
  booktitle    = {17th {USENIX} Symposium on Operating Systems Design and Implementation,
                  {OSDI} 2023, Boston, MA, USA, July 10-12, 2023},
  year         = {2023},
  biburl       = {https://dblp.org/rec/conf/osdi/LinC23.bib},
}

@inproceedings{DBLP:conf/cvpr/LinW24,
  author       = {Sheng Lin},
  title        = {A Workshop Paper},
  booktitle    = {{IEEE/CVF} Conference on Computer Vision and Pattern Recognition, {CVPR} Workshops
                  2024, Seattle, WA, USA, June 17-18, 2024},
  year         = {2024},
}

@inproceedings{DBLP:conf/nips/LinW24w,
  author       = {Sheng Lin},
  title        = {Toward Green Training},
  booktitle    = {NeurIPS 2024 Workshop on Efficient Natural Language and Speech Processing},
  year         = {2024},
}

@inproceedings{DBLP:conf/iclr/LinZ25,
  abbr         = {ICLR},
  author       = {Sheng Lin},
  title        = {Scaling Laws},
  booktitle    = {The Thirteenth International Conference on Learning Representations,
                  {ICLR} 2025, Singapore, April 24-28, 2025},
  year         = {2025},
}

@inproceedings{other2024,
  author       = {Sheng Lin},
  title        = {Not From DBLP},
  booktitle    = {Proceedings of a Meeting, MEET 2024, Dublin, Ireland},
  year         = {2024},
}
"""


def test_a_dblp_conference_paper_is_labelled_with_the_acronym_and_year_its_proceedings_title_names(tmp_path):
    """DBLP's booktitle is the whole proceedings title with ', NeurIPS 2024, Vancouver, ...' in it: lists show the
    short name beside the full title, as al-folio's `abbr` badge; an `abbr` of the user's own wins."""
    site = built(tmp_path, DBLP_NEURIPS)
    labels = {r["id"]: (r["venue_short"], r["source"]) for r in site.records.values()}
    assert labels["DBLP:conf/nips/LinFL24"] == (
        "NeurIPS 2024",
        "Advances in Neural Information Processing Systems 38: Annual Conference on Neural Information Processing "
        "Systems 2024, NeurIPS 2024, Vancouver, BC, Canada, December 10 - 15, 2024",
    )
    assert labels["hetu"][0] == "OSDI 2023"  # a DBLP entry under a key of the user's, known by its biburl
    assert labels["DBLP:conf/cvpr/LinW24"][0] == "CVPR Workshops 2024"
    assert labels["DBLP:conf/nips/LinW24w"][0] is None  # the acronym is the title's own first words: nothing to add
    assert labels["DBLP:conf/iclr/LinZ25"][0] == "ICLR"
    assert labels["other2024"][0] is None  # another export's title is not read as DBLP's
    profile = BeautifulSoup(site.result.files["index.html"], "html.parser")
    item = next(li for li in profile.select("li") if "Efficient Sparse Attention" in li.get_text())
    assert item.select_one(".venue-short").get_text(strip=True) == "NeurIPS 2024"


def test_a_selected_papers_card_on_the_profile_names_its_conference_as_its_list_item_does(tmp_path):
    """al-folio's `selected` papers are the profile's featured cards: "NeurIPS 2024" was on the list item only."""
    site = built(tmp_path, DBLP_NEURIPS.replace("  year         = {2024},\n  biburl", "  year = {2024}, selected = {true},\n  biburl", 1))
    profile = BeautifulSoup(site.result.files["index.html"], "html.parser")
    (card,) = profile.select(".featured-cards > li")
    assert " ".join(card.select_one(".card-meta").get_text().split()).startswith("NeurIPS 2024 Conference paper · Advances in Neural")


@pytest.mark.parametrize(
    ("fields", "short"),
    [
        ("booktitle = {17th {USENIX} Symposium on Operating Systems Design and Implementation ({OSDI} 23)}", "OSDI 23"),  # USENIX's
        ("booktitle = {2023 IEEE 64th Annual Symposium on Foundations of Computer Science (FOCS)}", "FOCS"),  # IEEE Xplore's
        ("booktitle = {Proceedings of the 40th International Conference on Machine Learning (ICML'23)}", "ICML'23"),
        ("booktitle = {Proceedings of the 29th Symposium on Operating Systems Principles}, series = {SOSP '23}", "SOSP '23"),  # ACM's
        ("booktitle = {Proceedings of the 61st Annual Meeting of the ACL (Volume 1: Long Papers)}", None),
        ("booktitle = {Proceedings of a Meeting (Short Papers)}", None),
        ("booktitle = {Algorithms}, series = {Lecture Notes in Computer Science}", None),
    ],
)
def test_the_conference_acronym_of_usenix_ieee_and_acm_exports_is_the_short_venue(tmp_path, fields, short):
    site = built(tmp_path, f"@inproceedings{{k, title = {{Sched}}, author = {{Sheng Lin}}, year = {{2023}}, {fields}}}")
    assert site.records["k"]["venue_short"] == short


def test_workshop_papers_are_named_so_apart_from_main_track_conference_papers(tmp_path):
    """'NeurIPS 2024 Workshop on ...' and DBLP's 'CVPR Workshops 2024' were "Conference paper", as the NeurIPS main
    track is: the list is a "Workshop paper", the type (filters, BibTeX, records.json) stays inproceedings."""
    site = built(tmp_path, DBLP_NEURIPS)
    labels = {key: " ".join(site.page(key).find("p", class_="venue").get_text().split()).split(" · ")[0] for key in site.records}
    assert labels["DBLP:conf/nips/LinW24w"] == "Workshop paper"
    assert labels["DBLP:conf/cvpr/LinW24"] == "Workshop paper"  # its short venue says so: 'CVPR Workshops 2024'
    assert labels["DBLP:conf/nips/LinFL24"] == "Conference paper"
    assert {site.records[key]["type"] for key in ("DBLP:conf/nips/LinW24w", "DBLP:conf/cvpr/LinW24")} == {"inproceedings"}
    assert "@inproceedings{DBLP:conf/nips/LinW24w," in site.text("publications.bib")
    profile = BeautifulSoup(site.result.files["index.html"], "html.parser")
    item = next(li for li in profile.select("li") if "Toward Green Training" in li.get_text())
    assert "Workshop paper" in item.get_text() and "Conference paper" not in item.get_text()


def test_a_conference_paper_merged_with_its_corr_preprint_is_not_cited_by_the_preprints_doi(tmp_path):
    """DBLP lists a NeurIPS paper (no DOI) and its CoRR version (arXiv's DataCite DOI): the one work shown is the
    NeurIPS paper, whose BibTeX, records.json and links must not give the preprint's DOI as the paper's."""
    corr = r"""
@article{DBLP:journals/corr/abs-2405-12345,
  author       = {Sheng Lin and Fangcheng Fu},
  title        = {Efficient Sparse Attention for Long-Context Training},
  journal      = {CoRR},
  volume       = {abs/2405.12345},
  year         = {2024},
  url          = {https://doi.org/10.48550/arXiv.2405.12345},
  doi          = {10.48550/ARXIV.2405.12345},
  eprinttype    = {arXiv},
  eprint       = {2405.12345},
}
"""
    site = built(tmp_path, DBLP_NEURIPS.split("@inproceedings{hetu")[0] + corr)
    (record,) = site.records.values()
    assert (record["id"], record["type"], record["arxiv"]) == ("DBLP:conf/nips/LinFL24", "inproceedings", "2405.12345")
    assert record["doi"] is None and "doi" not in record["ids"]
    entry = site.text("publications.bib")
    assert "@inproceedings{DBLP:conf/nips/LinFL24," in entry and "10.48550" not in entry.lower()
    links = [a.get_text(strip=True) for a in site.page("DBLP:conf/nips/LinFL24").select("main a")]
    assert "arXiv" in links and "DOI" not in links


def test_an_at_sign_inside_a_value_is_text():
    """DBLP writes workshop names such as 'LeQua @ CLEF 2022' into titles and venues."""
    record = one("@inproceedings{k,\n  title = {LeQua @ {CLEF} 2022: {A} Shared Task},\n  booktitle = {Working Notes of {CLEF}},\n  year = {2022}\n}")
    assert (record.title, record.source) == ("LeQua @ CLEF 2022: A Shared Task", "Working Notes of CLEF")


def test_a_dblp_export_with_crossref_entries_gives_the_papers_their_proceedings():
    """DBLP's 'condensed' export: each paper names its conference's @proceedings, which is no work of its own."""
    records, problems = read(r"""
@inproceedings{DBLP:conf/smlsys/LinZDFC24,
  author    = {Sheng Lin and Hailin Zhang},
  title     = {Elastic Sequence Parallelism for Long-Context {LLM} Training},
  pages     = {412--426},
  crossref  = {DBLP:conf/smlsys/2024},
  doi       = {10.5555/smlsys.2024.31},
}

@inproceedings{DBLP:conf/smlsys/Other24,
  author    = {Ada Lovelace},
  title     = {Another Paper},
  crossref  = {DBLP:conf/smlsys/2099},
  year      = {2024},
}

@proceedings{DBLP:conf/smlsys/2024,
  editor    = {Grace Hopper},
  title     = {Proceedings of the 2024 International Conference on Scalable Machine Learning Systems},
  publisher = {{ACM}},
  year      = {2024},
  doi       = {10.5555/smlsys.2024},
}
""")
    assert problems == [f"{PATH}:13: warning: entry 'DBLP:conf/smlsys/Other24': crossref 'DBLP:conf/smlsys/2099' names no entry of this file"]
    assert [r.id for r in records] == ["DBLP:conf/smlsys/LinZDFC24", "DBLP:conf/smlsys/Other24"]  # no record for the proceedings
    paper = records[0]
    assert paper.source == "Proceedings of the 2024 International Conference on Scalable Machine Learning Systems"
    assert (paper.year, paper.doi, paper.type, paper.extra["publisher"]) == (2024, "10.5555/smlsys.2024.31", "inproceedings", "ACM")
    assert paper.lines["year"] == 21  # where the inherited year is written
    assert paper.ids == {"dblp": "conf/smlsys/LinZDFC24"}


# -- errors: `path:line:` and the build fails -------------------------------------------------------

BROKEN = """\
@string{jmlr = {Journal of Machine Learning Research}}

@article{good1,
  title = {Fine},
  year = 2020,
}

@article{unclosed,
  title = {Never {closed,
  year = 2020,
}

@article{good2,
  title = {Also fine},
  journal = jmlr # { (JMLR)},
  year = 2021,
}

@article{notitle,
  author = {A. B},
  year = 2020,
}

@article{Good1,
  title = {Same key as good1, other case},
  year = 2020,
}

@article{macro,
  title = {Macro},
  journal = nips,
  year = 2020,
}

@article{early,
  title = {One brace too many}},
  author = {Lost Author},
  year = 2020,
}

@article{later,
  title = {Uses a macro defined below},
  journal = icml,
  year = 2020,
}
@string{icml = {ICML}}

@article{twice,
  title = {A},
  Title = {B},
  year = 2020,
}

@article{badyear,
  title = {Year},
  year = {to appear},
}
"""


def test_every_broken_entry_is_reported_at_its_line_and_the_good_ones_are_read():
    records, problems = read(BROKEN)
    assert [r.id for r in records] == ["good1", "good2"]
    assert records[1].source == "Journal of Machine Learning Research (JMLR)"
    assert problems == [
        f"{PATH}:9: entry 'unclosed', field 'title': unbalanced braces: a '{{' in the value is never closed",
        f"{PATH}:19: entry 'notitle' has no title",
        f"{PATH}:24: duplicate key 'Good1': also on line 3; a key names one entry: give this one a key of its own ('Good1b') or delete the one you do not want",
        f"{PATH}:31: entry 'macro', field 'journal': unknown macro 'nips' (define it above with @string{{nips = {{...}}}}, or put the value in braces)",
        f"{PATH}:36: unbalanced braces: a '}}' too many closes the entry above early; the text after it is not read",
        f"{PATH}:43: entry 'later', field 'journal': unknown macro 'icml': its @string is on line 46, below; BibTeX needs it above its first use",
        f"{PATH}:50: entry 'twice': field 'Title' given twice (first on line 49)",
        f"{PATH}:56: entry 'badyear': field 'year': 'to appear' is no year (four digits, such as 2024)",
    ]


SCHOLAR_SNIPPET = """@inproceedings{lin2022sparse,
  title={Sparse all-reduce for gnn training on gpu clusters},
  author={Lin, Sheng and Zhang, Hailin and Cui, Bin},
  booktitle={Proceedings of the 28th ACM SIGKDD Conference on Knowledge Discovery and Data Mining},
  pages={3201--3211},
  year={2022}
}
"""


def test_a_google_scholar_snippet_pasted_twice_is_read_once_with_a_warning(tmp_path):
    """Google Scholar's "Cite -> BibTeX" snippets pasted together repeat a paper: the build failed with
    `duplicate key 'lin2022sparse': also on line 1` and no word of what to do."""
    site = built(tmp_path, SCHOLAR_SNIPPET + "\n" + SCHOLAR_SNIPPET.replace("  ", "    "))
    assert list(site.records) == ["lin2022sparse"]
    assert site.warnings == [f"{PATH}:9: warning: entry 'lin2022sparse': given twice, the same as on line 1: read once; delete this copy"]


def test_two_different_entries_under_one_key_are_an_error_saying_what_to_do(tmp_path):
    site = write_site(tmp_path, {**MINIMAL_SITE, PATH: SCHOLAR_SNIPPET + "\n" + SCHOLAR_SNIPPET.replace("2022}", "2023}")})
    result = run_sitegen("build", cwd=site)
    assert result.returncode == 1
    assert (
        f"{PATH}:9: duplicate key 'lin2022sparse': also on line 1; a key names one entry: "
        "give this one a key of its own ('lin2022sparseb') or delete the one you do not want"
    ) in result.stderr


def test_a_file_that_ends_inside_an_entry():
    _, problems = read("@article{a, title = {T}, year = 2020}\n\n@article{cut,\n  title = {Cut off")
    assert problems == [f"{PATH}:4: entry 'cut', field 'title': unbalanced braces: a '{{' in the value is never closed before the end of the file"]


def test_an_unclosed_brace_or_quote_is_reported_at_the_line_of_its_value_naming_the_entry_and_field():
    """The entry's own closing brace closes the value whose '{' is never closed: the fields after it are lost to it."""
    _, problems = read("""@article{good1, title = {Fine}, year = {2020}}

@article{missingbrace,
  author = {M{\\"u}ller, Jane},
  title = {Unclosed {brace title},
  journal = {J},
  year = {2020},
}

@article{quoted,
  author = {Lin, Sheng},
  title = "Never closed,
  year = 2020,
}
""")
    assert problems == [
        f"{PATH}:5: entry 'missingbrace', field 'title': unbalanced braces: a '{{' in the value is never closed, so the fields after it are read as its text",
        f"{PATH}:12: entry 'quoted', field 'title': the '\"' that opens the value is never closed before the end of the file",
    ]


def test_a_bib_file_that_is_not_utf8_is_reported_at_the_line_of_the_first_byte_with_how_to_save_it(tmp_path):
    from sitegen.errors import ContentError

    site = write_site(tmp_path, MINIMAL_SITE)
    (site / PATH).parent.mkdir(parents=True)
    (site / PATH).write_bytes("@article{lat1,\n  title = {Latin-1 file},\n  author = {M\u00fcller, Jane},\n  year = {2020},\n}\n".encode("latin-1"))
    with pytest.raises(ContentError) as raised:
        check_site(site)
    [problem] = [str(problem) for problem in raised.value.problems]
    assert problem.startswith(
        f"{PATH}:3: not UTF-8 text (it looks like Latin-1 / Windows-1252: byte 0xfc on this line is '\u00fc' there): save the file as UTF-8"
    )
    assert "save the file as UTF-8 (in JabRef: Library properties, encoding UTF-8, then save; in Zotero: " in problem


def test_a_link_to_no_file_is_reported_at_its_own_line_naming_the_record(tmp_path):
    site = built(
        tmp_path,
        "@article{u2,\n  author = {Lin, Sheng},\n  title = {Two urls},\n  journal = {J. Test},\n  year = {2021},\n"
        "  url = {https://example.org/landing},\n  pdf = {papers/u2.pdf},\n}\n",
        {"content/records/y.yaml": "id: y\ntitle: Y\nyear: 2020\nlinks:\n  html: https://example.org/y\n  slides: y.pdf\n"},
    )
    assert site.warnings == [
        f"{PATH}:7: warning: record 'u2', link 'pdf': 'papers/u2.pdf' is no file of the site (a file of your static/ folder is linked as static/NAME)",
        "content/records/y.yaml:6: warning: record 'y', link 'slides': 'y.pdf' is no file of the site (a file of your static/ folder is linked as static/NAME)",
    ]


def test_what_validation_says_of_a_field_names_the_entry_at_the_fields_line():
    _, problems = read("@article{a, title = {A}, year = 2020}\n@article{k,\n  title = {K},\n  year = 2020,\n  doi = {not a doi}\n}\n")
    assert [problem.split(" (like")[0] for problem in problems] == [f"{PATH}:5: warning: entry 'k': field 'doi': 'not a doi' is not a DOI"]


# -- as a user runs it --------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_bib_file_in_content_records_builds_pages_and_a_broken_one_fails_the_build(tmp_path):
    site = write_site(
        tmp_path / "site",
        {
            **MINIMAL_SITE,
            "content/records/mine.bib": (
                '@article{muller2024, title = {{DNA} and M{\\"u}ller}, author = {M{\\"u}ller, Lena}, journal = {J}, year = 2024,\n'
                '  abstract = {Folding {DNA} at 1.45$\\times$ the speed, says M{\\"u}ller.\n\n  A second paragraph.}}\n'
            ),
        },
    )
    built = run_sitegen("build", "--site", str(site))
    assert built.returncode == 0, built.stderr
    page = (site / "output" / "records" / "muller2024" / "index.html").read_text(encoding="utf-8")
    assert "<title>DNA and Müller" in page and "Lena Müller" in page
    assert "<p>Folding DNA at 1.45<math" in page and "says Müller.</p>" in page and "<p>A second paragraph.</p>" in page

    (site / "content/records/mine.bib").write_text("@article{x,\n  title = {T},\n  journal = undefined,\n  year = 2024}\n", encoding="utf-8")
    failed = run_sitegen("build", "--site", str(site))
    assert failed.returncode == 1
    assert "content/records/mine.bib:3: entry 'x', field 'journal': unknown macro 'undefined'" in failed.stderr
    assert (site / "output" / "records" / "muller2024" / "index.html").read_text(encoding="utf-8") == page  # the last site stays


@pytest.mark.slow
def test_what_is_no_doi_is_a_warning_naming_the_field_and_makes_no_link(tmp_path):
    bib = "@article{escaped, title = {Escaped}, journal = {J}, year = 2024,\n  doi = {10.1000/a\\_b}}\n@article{broken, title = {Broken}, journal = {J}, year = 2024,\n  doi = {not a doi}}\n"
    site = write_site(
        tmp_path / "site",
        {**MINIMAL_SITE, "content/records/mine.bib": bib, "content/records/typed.yaml": "id: typed\ntitle: Typed\nyear: 2024\ndoi: not a doi\n"},
    )

    built = run_sitegen("build", "--site", str(site))

    assert built.returncode == 0, built.stderr
    assert "content/records/mine.bib:4: warning: entry 'broken': field 'doi': 'not a doi' is not a DOI" in built.stderr
    assert "content/records/typed.yaml:4: warning: field 'doi': 'not a doi' is not a DOI" in built.stderr

    def doi_links(record_id: str) -> list[str]:
        page = BeautifulSoup((site / "output" / "records" / record_id / "index.html").read_text(encoding="utf-8"), "html.parser")
        return [a["href"] for a in page.find_all("a", href=True) if "doi.org" in a["href"]]

    assert doi_links("escaped") == ["https://doi.org/10.1000/a_b"]  # LaTeX's escape undone
    assert doi_links("broken") == [] and doi_links("typed") == []
    assert "doi.org/not" not in (site / "output" / "publications.bib").read_text(encoding="utf-8")


# -- any text: records or `path:line:` problems, never a crash ---------------------------------------

BIBTEX_PIECES = [
    "@article{",
    "@string{",
    "@comment{",
    "@misc(",
    "k,",
    " title = ",
    " author = ",
    " year = ",
    "{",
    "}",
    "(",
    ")",
    '"',
    "#",
    ",",
    "=",
    "\n",
    " and ",
    "others",
    "\\'e",
    '\\"{u}',
    "$x^2$",
    "jan",
    "2024",
    "Lin, Sheng",
    "{{A B}}",
    "\\emph{",
    "%",
    "~",
    "--",
    "\\",
    "é",
    " ",
    "eprint = {2401.01234v2}",
    "doi = {https://doi.org/10.1/x}",
    "crossref = {k}",
    '@preamble{"\\newcommand{\\x}[1]{\\x{#1}\\x{#1}#1}"}',
    "\\x{",
    "\\noopsort{",
    "date = {2020/2021}",
    "url = {a{\\&}b c}",
    "\\apj",
]


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(BIBTEX_PIECES), max_size=40))
def test_any_text_gives_records_or_problems_at_their_lines(pieces):
    records, problems = read("".join(pieces))
    assert all(re.match(rf"{re.escape(PATH)}:\d+: ", problem) for problem in problems), problems
    assert all(record.title and record.id for record in records)


def record_links(site: Built, record_id: str) -> dict[str, str]:
    """The record page's links: the text of each, and where it leads."""
    return {" ".join(a.get_text().split()): a["href"] for a in site.page(record_id).select("ul.links a")}


def test_addresses_with_latex_escapes_two_addresses_and_dblps_ee_are_links_that_work(tmp_path):
    """Mendeley writes `{\\&}` and two addresses in `url`; Zotero `\\_`; DBLP's condensed export `ee` alone.
    A `url` beside a `pdf` of the same kind is kept too."""
    site = built(
        tmp_path,
        r"""@inproceedings{acm, title = {A}, author = {Lin, Sheng}, booktitle = {B}, year = 2017,
  url = {https://dl.acm.org/citation.cfm?id=3107999{\&}coll=DL\&dl=ACM%20Digital}}
@article{two, title = {B}, author = {Lin, Sheng}, journal = {J}, year = 2018,
  url = {https://genomebiology.biomedcentral.com/articles/10.1186/s13059-018-1234-5 http://arxiv.org/abs/1805.01234}}
@misc{escaped, title = {C}, author = {Lin, Sheng}, year = 2021,
  url = {\url{https://example.org/my\_project/a\%20b\#part\~{}x}}}
@inproceedings{dblp, title = {D}, author = {Lin, Sheng}, booktitle = {OSDI}, year = 2022,
  ee = {https://www.usenix.org/conference/osdi22/presentation/lin}}
@article{both, title = {E}, author = {Lin, Sheng}, journal = {J}, year = 2020,
  url = {https://example.org/e.pdf}, pdf = {https://example.org/e-preprint.pdf}}
@article{spaced, title = {F}, author = {Lin, Sheng}, journal = {J}, year = 2020,
  url = {https://example.org/my paper.html}}
""",
    )
    assert record_links(site, "acm") == {"HTML": "https://dl.acm.org/citation.cfm?id=3107999&coll=DL&dl=ACM%20Digital"}
    assert record_links(site, "two") == {
        "arXiv": "http://arxiv.org/abs/1805.01234",
        "HTML": "https://genomebiology.biomedcentral.com/articles/10.1186/s13059-018-1234-5",
    }
    assert record_links(site, "escaped") == {"HTML": "https://example.org/my_project/a%20b#part~x"}
    assert record_links(site, "dblp") == {"HTML": "https://www.usenix.org/conference/osdi22/presentation/lin"}
    assert record_links(site, "both") == {"PDF": "https://example.org/e-preprint.pdf", "PDF 2": "https://example.org/e.pdf"}
    assert record_links(site, "spaced") == {"HTML": "https://example.org/my%20paper.html"}
    assert site.records["two"]["links"] == {
        "html": "https://genomebiology.biomedcentral.com/articles/10.1186/s13059-018-1234-5",
        "abs": "http://arxiv.org/abs/1805.01234",
    }
    assert site.warnings == [f"{PATH}:12: warning: entry 'spaced': field 'url': an address has no spaces; read as 'https://example.org/my%20paper.html'"]


def test_zoteros_address_of_an_arxiv_version_is_no_second_arxiv_link(tmp_path):
    """Zotero saves an arXiv preprint with the address of the version it read (`http://arxiv.org/abs/ID v3`); merged
    with the fetched record, the page linked "arXiv" to that old version and "arXiv 2" to the work. Every version
    is one work: one arXiv link, to it; so is `http://dx.doi.org/` one DOI link."""
    fetched = """\
id: '2104.05512'
title: Active nematic turbulence in dense bacterial monolayers
authors: [Sheng Lin, Tomas Ekberg]
year: 2021
source: arXiv
links: {abs: 'https://arxiv.org/abs/2104.05512', pdf: 'https://arxiv.org/pdf/2104.05512'}
arxiv: '2104.05512'
version: 5
"""
    site = built(
        tmp_path,
        r"""@misc{lin_active_2021,
  title = {Active nematic turbulence in dense bacterial monolayers},
  url = {http://arxiv.org/abs/2104.05512v3},
  doi = {10.48550/arXiv.2104.05512},
  publisher = {arXiv},
  author = {Lin, Sheng and Ekberg, Tomas},
  month = apr,
  year = {2021},
  note = {arXiv:2104.05512 [cond-mat]},
}
@article{lin_odd_2021, title = {Odd elasticity}, author = {Lin, Sheng}, journal = {Phys. Rev. E}, year = 2021,
  doi = {10.1103/PhysRevE.104.024402}, url = {http://dx.doi.org/10.1103/PhysRevE.104.024402}}
""",
        {"content/records/arxiv/2104.05512.yaml": fetched},
    )
    assert record_links(site, "lin_active_2021") == {
        "arXiv": "https://arxiv.org/abs/2104.05512",
        "PDF": "https://arxiv.org/pdf/2104.05512",
        "DOI": "https://doi.org/10.48550/arXiv.2104.05512",  # arXiv's DataCite DOI, which Zotero gives
    }
    assert record_links(site, "lin_odd_2021") == {"DOI": "https://doi.org/10.1103/PhysRevE.104.024402"}


def test_a_replaced_dataset_version_keeps_its_doi_beside_the_new_ones(tmp_path):
    """Zenodo gives every version a DOI; a paper cites the version it used. Two `@dataset` entries of one dataset
    are one record with the newest DOI, and the older version's DOI was dropped: it is "DOI 2"."""
    site = built(
        tmp_path,
        r"""@dataset{lin_tracking_2022, title = {Single-particle tracking data for membrane proteins}, author = {Lin, Sheng},
  publisher = {Zenodo}, year = {2022}, version = {1.0}, doi = {10.5281/zenodo.7001234}}
@dataset{lin_tracking_2023, title = {Single-particle tracking data for membrane proteins}, author = {Lin, Sheng},
  publisher = {Zenodo}, year = {2023}, version = {2.0}, doi = {10.5281/zenodo.8004321}}
""",
    )
    assert list(site.records) == ["lin_tracking_2022"]
    assert record_links(site, "lin_tracking_2022") == {"DOI": "https://doi.org/10.5281/zenodo.8004321", "DOI 2": "https://doi.org/10.5281/zenodo.7001234"}
    assert site.records["lin_tracking_2022"]["ids"] == {"doi": "10.5281/zenodo.8004321", "doi_2": "10.5281/zenodo.7001234"}
    # the note said "same DOI": the work has the newest version's DOI, but the two entries share none
    assert site.warnings == [
        f"{PATH}:3: note: record 'lin_tracking_2023' merged with lin_tracking_2022 ({PATH}:1): versions of one program or dataset"
        " in one repository (a DOI each), with one title and an author in common; its id is kept as an alias"
    ]


def test_fields_a_reader_needs_are_kept_and_a_field_nothing_reads_is_warned_about_at_its_line(tmp_path):
    """INSPIRE's collaboration and report number, a software version, a conference's name and PubMed's id were
    dropped without a word; so was a field with a typo in its name, and the venue with it."""
    site = built(
        tmp_path,
        """@article{ATLAS:2012yve,
    author = "Aad, Georges and others",
    collaboration = "ATLAS",
    title = "{Observation of a new particle}",
    reportNumber = "CERN-PH-EP-2012-218",
    journal = "Phys. Lett. B",
    year = "2012"
}
@software{sw, author = {Lin, Sheng}, title = {seqtool}, date = {2023-02}, version = {2.1.0}}
@inproceedings{conf, author = {Lin, Sheng}, title = {Kernels}, booktitle = {Proceedings of the 39th ICML}, year = 2022,
  eventtitle = {International Conference on Machine Learning}, PubMedID = {29999999},
  jounral = {Nature}, foo = {bar}, timestamp = {Mon, 23 Oct 2023}, bibtex_show = {true}}
""",
    )
    assert site.page("ATLAS:2012yve").select_one("p.authors").get_text() == "Georges Aad, et al. (ATLAS Collaboration)"
    assert site.records["conf"]["ids"]["pmid"] == "29999999"
    assert site.warnings == [
        f"{PATH}:12: warning: entry 'conf': unknown field 'jounral'; did you mean 'journal'?",
        f"{PATH}:12: warning: entry 'conf': unknown field 'foo' (no page shows it), left out",
    ]
    records, _ = read((tmp_path / PATH).read_text(encoding="utf-8"))
    extra = {record.id: record.extra for record in records}
    assert (extra["ATLAS:2012yve"]["collaboration"], extra["ATLAS:2012yve"]["reportnumber"]) == ("ATLAS", "CERN-PH-EP-2012-218")
    assert (extra["sw"]["version"], extra["conf"]["eventtitle"]) == ("2.1.0", "International Conference on Machine Learning")


ZENODO_SOFTWARE = """@software{kowalczyk_2024_10812345,
  author       = {Kowalczyk, Marta and Okafor, Chidi},
  title        = {fluxgrid/fluxgrid: v2.3.1},
  month        = mar,
  year         = 2024,
  publisher    = {Zenodo},
  version      = {v2.3.1},
  doi          = {10.5281/zenodo.10812345},
  url          = {https://doi.org/10.5281/zenodo.10812345},
  repository   = {https://github.com/fluxgrid/fluxgrid},
  license      = {BSD-3-Clause},
  swhid        = {swh:1:dir:d198bc9d7a6bcf6db04f476d29314f157507d505;origin=https://github.com/fluxgrid/fluxgrid},
}
"""


def test_zenodos_and_biblatex_softwares_fields_give_the_code_link_licence_and_archive(tmp_path):
    """Zenodo's @software export (`swhid`) and biblatex-software's `repository` and `license`, which GitHub's
    "Cite this repository" writes too, were "unknown field ... left out": warnings that fail `check --strict`,
    and the repository's link lost. The page shows the code, the Software Heritage archive, version and licence."""
    site = built(tmp_path, ZENODO_SOFTWARE)
    assert site.warnings == []
    record = site.records["kowalczyk_2024_10812345"]
    assert record["links"] == {
        "code": "https://github.com/fluxgrid/fluxgrid",
        "software_heritage": "https://archive.softwareheritage.org/swh:1:dir:d198bc9d7a6bcf6db04f476d29314f157507d505;origin=https://github.com/fluxgrid/fluxgrid",
    }
    assert (record["details"]["version"], record["details"]["license"]) == ("v2.3.1", "BSD-3-Clause")
    page = site.page("kowalczyk_2024_10812345")
    details = {dt.get_text(): dd.get_text() for dt, dd in zip(page.select("dl.details dt"), page.select("dl.details dd"))}
    assert details["Version"] == "v2.3.1" and details["License"] == "BSD-3-Clause"
    assert [a.get_text() for a in page.select("header ul.links a")] == ["DOI", "Code", "Software Heritage"]
    jsonld = json.loads(page.find("script", type="application/ld+json").string)
    assert jsonld["@type"] == "SoftwareSourceCode" and jsonld["codeRepository"] == "https://github.com/fluxgrid/fluxgrid"
    assert jsonld["license"] == "https://spdx.org/licenses/BSD-3-Clause.html"
    entry = site.text("publications.bib")
    assert "license = {BSD-3-Clause}" in entry and "version = {v2.3.1}" in entry
    again = built(tmp_path / "again", entry)  # publications.bib read back: the same licence, version and code link
    assert again.warnings == [] and again.records["kowalczyk_2024_10812345"]["details"]["license"] == "BSD-3-Clause"
    assert again.records["kowalczyk_2024_10812345"]["links"]["code"] == "https://github.com/fluxgrid/fluxgrid"


def test_a_yaml_records_repository_is_its_code_link_and_its_licence_is_shown():
    record = one_yaml(
        "id: fluxgrid\ntitle: FluxGrid\nauthors: [Marta Kowalczyk]\nyear: 2021\ntype: software\n"
        "repository: https://github.com/fluxgrid/fluxgrid\nlicense: BSD-3-Clause\nlinks: {docs: 'https://fluxgrid.readthedocs.io'}\n"
    )
    assert record.links == {"docs": "https://fluxgrid.readthedocs.io", "code": "https://github.com/fluxgrid/fluxgrid"}
    assert record.extra["license"] == "BSD-3-Clause"


def test_links_to_package_indexes_are_named_as_they_spell_themselves(tmp_path):
    yaml_record = (
        "id: fluxgrid\ntitle: FluxGrid\nauthors: [Marta Kowalczyk]\nyear: 2021\ntype: software\n"
        "links: {pypi: 'https://pypi.org/project/fluxgrid/', conda: 'https://anaconda.org/conda-forge/fluxgrid', docs: 'https://fluxgrid.readthedocs.io'}\n"
    )
    site = Built(tmp_path, {"content/records/fluxgrid.yaml": yaml_record})
    assert sorted(a.get_text() for a in site.page("fluxgrid").select("header ul.links a")) == ["Docs", "PyPI", "conda"]


def one_yaml(text: str):
    from conftest import validated_record

    return validated_record(text, "content/records/fluxgrid.yaml")


@pytest.mark.parametrize(
    ("entry", "kind"),
    [
        # figshare's export
        (
            "@misc{fig, title = {Sediment transport benchmark cases}, url = {https://figshare.com/articles/dataset/x/14567890},"
            " DOI = {10.6084/m9.figshare.14567890.v2}, publisher = {figshare}, author = {Kowalczyk, Marta}, year = {2021}}",
            "dataset",
        ),
        # DataCite's (doi.org's BibTeX of a Dryad DOI)
        (
            "@misc{https://doi.org/10.5061/dryad.abc123xyz, doi = {10.5061/DRYAD.ABC123XYZ}, author = {Kowalczyk, Marta},"
            " title = {Floodplain vegetation survey}, publisher = {Dryad}, year = {2020}}",
            "dataset",
        ),
        # Zenodo's archive of a GitHub release, as its older exports wrote it
        (
            "@misc{kowalczyk_2019_3333333, author = {Kowalczyk, Marta}, title = {mkowalczyk/pyhydro-tools: v0.5.0}, year = 2019,"
            " publisher = {Zenodo}, version = {v0.5.0}, doi = {10.5281/zenodo.3333333}}",
            "software",
        ),
        ("@misc{z, author = {Kowalczyk, Marta}, title = {Slides of a talk}, year = 2019, publisher = {Zenodo}, doi = {10.5281/zenodo.1}}", "other"),
    ],
)
def test_the_exports_of_data_repositories_and_zenodos_github_releases_are_datasets_and_software(entry, kind):
    assert one(entry).type == kind


def test_al_folios_link_fields_are_links():
    record = one(
        "@article{einstein1905, title = {T}, author = {A. Einstein}, journal = {J}, year = {1905},"
        " pdf = {static/paper.pdf}, supp = {https://example.org/supp.zip}, html = {https://example.org/h}, code = {https://example.org/c}}"
    )
    assert record.links == {"pdf": "static/paper.pdf", "supp": "https://example.org/supp.zip", "html": "https://example.org/h", "code": "https://example.org/c"}


def test_openreview_pages_are_openreview_links_and_the_papers_own_address(tmp_path):
    """DBLP's `url` of an ICLR paper is its OpenReview page, and al-folio users write `openreview = {...}`: it was
    "HTML", and the field was "unknown; did you mean 'preview'?" and dropped."""
    bib = (
        "@inproceedings{DBLP:conf/iclr/LinZ25, title = {Scaling Laws}, author = {Sheng Lin}, booktitle = {ICLR 2025}, year = {2025},"
        " url = {https://openreview.net/forum?id=AbCdEf123}}\n"
        "@inproceedings{moe, title = {Routing}, author = {Sheng Lin}, booktitle = {ICLR 2025}, year = {2025},"
        " openreview = {https://openreview.net/forum?id=QwErTy}, pdf = {https://openreview.net/pdf?id=QwErTy}, code = {https://github.com/x/y}}\n"
        "@inproceedings{tmlr, title = {Another}, author = {Sheng Lin}, booktitle = {ICLR 2025}, year = {2025},"
        " url = {https://openreview.net/pdf?id=Zz9}}\n"
    )
    site = built(tmp_path, bib)
    assert site.warnings == []
    assert site.records["DBLP:conf/iclr/LinZ25"]["links"] == {"openreview": "https://openreview.net/forum?id=AbCdEf123"}
    assert site.records["tmlr"]["links"] == {"pdf": "https://openreview.net/pdf?id=Zz9"}  # OpenReview's PDF, no '.pdf' in it
    page = site.page("moe")
    links = [a.get_text(strip=True) for a in page.select("main ul a, main p a") if a.get("href", "").startswith("https://")]
    assert links[:3] == ["PDF", "OpenReview", "Code"]
    csl = json.loads(site.page("DBLP:conf/iclr/LinZ25").find(attrs={"data-csl-item": True})["data-csl-item"])
    assert csl["URL"] == "https://openreview.net/forum?id=AbCdEf123"  # the paper's own address in the citations
    bib_out = site.text("publications.bib")
    assert "url = {https://openreview.net/forum?id=AbCdEf123}" in bib_out
    assert "url = {https://openreview.net/forum?id=QwErTy}" in bib_out  # read back as the OpenReview link


@pytest.mark.parametrize(
    ("fields", "award"),
    [
        ("award = {Best Paper Award at {EuroSys} 2025}", "Best Paper Award at EuroSys 2025"),
        ("award = {For its elegant proof.}, award_name = {Best Paper}", "Best Paper"),  # al-folio: the badge's words
        ("", ""),
    ],
)
def test_al_folios_award_is_the_records_award(fields, award):
    record = one(f"@inproceedings{{k, title = {{T}}, author = {{A. B}}, booktitle = {{C}}, year = {{2025}}, {fields}}}")
    assert record.award == award


@pytest.mark.parametrize(
    "annotation",
    [
        r"* Equal contribution; \textsuperscript{\dag} Corresponding author",
        r"$^*$Equal contribution <br> $^\dagger$Corresponding author",
        "* Equal contribution, † Corresponding author",
    ],
)
def test_al_folios_annotation_says_what_the_authors_marks_mean(tmp_path, annotation):
    """al-folio shows `annotation` beside the authors, where CS papers write "* Equal contribution": it was left out
    without a word, and the page showed the marks with nothing to say what they mean."""
    bib = f"@inproceedings{{moe, title = {{Routing}}, author = {{Lin*, Sheng and Zhou*, Yuming and Cui†, Bin}}, booktitle = {{ICLR}}, year = {{2025}}, annotation = {{{annotation}}}}}"
    site = built(tmp_path, bib)
    assert site.warnings == []
    notes = " ".join(site.page("moe").select_one(".author-notes").get_text().split())
    assert notes == "* Equal contribution · † Corresponding author"


def test_an_al_folio_annotation_that_explains_no_marks_is_left_out():
    record = one("@inproceedings{k, title = {T}, author = {A. B}, booktitle = {C}, year = {2025}, annotation = {Also presented at a workshop.}}")
    assert "author_notes" not in record.extra


@pytest.mark.parametrize(
    ("note", "status"),
    [
        ("To appear", "To appear"),
        ("To appear in {OSDI} '26", "To appear in OSDI '26"),
        ("(Under review)", "Under review"),
        ("Accepted at {ICML} 2026", "Accepted at ICML 2026"),
        ("Submitted to NeurIPS", "Submitted to NeurIPS"),
    ],
)
def test_a_note_that_says_where_a_paper_stands_is_its_status_beside_the_venue(tmp_path, note, status):
    """BibTeX has no `pubstate`: CS users write `note = {To appear}` or `{Under review}`, which showed on the paper's
    own page only; the lists did not say that the paper is not published yet."""
    site = built(tmp_path, f"@inproceedings{{k, title = {{Sched}}, author = {{Sheng Lin}}, booktitle = {{OSDI}}, year = {{2026}}, note = {{{note}}}}}")
    assert site.records["k"]["status"] == status and "note" not in site.records["k"]["details"]
    profile = BeautifulSoup(site.result.files["index.html"], "html.parser")
    venue = " ".join(next(li for li in profile.select("li") if "Sched" in li.get_text()).find("p", class_="venue").get_text().split())
    assert venue == f"Conference paper · OSDI · {status} · 2026"


def test_another_note_stays_a_note():
    record = one(
        "@inproceedings{k, title = {T}, author = {A. B}, booktitle = {C}, year = {2025}, note = {Accepted papers get a free lunch. Also: slides online.}}"
    )
    assert "status" not in record.extra and record.extra["note"] == "Accepted papers get a free lunch. Also: slides online."


def test_al_folios_preview_is_the_records_image():
    record = one("@article{k, title = {T}, author = {A. B}, journal = {J}, year = {2025}, preview = {brownian.gif}}")
    assert record.image == "brownian.gif"  # the build's link check says where the file is, if it is in static/


@pytest.mark.parametrize("field", ["abbr", "shortjournal"])  # al-folio's badge; BibLaTeX's short journal title
def test_a_venues_short_name_is_read(field):
    record = one(f"@article{{k, title = {{T}}, author = {{A. B}}, journal = {{Journal of Machine Learning Research}}, year = {{2025}}, {field} = {{JMLR}}}}")
    assert (record.source, record.venue_short) == ("Journal of Machine Learning Research", "JMLR")


@pytest.mark.parametrize(
    ("field", "tag"), [("langid = {ngerman}", "de"), ("language = {French}", "fr"), ("langid = {english}, language = {German}", "en"), ("", "")]
)
def test_a_works_language_is_read_from_langid_or_language(field, tag):
    """biblatex's `langid` (a babel name, as Zotero and Better BibTeX write it) else `language`."""
    record = one(f"@article{{k, title = {{Über die Konvergenz}}, author = {{A. B}}, journal = {{J}}, year = {{2025}}, {field}}}")
    assert record.language == tag


@pytest.mark.parametrize(("tag", "langid"), [("fa", "persian"), ("ur", "urdu"), ("ar", "arabic"), ("he", "hebrew")])
def test_a_right_to_left_language_is_written_as_its_langid_and_read_back(tag, langid):
    """publications.bib left out the `langid` of a Persian work, which RIS wrote as `LA  - fa`."""
    assert babel_name(tag) == langid
    record = one(f"@article{{k, title = {{T}}, author = {{A. B}}, journal = {{J}}, year = {{2025}}, langid = {{{langid}}}}}")
    assert record.language == tag


def test_an_unknown_entry_type_and_a_month_that_is_none_are_read_with_a_warning():
    records, problems = read("""@artcle{a, title = {A}, author = {Lin, Sheng}, journal = {J}, year = 2020}
@weirdtype{b, title = {B}, author = {Lin, Sheng}, year = 2020,
  month = 13}
@online{c, title = {C}, author = {Lin, Sheng}, year = 2020, month = jun}
""")
    assert [r.id for r in records] == ["a", "b", "c"]
    assert problems == [
        f"{PATH}:1: warning: entry 'a': unknown entry type '@artcle'; did you mean '@article'?",
        f"{PATH}:2: warning: entry 'b': unknown entry type '@weirdtype' (read by its fields, as @misc is)",
        f"{PATH}:3: warning: entry 'b': field 'month': '13' is no month (1 to 12, or jan to dec); kept as text",
    ]


@pytest.mark.parametrize("month, number", [("{Juni}", 6), ("{Mär.}", 3), ("{Okt}", 10), ("{dez}", 12), ("jun", 6)])
def test_german_month_names_are_months(month, number):
    assert one(f"@misc{{k, title = {{T}}, author = {{Lin, Sheng}}, year = 2020, month = {month}}}").extra["month"] == number


def test_biblatex_ids_are_the_entrys_other_citation_keys():
    """`ids = {...}` (biblatex's key aliases, as Better BibTeX and sitegen's own publications.bib write them) was
    dropped without a word: a \\cite of an old key no longer named the paper anywhere sitegen names it."""
    record = one(
        "@article{lin2024new, title = {T}, author = {Lin, Sheng}, journal = {J}, year = 2024, ids = {lin2024old, Lin2024Sorting ,lin2024new, lin2024old,}}"
    )
    assert record.aliases == ("lin2024old", "Lin2024Sorting")  # its own key and a key given twice once


def test_an_alias_bibtex_cannot_cite_is_left_out_with_a_warning():
    records, problems = read("@article{k, title = {T}, author = {Lin, Sheng}, journal = {J}, year = 2024,\n  ids = {old key, old2}}")
    assert records[0].aliases == ("old2",)
    assert problems == [f"{PATH}:2: warning: entry 'k': field 'ids': 'old key' is no citation key (no space, comma, brace, quote or %); left out"]


@pytest.mark.parametrize(
    ("keywords", "categories"),
    [
        # NASA ADS: commas in one field, arXiv's classes among them
        (
            "{Astrophysics - Astrophysics of Galaxies, galaxies: evolution, Astrophysics - Cosmology}",
            ("Astrophysics - Astrophysics of Galaxies", "galaxies: evolution", "Astrophysics - Cosmology"),
        ),
        ("{attention; genomics ;Machine Learning,}", ("attention", "genomics", "Machine Learning")),  # Zotero, JabRef
        # a keyword in braces is one keyword, its commas and all (as in a name list); so is math, and LaTeX's \\, space
        ("{{ISM: dust, extinction}, galaxies}", ("ISM: dust, extinction", "galaxies")),
        ("{$f(x, y)$ bounds; 10\\,GeV}", ("$f(x, y)$ bounds", "10 GeV")),
    ],
)
def test_keywords_are_split_at_commas_and_semicolons_outside_braces_and_math(keywords, categories):
    assert one(f"@misc{{k, title = {{T}}, author = {{Lin, Sheng}}, year = 2020, keywords = {keywords}}}").categories == categories


def test_href_and_url_in_text_are_a_safe_link_or_their_text_never_code_or_a_script(tmp_path):
    """`\\href{url}{text}` was shown as LaTeX source in <code> (with a warning) wherever it stood."""
    site = built(
        tmp_path,
        r"""@article{k, title = {See \href{https://example.org/t}{the \emph{page}} and \href{javascript:alert(1)}{this}, \url{https://x.org/a_b}},
author = {Lin, Sheng}, journal = {J}, year = 2024,
abstract = {Code at \href{https://github.com/a/b\_c}{GitHub} and \url{https://x.org/c\_d}; bad \href{javascript:alert(1)}{click}.},
note = {See \href{https://h.org}{here}}}
""",
    )
    page = site.page("k")
    title = page.select_one("h1")
    assert title.get_text() == "See the page and this, https://x.org/a_b"  # a title is a link in lists: no link in it
    assert title.find("a") is None and title.find("code") is None and title.find("em").get_text() == "page"
    abstract = page.select_one(".abstract-body")
    assert abstract.get_text() == "Code at GitHub and https://x.org/c_d; bad click."
    assert [(a["href"], a.get_text()) for a in abstract.find_all("a", href=True)] == [("https://github.com/a/b_c", "GitHub")]
    assert abstract.find("code") is None
    assert not [tag for tag in page.find_all(True) if any("javascript" in str(value).lower() for value in tag.attrs.values())]
    assert "See here" in page.select_one("dl.details").get_text(" ")  # the note
    assert "\\href" in page.select_one("pre.bibtex").get_text()  # the BibTeX keeps the LaTeX, as written
    ris = [line for line in site.text("publications.ris").splitlines() if line.startswith(("TI", "N1"))]
    assert ris == ["TI  - See the page and this, https://x.org/a_b", "N1  - See here"]
    assert site.warnings == [
        f"{PATH}:3: warning: record 'k', field 'abstract': link 'javascript:alert(1)': unsafe URL scheme 'javascript:', the link is left out (its text stays)"
    ]


@pytest.mark.parametrize(
    ("fields", "pages"),
    [
        ("pages = {109012, 24}, mrnumber = {4000001}, mrclass = {65T50}, fjournal = {Journal of Computational Physics}", "109012"),
        ("pages = {Paper No. 109012, 24}", "109012"),
        ("pages = {Id/No 109012, 24 p.}, zbmath = {7123456}, zbl = {1420.11123}", "109012"),
        ("articleno = {42}, numpages = {18}", "42"),  # ACM's
        ("pages = {611--659}, mrnumber = {3456789}", "611–659"),
        ("pages = {12, 15}", "12, 15"),  # two pages, in a file of no database that writes article numbers so
    ],
)
def test_an_article_number_and_length_is_the_article_number(fields, pages):
    record = one(f'@article{{a, title = {{T}}, author = {{Sch\\"afer, J\\"org}}, journal = {{J. Comput. Phys.}}, year = 2020, {fields}}}')
    assert record.extra["pages"] == pages


def test_a_display_environment_in_a_bib_abstract_is_display_math_and_kept_in_publications_bib(tmp_path):
    bib = (
        '@article{env2022,\n  author = {Sch\\"afer, J\\"org},\n  title = {An identity},\n  journal = {Invent. Math.},\n'
        "  year = {2022},\n  abstract = {We prove\n  \\begin{equation}\\label{main}\n  \\sum_{n\\le x} \\mu(n) = o(x)\n"
        "  \\end{equation}\n  for all $x$.},\n}\n"
    )
    site = built(tmp_path, bib)
    assert site.warnings == []
    abstract = site.page("env2022").find(class_="abstract-body")
    assert abstract.find("math", attrs={"display": "block"}).find("mo").get_text() == "∑"
    assert site.records["env2022"]["abstract"] == "We prove ∑_(n≤x)μ(n)=o(x) for all x."
    assert "\\begin{equation}\\label{main} \\sum_{n\\le x} \\mu(n) = o(x) \\end{equation}" in site.text("publications.bib")


def test_an_accented_letter_starting_any_authors_name_keeps_its_accent_and_letter(tmp_path):
    """MathSciNet writes `\\"{O}zel` and `\\L uczak` at the start of a name; after an `and` bibtexparser's splitter
    started the name past the escape: "Feryal Ozel", "Tomasz uczak", "A. ukasz", with no warning."""
    site = built(
        tmp_path,
        r"""@article {MR3456789,
    AUTHOR = {Erd\H{o}s, P. and Ko\v{c}i, Petr and \"{O}zel, Feryal and \"Ozel, A. and \v{C}ech, E. and \'{E}tienne Ghys
              and \L uczak, Tomasz and \L{}ukasz, A. and \O ksendal, Bernt},
     TITLE = {On a theorem of \L o\'s and the \AA ngstr\"om constant},
   JOURNAL = {J. Number Theory},
      YEAR = {2016},
}
@article {MR1,
    AUTHOR = {\L uczak, Tomasz and \"{O}zel, Feryal},
     TITLE = {T},
   JOURNAL = {J},
      YEAR = {2016},
}
""",
    )
    assert site.records["MR3456789"]["authors"] == [
        "P. Erdős",
        "Petr Koči",
        "Feryal Özel",
        "A. Özel",
        "E. Čech",
        "Étienne Ghys",
        "Tomasz Łuczak",
        "A. Łukasz",
        "Bernt Øksendal",
    ]
    assert site.records["MR1"]["authors"] == ["Tomasz Łuczak", "Feryal Özel"]
    assert site.page("MR3456789").find("h1").get_text() == "On a theorem of Łoś and the Ångström constant"
    assert "Tomasz Łuczak" in site.page("MR3456789").get_text()
    assert "Feryal Özel and A. Özel and E. Čech" in site.text("publications.bib")
    assert site.warnings == []


def test_ads_ensuremath_in_titles_is_mathematics(tmp_path):
    """ADS writes a title's Greek letters and relations as `{\\ensuremath{\\Lambda}}CDM`, `z{\\ensuremath{\\sim}}6`: the
    page showed `\\ensuremath{\\Lambda}CDM` as source, with a warning for each (so `--strict` failed on a plain export)."""
    site = built(
        tmp_path,
        r"""@ARTICLE{2021MNRAS.500.1234V,
       author = {{van der Berg}, J.},
        title = "{Testing {\ensuremath{\Lambda}}CDM at z{\ensuremath{\sim}}6 with {\ensuremath{\gtrsim}}10$^{10}$ M$_{\odot}$ {\ensuremath{\alpha}}-enhanced stars}",
      journal = {\mnras},
         year = 2021,
}
""",
        {"content/records/y.yaml": "id: y\ntitle: 'A \\ensuremath{\\eta} Carinae model'\nyear: 2020\n"},
    )
    heading = site.page("2021MNRAS.500.1234V").find("h1")
    assert heading.find("code") is None and len(heading.find_all("math")) == 4
    assert [(tag.name, tag.get_text()) for tag in heading.find_all(["sup", "sub"])] == [("sup", "10"), ("sub", "⊙")]  # no base: text's
    assert site.records["2021MNRAS.500.1234V"]["title"] == "Testing ΛCDM at z~6 with ≳10¹⁰ M_⊙ α-enhanced stars"
    assert site.records["y"]["title"] == "A η Carinae model"
    assert "TI  - Testing ΛCDM at z~6" in site.text("publications.ris")
    assert site.warnings == []


def test_ads_et_al_ends_a_list_that_names_only_the_first_authors(tmp_path):
    """ADS ends a list it cut short with `and et al.`: it was an author called "et al." (APA "& al., et.", RIS
    `AU  - al., et`), and the short list won a merge against arXiv's whole one."""
    site = built(
        tmp_path,
        r"""@ARTICLE{2017Natur.551...85A,
       author = {{Abbott}, B.~P. and {\"O}zel, F. and et al.},
        title = "{A gravitational-wave standard siren measurement of the Hubble constant}",
      journal = {\nat},
         year = 2017,
       eprint = {1710.05835},
archivePrefix = {arXiv},
}
""",
        {
            "content/records/arxiv/1710.05835.yaml": "id: '1710.05835'\ntitle: A gravitational-wave standard siren measurement of the Hubble constant\n"
            "authors: [B. P. Abbott, R. Abbott, F. Özel, T. D. Abbott]\nyear: 2017\nsource: arXiv\narxiv: '1710.05835'\norigin: arxiv\n"
        },
    )
    (record,) = site.records.values()
    assert record["authors"] == ["B. P. Abbott", "R. Abbott", "F. Özel", "T. D. Abbott"]
    alone = built(tmp_path / "alone", r"@ARTICLE{k, author = {{Abbott}, B.~P. and {\"O}zel, F. and et al.}, title = {T}, journal = {\nat}, year = 2017}")
    assert (alone.records["k"]["authors"], alone.records["k"]["more_authors"]) == (["B. P. Abbott", "F. Özel"], True)
    assert "AU  - al., et" not in alone.text("publications.ris") and "author = {B. P. Abbott and F. Özel and others}" in alone.text("publications.bib")


def test_ads_keywords_that_name_arxiv_categories_are_those_categories(tmp_path):
    """ADS writes a paper's arXiv categories among its keywords by name ('Astrophysics - High Energy Astrophysical
    Phenomena' beside `primaryClass = {astro-ph.HE}`): each was a second subject of the same meaning, two subject
    pages were both called "General Relativity and Quantum Cosmology"."""
    site = built(
        tmp_path,
        r"""@ARTICLE{2016PhRvL.116f1102A,
       author = {{Abbott}, B.~P.},
        title = "{Observation of Gravitational Waves from a Binary Black Hole Merger}",
      journal = {\prl},
     keywords = {gravitational waves, General Relativity and Quantum Cosmology, Astrophysics - High Energy Astrophysical Phenomena, Statistics - Machine Learning, Mathematics - Number Theory, Computer Science - Systems and Control},
         year = 2016,
       eprint = {1602.03837},
archivePrefix = {arXiv},
 primaryClass = {gr-qc},
}
""",
    )
    record = site.records["2016PhRvL.116f1102A"]
    assert record["categories"] == ["gr-qc", "gravitational waves", "astro-ph.HE", "stat.ML", "math.NT", "cs.SY"]
    subject_pages = [path for path in site.result.files if path.startswith("subjects/") and path.endswith("/index.html")]
    assert not any("General-Relativity" in path or "Astrophysics---" in path for path in subject_pages), subject_pages


def test_ads_arxiv_eprints_have_arxiv_as_venue_and_no_pages(tmp_path):
    """ADS writes an arXiv paper's id as its pages (`pages = {arXiv:2301.12345}`, `{astro-ph/0601001}`) and, before
    2007, the archive's name as the journal: the page showed Pages "astro–ph/0601001" (a dash made of the id's
    hyphen) and the venue "ArXiv Astrophysics e-prints"."""
    site = built(
        tmp_path,
        r"""@ARTICLE{2023arXiv230112345O,
       author = {{\"O}zel, Feryal},
        title = "{Neutron star radii}",
      journal = {arXiv e-prints},
         year = 2023,
          eid = {arXiv:2301.12345},
        pages = {arXiv:2301.12345},
archivePrefix = {arXiv},
       eprint = {2301.12345},
 primaryClass = {astro-ph.HE},
}
@ARTICLE{2006astro.ph..1001O,
       author = {{\"O}zel, Feryal},
        title = "{Old astro-ph}",
      journal = {ArXiv Astrophysics e-prints},
         year = 2006,
       eprint = {astro-ph/0601001},
        pages = {astro-ph/0601001},
}
@ARTICLE{2005gr.qc.....1001O,
       author = {{\"O}zel, Feryal},
        title = "{Old gr-qc}",
      journal = {ArXiv General Relativity and Quantum Cosmology e-prints},
         year = 2005,
       eprint = {gr-qc/0501001},
        pages = {gr-qc/0501001},
}
""",
    )
    for record_id in ("2023arXiv230112345O", "2006astro.ph..1001O", "2005gr.qc.....1001O"):
        record = site.records[record_id]
        assert (record["source"], record["type"], "pages" in record["details"]) == ("arXiv", "preprint", False), record
        assert "Pages" not in [dt.get_text() for dt in site.page(record_id).select("dl.details dt")]
    assert "SP  - arXiv" not in site.text("publications.ris") and "SP  - astro" not in site.text("publications.ris")


def test_mathscinets_soft_sign_ogonek_and_crossed_d_are_letters(tmp_path):
    """MathSciNet writes a transliterated Russian name or journal with `\\cprime` (its `@preamble` defines it, and a
    pasted entry has none), `\\polhk{e}` for ę and `\\Dbar` for Đ: each was shown as source ("Drinfel\\cprime d")
    on the page, in the meta tags and the exports. MathSciNet prints Drinfelʹd; the BibTeX export writes the soft
    sign as that preamble does, `$'$`, which pdfLaTeX sets (it has no ʹ)."""
    site = built(
        tmp_path,
        r"""@article {MR1111111,
    AUTHOR = {Drinfel\cprime d, V. G. and Prz\polhk{e}dzimirski, Jan and \Dbar okovi\'c, Dragomir and Ob\cdprime em, A.},
     TITLE = {Quasi-{H}opf algebras},
   JOURNAL = {Funktsional. Anal. i Prilozhen.},
  FJOURNAL = {Funktsional\cprime nyi Analiz i ego Prilozheniya},
      YEAR = {1986},
  MRNUMBER = {1111111},
}
""",
    )
    assert site.warnings == []
    assert site.records["MR1111111"]["authors"] == ["V. G. Drinfelʹd", "Jan Przędzimirski", "Dragomir Đoković", "A. Obʺem"]
    assert site.records["MR1111111"]["source"] == "Funktsionalʹnyi Analiz i ego Prilozheniya"
    page = site.page("MR1111111")
    assert "V. G. Drinfelʹd, Jan Przędzimirski, Dragomir Đoković, A. Obʺem" in page.get_text()
    assert [tag["content"] for tag in page.find_all("meta", attrs={"name": "citation_author"})][0] == "Drinfelʹd, V. G."
    bib = site.text("publications.bib")
    assert "author = {V. G. Drinfel$'$d and Jan Przędzimirski and Dragomir Đoković and A. Ob$''$em}" in bib
    assert "journal = {Funktsional$'$nyi Analiz i ego Prilozheniya}" in bib


def test_mathscinets_msc_classes_are_the_records_subjects(tmp_path):
    """MathSciNet classifies every paper, `MRCLASS = {11G18 (11F70 14G35)}` (the primary class, then the secondary
    ones in parentheses): the field was passed over, so a MathSciNet record had no subject while an arXiv record's or
    a zbMATH entry's MSC classes (its `keywords = {11G18,11F70,14G35}`) were subjects, and the subject pages of a
    number theorist's site left out her MathSciNet articles."""
    site = built(
        tmp_path,
        r"""@article {MR4567890,
    AUTHOR = {Caraiani, Ana and Scholze, Peter},
     TITLE = {On the generic part of the cohomology of local and global {S}himura varieties},
   JOURNAL = {Ann. of Math. (2)},
      YEAR = {2024},
   MRCLASS = {11G18 (11F70 14G35)},
  MRNUMBER = {4567890},
}
@article {MR2972460,
    AUTHOR = {Caraiani, Ana},
     TITLE = {Local-global compatibility},
   JOURNAL = {Duke Math. J.},
      YEAR = {2012},
   MRCLASS = {11F80 11G18},
}
""",
    )
    assert site.warnings == []
    assert site.records["MR4567890"]["categories"] == ["11G18", "11F70", "14G35"]
    assert site.records["MR2972460"]["categories"] == ["11F80", "11G18"]
    subject_page = site.page_at("subjects/11G18/index.html")
    assert subject_page.find(id="r-MR4567890") is not None and subject_page.find(id="r-MR2972460") is not None
    assert "keywords = {11G18, 11F70, 14G35}" in site.text("publications.bib")


def test_mathscinets_print_and_electronic_issns_are_two(tmp_path):
    """MathSciNet writes a journal's two ISSNs in one field, `ISSN = {0003-486X,1939-8980}`: the page showed
    "0003-486X,1939-8980" and gave Google Scholar one `citation_issn` holding both, which is neither."""
    site = built(
        tmp_path,
        r"""@article {MR4567890,
    AUTHOR = {Caraiani, Ana},
     TITLE = {Shimura varieties},
   JOURNAL = {Ann. of Math. (2)},
      YEAR = {2024},
      ISSN = {0003-486X,1939-8980},
}
""",
    )
    page = site.page("MR4567890")
    assert [tag["content"] for tag in page.find_all("meta", attrs={"name": "citation_issn"})] == ["0003-486X", "1939-8980"]
    details = {dt.get_text(strip=True): dd.get_text(strip=True) for dt, dd in zip(page.select("dl.details dt"), page.select("dl.details dd"))}
    assert details["ISSN"] == "0003-486X, 1939-8980"


def test_zbmaths_full_series_name_is_the_series(tmp_path):
    """zbMATH's export of a book gives its series as `FSeries` (the name) and `Series` (the abbreviation), as it gives
    `FJournal` and `Journal`: `FSeries` was warned about as an unknown field ("did you mean 'series'?"), so that
    `sitegen check --strict` failed on every zbMATH book, and the page named the series by its abbreviation."""
    site = built(
        tmp_path,
        r"""@Book{zbMATH00916043,
 Author = {Beauville, Arnaud},
 Title = {Complex algebraic surfaces.},
 FSeries = {London Mathematical Society Student Texts},
 Series = {Lond. Math. Soc. Stud. Texts},
 Volume = {34},
 Year = {1996},
 Publisher = {Cambridge: Cambridge Univ. Press},
 zbMATH = {916043},
}
@Book{zbMATH1,
 Author = {Serre, Jean-Pierre},
 Title = {A course in arithmetic},
 FSeries = {Graduate Texts in Mathematics},
 Year = {1973},
 Publisher = {Springer},
}
""",
    )
    assert site.warnings == []
    assert site.records["zbMATH00916043"]["details"]["series"] == "London Mathematical Society Student Texts"
    assert site.records["zbMATH1"]["details"]["series"] == "Graduate Texts in Mathematics"
    assert "series = {London Mathematical Society Student Texts}" in site.text("publications.bib")


def test_mathscinets_full_journal_name_is_the_venue_and_its_abbreviation_the_short_name(tmp_path):
    """MathSciNet gives both: `JOURNAL = {J. Number Theory}, FJOURNAL = {Journal of Number Theory}`; the full name was
    dropped. As for ADS's `\\apj`: the journal's name is the venue, the abbreviation its short name."""
    site = built(
        tmp_path,
        r"""@article {MR3456789,
    AUTHOR = {Ko\v{c}i, Petr},
     TITLE = {On the distribution of {$\ell$}-adic {G}alois representations},
   JOURNAL = {J. Number Theory},
  FJOURNAL = {Journal of Number Theory},
      YEAR = {2016},
}
@Article{zbMATH07123456,
 Author = {Petr Ko{\v{c}}i},
 Title = {Spectral gaps},
 FJournal = {Combinatorica},
 Journal = {Combinatorica},
 Year = {2019},
}
""",
    )
    assert (site.records["MR3456789"]["source"], site.records["MR3456789"]["venue_short"]) == ("Journal of Number Theory", "J. Number Theory")
    assert (site.records["zbMATH07123456"]["source"], site.records["zbMATH07123456"]["venue_short"]) == ("Combinatorica", None)
    assert "journal = {Journal of Number Theory},\n  shortjournal = {J. Number Theory}" in site.text("publications.bib")
    assert site.warnings == []


def test_a_collaboration_already_among_the_authors_is_not_named_again(tmp_path):
    """ADS names the collaboration as the first author, INSPIRE in `collaboration`: merged, the page said "Event Horizon
    Telescope Collaboration, Kazunori Akiyama, ... (Event Horizon Telescope Collaboration)"."""
    site = built(
        tmp_path,
        r"""@ARTICLE{2019ApJ...875L...1E,
       author = {{Event Horizon Telescope Collaboration} and {Akiyama}, Kazunori},
        title = "{First M87 Event Horizon Telescope Results. I. The Shadow of the Supermassive Black Hole}",
      journal = {\apjl},
         year = 2019,
          doi = {10.3847/2041-8213/ab0ec7},
}
@article{EventHorizonTelescope:2019dse,
    author = "Akiyama, Kazunori and others",
    collaboration = "Event Horizon Telescope",
    title = "{First M87 Event Horizon Telescope Results. I. The Shadow of the Supermassive Black Hole}",
    doi = "10.3847/2041-8213/ab0ec7",
    journal = "Astrophys. J. Lett.",
    year = "2019"
}
@article{ATLAS:2012yve,
    author = "Aad, Georges and others",
    collaboration = "ATLAS",
    title = "{Observation of a new particle}",
    journal = "Phys. Lett. B",
    year = "2012"
}
""",
    )
    (merged,) = [record_id for record_id, record in site.records.items() if record["title"].startswith("First M87")]
    authors = site.page(merged).select_one("p.authors").get_text()
    assert authors == "Event Horizon Telescope Collaboration, Kazunori Akiyama", authors
    assert site.page("ATLAS:2012yve").select_one("p.authors").get_text() == "Georges Aad, et al. (ATLAS Collaboration)"


def test_a_misspelt_aas_journal_macro_is_answered_with_the_one_meant(tmp_path):
    site = built(tmp_path, r"@ARTICLE{k, author = {{Doe}, J.}, title = {T}, journal = {\apjlett}, year = 2015}")
    (warning,) = site.warnings
    assert warning.startswith(f"{PATH}:1: warning: record 'k', field 'source': LaTeX shown as source, cannot convert \\apjlett")
    assert "did you mean \\apjl (The Astrophysical Journal Letters)?" in warning and "write the journal's name" in warning


def test_a_chemrxiv_preprint_written_with_mhchem_is_one_work_with_its_article(tmp_path):
    """Zotero's ChemRxiv entry titled with `\\ce{CO2}` and ACS's article titled `CO$_2$` were two works, listed twice."""
    site = built(
        tmp_path,
        r"""@misc{okafor_mof_2023,
  title = {Water-Stable \ce{Zn2(bdc)2(dabco)} Frameworks for \ce{CO2}/\ce{N2} Separation},
  doi = {10.26434/chemrxiv-2023-q1w2e}, publisher = {ChemRxiv},
  author = {Okafor, Maria and Tanaka, Hiro}, year = {2023},
}
@article{okafor_mof_2024,
  title = {Water-Stable Zn$_2$(bdc)$_2$(dabco) Frameworks for CO$_2$/N$_2$ Separation},
  journal = {ACS Appl. Mater. Interfaces}, doi = {10.1021/acsami.4c01234},
  author = {Okafor, Maria and Tanaka, Hiro}, year = {2024},
}
""",
    )
    assert list(site.records) == ["okafor_mof_2024"]
    assert site.records["okafor_mof_2024"]["title"] == "Water-Stable Zn₂(bdc)₂(dabco) Frameworks for CO₂/N₂ Separation"
    assert site.records["okafor_mof_2024"]["aliases"] == ["okafor_mof_2023"]
    assert not [warning for warning in site.warnings if "LaTeX shown as source" in warning]


def test_a_patent_is_named_by_its_number_and_keeps_its_holder(tmp_path):
    """A patent's `number` was listed as its "Issue", and biblatex's `holder` (the assignee) was dropped without a word."""
    site = built(
        tmp_path,
        r"""@patent{okafor2019patent,
  author = {Okafor, Maria and Schmidt, J{\"u}rgen},
  title = {Process for Producing Methanol from CO$_2$ and H$_2$},
  number = {US 10,123,456 B2},
  holder = {{BASF SE}},
  year = {2019},
}
""",
    )
    details = {
        dt.get_text(): dd.get_text()
        for dt, dd in zip(site.page("okafor2019patent").select("dl.details dt"), site.page("okafor2019patent").select("dl.details dd"))
    }
    assert details == {"Holder": "BASF SE"}  # the number is in the venue line, as a report's is
    venue = " ".join(site.page("okafor2019patent").select_one("p.venue").get_text().split())
    assert venue.startswith("Patent US 10,123,456 B2 · 2019")
    assert "holder = {{BASF SE}}" in site.text("publications.bib")
    assert "PB  - BASF SE" in site.text("publications.ris")  # the holder is Zotero's assignee of a patent
    assert site.warnings == []


@pytest.mark.parametrize(
    "note",
    ["US Patent 11,481,234", "US Patent App. 18/123,456", "CN Patent 115,237,580", "EP Patent 3,456,789"],
)
def test_a_google_scholar_patent_shows_its_number_and_not_google_patents_as_its_venue(tmp_path, note):
    """Google Scholar writes a patent `@misc{publisher={Google Patents}, note={US Patent 11,481,234}}`: the list said
    "Patent · Google Patents · 2022" (a search engine, not a publisher) and the number was only a "Note"."""
    site = built(
        tmp_path,
        "@misc{lin2022adaptive,\n  title={Adaptive gradient compression method for distributed training},\n"
        "  author={Lin, Sheng and Cui, Bin and Fu, Fangcheng},\n  year={2022},\n  publisher={Google Patents},\n"
        f"  note={{{note}}}\n}}\n",
    )
    page = site.page("lin2022adaptive")
    assert " ".join(page.select_one("p.venue").get_text().split()).startswith(f"{note} · 2022")  # as a CV lists a patent
    assert not page.select("dl.details dt")  # the number is said once, in the venue line
    # Google Patents' own tag for it, which Zotero and reference managers read; it is no journal's `citation_issue`
    assert page.select_one('meta[name="citation_patent_number"]')["content"] == note and not page.select('meta[name="citation_issue"]')
    listed = site.page_at("index.html").select_one("li#r-lin2022adaptive p.venue")
    assert " ".join(listed.get_text().split()).startswith(f"{note} · 2022")
    assert "Google Patents" not in page.get_text()
    # Zotero reads a patent's number from SN (patentNumber); IS is no field of a patent there
    assert "Google Patents" not in site.text("publications.ris") and f"SN  - {note}" in site.text("publications.ris")
    assert f"number = {{{note}}}" in site.text("publications.bib") and "Google Patents" not in site.text("publications.bib")
    assert site.warnings == []


@pytest.mark.parametrize(
    "fields, number",
    [
        ("journal={US Patent},\n  volume={10,999,123},", "US Patent 10,999,123"),
        ("journal={US Patent 9,044,543},\n  publisher={Google Patents},", "US Patent 9,044,543"),
        ("journal={US Patent App. 17/845,221},", "US Patent App. 17/845,221"),
    ],
)
def test_google_scholars_older_patent_form_is_a_patent_not_a_journal_article(tmp_path, fields, number):
    """Google Scholar wrote patents as `@article{journal={US Patent 9,044,543}}` too (or the number as the `volume`
    of a journal "US Patent"): such a patent was a "Journal article · US Patent, 10,999,123" and an `@article`."""
    site = built(tmp_path, f"@article{{raman2021secure,\n  title={{Secure key rotation}},\n  author={{Raman, Priya}},\n  {fields}\n  year={{2021}}\n}}\n")
    assert site.records["raman2021secure"]["type"] == "patent"
    venue = " ".join(site.page("raman2021secure").select_one("p.venue").get_text().split())
    assert venue.startswith(f"{number} · 2021")
    entry = bibtexparser.parse_string(site.text("publications.bib")).entries[0]
    assert (entry.entry_type, entry["number"]) == ("patent", number)
    assert "journal" not in entry and "volume" not in entry
    assert "TY  - PAT" in site.text("publications.ris") and f"SN  - {number}" in site.text("publications.ris")
    assert site.warnings == []


@pytest.mark.parametrize(
    "date_fields",
    ['month=nov # "~15",', "month = {15~November},", "month = nov,\n  day = 15,"],
)
def test_a_day_written_with_the_month_or_as_the_datatrackers_day_is_the_records_date(tmp_path, date_fields):
    """Google Scholar dates a patent `month=nov # "~15"`: publications.bib wrote it back as `month = {November 15}`,
    which biblatex rejects (a month is a number), and the day was lost; the IETF datatracker's `day = 15` was an
    "unknown field"."""
    site = built(
        tmp_path,
        f"@misc{{raman2022method,\n  title={{Method for measuring latency}},\n  author={{Raman, Priya}},\n  year={{2022}},\n"
        f"  {date_fields}\n  publisher={{Google Patents}},\n  note={{US Patent 11,503,892}}\n}}\n",
    )
    assert site.records["raman2022method"]["date"] == "2022-11-15"
    entry = bibtexparser.parse_string(site.text("publications.bib")).entries[0]
    assert entry["month"] == "nov" and entry["date"] == "2022-11-15"  # `month = nov`: the macro, a number to biblatex
    assert "DA  - 2022/11/15" in site.text("publications.ris")
    assert site.warnings == []


def test_a_venue_google_scholar_cut_short_is_a_warning_at_its_line(tmp_path):
    """Google Scholar writes `booktitle={Proceedings of the ... International Conference on ...}`: the list showed the
    dots without a word to the owner."""
    site = built(
        tmp_path,
        "@inproceedings{lin2023x,\n  title={Something},\n  author={Lin, Sheng},\n"
        "  booktitle={Proceedings of the ... International Conference on Very Large Data Bases},\n  year={2023}\n}\n",
    )
    assert site.warnings == [
        f"{PATH}:4: warning: entry 'lin2023x': field 'booktitle': 'Proceedings of the ... International Conference on Very "
        "Large Data Bases' has words left out ('...'): write the venue's whole name"
    ]


def test_a_picture_or_supporting_information_under_another_tools_name_is_answered_with_the_field_meant(tmp_path):
    """`image = {...}` (a YAML record's word) and `supplementary = {...}` were "unknown field ... (no page shows it)"."""
    site = built(
        tmp_path,
        "@article{k, title = {T}, author = {Okafor, Maria}, journal = {J. Am. Chem. Soc.}, year = 2023,\n"
        "  image = {static/toc.png},\n  supplementary = {https://pubs.acs.org/doi/suppl/10.1021/x/si_001.pdf},\n}\n",
    )
    assert "content/records/papers.bib:2: warning: entry 'k': unknown field 'image'; did you mean 'preview'?" in site.warnings
    assert "content/records/papers.bib:3: warning: entry 'k': unknown field 'supplementary'; did you mean 'supp'?" in site.warnings
