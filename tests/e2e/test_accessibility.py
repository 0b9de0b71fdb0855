"""Accessibility of the built demo site.

Structure is read from every built page (BeautifulSoup): language, one h1,
landmarks, skip link, heading order, alt text, link and button names. What people
see is measured in Debian's chromium (Playwright): the WCAG contrast of every
piece of visible text against what is really behind it, in the light and the dark
palette; a visible focus indicator on everything reachable by Tab; and text that
reflows at 320 CSS pixels without sideways scrolling.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import pages_to_read, run_sitegen

GENERIC_LINK_TEXT = {"click here", "here", "more", "read more", "link", "this", "this page", "details"}


# --- structure, on every page ------------------------------------------------------------


def html_pages(output: Path) -> list[Path]:
    return pages_to_read(output)


def soup_of(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_bytes(), "lxml")


def accessible_name(tag) -> str:
    if tag.get("aria-label"):
        return tag["aria-label"].strip()
    if tag.get("aria-labelledby"):
        root = tag.find_parent("html")
        return " ".join(root.find(id=i).get_text(" ", strip=True) for i in tag["aria-labelledby"].split())
    text = " ".join(tag.get_text(" ", strip=True).split())
    images = " ".join(img.get("alt", "") for img in tag.find_all("img"))
    return (text + " " + images).strip()


@pytest.fixture(scope="module")
def pages(built_demo):
    found = {path.relative_to(built_demo).as_posix(): soup_of(path) for path in html_pages(built_demo)}
    assert len(found) > 20
    return found


@pytest.mark.slow
def test_every_page_names_its_language(pages):
    for name, soup in pages.items():
        assert re.fullmatch(r"[a-z]{2,3}(-[A-Za-z0-9]+)*", soup.html.get("lang", "")), name


@pytest.mark.slow
def test_every_page_has_one_h1_and_the_landmarks(pages):
    for name, soup in pages.items():
        assert len(soup.find_all("h1")) == 1, name
        body = soup.body
        assert len(body.find_all("header", recursive=False)) == 1, f"{name}: one banner"
        assert len(body.find_all("main", recursive=False)) == 1 and body.main.get("id") == "main", name
        assert len(body.find_all("footer", recursive=False)) == 1, f"{name}: one contentinfo"
        navs = soup.find_all("nav")
        labels = [n.get("aria-label") or (n.get("aria-labelledby") and soup.find(id=n["aria-labelledby"]).get_text()) for n in navs]
        assert navs and all(labels), f"{name}: every nav is named (its aria-label, or the heading its aria-labelledby names)"
        assert len(labels) == len(set(labels)), f"{name}: navigation landmarks have distinct names"


def test_skip_link_is_the_first_focusable_element_and_reaches_main(pages):
    for name, soup in pages.items():
        first = soup.body.find(["a", "button", "input", "select", "textarea", "summary"])
        assert first.name == "a" and first.get("href") == "#main", name
        assert "skip" in first.get_text().lower()
        assert soup.find(id="main").name == "main"


def test_headings_never_skip_a_level_going_down(pages):
    for name, soup in pages.items():
        levels = [int(h.name[1]) for h in soup.find_all(re.compile(r"^h[1-6]$"))]
        assert levels[0] == 1, f"{name}: the first heading is the h1"
        for before, after in zip(levels, levels[1:]):
            assert after <= before + 1, f"{name}: h{before} is followed by h{after}"


@pytest.mark.slow
def test_images_have_alt_text(demo_site):
    """The demo profile has a photo (content/profile.yaml `photo:`, a file in static/), and a record a picture
    (`image:`, described by `image_alt:`): the photo and the record page's picture are described; in lists the
    picture's thumbnail is marked decorative (`alt=""`, so that a screen reader passes it over on every list),
    the record's title beside it saying what it belongs to."""
    result = run_sitegen("build", "--site", str(demo_site))
    assert result.returncode == 0, result.stderr
    images = [(path.relative_to(demo_site / "output"), img) for path in html_pages(demo_site / "output") for img in soup_of(path).find_all("img")]
    pictures = [(name, img) for name, img in images if "record-thumbnail" in img.get("class", [])]
    assert len(images) > len(pictures) > 0, "the profile photo and a record's picture should be shown"
    for name, img in images:
        assert img.has_attr("alt"), f"{name}: {img}"
        if (name, img) not in pictures:
            assert img["alt"].strip(), f"{name}: {img}"
    for name, img in pictures:
        assert img["alt"] == "", f"{name}: {img}"
        assert img.find_parent("article").find(["h1", "h4"]).get_text(strip=True), f"{name}: no title beside {img}"


def test_links_and_controls_say_where_they_go_and_what_they_do(pages):
    for name, soup in pages.items():
        targets_of_name: dict[str, set[str]] = {}
        for a in soup.find_all("a", href=True):
            label = accessible_name(a)
            assert label, f"{name}: a link with no text: {a}"
            assert label.lower() not in GENERIC_LINK_TEXT, f"{name}: vague link text {label!r}"
            targets_of_name.setdefault(label, set()).add(a["href"])
        ambiguous = {label: hrefs for label, hrefs in targets_of_name.items() if len(hrefs) > 1}
        assert ambiguous == {}, f"{name}: links with the same name go to different places"
        for control in soup.find_all(["button", "summary"]):
            assert accessible_name(control), f"{name}: {control}"


def test_headings_and_links_holding_a_formula_are_named_in_plain_text(pages):
    """Chromium leaves MathML out of a name computed from content: a link or heading whose text holds a formula
    names itself in plain text ("Breaking the O(n²) Barrier ..."), the formula's characters as the page prints them."""
    named = 0
    for name, soup in pages.items():
        for tag in soup.find_all(["h1", "h2", "h3", "h4", "a"]):
            if tag.find("math") is None or (tag.name != "a" and tag.find("a") is not None):
                continue  # a heading holding a link is named by the link
            label = accessible_name(tag) if tag.get("aria-label") or tag.get("aria-labelledby") else ""
            assert label and "\\" not in label and "$" not in label, f"{name}: {tag.name} unnamed: {tag.get_text()[:60]!r}"
            text = "".join(piece if isinstance(piece, str) else "" for piece in tag.find_all(string=True) if not piece.find_parent("math"))
            assert all(word in label for word in text.split()), f"{name}: {label!r} is not {text!r}"
            named += 1
    assert named >= 8  # the demo: two titles with formulas, on the profile, their record pages, subject pages


def test_footnote_links_say_they_are_footnotes(pages):
    """A footnote's mark in the text is a link named "1" and its way back "↩" (read "leftwards arrow with hook", or
    nothing): each says what it is, in the site's language."""
    post = pages["posts/checkpoint-intervals/index.html"]
    marks = list(post.find_all("a", href=re.compile("^#fn-")))
    backs = list(post.find_all("a", href=re.compile("^#fnref-")))
    assert marks and len(marks) == len(backs)
    for number, (mark, back) in enumerate(zip(marks, backs), 1):
        assert accessible_name(mark) == f"Footnote {number}" and mark.get_text() == str(number)
        assert accessible_name(back) == f"Back to the text of footnote {number}"
        assert back.get("title") == accessible_name(back)


@pytest.mark.slow
def test_footnote_links_are_named_in_the_sites_language(demo_site):
    site_yaml = demo_site / "content" / "site.yaml"
    site_yaml.write_text(site_yaml.read_text(encoding="utf-8").replace("language: en", "language: de"), encoding="utf-8")
    result = run_sitegen("build", "--site", str(demo_site))
    assert result.returncode == 0, result.stderr
    post = soup_of(demo_site / "output" / "posts" / "checkpoint-intervals" / "index.html")
    assert accessible_name(post.find("a", href=re.compile("^#fn-"))) == "Fußnote 1"
    assert accessible_name(post.find("a", href=re.compile("^#fnref-"))) == "Zurück zum Text von Fußnote 1"


def test_aria_references_point_at_existing_elements(pages):
    for name, soup in pages.items():
        ids = {t["id"] for t in soup.find_all(id=True)}
        for tag in soup.find_all(attrs={"aria-labelledby": True}):
            assert set(tag["aria-labelledby"].split()) <= ids, f"{name}: {tag.name} aria-labelledby"
        for tag in soup.find_all("a", href=re.compile("^#.")):
            assert tag["href"][1:] in ids, f"{name}: {tag['href']}"


# --- what people see, in chromium --------------------------------------------------------

COLLECT_TEXT_COLOURS = """() => {
  const parse = c => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const backdrop = el => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let base = [255, 255, 255];
    if (layers.length && layers[layers.length - 1][3] >= 1) base = layers.pop().slice(0, 3);
    for (let i = layers.length - 1; i >= 0; i--) { const [r, g, b, a] = layers[i]; base = [r * a + base[0] * (1 - a), g * a + base[1] * (1 - a), b * a + base[2] * (1 - a)]; }
    return base;
  };
  const found = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width <= 1 || box.height <= 1 || style.visibility !== 'visible') continue;
    found.push({what: el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : ''),
                text: el.textContent.trim().slice(0, 40), colour: parse(style.color), backdrop: backdrop(el),
                size: parseFloat(style.fontSize), weight: parseInt(style.fontWeight, 10)});
  }
  return found;
}"""

FOCUS_STATE = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const box = el.getBoundingClientRect();
  return {what: el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : ''),
          text: (el.textContent || '').trim().slice(0, 40), outlineStyle: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth),
          outlineColour: style.outlineColor, boxShadow: style.boxShadow,
          backdrop: (() => { for (let e = el.parentElement; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
                               if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c; } return 'rgb(255, 255, 255)'; })(),
          inView: box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth};
}"""


def channels(colour) -> list[float]:
    if isinstance(colour, str):
        colour = [float(v) for v in re.findall(r"[\d.]+", colour)[:3]]
    return [float(v) for v in colour[:3]]


def relative_luminance(colour) -> float:
    def linear(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in channels(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(foreground, background) -> float:
    a, b = sorted((relative_luminance(foreground), relative_luminance(background)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def blend(colour, backdrop) -> list[float]:
    alpha = colour[3] if len(colour) > 3 else 1
    return [c * alpha + b * (1 - alpha) for c, b in zip(channels(colour), channels(backdrop))]


def test_wcag_contrast_formula():
    assert contrast([0, 0, 0], [255, 255, 255]) == pytest.approx(21)
    assert contrast([118, 118, 118], [255, 255, 255]) == pytest.approx(4.54, abs=0.01)  # the classic AA grey


@pytest.fixture(scope="module")
def chromium(pytestconfig):
    from browser.conftest import shared_browser  # tests/browser/conftest.py: one Playwright per test run

    return shared_browser(pytestconfig)


@pytest.fixture(scope="module")
def site_url(built_demo):
    from crawl import serve_directory  # tests/crawl.py

    with serve_directory(built_demo, prefix="/") as base_url:
        yield base_url


def sample_pages(output: Path) -> list[str]:
    """The profile, the 404 page, a subject page, a featured record page, a record page with math,
    and the homepage's own pages that the demo has (CV, news, talks, a page of content/pages, the blog and a post)."""
    records = sorted(output.glob("records/*/index.html"))
    featured = next(p for p in records if 'class="badge"' in p.read_text(encoding="utf-8"))
    with_math = next(p for p in records if "<h1" in (t := p.read_text(encoding="utf-8")) and "<math" in t.split("<h1", 1)[1].split("</h1>", 1)[0])
    subject = sorted(output.glob("subjects/*/index.html"))[0]
    homepage = [f"{name}/" for name in ("cv", "news", "talks", "about", "posts", "posts/checkpoint-intervals") if (output / name / "index.html").is_file()]
    return ["", "404.html"] + [p.parent.relative_to(output).as_posix() + "/" for p in (subject, featured, with_math)] + homepage


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_all_visible_text_meets_wcag_aa_contrast(chromium, site_url, built_demo, scheme):
    context = chromium.new_context(color_scheme=scheme, viewport={"width": 1100, "height": 900})
    failures, checked = [], 0
    try:
        page = context.new_page()
        for path in sample_pages(built_demo):
            page.goto(site_url + path)
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            for item in page.evaluate(COLLECT_TEXT_COLOURS):
                checked += 1
                large = item["size"] >= 24 or (item["size"] >= 18.66 and item["weight"] >= 700)
                needed = 3.0 if large else 4.5
                ratio = contrast(blend(item["colour"], item["backdrop"]), item["backdrop"])
                if ratio < needed:
                    failures.append(f"/{path} {item['what']} {item['text']!r}: {ratio:.2f} < {needed}")
    finally:
        context.close()
    assert checked > 300
    assert failures == []


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_keyboard_focus_is_always_visible(chromium, site_url, built_demo, scheme):
    context = chromium.new_context(color_scheme=scheme, viewport={"width": 1100, "height": 900})
    problems, seen = [], 0
    try:
        page = context.new_page()
        for path, presses in (("", 45), (sample_pages(built_demo)[3], 25)):
            page.goto(site_url + path)
            for _ in range(presses):
                page.keyboard.press("Tab")
                state = page.evaluate(FOCUS_STATE)
                if state["what"] == "body":
                    break
                seen += 1
                where = f"/{path} {state['what']} {state['text']!r}"
                if state["outlineStyle"] == "none" or state["outlineWidth"] < 2:
                    problems.append(f"{where}: no visible outline")
                elif contrast(state["outlineColour"], state["backdrop"]) < 3:
                    problems.append(f"{where}: outline contrast {contrast(state['outlineColour'], state['backdrop']):.2f} < 3")
                if not state["inView"]:
                    problems.append(f"{where}: focused but scrolled out of view")
    finally:
        context.close()
    assert seen >= 40
    assert problems == []


@pytest.mark.browser
def test_text_reflows_at_320_css_pixels(chromium, site_url, built_demo):
    context = chromium.new_context(viewport={"width": 320, "height": 640})
    try:
        page = context.new_page()
        for path in sample_pages(built_demo):
            page.goto(site_url + path)
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"/{path} scrolls sideways by {overflow}px at 320px"
    finally:
        context.close()


def chromium_names(page, roles: set[str]) -> list[str]:
    """The names Chromium's accessibility tree (what a screen reader is given) gives the elements of these roles."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    return [node.get("name", {}).get("value", "") for node in nodes if node.get("role", {}).get("value") in roles]


@pytest.mark.browser
def test_titles_with_formulas_are_named_with_them(chromium, site_url):
    """A screen reader moving by headings or links hears a title's formula too: Chromium leaves MathML out of
    the name it computes from content ("Breaking the Barrier in Long-Context Prefill ..."), so each formula
    carries its plain text as its name."""
    title = "Breaking the O(n²) Barrier in Long-Context Prefill with Sketch-Guided Sparse Attention"
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(site_url)
        assert title in chromium_names(page, {"heading"})
        assert title in chromium_names(page, {"link"})
        # (Chromium sets a formula apart by spaces: "l₁ -Regularized")
        assert "SparseGradientCompressionwithℓ₁-RegularizedErrorFeedback" in [name.replace(" ", "") for name in chromium_names(page, {"heading"})]
        page.goto(site_url + "records/2601.08832/")
        assert title in chromium_names(page, {"heading"})
        assert title in chromium_names(page, {"article"})
    finally:
        context.close()


@pytest.mark.slow
def test_a_record_in_another_language_is_marked_so(demo_site):
    """A German title on an English site is read by an English voice unless it says its language (WCAG 3.1.2):
    a record's `language` marks its title and abstract wherever they are shown; a record in the site's language,
    and one that says nothing, are not marked."""
    (demo_site / "content" / "records" / "german.yaml").write_text(
        "id: konvergenz2019\n"
        "title: Über die Konvergenz verteilter Bildklassifikatoren\n"
        "authors: ['Lena M{\\\"u}ller']\n"
        "year: 2019\n"
        "source: Informatik Spektrum\n"
        "featured: true\n"
        "language: ngerman\n"  # as BibTeX's langid writes it
        "abstract: Wir untersuchen die Konvergenz.\n",
        encoding="utf-8",
    )
    (demo_site / "content" / "records" / "english.yaml").write_text(
        "id: english2019\ntitle: In the site's language\nauthors: ['Lena Müller']\nyear: 2019\nlanguage: en\n", encoding="utf-8"
    )
    result = run_sitegen("build", "--site", str(demo_site))
    assert result.returncode == 0, result.stderr
    output = demo_site / "output"
    profile, page = soup_of(output / "index.html"), soup_of(output / "records" / "konvergenz2019" / "index.html")
    item = profile.find(id="r-konvergenz2019")
    assert item.find(class_="record-title")["lang"] == "de" and item.find(class_="abstract-body")["lang"] == "de"
    assert profile.find("a", class_="card-title", href=re.compile("konvergenz2019"))["lang"] == "de"
    assert page.find("h1")["lang"] == "de" and page.find(class_="abstract-body")["lang"] == "de"
    assert page.html["lang"] == "en" and page.find("p", class_="authors").get("lang") is None  # names and the rest: the site's
    assert not profile.find(id="r-english2019").find(attrs={"lang": True})
    assert not profile.find(id="r-2601.08832").find(attrs={"lang": True})
