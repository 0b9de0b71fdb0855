"""The fragment store (sitegen.fragments): per-record pieces of output, made once, kept only while they are valid."""

from __future__ import annotations

import dataclasses

from sitegen.fragments import Fragments
from unit.test_cite import make_entry

ENTRY = dataclasses.replace(make_entry("2401.00001", "A Title", ("Ada Lovelace",)), key="file-digest:0 owners")


class Maker:
    """Counts what it makes, so a test sees whether a piece was made again."""

    def __init__(self) -> None:
        self.made = 0

    def __call__(self, entry) -> str:
        self.made += 1
        return f"piece {self.made} of {entry.id}"


def test_a_piece_is_made_once_a_build_whatever_asks_for_it() -> None:
    store, make = Fragments(), Maker()
    store.start("site")
    assert store.get("bibtex", ENTRY, make) == store.get("bibtex", ENTRY, make) == "piece 1 of 2401.00001"
    assert make.made == 1


def test_the_dev_server_keeps_pieces_from_build_to_build() -> None:
    store, make = Fragments(keep_between_builds=True), Maker()
    for _ in range(3):
        store.start("site")
        assert store.get("ris", ENTRY, make, shared=False) == "piece 1 of 2401.00001"
    assert make.made == 1


def test_a_changed_record_or_cite_key_or_site_makes_the_piece_again() -> None:
    store, make = Fragments(keep_between_builds=True), Maker()
    store.start("site")
    store.get("list item", ENTRY, make)
    store.start("site")
    store.get("list item", dataclasses.replace(ENTRY, key="file-digest:1 owners"), make)  # the record file was edited
    assert make.made == 2
    store.start("site")
    store.get("list item", dataclasses.replace(ENTRY, key="file-digest:1 owners", cite_key="lovelace2024a"), make)  # a namesake key came
    assert make.made == 3
    store.start("another theme")  # the site-wide key changed: nothing is kept
    store.get("list item", dataclasses.replace(ENTRY, key="file-digest:1 owners", cite_key="lovelace2024a"), make)
    assert make.made == 4


def test_pieces_no_build_asked_for_are_dropped() -> None:
    store, make = Fragments(keep_between_builds=True), Maker()
    store.start("site")
    store.get("bibtex", ENTRY, make)
    store.start("site")  # a build without that record
    store.get("bibtex", dataclasses.replace(ENTRY, slug="2401.00002", key="other-file:0 owners"), make)
    store.start("site")
    store.get("bibtex", ENTRY, make)
    assert make.made == 3


def test_a_build_that_failed_before_asking_for_any_piece_loses_nothing() -> None:
    store, make = Fragments(keep_between_builds=True), Maker()
    store.start("site")
    store.get("bibtex", ENTRY, make)
    store.start("site")  # a template error before the first page
    store.start("site")
    store.get("bibtex", ENTRY, make)
    assert make.made == 1


def test_a_one_off_build_keeps_only_what_several_pages_show() -> None:
    store, make = Fragments(), Maker()
    store.start("site")
    store.get("ris", ENTRY, make, shared=False)  # publications.ris: asked for once
    store.get("ris", ENTRY, make, shared=False)
    assert make.made == 2
    store.start("site")
    store.get("list item", ENTRY, make)
    assert make.made == 3  # a new build of a one-off store starts empty


def test_a_whole_site_value_is_kept_while_its_key_and_the_site_wide_key_hold() -> None:
    """The dev server keeps a value made from the whole site (the people directory) from build to build while
    everything it was made from (`key`) is the same; a one-off build makes it once per build."""
    made: list[str] = []

    def make(label: str) -> object:
        made.append(label)
        return object()

    kept = Fragments(keep_between_builds=True)
    kept.start("site key 1")
    first = kept.value("people directory", lambda: "reads 1", lambda: make("first"))
    assert kept.value("people directory", lambda: "reads 1", lambda: make("again")) is first
    kept.start("site key 1")  # the next build: a title edit, the same reads
    assert kept.value("people directory", lambda: "reads 1", lambda: make("kept")) is first
    kept.start("site key 1")  # a year edit: other reads
    assert kept.value("people directory", lambda: "reads 2", lambda: make("year")) is not first
    kept.start("site key 2")  # a template edit
    kept.value("people directory", lambda: "reads 2", lambda: make("template"))
    assert made == ["first", "year", "template"]

    one_off = Fragments()
    one_off.start("site key 1")

    def no_key() -> str:
        raise AssertionError("a one-off build worked out the key")

    one_off.value("people directory", no_key, lambda: make("one-off"))
    assert made[-1] == "one-off"
