"""Start the fake ORCID / Crossref / OpenAlex / DBLP server for a test.

`tests/fixtures/fake_scholarly.py` is a copy of `../shared/tools/fake_scholarly.py`
and `tests/fixtures/sources/` of its fixtures: a real HTTP server on 127.0.0.1
answering at the real URL paths under `/orcid/v3.0`, `/crossref`, `/openalex`
and `/dblp`, with fault flags (`--fail-first`, `--truncate-first`, `--slow`,
`--page-cap`, ...) and a JSON log of every API request.

Use the `scholarly_server` fixture: `server = scholarly_server("--fail-first", "2")`
starts one and returns a `FakeScholarly`; every server is stopped after the test.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FAKE_SCHOLARLY = HERE / "fixtures" / "fake_scholarly.py"
FIXTURES = HERE / "fixtures" / "sources"
MAX_SECONDS = 120


class FakeScholarly:
    """One running fake server: the four API base URLs, its request log, a way to stop it."""

    def __init__(self, workdir: Path, flags: tuple[str, ...], fixtures: Path | None = None):
        self.port_file = workdir / "port"
        self.log_file = workdir / "requests.jsonl"
        self.output = workdir / "server.log"
        command = [
            sys.executable,
            str(FAKE_SCHOLARLY),
            "--port",
            "0",
            "--port-file",
            str(self.port_file),
            "--max-seconds",
            str(MAX_SECONDS),
            "--log-file",
            str(self.log_file),
            "--fixtures",
            str(fixtures or FIXTURES),
            *flags,
        ]
        with open(self.output, "wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        self.port = self._wait_for_port()

    def _wait_for_port(self) -> int:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.port_file.exists():
                return int(self.port_file.read_text())
            if self.process.poll() is not None:
                raise RuntimeError(f"fake_scholarly.py exited: {self.output.read_text()}")
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("fake_scholarly.py did not start within 15 s")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def env(self) -> dict[str, str]:
        """The SITEGEN_*_API variables that point sitegen at this server."""
        return {
            "SITEGEN_ORCID_API": f"{self.base_url}/orcid/v3.0",
            "SITEGEN_CROSSREF_API": f"{self.base_url}/crossref",
            "SITEGEN_OPENALEX_API": f"{self.base_url}/openalex",
            "SITEGEN_DBLP_API": f"{self.base_url}/dblp",
        }

    def requests(self, api: str | None = None) -> list[dict]:
        """Every API request so far (of one API, when given), as the server logged it."""
        if not self.log_file.exists():
            return []
        log = [json.loads(line) for line in self.log_file.read_text().splitlines() if line.strip()]
        return [entry for entry in log if api is None or entry["api"] == api]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def scholarly_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., FakeScholarly]]:
    """A factory: `scholarly_server(*fault_flags, fixtures=None)` starts a fake scholarly server."""
    servers: list[FakeScholarly] = []

    def start(*flags: str, fixtures: Path | None = None) -> FakeScholarly:
        server = FakeScholarly(tmp_path_factory.mktemp("scholarly"), tuple(flags), fixtures)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
