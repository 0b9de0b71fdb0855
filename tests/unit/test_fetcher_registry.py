"""A fetcher is its declaration: the command line, profile.yaml, people's files and the checks follow from it.

A toy fetcher is registered for each test (and removed after): nothing else in sitegen names it, so whatever
`sitegen fetch` does with it comes from `sitegen.sources.Fetcher` and its `FetchOption`s alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen import fetch
from sitegen.cli import build_parser
from sitegen.fetch import Fetched
from sitegen.load import parse_yaml
from sitegen.model import Profile, RawDocument
from sitegen.sources import FETCHERS, Fetcher, FetchOption, fetch_options
from sitegen.validate import PROFILE_EXTRAS


def normalise_toy_id(value: str) -> str:
    if not value.strip().lower().startswith("t"):
        raise ValueError(f"expected a toy id (T123), got {value!r}")
    return value.strip().upper()


TOY = Fetcher(
    "toy",
    lambda asks, context: Fetched([]),
    rank=5,
    label="ToyIndex",
    api_env="SITEGEN_TOY_API",
    options=(
        FetchOption("--toy", "author", "TOY_ID", "ToyIndex: the works of this author (T123)", profile_key="toy", person_key=True, check=normalise_toy_id),
        FetchOption("--toy-name", "name", "NAME", "ToyIndex: find the author by name"),
        FetchOption("--toy-everything", "all", help="ToyIndex: every work, not only the author's", switch=True),
    ),
)


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(FETCHERS, "toy", TOY)
    return TOY


def profile_document(text: str) -> RawDocument:
    data, problem = parse_yaml(text, "content/profile.yaml")
    assert problem is None
    return RawDocument(Path("content/profile.yaml"), "content/profile.yaml", data)


def fetch_args(*words: str):
    return build_parser().parse_args(["fetch", *words])


def test_its_options_are_on_the_command_line_with_their_help(toy, capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["fetch", "--help"])
    help_text = capsys.readouterr().out
    assert "--toy TOY_ID" in help_text and "ToyIndex: the works of this author (T123)" in help_text
    assert "--toy-everything" in help_text and "$SITEGEN_TOY_API" in help_text
    assert "ToyIndex" in build_parser().format_help()  # the fetch command's line names the source


def test_its_options_become_asks_checked_before_any_request(toy):
    asks = fetch.choose_asks(fetch_args("--toy", " t42 ", "--toy-name", "Ada Lovelace", "--toy-everything"), None, Profile("X"))
    assert [(a.source, a.kind, a.value, a.where) for a in asks] == [
        ("toy", "author", "T42", "--toy"),
        ("toy", "name", "Ada Lovelace", "--toy-name"),
        ("toy", "all", "yes", "--toy-everything"),
    ]
    with pytest.raises(fetch.UsageError, match=r"^--toy: expected a toy id \(T123\), got 'x9'"):
        fetch.choose_asks(fetch_args("--toy", "x9"), None, Profile("X"))


def test_its_profile_key_asks_the_same_and_a_wrong_value_is_an_error_at_its_line(toy):
    document = profile_document("name: X\nemail: x@example.org\ntoy: [t1, t2]\n")
    asks = fetch.choose_asks(fetch_args(), document, Profile("X"))
    assert [(a.source, a.value, a.where) for a in asks] == [
        ("toy", "T1", "content/profile.yaml:3: field 'toy'"),
        ("toy", "T2", "content/profile.yaml:3: field 'toy'"),
    ]
    wrong = profile_document("name: X\n\ntoy: y7\n")
    with pytest.raises(fetch.ContentError, match=r"^content/profile.yaml:3: field 'toy': expected a toy id"):
        fetch.choose_asks(fetch_args(), wrong, Profile("X"))


def test_a_person_of_the_site_asks_it_by_the_same_key(toy, tmp_path):
    people = tmp_path / "content" / "people"
    people.mkdir(parents=True)
    (people / "ada.yaml").write_text("name: Ada Lovelace\ntoy: t7\n", encoding="utf-8")
    asks = [a for a in fetch.asks_from_people(tmp_path) if a.source == "toy"]
    assert [(a.kind, a.value, a.where) for a in asks] == [("author", "t7", "content/people/ada.yaml:2: field 'toy'")]


def test_messages_name_it_by_its_label_and_nothing_to_fetch_names_its_key_and_option(toy):
    assert fetch.label("toy") == "ToyIndex"
    with pytest.raises(fetch.NothingToFetch) as nothing:
        fetch.choose_asks(fetch_args(), None, Profile("X"))
    assert "toy:" in str(nothing.value) and "--toy" in str(nothing.value)


def test_keep_refuses_its_options_too(toy):
    with pytest.raises(fetch.UsageError, match="--keep cannot go with --toy-name"):
        fetch.refuse_what_keep_ignores(fetch_args("--keep", "1", "--toy-name", "Ada"))


def test_the_shipped_fetchers_keys_are_profile_fields_and_one_flag_may_ask_two_sources():
    assert {"orcid", "dois", "openalex", "dblp", "pubmed", "zotero"} <= PROFILE_EXTRAS
    assert fetch_options()["--orcid"].help.startswith("ORCID:")  # Crossref declares it too, without a help line
    asks = fetch.choose_asks(fetch_args("--orcid", "0000-0002-1825-0097"), None, Profile("X"))
    assert sorted(a.source for a in asks) == ["crossref", "orcid"]
