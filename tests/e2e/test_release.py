"""The wheel a release publishes, built from a copy of this checkout as `python -m build` builds it."""

from __future__ import annotations

import email.parser
import re
import zipfile
from pathlib import Path

import pytest
from test_init import build_wheel, copy_of_sitegen


@pytest.mark.slow
def test_the_wheel_takes_its_version_from_sitegen_and_ships_the_licence(tmp_path: Path) -> None:
    """The version is written once, in sitegen/__init__.py: a release that bumps it there is the version pip sees,
    `sitegen --version` prints and `sitegen init` writes into requirements.txt. MIT's notice goes with every copy."""
    source = copy_of_sitegen(tmp_path / "sitegen")
    init = source / "sitegen" / "__init__.py"
    init.write_text(re.sub(r'__version__ = "[^"]*"', '__version__ = "9.8.7"', init.read_text(encoding="utf-8")), encoding="utf-8")
    wheel = build_wheel(source, tmp_path / "wheels")
    assert wheel.name == "sitegen_profiles-9.8.7-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        metadata = email.parser.Parser().parsestr(archive.read("sitegen_profiles-9.8.7.dist-info/METADATA").decode())
        licence = archive.read("sitegen_profiles-9.8.7.dist-info/licenses/LICENSE").decode()
    assert metadata["Version"] == "9.8.7"
    assert metadata["License-Expression"] == "MIT" and metadata.get_all("License-File") == ["LICENSE"]
    assert licence.startswith("MIT License") and "The above copyright notice" in licence
    assert metadata["Requires-Python"] == ">=3.11"
