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
from conftest import run_sitegen

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
