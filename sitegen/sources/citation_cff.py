"""CITATION.cff files as records: the Citation File Format, which GitHub's "Cite this repository" and Zenodo read.

A program's (or a dataset's) repository keeps its citation in `CITATION.cff`; copied under `content/records/`
(`content/records/fluxgrid/CITATION.cff`), it is a record of that program: its title, authors (a person's
`given-names` and `family-names`, an organisation's `name`), `version`, `date-released` (the record's date), `doi`
(or an `identifiers` entry of type doi), `license`, `keywords` (its subjects), `abstract`, and as links
`repository-code` (code), `url` (website), `repository-artifact` (package) and `repository` (html). Its
`preferred-citation`, the paper that describes the program (a JOSS paper, say), is a record too, merged with
the same paper of another file by its DOI.

The record's id is the file's name, or for a file named CITATION.cff its folder's
(`content/records/fluxgrid/CITATION.cff` is `fluxgrid`; its preferred citation `fluxgrid-paper`).
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from sitegen.errors import Location, Problem
from sitegen.load import PositionedDict, parse_yaml
from sitegen.names import family_with_particles
from sitegen.sources import PROJECT_FILE, Reader, ReadResult, register_reader

LINKS = {"repository-code": "code", "url": "website", "repository-artifact": "package", "repository": "html"}
WORK_TYPES = {"software": "software", "dataset": "dataset"}
# the types of a CFF reference (a preferred citation) -> sitegen's
REFERENCE_TYPES = {
    "article": "article",
    "magazine-article": "article",
    "newspaper-article": "article",
    "conference-paper": "inproceedings",
    "proceedings": "inproceedings",
    "thesis": "thesis",
    "report": "report",
    "book": "book",
    "chapter": "chapter",
    "software": "software",
    "software-code": "software",
    "data": "dataset",
    "database": "dataset",
    "patent": "patent",
}
_NOT_ID = re.compile(r"[^A-Za-z0-9._-]+")


def read_citation_cff(text: str, display_path: str) -> ReadResult:
    data, problem = parse_yaml(text, display_path)
    if problem:
        return [], [problem]
    if not isinstance(data, dict):
        return [], [Problem("expected a CITATION.cff: a mapping with cff-version, title, authors, ...", Location(display_path, 1))]
    problems: list[Problem] = []
    work_id = _id_of(display_path)
    work = _record(data, work_id, WORK_TYPES.get(str(data.get("type") or "software"), "software"), display_path, problems)
    records = [work] if work is not None else []
    preferred = data.get("preferred-citation")
    if isinstance(preferred, dict):
        paper = _record(preferred, f"{work_id}-paper", REFERENCE_TYPES.get(str(preferred.get("type") or ""), ""), display_path, problems)
        if paper is not None:
            records.append(paper)
    return records, problems


def _record(data: Any, record_id: str, kind: str, display_path: str, problems: list[Problem]) -> PositionedDict | None:
    """A record mapping of the CFF's work, or of one of its references (`preferred-citation`)."""
    record = PositionedDict()
    record.line = getattr(data, "line", 1) or 1
    record.key_lines = {}

    def line(key: str) -> int:
        return data.line_of(key) if isinstance(data, PositionedDict) else record.line

    def put(name: str, value: Any, key: str) -> None:
        if value not in (None, "", [], {}):
            record[name] = value
            record.key_lines[name] = line(key) if key else record.line

    put("id", record_id, "")
    put("title", data.get("title"), "title")
    put("authors", [name for person in data.get("authors") or [] if (name := _author(person))], "authors")
    released = data.get("date-released") or data.get("date-published")
    if isinstance(released, (datetime.date, str)):
        put("date", released, "date-released" if "date-released" in data else "date-published")
    elif isinstance(data.get("year"), int):
        put("year", data["year"], "year")
    else:
        problems.append(
            Problem(
                f"{'preferred-citation: ' if record_id.endswith('-paper') else ''}no date: write `date-released: 2024-03-14` "
                "(the release's day), which gives the record its year",
                Location(display_path, record.line),
            )
        )
        return None
    if kind:
        put("type", kind, "type")
    conference = data.get("conference")
    venue = data.get("journal") or (conference.get("name") if isinstance(conference, dict) else None)
    put("source", venue, "journal" if data.get("journal") else "conference")
    for field in ("volume", "issue"):
        if isinstance(data.get(field), (str, int)) and not isinstance(data.get(field), bool):
            put(field, str(data[field]), field)
    if data.get("start"):
        put("pages", "--".join(str(data[k]) for k in ("start", "end") if data.get(k)), "start")
    version = data.get("version")
    if isinstance(version, (str, int, float)) and not isinstance(version, bool):
        put("version", str(version), "version")
    put("doi", _doi(data), "doi" if data.get("doi") else "identifiers")
    licence = data.get("license")
    put("license", " OR ".join(map(str, licence)) if isinstance(licence, list) else licence, "license")
    keywords = data.get("keywords")
    put("categories", [str(k) for k in keywords if isinstance(k, (str, int))] if isinstance(keywords, list) else None, "keywords")
    put("abstract", data.get("abstract"), "abstract")
    links = {kind: data[key].strip() for key, kind in LINKS.items() if isinstance(data.get(key), str) and data[key].strip()}
    put("links", links, next((key for key in LINKS if key in data), ""))
    return record


def _author(person: Any) -> str:
    """'Family, Given' (with its particle and suffix, as BibTeX writes them); an organisation's name in braces."""
    if not isinstance(person, dict):
        return ""
    family = family_with_particles((str(person.get("name-particle") or ""),), str(person.get("family-names") or ""))
    if not family:
        name = str(person.get("name") or "").strip()
        return f"{{{name}}}" if name else ""
    parts = [family, str(person.get("name-suffix") or "").strip(), str(person.get("given-names") or "").strip()]
    return ", ".join(part for part in parts if part)


def _doi(data: Any) -> str | None:
    if isinstance(data.get("doi"), str):
        return data["doi"]
    for identifier in data.get("identifiers") or []:
        if isinstance(identifier, dict) and identifier.get("type") == "doi" and isinstance(identifier.get("value"), str):
            return identifier["value"]
    return None


def _id_of(display_path: str) -> str:
    """'content/records/fluxgrid/CITATION.cff' -> 'fluxgrid'; 'content/records/fluxgrid.cff' -> 'fluxgrid'."""
    parts = display_path.rsplit("/", 2)
    stem = parts[-1].rsplit(".", 1)[0]
    if stem.lower() == "citation" and len(parts) > 2 and parts[-2] != "records":
        stem = parts[-2]
    return _NOT_ID.sub("-", stem).strip("-") or "citation"


CFF = register_reader(Reader("cff", (".cff",), read_citation_cff, rank=PROJECT_FILE))
