"""Documents and patches: the diff is exact on any JSON, and views follow the seat."""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from server.realtime.bench import play_and_deliver
from server.realtime.views import STATS, diff

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text("ab/~", max_size=3),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text("ab/~", max_size=3), children, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(json_values, json_values)
def test_applying_the_diff_gives_exactly_the_new_document(old: Any, new: Any) -> None:
    doc = {"root": old}
    ops = diff(doc, {"root": new})
    assert jsonpatch.apply_patch(copy.deepcopy(doc), ops) == {"root": new}


def test_equal_documents_need_no_ops_and_appended_log_lines_are_adds() -> None:
    doc = {"log": [{"t": 1}], "game": {"a": [1, 2]}}
    assert diff(doc, copy.deepcopy(doc)) == []
    grown = {"log": [{"t": 1}, {"t": 2}], "game": {"a": [1, 2]}}
    assert diff(doc, grown) == [{"op": "add", "path": "/log/-", "value": {"t": 2}}]


def test_the_bench_delivers_patches_that_are_mostly_not_snapshots() -> None:
    STATS.reset()
    commands, _ = play_and_deliver(3, "views-test")
    assert commands > 10
    assert STATS.messages == 4 * commands
    assert STATS.patches > STATS.snapshots
