"""The homepage in a real browser (Debian's chromium through Playwright): the CV printed to
PDF is the CV alone, and the dark-mode toggle starts from the system's setting, is
remembered, and is in force before the page is drawn.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.browser

CONTENT = Path(__file__).resolve().parents[2] / "content"


def pdf_text(data: bytes) -> str:
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(io.BytesIO(data))
    return " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)


def squeezed(text: str) -> str:
    """Text without spaces: a PDF's text comes back with spaces where lines were broken."""
    return re.sub(r"\s+", "", text)


def test_the_cv_prints_as_the_cv_alone(new_page, served_demo):
    page = new_page()
    page.goto(served_demo + "cv/")
    menu = [text.strip() for text in page.locator("header nav a").all_inner_texts()]
    cv_text = page.locator("article.cv").inner_text()
    printed = squeezed(pdf_text(page.pdf(format="A4", print_background=False)))

    cv = yaml.safe_load((CONTENT / "cv.yaml").read_text(encoding="utf-8"))
    for section in cv["sections"]:
        assert squeezed(section["title"]) in printed
        for entry in section.get("entries", []):
            assert squeezed(entry["title"]) in printed, entry["title"]
            if "org" in entry:
                assert squeezed(entry["org"].replace('{\\"a}', "ä")) in printed, entry["org"]
    for title in page.locator("article.cv .record-title").all_inner_texts():
        assert squeezed(title) in printed
    # no menu, buttons, skip link or footer on paper
    for word in [w for w in menu if w not in cv_text] + ["Skip to content", "Dark mode", "Built with", "publications.bib", "Abstract"]:
        assert squeezed(word) not in printed, word
    assert "Lena Müller" in pdf_text(page.pdf(format="A4"))


@pytest.mark.parametrize("chosen", [None, "dark"])
def test_paper_is_black_on_white_whatever_the_screens_scheme(new_page, served_demo, chosen):
    """A visitor whose system (or choice) is dark prints the light palette: no pale grey or white text on paper."""
    page = new_page(color_scheme="dark")
    page.goto(served_demo + "cv/")
    if chosen:
        page.evaluate(f"document.documentElement.setAttribute('data-colour-scheme', '{chosen}')")
    page.emulate_media(media="print")
    colours = page.evaluate("""() => ['body', '.cv-org', '.cv-details', '.cv-when', 'strong.owner'].map(selector => {
        const element = document.querySelector(selector);
        return [selector, element ? getComputedStyle(element).color : null];
    })""")
    for selector, colour in colours:
        assert colour is not None, selector
        red, green, blue = (int(value) for value in re.findall(r"\d+", colour)[:3])
        assert 0.2126 * red + 0.7152 * green + 0.0722 * blue < 110, (selector, colour)  # dark ink
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")


def test_a_stored_choice_is_applied_before_the_scripts_arrive(new_page, served_demo):
    """The visitor chose dark on a light system: the first paint is dark, even while colour-scheme.js is held up."""
    page = new_page(color_scheme="light")
    page.add_init_script("try { localStorage.setItem('sitegen-colour-scheme', 'dark'); } catch (e) {}")
    page.route("**/colour-scheme.js", lambda route: route.abort())
    page.goto(served_demo, wait_until="domcontentloaded")
    assert page.evaluate("document.documentElement.getAttribute('data-colour-scheme')") == "dark"
    red, green, blue = (int(v) for v in re.findall(r"\d+", page.evaluate("getComputedStyle(document.body).backgroundColor"))[:3])
    assert red + green + blue < 150  # dark


def test_dark_mode_starts_from_the_system_and_the_visitors_choice_is_remembered(new_page, served_demo):
    page = new_page(color_scheme="dark")
    page.goto(served_demo)
    toggle = page.locator("button.scheme-toggle")
    assert toggle.is_visible()
    assert toggle.get_attribute("aria-pressed") == "true"  # the system is dark
    dark = page.evaluate("getComputedStyle(document.body).backgroundColor")
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    light = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert light == "rgb(255, 255, 255)" and dark != light
    # another page of the same site, in the same browser: the choice holds from its first paint
    page.goto(served_demo + "cv/", wait_until="commit")
    page.wait_for_selector("body")
    assert page.evaluate("document.documentElement.getAttribute('data-colour-scheme')") == "light"
    page.wait_for_load_state("load")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == light
    assert page.locator("button.scheme-toggle").get_attribute("aria-pressed") == "false"


def test_a_light_system_can_choose_dark(new_page, served_demo):
    page = new_page(color_scheme="light")
    page.goto(served_demo + "news/")
    light = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.locator("button.scheme-toggle").click()
    page.reload()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != light
    assert page.locator("button.scheme-toggle").get_attribute("aria-pressed") == "true"


def test_the_homepage_pages_fit_a_phone(new_page, served_demo):
    page = new_page(viewport={"width": 360, "height": 740})
    for path in ("", "cv/", "news/", "talks/", "about/", "teaching/", "posts/", "posts/checkpoint-intervals/", "posts/tags/spot-instances/"):
        page.goto(served_demo + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"/{path} scrolls sideways by {overflow}px"
        header = page.locator("header.site-header").bounding_box()
        assert header["height"] < 160, f"/{path}: the header takes {header['height']}px of a phone's screen"


def test_an_old_address_takes_the_visitor_to_where_its_content_is_now(new_page, served_demo):
    """content/redirects.yaml: the old al-folio addresses of the demo lead on, to a page and to a part of the profile."""
    page = new_page()
    page.goto(served_demo + "blog/2024/reading-group/")
    page.wait_for_url(served_demo + "posts/reading-group/")
    assert page.locator("h1").inner_text() == "Our reading group on scheduling is open to everyone"
    page.goto(served_demo + "publications/")
    page.wait_for_url(served_demo + "#publications")
    assert page.locator("#publications").is_visible()


SIX_COLUMNS = """\
| dataset | method | params | accuracy | runtime | memory |
|---|---|---|---:|---|---|
| ProteinNet-12 | FoldFormer-large | 1.2B | 0.934 | 12h 30m | 80 GB |
"""
ELEVEN_COLUMNS = """\
| dataset | method | params | epochs | batch | lr | accuracy | f1 | runtime | memory | notes |
|---|---|---|---|---|---|---|---|---|---|---|
| ProteinNet-12 | FoldFormer-large | 1.2B | 300 | 512 | 3e-4 | 0.934 | 0.921 | 12h 30m | 80 GB | with augmentation enabled |
"""
# each cell without a space: its text, and on how many lines it is shown
CELL_LINES = """() => [...document.querySelectorAll('.prose td, .prose th')].filter(cell => !/\\s/.test(cell.textContent.trim())).map(cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return [cell.textContent.trim(), new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size];
})"""


@pytest.mark.parametrize("theme", ["default", "classic"])
def test_a_wide_table_scrolls_in_its_own_box_on_a_phone_with_words_and_numbers_whole(new_page, tmp_path, theme):
    """QA: `overflow-wrap: anywhere` split 0.934 into '0.9' / '34' and the page still scrolled sideways at 390 px."""
    from conftest import MINIMAL_SITE, run_sitegen, write_site

    from browser.conftest import serve

    axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed")
    post = f"---\ntitle: Results\ndate: 2025-07-01\n---\nSix columns:\n\n{SIX_COLUMNS}\nEleven:\n\n{ELEVEN_COLUMNS}\nA last paragraph.\n"
    site = write_site(
        tmp_path / "site",
        {**MINIMAL_SITE, "content/site.yaml": f"title: T\nbase_url: https://example.org/\ntheme: {theme}\n", "content/posts/2025-07-01-results.md": post},
    )
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
        page.goto(base + "posts/results/")
        assert page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]") == [390, 390]
        lines = dict(page.evaluate(CELL_LINES))
        assert {"0.934", "accuracy", "1.2B", "ProteinNet-12", "memory"} <= set(lines)
        assert {text: count for text, count in lines.items() if count != 1} == {}, "a word or number broken over lines"
        boxes = page.evaluate("""() => [...document.querySelectorAll('.prose table')].map(table => {
            const box = table.parentElement;
            return [box.scrollWidth > box.clientWidth, box.getBoundingClientRect().right <= 390, box.getAttribute('tabindex'),
                    box.getAttribute('role'), document.getElementById(box.getAttribute('aria-labelledby')).textContent.trim().split(/\\s+/)[0]];
        })""")
        assert boxes == [[True, True, "0", "region", "dataset"], [True, True, "0", "region", "dataset"]]
        page.keyboard.press("Tab")
        while page.evaluate("document.activeElement.className") != "table-scroll":
            page.keyboard.press("Tab")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.activeElement.scrollLeft > 0", timeout=3000)  # the keyboard scrolls the table
        found = axe.Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}).response["violations"]
        assert [violation["id"] for violation in found] == []
        page.set_viewport_size({"width": 1280, "height": 800})
        assert page.evaluate("document.documentElement.scrollWidth") == 1280


EIGHT_ITEM_MENU = {
    "content/profile.yaml": "name: Anna Kowalski\n",
    "content/records/a.yaml": "id: a\ntitle: A paper\nauthors: [Anna Kowalski]\nyear: 2024\nsource: J. A\n",
    "content/pages/teaching.md": "---\ntitle: Teaching\nnav: 2\n---\nCourses.\n",
    "content/pages/projects.md": "---\ntitle: Projects\nnav: 3\n---\nProjects.\n",
    "content/pages/contact.md": "---\ntitle: Contact\nnav: 4\n---\nMail me.\n",
    "content/cv.yaml": "sections:\n  - title: Positions\n    entries:\n      - {title: Postdoc, org: Example University, start: 2024-10}\n",
    "content/posts/2025-01-02-hello.md": "---\ntitle: Hello\n---\nA post.\n",
    "content/news/2025-01-03-news.md": "---\ndate: 2025-01-03\n---\nNews.\n",
    "content/talks/2025.yaml": "- {title: A talk, event: A workshop, date: 2025-02-01}\n",
}
BOX = "selector => { const box = document.querySelector(selector).getBoundingClientRect(); return [box.left, box.top, box.right, box.bottom]; }"


def test_the_dark_mode_toggle_stays_on_the_menus_row_with_eight_items(new_page, tmp_path):
    """QA: with an al-folio menu of 8 items, the toggle dropped to a header row of its own at 900-1920 px."""
    from conftest import MINIMAL_SITE, run_sitegen, write_site

    from browser.conftest import serve

    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **EIGHT_ITEM_MENU})
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page(viewport={"width": 1440, "height": 900})
        page.goto(base)
        menu = [text.strip() for text in page.locator(".site-header nav a").all_inner_texts()]
        assert menu == ["Publications", "Teaching", "Projects", "Contact", "CV", "Blog", "News", "Talks"]
        for width in (900, 1024, 1280, 1440, 1920):
            page.set_viewport_size({"width": width, "height": 900})
            toggle, name = page.evaluate(BOX, ".scheme-toggle"), page.evaluate(BOX, ".site-name")
            items = [page.evaluate(BOX, f".site-header nav li:nth-child({n})") for n in range(1, 9)]
            middle = (toggle[1] + toggle[3]) / 2
            assert all(item[1] < middle < item[3] for item in items), f"{width}px: the toggle {toggle} is not on the menu's row {items}"
            assert toggle[0] >= items[-1][2] and name[2] <= items[0][0], f"{width}px: name, menu, toggle are not side by side"
            assert page.evaluate(BOX, ".site-header")[3] < 80, f"{width}px: the header takes two rows"
        page.set_viewport_size({"width": 390, "height": 844})  # a phone: the menu on rows of its own, all of it on the screen
        assert page.evaluate("document.documentElement.scrollWidth") == 390
        toggle, name = page.evaluate(BOX, ".scheme-toggle"), page.evaluate(BOX, ".site-name")
        assert toggle[2] <= 390 and toggle[1] < name[3], "the toggle beside the name"
        for n in range(1, 9):
            item = page.evaluate(BOX, f".site-header nav li:nth-child({n}) a")
            assert 0 <= item[0] and item[2] <= 390 and item[1] >= toggle[3] - 1 and item[3] - item[1] >= 24, (n, item)
        page.locator(".scheme-toggle").click()
        assert page.locator(".scheme-toggle").get_attribute("aria-pressed") == "true"
    (site / "content" / "profile.yaml").write_text("name: Prof. Dr. Maria-Magdalena Müller-Lüdenscheidt von Hohenberg\n", encoding="utf-8")
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        for width in (390, 1024):  # a long name wraps beside the toggle, which stays on the first row
            page = new_page(viewport={"width": width, "height": 844})
            page.goto(base)
            toggle, name = page.evaluate(BOX, ".scheme-toggle"), page.evaluate(BOX, ".site-name")
            assert page.evaluate("document.documentElement.scrollWidth") == width
            assert name[2] <= toggle[0] and toggle[1] < name[3] and toggle[2] <= width, (width, name, toggle)


TEXT_BOXES = """selector => { const range = document.createRange(); range.selectNodeContents(document.querySelector(selector));
    return Array.from(range.getClientRects()).map(box => [box.left, box.top, box.right, box.bottom]); }"""


def test_a_long_name_in_the_classic_theme_stays_clear_of_the_toggle_in_its_corner(new_page, tmp_path):
    """The classic theme centres the name on a row of its own and pins the toggle to the header's corner: on a phone a
    long name ran under the toggle."""
    from conftest import MINIMAL_SITE, run_sitegen, write_site

    from browser.conftest import serve

    name = "Jo Li Wu Xi Yu Ze Mo Ka Lu Po Su Te Ra Di Fa Go Ha Ji Ko Ma No Pa Qi Re Si To"  # short words fill each line to its end
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, "content/profile.yaml": f"name: {name}\n", "content/site.yaml": "title: T\ntheme: classic\n"})
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        for width in (390, 1024):
            page = new_page(viewport={"width": width, "height": 844})
            page.goto(base)
            toggle = page.evaluate(BOX, ".scheme-toggle")
            lines = page.evaluate(TEXT_BOXES, ".site-header .site-name")
            overlapping = [line for line in lines if line[0] < toggle[2] and toggle[0] < line[2] and line[1] < toggle[3] and toggle[1] < line[3]]
            assert lines and not overlapping, (width, toggle, lines)
            assert page.evaluate("document.documentElement.scrollWidth") == width


def test_an_author_in_a_featured_card_is_a_link_the_pointer_reaches(new_page, tmp_path):
    """The card's title link covers the whole card: an author's link in it must be above it, or a click opens the record."""
    from conftest import MINIMAL_SITE, run_sitegen, write_site

    from browser.conftest import serve

    record = "id: a\ntitle: A featured paper\nauthors: [Ada Lovelace, Jonas Berg]\nyear: 2024\nsource: J. A\nfeatured: true\n"
    site = write_site(
        tmp_path / "site",
        {**MINIMAL_SITE, "content/records/a.yaml": record, "content/coauthors.yaml": "Jonas Berg: /static/jonas.html\n", "static/jonas.html": "<p>Jonas</p>"},
    )
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page(viewport={"width": 1280, "height": 900})
        page.goto(base)
        link = page.locator(".featured-cards .card-authors a")
        assert link.all_inner_texts() == ["Jonas Berg"]
        box = link.bounding_box()
        hit = page.evaluate(f"document.elementFromPoint({box['x'] + box['width'] / 2}, {box['y'] + box['height'] / 2}).textContent")
        assert hit == "Jonas Berg"
        link.click()
        page.wait_for_url("**/static/jonas.html")


@pytest.mark.parametrize("width", [1280, 390])
def test_a_featured_cards_pdf_and_abstract_are_reached_by_the_pointer(new_page, tmp_path, width):
    """A job market paper's card has its PDF and abstract: above the title's link that covers the card, so that a
    click opens the PDF or the abstract, not the record's page, on a desktop and a phone."""
    from conftest import MINIMAL_SITE, run_sitegen, write_site

    from browser.conftest import serve

    record = (
        "id: jmp\ntitle: Minimum Wages and Monopsony\nauthors: [Ada Lovelace]\nyear: 2026\ntype: report\nsource: Job Market Paper\n"
        "featured: true\nabstract: I study how the minimum wage interacts with employer power.\nlinks: {pdf: static/jmp.pdf}\n"
    )
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, "content/records/jmp.yaml": record, "static/jmp.pdf": "%PDF-1.4\n%%EOF\n"})
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page(viewport={"width": width, "height": 900})
        page.goto(base)
        card = page.locator(".featured-cards > li")
        summary = card.locator("details.abstract > summary")
        summary.click()
        assert card.locator("details.abstract").evaluate("d => d.open")
        assert card.locator(".abstract-body").is_visible() and page.url.rstrip("/") == base.rstrip("/")
        pdf = card.locator("ul.links a")
        box = pdf.bounding_box()
        hit = page.evaluate(f"document.elementFromPoint({box['x'] + box['width'] / 2}, {box['y'] + box['height'] / 2}).closest('a').href")
        assert hit.endswith("/static/jmp.pdf")
        assert page.evaluate("document.documentElement.scrollWidth") == width


@pytest.mark.parametrize("theme", ["default", "classic"])
def test_a_right_to_left_site_is_laid_out_from_the_right(new_page, tmp_path, theme):
    """`language: ar` gave left-to-right pages: the name at the left, the menu at the right, a quotation's and a
    featured card's bar and a list's bullets on the left of Arabic text."""
    from conftest import MINIMAL_SITE, run_sitegen, write_site

    from browser.conftest import serve

    site = write_site(
        tmp_path / "site",
        {
            **MINIMAL_SITE,
            "content/site.yaml": f"title: T\nbase_url: https://example.org/\nlanguage: ar\ntheme: {theme}\n",
            "content/profile.yaml": "name: محمد الخوارزمي\n",
            "content/records/a.yaml": "id: a\ntitle: خوارزميات جديدة\nauthors: [محمد الخوارزمي]\nyear: 2024\nsource: J. A\nfeatured: true\n",
            "content/pages/about.md": "---\ntitle: عني\nnav: 1\n---\n> اقتباس طويل\n\n- أول\n- ثان\n",
        },
    )
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page(viewport={"width": 1280, "height": 800})
        page.goto(base + "about/")
        name, menu = (page.locator(selector).first.bounding_box() for selector in (".site-header .site-name", "header nav"))
        toggle = page.locator(".scheme-toggle").bounding_box()
        assert name is not None and menu is not None and toggle is not None
        if theme == "default":
            assert name["x"] > menu["x"], "the site's name is not at the right of the menu"
        assert toggle["x"] < name["x"], "the colour scheme's button is not at the left"
        quote = page.evaluate("getComputedStyle(document.querySelector('.prose blockquote'))['border-right-width']")
        assert quote == "3px"
        bullets = page.evaluate("(() => { const s = getComputedStyle(document.querySelector('.prose ul')); return [s.paddingRight, s.paddingLeft]; })()")
        assert bullets[0] != "0px" and bullets[1] == "0px"
        page.goto(base + "records/a/")
        assert page.evaluate("getComputedStyle(document.querySelector('pre.bibtex')).direction") == "ltr"  # code stays left to right
        arrow = page.evaluate("getComputedStyle(document.querySelector('.breadcrumb .arrow')).transform")
        assert arrow == "matrix(-1, 0, 0, 1, 0, 0)"  # "← All publications" points right, back the way the page is read


@pytest.mark.parametrize("theme", ["default", "classic"])
def test_the_sites_accent_colours_links_and_buttons_in_both_schemes(new_page, tmp_path, theme):
    """QA: a student's `--accent` in a stylesheet of their own coloured the light scheme only (and not at all under
    classic, which sets its own on <body>); `accent:` in site.yaml colours both, and the toggle's choice too."""
    from conftest import MINIMAL_SITE, run_sitegen, write_site

    from browser.conftest import serve

    files = {**MINIMAL_SITE, "content/site.yaml": f'title: T\ntheme: {theme}\naccent: "#b5179e"\n'}
    files["content/profile.yaml"] = "name: Priya Raman\nbio: I study at the [University of Stuttgart](https://www.uni-stuttgart.de/).\n"
    site = write_site(tmp_path / "site", files)
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    link = "() => getComputedStyle(document.querySelector('.bio a')).color"
    with serve(site / "output") as base:
        light = new_page(color_scheme="light")
        light.goto(base)
        assert light.evaluate(link) == "rgb(181, 23, 158)"
        dark = new_page(color_scheme="dark")
        dark.goto(base)
        shown = dark.evaluate(link)
        assert shown not in ("rgb(181, 23, 158)", "rgb(138, 180, 255)", "rgb(232, 163, 163)"), shown  # not light's, nor the theme's blue or classic's
        red, green, blue = (int(n) for n in re.findall(r"\d+", shown))
        assert red > blue > green, shown  # still magenta, made lighter
        dark.locator(".scheme-toggle").click()  # the visitor chooses light
        assert dark.evaluate(link) == "rgb(181, 23, 158)"


CENTRE_PIXEL = """async (src) => { const picture = new Image(); picture.src = src; await picture.decode();
    const canvas = document.createElement('canvas'); canvas.width = picture.width; canvas.height = picture.height;
    const context = canvas.getContext('2d'); context.drawImage(picture, 0, 0);
    return Array.from(context.getImageData(picture.width / 2 | 0, picture.height / 2 | 0, 1, 1).data).slice(0, 3); }"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_tall_portrait_shows_the_face_not_the_middle(new_page, tmp_path, width):
    """QA: a portrait three times as tall as wide (the face in its top third, as portraits are taken) showed the
    middle of the picture in the round frame: a shirt, the head cut off."""
    import base64

    from conftest import MINIMAL_SITE, run_sitegen, write_site

    from browser.conftest import serve

    portrait = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="600" viewBox="0 0 200 600">'
        '<rect width="200" height="600" fill="#0000ff"/><rect width="200" height="200" fill="#ff0000"/></svg>'
    )  # red: the face, in the top third; blue: the rest
    files = {**MINIMAL_SITE, "content/profile.yaml": "name: Priya Raman\nphoto: portrait.svg\n", "static/portrait.svg": portrait}
    site = write_site(tmp_path / "site", files)
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page(viewport={"width": width, "height": 900})
        page.goto(base)
        shot = page.locator("img.photo").screenshot()
        red, green, blue = page.evaluate(CENTRE_PIXEL, "data:image/png;base64," + base64.b64encode(shot).decode())
        assert red > 200 and blue < 60, (red, green, blue)
