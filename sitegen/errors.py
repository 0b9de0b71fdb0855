"""Problems found in a site's content, with the place to blame.

Every stage reports what is wrong as `Problem`s instead of raising at the first
one, so that a user sees all mistakes of a run at once.
"""

from __future__ import annotations

import enum
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sitegen.values import value_class


class ExitStatus(enum.IntEnum):
    OK = 0
    CONTENT = 1  # the content or the source is wrong
    USAGE = 2  # the command line is wrong


@value_class(order=True)
class Location:
    path: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        parts = [self.path]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts) + ":"


@value_class
class Problem:
    """What is wrong (an error stops the command), may be (a warning: `--strict` stops on one), or is worth
    knowing (a note, which is also a warning but never stops a build: two entries of the user's files merged)."""

    message: str
    location: Location | None = None
    warning: bool = False
    note: bool = False  # with warning=True

    def __str__(self) -> str:
        prefix = f"{self.location} " if self.location else ""
        kind = "note: " if self.note else "warning: " if self.warning else ""
        return f"{prefix}{kind}{self.message}"


def strict_warnings(warnings: list[Problem]) -> list[Problem]:
    """The warnings `--strict` makes errors: all but the notes."""
    return [warning for warning in warnings if not warning.note]


class SitegenError(Exception):
    """Stops a command; carries every problem that made it stop."""

    def __init__(self, problems: list[Problem] | Problem | str):
        if isinstance(problems, str):
            problems = [Problem(problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class ContentError(SitegenError):
    """The site's content is wrong: exit status 1."""


def escaped(text: str, limit: int | None = None) -> str:
    """Text from outside (a content file, a server's answer) as a message shows it on a terminal: cut to `limit`
    characters (the last one '…') and every character that is not printable (ESC, BEL, a line break, U+202E)
    written as Python escapes it ('\\x1b'), so that it can neither run terminal commands nor break the line."""
    if limit is not None and len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def quoted(text: str, limit: int | None = None) -> str:
    """`escaped` text between single quotes: how a message quotes what someone else wrote."""
    return f"'{escaped(text, limit)}'"


SHOWN_VALUE = 80  # characters of a rejected value a message quotes


def shown_value(value: Any) -> str:
    """How a message names a value it rejects: a string as written (quoted; a long one cut short, as a pull request's
    5,000 characters would fill the terminal), a mapping or list by its kind."""
    if isinstance(value, str):
        return repr(value) if len(value) <= SHOWN_VALUE else quoted(value, SHOWN_VALUE)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {value!r}"


OUTPUT_FORMATS = ("text", "github", "json")


def problem_printer(output_format: str, site_dir: Path) -> Callable[[Problem], str]:
    """How a command prints a problem: `text`, the `path:line: message` line; `github`, that line as a GitHub Actions
    annotation, which a pull request's "Files changed" tab shows at the line it blames; `json`, one JSON object a line
    (`json_line`), for scripts."""
    if output_format == "json":
        return lambda problem: json_line(problem, site_dir)
    if output_format != "github":
        return str
    workspace = Path(os.environ.get("GITHUB_WORKSPACE") or Path.cwd())
    return lambda problem: github_annotation(problem, site_dir, workspace)


def json_line(problem: Problem, site_dir: Path) -> str:
    """`{"level": "warning", "file": "site/content/records/x.yaml", "line": 3, "column": null, "message": "...",
    "text": "content/records/x.yaml:3: warning: ..."}`: `file` is named from the current folder when it is a file of
    the site (else as the message names it, or null), `text` is the line `--output-format text` prints."""
    level = "note" if problem.note else "warning" if problem.warning else "error"
    location = problem.location
    file = None
    if location is not None:
        file = os.path.relpath(site_dir / location.path) if (site_dir / location.path).is_file() else location.path
    data = {
        "level": level,
        "file": file,
        "line": location.line if location is not None else None,
        "column": location.column if location is not None else None,
        "message": problem.message,
        "text": str(problem),
    }
    return json.dumps(data, ensure_ascii=False)


def info_line(output_format: str, text: str) -> str:
    """A command's summary ('built 10 pages in 0.3 s -> output') as `output_format` prints it: as it is, or as
    `{"level": "info", "message": ...}` in `json`, so that every line a script reads on stderr is JSON."""
    if output_format == "json":
        return json.dumps({"level": "info", "file": None, "line": None, "column": None, "message": text, "text": text}, ensure_ascii=False)
    return text


def github_annotation(problem: Problem, site_dir: Path, workspace: Path) -> str:
    """`::error file=content/records/x.yaml,line=3,title=sitegen::content/records/x.yaml:3: ...`: a workflow command
    (github.com/actions/toolkit, packages/core/src/command.ts: its escaping). The file is named from the repository's
    root (`GITHUB_WORKSPACE`), where a site in a subfolder (`--site site`) has its files; a location that is no file
    of the site (the cache, an option) annotates nothing but the run. The log shows the line as text shows it."""
    level = "notice" if problem.note else "warning" if problem.warning else "error"
    properties = []
    location = problem.location
    if location is not None and (site_dir / location.path).is_file():
        properties.append(f"file={_escaped_property(os.path.relpath(site_dir / location.path, workspace))}")
        if location.line is not None:
            properties.append(f"line={location.line}")
            if location.column is not None:
                properties.append(f"col={location.column}")
    properties.append("title=sitegen")
    text = f"{location} {problem.message}" if location is not None else problem.message  # the level says warning
    return f"::{level} {','.join(properties)}::{_escaped_data(text)}"


def _escaped_data(text: str) -> str:
    """A workflow command's message: '%', CR and LF escaped, so that no text of a site's files ends the command and
    starts another on a line of its own."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escaped_property(text: str) -> str:
    return _escaped_data(text).replace(":", "%3A").replace(",", "%2C")
