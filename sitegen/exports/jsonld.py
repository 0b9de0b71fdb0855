"""schema.org JSON-LD and the machine-readable records.json."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import orjson

from sitegen.cite import en_dashed, record_type
from sitegen.exports import joined, page_range
from sitegen.exports.bibtex import publication_status, record_details, work_licence, work_version
from sitegen.merge import work_sources
from sitegen.model import ARXIV_VERSION, Entry, Profile, Record, Site
from sitegen.names import is_organisation, shown_name, written_editors
from sitegen.notices import retracted, withdrawn


def script_json(data: Any) -> str:
    """JSON that is safe inside <script>: no '<', '>' or '&' can close the tag."""
    text = orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode()
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def owner_id(profile_url: str, organisation: bool = False) -> str:
    """The `@id` of whom the profile page is about (`#person`, a lab's `#organization`): the `mainEntity` of the
    page and the owner among a record's or a post's authors are then one node to a search engine."""
    return f"{profile_url}#{'organization' if organisation else 'person'}"


def profile_page(about: dict[str, Any], url: str) -> dict[str, Any]:
    """The page at `url` as Google's `ProfilePage`, whose required `mainEntity` is the person (or organisation)
    `about` (`person_json_ld`'s)."""
    entity = {key: value for key, value in about.items() if key != "@context"}
    return {"@context": "https://schema.org", "@type": "ProfilePage", "@id": url, "url": url, "mainEntity": entity}


def scholarly_article(entry: Entry, url: str, profile_url: str, image: str | None = None, summary: str = "", owner: str | None = None) -> dict[str, Any]:
    """A record page's `ScholarlyArticle` (a `Book`, `Thesis`, `Dataset`, ... for records of those types), shaped
    by Google's rules for Article rich results. An organisation among the authors is an `Organization`.

    Google requires no property of an Article and recommends `headline`, `author` (each a
    Person with `name`, the owner's with a `url`), `datePublished` (ISO 8601), `image` and
    `dateModified` (which a record does not have). A headline past 110 characters is cut
    short, as Google cuts it; `name` keeps the whole title. A field with nothing known is
    left out, not given empty. `image`: an absolute URL to show with the record, if any. A `Dataset` has a
    `description`, which Google's dataset search requires: the abstract, else `summary` (who, where, when).
    `owner`: the `@id` of the profile's person (`owner_id`), which the owner among the authors names.
    """
    record = entry.record
    owner_node = {"@id": owner or owner_id(profile_url), "url": profile_url}
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": _SCHEMA_TYPES.get(record_type(entry), "ScholarlyArticle"),
        "headline": _headline(entry.title.plain),
        "name": entry.title.plain,
        "url": url,
    }
    if entry.subjects:
        data["about"] = [s.name for s in entry.subjects]
    if entry.authors:
        written = record.authors if len(record.authors) == len(entry.authors) else [a.name for a in entry.authors]
        data["author"] = [
            {"@type": "Organization" if is_organisation(as_written) else "Person", "name": a.name, **(owner_node if a.is_owner else {})}
            for a, as_written in zip(entry.authors, written)
        ]
    if entry.editors:
        data["editor"] = [{"@type": "Person", "name": e.name, **(owner_node if e.is_owner else {})} for e in entry.editors]
    if entry.translators:
        data["translator"] = [{"@type": "Person", "name": t.name, **(owner_node if t.is_owner else {})} for t in entry.translators]
    if record.date or record.year:
        data["datePublished"] = _date_published(record)
    if image:
        data["image"] = image
    if entry.abstract_plain:
        data["abstract"] = entry.abstract_plain
    if data["@type"] == "Dataset" and (entry.abstract_plain or summary):  # Google's Dataset results require a description
        data["description"] = entry.abstract_plain or summary
    if entry.award:
        data["award"] = entry.award.plain
    if record.language:
        data["inLanguage"] = record.language  # schema.org's, a language tag
    venue = entry.source.plain.strip()
    details = record_details(record.extra)
    if venue:
        kind = record_type(entry)
        if kind in _VENUE_TYPES:  # the journal, proceedings or book it appeared in: not its publisher
            periodical = {"@type": _VENUE_TYPES[kind], "name": venue}
            data["isPartOf"] = _issue_of(periodical, details) if kind == "article" else periodical
        else:  # the repository, university or publisher that put it out
            data["publisher"] = {"@type": "Organization", "name": venue}
    if details.get("pages"):
        data.update(_pages(details["pages"]))
    version = work_version(record)
    if version:
        data["version"] = version  # schema.org's CreativeWork `version` (softwareVersion is SoftwareApplication's, not SoftwareSourceCode's)
    if data["@type"] == "SoftwareSourceCode" and (code := entry.links.get("code", "")).startswith(("https://", "http://")):
        data["codeRepository"] = code
    if licence := work_licence(record):
        data["license"] = _licence(licence)
    same_as = [u for k, u in entry.links.items() if k in ("abs", "doi")]
    if same_as:
        data["sameAs"] = same_as
    identifiers = []
    if record.doi:
        identifiers.append({"@type": "PropertyValue", "propertyID": "DOI", "value": record.doi})
    if record.arxiv:
        identifiers.append({"@type": "PropertyValue", "propertyID": "arXiv", "value": record.arxiv})
    for name, kind in (("pmid", "PMID"), ("pmcid", "PMCID")):
        if record.ids.get(name):
            identifiers.append({"@type": "PropertyValue", "propertyID": kind, "value": record.ids[name]})
    if identifiers:
        data["identifier"] = identifiers
    return data


def blog_posting(
    title: str,
    day: str,
    description: str,
    url: str,
    owner: str,
    profile_url: str,
    image: str | None = None,
    owner_node: str | None = None,
    language: str = "",
) -> dict[str, Any]:
    """A blog post's `BlogPosting`: Google's Article rich result, as for a record, its author the site's owner
    (`owner_node`: its `@id`, `owner_id`'s); `image`: its picture's absolute URL; `language`: its language tag
    (schema.org's inLanguage), or ''."""
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": _headline(title),
        "name": title,
        "url": url,
        "datePublished": day,
        "author": [{"@type": "Person", "@id": owner_node or owner_id(profile_url), "name": owner, "url": profile_url}],
    }
    if description:
        data["description"] = description
    if image:
        data["image"] = image
    if language:
        data["inLanguage"] = language
    return data


_SPDX_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+-]*$")  # an SPDX licence identifier: 'BSD-3-Clause', 'CC-BY-4.0'


def _licence(licence: str) -> str | dict[str, str]:
    """schema.org's `license`, a URL or a CreativeWork: an address as it is, an SPDX identifier its SPDX page,
    other words the licence's name."""
    if licence.startswith(("https://", "http://")):
        return licence
    if _SPDX_ID.match(licence):
        return f"https://spdx.org/licenses/{licence}.html"
    return {"@type": "CreativeWork", "name": licence}


def _issue_of(periodical: dict[str, Any], details: dict[str, str]) -> dict[str, Any]:
    """Where in its journal an article stands, as schema.org nests it: the article is part of an issue, the issue
    of a volume, the volume of the journal (`PublicationIssue`, `PublicationVolume`, `Periodical`); a level the
    record does not name is left out."""
    part_of = periodical
    if details.get("volume"):
        part_of = {"@type": "PublicationVolume", "volumeNumber": details["volume"], "isPartOf": part_of}
    if details.get("number"):
        part_of = {"@type": "PublicationIssue", "issueNumber": details["number"], "isPartOf": part_of}
    return part_of


def _pages(pages: str) -> dict[str, str]:
    """`pagination` as written (a range with an en dash), and `pageStart`/`pageEnd` when it reads as a range."""
    first, last = page_range(pages)
    return {"pagination": en_dashed(pages), **({"pageStart": first, "pageEnd": last} if last else {})}


HEADLINE_LENGTH = 110  # Google's limit for an Article's headline
_SCHEMA_TYPES = {  # SPEC §7 record type -> schema.org type; an article, a paper, a preprint or other work is a ScholarlyArticle
    "book": "Book",
    "chapter": "Chapter",
    "thesis": "Thesis",
    "report": "Report",
    "software": "SoftwareSourceCode",
    "dataset": "Dataset",
}
_VENUE_TYPES = {"article": "Periodical", "inproceedings": "CreativeWork", "chapter": "Book", "other": "CreativeWork"}


def _date_published(record: Record) -> str:
    """ISO 8601's day, month (BibTeX's `month` without a day: 2022-08, as Scholar's tag says 2022/08) or year."""
    if record.date:
        return record.date.isoformat()
    month = record.extra.get("month")
    return f"{record.year:04d}-{month:02d}" if type(month) is int and 1 <= month <= 12 else f"{record.year:04d}"


def _headline(title: str) -> str:
    if len(title) <= HEADLINE_LENGTH:
        return title
    cut = title[: HEADLINE_LENGTH - 1]
    words = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return words.rstrip(" ,;:") + "…"


def person_json_ld(profile: Profile, url: str, image: str | None = None, same_as: Iterable[str] = (), with_email: bool = True) -> dict[str, Any]:
    """The profile page's `Person`: what search engines tie the person's papers and accounts to.

    `url`: the profile page; `image`: the photo's absolute URL; `same_as`: absolute URLs of the
    person's pages elsewhere (ORCID, Google Scholar, GitHub, ...), each given once.
    """
    data: dict[str, Any] = {"@context": "https://schema.org", "@type": "Person", "@id": owner_id(url), "name": profile.name, "url": url}
    # the other ways the name is written ('Taro Yamada' for '山田 太郎', 'L. Müller'): one person to a search engine
    shown = dict.fromkeys(shown_name(variant) for variant in profile.name_variants)  # 'M{\\"u}ller' is 'Müller'
    variants = [variant for variant in shown if variant.strip() and variant != shown_name(profile.name)]
    if variants:
        data["alternateName"] = variants
    if profile.position:
        data["jobTitle"] = profile.position
    if profile.affiliation:
        data["affiliation"] = {"@type": "Organization", "name": profile.affiliation}
    if profile.email and with_email:  # not with site.yaml's protect_email
        data["email"] = f"mailto:{profile.email}"
    if image:
        data["image"] = image
    links = [link for link in dict.fromkeys(same_as) if link and link != url]
    if links:
        data["sameAs"] = links
    return data


def organization_json_ld(profile: Profile, url: str, image: str | None = None, same_as: Iterable[str] = (), with_email: bool = True) -> dict[str, Any]:
    """The front page of a lab site (one with person files, SPEC §9): profile.yaml is the lab, an `Organization`
    (its affiliation the organisation it is part of), and its people have pages of their own."""
    data = person_json_ld(profile, url, image, same_as, with_email)
    data["@type"] = "Organization"
    data["@id"] = owner_id(url, organisation=True)
    data.pop("jobTitle", None)
    if "affiliation" in data:
        data["parentOrganization"] = data.pop("affiliation")
    if "image" in data:
        data["logo"] = data.pop("image")
    return data


def person(site: Site, url: str, photo_url: str | None, links: list[str]) -> dict[str, Any]:
    """`person_json_ld` of the site's profile, called as views.py calls it today."""
    return person_json_ld(site.profile, url, photo_url, links)


def record_json(entry: Entry, url: str, links: dict[str, str], image: str | None) -> bytes:
    """One record of records.json, as compact JSON in UTF-8 (cached per record between builds); `links`:
    the record's links as absolute URLs, `image` its picture's."""
    record = entry.record
    data = {
        "id": record.id,
        "url": url,
        "title": entry.title.plain,
        "title_latex": record.title,
        "authors": [a.name for a in entry.authors],
        "more_authors": bool(record.extra.get("et_al")),  # the authors named are the first of more (BibTeX's `and others`)
        "year": record.year,
        "date": record.date.isoformat() if record.date else None,
        "source": entry.source.plain,
        "venue_short": entry.venue_short.plain if entry.venue_short else None,
        "abstract": entry.abstract_plain,
        "categories": list(record.categories),
        "links": links,
        "arxiv": record.arxiv,
        "doi": record.doi,
        "featured": record.featured,
        "retracted": retracted(record),
        "withdrawn": withdrawn(record),
        "award": entry.award.plain if entry.award else None,
        "status": publication_status(record) or None,  # "Forthcoming", "Revise and resubmit, ..."
        "image": image,
        "cite_key": entry.cite_key,
        "aliases": list(record.aliases),
        "type": record.type,
        "citations": record.citations,
        "sources": list(work_sources(record)),
        "ids": record_ids(record),
        "details": json_details(record),
    }
    return orjson.dumps(data)


def json_details(record: Record) -> dict[str, Any]:
    """What the record's BibTeX entry says beyond the fields records.json has: volume, number, pages (a range with an en dash),
    publisher and the like under BibTeX's names, a program's or a dataset's `version`, `editors` (names as readers see them) and, for a
    record with no `date` to hold it, `month` (a .bib file's `month = jul`: 7)."""
    details: dict[str, Any] = dict(record_details(record.extra))
    version = work_version(record)
    if version:
        details["version"] = version
    if licence := work_licence(record):
        details["license"] = licence
    if "pages" in details:
        details["pages"] = en_dashed(details["pages"])  # '1000-1010' as '1000–1010' (a .bib file's `--` is read so)
    for field in ("editors", "translators"):
        people = written_editors(record.extra, field)
        if people:
            details[field] = [shown_name(name) for name in people]
    month = record.extra.get("month")
    if record.date is None and (type(month) is int or (isinstance(month, str) and month.strip())):
        details["month"] = month.strip() if isinstance(month, str) else month
    return details


def record_ids(record) -> dict[str, str]:
    """Every identifier of the work (SPEC §6): doi, arxiv, openalex, dblp and the others sources gave; a DOI in
    lower case and an arXiv id without its version, as two records are found to be one work by them (the record's
    `doi` and `arxiv` keep what was written)."""
    ids = {name: value for name, value in sorted(record.ids.items()) if value}
    if record.doi:
        ids["doi"] = record.doi
    if record.arxiv:
        ids["arxiv"] = record.arxiv
    return {name: _id_key(name, value) for name, value in sorted(ids.items())}


def _id_key(name: str, value: str) -> str:
    """`value` of identifier `name` (`doi`, `doi_preprint`, `arxiv`, ...) as it is compared."""
    kind = name.split("_", 1)[0]
    if kind == "doi":
        return value.lower()
    if kind == "arxiv":
        return ARXIV_VERSION.sub("", value)
    return value


def record_json_line(entry: Entry, url: str, links: dict[str, str], image: str | None) -> bytes:
    """One record as it stands in records.json (indented, UTF-8): what the build cache keeps."""
    return b"    " + record_json(entry, url, links, image)


RECORDS_JSON_VERSION = 1  # raised when a field of records.json is removed, renamed or changes (docs/records.schema.json)


def records_json(site: Site, record_lines: Iterable[bytes], count: int) -> bytearray:
    """records.json: its format's version, the profile's name, the count and every shown record (`record_json_line`),
    newest first."""
    head = json.dumps({"version": RECORDS_JSON_VERSION, "name": site.profile.name, "count": count}, ensure_ascii=False, indent=2)[:-2].encode()
    if not count:
        return bytearray(head + b',\n  "records": []\n}\n')
    return joined(record_lines, b",\n", head + b',\n  "records": [\n', b"\n  ]\n}\n")
