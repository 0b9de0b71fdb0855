"""Stage 5: put the rendered files on disk, each as it is rendered.

A first build (or one whose previous output is not as the last build left it)
writes the new site into a sibling folder and swaps it in with renames, so
`output/` is always either the previous build or the new one, never a mix; on
Linux, forked workers render and write a large new folder's files between them
(rendering is most of a first build's work). A
later build writes the files made from changed inputs beside their targets and
renames them over them only once every page has rendered, then removes the
files the new build no longer makes. Either way the result equals a clean build
byte for byte, and a page that fails to render leaves output/ as it was. Where no folder
can be made beside output/ (a container's read-only site folder) or output/
cannot be renamed (a volume mounted there), a first build is written in place,
as a later build is, and removes what the new site no longer has.
"""

from __future__ import annotations

import ctypes
import errno
import multiprocessing
import os
import re
import shutil
import signal
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path, PurePosixPath

from sitegen import interrupts
from sitegen.errors import ContentError, Problem
from sitegen.model import FileBytes
from sitegen.output_folder import OutputInTheWay, reason, shown

# output file -> (size, mtime_ns) as the last build wrote it
Manifest = dict[str, tuple[int, int]]
# an output file's path, and how to make its bytes (rendered when called)
Maker = tuple[str, Callable[[], FileBytes]]

FILES_WORTH_WORKERS = 2000  # a new folder of fewer files is made by this process alone
SPAN = 64  # files a worker makes per task: neighbours in path order, few enough to share the work evenly


class UnsafeOutputPath(ValueError):
    pass


def write_output(
    files: Sequence[Maker], output_dir: Path, kept: set[str], previous: Manifest | None, workers: int = 1, built_here: bool = False, together: int = 0
) -> Manifest:
    """Make and write `files`; `kept` names files of the `previous` build (intact on disk) to leave as they are.

    With no `previous` build to build on, the whole site goes to a new folder
    swapped in at the end, made by up to `workers` forked processes when it is
    large: each renders and writes its share, and only the manifest comes back;
    the first `together` files are one share, made by one process in their order
    (they are made of the same pieces: see `render.making_order`).
    `built_here`: the last build's state names output_dir as its output, so it
    is replaced even when a page of it was deleted by hand (see `replaceable`).
    """
    given, output_dir = Path(output_dir), Path(output_dir).absolute()
    try:
        if previous is None or not output_dir.is_dir():
            if kept:
                raise ValueError("kept files need the previous build's manifest")
            if output_dir.is_dir() and os.path.ismount(output_dir):  # a container's volume: it cannot be renamed
                return _fill_in_place(files, output_dir, built_here)
            return _new_folder(files, output_dir, workers, built_here, together)
        return _write_changes(files, output_dir, kept, previous)
    except OSError as error:  # a folder without write permission, an immutable file, a full disk
        raise cannot_write(given, error) from None


_TEMPORARY = re.compile(r"\.(.+)\.\d+\.tmp")  # `_write_changes`' name for a file's new version


def cannot_write(output_dir: Path, error: OSError) -> ContentError:
    """`error: cannot write output/ (records/x/index.html): permission denied`: one line, no errno tuple."""
    root = Path(output_dir).absolute()
    own = {root, root.parent / f".{root.name}.new-{os.getpid()}", root.parent / f".{root.name}.old-{os.getpid()}"}
    where = ""
    if error.filename is not None:
        failed = Path(os.fsdecode(error.filename)).absolute()
        inside = next((folder for folder in own if failed.is_relative_to(folder)), None)
        if inside is None:
            where = f" ({failed})"
        elif failed != inside:
            temporary = _TEMPORARY.fullmatch(failed.name)  # the new file beside its target: name the target
            where = f" ({failed.relative_to(inside).with_name(temporary[1] if temporary else failed.name).as_posix()})"
    return ContentError(Problem(f"error: cannot write {shown(output_dir)}{where}: {reason(error)}"))


def intact(output_dir: Path, manifest: Manifest, folders: dict[str, int], only: Iterable[str] | None = None) -> bool:
    """Does the output folder hold exactly the files the last build wrote, as it wrote them?

    Each file is checked by (size, mtime) and each folder by its mtime, taken
    once the build was done (`folder_stamps`): adding, removing or renaming
    anything in a folder changes its mtime, so a stray file is noticed without
    listing ten thousand folders. `only`: just these output paths and the
    folders above them (what a build in place is about to write: the rest keeps
    its stamps, so a change there is still found by the next whole look).
    """
    if not manifest or not folders:
        return False
    if only is not None:
        wanted = set(only)
        above = {parent for name in wanted for parent in _parents(name)}
        manifest = {name: manifest[name] for name in wanted if name in manifest}
        folders = {name: folders[name] for name in above if name in folders}
    root = os.fspath(Path(output_dir).absolute())
    try:
        for name, (size, mtime_ns) in manifest.items():
            found = os.lstat(f"{root}/{name}")
            if found.st_size != size or found.st_mtime_ns != mtime_ns or not stat.S_ISREG(found.st_mode):
                return False
        for name, mtime_ns in folders.items():
            found = os.lstat(f"{root}/{name}" if name else root)
            if found.st_mtime_ns != mtime_ns or not stat.S_ISDIR(found.st_mode):
                return False
    except OSError:
        return False
    return True


def folder_stamps(output_dir: Path, manifest: Manifest, previous: dict[str, int] | None = None, changed: Iterable[str] = ()) -> dict[str, int]:
    """The mtime of the output folder and of every folder in it that holds what the build wrote ('' is the output folder).

    A build in place passes the `previous` stamps (of the output as it found it,
    intact) and the files it wrote or removed (`changed`): only the folders above
    those can have changed, by this build, so only they are looked at again. Any
    other folder keeps its stamp, so one changed by hand meanwhile is still found.
    """
    root = os.fspath(Path(output_dir).absolute())
    if previous is None:
        folders = {""}
        for name in manifest:
            parent = name.rpartition("/")[0]
            while parent not in folders:
                folders.add(parent)
                parent = parent.rpartition("/")[0]
        return {name: os.lstat(f"{root}/{name}" if name else root).st_mtime_ns for name in sorted(folders)}
    stamps = dict(previous)
    for folder in {parent for name in changed for parent in _parents(name)}:
        try:
            found = os.lstat(f"{root}/{folder}" if folder else root)
        except FileNotFoundError:  # left empty by a removed file, and removed
            stamps.pop(folder, None)
            continue
        stamps[folder] = found.st_mtime_ns
    return dict(sorted(stamps.items()))


def _parents(name: str) -> Iterable[str]:
    """The folders above an output path, up to the output folder ('')."""
    parent = name
    while parent:
        parent = parent.rpartition("/")[0]
        yield parent


def replaceable(folder: Path, built_here: bool = False) -> bool:
    """The swap deletes what was there: only nothing, or an earlier build, may be swapped away.

    An earlier build is the folder the last build's state names (`built_here`),
    or one that looks like a build (index.html and .nojekyll, no content/)."""
    if not folder.exists():
        return True
    if not folder.is_dir():
        return False
    names = {path.name for path in folder.iterdir()}
    return not names or (("content" not in names) and (built_here or {"index.html", ".nojekyll"} <= names))


def _new_folder(files: Sequence[Maker], output_dir: Path, workers: int, built_here: bool, together: int) -> Manifest:
    if not replaceable(output_dir, built_here):
        raise OutputInTheWay(output_dir)
    output_dir.parent.mkdir(parents=True, exist_ok=True)  # killed builds' leftovers went as the lock was taken
    staging = output_dir.parent / f".{output_dir.name}.new-{os.getpid()}"
    retired = output_dir.parent / f".{output_dir.name}.old-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        staging.mkdir()
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS) and output_dir.is_dir():  # only output/ may be written
            return _fill_in_place(files, output_dir, built_here)
        raise
    try:
        manifest = _create_all(files, staging, workers, together)
        _swap_in(staging, output_dir, retired)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(retired, ignore_errors=True)
    return manifest


def _fill_in_place(files: Sequence[Maker], output_dir: Path, built_here: bool) -> Manifest:
    """The whole site written into output/ where it is, when no folder can be made beside it to swap in (a
    container's read-only site folder, output/ a volume of its own): each file beside its target and renamed
    over it once every page is made (`_write_changes`), then whatever else was in it removed."""
    if not replaceable(output_dir, built_here):
        raise OutputInTheWay(output_dir)
    on_disk: Manifest = {}
    for folder, _, names in os.walk(output_dir):
        for name in names:
            on_disk[Path(folder, name).relative_to(output_dir).as_posix()] = (0, 0)
    manifest = _write_changes(files, output_dir, set(), on_disk)
    for folder, _, _ in os.walk(output_dir, topdown=False):  # folders left empty by files no longer made
        if folder != os.fspath(output_dir) and not os.listdir(folder):
            os.rmdir(folder)
    return manifest


def _swap_in(staging: Path, output_dir: Path, retired: Path) -> None:
    """The new folder in the output folder's place; if that fails once the old one is moved aside, it is put back."""
    if output_dir.exists():
        os.replace(output_dir, retired)
    try:
        os.replace(staging, output_dir)
    except BaseException:
        if retired.exists() and not output_dir.exists():
            os.replace(retired, output_dir)
        elif retired.exists():  # another process put a folder there meanwhile: it is newer than the one moved aside
            shutil.rmtree(retired, ignore_errors=True)
        raise


def _create_all(files: Sequence[Maker], folder: Path, workers: int, together: int = 0) -> Manifest:
    """Make every file in `folder`; a large site is shared among this process and forked workers, each making spans of files.

    This process is one of the `workers`: it takes a span itself whenever the
    forked ones have enough queued, so the build uses every core without a
    process that only waits (and the process tree holds one copy of the site
    model fewer). The first `together` files are the first span, which a forked
    worker takes while this process starts on the rest.
    """
    if workers < 2 or len(files) < FILES_WORTH_WORKERS or not can_fork():
        return dict(_made_and_written(files, folder))
    global _work
    _work = (files, folder)
    spans = deque([(0, together)] if together else [])
    spans += ((start, min(start + SPAN, len(files))) for start in range(together, len(files), SPAN))
    forked = workers - 1
    pool = ProcessPoolExecutor(forked, mp_context=multiprocessing.get_context("fork"), initializer=_worker_started, initargs=(os.getpid(),))
    made: dict[str, tuple[int, int]] = {}
    queued: set[Future] = set()
    try:
        while spans or queued:
            while spans and len(queued) < 2 * forked:
                queued.add(pool.submit(_create_span, spans.popleft()))
            if spans:
                made.update(_create_span(spans.popleft()))
                finished = {future for future in queued if future.done()}
            else:
                finished = wait(queued, return_when=FIRST_COMPLETED).done
            for future in finished:
                made.update(future.result())
            queued -= finished
    except BrokenProcessPool as error:  # a worker killed (by the out-of-memory killer, say): the build stops, output/ as it was
        raise ContentError(Problem(f"a worker process making the site ended before its work was done ({error}); output/ is unchanged")) from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # a failed page or Ctrl-C: the spans not yet started are dropped
        _work = None
    return {name: made[name] for name, _ in files}


_work: tuple[Sequence[Maker], Path] | None = None  # what forked workers read (inherited, never sent)


def _create_span(span: tuple[int, int]) -> list[tuple[str, tuple[int, int]]]:
    assert _work is not None
    files, folder = _work
    return _made_and_written(files[span[0] : span[1]], folder)


def _made_and_written(files: Sequence[Maker], folder: Path) -> list[tuple[str, tuple[int, int]]]:
    """Each file made and written in `folder`, with its size and mtime: what a worker or this process does."""
    return [(name, _create(f"{folder}/{safe_relative_path(name)}", make())) for name, make in files]


def _worker_started(parent: int) -> None:
    """A forked worker: Ctrl-C and SIGTERM are the building process's to handle (it stops the workers and cleans
    up), and the worker ends with it, however that ends (SIGKILL included), instead of waiting forever for work."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the building process's handler (cli.py), which would raise here
    _die_with_parent()
    if os.getppid() != parent:  # it ended before the worker could ask to end with it
        os._exit(1)


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _die_with_parent() -> None:
    """The kernel kills this process when its parent ends (prctl PR_SET_PDEATHSIG): workers are forked only on
    Linux (`can_fork`), where prctl is."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def worker_count() -> int:
    """The cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def can_fork() -> bool:
    """A forked worker starts with the site already loaded; that is safe on Linux (macOS and Windows start processes afresh)."""
    return sys.platform.startswith("linux")


def _write_changes(files: Iterable[Maker], output_dir: Path, kept: set[str], previous: Manifest) -> Manifest:
    manifest: Manifest = {name: previous[name] for name in kept}
    written: list[tuple[Path, Path]] = []  # (the new file beside its target, the target)
    try:
        for name, make in files:
            target = output_dir / safe_relative_path(name)
            temporary = target.parent / f".{target.name}.{os.getpid()}.tmp"
            written.append((temporary, target))
            manifest[name] = _create(temporary, make())  # a file's bytes are let go once written, before the next is made
    except BaseException:
        for temporary, _ in written:
            _unlink_and_prune(temporary, output_dir)
        raise
    with interrupts.held():  # Ctrl-C now would leave some new pages beside old ones: it takes effect once all are in
        for temporary, target in written:
            os.replace(temporary, target)  # readers see the old file or the new one, never a mix; a rename keeps size and mtime
        for name in sorted(previous.keys() - manifest.keys(), reverse=True):
            _remove(output_dir, name)
    return manifest


_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


def _create(path: str | Path, data: FileBytes) -> tuple[int, int]:
    """Write a file (and its folder, the first time one is missing); its size and mtime as written.

    Four system calls for a file whose folder exists: a site writes tens of thousands.
    """
    try:
        handle = os.open(path, _NEW_FILE, 0o666)
    except FileNotFoundError:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(path, _NEW_FILE, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(handle, view) :]
        stat = os.fstat(handle)
    finally:
        os.close(handle)
    return stat.st_size, stat.st_mtime_ns


def _remove(output_dir: Path, name: str) -> None:
    """Remove a file the new build no longer makes, and the folders it leaves empty."""
    _unlink_and_prune(output_dir / safe_relative_path(name), output_dir)


def _unlink_and_prune(target: Path, output_dir: Path) -> None:
    target.unlink(missing_ok=True)
    folder = target.parent
    while folder != output_dir:
        try:
            folder.rmdir()
        except OSError:  # not empty
            break
        folder = folder.parent


def safe_relative_path(name: str) -> PurePosixPath:
    """Refuse output paths that would land outside the output folder."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise UnsafeOutputPath(f"refusing to write outside the output folder: {name!r}")
    return path
