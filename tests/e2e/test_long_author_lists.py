"""A collaboration's author lists (hundreds or thousands of names, the owner somewhere among them):
what lists and record pages show, and what the exports keep."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup
from conftest import file_bytes, write_site

from sitegen.build import check_site

FIRST = ["Maria", "Amir", "Beatriz", "Zofia", "Arjun", "Andrea", "Ravi", "Igor", "Paolo", "Alice", "Kenji", "Chen"]
LAST = ["Brown", "Andersen", "Kowalski", "Dubois", "Li", "Fischer", "Alonso", "Rossi", "Novak", "Lee", "Oliveira", "Becker", "Moreau"]


def names(count: int, owner_at: int, owner: str) -> list[str]:
    """`count` BibTeX names ("Family, Given M."), the owner's at position `owner_at` (from 1)."""
    made = [f"{LAST[i % len(LAST)]}, {FIRST[(i // len(LAST)) % len(FIRST)]} {chr(65 + i % 26)}." for i in range(count)]
    made[owner_at - 1] = owner
    return made


def bib_entry(key: str, authors: list[str], title: str, others: bool = False) -> str:
    author = " and ".join(authors) + (" and others" if others else "")
    return f"@article{{{key},\n  author = {{{author}}},\n  title = {{{title}}},\n  journal = {{Phys. Rev. Lett.}},\n  year = {{2023}},\n}}\n\n"


def collaboration_site(root: Path, language: str = "en") -> Path:
    bib = bib_entry("ATLAS:2023mass", names(2900, 1412, "Smith, John A."), "Measurement of the Higgs boson mass")
    bib += bib_entry("ATLAS:2024xsec", names(40, 12, "Smith, J."), "Combined differential cross sections", others=True)
    bib += bib_entry("LIGO:2017ns", names(181, 181, "Smith, J."), "Binary neutron star inspiral")
    bib += bib_entry("Smith:2018vlq", ["Smith, John A.", "Rossi, Paolo"], "Vector-like quarks")
    return write_site(
        root,
        {
            "content/site.yaml": f"title: John A. Smith\nbase_url: https://example.org/\nlanguage: {language}\n",
            "content/profile.yaml": 'name: "John A. Smith"\nname_variants: ["J. Smith"]\n',
            "content/records/papers.bib": bib,
        },
    )


def built(site: Path) -> dict[str, bytes]:
    return file_bytes(check_site(site).files)


def text_of(element) -> str:
    return " ".join(element.get_text().split())


def item(files: dict[str, bytes], slug: str):
    return BeautifulSoup(files["index.html"], "lxml").find(id=f"r-{slug}")


def record_page(files: dict[str, bytes], slug: str) -> BeautifulSoup:
    return BeautifulSoup(files[f"records/{slug}/index.html"], "lxml")


def test_a_list_cut_short_names_the_owner_with_their_place_and_the_count(tmp_path):
    files = built(collaboration_site(tmp_path))
    byline = text_of(item(files, "ATLAS-2023mass").select_one(".authors"))
    assert byline.startswith("Maria A. Brown, Maria B. Andersen,")
    assert byline.endswith("…, John A. Smith (author 1,412 of 2,900), … (2,900 authors)")
    # an owner who is the last author: nothing is left out after them
    assert text_of(item(files, "LIGO-2017ns").select_one(".authors")).endswith("…, J. Smith (author 181 of 181) (181 authors)")
    # 40 names and `and others`: 40 is not the count of all
    others = text_of(item(files, "ATLAS-2024xsec").select_one(".authors"))
    assert others.endswith("…, J. Smith (author 12), …, et al. (40+ authors)")
    assert "(40 authors)" not in others


def test_a_record_page_shows_a_collaboration_list_short_and_every_name_on_request(tmp_path):
    files = built(collaboration_site(tmp_path))
    page = record_page(files, "ATLAS-2023mass")
    header = page.select_one("header.record-header")
    # the byline is short: the first names, the owner where they stand, the count
    [byline] = header.find_all("p", class_="authors", recursive=False)
    assert len(byline.get_text()) < 400
    assert byline.select_one(".owner").get_text() == "John A. Smith"
    assert "(author 1,412 of 2,900)" in text_of(byline) and "(2,900 authors)" in text_of(byline)
    # every name, in a disclosure that is closed (a screen reader skips it, the venue and abstract come next)
    details = header.find("details", class_="all-authors")
    assert details is not None and not details.has_attr("open")
    assert text_of(details.summary) == "All authors (2,900)"
    everyone = details.select_one("p.authors")
    assert len(everyone.get_text().split(", ")) == 2900
    assert [owner.get_text() for owner in everyone.select(".owner")] == ["John A. Smith"]
    assert details.find_next_sibling("p", class_="venue") is not None
    # a short list stays as it was: every name, no disclosure
    short = record_page(files, "Smith-2018vlq")
    assert text_of(short.select_one("header .authors")) == "John A. Smith, Paolo Rossi"
    assert short.find("details", class_="all-authors") is None


def test_the_counts_are_written_as_the_language_writes_numbers(tmp_path):
    files = built(collaboration_site(tmp_path, language="de"))
    byline = text_of(item(files, "ATLAS-2023mass").select_one(".authors"))
    assert byline.endswith("John A. Smith (Autor/in 1.412 von 2.900), … (2.900 Autorinnen und Autoren)")
    assert text_of(record_page(files, "ATLAS-2023mass").select_one("details.all-authors summary")) == "Alle Autorinnen und Autoren (2.900)"


def test_the_feed_and_the_search_name_the_authors_a_list_names(tmp_path):
    import json

    import feedparser

    files = built(collaboration_site(tmp_path))
    feed = feedparser.parse(files["feed.xml"])
    [mass] = [e for e in feed.entries if e.title == "Measurement of the Higgs boson mass"]
    names = [author.name for author in mass.authors]
    assert names[:2] == ["Maria A. Brown", "Maria B. Andersen"] and names[-1] == "John A. Smith" and len(names) == 11
    [short] = [e for e in feed.entries if e.title == "Vector-like quarks"]
    assert [author.name for author in short.authors] == ["John A. Smith", "Paolo Rossi"]
    assert len(files["feed.xml"]) < 20_000  # not 2,900 + 181 + 40 <author> elements
    # the search's data: what the results show (a result is drawn from it), the owner findable
    rows = {row[0]: row for row in json.loads(files["search/text.json"])}
    authors = rows["Measurement of the Higgs boson mass"][1]
    assert authors.startswith("Maria A. Brown, Maria B. Andersen, ") and authors.endswith(", …, John A. Smith, …")
    assert rows["Binary neutron star inspiral"][1].endswith(", …, J. Smith")
    assert rows["Vector-like quarks"][1] == "John A. Smith, Paolo Rossi"
    assert len(files["search/text.json"]) < 5_000


def test_a_record_page_carries_the_authors_its_citations_print_and_they_read_the_same(tmp_path):
    import html
    import json

    from sitegen.cite import _format, csl_item
    from sitegen.prepare import prepare_site, read_inputs

    site = collaboration_site(tmp_path)
    files = built(site)
    page = record_page(files, "ATLAS-2023mass")
    item = json.loads(html.unescape(page.find("details", class_="cite-styles")["data-csl-item"]))
    # APA names the first 19 and the last of 21 or more, IEEE the first: 21 names print the same
    assert len(item["author"]) == 21 and item["author"][-1] == {"family": "Brown", "given": "Igor N."}
    listing, digests = read_inputs(site)
    [entry] = [e for e in prepare_site(site, listing, digests).site.entries if e.id == "ATLAS:2023mass"]
    whole = csl_item(entry)
    assert len(whole["author"]) == 2900  # BibTeX, RIS and records.json keep everyone
    for style in ("apa", "ieee"):
        assert _format(style, item).plain == _format(style, whole).plain
    assert len(page.find("details", class_="cite-styles")["data-csl-item"]) < 3_000
    # `and others` stays the last of the names carried
    others = json.loads(html.unescape(record_page(files, "ATLAS-2024xsec").find("details", class_="cite-styles")["data-csl-item"]))
    assert len(others["author"]) == 21 and others["author"][-1] == {"literal": "others"}


def test_a_featured_collaboration_paper_card_names_the_owner_with_their_place(tmp_path):
    """The profile's featured cards name the authors as lists do (partials/listed_authors.html), not the first ten alone."""
    site = collaboration_site(tmp_path)
    bib = site / "content/records/papers.bib"
    bib.write_text(
        bib.read_text().replace("title = {Measurement of the Higgs boson mass},", "title = {Measurement of the Higgs boson mass},\n  selected = {true},")
    )
    card = BeautifulSoup(built(site)["index.html"], "lxml").select_one(".featured-cards .card-authors")
    assert text_of(card).endswith("…, John A. Smith (author 1,412 of 2,900), … (2,900 authors)")
