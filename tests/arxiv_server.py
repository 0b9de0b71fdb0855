"""Start the fake arXiv server (`tests/fixtures/fake_arxiv.py`, a copy of `../shared/tools/fake_arxiv.py`) for a test.

It is a real HTTP server on 127.0.0.1 serving the "Sheng Lin" fixtures the way
export.arxiv.org answers, with fault flags (503s, empty pages, truncated XML,
slow answers, rate limits) and a JSON log of every request.

Use the `arxiv_server` fixture: `server = arxiv_server("--fail-first", "2")`
starts one and returns a `FakeArxiv`; every server is stopped after the test.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fake_server import FakeServer, started_servers

# Copies of the shared server and fixtures: the repository's own CI has no ../shared beside it.
FAKE_ARXIV = Path(__file__).resolve().parent / "fixtures" / "fake_arxiv.py"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "arxiv"


class FakeArxiv(FakeServer):
    """One running fake arXiv: its API URL, its request log, a way to stop it."""

    script = FAKE_ARXIV
    fixtures = FIXTURES

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/query"

    def stats(self) -> dict:
        with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(f"{self.base_url}/__stats", timeout=5) as answer:
            return json.load(answer)


@pytest.fixture
def arxiv_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., FakeArxiv]]:
    """A factory: `arxiv_server(*fault_flags, fixtures=None)` starts a fake arXiv server."""
    yield from started_servers(FakeArxiv, tmp_path_factory, "arxiv")
