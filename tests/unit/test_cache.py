"""The build cache on disk: shards that are rewritten only when what they hold changed."""

from __future__ import annotations

import errno
import os
import pickle
from pathlib import Path

import sitegen.cache
from sitegen.cache import RECORDS_PER_SHARD, BuildCache, BuildState, ContentCache


def filled_cache(site: Path, records: int = 8 * RECORDS_PER_SHARD) -> BuildCache:
    cache = BuildCache(site)
    content = cache.content
    for number in range(records):
        path = f"content/records/r{number}.yaml"
        content.files[path] = (10, number, ([f"record {number}"], []))
        content.entries[f"{path}@hash#0 owners"] = (f"entry {number}", [])
        content.fragments[f"{path}@hash#0 owners\0k{number}\0page"] = (f"<li>{number}</li>".encode(), f"@misc{{k{number}}}".encode(), b"{}")  # as render keys them
    cache.update(BuildState(inputs="x"))
    return cache


def shard_times(site: Path) -> dict[str, int]:
    return {path.name: path.stat().st_mtime_ns for path in (site / ".sitegen-cache").glob("content-*.pickle")}


def test_shards_hold_everything_and_read_back_whole(tmp_path: Path) -> None:
    cache = filled_cache(tmp_path)
    expected = ContentCache(dict(cache.content.files), dict(cache.content.entries), dict(cache.content.fragments))
    cache.save()
    assert len(shard_times(tmp_path)) == 8
    again = BuildCache(tmp_path).content
    assert (again.files, again.entries, again.fragments) == (expected.files, expected.entries, expected.fragments)


def test_a_record_its_entry_and_its_fragments_share_a_shard(tmp_path: Path) -> None:
    shards = filled_cache(tmp_path).content.shards()
    for shard in shards:
        assert {key.split("@")[0] for key in shard.entries} <= set(shard.files)
        assert {key.split("@")[0] for key in shard.fragments} <= set(shard.files)


def test_an_edit_rewrites_only_the_shards_it_touches(tmp_path: Path) -> None:
    filled_cache(tmp_path).save()
    before = shard_times(tmp_path)
    cache = BuildCache(tmp_path)
    content = cache.content
    path = "content/records/r7.yaml"
    content.files[path] = (11, 99, (["record 7, edited"], []))
    content.entries[f"{path}@newhash#0 owners"] = ("entry 7, edited", [])
    del content.entries[f"{path}@hash#0 owners"]
    content.fragments[f"{path}@newhash#0 owners\0k7\0page"] = (b"<li>7, edited</li>", b"@misc{k7}", b"{}")
    del content.fragments[f"{path}@hash#0 owners\0k7\0page"]
    cache.update(BuildState(inputs="y"))
    cache.save()
    after = shard_times(tmp_path)
    assert sum(after[name] != before[name] for name in before) == 1
    reread = BuildCache(tmp_path).content
    assert reread.files[path][2][0] == ["record 7, edited"] and len(reread.entries) == 8 * RECORDS_PER_SHARD


def test_an_unchanged_cache_is_not_rewritten(tmp_path: Path) -> None:
    filled_cache(tmp_path).save()
    before = shard_times(tmp_path)
    cache = BuildCache(tmp_path)
    cache.content  # read, nothing changed
    cache.update(BuildState(inputs="z"))
    cache.save()
    assert shard_times(tmp_path) == before


def test_a_small_site_keeps_one_shard_and_a_grown_one_splits(tmp_path: Path) -> None:
    filled_cache(tmp_path, records=20).save()
    assert list(shard_times(tmp_path)) == ["content-00.pickle"]
    filled_cache(tmp_path, records=3 * RECORDS_PER_SHARD).save()
    assert sorted(shard_times(tmp_path)) == ["content-00.pickle", "content-01.pickle", "content-02.pickle"]
    shrunk = BuildCache(tmp_path)
    content = shrunk.content
    assert len(content.files) == 3 * RECORDS_PER_SHARD
    content.files = dict(list(content.files.items())[:20])
    shrunk.update(BuildState(inputs="fewer"))
    shrunk.save()
    assert list(shard_times(tmp_path)) == ["content-00.pickle"]
    assert len(BuildCache(tmp_path).content.files) == 20


def test_the_models_values_read_back_equal_frozen_and_without_a_dict(tmp_path: Path) -> None:
    import dataclasses
    import datetime

    import pytest

    from sitegen.errors import Location, Problem
    from sitegen.model import Author, Entry, Record, Subject, Text

    record = Record(
        id="2401.00001", title="On $x$", location=Location("content/records/a.yaml", 3), authors=("Lena Müller",),
        year=2024, date=datetime.date(2024, 1, 2), links={"pdf": "https://example.org/a.pdf"}, lines={"title": 4}, given=("id", "title"),
    )
    entry = Entry(
        record=record, slug="2401.00001", title=Text("On <i>x</i>", "On x", "On $x$"), authors=(Author("Lena Müller", True),),
        abstract_html="<p>a</p>", abstract_plain="a", subjects=(Subject("cs.DC", "Distributed Computing", "cs.DC"),),
        cite_key="muller2024x", source=Text("", "", ""),
    )
    problem = Problem("field 'title': odd", record.where("title"), warning=True)
    cache = BuildCache(tmp_path)
    cache.content.files["content/records/a.yaml"] = (10, 1, ([record], [problem]))
    cache.content.entries["content/records/a.yaml@h#0 o"] = (entry, [problem])
    cache.update(BuildState(inputs="x"))
    cache.save()
    again = BuildCache(tmp_path).content
    (read_entry, read_problems), = again.entries.values()
    assert (read_entry, read_problems) == (entry, [problem])
    assert read_entry.record == record and read_entry.record.where("title") == Location("content/records/a.yaml", 4)
    assert read_entry.id == "2401.00001"
    for value in (read_entry, read_entry.record, read_entry.title, read_problems[0], read_problems[0].location):
        assert not hasattr(value, "__dict__")  # slots: the fields are in the object
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, dataclasses.fields(value)[0].name, None)


def test_replaced_positions_compare_objects_not_values() -> None:
    """A build in the dev server finds what changed by identity: an equal but new object counts as replaced."""
    from sitegen.values import replaced_positions

    last = [[i] for i in range(16)]
    now = list(last)
    now[3] = [3]  # equal, but not the same object
    assert replaced_positions(now, last) == [3]
    assert replaced_positions(list(last), last) == []
    assert replaced_positions(now[:-1], last) is None, "a record added or removed: positions mean nothing"
    now[5], now[9] = [5], [9]
    assert replaced_positions(now, last) is None, "over an eighth replaced: everything is worked out again"


def _pickles_as_written(site: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted((site / ".sitegen-cache").glob("*.pickle"))}


def test_cache_files_written_past_the_page_cache_hold_exactly_the_pickle(tmp_path: Path) -> None:
    """Direct writes go by whole blocks from a 1 MiB buffer: files of every size, including ones
    larger than the buffer and ones that end within a block, must be cut to the pickle's size."""
    cache = filled_cache(tmp_path, records=3 * RECORDS_PER_SHARD)
    cache.content.entries["content/records/big.yaml@hash#0 owners"] = ("x" * 3_000_001, [])  # over two buffers
    cache.save()
    written = _pickles_as_written(tmp_path)
    assert max(map(len, written.values())) > 3_000_000 and any(len(data) % 4096 for data in written.values())
    again = BuildCache(tmp_path)  # a file one byte longer or shorter than its head says is unreadable
    assert again.content.entries["content/records/big.yaml@hash#0 owners"][0] == "x" * 3_000_001
    assert again.content.fragments == cache.content.fragments and again.state.inputs == "x"
    assert again.warnings == []


def test_fragments_read_back_as_views_of_the_cache_file(tmp_path: Path) -> None:
    """Mapped, not copied: they are most of the cache's bytes, and an edit's build reads few of them."""
    cache = filled_cache(tmp_path)
    cache.content.fragments["content/records/r1.yaml@hash#0 owners\0k1\0page"] = (b"<li>1</li>", "@misc{k1, title={Caf\u00e9}}".encode(), b"")
    cache.save()
    again = BuildCache(tmp_path).content
    item, bibtex, json_line = again.fragments["content/records/r1.yaml@hash#0 owners\0k1\0page"]
    assert all(isinstance(text, memoryview) and text.readonly for text in (item, bibtex, json_line))
    assert (bytes(item), str(bibtex, "utf-8"), bytes(json_line)) == (b"<li>1</li>", "@misc{k1, title={Café}}", b"")
    assert again.fragments == cache.content.fragments


def test_where_files_are_not_mapped_they_are_read_whole_and_read_back_the_same(tmp_path: Path, monkeypatch) -> None:
    cache = filled_cache(tmp_path)
    cache.save()
    monkeypatch.setattr(sitegen.cache, "MAP_CACHE_FILES", False)
    again = BuildCache(tmp_path)
    assert (again.content.files, again.content.entries, again.content.fragments) == (cache.content.files, cache.content.entries, cache.content.fragments)
    again.content.fragments["content/records/r1.yaml@new"] = (b"<li>new</li>", b"", b"")
    again.update(BuildState(inputs="y"))
    again.save()  # over the files it read
    assert BuildCache(tmp_path).content.fragments == again.content.fragments


def test_a_cache_file_cut_short_is_reported_and_ignored(tmp_path: Path) -> None:
    filled_cache(tmp_path).save()
    shard = tmp_path / ".sitegen-cache" / "content-03.pickle"
    shard.write_bytes(shard.read_bytes()[:-1])
    again = BuildCache(tmp_path)
    assert again.content.fragments and len(again.content.files) < 8 * RECORDS_PER_SHARD
    assert [problem.message for problem in again.warnings] == [f"ignoring unreadable build cache {shard} (ValueError); building from scratch"]


def test_a_file_system_that_refuses_direct_writes_gets_plain_files(tmp_path: Path, monkeypatch) -> None:
    """tmpfs answers O_DIRECT with EINVAL: the cache is then written as any file, and reads the same."""
    real_open = os.open

    def refusing_open(path, flags, *args):
        if flags & getattr(os, "O_DIRECT", 0):
            raise OSError(errno.EINVAL, "Invalid argument")
        return real_open(path, flags, *args)

    direct = tmp_path / "direct"
    filled_cache(direct).save()
    monkeypatch.setattr(os, "open", refusing_open)
    plain = tmp_path / "plain"
    filled_cache(plain).save()
    assert _pickles_as_written(plain) == _pickles_as_written(direct)
    assert len(BuildCache(plain).content.files) == 8 * RECORDS_PER_SHARD
