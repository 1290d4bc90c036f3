"""The state's shape. At run time these are plain dicts (the state is JSON); mypy checks the
rule code against them."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from .data import components


class Player(TypedDict):
    coins: int  # public
    lanterns: list[str]  # won, public


class LanternState(TypedDict):
    seats: int
    options: dict[str, Any]
    rng: int  # the generator's state (nobody sees it)
    round: int  # 1-based
    phase: Literal["planning", "over"]
    start: int  # first in this round's planning order; moves on each round
    deck: list[str]  # lanterns still to come, top first (hidden order)
    shown: str | None  # this round's lantern
    players: list[Player]
    planning: dict[str, Any] | None  # ``server.engine.planning``'s record; plans are bids


class BidCommand(TypedDict):
    type: Literal["bid"]
    amount: int


class WaitCommand(TypedDict):
    type: Literal["wait"]


class RetractCommand(TypedDict):
    type: Literal["retract"]


LanternCommand = BidCommand | WaitCommand | RetractCommand
State = LanternState


def value_of(lantern: str) -> int:
    return components().values[lantern]


def round_order(state: Any) -> list[int]:
    """This round's planning order: clockwise from ``start``."""
    n = state["seats"]
    return [(state["start"] + i) % n for i in range(n)]
