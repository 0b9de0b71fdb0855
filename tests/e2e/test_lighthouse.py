"""Lighthouse 12 scores of the demo (issue 29): the profile, a record page, a subject page and the
CV page (when the site has one), as a phone and as a desktop sees them.

npm's `lighthouse@12.2.3` (installed by .ci/run into .ci/node, or named by $LIGHTHOUSE) runs
Debian's chromium headless against the built demo, served gzip-compressed on loopback as
GitHub Pages serves it. Performance at least 95, accessibility, best practices and SEO 100;
the scores are printed, and the audits that cost points are named when a mark is missed.
Performance is timed on this machine: a page gets up to three runs and its best counts, so
that another process's burst is not held against the page.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from crawl import serve_directory  # tests/crawl.py
from e2e.test_page_weight import GzipHandler

pytestmark = [pytest.mark.slow, pytest.mark.browser]

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
MARKS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
PERFORMANCE_RUNS = 3


def lighthouse_command() -> list[str]:
    named = os.environ.get("LIGHTHOUSE")
    installed = REPO / ".ci" / "node" / "node_modules" / ".bin" / "lighthouse"
    found = named or (str(installed) if installed.exists() else shutil.which("lighthouse"))
    if not found:
        message = "lighthouse is not installed: bash .ci/run installs lighthouse@12.2.3 into .ci/node"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing")
    return [found]


def demo_pages(built_demo: Path) -> dict[str, str]:
    records = json.loads((built_demo / "records.json").read_text(encoding="utf-8"))["records"]
    with_math = next(r for r in records if "O(n²)" in r["title"])
    subject = with_math["categories"][0]
    pages = {"profile": "", "record": f"records/{with_math['id']}/", "subject": f"subjects/{subject}/"}
    if (built_demo / "cv" / "index.html").exists():
        pages["cv"] = "cv/"
    return pages


@pytest.fixture(scope="module")
def served(built_demo):
    with serve_directory(built_demo, prefix="/", files=GzipHandler) as base:
        yield base, demo_pages(built_demo)


def run_lighthouse(command: list[str], url: str, form_factor: str, tmp_path: Path) -> dict:
    report = tmp_path / f"report-{form_factor}.json"
    args = [
        *command,
        url,
        "--quiet",
        "--output=json",
        f"--output-path={report}",
        "--only-categories=performance,accessibility,best-practices,seo",
        "--chrome-flags=--headless --no-sandbox --disable-gpu",
    ]
    if form_factor == "desktop":
        args.append("--preset=desktop")
    result = subprocess.run(args, env={**os.environ, "CHROME_PATH": CHROMIUM}, capture_output=True, text=True, timeout=240)
    assert result.returncode == 0 and report.exists(), result.stderr[-3000:]
    return json.loads(report.read_text(encoding="utf-8"))


def scores(report: dict) -> dict[str, int]:
    return {name: round((category["score"] or 0) * 100) for name, category in report["categories"].items()}


def lost_points(report: dict, category: str) -> list[str]:
    audits = report["audits"]
    lost = []
    for ref in report["categories"][category]["auditRefs"]:
        audit = audits[ref["id"]]
        if ref.get("weight") and audit.get("score") is not None and audit["score"] < 1:
            lost.append(f"{ref['id']} ({audit['score']}: {audit.get('displayValue') or audit.get('title')})")
    return lost


@pytest.mark.parametrize("form_factor", ["mobile", "desktop"])
@pytest.mark.parametrize("name", ["profile", "record", "subject", "cv"])
def test_lighthouse_scores(served, name, form_factor, tmp_path, capsys):
    command = lighthouse_command()
    base, pages = served
    if name not in pages:
        pytest.skip("the demo has no CV page yet")
    url = base + pages[name]
    runs = []
    for _ in range(PERFORMANCE_RUNS):
        report = run_lighthouse(command, url, form_factor, tmp_path)
        runs.append(report)
        if scores(report)["performance"] >= MARKS["performance"]:
            break
    best = max(runs, key=lambda r: scores(r)["performance"])
    got = scores(best)
    with capsys.disabled():
        tried = ", ".join(str(scores(r)["performance"]) for r in runs)
        print(
            f"\nLighthouse {best['lighthouseVersion']} {name} ({pages[name] or '/'}) {form_factor}: "
            + ", ".join(f"{k} {v}" for k, v in got.items())
            + f"  [performance runs: {tried}]"
        )
    assert re.match(r"12\.", best["lighthouseVersion"])
    failed = {category: lost_points(best, category) for category, mark in MARKS.items() if got[category] < mark}
    assert failed == {}, failed
