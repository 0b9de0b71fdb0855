"""ORCID as a fetcher: the works of an ORCID iD, from the public API (v3.0).

Three kinds of request, all JSON (`Accept: application/vnd.orcid+json`):
`/{iD}/person` (the owner's names), `/{iD}/works` (the summaries, grouped by
work), and `/{iD}/works/{put-code,...}` (full works, up to 100 a request: the
bulk form, so a record of 250 works takes three requests, not 250). Each group
is one work and one record: its preferred summary (the highest display index,
as ORCID shows it) gives the text, and the group's identifiers are all kept.

No client library: the ORCID packages on PyPI either need OAuth credentials for
the public API or fetch one work per request; three URL templates on the shared
polite session are less code than adapting one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sitegen.fetch import Ask, FetchContext, Fetched, counted, one_line, where_asked
from sitegen.sources import SUMMARY, Fetcher, FetchOption, register_fetcher
from sitegen.sources.crossref import arxiv_from_doi, bare_doi

if TYPE_CHECKING:
    from sitegen.sources.http import PoliteSession, Shape

NAME = "orcid"
LABEL = "ORCID"
ENV_API_URL = "SITEGEN_ORCID_API"
DEFAULT_API_URL = "https://pub.orcid.org/v3.0"
DEFAULT_DELAY = 0.1  # the public API allows 24 requests a second
BULK_MAX = 100  # put-codes per bulk request: ORCID's limit
NAME_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})  # 'King, Jr.': no given name after the comma
ACCEPT = {"Accept": "application/vnd.orcid+json"}
# what each answer must hold (sitegen.sources.http.expect_shape): an ORCID error page or a proxy's is no list of works
PERSON: Shape = {}
WORKS: Shape = {"group": list, "group[]": dict}
BULK: Shape = {"bulk": list, "bulk[]": dict}
ORCID_ID = re.compile(r"^(\d{4})-?(\d{4})-?(\d{4})-?(\d{3}[\dX])$")
ORCID_ADDRESS = re.compile(r"^(HTTPS?://)?(WWW\.)?ORCID\.ORG/", re.IGNORECASE)  # before an iD written as its address
TYPES = {  # ORCID work types -> SPEC §7 record types
    "journal-article": "article",
    "magazine-article": "article",
    "newspaper-article": "article",
    "review": "article",
    "journal-issue": "article",
    "conference-paper": "inproceedings",
    "conference-abstract": "inproceedings",
    "conference-poster": "inproceedings",
    "preprint": "preprint",
    "working-paper": "report",
    "report": "report",
    "dissertation-thesis": "thesis",
    "dissertation": "thesis",
    "book": "book",
    "edited-book": "book",
    "book-chapter": "chapter",
    "encyclopedia-entry": "chapter",
    "patent": "patent",
    "invention": "patent",
    "technical-standard": "report",  # an RFC, an IEEE or ISO standard: Crossref's and OpenAlex's `standard` are reports too
    "standards-and-policy": "report",
    "manual": "report",  # BibTeX's @manual
    "software": "software",
    "data-set": "dataset",
    "data-management-plan": "other",
}


# ORCID's types of a talk: no publication (a talk is no record, SPEC §7), left out of the records with a word
TALK_TYPES = frozenset({"lecture-speech", "conference-presentation", "public-speech"})


def looks_like_orcid(value: str) -> bool:
    """Is `value` written as an ORCID iD (its address, or 16 digits), a valid one or not (`normalise_orcid` says)?"""
    text = value.strip().upper()
    return bool(ORCID_ADDRESS.match(text) or ORCID_ID.match(text))


def normalise_orcid(value: str) -> str:
    """'https://orcid.org/0000-0002-1825-0097' or '0000000218250097' -> '0000-0002-1825-0097', its check digit checked."""
    text = ORCID_ADDRESS.sub("", value.strip().upper()).strip("/")
    match = ORCID_ID.match(text)
    if not match:
        raise ValueError(f"{value!r} is not an ORCID iD (16 digits like 0000-0002-1825-0097)")
    digits = "".join(match.groups())
    expected = check_digit(digits[:15])
    if digits[15] != expected:
        raise ValueError(f"{value!r} is not a valid ORCID iD: its last character (the check digit) should be {expected}; is a digit mistyped?")
    return "-".join(match.groups())


def check_digit(base: str) -> str:
    """ISO 7064 MOD 11-2 over the first 15 digits, as ORCID computes it."""
    total = 0
    for digit in base:
        total = (total + int(digit)) * 2
    result = (12 - total % 11) % 11
    return "X" if result == 10 else str(result)


def _value(node: Any, *path: str) -> Any:
    """`node[path...]['value']`-style lookups where any level may be null."""
    for key in path:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def owner_names(person: dict[str, Any]) -> list[str]:
    name = person.get("name") or {}
    given, family = _value(name, "given-names", "value"), _value(name, "family-name", "value")
    names = [_value(name, "credit-name", "value"), " ".join(n for n in (given, family) if n)]
    names += [o.get("content") for o in (_value(person, "other-names", "other-name") or []) if isinstance(o, dict)]
    return [one_line(n) for n in dict.fromkeys(names) if n and str(n).strip()]


def given_name_first(credit_name: str) -> str:
    """A contributor's credit name as a page shows names: 'Lin, Sheng' (as some ORCID users and
    their reference managers write it) is 'Sheng Lin', as dblp's 'Sheng Lin 0003' and a .bib
    file's 'Lin, Sheng' become. A suffix after the comma ('King, Jr.') or a longer text
    (an organisation's) is kept as written."""
    name = one_line(credit_name)
    family, _, given = name.partition(",")
    family, given = family.strip(), given.strip()
    if "," in given or not family or not given or given.lower().rstrip(".") in NAME_SUFFIXES:
        return name
    if len(family.split()) > 3 or len(given.split()) > 3:
        return name
    return f"{given} {family}"


def preferred(group: dict[str, Any]) -> dict[str, Any]:
    """The summary ORCID shows for a work: the highest display index, the first on a tie."""
    summaries = group.get("work-summary") or []
    return max(summaries, key=lambda s: int(str(s.get("display-index") or 0) or 0), default={})


def external_ids(*holders: Any) -> dict[str, str]:
    """Every self identifier of a work (type -> value), from the group and the work, normalised."""
    found: dict[str, str] = {}
    for holder in holders:
        for ext in _value(holder, "external-ids", "external-id") or []:
            if not isinstance(ext, dict) or ext.get("external-id-relationship") not in (None, "self", "version-of"):
                continue
            kind = str(ext.get("external-id-type") or "").lower()
            value = str(ext.get("external-id-value") or "").strip()
            if not kind or not value or kind in found:
                continue
            if kind == "doi":
                value = bare_doi(value) or value
            elif kind == "arxiv":
                value = re.sub(r"v\d+$", "", re.sub(r"(?i)^arxiv:", "", value))
            found[kind] = value
    return found


def work_date(work: dict[str, Any]) -> tuple[int | None, str | None]:
    date = work.get("publication-date") or {}
    year, month, day = (_value(date, part, "value") for part in ("year", "month", "day"))
    if not year or not str(year).isdigit():
        return None, None
    if month and day:
        return int(year), f"{int(year):04d}-{int(month):02d}-{int(day):02d}"
    return int(year), None


def record_from_work(work: dict[str, Any], group: dict[str, Any], owner: list[str], orcid: str | None = None) -> dict[str, Any]:
    """One ORCID work (full, or its summary when the full one is missing) as a record mapping.

    `orcid`: the iD whose works these are. The record says which author it is (`author_ids`),
    as it says of every contributor whose iD the work gives, so that a people directory ties
    the record to the member with that iD under any spelling (SPEC §9).
    """
    import datetime

    put_codes = [str(s.get("put-code")) for s in group.get("work-summary") or [] if s.get("put-code")]
    ids = external_ids(group, work)
    title = one_line(_value(work, "title", "title", "value") or "")
    subtitle = _value(work, "title", "subtitle", "value")
    if subtitle:
        title = f"{title}: {one_line(subtitle)}"
    year, date = work_date(work)
    contributors = [
        (given_name_first(_value(c, "credit-name", "value")), _value(c, "contributor-orcid", "path"))
        for c in _value(work, "contributors", "contributor") or []
        if _value(c, "credit-name", "value") and _value(c, "contributor-attributes", "contributor-role") in (None, "author", "AUTHOR")
    ]
    authors = [name for name, _ in contributors] or owner[:1]
    venue = one_line(_value(work, "journal-title", "value") or "") or ("arXiv" if "arxiv" in ids else "")
    record: dict[str, Any] = {
        "id": f"orcid-{work.get('put-code')}",
        "title": title,
        "authors": authors,
        "year": year,
    }
    author_ids = authors_orcids(contributors, authors, owner, orcid)
    if author_ids:
        record["author_ids"] = author_ids
    if date:
        record["date"] = datetime.date.fromisoformat(date)
    if venue:
        record["source"] = venue
    if work.get("short-description"):
        record["abstract"] = str(work["short-description"]).strip()
    record["type"] = TYPES.get(str(work.get("type") or "").lower(), "other")
    record["links"] = _links(ids, _value(work, "url", "value"))
    if "doi" in ids:
        record["doi"] = ids["doi"]
    arxiv = ids.get("arxiv") or arxiv_from_doi(ids.get("doi"))
    if arxiv:
        record["arxiv"] = arxiv
    record["ids"] = {"orcid": str(work.get("put-code")), **{k: v for k, v in ids.items() if k != "orcid"}}
    if record["type"] == "patent" and ids.get("pat"):
        record["number"] = ids["pat"]  # ORCID's patent number ('US11503892B2'): the number its lists name it by
    if len(put_codes) > 1:
        record["put_codes"] = put_codes
    source_name = _value(work, "source", "source-name", "value")
    if source_name:
        record["orcid_source"] = one_line(source_name)
    return {k: v for k, v in record.items() if v not in (None, "", [], {})}


def authors_orcids(contributors: list[tuple[str, Any]], authors: list[str], owner: list[str], orcid: str | None) -> dict[str, str]:
    """Author name (as the record writes it) -> ORCID iD: each contributor's that the work gives, and the
    owner's (the iD whose works these are) on the author who bears one of the owner's names."""
    found: dict[str, str] = {}
    for name, given in contributors:
        if not given:
            continue
        try:
            found.setdefault(name, normalise_orcid(str(given)))
        except ValueError:
            continue  # not an iD: the record says nothing of this author
    if orcid and orcid not in found.values():
        from sitegen.people.names import person_key

        owner_keys = {person_key(n) for n in owner}
        owner_as_written = next((a for a in authors if person_key(a) in owner_keys), None)
        if owner_as_written is not None:
            found.setdefault(owner_as_written, orcid)
    return found


def _links(ids: dict[str, str], url: str | None) -> dict[str, str]:
    links = {}
    if ids.get("arxiv"):
        links["abs"] = f"https://arxiv.org/abs/{ids['arxiv']}"
    if ids.get("doi"):
        links["doi"] = f"https://doi.org/{ids['doi']}"
    if url and url.startswith(("https://", "http://")) and not any(url.rstrip("/").startswith(v.rstrip("/")) for v in links.values()):
        links["url"] = url
    return links


def fetch_orcid(session: PoliteSession, api: str, orcid: str, progress: Any) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """The records of one ORCID iD, the owner's names, and warnings."""
    person = session.fetch(f"{api}/{orcid}/person", f"ORCID record {orcid}", headers=ACCEPT, shape=PERSON)
    owner = owner_names(person)
    summary = session.fetch(f"{api}/{orcid}/works", f"ORCID works of {orcid}", headers=ACCEPT, shape=WORKS)
    groups = [g for g in summary["group"] if g.get("work-summary")]
    chosen = [str(preferred(g).get("put-code")) for g in groups]
    progress.line(f"ORCID: {orcid}: {counted(len(groups), 'work')}")
    full: dict[str, dict[str, Any]] = {}
    warnings = []
    for start in range(0, len(chosen), BULK_MAX):
        chunk = chosen[start : start + BULK_MAX]
        bulk = session.fetch(f"{api}/{orcid}/works/{','.join(chunk)}", f"ORCID works {start + 1}-{start + len(chunk)} of {orcid}", headers=ACCEPT, shape=BULK)
        for item in bulk["bulk"]:
            if isinstance(item.get("work"), dict):
                full[str(item["work"].get("put-code"))] = item["work"]
            elif item.get("error"):
                warnings.append(f"warning: ORCID {orcid}: {one_line(item['error'].get('developer-message', ''))}; using the work's summary")
        progress.line(f"ORCID: {orcid}: details of {min(start + len(chunk), len(chosen))} of {len(chosen)} works")
    works = [full.get(code) or preferred(group) for code, group in zip(chosen, groups, strict=True)]
    records = [record_from_work(work, group, owner, orcid) for work, group in zip(works, groups, strict=True) if not is_talk(work)]
    talks = [one_line(_value(work, "title", "title", "value") or "") for work in works if is_talk(work)]
    if talks:
        warnings.append(
            f"warning: ORCID {orcid}: {counted(len(talks), 'work')} of type talk left out, no publications: "
            f"{'; '.join(repr(title) for title in talks)}; add them to content/talks/ to list them"
        )
    return records, owner, warnings


def is_talk(work: dict[str, Any]) -> bool:
    """Is an ORCID work a talk (a lecture, a conference presentation), which a site lists under Talks, not as a record?"""
    return str(work.get("type") or "").lower() in TALK_TYPES


def fetch(asks: list[Ask], context: FetchContext) -> Fetched:
    """Asks: `orcid` (an iD, checked already)."""
    from sitegen.sources.http import PoliteSession

    settings = context.settings(NAME, ENV_API_URL, DEFAULT_API_URL, DEFAULT_DELAY, page_size=BULK_MAX)
    session = PoliteSession(settings, context.progress, LABEL)
    result = Fetched(records=[])
    for orcid in dict.fromkeys(a.value for a in asks if a.kind == "orcid"):
        records, owner, warnings = fetch_orcid(session, settings.api_url, orcid, context.progress)
        result.answered(f"ORCID works of {orcid}", where_asked(asks, orcid), len(records))
        result.records += records
        result.owner_names += owner
        result.warnings += warnings
    result.requests = session.requests_sent
    return result


register_fetcher(
    Fetcher(
        NAME,
        fetch,
        rank=SUMMARY,
        label="ORCID",
        api_env=ENV_API_URL,
        options=(
            FetchOption(
                "--orcid",
                "orcid",
                "ID",
                "ORCID: the works of this ORCID iD (0000-0002-1825-0097), and Crossref's works that name it; repeatable",
                profile_key="orcid",
                person_key=True,
                check=normalise_orcid,
            ),
        ),
    )
)
