"""Start the fake arXiv server (`tests/fixtures/fake_arxiv.py`, a copy of `../shared/tools/fake_arxiv.py`) for a test.

It is a real HTTP server on 127.0.0.1 serving the "Sheng Lin" fixtures the way
export.arxiv.org answers, with fault flags (503s, empty pages, truncated XML,
slow answers, rate limits) and a JSON log of every request.

Use the `arxiv_server` fixture: `server = arxiv_server("--fail-first", "2")`
starts one and returns a `FakeArxiv`; every server is stopped after the test.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# Copies of the shared server and fixtures: the repository's own CI has no ../shared beside it.
FAKE_ARXIV = Path(__file__).resolve().parent / "fixtures" / "fake_arxiv.py"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "arxiv"
MAX_SECONDS = 120


class FakeArxiv:
    """One running fake server: its URLs, its request log, a way to stop it."""

    def __init__(self, workdir: Path, flags: tuple[str, ...], fixtures: Path | None = None):
        self.workdir = workdir
        self.port_file = workdir / "port"
        self.log_file = workdir / "requests.jsonl"
        self.output = workdir / "server.log"
        command = [
            sys.executable,
            str(FAKE_ARXIV),
            "--port",
            "0",
            "--port-file",
            str(self.port_file),
            "--max-seconds",
            str(MAX_SECONDS),
            "--log-file",
            str(self.log_file),
            *flags,
        ]
        command += ["--fixtures", str(fixtures or FIXTURES)]
        with open(self.output, "wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        self.port = self._wait_for_port()

    def _wait_for_port(self) -> int:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.port_file.exists():
                return int(self.port_file.read_text())
            if self.process.poll() is not None:
                raise RuntimeError(f"fake_arxiv.py exited: {self.output.read_text()}")
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("fake_arxiv.py did not start within 15 s")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/query"

    def requests(self) -> list[dict]:
        """Every /api/query request so far, as the server logged it."""
        if not self.log_file.exists():
            return []
        return [json.loads(line) for line in self.log_file.read_text().splitlines() if line.strip()]

    def stats(self) -> dict:
        with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(f"{self.base_url}/__stats", timeout=5) as answer:
            return json.load(answer)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def arxiv_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., FakeArxiv]]:
    """A factory: `arxiv_server(*fault_flags, fixtures=None)` starts a fake arXiv server."""
    servers: list[FakeArxiv] = []

    def start(*flags: str, fixtures: Path | None = None) -> FakeArxiv:
        server = FakeArxiv(tmp_path_factory.mktemp("arxiv"), tuple(flags), fixtures)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
