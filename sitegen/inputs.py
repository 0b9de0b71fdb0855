"""The files a build reads: listed, fingerprinted, and told apart from the last listing.

A build starts from the (size, mtime_ns) of every input file: their fingerprint
says whether anything changed since the last build, and the record files among
them are what stage 1 reads. At 100,000 records, working these out again after
every save took half a second of the dev server's rebuild. Its watcher knows
which files an edit touched (`InputChanges`), so `InputListing.updated` works
them out from the last listing instead, in time that grows with the edit, not the site.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from sitegen.files import stat_tree
from sitegen.load import is_record_file, record_files_among
from sitegen.theme import BUNDLED_THEMES

WATCHED_FOLDERS = ("content", "templates", "static", "themes")

Stats = dict[str, tuple[int, int]]  # input path ('content/records/x.yaml') -> (size, mtime_ns)


def input_files(site_dir: Path, visited: list[tuple[str, str]] | None = None) -> Stats:
    """(size, mtime_ns) of every file a build reads, by path: what the dev server watches too
    (`visited`, if given, gets every folder listed, with the prefix of its files' paths)."""
    files: Stats = {}
    for name in WATCHED_FOLDERS:
        files.update(stat_tree(Path(site_dir) / name, f"{name}/", visited=visited))
    files.update(stat_tree(BUNDLED_THEMES, "<sitegen>/themes/", visited=visited))
    return files


_FINGERPRINT_BITS = 128


def fingerprint(files: Stats) -> int:
    """One number for a listing of files, whatever its order: the sum of a hash of each file.

    A sum, so that one file's change is one subtraction and one addition (`InputListing.updated`).
    """
    return sum(map(_file_hash, files.items())) % (1 << _FINGERPRINT_BITS)


def _file_hash(item: tuple[str, tuple[int, int]]) -> int:
    path, (size, mtime) = item
    line = f"{path}\0{size}\0{mtime}".encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(line, digest_size=_FINGERPRINT_BITS // 8).digest(), "little")


@dataclass(frozen=True)
class InputChanges:
    """What a caller that watches the files knows: from the listing `since` to the one
    built now, only the files at `paths` may differ (added, removed or changed)."""

    since: Stats
    paths: frozenset[str]


@dataclass(frozen=True)
class InputListing:
    """The input files of one build, and what is worked out from them alone."""

    files: Stats
    fingerprint: int
    record_stats: Stats  # the record files, in path order
    record_changes: InputChanges | None = None  # from the last listing's record_stats, when known

    @classmethod
    def of(cls, files: Stats) -> InputListing:
        return cls(files, fingerprint(files), record_files_among(files))

    def updated(self, files: Stats, changes: InputChanges | None) -> InputListing:
        """The listing of `files`, worked out from this one when `changes` starts from it."""
        if changes is None or changes.since is not self.files:
            return InputListing.of(files)
        total = self.fingerprint
        for path in changes.paths:
            if path in self.files:
                total -= _file_hash((path, self.files[path]))
            if path in files:
                total += _file_hash((path, files[path]))
        records = frozenset(path for path in changes.paths if is_record_file(path))
        record_stats = self.record_stats
        if any((path in record_stats) != (path in files) for path in records):  # one added or removed: sorted again
            record_stats = record_files_among(files)
        elif records:
            record_stats = dict(record_stats)  # the last listing's stays as it was
            record_stats.update((path, files[path]) for path in records)
        return InputListing(files, total % (1 << _FINGERPRINT_BITS), record_stats, InputChanges(self.record_stats, records))
