"""The default theme's French, Spanish, Catalan and Dutch as their readers write them: the typography, the dates
and the agreement a native reader checks first."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from bs4 import BeautifulSoup
from conftest import rendered_files, write_site

ATOM = "{http://www.w3.org/2005/Atom}"
NO_BREAK_SPACES = "\u00a0\u202f"
# A colon French writes without a no-break space before it: after anything but one, and not a URL's "https:".
BARE_COLON = re.compile(rf"(?<![{NO_BREAK_SPACES}]):(?!//)")
SHOWN_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder", "content")


def site_in(language: str, tmp_path, extra: dict[str, str] | None = None):
    """A researcher's site in `language` whose own words hold no colon: every colon on its pages is the theme's."""
    return write_site(
        tmp_path,
        {
            "content/site.yaml": f"title: Camille Tremblay\nbase_url: https://example.org/\nlanguage: {language}\n",
            "content/profile.yaml": "name: Camille Tremblay\nemail: camille@example.org\nbio: Je travaille sur la traduction.\n",
            "content/records/pubs.bib": "@article{art, author={Tremblay, Camille and Roy, Luc}, title={Un article}, journal={Revue X},"
            " volume={12}, pages={101--120}, date={2024-04-01}}\n"
            "@inproceedings{conf, author={Tremblay, Camille}, title={Une communication}, booktitle={Actes}, year={2023}}\n"
            "@software{soft, author={Tremblay, Camille}, title={Un logiciel}, version={1.2}, year={2022}}\n",
            "content/cv.yaml": "sections:\n  - title: Postes\n    entries:\n"
            "      - {title: Professeure, org: Université Laval, start: 2022-09}\n"
            "      - {title: Postdoc, org: McGill, start: 2019-01-01, end: 2022-04-05}\n",
            "content/news/2025-04-01-fonds.md": "---\ndate: 2025-04-01\ntitle: Projet financé\n---\nLe projet est financé.\n",
            "content/talks/talks.yaml": "- {title: Une conférence, event: ACFAS, date: 2025-05-14}\n",
            "content/redirects.yaml": "ancien/: records/art/\n",
            **(extra or {}),
        },
    )


def soup(data: bytes) -> BeautifulSoup:
    return BeautifulSoup(data.decode("utf-8"), "html.parser")


def shown_texts(page: BeautifulSoup) -> list[str]:
    """What a reader or a screen reader is told: the text, and the attributes that are read out or shown."""
    for hidden in page(["script", "style", "pre", "code"]):
        hidden.decompose()
    texts = [str(node) for node in page.find_all(string=True)]
    return texts + [str(tag[name]) for tag in page.find_all(True) for name in SHOWN_ATTRIBUTES if tag.has_attr(name)]


def test_a_french_page_puts_a_no_break_space_before_every_colon(tmp_path):
    """The templates wrote ": " after their labels ("Toutes les entrées: publications.bib", "Curriculum vitæ: ...",
    the feeds' titles): French puts a no-break space before a colon, and a line broke before it."""
    files = rendered_files(site_in("fr-CA", tmp_path))
    pages = [name for name in files if name.endswith(".html")]
    assert {"index.html", "cv/index.html", "news/index.html", "talks/index.html", "records/art/index.html", "ancien/index.html"} <= set(pages)
    bare = {(name, text) for name in pages for text in shown_texts(soup(files[name])) if BARE_COLON.search(text)}
    assert bare == set()
    assert "Toutes les entrées\u00a0: " in soup(files["records/art/index.html"]).select_one(".cite-more").get_text()
    for feed in ("feed.xml", "news/feed.xml"):
        assert ET.fromstring(files[feed]).findtext(f"{ATOM}title").startswith("Camille Tremblay\u00a0: "), feed


def test_an_english_page_keeps_its_colons(tmp_path):
    files = rendered_files(site_in("en", tmp_path))
    assert "All entries: " in soup(files["records/art/index.html"]).select_one(".cite-more").get_text()
    assert ET.fromstring(files["feed.xml"]).findtext(f"{ATOM}title") == "Camille Tremblay: publications"
