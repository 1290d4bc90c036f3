"""The Lantern market game object: the ``Game`` contract, dispatching to the modules."""

from __future__ import annotations

from typing import Any, cast

from server.engine import Command, Event, Result, State, View, clone
from server.engine import planning as pl

from . import flow
from .commands import check_command
from .legal import check, legal
from .scoring import final_result
from .setup import MAX_SEATS, MIN_SEATS, default_options, new_state
from .state import LanternCommand, LanternState
from .views import build_view


class Lantern:
    name = "lantern"
    title = "Lantern market"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS

    def default_options(self) -> dict[str, Any]:
        return default_options()

    def new(self, seats: int, seed: str, options: dict[str, Any]) -> State:
        state = new_state(seats, seed, options)
        flow.start_round(state)
        return _plain(state)

    def to_act(self, state: State) -> set[int]:
        p = _typed(state)["planning"]
        return set(pl.awaiting(p)) if p is not None else set()

    def legal(self, state: State, seat: int) -> list[Command]:
        return legal(_typed(state), seat)

    def apply(self, state: State, seat: int, cmd: Command) -> tuple[State, list[Event]]:
        check_command(cmd)
        check(_typed(state), seat, cmd)
        new = _typed(clone(state))
        events = flow.apply_planning(new, seat, cast(LanternCommand, cmd))
        return _plain(new), events

    def view(self, state: State, seat: int | None) -> View:
        typed = _typed(state)
        mine = legal(typed, seat) if seat is not None else []
        return build_view(typed, seat, self.to_act(state), mine)

    def result(self, state: State) -> Result | None:
        typed = _typed(state)
        return final_result(typed) if typed["phase"] == "over" else None


def _typed(state: State) -> LanternState:
    """The engine's plain state as this game's shape (the same dict; nothing is converted)."""
    return cast(LanternState, state)


def _plain(state: LanternState) -> State:
    return cast(State, state)


GAME = Lantern()
