"""A recorded 4-player game replays to the same final scores: a guard against rule changes
that nobody meant (regenerate the file only when a rule change is intended)."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import GAME

GOLDEN = Path(__file__).parent / "data" / "golden_4p.json"


def test_the_recorded_game_replays_to_the_recorded_result() -> None:
    record = json.loads(GOLDEN.read_text())
    state = GAME.new(record["seats"], record["seed"], record["options"])
    rounds = 0
    for seat, cmd in record["commands"]:
        state, events = GAME.apply(state, seat, cmd)
        rounds += sum(1 for e in events if e["type"] == "RoundStarted")
    assert rounds == 5
    assert GAME.result(state) == record["result"]
