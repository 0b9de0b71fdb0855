"""A mathematician's site: LaTeX in titles, abstracts, pages and exports, as readers and machines get it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, run_sitegen, write_site

# As `sitegen fetch` writes an arXiv record whose authors use their preamble's macros (`\R`, `\eps`).
ARXIV_MACROS = """\
id: '2501.04321'
title: 'The $\\R$-rank of $E(\\mathbb{Q})$ and $\\eps$-regulators'
authors: [Ada Lovelace]
year: 2025
source: arXiv
abstract: |-
  Let $\\eps > 0$. Then
  $$\\mathrm{Reg}_\\eps(E/K) \\le \\eps^{-1}.$$
arxiv: '2501.04321'
origin: arxiv
"""


@pytest.fixture(autouse=True)
def no_macros_left():
    """A build in this process sets site.yaml's macros for the process; none outlives its test."""
    yield
    from sitegen.latex import set_math_macros

    set_math_macros({})


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def meta(page: BeautifulSoup, name: str) -> str:
    tag = page.find("meta", attrs={"name": name}) or page.find("meta", attrs={"property": name})
    return tag["content"]


@pytest.mark.slow
def test_macros_of_arxiv_papers_are_defined_once_in_site_yaml(tmp_path):
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/arxiv/2501.04321.yaml": ARXIV_MACROS})
    first = run_sitegen("build", "--site", str(site))
    assert first.returncode == 0, first.stderr
    assert (
        "content/records/arxiv/2501.04321.yaml:2: warning: record '2501.04321', field 'title': LaTeX shown as source, "
        "cannot convert $\\R$; \\R is a command of the paper's own preamble, not LaTeX's: say once what it stands for, "
        "in content/site.yaml: `math_macros: {R: '\\mathbb{R}'}` (or write \\mathbb{R} here)"
    ) in first.stderr.splitlines()
    assert soup(site / "output/records/2501.04321/index.html").find("h1").find("code").get_text() == "$\\R$"

    (site / "content/site.yaml").write_text(MINIMAL_SITE["content/site.yaml"] + "math_macros:\n  R: '\\mathbb{R}'\n  eps: '\\varepsilon'\n", encoding="utf-8")
    second = run_sitegen("build", "--site", str(site))  # the cache of the first build holds the text converted without
    assert second.returncode == 0, second.stderr
    assert "LaTeX shown as source" not in second.stderr
    page = soup(site / "output/records/2501.04321/index.html")
    heading = page.find("h1")
    assert heading.find("code") is None
    assert [mi.get_text() for mi in heading.find("math").find_all("mi")] == ["ℝ"]
    assert page.find(class_="abstract-body").find("math", attrs={"display": "block"}) is not None
    for text in (page.title.get_text(), meta(page, "citation_title"), meta(page, "og:title"), meta(page, "description")):
        assert "$" not in text and "\\" not in text, text
    assert meta(page, "citation_title") == "The R-rank of E(Q) and ε-regulators"
    record = next(r for r in json.loads((site / "output/records.json").read_text(encoding="utf-8"))["records"] if r["id"] == "2501.04321")
    assert record["title_latex"] == "The $\\R$-rank of $E(\\mathbb{Q})$ and $\\eps$-regulators"  # as written
    assert "title = {{The $\\R$-rank" in (site / "output/publications.bib").read_text(encoding="utf-8")


def test_latex_in_the_titles_of_pages_and_posts_is_shown_as_mathematics_in_unicode(tmp_path):
    from conftest import rendered_files

    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/pages/research.md": "---\ntitle: 'Research on $L$-functions'\nnav: 1\n---\nI study $\\zeta(s)$.\n",
            "content/posts/2024-05-02-zeta.md": "---\ntitle: 'Why $\\zeta(2) = \\pi^2/6$'\ndate: 2024-05-02\n---\nBecause.\n",
        },
    )
    files = rendered_files(site)
    research = BeautifulSoup(files["research/index.html"], "html.parser")
    post = BeautifulSoup(files["posts/zeta/index.html"], "html.parser")
    assert research.find("h1").get_text(strip=True) == "Research on L-functions"
    assert meta(research, "og:title").startswith("Research on L-functions")
    assert research.title.get_text().startswith("Research on L-functions")
    assert "Research on L-functions" in [a.get_text(strip=True) for a in research.select("nav a")]
    assert post.find("h1").get_text(strip=True) == "Why ζ(2)=π²/6"
    assert meta(post, "twitter:title").startswith("Why ζ(2)=π²/6")
    for output in (research, post, BeautifulSoup(files["index.html"], "html.parser")):
        assert "$" not in output.title.get_text() and not any("$" in a.get_text() for a in output.find_all("a"))


# A number theorist's title and abstract, as arXiv sends them
ELL_ADIC = """\
id: '2311.01234'
title: 'On $\\ell$-adic local systems and $\\aleph_0$-categorical fields'
authors: [Ada Lovelace]
year: 2023
source: arXiv
abstract: 'For every prime $\\mathfrak{p} \\mid p$ of $\\mathcal{O}_K$ and $\\ell \\neq p$, $\\Re(s) > 1$.'
arxiv: '2311.01234'
origin: arxiv
"""


def test_plain_text_keeps_ell_aleph_and_fraktur_letters(tmp_path):
    """ℓ is no l: every place that shows a title as text (the tab, Google Scholar's tags, the feed, RIS) says
    "ℓ-adic", as arXiv's listings do, and keeps 𝔭 apart from p and ℵ from the Hebrew letter."""
    from conftest import rendered_files

    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/records/2311.01234.yaml": ELL_ADIC}))
    page = BeautifulSoup(files["records/2311.01234/index.html"], "html.parser")
    title = "On ℓ-adic local systems and ℵ₀-categorical fields"
    assert page.title.get_text().startswith(title)
    assert meta(page, "citation_title") == title
    assert meta(page, "og:title").startswith(title)
    assert json.loads(page.find("script", type="application/ld+json").string)["name"] == title
    assert meta(page, "description") == "For every prime 𝔭∣p of O_K and ℓ≠p, ℜ(s)>1."
    feed = BeautifulSoup(files["feed.xml"], "xml")
    assert [entry.title.get_text() for entry in feed.find_all("entry")] == [title]
    assert f"TI  - {title}" in files["publications.ris"].decode("utf-8").splitlines()


def test_the_bibtex_to_paste_writes_the_sites_macros_as_what_they_stand_for(tmp_path):
    """`$\\Z$` is the paper's own macro, defined for the site in site.yaml: the Cite section's entry, pasted into
    another paper, had `$\\Z$` ("Undefined control sequence", or that paper's own \\Z). It writes `$\\mathbb{Z}$`, and
    AMS-TeX's `\\germ` as LaTeX's `\\mathfrak`; publications.bib keeps the title as written."""
    from conftest import rendered_files

    record = ARXIV_MACROS.replace("The $\\R$-rank of", "The $\\R$-rank of $\\germ{sl}_2$ and")
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/site.yaml": MINIMAL_SITE["content/site.yaml"] + "math_macros:\n  R: '\\mathbb{R}'\n  eps: '\\varepsilon'\n",
            "content/records/arxiv/2501.04321.yaml": record,
        },
    )
    files = rendered_files(site)
    cite = BeautifulSoup(files["records/2501.04321/index.html"], "html.parser").find("pre", class_="bibtex").get_text()
    assert "  title = {{The $\\mathbb{R}$-rank of $\\mathfrak{sl}_2$ and $E(\\mathbb{Q})$ and $\\varepsilon$-regulators}},\n" in cite
    assert "title = {{The $\\R$-rank of $\\germ{sl}_2$ and" in files["publications.bib"].decode("utf-8")
