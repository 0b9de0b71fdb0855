"""One work, one record (SPEC §6): the records of one work from every source merge into one,
different works stay apart, and a hand-written correction wins field by field, mappings key by key.
Also the type a record is shown as (SPEC §7)."""

from __future__ import annotations

import dataclasses
import datetime
import json
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import ARXIV_RECORD, MINIMAL_SITE, fetched_from_arxiv, rendered_files, validated_record, write_site
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sitegen.enrich import unique_cite_keys
from sitegen.errors import Location
from sitegen.merge import merge_works, name_keys, title_key, work_sources
from sitegen.model import Origin, Record
from sitegen.record_types import infer_type
from sitegen.sources import reader_for
from sitegen.urls import slugify
from sitegen.validate import validate_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SOURCES = FIXTURES / "sources"
ORCID_ID = "0000-0002-0000-0006"


def fetched(fetcher: str, native_id: str, **fields) -> Record:
    """A record as a fetcher writes it: `content/records/<fetcher>/<id>.yaml`."""
    path = f"content/records/{fetcher}/{slugify(native_id)}.yaml"
    return Record(id=native_id, location=Location(path, 1), origin=Origin(fetcher, path, fetched=True), source_key=path, **fields)


def written(text: str, path: str = "content/records/mine.yaml") -> Record:
    """A hand-written YAML record, validated as the build validates it."""
    return validated_record(text, path)


# -- the shared fixtures: one person's works from arXiv, ORCID, Crossref, OpenAlex, DBLP and a .bib ----


def expected() -> dict:
    return json.loads((SOURCES / "expected.json").read_text(encoding="utf-8"))


def arxiv_records() -> list[Record]:
    """The person's own arXiv records (the fixture's other records are namesakes', never fetched for them)."""
    own = {work["sources"]["arxiv"] for work in expected()["works"] if "arxiv" in work["sources"]}
    feed = json.loads((FIXTURES / "arxiv" / "records.json").read_text(encoding="utf-8"))["records"]
    return [
        fetched(
            "arxiv",
            r["arxiv_id"],
            title=r["title"],
            authors=tuple(r["authors"]),
            year=r["year"],
            date=datetime.date.fromisoformat(r["published"][:10]),
            source=r["journal_ref"] or "arXiv",
            abstract=r["summary"],
            categories=tuple(r["categories"]),
            arxiv=r["arxiv_id"],
            doi=r["doi"],
            links={"abs": f"https://arxiv.org/abs/{r['arxiv_id']}", "pdf": f"https://arxiv.org/pdf/{r['arxiv_id']}"},
        )
        for r in feed
        if r["arxiv_id"] in own
    ]


ORCID_TYPES = {"journal-article": "article", "conference-paper": "inproceedings", "preprint": "preprint", "dissertation-thesis": "thesis"}


def orcid_records() -> list[Record]:
    records = []
    for path in sorted((SOURCES / "orcid" / ORCID_ID / "work").glob("*.json")):
        work = json.loads(path.read_text(encoding="utf-8"))
        external = {e["external-id-type"]: e["external-id-value"] for e in work["external-ids"]["external-id"]}
        records.append(
            fetched(
                "orcid",
                f"orcid-{work['put-code']}",
                title=work["title"]["title"]["value"],
                authors=tuple(c["credit-name"]["value"] for c in (work.get("contributors") or {}).get("contributor", [])),
                year=int(work["publication-date"]["year"]["value"]),
                source=(work.get("journal-title") or {}).get("value", ""),
                doi=external.get("doi"),
                arxiv=external.get("arxiv", "").removeprefix("arXiv:") or None,
                type=ORCID_TYPES.get(work["type"], "other"),
                ids={"orcid": str(work["put-code"])},
            )
        )
    return records


def crossref_records() -> list[Record]:
    records = []
    for path in sorted((SOURCES / "crossref" / "works").glob("*.json")):
        work = json.loads(path.read_text(encoding="utf-8"))["message"]
        records.append(
            fetched(
                "crossref",
                work["DOI"],
                title=work["title"][0],
                authors=tuple(f"{a['given']} {a['family']}" for a in work["author"]),
                year=work["issued"]["date-parts"][0][0],
                source=work["container-title"][0],
                doi=work["DOI"],
                abstract=re.sub(r"<[^>]+>", "", work.get("abstract", "")).strip(),
                citations=work["is-referenced-by-count"],
                type={"journal-article": "article", "proceedings-article": "inproceedings"}[work["type"]],
            )
        )
    return records


def openalex_records() -> list[Record]:
    records = []
    for path in sorted((SOURCES / "openalex" / "works").glob("*.json")):
        work = json.loads(path.read_text(encoding="utf-8"))
        venue = ((work.get("primary_location") or {}).get("source") or {}).get("display_name") or ""
        records.append(
            fetched(
                "openalex",
                path.stem,
                title=work["title"],
                year=work["publication_year"],
                authors=tuple(a.get("raw_author_name") or a["author"]["display_name"] for a in work["authorships"]),  # 'Lin Sheng', 'S. Lin'
                source=venue,
                doi=work["doi"],
                citations=work["cited_by_count"],
                type=work["type"],
                ids={"openalex": path.stem},
            )
        )
    return records


def dblp_records() -> list[Record]:
    person = ET.parse(SOURCES / "dblp" / "pid" / "13" / "7777-3.xml").getroot()
    records = []
    for publication in (r[0] for r in person.findall("r")):
        dois = [ee.text.removeprefix("https://doi.org/") for ee in publication.findall("ee") if ee.text.startswith("https://doi.org/")]
        venue = next((publication.findtext(n) for n in ("journal", "booktitle", "school") if publication.findtext(n)), "")
        kind = "preprint" if publication.get("publtype") == "informal" else {"phdthesis": "thesis"}.get(publication.tag, publication.tag)
        records.append(
            fetched(
                "dblp",
                publication.get("key"),
                title=publication.findtext("title"),
                year=int(publication.findtext("year")),
                authors=tuple(a.text for a in publication.findall("author")),
                source=venue,
                doi=dois[0] if dois else None,
                type=kind,
                ids={"dblp": publication.get("key")},
            )
        )
    return records


def bibtex_records() -> list[Record]:
    path = "content/records/sheng-lin.bib"
    reader = reader_for(path)
    mappings, problems = reader.read((SOURCES / "sheng-lin.bib").read_text(encoding="utf-8"), path)
    assert problems == []
    return [validate_record(m, path, problems, source_key=f"{path}#{i}", reader=reader.name) for i, m in enumerate(mappings)]


def every_source() -> list[Record]:
    return arxiv_records() + orcid_records() + crossref_records() + openalex_records() + dblp_records() + bibtex_records()


def identifiers(record: Record) -> set[str]:
    return {str(v).lower() for v in (record.doi, record.arxiv, *record.ids.values()) if v}


def test_the_fixture_works_from_six_sources_merge_into_the_distinct_works_the_readme_gives():
    records = every_source()
    assert len(records) == 6 + 10 + 4 + 9 + 11 + 12
    merged = merge_works(records)
    truth = expected()
    assert len(merged) == truth["dedup"]["records_after_dedup"] == 11  # 10 works + the BibTeX-only software
    works = {work["key"]: work for work in truth["works"]}
    for preprint, published in truth["dedup"]["merge"]:  # one work: the published version's .bib entry names it
        sources = works.pop(preprint)["sources"]
        works[published]["sources"] = {
            **sources,
            **works[published]["sources"],
            "orcid": sources["orcid"] + works[published]["sources"]["orcid"],
            "merged": True,
        }
    by_bibtex_key = {work["sources"]["bibtex"]: work for work in works.values()}
    assert sorted(r.id for r in merged) == sorted(by_bibtex_key)  # the user's own .bib names each work
    for record in merged:
        work = by_bibtex_key[record.id]
        wanted = {str(v).lower() for name, v in work["sources"].items() if name not in ("bibtex", "orcid", "merged")}
        wanted |= {str(code) for code in work["sources"].get("orcid", [])}
        assert wanted <= identifiers(record), record.id  # every identifier of every source kept
        assert set(work_sources(record)) == {name for name in work["sources"] if name != "merged"}, record.id


def test_a_preprint_and_its_published_version_show_the_published_venue_and_keep_the_preprint():
    lobra = next(r for r in merge_works(every_source()) if r.id == "lin2025lobra")
    assert lobra.source == "Proc. VLDB Endow."  # never "arXiv": a journal is known
    assert lobra.type == "article"
    assert (lobra.doi, lobra.arxiv) == ("10.14778/3742728.3742752", "2509.01193")
    assert lobra.citations == 14  # OpenAlex's 14 over Crossref's 11
    assert {"W4412853019", "W4414120376"} <= set(lobra.ids.values())  # both OpenAlex works
    assert lobra.links["abs"] == "https://arxiv.org/abs/2509.01193"
    assert lobra.featured is True  # `selected` in the .bib


def test_fixture_works_take_the_best_fields_of_their_sources():
    merged = {r.id: r for r in merge_works(every_source())}
    assert len(merged["li2024hydraulis"].authors) == 11  # arXiv's whole list over the .bib's 'and others'
    assert "et_al" not in merged["li2024hydraulis"].extra
    assert merged["li2026staleflow"].title.startswith("StaleFlow")  # not DBLP's title of version 1
    assert merged["lin2025straggler"].type == "inproceedings" and "orcid" in merged["lin2025straggler"].sources  # by title
    assert merged["lin2026thesis"].sources == ("bibtex", "dblp", "orcid")  # no identifier anywhere: by title
    assert merged["li2025hetu"].abstract.startswith("The Single-Program Multiple-Data (SPMD) paradigm")  # arXiv's: the .bib has none
    assert merged["li2025hetu"].type == "preprint" and merged["li2025hetu"].source == "arXiv"
    assert work_sources(merged["hetu2023software"]) == ("bibtex",) and merged["hetu2023software"].type == "software"


def test_the_merge_does_not_depend_on_the_order_records_come_in():
    records = every_source()
    first = sorted(map(repr, merge_works(records)))  # repr: mappings in their order too (records.json lists them so)
    for seed in range(3):
        shuffled = list(records)
        random.Random(seed).shuffle(shuffled)
        assert sorted(map(repr, merge_works(shuffled))) == first


# -- corrections: hand-written YAML wins field by field, mappings key by key -----------------------------


def test_a_correction_adds_its_link_and_the_fetched_links_stay():
    correction = written("id: '2401.01234'\nsource: EuroSys 2025\nfeatured: true\naward: Best Paper\nlinks: {code: 'https://github.com/x/y'}\n")
    [one] = merge_works([fetched_from_arxiv(), correction])
    assert one.links == {"code": "https://github.com/x/y", "abs": "https://arxiv.org/abs/2401.01234", "pdf": "https://arxiv.org/pdf/2401.01234"}
    assert (one.title, one.year, one.source, one.featured, one.award) == ("Fetched title with $x$", 2024, "EuroSys 2025", True, "Best Paper")
    assert one.missing == () and not one.fetched
    assert one.location.path == "content/records/mine.yaml"


def test_a_correction_replaces_a_link_of_the_same_name():
    correction = written("id: mine\ntitle: Mine\nyear: 2024\narxiv: 2401.01234v2\nlinks: {pdf: 'https://mine.org/paper.pdf'}\n")
    [one] = merge_works([fetched_from_arxiv(), correction])
    assert one.links == {"pdf": "https://mine.org/paper.pdf", "abs": "https://arxiv.org/abs/2401.01234"}
    assert (one.id, one.title, one.abstract, one.categories) == ("mine", "Mine", "The abstract from arXiv.", ("cs.DC", "cs.LG"))


@pytest.mark.parametrize("names_it", ["arxiv: '2401.01234'", "doi: 10.48550/arXiv.2401.01234", "arxiv: 2401.01234v2"])
def test_a_correction_naming_its_fetched_record_by_arxiv_or_doi_needs_no_id_and_keeps_the_page(tmp_path, names_it):
    """docs/fetching.md: a record "with the same id, arxiv id or doi and only the fields you want to change"."""
    fetched_record = ARXIV_RECORD.replace("source: arXiv\n", "source: arXiv\ndoi: 10.48550/arXiv.2401.01234\n")
    site = write_site(
        tmp_path,
        {**MINIMAL_SITE, "content/records/arxiv/2401.01234.yaml": fetched_record, "content/records/fix.yaml": f"{names_it}\nfeatured: true\n"},
    )
    result = subprocess.run([sys.executable, "-m", "sitegen", "build", "--strict"], cwd=site, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    [record] = json.loads((site / "output/records.json").read_text(encoding="utf-8"))["records"]
    assert (record["id"], record["featured"]) == ("2401.01234", True)
    assert (site / "output/records/2401.01234/index.html").is_file()


def test_a_record_naming_no_fetched_record_by_arxiv_still_needs_its_id(tmp_path):
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/fix.yaml": "arxiv: '2401.09999'\ntitle: T\nyear: 2024\n"})
    result = subprocess.run([sys.executable, "-m", "sitegen", "build"], cwd=site, capture_output=True, text=True)
    assert result.returncode == 1
    assert "content/records/fix.yaml:1: missing required field 'id'" in result.stderr


def test_a_correction_with_an_id_of_its_own_says_that_the_page_moves(tmp_path):
    site = write_site(
        tmp_path,
        {**MINIMAL_SITE, "content/records/arxiv/2401.01234.yaml": ARXIV_RECORD, "content/records/fix.yaml": "id: mine\narxiv: '2401.01234'\n"},
    )
    result = subprocess.run([sys.executable, "-m", "sitegen", "build"], cwd=site, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (
        "content/records/fix.yaml:1: note: record 'mine' corrects the fetched record '2401.01234', whose page is now records/mine/ "
        "(leave out `id` to keep records/2401.01234/)" in result.stderr
    )


def test_the_correction_wins_over_every_fetched_source():
    crossref = fetched(
        "crossref", "10.1234/abc", title="Published Title", authors=("Lena Müller",), year=2025, source="J. Sys.", doi="10.1234/ABC", citations=3
    )
    openalex = fetched(
        "openalex",
        "W1",
        title="Published title",
        authors=("L. Müller",),
        year=2025,
        source="Journal of Systems",
        doi="https://doi.org/10.1234/abc",
        citations=7,
        ids={"openalex": "W1"},
    )
    correction = written("id: paper\ntitle: My Title\nyear: 2025\ndoi: 10.1234/abc\ncitations: 2\nids: {hal: hal-0001}\n")
    [one] = merge_works([crossref, correction, openalex])
    assert (one.id, one.title, one.source, one.citations) == ("paper", "My Title", "J. Sys.", 2)
    assert one.ids == {"hal": "hal-0001", "openalex": "W1"}
    assert one.sources == ("crossref", "openalex", "yaml")


def read_as_the_build_does(text: str, path: str) -> Record:
    """The one record of a file under content/records/, read by the reader of its suffix and validated."""
    reader = reader_for(path)
    assert reader is not None
    mappings, problems = reader.read(text, path)
    assert not [p for p in problems if not p.warning] and len(mappings) == 1, problems
    record = validate_record(mappings[0], path, problems, reader=reader.name)
    assert record is not None, problems
    return record


OWN_FILES = {
    "content/records/vents.md": "---\ntitle: 'Deep Sea Vents: A Survey'\nauthors: [Ana Ruiz]\ndate: 2023-05-01\ndoi: 10.5555/vents\n"
    "publication: Ocean Reviews\n---\n",
    "content/records/mine.bib": "@article{vents, title = {Deep Sea Vents: A Survey}, author = {Ruiz, Ana}, year = {2023},\n"
    "  journal = {Ocean Reviews}, doi = {10.5555/vents}}\n",
    "content/records/mine.ris": "TY  - JOUR\nTI  - Deep Sea Vents: A Survey\nAU  - Ruiz, Ana\nPY  - 2023\nJO  - Ocean Reviews\nDO  - 10.5555/vents\nER  - \n",
}


@pytest.mark.parametrize("path", sorted(OWN_FILES))
def test_a_file_the_user_keeps_wins_over_the_fetched_versions_of_its_work(path):
    """Every reader of the user's own files ranks before every fetcher: a Hugo Blox .md publication's title and
    venue are not replaced by ORCID's summary or OpenAlex's derived record of the same DOI."""
    own = read_as_the_build_does(OWN_FILES[path], path)
    orcid = fetched("orcid", "put-1", title="Deep sea vents - a survey", authors=("A. Ruiz",), year=2023, source="OCEAN REV", doi="10.5555/vents")
    openalex = fetched("openalex", "W9", title="Deep sea vents", authors=("Ana Ruiz",), year=2023, source="Ocean Rev.", doi="10.5555/vents")
    for records in ([orcid, own, openalex], [openalex, orcid, own]):
        [one] = merge_works(records)
        assert (one.title, one.source) == ("Deep Sea Vents: A Survey", "Ocean Reviews")


def test_entries_of_one_work_in_two_of_the_users_own_formats_stand_equal_the_fuller_one_leads():
    """A Google Scholar .bib entry (title and year) and Zotero's .ris entry of the paper (volume, pages, abstract):
    neither format outranks the other, so the fuller entry's title and venue are shown, whichever file it is in."""
    short_bib = read_as_the_build_does(
        "@article{vents, title = {Deep sea vents}, author = {Ruiz, Ana}, year = {2023}, journal = {Ocean Rev.}, doi = {10.5555/vents}}\n",
        "content/records/scholar.bib",
    )
    full_ris = read_as_the_build_does(
        OWN_FILES["content/records/mine.ris"].replace("ER  -", "VL  - 12\nSP  - 1\nEP  - 30\nAB  - Vents.\nER  -"), "content/records/zotero.ris"
    )
    [one] = merge_works([short_bib, full_ris])
    assert (one.title, one.source, one.extra.get("volume")) == ("Deep Sea Vents: A Survey", "Ocean Reviews", "12")


@pytest.mark.parametrize("order", [0, 1])
def test_a_bib_entrys_key_stays_the_citation_key_when_a_fuller_ris_entry_of_the_work_leads(order):
    """The fuller .ris entry gives the fields, but the work keeps the .bib entry's key as its id and citation key:
    `\\cite{vents}` in the user's papers goes on working with BibTeX, which reads no biblatex `ids`."""
    short_bib = read_as_the_build_does(
        "@article{vents, title = {Deep sea vents}, author = {Ruiz, Ana}, year = {2023}, journal = {Ocean Rev.}, doi = {10.5555/vents}}\n",
        "content/records/scholar.bib",
    )
    full_ris = read_as_the_build_does(
        "TY  - JOUR\nID  - RuizVents2023\nTI  - Deep Sea Vents: A Survey\nAU  - Ruiz, Ana\nPY  - 2023\nJO  - Ocean Reviews\n"
        "DO  - 10.5555/vents\nVL  - 12\nSP  - 1\nEP  - 30\nAB  - Vents.\nER  - \n",
        "content/records/zotero.ris",
    )
    records = [short_bib, full_ris] if order == 0 else [full_ris, short_bib]
    [one] = merge_works(records)
    assert (one.source, one.extra.get("volume")) == ("Ocean Reviews", "12")
    assert (one.id, one.aliases) == ("vents", ("RuizVents2023",))
    assert unique_cite_keys([one], ["ruiz2023deep"]) == {"vents": "vents"}


# -- the author list: the user's own before a fetched one ---------------------------------------------

HYDRAULIS = "Hydraulis: Balancing Large Transformer Model Training via Co-designing Parallel Strategies and Data Assignment"


def arxiv_file_of(arxiv_id: str) -> str:
    """The fixture's arXiv record as `sitegen fetch` writes it into content/records/arxiv/."""
    feed = json.loads((FIXTURES / "arxiv" / "records.json").read_text(encoding="utf-8"))["records"]
    record = next(r for r in feed if r["arxiv_id"] == arxiv_id)
    fields = {"id": arxiv_id, "title": record["title"], "authors": record["authors"], "year": record["year"], "source": "arXiv"}
    return yaml.safe_dump({**fields, "arxiv": arxiv_id, "origin": "arxiv"}, sort_keys=False)


def shown_authors(site: Path, record_id: str) -> list[str]:
    """The authors a record's page lists, as the build renders it."""
    page = BeautifulSoup(rendered_files(site)[f"records/{record_id}/index.html"], "html.parser")
    return [name.strip() for name in page.select_one("p.authors").get_text().split(",")]


@pytest.mark.parametrize(
    "own_file, own_text",
    [
        (
            "content/records/mine.bib",
            f"@inproceedings{{hyd, title={{{HYDRAULIS}}}, author={{Li, Haoyang and Fu, Fangcheng and Lin, Sheng and Cui, Bin}},\n"
            "  booktitle={Proceedings of EuroSys 2026}, year=2026, doi={10.1145/hyd}}\n",
        ),
        (
            "content/records/hyd.yaml",
            f"id: hyd\ntitle: '{HYDRAULIS}'\nauthors: [Haoyang Li, Fangcheng Fu, Sheng Lin, Bin Cui]\n"
            "source: Proceedings of EuroSys 2026\nyear: 2026\ndoi: 10.1145/hyd\n",
        ),
    ],
)
def test_the_users_own_author_list_wins_over_a_longer_fetched_one(tmp_path, own_file, own_text):
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/arxiv/2412.07894.yaml": arxiv_file_of("2412.07894"), own_file: own_text})
    assert shown_authors(site, "hyd") == ["Haoyang Li", "Fangcheng Fu", "Sheng Lin", "Bin Cui"]  # not arXiv's eleven


def test_a_fetched_whole_list_wins_over_the_users_list_that_ends_in_and_others(tmp_path):
    bib = f"@article{{hyd, title={{{HYDRAULIS}}}, author={{Li, Haoyang and Fu, Fangcheng and others}}, journal={{J}}, year=2025}}\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/arxiv/2412.07894.yaml": arxiv_file_of("2412.07894"), "content/records/mine.bib": bib})
    assert len(shown_authors(site, "hyd")) == 11


# -- what is one work and what is not ---------------------------------------------------------------


def paper(fetcher: str, native_id: str, title: str, year: int = 2024, authors=("Sheng Lin", "Bin Cui"), **fields) -> Record:
    return fetched(fetcher, native_id, title=title, year=year, authors=tuple(authors), **fields)


@pytest.mark.parametrize(
    "first, second",
    [
        ({"doi": "10.1/ABC"}, {"doi": "https://doi.org/10.1/abc"}),
        ({"arxiv": "2401.01234v3"}, {"arxiv": "2401.01234"}),
        ({"arxiv": "2401.01234"}, {"doi": "10.48550/arXiv.2401.01234"}),  # arXiv's DataCite DOI
        ({"ids": {"openalex": "https://openalex.org/W42"}}, {"ids": {"openalex": "W42"}}),
        ({"ids": {"dblp": "conf/x/Lin24"}}, {"ids": {"dblp": "conf/x/Lin24"}}),
    ],
)
def test_a_shared_identifier_makes_one_work_whatever_the_titles(first, second):
    merged = merge_works([paper("crossref", "a", "One title", **first), paper("openalex", "b", "Another title", **second)])
    assert len(merged) == 1


@pytest.mark.parametrize(
    "preprint_author, published_author",
    [
        ("Lin, Sheng", "Sheng Lin"),
        ("S. Lin", "Sheng Lin"),
        ("Lin Sheng", "Sheng Lin"),
        ("Sheng Lin 0003", "S. Lin"),
    ],
)
def test_a_preprint_and_its_published_version_merge_by_title_with_an_author_in_common(preprint_author, published_author):
    preprint = paper("arxiv", "2401.01234", "Elastic {LLM} Training: a Study", 2023, (preprint_author,), arxiv="2401.01234", source="arXiv")
    published = paper(
        "crossref", "10.1/x", "Elastic <i>LLM</i> training — a study.", 2025, ("Ada Lovelace", published_author), doi="10.1/x", source="Proc. SMLSys"
    )
    [one] = merge_works([preprint, published])
    assert (one.source, one.year, one.doi, one.arxiv) == ("Proc. SMLSys", 2025, "10.1/x", "2401.01234")
    assert one.id == "2401.01234"  # the page fetched from arXiv keeps its address


def test_a_preprint_that_a_source_calls_an_article_stays_a_preprint():
    arxiv = paper("arxiv", "2401.01234", "Elastic Training", arxiv="2401.01234", source="arXiv", type="preprint")
    openalex = paper("openalex", "W1", "Elastic training", source="arXiv (Cornell University)", type="article", ids={"openalex": "W1"})
    [one] = merge_works([arxiv, openalex])
    assert (one.type, one.source) == ("preprint", "arXiv")


def test_the_published_version_dates_the_work_not_its_preprint():
    preprint = paper("arxiv", "2501.00001", "Elastic Training", 2025, arxiv="2501.00001", source="arXiv", date=datetime.date(2025, 1, 10))
    published = paper("crossref", "10.1/x", "Elastic Training", 2025, doi="10.1/x", source="J. Sys.", date=datetime.date(2025, 6, 1))
    assert merge_works([preprint, published])[0].date == datetime.date(2025, 6, 1)
    undated = paper("crossref", "10.1/x", "Elastic Training", 2025, doi="10.1/x", source="J. Sys.")
    assert merge_works([preprint, undated])[0].date is None


@pytest.mark.parametrize(
    "a, b",
    [
        ({"title": "Scaling Laws, Part I"}, {"title": "Scaling Laws, Part II"}),
        ({"title": "Elastic Training", "year": 2019}, {"title": "Elastic Training", "year": 2023}),  # a workshop, a journal 4 years on
        ({"title": "Elastic Training"}, {"title": "Elastic Training", "authors": ("Ada Lovelace",)}),  # no author in common
        ({"title": "Elastic Training", "doi": "10.1/conf"}, {"title": "Elastic Training", "doi": "10.1/journal"}),  # two published versions
        ({"title": "Elastic Training", "arxiv": "2401.00001"}, {"title": "Elastic Training", "arxiv": "2402.00002"}),  # two preprints
        ({"title": "Editorial"}, {"title": "Editorial"}),  # one word says too little
    ],
)
def test_different_works_with_similar_titles_stay_apart(a, b):
    assert len(merge_works([paper("crossref", "a", **a), paper("dblp", "b", **b)])) == 2


def test_two_of_the_users_own_records_with_one_title_and_no_authors_stay_two_works(tmp_path):
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/records/a1.yaml": 'id: a1\ntitle: "Yml ext"\nyear: 2020\n',
            "content/records/a2.yaml": 'id: a2\ntitle: "YML ext"\nyear: 2020\n',
        },
    )
    records = json.loads(rendered_files(site)["records.json"])["records"]
    assert sorted(r["id"] for r in records) == ["a1", "a2"]


def test_a_fetched_record_listing_no_authors_still_joins_the_users_record_of_its_title():
    summary = fetched("orcid", "put-1", title="Elastic training of sparse models", year=2024)
    own = written("id: mine\ntitle: Elastic Training of Sparse Models\nyear: 2024\nauthors: [Ada Lovelace]\n")
    assert len(merge_works([own, summary])) == 1


def test_a_title_match_does_not_chain_two_published_versions_together():
    conference = paper("crossref", "c", "Elastic Training", 2024, doi="10.1/conf")
    journal = paper("crossref", "j", "Elastic Training", 2025, doi="10.1/journal")
    preprint = paper("arxiv", "p", "Elastic training", 2024, arxiv="2401.00001")
    assert len(merge_works([conference, preprint, journal])) == 2


def zenodo_version(work: str, doi: str, date: str, kind: str = "dataset", source: str = "Zenodo (CERN European Organization for Nuclear Research)") -> Record:
    """A version of a program or a dataset as OpenAlex lists it: Zenodo gives every release a DOI of its own."""
    return fetched(
        "openalex", work, title="Hetu: a highly efficient automatic parallel deep learning system", authors=("Sheng Lin", "Haoyang Li"),
        year=int(date[:4]), date=datetime.date.fromisoformat(date), source=source, type=kind, doi=doi,
        links={"doi": f"https://doi.org/{doi}", "openalex": f"https://openalex.org/{work}"}, ids={"openalex": work, "doi": doi},
    )  # fmt: skip


def test_the_versions_of_a_program_in_one_repository_are_one_record_with_the_newest_versions_doi():
    """OpenAlex lists each Zenodo version of a program (a DOI each): they were shown as that many identical records."""
    versions = [
        zenodo_version("W1", "10.5281/zenodo.11111111", "2024-02-01"),
        zenodo_version("W3", "10.5281/zenodo.11111113", "2025-06-01"),
        zenodo_version("W2", "10.5281/zenodo.11111112", "2024-11-01"),
    ]
    for order in (versions, versions[::-1]):
        (work,) = merge_works(list(order))
        assert (work.doi, work.year, work.links["doi"]) == ("10.5281/zenodo.11111113", 2025, "https://doi.org/10.5281/zenodo.11111113")
        assert work.id == "W1"  # the first release's: the page stays where it is when a new version comes
        assert {v for k, v in work.links.items() if k.startswith("doi")} == {f"https://doi.org/10.5281/zenodo.1111111{n}" for n in (1, 2, 3)}
    paper_of_it = paper("crossref", "c", "Hetu: a highly efficient automatic parallel deep learning system", 2025, doi="10.1/journal")
    assert len(merge_works([*versions, paper_of_it])) == 2  # a paper of one title is no version of the program
    elsewhere = zenodo_version("W9", "10.6084/m9.figshare.9", "2025-01-01", source="figshare")
    assert len(merge_works([versions[0], elsewhere])) == 2  # one title in two repositories: two works, as for papers


def test_author_names_compare_loosely():
    assert name_keys("Sheng Lin") & name_keys("Lin, Sheng") & name_keys("S. Lin") & name_keys("Lin Sheng") & name_keys("Sheng Lin 0003")
    assert name_keys("François Dupré") & name_keys("Dupr{\\'e}, F.")
    assert not name_keys("Sheng Lin") & name_keys("Bin Cui")


def test_unmerged_records_are_returned_as_they_are_in_their_order():
    records = [paper("arxiv", str(i), f"Paper number {i}") for i in range(5)]
    assert all(a is b for a, b in zip(merge_works(records), records))


# -- property: renderings of one title are one work; different titles are not -----------------------

# each accented letter, lower and upper case, as sources write it: Unicode, LaTeX, or without its accent
ACCENTED = {
    "é": ("é", "{\\'e}", "\\'e", "e"),
    "É": ("É", "{\\'E}", "\\'{E}", "E"),
    "ü": ("ü", '{\\"u}', '\\"{u}', "u"),
    "Ü": ("Ü", '{\\"U}', "U"),
    "ç": ("ç", "{\\c{c}}", "c"),
    "Ç": ("Ç", "{\\c{C}}", "C"),
    "ø": ("ø", "{\\o}", "o"),
    "Ø": ("Ø", "{\\O}", "O"),
}
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzéüçø", min_size=1, max_size=9)


@st.composite
def rendering(draw, words: list[str]) -> str:
    """One way a source may write a title: case, accents, LaTeX, protective braces, tags, punctuation."""
    shown = []
    for word in words:
        cased = draw(st.sampled_from([word, word.upper(), word.capitalize()]))
        text = "".join(draw(st.sampled_from(ACCENTED[c])) if c in ACCENTED else c for c in cased)
        text = draw(st.sampled_from(["{}", "{{{}}}", "<i>{}</i>", "<jats:italic>{}</jats:italic>", "{}", "{}"])).format(text)
        if len(word) == 1 and word.isascii() and draw(st.booleans()):
            text = f"${word}$"
        shown.append(text + draw(st.sampled_from(["", "", ":", ",", " -", "."])))
    return " ".join(shown) + draw(st.sampled_from(["", ".", "?"]))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.data(), st.lists(WORDS, min_size=2, max_size=8))
def test_any_two_renderings_of_one_title_are_one_work(data, words):
    preprint = paper("arxiv", "2401.01234", data.draw(rendering(words)), 2023, ("Lin, Sheng",), arxiv="2401.01234", source="arXiv")
    published = paper("crossref", "10.1/x", data.draw(rendering(words)), 2024, ("S. Lin", "Bin Cui"), doi="10.1/x", source="J. Sys.")
    assert len(merge_works([preprint, published])) == 1, (preprint.title, published.title)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.data(), st.lists(WORDS, min_size=2, max_size=8), st.lists(WORDS, min_size=2, max_size=8))
def test_renderings_of_different_titles_stay_apart(data, words, other_words):
    assume(title_key(" ".join(words)) != title_key(" ".join(other_words)))  # 'Søren' and 'Soren' are one title
    first = paper("arxiv", "2401.01234", data.draw(rendering(words)), 2024, arxiv="2401.01234", source="arXiv")
    second = paper("crossref", "10.1/x", data.draw(rendering(other_words)), 2024, doi="10.1/x", source="J. Sys.")
    assert len(merge_works([first, second])) == 2


# -- types (SPEC §7) -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record, kind",
    [
        ({"source": "arXiv", "arxiv": "2401.01234", "origin": "arxiv"}, "preprint"),  # only an arXiv source
        ({"source": "Phys. Rev. D 110, 014", "arxiv": "2401.01234", "origin": "arxiv"}, "preprint"),  # a journal_ref does not change that
        ({"source": "Journal of Systems", "doi": "10.1/x", "origin": "crossref"}, "article"),
        ({"source": "Proceedings of EuroSys 2025", "origin": "yaml"}, "inproceedings"),
        ({"source": "PhD thesis, Peking University", "origin": "yaml"}, "thesis"),
        ({"source": "", "links": {"code": "https://github.com/x/y"}, "origin": "yaml"}, "software"),
        ({"source": "", "origin": "yaml"}, "other"),
        # what CS venues are called: the acronyms of well-known ones, and ISO 4 abbreviations
        ({"source": "CVPR", "origin": "yaml"}, "inproceedings"),
        ({"source": "NeurIPS'22", "origin": "yaml"}, "inproceedings"),
        ({"source": "Proc. ICML 2024", "origin": "yaml"}, "inproceedings"),
        ({"source": "ICLR2023", "origin": "yaml"}, "inproceedings"),
        ({"source": "3DV", "origin": "yaml"}, "inproceedings"),
        ({"source": "IEEE TPAMI", "origin": "yaml"}, "article"),
        ({"source": "IEEE Trans. Pattern Anal. Mach. Intell.", "origin": "yaml"}, "article"),
        ({"source": "Phys. Rev. Lett.", "origin": "yaml"}, "article"),
        ({"source": "Nature Communications", "origin": "yaml"}, "article"),
        # journals named "Proceedings"
        ({"source": "Proceedings of the National Academy of Sciences", "origin": "yaml"}, "article"),
        ({"source": "Proc. Natl. Acad. Sci. USA", "origin": "yaml"}, "article"),
        ({"source": "Proc. VLDB Endow.", "origin": "yaml"}, "article"),
        # what is no known venue's name stays other: no guess from letters alone
        ({"source": "MICROSOFT Research blog", "origin": "yaml"}, "other"),
        ({"source": "Computer Science Days", "origin": "yaml"}, "other"),
        ({"source": "TOPICS", "origin": "yaml"}, "other"),
        ({"source": "arXiv", "type": "article", "origin": "yaml"}, "article"),  # a record's own type stands
    ],
)
def test_a_record_without_a_type_is_given_one(record, kind):
    origin = record.pop("origin")
    made = Record(id="x", title="T", location=Location("p", 1), origin=Origin(origin, "p", fetched=origin != "yaml"), **record)
    assert infer_type(made) == kind


# what venues are called in other languages: each language's journal and proceedings, and theses, reports, chapters
FOREIGN_VENUES = [
    # German
    ("Zeitschrift für Physik", "article"),
    ("Informatik-Spektrum", "article"),
    ("Tagungsband der GI-Jahrestagung 2023", "inproceedings"),
    ("Dissertation, TU München", "thesis"),
    ("Doktorarbeit, Universität Hamburg", "thesis"),
    ("Masterarbeit, KIT", "thesis"),
    ("Forschungsbericht 12, DLR", "report"),
    ("Kapitel 3 in: Handbuch der Informatik", "chapter"),
    # French
    ("Revue d'intelligence artificielle", "article"),
    ("Actes de la conférence TALN 2022", "inproceedings"),
    ("Thèse de doctorat, Université Paris-Saclay", "thesis"),
    ("Mémoire de master, Université de Lyon", "thesis"),
    ("Rapport de recherche RR-9512, Inria", "report"),
    ("Chapitre 2 de Traité d'algorithmique", "chapter"),
    # Spanish
    ("Revista Iberoamericana de Inteligencia Artificial", "article"),
    ("Actas del XX Congreso Español de Informática", "inproceedings"),
    ("Tesis doctoral, Universidad de Granada", "thesis"),
    ("Informe técnico, UPM", "report"),
    ("Capítulo 4 en Métodos numéricos", "chapter"),
    # Italian
    ("Rivista di Matematica della Università di Parma", "article"),
    ("Atti del Convegno Nazionale CINI", "inproceedings"),
    ("Tesi di dottorato, Politecnico di Milano", "thesis"),
    ("Rapporto tecnico, CNR", "report"),
    # Portuguese
    ("Revista Brasileira de Computação Aplicada", "article"),
    ("Anais do XXXVII Simpósio Brasileiro de Banco de Dados", "inproceedings"),
    ("Tese de doutorado, Universidade de São Paulo", "thesis"),
    ("Relatório técnico, Unicamp", "report"),
    # Dutch
    ("Tijdschrift voor Economische en Sociale Geografie", "article"),
    ("Handelingen van het Nederlands Filologencongres", "inproceedings"),
    ("Proefschrift, Universiteit Leiden", "thesis"),
    ("Hoofdstuk 5 in: Inleiding tot de informatica", "chapter"),
    # Japanese
    ("情報処理学会論文誌", "article"),
    ("情報処理学会全国大会講演論文集", "inproceedings"),
    ("情報処理学会研究報告", "report"),
    ("博士論文, 東京大学", "thesis"),
    # Chinese
    ("计算机学报", "article"),
    ("中国计算机大会会议论文集", "inproceedings"),
    ("博士学位论文, 清华大学", "thesis"),
    ("技术报告, 中国科学院", "report"),
    # Korean
    ("정보과학회논문지", "article"),
    ("한국통신학회 학회지", "article"),
    ("한국정보과학회 학술발표논문집", "inproceedings"),
    ("2023 한국컴퓨터종합학술대회 논문집", "inproceedings"),
    ("박사학위논문, 서울대학교", "thesis"),
    ("기술보고서, 한국전자통신연구원", "report"),
    # Persian (as Persian and as Arabic keyboards type it), Arabic, Hebrew
    ("مجله ریاضی ایران", "article"),
    ("فصلنامه علمی پژوهشی مدیریت", "article"),
    ("نشريه مهندسي برق", "article"),
    ("مجموعه مقالات بیست و پنجمین کنفرانس مهندسی برق ایران", "inproceedings"),
    ("همایش ملی هوش مصنوعی", "inproceedings"),
    ("پایان‌نامه کارشناسی ارشد، دانشگاه تهران", "thesis"),
    ("رسالهٔ دکتری، دانشگاه صنعتی شریف", "thesis"),
    ("گزارش فنی، پژوهشگاه ارتباطات", "report"),
    ("المجلة العربية للعلوم", "article"),
    ("وقائع المؤتمر الدولي للحوسبة", "inproceedings"),
    ("أطروحة دكتوراه، جامعة القاهرة", "thesis"),
    ("تقرير تقني، جامعة الملك سعود", "report"),
    ("כתב העת הישראלי למתמטיקה", "article"),
    ("דברי הכנס השנתי של האגודה", "inproceedings"),
    ("עבודת דוקטורט, האוניברסיטה העברית", "thesis"),
    ("پايان نامه، دانشگاه تهران", "thesis"),
    ("دانشگاه تهران", "other"),
    ("הכנסה ומיסוי", "other"),  # income, not a conference (כנס)
    # a word inside another word is not that word
    ("Attitudes and Social Cognition", "other"),  # atti
    ("Prótesis Dental Hoy", "other"),  # tesis
    ("Teseo Foundation Notes", "other"),  # tese
    ("Revistas y Catálogos", "other"),  # revista
    ("Actesia Group", "other"),  # actes
    ("Mémoires de la Société", "other"),  # mémoire: a series of a society, not a thesis
    ("研究", "other"),
]


@pytest.mark.parametrize("source, kind", FOREIGN_VENUES)
def test_a_venue_named_in_another_language_says_the_kind_of_work(source, kind):
    made = Record(id="x", title="T", location=Location("p", 1), origin=Origin("yaml", "p", fetched=False), source=source)
    assert infer_type(made) == kind


def test_a_preprints_links_and_ids_beside_the_published_ones_are_named_as_the_preprints():
    """The published version's PDF, DOI and OpenAlex page keep their names; the preprint's, which differ,
    are `pdf_preprint`, ...; an address both give (in another case or form) is kept once."""
    published = fetched(
        "openalex",
        "W1",
        title="LobRA",
        year=2025,
        source="Proc. VLDB Endow.",
        doi="10.14778/3742728.3742752",
        arxiv="2509.01193",
        links={"pdf": "https://www.vldb.org/p4209-lin.pdf", "openalex": "https://openalex.org/W1", "code": "https://github.com/x/lobra"},
        ids={"openalex": "W1"},
    )
    preprint = fetched(
        "dblp",
        "corr/abs-2509-01193",
        title="LobRA",
        year=2025,
        source="CoRR",
        type="preprint",
        arxiv="2509.01193",
        links={"pdf": "https://arxiv.org/pdf/2509.01193", "openalex": "https://openalex.org/W2", "code": "http://github.com/x/lobra/"},
        ids={"openalex": "W2"},
    )
    [one] = merge_works([preprint, published])
    assert one.links == {
        "pdf": "https://www.vldb.org/p4209-lin.pdf",
        "openalex": "https://openalex.org/W1",
        "code": "https://github.com/x/lobra",
        "pdf_preprint": "https://arxiv.org/pdf/2509.01193",
        "openalex_preprint": "https://openalex.org/W2",
    }
    assert one.ids == {"openalex": "W1", "openalex_preprint": "W2"}
    assert merge_works([preprint, dataclasses.replace(published, type="preprint", source="arXiv")])[0].links["pdf_2"] == "https://arxiv.org/pdf/2509.01193"


def _bib_records(name: str, path: str) -> list[Record]:
    """The records of a fixture .bib file (tests/fixtures/reference-managers/) kept at `path` in the site."""
    reader = reader_for(path)
    mappings, problems = reader.read((FIXTURES / "reference-managers" / name).read_text(encoding="utf-8"), path)
    assert problems == []
    return [validate_record(m, path, problems, source_key=f"{path}#{i}", reader=reader.name) for i, m in enumerate(mappings)]


@pytest.mark.parametrize(
    "zotero_path, scholar_path", [("content/records/zotero.bib", "content/records/a.bib"), ("content/records/a.bib", "content/records/zotero.bib")]
)
def test_two_bib_entries_of_one_paper_merge_alike_whatever_their_files_are_named(zotero_path, scholar_path):
    """Zotero's entry (number, ISSN, math in the title, five authors) and Google Scholar's of the same paper: the
    one that gives more fields leads, whichever file sorts first; the other's venue details fill what it lacks,
    and the other's key is kept as an alias, with a note."""
    zotero = [r for r in _bib_records("zotero.bib", zotero_path) if r.id == "mullerSparseAttentionDNA2021"]
    scholar = _bib_records("scholar-duplicate.bib", scholar_path)
    notes: list = []
    [work] = merge_works(scholar + zotero, notes)
    assert work.id == "mullerSparseAttentionDNA2021" and work.aliases == ("muller2021sparse",)
    assert work.title == "Sparse Attention for DNA Sequence Models in $O(n \\log n)$ Time"
    assert (work.extra["number"], work.extra["issn"], work.extra["volume"]) == ("5", "1548-7105", "18")
    assert len(work.authors) == 5 and "et_al" not in work.extra
    assert [str(note) for note in notes] == [
        f"{scholar_path}:1: note: record 'muller2021sparse' merged with mullerSparseAttentionDNA2021 ({zotero_path}:2):"
        " same title, years at most 2 apart and an author in common; its id is kept as an alias"
    ]


def test_a_published_versions_details_never_come_from_its_preprint():
    """The venue's details come from the records of that publication (the same venue or DOI), not from another version."""
    published = written("id: pub\ntitle: One Work Twice\nauthors: [Ada Lovelace]\nyear: 2021\nsource: Journal of Things\ndoi: 10.1000/one\n")
    preprint = fetched(
        "arxiv",
        "2101.00001",
        title="One Work Twice",
        authors=("Ada Lovelace",),
        year=2021,
        source="arXiv",
        arxiv="2101.00001",
        extra={"volume": "abs/2101.00001", "pages": "1-2"},
    )
    other = fetched(
        "crossref",
        "10.1000/one",
        title="One Work Twice",
        authors=("Ada Lovelace",),
        year=2021,
        source="Journal of Things",
        doi="10.1000/one",
        extra={"volume": "7", "number": "2"},
    )
    [work] = merge_works([published, preprint, other])
    assert (work.extra.get("volume"), work.extra.get("number"), work.extra.get("pages")) == ("7", "2", None)
    assert work.aliases == ()  # fetched records' ids are no citation keys of the user's


def test_records_that_name_one_key_among_their_aliases_are_one_work_and_the_note_says_why():
    """biblatex's `ids` (a record's `aliases`) name the entry: a record whose id is another's alias, or two records
    that list one alias, are one work (a \\cite of the key would name both), with a note naming the key."""
    path = "content/records/a.bib"
    reader = reader_for(path)
    text = (
        "@article{new, title = {Sorting}, author = {Lin, Sheng}, journal = {J}, year = 2024, ids = {old}}\n"
        "@misc{old, title = {Sorting, the preprint}, author = {Lin, Sheng}, year = 2023}\n"
        "@article{newer, title = {Sorting again}, author = {Lin, Sheng}, journal = {K}, year = 2020, ids = {older}}\n"
        "@article{newest, title = {Sorting once more}, author = {Lin, Sheng}, journal = {K}, year = 2020, ids = {older}}\n"
    )
    mappings, problems = reader.read(text, path)
    records = [validate_record(m, path, problems, source_key=f"{path}#{i}", reader=reader.name) for i, m in enumerate(mappings)]
    notes: list = []
    works = merge_works(records, notes)
    assert [(work.id, work.aliases) for work in works] == [("new", ("old",)), ("newer", ("older", "newest"))]
    assert [str(note) for note in notes] == [
        f"{path}:2: note: record 'old' merged with new ({path}:1): record 'new' lists 'old' among its aliases; its id is kept as an alias",
        f"{path}:4: note: record 'newest' merged with newer ({path}:3): both list 'older' among their aliases; its id is kept as an alias",
    ]


# -- bioRxiv, medRxiv and the other preprint servers' DOIs -------------------------------------------


def test_a_biorxiv_preprint_and_its_journal_version_written_by_hand_are_one_work_linking_both():
    preprint = written(
        "id: li2022biorxiv\ntitle: A CRISPRi screen identifies TBX5-dependent enhancers\nauthors: [Chen Li, Amara N. Okafor]\n"
        "year: 2022\nsource: bioRxiv\ndoi: 10.1101/2022.11.03.515012\n",
        "content/records/preprint.yaml",
    )
    journal = written(
        "id: li2023\ntitle: A CRISPRi screen identifies TBX5-dependent enhancers\nauthors: [Chen Li, Amara N. Okafor]\n"
        "year: 2023\nsource: Cell Genomics\ntype: article\ndoi: 10.1016/j.xgen.2023.100345\n",
        "content/records/journal.yaml",
    )
    [one] = merge_works([preprint, journal])
    assert (one.id, one.source, one.doi, one.type) == ("li2023", "Cell Genomics", "10.1016/j.xgen.2023.100345", "article")
    assert one.links["doi_preprint"] == "https://doi.org/10.1101/2022.11.03.515012"
    assert one.ids["doi_preprint"] == "10.1101/2022.11.03.515012"
    assert one.aliases == ("li2022biorxiv",)


@pytest.mark.parametrize(
    "preprint_doi",
    ["10.1101/2022.11.03.515012", "10.1101/2022.11.03.515012v2", "10.1101/123456", "10.21203/rs.3.rs-123456/v1", "10.2139/ssrn.4123456"],
)
def test_a_preprint_servers_doi_is_no_second_published_version(preprint_doi):
    preprint = paper("crossref", preprint_doi, "Enhancer maps of the fetal heart", 2022, doi=preprint_doi, source="bioRxiv")
    journal = paper("crossref", "10.1038/x", "Enhancer maps of the fetal heart", 2023, doi="10.1038/x", source="Nature Genetics")
    assert len(merge_works([preprint, journal])) == 1


def test_cold_spring_harbor_journals_share_biorxivs_prefix_and_stay_published_versions():
    genome_research = paper("crossref", "10.1101/gr.277.1", "Enhancer maps of the fetal heart", 2022, doi="10.1101/gr.277.1", source="Genome Research")
    journal = paper("crossref", "10.1038/x", "Enhancer maps of the fetal heart", 2023, doi="10.1038/x", source="Nature Genetics")
    assert len(merge_works([genome_research, journal])) == 2


def test_a_record_with_only_a_biorxiv_doi_is_a_preprint():
    record = written("id: p\ntitle: Enhancer maps\nauthors: [Chen Li]\nyear: 2022\ndoi: 10.1101/2022.11.03.515012\n")
    assert infer_type(record) == "preprint"


def test_crossrefs_preprint_relations_make_one_work_of_versions_with_different_titles():
    from sitegen.sources.crossref import record_from_work

    def crossref(doi, title, year, kind, relation):
        message = {"DOI": doi, "title": [title], "type": kind, "issued": {"date-parts": [[year, 3, 1]]}, "relation": relation}
        message["author"] = [{"given": "Chen", "family": "Li"}, {"given": "Amara N.", "family": "Okafor"}]
        fields = record_from_work(message)
        native = fields.pop("id")
        fields["authors"] = tuple(fields["authors"])
        for name in ("author_ids", "publisher", "volume", "issue", "pages"):
            fields.pop(name, None)
        return fetched("crossref", native, **fields)

    preprint = crossref(
        "10.1101/2022.11.03.515012", "CRISPR interference screening maps cardiac enhancers", 2022, "posted-content",
        {"is-preprint-of": [{"id-type": "doi", "id": "10.1016/j.xgen.2023.100345", "asserted-by": "subject"}]},
    )  # fmt: skip
    assert preprint.ids["doi_published"] == "10.1016/j.xgen.2023.100345"
    journal = crossref("10.1016/j.xgen.2023.100345", "A CRISPRi screen identifies TBX5-dependent enhancers", 2023, "journal-article", {})
    [one] = merge_works([preprint, journal])
    assert (one.doi, one.type) == ("10.1016/j.xgen.2023.100345", "article")
    assert one.ids == {"doi": "10.1016/j.xgen.2023.100345", "doi_preprint": "10.1101/2022.11.03.515012"}
    assert one.links["doi_preprint"] == "https://doi.org/10.1101/2022.11.03.515012"
    published = crossref(
        "10.1016/j.xgen.2023.100345", "A CRISPRi screen", 2023, "journal-article",
        {"has-preprint": [{"id-type": "doi", "id": "10.1101/2022.11.03.515012", "asserted-by": "subject"}]},
    )  # fmt: skip
    assert published.ids["doi_preprint"] == "10.1101/2022.11.03.515012"
    preprint_alone = crossref("10.1101/2022.11.03.515012", "CRISPR interference screening", 2022, "posted-content", {})
    assert len(merge_works([preprint_alone, published])) == 1


@pytest.mark.parametrize(
    ("latex", "unicode"),
    [
        (r"\ce{CO2} Capture in \ce{Cu3(BTC)2}", "CO₂ Capture in Cu₃(BTC)₂"),
        (r"{\textalpha}-Helix Peptides of 5 \textmu m", "α-Helix Peptides of 5 µm"),
        (r"CO\textsubscript{2} Reduction", "CO$_2$ Reduction"),
    ],
)
def test_a_chemists_title_has_one_key_however_its_formulas_are_written(latex, unicode):
    """A ChemRxiv preprint titled with mhchem or textgreek and its article titled in Unicode are one work."""
    assert title_key(latex) == title_key(unicode)


# -- Google Scholar's export beside fetched records: its lower-cased titles and placeholder pages ---------------

SCHOLAR_ENTRY = """@article{lin2025skew,
  title={Skew-aware data packing for variable-length sequence training with llm-scale bert and gnn models},
  author={Lin, Sheng and Li, Haoyang and Fu, Fangcheng and Cui, Bin},
  journal={Journal of Distributed Learning Systems},
  volume={3},
  number={2},
  pages={1},
  year={2025}
}
"""

CROSSREF_FILE = """id: 10.5555/jdls.2025.0142
title: Skew-Aware Data Packing for Variable-Length Sequence Training with LLM-Scale BERT and GNN Models
authors: [Sheng Lin, Haoyang Li, Fangcheng Fu, Bin Cui]
year: 2025
source: Journal of Distributed Learning Systems
type: article
doi: 10.5555/jdls.2025.0142
volume: '3'
issue: '2'
pages: 117-139
origin: crossref
"""


def scholar_site(tmp_path: Path, fetched_text: str = CROSSREF_FILE) -> Path:
    return write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/records/scholar.bib": SCHOLAR_ENTRY,
            "content/records/crossref/10.5555-jdls.2025.0142.yaml": fetched_text,
        },
    )


def test_a_scholar_title_lower_cased_gets_the_capitals_of_a_fetched_version_back(tmp_path):
    files = rendered_files(scholar_site(tmp_path))
    [record] = json.loads(files["records.json"])["records"]
    # the user's sentence case is kept; the acronyms Google Scholar lower-cased are the publisher's again
    assert record["title"] == "Skew-aware data packing for variable-length sequence training with LLM-scale BERT and GNN models"
    page = BeautifulSoup(files["records/lin2025skew/index.html"], "html.parser")
    assert "LLM-scale BERT and GNN" in page.select_one("h1").get_text()


def test_a_title_of_ones_own_with_other_words_is_not_touched(tmp_path):
    files = rendered_files(scholar_site(tmp_path, CROSSREF_FILE.replace("Packing", "Bundling")))
    titles = sorted(r["title"] for r in json.loads(files["records.json"])["records"])
    assert titles[1] == "Skew-aware data packing for variable-length sequence training with llm-scale bert and gnn models"


def test_a_scholar_entrys_placeholder_pages_give_way_to_the_pages_of_the_doi(tmp_path):
    files = rendered_files(scholar_site(tmp_path))
    [record] = json.loads(files["records.json"])["records"]
    assert record["details"]["pages"] == "117–139"  # Crossref's, not Scholar's `pages={1}`
    assert "pages = {117--139}" in files["publications.bib"].decode()


def test_a_scholar_venue_in_lower_case_takes_the_capitals_of_a_fetched_version(tmp_path):
    """Scholar's `journal={Journal of distributed learning systems}` stayed so beside Crossref's proper name."""
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/records/scholar.bib": SCHOLAR_ENTRY.replace("Journal of Distributed Learning Systems", "Journal of distributed learning systems"),
            "content/records/crossref/10.5555-jdls.2025.0142.yaml": CROSSREF_FILE,
        },
    )
    files = rendered_files(site)
    [record] = json.loads(files["records.json"])["records"]
    assert record["source"] == "Journal of Distributed Learning Systems"
    page = BeautifulSoup(files["records/lin2025skew/index.html"], "html.parser")
    assert "Journal of Distributed Learning Systems" in page.get_text()


def test_a_warning_about_a_field_a_merged_work_took_from_another_record_names_that_records_file(tmp_path):
    """A work read from a MathSciNet .bib entry (no abstract) and fetched from arXiv (the abstract, with a `\\cite`)
    keeps the .bib entry's id, file and lines: the warning about the abstract said `content/records/math.bib:1`,
    where there is no abstract to change."""
    from sitegen.build import check_site

    arxiv = (
        "id: '2311.01234'\ntitle: 'On the $p$-adic Langlands correspondence'\nauthors: [Ana Caraiani, Dmitri Ivanov]\nyear: 2023\n"
        "source: arXiv\nabstract: |-\n  We prove a theorem.\n  As in \\cite{Colmez10}, it is local.\narxiv: '2311.01234'\n"
        "doi: 10.1007/s00222-024-01234-5\norigin: arxiv\n"
    )
    bib = (
        "@article {MR4700001,\n    AUTHOR = {Caraiani, Ana and Ivanov, Dmitri},\n     TITLE = {On the {$p$}-adic {L}anglands correspondence},\n"
        "   JOURNAL = {Invent. Math.},\n      YEAR = {2024},\n  MRNUMBER = {4700001},\n       DOI = {10.1007/s00222-024-01234-5},\n}\n"
    )
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/arxiv/2311.01234.yaml": arxiv, "content/records/math.bib": bib})
    result = check_site(site)
    records = json.loads(result.files["records.json"])["records"]
    assert [record["id"] for record in records] == ["MR4700001"]
    warnings = [str(warning) for warning in result.warnings]
    assert any(w.startswith("content/records/arxiv/2311.01234.yaml:8: warning: record 'MR4700001', field 'abstract'") for w in warnings), warnings
