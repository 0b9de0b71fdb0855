"""Per-record pieces of output (and the template environment), made once and, in the dev server, kept from build to build.

Whole-site files and list pages are joined from pieces that each depend on one
record only: its list item, its BibTeX, RIS and records.json entries, its entry
in people's feeds. A piece is keyed as its record's own page is (the site-wide
key, the entry's key and cite key, its slug: see render.render_site), so a piece
kept from an earlier build is the piece this build would make.

A one-off build (`sitegen build`, `check`) starts with an empty store and keeps
only the pieces that several pages show (a list item is on the profile and on
each of its subjects' pages). The dev server hands the same store to every
build, which keeps every piece: after an edit, only the pieces of the records
it changed are made again. The template environment, with the templates it
has compiled, is kept the same way: the site-wide key covers every template,
theme setting and translation file. So is a value a page kind makes from the
whole site under a key of everything it reads (`value`: the people directory's
attribution, which a title or abstract edit leaves as it was).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sitegen.model import Entry

Piece = TypeVar("Piece")
_MISSING = object()


class Fragments:
    def __init__(self, keep_between_builds: bool = False) -> None:
        self.keep_between_builds = keep_between_builds
        self._site_key: str | None = None
        self._kept: dict[tuple[str, str, str, str], object] = {}  # the last build's pieces
        self._made: dict[tuple[str, str, str, str], object] = {}  # this build's
        self._environment: object = None  # the template environment of the site-wide key
        self._values: dict[str, tuple[str, object]] = {}  # name -> (key of what it was made from, the value)

    def start(self, site_key: str) -> None:
        """A build begins: the last build's pieces stay if every page's site-wide key is the same, the rest go."""
        if site_key != self._site_key or not self.keep_between_builds:
            self._kept = {}
            self._environment = None
            self._values = {}
        elif self._made:  # else the last build failed before it asked for any piece: the one before's stay
            self._kept = self._made
        self._made = {}
        self._site_key = site_key

    def get(self, kind: str, entry: Entry, make: Callable[[Entry], Piece], shared: bool = True) -> Piece:
        """The piece `kind` of this record, `make(entry)` unless it was made; `shared=False`: the build asks
        for it once (the record's RIS), so a one-off build does not hold it."""
        key = (kind, entry.key, entry.cite_key, entry.slug)
        piece = self._made.get(key, _MISSING)
        if piece is _MISSING:
            piece = self._kept.pop(key, _MISSING)
            if piece is _MISSING:
                piece = make(entry)
            if shared or self.keep_between_builds:
                self._made[key] = piece
        return piece  # type: ignore[return-value]

    def value(self, name: str, key_of: Callable[[], str], make: Callable[[], Piece]) -> Piece:
        """The value `name` made from the whole site: in the dev server, the last build's if it was made from the same
        key (`key_of()`: of everything `make` reads) under the same site-wide key, else `make()`. A one-off build
        asks for it once, and neither works out the key nor keeps the value."""
        if not self.keep_between_builds:
            return make()
        key = key_of()
        kept = self._values.get(name)
        if kept is not None and kept[0] == key:
            return kept[1]  # type: ignore[return-value]
        made = make()
        self._values[name] = (key, made)
        return made

    def environment(self, make: Callable[[], Piece]) -> Piece:
        """The template environment, `make()` unless this site-wide key has one."""
        if self._environment is None:
            self._environment = make()
        return self._environment  # type: ignore[return-value]
