"""A Persian site as its readers see it in chromium: English titles, venues and citations inside right-to-left pages."""

from __future__ import annotations

from conftest import MINIMAL_SITE, run_sitegen, write_site

from browser.conftest import serve

RECORDS = {
    "content/records/english.yaml": "id: english\ntitle: 'Is Attention All You Need?'\nauthors: [Sara Ahmadi, علی رضایی]\nyear: 2023\n"
    "source: Journal of Examples\n",
}


def persian_site(tmp_path):
    site = write_site(
        tmp_path / "site",
        {
            **MINIMAL_SITE,
            "content/site.yaml": "title: T\nbase_url: https://example.org/\nlanguage: fa\n",
            "content/profile.yaml": 'name: "سارا احمدی"\nname_variants: ["Sara Ahmadi"]\n',
            **RECORDS,
        },
    )
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    return site / "output"


def character_x(page, selector: str, index: int) -> float:
    """Where the character at `index` of the element's text is drawn, from the left of the page."""
    return page.evaluate(
        """([selector, index]) => { const node = document.querySelector(selector).firstChild.nodeType === 3
              ? document.querySelector(selector).firstChild : document.querySelector(selector).querySelector('a').firstChild;
            const range = document.createRange(); range.setStart(node, index); range.setEnd(node, index + 1);
            return range.getBoundingClientRect().left; }""",
        [selector, index],
    )


def test_an_english_title_keeps_its_question_mark_at_its_end_and_the_venue_line_reads_from_the_right(new_page, tmp_path):
    """'Is Attention All You Need?' showed as '?Is Attention All You Need' on a Persian page, and 'Journal of Examples
    · 2023' as one left-to-right run."""
    output = persian_site(tmp_path)
    with serve(output) as base:
        page = new_page()
        for address, title in ((base, "#r-english-title"), (base + "records/english/", "#record-title")):
            page.goto(address)
            text = page.locator(title).inner_text()
            assert text == "Is Attention All You Need?"
            assert character_x(page, title, len(text) - 1) > character_x(page, title, 0)  # "?" right of "I"
            # the title lines up with the authors below it, at the right
            right = page.evaluate(
                """(selector) => [selector, '.authors'].map(s => { const range = document.createRange();
                    range.selectNodeContents(document.querySelector(s)); return range.getBoundingClientRect().right; })""",
                title,
            )
            assert abs(right[0] - right[1]) < 2, right
        page.goto(base)
        year = page.locator("#r-english .venue .year").bounding_box()
        source = page.locator("#r-english .venue .source").bounding_box()
        kind = page.locator("#r-english .venue .type").bounding_box()
        assert year["x"] < source["x"] < kind["x"]  # from the right: type, venue, year


def test_a_citation_starting_with_a_latin_name_is_laid_out_left_to_right(new_page, tmp_path):
    output = persian_site(tmp_path)
    with serve(output) as base:
        page = new_page()
        page.goto(base + "records/english/")
        page.locator("details.cite-styles > summary").click()
        page.wait_for_function("() => !document.querySelector('button[data-cite-copy=apa]').disabled")
        citation = page.locator("#cite-apa")
        assert citation.inner_text().startswith("Ahmadi, S.")
        box = citation.bounding_box()
        first = page.evaluate(
            """() => { const walker = document.createTreeWalker(document.querySelector('#cite-apa'), NodeFilter.SHOW_TEXT);
                const node = walker.nextNode(); const range = document.createRange(); range.setStart(node, 0); range.setEnd(node, 1);
                return range.getBoundingClientRect().left; }"""
        )
        assert first - box["x"] < 40  # "A" of Ahmadi at the left edge, where a left-to-right paragraph starts
