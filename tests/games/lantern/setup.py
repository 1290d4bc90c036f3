"""Options and the starting position."""

from __future__ import annotations

from typing import Any

from server.engine import Rng, RuleError, seed_to_state
from server.engine.planning import check_planning_option

from .data import components
from .state import LanternState

MIN_SEATS, MAX_SEATS = 2, 4


def default_options() -> dict[str, Any]:
    return {"planning": "simultaneous"}


def new_state(seats: int, seed: str, options: dict[str, Any]) -> LanternState:
    """The deal: coins to everyone, the deck shuffled; ``flow.start_round`` opens round 1."""
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleError("bad_seats", f"Lantern market takes {MIN_SEATS}-{MAX_SEATS} seats")
    unknown = set(options) - set(default_options())
    if unknown:
        raise RuleError("bad_option", f"unknown option(s) {sorted(unknown)}")
    merged = {**default_options(), **options}
    check_planning_option(merged["planning"])
    comps = components()
    rng = Rng(seed_to_state(seed))
    deck = list(comps.values)
    rng.shuffle(deck)
    return {
        "seats": seats,
        "options": merged,
        "rng": rng.state,
        "round": 0,
        "phase": "planning",
        "start": 0,
        "deck": deck[: comps.rounds],
        "shown": None,
        "players": [{"coins": comps.coins, "lanterns": []} for _ in range(seats)],
        "planning": None,
    }
