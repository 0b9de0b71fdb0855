"""Corrections, retraction notices and retracted works (sitegen.notices): a notice is no publication of the
owner's; the work it concerns links to it, and a retracted work is marked wherever it is listed."""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, rendered_files, validated_record, write_site

from sitegen.notices import attach_notices, concerned_title, notice_kind
from sitegen.sources import crossref, openalex

PAPER = """\
- id: okafor2024
  title: Single-cell chromatin accessibility maps enhancer–gene regulation in human fetal heart development
  authors: [Chen Li, Ada Lovelace]
  year: 2024
  source: Nature Genetics
  type: article
  doi: 10.1038/s41588-024-01234-5
  citations: 40
- id: okafor2024correction
  title: 'Author Correction: Single-cell chromatin accessibility maps enhancer–gene regulation in human fetal heart development'
  authors: [Chen Li, Ada Lovelace]
  year: 2024
  source: Nature Genetics
  type: article
  doi: 10.1038/s41588-024-01789-0
  citations: 3
- id: lovelace2021
  title: 'Long noncoding RNA LINC-CARD promotes cardiomyocyte proliferation'
  authors: [Samuel Adeyemi, Ada Lovelace]
  year: 2021
  source: Circulation Research
  type: article
  doi: 10.1161/CIRCRESAHA.121.318999
  citations: 30
- id: notice2023
  title: 'Retraction Notice to: Long noncoding RNA LINC-CARD promotes cardiomyocyte proliferation'
  year: 2023
  source: Circulation Research
  type: article
  doi: 10.1161/RES.0000000000000599
  citations: 2
"""


@pytest.mark.parametrize(
    "title, kind, concerned",
    [
        ("Author Correction: Enhancer maps of the heart", "correction", "Enhancer maps of the heart"),
        ("Publisher Correction: Enhancer maps of the heart", "correction", "Enhancer maps of the heart"),
        ("Erratum to: Enhancer maps of the heart", "correction", "Enhancer maps of the heart"),
        ("Correction to: Enhancer maps of the heart.", "correction", "Enhancer maps of the heart"),
        ("Corrigendum to “Enhancer maps of the heart” [J. Mol. Cell. Cardiol. 131 (2019) 54–65]", "correction", "Enhancer maps of the heart"),
        ("ERRATUM: Enhancer maps of the heart", "correction", "Enhancer maps of the heart"),
        ("Errata: Enhancer maps of the heart", "correction", "Enhancer maps of the heart"),
        ("Retraction Note: Enhancer maps of the heart", "retraction", "Enhancer maps of the heart"),
        ("Notice of Retraction: Enhancer maps of the heart", "retraction", "Enhancer maps of the heart"),
        ("Expression of Concern: Enhancer maps of the heart", "concern", "Enhancer maps of the heart"),
        ("Correction for Lindqvist et al., Hydrodynamic synchronization of cilia carpets", "correction", "Hydrodynamic synchronization of cilia carpets"),
        ("Retraction for Brenner et al., Chirality switching in sperm cells", "retraction", "Chirality switching in sperm cells"),
        ("Correction for Lindqvist and Park, Hydrodynamic synchronization of cilia carpets", "correction", "Hydrodynamic synchronization of cilia carpets"),
        ("Correction for multiple testing, revisited", "", None),  # PNAS names the authors
        ("Correction of batch effects in single-cell RNA-seq", "", None),  # a paper about corrections
        ("Retraction and fraud in biomedical publishing", "", None),
        ("Erratum-aware sequencing pipelines", "", None),
    ],
)
def test_a_notice_is_known_by_its_title_and_names_the_work_it_concerns(title, kind, concerned):
    record = validated_record(f"id: x\ntitle: '{title}'\nyear: 2024\n", "content/records/x.yaml")
    assert notice_kind(record) == kind
    if concerned:
        assert concerned_title(record.title) == concerned


def test_notice_none_keeps_a_record_titled_like_a_notice_a_publication():
    record = validated_record("id: x\ntitle: 'Correction: a memoir'\nyear: 2024\nnotice: none\n", "content/records/x.yaml")
    assert notice_kind(record) == ""


def test_a_notice_named_by_notice_for_attaches_whatever_its_title():
    paper = validated_record("id: p\ntitle: Enhancer maps\nyear: 2023\ndoi: 10.1000/paper\n", "content/records/p.yaml")
    erratum = validated_record("id: e\ntitle: Erratum\nyear: 2024\ndoi: 10.1000/e\nnotice: erratum\nnotice_for: 10.1000/PAPER\n", "content/records/e.yaml")
    records, notes = attach_notices([paper, erratum])
    assert records[1].hidden and records[0].links == {"correction": "https://doi.org/10.1000/e"}
    assert [n.message for n in notes] == ["record 'e' is a correction of 'p': shown as its link, not as a publication of its own"]


def test_a_notice_of_a_work_not_on_the_site_is_left_out_with_a_note():
    erratum = validated_record("id: e\ntitle: 'Erratum: A paper of another year'\nyear: 2024\n", "content/records/e.yaml")
    [record], [note] = attach_notices([erratum])
    assert record.hidden and note.note and "not on the site" in note.message and note.location.path == "content/records/e.yaml"


def test_notices_are_no_publications_and_a_retracted_work_is_marked(tmp_path):
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/papers.yaml": PAPER})
    files = rendered_files(site)
    profile = BeautifulSoup(files["index.html"], "html.parser")
    titles = [h.get_text(" ", strip=True) for h in profile.select("#publications li.record h4")]
    assert titles == [
        "Single-cell chromatin accessibility maps enhancer–gene regulation in human fetal heart development",
        "Long noncoding RNA LINC-CARD promotes cardiomyocyte proliferation",
    ]
    assert "2 publications" in profile.get_text(" ", strip=True)
    assert "70 citations" in profile.get_text(" ", strip=True)  # neither notice's citations count
    retracted_item = profile.select("#publications li.record")[1]
    assert retracted_item.select_one(".badge.retracted").get_text(strip=True) == "Retracted"
    assert profile.select("#publications li.record")[0].select_one(".badge.retracted") is None
    correction = profile.select_one("#publications li.record .link-correction a")
    assert correction["href"] == "https://doi.org/10.1038/s41588-024-01789-0" and correction.get_text(" ", strip=True).startswith("Correction")
    notice = retracted_item.select_one(".link-retraction a")
    assert notice["href"] == "https://doi.org/10.1161/RES.0000000000000599"
    page = BeautifulSoup(files["records/lovelace2021/index.html"], "html.parser")
    assert page.select_one(".record-header .badge.retracted").get_text(strip=True) == "Retracted"
    records = {r["id"]: r for r in json.loads(files["records.json"])["records"]}
    assert set(records) == {"okafor2024", "lovelace2021"}
    assert records["lovelace2021"]["retracted"] is True and records["okafor2024"]["retracted"] is False
    assert "records/okafor2024correction/index.html" not in files
    assert b"Author Correction" not in files["publications.bib"]


def test_a_title_that_says_retracted_marks_the_work():
    site_record = "id: r\ntitle: 'RETRACTED: miR-208a regulates cardiac fibrosis'\nyear: 2018\nsource: Cardiovasc Res\ntype: article\n"
    from sitegen.notices import retracted

    assert retracted(validated_record(site_record, "content/records/r.yaml"))
    assert not retracted(validated_record("id: r\ntitle: Retracted memories in mice\nyear: 2018\n", "content/records/r.yaml"))


def test_a_wrong_notice_or_retracted_value_is_reported(tmp_path):
    from sitegen.errors import Problem
    from sitegen.validate import validate_record

    problems: list[Problem] = []
    assert validate_record({"id": "x", "title": "T", "year": 2020, "retracted": "yes"}, "content/records/x.yaml", problems) is None
    assert "field 'retracted': expected true or false" in problems[0].message
    problems = []
    assert validate_record({"id": "x", "title": "T", "year": 2020, "notice": "errata"}, "content/records/x.yaml", problems) is not None
    assert problems[0].warning and "expected correction, retraction, concern or none" in problems[0].message


def test_crossref_notices_and_retractions_are_read_from_its_updates():
    notice = crossref.record_from_work(
        {
            "DOI": "10.1038/s41588-024-01789-0",
            "title": ["Author Correction: Enhancer maps"],
            "type": "journal-article",
            "issued": {"date-parts": [[2024, 6, 1]]},
            "update-to": [{"DOI": "10.1038/s41588-024-01234-5", "type": "correction", "label": "Correction"}],
        }
    )
    assert (notice["notice"], notice["notice_for"]) == ("correction", "10.1038/s41588-024-01234-5")
    work = crossref.record_from_work(
        {
            "DOI": "10.1161/circresaha.121.318999",
            "title": ["LINC-CARD"],
            "type": "journal-article",
            "issued": {"date-parts": [[2021, 5, 1]]},
            "updated-by": [{"DOI": "10.1161/res.0000000000000599", "type": "retraction", "label": "Retraction"}],
        }
    )
    assert work["retracted"] is True and "notice" not in work


def test_openalex_errata_retraction_notices_and_retracted_works():
    base = {"id": "https://openalex.org/W1", "title": "Enhancer maps", "publication_year": 2024, "authorships": []}
    assert openalex.record_from_work({**base, "type": "erratum"})["notice"] == "correction"
    assert openalex.record_from_work({**base, "type": "retraction"})["notice"] == "retraction"
    assert openalex.record_from_work({**base, "type": "article", "is_retracted": True})["retracted"] is True
    assert "retracted" not in openalex.record_from_work({**base, "type": "article", "is_retracted": False})


CORRIGENDUM_FETCHED = """\
# Fetched from Crossref by sitegen; edit a copy outside records/crossref/ to override fields.
id: 10.1088/1478-3975/ac9999
title: Stochastic switching of flagellar motors under load
authors: [Mara Lindqvist, Anna Kowalski]
year: 2022
source: Physical Biology
type: article
doi: 10.1088/1478-3975/ac9999
notice: correction
notice_for: 10.1088/1478-3975/ac1234
origin: crossref
"""
PAPER_WITHOUT_DOI = """\
@article{lindqvist_stochastic_2021,
  title = {Stochastic switching of flagellar motors under load},
  volume = {18},
  journal = {Physical Biology},
  author = {Lindqvist, Mara and Kowalski, Anna},
  year = {2021},
  pages = {045001},
}
"""


def test_a_correction_titled_as_its_paper_does_not_swallow_the_paper(tmp_path):
    """IOP and Wiley title a corrigendum as the paper; a Zotero entry of the paper often has no DOI. The two were
    merged by title, the merged record was a notice, and the paper left the site."""
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/records/zotero.bib": PAPER_WITHOUT_DOI,
            "content/records/crossref/10.1088-1478-3975-ac9999.yaml": CORRIGENDUM_FETCHED,
        },
    )
    files = rendered_files(site)
    profile = BeautifulSoup(files["index.html"], "html.parser")
    items = profile.select("#publications li.record")
    assert [h.get_text(" ", strip=True) for h in profile.select("#publications li.record h4")] == ["Stochastic switching of flagellar motors under load"]
    assert items[0].select_one(".link-correction a")["href"] == "https://doi.org/10.1088/1478-3975/ac9999"
    records = json.loads(files["records.json"])["records"]
    assert [r["id"] for r in records] == ["lindqvist_stochastic_2021"] and records[0]["doi"] is None
    assert b"lindqvist_stochastic_2021" in files["publications.bib"]


def test_notice_for_finds_the_work_by_its_aliases_and_arxiv_id():
    paper = validated_record("id: p\ntitle: Enhancer maps\nyear: 2023\narxiv: '2301.01234'\naliases: [lindqvist2023enhancer]\n", "content/records/p.yaml")
    by_alias = validated_record(
        "id: e\ntitle: Corrigendum\nyear: 2024\ndoi: 10.1000/e\nnotice: correction\nnotice_for: lindqvist2023enhancer\n", "content/records/e.yaml"
    )
    by_arxiv = validated_record(
        "id: c\ntitle: Editorial note\nyear: 2024\ndoi: 10.1000/c\nnotice: concern\nnotice_for: arXiv:2301.01234\n", "content/records/c.yaml"
    )
    records, notes = attach_notices([paper, by_alias, by_arxiv])
    assert records[0].links == {"correction": "https://doi.org/10.1000/e", "concern": "https://doi.org/10.1000/c"}
    assert all("of 'p'" in n.message for n in notes)


def test_notice_for_that_names_nothing_is_a_warning_quoting_it():
    erratum = validated_record(
        "id: e\ntitle: Corrigendum\nyear: 2024\ndoi: 10.1000/e\nnotice: correction\nnotice_for: lindqvist2023enhancr\n", "content/records/e.yaml"
    )
    [record], [problem] = attach_notices([erratum])
    assert record.hidden and problem.warning and not problem.note
    assert "notice_for: 'lindqvist2023enhancr' names no record on the site" in problem.message


WITHDRAWN_PREPRINT = """\
id: '2210.09876'
title: Anomalous diffusion of membrane proteins in crowded vesicles
authors: [Ada Lovelace, Omar Haddad]
year: 2022
source: arXiv
abstract: This paper has been withdrawn by the authors due to a crucial error in the calibration of the tracking data.
links: {abs: 'https://arxiv.org/abs/2210.09876', pdf: 'https://arxiv.org/pdf/2210.09876'}
arxiv: '2210.09876'
version: 2
comment: This paper has been withdrawn by the authors
withdrawn: true
"""


def test_a_withdrawn_preprint_is_marked_wherever_it_is_listed(tmp_path):
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/arxiv/2210.09876.yaml": WITHDRAWN_PREPRINT})
    files = rendered_files(site)
    profile = BeautifulSoup(files["index.html"], "html.parser")
    item = profile.select_one("#publications li.record")
    assert item.select_one(".badge.withdrawn").get_text(strip=True) == "Withdrawn"
    assert item.select_one(".badge.retracted") is None
    page = BeautifulSoup(files["records/2210.09876/index.html"], "html.parser")
    assert page.select_one(".record-header .badge.withdrawn").get_text(strip=True) == "Withdrawn"
    [record] = json.loads(files["records.json"])["records"]
    assert record["withdrawn"] is True and record["retracted"] is False


def test_a_published_paper_keeps_no_mark_or_version_of_its_withdrawn_arxiv_preprint(tmp_path):
    """A journal may ask that the preprint be withdrawn: the published paper stands; and an arXiv revision number
    is no version of the published article (`version = {2}` was in its BibTeX entry)."""
    published = """\
id: lovelace2023anomalous
title: Anomalous diffusion of membrane proteins in crowded vesicles
authors: [Ada Lovelace, Omar Haddad]
year: 2023
source: Biophysical Journal
type: article
volume: "122"
doi: 10.1016/j.bpj.2023.01.001
arxiv: '2210.09876'
"""
    site = write_site(
        tmp_path,
        {**MINIMAL_SITE, "content/records/arxiv/2210.09876.yaml": WITHDRAWN_PREPRINT, "content/records/papers/anomalous.yaml": published},
    )
    files = rendered_files(site)
    profile = BeautifulSoup(files["index.html"], "html.parser")
    assert profile.select_one("#publications li.record .badge.withdrawn") is None
    [record] = json.loads(files["records.json"])["records"]
    assert record["withdrawn"] is False
    bib = files["publications.bib"].decode()
    assert "@article{" in bib and "version = " not in bib


def test_a_work_retitled_retracted_is_one_work_with_its_preprint_and_found_by_its_notice(tmp_path):
    """Elsevier retitles a retracted article "RETRACTED: ..."; its arXiv preprint keeps the title. The preprint was
    listed apart, clean; and a retraction notice named by its title only (ORCID, Zotero) found no work."""
    preprint = """\
id: '2103.07777'
title: Chirality switching in swimming sperm cells controlled by calcium waves
authors: [Lukas Brenner, Ada Lovelace]
year: 2021
source: arXiv
links: {abs: 'https://arxiv.org/abs/2103.07777', pdf: 'https://arxiv.org/pdf/2103.07777'}
arxiv: '2103.07777'
"""
    published = """\
id: 10.1016/j.bpj.2021.08.015
title: 'RETRACTED: Chirality switching in swimming sperm cells controlled by calcium waves'
authors: [Lukas Brenner, Ada Lovelace]
year: 2021
source: Biophysical Journal
type: article
doi: 10.1016/j.bpj.2021.08.015
origin: crossref
"""
    notice = """\
@article{brenner_retraction_2023,
  title = {Retraction notice to “{Chirality} switching in swimming sperm cells controlled by calcium waves” [{Biophys}. {J}. 120 (2021) 3901--3912]},
  journal = {Biophysical Journal},
  author = {Brenner, Lukas and Lovelace, Ada},
  doi = {10.1016/j.bpj.2023.02.004},
  year = {2023},
}
"""
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/records/arxiv/2103.07777.yaml": preprint,
            "content/records/crossref/10.1016-j.bpj.2021.08.015.yaml": published,
            "content/records/zotero.bib": notice,
        },
    )
    files = rendered_files(site)
    records = json.loads(files["records.json"])["records"]
    assert len(records) == 1
    [record] = records
    assert record["retracted"] is True and record["arxiv"] == "2103.07777" and record["doi"] == "10.1016/j.bpj.2021.08.015"
    assert record["links"]["retraction"] == "https://doi.org/10.1016/j.bpj.2023.02.004"


def test_a_title_that_says_withdrawn_marks_the_work_withdrawn_not_retracted():
    from sitegen.notices import retracted, withdrawn

    record = validated_record("id: w\ntitle: 'WITHDRAWN: Calcium waves in sperm'\nyear: 2019\nsource: Cell Calcium\n", "content/records/w.yaml")
    assert withdrawn(record) and not retracted(record)


def test_a_retracted_or_withdrawn_work_says_so_where_it_is_cited_and_in_the_feed(tmp_path):
    """The lists marked a retracted work, but publications.bib, publications.ris, the record page's citations and
    the feed did not: whoever copied the citation cited a retracted paper unknowingly."""
    noted = PAPER.replace("  doi: 10.1161/CIRCRESAHA.121.318999\n", "  doi: 10.1161/CIRCRESAHA.121.318999\n  note: 'Publisher: AHA'\n")
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/papers.yaml": noted, "content/records/arxiv/2210.09876.yaml": WITHDRAWN_PREPRINT})
    files = rendered_files(site)
    bib = files["publications.bib"].decode()

    def entry(words: str) -> str:
        return next(chunk for chunk in bib.split("\n@") if words in chunk)

    assert "note = {Retracted. Publisher: AHA}" in entry("LINC-CARD")
    assert "note = {Withdrawn}" in entry("Anomalous diffusion")
    assert "note = " not in entry("Single-cell chromatin")
    ris = files["publications.ris"].decode()
    assert "N1  - Retracted. Publisher: AHA" in ris and "N1  - Withdrawn" in ris and ris.count("N1  - ") == 2
    page = BeautifulSoup(files["records/lovelace2021/index.html"], "html.parser")
    assert "note = {Retracted. Publisher: AHA}" in page.get_text()
    feed = BeautifulSoup(files["feed.xml"], "xml")
    titles = [t.get_text() for t in feed.select("entry > title")]
    assert "Retracted: Long noncoding RNA LINC-CARD promotes cardiomyocyte proliferation" in titles
    assert "Withdrawn: Anomalous diffusion of membrane proteins in crowded vesicles" in titles
    assert "Single-cell chromatin accessibility maps enhancer–gene regulation in human fetal heart development" in titles


def test_crossrefs_updated_by_links_the_notice_without_its_record():
    """A paper whose Crossref record names its erratum (`updated-by`) got no "Correction" link unless the erratum's
    own record was fetched too; the retraction notice it names was no link either."""
    work = crossref.record_from_work(
        {
            "DOI": "10.1103/PhysRevLett.128.048101",
            "title": ["Active nematic turbulence"],
            "type": "journal-article",
            "issued": {"date-parts": [[2022, 1, 25]]},
            "updated-by": [
                {"DOI": "10.1103/PhysRevLett.129.139901", "type": "erratum", "label": "Erratum"},
                {"DOI": "10.1103/PhysRevLett.130.000001", "type": "retraction", "label": "Retraction", "source": "retraction-watch"},
                {"DOI": "10.1103/PhysRevLett.128.048101x", "type": "new_version"},
            ],
        }
    )
    assert work["links"] == {
        "doi": "https://doi.org/10.1103/PhysRevLett.128.048101",
        "correction": "https://doi.org/10.1103/PhysRevLett.129.139901",
        "retraction": "https://doi.org/10.1103/PhysRevLett.130.000001",
    }
    assert work["retracted"] is True


def test_a_notice_crossref_names_and_its_own_record_are_one_link(tmp_path):
    paper = """\
id: 10.1103/physrevlett.128.048101
title: Active nematic turbulence in dense bacterial monolayers
authors: [Ada Lovelace]
year: 2022
source: Physical Review Letters
type: article
links: {doi: 'https://doi.org/10.1103/PhysRevLett.128.048101', correction: 'https://doi.org/10.1103/physrevlett.129.139901'}
doi: 10.1103/PhysRevLett.128.048101
"""
    erratum = """\
id: 10.1103/physrevlett.129.139901
title: 'Erratum: Active nematic turbulence in dense bacterial monolayers [Phys. Rev. Lett. 128, 048101 (2022)]'
authors: [Ada Lovelace]
year: 2022
source: Physical Review Letters
type: article
doi: 10.1103/PhysRevLett.129.139901
notice: correction
notice_for: 10.1103/PhysRevLett.128.048101
"""
    site = write_site(
        tmp_path,
        {**MINIMAL_SITE, "content/records/crossref/a.yaml": paper, "content/records/crossref/b.yaml": erratum},
    )
    profile = BeautifulSoup(rendered_files(site)["index.html"], "html.parser")
    # Crossref writes the DOI it names in lower case: one link all the same
    assert [a["href"] for a in profile.select("#publications li.record .link-correction a")] == ["https://doi.org/10.1103/physrevlett.129.139901"]


def test_a_comment_and_its_reply_are_linked_as_crossref_relates_them(tmp_path):
    """Physical Review's comments and replies: Crossref relates the paper, the comment on it and the authors' reply
    (`has-comment`, `has-reply`, `is-comment-on`, `is-reply-to`); the pages linked none of them."""
    paper = crossref.record_from_work(
        {
            "DOI": "10.1103/PhysRevE.104.024402",
            "title": ["Odd elasticity of chiral living crystals"],
            "type": "journal-article",
            "issued": {"date-parts": [[2021, 8, 10]]},
            "relation": {
                "has-comment": [{"id-type": "doi", "id": "10.1103/PhysRevE.106.026401", "asserted-by": "object"}],
                "has-reply": [{"id-type": "doi", "id": "10.1103/PhysRevE.106.026402", "asserted-by": "object"}],
            },
        }
    )
    assert paper["links"] == {
        "doi": "https://doi.org/10.1103/PhysRevE.104.024402",
        "comment": "https://doi.org/10.1103/PhysRevE.106.026401",
        "reply": "https://doi.org/10.1103/PhysRevE.106.026402",
    }
    reply = crossref.record_from_work(
        {
            "DOI": "10.1103/PhysRevE.106.026402",
            "title": ["Reply to “Comment on ‘Odd elasticity of chiral living crystals’”"],
            "type": "journal-article",
            "issued": {"date-parts": [[2022, 8, 15]]},
            "relation": {"is-reply-to": [{"id-type": "doi", "id": "10.1103/PhysRevE.106.026401", "asserted-by": "subject"}]},
        }
    )
    assert reply["links"]["reply_to"] == "https://doi.org/10.1103/PhysRevE.106.026401" and "notice" not in reply
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/records/crossref/paper.yaml": "id: paper\ntitle: Odd elasticity\nauthors: [Ada Lovelace]\nyear: 2021\n"
            "links: {comment: 'https://doi.org/10.1103/PhysRevE.106.026401', reply: 'https://doi.org/10.1103/PhysRevE.106.026402'}\n",
            "content/records/crossref/reply.yaml": "id: reply\ntitle: Reply to a comment on odd elasticity\nauthors: [Ada Lovelace]\nyear: 2022\n"
            "links: {reply_to: 'https://doi.org/10.1103/PhysRevE.106.026401'}\n",
        },
    )
    files = rendered_files(site)
    labels = {
        " ".join(a.get_text(" ", strip=True).split(" for ")[0].split()): a["href"]
        for a in BeautifulSoup(files["index.html"], "html.parser").select("#publications li.record ul.links a")
    }
    assert labels == {
        "Comment": "https://doi.org/10.1103/PhysRevE.106.026401",
        "Reply": "https://doi.org/10.1103/PhysRevE.106.026402",
        "Reply to": "https://doi.org/10.1103/PhysRevE.106.026401",
    }


def test_the_weekly_summary_says_what_a_notice_concerns_and_what_is_retracted_or_withdrawn():
    """The pull request listed a corrigendum titled as its paper as a new record like any other: a duplicate, to
    whoever reviewed it."""
    from sitegen.fetch import _markdown_record

    corrigendum = {
        "id": "10.1088/1478-3975/ac9999",
        "title": "Stochastic switching of flagellar motors under load",
        "year": 2022,
        "authors": ["Mara Lindqvist"],
        "links": {"doi": "https://doi.org/10.1088/1478-3975/ac9999"},
        "notice": "correction",
        "notice_for": "10.1088/1478-3975/ac1234",
    }
    assert _markdown_record(corrigendum).split("\n")[0].rstrip() == (
        "- [10.1088/1478-3975/ac9999](https://doi.org/10.1088/1478-3975/ac9999) (2022) Stochastic switching of flagellar"
        " motors under load — a correction of 10.1088/1478-3975/ac1234, shown as its link"
    )
    retracted = {"id": "10.1016/x", "title": "Chirality switching", "year": 2021, "retracted": True}
    assert _markdown_record(retracted).split("\n")[0].rstrip().endswith("Chirality switching — retracted")
    withdrawn = {"id": "2210.09876", "title": "Anomalous diffusion", "year": 2022, "withdrawn": True}
    assert _markdown_record(withdrawn).split("\n")[0].rstrip().endswith("Anomalous diffusion — withdrawn")


def test_one_erratum_in_zotero_and_from_crossref_is_one_link():
    from sitegen.merge import merge_works

    paper = validated_record("id: p\ntitle: Active nematic turbulence\nauthors: [Ada Lovelace]\nyear: 2022\ndoi: 10.1000/p\n", "content/records/p.yaml")
    zotero = validated_record(
        "id: z\ntitle: 'Erratum: Active nematic turbulence'\nauthors: [Ada Lovelace]\nyear: 2022\nlinks: {html: 'https://journals.aps.org/e'}\n",
        "content/records/z.yaml",
    )
    fetched = validated_record(
        "id: 10.1000/e\ntitle: 'Erratum: Active nematic turbulence'\nauthors: [Ada Lovelace]\nyear: 2022\ndoi: 10.1000/e\nnotice: erratum\n"
        "notice_for: 10.1000/p\n",
        "content/records/crossref/e.yaml",
    )
    records, _ = attach_notices(merge_works([paper, zotero, fetched]))
    assert [r.links for r in records if not r.hidden] == [{"correction": "https://doi.org/10.1000/e"}]


def test_a_notice_finds_its_work_by_any_of_its_dois():
    """A bioRxiv preprint whose published version Crossref names (`doi_published`) is that work: the journal's
    correction of it names the journal's DOI."""
    preprint = validated_record(
        "id: p\ntitle: Cilia carpets\nyear: 2022\nsource: bioRxiv\ndoi: 10.1101/2022.11.03.515012\nids: {doi_published: 10.1073/pnas.2209876119}\n",
        "content/records/p.yaml",
    )
    erratum = validated_record(
        "id: e\ntitle: Correction\nyear: 2023\ndoi: 10.1073/pnas.2301234120\nnotice: correction\nnotice_for: 10.1073/PNAS.2209876119\n",
        "content/records/e.yaml",
    )
    records, _ = attach_notices([preprint, erratum])
    assert records[0].links == {"correction": "https://doi.org/10.1073/pnas.2301234120"}
