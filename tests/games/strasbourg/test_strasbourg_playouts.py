"""Whole Strasbourg games from fixed seeds: every legal command is accepted in reachable
states, a finished game refuses commands and shows the result, and play-outs take stacks
back. (The random play-outs with every invariant are in test_strasbourg_harness.py.)"""

from __future__ import annotations

import json

from server.engine import RuleError
from tests.support.playout import Seeded, play, states

from .helpers import GAME


def test_every_legal_command_is_accepted_in_reachable_states() -> None:
    record = play(GAME, 4, "playout-11", {"planning": "simultaneous"}, Seeded("11"))
    for (seat, _), state in zip(record.commands[:150], states(GAME, record), strict=False):
        for option in GAME.legal(state, seat)[:40]:
            GAME.apply(state, seat, option)  # raises if legal listed something apply refuses


def test_a_finished_game_refuses_commands_and_shows_the_result() -> None:
    state = play(GAME, 3, "playout-5", {"planning": "ordered"}, Seeded("5")).final
    assert state is not None
    try:
        GAME.apply(state, 0, {"type": "pass"})
    except RuleError as err:
        assert err.code == "game_over"
    else:
        raise AssertionError("a finished game accepted a command")
    view = GAME.view(state, 1)
    assert view["phase"] == "over" and view["result"] == GAME.result(state)
    assert json.loads(json.dumps(view)) == view


def test_play_outs_exercise_taking_stacks_back() -> None:
    retracted = 0
    for seed in range(6):
        record = play(GAME, 4, f"playout-{seed}", {"planning": "simultaneous"}, Seeded(str(seed)))
        retracted += sum(1 for _, cmd in record.commands if cmd["type"] == "retract")
    assert retracted > 0
