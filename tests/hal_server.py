"""Start the fake HAL search API (`tests/fixtures/fake_hal.py`) for a test.

A real HTTP server on 127.0.0.1 answering Solr's `/search/` (cursor paging, Solr's error documents) from
`tests/fixtures/hal/documents.json`, with fault flags (`--fail-first N`, `--fail-all`, `--html`) and a JSON log of
every request. Use the `hal_server` fixture: `server = hal_server("--fail-all")`; every server is stopped after
the test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fake_server import FakeServer, started_servers

HERE = Path(__file__).resolve().parent


class FakeHal(FakeServer):
    """One running fake HAL: the base URL sitegen is pointed at, its request log, a way to stop it."""

    script = HERE / "fixtures" / "fake_hal.py"
    fixtures = HERE / "fixtures" / "hal"

    @property
    def env(self) -> dict[str, str]:
        return {"SITEGEN_HAL_API": self.base_url}


@pytest.fixture
def hal_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., FakeHal]]:
    """A factory: `hal_server(*fault_flags, fixtures=None)` starts a fake HAL."""
    yield from started_servers(FakeHal, tmp_path_factory, "hal")
