"""dblp as a fetcher: a person's publication list, by person id or by name once the user says which person.

`/pid/{pid}.xml` holds the whole list in one answer (every `<r>` a
publication). A name (`--dblp-name`) is looked up with the author search API
(`/search/author/api?format=json`); when several people carry it, each is
described from their own list (affiliation, years, works, top co-authors) and
the user picks one. dblp tells namesakes apart with a four-digit suffix
("Sheng Lin 0003"), which is not part of anybody's name and is dropped.

No client library: the dblp packages on PyPI scrape the website or wrap the
search API only; one XML document per person is read here with lxml, entities
and network access off.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sitegen.fetch import Ask, FetchContext, Fetched, counted, one_line, where_asked
from sitegen.record_types import doi_url, openreview_kind
from sitegen.sources import CATALOGUE, Fetcher, FetchOption, register_fetcher
from sitegen.sources.crossref import arxiv_from_doi, bare_doi

if TYPE_CHECKING:
    import requests

    from sitegen.disambiguate import Candidate
    from sitegen.sources.http import Answer, PoliteSession, Shape

NAME = "dblp"
LABEL = "dblp"
ENV_API_URL = "SITEGEN_DBLP_API"
DEFAULT_API_URL = "https://dblp.org"
DEFAULT_DELAY = 1.0  # dblp throttles clients that ask faster
HITS = 30  # people per author search
PID = re.compile(r"^[a-z0-9]+/[A-Za-z0-9\-_=]+$")
SEARCH: Shape = {"result": dict, "result.hits": dict}  # an author search's answer (sitegen.sources.http.expect_shape)
HOMONYM = re.compile(r"\s+\d{4}$")  # "Sheng Lin 0003": dblp's number for one of several namesakes
CORR = re.compile(r"^abs/(?P<id>.+)$")
KINDS = {  # dblp record elements -> SPEC §7 record types
    "article": "article",
    "inproceedings": "inproceedings",
    "proceedings": "book",
    "book": "book",
    "incollection": "chapter",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "data": "dataset",
}


def normalise_pid(value: str) -> str:
    """'https://dblp.org/pid/13/7777-3.html' -> '13/7777-3'."""
    text = re.sub(r"^(https?://)?(www\.)?dblp\.(org|uni-trier\.de)/pid/", "", value.strip())
    text = re.sub(r"\.(html|xml|bib)$", "", text).strip("/")
    if not PID.match(text):
        raise ValueError(f"{value!r} is not a dblp person id (like 13/7777-3, from dblp.org/pid/13/7777-3); to find one by name, use --dblp-name")
    return text


def person_name(name: str) -> str:
    return HOMONYM.sub("", one_line(name))


def _texts(element: Any, tag: str) -> list[str]:
    return [one_line("".join(child.itertext())) for child in element.findall(tag)]


def record_from_entry(entry: Any) -> dict[str, Any]:
    """One dblp publication (the element inside `<r>`) as a record mapping."""
    key = entry.get("key", "")
    informal = entry.get("publtype") == "informal"
    authors = [person_name(a) for a in _texts(entry, "author") or _texts(entry, "editor")]
    years = _texts(entry, "year")
    journal, volume = (_texts(entry, "journal") or [""])[0], (_texts(entry, "volume") or [""])[0]
    electronic = _texts(entry, "ee")
    doi = next((d for d in (bare_doi(e) for e in electronic) if d), None)
    corr = CORR.match(volume) if journal == "CoRR" else None
    arxiv = corr.group("id") if corr else arxiv_from_doi(doi)
    record: dict[str, Any] = {
        "id": key,
        "title": re.sub(r"\.$", "", one_line("".join(entry.find("title").itertext())) if entry.find("title") is not None else ""),
        "authors": authors,
        "year": int(years[0]) if years and years[0].isdigit() else None,
    }
    venue = journal or (_texts(entry, "booktitle") or _texts(entry, "school") or _texts(entry, "publisher") or [""])[0]
    if venue:
        record["source"] = venue
    kind = KINDS.get(entry.tag, "other")
    if entry.tag == "data" and entry.get("publtype") == "software":
        kind = "software"
    record["type"] = "preprint" if informal and (corr or kind == "article") else kind
    record["links"] = _links(key, electronic, doi, arxiv)
    if doi:
        record["doi"] = doi
    if arxiv:
        record["arxiv"] = arxiv
    record["ids"] = {"dblp": key, **({"doi": doi} if doi else {}), **({"arxiv": arxiv} if arxiv else {})}
    for tag, field in (("volume", "volume"), ("number", "issue"), ("pages", "pages")):
        value = _texts(entry, tag)
        if value and not (tag == "volume" and corr):
            record[field] = value[0]
    return record


def _links(key: str, electronic: list[str], doi: str | None, arxiv: str | None) -> dict[str, str]:
    links = {}
    if arxiv:
        links["abs"] = f"https://arxiv.org/abs/{arxiv}"
    if doi:
        links["doi"] = doi_url(doi)
    for url in electronic:
        if url.startswith(("https://", "http://")) and not bare_doi(url) and "pdf" not in links:
            links[openreview_kind(url) or ("pdf" if url.lower().endswith(".pdf") else "url")] = url
    links["dblp"] = f"https://dblp.org/rec/{key}.html"
    return links


def person_list(session: PoliteSession, api: str, pid: str) -> Any:
    return session.fetch(f"{api}/pid/{quote(pid, safe='/')}.xml", f"dblp person {pid}", judge=judge_person)


def judge_person(response: requests.Response) -> Answer:
    """A person's list: well-formed XML whose root is `<dblpperson>`. Another document (a maintenance page
    that happens to be well-formed) is no list of nobody's publications: it is final, and says what it was."""
    from sitegen.sources.http import Answer, judge_xml, page_words

    answer = judge_xml(response)
    if answer.ok and answer.data.tag != "dblpperson":
        return Answer(False, reason=f"not a dblp answer (root element {answer.data.tag!r}: {page_words(response.content)})")
    return answer


def records_of(tree: Any) -> list[dict[str, Any]]:
    return [record_from_entry(entry) for r in tree.findall("r") for entry in r[:1]]


def owner_names(tree: Any) -> list[str]:
    names = [tree.get("name", "")] + _texts(tree, "person/author") + _texts(tree, "person/alias")
    return [person_name(n) for n in dict.fromkeys(names) if n]


def candidate(session: PoliteSession, api: str, hit: dict[str, Any]) -> Candidate:
    """What tells this person from namesakes, read from their own list when dblp has it."""
    from sitegen.disambiguate import Candidate, name_key
    from sitegen.sources.http import Answer

    info = hit.get("info") or {}
    pid = normalise_pid(str(info.get("url", "")))
    notes = _as_list((info.get("notes") or {}).get("note"))
    affiliation = "; ".join(one_line(n.get("text", "")) for n in notes if n.get("@type") == "affiliation")
    note = "dblp's catch-all profile of this name (papers of people not yet told apart)" if any(n.get("@type") == "disambiguation" for n in notes) else ""
    person = Candidate(pid, one_line(info.get("author", "")), affiliation, note=note)

    def missing_is_fine(response: Any) -> Answer:
        return Answer(True, data=None) if response.status_code == 404 else judge_person(response)

    tree = session.fetch(f"{api}/pid/{quote(pid, safe='/')}.xml", f"dblp person {pid}", judge=missing_is_fine)
    if tree is None:
        person.note = (person.note + "; " if person.note else "") + "dblp has no list for this id"
        return person
    records = records_of(tree)
    own = {name_key(n) for n in owner_names(tree)}
    counts = Counter(a for r in records for a in r["authors"] if name_key(a) not in own)
    years = sorted(r["year"] for r in records if r.get("year"))
    person.works = len(records)
    person.years = f"{years[0]}–{years[-1]}" if years else ""
    person.coauthors = [name for name, _ in counts.most_common(5)]
    return person


def _as_list(value: Any) -> list[Any]:
    """dblp's JSON makes a list of one an object."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def find_person(session: PoliteSession, api: str, name: str, context: FetchContext) -> str | None:
    """The pid of the person called `name`: the only match, or the one the user picks; None when nobody has
    that name (a search that finds nothing is no failure: `fetch` says so)."""
    from sitegen.disambiguate import candidate_lines, name_key

    answer = session.fetch(f"{api}/search/author/api", f"dblp author search {name!r}", params={"q": name, "format": "json", "h": str(HITS)}, shape=SEARCH)
    hits = [hit for hit in _as_list(answer["result"]["hits"].get("hit")) if isinstance(hit, dict)]
    wanted = name_key(name)

    def named(hit: dict[str, Any]) -> bool:
        info = hit.get("info") or {}
        names = [info.get("author", ""), *_as_list((info.get("aliases") or {}).get("alias"))]
        return any(name_key(person_name(str(n))) == wanted for n in names)

    found = [h for h in hits if named(h)]
    if not found:
        return None
    if len(found) == 1:
        pid = normalise_pid(str((found[0].get("info") or {}).get("url", "")))
        context.progress.line(f"dblp: {name!r} is {pid} (the only person of that name)")
        return pid
    candidates = [candidate(session, api, hit) for hit in found]
    lines = candidate_lines("dblp", name, candidates, "--dblp", "dblp")
    return context.choose(NAME, candidates, lines)


def fetch(asks: list[Ask], context: FetchContext) -> Fetched:
    """Asks: `pid` (checked already) and `name` (a name to look up)."""
    from sitegen.sources.http import PoliteSession

    settings = context.settings(NAME, ENV_API_URL, DEFAULT_API_URL, DEFAULT_DELAY, page_size=HITS)
    session = PoliteSession(settings, context.progress, LABEL)
    result = Fetched(records=[])
    pids = {a.value: where_asked(asks, a.value, "pid") for a in asks if a.kind == "pid"}
    for ask in (a for a in asks if a.kind == "name"):
        found = find_person(session, settings.api_url, ask.value, context)
        if found is None:
            result.answered(f"dblp author search {ask.value!r}", ask.where, 0, "nobody of that name (check the spelling, or give the person id with --dblp)")
        else:
            pids.setdefault(found, ask.where)
    seen: set[str] = set()
    for pid, where in pids.items():
        tree = person_list(session, settings.api_url, pid)
        records = records_of(tree)
        context.progress.line(f"dblp: {pid}: {counted(len(records), 'publication')}")
        result.answered(f"dblp publications of {pid}", where, len(records))
        result.owner_names += owner_names(tree)
        for record in records:
            if record["id"] not in seen:
                seen.add(record["id"])
                result.records.append(record)
    result.requests = session.requests_sent
    return result


register_fetcher(
    Fetcher(
        NAME,
        fetch,
        rank=CATALOGUE,
        label="dblp",
        api_env=ENV_API_URL,
        options=(
            FetchOption(
                "--dblp",
                "pid",
                "PID",
                "dblp: the publications of this person id (13/7777-3); repeatable",
                profile_key="dblp",
                person_key=True,
                check=normalise_pid,
            ),
            FetchOption("--dblp-name", "name", "NAME", "dblp: find the person by name (asks which one when several match)"),
        ),
    )
)
