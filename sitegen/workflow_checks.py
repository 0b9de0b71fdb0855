"""Workflows an older `sitegen init` wrote, that no longer do what the site needs.

`init` writes `.github/workflows/refresh-publications.yml` once; upgrading sitegen
(requirements.txt) leaves it as it was. Before ORCID, Crossref, OpenAlex and dblp
could be fetched, it put only `content/records/arxiv` in its pull request: with
one of those sources in profile.yaml, today's `sitegen fetch` in that workflow
writes their records every week and the pull request leaves them out, without a
word. `sitegen check` and `sitegen fetch` say so, at the workflow's line.
"""

from __future__ import annotations

import re
from pathlib import Path

from sitegen.errors import Location, Problem, SitegenError

REFRESH_WORKFLOW = ".github/workflows/refresh-publications.yml"
_ARXIV_ONLY = re.compile(r"^\s*add-paths:\s*['\"]?content/records/arxiv/?['\"]?\s*(?:#.*)?$")


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
