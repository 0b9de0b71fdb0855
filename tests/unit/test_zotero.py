"""The Zotero fetcher's parts: what is a record, the CSL-JSON reader's mapping of a page of items, whose records a
shared library keeps, the configuration's checks, and Zotero's `Backoff` header in the shared polite session."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest
from scripted_http import Scripted

from sitegen.fetch import Ask, ContentError, Fetched, Filters, UsageError, choose_asks, decide
from sitegen.load import parse_yaml
from sitegen.model import Profile, RawDocument
from sitegen.progress import Progress
from sitegen.sources import OWN_LIST, source_rank
from sitegen.sources.http import PoliteSession, Settings
from sitegen.sources.zotero import check_asks, is_record, normalise_collection, normalise_library_id, profile_asks, records_of

LIBRARY = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "sources" / "zotero" / "groups-12345.json").read_text(encoding="utf-8"))
ITEMS = {item["key"]: item for item in LIBRARY["items"]}


def test_attachments_notes_and_the_trash_are_no_records():
    kept = {key for key, item in ITEMS.items() if is_record(item)}
    assert kept == {"ABCD2345", "BCDE3456", "CDEF4567", "DEFG5678", "EFGH6789", "JKLM2345"}


def test_the_csl_json_reader_maps_the_items_and_extra_lines():
    records, warnings = records_of([ITEMS["ABCD2345"], ITEMS["DEFG5678"], ITEMS["CDEF4567"]], "groups/12345")
    by_id = {record["id"]: record for record in records}
    assert set(by_id) == {"okafor2023gut", "olayinka2024fermentation", "okafor2019methanogens"}
    assert by_id["okafor2023gut"]["ids"] == {"pmid": "37001234", "zotero": "ABCD2345"}
    assert by_id["olayinka2024fermentation"]["arxiv"] == "2401.01234"
    assert by_id["olayinka2024fermentation"]["authors"] == ["Ọláyínká, Ṣadé", "Okafor, Amaka"]
    assert by_id["okafor2019methanogens"]["source"] == "PhD thesis, University of Lagos"
    assert all(type(record) is dict and list(record)[0] == "id" for record in records)  # plain mappings, id first
    assert warnings == []


def test_a_warning_names_the_zotero_item_it_is_about():
    odd = json.loads(json.dumps(ITEMS["CDEF4567"]))
    odd["csljson"]["titel"] = "a typo"
    records, warnings = records_of([ITEMS["ABCD2345"], odd], "groups/12345")
    assert len(records) == 2
    assert warnings == [
        "warning: Zotero item CDEF4567 of groups/12345 ('Methanogens in small ruminants'): unknown CSL-JSON field 'titel'; did you mean 'title'? (left out)"
    ]


def test_two_items_of_one_made_id_get_the_readers_letters():
    twin = json.loads(json.dumps(ITEMS["CDEF4567"]))
    twin["key"] = "CDEF4568"
    twin["csljson"]["publisher"] = "University of Ibadan"
    twin["data"]["dateAdded"] = "2024-01-01T00:00:00Z"  # added later: listed first when Zotero sorts by date modified
    records, _ = records_of([twin, ITEMS["CDEF4567"]], "groups/12345")
    assert [(r["id"], r["ids"]["zotero"]) for r in records] == [("okafor2019methanogens", "CDEF4567"), ("okafor2019methanogensb", "CDEF4568")]


@pytest.mark.parametrize("written, library", [("12345", "12345"), (" 12345 ", "12345"), ("https://www.zotero.org/groups/12345/okafor_lab/library", "12345")])
def test_a_library_id_is_its_digits(written, library):
    assert normalise_library_id(written) == library


def test_a_library_name_is_no_id():
    with pytest.raises(ValueError, match="the number in its address"):
        normalise_library_id("okafor_lab")


def test_a_collection_key_is_eight_letters_and_digits():
    assert normalise_collection("https://www.zotero.org/groups/12345/okafor_lab/collections/mypb2345") == "MYPB2345"
    with pytest.raises(ValueError, match="not a Zotero collection key"):
        normalise_collection("My publications")


def test_asks_without_a_library_or_of_two_libraries_are_refused():
    with pytest.raises(UsageError, match="needs its library"):
        check_asks([Ask("zotero", "collection", "MYPB2345", "--zotero-collection")])
    with pytest.raises(UsageError, match="one Zotero library at a time"):
        check_asks([Ask("zotero", "group", "1", "--zotero-group"), Ask("zotero", "user", "2", "--zotero-user")])


def test_profile_yaml_zotero_mapping_is_asked_with_its_lines():
    data, _ = parse_yaml("name: Amaka Okafor\nzotero:\n  group: 12345\n  collection: [MYPB2345]\n  tag: mine\n  all_items: true\n", "content/profile.yaml")
    assert profile_asks(data, "content/profile.yaml") == [
        Ask("zotero", "group", "12345", "content/profile.yaml:3: field 'zotero.group'"),
        Ask("zotero", "collection", "MYPB2345", "content/profile.yaml:4: field 'zotero.collection'"),
        Ask("zotero", "tag", "mine", "content/profile.yaml:5: field 'zotero.tag'"),
        Ask("zotero", "all_items", "yes", "content/profile.yaml:6: field 'zotero.all_items'"),
    ]


def test_a_collection_without_a_library_in_profile_yaml_is_a_content_error():
    data, _ = parse_yaml("name: Amaka Okafor\nzotero:\n  collection: MYPB2345\n", "content/profile.yaml")
    document = RawDocument(Path("content/profile.yaml"), "content/profile.yaml", data)
    args = argparse.Namespace(
        **{dest: [] for dest in ("author", "id", "author_id", "orcid", "doi", "openalex", "openalex_name", "dblp", "dblp_name")}, category=[]
    )
    with pytest.raises(ContentError, match=r"content/profile.yaml:3: field 'zotero.collection': a Zotero collection, tag or all_items needs its library"):
        choose_asks(args, document, Profile("Amaka Okafor"))


def shared(records: list[dict], owners_only: bool = True) -> Fetched:
    return Fetched(records=[{"year": 2020, **record} for record in records], owners_only=owners_only)


def test_a_shared_librarys_records_are_kept_when_the_owner_or_a_person_wrote_them():
    records = [
        {"id": "mine", "title": "Mine", "authors": ["Okafor, A."]},
        {"id": "edited", "title": "Edited", "authors": ["Brandt, Helen"], "editors": ["Amaka Okafor"]},
        {"id": "kenjis", "title": "Kenji's", "authors": ["Nakamura, K."]},
        {"id": "namesake", "title": "Another Okafor's", "authors": ["Okafor, Chidi"]},
        {"id": "others", "title": "Others'", "authors": ["Smith, John"]},
    ]
    outcome = decide({"zotero": shared(records)}, Filters(), [], Profile("Amaka Okafor"), [], people_names=["Kenji Nakamura"])
    kept = {i for i, reason in outcome.reasons["zotero"].items() if not reason}
    assert kept == {"mine", "edited", "kenjis"}
    assert (
        outcome.reasons["zotero"]["others"] == "no author or editor is you (the name and name_variants of content/profile.yaml) or a person of content/people/"
    )


def test_all_items_keeps_what_names_nobody_of_the_site():
    outcome = decide(
        {"zotero": shared([{"id": "others", "title": "Others'", "authors": ["Smith, John"]}], owners_only=False)}, Filters(), [], Profile("Amaka Okafor"), []
    )
    assert outcome.reasons["zotero"] == {"others": None}


def test_zotero_records_rank_as_the_users_own_list():
    assert source_rank("zotero") == OWN_LIST == source_rank("csl-json")


def test_a_backoff_header_holds_the_next_request_back():
    waits: list[float] = []
    polite = PoliteSession(
        Settings(api_url="http://127.0.0.1:1/zotero", delay=0, backoff=1.0), Progress(io.StringIO(), tty=False), "Zotero", sleep=waits.append
    )
    polite.mount("http://", Scripted([(200, b"[]", {"Backoff": "30"}), (200, b"[]")]))
    polite.fetch("http://127.0.0.1:1/zotero/groups/1/items/top", "Zotero items")
    polite.fetch("http://127.0.0.1:1/zotero/groups/1/items/top", "Zotero items")
    assert len(waits) == 1 and 29 < waits[0] <= 30


def test_a_503_with_backoff_waits_at_least_as_long_before_its_retry():
    waits: list[float] = []
    polite = PoliteSession(
        Settings(api_url="http://127.0.0.1:1/zotero", delay=0, backoff=1.0), Progress(io.StringIO(), tty=False), "Zotero", sleep=waits.append
    )
    polite.mount("http://", Scripted([(503, b"Service Unavailable", {"Backoff": "5"}), (200, b"[]")]))
    assert polite.fetch("http://127.0.0.1:1/zotero/groups/1/items/top", "Zotero items") == []
    assert sum(waits) >= 4.9  # the retry's own wait (1 s) and what is left of Backoff's 5 s


def test_an_item_with_no_date_is_left_out_with_a_warning_and_the_others_are_read():
    undated = json.loads(json.dumps(ITEMS["CDEF4567"]))
    del undated["csljson"]["issued"]
    records, warnings = records_of([ITEMS["ABCD2345"], undated], "groups/12345")
    assert [record["id"] for record in records] == ["okafor2023gut"]
    assert warnings == [
        "warning: Zotero item CDEF4567 of groups/12345 ('Methanogens in small ruminants'): "
        'this item has no date ("issued": {"date-parts": [[2024, 3, 15]]}): it is not read'
    ]
