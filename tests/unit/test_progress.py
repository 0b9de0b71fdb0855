"""The progress line: redrawn in place on a terminal that can, plain lines everywhere else (a log, TERM=dumb)."""

from __future__ import annotations

import io

import pytest

from sitegen.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def shown(stream: io.StringIO) -> str:
    progress = Progress(stream)
    progress.status("loading 3 input files")
    progress.line("page 1 of 2")
    progress.note("kept")
    progress.done()
    return stream.getvalue()


def test_a_terminal_redraws_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    assert shown(Terminal()) == "\r\x1b[2Kloading 3 input files\r\x1b[2Kpage 1 of 2\r\x1b[2Kkept\n"


@pytest.mark.parametrize("stream, term", [(Terminal(), "dumb"), (io.StringIO(), "xterm")])
def test_a_dumb_terminal_or_a_log_gets_plain_lines_and_no_escape_code(monkeypatch: pytest.MonkeyPatch, stream: io.StringIO, term: str) -> None:
    monkeypatch.setenv("TERM", term)
    assert shown(stream) == "page 1 of 2\nkept\n"
