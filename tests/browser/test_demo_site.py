"""The demo site in a real browser (Debian's chromium through Playwright), served over loopback HTTP.

What a visitor sees and does: pages load without errors or failed requests and
never reach past the site's own origin, math shows as MathML, abstracts open by
click and keyboard, "Copy BibTeX" copies, the year navigation jumps, the layout
fits a phone, follows the system's dark mode, and prints as a clean list.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from conftest import copy_demo, run_sitegen

from browser.conftest import serve
from sitegen.urls import slugify

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
CONTENT = REPO / "content"


def content_records() -> list[dict]:
    records = []
    for path in sorted((CONTENT / "records").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        records += data if isinstance(data, list) else [data]
    return [r for r in records if isinstance(r, dict) and not r.get("hidden")]


def slug(record_id: object) -> str:
    """A record's folder name, from its id as YAML read it (2008.06613 is a number there)."""
    return slugify(str(record_id))


def record_with_title_math() -> dict:
    """The demo record whose title holds `$O(n^2)$`, found in content/ (not hard-coded)."""
    matches = [r for r in content_records() if "$O(n^2)$" in str(r.get("title", ""))]
    assert matches, "the demo content should hold a record titled with $O(n^2)$"
    return matches[0]


def first_subject() -> str:
    for record in content_records():
        if record.get("categories"):
            return record["categories"][0]
    raise AssertionError("no demo record has a subject")


class PageWatch:
    """Everything that went wrong while a page loaded: console errors, exceptions, failed or foreign requests."""

    def __init__(self, page, base_url: str):
        self.problems: list[str] = []
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(base_url))
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"console error: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url} ({r.failure})"))
        page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))
        page.on(
            "request",
            lambda r: (
                r.url.startswith(("http:", "https:")) and not r.url.startswith(origin + "/") and self.problems.append(f"request leaves the site: {r.url}")
            ),
        )


def pages_to_check() -> dict[str, str]:
    return {
        "profile": "",
        "record": f"records/{slug(record_with_title_math()['id'])}/",
        "subject": f"subjects/{slug(first_subject())}/",
        "404": "404.html",
    }


@pytest.mark.parametrize("name", ["profile", "record", "subject", "404"])
def test_page_loads_without_errors_or_failed_requests(new_page, served_demo, name):
    page = new_page()
    watch = PageWatch(page, served_demo)
    response = page.goto(served_demo + pages_to_check()[name], wait_until="load")
    assert response.status == 200
    assert watch.problems == []
    assert page.locator("h1").count() == 1 and page.locator("h1").is_visible()
    stylesheet_applied = page.evaluate("getComputedStyle(document.querySelector('.site-header')).borderBottomStyle")
    assert stylesheet_applied == "solid", "style.css did not load"


def test_title_math_is_mathml_on_the_record_page_and_in_the_list(page, served_demo):
    record = record_with_title_math()
    page.goto(served_demo + f"records/{slug(record['id'])}/")
    heading = page.locator("h1")
    math = heading.locator("math")
    assert math.count() >= 1
    assert math.first.is_visible() and math.first.bounding_box()["width"] > 10
    assert "$" not in heading.inner_text()
    assert page.locator("h1 math msup, h1 math msup *").count() >= 1  # n^2 is a superscript, not the text "^2"

    page.goto(served_demo)
    item = page.locator(f'[id="r-{slug(record["id"])}"]')
    assert item.locator(".record-title math").count() >= 1
    assert "$" not in item.locator(".record-title").inner_text()


def test_abstract_opens_on_click(page, served_demo):
    page.goto(served_demo)
    details = page.locator("details.abstract").first
    body = details.locator(".abstract-body")
    assert details.evaluate("d => d.open") is False
    assert not body.is_visible()
    details.locator("summary").click()
    assert details.evaluate("d => d.open") is True
    assert body.is_visible() and len(body.inner_text()) > 40
    details.locator("summary").click()
    assert details.evaluate("d => d.open") is False


def test_abstract_opens_by_keyboard(page, served_demo):
    page.goto(served_demo)
    details = page.locator("details.abstract").nth(1)
    summary = details.locator("summary")
    summary.focus()
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    page.keyboard.press("Enter")
    assert details.evaluate("d => d.open") is True
    assert details.locator(".abstract-body").is_visible()
    page.keyboard.press("Space")
    assert details.evaluate("d => d.open") is False


def test_copy_bibtex_copies_the_entry(new_page, served_demo):
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    watch = PageWatch(page, served_demo)
    record = record_with_title_math()
    page.goto(served_demo + f"records/{slug(record['id'])}/")
    button = page.get_by_role("button", name="Copy BibTeX")
    assert button.is_visible()
    entry = page.locator("pre.bibtex").inner_text()
    assert entry.lstrip().startswith("@") and str(record["id"]) in entry
    button.click()
    status = page.locator(".copy-status")
    status.filter(has_text="copied").wait_for()
    assert page.evaluate("navigator.clipboard.readText()").strip() == entry.strip()
    assert watch.problems == []


def test_copy_button_is_hidden_without_javascript(new_page, served_demo):
    page = new_page(java_script_enabled=False)
    page.goto(served_demo + f"records/{slug(record_with_title_math()['id'])}/")
    assert not page.locator("button.copy").is_visible()
    assert page.locator("pre.bibtex").is_visible()  # the entry is still there to select


def test_year_navigation_jumps_to_the_year(page, served_demo):
    years = sorted({int(r["year"]) if r.get("year") else int(str(r["date"])[:4]) for r in content_records()}, reverse=True)
    page.goto(served_demo)
    nav = page.get_by_role("navigation", name="Publications by year")
    assert nav.locator("a").all_inner_texts() == [str(y) for y in years]
    oldest = years[-1]
    nav.get_by_role("link", name=str(oldest)).click()
    page.wait_for_function(f"location.hash === '#year-{oldest}'")
    page.wait_for_function(  # scrolled into view (smoothly, where motion is welcome)
        f"(r => r.top >= 0 && r.bottom <= innerHeight)(document.getElementById('year-{oldest}').getBoundingClientRect())"
    )
    assert page.evaluate("scrollY") > 1000


def test_skip_link_is_first_and_visible_on_focus(page, served_demo):
    page.goto(served_demo)
    page.keyboard.press("Tab")
    focused = page.evaluate("[document.activeElement.className, document.activeElement.getAttribute('href')]")
    assert focused == ["skip-link", "#main"]
    box = page.locator(".skip-link").bounding_box()
    assert box["y"] >= 0 and box["x"] >= 0, "the skip link should come into view when focused"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"


@pytest.mark.parametrize("name", ["profile", "record"])
def test_fits_a_phone_screen(new_page, served_demo, name):
    page = new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page.goto(served_demo + pages_to_check()[name])
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px on a phone"
    font_size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert font_size >= 16
    for selector in ("h1", ".site-header nav a", "main p"):
        box = page.locator(selector).first.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, selector


WIDE_FORMULA = r"$\tilde{O}(\sqrt{d T \log(K/\delta)} + d^{2} \log^{3}(T) / \epsilon^{2})$"


def test_a_formula_wider_than_a_phone_scrolls_within_itself_and_by_keyboard(new_page, tmp_path):
    """MathML does not break lines: a long formula in a title or an abstract scrolls on its own, not the page."""
    site = copy_demo(tmp_path / "site")
    record = {
        "id": "wide2024",
        "title": f"Regret {WIDE_FORMULA} for Bandits",
        "authors": ["Lena Müller"],
        "year": 2024,
        "source": "J",
        "abstract": "We show $" + "+".join(f"a_{{{i}}}" for i in range(1, 16)) + "$ holds.",
    }
    (site / "content" / "records" / "wide.yaml").write_text(yaml.safe_dump(record), encoding="utf-8")
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page(viewport={"width": 375, "height": 800})
        page.goto(base + "records/wide2024/")
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
        formulas = page.evaluate("[...document.querySelectorAll('main math')].map(m => [m.scrollWidth > m.clientWidth, m.getAttribute('tabindex')])")
        assert formulas == [[True, "0"], [True, "0"]]  # the title's and the abstract's
        page.keyboard.press("Tab")
        while page.evaluate("document.activeElement.localName") != "math":
            page.keyboard.press("Tab")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.activeElement.scrollLeft > 0", timeout=3000)  # smooth scrolling takes a moment
        page.set_viewport_size({"width": 1280, "height": 800})
        page.wait_for_function("() => !document.querySelector('main math[tabindex]')")  # wide enough: no tab stop


def luminance(css_colour: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"[\d.]+", css_colour)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_follows_the_system_colour_scheme(new_page, served_demo):
    colours = {}
    for scheme in ("light", "dark"):
        page = new_page(color_scheme=scheme)
        page.goto(served_demo)
        colours[scheme] = page.evaluate(
            "[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color,"
            " getComputedStyle(document.querySelector('.record-title a')).color]"
        )
    assert luminance(colours["light"][0]) > 0.9 and luminance(colours["light"][1]) < 0.2
    assert luminance(colours["dark"][0]) < 0.15 and luminance(colours["dark"][1]) > 0.7
    assert luminance(colours["dark"][2]) > 0.7  # record titles are light text on dark


def test_print_shows_a_clean_publication_list(page, served_demo):
    page.goto(served_demo)
    page.emulate_media(media="print")
    hidden = ["header.site-header", "footer.site-footer", ".year-nav", "details.abstract", ".skip-link", ".featured-section"]
    for selector in hidden:
        assert not page.locator(selector).first.is_visible(), f"{selector} should not print"
    records = page.locator("#publications li.record")
    assert records.count() == len(content_records())
    assert all(records.nth(i).is_visible() for i in range(records.count()))
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    doi = page.locator("#publications .links .link-doi a").first
    assert "doi.org" in doi.evaluate("a => getComputedStyle(a, '::after').content")  # the DOI is written out on paper
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") >= 2


def test_print_of_a_record_page_keeps_abstract_and_bibtex(page, served_demo):
    page.goto(served_demo + pages_to_check()["record"])
    page.emulate_media(media="print")
    assert page.locator(".abstract-body").is_visible()
    assert page.locator("pre.bibtex").is_visible()
    assert not page.locator("button.copy").is_visible()
    assert page.evaluate("getComputedStyle(document.querySelector('pre.bibtex')).whiteSpace") == "pre-wrap"


AFTER = "a => getComputedStyle(a, '::after').content"


def test_print_writes_out_where_links_in_text_lead(page, served_demo):
    """On paper a link is its words only: a link to another site in a page, the bio, an abstract or a CV entry
    prints its address after them, as the record's PDF and DOI links do. Links to the site's own pages and to
    co-authors' pages do not."""
    printed = {
        "": ("Example Systems Lab", "https://example.org"),  # the profile's bio
        "about/": ("institute's page", "https://example.org"),  # a page of content/pages/
        "cv/": ("Visiting Researcher", "https://example.org"),  # a CV entry's url
        "records/2602.04417/": ("github.com/example-lena/tidewater", "https://github.com/example-lena/tidewater"),  # an abstract
    }
    for path, (words, address) in printed.items():
        page.goto(served_demo + path)
        page.emulate_media(media="print")
        link = page.locator("main a", has_text=words).first
        assert address in link.evaluate(AFTER), f"/{path}: {words!r} prints no address"
        assert page.locator("main a.coauthor").first.evaluate(AFTER) == "none", f"/{path}: a co-author's address printed"
        assert page.locator("main a[href^='/']").first.evaluate(AFTER) == "none", f"/{path}: an address of the site printed"
        page.emulate_media(media="screen")
        assert link.evaluate(AFTER) == "none"
    page.goto(served_demo + "records/2602.04417/")
    page.emulate_media(media="print")
    assert page.locator(".record-page ul.links a").first.evaluate(AFTER).startswith('": https://')  # as before


def test_forced_colours_keep_the_current_page_and_the_target_record_marked(new_page, tmp_path):
    """Windows' high contrast (forced colours) drops the theme's fills: the current page of a paged list was told
    from the others by its filled background only (then by bold type alone), a record reached by its #anchor by
    its tinted background (then not at all). Both keep a mark in the system's colours."""
    site = copy_demo(tmp_path / "site")
    settings = site / "content" / "site.yaml"
    settings.write_text(settings.read_text(encoding="utf-8") + "\nrecords_per_page: 5\n", encoding="utf-8")
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page(forced_colors="active")
        page.goto(base + "page/2/")
        style = "(a, name) => getComputedStyle(a)[name]"
        canvas = page.evaluate("getComputedStyle(document.body).backgroundColor")
        filled = page.locator(".pagination a[aria-current=page]").evaluate(style, "backgroundColor")
        assert filled != canvas and not filled.startswith("rgba(255, 255, 255"), f"the current page is not filled: {filled}"
        anchor = page.locator("#publications li.record").first.get_attribute("id")
        page.goto(base + f"page/2/#{anchor}")
        target = page.locator(f"[id='{anchor}']")
        assert target.evaluate(style, "outlineStyle") == "solid" and float(target.evaluate(style, "outlineWidth").removesuffix("px")) >= 2
        page.emulate_media(forced_colors="none")
        assert target.evaluate(style, "outlineStyle") == "none"  # the theme's own tint, as before


def test_a_formula_is_measured_once_rendered_not_by_forcing_the_layout_of_the_whole_list(new_page, tmp_path):
    """formulas.js measured every formula of the page at once, in closed abstracts and in the years a long list
    leaves unrendered too (content-visibility), forcing their layout: a 1.1 s task on a phone at 250 records, 30
    Lighthouse points. A formula is measured once it is shown: a wide one in an abstract opened later gets its tab
    stop then (it measured 0 wide while the abstract was closed, and never got one)."""
    site = copy_demo(tmp_path / "site")
    sum_of_terms = "+".join(f"a_{{{i}}}" for i in range(1, 16))
    record = {"id": "wide2024", "title": "Regret Bounds for Bandits", "authors": ["Lena Müller"], "year": 2024, "source": "J"}
    record["abstract"] = f"We show ${sum_of_terms}$ holds."
    (site / "content" / "records" / "wide.yaml").write_text(yaml.safe_dump(record), encoding="utf-8")
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page(viewport={"width": 375, "height": 800})
        # count the reads of a formula's width while it is inside a closed abstract: each forces a layout
        page.add_init_script("""(() => {
            window.closedReads = 0;
            const described = Object.getOwnPropertyDescriptor(Element.prototype, "scrollWidth");
            Object.defineProperty(Element.prototype, "scrollWidth", {configurable: true, get() {
                const details = this.closest && this.closest("details");
                if (this.localName === "math" && details && !details.open) window.closedReads += 1;
                return described.get.call(this);
            }});
        })()""")
        page.goto(base)
        page.wait_for_load_state("load")
        page.wait_for_timeout(300)
        assert page.evaluate("window.closedReads") == 0
        abstract = page.locator("#r-wide2024 details.abstract")
        formula = abstract.locator("math")
        assert formula.get_attribute("tabindex") is None
        abstract.locator("summary").click()
        page.wait_for_function("() => document.querySelector('#r-wide2024 details.abstract math[tabindex=\"0\"]') !== null", timeout=3000)
        assert formula.get_attribute("data-wide") == ""
