"""Near-legal commands: a legal command with one thing wrong (a type, a key, a size).

Used by the engine-level shape test and by the websocket fuzzer. Every mutation is
deterministic for a given ``random.Random``; most should be refused with ``bad_command``,
and none may ever be stored unless it is exactly a legal command.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

Command = dict[str, Any]
LONE_SURROGATE = "\ud800"
HUGE = 10**40

# What a JSON value may be turned into instead of itself.
_REPLACEMENTS: list[Callable[[Any], Any]] = [
    lambda v: float(v) if type(v) is int else 9.0,
    lambda v: True,
    lambda v: False,
    lambda v: None,
    lambda v: str(v),
    lambda v: [v],
    lambda v: {"v": v},
    lambda v: -1,
    lambda v: HUGE,
    lambda v: -HUGE,
    lambda v: 1e308,
    lambda v: "x\u0000y",
    lambda v: LONE_SURROGATE,
    lambda v: "é" * 300,
    lambda v: [],
    lambda v: {},
    lambda v: [[[[[[v]]]]]],
]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a command (keys of dicts, indexes of lists) but the top level."""
    found: list[tuple[Any, ...]] = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, (*path, key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found.extend(_paths(item, (*path, i)))
    return found


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> None:
    _get(value, path[:-1])[path[-1]] = new


def mutate(cmd: Command, rng: random.Random) -> Any:
    """One near-legal variant of ``cmd`` (a new object; ``cmd`` is untouched)."""
    out = copy.deepcopy(cmd)
    places = [p for p in _paths(out) if p != ("type",)]
    kind = rng.randrange(10)
    if kind == 0:
        key = rng.choice(["x", "seat", "Type", "", "__proto__", "type "])
        out[key] = rng.choice([1, "a", None])
    elif kind == 1 and places:
        top = [p for p in places if len(p) == 1]
        if top:
            del out[rng.choice(top)[0]]
            return out
    elif kind == 2:
        out["type"] = rng.choice(
            [cmd["type"].upper(), cmd["type"] + " ", 7, None, ["plan"], "", "x" * 200, "\u0000"]
        )
        return out
    elif kind == 3:
        lists = [p for p in places if isinstance(_get(out, p), list)]
        if lists:
            target = _get(out, rng.choice(lists))
            target.extend(copy.deepcopy(target[:1] or [1]) * rng.choice([1, 30, 200]))
            return out
    elif kind == 4:
        return rng.choice([[cmd], cmd["type"], 3, True, None, [], "{}"])
    if not places:
        out[rng.choice(["count", "guilds", "tasks", "cell"])] = rng.choice([9.0, True, "3"])
        return out
    path = rng.choice(places)
    _set(out, path, rng.choice(_REPLACEMENTS)(_get(out, path)))
    return out
