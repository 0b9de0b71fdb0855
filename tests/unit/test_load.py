"""Stage 1, load: YAML files in, positioned data or `path:line:col:` problems out."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_SITE, write_site
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.load import EscapedText, PositionedDict, RecordFile, _unreadable_character, item_line, load_site, parse_yaml
from sitegen.prepare import read_inputs
from sitegen.validate import validate_record_file


def test_mappings_remember_the_line_of_every_key():
    data, problem = parse_yaml("id: x\n\ntitle: T\nlinks:\n  pdf: https://e.org/x.pdf\n", "r.yaml")
    assert problem is None
    assert isinstance(data, PositionedDict)
    assert data == {"id": "x", "title": "T", "links": {"pdf": "https://e.org/x.pdf"}}
    assert (data.line, data.line_of("id"), data.line_of("title"), data.line_of("links")) == (1, 1, 3, 4)
    assert data["links"].line_of("pdf") == 5


def test_items_of_a_list_file_know_their_own_lines():
    data, _ = parse_yaml("# two records\n- id: a\n  title: A\n- id: b\n  title: B\n", "list.yaml")
    assert [item.line for item in data] == [2, 4]
    assert data[1].line_of("title") == 5


def test_unknown_key_falls_back_to_the_mapping_line():
    data, _ = parse_yaml("\n\nid: a\n", "r.yaml")
    assert data.line_of("nothing") == 3


def test_broken_yaml_is_a_problem_with_line_column_and_reason():
    data, problem = parse_yaml("id: a\ntitle: [unclosed\nyear: 2020\n", "content/records/a.yaml")
    assert data is None
    text = str(problem)
    assert text.startswith("content/records/a.yaml:3:")
    assert text.split(":")[2].strip().isdigit()  # a column, too
    assert "invalid YAML:" in text
    assert "expected ',' or ']'" in text  # the parser's own reason


def test_bad_indentation_names_line_and_column():
    _, problem = parse_yaml("id: a\n  title: b\n", "r.yaml")
    assert str(problem).startswith("r.yaml:2:8: invalid YAML: mapping values are not allowed in this context")


@pytest.mark.parametrize("quote", ['"', "'"])
def test_a_quote_never_closed_is_named_where_it_opens_not_at_the_end_of_the_file(quote):
    """A record saved half written (`title: "Half written` and nothing after): the problem is where the quote
    opens, not the end of the file that PyYAML stopped at ("found unexpected end of stream")."""
    _, problem = parse_yaml(f"id: a\ntitle: {quote}Half written\nauthors: [Lena\n", "r.yaml")
    assert str(problem) == f"r.yaml:2:8: invalid YAML: the text in quotes that starts here is never closed: end it with {quote} where the text ends"


@pytest.mark.parametrize("before", ["", "title: Müller – Ünïcödé ok\nauthors: [Łukasz Żółć]\n"])
def test_a_control_character_is_named_at_its_line_and_column(before):
    """A control character pasted from a PDF (invisible in most editors): its line and column, not the reader's
    'position 12678' in the whole text (libyaml counts it in bytes of UTF-8)."""
    _, problem = parse_yaml(f"{before}id: a\nabstract: bad \x7f here\n", "r.yaml")
    line = before.count("\n") + 2
    assert str(problem) == f"r.yaml:{line}:15: invalid YAML: the control character U+007F, invisible in most editors, cannot be in a YAML file: delete it"


def test_a_control_character_found_by_pyyamls_own_reader_is_placed_by_characters():
    """Where PyYAML is built without libyaml, its reader counts characters and gives the character itself."""
    import yaml

    text = "title: Müller\nabstract: bad \x07\n"
    error = yaml.reader.ReaderError("<unicode string>", text.index("\x07"), "\x07", "unicode", "special characters are not allowed")
    assert str(_unreadable_character(error, text, "r.yaml")).startswith("r.yaml:2:15: invalid YAML: the control character U+0007,")


def test_tabs_are_reported_not_raised():
    _, problem = parse_yaml("id: a\n\ttitle: b\n", "r.yaml")
    assert problem is not None and str(problem).startswith("r.yaml:2:")


def test_impossible_date_becomes_text_for_the_validator_to_report():
    """`date: 2024-02-30` looks like a YAML timestamp but is no date; it must not crash the loader."""
    data, problem = parse_yaml("id: a\ndate: 2024-02-30\n", "r.yaml")
    assert problem is None
    assert data["date"] == "2024-02-30"


@pytest.mark.parametrize("text", ["a: !!int abc\n", "a: !!float abc\n"])
def test_values_the_constructor_rejects_are_problems(text):
    data, problem = parse_yaml(text, "r.yaml")
    assert data is None
    assert str(problem).startswith("r.yaml:1:4: invalid YAML:")


RANGE = "is out of range: write a whole number from -9223372036854775808 to 9223372036854775807, or quote it to keep it as text"


@pytest.mark.parametrize(
    "text, said",
    [
        ("name: Ada\nweight: 18446744073709551616\n", f"p.yaml:2: field 'weight': 18446744073709551616 {RANGE}"),
        ("name: Ada\nweight: -9223372036854775809\n", f"p.yaml:2: field 'weight': -9223372036854775809 {RANGE}"),
        ("links:\n  x:\n  - 1\n  - 0x10000000000000000\n", f"p.yaml:4: field 'links.x': 18446744073709551616 {RANGE}"),
        ("18446744073709551616: a\n", f"p.yaml:1: the number 18446744073709551616 {RANGE}"),
        ("- 1\n- " + "9" * 300 + "\n", f"p.yaml:2: a number of 300 digits {RANGE}"),
    ],
)
def test_a_whole_number_beyond_64_bits_is_a_problem_at_its_line_in_any_file(text, said):
    """Every stage holds 64-bit numbers (the cache's digests crashed on more): the loader that reads every YAML file
    (records, people, site.yaml, front matter) refuses a larger one, naming its field."""
    data, problem = parse_yaml(text, "p.yaml")
    assert data is None and str(problem) == said


def test_the_largest_and_smallest_64_bit_numbers_are_read():
    data, problem = parse_yaml("a: 9223372036854775807\nb: -9223372036854775808\n", "p.yaml")
    assert problem is None and data == {"a": 2**63 - 1, "b": -(2**63)}


def test_a_duplicate_key_is_a_problem_not_silently_the_last_value():
    data, problem = parse_yaml("id: a\ntitle: First\nyear: 2020\ntitle: Second\n", "r.yaml")
    assert data is None
    assert str(problem) == "r.yaml:4:1: invalid YAML: duplicate key 'title' (first on line 2)"
    data, problem = parse_yaml("- {id: a, id: b}\n", "r.yaml")
    assert str(problem) == "r.yaml:1:11: invalid YAML: duplicate key 'id' (first on line 1)"


def test_merge_keys_and_differently_typed_keys_are_not_duplicates():
    data, problem = parse_yaml("base: &b {k: 1}\nitem:\n  <<: *b\n  k: 2\n1: int\n'1': text\n", "r.yaml")
    assert problem is None
    assert data["item"] == {"k": 2} and data[1] == "int" and data["1"] == "text"


@pytest.mark.parametrize(
    "text",
    [
        "id: a\ntitle: T\nauthors: [A, B]\nyear: 2020\ndate: 2020-03-01\nhidden: no\ndoi: ~\n",
        "- id: a\n  links: {pdf: x.pdf}\n- id: b\n  extra: {n: 1.5, big: 0x1F, when: 2020-01-01 10:00:00}\n",
        "shared: &s [x, y]\nagain: *s\nself: &me [1, *me]\n",
        "base: &b {k: 1, j: 3}\nitem:\n  <<: *b\n  k: 2\n",
        "1: int\n'1': text\ntrue: bool\n2020-01-01: date\nnull: none\n",
        "x: !!str 12\ny: !!float 1e3\nz: !!binary aGVsbG8=\nw: !!set {a, b}\n",
        "abstract: |\n  Two\n\n  paragraphs\nnote: >-\n  folded\n  text\n",
    ],
)
def test_values_are_what_pyyaml_makes_of_them(text):
    """Strings, lists and mappings are built without PyYAML's constructor: they must come out the same."""
    import yaml

    data, problem = parse_yaml(text, "r.yaml")
    assert problem is None
    assert repr(data) == repr(yaml.load(text, Loader=yaml.CSafeLoader))
    if isinstance(data, dict) and "again" in data:  # an alias is the very same object, as in PyYAML
        assert data["again"] is data["shared"] and data["self"][1] is data["self"]


@pytest.mark.parametrize(
    "written, escapes",
    [
        ('"Scaling $\\alpha$"', ("\\a",)),  # U+0007 and "lpha"
        ('"$\\beta$, $\\varepsilon$, \\emph{x}, \\frac"', ("\\b", "\\v", "\\e", "\\f")),
        ('"\\x07 \\u0085 \\0"', ("\\x07", "\\u0085", "\\0")),
        ('"$\\tau$ and $\\nu$ and $\\rho$"', ("\\t", "\\n", "\\r")),  # a tab, a line break, a carriage return
        ('"$\\Lambda$ and $\\Phi$"', ("\\L", "\\P")),  # line and paragraph separators
        ('"snake\\_case"', ("\\_",)),  # a no-break space, not LaTeX's underscore
        ('["M\\"uller", "$\\alpha$"]', ("\\a",)),
    ],
)
def test_a_double_quoted_string_remembers_the_escapes_that_likely_meant_latex(written, escapes):
    data, problem = parse_yaml(f"title: {written}\n", "r.yaml")
    assert problem is None
    value = data["title"][-1] if isinstance(data["title"], list) else data["title"]
    assert isinstance(value, EscapedText)
    assert value.escapes == escapes
    assert value.written == (written if not written.startswith("[") else '"$\\alpha$"')


@pytest.mark.parametrize(
    "written",
    [
        "'Scaling $\\alpha$'",
        "Scaling $\\alpha$",
        "|\n  Scaling $\\alpha$\n",  # no escapes outside double quotes
        '"a \\\\alpha"',
        '"one\\ttwo"',
        '"line\\none"',
        '"M\\"uller"',
        '"Zo\\u00eb"',
        '"tab\\there"',  # escapes meant as such
        '"two\n  lines"',  # a folded line break
    ],
)
def test_other_strings_are_plain_strings(written):
    data, problem = parse_yaml(f"title: {written}\n", "r.yaml")
    assert problem is None
    assert type(data["title"]) is str


def test_python_tags_are_refused_safely():
    data, problem = parse_yaml("a: !!python/object/apply:os.system ['echo hi']\n", "r.yaml")
    assert data is None
    assert str(problem).startswith("r.yaml:1:4: invalid YAML: could not determine a constructor")


def test_non_utf8_file_is_a_problem(tmp_path):
    path = tmp_path / "content" / "records" / "latin1.yaml"
    path.parent.mkdir(parents=True)
    path.write_bytes("title: M\xfcller\n".encode("latin-1"))
    write_site(tmp_path, MINIMAL_SITE)
    raw = load_site(*read_inputs(tmp_path))
    assert [str(p) for f in raw.record_files for p in f.problems] == [
        "content/records/latin1.yaml:1: not UTF-8 text (it looks like Latin-1 / Windows-1252: byte 0xfc on this line is 'ü' there): save the file as UTF-8"
    ]


@pytest.mark.parametrize("name", ["citations.csv", "scholar.enw"])
def test_a_reference_list_in_a_format_not_read_says_to_export_bibtex_or_ris(tmp_path, name):
    """Google Scholar's "Export all" writes EndNote and CSV too, PubMed MEDLINE: they were 'not read' without a word
    of what to do instead."""
    site = write_site(tmp_path, {**MINIMAL_SITE, f"content/records/{name}": "TY  - JOUR\nER  - \n"})
    raw = load_site(*read_inputs(site))
    assert [str(p) for p in raw.problems] == [
        f"content/records/{name}: warning: not read: record files end with .bib, .cff, .json, .md, .nbib, .qmd, .ris, .yaml, .yml; "
        "export these references as BibTeX or RIS instead (Google Scholar: select all, Export, BibTeX; "
        "EndNote, Zotero, Mendeley: Export as RIS) and put the .bib or .ris file here"
    ]


def test_a_ris_file_is_read_by_the_ris_reader(tmp_path):
    """A RIS export (RefMan, as Google Scholar calls it) was answered with "export BibTeX instead": it is read."""
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/citations.ris": "TY  - JOUR\nTI  - A\nPY  - 2020\nER  - \n"})
    raw = load_site(*read_inputs(site))
    assert raw.problems == []
    [record_file] = raw.record_files
    assert (record_file.reader, [dict(m) for m in record_file.mappings]) == ("ris", [{"id": "anon2020", "title": "A", "year": 2020, "type": "article"}])


def test_load_site_reads_site_profile_and_every_record_file(tmp_path):
    site = write_site(
        tmp_path,
        {
            **MINIMAL_SITE,
            "content/records/b.yaml": "id: b\ntitle: B\nyear: 2020\n",
            "content/records/a.yml": "id: a\ntitle: A\nyear: 2020\n",
            "content/records/arxiv/2401.00001.yaml": "id: '2401.00001'\ntitle: C\nyear: 2024\n",
            "content/records/notes.txt": "not a record",
            "content/records/sub/deeper/c.yaml": "- id: c\n  title: C\n  year: 2021\n",
        },
    )
    raw = load_site(*read_inputs(site))
    assert [str(p) for p in raw.problems] == [
        "content/records/notes.txt: warning: not read: record files end with .bib, .cff, .json, .md, .nbib, .qmd, .ris, .yaml, .yml"
    ]
    assert raw.site.data["title"] == "Test site"
    assert raw.profile.data["name"] == "Ada Lovelace"
    assert [f.path for f in raw.record_files] == [
        "content/records/a.yml",
        "content/records/arxiv/2401.00001.yaml",
        "content/records/b.yaml",
        "content/records/sub/deeper/c.yaml",
    ]
    assert [f.reader for f in raw.record_files] == ["yaml"] * 4


def test_load_site_collects_every_problem_at_once(tmp_path):
    site = write_site(
        tmp_path,
        {
            "content/site.yaml": "title: [x\n",
            "content/records/a.yaml": "id: a\ntitle: 'unclosed\n",
            "content/records/b.yaml": "- id: b\n  - oops\n",
            "content/records/ok.yaml": "id: ok\ntitle: OK\nyear: 2020\n",
        },
    )
    raw = load_site(*read_inputs(site))
    messages = [str(p) for p in raw.problems] + [str(p) for f in raw.record_files for p in f.problems]
    assert len(messages) == 4, messages
    assert messages[0].startswith("content/site.yaml:2:1: invalid YAML:")
    assert messages[1] == "content/profile.yaml: missing: every site needs content/profile.yaml"
    assert messages[2].startswith("content/records/a.yaml:")
    assert messages[3].startswith("content/records/b.yaml:2:")
    assert [f.path for f in raw.record_files if f.mappings] == ["content/records/ok.yaml"]


def test_missing_content_folder_says_so(tmp_path):
    raw = load_site(*read_inputs(tmp_path))
    assert [str(p) for p in raw.problems] == [f"no content/ folder in {tmp_path} (is --site right?)"]


# -- fuzzing: any text is either data or a problem, never an exception ---------

_yaml_alphabet = st.characters(blacklist_categories=("Cs",))  # files are UTF-8: no lone surrogates
_yaml_tokens = st.sampled_from(
    [
        "id: ",
        "title: ",
        "year: ",
        "date: ",
        "- ",
        "\n",
        "  ",
        "'",
        '"',
        "[",
        "]",
        "{",
        "}",
        ":",
        ",",
        "&a ",
        "*a",
        "!!int ",
        "!!float ",
        "!!timestamp ",
        "!!binary ",
        "!!set ",
        "!!python/name:os.system ",
        "? ",
        "<<: ",
        "|",
        ">",
        "#",
        "%YAML 1.1\n",
        "---\n",
        "...\n",
        "2024-02-30",
        "2024-13-01",
        "1e400",
        ".nan",
        "~",
        "\t",
        "\\",
        "$x$",
    ]
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(_yaml_alphabet, max_size=200), st.lists(_yaml_tokens, max_size=30).map("".join)))
def test_any_text_parses_or_is_a_problem(text):
    """Any YAML text gives records or problems (load, then validate), never an exception."""
    data, problem = parse_yaml(text, "content/records/fuzz.yaml")
    if problem is not None:
        assert data is None
        assert str(problem).startswith("content/records/fuzz.yaml:")
        return
    from sitegen.sources.yaml_records import read_yaml_records

    mappings, problems = read_yaml_records(text, "content/records/fuzz.yaml")
    records, problems = validate_record_file(RecordFile("content/records/fuzz.yaml", "yaml", "d", mappings, problems))
    assert records or problems or data == [] or data is None
    assert all(str(p).startswith("content/records/fuzz.yaml") for p in problems)


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("name: A\nlinks:\n  mastodon: @priya@sigmoid.social\n", 'mastodon: "@priya@sigmoid.social"'),
        ("name: A\nlinks:\n  x: @priya_nlp   # my X\n", 'x: "@priya_nlp"'),
        ("code: `make`\n", 'code: "`make`"'),
    ],
)
def test_a_value_starting_with_an_at_sign_says_to_quote_it(text, written):
    """A Mastodon or X handle written as the network shows it is invalid YAML: the message says what to write."""
    data, problem = parse_yaml(text, "content/profile.yaml")
    assert data is None
    assert str(problem).endswith(f"a value starting with {written.split(': ')[1][1]} is written in quotes: {written}")


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("title: Café culture: a corpus study\ndate: 2019-03-01\n", 'title: "Café culture: a corpus study"'),
        ("id: r1\ntitle: 'Ok'\nvenue: NAACL: Findings   # short\n", 'venue: "NAACL: Findings"'),
        ('- title: Talk: "Tone" and trust\n', "title: 'Talk: \"Tone\" and trust'"),
    ],
)
def test_a_value_with_a_colon_in_it_says_to_quote_it(text, written):
    """`title: Café culture: a corpus study` (an old site's Markdown front matter, copied as it was) is invalid YAML,
    and the message was PyYAML's "mapping values are not allowed here", which says nothing of what to write."""
    data, problem = parse_yaml(text, "content/records/publications/cafe.md")
    assert data is None
    assert str(problem).endswith(f"a value with ': ' in it is written in quotes: {written}")


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("id: r1\ntitle: x\nlinks:\n\tpdf: a\n", "r.yaml:4:1"),
        ("authors:\n  - A\n\t- B\n", "r.yaml:3:1"),
        ("abstract: |\n\tText\n", "r.yaml:2:1"),
        ("links:\n  pdf: a\n  \tcode: b\n", "r.yaml:3:3"),
    ],
)
def test_a_tab_in_the_indentation_says_yaml_indents_with_spaces(text, place):
    data, problem = parse_yaml(text, "r.yaml")
    assert data is None
    assert str(problem).startswith(f"{place}: invalid YAML: ")
    assert str(problem).endswith(": YAML indents with spaces, not tabs")


def test_a_backslash_in_double_quotes_gets_advice_and_a_windows_path_says_so():
    _, problem = parse_yaml('photo: "C:\\Users\\ada\\photo.jpg"\n', "r.yaml")
    assert str(problem) == (
        "r.yaml:1:13: invalid YAML: did not find expected hexdecimal number (while parsing a quoted scalar): in double quotes "
        "a backslash starts an escape, and this looks like a Windows path: use / in paths (static/photo.jpg), or single quotes"
    )
    _, problem = parse_yaml('title: "The \\cite{x} trick"\n', "r.yaml")
    assert str(problem).endswith(
        "found unknown escape character (while parsing a quoted scalar): in double quotes a backslash starts an escape; "
        "write the text in single quotes ('...'), in which a backslash stays"
    )
    _, problem = parse_yaml("title: [a\n", "r.yaml")  # no advice where none fits
    assert "backslash" not in str(problem) and "tabs" not in str(problem)


def test_a_list_over_several_lines_knows_the_line_of_each_item():
    data, _ = parse_yaml("authors:\n  - A\n  - B\nflow: [a,\n  b]\none: [a, b]\n", "r.yaml")
    assert (item_line(data["authors"], 0), item_line(data["authors"], 1)) == (2, 3)
    assert item_line(data["flow"], 1) == 5
    assert type(data["one"]) is list and item_line(data["one"], 1) is None  # on one line: a plain list
    assert data["authors"] == ["A", "B"]


@pytest.mark.parametrize(
    "text",
    [
        "id: r1\ntitle: x\nauthors:\n\u00a0\u00a0- A B\nyear: 2020\n",  # Word's and a web page's no-break space, pasted
        "id: r1\nlinks:\n  pdf: a\n\u00a0 code: b\nyear: 2020\n",
        "id: r1\nlinks:\n\u3000pdf: a\n",  # an input method's ideographic space
    ],
)
def test_an_indentation_of_no_break_spaces_is_named_at_its_line(text):
    data, problem = parse_yaml(text, "r.yaml")
    line = next(number for number, written in enumerate(text.split("\n"), start=1) if written[:1] in ("\u00a0", "\u3000"))
    assert data is None
    assert str(problem).startswith(f"r.yaml:{line}: invalid YAML: this line is indented with ")
    assert str(problem).endswith("which YAML does not take for a space: indent with plain spaces")


def test_a_value_in_words_curly_quotes_with_a_colon_is_shown_in_straight_quotes():
    _, problem = parse_yaml("title: \u201cCaf\u00e9 culture: a corpus study\u201d\n", "r.yaml")
    assert str(problem).endswith(
        ": \u201c and \u201d are no quotes to YAML (Word types them for \"): a value with ': ' in it is written in straight quotes: "
        'title: "Caf\u00e9 culture: a corpus study"'
    )


def test_a_line_of_a_block_that_starts_with_a_no_break_space_is_text():
    text = "id: r1\nabstract: |\n  Nous montrons que\u00a0:\n  \u00a0Remarque: un cas.\n  \u00a0- et un autre.\n"
    data, problem = parse_yaml(text, "r.yaml")
    assert problem is None and data["abstract"] == "Nous montrons que\u00a0:\n\u00a0Remarque: un cas.\n\u00a0- et un autre.\n"


def test_a_mistake_after_a_block_line_that_starts_with_a_no_break_space_is_named_for_itself():
    text = "id: r1\nabstract: |\n  \u00a0Remarque: un cas.\nyear: [2020\n"
    _, problem = parse_yaml(text, "r.yaml")
    assert "no-break space" not in str(problem) and str(problem).startswith("r.yaml:")
