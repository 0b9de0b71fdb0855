"""Work spread over processes gives the same answers as work done in place."""

from __future__ import annotations

import os
import time

import pytest

from sitegen.parallel import Background, can_fork, parallel_map, worker_count


def square(number: int) -> int:
    return number * number


def test_parallel_map_keeps_order_and_values() -> None:
    numbers = list(range(1000))
    assert parallel_map(square, numbers, min_items=1) == [n * n for n in numbers]


def test_background_returns_what_the_call_returns_from_another_process() -> None:
    if worker_count() >= 2 and can_fork():  # not while another test left a thread running
        assert Background(os.getpid).result() != os.getpid()
    assert Background(sorted, [3, 1, 2]).result() == [1, 2, 3]
    assert Background(os.getpid, fork=False).result() == os.getpid()


def test_background_hands_over_the_error() -> None:
    with pytest.raises(ZeroDivisionError):
        Background(divmod, 1, 0).result()


def test_parallel_map_tells_how_far_it_got() -> None:
    counts: list[int] = []
    assert parallel_map(square, list(range(800)), min_items=1, done=counts.append) == [n * n for n in range(800)]
    assert counts == sorted(counts) and counts[-1] == 800


PARENT = os.getpid()
ITEMS = list(range(200))  # at 2 ms each: every process gets some (a fork takes a few milliseconds)


def pid_of(_: int) -> int:
    time.sleep(0.002)
    return os.getpid()


def fail_in_helper(number: int) -> int:
    if pid_of(number) != PARENT:
        raise ValueError(f"item {number} failed in a helper")
    return number


def fail_here(number: int) -> int:
    if pid_of(number) == PARENT:
        raise ValueError("failed in the calling process")
    return number


def die_in_helper(number: int) -> int:
    if pid_of(number) != PARENT:
        os._exit(3)
    return number


def unpicklable_error(number: int) -> int:
    if pid_of(number) != PARENT:
        raise ValueError("unpicklable", lambda: number)
    return number


def unpicklable_result(number: int):
    return (lambda: number) if pid_of(number) != PARENT else number


needs_fork = pytest.mark.skipif(worker_count() < 2 or not can_fork(), reason="one core, or threads running: nothing is forked")


def no_child_left() -> bool:
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@needs_fork
def test_the_calling_process_works_beside_its_helpers() -> None:
    global PARENT
    PARENT = os.getpid()  # under pytest-xdist, the worker's own
    pids = set(parallel_map(pid_of, ITEMS, min_items=1))
    assert PARENT in pids and len(pids) == worker_count()
    assert no_child_left()


@needs_fork
@pytest.mark.parametrize(
    ("function", "error", "message"),
    [
        (fail_in_helper, ValueError, "failed in a helper"),
        (fail_here, ValueError, "failed in the calling process"),
        (die_in_helper, RuntimeError, "a worker process died"),
        (unpicklable_result, RuntimeError, "could not send its results"),
        (unpicklable_error, RuntimeError, "could not send ValueError: .*unpicklable"),
    ],
)
def test_an_error_anywhere_reaches_the_caller_and_no_helper_is_left(function, error, message) -> None:
    global PARENT
    PARENT = os.getpid()
    with pytest.raises(error, match=message):
        parallel_map(function, ITEMS, min_items=1)
    assert no_child_left()
