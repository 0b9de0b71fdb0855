"""Stage 5: put the rendered files on disk, all at once.

The new site is written into a sibling folder and swapped in with renames, so
`output/` is always either the previous build or the new one, never a mix, and
files the new build no longer makes are gone.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path, PurePosixPath


class UnsafeOutputPath(ValueError):
    pass


def write_output(files: dict[str, bytes], output_dir: Path) -> None:
    output_dir = Path(output_dir).absolute()
    output_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = output_dir.parent / f".{output_dir.name}.new-{os.getpid()}"
    retired = output_dir.parent / f".{output_dir.name}.old-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        _write_tree(files, staging)
        if output_dir.exists():
            os.replace(output_dir, retired)
        os.replace(staging, output_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(retired, ignore_errors=True)


def _write_tree(files: dict[str, bytes], root: Path) -> None:
    made: set[Path] = set()
    for name, data in files.items():
        target = root / safe_relative_path(name)
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        target.write_bytes(data)


def safe_relative_path(name: str) -> PurePosixPath:
    """Refuse output paths that would land outside the output folder."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise UnsafeOutputPath(f"refusing to write outside the output folder: {name!r}")
    return path
