"""The files a build reads, listed inside the site's jail.

Every input is a file under one of the site's input folders (`content/`,
`templates/`, `static/`, `themes/`) or a bundled theme's file. A symbolic link
is followed only when it resolves inside the site folder: one that leaves it
(`static/env.txt -> /proc/self/environ`) is refused with a warning naming the
link and its target, and nothing of it is read, copied or printed. This is the
rule of Jekyll's safe mode, which GitHub Pages builds with.

The listing gives each file's size and modification time; `Fingerprints` turns
them into content digests, reading a file again only when its stat changed or
is too recent to trust (an edit within the file system's timestamp resolution of
the last listing keeps size and mtime: git's "racy clean" case).
"""

from __future__ import annotations

import bisect
import dataclasses
import hashlib
import os
import re
import stat
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from sitegen.errors import Location, Problem
from sitegen.urls import WINDOWS_DEVICE_NAME

INPUT_FOLDERS = ("content", "templates", "static", "themes")
BUNDLED_THEMES = Path(__file__).parent / "themes"
BUNDLED_PREFIX = "<sitegen>/themes/"
# a file modified this close to (or after) the listing that recorded it may change again
# without its size or mtime changing: its content is compared instead
RACY_NANOSECONDS = 2_000_000_000

FileStat = tuple[int, int]  # (size, mtime_ns)
LAST_CHARACTER = chr(0x10FFFF)  # every path that starts with a prefix sorts before the prefix and this


@dataclass
class Listing:
    """Every input file of a site, by the path messages use ('content/site.yaml')."""

    site_dir: Path
    files: dict[str, FileStat] = field(default_factory=dict)
    real_paths: dict[str, str] = field(default_factory=dict)  # path -> the file to open (links resolved)
    folders: dict[str, int] = field(default_factory=dict)  # every folder of the site walked (its real path) -> its inode
    shown: dict[str, str | None] = field(default_factory=dict)  # real path of a folder walked -> its input path (None: walked under two)
    warnings: list[Problem] = field(default_factory=list)
    listed_at_ns: int = 0
    _names: list[str] | None = field(default=None, init=False, repr=False, compare=False)  # `files` sorted, once listed

    def path_of(self, name: str) -> Path:
        """The file to read for an input path (a link inside the site resolved)."""
        return Path(self._file_of(name))

    def _file_of(self, name: str) -> str:
        if name in self.real_paths:
            return self.real_paths[name]
        if name.startswith(BUNDLED_PREFIX):
            return os.path.join(BUNDLED_THEMES, name[len(BUNDLED_PREFIX) :])
        return os.path.join(self.site_dir, name)

    def under(self, prefix: str) -> list[str]:
        """The input paths that start with `prefix`, sorted (a listing is not changed once made)."""
        if self._names is None:
            self._names = sorted(self.files)
        return self._names[bisect.bisect_left(self._names, prefix) : bisect.bisect_left(self._names, prefix + LAST_CHARACTER)]

    def read_bytes(self, name: str) -> bytes:
        with open(self._file_of(name), "rb") as file:  # a plain path: a site has thousands of inputs to read
            return file.read()


def list_inputs(site_dir: Path) -> Listing:
    """Every input file of the site and of the bundled themes; links leaving the site refused."""
    site_dir = Path(site_dir)
    listing = Listing(site_dir, listed_at_ns=time.time_ns())
    try:
        jail = os.path.realpath(site_dir)
    except OSError:
        return listing
    for folder in INPUT_FOLDERS:
        _walk(listing, os.path.join(site_dir, folder), f"{folder}/", jail)
    _walk(listing, str(BUNDLED_THEMES), BUNDLED_PREFIX, None)
    return listing


def _walk(listing: Listing, root: str, prefix: str, jail: str | None) -> None:
    """Add the files under `root`; with a `jail`, links must resolve inside it."""
    seen_folders: set[str] = set()
    pending = [(root, prefix.rstrip("/"))]
    while pending:
        folder, shown = pending.pop()
        real = os.path.realpath(folder)
        if jail is not None and not _inside(real, jail):
            if os.path.lexists(folder):
                _refuse(listing, shown, real)
            continue
        if real in seen_folders:
            continue  # a link back up the tree
        seen_folders.add(real)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
            if jail is not None:
                listing.folders[real] = os.stat(real).st_ino
                listing.shown[real] = shown if listing.shown.get(real, shown) == shown else None
        except OSError:
            continue
        for entry in entries:
            if _hidden(entry.name):
                continue
            name = f"{shown}/{entry.name}"
            try:
                _add_entry(listing, entry, name, jail, pending)
            except OSError:
                continue  # vanished while listed, or a dangling link: not an input


def listing_with_changes(listing: Listing, reported: Iterable[str]) -> Listing | None:
    """`listing` brought up to date by looking again at the paths the file system reported changed since it was made.

    What the dev server lists after an edit, instead of every input file again. A
    reported path is a file's real path in a folder the listing walked; each is looked
    at as it is now (so one reported twice, or before `listing` was made, is no harm).
    None when only a whole listing can tell: a folder, a link or a special file made or
    removed, an input folder appearing, a listing that holds links or refused links,
    or a folder walked under two names. The time of the listing stays `listing`'s: a
    file not looked at again is known as of then (see `Fingerprints`).
    """
    if listing.real_paths or listing.warnings:
        return None
    updated = dataclasses.replace(listing, files=dict(listing.files))
    site = os.path.realpath(listing.site_dir)
    for path in reported:
        folder, name = os.path.split(path)
        if _hidden(name):
            continue
        if folder == site:
            if name in INPUT_FOLDERS:
                return None
            continue  # output/, the build cache: not inputs
        shown = listing.shown.get(folder)
        if shown is None:
            return None
        input_path = f"{shown}/{name}"
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            updated.files.pop(input_path, None)
            if input_path in listing.shown.values():
                return None  # a folder removed
            continue
        if not stat.S_ISREG(info.st_mode):
            return None
        updated.files[input_path] = (info.st_size, info.st_mtime_ns)
    return updated


# What Windows and Office write into a folder by themselves, in any case: Explorer's thumbnail caches (pictures of
# every picture of the folder, deleted ones too) and folder settings.
_WRITTEN_BY_WINDOWS = frozenset({"thumbs.db", "ehthumbs.db", "ehthumbs_vista.db", "desktop.ini"})


def _hidden(name: str) -> bool:
    """Not an input, as for Jekyll and Hugo: a hidden file (.git, an editor's .#x.yaml lock or Vim's .x.yaml.swp),
    Emacs' #x.yaml# while it edits, and a backup left by Emacs, Vim, nano or gedit, x.yaml~. Nor what Windows
    and Office leave beside the user's files, which Git for Windows commits unless told not to: Explorer's
    Thumbs.db and desktop.ini, and Word's, Excel's and PowerPoint's ~$x.docx while x.docx is open (the owner's
    name in it)."""
    return name.startswith((".", "#", "~$")) or name.endswith("~") or name.lower() in _WRITTEN_BY_WINDOWS


def names_windows_cannot_hold(listing: Listing) -> list[Problem]:
    """A warning for each input file of the site that a clone on Windows cannot hold: Git for Windows stops at a
    name Windows keeps for a device or one ending in '.' or ' ' ('invalid path'), and of two paths that differ only
    in case (one file there, and on macOS) it checks out one, the other's content gone from builds made there. A
    co-author's Mac, or Linux, makes such files without a word; the GitHub Actions runner builds them. Every path is
    looked at in a few passes over them all joined, each path alone only when one of those finds something."""
    paths = [path for path in listing.files if not path.startswith(BUNDLED_PREFIX)]
    joined = "\n".join(paths) + "\n"
    lowered = joined.lower()
    problems = []
    if _DEVICE_NAME.search(lowered) or _FORBIDDEN_CHARACTER.search(joined) or any(end in joined for end in (" /", "./", " \n", ".\n")):
        for path in sorted(paths):
            if why := next((why for name in path.split("/") if (why := _why_windows_cannot_hold(name))), None):
                message = (
                    f"Windows cannot hold a file of this name ({why}): Git for Windows cannot check it out (invalid path), so a clone there stops: rename it"
                )
                problems.append(Problem(message, Location(path), warning=True))
    if lowered != joined and len(set(lowered.split("\n"))) != len(paths) + 1:  # the '' after the last '\n' too
        first: dict[str, str] = {}
        for path in sorted(paths, key=lambda path: (path.lower(), path)):
            if (other := first.setdefault(path.lower(), path)) != path:
                message = f"it and {path} differ only in case: one file on Windows and macOS, where a clone keeps one of them: rename one, or put what they hold into one"
                problems.append(Problem(message, Location(other), warning=True))
    return sorted(problems, key=lambda problem: str(problem.location))


# in the paths in lower case, each ended by '\n': a name Windows keeps for a device, with any extension (urls.WINDOWS_DEVICE_NAME)
_DEVICE_NAME = re.compile(r"/(?:con|prn|aux|nul|com[0-9]|lpt[0-9])[./\n]")
_FORBIDDEN_CHARACTER = re.compile('[<>:"\\\\|?*\x00-\x09\x0b-\x1f]')  # '\n' ends each path joined; '/' parts it


def _why_windows_cannot_hold(name: str) -> str | None:
    """Why no file or folder on Windows can have this name, if none can."""
    if WINDOWS_DEVICE_NAME.match(name):
        return "CON, PRN, AUX, NUL, COM0-9 and LPT0-9 are device names there, with any extension"
    if name.endswith((".", " ")):
        return "it drops a final space or '.'"
    if _FORBIDDEN_CHARACTER.search(name) or "\n" in name:
        return 'no name there holds < > : " / \\ | ? * or a control character'
    return None


def _add_entry(listing: Listing, entry: os.DirEntry, name: str, jail: str | None, pending: list) -> None:
    if entry.is_symlink():
        target = os.path.realpath(entry.path)
        if jail is not None and not _inside(target, jail):
            _refuse(listing, name, target)
            return
        info = os.stat(entry.path)
        if stat.S_ISDIR(info.st_mode):
            pending.append((entry.path, name))
        elif stat.S_ISREG(info.st_mode):
            listing.files[name] = (info.st_size, info.st_mtime_ns)
            listing.real_paths[name] = target
        return
    if entry.is_dir(follow_symlinks=False):
        pending.append((entry.path, name))
    elif entry.is_file(follow_symlinks=False):
        info = entry.stat(follow_symlinks=False)
        listing.files[name] = (info.st_size, info.st_mtime_ns)


def _inside(path: str, jail: str) -> bool:
    return path == jail or path.startswith(jail.rstrip(os.sep) + os.sep)


def _refuse(listing: Listing, name: str, target: str) -> None:
    listing.warnings.append(
        Problem(
            f"symbolic link to {target} leaves the site folder: not read, not published",
            Location(name),
            warning=True,
        )
    )


def file_digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass
class Fingerprints:
    """The content digest of every input file, worked out from the last build's where safe.

    `known` maps a path to the (size, mtime_ns, digest) a previous listing found, and
    `known_at_ns` is when that listing was made: a file whose stat is unchanged and whose
    mtime is safely older than that listing keeps its digest; any other is read.
    """

    known: dict[str, tuple[int, int, str]] = field(default_factory=dict)
    known_at_ns: int = 0

    def of(self, listing: Listing) -> dict[str, tuple[int, int, str]]:
        digests: dict[str, tuple[int, int, str]] = {}
        for name, (size, mtime) in listing.files.items():
            known = self.known.get(name)
            if known is not None and known[0] == size and known[1] == mtime and mtime + RACY_NANOSECONDS < self.known_at_ns:
                digests[name] = known
                continue
            try:
                digests[name] = (size, mtime, file_digest(listing.read_bytes(name)))
            except OSError:
                digests[name] = (size, mtime, "")  # unreadable now: reported by the stage that reads it
        return digests
