"""Records written in YAML: one record (a mapping) or a list of records per file."""

from __future__ import annotations

from typing import Any

from sitegen.errors import Location, Problem, shown_value
from sitegen.load import item_line, parse_yaml
from sitegen.sources import HAND_WRITTEN, Reader, ReadResult, register_reader


def read_yaml_records(text: str, display_path: str) -> ReadResult:
    data, problem = parse_yaml(text, display_path)
    if problem:
        return [], [problem]
    if data is None:
        return [], [Problem("empty file: expected a record or a list of records", Location(display_path, 1), warning=True)]
    if not isinstance(data, list):
        if isinstance(data, dict):
            return [data], []
        return [], [_not_a_record(data, display_path, _first_line(text))]
    records, problems = [], []
    for index, item in enumerate(data):
        if isinstance(item, dict):
            records.append(item)
        else:  # `- just text` among the records: reported at its own line
            problems.append(_not_a_record(item, display_path, item_line(data, index) or _first_line(text)))
    return records, problems


def _not_a_record(data: Any, display_path: str, line: int) -> Problem:
    return Problem(f"expected a record (a mapping with id, title, ...), got {shown_value(data)}", Location(display_path, line))


def _first_line(text: str) -> int:
    """The line of the file's first value: the first that is neither blank nor a comment (nor `---`)."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#") and line.strip() != "---":
            return number
    return 1


YAML = register_reader(Reader("yaml", (".yaml", ".yml"), read_yaml_records, rank=HAND_WRITTEN))
