"""Spread independent work (one record, one page) over the machine's cores.

Worker processes are forked, so they start in a few milliseconds with the
parent's data already in memory. Forking is skipped for small batches, on one
core, and in a process that runs other threads, where a fork could inherit a
lock another thread holds. (The dev server runs one event loop on one thread,
so its large rebuilds may fork too; the workers only compute and return.)
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")
MIN_PARALLEL_ITEMS = 400


def worker_count() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def can_fork() -> bool:
    """Only a process with one thread forks: the child gets no copy of the others, so a lock one
    of them held would stay locked in it. On Linux the kernel's count is asked, which also sees
    threads started outside `threading` (Python 3.12 warns about those, too)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:  # no /proc
        return threading.active_count() == 1


class Background:
    """A call that waits on the disk (20,000 stat calls, say), made in a forked
    process while this one works on; its result must be picklable.

    Where forking is not possible, or not wanted (`fork=False`), it is simply made here and now.
    """

    def __init__(self, function: Callable[..., R], *args, fork: bool = True):
        self._pid = 0
        if not fork or not can_fork() or worker_count() < 2:
            self._outcome = _outcome_of(function, args)
            return
        self._reader, writer = os.pipe()
        self._pid = os.fork()
        if self._pid == 0:  # the child: compute, send, and leave without running any cleanup of the parent's
            try:
                with os.fdopen(writer, "wb") as stream:
                    pickle.dump(_outcome_of(function, args), stream)
            finally:
                os._exit(0)
        os.close(writer)

    def result(self):
        if self._pid:
            with os.fdopen(self._reader, "rb") as stream:
                data = stream.read()
            os.waitpid(self._pid, 0)
            self._pid = 0
            self._outcome = pickle.loads(data) if data else (False, RuntimeError("a background process died"))
        succeeded, value = self._outcome
        if not succeeded:
            raise value
        return value


def _outcome_of(function: Callable, args: tuple) -> tuple[bool, object]:
    try:
        return True, function(*args)
    except Exception as error:  # handed to whoever asks for the result
        return False, error


def parallel_map(
    function: Callable[[T], R], items: Sequence[T], min_items: int = MIN_PARALLEL_ITEMS, done: Callable[[int], None] | None = None
) -> list[R]:
    """`[function(x) for x in items]`, in order, on every core when it pays off.

    `done`, if given, is told now and then how many items are finished.
    """
    workers = worker_count()
    if len(items) < min_items or workers < 2 or not can_fork():
        results = [function(item) for item in items]
        if done is not None:
            done(len(results))
        return results
    chunk = max(16, len(items) // (workers * 8))
    global _JOB
    _JOB = (function, items)  # forked workers inherit it: only indices and results are pickled
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = []
            for result in pool.imap(_run_one, range(len(items)), chunksize=chunk):
                results.append(result)
                if done is not None and len(results) % chunk == 0:
                    done(len(results))
            return results
    finally:
        _JOB = None


_JOB: tuple[Callable, Sequence] | None = None


def _run_one(index: int):
    function, items = _JOB
    return function(items[index])
