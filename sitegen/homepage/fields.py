"""Fields of a content file, checked with the line to blame (`path:line: message`).

A homepage's content files are small and written by hand: every mistake is
reported at its line, and a file with an error is left out rather than shown
half right.
"""

from __future__ import annotations

import datetime
import difflib
import re
from typing import Any

from sitegen.errors import Location, Problem, shown_value
from sitegen.urls import mistyped_web_address, url_scheme, windows_path

LINK_SCHEMES = {"http", "https", "mailto", ""}  # '' is a path inside the site ('static/slides.pdf')
_MONTH = re.compile(r"(\d{4})-(\d{2})")
_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
# a day with a time, as Jekyll writes one and YAML does not read as one: '2024-05-01 11:12:00-0400' (the day as written)
_DAY_AND_TIME = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[Tt ] *\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)? *(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?)?")
PRESENT = {"present", "now", "today", "current", "ongoing"}


# Other names of the fields of CV entries, talks, posts, news and pages, as other site generators and CV templates
# call them: an unknown field named so is answered with the first of the fields meant that the file has.
FIELD_SYNONYMS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("organisation", "organization", "institution", "employer", "company", "university", "school"), ("org",)),
    **dict.fromkeys(("description", "desc", "text", "note", "notes"), ("details", "abstract")),
    **dict.fromkeys(("summary", "excerpt", "abstract"), ("description", "details", "abstract")),
    **dict.fromkeys(("place", "city", "where"), ("location",)),
    **dict.fromkeys(("link", "href", "website", "web", "homepage"), ("url",)),
    **dict.fromkeys(("from", "begin", "since", "start_date"), ("start",)),
    **dict.fromkeys(("to", "until", "finish", "end_date"), ("end",)),
    **dict.fromkeys(("when", "day", "year"), ("date",)),
    **dict.fromkeys(("name", "position", "role", "degree", "award", "heading"), ("title",)),
    **dict.fromkeys(("conference", "venue", "meeting", "workshop"), ("event",)),
    **dict.fromkeys(("kind", "category"), ("type",)),
    **dict.fromkeys(("tag", "keywords", "categories", "category"), ("tags", "subjects")),
    "tags": ("subjects",),  # a project's (sitegen.pages.projects): the records of its subjects
    **dict.fromkeys(("importance", "weight", "priority", "rank"), ("order",)),  # al-folio's and Hugo's place of a project
    **dict.fromkeys(("img", "picture", "thumbnail", "featured_image", "cover"), ("image",)),
    **dict.fromkeys(("publications", "related_publications", "papers", "ids"), ("records",)),
    **dict.fromkeys(("state", "active", "ongoing", "current"), ("status",)),
    **dict.fromkeys(("menu", "navigation", "in_menu"), ("nav",)),
    **dict.fromkeys(("permalink", "url_name"), ("slug",)),
    **dict.fromkeys(("items", "positions", "jobs"), ("entries",)),
}


class Fields:
    """A mapping from a YAML file (a `load.PositionedDict`), its problems gathered in `problems`."""

    def __init__(self, data: Any, path: str, problems: list[Problem], line_offset: int = 0):
        self.data = data if isinstance(data, dict) else {}
        self.path = path
        self.problems = problems
        self.line_offset = line_offset  # front matter starts below the first '---'
        self.failed = False

    def line(self, key: str | None = None) -> int:
        line_of = getattr(self.data, "line_of", None)
        line = (line_of(key) if key is not None else getattr(self.data, "line", 0)) if line_of else 0
        return (line or 1) + self.line_offset

    def where(self, key: str | None = None) -> Location:
        return Location(self.path, self.line(key))

    def problem(self, key: str | None, message: str) -> None:
        self.failed = True
        self.problems.append(Problem(message, self.where(key)))

    def warn(self, key: str | None, message: str) -> None:
        self.problems.append(Problem(message, self.where(key), warning=True))

    def unknown(self, known: set[str], noun: str = "field") -> None:
        """A warning for each key not in `known`, naming the known one it most likely means (as a record's
        unknown fields are), else every known one."""
        for key in self.data:
            if str(key) not in known:
                synonyms = [name for name in FIELD_SYNONYMS.get(str(key).lower(), ()) if name in known]
                meant = synonyms or difflib.get_close_matches(str(key).lower(), sorted(known), n=1, cutoff=0.7)
                hint = f"did you mean '{meant[0]}'?" if meant else f"known: {', '.join(sorted(known))}"
                self.warn(str(key), f"unknown {noun} '{key}' is ignored; {hint}")

    def text(self, key: str, required: bool = False) -> str:
        value = self.data.get(key)
        if value is None or value == "":
            if required:
                self.problem(None, f"field '{key}' is required")
            return ""
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.problem(key, f"field '{key}': expected text, got {shown_value(value)}")
            return ""
        return str(value).strip()

    def inline(self, key: str, required: bool = False) -> str:
        """One line of text with LaTeX accents and macros converted ('M{\\"u}ller' -> 'Müller')."""
        from sitegen.latex import unconverted_hint
        from sitegen.markup import render_inline

        text = self.text(key, required)
        if not text:
            return ""
        converted = render_inline(text)
        for tex in converted.unconverted:
            self.warn(key, f"field '{key}': LaTeX shown as source, cannot convert {tex}{unconverted_hint(tex)}")
        return converted.plain

    def language(self, key: str = "language") -> str:
        """The language a text is written in, when not the site's (a tag, or a name: `English`), so that its
        pages mark it (`lang`) for a screen reader's voice; "" when not given, or a warning for what is no language."""
        from sitegen.validate import language_tag_of, not_a_language

        written = self.text(key)
        if not written:
            return ""
        if (tag := language_tag_of(written)) is None:
            self.warn(key, f"field '{key}': {not_a_language(written)}")
            return ""
        return tag

    def texts(self, key: str) -> tuple[str, ...]:
        """A list of short texts (`tags: [reading group, ml]`), each stripped, empty ones left out."""
        value = self.data.get(key)
        if value is None:
            return ()
        if isinstance(value, str):  # `tags: ml, vision` would be one tag of that name
            self.problem(key, f"field '{key}': expected a list, got one string; write it as a list: {key}: [{value}]")
            return ()
        if not isinstance(value, list) or any(isinstance(item, bool) or not isinstance(item, (str, int, float)) for item in value):
            self.problem(key, f"field '{key}': expected a list of texts, got {shown_value(value)}")
            return ()
        return tuple(text for item in value if (text := " ".join(str(item).split())))

    def flag(self, key: str, default: bool) -> bool:
        """A true-or-false setting (`comments: false`); `default` when not given or not one."""
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            self.problem(key, f"field '{key}': expected true or false, got {shown_value(value)}")
            return default
        return value

    def integer(self, key: str) -> int | None:
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, bool):  # `nav: yes`, `nav: true`: YAML's yes, true and on are all true
            written = "true" if value else "false"
            self.problem(
                key, f"field '{key}': expected a whole number, got {written} (YAML reads yes, no, on and off so too): write a number, such as {key}: 1"
            )
            return None
        if not isinstance(value, int):
            self.problem(key, f"field '{key}': expected a whole number, got {shown_value(value)}")
            return None
        return value

    def day(self, key: str, required: bool = False) -> str:
        """A day, as ISO text ('2024-03-05')."""
        value = self.data.get(key)
        if value is None:
            if required:
                self.problem(None, f"field '{key}' is required (a date such as 2024-03-05)")
            return ""
        if isinstance(value, datetime.datetime):
            value = value.date()
        if isinstance(value, datetime.date):
            return value.isoformat()
        if isinstance(value, str) and (written := _DAY_AND_TIME.fullmatch(value.strip())) and _valid(written[1]):
            return written[1]
        self.problem(key, f"field '{key}': expected a date such as 2024-03-05 (or 2024-03-05 11:12:00-0400), got {shown_value(value)}")
        return ""

    def when(self, key: str, allow_present: bool = False) -> str:
        """A year (2021), a month ('2021-09') or a day, as ISO text; 'present' when allowed and written."""
        value = self.data.get(key)
        if value is None or value == "":
            return ""
        if isinstance(value, datetime.datetime):
            value = value.date()
        if isinstance(value, datetime.date):
            return value.isoformat()
        if isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 9999:
            return str(value)
        if isinstance(value, str):
            text = value.strip()
            if allow_present and text.lower() in PRESENT:
                return "present"
            if re.fullmatch(r"\d{4}", text) or (_MONTH.fullmatch(text) and 1 <= int(text[5:7]) <= 12) or (_DAY.fullmatch(text) and _valid(text)):
                return text
        also = " or present" if allow_present else ""
        self.problem(key, f"field '{key}': expected a year (2021), a month (2021-09) or a date (2021-09-24){also}, got {shown_value(value)}")
        return ""

    def url(self, key: str, value: Any = None) -> str:
        """A link: http(s), mailto, or a path inside the site."""
        value = self.data.get(key) if value is None else value
        if value is None or value == "":
            return ""
        if not isinstance(value, str):
            self.problem(key, f"field '{key}': expected a URL, got {shown_value(value)}")
            return ""
        return self.checked_url(key, value)

    def checked_url(self, key: str, value: str, name: str | None = None) -> str:
        """`value` as a link of field `key` (named `name` in messages: 'links.slides'), or "" when it is none."""
        name = name or key
        text = value.strip()
        if windows := windows_path(text):
            meant, said = windows
            if meant is None:
                self.problem(key, f"field '{name}': {said}")
                return ""
            self.warn(key, f"field '{name}': {said}")
            text = meant
        meant = mistyped_web_address(text)
        if url_scheme(text) not in LINK_SCHEMES or any(c.isspace() for c in text) or meant:
            hint = f": write '{meant}'" if meant else ""
            self.problem(key, f"field '{name}': expected an http(s) or mailto: URL or a path in the site, got {text!r}{hint}")
            return ""
        return text

    def links(self, key: str) -> dict[str, str]:
        """`links: {slides: URL, video: URL}`."""
        value = self.data.get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.problem(key, f"field '{key}': expected a mapping of kinds to URLs (slides: https://...), got {shown_value(value)}")
            return {}
        found = {}
        entries = Fields(value, self.path, self.problems, self.line_offset)  # a problem with a link names its line
        for kind, url in value.items():
            if not isinstance(url, str):
                entries.problem(kind, f"field '{key}': the link '{kind}' should be a URL, got {shown_value(url)}")
                continue
            checked = entries.checked_url(kind, url, f"{key}.{kind}")
            if checked:
                found[str(kind)] = checked
        self.failed = self.failed or entries.failed
        return found

    def link_lines(self, key: str) -> dict[str, int]:
        """The line of each link of `links(key)`."""
        value = self.data.get(key)
        entries = Fields(value, self.path, [], self.line_offset)
        return {str(kind): entries.line(kind) for kind in entries.data}


def _valid(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True
