"""Machine-readable outputs: BibTeX, Atom, JSON, JSON-LD, sitemap. Each is pure: Site in, text out."""

import re
from collections.abc import Iterable

_PAGE_RANGE = re.compile(r"\s*[-–—]+\s*")


def page_range(pages: str) -> tuple[str, str]:
    """'549--560', '549–560' -> ('549', '560'); 'e123' -> ('e123', ''); 'A-1--A-9', which no one
    reading can split for sure, -> ('A-1--A-9', '')."""
    parts = _PAGE_RANGE.split(pages.strip())
    return (parts[0], parts[1]) if len(parts) == 2 else (pages.strip(), "")


def joined(pieces: Iterable[bytes], separator: bytes = b"", head: bytes = b"", tail: bytes = b"") -> bytearray:
    """`head`, the pieces (made one at a time) with `separator` between them, and `tail`, joined as they come.

    `b"".join` of a generator first lists every piece, so a whole-site file
    (records.json, publications.ris, publications.bib: megabytes at 10,000 records)
    would be held twice, as its pieces and as itself; the write stage takes any
    bytes-like value.
    """
    out = bytearray(head)
    between = b""
    for piece in pieces:
        out += between
        out += piece
        between = separator
    out += tail
    return out
