"""A site made by the first sitegen, built, checked and fetched by today's.

tests/fixtures/upgrade/first-version/ holds the files a user of the first
version (`sitegen init` at 66cddf5) has after editing the site as its README
said: the requirements.txt init wrote, a template override and a copy of the
theme's stylesheet written against that version, a record field that version
did not know. Each test copies it and runs the `sitegen` command on it, as the
user does after `pip install -U`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from arxiv_server import arxiv_server  # noqa: F401  (the fixture)
from bs4 import BeautifulSoup
from conftest import REPO, run_sitegen, tree

DEFAULT_STYLESHEET = REPO / "sitegen" / "themes" / "default" / "static" / "style.css"
FIRST_VERSION = Path(__file__).resolve().parent.parent / "fixtures" / "upgrade" / "first-version"


@pytest.fixture
def old_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    shutil.copytree(FIRST_VERSION, site)
    return site


def warnings_of(stderr: str, path: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith(f"{path}:") and ": warning: " in line]


def test_requirements_naming_the_old_distribution_are_a_warning_with_the_line_to_write(old_site: Path) -> None:
    """The first `sitegen init` wrote `sitegen~=0.1.0`: on PyPI, `sitegen` is another project, so the workflows
    install it (or, with a Git line, pip stops at 'inconsistent name'). `check` says so at the line."""
    checked = run_sitegen("check", "--site", str(old_site))
    assert checked.returncode == 0, checked.stderr
    [warning] = warnings_of(checked.stderr, "requirements.txt")
    line = next(n for n, text in enumerate((old_site / "requirements.txt").read_text().splitlines(), 1) if text == "sitegen~=0.1.0")
    assert warning.startswith(f"requirements.txt:{line}: warning: ")
    assert "sitegen-profiles~=0.1.0" in warning and "another project" in warning
    assert run_sitegen("check", "--strict", "--site", str(old_site)).returncode == 1

    (old_site / "requirements.txt").write_text("sitegen @ git+https://github.com/someone/sitegen@v0.2.0  # pinned\n")
    [git_line] = warnings_of(run_sitegen("check", "--site", str(old_site)).stderr, "requirements.txt")
    assert git_line.startswith("requirements.txt:1: ") and "sitegen-profiles @ git+https://github.com/someone/sitegen@v0.2.0" in git_line

    (old_site / "requirements.txt").write_text("sitegen-profiles~=0.1.0\nsitegen_extras==1.0\n# sitegen==0.1.0\n")
    assert warnings_of(run_sitegen("check", "--site", str(old_site)).stderr, "requirements.txt") == []


def test_build_names_the_old_distribution_too_and_strict_writes_nothing(old_site: Path) -> None:
    built = run_sitegen("build", "--site", str(old_site))
    assert built.returncode == 0, built.stderr
    [warning] = warnings_of(built.stderr, "requirements.txt")
    assert "write: sitegen-profiles~=0.1.0" in warning
    shutil.rmtree(old_site / "output")
    strict = run_sitegen("build", "--strict", "--site", str(old_site))
    assert strict.returncode == 1 and warning in strict.stderr and not (old_site / "output").exists()


def test_a_copy_of_the_old_themes_stylesheet_is_a_warning_naming_what_it_leaves_unstyled(old_site: Path) -> None:
    """The first version's README said `static/style.css` replaces the theme's stylesheet, and users copied it to
    add a rule: after the upgrade, that copy replaces a stylesheet with many more rules (link icons, search, the
    Cite box), without a word. `check` names the file, what it leaves unstyled, and custom.css."""
    checked = run_sitegen("check", "--site", str(old_site))
    [warning] = warnings_of(checked.stderr, "static/style.css")
    assert warning.startswith("static/style.css:1: warning: ")
    assert ".icon" in warning and "static/custom.css" in warning

    (old_site / "static" / "style.css").write_text("/* my own stylesheet */\nbody { font-family: serif; }\n")  # written by hand: a choice
    assert warnings_of(run_sitegen("check", "--site", str(old_site)).stderr, "static/style.css") == []
    (old_site / "static" / "style.css").write_bytes(DEFAULT_STYLESHEET.read_bytes() + b"\n.record .short { font-weight: bold; }\n")
    assert warnings_of(run_sitegen("check", "--site", str(old_site)).stderr, "static/style.css") == []  # today's copy


def test_link_icons_have_a_size_of_their_own_without_the_themes_stylesheet(old_site: Path) -> None:
    """An <svg> with no size is drawn 300x150 px: under a stylesheet that does not know `.icon` (an old copy, a
    reader mode), every PDF, Code and ORCID link showed a giant icon. The icons carry their size in the HTML."""
    built = run_sitegen("build", "--site", str(old_site))
    assert built.returncode == 0, built.stderr
    for page in ("index.html", "records/lin2019thesis/index.html"):
        soup = BeautifulSoup((old_site / "output" / page).read_text(), "html.parser")
        icons = soup.select("svg.icon")
        assert icons, page
        for icon in icons:
            assert icon.get("width") and icon.get("height"), (page, str(icon))
        [sprite] = soup.select("svg.icon-sprite")
        assert (sprite.get("width"), sprite.get("height")) == ("0", "0")


def test_a_template_reading_record_extra_for_a_field_sitegen_reads_now_is_a_warning_naming_the_new_one(old_site: Path) -> None:
    """`venue_short` was a field the first version did not know, passed as `record.extra.venue_short`, and the
    site's record_item.html printed it; sitegen reads it now (`record.venue_short`), so `record.extra` lacks it and
    the override printed nothing, without a word. `check` names the template's line and the value to use."""
    override = old_site / "templates" / "partials" / "record_item.html"
    line = next(n for n, text in enumerate(override.read_text().splitlines(), 1) if "record.extra" in text)
    (old_site / "templates" / "award.html").write_text(
        '{% for r in records %}\n{% if r.extra.award is defined %}{{ r.extra["award"] }}{% endif %}{{ r.extra.poster|default("") }}{% endfor %}\n'
        '{% include "partials/record_item.html" %}\n'
    )
    checked = run_sitegen("check", "--site", str(old_site))
    assert checked.returncode == 0, checked.stderr
    [venue] = warnings_of(checked.stderr, "templates/partials/record_item.html")
    assert venue.startswith(f"templates/partials/record_item.html:{line}: warning: ")
    assert "record.extra" in venue and "'venue_short'" in venue and "use record.venue_short" in venue
    [award] = [w for w in warnings_of(checked.stderr, "templates/award.html") if "extra" in w]  # one per field and template; `poster` is none of sitegen's
    assert award.startswith("templates/award.html:2: warning: ") and "use r.award" in award
    assert sorted(line for line in checked.stderr.splitlines() if "no longer in" in line) == sorted([venue, award])


def test_the_cache_folders_of_the_versions_of_november_30_are_removed_and_the_build_equals_a_clean_one(old_site: Path, tmp_path: Path) -> None:
    """sitegen of 2026-11-30 kept a spare copy of records.json and publications.bib in .sitegen-cache/spares/
    (hundreds of megabytes at 100,000 records) and compiled templates in .sitegen-cache/templates/; nothing reads
    them since, and they stayed forever. The first build that saves today's cache deletes them."""
    cache = old_site / ".sitegen-cache"
    (cache / "spares").mkdir(parents=True)
    (cache / "templates").mkdir()
    (cache / ".gitignore").write_text("*\n")
    (cache / "state.pickle").write_bytes(b"\x80\x05N.")
    (cache / "spares" / "lock").write_bytes(b"")
    (cache / "spares" / "7b8f5cbaa54e36725b3febdb9fd32216").write_text('{"records": []}\n' * 1000)
    (cache / "templates" / "effda14a91b74f35b7418fbcc446329a42d7ac35.d44dad8fe04b343d.cache").write_bytes(b"j2\x00old bytecode")
    built = run_sitegen("build", "--site", str(old_site))
    assert built.returncode == 0, built.stderr
    assert sorted(path.name for path in cache.iterdir()) == [".gitignore", "content.json", "state.json"]

    clean = run_sitegen("build", "--no-cache", "--output", str(tmp_path / "clean"), "--site", str(old_site))
    assert clean.returncode == 0, clean.stderr
    assert tree(old_site / "output") == tree(tmp_path / "clean")


def test_fetch_leaves_a_record_the_first_version_fetched_as_it_is_when_arxiv_has_not_changed_it(old_site: Path, arxiv_server) -> None:
    """The first version's fetched files have no `origin:` line (their folder says where they come from). The first
    fetch after the upgrade rewrote every one of them to add it, and reported them all "updated": the weekly pull
    request listed every paper as changed, to be checked again. A record arXiv has not changed is unchanged."""
    server = arxiv_server()
    record = old_site / "content" / "records" / "arxiv" / "2106.08301.yaml"
    before = record.read_bytes()
    fetched = run_sitegen("fetch", "--id", "2106.08301", "--delay", "0", "--site", str(old_site), env={"SITEGEN_ARXIV_API": server.api_url})
    assert fetched.returncode == 0, fetched.stderr
    assert "content/records/arxiv/: 0 new, 0 updated, 1 unchanged, 0 removed" in fetched.stdout
    assert record.read_bytes() == before

    record.write_text(
        before.decode().replace("\nversion: 1\n", "\nversion: 0\n").replace("# sitegen-checksum: sha256:01d9cc3cfeffca4d", "# sitegen-checksum: x")
    )
    edited = run_sitegen("fetch", "--id", "2106.08301", "--delay", "0", "--site", str(old_site), env={"SITEGEN_ARXIV_API": server.api_url})
    assert "edited by hand" in edited.stdout + edited.stderr and "0 updated" in edited.stdout  # a hand edit is still left alone
