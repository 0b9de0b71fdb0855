"""Markdown files with YAML front matter: `---`, settings, `---`, then the text.

---
title: Teaching
nav: 2
---
I teach *Distributed Systems* every winter term.
"""

from __future__ import annotations

from typing import Any

from sitegen.errors import Location, Problem
from sitegen.homepage.fields import Fields
from sitegen.load import parse_yaml


def split_front_matter(text: str, path: str) -> tuple[Any, str, int, list[Problem]]:
    """(front matter data, body, the body's first line, problems); the data's lines are the file's."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return None, text, 1, [Problem("expected YAML front matter first: a line '---', settings such as 'title: ...', and '---'", Location(path, 1))]
    end = front_matter_end(lines)
    if end is None:
        return None, text, 1, [Problem("the front matter is not closed: add a line '---' after its settings", Location(path, 1))]
    # blank lines keep the YAML's line numbers those of the file
    data, problem = parse_yaml("\n" * 1 + "\n".join(lines[1:end]), path)
    if problem is not None:
        return None, "", end + 2, [problem]
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return None, "", end + 2, [Problem("expected settings in the front matter (title: ...), got something else", Location(path, 2))]
    return data, "\n".join(lines[end + 1 :]), end + 2, []


def front_matter_end(lines: list[str]) -> int | None:
    """The index of the line that closes the front matter opened by lines[0] ('---', or YAML's '...'), if any."""
    return next((n for n in range(1, len(lines)) if lines[n].strip() in ("---", "...")), None)


def front_matter_fields(text: str, path: str, known: set[str], problems: list[Problem]) -> tuple[Fields, str, int] | None:
    """A Markdown file's settings to read (a warning for each one not in `known`), its body and
    the body's first line; None when it has no front matter to read (the problem noted)."""
    data, body, body_line, found = split_front_matter(text, path)
    problems += found
    if data is None:
        return None
    fields = Fields(data, path, problems)
    fields.unknown(known)
    return fields, body, body_line
