"""Stage 5: put the rendered files on disk, each as it is rendered.

A first build (or one whose previous output is not as the last build left it)
writes the new site into a sibling folder and swaps it in with renames, so
`output/` is always either the previous build or the new one, never a mix. A
later build writes the files made from changed inputs beside their targets and
renames them over them only once every page has rendered, then removes the
files the new build no longer makes. Either way the result equals a clean build
byte for byte, and a page that fails to render leaves output/ as it was.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from sitegen.errors import ContentError, Problem

# output file -> (size, mtime_ns) as the last build wrote it
Manifest = dict[str, tuple[int, int]]


class UnsafeOutputPath(ValueError):
    pass


def write_output(files: Iterable[tuple[str, bytes]], output_dir: Path, kept: set[str], previous: Manifest | None) -> Manifest:
    """Write `files` (path, bytes; rendered as they are taken); `kept` names files of the `previous` build (intact on disk) to leave as they are.

    With no `previous` build to build on, the whole site goes to a new folder swapped in at the end.
    """
    output_dir = Path(output_dir).absolute()
    if previous is None or not output_dir.is_dir():
        if kept:
            raise ValueError("kept files need the previous build's manifest")
        return _new_folder(files, output_dir)
    return _write_changes(files, output_dir, kept, previous)


def intact(output_dir: Path, manifest: Manifest) -> bool:
    """Does the output folder hold exactly the files the last build wrote, as it wrote them?"""
    if not manifest:
        return False
    found = _files_under(os.fspath(Path(output_dir).absolute()))
    return found == manifest


def _files_under(root: str) -> dict[str, tuple[int, int]]:
    """(size, mtime_ns) of every file under `root`, by path relative to it; links and all."""
    files: dict[str, tuple[int, int]] = {}
    pending = [(root, "")]
    while pending:
        folder, prefix = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                pending.append((entry.path, f"{prefix}{entry.name}/"))
            else:
                stat = entry.stat(follow_symlinks=False)
                files[prefix + entry.name] = (stat.st_size, stat.st_mtime_ns)
    return files


def replaceable(folder: Path) -> bool:
    """The swap deletes what was there: only nothing, or an earlier build, may be swapped away."""
    if not folder.exists():
        return True
    if not folder.is_dir():
        return False
    names = {path.name for path in folder.iterdir()}
    return not names or ({"index.html", ".nojekyll"} <= names and "content" not in names)


def _new_folder(files: Iterable[tuple[str, bytes]], output_dir: Path) -> Manifest:
    if not replaceable(output_dir):
        raise ContentError(
            Problem(
                f"refusing to replace {output_dir}: it holds files sitegen did not write "
                "(a built site has index.html and .nojekyll); empty it or choose another --output"
            )
        )
    output_dir.parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(output_dir)
    staging = output_dir.parent / f".{output_dir.name}.new-{os.getpid()}"
    retired = output_dir.parent / f".{output_dir.name}.old-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        staging.mkdir()
        manifest = {name: _create(staging / safe_relative_path(name), data) for name, data in files}
        if output_dir.exists():
            os.replace(output_dir, retired)
        os.replace(staging, output_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(retired, ignore_errors=True)
    return manifest


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


def _write_changes(files: Iterable[tuple[str, bytes]], output_dir: Path, kept: set[str], previous: Manifest) -> Manifest:
    manifest: Manifest = {name: previous[name] for name in kept}
    written: list[tuple[str, Path, Path]] = []  # (output name, the new file beside its target, the target)
    try:
        for name, data in files:
            target = output_dir / safe_relative_path(name)
            temporary = target.parent / f".{target.name}.{os.getpid()}.tmp"
            written.append((name, temporary, target))
            _create(temporary, data)
    except BaseException:
        for _, temporary, _ in written:
            _unlink_and_prune(temporary, output_dir)
        raise
    for name, temporary, target in written:
        os.replace(temporary, target)  # readers see the old file or the new one, never a mix; a rename keeps size and mtime
        manifest[name] = _stat(target)
    for name in sorted(previous.keys() - manifest.keys(), reverse=True):
        _remove(output_dir, name)
    return manifest


def _stat(path: Path) -> tuple[int, int]:
    stat = os.lstat(path)
    return stat.st_size, stat.st_mtime_ns


def _create(path: Path, data: bytes) -> tuple[int, int]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as stream:
        stream.write(data)
    return _stat(path)


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
