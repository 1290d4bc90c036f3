"""The phase table: what each phase lets a seat send, what a legal command does, who acts."""

from __future__ import annotations

from typing import Any

from server.engine import Command, State
from server.engine.phases import legal_in, to_act_in

from .flow import BIDDING

PHASES = {"planning": BIDDING.phase()}


def legal(state: State, seat: Any) -> list[Command]:
    return legal_in(PHASES, state, seat)


def to_act(state: State) -> set[int]:
    return to_act_in(PHASES, state)
