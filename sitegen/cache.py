"""The build cache: what an earlier build of this site already worked out.

Files under `<site>/.sitegen-cache/`, all keyed by sitegen's version and code,
plus compiled templates in `templates/` and, in `spares/`, the last version but one
of records.json and publications.bib (see write.Spares: not read, only written over):

- `state.pickle` (small, read by every build): a fingerprint of every input file,
  the manifest of the output it produced, and the key each page was rendered
  from. When nothing changed, a build stops here.
- `content-00.pickle`, `content-01.pickle`, ... (up to 32; large, read when
  something changed): the records of each record file, by size and mtime; the
  enriched entries, by a key of the record and of everything enrichment reads;
  each record's list item (UTF-8), BibTeX and JSON. A record lands in the shard of its
  file's path, so editing one record rewrites one shard, not the whole cache.

The pickles are written past the page cache where the file system allows (see
`_UncachedFile`): on a virtual machine, filling it cost more than the disk does; a
helper process fills it again ahead of a build that reads them (see `_read_shards`).
Each file holds the cache key, the pickle, the fragments' bytes (mapped from the file,
not copied: see `_read`) and a trailer that says where they lie (see `_write_cache_file`).

A cache that cannot be read, or was written by another version, is reported and
ignored: the build then runs cold. Being wrong is never an option, so every key
holds everything its value depends on.
"""

from __future__ import annotations

import dataclasses
import errno
import gc
import hashlib
import itertools
import mmap
import os
import pickle
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sitegen import __version__
from sitegen.errors import Problem

if TYPE_CHECKING:
    from sitegen.inputs import InputListing

CACHE_DIR = ".sitegen-cache"
CACHE_FORMAT = 3
CONTENT_SHARDS = 32
RECORDS_PER_SHARD = 250
MAP_CACHE_FILES = os.name == "posix"  # see BuildCache._read


def _code_key() -> str:
    """A hash of sitegen's own code: a cache never outlives the code that wrote it, even between releases."""
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()


CACHE_KEY = f"sitegen {__version__} ({_code_key()}) format {CACHE_FORMAT} python {sys.version_info[0]}.{sys.version_info[1]}"


def digest(*parts: Any) -> str:
    """A short hash of values, the same in every process (sets are sorted first)."""
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        if isinstance(part, str):
            part = part.encode("utf-8", "surrogatepass")
        elif not isinstance(part, bytes):
            part = repr(_canonical(part)).encode("utf-8", "surrogatepass")
        h.update(part)
        h.update(b"\0")
    return h.hexdigest()


def _canonical(value: Any) -> Any:
    """`value` with its sets sorted: their order changes from one process to the next."""
    if isinstance(value, (set, frozenset)):
        return ("set", sorted(repr(_canonical(v)) for v in value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple(_canonical(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, dict):
        return ("dict", tuple((_canonical(k), _canonical(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_canonical(v) for v in value)
    return value


@dataclass
class BuildState:
    """What the last successful build read and wrote."""

    inputs: str = ""  # fingerprint of every input file and option
    outputs: dict[str, tuple[int, int]] = field(default_factory=dict)  # path -> (size, mtime_ns) on disk
    page_keys: dict[str, str] = field(default_factory=dict)  # path -> key of what the page was rendered from
    warnings: list[Problem] = field(default_factory=list)
    output_dir: str = ""
    base_path: str = "/"  # the URL path the site was built for ('/repo/')
    output_folders: dict[str, int] = field(default_factory=dict)  # folder -> mtime_ns, after the build (see write.intact)


@dataclass
class ContentCache:
    files: dict[str, tuple[int, int, Any]] = field(default_factory=dict)  # path -> (size, mtime_ns, (records, problems))
    entries: dict[str, Any] = field(default_factory=dict)  # entry key -> (Entry, problems)
    fragments: dict[str, tuple[bytes, bytes, bytes]] = field(default_factory=dict)  # key -> a record's (list item, BibTeX, JSON line)
    # what a stage remembers of the last build in this process, for the next one (the dev server's);
    # never saved: a shard starts with an empty one (see enrich.unique_cite_keys, and the
    # "record_stats" that `files` was last brought up to: build._read_changed_record_files)
    last_build: dict[str, Any] = field(default_factory=dict)

    def shards(self) -> list["ContentCache"]:
        """Split by record file (entry and fragment keys start with the file's path), so that one record's data stays together.

        One shard per RECORDS_PER_SHARD records, up to CONTENT_SHARDS: a small site reads and writes one file.
        """
        count = min(CONTENT_SHARDS, max(1, len(self.files) // RECORDS_PER_SHARD))
        shards = [ContentCache() for _ in range(count)]
        for path, value in self.files.items():
            shards[_shard_of(path, count)].files[path] = value
        for key, value in self.entries.items():
            shards[_shard_of(_record_file_of(key), count)].entries[key] = value
        for key, value in self.fragments.items():
            shards[_shard_of(_record_file_of(key), count)].fragments[key] = value
        return shards

    @classmethod
    def merged(cls, shards: list["ContentCache"]) -> "ContentCache":
        whole = cls()
        for shard in shards:
            whole.files.update(shard.files)
            whole.entries.update(shard.entries)
            whole.fragments.update(shard.fragments)
        return whole

    def to_save(self) -> "ContentCache":
        """This shard with its fragments' bytes marked to go after the pickle, to be mapped back (see BuildCache._read)."""
        fragments = {key: tuple(map(pickle.PickleBuffer, texts)) for key, texts in self.fragments.items()}
        return ContentCache(self.files, self.entries, fragments)

    def same_as(self, other: "ContentCache") -> bool:
        """Holds the very objects `other` holds: nothing in it was made again."""
        return all(_same_objects(getattr(self, name), getattr(other, name)) for name in ("files", "entries", "fragments"))


def _record_file_of(key: str) -> str:
    """'content/records/x.yaml@<hash>#0 ...' -> 'content/records/x.yaml' (see enrich.entry_key)."""
    return key.split("@", 1)[0]


def _shard_of(key: str, count: int) -> int:
    return zlib.crc32(key.encode("utf-8", "surrogatepass")) % count


def _same_objects(mine: dict, theirs: dict) -> bool:
    return mine.keys() == theirs.keys() and all(value is theirs[key] for key, value in mine.items())


class BuildCache:
    """Loads lazily, saves atomically, and never lets a bad cache break a build."""

    def __init__(self, site_dir: Path, enabled: bool = True, long_lived: bool = False):
        self.root = Path(site_dir) / CACHE_DIR
        self.enabled = enabled
        # kept in memory for build after build (the dev server): what is read is then left out of the
        # cycle collector's walks at once (see serve.freeze_what_is_kept), not only after the build that read it
        self.long_lived = long_lived
        self.warnings: list[Problem] = []
        self._state: BuildState | None = None
        self._content: ContentCache | None = None
        self._saved_shards: list[ContentCache] = []  # as read or last written: a shard equal to its own is not written again
        self.unsaved = False
        self.listing: InputListing | None = None  # the input files of the last build with this cache (in memory only)

    @property
    def state(self) -> BuildState:
        if self._state is None:
            self._state = self._read("state.pickle", BuildState) if self.enabled else BuildState()
        return self._state

    @property
    def content(self) -> ContentCache:
        if self._content is None:
            if self.enabled:
                self._saved_shards = self._read_shards(sorted(self.root.glob("content-*.pickle")))
            self._content = ContentCache.merged(self._saved_shards)
            if self.long_lived:
                gc.freeze()  # the 1.5 million objects of 100,000 records: two collections of 1-1.5 s each
        return self._content

    def _read_shards(self, paths: list[Path]) -> list[ContentCache]:
        """The shards, read through the page cache, which a forked helper fills ahead of this process.

        They were written past it (see `_UncachedFile`), so the disk has them, not the page cache.
        Read after a cold build of 10,000 records, they took 0.5 s when this process filled the page
        cache itself, 0.33-0.36 s when it read them past it; with the helper filling it on another
        core while this process unpickles, 0.24-0.28 s.
        """
        from sitegen.parallel import Background, helpers_can_run

        filling = Background(_fill_page_cache, paths) if len(paths) > 1 and helpers_can_run() else None  # not made here and now
        try:
            return [self._read(path.name, ContentCache) for path in paths]
        finally:
            if filling is not None:
                filling.stop()  # done long since, as a rule; if not, no longer needed

    def _read(self, name: str, kind: type) -> Any:
        """The file's value; the fragments' bytes in it are views of the file, mapped, not copied.

        Copied, they are 64 MB of fresh memory at 10,000 records: 16,000 page faults, 0.04 s
        of every edit's build; mapped, a fault brings in 16 pages of the page cache, and only
        when a page is read (the exports' lines, the list items of the pages made again).
        The map lasts as long as a view of it; a new cache file replaces this one by a
        rename, so the file mapped is never written again (Windows refuses to rename over a
        mapped file: there the file is read whole).
        """
        path = self.root / name
        if not path.exists():
            return kind()
        try:
            with path.open("rb") as stream:
                head = pickle.load(stream)  # read up to its end, where the pickle starts
                if not isinstance(head, tuple) or head[0] != CACHE_KEY:
                    return kind()  # another version's cache: silently rebuilt
                start, whole = stream.tell(), _whole_file(stream)
            trailer = len(whole) - TRAILER_LENGTH_SIZE - int.from_bytes(whole[-TRAILER_LENGTH_SIZE:], "little")
            if trailer < start:
                raise ValueError(f"a trailer longer than the file ({len(whole)} bytes)")
            size, lengths = pickle.loads(whole[trailer : len(whole) - TRAILER_LENGTH_SIZE])
            ends = list(itertools.accumulate(lengths, initial=start + size))
            if ends[-1] != trailer:
                raise ValueError(f"the bytes after the pickle end at {ends[-1]}, not at {trailer}")
            value = pickle.loads(whole[start : start + size], buffers=[whole[a:b] for a, b in zip(ends, ends[1:])])
            if not isinstance(value, kind):
                raise TypeError(f"expected {kind.__name__}, found {type(value).__name__}")
            return value
        except Exception as error:  # a corrupt or foreign file of any kind
            if not self.warnings:  # one line, however many of its files are damaged
                self.warnings.append(Problem(f"ignoring unreadable build cache {path} ({type(error).__name__}); building from scratch", warning=True))
            return kind()

    def update(self, state: BuildState) -> None:
        """What the build just did; in memory until `save` (a dev server saves on exit)."""
        self._state = state
        self.unsaved = True

    def save(self) -> None:
        if not self.enabled or not self.unsaved:
            return
        state, content = self.state, self._content
        self.unsaved = False
        self.root.mkdir(parents=True, exist_ok=True)
        gitignore = self.root / ".gitignore"
        if not gitignore.exists():
            gitignore.write_text("*\n")
        if content is not None:
            shards = content.shards()
            resharded = len(shards) != len(self._saved_shards)
            for index, shard in enumerate(shards):
                if resharded or not shard.same_as(self._saved_shards[index]):
                    self._write(f"content-{index:02d}.pickle", shard.to_save())
            for extra in range(len(shards), len(self._saved_shards)):
                (self.root / f"content-{extra:02d}.pickle").unlink(missing_ok=True)
            self._saved_shards = shards
        self._write("state.pickle", state)

    def _write(self, name: str, value: Any) -> None:
        temporary = self.root / f".{name}.{os.getpid()}"
        try:
            with _UncachedFile(temporary) as stream:
                _write_cache_file(stream, value)
        except _NoDirectWrites:
            with temporary.open("wb") as stream:
                _write_cache_file(stream, value)
        os.replace(temporary, self.root / name)


TRAILER_LENGTH_SIZE = 8


def _write_cache_file(stream, value: Any) -> None:
    """The cache key; the pickle of `value`, written as it is made, never held whole in memory;
    the bytes it marked to go after it (`pickle.PickleBuffer`); then the trailer that says where
    those lie, and the trailer's own length. (Where they lie is known once the pickle is made,
    so it cannot go before it.)"""
    pickle.dump((CACHE_KEY,), stream, protocol=pickle.HIGHEST_PROTOCOL)
    start = stream.tell()
    buffers: list[pickle.PickleBuffer] = []
    pickle.dump(value, stream, protocol=pickle.HIGHEST_PROTOCOL, buffer_callback=buffers.append)
    size = stream.tell() - start
    views = [buffer.raw() for buffer in buffers]
    stream.write(b"".join(views))  # one copy, not a write call for each of 30,000 fragments
    lengths = [len(view) for view in views]
    trailer = pickle.dumps((size, lengths), protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(trailer + len(trailer).to_bytes(TRAILER_LENGTH_SIZE, "little"))


def _whole_file(stream) -> memoryview:
    """Mapped where a file can be replaced by a rename while it is mapped (POSIX); elsewhere read."""
    if MAP_CACHE_FILES:
        return memoryview(mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ))
    stream.seek(0)
    return memoryview(stream.read())


def _fill_page_cache(paths: list[Path]) -> None:
    """Read the files (in a helper process), so that the page cache holds them when they are read."""
    chunk = bytearray(1 << 20)
    for path in paths:
        with open(path, "rb", buffering=0) as stream:
            while stream.readinto(chunk):
                pass


class _NoDirectWrites(Exception):
    """The file system, or this system, does not write past the page cache."""


class _UncachedFile:
    """A file written past the page cache (O_DIRECT), by whole blocks, from one reused buffer.

    The cache is written once and read at the next build at the soonest. Copied into the page
    cache first, its 120 MB at 10,000 records took 0.45-0.55 s of a cold build on a virtual
    machine, which hands out fresh memory slowly; written directly, 0.3 s. A file system that
    refuses such writes (tmpfs) gets a plain file.
    """

    BLOCK = 4096  # what direct writes are aligned to: a multiple of any disk's sector
    buffer: memoryview | None = None  # 1 MiB of page-aligned memory, shared by every file written (one at a time)

    def __init__(self, path: Path):
        if not hasattr(os, "O_DIRECT"):
            raise _NoDirectWrites
        if _UncachedFile.buffer is None:
            _UncachedFile.buffer = memoryview(mmap.mmap(-1, 1 << 20))
        try:
            self.descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | os.O_DIRECT, 0o644)
        except OSError as error:
            if error.errno != errno.EINVAL:
                raise
            raise _NoDirectWrites from None
        self.filled = 0  # bytes of `buffer` not yet written
        self.size = 0

    def tell(self) -> int:
        return self.size

    def write(self, data: bytes) -> int:
        buffer, data = _UncachedFile.buffer, memoryview(data)
        taken = 0
        while taken < len(data):
            part = min(len(data) - taken, len(buffer) - self.filled)
            buffer[self.filled : self.filled + part] = data[taken : taken + part]
            self.filled += part
            taken += part
            if self.filled == len(buffer):
                self._write_out(len(buffer))
        self.size += len(data)
        return len(data)

    def _write_out(self, length: int) -> None:
        try:
            written = os.write(self.descriptor, _UncachedFile.buffer[:length])
        except OSError as error:
            if error.errno != errno.EINVAL:  # EINVAL: alignment this disk does not take
                raise
            raise _NoDirectWrites from None
        if written != length:
            raise OSError(errno.EIO, "short write to the build cache")
        self.filled = 0

    def __enter__(self) -> "_UncachedFile":
        return self

    def __exit__(self, kind, error, traceback) -> None:
        try:
            if kind is None:
                rest = self.filled
                whole = -(-rest // self.BLOCK) * self.BLOCK  # the last block padded, then cut to size
                _UncachedFile.buffer[rest:whole] = bytes(whole - rest)
                self._write_out(whole)
                os.ftruncate(self.descriptor, self.size)
        finally:
            os.close(self.descriptor)
