"""The dev server's watcher in process: with the file system's events it lists the inputs only when
something changed; without them (or when they fail) every poll lists, as before."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from livereload.handlers import LiveReloadHandler

from sitegen import serve
from sitegen.inputs import Listing
from sitegen.serve import Preview, RebuildingWatcher

RECORD = "content/records/2008.06613.yaml"
OLD_TITLE = "A Primal–Dual Method for Communication-Constrained Bandwidth Allocation"


@pytest.fixture
def listings(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every listing of the inputs the watcher makes, by site; idle looks pushed out of the way."""
    made: list[Path] = []
    real = serve.list_inputs

    def counted(site_dir: Path) -> Listing:
        made.append(site_dir)
        return real(site_dir)

    monkeypatch.setattr(serve, "list_inputs", counted)
    monkeypatch.setattr(serve, "IDLE_LOOK_SECONDS", 3600.0)
    return made


def started(site: Path, monkeypatch: pytest.MonkeyPatch) -> RebuildingWatcher:
    """A watcher as the server sets it up (no browser waits for a reload), its first build done."""
    watcher = RebuildingWatcher(Preview(site))
    monkeypatch.setattr(LiveReloadHandler, "watcher", watcher)
    watcher.build_first()
    return watcher


def until(condition: Callable[[], bool], poll: Callable[[], object], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the watcher did not get there in time"
        poll()
        time.sleep(0.05)


def home_page(site: Path) -> str:
    return (site / "output" / "index.html").read_text(encoding="utf-8")


def test_an_idle_server_with_events_lists_nothing_and_an_edit_is_built(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    watcher = started(demo_site, monkeypatch)
    watcher.watch_events()
    watcher.examine()  # the one look the start of the watch asks for
    assert OLD_TITLE in home_page(demo_site)
    before = len(listings)
    for _ in range(10):
        time.sleep(0.05)
        watcher.examine()
    assert len(listings) == before, "an idle poll listed the inputs"

    record = demo_site / RECORD
    record.write_text(record.read_text(encoding="utf-8").replace(OLD_TITLE, "Retitled while serving"), encoding="utf-8")
    until(lambda: "Retitled while serving" in home_page(demo_site), watcher.examine)
    assert len(listings) >= before + 2, "the edit was built without the listing that saw it and the one that saw it hold still"
    assert watcher.events is not None and watcher.events.working


def test_an_input_folder_made_while_serving_is_watched(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    watcher = started(demo_site, monkeypatch)
    watcher.watch_events()
    watcher.examine()
    partials = demo_site.resolve() / "templates" / "partials"
    assert watcher.events is not None and str(partials) not in watcher.events.watched
    partials.mkdir(parents=True)
    until(lambda: watcher.events is not None and str(partials) in watcher.events.watched, watcher.examine)
    theme_partial = Path(serve.__file__).parent / "themes" / "default" / "templates" / "partials" / "stylesheets.html"
    (demo_site / "templates" / "partials" / "stylesheets.html").write_text(theme_partial.read_text(encoding="utf-8") + "<!-- mine -->\n", encoding="utf-8")
    until(lambda: "<!-- mine -->" in home_page(demo_site), watcher.examine)


def test_an_input_folder_replaced_while_serving_is_watched_anew(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A watch follows the folder it began on: `content/` moved away and back (a checkout, a sync tool) is watched again."""
    watcher = started(demo_site, monkeypatch)
    watcher.watch_events()
    watcher.examine()
    (demo_site / "content").rename(demo_site / "content.old")
    (demo_site / "content.old").rename(demo_site / "content")  # the same folder: its watch still holds
    shutil.copytree(demo_site / "content", demo_site / "content.new")
    shutil.rmtree(demo_site / "content")
    (demo_site / "content.new").rename(demo_site / "content")  # another folder of the same name, between two polls
    copied = (demo_site / RECORD).stat().st_mtime_ns
    until(lambda: watcher.preview.inputs[RECORD][1] == copied, watcher.examine)  # the copy is built (its files are newer)
    for _ in range(5):  # and the events of the move are all taken
        time.sleep(0.05)
        watcher.examine()
    record = demo_site / RECORD
    record.write_text(record.read_text(encoding="utf-8").replace(OLD_TITLE, "Written in the new folder"), encoding="utf-8")
    until(lambda: "Written in the new folder" in home_page(demo_site), watcher.examine, seconds=2.0)


def test_a_link_that_leaves_the_site_is_not_watched(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The jail holds for the watch too: `content/up -> /` is neither listed nor walked by the watch
    (which would otherwise set a watch on every folder of the machine)."""
    (demo_site / "content" / "up").symlink_to("/")
    watcher = started(demo_site, monkeypatch)
    watcher.watch_events()
    assert watcher.events is not None
    site = str(demo_site.resolve())
    assert watcher.events.watched and all(folder == site or folder.startswith(site + "/") for folder in watcher.events.watched)
    assert str(demo_site.resolve() / "content") in watcher.events.watched


def test_without_events_every_poll_lists_the_inputs(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    watcher = started(demo_site, monkeypatch)
    before = len(listings)
    for _ in range(5):
        watcher.examine()
    assert len(listings) == before + 5

    watcher.watch_events()
    assert watcher.events is not None
    watcher.events.working = False  # what a failed watch leaves
    before = len(listings)
    for _ in range(5):
        watcher.examine()
    assert len(listings) == before + 5


def test_without_watchfiles_the_server_polls_as_before(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """watchfiles is compiled; where it cannot be imported, every poll lists the inputs and edits are still built."""
    import sys

    monkeypatch.setitem(sys.modules, "watchfiles", None)  # `import watchfiles` raises ImportError
    watcher = started(demo_site, monkeypatch)
    watcher.watch_events()
    assert watcher.events is not None
    until(lambda: watcher.events is not None and not watcher.events.working, lambda: None, seconds=5.0)
    before = len(listings)
    for _ in range(3):
        watcher.examine()
    assert len(listings) == before + 3
    record = demo_site / RECORD
    record.write_text(record.read_text(encoding="utf-8").replace(OLD_TITLE, "Built without events"), encoding="utf-8")
    until(lambda: "Built without events" in home_page(demo_site), watcher.examine)
