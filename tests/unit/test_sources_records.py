"""From each service's answer (the fixture files, as the services send them) to the record fetch writes."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from sitegen import fetch
from sitegen.sources import crossref, dblp, openalex, orcid
from sitegen.sources.http import parse_xml

SOURCES = Path(__file__).resolve().parents[1] / "fixtures" / "sources"
ORCID = "0000-0002-0000-0006"


def load(relative: str) -> dict:
    return json.loads((SOURCES / relative).read_text(encoding="utf-8"))


def orcid_groups() -> list[dict]:
    return load(f"orcid/{ORCID}/works.json")["group"]


def orcid_group_of(put_code: int) -> dict:
    return next(g for g in orcid_groups() if any(s["put-code"] == put_code for s in g["work-summary"]))


def assert_valid_record(record: dict, source: str) -> None:
    """The file fetch would write for it validates like a hand-written record."""
    text = fetch.render({**record, "origin": source})
    assert fetch.check_record(text, f"content/records/{source}/x.yaml") == []


# --------------------------------------------------------------------------
# ORCID
# --------------------------------------------------------------------------


@pytest.mark.parametrize("given", [ORCID, "https://orcid.org/0000-0002-0000-0006", "0000000200000006", " orcid.org/0000-0002-0000-0006/ "])
def test_an_orcid_id_is_accepted_in_its_usual_forms(given):
    assert orcid.normalise_orcid(given) == ORCID


def test_the_orcid_check_digit_is_checked():
    assert orcid.normalise_orcid("0000-0002-1825-0097") == "0000-0002-1825-0097"  # ORCID's own example
    assert orcid.normalise_orcid("0000-0002-1694-233x") == "0000-0002-1694-233X"  # X is a check digit of 10
    with pytest.raises(ValueError, match="check digit\\) should be 6"):
        orcid.normalise_orcid("0000-0002-0000-0007")
    with pytest.raises(ValueError, match="not an ORCID iD"):
        orcid.normalise_orcid("0000-0002-0000")


def test_an_orcid_journal_article_keeps_its_venue_doi_and_put_code():
    work = load(f"orcid/{ORCID}/work/189553021.json")
    record = orcid.record_from_work(work, orcid_group_of(189553021), ["Sheng Lin"])
    assert record["id"] == "orcid-189553021"
    assert record["title"] == "LobRA: Multi-tenant Fine-tuning over Heterogeneous Data"
    assert record["authors"][:3] == ["Sheng Lin", "Fangcheng Fu", "Haoyang Li"]
    assert (record["year"], record["type"], record["source"]) == (2025, "article", "Proceedings of the VLDB Endowment")
    assert record["doi"] == "10.14778/3742728.3742752"
    assert record["ids"] == {"orcid": "189553021", "doi": "10.14778/3742728.3742752"}  # the journal's ISSN is not the work's
    assert record["links"]["doi"] == "https://doi.org/10.14778/3742728.3742752"
    assert_valid_record(record, "orcid")


def test_an_orcid_credit_name_written_family_name_first_is_shown_given_name_first():
    work = load(f"orcid/{ORCID}/work/171204553.json")  # its first contributor's credit name is 'Lin, Sheng'
    record = orcid.record_from_work(work, orcid_group_of(171204553), ["Sheng Lin"])
    assert record["authors"][:2] == ["Sheng Lin", "Fangcheng Fu"]


@pytest.mark.parametrize(
    "credit_name, shown",
    [("Lin, Sheng", "Sheng Lin"), ("Müller, L.", "L. Müller"), ("King, Jr.", "King, Jr."), ("Sheng Lin", "Sheng Lin"), ("A, B, C", "A, B, C")],
)
def test_orcid_credit_names_are_given_name_first(credit_name, shown):
    assert orcid.given_name_first(credit_name) == shown


def test_an_orcid_preprint_gets_its_arxiv_id_without_prefix_and_its_abstract():
    hetu = orcid.record_from_work(load(f"orcid/{ORCID}/work/165002117.json"), orcid_group_of(165002117), [])
    assert hetu["arxiv"] == "2504.20490" and hetu["type"] == "preprint" and hetu["source"] == "arXiv"
    malleus = orcid.record_from_work(load(f"orcid/{ORCID}/work/156117808.json"), orcid_group_of(156117808), [])
    assert malleus["abstract"].startswith("As the scale of models")
    assert malleus["date"] == datetime.date(2024, 10, 17)


def test_a_group_of_two_summaries_is_one_record_from_the_preferred_one():
    group = orcid_group_of(180447215)
    chosen = orcid.preferred(group)
    assert chosen["put-code"] == 180512933  # the higher display index: what ORCID shows
    record = orcid.record_from_work(load(f"orcid/{ORCID}/work/180512933.json"), group, [])
    assert record["put_codes"] == ["180447215", "180512933"]
    assert record["doi"] == "10.5555/jdls.2025.0142"


def test_an_orcid_thesis_without_identifiers_is_a_thesis():
    record = orcid.record_from_work(load(f"orcid/{ORCID}/work/193310478.json"), orcid_group_of(193310478), [])
    assert record["type"] == "thesis" and "doi" not in record and record["year"] == 2026
    assert_valid_record(record, "orcid")


def test_an_orcid_summary_stands_in_for_a_missing_full_work():
    group = orcid_group_of(176009881)
    record = orcid.record_from_work(orcid.preferred(group), group, ["Sheng Lin"])
    assert record["authors"] == ["Sheng Lin"]  # a summary lists no contributors: the owner wrote it
    assert record["type"] == "inproceedings" and record["title"].startswith("towards straggler-aware")


def test_an_orcid_record_says_which_author_has_an_orcid_id():
    """What ties a fetched record to the member with the iD in a people directory (SPEC §9)."""
    record = orcid.record_from_work(load(f"orcid/{ORCID}/work/171204553.json"), orcid_group_of(171204553), ["Sheng Lin"], ORCID)
    assert record["author_ids"] == {"Sheng Lin": ORCID}  # the contributor's iD, on its credit name 'Lin, Sheng' as shown
    group = orcid_group_of(176009881)
    summary = orcid.record_from_work(orcid.preferred(group), group, ["Sheng Lin"], ORCID)
    assert summary["author_ids"] == {"Sheng Lin": ORCID}  # no contributors: the owner, whose works these are
    message = load("crossref/works/10.5555%2Fjdls.2025.0142.json")["message"]
    assert crossref.record_from_work(message)["author_ids"] == {"Sheng Lin": ORCID}  # Crossref's author ORCID, as a bare iD
    assert_valid_record(record, "orcid")


def test_the_owners_names_come_from_the_orcid_person():
    assert orcid.owner_names(load(f"orcid/{ORCID}/person.json"))[0] == "Sheng Lin"


# --------------------------------------------------------------------------
# Crossref
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "given, expected",
    [
        ("10.5555/JDLS.2025.0142", "10.5555/JDLS.2025.0142"),
        ("https://doi.org/10.1234/x", "10.1234/x"),
        ("doi:10.1234/a b", None),
        ("http://dx.doi.org/10.14778/3742728.3742752", "10.14778/3742728.3742752"),
        ("2401.01234", None),
        ("", None),
    ],
)
def test_dois_in_their_usual_forms(given, expected):
    assert crossref.bare_doi(given) == expected


def test_a_wrong_doi_is_refused_with_an_example():
    with pytest.raises(ValueError, match="not a DOI \\(like 10\\."):
        crossref.normalise_doi("arXiv:2401.01234")


def test_arxivs_datacite_doi_names_the_arxiv_id():
    assert crossref.arxiv_from_doi("10.48550/arXiv.2504.20490") == "2504.20490"
    assert crossref.arxiv_from_doi("10.48550/arxiv.2504.20490v2") == "2504.20490"
    assert crossref.arxiv_from_doi("10.5555/x") is None


def test_a_crossref_article_has_its_citation_count_and_a_plain_text_abstract():
    record = crossref.record_from_work(load("crossref/works/10.5555%2Fjdls.2025.0142.json")["message"])
    assert record["id"] == record["doi"] == "10.5555/jdls.2025.0142"
    assert record["citations"] == 1 and record["type"] == "article"
    assert record["source"] == "Journal of Distributed Learning Systems"
    assert record["date"] == datetime.date(2025, 3, 15)
    assert "<jats" not in record["abstract"] and record["abstract"].startswith("Training large language models")
    assert (record["volume"], record["issue"], record["pages"]) == ("3", "2", "117-139")
    assert_valid_record(record, "crossref")


def test_a_crossref_proceedings_article_is_inproceedings_at_its_event():
    record = crossref.record_from_work(load("crossref/works/10.5555%2Fsmlsys.2024.31.json")["message"])
    assert record["type"] == "inproceedings"
    assert record["source"] == "Proceedings of the 2024 International Conference on Scalable Machine Learning Systems"
    assert "François Dupré" in record["authors"]


def test_jats_and_html_become_text():
    assert (
        fetch.text_from_markup("<jats:title>Abstract</jats:title><jats:p>One &amp; <jats:italic>two</jats:italic>.</jats:p><jats:p>Three</jats:p>")
        == "One & two.\n\nThree"
    )
    assert fetch.text_from_markup("H<sub>2</sub>O &lt;script&gt;") == "H2O <script>"  # text: the build escapes it


# --------------------------------------------------------------------------
# OpenAlex
# --------------------------------------------------------------------------


def test_an_openalex_author_id_is_accepted_as_a_url_too():
    assert openalex.normalise_author_id("https://openalex.org/a5104738206") == "A5104738206"
    with pytest.raises(ValueError, match="--openalex-name"):
        openalex.normalise_author_id("Sheng Lin")


def test_an_openalex_article_has_its_citations_venue_and_every_id():
    record = openalex.record_from_work(load("openalex/works/W4412853019.json"))
    assert record["id"] == "W4412853019" and record["citations"] == 14
    assert record["type"] == "article" and record["source"] == "Proceedings of the VLDB Endowment"
    assert record["doi"] == "10.14778/3742728.3742752"
    assert record["ids"]["openalex"] == "W4412853019" and record["ids"]["doi"] == "10.14778/3742728.3742752"
    assert (record["volume"], record["issue"], record["pages"]) == ("18", "11", "4209-4222")
    assert_valid_record(record, "openalex")


def test_an_openalex_preprint_is_an_arxiv_preprint():
    record = openalex.record_from_work(load("openalex/works/W4414120376.json"))
    assert record["arxiv"] == "2509.01193" and record["type"] == "preprint" and record["source"] == "arXiv"
    assert record["links"]["abs"] == "https://arxiv.org/abs/2509.01193"


@pytest.mark.parametrize(
    ("name", "kind", "venue"),
    [
        ("Zenodo (CERN European Organization for Nuclear Research)", "repository", "Zenodo"),
        ("HAL (Le Centre pour la Communication Scientifique Directe)", "repository", "HAL"),
        ("Figshare", "repository", "Figshare"),
        ("Journal of Hydrology (Amsterdam)", "journal", "Journal of Hydrology (Amsterdam)"),  # a journal's name is its name
    ],
)
def test_a_repositorys_venue_is_named_without_its_host(name, kind, venue):
    """OpenAlex names a repository with its host in parentheses: lists showed "Zenodo (CERN European Organization for
    Nuclear Research)" for every release, where a reader and a citation say "Zenodo"."""
    work = load("openalex/works/W4408126645.json")
    work["primary_location"] = {**work["primary_location"], "source": {"display_name": name, "type": kind}}
    assert openalex.record_from_work(work)["source"] == venue


def test_an_inverted_abstract_is_put_back_in_order():
    assert openalex.abstract_text({"world": [1], "hello": [0, 2]}) == "hello world hello"
    record = openalex.record_from_work(load("openalex/works/W4408126645.json"))
    assert record["abstract"].split()[:3] == ["Training", "large", "language"]


# --------------------------------------------------------------------------
# dblp
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dblp_records() -> dict[str, dict]:
    tree, error = parse_xml((SOURCES / "dblp" / "pid" / "13" / "7777-3.xml").read_bytes())
    assert tree is not None, error
    return {r["id"]: r for r in dblp.records_of(tree)}


def test_dblp_lists_every_publication_of_the_person(dblp_records):
    assert len(dblp_records) == 11


def test_dblp_corr_entries_are_arxiv_preprints(dblp_records):
    record = dblp_records["journals/corr/abs-2606-11867"]
    assert record["type"] == "preprint" and record["arxiv"] == "2606.11867" and record["source"] == "CoRR"
    assert "Sheng Lin" in record["authors"]  # not dblp's "Sheng Lin 0003"
    assert not any(a[-4:].isdigit() for a in record["authors"])
    assert not record["title"].endswith(".")


def test_dblp_journal_and_thesis_entries(dblp_records):
    journal = dblp_records["journals/pvldb/LinFLGWNTC25"]
    assert journal["type"] == "article" and journal["doi"] == "10.14778/3742728.3742752"
    assert journal["source"] == "Proc. VLDB Endow." and journal["pages"] == "4209-4222"
    assert journal["links"]["pdf"] == "https://www.vldb.org/pvldb/vol18/p4209-lin.pdf"
    thesis = dblp_records["phd/cn/Lin26"]
    assert thesis["type"] == "thesis" and thesis["source"] == "Peking University, China"
    for record in dblp_records.values():
        assert_valid_record(record, "dblp")


def test_a_dblp_papers_openreview_page_is_its_openreview_link():
    """dblp's `ee` of an ICLR paper is its OpenReview page: "OpenReview", not "Web page"."""
    xml = (
        b'<dblpperson name="Sheng Lin 0003" pid="13/7777-3" n="1"><r><inproceedings key="conf/iclr/LinZ25">'
        b'<author pid="13/7777-3">Sheng Lin 0003</author><title>Scaling Laws.</title><year>2025</year><booktitle>ICLR</booktitle>'
        b'<ee type="oa">https://openreview.net/forum?id=AbCdEf123</ee></inproceedings></r></dblpperson>'
    )
    tree, error = parse_xml(xml)
    assert tree is not None, error
    (record,) = dblp.records_of(tree)
    assert record["links"] == {"openreview": "https://openreview.net/forum?id=AbCdEf123", "dblp": "https://dblp.org/rec/conf/iclr/LinZ25.html"}


@pytest.mark.parametrize("given", ["13/7777-3", "https://dblp.org/pid/13/7777-3.html", "dblp.org/pid/13/7777-3.xml"])
def test_a_dblp_person_id_is_accepted_as_a_url_too(given):
    assert dblp.normalise_pid(given) == "13/7777-3"


def test_a_dblp_name_is_not_a_person_id():
    with pytest.raises(ValueError, match="--dblp-name"):
        dblp.normalise_pid("Sheng Lin")


def test_an_openalex_work_whose_authors_openalex_cut_at_100_is_marked_as_naming_the_first_only():
    """OpenAlex's lists give a work's first 100 authorships (its `is_authors_truncated`): a collaboration's
    2,900 authors come as 100, and the record says so (`et_al`) rather than count 100 authors."""
    work = load("openalex/works/W4412853019.json")
    authorship = work["authorships"][0]
    collaboration = {
        **work,
        "authorships": [{**authorship, "author": {**authorship["author"], "display_name": f"Member {n}"}} for n in range(100)],
        "is_authors_truncated": True,
    }
    record = openalex.record_from_work(collaboration)
    assert len(record["authors"]) == 100 and record["et_al"] is True
    assert_valid_record(record, "openalex")
    # as answered to the fields sitegen selects (no flag): 100 authorships is OpenAlex's cut
    del collaboration["is_authors_truncated"]
    assert openalex.record_from_work(collaboration)["et_al"] is True
    # a work with fewer is whole
    assert "et_al" not in openalex.record_from_work(load("openalex/works/W4412853019.json"))


@pytest.mark.parametrize(
    ("path", "reader"),
    [
        ("content/records/papers.yaml", "yaml"),
        ("content/records/Papers.YML", "yaml"),
        ("content/records/zotero.BIB", "bibtex"),
        ("content/records/arxiv/2401.01234v2.yaml", "yaml"),  # the dots of an arXiv id are not its suffix
        ("content/records/v1.2/notes", None),  # a folder's dot is no file's suffix
        ("content/records/notes.txt", None),
        ("content/records/papers.yaml.bak", None),
        ("content/records/README", None),
    ],
)
def test_a_record_file_is_read_by_the_reader_of_its_last_suffix(path, reader):
    from sitegen.sources import reader_for

    found = reader_for(path)
    assert (found.name if found else None) == reader


def test_a_reader_is_found_by_the_source_name_its_records_carry():
    from sitegen.sources import keeps_cite_keys, reader_named

    assert reader_named("bibtex").suffixes == (".bib",)
    assert reader_named("arxiv") is None  # a fetcher's, not a reader's
    assert keeps_cite_keys("bibtex") and not keeps_cite_keys("yaml") and not keeps_cite_keys("arxiv")
