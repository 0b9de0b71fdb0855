"""The output folder: one sitegen at a time writes it, and never over what sitegen did not write.

One sitegen at a time writes an output folder (and the build cache beside it).

A `sitegen build` and the dev server's rebuilds, or two of either, each replace
output/ and save `.sitegen-cache/state.json`; run at once, one would swap away
the folder the other is writing into. So a build holds an advisory lock
(`flock`) on `.output.lock` beside the output folder while it works. The kernel
lets go of it when the process ends, however it ends, so a killed build never
leaves a lock behind; the file itself, which holds the process id for the
message of the sitegen that waits, is removed when the lock is let go (a file
left by a killed build is taken over by the next build and removed then).

Where no file can be made beside the output folder (a container whose site folder is read-only and
only output/ writable, or mounted on its own), the build locks the output folder itself, and writes in place.

Where `fcntl` is missing (Windows), builds are not locked.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from sitegen.errors import ContentError, Problem, SitegenError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

WAIT_SECONDS = 5.0  # how long `sitegen build` waits for another sitegen to finish before it gives up
_RETRY_SECONDS = 0.05


class OutputBusy(SitegenError):
    """Another sitegen holds the lock of this output folder."""

    def __init__(self, output_dir: Path, pid: int | None):
        self.output_dir = output_dir
        self.pid = pid
        super().__init__(Problem(f"error: {holder(pid)} is writing {shown(output_dir)}; wait for it or stop it"))


def holder(pid: int | None) -> str:
    return f"another sitegen (pid {pid})" if pid else "another sitegen"


def shown(output_dir: Path) -> str:
    """An output folder as messages name it: `output/`."""
    return f"{os.fspath(output_dir).rstrip('/')}/"


def lock_path(output_dir: Path) -> Path:
    """`.output.lock` beside `output/` (inside it, the file would be swapped away with the folder)."""
    output_dir = Path(output_dir).absolute()
    return output_dir.parent / f".{output_dir.name}.lock"


@contextlib.contextmanager
def output_lock(output_dir: Path, wait: float | None = None, waiting: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the lock of `output_dir` for the block; raises `OutputBusy` when another sitegen still holds it after
    `wait` seconds (default `WAIT_SECONDS`). `waiting` is told, once, that this one waits (for the progress line)."""
    if fcntl is None:  # pragma: no cover - Windows
        yield
        return
    beside = lock_path(output_dir)
    path: Path | None = beside
    wait = WAIT_SECONDS if wait is None else wait
    try:
        handle = _acquire(beside, output_dir, wait, waiting)
    except _NoLockFileHere as error:
        if not Path(output_dir).is_dir():
            raise SitegenError(Problem(f"error: cannot write {shown(output_dir)} (its lock file {error.path.name} beside it): {reason(error.error)}")) from None
        path, handle = None, _acquire_folder(output_dir, wait, waiting)  # a container's read-only site folder, output/ writable
    try:
        remove_leftovers(Path(output_dir).absolute())
        yield
    finally:
        if path is None:
            os.close(handle)
        else:
            _release(path, handle)


class _NoLockFileHere(Exception):
    """The folder that holds output/ may not be written (read-only, not ours): no lock file can be made beside it."""

    def __init__(self, path: Path, error: OSError):
        self.path = path
        self.error = error


_NOT_OURS = (errno.EACCES, errno.EPERM, errno.EROFS)


def _acquire_folder(output_dir: Path, wait: float, waiting: Callable[[str], None] | None) -> int:
    """Lock output/ itself, where no lock file can be made beside it: a build there writes in place (write.py), so
    the folder is never swapped away under the lock. No file holds the holder's process id."""
    handle = os.open(output_dir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    deadline = time.monotonic() + wait
    told = False
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return handle
        except BlockingIOError:
            pass
        except BaseException:
            os.close(handle)
            raise
        try:
            told = _waited(deadline, told, waiting, output_dir, None)
        except BaseException:  # the wait is over (OutputBusy), or Ctrl-C during the pause
            os.close(handle)
            raise


def _acquire(path: Path, output_dir: Path, wait: float, waiting: Callable[[str], None] | None) -> int:
    deadline = time.monotonic() + wait
    told = False
    while True:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError as error:
            if error.errno in _NOT_OURS:
                raise _NoLockFileHere(path, error) from None
            raise SitegenError(Problem(f"error: cannot write {shown(output_dir)} (its lock file {path.name} beside it): {reason(error)}")) from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _pid_in(handle)
            os.close(handle)
            told = _waited(deadline, told, waiting, output_dir, pid)
            continue
        except BaseException:
            os.close(handle)
            raise
        if _same_file(handle, path):
            break
        os.close(handle)  # the holder before us removed the file as it let go: lock the one there now
    os.ftruncate(handle, 0)
    os.write(handle, f"{os.getpid()}\n".encode())
    return handle


def _waited(deadline: float, told: bool, waiting: Callable[[str], None] | None, output_dir: Path, pid: int | None) -> bool:
    """After a try at a lock another build holds: `OutputBusy` once the wait is over, else (the first time) the
    'waiting for' message, and a pause before the next try. Returns whether the message was given."""
    if time.monotonic() >= deadline:
        raise OutputBusy(output_dir, pid) from None
    if waiting is not None and not told:
        waiting(f"waiting for {holder(pid)}, which is writing {shown(output_dir)}")
    time.sleep(_RETRY_SECONDS)
    return told or waiting is not None


def remove_leftovers(output_dir: Path) -> None:
    """Staging and retired folders of builds that were killed (`.output.new-<pid>`): gone, unless that build still runs."""
    for folder in output_dir.parent.glob(f".{output_dir.name}.*-*"):
        kind, _, pid = folder.name.rpartition("-")
        if kind.endswith((".new", ".old")) and pid.isdigit() and not _running(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def _release(path: Path, handle: int) -> None:
    """Remove the file, then let go: whoever waits on it finds it gone and opens the next one."""
    with contextlib.suppress(OSError):
        os.unlink(path)
    os.close(handle)


def _same_file(handle: int, path: Path) -> bool:
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(handle)
    return (found.st_dev, found.st_ino) == (mine.st_dev, mine.st_ino)


def _pid_in(handle: int) -> int | None:
    try:
        text = os.pread(handle, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def reason(error: OSError) -> str:
    """'permission denied': an OSError's reason as a message ends with it."""
    text = error.strerror or str(error)
    return text[:1].lower() + text[1:]


class OutputInTheWay(ContentError):
    """The output folder's place holds what sitegen did not write: a file, or a folder of other files.

    The message says what to do with it; `sitegen build` adds that `--output` can name another place."""

    def __init__(self, output_dir: Path):
        self.output_dir = output_dir
        if output_dir.is_dir():
            what = "it holds files sitegen did not write (a built site has index.html and .nojekyll); move them away or empty it"
        else:
            what = "it is a file, not a folder sitegen wrote; move it away or delete it"
        super().__init__(Problem(f"refusing to replace {output_dir}: {what}"))
