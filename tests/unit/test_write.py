"""The write stage: a new folder made by forked workers equals one made by this process, and a failure leaves output/ as it was."""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import time
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import given, settings

from sitegen import write
from sitegen.errors import ContentError, Problem

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")


def makers(
    count: int, failing: int | None = None, kill_worker: bool = False, interrupt_flag: Path | None = None, makers_log: Path | None = None
) -> list[write.Maker]:
    """`count` pages; `failing` raises wherever it is made; a page made in a forked worker kills that worker
    (`kill_worker`), or the first one sends Ctrl-C to the building process (`interrupt_flag` marks it sent)."""
    building = os.getpid()

    def make(index: int) -> bytes:
        if makers_log is not None:
            with open(makers_log, "a") as log:
                log.write(f"{os.getpid()}\n")
        if index == failing:
            raise ContentError(Problem(f"page {index} does not render"))
        if os.getpid() != building and kill_worker:
            os.kill(os.getpid(), signal.SIGKILL)
        if os.getpid() != building and interrupt_flag is not None and _first_to_create(interrupt_flag):
            os.kill(building, signal.SIGINT)  # Ctrl-C reaches the building process while the workers make its pages
            time.sleep(0.5)
        return f"<p>page {index}</p>\n".encode() * (index % 7 + 1)

    return [(f"{index % 5}/{index}/index.html", lambda index=index: make(index)) for index in sorted(range(count), key=lambda i: (i % 5, str(i)))]


def _first_to_create(flag: Path) -> bool:
    try:
        os.close(os.open(flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def tree(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


@pytest.fixture
def small_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(write, "FILES_WORTH_WORKERS", 10)
    monkeypatch.setattr(write, "SPAN", 4)


def test_workers_make_the_same_folder_as_one_process(tmp_path: Path, small_threshold: None) -> None:
    alone = write.write_output(makers(101), tmp_path / "alone", set(), None, workers=1)
    shared = write.write_output(makers(101, makers_log=tmp_path / "makers.log"), tmp_path / "shared", set(), None, workers=3)
    assert tree(tmp_path / "shared") == tree(tmp_path / "alone")
    assert list(shared) == list(alone)  # the manifest in the files' order, whoever made them
    assert {name: size for name, (size, _) in shared.items()} == {name: size for name, (size, _) in alone.items()}
    for name, (size, mtime_ns) in shared.items():
        stat = (tmp_path / "shared" / name).stat()
        assert (stat.st_size, stat.st_mtime_ns) == (size, mtime_ns)
    made_by = set((tmp_path / "makers.log").read_text().split())
    assert str(os.getpid()) in made_by  # the building process takes a share itself: it does not only wait
    assert len(made_by) >= 2


def test_the_files_made_together_are_one_forked_workers_in_their_order(tmp_path: Path, small_threshold: None) -> None:
    """`together`: the lists and exports of every record (render.making_order) are made by one process, which then
    makes each record's list item once; a forked worker takes them while the building process makes the rest."""
    log = tmp_path / "made.log"

    def make(index: int) -> bytes:
        with open(log, "a") as made:
            made.write(f"{os.getpid()} {index}\n")
        return f"<p>page {index}</p>\n".encode()

    files: list[write.Maker] = [(f"{index}/index.html", lambda index=index: make(index)) for index in range(60)]
    manifest = write.write_output(files, tmp_path / "out", set(), None, workers=2, together=12)
    assert list(manifest) == [name for name, _ in files]
    assert tree(tmp_path / "out") == {f"{index}/index.html": f"<p>page {index}</p>\n".encode() for index in range(60)}
    made = [line.split() for line in log.read_text().splitlines()]
    makers_of_the_first = {pid for pid, index in made if int(index) < 12}
    assert len(makers_of_the_first) == 1
    assert makers_of_the_first != {str(os.getpid())}
    assert [int(index) for pid, index in made if pid in makers_of_the_first][:12] == list(range(12))
    assert str(os.getpid()) in {pid for pid, _ in made}  # the building process made the rest meanwhile


class WatchedBytes(bytearray):
    """A file's bytes whose letting go a test can see (bytes cannot be weakly referenced; a bytearray subclass can)."""


@pytest.mark.parametrize("previous", [False, True], ids=["new folder", "in place"])
def test_a_files_bytes_are_let_go_once_written_before_the_next_file_is_made(tmp_path: Path, previous: bool) -> None:
    """The exports of a large site are tens of megabytes each: a build holds one at a time."""
    import weakref

    made: list[weakref.ref] = []

    def make(index: int) -> WatchedBytes:
        assert all(ref() is None for ref in made), f"file {index} is made while an earlier file's bytes are still held"
        data = WatchedBytes(f"<p>file {index}</p>".encode())
        made.append(weakref.ref(data))
        return data

    files: list[write.Maker] = [(f"f{index}.html", lambda index=index: make(index)) for index in range(4)]
    output = tmp_path / "out"
    manifest = write.write_output(files[:1], output, set(), None) if previous else None
    made.clear()
    write.write_output(files, output, set(), manifest)
    assert tree(output) == {f"f{index}.html": f"<p>file {index}</p>".encode() for index in range(4)}


def previous_build(output: Path) -> dict[str, bytes]:
    output.mkdir()
    (output / "index.html").write_bytes(b"<p>the last build</p>")  # index.html and .nojekyll: an earlier build, replaceable
    (output / ".nojekyll").write_bytes(b"")
    return tree(output)


def test_a_page_failing_in_a_worker_stops_the_build_and_output_stays(tmp_path: Path, small_threshold: None) -> None:
    output = tmp_path / "output"
    before = previous_build(output)
    with pytest.raises(ContentError, match="page 57 does not render"):
        write.write_output(makers(200, failing=57), output, set(), None, workers=2)
    assert tree(output) == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["output"]  # no staging folder left


def test_a_killed_worker_stops_the_build_with_a_message_not_a_hang(tmp_path: Path, small_threshold: None) -> None:
    output = tmp_path / "output"
    before = previous_build(output)
    started = time.monotonic()
    with pytest.raises(ContentError, match="a worker process making the site ended before its work was done"):
        write.write_output(makers(200, kill_worker=True), output, set(), None, workers=2)
    assert time.monotonic() - started < 30
    assert tree(output) == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["output"]


def test_ctrl_c_stops_the_workers_and_output_stays(tmp_path: Path, small_threshold: None) -> None:
    output = tmp_path / "output"
    before = previous_build(output)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        write.write_output(makers(400, interrupt_flag=tmp_path / "interrupted"), output, set(), None, workers=2)
    assert time.monotonic() - started < 30
    assert tree(output) == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["interrupted", "output"]


def test_a_small_site_is_made_without_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError("a pool started for a small site")

    monkeypatch.setattr(write, "ProcessPoolExecutor", no_pool)
    write.write_output(makers(50), tmp_path / "output", set(), None, workers=4)
    assert len(tree(tmp_path / "output")) == 50


# -- folder stamps after a build in place: only the folders above what it wrote or removed are looked at again -----

paths = st.sampled_from(["index.html", "a/index.html", "a/b/index.html", "a/b/c.bib", "d/index.html", "d/e/f/index.html", "g.json"])


@settings(max_examples=40, deadline=None)
@given(first=st.sets(paths, min_size=1), builds=st.lists(st.tuples(st.sets(paths), st.sets(paths)), min_size=1, max_size=4))
def test_stamps_taken_again_above_what_changed_equal_stamps_of_every_folder(first: set[str], builds: list[tuple[set[str], set[str]]]) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        output = Path(temporary) / "output"
        manifest = write.write_output([(name, lambda: b"first") for name in sorted(first)], output, set(), None)
        stamps = write.folder_stamps(output, manifest)
        for wanted, rewritten in builds:
            if not wanted:
                continue
            time.sleep(0.002)  # another mtime for what this build touches
            kept = (manifest.keys() & wanted) - rewritten
            made = sorted(wanted - kept)
            after = write.write_output([(name, lambda: b"again") for name in made], output, kept, manifest)
            changed = made + [name for name in manifest if name not in after]
            incremental = write.folder_stamps(output, after, stamps, changed)
            assert incremental == write.folder_stamps(output, after)
            assert write.intact(output, after, incremental)
            manifest, stamps = after, incremental


def test_a_folder_changed_by_hand_keeps_its_stamp_and_is_found(tmp_path: Path) -> None:
    output = tmp_path / "output"
    manifest = write.write_output([(name, lambda: b"x") for name in ("index.html", "a/index.html", "b/index.html")], output, set(), None)
    stamps = write.folder_stamps(output, manifest)
    time.sleep(0.002)
    (output / "b" / "stray.html").write_text("not ours", encoding="utf-8")  # by hand, in a folder the next build does not write into
    after = write.write_output([("a/index.html", lambda: b"y")], output, {"index.html", "b/index.html"}, manifest)
    stamps = write.folder_stamps(output, after, stamps, ["a/index.html"])
    assert not write.intact(output, after, stamps)


def test_a_look_at_only_what_a_build_writes_sees_changes_there_and_not_elsewhere(tmp_path: Path) -> None:
    output = tmp_path / "output"
    manifest = write.write_output([(name, lambda: b"x") for name in ("index.html", "a/index.html", "b/index.html", "b/c/data.json")], output, set(), None)
    stamps = write.folder_stamps(output, manifest)
    time.sleep(0.002)
    (output / "a" / "stray.html").write_text("not ours", encoding="utf-8")  # by hand, beside what is not written next
    assert write.intact(output, manifest, stamps, only=["b/c/data.json"])
    assert not write.intact(output, manifest, stamps)
    (output / "b" / "c" / "data.json").write_bytes(b"changed by hand")
    assert not write.intact(output, manifest, stamps, only=["b/c/data.json"])


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_while_a_build_renames_its_pages_in_takes_effect_once_all_are_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signal_number: int) -> None:
    """A build on an earlier one renames its new files over the old ones, then removes what it no longer makes: a
    Ctrl-C (or SIGTERM) in between would leave output/ half the new site and half the old. It stops the build once
    every rename and removal is done: output/ is the new build whole."""
    output = tmp_path / "output"
    first = [(f"records/{index}/index.html", lambda index=index: f"<p>old {index}</p>".encode()) for index in range(40)]
    manifest = write.write_output(first, output, set(), None)
    second = [(f"records/{index}/index.html", lambda index=index: f"<p>new {index}</p>".encode()) for index in range(20)]
    renames = 0
    real_replace = os.replace

    def replace_and_interrupt_once(source: object, target: object) -> None:
        nonlocal renames
        real_replace(source, target)  # type: ignore[arg-type]
        renames += 1
        if renames == 3:  # Ctrl-C while the new pages are being put in place
            signal.raise_signal(signal_number)

    class Stopped(Exception):
        pass

    def terminated(number: int, frame: object) -> None:
        raise Stopped

    monkeypatch.setattr(write.os, "replace", replace_and_interrupt_once)
    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        with pytest.raises(KeyboardInterrupt if signal_number == signal.SIGINT else Stopped):
            write.write_output(second, output, set(), manifest)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert tree(output) == {f"records/{index}/index.html": f"<p>new {index}</p>".encode() for index in range(20)}
    assert renames == 20
