"""The render stage's check that every page it lists can be written, on every system."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitegen.render import address_conflicts

SITE = {"index.html": "profile", "feed.xml": "exports", "records/a/index.html": "records", "posts/b/index.html": "posts", ".nojekyll": "exports"}


def messages(extra: dict[str, str]) -> list[str]:
    return [problem.message for problem in address_conflicts({**SITE, **extra})]


def test_a_site_whose_pages_all_have_a_place_has_nothing_to_say():
    assert messages({"a..b/index.html": "pages", "records/b/index.html": "records"}) == []


@pytest.mark.parametrize("path", ["../x/index.html", "/etc/x", "a//b", "./x", "a/./b", "a/..", "..", "x/"])
def test_a_page_outside_output_or_at_no_file_is_named(path):
    assert messages({path: "theme-pages"}) == [f"'theme-pages' would write output/{path}, which is not a file inside output/"]


def test_two_names_one_ignoring_case_are_named_with_their_kinds():
    assert messages({"Records/c/index.html": "pages"}) == ["output/records (by 'records') and output/Records (by 'pages') are one name on macOS and Windows"]
    assert messages({"posts/B/index.html": "theme-pages"}) == [
        "output/posts/b (by 'posts') and output/posts/B (by 'theme-pages') are one name on macOS and Windows"
    ]


def test_a_file_where_a_folder_is_needed_is_named():
    assert messages({"feed.xml/index.html": "pages"}) == [
        "output/feed.xml (by 'exports') is a file, and 'pages' needs a folder of that name for output/feed.xml/index.html"
    ]


@given(st.lists(st.text(st.sampled_from("aB./"), min_size=1, max_size=6), min_size=1, max_size=8, unique=True))
def test_the_quick_look_and_the_full_one_agree(paths):
    """`address_conflicts` says nothing exactly when no path is outside output/, none shares a name with
    another ignoring case, and no file stands where another needs a folder (a brute-force look)."""
    found = address_conflicts(dict.fromkeys(paths, "k"))
    parts = {path: path.split("/") for path in paths}
    outside = any(path.startswith("/") or any(part in ("", ".", "..") for part in parts[path]) for path in paths)
    names = {"/".join(parts[path][:end]) for path in paths for end in range(1, len(parts[path]) + 1)}
    folders = {"/".join(parts[path][:end]) for path in paths for end in range(1, len(parts[path]))}
    clash = len({name.lower() for name in names}) != len(names) or bool(folders & set(paths))
    assert bool(found) == (outside or clash), (paths, found)


def test_the_pages_made_from_every_record_come_first_the_exports_before_the_lists(tmp_path):
    """render.making_order: what the write stage gives one process to make (see write.write_output's `together`)."""
    from conftest import MINIMAL_SITE, write_site

    from sitegen.prepare import prepare_site, read_inputs, site_key
    from sitegen.render import making_order, render_site

    record = "id: r{n}\ntitle: Paper {n}\nauthors: [Ada Lovelace]\nyear: 202{n}\ncategories: [cs.DC, cs.LG]\nabstract: Text {n}.\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, **{f"content/records/r{n}.yaml": record.format(n=n) for n in range(3)}})
    listing, digests = read_inputs(site)
    prepared = prepare_site(site, listing, digests, None)
    todo = render_site(prepared.site, prepared.theme, listing, digests, site_key(prepared)).todo
    files, together = making_order(todo)
    first = [path for path, _ in files[:together]]
    assert first == [
        "publications.bib",
        "publications.ris",
        "records.json",
        "search/facets.json",
        "search/text.json",
        "index.html",
        "subjects/cs.DC/index.html",
        "subjects/cs.LG/index.html",
    ]
    assert sorted(path for path, _ in files[together:]) == sorted(page.path for page in todo if page.path not in first)
    assert "records/r0/index.html" in dict(files[together:])


def test_an_economists_profile_links_are_named_as_the_sites_spell_themselves(tmp_path):
    """RePEc and NBER are the economist's profiles beside SSRN: 'RePEc', not 'Repec'."""
    import lxml.html
    from conftest import MINIMAL_SITE, rendered_files, write_site

    profile = (
        "name: Ada Lovelace\nlinks:\n  repec: https://ideas.repec.org/e/pla1.html\n"
        "  nber: https://www.nber.org/people/ada_lovelace\n  ssrn: https://papers.ssrn.com/author=1\n"
    )
    files = rendered_files(write_site(tmp_path, {**MINIMAL_SITE, "content/profile.yaml": profile}))
    page = lxml.html.fromstring(files["index.html"])
    names = {" ".join(a.text_content().split()) for a in page.xpath("//a[contains(@href, 'repec') or contains(@href, 'nber') or contains(@href, 'ssrn')]")}
    assert {"RePEc", "NBER", "SSRN"} <= names
