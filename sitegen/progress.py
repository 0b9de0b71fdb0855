"""The one progress line of every command: what `sitegen build` and `sitegen fetch` are doing.

On a terminal it is one line, redrawn in place and cleared at the end; elsewhere (a log,
a CI job, a terminal that declares itself `TERM=dumb`, such as Emacs' shell, which shows
escape codes as text) only the steps worth keeping are written, one line each. sitegen
writes no colour, so `NO_COLOR` has nothing to turn off.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO


def live_terminal(stream: TextIO) -> bool:
    """A terminal that can redraw a line in place (`\r` and the escape code that clears the line)."""
    return stream.isatty() and os.environ.get("TERM", "") != "dumb"


class Progress:
    """One updating line on a terminal; plain lines (one per step worth keeping) otherwise."""

    def __init__(self, stream: TextIO | None = None, tty: bool | None = None):
        self.stream = stream or sys.stderr
        self.tty = live_terminal(self.stream) if tty is None else tty
        self._open_line = False

    def status(self, text: str) -> None:
        """A transient state: replaces the terminal line; not shown in logs."""
        if self.tty:
            self.stream.write("\r\x1b[2K" + text)
            self.stream.flush()
            self._open_line = True

    def line(self, text: str) -> None:
        """A step worth keeping in a log (a page, a retry)."""
        if self.tty:
            self.status(text)
        else:
            self.stream.write(text + "\n")
            self.stream.flush()

    def note(self, text: str) -> None:
        """A message that must stay visible, on terminals too."""
        self.done()
        self.stream.write(text + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self._open_line:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self._open_line = False
