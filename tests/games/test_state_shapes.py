"""The ``TypedDict``s of each game's ``state.py`` tell the truth: every state of whole games,
and every command played in them, has exactly the shape they declare (mypy checks the code
against the same types; this checks the states the code really makes)."""

from __future__ import annotations

import types
from typing import (
    Any,
    Literal,
    NotRequired,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

import pytest

import tests.games.lantern.state as lantern
from server.engine import get_game
from server.games.norenberc import state as norenberc
from server.games.strasbourg import state as strasbourg
from tests.support.playout import Seeded, play, states

SHAPES: dict[str, tuple[Any, Any]] = {
    "norenberc": (norenberc.NorenbercState, norenberc.NorenbercCommand),
    "strasbourg": (strasbourg.StrasbourgState, strasbourg.StrasbourgCommand),
    "lantern": (lantern.LanternState, lantern.LanternCommand),
}
GAMES = [
    ("norenberc", 2, {"planning": "simultaneous", "promo": False}),
    ("norenberc", 5, {"planning": "ordered", "promo": True}),
    ("strasbourg", 3, {"planning": "simultaneous"}),
    ("strasbourg", 5, {"planning": "ordered"}),
    ("lantern", 4, {"planning": "simultaneous"}),
]


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


def test_the_checker_finds_what_differs() -> None:
    good = {"type": "bid", "amount": 3}
    assert mismatches(good, lantern.LanternCommand) == []
    assert mismatches({"type": "bid", "amount": True}, lantern.BidCommand) == [
        ".amount: True is not a int"
    ]
    assert mismatches({"type": "bid"}, lantern.BidCommand) == [": BidCommand lacks ['amount']"]
    player = {"coins": 1, "lanterns": ["jade"], "debt": 0}
    assert mismatches(player, lantern.Player) == [": Player has no ['debt']"]


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_every_state_and_command_of_whole_games_has_the_declared_shape(
    game: str, seats: int, options: dict[str, Any]
) -> None:
    engine = get_game(game)
    state_shape, command_shape = SHAPES[game]
    for seed in ("a", "b"):
        record = play(engine, seats, f"shape-{seed}", options, Seeded(seed))
        for number, state in enumerate(states(engine, record)):
            assert mismatches(state, state_shape, "state") == [], f"after {number} commands"
        for seat, cmd in record.commands:
            assert mismatches(cmd, command_shape, "cmd") == [], f"seat {seat} played {cmd}"
