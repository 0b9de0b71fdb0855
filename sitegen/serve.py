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
import gc
import html
import logging
import os
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISDIR
from typing import Any, Iterable

from livereload import Server
from livereload.handlers import LiveReloadHandler
from livereload.watcher import Watcher
from tornado import web
from tornado.ioloop import IOLoop, PeriodicCallback

from sitegen.build import build_site, cycle_collector_paused
from sitegen.cache import BuildCache
from sitegen.commands import report_warnings
from sitegen.errors import ContentError, ExitStatus, Problem, SitegenError
from sitegen.inputs import WATCHED_FOLDERS, InputChanges, Stats, input_files
from sitegen.urls import is_loopback_host

POLL_MILLISECONDS = 250


def run(args: Any) -> int:
    """Entry point of `sitegen serve` (args.site, args.host, args.port)."""
    try:
        return serve(Preview(Path(args.site)), args.host, args.port)
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return ExitStatus.OK


def serve(preview: Preview, host: str, port: int) -> int:
    """Listen first (so a busy port fails fast), then build, then serve until Ctrl-C."""
    asyncio.set_event_loop(asyncio.new_event_loop())  # tornado needs a current loop on Python 3.12+
    logging.getLogger("tornado.access").setLevel(logging.ERROR)  # no line per 404 (favicon, ...)
    server = PreviewServer(preview)
    try:
        server.listen(host, port)
    except OSError as error:
        print(cannot_listen(host, port, error), file=sys.stderr)
        return ExitStatus.CONTENT
    server.watcher.build_first()
    if preview.problems and not (preview.site_dir / "content").is_dir():
        raise ContentError([Problem(line) for line in preview.problems])  # not a site at all
    print(f"Serving {preview.site_dir.resolve()} on {site_address(host, port, preview.base_path)} (Ctrl-C to stop)", file=sys.stderr)
    if not is_loopback_host(host):
        print(f"note: listening on {host}, so other machines can see this preview", file=sys.stderr)
    loop = IOLoop.current()
    try:
        server.start()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        loop.close(all_fds=True)
        preview.cache.save()  # the next `sitegen build` starts where the preview stopped
    return ExitStatus.OK


# --- what is being served -------------------------------------------------------------


@dataclass
class Preview:
    """The state the server shows: the last build's inputs, base path and problems."""

    site_dir: Path
    inputs: Stats = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # lines as the CLI prints them; empty when the site built
    base_path: str = "/"
    cache: BuildCache | None = None  # kept in memory between rebuilds, saved on exit
    output_checked: bool = False  # output/ was found as the last build left it, after that build (see check_output)

    def __post_init__(self) -> None:
        if self.cache is None:
            self.cache = BuildCache(self.site_dir, long_lived=True)

    @property
    def output_dir(self) -> Path:
        return self.site_dir / "output"

    @cycle_collector_paused  # until `freeze_what_is_kept`: a collection on the way walks all the build made
    def rebuild(self, inputs: Stats, because: str | None = None, changes: InputChanges | None = None) -> list[str]:
        """Build as `sitegen build` does; on failure keep the last good site and remember why.

        `changes`, if known, says which inputs may differ from the previous build's.
        Returns the input paths that changed since the previous build.
        """
        changed = changed_paths(self.inputs, inputs, changes.paths if changes and changes.since is self.inputs else None)
        if because is None:
            because = f" after a change to {describe(changed)}" if self.inputs else ""
        self.inputs = inputs
        try:
            result = build_site(self.site_dir, self.output_dir, cache=self.cache, files=inputs, output_checked=self.output_checked, changes=changes)
        except SitegenError as error:
            self._failed([str(problem) for problem in error.problems])
        except Exception as error:  # a bug in a build step must not stop the preview
            traceback.print_exc()
            self._failed([f"internal error: {type(error).__name__}: {error}"])
        else:
            self.problems = []
            self.output_checked = result.up_to_date  # nothing to build: build_site found output/ as the last build left it
            self.base_path = result.base_path
            report_warnings(result.warnings)
            if not result.up_to_date or changed:
                print(f"built {result.pages} pages in {result.seconds:.2f} s{because}", file=sys.stderr)
        freeze_what_is_kept()
        return changed

    def check_output(self) -> bool:
        """Is output/ still exactly what the last build wrote? Asked once after each build,
        while the server waits for changes, so that the rebuild after an edit need not
        look (20,000 lstat calls at 10,000 records, a sixth of that rebuild).

        The check is `build_site`'s own, with unchanged inputs: output this check
        finds changed by hand (a page edited or deleted) is built again at once.
        Returns True then, and browsers should reload.
        """
        if self.output_checked or self.problems or not self.inputs:
            return False
        self.rebuild(self.inputs, " because output/ was changed by hand", InputChanges(self.inputs, frozenset()))
        return not self.output_checked

    def _failed(self, problems: list[str]) -> None:
        self.problems = problems or ["the build failed without naming a problem"]
        print("build failed; the preview shows these problems until they are fixed:", file=sys.stderr)
        for line in self.problems:
            print(line, file=sys.stderr)


def freeze_what_is_kept() -> None:
    """Leave what the server keeps between rebuilds out of Python's cycle collector.

    That is mostly the build cache: 1.5 million objects at 100,000 records, which each full
    collection walked, a pause of 1.6 s every few edits (0.18 s at 10,000 records). A collection
    first frees the garbage there is (a build's template environment is a reference cycle), so
    none is frozen; after the first time it only walks what was made since the last rebuild.
    That is still 40 ms at 100,000 records (the build's large lists and dicts): the collector is
    kept off from the build until here, so that this is the only collection of a rebuild.
    """
    gc.collect()
    gc.freeze()


def describe(paths: list[str], shown: int = 3) -> str:
    more = f" and {len(paths) - shown} more" if len(paths) > shown else ""
    return ", ".join(paths[:shown]) + more


# --- noticing changes -----------------------------------------------------------------


def changed_paths(before: Stats, after: Stats, among: Iterable[str] | None = None) -> list[str]:
    """Added, removed, or with another size or mtime; only paths `among` are looked at, if given."""
    if among is not None:
        return sorted(path for path in among if before.get(path) != after.get(path))
    return sorted([path for path, stat in after.items() if before.get(path) != stat] + [path for path in before if path not in after])


class InputEvents:
    """The input files as they are now, found out cheaply.

    Listing them means one stat call per file (a tenth of a second at 10,000
    records): done at every poll, an idle server would keep a third of a core
    busy. On Linux the kernel tells instead (inotify, read without blocking:
    no thread, which would stop builds from forking their workers): the files
    its events name are looked at one by one, and all of them are listed only
    when a folder comes or goes, when events were lost, and at a quiet poll
    every SAFETY_SECONDS for file systems that send none (network and some
    container mounts). Elsewhere, every poll lists them, as livereload's own watcher does.

    It also counts which inputs changed, so that a build need not compare every
    file with the last build's (`take_changes`).
    """

    SAFETY_SECONDS = 2.0

    def __init__(self, site_dir: Path):
        self.site_dir = site_dir
        self.listed_at = float("-inf")
        self.quiet = False  # the last poll found no change
        self.newest: Stats | None = None  # the inputs as last given
        self.since: Stats | None = None  # inputs given earlier, from which only the `touched` ones can differ in `newest`
        self.touched: set[str] = set()
        self.folders: dict[int, tuple[str, str | None]] = {}  # watch number -> (folder, prefix of its files' input paths)
        try:
            from inotify_simple import INotify, flags

            self.inotify: Any = INotify(nonblocking=True)
        except (ImportError, OSError, AttributeError):  # not Linux, or no inotify left
            self.inotify = None
            return
        self.mask = flags.MODIFY | flags.ATTRIB | flags.CLOSE_WRITE | flags.MOVED_FROM | flags.MOVED_TO | flags.CREATE | flags.DELETE | flags.DELETE_SELF | flags.MOVE_SELF
        # a folder made, removed or moved, a watched folder gone, events lost: list everything
        self.list_again = flags.ISDIR | flags.DELETE_SELF | flags.MOVE_SELF | flags.IGNORED | flags.Q_OVERFLOW

    def inputs(self, previous: Stats | None) -> Stats:
        """The inputs now, from `previous` (what this gave last): `previous` itself when none changed."""
        now, touched = self._look(previous)
        if previous is None or previous is not self.newest:
            self.since = None  # changes from before `previous` are unknown
        elif touched is None:  # everything was listed: compared with the last inputs (in C, unless one changed)
            touched = [] if now == previous else changed_paths(previous, now)
            if not touched:
                now = previous  # the same inputs: the same object, which callers compare by identity
        self.touched.update(touched or ())
        self.newest = now
        return now

    def take_changes(self, since: Stats) -> InputChanges | None:
        """Which inputs may differ from `since` (inputs this gave) to the newest, which the
        caller builds now; None if unknown. From now on, changes are counted from the newest."""
        changes = InputChanges(since, frozenset(self.touched)) if since is self.since else None
        self.since, self.touched = self.newest, set()
        return changes

    def _look(self, previous: Stats | None) -> tuple[Stats, Iterable[str] | None]:
        """The inputs now, and the paths looked at for them (None: every input was listed)."""
        if previous is None or self.inotify is None:
            return self.list_inputs(), None
        touched = self._touched_files()
        was_quiet, self.quiet = self.quiet, not touched
        if touched is None:
            return self.list_inputs(), None
        if not touched:
            # the safety listing is made at the second quiet poll in a row, never at one that brings a change or
            # its build (the first quiet one): after a rebuild longer than SAFETY_SECONDS (100,000 records) the
            # next edit would wait for it (half a second at that size)
            if was_quiet and time.monotonic() - self.listed_at >= self.SAFETY_SECONDS:
                return self.list_inputs(), None
            return previous, ()
        inputs = dict(previous)
        for path, file in touched.items():
            try:
                stat = os.lstat(file)
            except FileNotFoundError:
                inputs.pop(path, None)
                continue
            except OSError:
                return self.list_inputs(), None
            if S_ISDIR(stat.st_mode):
                return self.list_inputs(), None
            inputs[path] = (stat.st_size, stat.st_mtime_ns)
        return inputs, touched.keys()

    def _touched_files(self) -> dict[str, str] | None:
        """Input path -> file of each input the events name; None when everything must be listed."""
        touched = {}
        for event in self.inotify.read(timeout=0):
            folder, prefix = self.folders.get(event.wd, (None, None))
            if folder is None or (prefix is not None and event.mask & self.list_again):
                return None
            if prefix is None:  # the site folder: only content/, templates/, ... made or removed matter
                if event.name in WATCHED_FOLDERS:
                    return None
            elif not event.name.startswith("."):  # as input_files: an editor's `.#x.yaml` is no input
                touched[prefix + event.name] = os.path.join(folder, event.name)
        return touched

    def list_inputs(self) -> Stats:
        """The inputs as they are now, and every folder they are in watched.

        A folder seen for the first time is watched only after it was listed, so
        the inputs are listed once more: a file saved in between is not missed.
        """
        self.listed_at = time.monotonic()
        if self.inotify is not None:
            self.inotify.read(timeout=0)  # events from before this listing: it sees what they say
        folders: list[tuple[str, str | None]] = []
        inputs = input_files(self.site_dir, folders)
        if self._watch([(os.fspath(self.site_dir), None), *folders]):  # the site folder itself: templates/ or static/ made later
            inputs = input_files(self.site_dir)
        return inputs

    def close(self) -> None:
        if self.inotify is not None:
            self.inotify.close()
            self.inotify = None

    def _watch(self, folders: list[tuple[str, str | None]]) -> bool:
        """Watch the folders; True when one was not watched before."""
        if self.inotify is None:
            return False
        new = False
        for folder, prefix in folders:
            try:
                watch = self.inotify.add_watch(folder, self.mask)  # a folder already watched keeps its number
            except (FileNotFoundError, NotADirectoryError):  # removed since: its parent's watch saw that
                continue
            except OSError:  # out of watches (fs.inotify.max_user_watches): list the inputs at every poll
                self.close()
                return False
            new = new or watch not in self.folders
            self.folders[watch] = (folder, prefix)
        return new


class RebuildingWatcher(Watcher):
    """livereload's watcher, deciding by the input fingerprint instead of its own scan.

    A change is built once the inputs held still for one poll, so a burst of saves
    (or a `git checkout`) gives one build; browsers are told to reload right after.
    """

    def __init__(self, preview: Preview):
        super().__init__()
        self.preview = preview
        self.pending: Stats | None = None
        self.events = InputEvents(preview.site_dir)
        self.listed: Stats | None = None  # the inputs as the last poll found them

    def start(self, callback) -> bool:
        PeriodicCallback(callback, POLL_MILLISECONDS).start()
        return True  # livereload: "I poll myself"

    def build_first(self) -> None:
        """The first build, of the inputs as the first poll finds them: changes are counted from there."""
        self.listed = self.events.inputs(None)
        self.preview.rebuild(self.listed, changes=self.events.take_changes(self.preview.inputs))

    def examine(self) -> tuple[None, None]:
        current = self.listed = self.events.inputs(self.listed)
        if current is self.preview.inputs or current == self.preview.inputs:  # `is`: no walk over 100,000 files
            self.pending = None
            if self.preview.check_output():
                LiveReloadHandler.reload_waiters("*")
        elif current is not self.pending and current != self.pending:
            self.pending = current  # still changing: wait for one quiet poll
        else:
            self.pending = None
            was_ok = not self.preview.problems
            changed = self.preview.rebuild(current, changes=self.events.take_changes(self.preview.inputs))
            LiveReloadHandler.reload_waiters(reload_target(changed, was_ok and not self.preview.problems))
        return None, None  # livereload's own reload logic has nothing left to do


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
        url = "/" + path
        base = self.preview.base_path
        if self.preview.problems and is_page(url):
            self.send_problems()
        elif base != "/" and url in ("/", base.rstrip("/")):
            self.redirect(base)
        elif not url.startswith(base):
            raise web.HTTPError(404)
        else:
            await super().get(url[len(base):], include_body)

    def send_problems(self) -> None:
        self.set_status(500)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(problems_page(self.preview.problems))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        not_found = self.preview.output_dir / "404.html"
        if status_code == 404 and not_found.is_file():
            self.finish(not_found.read_bytes())  # HTML, so livereload injects its script here too
        else:
            super().write_error(status_code, **kwargs)


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


def site_address(host: str, port: int, base_path: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{base_path}"
