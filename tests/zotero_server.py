"""Start the fake Zotero Web API (tests/fixtures/fake_zotero.py) for a test.

It serves the libraries of `tests/fixtures/sources/zotero/` (`groups-12345.json`, a lab's group library of
everybody's reading; `users-4242.json`, a private user library) on 127.0.0.1 at the API's URL paths, with fault
flags (`--page-cap`, `--throttle-first`, `--retry-after`, `--backoff`) and a JSON log of every request.

Use the `zotero_server` fixture: `server = zotero_server("--page-cap", "3")` starts one; every server is stopped
after the test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fake_server import FakeServer, started_servers

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures" / "sources" / "zotero"
PRIVATE_KEY = "SeCrEtKeY0123456789abcd"  # users-4242.json's API key


class FakeZotero(FakeServer):
    """One running fake Zotero API: its base URL, its request log, a way to stop it."""

    script = HERE / "fixtures" / "fake_zotero.py"
    fixtures = FIXTURES

    @property
    def env(self) -> dict[str, str]:
        return {"SITEGEN_ZOTERO_API": self.base_url}


@pytest.fixture
def zotero_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., FakeZotero]]:
    """A factory: `zotero_server(*fault_flags, fixtures=None)` starts a fake Zotero API."""
    yield from started_servers(FakeZotero, tmp_path_factory, "zotero")
