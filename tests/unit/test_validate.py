"""Stage 2, validate: every field type, and the exact text of every message.

Messages have one shape, `path:line: field 'name': what was expected, got what`,
so that editors and CI logs can jump to the place.
"""

from __future__ import annotations

import datetime

import pytest
from conftest import MINIMAL_SITE, write_site
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.load import PositionedDict, load_site, parse_yaml
from sitegen.model import RawDocument
from sitegen.prepare import read_inputs
from sitegen.validate import RECORD_FIELDS, check_corrections, validate_config, validate_profile, validate_record, validate_site

PATH = "content/records/x.yaml"


def record(text: str, path: str = PATH):
    """Validate one record file's text: (record or None, [message, ...])."""
    data, problem = parse_yaml(text, path)
    assert problem is None, problem
    problems = []
    result = validate_record(data, path, problems)
    return result, [str(p) for p in problems]


def document(text: str, path: str):
    data, problem = parse_yaml(text, path)
    assert problem is None, problem
    return RawDocument(path=None, display_path=path, data=data)


# -- a good record -----------------------------------------------------------


def test_a_complete_record_is_typed():
    rec, problems = record(
        "id: '2401.01234'\n"
        "title: 'A $x$ title'\n"
        "authors: [Ada Lovelace, 'Lena M{\\\"u}ller']\n"
        "year: 2024\n"
        "date: 2024-01-05\n"
        "source: arXiv\n"
        "abstract: |\n  Some *Markdown*.\n"
        "categories: [cs.DC, cs.LG]\n"
        "links:\n  pdf: https://arxiv.org/pdf/2401.01234\n  code: https://github.com/x/y\n"
        "arxiv: '2401.01234'\n"
        "doi: 10.1000/xyz\n"
        "hidden: false\n"
        "featured: true\n"
        "core_rank: A*\n"
    )
    assert problems == ["content/records/x.yaml:17: warning: field 'core_rank': unknown field, passed to templates as it is (extra.core_rank)"]
    assert rec.id == "2401.01234"
    assert rec.title == "A $x$ title"
    assert rec.authors == ("Ada Lovelace", 'Lena M{\\"u}ller')
    assert (rec.year, rec.date) == (2024, datetime.date(2024, 1, 5))
    assert rec.source == "arXiv"
    assert rec.abstract == "Some *Markdown*."
    assert rec.categories == ("cs.DC", "cs.LG")
    assert rec.links == {"pdf": "https://arxiv.org/pdf/2401.01234", "code": "https://github.com/x/y"}
    assert (rec.arxiv, rec.doi) == ("2401.01234", "10.1000/xyz")
    assert (rec.hidden, rec.featured, rec.fetched) == (False, True, False)
    assert rec.extra == {"core_rank": "A*"}  # unknown fields are kept for templates
    assert rec.location.path == PATH and rec.location.line == 1
    assert rec.lines["categories"] == 9


def test_control_characters_are_removed_with_a_warning_naming_line_and_field():
    result, messages = record('id: x\ntitle: "Bell \\x07 and escape \\x1b\\x07"\nyear: 2020\nauthors: ["Ada\\x00 Lovelace"]\nsource: "Proc.\\u0085"\n')
    assert (result.title, result.authors, result.source) == ("Bell  and escape", ("Ada Lovelace",), "Proc.")
    assert messages == [
        'content/records/x.yaml:2: warning: field \'title\': in double quotes, YAML reads "\\x07" (control character U+0007, removed) and "\\x1b" '
        "(control character U+001B, removed) as escapes, not backslashes; use single quotes, in which a backslash stays: 'Bell \\x07 and escape \\x1b\\x07'",
        "content/records/x.yaml:4: warning: field 'authors': in double quotes, YAML reads \"\\x00\" as an escape (control character U+0000, removed), "
        "not a backslash; use single quotes, in which a backslash stays: 'Ada\\x00 Lovelace'",
        "content/records/x.yaml:5: warning: field 'source': in double quotes, YAML reads \"\\u0085\" as an escape (control character U+0085, removed), "
        "not a backslash; use single quotes, in which a backslash stays: 'Proc.\\u0085'",
    ]


def test_control_characters_from_elsewhere_are_removed_with_a_warning():
    """A reader other than YAML (BibTeX) may hand over a control character that no escape made."""
    problems = []
    result = validate_record({"id": "x", "title": "Bell \x07 and \x1b", "year": 2020}, PATH, problems, reader="bibtex")
    assert result.title == "Bell  and"
    assert [str(p) for p in problems] == [
        "content/records/x.yaml: warning: entry 'x': field 'title': control character U+0007, U+001B removed: a page cannot show it"
    ]


@pytest.mark.parametrize(
    "written, message",
    [
        (
            '"Scaling $\\alpha$"',
            'in double quotes, YAML reads "\\a" as an escape (control character U+0007, removed), not a backslash; '
            "use single quotes, in which a backslash stays: 'Scaling $\\alpha$'",
        ),
        (
            '"$\\beta$-VAE"',
            'in double quotes, YAML reads "\\b" as an escape (control character U+0008, removed), not a backslash; '
            "use single quotes, in which a backslash stays: '$\\beta$-VAE'",
        ),
        (
            '"$\\frac{1}{2}$, $\\varepsilon$, \\emph{x}"',
            'in double quotes, YAML reads "\\f" (control character U+000C, removed), "\\v" (control character U+000B, removed) '
            'and "\\e" (control character U+001B, removed) as escapes, not backslashes; use single quotes, '
            "in which a backslash stays: '$\\frac{1}{2}$, $\\varepsilon$, \\emph{x}'",
        ),
        (
            '"The $\\tau$-leap"',
            "in double quotes, YAML reads \"\\t\" as an escape (a tab), not a backslash; use single quotes, in which a backslash stays: 'The $\\tau$-leap'",
        ),
        (
            '"$\\Lambda$CDM, it\'s"',
            'in double quotes, YAML reads "\\L" as an escape (a line separator), not a backslash; '
            "use single quotes, in which a backslash stays: '$\\Lambda$CDM, it''s'",
        ),
    ],
)
def test_a_backslash_escape_in_double_quotes_names_its_sequence_and_advises_single_quotes(written, message):
    result, messages = record(f"id: x\ntitle: {written}\nyear: 2020\n")
    assert messages == [f"content/records/x.yaml:2: warning: field 'title': {message}"]
    assert result is not None


@pytest.mark.parametrize("written", ['"one\\ttwo"', '"a \\\\alpha"', "'Scaling $\\alpha$'", "Scaling $\\alpha$", '"line\\none"'])
def test_escapes_meant_as_escapes_and_backslashes_outside_double_quotes_pass(written):
    _, messages = record(f"id: x\ntitle: {written}\nyear: 2020\n")
    assert messages == []


def test_tabs_and_line_breaks_are_kept():
    result, messages = record('id: x\ntitle: T\nyear: 2020\nabstract: "one\\tcell\\r\\n\\nnext"\n')
    assert result.abstract == "one\tcell\r\n\nnext" and messages == []


def test_year_comes_from_date_when_missing():
    rec, problems = record("id: a\ntitle: T\ndate: 2023-05-06\n")
    assert problems == [] and rec.year == 2023


def test_year_may_be_a_quoted_number():
    rec, problems = record("id: a\ntitle: T\nyear: '2021'\n")
    assert problems == [] and rec.year == 2021


@pytest.mark.parametrize(
    "authors, listed",
    [
        ("Sheng Lin, Bin Cui", "[Sheng Lin, Bin Cui]"),
        ("Ada Lovelace", "[Ada Lovelace]"),
        ("'Lin, Sheng and Cui, Bin'", "['Lin, Sheng', 'Cui, Bin']"),
        ("Lin S.; O'Neil P.", "[Lin S., 'O''Neil P.']"),
    ],
)
def test_authors_as_one_string_is_an_error_showing_the_list(authors, listed):
    rec, problems = record(f"id: a\ntitle: T\nyear: 2020\nauthors: {authors}\n")
    assert problems == [f"content/records/x.yaml:4: field 'authors': expected a list, got one string; write it as a list: authors: {listed}"]
    assert rec is None


def test_one_category_may_be_written_without_a_list():
    rec, problems = record("id: a\ntitle: T\nyear: 2020\ncategories: cs.DC\n")
    assert problems == [] and rec.categories == ("cs.DC",)


def test_records_under_records_arxiv_are_marked_fetched():
    rec, _ = record("id: '2401.00001'\ntitle: T\nyear: 2024\n", path="content/records/arxiv/2401.00001.yaml")
    assert rec.fetched


def test_fields_the_file_set_are_remembered():
    rec, _ = record("id: a\ntitle: T\nyear: 2020\nabstract:\n")
    assert rec.given == ("id", "title", "year")


# -- wrong types: exact messages -------------------------------------------------


def test_year_as_a_word_is_the_documented_message():
    _, problems = record("id: a\ntitle: T\nyear: twenty\n")
    assert problems == ["content/records/x.yaml:3: field 'year': expected an integer, got 'twenty'"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("title: T\nyear: 2020\n", "content/records/x.yaml:1: missing required field 'id'"),
        ("id: a\ntitle:\nyear: 2020\n", "content/records/x.yaml:2: field 'title': is empty, but it is required"),
        ("id: a\ntitle: ''\nyear: 2020\n", "content/records/x.yaml:2: field 'title': is empty, but it is required"),
        ("id: '  '\ntitle: T\nyear: 2020\n", "content/records/x.yaml:1: field 'id': is empty, but it is required"),
        ("id: a\ntitle: [T]\nyear: 2020\n", "content/records/x.yaml:2: field 'title': expected a string, got a list"),
        ("id: a\ntitle: {t: 1}\nyear: 2020\n", "content/records/x.yaml:2: field 'title': expected a string, got a mapping"),
        ("id: a\ntitle: yes\nyear: 2020\n", "content/records/x.yaml:2: field 'title': expected a string, got bool True"),
        (
            "id: 2401.10010\ntitle: T\nyear: 2024\n",
            "content/records/x.yaml:1: field 'id': expected a string, got the number 2401.1001; quote it so no digit is lost: id: \"...\"",
        ),
        (
            "id: 0042\ntitle: T\nyear: 2024\n",
            "content/records/x.yaml:1: field 'id': expected a string, got the number 34; quote it so no digit is lost: id: \"...\"",
        ),
        (
            "id: a\ntitle: 1984\nyear: 2024\n",
            "content/records/x.yaml:2: field 'title': expected a string, got the number 1984; quote it so no digit is lost: title: \"...\"",
        ),
        (
            "id: a\ntitle: T\nyear: 2024\nauthors: [Ada, 5]\n",
            "content/records/x.yaml:4: field 'authors': item 2: expected a string, got the number 5; quote it so no digit is lost: \"...\"",
        ),
        (
            "id: a\ntitle: T\nyear: 2024\nids: {dblp: 2401.01230}\n",
            "content/records/x.yaml:4: field 'ids.dblp': expected a string, got the number 2401.0123; quote it so no digit is lost: dblp: \"...\"",
        ),
        (
            "id: a\ntitle: T\nyear: 2024\ntype: software\nversion: 1.10\n",
            "content/records/x.yaml:5: field 'version': expected a string, got the number 1.1; quote it so no digit is lost: version: \"...\"",
        ),
        (
            "id: a\ntitle: T\nyear: 2024\ntype: paper\n",
            "content/records/x.yaml:4: field 'type': expected one of article, inproceedings, preprint, thesis, book, chapter, report, patent, "
            "software, dataset, other, got 'paper'; did you mean 'article'?",
        ),
        (
            "id: a\ntitle: T\nyear: 2024\ntype: conference\n",
            "content/records/x.yaml:4: field 'type': expected one of article, inproceedings, preprint, thesis, book, chapter, report, patent, "
            "software, dataset, other, got 'conference'; did you mean 'inproceedings'?",
        ),
        (
            "id: a\ntitle: T\nyear: 2024\ntype: talk\n",
            "content/records/x.yaml:4: field 'type': expected one of article, inproceedings, preprint, thesis, book, chapter, report, patent, "
            "software, dataset, other, got 'talk'; a talk is no record: write it in content/talks/ (title, event, date, links), listed on the "
            "site's Talks page",
        ),
        ("id: a\ntitle: T\nyear: 2024\ncitations: -3\n", "content/records/x.yaml:4: field 'citations': expected a count of 0 or more, got -3"),
        ("id: a\ntitle: T\nyear: 2024\ncitations: many\n", "content/records/x.yaml:4: field 'citations': expected an integer, got 'many'"),
        (
            "id: CON\ntitle: T\nyear: 2024\n",
            "content/records/x.yaml:1: field 'id': 'CON' cannot name a folder on Windows (records/CON/: CON, PRN, AUX, NUL, COM0-9 and LPT0-9 "
            "are device names there, with any extension); change it",
        ),
        (
            "id: con.txt\ntitle: T\nyear: 2024\n",
            "content/records/x.yaml:1: field 'id': 'con.txt' cannot name a folder on Windows (records/con.txt/: CON, PRN, AUX, NUL, COM0-9 and "
            "LPT0-9 are device names there, with any extension); change it",
        ),
        (
            "id: a\ntitle: T\nyear: 2024\ncategories: [cs.DC, com1]\n",
            "content/records/x.yaml:4: field 'categories': 'com1' cannot name a folder on Windows (subjects/com1/: CON, PRN, AUX, NUL, COM0-9 "
            "and LPT0-9 are device names there, with any extension); change it",
        ),
        (
            "id: smith2020.\ntitle: T\nyear: 2024\n",
            "content/records/x.yaml:1: field 'id': 'smith2020.' cannot name a folder on Windows, which drops a final '.' (records/smith2020./); change it",
        ),
        (
            f"id: {'a' * 256}\ntitle: T\nyear: 2024\n",
            "content/records/x.yaml:1: field 'id': 256 characters is too long for the folder records/<slug>/ (at most 255 bytes); shorten it",
        ),
        (
            f"id: a\ntitle: T\nyear: 2024\ncategories: ['{'é' * 300}']\n",
            "content/records/x.yaml:4: field 'categories': 300 characters is too long for the folder subjects/<slug>/ (at most 255 bytes); shorten it",
        ),
        ("id: a\ntitle: T\nyear: true\n", "content/records/x.yaml:3: field 'year': expected an integer, got bool True"),
        ("id: a\ntitle: T\nyear: 2020.5\n", "content/records/x.yaml:3: field 'year': expected an integer, got float 2020.5"),
        ("id: a\ntitle: T\nyear: 20\n", "content/records/x.yaml:3: field 'year': expected a four-digit year, got 20"),
        ("id: a\ntitle: T\nyear: 2020\ndate: 2021-01-01\n", "content/records/x.yaml:3: field 'year': 2020 does not match the year of 'date' (2021-01-01)"),
        ("id: a\ntitle: T\ndate: 2024-02-30\n", "content/records/x.yaml:3: field 'date': expected a date YYYY-MM-DD, got '2024-02-30'"),
        ("id: a\ntitle: T\ndate: last spring\n", "content/records/x.yaml:3: field 'date': expected a date YYYY-MM-DD, got 'last spring'"),
        ("id: a\ntitle: T\nyear: 2020\nauthors: {a: b}\n", "content/records/x.yaml:4: field 'authors': expected a list of strings, got a mapping"),
        ("id: a\ntitle: T\nyear: 2020\nauthors:\n  - Ada\n  - [x]\n", "content/records/x.yaml:6: field 'authors': item 2: expected a string, got a list"),
        (
            "id: a\ntitle: T\nyear: 2020\nauthors: [Ada,\n  7]\n",
            "content/records/x.yaml:5: field 'authors': item 2: expected a string, got the number 7; quote it so no digit is lost: \"...\"",
        ),
        (
            "id: a\ntitle: T\nyear: 2020\nauthors: [Ada, 7]\n",
            "content/records/x.yaml:4: field 'authors': item 2: expected a string, got the number 7; quote it so no digit is lost: \"...\"",
        ),
        ("id: a\ntitle: T\nyear: 2020\ncategories: 7\n", "content/records/x.yaml:4: field 'categories': expected a list of strings, got int 7"),
        ("id: a\ntitle: T\nyear: 2020\nlinks: [https://e.org]\n", "content/records/x.yaml:4: field 'links': expected a mapping of name: URL, got a list"),
        ("id: a\ntitle: T\nyear: 2020\nlinks:\n  abs: https://e.org\n  pdf: 12\n", "content/records/x.yaml:6: field 'links.pdf': expected a URL, got int 12"),
        (
            "id: a\ntitle: T\nyear: 2020\nhidden: 'yes'\n",
            "content/records/x.yaml:4: field 'hidden': expected true or false, got the text 'yes' in quotes: write it without them: hidden: true",
        ),
        ("id: a\ntitle: T\nyear: 2020\nfeatured: 1\n", "content/records/x.yaml:4: field 'featured': expected true or false, got int 1"),
        (
            "id: a\ntitle: T\nyear: 2020\ndoi: 10.1000\n",
            "content/records/x.yaml:4: field 'doi': expected a string, got the number 10.1; quote it so no digit is lost: doi: \"...\"",
        ),
        ("id: '..'\ntitle: T\nyear: 2020\n", "content/records/x.yaml:1: field 'id': '..' cannot name a page; use a letter or digit"),
        (
            "id: a\ntitle: T\nyear: 2020\ncategories: [cs.DC, '.']\n",
            "content/records/x.yaml:4: field 'categories': '.' cannot name a page; use a letter or digit",
        ),
    ],
)
def test_wrong_field_messages(text, message):
    rec, problems = record(text)
    assert problems == [message]
    assert rec is None


def test_a_list_file_item_that_is_not_a_mapping(tmp_path):
    valid = validate_site_from(tmp_path, {PATH: "- id: a\n  title: T\n  year: 2020\n- just text\n"})
    assert [str(p) for p in valid.problems] == ["content/records/x.yaml:4: expected a record (a mapping with id, title, ...), got 'just text'"]
    assert [r.id for r in valid.records] == ["a"]


def test_a_record_file_holding_one_string_is_an_error_at_its_line(tmp_path):
    valid = validate_site_from(tmp_path, {PATH: "# my records\n\n'just a string'\n"})
    assert [str(p) for p in valid.problems] == ["content/records/x.yaml:3: expected a record (a mapping with id, title, ...), got 'just a string'"]


def test_every_problem_of_a_record_is_reported_together():
    _, problems = record("id: a\ntitle: [T]\nyear: twenty\nhidden: maybe\nfeatured: 2\n")
    assert problems == [
        "content/records/x.yaml:2: field 'title': expected a string, got a list",
        "content/records/x.yaml:3: field 'year': expected an integer, got 'twenty'",
        "content/records/x.yaml:4: field 'hidden': expected true or false, got 'maybe'",
        "content/records/x.yaml:5: field 'featured': expected true or false, got int 2",
    ]


# -- links: only safe schemes --------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        " javascript:alert(1)",
        "java\tscript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
    ],
)
def test_unsafe_link_is_dropped_with_a_warning(url):
    data = {"id": "a", "title": "T", "year": 2020, "links": {"abs": "https://e.org/a", "evil": url}}
    problems = []
    rec = validate_record(data, PATH, problems)
    assert rec is not None and rec.links == {"abs": "https://e.org/a"}
    assert len(problems) == 1 and problems[0].warning
    assert "field 'links.evil': unsafe URL scheme" in str(problems[0])
    assert "the link is left out" in str(problems[0])
    problems = []
    rec = validate_record({"id": "a", "title": "T", "year": 2020, "image": url}, PATH, problems)  # a picture: the same rule
    assert rec is not None and rec.image == "" and ["field 'image': unsafe URL scheme" in str(p) for p in problems] == [True]


def test_safe_links_are_kept():
    rec, problems = record("id: a\ntitle: T\nyear: 2020\nlinks:\n  a: https://e.org\n  b: http://e.org\n  c: mailto:x@e.org\n  d: papers/a.pdf\n  e:\n")
    assert problems == []
    assert rec.links == {"a": "https://e.org", "b": "http://e.org", "c": "mailto:x@e.org", "d": "papers/a.pdf"}


# -- site.yaml and profile.yaml ---------------------------------------------------


def test_site_settings():
    problems = []
    config = validate_config(document("title: T\nbase_url: https://www.e.org\ntheme: dark\ncname: www.e.org\nmotto: x\n", "content/site.yaml"), problems)
    assert [str(p) for p in problems] == ["content/site.yaml:5: warning: field 'motto': unknown setting, passed to templates as it is (extra.motto)"]
    assert (config.title, config.base_url, config.theme, config.language, config.cname) == ("T", "https://www.e.org/", "dark", "en", "www.e.org")
    assert config.extra == {"motto": "x"}


def test_a_missing_setting_names_its_likely_typo():
    problems = []
    validate_config(document("\ntitel: T\n", "content/site.yaml"), problems)
    validate_profile(document("nmae: A\n", "content/profile.yaml"), problems)
    assert [str(p) for p in problems] == [
        "content/site.yaml:2: warning: field 'titel': unknown setting; did you mean 'title'?",
        "content/site.yaml:2: missing required field 'title' (line 2 has 'titel': a typo?)",
        "content/profile.yaml:1: warning: field 'nmae': unknown setting; did you mean 'name'?",
        "content/profile.yaml:1: missing required field 'name' (line 1 has 'nmae': a typo?)",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "base_url: https://u.github.io/repo/",
        "base_url: http://localhost:8000/",
        "base_url: 'https://xn--mnchen-3ya.de/'",
        "base_url: 'https://münchen.de/'",
        "cname: www.example.org",
        "cname: example.org.",
        "cname: my-lab.example.co.uk",
        "language: en",
        "language: de-CH",
        "language: zh-Hans",
        "language: zh-Hans-CN",
        "language: sr-Latn-RS",
        "language: es-419",
        "language: de-CH-1996",
        "language: x-private",
        "language: en-US-x-twain",
        "group_by: type",
        "nav: []",
    ],
)
def test_site_values_that_obey_their_formats_pass(text):
    problems = []
    validate_config(document(f"title: T\n{text}\n", "content/site.yaml"), problems)
    assert problems == []


@pytest.mark.parametrize(
    ("written", "normal"),
    [
        ("http://x.github.io/repo//", "http://x.github.io/repo/"),
        ("https://x.github.io//a//b", "https://x.github.io/a/b/"),
        ("https://x.github.io/repo", "https://x.github.io/repo/"),
        ("'https://x.github.io/my repo/'", "https://x.github.io/my%20repo/"),
        ("'https://x.github.io/über/'", "https://x.github.io/%C3%BCber/"),
        ("'https://x.github.io/a%20b/'", "https://x.github.io/a%20b/"),
        ("'https://München.de'", "https://xn--mnchen-3ya.de/"),
        ("https://WWW.Uni.Example:443/~jdoe", "https://www.uni.example/~jdoe/"),
        ("http://www.uni.example:80/~jdoe/", "http://www.uni.example/~jdoe/"),
        ("http://localhost:8000/~jdoe/", "http://localhost:8000/~jdoe/"),
    ],
)
def test_base_url_is_normalised(written, normal):
    """Links, the canonical address, feeds and the sitemap are made from one form of base_url: repeated slashes
    one, the trailing slash there, characters a URL cannot hold percent-encoded, the host in ASCII."""
    problems = []
    config = validate_config(document(f"title: T\nbase_url: {written}\n", "content/site.yaml"), problems)
    assert problems == [] and config.base_url == normal


@pytest.mark.parametrize("written", ["/", "/repo/"])
def test_a_base_url_without_host_is_a_warning(written):
    problems = []
    config = validate_config(document(f"title: T\nbase_url: {written}\n", "content/site.yaml"), problems)
    assert config.base_url == written
    assert [str(p) for p in problems] == [
        f"content/site.yaml:2: warning: field 'base_url': '{written}' names no host, so pages have no canonical address or link previews, "
        "and the feeds and the sitemap hold paths that readers and search engines cannot follow; write the site's full address "
        f"(https://user.github.io{written}, or your domain's)"
    ]


def test_an_address_without_https_is_an_error_naming_the_full_address():
    problems = []
    validate_config(document("title: T\nbase_url: ada.github.io/repo\n", "content/site.yaml"), problems)
    assert [str(p) for p in problems] == [
        "content/site.yaml:2: field 'base_url': expected the site's address, an http(s) URL such as https://user.github.io/repo/, "
        "got 'ada.github.io/repo'; write the full address, 'https://ada.github.io/repo/'"
    ]


@pytest.mark.parametrize(
    ("written", "path", "folder"),
    [
        ("https://www.uni.example/~jdoe/index.html", "/~jdoe/index.html/", "https://www.uni.example/~jdoe/"),
        ("https://www.uni.example/~jdoe/home.HTM", "/~jdoe/home.HTM/", "https://www.uni.example/~jdoe/"),
        ("https://ada.github.io/index.php", "/index.php/", "https://ada.github.io/"),
    ],
)
def test_a_base_url_naming_a_page_is_an_error_naming_its_folder(written, path, folder):
    """The address bar shows https://.../~jdoe/index.html: as base_url it would make every link
    /~jdoe/index.html/static/style.css."""
    problems = []
    validate_config(document(f"title: T\nbase_url: {written}\n", "content/site.yaml"), problems)
    page = written.rsplit("/", 1)[1]
    assert [str(p) for p in problems] == [
        f"content/site.yaml:2: field 'base_url': '{written}' names a page ({page}), not the folder the site is in: "
        f"every link would start with {path}; write '{folder}'"
    ]


def test_a_folder_whose_name_has_a_dot_is_no_page():
    problems = []
    config = validate_config(document("title: T\nbase_url: https://ada.github.io/site.html/\n", "content/site.yaml"), problems)
    assert problems == [] and config.base_url == "https://ada.github.io/site.html/"


def test_a_base_url_with_dot_segments_is_an_error_naming_the_address_meant():
    problems = []
    validate_config(document("title: T\nbase_url: https://www.uni.example/~jdoe/../x/./\n", "content/site.yaml"), problems)
    assert [str(p) for p in problems] == [
        "content/site.yaml:2: field 'base_url': 'https://www.uni.example/~jdoe/../x/./' holds '.' or '..' parts, which links "
        "would keep as they are; write 'https://www.uni.example/x/'"
    ]


@pytest.mark.parametrize(
    ("written", "dropped"),
    [
        ("https://www.uni.example/~jdoe/?lang=en", "the query '?lang=en'"),
        ("https://www.uni.example/~jdoe/#top", "the fragment '#top'"),
        ("https://jdoe:secret@www.uni.example/~jdoe/", "the user name and password"),
    ],
)
def test_what_a_base_url_cannot_carry_is_a_warning_naming_it(written, dropped):
    problems = []
    config = validate_config(document(f"title: T\nbase_url: '{written}'\n", "content/site.yaml"), problems)
    assert config.base_url == "https://www.uni.example/~jdoe/"
    assert [str(p) for p in problems] == [
        f"content/site.yaml:2: warning: field 'base_url': {dropped} of '{written}' is left out of every link and address "
        "the site has; write 'https://www.uni.example/~jdoe/'"
    ]


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("https//www.uni.example/~jdoe/", "https://www.uni.example/~jdoe/"),
        ("https:/www.uni.example/~jdoe/", "https://www.uni.example/~jdoe/"),
        ("htps://www.uni.example/~jdoe/", "https://www.uni.example/~jdoe/"),
        ("http//ada.github.io/repo", "http://ada.github.io/repo/"),
    ],
)
def test_a_misspelt_scheme_is_an_error_naming_the_address_meant(written, meant):
    problems = []
    validate_config(document(f"title: T\nbase_url: {written}\n", "content/site.yaml"), problems)
    assert [str(p) for p in problems] == [
        "content/site.yaml:2: field 'base_url': expected the site's address, an http(s) URL such as https://user.github.io/repo/, "
        f"got '{written}'; write the full address, '{meant}'"
    ]


@pytest.mark.parametrize("base_url", ["https://ada.github.io/s1/", "https://ada.github.io/", "https://example.org/"])
def test_a_custom_domain_with_another_base_url_is_a_warning(base_url):
    """With `cname`, GitHub Pages serves the site at that domain's root: base_url should say so."""
    problems = []
    validate_config(document(f"title: T\nbase_url: {base_url}\ncname: www.example.org\n", "content/site.yaml"), problems)
    assert [str(p) for p in problems] == [
        f"content/site.yaml:2: warning: field 'base_url': with cname 'www.example.org', GitHub Pages serves the site at "
        f'https://www.example.org/, not at {base_url}: set base_url: "https://www.example.org/"'
    ]
    problems = []
    validate_config(document("title: T\nbase_url: https://WWW.example.org\ncname: www.example.org.\n", "content/site.yaml"), problems)
    assert problems == []


def test_site_defaults():
    problems = []
    config = validate_config(document("title: T\n", "content/site.yaml"), problems)
    assert problems == [] and (config.base_url, config.theme, config.cname) == ("/", "default", None)


@pytest.mark.parametrize(
    "text, message",
    [
        ("base_url: https://e.org/\n", "content/site.yaml:1: missing required field 'title'"),
        (
            "title: T\nbase_url: example.org\n",
            "content/site.yaml:2: field 'base_url': expected the site's address, an http(s) URL such as "
            "https://user.github.io/repo/, got 'example.org'; write the full address, 'https://example.org/'",
        ),
        (
            "title: T\nbase_url: javascript:alert(1)//\n",
            "content/site.yaml:2: field 'base_url': expected the site's address, an http(s) URL such as "
            "https://user.github.io/repo/, got 'javascript:alert(1)//'",
        ),
        (
            "title: T\nbase_url: //evil.example/\n",
            "content/site.yaml:2: field 'base_url': expected the site's address, an http(s) URL such as https://user.github.io/repo/, got '//evil.example/'",
        ),
        (
            "title: T\nbase_url: 'https://e.org/\"><script>'\n",
            "content/site.yaml:2: field 'base_url': expected the site's address, an http(s) URL such as "
            "https://user.github.io/repo/, got 'https://e.org/\"><script>'",
        ),
        (
            "title: T\nbase_url: 'https://e.org:80x/'\n",
            "content/site.yaml:2: field 'base_url': expected the site's address, an http(s) URL such as https://user.github.io/repo/, got 'https://e.org:80x/'",
        ),
        (
            "title: T\nbase_url: 'https:///repo/'\n",
            "content/site.yaml:2: field 'base_url': expected the site's address, an http(s) URL such as https://user.github.io/repo/, got 'https:///repo/'",
        ),
        ("title: T\nthme: dark\n", "content/site.yaml:2: warning: field 'thme': unknown setting; did you mean 'theme'?"),
        ("title: T\ncolour: red\n", "content/site.yaml:2: warning: field 'colour': unknown setting, passed to templates as it is (extra.colour)"),
        ("title: T\nurl: https://e.org/\n", "content/site.yaml:2: warning: field 'url': unknown setting; did you mean 'base_url'?"),
        (
            "title: T\ncname: '<script>alert(1)</script>'\n",
            "content/site.yaml:2: field 'cname': expected a host name such as www.example.org (no https://, no path), got '<script>alert(1)</script>'",
        ),
        (  # text the URL parser refuses (found by tests/e2e/test_hostile_inputs.py): a line, not a traceback
            "title: T\ncname: '['\n",
            "content/site.yaml:2: field 'cname': expected a host name such as www.example.org (no https://, no path), got '['",
        ),
        (
            "title: T\ncname: '[md](javascript:alert(1))'\n",
            "content/site.yaml:2: field 'cname': expected a host name such as www.example.org (no https://, no path), got '[md](javascript:alert(1))'",
        ),
        (
            "title: T\ncname: https://www.e.org/\n",
            "content/site.yaml:2: field 'cname': expected a host name such as www.example.org (no https://, no path), got 'https://www.e.org/'; write cname: www.e.org",
        ),
        (
            "title: T\ncname: www.e.org/blog\n",
            "content/site.yaml:2: field 'cname': expected a host name such as www.example.org (no https://, no path), got 'www.e.org/blog'; write cname: www.e.org",
        ),
        (
            "title: T\ncname: HTTP://WWW.E.ORG:8080\n",
            "content/site.yaml:2: field 'cname': expected a host name such as www.example.org (no https://, no path), got 'HTTP://WWW.E.ORG:8080'; write cname: www.e.org",
        ),
        (
            "title: T\nbase_url: https://jdoe.github.io/\ncname: jdoe.github.io\n",
            "content/site.yaml:3: warning: field 'cname': 'jdoe.github.io' is GitHub's own address for the site, not a custom domain: "
            "leave cname out, and write the site's address in base_url alone",
        ),
        (
            "title: T\ncname: -bad-.org\n",
            "content/site.yaml:2: field 'cname': expected a host name such as www.example.org (no https://, no path), got '-bad-.org'",
        ),
        (
            "title: T\nlanguage: english\n",
            "content/site.yaml:2: field 'language': expected a language tag (BCP 47) such as en, de-CH or zh-Hans, got 'english' (the tag of english is en)",
        ),
        (
            "title: T\nlanguage: en_US\n",
            "content/site.yaml:2: field 'language': expected a language tag (BCP 47) such as en, de-CH or zh-Hans, got 'en_US' (tags use '-': en-US)",
        ),
        (
            "title: T\nlanguage: 'en\" onload=\"x'\n",
            "content/site.yaml:2: field 'language': expected a language tag (BCP 47) such as en, de-CH or zh-Hans, got 'en\" onload=\"x'",
        ),
        ("title: T\nrecords_per_page: 0\n", "content/site.yaml:2: field 'records_per_page': expected a positive number, got 0"),
        ("- title: T\n", "content/site.yaml:1: expected a mapping of settings (title: ..., base_url: ...)"),
    ],
)
def test_site_messages(text, message):
    problems = []
    validate_config(document(text, "content/site.yaml"), problems)
    assert [str(p) for p in problems] == [message]


def test_profile_fields():
    problems = []
    profile = validate_profile(
        document(
            "name: Lena Müller\nname_variants: ['L. M{\\\"u}ller']\naffiliation: U\nbio: |\n  *Hi*\nemail: l@e.org\n"
            "links:\n  orcid: 0000-0002-1825-0097\n  evil: javascript:alert(1)\n"
            "arxiv:\n  authors: [Lena Müller]\n  exclude_categories: [hep-ph]\n",
            "content/profile.yaml",
        ),
        problems,
    )
    assert [str(p) for p in problems] == ["content/profile.yaml:9: warning: field 'links.evil': unsafe URL scheme 'javascript:', the link is left out"]
    assert profile.name == "Lena Müller" and profile.name_variants == ('L. M{\\"u}ller',)
    assert profile.links == {"orcid": "0000-0002-1825-0097"}
    assert profile.arxiv.authors == ("Lena Müller",) and profile.arxiv.exclude_categories == ("hep-ph",)
    assert profile.bio.strip() == "*Hi*"


@pytest.mark.parametrize(
    "text, message",
    [
        ("affiliation: U\n", "content/profile.yaml:1: missing required field 'name'"),
        ("name: A\nname_variants: {a: 1}\n", "content/profile.yaml:2: field 'name_variants': expected a list of strings, got a mapping"),
        ("name: A\narxiv:\n  authors: 3\n", "content/profile.yaml:3: field 'arxiv.authors': expected a list of strings, got int 3"),
        ("name: A\narxiv: [x]\n", "content/profile.yaml:2: field 'arxiv': expected a mapping, got a list"),
        ("name: A\nafiliation: U\n", "content/profile.yaml:2: warning: field 'afiliation': unknown setting; did you mean 'affiliation'?"),
        ("name: A\ninstitution: U\n", "content/profile.yaml:2: warning: field 'institution': unknown setting; did you mean 'affiliation'?"),
        ("name: A\nhobby: chess\n", "content/profile.yaml:2: warning: field 'hobby': unknown setting, passed to templates as it is (extra.hobby)"),
        ("name: A\narxiv:\n  author: [A]\n", "content/profile.yaml:3: warning: field 'arxiv.author': unknown setting; did you mean 'authors'?"),
        ("name: 5\n", "content/profile.yaml:1: field 'name': expected a string, got the number 5; quote it so no digit is lost: name: \"...\""),
        (
            "name: A\nposition: 1\n",
            "content/profile.yaml:2: field 'position': expected a string, got the number 1; quote it so no digit is lost: position: \"...\"",
        ),
        (
            "name: A\narxiv:\n  authors: [A]\n  categories:\n    - cs.DC\n    - cs.lg\n",
            "content/profile.yaml:6: warning: field 'arxiv.categories': item 2: 'cs.lg' is not an arXiv category (did you mean cs.LG?): "
            "no record from arXiv would match it (arXiv's own list: https://arxiv.org/category_taxonomy)",
        ),
        (
            "name: A\narxiv:\n  authors: [A]\n  exclude_categories: Robotics\n",
            "content/profile.yaml:4: warning: field 'arxiv.exclude_categories': 'Robotics' is not an arXiv category: "
            "no record from arXiv would match it (arXiv's own list: https://arxiv.org/category_taxonomy)",
        ),
        (
            "name: A\narxiv:\n  ids: [2401.01230]\n",
            "content/profile.yaml:3: field 'arxiv.ids': item 1: expected a string, got the number 2401.0123; quote it so no digit is lost: \"...\"",
        ),
    ],
)
def test_profile_messages(text, message):
    problems = []
    validate_profile(document(text, "content/profile.yaml"), problems)
    assert [str(p) for p in problems] == [message]


# -- a whole site --------------------------------------------------------------


def validate_site_from(root, records: dict[str, str]):
    """Validate a site made of MINIMAL_SITE and the given record files."""
    return validate_site(load_site(*read_inputs(write_site(root, {**MINIMAL_SITE, **records}))))


def test_a_records_aliases_are_its_other_citation_keys():
    """`aliases` (what records.json lists and publications.bib writes as biblatex's `ids`) is a field of a record
    as written, so a record keeps the keys a site built from a .bib file gave it."""
    rec, problems = record("id: new\ntitle: T\nyear: 2024\naliases: [old, New, 'old key', OLD]\n")
    assert rec.aliases == ("old",)
    assert problems == ["content/records/x.yaml:4: warning: field 'aliases': 'old key' is no citation key (no space, comma, brace, quote or %); left out"]


def test_duplicate_ids_name_both_files(tmp_path):
    valid = validate_site_from(
        tmp_path,
        {
            "content/records/a.yaml": "id: same\ntitle: A\nyear: 2020\n",
            "content/records/b.yaml": "\nid: same\ntitle: B\nyear: 2021\n",
        },
    )
    assert [str(p) for p in valid.problems] == ["content/records/b.yaml:2: duplicate id 'same': also used at content/records/a.yaml:1"]


def test_duplicate_ids_inside_one_list_file(tmp_path):
    valid = validate_site_from(tmp_path, {"content/records/list.yaml": "- id: same\n  title: A\n  year: 2020\n- id: same\n  title: B\n  year: 2020\n"})
    assert [str(p) for p in valid.problems] == ["content/records/list.yaml:4: duplicate id 'same': also used at content/records/list.yaml:1"]


def test_a_fetched_and_a_hand_written_record_may_share_an_id(tmp_path):
    valid = validate_site_from(
        tmp_path,
        {
            "content/records/mine.yaml": "id: '2401.00001'\ntitle: Mine\nyear: 2024\n",
            "content/records/arxiv/2401.00001.yaml": "id: '2401.00001'\ntitle: Fetched\nyear: 2024\n",
        },
    )
    assert valid.problems == [] and len(valid.records) == 2


def test_a_correction_of_a_fetched_record_may_leave_out_title_and_year(tmp_path):
    """`featured: true` for a paper fetched from arXiv: the id is enough, the rest comes from arXiv."""
    valid = validate_site_from(
        tmp_path,
        {
            "content/records/arxiv/2401.00001.yaml": "id: '2401.00001'\ntitle: Fetched\nyear: 2024\narxiv: '2401.00001'\ndoi: 10.1234/x\n",
            "content/records/by-id.yaml": "id: '2401.00001'\nfeatured: true\n",
            "content/records/by-arxiv.yaml": "id: mine\narxiv: 2401.00001v3\nsource: EuroSys\n",
            "content/records/by-doi.yaml": "id: mine2\ndoi: 'https://doi.org/10.1234/X'\ntitle: My title\n",
        },
    )
    assert valid.problems == []
    assert {(r.id, r.missing) for r in valid.records if not r.fetched} == {
        ("2401.00001", ("title", "year")),
        ("mine", ("title", "year")),
        ("mine2", ("year",)),
    }


@pytest.mark.parametrize(
    "text, line, missing",
    [
        ("id: a\nyear: 2020\n", 1, ["title"]),
        ("id: a\ntitle: T\n", 1, ["year"]),
        ("# mine\n\nid: a\n", 3, ["title", "year"]),
    ],
)
def test_a_record_that_corrects_nothing_needs_title_and_year(tmp_path, text, line, missing):
    valid = validate_site_from(
        tmp_path,
        {
            "content/records/arxiv/2401.00001.yaml": "id: '2401.00001'\ntitle: Fetched\nyear: 2024\n",
            PATH: text,
        },
    )
    assert [str(p) for p in valid.problems] == [
        f"{PATH}:{line}: missing required field '{name}' (only a record that corrects a fetched one, with the same id, arxiv or doi, may leave it out)"
        for name in missing
    ]
    assert [r.id for r in valid.records] == ["2401.00001"]


def test_a_fetched_record_needs_title_and_year():
    _, problems = record("id: '2401.00001'\n", "content/records/arxiv/2401.00001.yaml")
    assert problems == [
        "content/records/arxiv/2401.00001.yaml:1: missing required field 'title'",
        "content/records/arxiv/2401.00001.yaml:1: missing required field 'year'",
    ]


def test_problems_of_every_file_are_reported_together(tmp_path):
    valid = validate_site_from(
        tmp_path,
        {
            "content/records/a.yaml": "id: a\ntitle: A\nyear: twenty\n",
            "content/records/b.yaml": "id: b\nyear: 2020\n",
            "content/records/c.yaml": "id: c\ntitle: [broken\n",
            "content/records/ok.yaml": "id: ok\ntitle: OK\nyear: 2020\n",
        },
    )
    messages = [str(p) for p in valid.errors]
    assert len(messages) == 3, messages
    assert messages[0] == "content/records/a.yaml:3: field 'year': expected an integer, got 'twenty'"
    assert messages[1].startswith("content/records/c.yaml:3:1: invalid YAML:")  # each file's problems, in file order
    # what only the whole site settles comes last
    assert (
        messages[2]
        == "content/records/b.yaml:1: missing required field 'title' (only a record that corrects a fetched one, with the same id, arxiv or doi, may leave it out)"
    )
    assert [r.id for r in valid.records] == ["ok"]


# -- unknown fields: a warning naming the known field meant ----------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("id: a\ntitle: T\nyear: 2020\nauthor: [Ada]\n", "content/records/x.yaml:4: warning: field 'author': unknown field; did you mean 'authors'?"),
        ("id: a\ntitle: T\nyear: 2020\nvenue: EuroSys\n", "content/records/x.yaml:4: warning: field 'venue': unknown field; did you mean 'source'?"),
        ("id: a\ntitle: T\nyear: 2020\njournal: JMLR\n", "content/records/x.yaml:4: warning: field 'journal': unknown field; did you mean 'source'?"),
        ("id: a\ntitle: T\nyear: 2020\nbooktitle: Proc.\n", "content/records/x.yaml:4: warning: field 'booktitle': unknown field; did you mean 'source'?"),
        ("id: a\ntitle: T\nyear: 2020\nurl: https://e.org\n", "content/records/x.yaml:4: warning: field 'url': unknown field; did you mean 'links'?"),
        ("id: a\ntitle: T\nyear: 2020\npublication: J\n", "content/records/x.yaml:4: warning: field 'publication': unknown field; did you mean 'source'?"),
        ("id: a\ntitle: T\nyear: 2020\nurl_pdf: x.pdf\n", "content/records/x.yaml:4: warning: field 'url_pdf': unknown field; did you mean 'links'?"),
        ("id: a\ntitle: T\nyear: 2020\npaperurl: x.pdf\n", "content/records/x.yaml:4: warning: field 'paperurl': unknown field; did you mean 'links'?"),
        ("id: a\ntitle: T\nyear: 2020\nabstarct: x\n", "content/records/x.yaml:4: warning: field 'abstarct': unknown field; did you mean 'abstract'?"),
        ("id: a\ntitle: T\nyear: 2020\nTitle: T\n", "content/records/x.yaml:4: warning: field 'Title': unknown field; did you mean 'title'?"),
        (
            "id: a\ntitle: T\nyear: 2020\nreviewer: Alan\n",
            "content/records/x.yaml:4: warning: field 'reviewer': unknown field, passed to templates as it is (extra.reviewer)",
        ),
    ],
)
def test_an_unknown_field_is_a_warning_naming_the_field_meant(text, message):
    rec, problems = record(text)
    assert problems == [message]
    assert rec is not None and len(rec.extra) == 1  # kept, and passed to templates (SPEC §2)


def test_fields_sitegen_itself_writes_are_known():
    _, problems = record("id: a\ntitle: T\nyear: 2020\nbibtex_type: article\nvolume: 3\npages: 1--9\ncomment: 9 pages\njournal_ref: J. 1\n")
    assert problems == []


def test_fetched_and_bibtex_records_are_not_warned_about_their_fields():
    problems = []
    validate_record(
        _positioned({"id": "a", "title": "T", "year": 2020, "journal": "J", "keywords": "x"}), "content/records/refs.bib", problems, reader="bibtex"
    )
    _, fetched = record("id: '2401.00001'\ntitle: T\nyear: 2024\nauthor_comment: x\n", path="content/records/arxiv/2401.00001.yaml")
    assert problems == [] and fetched == []


def _positioned(data: dict):
    mapping = PositionedDict(data)
    mapping.line, mapping.key_lines = 1, dict.fromkeys(data, 1)
    return mapping


def test_a_missing_field_names_the_unknown_field_that_is_likely_it(tmp_path):
    valid = validate_site_from(tmp_path, {PATH: "id: a\ntitle: T\nauthors: [Ada]\nyaer: 2020\n"})
    assert [str(p) for p in valid.problems] == [
        "content/records/x.yaml:4: warning: field 'yaer': unknown field; did you mean 'year'?",
        "content/records/x.yaml:1: missing required field 'year' (line 4 has 'yaer': a typo?)",
    ]


def test_a_fetched_record_missing_a_field_names_its_likely_typo():
    _, problems = record("id: '2401.00001'\ntitel: T\nyear: 2024\n", "content/records/arxiv/2401.00001.yaml")
    assert problems == ["content/records/arxiv/2401.00001.yaml:1: missing required field 'title' (line 2 has 'titel': a typo?)"]


# -- portable output: folders that Linux, macOS and Windows can all hold ----------------


def test_ids_that_differ_only_in_case_name_both_records(tmp_path):
    valid = validate_site_from(
        tmp_path,
        {
            "content/records/a.yaml": "id: muller2019sparse\ntitle: A\nyear: 2019\n",
            "content/records/b.yaml": "\nid: MULLER2019SPARSE\ntitle: B\nyear: 2019\n",
        },
    )
    assert [str(p) for p in valid.problems] == [
        "content/records/b.yaml:2: field 'id': 'MULLER2019SPARSE' and 'muller2019sparse' (content/records/a.yaml:1) differ only in case: "
        "macOS and Windows take records/MULLER2019SPARSE/ and records/muller2019sparse/ for one folder; change one id",
    ]


def test_ids_whose_slugs_differ_only_in_case_collide(tmp_path):
    valid = validate_site_from(
        tmp_path, {"content/records/list.yaml": "- id: hep-ph/0601001\n  title: A\n  year: 2006\n- id: HEP-PH-0601001\n  title: B\n  year: 2006\n"}
    )
    assert [str(p) for p in valid.problems] == [
        "content/records/list.yaml:4: field 'id': 'HEP-PH-0601001' and 'hep-ph/0601001' (content/records/list.yaml:1) differ only in case: "
        "macOS and Windows take records/HEP-PH-0601001/ and records/hep-ph-0601001/ for one folder; change one id",
    ]


def test_a_correction_and_a_hidden_record_make_no_second_folder(tmp_path):
    valid = validate_site_from(
        tmp_path,
        {
            "content/records/arxiv/2401.00001.yaml": "id: '2401.00001'\ntitle: Fetched\nyear: 2024\narxiv: '2401.00001'\n",
            "content/records/same-id.yaml": "id: '2401.00001'\nfeatured: true\n",
            "content/records/by-arxiv.yaml": "id: Mine2024\narxiv: '2401.00001'\n",
            "content/records/mine.yaml": "id: mine2024\ntitle: Mine\nyear: 2024\nhidden: true\n",
        },
    )
    assert valid.problems == []


def test_categories_that_differ_only_in_case_are_reported_once_naming_both(tmp_path):
    valid = validate_site_from(
        tmp_path,
        {
            "content/records/a.yaml": "id: a\ntitle: A\nyear: 2019\ncategories: [cs.LG]\n",
            "content/records/b.yaml": "- id: b\n  title: B\n  year: 2019\n  categories: [cs.lg]\n- id: c\n  title: C\n  year: 2019\n  categories: [cs.DC, cs.lg]\n",
        },
    )
    assert [str(p) for p in valid.problems] == [
        "content/records/b.yaml:4: field 'categories': 'cs.lg' and 'cs.LG' (content/records/a.yaml:4) differ only in case: "
        "macOS and Windows take subjects/cs.lg/ and subjects/cs.LG/ for one folder; use one spelling",
    ]


def test_empty_record_file_is_a_warning(tmp_path):
    valid = validate_site_from(tmp_path, {"content/records/empty.yaml": "# nothing yet\n"})
    assert [str(p) for p in valid.problems] == ["content/records/empty.yaml:1: warning: empty file: expected a record or a list of records"]
    assert valid.errors == []


# -- fuzzing: any data is a record or problems, never an exception ----------------

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.dates(),
    st.datetimes(),
    st.sampled_from(["javascript:alert(1)", "https://e.org", "2024-02-30", "", "  ", "..", "."]),
)
_values = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=12)
_records = st.dictionaries(st.one_of(st.sampled_from(sorted(RECORD_FIELDS)), st.text(max_size=8), st.integers()), _values, max_size=12)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_records, _values))
def test_any_data_is_a_record_or_problems(data):
    problems = []
    rec = validate_record(data, PATH, problems)
    errors = [p for p in problems if not p.warning]
    assert (rec is None) == bool(errors)
    for problem in problems:
        assert str(problem).startswith(PATH)
    if rec is not None:
        # a record may leave out title and year (and its id, naming an arxiv id or doi) to correct a fetched one;
        # with nothing to correct, that is an error
        assert "id" in rec.missing or rec.id.strip()
        assert "title" in rec.missing or rec.title.strip()
        assert "year" in rec.missing or 1000 <= rec.year <= 9999
        site_problems: list = []
        assert check_corrections([rec], site_problems) == ([] if rec.missing else [rec])
        assert bool(site_problems) == bool(rec.missing)
        assert all(not url.lower().lstrip().startswith(("javascript:", "data:", "vbscript:")) for url in rec.links.values())


def test_a_link_written_as_a_windows_path_says_use_slashes():
    """`static\\paper.pdf` is meant with '/' (and a browser would read it so): a warning, and the link as meant;
    `D:\\code\\x` is a file on the writer's computer: a warning, and no link."""
    result, messages = record("id: a\ntitle: T\nyear: 2020\nlinks:\n  pdf: 'static\\paper.pdf'\n  code: 'D:\\code\\x'\n")
    assert result is not None and result.links == {"pdf": "static/paper.pdf"}
    assert messages == [
        "content/records/x.yaml:5: warning: field 'links.pdf': use / in paths; this looks like a Windows path: write 'static/paper.pdf'",
        "content/records/x.yaml:6: warning: field 'links.code': 'D:\\code\\x' is a file on your computer (this looks like a Windows path), "
        "which no visitor can reach: put the file in static/ and write static/NAME (use / in paths); the link is left out",
    ]


def test_a_talks_link_problem_names_the_links_own_line(tmp_path):
    from sitegen.pages import ContentFiles
    from sitegen.pages.talks import load_talks

    text = "title: T\ndate: 2024-05-01\nlinks:\n  video: https://v.example/\n  slides: 'static\\t.pdf'\n  code: 'C:\\x'\n"
    talks, _, problems = load_talks(ContentFiles({"content/talks/t.yaml": text}, []))
    assert [str(p) for p in problems] == [
        "content/talks/t.yaml:5: warning: field 'links.slides': use / in paths; this looks like a Windows path: write 'static/t.pdf'",
        "content/talks/t.yaml:6: field 'links.code': 'C:\\x' is a file on your computer (this looks like a Windows path), "
        "which no visitor can reach: put the file in static/ and write static/NAME (use / in paths)",
    ]
    assert talks == ()  # a talk with an error is left out, as before


def test_a_hand_written_record_whose_venue_says_no_kind_of_work_is_a_warning_saying_to_write_its_type():
    """SPEC §7: the type is inferred when absent; when nothing in the venue says what it is, the record would be
    'Other' and BibTeX @misc without a word (QA: 14 of 28 CS records). Known acronyms say it; others are a warning."""
    _, problems = record("id: x\ntitle: T\nyear: 2023\nsource: Vision Days 2023\n")
    assert problems == [
        "content/records/x.yaml:4: warning: field 'source': 'Vision Days 2023' does not say what kind of work this is (no word such "
        "as Journal, Proceedings or Thesis, and no well-known venue's acronym), so it is listed as Other and exported as BibTeX "
        "@misc; say it with `type:` (inproceedings: a conference paper, article: a journal article, or one of preprint, thesis, "
        "book, chapter, report, patent, software, dataset, other)"
    ]
    fines = ("source: CVPR\n", "source: Vision Days 2023\ntype: inproceedings\n", "source: Vision Days\nbibtex_type: inproceedings\n", "")
    # the venue's words in another language say it too
    foreign = ("source: Zeitschrift für Physik\n", "source: Actes de la conférence TALN\n", "source: 情報処理学会論文誌\n", "source: 计算机学报\n")
    for fine in fines + foreign:
        _, problems = record(f"id: x\ntitle: T\nyear: 2023\n{fine}")
        assert problems == [], fine
    # a correction of a fetched record (no title or year of its own) that fixes only the venue's name: the work's kind
    # is worked out from the two merged (Google Scholar user's correction of `source: JDLS`), so its venue alone is no warning
    _, problems = record("id: x\nsource: JDLS\n")
    assert problems == []


# -- identifiers that become addresses ------------------------------------------


@pytest.mark.parametrize(
    "written, kept",
    [
        ("2301.00001", "2301.00001"),
        ("2301.00001v2", "2301.00001v2"),
        ("0704.0001", "0704.0001"),
        ("hep-th/9901001", "hep-th/9901001"),
        ("hep-th/9901001v1", "hep-th/9901001v1"),
        ("math.GT/0309136", "math.GT/0309136"),
        ("arXiv:2301.00001", "2301.00001"),
        ("https://arxiv.org/abs/2301.00001v3", "2301.00001v3"),
    ],
)
def test_an_arxiv_id_of_either_form_is_kept(written, kept):
    result, messages = record(f"id: a\ntitle: T\nyear: 2024\narxiv: '{written}'\n")
    assert messages == [] and result.arxiv == kept


@pytest.mark.parametrize(
    "written, shown",
    [
        ('2301.00001\\"> <b>x</b> {}', "'2301.00001\"> <b>x</b> {}'"),
        ("2301.1", "'2301.1'"),
        ("see the preprint", "'see the preprint'"),
        ("hep-th/99", "'hep-th/99'"),
    ],
)
def test_what_is_no_arxiv_id_is_left_out_with_a_warning_as_a_doi_is(written, shown):
    """It became the record's arXiv link and the URL of every citation format (BibTeX, RIS, CSL) as written."""
    result, messages = record(f'id: a\ntitle: T\nyear: 2024\narxiv: "{written}"\n')
    assert result is not None and result.arxiv is None
    assert [m for m in messages if "arxiv" in m] == [
        f"{PATH}:4: warning: field 'arxiv': {shown} is not an arXiv id (like 2301.00001, 2301.00001v2 or hep-th/9901001); left out, with its link"
    ]


@pytest.mark.parametrize(
    "doi, url",
    [
        ("10.1000/x", "https://doi.org/10.1000/x"),
        ("https://doi.org/10.1000/a%20b", "https://doi.org/10.1000/a%20b"),  # copied from an address: its escapes kept
        ("10.5555/</script><script>alert(1)</script>", "https://doi.org/10.5555/%3C/script%3E%3Cscript%3Ealert(1)%3C/script%3E"),
        ("10.1002/(SICI)1097-4636(199706)35:4<469::AID-JBM7>3.0.CO;2-G", "https://doi.org/10.1002/(SICI)1097-4636(199706)35:4%3C469::AID-JBM7%3E3.0.CO;2-G"),
        ('10.1/a"b#c?d{e}|^`\\', "https://doi.org/10.1/a%22b%23c%3Fd%7Be%7D%7C%5E%60%5C"),
    ],
)
def test_a_doi_becomes_an_address_with_what_an_address_cannot_hold_percent_encoded(doi, url):
    from sitegen.record_types import doi_url

    assert doi_url(doi) == url


# -- the language a work is written in ---------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "tag"),
    [("de", "de"), ("pt-BR", "pt-BR"), ("German", "de"), ("ngerman", "de"), ("français", "fr"), ("brazilian", "pt-BR"), ("eng", "en"), ("ger", "de"), ("", "")],
)
def test_a_records_language_is_a_language_tag(written, tag):
    """`language` says what the title and abstract are written in, so that a screen reader reads them with the
    right voice: a language tag, or a language's name as BibTeX's langid (babel) and reference managers write it."""
    rec, problems = record(f"id: a\ntitle: Über die Konvergenz\nyear: 2020\nlanguage: '{written}'\n")
    assert (rec.language, problems) == (tag, [])


def test_a_language_that_is_no_tag_nor_a_known_name_is_left_out_with_a_warning():
    rec, problems = record("id: a\ntitle: T\nyear: 2020\nlanguage: Klingonish\n")
    assert rec.language == ""
    assert problems == [
        f"{PATH}:4: warning: field 'language': expected a language tag (BCP 47) such as de, fr or pt-BR, or a language's name such as German, got 'Klingonish'; left out"
    ]


@pytest.mark.parametrize("written, bare", [("2401.05555v2", "2401.05555"), ("hep-ph/0601001v3", "hep-ph/0601001")])
def test_a_record_id_with_an_arxiv_version_is_a_warning_naming_the_bare_id(written, bare):
    rec, problems = record(f"id: '{written}'\ntitle: T\nyear: 2024\n")
    assert problems == [
        f"content/records/x.yaml:1: warning: field 'id': '{written}' is an arXiv id with its version; write the bare id "
        f"'{bare}' (all versions are one work, with one page)"
    ]
    assert rec is not None and rec.id == written


def test_a_record_id_that_only_ends_like_a_version_is_no_arxiv_id():
    assert record("id: muller2020v2\ntitle: T\nyear: 2024\n")[1] == []


def test_site_math_macros_are_read_as_mathjax_writes_them():
    problems = []
    text = "title: T\nmath_macros:\n  R: '\\mathbb{R}'\n  '\\eps': '\\varepsilon'\n  norm: ['\\lVert #1\\rVert', 1]\n"
    config = validate_config(document(text, "content/site.yaml"), problems)
    assert problems == []
    assert config.math_macros == {"R": ("\\mathbb{R}", 0), "eps": ("\\varepsilon", 0), "norm": ("\\lVert #1\\rVert", 1)}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("  3x: 'y'", "content/site.yaml:3: field 'math_macros': '3x' is no name of a LaTeX command"),
        ("  R: [1, 2]", "content/site.yaml:3: field 'math_macros': R: expected the LaTeX it stands for, got a list"),
        ("  norm: ['\\lVert x\\rVert', 1]", "content/site.yaml:3: field 'math_macros': norm: 1 arguments, but the replacement does not use #1"),
        ("  R: '\\R'", "content/site.yaml:3: field 'math_macros': R: the replacement uses \\R itself"),
    ],
)
def test_a_wrong_math_macro_is_an_error_at_its_line_saying_what_to_write(line, message):
    problems = []
    config = validate_config(document(f"title: T\nmath_macros:\n{line}\n", "content/site.yaml"), problems)
    assert [str(p) for p in problems if not p.warning][0].startswith(message)
    assert "write" in str(problems[0])
    assert config.math_macros == {}
