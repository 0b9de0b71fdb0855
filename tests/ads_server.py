"""Start the fake NASA ADS API (tests/fixtures/fake_ads.py) for a test.

It serves `tests/fixtures/sources/ads/` (an astronomer's documents, a name query that finds a namesake too, a
public and a private library) on 127.0.0.1 at the API's URL paths under /v1, accepting only `TOKEN`, with fault
flags (`--page-cap`, `--remaining`, `--reset-in`, `--fail-first`) and a JSON log of every request.

Use the `ads_server` fixture: `server = ads_server("--page-cap", "2")` starts one; every server is stopped after
the test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fake_server import FakeServer, started_servers

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures" / "sources" / "ads"
TOKEN = (FIXTURES / "token.txt").read_text(encoding="utf-8").strip()
OWNER_ORCID = "0000-0003-1234-5674"
NAME_QUERY = 'author:"^Lin, S." year:2015-2024'
PUBLIC_LIBRARY = "Lq3ZkTQvS0yqXo1vV0rUaw"
PRIVATE_LIBRARY = "PrivAteLibrAryId000000"


class FakeADS(FakeServer):
    """One running fake ADS API: its base URL, its request log, a way to stop it."""

    script = HERE / "fixtures" / "fake_ads.py"
    fixtures = FIXTURES

    @property
    def env(self) -> dict[str, str]:
        return {"SITEGEN_ADS_API": f"{self.base_url}/v1"}


@pytest.fixture
def ads_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., FakeADS]]:
    """A factory: `ads_server(*fault_flags, fixtures=None)` starts a fake ADS API."""
    yield from started_servers(FakeADS, tmp_path_factory, "ads")
