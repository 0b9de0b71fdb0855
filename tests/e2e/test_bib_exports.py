"""What sitegen writes for the .bib files reference managers export (tests/fixtures/reference-managers/):
the pages, publications.bib (and each record page's BibTeX), publications.ris, records.json, the feed and
the citations, and what a site built from a site's publications.bib makes of it again."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import bibtexparser
import pytest
import rispy
from bs4 import BeautifulSoup
from conftest import file_bytes, run_sitegen, write_site

from sitegen.build import check_site
from sitegen.cite import formatted_citation

BIBS = Path(__file__).parent.parent / "fixtures" / "reference-managers"
SITE = {
    "content/site.yaml": "title: Jane Müller\nbase_url: https://jane.example.org/site/\n",
    "content/profile.yaml": 'name: "Jane Müller"\nname_variants: ["J. Müller"]\n',
}


def site_with(root: Path, *bibs: str, **files: str) -> Path:
    """A site whose records are the fixture .bib files `bibs` (and `files`: more of its files by path)."""
    site = write_site(root, {**SITE, **files})
    (site / "content" / "records").mkdir(parents=True, exist_ok=True)
    for name in bibs:
        shutil.copy(BIBS / name, site / "content" / "records" / name)
    return site


def built(site: Path) -> tuple[dict[str, bytes], list[str]]:
    """The files a build writes (rendered in memory) and its warnings and notes, as printed."""
    result = check_site(site)
    return file_bytes(result.files), [str(problem) for problem in result.warnings]


def page(files: dict[str, bytes], slug: str) -> BeautifulSoup:
    return BeautifulSoup(files[f"records/{slug}/index.html"], "html.parser")


def bib_entries(text: str | bytes) -> dict:
    library = bibtexparser.parse_string(text.decode() if isinstance(text, bytes) else text)
    assert library.failed_blocks == []
    return {entry.key: entry for entry in library.entries}


def cite_block(files: dict[str, bytes], slug: str):
    """The BibTeX entry of a record page's Cite section."""
    [entry] = bib_entries(page(files, slug).find("pre", class_="bibtex").get_text()).values()
    return entry


def records_json(files: dict[str, bytes]) -> dict[str, dict]:
    return {record["id"]: record for record in json.loads(files["records.json"])["records"]}


def csl_item(files: dict[str, bytes], slug: str) -> dict:
    return json.loads(html.unescape(page(files, slug).find("details", class_="cite-styles")["data-csl-item"]))


def text_of(element) -> str:
    return " ".join(element.get_text().split())


# -- (1) `and others`: the authors named are the first, everywhere ------------------------------------------


def test_an_author_list_ending_in_and_others_is_cited_as_incomplete_everywhere(tmp_path):
    files, _ = built(site_with(tmp_path, "inspire.bib"))
    slug = "ATLAS-2012yve"
    # the page says so; its Google Scholar tags name the authors known, and no author called "others"
    soup = page(files, slug)
    assert text_of(soup.find("p", class_="authors")) == "Georges Aad, et al. (ATLAS Collaboration)"
    assert [tag["content"] for tag in soup.find_all("meta", attrs={"name": "citation_author"})] == ["Aad, Georges"]
    assert soup.find("meta", attrs={"name": "description"})["content"].startswith("Georges Aad, …")
    # records.json
    assert records_json(files)["ATLAS:2012yve"]["more_authors"] is True
    assert records_json(files)["Muller:2020abc"]["more_authors"] is False
    # APA and IEEE (the CSL item as the page carries it to citeproc-js, and citeproc-py's reading of it)
    item = csl_item(files, slug)
    assert item["author"] == [{"family": "Aad", "given": "Georges"}, {"literal": "others"}]
    from sitegen.prepare import prepare_site, read_inputs

    site = tmp_path
    listing, digests = read_inputs(site)
    [entry] = [e for e in prepare_site(site, listing, digests).site.entries if e.id == "ATLAS:2012yve"]
    citations = formatted_citation(entry)
    assert citations["apa"].plain.startswith("Aad, G., et al. (2012). Observation of a new particle")
    assert citations["ieee"].plain.startswith("G. Aad et al., “Observation of a new particle")
    assert citations["ieee"].html.startswith("G. Aad <i>et al.</i>, ")
    # RIS: EndNote's "et al.," as the last author
    [ris] = [r for r in rispy.loads(files["publications.ris"].decode()) if r["title"].startswith("Observation")]
    assert ris["authors"] == ["Aad, Georges", "et al.,"]
    # BibTeX, as before, with the collaboration INSPIRE gave (in the Cite block too) and its report number
    atlas = bib_entries(files["publications.bib"])["ATLAS:2012yve"]
    assert (atlas["author"], atlas["collaboration"], atlas["reportNumber"]) == ("Georges Aad and others", "ATLAS", "CERN-PH-EP-2012-218")
    assert cite_block(files, slug)["collaboration"] == "ATLAS" and "reportNumber" not in cite_block(files, slug)


# -- (3) the exports keep what the record has -----------------------------------------------------------------


def test_publications_bib_keeps_what_a_zotero_entry_has_and_the_page_cites_it_short(tmp_path):
    files, _ = built(site_with(tmp_path, "zotero.bib"))
    entries = bib_entries(files["publications.bib"])
    paper = entries["mullerSparseAttentionDNA2021"]
    assert paper["url"] == "https://www.nature.com/articles/s41592-021-01128-0"  # the paper's own, not the site's page
    assert paper["biburl"] == "https://jane.example.org/site/records/mullerSparseAttentionDNA2021/"
    assert paper["date"] == "2021-05-03" and (paper["year"], paper["month"]) == ("2021", "may")
    assert paper["shortjournal"] == "Nat. Methods"
    assert paper["abstract"].startswith("We present a sparse attention mechanism for \\emph{genomic} sequences.")
    assert paper["keywords"] == "q-bio.GN, attention, genomics, Machine Learning"
    assert paper["primaryClass"] == "q-bio.GN"
    assert entries["mullerTechReport2020"]["url"] == "https://www.ebi.ac.uk/reports/tr_2020_07%20final.pdf"  # as written, no `\%`
    # the record page's Cite block: short, as Google Scholar's, its url the paper's own
    cite = cite_block(files, "mullerSparseAttentionDNA2021")
    assert cite["url"] == "https://www.nature.com/articles/s41592-021-01128-0"
    assert not {"abstract", "keywords", "date", "biburl", "shortjournal"} & set(cite.fields_dict)
    # a record with no address but its DOI: the DOI's, in both (the record's page stays in `biburl`)
    assert entries["mullerChapter2018"]["url"] == "https://doi.org/10.1007/978-3-319-00000-0_5"
    assert entries["mullerChapter2018"]["biburl"] == "https://jane.example.org/site/records/mullerChapter2018/"
    assert cite_block(files, "mullerChapter2018")["url"] == "https://doi.org/10.1007/978-3-319-00000-0_5"


def test_links_keep_their_names_in_publications_bib(tmp_path):
    bib = """@inproceedings{links2020,
  title = {Linked},
  author = {M{\\"u}ller, Jane},
  booktitle = {Proc. Things},
  year = {2020},
  url = {https://example.org/landing},
  pdf = {https://example.org/paper.pdf},
  code = {https://github.com/jane/linked},
  slides = {static/slides.pdf},
}
"""
    files, _ = built(write_site(tmp_path, {**SITE, "content/records/links.bib": bib, "static/slides.pdf": "%PDF"}))
    entry = bib_entries(files["publications.bib"])["links2020"]
    assert entry["url"] == "https://example.org/landing"
    assert (entry["pdf"], entry["code"]) == ("https://example.org/paper.pdf", "https://github.com/jane/linked")
    assert entry["slides"] == "https://jane.example.org/site/static/slides.pdf"  # a path in the site, as an address


def test_software_datasets_and_patents_keep_their_types(tmp_path):
    files, _ = built(site_with(tmp_path, "types.bib", "zotero.bib"))
    entries = bib_entries(files["publications.bib"])
    assert entries["sw1"].entry_type == "software" and entries["sw1"]["url"] == "https://github.com/jane/seqtool"
    assert entries["ds1"].entry_type == "dataset" and entries["ds1"]["publisher"] == "Zenodo"
    assert entries["pat1"].entry_type == "patent" and entries["pat1"]["date"] == "2019-06-18"
    assert entries["mullerSoftware2022"].entry_type == "software"  # Zotero's @misc of a program
    # APA for software names where it is
    from sitegen.prepare import prepare_site, read_inputs

    listing, digests = read_inputs(tmp_path)
    software = {e.id: e for e in prepare_site(tmp_path, listing, digests).site.entries}["mullerSoftware2022"]
    assert "https://github.com/jane/seqkit_fast" in formatted_citation(software)["apa"].plain
    assert csl_item(files, "mullerSoftware2022")["URL"] == "https://github.com/jane/seqkit_fast"


# -- (4) primaryClass ------------------------------------------------------------------------------------------


def test_primary_class_is_written_only_for_an_arxiv_class(tmp_path):
    files, _ = built(site_with(tmp_path, "zotplain.bib", "inspire.bib"))
    entries = bib_entries(files["publications.bib"])
    # Zotero's keyword 'Computer Science - Machine Learning' is a keyword, not arXiv's class
    assert "primaryClass" not in entries["muller_online_2023"] and entries["muller_online_2023"]["eprint"] == "2311.09999"
    assert entries["muller_online_2023"]["keywords"] == "Computer Science - Machine Learning"
    assert entries["old_hep"]["primaryClass"] == "hep-th"
    assert entries["2021ApJ...900..123M"]["primaryClass"] == "astro-ph.GA"


# -- (9) an edited book -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language, mark", [("en", "(Eds.)"), ("de", "(Hrsg.)")])
def test_an_edited_book_names_its_editors_with_the_owner_highlighted(tmp_path, language, mark):
    site = site_with(tmp_path, "types.bib")
    (site / "content" / "site.yaml").write_text(f"title: Jane Müller\nbase_url: https://jane.example.org/site/\nlanguage: {language}\n")
    files, _ = built(site)
    soup = page(files, "ed1")
    byline = soup.find("p", class_="editors")
    assert text_of(byline) == f"Jane Müller, Wei Chen {mark}"
    assert byline.find("strong", class_="owner").get_text() == "Jane Müller"
    listed = BeautifulSoup(files["index.html"], "html.parser").find("li", id="r-ed1")
    assert text_of(listed.find("p", class_="editors")) == f"Jane Müller, Wei Chen {mark}"
    assert listed.find("strong", class_="owner").get_text() == "Jane Müller"


def test_a_chapter_page_names_the_editors_of_its_book(tmp_path):
    files, _ = built(site_with(tmp_path, "zotero.bib"))
    details = {text_of(div.find("dt")): text_of(div.find("dd")) for div in page(files, "mullerChapter2018").select("dl.details > div")}
    assert details == {"Editors": "John Doe", "Pages": "101–130", "Publisher": "Springer", "Place": "Cham", "ISBN": "978-3-319-00000-0"}


# -- (14) dates, pages, details, theses, preprints ---------------------------------------------------------------


def test_the_feed_dates_a_record_by_its_month(tmp_path):
    files, _ = built(site_with(tmp_path, "inspire.bib"))
    entries = {
        m[1]: m[2]
        for m in re.finditer(
            r"<id>https://jane.example.org/site/records/([^<]+)/</id>\s*<title>.*?</title>\s*<updated>([^<]+)</updated>", files["feed.xml"].decode(), re.S
        )
    }
    assert entries["Muller-2020abc"] == "2020-03-01T00:00:00Z"  # month = mar
    assert entries["2019MNRAS.480.1000M"] == "2019-05-01T00:00:00Z"
    assert entries["ATLAS-2012yve"] == "2012-01-01T00:00:00Z"  # no month known


def test_a_record_page_lists_volume_issue_and_pages(tmp_path):
    files, _ = built(site_with(tmp_path, "inspire.bib", "zotero.bib"))

    def details(slug: str) -> dict[str, str]:
        return {text_of(div.find("dt")): text_of(div.find("dd")) for div in page(files, slug).select("dl.details > div")}

    assert details("2019MNRAS.480.1000M") == {"Volume": "480", "Pages": "1000–1010"}  # `pages = {1000-1010}`
    assert details("mullerSparseAttentionDNA2021") == {
        "Volume": "18",
        "Issue": "5",
        "Pages": "512–520",
        "Publisher": "Nature Publishing Group",
        "ISSN": "1548-7105",
    }
    assert details("mullerTechReport2020") == {"Place": "Hinxton, UK"}  # its number is in the venue line
    assert text_of(page(files, "mullerTechReport2020").select_one(".venue .type")) == "Report No. TR-2020-07"
    assert records_json(files)["2019MNRAS.480.1000M"]["details"]["pages"] == "1000–1010"


def test_a_thesis_says_which_degree(tmp_path):
    thesis = '@thesis{which, title = {Which Degree}, author = {M{\\"u}ller, Jane}, year = {2012}, institution = {TU Wien}}\n'
    files, _ = built(site_with(tmp_path, "scholar.bib", "types.bib", **{"content/records/thesis.bib": thesis}))
    assert text_of(page(files, "muller2019scalable").select_one(".venue .type")) == "PhD thesis"
    assert text_of(page(files, "ms1").select_one(".venue .type")) == "Master's thesis"
    assert text_of(page(files, "which").select_one(".venue .type")) == "Thesis"  # biblatex's @thesis: no degree to guess
    site = tmp_path / "de"
    site_with(site, "types.bib", **{"content/site.yaml": "title: J\nbase_url: https://jane.example.org/site/\nlanguage: de\n"})
    german, _ = built(site)
    assert text_of(page(german, "ms1").select_one(".venue .type")) == "Masterarbeit"


def test_dblp_and_scholar_preprints_are_exported_as_preprints(tmp_path):
    files, _ = built(site_with(tmp_path, "dblp.bib", "scholar.bib"))
    entries = bib_entries(files["publications.bib"])
    corr = entries["DBLP:journals/corr/abs-2301-01234"]
    assert corr.entry_type == "misc" and (corr["eprint"], corr["archivePrefix"]) == ("2301.01234", "arXiv")
    assert not {"journal", "volume"} & set(corr.fields_dict)  # not journal = {arXiv}, volume = {abs/2301.01234}
    assert entries["DBLP:conf/sosp/MullerL23"]["biburl"] == "https://dblp.org/rec/conf/sosp/MullerL23.bib"  # dblp's, as dblp writes it
    scholar = entries["muller2015note"]
    assert scholar.entry_type == "misc" and scholar["eprint"] == "1501.00001" and "journal" not in scholar
    assert cite_block(files, "muller2015note").entry_type == "misc"


# -- reading a site's publications.bib back --------------------------------------------------------------------


# What a site built from another's publications.bib does not get back, by file and record: the fields of records.json
# that differ. None now: Mendeley's `url` holds two addresses, the second arXiv's abstract page of the entry's own
# arXiv id (`http://arxiv.org/abs/1805.01234`), which is no link of its own but the address of that id, as in
# publications.bib.
LOST_ON_THE_WAY: dict[str, dict[str, set[str]]] = {}


@pytest.mark.parametrize("bib", sorted(path.name for path in BIBS.glob("*.bib")))
def test_a_site_built_from_publications_bib_has_the_same_records(tmp_path, bib):
    first, _ = built(site_with(tmp_path / "first", bib))
    again, warnings = built(write_site(tmp_path / "again", {**SITE, "content/records/publications.bib": first["publications.bib"].decode()}))
    assert warnings == []  # no field the reader does not know, no link to nothing
    before, after = records_json(first), records_json(again)
    assert before.keys() == after.keys()
    for record_id, record in before.items():
        differ = {name for name in record.keys() | after[record_id].keys() if record.get(name) != after[record_id].get(name)}
        assert differ == LOST_ON_THE_WAY.get(bib, {}).get(record_id, set()), (
            record_id,
            {name: (record.get(name), after[record_id].get(name)) for name in differ},
        )


# -- (6) one paper in two .bib files ----------------------------------------------------------------------------------


def test_one_paper_in_two_bib_files_keeps_the_richer_entry_and_the_other_key(tmp_path):
    site = site_with(tmp_path, "zotero.bib", "scholar-duplicate.bib")
    files, warnings = built(site)
    records = records_json(files)
    assert "muller2021sparse" not in records
    paper = records["mullerSparseAttentionDNA2021"]  # Zotero's entry gives more than Scholar's: its key leads
    assert paper["title_latex"] == "Sparse Attention for DNA Sequence Models in $O(n \\log n)$ Time"
    assert paper["details"]["number"] == "5" and paper["details"]["issn"] == "1548-7105"
    assert len(paper["authors"]) == 5 and paper["more_authors"] is False
    assert paper["aliases"] == ["muller2021sparse"]
    assert bib_entries(files["publications.bib"])["mullerSparseAttentionDNA2021"]["ids"] == "muller2021sparse"  # biblatex's key alias
    assert warnings == [
        "content/records/scholar-duplicate.bib:1: note: record 'muller2021sparse' merged with mullerSparseAttentionDNA2021"
        " (content/records/zotero.bib:2): same title, years at most 2 apart and an author in common; its id is kept as an alias"
    ]


def test_the_merge_note_is_printed_and_strict_still_builds(tmp_path):
    site = site_with(tmp_path, "zotero.bib", "scholar-duplicate.bib")
    result = run_sitegen("build", "--strict", cwd=site)
    assert result.returncode == 0, result.stderr
    assert "content/records/scholar-duplicate.bib:1: note: record 'muller2021sparse' merged with mullerSparseAttentionDNA2021" in result.stderr


# -- (7) biblatex's `ids`: a paper's other citation keys ---------------------------------------------------------------


def test_an_entrys_ids_stay_its_citation_keys_in_every_export_and_name_it_for_other_files(tmp_path):
    """`ids = {old}` was dropped: publications.bib lost the alias (a \\cite{old} found nothing with biber), another
    record could be given the key `old`, and a file naming the paper by its old key named nothing."""
    site = write_site(
        tmp_path,
        {
            **SITE,
            "content/records/papers.bib": (
                '@article{muller2024new, title = {Sparse Sorting}, author = {M{\\"u}ller, Jane}, journal = {J. Algorithms},'
                " year = 2024, ids = {berg2020sorting, muller2023sparse}}\n"
            ),
            # its generated key would be berg2020sorting, which cites the paper above
            "content/records/berg.yaml": "id: berg-sorting\ntitle: Sorting Things\nauthors: [Ann Berg]\nyear: 2020\nsource: J. Sorting\n",
            # an old file that names the paper by its old key (another title: no title match) is the same work
            "content/records/old.bib": '@misc{muller2023sparse, title = {Sparse sorting, a preprint}, author = {M{\\"u}ller, Jane}, year = 2023}\n',
            # a person's file excludes the paper by one of its keys
            "content/people/jane.yaml": "name: Jane Müller\nexclude_ids: [muller2023sparse]\n",
        },
    )
    files, warnings = built(site)
    records = records_json(files)
    assert sorted(records) == ["berg-sorting", "muller2024new"]
    assert records["muller2024new"]["aliases"] == ["berg2020sorting", "muller2023sparse"]
    assert records["berg-sorting"]["cite_key"] != "berg2020sorting"
    entries = bib_entries(files["publications.bib"])
    assert entries["muller2024new"]["ids"] == "berg2020sorting, muller2023sparse"
    assert "berg2020sorting" not in entries
    assert warnings == [
        "content/records/old.bib:1: note: record 'muller2023sparse' merged with muller2024new (content/records/papers.bib:1):"
        " record 'muller2024new' lists 'muller2023sparse' among its aliases; its id is kept as an alias"
    ]
    assert "muller2024new" not in bib_entries(files["people/jane/publications.bib"])
    again, _ = built(write_site(tmp_path / "again", {**SITE, "content/records/publications.bib": files["publications.bib"].decode()}))
    assert records_json(again)["muller2024new"]["aliases"] == ["berg2020sorting", "muller2023sparse"]


# -- (8) RIS's L1: the PDF a reference manager attaches ------------------------------------------------------------------


def test_ris_gives_the_pdf_as_l1_an_absolute_address_as_ur_is(tmp_path):
    """EndNote and Zotero read `L1` as the file to attach; publications.ris had none, though the record links its PDF."""
    site = write_site(
        tmp_path,
        {
            **SITE,
            "content/records/papers.bib": (
                '@article{a, title = {With a PDF in the site}, author = {M{\\"u}ller, Jane}, journal = {J}, year = 2024,'
                " pdf = {static/a.pdf}, url = {https://example.org/a}}\n"
                '@article{b, title = {With a PDF elsewhere}, author = {M{\\"u}ller, Jane}, journal = {J}, year = 2023,'
                " doi = {10.1000/b}, pdf = {https://example.org/b.pdf}}\n"
                '@article{c, title = {Without a PDF}, author = {M{\\"u}ller, Jane}, journal = {J}, year = 2022, doi = {10.1000/c}}\n'
            ),
            "static/a.pdf": "%PDF-1.4\n",
        },
    )
    files, warnings = built(site)
    assert warnings == []
    ris = {r["title"]: r for r in rispy.loads(files["publications.ris"].decode())}
    assert ris["With a PDF in the site"]["file_attachments1"] == "https://jane.example.org/site/static/a.pdf"
    assert ris["With a PDF in the site"]["urls"] == ["https://example.org/a"]
    assert ris["With a PDF elsewhere"]["file_attachments1"] == "https://example.org/b.pdf"
    assert "file_attachments1" not in ris["Without a PDF"]


# -- (9) a published paper with a preprint: its DOI is its address ---------------------------------------------------


def test_a_published_paper_with_a_preprint_is_cited_by_its_doi_and_a_preprint_by_arxiv(tmp_path):
    """A record with an arXiv id and a published DOI gave arXiv's page as its url (BibTeX), UR (RIS) and link:
    a reader expects the version of record. A preprint (arXiv's own DOI) keeps arXiv's page; a landing page the
    file gives stays first."""
    bib = (
        '@article{pub, title = {Published}, author = {M{\\"u}ller, Jane}, journal = {J. Algorithms}, year = 2024,'
        " doi = {10.1000/pub}, eprint = {2401.00001}, archivePrefix = {arXiv}}\n"
        '@misc{pre, title = {Preprint}, author = {M{\\"u}ller, Jane}, year = 2024,'
        " doi = {10.48550/arXiv.2402.00002}, eprint = {2402.00002}, archivePrefix = {arXiv}}\n"
        '@article{landing, title = {Landing}, author = {M{\\"u}ller, Jane}, journal = {J. Algorithms}, year = 2023,'
        " doi = {10.1000/landing}, eprint = {2301.00003}, archivePrefix = {arXiv}, url = {https://publisher.example/landing}}\n"
    )
    files, warnings = built(write_site(tmp_path, {**SITE, "content/records/papers.bib": bib}))
    assert warnings == []
    expected = {
        "pub": ("Published", "https://doi.org/10.1000/pub"),
        "pre": ("Preprint", "https://arxiv.org/abs/2402.00002"),
        "landing": ("Landing", "https://publisher.example/landing"),
    }
    entries = bib_entries(files["publications.bib"])
    ris = {r["title"]: r for r in rispy.loads(files["publications.ris"].decode())}
    for key, (title, url) in expected.items():
        assert (entries[key]["url"], cite_block(files, key)["url"], ris[title]["urls"]) == (url, url, [url])
    assert entries["pub"]["eprint"] == "2401.00001"  # the preprint is still named


# -- (10) a keyword with a comma in it ----------------------------------------------------------------------------------


def test_a_keyword_with_a_comma_is_written_in_braces_and_read_back_whole(tmp_path):
    bib = '@article{k, title = {Dust}, author = {M{\\"u}ller, Jane}, journal = {ApJ}, year = 2024, keywords = {{ISM: dust, extinction}, galaxies}}\n'
    first, _ = built(write_site(tmp_path / "first", {**SITE, "content/records/papers.bib": bib}))
    assert records_json(first)["k"]["categories"] == ["ISM: dust, extinction", "galaxies"]
    assert bib_entries(first["publications.bib"])["k"]["keywords"] == "{ISM: dust, extinction}, galaxies"
    again, _ = built(write_site(tmp_path / "again", {**SITE, "content/records/publications.bib": first["publications.bib"].decode()}))
    assert records_json(again)["k"]["categories"] == ["ISM: dust, extinction", "galaxies"]


# -- an empty name in a record's authors ---------------------------------------------------------------------


def test_an_empty_author_name_is_left_out_with_a_warning_not_written_as_and_and(tmp_path):
    record = "id: blank\ntitle: Blank names\nyear: 2024\nauthors: [Jane Müller, '', '  ', Ken Ito]\n"
    files, warnings = built(write_site(tmp_path, {**SITE, "content/records/blank.yaml": record}))
    assert "content/records/blank.yaml:4: warning: field 'authors': item 2 is empty; left out (remove it)" in warnings
    assert "content/records/blank.yaml:4: warning: field 'authors': item 3 is empty; left out (remove it)" in warnings
    # BibTeX: two names joined by one `and`, no empty name (`Jane Müller and and`)
    [entry] = bib_entries(files["publications.bib"]).values()
    assert entry["author"] == "Jane Müller and Ken Ito"
    assert text_of(page(files, "blank").find("p", class_="authors")) == "Jane Müller, Ken Ito"
    assert records_json(files)["blank"]["authors"] == ["Jane Müller", "Ken Ito"]
