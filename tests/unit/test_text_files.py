"""Every file sitegen reads as text is UTF-8; any other gets one message, at the line of its first byte that is
not, with a guess of what it is (sitegen.text_files)."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_SITE, write_site

from sitegen.build import check_site
from sitegen.errors import ContentError
from sitegen.sources.bibtex import SAVE_BIB_AS_UTF8
from sitegen.text_files import SAVE_UTF16_AS_UTF8, decode_text

ADVICE = "save the file as UTF-8"
LOOKS = "it looks like Latin-1 / Windows-1252"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("id: a\ntitle: Müller\n".encode("latin-1"), f"x.yaml:2: not UTF-8 text ({LOOKS}: byte 0xfc on this line is 'ü' there): {ADVICE}"),
        ("a\nb\n\u201cquoted\u201d\n".encode("cp1252"), f"x.yaml:3: not UTF-8 text ({LOOKS}: byte 0x93 on this line is '\u201c' there): {ADVICE}"),
        ("\ufeffa: é\nb: ü\n".encode("utf-8")[:-3] + b"\xfc\n", f"x.yaml:2: not UTF-8 text ({LOOKS}: byte 0xfc on this line is 'ü' there): {ADVICE}"),
        ("id: a\ntitle: T\n".encode("utf-16"), f"x.yaml:1: not UTF-8 text (it looks like UTF-16): {ADVICE}{SAVE_UTF16_AS_UTF8}"),
        ("id: a\ntitle: T\n".encode("utf-16-be"), f"x.yaml:1: not UTF-8 text (it looks like UTF-16): {ADVICE}{SAVE_UTF16_AS_UTF8}"),  # no BOM: NUL bytes
        ("id: a\ntitle: T\n".encode("utf-16-le"), f"x.yaml:1: not UTF-8 text (it looks like UTF-16): {ADVICE}{SAVE_UTF16_AS_UTF8}"),  # valid UTF-8, but NULs
        ("a: 1\nb: 研究\n".encode("shift_jis"), f"x.yaml:2: not UTF-8 text: {ADVICE}"),  # no guess: two bytes a character
        (b"a: 1\n\x81\n", f"x.yaml:2: not UTF-8 text: {ADVICE}"),  # a byte Windows-1252 leaves undefined
        (b"a: 1\r\nb: 2\r\nc: M\xfcller\r\n", f"x.yaml:3: not UTF-8 text ({LOOKS}: byte 0xfc on this line is 'ü' there): {ADVICE}"),  # Windows
        (b"a: 1\rb: 2\rc: M\xfcller\r", f"x.yaml:3: not UTF-8 text ({LOOKS}: byte 0xfc on this line is 'ü' there): {ADVICE}"),  # classic Mac
    ],
)
def test_text_that_is_not_utf8_is_one_problem_at_its_line(data: bytes, expected: str) -> None:
    text, problem = decode_text(data, "x.yaml")
    assert (text, str(problem)) == ("", expected)


def test_utf8_with_or_without_a_byte_order_mark_is_read() -> None:
    assert decode_text("a: ü\n".encode(), "x.yaml") == ("a: ü\n", None)
    assert decode_text("\ufeffa: ü\n".encode(), "x.yaml") == ("a: ü\n", None)


def test_every_line_end_is_read_as_lf() -> None:
    """CRLF (Windows), CR (classic Mac) and both mixed with LF in one file: the same text, as every reader takes it."""
    assert decode_text(b"\xef\xbb\xbfa: 1\r\nb: |\r\n  x\r\n", "x.yaml") == ("a: 1\nb: |\n  x\n", None)
    assert decode_text(b"a: 1\rb: 2\r\nc: 3\n\n", "x.yaml") == ("a: 1\nb: 2\nc: 3\n\n", None)


LATIN1 = "title: Müller\n".encode("latin-1")


def test_every_content_file_kind_gives_the_same_message_once(tmp_path) -> None:
    """Records (YAML, BibTeX, Markdown), site.yaml (read by two stages: reported once), profile.yaml, pages,
    posts, news, talks, the CV, co-authors and people: one message each, with its line."""
    site = write_site(tmp_path, {})
    bad = {
        "content/site.yaml": b"title: T\n" + LATIN1,
        "content/profile.yaml": b"name: A\n\n" + LATIN1,
        "content/records/a.yaml": b"id: a\n" + LATIN1,
        "content/records/b.bib": b"@misc{b,\n  title = {M\xfcller}\n}\n",
        "content/records/c.md": b"---\n" + LATIN1 + b"---\n",
        "content/pages/p.md": b"---\n" + LATIN1 + b"---\n",
        "content/posts/2024-01-01-q.md": b"---\n" + LATIN1 + b"---\n",
        "content/news/n.md": b"---\ndate: 2024-01-01\n---\n" + LATIN1,
        "content/talks/t.yaml": "title: T\n".encode("utf-16"),
        "content/cv.yaml": b"sections:\n" + LATIN1,
        "content/coauthors.yaml": LATIN1,
        "content/people/ada.yaml": b"name: Ada\n" + LATIN1,
    }
    lines = {"site.yaml": 2, "profile.yaml": 3, "b.bib": 2, "c.md": 2, "p.md": 2, "q.md": 2, "n.md": 4, "t.yaml": 1, "cv.yaml": 2, "coauthors.yaml": 1}
    for path, data in bad.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_bytes(data)
    with pytest.raises(ContentError) as caught:
        check_site(site)
    found = sorted(str(problem) for problem in caught.value.problems)
    expected = []
    for path in bad:
        name = path.rpartition("/")[2].removeprefix("2024-01-01-")
        if name == "t.yaml":
            expected.append(f"{path}:1: not UTF-8 text (it looks like UTF-16): {ADVICE}{SAVE_UTF16_AS_UTF8}")
        else:
            save_bib = SAVE_BIB_AS_UTF8 if name.endswith(".bib") else ""
            expected.append(f"{path}:{lines.get(name, 2)}: not UTF-8 text ({LOOKS}: byte 0xfc on this line is 'ü' there): {ADVICE}{save_bib}")
    assert found == sorted(expected)


@pytest.mark.parametrize("path", ["themes/mine/theme.yaml", "themes/mine/i18n/en.yaml", "themes/mine/templates/base.html"])
def test_a_theme_file_that_is_not_utf8_gives_the_same_message(tmp_path, path: str) -> None:
    files = {
        **MINIMAL_SITE,
        "content/site.yaml": "title: T\nbase_url: https://example.org/\ntheme: mine\n",
        "themes/mine/theme.yaml": "extends: default\n",
        "themes/mine/templates/base.html": '{% extends "!default/base.html" %}\n',
    }
    site = write_site(tmp_path, files)
    (site / path).parent.mkdir(parents=True, exist_ok=True)
    (site / path).write_bytes(b"# x\n" + "a: Müller\n".encode("latin-1"))
    with pytest.raises(ContentError) as caught:
        check_site(site)
    assert [str(problem) for problem in caught.value.problems] == [f"{path}:2: not UTF-8 text ({LOOKS}: byte 0xfc on this line is 'ü' there): {ADVICE}"]
