"""Markdown with inline LaTeX, sanitised: abstracts and the profile bio."""

from __future__ import annotations

import html
import re
from collections import Counter
from urllib.parse import urlsplit

import markdown
import nh3
import pytest
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sitegen.markup import (
    BLOCK_NEEDS,
    INLINE_NEEDS,
    _latex_outside_code,
    _markdown_without_raw_html,
    _plain_paragraphs,
    _shared_markdown,
    headings_under,
    hrefs,
    link_left_out,
    picture_left_out,
    render_inline,
    render_markdown,
    sanitise,
    with_heading_ids,
    with_links,
)


def soup(fragment: str) -> BeautifulSoup:
    return BeautifulSoup(f"<div>{fragment}</div>", "html.parser")


def test_markdown_paragraphs_emphasis_lists_and_links():
    converted = render_markdown("First *para* with **bold**.\n\nSecond with [a link](https://example.org/x).\n\n- one\n- two\n")
    tree = soup(converted.html)
    assert [p.get_text() for p in tree.find_all("p")] == ["First para with bold.", "Second with a link."]
    assert tree.find("em").get_text() == "para" and tree.find("strong").get_text() == "bold"
    link = tree.find("a")
    assert link["href"] == "https://example.org/x" and "noopener" in link["rel"]
    assert [li.get_text() for li in tree.find_all("li")] == ["one", "two"]
    assert converted.plain == "First para with bold. Second with a link. one two"


def test_math_and_macros_inside_markdown():
    converted = render_markdown(r"We give \textbf{(i)} a rate $O(\sqrt{\bar{\tau}/T})$ where $a_1$ and $b_2$ are *average* delays.")
    tree = soup(converted.html)
    assert tree.find("strong").get_text() == "(i)"
    assert len(tree.find_all("math")) == 3
    assert [em.get_text() for em in tree.find_all("em")] == ["average"]  # the _ of $a_1$ ... $b_2$ is no emphasis
    text = tree.get_text()
    assert "$" not in text and "\\" not in text
    assert "\\" not in converted.plain and "$" not in converted.plain
    assert converted.plain.startswith("We give (i) a rate O(")


def test_text_in_math_keeps_its_words_in_an_abstract():
    converted = render_markdown(r"We swap: $\text{if a<b then swap}$, in $O(n \log n)$ time.")
    tree = soup(converted.html)
    assert tree.find("mtext").get_text() == "if a<b then swap"
    assert converted.plain == "We swap: if a<b then swap, in O(n log n) time."
    assert converted.unconverted == []


def test_markdown_does_not_mangle_math_with_stars():
    converted = render_markdown(r"Compute $a*b*c$ and $x_1 * y_2$ here.")
    tree = soup(converted.html)
    assert tree.find("em") is None
    assert len(tree.find_all("math")) == 2
    assert converted.plain == "Compute a*b*c and x₁*y₂ here."


def test_percent_and_ampersand_in_links_survive():
    converted = render_markdown("[data](https://e.org/a%20b?c=1&d=2#frag) is 50% R&D.")
    tree = soup(converted.html)
    assert tree.find("a")["href"] == "https://e.org/a%20b?c=1&d=2#frag"
    assert converted.plain == "data is 50% R&D."


@pytest.mark.parametrize(
    "raw",
    [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "<a href='javascript:alert(1)'>x</a>",
        "<div onclick=alert(1)>d</div>",
        "<iframe src=https://evil.example></iframe>",
        "x<!-- comment -->y",
        "<style>body</style>",
    ],
)
def test_raw_html_is_shown_as_text(raw):
    converted = render_markdown(f"Before {raw} after")
    tree = soup(converted.html)
    assert [tag.name for tag in tree.find_all(True)] == ["div", "p"]  # no element from the input
    assert tree.get_text() == f"Before {raw} after"
    assert converted.plain == f"Before {raw} after"


@pytest.mark.parametrize(
    "markdown_link",
    [
        "[bad](javascript:alert(1))",
        "[bad](JavaScript:alert(1))",
        "[bad](&#106;avascript:alert(1))",
        "[bad](data:text/html,<script>alert(1)</script>)",
        "[bad][1]\n\n[1]: javascript:alert(1)",
        "<javascript:alert(1)>",
    ],
)
def test_javascript_links_are_dropped(markdown_link):
    converted = render_markdown(f"A {markdown_link} link")
    tree = soup(converted.html)
    for anchor in tree.find_all("a"):
        assert not anchor.get("href", "").lower().startswith(("javascript:", "data:"))
    assert "javascript:alert" not in "".join(str(a.get("href")) for a in tree.find_all("a"))


@pytest.mark.parametrize(
    "markdown_link, address",
    [
        ("[bad](javascript:alert(1))", "javascript:alert(1)"),
        ("[bad](JavaScript:alert(1))", "JavaScript:alert(1)"),
        ("[bad](data:text/html,hi)", "data:text/html,hi"),
        ("[bad](vbscript:msgbox)", "vbscript:msgbox"),
        ("[bad][1]\n\n[1]: javascript:alert(1)", "javascript:alert(1)"),
        ("[bad](<https://exa mple.org/>)", "https://exa mple.org/"),  # no URL: dropped too, so said too
        ("[bad](&#106;avascript:alert(1))", "javascript:alert(1)"),  # as the browser would read it
    ],
)
def test_a_link_the_sanitiser_drops_is_named(markdown_link, address):
    for own_text in (None, []):  # a record's text, the site's own
        unsafe: list[str] = []
        converted = render_markdown(f"[A fine one](https://example.org/), [a page](teaching/) and {markdown_link}", own_text, unsafe)
        assert unsafe == [address]
        assert [a.get("href") for a in soup(converted.html).find_all("a")] == ["https://example.org/", "teaching/", None]


def test_a_link_that_is_kept_is_not_named():
    unsafe: list[str] = []
    render_markdown("[a](https://e.org/a(b)) [b](mailto:a@b.org) [c](#part) [d](//e.org/) [e](?q=1) [f](%6Aavascript:x) <https://e.org/>", None, unsafe)
    assert unsafe == []


def test_what_a_warning_says_of_a_link_left_out():
    assert link_left_out("javascript:alert(1)") == "link 'javascript:alert(1)': unsafe URL scheme 'javascript:', the link is left out (its text stays)"
    assert "unsafe URL scheme 'data:'" in link_left_out(" DATA:text/html," + "x" * 200) and "..." in link_left_out("data:" + "x" * 200)
    assert "not a valid address" in link_left_out("https://exa mple.org/")


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["javascript:", "JaVa\tScript:", "data:", "https://", "http:", "mailto:", "tel:", "x", "/", "#", " ", "%", "&#106;", "(", ")", "[", "]"]
        ),
        max_size=8,
    ).map("".join)
)
def test_every_link_the_sanitiser_drops_is_named_and_no_other(address):
    """The warning and the page agree: as many links are named as the sanitised HTML has links without a target."""
    unsafe: list[str] = []
    converted = render_markdown(f"[one](<{address}>) and [two]({address})", None, unsafe)
    anchors = soup(converted.html).find_all("a")
    assert len(unsafe) == sum(1 for a in anchors if a.get("href") is None)


def test_only_safe_tags_and_attributes_remain():
    converted = render_markdown("# Title\n\n> quote\n\n`code`\n\n![pic](https://e.org/p.png)")
    names = {tag.name for tag in soup(converted.html).find_all(True)} - {"div"}
    assert names <= {"p", "blockquote", "code", "h3", "h4", "h5", "h6"}


def test_empty_markdown():
    converted = render_markdown("  \n")
    assert (converted.html, converted.plain, converted.unconverted) == ("", "", [])


def test_unconverted_latex_in_markdown_is_reported():
    converted = render_markdown(r"Uses \foo{bar} heavily.")
    assert converted.unconverted == [r"\foo{bar}"]
    assert soup(converted.html).find("code").get_text() == r"\foo{bar}"


@pytest.mark.parametrize(
    "text, code",
    [
        ("Run `echo $HOME and $PATH` here, then $x$.", ["echo $HOME and $PATH"]),
        ('Inline `print("a\\n")` and ``a ` $b$`` at $t$.', ['print("a\\n")', "a ` $b$"]),
        ('```sh\nexport A=$B\necho "$x + $y" \\alpha\n```\n\nAfter $y$.', ['export A=$B\necho "$x + $y" \\alpha\n']),
        ("~~~\n$a$ \\b\n~~~\n\nAfter $y$.", ["$a$ \\b\n"]),
        ("Before $y$.\n\n    indented $a$ < \\alpha\n    more\n\nAfter $z$.", ["indented $a$ < \\alpha\nmore\n"]),
    ],
)
def test_code_in_the_sites_own_text_is_shown_as_written(text, code):
    """Code is left as typed (MathJax skips <code> and <pre> too): no math in it, no LaTeX reported from it,
    while math outside it is still converted."""
    converted = render_markdown(text, pictures=[])
    page = soup(converted.html)
    assert [element.get_text() for element in page.find_all("code")] == code
    assert all(element.find("math") is None for element in page.find_all("code"))
    assert page.find("math") is not None
    assert converted.unconverted == []
    assert code[0].split()[0] in converted.plain


def test_a_fenced_block_of_tildes_without_latex_is_code():
    assert soup(render_markdown("~~~\nmake site\n~~~", pictures=[]).html).find("pre").get_text() == "make site\n"


def test_math_ends_with_its_paragraph():
    converted = render_markdown("It costs $5.\n\nOr $x$ and $y\nz$.")
    assert [math.get_text() for math in soup(converted.html).find_all("math")] == ["x", "yz"]
    assert soup(converted.html).find("p").get_text() == "It costs $5."


def test_the_sites_own_text_has_tables_and_footnotes_and_an_abstract_has_neither():
    text = "Cost[^1] and time[^my note].\n\n| Interval | Lost |\n|:--|--:|\n| 5 min | $x$ |\n\n[^1]: A note.\n[^my note]: Another, $y$."
    own = soup(render_markdown(text, pictures=[]).html)
    assert [[cell.get_text() for cell in row.find_all(["th", "td"])] for row in own.find_all("tr")] == [["Interval", "Lost"], ["5 min", "x"]]
    assert [cell.get("class") for cell in own.find("tr").find_all("th")] == [["align-left", "nowrap"], ["align-right", "nowrap"]]
    notes = own.select("div.footnote li")
    assert [note.p.contents[0].strip() for note in notes] == ["A note.", "Another,"] and notes[1].find("math") is not None
    for reference, note in zip(own.select("sup a"), notes):  # each reference leads to its note and back
        assert reference["href"] == f"#{note['id']}" and " " not in note["id"]
        assert note.select_one('a[href^="#fnref"]')["href"] == f"#{reference.parent['id']}"
    assert "\u21a9" not in render_markdown(text, pictures=[]).plain and "A note." in render_markdown(text, pictures=[]).plain
    abstract = soup(render_markdown(text).html)
    assert abstract.find("table") is None and abstract.find("sup") is None and "[^1]" in abstract.get_text()


def test_a_table_scrolls_in_a_named_box_of_its_own_and_one_word_cells_stay_whole():
    """A table wider than a phone scrolls in its box (style.css), reachable by keyboard and named by its header row,
    with an id unique to the text; a cell of one word (3e-4) is kept on one line, one of several words is not."""
    table = "| dataset | lr | notes |\n|---|--:|---|\n| ProteinNet-12 | 3e-4 | with `aug` on |\n| *a* | &lt;b&gt; | x&nbsp;y |\n"
    html_text = render_markdown(f"{table}\nBetween.\n\n{table}", pictures=[]).html
    boxes = soup(html_text).select("div.table-scroll")
    assert [(box["role"], box["tabindex"], [child.name for child in box.find_all(recursive=False)]) for box in boxes] == [("region", "0", ["table"])] * 2
    names = [box["aria-labelledby"] for box in boxes]
    assert len(set(names)) == 2 and all(re.fullmatch(r"tbl-[0-9a-f]{8}-[12]", name) for name in names)
    assert [soup(html_text).find(id=name).name for name in names] == ["thead", "thead"]
    assert soup(html_text).find(id=names[0]).get_text(" ", strip=True) == "dataset lr notes"
    kept = [cell.get_text() for cell in boxes[0].select(".nowrap")]
    assert kept == ["dataset", "lr", "notes", "ProteinNet-12", "3e-4", "a", "<b>"]
    assert boxes[0].select_one("td.align-right.nowrap").get_text() == "3e-4"
    other_text = render_markdown(f"Another text.\n\n{table}", pictures=[]).html
    assert soup(other_text).select_one("div.table-scroll")["aria-labelledby"] not in names  # two texts on one page
    assert "table-scroll" not in render_markdown("| a |\n|---|\n| b |\n").html  # records' text has no tables
    assert soup(render_markdown("## Results {#tbl-1}", pictures=[]).html).find("h2").get("id") is None  # the theme's ids


def test_a_fenced_block_in_a_language_is_highlighted_and_reads_as_typed():
    source = 'def f(x):\n    return "$x$"  # \\alpha\n'
    converted = render_markdown(f"```python\n{source}```\n\nAnd `f` at $t$.", pictures=[])
    block = soup(converted.html).select_one("div.highlight pre code")
    assert block.get_text() == source
    assert [(span["class"], span.get_text()) for span in block.select("span.k, span.s2, span.c1")] == [
        (["k"], "def"),
        (["k"], "return"),
        (["s2"], '"$x$"'),
        (["c1"], "# \\alpha"),
    ]
    assert converted.unconverted == [] and soup(converted.html).find("math") is not None
    assert soup(render_markdown(f"```python\n{source}```").html).find("span") is None  # an abstract: no highlighting


def test_footnotes_of_two_texts_have_ids_of_their_own():
    first, second = (soup(render_markdown(f"{word}[^1]\n\n[^1]: {word}.", pictures=[]).html) for word in ("One", "Two"))
    assert first.select_one("li")["id"] != second.select_one("li")["id"]
    assert render_markdown("One[^1]\n\n[^1]: One.", pictures=[]).html == render_markdown("One[^1]\n\n[^1]: One.", pictures=[]).html  # the same every build


@pytest.mark.parametrize("own_text", [False, True])
def test_a_placeholders_characters_typed_in_a_text_are_kept_as_they_are(own_text):
    """The Markdown stage sets LaTeX aside behind private-use characters; a text may hold them too (an icon font's glyph)."""
    text = "Icons \ue0005\ue001 and \ue000 alone, $x$, `\ue0000\ue001` in code."
    converted = render_markdown(text, pictures=[] if own_text else None)
    page = soup(converted.html)
    assert page.find("math") is not None and page.find("code").get_text() == "\ue0000\ue001"
    assert "Icons \ue0005\ue001 and \ue000 alone" in page.get_text() and "Icons \ue0005\ue001 and \ue000 alone" in converted.plain


def test_a_code_span_in_an_abstract_is_shown_as_written():
    converted = render_markdown("We run `grep $x$` on $n$ files.")
    assert [element.get_text() for element in soup(converted.html).find_all("code")] == ["grep $x$"]
    assert soup(converted.html).find("math").get_text() == "n"


_CODE_TOKENS = st.sampled_from(["`", "``", "```", "~~~", "\n", "\n\n", "    ", " ", "$", "$x$", "\\alpha", "a", "b c", "*", "_", "-"])


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.lists(_CODE_TOKENS, max_size=30).map("".join), st.booleans())
def test_what_markdown_makes_code_keeps_the_text_markdown_gives_it(text, own_text):
    """Whatever Markdown alone makes code (spans, fenced and indented blocks) holds, with LaTeX about, the same text.

    Left out: math that starts in an indented code block and ends on the unindented line right after it
    (`    $a` then `b$`), which is shown as code; and math holding backticks that pair with none before it
    (`$``$` then code), which is math, as Pandoc reads what starts first, where Markdown alone would see the ticks;
    and math whose next line starts like a list item (`$a` then `* b$`), which is math, where Markdown alone
    would start a list."""
    assume(not re.search(r"(^|\n)(    |\t)[^\n]*\$[^\n]*\n[^ \t\n]", text))
    assume(not re.search(r"\$[^$]*\n[ \t]*[-+*][ \t][^$]*\$", text))
    assume(not any("`" in span.group() for span in _latex_outside_code(text, fenced=own_text)))
    md = _markdown_without_raw_html(pictures=own_text)
    expected = [element.get_text() for element in soup(sanitise(md.convert(text))).find_all("code")]
    converted = render_markdown(text, pictures=[] if own_text else None)
    code = [element.get_text() for element in soup(converted.html).find_all("code")]
    assert Counter(code) - Counter(converted.unconverted) == Counter(expected)  # LaTeX it cannot convert is shown as code


def test_inline_text_folds_whitespace():
    converted = render_inline("A   title\n  on two lines")
    assert converted.plain == "A title on two lines" and converted.html == "A title on two lines"


# -- fuzzing ----------------------------------------------------------------------

_tokens = st.sampled_from(
    [
        "$",
        "\\",
        "{",
        "}",
        "\\textbf",
        "<script>",
        "</script>",
        "<img src=x onerror=alert(1)>",
        "%",
        "&",
        "#",
        "*",
        "_",
        "`",
        "[x](javascript:alert(1))",
        "[y](https://e.org)",
        "\n\n",
        " ",
        "x",
        "<",
        ">",
        "](",
        ")",
        "\\emph{",
        "$a_1$",
        "<!--",
        "-->",
        "&#106;",
        "javascript:",
        "> ",
        "- ",
        "1. ",
        "    ",
    ]
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.lists(_tokens, max_size=20).map("".join), st.text(max_size=60)))
def test_any_markdown_is_safe(text):
    converted = render_markdown(text)
    tree = soup(converted.html)
    assert tree.find(["script", "img", "iframe", "style"]) is None
    for tag in tree.find_all(True):
        assert not any(attr.lower().startswith("on") for attr in tag.attrs), converted.html
        href = tag.get("href")
        if href is not None:
            assert href.startswith(("http://", "https://", "mailto:")), converted.html


@pytest.mark.parametrize(
    "text, tag, attribute, value",
    [
        ("![$x^2$ by $n$](static/a.png)", "img", "alt", "$x^2$ by $n$"),
        ('[a link](https://e.org "costs $5 or $6")', "a", "title", "costs $5 or $6"),
        ("[a link](https://e.org/$x$)", "a", "href", "https://e.org/$x$"),
    ],
)
def test_dollars_in_an_attribute_stay_as_written(text, tag, attribute, value):
    """Math is converted in the text, never inside an attribute, where its MathML would end the attribute."""
    tree = soup(render_markdown(text, []).html)
    assert tree.find(tag)[attribute] == value
    assert tree.find("math") is None


def test_the_sites_own_text_shows_pictures_of_its_own_files_only():
    left_out: list[str] = []
    converted = render_markdown(
        'A chart: ![The chart](static/chart.png "Costs") beside ![a tracker](https://tracker.example/p.gif), '
        "![x](//cdn.example/a.png), ![y](javascript:alert(1)) and [a page](teaching/).",
        left_out,
    )
    pictures = soup(converted.html).find_all("img")
    assert [(img["src"], img["alt"], img.get("title")) for img in pictures] == [("static/chart.png", "The chart", "Costs")]
    assert left_out == ["https://tracker.example/p.gif", "//cdn.example/a.png", "javascript:alert(1)"]
    assert "The chart" not in converted.plain and "A chart:" in converted.plain
    assert soup(render_markdown("![The chart](static/chart.png)").html).find("img") is None  # a record's text: no pictures


def test_a_badge_left_out_leaves_its_link_named_by_the_pictures_text():
    """Zenodo's, shields.io's and JOSS's badges, as every README has them: the picture from elsewhere is left out,
    and the link around it shows the picture's text (else its address), never an empty link no one can see or name."""
    left_out: list[str] = []
    converted = render_markdown(
        "[![DOI](https://zenodo.org/badge/DOI/10.5281/zenodo.5512345.svg)](https://doi.org/10.5281/zenodo.5512345)\n"
        "[![PyPI <version> & more](https://img.shields.io/pypi/v/fluxgrid.svg)](https://pypi.org/project/fluxgrid/)\n"
        "[![](https://joss.theoj.org/papers/10.21105/joss.06123/status.svg)](https://doi.org/10.21105/joss.06123)\n"
        "[Docs ![icon](https://example.org/i.svg)](https://fluxgrid.readthedocs.io) and ![alone](https://example.org/a.png).",
        left_out,
    )
    links = soup(converted.html).find_all("a")
    assert [(a["href"], a.get_text()) for a in links] == [
        ("https://doi.org/10.5281/zenodo.5512345", "DOI"),
        ("https://pypi.org/project/fluxgrid/", "PyPI <version> & more"),
        ("https://doi.org/10.21105/joss.06123", "https://doi.org/10.21105/joss.06123"),
        ("https://fluxgrid.readthedocs.io", "Docs icon"),
    ]
    assert soup(converted.html).find("img") is None and "alone" not in converted.html
    assert "<version>" not in converted.html  # the picture's text is text, escaped
    assert len(left_out) == 5 and "DOI" in converted.plain


def test_a_picture_from_the_domains_root_is_named_with_the_path_to_write():
    assert "write ![what it shows](static/badges/doi.svg)" in picture_left_out("/static/badges/doi.svg")
    assert "put it in static/" in picture_left_out("https://img.shields.io/pypi/v/x.svg")


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_tokens, st.sampled_from(["![", "](", "static/a.png", "https://e.org/x.png", '"', " onerror=alert(1)"])), max_size=20).map("".join))
def test_any_markdown_with_pictures_is_safe(text):
    left_out: list[str] = []
    tree = soup(render_markdown(text, left_out).html)
    assert tree.find(["script", "iframe", "style"]) is None
    for tag in tree.find_all(True):
        assert not any(attr.lower().startswith("on") for attr in tag.attrs)
    for img in tree.find_all("img"):  # a file of the site: a path with no scheme or host, which the browser asks the site for
        address = urlsplit(img["src"])
        assert img["src"] and not address.scheme and not address.netloc, img


# -- the fast path for plain paragraphs must say exactly what Markdown says --------


PLAIN_ALPHABET = st.sampled_from(
    list("abcXYZ019 .,;:()-+='\"%$?/|~^{}@\n")
    + ["é", "ü", "—", "\ue000", "\ue001", "  ", "\n\n", "\t", "*", "**", "_", "&", "<"]
    + ["*word*", "**two words**", " *a*", "*b* ", "*x.*", "**y:**"]  # emphasis, often
)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(st.lists(PLAIN_ALPHABET | st.sampled_from(["~~~\n", "\n~~~", "| a |\n|---|\n"]), max_size=60).map("".join), st.booleans())
def test_plain_paragraph_fast_path_agrees_with_markdown(text, own_text):
    """For records' text, and for the site's own, whose Markdown also has tables and tilde fences."""
    fast = _plain_paragraphs(text, own_text)
    if fast is not None and text.strip():
        assert fast == sanitise(_shared_markdown(own_text).reset().convert(text), [] if own_text else None)


def test_plain_paragraph_fast_path_is_taken_for_ordinary_abstracts():
    assert _plain_paragraphs("We study caches.\n\nThey help, 10-20% of the time.") == "<p>We study caches.</p>\n<p>They help, 10-20% of the time.</p>"
    assert _plain_paragraphs("Some *emphasis*, **strong words** and *a few\u2009more*.") == (
        "<p>Some <em>emphasis</em>, <strong>strong words</strong> and <em>a few\u2009more</em>.</p>"
    )


@pytest.mark.parametrize(
    "text", ["a*b*", "*a*b", "***x***", "*a **b** c*", "* item", "*a", "*a\nb*", "* a*", "*a *", "*a* and a lone * star", "_a_", "*a* [link](x)"]
)
def test_asterisks_other_than_plain_emphasis_go_to_markdown(text):
    assert _plain_paragraphs(text) is None


# -- skipping hopeless regex searches must not change a single byte --------------


def _unguarded_markdown() -> markdown.Markdown:
    md = _markdown_without_raw_html()
    for name in INLINE_NEEDS:
        if name in md.inlinePatterns:
            pattern = md.inlinePatterns[name]
            pattern.compiled_re = pattern.compiled_re.regex
    for name, (attribute, _) in BLOCK_NEEDS.items():
        processor = md.parser.blockprocessors[name]
        setattr(processor, attribute, getattr(processor, attribute).regex)
    return md


_UNGUARDED = _unguarded_markdown()
MARKDOWN_TOKENS = st.sampled_from(
    [
        "a",
        "word",
        " ",
        "  \n",
        "\n",
        "\n\n",
        "`",
        "``",
        "\\",
        "\\*",
        "[",
        "]",
        "](",
        ")",
        "[x]",
        "[x]: https://e.org/",
        "[y](https://e.org/a)",
        "<https://e.org>",
        "<",
        ">",
        "> ",
        "#",
        "# ",
        "## H",
        "\n=",
        "\n-",
        "\n---\n",
        "*",
        "**",
        "_",
        "__",
        "- ",
        "1. ",
        "    ",
        "    code",
        "\t",
        "!",
        "&",
        "é",
        "\ue000",
        "\ue001",
        "0",
        ":",
        "]:",
    ]
)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.lists(MARKDOWN_TOKENS, max_size=40).map("".join))
def test_guarded_markdown_says_exactly_what_markdown_says(text):
    assert _shared_markdown().reset().convert(text) == _UNGUARDED.reset().convert(text)


def test_every_guard_names_a_pattern_markdown_has():
    md = _unguarded_markdown()  # fails here if a guarded pattern or attribute vanished in a Markdown release
    assert set(INLINE_NEEDS) <= {item.name for item in md.inlinePatterns._priority}


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        MARKDOWN_TOKENS
        | st.sampled_from(
            [
                '<a href="x">',
                "</a>",
                '"',
                "'",
                "<!-- c -->",
                "<script>x</script>",
                "&amp;",
                "&lt;",
                "&#62;",
                "&nbsp;",
                "\x00",
                "\r\n",
                '[z](https://e.org/?q=a>b "t>i")',
            ]
        ),
        max_size=40,
    ).map("".join)
)
def test_the_text_of_converted_markdown_is_what_the_sanitiser_finds_in_it(text):
    from sitegen.markup import _text_of

    for body in (sanitise(_shared_markdown().reset().convert(text)), _plain_paragraphs(text)):
        if body is not None:
            assert _text_of(body) == html.unescape(nh3.clean(body, tags=set()))


# -- lists and headings as CommonMark writes them (sitegen.commonmark) -----------------------------------------------


def list_structure(html_text: str) -> list:
    """The lists of HTML as nested Python lists of their items' own words, paragraphs and code as text."""

    def items(element) -> list:
        found = []
        for li in element.find_all("li", recursive=False):
            nested = [items(child) for child in li.find_all(["ul", "ol"], recursive=False)]
            own = " ".join(text for text in li.find_all(string=True) if text.find_parent(["ul", "ol"]) is element)
            found.append((" ".join(own.split()), nested))
        return found

    soup = BeautifulSoup(html_text, "html.parser")
    return [(top.name, items(top)) for top in soup.find_all(["ul", "ol"]) if top.find_parent(["ul", "ol"]) is None]


@pytest.mark.parametrize("own_text", [False, True])
def test_a_list_right_after_a_paragraph_and_lists_nested_by_two_spaces(own_text):
    text = "My interests:\n- distributed training\n  - on spot instances\n  - with checkpoints\n- compression\n\n1. first\n   - nested under first\n2. second"
    body = BeautifulSoup(render_markdown(text, [] if own_text else None).html, "html.parser")
    assert body.p.get_text() == "My interests:"
    top = body.find("ul")
    assert [li.find(string=True).strip() for li in top.find_all("li", recursive=False)] == ["distributed training", "compression"]
    assert [li.get_text(strip=True) for li in top.li.ul.find_all("li")] == ["on spot instances", "with checkpoints"]
    assert body.ol.li.ul.li.get_text(strip=True) == "nested under first" and len(body.ol.find_all("li", recursive=False)) == 2


@pytest.mark.parametrize(
    "text",
    [
        "In\n2019. we moved to Berlin.",  # only a list starting at 1 interrupts a paragraph
        "Before\n* * *\nafter",  # a rule
        "```\nprint(1)\n- not an item\n```",  # code
        "Para\n\n    code block\n    - still code",
        "a - b\nc + d",
    ],
)
def test_what_is_no_list_stays_what_it_was(text):
    alone = markdown.markdown(text, extensions=["sane_lists", "fenced_code"])
    assert "<li>" not in render_markdown(text, []).html and ("<li>" in alone) is False


LIST_WORDS = st.text(alphabet="abcdefgh ", min_size=1, max_size=12).map(str.strip).filter(bool)
LIST_TREES = st.recursive(
    st.lists(st.tuples(LIST_WORDS, st.just([])), min_size=1, max_size=3),
    lambda children: st.lists(st.tuples(LIST_WORDS, children), min_size=1, max_size=3),
    max_leaves=8,
)


def written(tree, indent: int, step: int, marker: str) -> list[str]:
    lines = []
    for words, children in tree:
        lines.append(" " * indent + f"{marker} {words}")
        lines += written(children, indent + step, step, marker)
    return lines


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=LIST_TREES, marker=st.sampled_from(["-", "*", "+"]), intro=st.booleans(), quote=st.sampled_from(["", "> "]))
def test_a_list_written_as_commonmark_reads_as_the_same_list_written_for_python_markdown(tree, marker, intro, quote):
    """Two spaces a level and no blank line after the paragraph (GitHub, Hugo) gives the same lists as four
    spaces and a blank line (Python-Markdown's own form), which the rewriting leaves as it is; in a block quote too."""
    paragraph = ["Some words:"] if intro else []
    commonmark = "\n".join(quote + line for line in paragraph + written(tree, 0, 2, marker))
    python_markdown = "\n".join(quote + line for line in paragraph + ([""] if intro else []) + written(tree, 0, 4, marker))
    assert list_structure(render_markdown(commonmark, []).html) == list_structure(render_markdown(python_markdown, []).html)
    assert list_structure(render_markdown(python_markdown, []).html) == list_structure(markdown.markdown(python_markdown, extensions=["sane_lists"]))


@pytest.mark.parametrize("written", ["$$ y = \\frac{a}{b} $$", "\\[ y = \\frac{a}{b} \\]"])
def test_display_math_is_set_apart_as_mathjax_sets_it(written):
    converted = render_markdown(f"Before.\n\n{written}\n\nAfter.", [])
    formula = BeautifulSoup(converted.html, "html.parser").find("math")
    assert formula["display"] == "block" and formula.find("mfrac") is not None
    assert converted.unconverted == [] and "\\" not in converted.plain and "y=a/b" in converted.plain
    inline = BeautifulSoup(render_markdown("a $x$ and \\(y\\) b").html, "html.parser")
    assert [m["display"] for m in inline.find_all("math")] == ["inline", "inline"]


def test_an_address_shown_in_code_is_text_not_a_link_to_rewrite_or_check():
    html_text = render_markdown(
        'See [the notes](notes/) and ![A chart](static/c.svg):\n\n```html\n<img src="a.png"> <a href="b/">b</a>\n```\n\n`href="c/"`', []
    ).html
    rewritten = with_links(html_text, lambda url: "/site/" + url)
    assert 'href="/site/notes/"' in rewritten and 'src="/site/static/c.svg"' in rewritten
    assert "/site/a.png" not in rewritten and "/site/b/" not in rewritten and "/site/c/" not in rewritten
    assert hrefs(html_text) == ["notes/", "static/c.svg"]


def test_heading_ids_are_made_as_github_makes_them():
    made = with_heading_ids("<h2>Q &amp; A</h2><h2>Results and discussion</h2><h2>Results and discussion</h2><h2>3.2 Setup</h2><h2>Publications 1</h2>")
    assert re.findall(r'id="([^"]*)"', made) == ["q--a", "results-and-discussion", "results-and-discussion-1", "32-setup", "section-publications-1"]


def test_braces_in_the_sites_own_prose_are_text_and_a_records_are_latex_groups():
    text = 'The set {a, b}, the JSON {"k": 1}, {\\em stressed} and $\\{x\\}$.'
    own = render_markdown(text, [])
    assert own.plain == 'The set {a, b}, the JSON {"k": 1}, stressed and {x}.' and "<em>stressed</em>" in own.html
    assert render_markdown(text).plain == 'The set a, b, the JSON "k": 1, stressed and {x}.'  # a record's LaTeX, as BibTeX's {DNA}


@pytest.mark.parametrize("own_text", [False, True])
def test_a_numbered_list_starts_at_its_first_number(own_text):
    html_text = render_markdown("Steps:\n\n3. three\n4. four\n", [] if own_text else None).html
    assert BeautifulSoup(html_text, "html.parser").ol["start"] == "3"


@pytest.mark.parametrize("own_text", [False, True])
def test_a_hash_without_a_space_after_it_is_text_not_a_heading(own_text):
    shown = BeautifulSoup(
        render_markdown("#1 priority:\n- ship it\n\n#research matters.\n\n### A real heading\n", [] if own_text else None).html, "html.parser"
    )
    assert [p.get_text() for p in shown.find_all("p")] == ["#1 priority:", "#research matters."]
    assert [li.get_text() for li in shown.find_all("li")] == ["ship it"] and [h.get_text() for h in shown.find_all(["h1", "h2", "h3"])] == ["A real heading"]


def test_an_id_written_twice_is_kept_once_and_seven_hashes_are_no_heading():
    shown = with_heading_ids(headings_under(render_markdown("## A {#a}\n\n## B {#a}\n\n####### seven\n", []).html, 2))
    assert re.findall(r'<h2 id="([^"]*)"', shown) == ["a", "b"] and "<p>####### seven</p>" in shown
