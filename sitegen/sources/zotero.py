"""A Zotero library as a fetcher: a user's or a group's items (or one collection's, or one tag's), by the Web API v3.

`GET /{users|groups}/{id}/items/top` (or `/collections/{key}/items/top`) with `include=data,csljson`: each
item's Zotero JSON (`data`: its type, whether it is in the trash) beside its CSL-JSON (`csljson`), which the
CSL-JSON reader (`sitegen.sources.csl_json`) maps to a record, as it maps a CSL JSON export of the same
library: one mapping for both, and Zotero's Extra lines (`PMID: ...`, `arXiv: ...`, Better BibTeX's
`Citation Key: ...`, which Zotero hands on as the CSL `note`) are read there. `/items/top` holds no child
item; `itemType=-attachment || note` leaves out standalone attachments and notes too, and an item the answer
still marks `deleted` (in the trash) is left out here. Pages of `limit=100` items are asked with `start`
until the `Total-Results` header's count is read.

A private library needs an API key: `ZOTERO_API_KEY` from the environment, sent as the `Zotero-API-Key`
header; it is never written into a file or a message (an error that quotes a server's words has it blotted
out). Zotero's `Backoff` and `Retry-After` are honoured by the shared polite session.

A group library holds everybody's reading: `sitegen.fetch.decide` keeps only the records an owner of the site
wrote (`Fetched.owners_only`), unless the configuration says every item is theirs (`all_items: true`, for a
"My publications" collection).

No client library: pyzotero (1.7) sends its requests through an httpx client of its own, not the shared polite
session that paces, retries, judges and words the failures of every other fetcher, and brings bibtexparser,
feedparser and whenever along; what is asked here is one URL template, paged.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sitegen.fetch import Ask, FetchContext, Fetched, UsageError, check_settings, counted, line_of_field, one_line, setting_values
from sitegen.load import plain_data
from sitegen.sources import OWN_LIST, Fetcher, FetchOption, register_fetcher

if TYPE_CHECKING:
    import requests

    from sitegen.errors import Problem
    from sitegen.sources.http import Answer, PoliteSession

NAME = "zotero"
LABEL = "Zotero"
ENV_API_URL = "SITEGEN_ZOTERO_API"
ENV_API_KEY = "ZOTERO_API_KEY"
DEFAULT_API_URL = "https://api.zotero.org"
DEFAULT_DELAY = 0.5  # Zotero asks for no more than a few requests a second, and says Backoff when it wants fewer
PAGE = 100  # Zotero's largest `limit`
NOT_RECORDS = frozenset({"attachment", "note", "annotation"})  # Zotero item types that are no work
ITEM_TYPES = "-attachment || note"  # the API's filter for them (annotations are children, never top-level)
LIBRARY_KINDS = {"group": "groups", "user": "users"}  # configuration's word -> the API's path segment
KEY = re.compile(r"^[A-Z0-9]{8}$")  # a Zotero object key (a collection's, an item's)
LIBRARY_URL = re.compile(r"^(?:https?://)?(?:www\.)?zotero\.org/(groups|users)/(\d+)(?:[/?#].*)?$")
PROFILE_KEYS = ("group", "user", "collection", "tag", "all_items")  # the settings under `zotero:` in profile.yaml


def normalise_library_id(value: str) -> str:
    """A group's or a user's id: its digits ('12345', or a zotero.org/groups/12345/... address)."""
    text = value.strip()
    if found := LIBRARY_URL.match(text):
        return found.group(2)
    if not text.isdigit():
        raise ValueError(
            f"{value!r} is not a Zotero library id: a group's is the number in its address (zotero.org/groups/12345/...), a user's "
            "is the 'user ID' on zotero.org/settings/keys"
        )
    return text


def normalise_collection(value: str) -> str:
    """A collection's key, as the address of the collection shows it (zotero.org/.../collections/ABCD2345)."""
    text = value.strip().rstrip("/").rsplit("/", 1)[-1].upper()
    if not KEY.match(text):
        raise ValueError(f"{value!r} is not a Zotero collection key: eight letters and digits (ABCD2345), the end of the collection's address on zotero.org")
    return text


def check_asks(asks: list[Ask]) -> None:
    """A collection, a tag or `all_items` without a library to take them from, or two libraries, is a mistake of
    the configuration, said before anything is asked of any service."""
    libraries = [a for a in asks if a.kind in LIBRARY_KINDS]
    if not libraries and any(a.source == NAME for a in asks):
        where = next(a.where for a in asks if a.source == NAME)
        raise UsageError(
            f"{where}: a Zotero collection, tag or all_items needs its library: --zotero-group ID or --zotero-user ID (zotero: group: in profile.yaml)"
        )
    if len({(a.kind, a.value) for a in libraries}) > 1:
        raise UsageError(
            f"{libraries[1].where}: one Zotero library at a time (a group or a user, not both); put what is yours into one collection of one library"
        )


def profile_asks(data: dict[str, Any], path: str) -> list[Ask]:
    """profile.yaml's `zotero:` mapping (checked by `sitegen.validate`) as asks: `group` or `user`, `collection`
    and `tag` (one or a list), `all_items`."""
    section = data.get(NAME)
    if not isinstance(section, dict):
        return []
    asks = []
    for key in PROFILE_KEYS:
        where = f"{path}:{line_of_field(section, key)}: field 'zotero.{key}'"
        if key == "all_items":
            asks += [Ask(NAME, key, "yes", where)] if section.get(key) is True else []
            continue
        asks += [Ask(NAME, key, value, where) for value in setting_values(section, key) or () if value]
    return asks


def check_profile(fields: Any, path: str, problems: list[Problem]) -> None:
    """`zotero:` in profile.yaml (`sitegen.validate.Fields` of the profile): one `group` or `user` id, and optionally
    `collection` keys, `tag`s and `all_items`; a key sitegen does not know is a warning naming the one meant
    (`colection`), a value that can be no id an error at its line."""
    from sitegen.validate import Fields

    section = fields.mapping(NAME)
    if section is None:
        return
    sub = Fields(section, path, problems, prefix=f"{NAME}.", known=frozenset(PROFILE_KEYS))
    sub.warn_unknown([key for key in section if key not in PROFILE_KEYS], "setting")
    libraries = [key for key in LIBRARY_KINDS if section.get(key) is not None]
    if not libraries:
        fields.problem(NAME, "names no library: write group: 12345 (the number in the group's address on zotero.org) or user: 123 (your user ID)")
    elif len(libraries) == 2:
        sub.problem("user", "one library at a time: a group or a user, not both")
    checks: dict[str, Callable[[str], str]] = {"group": normalise_library_id, "user": normalise_library_id, "collection": normalise_collection, "tag": str}
    check_settings(sub, section, checks)
    sub.boolean("all_items")


def library_path(asks: list[Ask]) -> str:
    """'groups/12345' or 'users/123'."""
    library = next(a for a in asks if a.kind in LIBRARY_KINDS)
    return f"{LIBRARY_KINDS[library.kind]}/{library.value}"


def items_url(api: str, library: str, collection: str | None) -> str:
    return f"{api}/{library}/collections/{collection}/items/top" if collection else f"{api}/{library}/items/top"


def is_record(item: dict[str, Any]) -> bool:
    """A work of the library: not an attachment, a note or an annotation, not in the trash, and with CSL-JSON."""
    data = item.get("data") or {}
    return data.get("itemType") not in NOT_RECORDS and not data.get("deleted") and isinstance(item.get("csljson"), dict)


def judge_items(api_key: str | None, library: str, collection: str | None) -> Any:
    """The judge of a page of items: a list of objects; a 403 or a 404 says what to check."""
    from sitegen.sources.http import Answer, judge_json

    def judged(response: requests.Response) -> Answer:
        if response.status_code == 403:
            check = (
                f"check that ${ENV_API_KEY} is a key with read access to {library} (zotero.org/settings/keys)"
                if api_key
                else f"the library is private: set ${ENV_API_KEY} to a key with read access to it (zotero.org/settings/keys)"
            )
            return Answer(False, reason=f"HTTP 403 Forbidden: {check}")
        if response.status_code == 404:
            what = f"collection {collection} in {library}" if collection else f"library {library}"
            return Answer(
                False,
                reason=f"HTTP 404 Not Found: no {what} (check the group or user id, and the collection key, in zotero: of content/profile.yaml or the options)",
            )
        answer = judge_json(response)
        if answer.ok and not (isinstance(answer.data, list) and all(isinstance(item, dict) for item in answer.data)):
            return Answer(False, reason=f"unexpected answer from {LABEL}: not a list of items")
        return answer

    return judged


def library_items(
    session: PoliteSession, api: str, library: str, collection: str | None, params: dict[str, str], headers: dict[str, str], api_key: str | None, progress: Any
) -> list[dict[str, Any]]:
    """Every page of the library's (or the collection's) top-level items."""
    items: list[dict[str, Any]] = []
    where = f"{library}/collections/{collection}" if collection else library
    start, total = 0, None
    while total is None or start < total:
        response, answer = session.get_answered(
            items_url(api, library, collection),
            f"{LABEL} items of {where} (from {start})",
            params={"format": "json", "include": "data,csljson", "itemType": ITEM_TYPES, "limit": str(PAGE), "start": str(start), **params},
            headers=headers,
            judge=judge_items(api_key, library, collection),
        )
        page = answer.data
        items += page
        total = _total_results(response, start + len(page))
        progress.line(f"{LABEL}: items of {where}: {min(len(items), total)} of {total}")
        if not page:
            break
        start += len(page)
    return items


def _total_results(response: requests.Response, read: int) -> int:
    """The `Total-Results` header; without one, what was read is all there is."""
    written = response.headers.get("Total-Results", "").strip()
    return int(written) if written.isdigit() else read


def records_of(items: list[dict[str, Any]], library: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The items' records, mapped by the CSL-JSON reader as one list (so that two items of one made id get the
    reader's letters), and its warnings, each naming the Zotero item it is about."""
    from sitegen.sources.csl_json import read_csl_json_records

    items = sorted(items, key=lambda item: (str((item.get("data") or {}).get("dateAdded") or ""), str(item.get("key"))))  # the order of adding:
    # a made id's letter (`okafor2019methanogensb`) stays the item's when another is edited (Zotero lists the last edited first)
    texts = [json.dumps(item["csljson"], ensure_ascii=False, indent=1) for item in items]
    starts, line = [], 2
    for text in texts:
        starts.append(line)
        line += text.count("\n") + 1
    mappings, problems = read_csl_json_records("[\n" + ",\n".join(texts) + "\n]\n", f"{LABEL} {library}")

    def item_at(line: int | None) -> dict[str, Any]:
        return items[max(0, bisect.bisect_right(starts, line or 0) - 1)]

    records = []
    for mapping in mappings:
        item = item_at(getattr(mapping, "line", None))
        record = plain_data(mapping)
        record["ids"] = {**(record.get("ids") or {}), "zotero": str(item.get("key", ""))}
        records.append({"id": record.pop("id"), **record})  # the id first, as in every fetched file
    return records, [_warning(problem, item_at(problem.location.line if problem.location else None), library) for problem in problems]


def _warning(problem: Problem, item: dict[str, Any], library: str) -> str:
    """A problem of the reader as a warning of the fetch (an item it cannot read is left out, and says so: the
    others are written), naming the item as Zotero shows it."""
    title = one_line(str((item.get("data") or {}).get("title") or ""))[:60]
    return f"warning: {LABEL} item {item.get('key', '?')} of {library} ({title!r}): {problem.message}"


def fetch(asks: list[Ask], context: FetchContext) -> Fetched:
    """Asks: `group` or `user` (one library), `collection` (keys, each checked), `tag`, `all_items`."""
    from sitegen.sources.http import PoliteSession, secret_from_env, secret_hidden

    settings = context.settings(NAME, ENV_API_URL, DEFAULT_API_URL, DEFAULT_DELAY, page_size=PAGE)
    session = PoliteSession(settings, context.progress, LABEL)
    api_key = secret_from_env(ENV_API_KEY)
    headers = {"Zotero-API-Version": "3", **({"Zotero-API-Key": api_key} if api_key else {})}
    library = library_path(asks)
    tags = [a.value for a in asks if a.kind == "tag"]
    params = {"tag": " || ".join(tags)} if tags else {}
    collections: list[str | None] = [*dict.fromkeys(a.value for a in asks if a.kind == "collection")] or [None]
    result = Fetched(records=[], owners_only=not any(a.kind == "all_items" for a in asks))
    seen: set[str] = set()
    with secret_hidden(api_key, "[the API key]"):
        for collection in collections:
            found = library_items(session, settings.api_url, library, collection, params, headers, api_key, context.progress)
            items = [item for item in found if is_record(item) and str(item.get("key")) not in seen]
            seen |= {str(item.get("key")) for item in items}
            records, warnings = records_of(items, library)
            where = ", ".join(dict.fromkeys(a.where for a in asks if a.kind in LIBRARY_KINDS or (a.kind == "collection" and a.value == collection)))
            result.answered(f"{LABEL} items of {library}{f'/collections/{collection}' if collection else ''}", where, len(records))
            result.records += records
            result.warnings += warnings
            context.progress.line(f"{LABEL}: {library}: {counted(len(records), 'record')} of {counted(len(found), 'item')}")
    result.requests = session.requests_sent
    return result


register_fetcher(
    Fetcher(
        NAME,
        fetch,
        rank=OWN_LIST,
        label="Zotero",
        api_env=ENV_API_URL,
        options=(
            FetchOption("--zotero-group", "group", "ID", "Zotero: the items of this group library (12345); key: $ZOTERO_API_KEY", check=normalise_library_id),
            FetchOption("--zotero-user", "user", "ID", "Zotero: the items of this user's library", check=normalise_library_id),
            FetchOption("--zotero-collection", "collection", "KEY", "Zotero: only this collection (ABCD2345); repeatable", check=normalise_collection),
            FetchOption("--zotero-tag", "tag", "TAG", "Zotero: only items with this tag; repeatable (any of them)"),
            FetchOption(
                "--zotero-all-items",
                "all_items",
                help="Zotero: every item is yours (a 'My publications' collection): keep those that do not name you too",
                switch=True,
            ),
        ),
        profile_key=NAME,
        profile_asks=profile_asks,
        check_asks=check_asks,
        check_profile=check_profile,
    )
)
