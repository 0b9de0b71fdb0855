"""Stage 2, validate: every field type, and the exact text of every message.

Messages have one shape, `path:line: field 'name': what was expected, got what`,
so that editors and CI logs can jump to the place.
"""

from __future__ import annotations

import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import MINIMAL_SITE, write_site
from sitegen.build import read_inputs
from sitegen.load import load_site, parse_yaml
from sitegen.model import RawDocument
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
        "venue_rank: A*\n"
    )
    assert problems == []
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
    assert rec.extra == {"venue_rank": "A*"}  # unknown fields are kept for templates
    assert rec.location.path == PATH and rec.location.line == 1
    assert rec.lines["categories"] == 9


def test_control_characters_are_removed_with_a_warning_naming_line_and_field():
    result, messages = record('id: x\ntitle: "Bell \\x07 and escape \\x1b\\x07"\nyear: 2020\nauthors: ["Ada\\x00 Lovelace"]\nsource: "Proc.\\u0085"\n')
    assert (result.title, result.authors, result.source) == ("Bell  and escape", ("Ada Lovelace",), "Proc.")
    assert messages == [
        "content/records/x.yaml:2: warning: field 'title': control character U+0007, U+001B removed: a page cannot show it",
        "content/records/x.yaml:4: warning: field 'authors': control character U+0000 removed: a page cannot show it",
        "content/records/x.yaml:5: warning: field 'source': control character U+0085 removed: a page cannot show it",
    ]


def test_tabs_and_line_breaks_are_kept():
    result, messages = record('id: x\ntitle: T\nyear: 2020\nabstract: "one\\tcell\\r\\n\\nnext"\n')
    assert result.abstract == "one\tcell\r\n\nnext" and messages == []


def test_year_comes_from_date_when_missing():
    rec, problems = record("id: a\ntitle: T\ndate: 2023-05-06\n")
    assert problems == [] and rec.year == 2023


def test_year_may_be_a_quoted_number():
    rec, problems = record("id: a\ntitle: T\nyear: '2021'\n")
    assert problems == [] and rec.year == 2021


def test_single_author_string_is_a_list_of_one():
    rec, _ = record("id: a\ntitle: T\nyear: 2020\nauthors: Ada Lovelace\n")
    assert rec.authors == ("Ada Lovelace",)


def test_numeric_id_written_as_integer_is_text():
    rec, problems = record("id: 42\ntitle: T\nyear: 2020\n")
    assert problems == [] and rec.id == "42"


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


@pytest.mark.parametrize("text, message", [
    ("title: T\nyear: 2020\n", "content/records/x.yaml:1: missing required field 'id'"),
    ("id: a\ntitle:\nyear: 2020\n", "content/records/x.yaml:2: field 'title': is empty, but it is required"),
    ("id: a\ntitle: ''\nyear: 2020\n", "content/records/x.yaml:2: field 'title': is empty, but it is required"),
    ("id: '  '\ntitle: T\nyear: 2020\n", "content/records/x.yaml:1: field 'id': is empty, but it is required"),
    ("id: a\ntitle: [T]\nyear: 2020\n", "content/records/x.yaml:2: field 'title': expected a string, got a list"),
    ("id: a\ntitle: {t: 1}\nyear: 2020\n", "content/records/x.yaml:2: field 'title': expected a string, got a mapping"),
    ("id: a\ntitle: yes\nyear: 2020\n", "content/records/x.yaml:2: field 'title': expected a string, got bool True"),
    ("id: 2401.10010\ntitle: T\nyear: 2024\n",
     "content/records/x.yaml:1: field 'id': expected a string, got the number 2401.1001; quote it so no digit is lost: id: \"...\""),
    ("id: a\ntitle: T\nyear: true\n", "content/records/x.yaml:3: field 'year': expected an integer, got bool True"),
    ("id: a\ntitle: T\nyear: 2020.5\n", "content/records/x.yaml:3: field 'year': expected an integer, got float 2020.5"),
    ("id: a\ntitle: T\nyear: 20\n", "content/records/x.yaml:3: field 'year': expected a four-digit year, got 20"),
    ("id: a\ntitle: T\nyear: 2020\ndate: 2021-01-01\n",
     "content/records/x.yaml:3: field 'year': 2020 does not match the year of 'date' (2021-01-01)"),
    ("id: a\ntitle: T\ndate: 2024-02-30\n", "content/records/x.yaml:3: field 'date': expected a date YYYY-MM-DD, got '2024-02-30'"),
    ("id: a\ntitle: T\ndate: last spring\n", "content/records/x.yaml:3: field 'date': expected a date YYYY-MM-DD, got 'last spring'"),
    ("id: a\ntitle: T\nyear: 2020\nauthors: {a: b}\n", "content/records/x.yaml:4: field 'authors': expected a list of strings, got a mapping"),
    ("id: a\ntitle: T\nyear: 2020\nauthors:\n  - Ada\n  - [x]\n",
     "content/records/x.yaml:4: field 'authors': item 2: expected a string, got a list"),
    ("id: a\ntitle: T\nyear: 2020\ncategories: 7\n", "content/records/x.yaml:4: field 'categories': expected a list of strings, got int 7"),
    ("id: a\ntitle: T\nyear: 2020\nlinks: [https://e.org]\n", "content/records/x.yaml:4: field 'links': expected a mapping of name: URL, got a list"),
    ("id: a\ntitle: T\nyear: 2020\nlinks:\n  abs: https://e.org\n  pdf: 12\n", "content/records/x.yaml:6: field 'links.pdf': expected a URL, got int 12"),
    ("id: a\ntitle: T\nyear: 2020\nhidden: 'yes'\n", "content/records/x.yaml:4: field 'hidden': expected true or false, got 'yes'"),
    ("id: a\ntitle: T\nyear: 2020\nfeatured: 1\n", "content/records/x.yaml:4: field 'featured': expected true or false, got int 1"),
    ("id: a\ntitle: T\nyear: 2020\ndoi: 10.1000\n",
     "content/records/x.yaml:4: field 'doi': expected a string, got the number 10.1; quote it so no digit is lost: doi: \"...\""),
    ("id: '..'\ntitle: T\nyear: 2020\n", "content/records/x.yaml:1: field 'id': '..' cannot name a page; use a letter or digit"),
    ("id: a\ntitle: T\nyear: 2020\ncategories: [cs.DC, '.']\n",
     "content/records/x.yaml:4: field 'categories': '.' cannot name a page; use a letter or digit"),
])
def test_wrong_field_messages(text, message):
    rec, problems = record(text)
    assert problems == [message]
    assert rec is None


def test_a_list_file_item_that_is_not_a_mapping(tmp_path):
    valid = validate_site_from(tmp_path, {PATH: "- id: a\n  title: T\n  year: 2020\n- just text\n"})
    assert [str(p) for p in valid.problems] == ["content/records/x.yaml: expected a record (a mapping with id, title, ...), got 'just text'"]
    assert [r.id for r in valid.records] == ["a"]


def test_every_problem_of_a_record_is_reported_together():
    _, problems = record("id: a\ntitle: [T]\nyear: twenty\nhidden: maybe\nfeatured: 2\n")
    assert problems == [
        "content/records/x.yaml:2: field 'title': expected a string, got a list",
        "content/records/x.yaml:3: field 'year': expected an integer, got 'twenty'",
        "content/records/x.yaml:4: field 'hidden': expected true or false, got 'maybe'",
        "content/records/x.yaml:5: field 'featured': expected true or false, got int 2",
    ]


# -- links: only safe schemes --------------------------------------------------

@pytest.mark.parametrize("url", ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
                                 "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)"])
def test_unsafe_link_is_dropped_with_a_warning(url):
    data = {"id": "a", "title": "T", "year": 2020, "links": {"abs": "https://e.org/a", "evil": url}}
    problems = []
    rec = validate_record(data, PATH, problems)
    assert rec is not None and rec.links == {"abs": "https://e.org/a"}
    assert len(problems) == 1 and problems[0].warning
    assert "field 'links.evil': unsafe URL scheme" in str(problems[0])
    assert "the link is left out" in str(problems[0])


def test_safe_links_are_kept():
    rec, problems = record("id: a\ntitle: T\nyear: 2020\nlinks:\n  a: https://e.org\n  b: http://e.org\n  c: mailto:x@e.org\n  d: papers/a.pdf\n  e:\n")
    assert problems == []
    assert rec.links == {"a": "https://e.org", "b": "http://e.org", "c": "mailto:x@e.org", "d": "papers/a.pdf"}


# -- site.yaml and profile.yaml ---------------------------------------------------

def test_site_settings():
    problems = []
    config = validate_config(document("title: T\nbase_url: https://u.github.io/repo\ntheme: dark\ncname: www.e.org\nanalytics: x\n", "content/site.yaml"), problems)
    assert problems == []
    assert (config.title, config.base_url, config.theme, config.language, config.cname) == ("T", "https://u.github.io/repo", "dark", "en", "www.e.org")
    assert config.extra == {"analytics": "x"}


def test_site_defaults():
    problems = []
    config = validate_config(document("title: T\n", "content/site.yaml"), problems)
    assert problems == [] and (config.base_url, config.theme, config.cname) == ("/", "default", None)


@pytest.mark.parametrize("text, message", [
    ("base_url: https://e.org/\n", "content/site.yaml:1: missing required field 'title'"),
    ("title: T\nbase_url: example.org\n", "content/site.yaml:2: field 'base_url': expected an absolute URL like https://user.github.io/repo/, got 'example.org'"),
    ("title: T\nthme: dark\n", "content/site.yaml:2: warning: field 'thme': unknown setting; did you mean 'theme'?"),
    ("- title: T\n", "content/site.yaml:1: expected a mapping of settings (title: ..., base_url: ...)"),
])
def test_site_messages(text, message):
    problems = []
    validate_config(document(text, "content/site.yaml"), problems)
    assert [str(p) for p in problems] == [message]


def test_profile_fields():
    problems = []
    profile = validate_profile(document(
        "name: Lena Müller\nname_variants: ['L. M{\\\"u}ller']\naffiliation: U\nbio: |\n  *Hi*\nemail: l@e.org\n"
        "links:\n  orcid: 0000-0002-1825-0097\n  evil: javascript:alert(1)\n"
        "arxiv:\n  authors: [Lena Müller]\n  exclude_categories: [hep-ph]\n", "content/profile.yaml"), problems)
    assert [str(p) for p in problems] == ["content/profile.yaml:9: warning: field 'links.evil': unsafe URL scheme 'javascript:', the link is left out"]
    assert profile.name == "Lena Müller" and profile.name_variants == ('L. M{\\"u}ller',)
    assert profile.links == {"orcid": "0000-0002-1825-0097"}
    assert profile.arxiv.authors == ("Lena Müller",) and profile.arxiv.exclude_categories == ("hep-ph",)
    assert profile.bio.strip() == "*Hi*"


@pytest.mark.parametrize("text, message", [
    ("affiliation: U\n", "content/profile.yaml:1: missing required field 'name'"),
    ("name: A\nname_variants: {a: 1}\n", "content/profile.yaml:2: field 'name_variants': expected a list of strings, got a mapping"),
    ("name: A\narxiv:\n  authors: 3\n", "content/profile.yaml:3: field 'arxiv.authors': expected a list of strings, got int 3"),
    ("name: A\narxiv: [x]\n", "content/profile.yaml:2: field 'arxiv': expected a mapping, got a list"),
    ("name: A\nafiliation: U\n", "content/profile.yaml:2: warning: field 'afiliation': unknown setting; did you mean 'affiliation'?"),
])
def test_profile_messages(text, message):
    problems = []
    validate_profile(document(text, "content/profile.yaml"), problems)
    assert [str(p) for p in problems] == [message]


# -- a whole site --------------------------------------------------------------

def validate_site_from(root, records: dict[str, str]):
    """Validate a site made of MINIMAL_SITE and the given record files."""
    return validate_site(load_site(*read_inputs(write_site(root, {**MINIMAL_SITE, **records}))))


def test_duplicate_ids_name_both_files(tmp_path):
    valid = validate_site_from(tmp_path, {
        "content/records/a.yaml": "id: same\ntitle: A\nyear: 2020\n",
        "content/records/b.yaml": "\nid: same\ntitle: B\nyear: 2021\n",
    })
    assert [str(p) for p in valid.problems] == ["content/records/b.yaml:2: duplicate id 'same': also used at content/records/a.yaml:1"]


def test_duplicate_ids_inside_one_list_file(tmp_path):
    valid = validate_site_from(tmp_path, {"content/records/list.yaml": "- id: same\n  title: A\n  year: 2020\n- id: same\n  title: B\n  year: 2020\n"})
    assert [str(p) for p in valid.problems] == ["content/records/list.yaml:4: duplicate id 'same': also used at content/records/list.yaml:1"]


def test_a_fetched_and_a_hand_written_record_may_share_an_id(tmp_path):
    valid = validate_site_from(tmp_path, {
        "content/records/mine.yaml": "id: '2401.00001'\ntitle: Mine\nyear: 2024\n",
        "content/records/arxiv/2401.00001.yaml": "id: '2401.00001'\ntitle: Fetched\nyear: 2024\n",
    })
    assert valid.problems == [] and len(valid.records) == 2


def test_a_correction_of_a_fetched_record_may_leave_out_title_and_year(tmp_path):
    """`featured: true` for a paper fetched from arXiv: the id is enough, the rest comes from arXiv."""
    valid = validate_site_from(tmp_path, {
        "content/records/arxiv/2401.00001.yaml": "id: '2401.00001'\ntitle: Fetched\nyear: 2024\narxiv: '2401.00001'\ndoi: 10.1/x\n",
        "content/records/by-id.yaml": "id: '2401.00001'\nfeatured: true\n",
        "content/records/by-arxiv.yaml": "id: mine\narxiv: 2401.00001v3\nsource: EuroSys\n",
        "content/records/by-doi.yaml": "id: mine2\ndoi: 'https://doi.org/10.1/X'\ntitle: My title\n",
    })
    assert valid.problems == []
    assert {(r.id, r.missing) for r in valid.records if not r.fetched} == {
        ("2401.00001", ("title", "year")), ("mine", ("title", "year")), ("mine2", ("year",)),
    }


@pytest.mark.parametrize("text, line, missing", [
    ("id: a\nyear: 2020\n", 1, ["title"]), ("id: a\ntitle: T\n", 1, ["year"]), ("# mine\n\nid: a\n", 3, ["title", "year"]),
])
def test_a_record_that_corrects_nothing_needs_title_and_year(tmp_path, text, line, missing):
    valid = validate_site_from(tmp_path, {
        "content/records/arxiv/2401.00001.yaml": "id: '2401.00001'\ntitle: Fetched\nyear: 2024\n",
        PATH: text,
    })
    assert [str(p) for p in valid.problems] == [
        f"{PATH}:{line}: missing required field '{name}' (only a record that corrects a fetched one, "
        "with the same id, arxiv or doi, may leave it out)" for name in missing
    ]
    assert [r.id for r in valid.records] == ["2401.00001"]


def test_a_fetched_record_needs_title_and_year():
    _, problems = record("id: '2401.00001'\n", "content/records/arxiv/2401.00001.yaml")
    assert problems == [
        "content/records/arxiv/2401.00001.yaml:1: missing required field 'title'",
        "content/records/arxiv/2401.00001.yaml:1: missing required field 'year'",
    ]


def test_problems_of_every_file_are_reported_together(tmp_path):
    valid = validate_site_from(tmp_path, {
        "content/records/a.yaml": "id: a\ntitle: A\nyear: twenty\n",
        "content/records/b.yaml": "id: b\nyear: 2020\n",
        "content/records/c.yaml": "id: c\ntitle: [broken\n",
        "content/records/ok.yaml": "id: ok\ntitle: OK\nyear: 2020\n",
    })
    messages = [str(p) for p in valid.errors]
    assert len(messages) == 3, messages
    assert messages[0].startswith("content/records/c.yaml:3:")  # load problems come first
    assert messages[1:] == [
        "content/records/a.yaml:3: field 'year': expected an integer, got 'twenty'",
        "content/records/b.yaml:1: missing required field 'title' (only a record that corrects a fetched one, with the same id, arxiv or doi, may leave it out)",
    ]
    assert [r.id for r in valid.records] == ["ok"]


def test_empty_record_file_is_a_warning(tmp_path):
    valid = validate_site_from(tmp_path, {"content/records/empty.yaml": "# nothing yet\n"})
    assert [str(p) for p in valid.problems] == ["content/records/empty.yaml:1: warning: empty file: expected a record or a list of records"]
    assert valid.errors == []


# -- fuzzing: any data is a record or problems, never an exception ----------------

_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=20),
    st.dates(), st.datetimes(), st.sampled_from(["javascript:alert(1)", "https://e.org", "2024-02-30", "", "  ", "..", "."]),
)
_values = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=12)
_records = st.dictionaries(st.one_of(st.sampled_from(sorted(RECORD_FIELDS)), st.text(max_size=8), st.integers()), _values, max_size=12)


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
        # a record may leave out title and year to correct a fetched one; with nothing to correct, that is an error
        assert rec.id.strip()
        assert "title" in rec.missing or rec.title.strip()
        assert "year" in rec.missing or 1000 <= rec.year <= 9999
        site_problems: list = []
        assert check_corrections([rec], site_problems) == ([] if rec.missing else [rec])
        assert bool(site_problems) == bool(rec.missing)
        assert all(not url.lower().lstrip().startswith(("javascript:", "data:", "vbscript:")) for url in rec.links.values())
