"""Machine-readable outputs, checked with the readers people use: bibtexparser,
feedparser, json, an XML parser."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import bibtexparser
import feedparser
import lxml.html
import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, file_bytes, rendered_files, write_site
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.build import check_site as render
from sitegen.enrich import enrich_site
from sitegen.exports.bibtex import bibtex_entry
from sitegen.exports.jsonld import script_json
from sitegen.model import Profile, SiteConfig
from sitegen.validate import validate_record

SITE = {
    "content/site.yaml": "title: Exports\nbase_url: https://user.github.io/repo\ndescription: A test site\n",
    "content/profile.yaml": "name: Ada Lovelace\n",
    "content/records/a.yaml": (
        "id: '2401.01234'\ntitle: 'Faster $O(n^2)$ things for R&D: 50% off'\n"
        "authors: ['Ada Lovelace', 'Lena M{\\\"u}ller']\ndate: 2024-01-05\nsource: arXiv\n"
        "abstract: 'We show \\textbf{(i)} a 1.45$\\times$ speedup.'\ncategories: [cs.DC, cs.LG]\n"
        "links: {abs: 'https://arxiv.org/abs/2401.01234', pdf: 'https://arxiv.org/pdf/2401.01234'}\narxiv: '2401.01234'\n"
    ),
    "content/records/b.yaml": (
        "id: lovelace2023journal\ntitle: A Journal Paper\nauthors: [Ada Lovelace]\nyear: 2023\n"
        "source: Journal of Examples\ndoi: 10.1000/xyz\ncategories: [cs.DC]\n"
    ),
    "content/records/c.yaml": (
        "id: lovelace2025conf\ntitle: 'A {Conference} Paper with a stray } brace'\nauthors: [Ada Lovelace, Charles Babbage]\n"
        "date: 2025-06-01\nsource: Proceedings of the Example Conference\n"
    ),
    "content/records/d.yaml": "id: thesis\ntitle: My Thesis\nauthors: [Ada Lovelace]\nyear: 2020\nsource: PhD thesis, University of Examples\n",
    "content/records/hidden.yaml": "id: secret\ntitle: Secret draft\nyear: 2025\nhidden: true\ncategories: [cs.DC]\n",
}
SHOWN = ["lovelace2025conf", "2401.01234", "lovelace2023journal", "thesis"]  # newest first


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, bytes]:
    site = write_site(tmp_path_factory.mktemp("exports"), SITE)
    return rendered_files(site)


# -- publications.bib ------------------------------------------------------------


def test_bibtex_parses_with_one_entry_per_shown_record(files):
    library = bibtexparser.parse_string(files["publications.bib"].decode())
    assert library.failed_blocks == []
    assert len(library.entries) == len(SHOWN)
    keys = [entry.key for entry in library.entries]
    assert len(set(keys)) == len(keys)
    assert "Secret" not in files["publications.bib"].decode()


def test_bibtex_entry_types_and_fields(files):
    entries = {entry.key: entry for entry in bibtexparser.parse_string(files["publications.bib"].decode()).entries}
    by_title = {entry["title"]: entry for entry in entries.values()}
    arxiv = by_title["{Faster $O(n^2)$ things for R\\&D: 50\\% off}"]
    assert arxiv.entry_type == "misc"
    assert arxiv["author"] == 'Ada Lovelace and Lena M{\\"u}ller'
    assert (arxiv["eprint"], arxiv["archivePrefix"], arxiv["primaryClass"]) == ("2401.01234", "arXiv", "cs.DC")
    assert (arxiv["year"], arxiv["month"]) == ("2024", "jan")  # the macro: plain.bst prints January, biber reads 1
    journal = by_title["{A Journal Paper}"]
    assert journal.entry_type == "article" and journal["journal"] == "Journal of Examples" and journal["doi"] == "10.1000/xyz"
    # its DOI's address is its own; publications.bib names the record's page in `biburl`
    assert journal["url"] == "https://doi.org/10.1000/xyz" and journal["biburl"] == "https://user.github.io/repo/records/lovelace2023journal/"
    conference = next(e for e in entries.values() if e.entry_type == "inproceedings")
    assert conference["booktitle"] == "Proceedings of the Example Conference"
    # no address of its own: publications.bib has no `url`, the page's own BibTeX gives the page
    assert "url" not in conference and conference["biburl"] == "https://user.github.io/repo/records/lovelace2025conf/"
    cite = bibtexparser.parse_string(BeautifulSoup(files["records/lovelace2025conf/index.html"], "html.parser").find("pre", class_="bibtex").get_text())
    assert cite.entries[0]["url"] == "https://user.github.io/repo/records/lovelace2025conf/"
    thesis = by_title["{My Thesis}"]
    assert thesis.entry_type == "phdthesis"
    standard = {"article", "inproceedings", "misc", "phdthesis", "mastersthesis", "techreport", "book", "incollection"}
    assert {e.entry_type for e in entries.values()} <= standard


def test_bibtex_keys_are_the_same_on_record_pages(files):
    library = bibtexparser.parse_string(files["publications.bib"].decode())
    for entry in library.entries:
        assert f"@{entry.entry_type}{{{entry.key}," in files["publications.bib"].decode()
    page = files["records/2401.01234/index.html"].decode()
    key = next(e.key for e in library.entries if "eprint" in e and e["eprint"] == "2401.01234")
    assert key in page


def _bib_from(tmp_path, title: str, author: str, source: str) -> str:
    site = write_site(
        tmp_path,
        {
            "content/site.yaml": "title: T\nbase_url: https://e.org/\n",
            "content/profile.yaml": "name: A\n",
        },
    )
    record = {"id": "x", "title": title, "year": 2020, "authors": [author], "source": source}
    (site / "content" / "records").mkdir(exist_ok=True)
    (site / "content" / "records" / "x.yaml").write_text(json.dumps(record), encoding="utf-8")  # JSON is YAML
    return rendered_files(site)["publications.bib"].decode()


@pytest.mark.parametrize("title", ["Ends with a backslash \\", "One { stray", "Other } stray", "Escaped \\} only", "Set $\\{0,1\\}^n$", "100% & #1"])
def test_awkward_titles_still_parse(tmp_path, title):
    library = bibtexparser.parse_string(_bib_from(tmp_path, title, "A. Author", "arXiv"))
    assert library.failed_blocks == [] and len(library.entries) == 1


_bib_tokens = st.sampled_from(["{", "}", "\\", "%", "&", "#", "$", "@", ",", "=", '"', "x", " ", "\\}", "\\{", "}{", "@misc{", "\\textbf{a}", " and "])


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_bib_tokens, min_size=1, max_size=10).map("".join), st.lists(_bib_tokens, max_size=6).map("".join))
def test_any_title_or_venue_gives_parseable_bibtex(title, source):
    problems = []
    record = validate_record(
        {"id": "x", "title": "t " + title, "year": 2020, "authors": ["A " + source], "source": source, "abstract": "a " + title, "categories": ["k" + title]},
        "x.yaml",
        problems,
    )
    site, _ = enrich_site(SiteConfig("T"), Profile("A"), [record], Path("."))
    for full in (False, True):  # the record page's and publications.bib's (its abstract and keywords too)
        library = bibtexparser.parse_string(bibtex_entry(site.entries[0], "https://e.org/records/x/", full=full))
        assert library.failed_blocks == [] and len(library.entries) == 1


# -- feed.xml -----------------------------------------------------------------------


def test_feed_is_valid_atom_newest_first(files):
    feed = feedparser.parse(files["feed.xml"])
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert feed.version == "atom10"
    assert feed.feed.title == "Ada Lovelace: publications"
    assert feed.feed.link == "https://user.github.io/repo/"
    assert [e.link for e in feed.entries] == [f"https://user.github.io/repo/records/{i}/" for i in SHOWN]
    dates = [e.published_parsed for e in feed.entries]
    assert dates == sorted(dates, reverse=True)


def test_every_feed_is_named_in_the_sites_language_and_says_which_it_is(tmp_path):
    """A German site's feeds were titled 'Ada Lovelace: publications', ': news', ': blog' (the pages' links to them say
    'Publikationen'), and feed.xml had no xml:lang."""
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/site.yaml": "title: T\nbase_url: https://example.org/\nlanguage: de\npeople: authors\n",
            "content/records/a.yaml": "id: a\ntitle: Über Reihen\nauthors: [Ada Lovelace]\nyear: 2024\n",
            "content/news/2024-03-05-preis.md": "---\ndate: 2024-03-05\n---\nEin Preis.\n",
            "content/posts/2024-02-01-erster.md": "---\ntitle: Erster Beitrag\n---\nText.\n",
        },
    )
    files = rendered_files(site)
    titles = {}
    for path in ("feed.xml", "news/feed.xml", "posts/feed.xml", "people/ada-lovelace/feed.xml"):
        feed = feedparser.parse(files[path])
        assert feed.bozo == 0, (path, feed.get("bozo_exception"))
        assert ET.fromstring(files[path]).get("{http://www.w3.org/XML/1998/namespace}lang") == "de", path
        titles[path] = feed.feed.title
    assert titles == {
        "feed.xml": "Ada Lovelace: Publikationen",
        "news/feed.xml": "Ada Lovelace: Neuigkeiten",
        "posts/feed.xml": "Ada Lovelace: Blog",
        "people/ada-lovelace/feed.xml": "Ada Lovelace: Publikationen",
    }


def test_feed_text_is_readable_not_latex(files):
    feed = feedparser.parse(files["feed.xml"])
    entry = next(e for e in feed.entries if e.link.endswith("/2401.01234/"))
    assert entry.title == "Faster O(n²) things for R&D: 50% off"
    assert entry.summary == "We show (i) a 1.45× speedup."
    assert [a.name for a in entry.authors] == ["Ada Lovelace", "Lena Müller"]
    assert [t.term for t in entry.tags] == ["cs.DC", "cs.LG"]
    for e in feed.entries:
        for text in (e.title, e.get("summary", "")):
            assert "$" not in text and "\\" not in text


def test_control_characters_do_not_break_the_feed(tmp_path):
    site = write_site(
        tmp_path,
        {
            **{k: v for k, v in SITE.items() if not k.startswith("content/records/")},
            "content/records/x.yaml": 'id: x\ntitle: "Bell \\x07 and escape \\x1b"\nyear: 2020\nabstract: "form \\x0c feed"\ncategories: ["cs.\\x01X"]\n',
        },
    )
    feed = feedparser.parse(rendered_files(site)["feed.xml"])
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert " ".join(feed.entries[0].title.split()) == "Bell and escape"
    assert feed.entries[0].summary == "form feed"


def test_control_characters_reach_no_page(tmp_path):
    site = write_site(
        tmp_path,
        {
            **{k: v for k, v in SITE.items() if not k.startswith("content/records/")},
            "content/records/x.yaml": 'id: x\ntitle: "Bell \\x07 and escape \\x1b"\nyear: 2020\nabstract: "form \\x0c feed \\x7f"\nauthors: ["A\\x00 B"]\n',
        },
    )
    result = render(site)
    assert any("control character" in str(p) for p in result.warnings)
    for name, data in file_bytes(result.files).items():
        if name.endswith((".html", ".xml", ".json", ".bib")):
            assert not re.search(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]", data), name


# -- records.json -------------------------------------------------------------------


def test_records_json(files):
    data = json.loads(files["records.json"])
    assert data["name"] == "Ada Lovelace"
    assert data["count"] == len(data["records"]) == len(SHOWN)
    assert [r["id"] for r in data["records"]] == SHOWN
    first = next(r for r in data["records"] if r["id"] == "2401.01234")
    assert first["title"] == "Faster O(n²) things for R&D: 50% off"
    assert first["title_latex"] == "Faster $O(n^2)$ things for R&D: 50% off"
    assert first["authors"] == ["Ada Lovelace", "Lena Müller"]
    assert first["url"] == "https://user.github.io/repo/records/2401.01234/"
    assert first["date"] == "2024-01-05" and first["year"] == 2024
    assert "secret" not in files["records.json"].decode().lower()


# -- sitemap.xml, robots.txt, .nojekyll, CNAME ---------------------------------------------

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def test_sitemap_lists_every_page_with_absolute_urls(files):
    root = ET.fromstring(files["sitemap.xml"])
    locs = [loc.text for loc in root.iter(f"{SITEMAP}loc")]
    pages = sorted(name for name in files if name.endswith("index.html"))
    assert len(locs) == len(pages)
    assert all(loc.startswith("https://user.github.io/repo/") for loc in locs)
    assert "https://user.github.io/repo/" in locs
    assert "https://user.github.io/repo/records/2401.01234/" in locs
    assert "https://user.github.io/repo/subjects/cs.DC/" in locs
    assert not any("secret" in loc for loc in locs)


def test_base_url_with_or_without_trailing_slash_is_the_same(tmp_path, files):
    site = write_site(tmp_path, {**SITE, "content/site.yaml": SITE["content/site.yaml"].replace("/repo\n", "/repo/\n")})
    assert rendered_files(site) == files


def test_robots_points_at_the_sitemap(files):
    assert "Sitemap: https://user.github.io/repo/sitemap.xml" in files["robots.txt"].decode().splitlines()


def test_nojekyll_and_no_cname_by_default(files):
    assert files[".nojekyll"] == b""
    assert "CNAME" not in files


def test_cname_when_configured(tmp_path):
    site = write_site(tmp_path, {**SITE, "content/site.yaml": "title: T\nbase_url: https://www.example.org/\ncname: www.example.org\n"})
    assert rendered_files(site)["CNAME"] == b"www.example.org\n"


# -- JSON-LD ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["</script><script>alert(1)</script>", "a <!-- b", "x & y > z", "</SCRIPT >"])
def test_script_json_cannot_close_the_script_tag(text):
    encoded = script_json({"name": text})
    assert "</" not in encoded and "<!--" not in encoded
    assert json.loads(encoded) == {"name": text}


def test_an_author_name_holding_and_stays_one_author():
    import bibtexparser

    from sitegen.enrich import enrich_site
    from sitegen.errors import Location
    from sitegen.exports.bibtex import bibtex_entry
    from sitegen.model import Profile, Record, SiteConfig

    record = Record(id="x", title="T", location=Location("r.yaml", 1), authors=("Ada Lovelace", "Research and Development Group"), year=2024)
    site, _ = enrich_site(SiteConfig(title="t"), Profile(name="Ada Lovelace"), [record], __import__("pathlib").Path("."))
    library = bibtexparser.parse_string(bibtex_entry(site.entries[0], "https://example.org/records/x/"))
    authors = library.entries[0]["author"]
    assert authors == "Ada Lovelace and {Research and Development Group}"
    assert len(authors.split(" and {")) == 2


def test_google_scholar_gets_the_arxiv_pdf_when_no_pdf_link_is_given():
    from pathlib import Path

    from sitegen.enrich import enrich_site
    from sitegen.errors import Location
    from sitegen.model import Profile, Record, SiteConfig
    from sitegen.urls import SiteUrls
    from sitegen.views import ViewBuilder

    record = Record(id="2401.00001", title="T", location=Location("r.yaml", 1), year=2024, arxiv="2401.00001")
    site, _ = enrich_site(SiteConfig(title="t", base_url="https://example.org/"), Profile(name="Ada"), [record], Path("."))
    meta = dict(ViewBuilder(site, SiteUrls("https://example.org/"), [], render_item=lambda item: "").highwire(site.entries[0]))
    assert meta["citation_pdf_url"] == "https://arxiv.org/pdf/2401.00001"
    assert meta["citation_arxiv_id"] == "2401.00001"


DETAILED_BIB = r"""@string{jmlr = "Journal of Machine Learning Research"}
@article{muller2020,
  author = {M{\"u}ller, J{\"o}rg and {van der Berg}, Anna and others},
  title = {Divergences},
  journal = jmlr,
  year = 2020,
  month = jun,
  volume = {21},
  number = {4},
  pages = {1--30},
}
@incollection{chapter2021,
  author = {Doe, Jane},
  title = {A chapter},
  booktitle = {Handbook of Things},
  editor = {Roe, Richard and Poe, Edgar},
  publisher = {Springer},
  address = {Cham},
  edition = {2},
  series = {Lecture Notes},
  pages = {55--70},
  isbn = {978-3-16-148410-0},
  year = {2021},
}
@techreport{report2019,
  author = {Doe, Jane},
  title = {A report},
  institution = {Example Lab},
  number = {TR-7},
  year = {2019},
}
@book{book2017,
  author = {Knuth, Donald E.},
  title = {The Art of Computer Programming},
  publisher = {Addison-Wesley},
  edition = {3rd},
  year = {2017},
}
"""


def test_a_bibtex_files_details_reach_every_export(tmp_path):
    """Volume, number, pages, editors, publisher, month and `and others` read from a .bib file, and each
    entry type's venue field, are in
    publications.bib, the record page's BibTeX, RIS and the record page, not dropped on the way."""
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/mine.bib": DETAILED_BIB})
    files = rendered_files(site)
    entries = {entry.key: entry for entry in bibtexparser.parse_string(files["publications.bib"].decode()).entries}
    article = entries["muller2020"]  # the .bib entry's own key
    assert (article["volume"], article["number"], article["pages"], article["month"]) == ("21", "4", "1--30", "jun")
    assert article["author"] == "Jörg Müller and Anna van der Berg and others"
    chapter = entries["chapter2021"]
    assert chapter["editor"] == "Richard Roe and Edgar Poe"
    assert (chapter["publisher"], chapter["address"], chapter["edition"], chapter["series"]) == ("Springer", "Cham", "2", "Lecture Notes")
    assert (chapter["pages"], chapter["isbn"]) == ("55--70", "978-3-16-148410-0")
    report = entries["report2019"]
    assert (report["number"], report["institution"]) == ("TR-7", "Example Lab")
    assert chapter["booktitle"] == "Handbook of Things"
    book = entries["book2017"]
    assert (book.entry_type, book["publisher"], book["edition"]) == ("book", "Addison-Wesley", "3rd")
    assert "howpublished" not in book.fields_dict

    page = BeautifulSoup(files["records/muller2020/index.html"], "html.parser")
    assert page.find("p", class_="authors").get_text() == "Jörg Müller, Anna van der Berg, et al."
    block = bibtexparser.parse_string(page.find("pre", class_="bibtex").get_text()).entries[0]
    assert block.fields_dict.keys() - {"url"} == article.fields_dict.keys() - {"biburl"}

    def scholar_tags(path: str) -> list[tuple[str, str]]:
        soup = BeautifulSoup(files[path], "html.parser")
        return [
            (tag["name"], tag["content"])
            for tag in soup.find_all("meta", attrs={"name": re.compile("^citation_(volume|issue|firstpage|lastpage|isbn|publisher|technical)")})
        ]

    assert scholar_tags("records/muller2020/index.html") == [
        ("citation_volume", "21"),
        ("citation_issue", "4"),
        ("citation_firstpage", "1"),
        ("citation_lastpage", "30"),
    ]
    assert scholar_tags("records/chapter2021/index.html") == [
        ("citation_firstpage", "55"),
        ("citation_lastpage", "70"),
        ("citation_isbn", "978-3-16-148410-0"),
        ("citation_publisher", "Springer"),
    ]
    assert scholar_tags("records/report2019/index.html") == [
        ("citation_technical_report_institution", "Example Lab"),
        ("citation_technical_report_number", "TR-7"),
    ]
    records = {record["id"]: record for record in json.loads(files["records.json"])["records"]}
    assert records["muller2020"]["details"] == {"volume": "21", "number": "4", "pages": "1–30", "month": 6}

    ris = files["publications.ris"].decode()
    article_ris = next(part for part in ris.split("ER  - ") if "TI  - Divergences" in part)
    for line in ("VL  - 21", "IS  - 4", "SP  - 1", "EP  - 30", "DA  - 2020/06"):
        assert line in article_ris


@pytest.mark.parametrize(
    "pages, bibtex, ris",
    [
        ("549-560", "549--560", ("549", "560")),  # Crossref's form
        ("549--560", "549--560", ("549", "560")),  # a .bib file's, read as an en dash
        ("e123", "e123", ("e123", "")),
        ("A-1--A-9", "A-1--A-9", ("A-1–A-9", "")),  # cannot be split for sure: kept whole (RIS as the citations print it)
    ],
)
def test_page_ranges_in_bibtex_and_ris(tmp_path, pages, bibtex, ris):
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.yaml": f"id: a\ntitle: T\nyear: 2020\nsource: J\ntype: article\npages: '{pages}'\n"})
    files = rendered_files(site)
    assert bibtexparser.parse_string(files["publications.bib"].decode()).entries[0]["pages"] == bibtex
    lines = files["publications.ris"].decode().splitlines()
    assert (next(line[6:] for line in lines if line.startswith("SP  - ")), next((line[6:] for line in lines if line.startswith("EP  - ")), "")) == ris


def test_an_underscore_in_text_is_escaped_for_latex_but_not_in_math_or_identifiers(tmp_path):
    """LaTeX stops at a bare `_` in text ("Missing $ inserted"): a title's, a venue's and a note's are
    written `\\_`, while a subscript in math and the DOI keep theirs."""
    bib = r"""@article{a,
  title = {R\&D with snake\_case and C\# at $x_i$},
  author = {Lin, Sheng},
  journal = {Proc. of my_venue},
  note = {See \url{https://example.org/a_b}},
  doi = {10.1000/a_b},
  year = {2024}
}
"""
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.bib": bib})
    entry = bibtexparser.parse_string(rendered_files(site)["publications.bib"].decode()).entries[0]
    assert entry["title"] == r"{R\&D with snake\_case and C\# at $x_i$}"
    assert entry["journal"] == r"Proc. of my\_venue"
    assert entry["note"] == r"See https://example.org/a\_b"  # the reader made the \url text
    assert entry["doi"] == "10.1000/a_b"


NAMES_BIB = r"""@article{lin2024,
  title = {Names},
  author = {Lin, Sheng and Doe, Jr., Jane and {Google DeepMind}},
  journal = {J},
  year = {2024}
}
@misc{hetu2023,
  title = {Hetu},
  author = {{PKU-DAIR Hetu Team}},
  year = {2023}
}
"""
# a YAML record names an organisation as a .bib file does, in braces (quoted: a bare `{` starts a YAML mapping)
NAMES_YAML = 'id: y\ntitle: Y\nyear: 2022\nsource: J\ntype: article\nauthors: ["Ada Lovelace", "{Google DeepMind}", "ATLAS Collaboration"]\n'


def _split_authors(bibtex_text: str) -> dict[str, list]:
    """Title -> each author's (first, last, jr) as BibTeX splits them (bibtexparser's SplitNameParts)."""
    from bibtexparser.middlewares import SeparateCoAuthors, SplitNameParts

    library = bibtexparser.parse_string(bibtex_text, append_middleware=[SeparateCoAuthors(), SplitNameParts()])
    return {entry["title"].strip("{}"): [(" ".join(n.first), " ".join(n.last), " ".join(n.jr)) for n in entry["author"]] for entry in library.entries}


def test_organisations_and_jr_names_keep_their_parts_in_bibtex_ris_and_csl(tmp_path):
    """A name read back from every export has the parts it was written with: 'Doe, Jr., Jane' keeps Doe as
    the last name, and an organisation written in braces is one name, never first name 'Google'."""
    import rispy

    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.bib": NAMES_BIB, "content/records/y.yaml": NAMES_YAML})
    result = render(site)
    files = file_bytes(result.files)
    split = _split_authors(files["publications.bib"].decode())
    assert split["Names"] == [("Sheng", "Lin", ""), ("Jane", "Doe", "Jr."), ("", "{Google DeepMind}", "")]
    assert split["Hetu"] == [("", "{PKU-DAIR Hetu Team}", "")]
    assert split["Y"][1:] == [("", "{Google DeepMind}", ""), ("", "{ATLAS Collaboration}", "")]

    ris = {entry["title"]: entry["authors"] for entry in rispy.loads(files["publications.ris"].decode())}
    assert ris["Names"] == ["Lin, Sheng", "Doe, Jane, Jr.", "Google DeepMind"]
    assert ris["Hetu"] == ["PKU-DAIR Hetu Team"]
    assert ris["Y"] == ["Lovelace, Ada", "Google DeepMind", "ATLAS Collaboration"]

    def csl_authors(path: str) -> list[dict]:
        page = BeautifulSoup(files[path], "html.parser")
        return json.loads(page.find(attrs={"data-csl-item": True})["data-csl-item"])["author"]

    assert csl_authors("records/lin2024/index.html")[1:] == [{"family": "Doe", "given": "Jane", "suffix": "Jr."}, {"literal": "Google DeepMind"}]
    assert csl_authors("records/y/index.html")[1] == {"literal": "Google DeepMind"}
    page = BeautifulSoup(files["records/lin2024/index.html"], "html.parser")
    assert page.find("p", class_="authors").get_text() == "Sheng Lin, Jane Doe Jr., Google DeepMind"  # no braces shown
    assert [a for a in json.loads(files["records.json"])["records"] if a["id"] == "y"][0]["authors"][1] == "Google DeepMind"
    assert not [str(w) for w in result.warnings if "y.yaml" in str(w)]


def test_chinese_japanese_and_korean_names_keep_their_family_name_first_in_every_export(tmp_path):
    """'山田 太郎' is family name 山田: the page shows it so, BibTeX writes 'family, given' (bare, biber would read 山田 as
    the given name), RIS and CSL say which is which; a .bib file's '山田, 太郎' was shown '太郎 山田'."""
    import rispy

    bib = "@article{sato2020, title = {日本語の語順}, author = {佐藤, 花子 and Yamada, Taro}, journal = {言語研究}, year = 2020}\n"
    yaml_record = "id: yamada2024\ntitle: 形態素解析\nauthors: ['山田 太郎', '김철수', 'Lena Müller']\nyear: 2024\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.bib": bib, "content/records/y.yaml": yaml_record})
    files = file_bytes(render(site).files)
    split = _split_authors(files["publications.bib"].decode())
    assert split["形態素解析"] == [("太郎", "山田", ""), ("", "김철수", ""), ("Lena", "Müller", "")]
    assert split["日本語の語順"] == [("花子", "佐藤", ""), ("Taro", "Yamada", "")]
    ris = {entry["title"]: entry["authors"] for entry in rispy.loads(files["publications.ris"].decode())}
    assert ris == {"形態素解析": ["山田, 太郎", "김철수", "Müller, Lena"], "日本語の語順": ["佐藤, 花子", "Yamada, Taro"]}
    page = BeautifulSoup(files["records/sato2020/index.html"], "html.parser")
    assert page.find("p", class_="authors").get_text() == "佐藤 花子, Taro Yamada"
    csl = json.loads(BeautifulSoup(files["records/yamada2024/index.html"], "html.parser").find(attrs={"data-csl-item": True})["data-csl-item"])
    assert csl["author"][:2] == [{"family": "山田", "given": "太郎"}, {"literal": "김철수"}]


CHAPTER_BIB = r"""@incollection{chap,
  title = {A Chapter},
  author = {Lin, Sheng},
  booktitle = {Handbook of Things},
  editor = {Smith, John and Doe, Jane and {IEEE Press Board}},
  publisher = {Springer},
  address = {Berlin},
  edition = {Second},
  series = {LNCS},
  chapter = {4},
  pages = {10--20},
  note = {Invited},
  isbn = {978-3-16-148410-0},
  issn = {0302-9743},
  month = jul,
  year = {2022}
}
"""


def test_a_chapters_editors_and_details_reach_ris_the_citations_and_records_json(tmp_path):
    """docs/content.md: a .bib entry's editors, address, edition, series, chapter, note, ISBN, ISSN and
    month are in its RIS (the RIS spec's tags), its CSL item (APA prints the editors) and records.json."""
    import rispy

    from sitegen.cite import formatted_citation
    from sitegen.prepare import prepare_site, read_inputs

    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.bib": CHAPTER_BIB})
    files = rendered_files(site)
    ris = rispy.loads(files["publications.ris"].decode(), list_tags=[*rispy.LIST_TYPE_TAGS, "SN"])[0]
    assert ris["type_of_reference"] == "CHAP"
    assert ris["secondary_authors"] == ["Smith, John", "Doe, Jane", "IEEE Press Board"]  # A2: the editors
    assert (ris["place_published"], ris["edition"], ris["tertiary_title"], ris["section"]) == ("Berlin", "Second", "LNCS", "4")
    assert (ris["issn"], ris["notes"]) == (["978-3-16-148410-0", "0302-9743"], ["Invited"])  # SN holds ISBN or ISSN

    page = BeautifulSoup(files["records/chap/index.html"], "html.parser")
    item = json.loads(page.find(attrs={"data-csl-item": True})["data-csl-item"])
    assert item["editor"] == [{"family": "Smith", "given": "John"}, {"family": "Doe", "given": "Jane"}, {"literal": "IEEE Press Board"}]
    wanted = {"publisher-place": "Berlin", "edition": "Second", "collection-title": "LNCS", "chapter-number": "4", "note": "Invited"}
    assert {name: item[name] for name in wanted} == wanted
    assert (item["ISBN"], item["ISSN"], item["issued"]) == ("978-3-16-148410-0", "0302-9743", {"date-parts": [[2022, 7]]})
    listing, digests = read_inputs(site)
    entry = prepare_site(site, listing, digests, None).site.entries[0]
    assert "In J. Smith, J. Doe, & IEEE Press Board (eds.), Handbook of Things" in formatted_citation(entry)["apa"].plain

    details = json.loads(files["records.json"])["records"][0]["details"]
    assert (details["editors"], details["month"], details["address"], details["note"]) == (
        ["John Smith", "Jane Doe", "IEEE Press Board"],
        7,
        "Berlin",
        "Invited",
    )


def test_a_yaml_records_editors_are_known_and_exported(tmp_path):
    record = "id: c\ntitle: C\nyear: 2021\nsource: Handbook\ntype: chapter\neditors: [John Smith, '{IEEE Press Board}']\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/c.yaml": record})
    result = render(site)
    assert not [str(w) for w in result.warnings if "editors" in str(w)]
    files = file_bytes(result.files)
    assert bibtexparser.parse_string(files["publications.bib"].decode()).entries[0]["editor"] == "John Smith and {IEEE Press Board}"
    assert "A2  - Smith, John\r\nA2  - IEEE Press Board\r\n" in files["publications.ris"].decode()


PUBLISHED_LOBRA = """id: W4412853019
title: 'LobRA: Multi-tenant Fine-tuning'
authors: [Ada Lovelace]
year: 2025
source: Proceedings of the VLDB Endowment
type: article
links: {pdf: 'https://www.vldb.org/p4209-lin.pdf', doi: 'https://doi.org/10.14778/3742728.3742752', openalex: 'https://openalex.org/W4412853019'}
doi: 10.14778/3742728.3742752
arxiv: '2509.01193'
origin: openalex
"""
PREPRINT_LOBRA = """id: W4414120376
title: 'LobRA: Multi-tenant Fine-tuning'
authors: [Ada Lovelace]
year: 2025
source: arXiv (Cornell University)
type: preprint
links: {pdf: 'https://arxiv.org/pdf/2509.01193', doi: 'https://doi.org/10.48550/arxiv.2509.01193', openalex: 'https://openalex.org/W4414120376'}
arxiv: '2509.01193'
origin: openalex
"""


@pytest.mark.parametrize(
    "language, labels",
    [
        ("en", ["arXiv", "PDF", "PDF (preprint)", "DOI", "DOI (preprint)", "OpenAlex", "OpenAlex (preprint)"]),
        ("de", ["arXiv", "PDF", "PDF (Preprint)", "DOI", "DOI (Preprint)", "OpenAlex", "OpenAlex (Preprint)"]),
    ],
)
def test_a_merged_records_links_say_which_version_each_leads_to(tmp_path, language, labels):
    """One work from two OpenAlex records (the published article and its preprint): each link is labelled
    as its kind is, in the site's language, and the preprint's say they are the preprint's."""
    site = write_site(
        tmp_path,
        {
            "content/site.yaml": f"title: T\nbase_url: https://example.org/\nlanguage: {language}\n",
            "content/profile.yaml": "name: Ada Lovelace\n",
            "content/records/openalex/W4412853019.yaml": PUBLISHED_LOBRA,
            "content/records/openalex/W4414120376.yaml": PREPRINT_LOBRA,
        },
    )
    files = rendered_files(site)
    # the work's page (the other version's page leads there)
    [record_page] = [path for path in files if path.startswith("records/") and path.endswith("/index.html") and b'http-equiv="refresh"' not in files[path]]
    page = BeautifulSoup(files[record_page], "html.parser")
    links = [(a.get_text(), a["href"]) for a in page.select("main ul.links a")]
    assert [label for label, _ in links] == labels
    assert dict(links)[labels[4]] == "https://doi.org/10.48550/arxiv.2509.01193"
    listed = BeautifulSoup(files["index.html"], "html.parser").select("ul.links a")
    assert [a.contents[1].strip() for a in listed][:3] == labels[:3]  # lists say it too (before the hidden "for <title>")


# -- one reading of a record for every format: its address, volume, venue and version ------------------------------

READER_FIXTURES = Path(__file__).parent.parent / "fixtures" / "reader-exports"
READER_SITE = {
    "content/site.yaml": "title: Readers\nbase_url: https://x.github.io/repo/\n",
    "content/profile.yaml": "name: Hans Gruß\n",
    **{f"content/records/{path.name}": path.read_text(encoding="utf-8") for path in READER_FIXTURES.iterdir() if path.suffix in (".bib", ".yaml")},
    "content/records/thesis.yaml": "id: thesis\ntitle: My Thesis\nauthors: [Hans Gruß]\ndate: 2021-09-24\nsource: PhD thesis, University of Nordhaven\ntype: thesis\n",
    "content/records/tool.yaml": "id: tool\ntitle: A Tool\nauthors: [Hans Gruß]\nyear: 2024\ntype: software\nversion: '2.0'\nlinks: {code: 'https://github.com/h/tool'}\n",
}


@pytest.fixture(scope="module")
def reader_files(tmp_path_factory) -> dict[str, bytes]:
    return rendered_files(write_site(tmp_path_factory.mktemp("readers"), READER_SITE))


def _record_page(files: dict[str, bytes], slug: str):
    return lxml.html.fromstring(files[f"records/{slug}/index.html"])


def _cite_bibtex(files: dict[str, bytes], slug: str) -> dict[str, str]:
    text = _record_page(files, slug).xpath("//pre[contains(@class, 'bibtex')]")[0].text_content()
    return {f.key: f.value for f in bibtexparser.parse_string(text).entries[0].fields}


def _csl(files: dict[str, bytes], slug: str) -> dict:
    return json.loads(_record_page(files, slug).xpath("//*[@data-csl-item]")[0].get("data-csl-item"))


def _ris(files: dict[str, bytes]) -> dict[str, list[tuple[str, str]]]:
    """publications.ris: title -> the entry's (tag, value) lines."""
    entries = {}
    for part in files["publications.ris"].decode().split("ER  - ")[:-1]:
        lines = [(line[:2], line[6:]) for line in part.strip().splitlines()]
        entries[next(value for tag, value in lines if tag == "TI")] = lines
    return entries


def _bib_file(files: dict[str, bytes]) -> dict[str, dict[str, str]]:
    return {e.key: {f.key: f.value for f in e.fields} for e in bibtexparser.parse_string(files["publications.bib"].decode()).entries}


@pytest.mark.parametrize(
    "slug, title, url",
    [
        ("2301.00001", "Only an arXiv id", "https://arxiv.org/abs/2301.00001"),  # YAML `arxiv:` alone
        ("lovelace2023sketch", "Sketching attention in O(n log n)", "https://arxiv.org/abs/2301.01234"),  # Scholar's arXiv journal
        ("rec02", "Sparse Recovery with ℓ₁ Minimization Part 2", "https://arxiv.org/abs/2302.00002"),  # @misc with eprint
        ("ydoi", "Only a DOI", "https://doi.org/10.1000/xyz123"),  # YAML `doi:` alone
    ],
)
def test_a_record_known_by_its_identifier_is_cited_with_that_address(reader_files, slug, title, url):
    """BibTeX `url`, RIS `UR` and the CSL item (so APA and IEEE) give the arXiv or DOI address, not the site's page."""
    page_url = f"https://x.github.io/repo/records/{slug}/"
    key = _record_page(reader_files, slug).xpath("//pre[contains(@class, 'bibtex')]")[0].text_content().split("{", 1)[1].split(",", 1)[0]
    assert _cite_bibtex(reader_files, slug)["url"] == url
    full = _bib_file(reader_files)[key]
    assert (full["url"], full["biburl"]) == (url, page_url)
    assert ("UR", url) in _ris(reader_files)[title]
    csl = _csl(reader_files, slug)
    assert csl.get("URL") == url or csl.get("DOI") == url.removeprefix("https://doi.org/")


def test_dblp_corr_volume_is_in_no_citation(reader_files):
    """dblp's `volume = {abs/2302.05678}` is the arXiv id, not a volume: APA would print it as a subtitle."""
    slug = "DBLP-journals-corr-abs-2302-05678"
    csl = _csl(reader_files, slug)
    assert "volume" not in csl and csl["number"] == "arXiv:2302.05678"
    ris = _ris(reader_files)["Gossip SGD"]
    assert not [value for tag, value in ris if tag == "VL"]
    header = _record_page(reader_files, slug).xpath("//header[@class='record-header']")[0]
    assert "abs/" not in header.text_content() and not header.xpath(".//dl[@class='details']")
    from sitegen.cite import _format  # citeproc-py on the page's item, as citeproc-js formats it in the browser

    assert "Abs/" not in _format("apa", csl).plain and "abs/" not in _format("ieee", csl).plain


def test_a_thesis_names_its_institution_alone_everywhere(reader_files):
    page = _record_page(reader_files, "thesis")
    assert " ".join(page.xpath("//p[@class='venue']")[0].text_content().split()).startswith("PhD thesis · University of Nordhaven ·")
    assert page.xpath("//meta[@name='citation_dissertation_institution']/@content") == ["University of Nordhaven"]
    assert _cite_bibtex(reader_files, "thesis")["school"] == "University of Nordhaven"
    assert _bib_file(reader_files)["gru2021my"]["school"] == "University of Nordhaven"
    jsonld = json.loads(page.xpath("//script[@type='application/ld+json']")[0].text)
    assert jsonld["publisher"]["name"] == "University of Nordhaven"
    assert (_csl(reader_files, "thesis")["publisher"], _csl(reader_files, "thesis")["genre"]) == ("University of Nordhaven", "PhD thesis")
    assert ("M3", "PhD thesis") in _ris(reader_files)["My Thesis"] and ("PB", "University of Nordhaven") in _ris(reader_files)["My Thesis"]


@pytest.mark.parametrize(
    "source, entry_type, label, type_field",
    [
        ("Master's thesis, ETH Zurich", "mastersthesis", "Master's thesis", None),
        ("Bachelor's thesis: ETH Zurich", "mastersthesis", "Bachelor's thesis", "Bachelor's thesis"),
        ("ETH Zurich", "phdthesis", "Thesis", None),  # no degree named: BibTeX has no other entry
    ],
)
def test_a_thesis_degree_named_in_its_venue_becomes_its_bibtex_entry(tmp_path, source, entry_type, label, type_field):
    record = f'id: t\ntitle: T\nauthors: [Ada Lovelace]\nyear: 2020\ntype: thesis\nsource: "{source}"\n'
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/t.yaml": record}))
    entry = bibtexparser.parse_string(files["publications.bib"].decode()).entries[0]
    assert (entry.entry_type, entry["school"], entry.fields_dict.get("type") and entry["type"]) == (entry_type, "ETH Zurich", type_field)
    venue = lxml.html.fromstring(files["records/t/index.html"]).xpath("//p[@class='venue']")[0].text_content()
    assert " ".join(venue.split()).startswith(f"{label} · ETH Zurich ·")


def test_a_bachelors_thesis_read_back_from_publications_bib_is_still_a_bachelors(tmp_path):
    """publications.bib says a bachelor's thesis as `@mastersthesis` with `type = {Bachelor's thesis}` (BibTeX has no
    entry of its own): a site that reads that file back shows the same degree, not a master's."""
    record = 'id: t\ntitle: T\nauthors: [Ada Lovelace]\nyear: 2020\ntype: thesis\nsource: "Bachelor\'s thesis, ETH Zurich"\n'
    written = rendered_files(write_site(tmp_path / "one", {**MINIMAL_SITE, "content/records/t.yaml": record}))["publications.bib"].decode()
    files = rendered_files(write_site(tmp_path / "two", {**MINIMAL_SITE, "content/records/mine.bib": written}))
    (page,) = [name for name in files if name.startswith("records/") and name.endswith("/index.html")]
    venue = lxml.html.fromstring(files[page]).xpath("//p[@class='venue']")[0].text_content()
    assert " ".join(venue.split()).startswith("Bachelor's thesis · ETH Zurich ·")


@pytest.mark.parametrize("slug, title, version", [("rec05", "Fast Multipole Methods Revisited Part 5", "1.2.0"), ("tool", "A Tool", "2.0")])
def test_a_programs_version_reaches_every_format(reader_files, slug, title, version):
    csl = _csl(reader_files, slug)
    assert csl["version"] == version
    from sitegen.cite import _format

    assert f"(Version {version})" in _format("apa", csl).plain
    assert ("ET", version) in _ris(reader_files)[title]
    records = {r["id"]: r for r in json.loads(reader_files["records.json"])["records"]}
    assert records[slug]["details"]["version"] == version
    jsonld = json.loads(_record_page(reader_files, slug).xpath("//script[@type='application/ld+json']")[0].text)
    assert (jsonld["@type"], jsonld["version"]) == ("SoftwareSourceCode", version)


# What Zotero's "Embedded Metadata" translator (zotero/translators, 2024) reads from a record page: the authors
# split at their comma ("Family, Given"; without one at the last space), `citation_editor`, `citation_abstract`
# (else it takes the meta description, cut short or made of the byline).
ZOTERO_SITE = {
    **MINIMAL_SITE,
    "content/records/chapter.yaml": (
        "id: chapter2024\ntype: chapter\ntitle: Numerical Models of Lagoons\n"
        "authors: [Ada Lovelace, Jan van der Berg, 'Doe, Jr., John', '{IOC-UNESCO Working Group}']\n"
        "editors: [Hans Becker, 'Romano, Lucia']\nyear: 2024\nsource: Coastal Lagoons of Europe\npublisher: Springer\n"
        "abstract: |\n  " + "A long first paragraph of the abstract, longer than a link preview's description. " * 5 + "\n\n"
        "  A second paragraph with [a link](https://example.org) and $O(n^2)$.\n"
    ),
    "content/records/bare.yaml": "id: bare2021\ntype: article\ntitle: Storms\nauthors: [Ada Lovelace]\nyear: 2021\nsource: Oceanologia\n",
}


def _zotero_page(tmp_path: Path, slug: str) -> lxml.html.HtmlElement:
    files = rendered_files(write_site(tmp_path, ZOTERO_SITE))
    return lxml.html.fromstring(files[f"records/{slug}/index.html"])


def test_citation_authors_and_editors_are_family_name_first(tmp_path):
    page = _zotero_page(tmp_path, "chapter2024")
    assert page.xpath("//meta[@name='citation_author']/@content") == [
        "Lovelace, Ada",
        "van der Berg, Jan",
        "Doe, John, Jr.",
        "IOC-UNESCO Working Group",
    ]
    assert page.xpath("//meta[@name='citation_editor']/@content") == ["Becker, Hans", "Romano, Lucia"]
    assert page.xpath("//meta[@name='citation_inbook_title']/@content") == ["Coastal Lagoons of Europe"]


def test_citation_abstract_is_the_whole_abstract_as_text(tmp_path):
    page = _zotero_page(tmp_path, "chapter2024")
    [abstract] = page.xpath("//meta[@name='citation_abstract']/@content")
    assert abstract.startswith("A long first paragraph") and abstract.endswith("A second paragraph with a link and O(n²).")
    assert "…" not in abstract and len(abstract) > len(page.xpath("//meta[@name='description']/@content")[0])
    assert not _zotero_page(tmp_path, "bare2021").xpath("//meta[@name='citation_abstract']")  # none rather than the byline


def test_a_pdf_whose_file_name_has_spaces_is_a_url_in_the_scholar_tag(tmp_path):
    record = "id: r\ntype: article\ntitle: T\nauthors: [Ada Lovelace]\nyear: 2020\nsource: J\nlinks: {pdf: 'static/papers/My Paper (final).pdf'}\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/r.yaml": record, "static/papers/My Paper (final).pdf": "%PDF-1.4"})
    page = lxml.html.fromstring(rendered_files(site)["records/r/index.html"])
    assert page.xpath("//meta[@name='citation_pdf_url']/@content") == ["https://example.org/static/papers/My%20Paper%20(final).pdf"]


def test_a_records_language_is_in_every_export(tmp_path):
    """A record's `language` reaches publications.bib (biblatex's `langid`, a babel name, read back as the same
    language), publications.ris (LA), the CSL item the citations are made from (`language`: citeproc leaves the
    case of a title not in English as written) and the record page's JSON-LD (`inLanguage`)."""
    site = write_site(
        tmp_path,
        {
            "content/site.yaml": "title: T\nbase_url: https://e.org/\n",
            "content/profile.yaml": "name: A\n",
            "content/records/x.yaml": "id: x\ntitle: Über die Konvergenz\nauthors: [A]\nyear: 2020\nsource: Informatik Spektrum\nlanguage: German\n",
            "content/records/y.yaml": "id: y\ntitle: Another\nauthors: [A]\nyear: 2021\nsource: J\nlanguage: pt-BR\n",
        },
    )
    built = rendered_files(site)
    bib = bibtexparser.parse_string(built["publications.bib"].decode())
    assert {entry.fields_dict["title"].value: entry.fields_dict["langid"].value for entry in bib.entries} == {
        "{Über die Konvergenz}": "german",
        "{Another}": "brazilian",
    }
    assert "LA  - de\r\n" in built["publications.ris"].decode() and "LA  - pt-BR\r\n" in built["publications.ris"].decode()
    page = BeautifulSoup(built["records/x/index.html"], "lxml")
    assert json.loads(page.find("section", class_="cite").find("details")["data-csl-item"])["language"] == "de"
    article = next(json.loads(s.string) for s in page.find_all("script", type="application/ld+json") if "ScholarlyArticle" in s.string)
    assert article["inLanguage"] == "de"
    again = write_site(tmp_path / "again", {"content/site.yaml": "title: T\nbase_url: https://e.org/\n", "content/profile.yaml": "name: A\n"})
    (again / "content" / "records").mkdir(exist_ok=True)
    (again / "content" / "records" / "all.bib").write_bytes(built["publications.bib"])
    pages = {path: BeautifulSoup(html, "lxml") for path, html in rendered_files(again).items() if re.fullmatch(r"records/[^/]+/index\.html", path)}
    assert sorted((page.find("h1").get_text(), page.find("h1")["lang"]) for page in pages.values()) == [("Another", "pt-BR"), ("Über die Konvergenz", "de")]


def test_a_month_is_written_as_bibtexs_macro_and_read_back_as_its_number(tmp_path):
    """plain.bst and the other classic styles print `month = {3}` as '3 2024' and `month = mar` as 'March 2024';
    biber reads either as 3. A month that is no number ('4 June', as a .bib may give it) stays as written."""
    from sitegen.sources.bibtex import read_bibtex_records

    problems: list = []
    dated = validate_record({"id": "x", "title": "T", "year": 2024, "date": "2024-03-05", "authors": ["A B"]}, "x.yaml", problems)
    worded = validate_record({"id": "y", "title": "U", "year": 2024, "month": "4 June", "authors": ["A B"]}, "y.yaml", problems)
    site, _ = enrich_site(SiteConfig("T"), Profile("A"), [dated, worded], Path("."))
    written = {entry.record.id: bibtex_entry(entry, "https://e.org/records/x/", full=True) for entry in site.entries}
    assert "  month = mar,\n" in written["x"] and "  month = {4 June},\n" in written["y"]
    (mapping,), _ = read_bibtex_records(written["x"], "back.bib")
    assert mapping["month"] == 3


def test_the_persons_json_ld_names_the_other_ways_the_name_is_written():
    """A search engine ties 'Taro Yamada' and '山田 太郎' to one person only when the page says so: each variant once,
    LaTeX converted, the name itself not repeated."""
    from sitegen.exports.jsonld import person_json_ld

    profile = Profile("山田 太郎", name_variants=("Taro Yamada", "T. Yamada", "山田 太郎", "Taro Yamada", 'T. Yamad{\\"a}'))
    data = person_json_ld(profile, "https://example.org/")
    assert data["alternateName"] == ["Taro Yamada", "T. Yamada", "T. Yamadä"]
    assert "alternateName" not in person_json_ld(Profile("Ada Lovelace"), "https://example.org/")


@pytest.mark.parametrize(
    "type_field, label, entry_type",
    [("phdthesis", "PhD thesis", "phdthesis"), ("mathesis", "Master's thesis", "mastersthesis"), ("{PhD} dissertation", "PhD thesis", "phdthesis")],
)
def test_a_biblatex_thesis_says_its_degree_with_biblatexs_key(tmp_path, type_field, label, entry_type):
    """biblatex's `@thesis{type = {phdthesis}}` (its key for "PhD thesis", and what Zotero writes for a PhD) was shown
    as "Thesis": the degree was read only from words such as "PhD thesis"."""
    bib = f"@thesis{{t, title = {{Les huguenots de la Baltique}}, author = {{Lovelace, Ada}}, institution = {{EHESS}}, type = {{{type_field}}}, date = 2010}}\n"
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/t.bib": bib}))
    venue = lxml.html.fromstring(files["records/t/index.html"]).xpath("//p[@class='venue']")[0].text_content()
    assert " ".join(venue.split()).startswith(f"{label} · EHESS ·")
    entry = bibtexparser.parse_string(files["publications.bib"].decode()).entries[0]
    assert (entry.entry_type, entry["school"]) == (entry_type, "EHESS")


def test_a_double_issue_is_a_bibtex_range_as_pages_are(tmp_path):
    """`number = {1--2}` (a double issue) was written back as `number = {1–2}`, an en dash, while pages kept `--`."""
    bib = "@article{a, title = {Letters from Marseille}, author = {Lovelace, Ada}, journal = {JESHO}, volume = {59}, number = {1--2}, pages = {1--30}, year = 2016}\n"
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.bib": bib}))
    entry = bibtexparser.parse_string(files["publications.bib"].decode()).entries[0]
    assert (entry["number"], entry["pages"]) == ("1--2", "1--30")


# A working paper as RePEc/IDEAS, NBER, SSRN and Zotero export it: the series in `type`, its number in `number`
WORKING_PAPER_BIB = """@techreport{RePEc:nbr:nberwo:31567,
  title = {Local Labor Markets and the Incidence of Payroll Taxes},
  author = {Kim, David and Lovelace, Ada},
  year = {2023},
  institution = {National Bureau of Economic Research},
  type = {NBER Working Paper},
  number = {31567},
}
"""


def _venue_line(page) -> str:
    return " ".join(page.xpath("//p[@class='venue']")[0].text_content().split())


def test_a_working_papers_series_and_number_are_shown_and_exported(tmp_path):
    """An economist's working paper is known by its series and number ("NBER Working Paper No. 31567"): the .bib's
    `type` is shown with the number wherever the record is listed, and written back to BibTeX, RIS and CSL."""
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/wp.bib": WORKING_PAPER_BIB}))
    slug = "RePEc-nbr-nberwo-31567"
    page = _record_page(files, slug)
    assert _venue_line(page).startswith("NBER Working Paper No. 31567 · National Bureau of Economic Research · 2023")
    assert not page.xpath("//dl[@class='details']//dt[normalize-space()='Number']")  # said once, in the venue line
    listed = lxml.html.fromstring(files["index.html"]).xpath(f"//li[@id='r-{slug}']//p[@class='venue']")[0]
    assert " ".join(listed.text_content().split()).startswith("NBER Working Paper No. 31567 · National Bureau of Economic Research")
    full = _bib_file(files)["RePEc:nbr:nberwo:31567"]
    assert (full["type"], full["number"], full["institution"]) == ("NBER Working Paper", "31567", "National Bureau of Economic Research")
    assert _cite_bibtex(files, slug)["type"] == "NBER Working Paper"
    ris = _ris(files)["Local Labor Markets and the Incidence of Payroll Taxes"]
    assert ("M3", "NBER Working Paper") in ris and ("SN", "31567") in ris  # Zotero's reportNumber
    csl = _csl(files, slug)
    assert (csl["genre"], csl["number"]) == ("NBER Working Paper", "31567")
    from sitegen.cite import _format

    assert "(NBER Working Paper No. 31567)" in _format("apa", csl).plain
    records = {r["id"]: r for r in json.loads(files["records.json"])["records"]}
    assert records["RePEc:nbr:nberwo:31567"]["details"]["report_type"] == "NBER Working Paper"


def test_a_yaml_working_paper_names_its_series_and_reads_back_from_publications_bib(tmp_path):
    record = (
        "id: ui\ntitle: Unemployment Insurance and Search\nauthors: [Ada Lovelace]\nyear: 2025\ntype: report\n"
        "source: Institute of Labor Economics (IZA)\nreport_type: IZA Discussion Paper\nnumber: '16234'\n"
    )
    files = rendered_files(write_site(tmp_path / "one", {**MINIMAL_SITE, "content/records/ui.yaml": record}))
    assert _venue_line(_record_page(files, "ui")).startswith("IZA Discussion Paper No. 16234 · Institute of Labor Economics (IZA) ·")
    again = rendered_files(write_site(tmp_path / "two", {**MINIMAL_SITE, "content/records/mine.bib": files["publications.bib"].decode()}))
    (page,) = [name for name in again if name.startswith("records/") and name.endswith("/index.html")]
    assert _venue_line(lxml.html.fromstring(again[page])).startswith("IZA Discussion Paper No. 16234 · Institute of Labor Economics (IZA) ·")


def test_a_report_with_a_number_and_no_series_says_report_no(tmp_path):
    record = "id: r\ntitle: T\nauthors: [Ada Lovelace]\nyear: 2024\ntype: report\nsource: Centre for Economic Policy Research\nnumber: DP18901\n"
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/r.yaml": record}))
    assert _venue_line(_record_page(files, "r")).startswith("Report No. DP18901 · Centre for Economic Policy Research ·")


def test_biblatexs_report_type_keys_are_read_as_words(tmp_path):
    bib = "@report{r, title = {T}, author = {Lovelace, Ada}, year = {2020}, institution = {EMBL}, type = {techreport}, number = {7}}\n"
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/r.bib": bib}))
    assert _venue_line(_record_page(files, "r")).startswith("Technical report No. 7 · EMBL ·")


# An RFC as the IETF's datatracker exports it ("bibtex" on the RFC's page)
DATATRACKER_RFC_BIB = """@misc{rfc9420,
    series =    {Request for Comments},
    number =    9420,
    howpublished =  {RFC 9420},
    publisher = {RFC Editor},
    doi =       {10.17487/RFC9420},
    url =       {https://www.rfc-editor.org/info/rfc9420},
    author =    {Ada Lovelace and Daniel Okafor},
    title =     {{The Messaging Layer Security (MLS) Protocol}},
    year =      2023,
    month =     jul,
}
"""


def test_an_rfc_from_the_datatracker_is_listed_and_cited_as_rfc_and_its_number(tmp_path):
    """The datatracker's `@misc` of an RFC was "Other · RFC Editor" with its number listed as its "Issue", and
    publications.bib lost `howpublished = {RFC 9420}`: a `@misc` whose `number` no BibTeX style prints."""
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/ietf.bib": DATATRACKER_RFC_BIB}))
    page = _record_page(files, "rfc9420")
    assert _venue_line(page).startswith("RFC 9420 · RFC Editor · 2023")
    assert not page.xpath("//dl[@class='details']//dt[normalize-space()='Issue' or normalize-space()='Number']")
    listed = lxml.html.fromstring(files["index.html"]).xpath("//li[@id='r-rfc9420']//p[@class='venue']")[0]
    assert " ".join(listed.text_content().split()).startswith("RFC 9420 · RFC Editor")
    entry = next(e for e in bibtexparser.parse_string(files["publications.bib"].decode()).entries if e.key == "rfc9420")
    assert entry.entry_type == "techreport"  # printed "RFC 9420, RFC Editor" by every BibTeX style
    assert (entry["type"], entry["number"], entry["institution"]) == ("RFC", "9420", "RFC Editor")
    ris = _ris(files)["The Messaging Layer Security (MLS) Protocol"]
    assert ("TY", "RPRT") in ris and ("M3", "RFC") in ris and ("SN", "9420") in ris  # Zotero's report type and number
    records = {r["id"]: r for r in json.loads(files["records.json"])["records"]}
    assert (records["rfc9420"]["type"], records["rfc9420"]["details"]["report_type"]) == ("report", "RFC")


@pytest.mark.parametrize(
    "record",
    [
        # Google Scholar's RFC: the number only in `note`
        (
            "content/records/s.bib",
            "@misc{x, title={Oblivious HTTP}, author={Lovelace, Ada}, year={2024},\n  publisher={Internet Engineering Task Force}, note={RFC 9458}}\n",
        ),
        # a YAML record (or ORCID's, Crossref's) with only the RFC Editor's DOI
        ("content/records/x.yaml", "id: x\ntitle: Oblivious HTTP\nauthors: [Ada Lovelace]\nyear: 2024\ndoi: 10.17487/RFC9458\n"),
        # Zotero's report (its BibTeX and CSL JSON): the report type 'Request for Comments' ("Request for Comments No.
        # 9458" before), with or without the DOI
        (
            "content/records/z.bib",
            "@techreport{x, title = {Oblivious {HTTP}}, number = {9458}, institution = {Internet Engineering Task Force},\n"
            "  author = {Lovelace, Ada}, type = {Request for {Comments}}, year = {2024}}\n",
        ),
        (
            "content/records/z.json",
            '[{"id": "x", "type": "report", "title": "Oblivious HTTP", "author": [{"family": "Lovelace", "given": "Ada"}],'
            ' "issued": {"date-parts": [[2024, 1]]}, "number": "9458", "genre": "Request for Comments",'
            ' "publisher": "Internet Engineering Task Force", "DOI": "10.17487/RFC9458"}]',
        ),
    ],
)
def test_an_rfc_known_by_its_note_or_its_doi_is_rfc_and_its_number(tmp_path, record):
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, record[0]: record[1]}))
    assert _venue_line(_record_page(files, "x")).startswith("RFC 9458 ·")
    ris = _ris(files)["Oblivious HTTP"]
    assert ("TY", "RPRT") in ris and ("SN", "9458") in ris
    assert _bib_file(files)[next(iter(_bib_file(files)))]["number"] == "9458"


def test_an_internet_draft_and_a_standard_are_named_by_their_series_and_number_without_no(tmp_path):
    draft = (
        "@techreport{ietf-mls-extensions-03, number = {draft-ietf-mls-extensions-03}, type = {Internet-Draft},\n"
        "  institution = {Internet Engineering Task Force}, note = {Work in Progress},\n"
        "  author = {Ada Lovelace}, title = {{The Messaging Layer Security (MLS) Extensions}}, year = 2024}\n"
    )
    standard = "id: std\ntitle: MAC Security\nauthors: [Ada Lovelace]\nyear: 2018\ntype: report\nsource: IEEE\nreport_type: IEEE Std\nnumber: 802.1AE-2018\n"
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/d.bib": draft, "content/records/std.yaml": standard}))
    venue = _venue_line(_record_page(files, "ietf-mls-extensions-03"))
    assert venue.startswith("Internet-Draft draft-ietf-mls-extensions-03 · Internet Engineering Task Force · 2024")
    assert _venue_line(_record_page(files, "std")).startswith("IEEE Std 802.1AE-2018 · IEEE · 2018")


def test_a_patents_number_is_in_its_citations(tmp_path):
    """A patent's number was the CSL item's `issue`, which no style prints for a patent: APA, IEEE and Vancouver cited
    it by its title and year alone."""
    bib = "@patent{p, title = {Method for measuring path latency}, author = {Lovelace, Ada}, number = {US Patent 11,503,892}, year = 2022}\n"
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/p.bib": bib}))
    csl = _csl(files, "p")
    assert csl["number"] == "US Patent 11,503,892" and "issue" not in csl
    from sitegen.cite import _format

    assert "US Patent 11,503,892" in _format("ieee", csl).plain
    assert "US Patent 11,503,892" in _format("vancouver", csl).plain


@pytest.mark.parametrize(
    "number, apa, chicago",
    [
        ("US Patent 11,503,892", "(US Patent No", "US Patent 11,503,892, issued 2022"),
        ("US Patent App. 17/845,221", "(US Patent App. No", "US Patent App. 17/845,221, issued 2022"),
        ("U.S. Patent No. 9,265,012", "(U.S. Patent No", "U.S. Patent 9,265,012, issued 2022"),
        ("US 10,123,456 B2", "(Patent No", "Patent US 10,123,456 B2, issued 2022"),  # says no "Patent": the style's own
    ],
)
def test_apa_and_chicago_name_a_patent_once(tmp_path, number, apa, chicago):
    """APA cited Google Scholar's "US Patent 11,503,892" as "(Patent No. US Patent 11,503,892)" and Chicago as "Patent US
    Patent 11,503,892": both print "Patent" before the number. They get the number's office and kind as CSL's
    `authority` and `genre` (APA 7's "(U.S. Patent No. 9,265,012)", CMOS 14.158's "US Patent 7,123,456"); IEEE and
    Vancouver, which print the number alone, still print it as written."""
    bib = f"@patent{{p, title = {{Method for measuring path latency}}, author = {{Lovelace, Ada}}, number = {{{number}}}, year = 2022}}\n"
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/p.bib": bib}))
    csl = _csl(files, "p")
    from sitegen.cite import _format

    apa_text, chicago_text = _format("apa", csl).plain, _format("chicago", csl).plain
    digits = number.split()[-2] if number.endswith("B2") else number.split()[-1]
    assert apa in apa_text and digits in apa_text and apa_text.count("Patent") == 1, apa_text
    assert chicago in chicago_text and chicago_text.count("Patent") == 1, chicago_text
    assert f"“Method for measuring path latency”, {number}, 2022" in _format("ieee", csl).plain
    assert f"latency. {number}, 2022." in _format("vancouver", csl).plain


def test_the_profiles_count_says_works_when_its_list_holds_more_than_publications(tmp_path):
    """The profile said "3 publications" of a paper, a patent and a program, which a reader of a CV takes for three
    papers: the list's count says "works" (ORCID's word for them all) when it holds a patent, software, a dataset or
    a web page, and "publications" when it holds only publications, as before; the search line says the same."""
    paper = "id: paper\ntitle: A Paper\nauthors: [Ada Lovelace]\nyear: 2022\ntype: article\nsource: J. Ex.\ncategories: [cs.DS]\n"
    patent = "id: pat\ntitle: A Method\nauthors: [Ada Lovelace]\nyear: 2022\ntype: patent\nnumber: US Patent 11,503,892\ncategories: [cs.DS]\n"
    program = "id: prog\ntitle: A Program\nauthors: [Ada Lovelace]\nyear: 2023\ntype: software\n"

    def counts(files, page):
        html = lxml.html.fromstring(files[page])
        return [" ".join(node.text_content().split()) for node in html.xpath('//p[@class="count" or @class="search-count"]')]

    mixed = rendered_files(
        write_site(tmp_path / "mixed", {**MINIMAL_SITE, "content/records/a.yaml": paper, "content/records/b.yaml": patent, "content/records/c.yaml": program})
    )
    assert [line.split(" (")[0] for line in counts(mixed, "index.html")] == ["3 works", "3 works"]
    assert counts(mixed, "subjects/cs.DS/index.html")[0].startswith("2 works by Ada Lovelace")
    papers = rendered_files(write_site(tmp_path / "papers", {**MINIMAL_SITE, "content/records/a.yaml": paper}))
    assert counts(papers, "index.html")[0] == "1 publication"


def test_the_subject_lists_count_says_what_the_subjects_own_page_says(tmp_path):
    """The profile's list of subjects (and the 404 page's) said "2 publications" to a screen reader of a subject whose
    own page says "2 works" (it holds a patent): a subject's count has one word wherever it is shown."""
    paper = "id: paper\ntitle: A Paper\nauthors: [Ada Lovelace]\nyear: 2022\ntype: article\nsource: J. Ex.\ncategories: [cs.DS, math.NT]\n"
    patent = "id: pat\ntitle: A Method\nauthors: [Ada Lovelace]\nyear: 2022\ntype: patent\nnumber: US Patent 11,503,892\ncategories: [cs.DS]\n"
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.yaml": paper, "content/records/b.yaml": patent}))
    subject_page = lxml.html.fromstring(files["subjects/cs.DS/index.html"]).xpath('string(//p[@class="count"])')
    assert " ".join(subject_page.split()).startswith("2 works")
    for page in ("index.html", "404.html"):
        html = lxml.html.fromstring(files[page])
        counted = {
            item.xpath('string(.//span[@class="subject-code"])'): " ".join(item.xpath('string(.//span[@class="subject-count"])').split())
            for item in html.xpath('//ul[@class="subject-cloud"]/li')
        }
        assert counted == {"cs.DS": "2 works", "math.NT": "1 publication"}, page


def test_a_persons_page_describes_a_list_with_a_patent_as_works(tmp_path):
    """A lab member's page told search engines "2 publications by Charles Babbage" of a paper and a patent, where the
    profile says "2 works": the description says the word the lists say."""
    paper = "id: paper\ntitle: A Paper\nauthors: [Charles Babbage]\nyear: 2022\ntype: article\nsource: J. Ex.\n"
    patent = "id: pat\ntitle: A Method\nauthors: [Charles Babbage]\nyear: 2022\ntype: patent\nnumber: US Patent 11,503,892\n"
    member = "name: Charles Babbage\n"
    files = rendered_files(
        write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.yaml": paper, "content/records/b.yaml": patent, "content/people/babbage.yaml": member})
    )
    described = lxml.html.fromstring(files["people/babbage/index.html"]).xpath('string(//meta[@name="description"]/@content)')
    assert described.startswith("2 works by Charles Babbage"), described
    index = lxml.html.fromstring(files["people/index.html"]).xpath('string(//meta[@name="description"]/@content)')
    assert index.endswith("and their 2 works"), index  # the people index's description too


def test_a_papers_status_is_shown_beside_its_venue_and_exported(tmp_path):
    """ "Forthcoming, Journal of Political Economy", "Revise and resubmit, AER": an economist's status of a paper is
    shown wherever the record is listed, not only on its page, and kept in BibTeX (biblatex's `pubstate`), CSL and
    records.json; a .bib file's `pubstate = {forthcoming}` is read so."""
    records = {
        "content/records/tax.yaml": (
            "id: tax\ntitle: Tax Salience\nauthors: [Ada Lovelace]\nyear: 2026\ntype: article\n"
            "source: Journal of Political Economy\nstatus: Forthcoming\nfeatured: true\n"
        ),
        "content/records/ui.yaml": (
            "id: ui\ntitle: Unemployment Insurance\nauthors: [Ada Lovelace]\nyear: 2025\ntype: report\n"
            "source: NBER\nstatus: 'Revise and resubmit, American Economic Review'\n"
        ),
        "content/records/p.bib": "@article{p, title = {Payroll Taxes}, author = {Lovelace, Ada}, year = {2026}, journal = {Econometrica}, pubstate = {forthcoming}}\n",
    }
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, **records}))
    index = lxml.html.fromstring(files["index.html"])

    def listed(slug: str) -> str:
        return " ".join(index.xpath(f"//li[@id='r-{slug}']//p[@class='venue']")[0].text_content().split())

    assert listed("tax") == "Journal article · Journal of Political Economy · Forthcoming · 2026"
    assert listed("ui").startswith("Report · NBER · Revise and resubmit, American Economic Review · 2025")
    assert listed("p").startswith("Journal article · Econometrica · Forthcoming · 2026")
    card = " ".join(index.xpath("//ul[@class='featured-cards']//*[@class='card-meta']")[0].text_content().split())
    assert card == "Journal article · Journal of Political Economy · Forthcoming · 2026"
    assert _venue_line(_record_page(files, "ui")).startswith("Report · NBER · Revise and resubmit, American Economic Review ·")
    assert _bib_file(files)["lovelace2026tax"]["pubstate"] == "forthcoming"  # biblatex's key, printed in the reader's language
    assert _bib_file(files)["lovelace2025unemployment"]["pubstate"] == "Revise and resubmit, American Economic Review"
    assert _cite_bibtex(files, "p")["pubstate"] == "forthcoming"
    assert _csl(files, "ui")["status"] == "Revise and resubmit, American Economic Review"
    exported = {r["id"]: r for r in json.loads(files["records.json"])["records"]}
    assert (exported["tax"]["status"], exported["p"]["status"], exported["ui"]["status"]) == (
        "Forthcoming",
        "Forthcoming",
        "Revise and resubmit, American Economic Review",
    )


def test_a_featured_card_has_the_works_links_and_abstract(tmp_path):
    """A job market paper is featured so that a reader finds its PDF and abstract at the top of the page, as
    al-folio's selected papers and Hugo Blox's featured list give them: the card has the record's links and its
    abstract (closed until opened), not only its title."""
    record = (
        "id: jmp\ntitle: Minimum Wages and Monopsony\nauthors: [Ada Lovelace]\nyear: 2026\ntype: report\nsource: Job Market Paper\n"
        "featured: true\nabstract: I study how the minimum wage interacts with employer power.\n"
        "links: {pdf: 'https://example.org/jmp.pdf', slides: 'https://example.org/slides.pdf'}\n"
    )
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/jmp.yaml": record}))
    (card,) = lxml.html.fromstring(files["index.html"]).xpath("//ul[@class='featured-cards']/li")
    assert [(a.get("href"), " ".join(a.text_content().split())) for a in card.xpath(".//ul[@class='links']//a")] == [
        ("https://example.org/jmp.pdf", "PDF for “Minimum Wages and Monopsony”"),
        ("https://example.org/slides.pdf", "Slides for “Minimum Wages and Monopsony”"),
    ]
    (abstract,) = card.xpath(".//details[@class='abstract']")
    assert abstract.get("open") is None
    assert "employer power" in abstract.xpath(".//div[@class='abstract-body']")[0].text_content()


def test_unicode_subscripts_pasted_into_a_title_are_latex_in_publications_bib():
    """`CO₂` pasted from a web page was written to publications.bib as is: pdfLaTeX stops at it ("Unicode character
    ₂ (U+2082) not set up for use with LaTeX"). A site built from the file reads the same title back."""
    from sitegen.markup import render_inline
    from sitegen.sources import reader_for

    title = "Photocatalytic CO₂ Reduction on TiO₂ with Li⁺ at 10⁻³ M"
    record = validate_record({"id": "k", "title": title, "year": 2024, "authors": ["Maria Okafor"]}, "k.yaml", [])
    site, _ = enrich_site(SiteConfig("T"), Profile("Maria Okafor"), [record], Path("."))
    entry = bibtex_entry(site.entries[0], "https://example.org/records/k/", full=True)
    assert r"CO\textsubscript{2} Reduction on TiO\textsubscript{2} with Li\textsuperscript{+} at 10\textsuperscript{-3} M" in entry
    assert not re.search("[₀-₎⁰-⁾]", entry)
    (read_back,), problems = reader_for("content/records/a.bib").read(entry, "content/records/a.bib")
    assert problems == [] and render_inline(read_back["title"]).plain == title
