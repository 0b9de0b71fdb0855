"""What a designer copies from al-folio or Hugo Blox, written as docs/themes.md shows it, builds and shows it.

The templates are read from the docs' own code blocks, so the page that tells a designer how to port a
publication list with badges and "abstract"/"bib" toggles and a news box is the one these tests build.
"""

from __future__ import annotations

import re
from pathlib import Path

from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, write_site

from sitegen.cli import main

DOCS = Path(__file__).resolve().parents[2] / "docs" / "themes.md"
BIB = """\
@article{lovelace2024,
  title = {Notes on the Analytical Engine},
  author = {Lovelace, Ada and Babbage, Charles},
  journal = {Journal of Engines},
  abbr = {JEng},
  year = {2024},
  volume = {3},
  pages = {1--9},
  doi = {10.1234/engine},
  abstract = {We describe the engine.},
}
"""


def documented_template(first_line: str) -> str:
    """The code block of docs/themes.md that starts with `first_line` (its comment naming the file)."""
    blocks = re.findall(r"```html\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.DOTALL)
    return next(block for block in blocks if block.startswith(first_line))


def test_the_documented_al_folio_list_item_and_news_box_build_with_badge_toggles_and_news(tmp_path, capsys):
    news_box = documented_template("{# in templates/index.html")
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/records/papers.bib": BIB,
            "content/news/2024-05-01-prize.md": "---\ndate: 2024-05-01\n---\nWe won a *prize*.\n",
            "templates/partials/record_item.html": documented_template("{# templates/partials/record_item.html #}"),
            "templates/index.html": '{% extends "!theme/index.html" %}\n{% block main %}' + news_box + "{{ super() }}{% endblock %}\n",
        },
    )
    assert main(["build", "--site", str(site), "--strict"]) == 0, capsys.readouterr().err
    page = BeautifulSoup((site / "output/index.html").read_text(), "html.parser")
    item = page.select_one("li.pub")
    assert item.select_one("abbr.badge").get_text() == "JEng"
    assert item.select_one("a.title").get_text() == "Notes on the Analytical Engine"
    assert item.select_one(".authors b").get_text() == "Ada Lovelace"
    assert item.select_one("details.abstract summary").get_text() == "Abstract"
    assert item.select_one("details.abstract p").get_text() == "We describe the engine."
    assert "DOI" in [button.get_text() for button in item.select("a.btn")]
    bib = item.find("a", string="bib")["href"]
    assert bib.endswith("#bibtex")
    record_page = BeautifulSoup((site / "output" / bib.strip("/").removesuffix("#bibtex") / "index.html").read_text(), "html.parser")
    assert "@article{lovelace2024" in record_page.select_one("#bibtex").get_text()
    box = page.select_one("aside.news-box")
    assert box.select_one("time")["datetime"] == "2024-05-01"
    assert "We won a prize." in box.get_text()
    assert box.select("a")[-1]["href"] == "/news/"
