"""The build cache is never wrong: a cached build equals a clean build, byte for byte.

Every test builds a copy of the demo site with the real command, changes one kind
of input, builds again with the cache, and compares the whole output folder with
a build made from scratch (`--no-cache`) into another folder.
"""

from __future__ import annotations

import pickle
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, run_sitegen, run_sitegen_on_terminal

CACHE = ".sitegen-cache"


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def build(site: Path, *extra: str) -> subprocess.CompletedProcess:
    result = run_sitegen("build", "--site", str(site), *extra)
    assert result.returncode == 0, result.stderr
    return result


def assert_equals_clean_build(site: Path) -> None:
    clean = site.parent / "clean-output"
    shutil.rmtree(clean, ignore_errors=True)
    build(site, "--no-cache", "--output", str(clean))
    cached, fresh = tree(site / "output"), tree(clean)
    assert sorted(cached) == sorted(fresh)
    different = [name for name in fresh if cached[name] != fresh[name]]
    assert different == []


@pytest.fixture
def cached_demo(demo_site: Path) -> Path:
    build(demo_site)
    assert (demo_site / CACHE / "state.pickle").is_file()
    return demo_site


def first_record(site: Path) -> Path:
    return sorted((site / "content" / "records").glob("*.yaml"))[0]


def test_a_no_change_rebuild_says_up_to_date_and_changes_nothing(cached_demo: Path) -> None:
    before = {p: p.stat().st_mtime_ns for p in (cached_demo / "output").rglob("*")}
    result = build(cached_demo)
    assert "up to date" in result.stderr
    assert {p: p.stat().st_mtime_ns for p in (cached_demo / "output").rglob("*")} == before


def test_editing_a_record_equals_a_clean_build(cached_demo: Path) -> None:
    record = first_record(cached_demo)
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace("title:", "title: 'Edited $\\alpha$ title'\nold_title:", 1), encoding="utf-8")
    result = build(cached_demo)
    assert "pages reused" in result.stderr  # the other records came from the cache
    assert "Edited" in (cached_demo / "output" / "index.html").read_text(encoding="utf-8")
    assert_equals_clean_build(cached_demo)


def test_adding_and_removing_records_equals_a_clean_build(cached_demo: Path) -> None:
    first_record(cached_demo).unlink()
    (cached_demo / "content" / "records" / "new.yaml").write_text(
        "id: new-one\ntitle: A brand new record\nyear: 2027\ncategories: [cs.XX]\n", encoding="utf-8"
    )
    build(cached_demo)
    assert (cached_demo / "output" / "subjects" / "cs.XX" / "index.html").is_file()
    assert_equals_clean_build(cached_demo)


def test_editing_a_template_equals_a_clean_build(cached_demo: Path) -> None:
    theme = REPO / "sitegen" / "themes" / "default" / "templates" / "partials" / "record_item.html"
    override = cached_demo / "templates" / "partials" / "record_item.html"
    override.parent.mkdir(parents=True)
    override.write_text(theme.read_text(encoding="utf-8").replace('class="record', 'class="record overridden'), encoding="utf-8")
    build(cached_demo)
    assert "record overridden" in (cached_demo / "output" / "index.html").read_text(encoding="utf-8")
    assert_equals_clean_build(cached_demo)


def test_editing_site_yaml_equals_a_clean_build(cached_demo: Path) -> None:
    settings = cached_demo / "content" / "site.yaml"
    settings.write_text(settings.read_text(encoding="utf-8") + "cname: www.example.org\nrecords_per_page: 5\n", encoding="utf-8")
    build(cached_demo)
    assert (cached_demo / "output" / "CNAME").read_text() == "www.example.org\n"
    assert (cached_demo / "output" / "page" / "2" / "index.html").is_file()
    assert_equals_clean_build(cached_demo)


def test_a_record_added_to_a_later_page_updates_the_count_on_the_first(cached_demo: Path) -> None:
    """Page 1 keeps its records and its navigation, but shows the record count: it is rendered again."""
    settings = cached_demo / "content" / "site.yaml"
    settings.write_text(settings.read_text(encoding="utf-8") + "records_per_page: 5\n", encoding="utf-8")
    build(cached_demo)
    last_page = sorted((cached_demo / "output" / "page").glob("*/index.html"), key=lambda p: int(p.parent.name))[-1]
    oldest_year = min(int(year) for year in re.findall(r'id="year-(\d+)"', last_page.read_text(encoding="utf-8")))
    # the oldest year, no subject: the new record goes to the end of the last page and changes no subject count
    (cached_demo / "content" / "records" / "zz-added.yaml").write_text(
        f"id: zz-added\ntitle: An added note\nauthors: [Ada Lovelace]\nyear: {oldest_year}\n", encoding="utf-8"
    )
    build(cached_demo)
    counts = [re.search(r'data-count="(\d+)"', page.read_text(encoding="utf-8"))[1] for page in (cached_demo / "output" / "index.html", last_page)]
    assert counts[0] == counts[1]
    assert_equals_clean_build(cached_demo)


def test_a_static_file_of_the_site_equals_a_clean_build(cached_demo: Path) -> None:
    static = cached_demo / "static" / "style.css"
    static.parent.mkdir(exist_ok=True)
    static.write_text("body { color: #000; }\n", encoding="utf-8")
    exports = [cached_demo / "output" / name for name in ("records.json", "publications.bib")]
    before = [(path.stat().st_ino, path.stat().st_mtime_ns) for path in exports]
    build(cached_demo)
    assert (cached_demo / "output" / "static" / "style.css").read_text() == "body { color: #000; }\n"
    assert [(path.stat().st_ino, path.stat().st_mtime_ns) for path in exports] == before, "no record changed: left as they were"
    assert_equals_clean_build(cached_demo)


def test_a_hand_edited_output_file_is_restored(cached_demo: Path) -> None:
    page = cached_demo / "output" / "index.html"
    page.write_text("vandalised", encoding="utf-8")
    (cached_demo / "output" / "stray.txt").write_text("not ours", encoding="utf-8")
    build(cached_demo)
    assert "vandalised" not in page.read_text(encoding="utf-8")
    assert_equals_clean_build(cached_demo)


def test_the_dev_server_looks_at_its_output_between_builds_and_undoes_hand_edits(cached_demo: Path) -> None:
    """`sitegen serve` checks output/ once after each build, while it waits, and a rebuild trusts
    that check; a page changed after it is kept by that rebuild, and the next check rebuilds."""
    from sitegen.build import input_files
    from sitegen.serve import Preview

    preview = Preview(cached_demo)
    preview.rebuild(input_files(cached_demo))
    assert preview.check_output() is False and preview.output_checked  # as the build left it
    other_page = sorted((cached_demo / "output" / "records").glob("*/index.html"))[-1]
    other_page.write_text("vandalised", encoding="utf-8")
    record = first_record(cached_demo)
    record.write_text(record.read_text(encoding="utf-8").replace("title:", "title: 'Edited title'\nold_title:", 1), encoding="utf-8")
    preview.rebuild(input_files(cached_demo))
    assert not preview.problems and "Edited title" in (cached_demo / "output" / "index.html").read_text(encoding="utf-8")
    assert other_page.read_text(encoding="utf-8") == "vandalised", "the rebuild after the edit did not look again"
    assert preview.check_output() is True  # the next look finds the page and builds again
    assert "vandalised" not in other_page.read_text(encoding="utf-8")
    assert preview.check_output() is False and preview.output_checked
    assert_equals_clean_build(cached_demo)


def test_a_build_told_what_changed_looks_at_those_files_alone(cached_demo: Path) -> None:
    """The dev server's watcher names the files an edit touched; its build reads those and
    compares no other file with the last build's. Told nothing, or told from another listing, it looks at all."""
    from sitegen.build import build_site
    from sitegen.cache import BuildCache
    from sitegen.inputs import InputChanges, input_files

    cache = BuildCache(cached_demo, long_lived=True)
    first = input_files(cached_demo)
    build_site(cached_demo, cache=cache, files=first)
    named, unnamed = sorted((cached_demo / "content" / "records").glob("*.yaml"))[:2]
    for record, title in ((named, "Named Edit"), (unnamed, "Unnamed Edit")):
        record.write_text(record.read_text(encoding="utf-8").replace("title:", f"title: '{title}'\nold_title:", 1), encoding="utf-8")
    second = input_files(cached_demo)
    result = build_site(cached_demo, cache=cache, files=second, changes=InputChanges(first, frozenset({f"content/records/{named.name}"})))
    index = (cached_demo / "output" / "index.html").read_text(encoding="utf-8")
    assert "Named Edit" in index and "Unnamed Edit" not in index, "only the named file was looked at"
    assert not result.up_to_date

    build_site(cached_demo, cache=cache, files=second, changes=InputChanges(dict(second), frozenset()))  # from an equal listing, not this one
    assert "Unnamed Edit" in (cached_demo / "output" / "index.html").read_text(encoding="utf-8")
    assert_equals_clean_build(cached_demo)


def edit_record(record: Path, old: str, new: str) -> None:
    text = record.read_text(encoding="utf-8")
    assert old in text, (record, old)
    record.write_text(text.replace(old, new, 1), encoding="utf-8")


class DevServerBuilds:
    """Builds in one process, each told which input files changed since the last one, as the dev server's are."""

    def __init__(self, site: Path):
        from sitegen.cache import BuildCache

        self.site = site
        self.cache = BuildCache(site, long_lived=True)
        self.files: dict | None = None

    def build(self):
        from sitegen.build import build_site
        from sitegen.inputs import InputChanges, input_files
        from sitegen.serve import changed_paths

        files = input_files(self.site)
        changes = None if self.files is None else InputChanges(self.files, frozenset(changed_paths(self.files, files)))
        self.files = files
        return build_site(self.site, cache=self.cache, files=files, changes=changes)


def watch_walks(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The names of the steps that walk every record, as they are taken."""
    import sitegen.build as build_module
    import sitegen.enrich as enrich_module
    import sitegen.render as render_module

    walks: set[str] = set()
    for module, name in ((build_module, "validate_site"), (enrich_module, "_enrich_all"), (render_module, "_per_record_outputs")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *args, real=real, name=name: walks.add(name) or real(*args))
    index_listing = render_module.ViewBuilder.index_listing  # the list pages laid out, and every page's key made
    monkeypatch.setattr(render_module.ViewBuilder, "index_listing", lambda views: walks.add("list pages") or index_listing(views))
    keys_sum = render_module.keys_sum  # every record's key hashed, for the exports
    monkeypatch.setattr(render_module, "keys_sum", lambda keys, positions=None: (positions is None and walks.add("keys_sum")) or keys_sum(keys, positions))
    return walks


EVERY_RECORD = {"validate_site", "_enrich_all", "_per_record_outputs", "list pages", "keys_sum"}


def test_builds_in_one_process_build_on_the_last_one_and_equal_clean_builds(cached_demo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The dev server's builds keep what the last one worked out and look only at what changed:
    after every kind of edit, the output equals a clean build; after a one-record edit, no step walked every record."""
    builds = DevServerBuilds(cached_demo)
    builds.build()
    walks = watch_walks(monkeypatch)
    records = sorted((cached_demo / "content" / "records").glob("*.yaml"))
    first, second = records[0], records[1]
    edits = [
        ("an abstract, first after a start with nothing to build", lambda: edit_record(first, "abstract:", "abstract: |\n  Rewritten.\nold_abstract:"), EVERY_RECORD),
        ("an abstract", lambda: edit_record(first, "Rewritten.", "Rewritten once more."), set()),
        ("a title", lambda: edit_record(first, "title:", "title: 'Another First Word'\nold_title:"), None),
        ("a date, which moves the record", lambda: edit_record(second, "\nyear:", "\nyear: 1999\nold_year:") or edit_record(second, "\ndate:", "\ndate: 1999-01-02\nold_date:"), EVERY_RECORD - {"validate_site"}),
        ("a record added", lambda: (cached_demo / "content" / "records" / "zz-new.yaml").write_text("id: zz-new\ntitle: Added Later\nauthors: [Lena Müller]\nyear: 2031\n", encoding="utf-8"), EVERY_RECORD),
        ("a record removed", lambda: second.unlink(), EVERY_RECORD),
        ("a template", lambda: write_template(cached_demo), EVERY_RECORD - {"validate_site", "_enrich_all"}),
        ("an abstract after the template", lambda: edit_record(first, "Rewritten once more.", "Rewritten again."), set()),
    ]
    for what, change, walkers in edits:
        walks.clear()
        change()
        result = builds.build()
        assert not result.up_to_date, what
        if walkers is not None:
            assert walks == walkers, what
        assert_equals_clean_build(cached_demo)


def test_builds_in_one_process_find_the_problems_an_edit_brings(cached_demo: Path) -> None:
    """The dev server's build checks only the files an edit touched, against the last build's records:
    an id another file uses, or a title left out, fails there as in a clean build; fixing it builds again."""
    from sitegen.errors import ContentError

    builds = DevServerBuilds(cached_demo)
    builds.build()
    first, second = sorted((cached_demo / "content" / "records").glob("*.yaml"))[:2]
    edit_record(first, "abstract:", "abstract: |\n  Rewritten.\nold_abstract:")
    builds.build()  # from now on, the last build's checked records are built on
    first_id, second_id = (re.search(r'^id: "?([^"\n]+)', path.read_text(encoding="utf-8"), re.M).group(1) for path in (first, second))
    for breaking, expected in (
        ((f'id: "{first_id}"', f'id: "{second_id}"'), f"duplicate id '{second_id}'"),
        (("\ntitle:", "\nuntitled:"), "missing required field 'title'"),
    ):
        edit_record(first, *breaking)
        with pytest.raises(ContentError) as failed:
            builds.build()
        assert expected in str(failed.value.problems[0]), expected
        assert expected in run_sitegen("check", "--site", str(cached_demo)).stderr
        edit_record(first, breaking[1], breaking[0])
        builds.build()
        assert_equals_clean_build(cached_demo)


def write_template(site: Path) -> None:
    (site / "templates").mkdir(exist_ok=True)
    source = REPO / "sitegen" / "themes" / "default" / "templates" / "partials" / "record_item.html"
    target = site / "templates" / "partials" / "record_item.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source.read_text(encoding="utf-8") + "\n<!-- the site's own -->\n", encoding="utf-8")


def test_a_cache_from_another_sitegen_version_is_not_used(cached_demo: Path) -> None:
    """Upgrading sitegen: the cache is keyed by its version and code, so an old one is ignored."""
    for path in [cached_demo / CACHE / "state.pickle", *(cached_demo / CACHE).glob("content-*.pickle")]:
        with path.open("rb") as stream:
            key, *where_parts_lie = pickle.load(stream)  # the head; then the pickle and the bytes after it
            rest = stream.read()
        path.write_bytes(pickle.dumps(("sitegen 0.0.1 (old code)", *where_parts_lie)) + rest)
    record = first_record(cached_demo)
    record.write_text(record.read_text(encoding="utf-8").replace("title:", "title: Changed\nold_title:", 1), encoding="utf-8")
    result = build(cached_demo)
    assert "pages reused" not in result.stderr  # nothing came from the old cache
    assert_equals_clean_build(cached_demo)


@pytest.mark.parametrize("damage", [b"", b"not a pickle at all", pickle.dumps(("x", "y"))[:5]])
def test_a_corrupt_cache_gives_a_warning_and_a_cold_build(cached_demo: Path, damage: bytes) -> None:
    (cached_demo / CACHE / "state.pickle").write_bytes(damage)
    for shard in (cached_demo / CACHE).glob("content-*.pickle"):
        shard.write_bytes(damage)
    result = build(cached_demo)
    assert result.stderr.count("warning: ignoring unreadable build cache") == 1
    assert "built" in result.stderr
    assert_equals_clean_build(cached_demo)
    assert "warning" not in build(cached_demo).stderr  # the next build wrote a good cache


def test_no_cache_neither_reads_nor_writes_the_cache(demo_site: Path) -> None:
    build(demo_site, "--no-cache")
    assert not (demo_site / CACHE).exists()
    assert (demo_site / "output" / "index.html").is_file()


def test_progress_on_a_terminal_and_plain_summary_otherwise(demo_site: Path) -> None:
    plain = build(demo_site, "--no-cache")
    assert plain.stderr.count("\n") == 1 and plain.stderr.startswith("built ")
    assert "\r" not in plain.stderr

    status, text = run_sitegen_on_terminal("build", "--site", str(demo_site), "--no-cache")
    assert status == 0
    assert "loading" in text and "rendering" in text and "writing" in text
    assert text.rstrip().splitlines()[-1].split("\x1b[K")[-1].startswith("built ")


# -- a site big enough for the work to be spread over processes ------------------

LARGE = 450  # above parallel.MIN_PARALLEL_ITEMS: records are read, converted and rendered by forked workers


@pytest.fixture
def large_site(demo_site: Path) -> Path:
    records = demo_site / "content" / "records"
    for number in range(LARGE):
        (records / f"gen{number:04d}.yaml").write_text(
            f"id: gen.{number:04d}\ntitle: Generated paper {number} on $\\ell_{{{number % 7}}}$ bounds\n"
            f"authors: [Lena Müller, Author {number % 13}]\nyear: {2000 + number % 20}\n"
            f"categories: [cs.{'LG' if number % 2 else 'DC'}]\n"
            f"abstract: |\n  We show *result {number}* holds.\n\n  A second paragraph.\n",
            encoding="utf-8",
        )
    (demo_site / "content" / "site.yaml").write_text(
        (demo_site / "content" / "site.yaml").read_text(encoding="utf-8") + "records_per_page: 100\n", encoding="utf-8"
    )
    return demo_site


def test_a_large_site_built_by_workers_is_complete_and_cached_builds_equal_clean_ones(large_site: Path) -> None:
    build(large_site)
    output = large_site / "output"
    pages = list((output / "records").glob("*/index.html"))
    assert len(pages) == LARGE + 22
    assert "result 17" in (output / "records" / "gen.0017" / "index.html").read_text(encoding="utf-8")
    assert not list(large_site.glob(".output.*"))  # no staging folder left behind
    record = large_site / "content" / "records" / "gen0123.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("Generated paper", "Edited paper"), encoding="utf-8")
    build(large_site)
    assert "Edited paper 123" in (output / "records" / "gen.0123" / "index.html").read_text(encoding="utf-8")
    assert_equals_clean_build(large_site)


def test_builds_in_one_process_on_a_site_of_many_list_pages_equal_clean_builds(large_site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a site whose lists take several pages, a one-record edit in the dev server makes new keys for the
    pages that show the record alone; after edits that keep the lists and edits that change them, every
    page's key is a clean build's and the output is a clean build's."""
    from sitegen.build import build_site
    from sitegen.cache import BuildCache

    builds = DevServerBuilds(large_site)
    builds.build()
    walks = watch_walks(monkeypatch)
    records = large_site / "content" / "records"
    edits = [
        ("an abstract, on the second page of the profile and of its subject", lambda: edit_record(records / "gen0123.yaml", "We show", "We now show"), set()),
        ("an abstract, on the last page of both", lambda: edit_record(records / "gen0449.yaml", "We show", "Here we show"), set()),
        ("a record made featured", lambda: edit_record(records / "gen0200.yaml", "\nyear:", "\nfeatured: true\nyear:"), None),
        ("a record moved to another subject", lambda: edit_record(records / "gen0300.yaml", "[cs.DC]", "[cs.LG]"), None),
        ("the abstract of the featured record, which every profile page is keyed by", lambda: edit_record(records / "gen0200.yaml", "We show", "We firmly show"), set()),
        ("an abstract after those", lambda: edit_record(records / "gen0123.yaml", "We now show", "We still show"), set()),
    ]
    for what, change, walkers in edits:
        walks.clear()
        change()
        builds.build()
        if walkers is not None:
            assert walks == walkers, what
        clean = BuildCache(large_site, enabled=False)
        build_site(large_site, large_site.parent / "clean-output", cache=clean)
        assert builds.cache.state.page_keys == clean.state.page_keys, what
        assert tree(large_site / "output") == tree(large_site.parent / "clean-output"), what
        shutil.rmtree(large_site.parent / "clean-output")


def test_a_failing_large_build_leaves_the_output_and_no_staging_folder(large_site: Path) -> None:
    build(large_site)
    output = large_site / "output"
    (output / "index.html").write_text("hand-edited", encoding="utf-8")  # the next build must start a new folder
    before = tree(output)
    templates = large_site / "templates"
    templates.mkdir(exist_ok=True)
    (templates / "subject.html").write_text("{{ 1 / 0 }}", encoding="utf-8")  # after the record pages were written
    result = run_sitegen("build", "--site", str(large_site))
    assert result.returncode == 1 and "ZeroDivisionError" in result.stderr
    assert tree(output) == before
    assert not list(large_site.glob(".output.*"))


def test_a_helper_that_cannot_write_its_results_stops_the_build_in_one_line(large_site: Path) -> None:
    """A full disk where a helper process writes its results (here: a file size limit) is an error the user can act on."""
    build(large_site)
    output = large_site / "output"
    before = tree(output)
    # files of at most 100 KiB (`ulimit -f` counts KiB): a helper's results for the 472 record files take
    # more; nothing the build writes before them does
    command = f"ulimit -f 100 && exec {shlex.quote(sys.executable)} -m sitegen build --site {shlex.quote(str(large_site))} --no-cache"
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert result.stderr.startswith("error: [Errno 27] a worker process could not write its results to a temporary file in ")
    assert "(set TMPDIR to a folder with room)" in result.stderr and "Traceback" not in result.stderr
    assert tree(output) == before
    assert not list(large_site.glob(".output.*"))
