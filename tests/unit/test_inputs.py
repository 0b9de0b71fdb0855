"""A build's input listing: its fingerprint, its record files, and updating it from known changes."""

from __future__ import annotations

from pathlib import Path

from conftest import MINIMAL_SITE, write_site
from sitegen.inputs import InputChanges, InputListing, fingerprint, input_files

BEFORE = {
    "content/site.yaml": (40, 1),
    "content/profile.yaml": (20, 1),
    "content/records/b.yaml": (100, 1),
    "content/records/a.yaml": (100, 1),
    "content/records/c.yml": (90, 1),
    "content/records/notes.txt": (5, 1),
    "templates/base.html": (300, 1),
}


def changed(files: dict, edits: dict) -> dict:
    """`files` with the stats of `edits` (None: the file removed)."""
    after = dict(files)
    for path, stat in edits.items():
        if stat is None:
            after.pop(path)
        else:
            after[path] = stat
    return after


def test_the_fingerprint_ignores_the_order_of_files_and_sees_any_change():
    assert fingerprint(BEFORE) == fingerprint(dict(reversed(BEFORE.items())))
    assert fingerprint(BEFORE) != fingerprint({**BEFORE, "content/records/a.yaml": (100, 2)})
    assert fingerprint(BEFORE) != fingerprint({**BEFORE, "content/records/a.yaml": (101, 1)})
    assert fingerprint(BEFORE) != fingerprint({**BEFORE, "content/records/d.yaml": (1, 1)})
    renamed = {("content/records/z.yaml" if path == "content/records/a.yaml" else path): stat for path, stat in BEFORE.items()}
    assert fingerprint(BEFORE) != fingerprint(renamed)


def test_a_listing_keeps_the_record_files_in_path_order():
    listing = InputListing.of(BEFORE)
    assert list(listing.record_stats) == ["content/records/a.yaml", "content/records/b.yaml", "content/records/c.yml"]
    assert listing.record_changes is None


def test_a_listing_updated_from_known_changes_equals_one_made_from_scratch():
    edits = [
        {"content/records/a.yaml": (120, 2)},  # a record edited
        {"content/records/d.yaml": (10, 2)},  # one added
        {"content/records/b.yaml": None},  # one removed
        {"templates/base.html": (310, 2), "content/site.yaml": (41, 2)},  # no record at all
        {"content/records/a.yaml": None, "content/records/e.yaml": (100, 1)},  # renamed
    ]
    last = InputListing.of(BEFORE)
    for edit in edits:
        after = changed(last.files, edit)
        paths = frozenset(path for path in after.keys() | last.files.keys() if after.get(path) != last.files.get(path))
        updated = last.updated(after, InputChanges(last.files, paths))
        fresh = InputListing.of(after)
        assert (updated.fingerprint, updated.record_stats) == (fresh.fingerprint, fresh.record_stats)
        assert list(updated.record_stats) == list(fresh.record_stats), "record files stay in path order"
        assert updated.record_changes == InputChanges(last.record_stats, frozenset(p for p in paths if p.startswith("content/records/") and not p.endswith(".txt")))
        assert updated.record_changes.since is last.record_stats
        last = updated


def test_a_path_named_but_unchanged_changes_nothing():
    last = InputListing.of(BEFORE)
    same = last.updated(dict(BEFORE), InputChanges(last.files, frozenset({"content/records/a.yaml", "content/gone.yaml"})))
    assert (same.fingerprint, same.record_stats) == (last.fingerprint, last.record_stats)


def test_changes_counted_from_another_listing_are_not_trusted():
    """Only changes from this very listing say where to look; any other, even an equal one, means listing afresh."""
    last = InputListing.of(BEFORE)
    after = changed(BEFORE, {"content/records/a.yaml": (120, 2)})
    for changes in (None, InputChanges(dict(BEFORE), frozenset()), InputChanges(after, frozenset())):
        updated = last.updated(after, changes)
        assert updated.fingerprint == fingerprint(after) and updated.record_stats["content/records/a.yaml"] == (120, 2)
        assert updated.record_changes is None


def test_input_files_lists_the_site_and_the_bundled_themes(tmp_path: Path):
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.yaml": "id: a\n", "content/records/.#a.yaml": "lock", "templates/x.html": "x"})
    files = input_files(site)
    assert {"content/site.yaml", "content/profile.yaml", "content/records/a.yaml", "templates/x.html"} <= files.keys()
    assert "content/records/.#a.yaml" not in files, "an editor's lock file is no input"
    assert any(path.startswith("<sitegen>/themes/") for path in files)
