"""PubMed as a fetcher: the citations NCBI's E-utilities find for an author's ORCID iD, or for their name.

`esearch.fcgi` (db=pubmed) finds the PMIDs: `0000-0002-1825-0097[auid]` for an ORCID iD (`--pubmed`,
profile.yaml `pubmed:`, or `pubmed: true` for the profile's own `orcid:`), else `"Family Given"[Author]`
for a name, which finds every namesake too. `efetch.fcgi` (retmode=xml) then gives the citations, in
batches of `BATCH` ids, as PubMed's XML (`PubmedArticleSet`), read with lxml, entities and network off.
Each article is turned into MEDLINE's tags (`sitegen.sources.medline.Citation`) and mapped as a `.nbib`
file's citation is, so that a paper fetched and one exported by hand say the same.

NCBI asks every client to name itself (`tool`, and `email` when profile.yaml has one) and to send at most
three requests a second, ten with an API key: the key is read from `NCBI_API_KEY`, sent as `api_key` and
written nowhere (no file, no message: the session names requests by what they ask, not by their URL).

No client library: Biopython's `Bio.Entrez` sends its requests with urllib, outside the shared polite
session (its retries, backoff, and answers judged before they are read), and is a large distribution for
two URL templates.
"""

from __future__ import annotations

import datetime
import os
import re
from typing import TYPE_CHECKING, Any

from sitegen.fetch import Ask, FetchContext, Fetched, counted, line_of_field, one_line, raw_strings
from sitegen.load import plain_data
from sitegen.sources import LIBRARY, Fetcher, FetchOption, register_fetcher
from sitegen.sources.medline import Citation, citation_record

if TYPE_CHECKING:
    import requests

    from sitegen.sources.http import Answer, PoliteSession, Shape

NAME = "pubmed"
LABEL = "PubMed"
ENV_API_URL = "SITEGEN_PUBMED_API"
ENV_API_KEY = "NCBI_API_KEY"
DEFAULT_API_URL = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils"
DEFAULT_DELAY = 0.34  # NCBI: at most 3 requests a second without an API key
KEYED_DELAY = 0.1  # and 10 with one
TOOL = "sitegen"
BATCH = 200  # PMIDs per efetch request (NCBI asks for a POST above 200)
SEARCH_PAGE = 1000  # PMIDs per esearch page
SEARCH: Shape = {"esearchresult": dict}
# E-utilities' CommentsCorrections types -> the MEDLINE tag that says the same
CORRECTION_TAGS = {
    "ErratumFor": "EFR",
    "ErratumIn": "EIN",
    "RetractionOf": "ROF",
    "RetractionIn": "RIN",
    "ExpressionOfConcernFor": "ECF",
    "ExpressionOfConcernIn": "ECI",
}


def normalise_query(value: str) -> str:
    """What to search PubMed for: an ORCID iD ('https://orcid.org/0000-...', its check digit checked), or a name."""
    from sitegen.sources.orcid import normalise_orcid

    text = one_line(value)
    if is_orcid(text):
        return normalise_orcid(text)
    if not any(char.isalpha() for char in text):
        raise ValueError(f"{value!r} is neither an ORCID iD (0000-0002-1825-0097) nor an author's name")
    return text


def is_orcid(query: str) -> bool:
    from sitegen.sources.orcid import looks_like_orcid

    return looks_like_orcid(query)


def search_term(query: str) -> str:
    """PubMed's query for an ORCID iD (`[auid]`, the author identifier) or a name: `"Family Given"[Author]`, as
    PubMed indexes full names ('Sheng Lin' and 'Lin, Sheng' are both '"Lin Sheng"[Author]')."""
    from sitegen.names import csl_name

    if is_orcid(query):
        return f"{query}[auid]"
    plain = one_line(re.sub(r'\[[^\]]*\]?|["\]]', " ", query))  # a quote or a [field tag] of its own would end the term
    parts = csl_name(plain)
    name = " ".join(part for part in (parts.get("family"), parts.get("given")) if part) or plain
    return f'"{name}"[Author]'


def search(session: PoliteSession, api: str, term: str, common: dict[str, str]) -> list[str]:
    """Every PMID PubMed finds for `term`, page after page."""
    from sitegen.sources.http import FetchError

    found: list[str] = []
    while True:
        params = {**common, "db": "pubmed", "term": term, "retmode": "json", "retstart": str(len(found)), "retmax": str(SEARCH_PAGE)}
        answer = session.fetch(f"{api}/esearch.fcgi", f"PubMed search {term}", params=params, shape=SEARCH)
        result = answer["esearchresult"]
        if result.get("ERROR"):
            raise FetchError(f"PubMed search {term}: {one_line(str(result['ERROR']))}")
        page = [str(pmid) for pmid in result.get("idlist") or [] if str(pmid).isdigit()]
        found += [pmid for pmid in page if pmid not in found]
        total = int(str(result.get("count") or "0")) if str(result.get("count") or "0").isdigit() else 0
        if not page or len(found) >= total:
            return found


def judge_articles(response: requests.Response) -> Answer:
    """efetch's answer: well-formed XML whose root is `<PubmedArticleSet>`; anything else (an `<eFetchResult>` with
    its ERROR, a maintenance page that happens to be XML) is final, and says what it was."""
    from sitegen.sources.http import Answer, judge_xml, page_words

    answer = judge_xml(response)
    if answer.ok and answer.data.tag != "PubmedArticleSet":
        error = answer.data.findtext(".//ERROR")
        reason = one_line(error) if error else f"root element {answer.data.tag!r}: {page_words(response.content)}"
        return Answer(False, reason=f"not a PubMed answer ({reason})")
    return answer


def citation_of(article: Any) -> Citation:
    """One `<PubmedArticle>` as the MEDLINE tags a .nbib file would give it."""
    medline = article.find("MedlineCitation")
    journal = medline.find("Article/Journal") if medline is not None else None
    citation = Citation(0)
    add = citation.add
    add("PMID", _text(medline, "PMID"), 0)
    item = medline.find("Article") if medline is not None else None
    if item is None:
        return citation
    add("TI", _inner_markup(item.find("ArticleTitle")), 0)
    add("TT", _text(item, "VernacularTitle"), 0)
    parts = [(part.get("Label") or "", _plain(part)) for part in item.findall("Abstract/AbstractText")]
    add("AB", "\n\n".join(f"{label}: {text}" if label else text for label, text in parts if text), 0)
    for author in item.findall("AuthorList/Author"):
        _add_author(citation, author)
    if journal is not None:
        add("JT", _text(journal, "Title"), 0)
        add("TA", _text(medline, "MedlineJournalInfo/MedlineTA") or _text(journal, "ISOAbbreviation"), 0)
        add("VI", _text(journal, "JournalIssue/Volume"), 0)
        add("IP", _text(journal, "JournalIssue/Issue"), 0)
        add("DP", _published(journal.find("JournalIssue/PubDate")), 0)
    pages = _text(item, "Pagination/MedlinePgn") or "-".join(p for p in (_text(item, "Pagination/StartPage"), _text(item, "Pagination/EndPage")) if p)
    add("PG", pages, 0)
    for date in item.findall("ArticleDate"):
        if (date.get("DateType") or "Electronic") == "Electronic" and _text(date, "Year").isdigit():
            add("DEP", f"{_text(date, 'Year')}{_text(date, 'Month').zfill(2)}{_text(date, 'Day').zfill(2)}", 0)
    for location in item.findall("ELocationID"):
        if location.get("ValidYN", "Y") == "Y":
            add("LID", f"{_plain(location)} [{(location.get('EIdType') or '').lower()}]", 0)
    for kind in item.findall("PublicationTypeList/PublicationType"):
        add("PT", _plain(kind), 0)
    for language in item.findall("Language"):
        add("LA", _plain(language), 0)
    for keyword in medline.findall("KeywordList/Keyword"):
        add("OT", _plain(keyword), 0)
    for correction in medline.findall("CommentsCorrectionsList/CommentsCorrections"):
        if tag := CORRECTION_TAGS.get(correction.get("RefType") or ""):
            pmid = _text(correction, "PMID")
            add(tag, f"{_text(correction, 'RefSource')}." + (f" PMID: {pmid}" if pmid else ""), 0)
    for identifier in article.findall("PubmedData/ArticleIdList/ArticleId"):
        kind = (identifier.get("IdType") or "").lower()
        if kind == "doi":
            add("AID", f"{_plain(identifier)} [doi]", 0)
        elif kind == "pmc":
            add("PMC", _plain(identifier), 0)
    return citation


def _add_author(citation: Citation, author: Any) -> None:
    if author.get("ValidYN", "Y") != "Y":
        return
    family, given, initials = _text(author, "LastName"), _text(author, "ForeName"), _text(author, "Initials")
    group = _text(author, "CollectiveName")
    if family:
        citation.add("FAU", f"{family}, {given}" if given else family, 0)
        citation.add("AU", f"{family} {initials}".strip(), 0)
    elif group:
        citation.add("CN", group, 0)
    else:
        return
    for identifier in author.findall("Identifier"):
        if (identifier.get("Source") or "").upper() == "ORCID":
            citation.add("AUID", f"ORCID: {_plain(identifier)}", 0)


def _published(date: Any) -> str:
    """PubDate as MEDLINE's DP: 'Year Month Day', or its MedlineDate ('2023 Mar-Apr') as written."""
    if date is None:
        return ""
    if written := _text(date, "MedlineDate"):
        return written
    return " ".join(part for part in (_text(date, "Year"), _text(date, "Month"), _text(date, "Day")) if part)


def _text(element: Any, path: str) -> str:
    found = element.find(path) if element is not None else None
    return _plain(found) if found is not None else ""


def _plain(element: Any) -> str:
    return one_line("".join(element.itertext()))


def _inner_markup(element: Any) -> str:
    """An element's text with its inline markup (`<i>`, `<sup>`) as written: the MEDLINE mapping reads it as a title's rich text."""
    from lxml import etree

    if element is None:
        return ""
    return one_line((element.text or "") + "".join(etree.tostring(child, encoding="unicode") for child in element))


def record_of(article: Any) -> tuple[dict[str, Any] | None, list[str]]:
    """One article as a record mapping (its id `pmid-N`), and the warnings about it; None when it has no title or year."""
    citation = citation_of(article)
    pmid = (citation.first("PMID") or ("", 0))[0]
    messages: list[str] = []

    def complain(_line: int, message: str, warning: bool) -> None:
        messages.append(f"warning: PubMed PMID {pmid}: {message}" + ("" if warning else "; left out"))

    mapping = citation_record(citation, complain)
    if mapping is None or not pmid:
        return None, messages
    record = plain_data(mapping)
    record["id"] = f"pmid-{pmid}"
    if isinstance(record.get("date"), str):
        record["date"] = datetime.date.fromisoformat(record["date"])
    return record, messages


def fetch(asks: list[Ask], context: FetchContext) -> Fetched:
    """Asks: `author`, an ORCID iD or a name (checked already by `normalise_query`)."""
    from sitegen.sources.http import PoliteSession

    key = os.environ.get(ENV_API_KEY, "").strip()
    settings = context.settings(NAME, ENV_API_URL, DEFAULT_API_URL, KEYED_DELAY if key else DEFAULT_DELAY)
    session = PoliteSession(settings, context.progress, LABEL)
    common = {"tool": TOOL, **({"email": context.mailto} if context.mailto else {}), **({"api_key": key} if key else {})}
    result = Fetched(records=[])
    pmids: dict[str, None] = {}
    orcids: set[str] = set()
    for query in dict.fromkeys(a.value for a in asks if a.kind == "author"):
        term = search_term(query)
        found = search(session, settings.api_url, term, common)
        where = ", ".join(dict.fromkeys(a.where for a in asks if a.value == query))
        context.progress.line(f"PubMed: {term}: {counted(len(found), 'citation')}")
        result.answered(f"PubMed search {term}", where, len(found))
        if is_orcid(query):
            orcids.add(query)
        else:
            result.owner_names.append(query)
            result.searched_ids |= {f"pmid-{pmid}" for pmid in found}
        pmids.update(dict.fromkeys(found))
    wanted = list(pmids)
    returned: set[str] = set()
    for start in range(0, len(wanted), BATCH):
        batch = wanted[start : start + BATCH]
        params = {**common, "db": "pubmed", "id": ",".join(batch), "retmode": "xml"}
        what = f"PubMed citations {start + 1}-{start + len(batch)} of {len(wanted)}"
        tree = session.fetch(f"{settings.api_url}/efetch.fcgi", what, params=params, judge=judge_articles)
        for article in tree.findall("PubmedArticle"):
            returned.add(_text(article, "MedlineCitation/PMID"))
            record, messages = record_of(article)
            result.warnings += messages
            if record is not None:
                result.records.append(record)
                result.owner_names += [name for name, orcid in (record.get("author_ids") or {}).items() if orcid in orcids]
    result.warnings += [
        f"warning: PubMed PMID {pmid}: efetch gave no journal article for it (a book or a chapter, or a citation PubMed no "
        "longer holds); left out (write its record by hand under content/records/ to show it)"
        for pmid in wanted
        if pmid not in returned
    ]
    result.owner_names = list(dict.fromkeys(result.owner_names))
    result.requests = session.requests_sent
    return result


# NLM's record of what the publisher deposited, its names whole (FAU) and checked by a library: after the publisher's own
# (Crossref), before what an index derives by machine or a catalogue lists
def profile_asks(data: dict[str, Any], path: str) -> list[Ask]:
    """profile.yaml's `pubmed:` as asks: an ORCID iD or a name (or a list of them); `true`: the profile's own ORCID
    iD (`orcid:`), else its name, which finds namesakes too."""
    if NAME not in data:
        return []
    if data[NAME] is True:
        name = data.get("name")
        values = raw_strings(data, "orcid")[:1] or ([name.strip()] if isinstance(name, str) and name.strip() else [])
    else:
        values = raw_strings(data, NAME)
    return [Ask(NAME, "author", value, f"{path}:{line_of_field(data, NAME)}: field '{NAME}'") for value in values]


def person_asks(person: Any) -> list[Ask]:
    """A person's `pubmed:` (content/people/): an ORCID iD or a name, or a list of them; `true`: the person's own
    ORCID iD, else their name."""
    if NAME not in person.extra:
        return []
    own = person.extra[NAME] is True
    values = [person.orcid or person.name] if own else raw_strings(person.extra, NAME, person.path)
    return [Ask(NAME, "author", value, f"{person.path}:{person.lines.get(NAME, 1)}: field '{NAME}'") for value in values if value]


register_fetcher(
    Fetcher(
        NAME,
        fetch,
        rank=LIBRARY,
        label="PubMed",
        api_env=ENV_API_URL,
        options=(
            FetchOption(
                "--pubmed",
                "author",
                "ORCID_OR_NAME",
                "PubMed: the citations of this ORCID iD, or of this author's name (which finds namesakes too); repeatable",
                check=normalise_query,
            ),
        ),
        profile_key=NAME,
        profile_asks=profile_asks,
        person_asks=person_asks,
    )
)
