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
import signal
import tempfile
import threading
from dataclasses import dataclass
from functools import partial
from typing import IO, Callable, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")
MIN_PARALLEL_ITEMS = 400
MIN_CHUNK = 4


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


def helpers_can_run() -> bool:
    """Would work handed to a forked helper run beside this process (another core, and a fork allowed)?"""
    return worker_count() >= 2 and can_fork()


class Background:
    """A call made in a forked process while this one works on (20,000 stat calls, say, or
    a helper's share of `parallel_map`); its result must be picklable.

    Where forking is not possible, or not wanted (`fork=False`), it is simply made here and now.
    """

    def __init__(self, function: Callable[..., R], *args, fork: bool = True):
        self._pid = 0
        if not fork or not helpers_can_run():
            self._outcome = _outcome_of(function, args)
            return
        self._reader, writer = os.pipe()
        self._pid = os.fork()
        if self._pid == 0:  # the child: compute, send, and leave without running any cleanup of the parent's
            try:
                with os.fdopen(writer, "wb") as stream:
                    _send(_outcome_of(function, args), stream)
            finally:
                os._exit(0)
        os.close(writer)

    def result(self):
        if self._pid:
            try:
                with os.fdopen(self._reader, "rb") as stream:
                    data = stream.read()
            except BaseException:  # Ctrl-C while waiting
                os.kill(self._pid, signal.SIGKILL)
                raise
            finally:
                os.waitpid(self._pid, 0)
                self._pid = 0
            self._outcome = pickle.loads(data) if data else (False, RuntimeError("a worker process died"))
        succeeded, value = self._outcome
        if not succeeded:
            raise value
        return value

    def stop(self) -> None:
        """The call is not wanted any more: this process failed, or was interrupted, while it ran."""
        if self._pid:
            os.close(self._reader)
            os.kill(self._pid, signal.SIGKILL)
            os.waitpid(self._pid, 0)
            self._pid = 0


def _send(outcome: tuple[bool, object], stream: IO[bytes]) -> None:
    try:
        pickle.dump(outcome, stream, pickle.HIGHEST_PROTOCOL)
    except Exception as error:  # an exception that cannot be pickled
        failure = RuntimeError(f"a worker process could not send {type(outcome[1]).__name__}: {outcome[1]} ({error})")
        pickle.dump((False, failure), stream)


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
    This process works too, beside one forked helper per other core: it does not
    idle while they work, and a process fewer copies the memory pages it touches
    (after a fork, a page is copied when touched, if only to count a reference).
    """
    if len(items) < min_items or not helpers_can_run():
        results = [function(item) for item in items]
        if done is not None:
            done(len(results))
        return results
    return _Shared(function, items, worker_count(), done).run()


class _Shared:
    """Items handed out in chunks, from a counter in shared memory, to this process and its helpers.

    A helper writes each chunk's results to a temporary file as soon as they are made (it
    neither holds them nor waits for this process to read them), and reports through a pipe.
    """

    def __init__(self, function: Callable, items: Sequence, workers: int, done: Callable[[int], None] | None):
        self.function = function
        self.items = items
        self.done = done
        self.workers = workers
        context = multiprocessing.get_context("fork")
        self.lock = context.Lock()
        self.next_start = context.RawValue("q", 0)  # guarded by `lock`, as is:
        self.finished = context.RawValue("q", 0)
        self.helpers = [self._start_helper() for _ in range(workers - 1)]

    def _start_helper(self) -> "_Helper":
        results = tempfile.TemporaryFile()
        return _Helper(Background(self._help, results), results)

    def run(self) -> list:
        try:
            made = self._work(lambda start, results: (start, results), self.done)
            while self.helpers:
                made.extend(self.helpers.pop(0).collect())
        finally:
            for helper in self.helpers:  # after an error here, or Ctrl-C: no helper is left behind
                helper.stop()
        if self.done is not None:
            self.done(len(self.items))
        results = []
        for _, chunk in sorted(made, key=lambda pair: pair[0]):
            results.extend(chunk)
        return results

    def _help(self, results: IO[bytes]) -> int:
        """A helper's share of the work, written to `results`; returns the number of chunks written."""
        chunks = len(self._work(partial(_pickle_to, results)))
        try:
            results.flush()
        except OSError as error:
            raise _temporary_file_error(error) from None
        return chunks

    def _work(self, keep: Callable[[int, list], object], done: Callable[[int], None] | None = None) -> list:
        """What `keep` makes of (start, results) of each chunk this process took."""
        made = []
        while (chunk := self._claim())[0] < len(self.items):
            start, end = chunk
            results = [self.function(item) for item in self.items[start:end]]
            made.append(keep(start, results))
            with self.lock:
                self.finished.value += len(results)
                finished = self.finished.value
            if done is not None:
                done(finished)
        return made

    def _claim(self) -> tuple[int, int]:
        """The next chunk: large at first, smaller and smaller towards the end, so that all finish together."""
        with self.lock:
            start = self.next_start.value
            size = max(MIN_CHUNK, (len(self.items) - start) // (self.workers * 8))
            self.next_start.value = start + size
        return start, start + size


@dataclass
class _Helper:
    work: Background  # its share of the work: `_Shared._help`
    results: IO[bytes]  # the file it writes its chunks' results to

    def collect(self) -> list[tuple[int, list]]:
        """Wait for the helper; its (start, results) chunks, or its error raised here."""
        with self.results:
            chunks = self.work.result()
            self.results.seek(0)
            return [pickle.load(self.results) for _ in range(chunks)]

    def stop(self) -> None:
        """For a helper not collected: this process failed, or was interrupted, while it worked."""
        self.work.stop()
        self.results.close()


def _pickle_to(file: IO[bytes], start: int, results: list) -> None:
    try:
        pickle.dump((start, results), file, pickle.HIGHEST_PROTOCOL)
    except OSError as error:
        raise _temporary_file_error(error) from None
    except Exception as error:  # a result that cannot be pickled
        raise RuntimeError(f"a worker process could not send its results ({error})") from None


def _temporary_file_error(error: OSError) -> OSError:
    """A full disk, say: said as the command line says any file it cannot write."""
    where = tempfile.gettempdir()
    return OSError(error.errno, f"a worker process could not write its results to a temporary file in {where}: {error.strerror} (set TMPDIR to a folder with room)")
