"""`parallel_map`: a function over many items, on every core.

Workers are forked, so they start with everything this process holds (the
site, the templates, the items themselves): only the results travel back.
Where fork is not available, or there is one core, the map runs here.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

_work: tuple[Callable, Sequence] | None = None  # what forked workers read (inherited, never pickled)


def worker_count() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def can_fork() -> bool:
    return sys.platform != "win32" and "fork" in multiprocessing.get_all_start_methods()


def parallel_map(function: Callable[[T], R], items: Sequence[T], workers: int | None = None) -> list[R]:
    """`[function(item) for item in items]`, in order, split over forked workers."""
    workers = min(workers or worker_count(), len(items))
    if workers < 2 or not can_fork():
        return [function(item) for item in items]
    global _work
    _work = (function, items)
    try:
        chunk = max(1, len(items) // (workers * 8))
        spans = [(start, min(start + chunk, len(items))) for start in range(0, len(items), chunk)]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.map(_run_span, spans, chunksize=1)
    finally:
        _work = None
    return [result for span in results for result in span]


def _run_span(span: tuple[int, int]) -> list:
    assert _work is not None
    function, items = _work
    return [function(items[index]) for index in range(*span)]
