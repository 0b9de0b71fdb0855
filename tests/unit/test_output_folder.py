"""The output folder's lock, and the messages for an output folder that cannot be written or is in the way.

Two real processes contend for the lock in tests/e2e/test_output_lock.py; here one process takes it twice, which
`flock` refuses as it refuses another process (each `open` is a lock of its own).
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import pytest

from sitegen import write
from sitegen.errors import ContentError, SitegenError
from sitegen.output_folder import OutputBusy, OutputInTheWay, lock_path, output_lock

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="builds are not locked on Windows")


def test_the_lock_names_its_holder_and_is_gone_once_let_go(tmp_path: Path) -> None:
    output = tmp_path / "output"
    with output_lock(output, wait=0):
        assert lock_path(output) == tmp_path / ".output.lock"
        assert lock_path(output).read_text() == f"{os.getpid()}\n"
        told: list[str] = []
        with pytest.raises(OutputBusy) as busy, output_lock(output, wait=0.2, waiting=told.append):
            pass
        assert busy.value.pid == os.getpid()
        assert [str(problem) for problem in busy.value.problems] == [f"error: another sitegen (pid {os.getpid()}) is writing {output}/; wait for it or stop it"]
        assert told == [f"waiting for another sitegen (pid {os.getpid()}), which is writing {output}/"]
    assert sorted(tmp_path.iterdir()) == [], "no lock file left, no output folder made"
    with output_lock(output, wait=0):  # free again
        pass


def test_a_lock_file_left_by_a_killed_build_is_taken_over(tmp_path: Path) -> None:
    output = tmp_path / "output"
    lock_path(output).write_text("999999999\n")  # its process is gone, and the kernel let go of its lock with it
    with output_lock(output, wait=0):
        assert lock_path(output).read_text() == f"{os.getpid()}\n"
    assert not lock_path(output).exists()


def test_a_folder_where_no_lock_can_be_made_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(SitegenError) as failed, output_lock(tmp_path / "file" / "output", wait=0):
        pass
    assert [str(problem) for problem in failed.value.problems] == [
        f"error: cannot write {tmp_path}/file/output/ (its lock file .output.lock beside it): file exists"
    ]


@pytest.mark.parametrize(
    "failed, where",
    [
        ("{output}", ""),
        ("{parent}/.output.old-{pid}", ""),
        ("{parent}/.output.new-{pid}/records/x/index.html", " (records/x/index.html)"),
        ("{output}/records/x/.index.html.{pid}.tmp", " (records/x/index.html)"),
        ("/elsewhere/file", " (/elsewhere/file)"),
    ],
)
def test_an_output_that_cannot_be_written_is_one_line_without_an_errno(tmp_path: Path, failed: str, where: str) -> None:
    output = tmp_path / "output"
    path = failed.format(output=output, parent=tmp_path, pid=os.getpid())
    error = write.cannot_write(output, PermissionError(errno.EACCES, "Permission denied", path))
    assert [str(problem) for problem in error.problems] == [f"error: cannot write {output}/{where}: permission denied"]


def test_a_swap_refused_by_the_file_system_leaves_output_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output = tmp_path / "output"
    output.mkdir()
    (output / "index.html").write_text("the last build")
    (output / ".nojekyll").write_text("")
    real_replace = os.replace

    def refused(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        if Path(source).name.startswith(".output.new-"):  # the new folder into output/'s place, refused
            raise OSError(errno.ENOTEMPTY, "Directory not empty", os.fspath(source), None, os.fspath(target))
        real_replace(source, target)

    monkeypatch.setattr(write.os, "replace", refused)
    with pytest.raises(ContentError) as failed:
        write.write_output([("index.html", lambda: b"the new build")], output, set(), None)
    assert [str(problem) for problem in failed.value.problems] == [f"error: cannot write {output}/: directory not empty"]
    assert (output / "index.html").read_text() == "the last build"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["output"], "no .output.old-* or .output.new-* left"


def test_what_is_in_the_outputs_way_is_named_for_what_it_is(tmp_path: Path) -> None:
    (tmp_path / "output").write_text("a file")
    assert "it is a file, not a folder sitegen wrote; move it away or delete it" in str(OutputInTheWay(tmp_path / "output"))
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "thesis.tex").write_text("precious")
    message = str(OutputInTheWay(tmp_path / "docs"))
    assert "it holds files sitegen did not write" in message and "--output" not in message  # the dev server has no --output


def test_where_no_lock_file_may_be_made_beside_output_the_folder_itself_is_locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A container's read-only site folder: the lock file cannot be made, output/ (writable) is locked instead."""
    output = tmp_path / "output"
    output.mkdir()
    real_open = os.open

    def refused(path: str | os.PathLike[str], flags: int, *args: int) -> int:
        if Path(path).name.endswith(".lock"):
            raise PermissionError(errno.EACCES, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", refused)
    with output_lock(output, wait=0):
        with pytest.raises(OutputBusy) as busy, output_lock(output, wait=0.1):
            pass
        assert [str(problem) for problem in busy.value.problems] == [f"error: another sitegen is writing {output}/; wait for it or stop it"]
    with output_lock(output, wait=0):  # let go
        pass
    assert sorted(tmp_path.iterdir()) == [output]
    with pytest.raises(SitegenError) as failed, output_lock(tmp_path / "missing", wait=0):  # no folder to lock: as before
        pass
    assert [str(problem) for problem in failed.value.problems] == [
        f"error: cannot write {tmp_path}/missing/ (its lock file .missing.lock beside it): permission denied"
    ]


def test_an_output_folder_that_is_a_mount_point_is_written_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A volume mounted at output/ cannot be renamed (EBUSY): the first build fills it where it is."""
    output = tmp_path / "output"
    (output / "records" / "old").mkdir(parents=True)
    (output / "records" / "old" / "index.html").write_text("a page of the last build")
    (output / "index.html").write_text("the last build")
    (output / ".nojekyll").write_text("")
    inode = output.stat().st_ino
    monkeypatch.setattr(write.os.path, "ismount", lambda path: Path(path) == output)
    real_replace = os.replace

    def no_rename_of_output(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        if Path(source) == output or Path(target) == output:
            raise OSError(errno.EBUSY, "Device or resource busy", os.fspath(source))
        real_replace(source, target)

    monkeypatch.setattr(write.os, "replace", no_rename_of_output)
    manifest = write.write_output(
        [("index.html", lambda: b"the new build"), ("records/new/index.html", lambda: b"new"), (".nojekyll", lambda: b"")], output, set(), None
    )
    assert sorted(manifest) == [".nojekyll", "index.html", "records/new/index.html"]
    assert output.stat().st_ino == inode
    assert (output / "index.html").read_text() == "the new build"
    assert sorted(path.relative_to(output).as_posix() for path in output.rglob("*")) == [
        ".nojekyll",
        "index.html",
        "records",
        "records/new",
        "records/new/index.html",
    ]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["output"]
