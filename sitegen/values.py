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
