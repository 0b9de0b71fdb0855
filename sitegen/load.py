"""Stage 1: read a site's YAML files into raw data that remembers positions.

Mappings come back as `PositionedDict`s: plain dicts that also know the line of
the mapping and of each key, so that later stages can say `path:line:`.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import yaml

from sitegen.errors import Location, Problem
from sitegen.files import stat_tree
from sitegen.model import RawDocument

try:  # libyaml is many times faster; fall back when it is not compiled in
    _BaseLoader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _BaseLoader = yaml.SafeLoader


class PositionedDict(dict):
    """A YAML mapping with the 1-based line of itself and of each key."""

    line: int = 0
    key_lines: dict

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line) if hasattr(self, "key_lines") else self.line


class _PositionLoader(_BaseLoader):
    def construct_object(self, node, deep=False):
        # A scalar the constructor rejects (`!!int abc`) is a problem at its place, not a crash.
        try:
            return super().construct_object(node, deep)
        except yaml.YAMLError:
            raise
        except Exception as error:  # ValueError, IndexError, OverflowError, ... from PyYAML's constructors
            shown = repr(node.value) if isinstance(node, yaml.ScalarNode) else node.tag
            raise yaml.constructor.ConstructorError(None, None, f"cannot read value {shown}: {error}", node.start_mark) from error

    def construct_yaml_timestamp(self, node):
        # `date: 2024-02-30` looks like a timestamp but is no date: keep the text for validation to report
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError:
            return self.construct_scalar(node)


def _key_lines(node: yaml.MappingNode) -> dict[str, int]:
    """The line of each key of a mapping; a key given twice is a problem at its second place."""
    lines: dict[str, int] = {}
    seen: dict[tuple[str, str], int] = {}
    for key, _ in node.value:
        if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
            # field names recur in every record: one string each, in memory and in the build cache
            key.value = sys.intern(key.value)
            line = key.start_mark.line + 1
            identity = (key.tag, key.value)
            if identity in seen:  # PyYAML would keep the last value silently; a second `title:` is a mistake
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key '{key.value}' (first on line {seen[identity]})", key.start_mark)
            seen[identity] = lines[key.value] = line
    return lines


def _construct_mapping(loader: _PositionLoader, node: yaml.MappingNode):
    data = PositionedDict()
    data.line = node.start_mark.line + 1
    data.key_lines = _key_lines(node)
    yield data
    data.update(loader.construct_mapping(node))


_PositionLoader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
_PositionLoader.add_constructor("tag:yaml.org,2002:timestamp", _PositionLoader.construct_yaml_timestamp)


_STR, _SEQ, _MAP = (f"tag:yaml.org,2002:{name}" for name in ("str", "seq", "map"))
_PLAIN_KEY_TAGS = {_STR, *(f"tag:yaml.org,2002:{name}" for name in ("int", "float", "bool", "null", "timestamp"))}


def _data_of(node: yaml.Node, loader: _PositionLoader, made: dict[int, object]) -> object:
    """The value of a composed node, as PyYAML's constructor makes it, in a fraction of its time.

    Strings, lists and plain mappings (the whole of a record file) are built here;
    any other node (numbers, dates, merge keys, unknown tags) goes to the
    constructor, so its rules and its errors stay PyYAML's own.
    """
    if type(node) is yaml.ScalarNode:
        return node.value if node.tag == _STR else loader.construct_object(node)
    if id(node) in made:  # an alias: the same object again
        return made[id(node)]
    if node.tag == _SEQ and type(node) is yaml.SequenceNode:
        items: list = []
        made[id(node)] = items
        items.extend(_data_of(child, loader, made) for child in node.value)
        return items
    if node.tag != _MAP or type(node) is not yaml.MappingNode or any(type(key) is not yaml.ScalarNode or key.tag not in _PLAIN_KEY_TAGS for key, _ in node.value):
        return loader.construct_object(node, deep=True)  # merge keys (`<<: *base`) and the like
    data = PositionedDict()
    made[id(node)] = data
    data.line = node.start_mark.line + 1
    data.key_lines = _key_lines(node)
    for key_node, value_node in node.value:
        data[_data_of(key_node, loader, made)] = _data_of(value_node, loader, made)
    return data


def parse_yaml(text: str, display_path: str) -> tuple[object, Problem | None]:
    """Parse YAML text; a syntax error becomes a `path:line:col:` problem."""
    try:
        loader = _PositionLoader(text)
        try:
            node = loader.get_single_node()
            return (None if node is None else _data_of(node, loader, {})), None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        location = Location(display_path, mark.line + 1, mark.column + 1) if mark else Location(display_path)
        reason = error.problem or str(error)
        if error.context:
            reason = f"{reason} ({error.context})"
        return None, Problem(f"invalid YAML: {reason}", location)
    except yaml.YAMLError as error:
        return None, Problem(f"invalid YAML: {error}", Location(display_path))


def load_document(path: Path, site_dir: Path, display_path: str | None = None) -> tuple[RawDocument | None, Problem | None]:
    """`display_path`: the path relative to the site, when the caller has it (a record file's is how it was listed)."""
    display_path = _display_path(path, site_dir) if display_path is None else display_path
    try:
        with open(path, "rb", buffering=0) as stream:  # unbuffered: three system calls fewer a file than read_bytes()
            data = stream.readall()
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, Problem(f"not UTF-8 text: {error.reason}", Location(display_path))
    except OSError as error:
        return None, Problem(f"cannot read: {error.strerror}", Location(display_path))
    parsed, problem = parse_yaml(text, display_path)
    if problem:
        return None, problem
    return RawDocument(path, display_path, parsed, hashlib.blake2b(data, digest_size=16).hexdigest()), None


@dataclass
class RawSite:
    """Everything stage 1 read; `problems` holds what could not be read."""

    site_dir: Path
    site: RawDocument | None = None
    profile: RawDocument | None = None
    records: list[RawDocument] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    record_paths: list[str] = field(default_factory=list)  # every record file, in order (read or not)


RECORDS_FOLDER = "content/records/"
RECORD_SUFFIXES = (".yaml", ".yml")


def record_file_stats(site_dir: Path) -> dict[str, tuple[int, int]]:
    """(size, mtime_ns) of every record file, by the path messages use, in path order.

    Hidden files and folders (an editor's `.#x.yaml`) are not records.
    """
    return record_files_among(stat_tree(Path(site_dir) / "content" / "records", RECORDS_FOLDER))


def record_files_among(files: dict[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
    """The record files of a listing of the site's files (as `stat_tree` makes it), in path order."""
    return {path: files[path] for path in sorted(filter(is_record_file, files))}


def is_record_file(path: str) -> bool:
    """Is this path of a listing (see record_files_among) a record file's?"""
    return path.startswith(RECORDS_FOLDER) and path.endswith(RECORD_SUFFIXES)


def load_site(site_dir: Path, record_files: Iterable[str] | None = None, read_records: bool = True) -> RawSite:
    """Read the site's YAML.

    `record_files` are the record files' paths, in order, when the caller has
    listed them already. With `read_records=False` they are listed, not read: the
    caller holds their records (the build cache).
    """
    site_dir = Path(site_dir)
    raw = RawSite(site_dir)
    content = site_dir / "content"
    if not content.is_dir():
        raw.problems.append(Problem(f"no content/ folder in {site_dir} (is --site right?)"))
        return raw
    for name in ("site", "profile"):
        path = content / f"{name}.yaml"
        if not path.is_file():
            raw.problems.append(Problem(f"missing: every site needs content/{name}.yaml", Location(_display_path(path, site_dir))))
            continue
        document, problem = load_document(path, site_dir)
        if problem:
            raw.problems.append(problem)
        setattr(raw, name, document)
    raw.record_paths = list(record_file_stats(site_dir) if record_files is None else record_files)
    if not read_records:
        return raw
    for display_path in raw.record_paths:
        document, problem = load_document(site_dir / display_path, site_dir, display_path)
        if problem:
            raw.problems.append(problem)
        elif document is not None:
            raw.records.append(document)
    return raw


def _display_path(path: Path, site_dir: Path) -> str:
    try:
        return path.relative_to(site_dir).as_posix()
    except ValueError:
        return path.as_posix()
