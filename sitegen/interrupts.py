"""Ctrl-C and SIGTERM held back while a few renames must happen together.

A build that renames its new files over the old ones, or removes the files it
no longer makes, must not stop halfway: output/ would hold some pages of the new
site beside pages of the old. `held()` keeps SIGINT and SIGTERM for the end of
its block and then lets them have the effect they would have had, once (Ctrl-C:
KeyboardInterrupt; SIGTERM: whatever its handler does). Blocks may nest: the
signals go on when the outermost ends. Outside the main thread, where Python
cannot set a handler, nothing is held.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM (`kill`, a CI job cancelled, `docker stop`), handled as Ctrl-C is, but told apart from it: the
    command says "terminated" and exits 143 (128 + SIGTERM), not 130."""


_HELD = (signal.SIGINT, signal.SIGTERM)
_depth = 0
_received: list[int] = []
_previous: dict[int, Any] = {}


def _hold(number: int, _frame: object) -> None:
    if number not in _received:
        _received.append(number)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """SIGINT and SIGTERM that arrive within the block take effect as it ends (see the module's text)."""
    global _depth
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if _depth == 0:
        _received.clear()
        for held_signal in _HELD:
            _previous[held_signal] = signal.signal(held_signal, _hold)
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0:
            for held_signal in _HELD:
                signal.signal(held_signal, _previous.pop(held_signal))
            received, _received[:] = list(_received), []
            for number in received:
                signal.raise_signal(number)  # now handled as it would have been: KeyboardInterrupt, Terminated, ...
