"""Workflows an older `sitegen init` wrote, that no longer do what the site needs.

`init` writes `.github/workflows/refresh-publications.yml` once; upgrading sitegen
(requirements.txt) leaves it as it was. Before ORCID, Crossref, OpenAlex and dblp
could be fetched, it put only `content/records/arxiv` in its pull request: with
one of those sources in profile.yaml, today's `sitegen fetch` in that workflow
writes their records every week and the pull request leaves them out, without a
word. `sitegen check` and `sitegen fetch` say so, at the workflow's line.

The first `sitegen init` also wrote `sitegen~=0.1.0` into requirements.txt, before
the distribution was renamed sitegen-profiles: `sitegen` on PyPI is another
project, which the workflows would install (and a Git line naming today's
sitegen stops pip with "inconsistent name"). `sitegen check` and `sitegen build`
say so at that line, with the line to write; and at a line of UTF-16 that
PowerShell 5's `>>` appended, which pip cannot read.
"""

from __future__ import annotations

import re
from pathlib import Path

from sitegen.errors import Location, Problem, SitegenError
from sitegen.text_files import SAVE_UTF16_AS_UTF8, UTF16_BOMS

REFRESH_WORKFLOW = ".github/workflows/refresh-publications.yml"
REQUIREMENTS = "requirements.txt"
DISTRIBUTION = "sitegen-profiles"  # this sitegen's name on PyPI; its first version called itself `sitegen`, another project's name there
_REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(?=\s*(?:\[|@|[<>=!~;]|$))")
_COMMENT = re.compile(r"(?:^|\s)#.*$")  # pip's: a '#' at the start or after a space
_ARXIV_ONLY = re.compile(r"^\s*add-paths:\s*['\"]?content/records/arxiv/?['\"]?\s*(?:#.*)?$")


def requirements_text(data: bytes) -> tuple[str, Problem | None]:
    """requirements.txt's text as pip reads it (UTF-8, or what a byte order mark says: PowerShell 5's `>` writes
    UTF-16); a warning for a file that holds a NUL byte without such a mark: PowerShell 5's `>>` appends UTF-16 to a
    file of UTF-8 (the line `sitegen init` asks to add, for one), which pip reads as a requirement spelt with NULs
    and stops the deployment at ('Invalid requirement')."""
    if data.startswith(UTF16_BOMS):
        return data.decode("utf-16", errors="replace"), None
    if b"\x00" not in data:
        return data.decode("utf-8", errors="replace"), None
    line = data.count(b"\n", 0, data.index(b"\x00")) + 1
    said = "this line is UTF-16 (what PowerShell 5's >> appends), which pip cannot read: the workflows would stop at 'Invalid requirement'"
    return "", Problem(f"{said}; save the file as UTF-8{SAVE_UTF16_AS_UTF8}", Location(REQUIREMENTS, line), warning=True)


def arxiv_only_line(text: str) -> int | None:
    """The line of an older refresh workflow's `add-paths: content/records/arxiv`, if it has one."""
    for number, line in enumerate(text.splitlines(), start=1):
        if _ARXIV_ONLY.match(line):
            return number
    return None


def outdated_refresh_workflow(site: Path, other_sources: dict[str, str] | None = None) -> list[Problem]:
    """A warning when the site's refresh workflow commits only arXiv's records while other sources are fetched
    too: `other_sources` (source name -> where it is asked for, `content/profile.yaml:22: field 'orcid'`), by
    default those `sitegen fetch` without options asks."""
    path = site / REFRESH_WORKFLOW
    if not path.is_file() or not path.resolve().is_relative_to(site.resolve()):  # a link out of the site is not read
        return []
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    line = arxiv_only_line(text)
    if line is None:
        return []
    if other_sources is None:
        other_sources = fetched_sources(site)
    if not other_sources:
        return []
    asked = "; ".join(f"{source} ({where})" for source, where in sorted(other_sources.items()))
    return [
        Problem(
            "this workflow, written by an older `sitegen init`, puts only content/records/arxiv/ in its pull "
            f"request, so the records `sitegen fetch` writes for {asked} would be fetched every week and left out; "
            "take today's workflow: run `sitegen init NEW_FOLDER` and copy NEW_FOLDER/"
            f"{REFRESH_WORKFLOW} over this one (and NEW_FOLDER/.github/workflows/check.yml, if this site has none)",
            Location(REFRESH_WORKFLOW, line),
            warning=True,
        )
    ]


def fetched_sources(site: Path) -> dict[str, str]:
    """The sources other than arXiv that `sitegen fetch` without options asks, each with where the site asks for it."""
    from sitegen.fetch import asks_from_people, asks_from_profile, load_profile

    profile, document, problems = load_profile(site)
    if problems:
        return {}
    try:
        asks = asks_from_profile(document, profile) + asks_from_people(site)
    except SitegenError:  # a person's file that does not read: said where it is read
        return {}
    return other_sources(asks)


def other_sources(asks: list) -> dict[str, str]:
    """`sitegen fetch`'s asks (fetch.Ask) of sources other than arXiv: source name -> where the first is asked."""
    sources: dict[str, str] = {}
    for ask in asks:
        if ask.source != "arxiv":
            sources.setdefault(ask.source, ask.where)
    return sources


def requirements_problems(site: Path) -> list[Problem]:
    """A warning for what in the site's requirements.txt would stop or mislead the workflows' `pip install -r`: text
    pip cannot read (`requirements_text`), and each line that installs the distribution `sitegen`: the name
    the first version had, which on PyPI is an unrelated project (pip installs it, or refuses a Git line of ours)."""
    path = site / REQUIREMENTS
    if not path.is_file() or not path.resolve().is_relative_to(site.resolve()):  # a link out of the site is not read
        return []
    try:
        data = path.read_bytes()
    except OSError:
        return []
    text, unreadable = requirements_text(data)
    if unreadable is not None:
        return [unreadable]
    lines = text.splitlines()
    problems = []
    for number, line in enumerate(lines, start=1):
        requirement = _COMMENT.sub("", line).strip()
        name = _REQUIREMENT_NAME.match(requirement)
        if name is None or re.sub(r"[-_.]+", "-", name.group(1)).lower() != "sitegen":
            continue
        written = DISTRIBUTION + requirement[name.end(1) :]
        problems.append(
            Problem(
                f"'{requirement}' installs the distribution named sitegen, which on PyPI is another project: this sitegen "
                f"is {DISTRIBUTION} (its command is still `sitegen`), so the workflows would install that project, or "
                f"stop at pip's 'inconsistent name' for a Git line; write: {written}",
                Location(REQUIREMENTS, number),
                warning=True,
            )
        )
    return problems
