"""schema.org JSON-LD and the machine-readable records.json."""

from __future__ import annotations

import json
from typing import Any

import orjson

from sitegen.model import Entry, Pieces, Site


def script_json(data: Any) -> str:
    """JSON that is safe inside <script>: no '<', '>' or '&' can close the tag."""
    text = orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def scholarly_article(entry: Entry, url: str, profile_url: str) -> dict[str, Any]:
    record = entry.record
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "ScholarlyArticle",
        "headline": entry.title.plain,
        "name": entry.title.plain,
        "url": url,
        "author": [{"@type": "Person", "name": a.name, **({"url": profile_url} if a.is_owner else {})} for a in entry.authors],
        "datePublished": record.date.isoformat() if record.date else str(record.year),
        "about": [s.name for s in entry.subjects],
    }
    if entry.abstract_plain:
        data["abstract"] = entry.abstract_plain
    if entry.source.plain:
        data["publisher"] = {"@type": "Organization", "name": entry.source.plain}
    same_as = [u for k, u in record.links.items() if k in ("abs", "doi")]
    if same_as:
        data["sameAs"] = same_as
    identifiers = []
    if record.doi:
        identifiers.append({"@type": "PropertyValue", "propertyID": "DOI", "value": record.doi})
    if record.arxiv:
        identifiers.append({"@type": "PropertyValue", "propertyID": "arXiv", "value": record.arxiv})
    if identifiers:
        data["identifier"] = identifiers
    return data


def person(site: Site, url: str, photo_url: str | None, links: list[str]) -> dict[str, Any]:
    profile = site.profile
    data: dict[str, Any] = {"@context": "https://schema.org", "@type": "Person", "name": profile.name, "url": url}
    if profile.position:
        data["jobTitle"] = profile.position
    if profile.affiliation:
        data["affiliation"] = {"@type": "Organization", "name": profile.affiliation}
    if profile.email:
        data["email"] = f"mailto:{profile.email}"
    if photo_url:
        data["image"] = photo_url
    if links:
        data["sameAs"] = links
    return data


def record_json(entry: Entry, url: str, links: dict[str, str]) -> bytes:
    """One record of records.json, as compact JSON in UTF-8 (cached per record between builds); `links`:
    the record's links as absolute URLs."""
    record = entry.record
    data = {
        "id": record.id,
        "url": url,
        "title": entry.title.plain,
        "title_latex": record.title,
        "authors": [a.name for a in entry.authors],
        "year": record.year,
        "date": record.date.isoformat() if record.date else None,
        "source": entry.source.plain,
        "abstract": entry.abstract_plain,
        "categories": list(record.categories),
        "links": links,
        "arxiv": record.arxiv,
        "doi": record.doi,
        "featured": record.featured,
        "cite_key": entry.cite_key,
    }
    return orjson.dumps(data)


def record_json_line(entry: Entry, url: str, links: dict[str, str]) -> bytes:
    """One record as it stands in records.json (indented, UTF-8): what the build cache keeps."""
    return b"    " + record_json(entry, url, links)


def records_json(site: Site, record_lines: list[bytes]) -> Pieces:
    """records.json: the profile's name, the count and every shown record (`record_json_line`), newest first."""
    head = json.dumps({"name": site.profile.name, "count": len(record_lines)}, ensure_ascii=False, indent=2)[:-2].encode()
    if not record_lines:
        return Pieces([head, b',\n  "records": []\n}\n'])
    parts = [head, b',\n  "records": [\n']
    for line in record_lines:
        parts += (line, b",\n")
    parts[-1] = b"\n  ]\n}\n"
    return Pieces(parts)
