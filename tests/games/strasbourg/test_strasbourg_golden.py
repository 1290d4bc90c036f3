"""A recorded 4-player game replays to the same final scores: a guard against rule changes
that nobody meant (regenerate the file only when a rule change is intended).

Regenerate with ``.venv/bin/python -m tests.games.strasbourg.test_strasbourg_golden`` and say
in the commit which rule changed. The record was last regenerated when the first influence
card became compulsory (docs/rules/strasbourg.md S-4.2) and one wait started ordering the
whole planning phase (S-4.6); the game it plays includes a wait.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from .helpers import GAME

GOLDEN = Path(__file__).parent / "data" / "golden_4p.json"


def test_the_recorded_game_replays_to_the_recorded_result() -> None:
    record = json.loads(GOLDEN.read_text())
    state = GAME.new(record["seats"], record["seed"], record["options"])
    rounds = 0
    for seat, cmd in record["commands"]:
        assert cmd in GAME.legal(state, seat)
        state, events = GAME.apply(state, seat, cmd)
        rounds += sum(1 for e in events if e["type"] == "RoundStarted")
    assert rounds == 5
    assert GAME.result(state) == record["result"]


def test_the_recorded_game_exercises_a_wait() -> None:
    record = json.loads(GOLDEN.read_text())
    assert any(cmd["type"] == "wait" for _, cmd in record["commands"])


def record_game(seats: int = 4, seed: str = "golden-4") -> dict[str, Any]:
    """Play one game with a seeded random policy that draws a few cards, sometimes waits,
    and otherwise picks uniformly among the legal commands."""
    rng = random.Random(seed)
    options = {"planning": "simultaneous"}
    state = GAME.new(seats, seed, options)
    commands: list[list[Any]] = []
    while GAME.result(state) is None:
        seat = rng.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal(state, seat)
        kinds = {c["type"] for c in legal}
        if "wait" in kinds and rng.random() < 0.1:
            cmd = {"type": "wait"}
        elif "draw" in kinds and len(state["players"][seat]["hand"]) < rng.randint(1, 6):
            cmd = {"type": "draw"}
        else:
            choices = [c for c in legal if c["type"] != "wait"] or legal
            cmd = rng.choice(choices)
        commands.append([seat, cmd])
        state, _ = GAME.apply(state, seat, cmd)
    return {
        "seats": seats,
        "seed": seed,
        "options": options,
        "commands": commands,
        "result": GAME.result(state),
    }


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(record_game(), separators=(",", ":")) + "\n")
