"""A researcher's CV and publication list on paper and pasted into a word processor, as a grant application
or a promotion dossier takes them: printed from chromium to PDF (`page.pdf()`, read back with pypdf) and copied
with Select all. The site lives under a sub-path, as a GitHub project site does.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pypdf
import pytest

pytestmark = pytest.mark.browser

OWNER = "Helena Wagner"
VENUES = {"article": "Journal of Machine Learning Research", "inproceedings": "Proceedings of NeurIPS", "preprint": "arXiv"}


def records_yaml() -> str:
    """Enough records of three types over sixteen years that a printed list runs over several pages."""
    lines = []
    number = 0
    for year in range(2025, 2009, -1):
        for kind, count in (("article", 2), ("inproceedings", 1), ("preprint", 1 if year % 3 == 0 else 0)):
            for _ in range(count):
                number += 1
                lines.append(
                    f"- {{id: r{number}, type: {kind}, title: 'Paper {number} on sparse estimation under heavy tails', "
                    f"authors: ['Emma Richter§', '{OWNER}', Jonas Berg, Mira Okonkwo], year: {year}, source: '{VENUES[kind]}', "
                    f"doi: '10.1000/x.{number}', citations: {number * 3}}}"
                )
    lines.append(
        f"- {{id: prized, type: inproceedings, title: A prized conference paper, authors: ['{OWNER}'], year: 2021, "
        "source: Proceedings of ICML 2021, venue_short: ICML 2021, award: Best Paper Award, featured: true, "
        "links: {pdf: 'https://proceedings.example.org/prized.pdf'}}"
    )
    return "\n".join(lines) + "\n"


CV = """\
sections:
  - title: Positions
    entries:
      - {title: Associate Professor, org: Heidelberg University, start: 2021-04}
      - {title: Assistant Professor (Tenure Track), org: University of Amsterdam, start: 2017-09, end: 2021-03}
      - {title: Postdoctoral Researcher, org: ETH Zurich, start: 2014-10, end: 2017-08}
      - {title: Visiting Researcher, org: University of Oxford, start: 2013-09, end: 2013-09}
      - {title: Research Assistant, org: LMU Munich, start: 2012, end: 2012}
  - title: Grants
    entries:
      - {title: "ERC Starting Grant CAUSE-CELL (PI)", org: European Research Council, start: 2022, end: 2026, url: "https://cordis.europa.eu/project/id/101000000"}
  - title: Selected publications
    publications: selected
  - title: Publications
    publications: all
"""


def build(root: Path, settings: str = "") -> Path:
    from conftest import MINIMAL_SITE, run_sitegen, write_site

    site = write_site(
        root,
        {
            **MINIMAL_SITE,
            "content/site.yaml": f"title: T\nbase_url: https://wagner.example.org/site/\n{settings}",
            "content/profile.yaml": f"name: {OWNER}\norcid: '0000-0002-1825-0097'\nemail: helena@example.org\n",
            "content/records/all.yaml": records_yaml(),
            "content/cv.yaml": CV,
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    return site / "output"


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[dict[str, str]]:
    """The site under /site/ three ways: the default theme by year, by type, and classic by type."""
    from crawl import serve_directory

    root = tmp_path_factory.mktemp("print")
    outputs = {
        "default": build(root / "default"),
        "by-type": build(root / "by-type", "group_by: type\n"),
        "classic": build(root / "classic", "group_by: type\ntheme: classic\n"),
    }
    with serve_directory(outputs["default"], "/site/") as default, serve_directory(outputs["by-type"], "/site/") as by_type:
        with serve_directory(outputs["classic"], "/site/") as classic:
            yield {"default": default, "by-type": by_type, "classic": classic}


def pdf_pages(data: bytes) -> list[list[str]]:
    """Each printed page's lines of text."""
    return [[line.strip() for line in (page.extract_text() or "").splitlines() if line.strip()] for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def printed(page, url: str) -> list[list[str]]:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return pdf_pages(page.pdf(format="A4"))


HEADINGS = {"Journal articles", "Conference papers", "Preprints", "Selected publications", "Publications", "Positions", "Grants"}


@pytest.mark.parametrize("site", ["default", "by-type", "classic"])
@pytest.mark.parametrize("path", ["", "cv/"])
def test_no_heading_is_left_at_the_foot_of_a_printed_page(new_page, served, site, path):
    """QA: with `group_by: type`, pages ended with a lone year ("2016") or type ("Preprints") and its records
    began on the next page: the year under a type and the type's heading were not kept with what follows."""
    pages = printed(new_page(), served[site] + path)
    assert len(pages) > 2
    for number, lines in enumerate(pages[:-1], start=1):
        last = re.sub(r" \(\d+\)$", "", lines[-1])  # a type's heading says its count: "Preprints (6)"
        assert not re.fullmatch(r"\d{4}", last) and last not in HEADINGS, f"page {number} ends with {last!r}"


def test_a_papers_award_is_on_the_printed_cv_and_featured_is_not(new_page, served):
    """QA: the print rule that took "Featured" off the CV took the record's "Best Paper Award" with it."""
    text = " ".join(" ".join(lines) for lines in printed(new_page(), served["default"] + "cv/"))
    assert text.count("Best Paper Award") == 2  # under Selected publications and under Publications
    assert "Featured" not in text and "FEATURED" not in text


def test_the_printed_profile_has_its_metrics_and_no_link_to_another_page(new_page, served):
    text = " ".join(" ".join(lines) for lines in printed(new_page(), served["default"]))
    assert "h-index" in text
    assert "Most cited" not in text


def test_a_cv_date_is_never_broken_inside_on_paper(new_page, served):
    """QA: the printed CV's date column read "September 2017 – March" / "2021"."""
    page = new_page()
    page.goto(served["default"] + "cv/")
    page.emulate_media(media="print")
    lines = page.evaluate("() => [...document.querySelectorAll('.cv-when time')].map(t => [t.textContent, t.getClientRects().length])")
    assert ["March 2021", 1] in lines and ["September 2017", 1] in lines
    assert [text for text, count in lines if count != 1] == []


def test_the_classic_theme_numbers_each_list_through(new_page, served):
    """QA: classic's numbered publications started again at 1 under every year. Each list (a type's, with
    `group_by: type`) is numbered through, on screen and on paper."""
    text = "\n".join("\n".join(lines) for lines in printed(new_page(), served["classic"] + "cv/"))
    section = text[text.index("Journal articles") :]  # "Selected publications" holds a conference paper only
    articles = section[: section.index("Conference papers")]
    numbers = [int(n) for n in re.findall(r"^(\d+)\. Paper", articles, re.M)]
    assert numbers == list(range(1, 33))  # 16 years, two articles each


def selection(page) -> str:
    return page.evaluate("() => { document.execCommand('selectAll'); return window.getSelection().toString(); }")


def test_a_list_copied_into_a_word_processor_is_the_text_as_seen(new_page, served):
    """QA: Select all and copy gave `PDFfor “A prized conference paper”`, `DOIfor “...”` and
    `Email:helena@...`: the words written for screen readers alone were copied, and pasted as text."""
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    page.goto(served["default"])
    text = selection(page)
    assert "A prized conference paper" in text and "helena@example.org" in text
    assert "for “" not in text and "Email:" not in text
    page.keyboard.press("Control+a")
    page.keyboard.press("Control+c")
    html = page.evaluate("""async () => { for (const item of await navigator.clipboard.read())
        if (item.types.includes('text/html')) return await (await item.getType('text/html')).text(); }""")
    assert "A prized conference paper" in html
    assert "visually-hidden" not in html and "<use" not in html  # no icon that is a blank box once pasted


def test_on_paper_the_venues_short_name_is_plain_and_classic_prints_black(new_page, served):
    page = new_page()
    page.goto(served["default"])
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('.venue-short')).backgroundColor") == "rgba(0, 0, 0, 0)"
    page.goto(served["classic"])
    page.emulate_media(media="print")
    for colour in page.evaluate("[...document.querySelectorAll('.profile-links a, .record-title a')].map(a => getComputedStyle(a).color)"):
        assert colour == "rgb(0, 0, 0)"


def test_a_filtered_list_on_paper_says_how_many_of_all_it_shows(new_page, served):
    """QA: printing /?type=article&year=2022 gave the two articles of 2022 under "33 publications" and nothing
    saying that the printout is a selection."""
    page = new_page()
    page.goto(served["default"] + "?type=article&year=2022")
    page.wait_for_function("() => /of/.test(document.querySelector('.search-count').textContent)")
    text = " ".join(" ".join(lines) for lines in pdf_pages(page.pdf(format="A4")))
    assert "2 of 55 publications" in text
    assert "Search" not in text and "Clear" not in text
    page.goto(served["default"])
    page.wait_for_load_state("networkidle")
    text = " ".join(" ".join(lines) for lines in pdf_pages(page.pdf(format="A4")))
    assert " of 55 publications" not in text


def test_an_entrys_address_on_paper_is_not_bold_like_its_title(new_page, served):
    """QA: "ERC Starting Grant ... (https://cordis.europa.eu/...)" printed the address in the title's bold."""
    page = new_page()
    page.goto(served["default"] + "cv/")
    page.emulate_media(media="print")
    title, address = page.evaluate("""() => { const a = document.querySelector('.cv-title a');
        return [getComputedStyle(a).fontWeight, getComputedStyle(a, '::after').fontWeight]; }""")
    assert int(title) >= 600 and int(address) == 400
    assert "cordis.europa.eu" in page.evaluate("getComputedStyle(document.querySelector('.cv-title a'), '::after').content")
