"""The profile's citation figures (SPEC §6): the total and the h-index of the shown records.

A record's `citations` is None when no source gave a count; such a record counts
as uncited in the h-index, and a profile none of whose records has a count has
no total to show (None), rather than a misleading 0.
"""

from __future__ import annotations

from collections.abc import Iterable

from sitegen.model import Entry


def citation_total(entries: Iterable[Entry]) -> int | None:
    """The sum of the entries' citation counts; None when not one entry has a count."""
    counts = [entry.record.citations for entry in entries if entry.record.citations is not None]
    return sum(counts) if counts else None


def h_index(counts: Iterable[int | None]) -> int:
    """The largest h such that h of the records have at least h citations each (Hirsch, 2005)."""
    ranked = sorted((count or 0 for count in counts), reverse=True)
    h = 0
    while h < len(ranked) and ranked[h] >= h + 1:
        h += 1
    return h
