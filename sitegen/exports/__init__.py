"""Machine-readable outputs: BibTeX, Atom, JSON, JSON-LD, sitemap. Each is pure: Site in, text out."""

from collections.abc import Iterable


def joined(pieces: Iterable[bytes]) -> bytearray:
    """Pieces made one at a time, joined as they come.

    `b"".join` of a generator first lists every piece, so a whole-site file
    (records.json, publications.ris: tens of megabytes at 10,000 records) would be
    held twice, as its pieces and as itself; the write stage takes any bytes-like
    value.
    """
    out = bytearray()
    for piece in pieces:
        out += piece
    return out
