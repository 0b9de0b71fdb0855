"""`sitegen init`: the new site is complete, builds at once, and nothing is overwritten by accident."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

from conftest import run_sitegen
from crawl import crawl, serve_directory

NAME = "Ada Lovelace"
SITE_FILES = {
    ".github/workflows/pages.yml",
    ".github/workflows/refresh-publications.yml",
    ".gitignore",
    "README.md",
    "requirements.txt",
    "content/site.yaml",
    "content/profile.yaml",
    "content/records/example-preprint.yaml",
    "content/records/example-article.yaml",
    "content/records/example-workshop.yaml",
}
PROFILE_OPTIONS = {"name", "name_variants", "position", "affiliation", "bio", "photo", "email", "links", "arxiv"}
ARXIV_OPTIONS = {"authors", "author_ids", "ids", "categories", "exclude_categories", "exclude_ids"}
SITE_OPTIONS = {"title", "base_url", "theme", "language", "description", "cname"}


def init(directory: Path, *options: str) -> "subprocess.CompletedProcess":  # noqa: F821
    return run_sitegen("init", str(directory), *options, cwd=directory.parent)


def files_of(directory: Path) -> dict[str, bytes]:
    return {path.relative_to(directory).as_posix(): path.read_bytes() for path in sorted(directory.rglob("*")) if path.is_file()}


def soup_of(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "lxml")


@pytest.fixture
def new_site(tmp_path: Path) -> Path:
    site = tmp_path / "mysite"
    result = init(site, "--name", NAME)
    assert result.returncode == 0, result.stderr
    return site


# --------------------------------------------------------------------------
# What init writes
# --------------------------------------------------------------------------


def test_init_writes_every_file_of_a_site(new_site: Path) -> None:
    assert set(files_of(new_site)) == SITE_FILES


def test_the_new_site_builds_at_once_and_shows_the_name(new_site: Path) -> None:
    result = run_sitegen("build", cwd=new_site)
    assert result.returncode == 0, result.stderr
    index = soup_of(new_site / "output" / "index.html")
    assert NAME in index.title.get_text()
    assert index.find("h1").get_text(" ", strip=True) == NAME
    record_pages = sorted(p.parent.name for p in (new_site / "output" / "records").glob("*/index.html"))
    assert record_pages == ["example-article", "example-preprint", "example-workshop"]


def test_sample_records_show_math_a_featured_record_and_links(new_site: Path) -> None:
    assert run_sitegen("build", cwd=new_site).returncode == 0
    index = soup_of(new_site / "output" / "index.html")
    assert index.find("math"), "the LaTeX of the samples should be MathML"
    assert "$" not in index.get_text(), "no raw LaTeX on the page"
    preprint = soup_of(new_site / "output" / "records" / "example-preprint" / "index.html")
    assert {a["href"] for a in preprint.find_all("a", href=True)} >= {
        "https://example.org/sorting-revisited.pdf", "https://example.org/sorting-revisited-code"}
    samples = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in (new_site / "content" / "records").glob("*.yaml")}
    assert [stem for stem, record in samples.items() if record.get("featured")] == ["example-preprint"]
    assert all(NAME in record["authors"] for record in samples.values())


def test_profile_holds_the_name_and_the_arxiv_sources(new_site: Path) -> None:
    profile = yaml.safe_load((new_site / "content" / "profile.yaml").read_text(encoding="utf-8"))
    assert profile["name"] == NAME
    assert profile["name_variants"] == ["A. Lovelace"]
    assert profile["arxiv"] == {"authors": [NAME]}
    text = (new_site / "content" / "profile.yaml").read_text(encoding="utf-8")
    for option in ARXIV_OPTIONS - {"authors"}:
        assert re.search(rf"^\s*# {option}: \S", text, re.MULTILINE), f"no commented example of arxiv.{option}"


def uncomment_options(text: str) -> str:
    """Turn every commented-out `# key: value` line into a setting."""
    return re.sub(r"^(\s*)# ([a-z_]+): ", r"\1\2: ", text, flags=re.MULTILINE)


def test_every_commented_option_is_a_real_setting(new_site: Path) -> None:
    """With all examples switched on, the site still checks clean: no option is misspelt or invented."""
    for relative in ("content/profile.yaml", "content/site.yaml", *(f"content/records/{p.name}" for p in (new_site / "content/records").glob("*.yaml"))):
        path = new_site / relative
        path.write_text(uncomment_options(path.read_text(encoding="utf-8")), encoding="utf-8")
    profile = yaml.safe_load((new_site / "content" / "profile.yaml").read_text(encoding="utf-8"))
    site = yaml.safe_load((new_site / "content" / "site.yaml").read_text(encoding="utf-8"))
    assert set(profile) == PROFILE_OPTIONS
    assert set(profile["arxiv"]) == ARXIV_OPTIONS
    assert set(site) == SITE_OPTIONS
    assert len(profile["links"]) >= 10
    result = run_sitegen("check", cwd=new_site)
    assert result.returncode == 0, result.stderr
    assert "unknown" not in result.stderr, result.stderr


def test_gitignore_keeps_build_output_out_of_git(new_site: Path) -> None:
    ignored = (new_site / ".gitignore").read_text(encoding="utf-8").split()
    assert {"output/", ".venv/", ".sitegen-cache/"} <= set(ignored)


def test_requirements_pin_sitegen_to_this_release_line(new_site: Path) -> None:
    """The bug fixes of this release line, and never the unrelated `sitegen` 0.9.x on PyPI."""
    from packaging.requirements import Requirement

    from sitegen import __version__

    lines = [line for line in (new_site / "requirements.txt").read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    assert len(lines) == 1
    requirement = Requirement(lines[0])
    assert requirement.name == "sitegen-profiles"
    assert requirement.specifier.contains(__version__)
    assert not requirement.specifier.contains("0.9.2") and not requirement.specifier.contains("1.0.0")


def test_owner_readme_explains_editing_preview_and_deploy(new_site: Path) -> None:
    readme = (new_site / "README.md").read_text(encoding="utf-8")
    assert readme.startswith(f"# {NAME}")
    for must in ("content/profile.yaml", "sitegen serve", "Source: GitHub Actions", "Custom domain",
                 "Refresh publications", "SITEGEN_REFRESH_MODE", "Allow GitHub Actions to create and approve pull requests"):
        assert must in readme, must


# --------------------------------------------------------------------------
# Names and folders
# --------------------------------------------------------------------------


def test_without_name_a_placeholder_is_used_and_said(tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = init(site)
    assert result.returncode == 0, result.stderr
    assert "Your Name" in result.stdout and "--name" in result.stdout
    profile = yaml.safe_load((site / "content" / "profile.yaml").read_text(encoding="utf-8"))
    assert profile["name"] == "Your Name"
    assert profile["arxiv"] is None, "a placeholder must not be searched on arXiv"
    assert run_sitegen("build", cwd=site).returncode == 0


def test_a_name_with_quotes_colons_and_hashes_survives(tmp_path: Path) -> None:
    name = "Siobhán O'Brien \"Sio\": #1"
    site = tmp_path / "site"
    assert init(site, "--name", name).returncode == 0
    profile = yaml.safe_load((site / "content" / "profile.yaml").read_text(encoding="utf-8"))
    assert profile["name"] == name and profile["arxiv"]["authors"] == [name]
    assert run_sitegen("build", cwd=site).returncode == 0
    assert soup_of(site / "output" / "index.html").find("h1").get_text(" ", strip=True) == name


def test_an_empty_name_is_a_command_line_error(tmp_path: Path) -> None:
    result = init(tmp_path / "site", "--name", "   ")
    assert result.returncode == 2
    assert "--name" in result.stderr
    assert not (tmp_path / "site").exists()


def test_a_user_site_folder_gets_the_root_address(tmp_path: Path) -> None:
    site = tmp_path / "ada.github.io"
    assert init(site, "--name", NAME).returncode == 0
    assert yaml.safe_load((site / "content" / "site.yaml").read_text(encoding="utf-8"))["base_url"] == "https://ada.github.io/"


def test_a_project_folder_gets_a_project_page_address(new_site: Path) -> None:
    assert yaml.safe_load((new_site / "content" / "site.yaml").read_text(encoding="utf-8"))["base_url"] == "https://ada-lovelace.github.io/mysite/"


# --------------------------------------------------------------------------
# Never overwrite by accident
# --------------------------------------------------------------------------


def test_init_again_refuses_names_every_file_and_changes_nothing(new_site: Path) -> None:
    (new_site / "content" / "profile.yaml").write_text("name: Changed by hand\n", encoding="utf-8")
    before = files_of(new_site)
    result = init(new_site, "--name", "Someone Else")
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    for relative in SITE_FILES:
        assert str(Path("mysite") / relative) in result.stderr
    assert "--force" in result.stderr
    assert files_of(new_site) == before


def test_one_existing_file_blocks_the_whole_init(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "README.md").write_text("my notes\n", encoding="utf-8")
    result = init(site, "--name", NAME)
    assert result.returncode == 1
    assert "README.md" in result.stderr and "profile.yaml" not in result.stderr
    assert files_of(site) == {"README.md": b"my notes\n"}


def test_force_overwrites(new_site: Path) -> None:
    pristine = files_of(new_site)
    (new_site / "content" / "profile.yaml").write_text("name: Changed by hand\n", encoding="utf-8")
    result = init(new_site, "--name", NAME, "--force")
    assert result.returncode == 0, result.stderr
    assert files_of(new_site) == pristine


def test_a_file_in_place_of_the_folder_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "site").write_text("x", encoding="utf-8")
    result = init(tmp_path / "site", "--name", NAME)
    assert result.returncode == 1
    assert "not a folder" in result.stderr


def test_a_file_where_a_folder_goes_blocks_even_with_force(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "content").write_text("not a folder\n", encoding="utf-8")
    result = init(site, "--name", NAME, "--force")
    assert result.returncode == 1
    assert result.stderr.startswith(f"{site / 'content'}: in the way") and "nothing was written" in result.stderr
    assert files_of(site) == {"content": b"not a folder\n"}


# --------------------------------------------------------------------------
# The crawler that the sub-path test relies on must see what it is meant to
# --------------------------------------------------------------------------


def test_crawler_reports_missing_files_escaping_links_and_anchors(tmp_path: Path) -> None:
    site = tmp_path / "out"
    (site / "sub").mkdir(parents=True)
    (site / "index.html").write_text(
        '<html><head><link rel="stylesheet" href="style.css"></head><body id="top">'
        '<a href="sub/">ok</a> <a href="missing/">missing</a> <a href="/elsewhere/">root</a>'
        '<a href="#top">ok anchor</a> <a href="sub/#nowhere">bad anchor</a>'
        '<a href="https://example.org/">external</a> <img src="pic.png"></body></html>', encoding="utf-8")
    (site / "style.css").write_text("body { background: url('bg.png') }", encoding="utf-8")
    (site / "sub" / "index.html").write_text('<html><body><a href="../">home</a></body></html>', encoding="utf-8")
    with serve_directory(site, prefix="/mysite/") as base_url:
        report = crawl(base_url)
    assert base_url.endswith("/mysite/")
    assert sorted(b.url.removeprefix(base_url) for b in report.broken) == ["bg.png", "missing/", "pic.png"]
    assert {b.status for b in report.broken} == {404}
    assert [url.split("/", 3)[3] for _, url in report.outside] == ["elsewhere/"]
    assert [url.removeprefix(base_url) for _, url in report.missing_anchors] == ["sub/#nowhere"]
    assert report.external == {"https://example.org/"}
    assert len(report.problems) == 5


def test_the_served_sub_path_is_the_only_one(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<p>hi</p>", encoding="utf-8")
    with serve_directory(tmp_path, prefix="/mysite/") as base_url:
        root = base_url.removesuffix("mysite/")
        assert crawl(base_url).problems == []
        assert [b.status for b in crawl(root).broken] == [404]
        assert crawl(base_url.rstrip("/")).pages == [base_url.rstrip("/")]  # /mysite redirects to /mysite/


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
