"""A CV kept for another tool, as content/cv.yaml: JSON Resume (al-folio's `assets/json/resume.json`,
academicpages' `_data/cv.json`) or al-folio's own `_data/cv.yml`.

Positions, education and awards become sections of entries (title, org, location, start and end
or a date, details, url); the CV ends with the selected publications, as `sitegen init`'s does.
What has no place in an entry (skills, languages, al-folio's `map` and `list` sections) is named
in a note.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from sitegen.migrate import a_list, a_mapping, a_string, plain_text

WHEN = re.compile(r"\d{4}(?:-\d{2}(?:-\d{2})?)?")
SPAN = re.compile(r"\s*(\d{4})\s*[-–—]+\s*(\d{4}|present|now|today)?\s*", re.IGNORECASE)
PRESENT = ("present", "now", "today", "current")
PUBLICATIONS = {"title": "Publications", "publications": "selected"}


def json_resume_cv(data: dict[str, Any], source: str) -> tuple[dict[str, Any], list[str]]:
    """JSON Resume's `work`, `education` and `awards` as CV sections; the notes for the rest (`source`: its file)."""
    work = [
        entry(a_string(w.get("position")) or a_string(w.get("name")), org=a_string(w.get("name")) if a_string(w.get("position")) else "",
              location=a_string(w.get("location")), start=w.get("startDate"), end=w.get("endDate"), details=_details(w), url=a_string(w.get("url")))
        for w in map(a_mapping, a_list(data.get("work")))
    ]  # fmt: skip
    education = [
        entry(_degree(e) or a_string(e.get("institution")), org=a_string(e.get("institution")) if _degree(e) else "",
              start=e.get("startDate"), end=e.get("endDate"), url=a_string(e.get("url")))
        for e in map(a_mapping, a_list(data.get("education")))
    ]  # fmt: skip
    awards = [
        entry(a_string(a.get("title")), org=a_string(a.get("awarder")), date=a.get("date") or a.get("startdate"), details=a_string(a.get("summary")))
        for a in map(a_mapping, a_list(data.get("awards")))
    ]
    notes = [
        f"{source}: {name} not brought over into content/cv.yaml"
        for name in ("volunteer", "certificates", "skills", "languages", "interests", "projects")
        if data.get(name)
    ]
    return cv_document([("Positions", work), ("Education", education), ("Awards", awards)]), notes


def alfolio_cv(sections: list[Any]) -> tuple[dict[str, Any], list[str]]:
    """al-folio's `_data/cv.yml`: its `time_table` sections as CV sections; the notes for the others."""
    made: list[tuple[str, list[dict[str, str]]]] = []
    notes = []
    for section in map(a_mapping, sections):
        title = a_string(section.get("title"))
        if section.get("type") != "time_table":
            notes.append(f"_data/cv.yml: the section '{title}' ({a_string(section.get('type'))}) is not brought over into content/cv.yaml")
            continue
        entries = []
        for row in map(a_mapping, a_list(section.get("contents"))):
            start, end, date = _years(a_string(row.get("year")))
            names = [a_string(row.get("title"))] if a_string(row.get("title")) else [a_string(item) for item in a_list(row.get("items"))]
            details = "\n".join(f"- {line}" for line in _lines(row.get("description")))
            entries += [entry(name, org=a_string(row.get("institution")), start=start, end=end, date=date, details=details) for name in names]
        made.append((title, entries))
    return cv_document(made), notes


def cv_document(sections: list[tuple[str, list[dict[str, str]]]]) -> dict[str, Any]:
    """content/cv.yaml: the sections (title, entries) that have an entry, then the selected publications."""
    kept = [{"title": title, "entries": [e for e in entries if e]} for title, entries in sections]
    return {"sections": [section for section in kept if section["entries"]] + [PUBLICATIONS]}


def entry(
    title: str, org: str = "", location: str = "", start: Any = None, end: Any = None, date: Any = None, details: str = "", url: str = ""
) -> dict[str, str]:
    """A CV entry with what is known, in content/cv.yaml's fields ({} without a title)."""
    title = plain_text(title)
    if not title:
        return {}
    begins, ends, at = _when(start), _when(end, present=True), _when(date)
    if ends and not begins:  # an end alone is when it happened
        begins, ends, at = "", "", at or (ends if ends != "present" else "")
    if begins and ends and ends != "present" and ends < begins:
        ends = ""
    values = {"title": title, "org": plain_text(org), "location": plain_text(location), "start": begins, "end": ends, "date": "" if begins else at}
    values |= {"details": details.strip(), "url": url if url.startswith(("https://", "http://")) else ""}
    return {key: value for key, value in values.items() if value}


def _when(value: Any, present: bool = False) -> str:
    text = value.isoformat()[:10] if isinstance(value, datetime.date) else a_string(value)
    if present and text.lower() in PRESENT:
        return "present"
    return text if WHEN.fullmatch(text) else ""


def _years(text: str) -> tuple[str, str, str]:
    """al-folio's `year: 1933 - 1955`, `2019 - present` or `1905`: (start, end, date)."""
    if match := SPAN.fullmatch(text):
        return match.group(1), (match.group(2) or "present").lower(), ""
    return "", "", text.strip()


def _lines(description: Any) -> list[str]:
    """al-folio's description: text, or a list of texts and {title, contents} groups, as lines of text."""
    lines = []
    for item in a_list(description) or [description]:
        if isinstance(item, dict):
            lines += [a_string(item.get("title")), *(a_string(c) for c in a_list(item.get("contents")))]
        else:
            lines.append(a_string(item))
    return [line for line in lines if line]


def _degree(education: dict[str, Any]) -> str:
    study, area = a_string(education.get("studyType")), a_string(education.get("area"))
    return f"{study} in {area}" if study and area else study or area


def _details(work: dict[str, Any]) -> str:
    highlights = "\n".join(f"- {a_string(h)}" for h in a_list(work.get("highlights")) if a_string(h))
    return "\n\n".join(text for text in (a_string(work.get("summary")), highlights) if text)
