"""The load players' in-place patcher agrees with RFC 6902 and with ``jsonpatch``."""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.devtools.load.patching import PatchFailed, apply_in_place
from server.realtime.views import diff

KEYS = st.sampled_from(["a", "b", "", "~", "/", "a/b", "m~0n", "-", "0", "log"])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(old=JSON, new=JSON)
def test_a_patch_made_by_jsonpatch_turns_old_into_new(old: Any, new: Any) -> None:
    ops = jsonpatch.make_patch(old, new).patch
    assert apply_in_place(copy.deepcopy(old), copy.deepcopy(ops)) == new


@settings(max_examples=300, deadline=None)
@given(
    old=st.dictionaries(KEYS, JSON, max_size=5),
    new=st.dictionaries(KEYS, JSON, max_size=5),
)
def test_a_patch_of_the_server_turns_old_into_new(old: Any, new: Any) -> None:
    """The ops the server sends (its own diff, with its list and member shortcuts)."""
    ops = diff(old, new)
    patched = apply_in_place(copy.deepcopy(old), copy.deepcopy(ops))
    assert patched == new
    assert patched == jsonpatch.apply_patch(copy.deepcopy(old), copy.deepcopy(ops))


def test_the_examples_of_rfc_6902() -> None:
    cases: list[tuple[Any, list[dict[str, Any]], Any]] = [
        (
            {"foo": "bar"},
            [{"op": "add", "path": "/baz", "value": "qux"}],
            {"foo": "bar", "baz": "qux"},
        ),
        (
            {"foo": ["bar", "baz"]},
            [{"op": "add", "path": "/foo/1", "value": "qux"}],
            {"foo": ["bar", "qux", "baz"]},
        ),
        ({"baz": "qux", "foo": "bar"}, [{"op": "remove", "path": "/baz"}], {"foo": "bar"}),
        (
            {"foo": ["bar", "qux", "baz"]},
            [{"op": "remove", "path": "/foo/1"}],
            {"foo": ["bar", "baz"]},
        ),
        (
            {"baz": "qux", "foo": "bar"},
            [{"op": "replace", "path": "/baz", "value": "boo"}],
            {"baz": "boo", "foo": "bar"},
        ),
        (
            {"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}},
            [{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}],
            {"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}},
        ),
        (
            {"foo": ["all", "grass", "cows", "eat"]},
            [{"op": "move", "from": "/foo/1", "path": "/foo/3"}],
            {"foo": ["all", "cows", "eat", "grass"]},
        ),
        (
            {"baz": "qux", "foo": ["a", 2, "c"]},
            [
                {"op": "test", "path": "/baz", "value": "qux"},
                {"op": "test", "path": "/foo/1", "value": 2},
            ],
            {"baz": "qux", "foo": ["a", 2, "c"]},
        ),
        (
            {"foo": "bar"},
            [{"op": "add", "path": "/child", "value": {"grandchild": {}}}],
            {"foo": "bar", "child": {"grandchild": {}}},
        ),
        (
            {"foo": ["bar"]},
            [{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}],
            {"foo": ["bar", ["abc", "def"]]},
        ),
        ({"/": 9, "~1": 10}, [{"op": "test", "path": "/~01", "value": 10}], {"/": 9, "~1": 10}),
        ({"a": 1}, [{"op": "copy", "from": "/a", "path": "/b"}], {"a": 1, "b": 1}),
        ({"a": 1}, [{"op": "replace", "path": "", "value": [1]}], [1]),
    ]
    for doc, ops, expected in cases:
        assert apply_in_place(doc, ops) == expected


@pytest.mark.parametrize(
    ("doc", "ops"),
    [
        ({"baz": "qux"}, [{"op": "test", "path": "/baz", "value": "bar"}]),
        ({"/": 9, "~1": 10}, [{"op": "test", "path": "/~01", "value": "10"}]),
        ({"a": 1}, [{"op": "test", "path": "/a", "value": True}]),  # JSON: 1 is not true
        ({"foo": "bar"}, [{"op": "add", "path": "/baz/bat", "value": "qux"}]),
        ({"foo": [1]}, [{"op": "add", "path": "/foo/2", "value": 3}]),
        ({"foo": [1]}, [{"op": "add", "path": "/foo/01", "value": 3}]),
        ({"foo": [1]}, [{"op": "replace", "path": "/foo/\u00b9", "value": 3}]),  # not ASCII
        ({"foo": [1]}, [{"op": "remove", "path": "/foo/1"}]),
        ({"foo": [1]}, [{"op": "replace", "path": "/foo/-", "value": 3}]),
        ({"foo": 1}, [{"op": "remove", "path": "/bar"}]),
        ({"foo": 1}, [{"op": "replace", "path": "/bar", "value": 2}]),
        ({"foo": {"a": 1}}, [{"op": "move", "from": "/foo", "path": "/foo/a/b"}]),
        ({"foo": 1}, [{"op": "add", "path": "/foo"}]),
        ({"foo": 1}, [{"op": "add", "path": "foo", "value": 2}]),
        ({"foo": 1}, [{"op": "frobnicate", "path": "/foo"}]),
        ({"foo": 1}, ["not an op"]),
        ({"foo": "text"}, [{"op": "add", "path": "/foo/0", "value": 2}]),
        ({"foo": 1}, [{"op": "remove", "path": ""}]),
    ],
)
def test_a_patch_that_does_not_fit_is_refused(doc: Any, ops: list[Any]) -> None:
    with pytest.raises(PatchFailed):
        apply_in_place(doc, ops)
    with pytest.raises((jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, TypeError)):
        jsonpatch.apply_patch(doc, ops)


def test_the_values_of_a_patch_become_part_of_the_document() -> None:
    """In place, no copies: the player owns each decoded message, so sharing is safe."""
    value = {"n": 1}
    doc = apply_in_place({"a": []}, [{"op": "add", "path": "/a/-", "value": value}])
    assert doc["a"][0] is value
