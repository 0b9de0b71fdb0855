"""The build cache on disk: shards that are rewritten only when what they hold changed."""

from __future__ import annotations

from pathlib import Path

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
