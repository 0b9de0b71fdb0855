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

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fake_server import FakeServer, started_servers

HERE = Path(__file__).resolve().parent
FAKE_SCHOLARLY = HERE / "fixtures" / "fake_scholarly.py"
FIXTURES = HERE / "fixtures" / "sources"


class FakeScholarly(FakeServer):
    """One running fake server: the four API base URLs, its request log, a way to stop it."""

    script = FAKE_SCHOLARLY
    fixtures = FIXTURES

    @property
    def env(self) -> dict[str, str]:
        """The SITEGEN_*_API variables that point sitegen at this server."""
        return scholarly_env(self.base_url)

    def requests(self, api: str | None = None) -> list[dict]:
        """Every API request so far (of one API, when given), as the server logged it."""
        return [entry for entry in super().requests() if api is None or entry["api"] == api]


@pytest.fixture
def scholarly_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., FakeScholarly]]:
    """A factory: `scholarly_server(*fault_flags, fixtures=None)` starts a fake scholarly server."""
    yield from started_servers(FakeScholarly, tmp_path_factory, "scholarly")


def scholarly_env(base_url: str) -> dict[str, str]:
    """The SITEGEN_*_API variables that point sitegen at a server answering at the services' URL paths."""
    return {
        "SITEGEN_ORCID_API": f"{base_url}/orcid/v3.0",
        "SITEGEN_CROSSREF_API": f"{base_url}/crossref",
        "SITEGEN_OPENALEX_API": f"{base_url}/openalex",
        "SITEGEN_DBLP_API": f"{base_url}/dblp",
    }
