"""`sitegen serve` end to end: the real command on loopback, talked to over raw HTTP.

Each test starts `python -m sitegen serve` on a free port against a copy of the
demo site, changes files the way an editor would, and looks at what the server
answers. The client never normalises paths (http.client), so traversal requests
reach the server exactly as written.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest
import websocket
from bs4 import BeautifulSoup
from conftest import run_sitegen, tree
from conftest import stop_process as stop

pytestmark = pytest.mark.slow  # each test starts the dev server and waits for its builds

T = TypeVar("T")
STARTUP_SECONDS = 60
CHANGE_SECONDS = 15
RECORD = "content/records/2008.06613.yaml"
RECORD_TITLE = "A Primal–Dual Method for Communication-Constrained Bandwidth Allocation"
BUILD_LINE = re.compile(r"^built (\d+) pages in (\d+\.\d+) s(?: after a change to (.*))?$", re.M)
SITE_FILE = re.compile(r"(?:^|, )(?:content|templates|static|themes)/")


# --- running the real server ----------------------------------------------------------


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


@dataclass
class RunningServer:
    process: subprocess.Popen
    port: int
    site: Path
    log: Path

    def get(self, path: str, method: str = "GET") -> Response:
        """One request with `path` sent exactly as written; redirects are not followed."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request(method, path)
            answer = connection.getresponse()
            return Response(answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read())
        finally:
            connection.close()

    def stderr(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def builds(self) -> list[re.Match]:
        """The build lines, leaving out rebuilds for edits to sitegen's own themes (made by whoever works on them)."""
        return [build for build in BUILD_LINE.finditer(self.stderr()) if not build.group(3) or SITE_FILE.search(build.group(3))]

    def alive(self) -> bool:
        return self.process.poll() is None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(condition: Callable[[], T], timeout: float, what: str, server: RunningServer | None = None) -> T:
    """Poll until condition() is truthy; fail naming `what` (and the server's log) after timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    log = f"\nserver log:\n{server.stderr()}" if server else ""
    pytest.fail(f"timed out after {timeout} s waiting for {what}{log}")


def start_server(site: Path, port: int, log: Path, env: dict | None = None, options: tuple[str, ...] = ()) -> subprocess.Popen:
    with log.open("wb") as sink:
        return subprocess.Popen(
            [sys.executable, "-m", "sitegen", "serve", "--site", str(site), "--port", str(port), *options],
            stdout=sink,
            stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {})},
        )


@contextmanager
def serving(site: Path, env: dict | None = None, options: tuple[str, ...] = ()) -> Iterator[RunningServer]:
    port = free_port()
    log = site.parent / f"serve-{port}.log"
    server = RunningServer(start_server(site, port, log, env, options), port, site, log)
    try:
        wait_for(lambda: "Serving" in server.stderr() or not server.alive(), STARTUP_SECONDS, "the server to start", server)
        assert server.alive(), f"sitegen serve exited early:\n{server.stderr()}"
        yield server
    finally:
        stop(server.process)


@pytest.fixture
def server(demo_site: Path) -> Iterator[RunningServer]:
    with serving(demo_site) as running:
        yield running


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def page_title_shown(server: RunningServer, path: str, title: str) -> bool:
    answer = server.get(path)
    return answer.status == 200 and title in BeautifulSoup(answer.body, "html.parser").get_text()


def url_of(output_file: Path, output_dir: Path, base_path: str = "/") -> str:
    relative = output_file.relative_to(output_dir).as_posix()
    return base_path + (relative[: -len("index.html")] if relative.endswith("index.html") else relative)


# --- 1. serving, with the reload script only in what is served ------------------------


def test_every_served_page_carries_the_reload_script_and_the_files_on_disk_do_not(server: RunningServer) -> None:
    output = server.site / "output"
    pages = sorted(output.rglob("*.html"))
    assert len(pages) > 20 and any("records" in p.parts for p in pages)
    for page in pages:
        assert b"livereload" not in page.read_bytes(), f"{page} on disk carries the reload script"
        answer = server.get(url_of(page, output))
        assert answer.status == 200, page
        assert "/livereload.js?port=" in answer.text, f"{url_of(page, output)} served without the reload script"
        assert answer.text.count("livereload.js") == 1
    assert server.get("/livereload.js").status == 200


def test_a_page_whose_head_outgrows_one_chunk_still_gets_the_script(demo_site: Path) -> None:
    """livereload looks for </head> in the first 64 KiB written; a big <head> must not lose live reload."""
    template = demo_site / "templates" / "index.html"
    template.parent.mkdir()
    template.write_text('{% extends "!theme/index.html" %}\n{% block head %}<!-- ' + "x" * 70_000 + " -->{{ super() }}{% endblock %}\n", encoding="utf-8")
    with serving(demo_site) as server:
        answer = server.get("/")
        assert answer.status == 200 and answer.text.index("</head>") > 65_536
        assert "/livereload.js?port=" in answer.text
        assert int(answer.headers["content-length"]) == len(answer.body)


def test_non_html_files_are_served_untouched(server: RunningServer) -> None:
    output = server.site / "output"
    for name in ("static/style.css", "feed.xml", "records.json", "publications.bib"):
        answer = server.get("/" + name)
        assert answer.status == 200 and answer.body == (output / name).read_bytes(), name
    assert server.get("/").headers["cache-control"] == "no-store"


def test_a_missing_page_is_the_sites_own_404_page_with_the_reload_script(server: RunningServer) -> None:
    answer = server.get("/no/such/page/")
    not_found = BeautifulSoup((server.site / "output" / "404.html").read_bytes(), "html.parser")
    assert answer.status == 404
    assert BeautifulSoup(answer.body, "html.parser").title.get_text() == not_found.title.get_text()
    assert "/livereload.js?port=" in answer.text


def test_an_address_asked_while_output_has_no_404_page_answers_a_page_that_reloads_by_itself(server: RunningServer) -> None:
    """output/ deleted by hand (`rm -rf output`) and not yet written again: a tab reloaded in that moment gets a page
    with the reload script (it comes back by itself once the site is rebuilt), not a bare "404: Not Found"."""
    (server.site / "output" / "404.html").unlink()
    answer = server.get("/records/2008.06613/no-such-page/")
    assert answer.status == 404
    assert "/livereload.js?port=" in answer.text
    assert "reloads by itself" in BeautifulSoup(answer.body, "html.parser").get_text()


def test_the_reload_websocket_speaks_the_livereload_protocol(server: RunningServer) -> None:
    """The endpoint the injected script talks to: hello handshake, then a reload after an edit."""
    socket_ = websocket.create_connection(f"ws://127.0.0.1:{server.port}/livereload", timeout=CHANGE_SECONDS)
    try:
        socket_.send(json.dumps({"command": "hello", "protocols": ["http://livereload.com/protocols/official-7"]}))
        assert json.loads(socket_.recv())["command"] == "hello"
        socket_.send(json.dumps({"command": "info", "url": f"http://127.0.0.1:{server.port}/", "plugins": {}}))
        # the server reads a socket's messages in order: its answer to another hello means it has taken the info,
        # and so counts this browser among those to reload (a fixed wait could run out on a busy machine)
        socket_.send(json.dumps({"command": "hello", "protocols": ["http://livereload.com/protocols/official-7"]}))
        assert json.loads(socket_.recv())["command"] == "hello"
        edit(server.site / RECORD, RECORD_TITLE, "Reloaded over the websocket")
        message = json.loads(socket_.recv())
        assert message["command"] == "reload" and message["path"] == "*"
        assert page_title_shown(server, "/", "Reloaded over the websocket")  # built before the browser was told
    finally:
        socket_.close()


# --- 3. fast rebuilds that do only the work that changed ------------------------------


def test_a_one_record_edit_rebuilds_once_in_well_under_a_second(server: RunningServer) -> None:
    """Three edits, one build each; the best of three keeps a busy machine from failing the test."""
    assert len(server.builds()) == 1
    title = RECORD_TITLE
    for attempt in range(1, 4):
        new_title = f"Bandwidth Allocation, Revision {attempt}"
        edit(server.site / RECORD, title, new_title)
        title = new_title
        wait_for(lambda shown=new_title: page_title_shown(server, "/", shown), CHANGE_SECONDS, "the new title", server)
        wait_for(lambda builds=1 + attempt: len(server.builds()) == builds, CHANGE_SECONDS, "the build line", server)
    rebuilds = server.builds()[1:]
    assert [build.group(3) for build in rebuilds] == [RECORD] * 3
    seconds = sorted(float(build.group(2)) for build in rebuilds)
    print(f"\none-record rebuilds on the demo site: {', '.join(f'{s:.2f}' for s in seconds)} s")
    assert seconds[0] < 1.0, f"one-record rebuilds took {seconds} s"
    assert page_title_shown(server, "/records/2008.06613/", title)


def test_no_change_means_no_build_and_a_burst_of_saves_means_one(server: RunningServer) -> None:
    time.sleep(1.5)
    (server.site / "content" / "records" / ".2008.06613.yaml.swp").write_bytes(b"editor scratch")
    time.sleep(1.5)
    assert len(server.builds()) == 1, "rebuilt although no input changed"
    records = sorted((server.site / "content" / "records").glob("muller20*.yaml"))[:5]
    for number, path in enumerate(records):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"(?m)^title: .*$", f'title: "Burst title {number}"', text, count=1), encoding="utf-8")
        time.sleep(0.075)  # the burst spans more than one poll (250 ms): only coalescing makes it one build
    for number in range(len(records)):
        wait_for(lambda shown=f"Burst title {number}": page_title_shown(server, "/", shown), CHANGE_SECONDS, f"burst title {number}", server)
    time.sleep(1.5)
    assert len(server.builds()) == 2, f"one burst of {len(records)} saves gave {len(server.builds()) - 1} builds"


def test_the_rebuild_follows_site_yaml_and_the_sites_static_files(server: RunningServer) -> None:
    edit(server.site / "content" / "site.yaml", 'base_url: "https://lena-muller.github.io/"', 'base_url: "https://lena-muller.github.io/moved/"')
    wait_for(lambda: server.get("/").headers.get("location") == "/moved/", CHANGE_SECONDS, "the new base path", server)
    (server.site / "static").mkdir(exist_ok=True)
    (server.site / "static" / "notes.txt").write_text("site static file\n", encoding="utf-8")
    wait_for(lambda: server.get("/moved/static/notes.txt").body == b"site static file\n", CHANGE_SECONDS, "the static file", server)


# --- 4. mistakes survive --------------------------------------------------------------

BREAKAGES = {
    "bad YAML": (RECORD, "year: 2020", "year: [2020"),
    "bad field": (RECORD, "year: 2020", "year: soon"),
    "broken template": ("templates/record.html", None, '{% extends "!theme/record.html" %}\n{% block main %}{% if %}{% endblock %}\n'),
}


@pytest.mark.parametrize("breakage", list(BREAKAGES))
def test_a_broken_site_shows_the_build_problems_and_a_fix_brings_it_back(server: RunningServer, breakage: str) -> None:
    path, old, new = BREAKAGES[breakage]
    target = server.site / path
    original = target.read_text(encoding="utf-8") if target.exists() else None
    good_index = (server.site / "output" / "index.html").read_bytes()
    target.parent.mkdir(parents=True, exist_ok=True)
    if old is None:
        target.write_text(new, encoding="utf-8")
    else:
        edit(target, old, new)

    error_page = wait_for(lambda: (a := server.get("/")).status == 503 and a, CHANGE_SECONDS, "the error page", server)
    cli = run_sitegen("check", "--site", str(server.site))
    assert cli.returncode == 1
    expected = [line for line in cli.stderr.splitlines() if line]
    shown = [li.get_text() for li in BeautifulSoup(error_page.body, "html.parser").select("ul.problems li")]
    assert shown == expected and expected
    assert "/livereload.js?port=" in error_page.text, "the error page must reload itself when the site is fixed"
    assert all(line in server.stderr() for line in expected)
    nested = server.get("/records/2008.06613/")
    assert nested.status == 503 and 'ul class="problems"' in nested.text
    assert server.get("/static/style.css").status == 200, "non-page files of the last good build stay served"
    assert (server.site / "output" / "index.html").read_bytes() == good_index, "the last good site stays on disk"

    if original is None:
        target.unlink()
    else:
        target.write_text(original, encoding="utf-8")
    wait_for(lambda: page_title_shown(server, "/", RECORD_TITLE), CHANGE_SECONDS, "the fixed site", server)
    assert server.alive()


LIBRARY_RIS = "TY  - JOUR\r\nAU  - Müller, Lena\r\nTI  - An EndNote title\r\nT2  - Journal of Tests\r\nPY  - 2019\r\nER  - \r\n"


def test_a_ris_file_added_edited_and_broken_while_serving_is_rebuilt(server: RunningServer) -> None:
    """An EndNote export dropped into content/records/ is read by the same registry as a build's: its record is
    shown, an edit is shown, a broken entry is the error page with the `path:line` of `sitegen check`."""
    library = server.site / "content" / "records" / "endnote.ris"
    library.write_text(LIBRARY_RIS, encoding="utf-8", newline="")
    wait_for(lambda: page_title_shown(server, "/records/muller2019endnote/", "An EndNote title"), CHANGE_SECONDS, "the RIS record's page", server)
    edit(library, "An EndNote title", "A retitled EndNote entry")
    wait_for(lambda: page_title_shown(server, "/", "A retitled EndNote entry"), CHANGE_SECONDS, "the edited RIS entry", server)
    edit(library, "PY  - 2019", "")
    error_page = wait_for(lambda: (a := server.get("/")).status == 503 and a, CHANGE_SECONDS, "the error page", server)
    cli = run_sitegen("check", "--site", str(server.site))
    assert cli.returncode == 1
    assert cli.stderr.splitlines() == ["content/records/endnote.ris:1: this entry has no year (PY  - 2024, or DA  - 2024/03/15): it is not read"]
    assert [li.get_text() for li in BeautifulSoup(error_page.body, "html.parser").select("ul.problems li")] == cli.stderr.splitlines()
    library.unlink()
    wait_for(lambda: server.get("/").status == 200 and server.get("/records/muller2019endnote/").status == 404, CHANGE_SECONDS, "the RIS record gone", server)


def test_drafts_are_previewed_with_drafts_and_a_build_leaves_them_out(demo_site: Path) -> None:
    """`sitegen serve --drafts` shows '_name.md' pages, posts and news where they will be once published;
    the next `sitegen build` (into the same output/ and cache) writes the site as a clean build does."""
    (demo_site / "content/posts/_2026-01-10-next-steps.md").write_text("---\ntitle: Next steps\ndate: 2026-01-10\n---\nNot yet.\n", encoding="utf-8")
    (demo_site / "content/pages/_plans.md").write_text("---\ntitle: Plans\nnav: 9\n---\nSoon.\n", encoding="utf-8")
    (demo_site / "content/news/_2026-01-11-soon.md").write_text("---\ndate: 2026-01-11\ntitle: Soon\n---\nNews.\n", encoding="utf-8")
    with serving(demo_site, options=("--drafts",)) as server:
        assert page_title_shown(server, "/posts/next-steps/", "Next steps")
        assert page_title_shown(server, "/plans/", "Plans")
        home = BeautifulSoup(server.get("/").body, "html.parser")
        assert "Next steps" in [a.get_text(strip=True) for a in home.select(".posts-section .post-title a")]
        assert home.find(id="news-2026-01-11-soon") is not None
    with serving(demo_site) as server:
        assert server.get("/posts/next-steps/").status == 404
        assert "Next steps" not in server.get("/posts/").body.decode()
    result = run_sitegen("build", "--site", str(demo_site))
    assert result.returncode == 0, result.stderr
    clean = demo_site.parent / "clean"
    assert run_sitegen("build", "--site", str(demo_site), "--no-cache", "--output", str(clean)).returncode == 0
    assert tree(demo_site / "output") == tree(clean)


def test_a_sitegen_build_beside_the_drafts_preview_is_left_as_it_wrote_it(demo_site: Path) -> None:
    """`sitegen build` while `sitegen serve --drafts` runs (before a deploy of output/): the server does not put
    the drafts back a moment later; it serves what the build wrote until the next change, and says so."""
    (demo_site / "content/posts/_2026-01-10-next-steps.md").write_text("---\ntitle: Next steps\ndate: 2026-01-10\n---\nNot yet.\n", encoding="utf-8")
    with serving(demo_site, options=("--drafts",)) as server:
        assert page_title_shown(server, "/posts/next-steps/", "Next steps")
        result = run_sitegen("build", "--site", str(demo_site))
        assert result.returncode == 0, result.stderr
        wait_for(lambda: "written by another sitegen" in server.stderr(), CHANGE_SECONDS, "the server to notice the build", server)
        time.sleep(3.0)  # more looks at output/ while idle
        assert not (demo_site / "output/posts/next-steps").exists()
        assert "because output/ was changed by hand" not in server.stderr()
        assert tree(demo_site / "output") == clean_build(demo_site)
        edit(demo_site / RECORD, RECORD_TITLE, "Edited after the build")  # the next change builds the preview again
        wait_for(lambda: page_title_shown(server, "/posts/next-steps/", "Next steps"), CHANGE_SECONDS, "the drafts again", server)


def test_a_page_deleted_from_the_output_by_hand_comes_back(server: RunningServer) -> None:
    """The server looks at output/ every few seconds while idle: a page deleted by hand is written again."""
    page = server.site / "output" / "records" / "2008.06613" / "index.html"
    time.sleep(1.0)  # the server has made its look after the first build
    page.unlink()
    wait_for(page.is_file, CHANGE_SECONDS, "the deleted page to be written again", server)
    assert page_title_shown(server, "/records/2008.06613/", RECORD_TITLE)
    assert "because output/ was changed by hand" in server.stderr()


def test_problem_text_is_escaped_in_the_error_page(server: RunningServer) -> None:
    edit(server.site / RECORD, "year: 2020", 'year: "<script>alert(1)</script>"')
    error_page = wait_for(lambda: (a := server.get("/")).status == 503 and a, CHANGE_SECONDS, "the error page", server)
    soup = BeautifulSoup(error_page.body, "html.parser")
    assert any("<script>alert(1)</script>" in li.get_text() for li in soup.select("ul.problems li"))
    assert all("alert" not in (script.string or "") for script in soup.find_all("script"))


def test_a_site_that_is_broken_from_the_start_is_served_as_the_error_page(demo_site: Path) -> None:
    edit(demo_site / RECORD, "year: 2020", "year: [2020")
    with serving(demo_site) as server:
        answer = server.get("/")
        assert answer.status == 503 and f"{RECORD}:" in answer.text
        edit(demo_site / RECORD, "year: [2020", "year: 2020")
        wait_for(lambda: page_title_shown(server, "/", RECORD_TITLE), CHANGE_SECONDS, "the fixed site", server)


def test_a_site_broken_from_the_start_is_announced_at_its_sub_path_and_the_log_has_no_request_lines(demo_site: Path) -> None:
    """The address printed is where the site will be once fixed (base_url's path), though no build said so yet;
    the terminal shows the build's problems once, not an access line per request the error page answers."""
    edit(demo_site / "content" / "site.yaml", 'base_url: "https://lena-muller.github.io/"', 'base_url: "https://lena-muller.github.io/repo/"')
    edit(demo_site / RECORD, "year: 2020", "year: [2020")
    with serving(demo_site) as server:
        assert f"on http://127.0.0.1:{server.port}/repo/ " in server.stderr()
        for _ in range(3):
            answer = server.get("/repo/")
            assert answer.status == 503 and f"{RECORD}:" in answer.text
        assert server.get("/repo/no/such/page/").status == 503
        log = server.stderr()
        assert log.count(f"{RECORD}:") == 1, log
        assert not re.search(r"\b(GET|HEAD) /", log) and "Traceback" not in log, log


def test_an_output_folder_of_other_files_is_named_without_options_serve_lacks(demo_site: Path) -> None:
    (demo_site / "output").mkdir()
    (demo_site / "output" / "notes.txt").write_text("mine", encoding="utf-8")
    with serving(demo_site) as server:
        assert server.get("/").status == 503
        log = server.stderr()
    assert f"refusing to replace {demo_site / 'output'}: it holds files sitegen did not write" in log
    assert "--output" not in log
    assert (demo_site / "output" / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_folder_without_content_is_an_error_not_a_server(tmp_path: Path) -> None:
    result = run_sitegen("serve", "--site", str(tmp_path), "--port", str(free_port()), timeout=60)
    assert result.returncode == 1
    assert "no content/ folder" in result.stderr and "Serving" not in result.stderr


# --- 5. production paths --------------------------------------------------------------


@pytest.fixture
def project_site(demo_site: Path) -> Path:
    """The demo site as GitHub project pages would host it: under /repo/."""
    edit(demo_site / "content" / "site.yaml", 'base_url: "https://lena-muller.github.io/"', 'base_url: "https://lena-muller.github.io/repo/"')
    return demo_site


@pytest.mark.parametrize(("before", "after"), [("", "repo/"), ("repo/", "")])
def test_a_tab_open_before_base_url_changed_its_path_is_sent_to_the_same_page(demo_site: Path, before: str, after: str) -> None:
    """base_url gains (or loses) a path while a tab shows /about/: the tab reloads at the old address and is sent
    on to the same page at the new one, not to the 404 page."""
    site_yaml = demo_site / "content" / "site.yaml"
    edit(site_yaml, 'base_url: "https://lena-muller.github.io/"', f'base_url: "https://lena-muller.github.io/{before}"')
    with serving(demo_site) as server:
        assert server.get(f"/{before}about/").status == 200
        edit(site_yaml, f'base_url: "https://lena-muller.github.io/{before}"', f'base_url: "https://lena-muller.github.io/{after}"')
        wait_for(lambda: server.get(f"/{after}about/").status == 200, CHANGE_SECONDS, "the site at its new address", server)
        answer = server.get(f"/{before}about/")
        assert answer.status in (301, 302, 307, 308) and answer.headers["location"] == f"/{after}about/"
        assert server.get(f"/{before}no/such/page/").status == 404


def test_a_sub_path_site_is_served_under_its_sub_path_and_every_link_works(project_site: Path) -> None:
    with serving(project_site) as server:
        assert f"on http://127.0.0.1:{server.port}/repo/ " in server.stderr()
        for root in ("/", "/repo"):
            answer = server.get(root)
            assert answer.status in (301, 302, 307, 308) and answer.headers["location"] == "/repo/"
        assert server.get("/records/2008.06613/").status == 404, "outside the sub-path is not the site"
        checked = set()
        for page in ("/repo/", "/repo/records/2008.06613/", "/repo/no/such/page/"):
            soup = BeautifulSoup(server.get(page).body, "html.parser")
            links = {tag.get("href") or tag.get("src") for tag in soup.select("[href], [src]")}
            for link in sorted(found for found in links if found and found.startswith("/") and not found.startswith("//")):
                assert link.startswith("/repo/"), f"{page} links outside the sub-path: {link}"
                target = link.split("#")[0]
                if target not in checked:
                    checked.add(target)
                    assert server.get(target).status == 200, f"{page} links to {target}, which does not answer"
        assert len(checked) > 10


def test_the_preview_works_through_a_codespaces_forwarded_port(project_site: Path) -> None:
    """The Codespace of `.devcontainer/devcontainer.json` (written by `sitegen init`) forwards port 8000 to
    https://<codespace>-8000.app.github.dev/, a proxy that keeps that host and uses port 443: the redirect to the
    sub-path, the reload script's address and the reload websocket must all hold through it."""
    forwarded = "ada-8000.app.github.dev"
    with serving(project_site) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            connection.request("GET", "/", headers={"Host": forwarded, "X-Forwarded-Proto": "https", "X-Forwarded-Host": forwarded})
            answer = connection.getresponse()
            answer.read()
        finally:
            connection.close()
        assert answer.status in (301, 302, 307, 308) and answer.getheader("Location") == "/repo/"
        page = server.get("/repo/").text
        (script,) = [tag.get_text() for tag in BeautifulSoup(page, "html.parser").find_all("script") if "livereload.js" in tag.get_text()]
        assert "window.location.hostname" in script and "window.location.port" in script and "443" in script
        assert "127.0.0.1" not in script and str(server.port) not in script
        socket_ = websocket.create_connection(f"ws://127.0.0.1:{server.port}/livereload", host=forwarded, origin=f"https://{forwarded}", timeout=CHANGE_SECONDS)
        try:
            socket_.send(json.dumps({"command": "hello", "protocols": ["http://livereload.com/protocols/official-7"]}))
            assert json.loads(socket_.recv())["command"] == "hello"
        finally:
            socket_.close()


# --- 6. clear edges -------------------------------------------------------------------


def test_a_port_in_use_is_one_line_naming_the_port_and_exit_1(demo_site: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_sitegen("serve", "--site", str(demo_site), "--port", str(port), timeout=60)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [f"error: port {port} is already in use; try --port {port + 1}"]
    assert not (demo_site / "output").exists(), "nothing is built when the server cannot start"


def test_ctrl_c_stops_cleanly(server: RunningServer) -> None:
    code = stop(server.process)
    assert code in (0, 130)
    assert "stopped" in server.stderr().splitlines()[-1]
    assert "Traceback" not in server.stderr()


def clean_build(site: Path) -> dict[str, bytes]:
    """What `sitegen build --no-cache` makes of the site's files as they are now."""
    clean = site.parent / "clean"
    result = run_sitegen("build", "--site", str(site), "--no-cache", "--output", str(clean))
    assert result.returncode == 0, result.stderr
    return tree(clean)


def test_a_change_saved_just_before_ctrl_c_is_built_before_the_server_stops(server: RunningServer) -> None:
    """Ctrl-C within the quarter second the server waits for a burst of saves to end: the save is not lost, output/
    is what `sitegen build` makes of the files as they are."""
    edit(server.site / RECORD, RECORD_TITLE, "Saved a moment before Ctrl-C")
    assert stop(server.process) == 0
    log = server.stderr()
    assert "stopping: building your last change first" in log
    assert log.rstrip().endswith("stopped")
    assert "Saved a moment before Ctrl-C" in (server.site / "output/records/2008.06613/index.html").read_text(encoding="utf-8")
    assert tree(server.site / "output") == clean_build(server.site)


def test_ctrl_c_during_a_rebuild_finishes_it_so_output_is_whole(server: RunningServer) -> None:
    """Ctrl-C while a rebuild renders (a template that takes seconds: 80 million empty turns of a loop): the server builds the site again as
    `sitegen build` does before it stops, so that output/ is never half the old site and half the new."""
    slow = server.site / "templates" / "404.html"
    slow.parent.mkdir()
    slow.write_text(
        '{% extends "!theme/404.html" %}{% block main %}{% for i in range(4000) %}{% for j in range(20000) %}{% endfor %}{% endfor %}{{ super() }}{% endblock %}\n',
        encoding="utf-8",
    )
    edit(server.site / RECORD, RECORD_TITLE, "Changed while the site rebuilds")
    time.sleep(1.0)  # the change is noticed and its rebuild renders the slow page
    assert stop(server.process, timeout=120) == 0
    log = server.stderr()
    assert "Traceback" not in log
    assert log.rstrip().endswith("stopped")
    assert tree(server.site / "output") == clean_build(server.site)


def test_it_listens_on_loopback_only_by_default(server: RunningServer) -> None:
    listening = listening_addresses(server.port)
    if listening is None:
        pytest.skip("/proc/net/tcp is not available here")
    assert listening == {"127.0.0.1"}


def listening_addresses(port: int) -> set[str] | None:
    """The IPv4 addresses with a socket listening on `port`, from the kernel's table."""
    table = Path("/proc/net/tcp")
    if not table.exists():
        return None
    found = set()
    for line in table.read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, port_hex = local.split(":")
        if state == "0A" and int(port_hex, 16) == port:
            found.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
    return found


TRAVERSALS = [
    "/../secret.txt",
    "/%2e%2e/secret.txt",
    "/%2E%2E/secret.txt",
    "/..%2fsecret.txt",
    "/%2e%2e%2fsecret.txt",
    "/static/../../secret.txt",
    "/static/%2e%2e/%2e%2e/secret.txt",
    "/%252e%252e/secret.txt",
    "/..%252fsecret.txt",
    "/.%2e/secret.txt",
    "/..\\secret.txt",
    "/../content/site.yaml",
    "/%2e%2e/content/site.yaml",
]


@pytest.mark.parametrize("base", ["/", "/repo/"])
def test_traversal_never_leaves_the_output_folder(demo_site: Path, base: str) -> None:
    secret = "TOP-SECRET-" + base.strip("/")
    (demo_site / "secret.txt").write_text(secret, encoding="utf-8")
    if base != "/":
        edit(demo_site / "content" / "site.yaml", 'github.io/"', f'github.io{base}"')
    absolute = str((demo_site / "secret.txt").resolve())
    requests = [base.rstrip("/") + path for path in TRAVERSALS] + TRAVERSALS + ["/" + absolute, base + absolute.lstrip("/"), base + "/" + absolute]
    with serving(demo_site) as server:
        for path in requests:
            for method in ("GET", "HEAD"):
                answer = server.get(path, method)
                assert secret not in answer.text, f"{method} {path} served the secret"
                assert "base_url" not in answer.text, f"{method} {path} served site.yaml"
                assert answer.status != 200 or answer.headers.get("content-type", "").startswith("text/html"), (path, answer.status)
        assert server.alive()


def test_it_starts_with_deprecation_warnings_as_errors(demo_site: Path) -> None:
    """Python 3.12+ turned livereload's missing-event-loop path into a warning; strict runs must still serve."""
    with serving(demo_site, env={"PYTHONWARNINGS": "error::DeprecationWarning"}) as server:
        assert server.get("/").status == 200
        edit(server.site / RECORD, RECORD_TITLE, "Strict warnings")
        wait_for(lambda: page_title_shown(server, "/", "Strict warnings"), CHANGE_SECONDS, "the rebuilt page", server)
        assert "Warning" not in server.stderr()
