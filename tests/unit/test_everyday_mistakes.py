"""The slips of a researcher who edits the site by hand, in a hurry: each is answered at its file and line, saying
what to write instead (`sitegen check`'s stderr, as the user reads it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MINIMAL_SITE, write_site

from sitegen import cli


def checked(site: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """`sitegen check`'s exit status and the lines it writes to stderr."""
    status = cli.main(["check", "--site", str(site)])
    return status, capsys.readouterr().err.splitlines()


def test_a_mistyped_https_in_a_profile_link_says_the_address_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/profile.yaml": 'name: Ada Lovelace\nlinks:\n  website: "htps://example.org/ada/"\n'})
    status, lines = checked(site, capsys)
    assert status == 0
    assert (
        "content/profile.yaml:3: warning: field 'links.website': 'htps://example.org/ada/' is no web address, the link is left out: write 'https://example.org/ada/'"
        in lines
    )


def test_a_mistyped_http_in_a_talk_url_is_an_error_that_says_the_address_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    talk = "- title: A talk\n  date: 2025-05-14\n  url: http:/example.org/conf\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/talks/talks.yaml": talk})
    status, lines = checked(site, capsys)
    assert status == 1
    assert (
        "content/talks/talks.yaml:3: field 'url': expected an http(s) or mailto: URL or a path in the site, got 'http:/example.org/conf': write 'http://example.org/conf'"
        in lines
    )


def test_a_mistyped_https_in_a_bibtex_url_says_the_address_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bib = "@article{smith2024,\n  title = {Sorting},\n  author = {Smith, John},\n  journal = {J. Sorting},\n  year = {2024},\n  url = {htps://example.org/sorting}\n}\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/pubs.bib": bib})
    status, lines = checked(site, capsys)
    assert status == 0
    assert (
        "content/records/pubs.bib:6: warning: entry 'smith2024': field 'links.html': 'htps://example.org/sorting' is no web address, the link is left out: write 'https://example.org/sorting'"
        in lines
    )


def test_a_mistyped_https_in_a_markdown_link_says_the_address_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = "---\ntitle: About\n---\nSee [my blog](htps://blog.example.org).\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/pages/about.md": page})
    status, lines = checked(site, capsys)
    assert status == 0
    assert (
        "content/pages/about.md:4: warning: link 'htps://blog.example.org': no web address, the link is left out (its text stays): write 'https://blog.example.org'"
        in lines
    )


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("htps://x.org/a", "https://x.org/a"),
        ("htp://x.org", "http://x.org"),
        ("http:/x.org", "http://x.org"),
        ("https//x.org", "https://x.org"),
        ("htttps://x.org", "https://x.org"),
        ("https://x.org", None),
        ("http://x.org", None),
        ("ftp://x.org", None),
        ("javascript:alert(1)", None),
        ("static/talk.pdf", None),
        ("mailto:ada@example.org", None),
    ],
)
def test_only_a_mistyped_web_address_is_taken_for_one(written: str, meant: str | None) -> None:
    from sitegen.urls import mistyped_web_address

    assert mistyped_web_address(written) == meant


def test_a_profile_field_written_in_site_yaml_says_it_belongs_in_profile_yaml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/site.yaml": MINIMAL_SITE["content/site.yaml"] + "email: ada@example.org\n"})
    status, lines = checked(site, capsys)
    assert status == 0
    assert "content/site.yaml:3: warning: field 'email': a setting of content/profile.yaml (it is about you, not the site): move it there" in lines


def test_a_site_setting_and_a_record_field_in_profile_yaml_say_where_they_belong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = "name: Ada Lovelace\nbase_url: https://example.org/ada/\ndoi: 10.1000/xyz123\ndescription: Ada works on engines.\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/profile.yaml": profile})
    status, lines = checked(site, capsys)
    assert status == 0
    assert "content/profile.yaml:2: warning: field 'base_url': a setting of content/site.yaml (it is the whole site's): move it there" in lines
    assert (
        "content/profile.yaml:3: warning: field 'doi': a record's field, ignored here: a publication is a file of content/records/ "
        "(or an entry of a .bib file there)" in lines
    )
    assert "content/profile.yaml:4: warning: field 'description': unknown setting; did you mean 'bio'?" in lines, "a synonym still wins"


def test_a_key_without_a_space_after_its_colon_is_named_at_its_own_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """YAML reads `title:"Your Name"` as one text and fails lines later, at the next key, with "did not find
    expected <document start>": the message names the line typed and what to write."""
    site_yaml = '# Settings\ntitle:"Test site"\n\n# where it lives\nbase_url: https://example.org/\n'
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/site.yaml": site_yaml})
    status, lines = checked(site, capsys)
    assert status == 1
    assert lines[0] == 'content/site.yaml:2: invalid YAML: no space after the colon in \'title:"Test site"\': write title: "Test site"'


@pytest.mark.parametrize(
    ("path", "text", "message"),
    [
        (
            "content/profile.yaml",
            "name: Ada\nlinks:\n  github:ada\n  website: https://example.org/\n",
            "content/profile.yaml:3: invalid YAML: no space after the colon in 'github:ada': write github: ada",
        ),
        (
            "content/profile.yaml",
            "name: Ada\nposition: Professor\nemail:ada@example.org\n",
            "content/profile.yaml:3: invalid YAML: no space after the colon in 'email:ada@example.org': write email: ada@example.org",
        ),
        (
            "content/posts/2025-03-01-hello.md",
            "---\n# a post\ntitle:Hello world   # required\ndate: 2025-03-01\n---\nText.\n",
            "content/posts/2025-03-01-hello.md:3: invalid YAML: no space after the colon in 'title:Hello world': write title: Hello world",
        ),
    ],
)
def test_a_key_without_a_space_in_any_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], path: str, text: str, message: str) -> None:
    site = write_site(tmp_path, {**MINIMAL_SITE, path: text})
    status, lines = checked(site, capsys)
    assert status == 1
    assert message in lines


def test_an_address_or_a_time_is_not_taken_for_a_key_without_a_space(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = "name: Ada\nlinks:\n  website: http://example.org: home\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/profile.yaml": profile})
    status, lines = checked(site, capsys)
    assert status == 1
    assert lines[0].startswith(
        "content/profile.yaml:3:30: invalid YAML: mapping values are not allowed in this context: a value with ': ' in it is written in quotes"
    )


PAPERS_BIB = """\
@article{smith2024,
  title = {Sorting: A Survey},
  author = {Smith, John},
  journal = {J. Sorting},
  year = {2024}
}

@inproceedings{doe2023,
  title = {Fast things},
  author = {Doe, Jane},
  booktitle = {Proc. X},
  year = {2023}
}
"""


@pytest.mark.parametrize(
    ("written", "typed", "message"),
    [
        (
            "  title = {Sorting: A Survey},",
            "  title = {Sorting: A Survey}",
            "content/records/pubs.bib:2: entry 'smith2024', field 'title': a ',' is missing after the value, before 'author =': end the value with a comma",
        ),
        (
            "  journal = {J. Sorting},",
            '  journal = "J. Sorting"',
            "content/records/pubs.bib:4: entry 'smith2024', field 'journal': a ',' is missing after the value, before 'year =': end the value with a comma",
        ),
        (
            "  booktitle = {Proc. X},\n  year = {2023}",
            "  booktitle = {Proc. X}\n  year = 2023",
            "content/records/pubs.bib:11: entry 'doe2023', field 'booktitle': a ',' is missing after the value, before 'year =': end the value with a comma",
        ),
    ],
)
def test_a_bibtex_field_without_its_comma_says_the_comma_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, typed: str, message: str
) -> None:
    """The field after the value runs into it: it was "expected '#' between the parts of the value", and with a bare
    number after it (`year = 2023`) the entry lost its year and its booktitle read "Proc. X}\\n  year = 2023"."""
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/pubs.bib": PAPERS_BIB.replace(written, typed)})
    status, lines = checked(site, capsys)
    assert status == 1
    assert lines[0] == message


def test_a_mistyped_kind_of_link_names_the_kind_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`githib: ada` was "'ada' is no file of the site", which does not say that `githib` is the mistake."""
    profile = "name: Ada Lovelace\nlinks:\n  githib: ada\n  linkdin: ada-l\n  slides: static/talk.pdf\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/profile.yaml": profile, "static/talk.pdf": "%PDF-1.4\n"})
    status, lines = checked(site, capsys)
    assert status == 0
    assert (
        "content/profile.yaml:3: warning: field 'links.githib': unknown kind of link, left out: did you mean 'github'? (for another kind, 'ada' is a file of the site)"
        in lines
    )
    assert (
        "content/profile.yaml:4: warning: field 'links.linkdin': unknown kind of link, left out: did you mean 'linkedin'? (for another kind, 'ada-l' is a file of the site)"
        in lines
    )
    assert not any("links.slides" in line or "'slides'" in line for line in lines), "a kind of your own linking a file of the site is fine"


def test_a_mistyped_kind_of_link_in_a_person_file_names_the_kind_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    person = "name: Charles Babbage\nlinks:\n  gihub: cbabbage\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/people/charles.yaml": person})
    status, lines = checked(site, capsys)
    assert (
        "content/people/charles.yaml:3: warning: field 'links.gihub': unknown kind of link, left out: did you mean 'github'? (for another kind, 'cbabbage' is a file of the site)"
        in lines
    )


@pytest.mark.parametrize(
    ("path", "text", "message"),
    [
        (
            "content/talks/talks.yaml",
            "- title: A talk about sorting\n  date:2025-05-14\n  event: SortConf\n",
            "content/talks/talks.yaml:2: invalid YAML: no space after the colon in 'date:2025-05-14': write date: 2025-05-14",
        ),
        (
            "content/talks/talks.yaml",
            "- title: A talk about sorting\n  date: 2025-05-14\n  event: Sorting\n    Conference\n  location:Oslo\n",
            "content/talks/talks.yaml:5: invalid YAML: no space after the colon in 'location:Oslo': write location: Oslo",
        ),
        (
            "content/cv.yaml",
            "sections:\n  - title: Positions\n    entries:\n      - title: Postdoc\n        org:University of Nordhaven\n        start: 2020\n",
            "content/cv.yaml:5: invalid YAML: no space after the colon in 'org:University of Nordhaven': write org: University of Nordhaven",
        ),
    ],
)
def test_a_key_without_a_space_is_not_folded_into_the_value_above(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], path: str, text: str, message: str
) -> None:
    """In a list's item YAML reads `date:2025-05-14` as more words of the title above, without an error: the talk's
    title was "A talk about sorting date:2025-05-14", the CV's entry "Postdoc org:University of Nordhaven"."""
    site = write_site(tmp_path, {**MINIMAL_SITE, path: text})
    status, lines = checked(site, capsys)
    assert status == 1
    assert lines[0] == message


def test_a_text_over_several_lines_with_an_address_or_a_time_is_read_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    talk = (
        "- title: A talk\n  date: 2025-05-14\n  abstract: Slides at\n    https://example.org/slides and the\n    session starts 10:30 sharp,\n"
        "    with\n    Nd:YAG and Er:YAG lasers on\n    TiO2:Nb films.\n"
    )
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/talks/talks.yaml": talk})
    status, lines = checked(site, capsys)
    assert status == 0, lines


def test_another_name_for_a_cv_or_talk_field_names_the_field_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`organisation:` was answered with "known: date, details, end, location, org, start, title, url"."""
    cv = "sections:\n  - title: Positions\n    entries:\n      - title: Postdoc\n        organisation: University of Nordhaven\n        start: 2020\n        until: 2022\n"
    talk = "- title: A talk\n  date: 2025-05-14\n  conference: SortConf 2025\n"
    talk += "  description: Sorting, quickly.\n"
    post = "---\ntitle: Hello\ndate: 2025-03-01\nsummary: The first post.\n---\nText.\n"
    files = {"content/cv.yaml": cv, "content/talks/talks.yaml": talk, "content/posts/2025-03-01-hello.md": post}
    site = write_site(tmp_path, {**MINIMAL_SITE, **files})
    status, lines = checked(site, capsys)
    assert status == 0
    assert "content/talks/talks.yaml:4: warning: unknown field 'description' is ignored; did you mean 'abstract'?" in lines
    assert "content/posts/2025-03-01-hello.md:4: warning: unknown field 'summary' is ignored; did you mean 'description'?" in lines
    assert "content/cv.yaml:5: warning: unknown field 'organisation' is ignored; did you mean 'org'?" in lines
    assert "content/cv.yaml:7: warning: unknown field 'until' is ignored; did you mean 'end'?" in lines
    assert "content/talks/talks.yaml:3: warning: unknown field 'conference' is ignored; did you mean 'event'?" in lines


def test_two_authors_joined_by_and_in_one_yaml_item_are_a_warning_that_writes_the_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """BibTeX's habit in YAML: `[Mary Somerville and Ada Lovelace]` is one author of that name on the page."""
    record = "id: sums\ntitle: Sums\nyear: 2023\nauthors:\n  - Mary Somerville and Ada Lovelace\n  - Johnson and Johnson\n  - ATLAS and CMS Collaborations\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/sums.yaml": record})
    status, lines = checked(site, capsys)
    assert status == 0
    joined = [line for line in lines if "joined by 'and'" in line]
    assert joined == [
        "content/records/sums.yaml:5: warning: field 'authors': item 1, 'Mary Somerville and Ada Lovelace', is 2 names joined by 'and': "
        "in YAML each author is an item of the list: [Mary Somerville, Ada Lovelace]"
    ], "an organisation's name with 'and' in it is no mistake"


def test_true_in_quotes_says_to_write_it_without_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = 'id: sums\ntitle: Sums\nyear: 2023\nauthors: [Ada Lovelace]\nfeatured: "true"\nhidden: "no"\n'
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/sums.yaml": record})
    status, lines = checked(site, capsys)
    assert status == 1
    assert (
        "content/records/sums.yaml:5: field 'featured': expected true or false, got the text 'true' in quotes: write it without them: featured: true" in lines
    )
    assert "content/records/sums.yaml:6: field 'hidden': expected true or false, got the text 'no' in quotes: write it without them: hidden: false" in lines


def test_nav_yes_on_a_page_asks_for_its_place_in_the_menu(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It was "expected a whole number, got bool True", for a page that says `nav: yes`."""
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/pages/about.md": "---\ntitle: About\nnav: yes\n---\nText.\n"})
    status, lines = checked(site, capsys)
    assert status == 1
    assert (
        "content/pages/about.md:3: field 'nav': expected a whole number, got true (YAML reads yes, no, on and off so too): write a number, such as nav: 1"
        in lines
    )


def test_a_year_with_a_letter_says_to_write_the_year_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`year: 2024a`, as a reference manager tells two papers of 2024 apart: it was "expected an integer"."""
    record = "id: sums\ntitle: Sums\nyear: 2024a\nauthors: [Ada Lovelace]\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/sums.yaml": record})
    status, lines = checked(site, capsys)
    assert status == 1
    assert "content/records/sums.yaml:3: field 'year': expected a year, got '2024a': write the year alone, year: 2024 (a letter is no part of it)" in lines


def test_a_cv_start_written_wrong_is_one_error_not_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cv = "sections:\n  - title: Positions\n    entries:\n      - title: Postdoc\n        start: 2022-13\n        end: 2024\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/cv.yaml": cv})
    status, lines = checked(site, capsys)
    assert status == 1
    errors = [line for line in lines if line.startswith("content/cv.yaml")]
    assert errors == ["content/cv.yaml:5: field 'start': expected a year (2021), a month (2021-09) or a date (2021-09-24), got '2022-13'"]


@pytest.mark.parametrize(
    ("written", "message"),
    [
        (
            "A. Lovelace, Augusta Ada King",
            "content/profile.yaml:2: warning: field 'name_variants': one string, read as one name 'A. Lovelace, Augusta Ada King'; "
            "for several names write a list: name_variants: [A. Lovelace, Augusta Ada King]",
        ),
        ("Lovelace, Ada", None),
        ("Lovelace, Augusta Ada", None),
    ],
)
def test_name_variants_written_as_one_string_of_names(tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, message: str | None) -> None:
    """A list written as a string was one variant without a word; BibTeX's `Family, Given` is one name and stays so."""
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/profile.yaml": f"name: Ada Lovelace\nname_variants: {written}\n"})
    status, lines = checked(site, capsys)
    assert status == 0
    said = [line for line in lines if "name_variants" in line]
    assert said == ([message] if message else [])
