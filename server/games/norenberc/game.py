"""The Norenberc game object: the engine's phase shell (``server.engine.phases``) over the
rule modules: the phase table in ``legal``, the commands in ``commands``."""

from __future__ import annotations

from typing import Any

from server.engine import Event, Result, State, View
from server.engine.phases import PhaseGame

from . import clauses, flow, scoring, views
from .commands import COMMANDS
from .legal import PHASES, legal, normalize, to_act
from .setup import DEFAULT_OPTIONS, MAX_SEATS, MIN_SEATS, new_state
from .state import UNCHANGING


def _setup(seats: int, seed: str, options: dict[str, Any]) -> tuple[State, list[Event]]:
    """A fresh game, its first turn's planning open, and the opening's event: round 1
    begins, as every later round does (``flow``)."""
    state = new_state(seats, seed, options)
    flow.open_turn(state)
    return state, [flow.round_started(state)]


def _view(state: State, seat: int | None) -> View:
    """What ``seat`` (None: spectator) may know; see docs/norenberc.md."""
    legal_commands = legal(state, seat) if seat is not None else []
    actor = flow.current_actor(state) if state["phase"] == "action" else None
    return views.build_view(
        state, seat, sorted(to_act(state)), legal_commands, actor, scoring.result(state)
    )


def board_view(state: State, seat: int) -> View:
    """The board and ``seat``'s choices: the parts of ``view(state, seat)`` a bot's play-out
    reads (``views.BOARD_PARTS``), each equal to the full view's, made far more cheaply."""
    actor = flow.current_actor(state) if state["phase"] == "action" else None
    return views.board_view(state, seat, sorted(to_act(state)), legal(state, seat), actor)


def _view_from(state: State, seat: int, spectator: View) -> View:
    """``view(state, seat)`` made from ``spectator``, the spectator's view of ``state``, which
    the seat's view shares (neither is ever changed)."""
    return views.seat_view(state, seat, spectator, legal(state, seat))


def _result(state: State) -> Result | None:
    """Final scores with the per-category breakdown once the game is over, else None."""
    outcome = scoring.result(state)
    if outcome is None:
        return None
    return Result(
        scores=outcome["scores"], breakdown=outcome["breakdown"], winners=outcome["winners"]
    )


# Norenberc for 2-5 players (rules: docs/rules/norenberc.md).
GAME = PhaseGame(
    name="norenberc",
    title="Norenberc",
    seats=(MIN_SEATS, MAX_SEATS),
    default_options=lambda: dict(DEFAULT_OPTIONS),
    setup=_setup,
    phases=PHASES,
    commands=COMMANDS,
    view=_view,
    result=_result,
    citations=clauses.CITATIONS,
    normalize=normalize,
    unchanging=UNCHANGING,
    view_from=_view_from,
)
