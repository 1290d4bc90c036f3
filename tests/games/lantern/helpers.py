"""Shortcuts for the Lantern market tests."""

from __future__ import annotations

from typing import Any

from server.engine import Event, State

from . import GAME


def new_game(seats: int = 3, seed: str = "lantern", **options: Any) -> State:
    return GAME.new(seats, seed, options)


def play(state: State, seat: int, cmd: dict[str, Any]) -> tuple[State, list[Event]]:
    return GAME.apply(state, seat, cmd)


def bid_all(state: State, amounts: list[int]) -> tuple[State, list[Event]]:
    """Every seat bids, in this round's planning order."""
    events: list[Event] = []
    for seat in list(state["planning"]["order"]):
        state, more = play(state, seat, {"type": "bid", "amount": amounts[seat]})
        events += more
    return state, events
