"""NASA ADS as a fetcher: the works ADS links to an ORCID iD, what an ADS query finds, or an ADS public library.

ADS (ui.adsabs.harvard.edu) is where astronomers keep their publication list: its records join a paper's
journal version and its arXiv e-print under one bibcode, and carry the ORCID iDs authors claimed. Three asks:

- `orcid` (`--ads`): `q=orcid:0000-...`, the works whose authors carry the iD as the publisher gave it
  (`orcid_pub`), as its owner claimed it in ADS (`orcid_user`) or as ADS matched it (`orcid_other`);
- `query` (`--ads-query`): an ADS query as written in ADS's search box (`author:"^Lin, S." year:2015-2024`):
  a name finds namesakes, so its records are a name search's (`Fetched.searched_ids`, `owner_names`);
- `library` (`--ads-library`): a public library's documents, by `/biblib/libraries/{id}`, which many
  astronomers curate as their list.

Searches are paged with `start` and `rows` until `response.numFound` is read, a library with `start` and
`rows` (at most 100, biblib's limit) until `metadata.num_documents`; each asks for the fields of `FIELDS`.

Every request needs a token: `ADS_API_TOKEN` from the environment (ui.adsabs.harvard.edu > Settings > API
Token), sent only as the `Authorization: Bearer` header and written nowhere (no file, no message: an error
quoting a server's words has it blotted out, `sitegen.sources.http.secret_hidden`). Without one, `check_asks`
says where to get one before any service is asked. ADS's `X-RateLimit-Remaining` and `X-RateLimit-Reset`
are honoured by the shared polite session.

No client library: the `ads` package (0.12) sends its requests through a `requests` session of its own,
outside the shared polite session, and reads its token from files of the home folder as well as the
environment; what is asked here is two URL templates, paged.
"""

from __future__ import annotations

import datetime
import html
import re
from typing import TYPE_CHECKING, Any

from sitegen.fetch import PEOPLE_FOLDER, Ask, FetchContext, Fetched, UsageError, check_settings, counted, line_of_field, one_line, setting_values, where_asked
from sitegen.sources import LIBRARY, Fetcher, FetchOption, register_fetcher

if TYPE_CHECKING:
    import requests

    from sitegen.sources.http import Answer, PoliteSession, Shape

NAME = "ads"
LABEL = "ADS"
ENV_API_URL = "SITEGEN_ADS_API"
ENV_TOKEN = "ADS_API_TOKEN"
DEFAULT_API_URL = "https://api.adsabs.harvard.edu/v1"
DEFAULT_DELAY = 1.0  # ADS counts requests per day (5000 a token); one a second keeps a run's few pages polite
SEARCH_PAGE = 200  # documents per search page (ADS allows 2000; a person's list is a few pages)
LIBRARY_PAGE = 100  # biblib's largest `rows`
MAX_QUERY = 1000  # characters: ADS refuses longer queries
TOKEN_HELP = "ui.adsabs.harvard.edu > Settings > API Token"
# the fields asked of every document
FIELDS = (
    "bibcode,title,author,orcid_pub,orcid_user,orcid_other,aff,abstract,pub,pub_raw,volume,issue,page,page_range,"
    "year,pubdate,doi,identifier,doctype,property,citation_count"
)
SEARCH: Shape = {"response": dict, "response.docs[]": dict}
LIBRARY_ANSWER: Shape = {"metadata": dict, "solr": dict, "solr.response.docs[]": dict}
LIBRARY_ID = re.compile(r"^[A-Za-z0-9_-]{22}$")  # a library's id: its UUID in URL-safe base64
LIBRARY_ADDRESS = re.compile(r"^(?:https?://)?ui\.adsabs\.harvard\.edu/(?:#)?(?:public-libraries|user/libraries)/([A-Za-z0-9_-]+)", re.IGNORECASE)
ARXIV_IDENTIFIER = re.compile(r"^arXiv:(\S+?)(?:v\d+)?$", re.IGNORECASE)
PROFILE_KEYS = {"orcid": "orcid", "query": "query", "library": "library"}  # `ads:` setting in profile.yaml -> the ask's kind
# ADS's doctypes -> record types (SPEC §7); a talk is no publication (see `LEFT_OUT`)
DOCTYPES = {
    "article": "article",
    "eprint": "preprint",
    "inproceedings": "inproceedings",
    "abstract": "other",  # a meeting abstract
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "book": "book",
    "proceedings": "book",
    "inbook": "chapter",
    "techreport": "report",
    "intechreport": "report",
    "catalog": "dataset",
    "software": "software",
    "erratum": "article",  # a correction: `notice: correction`, shown on the work it concerns
}
LEFT_OUT = {"talk": "a talk is no publication: add it to content/talks/ to show it"}


def normalise_orcid(value: str) -> str:
    """An ORCID iD ('https://orcid.org/0000-...', 'orcid:0000-...'), its check digit checked."""
    from sitegen.sources.orcid import normalise_orcid as checked_orcid

    return checked_orcid(re.sub(r"^orcid:\s*", "", value.strip(), flags=re.IGNORECASE))


def normalise_query(value: str) -> str:
    """An ADS query as the user writes it in ADS's search box, on one line; not empty, not too long."""
    text = one_line(value)
    if not text:
        raise ValueError('an empty ADS query: write it as in ADS\'s search box, e.g. author:"^Lin, S." year:2015-2024')
    if len(text) > MAX_QUERY:
        raise ValueError(f"an ADS query of {len(text)} characters: ADS takes at most {MAX_QUERY}")
    return text


def normalise_library(value: str) -> str:
    """A library's id, from itself or its address (ui.adsabs.harvard.edu/public-libraries/ID)."""
    text = value.strip()
    if found := LIBRARY_ADDRESS.match(text):
        text = found.group(1)
    if not LIBRARY_ID.match(text):
        raise ValueError(
            f"{value!r} is not an ADS library id: 22 letters, digits, '-' and '_', the end of the library's address (ui.adsabs.harvard.edu/public-libraries/ID)"
        )
    return text


CHECKS = {"orcid": normalise_orcid, "query": normalise_query, "library": normalise_library}


def api_token() -> str | None:
    from sitegen.sources.http import secret_from_env

    return secret_from_env(ENV_TOKEN)


def check_asks(asks: list[Ask]) -> None:
    """ADS answers nobody without a token: said before any service is asked, with where to get one."""
    if api_token() is None:
        raise UsageError(
            f"{asks[0].where}: ADS needs an API token: sign in at {TOKEN_HELP} (Generate a new key), and set it as "
            f"the environment variable {ENV_TOKEN} (in the weekly workflow, a repository secret of that name); nothing was fetched"
        )


def profile_asks(data: dict[str, Any], path: str) -> list[Ask]:
    """profile.yaml's `ads:` mapping (checked by `check_profile`) as asks: `orcid`, `query` and `library`, each one
    value or a list."""
    section = data.get(NAME)
    if not isinstance(section, dict):
        return []
    asks = []
    for key, kind in PROFILE_KEYS.items():
        where = f"{path}:{line_of_field(section, key)}: field '{NAME}.{key}'"
        asks += [Ask(NAME, kind, value, where) for value in setting_values(section, key) or () if value]
    return asks


def check_profile(fields: Any, path: str, problems: list[Any]) -> None:
    """`ads:` in profile.yaml (`sitegen.validate.Fields` of the profile): a mapping of `orcid`, `query` and
    `library`, each a string or a list; a key sitegen does not know is a warning naming the one meant, a value
    that can be no ORCID iD or library id an error at its line. A person's file (content/people/) is checked the
    same, and its `query` is a warning: it is not fetched (`person_asks`)."""
    from sitegen.errors import quoted
    from sitegen.sources.orcid import looks_like_orcid
    from sitegen.validate import Fields

    written = fields.data.get(NAME) if isinstance(fields.data, dict) else None
    if isinstance(written, (str, int)) and not isinstance(written, bool):  # `ads: 0000-...`: say how it is written
        kind = "orcid" if looks_like_orcid(str(written)) else "library" if LIBRARY_ID.match(str(written).strip()) else "query"
        fields.problem(NAME, f"a mapping of what to ask ADS (orcid:, library:, query:): write it as ads: {{{kind}: {quoted(str(written), 60)}}}")
        return
    section = fields.mapping(NAME)
    if section is None:
        return
    sub = Fields(section, path, problems, prefix=f"{NAME}.", known=frozenset(PROFILE_KEYS))
    sub.warn_unknown([key for key in section if key not in PROFILE_KEYS], "setting")
    if not any(section.get(key) for key in PROFILE_KEYS):
        fields.problem(NAME, "asks ADS for nothing: write orcid: 0000-..., library: ID (a public library) or query: '...' (an ADS search)")
    if path.startswith(PEOPLE_FOLDER) and section.get("query") is not None:
        sub.problem(
            "query",
            "not fetched from a person's file: a query finds namesakes, whose papers the lab's list would show; give the person's orcid or library",
            warning=True,
        )
    check_settings(sub, section, CHECKS)


# --------------------------------------------------------------------------
# Asking
# --------------------------------------------------------------------------


def judge_ads(library: str | None = None) -> Any:
    """The judge of an ADS answer: JSON, and a 401 (of any request), or a 403 or 410 of a `library`, says what to check."""
    from sitegen.sources.http import Answer, judge_json, server_text

    def judged(response: requests.Response) -> Answer:
        status = response.status_code
        if status == 401:
            return Answer(
                False, reason=f"HTTP 401 Unauthorized: ADS refused the token: check ${ENV_TOKEN} ({TOKEN_HELP}; a new key there replaces the old one)"
            )
        if library and status == 403:
            return Answer(False, reason=f"HTTP 403 Forbidden: library {library} is private: make it public in ADS (the library's Manage Access, Make Public)")
        if library and status in (404, 410):
            said = server_text(response)
            return Answer(False, reason=f"HTTP {status}: no library {library}{f' ({said})' if said else ''}; check its id, the end of the library's address")
        return judge_json(response)

    return judged


def search(session: PoliteSession, api: str, query: str, headers: dict[str, str], progress: Any) -> list[dict[str, Any]]:
    """Every document ADS finds for `query`, page after page (sorted by bibcode, so that the pages do not shift)."""
    documents: list[dict[str, Any]] = []
    while True:
        params = {"q": query, "fl": FIELDS, "rows": str(SEARCH_PAGE), "start": str(len(documents)), "sort": "bibcode asc"}
        answer = session.fetch(f"{api}/search/query", f"ADS search {query}", params=params, headers=headers, judge=judge_ads(), shape=SEARCH)
        page = answer["response"]["docs"]
        documents += page
        total = _count(answer["response"].get("numFound"), len(documents))
        progress.line(f"ADS: {query}: {min(len(documents), total)} of {counted(total, 'document')}")
        if not page or len(documents) >= total:
            return documents


def library_documents(session: PoliteSession, api: str, library: str, headers: dict[str, str], progress: Any) -> tuple[str, list[dict[str, Any]]]:
    """A public library's name and its documents, page after page."""
    documents: list[dict[str, Any]] = []
    name = library
    while True:
        params = {"fl": FIELDS, "rows": str(LIBRARY_PAGE), "start": str(len(documents)), "sort": "bibcode asc"}
        what = f"ADS library {library}"
        answer = session.fetch(f"{api}/biblib/libraries/{library}", what, params=params, headers=headers, judge=judge_ads(library), shape=LIBRARY_ANSWER)
        name = one_line(str(answer["metadata"].get("name") or library))
        page = answer["solr"]["response"]["docs"]
        documents += page
        total = _count(answer["metadata"].get("num_documents"), len(documents))
        progress.line(f"ADS: library {name!r}: {min(len(documents), total)} of {counted(total, 'document')}")
        if not page or len(documents) >= total:
            return name, documents


def _count(value: Any, read: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else read


# --------------------------------------------------------------------------
# Mapping
# --------------------------------------------------------------------------


def record_of(document: dict[str, Any]) -> tuple[dict[str, Any] | None, list[str]]:
    """One ADS document as a record mapping (its id the bibcode), and the warnings about it; None when it is no
    publication (a talk) or has no bibcode."""
    from sitegen.record_types import checked_bibcode

    bibcode = checked_bibcode(str(document.get("bibcode") or ""))
    if bibcode is None:
        return None, [f"warning: ADS document without a bibcode ({_first(document.get('title'))[:60]!r}); left out"]
    doctype = str(document.get("doctype") or "")
    if doctype in LEFT_OUT:
        return None, [f"warning: ADS {bibcode} ({_first(document.get('title'))[:60]!r}): {LEFT_OUT[doctype]}; left out"]
    record: dict[str, Any] = {"id": bibcode.rstrip("."), "title": rich_title(_first(document.get("title")))}
    authors = [one_line(str(name)) for name in _list(document.get("author"))]
    record["authors"] = authors
    year = str(document.get("year") or "")
    record["year"] = int(year) if year.isdigit() else None
    if date := published_date(str(document.get("pubdate") or "")):
        record["date"] = date
    kind = DOCTYPES.get(doctype, "other")
    record["type"] = kind
    if doctype == "erratum":
        record["notice"] = "correction"
    if venue := _venue(document, kind):
        record["source"] = venue
    arxiv = arxiv_id(document)
    doi = published_doi(document)
    if doi:
        record["doi"] = doi
    if arxiv:
        record["arxiv"] = arxiv
    for field, key in (("volume", "volume"), ("issue", "issue")):
        if value := one_line(str(document.get(key) or "")):
            record[field] = value
    if pages := one_line(str(document.get("page_range") or _first(document.get("page")))):
        record["pages"] = pages
    if abstract := abstract_text(str(document.get("abstract") or "")):
        record["abstract"] = abstract
    count = document.get("citation_count")
    if isinstance(count, int) and not isinstance(count, bool):
        record["citations"] = count
    record["ids"] = {"ads": bibcode, **({"doi": doi} if doi else {}), **({"arxiv": arxiv} if arxiv else {})}
    if orcids := author_orcids(document, authors):
        record["author_ids"] = orcids
    if affiliations := author_affiliations(document, authors):
        record["affiliations"] = affiliations
    return record, []


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [] if value is None else [value]


def _first(value: Any) -> str:
    values = _list(value)
    return str(values[0]) if values else ""


def rich_title(text: str) -> str:
    """A title as ADS writes it, HTML's entities (`&amp;`) and tags (`H<SUB>2</SUB>O`) in it, as the pipeline's text:
    the tags of CSL's rich text as LaTeX macros (`sitegen.sources.rich_text`), entities decoded; LaTeX (`$\\sim$`) kept."""
    from sitegen.sources.rich_text import rich_text_latex

    text = one_line(text)
    latex = rich_text_latex(text)
    return latex if latex != text else html.unescape(text)


_PARAGRAPH_BREAK = re.compile(r"(?i)<p\s*/?>|</p>|<br\s*/?>")
_CODE = re.compile(r"(?is)<(script|style)\b.*?(?:</\1\s*>|$)")
_TAG = re.compile(r"</?([A-Za-z][\w:-]*)[^<>]*>")


def abstract_text(text: str) -> str:
    """An ADS abstract (its paragraphs parted by `<P />`, sub- and superscripts in HTML, entities escaped, LaTeX
    inline) as paragraphs of the pipeline's text: rich text as `rich_title` reads it; any other tag dropped (a
    script with its code) before its entities are decoded, so that an escaped `&lt;` stays a character."""
    from sitegen.sources.rich_text import ELEMENT_MACROS

    def kept(tag: re.Match[str]) -> str:
        return tag.group(0) if tag.group(1).lower().removeprefix("jats:") in ELEMENT_MACROS else ""

    paragraphs = [rich_title(_TAG.sub(kept, _CODE.sub("", part))) for part in _PARAGRAPH_BREAK.split(text)]
    return "\n\n".join(p for p in paragraphs if p)


def published_date(pubdate: str) -> datetime.date | None:
    """ADS's `pubdate` ('2019-04-10'; '2019-04-00' when only the month is known): the day, when known."""
    try:
        return datetime.date.fromisoformat(pubdate)
    except ValueError:
        return None


def arxiv_id(document: dict[str, Any]) -> str | None:
    """The arXiv id among the document's identifiers ('arXiv:1906.11238'), else of arXiv's own DOI."""
    from sitegen.sources.crossref import arxiv_from_doi

    for identifier in _list(document.get("identifier")):
        if written := ARXIV_IDENTIFIER.match(str(identifier).strip()):
            return written.group(1)
    return next((found for doi in _list(document.get("doi")) if (found := arxiv_from_doi(str(doi)))), None)


def published_doi(document: dict[str, Any]) -> str | None:
    """The document's DOI, not arXiv's own (10.48550/arXiv.N names the e-print: its arXiv id says the same)."""
    from sitegen.sources.crossref import arxiv_from_doi, bare_doi

    return next((doi for value in _list(document.get("doi")) if (doi := bare_doi(str(value))) and not arxiv_from_doi(doi)), None)


def _venue(document: dict[str, Any], kind: str) -> str:
    """The journal, proceedings or repository; a thesis as ADS's `pub_raw` gives it ('PhD Thesis, University of X')."""
    pub = one_line(html.unescape(str(document.get("pub") or "")))
    if kind == "preprint" and pub.lower().startswith("arxiv"):
        return "arXiv"
    if kind == "thesis":
        return one_line(html.unescape(str(document.get("pub_raw") or ""))) or pub
    return pub


def author_orcids(document: dict[str, Any], authors: list[str]) -> dict[str, str]:
    """Each author's ORCID iD, from the publisher (`orcid_pub`), the author's claim in ADS (`orcid_user`) or ADS's
    match (`orcid_other`): lists beside `author`, '-' for none."""
    from sitegen.sources.orcid import looks_like_orcid

    found: dict[str, str] = {}
    for key in ("orcid_pub", "orcid_user", "orcid_other"):
        for name, value in zip(authors, _list(document.get(key)), strict=False):
            if name not in found and looks_like_orcid(str(value)):
                try:
                    found[name] = normalise_orcid(str(value))
                except ValueError:
                    continue
    return found


def author_affiliations(document: dict[str, Any], authors: list[str]) -> dict[str, list[str]]:
    """Each author's affiliations (`aff`, a list beside `author`, '-' for none, several parted by '; ')."""
    found: dict[str, list[str]] = {}
    for name, value in zip(authors, _list(document.get("aff")), strict=False):
        places = [one_line(html.unescape(part)) for part in str(value).split(";")]
        if places := [place for place in places if place and place != "-"]:
            found.setdefault(name, places)
    return found


def query_names(query: str) -> list[str]:
    """The names an ADS query searches for (`author:"^Lin, S."`, `author:Lin,S`), for the review of its namesakes."""
    names = re.findall(r'\b(?:author|first_author):\s*(?:"\^?([^"]+)"|\^?([^\s()"]+))', query, flags=re.IGNORECASE)
    return [one_line(quoted or bare) for quoted, bare in names if one_line(quoted or bare)]


# --------------------------------------------------------------------------
# The fetcher
# --------------------------------------------------------------------------


def fetch(asks: list[Ask], context: FetchContext) -> Fetched:
    """Asks: `orcid` (an iD), `query` (an ADS query), `library` (a public library's id), each checked already."""
    from sitegen.sources.http import PoliteSession, secret_hidden

    token = api_token()
    if token is None:  # `check_asks` said so before anything was asked; a caller that did not ask it is told the same
        check_asks(asks)
    settings = context.settings(NAME, ENV_API_URL, DEFAULT_API_URL, DEFAULT_DELAY, page_size=SEARCH_PAGE)
    session = PoliteSession(settings, context.progress, LABEL)
    headers = {"Authorization": f"Bearer {token}"}
    result = Fetched(records=[])
    seen: set[str] = set()
    with secret_hidden(token, f"[${ENV_TOKEN}]"):
        for kind, value in dict.fromkeys((a.kind, a.value) for a in asks):
            where = where_asked(asks, value, kind)
            if kind == "library":
                name, documents = library_documents(session, settings.api_url, value, headers, context.progress)
                what = f"ADS library {value} ({name!r})"
            else:
                query = f"orcid:{value}" if kind == "orcid" else value
                documents = search(session, settings.api_url, query, headers, context.progress)
                what = f"ADS search {query}"
            records = _records(documents, result)
            result.answered(what, where, len(records))
            if kind == "query":
                result.searched_ids |= {record["id"] for record in records}
                result.owner_names += query_names(value)
            if kind == "orcid":
                result.owner_names += [name for record in records for name, orcid in (record.get("author_ids") or {}).items() if orcid == value]
            result.records += [record for record in records if record["id"] not in seen]
            seen |= {record["id"] for record in records}
    result.owner_names = list(dict.fromkeys(result.owner_names))
    result.requests = session.requests_sent
    return result


def _records(documents: list[dict[str, Any]], result: Fetched) -> list[dict[str, Any]]:
    records = []
    for document in documents:
        record, warnings = record_of(document)
        result.warnings += warnings
        if record is not None:
            records.append(record)
    return records


def person_asks(person: Any) -> list[Ask]:
    """A person's `ads:` (content/people/, checked by `check_profile` as profile.yaml's): their `orcid` and
    `library`; not a `query`, which finds namesakes (a lab's list would show their papers)."""
    section = person.extra.get(NAME)
    if not isinstance(section, dict):
        return []
    asks = []
    for key in ("orcid", "library"):
        where = f"{person.path}:{line_of_field(section, key)}: field '{NAME}.{key}'"
        asks += [Ask(NAME, key, value, where) for value in setting_values(section, key) or () if value]
    return asks


# ADS ingests what publishers deposit and what arXiv holds, and its staff curate it (a paper's journal version and
# e-print joined under one bibcode, names whole as published): a library's record, as PubMed's, after the publisher's
# own (Crossref), before what an index derives by machine (OpenAlex) or a catalogue lists (dblp)
register_fetcher(
    Fetcher(
        NAME,
        fetch,
        rank=LIBRARY,
        label=LABEL,
        api_env=ENV_API_URL,
        options=(
            FetchOption(
                "--ads",
                "orcid",
                "ORCID",
                f"NASA ADS: the works ADS links to this ORCID iD (claimed in ADS, or given by the publisher); token: ${ENV_TOKEN}; repeatable",
                check=normalise_orcid,
            ),
            FetchOption(
                "--ads-query",
                "query",
                "QUERY",
                "NASA ADS: what this search finds, written as in ADS's search box ('author:\"^Lin, S.\" year:2015-2024'; namesakes too); repeatable",
                check=normalise_query,
            ),
            FetchOption(
                "--ads-library", "library", "ID", "NASA ADS: the documents of this public library (its id, or its address); repeatable", check=normalise_library
            ),
        ),
        profile_key=NAME,
        profile_asks=profile_asks,
        person_asks=person_asks,
        check_asks=check_asks,
        check_profile=check_profile,
    )
)
