"""What pyproject.toml promises a user who runs `pip install sitegen-profiles`: every version of a dependency
that its bounds allow has what sitegen calls, and the Python versions it allows can install those."""

from __future__ import annotations

import re
import tomllib

import pytest
from conftest import REPO
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
REQUIRES_PYTHON = SpecifierSet(PROJECT["requires-python"])


def requirement(name: str) -> Requirement:
    found = [Requirement(line) for line in PROJECT["dependencies"] if Requirement(line).name.lower() == name]
    assert len(found) == 1, f"{name} is not a dependency"
    return found[0]


def lowest(requirement: Requirement) -> Version:
    bounds = [Version(spec.version) for spec in requirement.specifier if spec.operator in (">=", "~=", "==")]
    assert bounds, f"{requirement} has no lower bound: pip may install any ancient release"
    return max(bounds)


@pytest.mark.parametrize(
    ("name", "needed", "what"),
    [
        # Older: `sitegen build` of any site with a page stops with AttributeError: ... no attribute 'find_code_spans'
        ("markdown", "3.11", "BacktickInlineProcessor.find_code_spans (sitegen.markup pairs code spans with it)"),
        # Older: `sitegen fetch` stops with AttributeError: 'Author' object has no attribute 'affiliation'
        ("arxiv", "4.0", "Author.affiliation and arxiv._feed (sitegen.sources.arxiv)"),
    ],
)
def test_the_oldest_release_a_bound_allows_has_what_sitegen_calls(name: str, needed: str, what: str) -> None:
    assert lowest(requirement(name)) >= Version(needed), f"{name} before {needed} has no {what}: declare {name}>={needed}"


def test_a_private_module_of_a_dependency_is_used_only_up_to_its_next_major_release() -> None:
    """arxiv._feed is not arxiv's public API: its next major release may move it."""
    assert Version("5.0") not in requirement("arxiv").specifier


def test_no_python_version_allowed_gets_a_markdown_too_old_for_sitegen() -> None:
    """Markdown 3.11 needs Python 3.11: on 3.10 pip would install Markdown 3.10, and every build would crash."""
    assert "3.10" not in REQUIRES_PYTHON and "3.11" in REQUIRES_PYTHON


def test_the_classifiers_name_the_python_versions_requires_python_allows() -> None:
    versions = [match[1] for text in PROJECT["classifiers"] if (match := re.fullmatch(r"Programming Language :: Python :: (3\.\d+)", text))]
    assert versions and all(version in REQUIRES_PYTHON for version in versions)
    oldest = min(versions, key=Version)
    assert f"{Version(oldest).major}.{Version(oldest).minor - 1}" not in REQUIRES_PYTHON, "the oldest Python allowed is named"
