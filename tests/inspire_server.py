"""Start the fake INSPIRE-HEP REST API (`tests/fixtures/fake_inspire.py`) for a test.

A real HTTP server on 127.0.0.1 answering `/api/literature` searches from `tests/fixtures/inspire/`, with fault
flags (`--fail-first N`, `--fail-status 429`, `--fail-all`, `--html`, `--page-cap N`) and a JSON log of every
request. Use the `inspire_server` fixture: `server = inspire_server("--fail-all")`; every server is stopped after
the test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fake_server import FakeServer, started_servers

HERE = Path(__file__).resolve().parent


class FakeInspire(FakeServer):
    """One running fake INSPIRE: the base URL sitegen is pointed at, its request log, a way to stop it."""

    script = HERE / "fixtures" / "fake_inspire.py"
    fixtures = HERE / "fixtures" / "inspire"

    @property
    def env(self) -> dict[str, str]:
        return {"SITEGEN_INSPIRE_API": f"{self.base_url}/api"}


@pytest.fixture
def inspire_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., FakeInspire]]:
    """A factory: `inspire_server(*fault_flags, fixtures=None)` starts a fake INSPIRE server."""
    yield from started_servers(FakeInspire, tmp_path_factory, "inspire")
