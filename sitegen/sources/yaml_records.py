"""Records written in YAML: one record (a mapping) or a list of records per file."""

from __future__ import annotations

from sitegen.errors import Location, Problem
from sitegen.load import parse_yaml
from sitegen.sources import Reader, ReadResult, register_reader


def read_yaml_records(text: str, display_path: str) -> ReadResult:
    data, problem = parse_yaml(text, display_path)
    if problem:
        return [], [problem]
    if data is None:
        return [], [Problem("empty file: expected a record or a list of records", Location(display_path, 1), warning=True)]
    return (data if isinstance(data, list) else [data]), []


YAML = register_reader(Reader("yaml", (".yaml", ".yml"), read_yaml_records))
