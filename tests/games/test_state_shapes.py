"""The ``TypedDict``s each game declares for its state and commands tell the truth: every state
of whole games, and every command played in them, has exactly the shape they declare (mypy
checks the code against the same types; this checks the states the code really makes)."""

from __future__ import annotations

import types
from typing import (
    Any,
    Literal,
    NotRequired,
    TypedDict,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

import pytest

from server.engine import get_game
from tests.support import games
from tests.support.playout import Seeded, play, states


def shapes(game: str) -> tuple[Any, Any]:
    """The TypedDicts a game declares for its state and its commands, by the contract's names
    (docs/adding-a-game.md): ``<Name>State`` and ``<Name>Command``."""
    return games.shapes(game)


# Each game at its fewest and most seats with its default options, and each other option set.
GAMES = [(s.game, s.seats, s.options) for s in games.setups(spread=False)]


def mismatches(value: Any, shape: Any, where: str = "") -> list[str]:
    """Where ``value`` differs from the type ``shape`` (empty: it conforms)."""
    origin, args = get_origin(shape), get_args(shape)
    if shape is Any:
        return []
    if shape is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if is_typeddict(shape):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a {shape.__name__}"]
        # Read from the hints: with postponed annotations Python 3.11's ``__required_keys__``
        # does not see ``NotRequired``.
        marked = get_type_hints(shape, include_extras=True)
        optional = {k for k, hint in marked.items() if get_origin(hint) is NotRequired}
        keys = set(value)
        missing = set(marked) - optional - keys
        extra = keys - set(marked)
        found = [f"{where}: {shape.__name__} lacks {sorted(missing)}"] if missing else []
        found += [f"{where}: {shape.__name__} has no {sorted(extra)}"] if extra else []
        hints = get_type_hints(shape)
        for key in keys & set(hints):
            found += mismatches(value[key], hints[key], f"{where}.{key}")
        return found
    if origin in (Union, types.UnionType):
        tries = [mismatches(value, arg, where) for arg in args]
        return [] if any(not t for t in tries) else min(tries, key=len)
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is not one of {args}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__} is not a list"]
        return [
            m for i, item in enumerate(value) for m in mismatches(item, args[0], f"{where}[{i}]")
        ]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} is not a dict"]
        found = []
        for key, item in value.items():
            found += mismatches(key, args[0], f"{where} key")
            found += mismatches(item, args[1], f"{where}[{key!r}]")
        return found
    if shape in (int, str, bool):
        return [] if type(value) is shape else [f"{where}: {value!r} is not a {shape.__name__}"]
    raise AssertionError(f"{where}: no check for the type {shape!r}")


class Player(TypedDict):
    coins: int
    tiles: list[str]


class BidCommand(TypedDict):
    type: Literal["bid"]
    amount: int


class WaitCommand(TypedDict):
    type: Literal["wait"]


def test_the_checker_finds_what_differs() -> None:
    good = {"type": "bid", "amount": 3}
    assert mismatches(good, BidCommand | WaitCommand) == []
    assert mismatches({"type": "bid", "amount": True}, BidCommand) == [".amount: True is not a int"]
    assert mismatches({"type": "bid"}, BidCommand) == [": BidCommand lacks ['amount']"]
    player = {"coins": 1, "tiles": ["jade"], "debt": 0}
    assert mismatches(player, Player) == [": Player has no ['debt']"]


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_every_state_and_command_of_whole_games_has_the_declared_shape(
    game: str, seats: int, options: dict[str, Any]
) -> None:
    engine = get_game(game)
    state_shape, command_shape = shapes(game)
    for seed in ("a", "b"):
        record = play(engine, seats, f"shape-{seed}", options, Seeded(seed))
        for number, state in enumerate(states(engine, record)):
            assert mismatches(state, state_shape, "state") == [], f"after {number} commands"
        for seat, cmd in record.commands:
            assert mismatches(cmd, command_shape, "cmd") == [], f"seat {seat} played {cmd}"
