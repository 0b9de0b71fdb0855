"""`sitegen serve`: build, serve with live reload, rebuild on every change.

The `livereload` package does the serving: its tornado app injects the reload
script into every HTML response and speaks the LiveReload websocket protocol to
the browser, and its poll loop drives our watcher. sitegen adds what a preview
of *this* kind of site needs:

- every rebuild is `build_site`, the same code as `sitegen build`, skipped
  when no input file changed and run once for a burst of saves;
- a failed build keeps the last good site on disk and answers every page with
  an error page listing the problems, until a save fixes them;
- the site is served under the path of `base_url`, as GitHub project pages do;
- a busy port, Ctrl-C and path traversal each end the way a user expects.

livereload 2.7.1 quirks we route around: its watcher stops a folder scan at
the first changed file (one burst of saves ran one build per file), it drops
a reload that comes within 3 s of the previous one, it ignores `delay="forever"`,
its static handler uses `utcfromtimestamp` (deprecated in 3.12), it injects
nothing into 404 pages, and it prints "Serving on" before it knows the port is free.
"""

from __future__ import annotations

import asyncio
import errno
import html
import logging
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from livereload import Server
from livereload.handlers import LiveReloadHandler
from livereload.watcher import Watcher
from tornado import web
from tornado.ioloop import IOLoop, PeriodicCallback

from sitegen.build import Downloads, build_site, collector_paused, intact_output
from sitegen.cache import BuildCache, BuildState
from sitegen.commands import report_warnings
from sitegen.errors import ContentError, ExitStatus, Problem, SitegenError
from sitegen.inputs import BUNDLED_PREFIX, FileStat, Listing, list_inputs, listing_with_changes
from sitegen.output_folder import OutputBusy, holder, output_lock, shown
from sitegen.prepare import Memory, content_of
from sitegen.urls import SiteUrls, is_loopback_host

POLL_MILLISECONDS = 250
SAY_WAITING_AFTER_SECONDS = 2.0  # a rebuild that waits this long for another sitegen says so
IDLE_LOOK_SECONDS = 2.0  # while idle, the output (and, with events, the inputs) are looked at this often at most
IDLE_LOOK_SHARE = 0.05  # and the looks take at most this share of the time in between: a large site looks less often


def run(args: Any) -> int:
    """Entry point of `sitegen serve` (args.site, args.host, args.port)."""
    try:
        return serve(Preview(Path(args.site), drafts=args.drafts), args.host, args.port)
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return ExitStatus.OK


def serve(preview: Preview, host: str, port: int) -> int:
    """Listen first (so a busy port fails fast), then build, then serve until Ctrl-C."""
    asyncio.set_event_loop(asyncio.new_event_loop())  # tornado needs a current loop on Python 3.12+
    logging.getLogger("tornado.access").disabled = True  # no line per request: a broken build is reported once, by the build
    server = PreviewServer(preview)
    try:
        server.listen(host, port)
    except OSError as error:
        print(cannot_listen(host, port, error), file=sys.stderr)
        return ExitStatus.CONTENT
    server.watcher.build_first()
    if preview.problems and not (preview.site_dir / "content").is_dir():
        raise ContentError([Problem(line) for line in preview.problems])  # not a site at all
    if not preview.prepared:  # the first build failed, or waits for another sitegen: the path site.yaml asks for
        preview.base_path = base_path_in_settings(preview.site_dir)
    print(f"Serving {preview.site_dir.resolve()} on {site_address(host, port, preview.base_path)} (Ctrl-C to stop)", file=sys.stderr)
    if not is_loopback_host(host):
        print(f"note: listening on {host}, so other machines can see this preview", file=sys.stderr)
    loop = IOLoop.current()
    try:
        server.start()
    except KeyboardInterrupt:
        pass
    finally:
        loop.close(all_fds=True)
        preview.save()  # a second Ctrl-C stops this too, and `run` says "stopped"
    print("stopped", file=sys.stderr)
    return ExitStatus.OK


# --- what is being served -------------------------------------------------------------


@dataclass
class Preview:
    """The state the server shows: the last build's inputs, base path and problems."""

    site_dir: Path
    listing: Listing | None = None  # the inputs of the last build
    problems: list[str] = field(default_factory=list)  # lines as the CLI prints them; empty when the site built
    base_path: str = "/"
    cache: BuildCache | None = None  # its state kept in memory between rebuilds
    memory: Memory = field(default_factory=Memory)  # what builds work out, kept in memory; saved on exit
    downloads: Downloads | None = None  # files the last build left to write after the reload
    downloads_due: float = 0.0  # when an idle poll writes them (time.monotonic)
    prepared: bool = False  # a build has made the site model in `memory` (the first does, even when output/ is up to date)
    drafts: bool = False  # `--drafts`: drafts ('_name.md') are shown too
    waiting_since: float | None = None  # when a build first found another sitegen writing output/ (inf: said so)
    interrupted: bool = False  # Ctrl-C stopped a build halfway: what it kept in memory is not to be trusted
    earlier_base_paths: set[str] = field(default_factory=set)  # base paths served before `base_url` changed
    code: dict[str, FileStat] = field(default_factory=lambda: code_stamps())  # sitegen's Python files as this process loaded them

    def __post_init__(self) -> None:
        if self.cache is None:
            self.cache = BuildCache(self.site_dir)

    @property
    def output_dir(self) -> Path:
        return self.site_dir / "output"

    @property
    def inputs(self) -> dict[str, FileStat]:
        """The inputs of the last build, as listed for it."""
        return self.listing.files if self.listing is not None else {}

    def rebuild(self, listing: Listing, because: str | None = None, output_intact: bool | None = None, wait: float | None = 0.0) -> list[str] | None:
        """Build `listing` (the inputs as just listed) as `sitegen build` does; on failure keep the last good site and remember why.

        `output_intact`: what a look at output/ since the last build found (None: the build looks).
        Returns the input paths that changed since the previous build; None when another sitegen is writing
        output/ (after `wait` seconds; None: as long as `sitegen build` waits): nothing was built, and the caller
        tries again later.
        """
        try:
            with output_lock(self.output_dir, wait):
                self.waiting_since = None
                return self._rebuild(listing, because, output_intact)
        except OutputBusy as busy:
            now = time.monotonic()
            if self.waiting_since is None:
                self.waiting_since = now
            elif now - self.waiting_since >= SAY_WAITING_AFTER_SECONDS:  # a build of a second or two is waited for silently
                print(f"waiting: {holder(busy.pid)} is writing {shown(self.output_dir)}; the preview builds once it is done", file=sys.stderr)
                self.waiting_since = float("inf")  # said once
            return None

    def _rebuild(self, listing: Listing, because: str | None, output_intact: bool | None, stopping: bool = False) -> list[str]:
        changed = changed_paths(self.inputs, listing.files)
        if self.problems == [SITEGEN_CHANGED] or (any(path.startswith(BUNDLED_PREFIX) for path in changed) and code_stamps() != self.code):
            self.listing = listing
            if self.problems != [SITEGEN_CHANGED]:
                self._failed([SITEGEN_CHANGED])
            return changed
        if because is None:
            because = f" after a change to {describe(changed)}" if self.inputs else ""
        self.listing = listing
        self.downloads = None  # this build makes them again
        self.interrupted = True  # until it returns
        try:
            with collector_paused():
                result = build_site(
                    self.site_dir,
                    self.output_dir,
                    cache=self.cache,
                    memory=self.memory,
                    listing=listing,
                    downloads_later=self.prepared and not stopping,  # the first and the last write everything at once: no browser waits
                    output_intact=output_intact,
                    stop_if_up_to_date=self.prepared,
                    drafts=self.drafts,
                    locked=True,  # by `rebuild`
                )
        except SitegenError as error:
            self.interrupted = False
            self._failed([str(problem) for problem in error.problems], stopping)
        except Exception as error:  # a bug in a build step must not stop the preview
            self.interrupted = False
            traceback.print_exc()
            self._failed([f"internal error: {type(error).__name__}: {error}"])
        else:
            self.interrupted = False
            self.problems = []
            if self.prepared and result.base_path != self.base_path:
                self.earlier_base_paths.add(self.base_path)  # tabs open at the old address are sent on (PreviewHandler)
            self.prepared = True
            self.base_path = result.base_path
            self.downloads = result.downloads
            self.downloads_due = time.monotonic() + POLL_MILLISECONDS / 1000  # by then the browser has the page it reloaded
            report_warnings(result.warnings)
            if not result.up_to_date or changed:
                print(f"built {result.pages} pages in {result.seconds:.2f} s{because}", file=sys.stderr)
        return changed

    def write_downloads(self) -> None:
        """Write the files the last build left for after the reload (`build.Downloads`), if any; while another
        sitegen is writing output/, they wait (and that sitegen's build makes them itself)."""
        if self.downloads is None:
            return
        try:
            with output_lock(self.output_dir, wait=0.0):
                self._write_downloads()
        except OutputBusy:
            pass

    def _write_downloads(self) -> None:
        downloads, self.downloads = self.downloads, None
        if downloads is None:
            return
        assert self.cache is not None
        self.cache.follow_other_builds()  # another build since: `write` finds the state it began from replaced
        try:
            with collector_paused():
                downloads.write()
        except SitegenError as error:
            self._failed([str(problem) for problem in error.problems])
        except Exception as error:  # a bug in a build step must not stop the preview
            traceback.print_exc()
            self._failed([f"internal error: {type(error).__name__}: {error}"])

    def save(self) -> None:
        """On stopping: output/ as a `sitegen build` of the files as they are now would leave it, and the next
        `sitegen build` starts where the preview stopped (unless another sitegen is writing output/ now: its build
        saves its own state).

        A change saved since the last build (within the quarter second the server waits, or while it built) is
        built first; so is a build that Ctrl-C stopped halfway, afresh, since what it kept in memory is not to be
        trusted. A second Ctrl-C stops that build too: output/ is then the last build, or that one, whole."""
        assert self.cache is not None
        try:
            with output_lock(self.output_dir):
                if self.interrupted:
                    self._build_afresh()
                    return
                listing = list_inputs(self.site_dir) if self.prepared else None
                if listing is not None and listing.files != self.inputs:
                    print("stopping: building your last change first (Ctrl-C again to leave it to the next sitegen build)", file=sys.stderr)
                    self._rebuild(listing, None, None, stopping=True)
                    if self.interrupted:  # cannot happen but by a bug in a build step: nothing more to trust
                        return
                self._write_downloads()
                self.cache.follow_other_builds()
                self.cache.save(self.cache.state, content_of(self.memory))
        except OutputBusy:
            pass

    def _build_afresh(self) -> None:
        """The build Ctrl-C stopped, done again as `sitegen build` does it: from the files and the build cache on disk."""
        print(
            "stopping: finishing the build Ctrl-C interrupted, so that output/ is whole (Ctrl-C again to leave it to the next sitegen build)", file=sys.stderr
        )
        try:
            with collector_paused():
                result = build_site(self.site_dir, self.output_dir, drafts=self.drafts, locked=True)
        except SitegenError as error:
            self._failed([str(problem) for problem in error.problems], stopping=True)
            return
        report_warnings(result.warnings)
        print(f"built {result.pages} pages in {result.seconds:.2f} s", file=sys.stderr)

    def _failed(self, problems: list[str], stopping: bool = False) -> None:
        self.problems = problems or ["the build failed without naming a problem"]
        if stopping:
            print("your last change does not build, so output/ keeps the last build that did:", file=sys.stderr)
        else:
            print("build failed; the preview shows these problems until they are fixed:", file=sys.stderr)
        for line in self.problems:
            print(line, file=sys.stderr)


SITEGEN_CHANGED = (
    f"error: sitegen itself changed while this server ran (upgraded, or its files in {Path(__file__).parent} edited): "
    "its themes are the new ones, the code that fills them is not; stop the server (Ctrl-C) and run sitegen serve again"
)


def code_stamps() -> dict[str, FileStat]:
    """Size and mtime of each of sitegen's Python files: what a server started with, to see when sitegen is upgraded
    under it (its bundled themes are inputs, read again on every change; its code is not)."""
    root = Path(__file__).parent
    stamps: dict[str, FileStat] = {}
    for path in sorted(root.rglob("*.py")):
        try:
            found = path.stat()
        except OSError:
            continue
        stamps[path.relative_to(root).as_posix()] = (found.st_size, found.st_mtime_ns)
    return stamps


def describe(paths: list[str], shown: int = 3) -> str:
    more = f" and {len(paths) - shown} more" if len(paths) > shown else ""
    return ", ".join(paths[:shown]) + more


# --- noticing changes -----------------------------------------------------------------


def changed_paths(before: dict[str, FileStat], after: dict[str, FileStat]) -> list[str]:
    """Added, removed, or with another size or mtime."""
    return sorted([path for path, file_stat in after.items() if before.get(path) != file_stat] + [path for path in before if path not in after])


class InputEvents:
    """What in the site's input folders changed since the last look, as the file system reports it.

    The file system tells (watchfiles: inotify, FSEvents or ReadDirectoryChangesW,
    in a thread of its own), so neither an idle server nor a rebuild lists every
    input file (RESULTS.md, mechanisms 16 and 20): the paths reported are looked at
    again (`inputs.listing_with_changes`). The folders watched are those the last
    listing walked (so a link that leaves the site is not followed here either) and
    the site folder, each on its own; when a listing finds another set (a folder
    made, removed or replaced: a watch follows the folder it began on), the watch
    starts again. When the file system gives no events (a watch limit, an error),
    or when a watch has just begun, only a whole listing can tell.
    """

    def __init__(self, listing: Listing, on_change: Callable[[], object] | None = None):
        """`on_change`: called (in the watch's thread) whenever the file system reports a change."""
        self.site_dir = listing.site_dir
        self.on_change = on_change
        self.watched: dict[str, int] = {}  # each folder watched (its real path) -> its inode
        self.working = True
        self._lock = threading.Lock()
        self._reported: set[str] | None = set()  # paths reported since the last `take`; None: list everything
        self._changed = threading.Event()
        self._stop = threading.Event()
        self.follow(listing)

    def follow(self, listing: Listing) -> None:
        """Watch the folders of this listing (and the site folder, where input folders come and go)."""
        wanted = dict(listing.folders)
        try:
            site = os.path.realpath(self.site_dir)
            wanted[site] = os.stat(site).st_ino
        except OSError:
            pass
        if wanted == self.watched:
            return
        self._stop.set()
        self._stop = threading.Event()
        self.watched = wanted
        self.look_at_everything()  # what happened before the watch began
        threading.Thread(target=self._watch, args=(sorted(wanted), self._stop), name="sitegen-input-events", daemon=True).start()

    def look_at_everything(self) -> None:
        """The next look lists every input: the events cannot say what changed (or missed something)."""
        with self._lock:
            self._reported = None
        self._changed.set()

    def changed(self) -> bool:
        """True when the inputs may have changed since the last `take` (or when events cannot say)."""
        return not self.working or self._changed.is_set()

    def take(self) -> set[str] | None:
        """The paths reported since the last call, forgotten here; None when only a whole listing can tell."""
        with self._lock:
            self._changed.clear()
            reported, self._reported = self._reported, set()
        return reported if self.working else None

    def _watch(self, folders: list[str], stop: threading.Event) -> None:
        try:
            import watchfiles  # a compiled library: where it cannot be installed, polls list as without it

            for changes in watchfiles.watch(
                *folders, watch_filter=None, step=20, stop_event=stop, raise_interrupt=False, recursive=False, ignore_permission_denied=True
            ):
                with self._lock:
                    if self._reported is not None:
                        self._reported.update(path for _, path in changes)
                self._changed.set()
                if self.on_change is not None:
                    self.on_change()
        except Exception:  # no events to be had here (a watch limit, no watchfiles): every poll lists the inputs
            if not stop.is_set():
                self.working = False


class RebuildingWatcher(Watcher):
    """livereload's watcher, deciding by the site's input listing instead of its own scan.

    A change is built once the inputs held still for one poll, so a burst of saves
    (or a `git checkout`) gives one build; browsers are told to reload right after.
    With `events` (the running server's), a poll lists the inputs only when the
    file system reported a change or a change is pending. While idle, the output
    is looked at now and then (a page deleted by hand is written again), and so,
    with events, are the inputs: a network file system may report nothing. Such
    a look runs in a thread (`IdleLook`), so the server answers while it does.
    """

    def __init__(self, preview: Preview):
        super().__init__()
        self.preview = preview
        self.pending: Listing | None = None  # a change listed, built once it holds still for a poll
        self.events: InputEvents | None = None
        self.next_idle_look = time.monotonic()
        self.idle_look: IdleLook | None = None  # the look while idle under way
        self.output_look: IdleLook | None = None  # the look at output/ begun when a change was found
        self.polls: PeriodicCallback | None = None  # the running server's polls
        self.listed_at = float("-inf")  # when a poll last listed the inputs
        self.blocked: tuple[Listing, str | None] | None = None  # a build that found another sitegen writing output/
        self.disturbed: tuple | None = None  # how output/ looked when a look found it changed by hand, not yet rebuilt

    def start(self, callback) -> bool:
        loop = IOLoop.current()
        self.polls = PeriodicCallback(callback, POLL_MILLISECONDS)
        self.watch_events(on_change=lambda: loop.add_callback(self._poll_now, callback))
        self.polls.start()
        return True  # livereload: "I poll myself"

    def watch_events(self, on_change: Callable[[], object] | None = None) -> None:
        """From now on, list the inputs only when the file system reports a change (or says nothing)."""
        self.events = InputEvents(self.preview.listing or list_inputs(self.preview.site_dir), on_change)

    def _poll_now(self, poll: Callable[[], object]) -> None:
        """A change reported while none is pending: poll at once instead of at the next tick, and tick on from here,
        so the poll that sees whether the change held still still comes a whole interval later. Not within an
        interval of the last listing: a file written again and again (a log, an editor's swap file) is listed once a
        tick, as before, not after every write."""
        assert self.polls is not None  # set by `start`, which asks for this
        if self.pending is not None or time.monotonic() - self.listed_at < POLL_MILLISECONDS / 1000:
            return
        self.polls.stop()
        self.polls.start()  # the next tick: an interval from now
        poll()

    def build_first(self) -> None:
        listing = list_inputs(self.preview.site_dir)
        if self.preview.rebuild(listing, wait=None) is None:
            self.blocked = (listing, None)

    def examine(self) -> tuple[None, None]:
        if self.blocked is not None:  # tried again each poll, with what changed meanwhile, until the other sitegen is done
            self.pending, because = self.blocked
            self.blocked = None
            listing = self._listed()
            self.pending = None
            self._rebuild(listing, because)
            return None, None
        self._take_idle_look()
        if self.events is not None and self.pending is None and not self.events.changed():
            self._idle(list_the_inputs=True)  # the events may have missed a change
            return None, None
        listing = self._listed()
        current = listing.files
        if current == self.preview.inputs:
            self.pending = None
            self._idle(list_the_inputs=False)  # just listed
        elif self.pending is None or current != self.pending.files:
            self.pending = listing  # still changing: wait for a listing that sees it hold still
            self._look_at_the_output()
        else:
            self.pending = None
            self._rebuild(listing, output_intact=self._output_as_looked_at())
        return None, None  # livereload's own reload logic has nothing left to do

    def _look_at_the_output(self) -> None:
        """While a change holds still for a poll, whether output/ is as the last build left it, in a thread: the server
        is waiting then, so the build need not look itself (on a large site, a stat of every output file and folder)."""
        assert self.preview.cache is not None
        self.output_look = IdleLook(self.preview.site_dir, self.preview.output_dir, self.preview.cache.state, list_the_inputs=False)
        self.output_look.start()

    def _output_as_looked_at(self) -> bool | None:
        """What the look begun when the change was found saw, if it looked at the output the last build left (None: the build looks)."""
        look, self.output_look = self.output_look, None
        assert self.preview.cache is not None
        if look is None or look.state is not self.preview.cache.state:
            return None
        look.done.wait()
        return look.output_intact

    def _listed(self) -> Listing:
        """The inputs as they are now: the newest listing with the paths reported since looked at again, or (when
        the events cannot say) a whole listing, whose folders the events then follow.

        What the file system reported before this look began, this look sees: only what it reports from now on
        makes the next poll look again."""
        self.listed_at = time.monotonic()
        reported = self.events.take() if self.events is not None else None
        newest = self.pending or self.preview.listing
        listing = listing_with_changes(newest, reported) if reported is not None and newest is not None else None
        if listing is None:
            listing = list_inputs(self.preview.site_dir)
            if self.events is not None:
                self.events.follow(listing)
        return listing

    def _rebuild(self, listing: Listing, because: str | None = None, output_intact: bool | None = None) -> None:
        was_ok = not self.preview.problems
        changed = self.preview.rebuild(listing, because, output_intact)
        if changed is None:
            self.blocked = (listing, because)
            return
        LiveReloadHandler.reload_waiters(reload_target(changed, was_ok and not self.preview.problems))

    def _idle(self, list_the_inputs: bool) -> None:
        """Nothing changed: the files the last build left for later, once they are due, then a look now and then."""
        if self.preview.downloads is not None and time.monotonic() >= self.preview.downloads_due:
            self.preview.write_downloads()
        self._look_while_idle(list_the_inputs)

    def _look_while_idle(self, list_the_inputs: bool) -> None:
        """Now and then while idle, in a thread: output changed by hand and, when asked, inputs the events may have missed."""
        if self.preview.problems or self.idle_look is not None or time.monotonic() < self.next_idle_look:
            return
        assert self.preview.cache is not None
        self.idle_look = IdleLook(self.preview.site_dir, self.preview.output_dir, self.preview.cache.state, list_the_inputs)
        self.idle_look.start()

    def _take_idle_look(self) -> None:
        """What a finished look found, unless a build came after it began (and so looked itself)."""
        look = self.idle_look
        if look is None or not look.done.is_set():
            return
        self.idle_look = None
        self.next_idle_look = time.monotonic() + max(IDLE_LOOK_SECONDS, look.seconds / IDLE_LOOK_SHARE)
        assert self.preview.cache is not None
        if look.state is not self.preview.cache.state or self.preview.problems or self.pending is not None:
            return
        if look.listing is not None:
            if self.events is not None:
                self.events.follow(look.listing)
            if look.listing.files != self.preview.inputs:
                self.pending = look.listing  # built once a listing sees it hold still
                if self.events is not None:
                    self.events.look_at_everything()  # they missed this change: the next look lists every input
                return
        if look.output_intact:
            self.disturbed = None
        elif not self._another_build_wrote_the_output():
            if look.output_seen != self.disturbed:  # still changing (an `rm -rf output` under way): look again soon
                self.disturbed = look.output_seen
                self.next_idle_look = time.monotonic() + POLL_MILLISECONDS / 1000
                return
            self.disturbed = None
            self._rebuild(look.listing or self._listed(), " because output/ was changed by hand")

    def _another_build_wrote_the_output(self) -> bool:
        """A `sitegen build` of this site wrote output/ since the preview's last build (and saved its state): what it
        wrote stays, served as it is until the next change, which builds on it. Rewriting it at once, as for a page
        deleted by hand, would undo that build: its site without drafts, or with another `--base-url`, replaced by
        the preview's a moment before you deploy it. The next look compares output/ with that build's state."""
        cache = self.preview.cache
        assert cache is not None
        if not cache.follow_other_builds():
            return False
        state = cache.state
        if not state.manifest or Path(state.output_dir) != self.preview.output_dir.absolute():
            return False  # a build elsewhere (`--output DIR`): this output/ was changed by hand
        self.preview.downloads = None  # that build wrote them
        print("output/ was written by another sitegen since the last build here: the preview shows what it wrote until your next change", file=sys.stderr)
        LiveReloadHandler.reload_waiters("*")
        return True


class IdleLook:
    """A look at the site while the server waits (idle, or while a change holds still for a poll), in a thread of its own.

    On a large site it takes seconds (a stat of every output file and folder:
    1.4 million at 100,000 records of a people directory), which the server's
    loop would otherwise spend not answering. It compares the output with the
    build `state` it began with; the watcher ignores what it found when a build
    came in between.
    """

    def __init__(self, site_dir: Path, output_dir: Path, state: BuildState, list_the_inputs: bool) -> None:
        self.site_dir, self.output_dir, self.state = site_dir, output_dir, state
        self.list_the_inputs = list_the_inputs
        self.listing: Listing | None = None  # the inputs, when asked for
        self.output_intact = True
        self.output_seen: tuple | None = None  # when not intact: the stamps of output/ and its folders, to see it hold still
        self.seconds = 0.0
        self.done = threading.Event()

    def start(self) -> None:
        threading.Thread(target=self._look, name="sitegen-idle-look", daemon=True).start()

    def _look(self) -> None:
        started = time.monotonic()
        try:
            if self.list_the_inputs:
                self.listing = list_inputs(self.site_dir)
            self.output_intact = intact_output(self.output_dir, self.state)
            if not self.output_intact:
                self.output_seen = output_stamps(self.output_dir, self.state)
        finally:
            self.seconds = time.monotonic() - started
            self.done.set()


def output_stamps(output_dir: Path, state: BuildState) -> tuple:
    """The mtime of output/ and of each folder the last build wrote (None: gone): a file added or removed anywhere
    changes its folder's, so two looks that agree saw output/ hold still."""
    root = os.fspath(output_dir.absolute())
    stamps: list[int | None] = []
    for name in ["", *state.folders]:
        try:
            stamps.append(os.lstat(f"{root}/{name}" if name else root).st_mtime_ns)
        except OSError:
            stamps.append(None)
    return tuple(stamps)


def reload_target(changed: list[str], stayed_ok: bool) -> str:
    """What to tell livereload.js: one stylesheet reloads in place, anything else reloads the page."""
    if stayed_ok and len(changed) == 1 and changed[0].endswith(".css"):
        return changed[0]
    return "*"


# --- serving --------------------------------------------------------------------------


class PreviewServer(Server):
    """livereload's server with our watcher and our handler for the site."""

    def __init__(self, preview: Preview):
        super().__init__(watcher=RebuildingWatcher(preview))
        self.preview = preview

    def get_web_handlers(self, script: bytes) -> list:
        return [(r"/(.*)", PreviewHandler, {"preview": self.preview})]

    def listen(self, host: str, port: int) -> None:
        """Bind the port (raises OSError when busy); livereload adds its endpoints and script injection."""
        self.application(port, host)

    def start(self) -> None:
        LiveReloadHandler.start_tasks()
        IOLoop.current().start()


class PreviewHandler(web.StaticFileHandler):
    """output/ under the base path; the error page while the build is broken; the site's own 404 page.

    Tornado's StaticFileHandler resolves the (already %-decoded) path and refuses
    anything outside the root, so `..` in any spelling never leaves output/.
    """

    def initialize(self, preview: Preview) -> None:  # type: ignore[override]
        self.preview = preview
        super().initialize(path=str(preview.output_dir), default_filename="index.html")

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")  # files change under the browser all the time

    def compute_etag(self) -> None:
        return None

    def should_return_304(self) -> bool:
        return False

    @classmethod
    def get_content(cls, abspath: str, start: int | None = None, end: int | None = None):
        """A whole page in one chunk: livereload looks for </head> in the first chunk only (64 KiB)."""
        if abspath.endswith(".html") and start is None and end is None:
            return Path(abspath).read_bytes()
        return super().get_content(abspath, start, end)

    async def get(self, path: str, include_body: bool = True) -> None:
        if not acceptable_path(path):
            raise web.HTTPError(400)
        if ".." in path.replace("\\", "/").split("/"):
            raise web.HTTPError(404)  # nothing above output/ is a page of the site
        url = "/" + path
        base = self.preview.base_path
        if self.preview.problems and is_page(url):
            self.send_problems()
        elif base != "/" and url in ("/", base.rstrip("/")):
            self.redirect(base)
        elif (moved := self.moved_address(url)) is not None:
            self.redirect(moved)
        elif not url.startswith(base):
            raise web.HTTPError(404)
        else:
            downloads = self.preview.downloads
            if downloads is not None and url[len(base) :] in downloads.paths:
                self.preview.write_downloads()  # asked for before the idle poll wrote it
            await super().get(url[len(base) :], include_body)

    def moved_address(self, url: str) -> str | None:
        """A tab open at the site's address before `base_url` got (or lost) a path reloads at the old address: the
        same page at the new one, when the old address is no file of the site."""
        base = self.preview.base_path
        for earlier in sorted(self.preview.earlier_base_paths, key=len, reverse=True):
            if earlier == base or not url.startswith(earlier):
                continue
            if url.startswith(base) and (self.preview.output_dir / url[len(base) :].lstrip("/")).exists():
                return None
            moved = base + url[len(earlier) :].lstrip("/")
            if (self.preview.output_dir / moved[len(base) :]).exists():
                return moved
        return None

    def send_problems(self) -> None:
        """The page of the problems that stop the build: 503, the site unavailable until they are fixed (the server
        itself works; 500 would say it failed)."""
        self.set_status(503)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(problems_page(self.preview.problems))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        not_found = self.preview.output_dir / "404.html"
        if status_code == 404 and not_found.is_file():
            self.finish(not_found.read_bytes())  # HTML, so livereload injects its script here too
        elif status_code == 404:  # output/ deleted or half written: a page that comes back by itself once it is whole
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(NOT_YET_PAGE)
        else:
            super().write_error(status_code, **kwargs)


MAX_PATH_LENGTH = 2048

# The answer for an address not found while output/ has no 404.html (deleted by hand and not yet written again):
# HTML with a head, so that livereload's script goes in and the tab reloads once the site is back.
NOT_YET_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Not found · sitegen</title>
</head>
<body>
<h1>Not found</h1>
<p>No page of the site is at this address, and output/ has no 404 page: it is being written again, or the preview is
waiting for a build. This page reloads by itself when the site is rebuilt.</p>
</body>
</html>
"""


def acceptable_path(path: str) -> bool:
    """A request path the file system can be asked about: no NUL or other control
    character, no undecodable byte, not absurdly long (those answer 400, not 500)."""
    return len(path) <= MAX_PATH_LENGTH and "\ufffd" not in path and not any(ord(c) < 32 or ord(c) == 127 for c in path)


def is_page(url: str) -> bool:
    """Would this URL answer with HTML? (a folder, an .html file, or a name without suffix)"""
    name = url.rsplit("/", 1)[-1]
    return name == "" or name.endswith(".html") or "." not in name


def problems_page(problems: list[str]) -> str:
    items = "\n".join(f"<li><code>{html.escape(line)}</code></li>" for line in problems)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Build failed · sitegen</title>
<style>
body {{ font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #fff8f6; color: #1f1f1f; }}
main {{ max-width: 60rem; margin: 3rem auto; padding: 0 1.5rem; }}
h1 {{ color: #a4161a; font-size: 1.5rem; }}
ul {{ padding: 0; list-style: none; }}
li {{ background: #fff; border-left: 4px solid #a4161a; padding: .6rem .9rem; margin: .5rem 0; overflow-x: auto; }}
code {{ font: 14px/1.4 ui-monospace, monospace; white-space: pre-wrap; }}
</style>
</head>
<body>
<main>
<h1>The site did not build</h1>
<p>The preview keeps the last good build but shows this page until the problems below are fixed. Save the file and this page reloads by itself.</p>
<ul class="problems">
{items}
</ul>
</main>
</body>
</html>
"""


# --- edges ----------------------------------------------------------------------------


def cannot_listen(host: str, port: int, error: OSError) -> str:
    if error.errno == errno.EADDRINUSE:
        return f"error: port {port} is already in use; try --port {port + 1}"
    return f"error: cannot serve on {host}:{port}: {error.strerror or error}"


def base_path_in_settings(site_dir: Path) -> str:
    """The URL path of `base_url` in content/site.yaml ('/repo/'), read and checked as a build reads it: where the
    preview serves the site when no build has said so yet (the first one failed). '/' when it cannot be read."""
    from sitegen.load import load_document
    from sitegen.validate import validate_config

    document, _ = load_document(list_inputs(site_dir), "content/site.yaml")
    config = validate_config(document, []) if document is not None else None
    return SiteUrls(config.base_url).base_path if config is not None else "/"


def site_address(host: str, port: int, base_path: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{base_path}"
