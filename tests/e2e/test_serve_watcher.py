"""The dev server's watcher in process: with the file system's events it looks again only at the paths they
report, and lists every input only when they cannot say what changed; without them (or when they fail) every
poll lists, as before."""

from __future__ import annotations

import asyncio
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from livereload.handlers import LiveReloadHandler
from tornado.ioloop import IOLoop, PeriodicCallback

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


def watching(watcher: RebuildingWatcher, site: Path) -> None:
    """Start the watch and wait until the file system reports to it: it begins in a thread of its own, and what
    happens before the thread's watch is set up is seen only by the next idle look (which these tests hold off)."""
    watcher.watch_events()
    assert watcher.events is not None
    watcher.events.take()  # the whole look a watch's start asks for: nothing changed since the first build
    probe = site / "probe.txt"
    for attempt in range(100):
        probe.write_text(str(attempt), encoding="utf-8")
        if watcher.events._changed.wait(0.1):
            break
    else:
        pytest.fail("the watch never reported a write")
    probe.unlink()
    watcher.examine()


def until(condition: Callable[[], bool], poll: Callable[[], object], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the watcher did not get there in time"
        poll()
        time.sleep(0.05)


def home_page(site: Path) -> str:
    return (site / "output" / "index.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_an_idle_server_with_events_lists_nothing_and_an_edit_is_built_without_a_whole_listing(
    demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
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
    assert len(listings) == before, "the events said which file changed, yet every input was listed"
    assert watcher.events is not None and watcher.events.working
    assert watcher.preview.listing is not None and watcher.preview.listing.files == serve.list_inputs(demo_site).files


def retitle(site: Path, title: str) -> None:
    record = site / RECORD
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace(text.split("title: ", 1)[1].split("\n", 1)[0], title, 1), encoding="utf-8")


def events_taken(watcher: RebuildingWatcher) -> None:
    """Wait until the watch thread has reported what was just written (it batches events for 20 ms), and a little
    longer, so that no batch of the same write comes after the next poll."""
    assert watcher.events is not None
    until(lambda: watcher.events is not None and watcher.events._changed.is_set(), lambda: None, seconds=5.0)
    time.sleep(0.2)


@pytest.mark.slow
def test_with_events_a_change_is_built_once_a_poll_sees_it_hold_still(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """One poll finds the change; it is built when the next poll finds nothing more reported, so a burst of saves is
    one build; no poll lists every input."""
    watcher = started(demo_site, monkeypatch)
    builds: list[str] = []
    rebuild = watcher.preview.rebuild
    monkeypatch.setattr(
        watcher.preview, "rebuild", lambda listing, because=None, output_intact=None: builds.append("built") or rebuild(listing, because, output_intact)
    )
    watcher.watch_events()
    watcher.examine()  # the one look the start of the watch asks for
    time.sleep(0.1)
    watcher.examine()

    before = len(listings)
    retitle(demo_site, "First save of a burst")
    events_taken(watcher)
    watcher.examine()  # looks at the reported file, finds the change
    assert watcher.pending is not None and not builds
    retitle(demo_site, "Second save of the burst")
    events_taken(watcher)
    watcher.examine()  # looks again: the change still moving
    assert watcher.pending is not None and not builds
    watcher.examine()  # nothing more reported: the inputs held still, so the change is built
    assert builds == ["built"] and watcher.pending is None
    watcher.examine()  # nothing reported since
    assert builds == ["built"]
    assert len(listings) == before, "a poll listed every input"
    assert "Second save of the burst" in home_page(demo_site) and "First save" not in home_page(demo_site)


@pytest.mark.slow
def test_a_change_the_events_missed_is_listed_again_before_it_is_built(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system that reports nothing (a network share): the idle look finds the change, and a second listing sees it hold still."""
    watcher = started(demo_site, monkeypatch)
    watcher.watch_events()
    assert watcher.events is not None
    watcher.events._stop.set()  # the watch ends without a word: no event comes any more
    time.sleep(0.2)
    watcher.examine()
    watcher.examine()

    until(lambda: watcher.idle_look is None, watcher.examine)  # the first look, begun at the first idle poll, is taken
    retitle(demo_site, "Saved on a network share")
    watcher.examine()
    assert "Saved on a network share" not in home_page(demo_site)  # no event, not yet the next idle look
    monkeypatch.setattr(watcher, "next_idle_look", 0.0)
    before = len(listings)
    watcher.examine()  # the idle look begins; it lists, in a thread, and finds the change
    assert watcher.idle_look is not None
    until(lambda: watcher.idle_look is not None and watcher.idle_look.done.is_set(), lambda: None)
    assert len(listings) == before + 1
    assert "Saved on a network share" not in home_page(demo_site)
    watcher.examine()  # takes what the look found, lists again: the change held still, so it is built
    assert len(listings) == before + 2
    assert "Saved on a network share" in home_page(demo_site)


@pytest.mark.slow
def test_a_slow_look_while_idle_does_not_hold_up_the_polls(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """On a large site a look at output/ takes seconds; it runs beside the server, and what it finds is built after."""
    watcher = started(demo_site, monkeypatch)
    real_intact = serve.intact_output
    looking = threading.Event()
    finish = threading.Event()  # the look goes on until the test lets it (at most 10 s)
    finish.set()

    def slow_intact(output_dir: Path, state: object) -> bool:
        looking.set()
        finish.wait(10.0)
        return real_intact(output_dir, state)  # type: ignore[arg-type]

    monkeypatch.setattr(serve, "intact_output", slow_intact)
    until(lambda: watcher.idle_look is None, watcher.examine)
    looking.clear()
    finish.clear()
    page = demo_site / "output" / "records" / "2008.06613" / "index.html"
    page.unlink()  # a page deleted by hand
    monkeypatch.setattr(watcher, "next_idle_look", 0.0)
    watcher.examine()
    assert looking.wait(5.0)
    look = watcher.idle_look
    for _ in range(5):
        watcher.examine()
    # the polls are done while the look still waits: had they waited for it, it would have ended first
    assert look is not None and not look.done.is_set(), "the polls waited for the look"
    assert not page.exists()
    finish.set()
    until(lambda: page.exists(), watcher.examine)
    assert OLD_TITLE in page.read_text(encoding="utf-8")


@pytest.mark.slow
def test_what_a_look_found_is_dropped_when_a_build_came_after_it_began(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    watcher = started(demo_site, monkeypatch)
    builds: list[str | None] = []
    rebuild = watcher.preview.rebuild
    monkeypatch.setattr(
        watcher.preview, "rebuild", lambda listing, because=None, output_intact=None: builds.append(because) or rebuild(listing, because, output_intact)
    )
    until(lambda: watcher.idle_look is None, watcher.examine)
    release = threading.Event()
    monkeypatch.setattr(serve, "intact_output", lambda output_dir, state: release.wait(5.0) and False)  # finds output/ changed
    monkeypatch.setattr(watcher, "next_idle_look", 0.0)
    watcher.examine()  # the look begins
    retitle(demo_site, "Built while the look ran")
    until(lambda: bool(builds), watcher.examine)  # the edit is built (the build looks at output/ itself)
    release.set()
    until(lambda: watcher.idle_look is None, watcher.examine)
    assert builds == [None], "a look begun before the last build rebuilt the site again"


def test_an_input_folder_made_while_serving_is_watched(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    watcher = started(demo_site, monkeypatch)
    watching(watcher, demo_site)
    partials = demo_site.resolve() / "templates" / "partials"
    assert watcher.events is not None and str(partials) not in watcher.events.watched
    partials.mkdir(parents=True)
    until(lambda: watcher.events is not None and str(partials) in watcher.events.watched, watcher.examine)
    theme_partial = Path(serve.__file__).parent / "themes" / "default" / "templates" / "partials" / "stylesheets.html"
    (demo_site / "templates" / "partials" / "stylesheets.html").write_text(theme_partial.read_text(encoding="utf-8") + "<!-- mine -->\n", encoding="utf-8")
    until(lambda: "<!-- mine -->" in home_page(demo_site), watcher.examine)


@pytest.mark.slow
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
    until(lambda: "Written in the new folder" in home_page(demo_site), watcher.examine)  # idle looks are an hour apart here: the events tell


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


def run_server_loop(watcher: RebuildingWatcher, poll: Callable[[], object], steps: Callable[[IOLoop], object]) -> None:
    """The server's loop as `sitegen serve` runs it: the watcher started with `poll`, and `steps` scheduling the
    test's own calls, until one of them stops the loop."""
    asyncio.set_event_loop(asyncio.new_event_loop())
    loop = IOLoop.current()
    try:
        loop.add_callback(watcher.start, poll)
        steps(loop)
        loop.start()
    finally:
        assert watcher.events is not None
        watcher.events._stop.set()
        loop.close(all_fds=True)


@pytest.mark.slow
def test_a_reported_change_is_looked_at_once_and_built_a_whole_poll_later(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The running server polls as soon as the file system reports a change, not at its next tick; the poll that
    sees whether the change held still comes a whole interval after the one that found it."""
    monkeypatch.setattr(serve, "POLL_MILLISECONDS", 2000)
    watcher = started(demo_site, monkeypatch)
    polls: list[float] = []
    rebuilds: list[float] = []
    rebuild = watcher.preview.rebuild
    monkeypatch.setattr(
        watcher.preview,
        "rebuild",
        lambda listing, because=None, output_intact=None: rebuilds.append(time.monotonic()) or rebuild(listing, because, output_intact),
    )

    def poll() -> None:
        polls.append(time.monotonic())
        watcher.examine()

    saved: list[float] = []
    deadline = time.monotonic() + 15.0

    def save() -> None:
        saved.append(time.monotonic())
        retitle(demo_site, "Looked at as soon as it was saved")

    def stop_when_built() -> None:
        if rebuilds and "Looked at as soon as it was saved" in home_page(demo_site) or time.monotonic() > deadline:
            IOLoop.current().stop()

    def steps(loop: IOLoop) -> None:
        loop.call_later(0.7, save)  # the first tick would come at 2 s
        loop.add_callback(lambda: PeriodicCallback(stop_when_built, 50).start())

    run_server_loop(watcher, poll, steps)
    assert saved and rebuilds, "the change was not built"
    noticed = next(at for at in polls if at > saved[0])
    assert noticed - saved[0] < 1.0, "the change waited for the next tick"
    assert rebuilds[0] - noticed > 1.8, "the change was built before it could be seen to hold still for a whole poll"


@pytest.mark.slow
def test_a_file_written_again_and_again_is_not_listed_after_every_write(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """An editor's swap file saved every 20 ms: the server polls at once at most once an interval, as its ticks would."""
    monkeypatch.setattr(serve, "POLL_MILLISECONDS", 500)
    watcher = started(demo_site, monkeypatch)
    swap = demo_site / "content" / ".profile.yaml.swp"
    writes = 0
    before: list[int] = []
    began: list[float] = []

    def write() -> None:
        nonlocal writes
        if not before:
            before.append(len(listings))
            began.append(time.monotonic())
        writes += 1
        swap.write_text(f"draft {writes}\n", encoding="utf-8")
        loop = IOLoop.current()
        if writes < 100:
            loop.call_later(0.02, write)
        else:
            loop.call_later(0.3, loop.stop)

    run_server_loop(watcher, watcher.examine, lambda loop: loop.call_later(0.5, write))
    seconds = time.monotonic() - began[0]
    assert len(listings) - before[0] <= seconds / 0.5 + 2, f"{len(listings) - before[0]} listings for {writes} writes in {seconds:.1f} s"


def records_json(site: Path) -> str:
    return (site / "output" / "records.json").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_downloads_are_written_after_the_reload_by_the_next_idle_poll(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """What a browser loads with a page is written before the reload; BibTeX, RIS, JSON and feeds one poll later."""
    monkeypatch.setattr(serve, "POLL_MILLISECONDS", 1000)  # a poll long enough that the next line comes within it on a busy machine
    watcher = started(demo_site, monkeypatch)
    retitle(demo_site, "Retitled for the downloads")
    watcher.examine()  # lists: the change found
    watcher.examine()  # lists: it held still, so it is built
    assert "Retitled for the downloads" in home_page(demo_site)
    downloads = watcher.preview.downloads
    assert downloads is not None and {"records.json", "publications.bib", "publications.ris"} <= downloads.paths
    assert "Retitled for the downloads" not in records_json(demo_site), "written before the reload"
    watcher.examine()  # at once: not yet due (the browser is fetching the page it reloaded)
    assert watcher.preview.downloads is not None
    until(lambda: watcher.preview.downloads is None, watcher.examine, seconds=5.0)
    assert "Retitled for the downloads" in records_json(demo_site)
    assert "Retitled for the downloads" in (demo_site / "output" / "publications.bib").read_text(encoding="utf-8")


def test_stopping_the_server_writes_what_it_left_for_later(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    watcher = started(demo_site, monkeypatch)
    retitle(demo_site, "Stopped at once")
    watcher.examine()
    watcher.examine()
    assert watcher.preview.downloads is not None
    watcher.preview.save()  # what Ctrl-C ends with
    assert watcher.preview.downloads is None and "Stopped at once" in records_json(demo_site)


def test_a_download_asked_for_before_the_idle_poll_is_written_first(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from tornado.httpclient import AsyncHTTPClient

    monkeypatch.setattr(serve, "POLL_MILLISECONDS", 600_000)  # no idle poll comes in this test
    asyncio.set_event_loop(asyncio.new_event_loop())
    preview = Preview(demo_site)
    server = serve.PreviewServer(preview)
    monkeypatch.setattr(LiveReloadHandler, "watcher", server.watcher)
    port = free_port()
    server.listen("127.0.0.1", port)
    loop = IOLoop.current()
    try:
        server.watcher.build_first()
        retitle(demo_site, "Asked for at once")
        server.watcher.examine()
        server.watcher.examine()
        assert preview.downloads is not None and "Asked for at once" not in records_json(demo_site)
        response = loop.run_sync(lambda: AsyncHTTPClient().fetch(f"http://127.0.0.1:{port}/records.json"))
        assert "Asked for at once" in response.body.decode("utf-8")
        assert preview.downloads is None
    finally:
        loop.close(all_fds=True)


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_output_is_looked_at_while_a_change_holds_still_and_the_build_does_not_look_again(
    demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look at output/ runs in the poll's wait; a page deleted by hand before the change is still written again."""
    import sitegen.build

    watcher = started(demo_site, monkeypatch)
    looks_by_builds: list[str] = []
    look_in_build = sitegen.build.intact_output
    monkeypatch.setattr(sitegen.build, "intact_output", lambda *args: looks_by_builds.append("looked") or look_in_build(*args))
    page = demo_site / "output" / "records" / "1811.02047" / "index.html"
    assert page.exists()
    page.unlink()  # by hand, before the change: a page the change does not touch
    retitle(demo_site, "Looked at in the wait")
    watcher.examine()  # finds the change, begins the look at output/
    assert watcher.output_look is not None
    time.sleep(0.25)  # the poll's wait
    watcher.examine()  # the change held still: built with what the look found
    assert looks_by_builds == [], "the build looked at output/ itself"
    assert page.exists(), "the page deleted by hand was not written again"
    assert "Looked at in the wait" in home_page(demo_site)


def test_the_first_edit_after_starting_on_a_built_site_reads_only_the_file_it_changed(
    demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's first build makes the site model even when output/ is up to date, so the first edit is as quick as the next."""
    from sitegen.build import build_site
    from sitegen.sources import yaml_records

    assert build_site(demo_site).output_dir is not None  # `sitegen build` first: output/ up to date when the server starts
    watcher = started(demo_site, monkeypatch)
    parsed: list[str] = []
    parse = yaml_records.parse_yaml
    monkeypatch.setattr(yaml_records, "parse_yaml", lambda text, path: parsed.append(path) or parse(text, path))
    retitle(demo_site, "The first edit")
    watcher.examine()
    watcher.examine()
    assert "The first edit" in home_page(demo_site)
    assert parsed == [RECORD], parsed


def test_sitegen_upgraded_under_a_running_server_says_to_restart_it(demo_site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`pip install -U sitegen-profiles` (or a `git pull` of an editable checkout) while `sitegen serve` runs: the
    bundled themes are inputs, so the next build would read the new templates with the old code (a template error
    in `<sitegen>/themes/...`, a file not the user's). The server says to restart it instead, and keeps saying so;
    output/ stays the last good build."""
    preview = Preview(demo_site)
    assert preview.rebuild(serve.list_inputs(demo_site)) is not None and not preview.problems
    before = home_page(demo_site)
    listing = serve.list_inputs(demo_site)
    template = next(path for path in listing.files if path.startswith("<sitegen>/themes/default/templates/"))
    size, mtime_ns = listing.files[template]
    listing.files[template] = (size, mtime_ns + 1)  # the upgrade rewrote it
    monkeypatch.setattr(serve, "code_stamps", lambda: {**preview.code, "build.py": (1, 1)})  # and the code
    preview.rebuild(listing)
    assert preview.problems == [serve.SITEGEN_CHANGED]
    assert "sitegen itself changed while this server ran" in serve.SITEGEN_CHANGED and "run sitegen serve again" in serve.SITEGEN_CHANGED
    edit_listing = serve.list_inputs(demo_site)
    preview.rebuild(edit_listing)
    assert preview.problems == [serve.SITEGEN_CHANGED], "an edit of the site builds nothing with the mixed sitegen"
    assert home_page(demo_site) == before


@pytest.mark.slow
def test_output_changed_by_hand_is_written_again_only_once_it_holds_still(demo_site: Path, listings: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """`rm -rf output` while the server looks: writing the site back at once, while rm still deletes, made rm fail
    with "Directory not empty". The server writes output/ again once two looks a poll apart find it the same."""
    watcher = started(demo_site, monkeypatch)
    until(lambda: watcher.idle_look is None, watcher.examine)
    first = demo_site / "output" / "records" / "2008.06613" / "index.html"
    second = demo_site / "output" / "subjects"
    first.unlink()  # rm has begun
    monkeypatch.setattr(watcher, "next_idle_look", 0.0)
    watcher.examine()
    until(lambda: watcher.idle_look is None, watcher.examine)  # a look found output/ changed
    assert not first.exists(), "written again while output/ was still changing"
    shutil.rmtree(second)  # rm goes on
    until(lambda: watcher.idle_look is None and watcher.disturbed is not None, watcher.examine)
    until(lambda: first.exists() and second.is_dir(), watcher.examine)  # it holds still now: the site is written again
    assert OLD_TITLE in first.read_text(encoding="utf-8")
