"""`value_class`: how the pipeline declares the values it passes from stage to stage.

They are frozen dataclasses with slots: a stage cannot change what an earlier
stage handed on, and each field sits in the object itself, not in a dict beside it.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def value_class(cls: type[T] | None = None, /, **options: Any) -> Any:
    """`@dataclass(frozen=True, slots=True, **options)`."""

    def make(cls: type[T]) -> type[T]:
        return dataclasses.dataclass(cls, frozen=True, slots=True, **options)

    return make if cls is None else make(cls)


def whole_number(text: str, digits: int = 18) -> int | None:
    """The whole number `text` writes (spaces around allowed), None for any other text: `str.isdigit` is true of
    '²', which `int` refuses, and `int` refuses a number of more than 4,300 digits, both with a ValueError that a
    pull request's `month = {²}` would turn into a traceback. Numbers of more than `digits` digits are none that a
    site means (a year, a month, a date's part, a list's length)."""
    text = text.strip()
    return int(text) if text.isdecimal() and len(text) <= digits else None
