"""Strict command shapes: every command a game accepts has exactly the shape of its schema,
replays from its stored JSON and lets every seat's view be built; near-legal commands (a
float for an integer, a boolean, a string, an unknown key, a list too long) are refused with
``bad_command`` or another rule code, never with a crash, and change nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from server.engine import Game, RuleError, get_game
from server.engine.schema import CommandSchema
from server.games.norenberc.commands import COMMANDS as NORENBERC_COMMANDS
from server.games.strasbourg.commands import COMMANDS as STRASBOURG_COMMANDS

from .mutations import mutate

SCHEMAS: dict[str, CommandSchema] = {
    "norenberc": NORENBERC_COMMANDS,
    "strasbourg": STRASBOURG_COMMANDS,
}
GAMES = [("norenberc", 2), ("norenberc", 5), ("strasbourg", 3), ("strasbourg", 5)]
MAX_COMMANDS = 3000
MUTATIONS_PER_STEP = 3


def every_view(game: Game, state: dict[str, Any]) -> None:
    """Every seat's and a spectator's view builds and is JSON."""
    for seat in [None, *range(state["seats"])]:
        json.dumps(game.view(state, seat), allow_nan=False)


def acting_seat(game: Game, state: dict[str, Any], rng: random.Random) -> int:
    return rng.choice(sorted(game.to_act(state)))


@pytest.mark.parametrize(("name", "seats"), GAMES)
def test_each_game_lists_only_commands_of_its_schema_and_each_replays_from_json(
    name: str, seats: int
) -> None:
    game, schema, rng = get_game(name), SCHEMAS[name], random.Random(f"{name}-{seats}")
    state = game.new(seats, f"shapes-{name}-{seats}", game.default_options())
    stored: list[tuple[int, str]] = []
    while game.result(state) is None:
        assert len(stored) < MAX_COMMANDS, "the game did not end"
        seat = acting_seat(game, state, rng)
        legal = game.legal(state, seat)
        for cmd in legal:
            schema.check(cmd)  # every legal command has exactly the schema's shape
        chosen = rng.choice(legal)
        state, _ = game.apply(state, seat, chosen)
        stored.append((seat, json.dumps(chosen, allow_nan=False)))
    # Replay what the store would hold (JSON text), building every view at every step.
    replayed = game.new(seats, f"shapes-{name}-{seats}", game.default_options())
    for seat, text in stored:
        replayed, _ = game.apply(replayed, seat, json.loads(text))
        every_view(game, replayed)
    assert replayed == state


@pytest.mark.parametrize(("name", "seats"), GAMES)
def test_near_legal_commands_are_refused_cleanly_in_every_phase(name: str, seats: int) -> None:
    game, schema, rng = get_game(name), SCHEMAS[name], random.Random(f"near-{name}-{seats}")
    state = game.new(seats, f"near-{name}-{seats}", game.default_options())
    codes: dict[str, int] = {}
    tried = accepted = 0
    while game.result(state) is None:
        seat = acting_seat(game, state, rng)
        legal = game.legal(state, seat)
        before = json.dumps(state, sort_keys=True)
        for _ in range(MUTATIONS_PER_STEP):
            near = mutate(rng.choice(legal), rng)
            tried += 1
            try:
                after, _ = game.apply(state, seat, near)
            except RuleError as exc:
                codes[exc.code] = codes.get(exc.code, 0) + 1
                continue
            # Accepted: it must be a command of the schema that replays from its JSON (a
            # mutation may happen to leave a legal command, e.g. without an optional field).
            accepted += 1
            schema.check(near)
            assert game.apply(state, seat, json.loads(json.dumps(near)))[0] == after
            every_view(game, after)
        assert json.dumps(state, sort_keys=True) == before  # refused input changed nothing
        state, _ = game.apply(state, seat, rng.choice(legal))
    print(f"{name} {seats}p: {tried} near-legal commands, {accepted} legal, refused {codes}")
    assert codes.get("bad_command", 0) > tried // 2
