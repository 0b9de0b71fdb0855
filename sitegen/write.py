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

from sitegen.errors import ContentError, Problem
from sitegen.files import stat_tree

# path -> (size, mtime_ns, content hash) of each file the last build wrote
Manifest = dict[str, tuple[int, int, str]]


class UnsafeOutputPath(ValueError):
    pass


def write_output(files: dict[str, bytes], output_dir: Path, kept: set[str] | frozenset = frozenset(), previous: Manifest | None = None) -> Manifest:
    """Write `files`; `kept` names files of the `previous` build to leave as they are."""
    output_dir = Path(output_dir).absolute()
    if previous is None or not output_dir.is_dir():
        if kept:
            raise ValueError("kept files need the previous build's manifest")
        return _write_fresh(files, output_dir)
    return _write_changes(files, output_dir, kept, previous)


def intact(output_dir: Path, manifest: Manifest) -> bool:
    """True when the output folder holds exactly what the last build wrote, untouched."""
    if not manifest or not Path(output_dir).is_dir():
        return False
    found = stat_tree(output_dir, include_hidden=True)
    return found.keys() == manifest.keys() and all(found[name] == manifest[name][:2] for name in found)




def _write_fresh(files: dict[str, bytes], output_dir: Path) -> Manifest:
    if not replaceable(output_dir):
        raise ContentError(Problem(
            f"refusing to replace {output_dir}: it holds files sitegen did not write "
            "(a built site has index.html and .nojekyll); empty it or choose another --output"
        ))
    output_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = output_dir.parent / f".{output_dir.name}.new-{os.getpid()}"
    retired = output_dir.parent / f".{output_dir.name}.old-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        manifest = _write_tree(files, staging)
        if output_dir.exists():
            os.replace(output_dir, retired)
        os.replace(staging, output_dir)
        return manifest
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(retired, ignore_errors=True)


def replaceable(folder: Path) -> bool:
    """The swap deletes what was there: only nothing, or an earlier build, may be swapped away."""
    if not folder.exists():
        return True
    if not folder.is_dir():
        return False
    names = {path.name for path in folder.iterdir()}
    return not names or ({"index.html", ".nojekyll"} <= names and "content" not in names)


def _write_tree(files: dict[str, bytes], root: Path) -> Manifest:
    made: set[Path] = set()
    manifest: Manifest = {}
    for name, data in files.items():
        target = root / safe_relative_path(name)
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        target.write_bytes(data)
        manifest[name] = _entry(target, data)
    return manifest


def _write_changes(files: dict[str, bytes], output_dir: Path, kept: set[str] | frozenset, previous: Manifest) -> Manifest:
    manifest: Manifest = {name: previous[name] for name in kept}
    for name, data in files.items():
        old = previous.get(name)
        if old is not None and old[2] == _hash(data):
            manifest[name] = old
            continue
        target = output_dir / safe_relative_path(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.parent / f".{target.name}.{os.getpid()}.tmp"
        temporary.write_bytes(data)
        os.replace(temporary, target)
        manifest[name] = _entry(target, data)
    for name in sorted(set(previous) - set(manifest), reverse=True):
        _remove(output_dir, name)
    return dict(sorted(manifest.items()))


def _remove(output_dir: Path, name: str) -> None:
    """Delete a file the new build does not make, and folders it leaves empty."""
    target = output_dir / safe_relative_path(name)
    target.unlink(missing_ok=True)
    folder = target.parent
    while folder != output_dir and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def _entry(path: Path, data: bytes) -> tuple[int, int, str]:
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns, _hash(data)


def _hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def safe_relative_path(name: str) -> PurePosixPath:
    """Refuse output paths that would land outside the output folder."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise UnsafeOutputPath(f"refusing to write outside the output folder: {name!r}")
    return path
