"""Work spread over processes gives the same answers as work done in place."""

from __future__ import annotations

import os

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
