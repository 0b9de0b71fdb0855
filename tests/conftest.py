"""Fixtures shared by every test folder: the demo site, a way to run the real command."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import shutil
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from sitegen.model import Record

REPO = Path(__file__).resolve().parents[1]

# Property tests judge what the code answers, not how fast: Hypothesis's own 200 ms deadline per example and its
# too-slow check would fail them on a busy machine (an example held up for a moment, reported as "Flaky").
# Tests that set these themselves (most do) keep their values; speed is for the tests that measure it.
settings.register_profile("sitegen", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("sitegen")


def write_site(root: Path, files: dict[str, str]) -> Path:
    """Make a site folder from {relative path: text}."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


MINIMAL_SITE = {
    "content/site.yaml": "title: Test site\nbase_url: https://example.org/\n",
    "content/profile.yaml": "name: Ada Lovelace\n",
}


# A record as the arXiv fetcher writes it (content/records/arxiv/2401.01234.yaml)
ARXIV_RECORD = """\
id: '2401.01234'
title: 'Fetched title with $x$'
authors: [Lena Müller, Jonas Berg]
year: 2024
date: 2024-01-05
source: arXiv
abstract: The abstract from arXiv.
categories: [cs.DC, cs.LG]
links: {abs: 'https://arxiv.org/abs/2401.01234', pdf: 'https://arxiv.org/pdf/2401.01234'}
arxiv: '2401.01234'
"""


def read_record_file(text: str, path: str, reader_name: str) -> tuple[list[Record], list[str]]:
    """The records of a record file (`.ris`, `.json`, `.nbib`, ...) as validation makes them, and every message (the
    reader's and validation's); the reader its suffix chooses must be `reader_name`."""
    from sitegen.sources import reader_for
    from sitegen.validate import validate_record

    reader = reader_for(path)
    assert reader is not None and reader.name == reader_name
    mappings, problems = reader.read(text, path)
    records = [validate_record(m, path, problems, reader=reader.name) for m in mappings]
    return [r for r in records if r is not None], [str(p) for p in problems]


def validated_record(text: str, path: str) -> Record:
    """A record from YAML text at `path`, validated as the build validates it (a fetched one
    when `path` is under content/records/arxiv/)."""
    from sitegen.load import parse_yaml
    from sitegen.validate import validate_record

    data, problem = parse_yaml(text, path)
    assert problem is None
    problems: list = []
    record = validate_record(data, path, problems)
    assert record is not None, problems
    return record


def fetched_from_arxiv(text: str = ARXIV_RECORD) -> Record:
    """`text` as the arXiv fetcher's file of its record, content/records/arxiv/<id>.yaml."""
    import yaml

    return validated_record(text, f"content/records/arxiv/{yaml.safe_load(text)['id']}.yaml")


def file_bytes(files: dict) -> dict[str, bytes]:
    """Rendered files as the bytes the build writes (records.json and publications.bib are rendered
    as pieces, written one after another)."""
    return {name: bytes(data) for name, data in files.items()}


def rendered_files(site: Path) -> dict[str, bytes]:
    """Every file `sitegen check` renders for `site`, as bytes."""
    from sitegen.build import check_site as render

    return file_bytes(render(site).files)


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` by its path from there, as bytes: what two builds must agree on."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def is_redirect(path: Path) -> bool:
    """A stub at an old address (content/redirects.yaml) that sends the browser on: no page to read."""
    return b'http-equiv="refresh"' in path.read_bytes()


def pages_to_read(output: Path) -> list[Path]:
    """Every HTML page of a build that a visitor reads: the stubs at old addresses aside."""
    return sorted(path for path in output.rglob("*.html") if not is_redirect(path))


def copy_demo(site: Path) -> Path:
    """The repository's demo site (content/ and static/) copied to `site`."""
    shutil.copytree(REPO / "content", site / "content")
    shutil.copytree(REPO / "static", site / "static")
    return site


# What only a new interpreter sees: the command is then run as `python -m sitegen`, not in the test's process.
NEEDS_A_PROCESS = ("PYTHON", "PATH", "HOME", "LANG", "LC_", "TZ")


def run_sitegen(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the `sitegen` command as a user would, capturing its output and exit status.

    The command's `main` runs in this process, with `cwd` and `env` in place while it runs and its output captured
    as a pipe would take it (a traceback and status 1 for an exception it lets out, as the interpreter gives): a
    new interpreter for each of the suite's hundreds of builds spent most of the quick set's time importing
    sitegen again. `serve`, and settings only a new interpreter reads, run `python -m sitegen` as before.
    """
    if args[:1] == ("serve",) or any(key.startswith(NEEDS_A_PROCESS) for key in env or {}):
        return run_sitegen_process(*args, cwd=cwd, env=env, timeout=timeout)
    from sitegen.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    try:
        os.environ.update(env or {})
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(args))
            except SystemExit as end:  # argparse's usage errors and --help; a message is printed, as the interpreter does
                status = end.code if isinstance(end.code, int) else 0 if end.code is None else 1
                if not isinstance(end.code, int | None):
                    print(end.code, file=sys.stderr)
            except Exception:
                traceback.print_exc()
                status = 1
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(["sitegen", *args], status, out.getvalue(), err.getvalue())


def run_sitegen_process(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `python -m sitegen ARGS` in a process of its own, capturing its output."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "sitegen", *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def fetch_from(site: Path, service_env: dict[str, str], *args: str, env: dict | None = None, timeout: float = 90) -> subprocess.CompletedProcess:
    """`sitegen fetch` in a process of its own, pointed at a fake service (its SITEGEN_*_API), with no pause between
    requests."""
    command = [sys.executable, "-m", "sitegen", "fetch", "--site", str(site), "--delay", "0", *args]
    return subprocess.run(command, cwd=REPO, env={**os.environ, **service_env, **(env or {})}, capture_output=True, text=True, timeout=timeout)


def fetched_records(site: Path, source: str) -> dict[str, dict]:
    """The records `sitegen fetch` wrote into content/records/<source>/, by id ({} when it wrote none)."""
    import yaml

    folder = site / "content" / "records" / source
    records = [yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.yaml"))] if folder.is_dir() else []
    return {record["id"]: record for record in records}


def built_records(site: Path, quiet: bool = False) -> dict[str, dict]:
    """`sitegen build`'s records.json, by id, the build having passed (`quiet`: with not one warning)."""
    import json

    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert not quiet or "warning" not in result.stderr, result.stderr
    return {record["id"]: record for record in json.loads((site / "output" / "records.json").read_text(encoding="utf-8"))["records"]}


def run_sitegen_on_terminal(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 60, stdout_too: bool = True) -> tuple[int, str]:
    """Run `python -m sitegen ARGS` with stderr (and stdout, unless not `stdout_too`) on a
    pseudo-terminal: its exit status and all it wrote there."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "sitegen", *args],
        cwd=cwd,
        env={**os.environ, "TERM": "xterm", **(env or {})},
        stdin=subprocess.DEVNULL,
        stdout=follower if stdout_too else subprocess.DEVNULL,
        stderr=follower,
    )
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed when the process ended
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    return process.wait(timeout=timeout), seen.decode("utf-8", "replace")


def answer_at_terminal(*args: str, answer: Callable[[str], str], env: dict | None = None, prompt: str = "Which one is you?") -> tuple[int, str, str]:
    """Run `python -m sitegen ARGS` with stdin and stderr on a pseudo-terminal, as a user at a terminal does; when
    `prompt` shows, type `answer(what the terminal shows)` and Enter. Its exit status, the terminal's text (before
    the answer) and stdout."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "sitegen", *args],
        cwd=REPO,
        env={**os.environ, **(env or {})},
        stdin=follower,
        stdout=subprocess.PIPE,
        stderr=follower,
        text=True,
    )
    os.close(follower)
    seen = b""
    while prompt.encode() not in seen:
        seen += os.read(leader, 4096)
    os.write(leader, f"{answer(seen.decode())}\n".encode())
    stdout, _ = process.communicate(timeout=60)
    os.close(leader)
    return process.returncode, seen.decode(), stdout


def stop_process(process: subprocess.Popen, timeout: float = 10) -> int:
    """Ctrl-C, as a user would; kill only if that does not work within `timeout` seconds."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    return process.returncode


@pytest.fixture
def demo_site(tmp_path: Path) -> Path:
    """A copy of the repository's demo site, safe to change."""
    return copy_demo(tmp_path / "demo")


@pytest.fixture(scope="session")
def built_demo(tmp_path_factory) -> Path:
    """The demo site built once per session (read-only for tests)."""
    site = copy_demo(tmp_path_factory.mktemp("built") / "demo")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr  # the demo a newcomer builds first, and copies, is clean
    return site / "output"


def pytest_configure(config):
    """The tests stop the servers and builds they start with Ctrl-C (`stop_process`), as a terminal would. A run begun
    with SIGINT ignored (a script's background job, `nohup`, some CI runners) hands that on to every process it
    starts, which then never hears the Ctrl-C and is killed a while later, failing the test: here SIGINT is taken
    again (in each xdist worker too), so the processes the tests start hear it as from a terminal."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/expected/ from the current build instead of comparing (review the diff)",
    )


@pytest.fixture
def update_golden(request) -> bool:
    """True when pytest runs with --update-golden."""
    return bool(request.config.getoption("--update-golden"))
