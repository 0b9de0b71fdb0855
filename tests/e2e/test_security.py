"""Untrusted text cannot inject script: a record full of payloads renders as harmless
text on every page, in the feed, in records.json and in JSON-LD."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import feedparser
import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, REPO, run_sitegen, write_site

from sitegen.names import csl_name, family_first

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
TITLE = f"Evil {SCRIPT} title {IMG} $\\href{{javascript:alert(1)}}{{x}}$ </script><script>alert(2)</script>"
AUTHOR = f"Mallory {IMG}"
ABSTRACT = (
    f"An abstract with {SCRIPT} and {IMG}, a [markdown link](javascript:alert(1)), "
    "an [entity link](&#106;avascript:alert(1)), an autolink <javascript:alert(1)>, "
    '<svg onload=alert(1)>, <a href="javascript:alert(1)">raw anchor</a>, '
    "![pic](javascript:alert(1)) and \\href{javascript:alert(1)}{a macro}."
)
SUBJECT = f"cs.XX{IMG}"
PAYLOAD_RECORD = {
    "id": "evil-1",
    "title": TITLE,
    "authors": [AUTHOR, f"Eve {SCRIPT}", "Ada Lovelace"],
    "year": 2024,
    "source": f"Journal of {SCRIPT}",
    "abstract": ABSTRACT,
    "categories": ["cs.DC", SUBJECT],
    "links": {
        "evil": "javascript:alert(1)",
        "shouty": " JaVaScRiPt:alert(1)",
        "data": "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "quote": 'https://example.org/" onmouseover="alert(1)',
        "abs": "https://arxiv.org/abs/2401.00001",
    },
}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, str]:
    site = write_site(
        tmp_path_factory.mktemp("evil"),
        {
            **MINIMAL_SITE,
            "content/records/evil.yaml": json.dumps(PAYLOAD_RECORD),  # JSON is YAML: no quoting mistakes
            "content/records/fine.yaml": "id: fine\ntitle: A fine paper\nyear: 2023\nauthors: [Ada Lovelace]\ncategories: [cs.DC]\n",
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    return site / "output", result.stderr


def pages(output: Path) -> list[Path]:
    found = sorted(output.rglob("*.html"))
    names = {p.relative_to(output).as_posix() for p in found}
    assert {"index.html", "records/evil-1/index.html", "subjects/cs.DC/index.html", "404.html"} <= names
    assert any(name.startswith("subjects/cs.XX") for name in names)
    return found


@pytest.mark.slow
def test_unsafe_links_are_dropped_with_warnings(built):
    _, stderr = built
    for name in ("evil", "shouty", "data"):
        assert f"field 'links.{name}': unsafe URL scheme" in stderr
    # the Markdown link of the abstract too, by the sanitiser that drops it (the picture is of no file of the site)
    assert "content/records/evil.yaml:1: warning: record 'evil-1', field 'abstract': link 'javascript:alert(1)': unsafe URL scheme 'javascript:'" in stderr


# the theme's own inline scripts, as its base.html writes them (the stored colour scheme, applied before the first paint)
THEME_INLINE_SCRIPTS = {
    script.string
    for script in BeautifulSoup((REPO / "sitegen" / "themes" / "default" / "templates" / "base.html").read_text(encoding="utf-8"), "html.parser").find_all(
        "script"
    )
    if not script.get("src") and script.string and "{{" not in script.string
}


def test_no_script_no_event_handler_no_javascript_url_on_any_page(built):
    output, _ = built
    for path in pages(output):
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        where = path.relative_to(output).as_posix()
        for script in soup.find_all("script"):
            ours = (
                script.get("type") == "application/ld+json"
                or (script.get("src", "").startswith("/static/") and not script.string)
                or (not script.get("src") and script.string in THEME_INLINE_SCRIPTS)
            )
            assert ours, f"{where}: foreign {script}"
        for tag in soup.find_all(True):
            handlers = [name for name in tag.attrs if name.lower().startswith("on")]
            assert not handlers, f"{where}: <{tag.name} {handlers}>"
            for attribute in ("href", "src", "action", "formaction", "xlink:href", "data"):
                value = str(tag.get(attribute, "")).strip().lower()
                assert not value.startswith(("javascript:", "data:", "vbscript:")), f"{where}: <{tag.name} {attribute}={value!r}>"
        foreign = [t for t in soup.find_all(["img", "iframe", "object", "embed"]) if "photo" not in t.get("class", [])]
        assert not foreign, f"{where}: {foreign}"


def test_payloads_are_shown_as_harmless_text(built):
    output, _ = built
    record = BeautifulSoup((output / "records/evil-1/index.html").read_text(encoding="utf-8"), "html.parser")
    h1 = record.find("h1").get_text()
    assert SCRIPT in h1 and IMG in h1
    authors = record.find(class_="authors").get_text()
    assert AUTHOR in authors and f"Eve {SCRIPT}" in authors
    abstract = record.find(class_="abstract-body").get_text()
    assert SCRIPT in abstract and IMG in abstract and "raw anchor" in abstract
    assert SCRIPT in record.find("title").get_text()
    # the names as text, family name first as Google Scholar's guidelines write them
    assert [m["content"] for m in record.find_all("meta", attrs={"name": "citation_author"})][:2] == [
        family_first(csl_name(AUTHOR)),
        f"{SCRIPT}, Eve",
    ]
    index = BeautifulSoup((output / "index.html").read_text(encoding="utf-8"), "html.parser")
    item = index.find("li", id="r-evil-1")
    assert SCRIPT in item.find(class_="record-title").get_text()
    assert AUTHOR in item.find(class_="authors").get_text()
    assert "https://arxiv.org/abs/2401.00001" in [a["href"] for a in item.find_all("a", href=True)]


def test_quotes_in_a_url_cannot_break_out_of_the_attribute(built):
    output, _ = built
    record = BeautifulSoup((output / "records/evil-1/index.html").read_text(encoding="utf-8"), "html.parser")
    hrefs = [a["href"] for a in record.find_all("a", href=True)]
    assert 'https://example.org/" onmouseover="alert(1)' in hrefs


def test_json_ld_cannot_close_its_script_tag_and_keeps_the_text(built):
    output, _ = built
    for path in pages(output):
        text = path.read_text(encoding="utf-8")
        for raw in re.findall(r'<script type="application/ld\+json">(.*?)</script>', text, re.S):
            assert "</script" not in raw.lower() and "<!--" not in raw
            json.loads(raw)
    record = BeautifulSoup((output / "records/evil-1/index.html").read_text(encoding="utf-8"), "html.parser")
    [article] = [json.loads(s.string) for s in record.find_all("script", type="application/ld+json")]
    assert SCRIPT in article["headline"] and "</script><script>alert(2)</script>" in article["headline"]
    assert [a["name"] for a in article["author"]][:2] == [AUTHOR, f"Eve {SCRIPT}"]
    assert SCRIPT in article["abstract"]


def test_feed_holds_the_text_not_markup(built):
    output, _ = built
    raw = (output / "feed.xml").read_bytes()
    root = ET.fromstring(raw)  # well-formed XML
    atom = "{http://www.w3.org/2005/Atom}"
    assert not [e for e in root.iter() if e.tag.rsplit("}", 1)[-1] in ("script", "img", "svg")]
    entry = next(e for e in root.iter(f"{atom}entry") if e.find(f"{atom}id").text.endswith("/evil-1/"))
    assert SCRIPT in entry.find(f"{atom}title").text
    assert SCRIPT in entry.find(f"{atom}summary").text
    assert entry.find(f"{atom}title").get("type") in (None, "text")
    feed = feedparser.parse(raw)
    assert feed.bozo == 0


def test_records_json_holds_the_text(built):
    output, _ = built
    data = json.loads((output / "records.json").read_text(encoding="utf-8"))
    record = next(r for r in data["records"] if r["id"] == "evil-1")
    assert SCRIPT in record["title"] and record["authors"][:2] == [AUTHOR, f"Eve {SCRIPT}"]
    assert set(record["links"]) == {"quote", "abs"}
    assert not any(url.strip().lower().startswith(("javascript:", "data:")) for url in record["links"].values())


@pytest.mark.slow
def test_an_unsafe_link_in_any_markdown_text_is_a_warning_at_its_place_and_strict_fails(tmp_path):
    """docs/security.md: such links are dropped with a warning naming the file and line (a record's: the record
    and field), in the site's own text as in a record's `links:`."""
    bad = "[here](javascript:alert(1))"
    site = write_site(
        tmp_path / "site",
        {
            **MINIMAL_SITE,
            "content/profile.yaml": f"name: Ada Lovelace\nbio: 'See {bad}.'\n",
            "content/pages/about.md": f"---\ntitle: About\n---\nFirst line.\n\nSee {bad} and [data](data:text/html,hi).\n",
            "content/posts/2024-01-02-hello.md": "---\ntitle: Hello\n---\nA [vb](vbscript:msgbox(1)) link.\n",
            "content/news/2024-03-01-out.md": f"---\ndate: 2024-03-01\n---\nOut: {bad}\n",
            "content/talks/t.yaml": f"title: A talk\ndate: 2024-01-01\nabstract: '{bad}'\n",
            "content/cv.yaml": f"sections:\n  - title: Positions\n    entries:\n      - title: Professor\n        start: 2020\n        details: '{bad}'\n",
            "content/people/ada.yaml": f"name: Ada Lovelace\nbio: |\n  Ada works on {bad}.\n",
            "content/records/r.yaml": f"id: r1\ntitle: A paper\nauthors: [Ada Lovelace]\nyear: 2024\nabstract: |\n  First.\n  Then {bad}.\n",
        },
    )

    result = run_sitegen("build", "--site", str(site))

    assert result.returncode == 0, result.stderr
    said = "link 'javascript:alert(1)': unsafe URL scheme 'javascript:', the link is left out (its text stays)"
    warnings = [line for line in result.stderr.splitlines() if "warning: " in line and "the link is left out" in line]
    assert sorted(warnings) == sorted(
        [
            f"content/profile.yaml:2: warning: field 'bio': {said}",
            f"content/pages/about.md:6: warning: {said}",
            "content/pages/about.md:6: warning: link 'data:text/html,hi': unsafe URL scheme 'data:', the link is left out (its text stays)",
            "content/posts/2024-01-02-hello.md:4: warning: link 'vbscript:msgbox(1)': unsafe URL scheme 'vbscript:', the link is left out (its text stays)",
            f"content/news/2024-03-01-out.md:4: warning: {said}",
            f"content/talks/t.yaml:3: warning: field 'abstract': {said}",
            f"content/cv.yaml:6: warning: field 'details': {said}",
            f"content/people/ada.yaml:2: warning: field 'bio': {said}",
            f"content/records/r.yaml:5: warning: record 'r1', field 'abstract': {said}",
        ]
    )
    for page in (site / "output").rglob("*.html"):
        assert "javascript:" not in page.read_text(encoding="utf-8"), page
    about = BeautifulSoup((site / "output" / "about" / "index.html").read_text(encoding="utf-8"), "html.parser").find("main")
    assert [a.get("href") for a in about.find_all("a") if a.get_text() in ("here", "data")] == [None, None]

    strict = run_sitegen("build", "--site", str(site), "--strict", "--no-cache")
    assert strict.returncode == 1 and "--strict: " in strict.stderr


def test_a_hostile_arxiv_id_or_doi_reaches_no_citation_url_as_written(tmp_path):
    """An arXiv value that is no arXiv id is left out with a warning (it was the URL of BibTeX, RIS and CSL as
    written); a DOI's '<' and '>' are percent-encoded in its https://doi.org/ address."""
    records = {
        "content/records/a.yaml": 'id: a\ntitle: A\nyear: 2024\ntype: preprint\narxiv: "2301.00001\\"> <b>x</b> {}"\n',
        "content/records/d.yaml": 'id: d\ntitle: D\nyear: 2024\ndoi: "10.5555/</script><script>alert(1)</script>"\n',
    }
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **records})
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "content/records/a.yaml:5: warning: field 'arxiv': '2301.00001\"> <b>x</b> {}' is not an arXiv id" in result.stderr
    output = site / "output"
    exports = (output / "publications.bib").read_text(encoding="utf-8") + (output / "publications.ris").read_text(encoding="utf-8")
    assert "arxiv.org" not in exports and "<b>" not in exports
    urls = [line for line in exports.splitlines() if line.strip().startswith(("url = ", "UR  - "))]
    assert urls and not [url for url in urls if "<" in url or ">" in url or '"' in url]
    assert "https://doi.org/10.5555/%3C/script%3E%3Cscript%3Ealert(1)%3C/script%3E" in exports
    page = BeautifulSoup((output / "records/a/index.html").read_bytes(), "lxml")
    assert page.find("meta", attrs={"name": "citation_arxiv_id"}) is None and page.find("meta", attrs={"name": "citation_pdf_url"}) is None
    item = json.loads(page.select_one("[data-csl-item]")["data-csl-item"])
    assert "arxiv" not in json.dumps(item).lower()
    doi_page = BeautifulSoup((output / "records/d/index.html").read_bytes(), "lxml")
    assert doi_page.select_one('a[href^="https://doi.org/"]')["href"] == "https://doi.org/10.5555/%3C/script%3E%3Cscript%3Ealert(1)%3C/script%3E"
