"""The build cache: what an earlier build of this site already worked out, as data.

Two JSON files under `<site>/.sitegen-cache/` (never pickle: a cache planted in a
pull request must not run code):

- `state.json` (small, read by every build): the digest of every input file, when
  they were listed, and what the last build made of them: its output manifest
  (and the mtime of each output folder) and the key each output file was made
  from. When nothing changed, a build stops here.
- `content.json` (read when something changed): each record's converted text
  (LaTeX and Markdown made into HTML and plain text), by a key of everything the
  conversion reads.

Each starts with `CACHE_KEY` (sitegen's version and code, Python's version, and
the installed version of every library, since any of them may change what a
page looks like) and a seal that only sitegen on this machine can make
(`machine_secret`). A file written under another key, without a valid seal, or
one that cannot be read, is set aside (with a note unless only the key
differs) and the build runs cold.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import os
import re
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from sitegen import __version__
from sitegen.errors import Location, Problem

CACHE_DIR = ".sitegen-cache"
CACHE_FORMAT = 5
# folders of .sitegen-cache/ that versions of 2026-11-30 wrote and nothing reads since: each file name they gave
_OLD_CACHE_FOLDERS = {
    "spares": re.compile(r"lock|[0-9a-f]{8,64}(?:\.old)?"),  # the spare copies of records.json and publications.bib
    "templates": re.compile(r"[0-9a-f]{8,64}\.[0-9a-f]{8,64}\.cache"),  # Jinja's compiled templates
}


def digest(*parts: Any) -> str:
    """A short hash of values made of str, bytes, numbers, None and (nested) lists, tuples and dicts."""
    h = hashlib.blake2b(digest_size=16)
    h.update(orjson.dumps(parts, default=_canonical, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS))
    return h.hexdigest()


def _canonical(value: Any) -> Any:
    """What `digest` hashes for a value JSON has no form for."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return hashlib.blake2b(bytes(value), digest_size=16).hexdigest()
    if isinstance(value, (set, frozenset)):
        return sorted(map(repr, value))
    if hasattr(value, "__dataclass_fields__"):
        return [type(value).__name__, *(getattr(value, name) for name in value.__dataclass_fields__)]
    return repr(value)


@functools.cache
def code_key() -> str:
    """A hash of sitegen's own code: a cache never outlives the code that wrote it, even between releases."""
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()


@functools.cache
def library_versions() -> tuple[tuple[str, str], ...]:
    """(name, version) of every distribution installed where Python imports from.

    Every installed library may shape a page (sitegen's requirements, what they
    require, Markdown extensions and Pygments plugins found by entry point), so
    all of them join the key. Installers name a distribution's metadata folder
    `name-version.dist-info` (older ones `name-version-py3.x.egg-info`), so one
    listing of each folder on `sys.path` finds them without reading any metadata.
    """
    found: set[tuple[str, str]] = set()
    working_folder = os.getcwd()
    for folder in sys.path:
        if not folder or folder == working_folder or not os.path.isdir(folder):
            continue  # the working folder ('' or, for `python -m sitegen`, its path) is where the command was typed, not
            # where libraries are installed: a checkout's `*.egg-info` there would give `sitegen serve` and `python -m
            # sitegen build` two keys; zip files hold no installs
        try:
            names = [entry.name for entry in os.scandir(folder)]
        except OSError:
            continue
        for name in names:
            stem, dot, kind = name.rpartition(".")
            if dot and kind in ("dist-info", "egg-info"):
                distribution, _, version = stem.partition("-")
                found.add((distribution.replace("_", "-").lower(), version))
    return tuple(sorted(found))


def cache_key() -> str:
    """What every cached value depends on besides its own inputs."""
    return digest(CACHE_FORMAT, __version__, code_key(), sys.version, library_versions())


# --- the content of the files ----------------------------------------------------------------


@dataclass
class BuildState:
    """What the last build read and wrote (state.json)."""

    inputs: dict[str, tuple[int, int, str]] = field(default_factory=dict)  # path -> size, mtime_ns, digest
    listed_at_ns: int = 0
    build_key: str = ""  # the inputs, options and cache key of the last build
    output_dir: str = ""
    manifest: dict[str, tuple[int, int]] = field(default_factory=dict)  # output file -> size, mtime_ns as written
    folders: dict[str, int] = field(default_factory=dict)  # output folder -> mtime_ns once the build was done
    page_keys: dict[str, str] = field(default_factory=dict)  # output file -> what it was made from
    warnings: list[Problem] = field(default_factory=list)
    base_path: str = "/"


@dataclass
class ContentCache:
    """What enrichment made, by content (content.json)."""

    entries: dict[str, Any] = field(default_factory=dict)  # entry key -> converted text, as data


class BuildCache:
    """The cache of one site; `enabled=False` reads and writes nothing (`--no-cache`)."""

    def __init__(self, site_dir: Path, enabled: bool = True, folder: Path | None = None):
        """`folder`: where the cache files are (default: the site's .sitegen-cache/)."""
        self.root = Path(folder) if folder is not None else Path(site_dir) / CACHE_DIR
        self.notes: list[Problem] = []  # damaged or outdated files set aside
        if enabled and (why := unkept_secret()) is not None:  # its files would be of no use to the next build
            enabled = False
            self.notes.append(
                Problem(
                    f"the build cache is not used: its key cannot be kept ({why}); set XDG_CACHE_HOME to a folder "
                    "this user may write, or build with --no-cache",
                    Location(CACHE_DIR),
                    warning=True,
                    note=True,
                )
            )
        self.enabled = enabled
        self._key = cache_key() if enabled else ""
        self._state: BuildState | None = None
        self._state_stamp: tuple[int, int, int] | None = None  # state.json as `_state` was read from or saved to it
        self._content: ContentCache | None = None

    @property
    def state(self) -> BuildState:
        if self._state is None:
            self._state_stamp = self._stamp("state.json")
            data = self._read("state.json")
            self._state = _state_from(data) if data is not None else BuildState()
        return self._state

    def follow_other_builds(self) -> bool:
        """Read state.json again when another process saved it since this cache read or saved it (a `sitegen build`
        while the dev server runs: its next build starts from that build's output, not from its own older one).
        True when it will be read again."""
        if self._state is None or not self.enabled or self._stamp("state.json") == self._state_stamp:
            return False
        self._state = None
        return True

    def _stamp(self, name: str) -> tuple[int, int, int] | None:
        try:
            found = os.stat(self.root / name)
        except OSError:
            return None
        return found.st_ino, found.st_size, found.st_mtime_ns

    @property
    def content(self) -> ContentCache:
        if self._content is None:
            data = self._read("content.json")
            self._content = ContentCache(data.get("entries", {})) if data else ContentCache()
        return self._content

    def save(self, state: BuildState, content: ContentCache | None) -> None:
        """Write what changed; a cache that cannot be written is a note, never a failed build."""
        self._state = state
        if not self.enabled:
            return
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            if content is not None:
                self._content = content
                self._write("content.json", _content_json(content))
            self._write("state.json", [orjson.dumps(_state_data(state), option=orjson.OPT_NON_STR_KEYS)])
            self._state_stamp = self._stamp("state.json")
            self._remove_first_versions_files()
        except OSError as error:
            why = error.strerror or str(error)  # 'permission denied', not the errno tuple and a temporary file's name
            self.notes.append(
                Problem(
                    f"could not save the build cache ({why[:1].lower()}{why[1:]}): the next build starts from scratch; --no-cache builds without it",
                    Location(CACHE_DIR),
                    warning=True,
                    note=True,
                )
            )

    def _remove_first_versions_files(self) -> None:
        """The first versions' cache (`state.pickle`, `content-00.pickle`, ...: tens of megabytes at 10,000 records;
        and, from the versions of 2026-11-30, `spares/`, a spare records.json and publications.bib of hundreds of
        megabytes at 100,000 records, and `templates/`, compiled templates) is never read; an upgraded site's is
        deleted once this cache is saved beside it, not left in the folder. Only files named as those versions
        named them go, and their folder when that leaves it empty."""
        if self.root.is_symlink():
            return
        for name in os.listdir(self.root):
            if name.endswith(".pickle") and (name in ("state.pickle", "content.pickle") or name.startswith("content-")):
                (self.root / name).unlink(missing_ok=True)
        for folder, old_file in _OLD_CACHE_FOLDERS.items():
            path = self.root / folder
            if path.is_symlink() or not path.is_dir():
                continue
            for name in os.listdir(path):
                if old_file.fullmatch(name) and not (path / name).is_symlink() and (path / name).is_file():
                    (path / name).unlink(missing_ok=True)
            with contextlib.suppress(OSError):  # something else in it: left as it is
                path.rmdir()

    def _read(self, name: str) -> dict | None:
        if not self.enabled:
            return None
        path = self.root / name
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            self._set_aside(name, str(error))
            return None
        newline = raw.find(b"\n")  # the body is not copied: content.json is tens of megabytes
        head, body = (raw, memoryview(b"")) if newline < 0 else (raw[:newline], memoryview(raw)[newline + 1 :])
        key, _, seal = head.partition(b" ")
        if key != self._key.encode():
            self._set_aside(name, "written by another version of sitegen or its libraries", quiet=True)
            return None
        if seal != _seal(name, key, body).encode():
            self._set_aside(name, "damaged, or not written by sitegen on this machine")
            return None
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError as error:
            self._set_aside(name, f"damaged ({error})")
            return None
        if not isinstance(data, dict):
            self._set_aside(name, "damaged (not a JSON object)")
            return None
        return data

    def _set_aside(self, name: str, why: str, quiet: bool = False) -> None:
        """A cache file that cannot be used is ignored (the build starts from scratch), with a warning unless `quiet`."""
        if not quiet:
            self.notes.append(Problem(f"build cache {name} {why}: ignored, building from scratch", Location(f"{CACHE_DIR}/{name}"), warning=True))

    def _write(self, name: str, body: Iterable[bytes]) -> None:
        """Atomically: a build killed while saving leaves the old file or the new one.

        The body comes in pieces and is written as it is sealed, so that a content cache of tens of
        megabytes is never held whole; the header line, of fixed length, is written last.
        """
        key = self._key.encode()
        seal = _sealer(name, key)
        handle, temporary = tempfile.mkstemp(dir=self.root, prefix=f".{name}.")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.seek(len(key) + 1 + 2 * seal.digest_size + 1)
                for piece in body:
                    seal.update(piece)
                    stream.write(piece)
                stream.seek(0)
                stream.write(b"%s %s\n" % (key, seal.hexdigest().encode()))
            os.replace(temporary, self.root / name)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


def _content_json(content: ContentCache, batch: int = 1024) -> Iterator[bytes]:
    """content.json's body, `{"entries": {...}}`, a batch of entries at a time."""
    yield b'{"entries":{'
    items = iter(content.entries.items())
    separator = b""
    while chunk := list(itertools.islice(items, batch)):
        yield separator + b",".join(orjson.dumps(key) + b":" + orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS) for key, value in chunk)
        separator = b","
    yield b"}}"


def _sealer(name: str, key: bytes) -> hashlib.blake2b:
    """A keyed hash of a cache file's content: only this machine's sitegen can make one that matches."""
    h = hashlib.blake2b(digest_size=16, key=machine_secret())
    h.update(b"%s\n%s\n" % (name.encode(), key))
    return h


def _seal(name: str, key: bytes, body: bytes | memoryview) -> str:
    h = _sealer(name, key)
    h.update(body)
    return h.hexdigest()


SECRET_BYTES = 32


def machine_secret() -> bytes:
    """A random key kept outside every site, in the user's cache folder, that seals each cache file.

    The cache holds converted HTML that is not sanitised again when read back,
    so a cache file is used only if sitegen wrote it on this machine: a
    `.sitegen-cache/` committed to a repository (a pull request can carry one)
    has no valid seal and is set aside. Where no folder can keep the key, this
    process makes one of its own, and its cache files are of use to it alone
    (so `BuildCache` uses no cache then: see `unkept_secret`).
    """
    return _machine_key()[0]


def unkept_secret() -> str | None:
    """Why the key of `machine_secret` could not be kept ('~/.cache/sitegen: permission denied'); None when it is."""
    return _machine_key()[1]


@functools.cache
def _machine_key() -> tuple[bytes, str | None]:
    try:
        path = user_cache_folder() / "sitegen" / "cache-secret"
    except RuntimeError:  # no home folder to be found (a container's user of no name, HOME unset)
        return os.urandom(SECRET_BYTES), "no home folder and no XDG_CACHE_HOME"
    if (secret := _stored_secret(path)) is not None:
        return secret, None
    why = f"{path.parent}: it could not be read back"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".cache-secret.")  # readable by this user only
        with os.fdopen(handle, "wb") as stream:
            stream.write(os.urandom(SECRET_BYTES))
        try:
            os.link(temporary, path)  # never over a key another process stored first
        except FileExistsError:
            if _stored_secret(path) is None:  # a damaged key file
                os.replace(temporary, path)
        except OSError:  # a file system without hard links
            os.replace(temporary, path)
        finally:
            Path(temporary).unlink(missing_ok=True)
    except OSError as error:
        text = error.strerror or str(error)
        why = f"{path.parent}: {text[:1].lower()}{text[1:]}"
    secret = _stored_secret(path)
    return (secret, None) if secret is not None else (os.urandom(SECRET_BYTES), why)


def _stored_secret(path: Path) -> bytes | None:
    try:
        secret = path.read_bytes()
    except OSError:
        return None
    return secret if len(secret) == SECRET_BYTES else None


def user_cache_folder() -> Path:
    """Where this user's caches live: %LOCALAPPDATA% on Windows, $XDG_CACHE_HOME or ~/.cache elsewhere."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def problem_data(problem: Problem) -> list:
    where = problem.location
    return [problem.message, where.path if where else None, where.line if where else None, where.column if where else None, problem.warning, problem.note]


def problem_from(data: list) -> Problem:
    message, path, line, column, warning, *note = data
    return Problem(message, Location(path, line, column) if path is not None else None, bool(warning), bool(note and note[0]))


def _state_data(state: BuildState) -> dict:
    return {
        "inputs": state.inputs,
        "listed_at_ns": state.listed_at_ns,
        "build_key": state.build_key,
        "output_dir": state.output_dir,
        "manifest": state.manifest,
        "folders": state.folders,
        "page_keys": state.page_keys,
        "warnings": [problem_data(p) for p in state.warnings],
        "base_path": state.base_path,
    }


def _state_from(data: dict) -> BuildState:
    """A state as data, checked field by field: anything malformed gives an empty state."""
    try:
        return BuildState(
            inputs={str(k): (int(v[0]), int(v[1]), str(v[2])) for k, v in data["inputs"].items()},
            listed_at_ns=int(data["listed_at_ns"]),
            build_key=str(data["build_key"]),
            output_dir=str(data["output_dir"]),
            manifest={str(k): (int(v[0]), int(v[1])) for k, v in data["manifest"].items()},
            folders={str(k): int(v) for k, v in data["folders"].items()},
            page_keys={str(k): str(v) for k, v in data["page_keys"].items()},
            warnings=[problem_from(p) for p in data["warnings"]],
            base_path=str(data["base_path"]),
        )
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return BuildState()
