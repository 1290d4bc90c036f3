"""Reading command fields and picking goods: shared by the actions and the citizens."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from server.engine import RuleError

from .state import Goods, State, good_names, ordered_goods


def int_field(cmd: dict[str, Any], key: str) -> int:
    """``cmd[key]`` as an integer; RuleError('bad_command') for anything else (bools too)."""
    value = cmd.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("bad_command", f"{key} must be an integer, got {value!r}")
    return value


def parse_goods(state: State, raw: Any, key: str = "goods") -> Goods:
    """A goods dict from a command: goods in play, positive integer counts, canonical order.

    Raises RuleError('bad_command') for a malformed dict, ('unknown_good') for a good not in play.
    """
    if not isinstance(raw, dict) or not raw:
        raise RuleError("bad_command", f"{key} must be a non-empty object of good: count")
    names = good_names(state)
    for good, n in raw.items():
        if good not in names:
            raise RuleError("unknown_good", f"{good!r} is not a good in play ({', '.join(names)})")
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise RuleError("bad_command", f"count of {good} must be a positive integer, got {n!r}")
    return ordered_goods(state, raw)


def check_info(cmd: dict[str, Any], key: str, expected: Any) -> None:
    """An informational field may be omitted, but when present it must be current.

    Raises RuleError('stale_command') otherwise.
    """
    if key in cmd and cmd[key] != expected:
        raise RuleError(
            "stale_command", f"{key} is {expected!r} now, the command says {cmd[key]!r}"
        )


def has_goods(owner: Goods, goods: Goods) -> bool:
    """True when ``owner`` holds at least ``goods``."""
    return all(owner.get(g, 0) >= n for g, n in goods.items())


def multisets(goods: Goods, size: int) -> list[Goods]:
    """Every way to pick ``size`` goods out of ``goods`` (a multiset), in a stable order.

    The order is that of ``itertools.combinations_with_replacement`` over the goods in their
    order (more of an earlier good first). ``legal`` asks this for every hire window and buy
    size, and a player's goods repeat a lot, so the picks are made once per (goods, size);
    each caller gets its own dicts.

    >>> multisets({"beer": 2, "shoes": 1}, 2)
    [{'beer': 2}, {'beer': 1, 'shoes': 1}]
    """
    return [dict(pick) for pick in _multisets(tuple(goods.items()), size)]


@lru_cache(maxsize=4096)
def _multisets(
    goods: tuple[tuple[str, int], ...], size: int
) -> tuple[tuple[tuple[str, int], ...], ...]:
    names = [g for g, n in goods if n > 0]
    counts = [n for _, n in goods if n > 0]
    found: list[tuple[tuple[str, int], ...]] = []
    picked: list[int] = [0] * len(names)

    def pick(at: int, left: int) -> None:
        if left == 0:
            found.append(tuple((names[i], n) for i, n in enumerate(picked) if n))
            return
        if at == len(names):
            return
        for n in range(min(counts[at], left), -1, -1):
            picked[at] = n
            pick(at + 1, left - n)
        picked[at] = 0

    pick(0, size)
    return tuple(found)
