"""The input listing brought up to date from the paths the file system reported (what the dev server does after an
edit): it equals a whole listing, or it says that only a whole listing can tell."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import hypothesis.strategies as st
from hypothesis import given, settings

from sitegen.inputs import Listing, list_inputs, listing_with_changes, names_windows_cannot_hold

FOLDERS = ["content", "content/records", "content/records/sub", "static", "templates"]


def site_with(files: dict[str, str], root: Path) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def real(site: Path, name: str) -> str:
    return os.path.join(os.path.realpath(site), name)


def test_a_changed_added_and_removed_file_are_looked_at_again(tmp_path: Path) -> None:
    site = site_with({"content/site.yaml": "title: A\n", "content/records/a.yaml": "id: a\n", "content/records/b.yaml": "id: b\n"}, tmp_path)
    before = list_inputs(site)
    (site / "content/records/a.yaml").write_text("id: a\ntitle: longer now\n", encoding="utf-8")
    (site / "content/records/b.yaml").unlink()
    (site / "content/records/c.yaml").write_text("id: c\n", encoding="utf-8")
    reported = [real(site, f"content/records/{name}.yaml") for name in "abc"]

    updated = listing_with_changes(before, reported)

    assert updated is not None and updated.files == list_inputs(site).files
    assert "content/records/b.yaml" in before.files, "the listing it started from is left as it was"


def test_what_is_not_an_input_is_passed_over(tmp_path: Path) -> None:
    site = site_with({"content/site.yaml": "title: A\n"}, tmp_path)
    before = list_inputs(site)
    (site / "content/.site.yaml.swp").write_text("draft", encoding="utf-8")
    (site / "output").mkdir()
    updated = listing_with_changes(before, [real(site, "content/.site.yaml.swp"), real(site, "output"), real(site, ".sitegen-cache")])
    assert updated is not None and updated.files == before.files


def test_editor_backups_and_autosaves_are_no_inputs_and_no_warnings(tmp_path: Path) -> None:
    """As for Jekyll and Hugo: names starting with '.' or '#', or ending with '~' (Emacs, Vim, nano, gedit)."""
    site = site_with({"content/site.yaml": "title: A\n", "content/records/a.yaml": "id: a\n"}, tmp_path)
    before = list_inputs(site)
    editors = ["content/records/a.yaml~", "content/records/#a.yaml#", "content/records/.#a.yaml", "content/records/.a.yaml.swp", "static/style.css~"]
    site_with(dict.fromkeys(editors, "left by an editor"), site)
    (site / "content/#drafts#").mkdir()
    (site / "content/#drafts#/b.yaml").write_text("id: b\n", encoding="utf-8")
    after = list_inputs(site)
    assert after.files.keys() == before.files.keys() and not after.warnings
    updated = listing_with_changes(before, [real(site, name) for name in editors])
    assert updated is not None and updated.files == before.files
    (site / "content/records/b.yaml").write_text("id: b\n", encoding="utf-8")
    (site / "content/records/b~.yaml").write_text("id: c\n", encoding="utf-8")
    assert list_inputs(site).files.keys() - before.files.keys() == {"content/records/b.yaml", "content/records/b~.yaml"}, "only the ends of a name count"


def test_folders_links_and_new_input_folders_need_a_whole_listing(tmp_path: Path) -> None:
    site = site_with({"content/site.yaml": "title: A\n", "content/records/a.yaml": "id: a\n"}, tmp_path)
    before = list_inputs(site)
    (site / "content/records/new").mkdir()
    assert listing_with_changes(before, [real(site, "content/records/new")]) is None
    (site / "content/link.yaml").symlink_to(site / "content/site.yaml")
    assert listing_with_changes(before, [real(site, "content/link.yaml")]) is None
    (site / "static").mkdir()
    assert listing_with_changes(before, [real(site, "static")]) is None
    shutil.rmtree(site / "content/records")
    assert listing_with_changes(before, [real(site, "content/records")]) is None, "a folder removed"
    assert listing_with_changes(before, ["/somewhere/else/a.yaml"]) is None, "a folder the listing did not walk"


def test_a_listing_with_links_is_always_listed_whole(tmp_path: Path) -> None:
    site = site_with({"content/site.yaml": "title: A\n"}, tmp_path)
    (site / "content/alias.yaml").symlink_to(site / "content/site.yaml")
    before = list_inputs(site)
    assert before.real_paths
    assert listing_with_changes(before, [real(site, "content/site.yaml")]) is None


# -- the property: after any edits, with every touched path reported, it equals a whole listing or declines ---------

edits = st.lists(
    st.tuples(
        st.sampled_from(["write", "grow", "delete", "mkdir", "rmdir", "dotfile"]),
        st.sampled_from(FOLDERS),
        st.sampled_from(["a.yaml", "b.md", "c.css", "d"]),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=60, deadline=None)
@given(rounds=st.lists(edits, min_size=1, max_size=4))
def test_brought_up_to_date_it_equals_a_whole_listing(rounds: list[list[tuple[str, str, str]]]) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        site = site_with({"content/site.yaml": "title: A\n", "content/records/a.yaml": "id: a\n", "static/c.css": "p {}\n"}, Path(temporary))
        listing: Listing = list_inputs(site)
        for edits_of_round in rounds:
            reported = [apply(site, *edit) for edit in edits_of_round]
            updated = listing_with_changes(listing, [path for path in reported if path])
            whole = list_inputs(site)
            if updated is not None:
                assert updated.files == whole.files
            listing = whole if updated is None else updated


def apply(site: Path, action: str, folder: str, name: str) -> str | None:
    """One edit, and the path the file system would report for it (None: nothing changed)."""
    path = site / folder / name
    try:
        if action in ("write", "grow"):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("x" * (1 + len(action)), encoding="utf-8")
        elif action == "delete":
            path.unlink()
        elif action == "mkdir":
            (site / folder).mkdir(parents=True, exist_ok=True)
            path = site / folder / "folder"
            path.mkdir()
        elif action == "rmdir":
            shutil.rmtree(site / folder)
            path = site / folder
        else:
            path = site / folder / f".{name}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("swap", encoding="utf-8")
    except OSError:
        return None
    return os.path.join(os.path.realpath(path.parent), path.name)


def test_names_a_windows_clone_cannot_hold_and_only_those() -> None:
    listing = Listing(Path("site"))
    fine = ["content/records/conference.yaml", "static/console.pdf", "static/com10.txt", "static/auxiliary/a.pdf", "static/v1.0/a.pdf", "static/a b.pdf"]
    not_on_windows = ["static/aux/a.pdf", "static/COM1.txt", "content/pages/nul.md", "static/lpt9", "static/v1./a.pdf", "static/a /b.pdf", "static/a|b.pdf"]
    listing.files = dict.fromkeys([*fine, *not_on_windows, "<sitegen>/themes/default/x:y"], (1, 1))
    assert sorted(problem.location.path for problem in names_windows_cannot_hold(listing) if problem.location) == sorted(not_on_windows)
    listing.files = dict.fromkeys([*fine, "static/CV.pdf", "static/cv.PDF", "static/Talks/a.pdf", "static/talks/b.pdf"], (1, 1))
    assert [problem.location.path for problem in names_windows_cannot_hold(listing) if problem.location] == [
        "static/CV.pdf"
    ]  # one folder on Windows: no file lost
