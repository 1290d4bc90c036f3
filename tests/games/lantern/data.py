"""The lanterns, the starting coins and the number of rounds, read from ``lantern.json``
(next to this module: a test game keeps its data beside it, a real one in ``seeds/``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from server.engine.data import DataError, read_shaped
from server.engine.schema import Int, ListOf, Record, Str

DATA_PATH = Path(__file__).with_name("lantern.json")
LANTERN = Record({"id": Str(16), "value": Int(1, 99)})
SHAPE = Record({"coins": Int(1, 99), "rounds": Int(1, 99), "lanterns": ListOf(LANTERN, 99, 1)})


@dataclass(frozen=True)
class Components:
    coins: int
    rounds: int
    values: dict[str, int]  # lantern id -> value, in the file's order


@cache
def components() -> Components:
    """The validated data (read once); DataError naming what is wrong."""
    raw = read_shaped(DATA_PATH, SHAPE)
    values = {entry["id"]: entry["value"] for entry in raw["lanterns"]}
    if len(values) < len(raw["lanterns"]) or raw["rounds"] > len(values):
        raise DataError(f"{DATA_PATH.name}: lantern ids repeat, or more rounds than lanterns")
    return Components(coins=raw["coins"], rounds=raw["rounds"], values=values)
