"""Stage 5: put the rendered files on disk.

A first build (or one whose previous output was changed by hand) writes the
new site into a sibling folder and swaps it in with renames, so `output/` is
always either the previous build or the new one, never a mix. A later build
rewrites only the files whose bytes changed, each one atomically, and removes
the files the new build no longer makes. Either way the result equals a clean
build byte for byte; a build that fails never gets here.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path, PurePosixPath
from typing import Iterable

try:
    import fcntl
except ImportError:  # not POSIX: no spares (see Spares)
    fcntl = None  # type: ignore[assignment]

from sitegen.errors import ContentError, Problem
from sitegen.model import Pieces

# path -> (size, mtime_ns, content hash) of each file the last build wrote
Manifest = dict[str, tuple[int, int, str]]
PIECES_PER_WRITE = 512  # a file made of Pieces is written this many at a time without `writev` (records.json: about a megabyte)
IOV_MAX = os.sysconf("SC_IOV_MAX") if hasattr(os, "sysconf") and "SC_IOV_MAX" in os.sysconf_names else 16  # pieces a `writev` takes


class UnsafeOutputPath(ValueError):
    pass


def write_output(
    files: dict[str, bytes | Pieces],
    output_dir: Path,
    kept: set[str] | frozenset = frozenset(),
    previous: Manifest | None = None,
    remade: set[str] | frozenset = frozenset(),
    spare_dir: Path | None = None,
) -> Manifest:
    """Write `files`; `kept` names files of the `previous` build to leave as they are.

    Any other file is rewritten only when its bytes changed, except those in `remade`,
    which the caller knows to be made anew: they are written without comparing, over
    a spare copy kept in `spare_dir` if given (see `Spares`).
    """
    output_dir = Path(output_dir).absolute()
    if needs_new_folder(output_dir, previous):
        if kept:
            raise ValueError("kept files need the previous build's manifest")
        new_output = NewOutput(output_dir)
        try:
            return new_output.finish(files, remade=remade)
        except BaseException:
            new_output.discard()
            raise
    if spare_dir is None or not remade:
        return _write_changes(files, output_dir, kept, previous, remade, None)
    with Spares(spare_dir, output_dir) as spares:  # None when they cannot be used
        return _write_changes(files, output_dir, kept, previous, remade, spares)


def needs_new_folder(output_dir: Path, previous: Manifest | None) -> bool:
    return previous is None or not Path(output_dir).is_dir()


def folder_times(
    output_dir: Path, manifest: Manifest, previous: Manifest | None = None, known: dict[str, int] | None = None, written: Iterable[str] | None = None
) -> dict[str, int]:
    """mtime_ns of every folder that holds the manifest's files ('' is the output folder itself).

    A file created, removed or renamed in a folder changes the folder's mtime:
    with these, `intact` notices a stray file without listing any folder. Given
    the `previous` build's manifest and the folder times `known` then, only the
    folders where files were written or removed are looked at again; `written`,
    if given, names the files handed to `write_output` (the others were kept).
    """
    if previous is None or known is None:
        names, times = list(manifest), {}
    else:
        candidates = manifest if written is None else written
        names = [name for name in candidates if manifest.get(name) is not previous.get(name)]  # kept rows are the same objects
        names += [] if _same_names(previous, len(manifest), candidates) else previous.keys() - manifest.keys()
        times = dict(known)
    folders = {name.rpartition("/")[0] for name in names}
    for folder in list(folders):
        while folder:
            folder = folder.rpartition("/")[0]
            if folder in folders:
                break
            folders.add(folder)
    root = os.fspath(Path(output_dir).absolute())
    for folder in folders | {""}:
        try:
            times[folder] = os.lstat(f"{root}/{folder}" if folder else root).st_mtime_ns
        except FileNotFoundError:  # its last file was removed, and so was the folder
            times.pop(folder, None)
    return times


def intact(output_dir: Path, manifest: Manifest, folders: dict[str, int]) -> bool:
    """True when the output folder holds exactly what the last build wrote, untouched.

    One lstat per file and per folder: listing 10,000 folders takes five times as long.
    """
    if not manifest or not folders:
        return False
    root = os.fspath(Path(output_dir).absolute())
    try:
        for folder, mtime in folders.items():
            if os.lstat(f"{root}/{folder}" if folder else root).st_mtime_ns != mtime:
                return False
        for name, (size, mtime, _) in manifest.items():
            stat = os.lstat(f"{root}/{name}")
            if stat.st_size != size or stat.st_mtime_ns != mtime:
                return False
    except OSError:  # gone, or no longer a folder
        return False
    return True


class NewOutput:
    """A whole new output folder, filled beside the old one and swapped in by `finish`.

    `write` may be called from forked worker processes while the build goes on:
    it only creates files in the staging folder, which nobody sees until the swap.
    """

    def __init__(self, output_dir: Path):
        self.output_dir = Path(output_dir).absolute()
        if not replaceable(self.output_dir):
            raise ContentError(Problem(
                f"refusing to replace {self.output_dir}: it holds files sitegen did not write "
                "(a built site has index.html and .nojekyll); empty it or choose another --output"
            ))
        self.output_dir.parent.mkdir(parents=True, exist_ok=True)
        _remove_leftovers(self.output_dir)
        self.staging = self.output_dir.parent / f".{self.output_dir.name}.new-{os.getpid()}"
        shutil.rmtree(self.staging, ignore_errors=True)
        self.staging.mkdir()

    def write(self, name: str, data: bytes) -> tuple[int, int, str]:
        """Put one file in the staging folder; returns its manifest row.

        Paths as text: made and taken apart as Path objects, they cost 20 us a page (10,000 pages a build).
        """
        target = f"{self.staging}/{safe_relative_path(name)}"
        folder = target.rpartition("/")[0]
        try:  # most pages (records/<slug>/index.html) are the first file of a new folder
            os.mkdir(folder)
        except FileExistsError:
            pass
        except FileNotFoundError:
            os.makedirs(folder, exist_ok=True)
        return _create(target, data)

    def finish(self, files: dict[str, bytes | Pieces], written: Manifest | None = None, remade: set[str] | frozenset = frozenset()) -> Manifest:
        """Write the rest and swap the new folder in; `written` are the rows `write` returned.

        The files in `remade` are not hashed: a later build writes them again whenever they change.
        """
        manifest = {**(written or {}), **_write_tree(files, self.staging, remade)}
        retired = self.output_dir.parent / f".{self.output_dir.name}.old-{os.getpid()}"
        if self.output_dir.exists():
            os.replace(self.output_dir, retired)
        os.replace(self.staging, self.output_dir)
        shutil.rmtree(retired, ignore_errors=True)
        return manifest

    def discard(self) -> None:
        shutil.rmtree(self.staging, ignore_errors=True)


def _remove_leftovers(output_dir: Path) -> None:
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


def replaceable(folder: Path) -> bool:
    """The swap deletes what was there: only nothing, or an earlier build, may be swapped away."""
    if not folder.exists():
        return True
    if not folder.is_dir():
        return False
    names = {path.name for path in folder.iterdir()}
    return not names or ({"index.html", ".nojekyll"} <= names and "content" not in names)


def _write_tree(files: dict[str, bytes | Pieces], root: Path, remade: set[str] | frozenset) -> Manifest:
    made: set[Path] = set()
    manifest: Manifest = {}
    for name, data in files.items():
        target = root / safe_relative_path(name)
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        manifest[name] = _create(target, data, "" if name in remade else None)
    return manifest


def _create(path: Path | str, data: bytes | Pieces, digest: str | None = None, overwrite: bool = False) -> tuple[int, int, str]:
    """Write a file and return its manifest row: four system calls (Path.write_bytes and stat take seven).

    `overwrite`: an existing file (not a symbolic link) is written over and then cut to size, not emptied first (see `Spares`).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | (getattr(os, "O_NOFOLLOW", 0) if overwrite else os.O_TRUNC)
    descriptor = os.open(path, flags, 0o644)
    try:
        _write_all(descriptor, data)
        if overwrite:
            os.ftruncate(descriptor, len(data))
        stat = os.fstat(descriptor)
    finally:
        os.close(descriptor)
    return stat.st_size, stat.st_mtime_ns, _hash(data) if digest is None else digest


def _write_changes(
    files: dict[str, bytes], output_dir: Path, kept: set[str] | frozenset, previous: Manifest, remade: set[str] | frozenset, spares: Spares | None
) -> Manifest:
    gone = set() if _same_names(previous, len(kept) + len(files), files) else previous.keys() - kept - files.keys()
    manifest: Manifest = dict(previous)  # the kept files' rows; the others are replaced or dropped below
    for name in gone:
        del manifest[name]
    for name, data in files.items():
        old = previous.get(name)
        # a file whose size changed has changed: it is not hashed (records.json, 230 MB at 100,000 records);
        # with no hash on record ("") a later build cannot tell it unchanged, and writes it again
        digest = "" if name in remade else _hash(data) if old is None or old[0] == len(data) else ""
        if old is not None and digest and old[2] == digest:
            manifest[name] = old
            continue
        target = output_dir / safe_relative_path(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        if spares is not None and name in remade:
            manifest[name] = spares.replace(target, name, data)
        else:
            manifest[name] = _replace(target, data, digest)
    for name in sorted(gone, reverse=True):
        _remove(output_dir, name)
    return manifest


def _replace(target: Path, data: bytes, digest: str | None) -> tuple[int, int, str]:
    """Write `data` beside `target` and rename it over it: readers see the old file or the new one, never a mix."""
    temporary = target.parent / f".{target.name}.{os.getpid()}.tmp"
    row = _create(temporary, data, digest)  # a rename keeps size and mtime
    os.replace(temporary, target)
    return row


class Spares:
    """The last version but one of large files rewritten at every edit (records.json: 230 MB at
    100,000 records), kept in the build cache for the next version to be written over.

    A file written anew takes memory pages the kernel has not used lately; on a virtual machine
    each of them first costs a trip to the host: writing 230 MB took a second here, against a
    tenth over the pages of a file that has them. The new version is written over the spare,
    which then replaces the file in one rename, as a temporary file would (readers see the old
    file or the new one, never a mix); the old file, kept by a second link, is the next spare.
    Spares are used only where the cache and the output are on one file system, and by one
    build at a time (a dev server and a `sitegen build` of the same site): a second one writes
    its files anew, as without spares.
    """

    def __init__(self, folder: Path, output_dir: Path):
        self.folder: Path | None = None
        self._lock: int | None = None
        folder.mkdir(parents=True, exist_ok=True)
        if fcntl is None or os.stat(folder).st_dev != os.stat(output_dir).st_dev:
            return
        self._lock = os.open(folder / "lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released when closed, or when the process ends
        except OSError:  # another build holds them
            return
        self.folder = folder

    def __enter__(self) -> "Spares | None":
        return self if self.folder is not None else None

    def __exit__(self, *exc_info) -> None:
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def replace(self, target: Path, name: str, data: bytes) -> tuple[int, int, str]:
        """Write `data` as `target` (output path `name`); returns its manifest row (no hash: see _write_changes)."""
        spare = self.folder / _hash(name.encode("utf-8"))
        retired = spare.with_suffix(".old")
        retired.unlink(missing_ok=True)
        if spare.is_file() and spare.lstat().st_nlink > 1:  # never written over while another name shows it
            spare.unlink()
        try:
            row = _create(spare, data, "", overwrite=True)
        except OSError:  # a folder or a link put there by hand, say: not written through
            return _replace(target, data, "")
        try:
            os.link(target, retired)  # the file now shown, kept as the next spare
        except OSError:  # no such file yet, or a file system without hard links
            retired = None
        os.replace(spare, target)
        if retired is not None:
            os.replace(retired, spare)
        return row


def _same_names(previous: Manifest, count: int, written: Iterable[str]) -> bool:
    """Are the new build's `count` files, of which only those `written` can be new, the previous build's files?

    Settled without a walk over every file (100,000 pages) when no page came or went, as after most edits.
    """
    return count == len(previous) and all(name in previous for name in written)


def _remove(output_dir: Path, name: str) -> None:
    """Delete a file the new build does not make, and folders it leaves empty."""
    target = output_dir / safe_relative_path(name)
    target.unlink(missing_ok=True)
    folder = target.parent
    while folder != output_dir and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def _write_all(descriptor: int, data: bytes | Pieces) -> None:
    """Pieces go to the kernel as they are, up to a thousand a call (`writev`), never joined into a
    copy first: a list page is two thousand pieces, a megabyte of fresh memory to fill if joined."""
    if isinstance(data, Pieces) and hasattr(os, "writev"):
        parts = data.parts
        for start in range(0, len(parts), IOV_MAX):
            group = parts[start : start + IOV_MAX]
            written = os.writev(descriptor, group)
            if written < sum(map(len, group)):  # a short write (a signal): the rest as one buffer
                _write_fully(descriptor, b"".join(group)[written:])
        return
    for chunk in _chunks(data):
        _write_fully(descriptor, chunk)


def _write_fully(descriptor: int, chunk: bytes) -> None:
    written = 0
    while written < len(chunk):
        written += os.write(descriptor, chunk[written:] if written else chunk)


def _chunks(data: bytes | Pieces) -> Iterable[bytes]:
    """`data` in a few large pieces: a system call for each of 200,000 small ones would take longer."""
    if not isinstance(data, Pieces):
        return (data,)
    parts = data.parts
    return (b"".join(parts[start : start + PIECES_PER_WRITE]) for start in range(0, len(parts), PIECES_PER_WRITE))


def _hash(data: bytes | Pieces) -> str:
    sha = hashlib.sha256()  # SHA-256 has CPU instructions: 2.5x blake2b here
    for part in data.parts if isinstance(data, Pieces) else (data,):
        sha.update(part)
    return sha.hexdigest()[:32]


def safe_relative_path(name: str) -> PurePosixPath:
    """Refuse output paths that would land outside the output folder."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise UnsafeOutputPath(f"refusing to write outside the output folder: {name!r}")
    return path
