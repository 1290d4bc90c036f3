"""Options and the starting position."""

from __future__ import annotations

from typing import Any

from server.engine import Event, Rng, State, seed_to_state

from .data import components
from .flow import start_round

MIN_SEATS, MAX_SEATS = 2, 4


def default_options() -> dict[str, Any]:
    return {"planning": "simultaneous"}


def new_state(seats: int, seed: str, options: dict[str, Any]) -> tuple[State, list[Event]]:
    """The deal (coins to everyone, the deck shuffled) and round 1 opened, with its events."""
    rng, comps = Rng(seed_to_state(seed)), components()
    deck = list(comps.values)
    rng.shuffle(deck)
    state: State = {
        "seats": seats,
        "options": options,
        "rng": rng.state,
        "round": 0,
        "phase": "planning",
        "start": 0,
        "deck": deck[: comps.rounds],
        "shown": None,
        "players": [{"coins": comps.coins, "lanterns": []} for _ in range(seats)],
        "planning": None,
    }
    return state, start_round(state)
