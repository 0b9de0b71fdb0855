"""Stage 5, write: the output folder is the previous build or the new one, never a mix."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sitegen.errors import ContentError
from sitegen.model import Pieces
from sitegen.write import PIECES_PER_WRITE, UnsafeOutputPath, folder_times, intact, safe_relative_path, write_output

FILES = {
    "index.html": b"<h1>home</h1>",
    "records/a/index.html": b"a",
    "records/b/index.html": b"b",
    "static/style.css": b"body{}",
    ".nojekyll": b"",
}


def tree(root: Path) -> dict[str, str]:
    """Every file under root (hidden ones too) -> sha256 of its bytes."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*")) if p.is_file()
    }


def digests(files: dict[str, bytes]) -> dict[str, str]:
    return {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}


def test_writes_exactly_the_files(tmp_path):
    out = tmp_path / "site" / "output"  # parent folders are made
    write_output(FILES, out)
    assert tree(out) == digests(FILES)


def test_a_new_build_replaces_the_old_one_and_stale_files_are_gone(tmp_path):
    out = tmp_path / "output"
    write_output({**FILES, "records/old/index.html": b"old", "stale.txt": b"x"}, out)
    (out / "by-hand.txt").write_text("left behind")
    write_output(FILES, out)
    assert tree(out) == digests(FILES)
    assert not (out / "records" / "old").exists()


def test_no_staging_folders_are_left_behind(tmp_path):
    out = tmp_path / "output"
    write_output(FILES, out)
    write_output({**FILES, "index.html": b"changed"}, out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output"]


@pytest.mark.parametrize("name", ["../escape.html", "/etc/passwd", "records/../../escape", "a/../../b", ""])
def test_unsafe_paths_are_refused(name):
    with pytest.raises(UnsafeOutputPath):
        safe_relative_path(name)


@pytest.mark.parametrize("name", ["../escape.html", "records/../../escape", "/tmp/absolute.html"])
def test_unsafe_path_leaves_the_previous_output_untouched(tmp_path, name):
    out = tmp_path / "output"
    write_output(FILES, out)
    before = tree(out)
    with pytest.raises(UnsafeOutputPath):
        write_output({"index.html": b"new", name: b"evil", "z.html": b"z"}, out)
    assert tree(out) == before
    assert not (tmp_path / "escape.html").exists() and not (tmp_path.parent / "escape").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output"]


def test_a_failure_while_writing_leaves_the_previous_output_untouched(tmp_path, monkeypatch):
    out = tmp_path / "output"
    write_output(FILES, out)
    before = tree(out)
    real_write = os.write
    calls = []

    def failing_write(descriptor, data):
        calls.append(descriptor)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real_write(descriptor, data)

    monkeypatch.setattr(os, "write", failing_write)
    with pytest.raises(OSError):
        write_output({name: data + b"!" for name, data in FILES.items()}, out)
    monkeypatch.undo()
    assert tree(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output"]


def test_safe_relative_paths_pass():
    assert safe_relative_path("records/hep-ph-0601001/index.html").parts == ("records", "hep-ph-0601001", "index.html")
    assert safe_relative_path(".nojekyll").name == ".nojekyll"


@pytest.mark.parametrize("existing", [
    {"thesis.tex": "precious"},  # someone's folder
    {"index.html": "x", "notes.txt": "y"},  # a hand-made site without .nojekyll
    {"index.html": "x", ".nojekyll": "", "content/site.yaml": "title: T"},  # a site folder holding a build
])
def test_a_folder_sitegen_did_not_build_is_never_replaced(tmp_path, existing):
    out = tmp_path / "docs"
    for name, text in existing.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    before = tree(out)
    with pytest.raises(ContentError) as caught:
        write_output(FILES, out)
    assert "refusing to replace" in str(caught.value) and "--output" in str(caught.value)
    assert tree(out) == before


def test_an_empty_folder_or_an_earlier_build_is_replaced(tmp_path):
    (tmp_path / "empty").mkdir()
    write_output(FILES, tmp_path / "empty")
    assert tree(tmp_path / "empty") == digests(FILES)


def test_folders_left_by_a_killed_build_are_removed_and_a_running_builds_kept(tmp_path):
    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    finished.wait()  # its pid names no process now, as for a build that was killed
    dead = tmp_path / f".output.new-{finished.pid}"
    retired = tmp_path / f".output.old-{finished.pid}"
    alive = tmp_path / f".output.new-{os.getppid()}"
    unrelated = tmp_path / ".output.notes-1"
    for folder in (dead, retired, alive, unrelated):
        (folder / "records").mkdir(parents=True)
    write_output(FILES, tmp_path / "output")
    assert not dead.exists() and not retired.exists()
    assert alive.exists() and unrelated.exists()
    assert (tmp_path / "output" / "index.html").is_file()


def _written(tmp_path):
    output = tmp_path / "output"
    files = {"index.html": b"home", ".nojekyll": b"", "records/a/index.html": b"a", "records/b/index.html": b"b"}
    manifest = write_output(files, output)
    return output, manifest, folder_times(output, manifest)


def test_folder_times_cover_every_folder_up_to_the_output_folder(tmp_path):
    output, _, folders = _written(tmp_path)
    assert sorted(folders) == ["", "records", "records/a", "records/b"]


@pytest.mark.parametrize(
    "change",
    [
        lambda out: (out / "records" / "a" / "index.html").write_bytes(b"changed"),
        lambda out: (out / "records" / "a" / "stray.txt").write_bytes(b"not ours"),
        lambda out: (out / "records" / "c").mkdir(),
        lambda out: (out / ".hidden").write_bytes(b""),
        lambda out: (out / "records" / "b" / "index.html").unlink(),
        lambda out: os.replace(out / "records" / "a", out.parent / "moved"),
    ],
    ids=["edited", "stray file", "new folder", "hidden file", "deleted", "folder moved away"],
)
def test_intact_notices_any_change_to_the_output(tmp_path, change):
    output, manifest, folders = _written(tmp_path)
    assert intact(output, manifest, folders)
    os.utime(output / "index.html")  # the same bytes, touched: mtimes count (as make does)
    assert not intact(output, manifest, folders)
    output, manifest, folders = _written(tmp_path / "again")
    change(output)
    assert not intact(output, manifest, folders)


def test_folder_times_after_a_patch_equal_those_of_a_full_look(tmp_path):
    output, manifest, folders = _written(tmp_path)
    changes = {"index.html": b"home", ".nojekyll": b"", "records/a/index.html": b"a, edited", "records/new/index.html": b"new"}
    patched = write_output(changes, output, previous=manifest)  # records/b went away with its folder
    assert folder_times(output, patched, manifest, folders) == folder_times(output, patched)
    assert "records/b" not in folder_times(output, patched, manifest, folders)
    assert intact(output, patched, folder_times(output, patched, manifest, folders))
    assert folder_times(output, patched, manifest, folders, written=changes) == folder_times(output, patched)


def test_folder_times_after_a_patch_that_keeps_every_file_equal_those_of_a_full_look(tmp_path):
    """No page came or went: the folders of the files written are looked at, and no others."""
    output, manifest, folders = _written(tmp_path)
    changes = {"records/a/index.html": b"a, edited"}
    kept = set(manifest) - set(changes)
    patched = write_output(changes, output, kept, previous=manifest)
    assert sorted(patched) == sorted(manifest)
    assert folder_times(output, patched, manifest, folders, written=changes) == folder_times(output, patched)
    assert intact(output, patched, folder_times(output, patched, manifest, folders, written=changes))


def test_only_changed_files_are_rewritten_whether_their_size_changed_or_not(tmp_path):
    """A file of another size is written without hashing it; one of the same size is compared by hash."""
    output = tmp_path / "output"
    manifest = write_output(FILES, output)

    def written_after(files: dict[str, bytes], previous):
        inodes = {name: os.stat(output / name).st_ino for name in previous}
        manifest = write_output(files, output, previous=previous)
        assert tree(output) == digests(files)
        return manifest, {name for name in files if name not in inodes or os.stat(output / name).st_ino != inodes[name]}

    grown = {**FILES, "index.html": b"<h1>home, longer</h1>", "records/a/index.html": b"A"}  # another size; same size
    manifest, rewritten = written_after(grown, manifest)
    assert rewritten == {"index.html", "records/a/index.html"}
    manifest, rewritten = written_after(grown, manifest)
    assert rewritten == {"index.html"}, "not hashed last time: written again, and hashed now"
    manifest, rewritten = written_after(grown, manifest)
    assert rewritten == set()


def test_files_known_to_be_remade_are_written_without_comparing(tmp_path):
    """records.json and publications.bib, when a record changed: rewritten even with the same bytes, and not hashed."""
    output = tmp_path / "output"
    manifest = write_output(FILES, output)
    inode = os.stat(output / "index.html").st_ino
    manifest = write_output(FILES, output, previous=manifest, remade={"index.html"})
    assert tree(output) == digests(FILES)
    assert os.stat(output / "index.html").st_ino != inode
    assert manifest["index.html"][2] == ""
    assert all(row[2] for name, row in manifest.items() if name != "index.html")


def test_a_file_of_pieces_is_written_as_their_join_in_every_write_path(tmp_path):
    """records.json comes as Pieces: more of them than one write takes, empty ones, and multi-byte text."""
    parts = [f"{index}: ü\n".encode() if index % 7 else b"" for index in range(3 * PIECES_PER_WRITE + 5)]
    joined = b"".join(parts)
    output, spares = tmp_path / "output", tmp_path / "cache" / "spares"
    manifest = write_output({**FILES, "records.json": Pieces(parts)}, output)  # a new folder
    assert (output / "records.json").read_bytes() == joined
    assert manifest["records.json"][:1] == (len(joined),)
    assert manifest["records.json"][2] == hashlib.sha256(joined).hexdigest()[:32], "hashed as the bytes it holds"
    changed = parts[:-1] + [b"the end\n"]
    manifest = write_output({"records.json": Pieces(changed)}, output, set(FILES), manifest)  # compared, and rewritten
    assert (output / "records.json").read_bytes() == b"".join(changed)
    for version in (parts, changed, parts[:10]):  # written over the spare copy
        manifest = write_output({"records.json": Pieces(version)}, output, set(FILES), manifest, remade={"records.json"}, spare_dir=spares)
        assert tree(output) == digests({**FILES, "records.json": b"".join(version)})
    assert len(Pieces(parts)) == len(joined) and bytes(Pieces(parts)) == joined and bytes(Pieces([])) == b""
    fresh = write_output({**FILES, "records.json": Pieces(parts)}, tmp_path / "fresh", remade={"records.json"})
    assert (tmp_path / "fresh" / "records.json").read_bytes() == joined
    assert fresh["records.json"][2] == "", "a file remade at every change is not hashed, in a new folder either"


@pytest.mark.skipif(not hasattr(os, "writev"), reason="no writev: Pieces are joined in chunks")
def test_pieces_handed_to_writev_are_written_whole_after_a_short_write(tmp_path, monkeypatch):
    """`writev` may write less than it was given (a signal): the rest still reaches the file, in order."""
    real_writev = os.writev
    calls = []

    def short_writev(descriptor, buffers):
        calls.append(len(buffers))
        if len(calls) == 1:  # the first call stops in the middle of its third piece
            return real_writev(descriptor, [buffers[0], buffers[1], buffers[2][:2]])
        return real_writev(descriptor, buffers)

    monkeypatch.setattr(os, "writev", short_writev)
    parts = [f"<li>{index} ü</li>\n".encode() for index in range(2500)]
    write_output({**FILES, "page/2/index.html": Pieces(parts)}, tmp_path / "output")
    assert (tmp_path / "output" / "page/2/index.html").read_bytes() == b"".join(parts)
    assert len(calls) >= 3 and max(calls) <= os.sysconf("SC_IOV_MAX"), "no more pieces a call than the kernel takes"


def spare_copies(folder: Path) -> list[Path]:
    return [path for path in folder.iterdir() if path.name != "lock"]


def test_remade_files_are_written_over_the_spare_copy_of_their_last_version_but_one(tmp_path):
    """records.json, rewritten at every edit, reuses the file the edit before last wrote (its memory pages)."""
    output, spares = tmp_path / "output", tmp_path / "cache" / "spares"
    manifest = write_output({**FILES, "records.json": b"[1]"}, output)
    versions = [b"[1, 2]", b"[1, 2, 3]", b"[1]"]
    inodes = []
    for version in versions:
        files = {"records.json": version}
        manifest = write_output(files, output, set(manifest) - set(files), manifest, remade={"records.json"}, spare_dir=spares)
        assert tree(output) == digests({**FILES, "records.json": version}), "no spare lands in the output"
        assert intact(output, manifest, folder_times(output, manifest))
        inodes.append(os.stat(output / "records.json").st_ino)
        spare_files = spare_copies(spares)
        assert [path.read_bytes() for path in spare_files] in ([b"[1]"], [b"[1, 2]"], [b"[1, 2, 3]"])
        assert spare_files[0].stat().st_nlink == 1
    assert (spares / spare_files[0].name).read_bytes() == versions[1], "the spare is the version before the last"
    assert inodes[2] == inodes[0], "the third version was written over the first one's file"


def test_a_spare_that_another_name_shows_is_never_written_over(tmp_path):
    output, spares = tmp_path / "output", tmp_path / "cache" / "spares"
    manifest = write_output({"records.json": b"one", ".nojekyll": b""}, output)
    manifest = write_output({"records.json": b"two"}, output, {".nojekyll"}, manifest, {"records.json"}, spares)
    (spare,) = spare_copies(spares)
    os.link(spare, tmp_path / "elsewhere")  # as a crash between two renames could leave it
    write_output({"records.json": b"three"}, output, {".nojekyll"}, manifest, {"records.json"}, spares)
    assert (tmp_path / "elsewhere").read_bytes() == b"one"
    assert (output / "records.json").read_bytes() == b"three"


def test_while_another_build_holds_the_spares_files_are_written_anew(tmp_path):
    """A dev server and a `sitegen build` of one site: only one of them writes over the spares at a time."""
    import fcntl

    output, spares = tmp_path / "output", tmp_path / "cache" / "spares"
    manifest = write_output({"records.json": b"one", ".nojekyll": b""}, output)
    manifest = write_output({"records.json": b"two"}, output, {".nojekyll"}, manifest, {"records.json"}, spares)
    (spare,) = spare_copies(spares)
    inode = spare.stat().st_ino
    with open(spares / "lock", "rb") as other_build:
        fcntl.flock(other_build, fcntl.LOCK_EX)
        manifest = write_output({"records.json": b"three"}, output, {".nojekyll"}, manifest, {"records.json"}, spares)
    assert (output / "records.json").read_bytes() == b"three"
    assert spare.stat().st_ino == inode and spare.read_bytes() == b"one", "the spare was left alone"
    write_output({"records.json": b"four"}, output, {".nojekyll"}, manifest, {"records.json"}, spares)
    assert (output / "records.json").stat().st_ino == inode, "free again: the spare is used"


def test_a_link_or_folder_in_place_of_a_spare_is_never_written_through(tmp_path):
    output, spares = tmp_path / "output", tmp_path / "cache" / "spares"
    manifest = write_output({"records.json": b"one", ".nojekyll": b""}, output)
    manifest = write_output({"records.json": b"two"}, output, {".nojekyll"}, manifest, {"records.json"}, spares)
    (spare,) = spare_copies(spares)
    precious = tmp_path / "precious.txt"
    precious.write_bytes(b"mine")
    spare.unlink()
    spare.symlink_to(precious)
    manifest = write_output({"records.json": b"three"}, output, {".nojekyll"}, manifest, {"records.json"}, spares)
    assert precious.read_bytes() == b"mine" and (output / "records.json").read_bytes() == b"three"
    spare.unlink()
    spare.mkdir()
    write_output({"records.json": b"four"}, output, {".nojekyll"}, manifest, {"records.json"}, spares)
    assert (output / "records.json").read_bytes() == b"four"
