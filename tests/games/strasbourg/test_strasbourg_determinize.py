"""Determinization for search bots: a state sampled from a seat's view looks, to that seat,
exactly like the real one, keeps every invariant, and can be played on."""

from __future__ import annotations

import json
import random
from typing import Any

from server.engine import Rng
from server.games.strasbourg.determinize import sample_state
from tests.support.playout import Seeded, play, states

from .helpers import GAME
from .invariants import check_state

SAMPLES_PER_GAME = 40


def _states(seats: int, seed: int, planning: str) -> list[dict[str, Any]]:
    record = play(GAME, seats, f"det-{seed}", {"planning": planning}, Seeded(str(seed)))
    return list(states(GAME, record))


def test_a_sampled_state_gives_the_seat_the_same_view_and_plays_on() -> None:
    for seats, seed, planning in (
        (3, 1, "simultaneous"),
        (4, 2, "ordered"),
        (5, 3, "simultaneous"),
    ):
        states = _states(seats, seed, planning)
        picks = random.Random(seed).sample(states[:-1], min(SAMPLES_PER_GAME, len(states) - 1))
        for i, state in enumerate(picks):
            seat = i % seats
            view = GAME.view(state, seat)
            sampled = sample_state(view, Rng(i))
            assert json.dumps(GAME.view(sampled, seat), sort_keys=True) == json.dumps(
                view, sort_keys=True
            )
            check_state(sampled)
            assert GAME.to_act(sampled) == GAME.to_act(state)
            actor = min(GAME.to_act(sampled))
            GAME.apply(sampled, actor, GAME.legal(sampled, actor)[0])


def test_samples_differ_in_what_the_seat_cannot_see() -> None:
    states = _states(4, 9, "simultaneous")
    state = next(s for s in states if s["phase"] == "influence")
    view = GAME.view(state, 0)
    a, b = sample_state(view, Rng(1)), sample_state(view, Rng(2))
    assert (
        a["players"][1]["deck"] != b["players"][1]["deck"]
        or a["players"][2]["deck"] != b["players"][2]["deck"]
    )
