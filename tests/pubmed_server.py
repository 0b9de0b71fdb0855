"""Start the fake NCBI E-utilities server (`tests/fixtures/fake_eutils.py`) for a test.

A real HTTP server on 127.0.0.1 answering `esearch.fcgi` and `efetch.fcgi` (db=pubmed) from
`tests/fixtures/pubmed/`, with fault flags (`--fail-first N`, `--fail-all`, `--html`) and a JSON log of
every request. Use the `pubmed_server` fixture: `server = pubmed_server("--fail-all")`; every server is
stopped after the test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fake_server import FakeServer, started_servers

HERE = Path(__file__).resolve().parent


class FakeEutils(FakeServer):
    """One running fake E-utilities: the base URL sitegen is pointed at, its request log, a way to stop it."""

    script = HERE / "fixtures" / "fake_eutils.py"
    fixtures = HERE / "fixtures" / "pubmed"

    @property
    def env(self) -> dict[str, str]:
        return {"SITEGEN_PUBMED_API": f"{self.base_url}/entrez/eutils"}


@pytest.fixture
def pubmed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., FakeEutils]]:
    """A factory: `pubmed_server(*fault_flags, fixtures=None)` starts a fake E-utilities server."""
    yield from started_servers(FakeEutils, tmp_path_factory, "pubmed")
