"""Work spread over processes gives the same answers as work done in place."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sitegen.parallel import Background, helpers_can_run, parallel_map, worker_count


def square(number: int) -> int:
    return number * number


def test_parallel_map_keeps_order_and_values() -> None:
    numbers = list(range(1000))
    assert parallel_map(square, numbers, min_items=1) == [n * n for n in numbers]


def test_background_returns_what_the_call_returns_from_another_process() -> None:
    if helpers_can_run():  # not while another test left a thread running
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


# -- in a fresh process: pytest's own runs threads and servers left by other tests, and parallel_map
# -- does not fork in a process with threads (nor could "no child is left" be told there)

HERE = Path(__file__).resolve().parent
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


CASES = {f.__name__: f for f in (pid_of, fail_in_helper, fail_here, die_in_helper, unpicklable_error, unpicklable_result)}


def report(name: str) -> None:
    """Run in the fresh process: one call of parallel_map, and what came of it, as JSON."""
    global PARENT
    PARENT = os.getpid()
    counts: list[int] = []
    outcome: dict = {"parent": PARENT, "forks": helpers_can_run()}
    try:
        outcome["results"] = parallel_map(CASES[name], ITEMS, min_items=1, done=counts.append)
    except Exception as error:
        outcome["error"] = f"{type(error).__name__}: {error}"
    outcome["counts"] = counts
    try:
        os.waitpid(-1, os.WNOHANG)
        outcome["children_left"] = True
    except ChildProcessError:
        outcome["children_left"] = False
    print(json.dumps(outcome))


def run_case(name: str) -> dict:
    code = f"import sys; sys.path.insert(0, {str(HERE)!r}); import test_parallel; test_parallel.report({name!r})"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    if not outcome["forks"]:
        pytest.skip("one core: nothing is forked")
    return outcome


def test_the_calling_process_works_beside_its_helpers_and_tells_how_far_they_got() -> None:
    outcome = run_case("pid_of")
    pids = set(outcome["results"])
    assert outcome["parent"] in pids and len(pids) == worker_count()
    assert outcome["counts"] == sorted(outcome["counts"]) and outcome["counts"][-1] == len(ITEMS)
    assert not outcome["children_left"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("fail_in_helper", r"^ValueError: item \d+ failed in a helper$"),
        ("fail_here", "^ValueError: failed in the calling process$"),
        ("die_in_helper", "^RuntimeError: a worker process died$"),
        ("unpicklable_result", "^RuntimeError: a worker process could not send its results"),
        ("unpicklable_error", "^RuntimeError: a worker process could not send ValueError: .*unpicklable"),
    ],
)
def test_an_error_anywhere_reaches_the_caller_and_no_helper_is_left(name: str, message: str) -> None:
    outcome = run_case(name)
    assert re.search(message, outcome.get("error", "")), outcome.get("error")
    assert not outcome["children_left"]
