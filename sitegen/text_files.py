"""Reading a file of the site as text: one rule and one message for every kind of file.

Every file sitegen reads as text (records in YAML, BibTeX and Markdown, site.yaml,
profile.yaml, pages, posts, news, talks, the CV, co-authors, people, a theme's
settings, translations and templates) is UTF-8, with or without a byte order
mark, and its lines end in LF, CRLF or CR alike: they are read as LF, so that a
repository checked out with CRLF (Git for Windows' core.autocrlf) builds the same
bytes as with LF (a Mac, the GitHub Actions runner), down to the ids made from a
text's hash, and a file an old Mac program saved (CR) is read as lines at all.
A file that is not UTF-8 gets one message, at the line of its first byte that is
not UTF-8, with a guess of what it is when the bytes say so:

    content/pages/ete.md:2: not UTF-8 text (it looks like Latin-1 / Windows-1252): save the file as UTF-8

Editors on Windows save Latin-1 / Windows-1252 (`é` as the one byte E9) and,
as "Unicode", UTF-16 (a byte order mark, and a NUL byte beside every ASCII
letter). A NUL byte is never in a text file, so a file holding one is not read
even when its bytes happen to be valid UTF-8, as UTF-16 without a byte order mark is.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sitegen.errors import Location, Problem

if TYPE_CHECKING:
    from sitegen.inputs import Listing

UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")  # UTF-32's begin so too
_LINE_END = re.compile(r"\r\n?")  # Windows' CRLF, classic Mac's CR (a lone LF is the one kept)
_LINE_END_BYTES = re.compile(rb"\r\n?|\n")


def decode_text(data: bytes, path: str, save_as_utf8: str = "") -> tuple[str, Problem | None]:
    """The text of a file's bytes (UTF-8, a byte order mark dropped, every line ending in LF); ("", the problem) when they are not UTF-8
    text. `path` is the file as messages name it; `save_as_utf8` is said after "save the file as UTF-8": how, in
    the programs that write files of its kind (a record reader's `Reader.save_as_utf8`)."""
    nul = data.find(b"\x00")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        start = error.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)  # the decoder counts after the mark
        return "", not_utf8(data, start if nul < 0 else min(start, nul), path, save_as_utf8)
    if nul >= 0:
        return "", not_utf8(data, nul, path, save_as_utf8)
    return (_LINE_END.sub("\n", text) if "\r" in text else text), None


def read_text(listing: Listing, path: str, save_as_utf8: str = "") -> tuple[str, Problem | None]:
    """An input file's text, read through the site's listing; ("", the problem) when it cannot be read as text."""
    try:
        data = listing.read_bytes(path)
    except OSError as error:
        return "", Problem(f"cannot read: {error.strerror or error}", Location(path))
    return decode_text(data, path, save_as_utf8)


def not_utf8(data: bytes, start: int, path: str, save_as_utf8: str = "") -> Problem:
    """The problem of a file whose bytes are not UTF-8 text from byte `start` on."""
    guess = _looks_like(data)
    line = len(_LINE_END_BYTES.findall(data, 0, start)) + 1
    said = f" (it looks like {guess})" if guess else ""
    if guess == LATIN1 and (meant := bytes([data[start]]).decode("cp1252")).isprintable():
        said = f" (it looks like {guess}: byte 0x{data[start]:02x} on this line is {meant!r} there)"  # what to look for
    how = SAVE_UTF16_AS_UTF8 if guess == UTF16 else save_as_utf8  # a reader's advice is for the older encodings
    return Problem(f"not UTF-8 text{said}: save the file as UTF-8{how}", Location(path, line))


LATIN1 = "Latin-1 / Windows-1252"
UTF16 = "UTF-16"
# Windows' programs write UTF-16 and call it "Unicode": Notepad when asked to, PowerShell 5 always with `>`, `>>` and
# Out-File; both write UTF-8 when told to (PowerShell 7 does by itself).
SAVE_UTF16_AS_UTF8 = " (in Notepad: File, Save As, Encoding UTF-8; in PowerShell, whose > writes UTF-16: | Out-File -Encoding utf8 FILE)"


def _looks_like(data: bytes) -> str | None:
    """'UTF-16', 'Latin-1 / Windows-1252', or None when the bytes suggest neither (another encoding, a binary file)."""
    if data.startswith(UTF16_BOMS) or b"\x00" in data:
        return UTF16
    try:
        data.decode("cp1252")
    except UnicodeDecodeError:
        return None  # a byte Windows-1252 leaves undefined (81, 8D, 8F, 90, 9D)
    # Latin-1 text has its accented letters one at a time between ASCII ones (`Müller`, `été`); text in an
    # encoding of two bytes a character (Shift-JIS, GBK) has runs of them.
    high = [index for index, byte in enumerate(data) if byte >= 0x80]
    runs = sum(1 for index in high if index + 1 < len(data) and data[index + 1] >= 0x80)
    return LATIN1 if runs * 2 <= len(high) else None
