"""The lanterns, the starting coins and the number of rounds, read from ``lantern.json``
(next to this module: a test game keeps its data beside it, a real one in ``seeds/``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from server.engine.data import DataError, read_json

DATA_PATH = Path(__file__).with_name("lantern.json")


@dataclass(frozen=True)
class Components:
    coins: int
    rounds: int
    values: dict[str, int]  # lantern id -> value, in the file's order


@cache
def components() -> Components:
    """The validated data (read once)."""
    return parse(read_json(DATA_PATH))


def parse(raw: Any) -> Components:
    """Validate the decoded file; DataError naming the bad entry."""
    where = DATA_PATH.name
    if not isinstance(raw, dict) or set(raw) != {"coins", "rounds", "lanterns"}:
        raise DataError(f"{where}: needs exactly the keys coins, rounds, lanterns")
    coins, rounds, lanterns = raw["coins"], raw["rounds"], raw["lanterns"]
    if type(coins) is not int or not 1 <= coins <= 99:
        raise DataError(f"{where}: coins must be an integer 1-99, not {coins!r}")
    if not isinstance(lanterns, list) or not lanterns:
        raise DataError(f"{where}: lanterns must be a non-empty list")
    values: dict[str, int] = {}
    for i, entry in enumerate(lanterns):
        ok = isinstance(entry, dict) and set(entry) == {"id", "value"}
        if not ok or not isinstance(entry["id"], str) or type(entry["value"]) is not int:
            raise DataError(f"{where}: lanterns[{i}] must be {{'id': str, 'value': int}}")
        if entry["id"] in values or entry["value"] < 1:
            raise DataError(f"{where}: lanterns[{i}] repeats an id or has no value")
        values[entry["id"]] = entry["value"]
    if type(rounds) is not int or not 1 <= rounds <= len(values):
        raise DataError(f"{where}: rounds must be 1-{len(values)}, not {rounds!r}")
    return Components(coins=coins, rounds=rounds, values=values)
