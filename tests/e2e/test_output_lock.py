"""Real processes contending for one output folder, and builds killed while forked workers make their pages.

- One sitegen at a time writes output/: a second `sitegen build` waits for the first, or after a few seconds
  stops with one line naming it; the dev server waits and builds once the other is done. Nothing is left beside
  output/ (`.output.lock`, `.output.new-*`, `.output.old-*`).
- A forked worker ends with the build that forked it, however that ends; SIGTERM is handled as Ctrl-C is.

The building process in these tests is the real command (`sitegen.cli.main`) with a hook that holds it at the
point where it writes (or makes each page slowly), so that the other process meets it there.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import MINIMAL_SITE, run_sitegen, tree, write_site
from test_serve import CHANGE_SECONDS, page_title_shown, serving, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not sys.platform.startswith("linux"), reason="locks and forked workers: Linux")]

RECORD = "content/records/a.yaml"

# `sitegen ARGS`, held just before it writes output/ until the file RELEASE exists (HELD says it got there)
HOLDING = """
import pathlib, sys, time
import sitegen.write
held, release = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
original = sitegen.write.write_output
def held_write(*args, **kwargs):
    held.touch()
    while not release.exists():
        time.sleep(0.02)
    return original(*args, **kwargs)
sitegen.write.write_output = held_write
from sitegen.cli import main
sys.exit(main(sys.argv[3:]))
"""

# `sitegen ARGS` that gives up on another sitegen after half a second instead of five
IMPATIENT = """
import sys
import sitegen.output_folder
sitegen.output_folder.WAIT_SECONDS = 0.5
from sitegen.cli import main
sys.exit(main(sys.argv[1:]))
"""

# `sitegen ARGS` whose new folder is shared with forked workers from 10 files on, each file made slowly;
# STARTED is made once a worker makes a file
SLOW_WORKERS = """
import os, pathlib, sys, time
import sitegen.write as write
started = pathlib.Path(sys.argv[1])
write.FILES_WORTH_WORKERS, write.SPAN = 10, 2
write.worker_count = lambda: 3
building, original = os.getpid(), write._create
def slow_create(path, data):
    if os.getpid() != building:
        started.touch()
    time.sleep(0.05)
    return original(path, data)
write._create = slow_create
from sitegen.cli import main
sys.exit(main(sys.argv[2:]))
"""


def site_with_records(root: Path, count: int = 1, title: str = "First title") -> Path:
    records = {f"content/records/r{i}.yaml": f"id: r{i}\ntitle: Record {i}\nauthors: [Ada Lovelace]\nyear: 2024\n" for i in range(1, count)}
    return write_site(root, {**MINIMAL_SITE, **records, RECORD: f"id: a\ntitle: {title}\nauthors: [Ada Lovelace]\nyear: 2024\n"})


def retitle(site: Path, title: str) -> None:
    (site / RECORD).write_text(f"id: a\ntitle: {title}\nauthors: [Ada Lovelace]\nyear: 2024\n", encoding="utf-8")


def python(script: str, *args: str, **options) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **options)


@contextmanager
def holding_build(site: Path, *options: str) -> Iterator[tuple[subprocess.Popen, Path]]:
    """A `sitegen build --site SITE` held where it writes; yields it and the file whose making lets it go on."""
    held, release = site.parent / "held", site.parent / "release"
    process = python(HOLDING, str(held), str(release), "build", "--site", str(site), *options)
    try:
        wait_for(lambda: held.exists() or process.poll() is not None, 60, "the first build to reach output/")
        assert process.poll() is None, process.communicate()
        yield process, release
    finally:
        release.touch()
        process.wait(timeout=60)


def beside_output(site: Path) -> list[str]:
    return sorted(path.name for path in site.iterdir() if path.name.startswith(".output"))


def test_a_second_build_while_one_writes_stops_with_one_line_naming_it(tmp_path: Path) -> None:
    site = site_with_records(tmp_path / "site")
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    before = tree(site / "output")
    retitle(site, "Second title")
    with holding_build(site) as (first, release):
        second = python(IMPATIENT, "build", "--site", str(site))
        _, errors = second.communicate(timeout=60)
        assert second.returncode == 1
        assert errors.splitlines() == [f"error: another sitegen (pid {first.pid}) is writing {site / 'output'}/; wait for it or stop it"]
        assert tree(site / "output") == before
        release.touch()
        assert first.wait(timeout=60) == 0, first.communicate()
    assert "Second title" in (site / "output" / "records" / "a" / "index.html").read_text(encoding="utf-8")
    assert beside_output(site) == []


def test_a_second_build_waits_for_the_first_and_then_builds(tmp_path: Path) -> None:
    site = site_with_records(tmp_path / "site")
    with holding_build(site) as (first, release):
        second = python("import sys\nfrom sitegen.cli import main\nsys.exit(main(sys.argv[1:]))", "build", "--site", str(site))
        time.sleep(1)
        assert second.poll() is None, "it waits while the first writes"
        retitle(site, "Changed while the first one wrote")
        release.touch()
        assert first.wait(timeout=60) == 0, first.communicate()
        _, errors = second.communicate(timeout=60)
        assert second.returncode == 0, errors
    assert "Changed while the first one wrote" in (site / "output" / "records" / "a" / "index.html").read_text(encoding="utf-8")
    assert beside_output(site) == []
    clean = run_sitegen("build", "--site", str(site), "--output", str(tmp_path / "clean"), "--no-cache")
    assert clean.returncode == 0 and tree(site / "output") == tree(tmp_path / "clean")


def test_the_dev_server_waits_for_another_build_and_then_builds_the_change(tmp_path: Path) -> None:
    site = site_with_records(tmp_path / "site")
    with serving(site) as server:
        wait_for(lambda: page_title_shown(server, "/records/a/", "First title"), CHANGE_SECONDS, "the first build", server)
        with holding_build(site, "--no-cache") as (first, release):  # the server's build is up to date: one that writes
            retitle(site, "Saved while sitegen build wrote")
            time.sleep(2)  # polls of the server, each finding output/ taken
            answer = server.get("/records/a/")
            assert answer.status == 200 and "First title" in answer.text, "the last build is served meanwhile"
            assert "Saved while" not in server.stderr() and "Traceback" not in server.stderr()
            release.touch()
            assert first.wait(timeout=60) == 0, first.communicate()
        wait_for(lambda: page_title_shown(server, "/records/a/", "Saved while sitegen build wrote"), CHANGE_SECONDS, "the change, built by the server", server)
        for title in ("Edit 1", "Edit 2"):  # sitegen build while the server runs: nobody swaps output/ away under anybody
            retitle(site, title)
            assert run_sitegen("build", "--site", str(site)).returncode == 0
            wait_for(lambda title=title: page_title_shown(server, "/records/a/", title), CHANGE_SECONDS, "the edit", server)
        log = server.stderr()
    assert "Traceback" not in log and "internal error" not in log and "build failed" not in log, log
    assert beside_output(site) == []
    clean = run_sitegen("build", "--site", str(site), "--output", str(tmp_path / "clean"), "--no-cache")
    assert clean.returncode == 0 and tree(site / "output") == tree(tmp_path / "clean")


def processes_with_parent(parent: int) -> list[int]:
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == parent:
                children.append(int(entry.name))
    return children


def running(pid: int) -> bool:
    """Alive and not a zombie (a container's first process may never collect the dead)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_build_killed_while_workers_make_its_pages_leaves_no_worker_and_output_as_it_was(tmp_path: Path, stop: signal.Signals) -> None:
    site = site_with_records(tmp_path / "site", count=40)
    assert run_sitegen("build", "--site", str(site)).returncode == 0
    before = tree(site / "output")
    started = tmp_path / "worker started"
    build = python(SLOW_WORKERS, str(started), "build", "--site", str(site), "--no-cache")
    wait_for(lambda: started.exists() or build.poll() is not None, 60, "a forked worker to make a page")
    workers = processes_with_parent(build.pid)
    assert workers and build.poll() is None, build.communicate()

    build.send_signal(stop)
    _, errors = build.communicate(timeout=60)
    wait_for(lambda: not any(running(pid) for pid in workers), 10, f"the workers {workers} to end with the build")

    assert tree(site / "output") == before
    if stop == signal.SIGTERM:
        assert build.returncode == 128 + signal.SIGTERM
        assert errors.splitlines() == ["terminated"]
        assert beside_output(site) == [], "cleaned up as after Ctrl-C"
    else:
        assert build.returncode == -signal.SIGKILL
        after = run_sitegen("build", "--site", str(site))  # what a killed build leaves, the next one removes
        assert after.returncode == 0, after.stderr
        assert beside_output(site) == []
