"""What the fake arXiv and scholarly servers share: a script of tests/fixtures run as a real
HTTP server on 127.0.0.1 for one test, its port, its JSON request log, and stopping it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

MAX_SECONDS = 120  # a server left behind stops itself after this long
STARTUP_SECONDS = 15


class FakeServer:
    """One running fake server: its base URL, its request log, a way to stop it."""

    script: Path  # the server's program, in tests/fixtures/
    fixtures: Path  # the answers it serves, unless a test names others

    def __init__(self, workdir: Path, flags: tuple[str, ...], fixtures: Path | None = None):
        self.port_file = workdir / "port"
        self.log_file = workdir / "requests.jsonl"
        self.output = workdir / "server.log"
        command = [
            sys.executable,
            str(self.script),
            "--port",
            "0",
            "--port-file",
            str(self.port_file),
            "--max-seconds",
            str(MAX_SECONDS),
            "--log-file",
            str(self.log_file),
            "--fixtures",
            str(fixtures or self.fixtures),
            *flags,
        ]
        with open(self.output, "wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        self.port = self._wait_for_port()

    def _wait_for_port(self) -> int:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.port_file.exists():
                return int(self.port_file.read_text())
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.script.name} exited: {self.output.read_text()}")
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"{self.script.name} did not start within {STARTUP_SECONDS} s")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def requests(self) -> list[dict]:
        """Every request so far, as the server logged it."""
        if not self.log_file.exists():
            return []
        return [json.loads(line) for line in self.log_file.read_text().splitlines() if line.strip()]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


Server = TypeVar("Server", bound=FakeServer)


def started_servers(kind: type[Server], tmp_path_factory: pytest.TempPathFactory, folder: str) -> Iterator[Callable[..., Server]]:
    """A fixture's body: yields `start(*fault_flags, fixtures=None)`, which starts a server of
    `kind`; every server started is stopped when the test ends."""
    servers: list[Server] = []

    def start(*flags: str, fixtures: Path | None = None) -> Server:
        server = kind(tmp_path_factory.mktemp(folder), tuple(flags), fixtures)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
