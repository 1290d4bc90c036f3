"""The Strasbourg game object: the engine's phase shell (``server.engine.phases``) over the
rule modules: the phase table in ``legal``, the commands in ``commands``."""

from __future__ import annotations

from typing import Any

from server.engine import Event, Result, State, View
from server.engine.phases import PhaseGame

from . import clauses
from .commands import COMMANDS
from .legal import PHASES, normalize, to_act
from .scoring import final_result
from .setup import default_options, new_state, tasks_dealt
from .state import UNCHANGING
from .views import build_view, seat_view


def _setup(seats: int, seed: str, options: dict[str, Any]) -> tuple[State, list[Event]]:
    """Setup, and the opening's event: who starts, and the task choice that opens the game."""
    state = new_state(seats, seed, options)
    return state, [tasks_dealt(state)]


def _view(state: State, seat: int | None) -> View:
    return build_view(state, seat, to_act(state))


def _result(state: State) -> Result | None:
    return final_result(state) if state["phase"] == "over" else None


# Strasbourg for 3–5 players; see docs/strasbourg.md for commands, views and events.
GAME = PhaseGame(
    name="strasbourg",
    title="Strasbourg",
    seats=(3, 5),
    default_options=default_options,
    setup=_setup,
    phases=PHASES,
    commands=COMMANDS,
    view=_view,
    result=_result,
    citations=clauses.CITATIONS,
    normalize=normalize,
    unchanging=UNCHANGING,
    # The server builds what every seat may know once per version (the spectator's view),
    # and per seat only what differs.
    view_from=seat_view,
)
