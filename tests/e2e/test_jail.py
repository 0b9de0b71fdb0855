"""A site is a jail: building a pull request's content publishes, prints and runs nothing from outside it.

Each test builds a site as a merged pull request could leave it (symbolic links,
a hostile template, odd request paths) with the real `sitegen` command.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import MINIMAL_SITE, run_sitegen, write_site

pytestmark = pytest.mark.slow  # each test builds a site (or serves one) to try an escape

RECORD = {"content/records/a.yaml": "id: a\ntitle: A record\nyear: 2024\nauthors: [Ada Lovelace]\n"}
SECRET = "TOP-SECRET-VALUE-42"


@pytest.fixture
def outside_secret(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text(f"id: stolen\ntitle: {SECRET}\nyear: 2020\n", encoding="utf-8")
    return secret


def all_output(site: Path) -> bytes:
    return b"".join(p.read_bytes() for p in (site / "output").rglob("*") if p.is_file())


def test_a_static_link_to_the_environment_is_refused_with_a_warning(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **RECORD})
    (site / "static").mkdir()
    (site / "static" / "env.txt").symlink_to("/proc/self/environ")
    result = run_sitegen("build", "--site", str(site), env={"SITEGEN_TEST_TOKEN": SECRET})
    assert result.returncode == 0, result.stderr
    assert "static/env.txt: warning: symbolic link to /proc/" in result.stderr
    assert "leaves the site folder: not read, not published" in result.stderr
    assert not (site / "output" / "static" / "env.txt").exists()
    assert SECRET.encode() not in all_output(site)


def test_a_record_file_linked_outside_is_neither_read_nor_printed(tmp_path: Path, outside_secret: Path) -> None:
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **RECORD})
    (site / "content" / "records" / "passwd.yaml").symlink_to(outside_secret)
    (site / "content" / "records" / "etc.yaml").symlink_to("/etc/passwd")
    for command in ("build", "check"):
        result = run_sitegen(command, "--site", str(site))
        assert result.returncode == 0, result.stderr
        assert SECRET not in result.stderr and "root:" not in result.stderr
        assert "content/records/passwd.yaml: warning: symbolic link to" in result.stderr
    assert SECRET.encode() not in all_output(site) and b"stolen" not in all_output(site)


def test_a_folder_linked_outside_is_refused_and_links_inside_keep_working(tmp_path: Path, outside_secret: Path) -> None:
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **RECORD, "content/shared/b.yaml": "id: b\ntitle: Linked inside\nyear: 2023\n"})
    (site / "content" / "records" / "outside").symlink_to(outside_secret.parent, target_is_directory=True)
    (site / "content" / "records" / "inside.yaml").symlink_to(site / "content" / "shared" / "b.yaml")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "content/records/outside: warning: symbolic link to" in result.stderr
    assert (site / "output" / "records" / "b" / "index.html").is_file(), "a link inside the site is followed"
    assert SECRET.encode() not in all_output(site)


def test_a_template_linked_outside_is_not_used(tmp_path: Path) -> None:
    outside = tmp_path / "outside.html"
    outside.write_text(f"{SECRET}\n", encoding="utf-8")
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **RECORD})
    (site / "templates").mkdir()
    (site / "templates" / "404.html").symlink_to(outside)
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "templates/404.html: warning: symbolic link to" in result.stderr
    assert SECRET.encode() not in all_output(site)
    assert b"<html" in (site / "output" / "404.html").read_bytes()  # the theme's own 404 page


def test_a_themes_translation_linked_outside_is_not_read(tmp_path: Path) -> None:
    """A theme of translations only (themes/default/i18n/) is a theme; a link of it leaving the site is not read (Italian:
    a language sitegen ships no strings in, so the page falls back to English)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "it.yaml").write_text(f"scheme: {{dark_mode: {SECRET}}}\n", encoding="utf-8")
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **RECORD, "content/site.yaml": "title: T\nbase_url: https://example.org/\nlanguage: it\n"})
    (site / "themes" / "default").mkdir(parents=True)
    (site / "themes" / "default" / "i18n").symlink_to(outside, target_is_directory=True)
    (site / "themes" / "mine" / "i18n").mkdir(parents=True)
    (site / "themes" / "mine" / "theme.yaml").symlink_to(outside / "it.yaml")
    for command in ("build", "check"):
        result = run_sitegen(command, "--site", str(site))
        assert result.returncode == 0, result.stderr
        assert "themes/default/i18n: warning: symbolic link to" in result.stderr
        assert "themes/mine/theme.yaml: warning: symbolic link to" in result.stderr
        assert SECRET not in result.stderr
    assert SECRET.encode() not in all_output(site)
    assert b"Dark mode" in (site / "output" / "index.html").read_bytes()
    (site / "content" / "site.yaml").write_text("title: T\nbase_url: https://example.org/\ntheme: mine\n", encoding="utf-8")
    result = run_sitegen("check", "--site", str(site))
    assert result.returncode == 1 and "unknown theme 'mine'" in result.stderr and SECRET not in result.stderr


@pytest.mark.parametrize(
    "expression",
    [
        "cycler.__init__.__globals__.os.getcwd()",
        "self.__init__.__globals__",
        "''.__class__.__mro__[1].__subclasses__()",
        "site.__class__",
    ],
)
def test_a_template_cannot_reach_python_internals(tmp_path: Path, expression: str) -> None:
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **RECORD, "templates/404.html": "<p>\n{{ " + expression + " }}\n</p>\n"})
    output = site / "output"
    run_sitegen("build", "--site", str(site), "--no-cache")  # a first build to keep
    before = {p: p.read_bytes() for p in output.rglob("*") if p.is_file()} if output.exists() else {}
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1, result.stdout
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("templates/404.html:2: ") or "templates/404.html" in result.stderr, result.stderr
    assert "sandbox" in result.stderr or "undefined" in result.stderr
    assert {p: p.read_bytes() for p in output.rglob("*") if p.is_file()} == before


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_dev_server_never_answers_500(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **RECORD})
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as stream:
        server = subprocess.Popen([sys.executable, "-m", "sitegen", "serve", "--site", str(site), "--port", str(port)], stdout=stream, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while "Serving" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        statuses = {}
        for path in [
            "/records/%00",
            "/records/%00/index.html",
            "/%ff%fe",
            "/" + "a" * 5000,
            "/../../etc/passwd",
            "/%2e%2e/%2e%2e/etc/passwd",
            "/records/a/%0a",
            "/static/..%2f..%2fcontent/site.yaml",
            "/records/a/",
        ]:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", path)
            response = connection.getresponse()
            statuses[path[:40]] = response.status
            response.read()
            connection.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    text = log.read_text()
    assert statuses.pop("/records/a/") == 200
    assert set(statuses.values()) <= {400, 404}, sorted(statuses.items())
    assert "Traceback" not in text and "500" not in text.replace(str(port), "")
    assert os.path.exists(site / "output" / "index.html")
