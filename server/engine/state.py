"""Copying game states: one ``clone`` for every game.

A state is plain JSON data (dicts, lists, str, int, float, bool, None), so a copy needs no
``copy.deepcopy`` machinery: a recursive walk that copies only containers is several times
faster, and ``apply`` (and so bot search) copies a state for every command. A game that wants
to copy less (only the parts a command changes) can build on this function.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

_ATOMS = (int, str, bool, float, type(None))

T = TypeVar("T")


def clone(value: T) -> T:
    """A deep copy of plain JSON data.

    >>> a = {"x": [1, [2]]}; b = clone(a); b["x"][1].append(3); a
    {'x': [1, [2]]}
    """
    return cast(T, _clone(value))


def _clone(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _clone(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _clone(v) for v in value]
    return value
