"""Search and filters on list pages (SPEC §8), in Debian's chromium over loopback HTTP.

What a reader does and sees: typing narrows the list and says "12 of 80 publications";
accents and case are ignored and LaTeX is found as printed; year, type and subject
filters; the state in the address, restored on load and on back/forward; keyboard only;
a polite live region; every record without JavaScript; a list split into pages searched
whole, under a project sub-path; record text shown as text; 2,000 records on one page
updated within 50 ms per keystroke; a phone's width.

The expected matches come from records.json and a reference matcher written here,
not from the page's own script.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import statistics
import unicodedata
from pathlib import Path

import pytest
import yaml
from conftest import copy_demo, run_sitegen

from browser.conftest import serve
from sitegen.urls import slugify as slug

pytestmark = pytest.mark.browser

KEYSTROKE_BUDGET_MS = 50
BIG = 2000
UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})  # also searched as typed without them
LETTERS = {"ß": "ss", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "æ": "ae", "œ": "oe", "ı": "i", "þ": "th", "\u02b9": "", "\u02ba": ""}


# -- a reference matcher ------------------------------------------------------------------------


CJK_GAP = re.compile(
    r"(?<=[\u3005-\u3007\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff])[^\S\n]+(?=[\u3005-\u3007\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff])"
)


# Persian and Arabic: one form of the letters the two write differently, digits as 0-9, no kashida, no zero-width non-joiner
ARABIC_FORMS = str.maketrans(
    {"ي": "ی", "ى": "ی", "ك": "ک", "ة": "ه", "\u0640": None, "\u200c": None}
    | {chr(0x0660 + d): str(d) for d in range(10)}
    | {chr(0x06F0 + d): str(d) for d in range(10)}
)


def fold(text: str) -> str:
    text = CJK_GAP.sub("", text)  # "山田 太郎" is "山田太郎": no spaces between CJK characters
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()
    return "".join(LETTERS.get(c, c) for c in text).translate(ARABIC_FORMS).replace("–", "-").replace("—", "-")


def expected(records: list[dict], q: str = "", year: str = "", type_: str = "", subject: str = "", types: dict | None = None) -> list[str]:
    terms = [{fold(word), fold(word.translate(UMLAUTS))} for word in unicodedata.normalize("NFC", q).split()]  # a word or its umlauts as ae, oe, ue
    found = []
    for record in records:
        if year and str(record["year"]) != year:
            continue
        if type_ and types[record["id"]] != type_:
            continue
        if subject and subject not in record["categories"]:
            continue
        text = "\n".join([record["title"], ", ".join(record["authors"]), record["source"] or "", record["abstract"] or ""])
        umlauts = unicodedata.normalize("NFC", text).translate(UMLAUTS)
        haystack = fold(text) + ("\n" + fold(umlauts) if umlauts != unicodedata.normalize("NFC", text) else "") + "\n" + str(record["year"])
        if all(any(form in haystack for form in forms) for forms in terms):
            found.append(record["id"])
    return found


def load_records(output: Path) -> tuple[list[dict], dict[str, str]]:
    records = json.loads((output / "records.json").read_text(encoding="utf-8"))["records"]
    facets = json.loads((output / "search" / "facets.json").read_text(encoding="utf-8"))
    types = {r["id"]: facets["types"][row[2]][0] for r, row in zip(records, facets["records"])}
    return records, types


# -- the page -----------------------------------------------------------------------------------


def ready(page) -> None:
    page.wait_for_function("() => { const f = document.querySelector('.search-controls'); return f && !f.disabled; }")


def shown_ids(page) -> list[str]:
    """The records a reader sees in the list: rendered, not hidden (by id on the page, or by link)."""
    return page.evaluate("""() => [...document.querySelectorAll('.publications li.record')]
        .filter(li => li.offsetParent !== null && li.querySelector('a').checkVisibility())
        .map(li => li.id ? li.id.replace(/^r-/, '') : li.querySelector('a').getAttribute('href').split('/').filter(Boolean).pop())""")


def count_line(page) -> str:
    return page.locator(".search-count").inner_text().strip()


def type_query(page, text: str) -> None:
    box = page.locator("input[type=search]")
    box.fill(text)


def settle(page) -> None:
    """Until the list has taken the last change (the index loaded, the count no longer says 'Searching')."""
    page.wait_for_function("() => !document.querySelector('.search-count').textContent.includes('Searching')")


@pytest.fixture(scope="module")
def demo(built_demo):
    return load_records(built_demo)


def test_typing_narrows_the_list_and_counts(page, served_demo, demo):
    records, _ = demo
    page.goto(served_demo)
    ready(page)
    assert count_line(page) == f"{len(records)} publications"
    for query in ("muller", "MULLER", "kovac", "o(n²)", "pipeline parallel", "2019"):
        type_query(page, query)
        settle(page)
        want = expected(records, query)
        assert want, query
        assert sorted(shown_ids(page)) == sorted(slug(i) for i in want), query
        assert count_line(page) == f"{len(want)} of {len(records)} publications"
    type_query(page, "zzzz no such words")
    settle(page)
    assert shown_ids(page) == [] and count_line(page) == f"0 of {len(records)} publications"
    assert page.locator("h3.year:visible").count() == 0  # no empty year headings left


def test_accents_case_and_latex_as_printed(page, served_demo, demo):
    records, _ = demo
    page.goto(served_demo)
    ready(page)
    type_query(page, "müller")
    settle(page)
    with_accent = shown_ids(page)
    type_query(page, "Muller")
    settle(page)
    assert shown_ids(page) == with_accent and len(with_accent) >= len(records) - 3
    type_query(page, "Mueller")  # the umlaut as German readers type it without one
    settle(page)
    assert shown_ids(page) == with_accent
    math_titles = [r for r in records if "O(n²)" in r["title"]]
    assert math_titles, "the demo has a title with $O(n^2)$"
    type_query(page, "O(n²)")
    settle(page)
    assert slug(math_titles[0]["id"]) in shown_ids(page)
    title = page.locator(f'[id="r-{slug(math_titles[0]["id"])}"] .record-title')
    assert title.locator("math").count() == 1 and "$" not in title.inner_text()  # shown as math, found as printed


def test_filters_and_the_address(page, served_demo, demo):
    records, types = demo
    page.goto(served_demo)
    ready(page)
    years = page.locator("#search-year option").all_inner_texts()
    newest = max(r["year"] for r in records)
    assert years[0] == "All years" and years[1].startswith(f"{newest} (")
    page.select_option("#search-type", "article")
    want = expected(records, type_="article", types=types)
    assert sorted(shown_ids(page)) == sorted(slug(i) for i in want) and want
    assert "type=article" in page.url
    subject = records[0]["categories"][0]
    page.select_option("#search-subject", subject)
    type_query(page, "muller")
    settle(page)
    want = expected(records, "muller", type_="article", subject=subject, types=types)
    assert sorted(shown_ids(page)) == sorted(slug(i) for i in want)
    assert count_line(page) == f"{len(want)} of {len(records)} publications"
    page.wait_for_function("() => location.search.includes('q=muller')")  # the address follows once typing pauses
    shared = page.url
    assert "q=muller" in shared and f"subject={subject}" in shared and "type=article" in shared

    # a shared address opens filtered
    other = page.context.new_page()
    other.goto(shared)
    ready(other)
    settle(other)
    assert sorted(shown_ids(other)) == sorted(slug(i) for i in want)
    assert other.input_value("input[type=search]") == "muller"
    assert other.input_value("#search-type") == "article" and other.input_value("#search-subject") == subject

    # back and forward walk the filters
    page.go_back()
    page.wait_for_function("() => !location.search.includes('q=')")
    settle(page)
    assert page.input_value("input[type=search]") == ""
    assert sorted(shown_ids(page)) == sorted(slug(i) for i in expected(records, type_="article", subject=subject, types=types))
    page.go_back()
    page.wait_for_function("() => !location.search.includes('subject=')")
    assert page.input_value("#search-subject") == ""
    assert sorted(shown_ids(page)) == sorted(slug(i) for i in expected(records, type_="article", types=types))
    page.go_forward()
    page.wait_for_function("() => location.search.includes('subject=')")
    assert page.input_value("#search-subject") == subject


def test_keyboard_only_and_a_polite_announcement(page, served_demo, demo):
    records, _ = demo
    page.goto(served_demo)
    ready(page)
    page.locator("input[type=search]").focus()
    page.keyboard.type("gradient")
    settle(page)
    want = expected(records, "gradient")
    assert 0 < len(want) < len(records)
    status = page.locator("[role=status][aria-live=polite]")
    status.filter(has_text=f"{len(want)} of {len(records)} publications").wait_for()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "search-year"
    page.keyboard.press("ArrowDown")  # the newest year
    year = page.input_value("#search-year")
    assert year and sorted(shown_ids(page)) == sorted(slug(i) for i in expected(records, "gradient", year=year))
    for _ in range(3):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "search-reset"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.type") == "search"
    assert len(shown_ids(page)) == len(records) and count_line(page) == f"{len(records)} publications"
    page.keyboard.type("zzzz")
    page.keyboard.press("Escape")
    assert page.input_value("input[type=search]") == "" and len(shown_ids(page)) == len(records)


def test_clearing_the_search_is_announced(page, served_demo, demo):
    """A screen-reader user who empties the box (Escape, or deleting the words) or presses Clear hears that
    every publication is listed again; the live region said nothing, and opening the page announces nothing."""
    records, _ = demo
    page.goto(served_demo)
    ready(page)
    status = page.locator("[role=status][aria-live=polite]")
    page.wait_for_timeout(800)
    assert status.inner_text() == ""  # the page as it opens: nothing to announce
    everything = f"{len(records)} publications"
    page.locator("input[type=search]").focus()
    page.keyboard.type("gradient")
    settle(page)
    status.filter(has_text=" of ").wait_for()
    page.keyboard.press("Escape")
    status.filter(has_text=re.compile(f"^{everything}$")).wait_for()
    page.keyboard.type("gradient")
    status.filter(has_text=" of ").wait_for()
    for _ in range(len("gradient")):
        page.keyboard.press("Backspace")
    status.filter(has_text=re.compile(f"^{everything}$")).wait_for()
    page.select_option("#search-type", index=1)
    status.filter(has_text=" of ").wait_for()
    page.click(".search-reset")
    status.filter(has_text=re.compile(f"^{everything}$")).wait_for()


def test_without_javascript_every_record_is_listed(new_page, served_demo, demo):
    records, _ = demo
    page = new_page(java_script_enabled=False)
    page.goto(served_demo + "?q=muller&year=2019")
    assert len(shown_ids(page)) == len(records)
    assert page.locator("input[type=search]").is_disabled()


def test_subject_page_searches_its_subject(page, served_demo, demo):
    records, _ = demo
    subject = records[0]["categories"][0]
    page.goto(served_demo + f"subjects/{slug(subject)}/")
    ready(page)
    in_subject = expected(records, subject=subject)
    assert count_line(page) == f"{len(in_subject)} publications"
    type_query(page, "muller")
    settle(page)
    want = expected(records, "muller", subject=subject)
    assert sorted(shown_ids(page)) == sorted(slug(i) for i in want)
    assert subject not in page.locator("#search-subject option").all_inner_texts()[1:]  # "also in" the others


# -- a list split into pages, under a project sub-path --------------------------------------------

HOSTILE_TITLE = 'Zebrafish <img src=x onerror="window.__pwned=1"> </script><b>bold</b>'


@pytest.fixture(scope="module")
def paged_site(tmp_path_factory):
    """The demo with 5 records a page and a record with markup in its title, built for /repo/."""
    root = tmp_path_factory.mktemp("paged")
    site = copy_demo(root / "site")
    settings = site / "content" / "site.yaml"
    settings.write_text(settings.read_text(encoding="utf-8") + "\nrecords_per_page: 5\n", encoding="utf-8")
    (site / "content" / "records" / "hostile.yaml").write_text(
        yaml.safe_dump(
            {
                "id": "hostile2017",
                "title": HOSTILE_TITLE,
                "authors": ["Eve Mallory"],
                "year": 2017,
                "source": "Journal of Tests",
                "abstract": "A record whose title holds markup.",
            },
            allow_unicode=True,
        ),
        encoding="utf-8",
    )
    result = run_sitegen("build", "--site", str(site), "--base-url", "/repo/")
    assert result.returncode == 0, result.stderr
    served = root / "served"
    served.mkdir()
    shutil.copytree(site / "output", served / "repo")
    with serve(served) as base:
        yield base + "repo/", load_records(site / "output")


def test_a_paged_list_is_searched_whole(page, paged_site):
    base, (records, types) = paged_site
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(base)
    ready(page)
    assert page.locator(".pagination").is_visible()
    on_first_page = set(shown_ids(page))
    type_query(page, "muller")
    settle(page)
    want = expected(records, "muller")
    assert len(want) > 5 and not {slug(i) for i in want} <= on_first_page
    assert sorted(shown_ids(page)) == sorted(slug(i) for i in want)
    assert not page.locator(".pagination").is_visible()
    assert count_line(page) == f"{len(want)} of {len(records)} publications"
    link = page.locator(".search-matches li.record a").last
    href = link.get_attribute("href")
    assert href.startswith("/repo/records/")
    link.click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text().strip()
    page.go_back()
    ready(page)
    settle(page)
    assert sorted(shown_ids(page)) == sorted(slug(i) for i in want)
    # everything came from the built files under the sub-path
    assert requested and all(url.startswith(base) for url in requested), [u for u in requested if not u.startswith(base)]
    assert base + "search/text.json" in requested
    # page 3 of the list searches the whole list too
    page.goto(base + "page/3/?year=2021")
    ready(page)
    in_2021 = expected(records, year="2021")
    page.wait_for_function("line => document.querySelector('.search-count').textContent.trim() === line", arg=f"{len(in_2021)} of {len(records)} publications")
    assert sorted(shown_ids(page)) == sorted(slug(i) for i in in_2021)


def test_a_filtered_page_of_a_paged_list_never_counts_matches_it_does_not_show(page, paged_site):
    """Matches from other pages need the records' text: until it has come, the count says it is searching."""
    base, (records, _) = paged_site
    held = []
    page.route("**/search/text.json", lambda route: held.append(route))  # answered only when the test says
    page.goto(base + "page/3/?year=2021")
    ready(page)
    page.wait_for_function("() => document.querySelector('.search-count').textContent.includes('Searching')")
    assert shown_ids(page) == []
    page.wait_for_timeout(300)  # nothing changes while the text is on its way
    assert "Searching" in count_line(page)
    assert held, "the page did not ask for search/text.json"
    held[0].continue_()
    in_2021 = expected(records, year="2021")
    page.wait_for_function("line => document.querySelector('.search-count').textContent.trim() === line", arg=f"{len(in_2021)} of {len(records)} publications")
    assert sorted(shown_ids(page)) == sorted(slug(i) for i in in_2021)


@pytest.fixture(scope="module")
def german_site(tmp_path_factory):
    """The demo in German (site.yaml `language: de`), 5 records a page."""
    root = tmp_path_factory.mktemp("german")
    site = copy_demo(root / "site")
    settings = site / "content" / "site.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("language: en", "language: de") + "\nrecords_per_page: 5\n", encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        yield base, load_records(site / "output")


def test_search_and_copy_speak_the_sites_language(new_page, german_site):
    """What search.js and copy.js say comes from the theme's strings, as the rest of the page."""
    base, (records, types) = german_site
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    page.goto(base)
    ready(page)
    assert count_line(page) == f"{len(records)} Publikationen"
    type_query(page, "muller")
    page.wait_for_function("() => !document.querySelector('.search-count').textContent.includes('durchsucht')")
    want = expected(records, "muller")
    assert count_line(page) == f"{len(want)} von {len(records)} Publikationen"
    page.locator("[role=status][aria-live=polite]").filter(has_text=f"{len(want)} von {len(records)} Publikationen angezeigt").wait_for()
    articles = sum(1 for kind in types.values() if kind == "article")
    assert f"Zeitschriftenartikel ({articles})" in page.locator("#search-type").inner_text()
    page.goto(base + f"records/{slug(records[0]['id'])}/")
    page.get_by_role("button", name="BibTeX kopieren").click()
    page.locator(".copy-status").filter(has_text="BibTeX in die Zwischenablage kopiert.").wait_for()
    assert page.get_by_role("button", name="Kopiert").count() == 1


def test_record_text_is_shown_as_text(page, paged_site):
    base, _ = paged_site
    page.goto(base)
    ready(page)
    type_query(page, "zebrafish")
    settle(page)
    title = page.locator(".search-matches .record-title").inner_text()
    assert "<img" in title and "</script>" in title
    assert page.locator(".search-matches img, .search-matches b").count() == 0
    assert page.evaluate("window.__pwned") is None


# -- scale ----------------------------------------------------------------------------------------

WORDS = (
    "adaptive scalable distributed learning sparse attention gradient compression memory efficient training inference "
    "latency throughput scheduling cluster heterogeneous pipeline parallel model data graph network robust secure "
    "federated privacy optimal bound analysis system framework kernel accelerator cache storage query stream"
).split()
NAMES = ["Lena Müller", "Zoë Kováč", "Jonas Berg", "Priya Raman", "André Dupont", "Søren Ødegård", "Aiko Tanaka", "Mira Okonkwo"]
VENUES = ["arXiv", "Proceedings of EuroSys", "Journal of Parallel and Distributed Computing", "Workshop on Systems for ML"]


@pytest.fixture(scope="module")
def big_site(tmp_path_factory):
    """2,000 records on one page: arXiv-like titles (some with math), 3-6 authors, 80-160-word abstracts."""
    rng = random.Random(2000)
    root = tmp_path_factory.mktemp("big")
    site = root / "site"
    (site / "content" / "records").mkdir(parents=True)
    (site / "content" / "site.yaml").write_text("title: Big\nbase_url: https://example.org/\nrecords_per_page: 5000\n", encoding="utf-8")
    (site / "content" / "profile.yaml").write_text("name: Lena Müller\n", encoding="utf-8")
    records = []
    for i in range(BIG):
        title = " ".join(rng.choices(WORDS, k=rng.randint(6, 12))).capitalize()
        if i % 7 == 0:
            title += " in $O(n^2)$ time"
        records.append(
            {
                "id": f"big{i:05d}",
                "title": title,
                "authors": rng.sample(NAMES, rng.randint(3, 6)),
                "year": 2000 + i % 26,
                "source": rng.choice(VENUES),
                "abstract": " ".join(rng.choices(WORDS, k=rng.randint(80, 160))).capitalize() + ".",
                "categories": [rng.choice(["cs.DC", "cs.LG", "cs.PF", "stat.ML"])],
            }
        )
    (site / "content" / "records" / "all.yaml").write_text(yaml.safe_dump(records, allow_unicode=True, sort_keys=False), encoding="utf-8")
    result = run_sitegen("build", "--site", str(site), timeout=300)
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        yield base, load_records(site / "output")


MEASURE = """() => {
  const box = document.querySelector('input[type=search]');
  window.__keystrokes = [];
  box.addEventListener('beforeinput', () => {
    const start = performance.now();
    // the list as painted: after the input handler, the next frame's style and layout, and the paint
    requestAnimationFrame(() => setTimeout(() => window.__keystrokes.push(performance.now() - start), 0));
  }, true);
}"""


ROUNDS = 5  # a round is judged whole; the best of five, so that another process's burst on the machine (or a pause of the
# chromium the whole browser set shares, late in it) is not the page's


def type_and_delete(page, query: str) -> list[float]:
    """Milliseconds from each keystroke to the list painted: typing `query` a character at a time, then deleting it."""
    page.evaluate("window.__keystrokes = []")
    for typed, character in enumerate(query, start=1):
        page.keyboard.type(character)
        page.wait_for_function("n => window.__keystrokes.length >= n", arg=typed)
    for deleted in range(1, len(query) + 1):
        page.keyboard.press("Backspace")
        page.wait_for_function("n => window.__keystrokes.length >= n", arg=len(query) + deleted)
    return page.evaluate("window.__keystrokes")


def test_two_thousand_records_update_within_budget_per_keystroke(page, big_site):
    base, (records, _) = big_site
    assert len(records) == BIG
    page.goto(base)
    ready(page)
    assert len(shown_ids(page)) == BIG
    page.locator("input[type=search]").focus()  # fetches the text index, as a reader's first click does
    page.keyboard.type("x")
    settle(page)  # the text index is in
    page.keyboard.press("Backspace")
    page.wait_for_timeout(200)
    page.evaluate(MEASURE)
    query = "distributed o(n²) müller"
    rounds = []
    for _ in range(ROUNDS):
        times = type_and_delete(page, query)
        rounds.append(times)
        print(
            f"\n{BIG} records, {len(times)} keystrokes: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms:",
            " ".join(f"{c}{t:.0f}" for c, t in zip(query + "⌫" * len(query), times)),
        )
        if max(times) <= KEYSTROKE_BUDGET_MS:
            break
    assert min(max(times) for times in rounds) <= KEYSTROKE_BUDGET_MS, [list(zip(query + "⌫" * len(query), map(round, times))) for times in rounds]
    assert len(shown_ids(page)) == BIG
    page.keyboard.type(query)
    settle(page)
    want = expected(records, query)
    assert sorted(shown_ids(page)) == sorted(slug(i) for i in want) and want


def test_two_thousand_records_on_a_phone(new_page, big_site):
    base, (records, types) = big_site
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto(base)
    ready(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("input[type=search]")
    for control in (box, page.locator("#search-year"), page.locator("#search-type"), page.locator("#search-subject")):
        size = control.bounding_box()
        assert control.is_visible() and size["height"] >= 44 and size["x"] >= 0 and size["x"] + size["width"] <= 390
    box.tap()
    page.keyboard.type("müller 2024")
    settle(page)
    want = expected(records, "müller 2024")
    assert sorted(shown_ids(page)) == sorted(slug(i) for i in want) and want
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def demo_built_with(tmp_path, record: dict):
    """The demo with one more record, built for the root of a local server."""
    site = copy_demo(tmp_path / "site")
    (site / "content" / "records" / f"{record['id']}.yaml").write_text(yaml.safe_dump(record, allow_unicode=True), encoding="utf-8")
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    return site


def test_an_umlaut_typed_finds_the_name_spelled_with_ae_oe_ue(new_page, tmp_path):
    site = demo_built_with(tmp_path, {"id": "mueller2020", "title": "Spelled without umlauts", "authors": ["Jonas Mueller"], "year": 2020, "source": "J"})
    with serve(site / "output") as base:
        page = new_page()
        page.goto(base)
        ready(page)
        records, _ = load_records(site / "output")
        type_query(page, "Jonas Müller")
        settle(page)
        assert "mueller2020" in shown_ids(page) and sorted(shown_ids(page)) == sorted(slug(i) for i in expected(records, "Jonas Müller"))


def test_a_transliterated_russian_name_is_found_as_english_spells_it(new_page, tmp_path):
    """MathSciNet transliterates with soft and hard signs, Drinfelʹd (`Drinfel\\cprime d`): typing "drinfeld", as
    English writes the name, found nothing."""
    site = demo_built_with(tmp_path, {"id": "drinfeld1986", "title": "Quantum groups", "authors": ["V. G. Drinfelʹd"], "year": 1986, "source": "J"})
    with serve(site / "output") as base:
        page = new_page()
        page.goto(base)
        ready(page)
        records, _ = load_records(site / "output")
        for query in ("drinfeld", "Drinfelʹd"):
            type_query(page, query)
            settle(page)
            assert shown_ids(page) == ["drinfeld1986"] == [slug(i) for i in expected(records, query)], query


def test_cjk_typed_without_the_records_spaces_finds_it(new_page, tmp_path):
    site = demo_built_with(
        tmp_path, {"id": "yamada2021", "title": "深層 学習 による 画像 認識", "authors": ["山田 太郎"], "year": 2021, "source": "情報処理学会論文誌"}
    )
    with serve(site / "output") as base:
        page = new_page()
        page.goto(base)
        ready(page)
        records, _ = load_records(site / "output")
        for query in ("山田太郎", "山田　太郎", "学習による画像", "太郎 深層学習"):
            type_query(page, query)
            settle(page)
            assert shown_ids(page) == ["yamada2021"], query
            assert sorted(shown_ids(page)) == sorted(slug(i) for i in expected(records, query)), query
        type_query(page, "山田次郎")  # another name is not found
        settle(page)
        assert shown_ids(page) == []
        type_query(page, "pipeline parallel")  # Latin text is searched as before: its spaces count
        settle(page)
        assert sorted(shown_ids(page)) == sorted(slug(i) for i in expected(records, "pipeline parallel")) != []


def test_persian_arabic_and_hebrew_are_found_as_typed_on_either_keyboard_with_or_without_vowel_marks(new_page, tmp_path):
    """'یادگیری' typed on a Persian keyboard did not find 'يادگيري' (Arabic yeh, as many databases write it), 'میکنیم'
    typed without the zero-width non-joiner did not find 'می‌کنیم', and Arabic harakat and Hebrew niqqud had to be
    typed as the record wrote them."""
    site = demo_built_with(
        tmp_path,
        {
            "id": "fa2021",
            "title": "كتاب يادگيري ماشين در سال ۱۴۰۰",
            "authors": ["سارا احمدي"],
            "year": 2021,
            "source": "J",
            "abstract": "مدل‌ها را بررسی می‌کنیم. كِتَابٌ عَرَبِيٌّ. סֵפֶר עִבְרִי.",
        },
    )
    with serve(site / "output") as base:
        page = new_page()
        page.goto(base)
        ready(page)
        records, _ = load_records(site / "output")
        for query in ("یادگیری ماشین", "کتاب", "احمدی", "میکنیم", "مدلها", "1400", "كتاب عربي", "ספר עברי"):
            type_query(page, query)
            settle(page)
            assert shown_ids(page) == ["fa2021"], query
            assert sorted(shown_ids(page)) == sorted(slug(i) for i in expected(records, query)), query
        type_query(page, "کتابخانه")  # another word is not found
        settle(page)
        assert shown_ids(page) == []


def test_a_persons_page_searches_the_records_it_lists(new_page, tmp_path):
    """People pages list records too (SPEC §8: every page that lists records has a search box): its search
    counts and filters that person's records, not the site's."""
    records = [
        {"id": f"r{i}", "title": title, "authors": authors, "year": 2020 + i, "source": "Journal of Tests", "type": kind}
        for i, (title, authors, kind) in enumerate(
            [
                ("Sparse training at scale", ["Ada Lovelace", "Grace Hopper", "Charles Babbage"], "article"),
                ("Dense kernels for engines", ["Ada Lovelace", "Charles Babbage"], "inproceedings"),
                ("Sparse compilers", ["Grace Hopper"], "article"),
                ("Notes on engines", ["Ada Lovelace", "Charles Babbage"], "article"),
            ]
        )
    ]
    site = tmp_path / "site"
    (site / "content" / "records").mkdir(parents=True)
    (site / "content" / "site.yaml").write_text("title: Lab\nbase_url: /\npeople: authors\n", encoding="utf-8")
    (site / "content" / "profile.yaml").write_text("name: The Lab\n", encoding="utf-8")
    (site / "content" / "records" / "all.yaml").write_text(yaml.safe_dump(records), encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page()
        page.goto(base + "people/ada-lovelace/")
        ready(page)
        assert count_line(page) == "3 publications"
        assert page.locator("#search-type option").all_inner_texts() == ["All types", "Journal article (2)", "Conference paper (1)"]
        type_query(page, "sparse")
        settle(page)
        assert shown_ids(page) == ["r0"] and count_line(page) == "1 of 3 publications"
        assert page.locator(".record-title:visible").all_inner_texts() == ["Sparse training at scale"]


def test_the_most_cited_list_is_searched_in_its_own_order(page, served_demo, demo):
    """The most-cited page lists records too (SPEC §8): its search filters its own list, most cited first."""
    records, _ = demo
    page.goto(served_demo + "cited/")
    ready(page)
    listed = shown_ids(page)
    assert 0 < len(listed) <= len(records) and count_line(page) == f"{len(listed)} publications"
    type_query(page, "muller")
    settle(page)
    want = {slug(i) for i in expected(records, "muller")} & set(listed)
    assert shown_ids(page) == [record for record in listed if record in want]  # the same order: most cited first
    assert count_line(page) == f"{len(want)} of {len(listed)} publications"


# -- lists of records in a page of one's own ----------------------------------------------------------


@pytest.fixture(scope="module")
def page_with_lists(tmp_path_factory):
    """A page with three lists of records: all twelve (searchable), a selection of three (not), and the six
    articles (search="true"): the first and the third each with a search box of its own."""
    site = tmp_path_factory.mktemp("lists") / "site"
    (site / "content" / "records").mkdir(parents=True)
    (site / "content" / "pages").mkdir()
    records = [
        {
            "id": f"paper{i}",
            "title": f"{'Gossip protocols' if i % 3 == 0 else 'Sparse kernels'} part {i}",
            "authors": ["Ada Lovelace"],
            "year": 2010 + i,
            "source": "Journal of Tests",
            "type": "article" if i % 2 else "inproceedings",
        }
        for i in range(1, 13)
    ]
    (site / "content" / "site.yaml").write_text("title: Lists\nbase_url: /\n", encoding="utf-8")
    (site / "content" / "profile.yaml").write_text("name: Ada Lovelace\n", encoding="utf-8")
    (site / "content" / "records" / "all.yaml").write_text(yaml.safe_dump(records), encoding="utf-8")
    (site / "content" / "pages" / "lists.md").write_text(
        '---\ntitle: Lists\n---\nAll of them:\n\n{{< publications >}}\n\nThree:\n\n{{< publications limit="3" >}}\n\n'
        'The articles:\n\n{{< publications type="article" search="true" >}}\n',
        encoding="utf-8",
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        yield base + "lists/", records


def listed(page, number: int) -> list[str]:
    """The records a reader sees in the page's `number`th list, by slug."""
    return page.evaluate(
        """number => [...document.querySelectorAll(`section[aria-labelledby="publications-${number}"] li.record`)]
        .filter(li => li.offsetParent !== null && li.querySelector('a').checkVisibility())
        .map(li => li.querySelector('a').getAttribute('href').split('/').filter(Boolean).pop())""",
        number,
    )


def list_count(page, number: int) -> str:
    return page.locator(f'section[aria-labelledby="publications-{number}"] .search-count').inner_text().strip()


def lists_ready(page) -> None:
    page.wait_for_function("() => [...document.querySelectorAll('.search-controls')].every(f => !f.disabled)")


def test_each_list_in_a_page_is_searched_on_its_own_and_keeps_its_state_in_the_address(page, page_with_lists):
    base, records = page_with_lists
    everything = [f"paper{i}" for i in range(12, 0, -1)]
    articles = [slug for slug in everything if int(slug[5:]) % 2]
    page.goto(base)
    lists_ready(page)
    assert page.locator("input[type=search]").count() == 2  # the selection of three has none
    assert listed(page, 1) == everything and list_count(page, 1) == "12 publications"
    assert listed(page, 3) == articles and list_count(page, 3) == "6 publications"

    # typing in the first list narrows it alone
    first = page.locator('section[aria-labelledby="publications-1"] input[type=search]')
    first.fill("gossip")
    page.wait_for_function("() => document.querySelector('#search-count').textContent.includes(' of ')")
    gossip = [slug for slug in everything if int(slug[5:]) % 3 == 0]
    assert listed(page, 1) == gossip and list_count(page, 1) == f"{len(gossip)} of 12 publications"
    assert listed(page, 2) == everything[:3]
    assert listed(page, 3) == articles and list_count(page, 3) == "6 publications"
    page.wait_for_function("() => new URLSearchParams(location.search).get('q') === 'gossip'")

    # the third list's filter: its own names in the address, the first list untouched
    year = "2019"
    page.select_option("#list3-search-year", year)
    assert listed(page, 3) == ["paper9"] and list_count(page, 3) == "1 of 6 publications"
    assert listed(page, 1) == gossip
    page.wait_for_function("() => new URLSearchParams(location.search).get('list3-year') === '2019'")
    assert "year=" not in page.url.replace("list3-year=", "")

    # the address restores both on reload, and opens shared in another page
    for opened in (page, page.context.new_page()):
        if opened is page:
            page.reload()
        else:
            opened.goto(page.url)
        lists_ready(opened)
        opened.wait_for_function("() => document.querySelector('#search-count').textContent.includes(' of ')")
        assert opened.input_value('section[aria-labelledby="publications-1"] input[type=search]') == "gossip"
        assert opened.input_value("#list3-search-year") == year
        assert listed(opened, 1) == gossip and list_count(opened, 1) == f"{len(gossip)} of 12 publications"
        assert listed(opened, 3) == ["paper9"] and list_count(opened, 3) == "1 of 6 publications"

    # clearing the third list leaves the first one's search in place
    page.locator('section[aria-labelledby="publications-3"] .search-reset').click()
    assert listed(page, 3) == articles and list_count(page, 3) == "6 publications"
    assert listed(page, 1) == gossip
    page.wait_for_function("() => !location.search.includes('list3-')")
    assert "q=gossip" in page.url


def test_without_javascript_every_list_in_a_page_shows_every_record(new_page, page_with_lists):
    base, _ = page_with_lists
    page = new_page(java_script_enabled=False)
    page.goto(base + "?q=gossip&list3-year=2019")
    assert len(listed(page, 1)) == 12 and len(listed(page, 3)) == 6
    assert all(box.is_disabled() for box in page.locator("input[type=search]").all())


def test_a_page_with_several_searchable_lists_has_no_axe_violation(page, page_with_lists):
    """Each form's controls keep their labels, and no id is repeated (WCAG 2.1 A/AA, by axe-core)."""
    pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python is not installed")
    from browser.test_axe import violations_on

    base, _ = page_with_lists
    assert violations_on(page, base) == []
