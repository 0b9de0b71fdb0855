"""The recipes of docs/deploying.md for hosts other than GitHub build a site that works where the host puts it.

Each recipe (GitLab's .gitlab-ci.yml, Netlify's netlify.toml, Cloudflare Pages' build settings) is read from
the page as a user copies it, and its build command is run in a site made by `sitegen init`, with the
variables that host sets; the site must then be in the folder the host publishes, with every link and asset
under the address the host serves it from. (`pip install -r requirements.txt` is left out: the sitegen
under test is the one installed.)
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from conftest import REPO, run_sitegen
from lxml import html
from test_docs_commands import Block, blocks_of

DEPLOYING = REPO / "docs" / "deploying.md"
INSTALL = "pip install -r requirements.txt"


def recipe(language: str, marker: str) -> Block:
    """The one block of docs/deploying.md in `language` that holds `marker`."""
    found = [block for block in blocks_of(DEPLOYING) if block.language == language and marker in block.code]
    assert len(found) == 1, f"docs/deploying.md: expected one {language} block holding {marker!r}, found {len(found)}"
    return found[0]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A new site, as `sitegen init` makes it: its base_url is the github.io guess, which no recipe may use."""
    result = run_sitegen("init", str(tmp_path / "jdoe-site"), "--name", "Jane Doe")
    assert result.returncode == 0, result.stderr
    return tmp_path / "jdoe-site"


def run_build_command(command: str, site: Path, env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    """Run a recipe's shell command in the site, as the host would (bash), with `sitegen` the one under test."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    wrapper = bin_dir / "sitegen"
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m sitegen "$@"\n')
    wrapper.chmod(0o755)
    return subprocess.run(
        ["bash", "-eo", "pipefail", "-c", command],
        cwd=site,
        env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def without_install(command: str) -> str:
    assert command.startswith(f"{INSTALL} && "), f"the recipe installs requirements.txt first: {command}"
    return command.removeprefix(f"{INSTALL} && ")


def assert_served_from(published: Path, address: str) -> None:
    """Every page links its stylesheet and the profile under the path of `address`, and names `address` as canonical."""
    path = re.sub(r"^https?://[^/]+", "", address)
    for page in ("index.html", "404.html"):
        tree = html.parse(str(published / page))
        assert tree.xpath("//link[@rel='stylesheet']/@href") == [f"{path}static/style.css"], page
        assert f"{path}" in tree.xpath("//a/@href"), page
    assert html.parse(str(published / "index.html")).xpath("//link[@rel='canonical']/@href") == [address]
    assert f"<loc>{address}</loc>" in (published / "sitemap.xml").read_text()


def python_version_is_supported(version: str) -> bool:
    required = re.search(r'requires-python = ">=(\d+)\.(\d+)"', (REPO / "pyproject.toml").read_text())
    assert required
    major, minor = (int(part) for part in version.split(".")[:2])
    return (major, minor) >= (int(required[1]), int(required[2]))


@pytest.mark.slow
def test_the_gitlab_recipe_publishes_public_built_for_the_pages_address(site: Path, tmp_path: Path) -> None:
    job = yaml.safe_load(recipe("yaml", "CI_PAGES_URL").code)["pages"]
    assert job["artifacts"]["paths"] == ["public"], "GitLab publishes public/ of the job named pages"
    image, _, version = job["image"].partition(":")
    assert image == "python" and python_version_is_supported(version) and "slim" not in version
    assert job["script"][0] == INSTALL
    address = "https://jdoe.gitlab.io/jdoe-site/"
    for line in job["script"][1:]:
        result = run_build_command(line, site, {"CI_PAGES_URL": address.rstrip("/")}, tmp_path)
        assert result.returncode == 0, result.stderr
        assert "warning" not in result.stderr, result.stderr
    assert_served_from(site / "public", address)


@pytest.mark.slow
def test_the_netlify_recipe_publishes_output_built_for_the_site_address(site: Path, tmp_path: Path) -> None:
    config = tomllib.loads(recipe("toml", "[build]").code)
    assert python_version_is_supported(config["build"]["environment"]["PYTHON_VERSION"])
    address = "https://jane-doe.netlify.app/"
    result = run_build_command(without_install(config["build"]["command"]), site, {"URL": address.rstrip("/")}, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
    assert_served_from(site / config["build"]["publish"], address)


@pytest.mark.slow
def test_the_cloudflare_recipe_publishes_output_built_for_the_site_address(site: Path, tmp_path: Path) -> None:
    lines = recipe("text", "Build output directory").code.splitlines()
    settings = {key.strip(): value.strip() for key, value in (line.split(":", 1) for line in lines)}
    assert settings["Framework preset"] == "None"
    variable, _, version = settings["Environment variable"].partition(" = ")
    assert variable == "PYTHON_VERSION" and python_version_is_supported(version)
    address = "https://jdoe-site.pages.dev/"
    command = without_install(settings["Build command"]).replace("https://<project>.pages.dev/", address)
    # CF_PAGES_URL is this deployment's own address: the recipe must not build with it
    result = run_build_command(command, site, {"CF_PAGES_URL": "https://0a1b2c3d.jdoe-site.pages.dev"}, tmp_path)
    assert result.returncode == 0, result.stderr
    assert_served_from(site / settings["Build output directory"], address)
