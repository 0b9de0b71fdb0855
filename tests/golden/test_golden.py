"""Golden pages: the fixture site in tests/golden/site/ built and compared byte for byte
with tests/golden/expected/.

The fixture holds four records (one hidden) exercising inline math, text macros,
accents in names, a featured record, record links, a short venue name, an award
and a picture, and two subjects, served from a sub-path.

When a change to the output is intended (a template, a converter), regenerate
the expected files and review them in the diff before committing:

    /work/venv/bin/python -m pytest tests/golden --update-golden
    git diff tests/golden/expected/

On a mismatch the test fails with a unified diff of the page.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from conftest import file_bytes

from sitegen.build import check_site as render

HERE = Path(__file__).parent
SITE = HERE / "site"
EXPECTED = HERE / "expected"
PAGES = [
    "index.html",
    "records/2401.00001/index.html",
    "subjects/cs.LG/index.html",
    "feed.xml",
    "publications.bib",
]


@pytest.fixture(scope="module")
def built() -> dict[str, bytes]:
    result = render(SITE)  # reads the site, writes nothing
    assert [str(w) for w in result.warnings] == []
    return file_bytes(result.files)


@pytest.mark.parametrize("name", PAGES)
def test_page_matches_the_golden_file(built, name, update_golden):
    expected_path = EXPECTED / name
    actual = built[name]
    if update_golden:
        expected_path.parent.mkdir(parents=True, exist_ok=True)
        expected_path.write_bytes(actual)
        return
    assert expected_path.is_file(), f"no golden file {expected_path}; run pytest tests/golden --update-golden"
    expected = expected_path.read_bytes()
    if actual != expected:
        diff = difflib.unified_diff(
            expected.decode("utf-8").splitlines(keepends=True),
            actual.decode("utf-8").splitlines(keepends=True),
            fromfile=f"expected/{name}",
            tofile=f"built/{name}",
        )
        pytest.fail(f"{name} differs from the golden file (intended? run with --update-golden and review git diff):\n" + "".join(diff), pytrace=False)


def test_the_hidden_record_stays_out(built):
    assert not any("mueller2022draft" in name for name in built)
    assert all(b"Unpublished Draft" not in data for data in built.values())


def test_golden_files_are_only_the_listed_pages():
    found = sorted(p.relative_to(EXPECTED).as_posix() for p in EXPECTED.rglob("*") if p.is_file())
    assert found == sorted(PAGES)
