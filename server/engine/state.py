"""Copying game states: ``clone`` for a whole state, a ``Draft`` for what one command changes.

A state is plain JSON data (dicts, lists, str, int, float, bool, None), which ``marshal``
round-trips exactly and in C: faster than a recursive walk in Python and several times
faster than a JSON round trip or ``copy.deepcopy``. Only our own in-memory data is ever
marshalled; nothing is read back from outside.

``apply`` must not change its input, yet most commands change a handful of values. So it
copies on write: ``draft(state)`` is a new top-level dict whose values are still the input's
own objects, and the rules take a part for writing with ``own`` (a top-level value) or
``own_item`` (one player, one house: an item of a top-level list) before they change anything
inside it. That part is copied once per ``apply``; the rest stays shared between the input
and the new state. Shared parts are never written to again, by this ``apply`` or a later one,
so a state a caller holds never changes. (``tests/engine/test_purity.py`` plays whole games
and checks that every earlier state is still what it was.)

Outside ``apply`` (setting up a game, a determinizer building a state, a test) the state is a
plain dict that its caller owns: ``own`` and ``own_item`` return the part itself.
"""

from __future__ import annotations

import marshal
from typing import Any, TypeVar

T = TypeVar("T")

# A part of a draft: a top-level key, (key, None) for the list under it, (key, index) an item.
Part = str | tuple[str, int | None]


def clone(value: T, share: frozenset[str] = frozenset()) -> T:
    """A deep copy of plain JSON data.

    ``share`` names top-level keys of a dict whose values the caller never modifies (a
    game's options, say): the copy holds the very same objects there instead of copies.

    >>> a = {"x": [1, [2]], "o": {"k": 1}}; b = clone(a, frozenset({"o"})); b["x"][1].append(3)
    >>> a["x"], b["o"] is a["o"]
    ([1, [2]], True)
    """
    data: Any = value
    copied: T = marshal.loads(marshal.dumps(data))
    if share and isinstance(value, dict) and isinstance(copied, dict):
        for key in share & value.keys():
            copied[key] = value[key]
    return copied


class Draft(dict[str, Any]):
    """The state one ``apply`` is making. Top-level keys may be set freely; anything deeper
    is written only through a part taken with ``own`` or ``own_item``.

    ``finish`` turns it into the plain dict ``apply`` returns.
    """

    __slots__ = ("everything", "owned", "share")

    def __init__(self, state: dict[str, Any], share: frozenset[str]) -> None:
        super().__init__(state)
        self.owned: set[Part] = set()
        self.share = share  # keys no command changes: never copied
        self.everything = False  # True once ``own_all`` made every part private


def draft(state: dict[str, Any], share: frozenset[str] = frozenset()) -> Draft:
    """A draft of the state after ``state``: nothing is copied until a part is taken.

    >>> s = {"deck": [1, 2], "players": [{"n": 1}, {"n": 2}]}
    >>> d = draft(s); own(d, "deck").remove(2); own_item(d, "players", 1)["n"] += 1
    >>> new = finish(d); new
    {'deck': [1], 'players': [{'n': 1}, {'n': 3}]}
    >>> s, new["players"][0] is s["players"][0]
    ({'deck': [1, 2], 'players': [{'n': 1}, {'n': 2}]}, True)
    """
    return Draft(state, share)


def finish(state: Draft) -> dict[str, Any]:
    """The plain state a draft has become (its parts are not copied again)."""
    return dict(state)


def own(state: dict[str, Any], key: str) -> Any:
    """``state[key]``, made the draft's own (a deep copy, once) so that it may be changed.

    A plain dict is its caller's own already: its value is returned as it is.
    """
    if not isinstance(state, Draft) or state.everything or key in state.owned:
        return state[key]
    if (key, None) in state.owned:  # some items were taken one by one: keep those
        for index in range(len(state[key])):
            own_item(state, key, index)
    else:
        state[key] = clone(state[key])
    state.owned.add(key)
    return state[key]


def own_item(state: dict[str, Any], key: str, index: int) -> Any:
    """``state[key][index]`` (one player, one house), made the draft's own so that it may
    be changed: the list under ``key`` is copied (not its items), then that item (deeply),
    each once per draft. A plain dict's item is returned as it is."""
    if not isinstance(state, Draft) or state.everything or key in state.owned:
        return state[key][index]
    if (key, None) not in state.owned:
        state[key] = list(state[key])
        state.owned.add((key, None))
    items = state[key]
    if (key, index) not in state.owned:
        items[index] = clone(items[index])
        state.owned.add((key, index))
    return items[index]


def own_all(state: dict[str, Any]) -> None:
    """Make every part of a draft its own (but the shared keys), for a step that changes
    most of the state (a round's end). Parts taken before stay the same objects, so
    references the rules already hold to them remain valid."""
    if not isinstance(state, Draft) or state.everything:
        return
    for key in list(state):
        if key not in state.share:
            own(state, key)
    state.everything = True
