"""The citation total and h-index shown on the profile."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitegen.metrics import citation_total, h_index
from unit.test_cite import make_entry


def test_total_adds_the_counts_that_are_known():
    entries = [make_entry(str(i), citations=count) for i, count in enumerate([10, None, 0, 32])]
    assert citation_total(entries) == 42


def test_no_total_without_any_count():
    assert citation_total([make_entry("a"), make_entry("b")]) is None
    assert citation_total([]) is None
    assert citation_total([make_entry("a", citations=0)]) == 0


def test_h_index_examples():
    assert h_index([]) == 0
    assert h_index([0, 0]) == 0
    assert h_index([1]) == 1
    assert h_index([10, 8, 5, 4, 3]) == 4
    assert h_index([25, 8, 5, 3, 3]) == 3
    assert h_index([100]) == 1
    assert h_index([3, 3, 3]) == 3
    assert h_index([None, 5, None, 2]) == 2  # unknown counts count as no citations


@pytest.mark.slow
@given(st.lists(st.one_of(st.none(), st.integers(min_value=0, max_value=60)), max_size=60))
def test_h_index_is_the_largest_h_with_h_records_cited_h_times(counts):
    h = h_index(counts)
    known = [c or 0 for c in counts]
    assert sum(c >= h for c in known) >= h
    assert sum(c >= h + 1 for c in known) < h + 1
    assert h_index(reversed(counts)) == h  # the order of the records does not matter
