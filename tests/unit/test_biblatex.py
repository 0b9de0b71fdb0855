"""biblatex's data model in a .bib file (Biber's reading): what a biblatex user's publication list says is read so,
and what sitegen leaves out is said."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from bs4 import BeautifulSoup

from unit.test_bibtex import PATH, built, one, read


def test_an_xdata_entry_is_no_work_and_gives_its_fields_to_the_entries_naming_it():
    records, problems = read(
        """@xdata{jmlr,
  journaltitle = {Journal of Machine Learning Research},
  shortjournal = {JMLR},
}
@xdata{jmlr24, xdata = {jmlr}, volume = {24}}
@article{dupont2023,
  author = {de Dupont, Anne},
  title  = {Inherited Journal},
  xdata  = {jmlr24},
  date   = {2023},
}
"""
    )
    assert problems == []
    assert [r.id for r in records] == ["dupont2023"]
    assert (records[0].source, records[0].venue_short, records[0].extra["volume"]) == ("Journal of Machine Learning Research", "JMLR", "24")


def test_an_xdata_key_that_names_no_xdata_entry_is_a_warning_at_its_line():
    records, problems = read("@article{a,\n  title = {T},\n  journaltitle = {J},\n  xdata = {nosuch},\n  date = {2021},\n}\n")
    assert [r.source for r in records] == ["J"]
    assert problems == [f"{PATH}:4: warning: entry 'a': xdata 'nosuch' names no @xdata entry of this file; its fields are left out"]


def test_a_crossref_to_biblatex_proceedings_gives_the_paper_their_date_meeting_and_title():
    paper = one(
        """@proceedings{icml2022,
  title      = {Proceedings of the 39th International Conference on Machine Learning},
  subtitle   = {Volume 1},
  eventtitle = {ICML 2022},
  venue      = {Baltimore},
  date       = {2022-07-17/2022-07-23},
  publisher  = {PMLR},
  doi        = {10.9999/icml.2022},
}
@inproceedings{paper, author = {de Dupont, Anne}, title = {Crossref Paper}, crossref = {icml2022}, pages = {1--10}}
"""
    )
    assert (paper.year, paper.date, paper.source) == (2022, date(2022, 7, 17), "Proceedings of the 39th International Conference on Machine Learning: Volume 1")
    assert (paper.extra["eventtitle"], paper.extra["publisher"]) == ("ICML 2022", "PMLR")
    assert paper.doi is None  # the proceedings' DOI names the volume, not the paper


def test_a_paper_with_a_year_of_its_own_keeps_it_over_its_proceedings_date():
    paper = one("@proceedings{p, title = {P}, date = {2021-12-06}}\n@inproceedings{a, title = {A}, crossref = {p}, year = {2022}}\n")
    assert (paper.year, paper.date) == (2022, None)


def test_a_site_built_from_a_biblatex_file_with_xdata_and_crossref_lists_every_paper(tmp_path: Path):
    site = built(
        tmp_path,
        """@xdata{jmlr, journaltitle = {Journal of Machine Learning Research}}
@proceedings{icml2022, title = {Proceedings of ICML}, date = {2022}}
@article{a, title = {Inherited Journal}, author = {Anne Dupont}, xdata = {jmlr}, date = {2021}}
@inproceedings{b, title = {Crossref Paper}, author = {Anne Dupont}, crossref = {icml2022}}
""",
    )
    assert site.warnings == []
    assert {key: (record["source"], record["year"]) for key, record in site.records.items()} == {
        "a": ("Journal of Machine Learning Research", 2021),
        "b": ("Proceedings of ICML", 2022),
    }


def test_names_in_bibers_extended_format_are_the_names_they_spell():
    paper = one(
        r"""@article{a,
  title  = {T},
  date   = {2023},
  author = {family=Dupont, given=Anne, prefix=de, useprefix=true and given={Jean Pierre}, family={García Márquez}
            and family=M{\"u}ller, given=J{\"u}rgen, given-i=J and family=Hölzl, given=Anna, suffix=Jr. and Lovelace, Ada},
  editor = {given=Lena, family=Berg},
}
"""
    )
    assert list(paper.authors) == ["Anne de Dupont", "Jean Pierre {García Márquez}", "Jürgen Müller", "Anna Hölzl Jr.", "Ada Lovelace"]
    assert paper.extra["editors"] == ["Lena Berg"]


def test_the_owner_named_in_extended_format_is_highlighted_and_exported_as_a_name(tmp_path: Path):
    site = built(
        tmp_path,
        "@article{a, title = {Sparse Attention}, journaltitle = {JMLR}, date = {2023-05},\n"
        "  author = {family=Lovelace, given=Ada, prefix=de, useprefix=true and given=Wei, family=Zhang}}\n",
        {"content/profile.yaml": "name: Ada de Lovelace\n"},
    )
    assert site.warnings == []
    byline = site.page("a").find(class_="authors")
    assert " ".join(byline.get_text().split()).replace(" ,", ",") == "Ada de Lovelace, Wei Zhang"
    assert byline.find("strong", class_="owner").get_text() == "Ada de Lovelace"
    bib = site.text("publications.bib")
    assert "family=" not in bib and "given=" not in bib
    assert site.records["a"]["authors"] == ["Ada de Lovelace", "Wei Zhang"]


ANNOTATED = r"""@article{a,
  title     = {Sparse Attention},
  journaltitle = {JMLR},
  date      = {2023},
  author    = {de Lovelace, Ada and Zhang, Wei and Rossi, Marco},
  author+an = {1=highlight,equal; 2=equal; 3=corresponding},
}
"""


def test_equal_contribution_and_corresponding_annotations_are_marks_with_their_meaning(tmp_path: Path):
    site = built(tmp_path, ANNOTATED, {"content/profile.yaml": "name: Ada de Lovelace\n"})
    assert site.warnings == []
    page = site.page("a")
    byline = page.find(class_="authors")
    assert byline.find("strong", class_="owner").get_text() == "Ada de Lovelace"
    assert [mark.get_text() for mark in byline.find_all("sup", class_="author-mark")] == ["*", "*", "†"]
    assert " ".join(page.find(class_="author-notes").get_text().split()) == "* Equal contribution · † Corresponding author"
    assert site.records["a"]["authors"] == ["Ada de Lovelace", "Wei Zhang", "Marco Rossi"]  # the marks are no part of the names
    assert "author = {Ada de Lovelace and Wei Zhang and Marco Rossi}" in site.text("publications.bib")


def test_the_meanings_of_annotation_marks_are_in_the_sites_language(tmp_path: Path):
    """The meanings "Equal contribution" and "Corresponding author" are sitegen's words for author+an's marks, not the file's: a
    Chinese or German site said them in English under the authors, on the record page and under a CV section."""
    cv = "sections:\n  - title: 论文\n    publications: all\n"
    for language, meanings in (("zh", "* 同等贡献 · † 通讯作者"), ("de", "* Gleicher Beitrag · † Korrespondierende Autorschaft")):
        site = built(
            tmp_path / language,
            ANNOTATED,
            {
                "content/site.yaml": f"title: T\nbase_url: https://example.org/\nlanguage: {language}\n",
                "content/profile.yaml": "name: Ada de Lovelace\n",
                "content/cv.yaml": cv,
            },
        )
        assert " ".join(site.page("a").find(class_="author-notes").get_text().split()) == meanings
        cv_page = BeautifulSoup(site.result.files["cv/index.html"], "html.parser")
        assert " ".join(cv_page.find(class_="author-notes").get_text().split()) == meanings


def test_annotations_sitegen_does_not_show_are_warnings_at_their_line():
    records, problems = read(
        "@article{a,\n  title = {T},\n  date = {2023},\n  author = {Lovelace, Ada and Zhang, Wei},\n"
        "  author+an = {2=student; 5=equal; =group},\n  title+an = {=translated},\n}\n"
    )
    assert list(records[0].authors) == ["Ada Lovelace", "Wei Zhang"]
    assert problems == [
        f"{PATH}:5: warning: entry 'a': field 'author+an': annotation 'student' of author 2 is not shown (sitegen shows 'equal' and 'corresponding')",
        f"{PATH}:5: warning: entry 'a': field 'author+an': '5=equal' names no author (write '2=equal' for the second)",
        f"{PATH}:5: warning: entry 'a': field 'author+an': '=group' annotates the whole list, which no page shows (write '2=equal' for the second author)",
        f"{PATH}:6: warning: entry 'a': field 'title+an': annotations of 'title' are not shown (only 'equal' and 'corresponding' of 'author' are)",
    ]


def test_the_selected_keyword_a_biblatex_cv_picks_its_list_by_features_the_record_and_is_no_subject(tmp_path: Path):
    site = built(
        tmp_path,
        "@article{a, title = {Chosen}, author = {Ada Lovelace}, journaltitle = {J}, date = {2023}, keywords = {Selected, peer-reviewed}}\n"
        "@article{b, title = {Other}, author = {Ada Lovelace}, journaltitle = {J}, date = {2022}, keywords = {peer-reviewed}}\n"
        "@article{c, title = {Not now}, author = {Ada Lovelace}, journaltitle = {J}, date = {2021}, keywords = {selected}, selected = {false}}\n",
    )
    assert site.warnings == []
    assert {key: (record["featured"], record["categories"]) for key, record in site.records.items()} == {
        "a": (True, ["peer-reviewed"]),
        "b": (False, ["peer-reviewed"]),
        "c": (False, []),  # al-folio's field, where the file has it, decides
    }
    featured = BeautifulSoup(site.text("index.html"), "html.parser").find(class_="featured-cards")
    assert featured is not None and "Chosen" in featured.get_text() and "Other" not in featured.get_text()
    assert not any(path.startswith("subjects/selected") for path in site.result.files)


def test_biblatex_quote_and_format_commands_in_titles_show_as_biblatex_prints_them(tmp_path: Path):
    site = built(
        tmp_path,
        r"""@article{a, author = {Ada Lovelace}, journaltitle = {J}, date = {2023},
  title = {Sparse Attention for \mkbibquote{Long} Sequences, an \enquote{Honest} and \enquote*{Small} \mkbibemph{Study}}}
@article{b, author = {Ada Lovelace}, journaltitle = {J}, date = {2022}, title = {\mkbibbold{Bold} \mkbibparens{and} \mkbibbrackets{M{\"u}ller}}}
""",
    )
    assert site.warnings == []
    title = site.page("a").find("h1")
    assert title.get_text() == "Sparse Attention for “Long” Sequences, an “Honest” and ‘Small’ Study"
    assert title.find("em").get_text() == "Study"
    assert site.page("b").find("h1").get_text() == "Bold (and) [Müller]"
    assert r"title = {{Sparse Attention for “Long” Sequences, an “Honest” and ‘Small’ \emph{Study}}}" in site.text("publications.bib")


def test_the_addendum_biblatex_prints_at_the_end_is_the_records_note(tmp_path: Path):
    site = built(
        tmp_path,
        "@article{a, author = {Ada Lovelace}, title = {A}, journaltitle = {J}, date = {2023}, addendum = {Extended version of a workshop paper}}\n"
        "@article{b, author = {Ada Lovelace}, title = {B}, journaltitle = {J}, date = {2022}, note = {Invited paper}, addendum = {With erratum}}\n",
    )
    assert site.warnings == []
    notes = {key: {dt.get_text(): dt.find_next_sibling("dd").get_text() for dt in site.page(key).select("dl.details dt")}["Note"] for key in ("a", "b")}
    assert notes == {"a": "Extended version of a workshop paper", "b": "Invited paper. With erratum"}
    assert "note = {Invited paper. With erratum}" in site.text("publications.bib")


def test_an_eprint_of_hal_jstor_or_a_handle_is_a_link_there_and_one_of_another_type_a_warning(tmp_path: Path):
    site = built(
        tmp_path,
        "@article{a, author = {Ada Lovelace}, title = {A}, journaltitle = {J}, date = {2023}, eprint = {hal-01234567}, eprinttype = {HAL}}\n"
        "@article{b, author = {Ada Lovelace}, title = {B}, journaltitle = {J}, date = {2022}, eprint = {10.2307/1234}, eprinttype = {jstor}}\n"
        "@article{c, author = {Ada Lovelace}, title = {C}, journaltitle = {J}, date = {2021},\n  eprint = {123}, eprinttype = {ssrn}}\n",
    )
    assert site.warnings == [
        f"{PATH}:4: warning: entry 'c': field 'eprint': eprint type 'ssrn' is not shown (arxiv, googlebooks, hal, handle, hdl, jstor, pmcid, pubmed are);"
        " give its address as 'url'"
    ]
    links = {key: {a.get_text(strip=True): a["href"] for a in site.page(key).select("ul.links a")} for key in ("a", "b")}
    assert links["a"]["HAL"] == "https://hal.science/hal-01234567"
    assert links["b"]["JSTOR"] == "https://www.jstor.org/stable/10.2307/1234"
    bib = site.text("publications.bib")
    assert "eprint = {hal-01234567},\n  eprinttype = {hal}" in bib and "eprint = {10.2307/1234},\n  eprinttype = {jstor}" in bib
    read_back, problems = read(bib, "content/records/publications.bib")  # a site built from publications.bib links there too
    assert problems == []
    assert {r.id: r.links for r in read_back if r.id in ("a", "b")} == {
        "a": {"hal": "https://hal.science/hal-01234567"},
        "b": {"jstor": "https://www.jstor.org/stable/10.2307/1234"},
    }


def test_a_field_biblatex_prints_and_no_page_shows_is_a_warning_and_a_sorting_field_is_not():
    records, problems = read(
        "@inproceedings{a,\n  title = {A},\n  booktitle = {Proceedings},\n  maintitle = {Collected Papers},\n  origdate = {1923},\n"
        "  date = {2024},\n  sortname = {Dupont, Anne},\n  shorthand = {DD24},\n  options = {useprefix=true},\n}\n"
    )
    assert [r.source for r in records] == ["Proceedings"]
    assert problems == [
        f"{PATH}:4: warning: entry 'a': field 'maintitle' is left out: biblatex prints it, no page of the site shows it",
        f"{PATH}:5: warning: entry 'a': field 'origdate' is left out: biblatex prints it, no page of the site shows it",
    ]


def test_the_meeting_a_paper_was_given_at_is_shown_with_its_place_and_written_back(tmp_path: Path):
    site = built(
        tmp_path,
        "@inproceedings{a, author = {Ada Lovelace}, title = {A}, booktitle = {Advances in Neural Information Processing Systems},\n"
        "  eventtitle = {NeurIPS 2023}, venue = {New Orleans}, location = {Red Hook, NY}, date = {2024}}\n"
        "@unpublished{b, author = {Ada Lovelace}, title = {B}, eventtitle = {Seminar}, venue = {Paris}, date = {2021}}\n",
    )
    assert site.warnings == []
    details = {key: {dt.get_text(): dt.find_next_sibling("dd").get_text() for dt in site.page(key).select("dl.details dt")} for key in ("a", "b")}
    assert (details["a"]["Event"], details["a"]["Place"]) == ("NeurIPS 2023, New Orleans", "Red Hook, NY")
    assert "Event" not in details["b"] and details["b"]["Place"] == "Paris"  # the seminar is its venue already
    assert "eventtitle = {NeurIPS 2023},\n  venue = {New Orleans}," in site.text("publications.bib")


def test_the_days_of_the_meeting_are_on_its_event_line_and_written_back(tmp_path: Path):
    """`eventdate` was warned about ("biblatex prints it, no page of the site shows it") and left out: biblatex prints
    it after the meeting's name and place, and so does the record page's Event line, for a paper given at a meeting
    and for a talk whose meeting is its venue."""
    site = built(
        tmp_path,
        "@inproceedings{a, author = {Ada Lovelace}, title = {A}, booktitle = {Proceedings of X},\n"
        "  eventtitle = {X 2023}, venue = {Lisbon}, eventdate = {2023-06-12/2023-06-15}, date = {2023}}\n"
        "@unpublished{b, author = {Ada Lovelace}, title = {B}, eventtitle = {Y Workshop}, venue = {Porto}, eventdate = {2024-05-02}, date = {2024}}\n",
    )
    assert site.warnings == []
    events = {
        key: [dd.get_text() for dt in site.page(key).select("dl.details dt") if dt.get_text() == "Event" for dd in [dt.find_next_sibling("dd")]]
        for key in ("a", "b")
    }
    assert events == {"a": ["X 2023, Lisbon, June 12–15, 2023"], "b": ["Y Workshop, May 2, 2024"]}
    assert "eventdate = {2023-06-12/2023-06-15}," in site.text("publications.bib")


def test_an_entry_biblatex_leaves_out_of_the_bibliography_is_not_listed(tmp_path: Path):
    """`options = {skipbib}` (biblatex: the entry is cited, never printed in a bibliography) was listed like any other:
    it is hidden, as a YAML record's `hidden: true`, and so is `skipbib=true` and `dataonly`; other options are not."""
    site = built(
        tmp_path,
        "@article{a, author = {Ada Lovelace}, title = {A}, journal = {J}, date = {2020}, options = {skipbib}}\n"
        "@article{b, author = {Ada Lovelace}, title = {B}, journal = {J}, date = {2020}, options = {useprefix=true, skipbib=true}}\n"
        "@article{c, author = {Ada Lovelace}, title = {C}, journal = {J}, date = {2020}, options = {dataonly}}\n"
        "@article{d, author = {Ada Lovelace}, title = {D}, journal = {J}, date = {2020}, options = {skipbib=false, useprefix}}\n",
    )
    assert site.warnings == []
    assert sorted(site.records) == ["d"]
    assert "@article{d," in site.text("publications.bib") and "{A}" not in site.text("publications.bib")


def test_a_biblatex_patents_type_names_it_in_place_of_patent(tmp_path: Path):
    """`@patent{type = {patenteu}}` (biblatex's "European patent", and its other patent keys) was dropped without a
    word: the list says "Patent EP 3,456,789". It names the patent as biblatex prints it, and is written back."""
    site = built(
        tmp_path,
        "@patent{eu, author = {Ada Lovelace}, title = {A}, number = {EP 3,456,789}, type = {patenteu}, date = {2021}}\n"
        "@patent{req, author = {Ada Lovelace}, title = {B}, number = {17/845,221}, type = {patrequs}, date = {2023}}\n"
        "@patent{own, author = {Ada Lovelace}, title = {C}, number = {123}, type = {Utility model}, date = {2019}}\n",
    )
    assert site.warnings == []
    types = {key: site.page(key).select_one(".venue .type").get_text() for key in ("eu", "req", "own")}
    assert types == {"eu": "European patent EP 3,456,789", "req": "U.S. patent request 17/845,221", "own": "Utility model 123"}
    assert "type = {European patent}," in site.text("publications.bib")


def test_a_biblatex_field_beside_the_bibtex_field_read_in_its_place_is_a_warning_when_it_says_more():
    records, problems = read(
        "@article{a,\n  title = {A},\n  journal = {J},\n  journaltitle = {J},\n  number = {3},\n  issue = {Spring},\n  date = {2018},\n}\n"
    )
    assert records[0].extra["number"] == "3"
    assert problems == [f"{PATH}:6: warning: entry 'a': field 'issue': 'Spring' is left out: 'number' is read in its place"]


HIGHLIGHTED = (
    "@article{a, author = {Dupont, Anne and Zhang, Wei}, author+an = {1=highlight}, title = {A}, journaltitle = {J}, date = {2021}}\n"
    "@article{b, author = {de Dupont, Anne and Zhang, Wei}, author+an = {1=highlight}, title = {B}, journaltitle = {J}, date = {2022}}\n"
)


def test_a_name_the_file_highlights_as_the_owners_that_the_profile_does_not_match_is_a_warning_saying_what_to_add(tmp_path: Path):
    site = built(tmp_path / "before", HIGHLIGHTED, {"content/profile.yaml": "name: Anne de Dupont\n"})
    assert site.warnings == [
        f"{PATH}:1: warning: record 'a', field 'authors': 'Anne Dupont' is highlighted as you (author+an), but is not the profile's"
        " name nor one of its name_variants, so no page highlights it: add it to name_variants in content/profile.yaml"
    ]
    assert site.page("a").find("strong", class_="owner") is None
    fixed = built(tmp_path / "after", HIGHLIGHTED, {"content/profile.yaml": "name: Anne de Dupont\nname_variants: [Anne Dupont]\n"})
    assert fixed.warnings == []
    assert fixed.page("a").find("strong", class_="owner").get_text() == "Anne Dupont"


def test_on_a_labs_site_a_members_highlighted_name_is_no_warning(tmp_path: Path):
    """A lab's profile is the lab, no author: a member's CV file, copied in with its highlights, says nothing amiss."""
    site = built(
        tmp_path,
        HIGHLIGHTED,
        {"content/profile.yaml": "name: Deep Sea Lab\n", "content/people/dupont.yaml": "name: Anne de Dupont\nname_variants: [Anne Dupont]\n"},
    )
    assert site.warnings == []
    assert site.page("a").find("a", href=lambda href: href and "people/dupont/" in href).get_text() == "Anne Dupont"
