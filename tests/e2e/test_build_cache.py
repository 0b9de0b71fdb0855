"""The build cache is never wrong: a cached build equals a clean build, byte for byte.

Every test builds a copy of the demo site with the real command, changes one kind
of input, builds again with the cache, and compares the whole output folder with
a build made from scratch (`--no-cache`) into another folder.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, run_sitegen, run_sitegen_on_terminal, run_sitegen_process, tree, write_site

pytestmark = pytest.mark.slow  # each test builds the demo site (or a large one) twice and compares

CACHE = ".sitegen-cache"


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
    assert (demo_site / CACHE / "state.json").is_file()
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
    assert "files reused" in result.stderr  # the other records came from the cache
    built, reused = re.search(r"^built (\d+) pages .*, (\d+) files reused$", result.stderr, re.M).groups()  # type: ignore[union-attr]
    assert int(reused) > int(built), "what is reused is every file the edit leaves alone (styles, feeds, pages), not pages alone"
    assert "Edited" in (cached_demo / "output" / "index.html").read_text(encoding="utf-8")
    assert_equals_clean_build(cached_demo)


def test_adding_and_removing_records_equals_a_clean_build(cached_demo: Path) -> None:
    first_record(cached_demo).unlink()
    (cached_demo / "content" / "records" / "new.yaml").write_text("id: new-one\ntitle: A brand new record\nyear: 2027\ncategories: [cs.XX]\n", encoding="utf-8")
    build(cached_demo)
    assert (cached_demo / "output" / "subjects" / "cs.XX" / "index.html").is_file()
    assert_equals_clean_build(cached_demo)


def test_editing_a_projects_records_changes_the_pages_of_the_records_it_names_and_no_other(cached_demo: Path) -> None:
    """A record's page names its projects: a project that names it now, or no more, is an input of that page alone."""
    project = cached_demo / "content" / "projects" / "preemptible-training.md"
    before = {path: path.stat().st_mtime_ns for path in (cached_demo / "output" / "records").rglob("index.html")}
    project.write_text(project.read_text(encoding="utf-8").replace('"2106.04871"', '"2205.10027"'), encoding="utf-8")
    build(cached_demo)
    changed = {path.parent.name for path, mtime in before.items() if path.stat().st_mtime_ns != mtime}
    assert changed == {"2106.04871", "2205.10027"}  # left the project, joined it
    assert "projects-section" in (cached_demo / "output" / "records" / "2205.10027" / "index.html").read_text(encoding="utf-8")
    assert "projects-section" not in (cached_demo / "output" / "records" / "2106.04871" / "index.html").read_text(encoding="utf-8")
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


def test_a_record_that_becomes_software_changes_its_subjects_count_word_on_the_404_page(cached_demo: Path) -> None:
    """The subject lists (the profile's, the 404 page's) say "works" of a subject holding software: a record whose
    type changes keeps every count as it was, and the 404 page, whose key held the counts alone, kept "publications"."""
    record = cached_demo / "content" / "records" / "1811.02047.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("source: arXiv\n", "source: GitHub\ntype: software\n"), encoding="utf-8")
    build(cached_demo)
    assert re.search(
        r"stat\.ML</span></a> <span class=\"subject-count\">\d+<span class=\"visually-hidden\"> works?<",
        (cached_demo / "output" / "404.html").read_text(encoding="utf-8"),
    )
    assert_equals_clean_build(cached_demo)


def test_a_record_on_a_later_page_becoming_software_changes_the_count_on_the_first(tmp_path: Path) -> None:
    """Page 1 of the profile (and of a subject) kept "3 publications" when the oldest record, on page 2, became
    software, while page 2 and a clean build said "3 works": the count's word is the whole list's."""
    records = {
        f"content/records/r{year}.yaml": f"id: r{year}\ntitle: Paper {year}\nauthors: [Ada Lovelace]\nyear: {year}\ntype: article\nsource: Journal of X\ncategories: [cs.DS]\n"
        for year in (2020, 2021, 2022)
    }
    site = write_site(
        tmp_path / "site",
        {"content/site.yaml": "title: T\nbase_url: https://e.org/\nrecords_per_page: 2\n", "content/profile.yaml": "name: Ada Lovelace\n", **records},
    )
    build(site)
    oldest = site / "content" / "records" / "r2020.yaml"
    oldest.write_text(oldest.read_text(encoding="utf-8").replace("type: article", "type: software"), encoding="utf-8")
    build(site)
    for page in ("index.html", "subjects/cs.DS/index.html"):
        assert re.search(r'<p class="count" data-count="3">3 works', (site / "output" / page).read_text(encoding="utf-8")), page
    assert_equals_clean_build(site)


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


def test_a_home_page_deleted_by_hand_is_built_again_not_refused(cached_demo: Path) -> None:
    """The last build's own output folder is replaced whatever was deleted from it (a folder without index.html
    looks like someone else's, but the build state says whose it is)."""
    (cached_demo / "output" / "index.html").unlink()
    result = build(cached_demo)
    assert result.returncode == 0, result.stderr
    assert (cached_demo / "output" / "index.html").is_file()
    assert_equals_clean_build(cached_demo)


def test_a_cache_from_another_sitegen_version_is_not_used(cached_demo: Path) -> None:
    """Upgrading sitegen or a library: the cache files start with a key of both, so an old one is ignored."""
    for path in (cached_demo / CACHE).glob("*.json"):
        _, _, body = path.read_bytes().partition(b"\n")
        path.write_bytes(b"an older key\n" + body)
    record = first_record(cached_demo)
    record.write_text(record.read_text(encoding="utf-8").replace("title:", "title: Changed\nold_title:", 1), encoding="utf-8")
    result = build(cached_demo)
    assert "files reused" not in result.stderr and "cache:" not in result.stderr  # nothing came from the old cache
    assert_equals_clean_build(cached_demo)


def test_upgrading_an_installed_library_is_a_cold_build(cached_demo: Path, tmp_path: Path) -> None:
    """A library upgraded (or installed) where Python imports from: the next build uses nothing cached."""
    libraries = tmp_path / "site-packages"
    (libraries / "markdown_extras-1.0.dist-info").mkdir(parents=True)
    env = {"PYTHONPATH": str(libraries)}
    assert "built" in run_sitegen("build", "--site", str(cached_demo), env=env).stderr  # a library installed
    assert "up to date" in run_sitegen("build", "--site", str(cached_demo), env=env).stderr
    (libraries / "markdown_extras-1.0.dist-info").rename(libraries / "markdown_extras-1.1.dist-info")
    result = run_sitegen("build", "--site", str(cached_demo), env=env)
    assert result.returncode == 0, result.stderr
    assert "up to date" not in result.stderr and "cache:" not in result.stderr
    assert_equals_clean_build(cached_demo)


def test_where_the_command_is_typed_does_not_change_the_cache_key(cached_demo: Path, tmp_path: Path) -> None:
    """`python -m sitegen` puts the working folder on Python's path: a sitegen checkout there (its
    `sitegen_profiles.egg-info`) is no installed library, so the build typed there reuses the cache of the one
    `sitegen serve` or the `sitegen` command made."""
    checkout = tmp_path / "checkout"
    (checkout / "sitegen_profiles.egg-info").mkdir(parents=True)
    result = run_sitegen_process("build", "--site", str(cached_demo), cwd=checkout)
    assert result.returncode == 0, result.stderr
    assert "up to date" in result.stderr


PLANTED_PICKLE = b"cos\nsystem\n(S'touch PWNED'\ntR."  # a pickle that runs a command when unpickled


@pytest.mark.parametrize("damage", [b"", b"not json at all", PLANTED_PICKLE])
def test_a_damaged_or_planted_cache_gives_a_note_and_a_clean_build(cached_demo: Path, damage: bytes) -> None:
    key = (cached_demo / CACHE / "state.json").read_bytes().partition(b"\n")[0]
    for path in (cached_demo / CACHE).glob("*.json"):
        path.write_bytes(key + b"\n" + damage)
    (cached_demo / CACHE / "state.pickle").write_bytes(PLANTED_PICKLE)  # what sitegen once read
    result = build(cached_demo)
    assert "damaged" in result.stderr and "ignored, building from scratch" in result.stderr
    assert "built" in result.stderr
    assert not (cached_demo / "PWNED").exists() and not Path("PWNED").exists()
    assert_equals_clean_build(cached_demo)
    assert "build cache" not in build(cached_demo).stderr  # the next build wrote a good cache


def test_the_first_versions_cache_files_are_deleted_once_and_nothing_else(cached_demo: Path) -> None:
    """An upgraded site's `.sitegen-cache/` held the first version's pickles (tens of megabytes at 10,000 records),
    which nothing reads any more: the next build that saves the cache deletes them, unread."""
    cache = cached_demo / CACHE
    for name in ("state.pickle", "content-00.pickle", "content-31.pickle"):
        (cache / name).write_bytes(PLANTED_PICKLE)
    (cache / "notes.pickle").write_bytes(b"not sitegen's")
    (cached_demo / "content" / "profile.yaml").write_text("name: Lena Müller\n", encoding="utf-8")
    assert "built" in build(cached_demo).stderr
    assert sorted(path.name for path in cache.glob("*.pickle")) == ["notes.pickle"]
    assert not (cached_demo / "PWNED").exists()
    assert_equals_clean_build(cached_demo)


def test_a_cache_made_on_another_machine_is_not_trusted(demo_site: Path, tmp_path: Path) -> None:
    """A pull request can commit a `.sitegen-cache/` whose key matches (same sitegen, same libraries) and whose
    converted HTML carries a script: the cache is sealed with this machine's secret, so it is set aside."""
    elsewhere = {"XDG_CACHE_HOME": str(tmp_path / "another-machine")}
    assert run_sitegen("build", "--site", str(demo_site), env=elsewhere).returncode == 0
    content = demo_site / CACHE / "content.json"
    planted = re.sub(rb'"<p>', b'"<p><script>alert(1)</script>', content.read_bytes(), count=1)
    assert planted != content.read_bytes()
    content.write_bytes(planted)
    (demo_site / CACHE / "state.json").unlink()
    shutil.rmtree(demo_site / "output")
    result = build(demo_site)
    assert "content.json damaged, or not written by sitegen on this machine: ignored, building from scratch" in result.stderr
    assert not any(b"alert(1)" in data for data in tree(demo_site / "output").values())
    assert_equals_clean_build(demo_site)


def test_where_the_key_cannot_be_kept_the_cache_is_not_used_with_one_note_not_a_false_alarm(demo_site: Path, tmp_path: Path) -> None:
    """A container whose user has no writable home: no build could read what another wrote, so none writes a cache,
    and each says why in one note (not 'damaged, or not written by sitegen on this machine' from the second on)."""
    (tmp_path / "a-file").write_text("")
    nowhere = {"HOME": str(tmp_path / "a-file"), "XDG_CACHE_HOME": str(tmp_path / "a-file" / "cache")}  # not a folder: root cannot either
    note = (
        ".sitegen-cache: note: the build cache is not used: its key cannot be kept "
        f"({tmp_path}/a-file/cache/sitegen: not a directory); set XDG_CACHE_HOME to a folder this user may write, or build with --no-cache"
    )
    for _ in range(2):
        result = run_sitegen("build", "--site", str(demo_site), "--strict", env=nowhere)
        assert result.returncode == 0, result.stderr
        assert result.stderr.splitlines()[0] == note
        assert "damaged" not in result.stderr
        assert not (demo_site / CACHE).exists()
    assert_equals_clean_build(demo_site)


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
    assert text.rstrip().splitlines()[-1].split("\x1b[2K")[-1].startswith("built ")


# -- a site big enough for the work to be spread over processes ------------------

LARGE = 450  # lists of several pages, a site that takes a while


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


def test_a_page_failing_in_an_incremental_build_leaves_the_output_as_it_was(large_site: Path) -> None:
    """Pages written before the failing one stay beside their targets, unseen, and are removed."""
    build(large_site)
    output = large_site / "output"
    before = tree(output)
    templates = large_site / "templates"
    templates.mkdir(exist_ok=True)
    (templates / "subject.html").write_text("{{ 1 / 0 }}", encoding="utf-8")  # sorted after every record page
    result = run_sitegen("build", "--site", str(large_site))
    assert result.returncode == 1 and "ZeroDivisionError" in result.stderr
    assert tree(output) == before
    assert not [path for path in output.rglob(".*") if path.name.endswith(".tmp")]
